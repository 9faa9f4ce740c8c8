/*
 * rules.c — common finding construction and the rule table (rules.h).
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#include "rules/ruledoc.h"

int rule_on(const rule_ctx *ctx, const char *rule)
{
    return ca_rule_selected(rule, ctx->select, ctx->ignore, ctx->strict);
}

const char *rule_var_name(const rule_ctx *ctx, int v)
{
    return v >= 0 && v < ctx->f->nvars ? ctx->f->vars[v].name : "?";
}

char *rule_checkpoint_desc(const ir_node *at)
{
    if (!at) return ca_xstrdup("this checkpoint");
    switch (at->kind) {
    case IR_WITH: return ca_xasprintf("`async with %s`", at->text ? at->text : "");
    case IR_LOOP: return ca_xstrdup("this `async for` step");
    default: return ca_xasprintf("`%s`", at->text ? at->text : "await");
    }
}

ca_finding *rule_emit(rule_ctx *ctx, const char *rule, ir_site at, const char *resource, const char *kind,
                      const ir_node *acquired, const ir_handler *const *handlers, int nhandlers,
                      const char *checkpoint, char *message)
{
    if (ctx->nout == ctx->cap) {
        ctx->cap = ctx->cap ? ctx->cap * 2 : 8;
        ctx->out = ca_xrealloc(ctx->out, sizeof(ca_finding) * ctx->cap);
    }
    ca_finding *f = &ctx->out[ctx->nout++];
    memset(f, 0, sizeof(*f));
    const ca_ruledoc *doc = ca_ruledoc_get(rule);
    f->rule = ca_xstrdup(rule);
    f->severity = doc ? doc->severity : CA_SEV_ERROR;
    f->path = ca_xstrdup(ctx->path);
    f->line = at.line;
    f->column = at.col;
    f->end_line = at.end_line;
    f->end_column = at.end_col;
    f->function = ca_xstrdup(ctx->f->qualname);
    f->backend = ca_xstrdup(ctx->backend ? ctx->backend : "");
    f->resource = ca_xstrdup(resource ? resource : "");
    f->resource_kind = ca_xstrdup(kind ? kind : "resource");
    if (acquired) {
        f->acquired_line = acquired->site.line;
        f->acquired_column = acquired->site.col;
    }
    if (nhandlers > 0) {
        f->handlers = ca_xcalloc((size_t)nhandlers, sizeof(ca_handler_ref));
        for (int i = 0; i < nhandlers; i++) {
            f->handlers[i].line = handlers[i]->site.line;
            f->handlers[i].column = handlers[i]->site.col;
            f->handlers[i].catches = ca_xstrdup(handlers[i]->catches && *handlers[i]->catches
                                                    ? handlers[i]->catches : "(bare)");
        }
        f->nhandlers = (size_t)nhandlers;
    }
    f->message = message;
    f->checkpoint = ca_xstrdup(checkpoint ? checkpoint : "");
    /* survives line shifts: no line numbers in it */
    ca_sb sb = {0};
    ca_sb_addf(&sb, "%s\n%s\n%s\n%s\n%s", rule, ctx->path, ctx->f->qualname, f->resource, f->checkpoint);
    char hex[17];
    ca_hash_hex(ca_hash64(sb.buf, sb.len, CA_HASH_SEED), hex);
    ca_sb_release(&sb);
    f->fingerprint = ca_xstrdup(hex);
    f->suppressed = ir_suppressed(ctx->m, at.line, rule);
    return f;
}

void rules_run(rule_ctx *ctx)
{
    /* a module is read by its own language's rules: pthread cancellation
     * windows are CAN5xx, never CAN1xx */
    if (ctx->m->language && strcmp(ctx->m->language, "c") == 0) {
        rule_c(ctx);
        return;
    }
    rule_window(ctx);
    rule_remote(ctx);
    rule_executor(ctx);
    rule_cleanup(ctx);
    rule_swallow(ctx);
}
