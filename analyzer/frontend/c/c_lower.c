/*
 * c_lower.c — lowering C (libclang) to the ownership IR; see c_frontend.h.
 *
 * Where it sits: discover → parse → **lower** → rules, beside py_frontend.c
 * and with the same shape: a per-file context, statements lowered
 * recursively with a depth bound (IR_MAX_DEPTH, then a diagnostic),
 * expressions walked post-order with an explicit stack (evaluation order).
 * All library knowledge comes from the catalog (rules/catalog/c.cat); the
 * only names tested here are the language's own. A file's flags come from
 * its c_project (c_compdb.c); libclang from c_libclang.c.
 *
 * Sections: source positions, access paths and variables, expressions,
 * statements (including pthread_cleanup_push/pop regions and goto-based
 * cleanup), functions and the module (diagnostics, suppression comments).
 *
 * pthread_cleanup_push/pop are macros that open and close a block; how a C
 * library spells them differs (glibc: do { … __sigsetjmp … do {, musl: a
 * struct and two calls), and without <pthread.h> they are plain calls. So
 * the pairs are found in the file's tokens, and a region is the statements
 * whose expansion position lies between the push and its pop, whatever the
 * expansion made of the block structure around them.
 */
#include "frontend/c/c_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

#ifndef CA_HAVE_LIBCLANG_H

/* Built without libclang's headers: C files are reported, not lowered. */
struct c_frontend {
    int unused;
};
c_frontend *c_frontend_new(const ca_catalog *cat, const c_project *proj)
{
    (void)cat;
    (void)proj;
    return ca_xcalloc(1, sizeof(c_frontend));
}
void c_frontend_free(c_frontend *fe) { free(fe); }
int c_lower(c_frontend *fe, const char *path, const char *src, size_t len, ir_module *m)
{
    (void)fe;
    (void)src;
    (void)len;
    m->path = ca_arena_strdup(&m->arena, path);
    m->language = "c";
    m->diagnostic = ca_xstrdup("C frontend not built (libclang headers were missing at build time)");
    return -1;
}

#else

struct c_frontend {
    const ca_catalog *cat;
    const c_project *proj;
    CXIndex index;
};

c_frontend *c_frontend_new(const ca_catalog *cat, const c_project *proj)
{
    c_frontend *fe = ca_xcalloc(1, sizeof(*fe));
    fe->cat = cat;
    fe->proj = proj;
    return fe;
}

void c_frontend_free(c_frontend *fe)
{
    if (!fe) return;
    if (fe->index) c_cx.clang_disposeIndex(fe->index);
    free(fe);
}

/* ------------------------------------------------------------------------ */
/* The lowering context.                                                    */

typedef CA_VEC(CXCursor) cur_vec;

/* One pthread_cleanup_push ... pthread_cleanup_pop pair, from the tokens. */
typedef struct cl_pair {
    unsigned push_off, push_end, pop_off, pop_end;
    const char *routine;    /* the cleanup routine's name (casts dropped) or NULL */
    const char *arg_path;   /* access path of its argument, or NULL */
    const char *arg_root;
    int execute;            /* the pop's argument is not literally 0 */
    const char *text;       /* "pthread_cleanup_push(unlock, &p->lock)" */
    int used;
} cl_pair;

enum { OWN_LOCAL, OWN_PARAM, OWN_GLOBAL, OWN_DERIVED };

typedef struct vinfo {
    int root;               /* the variable an access path hangs from; -1 for plain ones */
    unsigned char own;      /* OWN_*: whose memory the variable names / points into */
    unsigned char acquired; /* holds something this function acquired */
} vinfo;

typedef struct goto_target {
    const char *label;
    int real_loops;         /* loops/switches open when the wrapper began */
} goto_target;

/* A helper of this translation unit that takes a lock, or releases
 * something, for its caller: `static void queue_lock(struct queue *q)
 * { pthread_mutex_lock(&q->mu); }`. A call of it is lowered as the call it
 * wraps, on the caller's access path. */
typedef struct lock_wrap {
    const char *name;
    int param;                 /* the argument the path hangs from; -1: a global */
    const char *root;          /* the global (param -1) */
    const char *suffix;        /* "->mu", ".mu", "" */
    const ca_cat_entry *lock;  /* the lock taken; NULL: a release */
} lock_wrap;

typedef struct cl {
    const ca_catalog *cat;
    ir_module *m;
    CXTranslationUnit tu;
    CXFile file;
    const char *src;
    unsigned len;
    CA_VEC(unsigned) lines;          /* byte offset of each line start */
    CA_VEC(cl_pair) pairs;
    CA_VEC(ir_node *) routine_calls; /* cleanup routine calls to check against this file's definitions */
    CA_VEC(lock_wrap) wraps;
    /* per function */
    ir_func *f;
    CA_VEC(vinfo) vi;
    int depth, too_deep;
    int cancel_off;                  /* pthread_setcancelstate(DISABLE) seen, not yet restored */
    ir_node *async_on;               /* the pthread_setcanceltype(ASYNCHRONOUS) call in force */
    CA_VEC(goto_target) targets;
    int real_loops;
    CXCursor pend;                   /* an acquiring call whose result is not bound yet */
    const ca_cat_entry *pend_acq;
    int have_pend;
    CA_VEC(ir_node *) paired;        /* lock acquires that count only when released too */
    ir_site fsite;
} cl;

static const ca_cat_entry *cat(cl *L, ca_cat_kind k, const char *s) { return s ? ca_catalog_match(L->cat, k, s) : NULL; }

static char *cxs(cl *L, CXString s)
{
    const char *c = c_cx.clang_getCString(s);
    char *r = ca_arena_strdup(&L->m->arena, c ? c : "");
    c_cx.clang_disposeString(s);
    return r;
}

static enum CXCursorKind kind(CXCursor c) { return c_cx.clang_getCursorKind(c); }

static enum CXChildVisitResult collect_cb(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    cur_vec *v = d;
    CA_VEC_PUSH(*v, c);
    return CXChildVisit_Continue;
}

static void children(CXCursor c, cur_vec *out)
{
    out->n = 0;
    c_cx.clang_visitChildren(c, collect_cb, out);
}

/* ------------------------------------------------------------------------ */
/* Positions: expansion locations in the main file.                         */

static int loc_off(cl *L, CXSourceLocation loc, unsigned *off)
{
    CXFile f = NULL;
    unsigned line, col, o;
    c_cx.clang_getExpansionLocation(loc, &f, &line, &col, &o);
    if (!f || !c_cx.clang_File_isEqual(f, L->file) || o > L->len) return 0;
    *off = o;
    return 1;
}

/* [start, end) byte offsets of a cursor in the main file; 0 when it is not there. */
static int extent(cl *L, CXCursor c, unsigned *s, unsigned *e)
{
    CXSourceRange r = c_cx.clang_getCursorExtent(c);
    if (!loc_off(L, c_cx.clang_getRangeStart(r), s)) return 0;
    if (!loc_off(L, c_cx.clang_getRangeEnd(r), e) || *e < *s) *e = *s;
    return 1;
}

static unsigned start_off(cl *L, CXCursor c)
{
    unsigned s = 0, e = 0;
    return extent(L, c, &s, &e) ? s : UINT_MAX;
}

static void line_col(cl *L, unsigned off, int *line, int *col)
{
    size_t lo = 0, hi = L->lines.n;
    while (lo + 1 < hi) {
        size_t mid = (lo + hi) / 2;
        if (L->lines.v[mid] <= off) lo = mid;
        else hi = mid;
    }
    *line = (int)lo + 1;
    int n = 0;
    for (unsigned i = L->lines.v[lo]; i < off && i < L->len; i++)
        if (((unsigned char)L->src[i] & 0xC0) != 0x80) n++;
    *col = n + 1;
}

static ir_site site_span(cl *L, unsigned s, unsigned e)
{
    ir_site st;
    line_col(L, s, &st.line, &st.col);
    line_col(L, e, &st.end_line, &st.end_col);
    st.start = s;
    st.end = e;
    return st;
}

static ir_site site_of(cl *L, CXCursor c)
{
    unsigned s, e;
    if (!extent(L, c, &s, &e)) return L->fsite;
    return site_span(L, s, e);
}

/* Source text [s, e) with whitespace runs collapsed, capped. */
static char *span_text(cl *L, unsigned s, unsigned e, size_t cap)
{
    if (e > L->len) e = L->len;
    char *out = ca_arena_alloc(&L->m->arena, (e > s ? e - s : 0) + 4);
    size_t o = 0;
    int sp = 0;
    for (unsigned i = s; i < e && o < cap; i++) {
        char c = L->src[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
            sp = 1;
            continue;
        }
        if (sp && o) out[o++] = ' ';
        sp = 0;
        out[o++] = c;
    }
    if (o >= cap && e > s) {
        out[o++] = '.';
        out[o++] = '.';
    }
    out[o] = 0;
    return out;
}

static char *cursor_text(cl *L, CXCursor c, size_t cap)
{
    unsigned s, e;
    if (!extent(L, c, &s, &e) || e <= s) return NULL;
    return span_text(L, s, e, cap);
}

/* The operator between two operands, from the source bytes; NULL when they
 * come from a macro or anything else sits between them. */
static const char *op_between(cl *L, unsigned from, unsigned to)
{
    if (from >= to || to - from > 16 || to > L->len) return NULL;
    char buf[8];
    size_t n = 0;
    for (unsigned i = from; i < to; i++) {
        char c = L->src[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        if (!strchr("=!<>&|+-*/%^~", c) || n + 1 >= sizeof(buf)) return NULL;
        buf[n++] = c;
    }
    buf[n] = 0;
    return n ? ca_arena_strdup(&L->m->arena, buf) : NULL;
}

/* ------------------------------------------------------------------------ */
/* Expressions: stripping, operators, constants.                            */

/* The want-th expression child (want < 0: the last); *count gets how many
 * expression children there are. */
static int nth_expr_child(CXCursor c, int want, CXCursor *out, int *count)
{
    cur_vec v = {0};
    children(c, &v);
    int k = 0, found = 0;
    for (size_t i = 0; i < v.n; i++) {
        if (!c_cx.clang_isExpression(kind(v.v[i]))) continue;
        if (k == want || want < 0) {
            *out = v.v[i];
            found = 1;
        }
        k++;
    }
    if (count) *count = k;
    CA_VEC_FREE(v);
    return found;
}

/* Drop parentheses, casts and implicit conversions. An unexposed node that
 * covers more than its only child (error recovery) is kept. */
static CXCursor strip(cl *L, CXCursor c)
{
    for (int guard = 0; guard < 64; guard++) {
        enum CXCursorKind k = kind(c);
        CXCursor ch;
        int n = 0;
        if (k == CXCursor_ParenExpr || k == CXCursor_CStyleCastExpr) {
            if (!nth_expr_child(c, -1, &ch, &n)) return c;
            c = ch;
            continue;
        }
        if (k == CXCursor_UnexposedExpr) {
            if (!nth_expr_child(c, 0, &ch, &n) || n != 1) return c;
            unsigned s1, e1, s2, e2;
            int a = extent(L, c, &s1, &e1), b = extent(L, ch, &s2, &e2);
            if (a && b && (s1 != s2 || e1 != e2)) return c;
            c = ch;
            continue;
        }
        return c;
    }
    return c;
}

static int type_is_pointer(CXType t) { return t.kind == CXType_Pointer; }

/* '&', '*' or another unary operator ("!", "-", ...); NULL when unknown. */
static const char *unary_op(cl *L, CXCursor u, CXCursor *operand)
{
    CXCursor ch;
    if (!nth_expr_child(u, 0, &ch, NULL)) return NULL;
    *operand = ch;
    CXType tu = c_cx.clang_getCanonicalType(c_cx.clang_getCursorType(u));
    CXType tc = c_cx.clang_getCanonicalType(c_cx.clang_getCursorType(ch));
    if (type_is_pointer(tu) && tc.kind != CXType_Invalid &&
        c_cx.clang_equalTypes(c_cx.clang_getCanonicalType(c_cx.clang_getPointeeType(tu)), tc))
        return "&";
    if (type_is_pointer(tc) && tu.kind != CXType_Invalid &&
        c_cx.clang_equalTypes(c_cx.clang_getCanonicalType(c_cx.clang_getPointeeType(tc)), tu))
        return "*";
    unsigned s, e, cs, ce;
    if (extent(L, u, &s, &e) && extent(L, ch, &cs, &ce) && s < cs) return op_between(L, s, cs);
    return NULL;
}

static const char *binary_op(cl *L, CXCursor b, CXCursor *lhs, CXCursor *rhs)
{
    int n = 0;
    if (!nth_expr_child(b, 0, lhs, &n) || n != 2 || !nth_expr_child(b, 1, rhs, NULL)) return NULL;
    unsigned ls, le, rs, re;
    if (!extent(L, *lhs, &ls, &le) || !extent(L, *rhs, &rs, &re)) return NULL;
    return op_between(L, le, rs);
}

/* An integer constant as written (0, -1, NULL); 0 when it is none. */
static int const_value(cl *L, CXCursor c, long *val)
{
    char *t = cursor_text(L, strip(L, c), 32);
    if (!t) return 0;
    while (*t == '(') t++;
    size_t n = strlen(t);
    while (n && t[n - 1] == ')') t[--n] = 0;
    if (strcmp(t, "NULL") == 0 || strcmp(t, "nullptr") == 0 || strcmp(t, "(void*)0") == 0 ||
        strcmp(t, "(void *)0") == 0) {
        *val = 0;
        return 1;
    }
    char *end;
    errno = 0;
    long v = strtol(t, &end, 0);
    if (errno || end == t || *end) return 0;
    *val = v;
    return 1;
}

/* The callee of a direct call (a declared or implicitly declared function). */
static const char *callee_name(cl *L, CXCursor call)
{
    CXCursor ref = c_cx.clang_getCursorReferenced(call);
    if (!c_cx.clang_Cursor_isNull(ref) && kind(ref) == CXCursor_FunctionDecl) return cxs(L, c_cx.clang_getCursorSpelling(ref));
    CXCursor fn;
    if (!nth_expr_child(call, 0, &fn, NULL)) return NULL;
    fn = strip(L, fn);
    if (kind(fn) != CXCursor_DeclRefExpr) return NULL;
    ref = c_cx.clang_getCursorReferenced(fn);
    if (!c_cx.clang_Cursor_isNull(ref) && kind(ref) != CXCursor_FunctionDecl) return NULL;
    return cxs(L, c_cx.clang_getCursorSpelling(fn));
}

static CXCursor call_arg(CXCursor call, int i) { return c_cx.clang_Cursor_getArgument(call, (unsigned)i); }

static int call_nargs(CXCursor call)
{
    int n = c_cx.clang_Cursor_getNumArguments(call);
    return n < 0 ? 0 : n;
}

/* ------------------------------------------------------------------------ */
/* Variables and access paths.                                              */

static int add_var(cl *L, const char *name, unsigned flags, int own)
{
    int v = ir_var_add(L->m, L->f, name, flags);
    while (L->vi.n <= (size_t)v) {
        vinfo z = {-1, OWN_LOCAL, 0};
        CA_VEC_PUSH(L->vi, z);
    }
    if (L->vi.v[v].root < 0 && !(flags & VAR_PARAM) && own >= 0) L->vi.v[v].own = (unsigned char)own;
    return v;
}

static int find_var(cl *L, const char *name) { return name && L->f ? ir_var_find(L->f, name) : -1; }

static ir_node *emit(cl *L, ir_block *out, ir_kind k, ir_site site, int var)
{
    ir_node *n = ir_node_new(L->m, k, site);
    n->var = var;
    ir_block_push(L->m, out, n);
    return n;
}

/* Owner class of a declaration a name refers to. */
static int decl_own(cl *L, CXCursor decl)
{
    enum CXCursorKind k = kind(decl);
    if (k == CXCursor_ParmDecl) return OWN_PARAM;
    if (k != CXCursor_VarDecl) return -1;
    enum CX_StorageClass sc = c_cx.clang_Cursor_getStorageClass(decl);
    if (sc == CX_SC_Static || sc == CX_SC_Extern) return OWN_GLOBAL;
    CXCursor parent = c_cx.clang_getCursorSemanticParent(decl);
    if (kind(parent) == CXCursor_TranslationUnit) return OWN_GLOBAL;
    int v = find_var(L, cxs(L, c_cx.clang_getCursorSpelling(decl)));
    if (v >= 0 && (size_t)v < L->vi.n) return L->vi.v[v].own;
    return OWN_LOCAL;
}

typedef struct apath {
    const char *path;   /* "pool->lock", "*out", "fds[]", "p" */
    const char *root;   /* "pool" */
    int own;            /* OWN_* of the root */
} apath;

static int is_ident_char(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/* An access path from source text ("&(pool)->lock", "(void *)buf"), for
 * code the AST does not show (macro arguments, error recovery). */
static int text_path(cl *L, const char *t, apath *out)
{
    if (!t) return 0;
    /* drop casts and a leading '&' */
    for (int guard = 0; guard < 8; guard++) {
        while (*t == ' ') t++;
        if (*t == '&') { t++; continue; }
        if (*t == '(') {
            int d = 0;
            const char *p = t;
            for (; *p; p++) {
                if (*p == '(') d++;
                else if (*p == ')' && --d == 0) break;
            }
            if (!*p) return 0;
            const char *after = p + 1;
            while (*after == ' ') after++;
            if (!*after) { /* (x): grouping of the whole thing */
                char *inner = ca_arena_strndup(&L->m->arena, t + 1, (size_t)(p - t - 1));
                t = inner;
                continue;
            }
            if (is_ident_char(*after) || *after == '&' || *after == '(' || *after == '*') {
                t = after; /* (type)x: a cast */
                continue;
            }
        }
        break;
    }
    /* [*(]* ident ( ->ident | .ident | [...] | ) )* */
    ca_sb sb = {0};
    const char *root_s = NULL;
    size_t root_n = 0;
    int state = 0; /* 0: before the root, 1: after an operand, 2: after -> or . */
    for (const char *p = t; *p; p++) {
        char c = *p;
        if (c == ' ') continue;
        if (c == '(' && state == 0) continue;
        if (c == ')' && state == 1) continue;
        if (c == '*' && state == 0) { ca_sb_addc(&sb, '*'); continue; }
        if (is_ident_char(c) && state != 1) {
            const char *s0 = p;
            while (is_ident_char(p[1])) p++;
            if (!root_s) { root_s = s0; root_n = (size_t)(p - s0 + 1); }
            ca_sb_add(&sb, s0, (size_t)(p - s0 + 1));
            state = 1;
            continue;
        }
        if (state == 1 && c == '-' && p[1] == '>') { ca_sb_adds(&sb, "->"); p++; state = 2; continue; }
        if (state == 1 && c == '.') { ca_sb_addc(&sb, '.'); state = 2; continue; }
        if (state == 1 && c == '[') {
            int depth = 1;
            while (p[1] && depth) {
                p++;
                if (*p == '[') depth++;
                else if (*p == ']') depth--;
            }
            if (depth) break;
            ca_sb_adds(&sb, "[]");
            continue;
        }
        state = -1;
        break;
    }
    if (state != 1) {
        ca_sb_release(&sb);
        return 0;
    }
    if (!root_s || (root_s[0] >= '0' && root_s[0] <= '9')) {
        ca_sb_release(&sb);
        return 0;
    }
    out->path = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
    ca_sb_release(&sb);
    out->root = ca_arena_strndup(&L->m->arena, root_s, root_n);
    if (strcmp(out->root, "NULL") == 0) return 0;
    int v = find_var(L, out->root);
    out->own = v >= 0 && (size_t)v < L->vi.n ? L->vi.v[v].own : OWN_GLOBAL;
    return 1;
}

/* The access path an expression names, with a leading '&' dropped when
 * addr_of is set: `&pool->lock` and `pool->lock` both name "pool->lock". */
static int access_path(cl *L, CXCursor c0, int addr_of, apath *out)
{
    memset(out, 0, sizeof(*out));
    CXCursor c = strip(L, c0);
    CXCursor inner;
    if (addr_of && kind(c) == CXCursor_UnaryOperator) {
        const char *op = unary_op(L, c, &inner);
        if (op && strcmp(op, "&") == 0) c = strip(L, inner);
    }
    /* outermost step first */
    const char *steps[64];
    int nsteps = 0, ok = 0;
    for (int guard = 0; guard < 64; guard++) {
        enum CXCursorKind k = kind(c);
        if (k == CXCursor_DeclRefExpr) {
            CXCursor ref = c_cx.clang_getCursorReferenced(c);
            int own = c_cx.clang_Cursor_isNull(ref) ? -1 : decl_own(L, ref);
            if (own < 0) break;
            out->root = cxs(L, c_cx.clang_getCursorSpelling(c));
            out->own = own;
            ok = 1;
            break;
        }
        if (k == CXCursor_MemberRefExpr) {
            CXCursor base;
            if (!nth_expr_child(c, 0, &base, NULL)) break;
            CXType bt = c_cx.clang_getCanonicalType(c_cx.clang_getCursorType(base));
            const char *mem = cxs(L, c_cx.clang_getCursorSpelling(c));
            char *st = ca_arena_alloc(&L->m->arena, strlen(mem) + 3);
            sprintf(st, "%s%s", type_is_pointer(bt) ? "->" : ".", mem);
            steps[nsteps++] = st;
            c = strip(L, base);
        } else if (k == CXCursor_ArraySubscriptExpr) {
            CXCursor base;
            if (!nth_expr_child(c, 0, &base, NULL)) break;
            steps[nsteps++] = "[]";
            c = strip(L, base);
        } else if (k == CXCursor_UnaryOperator) {
            const char *op = unary_op(L, c, &inner);
            if (!op || strcmp(op, "*") != 0) break;
            steps[nsteps++] = "*";
            c = strip(L, inner);
        } else {
            break;
        }
        if (nsteps >= 63) break;
    }
    if (!ok) {
        /* not an AST path (error recovery, a macro argument): try the text */
        char *t = cursor_text(L, c0, 200);
        if (!t) return 0;
        return text_path(L, addr_of ? t : (*t == '&' ? "" : t), out);
    }
    ca_sb sb = {0};
    ca_sb_adds(&sb, out->root);
    for (int i = nsteps - 1; i >= 0; i--) {
        if (strcmp(steps[i], "*") == 0) {
            char *cur = ca_sb_detach(&sb);
            ca_sb_addf(&sb, "*%s", cur);
            free(cur);
        } else {
            ca_sb_adds(&sb, steps[i]);
        }
    }
    out->path = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
    ca_sb_release(&sb);
    return 1;
}

static int is_plain(const apath *p) { return p->path && p->root && strcmp(p->path, p->root) == 0; }

/* The variable for an access path, made on first use; a member path is
 * held by its root (owning, releasing or handing over the root covers it). */
static int path_var(cl *L, const apath *p)
{
    if (!p->path) return -1;
    int v = find_var(L, p->path);
    if (v >= 0) return v;
    int r = find_var(L, p->root);
    if (r < 0) r = add_var(L, p->root, 0, p->own);
    if (is_plain(p)) return r;
    v = add_var(L, p->path, 0, -1);
    L->vi.v[v].root = r;
    L->vi.v[v].own = L->vi.v[r].own;
    ir_node *a = emit(L, &L->f->body, IR_ALIAS, L->fsite, v);
    a->var2 = r;
    return v;
}

/* The variable whose value an expression is (`p`, `(void *)p`,
 * `&pool->lock` when that path is tracked); -1 for anything else. */
static int value_var(cl *L, CXCursor c)
{
    apath p;
    if (!access_path(L, c, 1, &p)) return -1;
    return find_var(L, p.path);
}

static int caller_owned(int own) { return own == OWN_PARAM || own == OWN_GLOBAL || own == OWN_DERIVED; }

/* What a releasing call's argument releases: the tracked path, else (one
 * element or member of it) the variable it hangs from when that holds a
 * resource or is the caller's (so the summary says the parameter is released). */
static int release_target(cl *L, CXCursor arg)
{
    apath p;
    if (!access_path(L, arg, 1, &p)) return -1;
    int v = find_var(L, p.path);
    if (v >= 0) return v;
    int r = find_var(L, p.root);
    if (r >= 0 && (size_t)r < L->vi.n && (L->vi.v[r].acquired || caller_owned(L->vi.v[r].own))) return r;
    return -1;
}

static void alias2(cl *L, int a, int b)
{
    if (a < 0 || b < 0 || a == b) return;
    ir_node *n = emit(L, &L->f->body, IR_ALIAS, L->fsite, a);
    n->var2 = b;
    n = emit(L, &L->f->body, IR_ALIAS, L->fsite, b);
    n->var2 = a;
}

/* ------------------------------------------------------------------------ */
/* Events.                                                                  */

/* Where checkpoints go: inside a shield scope while cancellation is off. */
static ir_block *cp_block(cl *L, ir_block *out, ir_site site)
{
    if (!L->cancel_off) return out;
    ir_node *w = emit(L, out, IR_WITH, site, -1);
    w->flags = WITH_SHIELD;
    w->text = "pthread_setcancelstate(PTHREAD_CANCEL_DISABLE)";
    return &w->a;
}

static ir_node *emit_call(cl *L, ir_block *out, ir_site site, const char *name, const int *vars, int n)
{
    ir_node *c = emit(L, out, IR_CALL, site, -1);
    c->text = name;
    c->nvars = n;
    c->vars = ca_arena_alloc(&L->m->arena, sizeof(int) * (size_t)(n ? n : 1));
    c->kwnames = ca_arena_alloc(&L->m->arena, sizeof(char *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) c->vars[i] = vars[i];
    return c;
}

static void acquire(cl *L, ir_block *out, ir_site site, int v, const char *rkind)
{
    if (v < 0) return;
    ir_node *a = emit(L, out, IR_ACQUIRE, site, v);
    a->flags = ACQ_STRONG;
    a->rkind = rkind ? rkind : "resource";
    L->vi.v[v].acquired = 1;
    if (L->vi.v[v].own == OWN_DERIVED && L->vi.v[v].root < 0) L->vi.v[v].own = OWN_LOCAL;
}

/* A resource made by a call lands in `dst`: owned here when dst is local. */
static void bind_acquire(cl *L, ir_block *out, ir_site site, const apath *dst, const ca_cat_entry *e)
{
    if (!dst->path) return;
    if (is_plain(dst)) {
        if (dst->own == OWN_GLOBAL) return; /* stored in a global: owned by it */
        acquire(L, out, site, path_var(L, dst), e->kind);
        return;
    }
    if (caller_owned(dst->own)) return; /* stored in the caller's or a global structure */
    acquire(L, out, site, path_var(L, dst), e->kind);
}

/* `dst = <value of v>` */
static void bind_value(cl *L, ir_block *out, ir_site site, const apath *dst, int v, CXCursor rhs)
{
    if (!dst->path) return;
    if (v >= 0) {
        if (is_plain(dst) && dst->own != OWN_GLOBAL) {
            int a = path_var(L, dst);
            alias2(L, a, v);
            if (caller_owned(L->vi.v[v].own) && !L->vi.v[v].acquired) L->vi.v[a].own = OWN_DERIVED;
            return;
        }
        if (caller_owned(dst->own)) {
            emit(L, out, IR_TRANSFER, site, v);
            return;
        }
        int r = path_var(L, &(apath){dst->root, dst->root, dst->own});
        ir_node *n = emit(L, &L->f->body, IR_ALIAS, site, v);
        n->var2 = r;
        return;
    }
    if (is_plain(dst) && dst->own != OWN_GLOBAL) {
        /* a local pointer into the caller's or global memory */
        apath src;
        if (access_path(L, rhs, 1, &src) && caller_owned(src.own)) {
            int a = path_var(L, dst);
            if (!L->vi.v[a].acquired) L->vi.v[a].own = OWN_DERIVED;
        }
    }
}

static void mark_async(cl *L, ir_block *out, ir_site site, const char *name, ir_node *existing)
{
    if (!L->async_on) return;
    ir_node *c = existing ? existing : emit_call(L, out, site, name, NULL, 0);
    c->flags |= CALL_ASYNC_CANCEL;
    c->ref = L->async_on;
}

/* The name an argument spells: an enum constant or a macro (PTHREAD_CANCEL_DISABLE). */
static const char *arg_name(cl *L, CXCursor call, int i)
{
    if (i >= call_nargs(call)) return NULL;
    CXCursor a = strip(L, call_arg(call, i));
    if (kind(a) == CXCursor_DeclRefExpr) return cxs(L, c_cx.clang_getCursorSpelling(a));
    return cursor_text(L, a, 64);
}

/* The caller's access path for a helper's `param<suffix>`: `q` with "->mu"
 * is "q->mu"; `&pool->queue` with "->mu" is "pool->queue.mu". */
static int wrap_path(cl *L, const lock_wrap *w, CXCursor call, int nargs, apath *out)
{
    if (w->param < 0) {
        char *p = ca_arena_alloc(&L->m->arena, strlen(w->root) + strlen(w->suffix) + 1);
        sprintf(p, "%s%s", w->root, w->suffix);
        *out = (apath){p, w->root, OWN_GLOBAL};
        return 1;
    }
    if (w->param >= nargs) return 0;
    CXCursor a = strip(L, call_arg(call, w->param)), inner;
    const char *suffix = w->suffix;
    apath base;
    if (kind(a) == CXCursor_UnaryOperator) {
        const char *op = unary_op(L, a, &inner);
        if (op && strcmp(op, "&") == 0) {
            if (!access_path(L, inner, 0, &base)) return 0;
            if (strncmp(suffix, "->", 2) == 0) {
                char *d = ca_arena_alloc(&L->m->arena, strlen(suffix));
                sprintf(d, ".%s", suffix + 2);
                suffix = d;
            }
        } else if (!access_path(L, a, 0, &base)) {
            return 0;
        }
    } else if (!access_path(L, a, 0, &base)) {
        return 0;
    }
    char *p = ca_arena_alloc(&L->m->arena, strlen(base.path) + strlen(suffix) + 1);
    sprintf(p, "%s%s", base.path, suffix);
    *out = (apath){p, base.root, base.own};
    return 1;
}

/* Locks taken (after: 1) or things released (after: 0) by a helper of this file. */
static void apply_wraps(cl *L, CXCursor call, const char *name, int nargs, ir_site site, ir_block *out, int after)
{
    for (size_t i = 0; i < L->wraps.n; i++) {
        const lock_wrap *w = &L->wraps.v[i];
        if ((w->lock != NULL) != after || strcmp(w->name, name) != 0) continue;
        apath p;
        if (!wrap_path(L, w, call, nargs, &p)) continue;
        if (w->lock) {
            acquire(L, out, site, path_var(L, &p), w->lock->kind ? w->lock->kind : "lock");
        } else {
            int v = find_var(L, p.path);
            if (v >= 0) emit(L, out, IR_RELEASE, site, v);
        }
    }
}

static void on_call(cl *L, CXCursor call, ir_block *out)
{
    const char *name = callee_name(L, call);
    ir_site site = site_of(L, call);
    int nargs = call_nargs(call);
    if (!name) {
        if (L->async_on) {
            const char *t = cursor_text(L, call, 60);
            mark_async(L, out, site, t ? t : "an indirect call", NULL);
        }
        return;
    }
    if (cat(L, CAT_C_THREAD_CANCEL, name)) L->m->cancels_threads = 1;
    int async = L->async_on && !cat(L, CAT_C_ASYNC_SAFE, name);
    if (cat(L, CAT_C_NORETURN, name)) {
        if (async) mark_async(L, out, site, name, NULL);
        emit(L, out, IR_RETURN, site, -1); /* this path ends here */
        return;
    }
    if (cat(L, CAT_C_CLEANUP_PUSH, name) || cat(L, CAT_C_CLEANUP_POP, name)) return; /* see lower_cleanup */
    if (cat(L, CAT_C_CANCEL_STATE, name)) {
        const char *st = arg_name(L, call, 0);
        L->cancel_off = st && cat(L, CAT_C_CANCEL_DISABLE, st) != NULL;
        return;
    }
    if (cat(L, CAT_C_CANCEL_TYPE, name)) {
        const char *ty = arg_name(L, call, 0);
        if (ty && cat(L, CAT_C_CANCEL_ASYNC, ty)) {
            ir_node *c = emit_call(L, out, site, name, NULL, 0);
            const char *t = cursor_text(L, call, 120);
            c->text = t ? t : name;
            L->async_on = c;
        } else {
            L->async_on = NULL;
        }
        return;
    }
    const ca_cat_entry *rel = cat(L, CAT_C_RELEASE, name);
    const ca_cat_entry *cp = cat(L, CAT_C_CANCEL_POINT, name);
    const ca_cat_entry *acq = cat(L, CAT_C_ACQUIRE, name);
    const ca_cat_entry *lock = cat(L, CAT_C_LOCK, name);
    const ca_cat_entry *plock = lock ? NULL : cat(L, CAT_C_LOCK_PAIRED, name);
    const ca_cat_entry *reg = cat(L, CAT_C_REGISTER, name);
    /* releases before the cancellation point, acquisitions after it: a
     * cancelled close() leaves nothing to leak, a cancelled open() made nothing */
    if (rel) {
        int ai = rel->arg ? atoi(rel->arg) : 0;
        if (ai < nargs) {
            int v = release_target(L, call_arg(call, ai));
            if (v >= 0) emit(L, out, IR_RELEASE, site, v);
        }
    }
    if (cp) {
        ir_node *n = emit(L, cp_block(L, out, site), IR_CHECKPOINT, site, -1);
        n->flags = CP_CALL;
        n->text = cursor_text(L, call, 120);
        if (!n->text) n->text = name;
        if (async) mark_async(L, out, site, name, NULL);
    }
    if (lock || plock) {
        apath p;
        if (nargs > 0 && access_path(L, call_arg(call, 0), 1, &p)) {
            int v = path_var(L, &p);
            const char *k = (lock ? lock : plock)->kind;
            acquire(L, out, site, v, k ? k : "lock");
            if (plock && out->n) CA_VEC_PUSH(L->paired, out->v[out->n - 1]);
        }
    }
    if (acq) {
        if (acq->arg) {
            int ai = atoi(acq->arg);
            apath p;
            if (ai < nargs && access_path(L, call_arg(call, ai), 1, &p)) bind_acquire(L, out, site, &p, acq);
        } else {
            L->pend = call;
            L->pend_acq = acq;
            L->have_pend = 1;
        }
    }
    if (reg) {
        int only = reg->arg ? atoi(reg->arg) : -1;
        for (int i = 0; i < nargs; i++) {
            if (only >= 0 && i != only) continue;
            int v = value_var(L, call_arg(call, i));
            if (v >= 0) emit(L, out, IR_TRANSFER, site, v);
        }
    }
    if (rel || cp || acq || lock || plock) {
        if (async && !cp) mark_async(L, out, site, name, NULL);
        return;
    }
    /* any other call: its summary (when it is in the scan) says what it
     * does; a lock helper of this file takes the lock when it returns */
    apply_wraps(L, call, name, nargs, site, out, 0);
    int *vars = ca_arena_alloc(&L->m->arena, sizeof(int) * (size_t)(nargs ? nargs : 1));
    for (int i = 0; i < nargs; i++) vars[i] = value_var(L, call_arg(call, i));
    ir_node *c = emit_call(L, cp_block(L, out, site), site, name, vars, nargs);
    c->flags = CALL_RUNS_CALLEE;
    if (async) mark_async(L, out, site, name, c);
    apply_wraps(L, call, name, nargs, site, out, 1);
}

static void on_assign(cl *L, CXCursor bin, CXCursor lhs, CXCursor rhs, ir_block *out)
{
    apath dst;
    if (!access_path(L, lhs, 0, &dst)) {
        L->have_pend = 0;
        return;
    }
    CXCursor r = strip(L, rhs);
    if (L->have_pend && c_cx.clang_equalCursors(r, L->pend)) {
        L->have_pend = 0;
        bind_acquire(L, out, site_of(L, r), &dst, L->pend_acq);
        return;
    }
    bind_value(L, out, site_of(L, bin), &dst, value_var(L, rhs), rhs);
}

static void lower_stmt(cl *L, CXCursor s, ir_block *out);

typedef struct xframe {
    CXCursor c;
    int expanded;
} xframe;

/* Post-order over an expression (evaluation order), explicit stack. */
static void lower_expr(cl *L, CXCursor root, ir_block *out)
{
    CA_VEC(xframe) st = {0};
    cur_vec kids = {0};
    xframe f0 = {root, 0};
    CA_VEC_PUSH(st, f0);
    while (st.n && !L->too_deep) {
        xframe *top = &st.v[st.n - 1];
        CXCursor c = top->c;
        enum CXCursorKind k = kind(c);
        if (!top->expanded) {
            top->expanded = 1;
            if (k == CXCursor_StmtExpr) {
                /* ({ ... }): statements inside an expression */
                st.n--;
                children(c, &kids);
                for (size_t i = 0; i < kids.n; i++)
                    if (kind(kids.v[i]) == CXCursor_CompoundStmt) lower_stmt(L, kids.v[i], out);
                continue;
            }
            if (k == CXCursor_UnaryExpr || k == CXCursor_BlockExpr) { /* sizeof/alignof: not evaluated */
                st.n--;
                continue;
            }
            children(c, &kids);
            for (size_t i = kids.n; i-- > 0;) {
                enum CXCursorKind kk = kind(kids.v[i]);
                if (!c_cx.clang_isExpression(kk)) continue;
                xframe fr = {kids.v[i], 0};
                CA_VEC_PUSH(st, fr);
            }
            continue;
        }
        st.n--;
        if (k == CXCursor_CallExpr) {
            on_call(L, c, out);
        } else if (k == CXCursor_BinaryOperator) {
            CXCursor lhs, rhs;
            const char *op = binary_op(L, c, &lhs, &rhs);
            int assign = op ? strcmp(op, "=") == 0
                            : (L->have_pend && c_cx.clang_equalCursors(strip(L, rhs), L->pend)); /* in a macro */
            if (assign) on_assign(L, c, lhs, rhs, out);
        }
    }
    CA_VEC_FREE(st);
    CA_VEC_FREE(kids);
}

/* ------------------------------------------------------------------------ */
/* Statements.                                                              */

static void lower_seq(cl *L, const CXCursor *kids, size_t from, size_t to, unsigned gap, ir_block *out);

static void lower_compound(cl *L, CXCursor c, ir_block *out)
{
    cur_vec kids = {0};
    children(c, &kids);
    unsigned s = 0, e = 0;
    if (!extent(L, c, &s, &e)) s = 0;
    lower_seq(L, kids.v, 0, kids.n, s, out);
    CA_VEC_FREE(kids);
}

/* The variable a test is about: the tested path's, else (`fds[0] >= 0`) the
 * resource it is part of. */
static int tested_var(cl *L, CXCursor c)
{
    apath p;
    if (!access_path(L, c, 0, &p)) return -1;
    int v = find_var(L, p.path);
    if (v >= 0) return v;
    int r = find_var(L, p.root);
    return r >= 0 && (size_t)r < L->vi.n && L->vi.v[r].acquired ? r : -1;
}

/* A test saying variable v holds nothing on one branch: `!p`, `p == NULL`,
 * `fd < 0`, `(fd = open(...)) == -1`, `p`, `fd >= 0`. Returns v (or -1) and
 * sets *fail_when_true. */
static int fail_test(cl *L, CXCursor cond, int *fail_when_true)
{
    CXCursor c = strip(L, cond);
    int neg = 0;
    for (int guard = 0; guard < 4 && kind(c) == CXCursor_UnaryOperator; guard++) {
        CXCursor in;
        const char *op = unary_op(L, c, &in);
        if (!op || strcmp(op, "!") != 0) return -1;
        neg ^= 1;
        c = strip(L, in);
    }
    if (kind(c) == CXCursor_BinaryOperator) {
        CXCursor lhs, rhs;
        const char *op = binary_op(L, c, &lhs, &rhs);
        if (!op) return -1;
        if (strcmp(op, "=") == 0) {
            *fail_when_true = neg;
            return tested_var(L, lhs);
        }
        long k;
        CXCursor var = lhs;
        int swapped = 0;
        if (!const_value(L, rhs, &k)) {
            if (!const_value(L, lhs, &k)) return -1;
            var = rhs; /* NULL == p */
            swapped = 1;
        }
        var = strip(L, var);
        if (kind(var) == CXCursor_BinaryOperator) {
            CXCursor al, ar;
            const char *aop = binary_op(L, var, &al, &ar);
            if (!aop || strcmp(aop, "=") != 0) return -1;
            var = al;
        }
        int v = tested_var(L, var);
        if (v < 0 || (k != 0 && k != -1)) return -1;
        int fwt;
        if (strcmp(op, "==") == 0) fwt = 1;
        else if (strcmp(op, "!=") == 0) fwt = 0;
        else if (strcmp(op, swapped ? ">" : "<") == 0 && k == 0) fwt = 1;
        else if (strcmp(op, swapped ? "<=" : ">=") == 0 && k == 0) fwt = 0;
        else return -1;
        *fail_when_true = fwt ^ neg;
        return v;
    }
    int v = tested_var(L, c);
    if (v < 0) return -1;
    *fail_when_true = neg;
    return v;
}

/* fail_test, for variables that hold something this function acquired */
static int resource_test(cl *L, CXCursor cond, int *fail_when_true)
{
    int v = fail_test(L, cond, fail_when_true);
    return v >= 0 && (size_t)v < L->vi.n && L->vi.v[v].acquired ? v : -1;
}

static void lower_if(cl *L, CXCursor s, ir_block *out)
{
    cur_vec kids = {0};
    children(s, &kids);
    size_t i = 0;
    while (i < kids.n && !c_cx.clang_isExpression(kind(kids.v[i]))) lower_stmt(L, kids.v[i++], out);
    if (i >= kids.n) {
        CA_VEC_FREE(kids);
        return;
    }
    CXCursor cond = kids.v[i++];
    lower_expr(L, cond, out);
    L->have_pend = 0;
    ir_node *n = emit(L, out, IR_IF, site_of(L, s), -1);
    n->branches = ca_arena_alloc(&L->m->arena, sizeof(ir_block) * 2);
    n->nbranches = 1;
    int fwt = 0;
    int fv = resource_test(L, cond, &fwt);
    if (fv >= 0 && fwt) emit(L, &n->branches[0], IR_DONE, n->site, fv); /* nothing to release there */
    if (i < kids.n) lower_stmt(L, kids.v[i++], &n->branches[0]);
    if (i < kids.n || (fv >= 0 && !fwt)) {
        n->nbranches = 2;
        n->flags |= IF_HAS_ELSE;
        if (fv >= 0 && !fwt) emit(L, &n->branches[1], IR_DONE, n->site, fv);
        if (i < kids.n) lower_stmt(L, kids.v[i], &n->branches[1]);
    }
    CA_VEC_FREE(kids);
}

static int is_true_const(cl *L, CXCursor c)
{
    long v;
    return const_value(L, c, &v) && v != 0;
}

static int is_false_const(cl *L, CXCursor c)
{
    long v;
    return const_value(L, c, &v) && v == 0;
}

static ir_node *new_loop(cl *L, ir_block *out, CXCursor s, unsigned flags)
{
    ir_node *n = emit(L, out, IR_LOOP, site_of(L, s), -1);
    n->flags = flags;
    return n;
}

static void lower_body(cl *L, CXCursor body, ir_block *out)
{
    L->real_loops++;
    lower_stmt(L, body, out);
    L->real_loops--;
}

static void lower_while(cl *L, CXCursor s, ir_block *out)
{
    cur_vec kids = {0};
    children(s, &kids);
    if (kids.n >= 2) {
        CXCursor cond = kids.v[kids.n - 2], body = kids.v[kids.n - 1];
        ir_node *n = new_loop(L, out, s, is_true_const(L, cond) ? LOOP_INFINITE : 0);
        lower_expr(L, cond, &n->c);
        L->have_pend = 0;
        /* `while ((fd = open(...)) < 0) retry;`: nothing open in the body */
        int fwt = 0, fv = resource_test(L, cond, &fwt);
        if (fv >= 0) emit(L, fwt ? &n->a : &n->b, IR_DONE, n->site, fv);
        lower_body(L, body, &n->a);
    }
    CA_VEC_FREE(kids);
}

static void lower_do(cl *L, CXCursor s, ir_block *out)
{
    cur_vec kids = {0};
    children(s, &kids);
    if (kids.n >= 2) {
        CXCursor body = kids.v[0], cond = kids.v[kids.n - 1];
        /* the body runs at least once: leave only by break (or a false test) */
        ir_node *n = new_loop(L, out, s, LOOP_INFINITE);
        lower_body(L, body, &n->a);
        if (is_false_const(L, cond)) {
            emit(L, &n->a, IR_BREAK, n->site, -1);
        } else if (!is_true_const(L, cond)) {
            lower_expr(L, cond, &n->a);
            ir_node *t = emit(L, &n->a, IR_IF, n->site, -1);
            t->branches = ca_arena_alloc(&L->m->arena, sizeof(ir_block));
            t->nbranches = 1;
            emit(L, &t->branches[0], IR_BREAK, n->site, -1);
        }
    }
    CA_VEC_FREE(kids);
}

static void lower_for(cl *L, CXCursor s, ir_block *out)
{
    cur_vec kids = {0};
    children(s, &kids);
    if (kids.n == 0) {
        CA_VEC_FREE(kids);
        return;
    }
    CXCursor body = kids.v[kids.n - 1];
    size_t nh = kids.n - 1;
    /* which header parts are present: find the two ';' of `for (a; b; c)` */
    unsigned s0, e0, semi[2] = {0, 0};
    int nsemi = 0;
    if (extent(L, s, &s0, &e0)) {
        unsigned p = s0;
        while (p < e0 && L->src[p] != '(') p++;
        int depth = 0;
        for (; p < e0; p++) {
            char ch = L->src[p];
            if (ch == '(') depth++;
            else if (ch == ')' && --depth == 0) break;
            else if (ch == ';' && depth == 1 && nsemi < 2) semi[nsemi++] = p;
        }
    }
    int role[3] = {-1, -1, -1}; /* index of init, cond, inc in kids */
    for (size_t i = 0; i < nh && i < 3; i++) {
        int r;
        if (nsemi == 2) {
            unsigned o = start_off(L, kids.v[i]);
            r = o < semi[0] ? 0 : o < semi[1] ? 1 : 2;
        } else {
            r = nh == 3 ? (int)i : nh == 2 ? (int)i : 1; /* a macro-made loop: guess */
        }
        role[r] = (int)i;
    }
    if (role[0] >= 0) {
        CXCursor init = kids.v[role[0]];
        if (c_cx.clang_isExpression(kind(init))) lower_expr(L, init, out);
        else lower_stmt(L, init, out);
    }
    int infinite = role[1] < 0 || is_true_const(L, kids.v[role[1]]);
    ir_node *n = new_loop(L, out, s, infinite ? LOOP_INFINITE : 0);
    if (role[1] >= 0) lower_expr(L, kids.v[role[1]], &n->c);
    lower_body(L, body, &n->a);
    if (role[2] >= 0) lower_expr(L, kids.v[role[2]], &n->a);
    CA_VEC_FREE(kids);
}

/* switch: one branch per case label (fallthrough approximated by the next
 * label's segment), inside a loop that `break` leaves. */
static void lower_switch(cl *L, CXCursor s, ir_block *out)
{
    cur_vec kids = {0};
    children(s, &kids);
    if (kids.n < 2) {
        CA_VEC_FREE(kids);
        return;
    }
    lower_expr(L, kids.v[kids.n - 2], out);
    CXCursor body = kids.v[kids.n - 1];
    ir_node *loop = new_loop(L, out, s, LOOP_INFINITE);
    ir_node *n = emit(L, &loop->a, IR_IF, loop->site, -1);
    cur_vec stmts = {0};
    if (kind(body) == CXCursor_CompoundStmt) children(body, &stmts);
    else CA_VEC_PUSH(stmts, body);
    /* segments: each starts at a case/default label */
    CA_VEC(cur_vec) segs = {0};
    int has_default = 0;
    for (size_t i = 0; i < stmts.n; i++) {
        CXCursor st = stmts.v[i];
        enum CXCursorKind k = kind(st);
        if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt || segs.n == 0) {
            cur_vec seg = {0};
            CA_VEC_PUSH(segs, seg);
        }
        /* unwrap `case 1: case 2: stmt` to stmt */
        for (int guard = 0; guard < 256 && (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt); guard++) {
            if (k == CXCursor_DefaultStmt) has_default = 1;
            cur_vec in = {0};
            children(st, &in);
            if (in.n == 0) {
                CA_VEC_FREE(in);
                k = CXCursor_NullStmt;
                break;
            }
            st = in.v[in.n - 1];
            k = kind(st);
            CA_VEC_FREE(in);
        }
        if (k != CXCursor_NullStmt) CA_VEC_PUSH(segs.v[segs.n - 1], st);
    }
    n->branches = ca_arena_alloc(&L->m->arena, sizeof(ir_block) * (segs.n ? segs.n : 1));
    L->real_loops++;
    for (size_t i = 0; i < segs.n; i++) {
        ir_block *b = &n->branches[n->nbranches++];
        unsigned gap = segs.v[i].n ? start_off(L, segs.v[i].v[0]) : 0;
        lower_seq(L, segs.v[i].v, 0, segs.v[i].n, gap, b);
        CA_VEC_FREE(segs.v[i]);
    }
    L->real_loops--;
    if (has_default) n->flags |= IF_HAS_ELSE;
    emit(L, &loop->a, IR_BREAK, loop->site, -1);
    CA_VEC_FREE(segs);
    CA_VEC_FREE(stmts);
    CA_VEC_FREE(kids);
}

static const char *label_of_goto(cl *L, CXCursor g)
{
    cur_vec kids = {0};
    children(g, &kids);
    const char *name = NULL;
    for (size_t i = 0; i < kids.n && !name; i++)
        if (kind(kids.v[i]) == CXCursor_LabelRef) name = cxs(L, c_cx.clang_getCursorSpelling(kids.v[i]));
    CA_VEC_FREE(kids);
    return name;
}

static void lower_goto(cl *L, CXCursor s, ir_block *out)
{
    const char *label = label_of_goto(L, s);
    ir_site site = site_of(L, s);
    for (size_t i = L->targets.n; label && i-- > 0;) {
        if (strcmp(L->targets.v[i].label, label) != 0) continue;
        if (L->targets.v[i].real_loops == L->real_loops) {
            emit(L, out, IR_BREAK, site, -1); /* to the label: out of its wrapper */
            return;
        }
        break;
    }
    /* a backward jump, or out of a loop: this path ends here */
    emit(L, out, IR_RETURN, site, -1);
}

static void lower_return(cl *L, CXCursor s, ir_block *out)
{
    cur_vec kids = {0};
    children(s, &kids);
    ir_site site = site_of(L, s);
    for (size_t i = 0; i < kids.n; i++) {
        if (!c_cx.clang_isExpression(kind(kids.v[i]))) continue;
        L->have_pend = 0;
        lower_expr(L, kids.v[i], out);
        CXCursor r = strip(L, kids.v[i]);
        if (L->have_pend && c_cx.clang_equalCursors(r, L->pend)) {
            L->have_pend = 0; /* returned as made: the caller owns it */
        } else {
            int v = value_var(L, kids.v[i]);
            if (v >= 0) emit(L, out, IR_TRANSFER, site, v);
        }
    }
    emit(L, out, IR_RETURN, site, -1);
    CA_VEC_FREE(kids);
}

/* Does a declaration carry an initializer (`= ...`)? */
static int has_init(cl *L, CXCursor decl)
{
    unsigned s, e;
    if (!extent(L, decl, &s, &e) || e <= s) return 1;
    int depth = 0;
    for (unsigned i = s; i < e; i++) {
        char ch = L->src[i];
        if (ch == '[' || ch == '(') depth++;
        else if ((ch == ']' || ch == ')') && depth) depth--;
        else if (ch == '=' && depth == 0 && (i + 1 >= e || L->src[i + 1] != '=')) return 1;
    }
    return 0;
}

static void lower_vardecl(cl *L, CXCursor d, ir_block *out)
{
    const char *name = cxs(L, c_cx.clang_getCursorSpelling(d));
    if (!*name) return;
    enum CX_StorageClass sc = c_cx.clang_Cursor_getStorageClass(d);
    int own = sc == CX_SC_Static || sc == CX_SC_Extern ? OWN_GLOBAL : OWN_LOCAL;
    int v = add_var(L, name, 0, own);
    L->vi.v[v].own = (unsigned char)own;
    L->vi.v[v].acquired = 0;
    CXCursor init;
    if (!has_init(L, d) || !nth_expr_child(d, -1, &init, NULL)) return;
    L->have_pend = 0;
    lower_expr(L, init, out);
    apath dst = {L->f->vars[v].name, L->f->vars[v].name, own};
    CXCursor r = strip(L, init);
    if (L->have_pend && c_cx.clang_equalCursors(r, L->pend)) {
        L->have_pend = 0;
        bind_acquire(L, out, site_of(L, r), &dst, L->pend_acq);
        return;
    }
    if (kind(r) == CXCursor_InitListExpr) {
        /* struct ctx c = { .buf = p }: c holds p */
        cur_vec kids = {0};
        children(r, &kids);
        for (size_t i = 0; i < kids.n; i++) {
            int m = value_var(L, kids.v[i]);
            if (m >= 0 && m != v) {
                ir_node *n = emit(L, &L->f->body, IR_ALIAS, L->fsite, m);
                n->var2 = v;
            }
        }
        CA_VEC_FREE(kids);
        return;
    }
    bind_value(L, out, site_of(L, d), &dst, value_var(L, init), init);
}

static void lower_stmt(cl *L, CXCursor s, ir_block *out)
{
    if (L->too_deep) return;
    if (++L->depth > IR_MAX_DEPTH - 8) {
        L->too_deep = 1;
        L->depth--;
        return;
    }
    enum CXCursorKind k = kind(s);
    L->have_pend = 0;
    switch (k) {
    case CXCursor_CompoundStmt: lower_compound(L, s, out); break;
    case CXCursor_DeclStmt: {
        cur_vec kids = {0};
        children(s, &kids);
        for (size_t i = 0; i < kids.n; i++)
            if (kind(kids.v[i]) == CXCursor_VarDecl) lower_vardecl(L, kids.v[i], out);
        CA_VEC_FREE(kids);
        break;
    }
    case CXCursor_IfStmt: lower_if(L, s, out); break;
    case CXCursor_WhileStmt: lower_while(L, s, out); break;
    case CXCursor_DoStmt: lower_do(L, s, out); break;
    case CXCursor_ForStmt: lower_for(L, s, out); break;
    case CXCursor_SwitchStmt: lower_switch(L, s, out); break;
    case CXCursor_ReturnStmt: lower_return(L, s, out); break;
    case CXCursor_BreakStmt: emit(L, out, IR_BREAK, site_of(L, s), -1); break;
    case CXCursor_ContinueStmt: emit(L, out, IR_CONTINUE, site_of(L, s), -1); break;
    case CXCursor_GotoStmt: lower_goto(L, s, out); break;
    case CXCursor_IndirectGotoStmt: emit(L, out, IR_RETURN, site_of(L, s), -1); break;
    case CXCursor_LabelStmt:
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt: {
        cur_vec kids = {0};
        children(s, &kids);
        if (kids.n) lower_stmt(L, kids.v[kids.n - 1], out);
        CA_VEC_FREE(kids);
        break;
    }
    default:
        if (c_cx.clang_isExpression(k)) lower_expr(L, s, out);
        break;
    }
    L->depth--;
}

/* ---- goto-based cleanup -------------------------------------------------- */

typedef struct scan_fr {
    CXCursor c;
    int loops; /* loops/switches between here and the region */
} scan_fr;

static const char *label_name(cl *L, CXCursor c)
{
    return kind(c) == CXCursor_LabelStmt ? cxs(L, c_cx.clang_getCursorSpelling(c)) : NULL;
}

/* ---- pthread_cleanup_push / pop regions --------------------------------- */

static cl_pair *pair_at(cl *L, unsigned lo, unsigned hi)
{
    for (size_t i = 0; i < L->pairs.n; i++) {
        cl_pair *p = &L->pairs.v[i];
        if (!p->used && p->push_off >= lo && p->push_off <= hi) return p;
    }
    return NULL;
}

/* The handler's effect on the argument: a catalog releaser releases it; any
 * other routine receives it (checked later against its definition here). */
static void routine_effect(cl *L, ir_block *b, ir_site site, const cl_pair *p, int v, int in_cleanup)
{
    if (!p->routine) return;
    if (cat(L, CAT_C_RELEASE, p->routine)) {
        if (v >= 0) {
            ir_node *r = emit(L, b, IR_RELEASE, site, v);
            r->flags = in_cleanup ? REL_IN_CLEANUP : 0;
        }
        return;
    }
    ir_node *c = emit_call(L, b, site, p->routine, &v, 1);
    c->flags = CALL_IN_CLEANUP;
    CA_VEC_PUSH(L->routine_calls, c);
}

/* Statements of an expanded push…pop block that the user wrote: those whose
 * position lies between the two macros (the rest is the macros' own code). */
typedef struct region_fr {
    CXCursor c;
    int users;  /* 1: a statement the user wrote (collect it); 0: the macros' (look inside) */
} region_fr;

static void region_stmts(cl *L, CXCursor block, const cl_pair *p, cur_vec *out)
{
    CA_VEC(region_fr) st = {0};
    cur_vec kids = {0};
    region_fr f0 = {block, 0};
    CA_VEC_PUSH(st, f0);
    size_t visited = 0;
    /* pre-order: the user's statements come out in source order */
    while (st.n && visited++ < 100000) {
        region_fr fr = st.v[--st.n];
        if (fr.users) {
            CA_VEC_PUSH(*out, fr.c);
            continue;
        }
        children(fr.c, &kids);
        for (size_t i = kids.n; i-- > 0;) {
            CXCursor k = kids.v[i];
            unsigned o = start_off(L, k);
            int users = o != UINT_MAX && o >= p->push_end && o < p->pop_off;
            if (!users && !c_cx.clang_isStatement(kind(k))) continue;
            region_fr c = {k, users};
            CA_VEC_PUSH(st, c);
        }
    }
    CA_VEC_FREE(st);
    CA_VEC_FREE(kids);
}

static void lower_cleanup(cl *L, cl_pair *p, const CXCursor *body, size_t n, ir_block *out)
{
    p->used = 1;
    ir_site site = site_span(L, p->push_off, p->push_end);
    int v = -1;
    if (p->arg_path) {
        apath ap = {p->arg_path, p->arg_root, OWN_GLOBAL};
        int r = find_var(L, p->arg_root);
        if (r >= 0 && (size_t)r < L->vi.n) ap.own = L->vi.v[r].own;
        v = path_var(L, &ap);
    }
    ir_node *t = emit(L, out, IR_TRY, site, -1);
    lower_seq(L, body, 0, n, p->push_end, &t->a);
    t->handlers = ca_arena_alloc(&L->m->arena, sizeof(ir_handler));
    t->nhandlers = 1;
    ir_handler *h = &t->handlers[0];
    h->site = site;
    h->flags = H_CANCEL | H_BASE;
    h->catches = p->text;
    h->exc_var = -1;
    routine_effect(L, &h->body, site, p, v, 1);
    emit(L, &h->body, IR_RAISE, site, -1); /* cancellation goes on unwinding */
    if (p->execute) routine_effect(L, out, site_span(L, p->pop_off, p->pop_end), p, v, 1);
}

/* ---- sequences ----------------------------------------------------------- */

static void lower_plain(cl *L, const CXCursor *kids, size_t from, size_t to, unsigned gap, ir_block *out)
{
    for (size_t i = from; i < to && !L->too_deep; i++) {
        unsigned s = 0, e = 0;
        int in_file = extent(L, kids[i], &s, &e);
        cl_pair *p = in_file ? pair_at(L, gap, s) : NULL;
        if (p) {
            if (s == p->push_off && e >= p->pop_end) {
                /* the macros expanded into one block around the body */
                cur_vec body = {0};
                region_stmts(L, kids[i], p, &body);
                lower_cleanup(L, p, body.v, body.n, out);
                CA_VEC_FREE(body);
                gap = e;
                continue;
            }
            /* push and pop as calls (no <pthread.h>), or the push lost to an error */
            size_t b = s == p->push_off ? i + 1 : i, j = b;
            while (j < to && start_off(L, kids[j]) < p->pop_off) j++;
            lower_cleanup(L, p, kids + b, j - b, out);
            if (j < to && start_off(L, kids[j]) == p->pop_off) j++;
            if (j > 0 && extent(L, kids[j - 1], &s, &e)) gap = e;
            i = j - 1;
            continue;
        }
        lower_stmt(L, kids[i], out);
        if (in_file) gap = e;
    }
}

/* What lower_seq needs to know of a run's statements with labels in it. */
typedef struct run_info {
    const CXCursor *kids;
    const char **label;     /* per statement: its label, or NULL */
    str_vec *gotos;         /* per statement: labels it jumps to (unowned strings) */
    unsigned char *escapes; /* per statement: a break/continue that leaves it */
} run_info;

/* One walk of a statement: the labels its gotos name, and whether a
 * break/continue in it would leave it (not inside an inner loop/switch). */
static void stmt_facts(cl *L, CXCursor root, str_vec *gotos, unsigned char *escapes)
{
    CA_VEC(scan_fr) st = {0};
    cur_vec kids = {0};
    scan_fr f0 = {root, 0};
    CA_VEC_PUSH(st, f0);
    size_t visited = 0;
    while (st.n && visited++ < 200000) {
        scan_fr fr = st.v[--st.n];
        enum CXCursorKind k = kind(fr.c);
        if (k == CXCursor_GotoStmt) {
            const char *l = label_of_goto(L, fr.c);
            if (l) CA_VEC_PUSH(*gotos, (char *)l);
            continue;
        }
        if ((k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt) && fr.loops == 0) {
            *escapes = 1;
            continue;
        }
        if (!c_cx.clang_isStatement(k)) continue;
        int inner = k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
                    k == CXCursor_SwitchStmt;
        children(fr.c, &kids);
        for (size_t i = 0; i < kids.n; i++) {
            scan_fr c = {kids.v[i], fr.loops + inner};
            CA_VEC_PUSH(st, c);
        }
    }
    CA_VEC_FREE(st);
    CA_VEC_FREE(kids);
}

static int jumps_to(const run_info *ri, size_t i, const char *label)
{
    for (size_t k = 0; k < ri->gotos[i].n; k++)
        if (strcmp(ri->gotos[i].v[k], label) == 0) return 1;
    return 0;
}

/* Forward gotos to a label of the run: the statements from the first that
 * jumps to the label up to it are wrapped in a loop that ends in break, and
 * the gotos break out of it, so the label's code is reached with their
 * state too. The last such label is handled first; the statements before
 * its region are handled the same way (iteratively, right to left). */
static void lower_labelled(cl *L, const run_info *ri, size_t from, size_t to, unsigned gap, ir_block *out)
{
    const CXCursor *kids = ri->kids;
    size_t best_k = 0, best_a = 0;
    int found = 0;
    for (size_t k = to; k-- > from + 1 && !found;) {
        const char *lab = ri->label[k];
        if (!lab) continue;
        size_t a = k;
        for (size_t i = from; i < k && a == k; i++)
            if (jumps_to(ri, i, lab)) a = i;
        if (a == k) continue;
        /* labels inside the region nest their own regions inside it */
        for (size_t j = a + 1; j < k; j++)
            for (size_t i = from; ri->label[j] && i < a; i++)
                if (jumps_to(ri, i, ri->label[j])) {
                    a = i;
                    break;
                }
        int escapes = 0;
        for (size_t i = a; i < k; i++) escapes |= ri->escapes[i];
        if (escapes) continue;
        best_k = k;
        best_a = a;
        found = 1;
    }
    /* goto regions nest one IR loop each: a few levels model real cleanup
     * chains; beyond that a goto just ends its path */
    if (!found || L->targets.n >= 16 || L->depth > IR_MAX_DEPTH / 2) {
        lower_plain(L, kids, from, to, gap, out);
        return;
    }
    /* the statements before the region: their own labels, if any */
    if (best_a > from) {
        L->depth++; /* bounds this recursion too: past the limit, plain lowering */
        lower_labelled(L, ri, from, best_a, gap, out);
        L->depth--;
    }
    L->depth++;
    ir_node *loop = emit(L, out, IR_LOOP, site_of(L, kids[best_a]), -1);
    loop->flags = LOOP_INFINITE;
    goto_target t = {ri->label[best_k], L->real_loops};
    CA_VEC_PUSH(L->targets, t);
    unsigned g = best_a > from ? start_off(L, kids[best_a]) : gap;
    lower_labelled(L, ri, best_a, best_k, g == UINT_MAX ? gap : g, &loop->a);
    L->targets.n--;
    emit(L, &loop->a, IR_BREAK, loop->site, -1);
    L->depth--;
    unsigned s = start_off(L, kids[best_k]);
    lower_plain(L, kids, best_k, to, s == UINT_MAX ? gap : s, out);
}

/* A run of statements (a block's, a cleanup region's, a case's). Nesting
 * of the recursion is bounded: each level of lower_labelled opens an IR
 * loop counted in L->depth. */
static void lower_seq(cl *L, const CXCursor *kids, size_t from, size_t to, unsigned gap, ir_block *out)
{
    if (L->too_deep || from >= to) return;
    int labels = 0;
    for (size_t i = from; i < to && !labels; i++) labels = kind(kids[i]) == CXCursor_LabelStmt;
    if (!labels) {
        lower_plain(L, kids, from, to, gap, out);
        return;
    }
    run_info ri;
    size_t n = to;
    ri.kids = kids;
    ri.label = ca_xcalloc(n + 1, sizeof(char *));
    ri.gotos = ca_xcalloc(n + 1, sizeof(str_vec));
    ri.escapes = ca_xcalloc(n + 1, 1);
    for (size_t i = from; i < to; i++) {
        ri.label[i] = label_name(L, kids[i]);
        stmt_facts(L, kids[i], &ri.gotos[i], &ri.escapes[i]);
    }
    lower_labelled(L, &ri, from, to, gap, out);
    for (size_t i = from; i < to; i++) CA_VEC_FREE(ri.gotos[i]);
    free(ri.label);
    free(ri.gotos);
    free(ri.escapes);
}

/* ------------------------------------------------------------------------ */
/* Functions.                                                               */

/* Locks from c-lock-paired count only when the function releases them too. */
static int releases_var(void *ctx, const ir_node *n)
{
    return n->kind == IR_RELEASE && n->var == *(const int *)ctx;
}

static int block_releases_var(const ir_block *b, int v) { return ir_visit(b, releases_var, &v); }

static void lower_function(cl *L, CXCursor fn)
{
    ir_func *f = ir_func_new(L->m);
    f->param_mentions = ~0ull; /* not worked out for C: every parameter counts as used */
    f->name = cxs(L, c_cx.clang_getCursorSpelling(fn));
    f->qualname = f->name;
    f->site = site_of(L, fn);
    L->f = f;
    L->fsite = f->site;
    L->vi.n = 0;
    L->depth = 0;
    L->too_deep = 0;
    L->cancel_off = 0;
    L->async_on = NULL;
    L->targets.n = 0;
    L->real_loops = 0;
    L->have_pend = 0;
    L->paired.n = 0;
    int np = call_nargs(fn);
    for (int i = 0; i < np; i++) {
        CXCursor p = call_arg(fn, i);
        const char *pn = cxs(L, c_cx.clang_getCursorSpelling(p));
        char buf[32];
        if (!*pn) {
            snprintf(buf, sizeof(buf), "#%d", i); /* unnamed: keeps the positions */
            pn = buf;
        }
        int v = add_var(L, pn, VAR_PARAM, OWN_PARAM);
        L->vi.v[v].own = OWN_PARAM;
        f->nparams = f->nvars;
    }
    cur_vec kids = {0};
    children(fn, &kids);
    for (size_t i = 0; i < kids.n; i++)
        if (kind(kids.v[i]) == CXCursor_CompoundStmt) lower_stmt(L, kids.v[i], &f->body);
    CA_VEC_FREE(kids);
    for (size_t i = 0; i < L->paired.n; i++) {
        ir_node *a = L->paired.v[i];
        if (!block_releases_var(&f->body, a->var)) a->flags = 0; /* not a lock here: a counter */
    }
    if (L->too_deep && !L->m->diagnostic)
        L->m->diagnostic = ca_xasprintf("nesting deeper than %d levels in %s (line %d); the rest of it was not analysed",
                                        IR_MAX_DEPTH, f->qualname, f->site.line);
    L->f = NULL;
}

/* Is fn a small helper that takes a lock (and does not give it back) or
 * releases something, on a path from a parameter or a global? Recorded in
 * L->wraps. Only a look at its calls, bounded: helpers are short. */
static void find_wrapper(cl *L, CXCursor fn, const char *name)
{
    cur_vec st = {0}, kids = {0}, calls = {0};
    children(fn, &kids);
    for (size_t i = 0; i < kids.n; i++)
        if (kind(kids.v[i]) == CXCursor_CompoundStmt) CA_VEC_PUSH(st, kids.v[i]);
    size_t visited = 0;
    while (st.n && visited++ < 400) {
        CXCursor c = st.v[--st.n];
        if (kind(c) == CXCursor_CallExpr) CA_VEC_PUSH(calls, c);
        children(c, &kids);
        for (size_t i = 0; i < kids.n; i++) CA_VEC_PUSH(st, kids.v[i]);
    }
    int small = st.n == 0;
    CA_VEC(lock_wrap) found = {0};
    for (size_t i = 0; small && i < calls.n && found.n < 4; i++) {
        const char *callee = callee_name(L, calls.v[i]);
        const ca_cat_entry *lock = cat(L, CAT_C_LOCK, callee), *rel = lock ? NULL : cat(L, CAT_C_RELEASE, callee);
        if (!lock && !rel) continue;
        int ai = rel && rel->arg ? atoi(rel->arg) : 0;
        apath p;
        if (ai >= call_nargs(calls.v[i]) || !access_path(L, call_arg(calls.v[i], ai), 1, &p)) continue;
        size_t rn = strlen(p.root);
        if (strncmp(p.path, p.root, rn) != 0) continue; /* `*m`: not a simple path */
        lock_wrap w = {name, -1, p.root, p.path + rn, lock};
        if (p.own == OWN_PARAM) {
            for (int k = 0; k < call_nargs(fn); k++)
                if (strcmp(cxs(L, c_cx.clang_getCursorSpelling(call_arg(fn, k))), p.root) == 0) w.param = k;
            if (w.param < 0) continue;
        } else if (p.own != OWN_GLOBAL) {
            continue;
        }
        CA_VEC_PUSH(found, w);
    }
    /* a lock taken and given back is a critical section, not a helper */
    for (size_t i = 0; i < found.n; i++) {
        int paired = 0;
        for (size_t k = 0; k < found.n; k++)
            paired |= k != i && (found.v[i].lock != NULL) != (found.v[k].lock != NULL) &&
                      found.v[i].param == found.v[k].param && strcmp(found.v[i].root, found.v[k].root) == 0 &&
                      strcmp(found.v[i].suffix, found.v[k].suffix) == 0;
        if (!paired) CA_VEC_PUSH(L->wraps, found.v[i]);
    }
    CA_VEC_FREE(found);
    CA_VEC_FREE(st);
    CA_VEC_FREE(kids);
    CA_VEC_FREE(calls);
}

static enum CXChildVisitResult wrap_cb(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    cl *L = d;
    if (kind(c) == CXCursor_FunctionDecl && c_cx.clang_isCursorDefinition(c)) {
        const char *name = cxs(L, c_cx.clang_getCursorSpelling(c));
        /* only helpers: what the catalog knows is lowered from the catalog */
        if (!cat(L, CAT_C_LOCK, name) && !cat(L, CAT_C_RELEASE, name) && !cat(L, CAT_C_ACQUIRE, name))
            find_wrapper(L, c, name);
    }
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult top_cb(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    cl *L = d;
    if (kind(c) == CXCursor_FunctionDecl && c_cx.clang_isCursorDefinition(c)) {
        unsigned s;
        if (loc_off(L, c_cx.clang_getCursorLocation(c), &s)) lower_function(L, c);
    }
    return CXChildVisit_Continue;
}

/* A cleanup routine defined in this file that does not release or take its
 * argument protects nothing. */
static void check_routines(cl *L)
{
    for (size_t i = 0; i < L->routine_calls.n; i++) {
        ir_node *c = L->routine_calls.v[i];
        for (int k = 0; k < L->m->nfuncs; k++) {
            const ir_func *fn = L->m->funcs[k];
            if (strcmp(fn->name, c->text) != 0) continue;
            eng_summary s;
            eng_summarize(fn, &s);
            if (fn->nparams < 1 || !((s.releases | s.takes_early | s.takes_late) & 1u)) c->vars[0] = -1;
            break;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* The module: tokens (cleanup pairs), comments (suppressions), diagnostics. */

/* Byte offsets covered by preprocessor directives (macro definitions). */
static int in_directive(cl *L, unsigned off)
{
    unsigned ls = off;
    while (ls > 0 && L->src[ls - 1] != '\n') ls--;
    /* continued lines: walk back over backslash-newlines */
    for (int guard = 0; guard < 1000; guard++) {
        unsigned p = ls;
        while (p < L->len && (L->src[p] == ' ' || L->src[p] == '\t')) p++;
        if (p < L->len && L->src[p] == '#') return 1;
        if (ls < 2 || L->src[ls - 2] != '\\') return 0;
        ls -= 1;
        while (ls > 0 && L->src[ls - 1] != '\n') ls--;
    }
    return 0;
}

static void split_args(cl *L, const CXToken *toks, unsigned ntok, unsigned lparen, str_vec *args, unsigned *close)
{
    int depth = 0;
    ca_sb cur = {0};
    *close = ntok;
    for (unsigned i = lparen; i < ntok; i++) {
        char *sp = cxs(L, c_cx.clang_getTokenSpelling(L->tu, toks[i]));
        if (strcmp(sp, "(") == 0 && depth++ == 0) continue;
        if (strcmp(sp, ")") == 0 && --depth == 0) {
            sv_push(args, ca_sb_str(&cur));
            *close = i;
            break;
        }
        if (strcmp(sp, ",") == 0 && depth == 1) {
            sv_push(args, ca_sb_str(&cur));
            ca_sb_reset(&cur);
            continue;
        }
        if (cur.len && c_cx.clang_getTokenKind(toks[i]) != CXToken_Punctuation) ca_sb_addc(&cur, ' ');
        ca_sb_adds(&cur, sp);
    }
    ca_sb_release(&cur);
}

static void find_pairs(cl *L)
{
    CXSourceLocation a = c_cx.clang_getLocationForOffset(L->tu, L->file, 0);
    CXSourceLocation b = c_cx.clang_getLocationForOffset(L->tu, L->file, L->len);
    CXToken *toks = NULL;
    unsigned ntok = 0;
    c_cx.clang_tokenize(L->tu, c_cx.clang_getRange(a, b), &toks, &ntok);
    CA_VEC(size_t) open = {0};
    for (unsigned i = 0; i + 1 < ntok; i++) {
        if (c_cx.clang_getTokenKind(toks[i]) != CXToken_Identifier) continue;
        char *sp = cxs(L, c_cx.clang_getTokenSpelling(L->tu, toks[i]));
        int push = cat(L, CAT_C_CLEANUP_PUSH, sp) != NULL, pop = !push && cat(L, CAT_C_CLEANUP_POP, sp);
        if (!push && !pop) continue;
        unsigned off, endoff;
        CXSourceRange r = c_cx.clang_getTokenExtent(L->tu, toks[i]);
        if (!loc_off(L, c_cx.clang_getRangeStart(r), &off) || in_directive(L, off)) continue;
        char *next = cxs(L, c_cx.clang_getTokenSpelling(L->tu, toks[i + 1]));
        if (strcmp(next, "(") != 0) continue;
        str_vec args = {0};
        unsigned close;
        split_args(L, toks, ntok, i + 1, &args, &close);
        if (close >= ntok || !loc_off(L, c_cx.clang_getRangeEnd(c_cx.clang_getTokenExtent(L->tu, toks[close])), &endoff))
            endoff = off;
        if (push) {
            cl_pair p;
            memset(&p, 0, sizeof(p));
            p.push_off = off;
            p.push_end = endoff;
            p.pop_off = p.pop_end = L->len;
            p.execute = 1;
            p.text = span_text(L, off, endoff, 160);
            if (args.n >= 1) {
                apath rp;
                if (text_path(L, args.v[0], &rp) && is_plain(&rp)) p.routine = rp.root;
            }
            if (args.n >= 2) {
                apath ap;
                if (text_path(L, args.v[1], &ap)) {
                    p.arg_path = ap.path;
                    p.arg_root = ap.root;
                }
            }
            CA_VEC_PUSH(L->pairs, p);
            CA_VEC_PUSH(open, L->pairs.n - 1);
        } else if (open.n) {
            cl_pair *p = &L->pairs.v[open.v[--open.n]];
            p->pop_off = off;
            p->pop_end = endoff;
            p->execute = !(args.n >= 1 && strcmp(args.v[0], "0") == 0);
        }
        sv_free(&args);
        i = close < ntok ? close : i;
    }
    CA_VEC_FREE(open);
    if (toks) c_cx.clang_disposeTokens(L->tu, toks, ntok);
}

static void add_suppression(cl *L, int line, const char *rules)
{
    ir_module *m = L->m;
    if (m->nsupp == m->cap_supp) {
        int cap = m->cap_supp ? m->cap_supp * 2 : 8;
        ir_suppress *v = ca_arena_alloc(&m->arena, sizeof(*v) * (size_t)cap);
        if (m->nsupp) memcpy(v, m->supp, sizeof(*v) * (size_t)m->nsupp);
        m->supp = v;
        m->cap_supp = cap;
    }
    m->supp[m->nsupp].line = line;
    m->supp[m->nsupp].rules = rules;
    m->nsupp++;
}

/* `cancelaudit: ignore[CAN501]` or `noqa: CAN501` in a comment. */
static void comment_suppression(cl *L, unsigned s, unsigned e)
{
    char *c = ca_arena_strndup(&L->m->arena, L->src + s, e - s);
    const char *p;
    ca_sb sb = {0};
    int found = 0;
    if ((p = strstr(c, "cancelaudit: ignore")) != NULL) {
        p += strlen("cancelaudit: ignore");
        found = 1;
        if (*p == '[') {
            const char *q = strchr(p, ']');
            if (q) ca_sb_add(&sb, p + 1, (size_t)(q - p - 1));
        }
    } else if ((p = strstr(c, "noqa")) != NULL) {
        p += 4;
        found = 1;
        if (*p == ':') {
            p++;
            while (*p) {
                while (*p == ' ' || *p == ',') p++;
                size_t n = 0;
                while (p[n] && is_ident_char(p[n])) n++;
                if (!n) break;
                if (sb.len) ca_sb_addc(&sb, ',');
                ca_sb_add(&sb, p, n);
                p += n;
            }
        }
    }
    if (found) {
        int line, col;
        line_col(L, s, &line, &col);
        char *r = ca_arena_strdup(&L->m->arena, sb.len ? ca_sb_str(&sb) : "*");
        char *w = r;
        for (const char *q = r; *q; q++)
            if (*q != ' ') *w++ = *q;
        *w = 0;
        add_suppression(L, line, r);
    }
    ca_sb_release(&sb);
}

static void scan_comments(cl *L)
{
    const char *s = L->src;
    unsigned n = L->len;
    for (unsigned i = 0; i < n; i++) {
        char c = s[i];
        if (c == '"' || c == '\'') {
            for (i++; i < n && s[i] != c && s[i] != '\n'; i++)
                if (s[i] == '\\') i++;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            unsigned st = i;
            while (i < n && s[i] != '\n') i++;
            comment_suppression(L, st, i);
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            unsigned st = i;
            for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++) {}
            i++;
            comment_suppression(L, st, i < n ? i + 1 : n);
        }
    }
}

static void diagnostics(cl *L)
{
    unsigned nd = c_cx.clang_getNumDiagnostics(L->tu);
    int errors = 0;
    char *first = NULL;
    ca_sb missing = {0};
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic d = c_cx.clang_getDiagnostic(L->tu, i);
        enum CXDiagnosticSeverity sev = c_cx.clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) {
            errors++;
            char *msg = cxs(L, c_cx.clang_getDiagnosticSpelling(d));
            unsigned off;
            int line = 0, col = 0;
            if (loc_off(L, c_cx.clang_getDiagnosticLocation(d), &off)) line_col(L, off, &line, &col);
            if (line && !L->m->first_error_line) L->m->first_error_line = line;
            if (!first) {
                /* one printable line, whatever the file held */
                char clean[161];
                size_t n = 0;
                for (const char *q = msg; *q && n < sizeof(clean) - 1; q++)
                    clean[n++] = (unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f ? '?' : *q;
                clean[n] = 0;
                if (strlen(msg) > n) memcpy(clean + n - 3, "...", 3);
                first = line ? ca_xasprintf("line %d: %s", line, clean) : ca_xstrdup(clean);
            }
            const char *nf = strstr(msg, "' file not found");
            if (nf && msg[0] == '\'' && missing.len < 400) {
                char *name = ca_xstrndup(msg, (size_t)(nf - msg) + 1);
                if (!strstr(ca_sb_str(&missing), name)) {
                    if (missing.len) ca_sb_adds(&missing, ", ");
                    ca_sb_adds(&missing, name);
                }
                free(name);
            }
        }
        c_cx.clang_disposeDiagnostic(d);
    }
    L->m->parse_errors = errors;
    if (errors) {
        L->m->diagnostic = ca_xasprintf("%s%s%s%d compile error%s (first at %s); analysed where it parsed",
                                        missing.len ? "missing header " : "", missing.len ? ca_sb_str(&missing) : "",
                                        missing.len ? "; " : "", errors, errors == 1 ? "" : "s", first);
    }
    free(first);
    ca_sb_release(&missing);
}

int c_lower(c_frontend *fe, const char *path, const char *src, size_t len, ir_module *m)
{
    m->path = ca_arena_strdup(&m->arena, path);
    m->src = src;
    m->len = len;
    m->language = "c";
    if (len > UINT_MAX / 2) {
        m->diagnostic = ca_xstrdup("file too large to parse");
        return -1;
    }
    const char *unloaded = c_libclang_load();
    if (unloaded) {
        m->diagnostic = ca_xstrdup(unloaded);
        return -1;
    }
    if (!fe->index) fe->index = c_cx.clang_createIndex(0, 0);
    char *abs = c_canonical(path);
    const str_vec *flags, *more;
    c_project_flags(fe->proj, path, &flags, &more);
    CA_VEC(const char *) argv = {0};
    if (c_is_header(path)) {
        CA_VEC_PUSH(argv, "-x");
        CA_VEC_PUSH(argv, "c");
    }
    for (size_t i = 0; i < flags->n; i++) CA_VEC_PUSH(argv, flags->v[i]);
    for (size_t i = 0; i < more->n; i++) CA_VEC_PUSH(argv, more->v[i]);
    CA_VEC_PUSH(argv, "-w");
    CA_VEC_PUSH(argv, "-ferror-limit=0");
    CA_VEC_PUSH(argv, "-fno-spell-checking");
    struct CXUnsavedFile uf = {abs, src, (unsigned long)len};
    CXTranslationUnit tu = NULL;
    enum CXErrorCode ec = c_cx.clang_parseTranslationUnit2(
        fe->index, abs, argv.v, (int)argv.n, &uf, 1, CXTranslationUnit_KeepGoing, &tu);
    CA_VEC_FREE(argv);
    if (ec != CXError_Success || !tu) {
        m->diagnostic = ca_xasprintf("libclang could not parse this file (error %d)", (int)ec);
        free(abs);
        return -1;
    }
    cl L;
    memset(&L, 0, sizeof(L));
    L.cat = fe->cat;
    L.m = m;
    L.tu = tu;
    L.file = c_cx.clang_getFile(tu, abs);
    L.src = src;
    L.len = (unsigned)len;
    free(abs);
    CA_VEC_PUSH(L.lines, 0u);
    for (unsigned i = 0; i < L.len; i++)
        if (src[i] == '\n') CA_VEC_PUSH(L.lines, i + 1);
    if (L.file) {
        diagnostics(&L);
        const char *how = m->parse_errors && m->diagnostic ? c_project_origin(fe->proj, path) : NULL;
        if (how) { /* say what was tried, so the fix (a database, an -I) is plain */
            char *d = ca_xasprintf("%s (%s)", m->diagnostic, how);
            free(m->diagnostic);
            m->diagnostic = d;
        }
        scan_comments(&L);
        find_pairs(&L);
        c_cx.clang_visitChildren(c_cx.clang_getTranslationUnitCursor(tu), wrap_cb, &L);
        c_cx.clang_visitChildren(c_cx.clang_getTranslationUnitCursor(tu), top_cb, &L);
        check_routines(&L);
    }
    CA_VEC_FREE(L.lines);
    CA_VEC_FREE(L.pairs);
    CA_VEC_FREE(L.routine_calls);
    CA_VEC_FREE(L.wraps);
    CA_VEC_FREE(L.vi);
    CA_VEC_FREE(L.targets);
    CA_VEC_FREE(L.paired);
    c_cx.clang_disposeTranslationUnit(tu);
    return 0;
}

#endif /* CA_HAVE_LIBCLANG_H */
