/*
 * walk.c — the path walk of a function's ownership IR (engine.h).
 *
 * The folder: engine/ is the generic analysis between the IR and the rules:
 * walk.c follows paths and emits events, rel.c the ownership relations
 * between a function's variables, summary.c what a function does with its
 * parameters for its callers. It knows no rule id and no library.
 *
 * State of a path: one byte per variable (LIVE = may be live and unowned
 * on some path reaching here; ADOPTED = owned by a context manager / exit
 * stack region), then each listener's per-path bytes, then one byte
 * "reachable". Joins are bitwise OR. Recursion follows the IR's nesting,
 * which the frontend bounds (IR_MAX_DEPTH); the stacks of regions, loops
 * and tries grow as needed.
 */
#include "engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rel.h"

#define ST_LIVE    0x01u
#define ST_ADOPTED 0x02u
#define ST_GIVEN   0x04u /* on some path here the value was handed to an owner outside the function (a
                            store into a registry, an attribute of self or an object it does not own), or
                            lent by a helper that keeps it: what is put into it goes to that owner too */
#define ST_HELD    0x08u /* read from a registry and not released since, on this path: a take of that
                            registry takes it */
/* what a variable's value can be on this path (all three: nothing known) */
#define ST_TRUE    0x10u
#define ST_FALSE   0x20u
#define ST_NONE    0x40u
#define ST_VALUE   (ST_TRUE | ST_FALSE | ST_NONE)

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

char *eng_limit_message(unsigned limits, const char *qualname, int line)
{
    ca_sb sb = {0};
    ca_sb_addf(&sb, "analysis limit in %s (line %d): ", qualname, line);
    int first = 1;
    if (limits & ENG_LIMIT_LOOP) {
        ca_sb_addf(&sb, "a loop's state did not settle in %d passes", ENG_LOOP_PASSES);
        first = 0;
    }
    if (limits & ENG_LIMIT_OWNER)
        ca_sb_addf(&sb, "%san ownership search stopped after %d steps", first ? "" : "; ", ENG_OWNER_STEPS);
    ca_sb_adds(&sb, "; findings there may be missing");
    return ca_sb_detach(&sb);
}

/* ------------------------------------------------------------------------ */
/* The walk's context.                                                      */

#define ENG_CLASS_MEMO 61

typedef struct frame {
    uint8_t *a, *b; /* loop: break, continue; try: exceptions of the body, of its handlers and else */
    uint8_t *c;     /* try: the body's paths that can raise only a cancellation (CP_CANCEL_ONLY) */
    uint32_t start; /* loop: where the loop statement starts */
} frame;

typedef struct lstn {
    const eng_listener *l;
    int offset;     /* of its bytes in a path state */
} lstn;

#define ENG_NFLAG 8

struct eng_walk {
    const ir_module *m;
    const ir_func *f;
    const eng_resolver *res;
    eng_result *out;
    eng_rel rel;
    int nvars, nslots;   /* nslots: variables + listeners' bytes; slot nslots is "reachable" */
    lstn *ls;
    int nls;
    unsigned wants;      /* union of the listeners' event masks */
    /* per variable */
    const ir_node **acq;
    const ir_node **adopt;
    const ir_node **subject_of; /* the `async with` whose subject it is (WITH_SUBJECT), inside its body */
    const char **pending_read;
    uint8_t *weak_ok, *released_any, *from_registry, *stored_any, *kept_any;
    uint8_t *kept_whole; /* kept_any, by something that holds the value itself, not only its identity */
    uint8_t *names_later; /* an assembled record a cleanup releases by name: what it names exists only
                           * once an awaited making call it is handed to returns (handed_to_await) */
    const uint8_t *cur; /* the path state of the event being told */
    struct {
        const ir_node *node;
        int any;
        unsigned c;
    } class_memo[ENG_CLASS_MEMO]; /* made_class's answers */
    uint8_t *made_strong;   /* bound somewhere by a catalogued or heuristic maker (ACQ_STRONG) */
    const ir_node **made_at; /* the making call of each value's latest acquire (a tuple's values share it) */
    const ir_node **exec_at; /* the IR_EXECUTOR whose thread work made each value, before its acquire */
    int *made_by;           /* the value its latest acquire was made by (`stack.enter_async_context(...)`:
                               the stack), whether or not it counted as a resource; -1 */
    int settled_done;       /* settled_any is filled in (note_settled, when first needed) */
    uint8_t *settled_any;   /* awaited to its end, or handed to a call that may keep or release it (one of
                               the tree whose summary says so, or any call outside it) */
    uint32_t *last_release; /* byte offset of the last release step outside cleanup */
    CA_VEC(eng_region) regs;
    CA_VEC(int) reg_try;    /* per region: its try's index in trys, or -1 */
    CA_VEC(frame) loops;
    CA_VEC(frame) trys;
    int split_depth;        /* finally blocks walked apart for the exception path, nested */
    uint32_t exc_from;      /* on a path entered by an exception: where its innermost handler or finally
                               starts (0: on none) */
    CA_VEC(int) late;       /* values released by the next checkpoint (a teardown's later steps) */
    /* scratch of a checkpoint event */
    CA_VEC(eng_window) win;
    CA_VEC(const ir_handler *) missing;
    const ir_handler *conditional; /* protection(): a handler that catches cancellation and releases v only on
                                      branches the path cannot take */
    /* Facts that tie a value to a flag: for the flags (locals the function
     * tests that no acquire, loop, executor or `with` binds, only an
     * IR_BIND, and parameters it tests: choose_flags), a
     * byte per value and flag after the listeners' slots: the flag's values
     * (ST_VALUE bits) on the paths where the value is live, 0 for none
     * known. `evicted = None; closed = False` ... `if self._closed: closed =
     * True` / `else: evicted = cache.popitem()` ... `if closed: await ...`:
     * evicted is live only where closed is False, so the branch that needs
     * closed True has no evicted. The walk joins the states of the paths
     * it follows; these bytes keep what a join of the flag's value alone
     * loses. */
    int nflag;
    int flagv[ENG_NFLAG];
    int cond_off;
};

static uint8_t *st_new(eng_walk *E) { return ca_xcalloc((size_t)E->nslots + 1, 1); }
static void st_copy(eng_walk *E, uint8_t *dst, const uint8_t *src) { memcpy(dst, src, (size_t)E->nslots + 1); }
#define ST_EXISTS (ST_LIVE | ST_HELD)
static uint8_t *cond_of(const eng_walk *E, uint8_t *s, int v, int j)
{
    return &s[E->cond_off + v * E->nflag + j];
}

/* The flag bytes of a join: what the flag may be where the value is live on
 * either side (a side where it is not live says nothing of it; a live value
 * with no fact, 0, may go with any value of the flag). Read before the
 * values' own bytes are joined. */
static void cond_join(eng_walk *E, uint8_t *dst, const uint8_t *src)
{
    for (int v = 0; v < E->nvars; v++) {
        unsigned dl = dst[v] & ST_EXISTS, sl = src[v] & ST_EXISTS;
        if (!sl) continue;
        for (int j = 0; j < E->nflag; j++) {
            uint8_t *dc = cond_of(E, dst, v, j);
            uint8_t sc = *cond_of(E, (uint8_t *)src, v, j);
            /* (what dst says of a value it does not hold is stale: a flag
             * bound since wrote it) */
            unsigned c = dl ? *dc : 0;
            if (dl && !c) c = ST_VALUE;
            c |= sc ? sc : ST_VALUE;
            *dc = (uint8_t)c;
        }
    }
}

static void st_join(eng_walk *E, uint8_t *dst, const uint8_t *src)
{
    if (E->nflag) {
        cond_join(E, dst, src);
        for (int i = 0; i < E->cond_off; i++) dst[i] |= src[i];
        dst[E->nslots] |= src[E->nslots];
        return;
    }
    for (int i = 0; i <= E->nslots; i++) dst[i] |= src[i];
}
#define REACH(E, s) ((s)[(E)->nslots])

static int flag_index(const eng_walk *E, int w)
{
    for (int j = 0; j < E->nflag; j++)
        if (E->flagv[j] == w) return j;
    return -1;
}

/* A test narrowed flag w to the values a on this path: a value live only
 * where w has none of them is not live here. */
static void cond_narrow(eng_walk *E, uint8_t *s, int w, unsigned a)
{
    int j = flag_index(E, w);
    if (j < 0) return;
    for (int v = 0; v < E->nvars; v++) {
        if (!(s[v] & ST_EXISTS)) continue;
        uint8_t *c = cond_of(E, s, v, j);
        if (!*c) continue;
        if (!(*c & a)) s[v] &= (uint8_t)~ST_EXISTS;
        else *c = (uint8_t)(*c & a);
    }
}

/* Flag w now holds values b on every path of this state. */
static void cond_bind(eng_walk *E, uint8_t *s, int w, unsigned b)
{
    int j = flag_index(E, w);
    if (j < 0) return;
    for (int v = 0; v < E->nvars; v++) *cond_of(E, s, v, j) = (uint8_t)(b ? b : ST_VALUE);
}

/* Value v came into being here, on top of what it was (`was`, its own
 * live bits before): it goes with the flags' values of this path. */
static void cond_made(eng_walk *E, uint8_t *s, int v, unsigned was)
{
    if (!(s[v] & ST_EXISTS)) return;
    for (int j = 0; j < E->nflag; j++) {
        uint8_t *c = cond_of(E, s, v, j);
        unsigned now = s[E->flagv[j]] & ST_VALUE;
        if (!now) now = ST_VALUE;
        if (was) *c = (uint8_t)(*c ? (*c | now) : ST_VALUE);
        else *c = (uint8_t)now;
    }
}

static int covers(eng_walk *E, int x, int v) { return eng_rel_covers(&E->rel, x, v); }

/* ---- queries for listeners ---- */

const ir_module *eng_module(const eng_walk *W) { return W->m; }
const ir_func *eng_func(const eng_walk *W) { return W->f; }
int eng_nregions(const eng_walk *W) { return (int)W->regs.n; }
uint32_t eng_loop_start(const eng_walk *W) { return W->loops.n ? W->loops.v[0].start : UINT32_MAX; }
const eng_region *eng_region_at(const eng_walk *W, int i) { return &W->regs.v[W->regs.n - 1 - (size_t)i]; }
/* the relation's searches keep scratch state: a query changes nothing the
 * listener can see */
int eng_covers(const eng_walk *W, int x, int v) { return covers((eng_walk *)W, x, v); }
const ir_node *eng_acquired(const eng_walk *W, int v) { return v >= 0 && v < W->nvars ? W->acq[v] : NULL; }
int eng_released_anywhere(const eng_walk *W, int v) { return v >= 0 && v < W->nvars && W->released_any[v]; }
int eng_stored_anywhere(const eng_walk *W, int v) { return v >= 0 && v < W->nvars && W->stored_any[v]; }
int eng_live_here(const eng_walk *W, int v) { return W->cur && v >= 0 && v < W->nvars && (W->cur[v] & ST_LIVE); }

static void emit(eng_walk *E, eng_event *ev, uint8_t *s)
{
    if (!(E->wants & ENG_ON(ev->kind))) return;
    for (int i = 0; i < E->nls; i++) {
        const eng_listener *l = E->ls[i].l;
        if (!(l->events & ENG_ON(ev->kind))) continue;
        ev->state = l->nstate && s ? s + E->ls[i].offset : NULL;
        E->cur = s;
        l->on_event(l->ctx, E, ev);
        E->cur = NULL;
    }
}

static int in_scope(const eng_walk *E, unsigned with_flag)
{
    for (size_t i = E->regs.n; i-- > 0;)
        if (E->regs.v[i].kind == ENG_REG_WITH && (E->regs.v[i].node->flags & with_flag)) return 1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Pre-pass: which variables the function releases at all, and in cleanup.  */

/* What the tree's callee of call n does with the parameter its k-th
 * argument lands in, by its summary; -1 when n does not resolve to another
 * function of the tree, or the argument lands in no parameter. */
typedef struct param_use {
    int releases, takes, passes, uses;
} param_use;

static int callee_param_use(eng_walk *E, const ir_node *n, int k, param_use *u)
{
    if (!E->res || !E->res->resolve || n->kind != IR_CALL) return -1;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = E->res->resolve(E->res->ctx, E->m, E->f, n, &sum, &off);
    if (!callee || !sum || callee == E->f) return -1;
    /* (an abstract method or a stub stands for overrides that may do
     * anything with what they are given) */
    if (callee->fflags & (FN_ABSTRACT | FN_STUB)) return -1;
    int p = eng_call_param(n, k, callee, off);
    if (p < 0 || p >= 64) return -1;
    uint64_t bit = 1ull << p;
    u->releases = (sum->releases & bit) != 0;
    u->takes = ((sum->takes_early | sum->takes_late) & bit) != 0;
    u->passes = (sum->passes & bit) != 0;
    u->uses = (sum->uses & bit) != 0;
    return 0;
}

/* Does the tree's callee of call n do nothing with its k-th value that could
 * release it (`cleanup_dir(path, fs)` whose only use of fs is `fs.rm(path)`:
 * fs is the tool, the directory is what it cleans)? */
static int ignored_by_callee(eng_walk *E, const ir_node *n, int k)
{
    param_use u;
    return callee_param_use(E, n, k, &u) == 0 && !(u.releases || u.takes || u.uses);
}

int eng_call_may_keep(const eng_walk *W, const ir_node *n, int k)
{
    param_use u;
    return callee_param_use((eng_walk *)W, n, k, &u) != 0 || u.releases || u.takes || u.passes;
}

static int prepass(void *ctx, const ir_node *n)
{
    eng_walk *E = ctx;
    switch (n->kind) {
    case IR_ELEMENT:
        /* (in order: what a release below reads, as in walk_node) */
        if (n->var >= 0 && n->var2 >= 0) E->rel.element_of[n->var] = n->var2;
        break;
    case IR_TRANSFER:
    case IR_ADOPT:
        /* handed to an owner (stored, registered, entered, returned to the
         * caller): the author keeps it as something that needs one */
        if (n->kind == IR_TRANSFER && (n->flags & XFER_PART)) break;
        if (n->var >= 0) E->stored_any[n->var] = 1;
        if (n->var >= 0 && !(n->kind == IR_TRANSFER && (n->flags & XFER_RETURN))) E->kept_any[n->var] = 1;
        if (n->var >= 0 && !(n->kind == IR_TRANSFER && (n->flags & (XFER_RETURN | XFER_IDENTITY))))
            E->kept_whole[n->var] = 1;
        break;
    case IR_RELEASE:
        if (n->var >= 0 && !(n->flags & REL_IN_CLEANUP) && n->site.start > E->last_release[n->var])
            E->last_release[n->var] = n->site.start;
        if (n->var >= 0) {
            E->released_any[n->var] = 1;
            if (E->rel.element_of[n->var] >= 0) E->released_any[E->rel.element_of[n->var]] = 1;
            if (n->flags & REL_IN_CLEANUP) E->weak_ok[n->var] = 1;
        }
        break;
    case IR_ACQUIRE:
        if (n->var >= 0 && (n->flags & ACQ_STRONG)) E->made_strong[n->var] = 1;
        break;
    case IR_CALL:
        for (int k = 0; k < n->nvars; k++) {
            int v = n->vars[k];
            if (v < 0) continue;
            if ((n->flags & CALL_NAME_REGISTERS) && ir_arg_positional(n, k)) E->stored_any[v] = E->kept_any[v] = E->kept_whole[v] = 1;
            if (n->flags & (CALL_IN_CLEANUP | CALL_NAME_RELEASES)) {
                E->released_any[v] = 1;
                if (E->rel.element_of[v] >= 0) E->released_any[E->rel.element_of[v]] = 1;
            }
            /* only a call that says it releases makes a value a resource;
             * any call in cleanup protects a known resource, but logging
             * or collecting an exception does not make it one */
            if ((n->flags & CALL_IN_CLEANUP) && (n->flags & CALL_NAME_RELEASES) && ir_arg_positional(n, k) &&
                !ignored_by_callee(E, n, k))
                E->weak_ok[v] = 1;
        }
        break;
    default:
        break;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Region questions.                                                        */

typedef struct rel_q {
    eng_walk *E;
    int v;
    int undo[16][2]; /* element bindings the block made (var, container before), undone after */
    int nundo;
} rel_q;

/* Cleanup by id: a call in cleanup that runs the same call that made v, or
 * one whose name says it releases, with a value v was made from (`docker
 * rm -f NAME` after `docker run --name NAME`: the process is gone, the
 * object it made is what the cleanup removes, named as it was made). */
static int by_id(eng_walk *E, const ir_node *n, int v)
{
    const ir_node *a = v >= 0 && v < E->nvars ? E->acq[v] : NULL;
    if (!a || !a->ref || !a->nvars || a->ref == n || !(n->flags & CALL_IN_CLEANUP) || (n->flags & CALL_VALUE_ONLY))
        return 0;
    int same = a->ref->text && n->text && strcmp(a->ref->text, n->text) == 0;
    if (!same && !(n->flags & CALL_NAME_RELEASES)) return 0;
    for (int k = 0; k < n->nvars; k++) {
        int x = n->vars[k];
        if (x < 0 || (E->f->vars[x].flags & VAR_SELF)) continue;
        for (int j = 0; j < a->nvars; j++)
            if (a->vars[j] == x) return 1;
    }
    return 0;
}

static int node_releases(void *ctx, const ir_node *n)
{
    rel_q *q = ctx;
    switch (n->kind) {
    case IR_ELEMENT:
        /* (a loop of the block binds its name to its own container for
         * what the block does below, as walk_node does on a path) */
        if (n->var >= 0 && n->var2 >= 0 && q->nundo < 16) {
            q->undo[q->nundo][0] = n->var;
            q->undo[q->nundo++][1] = q->E->rel.element_of[n->var];
            q->E->rel.element_of[n->var] = n->var2;
        }
        return 0;
    case IR_RELEASE:
    case IR_TRANSFER:
        if (n->kind == IR_TRANSFER && (n->flags & XFER_PART)) return 0;
        return covers(q->E, n->var, q->v);
    case IR_CALL:
        /* (`log.warning("...", run_id=run.id)` in a handler reports the
         * value; it releases nothing) */
        if (n->flags & CALL_REPORT) return 0;
        for (int k = 0; k < n->nvars; k++)
            if (covers(q->E, n->vars[k], q->v)) return 1;
        return by_id(q->E, n, q->v);
    case IR_DONE:
        /* `await t` in cleanup: the task is awaited to its end; and
         * `finally: await proc.wait()`: the process is waited for and
         * reaped there (catalog exit-wait; a process only) */
        if ((n->flags & DONE_EXITED) && n->var >= 0 && n->var < q->E->nvars) {
            const ir_node *a = q->E->acq[n->var];
            return a && a->rkind && strcmp(a->rkind, "process") == 0 && covers(q->E, n->var, q->v);
        }
        return (n->flags & DONE_SETTLED) && n->var >= 0 && covers(q->E, n->var, q->v);
    default:
        return 0;
    }
}

static rel_q rel_q_make(eng_walk *E, int v)
{
    rel_q q;
    memset(&q, 0, sizeof(q));
    q.E = E;
    q.v = v;
    return q;
}

/* The query's answer r, after undoing the element bindings it made. */
static int rel_q_done(rel_q *q, int r)
{
    while (q->nundo > 0) {
        q->nundo--;
        q->E->rel.element_of[q->undo[q->nundo][0]] = q->undo[q->nundo][1];
    }
    return r;
}

int eng_block_releases(const eng_walk *W, const ir_block *b, int v)
{
    rel_q q = rel_q_make((eng_walk *)W, v);
    return rel_q_done(&q, ir_visit(b, node_releases, &q));
}

static int node_shields(void *ctx, const ir_node *n)
{
    (void)ctx;
    return (n->kind == IR_CHECKPOINT && (n->flags & CP_SHIELDED)) ||
           (n->kind == IR_RELEASE && (n->flags & REL_SHIELDED)) || (n->kind == IR_WITH && (n->flags & WITH_SHIELD));
}

int eng_block_always_raises(const ir_block *b)
{
    if (b->n == 0) return 0;
    const ir_node *last = b->v[b->n - 1];
    if (last->kind == IR_RAISE) return 1;
    if (last->kind == IR_CALL && (last->flags & CALL_NORETURN) && !(last->flags & CALL_VALUE_ONLY)) return 1;
    if (last->kind == IR_IF && (last->flags & IF_HAS_ELSE)) {
        for (int k = 0; k < last->nbranches; k++)
            if (!eng_block_always_raises(&last->branches[k])) return 0;
        return last->nbranches > 0;
    }
    return 0;
}

static unsigned test_allows(int test, int negated);

/* Can a path in state s take branch k of if n? What enter_branch asks,
 * without narrowing anything. */
static int branch_can_hold(const ir_node *n, int k, const uint8_t *s)
{
    if (n->kind != IR_IF || !n->tests || !n->nvars || !s) return 1;
    if (k == 0) {
        for (int i = 0; i < n->nvars; i++) {
            int v = n->vars[i];
            unsigned a = test_allows(n->tests[i], 0);
            if (v >= 0 && a && !(s[v] & a)) return 0;
        }
        return 1;
    }
    if (n->flags & IF_ONE_TEST) {
        int v = n->vars[0];
        unsigned a = test_allows(n->tests[0], 1);
        if (v >= 0 && a && !(s[v] & a)) return 0;
    }
    return 1;
}

/* eng_block_releases for a handler or finally entered from a path in state
 * s: a branch whose test cannot hold on that path releases nothing for it
 * (`except BaseException: if entry is not None: await entry.close()`,
 * entered while entry is still None). */
static int block_releases_on(eng_walk *E, const ir_block *b, int v, const uint8_t *s)
{
    rel_q q = rel_q_make(E, v);
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (node_releases(&q, n)) return rel_q_done(&q, 1);
        if (block_releases_on(E, &n->c, v, s) || block_releases_on(E, &n->a, v, s)) return rel_q_done(&q, 1);
        for (int k = 0; k < n->nbranches; k++)
            if (branch_can_hold(n, k, s) && block_releases_on(E, &n->branches[k], v, s)) return rel_q_done(&q, 1);
        for (int k = 0; k < n->nhandlers; k++)
            if (block_releases_on(E, &n->handlers[k].body, v, s)) return rel_q_done(&q, 1);
        if (block_releases_on(E, &n->b, v, s)) return rel_q_done(&q, 1);
    }
    return rel_q_done(&q, 0);
}

/* Does a handler that catches cancellation, of a try around here, release x? */
static int handler_releases_here(eng_walk *E, int x)
{
    for (size_t i = E->regs.n; i-- > 0;) {
        const eng_region *r = &E->regs.v[i];
        if (r->kind != ENG_REG_TRY_BODY) continue;
        for (int k = 0; k < r->node->nhandlers; k++) {
            const ir_handler *h = &r->node->handlers[k];
            if ((h->flags & H_CANCEL) && block_releases_on(E, &h->body, x, NULL)) return 1;
        }
    }
    return 0;
}

/* Protection of v at a checkpoint reached in state s: a PROT_* bit, or 0
 * with the handlers that release v but miss cancellation in E->missing. */
static unsigned protection(eng_walk *E, int v, const uint8_t *s)
{
    /* a value known as a resource only because cleanup releases it (a
     * plain call result, a name that sounds like one) is read as its
     * author reads it: that cleanup is its cleanup on every path, so the
     * handler's branches are not pruned for it */
    const ir_node *a = v >= 0 && v < E->nvars ? E->acq[v] : NULL;
    if (!a || !(a->flags & ACQ_STRONG) || (a->flags & ACQ_HEURISTIC)) s = NULL;
    E->missing.n = 0;
    E->conditional = NULL;
    for (size_t i = E->regs.n; i-- > 0;) {
        const eng_region *r = &E->regs.v[i];
        const ir_node *t = r->node;
        if (r->kind == ENG_REG_TRY_BODY) {
            for (int k = 0; k < t->nhandlers; k++) {
                const ir_handler *h = &t->handlers[k];
                if (!block_releases_on(E, &h->body, v, s)) {
                    if ((h->flags & H_CANCEL) && !E->conditional && eng_block_releases(E, &h->body, v))
                        E->conditional = h;
                    /* a handler that catches cancellation and goes on (the
                     * settle loop's `except CancelledError: continue`) keeps
                     * the task in this function: v is still held here, and
                     * whether that swallows is a rule's business */
                    if ((h->flags & H_CANCEL) && !eng_block_always_raises(&h->body))
                        return (h->flags & H_BASE) ? PROT_BASE : PROT_CANCEL;
                    continue;
                }
                if (h->flags & H_CANCEL) {
                    if (h->flags & H_BASE) return ir_visit(&h->body, node_shields, NULL) ? PROT_BASE_SHIELD : PROT_BASE;
                    return PROT_CANCEL;
                }
                CA_VEC_PUSH(E->missing, h);
            }
        }
        if ((r->kind == ENG_REG_TRY_BODY || r->kind == ENG_REG_TRY_ELSE || r->kind == ENG_REG_HANDLER) && t->c.n &&
            block_releases_on(E, &t->c, v, s))
            return PROT_FINALLY;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The walk.                                                                */

static void walk_block(eng_walk *E, const ir_block *b, uint8_t *s);
static int returns_through_finally(eng_walk *E, uint8_t *s);
static int through_finally(eng_walk *E, uint8_t *s, uint32_t from);

static void kill(eng_walk *E, uint8_t *s, int x)
{
    if (x < 0) return;
    for (int v = 0; v < E->nvars; v++)
        if (covers(E, x, v)) s[v] &= (uint8_t)~(ST_LIVE | ST_ADOPTED);
}

/* `await v.acquire...(...)` (CALL_ACQUIRES_SLOT) on a value known as a
 * resource only by the release a handler gives it
 * (`limiter.release_on_behalf_of(t)`, a lock, a semaphore, a limiter):
 * until the acquire returns it holds nothing that release gives back, and a
 * cancelled acquire takes nothing. */
static int acquires_itself(const eng_walk *E, const ir_node *cp, int v)
{
    if (!cp || cp->kind != IR_CHECKPOINT || !(cp->flags & CP_CALL) || !cp->ref || !cp->ref->text ||
        !(cp->ref->flags & CALL_ACQUIRES_SLOT))
        return 0;
    const ir_node *a = E->acq[v];
    if (!a || a->kind != IR_ACQUIRE || (a->flags & ACQ_STRONG) || !(a->flags & ACQ_WEAK)) return 0;
    /* a method of v itself: `v.acquire...`, not `v.pool.acquire...` */
    const char *t = cp->ref->text, *name = E->f->vars[v].name;
    size_t nl = strlen(name);
    return strncmp(t, name, nl) == 0 && t[nl] == '.' && !strchr(t + nl + 1, '.');
}

/* A teardown task (`create_task(self.close())`, a future of
 * `run_coroutine_threadsafe(_shutdown(), loop)`): a cancellation this
 * checkpoint does not pass into it leaves it running to its end, which
 * releases what it was made to release; only an await that passes the
 * cancellation into it (`await t`, `gather(t)`) cuts the teardown short. */
static int teardown_goes_on(const ir_node *cp, const ir_node *a, int v)
{
    if (!a || a->kind != IR_ACQUIRE || !(a->flags & ACQ_TEARDOWN) || !cp || cp->kind != IR_CHECKPOINT) return 0;
    for (int k = 0; k < cp->nvars; k++)
        if (cp->vars[k] == v) return 0;
    return 1;
}

/* Does a finally around here close x itself: a release on x (`await
 * x.close()`) or a function of the tree whose summary releases the
 * parameter x lands in (`await self._on_interruption(ws=x)`)? Not a
 * release by name of something else (`self._events.remove(x)` takes x
 * out of a list; a task waiting on x goes on waiting). */
typedef struct closes_q {
    eng_walk *E;
    int x;
} closes_q;

static int closes_node(void *ctx, const ir_node *n)
{
    closes_q *q = ctx;
    if (n->kind == IR_RELEASE) return n->var == q->x;
    if (n->kind != IR_CALL) return 0;
    for (int k = 0; k < n->nvars; k++) {
        param_use u;
        if (n->vars[k] == q->x && callee_param_use(q->E, n, k, &u) == 0 && u.releases) return 1;
    }
    return 0;
}

static int finally_closes(eng_walk *E, int x)
{
    closes_q q = {E, x};
    for (size_t i = E->regs.n; i-- > 0;) {
        const eng_region *r = &E->regs.v[i];
        if ((r->kind == ENG_REG_TRY_BODY || r->kind == ENG_REG_TRY_ELSE || r->kind == ENG_REG_HANDLER) &&
            r->node->c.n && ir_visit(&r->node->c, closes_node, &q))
            return 1;
    }
    return 0;
}

/* Does a cleanup close x on the way out of a cancellation here, though x
 * is not known here as a resource (a parameter, the caller's process)? A
 * finally around here that closes it (finally_closes); a handler around
 * here that catches cancellation and closes it (`except BaseException:
 * proc.kill(); raise`); or the cleanup this checkpoint is in closed it
 * before it (`finally: proc.kill(); await proc.wait()`). */
typedef struct before_q {
    closes_q c;
    uint32_t before;
    int found;
} before_q;

static int closes_before(void *ctx, const ir_node *n)
{
    before_q *q = ctx;
    if (n->site.end <= q->before && closes_node(&q->c, n)) q->found = 1;
    return q->found;
}

static unsigned cleanup_closes(eng_walk *E, int x, uint32_t at)
{
    if (finally_closes(E, x)) return PROT_FINALLY;
    closes_q q = {E, x};
    for (size_t i = E->regs.n; i-- > 0;) {
        const eng_region *r = &E->regs.v[i];
        if (r->kind == ENG_REG_TRY_BODY)
            for (int k = 0; k < r->node->nhandlers; k++) {
                const ir_handler *h = &r->node->handlers[k];
                if ((h->flags & H_CANCEL) && ir_visit(&h->body, closes_node, &q))
                    return (h->flags & (H_BASE | H_BARE)) ? PROT_BASE : PROT_CANCEL;
            }
        before_q b = {q, at, 0};
        if (r->kind == ENG_REG_FINALLY) ir_visit(&r->node->c, closes_before, &b);
        if (r->kind == ENG_REG_HANDLER && r->handler && (r->handler->flags & H_CANCEL))
            ir_visit(&r->handler->body, closes_before, &b);
        if (b.found) return PROT_FINALLY;
    }
    return 0;
}

/* Task v's protection through what it works on: a resource handed to the
 * call that made the task (not a task itself) that a cleanup covering this
 * checkpoint releases when cancelled (a finally, or a handler that catches
 * cancellation and releases it). 0 when none. */
static unsigned rides_on_cleanup(eng_walk *E, int v, const uint8_t *s, uint32_t at)
{
    const ir_node *a = E->acq[v];
    if (!a || a->kind != IR_ACQUIRE || !a->rkind || strcmp(a->rkind, "task") != 0 || (a->flags & ACQ_TEARDOWN))
        return 0;
    /* every value the task is handed (self aside) must be one the cleanup
     * closes: a task reading a stream nobody closes here (a parameter, the
     * caller's) blocks on it whatever else is closed */
    unsigned got = 0;
    for (int k = 0; k < a->nvars; k++) {
        int x = a->vars[k];
        if (x < 0 || x == v || x >= E->nvars || (E->f->vars[x].flags & VAR_SELF)) continue;
        const ir_node *xa = E->acq[x];
        /* (a value not known here as a resource, `ws = await
         * self._connected_assistant()` kept by self or a parameter, counts
         * when the cleanup itself hands it to a release: `finally: await
         * self._on_interruption(ws)`, `except BaseException: proc.kill();
         * raise`, or the cleanup this checkpoint is in, before it:
         * cleanup_closes) */
        if (!xa) {
            unsigned c = cleanup_closes(E, x, at);
            if (!c) return 0;
            got = c;
            continue;
        }
        if (xa->kind != IR_ACQUIRE || !xa->rkind || strcmp(xa->rkind, "task") == 0 ||
            strcmp(xa->rkind, "exit-stack") == 0)
            return 0;
        /* (one this path already let go, made before here: released,
         * finished or handed to its owner, `finally: proc.kill(); await
         * proc.wait()`; the task ends with it, or with its new owner's
         * release) */
        if (!(s[x] & (ST_LIVE | ST_ADOPTED | ST_HELD)) && xa->site.end <= at) {
            if (!got) got = PROT_FINALLY;
            continue;
        }
        unsigned px = protection(E, x, s);
        /* (a handler that catches cancellation and goes on without
         * releasing x protects nothing of the task's) */
        if (px & PROT_FINALLY) got = PROT_FINALLY;
        else if ((px & (PROT_BASE | PROT_BASE_SHIELD | PROT_CANCEL)) && handler_releases_here(E, x)) got = px;
        else return 0;
    }
    return got;
}

static int untouched_object(eng_walk *E, const uint8_t *s, int v, ir_site to, uint32_t cp_start,
                            const ir_node *call);

typedef struct handed_q {
    int v;
    const ir_node *before; /* only calls that end before this checkpoint begins; NULL: any */
} handed_q;

static int handed_node(void *ctx, const ir_node *n)
{
    const handed_q *q = ctx;
    if (n->kind != IR_CALL || (n->flags & (CALL_AWAITED | CALL_NAME_MAKES)) != (CALL_AWAITED | CALL_NAME_MAKES))
        return 0;
    if (q->before && n->site.end > q->before->site.start) return 0;
    for (int k = 0; k < n->nvars; k++)
        if (n->vars[k] == q->v) return 1;
    return 0;
}

/* Is v handed to an awaited call whose name says it makes something (one
 * that ends before checkpoint `before` begins, if given)? What a record
 * names (`create_collection(name=record.name)`) exists once such a call
 * returns, not before. */
static int handed_to_await(eng_walk *E, int v, const ir_node *before)
{
    handed_q q = {v, before};
    return ir_visit(&E->f->body, handed_node, &q);
}

static void checkpoint(eng_walk *E, uint8_t *s, const ir_node *cp, ir_site site, const int *exempt, int nexempt)
{
    ir_site cp_end = cp ? cp->site : site;
    cp_end.start = cp_end.end;
    int shielded_scope = in_scope(E, WITH_SHIELD);
    /* windows first, then their handler lists (the vector may move while it grows) */
    E->win.n = 0;
    CA_VEC(size_t) offs = {0};
    CA_VEC(const ir_handler *) all = {0};
    for (int v = 0; v < E->nvars; v++) {
        if (!(s[v] & (ST_LIVE | ST_ADOPTED))) continue;
        int ex = 0;
        /* (and what it holds, but for tasks: the fd a pipe file wraps goes
         * with the file a call takes over; a teardown task goes with the
         * timed wait made of it, `close_coro = wait_for(shield(task), t);
         * await close_coro`; the other tasks of `as_completed(tasks)` do not
         * go with the one awaited) */
        const ir_node *a = E->acq[v];
        int holdable = a && a->kind == IR_ACQUIRE &&
                       ((a->flags & ACQ_TEARDOWN) || !a->rkind || strcmp(a->rkind, "task") != 0);
        /* (a container a task was put in goes with it: `await
         * asyncio.gather(*tasks)` passes the cancellation into each; an
         * element of one does not: `for fut in as_completed(tasks): await
         * fut` settles that one only) */
        for (int k = 0; k < nexempt; k++)
            ex |= exempt[k] == v ||
                  (exempt[k] >= 0 && (holdable || !(E->f->vars[exempt[k]].flags & VAR_ELEMENT)) &&
                   covers(E, exempt[k], v));
        if (ex || acquires_itself(E, cp, v) || teardown_goes_on(cp, a, v)) continue;
        if (E->names_later[v] && cp && !handed_to_await(E, v, cp)) continue;
        /* (an object of the tree nothing has used since its making holds
         * nothing yet; the checkpoint itself must not name it) */
        if (!(s[v] & ST_ADOPTED) && cp && untouched_object(E, s, v, cp_end, cp->site.start, NULL))
            continue;
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
        /* a task made to work on a value the cleanup around here closes
         * on cancellation (`t = create_task(pump(ws))`, `finally: await
         * ws.close()`): the task ends with what it works on */
        unsigned rides = rides_on_cleanup(E, v, s, cp ? cp->site.start : site.start);
        if (rides) {
            E->out->protections |= rides;
            continue;
        }
        unsigned p = protection(E, v, s);
        if (p) {
            E->out->protections |= p;
            continue;
        }
        eng_window w = {v, E->acq[v], E->from_registry[v], NULL, (int)E->missing.n, E->conditional};
        CA_VEC_PUSH(E->win, w);
        CA_VEC_PUSH(offs, all.n);
        for (size_t k = 0; k < E->missing.n; k++) CA_VEC_PUSH(all, E->missing.v[k]);
    }
    for (size_t i = 0; i < E->win.n; i++) E->win.v[i].missing = E->win.v[i].nmissing ? all.v + offs.v[i] : NULL;
    eng_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.kind = ENG_EV_CHECKPOINT;
    ev.node = cp;
    ev.site = site;
    ev.windows = E->win.v;
    ev.nwindows = (int)E->win.n;
    ev.shielded = shielded_scope;
    ev.in_timeout = in_scope(E, WITH_TIMEOUT);
    ev.exc_from = E->exc_from;
    emit(E, &ev, s);
    CA_VEC_FREE(offs);
    CA_VEC_FREE(all);
}

static unsigned made_class(eng_walk *E, const ir_node *acq, int any_return);

/* Fresh objects of the tree. `runner = cls(); runner.proc = await
 * spawn(...)`: an object built here of a class whose constructor leaves it
 * holding nothing (ENG_CLASS_INIT_HOLDS clear) holds nothing until
 * something uses it. `ezsp = EZSP(config); await ezsp.connect()`: nor in
 * the first call made on it, of a method that suspends nowhere after it
 * first stores into self (FN_QUIET_HOLD): what the method stored it
 * stored after its last suspension (what leaks inside the callees it
 * awaits is theirs, reported there). Nothing may name the object between
 * its making and the checkpoint (or the call), and no loop may hold the
 * call but not the making. */
typedef struct fresh_q {
    const char *name;
    size_t len;
    int v;
    ir_site from, to; /* the making, the call */
    const ir_node *call;
    int named;
    uint32_t cp_start; /* where the checkpoint (or the call) starts */
} fresh_q;

static int names_var(void *ctx, const ir_node *n)
{
    fresh_q *q = ctx;
    /* (the await of the call, its checkpoint: they hold the call) */
    if (n == q->call || n->site.start < q->from.end || n->site.end > q->to.start) {
        /* (a loop that holds the call but not the making runs the call again) */
        if (n->kind == IR_LOOP && n->site.start <= q->to.start && q->to.start < n->site.end &&
            !(n->site.start <= q->from.start && q->from.start < n->site.end))
            q->named = 1;
        return q->named;
    }
    if (n->kind == IR_LOOP || n->kind == IR_IF || n->kind == IR_TRY || n->kind == IR_WITH) return 0;
    /* (the statement around the checkpoint: what it stores it stores after
     * the await, `runner.proc = await spawn(...)`) */
    if (n->site.start < q->cp_start && n->site.end >= q->to.start) return 0;
    if (n->var == q->v || n->var2 == q->v) q->named = 1;
    for (int k = 0; k < n->nvars && !q->named; k++)
        if (n->vars && n->vars[k] == q->v) q->named = 1;
    if ((n->kind == IR_CALL || n->kind == IR_AWAIT_CALL) && n->text && strncmp(n->text, q->name, q->len) == 0 &&
        n->text[q->len] == '.')
        q->named = 1;
    return q->named;
}

/* v is an object made here by a class of the tree whose constructor leaves
 * it holding nothing (ENG_CLASS_INIT_HOLDS clear), with nothing live among
 * what it was made with (nor a parameter not annotated as plain data,
 * which may be a resource handed in), and nothing has named it between
 * its making and `to`: it holds nothing yet. */
static int untouched_object(eng_walk *E, const uint8_t *s, int v, ir_site to, uint32_t cp_start,
                            const ir_node *call)
{
    const ir_node *a = E->acq[v];
    if (!(s[v] & ST_LIVE) || !a || a->kind != IR_ACQUIRE || !a->ref || a->ref->kind != IR_CALL ||
        a->site.end > to.start)
        return 0;
    unsigned c = made_class(E, a, 0);
    if (!(c & ENG_CLASS_KNOWN) || (c & (ENG_CLASS_INIT_HOLDS | ENG_CLASS_DATA))) return 0;
    for (int k = 0; k < a->nvars; k++) {
        int x = a->vars[k];
        if (x < 0 || x == v || x >= E->nvars) continue;
        if (s[x] & (ST_LIVE | ST_ADOPTED | ST_HELD)) return 0;
        if ((E->f->vars[x].flags & VAR_PARAM) && !(E->f->vars[x].flags & (VAR_SELF | VAR_PLAIN))) return 0;
    }
    const char *name = E->f->vars[v].name;
    if (!name) return 0;
    fresh_q q = {name, strlen(name), v, a->site, to, call, 0, cp_start};
    ir_visit(&E->f->body, names_var, &q);
    return !q.named;
}

/* Does method g suspend nowhere after it first stores into self
 * (FN_QUIET_HOLD), or only in methods of self it awaits that do not
 * either (FN_QUIET_VIA: `await self._bind(path)` and nothing suspending
 * after)? A stub stands for its overrides, which may store and suspend. */
typedef struct via_q {
    eng_walk *E;
    const ir_func *g;
    int depth, ok;
} via_q;

static int quiet_method(eng_walk *E, const ir_func *g, int depth);

static int via_callee_quiet(void *ctx, const ir_node *n)
{
    via_q *q = ctx;
    if (n->kind != IR_CALL || (n->flags & (CALL_ON_SELF | CALL_AWAITED)) != (CALL_ON_SELF | CALL_AWAITED)) return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *h = q->E->res->resolve(q->E->res->ctx, q->E->m, q->g, n, &sum, &off);
    if (!h || h == q->g || !quiet_method(q->E, h, q->depth + 1)) q->ok = 0;
    return !q->ok;
}

static int quiet_method(eng_walk *E, const ir_func *g, int depth)
{
    if (g->fflags & (FN_STUB | FN_ABSTRACT)) return 0;
    if (g->fflags & FN_QUIET_HOLD) return 1;
    if (!(g->fflags & FN_QUIET_VIA) || depth > 2 || !E->res || !E->res->resolve) return 0;
    via_q q = {E, g, depth, 1};
    ir_visit(&g->body, via_callee_quiet, &q);
    return q.ok;
}

static int fresh_quiet_call(eng_walk *E, const uint8_t *s, const ir_node *cp, const ir_node *call,
                            const ir_func *callee, int off)
{
    if (!callee || off != 1 || !(callee->fflags & (FN_QUIET_HOLD | FN_QUIET_VIA)) || !(cp->flags & CP_ON_VAR) ||
        cp->var < 0 || !(call->flags & CALL_RECV_CLASS) || !quiet_method(E, callee, 0))
        return 0;
    return untouched_object(E, s, cp->var, call->site, call->site.start, call);
}

/* A checkpoint of an await: the values it passes cancellation into are
 * no window there — its own (tasks awaited, generators stepped, arguments
 * a call takes over) and the arguments of a helper of the tree that passes
 * cancellation into the parameter they land in. */
static void checkpoint_call(eng_walk *E, uint8_t *s, const ir_node *cp)
{
    const ir_node *call = (cp->flags & CP_CALL) ? cp->ref : NULL;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = call && E->res && E->res->resolve ? E->res->resolve(E->res->ctx, E->m, E->f, call, &sum, &off)
                                                              : NULL;
    if (call && (cp->flags & CP_SHIELDED) && ((call->flags & CALL_NAME_RELEASES) || (cp->flags & CP_RELEASES))) {
        /* `await asyncio.shield(self._stop(entry))`: the shielded task
         * goes on releasing what it was given when this await is
         * cancelled: settled, no window for those values */
        CA_VEC(int) ex = {0};
        for (int k = 0; k < cp->nvars; k++) CA_VEC_PUSH(ex, cp->vars[k]);
        for (int k = 0; k < call->nvars; k++)
            if (call->vars[k] >= 0 && ir_arg_positional(call, k)) CA_VEC_PUSH(ex, call->vars[k]);
        checkpoint(E, s, cp, cp->site, ex.v, (int)ex.n);
        for (size_t k = 0; k < ex.n; k++) kill(E, s, ex.v[k]);
        CA_VEC_FREE(ex);
        return;
    }
    if (call && fresh_quiet_call(E, s, cp, call, callee, off)) {
        CA_VEC(int) ex = {0};
        for (int k = 0; k < cp->nvars; k++) CA_VEC_PUSH(ex, cp->vars[k]);
        CA_VEC_PUSH(ex, cp->var);
        checkpoint(E, s, cp, cp->site, ex.v, (int)ex.n);
        CA_VEC_FREE(ex);
        return;
    }
    if (!callee || !sum || !sum->passes) {
        checkpoint(E, s, cp, cp->site, cp->vars, cp->nvars);
        return;
    }
    CA_VEC(int) ex = {0};
    for (int k = 0; k < cp->nvars; k++) CA_VEC_PUSH(ex, cp->vars[k]);
    for (int k = 0; k < call->nvars; k++) {
        int p = call->vars[k] >= 0 ? eng_call_param(call, k, callee, off) : -1;
        if (p >= 0 && p < 64 && (sum->passes & (1ull << p))) CA_VEC_PUSH(ex, call->vars[k]);
    }
    /* `await proc.wait()` where wait awaits a task proc holds: the
     * cancellation goes into proc's own task */
    if (off == 1 && (sum->passes & 1ull) && (cp->flags & CP_ON_VAR) && cp->var >= 0 && (call->flags & CALL_RECV_CLASS))
        CA_VEC_PUSH(ex, cp->var);
    checkpoint(E, s, cp, cp->site, ex.v, (int)ex.n);
    CA_VEC_FREE(ex);
}

static void exit_path(eng_walk *E, uint8_t *s, const ir_node *ret, ir_site site)
{
    eng_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.kind = ENG_EV_EXIT;
    ev.node = ret;
    ev.site = site;
    emit(E, &ev, s);
}

/* An exception can arise here with state s: it goes to the innermost try
 * whose body or handlers (or else) hold this point; from a finally block it
 * leaves that try for the next one out. */
static void note_exc_at(eng_walk *E, const uint8_t *s, const ir_node *at)
{
    for (size_t i = E->regs.n; i-- > 0;) {
        eng_region_kind k = E->regs.v[i].kind;
        int ti = E->reg_try.v[i];
        if (k == ENG_REG_TRY_BODY && ti >= 0) {
            st_join(E, E->trys.v[ti].a, s);
            return;
        }
        if (k == ENG_REG_TRY_ELSE && ti >= 0) {
            st_join(E, E->trys.v[ti].b, s);
            return;
        }
        if (k == ENG_REG_HANDLER && ti >= 0) {
            if (E->wants & ENG_ON(ENG_EV_HANDLER_EXIT)) {
                /* the path leaves the handler by an exception: listeners
                 * see (and may change) its state on the way out */
                uint8_t *out = st_new(E);
                st_copy(E, out, s);
                eng_event ev;
                memset(&ev, 0, sizeof(ev));
                ev.kind = ENG_EV_HANDLER_EXIT;
                ev.node = at;
                ev.site = at ? at->site : E->regs.v[i].handler->site;
                ev.handler = E->regs.v[i].handler;
                ev.by_exception = 1;
                emit(E, &ev, out);
                st_join(E, E->trys.v[ti].b, out);
                free(out);
            } else {
                st_join(E, E->trys.v[ti].b, s);
            }
            return;
        }
    }
}

static void note_exc(eng_walk *E, const uint8_t *s) { note_exc_at(E, s, NULL); }

/* Only a cancellation can arise here (an await of asyncio.sleep): inside a
 * try's body it reaches only the first handler that catches cancellation
 * (or leaves the try); elsewhere it goes where any exception goes. */
static void note_cancel_at(eng_walk *E, const uint8_t *s, const ir_node *at)
{
    size_t i = E->regs.n;
    if (i > 0 && E->regs.v[i - 1].kind == ENG_REG_TRY_BODY && E->reg_try.v[i - 1] >= 0) {
        uint8_t *c = E->trys.v[E->reg_try.v[i - 1]].c;
        st_join(E, c, s);
        REACH(E, c) = 1;
        return;
    }
    note_exc_at(E, s, at);
}

static void push_reg_try(eng_walk *E, eng_region_kind k, const ir_node *n, const ir_handler *h, int ti)
{
    eng_region r = {k, n, h};
    CA_VEC_PUSH(E->regs, r);
    CA_VEC_PUSH(E->reg_try, ti);
}

static void push_reg(eng_walk *E, eng_region_kind k, const ir_node *n, const ir_handler *h)
{
    push_reg_try(E, k, n, h, -1);
}

static void pop_reg(eng_walk *E)
{
    E->regs.n--;
    E->reg_try.n--;
}

/* Applies the call's ownership effects; returns 1 when the call itself is a
 * checkpoint: it runs (CALL_RUNS_CALLEE) a resolved callee that reaches one. */
static int apply_call(eng_walk *E, uint8_t *s, const ir_node *n, int *noreturn)
{
    if (n->flags & CALL_VALUE_ONLY) return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = E->res && E->res->resolve ? E->res->resolve(E->res->ctx, E->m, E->f, n, &sum, &off) : NULL;
    if (n->flags & CALL_SPAWNED) {
        /* the new task runs the call: what the function releases or keeps
         * is the task's; and a value the function names here for the last
         * time is the task's whatever the task does with it (a server's
         * handler owns the connection it is given) */
        for (int k = 0; k < n->nvars; k++) {
            int v = n->vars[k];
            if (v < 0 || v >= E->f->nvars) continue;
            uint32_t last = E->f->vars[v].last_mention;
            if (last != UINT32_MAX && last < n->site.end) {
                kill(E, s, v);
                continue;
            }
            if (!callee || !sum) continue;
            int p = eng_call_param(n, k, callee, off);
            uint64_t bit = p >= 0 && p < 64 ? 1ull << p : 0;
            if ((sum->releases | sum->takes_early | sum->takes_late) & bit) kill(E, s, v);
        }
        return 0;
    }
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
        if (callee && sum) {
            int p = eng_call_param(n, k, callee, off);
            uint64_t bit = p >= 0 && p < 64 ? 1ull << p : 0;
            if ((sum->releases | sum->takes_early) & bit) kill(E, s, v);
            else if (sum->takes_late & bit) {
                if (n->flags & CALL_AWAITED) CA_VEC_PUSH(E->late, v);
                else kill(E, s, v);
            } else if ((n->flags & CALL_IN_CLEANUP) && (!bit || (sum->uses & bit))) {
                /* in cleanup, a helper that does something with the value
                 * hands it to cleanup (how it releases may be beyond what
                 * the analysis sees: `docker rm` by name); one that ignores
                 * it does not */
                kill(E, s, v);
            }
            continue;
        }
        if (n->flags & CALL_IN_CLEANUP) {
            kill(E, s, v);
            continue;
        }
        /* `_cancel_and_wait(fut, loop=loop)` releases fut, not the loop */
        if ((n->flags & (CALL_NAME_RELEASES | CALL_NAME_REGISTERS)) && ir_arg_positional(n, k)) kill(E, s, v);
    }
    /* an awaited call raises at its await: the checkpoint that follows
     * ends the path there (its IR_CALL comes first) */
    /* (calling a coroutine or generator function runs nothing yet) */
    *noreturn = (n->flags & CALL_NORETURN) ||
                (callee && sum && sum->noreturn && callee != E->f && !(n->flags & CALL_AWAITED) && !callee->is_async &&
                 !(callee->fflags & FN_GENERATOR));
    return callee && sum && sum->has_checkpoint && (n->flags & CALL_RUNS_CALLEE) && !callee->is_async;
}

/* A finally block is walked once for the paths that complete and once for
 * those that raise, so what it releases is released on both; nested deeper
 * than this, one walk takes both (the joined state goes on either way). */
#define ENG_FINALLY_SPLIT_DEPTH 6

static void walk_try(eng_walk *E, const ir_node *t, uint8_t *s)
{
    frame fr = {st_new(E), st_new(E), st_new(E), 0};
    /* Exceptions are noted where they can arise: after a call, at an await,
     * at a raise. A body that starts with anything else may raise before
     * its first such node, so the state at entry is noted too. */
    const ir_node *first = t->a.n ? t->a.v[0] : NULL;
    /* (a release that raises still counts: `try: await x.aclose()` notes
     * its state after the release, at its await) */
    int notes_first = first && ((first->kind == IR_CALL && !(first->flags & CALL_VALUE_ONLY)) ||
                                first->kind == IR_CHECKPOINT || first->kind == IR_RELEASE);
    if (!notes_first) st_join(E, fr.a, s);
    CA_VEC_PUSH(E->trys, fr);
    int ti = (int)E->trys.n - 1;
    push_reg_try(E, ENG_REG_TRY_BODY, t, NULL, ti);
    walk_block(E, &t->a, s);
    pop_reg(E);
    if (REACH(E, s)) {
        push_reg_try(E, ENG_REG_TRY_ELSE, t, NULL, ti);
        walk_block(E, &t->b, s);
        pop_reg(E);
    }
    uint8_t *exc = E->trys.v[ti].a;
    uint8_t *cex = E->trys.v[ti].c;
    REACH(E, exc) = 1;
    uint8_t *out = st_new(E);
    st_copy(E, out, s);
    int catch_all = 0, cancel_caught = 0;
    for (int k = 0; k < t->nhandlers; k++) {
        const ir_handler *h = &t->handlers[k];
        catch_all |= (h->flags & H_BASE) != 0;
        uint8_t *hs = st_new(E);
        st_copy(E, hs, exc);
        /* (a cancellation-only path reaches the first clause that catches
         * cancellation, and no later one) */
        if ((h->flags & (H_CANCEL | H_BASE)) && !cancel_caught) {
            if (REACH(E, cex)) st_join(E, hs, cex);
            cancel_caught = 1;
        }
        eng_event ev;
        memset(&ev, 0, sizeof(ev));
        ev.kind = ENG_EV_HANDLER;
        ev.node = t;
        ev.site = h->site;
        ev.handler = h;
        emit(E, &ev, hs);
        push_reg_try(E, ENG_REG_HANDLER, t, h, ti);
        uint32_t from = E->exc_from;
        E->exc_from = h->site.start;
        walk_block(E, &h->body, hs);
        E->exc_from = from;
        pop_reg(E);
        if (REACH(E, hs)) {
            ev.kind = ENG_EV_HANDLER_EXIT;
            ev.node = NULL;
            ev.site = h->site;
            emit(E, &ev, hs);
            st_join(E, out, hs);
        }
        free(hs);
    }
    /* what leaves the try by an exception: the body's, unless a handler
     * catches everything, and whatever its handlers and else raise */
    uint8_t *esc = E->trys.v[ti].b;
    /* (a clause that catches every Exception lets only what is no
     * Exception out of the body, cancellation or an interrupt: with no
     * finally, it goes on as a cancellation does, to the first outer clause
     * that catches one, not to an outer `except Exception`) */
    int catches_exception = 0;
    for (int k = 0; k < t->nhandlers; k++) catches_exception |= (t->handlers[k].flags & H_EXCEPTION) != 0;
    int base_only = !catch_all && !t->c.n && catches_exception;
    if (!catch_all && !base_only) st_join(E, esc, exc);
    if (!cancel_caught && REACH(E, cex)) st_join(E, esc, cex);
    E->trys.n--;
    if (!t->c.n) {
        if (REACH(E, esc)) note_exc(E, esc);
        if (base_only && REACH(E, exc)) note_cancel_at(E, exc, t);
    } else if (E->split_depth < ENG_FINALLY_SPLIT_DEPTH) {
        E->split_depth++;
        push_reg(E, ENG_REG_FINALLY, t, NULL);
        if (REACH(E, out)) walk_block(E, &t->c, out);
        if (REACH(E, esc)) {
            uint32_t from = E->exc_from;
            E->exc_from = t->c.v[0]->site.start;
            walk_block(E, &t->c, esc);
            E->exc_from = from;
            pop_reg(E);
            if (REACH(E, esc)) note_exc(E, esc);
        } else {
            pop_reg(E);
        }
        E->split_depth--;
    } else {
        uint8_t *fs = st_new(E);
        st_copy(E, fs, out);
        st_join(E, fs, esc);
        REACH(E, fs) = 1;
        push_reg(E, ENG_REG_FINALLY, t, NULL);
        walk_block(E, &t->c, fs);
        pop_reg(E);
        if (REACH(E, fs)) note_exc(E, fs);
        int reach = REACH(E, out) && REACH(E, fs);
        st_copy(E, out, fs);
        REACH(E, out) = (uint8_t)reach;
        free(fs);
    }
    st_copy(E, s, out);
    free(out);
    free(exc);
    free(esc);
    free(cex);
}

/* Is v an object of a class of the tree whose __anext__ releases it when
 * cancelled? Its class is what made it: a constructor, or the class a
 * function of the tree is annotated to return (an abstract base's
 * __anext__ saying so is evidence enough here). */
static int step_releases(eng_walk *E, int v)
{
    const ir_node *a = v >= 0 && v < E->nvars ? E->acq[v] : NULL;
    if (!a || a->kind != IR_ACQUIRE) return 0;
    return (made_class(E, a, 1) & ENG_CLASS_STEP_RELEASES) != 0;
}

/* Does every path through b release x, or find it finished (`if not
 * t.done(): t.cancel() ...`, whose else knows t done)? Only what b says at
 * its own level and in the branches of an if with an else. */
static int block_settles(const ir_block *b, int x)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if ((n->kind == IR_RELEASE || n->kind == IR_DONE) && n->var == x) return 1;
        if (n->kind == IR_CONTINUE || n->kind == IR_BREAK) return 0;
        if (n->kind == IR_IF && (n->flags & IF_HAS_ELSE) && n->nbranches > 0) {
            int all = 1;
            for (int k = 0; k < n->nbranches && all; k++) all = block_settles(&n->branches[k], x);
            if (all) return 1;
        }
    }
    return 0;
}

/* `for t in tasks: if not t.done(): t.cancel()`: a loop that settles each
 * element of a container settles the container when it runs to its end.
 * The container, or -1. */
static int swept_container(const ir_node *n)
{
    if (n->flags & LOOP_ASYNC_FOR) return -1;
    /* (the element is bound at the top of the body) */
    for (int i = 0; i < n->a.n && n->a.v[i]->kind == IR_ELEMENT; i++) {
        const ir_node *e = n->a.v[i];
        if (e->var >= 0 && e->var2 >= 0 && block_settles(&n->a, e->var)) return e->var2;
    }
    return -1;
}

/* Does loop n's body start with its own test as `if c: ... else: break`
 * (IF_LOOP_TEST)? */
static int loop_test_first(const ir_node *n)
{
    if (n->a.n == 0 || n->b.n > 0) return 0;
    const ir_node *t = n->a.v[0];
    if (t->kind != IR_IF || !(t->flags & IF_LOOP_TEST) || t->nbranches != 2) return 0;
    const ir_block *e = &t->branches[1];
    return e->n > 0 && e->v[e->n - 1]->kind == IR_BREAK;
}

static void walk_loop(eng_walk *E, const ir_node *n, uint8_t *s)
{
    frame fr = {st_new(E), st_new(E), NULL, n->site.start}; /* break, continue */
    CA_VEC_PUSH(E->loops, fr);
    uint8_t *head = st_new(E), *exit = st_new(E), *body = st_new(E);
    st_copy(E, head, s);
    int settled = 0;
    for (int pass = 0; pass < ENG_LOOP_PASSES && !settled; pass++) {
        uint8_t *cur = st_new(E);
        st_copy(E, cur, head);
        walk_block(E, &n->c, cur);
        if (n->flags & LOOP_ASYNC_FOR) {
            /* a cancellation of the step is delivered in the object's
             * __anext__, which releases the object when it is cancelled */
            int ex = n->var;
            checkpoint(E, cur, n, n->site, &ex, ex >= 0 && step_releases(E, ex) ? 1 : 0);
        }
        /* (a `while c:` whose body starts with its test read as `if not
         * c: break` leaves by that break, with what the test's failure
         * says: `while not t.done():` leaves with t done) */
        if (!(n->flags & LOOP_INFINITE) && !loop_test_first(n)) st_join(E, exit, cur);
        st_copy(E, body, cur);
        walk_block(E, &n->a, body);
        uint8_t *next = st_new(E);
        st_copy(E, next, head);
        if (REACH(E, body)) st_join(E, next, body);
        st_join(E, next, E->loops.v[E->loops.n - 1].b);
        settled = memcmp(next, head, (size_t)E->nslots + 1) == 0;
        st_copy(E, head, next);
        free(next);
        free(cur);
    }
    if (!settled) E->out->limits |= ENG_LIMIT_LOOP;
    fr = E->loops.v[--E->loops.n];
    /* (run to its end, not left by a break) */
    int swept = swept_container(n);
    if (swept >= 0 && REACH(E, exit)) kill(E, exit, swept);
    if (REACH(E, exit)) walk_block(E, &n->b, exit);
    st_join(E, exit, fr.a);
    st_copy(E, s, exit);
    free(fr.a);
    free(fr.b);
    free(head);
    free(exit);
    free(body);
}

/* `async with ceil_timeout(t):` where the helper of the tree only returns
 * catalogued scopes that never suspend */
/* The function of the tree a call node resolves to, other than the one
 * being walked (with its summary in *sum), or NULL. */
static const ir_func *other_callee(eng_walk *E, const ir_node *call, const eng_summary **sum)
{
    *sum = NULL;
    if (!call || !E->res || !E->res->resolve) return NULL;
    int off = 0;
    const ir_func *callee = E->res->resolve(E->res->ctx, E->m, E->f, call, sum, &off);
    return callee != E->f ? callee : NULL;
}

static int quiet_scope(eng_walk *E, const ir_node *w)
{
    const eng_summary *sum = NULL;
    const ir_func *callee = other_callee(E, w->ref, &sum);
    return callee && sum && sum->returns == ENG_RET_QUIET_CM;
}

/* `async with f():` where f is an @asynccontextmanager of the tree whose
 * code after its yield (FN_CM_QUIET_EXIT), or before its first yield
 * (FN_CM_QUIET_ENTER), cannot suspend: that exit or entry is no checkpoint. */
static int quiet_cm(eng_walk *E, const ir_node *w, ir_fflags which)
{
    const eng_summary *sum = NULL;
    const ir_func *callee = other_callee(E, w->ref, &sum);
    return callee && (callee->fflags & which);
}

/* `async with OpTimeout(t, loop):` where OpTimeout is a class of the tree
 * whose `dunder` (`__aenter__`, `__aexit__`; its own or a base's of the
 * tree) is a coroutine that cannot suspend: that entry or exit is no
 * checkpoint. */
static int quiet_class_cm(eng_walk *E, const ir_node *w, const char *dunder)
{
    const ir_node *mk = w->ref;
    if (!mk || mk->kind != IR_CALL || !mk->text || !E->res || !E->res->resolve || !E->res->class_of) return 0;
    const char *cls = mk->text;
    /* (or a function of the tree annotated to return such a class: `async
     * with self.comm.proxy(name):` of a `def proxy(...) -> _ProxyContext`) */
    if (!(E->res->class_of(E->res->ctx, E->m, cls) & ENG_CLASS_KNOWN)) {
        const eng_summary *msum = NULL;
        int moff = 0;
        const ir_func *mf = E->res->resolve(E->res->ctx, E->m, E->f, mk, &msum, &moff);
        if (!mf || mf == E->f || mf->is_async || !mf->ret_type ||
            !(E->res->class_of(E->res->ctx, E->m, mf->ret_type) & ENG_CLASS_KNOWN))
            return 0;
        cls = mf->ret_type;
    }
    /* (the name lives as long as the module: the resolver keeps it among
     * the file's dependencies; the module is this walk's alone) */
    char *tmp = ca_xasprintf("%s.%s", cls, dunder);
    const char *t = ca_arena_strdup(&((ir_module *)E->m)->arena, tmp);
    free(tmp);
    ir_node stub = ir_call_stub(t, 0, w->site);
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *g = E->res->resolve(E->res->ctx, E->m, E->f, &stub, &sum, &off);
    return g && g != E->f && g->is_async && g->name && strcmp(g->name, dunder) == 0 && sum && !sum->suspends;
}

static void walk_with(eng_walk *E, const ir_node *w, uint8_t *s)
{
    push_reg(E, ENG_REG_WITH, w, NULL);
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
    int quiet = quiet_scope(E, w);
    if ((w->flags & WITH_ASYNC) && !(w->flags & WITH_NONSUSP_ENTER) && !quiet && !quiet_cm(E, w, FN_CM_QUIET_ENTER) &&
        !quiet_class_cm(E, w, "__aenter__"))
        checkpoint(E, s, w, w->site, NULL, 0);
    if ((w->flags & WITH_OWNS) && w->var >= 0) {
        s[w->var] = (uint8_t)((s[w->var] & ~ST_LIVE) | ST_ADOPTED);
        E->adopt[w->var] = w;
        E->acq[w->var] = w;
    } else if ((w->flags & WITH_TARGET) && w->var >= 0) {
        /* what the context manager yields is its to close: what that makes
         * (`cursor = await conn.execute(...)`) goes with it (the target is
         * no resource of this function's, so its state is left alone) */
        E->adopt[w->var] = w;
    }
    int subject = (w->flags & WITH_SUBJECT) && w->nvars > 0 && w->vars[0] >= 0 && !E->subject_of[w->vars[0]]
                      ? w->vars[0]
                      : -1;
    if (subject >= 0) E->subject_of[subject] = w;
    walk_block(E, &w->a, s);
    if (subject >= 0) E->subject_of[subject] = NULL;
    for (int v = 0; v < E->nvars; v++)
        if (E->adopt[v] == w) s[v] &= (uint8_t)~ST_ADOPTED;
    if ((w->flags & WITH_TARGET) && w->var >= 0 && E->adopt[w->var] == w) E->adopt[w->var] = NULL;
    pop_reg(E);
    if ((w->flags & WITH_ASYNC) && !(w->flags & WITH_NONSUSP_EXIT) && !quiet && REACH(E, s) &&
        !quiet_cm(E, w, FN_CM_QUIET_EXIT) && !quiet_class_cm(E, w, "__aexit__"))
        checkpoint(E, s, w, w->site, NULL, 0);
}

/* `conn, path, close_conn = await parse(target)` ... `if close_conn:
 * conn.close()`: a flag made by the same call as the value says whether the
 * value is this function's to release. Where the test fails (the fall-
 * through of an `if flag:` whose body releases the value), the value is
 * someone else's: the caller's, or a pool's. */
static void not_ours(eng_walk *E, const ir_node *n, int k, uint8_t *s)
{
    if (k < 1 || !(n->flags & IF_ONE_TEST) || n->nvars != 1 || !n->tests || n->tests[0] != TEST_TRUTHY ||
        n->nbranches < 1)
        return;
    int f = n->vars[0];
    if (f < 0 || !E->made_at[f]) return;
    for (int v = 0; v < E->nvars; v++) {
        if (v == f || E->made_at[v] != E->made_at[f] || !(s[v] & ST_LIVE)) continue;
        rel_q q = rel_q_make(E, v);
        if (!rel_q_done(&q, ir_visit(&n->branches[0], node_releases, &q))) continue;
        if (k < n->nbranches && rel_q_done(&q, ir_visit(&n->branches[k], node_releases, &q))) continue;
        kill(E, s, v);
    }
}

static void simple_event(eng_walk *E, eng_event_kind k, const ir_node *n, uint8_t *s)
{
    if (!(E->wants & ENG_ON(k))) return;
    eng_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.kind = k;
    ev.node = n;
    ev.site = n->site;
    ev.shielded = in_scope(E, WITH_SHIELD);
    ev.in_timeout = in_scope(E, WITH_TIMEOUT);
    emit(E, &ev, s);
}

/* Is v, or something that holds it (a record it was put in), marked in by?
 * For a value whose name says resource: put in a record that is released
 * or stored, it goes with the record. */
static int used_as_resource(eng_walk *E, int v, const uint8_t *by)
{
    if (by[v]) return 1;
    for (int x = 0; x < E->nvars; x++)
        if (by[x] && x != v && covers(E, x, v)) return 1;
    return 0;
}

static int note_settled(void *ctx, const ir_node *n)
{
    eng_walk *E = ctx;
    /* (an await of it returned, not a None test) */
    if (n->kind == IR_DONE && n->var >= 0 && (n->flags & (DONE_SETTLED | DONE_EXITED))) E->settled_any[n->var] = 1;
    /* (nor does one that only reads it: `isinstance(sess, T)`, `log.info(sess)`) */
    if (n->kind == IR_CALL && !(n->flags & (CALL_VALUE_ONLY | CALL_READS_ONLY)))
        for (int k = 0; k < n->nvars; k++)
            if (n->vars[k] >= 0 && !E->settled_any[n->vars[k]] && eng_call_may_keep(E, n, k)) E->settled_any[n->vars[k]] = 1;
    return 0;
}

static int dropped_everywhere(eng_walk *E, int v, const ir_node *acq)
{
    /* (a nested function or lambda that names it may release it later) */
    if (E->f->vars[v].last_mention == UINT32_MAX) return 0;
    if (used_as_resource(E, v, E->released_any) || used_as_resource(E, v, E->stored_any)) return 0;
    /* (a file object the calls it is handed to cannot take away from the
     * frame: `out = NamedTemporaryFile(delete=False)` whose name goes to a
     * tool, never closed, is dropped by the normal path as by a
     * cancellation, and closed with the frame either way) */
    if (acq && acq->rkind && strcmp(acq->rkind, "file") == 0) return 1;
    /* (what settles a value is read once, when first asked: most values
     * are released or stored somewhere, and the question needs the callees) */
    if (!E->settled_done) {
        E->settled_done = 1;
        ir_visit(&E->f->body, note_settled, E);
    }
    return !used_as_resource(E, v, E->settled_any);
}

/* Does checkpoint cp await an async helper of the tree that always raises? */
static int awaits_noreturn(eng_walk *E, const ir_node *cp)
{
    if (!(cp->flags & CP_CALL)) return 0;
    const eng_summary *sum = NULL;
    const ir_func *callee = other_callee(E, cp->ref, &sum);
    return callee && sum && sum->noreturn && !(callee->fflags & FN_GENERATOR);
}

/* What the scanned tree says of the value an acquire's call makes: 1 a
 * resource (a class of the tree that owns one, a function whose summary
 * returns one), -1 none (a class that owns nothing, a data model, a
 * function that returns plain data), 0 nothing known. */
static const char *last_dot(const char *s)
{
    const char *p = strrchr(s, '.');
    return p ? p + 1 : s;
}

/* Does the acquire's making call resolve to a function of the tree (not a
 * stub)? 0 no, or nothing known of what it returns; 2 one that hands out
 * what it keeps (ENG_RET_BORROWED); 1 one that returns plain data; 3 one
 * that returns a resource it made. */
static int tree_maker(eng_walk *E, const ir_node *acq)
{
    const ir_node *mk = acq->ref;
    if (!mk || mk->kind != IR_CALL || !mk->text) return 0;
    const eng_summary *sum = NULL;
    const ir_func *callee = other_callee(E, mk, &sum);
    if (!callee || !sum || (callee->fflags & (FN_ABSTRACT | FN_STUB))) return 0;
    if (sum->returns == ENG_RET_BORROWED || sum->returns == ENG_RET_KEPT) return 2;
    if (sum->returns == ENG_RET_PLAIN) return 1;
    return sum->returns == ENG_RET_RESOURCE || sum->returns == ENG_RET_TAKEN ? 3 : 0;
}

/* Does the thread work of executor node x run a function of the tree (not
 * a stub) that returns plain data? */
static int plain_thread_work(eng_walk *E, const ir_node *x)
{
    if (!x || x->kind != IR_EXECUTOR || !x->ref || !E->res || !E->res->resolve) return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *g = E->res->resolve(E->res->ctx, E->m, E->f, x->ref, &sum, &off);
    return g && g != E->f && sum && !(g->fflags & (FN_ABSTRACT | FN_STUB)) &&
           (sum->returns == ENG_RET_PLAIN || sum->returns == ENG_RET_KEPT);
}

/* A task tied to a scope's value: `async with connect(url) as ws: ping =
 * create_task(self._ping(ws))`, where the coroutine is a function of the
 * module that works on ws in each of its loops and gives up on its first
 * error there. A cancellation that unwinds the `async with` closes ws on
 * the way out, and the task ends at its next use of it: nothing is left
 * running for long, whatever the function's own cleanup does with it. */
typedef struct tied_q {
    const ir_node *make;  /* the acquire's making call (create_task) */
    const ir_node *spawn; /* the call of the coroutine it starts (CALL_SPAWNED) */
    const char *pname;    /* in the coroutine: the parameter the scope's value is */
    int pvar;
    int uses, bad;
} tied_q;

static int find_spawned(void *ctx, const ir_node *n)
{
    tied_q *q = ctx;
    if (n->kind == IR_CALL && (n->flags & CALL_SPAWNED) && n->site.start >= q->make->site.start &&
        n->site.end <= q->make->site.end)
        q->spawn = n;
    return q->spawn != NULL;
}

/* a use of the parameter: a method of it awaited, or it handed to an
 * awaited call */
static int uses_param(void *ctx, const ir_node *n)
{
    tied_q *q = ctx;
    if (n->kind == IR_AWAIT_CALL && n->recv && strcmp(n->recv, q->pname) == 0) q->uses = 1;
    if (n->kind == IR_CHECKPOINT && n->var == q->pvar) q->uses = 1;
    if (n->kind == IR_LOOP && (n->flags & LOOP_ASYNC_FOR) && n->var == q->pvar) q->uses = 1;
    return q->uses;
}

/* a handler inside a loop that catches ordinary errors and lets the loop
 * go on (its last statement neither returns, raises nor breaks) */
static int retries_errors(void *ctx, const ir_node *n)
{
    tied_q *q = ctx;
    if (n->kind != IR_TRY) return 0;
    for (int k = 0; k < n->nhandlers; k++) {
        const ir_handler *h = &n->handlers[k];
        int only_cancel = (h->flags & H_CANCEL) && !(h->flags & (H_BASE | H_BARE | H_EXCEPTION)) && h->catches &&
                          !strchr(h->catches, ',');
        if (only_cancel) continue;
        const ir_node *last = h->body.n ? h->body.v[h->body.n - 1] : NULL;
        if (!last || (last->kind != IR_RETURN && last->kind != IR_RAISE && last->kind != IR_BREAK)) q->bad = 1;
    }
    return q->bad;
}

static int loops_on_param(void *ctx, const ir_node *n)
{
    tied_q *q = ctx;
    if (n->kind != IR_LOOP) return 0;
    tied_q in = *q;
    in.uses = 0;
    in.bad = 0;
    if (n->flags & LOOP_ASYNC_FOR) uses_param(&in, n);
    ir_visit(&n->c, uses_param, &in);
    ir_visit(&n->a, uses_param, &in);
    ir_visit(&n->a, retries_errors, &in);
    if (!in.uses || in.bad) q->bad = 1;
    /* (its inner loops are its own body: checked for retries above) */
    return q->bad;
}

/* the coroutine call a task start makes, of any kind (held, dropped, a
 * spawner's, one in a comprehension): the outermost call inside the
 * making call (`create_task(load(info, pick(s)))`: load, not pick) */
static int find_started(void *ctx, const ir_node *n)
{
    tied_q *q = ctx;
    if (n->kind == IR_CALL && n != q->make && n->site.start > q->make->site.start &&
        n->site.end < q->make->site.end &&
        (!q->spawn || n->site.end - n->site.start > q->spawn->site.end - q->spawn->site.start))
        q->spawn = n;
    return 0;
}

/* The coroutine function a task acquisition starts, as the finder picks
 * its call out of the making call (q->spawn set), resolved; or NULL. */
static const ir_func *started_coroutine(eng_walk *E, const ir_node *n, int (*finder)(void *, const ir_node *),
                                        tied_q *q, const eng_summary **sum, int *off)
{
    *q = (tied_q){n->ref, NULL, NULL, -1, 0, 0};
    if (!n->ref || n->ref->kind != IR_CALL || !E->res || !E->res->resolve) return NULL;
    ir_visit(&E->f->body, finder, q);
    if (!q->spawn) return NULL;
    const ir_func *g = E->res->resolve(E->res->ctx, E->m, E->f, q->spawn, sum, off);
    return g && g != E->f && g->is_async && !(g->fflags & (FN_ABSTRACT | FN_STUB | FN_GENERATOR)) ? g : NULL;
}

/* A task over a coroutine of the tree that never suspends (its summary,
 * from the fixed point over the call graph): it runs to its end at its
 * first step, the loop's next turn, whatever its starter does meanwhile,
 * so no cancellation of the starter leaves it running. */
static int quiet_task(eng_walk *E, const ir_node *n)
{
    tied_q q;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *g = started_coroutine(E, n, find_started, &q, &sum, &off);
    /* (a body of nothing, `async def serve(conn): ...`, stands for code
     * that is elsewhere, as a stub does) */
    return g && g->body.n && sum && !sum->suspends;
}

static int tied_to_scope(eng_walk *E, const ir_node *n)
{
    tied_q q;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *g = started_coroutine(E, n, find_spawned, &q, &sum, &off);
    if (!g) return 0;
    /* (a coroutine of this module, whose body is at hand) */
    int here = 0;
    for (int k = 0; k < E->m->nfuncs && !here; k++) here = E->m->funcs[k] == g;
    if (!here || !g->body.n) return 0;
    for (int k = 0; k < q.spawn->nvars; k++) {
        int w = q.spawn->vars[k];
        if (w < 0 || w >= E->nvars) continue;
        /* (the value an enclosing context manager owns and closes) */
        const ir_node *with = NULL;
        for (int r = 0; r < eng_nregions(E) && !with; r++) {
            const eng_region *rg = eng_region_at(E, r);
            if (rg->kind == ENG_REG_WITH && rg->node && rg->node->var == w && (rg->node->flags & WITH_OWNS))
                with = rg->node;
        }
        if (!with) continue;
        int p = eng_call_param(q.spawn, k, g, off);
        if (p < 0 || p >= g->nvars || !g->vars[p].name) continue;
        tied_q t = q;
        t.pname = g->vars[p].name;
        t.pvar = p;
        t.bad = 0;
        int loops = 0;
        for (int i = 0; i < g->body.n; i++) loops |= g->body.v[i]->kind == IR_LOOP;
        if (!loops) {
            /* (a loop under a try of the body: `try: while True: ...
             * except Exception: log`) */
            for (int i = 0; i < g->body.n; i++)
                if (g->body.v[i]->kind == IR_TRY)
                    for (int j = 0; j < g->body.v[i]->a.n; j++) loops |= g->body.v[i]->a.v[j]->kind == IR_LOOP;
        }
        if (!loops) continue;
        ir_visit(&g->body, loops_on_param, &t);
        if (!t.bad) return 1;
    }
    return 0;
}

/* The class of the tree the value an acquire's call makes is of: the
 * constructor called (`Cls(...)`), or the class of an alternative
 * constructor of the tree (`await Cls.create(...)` annotated `-> Cls`; with
 * any_return, of any function of the tree annotated to return a class).
 * ENG_CLASS_* bits, 0 when neither says. */
static unsigned made_class_uncached(eng_walk *E, const ir_node *acq, int any_return);

/* made_class asks the tree's class table (and records a reuse dependency
 * each time): its answers per acquire, kept for the walk, which meets a
 * node again on every pass of a loop around it */
static unsigned made_class(eng_walk *E, const ir_node *acq, int any_return)
{
    size_t h = (((uintptr_t)acq >> 4) * 2 + (size_t)(any_return != 0)) % ENG_CLASS_MEMO;
    if (E->class_memo[h].node == acq && E->class_memo[h].any == (any_return != 0)) return E->class_memo[h].c;
    unsigned c = made_class_uncached(E, acq, any_return);
    E->class_memo[h].node = acq;
    E->class_memo[h].any = any_return != 0;
    E->class_memo[h].c = c;
    return c;
}

static unsigned made_class_uncached(eng_walk *E, const ir_node *acq, int any_return)
{
    const ir_node *mk = acq->ref;
    if (!mk || !mk->text || !E->res || !E->res->class_of) return 0;
    /* (`cls(...)` in a class method: an instance of the class, or of a
     * subclass, which owns what the class does) */
    const char *name = mk->text;
    if (strcmp(name, "cls") == 0 && E->f->class_name && E->f->is_method) name = E->f->class_name;
    unsigned c = E->res->class_of(E->res->ctx, E->m, name);
    if (c || mk->kind != IR_CALL) return c;
    const eng_summary *sum = NULL;
    const ir_func *callee = other_callee(E, mk, &sum);
    /* only an alternative constructor (`Cls.create()` annotated `-> Cls`):
     * another function's annotation may name an abstract base whose
     * subclasses own what the base does not */
    int ctor = callee && callee->ret_type && callee->class_name &&
               strcmp(last_dot(callee->ret_type), last_dot(callee->class_name)) == 0;
    /* (the class as the call names it, `pkg.wallet.Wallet.create`: the
     * annotation is written in the callee's module, where a bare name may
     * be one of several classes of the tree) */
    const char *md = ctor ? strrchr(mk->text, '.') : NULL;
    if (md && md - mk->text < 256) {
        char cls[256];
        memcpy(cls, mk->text, (size_t)(md - mk->text));
        cls[md - mk->text] = 0;
        if (strcmp(last_dot(cls), last_dot(callee->class_name)) == 0) c = E->res->class_of(E->res->ctx, E->m, cls);
    }
    if (!c && callee && callee->ret_type && (any_return || ctor))
        c = E->res->class_of(E->res->ctx, E->m, callee->ret_type);
    /* `FlowRun.model_validate(data)`: a method a data model of the tree
     * inherits from its library base (pydantic's validators, attrs' and
     * dataclasses' helpers), called on the class: it makes an instance */
    const char *dot = strrchr(mk->text, '.');
    const char *cl = dot;
    while (cl && cl > mk->text && cl[-1] != '.') cl--;
    /* (a name that reads as a class: `FlowRun.model_validate`, not
     * `self._client.get`) */
    if (!c && dot && cl && *cl >= 'A' && *cl <= 'Z' && dot - mk->text < 256) {
        char cls[256];
        memcpy(cls, mk->text, (size_t)(dot - mk->text));
        cls[dot - mk->text] = 0;
        /* (what resolved is a method of another class, found by its name:
         * not this class's) */
        int own = callee && callee->class_name && strcmp(last_dot(callee->class_name), last_dot(cls)) == 0;
        unsigned k = own ? 0 : E->res->class_of(E->res->ctx, E->m, cls);
        if ((k & ENG_CLASS_KNOWN) && (k & ENG_CLASS_DATA)) c = k;
    }
    return c;
}

static int class_evidence(eng_walk *E, const ir_node *acq)
{
    unsigned c = made_class(E, acq, 0);
    if (c & ENG_CLASS_KNOWN) return (c & ENG_CLASS_OWNS) ? 1 : -1;
    if (c & ENG_CLASS_DATA) return -1;
    return 0;
}

static int returns_taken(eng_walk *E, const ir_node *acq)
{
    const eng_summary *sum = NULL;
    const ir_func *callee = other_callee(E, acq->ref, &sum);
    return callee && sum && sum->returns == ENG_RET_TAKEN;
}

static int returns_borrowed(eng_walk *E, const ir_node *acq)
{
    const eng_summary *sum = NULL;
    const ir_func *callee = other_callee(E, acq->ref, &sum);
    /* (only `return self._x` itself: a value stored on some path and
     * returned on another is the caller's on the path that returns it) */
    /* (or every return hands back a call's result, that call lending it:
     * `return self._pinned_model(msg)`, a lookup into what self holds) */
    /* (or every value it returns is kept by an owner on the path that
     * returns it: ENG_RET_KEPT) */
    return callee && sum &&
           ((sum->returns == ENG_RET_BORROWED && (callee->fflags & (FN_RETURNS_BORROWED | FN_RETURNS_CALL))) ||
            sum->returns == ENG_RET_KEPT);
}

/* `_, err = await sf.open(...)` ... `if err is not None: raise err`: a
 * value the function raises is an exception (the error half of a result
 * pair), whatever the call that made it is named. */
typedef struct raised_q {
    int v, found;
} raised_q;

static int raises_var(void *ctx, const ir_node *n)
{
    raised_q *q = ctx;
    if (n->kind == IR_RAISE && n->var2 == q->v) q->found = 1;
    return q->found;
}

static int raised_value(eng_walk *E, int v)
{
    raised_q q = {v, 0};
    ir_visit(&E->f->body, raises_var, &q);
    return q.found;
}

/* `Cls(...)`, `cls_for(kind)(...)`: the making call builds an object (a
 * capitalized name, or the result of a call called), not awaited. */
static int built_in_place(const ir_node *acq)
{
    const ir_node *mk = acq->ref;
    if (!mk || mk->kind != IR_CALL || !mk->text || (mk->flags & CALL_AWAITED)) return 0;
    size_t l = strlen(mk->text);
    if (l >= 2 && strcmp(mk->text + l - 2, "()") == 0) return 1;
    const char *d = strrchr(mk->text, '.');
    const char *last = d ? d + 1 : mk->text;
    while (*last == '_') last++;
    return *last >= 'A' && *last <= 'Z';
}

/* Another branch of an `if` around acq binds the same name to what a
 * catalogued or heuristic maker made of a local kind (a connection, a
 * process: not a remote record, not a generic result). */
typedef struct sib_q {
    const ir_node *acq;
    int found;
} sib_q;

static int strong_local_acquire(void *ctx, const ir_node *n)
{
    const sib_q *q = ctx;
    return n->kind == IR_ACQUIRE && n != q->acq && n->var == q->acq->var && (n->flags & ACQ_STRONG) && n->rkind &&
           strcmp(n->rkind, "remote") != 0 && strcmp(n->rkind, "resource") != 0;
}

static int block_holds(const ir_block *b, const ir_node *acq)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *x = b->v[i];
        if (x == acq) return 1;
        if (acq->site.start >= x->site.start && acq->site.end <= x->site.end) return 1;
    }
    return 0;
}

static int sibling_if(void *ctx, const ir_node *n)
{
    sib_q *q = ctx;
    if (n->kind != IR_IF || n->nbranches < 2) return 0;
    int in = -1;
    for (int k = 0; k < n->nbranches && in < 0; k++)
        if (block_holds(&n->branches[k], q->acq)) in = k;
    if (in < 0) return 0;
    for (int k = 0; k < n->nbranches; k++)
        if (k != in && ir_visit(&n->branches[k], strong_local_acquire, q)) q->found = 1;
    return q->found;
}

static int sibling_maker(eng_walk *E, const ir_node *acq)
{
    sib_q q = {acq, 0};
    ir_visit(&E->f->body, sibling_if, &q);
    return q.found;
}

static int owns_nothing(eng_walk *E, const ir_node *acq)
{
    unsigned c = made_class(E, acq, 0);
    return (c & ENG_CLASS_KNOWN) && !(c & (ENG_CLASS_OWNS | ENG_CLASS_DATA));
}

/* A record of the tree (a data model) made with no value of this function
 * in it (`res = Resources()`, every field at its default): it holds nothing
 * until something is stored in it, and what is stored is followed as it is */
static int empty_record(eng_walk *E, const ir_node *acq)
{
    const ir_node *mk = acq->ref;
    if (!mk || !mk->text || mk->kind != IR_CALL || !E->res || !E->res->class_of) return 0;
    unsigned c = E->res->class_of(E->res->ctx, E->m, mk->text);
    if (!(c & ENG_CLASS_KNOWN) || !(c & ENG_CLASS_DATA)) return 0;
    for (int k = 0; k < mk->nvars; k++)
        if (mk->vars[k] >= 0) return 0;
    return 1;
}

static int await_within(void *ctx, const ir_node *n)
{
    const ir_site *in = ctx;
    return n->kind == IR_AWAIT_CALL && n->site.start >= in->start && n->site.end <= in->end;
}

/* `key = self._make_key(identity, scopes)`: a record of the tree (a data
 * model) put together without a suspension out of values none of which a
 * maker of this function made, the function releases or holds as a
 * resource (`Instance(proc=proc)`). It names nothing
 * this function created, so what a cleanup does with it (deleting an entry
 * stored under it) is no release of a resource. One made with a value a
 * maker made here (`SandboxHandle(raw=sandbox)`) or one the function
 * releases by itself (`Handle(name=name)` after `_force_remove(name)` on a
 * failed `docker run`), or by an awaited call, or with an await inside
 * (`Info(id=await api.create())`), may name what was created. */
static int assembled_record(eng_walk *E, const ir_node *acq)
{
    const ir_node *mk = acq->ref;
    if (!mk || mk->kind != IR_CALL || (mk->flags & CALL_AWAITED)) return 0;
    unsigned c = made_class(E, acq, 1);
    if (!(c & ENG_CLASS_KNOWN) || !(c & ENG_CLASS_DATA) || (c & ENG_CLASS_OWNS)) return 0;
    for (int k = 0; k < mk->nvars + acq->nvars; k++) {
        int x = k < mk->nvars ? mk->vars[k] : acq->vars[k - mk->nvars];
        if (x < 0 || x == acq->var) continue;
        /* (itself, or what it holds: `Handle(raw=instance)` of an
         * `instance = Instance(proc=proc)`) */
        for (int y = 0; y < E->nvars; y++)
            if (y != acq->var && !(E->f->vars[y].flags & VAR_PLAIN) &&
                (E->made_strong[y] || E->released_any[y] || E->acq[y]) && (y == x || covers(E, x, y)))
                return 0;
    }
    /* (an awaited call inside the making call's extent) */
    return !ir_visit(&E->f->body, await_within, (void *)&mk->site);
}

/* `chan = Channel(self, ...)` of a class whose constructor hands the new
 * object to an argument (`conn.add_channel(self)`), made with self or a
 * parameter: it belongs to that owner, not to this function */
static int joins_owner(eng_walk *E, const ir_node *acq)
{
    const ir_node *mk = acq->ref;
    if (!mk || mk->kind != IR_CALL || !(made_class(E, acq, 0) & ENG_CLASS_JOINS)) return 0;
    for (int k = 0; k < mk->nvars; k++) {
        int x = mk->vars[k];
        if (x >= 0 && x != acq->var && (E->f->vars[x].flags & (VAR_SELF | VAR_PARAM))) return 1;
    }
    return 0;
}

/* `stream = SSLStream(stream, ...)` on a parameter: the wrapper is made of
 * the caller's value and rebinds its name, so it is still the caller's to
 * close (a plain constructor; a catalogued maker is judged as one) */
static int rewraps_parameter(const eng_walk *E, const ir_node *acq)
{
    const ir_node *mk = acq->ref;
    int v = acq->var;
    if (!mk || mk->kind != IR_CALL || !(acq->flags & ACQ_WEAK) || v < 0) return 0;
    unsigned vf = E->f->vars[v].flags;
    if (!(vf & VAR_PARAM) || (vf & VAR_SELF)) return 0;
    for (int k = 0; k < mk->nvars; k++)
        if (mk->vars[k] == v) return 1;
    return 0;
}

static int releases_var(void *ctx, const ir_node *n)
{
    return n->kind == IR_RELEASE && n->var == *(const int *)ctx;
}

/* `connection = WebSocketConnection(stream, ...)` of a stream the function
 * was handed and closes itself on some path (`await stream.aclose()`): the
 * wrapper is made around the caller's resource, whose owner (the server
 * that accepted it, the caller) closes it; what the wrapper holds beyond it
 * lives in the function's scopes */
static int wraps_parameter(const eng_walk *E, const ir_node *acq)
{
    const ir_node *mk = acq->ref;
    if (!mk || mk->kind != IR_CALL || !(acq->flags & ACQ_WEAK) || (acq->flags & ACQ_HEURISTIC)) return 0;
    for (int k = 0; k < mk->nvars; k++) {
        int x = mk->vars[k];
        if (x < 0 || x == acq->var || !ir_arg_positional(mk, k)) continue;
        unsigned xf = E->f->vars[x].flags;
        /* (closed by a release of its own, `await stream.aclose()`; handed
         * to a cleanup call beside other values says nothing of it) */
        if ((xf & VAR_PARAM) && !(xf & VAR_SELF) && E->released_any[x] && ir_visit(&E->f->body, releases_var, &x))
            return 1;
    }
    return 0;
}

/* Does the acquire's making call resolve to a function of the tree that
 * returns one of its arguments unchanged (summary returns_param), handed a
 * value of this function? */
static int returns_argument(eng_walk *E, const ir_node *acq)
{
    const ir_node *mk = acq->ref;
    if (!mk || mk->kind != IR_CALL || !E->res || !E->res->resolve) return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *callee = E->res->resolve(E->res->ctx, E->m, E->f, mk, &sum, &off);
    if (!callee || !sum || callee == E->f || !sum->returns_param) return 0;
    for (int k = 0; k < mk->nvars; k++)
        if (mk->vars[k] >= 0 && eng_call_param(mk, k, callee, off) == sum->returns_param - 1) return 1;
    return 0;
}

typedef struct oper_q {
    const char *name;
    size_t len;
    int found;
} oper_q;

static int calls_method_of(void *ctx, const ir_node *n)
{
    oper_q *q = ctx;
    if ((n->kind == IR_CALL || n->kind == IR_AWAIT_CALL) && n->text && strncmp(n->text, q->name, q->len) == 0 &&
        n->text[q->len] == '.')
        q->found = 1;
    return q->found;
}

/* `room_id = await api.create_room(...)` ... `return room_id`: a name that
 * says a request creates something on a server (create*, launch*,
 * provision*) is also how APIs name requests that answer with a record or
 * an id of something the server keeps (a room, a flow run, the results of
 * created items). A value the function only hands back, never releasing
 * it, storing it with an owner or calling a method of it (`await
 * sb.wait_ready()`, the live handle of a sandbox), shows nothing of a
 * resource; the caller that does is judged on its own. */
static int only_handed_back(eng_walk *E, const ir_node *acq)
{
    int v = acq->var;
    if (!acq->rkind || strcmp(acq->rkind, "remote") != 0) return 0;
    if (used_as_resource(E, v, E->released_any) || used_as_resource(E, v, E->kept_any) ||
        used_as_resource(E, v, E->weak_ok))
        return 0;
    oper_q q = {E->f->vars[v].name, strlen(E->f->vars[v].name), 0};
    ir_visit(&E->f->body, calls_method_of, &q);
    return !q.found;
}

/* The function's cleanup writes a status about v (`mark_run_as_failed(run.id)`,
 * `update_run(run.id, status=FAILED)`) and nothing anywhere releases it: the
 * author keeps v as a record that outlives the call, marked failed on an
 * error, not a resource to release. */
typedef struct status_q {
    eng_walk *E;
    int v, status, released;
} status_q;

static int status_node(void *ctx, const ir_node *n)
{
    status_q *q = ctx;
    if (n->kind == IR_RELEASE && n->var >= 0 && covers(q->E, n->var, q->v)) q->released = 1;
    if (n->kind != IR_CALL || !n->text) return 0;
    for (int k = 0; k < n->nvars; k++) {
        if (n->vars[k] < 0 || !covers(q->E, n->vars[k], q->v)) continue;
        if (n->flags & CALL_NAME_RELEASES) q->released = 1;
        else if ((n->flags & CALL_IN_CLEANUP) && (n->flags & CALL_STATUS_WRITE)) q->status = 1;
    }
    return 0;
}

static int status_only(eng_walk *E, int v)
{
    status_q q = {E, v, 0, 0};
    ir_visit(&E->f->body, status_node, &q);
    return q.status && !q.released;
}

static int making_evidence(eng_walk *E, const ir_node *acq)
{
    const ir_node *mk = acq->ref;
    if (!mk || !mk->text || !E->res) return 0;
    int c = class_evidence(E, acq);
    if (c) return c;
    if (E->res->resolve) {
        const eng_summary *sum = NULL;
        int off = 0;
        const ir_func *callee = E->res->resolve(E->res->ctx, E->m, E->f, mk, &sum, &off);
        if (callee && sum && sum->returns == ENG_RET_RESOURCE) return 1;
        if (callee && sum &&
            (sum->returns == ENG_RET_PLAIN || sum->returns == ENG_RET_BORROWED || sum->returns == ENG_RET_QUIET_CM ||
             sum->returns == ENG_RET_KEPT))
            return -1;
    }
    return 0;
}

/* The values a TEST_* allows, or 0 when it says nothing of the value. */
static unsigned test_allows(int test, int negated)
{
    unsigned a;
    switch (test) {
    case TEST_TRUTHY: a = ST_TRUE; break;
    case TEST_FALSY: a = ST_FALSE | ST_NONE; break;
    case TEST_NONE: a = ST_NONE; break;
    case TEST_NOT_NONE: a = ST_TRUE | ST_FALSE; break;
    case TEST_FALSE: a = ST_FALSE; break;
    default: return 0;
    }
    return negated ? (ST_VALUE & ~a) : a;
}

/* A path enters branch k of if n (k == nbranches: the fall-through of an
 * if without else). Returns 0 when the branch's test cannot hold on it
 * (the path does not go there); else narrows what the path knows and tells
 * the listeners. */
/* Counts the nodes that bind v to a value of its own (an acquire, a loop
 * element) in a block. */
typedef struct bind_q {
    int v, n;
} bind_q;

static int count_binding(void *ctx, const ir_node *n)
{
    bind_q *q = ctx;
    if ((n->kind == IR_ACQUIRE || n->kind == IR_ELEMENT) && n->var == q->v) q->n++;
    return 0;
}

/* `if w is None: await src.next()` / `else: nxt = create_task(...)` in a
 * loop that keeps w (IF_LOOP_FIXED): a value made only in another branch
 * of the if, on an earlier pass, cannot be live in branch k, which that
 * pass did not take. */
static void other_branch_values(eng_walk *E, const ir_node *n, int k, uint8_t *s)
{
    for (int v = 0; v < E->nvars; v++) {
        if (!(s[v] & ST_LIVE)) continue;
        bind_q all = {v, 0};
        ir_visit(&E->f->body, count_binding, &all);
        int other = 0;
        for (int j = 0; j < n->nbranches && !other; j++) {
            if (j == k) continue;
            bind_q q = {v, 0};
            ir_visit(&n->branches[j], count_binding, &q);
            other = q.n > 0 && q.n == all.n;
        }
        if (other) kill(E, s, v);
    }
}

static int enter_branch(eng_walk *E, const ir_node *n, int k, uint8_t *s)
{
    if (n->kind == IR_IF && n->tests && n->nvars) {
        if (k == 0) {
            for (int i = 0; i < n->nvars; i++) {
                int v = n->vars[i];
                unsigned a = test_allows(n->tests[i], 0);
                if (v < 0 || !a) continue;
                if (!(s[v] & a)) return 0;
                s[v] = (uint8_t)((s[v] & ~ST_VALUE) | (s[v] & a));
                if (E->nflag) cond_narrow(E, s, v, a);
            }
        } else if (n->flags & IF_ONE_TEST) {
            int v = n->vars[0];
            unsigned a = test_allows(n->tests[0], 1);
            if (v >= 0 && a) {
                if (!(s[v] & a)) return 0;
                s[v] = (uint8_t)((s[v] & ~ST_VALUE) | (s[v] & a));
                if (E->nflag) cond_narrow(E, s, v, a);
            }
        }
        if (n->flags & IF_LOOP_FIXED) other_branch_values(E, n, k, s);
    }
    if (E->wants & ENG_ON(ENG_EV_BRANCH)) {
        eng_event ev;
        memset(&ev, 0, sizeof(ev));
        ev.kind = ENG_EV_BRANCH;
        ev.node = n;
        ev.site = n->site;
        ev.branch = k;
        emit(E, &ev, s);
        if (!REACH(E, s)) return 0;
    }
    return 1;
}

static void walk_node_in(eng_walk *E, const ir_node *n, uint8_t *s);

static void walk_node(eng_walk *E, const ir_node *n, uint8_t *s)
{
    if (E->nflag && n->kind == IR_ACQUIRE && n->var >= 0) {
        unsigned was = s[n->var] & ST_EXISTS;
        walk_node_in(E, n, s);
        cond_made(E, s, n->var, was);
        return;
    }
    walk_node_in(E, n, s);
}

static void walk_node_in(eng_walk *E, const ir_node *n, uint8_t *s)
{
    switch (n->kind) {
    case IR_ELEMENT:
        /* `for task in pending:` ... `for task in tasks:`: the loop's name
         * stands for an element of the container its own loop reads, not
         * of the last one the function reads under that name */
        if (n->var >= 0 && n->var2 >= 0) E->rel.element_of[n->var] = n->var2;
        if (n->var >= 0) s[n->var] &= (uint8_t)~ST_GIVEN;
        break;
    case IR_ALIAS:
        /* `pending.timeout_task = create_task(...)` after `room.pending =
         * pending` (room a parameter's object), or into a value a helper
         * lent (`room = await self._room_for(id)` of a helper that keeps
         * it in self._rooms): what is put into a value an owner outside
         * the function has is that owner's too */
        if (n->var >= 0 && n->var2 >= 0 && n->var2 < E->nvars && (s[n->var2] & ST_GIVEN) &&
            !(s[n->var2] & ST_LIVE))
            kill(E, s, n->var);
        break;
    case IR_ACQUIRE: {
        int v = n->var;
        if (v < 0) break;
        s[v] &= (uint8_t)~ST_GIVEN;
        E->made_by[v] = n->var2;
        E->made_at[v] = n->ref && n->ref->kind == IR_CALL ? n->ref : NULL;
        int ok = (n->flags & ACQ_STRONG) || ((n->flags & ACQ_WEAK) && E->weak_ok[v]) ||
                 ((n->flags & ACQ_REGISTRY_TAKE) && E->released_any[v]);
        /* `pruned = self._prune_if_needed()`, a helper that returns what it
         * took out of a registry: a take-out of this function's, once the
         * function releases it somewhere */
        int helper_take = (n->flags & ACQ_WEAK) && E->released_any[v] && returns_taken(E, n);
        if (n->flags & (ACQ_HEURISTIC | ACQ_WEAK)) {
            /* No catalog says so. A function that releases the value on an
             * error path treats it as a resource whatever it is (a handle
             * to a remote sandbox is often a plain record); otherwise what
             * the tree says of the making call decides, and a name that
             * only sounds like a resource needs the function to release or
             * store it somewhere. */
            int ev = making_evidence(E, n);
            /* (but an object built here of a class of the tree that owns
             * nothing and is no record holds nothing, whatever a cleanup
             * does with it: a record may name a remote resource) */
            int assembled = assembled_record(E, n);
            /* (unless a cleanup releases it by name and an awaited call is
             * handed it: `record = Record(name=...)`, `await
             * store.create_collection(record.name)`, `except: await
             * store.delete_collection(record.name)`; what it names exists
             * from that making call on) */
            if (assembled && E->weak_ok[v] && handed_to_await(E, v, NULL)) {
                assembled = 0;
                E->names_later[v] = 1;
            }
            /* (nor a value the function compares with a bool or a number,
             * `if result is False:`, `if added > 0:`: a flag or a count,
             * whatever the call that returned it is named) */
            if (owns_nothing(E, n) || empty_record(E, n) || assembled || rewraps_parameter(E, n) ||
                wraps_parameter(E, n) || joins_owner(E, n) || status_only(E, v) || raised_value(E, v) ||
                (E->f->vars[v].flags & VAR_SCALAR))
                ok = 0;
            /* (a message a send posted is content, not something held:
             * deleting it on an error path tidies a channel; unless the
             * tree's callee says it returns a resource it made) */
            else if ((n->flags & ACQ_MESSAGE) && ev <= 0) ok = 0;
            /* (what a helper hands back while self keeps it, `return
             * self._ws`, is self's whatever this function's cleanup does
             * with it) */
            else if (returns_borrowed(E, n)) {
                ok = 0;
                s[v] |= ST_GIVEN;
            } else if (E->weak_ok[v]) ok = 1;
            /* (`dev = cls_for(kind)(host, config=config)` on one branch,
             * `dev = await Device.connect(config=config)` on another: an
             * object built in place, not awaited, under a name another
             * branch binds to what a maker made is the same kind of thing) */
            else if (!(n->flags & ACQ_HEURISTIC) && E->made_strong[v] && ev >= 0 && built_in_place(n) &&
                     sibling_maker(E, n))
                ok = 1;
            else if (!(n->flags & ACQ_HEURISTIC)) ok = 0; /* a plain call result: only by its release */
            else if (ev != 0) ok = ev > 0;
            else if (only_handed_back(E, n)) ok = 0;
            /* (a request named like a maker of a server-side object,
             * `create_*`: a sandbox, or just as often a row, a room, a
             * group the server keeps; handing it back, or working through
             * it, is what a caller does with a record too, so only a
             * release on some path or an owner it is stored with says it
             * must be reaped; an owner given only its identity,
             * `repo.current_version_id = version.id`, is what a row gets
             * too) */
            else if (n->rkind && strcmp(n->rkind, "remote") == 0)
                ok = used_as_resource(E, v, E->released_any) || used_as_resource(E, v, E->kept_whole) ||
                     used_as_resource(E, v, E->weak_ok);
            else ok = used_as_resource(E, v, E->released_any) || used_as_resource(E, v, E->stored_any) ||
                      used_as_resource(E, v, E->weak_ok);
        }
        if (n->flags & ACQ_REGISTRY_READ) {
            E->pending_read[v] = n->text;
            E->acq[v] = n;
            s[v] |= ST_HELD;
            break;
        }
        if (helper_take) ok = 1;
        /* made inside an existing remote parent: the parent's */
        if (n->flags & ACQ_CHILD) ok = 0;
        /* a catalogued maker that is, here, a function of the tree which
         * keeps what it makes (`app.create_task(coro)` of an application
         * that adds each task to its own set and waits for them): the
         * caller borrows it */
        if (ok && (n->flags & ACQ_STRONG) && !(n->flags & ACQ_HEURISTIC)) {
            int lent = tree_maker(E, n);
            if (lent == 2) ok = 0;
            /* (a catalog pattern meant for a library's method, `*.accept`,
             * that here names a function of the tree which returns plain
             * data: what the tree does decides, as for a name) */
            else if (lent == 1) ok = E->weak_ok[v] || used_as_resource(E, v, E->released_any);
        }
        /* what a function of the tree run in a worker thread returns, when
         * that is plain data (`create_torrent_file(...)` returning a dict
         * built in place), whatever its name sounds like */
        if (ok && (n->flags & ACQ_EXECUTOR) && plain_thread_work(E, E->exec_at[v])) ok = 0;
        /* a task of the main coroutine of asyncio.run: the runner cancels
         * and waits for it when main ends, however main ends */
        if ((E->f->fflags & (FN_MAIN_TASK | FN_MAIN_ONLY)) && n->rkind && strcmp(n->rkind, "task") == 0 &&
            !(n->flags & ACQ_REGISTRY_TAKE))
            ok = 0;
        if (ok && n->rkind && strcmp(n->rkind, "task") == 0 && !(n->flags & ACQ_REGISTRY_TAKE) && tied_to_scope(E, n))
            ok = 0;
        if (ok && n->rkind && strcmp(n->rkind, "task") == 0 && !(n->flags & ACQ_REGISTRY_TAKE) && quiet_task(E, n))
            ok = 0;
        /* a value the function drops on every path, the normal one too
         * (never released, stored, returned, awaited to its end or handed
         * to a callee that keeps it): a cancellation leaves it just as the
         * function's end does, so no window of its can leak it (what leaks
         * it is the missing release, a plain leak other linters report) */
        if (ok && !(n->flags & ACQ_REGISTRY_TAKE) && !helper_take && dropped_everywhere(E, v, n)) ok = 0;
        /* `state = strip(state)`, a function of the tree that returns its
         * argument: the same object, no new value (what it was before, it
         * still is) */
        if (ok && returns_argument(E, n)) ok = 0;
        if (!ok) break;
        E->acq[v] = n;
        if (n->var2 >= 0 && E->adopt[n->var2] &&
            (((s[n->var2] & ST_ADOPTED) && !(s[n->var2] & ST_LIVE)) ||
             (E->adopt[n->var2]->kind == IR_WITH && (E->adopt[n->var2]->flags & WITH_TARGET) &&
              E->adopt[n->var2]->var == n->var2))) {
            /* made by a value a context manager owns: owned through it */
            s[v] = (uint8_t)((s[v] & ~ST_LIVE) | ST_ADOPTED);
            E->adopt[v] = E->adopt[n->var2];
            break;
        }
        /* `task = create_task(stream.data_uri())` on a stream an exit
         * stack owns: the task works on what the context manager closes
         * when it exits, and ends with it */
        if (n->rkind && strcmp(n->rkind, "task") == 0 && !(n->flags & ACQ_REGISTRY_TAKE)) {
            const ir_node *by = NULL;
            for (int k = 0; k < n->nvars && !by; k++) {
                int x = n->vars[k];
                if (x < 0 || x == v) continue;
                /* (the value, or what made it: a stream an exit stack
                 * entered is the stack's whether or not it counted here) */
                for (int hop = 0; hop < 2 && x >= 0 && !by; hop++, x = E->made_by[x]) {
                    if (E->adopt[x] && (s[x] & ST_ADOPTED) && !(s[x] & ST_LIVE)) by = E->adopt[x];
                    /* (what made it is a value an enclosing `async with x:`
                     * entered, an exit stack: what x made is closed when
                     * that with exits) */
                    for (size_t r = 0; !by && r < E->regs.n; r++)
                        if (E->regs.v[r].kind == ENG_REG_WITH && E->regs.v[r].node->var2 == x && hop > 0)
                            by = E->regs.v[r].node;
                }
            }
            if (by) {
                s[v] = (uint8_t)((s[v] & ~ST_LIVE) | ST_ADOPTED);
                E->adopt[v] = by;
                break;
            }
        }
        if (!(n->flags & ACQ_REGISTRY_TAKE) && !helper_take) {
            /* made from the subject of an enclosing `async with run(app):`
             * (`Sandbox.create(app=app)`): it lives in that activation */
            const ir_node *in = NULL;
            for (int k = 0; k < n->nvars && !in; k++)
                if (n->vars[k] >= 0 && n->vars[k] != v) in = E->subject_of[n->vars[k]];
            if (in) {
                s[v] = (uint8_t)((s[v] & ~ST_LIVE) | ST_ADOPTED);
                E->adopt[v] = in;
                break;
            }
        }
        s[v] = (uint8_t)((s[v] & ~ST_ADOPTED) | ST_LIVE);
        E->from_registry[v] = (n->flags & ACQ_REGISTRY_TAKE) != 0 || helper_take;
        if (E->from_registry[v]) simple_event(E, ENG_EV_TAKE, n, s);
        break;
    }
    case IR_TAKE:
        for (int v = 0; v < E->nvars; v++) {
            if (!E->pending_read[v] || !n->text || strcmp(E->pending_read[v], n->text) != 0) continue;
            if (!E->released_any[v]) continue;
            /* (a value this path already released, `await pw.stop()` then `del
             * cache[k]`, is not taken out again) */
            if (!(s[v] & ST_HELD)) continue;
            s[v] |= ST_LIVE;
            E->from_registry[v] = 1;
        }
        simple_event(E, ENG_EV_TAKE, n, s);
        break;
    case IR_RELEASE:
        /* an awaited step of a teardown with more steps after it: the rest
         * stays pending across this await */
        if ((n->flags & REL_PART) && (n->flags & REL_AWAITED) && n->var >= 0 &&
            E->last_release[n->var] > n->site.start) {
            CA_VEC_PUSH(E->late, n->var);
            break;
        }
        kill(E, s, n->var);
        if (n->var >= 0) s[n->var] &= (uint8_t)~ST_HELD;
        break;
    case IR_TRANSFER:
        if ((n->flags & XFER_PART) && !(n->var >= 0 && E->from_registry[n->var])) break;
        if (n->var >= 0 && !(n->flags & (XFER_RETURN | XFER_PART))) s[n->var] |= ST_GIVEN;
        /* fall through */
    case IR_DONE:
        /* a task awaited to its end settles all it holds; `x = None` drops x
         * alone: what the relation says x holds may be put in it only later
         * (`entry = None` ... `entry = Entry(sock)`), and a member still live
         * was not released by forgetting its holder */
        if (n->kind == IR_DONE && (n->flags & DONE_EXITED)) {
            /* a process waited for has exited */
            const ir_node *a = n->var >= 0 && n->var < E->nvars ? E->acq[n->var] : NULL;
            if (a && a->rkind && strcmp(a->rkind, "process") == 0) kill(E, s, n->var);
        } else if (n->kind == IR_TRANSFER || (n->flags & (DONE_SETTLED | DONE_EMPTY)) || n->var < 0) kill(E, s, n->var);
        else s[n->var] &= (uint8_t)~(ST_LIVE | ST_ADOPTED);
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
        /* an await of a function of the tree that never suspends is no
         * place where cancellation can be delivered */
        if (!(n->flags & CP_NO_SUSPEND) && eng_checkpoint_suspends(E->m, E->f, E->res, n))
            checkpoint_call(E, s, n);
        for (size_t i = 0; i < E->late.n; i++) kill(E, s, E->late.v[i]);
        E->late.n = 0;
        if (n->nvars) {
            /* an await that passes cancellation into a task raises only
             * once the task is done (it raised, or was cancelled and
             * finished: wait_for's timeout cancels and waits for it) */
            uint8_t *raised = st_new(E);
            st_copy(E, raised, s);
            for (int k = 0; k < n->nvars; k++) kill(E, raised, n->vars[k]);
            note_exc_at(E, raised, n);
            free(raised);
        } else if (n->flags & CP_CANCEL_ONLY) {
            note_cancel_at(E, s, n);
        } else {
            note_exc_at(E, s, n);
        }
        if (awaits_noreturn(E, n)) memset(s, 0, (size_t)E->nslots + 1); /* it always raises */
        break;
    case IR_CALL: {
        int noreturn = 0;
        if (apply_call(E, s, n, &noreturn)) {
            checkpoint(E, s, n, n->site, NULL, 0);
            note_exc_at(E, s, n);
        }
        if (noreturn) {
            /* a helper that always raises: the path goes on only as an
             * exception (`_raise_exec_error(...)` at the end of a handler) */
            note_exc_at(E, s, n);
            memset(s, 0, (size_t)E->nslots + 1);
        }
        break;
    }
    case IR_AWAIT_CALL:
        simple_event(E, ENG_EV_AWAIT_CALL, n, s);
        break;
    case IR_EXECUTOR:
        if (n->var >= 0) E->exec_at[n->var] = n;
        simple_event(E, ENG_EV_EXECUTOR, n, s);
        break;
    case IR_IF: {
        uint8_t *out = st_new(E);
        for (int k = 0; k < n->nbranches; k++) {
            uint8_t *bs = st_new(E);
            st_copy(E, bs, s);
            /* (a branch whose test cannot hold on this path is not taken:
             * its state joins nothing) */
            if (enter_branch(E, n, k, bs)) {
                not_ours(E, n, k, bs);
                walk_block(E, &n->branches[k], bs);
                if (REACH(E, bs)) st_join(E, out, bs);
            }
            free(bs);
        }
        if (!(n->flags & IF_HAS_ELSE)) {
            /* the fall-through: the test failed */
            uint8_t *bs = st_new(E);
            st_copy(E, bs, s);
            if (enter_branch(E, n, n->nbranches, bs)) {
                not_ours(E, n, n->nbranches, bs);
                st_join(E, out, bs);
            }
            free(bs);
        }
        st_copy(E, s, out);
        free(out);
        break;
    }
    case IR_BIND:
        if (n->var >= 0) {
            unsigned v = (n->flags & BIND_TRUE ? ST_TRUE : 0) | (n->flags & BIND_FALSE ? ST_FALSE : 0) |
                         (n->flags & BIND_NONE ? ST_NONE : 0);
            s[n->var] = (uint8_t)((s[n->var] & ~(ST_VALUE | ST_GIVEN)) | v);
            if (E->nflag) cond_bind(E, s, n->var, v);
        }
        break;
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
        if (returns_through_finally(E, s)) exit_path(E, s, n, n->site);
        memset(s, 0, (size_t)E->nslots + 1);
        break;
    case IR_RAISE:
        simple_event(E, ENG_EV_RAISE, n, s);
        note_exc_at(E, s, n);
        memset(s, 0, (size_t)E->nslots + 1);
        break;
    case IR_BREAK:
    case IR_CONTINUE:
        if (E->loops.n) {
            frame *fr = &E->loops.v[E->loops.n - 1];
            if (through_finally(E, s, fr->start + 1))
                st_join(E, n->kind == IR_BREAK ? E->loops.v[E->loops.n - 1].a : E->loops.v[E->loops.n - 1].b, s);
        }
        memset(s, 0, (size_t)E->nslots + 1);
        break;
    default:
        break;
    }
}

/* A return inside a try with a finally runs that finally (each one out to
 * the function, innermost first) before it leaves, on the ordinary path:
 * a value still live there is released there or across its awaits. Each
 * finally is walked where it stands, with the regions inside its try set
 * aside. Returns 0 when a finally ends the path (raises, or returns by
 * itself: then it has left already). */
static int returns_through_finally(eng_walk *E, uint8_t *s) { return through_finally(E, s, 0); }

/* The same for a break or continue: the finally blocks of the trys inside
 * the loop it leaves (those that start at or after `from`, the loop's
 * start) run before the loop goes on or ends. */
static int through_finally(eng_walk *E, uint8_t *s, uint32_t from)
{
    for (size_t i = E->regs.n; i-- > 0;) {
        const eng_region r = E->regs.v[i];
        if (r.node && r.node->site.start < from) break;
        /* (inside a finally, its try's other regions are gone already) */
        if ((r.kind != ENG_REG_TRY_BODY && r.kind != ENG_REG_TRY_ELSE && r.kind != ENG_REG_HANDLER) ||
            !r.node->c.n)
            continue;
        size_t n = E->regs.n - i;
        eng_region *saved = ca_xmalloc(sizeof(*saved) * n);
        int *saved_try = ca_xmalloc(sizeof(*saved_try) * n);
        memcpy(saved, E->regs.v + i, sizeof(*saved) * n);
        memcpy(saved_try, E->reg_try.v + i, sizeof(*saved_try) * n);
        E->regs.n = i;
        E->reg_try.n = i;
        push_reg(E, ENG_REG_FINALLY, r.node, NULL);
        walk_block(E, &r.node->c, s);
        pop_reg(E);
        E->regs.n = i;
        E->reg_try.n = i;
        for (size_t k = 0; k < n; k++) {
            CA_VEC_PUSH(E->regs, saved[k]);
            CA_VEC_PUSH(E->reg_try, saved_try[k]);
        }
        free(saved);
        free(saved_try);
        if (!REACH(E, s)) return 0;
    }
    return 1;
}

/* Can the call n raise? Not one the catalog says does not in practice
 * (`str(x)`, `len(x)`), nor the constructor of a data model of the tree (a
 * record: `return Handle(id=str(sb.id), raw=sb)` hands sb over, it does not
 * fall into the handler that retries), nor of a class of the tree whose own
 * __init__ only stores its parameters on self (ENG_CLASS_PLAIN_INIT) */
static int call_may_raise(eng_walk *E, const ir_node *n)
{
    if (n->flags & CALL_NO_RAISE) return 0;
    /* (what a spawned task calls runs in that task; calling a coroutine or
     * generator function of the tree, not awaited, only makes the object) */
    if (n->flags & CALL_SPAWNED) return 0;
    if (E->res && E->res->resolve) {
        const eng_summary *sum = NULL;
        int off = 0;
        const ir_func *callee = E->res->resolve(E->res->ctx, E->m, E->f, n, &sum, &off);
        if (callee && callee != E->f && (callee->is_async || (callee->fflags & FN_GENERATOR))) return 0;
    }
    if (n->text && E->res && E->res->class_of) {
        unsigned c = E->res->class_of(E->res->ctx, E->m, n->text);
        if ((c & ENG_CLASS_KNOWN) && (c & (ENG_CLASS_DATA | ENG_CLASS_PLAIN_INIT))) return 0;
    }
    return 1;
}

static void walk_block(eng_walk *E, const ir_block *b, uint8_t *s)
{
    for (int i = 0; i < b->n; i++) {
        if (!REACH(E, s)) return;
        walk_node(E, b->v[i], s);
        /* a call raises after its effects; an awaited one raises at its await */
        if (b->v[i]->kind == IR_CALL && !(b->v[i]->flags & (CALL_AWAITED | CALL_VALUE_ONLY)) &&
            call_may_raise(E, b->v[i]))
            note_exc_at(E, s, b->v[i]);
    }
}

/* The flags of cond_*: variables an `if` tests that nothing but an IR_BIND
 * gives a value (`closed = False` ... `closed = True`, or a parameter), in
 * the order of their first test, at most ENG_NFLAG of them. */
typedef struct flag_q {
    eng_walk *E;
    uint8_t *made; /* bound by something other than an IR_BIND */
    int pass;
} flag_q;

static int flag_node(void *ctx, const ir_node *n)
{
    flag_q *q = ctx;
    eng_walk *E = q->E;
    if (q->pass == 0) {
        if ((n->kind == IR_ACQUIRE || n->kind == IR_ELEMENT || n->kind == IR_EXECUTOR || n->kind == IR_WITH) &&
            n->var >= 0 && n->var < E->nvars)
            q->made[n->var] = 1;
        return 0;
    }
    if (n->kind != IR_IF || !n->tests) return 0;
    for (int i = 0; i < n->nvars && E->nflag < ENG_NFLAG; i++) {
        int w = n->vars[i];
        if (w < 0 || w >= E->nvars || q->made[w] || !test_allows(n->tests[i], 0) || flag_index(E, w) >= 0) continue;
        E->flagv[E->nflag++] = w;
    }
    return 0;
}

static void choose_flags(eng_walk *E)
{
    E->nflag = 0;
    /* (a byte per value and flag in every state: not for huge functions) */
    if (E->nvars > 4096) return;
    flag_q q = {E, ca_xcalloc((size_t)E->nvars + 1, 1), 0};
    ir_visit(&E->f->body, flag_node, &q);
    q.pass = 1;
    ir_visit(&E->f->body, flag_node, &q);
    free(q.made);
}

void eng_analyze(const ir_module *m, const ir_func *f, const eng_resolver *r, const eng_listener *ls, int nls,
                 eng_result *out)
{
    eng_walk *E = ca_xcalloc(1, sizeof(*E));
    E->m = m;
    E->f = f;
    E->res = r;
    E->out = out;
    E->nvars = f->nvars;
    eng_rel_build(&E->rel, f);
    size_t nv = (size_t)f->nvars + 1;
    E->acq = ca_xcalloc(nv, sizeof(*E->acq));
    E->adopt = ca_xcalloc(nv, sizeof(*E->adopt));
    E->subject_of = ca_xcalloc(nv, sizeof(*E->subject_of));
    E->pending_read = ca_xcalloc(nv, sizeof(*E->pending_read));
    E->weak_ok = ca_xcalloc(nv, 1);
    E->released_any = ca_xcalloc(nv, 1);
    E->from_registry = ca_xcalloc(nv, 1);
    E->stored_any = ca_xcalloc(nv, 1);
    E->kept_any = ca_xcalloc(nv, 1);
    E->kept_whole = ca_xcalloc(nv, 1);
    E->names_later = ca_xcalloc(nv, 1);
    E->settled_any = ca_xcalloc(nv, 1);
    E->made_strong = ca_xcalloc(nv, 1);
    E->made_by = ca_xmalloc(sizeof(int) * nv);
    for (size_t i = 0; i < nv; i++) E->made_by[i] = -1;
    E->made_at = ca_xcalloc(nv, sizeof(*E->made_at));
    E->exec_at = ca_xcalloc(nv, sizeof(*E->exec_at));
    E->last_release = ca_xcalloc(nv, sizeof(uint32_t));
    ir_visit(&f->body, prepass, E);
    E->ls = ca_xcalloc((size_t)nls + 1, sizeof(lstn));
    int offset = E->nvars;
    for (int i = 0; i < nls; i++) {
        E->ls[i].l = &ls[i];
        E->ls[i].offset = offset;
        offset += ls[i].nstate > 0 ? ls[i].nstate : 0;
        E->wants |= ls[i].events;
    }
    E->nls = nls;
    choose_flags(E);
    if (E->nflag) {
        E->cond_off = offset;
        offset += E->nvars * E->nflag;
    }
    E->nslots = offset;
    uint8_t *s = st_new(E);
    REACH(E, s) = 1;
    for (int v = 0; v < E->nvars; v++) s[v] = ST_VALUE; /* nothing known of any value yet */
    walk_block(E, &f->body, s);
    if (REACH(E, s)) exit_path(E, s, NULL, f->site);
    if (E->rel.limit_hit) out->limits |= ENG_LIMIT_OWNER;
    free(s);
    free(E->acq);
    free(E->adopt);
    free(E->subject_of);
    free(E->pending_read);
    free(E->weak_ok);
    free(E->released_any);
    free(E->from_registry);
    free(E->stored_any);
    free(E->kept_any);
    free(E->kept_whole);
    free(E->names_later);
    free(E->settled_any);
    free(E->made_strong);
    free(E->made_by);
    free(E->made_at);
    free(E->exec_at);
    free(E->last_release);
    free(E->ls);
    CA_VEC_FREE(E->regs);
    CA_VEC_FREE(E->reg_try);
    CA_VEC_FREE(E->loops);
    CA_VEC_FREE(E->trys);
    CA_VEC_FREE(E->late);
    CA_VEC_FREE(E->win);
    CA_VEC_FREE(E->missing);
    eng_rel_free(&E->rel);
    free(E);
}

void eng_result_free(eng_result *r)
{
    free(r->callees);
    memset(r, 0, sizeof(*r));
}
