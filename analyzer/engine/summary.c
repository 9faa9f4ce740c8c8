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
    c->out->suspends = 1;
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
    case IR_DONE:
        /* a helper that awaits the task it is given settles it: the caller
         * has nothing left to release once the call returns */
        if (n->flags & DONE_SETTLED) sum_mark(c, n->var, 0);
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
    out->uses = f->param_mentions;
    eng_rel_build(&c.rel, f);
    ir_visit(&f->body, sum_node, &c);
    eng_rel_free(&c.rel);
}

/* Which parameter of callee argument k of call n lands in (keyword by
 * name, positional by position, past *args in it), or -1. */
int eng_call_param(const ir_node *n, int k, const ir_func *callee, int off)
{
    if (n->kwnames && n->kwnames[k]) {
        for (int q = 0; q < callee->nparams; q++)
            if (strcmp(callee->vars[q].name, n->kwnames[k]) == 0) return q;
        return -1;
    }
    int pos = 0;
    for (int q = 0; q < k; q++) pos += !n->kwnames || n->kwnames[q] == NULL;
    int p = pos + off;
    for (int q = 0; q < callee->nparams && q < p; q++)
        if (callee->vars[q].flags & VAR_VARARGS) return q;
    return p < callee->nparams ? p : -1;
}

/* Handing a parameter to a callee that releases or takes it releases or
 * takes it; a function that runs (C) a callee reaching a checkpoint
 * reaches one too. */
static int upd_node(void *ctx, const ir_node *n)
{
    sum_ctx *c = ctx;
    if (n->kind == IR_CHECKPOINT) c->seen_cp = 1;
    if (n->kind != IR_CALL || !c->r || !c->r->resolve) return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, n, &sum, &off);
    if (!callee || !sum || callee == c->f) return 0;
    for (int k = 0; k < n->nvars; k++) {
        int p = n->vars[k] >= 0 ? eng_call_param(n, k, callee, off) : -1;
        if (p < 0 || p >= 64) continue;
        uint64_t bit = 1ull << p;
        if (sum->releases & bit) sum_mark(c, n->vars[k], 0);
        else if ((sum->takes_early | sum->takes_late) & bit) sum_mark(c, n->vars[k], 1);
    }
    if ((n->flags & CALL_RUNS_CALLEE) && sum->has_checkpoint && !callee->is_async) seen_checkpoint(c);
    return 0;
}

int eng_summary_update(const ir_module *m, const ir_func *f, const eng_resolver *r, eng_summary *io)
{
    eng_summary before = *io;
    int suspends = io->suspends; /* eng_suspends_update's business */
    sum_ctx c;
    memset(&c, 0, sizeof(c));
    c.m = m;
    c.f = f;
    c.r = r;
    c.out = io;
    eng_rel_build(&c.rel, f);
    ir_visit(&f->body, upd_node, &c);
    eng_rel_free(&c.rel);
    io->suspends = suspends;
    return memcmp(&before, io, sizeof(before)) != 0;
}

/* ---- can an await of f suspend? --------------------------------------- */

typedef struct susp_ctx {
    const ir_module *m;
    const ir_func *f;
    const eng_resolver *r;
} susp_ctx;

int eng_checkpoint_suspends(const ir_module *m, const ir_func *f, const eng_resolver *r, const ir_node *cp)
{
    if (cp->kind != IR_CHECKPOINT || !(cp->flags & CP_CALL) || !cp->ref || !r || !r->resolve) return 1;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = r->resolve(r->ctx, m, f, cp->ref, &sum, &off);
    /* an async function of the tree that never suspends returns at once */
    if (callee && sum && callee->is_async) return sum->suspends;
    return 1;
}

static int susp_node(void *ctx, const ir_node *n)
{
    const susp_ctx *c = ctx;
    if (n->kind == IR_WITH && (n->flags & WITH_ASYNC)) return 1;
    if (n->kind == IR_LOOP && (n->flags & LOOP_ASYNC_FOR)) return 1;
    if (n->kind == IR_CHECKPOINT) return eng_checkpoint_suspends(c->m, c->f, c->r, n);
    return 0;
}

int eng_suspends_update(const ir_module *m, const ir_func *f, const eng_resolver *r, eng_summary *io)
{
    if (io->suspends) return 0;
    susp_ctx c = {m, f, r};
    io->suspends = ir_visit(&f->body, susp_node, &c) != 0;
    return io->suspends;
}
