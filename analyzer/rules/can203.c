/*
 * can203.c — CAN203: a resource made by thread work (run_in_executor,
 * to_thread) that keeps running after the await is cancelled; its result
 * is dropped and nothing releases it.
 *
 * The value counts as a resource when the function run in the thread is a
 * catalogued acquirer, a remote create (a lambda's or a partial's call
 * too; under a timeout that is CAN201's), a function of the tree whose
 * summary says it returns a resource it made, or when the function
 * releases the value somewhere (it treats it as one); a function of the
 * module whose name only sounds like a maker (`_open_file`) needs that, or
 * the value stored somewhere, or its summary. A shield scope
 * around the await keeps the result. A create under a name the code also
 * looks up (EXEC_NAMED) makes a named object a re-run finds again.
 */
#include "rules/rules.h"

#include <stdlib.h>

typedef CA_VEC(const ir_node *) node_vec;

static void begin(rule_run *rr) { rr->data = ca_xcalloc(1, sizeof(node_vec)); }

/* Does the function the thread runs say it makes something: a name the
 * catalog reads as a maker (`open*`, `create*`, `connect*`, ...), or a
 * class (`IceCastClient(buffer, url)` built in the thread)? Other thread
 * work (a tool the caller handed in, a user's API function,
 * `block.postprocess`) returns data, whatever a cleanup later does with it. */
/* `Credential.create`, a class's alternative constructor known by its name
 * alone: it builds an object of this process (a catalogued one,
 * `modal.Sandbox.create`, makes something elsewhere). */
static int class_constructor(const rule_ctx *ctx, const ir_node *n)
{
    return n->callee && ca_name_class_method(n->callee) && !rule_cat(ctx, CAT_ACQUIRE, n->callee);
}

static int names_maker(const rule_ctx *ctx, const ir_node *n)
{
    if (!n->callee || class_constructor(ctx, n)) return 0;
    const char *last = rule_last_part(n->callee);
    while (*last == '_') last++;
    if (*last >= 'A' && *last <= 'Z') return 1;
    return *last && rule_cat(ctx, CAT_ACQUIRE_PREFIX, last) != NULL;
}

static void on_event(rule_run *rr, const eng_walk *W, const eng_event *ev)
{
    const ir_node *n = ev->node;
    if (n->var < 0 || ev->shielded) return;
    /* (in a task nothing can cancel, only a timeout of its own cancels the
     * await: a route FastAPI runs, what it awaits in place) */
    if ((eng_func(W)->fflags & (FN_UNCANCELLED | FN_UNCANCELLED_VIA | FN_UNHELD_VIA)) && !ev->in_timeout && !(n->flags & REM_TIMEOUT))
        return;
    /* (a named object the code finds again by its name is not orphaned) */
    if (n->flags & EXEC_NAMED) return;
    /* (nor a child made inside an existing parent, reached through it) */
    if (n->flags & EXEC_CHILD) return;
    const eng_summary *sum = NULL;
    const ir_func *runs = rule_runs(rr->ctx, n, &sum);
    /* (a function of the tree that returns plain data, a dict built in
     * place, made nothing to release, whatever its name sounds like) */
    if (runs && sum && !(runs->fflags & (FN_ABSTRACT | FN_STUB)) &&
        (sum->returns == ENG_RET_PLAIN || sum->returns == ENG_RET_KEPT))
        return;
    int remote = rule_remote_create(rr->ctx->cat, n) || (runs && sum && sum->remote && !runs->is_async);
    if (remote && !runs && class_constructor(rr->ctx, n)) remote = 0;
    /* a remote create in a thread under a timeout is CAN201's */
    if (remote && ((n->flags & REM_TIMEOUT) || ev->in_timeout) && !(n->flags & REM_SHIELDED) &&
        rule_on(rr->ctx, "CAN201"))
        return;
    /* (released somewhere: evidence for what a maker made) */
    int makes = (n->flags & EXEC_STRONG) || remote || (eng_released_anywhere(W, n->var) && names_maker(rr->ctx, n));
    /* (a function of this module named like a maker, `_open_read_path`:
     * kept somewhere, the value is one) */
    if (!makes && (n->flags & EXEC_HEURISTIC) && eng_stored_anywhere(W, n->var) &&
        !(runs && sum && (sum->returns == ENG_RET_PLAIN || sum->returns == ENG_RET_KEPT)))
        makes = 1;
    /* a function of the tree that returns a resource it made */
    if (!makes && runs && sum && sum->returns == ENG_RET_RESOURCE) makes = 1;
    if (!makes) return;
    /* (a loop is walked more than once: one finding per executor) */
    node_vec *v = rr->data;
    for (size_t i = 0; i < v->n; i++)
        if (v->v[i] == n) return;
    CA_VEC_PUSH(*v, n);
}

static void end(rule_run *rr)
{
    rule_ctx *ctx = rr->ctx;
    node_vec *v = rr->data;
    for (size_t i = 0; i < v->n && rule_on(ctx, "CAN203"); i++) {
        const ir_node *at = v->v[i];
        const char *name = rule_var_name(ctx, at->var);
        const char *callee = at->text ? at->text : "run_in_executor";
        char *msg = at->callee
                        ? ca_xasprintf("`%s` is made by `%s` in a worker thread (`%s(...)`) that keeps running if "
                                       "this await is cancelled: the thread finishes, its result is dropped, and "
                                       "nothing releases `%s`",
                                       name, at->callee, callee, name)
                        : ca_xasprintf("`%s` is made by `%s(...)` in a worker thread that keeps running if this "
                                       "await is cancelled: the thread finishes, its result is dropped, and nothing "
                                       "releases `%s`",
                                       name, callee, name);
        rule_emit(ctx, "CAN203", at->site, name, "resource", at, NULL, 0, callee, msg);
    }
    CA_VEC_FREE(*v);
    free(v);
}

const rule_def rule_can203 = {
    .ids = "CAN203",
    .language = "python",
    .events = ENG_ON(ENG_EV_EXECUTOR),
    .begin = begin,
    .on_event = on_event,
    .end = end,
};
