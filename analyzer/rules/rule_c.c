/*
 * rule_c.c — CAN501, CAN502, CAN503: POSIX thread cancellation in C.
 *
 * CAN501: a resource (memory, descriptor, FILE, DIR, mapping) unowned across
 * a cancellation point that no pthread_cleanup_push handler releases.
 * CAN502: the same for a lock (kind "lock"): held across a cancellation
 * point without a handler that unlocks.
 * CAN503: a call that is not async-cancel-safe while
 * PTHREAD_CANCEL_ASYNCHRONOUS is enabled.
 *
 * Windows come from the engine (OBS_WINDOW, as for CAN101/CAN102); one
 * finding per (function, resource, rule) at the first unprotected
 * cancellation point. Nothing is reported unless the scan is in scope for
 * thread cancellation (ctx->c_active: pthread_cancel is called, or forced).
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

static int is_lock(const eng_obs *o)
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

static void emit_window(rule_ctx *ctx, const char *rule, const eng_obs *o)
{
    const char *name = rule_var_name(ctx, o->var);
    const char *kind = o->acquired && o->acquired->rkind ? o->acquired->rkind : "resource";
    int line = o->acquired ? o->acquired->site.line : 0;
    char *cp = point_desc(o->at);
    char *msg;
    if (strcmp(rule, "CAN502") == 0) {
        msg = ca_xasprintf("lock `%s` (taken line %d) is held across %s, and no pthread_cleanup_push handler "
                           "unlocks it: a thread cancelled here exits with it held, and the next thread to take "
                           "it deadlocks (a cancelled pthread_cond_wait re-acquires its mutex first)",
                           name, line, cp);
    } else {
        msg = ca_xasprintf("`%s` (%s, acquired line %d) is unowned across %s, and no pthread_cleanup_push "
                           "handler releases it: if the thread is cancelled here, it leaks",
                           name, kind, line, cp);
    }
    const char *fp = o->at && o->at->text ? o->at->text : "";
    rule_emit(ctx, rule, o->site, name, kind, o->acquired, NULL, 0, fp, msg);
    free(cp);
}

static void windows(rule_ctx *ctx)
{
    const eng_result *r = ctx->res;
    for (int v = 0; v < ctx->f->nvars; v++) {
        const eng_obs *first = NULL;
        for (int i = 0; i < r->nobs; i++) {
            const eng_obs *o = &r->obs[i];
            if (o->kind != OBS_WINDOW || o->var != v) continue;
            if (!first || o->site.start < first->site.start) first = o;
        }
        if (!first) continue;
        const char *rule = is_lock(first) ? "CAN502" : "CAN501";
        if (rule_on(ctx, rule)) emit_window(ctx, rule, first);
    }
}

/* Calls flagged CALL_ASYNC_CANCEL, first per enabling call (IR depth is
 * bounded by the frontend, so recursion over blocks is bounded). */
typedef struct async_hit {
    const ir_node *enable, *first;
} async_hit;

static void collect_async(const ir_block *b, async_hit *hits, int *n, int cap)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *x = b->v[i];
        if (x->kind == IR_CALL && (x->flags & CALL_ASYNC_CANCEL) && x->ref) {
            int k = 0;
            while (k < *n && hits[k].enable != x->ref) k++;
            if (k == *n && *n < cap) {
                hits[k].enable = x->ref;
                hits[k].first = x;
                (*n)++;
            } else if (k < *n && x->site.start < hits[k].first->site.start) {
                hits[k].first = x;
            }
        }
        collect_async(&x->a, hits, n, cap);
        collect_async(&x->b, hits, n, cap);
        collect_async(&x->c, hits, n, cap);
        for (int k = 0; k < x->nbranches; k++) collect_async(&x->branches[k], hits, n, cap);
        for (int k = 0; k < x->nhandlers; k++) collect_async(&x->handlers[k].body, hits, n, cap);
    }
}

static void async_calls(rule_ctx *ctx)
{
    if (!rule_on(ctx, "CAN503")) return;
    async_hit hits[32];
    int n = 0;
    collect_async(&ctx->f->body, hits, &n, 32);
    for (int i = 0; i < n; i++) {
        const ir_node *c = hits[i].first, *en = hits[i].enable;
        const char *callee = c->text ? c->text : "a call";
        char *msg = ca_xasprintf("`%s` runs while asynchronous cancellation is enabled (`%s`, line %d); only "
                                 "pthread_cancel, pthread_setcancelstate and pthread_setcanceltype are "
                                 "async-cancel-safe: cancelled inside it, the thread can die holding a libc lock "
                                 "or with half-updated state, and no cleanup handler can tell",
                                 callee, en->text ? en->text : "pthread_setcanceltype", en->site.line);
        rule_emit(ctx, "CAN503", c->site, callee, "call", en, NULL, 0, callee, msg);
    }
}

void rule_c(rule_ctx *ctx)
{
    if (!ctx->c_active) return;
    windows(ctx);
    async_calls(ctx);
}
