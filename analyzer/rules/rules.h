/*
 * rules.h — the rules: what turns the engine's events into findings
 * (DESIGN §3).
 *
 * Where it sits: the engine (analyzer/engine/) walks a function's IR and
 * emits events; each rule listens to the kinds it needs, keeps its own
 * per-function data and, when it must follow something along paths, its
 * own per-path bytes (eng_listener.nstate), and reports findings at the
 * end of the function. A rule is one file, analyzer/rules/canNNN.c (one
 * file per family when ids share one analysis: CAN101/CAN102/CAN301), that
 * defines `const rule_def rule_canNNN`, plus one line in rules/rules.def,
 * its doc rules/CANNNN.md and its fixtures under corpus/. Library knowledge
 * comes from the catalog (rule_ctx.cat), never from names in the code.
 *
 * rule_emit() fills the fields every finding has (function, resource,
 * fingerprint, suppression); the rest of this header is what rule files
 * share.
 */
#ifndef CA_RULES_H
#define CA_RULES_H

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "ir/ir.h"
#include "model/model.h"

typedef struct rule_ctx {
    const ir_module *m;
    const eng_resolver *res; /* rules_run's resolver: calls into the tree (may be NULL) */
    const ca_catalog *cat;
    const char *path;
    const char *backend;
    const char *select, *ignore;
    int strict;
    int c_active;    /* C modules: thread cancellation is in scope (pthread_cancel seen, or forced) */
    const ir_func *f; /* the function rules_run is on */
    /* output */
    ca_finding *out;
    size_t nout, cap;
} rule_ctx;

/* One rule family on one function. */
typedef struct rule_run {
    rule_ctx *ctx;
    const struct rule_def *def;
    void *data;      /* the family's own (begin allocates, end frees) */
    int nstate;      /* per-path bytes it keeps (begin sets; 0 by default) */
} rule_run;

typedef struct rule_def {
    const char *ids;      /* the ids it reports, "CAN101,CAN102,CAN301" */
    const char *language; /* the modules it reads: "python" or "c" */
    unsigned events;      /* ENG_ON(...) of the events it listens to */
    void (*begin)(rule_run *rr);                                        /* optional */
    void (*on_event)(rule_run *rr, const eng_walk *W, const eng_event *ev); /* optional */
    void (*end)(rule_run *rr);                                          /* reports */
} rule_def;

/* Walk f with every rule that applies to its module's language and has an
 * id selected, appending findings to ctx->out; er receives what the
 * coverage matrix needs (engine.h). */
void rules_run(rule_ctx *ctx, const ir_func *f, const eng_resolver *r, eng_result *er);
/* What the rules know of a function that its callers' summaries need and
 * the engine cannot see (it knows no library): eng_summary.remote, a
 * remote create it awaits unshielded. The scan calls it after
 * eng_summarize; eng_summary_update carries it through the calls. */
void rules_seed_summary(const ca_catalog *cat, const ir_func *f, eng_summary *s);
/* Is awaited call (or thread work) n a remote create (CAN201's test)? */
int rule_remote_create(const ca_catalog *cat, const ir_node *n);
/* The function of the tree that await-call or executor node n runs, with
 * its summary; NULL when it is not in the scan. */
const ir_func *rule_runs(const rule_ctx *ctx, const ir_node *n, const eng_summary **sum);

/* ---- for rule files ---------------------------------------------------- */

/* Add a finding. `resource` and `checkpoint` are copied; handlers may be
 * NULL. Returns the new finding for extra fields. */
ca_finding *rule_emit(rule_ctx *ctx, const char *rule, ir_site at, const char *resource, const char *kind,
                      const ir_node *acquired, const ir_handler *const *handlers, int nhandlers,
                      const char *checkpoint, char *message /* taken */);
/* One resource of a window (rule_emit_window). */
typedef struct rule_res {
    const char *name;
    const char *kind;
    const ir_node *acquired;
} rule_res;

/* Add the finding of a window: res[0..nres) (nres >= 1, in the order they
 * came into being) are live and unowned across the checkpoint at `at`, the
 * first of each one's window for this rule. The finding's resource is
 * res[0]; each resource keeps as its alias the fingerprint a finding of it
 * alone had (rule, path, function, resource, checkpoint text), and the
 * finding's fingerprint comes from the rule, path, function and checkpoint
 * text alone, so it stays as resources join or leave the window. When two
 * windows of one function and rule have checkpoints of the same text,
 * rules_run tells their fingerprints apart by their resources' names. */
ca_finding *rule_emit_window(rule_ctx *ctx, const char *rule, ir_site at, const rule_res *res, int nres,
                             const ir_handler *const *handlers, int nhandlers, const char *checkpoint,
                             char *message /* taken */);
/* "`a` (task, acquired line 3) and `b` and `c` (fd, acquired line 5)": the
 * resources named, those of one kind made on one line run together (`what`
 * replaces "acquired" when not NULL; with kinds 0, "`a` (line 3)"). Heap. */
char *rule_res_list(const rule_ctx *ctx, const rule_res *res, int nres, const char *what, int kinds);
int rule_on(const rule_ctx *ctx, const char *rule);
/* Readable description of a checkpoint node for messages, its call
 * shortened by rule_callee_text: "`await x.y(…)`", "`async with self._lock`". */
char *rule_checkpoint_desc(const ir_node *at);
/* Source text that ends in a call, with the call's arguments elided, so a
 * message names the callee and stays one readable line: "await
 * asyncio.wait_for(session.ws_connect(url), timeout=3)" -> "await
 * asyncio.wait_for(…)", "f()" stays. Other text comes back as it is,
 * trailing blanks cut. Heap; the caller frees. */
char *rule_callee_text(const char *text);
const char *rule_var_name(const rule_ctx *ctx, int v);
/* Catalog lookup in this run's catalog. */
const ca_cat_entry *rule_cat(const rule_ctx *ctx, ca_cat_kind k, const char *s);
/* The last component of a dotted name (`pkg.mod.Cls` -> `Cls`); s itself when
 * it has no dot (NULL for NULL). */
const char *rule_last_part(const char *s);

/* Windows (a value live and unowned across a checkpoint no region
 * protects), kept from CHECKPOINT events for the rules that report them. */
typedef struct rule_window {
    int var;
    const ir_node *at;          /* the checkpoint node */
    ir_site site;
    const ir_node *acquired;
    int registry_take;
    const ir_handler **missing; /* handlers that release var but miss cancellation */
    int nmissing;
    const ir_handler *conditional; /* eng_window.conditional */
} rule_window;

typedef struct rule_windows {
    CA_VEC(rule_window) v;
    ca_arena arena;
} rule_windows;

void rule_windows_add(rule_windows *w, const eng_event *ev);
void rule_windows_free(rule_windows *w);

#endif
