/*
 * engine.c — path walk of the ownership IR; see engine.h.
 *
 * State: one byte per variable (LIVE = may be live and unowned on some path
 * reaching here; ADOPTED = owned by a context manager / exit stack region)
 * and one byte per cancellation-catching handler (SWALLOW = this path went
 * through the handler and has not re-raised since). Joins are bitwise OR
 * (a may-analysis). Recursion follows the IR's nesting, which the frontend
 * bounds (IR_MAX_DEPTH).
 */
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#define ST_LIVE    0x01u
#define ST_ADOPTED 0x02u
#define ST_SWALLOW 0x04u

const char *eng_protection_name(unsigned b)
{
    switch (b) {
    case PROT_BASE_SHIELD: return "except BaseException + shield";
    case PROT_BASE: return "except BaseException";
    case PROT_CANCEL: return "except CancelledError";
    case PROT_FINALLY: return "finally";
    case PROT_CM: return "context manager";
    case PROT_EXIT_STACK: return "exit stack";
    case PROT_SHIELDED: return "shielded";
    default: return "";
    }
}

const char *eng_protection_best(unsigned bits)
{
    for (unsigned b = 1; b <= PROT_SHIELDED; b <<= 1)
        if (bits & b) return eng_protection_name(b);
    return "";
}

/* ------------------------------------------------------------------------ */
/* Relations between variables, computed once per function.                 */

typedef struct rel {
    int n;
    uint8_t *owns;      /* small functions: owns[x*n+v]: releasing/transferring x also does v */
    int *first, *next, *owner; /* large ones: member → owner edge lists */
    int *element_of;    /* element var → its container, or -1 */
} rel;

/* Functions with more variables than this use edge lists instead of the
 * closure matrix (n*n bytes), so memory stays linear. */
#define REL_MATRIX_MAX 512

static void collect_edges(const ir_node *nd, int *edges, int *ne, int maxe, int *element_of)
{
    if ((nd->kind == IR_ALIAS || nd->kind == IR_ACQUIRE) && nd->var >= 0 && nd->var2 >= 0 && *ne < maxe) {
        edges[2 * *ne] = nd->var;      /* member (or child) */
        edges[2 * *ne + 1] = nd->var2; /* owner (or parent) */
        (*ne)++;
    } else if (nd->kind == IR_ELEMENT && nd->var >= 0 && nd->var2 >= 0) {
        element_of[nd->var] = nd->var2;
    }
}

static void walk_edges(const ir_block *b, int *edges, int *ne, int maxe, int *element_of)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *nd = b->v[i];
        collect_edges(nd, edges, ne, maxe, element_of);
        walk_edges(&nd->a, edges, ne, maxe, element_of);
        walk_edges(&nd->b, edges, ne, maxe, element_of);
        walk_edges(&nd->c, edges, ne, maxe, element_of);
        for (int k = 0; k < nd->nbranches; k++) walk_edges(&nd->branches[k], edges, ne, maxe, element_of);
        for (int k = 0; k < nd->nhandlers; k++) walk_edges(&nd->handlers[k].body, edges, ne, maxe, element_of);
    }
}

static void rel_build(rel *r, const ir_func *f)
{
    int n = f->nvars;
    memset(r, 0, sizeof(*r));
    r->n = n;
    r->element_of = ca_xmalloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) r->element_of[i] = -1;
    int maxe = 8192;
    int *edges = ca_xmalloc(sizeof(int) * 2 * (size_t)maxe);
    int ne = 0;
    walk_edges(&f->body, edges, &ne, maxe, r->element_of);
    if (n <= REL_MATRIX_MAX) {
        r->owns = ca_xcalloc((size_t)n * (size_t)n + 1, 1);
        for (int v = 0; v < n; v++) r->owns[v * n + v] = 1;
        /* transitive closure by relaxation: x owns owner → x owns member */
        int changed = 1;
        for (int iter = 0; changed && iter < 16; iter++) {
            changed = 0;
            for (int e = 0; e < ne; e++) {
                int member = edges[2 * e], owner = edges[2 * e + 1];
                for (int x = 0; x < n; x++) {
                    if (r->owns[x * n + owner] && !r->owns[x * n + member]) {
                        r->owns[x * n + member] = 1;
                        changed = 1;
                    }
                }
            }
        }
    } else {
        r->first = ca_xmalloc(sizeof(int) * (size_t)(n + 1));
        r->next = ca_xmalloc(sizeof(int) * (size_t)(ne + 1));
        r->owner = ca_xmalloc(sizeof(int) * (size_t)(ne + 1));
        for (int i = 0; i < n; i++) r->first[i] = -1;
        for (int e = 0; e < ne; e++) {
            int member = edges[2 * e];
            r->owner[e] = edges[2 * e + 1];
            r->next[e] = r->first[member];
            r->first[member] = e;
        }
    }
    free(edges);
}

static void rel_free(rel *r)
{
    free(r->owns);
    free(r->first);
    free(r->next);
    free(r->owner);
    free(r->element_of);
}

/* Is x v itself or one of its owners (following member → owner edges)? */
static int owns(const rel *r, int x, int v)
{
    if (r->owns) return r->owns[x * r->n + v];
    if (x == v) return 1;
    int stack[64], seen = 0, sp = 0;
    stack[sp++] = v;
    while (sp && seen < 4096) {
        int cur = stack[--sp];
        for (int e = r->first[cur]; e >= 0; e = r->next[e]) {
            seen++;
            if (r->owner[e] == x) return 1;
            if (sp < 64) stack[sp++] = r->owner[e];
        }
    }
    return 0;
}

/* Does an event on x (release/transfer) cover v? Element events cover the
 * whole container. */
static int covers(const rel *r, int x, int v)
{
    if (x < 0 || v < 0) return 0;
    if (owns(r, x, v)) return 1;
    int c = r->element_of[x];
    if (c >= 0 && owns(r, c, v)) return 1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Analysis context.                                                        */

typedef enum reg_kind { REG_TRY_BODY, REG_TRY_ELSE, REG_HANDLER, REG_FINALLY, REG_WITH } reg_kind;

typedef struct region {
    reg_kind kind;
    const ir_node *node;
    const ir_handler *handler;
} region;

typedef struct frame {
    uint8_t *a, *b; /* loop: break, continue; try: exceptions */
    int used_a, used_b;
} frame;

typedef struct eng {
    const ir_module *m;
    const ir_func *f;
    const eng_resolver *res;
    eng_result *out;
    rel rel;
    int nvars, nslots;
    /* per variable */
    const ir_node **acq;
    const ir_node **adopt;
    const char **pending_read;
    uint8_t *weak_ok, *released_any, *from_registry;
    uint32_t *last_release; /* byte offset of the last release step outside cleanup */
    /* per cancel handler */
    const ir_handler **handlers;
    int nhandlers;
    region regs[IR_MAX_DEPTH * 2 + 8];
    int nregs;
    frame loops[IR_MAX_DEPTH + 8];
    int nloops;
    frame trys[IR_MAX_DEPTH + 8];
    int ntrys;
    int late[64];
    int nlate;
} eng;

static uint8_t *st_new(eng *E) { return ca_xcalloc((size_t)E->nslots + 1, 1); }
static void st_copy(eng *E, uint8_t *dst, const uint8_t *src) { memcpy(dst, src, (size_t)E->nslots + 1); }
static void st_join(eng *E, uint8_t *dst, const uint8_t *src)
{
    for (int i = 0; i <= E->nslots; i++) dst[i] |= src[i];
}
/* slot nslots holds "reachable" */
#define REACH(E, s) ((s)[(E)->nslots])

static eng_obs *obs_new(eng *E, eng_obs_kind k)
{
    eng_result *r = E->out;
    if (r->nobs == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->obs = ca_xrealloc(r->obs, sizeof(eng_obs) * (size_t)r->cap);
    }
    eng_obs *o = &r->obs[r->nobs++];
    memset(o, 0, sizeof(*o));
    o->kind = k;
    o->var = -1;
    return o;
}

static int handler_index(eng *E, const ir_handler *h)
{
    for (int i = 0; i < E->nhandlers; i++)
        if (E->handlers[i] == h) return i;
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Pre-pass: which variables the function releases at all, and in cleanup.  */

static void prepass(eng *E, const ir_block *b)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        switch (n->kind) {
        case IR_RELEASE:
            if (n->var >= 0 && !(n->flags & REL_IN_CLEANUP) && n->site.start > E->last_release[n->var])
                E->last_release[n->var] = n->site.start;
            if (n->var >= 0) {
                E->released_any[n->var] = 1;
                if (E->rel.element_of[n->var] >= 0) E->released_any[E->rel.element_of[n->var]] = 1;
                if (n->flags & REL_IN_CLEANUP) E->weak_ok[n->var] = 1;
            }
            break;
        case IR_CALL:
            for (int k = 0; k < n->nvars; k++) {
                int v = n->vars[k];
                if (v < 0) continue;
                if (n->flags & (CALL_IN_CLEANUP | CALL_NAME_RELEASES)) {
                    E->released_any[v] = 1;
                    if (E->rel.element_of[v] >= 0) E->released_any[E->rel.element_of[v]] = 1;
                }
                /* only a call that says it releases makes a value a resource;
                 * any call in cleanup protects a known resource, but logging
                 * or collecting an exception does not make it one */
                if ((n->flags & CALL_IN_CLEANUP) && (n->flags & CALL_NAME_RELEASES) && !n->kwnames[k])
                    E->weak_ok[v] = 1;
            }
            break;
        case IR_TRY:
            for (int k = 0; k < n->nhandlers; k++)
                if (n->handlers[k].flags & H_CANCEL) {
                    E->handlers = ca_xrealloc(E->handlers, sizeof(*E->handlers) * (size_t)(E->nhandlers + 1));
                    E->handlers[E->nhandlers++] = &n->handlers[k];
                }
            break;
        default:
            break;
        }
        prepass(E, &n->a);
        prepass(E, &n->b);
        prepass(E, &n->c);
        for (int k = 0; k < n->nbranches; k++) prepass(E, &n->branches[k]);
        for (int k = 0; k < n->nhandlers; k++) prepass(E, &n->handlers[k].body);
    }
}

/* ------------------------------------------------------------------------ */
/* Region questions.                                                        */

static int block_releases(eng *E, const ir_block *b, int v);

static int node_releases(eng *E, const ir_node *n, int v)
{
    switch (n->kind) {
    case IR_RELEASE:
    case IR_TRANSFER:
        return covers(&E->rel, n->var, v);
    case IR_CALL:
        for (int k = 0; k < n->nvars; k++)
            if (covers(&E->rel, n->vars[k], v)) return 1;
        return 0;
    default:
        break;
    }
    if (block_releases(E, &n->a, v) || block_releases(E, &n->b, v) || block_releases(E, &n->c, v)) return 1;
    for (int k = 0; k < n->nbranches; k++)
        if (block_releases(E, &n->branches[k], v)) return 1;
    for (int k = 0; k < n->nhandlers; k++)
        if (block_releases(E, &n->handlers[k].body, v)) return 1;
    return 0;
}

static int block_releases(eng *E, const ir_block *b, int v)
{
    for (int i = 0; i < b->n; i++)
        if (node_releases(E, b->v[i], v)) return 1;
    return 0;
}

static int block_shields(const ir_block *b)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_CHECKPOINT && (n->flags & CP_SHIELDED)) return 1;
        if (n->kind == IR_RELEASE && (n->flags & REL_SHIELDED)) return 1;
        if (n->kind == IR_WITH && (n->flags & WITH_SHIELD)) return 1;
        if (block_shields(&n->a) || block_shields(&n->b) || block_shields(&n->c)) return 1;
        for (int k = 0; k < n->nbranches; k++)
            if (block_shields(&n->branches[k])) return 1;
        for (int k = 0; k < n->nhandlers; k++)
            if (block_shields(&n->handlers[k].body)) return 1;
    }
    return 0;
}

static int in_shield_scope(eng *E)
{
    for (int i = E->nregs - 1; i >= 0; i--)
        if (E->regs[i].kind == REG_WITH && (E->regs[i].node->flags & WITH_SHIELD)) return 1;
    return 0;
}

static int in_timeout_scope(eng *E)
{
    for (int i = E->nregs - 1; i >= 0; i--)
        if (E->regs[i].kind == REG_WITH && (E->regs[i].node->flags & WITH_TIMEOUT)) return 1;
    return 0;
}

/* Every path through b ends in a raise (a handler that always re-raises). */
static int block_always_raises(const ir_block *b)
{
    if (b->n == 0) return 0;
    const ir_node *last = b->v[b->n - 1];
    if (last->kind == IR_RAISE) return 1;
    if (last->kind == IR_IF && (last->flags & IF_HAS_ELSE)) {
        for (int k = 0; k < last->nbranches; k++)
            if (!block_always_raises(&last->branches[k])) return 0;
        return last->nbranches > 0;
    }
    return 0;
}

/* Protection of v at a checkpoint: a PROT_* bit, or 0 with the handlers
 * that release v but miss cancellation in missing[]. */
static unsigned protection(eng *E, int v, const ir_handler **missing, int *nmissing)
{
    *nmissing = 0;
    for (int i = E->nregs - 1; i >= 0; i--) {
        const region *r = &E->regs[i];
        const ir_node *t = r->node;
        if (r->kind == REG_TRY_BODY) {
            for (int k = 0; k < t->nhandlers; k++) {
                const ir_handler *h = &t->handlers[k];
                if (!block_releases(E, &h->body, v)) {
                    /* a handler that catches cancellation and goes on (the
                     * settle loop's `except CancelledError: continue`) keeps
                     * the task in this function: v is still held here, and
                     * the swallow itself is CAN401's business */
                    if ((h->flags & H_CANCEL) && !block_always_raises(&h->body))
                        return (h->flags & H_BASE) ? PROT_BASE : PROT_CANCEL;
                    continue;
                }
                if (h->flags & H_CANCEL) {
                    if (h->flags & H_BASE) return block_shields(&h->body) ? PROT_BASE_SHIELD : PROT_BASE;
                    return PROT_CANCEL;
                }
                if (*nmissing < 16) missing[(*nmissing)++] = h;
            }
        }
        if ((r->kind == REG_TRY_BODY || r->kind == REG_TRY_ELSE || r->kind == REG_HANDLER) && t->c.n &&
            block_releases(E, &t->c, v))
            return PROT_FINALLY;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The walk.                                                                */

static void kill(eng *E, uint8_t *s, int x)
{
    if (x < 0) return;
    for (int v = 0; v < E->nvars; v++)
        if (covers(&E->rel, x, v)) s[v] &= (uint8_t)~(ST_LIVE | ST_ADOPTED);
}

static void checkpoint(eng *E, uint8_t *s, const ir_node *cp, ir_site site, const int *exempt, int nexempt)
{
    int shielded_scope = in_shield_scope(E);
    for (int v = 0; v < E->nvars; v++) {
        if (!(s[v] & (ST_LIVE | ST_ADOPTED))) continue;
        int ex = 0;
        for (int k = 0; k < nexempt; k++) ex |= exempt[k] == v;
        if (ex) continue;
        E->out->had_window = 1;
        if (shielded_scope) {
            E->out->protections |= PROT_SHIELDED;
            continue;
        }
        if (s[v] & ST_ADOPTED) {
            const ir_node *w = E->adopt[v];
            E->out->protections |= (w && (w->flags & WITH_EXIT_STACK)) ? PROT_EXIT_STACK : PROT_CM;
            if (!(s[v] & ST_LIVE)) continue;
        }
        const ir_handler *missing[16];
        int nm = 0;
        unsigned p = protection(E, v, missing, &nm);
        if (p) {
            E->out->protections |= p;
            continue;
        }
        eng_obs *o = obs_new(E, OBS_WINDOW);
        o->var = v;
        o->at = cp;
        o->site = site;
        o->acquired = E->acq[v];
        o->registry_take = E->from_registry[v];
        if (nm) {
            o->missing = ca_arena_alloc(&E->out->arena, sizeof(*o->missing) * (size_t)nm);
            memcpy(o->missing, missing, sizeof(*missing) * (size_t)nm);
            o->nmissing = nm;
        }
    }
    /* CAN302 material: a cleanup await in a cancellation handler or finally */
    int cleanup_await = cp && cp->kind == IR_CHECKPOINT &&
                        ((cp->flags & CP_RELEASES) ||
                         ((cp->flags & CP_ON_VAR) && cp->var >= 0 && E->acq[cp->var] != NULL));
    if (cleanup_await && (cp->flags & CP_IN_CLEANUP) && !(cp->flags & CP_SHIELDED) && !shielded_scope) {
        for (int i = E->nregs - 1; i >= 0; i--) {
            const region *r = &E->regs[i];
            if (r->kind == REG_HANDLER && !(r->handler->flags & H_CANCEL)) break;
            if (r->kind == REG_HANDLER || r->kind == REG_FINALLY) {
                eng_obs *o = obs_new(E, OBS_CLEANUP_AWAIT);
                o->at = cp;
                o->site = site;
                o->handler = r->kind == REG_HANDLER ? r->handler : NULL;
                break;
            }
        }
    }
}

static void check_exit(eng *E, const uint8_t *s, ir_site site)
{
    (void)site;
    for (int h = 0; h < E->nhandlers; h++) {
        if (!(s[E->nvars + h] & ST_SWALLOW)) continue;
        int seen = 0;
        for (int i = 0; i < E->out->nobs; i++)
            if (E->out->obs[i].kind == OBS_SWALLOW && E->out->obs[i].handler == E->handlers[h]) seen = 1;
        if (seen) continue;
        eng_obs *o = obs_new(E, OBS_SWALLOW);
        o->handler = E->handlers[h];
        o->site = E->handlers[h]->site;
    }
}

static void walk_block(eng *E, const ir_block *b, uint8_t *s);

static void note_exc(eng *E, const uint8_t *s)
{
    if (E->ntrys == 0) return;
    /* only when inside the body of the innermost try */
    for (int i = E->nregs - 1; i >= 0; i--) {
        if (E->regs[i].kind == REG_TRY_BODY) {
            frame *fr = &E->trys[E->ntrys - 1];
            st_join(E, fr->a, s);
            fr->used_a = 1;
            return;
        }
        if (E->regs[i].kind == REG_HANDLER || E->regs[i].kind == REG_FINALLY || E->regs[i].kind == REG_TRY_ELSE)
            return;
    }
}

static void push_reg(eng *E, reg_kind k, const ir_node *n, const ir_handler *h)
{
    if (E->nregs < (int)(sizeof(E->regs) / sizeof(E->regs[0]))) {
        E->regs[E->nregs].kind = k;
        E->regs[E->nregs].node = n;
        E->regs[E->nregs].handler = h;
    }
    E->nregs++;
}

static void pop_reg(eng *E) { E->nregs--; }

/* Applies the call's ownership effects; returns 1 when the call itself is a
 * checkpoint: it runs (CALL_RUNS_CALLEE) a resolved callee that reaches one. */
static int apply_call(eng *E, uint8_t *s, const ir_node *n)
{
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = E->res && E->res->resolve ? E->res->resolve(E->res->ctx, E->m, E->f, n, &sum, &off) : NULL;
    if (callee) {
        eng_result *r = E->out;
        if (r->ncallees == r->cap_callees) {
            r->cap_callees = r->cap_callees ? r->cap_callees * 2 : 8;
            r->callees = ca_xrealloc(r->callees, sizeof(*r->callees) * (size_t)r->cap_callees);
        }
        r->callees[r->ncallees++] = callee;
    }
    for (int k = 0; k < n->nvars; k++) {
        int v = n->vars[k];
        if (v < 0) continue;
        if (n->flags & CALL_IN_CLEANUP) {
            kill(E, s, v);
            continue;
        }
        if (callee && sum) {
            int p = -1;
            if (n->kwnames[k]) {
                for (int q = 0; q < callee->nparams; q++)
                    if (strcmp(callee->vars[q].name, n->kwnames[k]) == 0) p = q;
            } else {
                int pos = 0;
                for (int q = 0; q < k; q++) pos += n->kwnames[q] == NULL;
                p = pos + off;
            }
            if (p >= 0 && p < 64) {
                uint64_t bit = 1ull << p;
                if ((sum->releases | sum->takes_early) & bit) kill(E, s, v);
                else if (sum->takes_late & bit) {
                    if ((n->flags & CALL_AWAITED) && E->nlate < 64) E->late[E->nlate++] = v;
                    else kill(E, s, v);
                }
            }
            continue;
        }
        /* `_cancel_and_wait(fut, loop=loop)` releases fut, not the loop */
        if ((n->flags & (CALL_NAME_RELEASES | CALL_NAME_REGISTERS)) && !n->kwnames[k]) kill(E, s, v);
    }
    return callee && sum && sum->has_checkpoint && (n->flags & CALL_RUNS_CALLEE) && !callee->is_async;
}

static int try_exempt_from_swallow(eng *E, const ir_block *b, int *ncp)
{
    /* every checkpoint awaits a task this function cancelled before */
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_CHECKPOINT) {
            (*ncp)++;
            int ok = (n->flags & CP_AWAITS_CANCELLED) != 0;
            for (int k = 0; k < n->nvars; k++) {
                int v = n->vars[k];
                if (v >= 0 && E->f->vars[v].first_cancel < n->site.start) ok = 1;
            }
            if (!ok) return 0;
        }
        if (n->kind == IR_WITH && (n->flags & WITH_ASYNC)) { (*ncp)++; return 0; }
        if (n->kind == IR_LOOP && (n->flags & LOOP_ASYNC_FOR)) { (*ncp)++; return 0; }
        if (!try_exempt_from_swallow(E, &n->a, ncp) || !try_exempt_from_swallow(E, &n->b, ncp) ||
            !try_exempt_from_swallow(E, &n->c, ncp))
            return 0;
        for (int k = 0; k < n->nbranches; k++)
            if (!try_exempt_from_swallow(E, &n->branches[k], ncp)) return 0;
        for (int k = 0; k < n->nhandlers; k++)
            if (!try_exempt_from_swallow(E, &n->handlers[k].body, ncp)) return 0;
    }
    return 1;
}

/* The handler's exception is kept in a variable that some `raise X` raises. */
static int raised_later(eng *E, const ir_block *b, int exc)
{
    if (exc < 0) return 0;
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_RAISE && n->var2 >= 0 && covers(&E->rel, n->var2, exc)) return 1;
        if (raised_later(E, &n->a, exc) || raised_later(E, &n->b, exc) || raised_later(E, &n->c, exc)) return 1;
        for (int k = 0; k < n->nbranches; k++)
            if (raised_later(E, &n->branches[k], exc)) return 1;
        for (int k = 0; k < n->nhandlers; k++)
            if (raised_later(E, &n->handlers[k].body, exc)) return 1;
    }
    return 0;
}

/* Some `raise CancelledError` after byte offset `after`: the settle-loop
 * shape that records the cancellation in a flag and raises it once the
 * cleanup settled ("raising it later in the function is not swallowing"). */
static int cancel_raised_after(const ir_block *b, uint32_t after)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_RAISE && (n->flags & RAISE_CANCEL) && n->site.start > after) return 1;
        if (cancel_raised_after(&n->a, after) || cancel_raised_after(&n->b, after) ||
            cancel_raised_after(&n->c, after))
            return 1;
        for (int k = 0; k < n->nbranches; k++)
            if (cancel_raised_after(&n->branches[k], after)) return 1;
        for (int k = 0; k < n->nhandlers; k++)
            if (cancel_raised_after(&n->handlers[k].body, after)) return 1;
    }
    return 0;
}

static void walk_try(eng *E, const ir_node *t, uint8_t *s)
{
    if (E->ntrys >= IR_MAX_DEPTH + 8) return;
    frame *fr = &E->trys[E->ntrys++];
    fr->a = st_new(E);
    fr->used_a = 0;
    st_join(E, fr->a, s);
    push_reg(E, REG_TRY_BODY, t, NULL);
    walk_block(E, &t->a, s);
    pop_reg(E);
    uint8_t *exc = fr->a;
    E->ntrys--;
    if (REACH(E, s)) {
        push_reg(E, REG_TRY_ELSE, t, NULL);
        walk_block(E, &t->b, s);
        pop_reg(E);
    }
    REACH(E, exc) = 1;
    int ncp = 0;
    int exempt = try_exempt_from_swallow(E, &t->a, &ncp) ;
    uint8_t *out = st_new(E);
    st_copy(E, out, s);
    for (int k = 0; k < t->nhandlers; k++) {
        const ir_handler *h = &t->handlers[k];
        uint8_t *hs = st_new(E);
        st_copy(E, hs, exc);
        int hi = handler_index(E, h);
        if (hi >= 0 && !exempt && !raised_later(E, &E->f->body, h->exc_var) &&
            !cancel_raised_after(&E->f->body, t->site.end))
            hs[E->nvars + hi] |= ST_SWALLOW;
        push_reg(E, REG_HANDLER, t, h);
        walk_block(E, &h->body, hs);
        pop_reg(E);
        if (REACH(E, hs)) st_join(E, out, hs);
        free(hs);
    }
    /* exceptions not caught here go on to an outer try */
    note_exc(E, exc);
    if (t->c.n) {
        uint8_t *fs = st_new(E);
        st_copy(E, fs, out);
        st_join(E, fs, exc);
        REACH(E, fs) = 1;
        push_reg(E, REG_FINALLY, t, NULL);
        walk_block(E, &t->c, fs);
        pop_reg(E);
        int reach = REACH(E, out) && REACH(E, fs);
        st_copy(E, out, fs);
        REACH(E, out) = (uint8_t)reach;
        free(fs);
    }
    st_copy(E, s, out);
    free(out);
    free(exc);
}

static void walk_loop(eng *E, const ir_node *n, uint8_t *s)
{
    if (E->nloops >= IR_MAX_DEPTH + 8) return;
    frame *fr = &E->loops[E->nloops++];
    fr->a = st_new(E); /* break */
    fr->b = st_new(E); /* continue */
    uint8_t *head = st_new(E), *exit = st_new(E), *body = st_new(E);
    st_copy(E, head, s);
    for (int iter = 0; iter < 3; iter++) {
        uint8_t *cur = st_new(E);
        st_copy(E, cur, head);
        walk_block(E, &n->c, cur);
        if (n->flags & LOOP_ASYNC_FOR) checkpoint(E, cur, n, n->site, NULL, 0);
        if (!(n->flags & LOOP_INFINITE)) st_join(E, exit, cur);
        st_copy(E, body, cur);
        walk_block(E, &n->a, body);
        uint8_t *next = st_new(E);
        st_copy(E, next, head);
        if (REACH(E, body)) st_join(E, next, body);
        st_join(E, next, fr->b);
        int same = memcmp(next, head, (size_t)E->nslots + 1) == 0;
        st_copy(E, head, next);
        free(next);
        free(cur);
        if (same) break;
    }
    E->nloops--;
    if (REACH(E, exit)) walk_block(E, &n->b, exit);
    st_join(E, exit, fr->a);
    st_copy(E, s, exit);
    free(fr->a);
    free(fr->b);
    free(head);
    free(exit);
    free(body);
}

static void walk_with(eng *E, const ir_node *w, uint8_t *s)
{
    push_reg(E, REG_WITH, w, NULL);
    if (w->var2 >= 0 && (s[w->var2] & ST_LIVE)) {
        s[w->var2] = (uint8_t)((s[w->var2] & ~ST_LIVE) | ST_ADOPTED);
        E->adopt[w->var2] = w;
    }
    for (int k = 0; k < w->nvars; k++) { /* handed to the context manager's constructor */
        int v = w->vars[k];
        if (v >= 0 && (s[v] & ST_LIVE)) {
            s[v] = (uint8_t)((s[v] & ~ST_LIVE) | ST_ADOPTED);
            E->adopt[v] = w;
        }
    }
    if (w->flags & WITH_ASYNC) checkpoint(E, s, w, w->site, NULL, 0);
    if ((w->flags & WITH_OWNS) && w->var >= 0) {
        s[w->var] = (uint8_t)((s[w->var] & ~ST_LIVE) | ST_ADOPTED);
        E->adopt[w->var] = w;
        E->acq[w->var] = w;
    }
    walk_block(E, &w->a, s);
    for (int v = 0; v < E->nvars; v++)
        if (E->adopt[v] == w) s[v] &= (uint8_t)~ST_ADOPTED;
    pop_reg(E);
    if ((w->flags & WITH_ASYNC) && !(w->flags & WITH_NONSUSP_EXIT) && REACH(E, s)) {
        ir_site site = w->site;
        checkpoint(E, s, w, site, NULL, 0);
    }
}

static void walk_node(eng *E, const ir_node *n, uint8_t *s)
{
    switch (n->kind) {
    case IR_ACQUIRE: {
        int v = n->var;
        if (v < 0) break;
        int ok = (n->flags & ACQ_STRONG) || ((n->flags & ACQ_WEAK) && E->weak_ok[v]) ||
                 ((n->flags & ACQ_REGISTRY_TAKE) && E->released_any[v]);
        if (n->flags & ACQ_REGISTRY_READ) {
            E->pending_read[v] = n->text;
            E->acq[v] = n;
            break;
        }
        if (!ok) break;
        E->acq[v] = n;
        if (n->var2 >= 0 && (s[n->var2] & ST_ADOPTED) && !(s[n->var2] & ST_LIVE) && E->adopt[n->var2]) {
            /* made by a value a context manager owns: owned through it */
            s[v] = (uint8_t)((s[v] & ~ST_LIVE) | ST_ADOPTED);
            E->adopt[v] = E->adopt[n->var2];
            break;
        }
        s[v] = (uint8_t)((s[v] & ~ST_ADOPTED) | ST_LIVE);
        E->from_registry[v] = (n->flags & ACQ_REGISTRY_TAKE) != 0;
        break;
    }
    case IR_TAKE:
        for (int v = 0; v < E->nvars; v++) {
            if (!E->pending_read[v] || !n->text || strcmp(E->pending_read[v], n->text) != 0) continue;
            if (!E->released_any[v]) continue;
            s[v] |= ST_LIVE;
            E->from_registry[v] = 1;
        }
        break;
    case IR_RELEASE:
        /* an awaited step of a teardown with more steps after it: the rest
         * stays pending across this await */
        if ((n->flags & REL_PART) && (n->flags & REL_AWAITED) && n->var >= 0 &&
            E->last_release[n->var] > n->site.start && E->nlate < 64) {
            E->late[E->nlate++] = n->var;
            break;
        }
        kill(E, s, n->var);
        break;
    case IR_TRANSFER:
    case IR_DONE:
        kill(E, s, n->var);
        break;
    case IR_ADOPT:
        if (n->var >= 0 && n->ref) {
            s[n->var] = (uint8_t)((s[n->var] & ~ST_LIVE) | ST_ADOPTED);
            E->adopt[n->var] = n->ref;
        } else if (n->var >= 0) {
            kill(E, s, n->var);
        }
        break;
    case IR_COMMIT:
        if (n->var2 >= 0) {
            const ir_node *w = E->f->vars[n->var2].stack_with;
            for (int v = 0; v < E->nvars; v++)
                if (w && E->adopt[v] == w) {
                    s[v] &= (uint8_t)~(ST_ADOPTED | ST_LIVE);
                    E->adopt[v] = NULL;
                }
        }
        break;
    case IR_CHECKPOINT:
        checkpoint(E, s, n, n->site, n->vars, n->nvars);
        for (int i = 0; i < E->nlate; i++) kill(E, s, E->late[i]);
        E->nlate = 0;
        note_exc(E, s);
        break;
    case IR_CALL:
        if (apply_call(E, s, n)) {
            checkpoint(E, s, n, n->site, NULL, 0);
            note_exc(E, s);
        }
        break;
    case IR_REMOTE: {
        eng_obs *o = obs_new(E, OBS_REMOTE);
        o->at = n;
        o->site = n->site;
        o->in_timeout = (n->flags & REM_TIMEOUT) || in_timeout_scope(E);
        o->shielded = (n->flags & REM_SHIELDED) || in_shield_scope(E);
        break;
    }
    case IR_EXECUTOR:
        if (n->var >= 0 && ((n->flags & 0x100u) || E->released_any[n->var]) && !in_shield_scope(E)) {
            eng_obs *o = obs_new(E, OBS_EXECUTOR);
            o->at = n;
            o->var = n->var;
            o->site = n->site;
        }
        break;
    case IR_IF: {
        uint8_t *out = st_new(E);
        for (int k = 0; k < n->nbranches; k++) {
            uint8_t *bs = st_new(E);
            st_copy(E, bs, s);
            walk_block(E, &n->branches[k], bs);
            if (REACH(E, bs)) st_join(E, out, bs);
            free(bs);
        }
        if (!(n->flags & IF_HAS_ELSE)) st_join(E, out, s);
        st_copy(E, s, out);
        free(out);
        break;
    }
    case IR_LOOP:
        walk_loop(E, n, s);
        break;
    case IR_TRY:
        walk_try(E, n, s);
        break;
    case IR_WITH:
        walk_with(E, n, s);
        break;
    case IR_RETURN:
        check_exit(E, s, n->site);
        memset(s, 0, (size_t)E->nslots + 1);
        break;
    case IR_RAISE:
        note_exc(E, s);
        memset(s, 0, (size_t)E->nslots + 1);
        break;
    case IR_BREAK:
    case IR_CONTINUE:
        if (E->nloops) {
            frame *fr = &E->loops[E->nloops - 1];
            st_join(E, n->kind == IR_BREAK ? fr->a : fr->b, s);
        }
        memset(s, 0, (size_t)E->nslots + 1);
        break;
    default:
        break;
    }
}

static void walk_block(eng *E, const ir_block *b, uint8_t *s)
{
    for (int i = 0; i < b->n; i++) {
        if (!REACH(E, s)) return;
        walk_node(E, b->v[i], s);
        if (b->v[i]->kind == IR_CALL) note_exc(E, s);
    }
}

void eng_analyze(const ir_module *m, const ir_func *f, const eng_resolver *r, eng_result *out)
{
    eng *E = ca_xcalloc(1, sizeof(*E));
    E->m = m;
    E->f = f;
    E->res = r;
    E->out = out;
    E->nvars = f->nvars;
    rel_build(&E->rel, f);
    size_t nv = (size_t)f->nvars + 1;
    E->acq = ca_xcalloc(nv, sizeof(*E->acq));
    E->adopt = ca_xcalloc(nv, sizeof(*E->adopt));
    E->pending_read = ca_xcalloc(nv, sizeof(*E->pending_read));
    E->weak_ok = ca_xcalloc(nv, 1);
    E->released_any = ca_xcalloc(nv, 1);
    E->from_registry = ca_xcalloc(nv, 1);
    E->last_release = ca_xcalloc(nv, sizeof(uint32_t));
    prepass(E, &f->body);
    E->nslots = E->nvars + E->nhandlers;
    uint8_t *s = st_new(E);
    REACH(E, s) = 1;
    walk_block(E, &f->body, s);
    if (REACH(E, s)) check_exit(E, s, f->site);
    free(s);
    free(E->acq);
    free(E->adopt);
    free(E->pending_read);
    free(E->weak_ok);
    free(E->released_any);
    free(E->from_registry);
    free(E->last_release);
    free(E->handlers);
    rel_free(&E->rel);
    free(E);
}

void eng_result_free(eng_result *r)
{
    free(r->obs);
    free(r->callees);
    ca_arena_free(&r->arena);
    memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------------------------ */
/* Summaries.                                                               */

typedef struct sum_ctx {
    const ir_module *m;
    const ir_func *f;
    const eng_resolver *r;   /* eng_summary_update only */
    rel rel;
    int seen_cp;
    eng_summary *out;
} sum_ctx;

static void sum_mark(sum_ctx *c, int x, int take)
{
    for (int p = 0; p < c->f->nparams && p < 64; p++) {
        if (!covers(&c->rel, x, p)) continue;
        uint64_t bit = 1ull << p;
        if (!take) c->out->releases |= bit;
        else if (!c->seen_cp) c->out->takes_early |= bit;
        else c->out->takes_late |= bit;
    }
}

static void sum_block(sum_ctx *c, const ir_block *b)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        switch (n->kind) {
        case IR_CHECKPOINT:
            c->seen_cp = 1;
            c->out->has_checkpoint = 1;
            break;
        case IR_WITH:
            if (n->flags & WITH_ASYNC) {
                c->seen_cp = 1;
                c->out->has_checkpoint = 1;
            }
            break;
        case IR_LOOP:
            if (n->flags & LOOP_ASYNC_FOR) {
                c->seen_cp = 1;
                c->out->has_checkpoint = 1;
            }
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
        sum_block(c, &n->c);
        sum_block(c, &n->a);
        for (int k = 0; k < n->nbranches; k++) sum_block(c, &n->branches[k]);
        for (int k = 0; k < n->nhandlers; k++) sum_block(c, &n->handlers[k].body);
        sum_block(c, &n->b);
    }
}

void eng_summarize(const ir_func *f, eng_summary *out)
{
    memset(out, 0, sizeof(*out));
    sum_ctx c;
    memset(&c, 0, sizeof(c));
    c.f = f;
    c.out = out;
    rel_build(&c.rel, f);
    sum_block(&c, &f->body);
    rel_free(&c.rel);
}

/* ------------------------------------------------------------------------ */
/* Summaries through calls (C): a function that runs a callee reaching a     */
/* checkpoint reaches one too; handing a parameter to a callee that releases */
/* or takes it releases or takes it.                                         */

static void upd_block(sum_ctx *c, const ir_block *b)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_CHECKPOINT) c->seen_cp = 1;
        if (n->kind == IR_CALL && (n->flags & CALL_RUNS_CALLEE) && c->r && c->r->resolve) {
            const eng_summary *sum = NULL;
            int off = 0;
            const ir_func *callee = c->r->resolve(c->r->ctx, c->m, c->f, n, &sum, &off);
            if (callee && sum && callee != c->f) {
                for (int k = 0; k < n->nvars; k++) {
                    int p = k + off;
                    if (n->vars[k] < 0 || p >= 64 || (n->kwnames && n->kwnames[k])) continue;
                    uint64_t bit = 1ull << p;
                    if (sum->releases & bit) sum_mark(c, n->vars[k], 0);
                    else if ((sum->takes_early | sum->takes_late) & bit) sum_mark(c, n->vars[k], 1);
                }
                if (sum->has_checkpoint && !callee->is_async) {
                    c->seen_cp = 1;
                    c->out->has_checkpoint = 1;
                }
            }
        }
        upd_block(c, &n->c);
        upd_block(c, &n->a);
        for (int k = 0; k < n->nbranches; k++) upd_block(c, &n->branches[k]);
        for (int k = 0; k < n->nhandlers; k++) upd_block(c, &n->handlers[k].body);
        upd_block(c, &n->b);
    }
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
    rel_build(&c.rel, f);
    upd_block(&c, &f->body);
    rel_free(&c.rel);
    return memcmp(&before, io, sizeof(before)) != 0;
}
