/*
 * summary.c — what a function does with its parameters (engine.h): the
 * summaries that calls into the scanned code apply, and their fixed point
 * through calls that run their callee (C).
 */
#include "engine/engine.h"

#include <string.h>

#include "engine/rel.h"

typedef struct sum_ctx {
    const ir_module *m;
    const ir_func *f;
    const eng_resolver *r;   /* eng_summary_update only */
    eng_rel rel;
    int seen_cp;
    eng_summary *out;
} sum_ctx;

static void sum_mark(sum_ctx *c, int x, int take)
{
    for (int p = 0; p < c->f->nparams && p < 64; p++) {
        if (!eng_rel_covers(&c->rel, x, p)) continue;
        uint64_t bit = 1ull << p;
        if (!take) c->out->releases |= bit;
        else if (!c->seen_cp) c->out->takes_early |= bit;
        else c->out->takes_late |= bit;
    }
}

static void seen_checkpoint(sum_ctx *c)
{
    c->seen_cp = 1;
    c->out->has_checkpoint = 1;
}

static int sum_node(void *ctx, const ir_node *n)
{
    sum_ctx *c = ctx;
    switch (n->kind) {
    case IR_CHECKPOINT:
        seen_checkpoint(c);
        break;
    case IR_WITH:
        if (n->flags & WITH_ASYNC) seen_checkpoint(c);
        break;
    case IR_LOOP:
        if (n->flags & LOOP_ASYNC_FOR) seen_checkpoint(c);
        break;
    case IR_RELEASE:
        sum_mark(c, n->var, 0);
        break;
    case IR_TRANSFER:
    case IR_ADOPT:
        sum_mark(c, n->var, 1);
        break;
    case IR_CALL:
        for (int k = 0; k < n->nvars; k++) {
            if (n->flags & CALL_NAME_RELEASES) sum_mark(c, n->vars[k], 0);
            else if (n->flags & CALL_NAME_REGISTERS) sum_mark(c, n->vars[k], 1);
        }
        break;
    default:
        break;
    }
    return 0;
}

void eng_summarize(const ir_func *f, eng_summary *out)
{
    memset(out, 0, sizeof(*out));
    sum_ctx c;
    memset(&c, 0, sizeof(c));
    c.f = f;
    c.out = out;
    eng_rel_build(&c.rel, f);
    ir_visit(&f->body, sum_node, &c);
    eng_rel_free(&c.rel);
}

/* A function that runs a callee reaching a checkpoint reaches one too;
 * handing a parameter to a callee that releases or takes it releases or
 * takes it. */
static int upd_node(void *ctx, const ir_node *n)
{
    sum_ctx *c = ctx;
    if (n->kind == IR_CHECKPOINT) c->seen_cp = 1;
    if (n->kind != IR_CALL || !(n->flags & CALL_RUNS_CALLEE) || !c->r || !c->r->resolve) return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, n, &sum, &off);
    if (!callee || !sum || callee == c->f) return 0;
    for (int k = 0; k < n->nvars; k++) {
        int p = k + off;
        if (n->vars[k] < 0 || p >= 64 || (n->kwnames && n->kwnames[k])) continue;
        uint64_t bit = 1ull << p;
        if (sum->releases & bit) sum_mark(c, n->vars[k], 0);
        else if ((sum->takes_early | sum->takes_late) & bit) sum_mark(c, n->vars[k], 1);
    }
    if (sum->has_checkpoint && !callee->is_async) seen_checkpoint(c);
    return 0;
}

int eng_summary_update(const ir_module *m, const ir_func *f, const eng_resolver *r, eng_summary *io)
{
    eng_summary before = *io;
    sum_ctx c;
    memset(&c, 0, sizeof(c));
    c.m = m;
    c.f = f;
    c.r = r;
    c.out = io;
    eng_rel_build(&c.rel, f);
    ir_visit(&f->body, upd_node, &c);
    eng_rel_free(&c.rel);
    return memcmp(&before, io, sizeof(before)) != 0;
}
