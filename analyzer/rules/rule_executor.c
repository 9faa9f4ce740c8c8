/*
 * rule_executor.c — CAN203: a resource made by thread work
 * (run_in_executor, to_thread) that keeps running after the await is
 * cancelled; its result is dropped and nothing releases it.
 */
#include "rules/rules.h"

#include <stdlib.h>

void rule_executor(rule_ctx *ctx)
{
    const eng_result *r = ctx->res;
    if (!rule_on(ctx, "CAN203")) return;
    for (int i = 0; i < r->nobs; i++) {
        const eng_obs *o = &r->obs[i];
        if (o->kind != OBS_EXECUTOR) continue;
        const char *name = rule_var_name(ctx, o->var);
        const char *callee = o->at && o->at->text ? o->at->text : "run_in_executor";
        char *msg = ca_xasprintf("`%s` is made by `%s(...)` in a worker thread that keeps running if this await "
                                 "is cancelled: the thread finishes, its result is dropped, and nothing releases "
                                 "`%s`",
                                 name, callee, name);
        rule_emit(ctx, "CAN203", o->site, name, "resource", o->at, NULL, 0, callee, msg);
    }
}
