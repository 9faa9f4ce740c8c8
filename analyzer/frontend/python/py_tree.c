/*
 * py_tree.c — TSTree → flat node array (py_tree.h), in one cursor pass.
 */
#include "frontend/python/py_tree.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const TSLanguage *tree_sitter_python(void);

const pt_node pt_null = {0};

static const char *const type_names[PT__COUNT] = {
    [PT_NULL] = "",
    [PT_OTHER] = "",
#define PT_X(id, s) [PT_##id] = s,
    PT_TYPE_LIST(PT_X)
#undef PT_X
};

static const char *const field_names[PF__COUNT] = {
    [PF_NONE] = "",
#define PT_X(id, s) [PF_##id] = s,
    PT_FIELD_LIST(PT_X)
#undef PT_X
};

const char *pt_type_name(unsigned type) { return type < PT__COUNT ? type_names[type] : ""; }
const char *pt_field_name(unsigned field) { return field < PF__COUNT ? field_names[field] : ""; }

/* Grammar symbol → PT_ id (by name) and namedness, grammar field → PF_ id:
 * made once. */
static uint16_t *sym_type;
static uint8_t *sym_named;
static uint32_t nsym;
static uint8_t *field_map;
static uint32_t nfield;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static unsigned type_of_name(const char *name)
{
    if (!name) return PT_OTHER;
    for (unsigned t = PT_OTHER + 1; t < PT__COUNT; t++)
        if (strcmp(type_names[t], name) == 0) return t;
    return PT_OTHER;
}

static void tables_init(void)
{
    const TSLanguage *lang = tree_sitter_python();
    nsym = ts_language_symbol_count(lang);
    sym_type = ca_xcalloc(nsym ? nsym : 1, sizeof(*sym_type));
    sym_named = ca_xcalloc(nsym ? nsym : 1, sizeof(*sym_named));
    for (uint32_t s = 0; s < nsym; s++) {
        sym_type[s] = (uint16_t)type_of_name(ts_language_symbol_name(lang, (TSSymbol)s));
        sym_named[s] = ts_language_symbol_type(lang, (TSSymbol)s) == TSSymbolTypeRegular;
    }
    nfield = ts_language_field_count(lang) + 1; /* ids are 1..count */
    field_map = ca_xcalloc(nfield, 1);
    for (uint32_t f = 1; f < nfield; f++) {
        const char *name = ts_language_field_name_for_id(lang, (TSFieldId)f);
        for (unsigned k = 1; name && k < PF__COUNT; k++)
            if (strcmp(field_names[k], name) == 0) field_map[f] = (uint8_t)k;
    }
}

static unsigned type_of_symbol(TSSymbol s)
{
    if (s < nsym) return sym_type[s];
    /* ts_builtin_sym_error and other symbols past the table */
    return type_of_name(ts_language_symbol_name(tree_sitter_python(), s));
}

void py_tree_free(py_tree *t)
{
    free(t->v);
    free(t->lines);
    memset(t, 0, sizeof(*t));
}

void py_tree_trim(py_tree *t, size_t keep_bytes)
{
    t->n = 0;
    t->nlines = 0;
    if (t->cap * sizeof(*t->v) > keep_bytes) {
        free(t->v);
        t->v = NULL;
        t->cap = 0;
    }
    if (t->lines_cap * sizeof(*t->lines) > keep_bytes) {
        free(t->lines);
        t->lines = NULL;
        t->lines_cap = 0;
    }
}

void pt_point(const py_tree *t, uint32_t b, uint32_t *row, uint32_t *col)
{
    /* the last line starting at or before b */
    size_t lo = 0, hi = t->nlines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->lines[mid] <= b) lo = mid;
        else hi = mid;
    }
    *row = (uint32_t)lo;
    *col = t->nlines ? b - t->lines[lo] : b;
}

static void build_lines(py_tree *t, const char *src, uint32_t len)
{
    t->nlines = 0;
    uint32_t at = 0;
    for (;;) {
        if (t->nlines == t->lines_cap) {
            t->lines_cap = t->lines_cap ? t->lines_cap * 2 : 1024;
            t->lines = ca_xrealloc(t->lines, t->lines_cap * sizeof(*t->lines));
        }
        t->lines[t->nlines++] = at;
        const char *nl = at < len ? memchr(src + at, '\n', len - at) : NULL;
        if (!nl) break;
        at = (uint32_t)(nl - src) + 1;
    }
}

typedef struct level {
    uint32_t node; /* index of the parent at this level */
    uint32_t last; /* its last child so far, UINT32_MAX for none */
} level;

int py_tree_build(py_tree *t, const TSTree *tree, const char *src, uint32_t len)
{
    pthread_once(&tables_once, tables_init);
    t->n = 0;
    build_lines(t, src, len);
    TSNode root = ts_tree_root_node(tree);
    TSTreeCursor cur = ts_tree_cursor_new(root);
    /* a first guess from the size: a node per 4 bytes is more than Python has */
    size_t want = (size_t)(ts_node_end_byte(root) / 4) + 64;
    if (t->cap < want) {
        free(t->v);
        t->cap = want;
        t->v = ca_xmalloc(t->cap * sizeof(*t->v));
    }
    pt_node *v = t->v;
    size_t cap = t->cap, n = 0;
    CA_VEC(level) st = {0};
    int ok = 1;
    for (;;) {
        if (n == cap) {
            if (cap >= UINT32_MAX / 2) {
                ok = 0;
                break;
            }
            cap *= 2;
            v = ca_xrealloc(v, cap * sizeof(*v));
        }
        uint32_t i = (uint32_t)n++;
        TSNode x = ts_tree_cursor_current_node(&cur);
        pt_node *p = &v[i];
        TSSymbol sym = ts_node_symbol(x); /* alias-aware, as ts_node_type is */
        uint32_t kids = ts_node_child_count(x);
        p->start = ts_node_start_byte(x);
        p->end = ts_node_end_byte(x);
        p->next = 0;
        p->parent = 0;
        p->type = (uint16_t)type_of_symbol(sym);
        p->field = 0;
        /* the public symbol has the namedness of the node (ts_node_is_named);
         * only leaves can be MISSING */
        int named = sym < nsym ? sym_named[sym] : ts_node_is_named(x);
        p->flags = (uint8_t)((named ? PT_NAMED : 0) | (!kids && ts_node_is_missing(x) ? PT_MISSING : 0));
        if (st.n) {
            level *up = &st.v[st.n - 1];
            p->parent = i - up->node;
            v[up->node].flags |= PT_KIDS;
            TSFieldId f = ts_tree_cursor_current_field_id(&cur);
            if (f && f < nfield && field_map[f]) {
                p->field = field_map[f];
                v[up->node].flags |= PT_FIELDS;
            }
            if (up->last != UINT32_MAX) v[up->last].next = i - up->last;
            up->last = i;
        } else if (ts_node_has_error(x)) {
            p->flags |= PT_ERRORS; /* the root only: whether the file has syntax errors */
        }
        /* a leaf has no first child to look for */
        if (kids && ts_tree_cursor_goto_first_child(&cur)) {
            level l = {i, UINT32_MAX};
            CA_VEC_PUSH(st, l);
            continue;
        }
        int more = 0;
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(&cur)) {
                more = 1;
                break;
            }
            if (!ts_tree_cursor_goto_parent(&cur)) break;
            st.n--;
        }
        if (!more) break;
    }
    CA_VEC_FREE(st);
    ts_tree_cursor_delete(&cur);
    t->v = v;
    t->cap = cap;
    t->n = ok ? n : 0;
    return ok ? 0 : -1;
}
