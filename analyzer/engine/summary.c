/*
 * summary.c — what a function does with its parameters (engine.h): the
 * summaries that calls into the scanned code apply, and their fixed point
 * through calls that run their callee (C).
 */
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "engine/rel.h"

typedef struct sum_ctx {
    const ir_module *m;
    const ir_func *f;
    const eng_resolver *r;   /* eng_summary_update only */
    eng_rel rel;
    int seen_cp;
    eng_summary *out;
    uint8_t *made;           /* per variable: it holds a resource this function made */
    uint8_t *stored;         /* per variable: stored somewhere (not only returned) */
    uint8_t *joined;         /* per variable: made as (or by) an object that joins another owner */
    uint8_t *lent;           /* per variable: handed out by a helper that keeps it (summary BORROWED) */
    int lent_returned;       /* some return hands back such a value */
    int other_returned;      /* some return hands back another value */
    int borrowed;            /* some return hands out what is kept elsewhere */
} sum_ctx;

static int is_noreturn_name(const char *t)
{
    if (!t) return 0;
    const char *p = strrchr(t, '.');
    p = p ? p + 1 : t;
    return strcmp(p, "NoReturn") == 0 || strcmp(p, "Never") == 0;
}

/* Is acquire n of a resource, by the catalog or, through r, by what its
 * making call returns? */
static int made_resource(const sum_ctx *c, const ir_node *n)
{
    if ((n->flags & ACQ_STRONG) && !(n->flags & ACQ_HEURISTIC)) return 1;
    const ir_node *mk = n->ref;
    if (!mk || !mk->text || !c->r) return 0;
    if (c->r->class_of) {
        unsigned k = c->r->class_of(c->r->ctx, c->m, mk->text);
        if (k & ENG_CLASS_KNOWN) return (k & ENG_CLASS_OWNS) != 0;
    }
    if (c->r->resolve) {
        const eng_summary *sum = NULL;
        int off = 0;
        const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, mk, &sum, &off);
        if (callee && sum && callee != c->f && sum->returns == ENG_RET_RESOURCE) return 1;
    }
    return 0;
}

/* ---- does a path of f ever complete normally? -------------------------- */

static int callee_noreturn(const sum_ctx *c, const ir_node *n)
{
    if (n->kind == IR_CALL && (n->flags & CALL_NORETURN) && !(n->flags & CALL_VALUE_ONLY)) return 1;
    if (n->kind != IR_CALL || !c->r || !c->r->resolve || (n->flags & CALL_VALUE_ONLY)) return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, n, &sum, &off);
    /* a coroutine or generator function runs nothing when called (an
     * awaited one is judged at its await, which comes next) */
    return callee && sum && callee != c->f && sum->noreturn && !callee->is_async && !(callee->fflags & FN_GENERATOR);
}

static int block_never_completes(const sum_ctx *c, const ir_block *b);

static int has_break(void *ctx, const ir_node *n)
{
    (void)ctx;
    return n->kind == IR_BREAK;
}

static int node_never_completes(const sum_ctx *c, const ir_node *n)
{
    switch (n->kind) {
    case IR_RAISE:
        return 1;
    case IR_CALL:
        return callee_noreturn(c, n);
    case IR_CHECKPOINT:
        /* `await self._raise_for(...)`: an async helper that always raises */
        if ((n->flags & CP_CALL) && n->ref && c->r && c->r->resolve) {
            const eng_summary *sum = NULL;
            int off = 0;
            const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, n->ref, &sum, &off);
            return callee && sum && callee != c->f && sum->noreturn && !(callee->fflags & FN_GENERATOR);
        }
        return 0;
    case IR_IF:
        if (!(n->flags & IF_HAS_ELSE) || n->nbranches == 0) return 0;
        for (int k = 0; k < n->nbranches; k++)
            if (!block_never_completes(c, &n->branches[k])) return 0;
        return 1;
    case IR_TRY:
        if (n->c.n && block_never_completes(c, &n->c)) return 1;
        if (!block_never_completes(c, &n->a) && !block_never_completes(c, &n->b)) return 0;
        for (int k = 0; k < n->nhandlers; k++)
            if (!block_never_completes(c, &n->handlers[k].body)) return 0;
        return 1;
    case IR_LOOP:
        /* `while True:` without a break of its own (a break inside a nested
         * loop counts too: conservative) */
        return (n->flags & LOOP_INFINITE) && !ir_visit(&n->a, has_break, NULL);
    default:
        return 0;
    }
}

static int block_never_completes(const sum_ctx *c, const ir_block *b)
{
    for (int i = 0; i < b->n; i++)
        if (node_never_completes(c, b->v[i])) return 1;
    return 0;
}

static int is_return(void *ctx, const ir_node *n)
{
    (void)ctx;
    return n->kind == IR_RETURN;
}

static int never_returns(const sum_ctx *c)
{
    if (is_noreturn_name(c->f->ret_type)) return 1;
    return !ir_visit(&c->f->body, is_return, NULL) && block_never_completes(c, &c->f->body);
}

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
    case IR_ACQUIRE:
        if (n->var >= 0 && (n->flags & ACQ_REGISTRY_TAKE)) c->made[n->var] = 2; /* (taken, not made) */
        else if (n->var >= 0 && made_resource(c, n)) c->made[n->var] = 1;
        break;
    case IR_CHECKPOINT:
        /* the parameters it passes cancellation into */
        for (int k = 0; k < n->nvars; k++)
            for (int p = 0; p < c->f->nparams && p < 64; p++)
                if (n->vars[k] >= 0 && eng_rel_covers(&c->rel, p, n->vars[k])) c->out->passes |= 1ull << p;
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
        if (n->flags & XFER_PART) break;
        if (n->var >= 0 && !(n->flags & XFER_RETURN)) c->stored[n->var] = 1;
        if ((n->flags & XFER_RETURN) && n->var >= 0 && c->out->returns == ENG_RET_UNKNOWN) {
            /* what it stores as well as returns, the caller only borrows */
            if (c->stored[n->var]) c->borrowed = 1;
            else if (c->made[n->var] == 2) c->out->returns = ENG_RET_TAKEN;
            else if (c->made[n->var]) c->out->returns = ENG_RET_RESOURCE;
        }
        sum_mark(c, n->var, 1);
        break;
    case IR_RETURN:
        if ((n->flags & RETURN_TAKEN) && c->out->returns == ENG_RET_UNKNOWN) c->out->returns = ENG_RET_TAKEN;
        break;
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

typedef struct quiet_q {
    int quiet, other;
} quiet_q;

static int quiet_ret(void *ctx, const ir_node *n)
{
    quiet_q *q = ctx;
    if (n->kind == IR_RETURN) {
        if (n->flags & RETURN_QUIET_CM) q->quiet++;
        else q->other++;
    }
    return 0;
}

/* Does every return of f hand back a context manager that never suspends? */
static int quiet_cm_only(const ir_func *f)
{
    quiet_q q = {0, 0};
    ir_visit(&f->body, quiet_ret, &q);
    return q.quiet > 0 && q.other == 0;
}

static int find_return_param(void *ctx, const ir_node *n)
{
    int *p = ctx;
    if (n->kind == IR_RETURN && (n->flags & RETURN_PARAM) && n->var >= 0) *p = n->var;
    return n->kind == IR_RETURN && (n->flags & RETURN_PARAM);
}

/* 1 + the parameter the frontend found every path of f returns unchanged
 * (it marks every return then), or 0 */
static int returned_param(const ir_func *f)
{
    if (f->fflags & FN_GENERATOR) return 0;
    int p = -1;
    ir_visit(&f->body, find_return_param, &p);
    return p >= 0 && p < f->nparams ? p + 1 : 0;
}

void eng_summarize(const ir_func *f, eng_summary *out)
{
    memset(out, 0, sizeof(*out));
    sum_ctx c;
    memset(&c, 0, sizeof(c));
    c.f = f;
    c.out = out;
    out->uses = f->param_mentions;
    if (f->fflags & FN_RET_PLAIN) out->returns = ENG_RET_PLAIN;
    c.made = ca_xcalloc((size_t)f->nvars + 1, 1);
    c.stored = ca_xcalloc((size_t)f->nvars + 1, 1);
    eng_rel_build(&c.rel, f);
    ir_visit(&f->body, sum_node, &c);
    if (out->returns == ENG_RET_UNKNOWN && (c.borrowed || (f->fflags & FN_RETURNS_BORROWED)))
        out->returns = ENG_RET_BORROWED;
    if (!f->is_async && quiet_cm_only(f)) out->returns = ENG_RET_QUIET_CM;
    out->returns_param = returned_param(f);
    /* (a stub that raises NotImplementedError stands for its overrides) */
    out->noreturn = never_returns(&c) && !(f->fflags & (FN_ABSTRACT | FN_STUB));
    eng_rel_free(&c.rel);
    free(c.made);
    free(c.stored);
}

/* `chan = Channel(self, ...)` of a class whose constructor hands the new
 * object to an argument (ENG_CLASS_JOINS), made with self or a parameter:
 * that owner's, not a resource the function hands out */
static int joins_owner(const sum_ctx *c, const ir_node *n)
{
    const ir_node *mk = n->ref;
    if (!mk || mk->kind != IR_CALL || !mk->text || !c->r || !c->r->class_of) return 0;
    if (!(c->r->class_of(c->r->ctx, c->m, mk->text) & ENG_CLASS_JOINS)) return 0;
    for (int k = 0; k < mk->nvars; k++) {
        int x = mk->vars[k];
        if (x >= 0 && x != n->var && (c->f->vars[x].flags & (VAR_SELF | VAR_PARAM))) return 1;
    }
    return 0;
}

/* Which arguments of call n (bit k: argument k) a method of self or of a
 * module-level object keeps (takes and does not release): `self._enter_room(
 * sid, ...)`, `conn_map.set(key, conn)`. 0 for any other call. */
static uint64_t owner_keeps_args(const sum_ctx *c, const ir_node *n)
{
    if (n->kind != IR_CALL || !(n->flags & (CALL_ON_SELF | CALL_ON_GLOBAL)) || (n->flags & CALL_VALUE_ONLY) ||
        n->nvars <= 0 || !c->r || !c->r->resolve)
        return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, n, &sum, &off);
    if (!callee || !sum || callee == c->f) return 0;
    uint64_t kept = 0;
    for (int k = 0; k < n->nvars && k < 64; k++) {
        int p = n->vars[k] >= 0 ? eng_call_param(n, k, callee, off) : -1;
        if (p >= 0 && p < 64 && (((sum->takes_early | sum->takes_late) & ~sum->releases) & (1ull << p)))
            kept |= 1ull << k;
    }
    return kept;
}

static int ret_node(void *ctx, const ir_node *n)
{
    sum_ctx *c = ctx;
    if (n->kind == IR_ACQUIRE && n->var >= 0 &&
        (joins_owner(c, n) || (n->var2 >= 0 && n->var2 < c->f->nvars && c->joined[n->var2]))) {
        /* (and what such an object makes, `session = await chan.create()`,
         * goes with it) */
        c->joined[n->var] = 1;
        c->stored[n->var] = 1;
        return 0;
    }
    if (n->kind == IR_ACQUIRE && n->var >= 0 && made_resource(c, n)) c->made[n->var] = 1;
    /* `group = self._create_job_group(...)` (which registers it) ...
     * `return group`: the caller borrows what a helper lends this function */
    if (n->kind == IR_ACQUIRE && n->var >= 0 && n->ref && n->ref->kind == IR_CALL && c->r && c->r->resolve) {
        const eng_summary *sum = NULL;
        int off = 0;
        const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, n->ref, &sum, &off);
        if (callee && sum && callee != c->f && (sum->returns == ENG_RET_BORROWED || sum->returns == ENG_RET_KEPT))
            c->lent[n->var] = 1;
    }
    /* `sid = generate_id()` ... `self._enter_room(sid, ...)` ... `return
     * sid`: a method of self that keeps the value registers it with self;
     * what is returned then is lent, as a value stored on self in place is
     * (not a function handed it to build something new of: `core =
     * create_core(listener=atv)` makes a part of what it returns) */
    /* (so does a method of a module-level object: `conn_map.set(key,
     * conn)` of a `conn_map = ConnMap()` whose set keeps conn) */
    if (n->kind == IR_CALL) {
        uint64_t kept = owner_keeps_args(c, n);
        for (int k = 0; kept && k < n->nvars && k < 64; k++)
            if (kept & (1ull << k)) c->stored[n->vars[k]] = c->lent[n->vars[k]] = 1;
    }
    if (n->kind == IR_TRANSFER && (n->flags & XFER_RETURN) && n->var >= 0) {
        if (c->lent[n->var]) c->lent_returned = 1;
        else c->other_returned = 1;
    }
    if (n->kind == IR_TRANSFER && (n->flags & XFER_RETURN) && n->var >= 0 && c->joined[n->var]) {
        c->out->returns = ENG_RET_BORROWED; /* the caller gets what another owner keeps */
        return 1;
    }
    if (n->kind == IR_TRANSFER && n->var >= 0 && !(n->flags & (XFER_RETURN | XFER_PART))) c->stored[n->var] = 1;
    if (n->kind == IR_TRANSFER && (n->flags & XFER_RETURN) && n->var >= 0 && c->made[n->var] && !c->stored[n->var]) {
        c->out->returns = ENG_RET_RESOURCE;
        return 1;
    }
    return 0;
}

/* Which parameter of callee argument k of call n lands in (keyword by
 * name, positional by position, past *args in it), or -1. */
int eng_call_param(const ir_node *n, int k, const ir_func *callee, int off)
{
    /* (a later element of a tuple written in place lands where its first
     * one does; a later variable an argument's expression reads, nowhere) */
    if (ir_arg_part(n, k)) return -1;
    while (k > 0 && ir_arg_cont(n, k)) k--;
    if (n->kwnames && n->kwnames[k] && !ir_arg_cont(n, k)) {
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

static const char *tail_part(const char *s)
{
    const char *d = s ? strrchr(s, '.') : NULL;
    return d ? d + 1 : s;
}

int eng_local_constructor(const ir_module *m, const eng_resolver *r, const ir_node *n, const ir_func *callee,
                          const eng_summary *sum)
{
    if (!callee || !sum || sum->remote || !callee->ret_type || !callee->class_name || !n->recv || !r ||
        !r->class_of)
        return 0;
    const char *cn = tail_part(callee->class_name);
    if (strcmp(tail_part(callee->ret_type), cn) != 0 || strcmp(tail_part(n->recv), cn) != 0) return 0;
    unsigned k = r->class_of(r->ctx, m, callee->class_name);
    return (k & ENG_CLASS_KNOWN) && !(k & ENG_CLASS_OWNS);
}

/* Does call hand on a parameter of the function (or a part of one)? */
static int handed_param(sum_ctx *c, const ir_node *call)
{
    for (int k = 0; k < call->nvars; k++)
        for (int p = 0; call->vars[k] >= 0 && p < c->f->nparams && p < 64; p++)
            if (eng_rel_covers(&c->rel, p, call->vars[k])) return 1;
    return 0;
}

/* Handing a parameter to a callee that releases or takes it releases or
 * takes it; a function that runs (C) a callee reaching a checkpoint
 * reaches one too. */
static int upd_node(void *ctx, const ir_node *n)
{
    sum_ctx *c = ctx;
    if (n->kind == IR_CHECKPOINT) c->seen_cp = 1;
    /* `await get_reason(response)` of a helper of the tree that passes the
     * cancellation into its parameter (`await response.json()` of a
     * response that releases itself when cancelled there): this function
     * passes it into its own parameter that the argument is */
    if (n->kind == IR_CHECKPOINT && (n->flags & CP_CALL) && n->ref && n->ref->kind == IR_CALL && c->r &&
        c->r->resolve && handed_param(c, n->ref)) {
        const eng_summary *sum = NULL;
        int off = 0;
        const ir_node *call = n->ref;
        const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, call, &sum, &off);
        if (callee && sum && callee != c->f && sum->passes)
            for (int k = 0; k < call->nvars; k++) {
                int q = call->vars[k] >= 0 ? eng_call_param(call, k, callee, off) : -1;
                if (q < 0 || q >= 64 || !(sum->passes & (1ull << q))) continue;
                for (int p = 0; p < c->f->nparams && p < 64; p++)
                    if (eng_rel_covers(&c->rel, p, call->vars[k])) c->out->passes |= 1ull << p;
            }
    }
    if (n->kind == IR_AWAIT_CALL && !c->out->remote && !(n->flags & REM_SHIELDED)) {
        const eng_summary *sum = NULL;
        const ir_func *callee = c->r && c->r->resolve ? eng_resolve_awaited(c->m, c->f, c->r, n, &sum) : NULL;
        if (callee == c->f) callee = NULL;
        if (callee && sum && sum->remote) c->out->remote = 1;
        /* a create by its name: unless what it awaits is a function of
         * the tree that suspends nowhere (`State.create(agent)` building
         * an object in memory), a request a cancellation can cut */
        if ((n->flags & REM_CREATE) && !(callee && sum && !sum->suspends && callee->is_async) &&
            !eng_local_constructor(c->m, c->r, n, callee, sum))
            c->out->remote = 1;
        return 0;
    }
    if (n->kind != IR_CALL || (n->flags & CALL_VALUE_ONLY) || !c->r || !c->r->resolve) return 0;
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

typedef struct delegate_q {
    sum_ctx *c;
    int *ret; /* the callees' common ENG_RET_*, or -1 when they differ */
} delegate_q;

static int delegated_return(void *ctx, const ir_node *n)
{
    delegate_q *q = ctx;
    if (n->kind != IR_RETURN || !n->ref || n->ref->kind != IR_CALL || *q->ret < 0 || !q->c->r || !q->c->r->resolve)
        return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = q->c->r->resolve(q->c->r->ctx, q->c->m, q->c->f, n->ref, &sum, &off);
    if (!callee || !sum || callee == q->c->f || (callee->fflags & (FN_ABSTRACT | FN_STUB))) return 0;
    if (sum->returns == ENG_RET_UNKNOWN) return 0;
    if (*q->ret == ENG_RET_UNKNOWN) *q->ret = sum->returns;
    else if (*q->ret != sum->returns) *q->ret = -1;
    return 0;
}

/* ENG_RET_KEPT: is every value f returns one that an owner keeps on the
 * path that returns it? A value is kept from where it is read out of a
 * registry (`existing = conn_map.get(key)`), handed out by a helper that
 * keeps it, stored on self or at module level (`self._conns[key] = conn`,
 * `REG[key] = conn`, not on a parameter's object) or given
 * to a method of self or of a module-level object that keeps it
 * (`conn_map.set(key, conn)`), until it is bound anew; a branch keeps
 * what every way through it keeps. Names bound to nothing acquired (`msg =
 * json.dumps(...)` beside the connection) are not counted. */
typedef struct kept_ctx {
    const sum_ctx *c;
    uint8_t *valued; /* per variable: some acquire binds it (a parameter handed back is the caller's own) */
    int nvars, kept, other;
} kept_ctx;

static int kept_visit(void *ctx, const ir_node *n)
{
    kept_ctx *k = ctx;
    if (n->kind == IR_ACQUIRE && n->var >= 0) k->valued[n->var] = 1;
    if (n->kind == IR_TRANSFER && (n->flags & XFER_RETURN) && n->var >= 0) k->kept = 1; /* (some value returned) */
    return 0;
}

static void kept_block(kept_ctx *k, const ir_block *b, uint8_t *dom);

/* (a child block walked from dom; its outcome is ANDed into acc) */
static void kept_child(kept_ctx *k, const ir_block *b, const uint8_t *dom, uint8_t *acc)
{
    uint8_t *tmp = ca_xcalloc((size_t)k->nvars + 1, 1);
    memcpy(tmp, dom, (size_t)k->nvars);
    kept_block(k, b, tmp);
    for (int v = 0; v < k->nvars; v++) acc[v] &= tmp[v];
    free(tmp);
}

static void kept_block(kept_ctx *k, const ir_block *b, uint8_t *dom)
{
    const sum_ctx *c = k->c;
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        int v = n->var;
        switch (n->kind) {
        case IR_ACQUIRE:
            if (v < 0) break;
            dom[v] = 0;
            if (n->flags & ACQ_REGISTRY_READ) dom[v] = 1;
            if (n->ref && n->ref->kind == IR_CALL && c->r && c->r->resolve) {
                const eng_summary *sum = NULL;
                int off = 0;
                const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, n->ref, &sum, &off);
                if (callee && sum && callee != c->f && (sum->returns == ENG_RET_BORROWED || sum->returns == ENG_RET_KEPT))
                    dom[v] = 1;
            }
            break;
        case IR_ALIAS:
            if (n->var2 >= 0 && n->var2 < k->nvars) dom[n->var2] = 0;
            break;
        case IR_TRANSFER:
            if (v < 0) break;
            if (n->flags & XFER_RETURN) {
                if (dom[v]) k->kept++;
                else if (k->valued[v]) k->other++;
            } else if (n->flags & (XFER_SELF | XFER_OUTER)) {
                /* (not one parked on a parameter's object, `ctx.span =
                 * span`: that object may own nothing) */
                dom[v] = 1;
            }
            break;
        case IR_CALL: {
            uint64_t kept = owner_keeps_args(c, n);
            for (int a = 0; kept && a < n->nvars && a < 64; a++)
                if (kept & (1ull << a)) dom[n->vars[a]] = 1;
            break;
        }
        default:
            break;
        }
        if (!n->a.n && !n->b.n && !n->c.n && !n->nbranches && !n->nhandlers) continue;
        if (n->kind == IR_IF) {
            uint8_t *acc = ca_xcalloc((size_t)k->nvars + 1, 1);
            memset(acc, 1, (size_t)k->nvars);
            if (!(n->flags & IF_HAS_ELSE)) memcpy(acc, dom, (size_t)k->nvars);
            for (int j = 0; j < n->nbranches; j++) kept_child(k, &n->branches[j], dom, acc);
            memcpy(dom, acc, (size_t)k->nvars);
            free(acc);
        } else {
            /* (a loop, try, with: what holds after it is what held
             * before and held through every part of it) */
            uint8_t *acc = ca_xcalloc((size_t)k->nvars + 1, 1);
            memcpy(acc, dom, (size_t)k->nvars);
            kept_child(k, &n->c, dom, acc);
            kept_child(k, &n->a, dom, acc);
            for (int j = 0; j < n->nbranches; j++) kept_child(k, &n->branches[j], dom, acc);
            for (int j = 0; j < n->nhandlers; j++) kept_child(k, &n->handlers[j].body, dom, acc);
            kept_child(k, &n->b, dom, acc);
            memcpy(dom, acc, (size_t)k->nvars);
            free(acc);
        }
    }
}

static int returns_kept(const sum_ctx *c)
{
    const ir_func *f = c->f;
    if ((f->fflags & FN_GENERATOR) || f->nvars <= 0) return 0;
    kept_ctx k = {c, ca_xcalloc((size_t)f->nvars + 1, 1), f->nvars, 0, 0};
    ir_visit(&f->body, kept_visit, &k);
    if (!k.kept) { /* (it returns no value of its own: nothing to judge) */
        free(k.valued);
        return 0;
    }
    k.kept = 0;
    uint8_t *dom = ca_xcalloc((size_t)f->nvars + 1, 1);
    kept_block(&k, &f->body, dom);
    free(dom);
    free(k.valued);
    return k.kept > 0 && k.other == 0;
}

typedef struct record_q {
    const ir_module *m;
    const eng_resolver *r;
    int returns, bad;
    int literals; /* a literal built in place counts as a record */
} record_q;

static int data_record_call(const record_q *q, const ir_node *mk)
{
    if (!mk || mk->kind != IR_CALL || !mk->text) return 0;
    unsigned k = q->r->class_of(q->r->ctx, q->m, mk->text);
    return (k & ENG_CLASS_KNOWN) && (k & ENG_CLASS_DATA) && !(k & ENG_CLASS_OWNS);
}

static int record_node(void *ctx, const ir_node *n)
{
    record_q *q = ctx;
    if (n->kind == IR_ACQUIRE && (n->flags & (ACQ_STRONG | ACQ_HEURISTIC | ACQ_REGISTRY_TAKE | ACQ_EXECUTOR)))
        q->bad = 1;
    if (n->kind == IR_TRANSFER && !(n->flags & XFER_RETURN)) q->bad = 1; /* (stores something somewhere) */
    if (n->kind == IR_RETURN) {
        q->returns++;
        /* (or, with literals, a literal built in place: `return {"path": p}`) */
        if (!data_record_call(q, n->ref) && !(q->literals && (n->flags & RETURN_LITERAL))) q->bad = 1;
    }
    return q->bad;
}

static int returns_built_record(const ir_module *m, const ir_func *f, const eng_resolver *r, int literals)
{
    if (f->fflags & FN_GENERATOR) return 0;
    record_q q = {m, r, 0, 0, literals};
    ir_visit(&f->body, record_node, &q);
    return !q.bad && q.returns > 0;
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
    /* what its return statements hand back: a value made by a call that
     * returns a resource, or one a helper lends it */
    if (io->returns == ENG_RET_UNKNOWN) {
        c.made = ca_xcalloc((size_t)f->nvars + 1, 1);
        c.stored = ca_xcalloc((size_t)f->nvars + 1, 1);
        c.joined = ca_xcalloc((size_t)f->nvars + 1, 1);
        c.lent = ca_xcalloc((size_t)f->nvars + 1, 1);
        ir_visit(&f->body, ret_node, &c);
        /* (only when every value it returns is so lent) */
        if (io->returns == ENG_RET_UNKNOWN && c.lent_returned && !c.other_returned) io->returns = ENG_RET_BORROWED;
        free(c.lent);
        free(c.made);
        free(c.stored);
        free(c.joined);
    }
    /* (a value an owner keeps on every path that returns it: what the
     * caller gets is lent, whatever the annotation calls it) */
    /* (a get-or-create that makes the value on one path and stores it
     * before returning it reads as a maker, or as a lender only when its
     * flags say so: that every path keeps what it returns decides) */
    if ((io->returns == ENG_RET_UNKNOWN || io->returns == ENG_RET_PLAIN || io->returns == ENG_RET_RESOURCE ||
         io->returns == ENG_RET_BORROWED) &&
        returns_kept(&c))
        io->returns = ENG_RET_KEPT;
    /* `return self.__create_task(...)`: what it returns is what the function
     * of the tree it delegates to returns */
    if (io->returns == ENG_RET_UNKNOWN) {
        int delegated = ENG_RET_UNKNOWN;
        ir_visit(&f->body, delegated_return, &(delegate_q){&c, &delegated});
        if (delegated > 0) io->returns = delegated;
    }
    /* `return DailyAudioTrack(source=src, track=trk)`: a function that
     * never suspends and makes nothing that is or sounds like a resource,
     * returning a record of the tree (a data model that owns nothing) it
     * builds: a record of in-memory parts, no handle to anything it made */
    if (io->returns == ENG_RET_UNKNOWN && !io->has_checkpoint && r && r->class_of && returns_built_record(m, f, r, 0))
        io->returns = ENG_RET_PLAIN;
    /* `def create_torrent_file(...)`, run in a worker thread, that returns
     * `{"success": True, "base_dir": d, "atp": atp}` on its one path: a
     * synchronous function whose every return is a literal built in place
     * (or a record of the tree), making and keeping nothing that is or
     * sounds like a resource, hands back data whatever its name says */
    if (io->returns == ENG_RET_UNKNOWN && (f->fflags & FN_RETURNS_LITERAL) && r && r->class_of &&
        returns_built_record(m, f, r, 1))
        io->returns = ENG_RET_PLAIN;
    /* else an annotation naming a class of the tree that owns something
     * (after what the returns say: `-> Model | None` of a lookup that hands
     * back a model self keeps is no maker of one) */
    /* (a class of the tree that owns nothing is no evidence either way:
     * a plain record is often the handle to a remote sandbox) */
    if (io->returns == ENG_RET_UNKNOWN) {
        unsigned k = r && r->class_of && f->ret_type ? r->class_of(r->ctx, m, f->ret_type) : 0;
        if ((k & ENG_CLASS_KNOWN) && (k & ENG_CLASS_OWNS)) io->returns = ENG_RET_RESOURCE;
    }
    if (!io->noreturn) io->noreturn = never_returns(&c);
    eng_rel_free(&c.rel);
    io->suspends = suspends;
    return memcmp(&before, io, sizeof(before)) != 0;
}

const ir_func *eng_resolve_awaited(const ir_module *m, const ir_func *f, const eng_resolver *r, const ir_node *n,
                                   const eng_summary **sum)
{
    *sum = NULL;
    if (!n->text || !r || !r->resolve) return NULL;
    /* the awaited call as the resolver reads calls: its text, and whether
     * it is a method of self */
    ir_node call = ir_call_stub(n->text, 0, n->site);
    if (n->recv && (strcmp(n->recv, "self") == 0 || strcmp(n->recv, "cls") == 0)) {
        call.flags = CALL_ON_SELF;
        const char *dot = strrchr(n->text, '.');
        call.text = dot ? dot + 1 : n->text;
    } else if ((n->flags & REM_HAS_RECV) && n->rkind && r->class_of && r->class_of(r->ctx, m, n->rkind)) {
        call.flags = CALL_RECV_CLASS; /* a method of the class of the tree the receiver was made from */
        call.recv = n->rkind;
    } else if ((n->flags & REM_HAS_RECV) && n->recv && r->class_of &&
               (r->class_of(r->ctx, m, n->recv) & ENG_CLASS_KNOWN)) {
        /* `await State.create(agent)`: a static or class method, through its class */
    } else if (n->flags & REM_HAS_RECV) {
        return NULL; /* a method of some other object: not resolved by name */
    }
    int off = 0;
    return r->resolve(r->ctx, m, f, &call, sum, &off);
}

/* ---- can an await of f suspend? --------------------------------------- */

typedef struct susp_ctx {
    const ir_module *m;
    const ir_func *f;
    const eng_resolver *r;
} susp_ctx;

int eng_checkpoint_suspends(const ir_module *m, const ir_func *f, const eng_resolver *r, const ir_node *cp)
{
    /* (an await the catalog knows never suspends: a put on an unbounded
     * queue; a function whose only awaits are such returns at once too) */
    if (cp->kind == IR_CHECKPOINT && (cp->flags & CP_NO_SUSPEND)) return 0;
    if (cp->kind != IR_CHECKPOINT || !(cp->flags & CP_CALL) || !cp->ref || !r || !r->resolve) return 1;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = r->resolve(r->ctx, m, f, cp->ref, &sum, &off);
    /* an async function of the tree that never suspends returns at once */
    if (callee && sum && callee->is_async) return sum->suspends;
    /* a plain function that returns a future it completed itself */
    if (callee && !callee->is_async && (callee->fflags & FN_DONE_FUTURE)) return 0;
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

/* susp_node over a block, but not into the body of a shield scope no
 * cancellation passes (`with trio.CancelScope(shield=True):`; anyio's in a
 * module that does not use asyncio, WITH_SHIELD_ALL): an await there may
 * suspend, but no cancellation is delivered to it, so a function whose
 * every await is shielded so cannot be cancelled in it. */
static int susp_block(const susp_ctx *c, const ir_block *b)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_WITH && (n->flags & WITH_SHIELD_ALL) && !(n->flags & WITH_ASYNC)) continue;
        if (susp_node((void *)c, n)) return 1;
        if (susp_block(c, &n->c) || susp_block(c, &n->a)) return 1;
        for (int k = 0; k < n->nbranches; k++)
            if (susp_block(c, &n->branches[k])) return 1;
        for (int k = 0; k < n->nhandlers; k++)
            if (susp_block(c, &n->handlers[k].body)) return 1;
        if (susp_block(c, &n->b)) return 1;
    }
    return 0;
}

int eng_suspends_update(const ir_module *m, const ir_func *f, const eng_resolver *r, eng_summary *io)
{
    if (io->suspends) return 0;
    susp_ctx c = {m, f, r};
    io->suspends = susp_block(&c, &f->body) != 0;
    return io->suspends;
}
