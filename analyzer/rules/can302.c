/*
 * can302.c — CAN302 (strict): a cleanup await inside a cancellation
 * handler or finally that is not shielded; a second cancellation abandons
 * it.
 *
 * A cleanup await is an await whose call releases something, or that works
 * on a value the function acquired. It counts inside a handler that catches
 * cancellation or a finally (the innermost such region; a handler that does
 * not catch cancellation ends the search), unless the await is shielded or
 * sits in a shield scope.
 */
#include "rules/rules.h"

#include <stdlib.h>

typedef struct cleanup_await {
    const ir_node *at;
    const ir_handler *handler; /* NULL: a finally */
} cleanup_await;

typedef CA_VEC(cleanup_await) await_vec;

static void begin(rule_run *rr) { rr->data = ca_xcalloc(1, sizeof(await_vec)); }

static void on_event(rule_run *rr, const eng_walk *W, const eng_event *ev)
{
    const ir_node *cp = ev->node;
    if (!cp || cp->kind != IR_CHECKPOINT) return;
    int cleanup = (cp->flags & CP_RELEASES) || ((cp->flags & CP_ON_VAR) && cp->var >= 0 && eng_acquired(W, cp->var));
    if (!cleanup || !(cp->flags & CP_IN_CLEANUP) || (cp->flags & CP_SHIELDED) || ev->shielded) return;
    for (int i = 0; i < eng_nregions(W); i++) {
        const eng_region *r = eng_region_at(W, i);
        if (r->kind == ENG_REG_HANDLER && !(r->handler->flags & H_CANCEL)) break;
        if (r->kind == ENG_REG_HANDLER || r->kind == ENG_REG_FINALLY) {
            cleanup_await a = {cp, r->kind == ENG_REG_HANDLER ? r->handler : NULL};
            CA_VEC_PUSH(*(await_vec *)rr->data, a);
            break;
        }
    }
}

static void end(rule_run *rr)
{
    rule_ctx *ctx = rr->ctx;
    await_vec *v = rr->data;
    for (size_t i = 0; i < v->n && rule_on(ctx, "CAN302"); i++) {
        const cleanup_await *o = &v->v[i];
        int dup = 0;
        for (size_t k = 0; k < i; k++) dup |= v->v[k].at == o->at;
        if (dup) continue;
        const char *text = o->at->text ? o->at->text : "await";
        char *msg = ca_xasprintf("cleanup `%s` runs in a %s but is not shielded: a second cancellation "
                                 "interrupts it and abandons the rest of the cleanup; shield it and re-await it "
                                 "until it settles",
                                 text, o->handler ? "cancellation handler" : "finally block");
        const ir_handler *hs[1] = {o->handler};
        rule_emit(ctx, "CAN302", o->at->site, text, "cleanup", NULL, o->handler ? hs : NULL, o->handler ? 1 : 0,
                  text, msg);
    }
    CA_VEC_FREE(*v);
    free(v);
}

const rule_def rule_can302 = {
    .ids = "CAN302",
    .language = "python",
    .events = ENG_ON(ENG_EV_CHECKPOINT),
    .begin = begin,
    .on_event = on_event,
    .end = end,
};
