/*
 * rule_swallow.c — CAN401: a handler that catches cancellation has a path
 * that completes (falls through, returns, breaks, continues) without
 * re-raising. Raising it later in the function is not swallowing: the
 * engine clears the mark on every path that raises.
 */
#include "rules/rules.h"

#include <stdlib.h>

void rule_swallow(rule_ctx *ctx)
{
    const eng_result *r = ctx->res;
    if (!rule_on(ctx, "CAN401")) return;
    for (int i = 0; i < r->nobs; i++) {
        const eng_obs *o = &r->obs[i];
        if (o->kind != OBS_SWALLOW || !o->handler) continue;
        const ir_handler *h = o->handler;
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
}
