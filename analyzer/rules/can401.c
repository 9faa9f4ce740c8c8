/*
 * can401.c — CAN401: a handler that catches cancellation lets it be
 * dropped on a path that then completes normally.
 *
 * The rule follows the caught cancellation along each path, with a byte per
 * cancellation-catching handler that travels with the path (ENG_EV_HANDLER
 * sets it). Its fate:
 *   - raised: the path leaves the handler by an exception (a bare `raise`,
 *     `raise e`, or another exception raised in its place), or raises the
 *     caught exception (through a variable: `raise saved`) or a
 *     cancellation class later — the byte goes;
 *   - handed on: the exception is returned, stored where others see it,
 *     given to a future or a queue (`fut.set_exception(e)`), or the
 *     function returns a cancellation for its caller to raise, or the
 *     handler records it (`cancelled = True`, `err = e`) for a later
 *     `if cancelled: raise ...`, or returns that record to its caller
 *     (`return result, cancelled`) — not a swallow (decided for the
 *     handler before the walk);
 *   - not a cancellation after all: a branch that needs the caught value
 *     not to be one (`if not isinstance(e, Exception): raise` ... ) is not
 *     where the cancellation goes;
 *   - dropped: the path reaches the function's normal end (a return, or the
 *     end of the body) with the byte set: the cancellation is swallowed.
 * Not a swallow either:
 *   - a try whose every checkpoint awaits a task the function cancelled
 *     before (`t.cancel(); await t`): the cancellation caught is that
 *     task's; a try body with no checkpoint cannot be cancelled;
 *   - a handler that asks whether its own task is being cancelled
 *     (`current_task().cancelling()`, `uncancel()`): it swallows only the
 *     cancellation it requested;
 *   - the outermost frame of a task the module starts (FN_OWN_TASK), or
 *     another module starts and its own never awaits (FN_SPAWNED_ELSEWHERE): its
 *     cancellation is its own shutdown, cleanup after the handler
 *     included, as long as the path does not go round a loop around the
 *     handler again (a task that swallows and keeps looping cannot be
 *     stopped);
 *   - a private helper that only handlers raising afterwards call (in its
 *     module): its caller is already leaving by an exception, so a
 *     cancellation the helper holds back while a shielded cleanup finishes
 *     does not keep the caller from raising;
 *   - a try inside a shield scope (`with CancelScope(shield=True):`): its
 *     body takes no cancellation from outside, so what a handler there
 *     catches is the cancellation of the work it awaited;
 *   - a level-triggered cancellation (trio, anyio scopes: H_LEVEL): the next
 *     unshielded checkpoint raises it again, in the handler, after it, or
 *     in the caller; only a path that catches it again in the same try (a
 *     loop that spins) drops it.
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#define SW_SWALLOWED 0x01u /* this path went through the handler and the cancellation is not raised */
#define SW_AGAIN     0x02u /* ... and went round a loop around the handler again */

typedef struct swallow_state {
    const ir_handler **h;   /* the cancellation-catching handlers; byte i of a path is h[i] */
    const ir_node **tries;  /* the try of each */
    int nh;
    CA_VEC(ir_site) loops;  /* every loop of the function */
    int own_task;
    int cleanup;            /* a helper only handlers that raise afterwards run (cleanup_helper) */
    int staged;             /* the function stages the cancellation it catches (FN_STAGES_CANCEL) */
    int params_cancelled;   /* a private helper every caller hands a task it has just cancelled */
    uint8_t *until_cancelled; /* per handler: the only way out of an endless loop (runs_until_cancelled) */
    uint8_t *flag_exit;     /* per handler: it clears the local its loop tests, its try ending the pass */
    CA_VEC(const ir_handler *) found;
} swallow_state;

static int collect_handlers(void *ctx, const ir_node *n)
{
    swallow_state *s = ctx;
    if (n->kind == IR_LOOP) CA_VEC_PUSH(s->loops, n->site);
    if (n->kind != IR_TRY) return 0;
    for (int k = 0; k < n->nhandlers; k++)
        if (n->handlers[k].flags & H_CANCEL) {
            s->h = ca_xrealloc(s->h, sizeof(*s->h) * (size_t)(s->nh + 1));
            s->tries = ca_xrealloc(s->tries, sizeof(*s->tries) * (size_t)(s->nh + 1));
            s->tries[s->nh] = n;
            s->h[s->nh++] = &n->handlers[k];
        }
    return 0;
}

/* Stops (1) at the first checkpoint that could take a cancellation of
 * this task: not an await of a task the function cancelled before. */
static int takes_own_cancel(void *ctx, const ir_node *n)
{
    const ir_func *f = ctx;
    if (n->kind == IR_CHECKPOINT) {
        if (n->flags & CP_AWAITS_CANCELLED) return 0;
        for (int k = 0; k < n->nvars; k++) {
            int v = n->vars[k];
            if (v >= 0 && f->vars[v].first_cancel < n->site.start) return 0;
        }
        return 1;
    }
    /* (an `async with` whose enter and exit both return at once, a
     * timeout scope, delivers nothing itself: its body is looked at) */
    if (n->kind == IR_WITH && (n->flags & WITH_ASYNC))
        return !((n->flags & WITH_NONSUSP_ENTER) && (n->flags & WITH_NONSUSP_EXIT));
    return n->kind == IR_LOOP && (n->flags & LOOP_ASYNC_FOR);
}

/* An await of parameters only (`await task`), in a helper every caller
 * hands a task it has just cancelled. */
static int awaits_params_only(const ir_func *f, const ir_node *n)
{
    if (n->kind != IR_CHECKPOINT || !n->nvars) return 0;
    for (int k = 0; k < n->nvars; k++)
        if (n->vars[k] < 0 || n->vars[k] >= f->nparams) return 0;
    return 1;
}

/* takes_own_cancel over a block, but not inside a shield scope (`with
 * CancelScope(shield=True):` delivers no cancellation from outside); with
 * TOC_PARAMS in mode, an await of the helper's parameters takes
 * none either; with TOC_ABSORB, nor does the body of a try that absorbs a
 * cancellation (try_absorbs). */
#define TOC_PARAMS 0x1
#define TOC_ABSORB 0x2
static int block_takes_own_cancel_in(const rule_ctx *ctx, const ir_func *f, const ir_block *b, int mode,
                                     int depth);

/* `await run.terminate()` of a coroutine of the tree whose every checkpoint
 * awaits a task it cancelled just before (`task.cancel(); await task`): the
 * cancellation that comes out of it is that task's, as in the idiom written
 * out in place. aw is the await-call node the checkpoint follows. */
static int awaits_cancelling_helper(const rule_ctx *ctx, const ir_func *f, const ir_node *aw, int depth)
{
    if (!ctx || depth > 1 || !aw || aw->kind != IR_AWAIT_CALL || !ctx->res) return 0;
    const eng_summary *sum = NULL;
    const ir_func *g = eng_resolve_awaited(ctx->m, f, ctx->res, aw, &sum);
    if (!g || g == f || !g->is_async || (g->fflags & (FN_STUB | FN_ABSTRACT))) return 0;
    /* (one that cancels a task of its own, and suspends nowhere else) */
    int cancels = 0;
    for (int v = 0; v < g->nvars && !cancels; v++) cancels = g->vars[v].first_cancel != UINT32_MAX;
    return cancels && !block_takes_own_cancel_in(ctx, g, &g->body, 0, depth + 1);
}

static int raises(void *ctx, const ir_node *n)
{
    (void)ctx;
    return n->kind == IR_RAISE;
}

/* A try with a handler that catches an edge-triggered cancellation and has
 * no raise anywhere in it (`except asyncio.CancelledError: pass`): what its
 * body is cancelled at ends there. */
static int try_absorbs(const ir_node *n)
{
    if (n->kind != IR_TRY) return 0;
    for (int k = 0; k < n->nhandlers; k++) {
        const ir_handler *h = &n->handlers[k];
        if ((h->flags & H_CANCEL) && !(h->flags & H_LEVEL) && !ir_visit(&h->body, raises, NULL)) return 1;
    }
    return 0;
}

/* `await self._settle_pending()` of a coroutine of the tree whose every
 * checkpoint that could take a cancellation sits in the body of a try that
 * absorbs it: no cancellation comes out of the call (the helper's own
 * handler is where it is swallowed, and reported). */
static int awaits_absorbing_helper(const rule_ctx *ctx, const ir_func *f, const ir_node *aw, int depth)
{
    if (!ctx || depth > 1 || !aw || aw->kind != IR_AWAIT_CALL || !ctx->res) return 0;
    const eng_summary *sum = NULL;
    const ir_func *g = eng_resolve_awaited(ctx->m, f, ctx->res, aw, &sum);
    if (!g || g == f || !g->is_async || (g->fflags & (FN_STUB | FN_ABSTRACT)) || !sum || !sum->has_checkpoint)
        return 0;
    /* (and only by that: a helper no cancellation comes out of for another
     * reason, such as an await of what it cancelled by that name before,
     * `self._t.cancel(); self._t = create_task(...); await self._t`, is
     * not read here) */
    return !block_takes_own_cancel_in(ctx, g, &g->body, TOC_ABSORB, depth + 1) &&
           block_takes_own_cancel_in(ctx, g, &g->body, 0, depth + 1);
}

static int block_takes_own_cancel_in(const rule_ctx *ctx, const ir_func *f, const ir_block *b, int mode,
                                     int depth)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_WITH && (n->flags & WITH_SHIELD)) continue;
        /* (the checkpoint of an awaited call follows its await-call node) */
        const ir_node *aw = i > 0 && b->v[i - 1]->kind == IR_AWAIT_CALL ? b->v[i - 1] : NULL;
        /* (an await of a coroutine of the tree that suspends nowhere, its
         * implementations in the tree included for an abstract one,
         * delivers no cancellation) */
        if (n->kind == IR_CHECKPOINT &&
            ((n->flags & CP_NO_SUSPEND) || (ctx->res && !eng_checkpoint_suspends(ctx->m, f, ctx->res, n))))
            continue;
        if (takes_own_cancel((void *)f, n) && !((mode & TOC_PARAMS) && awaits_params_only(f, n)) &&
            !(n->kind == IR_CHECKPOINT &&
              (awaits_cancelling_helper(ctx, f, aw, depth) || awaits_absorbing_helper(ctx, f, aw, depth))))
            return 1;
        /* (inside a helper looked into, the body of a try that absorbs a
         * cancellation lets none out) */
        if (block_takes_own_cancel_in(ctx, f, &n->c, mode, depth) ||
            (!((mode & TOC_ABSORB) && try_absorbs(n)) &&
             block_takes_own_cancel_in(ctx, f, &n->a, mode, depth)))
            return 1;
        for (int k = 0; k < n->nbranches; k++)
            if (block_takes_own_cancel_in(ctx, f, &n->branches[k], mode, depth)) return 1;
        for (int k = 0; k < n->nhandlers; k++)
            if (block_takes_own_cancel_in(ctx, f, &n->handlers[k].body, mode, depth)) return 1;
        if (block_takes_own_cancel_in(ctx, f, &n->b, mode, depth)) return 1;
    }
    return 0;
}

static int block_takes_own_cancel(const rule_ctx *ctx, const ir_func *f, const ir_block *b, int params_cancelled)
{
    return block_takes_own_cancel_in(ctx, f, b, params_cancelled ? TOC_PARAMS : 0, 0);
}

/* Is the caught exception e named only by report calls (`logger.exception(
 * f"failed: {e}")`)? Then the handler keeps nothing of it, as one that does
 * not bind it. */
static int names_other_than_report(void *ctx, const ir_node *n)
{
    int e = *(const int *)ctx;
    if (n->kind == IR_CALL && (n->flags & CALL_REPORT)) return 0;
    if (n->var == e || n->var2 == e) return 1;
    for (int k = 0; k < n->nvars; k++)
        if (n->vars && n->vars[k] == e) return 1;
    return 0;
}

static int only_reported(const ir_func *f, int e)
{
    return !ir_visit(&f->body, names_other_than_report, &e);
}

typedef struct fate_q {
    const rule_ctx *ctx;
    const eng_walk *W;
    int exc;
} fate_q;

/* A close of something the function holds (`await ctx.__aexit__(None, None,
 * None)`, `await self._conn.aclose()`, `await writer.wait_closed()`), or a
 * call of a function of the tree that does only that
 * (`await self.cleanup_session(run_id)` whose every await is such a
 * close): no task's end, no work of its own. */
typedef struct teardown_q {
    const rule_ctx *ctx;
    const ir_func *f;
    int depth;
} teardown_q;

static int other_await(void *ctx, const ir_node *n);

static int teardown_await(const teardown_q *q, const ir_node *n)
{
    static const char *const words[] = {"__aexit__", "aclose", "close", "wait_closed", "disconnect"};
    if (n->kind != IR_AWAIT_CALL || !n->text) return 0;
    const char *m = rule_last_part(n->text);
    for (size_t i = 0; strchr(n->text, '.') && i < sizeof(words) / sizeof(words[0]); i++)
        if (strcmp(m, words[i]) == 0) return 1;
    /* (a close of one named thing, `lsad.hLsarClose(dce, handle)`,
     * `self.close_handle(h)`, `tree_disconnect(tid)`, `hDRSUnbind(dce, h)`:
     * a close by its words) */
    if (strchr(n->text, '.') &&
        (ca_name_has_word(m, "close") || ca_name_has_word(m, "disconnect") || ca_name_has_word(m, "unbind")))
        return 1;
    /* (`await shield(agent.stop())` right in the try, one part of a
     * teardown that must go on to the next part: a stop of a member, not
     * a helper whose stops are one step of a larger cleanup) */
    if (q->depth == 0 && strchr(n->text, '.') && (strcmp(m, "stop") == 0 || strcmp(m, "shutdown") == 0)) return 1;
    if (q->depth >= 2 || !q->ctx->res) return 0;
    const eng_summary *sum = NULL;
    const ir_func *callee = eng_resolve_awaited(q->ctx->m, q->f, q->ctx->res, n, &sum);
    /* (a stub stands for overrides that may do anything; a coroutine that
     * awaits nothing closes nothing either) */
    if (!callee || callee == q->f || !callee->is_async || (callee->fflags & (FN_STUB | FN_ABSTRACT)) ||
        !sum || !sum->has_checkpoint)
        return 0;
    teardown_q in = {q->ctx, callee, q->depth + 1};
    return callee->body.n > 0 && !ir_visit(&callee->body, other_await, &in);
}

static int other_await(void *ctx, const ir_node *n)
{
    const teardown_q *q = ctx;
    if (n->kind == IR_AWAIT_CALL) return !teardown_await(q, n);
    /* (an await of a task or a future, an `async with`, an `async for`) */
    if (n->kind == IR_CHECKPOINT) return !(n->flags & CP_CALL);
    return (n->kind == IR_WITH && (n->flags & WITH_ASYNC)) || (n->kind == IR_LOOP && (n->flags & LOOP_ASYNC_FOR));
}

/* A try whose every await closes something the function holds, under a
 * handler that does not even name what it caught: a best-effort teardown
 * (`try: await self._ctx.__aexit__(None, None, None) except BaseException:
 * pass`) that ignores whatever the close raises. A cancellation landing in
 * a close is one the close itself may raise (an exit stack or a task group
 * exited from another task raises its own scope's cancellation), and the
 * code states that none of it may stop the rest of the teardown. */
static int teardown_try(const rule_ctx *ctx, const ir_func *f, const ir_block *b)
{
    teardown_q q = {ctx, f, 0};
    return b->n > 0 && !ir_visit(b, other_await, &q);
}

/* Does block b (a helper's body, its own handlers left out) raise
 * parameter p, `raise p`, or bare `raise` (what its caller is handling)? */
static int raises_param(const ir_block *b, int p)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_RAISE && ((n->var2 >= 0 && n->var2 == p) || (n->flags & RAISE_BARE))) return 1;
        if (raises_param(&n->c, p) || raises_param(&n->a, p) || raises_param(&n->b, p)) return 1;
        for (int k = 0; k < n->nbranches; k++)
            if (raises_param(&n->branches[k], p)) return 1;
    }
    return 0;
}

/* Does the function hand the caught exception on: return it, store it where
 * others see it, give it to a future, queue or channel, or to a helper of
 * the tree that raises it (`self._handle_error(exc)` ending in `raise`)? */
static int hands_on(void *ctx, const ir_node *n)
{
    const fate_q *q = ctx;
    /* `if not await cm.__aexit__(type(e), e, tb): raise`: a hand-written
     * `async with` hands the exception to the context manager, which
     * decides (and does not suppress a cancellation it does not own) */
    if (n->kind == IR_CALL && (n->flags & CALL_CM_EXIT))
        for (int k = 0; k < n->nvars; k++)
            if (n->vars[k] >= 0 && eng_covers(q->W, n->vars[k], q->exc)) return 1;
    if (n->kind == IR_CALL && !(n->flags & CALL_VALUE_ONLY) && q->ctx->res && q->ctx->res->resolve) {
        for (int k = 0; k < n->nvars; k++) {
            if (n->vars[k] < 0 || !eng_covers(q->W, n->vars[k], q->exc)) continue;
            const eng_summary *sum = NULL;
            int off = 0;
            const ir_func *g = q->ctx->res->resolve(q->ctx->res->ctx, q->ctx->m, eng_func(q->W), n, &sum, &off);
            int p = g ? eng_call_param(n, k, g, off) : -1;
            if (g && p >= 0 && g != eng_func(q->W) && raises_param(&g->body, p)) return 1;
        }
    }
    if (n->kind == IR_TRANSFER && !(n->flags & XFER_PART) && n->var >= 0 && eng_covers(q->W, n->var, q->exc)) return 1;
    if (n->kind == IR_CALL && n->text && rule_cat(q->ctx, CAT_EXC_SINK, rule_last_part(n->text)))
        for (int k = 0; k < n->nvars; k++)
            if (n->vars[k] >= 0 && eng_covers(q->W, n->vars[k], q->exc)) return 1;
    /* `watcher.err(exc)`: handed to a method of an object the caller passed
     * in (not self's, not a report: `log.error(exc)`), of no class of the
     * tree: that object's owner learns of it and decides */
    if (n->kind == IR_CALL && n->text && !(n->flags & (CALL_VALUE_ONLY | CALL_REPORT | CALL_ON_SELF)) &&
        !rule_cat(q->ctx, CAT_REPORT_CALL, n->text)) {
        const char *dot = strchr(n->text, '.');
        const ir_func *f = eng_func(q->W);
        int r = -1;
        if (dot && !strchr(dot + 1, '.') && (size_t)(dot - n->text) < 128) {
            char recv[128];
            memcpy(recv, n->text, (size_t)(dot - n->text));
            recv[dot - n->text] = 0;
            r = ir_var_find(f, recv);
        }
        int handed = 0;
        for (int k = 0; k < n->nvars; k++)
            if (n->vars[k] >= 0 && n->vars[k] != r && eng_covers(q->W, n->vars[k], q->exc)) handed = 1;
        const eng_summary *sum = NULL;
        int off = 0;
        if (handed && r >= 0 && (f->vars[r].flags & VAR_PARAM) && !(f->vars[r].flags & (VAR_SELF | VAR_PLAIN)) &&
            !(q->ctx->res && q->ctx->res->resolve &&
              q->ctx->res->resolve(q->ctx->res->ctx, q->ctx->m, f, n, &sum, &off)))
            return 1;
    }
    return 0;
}

/* A handler that records the cancellation in a variable (`cancelled =
 * True`, `err = e`, `errors.append(e)`) for a later `if cancelled: raise
 * ...` after it (raising it, or another exception in its place): the
 * cancellation is deferred, not dropped. Read over the whole function,
 * because a loop joins the paths through the handler with those that
 * never went there (the flag's value and the caught cancellation are
 * not kept together). */
typedef struct defer_q {
    const eng_walk *W;
    const ir_handler *h;
    const ir_func *f;
    int flag;       /* the variable found bound in the handler */
    int exc;        /* the exception variable a record may hold (`errors.append(exc)`) */
    uint32_t until; /* only binds starting before this place count */
} defer_q;

static int holds(const defer_q *q, int x) { return x >= 0 && (x == q->flag || eng_covers(q->W, x, q->flag)); }


static int raises_when_set(void *ctx, const ir_node *n)
{
    defer_q *q = ctx;
    if (n->kind != IR_IF || !n->tests || n->site.start < q->h->site.end || n->nbranches < 1) return 0;
    for (int a = 0; a < n->nvars; a++)
        if ((n->tests[a] == TEST_TRUTHY || n->tests[a] == TEST_NOT_NONE) && holds(q, n->vars[a]) &&
            ir_visit(&n->branches[0], raises, NULL))
            return 1;
    return 0;
}

/* `raise error` after the handler, where the handler recorded the caught
 * exception in `error` (`except BaseException as e: error = e` in a loop
 * over hooks, then `raise error` once none recovers): raised later. */
static int raises_record(void *ctx, const ir_node *n)
{
    defer_q *q = ctx;
    return n->kind == IR_RAISE && n->site.start >= q->h->site.end && n->var2 >= 0 && holds(q, n->var2);
}

/* `return result, cancelled` after the handler: the record of the
 * cancellation goes to the caller, as a returned exception does. */
static int returns_flag(void *ctx, const ir_node *n)
{
    defer_q *q = ctx;
    return n->kind == IR_TRANSFER && (n->flags & XFER_RETURN) && n->site.start >= q->h->site.end && holds(q, n->var);
}

static int binds_true(void *ctx, const ir_node *n)
{
    defer_q *q = ctx;
    int flag = -1;
    if (n->site.start >= q->until) return 0;
    /* cancelled = True (a value known to be true: a bind that only forgets
     * what was known, `codec, rate = await f()`, records nothing) */
    if (n->kind == IR_BIND && n->var >= 0 && (n->flags & (BIND_TRUE | BIND_FALSE | BIND_NONE)) == BIND_TRUE)
        flag = n->var;
    if (n->kind == IR_ALIAS && n->var2 >= 0 && n->var >= 0 && n->var == q->exc)
        flag = n->var2; /* errors.append(exc) */
    if (flag < 0) return 0;
    q->flag = flag;
    return ir_visit(&q->f->body, raises_when_set, q) || ir_visit(&q->f->body, returns_flag, q) ||
           (n->kind == IR_ALIAS && ir_visit(&q->f->body, raises_record, q));
}

static int defers_raise(const eng_walk *W, const ir_handler *h, const ir_node *try_node)
{
    defer_q q = {W, h, eng_func(W), -1, h->exc_var, UINT32_MAX};
    if (ir_visit(&h->body, binds_true, &q)) return 1;
    /* A try inside the handler of an earlier failure, which recorded that
     * failure before it (`except Exception as err: exception = err; try:
     * await abort() except: pass`, then `if exception: raise exception`):
     * every path through this handler started there, so the record is set
     * and the function leaves by raising it (another exception in the
     * cancellation's place). */
    for (int i = 0; i < eng_nregions(W); i++) {
        const eng_region *r = eng_region_at(W, i);
        if (r->kind != ENG_REG_HANDLER || r->handler == h) continue;
        defer_q o = {W, h, eng_func(W), -1, r->handler->exc_var, try_node->site.start};
        if (ir_visit(&r->handler->body, binds_true, &o)) return 1;
    }
    return 0;
}

static int returns_cancel(void *ctx, const ir_node *n)
{
    (void)ctx;
    return n->kind == IR_RETURN && (n->flags & RETURN_CANCEL);
}

static int in_handler(const eng_walk *W, const ir_handler *h)
{
    for (int i = 0; i < eng_nregions(W); i++) {
        const eng_region *r = eng_region_at(W, i);
        if (r->kind == ENG_REG_HANDLER && r->handler == h) return 1;
    }
    return 0;
}

static int in_try_body(const eng_walk *W, const ir_node *t)
{
    for (int i = 0; i < eng_nregions(W); i++) {
        const eng_region *r = eng_region_at(W, i);
        if (r->kind == ENG_REG_TRY_BODY && r->node == t) return 1;
    }
    return 0;
}

static int slot_of(const swallow_state *s, const ir_handler *h)
{
    for (int i = 0; i < s->nh; i++)
        if (s->h[i] == h) return i;
    return -1;
}

/* Is there a loop around both a and b? */
static int around(const swallow_state *s, ir_site a, ir_site b)
{
    for (size_t k = 0; k < s->loops.n; k++) {
        ir_site l = s->loops.v[k];
        if (l.start <= a.start && a.end <= l.end && l.start <= b.start && b.end <= l.end) return 1;
    }
    return 0;
}

static void found(swallow_state *s, int i)
{
    for (size_t k = 0; k < s->found.n; k++)
        if (s->found.v[k] == s->h[i]) return;
    CA_VEC_PUSH(s->found, s->h[i]);
}

/* ---- a helper only ever run by handlers that raise afterwards --------- */

typedef struct site_q {
    const rule_ctx *ctx;
    const ir_func *g;      /* the function whose calls are read */
    const ir_func *target;
    int calls, outside;
    int cancelled_args;    /* what counts: a call passing a task just cancelled (else: a call from a
                              handler that raises afterwards) */
} site_q;

static int calls_target(const site_q *q, const ir_node *n)
{
    const eng_summary *sum = NULL;
    const eng_resolver *r = q->ctx->res;
    if (!r || !r->resolve) return 0;
    if (n->kind == IR_AWAIT_CALL) return eng_resolve_awaited(q->ctx->m, q->g, r, n, &sum) == q->target;
    if (n->kind == IR_CALL && !(n->flags & CALL_VALUE_ONLY)) {
        int off = 0;
        return r->resolve(r->ctx, q->ctx->m, q->g, n, &sum, &off) == q->target;
    }
    return 0;
}

static void read_sites(site_q *q, const ir_block *b, int in_raising_handler)
{
    for (int i = 0; i < b->n && !q->outside; i++) {
        const ir_node *n = b->v[i];
        /* (an awaited call is read once, at its IR_CALL, when the flags of
         * the call decide) */
        if ((!q->cancelled_args || n->kind == IR_CALL) && calls_target(q, n)) {
            q->calls++;
            if (q->cancelled_args ? !(n->flags & CALL_CANCELLED_ARG) : !in_raising_handler) q->outside = 1;
        }
        read_sites(q, &n->c, in_raising_handler);
        read_sites(q, &n->a, in_raising_handler);
        for (int k = 0; k < n->nbranches; k++) read_sites(q, &n->branches[k], in_raising_handler);
        for (int k = 0; k < n->nhandlers; k++)
            read_sites(q, &n->handlers[k].body, in_raising_handler || eng_block_always_raises(&n->handlers[k].body));
        read_sites(q, &n->b, in_raising_handler);
    }
}

/* A private helper (`_name`) whose every call in its module is made from
 * an exception handler that raises afterwards runs while its caller is
 * already on its way out by an exception: a cancellation it catches (to let
 * a shielded cleanup finish) does not stop the caller from raising. Only
 * its own module is read, so the answer is the same on every scan. */

/* Does every call of f in its module count (see site_q.cancelled_args)? */
static int every_site(const rule_ctx *ctx, const ir_func *f, int cancelled_args)
{
    site_q q = {ctx, NULL, f, 0, 0, cancelled_args};
    for (int i = 0; i < ctx->m->nfuncs && !q.outside; i++) {
        q.g = ctx->m->funcs[i];
        if (q.g == f) continue;
        read_sites(&q, &q.g->body, 0);
    }
    return q.calls > 0 && !q.outside;
}

static int cleanup_helper(const rule_ctx *ctx, const ir_func *f) { return ir_func_private(f) && every_site(ctx, f, 0); }

/* Calls of q->target in block b of q->g: counted in q->calls; q->outside
 * set by one that is not the tail of a task of the module's own (in such a
 * task, outside any loop). */
static void read_task_tails(site_q *q, const ir_block *b, int in_loop)
{
    for (int i = 0; i < b->n && !q->outside; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_CALL && calls_target(q, n)) {
            /* (awaited directly, or through a timeout call: `await
             * asyncio.wait_for(helper(), t)` records an awaited call of the
             * helper beside the plain one) */
            int awaited = (n->flags & CALL_AWAITED) != 0;
            for (int j = i + 1; j < b->n && j <= i + 4 && !awaited; j++)
                awaited = b->v[j]->kind == IR_AWAIT_CALL && b->v[j]->site.line == n->site.line && b->v[j]->text &&
                          n->text && strcmp(b->v[j]->text, n->text) == 0;
            /* (or an async generator's call iterated right there: `async for
             * msg in self._listen():`, the loop lowered after its iterable) */
            if (!awaited && i + 1 < b->n) {
                const ir_node *l = b->v[i + 1];
                awaited = l->kind == IR_LOOP && (l->flags & LOOP_ASYNC_FOR) && l->site.start <= n->site.start &&
                          n->site.end <= l->site.end && (q->target->fflags & FN_GENERATOR);
            }
            q->calls++;
            if (in_loop || !(q->g->fflags & (FN_OWN_TASK | FN_SPAWNED_ELSEWHERE)) || !awaited) q->outside = 1;
        }
        int loop = in_loop || n->kind == IR_LOOP;
        read_task_tails(q, &n->c, loop);
        read_task_tails(q, &n->a, loop);
        for (int k = 0; k < n->nbranches; k++) read_task_tails(q, &n->branches[k], loop);
        for (int k = 0; k < n->nhandlers; k++) read_task_tails(q, &n->handlers[k].body, loop);
        read_task_tails(q, &n->b, loop);
    }
}

/* A private helper awaited only by tasks of the module's own, outside their
 * loops (`async def _run(self): ... await self._consume_peer(origin)` in the
 * task `connect()` starts), or an async generator iterated only there
 * (`async for msg in self._listen():`): it runs in that task, and a
 * cancellation it ends on quietly (the generator's iteration ends, and the
 * loop with it) lets the task finish its own teardown and end, as the
 * task's own frame would. */
static int task_tail_helper(const rule_ctx *ctx, const ir_func *f)
{
    if (!ir_func_private(f) || !f->is_async) return 0;
    site_q q = {ctx, NULL, f, 0, 0, 0};
    for (int i = 0; i < ctx->m->nfuncs && !q.outside; i++) {
        q.g = ctx->m->funcs[i];
        if (q.g == f) continue;
        read_task_tails(&q, &q.g->body, 0);
    }
    return q.calls > 0 && !q.outside;
}

/* A private helper whose every call in its module passes a task the caller
 * has just cancelled (`t.cancel(); await self._suppress_cancelled(t)`): its
 * `try: await task` / `except CancelledError: pass` is the caller's
 * `t.cancel(); await t` idiom, moved into a helper. */
static int cancelled_helper(const rule_ctx *ctx, const ir_func *f)
{
    return f->nparams > 0 && ir_func_private(f) && every_site(ctx, f, 1);
}

/* `try: await asyncio.shield(t)` / `except CancelledError: if not t.done():
 * t.cancel(); ...; raise` and on: the handler goes on only where the task it
 * shielded is done. A cancellation of this task raises out of the shield
 * while t runs on, so what finds t done was t's own cancellation. (A plain
 * `await t` would have cancelled t too: there t done tells nothing.) Read
 * on the try body's and the handler's own level. */
static int done_test_of(const ir_node *n, const int *vars, int nv)
{
    if (n->kind != IR_DONE || (n->flags & (DONE_SETTLED | DONE_EXITED))) return 0;
    for (int k = 0; k < nv; k++)
        if (n->var == vars[k]) return 1;
    return 0;
}

static int shielded_done_only(const ir_block *body, const ir_block *hbody)
{
    int vars[8], nv = 0;
    for (int i = 0; i + 1 < body->n && nv < 8; i++) {
        const ir_node *c = body->v[i], *d = body->v[i + 1];
        if (c->kind == IR_CHECKPOINT && (c->flags & CP_SHIELDED) && d->kind == IR_DONE && (d->flags & DONE_SETTLED) &&
            d->var >= 0)
            vars[nv++] = d->var;
    }
    if (!nv) return 0;
    for (int i = 0; i < hbody->n; i++) {
        const ir_node *n = hbody->v[i];
        if (done_test_of(n, vars, nv)) return 1;
        if (n->kind == IR_IF) {
            /* each branch raises, or is the way past the test, which may
             * say that the task is done (`if not t.done(): ...; raise`) */
            int done = 0;
            for (int b = 0; b < n->nbranches; b++) {
                const ir_block *br = &n->branches[b];
                if (br->n == 0 || eng_block_always_raises(br)) continue;
                int facts = 1, here = 0;
                for (int j = 0; j < br->n && facts; j++) {
                    facts = br->v[j]->kind == IR_DONE && !(br->v[j]->flags & (DONE_SETTLED | DONE_EXITED));
                    here |= done_test_of(br->v[j], vars, nv);
                }
                if (!facts) return 0;
                done |= here;
            }
            if (done) return 1;
            continue;
        }
        if (n->kind == IR_RETURN || n->kind == IR_BREAK || n->kind == IR_CONTINUE || n->kind == IR_RAISE ||
            n->kind == IR_LOOP || n->kind == IR_TRY || n->kind == IR_WITH)
            return 0;
    }
    return 0;
}

/* The innermost loop around the try that has handler h, in block b (cur:
 * the loop b is in); *found set when the try is found. */
static const ir_node *loop_around(const ir_block *b, const ir_handler *h, const ir_node *cur, int *found)
{
    for (int i = 0; i < b->n && !*found; i++) {
        const ir_node *n = b->v[i];
        for (int k = 0; k < n->nhandlers; k++)
            if (&n->handlers[k] == h) {
                *found = 1;
                return cur;
            }
        /* (a loop's condition and body are in it; its else runs after it) */
        const ir_node *in = n->kind == IR_LOOP ? n : cur;
        const ir_block *kids[3] = {&n->c, &n->a, &n->b};
        for (int j = 0; j < 3 && !*found; j++) {
            const ir_node *r = loop_around(kids[j], h, j == 2 ? cur : in, found);
            if (*found) return r;
        }
        for (int k = 0; k < n->nbranches && !*found; k++) {
            const ir_node *r = loop_around(&n->branches[k], h, cur, found);
            if (*found) return r;
        }
        for (int k = 0; k < n->nhandlers && !*found; k++) {
            const ir_node *r = loop_around(&n->handlers[k].body, h, cur, found);
            if (*found) return r;
        }
    }
    return NULL;
}

/* Does block b (the body of a loop, depth loops in) leave that loop other
 * than through a handler of cancellation: a break of its own, or a return? */
static int leaves_loop(const ir_block *b, int depth)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_RETURN || (n->kind == IR_BREAK && depth == 0)) return 1;
        int d = n->kind == IR_LOOP ? depth + 1 : depth;
        if (leaves_loop(&n->c, d) || leaves_loop(&n->a, d) || leaves_loop(&n->b, depth)) return 1;
        for (int k = 0; k < n->nbranches; k++)
            if (leaves_loop(&n->branches[k], depth)) return 1;
        for (int k = 0; k < n->nhandlers; k++)
            if (!(n->handlers[k].flags & H_CANCEL) && leaves_loop(&n->handlers[k].body, depth)) return 1;
    }
    return 0;
}

/* `while True: try: await poll() / except CancelledError: break` in a
 * coroutine private to its module (a `_name`, or one defined in another
 * function, such as a decorator's wrapper) that the module never awaits in
 * place, where nothing else leaves the loop: the function runs until it is
 * cancelled, which is how whoever starts it (a polling task's owner) stops
 * it, and ending quietly then is its design. A public one, or one the
 * module awaits, may run in a caller's task, whose cancellation (a timeout
 * around the call) it would drop; so may one that hands out its own task
 * (`t = current_task()`, `call_later(n, current_task().cancel)`): the
 * cancellation it waits for is one it arranged, and a caller's is caught
 * with it. An async generator's consumer would see its cancellation become
 * a normal end of the stream. */
static int runs_until_cancelled(const ir_func *f, const ir_handler *h)
{
    if (f->fflags & (FN_GENERATOR | FN_AWAITED_HERE | FN_HANDS_OUT_TASK)) return 0;
    int local = f->qualname && strstr(f->qualname, ".<locals>.") != NULL;
    int priv = f->name && f->name[0] == '_' && strncmp(f->name, "__", 2) != 0;
    if (!local && !priv) return 0;
    int found = 0;
    const ir_node *loop = loop_around(&f->body, h, NULL, &found);
    return loop && (loop->flags & LOOP_INFINITE) && !leaves_loop(&loop->a, 0);
}

/* `keep_going = True` / `while keep_going: try: await step() / except
 * CancelledError: keep_going = False`: the handler binds the one local the
 * loop tests to a value that ends it, and its try is the last statement of
 * the loop's body, so the next thing after the handler is that test, which
 * leaves the loop, as a `break` would. The walk joins the paths at the
 * loop's head, which loses what this one knows of the local; this puts it
 * back for the handler's own paths. */
static int clears_loop_flag(const ir_func *f, const ir_handler *h)
{
    int found = 0;
    const ir_node *loop = loop_around(&f->body, h, NULL, &found);
    if (!loop || (loop->flags & LOOP_INFINITE) || loop->a.n < 2) return 0;
    const ir_node *t = loop->a.v[0], *last = loop->a.v[loop->a.n - 1];
    if (t->kind != IR_IF || !(t->flags & IF_LOOP_TEST) || !(t->flags & IF_ONE_TEST) || t->nvars != 1 || !t->tests ||
        t->vars[0] < 0)
        return 0;
    unsigned ends;
    if (t->tests[0] == TEST_TRUTHY) ends = BIND_FALSE | BIND_NONE;
    else if (t->tests[0] == TEST_FALSY) ends = BIND_TRUE;
    else return 0;
    int ours = 0;
    for (int k = 0; k < last->nhandlers; k++) ours |= &last->handlers[k] == h;
    if (last->kind != IR_TRY || !ours || last->b.n) return 0;
    for (int i = 0; i < h->body.n; i++) {
        const ir_node *n = h->body.v[i];
        if (n->kind == IR_BIND && n->var == t->vars[0] && (n->flags & (BIND_TRUE | BIND_FALSE | BIND_NONE)) &&
            !(n->flags & (BIND_TRUE | BIND_FALSE | BIND_NONE) & ~ends))
            return 1;
    }
    return 0;
}

static void begin(rule_run *rr)
{
    swallow_state *s = ca_xcalloc(1, sizeof(*s));
    const ir_func *f = rr->ctx->f;
    ir_visit(&f->body, collect_handlers, s);
    s->own_task = (f->fflags & (FN_OWN_TASK | FN_SPAWNED_ELSEWHERE)) != 0 || (s->nh > 0 && task_tail_helper(rr->ctx, f));
    /* (computed only where there is a handler to judge) */
    s->cleanup = s->nh > 0 && cleanup_helper(rr->ctx, f);
    s->params_cancelled = s->nh > 0 && cancelled_helper(rr->ctx, f);
    s->until_cancelled = ca_xcalloc((size_t)s->nh + 1, 1);
    for (int i = 0; i < s->nh; i++) s->until_cancelled[i] = (uint8_t)runs_until_cancelled(f, s->h[i]);
    s->flag_exit = ca_xcalloc((size_t)s->nh + 1, 1);
    for (int i = 0; i < s->nh; i++) s->flag_exit[i] = (uint8_t)clears_loop_flag(f, s->h[i]);
    /* (a test that makes its stand-in raise the cancellation: what the
     * handlers catch is that one, the test's way to end the loop it drives) */
    s->staged = (f->fflags & FN_STAGES_CANCEL) != 0;
    rr->data = s;
    rr->nstate = s->nh;
}

/* Does the path take a branch of `if` n that goes on, where another branch
 * (or, for the fall-through, the if's own) always raises? */
static int option_swallow(const ir_node *n, int branch)
{
    if (branch < n->nbranches && eng_block_always_raises(&n->branches[branch])) return 0;
    for (int b = 0; b < n->nbranches; b++)
        if (b != branch && eng_block_always_raises(&n->branches[b])) return 1;
    return 0;
}

static void on_event(rule_run *rr, const eng_walk *W, const eng_event *ev)
{
    swallow_state *s = rr->data;
    if (s->cleanup || s->staged) return;
    switch (ev->kind) {
    case ENG_EV_HANDLER: {
        int hi = slot_of(s, ev->handler);
        if (hi < 0) return;
        const ir_func *f = eng_func(W);
        const ir_handler *h = ev->handler;
        if (h->flags & H_CANCELLING) return;
        /* caught while handling an earlier cancellation: that one's fate
         * (raised or reported at its own handler) is the task's */
        for (int i = 0; i < eng_nregions(W); i++) {
            const eng_region *r = eng_region_at(W, i);
            if (r->kind == ENG_REG_HANDLER && r->handler != h && (r->handler->flags & H_CANCEL)) return;
        }
        if (!block_takes_own_cancel(rr->ctx, f, &ev->node->a, s->params_cancelled)) return; /* nothing here takes our cancellation */
        if ((h->exc_var < 0 || only_reported(f, h->exc_var)) && teardown_try(rr->ctx, f, &ev->node->a)) return;
        if (shielded_done_only(&ev->node->a, &h->body)) return;
        /* the try sits in a shield scope (`with CancelScope(shield=True):
         * try: await t / except CancelledError: pass`): no cancellation
         * from outside reaches its body, what it catches is the awaited
         * work's own */
        for (int i = 0; i < eng_nregions(W); i++) {
            const eng_region *r = eng_region_at(W, i);
            if (r->kind == ENG_REG_WITH && (r->node->flags & WITH_SHIELD)) return;
        }
        /* a task nothing can cancel, or a coroutine only such tasks await
         * in place: what the handler catches is the cancellation of
         * something it awaited, not its own, unless a timeout scope of its
         * own around the try cancels it. So in a program's main coroutine
         * and what only it awaits in place (FN_MAIN_ONLY): the runner
         * cancels it once, at the first ^C, and a second ^C raises
         * KeyboardInterrupt whatever main does, so a handler that ends
         * quietly there is the program's own way to stop */
        if (f->fflags & (FN_UNCANCELLED | FN_UNCANCELLED_VIA | FN_MAIN_ONLY)) {
            int timed = 0;
            for (int i = 0; i < eng_nregions(W); i++) {
                const eng_region *r = eng_region_at(W, i);
                timed |= r->kind == ENG_REG_WITH && (r->node->flags & WITH_TIMEOUT);
            }
            if (!timed) return;
        }
        if (h->exc_var >= 0) {
            fate_q q = {rr->ctx, W, h->exc_var};
            if (ir_visit(&f->body, hands_on, &q)) return;
        }
        if (ir_visit(&f->body, returns_cancel, NULL)) return;
        if (defers_raise(W, h, ev->node)) return;
        ev->state[hi] = SW_SWALLOWED;
        return;
    }
    case ENG_EV_HANDLER_EXIT: {
        /* an exception leaves the handler: it re-raised (or turned the
         * cancellation into another exception), it did not complete */
        int hi = ev->by_exception ? slot_of(s, ev->handler) : -1;
        if (hi >= 0) ev->state[hi] = 0;
        return;
    }
    case ENG_EV_RAISE: {
        const ir_node *r = ev->node;
        for (int i = 0; i < s->nh; i++) {
            if (!ev->state[i]) continue;
            if ((r->flags & RAISE_CANCEL) ||
                (r->var2 >= 0 && s->h[i]->exc_var >= 0 && eng_covers(W, r->var2, s->h[i]->exc_var)))
                ev->state[i] = 0; /* the cancellation is raised after all */
        }
        return;
    }
    case ENG_EV_BRANCH: {
        const ir_node *n = ev->node;
        /* `except CancelledError: if not self.suppress_cancelled: raise`:
         * the swallow is an option of the API, re-raised when it is off;
         * `if self._restarting:` set by the method that cancels this task
         * right before its cancel: the object's own cancellation */
        int flag_set = (n->flags & IF_CANCEL_FLAG) && ((n->flags & IF_CANCEL_FLAG_NOT) ? ev->branch != 0 : ev->branch == 0);
        if (n->kind == IR_IF && (((n->flags & IF_ON_CONFIG) && option_swallow(n, ev->branch)) || flag_set))
            for (int i = 0; i < s->nh; i++)
                if (ev->state[i] && n->site.start >= s->h[i]->site.start && n->site.end <= s->h[i]->site.end)
                    ev->state[i] = 0;
        /* in a task of the object's own, a test of the flag its canceller
         * sets right before the cancel, in the handler or after it
         * (`except CancelledError: pass` ... `if self._closed: return`,
         * `except (Exception, CancelledError): if self._stop.is_set():
         * return`): where the flag is set the cancellation was the
         * object's request, and where it is not, this task was not
         * cancelled, so what the handler caught was the awaited work's */
        if (n->kind == IR_IF && (n->flags & IF_CANCEL_FLAG) && !(n->flags & IF_CANCEL_FLAG_NOT) && s->own_task)
            for (int i = 0; i < s->nh; i++)
                if (ev->state[i] && !(ev->state[i] & SW_AGAIN) && n->site.start >= s->h[i]->site.start)
                    ev->state[i] = 0;
        /* `isinstance(e, C)`: a branch that needs e not to be a
         * cancellation is not where the cancellation goes */
        if (n->kind != IR_IF || !n->tests) return;
        for (int a = 0; a < n->nvars; a++) {
            int t = n->tests[a];
            if (t != TEST_EXC_CANCEL && t != TEST_EXC_OTHER) continue;
            int not_cancel = ev->branch == 0 ? t == TEST_EXC_OTHER
                                             : (n->flags & IF_ONE_TEST) && t == TEST_EXC_CANCEL;
            if (!not_cancel) continue;
            for (int i = 0; i < s->nh; i++)
                if (s->h[i]->exc_var == n->vars[a]) ev->state[i] = 0;
        }
        return;
    }
    case ENG_EV_CHECKPOINT:
        for (int i = 0; i < s->nh; i++) {
            if (!(ev->state[i] & SW_SWALLOWED)) continue;
            if (s->h[i]->flags & H_LEVEL) {
                /* a level-triggered cancellation comes back at the next
                 * unshielded checkpoint; in the same try again, to be
                 * caught again: the loop spins */
                if (ev->shielded) continue;
                if (in_try_body(W, s->tries[i])) {
                    ev->state[i] |= SW_AGAIN;
                    found(s, i);
                } else {
                    ev->state[i] = 0;
                }
                continue;
            }
            /* a checkpoint before the handler, in a loop around it: the
             * path went round again, and goes on working (a loop that
             * never ends normally is reported here) */
            /* (not after a handler that ends its loop by the local the
             * loop tests: that path left the loop) */
            if (!(ev->state[i] & SW_AGAIN) && !s->flag_exit[i] && ev->site.start < s->h[i]->site.start &&
                !in_handler(W, s->h[i]) && around(s, ev->site, s->h[i]->site)) {
                ev->state[i] |= SW_AGAIN;
                found(s, i);
            }
        }
        return;
    case ENG_EV_EXIT: {
        /* each handler this path went through without re-raising; a task's
         * own shutdown and a level-triggered cancellation end here, unless
         * the path went round again */
        if (ev->node && ev->node->kind == IR_RETURN && (ev->node->flags & RETURN_CANCEL)) return;
        for (int i = 0; i < s->nh; i++) {
            if (!(ev->state[i] & SW_SWALLOWED)) continue;
            if ((s->own_task || s->until_cancelled[i] || (s->h[i]->flags & (H_LEVEL | H_INTERRUPT))) &&
                !(ev->state[i] & SW_AGAIN))
                continue;
            found(s, i);
        }
        return;
    }
    default:
        return;
    }
}

static void end(rule_run *rr)
{
    rule_ctx *ctx = rr->ctx;
    swallow_state *s = rr->data;
    for (size_t i = 0; i < s->found.n && rule_on(ctx, "CAN401"); i++) {
        const ir_handler *h = s->found.v[i];
        const char *c = h->catches && *h->catches ? h->catches : "";
        char *msg;
        if (h->flags & H_LEVEL)
            msg = ca_xasprintf("`except%s%s` catches cancellation inside a loop and goes round again: the "
                               "cancellation is delivered again at the next checkpoint and caught again, so the "
                               "loop spins and the task never stops",
                               *c ? " " : "", c);
        else if (h->flags & H_SUPPRESS)
            msg = ca_xasprintf("`suppress(%s)` swallows the cancellation of this task: the caller's cancel or timeout "
                               "never takes effect",
                               c);
        else
            msg = ca_xasprintf("`except%s%s` catches cancellation and has a path that completes without "
                               "re-raising it: the cancellation is swallowed, so the caller's cancel or timeout "
                               "never takes effect",
                               *c ? " " : "", c);
        char *what = (h->flags & H_SUPPRESS) ? ca_xasprintf("suppress(%s)", c) : ca_xasprintf("except %s", *c ? c : "(bare)");
        const ir_handler *hs[1] = {h};
        ca_finding *f = rule_emit(ctx, "CAN401", h->site, what, "cancellation", NULL, hs, 1, what, msg);
        /* medium, whatever the handler catches: on the hand verdicts of the
         * ecosystem check (443 projects) a catch-all that drops the
         * cancellation is no surer than a handler that names it (0.53 of
         * the catch-alls true, 0.63 of the named ones): both are often a
         * task's own shutdown the tree does not show. A loop that spins on
         * a level-triggered cancellation cannot be meant: high. */
        if (!(h->flags & H_LEVEL)) f->confidence = CA_CONF_MEDIUM;
        free(what);
    }
    CA_VEC_FREE(s->found);
    CA_VEC_FREE(s->loops);
    free(s->tries);
    free(s->h);
    free(s->until_cancelled);
    free(s->flag_exit);
    free(s);
}

const rule_def rule_can401 = {
    .ids = "CAN401",
    .language = "python",
    .events = ENG_ON(ENG_EV_HANDLER) | ENG_ON(ENG_EV_HANDLER_EXIT) | ENG_ON(ENG_EV_RAISE) | ENG_ON(ENG_EV_BRANCH) |
              ENG_ON(ENG_EV_CHECKPOINT) | ENG_ON(ENG_EV_EXIT),
    .begin = begin,
    .on_event = on_event,
    .end = end,
};
