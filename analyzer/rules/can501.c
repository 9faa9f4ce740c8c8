/*
 * can501.c — CAN501, CAN502, CAN503: POSIX thread cancellation in C.
 *
 * CAN501: a resource (memory, descriptor, FILE, DIR, mapping) unowned across
 * a cancellation point that no pthread_cleanup_push handler releases.
 * CAN502: the same for a lock (kind "lock"): held across a cancellation
 * point without a handler that unlocks.
 * CAN503: a call that is not async-cancel-safe while
 * PTHREAD_CANCEL_ASYNCHRONOUS is enabled.
 *
 * Windows come from the engine's checkpoint events, as for CAN101/CAN102:
 * per (function, resource, rule) the first unprotected cancellation point,
 * and the resources of one rule whose first point is one are one finding. Nothing is reported unless the scan is in scope for
 * thread cancellation (rule_ctx.c_active: pthread_cancel is called, or
 * forced).
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

static int is_lock(const rule_window *o)
{
    return o->acquired && o->acquired->rkind && strcmp(o->acquired->rkind, "lock") == 0;
}

/* "`read(fd, buf, n)`" or, for a call of a function that reaches one,
 * "`drain()`, which reaches a cancellation point". */
static char *point_desc(const ir_node *at)
{
    const char *t = at && at->text ? at->text : "this call";
    if (at && at->kind == IR_CALL) return ca_xasprintf("`%s()`, which reaches a cancellation point", t);
    return ca_xasprintf("`%s`, a cancellation point", t);
}

/* One finding for the windows ws[0..n) of rule, which open at one
 * cancellation point (ws in the order their values came into being). */
static void emit_window(rule_ctx *ctx, const char *rule, const rule_window *const *ws, int n)
{
    const rule_window *o = ws[0];
    rule_res *res = ca_xcalloc((size_t)n, sizeof(*res));
    for (int i = 0; i < n; i++) {
        res[i].name = rule_var_name(ctx, ws[i]->var);
        res[i].kind = ws[i]->acquired && ws[i]->acquired->rkind ? ws[i]->acquired->rkind : "resource";
        res[i].acquired = ws[i]->acquired;
    }
    int several = n > 1;
    char *cp = point_desc(o->at);
    char *msg;
    if (strcmp(rule, "CAN502") == 0) {
        char *names = rule_res_list(ctx, res, n, "taken", 0);
        msg = ca_xasprintf("lock%s %s %s held across %s, and no pthread_cleanup_push handler "
                           "unlocks %s: a thread cancelled here exits with %s held, and the next thread to take "
                           "%s deadlocks (a cancelled pthread_cond_wait re-acquires its mutex first)",
                           several ? "s" : "", names, several ? "are" : "is", cp, several ? "them" : "it",
                           several ? "them" : "it", several ? "one" : "it");
        free(names);
    } else {
        char *names = rule_res_list(ctx, res, n, NULL, 1);
        msg = ca_xasprintf("%s %s unowned across %s, and no pthread_cleanup_push "
                           "handler releases %s: if the thread is cancelled here, %s",
                           names, several ? "are" : "is", cp, several ? "them" : "it",
                           several ? "they leak" : "it leaks");
        free(names);
    }
    const char *fp = o->at && o->at->text ? o->at->text : "";
    rule_emit_window(ctx, rule, o->site, res, n, NULL, 0, fp, msg);
    free(cp);
    free(res);
}

static int cmp_birth(const void *pa, const void *pb)
{
    const rule_window *a = *(const rule_window *const *)pa, *b = *(const rule_window *const *)pb;
    size_t x = a->acquired ? a->acquired->site.start : 0, y = b->acquired ? b->acquired->site.start : 0;
    if (x != y) return x < y ? -1 : 1;
    return a->var < b->var ? -1 : a->var > b->var;
}

static void windows(rule_ctx *ctx, const rule_windows *w)
{
    int nv = ctx->f->nvars;
    const rule_window **first = ca_xcalloc((size_t)nv + 1, sizeof(*first));
    for (size_t i = 0; i < w->v.n; i++) {
        const rule_window *o = &w->v.v[i];
        if (o->var < 0 || o->var >= nv) continue;
        if (!first[o->var] || o->site.start < first[o->var]->site.start) first[o->var] = o;
    }
    /* the values of one rule whose first cancellation point is one: one finding */
    const rule_window **group = ca_xmalloc(sizeof(*group) * ((size_t)nv + 1));
    for (int v = 0; v < nv; v++) {
        if (!first[v]) continue;
        const char *rule = is_lock(first[v]) ? "CAN502" : "CAN501";
        int n = 0;
        for (int u = v; u < nv; u++)
            if (first[u] && is_lock(first[u]) == is_lock(first[v]) && first[u]->at == first[v]->at &&
                first[u]->site.start == first[v]->site.start) {
                group[n++] = first[u];
                if (u != v) first[u] = NULL;
            }
        first[v] = NULL;
        qsort(group, (size_t)n, sizeof(*group), cmp_birth);
        if (rule_on(ctx, rule)) emit_window(ctx, rule, group, n);
    }
    free(group);
    free(first);
}

/* Calls flagged CALL_ASYNC_CANCEL: the first per enabling call. */
typedef struct async_hit {
    const ir_node *enable, *first;
} async_hit;

typedef CA_VEC(async_hit) hit_vec;

static int collect_async(void *ctx, const ir_node *x)
{
    hit_vec *hits = ctx;
    if (x->kind != IR_CALL || !(x->flags & CALL_ASYNC_CANCEL) || !x->ref) return 0;
    size_t k = 0;
    while (k < hits->n && hits->v[k].enable != x->ref) k++;
    if (k == hits->n) {
        async_hit h = {x->ref, x};
        CA_VEC_PUSH(*hits, h);
    } else if (x->site.start < hits->v[k].first->site.start) {
        hits->v[k].first = x;
    }
    return 0;
}

static void async_calls(rule_ctx *ctx)
{
    if (!rule_on(ctx, "CAN503")) return;
    hit_vec hits = {0};
    ir_visit(&ctx->f->body, collect_async, &hits);
    for (size_t i = 0; i < hits.n; i++) {
        const ir_node *c = hits.v[i].first, *en = hits.v[i].enable;
        const char *callee = c->text ? c->text : "a call";
        char *msg = ca_xasprintf("`%s` runs while asynchronous cancellation is enabled (`%s`, line %d); only "
                                 "pthread_cancel, pthread_setcancelstate and pthread_setcanceltype are "
                                 "async-cancel-safe: cancelled inside it, the thread can die holding a libc lock "
                                 "or with half-updated state, and no cleanup handler can tell",
                                 callee, en->text ? en->text : "pthread_setcanceltype", en->site.line);
        rule_emit(ctx, "CAN503", c->site, callee, "call", en, NULL, 0, callee, msg);
    }
    CA_VEC_FREE(hits);
}

static void begin(rule_run *rr) { rr->data = ca_xcalloc(1, sizeof(rule_windows)); }

static void on_event(rule_run *rr, const eng_walk *W, const eng_event *ev)
{
    (void)W;
    rule_windows_add(rr->data, ev);
}

static void end(rule_run *rr)
{
    rule_windows *w = rr->data;
    if (rr->ctx->c_active) {
        windows(rr->ctx, w);
        async_calls(rr->ctx);
    }
    rule_windows_free(w);
    free(w);
}

const rule_def rule_can501 = {
    .ids = "CAN501,CAN502,CAN503",
    .language = "c",
    .events = ENG_ON(ENG_EV_CHECKPOINT),
    .begin = begin,
    .on_event = on_event,
    .end = end,
};
