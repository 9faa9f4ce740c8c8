/*
 * can401.c — CAN401: a handler that catches cancellation has a path that
 * completes (falls through, returns, breaks, continues) without re-raising.
 *
 * Per path, one byte per cancellation-catching handler of the function:
 * set when the path enters that handler (ENG_EV_HANDLER), gone when the
 * path raises (the engine ends it, or carries it to an outer handler); a
 * path that leaves the function normally (ENG_EV_EXIT) with a byte set
 * swallowed that handler's cancellation. Not a swallow:
 *   - a try whose every checkpoint awaits a task this function cancelled
 *     before (`t.cancel(); await t`): the cancellation caught is that
 *     task's, not ours; a try body with no checkpoint cannot be cancelled;
 *   - a handler whose exception (`as e`) is kept and raised later
 *     (`raise e`), or a function that raises a cancellation exception after
 *     the try (the settle loop: note the cancellation, settle, raise).
 */
#include "rules/rules.h"

#include <stdlib.h>

typedef struct swallow_state {
    const ir_handler **h;   /* the cancellation-catching handlers; byte i of a path is h[i] */
    int nh;
    CA_VEC(const ir_handler *) found;
} swallow_state;

static int collect_handlers(void *ctx, const ir_node *n)
{
    swallow_state *s = ctx;
    if (n->kind != IR_TRY) return 0;
    for (int k = 0; k < n->nhandlers; k++)
        if (n->handlers[k].flags & H_CANCEL) {
            s->h = ca_xrealloc(s->h, sizeof(*s->h) * (size_t)(s->nh + 1));
            s->h[s->nh++] = &n->handlers[k];
        }
    return 0;
}

typedef struct exempt_q {
    const ir_func *f;
    int ok;
} exempt_q;

/* Stops (1) at the first checkpoint that could take a cancellation of
 * this task: not an await of a task the function cancelled before. */
static int takes_own_cancel(void *ctx, const ir_node *n)
{
    const exempt_q *q = ctx;
    if (n->kind == IR_CHECKPOINT) {
        if (n->flags & CP_AWAITS_CANCELLED) return 0;
        for (int k = 0; k < n->nvars; k++) {
            int v = n->vars[k];
            if (v >= 0 && q->f->vars[v].first_cancel < n->site.start) return 0;
        }
        return 1;
    }
    return (n->kind == IR_WITH && (n->flags & WITH_ASYNC)) || (n->kind == IR_LOOP && (n->flags & LOOP_ASYNC_FOR));
}

typedef struct raise_q {
    const eng_walk *W;
    int exc;
    uint32_t after;
} raise_q;

static int raises_var(void *ctx, const ir_node *n)
{
    const raise_q *q = ctx;
    return n->kind == IR_RAISE && n->var2 >= 0 && eng_covers(q->W, n->var2, q->exc);
}

static int raises_cancel_after(void *ctx, const ir_node *n)
{
    const raise_q *q = ctx;
    return n->kind == IR_RAISE && (n->flags & RAISE_CANCEL) && n->site.start > q->after;
}

static void begin(rule_run *rr)
{
    swallow_state *s = ca_xcalloc(1, sizeof(*s));
    ir_visit(&rr->ctx->f->body, collect_handlers, s);
    rr->data = s;
    rr->nstate = s->nh;
}

static int handler_slot(const swallow_state *s, const ir_handler *h)
{
    for (int i = 0; i < s->nh; i++)
        if (s->h[i] == h) return i;
    return -1;
}

static void on_event(rule_run *rr, const eng_walk *W, const eng_event *ev)
{
    swallow_state *s = rr->data;
    if (ev->kind == ENG_EV_HANDLER_EXIT) {
        /* an exception leaves the handler: it re-raised (or turned the
         * cancellation into another exception), it did not complete */
        int hi = ev->by_exception ? handler_slot(s, ev->handler) : -1;
        if (hi >= 0) ev->state[hi] = 0;
        return;
    }
    if (ev->kind == ENG_EV_HANDLER) {
        int hi = handler_slot(s, ev->handler);
        if (hi < 0) return;
        const ir_func *f = eng_func(W);
        exempt_q eq = {f, 1};
        if (!ir_visit(&ev->node->a, takes_own_cancel, &eq)) return;
        raise_q rq = {W, ev->handler->exc_var, ev->node->site.end};
        if (rq.exc >= 0 && ir_visit(&f->body, raises_var, &rq)) return;
        if (ir_visit(&f->body, raises_cancel_after, &rq)) return;
        ev->state[hi] = 1;
        return;
    }
    /* ENG_EV_EXIT: each handler this path went through without re-raising */
    for (int i = 0; i < s->nh; i++) {
        if (!ev->state[i]) continue;
        int seen = 0;
        for (size_t k = 0; k < s->found.n; k++) seen |= s->found.v[k] == s->h[i];
        if (!seen) CA_VEC_PUSH(s->found, s->h[i]);
    }
}

static void end(rule_run *rr)
{
    rule_ctx *ctx = rr->ctx;
    swallow_state *s = rr->data;
    for (size_t i = 0; i < s->found.n && rule_on(ctx, "CAN401"); i++) {
        const ir_handler *h = s->found.v[i];
        const char *c = h->catches && *h->catches ? h->catches : "";
        char *msg = ca_xasprintf("`except%s%s` catches cancellation and has a path that completes without "
                                 "re-raising it: the cancellation is swallowed, so the caller's cancel or timeout "
                                 "never takes effect",
                                 *c ? " " : "", c);
        char *what = ca_xasprintf("except %s", *c ? c : "(bare)");
        const ir_handler *hs[1] = {h};
        rule_emit(ctx, "CAN401", h->site, what, "cancellation", NULL, hs, 1, what, msg);
        free(what);
    }
    CA_VEC_FREE(s->found);
    free(s->h);
    free(s);
}

const rule_def rule_can401 = {
    .ids = "CAN401",
    .language = "python",
    .events = ENG_ON(ENG_EV_HANDLER) | ENG_ON(ENG_EV_HANDLER_EXIT) | ENG_ON(ENG_EV_EXIT),
    .begin = begin,
    .on_event = on_event,
    .end = end,
};
