/*
 * rule_cleanup.c — CAN302 (strict): a cleanup await inside a cancellation
 * handler or finally that is not shielded; a second cancellation abandons it.
 */
#include "rules/rules.h"

#include <stdlib.h>

void rule_cleanup(rule_ctx *ctx)
{
    const eng_result *r = ctx->res;
    if (!rule_on(ctx, "CAN302")) return;
    for (int i = 0; i < r->nobs; i++) {
        const eng_obs *o = &r->obs[i];
        if (o->kind != OBS_CLEANUP_AWAIT) continue;
        int dup = 0;
        for (int k = 0; k < i; k++) dup |= r->obs[k].kind == OBS_CLEANUP_AWAIT && r->obs[k].at == o->at;
        if (dup) continue;
        const char *text = o->at && o->at->text ? o->at->text : "await";
        char *msg = ca_xasprintf("cleanup `%s` runs in a %s but is not shielded: a second cancellation "
                                 "interrupts it and abandons the rest of the cleanup; shield it and re-await it "
                                 "until it settles",
                                 text, o->handler ? "cancellation handler" : "finally block");
        const ir_handler *hs[1] = {o->handler};
        rule_emit(ctx, "CAN302", o->site, text, "cleanup", NULL, o->handler ? hs : NULL, o->handler ? 1 : 0, text,
                  msg);
    }
}
