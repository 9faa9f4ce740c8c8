/*
 * rule_remote.c — CAN201 (remote create awaited under a timeout without a
 * shield) and CAN202 (strict: with no shield and no timeout).
 */
#include "rules/rules.h"

#include <stdlib.h>

void rule_remote(rule_ctx *ctx)
{
    const eng_result *r = ctx->res;
    for (int i = 0; i < r->nobs; i++) {
        const eng_obs *o = &r->obs[i];
        if (o->kind != OBS_REMOTE || o->shielded) continue;
        const char *callee = o->at && o->at->text ? o->at->text : "create";
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
        rule_emit(ctx, rule, o->site, callee, "remote", o->at, NULL, 0, callee, msg);
    }
}
