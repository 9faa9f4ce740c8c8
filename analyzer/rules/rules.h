/*
 * rules.h — turning the engine's observations into findings (DESIGN §3).
 *
 * Each rule lives in analyzer/rules/rule_*.c and reads only the IR and the
 * engine's observations; rule_emit() here fills the common fields (function,
 * resource, fingerprint, suppression). The rule docs are data under rules/.
 */
#ifndef CA_RULES_H
#define CA_RULES_H

#include "engine/engine.h"
#include "ir/ir.h"
#include "model/model.h"

typedef struct rule_ctx {
    const ir_module *m;
    const ir_func *f;
    const eng_result *res;
    const char *path;
    const char *backend;
    const char *select, *ignore;
    int strict;
    int c_active;    /* C modules: thread cancellation is in scope (pthread_cancel seen, or forced) */
    /* output */
    ca_finding *out;
    size_t nout, cap;
} rule_ctx;

/* Run every selected rule on one analysed function, appending to ctx->out. */
void rules_run(rule_ctx *ctx);

/* For rule files: add a finding. `resource` and `checkpoint` are copied;
 * handlers may be NULL. Returns the new finding for extra fields. */
ca_finding *rule_emit(rule_ctx *ctx, const char *rule, ir_site at, const char *resource, const char *kind,
                      const ir_node *acquired, const ir_handler *const *handlers, int nhandlers,
                      const char *checkpoint, char *message /* taken */);
int rule_on(const rule_ctx *ctx, const char *rule);
/* Readable description of a checkpoint node: "await x.y()", "`async with self._lock` enter". */
char *rule_checkpoint_desc(const ir_node *at);
const char *rule_var_name(const rule_ctx *ctx, int v);

void rule_window(rule_ctx *ctx);   /* CAN101, CAN102, CAN301 */
void rule_remote(rule_ctx *ctx);   /* CAN201, CAN202 */
void rule_executor(rule_ctx *ctx); /* CAN203 */
void rule_cleanup(rule_ctx *ctx);  /* CAN302 */
void rule_swallow(rule_ctx *ctx);  /* CAN401 */
void rule_c(rule_ctx *ctx);        /* CAN501, CAN502, CAN503 (C modules only) */

#endif
