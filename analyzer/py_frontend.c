/*
 * py_frontend.c — lowering Python (tree-sitter-python) to the ownership IR.
 *
 * Where it sits: discover → parse → **lower** → rules. For each function it
 * walks statements (recursively, bounded by IR_MAX_DEPTH) and expressions
 * (iteratively, post-order = evaluation order) and emits IR events. All
 * library knowledge comes from the catalog; the only Python names tested
 * here are the language's own (self, cls, True, list/tuple/...).
 */
#include "py_frontend.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/wait.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_python(void);

static void field_init(void);
static pthread_once_t field_once = PTHREAD_ONCE_INIT;

struct py_frontend {
    TSParser *parser;
    const ca_catalog *cat;
};

py_frontend *py_frontend_new(const ca_catalog *cat)
{
    py_frontend *fe = ca_xcalloc(1, sizeof(*fe));
    pthread_once(&field_once, field_init);
    fe->parser = ts_parser_new();
    ts_parser_set_language(fe->parser, tree_sitter_python());
    fe->cat = cat;
    return fe;
}

void py_frontend_free(py_frontend *fe)
{
    if (!fe) return;
    ts_parser_delete(fe->parser);
    free(fe);
}

/* ------------------------------------------------------------------------ */
/* Module-level facts gathered before lowering functions.                   */

typedef struct name_map {
    const char *key;   /* local name, or "Class.attr" */
    const char *value; /* resolved dotted name */
} name_map;

typedef struct pending_def {
    TSNode node;           /* function_definition or class_definition */
    const char *prefix;    /* qualname prefix ("", "Cls.", "f.<locals>.") */
    const char *class_name;
} pending_def;

typedef struct lower {
    py_frontend *fe;
    const ca_catalog *cat;
    ir_module *m;
    const char *src;
    uint32_t len;
    CA_VEC(name_map) imports;
    CA_VEC(name_map) globals;    /* module-level name → dotted of what it was assigned (may be "") */
    CA_VEC(name_map) class_attrs;/* "Class.attr" → dotted constructor */
    CA_VEC(pending_def) pending;
    /* per function */
    ir_func *f;
    const char *class_name;
    CA_VEC(name_map) locals_ctor; /* local var → dotted of the call it was assigned */
    CA_VEC(const char *) global_decl;
    int depth;
    int in_cleanup;
    int too_deep;
    CA_VEC(name_map) cancelled; /* receiver text of x.cancel() → "" */
} lower;

/* ------------------------------------------------------------------------ */
/* Node helpers.                                                            */

static const char *ty(TSNode n) { return ts_node_type(n); }
static int is(TSNode n, const char *t) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), t) == 0; }
/* Field ids looked up once: ts_language_field_id_for_name compares every
 * field name of the grammar on each call, and lowering asks millions of times. */
static const char *const field_names[] = {
    "function", "value", "body", "object", "name", "arguments", "left", "right", "attribute", "alias",
    "definition", "consequence", "condition", "alternative", "parameters", "module_name", "guard", "argument",
    NULL,
};
static TSFieldId field_ids[sizeof(field_names) / sizeof(field_names[0])];
static void field_init(void)
{
    const TSLanguage *lang = tree_sitter_python();
    for (int i = 0; field_names[i]; i++)
        field_ids[i] = ts_language_field_id_for_name(lang, field_names[i], (uint32_t)strlen(field_names[i]));
}

static TSNode field(TSNode n, const char *name)
{
    for (int i = 0; field_names[i]; i++)
        if (field_names[i][0] == name[0] && strcmp(field_names[i], name) == 0 && field_ids[i])
            return ts_node_child_by_field_id(n, field_ids[i]);
    return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

typedef CA_VEC(TSNode) node_vec;

/* n's named children in order into out (emptied first). A cursor walk, not
 * ts_node_named_child(n, i), which restarts from the first child on every
 * call: a loop over it is quadratic, minutes for a body of 50,000 lines. */
static void named_children(TSNode n, node_vec *out)
{
    out->n = 0;
    if (ts_node_is_null(n)) return;
    TSTreeCursor cur = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cur)) {
        do {
            TSNode ch = ts_tree_cursor_current_node(&cur);
            if (ts_node_is_named(ch)) CA_VEC_PUSH(*out, ch);
        } while (ts_tree_cursor_goto_next_sibling(&cur));
    }
    ts_tree_cursor_delete(&cur);
}

static char *text(lower *L, TSNode n)
{
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (e > L->len) e = L->len;
    if (s > e) s = e;
    return ca_arena_strndup(&L->m->arena, L->src + s, e - s);
}

/* Source text with whitespace runs collapsed to one space, capped at cap
 * bytes without splitting a UTF-8 sequence; "..." marks a cut. */
static char *norm_text(lower *L, TSNode n, size_t cap)
{
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (e > L->len) e = L->len;
    if (s > e) s = e;
    char *out = ca_arena_alloc(&L->m->arena, (e - s) + 8);
    size_t o = 0;
    int sp = 0, cut = 0;
    char quote = 0; /* inside a string literal: its quote character */
    int triple = 0;
    for (uint32_t i = s; i < e; i++) {
        char c = L->src[i];
        /* comments are not code: `# expect: ...` must not reach fingerprints */
        if (!quote && c == '#') {
            while (i < e && L->src[i] != '\n') i++;
            sp = 1;
            continue;
        }
        if (quote) {
            if (c == '\\' && i + 1 < e) {
                if (o + 2 <= cap) {
                    out[o++] = c;
                    out[o++] = L->src[++i];
                } else {
                    cut = 1;
                    break;
                }
                continue;
            }
            if (c == quote && (!triple || (i + 2 < e && L->src[i + 1] == quote && L->src[i + 2] == quote))) {
                if (triple && o + 3 <= cap) {
                    out[o++] = c;
                    out[o++] = c;
                    i += 2;
                }
                quote = 0;
                triple = 0;
                if (o + 1 > cap) { cut = 1; break; }
                out[o++] = c;
                continue;
            }
        } else if (c == '"' || c == '\'') {
            quote = c;
            triple = i + 2 < e && L->src[i + 1] == c && L->src[i + 2] == c;
            if (sp && o && o + 1 <= cap) out[o++] = ' ';
            sp = 0;
            size_t k = triple ? 3 : 1;
            if (o + k > cap) { cut = 1; break; }
            for (size_t j = 0; j < k; j++) out[o++] = c;
            i += (uint32_t)(k - 1);
            continue;
        }
        if (quote && (c == ' ' || c == '\t')) {
            /* whitespace inside strings is kept as written */
            if (o + 1 > cap) { cut = 1; break; }
            out[o++] = c;
            continue;
        }
        int continuation = c == '\\' && i + 1 < e && (L->src[i + 1] == '\n' || L->src[i + 1] == '\r');
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || continuation) {
            sp = 1;
            continue;
        }
        unsigned char uc = (unsigned char)c;
        size_t need = uc >= 0xF0 ? 4 : uc >= 0xE0 ? 3 : uc >= 0xC0 ? 2 : 1;
        if ((uc & 0xC0) == 0x80) need = 1; /* stray continuation byte */
        if (o + need + (sp && o ? 1 : 0) > cap) {
            cut = 1;
            break;
        }
        /* no space inside brackets or before a comma: `f( a, )` reads `f(a,)` */
        if (sp && o && !strchr(")]},", c) && !strchr("([{", out[o - 1])) out[o++] = ' ';
        sp = 0;
        for (size_t k = 0; k < need && i + k < e; k++) out[o++] = L->src[i + k];
        i += (uint32_t)(need - 1);
    }
    if (cut) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = 0;
    return out;
}

static int code_points(const char *s, uint32_t from, uint32_t to)
{
    int n = 0;
    for (uint32_t i = from; i < to; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) n++;
    return n;
}

static ir_site site_of(lower *L, TSNode n)
{
    ir_site s;
    TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
    uint32_t sb = ts_node_start_byte(n), eb = ts_node_end_byte(n);
    if (sb > L->len) sb = L->len;
    if (eb > L->len) eb = L->len;
    s.line = (int)a.row + 1;
    s.end_line = (int)b.row + 1;
    s.col = code_points(L->src, sb >= a.column ? sb - a.column : 0, sb) + 1;
    s.end_col = code_points(L->src, eb >= b.column ? eb - b.column : 0, eb) + 1;
    s.start = sb;
    s.end = eb;
    return s;
}

static TSNode unparen(TSNode n)
{
    while (!ts_node_is_null(n) && is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
        n = ts_node_named_child(n, 0);
    return n;
}

static int has_token(TSNode n, const char *tok)
{
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_child(n, i);
        if (!ts_node_is_named(ch) && strcmp(ty(ch), tok) == 0) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Names: dotted text of identifier/attribute chains, import resolution.    */

static const char *map_get(const name_map *v, size_t n, const char *key)
{
    for (size_t i = n; i-- > 0;)
        if (strcmp(v[i].key, key) == 0) return v[i].value;
    return NULL;
}

/* Dotted text of a name chain ("self._client.boxes.create"), keeping call
 * parentheses empty ("asyncio.get_event_loop().run_in_executor"); NULL for
 * anything else. Iterative down the object chain. */
static char *dotted_raw(lower *L, TSNode n)
{
    ca_sb sb = {0};
    /* collect components from the outside in, then reverse */
    const char *parts[64];
    int np = 0;
    TSNode cur = unparen(n);
    while (np < 64) {
        if (is(cur, "identifier")) {
            parts[np++] = text(L, cur);
            break;
        } else if (is(cur, "attribute")) {
            parts[np++] = text(L, field(cur, "attribute"));
            cur = unparen(field(cur, "object"));
        } else if (is(cur, "call")) {
            parts[np++] = "()";
            cur = unparen(field(cur, "function"));
        } else {
            ca_sb_release(&sb);
            return NULL;
        }
    }
    if (np == 0 || np == 64) return NULL;
    for (int i = np - 1; i >= 0; i--) {
        if (strcmp(parts[i], "()") == 0) {
            ca_sb_adds(&sb, "()");
            continue;
        }
        if (sb.len) ca_sb_addc(&sb, '.');
        ca_sb_adds(&sb, parts[i]);
    }
    char *r = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
    ca_sb_release(&sb);
    return r;
}

/* Resolve the first component through imports: `aio.shield` → `asyncio.shield`. */
static char *resolve(lower *L, const char *d)
{
    if (!d) return NULL;
    size_t n = strcspn(d, ".(");
    char head[256];
    if (n >= sizeof(head)) return (char *)d;
    memcpy(head, d, n);
    head[n] = 0;
    if (L->f && ir_var_find(L->f, head) >= 0) return (char *)d; /* a local shadows imports */
    const char *to = map_get(L->imports.v, L->imports.n, head);
    if (!to) return (char *)d;
    ca_sb sb = {0};
    ca_sb_adds(&sb, to);
    ca_sb_adds(&sb, d + n);
    char *r = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
    ca_sb_release(&sb);
    return r;
}

static char *dotted(lower *L, TSNode n) { return resolve(L, dotted_raw(L, n)); }

/* Name heuristics ignore privacy underscores: `_open_conn` reads as `open_conn`. */
static const char *bare_name(const char *n)
{
    if (!n) return n;
    while (*n == '_') n++;
    return n;
}

static const char *last_component(const char *d)
{
    if (!d) return NULL;
    const char *p = strrchr(d, '.');
    return p ? p + 1 : d;
}

/* Root identifier of an attribute/subscript/call chain, or null node. */
static TSNode root_ident(TSNode n)
{
    TSNode cur = unparen(n);
    for (int guard = 0; guard < 256; guard++) {
        if (is(cur, "identifier")) return cur;
        if (is(cur, "attribute")) cur = unparen(field(cur, "object"));
        else if (is(cur, "subscript")) cur = unparen(field(cur, "value"));
        else if (is(cur, "call")) cur = unparen(field(cur, "function"));
        else break;
    }
    TSNode nul = {0};
    return nul;
}

static int var_of(lower *L, TSNode n)
{
    n = unparen(n);
    if (!is(n, "identifier")) return -1;
    char buf[256];
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (e - s >= sizeof(buf)) return -1;
    memcpy(buf, L->src + s, e - s);
    buf[e - s] = 0;
    return ir_var_find(L->f, buf);
}

static int root_var(lower *L, TSNode n)
{
    TSNode r = root_ident(n);
    return ts_node_is_null(r) ? -1 : var_of(L, r);
}

/* Declared `global` / `nonlocal` in this function. */
static int declared_outer(lower *L, const char *name)
{
    for (size_t i = 0; i < L->global_decl.n; i++)
        if (strcmp(L->global_decl.v[i], name) == 0) return 1;
    return 0;
}

typedef enum owner_kind { OWN_NONE, OWN_LOCAL, OWN_PARAM, OWN_SELF, OWN_GLOBAL } owner_kind;

/* Who owns storage rooted at n: self/cls attributes, module globals, a
 * parameter's object (the caller's), or a local container. */
static owner_kind owner_of(lower *L, TSNode n, int *var)
{
    TSNode r = root_ident(n);
    *var = -1;
    if (ts_node_is_null(r)) return OWN_NONE;
    int v = var_of(L, r);
    char *name = text(L, r);
    if (v >= 0 && declared_outer(L, name)) return OWN_GLOBAL;
    if (v >= 0) {
        *var = v;
        if (L->f->vars[v].flags & VAR_SELF) return OWN_SELF;
        if (L->f->vars[v].flags & VAR_PARAM) return OWN_PARAM;
        return OWN_LOCAL;
    }
    if (strcmp(name, "self") == 0 || strcmp(name, "cls") == 0) return OWN_SELF;
    /* not a local of this function: a module global or a closure variable of
     * an enclosing function, either way an owner that outlives this call */
    return OWN_GLOBAL;
}

/* ------------------------------------------------------------------------ */
/* Collecting variables from expressions (iterative).                       */

typedef CA_VEC(int) int_vec;

static void push_unique(int_vec *v, int x)
{
    if (x < 0) return;
    for (size_t i = 0; i < v->n; i++)
        if (v->v[i] == x) return;
    CA_VEC_PUSH(*v, x);
}

/* Variables whose value (the object itself) flows into n: `v`, `(a, b)`,
 * `Entry(ws=ws)`, `[a, *rest]`, `{k: v}`, `x if c else y` — not `v.id`. */
static void value_vars(lower *L, TSNode n, int_vec *out)
{
    TSNode stack[512];
    int sp = 0;
    stack[sp++] = n;
    while (sp > 0) {
        TSNode cur = unparen(stack[--sp]);
        if (ts_node_is_null(cur)) continue;
        const char *t = ty(cur);
        if (strcmp(t, "identifier") == 0) {
            push_unique(out, var_of(L, cur));
        } else if (strcmp(t, "call") == 0) {
            TSNode args = field(cur, "arguments");
            if (!ts_node_is_null(args) && sp < 500) stack[sp++] = args;
        } else if (strcmp(t, "keyword_argument") == 0) {
            if (sp < 500) stack[sp++] = field(cur, "value");
        } else if (strcmp(t, "pair") == 0) {
            if (sp < 500) stack[sp++] = field(cur, "value");
        } else if (strcmp(t, "conditional_expression") == 0 || strcmp(t, "tuple") == 0 ||
                   strcmp(t, "list") == 0 || strcmp(t, "set") == 0 || strcmp(t, "dictionary") == 0 ||
                   strcmp(t, "argument_list") == 0 || strcmp(t, "expression_list") == 0 ||
                   strcmp(t, "list_splat") == 0 || strcmp(t, "dictionary_splat") == 0 ||
                   strcmp(t, "parenthesized_expression") == 0 || strcmp(t, "boolean_operator") == 0) {
            uint32_t c = ts_node_named_child_count(cur);
            for (uint32_t i = 0; i < c && sp < 500; i++) stack[sp++] = ts_node_named_child(cur, i);
        }
    }
}

/* Every tracked variable mentioned anywhere in n (attribute roots, lambda
 * bodies included): what a cleanup call "receives". */
static void ref_vars(lower *L, TSNode n, int_vec *out)
{
    TSNode stack[512];
    int sp = 0;
    stack[sp++] = n;
    while (sp > 0) {
        TSNode cur = stack[--sp];
        if (ts_node_is_null(cur)) continue;
        if (is(cur, "identifier")) {
            push_unique(out, var_of(L, cur));
            continue;
        }
        if (is(cur, "attribute")) { /* only the object side names a variable */
            if (sp < 500) stack[sp++] = field(cur, "object");
            continue;
        }
        if (is(cur, "keyword_argument")) {
            if (sp < 500) stack[sp++] = field(cur, "value");
            continue;
        }
        uint32_t c = ts_node_named_child_count(cur);
        for (uint32_t i = 0; i < c && sp < 500; i++) stack[sp++] = ts_node_named_child(cur, i);
    }
}

/* ------------------------------------------------------------------------ */
/* Event emission.                                                          */

static ir_node *emit(lower *L, ir_block *out, ir_kind k, TSNode at, int var)
{
    ir_node *n = ir_node_new(L->m, k, site_of(L, at));
    n->var = var;
    ir_block_push(L->m, out, n);
    return n;
}

static const ca_cat_entry *cat(lower *L, ca_cat_kind k, const char *s) { return ca_catalog_match(L->cat, k, s); }

static TSNode first_pos_arg(TSNode call, int idx)
{
    TSNode args = field(call, "arguments");
    TSNode nul = {0};
    if (ts_node_is_null(args) || !is(args, "argument_list")) return nul;
    uint32_t c = ts_node_named_child_count(args);
    int k = 0;
    for (uint32_t i = 0; i < c; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (is(a, "keyword_argument") || is(a, "comment")) continue;
        if (k++ == idx) return a;
    }
    return nul;
}

static TSNode kw_arg(lower *L, TSNode call, const char *kw)
{
    TSNode args = field(call, "arguments");
    TSNode nul = {0};
    if (ts_node_is_null(args)) return nul;
    uint32_t c = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < c; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (!is(a, "keyword_argument")) continue;
        char *name = text(L, field(a, "name"));
        if (strcmp(name, kw) == 0) return field(a, "value");
    }
    return nul;
}

static int is_true_literal(lower *L, TSNode n)
{
    n = unparen(n);
    if (is(n, "true")) return 1;
    if (is(n, "integer")) return strcmp(text(L, n), "0") != 0;
    return 0;
}

/* The member of container var `root` aliased under attribute `attr`, or -1. */
static int member_by_attr(lower *L, ir_block *scope_hint, int root, const char *attr);

/* Registry: a container stored on self/cls or at module level. */
static int is_registry(lower *L, TSNode recv)
{
    int v;
    owner_kind o = owner_of(L, recv, &v);
    if (o == OWN_SELF || o == OWN_GLOBAL) {
        /* `self` alone is no registry; self.x is */
        TSNode r = unparen(recv);
        return !is(r, "identifier") || o == OWN_GLOBAL;
    }
    return 0;
}

static int recv_is_group(lower *L, TSNode recv)
{
    int v = root_var(L, recv);
    if (v >= 0 && (L->f->vars[v].flags & VAR_GROUP)) return 1;
    const char *t = last_component(dotted_raw(L, recv));
    if (!t) return 0;
    return strstr(t, "nursery") || strstr(t, "tg") || strstr(t, "task_group") || strstr(t, "taskgroup") ||
           strstr(t, "group");
}

typedef struct call_info {
    TSNode node, fn, recv;
    char *dotted;       /* resolved */
    const char *name;   /* last component */
    int awaited;
} call_info;

static call_info call_of(lower *L, TSNode call)
{
    call_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.node = call;
    ci.fn = unparen(field(call, "function"));
    if (is(ci.fn, "attribute")) ci.recv = field(ci.fn, "object");
    ci.dotted = dotted(L, ci.fn);
    if (ci.dotted) ci.name = last_component(ci.dotted);
    else if (is(ci.fn, "attribute")) ci.name = text(L, field(ci.fn, "attribute"));
    /* `Sandbox.create.aio(...)`: an async flavour of the method before it */
    if (ci.name && !ts_node_is_null(ci.recv) && is(unparen(ci.recv), "attribute") &&
        cat(L, CAT_CALL_SUFFIX, ci.name)) {
        ci.fn = unparen(ci.recv);
        ci.recv = field(ci.fn, "object");
        ci.dotted = dotted(L, ci.fn);
        ci.name = ci.dotted ? last_component(ci.dotted) : text(L, field(ci.fn, "attribute"));
    }
    return ci;
}

static void emit_release(lower *L, ir_block *out, TSNode at, int v, unsigned extra, int_vec *deferred)
{
    if (v < 0) return;
    ir_var *var = &L->f->vars[v];
    if ((var->flags & VAR_ELEMENT) && deferred) {
        push_unique(deferred, v);
        return;
    }
    ir_node *n = emit(L, out, IR_RELEASE, at, v);
    n->flags = extra | (L->in_cleanup ? REL_IN_CLEANUP : 0);
}

/* Handle one call at its post-visit; the caller knows from the ancestors
 * whether it is awaited and whether a shield(...) call encloses it. */
static void on_call(lower *L, ir_block *out, TSNode call, int awaited, int shielded, int_vec *deferred)
{
    call_info ci = call_of(L, call);
    ci.awaited = awaited;
    unsigned relf = (shielded ? REL_SHIELDED : 0) | (ci.awaited ? REL_AWAITED : 0);
    TSNode args = field(call, "arguments");
    int handled = 0;

    if (ci.name && !ts_node_is_null(ci.recv) && strcmp(ci.name, "cancel") == 0) {
        name_map e = {norm_text(L, ci.recv, 200), ""};
        CA_VEC_PUSH(L->cancelled, e);
    }
    /* v.close(), entry.ws.close(), t.cancel() */
    if (ci.name && !ts_node_is_null(ci.recv) &&
        (cat(L, CAT_RELEASE_METHOD, ci.name) || ca_catalog_contains_word(L->cat, CAT_RELEASE_WORD, ci.name))) {
        int rv = root_var(L, ci.recv);
        if (rv >= 0 && !(L->f->vars[rv].flags & VAR_SELF)) {
            int target = rv;
            TSNode r = unparen(ci.recv);
            unsigned part = 0;
            if (is(r, "attribute") && is(unparen(field(r, "object")), "identifier")) {
                int mv = member_by_attr(L, out, rv, text(L, field(r, "attribute")));
                if (mv >= 0) target = mv;
                else part = REL_PART;
            } else if (!is(r, "identifier")) {
                part = REL_PART;
            }
            relf |= part;
            if (strcmp(ci.name, "cancel") == 0 && L->f->vars[target].first_cancel == UINT32_MAX)
                L->f->vars[target].first_cancel = ts_node_start_byte(call);
            emit_release(L, out, call, target, relf, ci.awaited ? deferred : NULL);
            handled = 1;
        }
    }
    /* os.close(fd) */
    if (!handled && ci.dotted && cat(L, CAT_RELEASE_FUNC, ci.dotted)) {
        int_vec vs = {0};
        TSNode a0 = first_pos_arg(call, 0);
        if (!ts_node_is_null(a0)) ref_vars(L, a0, &vs);
        for (size_t i = 0; i < vs.n; i++) emit_release(L, out, call, vs.v[i], relf, NULL);
        CA_VEC_FREE(vs);
        handled = 1;
    }
    /* exit stacks: stack.push_async_callback(v.close), stack.pop_all() */
    if (!handled && ci.name && !ts_node_is_null(ci.recv)) {
        int sv = root_var(L, ci.recv);
        int is_stack = sv >= 0 && (L->f->vars[sv].flags & VAR_EXIT_STACK);
        if (cat(L, CAT_EXIT_STACK_ADOPT, ci.name) && sv >= 0) {
            int_vec vs = {0};
            if (!ts_node_is_null(args)) ref_vars(L, args, &vs);
            for (size_t i = 0; i < vs.n; i++) {
                if (vs.v[i] == sv) continue;
                if (is_stack) {
                    ir_node *n = emit(L, out, IR_ADOPT, call, vs.v[i]);
                    n->ref = L->f->vars[sv].stack_with;
                    n->var2 = sv;
                } else {
                    ir_node *n = emit(L, out, IR_ALIAS, call, vs.v[i]);
                    n->var2 = sv;
                }
            }
            CA_VEC_FREE(vs);
            handled = 1;
        } else if (cat(L, CAT_EXIT_STACK_COMMIT, ci.name) && is_stack) {
            ir_node *n = emit(L, out, IR_COMMIT, call, -1);
            n->var2 = sv;
            handled = 1;
        }
    }
    /* containers: self._reg.add(v) transfers; local.append(v) aliases */
    if (!handled && ci.name && !ts_node_is_null(ci.recv) && cat(L, CAT_REGISTER_METHOD, ci.name)) {
        int cv;
        owner_kind o = owner_of(L, ci.recv, &cv);
        int_vec vs = {0};
        if (!ts_node_is_null(args)) value_vars(L, args, &vs);
        for (size_t i = 0; i < vs.n; i++) {
            if (o == OWN_SELF || o == OWN_GLOBAL || o == OWN_PARAM) {
                emit(L, out, IR_TRANSFER, call, vs.v[i]);
            } else if (o == OWN_LOCAL && vs.v[i] != cv) {
                ir_node *n = emit(L, out, IR_ALIAS, call, vs.v[i]);
                n->var2 = cv;
            }
        }
        if (vs.n) handled = 1;
        CA_VEC_FREE(vs);
    }
    /* self._reg.clear(): values read from it earlier are taken out */
    if (!handled && ci.name && !ts_node_is_null(ci.recv) && cat(L, CAT_CLEAR_METHOD, ci.name) &&
        is_registry(L, ci.recv)) {
        ir_node *n = emit(L, out, IR_TAKE, call, -1);
        n->text = norm_text(L, ci.recv, 200);
        handled = 1;
    }
    if (handled) return;

    /* Any other call: record it with its variable arguments, so the rules
     * can apply the callee's summary or the naming heuristics. */
    int_vec vs = {0};
    CA_VEC(const char *) kws = {0};
    if (!ts_node_is_null(args) && is(args, "argument_list")) {
        uint32_t c = ts_node_named_child_count(args);
        for (uint32_t i = 0; i < c; i++) {
            TSNode a = ts_node_named_child(args, i);
            const char *kw = NULL;
            if (is(a, "keyword_argument")) {
                kw = text(L, field(a, "name"));
                a = field(a, "value");
            }
            if (is(a, "comment")) continue;
            int_vec one = {0};
            ref_vars(L, a, &one);
            if (one.n == 0) {
                CA_VEC_PUSH(vs, -1);
                CA_VEC_PUSH(kws, kw);
            }
            for (size_t j = 0; j < one.n; j++) {
                CA_VEC_PUSH(vs, one.v[j]);
                CA_VEC_PUSH(kws, kw);
            }
            CA_VEC_FREE(one);
        }
    }
    int any_var = 0;
    for (size_t i = 0; i < vs.n; i++) any_var |= vs.v[i] >= 0;
    int on_self = 0;
    if (!ts_node_is_null(ci.recv)) {
        TSNode r = unparen(ci.recv);
        int rv = var_of(L, r);
        on_self = is(r, "identifier") && rv >= 0 && (L->f->vars[rv].flags & VAR_SELF);
    }
    int plain = is(ci.fn, "identifier");
    if (any_var || on_self || plain) {
        ir_node *n = emit(L, out, IR_CALL, call, -1);
        n->text = on_self ? text(L, field(ci.fn, "attribute")) : (ci.dotted ? ci.dotted : text(L, ci.fn));
        n->flags = (ci.awaited ? CALL_AWAITED : 0) | (L->in_cleanup ? CALL_IN_CLEANUP : 0) |
                   (on_self ? CALL_ON_SELF : 0);
        const char *nm = ci.name ? ci.name : "";
        if (ca_catalog_contains_word(L->cat, CAT_RELEASE_WORD, nm)) n->flags |= CALL_NAME_RELEASES;
        if (ca_catalog_contains_word(L->cat, CAT_REGISTER_WORD, nm)) n->flags |= CALL_NAME_REGISTERS;
        if (relf & REL_SHIELDED) n->flags |= 0; /* shielding recorded on the checkpoint */
        n->nvars = (int)vs.n;
        n->vars = ca_arena_alloc(&L->m->arena, sizeof(int) * (vs.n ? vs.n : 1));
        n->kwnames = ca_arena_alloc(&L->m->arena, sizeof(char *) * (vs.n ? vs.n : 1));
        for (size_t i = 0; i < vs.n; i++) {
            n->vars[i] = vs.v[i];
            n->kwnames[i] = kws.v[i];
        }
    }
    CA_VEC_FREE(vs);
    CA_VEC_FREE(kws);
}

static int call_is_remote(lower *L, const call_info *ci)
{
    if (!ci->name) return 0;
    if (ci->dotted && cat(L, CAT_REMOTE_CREATE, ci->dotted)) return 1;
    if (ts_node_is_null(ci->recv)) return 0;
    if (!cat(L, CAT_REMOTE_PREFIX, bare_name(ci->name)) || cat(L, CAT_NOT_REMOTE, bare_name(ci->name))) return 0;
    char *rd = dotted(L, ci->recv);
    if (!rd) return 1; /* a receiver made by an expression: still a client call */
    if (cat(L, CAT_LOCAL_RECEIVER, rd)) return 0;
    int rv = root_var(L, ci->recv);
    if (rv >= 0 && (L->f->vars[rv].flags & (VAR_GROUP | VAR_EXIT_STACK))) return 0;
    return 1;
}

/* Handle an await at its post-visit: the checkpoint and what it implies. */
static void on_await(lower *L, ir_block *out, TSNode aw, size_t events_before, int_vec *deferred)
{
    TSNode e = unparen(ts_node_named_child(aw, 0));
    ir_node *cp = ir_node_new(L->m, IR_CHECKPOINT, site_of(L, aw));
    cp->flags = CP_AWAIT | (L->in_cleanup ? CP_IN_CLEANUP : 0);
    cp->text = norm_text(L, aw, 160);
    int_vec pass = {0}, done = {0};
    unsigned remf = 0;
    TSNode inner = e;
    int first = 1;
    for (int guard = 0; guard < 8; guard++) {
        inner = unparen(inner);
        if (is(inner, "identifier")) {
            int v = var_of(L, inner);
            if (first) push_unique(&pass, v);
            push_unique(&done, v);
            if (map_get(L->cancelled.v, L->cancelled.n, norm_text(L, inner, 200))) cp->flags |= CP_AWAITS_CANCELLED;
            break;
        }
        if (is(inner, "attribute")) {
            if (map_get(L->cancelled.v, L->cancelled.n, norm_text(L, inner, 200))) cp->flags |= CP_AWAITS_CANCELLED;
            break;
        }
        if (!is(inner, "call")) break;
        char *d = dotted(L, field(inner, "function"));
        if (d && cat(L, CAT_PASS_CANCEL, d)) {
            TSNode args = field(inner, "arguments");
            uint32_t c = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
            int is_timeout = cat(L, CAT_TIMEOUT_CALL, d) != NULL;
            for (uint32_t i = 0; i < c; i++) {
                TSNode a = ts_node_named_child(args, i);
                if (is(a, "keyword_argument")) continue;
                if (is(a, "list_splat")) a = ts_node_named_child(a, 0);
                int v = var_of(L, a);
                if (v >= 0) {
                    if (first) push_unique(&pass, v);
                    push_unique(&done, v);
                }
                if (is_timeout) break; /* wait_for(aw, timeout): only the first */
            }
            if (is_timeout) {
                remf |= REM_TIMEOUT;
                inner = first_pos_arg(inner, 0);
                first = 0;
                continue;
            }
            break;
        }
        if (d && cat(L, CAT_TIMEOUT_CALL, d)) {
            remf |= REM_TIMEOUT;
            inner = first_pos_arg(inner, 0);
            first = 0;
            continue;
        }
        if (d && cat(L, CAT_SHIELD_CALL, d)) {
            remf |= REM_SHIELDED;
            cp->flags |= CP_SHIELDED;
            inner = first_pos_arg(inner, 0);
            first = 0;
            continue;
        }
        break;
    }
    inner = unparen(inner);
    if (is(inner, "call")) {
        cp->flags |= CP_CALL;
        call_info ci = call_of(L, inner);
        int on = !ts_node_is_null(ci.recv) ? root_var(L, ci.recv) : -1;
        if (on >= 0 && (L->f->vars[on].flags & (VAR_SELF | VAR_PARAM))) on = -1;
        if (on < 0) {
            int_vec av = {0};
            TSNode args = field(inner, "arguments");
            if (!ts_node_is_null(args)) ref_vars(L, args, &av);
            for (size_t k = 0; k < av.n && on < 0; k++)
                if (!(L->f->vars[av.v[k]].flags & (VAR_SELF | VAR_PARAM))) on = av.v[k];
            CA_VEC_FREE(av);
        }
        if (on >= 0) {
            cp->flags |= CP_ON_VAR;
            cp->var = on;
        }
        if (call_is_remote(L, &ci)) {
            ir_node *r = emit(L, out, IR_REMOTE, aw, -1);
            r->flags = remf;
            r->text = norm_text(L, ci.fn, 120);
        }
        if (ci.dotted && cat(L, CAT_EXECUTOR, ci.dotted)) {
            ir_node *x = emit(L, out, IR_EXECUTOR, aw, -1);
            x->flags = remf;
            x->text = norm_text(L, ci.fn, 120);
        }
    }
    for (size_t i = events_before; i < (size_t)out->n; i++) {
        ir_node *n = out->v[i];
        if (n->kind == IR_RELEASE || (n->kind == IR_CALL && (n->flags & (CALL_NAME_RELEASES | CALL_IN_CLEANUP))))
            cp->flags |= CP_RELEASES;
    }
    if (deferred->n) cp->flags |= CP_RELEASES;
    cp->nvars = (int)pass.n;
    cp->vars = ca_arena_alloc(&L->m->arena, sizeof(int) * (pass.n ? pass.n : 1));
    for (size_t i = 0; i < pass.n; i++) cp->vars[i] = pass.v[i];
    ir_block_push(L->m, out, cp);
    /* element releases happen after the await: the rest are unowned meanwhile */
    for (size_t i = 0; i < deferred->n; i++) {
        ir_node *n = emit(L, out, IR_RELEASE, aw, deferred->v[i]);
        n->flags = REL_AWAITED | (L->in_cleanup ? REL_IN_CLEANUP : 0);
    }
    deferred->n = 0;
    for (size_t i = 0; i < done.n; i++) emit(L, out, IR_DONE, aw, done.v[i]);
    CA_VEC_FREE(pass);
    CA_VEC_FREE(done);
}

static void bind_target(lower *L, ir_block *out, TSNode left, TSNode right, TSNode at);

/* Lower an expression's events in evaluation order (iterative post-order
 * with a tree cursor: tree-sitter 0.20 finds a node's parent or sibling by
 * walking down from the root, so the ancestors live in our own frames).
 * Nested scopes (lambda, generator expressions, defs) are not entered. */
static void lower_expr(lower *L, ir_block *out, TSNode expr, TSNode stmt)
{
    (void)stmt;
    if (ts_node_is_null(expr)) return;
    typedef struct frame {
        TSNode n;
        int started;
        int shield;            /* a shield(...) call */
        size_t events_before;
        int_vec deferred;
    } frame;
    CA_VEC(frame) st = {0};
    TSTreeCursor cur = ts_tree_cursor_new(expr);
    frame f0 = {expr, 0, 0, (size_t)out->n, {0}};
    CA_VEC_PUSH(st, f0);
    while (st.n) {
        frame *top = &st.v[st.n - 1];
        TSNode n = top->n;
        const char *t = ty(n);
        int pushed = 0;
        if (!top->started) {
            top->started = 1;
            int opaque = strcmp(t, "lambda") == 0 || strcmp(t, "generator_expression") == 0 ||
                         strcmp(t, "function_definition") == 0 || strcmp(t, "class_definition") == 0;
            if (!opaque && st.n < 4096 && ts_tree_cursor_goto_first_child(&cur)) {
                int more = 1;
                while (more && !ts_node_is_named(ts_tree_cursor_current_node(&cur)))
                    more = ts_tree_cursor_goto_next_sibling(&cur);
                pushed = more;
                if (!pushed) ts_tree_cursor_goto_parent(&cur);
            }
        } else {
            /* back from a child: the cursor is on it */
            int more;
            do more = ts_tree_cursor_goto_next_sibling(&cur);
            while (more && !ts_node_is_named(ts_tree_cursor_current_node(&cur)));
            pushed = more;
            if (!pushed) ts_tree_cursor_goto_parent(&cur);
        }
        if (pushed) {
            TSNode ch = ts_tree_cursor_current_node(&cur);
            frame fr = {ch, 0, 0, (size_t)out->n, {0}};
            if (is(ch, "call") && cat(L, CAT_SHIELD_CALL, dotted(L, field(ch, "function")))) fr.shield = 1;
            CA_VEC_PUSH(st, fr);
        }
        if (pushed) continue;
        frame done = st.v[--st.n];
        if (strcmp(t, "call") == 0) {
            /* deferred element releases belong to the enclosing await */
            int_vec *dest = &done.deferred;
            int awaited = 0, shielded = 0;
            for (size_t k = st.n; k-- > 0;) {
                if (is(st.v[k].n, "await")) { dest = &st.v[k].deferred; awaited = 1; break; }
                if (!is(st.v[k].n, "parenthesized_expression")) break;
            }
            for (size_t k = 0; k < st.n; k++) shielded |= st.v[k].shield;
            on_call(L, out, n, awaited, shielded, dest);
        } else if (strcmp(t, "await") == 0) {
            on_await(L, out, n, done.events_before, &done.deferred);
        } else if (strcmp(t, "for_in_clause") == 0 && has_token(n, "async")) {
            /* an async comprehension steps its iterator in this coroutine */
            ir_node *cp = emit(L, out, IR_CHECKPOINT, n, -1);
            cp->flags = CP_ASYNC_FOR | (L->in_cleanup ? CP_IN_CLEANUP : 0);
            cp->text = norm_text(L, n, 160);
        } else if (strcmp(t, "named_expression") == 0) {
            bind_target(L, out, field(n, "name"), field(n, "value"), n);
        } else if (strcmp(t, "yield") == 0) {
            int_vec vs = {0};
            uint32_t yc = ts_node_named_child_count(n);
            for (uint32_t i = 0; i < yc; i++) value_vars(L, ts_node_named_child(n, i), &vs);
            for (size_t i = 0; i < vs.n; i++) emit(L, out, IR_TRANSFER, n, vs.v[i]);
            CA_VEC_FREE(vs);
        }
        /* release still-deferred element releases (no enclosing await) */
        for (size_t i = 0; i < done.deferred.n; i++) {
            ir_node *r = emit(L, out, IR_RELEASE, n, done.deferred.v[i]);
            r->flags = L->in_cleanup ? REL_IN_CLEANUP : 0;
        }
        CA_VEC_FREE(done.deferred);
    }
    CA_VEC_FREE(st);
    ts_tree_cursor_delete(&cur);
}

static int member_by_attr(lower *L, ir_block *scope_hint, int root, const char *attr)
{
    (void)scope_hint;
    /* aliases are recorded as IR_ALIAS nodes in blocks; search this function's
     * alias table kept on the side */
    for (size_t i = 0; i < L->locals_ctor.n; i++) {
        const name_map *e = &L->locals_ctor.v[i];
        if (e->key[0] != '@') continue;
        /* key "@root.attr" value "member" */
        const char *dot = strchr(e->key + 1, '.');
        if (!dot) continue;
        if ((size_t)(dot - e->key - 1) != strlen(L->f->vars[root].name) ||
            strncmp(e->key + 1, L->f->vars[root].name, (size_t)(dot - e->key - 1)) != 0)
            continue;
        if (strcmp(dot + 1, attr) == 0) return ir_var_find(L->f, e->value);
    }
    return -1;
}

static void remember_member(lower *L, int container, const char *attr, int member)
{
    if (container < 0 || member < 0 || !attr) return;
    name_map e;
    ca_sb sb = {0};
    ca_sb_addf(&sb, "@%s.%s", L->f->vars[container].name, attr);
    e.key = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
    ca_sb_release(&sb);
    e.value = L->f->vars[member].name;
    CA_VEC_PUSH(L->locals_ctor, e);
}

/* Emit aliases of the values in `right` into container var c; keyword
 * arguments of a constructor name the member (`Entry(ws=ws)`). */
static void alias_into(lower *L, ir_block *out, TSNode right, int c, TSNode at)
{
    int_vec vs = {0};
    value_vars(L, right, &vs);
    for (size_t i = 0; i < vs.n; i++) {
        if (vs.v[i] == c) continue;
        ir_node *n = emit(L, out, IR_ALIAS, at, vs.v[i]);
        n->var2 = c;
    }
    CA_VEC_FREE(vs);
    TSNode r = unparen(right);
    if (is(r, "call")) {
        TSNode args = field(r, "arguments");
        uint32_t cnt = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
        for (uint32_t i = 0; i < cnt; i++) {
            TSNode a = ts_node_named_child(args, i);
            if (!is(a, "keyword_argument")) continue;
            int mv = var_of(L, field(a, "value"));
            if (mv >= 0) remember_member(L, c, text(L, field(a, "name")), mv);
        }
    }
}

/* Describe how a right-hand side makes its value. */
typedef struct rhs_info {
    unsigned acq;          /* ACQ_* */
    const char *rkind;
    int tuple_index;
    int parent;            /* receiver's variable */
    const char *registry;  /* for registry reads/takes */
    int adopt_stack;       /* exit stack var adopting the result */
    int is_call;
} rhs_info;

static const char *builtin_wrappers[] = {"list", "tuple", "sorted", "set", "dict", "reversed", NULL};

static rhs_info classify_rhs(lower *L, TSNode right)
{
    rhs_info ri = {0, NULL, -1, -1, NULL, -1, 0};
    TSNode r = unparen(right);
    int awaited = 0;
    if (is(r, "await")) {
        awaited = 1;
        r = unparen(ts_node_named_child(r, 0));
    }
    for (int guard = 0; guard < 8 && is(r, "call"); guard++) {
        char *d = dotted(L, field(r, "function"));
        if (d && (cat(L, CAT_TIMEOUT_CALL, d) || cat(L, CAT_SHIELD_CALL, d))) {
            r = unparen(first_pos_arg(r, 0));
            continue;
        }
        break;
    }
    if (is(r, "list_comprehension") || is(r, "set_comprehension")) {
        TSNode body = unparen(ts_node_named_child(r, 0));
        if (is(body, "call")) {
            call_info ci = call_of(L, body);
            const ca_cat_entry *e = ci.dotted ? cat(L, CAT_ACQUIRE, ci.dotted) : NULL;
            if (e && !(ci.name && cat(L, CAT_GROUP_SPAWN, ci.name) && !ts_node_is_null(ci.recv) &&
                       recv_is_group(L, ci.recv))) {
                ri.acq = ACQ_STRONG;
                ri.rkind = e->kind;
            }
        }
        return ri;
    }
    if (is(r, "subscript")) {
        TSNode val = field(r, "value");
        if (is_registry(L, val)) {
            ri.acq = ACQ_REGISTRY_READ;
            ri.registry = norm_text(L, val, 200);
        }
        return ri;
    }
    if (!is(r, "call")) return ri;
    ri.is_call = 1;
    call_info ci = call_of(L, r);
    /* list(self._reg.values()) */
    if (ci.dotted && !ts_node_is_null(first_pos_arg(r, 0))) {
        for (const char **w = builtin_wrappers; *w; w++) {
            if (strcmp(ci.dotted, *w) != 0) continue;
            TSNode in = unparen(first_pos_arg(r, 0));
            TSNode base = is(in, "call") ? unparen(field(in, "function")) : in;
            if (is(base, "attribute") && is(in, "call")) base = field(base, "object");
            if (is_registry(L, base)) {
                ri.acq = ACQ_REGISTRY_READ;
                ri.registry = norm_text(L, base, 200);
                return ri;
            }
        }
    }
    int group_spawn = ci.name && !ts_node_is_null(ci.recv) && cat(L, CAT_GROUP_SPAWN, ci.name) &&
                      recv_is_group(L, ci.recv);
    if (group_spawn) return ri;
    if (!ts_node_is_null(ci.recv)) {
        int rv = root_var(L, ci.recv);
        if (rv >= 0 && !(L->f->vars[rv].flags & (VAR_SELF | VAR_PARAM))) ri.parent = rv;
        if (rv >= 0 && (L->f->vars[rv].flags & VAR_EXIT_STACK) && ci.name && cat(L, CAT_EXIT_STACK_ADOPT, ci.name)) {
            ri.adopt_stack = rv;
            ri.parent = -1;
            ri.acq = ACQ_STRONG;
            ri.rkind = "resource";
            TSNode a0 = unparen(first_pos_arg(r, 0));
            if (is(a0, "call")) {
                call_info ai = call_of(L, a0);
                const ca_cat_entry *e = ai.dotted ? cat(L, CAT_ACQUIRE, ai.dotted) : NULL;
                if (e) ri.rkind = e->kind;
            }
            return ri;
        }
    }
    const ca_cat_entry *e = ci.dotted ? cat(L, CAT_ACQUIRE, ci.dotted) : NULL;
    if (e) {
        ri.acq = ACQ_STRONG;
        ri.rkind = e->kind;
        ri.tuple_index = e->tuple_index;
        return ri;
    }
    if (awaited && ci.dotted && cat(L, CAT_EXECUTOR, ci.dotted)) {
        ri.acq = ACQ_WEAK | ACQ_EXECUTOR;
        ri.rkind = "resource";
        for (int k = 0; k < 2; k++) {
            TSNode fa = first_pos_arg(r, k);
            char *fd = ts_node_is_null(fa) ? NULL : dotted(L, fa);
            const ca_cat_entry *fe = fd ? cat(L, CAT_ACQUIRE, fd) : NULL;
            if (!fe && fd) fe = cat(L, CAT_ACQUIRE_PREFIX, bare_name(last_component(fd)));
            if (fe) {
                ri.acq = ACQ_STRONG | ACQ_EXECUTOR;
                ri.rkind = fe->kind;
            }
        }
        ri.parent = -1;
        return ri;
    }
    if (ci.name && !ts_node_is_null(ci.recv) && is_registry(L, ci.recv)) {
        if (cat(L, CAT_TAKE_METHOD, ci.name)) {
            ri.acq = ACQ_REGISTRY_TAKE;
            ri.rkind = "registry entry";
            ri.registry = norm_text(L, ci.recv, 200);
            return ri;
        }
        if (cat(L, CAT_READ_METHOD, ci.name)) {
            ri.acq = ACQ_REGISTRY_READ;
            ri.registry = norm_text(L, ci.recv, 200);
            return ri;
        }
    }
    if (awaited && ci.name) {
        const ca_cat_entry *p = cat(L, CAT_ACQUIRE_PREFIX, bare_name(ci.name));
        if (p && !cat(L, CAT_NOT_REMOTE, bare_name(ci.name))) {
            ri.acq = ACQ_STRONG;
            ri.rkind = p->kind;
            return ri;
        }
    }
    ri.acq = ACQ_WEAK;
    ri.rkind = "resource";
    return ri;
}

static void record_ctor(lower *L, int v, TSNode right)
{
    TSNode r = unparen(right);
    char *d = NULL;
    if (is(r, "call")) d = dotted(L, field(r, "function"));
    else if (is(r, "attribute") || is(r, "identifier")) d = dotted(L, r);
    if (!d || v < 0) return;
    name_map e = {L->f->vars[v].name, d};
    CA_VEC_PUSH(L->locals_ctor, e);
}

static void acquire_var(lower *L, ir_block *out, TSNode at, int v, const rhs_info *ri, TSNode right)
{
    if (v < 0) return;
    ir_node *n = emit(L, out, IR_ACQUIRE, at, v);
    n->flags = ri->acq;
    n->rkind = ri->rkind ? ri->rkind : "resource";
    n->var2 = ri->parent == v ? -1 : ri->parent;
    n->text = ri->registry;
    if (ri->acq & ACQ_EXECUTOR) {
        for (int i = out->n - 1; i >= 0; i--)
            if (out->v[i]->kind == IR_EXECUTOR) {
                out->v[i]->var = v;
                if (ri->acq & ACQ_STRONG) out->v[i]->flags |= 0x100u;
                break;
            }
    }
    if (ri->adopt_stack >= 0) {
        ir_node *a = emit(L, out, IR_ADOPT, at, v);
        a->ref = L->f->vars[ri->adopt_stack].stack_with;
        a->var2 = ri->adopt_stack;
    }
    /* values passed to a non-acquiring constructor are held by its result */
    if ((ri->acq & ACQ_WEAK) && ri->is_call) alias_into(L, out, right, v, at);
}

/* Bind `left` to the value of `right` (whose events are already emitted). */
static void bind_target(lower *L, ir_block *out, TSNode left, TSNode right, TSNode at)
{
    left = unparen(left);
    TSNode r = unparen(right);
    if (is(left, "identifier")) {
        char *name = text(L, left);
        int existing = ir_var_find(L->f, name);
        int v = existing >= 0 ? existing : ir_var_add(L->m, L->f, name, 0);
        record_ctor(L, v, right);
        int rv = var_of(L, r);
        if (rv >= 0) {
            if (rv != v) {
                ir_node *n = emit(L, out, IR_ALIAS, at, rv);
                n->var2 = v;
            }
            return;
        }
        rhs_info ri = classify_rhs(L, right);
        if (ri.acq) acquire_var(L, out, at, v, &ri, right);
        else if (is(r, "tuple") || is(r, "list") || is(r, "dictionary") || is(r, "set") ||
                 is(r, "conditional_expression"))
            alias_into(L, out, right, v, at);
        return;
    }
    if (is(left, "pattern_list") || is(left, "tuple_pattern") || is(left, "list_pattern") ||
        is(left, "tuple") || is(left, "list")) {
        rhs_info ri = classify_rhs(L, right);
        uint32_t c = ts_node_named_child_count(left);
        /* parallel unpacking of a literal tuple: a, b = x, y */
        TSNode rr = unparen(right);
        int literal = (is(rr, "tuple") || is(rr, "expression_list")) && ts_node_named_child_count(rr) == c;
        for (uint32_t i = 0; i < c; i++) {
            TSNode el = unparen(ts_node_named_child(left, i));
            if (is(el, "list_splat_pattern")) el = ts_node_named_child(el, 0);
            if (literal) {
                bind_target(L, out, el, ts_node_named_child(rr, i), at);
                continue;
            }
            if (!is(el, "identifier")) {
                if (ri.acq == 0) bind_target(L, out, el, right, at);
                continue;
            }
            if (strcmp(text(L, el), "_") == 0) continue; /* discarded on purpose */
            int v = ir_var_add(L->m, L->f, text(L, el), 0);
            if (!ri.acq) continue;
            if (ri.tuple_index >= 0 && (int)i != ri.tuple_index) continue;
            acquire_var(L, out, at, v, &ri, right);
        }
        return;
    }
    /* stores: self.x = v, entry.ws = v, self._reg[k] = v, local[k] = v */
    if (is(left, "attribute") || is(left, "subscript")) {
        int cv;
        owner_kind o = owner_of(L, left, &cv);
        int_vec vs = {0};
        value_vars(L, right, &vs);
        for (size_t i = 0; i < vs.n; i++) {
            if (o == OWN_LOCAL && vs.v[i] != cv) {
                ir_node *n = emit(L, out, IR_ALIAS, at, vs.v[i]);
                n->var2 = cv;
                if (is(left, "attribute") && is(unparen(field(left, "object")), "identifier"))
                    remember_member(L, cv, text(L, field(left, "attribute")), vs.v[i]);
            } else if (o != OWN_NONE && o != OWN_LOCAL) {
                emit(L, out, IR_TRANSFER, at, vs.v[i]);
            }
        }
        CA_VEC_FREE(vs);
        /* self._lock = asyncio.Lock() in any method: remember the class attribute */
        return;
    }
}

/* ------------------------------------------------------------------------ */
/* Statements.                                                              */

static void lower_block(lower *L, TSNode block, ir_block *out);
static void lower_stmt(lower *L, TSNode s, ir_block *out);

static void classify_handler(lower *L, TSNode types, ir_handler *h)
{
    if (ts_node_is_null(types)) {
        h->flags = H_CANCEL | H_BASE | H_BARE;
        h->catches = "";
        return;
    }
    h->catches = norm_text(L, types, 200);
    TSNode stack[64];
    int sp = 0;
    stack[sp++] = types;
    while (sp) {
        TSNode t = unparen(stack[--sp]);
        if (is(t, "tuple") || is(t, "expression_list")) {
            uint32_t c = ts_node_named_child_count(t);
            for (uint32_t i = 0; i < c && sp < 63; i++) stack[sp++] = ts_node_named_child(t, i);
            continue;
        }
        char *d = dotted(L, t);
        if (!d) continue;
        /* a name assigned from a cancellation class: cancelled = anyio.get_cancelled_exc_class() */
        const char *via = NULL;
        int v = ir_var_find(L->f, d);
        if (v >= 0) via = map_get(L->locals_ctor.v, L->locals_ctor.n, d);
        else via = map_get(L->globals.v, L->globals.n, d);
        for (int k = 0; k < 2; k++) {
            const char *name = k == 0 ? d : via;
            if (!name || !*name) continue;
            char buf[300];
            snprintf(buf, sizeof(buf), "%s()", name);
            if (cat(L, CAT_CATCHALL_EXC, name)) h->flags |= H_CANCEL | H_BASE;
            else if (cat(L, CAT_CANCEL_EXC, name) || (k == 1 && cat(L, CAT_CANCEL_EXC, buf)))
                h->flags |= H_CANCEL;
        }
    }
}

static int nonsuspending_ctx(lower *L, TSNode expr)
{
    TSNode e = unparen(expr);
    char *d = NULL;
    if (is(e, "call")) d = dotted(L, field(e, "function"));
    if (d && cat(L, CAT_NONSUSPENDING_CM, d)) return 1;
    /* self._lock where the class assigns self._lock = asyncio.Lock() */
    if (is(e, "attribute")) {
        TSNode obj = unparen(field(e, "object"));
        char *on = text(L, obj);
        if ((strcmp(on, "self") == 0 || strcmp(on, "cls") == 0) && L->class_name) {
            ca_sb key = {0};
            ca_sb_addf(&key, "%s.%s", L->class_name, text(L, field(e, "attribute")));
            const char *ctor = map_get(L->class_attrs.v, L->class_attrs.n, ca_sb_str(&key));
            ca_sb_release(&key);
            if (ctor && cat(L, CAT_NONSUSPENDING_CM, ctor)) return 1;
        }
    }
    if (is(e, "identifier")) {
        char *name = text(L, e);
        const char *ctor = ir_var_find(L->f, name) >= 0 ? map_get(L->locals_ctor.v, L->locals_ctor.n, name)
                                                        : map_get(L->globals.v, L->globals.n, name);
        if (ctor && cat(L, CAT_NONSUSPENDING_CM, ctor)) return 1;
    }
    return 0;
}

static void lower_with(lower *L, TSNode s, ir_block *out)
{
    int is_async = has_token(s, "async");
    TSNode clause = {0};
    uint32_t c = ts_node_named_child_count(s);
    for (uint32_t i = 0; i < c; i++)
        if (is(ts_node_named_child(s, i), "with_clause")) clause = ts_node_named_child(s, i);
    TSNode body = field(s, "body");
    ir_block *cur = out;
    node_vec items = {0};
    if (!ts_node_is_null(clause)) named_children(clause, &items);
    /* Each item nests the next one's WITH node: items count against
     * IR_MAX_DEPTH like blocks do (`with a, b, ...` of 100,000 items). */
    int nested = 0;
    for (size_t i = 0; i < items.n; i++) {
        TSNode item = items.v[i];
        if (!is(item, "with_item")) continue;
        if (L->depth + nested > IR_MAX_DEPTH) {
            L->too_deep = 1;
            L->f->truncated = 1;
            break;
        }
        TSNode val = unparen(field(item, "value"));
        TSNode expr = val, target = {0};
        if (is(val, "as_pattern")) {
            expr = ts_node_named_child(val, 0);
            TSNode alias = field(val, "alias");
            if (!ts_node_is_null(alias)) target = unparen(ts_node_named_child(alias, 0));
            if (ts_node_is_null(target)) target = alias;
        }
        lower_expr(L, cur, expr, s);
        ir_node *w = ir_node_new(L->m, IR_WITH, site_of(L, s));
        w->text = norm_text(L, expr, 160);
        if (is_async) w->flags |= WITH_ASYNC;
        TSNode e = unparen(expr);
        char *d = is(e, "call") ? dotted(L, field(e, "function")) : NULL;
        if (nonsuspending_ctx(L, expr)) w->flags |= WITH_NONSUSP_EXIT;
        if (d) {
            const ca_cat_entry *sh = cat(L, CAT_SHIELD_SCOPE, d);
            if (sh) {
                TSNode kv = sh->arg ? kw_arg(L, e, sh->arg) : (TSNode){0};
                if (!sh->arg || (!ts_node_is_null(kv) && is_true_literal(L, kv))) w->flags |= WITH_SHIELD;
            }
            if (cat(L, CAT_TIMEOUT_SCOPE, d)) w->flags |= WITH_TIMEOUT;
        }
        int tv = -1;
        if (!ts_node_is_null(target) && is(target, "identifier"))
            tv = ir_var_add(L->m, L->f, text(L, target), 0);
        if (d && cat(L, CAT_GROUP_CTOR, d)) {
            w->flags |= WITH_GROUP;
            if (tv >= 0) L->f->vars[tv].flags |= VAR_GROUP;
        } else if (d && cat(L, CAT_EXIT_STACK, d)) {
            w->flags |= WITH_EXIT_STACK;
            if (tv >= 0) {
                L->f->vars[tv].flags |= VAR_EXIT_STACK;
                L->f->vars[tv].stack_with = w;
            }
        } else if (tv >= 0) {
            /* the context manager owns what it yields when it is a resource maker */
            rhs_info ri = classify_rhs(L, expr);
            if (ri.acq & ACQ_STRONG) {
                w->flags |= WITH_OWNS;
                w->var = tv;
                w->rkind = ri.rkind;
            }
        }
        int ev = var_of(L, e);
        if (ev >= 0) w->var2 = ev; /* async with v: hands v over */
        /* `async with FdStream(r)`: values given to the context manager's
         * constructor are its to close (not for scopes, groups and stacks,
         * which take no resources) */
        if (is(e, "call") && !(w->flags & (WITH_SHIELD | WITH_TIMEOUT | WITH_GROUP | WITH_EXIT_STACK))) {
            int_vec hv = {0};
            TSNode args = field(e, "arguments");
            if (!ts_node_is_null(args)) value_vars(L, args, &hv);
            if (hv.n) {
                w->vars = ca_arena_alloc(&L->m->arena, sizeof(int) * hv.n);
                for (size_t k = 0; k < hv.n; k++) w->vars[k] = hv.v[k];
                w->nvars = (int)hv.n;
            }
            CA_VEC_FREE(hv);
        }
        ir_block_push(L->m, cur, w);
        cur = &w->a;
        nested++;
    }
    CA_VEC_FREE(items);
    int extra = nested > 1 ? nested - 1 : 0; /* lower_stmt counted the first */
    L->depth += extra;
    lower_block(L, body, cur);
    L->depth -= extra;
}

static void lower_try(lower *L, TSNode s, ir_block *out)
{
    ir_node *t = emit(L, out, IR_TRY, s, -1);
    lower_block(L, field(s, "body"), &t->a);
    uint32_t c = ts_node_named_child_count(s);
    int nh = 0;
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_named_child(s, i);
        if (is(ch, "except_clause") || is(ch, "except_group_clause")) nh++;
    }
    t->handlers = ca_arena_alloc(&L->m->arena, sizeof(ir_handler) * (size_t)(nh ? nh : 1));
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_named_child(s, i);
        if (is(ch, "except_clause") || is(ch, "except_group_clause")) {
            ir_handler *h = &t->handlers[t->nhandlers++];
            h->site = site_of(L, ch);
            h->exc_var = -1;
            TSNode types = field(ch, "value"), alias = field(ch, "alias"), block = {0};
            uint32_t cc = ts_node_named_child_count(ch);
            for (uint32_t k = 0; k < cc; k++) {
                TSNode x = ts_node_named_child(ch, k);
                if (is(x, "block")) block = x;
                else if (ts_node_is_null(types) && !is(x, "comment")) types = x;
                else if (ts_node_is_null(alias) && !ts_node_eq(x, types) && !is(x, "comment")) alias = x;
            }
            /* `except E as e` may parse as an as_pattern */
            if (is(types, "as_pattern")) {
                TSNode al = field(types, "alias");
                if (!ts_node_is_null(al)) alias = unparen(ts_node_named_child(al, 0));
                types = ts_node_named_child(types, 0);
            }
            classify_handler(L, types, h);
            if (!ts_node_is_null(alias) && is(unparen(alias), "identifier"))
                h->exc_var = ir_var_add(L->m, L->f, text(L, unparen(alias)), 0);
            int saved = L->in_cleanup;
            L->in_cleanup = 1;
            lower_block(L, block, &h->body);
            L->in_cleanup = saved;
        } else if (is(ch, "else_clause")) {
            lower_block(L, field(ch, "body"), &t->b);
        } else if (is(ch, "finally_clause")) {
            TSNode block = {0};
            for (uint32_t k = 0; k < ts_node_named_child_count(ch); k++)
                if (is(ts_node_named_child(ch, k), "block")) block = ts_node_named_child(ch, k);
            int saved = L->in_cleanup;
            L->in_cleanup = 1;
            lower_block(L, block, &t->c);
            L->in_cleanup = saved;
            t->flags |= 1u; /* has finally */
        }
    }
}

static void lower_for(lower *L, TSNode s, ir_block *out)
{
    TSNode left = field(s, "left"), right = field(s, "right");
    lower_expr(L, out, right, s);
    ir_node *loop = emit(L, out, IR_LOOP, s, -1);
    if (has_token(s, "async")) loop->flags |= LOOP_ASYNC_FOR;
    loop->text = norm_text(L, s, 80);
    /* container of the elements: tasks, list(tasks), tasks.values(), enumerate(tasks) */
    TSNode r = unparen(right);
    int cv = -1;
    for (int guard = 0; guard < 4 && cv < 0; guard++) {
        if (is(r, "identifier")) cv = var_of(L, r);
        else if (is(r, "call")) {
            TSNode fn = unparen(field(r, "function"));
            TSNode a0 = first_pos_arg(r, 0);
            if (is(fn, "attribute") && ts_node_is_null(a0)) r = unparen(field(fn, "object"));
            else if (!ts_node_is_null(a0)) r = unparen(a0);
            else break;
        } else break;
    }
    int_vec targets = {0};
    TSNode stack[32];
    int sp = 0;
    stack[sp++] = left;
    while (sp) {
        TSNode t = unparen(stack[--sp]);
        if (is(t, "identifier")) {
            int v = ir_var_add(L->m, L->f, text(L, t), 0);
            push_unique(&targets, v);
        } else {
            uint32_t c = ts_node_named_child_count(t);
            for (uint32_t i = 0; i < c && sp < 31; i++) stack[sp++] = ts_node_named_child(t, i);
        }
    }
    for (size_t i = 0; i < targets.n; i++) {
        if (cv >= 0 && targets.v[i] != cv) {
            L->f->vars[targets.v[i]].flags |= VAR_ELEMENT;
            ir_node *n = emit(L, &loop->a, IR_ELEMENT, s, targets.v[i]);
            n->var2 = cv;
        }
    }
    CA_VEC_FREE(targets);
    lower_block(L, field(s, "body"), &loop->a);
    TSNode alt = field(s, "alternative");
    if (!ts_node_is_null(alt)) lower_block(L, field(alt, "body"), &loop->b);
}

/* A condition that tells whether variable v is None on one branch:
 * `v is None`, `v is not None`, `v`, `not v`, `v is not None and ...`.
 * Returns v and sets *none_when_true (1: v is None when the test holds). */
static int none_test(lower *L, TSNode cond, int *none_when_true)
{
    int neg = 0;
    TSNode c = unparen(cond);
    for (int guard = 0; guard < 4 && is(c, "not_operator"); guard++) {
        neg ^= 1;
        c = unparen(field(c, "argument"));
    }
    if (!neg && is(c, "boolean_operator")) {
        TSNode op = ts_node_child(c, 1);
        if (!ts_node_is_null(op) && strcmp(ty(op), "and") == 0) {
            /* `a and b and c` nests to the left. An inner `and` never
             * yields a variable (below), so the answer is -1 without the
             * recursion that 100,000 of them would overflow the stack with. */
            if (is(unparen(field(c, "left")), "boolean_operator")) return -1;
            int nwt = 0;
            int v = none_test(L, field(c, "left"), &nwt);
            if (v >= 0 && !nwt) {
                *none_when_true = 0; /* true branch: v not None; false branch: unknown */
                return -2 - v;
            }
        }
        return -1;
    }
    if (is(c, "identifier")) {
        int v = var_of(L, c);
        *none_when_true = neg;
        return v;
    }
    if (is(c, "comparison_operator") && ts_node_named_child_count(c) == 2) {
        TSNode a = unparen(ts_node_named_child(c, 0)), b = unparen(ts_node_named_child(c, 1));
        if (!is(b, "none") || !is(a, "identifier")) return -1;
        char *t = text(L, c);
        int is_not = strstr(t, " is not ") != NULL || strstr(t, "!=") != NULL;
        int is_is = strstr(t, " is ") != NULL || strstr(t, "==") != NULL;
        if (!is_not && !is_is) return -1;
        *none_when_true = (is_not ? 0 : 1) ^ neg;
        return var_of(L, a);
    }
    return -1;
}

static void lower_if(lower *L, TSNode s, ir_block *out)
{
    lower_expr(L, out, field(s, "condition"), s);
    ir_node *n = emit(L, out, IR_IF, s, -1);
    int nwt = 0;
    int nv = none_test(L, field(s, "condition"), &nwt);
    int only_true = nv <= -2;
    if (only_true) nv = -2 - nv;
    uint32_t c = ts_node_named_child_count(s);
    int nb = 1;
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_named_child(s, i);
        if (is(ch, "elif_clause") || is(ch, "else_clause")) nb++;
    }
    n->branches = ca_arena_alloc(&L->m->arena, sizeof(ir_block) * (size_t)nb);
    lower_block(L, field(s, "consequence"), &n->branches[n->nbranches++]);
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_named_child(s, i);
        if (is(ch, "elif_clause")) {
            ir_block *b = &n->branches[n->nbranches++];
            lower_expr(L, b, field(ch, "condition"), ch);
            lower_block(L, field(ch, "consequence"), b);
        } else if (is(ch, "else_clause")) {
            ir_block *b = &n->branches[n->nbranches++];
            if (nv >= 0 && !only_true && !nwt) emit(L, b, IR_DONE, ch, nv); /* v is None here */
            lower_block(L, field(ch, "body"), b);
            n->flags |= IF_HAS_ELSE;
        }
    }
    if (nv >= 0 && !only_true) {
        if (nwt) {
            /* v is None in the first branch: nothing to release there */
            ir_block *b0 = &n->branches[0];
            ir_node *d = ir_node_new(L->m, IR_DONE, n->site);
            d->var = nv;
            ir_block_push(L->m, b0, d);
            for (int i = b0->n - 1; i > 0; i--) b0->v[i] = b0->v[i - 1];
            b0->v[0] = d;
        } else if (!(n->flags & IF_HAS_ELSE) && n->nbranches == 1) {
            /* the implicit else: v is None */
            ir_block *b = ca_arena_alloc(&L->m->arena, sizeof(ir_block) * 2);
            b[0] = n->branches[0];
            n->branches = b;
            ir_node *d = ir_node_new(L->m, IR_DONE, n->site);
            d->var = nv;
            ir_block_push(L->m, &n->branches[n->nbranches++], d);
            n->flags |= IF_HAS_ELSE;
        }
    }
}

static void lower_match(lower *L, TSNode s, ir_block *out)
{
    uint32_t c = ts_node_named_child_count(s);
    TSNode body = field(s, "body");
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_named_child(s, i);
        if (!ts_node_eq(ch, body)) lower_expr(L, out, ch, s);
    }
    ir_node *n = emit(L, out, IR_IF, s, -1);
    uint32_t nc = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    n->branches = ca_arena_alloc(&L->m->arena, sizeof(ir_block) * (size_t)(nc ? nc : 1));
    for (uint32_t i = 0; i < nc; i++) {
        TSNode cc = ts_node_named_child(body, i);
        if (!is(cc, "case_clause")) continue;
        ir_block *b = &n->branches[n->nbranches++];
        uint32_t k = ts_node_named_child_count(cc);
        for (uint32_t j = 0; j < k; j++) {
            TSNode p = ts_node_named_child(cc, j);
            if (is(p, "case_pattern") && strcmp(text(L, p), "_") == 0 && ts_node_is_null(field(cc, "guard")))
                n->flags |= IF_HAS_ELSE;
        }
        lower_block(L, field(cc, "consequence"), b);
    }
}

static void queue_def(lower *L, TSNode def)
{
    pending_def p;
    p.node = def;
    ca_sb sb = {0};
    ca_sb_addf(&sb, "%s.<locals>.", L->f->qualname);
    p.prefix = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
    ca_sb_release(&sb);
    p.class_name = NULL;
    CA_VEC_PUSH(L->pending, p);
}

static void lower_stmt(lower *L, TSNode s, ir_block *out)
{
    if (L->too_deep) return;
    const char *t = ty(s);
    if (strcmp(t, "expression_statement") == 0) {
        uint32_t c = ts_node_named_child_count(s);
        for (uint32_t i = 0; i < c; i++) {
            TSNode e = ts_node_named_child(s, i);
            if (is(e, "assignment")) {
                /* a = b = value: evaluate the value once, bind each target */
                TSNode cur = e;
                TSNode targets[32];
                int nt = 0;
                while (is(cur, "assignment") && nt < 32) {
                    targets[nt++] = field(cur, "left");
                    TSNode rr = field(cur, "right");
                    if (ts_node_is_null(rr)) { cur = rr; break; }
                    cur = rr;
                }
                if (!ts_node_is_null(cur)) {
                    lower_expr(L, out, cur, s);
                    for (int k = 0; k < nt; k++) bind_target(L, out, targets[k], cur, s);
                }
            } else if (is(e, "augmented_assignment")) {
                lower_expr(L, out, field(e, "right"), s);
            } else {
                lower_expr(L, out, e, s);
            }
        }
        return;
    }
    if (strcmp(t, "return_statement") == 0) {
        uint32_t c = ts_node_named_child_count(s);
        for (uint32_t i = 0; i < c; i++) {
            TSNode e = ts_node_named_child(s, i);
            lower_expr(L, out, e, s);
            int_vec vs = {0};
            value_vars(L, e, &vs);
            for (size_t k = 0; k < vs.n; k++) emit(L, out, IR_TRANSFER, s, vs.v[k]);
            CA_VEC_FREE(vs);
        }
        emit(L, out, IR_RETURN, s, -1);
        return;
    }
    if (strcmp(t, "raise_statement") == 0) {
        uint32_t c = ts_node_named_child_count(s);
        int rv = -1;
        unsigned rf = 0;
        for (uint32_t i = 0; i < c; i++) {
            TSNode e = ts_node_named_child(s, i);
            lower_expr(L, out, e, s);
            if (i == 0) {
                rv = var_of(L, e);
                TSNode x = unparen(e);
                char *d = dotted(L, is(x, "call") ? field(x, "function") : x);
                if (d && cat(L, CAT_CANCEL_EXC, d)) rf |= RAISE_CANCEL;
            }
        }
        ir_node *n = emit(L, out, IR_RAISE, s, -1);
        n->var2 = rv;
        n->flags = rf;
        return;
    }
    if (strcmp(t, "break_statement") == 0) { emit(L, out, IR_BREAK, s, -1); return; }
    if (strcmp(t, "continue_statement") == 0) { emit(L, out, IR_CONTINUE, s, -1); return; }
    if (strcmp(t, "delete_statement") == 0) {
        TSNode stack[32];
        int sp = 0;
        uint32_t c = ts_node_named_child_count(s);
        for (uint32_t i = 0; i < c && sp < 32; i++) stack[sp++] = ts_node_named_child(s, i);
        while (sp) {
            TSNode e = unparen(stack[--sp]);
            if (is(e, "expression_list") || is(e, "tuple")) {
                uint32_t k = ts_node_named_child_count(e);
                for (uint32_t i = 0; i < k && sp < 32; i++) stack[sp++] = ts_node_named_child(e, i);
            } else if (is(e, "subscript") && is_registry(L, field(e, "value"))) {
                ir_node *n = emit(L, out, IR_TAKE, e, -1);
                n->text = norm_text(L, field(e, "value"), 200);
            }
        }
        return;
    }
    if (strcmp(t, "global_statement") == 0 || strcmp(t, "nonlocal_statement") == 0) {
        uint32_t c = ts_node_named_child_count(s);
        for (uint32_t i = 0; i < c; i++) {
            const char *nm = text(L, ts_node_named_child(s, i));
            CA_VEC_PUSH(L->global_decl, nm);
        }
        return;
    }
    if (strcmp(t, "function_definition") == 0 || strcmp(t, "class_definition") == 0) {
        queue_def(L, s);
        return;
    }
    if (strcmp(t, "decorated_definition") == 0) {
        TSNode d = field(s, "definition");
        if (!ts_node_is_null(d)) queue_def(L, d);
        return;
    }
    if (strcmp(t, "assert_statement") == 0 || strcmp(t, "print_statement") == 0 || strcmp(t, "exec_statement") == 0) {
        uint32_t c = ts_node_named_child_count(s);
        for (uint32_t i = 0; i < c; i++) lower_expr(L, out, ts_node_named_child(s, i), s);
        return;
    }
    /* compound statements: bounded depth */
    int compound = strcmp(t, "if_statement") == 0 || strcmp(t, "for_statement") == 0 ||
                   strcmp(t, "while_statement") == 0 || strcmp(t, "try_statement") == 0 ||
                   strcmp(t, "with_statement") == 0 || strcmp(t, "match_statement") == 0;
    if (!compound) return;
    if (++L->depth > IR_MAX_DEPTH) {
        L->too_deep = 1;
        L->f->truncated = 1;
        L->depth--;
        return;
    }
    if (strcmp(t, "if_statement") == 0) lower_if(L, s, out);
    else if (strcmp(t, "for_statement") == 0) lower_for(L, s, out);
    else if (strcmp(t, "while_statement") == 0) {
        ir_node *n = emit(L, out, IR_LOOP, s, -1);
        TSNode cond = field(s, "condition");
        if (is_true_literal(L, cond)) n->flags |= LOOP_INFINITE;
        lower_expr(L, &n->c, cond, s);
        lower_block(L, field(s, "body"), &n->a);
        TSNode alt = field(s, "alternative");
        if (!ts_node_is_null(alt)) lower_block(L, field(alt, "body"), &n->b);
    } else if (strcmp(t, "try_statement") == 0) lower_try(L, s, out);
    else if (strcmp(t, "with_statement") == 0) lower_with(L, s, out);
    else if (strcmp(t, "match_statement") == 0) lower_match(L, s, out);
    L->depth--;
}

static void lower_block(lower *L, TSNode block, ir_block *out)
{
    if (ts_node_is_null(block)) return;
    node_vec kids = {0};
    named_children(block, &kids);
    for (size_t i = 0; i < kids.n && !L->too_deep; i++) lower_stmt(L, kids.v[i], out);
    CA_VEC_FREE(kids);
}

/* ------------------------------------------------------------------------ */
/* Functions and module facts.                                              */

static void lower_function(lower *L, TSNode def, const char *prefix, const char *class_name)
{
    ir_func *f = ir_func_new(L->m);
    char *name = text(L, field(def, "name"));
    f->name = name;
    ca_sb sb = {0};
    ca_sb_addf(&sb, "%s%s", prefix, name);
    f->qualname = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
    ca_sb_release(&sb);
    f->class_name = class_name;
    f->site = site_of(L, def);
    f->is_async = has_token(def, "async");
    L->f = f;
    L->class_name = class_name;
    L->locals_ctor.n = 0;
    L->global_decl.n = 0;
    L->depth = 0;
    L->in_cleanup = 0;
    L->too_deep = 0;
    L->cancelled.n = 0;
    TSNode params = field(def, "parameters");
    uint32_t pc = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    for (uint32_t i = 0; i < pc; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode id = p;
        /* x, x: T, x=1, x: T = 1, *args, **kw, *args: T, **kw: T */
        for (int guard = 0; guard < 4 && !ts_node_is_null(id) && !is(id, "identifier"); guard++) {
            TSNode nm = field(id, "name");
            id = ts_node_is_null(nm) ? ts_node_named_child(id, 0) : nm;
        }
        if (ts_node_is_null(id) || !is(id, "identifier")) continue;
        unsigned fl = VAR_PARAM;
        if (f->nparams == 0 && class_name) {
            const char *pn = text(L, id);
            if (strcmp(pn, "self") == 0 || strcmp(pn, "cls") == 0) {
                fl |= VAR_SELF;
                f->is_method = 1;
            }
        }
        ir_var_add(L->m, f, text(L, id), fl);
        f->nparams = f->nvars;
    }
    lower_block(L, field(def, "body"), &f->body);
    if (L->too_deep && !L->m->diagnostic)
        L->m->diagnostic = ca_xasprintf("nesting deeper than %d levels in %s (line %d); the rest of it was not analysed",
                                        IR_MAX_DEPTH, f->qualname, f->site.line);
    L->f = NULL;
}

/* `self.X = Ctor()` in a class's methods, and `X = Ctor()` in its body. */
static void collect_class_attrs(lower *L, TSNode cls, const char *class_name)
{
    TSNode body = field(cls, "body");
    uint32_t c = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    TSNode stack[256];
    int sp = 0;
    for (uint32_t i = 0; i < c && sp < 256; i++) stack[sp++] = ts_node_named_child(body, i);
    while (sp) {
        TSNode s = stack[--sp];
        if (is(s, "decorated_definition")) s = field(s, "definition");
        if (is(s, "function_definition")) {
            TSNode b = field(s, "body");
            uint32_t k = ts_node_is_null(b) ? 0 : ts_node_named_child_count(b);
            for (uint32_t j = 0; j < k && sp < 256; j++) stack[sp++] = ts_node_named_child(b, j);
            continue;
        }
        if (is(s, "if_statement")) {
            TSNode b = field(s, "consequence");
            uint32_t k = ts_node_is_null(b) ? 0 : ts_node_named_child_count(b);
            for (uint32_t j = 0; j < k && sp < 256; j++) stack[sp++] = ts_node_named_child(b, j);
            continue;
        }
        if (!is(s, "expression_statement")) continue;
        TSNode a = ts_node_named_child(s, 0);
        if (!is(a, "assignment")) continue;
        TSNode left = unparen(field(a, "left")), right = unparen(field(a, "right"));
        const char *attr = NULL;
        if (is(left, "attribute")) {
            char *obj = text(L, field(left, "object"));
            if (strcmp(obj, "self") == 0 || strcmp(obj, "cls") == 0) attr = text(L, field(left, "attribute"));
        } else if (is(left, "identifier")) {
            attr = text(L, left);
        }
        if (!attr || !is(right, "call")) continue;
        char *d = dotted(L, field(right, "function"));
        if (!d) continue;
        ca_sb key = {0};
        ca_sb_addf(&key, "%s.%s", class_name, attr);
        name_map e = {ca_arena_strdup(&L->m->arena, ca_sb_str(&key)), d};
        ca_sb_release(&key);
        CA_VEC_PUSH(L->class_attrs, e);
    }
}

static void add_import(lower *L, const char *alias, const char *dotted_name)
{
    name_map e = {alias, dotted_name};
    CA_VEC_PUSH(L->imports, e);
}

/* A directive opens a comment (`# noqa`, `#noqa: X`, `... # noqa`), never
 * sits inside prose ("# see the noqa docs"). Returns the text after it. */
static const char *comment_directive(const char *c, const char *word)
{
    size_t n = strlen(word);
    for (const char *h = strchr(c, '#'); h; h = strchr(h + 1, '#')) {
        const char *p = h + 1;
        while (*p == ' ' || *p == '\t') p++;
        if (strncasecmp(p, word, n) == 0) {
            char after = p[n];
            if (after == 0 || after == ':' || after == ' ' || after == '[' || after == '\t' || after == '#')
                return p + n;
        }
    }
    return NULL;
}

/* One pass over the whole tree: imports, module globals, comments
 * (suppressions), syntax errors. Iterative with a cursor. */
/* Record the suppression directives of one comment on `line`. */
static void note_comment(lower *L, const char *c, int line)
{
    const char *rules = NULL;
    const char *p;
    if ((p = comment_directive(c, "cancelaudit: ignore")) != NULL) {
        if (*p == '[') {
            const char *e = strchr(p, ']');
            rules = e ? ca_arena_strndup(&L->m->arena, p + 1, (size_t)(e - p - 1)) : "*";
        } else rules = "*";
    } else if ((p = comment_directive(c, "noqa")) != NULL) {
        if (*p == ':') {
            p++;
            ca_sb sb = {0};
            while (*p) {
                while (*p == ' ' || *p == ',') p++;
                size_t len = strcspn(p, " ,#");
                if (!len) break;
                if (sb.len) ca_sb_addc(&sb, ',');
                ca_sb_add(&sb, p, len);
                p += len;
                if (*p == '#') break;
            }
            rules = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
            ca_sb_release(&sb);
        } else rules = "*";
    }
    if (!rules) return;
    /* strip spaces inside [CAN101, CAN102] */
    char *r = ca_arena_strdup(&L->m->arena, rules);
    char *w = r;
    for (const char *q = r; *q; q++)
        if (*q != ' ') *w++ = *q;
    *w = 0;
    if (L->m->nsupp == L->m->cap_supp) {
        int cap = L->m->cap_supp ? L->m->cap_supp * 2 : 8;
        ir_suppress *v = ca_arena_alloc(&L->m->arena, sizeof(*v) * (size_t)cap);
        if (L->m->nsupp) memcpy(v, L->m->supp, sizeof(*v) * (size_t)L->m->nsupp);
        L->m->supp = v;
        L->m->cap_supp = cap;
    }
    L->m->supp[L->m->nsupp].line = line;
    L->m->supp[L->m->nsupp].rules = r;
    L->m->nsupp++;
}

static int bytes_contain(const char *s, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if ((s[i] | 0x20) == (word[0] | 0x20) && strncasecmp(s + i, word, w) == 0) return 1;
    return 0;
}

/* Comments found by a byte scan (string literals skipped), for a tree
 * without errors: the tree walk then need not visit every expression node. */
static void scan_comments(lower *L)
{
    const char *s = L->src;
    size_t len = L->len, i = 0;
    int line = 1;
    while (i < len) {
        char c = s[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (c == '#') {
            size_t e = i;
            while (e < len && s[e] != '\n') e++;
            if (bytes_contain(s + i, e - i, "noqa") || bytes_contain(s + i, e - i, "cancelaudit")) {
                char *txt = ca_arena_strndup(&L->m->arena, s + i, e - i);
                note_comment(L, txt, line);
            }
            i = e;
        } else if (c == '\'' || c == '"') {
            int triple = i + 2 < len && s[i + 1] == c && s[i + 2] == c;
            for (i += triple ? 3 : 1; i < len; i++) {
                if (s[i] == '\n') line++;
                if (s[i] == '\\') {
                    if (i + 1 < len && s[i + 1] == '\n') line++;
                    i++;
                } else if (s[i] == c && (!triple || (i + 2 < len && s[i + 1] == c && s[i + 2] == c))) {
                    i += triple ? 3 : 1;
                    break;
                } else if (!triple && s[i] == '\n') {
                    i++;
                    break;
                }
            }
        } else {
            i++;
        }
    }
}

/* Node types that hold statements: the walk for imports and module globals
 * descends only into these when the tree has no errors. */
static const char *const stmt_holders[] = {
    "module", "block", "decorated_definition", "function_definition", "class_definition", "if_statement",
    "elif_clause", "else_clause", "for_statement", "while_statement", "try_statement", "except_clause",
    "except_group_clause", "finally_clause", "with_statement", "match_statement", "case_clause",
    "expression_statement", NULL,
};

static void scan_module(lower *L, TSNode root)
{
    /* A tree with errors is walked whole (ERROR/MISSING nodes and comments
     * can sit anywhere); otherwise statements only, comments by a byte scan. */
    int full = ts_node_has_error(root);
    if (!full) scan_comments(L);
    TSTreeCursor cur = ts_tree_cursor_new(root);
    int depth = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        const char *t = ty(n);
        int descend = 1;
        if (!full) {
            descend = 0;
            for (const char *const *h = stmt_holders; *h; h++)
                if (strcmp(t, *h) == 0) descend = 1;
        }
        if (ts_node_is_missing(n) || strcmp(t, "ERROR") == 0) {
            if (L->m->parse_errors++ == 0) L->m->first_error_line = (int)ts_node_start_point(n).row + 1;
        }
        if (strcmp(t, "import_statement") == 0) {
            uint32_t c = ts_node_named_child_count(n);
            for (uint32_t i = 0; i < c; i++) {
                TSNode x = ts_node_named_child(n, i);
                if (is(x, "dotted_name")) {
                    char *full = text(L, x);
                    char *head = ca_arena_strndup(&L->m->arena, full, strcspn(full, "."));
                    add_import(L, head, head);
                } else if (is(x, "aliased_import")) {
                    add_import(L, text(L, field(x, "alias")), text(L, field(x, "name")));
                }
            }
            descend = 0;
        } else if (strcmp(t, "import_from_statement") == 0) {
            TSNode mod = field(n, "module_name");
            char *mname = ts_node_is_null(mod) ? "" : text(L, mod);
            uint32_t c = ts_node_named_child_count(n);
            for (uint32_t i = 0; i < c; i++) {
                TSNode x = ts_node_named_child(n, i);
                if (ts_node_eq(x, mod)) continue;
                const char *local = NULL, *orig = NULL;
                if (is(x, "dotted_name")) local = orig = text(L, x);
                else if (is(x, "aliased_import")) {
                    local = text(L, field(x, "alias"));
                    orig = text(L, field(x, "name"));
                }
                if (!local) continue;
                ca_sb sb = {0};
                ca_sb_addf(&sb, "%s.%s", mname[0] == '.' ? mname + strspn(mname, ".") : mname, orig);
                const char *full = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
                if (mname[0] == '.' && !mname[strspn(mname, ".")]) full = orig;
                ca_sb_release(&sb);
                add_import(L, local, full);
            }
            descend = 0;
        } else if (strcmp(t, "comment") == 0) {
            if (full) note_comment(L, text(L, n), (int)ts_node_start_point(n).row + 1);
            descend = 0;
        } else if (depth == 2 && strcmp(t, "assignment") == 0) {
            /* module-level: expression_statement > assignment */
            TSNode left = unparen(field(n, "left"));
            TSNode right = unparen(field(n, "right"));
            if (is(left, "identifier")) {
                char *d = NULL;
                if (is(right, "call")) {
                    d = dotted_raw(L, field(right, "function"));
                    d = d ? resolve(L, d) : NULL;
                    if (d) {
                        ca_sb sb = {0};
                        ca_sb_addf(&sb, "%s", d);
                        /* keep a call marker so `X = anyio.get_cancelled_exc_class()` matches */
                        ca_sb_adds(&sb, "()");
                        name_map e2 = {text(L, left), ca_arena_strdup(&L->m->arena, ca_sb_str(&sb))};
                        ca_sb_release(&sb);
                        CA_VEC_PUSH(L->globals, e2);
                        name_map e = {text(L, left), d};
                        CA_VEC_PUSH(L->globals, e);
                        descend = 0;
                    }
                } else if (is(right, "attribute") || is(right, "identifier")) {
                    d = resolve(L, dotted_raw(L, right));
                }
                if (descend) {
                    name_map e = {text(L, left), d ? d : ""};
                    CA_VEC_PUSH(L->globals, e);
                }
            }
        }
        if (descend && ts_tree_cursor_goto_first_child(&cur)) {
            depth++;
            continue;
        }
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(&cur)) break;
            if (!ts_tree_cursor_goto_parent(&cur)) {
                ts_tree_cursor_delete(&cur);
                return;
            }
            depth--;
        }
    }
}

/* Module-level definitions (also inside module-level if/try blocks). */
static void collect_toplevel(lower *L, TSNode root)
{
    TSNode stack[512];
    const char *prefixes[512];
    const char *classes[512];
    int sp = 0;
    stack[sp] = root;
    prefixes[sp] = "";
    classes[sp] = NULL;
    sp++;
    node_vec kids = {0};
    /* pending is processed in source order: collect, then lower */
    while (sp) {
        sp--;
        TSNode n = stack[sp];
        const char *prefix = prefixes[sp], *cls = classes[sp];
        named_children(n, &kids);
        /* push in reverse so children come out in order */
        for (size_t i = kids.n; i-- > 0;) {
            TSNode ch = kids.v[i];
            if (is(ch, "decorated_definition")) ch = field(ch, "definition");
            if (ts_node_is_null(ch)) continue;
            if (is(ch, "function_definition")) {
                pending_def p = {ch, prefix, cls};
                CA_VEC_PUSH(L->pending, p);
            } else if (is(ch, "class_definition")) {
                char *name = text(L, field(ch, "name"));
                ca_sb sb = {0};
                ca_sb_addf(&sb, "%s%s.", prefix, name);
                const char *np = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
                ca_sb_release(&sb);
                /* class qualname without trailing dot */
                const char *cq = ca_arena_strndup(&L->m->arena, np, strlen(np) - 1);
                collect_class_attrs(L, ch, cq);
                if (sp < 511) {
                    stack[sp] = field(ch, "body");
                    prefixes[sp] = np;
                    classes[sp] = cq;
                    sp++;
                }
            } else if (sp < 511 && !cls &&
                       (is(ch, "if_statement") || is(ch, "try_statement") || is(ch, "block") ||
                        is(ch, "else_clause") || is(ch, "elif_clause") || is(ch, "except_clause") ||
                        is(ch, "finally_clause") || is(ch, "with_statement"))) {
                stack[sp] = ch;
                prefixes[sp] = prefix;
                classes[sp] = cls;
                sp++;
            }
        }
    }
    CA_VEC_FREE(kids);
}

static int cmp_pending(const void *a, const void *b)
{
    uint32_t x = ts_node_start_byte(((const pending_def *)a)->node);
    uint32_t y = ts_node_start_byte(((const pending_def *)b)->node);
    return x < y ? -1 : x > y;
}

/* Offset of the first invalid UTF-8 sequence, or (size_t)-1. */
static size_t utf8_invalid_at(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        if (c < 0x80) { i++; continue; }
        size_t k;
        unsigned min;
        if ((c & 0xE0) == 0xC0) { k = 1; min = 0x80; c &= 0x1F; }
        else if ((c & 0xF0) == 0xE0) { k = 2; min = 0x800; c &= 0x0F; }
        else if ((c & 0xF8) == 0xF0) { k = 3; min = 0x10000; c &= 0x07; }
        else return i;
        unsigned cp = c;
        for (size_t j = 1; j <= k; j++) {
            if (i + j >= n || (p[i + j] & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (p[i + j] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += k + 1;
    }
    return (size_t)-1;
}

/* Debian's tree-sitter 0.20.7 corrupts its heap (a bad free in
 * ts_tree_delete, or a crash while parsing) once a node gets more than
 * about 65,500 children, and extras -- comments and line continuations --
 * that follow each other with no token between them all become children of
 * one node. The grammar's scanner is also quadratic over indented runs of
 * them (10,000 lines: seconds). Such a run is refused before parsing. */
#define PY_MAX_EXTRAS_RUN 20000

/* limit + 1 as soon as more than limit comments and line continuations
 * follow each other with only whitespace between them, else some number
 * <= limit. A byte scan, not a tokenizer: string literals are skipped, so a
 * '#' inside one is no comment. */
static int extras_run(const char *s, size_t len, int limit)
{
    int run = 0;
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || c == '\n') {
            i++;
        } else if (c == '#' || (c == '\\' && i + 1 < len && (s[i + 1] == '\n' || s[i + 1] == '\r'))) {
            if (++run > limit) return run;
            i += c == '#' ? 1 : 2;
            if (c == '#')
                while (i < len && s[i] != '\n' && s[i] != '\r') i++;
        } else if (c == '\'' || c == '"') {
            run = 0;
            int triple = i + 2 < len && s[i + 1] == c && s[i + 2] == c;
            for (i += triple ? 3 : 1; i < len; i++) {
                if (s[i] == '\\') {
                    i++;
                } else if (s[i] == c && (!triple || (i + 2 < len && s[i + 1] == c && s[i + 2] == c))) {
                    i += triple ? 3 : 1;
                    break;
                } else if (!triple && (s[i] == '\n' || s[i] == '\r')) {
                    break;
                }
            }
        } else {
            run = 0;
            i++;
        }
    }
    return run;
}

/* Files with this many lines are parsed once in a child process first:
 * tree-sitter 0.20.7 has more shapes than the extras run that crash it on
 * huge inputs (70,000 `else:` lines), and a crash must cost one file, not
 * the scan. Real modules stay far below this; the probe costs one parse. */
#define PY_PROBE_LINES 40000

/* 0 when a parse of src in a child process finished; -1 when the child
 * died (a signal) or could not run the parser. fork() from a threaded
 * process is safe here: the child only parses (malloc is fork-safe in
 * glibc) and leaves with _exit. */
static int parse_probe(const char *src, size_t len)
{
    pid_t pid = fork();
    if (pid < 0) return 0; /* no probe possible: parse in process as before */
    if (pid == 0) {
        /* the C library's own crash report is no diagnostic of ours */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 2);
        TSParser *p = ts_parser_new();
        ts_parser_set_language(p, tree_sitter_python());
        TSTree *t = ts_parser_parse_string(p, NULL, src, (uint32_t)len);
        if (t) ts_tree_delete(t);
        ts_parser_delete(p);
        _exit(t ? 0 : 3);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return 0;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int py_lower(py_frontend *fe, const char *path, const char *src, size_t len, ir_module *m)
{
    m->path = ca_arena_strdup(&m->arena, path);
    m->src = src;
    m->len = len;
    if (len > UINT32_MAX / 2) {
        m->diagnostic = ca_xstrdup("file too large to parse");
        return -1;
    }
    /* Python accepts a lone CR as a line end; tree-sitter does not. Same
     * length, so byte offsets stay valid. */
    char *crfixed = NULL;
    const char *nul = memchr(src, 0, len);
    for (size_t i = 0; i < len; i++) {
        if (src[i] == '\r' && (i + 1 >= len || src[i + 1] != '\n')) {
            if (!crfixed) {
                crfixed = ca_xmalloc(len + 1);
                memcpy(crfixed, src, len);
                crfixed[len] = 0;
            }
            crfixed[i] = '\n';
        }
    }
    if (crfixed) {
        src = crfixed;
        m->src = src;
    }
    size_t bad = utf8_invalid_at(src, len);
    if (nul) {
        size_t off = (size_t)(nul - src);
        m->diagnostic = ca_xasprintf("NUL byte at offset %zu (Python refuses such a file); analysed as far as it parses", off);
    } else if (bad != (size_t)-1) {
        m->diagnostic = ca_xasprintf("invalid UTF-8 at offset %zu (Python refuses such a file); analysed as far as it parses", bad);
    }
    if (extras_run(src, len, PY_MAX_EXTRAS_RUN) > PY_MAX_EXTRAS_RUN) {
        free(m->diagnostic);
        m->diagnostic = ca_xasprintf("more than %d comment lines or line continuations in a row; not parsed",
                                     PY_MAX_EXTRAS_RUN);
        free(crfixed);
        m->src = NULL;
        return -1;
    }
    size_t lines = 0;
    for (const char *q = src; (q = memchr(q, '\n', len - (size_t)(q - src))) != NULL; q++) lines++;
    if (lines > PY_PROBE_LINES && parse_probe(src, len) != 0) {
        free(m->diagnostic);
        m->diagnostic = ca_xstrdup("the parser (tree-sitter 0.20) crashed on this file in a probe; not analysed");
        free(crfixed);
        m->src = NULL;
        return -1;
    }
    TSTree *tree = ts_parser_parse_string(fe->parser, NULL, src, (uint32_t)len);
    if (!tree) {
        free(m->diagnostic);
        m->diagnostic = ca_xstrdup("parser gave up on this file");
        free(crfixed);
        m->src = NULL;
        return -1;
    }
    lower L;
    memset(&L, 0, sizeof(L));
    L.fe = fe;
    L.cat = fe->cat;
    L.m = m;
    L.src = src;
    L.len = (uint32_t)len;
    TSNode root = ts_tree_root_node(tree);
    scan_module(&L, root);
    collect_toplevel(&L, root);
    if (L.pending.n) qsort(L.pending.v, L.pending.n, sizeof(pending_def), cmp_pending);
    /* nested definitions are queued while lowering their parents */
    for (size_t i = 0; i < L.pending.n; i++) {
        pending_def p = L.pending.v[i];
        if (is(p.node, "class_definition")) {
            /* a class inside a function: its methods */
            char *name = text(&L, field(p.node, "name"));
            ca_sb sb = {0};
            ca_sb_addf(&sb, "%s%s.", p.prefix, name);
            const char *np = ca_arena_strdup(&m->arena, ca_sb_str(&sb));
            ca_sb_release(&sb);
            const char *cq = ca_arena_strndup(&m->arena, np, strlen(np) - 1);
            collect_class_attrs(&L, p.node, cq);
            node_vec kids = {0};
            named_children(field(p.node, "body"), &kids);
            for (size_t k = 0; k < kids.n; k++) {
                TSNode ch = kids.v[k];
                if (is(ch, "decorated_definition")) ch = field(ch, "definition");
                if (is(ch, "function_definition") || is(ch, "class_definition")) {
                    pending_def q = {ch, np, cq};
                    CA_VEC_PUSH(L.pending, q);
                }
            }
            CA_VEC_FREE(kids);
            continue;
        }
        lower_function(&L, p.node, p.prefix, p.class_name);
    }
    CA_VEC_FREE(L.imports);
    CA_VEC_FREE(L.globals);
    CA_VEC_FREE(L.class_attrs);
    CA_VEC_FREE(L.pending);
    CA_VEC_FREE(L.locals_ctor);
    CA_VEC_FREE(L.global_decl);
    CA_VEC_FREE(L.cancelled);
    ts_tree_delete(tree);
    if (crfixed) {
        m->src = NULL; /* the caller's buffer is the one that outlives m */
        free(crfixed);
    }
    return 0;
}
