/*
 * can201.c — CAN201 (a remote create awaited under a timeout without a
 * shield) and CAN202 (strict: with no shield and no timeout).
 *
 * A remote create is an awaited call that makes a server-side resource:
 * a catalogued remote create, or a method whose name starts with a remote
 * prefix (create, provision, launch, ...; privacy underscores ignored) on a
 * receiver that is not local (not a catalogued local receiver, not a task
 * group, nursery or exit stack), unless the name is catalogued as not
 * remote (connections: connect, open, ...).
 */
#include "rules/rules.h"

#include <stdlib.h>

typedef struct remote {
    const ir_node *at;
    ir_site site;
    int in_timeout;
} remote;

typedef CA_VEC(remote) remote_vec;

static const char *bare(const char *n)
{
    while (n && *n == '_') n++;
    return n;
}

static int is_remote_create(const rule_ctx *ctx, const ir_node *n)
{
    if (!n->cname) return 0;
    if (n->callee && rule_cat(ctx, CAT_REMOTE_CREATE, n->callee)) return 1;
    if (!(n->flags & REM_HAS_RECV)) return 0;
    const char *b = bare(n->cname);
    if (!rule_cat(ctx, CAT_REMOTE_PREFIX, b) || rule_cat(ctx, CAT_NOT_REMOTE, b)) return 0;
    if (!n->recv) return 1; /* a receiver made by an expression: still a client call */
    if (rule_cat(ctx, CAT_LOCAL_RECEIVER, n->recv)) return 0;
    return !(n->flags & REM_RECV_SCOPE);
}

static void begin(rule_run *rr) { rr->data = ca_xcalloc(1, sizeof(remote_vec)); }

static void on_event(rule_run *rr, const eng_walk *W, const eng_event *ev)
{
    (void)W;
    const ir_node *n = ev->node;
    if ((n->flags & REM_SHIELDED) || ev->shielded || !is_remote_create(rr->ctx, n)) return;
    remote r = {n, n->site, (n->flags & REM_TIMEOUT) || ev->in_timeout};
    CA_VEC_PUSH(*(remote_vec *)rr->data, r);
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
        if (o->in_timeout)
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
        ca_finding *f = rule_emit(ctx, rule, o->site, callee, "remote", o->at, NULL, 0, callee, msg);
        /* a catalogued create is sure; one known by its name (create*, provision*) less so */
        if (!(o->at->callee && rule_cat(ctx, CAT_REMOTE_CREATE, o->at->callee))) f->confidence = CA_CONF_MEDIUM;
    }
    CA_VEC_FREE(*v);
    free(v);
}

const rule_def rule_can201 = {
    .ids = "CAN201,CAN202",
    .language = "python",
    .events = ENG_ON(ENG_EV_AWAIT_CALL),
    .begin = begin,
    .on_event = on_event,
    .end = end,
};
