/*
 * serial.c — the ownership IR of a file as bytes, and back (ir.h).
 *
 * So that lowering can run where a crash costs one file (a child process),
 * its output travels as one buffer: ir_encode() writes a module, ir_decode()
 * rebuilds it in a fresh arena. Layout, all integers as LEB128 varints
 * (signed ones zig-zagged):
 *
 *   "CAIR" version
 *   strings: count, then each as length + bytes (index k+1 in the body;
 *            0 stands for NULL)
 *   module:  path language diagnostic parse_errors first_error_line
 *            cancels_threads, suppressions (line rules)*, functions*,
 *            classes (name qualname site flags bases* holds*)*,
 *            spawns (func text flags via)*
 *   function: name qualname class_name site is_async is_method nparams
 *            truncated param_mentions fflags ret_type, vars (name flags
 *            stack_with first_cancel)*, body
 *   block:   count, nodes*
 *   node:    kind site flags var var2 text rkind callee cname recv ref
 *            vars* [tests* | kwnames*] a b c branches* handlers*
 *   handler: site flags catches exc_var body
 *
 * Pointers between nodes (ir_node.ref, ir_var.stack_with) are written as
 * the pre-order number of the node pointed to, plus one (0: none). The
 * decoder checks every length and index against the buffer: a truncated or
 * damaged buffer gives -1, never a read out of bounds.
 */
#include "ir/ir.h"

#include <stdlib.h>
#include <string.h>

#define IR_MAGIC "CAIR"
#define IR_VERSION 9

/* Every member of ir.h's structs is written and read here, and compared
 * member by member by tests/unit/test_ir_serial.c over the corpus: the
 * scan lowers in worker processes, so a member left out here is lost on
 * the way back and changes findings silently. A member added to one of
 * them changes its size and stops the build at these checks (LP64): carry
 * it here, compare it in the test, then update the size. (One that fits in
 * padding slips past these; the test is the check that counts.) */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(ir_site) == 24, "ir_site changed: update serial.c and test_ir_serial.c");
_Static_assert(sizeof(ir_handler) == 64, "ir_handler changed: update serial.c and test_ir_serial.c");
_Static_assert(sizeof(ir_node) == 192, "ir_node changed: update serial.c and test_ir_serial.c");
_Static_assert(sizeof(ir_var) == 32, "ir_var changed: update serial.c and test_ir_serial.c");
_Static_assert(sizeof(ir_func) == 136, "ir_func changed: update serial.c and test_ir_serial.c");
_Static_assert(sizeof(ir_class) == 72, "ir_class changed: update serial.c and test_ir_serial.c");
_Static_assert(sizeof(ir_suppress) == 16, "ir_suppress changed: update serial.c and test_ir_serial.c");
_Static_assert(sizeof(ir_spawn) == 32, "ir_spawn changed: update serial.c and test_ir_serial.c");
_Static_assert(sizeof(ir_module) == 136, "ir_module changed: update serial.c and test_ir_serial.c");
#endif

/* ------------------------------------------------------------------------ */
/* Encoding.                                                                */

typedef struct str_slot {
    const char *s;
    uint32_t idx; /* 1-based */
} str_slot;

typedef struct ptr_slot {
    const void *p;
    uint32_t idx; /* 1-based pre-order number */
} ptr_slot;

typedef struct enc {
    ca_sb body;
    CA_VEC(const char *) strs;
    str_slot *stab;
    size_t scap;
    ptr_slot *ptab;
    size_t pcap, pn;
} enc;

static void put_u(ca_sb *sb, uint64_t v)
{
    /* one append per number: a worker process encodes every module it
     * lowers (scan/contain.c), so this is on the scan's path */
    char b[10];
    size_t n = 0;
    do {
        unsigned char c = v & 0x7f;
        v >>= 7;
        if (v) c |= 0x80;
        b[n++] = (char)c;
    } while (v);
    ca_sb_add(sb, b, n);
}

static void put_i(ca_sb *sb, int64_t v) { put_u(sb, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }

static void str_grow(enc *e)
{
    size_t cap = e->scap ? e->scap * 2 : 256;
    str_slot *t = ca_xcalloc(cap, sizeof(*t));
    for (size_t i = 0; i < e->scap; i++) {
        if (!e->stab[i].s) continue;
        size_t h = ca_strhash(e->stab[i].s, strlen(e->stab[i].s)) & (cap - 1);
        while (t[h].s) h = (h + 1) & (cap - 1);
        t[h] = e->stab[i];
    }
    free(e->stab);
    e->stab = t;
    e->scap = cap;
}

static void put_s(enc *e, const char *s)
{
    if (!s) {
        put_u(&e->body, 0);
        return;
    }
    if ((e->strs.n + 1) * 2 > e->scap) str_grow(e);
    size_t len = strlen(s);
    size_t h = ca_strhash(s, len) & (e->scap - 1);
    while (e->stab[h].s && strcmp(e->stab[h].s, s) != 0) h = (h + 1) & (e->scap - 1);
    if (!e->stab[h].s) {
        CA_VEC_PUSH(e->strs, s);
        e->stab[h].s = s;
        e->stab[h].idx = (uint32_t)e->strs.n;
    }
    put_u(&e->body, e->stab[h].idx);
}

static size_t ptr_hash(const void *p, size_t cap) { return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull) & (cap - 1); }

static void ptr_add(enc *e, const void *p)
{
    if ((e->pn + 1) * 2 > e->pcap) {
        size_t cap = e->pcap ? e->pcap * 2 : 1024;
        ptr_slot *t = ca_xcalloc(cap, sizeof(*t));
        for (size_t i = 0; i < e->pcap; i++) {
            if (!e->ptab[i].p) continue;
            size_t h = ptr_hash(e->ptab[i].p, cap);
            while (t[h].p) h = (h + 1) & (cap - 1);
            t[h] = e->ptab[i];
        }
        free(e->ptab);
        e->ptab = t;
        e->pcap = cap;
    }
    size_t h = ptr_hash(p, e->pcap);
    while (e->ptab[h].p) h = (h + 1) & (e->pcap - 1);
    e->ptab[h].p = p;
    e->ptab[h].idx = (uint32_t)++e->pn;
}

static uint32_t ptr_idx(const enc *e, const void *p)
{
    if (!p || !e->pcap) return 0;
    size_t h = ptr_hash(p, e->pcap);
    while (e->ptab[h].p) {
        if (e->ptab[h].p == p) return e->ptab[h].idx;
        h = (h + 1) & (e->pcap - 1);
    }
    return 0;
}

/* Numbers nodes in the order put_node writes them (the decoder's order). */
static void number_block(enc *e, const ir_block *b)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        ptr_add(e, n);
        number_block(e, &n->a);
        number_block(e, &n->b);
        number_block(e, &n->c);
        for (int k = 0; k < n->nbranches; k++) number_block(e, &n->branches[k]);
        for (int k = 0; k < n->nhandlers; k++) number_block(e, &n->handlers[k].body);
    }
}

static void put_site(ca_sb *sb, ir_site s)
{
    put_i(sb, s.line);
    put_i(sb, s.col);
    put_i(sb, s.end_line);
    put_i(sb, s.end_col);
    put_u(sb, s.start);
    put_u(sb, s.end);
}

static void put_block(enc *e, const ir_block *b);

static void put_node(enc *e, const ir_node *n)
{
    ca_sb *sb = &e->body;
    put_u(sb, (uint64_t)n->kind);
    put_site(sb, n->site);
    put_u(sb, n->flags);
    put_i(sb, n->var);
    put_i(sb, n->var2);
    put_s(e, n->text);
    put_s(e, n->rkind);
    put_s(e, n->callee);
    put_s(e, n->cname);
    put_s(e, n->recv);
    put_u(sb, ptr_idx(e, n->ref));
    put_u(sb, (uint64_t)(n->nvars > 0 ? n->nvars : 0));
    for (int i = 0; i < n->nvars; i++) put_i(sb, n->vars[i]);
    if (n->kind == IR_IF) { /* tests and kwnames share their storage */
        put_u(sb, n->tests != NULL);
        if (n->tests)
            for (int i = 0; i < n->nvars; i++) put_u(sb, n->tests[i]);
    } else {
        put_u(sb, n->kwnames != NULL);
        if (n->kwnames)
            for (int i = 0; i < n->nvars; i++) put_s(e, n->kwnames[i]);
    }
    put_block(e, &n->a);
    put_block(e, &n->b);
    put_block(e, &n->c);
    put_u(sb, (uint64_t)n->nbranches);
    for (int i = 0; i < n->nbranches; i++) put_block(e, &n->branches[i]);
    put_u(sb, (uint64_t)n->nhandlers);
    for (int i = 0; i < n->nhandlers; i++) {
        const ir_handler *h = &n->handlers[i];
        put_site(sb, h->site);
        put_u(sb, h->flags);
        put_s(e, h->catches);
        put_i(sb, h->exc_var);
        put_block(e, &h->body);
    }
}

static void put_block(enc *e, const ir_block *b)
{
    put_u(&e->body, (uint64_t)b->n);
    for (int i = 0; i < b->n; i++) put_node(e, b->v[i]);
}

void ir_encode(const ir_module *m, ca_sb *out)
{
    enc e;
    memset(&e, 0, sizeof(e));
    for (int k = 0; k < m->nfuncs; k++) number_block(&e, &m->funcs[k]->body);
    ca_sb *sb = &e.body;
    put_s(&e, m->path);
    put_s(&e, m->language);
    put_s(&e, m->diagnostic);
    put_i(sb, m->parse_errors);
    put_i(sb, m->first_error_line);
    put_i(sb, m->cancels_threads);
    put_u(sb, (uint64_t)m->nsupp);
    for (int i = 0; i < m->nsupp; i++) {
        put_i(sb, m->supp[i].line);
        put_s(&e, m->supp[i].rules);
    }
    put_u(sb, (uint64_t)m->nfuncs);
    for (int k = 0; k < m->nfuncs; k++) {
        const ir_func *f = m->funcs[k];
        put_s(&e, f->name);
        put_s(&e, f->qualname);
        put_s(&e, f->class_name);
        put_site(sb, f->site);
        put_i(sb, f->is_async);
        put_i(sb, f->is_method);
        put_i(sb, f->nparams);
        put_i(sb, f->truncated);
        put_u(sb, f->param_mentions);
        put_u(sb, f->fflags);
        put_s(&e, f->ret_type);
        put_u(sb, (uint64_t)f->nvars);
        for (int i = 0; i < f->nvars; i++) {
            const ir_var *v = &f->vars[i];
            put_s(&e, v->name);
            put_u(sb, v->flags);
            put_u(sb, ptr_idx(&e, v->stack_with));
            put_u(sb, v->first_cancel);
            put_u(sb, v->last_mention);
        }
        put_block(&e, &f->body);
    }
    put_u(sb, (uint64_t)m->nclasses);
    for (int k = 0; k < m->nclasses; k++) {
        const ir_class *c = m->classes[k];
        put_s(&e, c->name);
        put_s(&e, c->qualname);
        put_site(sb, c->site);
        put_u(sb, c->flags);
        put_u(sb, (uint64_t)c->nbases);
        for (int i = 0; i < c->nbases; i++) put_s(&e, c->bases[i]);
        put_u(sb, (uint64_t)c->nholds);
        for (int i = 0; i < c->nholds; i++) put_s(&e, c->holds[i]);
    }
    put_u(sb, (uint64_t)m->nspawns);
    for (int k = 0; k < m->nspawns; k++) {
        put_i(sb, m->spawns[k].func);
        put_s(&e, m->spawns[k].text);
        put_u(sb, m->spawns[k].flags);
        put_s(&e, m->spawns[k].via);
    }
    ca_sb_add(out, IR_MAGIC, 4);
    put_u(out, IR_VERSION);
    put_u(out, e.strs.n);
    for (size_t i = 0; i < e.strs.n; i++) {
        size_t len = strlen(e.strs.v[i]);
        put_u(out, len);
        ca_sb_add(out, e.strs.v[i], len);
    }
    ca_sb_add(out, e.body.buf ? e.body.buf : "", e.body.len);
    ca_sb_release(&e.body);
    CA_VEC_FREE(e.strs);
    free(e.stab);
    free(e.ptab);
}

/* ------------------------------------------------------------------------ */
/* Decoding.                                                                */

typedef struct dec {
    const unsigned char *p, *end;
    int bad;
    ir_module *m;
    char **strs;
    size_t nstrs;
    CA_VEC(ir_node *) nodes;   /* pre-order, as numbered by the encoder */
    CA_VEC(ir_node *) fix_ref; /* nodes whose ref holds a number to resolve */
    CA_VEC(ir_var *) fix_var;  /* vars whose stack_with holds a number */
    int depth;
} dec;

static uint64_t get_u(dec *d)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (d->p >= d->end) {
            d->bad = 1;
            return 0;
        }
        unsigned char b = *d->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    d->bad = 1;
    return 0;
}

static int64_t get_i(dec *d)
{
    uint64_t u = get_u(d);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static int get_int(dec *d)
{
    int64_t v = get_i(d);
    if (v < INT32_MIN || v > INT32_MAX) d->bad = 1;
    return d->bad ? 0 : (int)v;
}

static uint32_t get_u32(dec *d)
{
    uint64_t v = get_u(d);
    if (v > UINT32_MAX) d->bad = 1;
    return d->bad ? 0 : (uint32_t)v;
}

/* A count of items each at least one byte long: never more than the bytes left. */
static size_t get_count(dec *d)
{
    uint64_t v = get_u(d);
    if (v > (uint64_t)(d->end - d->p)) d->bad = 1;
    return d->bad ? 0 : (size_t)v;
}

static const char *get_s(dec *d)
{
    uint64_t k = get_u(d);
    if (k == 0 || d->bad) return NULL;
    if (k > d->nstrs) {
        d->bad = 1;
        return NULL;
    }
    return d->strs[k - 1];
}

static ir_site get_site(dec *d)
{
    ir_site s;
    s.line = get_int(d);
    s.col = get_int(d);
    s.end_line = get_int(d);
    s.end_col = get_int(d);
    s.start = get_u32(d);
    s.end = get_u32(d);
    return s;
}

static void get_block(dec *d, ir_block *b);

static ir_node *get_node(dec *d)
{
    ir_module *m = d->m;
    uint64_t kind = get_u(d);
    if (kind > IR_BIND) d->bad = 1;
    ir_node *n = ir_node_new(m, (ir_kind)kind, get_site(d));
    CA_VEC_PUSH(d->nodes, n);
    n->flags = get_u32(d);
    n->var = get_int(d);
    n->var2 = get_int(d);
    n->text = get_s(d);
    n->rkind = get_s(d);
    n->callee = get_s(d);
    n->cname = get_s(d);
    n->recv = get_s(d);
    uint64_t ref = get_u(d);
    if (ref) {
        n->ref = (ir_node *)(uintptr_t)ref;
        CA_VEC_PUSH(d->fix_ref, n);
    }
    size_t nv = get_count(d);
    n->nvars = (int)nv;
    n->vars = ca_arena_alloc(&m->arena, sizeof(int) * (nv ? nv : 1));
    for (size_t i = 0; i < nv && !d->bad; i++) n->vars[i] = get_int(d);
    if (n->kind == IR_IF) {
        if (get_u(d)) {
            uint8_t *t = ca_arena_alloc(&m->arena, nv ? nv : 1);
            for (size_t i = 0; i < nv && !d->bad; i++) {
                uint64_t x = get_u(d);
                if (x > 255) d->bad = 1;
                t[i] = (uint8_t)x;
            }
            n->tests = t;
        }
    } else if (get_u(d)) {
        n->kwnames = ca_arena_alloc(&m->arena, sizeof(char *) * (nv ? nv : 1));
        for (size_t i = 0; i < nv && !d->bad; i++) n->kwnames[i] = get_s(d);
    }
    if (d->bad) return n;
    if (++d->depth > 4 * IR_MAX_DEPTH + 16) { /* the encoder never nests this deep */
        d->bad = 1;
        return n;
    }
    get_block(d, &n->a);
    get_block(d, &n->b);
    get_block(d, &n->c);
    size_t nb = get_count(d);
    if (nb) {
        n->branches = ca_arena_alloc(&m->arena, sizeof(ir_block) * nb);
        for (size_t i = 0; i < nb && !d->bad; i++) get_block(d, &n->branches[n->nbranches++]);
    }
    size_t nh = get_count(d);
    if (nh) {
        n->handlers = ca_arena_alloc(&m->arena, sizeof(ir_handler) * nh);
        for (size_t i = 0; i < nh && !d->bad; i++) {
            ir_handler *h = &n->handlers[n->nhandlers++];
            h->site = get_site(d);
            h->flags = get_u32(d);
            h->catches = get_s(d);
            h->exc_var = get_int(d);
            get_block(d, &h->body);
        }
    }
    d->depth--;
    return n;
}

static void get_block(dec *d, ir_block *b)
{
    size_t n = get_count(d);
    for (size_t i = 0; i < n && !d->bad; i++) ir_block_push(d->m, b, get_node(d));
}

/* Every variable a node or handler names is one of its function's. */
typedef struct check_q {
    int nvars;
} check_q;

static int var_ok(int v, int n) { return v >= -1 && v < n; }

static int bad_vars(void *ctx, const ir_node *n)
{
    const check_q *q = ctx;
    if (!var_ok(n->var, q->nvars) || !var_ok(n->var2, q->nvars)) return 1;
    for (int i = 0; i < n->nvars; i++)
        if (!var_ok(n->vars[i], q->nvars)) return 1;
    for (int i = 0; i < n->nhandlers; i++)
        if (!var_ok(n->handlers[i].exc_var, q->nvars)) return 1;
    return 0;
}

static int check_vars(const ir_module *m)
{
    for (int k = 0; k < m->nfuncs; k++) {
        check_q q = {m->funcs[k]->nvars};
        if (ir_visit(&m->funcs[k]->body, bad_vars, &q)) return -1;
    }
    return 0;
}

int ir_decode(const char *buf, size_t len, ir_module *m)
{
    memset(m, 0, sizeof(*m));
    dec d;
    memset(&d, 0, sizeof(d));
    d.p = (const unsigned char *)buf;
    d.end = d.p + len;
    d.m = m;
    if (len < 4 || memcmp(buf, IR_MAGIC, 4) != 0) return -1;
    d.p += 4;
    if (get_u(&d) != IR_VERSION) return -1;
    d.nstrs = get_count(&d);
    d.strs = ca_xcalloc(d.nstrs + 1, sizeof(char *));
    for (size_t i = 0; i < d.nstrs && !d.bad; i++) {
        uint64_t sl = get_u(&d);
        if (sl > (uint64_t)(d.end - d.p)) {
            d.bad = 1;
            break;
        }
        d.strs[i] = ca_arena_strndup(&m->arena, (const char *)d.p, (size_t)sl);
        d.p += sl;
    }
    if (!d.bad) {
        m->path = get_s(&d);
        m->language = get_s(&d);
        const char *diag = get_s(&d);
        m->diagnostic = diag ? ca_xstrdup(diag) : NULL;
        m->parse_errors = get_int(&d);
        m->first_error_line = get_int(&d);
        m->cancels_threads = get_int(&d);
        size_t ns = get_count(&d);
        if (ns) {
            m->supp = ca_arena_alloc(&m->arena, sizeof(ir_suppress) * ns);
            m->cap_supp = (int)ns;
        }
        for (size_t i = 0; i < ns && !d.bad; i++) {
            m->supp[i].line = get_int(&d);
            m->supp[i].rules = get_s(&d);
            if (!m->supp[i].rules) d.bad = 1;
            m->nsupp++;
        }
        size_t nf = get_count(&d);
        for (size_t k = 0; k < nf && !d.bad; k++) {
            ir_func *f = ir_func_new(m);
            f->name = get_s(&d);
            f->qualname = get_s(&d);
            f->class_name = get_s(&d);
            f->site = get_site(&d);
            f->is_async = get_int(&d);
            f->is_method = get_int(&d);
            f->nparams = get_int(&d);
            f->truncated = get_int(&d);
            f->param_mentions = get_u(&d);
            f->fflags = get_u(&d);
            f->ret_type = get_s(&d);
            size_t nv = get_count(&d);
            f->vars = ca_arena_alloc(&m->arena, sizeof(ir_var) * (nv ? nv : 1));
            f->cap_vars = (int)(nv ? nv : 1);
            for (size_t i = 0; i < nv && !d.bad; i++) {
                ir_var *v = &f->vars[f->nvars++];
                v->name = get_s(&d);
                v->flags = get_u32(&d);
                uint64_t sw = get_u(&d);
                if (sw) {
                    v->stack_with = (ir_node *)(uintptr_t)sw;
                    CA_VEC_PUSH(d.fix_var, v);
                }
                v->first_cancel = get_u32(&d);
                v->last_mention = get_u32(&d);
                if (!v->name) d.bad = 1;
            }
            if (!f->name || !f->qualname || f->nparams < 0 || f->nparams > f->nvars) d.bad = 1;
            if (!d.bad) get_block(&d, &f->body);
        }
        size_t nc = d.bad ? 0 : get_count(&d);
        for (size_t k = 0; k < nc && !d.bad; k++) {
            ir_class *c = ir_class_new(m);
            c->name = get_s(&d);
            c->qualname = get_s(&d);
            c->site = get_site(&d);
            c->flags = get_u32(&d);
            size_t nb = get_count(&d);
            c->bases = ca_arena_alloc(&m->arena, sizeof(char *) * (nb ? nb : 1));
            for (size_t i = 0; i < nb && !d.bad; i++) {
                c->bases[c->nbases] = get_s(&d);
                if (!c->bases[c->nbases++]) d.bad = 1;
            }
            size_t nh = d.bad ? 0 : get_count(&d);
            c->holds = ca_arena_alloc(&m->arena, sizeof(char *) * (nh ? nh : 1));
            c->cap_holds = (int)nh;
            for (size_t i = 0; i < nh && !d.bad; i++) {
                c->holds[c->nholds] = get_s(&d);
                if (!c->holds[c->nholds++]) d.bad = 1;
            }
            if (!c->name || !c->qualname) d.bad = 1;
        }
        size_t nsp = d.bad ? 0 : get_count(&d);
        for (size_t k = 0; k < nsp && !d.bad; k++) {
            int fi = get_int(&d);
            const char *t = get_s(&d);
            unsigned fl = get_u32(&d);
            const char *via = get_s(&d);
            if (!t || fi < 0 || (fi >= m->nfuncs && !(fl & SPAWN_EXPORT)) || (!via) != !(fl & (SPAWN_VIA | SPAWN_EXPORT | SPAWN_DECORATION)))
                d.bad = 1;
            else ir_spawn_add_via(m, fi, t, fl, via);
        }
    }
    if (!d.bad && d.p != d.end) d.bad = 1;
    /* resolve node numbers, and check every variable index */
    for (size_t i = 0; i < d.fix_ref.n && !d.bad; i++) {
        uintptr_t k = (uintptr_t)d.fix_ref.v[i]->ref;
        if (k > d.nodes.n) d.bad = 1;
        else d.fix_ref.v[i]->ref = d.nodes.v[k - 1];
    }
    for (size_t i = 0; i < d.fix_var.n && !d.bad; i++) {
        uintptr_t k = (uintptr_t)d.fix_var.v[i]->stack_with;
        if (k > d.nodes.n) d.bad = 1;
        else d.fix_var.v[i]->stack_with = d.nodes.v[k - 1];
    }
    free(d.strs);
    CA_VEC_FREE(d.nodes);
    CA_VEC_FREE(d.fix_ref);
    CA_VEC_FREE(d.fix_var);
    if (!d.bad && check_vars(m) != 0) d.bad = 1;
    if (d.bad) {
        ir_module_free(m);
        return -1;
    }
    return 0;
}
