/*
 * engine.h — the window analysis over the ownership IR (DESIGN §2).
 *
 * Walks a function's IR along its paths with the set of values that may be
 * live and unowned, and records observations: each checkpoint where a value
 * is live (protected, and how — or not, and which handlers miss
 * cancellation), each remote create and thread-made resource with its
 * timeout/shield context, each cleanup await, each handler that lets
 * cancellation complete. Rules (rule_*.c) turn observations into findings;
 * the engine knows nothing of rule ids or messages. Reads only the IR.
 */
#ifndef CA_ENGINE_H
#define CA_ENGINE_H

#include <stdint.h>

#include "ir/ir.h"

/* Protection kinds, most specific first (DESIGN §4). */
#define PROT_BASE_SHIELD 0x01u /* except BaseException + shield */
#define PROT_BASE        0x02u /* except BaseException (or bare) */
#define PROT_CANCEL      0x04u /* except CancelledError */
#define PROT_FINALLY     0x08u
#define PROT_CM          0x10u /* context manager */
#define PROT_EXIT_STACK  0x20u
#define PROT_SHIELDED    0x40u /* inside a shield scope */
const char *eng_protection_name(unsigned single_bit);
/* The most specific protection in a set, or "" when none. */
const char *eng_protection_best(unsigned bits);

/* What a function does with its parameters: the summary a caller applies. */
typedef struct eng_summary {
    uint64_t releases;      /* bit p: releases parameter p */
    uint64_t takes_early;   /* bit p: takes ownership of p before its first checkpoint */
    uint64_t takes_late;    /* bit p: takes ownership of p after a checkpoint */
    int has_checkpoint;
} eng_summary;

void eng_summarize(const ir_func *f, eng_summary *out);

/* Resolving calls into the scanned code: returns the callee (NULL when not
 * in the scan) and its summary; *param_offset is 1 when argument 0 maps to
 * parameter 1 (self.m(...)). */
typedef struct eng_resolver {
    void *ctx;
    const ir_func *(*resolve)(void *ctx, const ir_module *m, const ir_func *caller, const ir_node *call,
                              const eng_summary **summary, int *param_offset);
} eng_resolver;

/* Fold in what the function's CALL_RUNS_CALLEE calls do (their callees'
 * current summaries, through r): a callee that reaches a checkpoint, or that
 * releases or takes a parameter handed to it. Returns 1 when *io changed;
 * the scan driver repeats it over all functions until nothing changes. */
int eng_summary_update(const ir_module *m, const ir_func *f, const eng_resolver *r, eng_summary *io);

typedef enum eng_obs_kind {
    OBS_WINDOW,        /* a value live across a checkpoint, unprotected */
    OBS_REMOTE,        /* an awaited remote create */
    OBS_EXECUTOR,      /* an awaited thread-made resource */
    OBS_CLEANUP_AWAIT, /* an unshielded cleanup await in a cancellation handler / finally */
    OBS_SWALLOW,       /* a handler catching cancellation completes without re-raising */
} eng_obs_kind;

typedef struct eng_obs {
    eng_obs_kind kind;
    int var;                       /* the value (-1 when none) */
    const ir_node *at;             /* checkpoint / remote / executor node */
    ir_site site;                  /* primary location */
    const ir_node *acquired;       /* the acquire (or take) node of var */
    int registry_take;             /* var came out of a registry */
    const ir_handler **missing;    /* handlers that release var but miss cancellation */
    int nmissing;
    int in_timeout, shielded;      /* OBS_REMOTE */
    const ir_handler *handler;     /* OBS_SWALLOW / OBS_CLEANUP_AWAIT */
} eng_obs;

typedef struct eng_result {
    eng_obs *obs;
    int nobs, cap;
    unsigned protections;          /* every protection seen at a window checkpoint */
    int had_window;                /* some value was live across a checkpoint */
    const ir_func **callees;       /* resolved calls (for the matrix) */
    int ncallees, cap_callees;
    ca_arena arena;                /* owns obs->missing */
} eng_result;

void eng_analyze(const ir_module *m, const ir_func *f, const eng_resolver *r, eng_result *out);
void eng_result_free(eng_result *r);

#endif
