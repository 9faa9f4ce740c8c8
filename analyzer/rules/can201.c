/*
 * can201.c — CAN201 (a remote create awaited under a timeout without a
 * shield) and CAN202 (strict: with no shield and no timeout).
 *
 * A remote create is an awaited call that makes a server-side resource:
 * a catalogued remote create, or a method whose name starts with a remote
 * prefix (create, provision, launch, ...; privacy underscores ignored) on a
 * receiver that is not local (not a catalogued local receiver, not a task
 * group, nursery or exit stack), unless the name is catalogued as not
 * remote (connections: connect, open, ...), or the receiver is an API whose
 * creates are requests that leave nothing behind (`chat.completions`), or
 * the call is an alternative constructor of a class of the tree that owns
 * nothing (`await Metrics.create(...)` annotated `-> Metrics`).
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

typedef struct remote {
    const ir_node *at;
    ir_site site;
    int in_timeout;
    const ir_func *via;      /* the function of the tree awaited here that makes the create */
} remote;

typedef CA_VEC(remote) remote_vec;

static const char *bare(const char *n)
{
    while (n && *n == '_') n++;
    return n;
}

static const ca_cat_entry *match(const ca_catalog *cat, ca_cat_kind k, const char *s)
{
    return cat && s ? ca_catalog_match(cat, k, s) : NULL;
}

int rule_remote_create(const ca_catalog *cat, const ir_node *n)
{
    if (!n->cname) return 0;
    if (n->callee && match(cat, CAT_REMOTE_CREATE, n->callee)) return 1;
    if (!(n->flags & REM_HAS_RECV)) return 0;
    const char *b = bare(n->cname);
    if (!match(cat, CAT_REMOTE_PREFIX, b) || match(cat, CAT_NOT_REMOTE, b)) return 0;
    /* (`create_topics`, `create_documents`: a create whose noun is plural
     * makes a batch, which the name does not make a remote object, as for
     * CAN101/102's naming heuristic) */
    if (ca_name_plural_create(b)) return 0;
    if (!n->recv) return 1; /* a receiver made by an expression: still a client call */
    if (match(cat, CAT_LOCAL_RECEIVER, n->recv) || match(cat, CAT_REQUEST_RECEIVER, n->recv)) return 0;
    return !(n->flags & REM_RECV_SCOPE);
}

/* `await PerformanceMetrics.create(symbol, trades)`: a create known only by
 * its name that is an alternative constructor of a class of the tree
 * (annotated to return its own class) which owns nothing: it builds an
 * in-memory object, not a server-side one. */
static int builds_local_object(rule_run *rr, const ir_node *n)
{
    rule_ctx *ctx = rr->ctx;
    if (n->kind != IR_AWAIT_CALL || !n->text || !n->recv || (n->callee && rule_cat(ctx, CAT_REMOTE_CREATE, n->callee)))
        return 0;
    if (!ctx->res || !ctx->res->resolve || !ctx->res->class_of) return 0;
    /* (the call through its class, `Cls.create`, as the resolver reads one) */
    ir_node call = ir_call_stub(n->text, 0, n->site);
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = ctx->res->resolve(ctx->res->ctx, ctx->m, ctx->f, &call, &sum, &off);
    return callee != ctx->f && eng_local_constructor(ctx->m, ctx->res, n, callee, sum);
}

/* `await State.create(agent)` of a coroutine function of the tree that
 * suspends nowhere: it does no I/O a cancellation could cut, so it makes
 * nothing on a server, whatever its name says. */
static int quiet_tree_create(rule_run *rr, const ir_node *n)
{
    if (n->kind != IR_AWAIT_CALL) return 0;
    const eng_summary *sum = NULL;
    const ir_func *callee = rule_runs(rr->ctx, n, &sum);
    return callee && sum && callee->is_async && !sum->suspends;
}

static void begin(rule_run *rr) { rr->data = ca_xcalloc(1, sizeof(remote_vec)); }

/* Keep r unless its node is kept already (a loop is walked more than once:
 * one finding per create); a pass that finds it under a timeout wins. */
static void keep(rule_run *rr, remote r)
{
    remote_vec *v = rr->data;
    for (size_t i = 0; i < v->n; i++)
        if (v->v[i].at == r.at) {
            v->v[i].in_timeout |= r.in_timeout;
            if (!v->v[i].via) v->v[i].via = r.via;
            return;
        }
    CA_VEC_PUSH(*v, r);
}

static void on_event(rule_run *rr, const eng_walk *W, const eng_event *ev)
{
    (void)W;
    const ir_node *n = ev->node;
    if ((n->flags & REM_SHIELDED) || ev->shielded) return;
    /* (an ensure-exists create: "already exists" is its success) */
    if (n->kind == IR_AWAIT_CALL && (n->flags & REM_ENSURED)) return;
    int in_timeout = (n->flags & REM_TIMEOUT) || ev->in_timeout;
    remote r = {n, n->site, in_timeout, NULL};
    if (rule_remote_create(rr->ctx->cat, n) && !builds_local_object(rr, n) && !quiet_tree_create(rr, n)) {
        /* thread work that creates: only a timeout gives up on it (a
         * cancellation without one is CAN203's, the thread's result) */
        if (n->kind == IR_EXECUTOR && !in_timeout) return;
        keep(rr, r);
        return;
    }
    /* `await asyncio.wait_for(_run(), t)` where `_run` (a local function,
     * a method, any function of the tree) awaits a remote create: the
     * timeout cancels the create inside it */
    if (!in_timeout) return;
    const eng_summary *sum = NULL;
    const ir_func *callee = rule_runs(rr->ctx, n, &sum);
    if (!callee || !sum || !sum->remote) return;
    /* an awaited coroutine function; thread work runs a plain one */
    if ((n->kind == IR_AWAIT_CALL) != (callee->is_async != 0)) return;
    r.via = callee;
    keep(rr, r);
}

typedef struct first_create {
    const ca_catalog *cat;
    const ir_node *found;
} first_create;

static int find_create(void *ctx, const ir_node *n)
{
    first_create *q = ctx;
    if (n->kind == IR_AWAIT_CALL && !(n->flags & REM_SHIELDED) && rule_remote_create(q->cat, n)) q->found = n;
    return q->found != NULL;
}

static void end(rule_run *rr)
{
    rule_ctx *ctx = rr->ctx;
    remote_vec *v = rr->data;
    for (size_t i = 0; i < v->n; i++) {
        const remote *o = &v->v[i];
        const char *callee = o->at->text ? o->at->text : "create";
        const char *rule = o->in_timeout ? "CAN201" : "CAN202";
        if (!rule_on(ctx, rule)) continue;
        char *msg;
        const char *what = callee;
        if (o->via && o->at->kind == IR_EXECUTOR) {
            what = o->at->callee ? o->at->callee : o->via->name;
            msg = ca_xasprintf("`%s` makes a remote resource and runs in a worker thread (`%s(...)`) awaited under a "
                               "timeout: on timeout the await gives up but the thread goes on, the server creates "
                               "the resource, and its id is dropped with the thread's result",
                               what, callee);
        } else if (o->via) {
            first_create q = {ctx->cat, NULL};
            ir_visit(&o->via->body, find_create, &q);
            char *inner = q.found && q.found->text
                              ? ca_xasprintf("remote create `%s(...)` (line %d)", q.found->text, q.found->site.line)
                              : ca_xstrdup("a remote create, through the functions it awaits");
            msg = ca_xasprintf("`%s()` awaits %s without a shield, and is awaited here under a timeout: on timeout "
                               "or cancellation the request is cancelled inside it, but the server may still "
                               "create the resource, and its id is lost (it runs until its TTL). Cleanup by a "
                               "caller-chosen id still races a create that lands late",
                               callee, inner);
            free(inner);
        } else if (o->at->kind == IR_EXECUTOR) {
            what = o->at->callee ? o->at->callee : callee;
            msg = ca_xasprintf("remote create `%s(...)` runs in a worker thread (`%s(...)`) awaited under a timeout: "
                               "on timeout the await gives up but the thread goes on, the server creates the "
                               "resource, and its id is dropped with the thread's result",
                               what, callee);
        } else if (o->in_timeout)
            msg = ca_xasprintf("remote create `%s(...)` is awaited under a timeout without a shield: on timeout or "
                               "cancellation the request is cancelled, but the server may still create the "
                               "resource, and its id is lost (it runs until its TTL). Cleanup by a caller-chosen "
                               "id still races a create that lands late",
                               callee);
        else
            msg = ca_xasprintf("remote create `%s(...)` is awaited without a shield: if the caller cancels, the "
                               "request is abandoned but the server may still create the resource, and its id "
                               "is lost",
                               callee);
        ca_finding *f = rule_emit(ctx, rule, o->site, what, "remote", o->at, NULL, 0, callee, msg);
        /* a catalogued create is sure; one known by its name (create*,
         * provision*) or through a function of the tree less so */
        if (o->via || !(o->at->callee && rule_cat(ctx, CAT_REMOTE_CREATE, o->at->callee)))
            f->confidence = CA_CONF_MEDIUM;
    }
    CA_VEC_FREE(*v);
    free(v);
}

const rule_def rule_can201 = {
    .ids = "CAN201,CAN202",
    .language = "python",
    .events = ENG_ON(ENG_EV_AWAIT_CALL) | ENG_ON(ENG_EV_EXECUTOR),
    .begin = begin,
    .on_event = on_event,
    .end = end,
};
