/*
 * engine.h — the path walker over the ownership IR (DESIGN §2).
 *
 * Where it sits: frontends lower files to the IR; the engine walks each
 * function's IR along its paths and tells the rules (analyzer/rules/) what
 * it meets; the rules turn that into findings. It knows no rule id and no
 * library: only the IR.
 *
 * The walk tracks, per path, the values that may be live and unowned
 * (acquired, not yet transferred or released), what a context manager or
 * exit stack owns, and the regions around the current point (try bodies
 * with their handlers, finally blocks, with scopes). Joins are bitwise OR:
 * a may-analysis. It emits typed events to listeners (eng_listener):
 *
 *   ENG_EV_CHECKPOINT  cancellation can be delivered here; the event lists
 *                      the live values no enclosing region protects (the
 *                      windows), with the handlers that would release each
 *                      but miss cancellation
 *   ENG_EV_HANDLER     a path enters a handler of a try
 *   ENG_EV_HANDLER_EXIT a path leaves a handler: by its end (node NULL) or
 *                      by an exception raised inside it (node: the raise,
 *                      call or await it comes from); the event's state is
 *                      that path's, on its way out
 *   ENG_EV_BRANCH      a path enters a branch of an if (node, branch)
 *   ENG_EV_RAISE       a path reaches a raise statement (it ends there, or
 *                      goes on in a handler)
 *   ENG_EV_EXIT        a path leaves the function normally (a return, or
 *                      the end of the body)
 *   ENG_EV_AWAIT_CALL  a call is awaited (remote creates are judged here)
 *   ENG_EV_EXECUTOR    thread work produces a value
 *   ENG_EV_TAKE        values are taken out of a registry
 *
 * Besides ownership, a path carries what it knows of variables bound to
 * True/False/None (IR_BIND) and tested (an if's atoms): a branch whose
 * test cannot hold on a path is not walked by it (`registered = True` ...
 * `if not registered:`).
 *
 * A listener may keep per-path state: nstate bytes that travel with every
 * path (copied at branches, OR-ed at joins, gone when a path ends) and are
 * handed to it in each event (eng_event.state). That is how a rule follows
 * something along paths without the engine knowing what it is.
 *
 * What the coverage matrix needs of a function comes back in eng_result:
 * the protections seen at checkpoints, whether any value was live across
 * one, and the resolved callees.
 *
 * Limits: every bound on the walk is named below; hitting one sets a bit in
 * eng_result.limits, which the scan reports as a per-function diagnostic.
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

/* A loop's body is walked until its entry state stops changing, at most
 * this many times; a loop still changing then is left as it is. */
#define ENG_LOOP_PASSES 3
/* In functions with more variables than ENG_REL_MATRIX_MAX, "does x own v"
 * follows member → owner edges for at most this many steps. */
#define ENG_OWNER_STEPS 4096
#define ENG_REL_MATRIX_MAX 512

/* eng_result.limits */
#define ENG_LIMIT_LOOP   0x01u /* a loop did not settle in ENG_LOOP_PASSES passes */
#define ENG_LIMIT_OWNER  0x02u /* an ownership search stopped after ENG_OWNER_STEPS steps */
/* A readable sentence for a set of ENG_LIMIT_* bits (heap; caller frees). */
char *eng_limit_message(unsigned limits, const char *qualname, int line);

/* What a function does with its parameters: the summary a caller applies. */
typedef struct eng_summary {
    uint64_t releases;      /* bit p: releases parameter p (or, awaiting it, settles it) */
    uint64_t takes_early;   /* bit p: takes ownership of p before its first checkpoint */
    uint64_t takes_late;    /* bit p: takes ownership of p after a checkpoint */
    uint64_t passes;        /* bit p: it awaits p (a task, a generator's step, a read that releases p
                               when cancelled), or hands p to a helper of the tree that does: a
                               cancellation of the call is delivered into p */
    uint64_t uses;          /* bit p: p (or a part of it) appears in some event: handed to a call,
                               released, stored, awaited; a parameter the function ignores is not
                               cleanup for it */
    int has_checkpoint;
    int suspends;           /* an await of it can suspend: it reaches a checkpoint that can (Python,
                               to a fixed point over the calls it awaits); eng_summarize sets it
                               like has_checkpoint, the scan narrows it */
    int noreturn;           /* every path raises (or the def says -> NoReturn / Never) */
    int returns;            /* what its return values are: ENG_RET_* */
    int returns_param;      /* 1 + the parameter every path returns unchanged (`return state`), 0 when
                               none: the call's result is that argument, no new value */
    int remote;             /* awaiting it (or running it) may leave a server-side resource made and
                               unowned: it awaits a remote create without a shield, itself (the rules
                               seed it: rules_seed_summary) or through a function of the tree it awaits
                               (eng_summary_update) */
} eng_summary;
#define ENG_RET_UNKNOWN  0
#define ENG_RET_RESOURCE 1  /* returns something it acquired (a resource) */
#define ENG_RET_PLAIN    2  /* never returns a resource (annotated as a plain type, or returns only values
                               it did not acquire) */
#define ENG_RET_BORROWED 3  /* returns something it (or self) keeps: the caller is not its owner */
#define ENG_RET_QUIET_CM 5  /* returns a context manager that suspends neither on enter nor on exit
                               (a helper around a catalogued timeout scope) */
#define ENG_RET_TAKEN    4  /* returns what it took out of a registry (`return self._d.pop(k)`): the caller
                               holds an entry nothing else does */
#define ENG_RET_KEPT     6  /* every value it returns is one an owner keeps on the path that returns it (an
                               entry it read out of a registry, or stored, or gave to a method of self or of a
                               module-level object that keeps it): the caller borrows it */
#define ENG_RET_MAX      6  /* the largest ENG_RET_* (what a stored summary may say) */

void eng_summarize(const ir_func *f, eng_summary *out);

/* Resolving calls into the scanned code: returns the callee (NULL when not
 * in the scan) and its summary; *param_offset is 1 when argument 0 maps to
 * parameter 1 (self.m(...)). */
typedef struct eng_resolver {
    void *ctx;
    const ir_func *(*resolve)(void *ctx, const ir_module *m, const ir_func *caller, const ir_node *call,
                              const eng_summary **summary, int *param_offset);
    /* What the scanned tree says of the class `name` (a call's callee as
     * written, a return annotation): ENG_CLASS_* bits, 0 when it is not a
     * class of the tree. May be NULL. */
    unsigned (*class_of)(void *ctx, const ir_module *m, const char *name);
} eng_resolver;
#define ENG_CLASS_KNOWN 0x01u /* defined in the tree, and so is every base (but plain ones) */
#define ENG_CLASS_OWNS  0x02u /* it, or a base, releases or holds a resource of its own */
#define ENG_CLASS_DATA  0x04u /* a data model (dataclass, pydantic, NamedTuple, enum, ...) */
#define ENG_CLASS_JOINS  0x10u /* its constructor (or a base's) hands the new object to an argument
                                   (`conn.add_channel(self)`): made with a value of another owner, it is that
                                   owner's */
#define ENG_CLASS_STEP_RELEASES 0x08u /* its __anext__ (or a base's) releases the object when cancelled: a
                                          cancellation of `async for x in obj` is delivered there */
#define ENG_CLASS_ENDPOINT 0x20u /* a web framework's handler class, or one derived from it (CLASS_ENDPOINT) */
#define ENG_CLASS_INIT_HOLDS 0x40u /* its constructor (or a base's) may leave the new object holding something: it
                                       stores a catalogued resource on self, hands self to an argument, or calls a
                                       method of self while a plain method of the class stores one (a class whose
                                       constructor does none of these makes an object that holds nothing until a
                                       method of it runs) */
#define ENG_CLASS_SERVICE 0x100u /* a framework's service class, or one derived from it (CLASS_SERVICE) */
#define ENG_CLASS_TEST 0x200u /* a test framework's test case class, or one derived from it (CLASS_TEST) */
#define ENG_CLASS_EVENT 0x400u /* a chat framework's interactive component, or one derived from it (CLASS_EVENT) */
#define ENG_CLASS_PLAIN_INIT 0x80u /* its own __init__ only stores parameters or literals on self (FN_PLAIN_INIT):
                                       constructing it does not raise */

/* Fold in what the function's CALL_RUNS_CALLEE calls do (their callees'
 * current summaries, through r): a callee that reaches a checkpoint, or that
 * releases or takes a parameter handed to it. Returns 1 when *io changed;
 * the scan driver repeats it over all functions until nothing changes. */
int eng_summary_update(const ir_module *m, const ir_func *f, const eng_resolver *r, eng_summary *io);
/* Whether an await of f can suspend, given its callees' current summaries:
 * a function that only awaits async functions of the tree that never
 * suspend does not. Start every lowered function at suspends = 0 and call
 * this until nothing changes (it only ever sets the flag); returns 1 when it
 * set it. */
int eng_suspends_update(const ir_module *m, const ir_func *f, const eng_resolver *r, eng_summary *io);
/* Can checkpoint cp of f suspend? 0 only for an await of a call that
 * resolves to an async function of the tree whose summary says it never
 * suspends. */
int eng_checkpoint_suspends(const ir_module *m, const ir_func *f, const eng_resolver *r, const ir_node *cp);
/* The function of the tree an IR_AWAIT_CALL (or an IR_EXECUTOR's ref)
 * awaits, through r, with its summary; NULL when not in the scan (a method
 * of an object other than self is not resolved by name). */
const ir_func *eng_resolve_awaited(const ir_module *m, const ir_func *f, const eng_resolver *r, const ir_node *n,
                                   const eng_summary **sum);
/* `await SkyvernFrame.create_instance(page)`: is callee, what the
 * IR_AWAIT_CALL n awaits, an alternative constructor (annotated to return
 * its own class, called through it) of a class of the tree that owns
 * nothing, itself no remote create? It builds an object in memory. */
int eng_local_constructor(const ir_module *m, const eng_resolver *r, const ir_node *n, const ir_func *callee,
                          const eng_summary *sum);
/* The parameter of callee that argument k of call n is bound to, or -1
 * (keywords by name, positionals by position, extra ones in *args); off is
 * the resolver's parameter offset (1 for self.m(...)). */
int eng_call_param(const ir_node *n, int k, const ir_func *callee, int off);

/* ---- the walk and its events ------------------------------------------ */

typedef struct eng_walk eng_walk; /* the walk in progress (opaque) */

typedef enum eng_event_kind {
    ENG_EV_CHECKPOINT,
    ENG_EV_HANDLER,
    ENG_EV_HANDLER_EXIT,
    ENG_EV_BRANCH,
    ENG_EV_RAISE,
    ENG_EV_EXIT,
    ENG_EV_AWAIT_CALL,
    ENG_EV_EXECUTOR,
    ENG_EV_TAKE,
    ENG_EV__COUNT
} eng_event_kind;
#define ENG_ON(kind) (1u << (kind))

/* A value live and unowned at a checkpoint that no region protects. */
typedef struct eng_window {
    int var;
    const ir_node *acquired;             /* its acquire (or take) node */
    int registry_take;                   /* it came out of a registry */
    const ir_handler *const *missing;    /* handlers that release it but miss cancellation */
    int nmissing;
    const ir_handler *conditional;       /* a handler that catches cancellation but releases it only on
                                            branches this path cannot take (`if entry is not None:` while
                                            entry is still None), or NULL */
} eng_window;

typedef struct eng_event {
    eng_event_kind kind;
    /* CHECKPOINT: the checkpoint, WITH (enter and exit), LOOP (async for
     * step) or CALL (a callee that reaches one) node; HANDLER: the TRY;
     * RAISE: the RAISE;
     * EXIT: the RETURN, NULL at the end of the body; AWAIT_CALL, EXECUTOR,
     * TAKE: that node */
    const ir_node *node;
    ir_site site;
    const ir_handler *handler;           /* HANDLER, HANDLER_EXIT */
    int by_exception;                    /* HANDLER_EXIT: left by an exception */
    int branch;                          /* BRANCH: which (an if without else: nbranches for its fall-through) */
    const eng_window *windows;           /* CHECKPOINT */
    int nwindows;
    int shielded;                        /* inside a shield scope */
    int in_timeout;                      /* inside a timeout scope */
    uint32_t exc_from;                   /* CHECKPOINT on a path entered by an exception (a handler, or a
                                            finally walked for raising paths): where the innermost such
                                            region starts; 0 on ordinary paths */
    uint8_t *state;                      /* this listener's per-path bytes (NULL when nstate is 0) */
} eng_event;

typedef struct eng_listener {
    void *ctx;
    unsigned events;                     /* ENG_ON(...) of the kinds it wants */
    int nstate;                          /* per-path bytes it keeps */
    void (*on_event)(void *ctx, const eng_walk *W, const eng_event *ev);
} eng_listener;

/* The regions around the current point, for listeners to inspect. */
typedef enum eng_region_kind { ENG_REG_TRY_BODY, ENG_REG_TRY_ELSE, ENG_REG_HANDLER, ENG_REG_FINALLY, ENG_REG_WITH } eng_region_kind;
typedef struct eng_region {
    eng_region_kind kind;
    const ir_node *node;                 /* the TRY or WITH */
    const ir_handler *handler;           /* ENG_REG_HANDLER */
} eng_region;

/* Queries a listener may make from inside an event. */
const ir_module *eng_module(const eng_walk *W);
const ir_func *eng_func(const eng_walk *W);
int eng_nregions(const eng_walk *W);
/* Where the outermost loop around the current point starts, UINT32_MAX
 * outside loops. */
uint32_t eng_loop_start(const eng_walk *W);
/* Region i, 0 the innermost. */
const eng_region *eng_region_at(const eng_walk *W, int i);
/* Does an event on x (a release, a transfer) cover v: v itself, a member
 * of x (alias, child), or, for a loop element x, its container's members? */
int eng_covers(const eng_walk *W, int x, int v);
/* The acquire node of v met so far on any path, or NULL. */
const ir_node *eng_acquired(const eng_walk *W, int v);
/* Is v released anywhere in the function (a release, a releasing call, any
 * call in cleanup)? */
int eng_released_anywhere(const eng_walk *W, int v);
/* Is v stored or handed to an owner somewhere in the function (a transfer, an adopt)? */
int eng_stored_anywhere(const eng_walk *W, int v);
/* Does every path through b end in a raise (its last statement, or every
 * branch of a final if/else)? A handler that always re-raises. */
int eng_block_always_raises(const ir_block *b);
/* Is v live (acquired, not released nor handed over) on the path the
 * current event is told for? */
int eng_live_here(const eng_walk *W, int v);
/* Does some node of b release, transfer or hand v to a call? */
int eng_block_releases(const eng_walk *W, const ir_block *b, int v);
/* Can call n keep, release or settle its k-th argument? 0 only when n
 * resolves to a function of the tree whose summary does none of that with
 * the parameter the argument lands in (`copy_data(src.handle, ...)` that
 * only reads it). */
int eng_call_may_keep(const eng_walk *W, const ir_node *n, int k);

typedef struct eng_result {
    unsigned protections;          /* every protection seen at a window checkpoint */
    int had_window;                /* some value was live across a checkpoint */
    const ir_func **callees;       /* resolved calls (for the matrix) */
    int ncallees, cap_callees;
    unsigned limits;               /* ENG_LIMIT_* hit while walking */
} eng_result;

void eng_analyze(const ir_module *m, const ir_func *f, const eng_resolver *r, const eng_listener *ls, int nls,
                 eng_result *out);
void eng_result_free(eng_result *r);

#endif
