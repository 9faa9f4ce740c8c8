/*
 * can101.c — CAN101, CAN102, CAN301: a value live and unowned across a
 * checkpoint that no enclosing region releases on cancellation.
 *
 * The engine reports each such window at its checkpoint (ENG_EV_CHECKPOINT).
 * Per (function, resource, rule) the first such checkpoint: CAN101 when
 * some handler would release the value but none catches cancellation;
 * CAN102 when nothing would; CAN301 (only) when the value came out of a
 * registry. The resources whose windows of one rule open at one checkpoint
 * are one finding there, naming them all. Not on a path entered by an exception for
 * a value live since before it (cleanup), nor in a task nothing cancels.
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

static const char *acq_kind(const rule_window *o)
{
    if (o->registry_take) return "registry entry";
    return o->acquired && o->acquired->rkind ? o->acquired->rkind : "resource";
}

/* The handlers of a window's findings, each once, in the order met. */
static char *handler_list(const ir_handler *const *hs, int n)
{
    ca_sb sb = {0};
    for (int i = 0; i < n; i++) {
        const ir_handler *h = hs[i];
        if (sb.len) ca_sb_adds(&sb, ", ");
        ca_sb_addf(&sb, "`except %s` (line %d)", h->catches, h->site.line);
    }
    return ca_sb_detach(&sb);
}

typedef struct holders_q {
    const char *text;
    ca_sb *lines;
    int n;
} holders_q;

static int note_holder(void *ctx, const ir_node *n)
{
    holders_q *q = ctx;
    if (n->kind == IR_WITH && (n->flags & WITH_LOCK_IDLE) && n->text && strcmp(n->text, q->text) == 0) {
        ca_sb_addf(q->lines, "%s%d", q->n++ ? ", " : "", n->site.line);
    }
    return 0;
}

/* For a window whose checkpoint is an idle lock's acquire: what makes it
 * latent, with the places that hold the lock (the module's). */
static char *latent_note(const rule_ctx *ctx, const ir_node *at)
{
    if (!at || at->kind != IR_WITH || !(at->flags & WITH_LOCK_IDLE) || !at->text) return NULL;
    ca_sb lines = {0};
    holders_q q = {at->text, &lines, 0};
    for (int i = 0; i < ctx->m->nfuncs; i++) ir_visit(&ctx->m->funcs[i]->body, note_holder, &q);
    char *note = ca_xasprintf(" (latent: no holder of `%s` awaits while holding it, line%s %s, so acquiring it does "
                              "not suspend today; the window opens the day one holder awaits)",
                              at->text, q.n > 1 ? "s" : "", ca_sb_str(&lines));
    ca_sb_release(&lines);
    return note;
}

static int latent(const rule_window *o)
{
    return o->at && o->at->kind == IR_WITH && (o->at->flags & WITH_LOCK_IDLE);
}

/* CAN102's windows that a handler catching cancellation would close but
 * for a branch this path cannot take (eng_window.conditional): "`except
 * BaseException` (line 9) releases it only on a branch that cannot run
 * when the task is cancelled here (what it tests is not set yet)", one
 * such clause per handler, naming the resources when the handler is not
 * every one's. NULL when none is. */
static char *conditional_note(const rule_ctx *ctx, const rule_window *const *ws, int n)
{
    ca_sb sb = {0};
    for (int i = 0; i < n; i++) {
        const ir_handler *h = ws[i]->conditional;
        int seen = 0;
        for (int k = 0; k < i && !seen; k++) seen = ws[k]->conditional == h;
        if (!h || seen) continue;
        int all = 1;
        for (int k = 0; k < n; k++) all &= ws[k]->conditional == h;
        if (sb.len) ca_sb_adds(&sb, "; ");
        ca_sb_addf(&sb, "`except %s` (line %d) releases ", h->catches[0] ? h->catches : ":", h->site.line);
        if (all) {
            ca_sb_adds(&sb, n > 1 ? "them" : "it");
        } else {
            int count = 0, done = 0;
            for (int k = 0; k < n; k++) count += ws[k]->conditional == h;
            for (int k = 0; k < n; k++) {
                if (ws[k]->conditional != h) continue;
                if (done) ca_sb_adds(&sb, done + 1 == count ? " and " : ", ");
                ca_sb_addf(&sb, "`%s`", rule_var_name(ctx, ws[k]->var));
                done++;
            }
        }
        ca_sb_adds(&sb, " only on a branch that cannot run when the task is cancelled here (what it tests is not "
                        "set yet)");
    }
    return sb.len ? ca_sb_detach(&sb) : (ca_sb_release(&sb), NULL);
}

/* How sure a window of o's value is: latent today, low; a resource known
 * by name or use, or an entry of a registry the code keeps itself, medium;
 * a catalogued one, high. */
static ca_confidence window_confidence(const rule_window *o)
{
    if (latent(o)) return CA_CONF_LOW;
    if (o->registry_take || !o->acquired || (o->acquired->flags & (ACQ_HEURISTIC | ACQ_WEAK))) return CA_CONF_MEDIUM;
    return CA_CONF_HIGH;
}

/* One finding for the windows ws[0..n) of rule, which share their first
 * checkpoint (ws in the order their values came into being). */
static void emit_window(rule_ctx *ctx, const char *rule, const rule_window *const *ws, int n)
{
    const rule_window *o = ws[0];
    rule_res *res = ca_xcalloc((size_t)n, sizeof(*res));
    CA_VEC(const ir_handler *) hs = {0};
    ca_confidence conf = CA_CONF_LOW;
    for (int i = 0; i < n; i++) {
        res[i].name = rule_var_name(ctx, ws[i]->var);
        res[i].kind = acq_kind(ws[i]);
        res[i].acquired = ws[i]->acquired;
        /* one sure resource makes the window sure */
        ca_confidence c = window_confidence(ws[i]);
        if ((int)c < (int)conf) conf = c;
        for (int k = 0; k < ws[i]->nmissing; k++) {
            int dup = 0;
            for (size_t q = 0; q < hs.n; q++) dup |= hs.v[q] == ws[i]->missing[k];
            if (!dup) CA_VEC_PUSH(hs, ws[i]->missing[k]);
        }
    }
    /* the handlers in the order they are written */
    for (size_t i = 1; i < hs.n; i++)
        for (size_t k = i; k > 0 && hs.v[k]->site.start < hs.v[k - 1]->site.start; k--) {
            const ir_handler *t = hs.v[k];
            hs.v[k] = hs.v[k - 1];
            hs.v[k - 1] = t;
        }
    int several = n > 1;
    char *cp = rule_checkpoint_desc(o->at);
    char *msg;
    if (strcmp(rule, "CAN101") == 0) {
        char *names = rule_res_list(ctx, res, n, NULL, 1);
        char *hl = handler_list(hs.v, (int)hs.n);
        char *latent = latent_note(ctx, o->at);
        msg = ca_xasprintf("%s %s unowned across %s%s: the cleanup that would release %s "
                           "runs only in %s, which %s cancellation (CancelledError is a "
                           "BaseException); cancelled here, %s",
                           names, several ? "are" : "is", cp, latent ? latent : "", several ? "them" : "it", hl,
                           hs.n > 1 ? "do not catch" : "does not catch", several ? "they leak" : "it leaks");
        free(latent);
        free(hl);
        free(names);
    } else if (strcmp(rule, "CAN102") == 0) {
        char *names = rule_res_list(ctx, res, n, NULL, 1);
        char *latent = latent_note(ctx, o->at);
        char *cond = conditional_note(ctx, ws, n);
        if (cond)
            msg = ca_xasprintf("%s %s unowned across %s%s: %s, nothing else releases %s, and nothing registered %s "
                               "yet",
                               names, several ? "are" : "is", cp, latent ? latent : "", cond, several ? "them" : "it",
                               several ? "them" : "it");
        else
            msg = ca_xasprintf("%s %s unowned across %s%s: no handler, finally or context "
                               "manager releases %s if the task is cancelled here, and nothing registered %s yet",
                               names, several ? "are" : "is", cp, latent ? latent : "", several ? "them" : "it",
                               several ? "them" : "it");
        free(cond);
        free(latent);
        free(names);
    } else if (!several) {
        msg = ca_xasprintf("`%s` was taken out of its registry (line %d) and is released only after %s: "
                           "cancelled here, it is neither registered nor released (teardown not "
                           "cancellation-settled)",
                           res[0].name, o->acquired ? o->acquired->site.line : 0, cp);
    } else {
        char *names = rule_res_list(ctx, res, n, NULL, 0);
        msg = ca_xasprintf("%s were taken out of their registry and are released only after %s: "
                           "cancelled here, they are neither registered nor released (teardown not "
                           "cancellation-settled)",
                           names, cp);
        free(names);
    }
    const char *cptext = o->at && o->at->text ? o->at->text : "";
    char *fp = o->at && o->at->kind == IR_WITH ? ca_xasprintf("async with %s", cptext)
             : o->at && o->at->kind == IR_LOOP ? ca_xasprintf("async for %s", cptext)
                                               : ca_xstrdup(cptext);
    int is101 = strcmp(rule, "CAN101") == 0;
    ca_finding *f = rule_emit_window(ctx, rule, o->site, res, n, is101 ? hs.v : NULL, is101 ? (int)hs.n : 0, fp,
                                     msg);
    f->confidence = conf;
    free(fp);
    free(cp);
    free(res);
    CA_VEC_FREE(hs);
}

/* Windows are one finding when they open at one checkpoint. */
static int same_checkpoint(const rule_window *a, const rule_window *b)
{
    return a->at == b->at && a->site.start == b->site.start;
}

static int cmp_birth(const void *pa, const void *pb)
{
    const rule_window *a = *(const rule_window *const *)pa, *b = *(const rule_window *const *)pb;
    size_t x = a->acquired ? a->acquired->site.start : 0, y = b->acquired ? b->acquired->site.start : 0;
    if (x != y) return x < y ? -1 : 1;
    return a->var < b->var ? -1 : a->var > b->var;
}

/* The findings of one rule: its first window per value (firsts, by value),
 * those sharing a checkpoint as one. */
static void emit_rule(rule_ctx *ctx, const char *rule, const rule_window **firsts, int nvars)
{
    const rule_window **group = ca_xmalloc(sizeof(*group) * (size_t)(nvars + 1));
    for (int v = 0; v < nvars; v++) {
        if (!firsts[v]) continue;
        int n = 0;
        for (int u = v; u < nvars; u++)
            if (firsts[u] && same_checkpoint(firsts[u], firsts[v])) {
                group[n++] = firsts[u];
                if (u != v) firsts[u] = NULL;
            }
        firsts[v] = NULL;
        qsort(group, (size_t)n, sizeof(*group), cmp_birth);
        emit_window(ctx, rule, group, n);
    }
    free(group);
}

/* The family's data: the windows, and per variable where the function
 * last does something that may decide the value's fate (see fate_from). */
/* A branch of an if, by its extent in the source. */
typedef struct branch_span {
    uint32_t start, end;
    uint32_t first, n; /* its if's branches: spans [first, first + n) */
} branch_span;

/* Something that may decide a variable's fate, where. */
typedef struct fate_at {
    int var;
    uint32_t at;
} fate_at;

typedef struct can101_data {
    rule_windows w; /* (first: rule_windows_add takes the data as is) */
    uint32_t *last_fate;
    CA_VEC(fate_at) fates;       /* every fate step, in walk order */
    CA_VEC(branch_span) branches; /* every branch of every if */
    const eng_walk *W;            /* while the fate steps are collected */
    size_t *fate_first;           /* per variable: its first step in fates (sorted), nvars + 1 entries */
    CA_VEC(uint32_t) in;          /* the branches holding in_from */
    uint32_t in_from;
    int in_valid;
    int nvars;
    uint32_t cleanup_call; /* the last call in cleanup or named as a release (may release anything by id) */
    uint8_t *left_running; /* per variable: a task still live where some path leaves the function normally */
} can101_data;

static void begin(rule_run *rr) { rr->data = ca_xcalloc(1, sizeof(can101_data)); }

static void note_fate(can101_data *d, int v, uint32_t at)
{
    if (v < 0 || v >= d->nvars) return;
    if (at + 1 > d->last_fate[v]) d->last_fate[v] = at + 1;
    fate_at f = {v, at};
    CA_VEC_PUSH(d->fates, f);
}

/* The extent of a block: from its first node's start to its last's end. */
static int block_span(const ir_block *b, uint32_t *start, uint32_t *end)
{
    if (!b->n) return 0;
    *start = UINT32_MAX;
    *end = 0;
    for (int i = 0; i < b->n; i++) {
        if (b->v[i]->site.start < *start) *start = b->v[i]->site.start;
        if (b->v[i]->site.end > *end) *end = b->v[i]->site.end;
    }
    return 1;
}

static int fate_node(void *ctx, const ir_node *n)
{
    can101_data *d = ctx;
    uint32_t at = n->site.start;
    if (n->kind == IR_IF) {
        uint32_t first = (uint32_t)d->branches.n;
        for (int k = 0; k < n->nbranches; k++) {
            branch_span b = {0, 0, first, 0};
            if (block_span(&n->branches[k], &b.start, &b.end)) CA_VEC_PUSH(d->branches, b);
        }
        for (size_t k = first; k < d->branches.n; k++) d->branches.v[k].n = (uint32_t)(d->branches.n - first);
    }
    switch (n->kind) {
    case IR_RELEASE:
    case IR_TRANSFER:
    case IR_ADOPT:
    case IR_DONE:
    case IR_ALIAS:
        note_fate(d, n->var, at);
        break;
    case IR_ELEMENT:
    case IR_COMMIT:
        note_fate(d, n->var2, at);
        break;
    case IR_CALL:
        if (n->flags & CALL_VALUE_ONLY) break;
        for (int k = 0; k < n->nvars; k++) {
            /* (a function of the tree that only uses what it is handed
             * decides nothing about it; calls in cleanup, spawns and names
             * that say they release or keep still may) */
            if (d->W && !(n->flags & (CALL_IN_CLEANUP | CALL_SPAWNED | CALL_NAME_RELEASES | CALL_NAME_REGISTERS)) &&
                !eng_call_may_keep(d->W, n, k))
                continue;
            note_fate(d, n->vars[k], at);
        }
        /* (`type(e)`, `str(x)`, `t.done()`: a call that cannot fail
         * releases nothing, by id or otherwise) */
        if ((n->flags & (CALL_IN_CLEANUP | CALL_NAME_RELEASES)) && !(n->flags & CALL_NO_RAISE) && at + 1 > d->cleanup_call)
            d->cleanup_call = at + 1;
        break;
    case IR_CHECKPOINT: /* the tasks it passes cancellation into (`await t`, gather) */
        for (int k = 0; k < n->nvars; k++) note_fate(d, n->vars[k], at);
        break;
    case IR_WITH:
        note_fate(d, n->var2, at);
        for (int k = 0; k < n->nvars; k++) note_fate(d, n->vars[k], at);
        break;
    default:
        break;
    }
    return 0;
}

/* Is a fate step of x after `from` on a path from there? Outside loops, a
 * step in another branch of an if whose branch holds `from` is not (`if
 * sock: await connect(sock=sock)` ... `elif tunnel: tunnel.close()`). */
static int cmp_fate(const void *a, const void *b)
{
    const fate_at *x = a, *y = b;
    if (x->var != y->var) return x->var < y->var ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

static int fate_reachable(can101_data *d, const eng_walk *W, int x, uint32_t from)
{
    if (eng_loop_start(W) != UINT32_MAX) return 1;
    /* x's steps at or after `from` (fates sorted by variable, then place) */
    size_t lo = d->fate_first[x], hi = d->fate_first[x + 1];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (d->fates.v[mid].at < from) lo = mid + 1;
        else hi = mid;
    }
    if (lo >= d->fate_first[x + 1]) return 0;
    if (!d->branches.n) return 1;
    /* the branches `from` is in (kept for the next query at the same place) */
    if (!d->in_valid || d->in_from != from) {
        d->in.n = 0;
        for (size_t k = 0; k < d->branches.n; k++)
            if (from >= d->branches.v[k].start && from < d->branches.v[k].end) CA_VEC_PUSH(d->in, (uint32_t)k);
        d->in_from = from;
        d->in_valid = 1;
    }
    for (size_t i = lo; i < d->fate_first[x + 1]; i++) {
        uint32_t at = d->fates.v[i].at;
        /* in a sibling of a branch holding `from`? */
        int other = 0;
        for (size_t j = 0; j < d->in.n && !other; j++) {
            const branch_span *b = &d->branches.v[d->in.v[j]];
            for (uint32_t s = b->first; s < b->first + b->n && !other; s++)
                other = s != d->in.v[j] && at >= d->branches.v[s].start && at < d->branches.v[s].end;
        }
        if (!other) return 1;
    }
    return 0;
}

/* Does the function, at or after `from`, name v (or something that holds
 * it) and do something that may decide its fate: release, store,
 * register, return, adopt, alias it, hand it to a call, await it, enter
 * it? A use that decides nothing (`v.name`, `await v.send(...)`, a test)
 * does not count; a variable named in a nested function or lambda counts
 * everywhere, and any call in cleanup after `from` may decide (it may
 * release by id). */
static int fate_from(can101_data *d, const eng_walk *W, int v, uint32_t from)
{
    const ir_func *f = eng_func(W);
    if (!d->last_fate) {
        d->nvars = f->nvars;
        d->last_fate = ca_xcalloc((size_t)f->nvars + 1, sizeof(*d->last_fate));
        d->W = W;
        ir_visit(&f->body, fate_node, d);
        d->W = NULL;
        if (d->fates.n) qsort(d->fates.v, d->fates.n, sizeof(fate_at), cmp_fate);
        d->fate_first = ca_xcalloc((size_t)f->nvars + 2, sizeof(size_t));
        for (size_t i = 0, v = 0; v <= (size_t)f->nvars; v++) {
            while (i < d->fates.n && (size_t)d->fates.v[i].var < v) i++;
            d->fate_first[v] = i;
        }
        d->fate_first[f->nvars + 1] = d->fates.n;
    }
    int named = 0, decided = d->cleanup_call > from;
    for (int x = 0; x < f->nvars && !(named && decided); x++) {
        if (x != v && !eng_covers(W, x, v)) continue;
        if (f->vars[x].last_mention == UINT32_MAX) return 1;
        named |= f->vars[x].last_mention >= from;
        if (x < d->nvars && d->last_fate[x] > from && !decided) decided = fate_reachable(d, W, x, from);
    }
    /* (named later, and something later may decide: a name alone, or a
     * cleanup call that does not name it, decides nothing) */
    return named && decided;
}

/* The cleanup block the checkpoint is a step of, when it is one: an
 * unshielded await whose call releases something (CP_RELEASE_STEP: a close,
 * a cancel-and-wait) in a finally or a cancellation handler, with no loop around
 * it, so that block runs once, as the function ends. NULL otherwise. */
static const ir_block *cleanup_step_of(const eng_walk *W, const eng_event *ev)
{
    const ir_node *cp = ev->node;
    if (!cp || cp->kind != IR_CHECKPOINT || !(cp->flags & CP_IN_CLEANUP) || (cp->flags & CP_SHIELDED) ||
        ev->shielded || eng_loop_start(W) != UINT32_MAX)
        return NULL;
    if (!(cp->flags & CP_RELEASE_STEP)) return NULL;
    for (int i = 0; i < eng_nregions(W); i++) {
        const eng_region *r = eng_region_at(W, i);
        if (r->kind == ENG_REG_HANDLER) return (r->handler->flags & H_CANCEL) ? &r->handler->body : NULL;
        if (r->kind == ENG_REG_FINALLY) return &r->node->c;
    }
    return NULL;
}

static void on_event(rule_run *rr, const eng_walk *W, const eng_event *ev)
{
    if (ev->kind == ENG_EV_EXIT) {
        can101_data *d = rr->data;
        const ir_func *f = eng_func(W);
        if (!d->left_running) d->left_running = ca_xcalloc((size_t)f->nvars + 1, 1);
        for (int v = 0; v < f->nvars; v++) {
            const ir_node *a = eng_acquired(W, v);
            if (a && a->rkind && strcmp(a->rkind, "task") == 0 && eng_live_here(W, v) && !eng_released_anywhere(W, v))
                d->left_running[v] = 1;
        }
        return;
    }
    /* A task nothing can cancel meets a cancellation only from a timeout of
     * its own (which its caller sees as TimeoutError, an ordinary
     * exception): its other checkpoints open no window. */
    if ((eng_func(W)->fflags & (FN_UNCANCELLED | FN_UNCANCELLED_VIA | FN_UNHELD_VIA)) && !ev->in_timeout) return;
    /* In a program's main coroutine (or what only it awaits in place), the
     * only cancellation outside a timeout of its own is the user's
     * interrupt, which ends the process: a value no cleanup of the
     * function's covers (CAN102's) goes with the process. One whose cleanup
     * misses cancellation (the author meant to clean up on the way out: an
     * `except KeyboardInterrupt:` that never sees the interrupt, which
     * comes as a cancellation), a registry's entry, or a remote object,
     * which outlives the process, keeps its window. */
    eng_event mo;
    eng_window mkeep[64];
    if ((eng_func(W)->fflags & FN_MAIN_ONLY) && !ev->in_timeout && ev->nwindows <= 64) {
        mo = *ev;
        mo.windows = mkeep;
        mo.nwindows = 0;
        for (int i = 0; i < ev->nwindows; i++) {
            const eng_window *w = &ev->windows[i];
            const char *k = w->acquired ? w->acquired->rkind : NULL;
            if (w->nmissing || w->registry_take || w->conditional || (k && strcmp(k, "remote") == 0))
                mkeep[mo.nwindows++] = *w;
        }
        if (!mo.nwindows) return;
        ev = &mo;
    }
    /* A value the function never names again from the checkpoint on (nor
     * anything holding it; in a loop, from the loop's start) meets the same
     * fate whether the task is cancelled there or not: the code after the
     * checkpoint would not release it either. Either it was handed over
     * before, in a way not seen (a callee of unknown code that keeps it),
     * or it leaks anyway, which no cancellation causes. */
    uint32_t from = ev->site.start, loop = eng_loop_start(W);
    /* an `async with` exit: what comes after the statement */
    if (ev->node && ev->node->kind == IR_WITH &&
        !(eng_nregions(W) && eng_region_at(W, 0)->kind == ENG_REG_WITH && eng_region_at(W, 0)->node == ev->node))
        from = ev->node->site.end;
    if (loop < from) from = loop;
    int unnamed = 0;
    can101_data *d = rr->data;
    for (int i = 0; i < ev->nwindows && !unnamed; i++) unnamed = !fate_from(d, W, ev->windows[i].var, from);
    /* A step of the function's final cleanup (`finally: await
     * cancel_and_wait(t); await stream.aclose()`) that the same block
     * follows with v's release: v is being cleaned up, and a cancellation
     * landing in the earlier step abandons the rest of the cleanup — what
     * CAN302 reports (strict), not a window of v's. */
    const ir_block *step = cleanup_step_of(W, ev);
    int stepped = 0;
    for (int i = 0; i < ev->nwindows && step && !stepped; i++) stepped = eng_block_releases(W, step, ev->windows[i].var);
    if (!ev->exc_from && !unnamed && !stepped) {
        rule_windows_add(rr->data, ev);
        return;
    }
    /* On a path entered by an exception, a value live since before it is
     * being cleaned up: cancelling that cleanup takes the failure (or
     * cancellation) that led here and then a cancellation landing in it —
     * CAN302's repeated cancellation, not a window of its own. A value
     * made on the cleanup path itself has its windows like any other. */
    eng_window keep[64];
    eng_event sub = *ev;
    sub.nwindows = 0;
    sub.windows = keep;
    for (int i = 0; i < ev->nwindows; i++) {
        const eng_window *w = &ev->windows[i];
        if (ev->exc_from && w->acquired && w->acquired->site.start < ev->exc_from) continue;
        if (unnamed && !fate_from(d, W, w->var, from)) continue;
        if (step && eng_block_releases(W, step, w->var)) continue;
        if (sub.nwindows == (int)(sizeof(keep) / sizeof(keep[0]))) {
            rule_windows_add(rr->data, &sub);
            sub.nwindows = 0;
        }
        keep[sub.nwindows++] = *w;
    }
    if (sub.nwindows) rule_windows_add(rr->data, &sub);
}

static void end(rule_run *rr)
{
    rule_ctx *ctx = rr->ctx;
    can101_data *d = rr->data;
    rule_windows *w = &d->w;
    int nv = ctx->f->nvars;
    /* per value, the window each rule reports: [0] CAN101, [1] CAN102, [2] CAN301 */
    const rule_window **first = ca_xcalloc((size_t)(3 * nv + 1), sizeof(*first));
    for (size_t i = 0; i < w->v.n; i++) {
        const rule_window *o = &w->v.v[i];
        if (o->var < 0 || o->var >= nv) continue;
        const rule_window **slot = &first[(o->registry_take ? 2 : o->nmissing ? 0 : 1) * nv + o->var];
        /* the first checkpoint, but a real one before a latent one (an
         * idle lock's acquire) */
        if (!*slot || latent(o) < latent(*slot) ||
            (latent(o) == latent(*slot) && o->site.start < (*slot)->site.start))
            *slot = o;
    }
    for (int v = 0; v < nv; v++)
        if (first[2 * nv + v]) first[v] = first[nv + v] = NULL; /* a registry take is CAN301's alone */
    /* `await asyncio.wait([a, b], return_when=FIRST_COMPLETED)`, its sets
     * dropped, where the function never cancels or closes a task and some
     * normal path leaves it running to the function's end (`if a.done():
     * await a`): the function lets the loser of the race run on by
     * design, so a cancellation at the wait leaves it as the race's end
     * does */
    for (int v = 0; v < nv && d->left_running; v++)
        for (int r = 0; r < 2; r++) {
            const rule_window *o = first[r * nv + v];
            if (o && o->at && o->at->kind == IR_CHECKPOINT && (o->at->flags & CP_WAIT_FIRST) && d->left_running[v])
                first[r * nv + v] = NULL;
        }
    if (rule_on(ctx, "CAN101")) emit_rule(ctx, "CAN101", first, nv);
    if (rule_on(ctx, "CAN102")) emit_rule(ctx, "CAN102", first + nv, nv);
    if (rule_on(ctx, "CAN301")) emit_rule(ctx, "CAN301", first + 2 * nv, nv);
    free(first);
    rule_windows_free(w);
    free(d->last_fate);
    CA_VEC_FREE(d->fates);
    CA_VEC_FREE(d->branches);
    CA_VEC_FREE(d->in);
    free(d->fate_first);
    free(d->left_running);
    free(d);
}

const rule_def rule_can101 = {
    .ids = "CAN101,CAN102,CAN301",
    .language = "python",
    .events = ENG_ON(ENG_EV_CHECKPOINT) | ENG_ON(ENG_EV_EXIT),
    .begin = begin,
    .on_event = on_event,
    .end = end,
};
