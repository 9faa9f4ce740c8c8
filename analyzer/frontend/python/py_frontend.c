/*
 * py_frontend.c — lowering Python (tree-sitter-python) to the ownership IR.
 *
 * Where it sits: discover → parse → **lower** → rules. The TSTree is turned
 * into a flat node array right after parsing (py_tree.h) and freed; all
 * lowering reads the array. For each function it walks statements (recursively, bounded by IR_MAX_DEPTH) and expressions
 * (iteratively, post-order = evaluation order) and emits IR events. All
 * library knowledge comes from the catalog; the only Python names tested
 * here are the language's own (self, cls, True, list/tuple/...).
 *
 * The folder: frontend/python/ is the Python frontend: py_precheck.c the
 * byte checks before parsing (prefilter, bracket depth), py_tree.c the flat
 * copy of the tree-sitter tree, this file the lowering, py_lang.c the
 * ca_lang that the scan driver calls.
 */
#include "frontend/python/py_frontend.h"

#include <ctype.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <tree_sitter/api.h>

#include "frontend/python/py_tree.h"

const TSLanguage *tree_sitter_python(void);

struct py_frontend {
    TSParser *parser;
    const ca_catalog *cat;
    py_tree flat; /* the file being lowered; its buffers are reused */
};

/* Flat-tree buffers bigger than this are given back after each file. */
#define PY_FLAT_KEEP (4u << 20)

py_frontend *py_frontend_new(const ca_catalog *cat)
{
    py_frontend *fe = ca_xcalloc(1, sizeof(*fe));
    fe->parser = ts_parser_new();
    ts_parser_set_language(fe->parser, tree_sitter_python());
    fe->cat = cat;
    return fe;
}

void py_frontend_free(py_frontend *fe)
{
    if (!fe) return;
    ts_parser_delete(fe->parser);
    py_tree_free(&fe->flat);
    free(fe);
}

/* ------------------------------------------------------------------------ */
/* Module-level facts gathered before lowering functions.                   */

/* A coroutine of the module named `name` whose returns hand back what
 * catalogued maker `e` makes (NULL: another of that name does not). */
typedef struct maker_ref {
    const char *name;
    const ca_cat_entry *e;
} maker_ref;

typedef struct name_map {
    const char *key;   /* local name, or "Class.attr" */
    const char *value; /* resolved dotted name */
    int relative;      /* imports: from a relative import, its number of dots (`from ..asyncio import x`: 2) */
    int from_import;   /* imports: bound by `from M import x` (a module's member), not `import M` */
} name_map;

typedef struct pending_def {
    pn node;           /* function_definition or class_definition */
    const char *prefix;    /* qualname prefix ("", "Cls.", "f.<locals>.") */
    const char *class_name;
    const char *outer_class; /* a def in a method's body: that method's class (its closure's `self`) */
} pending_def;

/* A value made by a catalogued call, for the first write on it: a send on a
 * connection just opened writes into an empty buffer (catalog fresh-send). */
typedef struct fresh_var {
    const char *name;
    const char *maker;  /* dotted of the making call, wrappers taken off */
    int loop_depth;     /* loops around the acquisition */
    int used;           /* awaited on since (a write may have filled the buffer) */
} fresh_var;

typedef struct lower {
    py_frontend *fe;
    const py_tree *T;
    const ca_catalog *cat;
    ir_module *m;
    const char *src;
    uint32_t len;
    CA_VEC(name_map) imports;
    CA_VEC(name_map) globals;    /* module-level name → dotted of what it was assigned (may be "") */
    CA_VEC(name_map) class_attrs;/* "Class.attr" → dotted constructor */
    CA_VEC(name_map) attr_types; /* "Class.attr" → the one class the annotation of the parameter it is
                                    assigned from names (`def __init__(self, manager: Manager):
                                    self.manager = manager`) */
    CA_VEC(const char *) cancel_flags; /* "Class.attr": a method sets self.attr = True, then cancels a task:
                                          while it is set, a cancellation is the object's own */
    CA_VEC(const char *) timeout_wrappers; /* async functions of the module that await their first
                                              argument under a timeout (`return await
                                              asyncio.wait_for(awaitable, timeout=t)`) */
    CA_VEC(const char *) factory_wrappers; /* ... that await what their first argument returns when
                                              called (`aw = factory(); await wait_for(aw, t)`) */
    CA_VEC(name_map) options;    /* "Class.attr" → "1": set only by __init__ from its parameter (an option of
                                    the object); "0": state, assigned elsewhere too */
    CA_VEC(pending_def) pending;
    /* per function */
    ir_func *f;
    const char *class_name;
    CA_VEC(name_map) locals_ctor; /* local var → dotted of the call it was assigned */
    CA_VEC(name_map) param_class; /* parameter → the one class its annotation names (`app: Application`) */
    CA_VEC(name_map) local_class; /* local → the one class its annotation names (`b: Optional[Backend] = ...`) */
    CA_VEC(name_map) elem_class;  /* container or loop element → the one class of its elements
                                     (`apps: list[App]`, `for app in apps`) */
    CA_VEC(const char *) global_decl;
    CA_VEC(fresh_var) fresh;    /* per function */
    CA_VEC(name_map) unmade_paths; /* per function: a local bound to a path whose file a later call of the
                                      function creates (`open(p, "wb")`): key the name; its acquisition
                                      is emitted there (value unused) */
    CA_VEC(ir_node *) unmade_makers; /* parallel: the call that made each path */
    int loop_depth;             /* loops around the statement being lowered */
    const char *kwargs_name;    /* the function's **kwargs parameter, or NULL */
    pn closures_of;             /* the def whose nested defs `closures` lists (cached per function) */
    CA_VEC(pn) closures;        /* its nested function definitions, one level down */
    CA_VEC(int) exc_flags;      /* pairs (flag, exc): `flag = isinstance(exc, Exception) and ...`, so flag
                                   truthy says exc is no cancellation */
    CA_VEC(const char *) plain_decl; /* locals annotated as plain data (`x: str = ""`): never a resource */
    CA_VEC(const char *) global_views; /* locals bound to a container the module keeps (`workers =
                                          _pool_var.get()`, `lst = _REG.setdefault(k, [])`): what is
                                          stored in them is the module's */
    int depth;
    int in_cleanup;
    int in_cancel_handler;      /* lowering the body of a handler that catches cancellation */
    int too_deep;
    int plain_bind;             /* binding a target annotated as plain data: no acquisition */
    CA_VEC(int) strong;         /* variables given a catalogued resource in this function */
    CA_VEC(int) elem_of;        /* pairs (element, container): the targets of each `for x in c:` so far */
    CA_VEC(int) created;        /* variables given what a create_* call run in a thread made */
    CA_VEC(const char *) flags; /* names the function assigns True/False/None to: their values are followed */
    CA_VEC(const char *) own_tasks;   /* names of functions the module runs as tasks */
    CA_VEC(const char *) arg0_spawners; /* module functions that start their first parameter as a task */
    CA_VEC(const char *) own_wrappers; /* `deco.<locals>.wrapper`: a decorator's wrapper that stands in for
                                          functions the module runs as tasks (decorator_task_wrappers) */
    CA_VEC(const char *) awaited_any; /* method names the module awaits on any receiver (`await app.m()`) */
    CA_VEC(const char *) awaited_other; /* of those, the ones awaited on a receiver not self (`await venue.m()`) */
    CA_VEC(const char *) awaited;     /* names the module awaits as plain coroutines (`await f()`, `await
                                         self.f()`): FN_AWAITED_HERE */
    CA_VEC(const char *) uncancelled; /* ... as tasks nothing in the module can cancel */
    CA_VEC(const char *) scope_driven; /* ... only through a scope runner (collect_scope_driven) */
    CA_VEC(uint32_t) scope_driven_defs; /* ... the nested ones, by the start of their def */
    CA_VEC(const char *) value_names; /* names of functions the module names as values (collect_value_names),
                                         sorted */
    CA_VEC(uint32_t) route_defs;      /* nested request handlers a server the function makes runs in tasks it
                                         never cancels (collect_local_routes), by the start of their def */
    CA_VEC(const char *) mains;       /* ... only as the main task of a runner (asyncio.run) */
    int member_vars;                  /* the function has member variables (`entry.task`) */
    int returns_call, returns_other;  /* returns that hand back a call's result directly; other returns of a value */
    int returns_literal, returns_nonliteral; /* returns of a literal built in place (RETURN_LITERAL); the others */
    CA_VEC(name_map) idle_locks;      /* "Class.attr" -> "1"/"0": see lock_idle */
    CA_VEC(name_map) cancelled; /* receiver text of x.cancel() → "" */
    CA_VEC(name_map) cancelling_methods; /* "Class.method" → "self.attr" it cancels (`self._task.cancel()`) */
    CA_VEC(const char *) self_cancellers; /* names of futures given a done-callback (a function defined in
                                             this one) that cancels the current task: done, the
                                             cancellation is the function's own request */
    /* offsets of the source's UTF-8 continuation bytes, ascending: a column
     * in code points is the bytes before it on its line less these, found
     * by two binary searches (counting the line's bytes was quadratic on
     * one long line: 50,000 `async for` clauses, 35 s) */
    CA_VEC(uint32_t) cont;
    const char *outer_class;          /* lowering a def in a method's body: that method's class */
    int makers_ready;                 /* delegated_maker's index is built */
    CA_VEC(maker_ref) makers;         /* coroutines of the module that return a catalogued maker's result */
} lower;

/* ------------------------------------------------------------------------ */
/* Node helpers.                                                            */

typedef CA_VEC(pn) node_vec;

/* n's named children in order into out (emptied first). */
static void named_children(pn n, node_vec *out)
{
    out->n = 0;
    PN_FOR_NAMED(ch, n) CA_VEC_PUSH(*out, ch);
}

static char *text(lower *L, pn n)
{
    uint32_t s = n->start, e = n->end;
    if (e > L->len) e = L->len;
    if (s > e) s = e;
    return ca_arena_strndup(&L->m->arena, L->src + s, e - s);
}

/* Is n's source text exactly s? (no copy: for the passes over every node) */
static int text_is(lower *L, pn n, const char *s)
{
    uint32_t b = n->start, e = n->end;
    if (e > L->len) e = L->len;
    if (b > e) return 0;
    size_t k = strlen(s);
    return (size_t)(e - b) == k && memcmp(L->src + b, s, k) == 0;
}

/* Source text with whitespace runs collapsed to one space, capped at cap
 * bytes without splitting a UTF-8 sequence; "..." marks a cut. */
static char *norm_text(lower *L, pn n, size_t cap)
{
    uint32_t s = n->start, e = n->end;
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

/* 1-based line of n's start. */
static int line_of(lower *L, pn n)
{
    uint32_t row, col;
    pt_point(L->T, n->start, &row, &col);
    return (int)row + 1;
}

/* The first index of L->cont whose offset is >= at. */
static size_t cont_before(const lower *L, uint32_t at)
{
    size_t lo = 0, hi = L->cont.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (L->cont.v[mid] < at) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Code points in src[from..to). */
static int code_points(const lower *L, uint32_t from, uint32_t to)
{
    if (!L->cont.n) return (int)(to - from);
    return (int)((to - from) - (cont_before(L, to) - cont_before(L, from)));
}

static void index_continuations(lower *L)
{
    const unsigned char *p = (const unsigned char *)L->src;
    for (uint32_t i = 0; i < L->len;) {
        uint64_t w;
        if (i + 8 <= L->len && (memcpy(&w, p + i, 8), (w & 0x8080808080808080ull) == 0)) {
            i += 8;
            continue;
        }
        if ((p[i] & 0xC0) == 0x80) CA_VEC_PUSH(L->cont, i);
        i++;
    }
}

static ir_site site_of(lower *L, pn n)
{
    ir_site s;
    uint32_t arow, acol, brow, bcol;
    pt_point(L->T, n->start, &arow, &acol);
    pt_point(L->T, n->end, &brow, &bcol);
    uint32_t sb = n->start, eb = n->end;
    if (sb > L->len) sb = L->len;
    if (eb > L->len) eb = L->len;
    s.line = (int)arow + 1;
    s.end_line = (int)brow + 1;
    s.col = code_points(L, sb >= acol ? sb - acol : 0, sb) + 1;
    s.end_col = code_points(L, eb >= bcol ? eb - bcol : 0, eb) + 1;
    s.start = sb;
    s.end = eb;
    return s;
}

static pn unparen(pn n)
{
    while (pn_is(n, PT_parenthesized_expression)) {
        pn only = pn_first_named(n);
        if (pn_isnull(only) || !pn_isnull(pn_after_named(only))) break;
        n = only;
    }
    return n;
}

static int has_token(pn n, unsigned tok)
{
    PN_FOR_CHILD(ch, n)
        if (!pn_named(ch) && ch->type == tok) return 1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Names: dotted text of identifier/attribute chains, import resolution.    */

static const char *map_get(const name_map *v, size_t n, const char *key)
{
    for (size_t i = n; i-- > 0;)
        if (v[i].key[0] == key[0] && strcmp(v[i].key, key) == 0) return v[i].value;
    return NULL;
}

/* Dotted text of a name chain ("self._client.boxes.create"), keeping call
 * parentheses empty ("asyncio.get_event_loop().run_in_executor"); NULL for
 * anything else. Iterative down the object chain. */
static char *dotted_raw(lower *L, pn n)
{
    ca_sb sb = {0};
    /* collect components from the outside in, then reverse */
    const char *parts[64];
    int np = 0;
    pn cur = unparen(n);
    while (np < 64) {
        if (pn_is(cur, PT_identifier)) {
            parts[np++] = text(L, cur);
            break;
        } else if (pn_is(cur, PT_attribute)) {
            parts[np++] = text(L, pn_field(cur, PF_attribute));
            cur = unparen(pn_field(cur, PF_object));
        } else if (pn_is(cur, PT_call)) {
            parts[np++] = "()";
            cur = unparen(pn_field(cur, PF_function));
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

static char *dotted(lower *L, pn n) { return resolve(L, dotted_raw(L, n)); }

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
static pn root_ident(pn n)
{
    pn cur = unparen(n);
    for (int guard = 0; guard < 256; guard++) {
        if (pn_is(cur, PT_identifier)) return cur;
        if (pn_is(cur, PT_attribute)) cur = unparen(pn_field(cur, PF_object));
        else if (pn_is(cur, PT_subscript)) cur = unparen(pn_field(cur, PF_value));
        else if (pn_is(cur, PT_call)) cur = unparen(pn_field(cur, PF_function));
        else break;
    }
    pn nul = &pt_null;
    return nul;
}

static int var_of(lower *L, pn n)
{
    n = unparen(n);
    if (L->f && L->member_vars && pn_is(n, PT_attribute)) {
        /* `entry.task`: a member variable of a local object (see bind_target) */
        pn o = unparen(pn_field(n, PF_object)), a = pn_field(n, PF_attribute);
        if (!pn_is(o, PT_identifier) || !pn_is(a, PT_identifier)) return -1;
        char mb[256];
        uint32_t ol = o->end - o->start, al = a->end - a->start;
        if (ol + al + 2 > sizeof(mb)) return -1;
        memcpy(mb, L->src + o->start, ol);
        mb[ol] = '.';
        memcpy(mb + ol + 1, L->src + a->start, al);
        mb[ol + 1 + al] = 0;
        return ir_var_find(L->f, mb);
    }
    if (!L->f || !pn_is(n, PT_identifier)) return -1; /* (module level: no variables) */
    char buf[256];
    uint32_t s = n->start, e = n->end;
    if (e - s >= sizeof(buf)) return -1;
    memcpy(buf, L->src + s, e - s);
    buf[e - s] = 0;
    return ir_var_find(L->f, buf);
}

static int root_var(lower *L, pn n)
{
    pn r = root_ident(n);
    return pn_isnull(r) ? -1 : var_of(L, r);
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
static owner_kind owner_of(lower *L, pn n, int *var)
{
    pn r = root_ident(n);
    *var = -1;
    if (pn_isnull(r)) return OWN_NONE;
    int v = var_of(L, r);
    char *name = text(L, r);
    if (v >= 0 && declared_outer(L, name)) return OWN_GLOBAL;
    for (size_t i = 0; v >= 0 && i < L->global_views.n; i++)
        if (strcmp(L->global_views.v[i], name) == 0) return OWN_GLOBAL;
    if (v >= 0) {
        *var = v;
        if (L->f->vars[v].flags & VAR_SELF) return OWN_SELF;
        /* (a view of an entry self holds: an owner that outlives this call) */
        if ((L->f->vars[v].flags & VAR_OF_SELF) && (pn_is(unparen(n), PT_attribute) || pn_is(unparen(n), PT_subscript)) &&
            unparen(n) != r)
            return OWN_GLOBAL;
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

static const ca_cat_entry *cat(lower *L, ca_cat_kind k, const char *s);

/* Variables whose value (the object itself) flows into n: `v`, `(a, b)`,
 * `Entry(ws=ws)`, `[a, *rest]`, `{k: v}`, `x if c else y` — not `v.id`. */
/* A builtin whose result is a new scalar (a string, a number, a bool):
 * it holds nothing of its arguments. */
static int scalar_builtin(const char *name)
{
    static const char *const names[] = {"str", "repr", "format", "len", "int", "float", "bool", "hash", "id",
                                        "isinstance", "callable", "ascii", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(name, names[i]) == 0) return 1;
    return 0;
}

/* A generator expression a builtin runs to its end (or to its first
 * answer) right where it is written, `sum(1 for t in ts if t.cancel())`,
 * `any(...)`, `list(...)`: its body runs here, as a comprehension's
 * does, not later whenever someone iterates it. */
static int consumed_at_once(lower *L, pn genexp)
{
    static const char *const names[] = {"sum", "any", "all", "list", "tuple", "set", "frozenset", "sorted",
                                        "min", "max", "dict", NULL};
    pn call = pn_parent(genexp);
    if (pn_is(call, PT_argument_list)) call = pn_parent(call);
    if (!pn_is(call, PT_call)) return 0;
    pn fn = unparen(pn_field(call, PF_function));
    if (!pn_is(fn, PT_identifier) || (L->f && ir_var_find(L->f, text(L, fn)) >= 0)) return 0;
    for (int i = 0; names[i]; i++)
        if (strcmp(text(L, fn), names[i]) == 0) return 1;
    return 0;
}

static void value_vars(lower *L, pn n, int_vec *out)
{
    pn stack[512];
    int sp = 0;
    stack[sp++] = n;
    while (sp > 0) {
        pn cur = unparen(stack[--sp]);
        if (pn_isnull(cur)) continue;
        unsigned t = cur->type;
        if (t == PT_identifier) {
            push_unique(out, var_of(L, cur));
        } else if (t == PT_call) {
            /* (`str(result)`, `len(items)`: a new scalar, holding none of
             * what it was made from; a copy, `list(tasks)`, holds it) */
            pn fn = unparen(pn_field(cur, PF_function));
            if (pn_is(fn, PT_identifier) && scalar_builtin(text(L, fn))) continue;
            pn args = pn_field(cur, PF_arguments);
            if (!pn_isnull(args) && sp < 500) stack[sp++] = args;
        } else if (t == PT_keyword_argument) {
            if (sp < 500) stack[sp++] = pn_field(cur, PF_value);
        } else if (t == PT_pair) {
            if (sp < 500) stack[sp++] = pn_field(cur, PF_value);
        } else if (t == PT_list_comprehension || t == PT_set_comprehension || t == PT_generator_expression) {
            /* a filter, `[t for t in tasks | {x} if not t.done()]`: it holds
             * (some of) what it iterates; one that makes something else of
             * each element (`[t.get_name() for t in tasks]`) does not */
            pn body = unparen(pn_first_named(cur));
            pn clause = &pt_null;
            PN_FOR_NAMED(ch, cur) {
                if (pn_is(ch, PT_for_in_clause)) {
                    if (!pn_isnull(clause)) { clause = &pt_null; break; } /* (nested loops: not a filter) */
                    clause = ch;
                }
            }
            pn lv = pn_isnull(clause) ? clause : unparen(pn_field(clause, PF_left));
            if (pn_is(body, PT_identifier) && pn_is(lv, PT_identifier) && strcmp(text(L, body), text(L, lv)) == 0 &&
                sp < 500)
                stack[sp++] = pn_field(clause, PF_right);
        } else if (t == PT_attribute &&
                   !(pn_is(pn_parent(cur), PT_call) && pn_field(pn_parent(cur), PF_function) == cur)) {
            /* `closers.append(session.close)`: a bound release method, not
             * called here, holds its object (calling it releases that) */
            pn obj = unparen(pn_field(cur, PF_object));
            if (pn_is(obj, PT_identifier) && cat(L, CAT_RELEASE_METHOD, text(L, pn_field(cur, PF_attribute))))
                push_unique(out, var_of(L, obj));
        } else if (t == PT_binary_operator) {
            /* `tasks | {x}`, `pending + [t]`: a union of containers */
            if (sp < 499) {
                stack[sp++] = pn_field(cur, PF_left);
                stack[sp++] = pn_field(cur, PF_right);
            }
        } else if (t == PT_conditional_expression || t == PT_tuple || t == PT_list || t == PT_set ||
                   t == PT_dictionary || t == PT_argument_list || t == PT_expression_list ||
                   t == PT_list_splat || t == PT_dictionary_splat || t == PT_parenthesized_expression ||
                   t == PT_boolean_operator) {
            PN_FOR_NAMED(ch, cur) {
                if (sp >= 500) break;
                stack[sp++] = ch;
            }
        }
    }
}

/* The k-th element of a returned tuple (`return a, True`), or the null node. */
static pn returned_element(pn ret, int k)
{
    pn v = unparen(pn_first_named(ret));
    if (!pn_is(v, PT_tuple) && !pn_is(v, PT_expression_list)) return &pt_null;
    int i = 0;
    PN_FOR_NAMED(x, v) {
        if (i++ == k) return unparen(x);
    }
    return &pt_null;
}

/* Return statement ret returns a tuple with `True` at some position where
 * every other return of its function that returns a tuple has `False` (and
 * there is at least one such): a flag that says which way the function
 * ended. */
static int returns_cancel_flag(lower *L, pn ret)
{
    pn def = pn_parent(ret);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition) && !pn_is(def, PT_lambda)) def = pn_parent(def);
    if (!pn_is(def, PT_function_definition)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (int k = 0; k < 8; k++) {
        pn mine = returned_element(ret, k);
        if (pn_isnull(mine)) return 0;
        if (!pn_is(mine, PT_true)) continue;
        int others = 0, ok = 1;
        uint32_t nested_end = 0;
        for (pn x = def + 1; x < endp && x->start < def->end && ok; x++) {
            if (x->type == PT_function_definition || x->type == PT_lambda) {
                if (x->end > nested_end) nested_end = x->end;
                continue;
            }
            if (x->start < nested_end || x->type != PT_return_statement || x == ret) continue;
            pn e = returned_element(x, k);
            if (pn_isnull(e)) continue;
            if (pn_is(e, PT_false)) others++;
            else ok = 0;
        }
        if (ok && others) return 1;
    }
    return 0;
}

/* Is call x inside an f-string's interpolation (`f"token {encode_hex(t)}"`)?
 * What it makes is formatted into text: it is a formatter, and what it is
 * handed goes nowhere (no cleanup, no hand-over). */
static int in_interpolation(pn x)
{
    for (pn up = pn_parent(x); !pn_isnull(up); up = pn_parent(up)) {
        if (pn_is(up, PT_string)) return 1;
        if (pn_is(up, PT_expression_statement) || pn_is(up, PT_function_definition) || pn_is(up, PT_block)) return 0;
    }
    return 0;
}

/* Every tracked variable mentioned anywhere in n (attribute roots, lambda
 * bodies included): what a cleanup call "receives". */
static void ref_vars(lower *L, pn n, int_vec *out)
{
    pn stack[512];
    int sp = 0;
    stack[sp++] = n;
    while (sp > 0) {
        pn cur = stack[--sp];
        if (pn_isnull(cur)) continue;
        if (pn_is(cur, PT_identifier)) {
            push_unique(out, var_of(L, cur));
            continue;
        }
        /* `f"no partition {part}"`: an interpolation hands on the value's
         * text, not the value */
        if (pn_is(cur, PT_string)) continue;
        if (pn_is(cur, PT_attribute)) { /* only the object side names a variable */
            if (sp < 500) stack[sp++] = pn_field(cur, PF_object);
            continue;
        }
        if (pn_is(cur, PT_keyword_argument)) {
            if (sp < 500) stack[sp++] = pn_field(cur, PF_value);
            continue;
        }
        PN_FOR_NAMED(ch, cur) {
            if (sp >= 500) break;
            stack[sp++] = ch;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Event emission.                                                          */

static ir_node *emit(lower *L, ir_block *out, ir_kind k, pn at, int var)
{
    ir_node *n = ir_node_new(L->m, k, site_of(L, at));
    n->var = var;
    ir_block_push(L->m, out, n);
    return n;
}

static const ca_cat_entry *cat(lower *L, ca_cat_kind k, const char *s) { return ca_catalog_match(L->cat, k, s); }

/* Does a call of this name release what it is given (`close`, `aclose`,
 * `self._terminate_entry`): a release method, or a release word in it? */
/* `StopAsyncIteration(...)`, `ShutdownError(...)`: an exception class
 * made to be raised, whatever words its name holds */
static int exception_class_name(const char *name)
{
    static const char *const ends[] = {"Error", "Exception", "Iteration", "Exit", "Interrupt", "Warning"};
    if (!name || !(*name >= 'A' && *name <= 'Z')) return 0;
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
        size_t e = strlen(ends[i]);
        if (n >= e && strcmp(name + n - e, ends[i]) == 0) return 1;
    }
    return 0;
}

static const char *first_word(const char *name, char *buf, size_t n);

/* `_send_stop_status(...)`, `notify_closed(...)`: a name whose first word
 * sends a message (catalog message-verb) says what the message is about,
 * not that the call releases what it is handed. */
static int message_verb(lower *L, const char *name)
{
    while (*name == '_') name++;
    char first[32];
    first_word(name, first, sizeof(first));
    /* (`safe_send_message`, `try_send`: a word that only qualifies the
     * verb after it, catalog verb-qualifier) */
    if (cat(L, CAT_VERB_QUALIFIER, first)) {
        const char *rest = name + strlen(first);
        while (*rest == '_') rest++;
        if (*rest) first_word(rest, first, sizeof(first));
    }
    return cat(L, CAT_MESSAGE_VERB, first) != NULL;
}

/* Does the first word of name (leading `_` dropped) write a status about
 * what the call is handed (catalog status-verb: `update_step_stop_reason(
 * actor, step_id, reason)`, `mark_closed(conn_id)`)? A release word later
 * in the name says which status, not that the call releases its arguments. */
static int status_verb(lower *L, const char *name)
{
    while (*name == '_') name++;
    char first[32];
    return cat(L, CAT_STATUS_VERB, first_word(name, first, sizeof(first))) != NULL;
}

/* Does a release word in name say the call releases what it is handed:
 * not after a verb that sends a message or writes a status? */
static int release_word_name(lower *L, const char *name)
{
    return ca_catalog_contains_word(L->cat, CAT_RELEASE_WORD, name) && !message_verb(L, name) &&
           !status_verb(L, name);
}

static int names_release(lower *L, const char *name)
{
    return name && !exception_class_name(name) && (cat(L, CAT_RELEASE_METHOD, name) || release_word_name(L, name));
}

static pn first_pos_arg(pn call, int idx)
{
    pn args = pn_field(call, PF_arguments);
    pn nul = &pt_null;
    if (pn_isnull(args) || !pn_is(args, PT_argument_list)) return nul;
    int k = 0;
    PN_FOR_NAMED(a, args) {
        if (pn_is(a, PT_keyword_argument) || pn_is(a, PT_comment)) continue;
        if (k++ == idx) return a;
    }
    return nul;
}

/* What a task spawner is handed to run: its first positional argument, or
 * the coroutine passed by keyword (`asyncio.create_task(name=..., coro=...)`,
 * catalog spawn-keyword). */
static pn spawned_arg_src(lower *L, pn call)
{
    pn a0 = first_pos_arg(call, 0);
    if (!pn_isnull(a0)) return a0;
    pn args = pn_field(call, PF_arguments);
    if (pn_isnull(args) || !pn_is(args, PT_argument_list)) return a0;
    PN_FOR_NAMED(a, args) {
        if (!pn_is(a, PT_keyword_argument)) continue;
        pn k = pn_field(a, PF_name);
        if (!pn_isnull(k) && cat(L, CAT_SPAWN_KEYWORD, text(L, k))) return pn_field(a, PF_value);
    }
    return a0;
}

/* Is string literal s exactly "kw" (or 'kw')? */
static int string_is(lower *L, pn s, const char *kw)
{
    if (!pn_is(s, PT_string)) return 0;
    const char *t = text(L, s);
    size_t n = strlen(t), k = strlen(kw);
    return n == k + 2 && (t[0] == '"' || t[0] == '\'') && t[n - 1] == t[0] && memcmp(t + 1, kw, k) == 0;
}

/* `opts["sock"] = sock` ... `connect(url, **opts)`: the value the last
 * store of key kw into the local dict name before the call put there (a
 * store under a test is taken as made: the value exists on that path
 * only), or the null node. */
static pn splat_kw(lower *L, pn call, const char *name, const char *kw)
{
    pn def = pn_parent(call);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    pn found = &pt_null;
    if (pn_isnull(def)) return found;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = def + 1; y < endp && y->start < call->start; y++) {
        if (y->type != PT_assignment) continue;
        pn left = unparen(pn_field(y, PF_left));
        if (!pn_is(left, PT_subscript)) continue;
        pn base = unparen(pn_field(left, PF_value));
        if (!pn_is(base, PT_identifier) || strcmp(text(L, base), name) != 0) continue;
        pn key = &pt_null;
        PN_FOR_NAMED(ix, left) {
            if (ix != pn_field(left, PF_value)) key = unparen(ix);
        }
        if (!pn_isnull(key) && string_is(L, key, kw)) found = pn_field(y, PF_right);
    }
    return found;
}

static pn kw_arg(lower *L, pn call, const char *kw)
{
    pn args = pn_field(call, PF_arguments);
    pn nul = &pt_null;
    if (pn_isnull(args)) return nul;
    PN_FOR_NAMED(a, args) {
        if (!pn_is(a, PT_keyword_argument)) continue;
        char *name = text(L, pn_field(a, PF_name));
        if (strcmp(name, kw) == 0) return pn_field(a, PF_value);
    }
    PN_FOR_NAMED(a, args) {
        if (!pn_is(a, PT_dictionary_splat)) continue;
        pn d = unparen(pn_first_named(a));
        if (!pn_is(d, PT_identifier)) continue;
        pn v = splat_kw(L, call, text(L, d), kw);
        if (!pn_isnull(v)) return v;
    }
    return nul;
}

static int is_true_literal(lower *L, pn n)
{
    n = unparen(n);
    if (pn_is(n, PT_true)) return 1;
    if (pn_is(n, PT_integer)) return strcmp(text(L, n), "0") != 0;
    return 0;
}

/* The first `_`-separated word of name (`add` of `add_child`), in buf. */
static const char *first_word(const char *name, char *buf, size_t n)
{
    size_t k = 0;
    while (name[k] && name[k] != '_' && k + 1 < n) buf[k] = name[k], k++;
    buf[k] = 0;
    return buf;
}

/* Is the coroutine function of this module named `name` (a method, a
 * nested or module-level def) a teardown: named as a release method, or
 * something in its body releases (a call whose name says so), and it has no
 * `while True:` (a background loop such as `_cleanup_loop` runs until it is
 * stopped)? One not defined here is judged by its name alone. */
/* Is a function of that name defined in this module (at any level)? */
static int defined_here(lower *L, const char *name)
{
    if (!name) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn d = L->T->v; d < endp; d++)
        if (d->type == PT_function_definition && strcmp(text(L, pn_field(d, PF_name)), name) == 0) return 1;
    return 0;
}

static int teardown_body(lower *L, const char *name)
{
    if (!name) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    /* (a method named as a release, `close`, `stop`, is one whatever its
     * body shows; a name that only contains a release word, `_cancel_task`,
     * needs a release in its body) */
    int found = 0, releases = cat(L, CAT_RELEASE_METHOD, name) != NULL;
    for (pn d = L->T->v; d < endp; d++) {
        if (d->type != PT_function_definition) continue;
        const char *dn = text(L, pn_field(d, PF_name));
        if (!dn || strcmp(dn, name) != 0) continue;
        found = 1;
        pn body = pn_field(d, PF_body);
        for (pn x = body; x < endp && x->start < body->end; x++) {
            if (x->type == PT_while_statement && is_true_literal(L, pn_field(x, PF_condition))) return 0;
            if (x->type == PT_call) {
                char *cd = dotted(L, pn_field(x, PF_function));
                const char *last = cd ? strrchr(cd, '.') : NULL;
                last = last ? last + 1 : cd;
                /* (`disconnect_all()`: its first word is a release method) */
                char first[32];
                while (last && *last == '_') last++;
                if (last && (names_release(L, last) ||
                             cat(L, CAT_RELEASE_METHOD, first_word(last, first, sizeof(first)))))
                    releases = 1;
            }
        }
    }
    return !found || releases;
}

/* Is the function of this module named `name` made only of releases: each
 * statement of its body (a docstring aside) a call, awaited or not, whose
 * name is a release method (`await self.trans.__aexit__(...)`, `await
 * self.session.close()`)? Such a coroutine is a teardown whatever its name. */
static int releases_only_body(lower *L, const char *name)
{
    if (!name) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    int found = 0;
    for (pn d = L->T->v; d < endp; d++) {
        if (d->type != PT_function_definition || strcmp(text(L, pn_field(d, PF_name)), name) != 0) continue;
        if (found++) return 0; /* (two of that name: which runs is not known) */
        int n = 0;
        PN_FOR_NAMED(st, pn_field(d, PF_body)) {
            if (pn_is(st, PT_comment)) continue;
            pn e = pn_is(st, PT_expression_statement) ? unparen(pn_first_named(st)) : &pt_null;
            if (pn_is(e, PT_string) && n == 0) continue;
            if (pn_is(e, PT_await)) e = unparen(pn_first_named(e));
            if (!pn_is(e, PT_call)) return 0;
            pn f = unparen(pn_field(e, PF_function));
            const char *m = pn_is(f, PT_attribute) ? text(L, pn_field(f, PF_attribute)) : NULL;
            if (!m || !cat(L, CAT_RELEASE_METHOD, m)) return 0;
            n++;
        }
        if (n == 0) return 0;
    }
    return found == 1;
}

/* `create_task(await self._loop())`: the awaited coroutine runs to its
 * end inline, and what is handed to the spawner is its result. When the
 * only function of that name in the module is an async def that never
 * returns a value, the spawner gets None and makes no task (it raises). */
/* `create_task(asyncio.wait_for(listen(...), timeout))`: a task that runs a
 * timed wait (catalog timeout-call, with a timeout that is not None) ends
 * by itself when its time is up, its work cancelled by the wait: left to
 * nobody, it holds nothing past its deadline. */
static int spawns_timed_wait(lower *L, pn arg)
{
    arg = unparen(arg);
    if (!pn_is(arg, PT_call)) return 0;
    const char *d = dotted(L, pn_field(arg, PF_function));
    if (!d || !cat(L, CAT_TIMEOUT_CALL, d) || !pn_is(unparen(first_pos_arg(arg, 0)), PT_call)) return 0;
    pn t = first_pos_arg(arg, 1);
    if (pn_isnull(t)) t = kw_arg(L, arg, "timeout");
    return !pn_isnull(t) && !pn_is(unparen(t), PT_none);
}

static int spawns_awaited_none(lower *L, pn arg)
{
    arg = unparen(arg);
    if (!pn_is(arg, PT_await)) return 0;
    pn c = unparen(pn_first_named(arg));
    if (!pn_is(c, PT_call)) return 0;
    pn f = unparen(pn_field(c, PF_function));
    const char *name = pn_is(f, PT_attribute) ? text(L, pn_field(f, PF_attribute))
                       : pn_is(f, PT_identifier) ? text(L, f)
                                                 : NULL;
    if (!name) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    int found = 0;
    for (pn d = L->T->v; d < endp; d++) {
        if (d->type != PT_function_definition || strcmp(text(L, pn_field(d, PF_name)), name) != 0) continue;
        if (found++ || !has_token(d, PT_async)) return 0;
        pn body = pn_field(d, PF_body);
        uint32_t nested_end = 0;
        for (pn x = body; x < endp && x->start < body->end; x++) {
            if (x->type == PT_function_definition || x->type == PT_lambda || x->type == PT_class_definition) {
                if (x->end > nested_end) nested_end = x->end;
                continue;
            }
            if (x->start < nested_end) continue;
            if (x->type == PT_yield) return 0;
            if (x->type == PT_return_statement && !pn_isnull(pn_first_named(x))) return 0;
        }
    }
    return found == 1;
}

/* The member of container var `root` aliased under attribute `attr`, or -1. */
static int member_by_attr(lower *L, ir_block *scope_hint, int root, const char *attr);

/* Registry: a container stored on self/cls or at module level. */
static int is_registry(lower *L, pn recv)
{
    int v;
    owner_kind o = owner_of(L, recv, &v);
    if (o == OWN_SELF || o == OWN_GLOBAL) {
        /* `self` alone is no registry; self.x is */
        pn r = unparen(recv);
        return !pn_is(r, PT_identifier) || o == OWN_GLOBAL;
    }
    return 0;
}

/* The name an `as` binds (`with x as t`, `except E as t`), or the null
 * node: its alias, through the as_pattern_target around it. */
static pn as_target(pn as)
{
    pn alias = pn_field(as, PF_alias);
    pn target = pn_isnull(alias) ? alias : unparen(pn_first_named(alias));
    return pn_isnull(target) ? alias : target;
}

/* The body of the function holding x (NULL node at module level). */
static pn enclosing_body(pn x)
{
    pn def = x;
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    return pn_isnull(def) ? &pt_null : pn_field(def, PF_body);
}

/* Is name bound, in the function holding x, by `async with G() as name:`
 * of a task group's constructor (`anyio.create_task_group()`,
 * `trio.open_nursery()`, `asyncio.TaskGroup()`)? Read from the text, for
 * the passes that run before the function is lowered. */
static int binds_name(lower *L, pn x, const char *name);
static int bound_to_group_in(lower *L, pn body, const char *name);

/* (or, for a function nested in one, by its enclosing function, when the
 * nested one binds no name of its own so: a closure's `n.start(...)` of
 * the enclosing function's `async with trio.open_nursery() as n:`) */
static int bound_to_group(lower *L, pn x, const char *name)
{
    pn def = x;
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    const pt_node *endp = L->T->v + L->T->n;
    for (int depth = 0; !pn_isnull(def) && depth < 8; depth++) {
        pn body = pn_field(def, PF_body);
        if (pn_isnull(body)) return 0;
        if (bound_to_group_in(L, body, name)) return 1;
        /* (a parameter or a binding of the name hides the outer one) */
        pn params = pn_field(def, PF_parameters);
        for (pn y = def; y < endp && y->start < def->end; y++) {
            int in_params = !pn_isnull(params) && y->start >= params->start && y->end <= params->end;
            if (y->type == PT_identifier && in_params && text_is(L, y, name)) return 0;
            if (y->start >= body->start && binds_name(L, y, name)) return 0;
        }
        def = pn_parent(def);
        while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    }
    return 0;
}

/* Is name bound in body by `with ... as name`: of a task group's
 * constructor (any_entered 0), or of anything an `async with` enters
 * (any_entered 1: a home-made task context)? */
static int bound_by_with_in(lower *L, pn body, const char *name, int any_entered)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = body; y < endp && y->start < body->end; y++) {
        if (y->type != PT_with_item) continue;
        pn val = unparen(pn_field(y, PF_value));
        if (!pn_is(val, PT_as_pattern)) continue;
        pn target = as_target(val);
        if (pn_isnull(target) || !pn_is(target, PT_identifier) || strcmp(text(L, target), name) != 0) continue;
        if (any_entered) {
            pn w = pn_parent(y);
            while (!pn_isnull(w) && !pn_is(w, PT_with_statement)) w = pn_parent(w);
            if (!pn_isnull(w) && has_token(w, PT_async)) return 1;
            continue;
        }
        pn e = unparen(pn_first_named(val));
        char *d = pn_is(e, PT_call) ? dotted(L, pn_field(e, PF_function)) : NULL;
        if (d && cat(L, CAT_GROUP_CTOR, d)) return 1;
    }
    return 0;
}

static int bound_to_group_in(lower *L, pn body, const char *name) { return bound_by_with_in(L, body, name, 0); }

static int recv_is_group(lower *L, pn recv)
{
    int v = L->f ? root_var(L, recv) : -1;
    if (v >= 0 && (L->f->vars[v].flags & VAR_GROUP)) return 1;
    const char *t = last_component(dotted_raw(L, recv));
    if (!t) return 0;
    if (strstr(t, "nursery") || strstr(t, "tg") || strstr(t, "task_group") || strstr(t, "taskgroup") ||
        strstr(t, "group"))
        return 1;
    pn r = unparen(recv);
    return pn_is(r, PT_identifier) && bound_to_group(L, r, text(L, r));
}

typedef struct call_info {
    pn node, fn, recv;
    char *dotted;       /* resolved */
    const char *name;   /* last component */
    int awaited;
} call_info;

static call_info call_of(lower *L, pn call)
{
    call_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.node = call;
    ci.recv = &pt_null;
    ci.fn = unparen(pn_field(call, PF_function));
    if (pn_is(ci.fn, PT_attribute)) ci.recv = pn_field(ci.fn, PF_object);
    ci.dotted = dotted(L, ci.fn);
    if (ci.dotted) ci.name = last_component(ci.dotted);
    else if (pn_is(ci.fn, PT_attribute)) ci.name = text(L, pn_field(ci.fn, PF_attribute));
    /* `Sandbox.create.aio(...)`: an async flavour of the method before it */
    if (ci.name && !pn_isnull(ci.recv) && pn_is(unparen(ci.recv), PT_attribute) &&
        cat(L, CAT_CALL_SUFFIX, ci.name)) {
        ci.fn = unparen(ci.recv);
        ci.recv = pn_field(ci.fn, PF_object);
        ci.dotted = dotted(L, ci.fn);
        ci.name = ci.dotted ? last_component(ci.dotted) : text(L, pn_field(ci.fn, PF_attribute));
    }
    return ci;
}

static void emit_release(lower *L, ir_block *out, pn at, int v, unsigned extra, int_vec *deferred)
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
static pn param_ident(pn p);
static int spawns_task(lower *L, const call_info *ci, const char *const *wrappers, size_t nwrappers);

static const char *self_class(lower *L);

/* The constructor the class assigns `self.X` from, for recv `self.X` (one
 * attribute deep; in a function nested in a method too, whose `self` is
 * the method's), or NULL. */
static const char *self_attr_ctor(lower *L, pn recv)
{
    pn r = unparen(recv);
    const char *cls = self_class(L);
    if (!pn_is(r, PT_attribute) || !cls) return NULL;
    pn obj = unparen(pn_field(r, PF_object));
    if (!pn_is(obj, PT_identifier) || strcmp(text(L, obj), "self") != 0) return NULL;
    ca_sb key = {0};
    ca_sb_addf(&key, "%s.%s", cls, text(L, pn_field(r, PF_attribute)));
    const char *d = map_get(L->class_attrs.v, L->class_attrs.n, ca_sb_str(&key));
    ca_sb_release(&key);
    return d;
}

/* self_attr_ctor, when every assignment of `self.X` the class makes is from
 * that one constructor. */
static const char *self_attr_class(lower *L, pn recv)
{
    const char *d = self_attr_ctor(L, recv);
    const char *cls = self_class(L);
    if (!d && L->attr_types.n && cls && pn_is(unparen(recv), PT_attribute)) {
        /* `self.manager = manager` of a parameter annotated with one class,
         * when every such assignment names the same class */
        ca_sb key = {0};
        ca_sb_addf(&key, "%s.%s", cls, text(L, pn_field(unparen(recv), PF_attribute)));
        const char *k = ca_sb_str(&key);
        const char *t = NULL;
        int agree = 1;
        for (size_t i = 0; i < L->attr_types.n && agree; i++) {
            if (strcmp(L->attr_types.v[i].key, k) != 0) continue;
            if (t && strcmp(t, L->attr_types.v[i].value) != 0) agree = 0;
            t = L->attr_types.v[i].value;
        }
        ca_sb_release(&key);
        pn obj = unparen(pn_field(unparen(recv), PF_object));
        return agree && t && pn_is(obj, PT_identifier) && strcmp(text(L, obj), "self") == 0 ? t : NULL;
    }
    if (!d || !*d) return NULL;
    ca_sb key = {0};
    ca_sb_addf(&key, "%s.%s", cls, text(L, pn_field(unparen(recv), PF_attribute)));
    const char *k = ca_sb_str(&key);
    for (size_t i = 0; i < L->class_attrs.n && d; i++)
        if (strcmp(L->class_attrs.v[i].key, k) == 0 && strcmp(L->class_attrs.v[i].value, d) != 0) d = NULL;
    ca_sb_release(&key);
    return d;
}

/* The ir_class of the class whose method is being lowered, or NULL. */
static ir_class *current_class(lower *L)
{
    if (!L->class_name) return NULL;
    for (int i = L->m->nclasses; i-- > 0;)
        if (strcmp(L->m->classes[i]->qualname, L->class_name) == 0) return L->m->classes[i];
    return NULL;
}

static pn local_def(lower *L, const char *name);

/* `ensure_future(watch())` of a function defined in this one whose every
 * await is a call of this function's own `receive` parameter (an ASGI
 * app's disconnect watcher: `while True: event = await receive(); if
 * event["type"] == "http.disconnect": break`): the task waits only on the
 * server's channel for this call, which the server ends with the call, so
 * left running it ends by itself and holds nothing. */
static int receive_watcher(lower *L, pn co)
{
    if (!pn_is(co, PT_call) || !L->f) return 0;
    pn fn = unparen(pn_field(co, PF_function));
    if (!pn_is(fn, PT_identifier)) return 0;
    int rv = ir_var_find(L->f, "receive");
    if (rv < 0 || !(L->f->vars[rv].flags & VAR_PARAM)) return 0;
    const char *name = text(L, fn);
    pn def = local_def(L, name);
    pn body = pn_isnull(def) ? def : pn_field(def, PF_body);
    if (pn_isnull(body)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    int awaits = 0;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type == PT_function_definition || x->type == PT_lambda) return 0;
        if (x->type == PT_with_statement || x->type == PT_for_statement) {
            /* (`async with`/`async for` suspend too) */
            if (has_token(x, PT_async)) return 0;
        }
        /* (the expression, not its keyword) */
        if (x->type != PT_await || pn_isnull(pn_first_named(x))) continue;
        pn c = unparen(pn_first_named(x));
        pn cf = pn_is(c, PT_call) ? unparen(pn_field(c, PF_function)) : &pt_null;
        if (!pn_is(cf, PT_identifier) || !text_is(L, cf, "receive")) return 0;
        awaits++;
    }
    return awaits > 0;
}

/* Is outer (a call that starts a task: `tg.create_task(pump())`) made on
 * a receiver that cancels what it started when the scope it came from
 * unwinds: a task group (`nursery.start_soon(...)`) or any object entered
 * by `async with ... as tc` in the function (a home-made task context)?
 * Such a task is cancelled along with its starter, perhaps before it has
 * run far. */
static int spawned_in_scope(lower *L, pn outer)
{
    if (!pn_is(outer, PT_call)) return 0;
    pn fn = unparen(pn_field(outer, PF_function));
    if (!pn_is(fn, PT_attribute)) return 0;
    pn recv = unparen(pn_field(fn, PF_object));
    if (recv_is_group(L, recv)) return 1;
    if (!pn_is(recv, PT_identifier)) return 0;
    pn def = pn_parent(outer);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    pn body = pn_isnull(def) ? def : pn_field(def, PF_body);
    return !pn_isnull(body) && bound_by_with_in(L, body, text(L, recv), 1);
}

/* Is y in a branch of an `if` that x is not in (`if a: await a.close()`
 * / `elif b: await b.close()`), so that the two never run on one path? */
static int other_branch(pn y, pn x, pn body)
{
    for (pn c = y, p = pn_parent(y); !pn_isnull(p) && c != body; c = p, p = pn_parent(p)) {
        int branch = pn_is(c, PT_elif_clause) || pn_is(c, PT_else_clause) ||
                     (pn_is(p, PT_if_statement) && pn_field(p, PF_consequence) == c);
        if (branch && !(x->start >= c->start && x->end <= c->end)) return 1;
    }
    return 0;
}

/* Does release call x, in body (a nested function's, run as a task), run
 * even when that task is cancelled: in a finally or an except clause, or
 * with no suspension before it in the body (an `await`, `async for` or
 * `async with` earlier in the text), so a cancellation cannot come first?
 * A closure that stops a spinner only once its `async for` has read a
 * chunk releases nothing when the group it runs in cancels it before. */
static int sure_release_in(lower *L, pn x, pn body)
{
    for (pn p = pn_parent(x); !pn_isnull(p) && p != body; p = pn_parent(p))
        if (pn_is(p, PT_finally_clause) || pn_is(p, PT_except_clause)) return 1;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = body; y < endp && y->start < x->start; y++) {
        if (y->type == PT_function_definition || y->type == PT_lambda) {
            /* (a nested def's awaits are not this body's) */
            uint32_t e = y->end;
            while (y + 1 < endp && y[1].start < e) y++;
            continue;
        }
        /* (an await expression, not its keyword, which has its type too) */
        int suspends = (y->type == PT_await && !pn_isnull(pn_first_named(y)) && y->end < x->start) ||
                       ((y->type == PT_for_statement || y->type == PT_with_statement) && has_token(y, PT_async));
        if (suspends && !other_branch(y, x, body)) return 0;
    }
    return 1;
}

/* `tg.start_soon(_drain)` / `create_task(pump())` where _drain is a function
 * defined in this one that releases a value it shares with it (`finally:
 * r_file.close()`): the task owns that value from here on. */
static void spawn_closure(lower *L, ir_block *out, pn call)
{
    pn a0 = unparen(spawned_arg_src(L, call));
    if (pn_is(a0, PT_call)) a0 = unparen(pn_field(a0, PF_function));
    if (!pn_is(a0, PT_identifier) || !L->f) return;
    const char *name = text(L, a0);
    pn def = local_def(L, name);
    if (pn_isnull(def)) return;
    pn params = pn_field(def, PF_parameters), body = pn_field(def, PF_body);
    if (pn_isnull(body)) return;
    int scoped = spawned_in_scope(L, call);
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (!pn_is(x, PT_call)) continue;
        pn fn = unparen(pn_field(x, PF_function));
        pn target = &pt_null;
        if (pn_is(fn, PT_attribute) && pn_is(unparen(pn_field(fn, PF_object)), PT_identifier)) {
            const char *m = text(L, pn_field(fn, PF_attribute));
            if (names_release(L, m))
                target = unparen(pn_field(fn, PF_object));
        } else {
            char *d = dotted(L, fn);
            pn r0 = unparen(first_pos_arg(x, 0));
            if (d && cat(L, CAT_RELEASE_FUNC, d) && pn_is(r0, PT_identifier)) target = r0;
        }
        if (pn_isnull(target)) continue;
        /* (a release the task may be cancelled before, in a group that
         * cancels it with its starter, gives the task nothing to own) */
        if (scoped && !sure_release_in(L, x, body)) continue;
        const char *tn = text(L, target);
        int own = 0; /* a parameter of the nested function is not shared */
        if (!pn_isnull(params))
            for (pn q = params; q < endp && q->start < params->end && !own; q++)
                own = pn_is(q, PT_identifier) && strcmp(text(L, q), tn) == 0;
        int v = own ? -1 : ir_var_find(L->f, tn);
        if (v >= 0 && !(L->f->vars[v].flags & (VAR_SELF | VAR_PARAM))) emit(L, out, IR_TRANSFER, call, v);
    }
}

/* Give call node n its argument variables (kws[i]: the keyword of vars[i],
 * NULL when positional; kws itself may be NULL). */
static void set_call_args(lower *L, ir_node *n, const int *vars, const char *const *kws, size_t nv)
{
    n->nvars = (int)nv;
    n->vars = ca_arena_alloc(&L->m->arena, sizeof(int) * (nv ? nv : 1));
    n->kwnames = ca_arena_alloc(&L->m->arena, sizeof(char *) * (nv ? nv : 1));
    for (size_t i = 0; i < nv; i++) {
        n->vars[i] = vars[i];
        n->kwnames[i] = kws ? kws[i] : NULL;
    }
}

/* `nursery.start_soon(handler, conn)` / `create_task(handler(conn))`: the
 * call the new task makes, with the values it is given (CALL_SPAWNED). */
static void spawn_args(lower *L, ir_block *out, pn call)
{
    pn a0 = unparen(spawned_arg_src(L, call));
    if (pn_isnull(a0) || !L->f) return;
    pn fn = a0, args = &pt_null;
    int skip = 1; /* start_soon(fn, a, b): the arguments after fn */
    if (pn_is(a0, PT_call)) {
        fn = unparen(pn_field(a0, PF_function));
        args = pn_field(a0, PF_arguments);
        skip = 0;
    } else {
        args = pn_field(call, PF_arguments);
    }
    if (!(pn_is(fn, PT_identifier) || pn_is(fn, PT_attribute)) || pn_isnull(args)) return;
    CA_VEC(int) vs = {0};
    CA_VEC(const char *) kws = {0};
    int pos = 0, any = 0;
    PN_FOR_NAMED(a, args) {
        const char *kw = NULL;
        pn val = a;
        if (pn_is(a, PT_keyword_argument)) {
            kw = text(L, pn_field(a, PF_name));
            val = pn_field(a, PF_value);
        } else if (pos++ < skip) {
            continue;
        }
        val = unparen(val);
        int v = pn_is(val, PT_identifier) ? var_of(L, val) : -1;
        if (v >= 0 && (L->f->vars[v].flags & (VAR_SELF | VAR_PARAM))) v = -1;
        if (v < 0 && kw) continue;
        /* (a positional argument keeps its place: -1 when no value of ours) */
        CA_VEC_PUSH(vs, v);
        CA_VEC_PUSH(kws, kw);
        any |= v >= 0;
    }
    if (any) {
        ir_node *n = emit(L, out, IR_CALL, call, -1);
        n->flags = CALL_SPAWNED;
        n->text = dotted(L, fn);
        if (pn_is(fn, PT_attribute)) {
            pn r = unparen(pn_field(fn, PF_object));
            int rv = pn_is(r, PT_identifier) ? var_of(L, r) : -1;
            if ((rv >= 0 && (L->f->vars[rv].flags & VAR_SELF)) ||
                (rv < 0 && pn_is(r, PT_identifier) && strcmp(text(L, r), "self") == 0)) {
                n->flags |= CALL_ON_SELF;
                n->text = text(L, pn_field(fn, PF_attribute));
            }
        }
        if (!n->text) n->text = text(L, fn);
        set_call_args(L, n, vs.v, kws.v, vs.n);
    }
    CA_VEC_FREE(vs);
    CA_VEC_FREE(kws);
}

static int no_args(pn call);

/* Does a call whose name only contains a release word hand over something
 * of self's (an argument rooted at self, or no argument at all: what the
 * receiver holds for self)? */
static int releases_self_arg(lower *L, pn call)
{
    pn args = pn_field(call, PF_arguments);
    if (pn_isnull(args) || !pn_is(args, PT_argument_list)) return 1;
    int any = 0;
    PN_FOR_NAMED(a, args) {
        if (pn_is(a, PT_comment)) continue;
        pn x = pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a;
        any = 1;
        int v = root_var(L, unparen(x));
        if (v >= 0 && (L->f->vars[v].flags & (VAR_SELF | VAR_OF_SELF))) return 1;
    }
    return !any;
}

/* `done, pending = await asyncio.wait([a, b], ...)` before the loop at
 * `loop`, the last binding of container (its second name) there, with its
 * tasks written out: that literal, or null. */
static pn wait_members(lower *L, pn loop, const char *container)
{
    pn fn = pn_parent(loop);
    while (!pn_isnull(fn) && !pn_is(fn, PT_function_definition)) fn = pn_parent(fn);
    if (pn_isnull(fn)) return &pt_null;
    pn members = &pt_null;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = fn; x < endp && x->start < loop->start; x++) {
        if (x->type != PT_assignment) continue;
        pn lv = unparen(pn_field(x, PF_left)), rv = unparen(pn_field(x, PF_right));
        if (!pn_is(lv, PT_pattern_list) || pn_named_count(lv) != 2) continue;
        pn second = unparen(pn_named_child(lv, 1));
        if (!pn_is(second, PT_identifier) || strcmp(text(L, second), container) != 0) continue;
        members = &pt_null;
        if (!pn_is(rv, PT_await)) continue;
        pn c = unparen(pn_first_named(rv));
        char *d = pn_is(c, PT_call) ? dotted(L, pn_field(c, PF_function)) : NULL;
        if (!d || !cat(L, CAT_WAIT_DONE, d)) continue;
        pn a0 = unparen(first_pos_arg(c, 0));
        if (pn_is(a0, PT_set) || pn_is(a0, PT_list) || pn_is(a0, PT_tuple)) members = a0;
    }
    return members;
}

/* The one loop of a list or set comprehension or generator expression
 * (`t for t in tasks`), or null: none, several (a nested loop yields
 * something else), or x no comprehension. */
static pn sole_for_clause(pn x)
{
    if (!pn_is(x, PT_list_comprehension) && !pn_is(x, PT_set_comprehension) && !pn_is(x, PT_generator_expression))
        return &pt_null;
    pn clause = &pt_null;
    PN_FOR_NAMED(c, x) {
        if (!pn_is(c, PT_for_in_clause)) continue;
        if (!pn_isnull(clause)) return &pt_null;
        clause = c;
    }
    return clause;
}

/* Is x a container whose every element the function has cancelled: one
 * named as cancelled (`for t in tasks: t.cancel()`), or a comprehension
 * that takes elements of one as they are (`(t for t in tasks if not
 * t.done())`, `[t for t in self._tasks]`), filtered or not? */
static int cancelled_container(lower *L, pn x)
{
    x = unparen(x);
    if (pn_isnull(x)) return 0;
    if (!pn_is(x, PT_list_comprehension) && !pn_is(x, PT_set_comprehension) && !pn_is(x, PT_generator_expression))
        return map_get(L->cancelled.v, L->cancelled.n, norm_text(L, x, 200)) != NULL;
    pn body = unparen(pn_field(x, PF_body)), clause = sole_for_clause(x);
    if (pn_isnull(clause) || !pn_is(body, PT_identifier)) return 0;
    pn lv = unparen(pn_field(clause, PF_left)), rv = unparen(pn_field(clause, PF_right));
    return pn_is(lv, PT_identifier) && strcmp(text(L, lv), text(L, body)) == 0 &&
           (pn_is(rv, PT_identifier) || pn_is(rv, PT_attribute)) && cancelled_container(L, rv);
}

/* `for t in pending: t.cancel()` after such a wait: every task of the wait
 * is now done (in done) or cancelled (in pending), so an await of a or b
 * raises only what that task ends with, as after `a.cancel()`. */
static void waited_members_cancelled(lower *L, pn loop, const char *container)
{
    pn members = wait_members(L, loop, container);
    if (pn_isnull(members)) return;
    PN_FOR_NAMED(m, members) {
        pn t = unparen(m);
        if (!pn_is(t, PT_identifier)) continue;
        name_map c = {norm_text(L, t, 200), "", 0, 0};
        CA_VEC_PUSH(L->cancelled, c);
    }
}

/* The same sweep seen from the loop (`for t in pending:` whose body cancels
 * t): after it, each task the wait was given has ended or been cancelled,
 * and none is left running: released. */
/* Does statement st cancel task t (`t.cancel()`), directly or only where
 * it is still running (`if not t.done(): t.cancel()`)? */
static int stmt_cancels(lower *L, pn st, const char *t, int depth)
{
    if (pn_is(st, PT_if_statement) && depth == 0) {
        pn c = unparen(pn_field(st, PF_condition));
        /* (an else or elif runs for a task already done: nothing to cancel there) */
        if (!pn_is(c, PT_not_operator)) return 0;
        ca_sb want = {0};
        ca_sb_addf(&want, "%s.done()", t);
        int tests_done = strcmp(norm_text(L, unparen(pn_field(c, PF_argument)), 120), ca_sb_str(&want)) == 0;
        ca_sb_release(&want);
        if (!tests_done) return 0;
        PN_FOR_NAMED(x, pn_field(st, PF_consequence))
            if (stmt_cancels(L, x, t, 1)) return 1;
        return 0;
    }
    pn e = pn_is(st, PT_expression_statement) ? unparen(pn_first_named(st)) : &pt_null;
    if (!pn_is(e, PT_call)) return 0;
    pn f = unparen(pn_field(e, PF_function));
    if (!pn_is(f, PT_attribute) || strcmp(text(L, pn_field(f, PF_attribute)), "cancel") != 0) return 0;
    pn o = unparen(pn_field(f, PF_object));
    return pn_is(o, PT_identifier) && strcmp(text(L, o), t) == 0;
}

/* The tasks written out in a loop's iterable: `[a, b]`, `(a, b)`,
 * `[a, b] + others` (the literal parts). */
static void written_members(lower *L, pn r, int_vec *out, int depth)
{
    r = unparen(r);
    if (depth > 4) return;
    if (pn_is(r, PT_binary_operator)) {
        written_members(L, pn_field(r, PF_left), out, depth + 1);
        written_members(L, pn_field(r, PF_right), out, depth + 1);
        return;
    }
    if (!pn_is(r, PT_list) && !pn_is(r, PT_tuple)) return;
    PN_FOR_NAMED(m, r) {
        pn x = unparen(m);
        int v = pn_is(x, PT_identifier) ? var_of(L, x) : -1;
        if (v >= 0) push_unique(out, v);
    }
}

static void release_swept_members(lower *L, ir_block *out, pn loop)
{
    pn lv = unparen(pn_field(loop, PF_left)), rv = unparen(pn_field(loop, PF_right));
    pn body = pn_field(loop, PF_body);
    if (!pn_is(lv, PT_identifier) || pn_isnull(body)) return;
    const char *t = text(L, lv);
    int cancels = 0;
    PN_FOR_NAMED(st, body)
        if (stmt_cancels(L, st, t, 0)) cancels = 1;
    if (!cancels) return;
    int_vec vs = {0};
    if (pn_is(rv, PT_identifier)) {
        pn members = wait_members(L, loop, text(L, rv));
        if (!pn_isnull(members)) {
            PN_FOR_NAMED(m, members) {
                pn x = unparen(m);
                int v = pn_is(x, PT_identifier) ? var_of(L, x) : -1;
                if (v >= 0) push_unique(&vs, v);
            }
        }
    } else {
        /* `for t in [a, b] + rest: if not t.done(): t.cancel()` */
        written_members(L, rv, &vs, 0);
    }
    for (size_t i = 0; i < vs.n; i++) emit(L, out, IR_RELEASE, loop, vs.v[i])->flags = L->in_cleanup ? REL_IN_CLEANUP : 0;
    CA_VEC_FREE(vs);
}

/* Is identifier y only counted or tested (`len(pending)`, `if pending:`,
 * `not pending`), never handed on or iterated? */
static int only_counted(lower *L, pn y)
{
    pn up = pn_parent(y);
    while (pn_is(up, PT_parenthesized_expression)) up = pn_parent(up);
    if (pn_is(up, PT_not_operator)) return 1;
    if ((pn_is(up, PT_if_statement) || pn_is(up, PT_elif_clause) || pn_is(up, PT_while_statement)) &&
        pn_field(up, PF_condition) == y)
        return 1;
    if (pn_is(up, PT_argument_list) && pn_named_count(up) == 1) {
        pn call = pn_parent(up);
        pn fn = pn_is(call, PT_call) ? unparen(pn_field(call, PF_function)) : &pt_null;
        return pn_is(fn, PT_identifier) && text_is(L, fn, "len");
    }
    return 0;
}

/* `await asyncio.wait(...)` as a statement, or `done, pending = await
 * asyncio.wait(...)` whose pending set the function never hands on (it
 * may read the done set, finished tasks, and count the pending one): the
 * tasks still pending are dropped with it. */
static int wait_sets_dropped(lower *L, pn aw)
{
    pn st = pn_parent(aw);
    if (pn_is(st, PT_expression_statement)) return 1;
    if (!pn_is(st, PT_assignment) || pn_field(st, PF_right) != aw) return 0;
    pn left = unparen(pn_field(st, PF_left));
    const char *names[8];
    int nn = 0;
    if (pn_is(left, PT_identifier)) names[nn++] = text(L, left);
    else if (pn_is(left, PT_pattern_list) || pn_is(left, PT_tuple_pattern) || pn_is(left, PT_tuple)) {
        PN_FOR_NAMED(x, left) {
            pn u = unparen(x);
            if (!pn_is(u, PT_identifier) || nn == 8) return 0;
            names[nn++] = text(L, u);
        }
    } else {
        return 0;
    }
    pn body = enclosing_body(st);
    if (pn_isnull(body)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = body; y < endp && y->start < body->end; y++) {
        if (y->type != PT_identifier || (y->start >= st->start && y->end <= st->end)) continue;
        /* (`f.done()`, `g(done=x)`: a member or keyword of that name) */
        pn up = pn_parent(y);
        if (pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == y) continue;
        if (pn_is(up, PT_keyword_argument) && pn_field(up, PF_name) == y) continue;
        for (int i = 0; i < nn; i++) {
            if (strcmp(text(L, y), names[i]) != 0) continue;
            /* done, pending = ...: the done set holds finished tasks */
            if (nn == 2 && (i == 0 || only_counted(L, y))) continue;
            return 0;
        }
    }
    return 1;
}

/* Is e something self holds, looked up (`self._queues[key]`,
 * `self._queues.get(key)`, `self._queues.setdefault(key, Q())`), or a
 * container of self's itself (`services = self._services`)? */
static int self_lookup(lower *L, pn e)
{
    e = unparen(e);
    pn base = &pt_null;
    if (pn_is(e, PT_attribute)) {
        pn ob = unparen(pn_field(e, PF_object));
        return pn_is(ob, PT_identifier) && (text_is(L, ob, "self") || text_is(L, ob, "cls"));
    }
    if (pn_is(e, PT_subscript)) base = unparen(pn_field(e, PF_value));
    else if (pn_is(e, PT_call)) {
        pn fn = unparen(pn_field(e, PF_function));
        if (!pn_is(fn, PT_attribute)) return 0;
        pn m = pn_field(fn, PF_attribute);
        if (!text_is(L, m, "get") && !text_is(L, m, "setdefault")) return 0;
        base = unparen(pn_field(fn, PF_object));
    }
    if (pn_isnull(base) || !pn_is(base, PT_attribute)) return 0;
    pn root = root_ident(base);
    return !pn_isnull(root) && (text_is(L, root, "self") || text_is(L, root, "cls"));
}

/* `queue_ref = self._queues[key]` ... `queue_ref.task = create_task(...)`:
 * a local every binding of which (in this method) looks up an entry self
 * holds is a view of self's: what is stored on it is stored with self
 * (VAR_OF_SELF). A name also bound otherwise (`entry = Entry()` when the
 * lookup found none) is a local like any other. */
static void mark_views_of_self(lower *L, pn def, ir_func *f)
{
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body)) return;
    const pt_node *endp = L->T->v + L->T->n;
    /* (most methods look nothing up into a local: done without a copy) */
    int any = 0;
    for (pn y = body; y < endp && y->start < body->end && !any; y++) {
        if (y->type == PT_assignment)
            any = pn_is(unparen(pn_field(y, PF_left)), PT_identifier) && self_lookup(L, pn_field(y, PF_right));
        else if (y->type == PT_named_expression)
            any = self_lookup(L, pn_field(y, PF_value));
    }
    if (!any) return;
    const char *cand[16];
    int ok[16], nc = 0;
    for (pn y = body; y < endp && y->start < body->end; y++) {
        if (y->type == PT_function_definition || y->type == PT_lambda || y->type == PT_class_definition) {
            /* (skip nested scopes) */
            uint32_t end = y->end;
            while (y + 1 < endp && (y + 1)->start < end) y++;
            continue;
        }
        const char *name = NULL;
        int good = 0;
        if (y->type == PT_assignment || y->type == PT_augmented_assignment) {
            pn left = unparen(pn_field(y, PF_left));
            if (pn_is(left, PT_identifier)) {
                name = text(L, left);
                good = y->type == PT_assignment && self_lookup(L, pn_field(y, PF_right));
            } else if (pn_is(left, PT_pattern_list) || pn_is(left, PT_tuple_pattern) || pn_is(left, PT_tuple)) {
                PN_FOR_NAMED(x, left) {
                    pn u = unparen(x);
                    if (!pn_is(u, PT_identifier)) continue;
                    for (int i = 0; i < nc; i++)
                        if (strcmp(cand[i], text(L, u)) == 0) ok[i] = 0;
                    if (nc < 16) {
                        cand[nc] = text(L, u);
                        ok[nc++] = 0;
                    }
                }
                continue;
            }
        } else if (y->type == PT_named_expression) {
            pn nm = pn_field(y, PF_name);
            if (pn_is(nm, PT_identifier)) name = text(L, nm), good = self_lookup(L, pn_field(y, PF_value));
        } else if (y->type == PT_for_statement) {
            /* (a loop target: bound otherwise) */
            pn t = unparen(pn_field(y, PF_left));
            if (pn_is(t, PT_identifier)) name = text(L, t);
        } else if (y->type == PT_as_pattern) {
            /* (`with ... as t`, `except E as t`: bound otherwise) */
            pn t = as_target(y);
            if (!pn_isnull(t) && pn_is(t, PT_identifier)) name = text(L, t);
        }
        if (!name) continue;
        int i = 0;
        while (i < nc && strcmp(cand[i], name) != 0) i++;
        if (i == nc) {
            if (nc == 16) continue;
            cand[nc] = name;
            ok[nc++] = good;
        } else {
            ok[i] &= good;
        }
    }
    for (int i = 0; i < nc; i++) {
        if (!ok[i]) continue;
        int v = ir_var_find(f, cand[i]);
        if (v < 0) v = ir_var_add(L->m, f, cand[i], 0);
        if (!(f->vars[v].flags & (VAR_PARAM | VAR_SELF))) f->vars[v].flags |= VAR_OF_SELF;
    }
}

static int annot_plain(lower *L, pn t, const char **one);
static int ctx_matches(lower *L, pn expr, ca_cat_kind k);

/* `list[App]`, `typing.Dict[str, S]` (a subscript, or a generic type):
 * the last component of the generic's name (NULL if t is none), its node
 * in *head and the node holding its arguments in *args. */
static const char *generic_of(lower *L, pn t, pn *head, pn *args)
{
    if (pn_isnull(t)) return NULL;
    if (pn_is(t, PT_type)) t = pn_first_named(t);
    if (pn_is(t, PT_subscript)) *head = pn_field(t, PF_value), *args = t;
    else if (pn_is(t, PT_generic_type)) {
        *head = pn_first_named(t);
        PN_FOR_NAMED(x, t) if (pn_is(x, PT_type_parameter)) *args = x;
    }
    if (pn_isnull(*head) || pn_isnull(*args)) return NULL;
    return last_component(dotted_raw(L, *head));
}

/* The one class of the elements an annotation names: `list[App]`,
 * `Sequence[App]`, `set[App]`, `typing.List[App]` (NULL otherwise). */
static const char *element_class(lower *L, pn t)
{
    static const char *const seqs[] = {"list", "List", "set", "Set", "frozenset", "FrozenSet", "Sequence",
                                       "MutableSequence", "Iterable", "Collection", "deque", "Deque"};
    pn head = &pt_null, args = &pt_null;
    const char *h = generic_of(L, t, &head, &args);
    if (!h) return NULL;
    int seq = 0;
    for (size_t i = 0; h && i < sizeof(seqs) / sizeof(seqs[0]); i++) seq |= strcmp(h, seqs[i]) == 0;
    /* (`Tuple[App, ...]`: a tuple of any length of one class) */
    int tup = h && (strcmp(h, "tuple") == 0 || strcmp(h, "Tuple") == 0);
    if (!seq && !tup) return NULL;
    pn only = &pt_null;
    int n = 0;
    PN_FOR_NAMED(x, args) {
        if (x == head) continue;
        if (tup && n == 1 && pn_is(x, PT_ellipsis)) continue;
        if (tup && n == 1 && pn_is(x, PT_type) && pn_is(pn_first_named(x), PT_ellipsis)) continue;
        only = x;
        n++;
    }
    const char *one = NULL;
    if (n != 1 || annot_plain(L, only, &one)) return NULL;
    return one;
}

static const char *self_attr_ctor_of(lower *L, pn e, const char *suffix);
static const char *value_class(lower *L, pn t);

/* The one class of a mapping's values an annotation names: `dict[str,
 * Session]`, `Dict[K, Session]`, `Mapping[...]`, `OrderedDict[...]`,
 * `defaultdict[...]` (NULL otherwise). */
static const char *value_class(lower *L, pn t)
{
    static const char *const maps[] = {"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict",
                                       "DefaultDict", "WeakValueDictionary"};
    pn head = &pt_null, args = &pt_null;
    const char *h = generic_of(L, t, &head, &args);
    if (!h) return NULL;
    int map = 0;
    for (size_t i = 0; h && i < sizeof(maps) / sizeof(maps[0]); i++) map |= strcmp(h, maps[i]) == 0;
    if (!map) return NULL;
    pn second = &pt_null;
    int n = 0;
    PN_FOR_NAMED(x, args) {
        if (x == head) continue;
        if (n++ == 1) second = x;
    }
    const char *one = NULL;
    if (n != 2 || annot_plain(L, second, &one)) return NULL;
    return one;
}

/* The one class of what a loop over expression e binds, when e is a
 * container of self the class annotates: `self._conns` (`list[Conn]`),
 * `self._sessions.values()` (`dict[str, Session]`), either copied first,
 * `list(...)`, `tuple(...)`, `sorted(...)`; or NULL. */
static const char *self_container_class(lower *L, pn e)
{
    e = unparen(e);
    if (pn_is(e, PT_call)) {
        pn fn = unparen(pn_field(e, PF_function));
        pn a0 = unparen(first_pos_arg(e, 0));
        if (pn_is(fn, PT_identifier) && !pn_isnull(a0) && pn_isnull(first_pos_arg(e, 1)) &&
            (text_is(L, fn, "list") || text_is(L, fn, "tuple") || text_is(L, fn, "sorted") || text_is(L, fn, "set")))
            e = a0;
    }
    if (pn_is(e, PT_call)) {
        pn fn = unparen(pn_field(e, PF_function));
        if (!pn_is(fn, PT_attribute) || !text_is(L, pn_field(fn, PF_attribute), "values") ||
            !pn_isnull(first_pos_arg(e, 0)))
            return NULL;
        const char *c = self_attr_ctor_of(L, unparen(pn_field(fn, PF_object)), "[v]");
        return c && *c ? c : NULL;
    }
    const char *c = self_attr_ctor_of(L, e, "[*]");
    return c && *c ? c : NULL;
}

/* `apps: list[App] = []` and parameters annotated so: the class of what
 * a loop over them binds (lower_for reads it). */
static void note_element_classes(lower *L, pn def)
{
    pn params = pn_field(def, PF_parameters), body = pn_field(def, PF_body);
    if (!pn_isnull(params))
        PN_FOR_NAMED(p, params) {
            if (pn_is(p, PT_identifier)) continue;
            pn id = param_ident(p);
            const char *c = pn_isnull(id) ? NULL : element_class(L, pn_field(p, PF_type));
            if (c) {
                name_map e = {text(L, id), c, 0, 0};
                CA_VEC_PUSH(L->elem_class, e);
            }
        }
    if (pn_isnull(body)) return;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = body; y < endp && y->start < body->end; y++) {
        if (y->type != PT_assignment) continue;
        pn left = unparen(pn_field(y, PF_left));
        const char *c = pn_is(left, PT_identifier) ? element_class(L, pn_field(y, PF_type)) : NULL;
        /* (`sessions = list(self._active.values())` of `self._active:
         * dict[str, Session]`: a copy of a container of self) */
        if (!c && pn_is(left, PT_identifier) && pn_isnull(pn_field(y, PF_type)))
            c = self_container_class(L, pn_field(y, PF_right));
        if (c) {
            name_map e = {text(L, left), c, 0, 0};
            CA_VEC_PUSH(L->elem_class, e);
        }
        /* (and the one class of the local itself: an annotation declares
         * the variable's type for the whole function) */
        pn ty = pn_field(y, PF_type);
        const char *one = NULL;
        if (pn_is(left, PT_identifier) && !pn_isnull(ty) && !annot_plain(L, ty, &one) && one) {
            name_map e = {text(L, left), one, 0, 0};
            CA_VEC_PUSH(L->local_class, e);
        }
    }
}

/* `{create_task(conn.receive()): conn for conn in self.connections}`: the
 * one class of the elements a comprehension around name r binds it to,
 * when it iterates an attribute of self the class annotates with one
 * (`self._conns: list[Connection]`, a property `-> tuple[Connection,
 * ...]`), or a parameter or local so annotated. */
static const char *comprehension_class(lower *L, pn r)
{
    const char *rn = text(L, r);
    for (pn up = pn_parent(r); !pn_isnull(up) && !pn_is(up, PT_function_definition); up = pn_parent(up)) {
        if (!pn_is(up, PT_list_comprehension) && !pn_is(up, PT_set_comprehension) &&
            !pn_is(up, PT_dictionary_comprehension) && !pn_is(up, PT_generator_expression))
            continue;
        PN_FOR_NAMED(c, up) {
            if (!pn_is(c, PT_for_in_clause)) continue;
            pn lv = unparen(pn_field(c, PF_left)), rt = unparen(pn_field(c, PF_right));
            if (!pn_is(lv, PT_identifier) || strcmp(text(L, lv), rn) != 0) continue;
            if (pn_is(rt, PT_identifier)) return map_get(L->elem_class.v, L->elem_class.n, text(L, rt));
            const char *c2 = self_attr_ctor_of(L, rt, "[*]");
            return c2 && *c2 ? c2 : NULL;
        }
    }
    return NULL;
}

/* The one class of the tree a receiver was made from, for its methods to
 * resolve to that class's: a local made by a constructor (`server =
 * ControlServer(...)`), a parameter annotated with a class (`application:
 * Application`, unless rebound), a loop element of a container so annotated
 * (`for app in apps` of `apps: list[App]`), or an attribute of self that the
 * class assigns from one constructor only (`self.handshake`). NULL when none. */
static const char *receiver_class(lower *L, pn recv)
{
    const char *rc = NULL;
    pn r = unparen(recv);
    if (pn_is(r, PT_identifier)) {
        const char *rn = text(L, r);
        int rv = ir_var_find(L->f, rn);
        unsigned vf = rv >= 0 ? L->f->vars[rv].flags : 0;
        /* (a local annotated with one class, whatever call made it:
         * `backend: Optional[Backend] = self.backends.get(key)`) */
        if (rv >= 0 && !(vf & (VAR_PARAM | VAR_ELEMENT | VAR_EXC)))
            rc = map_get(L->local_class.v, L->local_class.n, rn);
        if (!rc && rv >= 0 && !(vf & (VAR_PARAM | VAR_ELEMENT | VAR_EXC)))
            rc = map_get(L->locals_ctor.v, L->locals_ctor.n, rn);
        else if (rv >= 0 && (vf & VAR_PARAM) && !(vf & VAR_SELF) && !map_get(L->locals_ctor.v, L->locals_ctor.n, rn))
            rc = map_get(L->param_class.v, L->param_class.n, rn);
        if (!rc && rv >= 0 && (vf & VAR_ELEMENT)) rc = map_get(L->elem_class.v, L->elem_class.n, rn);
        if (rc && !*rc) rc = NULL; /* rebound to something unknown */
        if (!rc && rv < 0) rc = comprehension_class(L, r);
    }
    return rc ? rc : self_attr_class(L, recv);
}

/* `conn_map.set(key, conn)` on a module-level name (not a local of this
 * function, or one it declares `global`) that the module binds to a call
 * (`conn_map = ConnMap()`): the dotted of that call, or NULL. */
static const char *global_object_class(lower *L, pn recv)
{
    pn r = unparen(recv);
    if (!pn_is(r, PT_identifier) || !L->f) return NULL;
    const char *rn = text(L, r);
    int rv = ir_var_find(L->f, rn);
    if (rv >= 0 && !declared_outer(L, rn)) return NULL;
    const char *c = map_get(L->globals.v, L->globals.n, rn);
    if (!c || !*c) return NULL;
    /* (a class imported relatively, `from .pool_map import ConnMap`: its
     * module named by this file's directory, so that the one of several
     * `pool_map.ConnMap` meant is found by its path) */
    size_t cl = strlen(c);
    for (size_t i = L->imports.n; i-- > 0;) {
        const name_map *im = &L->imports.v[i];
        size_t vl = strlen(im->value);
        if (!im->relative || strncmp(im->value, c, vl) != 0 || (cl != vl && c[vl] != '.')) continue;
        const char *path = L->m->path ? L->m->path : "";
        const char *end = strrchr(path, '/');
        if (!end) return c;
        for (int up = 1; up < im->relative && end; up++) {
            const char *q = end;
            while (q > path && q[-1] != '/') q--;
            end = q > path ? q - 1 : NULL;
        }
        if (!end) return c;
        ca_sb sb = {0};
        for (const char *q = path; q < end; q++) ca_sb_addf(&sb, "%c", *q == '/' ? '.' : *q);
        ca_sb_addf(&sb, ".%s", c);
        const char *full = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
        ca_sb_release(&sb);
        return full;
    }
    return c;
}

/* The index in its module's funcs of the function being lowered, or -1. */
static int func_index(lower *L)
{
    for (int i = 0; L->f && i < L->m->nfuncs; i++)
        if (L->m->funcs[i] == L->f) return i;
    return -1;
}

/* A test case a test runner collects: `test_*` in a class named for tests
 * (`class SessionTests`, `ProviderTest`, `...TestSuite`), or at module
 * level in a test module (`test_*.py`, `*_test.py`). */
static int test_case(lower *L, const char *name, const char *class_name)
{
    if (strncmp(name, "test_", 5) != 0 && strcmp(name, "test") != 0) return 0;
    if (class_name) {
        const char *dot = strrchr(class_name, '.');
        return strstr(dot ? dot + 1 : class_name, "Test") != NULL;
    }
    const char *path = L->m->path ? L->m->path : "";
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    return strncmp(base, "test_", 5) == 0 || (n > 8 && strcmp(base + n - 8, "_test.py") == 0);
}

/* Is name, here, a module of the file's own package that the file imports
 * (`from . import binding`, `from pkg.sub import mod` in pkg/...), not a
 * local of the function? A spawn of another package's function (a test
 * starting `asyncio.wait_for(...)` as a task) says nothing of how that
 * package runs it: callers elsewhere await it. */
static int imported_module(lower *L, const char *name)
{
    if (L->f && ir_var_find(L->f, name) >= 0) return 0;
    const char *path = L->m->path ? L->m->path : "";
    for (size_t i = 0; i < L->imports.n; i++) {
        const name_map *im = &L->imports.v[i];
        if (strcmp(im->key, name) != 0) continue;
        if (im->relative) return 1;
        /* (the import's top package is a directory the file sits under:
         * `pkg.sub` for `pkg/mod.py`, `/src/pkg/mod.py`, `./pkg/mod.py`) */
        const char *v = im->value ? im->value : "";
        size_t tl = strcspn(v, ".");
        if (tl == 0) return 0;
        for (const char *p = path; *p;) {
            if (strncmp(p, v, tl) == 0 && p[tl] == '/') return 1;
            const char *slash = strchr(p, '/');
            if (!slash) break;
            p = slash + 1;
        }
        return 0;
    }
    return 0;
}

/* The function a spawn starts, for the scan to resolve (ir_spawn): a name
 * (through imports), a method of self, or a function of an imported module. */
static const char *spawn_target(lower *L, pn call, pn a0, unsigned *flp)
{
    pn fn = pn_is(a0, PT_call) ? unparen(pn_field(a0, PF_function)) : a0;
    const char *t = NULL;
    unsigned fl = 0;
    if (pn_is(fn, PT_attribute)) {
        pn r = unparen(pn_field(fn, PF_object));
        /* `create_task(self.events.start())` of an attribute made from one
         * class of the tree (`self.events = events or EventsManager()`):
         * that class's method, run as a task the module holds (not a
         * coroutine run to its end in place, `loop.run_until_complete(
         * self.updater.stop())`, which callers elsewhere also await) */
        call_info sc = call_of(L, call);
        int holds_task = sc.name && strcmp(sc.name, "run_until_complete") != 0 &&
                         !(sc.dotted && cat(L, CAT_MAIN_RUNNER, sc.dotted));
        const char *rc = holds_task && pn_is(r, PT_attribute) ? self_attr_class(L, r) : NULL;
        if (rc) {
            ca_sb q = {0};
            ca_sb_addf(&q, "%s.%s", rc, text(L, pn_field(fn, PF_attribute)));
            t = ca_arena_strdup(&L->m->arena, ca_sb_str(&q));
            ca_sb_release(&q);
        } else if (pn_is(r, PT_identifier) && strcmp(text(L, r), "self") == 0) {
            t = text(L, pn_field(fn, PF_attribute));
            fl = CALL_ON_SELF;
        } else if (pn_is(r, PT_identifier) && imported_module(L, text(L, r))) {
            /* `background_tasks.create(binding.refresh_loop())`: a
             * function of a module the file imports */
            t = dotted(L, fn);
        } else if (holds_task && pn_is(r, PT_identifier) && (rc = receiver_class(L, r)) != NULL) {
            /* `tg.create_task(service.run())` of a parameter annotated
             * with one class of the tree (`service: Service`), an element
             * of one so annotated (`for service in services` of
             * `services: Iterable[Service]`) or a local made here from
             * one class: that class's method, run as a task */
            ca_sb q = {0};
            ca_sb_addf(&q, "%s.%s", rc, text(L, pn_field(fn, PF_attribute)));
            t = ca_arena_strdup(&L->m->arena, ca_sb_str(&q));
            ca_sb_release(&q);
        } else if (holds_task && pn_is(r, PT_identifier) && (rc = global_object_class(L, r)) != NULL) {
            /* `t = create_task(manager.serve())` of a module-level object
             * made from one class (`manager = Manager()`): that class's
             * method, run as a task the module holds */
            ca_sb q = {0};
            ca_sb_addf(&q, "%s.%s", rc, text(L, pn_field(fn, PF_attribute)));
            t = ca_arena_strdup(&L->m->arena, ca_sb_str(&q));
            ca_sb_release(&q);
        } else if (holds_task && pn_is(r, PT_attribute) && !pn_is(pn_parent(call), PT_expression_statement)) {
            /* `tasks = [create_task(app.state.processor.run_queue(q))]`: a
             * method of an object reached through another, whose class is
             * not known here, started as a task the caller keeps (to
             * cancel; one dropped, started and forgotten, says nothing of
             * who else runs the method): named as written, for the scan
             * to find the one coroutine of the tree of that name (as a
             * task's tail) */
            t = norm_text(L, fn, 200);
            fl = SPAWN_TAIL;
        } else {
            return NULL;
        }
    } else if (pn_is(fn, PT_identifier)) {
        t = dotted(L, fn);
    }
    *flp = fl;
    return t;
}

static void note_spawn(lower *L, pn call)
{
    pn a0 = unparen(spawned_arg_src(L, call));
    if (pn_isnull(a0) || !L->f) return;
    unsigned fl = 0;
    const char *t = spawn_target(L, call, a0, &fl);
    int fi = t ? func_index(L) : -1;
    if (fi >= 0) ir_spawn_add(L->m, fi, t, fl);
}

/* `await asyncio.gather(self.fetch_orders(c), self.fetch_fills(c))`: each
 * coroutine runs as a task of gather's, for the scan to resolve as a spawn
 * (SPAWN_GATHER: a base's stub whose implementations another module
 * defines), as the module's own pass does for its own functions. */
static pn bound_once_before(lower *L, pn name, pn at);
static int appended_calls(lower *L, pn name, pn at, pn *out, int max);
static int awaited_elsewhere(lower *L, pn c);

/* The coroutine calls one argument `a` of a child-task runner at `at`
 * hands it (`gather(f(), *calls)`): a call itself; the body of a
 * comprehension; what a local bound once holds (`calls = [f(h) for h in
 * hs]`); or, *appended set, the calls appended to a local bound once to
 * `[]` (`calls.append(f(h))`). Up to max into out; returns how many. */
static int gather_children(lower *L, pn a, pn at, pn *out, int max, int *appended)
{
    pn c = unparen(a);
    *appended = 0;
    if (pn_is(c, PT_list_splat)) c = unparen(pn_first_named(c));
    if (pn_is(c, PT_identifier) && pn_is(unparen(a), PT_list_splat)) {
        int na = appended_calls(L, c, at, out, max);
        if (na > 0) {
            *appended = 1;
            return na;
        }
        c = bound_once_before(L, c, at);
    }
    if (pn_is(c, PT_list_comprehension) || pn_is(c, PT_generator_expression)) c = unparen(pn_field(c, PF_body));
    if (!pn_is(c, PT_call) || max < 1) return 0;
    out[0] = c;
    return 1;
}

/* Marks CALL_GATHERED on the call node at site [start, end) of a block
 * (nested ones too): a child a gather awaited in place runs. */
typedef struct gathered_q {
    uint32_t start, end;
} gathered_q;

static int mark_gathered(void *ctx, const ir_node *n)
{
    const gathered_q *q = ctx;
    if (n->kind == IR_CALL && n->site.start == q->start && n->site.end == q->end)
        ((ir_node *)n)->flags |= CALL_GATHERED; /* (a node of the function being lowered) */
    return 0;
}

static void note_gathered(lower *L, pn call, ir_block *out)
{
    pn args = pn_field(call, PF_arguments);
    int fi = L->f ? func_index(L) : -1;
    if (fi < 0 || pn_isnull(args) || !pn_is(args, PT_argument_list)) return;
    PN_FOR_NAMED(a, args) {
        if (pn_is(a, PT_keyword_argument)) continue;
        pn kids[8];
        int appended = 0, nk = gather_children(L, a, call, kids, 8, &appended);
        for (int k = 0; k < nk; k++) {
            /* (the gather awaited here, out: its children's calls, lowered
             * before it in this block or an earlier statement of it, `calls
             * = [f(h) for h in hs]`, `calls.append(f(h))` in a loop, or at
             * the top of the function, run while this function waits) */
            if (out) {
                gathered_q q = {(uint32_t)kids[k]->start, (uint32_t)kids[k]->end};
                ir_visit(out, mark_gathered, &q);
                if (L->f && out != &L->f->body) ir_visit(&L->f->body, mark_gathered, &q);
            }
            unsigned fl = 0;
            const char *t = spawn_target(L, call, kids[k], &fl);
            /* (self's own methods only: a coroutine of an object the
             * function was handed, `gather(runner.run(), feed())`, may be
             * a public method its users await in place) */
            if (t && (fl & CALL_ON_SELF)) ir_spawn_add(L->m, fi, t, fl | SPAWN_GATHER);
        }
    }
}

/* `supervised_task(self._clean(key), name=...)`, not awaited, of a function
 * another module of the package defines: a spawn if that function starts
 * its first parameter as a task (FN_SPAWNS_ARG0), for the scan to decide
 * (SPAWN_VIA). */
static const char *ref_text(lower *L, pn u, unsigned *fl);

static void note_spawn_via(lower *L, pn call)
{
    /* (cheapest first: most calls hand on no call, or name no import) */
    pn a0 = unparen(first_pos_arg(call, 0));
    if (!L->f) return;
    /* (or a method of self handed on uncalled, to a wrapper that calls
     * and starts it: `self._start_task(self._keepalive)`) */
    int ref = pn_is(a0, PT_attribute) && pn_is(unparen(pn_field(a0, PF_object)), PT_identifier) &&
              text_is(L, unparen(pn_field(a0, PF_object)), "self");
    if (!pn_is(a0, PT_call) && !ref) return;
    pn fn = unparen(pn_field(call, PF_function));
    const char *via = NULL;
    if (pn_is(fn, PT_identifier)) {
        const char *n = text(L, fn);
        if (!imported_module(L, n) || defined_here(L, n)) return;
    } else if (pn_is(fn, PT_attribute)) {
        pn r = unparen(pn_field(fn, PF_object));
        /* (or a method of an object of a class of the tree, as a call
         * resolves it: `self._supervisor.create(self._run())` of
         * `self._supervisor = supervisor` typed `TaskSupervisor`, or a
         * parameter so typed, read as "TaskSupervisor.create") */
        if (!pn_is(r, PT_identifier) || !imported_module(L, text(L, r))) {
            unsigned rf = 0;
            via = ref_text(L, fn, &rf);
            /* (a method of self, `self._start_task(...)`, maybe one a base
             * class of another module defines: read as "self.NAME", which
             * the scan resolves as a call on self) */
            if (via && (rf & CALL_ON_SELF)) {
                ca_sb q = {0};
                ca_sb_addf(&q, "self.%s", text(L, pn_field(fn, PF_attribute)));
                via = ca_arena_strdup(&L->m->arena, ca_sb_str(&q));
                ca_sb_release(&q);
            }
            if (!via) return;
        }
    } else {
        return;
    }
    unsigned fl = 0;
    const char *t = spawn_target(L, call, a0, &fl);
    if (!via) via = dotted(L, fn);
    int fi = t && via ? func_index(L) : -1;
    if (fi >= 0) ir_spawn_add_via(L->m, fi, t, fl | SPAWN_VIA, via);
}

/* An ASGI application's signature, `(scope, receive, send)` after self: the
 * server calls it as the outermost frame of a task of its own for each
 * connection and for the lifespan (a method an app hands the three to,
 * `await self.lifespan(scope, receive, send)`, is read the same way). */
static int asgi_signature(lower *L, pn def, int method)
{
    static const char *const want[] = {"scope", "receive", "send"};
    pn params = pn_field(def, PF_parameters);
    if (pn_isnull(params)) return 0;
    int i = method ? -1 : 0;
    PN_FOR_NAMED(p, params) {
        pn id = param_ident(p);
        if (pn_isnull(id) || !pn_is(id, PT_identifier)) return 0;
        if (i >= 0 && (i >= 3 || !text_is(L, id, want[i]))) return 0;
        i++;
    }
    return i == 3;
}

/* What a reference argument hands on: the function itself, or the one a
 * `functools.partial(f, ...)` wraps. */
static pn partial_target(lower *L, pn a)
{
    a = unparen(a);
    if (!pn_is(a, PT_call)) return a;
    call_info pc = call_of(L, a);
    return pc.name && strcmp(pc.name, "partial") == 0 ? unparen(first_pos_arg(a, 0)) : &pt_null;
}

/* The function a reference names, for the scan to resolve (ir_spawn.text
 * and CALL_ON_SELF in *fl): a name (through imports), a method of self, or
 * a method of a local made by a constructor of the tree, of a parameter
 * annotated with a class, or of an attribute of self made by one. NULL when
 * none of those. */
static const char *ref_text(lower *L, pn u, unsigned *fl)
{
    u = unparen(u);
    if (pn_is(u, PT_identifier)) return dotted(L, u);
    if (!pn_is(u, PT_attribute)) return NULL;
    pn r = unparen(pn_field(u, PF_object));
    const char *m = text(L, pn_field(u, PF_attribute));
    int rv = pn_is(r, PT_identifier) ? ir_var_find(L->f, text(L, r)) : -1;
    if (rv >= 0 && (L->f->vars[rv].flags & VAR_SELF)) {
        *fl |= CALL_ON_SELF;
        return m;
    }
    const char *rc = receiver_class(L, r);
    if (!rc) return NULL;
    ca_sb q = {0};
    ca_sb_addf(&q, "%s.%s", rc, m);
    const char *t = ca_arena_strdup(&L->m->arena, ca_sb_str(&q));
    ca_sb_release(&q);
    return t;
}

/* A registration of request handlers with a web framework (catalog
 * route-entry: `web.post("/upload", api.upload)`, `app.router.add_route(
 * "GET", path, self._handle_ws)`): each function handed by reference, for
 * the scan to resolve like a spawn (SPAWN_ENTRY). The framework runs it in
 * a task of its own per request: its outermost frame. */
static void note_entries(lower *L, pn call)
{
    pn args = pn_field(call, PF_arguments);
    int fi = func_index(L);
    if (pn_isnull(args) || !pn_is(args, PT_argument_list) || fi < 0) return;
    PN_FOR_NAMED(a, args) {
        unsigned fl = SPAWN_ENTRY;
        const char *t = ref_text(L, partial_target(L, pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a), &fl);
        if (t) ir_spawn_add(L->m, fi, t, fl);
    }
}

static pn bound_once_before(lower *L, pn name, pn at);

/* A coroutine function of another module whose call is handed, as the
 * call's first argument, to a runner the catalog names (or a method of a
 * class the receiver names), for the scan to resolve (flag):
 * `StreamingResponse(service.stream_events(last_id))` of a scope runner,
 * which iterates the async generator in a task of its own group
 * (SPAWN_SCOPE; also through a local bound once to the call), or
 * `asyncio.run(handle_command(args))` of a main runner, the program's
 * main (SPAWN_MAIN). The module's own are the frontend's
 * (collect_scope_driven, FN_RUNNER_MAIN). */
static void note_handed_call(lower *L, pn call, unsigned flag)
{
    int fi = func_index(L);
    pn a0 = unparen(first_pos_arg(call, 0));
    if (pn_is(a0, PT_identifier) && flag == SPAWN_SCOPE) a0 = bound_once_before(L, a0, call);
    if (fi < 0 || !pn_is(a0, PT_call)) return;
    pn fn = unparen(pn_field(a0, PF_function));
    if (pn_is(fn, PT_identifier) && defined_here(L, text(L, fn))) return;
    unsigned fl = flag;
    const char *t = ref_text(L, fn, &fl);
    /* (or a function of a module of the tree imported whole, `from pkg
     * import app` ... `asyncio.run(app.run(args))`: read as the call's
     * dotted name, `pkg.app.run`, as for a call of it) */
    if (!t && pn_is(fn, PT_attribute)) {
        pn r = unparen(pn_field(fn, PF_object));
        if (pn_is(r, PT_identifier) && imported_module(L, text(L, r))) t = dotted(L, fn);
    }
    if (t && !(fl & CALL_ON_SELF)) ir_spawn_add(L->m, fi, t, fl);
}

/* `loop.add_signal_handler(SIGINT, task.cancel)`, `loop.call_later(t,
 * task.cancel)`: a task's bound cancel handed on as a callback. The
 * function has arranged for that task to be cancelled: from here on an
 * await of it may end in that cancellation, as after `task.cancel()`
 * (first_cancel). */
static void note_deferred_cancels(lower *L, pn call)
{
    pn args = pn_field(call, PF_arguments);
    if (pn_isnull(args) || !pn_is(args, PT_argument_list) || !L->f) return;
    PN_FOR_NAMED(a, args) {
        pn u = unparen(pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
        if (!pn_is(u, PT_attribute) || !text_is(L, pn_field(u, PF_attribute), "cancel")) continue;
        pn r = unparen(pn_field(u, PF_object));
        int v = pn_is(r, PT_identifier) ? ir_var_find(L->f, text(L, r)) : -1;
        if (v >= 0 && L->f->vars[v].first_cancel == UINT32_MAX) L->f->vars[v].first_cancel = call->start;
    }
}

static int exclusive_branches(pn a, pn b);
static int binds_name(lower *L, pn x, const char *name);

/* Walking a function's nodes in order (from its def on): is x a def,
 * lambda or class nested in it, or inside one met before (the furthest end
 * kept in *nested_end)? */
static int in_nested_def(pn x, uint32_t *nested_end)
{
    if (x->type == PT_function_definition || x->type == PT_lambda || x->type == PT_class_definition) {
        if (x->end > *nested_end) *nested_end = x->end;
        return 1;
    }
    return x->start < *nested_end;
}

/* `reconciler = K8sReconciler(...)` in one clause of an if chain,
 * `reconciler = LocalReconciler(...)` in another, then `await
 * reconciler.run()`: the object is one or the other, so the method run is
 * each class's (`Class.m` for each binding, at most four). Every binding
 * of the name in the function must be such a call, each in a clause of its
 * own. The count written to out. */
static int alternative_methods(lower *L, pn call, pn r, const char *m, const char *out[4])
{
    pn def = pn_parent(call);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    if (pn_isnull(def) || !pn_is(r, PT_identifier)) return 0;
    const char *rn = text(L, r);
    const pt_node *endp = L->T->v + L->T->n;
    pn binds[4];
    int n = 0;
    uint32_t nested_end = 0;
    for (pn x = def + 1; x < endp && x->start < def->end; x++) {
        if (in_nested_def(x, &nested_end) || !binds_name(L, x, rn)) continue;
        /* (only `name = Cls(...)`) */
        pn up = pn_parent(x);
        if (!pn_is(up, PT_assignment) || pn_field(up, PF_left) != x || n == 4) return 0;
        if (!pn_is(unparen(pn_field(up, PF_right)), PT_call)) return 0;
        binds[n++] = up;
    }
    if (n < 2) return 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (!exclusive_branches(binds[i], binds[j])) return 0;
    for (int i = 0; i < n; i++) {
        char *d = dotted(L, pn_field(unparen(pn_field(binds[i], PF_right)), PF_function));
        if (!d) return 0;
        ca_sb q = {0};
        ca_sb_addf(&q, "%s.%s", d, m);
        out[i] = ca_arena_strdup(&L->m->arena, ca_sb_str(&q));
        ca_sb_release(&q);
    }
    return n;
}

/* Is r a local the function binds more than once (two entries of its name
 * in locals_ctor)? Only such a name can have been made by several classes. */
static int rebound_local(lower *L, pn r)
{
    if (!pn_is(r, PT_identifier)) return 0;
    const char *rn = text(L, r);
    int n = 0;
    for (size_t i = 0; i < L->locals_ctor.n && n < 2; i++) n += strcmp(L->locals_ctor.v[i].key, rn) == 0;
    return n >= 2;
}

/* An awaited call, outside any loop, of a task of the module's own
 * (FN_OWN_TASK), or an async generator's call iterated there (`async for
 * msg in client.listen():`): when its callee is a coroutine of another
 * module that its own module never awaits, the callee runs as that task's
 * last frames (`await worker.run(params)` in the runner's `_run_worker`
 * task), for the scan to resolve (SPAWN_TAIL). */
static void note_tail(lower *L, pn call)
{
    int fi = func_index(L);
    if (fi < 0) return;
    unsigned fl = SPAWN_TAIL;
    pn fn = unparen(pn_field(call, PF_function));
    const char *t = ref_text(L, fn, &fl);
    /* `await self.server.handle_request(...)`, of an object self holds
     * whose class is not known here: named as written, for the scan to
     * find the one coroutine of the tree of that name */
    if (!t && pn_is(fn, PT_attribute)) {
        pn r = unparen(pn_field(fn, PF_object));
        pn o = pn_is(r, PT_attribute) ? unparen(pn_field(r, PF_object)) : &pt_null;
        if (pn_is(o, PT_identifier) && text_is(L, o, "self")) t = norm_text(L, fn, 200);
    }
    /* (a method of self is its own module's: the rule reads those) */
    if (t && !(fl & CALL_ON_SELF)) ir_spawn_add(L->m, fi, t, fl);
    /* (the object made by one of several classes, in exclusive clauses:
     * each class's method; the last binding's is above already) */
    if (pn_is(fn, PT_attribute) && !(fl & CALL_ON_SELF) && rebound_local(L, unparen(pn_field(fn, PF_object)))) {
        const char *alt[4];
        int na = alternative_methods(L, call, unparen(pn_field(fn, PF_object)), text(L, pn_field(fn, PF_attribute)), alt);
        for (int i = 0; i < na; i++)
            if (!t || strcmp(alt[i], t) != 0) ir_spawn_add(L->m, fi, alt[i], SPAWN_TAIL);
    }
}

static int creates_file_at(lower *L, pn c, const char *name);

/* Do a and b (a before b) sit in different clauses of one if/elif/else
 * chain, so that no path runs both? */
static int exclusive_branches(pn a, pn b)
{
    for (pn up = pn_parent(a), child = a; !pn_isnull(up); child = up, up = pn_parent(up)) {
        if (up->start > b->start || up->end < b->end) continue; /* (not yet around b) */
        if (!pn_is(up, PT_if_statement)) return 0;
        /* the clause of up holding b */
        pn cb = b;
        while (!pn_isnull(cb) && pn_parent(cb) != up) cb = pn_parent(cb);
        return !pn_isnull(cb) && cb != child && cb != pn_field(up, PF_condition) &&
               child != pn_field(up, PF_condition);
    }
    return 0;
}

/* Does call c's argument name a catalogued resource of this function
 * (`stack.enter_async_context(Framed(config, sock))` of `sock = await
 * connect_tcp(...)`)? The context's enter then works on what the function
 * still owns, and a cancellation inside it may leave that behind. */
static int hands_in_resource(lower *L, pn c)
{
    pn args = pn_field(c, PF_arguments);
    if (pn_isnull(args)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = args; x < endp && x->start < args->end; x++) {
        if (x->type != PT_identifier) continue;
        int v = ir_var_find(L->f, text(L, x));
        for (size_t k = 0; v >= 0 && k < L->strong.n; k++)
            if (L->strong.v[k] == v) return 1;
    }
    return 0;
}

/* Is call the first, in its function's text, that hands something to the
 * exit stack named `stack` (`stack.enter_async_context(...)`,
 * `stack.push_async_callback(...)`), with no loop around it? */
static int first_adopt(lower *L, pn call, const char *stack)
{
    pn body = enclosing_body(call);
    if (pn_isnull(body)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = body; x < endp && x->start < call->start; x++) {
        if (x->type != PT_call) continue;
        pn f = unparen(pn_field(x, PF_function));
        if (!pn_is(f, PT_attribute)) continue;
        pn o = unparen(pn_field(f, PF_object));
        if (pn_is(o, PT_identifier) && text_is(L, o, stack) &&
            cat(L, CAT_EXIT_STACK_ADOPT, text(L, pn_field(f, PF_attribute))) && !exclusive_branches(x, call))
            return 0;
    }
    return 1;
}

/* Is name assigned (or a parameter) in def d, not a free variable of it? */
static int binds_locally(lower *L, pn d, const char *name)
{
    PN_FOR_NAMED(prm, pn_field(d, PF_parameters)) {
        pn id = param_ident(prm);
        if (!pn_isnull(id) && text_is(L, id, name)) return 1;
    }
    pn body = pn_field(d, PF_body);
    const pt_node *endp = L->T->v + L->T->n;
    int binds = 0;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        /* (`nonlocal name`: its bindings are the enclosing function's) */
        if (x->type == PT_nonlocal_statement) {
            PN_FOR_NAMED(id, x) if (pn_is(id, PT_identifier) && text_is(L, id, name)) return 0;
        }
        if (x->type != PT_assignment && x->type != PT_for_statement) continue;
        pn left = unparen(pn_field(x, PF_left));
        if (pn_is(left, PT_identifier) && text_is(L, left, name)) binds = 1;
    }
    return binds;
}

/* The tuple or list written in place that the `for` around x (a call in
 * nested def d) binding name iterates (`for writer in (a[1], b[1]):
 * writer.close()`); null when x is in no such loop. */
static pn literal_loop_over(lower *L, pn d, pn x, const char *name)
{
    for (pn up = pn_parent(x); !pn_isnull(up) && up != d; up = pn_parent(up)) {
        if (!pn_is(up, PT_for_statement)) continue;
        pn left = unparen(pn_field(up, PF_left));
        if (!pn_is(left, PT_identifier) || !text_is(L, left, name)) continue;
        pn right = unparen(pn_field(up, PF_right));
        return pn_is(right, PT_tuple) || pn_is(right, PT_list) ? right : &pt_null;
    }
    return &pt_null;
}

/* `stop()` of a function nested in this one (`async def stop(): t.cancel();
 * await t`), its body cancelling or closing a value of this function it
 * names freely: the call releases that value here, as the same statements
 * written inline would (`finally: await stop()`). */
static void closure_releases(lower *L, ir_block *out, pn call, const char *callee, int_vec *deferred)
{
    pn def = pn_parent(call);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    if (pn_isnull(def)) return;
    if (L->closures_of != def) {
        L->closures_of = def;
        L->closures.n = 0;
        pn body = pn_field(def, PF_body);
        const pt_node *endp = L->T->v + L->T->n;
        for (pn x = body; x < endp && x->start < body->end; x++) {
            if (x->type != PT_function_definition) continue;
            pn up = pn_parent(x);
            while (!pn_isnull(up) && !pn_is(up, PT_function_definition)) up = pn_parent(up);
            if (up == def) CA_VEC_PUSH(L->closures, x);
        }
    }
    pn nested = &pt_null;
    for (size_t i = 0; i < L->closures.n; i++)
        if (text_is(L, pn_field(L->closures.v[i], PF_name), callee)) nested = L->closures.v[i];
    if (pn_isnull(nested)) return;
    pn body = pn_field(nested, PF_body);
    pn args = pn_parent(call);
    int scoped = pn_is(args, PT_argument_list) && spawned_in_scope(L, pn_parent(args));
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type != PT_call) continue;
        pn f = unparen(pn_field(x, PF_function));
        if (!pn_is(f, PT_attribute)) continue;
        const char *m = text(L, pn_field(f, PF_attribute));
        pn o = unparen(pn_field(f, PF_object));
        if (!pn_is(o, PT_identifier) || (strcmp(m, "cancel") != 0 && !cat(L, CAT_RELEASE_METHOD, m))) continue;
        const char *name = text(L, o);
        /* (scoped: not where the call makes a task that a group may cancel
         * before it gets there, spawn_closure's case) */
        if (scoped && !sure_release_in(L, x, body)) continue;
        if (binds_locally(L, nested, name)) {
            /* `for writer in (a[1], b[1]): writer.close()`: a loop over a
             * tuple written in place releases the values it names, parts of
             * the enclosing function's (`a`, `b`) */
            pn lit = literal_loop_over(L, nested, x, name);
            if (pn_isnull(lit)) continue;
            PN_FOR_NAMED(el, lit) {
                pn r = unparen(el);
                while (pn_is(r, PT_subscript)) r = unparen(pn_field(r, PF_value));
                if (!pn_is(r, PT_identifier) || binds_locally(L, nested, text(L, r))) continue;
                int ev = var_of(L, r);
                if (ev >= 0 && !(L->f->vars[ev].flags & VAR_SELF)) emit_release(L, out, call, ev, 0, deferred);
            }
            continue;
        }
        int v = var_of(L, o);
        if (v < 0) continue;
        emit_release(L, out, call, v, 0, deferred);
    }
}


/* Is the expression evaluated only on some paths through its statement: an
 * operand of `and` / `or` past the first, a branch of `x if c else y`, or
 * inside a lambda or comprehension? */
static int conditionally_evaluated(pn e)
{
    for (pn c = e, p = pn_parent(e); !pn_isnull(p); c = p, p = pn_parent(p)) {
        if (pn_is(p, PT_boolean_operator) && pn_field(p, PF_left) != c) return 1;
        if (pn_is(p, PT_conditional_expression) && pn_first_named(p) != c) return 1;
        if (pn_is(p, PT_lambda) || pn_is(p, PT_list_comprehension) || pn_is(p, PT_set_comprehension) ||
            pn_is(p, PT_generator_expression))
            return 1;
        if (pn_is(p, PT_expression_statement) || pn_is(p, PT_block) || pn_is(p, PT_function_definition)) return 0;
    }
    return 0;
}


/* Is local v, at call, a coroutine object: every binding of it in the
 * function before the call is a call, not awaited, of a coroutine function
 * of this module (`coro = self._process_query(q)`, each def of that name
 * an `async def`)? */
static int coroutine_var(lower *L, pn call, int v)
{
    pn def = pn_parent(call);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    if (pn_isnull(def)) return 0;
    const char *vn = L->f->vars[v].name;
    const pt_node *endp = L->T->v + L->T->n;
    int bound = 0;
    for (pn y = def + 1; y < endp && y->start < call->start; y++) {
        if (y->type != PT_assignment) continue;
        pn left = unparen(pn_field(y, PF_left));
        if (!pn_is(left, PT_identifier) || strcmp(text(L, left), vn) != 0) continue;
        pn r = unparen(pn_field(y, PF_right));
        if (!pn_is(r, PT_call)) return 0;
        const char *name = call_of(L, r).name;
        if (!name) return 0;
        int found = 0;
        for (pn d = L->T->v; d < endp; d++) {
            if (d->type != PT_function_definition || strcmp(text(L, pn_field(d, PF_name)), name) != 0) continue;
            if (!has_token(d, PT_async)) return 0;
            found = 1;
        }
        if (!found) return 0;
        bound = 1;
    }
    return bound;
}

static int held_for_await(lower *L, pn x);
static int uncancelled_start(lower *L, pn x);

/* Is n the attribute `self.NAME`, NAME being name? */
static int is_self_attr_named(lower *L, pn n, const char *name)
{
    if (!pn_is(n, PT_attribute)) return 0;
    pn o = unparen(pn_field(n, PF_object));
    return pn_is(o, PT_identifier) && strcmp(text(L, o), "self") == 0 &&
           strcmp(text(L, pn_field(n, PF_attribute)), name) == 0;
}

/* The local that holds what `self.NAME` (attr) holds at `at`: bound by
 * `local = self.NAME` before at in the function around it, with neither
 * the local nor `self.NAME` bound again between; -1 when there is none. */
static int alias_of_self_attr(lower *L, pn attr, pn at)
{
    const char *an = text(L, pn_field(attr, PF_attribute));
    if (!is_self_attr_named(L, attr, an)) return -1;
    pn d = pn_parent(at);
    while (!pn_isnull(d) && !pn_is(d, PT_function_definition)) d = pn_parent(d);
    pn body = pn_isnull(d) ? d : pn_field(d, PF_body);
    if (pn_isnull(body)) return -1;
    const pt_node *endp = L->T->v + L->T->n;
    const char *cand = NULL;
    for (pn u = body; u < endp && u->start < at->start; u++) {
        if (!pn_is(u, PT_assignment) && !pn_is(u, PT_augmented_assignment)) continue;
        pn l = unparen(pn_field(u, PF_left)), r = unparen(pn_field(u, PF_right));
        if (is_self_attr_named(L, l, an)) {
            cand = NULL;
            continue;
        }
        if (!pn_is(l, PT_identifier)) continue;
        const char *ln = text(L, l);
        if (pn_is(u, PT_assignment) && is_self_attr_named(L, r, an)) cand = ln;
        else if (cand && strcmp(cand, ln) == 0) cand = NULL;
    }
    return cand ? ir_var_find(L->f, cand) : -1;
}

/* Is c a two-operand comparison whose operator is op ("in", "not in")?
 * The operator is the text between the operands, spaces folded. */
static int comparison_is(lower *L, pn c, const char *op)
{
    pn a = pn_first_named(c), b = pn_named_child(c, 1);
    if (pn_isnull(a) || pn_isnull(b) || b->start < a->end) return 0;
    const char *p = L->src + a->end, *e = L->src + b->start;
    while (p < e && isspace((unsigned char)*p)) p++;
    while (e > p && isspace((unsigned char)e[-1])) e--;
    for (const char *o = op; *o; o++) {
        if (*o == ' ') {
            if (p >= e || !isspace((unsigned char)*p)) return 0;
            while (p < e && isspace((unsigned char)*p)) p++;
            continue;
        }
        if (p >= e || *p != *o) return 0;
        p++;
    }
    return p == e;
}

static void on_call(lower *L, ir_block *out, pn call, int awaited, int shielded, int_vec *deferred)
{
    call_info ci = call_of(L, call);
    {
        pn fn = unparen(pn_field(call, PF_function));
        if (pn_is(fn, PT_identifier) && L->f && ir_var_find(L->f, text(L, fn)) < 0)
            closure_releases(L, out, call, text(L, fn), deferred);
    }
    for (size_t k = 0; k < L->unmade_paths.n; k++) {
        const char *pname = L->unmade_paths.v[k].key;
        if (!creates_file_at(L, call, pname)) continue;
        int pv = ir_var_find(L->f, pname);
        if (pv < 0) continue;
        ir_node *n = emit(L, out, IR_ACQUIRE, call, pv);
        n->ref = L->unmade_makers.v[k];
        n->flags = ACQ_WEAK;
        n->rkind = "resource";
        n->var2 = -1;
        /* (made once: a second write to it is the same file) */
        L->unmade_paths.v[k] = L->unmade_paths.v[--L->unmade_paths.n];
        L->unmade_makers.v[k] = L->unmade_makers.v[--L->unmade_makers.n];
        break;
    }
    /* `fut.set_result(value)`, `fut.set_exception(exc)`: the future is done
     * from here on, whether the call succeeds or raises InvalidStateError
     * because it was already (cancelled): nothing is left to release; no
     * evidence that it is a resource either */
    if (!awaited && ci.name && (strcmp(ci.name, "set_result") == 0 || strcmp(ci.name, "set_exception") == 0) &&
        pn_is(unparen(ci.recv), PT_identifier)) {
        int fv = var_of(L, unparen(ci.recv));
        if (fv >= 0) emit(L, out, IR_DONE, call, fv);
    }
    /* `except CancelledError: t.add_done_callback(cleanup)`, where cleanup
     * is a function defined here whose body releases (`delete_sandbox(
     * task.result().id)`): the callback owns what t makes when it ends */
    if (!awaited && L->in_cancel_handler && ci.name && strcmp(ci.name, "add_done_callback") == 0 &&
        pn_is(unparen(ci.recv), PT_identifier)) {
        pn cb = unparen(first_pos_arg(call, 0));
        if (pn_is(cb, PT_identifier) && !pn_isnull(local_def(L, text(L, cb))) && teardown_body(L, text(L, cb))) {
            int tv = var_of(L, unparen(ci.recv));
            if (tv >= 0) emit_release(L, out, call, tv, 0, NULL);
        }
    }
    /* `yield t.result()`: a future's result (or exception) returns only
     * once it is done (asyncio raises InvalidStateError before, a
     * concurrent future waits): on the path on from a normal return, the
     * task has finished */
    if (!awaited && ci.name && (strcmp(ci.name, "result") == 0 || strcmp(ci.name, "exception") == 0) &&
        pn_is(unparen(ci.recv), PT_identifier) && !conditionally_evaluated(call)) {
        int fv = var_of(L, unparen(ci.recv));
        if (fv >= 0) emit(L, out, IR_DONE, call, fv);
    }
    if (ci.name && spawns_task(L, &ci, NULL, 0)) {
        spawn_closure(L, out, call);
        spawn_args(L, out, call);
        note_spawn(L, call);
        /* `coro = self._process(q)` ... `self.tasks.create_task(coro, ...)`:
         * a coroutine object handed to a spawner is the task's to run */
        pn a0 = unparen(first_pos_arg(call, 0));
        if (pn_is(a0, PT_identifier)) {
            int cv = var_of(L, a0);
            if (cv >= 0 && !(L->f->vars[cv].flags & (VAR_SELF | VAR_PARAM)) && coroutine_var(L, call, cv))
                emit(L, out, IR_TRANSFER, call, cv);
        }
    } else if (!awaited && ci.name) {
        note_spawn_via(L, call);
    }
    if (ci.dotted && cat(L, CAT_CHILD_TASKS, ci.dotted)) note_gathered(L, call, awaited ? out : NULL);
    if (ci.dotted && cat(L, CAT_ROUTE_ENTRY, ci.dotted)) note_entries(L, call);
    if (ci.dotted && cat(L, CAT_SCOPE_RUNNER, ci.dotted)) note_handed_call(L, call, SPAWN_SCOPE);
    if (ci.dotted && cat(L, CAT_MAIN_RUNNER, ci.dotted)) note_handed_call(L, call, SPAWN_MAIN);
    note_deferred_cancels(L, call);
    if (awaited && L->f && (L->f->fflags & FN_OWN_TASK) && L->loop_depth == 0) note_tail(L, call);
    ci.awaited = awaited;
    unsigned relf = (shielded ? REL_SHIELDED : 0) | (ci.awaited ? REL_AWAITED : 0);
    pn args = pn_field(call, PF_arguments);
    int handled = 0;

    /* `task = self._task` ... `self._task.cancel()`: the local names the
     * task cancelled, as after `task.cancel()` */
    if (ci.name && strcmp(ci.name, "cancel") == 0 && L->f && pn_is(unparen(ci.recv), PT_attribute)) {
        int tv = alias_of_self_attr(L, unparen(ci.recv), call);
        if (tv >= 0 && L->f->vars[tv].first_cancel == UINT32_MAX) L->f->vars[tv].first_cancel = call->start;
    }

    /* `cancel_task_safe(task=t)`, `await cancel_and_wait(t)`: a helper that
     * cancels the task it is handed (catalog cancel-helper); an await of t
     * after it is of a task the function cancelled (the `t.cancel(); await
     * t` idiom, through a helper) */
    /* (also a method of a cancellation token the task is linked to,
     * `cancellation_token.link_future(task)`: the token cancels it) */
    const char *recv_last = !pn_isnull(ci.recv) ? last_component(norm_text(L, unparen(ci.recv), 200)) : NULL;
    if (ci.name && strcmp(ci.name, "cancel") != 0 &&
        (cat(L, CAT_CANCEL_HELPER, ci.name) || (recv_last && cat(L, CAT_CANCEL_HELPER, recv_last))) &&
        !pn_isnull(args))
        PN_FOR_NAMED(a, args) {
            pn av = unparen(pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
            int tv = pn_is(av, PT_identifier) ? var_of(L, av) : -1;
            if (tv >= 0 && L->f->vars[tv].first_cancel == UINT32_MAX) L->f->vars[tv].first_cancel = call->start;
        }

    /* `self._finished()`, a method of the class that cancels `self._task`:
     * an await of self._task after it is of a task the function cancelled */
    if (ci.name && !pn_isnull(ci.recv) && L->class_name && pn_is(unparen(ci.recv), PT_identifier) &&
        strcmp(text(L, unparen(ci.recv)), "self") == 0) {
        ca_sb mk = {0};
        ca_sb_addf(&mk, "%s.%s", L->class_name, ci.name);
        for (size_t i = 0; i < L->cancelling_methods.n; i++) {
            if (strcmp(L->cancelling_methods.v[i].key, ca_sb_str(&mk)) != 0) continue;
            const char *what = L->cancelling_methods.v[i].value;
            if (strcmp(what, "<return>") == 0) {
                /* `task = self._cancel()`, `if task := self.cancel():` */
                pn up = pn_parent(call), tgt = &pt_null;
                if (pn_is(up, PT_assignment) && unparen(pn_field(up, PF_right)) == call)
                    tgt = unparen(pn_field(up, PF_left));
                else if (pn_is(up, PT_named_expression) && unparen(pn_field(up, PF_value)) == call)
                    tgt = unparen(pn_field(up, PF_name));
                if (!pn_is(tgt, PT_identifier)) continue;
                what = norm_text(L, tgt, 200);
            }
            name_map e = {what, "", 0, 0};
            CA_VEC_PUSH(L->cancelled, e);
        }
        ca_sb_release(&mk);
    }
    /* `indicator.cancel()` on an object of a class of this module whose
     * method cancels `self._task`: `indicator._task` is cancelled, and an
     * await of it is of a task the function cancelled */
    if (ci.name && !pn_isnull(ci.recv) && L->cancelling_methods.n && pn_is(unparen(ci.recv), PT_identifier) &&
        strcmp(text(L, unparen(ci.recv)), "self") != 0) {
        const char *rc = receiver_class(L, ci.recv);
        if (rc) {
            ca_sb mk = {0};
            ca_sb_addf(&mk, "%s.%s", last_component(rc), ci.name);
            for (size_t i = 0; i < L->cancelling_methods.n; i++) {
                const char *what = L->cancelling_methods.v[i].value;
                if (strcmp(L->cancelling_methods.v[i].key, ca_sb_str(&mk)) != 0 || strncmp(what, "self.", 5) != 0)
                    continue;
                ca_sb w = {0};
                ca_sb_addf(&w, "%s.%s", text(L, unparen(ci.recv)), what + 5);
                name_map e = {ca_arena_strdup(&L->m->arena, ca_sb_str(&w)), "", 0, 0};
                CA_VEC_PUSH(L->cancelled, e);
                ca_sb_release(&w);
            }
            ca_sb_release(&mk);
        }
    }
    if (ci.name && !pn_isnull(ci.recv) && strcmp(ci.name, "cancel") == 0) {
        name_map e = {norm_text(L, ci.recv, 200), "", 0, 0};
        CA_VEC_PUSH(L->cancelled, e);
        /* `for t in tasks: t.cancel()`, `[t.cancel() for t in tasks]`: every
         * element of tasks is cancelled */
        pn rcv = unparen(ci.recv);
        for (pn up = pn_parent(call); pn_is(rcv, PT_identifier) && !pn_isnull(up) && !pn_is(up, PT_function_definition);
             up = pn_parent(up)) {
            pn loop = up;
            if (pn_is(up, PT_list_comprehension) || pn_is(up, PT_set_comprehension) ||
                pn_is(up, PT_generator_expression)) {
                /* (the call is the comprehension's element, made once for
                 * each element of its one loop) */
                if (unparen(pn_field(up, PF_body)) != call) break;
                loop = sole_for_clause(up);
                if (pn_isnull(loop)) break;
            } else if (!pn_is(up, PT_for_statement)) {
                continue;
            }
            pn lv = unparen(pn_field(loop, PF_left)), rv = unparen(pn_field(loop, PF_right));
            if (pn_is(lv, PT_identifier) && strcmp(text(L, lv), text(L, rcv)) == 0 &&
                (pn_is(rv, PT_identifier) || pn_is(rv, PT_attribute))) {
                name_map c = {norm_text(L, rv, 200), "", 0, 0};
                CA_VEC_PUSH(L->cancelled, c);
                if (pn_is(rv, PT_identifier)) waited_members_cancelled(L, loop, text(L, rv));
            }
            break;
        }
        /* `if sender in pending: sender.cancel()` after `_, pending = await
         * asyncio.wait(...)`: the container holds the task just cancelled
         * (a gather of it raises what the cancelled ones end with) */
        pn up = pn_parent(call);
        while (!pn_isnull(up) && !pn_is(up, PT_if_statement) && !pn_is(up, PT_function_definition)) up = pn_parent(up);
        pn cond = pn_is(up, PT_if_statement) ? unparen(pn_field(up, PF_condition)) : &pt_null;
        if (pn_is(rcv, PT_identifier) && pn_is(cond, PT_comparison_operator) && pn_named_count(cond) == 2) {
            pn lhs = unparen(pn_named_child(cond, 0)), rhs = unparen(pn_named_child(cond, 1));
            /* (the operator between them is `in`, not `not in`) */
            int is_in = comparison_is(L, cond, "in");
            if (is_in && pn_is(lhs, PT_identifier) && strcmp(text(L, lhs), text(L, rcv)) == 0 &&
                (pn_is(rhs, PT_identifier) || pn_is(rhs, PT_attribute))) {
                name_map c = {norm_text(L, rhs, 200), "", 0, 0};
                CA_VEC_PUSH(L->cancelled, c);
            }
        }
    }
    /* `t.cancel(); cancelled.append(t)`: the container holds cancelled tasks */
    if (ci.name && !pn_isnull(ci.recv) && cat(L, CAT_REGISTER_METHOD, ci.name) &&
        pn_is(unparen(ci.recv), PT_identifier)) {
        pn a0 = unparen(first_pos_arg(call, 0));
        if (!pn_isnull(a0) && map_get(L->cancelled.v, L->cancelled.n, norm_text(L, a0, 200))) {
            name_map c = {norm_text(L, ci.recv, 200), "", 0, 0};
            CA_VEC_PUSH(L->cancelled, c);
        }
    }
    /* v.close(), entry.ws.close(), t.cancel() */
    if (ci.name && !pn_isnull(ci.recv) &&
        names_release(L, ci.name)) {
        int rv = root_var(L, ci.recv);
        /* (a name that only contains a release word releases what it is
         * handed: `self._api.delete_sandbox(self._id)` in a method that
         * says it releases (kill, close, __aexit__) releases what self
         * holds; `self.mgr.store.delete_record(rec.name())`, or a call in
         * some other method, deletes something else) */
        int of_self = cat(L, CAT_RELEASE_METHOD, ci.name) ||
                      (releases_self_arg(L, call) && L->f->name && names_release(L, L->f->name));
        /* (an element of what self holds, released in a loop: self owns it) */
        if (rv >= 0 && (L->f->vars[rv].flags & VAR_OF_SELF) && of_self) L->f->fflags |= FN_RELEASES_SELF;
        if (rv >= 0 && (L->f->vars[rv].flags & VAR_SELF) && !pn_is(unparen(ci.recv), PT_identifier) && of_self) {
            /* self._ws.close(): the object holds something; when the class
             * says what made self._ws, it holds what that holds */
            const char *ctor = self_attr_ctor(L, ci.recv);
            ir_class *cls = ctor ? current_class(L) : NULL;
            if (cls) ir_class_hold(L->m, cls, ctor);
            else L->f->fflags |= FN_RELEASES_SELF;
        }
        /* `except CancelledError: await self.kill(); raise`: cancelled in
         * this method, the object releases itself */
        if (rv >= 0 && (L->f->vars[rv].flags & VAR_SELF) && L->in_cancel_handler)
            L->f->fflags |= FN_CANCEL_RELEASES_SELF;
        /* (`api.delete_sandbox(box.id)`, `conn.close_cursor(cur)`: a name
         * that only contains a release word, handed a value of this
         * function's, releases that value, not the receiver; the call is
         * recorded with its arguments below) */
        int arg_released = 0;
        /* (on a service the function is handed or reaches, a parameter or
         * a module's client: not on an object the function built itself,
         * whose own session `transport.terminate_session(client)` ends) */
        int recv_built = rv >= 0 && !(L->f->vars[rv].flags & (VAR_PARAM | VAR_SELF | VAR_OF_SELF));
        /* (`client.delete(KEY)`, `pool.release(conn)`: a release the
         * catalog calls keyed, handed what it acts on, deletes a key of the
         * receiver or gives a value back to it; the receiver stays as it
         * was) */
        int keyed = cat(L, CAT_KEYED_RELEASE, ci.name) != NULL;
        /* (not a reason or a code, `peer.disconnect("bad response")`,
         * `ws.close(1000)`: what the receiver ends itself with) */
        pn ka = unparen(first_pos_arg(call, 0));
        keyed = keyed && !pn_isnull(ka) && !pn_is(ka, PT_string) && !pn_is(ka, PT_concatenated_string) &&
                !pn_is(ka, PT_integer) && !pn_is(ka, PT_float) && !pn_is(ka, PT_true) && !pn_is(ka, PT_false) &&
                !pn_is(ka, PT_none);
        if (!cat(L, CAT_RELEASE_METHOD, ci.name) && !pn_isnull(args) && pn_is(args, PT_argument_list) &&
            !recv_built) {
            int_vec av = {0};
            ref_vars(L, args, &av);
            for (size_t k = 0; k < av.n && !arg_released; k++)
                arg_released = av.v[k] >= 0 && av.v[k] != rv &&
                               !(L->f->vars[av.v[k]].flags & (VAR_SELF | VAR_PARAM | VAR_OF_SELF));
            CA_VEC_FREE(av);
        }
        /* (a keyed delete is no release of the receiver, nor of the key,
         * a name of what the receiver holds) */
        if (keyed && rv >= 0 && !(L->f->vars[rv].flags & VAR_SELF)) handled = 1;
        if (rv >= 0 && !(L->f->vars[rv].flags & VAR_SELF) && !arg_released && !keyed) {
            int target = rv;
            pn r = unparen(ci.recv);
            unsigned part = 0;
            if (pn_is(r, PT_attribute) && pn_is(unparen(pn_field(r, PF_object)), PT_identifier)) {
                int mv = member_by_attr(L, out, rv, text(L, pn_field(r, PF_attribute)));
                if (mv >= 0) target = mv;
                else part = REL_PART;
            } else if (!pn_is(r, PT_identifier)) {
                part = REL_PART;
            }
            relf |= part;
            if (strcmp(ci.name, "cancel") == 0 && L->f->vars[target].first_cancel == UINT32_MAX)
                L->f->vars[target].first_cancel = call->start;
            emit_release(L, out, call, target, relf, ci.awaited ? deferred : NULL);
            handled = 1;
            /* `cm.__aexit__(type(e), e, tb)`: what it is handed (the
             * exception a handler caught) is recorded too, value only */
            if ((strcmp(ci.name, "__aexit__") == 0 || strcmp(ci.name, "__exit__") == 0) && !pn_isnull(args)) {
                int_vec ev = {0};
                value_vars(L, args, &ev);
                if (ev.n) {
                    ir_node *x = emit(L, out, IR_CALL, call, -1);
                    x->flags = CALL_VALUE_ONLY | CALL_CM_EXIT;
                    x->text = ci.dotted ? ci.dotted : text(L, ci.fn);
                    set_call_args(L, x, ev.v, NULL, ev.n);
                }
                CA_VEC_FREE(ev);
            }
        }
    }
    /* os.close(fd) */
    if (!handled && ci.dotted && cat(L, CAT_RELEASE_FUNC, ci.dotted)) {
        int_vec vs = {0};
        pn a0 = first_pos_arg(call, 0);
        if (!pn_isnull(a0)) ref_vars(L, a0, &vs);
        for (size_t i = 0; i < vs.n; i++) {
            if (L->f->vars[vs.v[i]].flags & VAR_SELF) L->f->fflags |= FN_RELEASES_SELF; /* os.close(self._fd) */
            emit_release(L, out, call, vs.v[i], relf, NULL);
        }
        CA_VEC_FREE(vs);
        handled = 1;
    }
    /* `await asyncio.to_thread(os.close, fd)`, `run_in_executor(None,
     * f.close)`: the worker thread runs the release whatever happens to
     * the await, so the value is released from the call on */
    if (!handled && ci.dotted && cat(L, CAT_EXECUTOR, ci.dotted)) {
        int skip = ci.name && strcmp(ci.name, "run_in_executor") == 0; /* (its executor first) */
        pn fa = unparen(first_pos_arg(call, skip));
        char *fd = pn_isnull(fa) ? NULL : dotted(L, fa);
        int_vec vs = {0};
        if (fd && cat(L, CAT_RELEASE_FUNC, fd)) {
            pn a1 = first_pos_arg(call, skip + 1);
            if (!pn_isnull(a1)) ref_vars(L, a1, &vs);
        } else if (pn_is(fa, PT_attribute) && cat(L, CAT_RELEASE_METHOD, text(L, pn_field(fa, PF_attribute)))) {
            int rv = root_var(L, pn_field(fa, PF_object));
            if (rv >= 0 && pn_is(unparen(pn_field(fa, PF_object)), PT_identifier)) push_unique(&vs, rv);
        }
        for (size_t i = 0; i < vs.n; i++)
            if (!(L->f->vars[vs.v[i]].flags & VAR_SELF)) emit_release(L, out, call, vs.v[i], relf, NULL);
        handled = vs.n > 0;
        CA_VEC_FREE(vs);
    }
    /* exit stacks: stack.push_async_callback(v.close), stack.pop_all() */
    if (!handled && ci.name && !pn_isnull(ci.recv)) {
        int sv = root_var(L, ci.recv);
        int is_stack = sv >= 0 && (L->f->vars[sv].flags & VAR_EXIT_STACK);
        if (cat(L, CAT_EXIT_STACK_ADOPT, ci.name) && sv >= 0) {
            int_vec vs = {0};
            if (!pn_isnull(args)) ref_vars(L, args, &vs);
            for (size_t i = 0; i < vs.n; i++) {
                if (vs.v[i] == sv) continue;
                if (is_stack) {
                    ir_node *n = emit(L, out, IR_ADOPT, call, vs.v[i]);
                    n->ref = L->f->vars[sv].stack_with;
                    n->var2 = sv;
                } else if ((L->f->vars[sv].flags & VAR_SELF) && !pn_is(unparen(ci.recv), PT_identifier)) {
                    /* `await self._stack.enter_async_context(client)`: a
                     * stack self holds closes it with itself, as a store
                     * into self hands it over */
                    emit(L, out, IR_TRANSFER, call, vs.v[i])->flags = XFER_SELF;
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
    /* setattr(obj, name, v): a store on obj */
    if (!handled && ci.dotted && pn_isnull(ci.recv) && cat(L, CAT_STORE_CALL, ci.dotted)) {
        pn obj = first_pos_arg(call, 0), val = first_pos_arg(call, 2);
        if (!pn_isnull(obj) && !pn_isnull(val)) {
            int cv;
            owner_kind o = owner_of(L, obj, &cv);
            /* (`owner = self._owner` ... `setattr(owner, name, child)`: a
             * store on an object self holds, as `owner.name = child` is) */
            if (o == OWN_LOCAL && cv >= 0 && (L->f->vars[cv].flags & VAR_OF_SELF)) o = OWN_GLOBAL;
            int_vec vs = {0};
            value_vars(L, val, &vs);
            for (size_t i = 0; i < vs.n; i++) {
                if (o == OWN_LOCAL && vs.v[i] != cv) emit(L, out, IR_ALIAS, call, vs.v[i])->var2 = cv;
                else if (o != OWN_NONE && o != OWN_LOCAL)
                    emit(L, out, IR_TRANSFER, call, vs.v[i])->flags = o == OWN_GLOBAL ? XFER_OUTER : 0;
            }
            CA_VEC_FREE(vs);
            handled = 1;
        }
    }
    /* containers: self._reg.add(v) transfers; local.append(v) aliases */
    if (!handled && ci.name && !pn_isnull(ci.recv) && cat(L, CAT_REGISTER_METHOD, ci.name)) {
        int cv;
        owner_kind o = owner_of(L, ci.recv, &cv);
        int_vec vs = {0};
        if (!pn_isnull(args)) value_vars(L, args, &vs);
        for (size_t i = 0; i < vs.n; i++) {
            if (o == OWN_SELF || o == OWN_GLOBAL || o == OWN_PARAM) {
                emit(L, out, IR_TRANSFER, call, vs.v[i])->flags =
                    o == OWN_SELF ? XFER_SELF : o == OWN_GLOBAL ? XFER_OUTER : 0;
            } else if (o == OWN_LOCAL && vs.v[i] != cv) {
                ir_node *n = emit(L, out, IR_ALIAS, call, vs.v[i]);
                n->var2 = cv;
            }
        }
        if (vs.n) handled = 1;
        CA_VEC_FREE(vs);
    }
    /* self._reg.clear(): values read from it earlier are taken out */
    if (!handled && ci.name && !pn_isnull(ci.recv) && cat(L, CAT_CLEAR_METHOD, ci.name) &&
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
    if (!pn_isnull(args) && pn_is(args, PT_argument_list) && !in_interpolation(call)) {
        PN_FOR_NAMED(a_it, args) {
            pn a = a_it;
            const char *kw = NULL;
            if (pn_is(a, PT_keyword_argument)) {
                kw = text(L, pn_field(a, PF_name));
                a = pn_field(a, PF_value);
            }
            if (pn_is(a, PT_comment)) continue;
            int_vec one = {0};
            ref_vars(L, a, &one);
            if (one.n == 0) {
                CA_VEC_PUSH(vs, -1);
                CA_VEC_PUSH(kws, kw);
            }
            /* (the later variables of one positional argument continue
             * it, so the next argument keeps its position: elements of a
             * tuple or list written in place, or parts of an expression) */
            pn ua = unparen(a);
            const char *more = pn_is(ua, PT_tuple) || pn_is(ua, PT_list) ? IR_KW_CONT : IR_KW_PART;
            for (size_t j = 0; j < one.n; j++) {
                CA_VEC_PUSH(vs, one.v[j]);
                CA_VEC_PUSH(kws, kw || j == 0 ? kw : more);
            }
            CA_VEC_FREE(one);
        }
    }
    int any_var = 0;
    for (size_t i = 0; i < vs.n; i++) any_var |= vs.v[i] >= 0;
    int on_self = 0;
    if (!pn_isnull(ci.recv)) {
        pn r = unparen(ci.recv);
        int rv = var_of(L, r);
        on_self = pn_is(r, PT_identifier) && rv >= 0 && (L->f->vars[rv].flags & VAR_SELF);
        /* the `self` a function defined in a method closes over */
        if (!on_self && pn_is(r, PT_identifier) && rv < 0 && strstr(L->f->qualname, ".<locals>.") &&
            strcmp(text(L, r), "self") == 0)
            on_self = 1;
    }
    int plain = pn_is(ci.fn, PT_identifier);
    /* `os._exit(0)`, `sys.exit(1)`: the path ends at the call */
    int noret = !ci.awaited && ci.dotted && cat(L, CAT_NORETURN_CALL, ci.dotted);
    /* `server = ControlServer(...)` ... `server.start()`: a method of that
     * class, if the tree defines it */
    const char *recv_class = on_self || pn_isnull(ci.recv) ? NULL : receiver_class(L, ci.recv);
    /* `super().create_job_group(...)`: the method as the first base defines it */
    if (!on_self && !recv_class && !pn_isnull(ci.recv) && pn_is(unparen(ci.recv), PT_call)) {
        pn sf = unparen(pn_field(unparen(ci.recv), PF_function));
        ir_class *cc = pn_is(sf, PT_identifier) && strcmp(text(L, sf), "super") == 0 ? current_class(L) : NULL;
        if (cc && cc->nbases > 0 && cc->bases[0] && *cc->bases[0]) recv_class = cc->bases[0];
    }
    /* (only where it hands the method a value: what the method keeps of
     * it is what its class says) */
    int on_global = 0;
    if (any_var && !on_self && !recv_class && !pn_isnull(ci.recv) &&
        (recv_class = global_object_class(L, ci.recv)) != NULL)
        on_global = 1;
    if (any_var || on_self || plain || recv_class || noret) {
        ir_node *n = emit(L, out, IR_CALL, call, -1);
        n->text = on_self ? text(L, pn_field(ci.fn, PF_attribute)) : (ci.dotted ? ci.dotted : text(L, ci.fn));
        /* (a call that only reports its arguments, `log.debug("...", v)`,
         * cleans nothing up, in a handler or not) */
        int reports = L->in_cleanup && ci.dotted && cat(L, CAT_REPORT_CALL, ci.dotted);
        n->flags = (ci.awaited ? CALL_AWAITED : 0) | (L->in_cleanup && !reports ? CALL_IN_CLEANUP : 0) |
                   (reports ? CALL_REPORT : 0) | (on_self ? CALL_ON_SELF : 0);
        if ((ci.dotted && cat(L, CAT_REPORT_CALL, ci.dotted)) ||
            (pn_is(unparen(ci.fn), PT_identifier) && scalar_builtin(text(L, unparen(ci.fn)))))
            n->flags |= CALL_READS_ONLY;
        if (recv_class) {
            n->flags |= CALL_RECV_CLASS | (on_global ? CALL_ON_GLOBAL : 0);
            n->recv = recv_class;
        }
        const char *nm = ci.name ? ci.name : "";
        if (!exception_class_name(nm) && release_word_name(L, nm))
            n->flags |= CALL_NAME_RELEASES;
        if (ca_catalog_contains_word(L->cat, CAT_REGISTER_WORD, nm)) n->flags |= CALL_NAME_REGISTERS;
        if (*nm && cat(L, CAT_ACQUIRE_PREFIX, bare_name(nm))) n->flags |= CALL_NAME_MAKES;
        {
            const char *w = nm;
            while (*w == '_') w++;
            char first[32];
            if (cat(L, CAT_STATUS_VERB, first_word(w, first, sizeof(first)))) n->flags |= CALL_STATUS_WRITE;
        }
        if (relf & REL_SHIELDED) n->flags |= 0; /* shielding recorded on the checkpoint */
        if (ci.dotted && cat(L, CAT_NONRAISING_CALL, ci.dotted)) n->flags |= CALL_NO_RAISE;
        /* `LOG.info("connected after %d attempts", n)` before the return
         * that hands a connection back: a log call does not raise into the
         * handler around it (logging's handlers deal with their own
         * errors). Not `print` or `warnings.warn`, which can. */
        if (ci.dotted && cat(L, CAT_REPORT_CALL, ci.dotted) && strcmp(ci.dotted, "print") != 0 &&
            strncmp(ci.dotted, "warnings.", 9) != 0)
            n->flags |= CALL_NO_RAISE;
        /* `create_task(self._pump(ws))`: the call that makes the coroutine a
         * task runs only makes the coroutine object; what it raises is the
         * task's */
        {
            pn up = pn_parent(call);
            pn outer = pn_is(up, PT_argument_list) ? pn_parent(up) : &pt_null;
            if (pn_is(outer, PT_call) && unparen(spawned_arg_src(L, outer)) == call) {
                call_info oc = call_of(L, outer);
                if (oc.name && spawns_task(L, &oc, NULL, 0)) {
                    n->flags |= CALL_NO_RAISE;
                    if (held_for_await(L, outer)) n->flags |= CALL_HELD_AWAIT;
                    /* (a plain task, not a group's: one whose holder
                     * cancels nothing, or no holder at all) */
                    const ca_cat_entry *te = oc.dotted ? cat(L, CAT_ACQUIRE, oc.dotted) : NULL;
                    if (te && te->kind && (strcmp(te->kind, "task") == 0 || strcmp(te->kind, "future") == 0) &&
                        uncancelled_start(L, outer))
                        n->flags |= CALL_UNHELD_START;
                }
            }
        }
        if (noret) n->flags |= CALL_NORETURN;
        /* `t.done()`, `t.cancelled()`: a question a future answers without raising */
        if (!ci.awaited && !pn_isnull(ci.recv) && ci.name && no_args(call) && cat(L, CAT_DONE_TEST, ci.name))
            n->flags |= CALL_NO_RAISE;
        if (!pn_isnull(ci.recv) && ci.name && cat(L, CAT_SLOT_ACQUIRE, ci.name)) n->flags |= CALL_ACQUIRES_SLOT;
        if (L->cancelled.n && !pn_isnull(args)) {
            PN_FOR_NAMED(a, args) {
                if (pn_is(a, PT_keyword_argument)) continue;
                if (map_get(L->cancelled.v, L->cancelled.n, norm_text(L, unparen(a), 200))) n->flags |= CALL_CANCELLED_ARG;
            }
        }
        set_call_args(L, n, vs.v, kws.v, vs.n);
    }
    CA_VEC_FREE(vs);
    CA_VEC_FREE(kws);
}

/* Does every call in node x (a block, or the statements of a handler from
 * node `from` on) only report (catalog report-call), and no raise? */
static int only_reports(lower *L, pn x, uint32_t from)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = x; y < endp && y->start < x->end; y++) {
        if (y->start < from) continue;
        if (y->type == PT_raise_statement) return 0;
        if (y->type != PT_call) continue;
        const char *d = dotted(L, pn_field(y, PF_function));
        if (!d || !cat(L, CAT_REPORT_CALL, d)) return 0;
    }
    return 1;
}

/* `try: await api.create_namespace(ns)` / `except ApiException as e: if
 * e.status != 409: raise` (or `if e.status == 409: log(...); return True`,
 * or `except AlreadyExistsError: pass`): a create whose handler takes
 * "already exists" as success makes an object meant to be there whoever
 * made it; one a timeout abandons and that lands later leaves just the
 * state the next call accepts. A conflict branch that does more (deletes
 * the old one, retries) is not that. */
static int ensured_create(lower *L, pn at)
{
    pn t = pn_parent(at);
    while (!pn_isnull(t) && !pn_is(t, PT_try_statement) && !pn_is(t, PT_function_definition)) t = pn_parent(t);
    if (!pn_is(t, PT_try_statement)) return 0;
    pn body = pn_field(t, PF_body);
    if (pn_isnull(body) || at->start < body->start || at->end > body->end) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    PN_FOR_NAMED(ch, t) {
        if (!pn_is(ch, PT_except_clause)) continue;
        pn block = &pt_null, types = &pt_null;
        PN_FOR_NAMED(x, ch) {
            if (pn_is(x, PT_block)) block = x;
            else if (pn_isnull(types) && !pn_is(x, PT_comment)) types = x;
        }
        if (pn_isnull(block)) continue;
        /* (the class caught, `except AlreadyExistsError:`, not a message) */
        const char *head = pn_isnull(types) ? "" : norm_text(L, types, 200);
        if ((strstr(head, "AlreadyExist") || strstr(head, "Conflict")) && only_reports(L, block, 0)) return 1;
        for (pn y = block; y < endp && y->start < block->end; y++) {
            if (y->type != PT_comparison_operator) continue;
            const char *c = text(L, y);
            if (!strstr(c, "409") || !strstr(c, "status")) continue;
            pn st = pn_parent(y);
            if (!pn_is(st, PT_if_statement) || pn_field(st, PF_condition) != y) continue;
            pn cons = pn_field(st, PF_consequence);
            if (strstr(c, "==") && only_reports(L, cons, 0)) return 1;
            /* `if e.status != 409: raise`, and nothing but reports after */
            if (strstr(c, "!=") && !only_reports(L, cons, 0) && only_reports(L, block, st->end)) return 1;
        }
    }
    return 0;
}

/* What a rule needs to judge an awaited call: its names, its receiver's
 * name and whether the receiver is a scope object (a task group, nursery or
 * exit stack of this function). The frontend records; the rules decide. */
static void await_call_facts(lower *L, ir_node *n, const call_info *ci)
{
    n->callee = ci->dotted;
    n->cname = ci->name;
    if (pn_isnull(ci->recv)) return;
    n->flags |= REM_HAS_RECV;
    n->recv = dotted(L, ci->recv);
    /* (the class of the tree the receiver was made from, when one is
     * known: `await run.terminate()` of `run: TaskRun` resolves there) */
    if (!pn_is(unparen(ci->recv), PT_identifier) || strcmp(text(L, unparen(ci->recv)), "self") != 0) {
        const char *rc = receiver_class(L, ci->recv);
        if (rc) n->rkind = rc;
    }
    int rv = root_var(L, ci->recv);
    if (rv >= 0 && (L->f->vars[rv].flags & (VAR_GROUP | VAR_EXIT_STACK))) n->flags |= REM_RECV_SCOPE;
}

/* `create_policy(PolicyName=self._policy_name)` where the class (or the
 * module) also looks that name up (`self._get_policy_by_name(
 * self._policy_name)`, `describe_repositories(repositoryNames=[name])`):
 * the object is made under a name the code finds it by again, a named
 * object meant to persist (a re-run finds it instead of making another),
 * not one a dropped result orphans. */
static int lc_eq_skip(const char *a, size_t an, const char *b, size_t bn)
{
    /* equal ignoring case and underscores */
    size_t i = 0, j = 0;
    for (;;) {
        while (i < an && a[i] == '_') i++;
        while (j < bn && b[j] == '_') j++;
        if (i == an || j == bn) return i == an && j == bn;
        char x = a[i], y = b[j];
        if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
        if (x != y) return 0;
        i++;
        j++;
    }
}

/* Does the name's last component start with a lookup verb (catalog
 * lookup-verb: `_get_policy_by_name`, `describe_repositories`)? */
static int lookup_name(lower *L, const char *d)
{
    if (!d) return 0;
    const char *p = strrchr(d, '.');
    p = p ? p + 1 : d;
    while (*p == '_') p++;
    char first[32];
    return cat(L, CAT_LOOKUP_VERB, first_word(p, first, sizeof(first))) != NULL;
}

/* Does call c (or a function reference among its positional arguments,
 * `partial(self._get_x, name)`) look something up, handed expr text e? */
static int looks_up(lower *L, pn c, const char *e)
{
    pn args = pn_field(c, PF_arguments);
    if (pn_isnull(args) || !pn_is(args, PT_argument_list)) return 0;
    int lookup = lookup_name(L, dotted(L, pn_field(c, PF_function)));
    int handed = 0;
    PN_FOR_NAMED(a, args) {
        pn x = unparen(pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
        if (pn_isnull(x)) continue;
        if (!pn_is(a, PT_keyword_argument) && (pn_is(x, PT_attribute) || pn_is(x, PT_identifier)) &&
            lookup_name(L, dotted(L, x)))
            lookup = 1;
        if (pn_is(x, PT_list) || pn_is(x, PT_tuple)) {
            PN_FOR_NAMED(el, x) if (strcmp(norm_text(L, unparen(el), 200), e) == 0) handed = 1;
        } else if (strcmp(norm_text(L, x, 200), e) == 0) {
            handed = 1;
        }
    }
    return lookup && handed;
}

static int named_create(lower *L, const char *fn, pn call)
{
    if (!fn || pn_isnull(call) || !pn_is(call, PT_call)) return 0;
    const char *p = strrchr(fn, '.');
    p = p ? p + 1 : fn;
    if (strncmp(p, "create_", 7) != 0 || !p[7]) return 0;
    const char *kind = p + 7;
    pn args = pn_field(call, PF_arguments);
    if (pn_isnull(args)) return 0;
    const char *e = NULL;
    PN_FOR_NAMED(a, args) {
        if (!pn_is(a, PT_keyword_argument)) continue;
        const char *k = text(L, pn_field(a, PF_name));
        size_t kl = k ? strlen(k) : 0;
        /* (PolicyName for create_policy, repositoryName for create_repository;
         * or a bare `name=`, create_collection(name=n)) */
        if (kl >= 4 && lc_eq_skip(k + kl - 4, 4, "name", 4) && (kl == 4 || lc_eq_skip(k, kl - 4, kind, strlen(kind)))) {
            pn v = unparen(pn_field(a, PF_value));
            if (pn_is(v, PT_attribute) || pn_is(v, PT_identifier)) e = norm_text(L, v, 200);
        }
    }
    if (!e) return 0;
    /* the class around, else the module */
    pn scope = &pt_null;
    for (pn up = pn_parent(call); !pn_isnull(up); up = pn_parent(up))
        if (pn_is(up, PT_class_definition)) {
            scope = up;
            break;
        }
    const pt_node *endp = L->T->v + L->T->n;
    pn from = pn_isnull(scope) ? L->T->v : scope;
    uint32_t to = pn_isnull(scope) ? UINT32_MAX : scope->end;
    for (pn x = from; x < endp && x->start < to; x++)
        if (x->type == PT_call && x != call && looks_up(L, x, e)) return 1;
    return 0;
}

/* A create of something inside an existing parent: a method of a remote
 * object this function made (`vpc.create_route_table`), or a create
 * naming an existing parent by its id, taken from self or a parameter
 * (`create_agent_action_group(agentId=self.agent.agent_id, ...)`; an id
 * named for what is created, `create_session(sessionId=...)`, names no
 * parent). What it makes lives in the parent: reachable through it, and
 * deleted with it. */
static int child_create(lower *L, pn fn, const char *d, pn call)
{
    const char *p = strrchr(d, '.');
    p = p ? p + 1 : d;
    if (strncmp(p, "create_", 7) != 0 || !p[7]) return 0;
    const char *kind = p + 7;
    if (pn_is(fn, PT_attribute)) {
        pn o = unparen(pn_field(fn, PF_object));
        int ov = pn_is(o, PT_identifier) ? var_of(L, o) : -1;
        for (size_t k = 0; ov >= 0 && k < L->strong.n; k++)
            if (L->strong.v[k] == ov && !(L->f->vars[ov].flags & (VAR_SELF | VAR_PARAM))) return 1;
        for (size_t k = 0; ov >= 0 && k < L->created.n; k++)
            if (L->created.v[k] == ov) return 1;
    }
    pn args = pn_isnull(call) || !pn_is(call, PT_call) ? &pt_null : pn_field(call, PF_arguments);
    if (pn_isnull(args)) return 0;
    PN_FOR_NAMED(a, args) {
        if (!pn_is(a, PT_keyword_argument)) continue;
        const char *k = text(L, pn_field(a, PF_name));
        size_t kl = k ? strlen(k) : 0;
        if (kl < 3 || !lc_eq_skip(k + kl - 2, 2, "id", 2)) continue;
        /* (the created object's own id: `sessionId` for create_session) */
        size_t stem = kl - 2 - (k[kl - 3] == '_');
        if (stem && lc_eq_skip(k, stem, kind, strlen(kind))) continue;
        pn v = unparen(pn_field(a, PF_value));
        pn root = root_ident(v);
        int rv = pn_isnull(root) ? -1 : var_of(L, root);
        if (rv >= 0 && (L->f->vars[rv].flags & (VAR_SELF | VAR_PARAM)) && !pn_is(v, PT_identifier)) return 1;
    }
    return 0;
}

/* What thread work runs (`to_thread(f, ...)`, `run_in_executor(ex, f,
 * ...)`): the function passed, the call a lambda makes (`lambda:
 * client.create(...)`), the function a functools.partial wraps. Recorded
 * on the IR_EXECUTOR node x as an awaited call's facts are (callee, cname,
 * recv), with x->ref a value-only IR_CALL naming the function so the
 * engine can resolve it into the tree. */
static void thread_target(lower *L, ir_block *out, ir_node *x, pn call)
{
    /* (`run_in_executor(executor, f, ...)` hands the executor first, None or
     * not; `to_thread(f, ...)` the function) */
    call_info ec = call_of(L, call);
    int first = ec.name && strcmp(ec.name, "run_in_executor") == 0 ? 1 : 0;
    for (int k = first; k < first + 1; k++) {
        pn a = unparen(first_pos_arg(call, k));
        if (pn_isnull(a) || pn_is(a, PT_none)) continue;
        pn fn = a, made = &pt_null;
        if (pn_is(a, PT_lambda)) {
            pn body = unparen(pn_field(a, PF_body));
            if (pn_isnull(body) || !pn_is(body, PT_call)) return;
            fn = unparen(pn_field(body, PF_function));
            made = body;
        } else if (pn_is(a, PT_call)) {
            call_info pc = call_of(L, a);
            if (!pc.name || strcmp(pc.name, "partial") != 0) return;
            fn = unparen(first_pos_arg(a, 0));
            made = a;
        }
        if (pn_isnull(fn) || !(pn_is(fn, PT_identifier) || pn_is(fn, PT_attribute))) return;
        char *d = dotted(L, fn);
        if (!d) return;
        /* (`to_thread(client.create_collection, name=n)`: the keywords of
         * the thread call go to the function it runs) */
        if (named_create(L, d, pn_isnull(made) ? call : made)) x->flags |= EXEC_NAMED;
        if (child_create(L, fn, d, made)) x->flags |= EXEC_CHILD;
        x->callee = d;
        x->cname = last_component(d);
        x->flags &= ~(unsigned)(REM_HAS_RECV | REM_RECV_SCOPE);
        ir_node *c = ir_node_new(L->m, IR_CALL, x->site);
        c->flags = CALL_VALUE_ONLY;
        c->text = d;
        c->vars = ca_arena_alloc(&L->m->arena, sizeof(int));
        c->kwnames = ca_arena_alloc(&L->m->arena, sizeof(char *));
        if (pn_is(fn, PT_attribute)) {
            pn recv = unparen(pn_field(fn, PF_object));
            x->flags |= REM_HAS_RECV;
            x->recv = dotted(L, recv);
            int rv = root_var(L, recv);
            if (rv >= 0 && (L->f->vars[rv].flags & (VAR_GROUP | VAR_EXIT_STACK))) x->flags |= REM_RECV_SCOPE;
            if (pn_is(recv, PT_identifier) && rv >= 0 && (L->f->vars[rv].flags & VAR_SELF)) {
                c->flags |= CALL_ON_SELF;
                c->text = x->cname;
            }
        }
        ir_block_push(L->m, out, c);
        x->ref = c;
        return;
    }
}

/* Handle an await at its post-visit: the checkpoint and what it implies. */
static const char *recv_made_bare(lower *L, pn recv);
static int finished_element(lower *L, pn aw, pn id);
static int done_guarded(lower *L, pn aw, pn id);
static const char *self_class(lower *L);
static int tests_cancel_flag(lower *L, pn cond);
static void collect_self_cancellers(lower *L, pn def);
static int returns_element_of_self(lower *L, pn e);
static int calls_timeout_wrapper(lower *L, pn c);
static pn wrapped_call(lower *L, pn c);
static void note_exc_flag(lower *L, int v, pn right);

/* Is await aw the first await in the body of a `while` or `if` whose
 * condition says the queue recv is not empty (`not q.empty()`, an operand
 * of an `and` chain, or `q.qsize()`)? Nothing between the test and the get
 * can let another task drain the queue. */
static int guarded_nonempty(lower *L, pn aw, pn recv)
{
    const char *qn = norm_text(L, unparen(recv), 200);
    pn up = pn_parent(aw);
    while (!pn_isnull(up) && !pn_is(up, PT_block)) up = pn_parent(up);
    if (pn_isnull(up)) return 0;
    pn stmt = pn_parent(up);
    if (!pn_is(stmt, PT_while_statement) && !pn_is(stmt, PT_if_statement)) return 0;
    if (pn_field(stmt, pn_is(stmt, PT_if_statement) ? PF_consequence : PF_body) != up) return 0;
    /* (the first await of the body) */
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = up; x < endp && x->start < aw->start; x++)
        if (x->type == PT_await) return 0;
    pn cond = pn_field(stmt, PF_condition);
    if (pn_isnull(cond)) return 0;
    ca_sb a = {0}, b = {0};
    ca_sb_addf(&a, "not %s.empty()", qn);
    ca_sb_addf(&b, "%s.qsize()", qn);
    const char *ct = norm_text(L, cond, 400);
    int ok = 0;
    for (int k = 0; k < 2 && !ok; k++) {
        const char *want = ca_sb_str(k ? &b : &a);
        size_t wl = strlen(want);
        for (const char *p = strstr(ct, want); p && !ok; p = strstr(p + 1, want)) {
            /* (a whole operand: at the start or after `and `, and at the end
             * or before ` and`) */
            int start = p == ct || (p - ct >= 4 && strncmp(p - 4, "and ", 4) == 0);
            int end = p[wl] == 0 || strncmp(p + wl, " and", 4) == 0 || (k == 1 && p[wl] == ' ');
            ok = start && end;
        }
    }
    ca_sb_release(&a);
    ca_sb_release(&b);
    return ok;
}

/* `runner = web.AppRunner(app)` ... `await runner.setup()` (catalog
 * hook-setup, the application at argument idx of the runner's maker): is
 * that application made in this function by the framework's constructor
 * (`web.Application(...)`) and used there only to add routes
 * (`app.add_routes(...)`, `app.router.add_get(...)`) and to make the
 * runner? Then it has no startup hooks, and the setup has nothing to wait
 * for. The maker call is the last binding of the runner before `at`. */
/* Argument idx of the call that last binds `name` before node at in the
 * function around at (`runner = web.AppRunner(app)`: app), or the null
 * node when that binding is no call. */
static pn maker_arg(lower *L, pn at, const char *name, int idx)
{
    pn def = pn_parent(at);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    if (pn_isnull(def)) return &pt_null;
    const pt_node *endp = L->T->v + L->T->n;
    pn maker = &pt_null;
    uint32_t nested_end = 0;
    for (pn x = def + 1; x < endp && x->start < at->start; x++) {
        if (in_nested_def(x, &nested_end) || !binds_name(L, x, name)) continue;
        pn up = pn_parent(x);
        maker = pn_is(up, PT_assignment) && pn_field(up, PF_left) == x ? unparen(pn_field(up, PF_right)) : &pt_null;
    }
    return pn_is(maker, PT_call) ? unparen(first_pos_arg(maker, idx)) : &pt_null;
}

static int hookless_app(lower *L, pn at, const char *runner, int idx)
{
    pn def = pn_parent(at);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    if (pn_isnull(def)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    uint32_t nested_end = 0;
    pn arg = maker_arg(L, at, runner, idx);
    if (!pn_is(arg, PT_identifier)) return 0;
    const char *an = text(L, arg);
    int made = 0;
    nested_end = 0;
    for (pn x = def + 1; x < endp && x->start < def->end; x++) {
        int nested = in_nested_def(x, &nested_end);
        if (x->type != PT_identifier || x == arg || !text_is(L, x, an)) continue;
        /* (a nested function naming it may do anything with it) */
        if (nested) return 0;
        if (binds_name(L, x, an)) {
            /* (made by the framework's own constructor, `web.Application(...)`:
             * a factory of the tree or a library may add hooks) */
            pn up = pn_parent(x);
            pn rhs = pn_is(up, PT_assignment) ? unparen(pn_field(up, PF_right)) : &pt_null;
            const char *d = pn_is(rhs, PT_call) ? dotted(L, pn_field(rhs, PF_function)) : NULL;
            if (made++ || !d || strcmp(last_component(d), "Application") != 0) return 0;
            continue;
        }
        pn up = pn_parent(x);
        /* (`app[token_key] = token`: state kept on the application, no hook) */
        if (pn_is(up, PT_subscript) && pn_field(up, PF_value) == x && pn_is(pn_parent(up), PT_assignment) &&
            pn_field(pn_parent(up), PF_left) == up)
            continue;
        if (!pn_is(up, PT_attribute) || pn_field(up, PF_object) != x) return 0;
        const char *attr = text(L, pn_field(up, PF_attribute));
        if (strcmp(attr, "router") == 0) continue;
        if (strcmp(attr, "add_routes") == 0 && pn_is(pn_parent(up), PT_call) && pn_field(pn_parent(up), PF_function) == up)
            continue;
        return 0;
    }
    return made == 1;
}

static int rebinds(lower *L, pn x, const char *name);

/* Is `name` bound in the except or finally clause around node at? */
static int made_in_clause(lower *L, pn at, const char *name)
{
    pn cl = pn_parent(at);
    while (!pn_isnull(cl) && !pn_is(cl, PT_except_clause) && !pn_is(cl, PT_except_group_clause) &&
           !pn_is(cl, PT_finally_clause) && !pn_is(cl, PT_function_definition))
        cl = pn_parent(cl);
    if (pn_isnull(cl) || pn_is(cl, PT_function_definition)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = cl; x < endp && x->start < cl->end; x++)
        if (rebinds(L, x, name)) return 1;
    return 0;
}

static void on_await(lower *L, ir_block *out, pn aw, size_t events_before, int_vec *deferred)
{
    pn e = unparen(pn_first_named(aw));
    ir_node *cp = ir_node_new(L->m, IR_CHECKPOINT, site_of(L, aw));
    cp->flags = CP_AWAIT | (L->in_cleanup ? CP_IN_CLEANUP : 0);
    cp->text = norm_text(L, aw, 160);
    int_vec pass = {0}, done = {0};
    unsigned remf = 0;
    pn inner = e;
    int first = 1, exited = -1;
    for (int guard = 0; guard < 8; guard++) {
        inner = unparen(inner);
        if (pn_is(inner, PT_call)) {
            /* `await proc.wait()`, also under wait_for */
            pn fnx = unparen(pn_field(inner, PF_function));
            if (pn_is(fnx, PT_attribute) && pn_is(unparen(pn_field(fnx, PF_object)), PT_identifier) &&
                cat(L, CAT_EXIT_WAIT, text(L, pn_field(fnx, PF_attribute))))
                exited = var_of(L, unparen(pn_field(fnx, PF_object)));
        }
        if (pn_is(inner, PT_identifier)) {
            int v = var_of(L, inner);
            if (first) push_unique(&pass, v);
            /* `for task in finished: await task` over the tasks already done
             * (`finished = {t for t in tasks if t.done()}`, or the done set
             * of `asyncio.wait`): awaiting a finished task returns at once */
            if (first && inner == unparen(e) && (finished_element(L, aw, inner) || done_guarded(L, aw, inner)))
                cp->flags |= CP_NO_SUSPEND;
            /* `await wait_for(shield(task), t)` of a teardown task
             * (`create_task(self.close())`): cancelled, the await leaves the
             * close running to its end, as the shield means it to: no
             * window for it, as for a task the await passes cancellation to */
            if (!first && (cp->flags & CP_SHIELDED) && v >= 0 && (L->f->vars[v].flags & VAR_TEARDOWN))
                push_unique(&pass, v);
            /* `await shield(task)` with no timed wait around it: a shield
             * that bounds nothing is there only to keep the task running
             * when this await is cancelled; the task is detached on purpose,
             * to finish by itself (under `wait_for(shield(job), t)` the
             * shield serves the timeout, and a cancellation still abandons
             * the job; and what a task that makes a resource hands back is
             * still left to nobody) */
            if (!first && (cp->flags & CP_SHIELDED) && !(cp->flags & CP_TIMEOUT) && v >= 0 &&
                !(L->f->vars[v].flags & VAR_MAKER))
                push_unique(&pass, v);
            push_unique(&done, v);
            if (map_get(L->cancelled.v, L->cancelled.n, norm_text(L, inner, 200))) cp->flags |= CP_AWAITS_CANCELLED;
            break;
        }
        /* `app[key].cancel()` ... `await app[key]` */
        if (pn_is(inner, PT_subscript)) {
            if (map_get(L->cancelled.v, L->cancelled.n, norm_text(L, inner, 200))) cp->flags |= CP_AWAITS_CANCELLED;
            break;
        }
        if (pn_is(inner, PT_attribute)) {
            if (map_get(L->cancelled.v, L->cancelled.n, norm_text(L, inner, 200))) cp->flags |= CP_AWAITS_CANCELLED;
            /* `await self._wait` (a task the object holds): a cancellation
             * of this await is delivered into the object's own task */
            pn ob = unparen(pn_field(inner, PF_object));
            int sv = pn_is(ob, PT_identifier) ? var_of(L, ob) : -1;
            if (first && sv >= 0 && (L->f->vars[sv].flags & VAR_SELF)) push_unique(&pass, sv);
            break;
        }
        if (!pn_is(inner, PT_call)) break;
        char *d = dotted(L, pn_field(inner, PF_function));
        if (d && cat(L, CAT_PASS_CANCEL, d)) {
            pn args = pn_field(inner, PF_arguments);
            int is_timeout = cat(L, CAT_TIMEOUT_CALL, d) != NULL;
            /* `gather(*cancelled)`: every task it waits for was cancelled
             * just before (what it raises is theirs, as `t.cancel(); await t`) */
            int npos = 0, ncancelled = 0;
            PN_FOR_NAMED(a_it, args) {
                pn a = a_it;
                if (pn_is(a, PT_keyword_argument)) continue;
                if (pn_is(a, PT_list_splat)) a = pn_first_named(a);
                npos++;
                if (cancelled_container(L, a)) ncancelled++;
                if (is_timeout) break;
            }
            if (!is_timeout && npos && ncancelled == npos) cp->flags |= CP_AWAITS_CANCELLED;
            PN_FOR_NAMED(a_it, args) {
                pn a = a_it;
                if (pn_is(a, PT_keyword_argument)) continue;
                if (pn_is(a, PT_list_splat)) a = pn_first_named(a);
                int v = var_of(L, a);
                if (v >= 0) {
                    if (first) push_unique(&pass, v);
                    push_unique(&done, v);
                }
                if (is_timeout) break; /* wait_for(aw, timeout): only the first */
            }
            if (is_timeout) {
                /* (`wait_for(gather(*tasks), t)`: a cancellation of the wait
                 * cancels what it waits for, as a plain await would; first
                 * stays as it was) */
                remf |= REM_TIMEOUT;
                cp->flags |= CP_TIMEOUT;
                inner = first_pos_arg(inner, 0);
                continue;
            }
            break;
        }
        if ((d && cat(L, CAT_TIMEOUT_CALL, d)) || calls_timeout_wrapper(L, inner)) {
            remf |= REM_TIMEOUT;
            cp->flags |= CP_TIMEOUT;
            inner = d && cat(L, CAT_TIMEOUT_CALL, d) ? first_pos_arg(inner, 0) : wrapped_call(L, inner);
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
    /* `await (g.athrow(e) if e is not None else g.asend(v))`: a step of
     * the same generator on either arm, which delivers a cancellation
     * inside it as either call would */
    if (pn_is(inner, PT_conditional_expression)) {
        int gv = -1, arms = 0;
        PN_FOR_NAMED(alt, inner) {
            if (alt == pn_named_child(inner, 1)) continue; /* (the condition) */
            pn c = unparen(alt);
            int v = -1;
            if (pn_is(c, PT_call)) {
                call_info ai = call_of(L, c);
                if (ai.name && !pn_isnull(ai.recv) && cat(L, CAT_GENERATOR_STEP, ai.name)) v = var_of(L, ai.recv);
            }
            if (v < 0 || (arms && v != gv)) gv = -2;
            else if (gv != -2) gv = v;
            arms++;
        }
        if (arms == 2 && gv >= 0) push_unique(&pass, gv);
    }
    if (pn_is(inner, PT_call)) {
        cp->flags |= CP_CALL;
        /* the awaited call's own node, so the engine can ask whether its
         * callee can suspend at all */
        for (size_t i = events_before; i < (size_t)out->n; i++)
            if (out->v[i]->kind == IR_CALL && out->v[i]->site.start == inner->start &&
                out->v[i]->site.end == inner->end)
                cp->ref = out->v[i];
        call_info ci = call_of(L, inner);
        /* (a call lowered as something else, `await session.close()` as a
         * release, on a receiver of a class of the tree: a value-only node
         * naming the method, so the engine can ask it too) */
        const char *rc = !cp->ref && ci.name && !pn_isnull(ci.recv) ? receiver_class(L, ci.recv) : NULL;
        if (rc) {
            ir_node *vc = emit(L, out, IR_CALL, inner, -1);
            vc->text = ci.dotted ? ci.dotted : text(L, ci.fn);
            vc->flags = CALL_AWAITED | CALL_VALUE_ONLY | CALL_RECV_CLASS;
            vc->recv = rc;
            cp->ref = vc;
        }
        /* the value the awaited call is the cancellation's way into: a step
         * of a generator (its own cleanup runs), a value's own setup
         * (`await cm.__aenter__()`, `await lock.acquire()`), an argument a
         * call takes over and closes on failure (start_tls) */
        if (ci.name && !pn_isnull(ci.recv) &&
            (cat(L, CAT_GENERATOR_STEP, ci.name) || cat(L, CAT_SETUP_METHOD, ci.name)))
            push_unique(&pass, var_of(L, ci.recv));
        /* `resp = await stack.enter_async_context(cm)`, the stack's first
         * entry: it holds nothing until that enter returns (a cancellation
         * inside it is the context's own to clean up) */
        if (ci.name && !pn_isnull(ci.recv) && cat(L, CAT_EXIT_STACK_ADOPT, ci.name) && L->loop_depth == 0 &&
            pn_is(unparen(ci.recv), PT_identifier) && first_adopt(L, inner, text(L, unparen(ci.recv))) &&
            !hands_in_resource(L, inner))
            push_unique(&pass, var_of(L, ci.recv));
        if (ci.dotted && pn_isnull(ci.recv) && cat(L, CAT_GENERATOR_STEP, ci.dotted))
            push_unique(&pass, var_of(L, first_pos_arg(inner, 0)));
        const ca_cat_entry *ce = ci.dotted ? cat(L, CAT_CONSUMES, ci.dotted) : NULL;
        if (ce && ce->arg) {
            pn a = isdigit((unsigned char)ce->arg[0]) ? first_pos_arg(inner, atoi(ce->arg)) : kw_arg(L, inner, ce->arg);
            int cv = pn_isnull(a) ? -1 : var_of(L, a);
            push_unique(&pass, cv);
            push_unique(&done, cv);
        }
        if (ci.dotted && cat(L, CAT_NONSUSPENDING_AWAIT, ci.dotted)) cp->flags |= CP_NO_SUSPEND;
        if (ci.dotted && cat(L, CAT_CANCEL_ONLY_AWAIT, ci.dotted)) cp->flags |= CP_CANCEL_ONLY;
        /* `await stack.enter_async_context(client)` of `client =
         * httpx.AsyncClient(...)`: the enter that would suspend is the
         * context manager's own, and a catalogued one never does */
        if (ci.name && !pn_isnull(ci.recv) && strcmp(ci.name, "enter_async_context") == 0 &&
            ctx_matches(L, first_pos_arg(inner, 0), CAT_NONSUSPENDING_ENTER))
            cp->flags |= CP_NO_SUSPEND;
        /* `await ws.send_str(hello)` right after `ws = await s.ws_connect(u)`,
         * awaited directly (a wait_for around it suspends on its own): the
         * first write goes into an empty buffer (catalog fresh-send) */
        if (ci.name && !pn_isnull(ci.recv) && pn_is(unparen(ci.recv), PT_identifier)) {
            const char *rn = text(L, unparen(ci.recv));
            for (size_t k = 0; k < L->fresh.n; k++) {
                fresh_var *fv = &L->fresh.v[k];
                if (strcmp(fv->name, rn) != 0) continue;
                if (inner == e && !fv->used && fv->maker && fv->loop_depth == L->loop_depth) {
                    ca_sb q = {0};
                    ca_sb_addf(&q, "%s().%s", fv->maker, ci.name);
                    if (cat(L, CAT_FRESH_SEND, ca_sb_str(&q))) cp->flags |= CP_NO_SUSPEND;
                    ca_sb_release(&q);
                }
                fv->used = 1;
            }
        }
        /* `await sock.connect(addr)` of `sock = trio.socket.socket(...)`:
         * cancelled there, the socket is closed by the call (catalog
         * cancel-closes); the socket is no window at this await */
        if (ci.name && !pn_isnull(ci.recv) && pn_is(unparen(ci.recv), PT_identifier)) {
            const char *rn = text(L, unparen(ci.recv));
            int rvv = var_of(L, unparen(ci.recv));
            const char *mk = rvv >= 0 ? map_get(L->locals_ctor.v, L->locals_ctor.n, rn) : NULL;
            /* (a parameter annotated with the class: `response:
             * aiohttp.ClientResponse` ... `await response.read()`) */
            if (!mk && rvv >= 0 && (L->f->vars[rvv].flags & VAR_PARAM) && !(L->f->vars[rvv].flags & VAR_SELF))
                mk = map_get(L->param_class.v, L->param_class.n, rn);
            if (mk && *mk) {
                ca_sb q = {0};
                ca_sb_addf(&q, "%s().%s", mk, ci.name);
                if (cat(L, CAT_CANCEL_CLOSES, ca_sb_str(&q))) push_unique(&pass, rvv);
                ca_sb_release(&q);
                /* `await session.__aenter__()` of `session = ClientSession(r, w)`:
                 * the catalog names it "mcp.ClientSession(*).__aenter__", made
                 * with any arguments ("maker()" means made with none) */
                ca_sb_addf(&q, "%s(*).%s", mk, ci.name);
                if (cat(L, CAT_NONSUSPENDING_AWAIT, ca_sb_str(&q))) cp->flags |= CP_NO_SUSPEND;
                /* `await runner.setup()` of `runner = web.AppRunner(app)`
                 * over an application made here with routes only */
                const ca_cat_entry *hs = cat(L, CAT_HOOK_SETUP, ca_sb_str(&q));
                if (hs && hs->arg && isdigit((unsigned char)hs->arg[0]) && hookless_app(L, aw, rn, atoi(hs->arg)))
                    cp->flags |= CP_NO_SUSPEND;
                /* `await site.start()` of `site = web.TCPSite(runner, ...)`:
                 * the runner's serving starts here (catalog site-start); a
                 * runner over an application with no hooks holds nothing
                 * before, and a cancelled bind leaves nothing behind */
                const ca_cat_entry *ss = cat(L, CAT_SITE_START, ca_sb_str(&q));
                pn ra = ss && ss->arg && isdigit((unsigned char)ss->arg[0]) ? maker_arg(L, aw, rn, atoi(ss->arg))
                                                                              : &pt_null;
                const char *rmk = pn_is(ra, PT_identifier) && var_of(L, ra) >= 0
                                      ? map_get(L->locals_ctor.v, L->locals_ctor.n, text(L, ra))
                                      : NULL;
                if (rmk && *rmk) {
                    ca_sb r = {0};
                    ca_sb_addf(&r, "%s(*).setup", rmk);
                    const ca_cat_entry *rs = cat(L, CAT_HOOK_SETUP, ca_sb_str(&r));
                    if (rs && rs->arg && isdigit((unsigned char)rs->arg[0]) &&
                        hookless_app(L, aw, text(L, ra), atoi(rs->arg)))
                        push_unique(&pass, var_of(L, ra));
                    ca_sb_release(&r);
                }
                ca_sb_release(&q);
            }
        }
        /* `await self._q.put(x)` on `self._q = asyncio.Queue()`: the catalog
         * names it "asyncio.Queue().put" (an unbounded queue is never full) */
        if (ci.name && !pn_isnull(ci.recv)) {
            const char *bare = recv_made_bare(L, ci.recv);
            if (bare) {
                ca_sb q = {0};
                ca_sb_addf(&q, "%s().%s", bare, ci.name);
                if (cat(L, CAT_NONSUSPENDING_AWAIT, ca_sb_str(&q))) cp->flags |= CP_NO_SUSPEND;
                /* `while not q.empty(): item = await q.get()` */
                if (inner == e && cat(L, CAT_NONEMPTY_GET, ca_sb_str(&q)) && guarded_nonempty(L, aw, ci.recv))
                    cp->flags |= CP_NO_SUSPEND;
                ca_sb_release(&q);
            }
        }
        /* `done, _ = await asyncio.wait({t})`: with one task and no timeout
         * the wait returns only once t is done, whatever return_when says */
        if (ci.dotted && cat(L, CAT_WAIT_DONE, ci.dotted)) {
            pn a0 = unparen(first_pos_arg(inner, 0));
            pn tmo = kw_arg(L, inner, "timeout");
            pn rw = kw_arg(L, inner, "return_when");
            /* it may return with awaitables still pending (the first done,
             * or a timeout), and the function drops its sets: what is
             * still pending is left to run */
            const char *w = pn_isnull(rw) ? NULL : norm_text(L, unparen(rw), 120);
            int early = (w && (strstr(w, "FIRST_COMPLETED") || strstr(w, "FIRST_EXCEPTION"))) ||
                        (!pn_isnull(tmo) && !pn_is(unparen(tmo), PT_none));
            if (early && wait_sets_dropped(L, aw)) cp->flags |= CP_WAIT_FIRST;
            if ((pn_is(a0, PT_set) || pn_is(a0, PT_list) || pn_is(a0, PT_tuple)) && pn_named_count(a0) == 1 &&
                (pn_isnull(tmo) || pn_is(unparen(tmo), PT_none))) {
                pn only = unparen(pn_first_named(a0));
                int ov = pn_is(only, PT_identifier) ? var_of(L, only) : -1;
                if (ov >= 0) push_unique(&done, ov);
            }
            /* (and with several, when it waits for all of them: no
             * return_when, or ALL_COMPLETED, and no timeout; `await
             * asyncio.wait((reply_task, send_task, asyncio.sleep(0.25)))`
             * returns once each is done) */
            if ((pn_is(a0, PT_set) || pn_is(a0, PT_list) || pn_is(a0, PT_tuple)) &&
                (pn_isnull(tmo) || pn_is(unparen(tmo), PT_none)) && (!w || strstr(w, "ALL_COMPLETED")))
                PN_FOR_NAMED(el, a0) {
                    pn e = unparen(el);
                    int ev = pn_is(e, PT_identifier) ? var_of(L, e) : -1;
                    if (ev >= 0) push_unique(&done, ev);
                }
        }
        int on = !pn_isnull(ci.recv) ? root_var(L, ci.recv) : -1;
        if (on >= 0 && (L->f->vars[on].flags & (VAR_SELF | VAR_PARAM))) on = -1;
        if (on < 0) {
            int_vec av = {0};
            pn args = pn_field(inner, PF_arguments);
            if (!pn_isnull(args)) ref_vars(L, args, &av);
            for (size_t k = 0; k < av.n && on < 0; k++)
                if (!(L->f->vars[av.v[k]].flags & (VAR_SELF | VAR_PARAM))) on = av.v[k];
            CA_VEC_FREE(av);
        }
        if (on >= 0) {
            cp->flags |= CP_ON_VAR;
            cp->var = on;
        }
        ir_node *r = emit(L, out, IR_AWAIT_CALL, aw, -1);
        r->flags = remf;
        r->text = norm_text(L, ci.fn, 120);
        await_call_facts(L, r, &ci);
        if (ensured_create(L, aw)) r->flags |= REM_ENSURED;
        if (ci.dotted && cat(L, CAT_EXECUTOR, ci.dotted)) {
            ir_node *x = ir_node_new(L->m, IR_EXECUTOR, site_of(L, aw));
            x->flags = remf;
            x->text = norm_text(L, ci.fn, 120);
            thread_target(L, out, x, inner);
            ir_block_push(L->m, out, x);
        }
    }
    for (size_t i = events_before; i < (size_t)out->n; i++) {
        ir_node *n = out->v[i];
        if (n->kind == IR_RELEASE || (n->kind == IR_CALL && (n->flags & (CALL_NAME_RELEASES | CALL_IN_CLEANUP))))
            cp->flags |= CP_RELEASES;
        if (n->kind == IR_RELEASE || (n->kind == IR_CALL && (n->flags & CALL_NAME_RELEASES)))
            cp->flags |= CP_RELEASE_STEP;
    }
    if (pass.n) cp->flags |= CP_RELEASE_STEP;
    if (deferred->n) cp->flags |= CP_RELEASES;
    cp->nvars = (int)pass.n;
    cp->vars = ca_arena_alloc(&L->m->arena, sizeof(int) * (pass.n ? pass.n : 1));
    for (size_t i = 0; i < pass.n; i++) cp->vars[i] = pass.v[i];
    /* `finally: await proc.wait()` is the cleanup's reaping step, as an
     * awaited release is: the process is not left unowned across it (one
     * the clause makes itself, a fallback run in a handler, is not) */
    if (exited >= 0 && L->in_cleanup && !made_in_clause(L, aw, L->f->vars[exited].name)) {
        emit(L, out, IR_DONE, aw, exited)->flags = DONE_EXITED;
        exited = -1;
    }
    ir_block_push(L->m, out, cp);
    /* element releases happen after the await: the rest are unowned meanwhile */
    for (size_t i = 0; i < deferred->n; i++) {
        ir_node *n = emit(L, out, IR_RELEASE, aw, deferred->v[i]);
        n->flags = REL_AWAITED | (L->in_cleanup ? REL_IN_CLEANUP : 0);
    }
    deferred->n = 0;
    for (size_t i = 0; i < done.n; i++) emit(L, out, IR_DONE, aw, done.v[i])->flags = DONE_SETTLED;
    if (exited >= 0) emit(L, out, IR_DONE, aw, exited)->flags = DONE_EXITED;
    CA_VEC_FREE(pass);
    CA_VEC_FREE(done);
}

static void bind_target(lower *L, ir_block *out, pn left, pn right, pn at);

/* Lower an expression's events in evaluation order (iterative post-order;
 * the ancestors live in our own frames, with the child each one is at).
 * Nested scopes (lambda, generator expressions, defs) are not entered. */
/* Does expression e name a cancellation class anywhere in it (`[event,
 * asyncio.CancelledError]`, `CancelledError()`)? */
static int names_cancel_class(lower *L, pn e)
{
    pn stack[64];
    int sp = 0;
    stack[sp++] = e;
    while (sp) {
        pn c = unparen(stack[--sp]);
        if (pn_is(c, PT_identifier) || pn_is(c, PT_attribute)) {
            char *d = dotted(L, c);
            if (d && cat(L, CAT_CANCEL_EXC, d) && !cat(L, CAT_NOT_CANCEL_EXC, d)) return 1;
            continue;
        }
        PN_FOR_NAMED(x, c) if (sp < 63) stack[sp++] = x;
    }
    return 0;
}

/* `mock.get.side_effect = [event, CancelledError]` or
 * `AsyncMock(side_effect=CancelledError)`: the function stages the
 * cancellation its handlers will catch */
static void note_staged_cancel(lower *L, pn name, pn value)
{
    if (L->f && !pn_isnull(name) && !pn_isnull(value) && strcmp(text(L, name), "side_effect") == 0 &&
        names_cancel_class(L, value))
        L->f->fflags |= FN_STAGES_CANCEL;
}

static void lower_expr(lower *L, ir_block *out, pn expr, pn stmt)
{
    (void)stmt;
    if (pn_isnull(expr)) return;
    typedef struct frame {
        pn n;
        pn child;              /* the named child being visited */
        int started;
        int shield;            /* a shield(...) call */
        size_t events_before;
        int_vec deferred;
    } frame;
    CA_VEC(frame) st = {0};
    frame f0 = {expr, &pt_null, 0, 0, (size_t)out->n, {0}};
    CA_VEC_PUSH(st, f0);
    while (st.n) {
        frame *top = &st.v[st.n - 1];
        pn n = top->n;
        pn ch = &pt_null;
        if (!top->started) {
            top->started = 1;
            int lazy = n->type == PT_generator_expression && !consumed_at_once(L, n);
            int opaque = n->type == PT_lambda || lazy || n->type == PT_function_definition ||
                         n->type == PT_class_definition;
            if (!opaque && st.n < 4096) ch = pn_first_named(n);
            /* (a lazy generator expression still evaluates its first
             * iterable where it is written: `(b.decode() for b in await
             * proc.communicate())` awaits here) */
            if (lazy && st.n < 4096) {
                PN_FOR_NAMED(c, n) {
                    if (!pn_is(c, PT_for_in_clause)) continue;
                    pn first = pn_field(c, PF_right);
                    if (!pn_isnull(first)) {
                        frame fr = {first, &pt_null, 0, 0, (size_t)out->n, {0}};
                        CA_VEC_PUSH(st, fr);
                        top = &st.v[st.n - 2];
                        top->child = &pt_null;
                    }
                    break;
                }
                continue;
            }
        } else if (pn_isnull(top->child)) {
            ch = &pt_null; /* (back from a lazy generator's first iterable) */
        } else {
            ch = pn_after_named(top->child); /* back from a child */
        }
        if (!pn_isnull(ch)) {
            top->child = ch;
            frame fr = {ch, &pt_null, 0, 0, (size_t)out->n, {0}};
            if (pn_is(ch, PT_call) && cat(L, CAT_SHIELD_CALL, dotted(L, pn_field(ch, PF_function)))) fr.shield = 1;
            CA_VEC_PUSH(st, fr);
            continue;
        }
        frame done = st.v[--st.n];
        if (n->type == PT_call) {
            /* deferred element releases belong to the enclosing await */
            int_vec *dest = &done.deferred;
            int awaited = 0, shielded = 0;
            for (size_t k = st.n; k-- > 0;) {
                if (pn_is(st.v[k].n, PT_await)) { dest = &st.v[k].deferred; awaited = 1; break; }
                if (!pn_is(st.v[k].n, PT_parenthesized_expression)) break;
            }
            for (size_t k = 0; k < st.n; k++) shielded |= st.v[k].shield;
            on_call(L, out, n, awaited, shielded, dest);
        } else if (n->type == PT_await) {
            on_await(L, out, n, done.events_before, &done.deferred);
        } else if (n->type == PT_for_in_clause && has_token(n, PT_async)) {
            /* an async comprehension steps its iterator in this coroutine */
            ir_node *cp = emit(L, out, IR_CHECKPOINT, n, -1);
            cp->flags = CP_ASYNC_FOR | (L->in_cleanup ? CP_IN_CLEANUP : 0);
            cp->text = norm_text(L, n, 160);
        } else if (n->type == PT_named_expression) {
            bind_target(L, out, pn_field(n, PF_name), pn_field(n, PF_value), n);
        } else if (n->type == PT_keyword_argument) {
            note_staged_cancel(L, pn_field(n, PF_name), pn_field(n, PF_value));
        } else if (n->type == PT_yield) {
            L->f->fflags |= FN_GENERATOR;
            int_vec vs = {0};
            PN_FOR_NAMED(y, n) value_vars(L, y, &vs);
            for (size_t i = 0; i < vs.n; i++) emit(L, out, IR_TRANSFER, n, vs.v[i])->flags = XFER_RETURN;
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
/* The values a record made by call r names by their identity: `Info(pid=
 * proc.pid)`, `Handle(sandbox_id=ref.id)` (catalog identity-attr). */
static void identity_vars(lower *L, pn r, int_vec *out)
{
    r = unparen(r);
    if (!pn_is(r, PT_call)) return;
    pn args = pn_field(r, PF_arguments);
    PN_FOR_NAMED(a, args) {
        pn av = unparen(pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
        if (pn_is(av, PT_attribute) && pn_is(unparen(pn_field(av, PF_object)), PT_identifier) &&
            cat(L, CAT_IDENTITY_ATTR, text(L, pn_field(av, PF_attribute)))) {
            int xv = var_of(L, unparen(pn_field(av, PF_object)));
            if (xv >= 0 && !(L->f->vars[xv].flags & (VAR_SELF | VAR_PARAM))) push_unique(out, xv);
        }
        /* (or read out of a mapping the maker returned: `containers.get(
         * container["Id"])`, the handle the client keeps for that id) */
        if (pn_is(av, PT_subscript) && pn_is(unparen(pn_field(av, PF_value)), PT_identifier)) {
            pn base = pn_field(av, PF_value), key = &pt_null;
            PN_FOR_NAMED(ix, av) {
                if (ix != base) key = unparen(ix);
            }
            if (!pn_isnull(key) && pn_is(key, PT_string)) {
                char kb[64];
                const char *kt = text(L, key);
                size_t kl = strlen(kt);
                if (kl >= 3 && kl - 2 < sizeof(kb) && (kt[0] == '"' || kt[0] == '\'') && kt[kl - 1] == kt[0]) {
                    memcpy(kb, kt + 1, kl - 2);
                    kb[kl - 2] = 0;
                    for (char *c = kb; *c; c++)
                        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
                    if (cat(L, CAT_IDENTITY_ATTR, kb)) {
                        int xv = var_of(L, unparen(pn_field(av, PF_value)));
                        if (xv >= 0 && !(L->f->vars[xv].flags & (VAR_SELF | VAR_PARAM))) push_unique(out, xv);
                    }
                }
            }
        }
    }
}

static void alias_into(lower *L, ir_block *out, pn right, int c, pn at)
{
    int_vec vs = {0};
    value_vars(L, right, &vs);
    identity_vars(L, right, &vs);
    for (size_t i = 0; i < vs.n; i++) {
        if (vs.v[i] == c) continue;
        ir_node *n = emit(L, out, IR_ALIAS, at, vs.v[i]);
        n->var2 = c;
    }
    CA_VEC_FREE(vs);
    pn r = unparen(right);
    if (pn_is(r, PT_call)) {
        pn args = pn_field(r, PF_arguments);
        PN_FOR_NAMED(a, args) {
            if (!pn_is(a, PT_keyword_argument)) continue;
            int mv = var_of(L, pn_field(a, PF_value));
            if (mv >= 0) remember_member(L, c, text(L, pn_field(a, PF_name)), mv);
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
    pn call;               /* the call that makes the value (wrappers taken off), or null */
} rhs_info;

static const char *builtin_wrappers[] = {"list", "tuple", "sorted", "set", "dict", "reversed", NULL};

static int bytes_contain(const char *s, size_t n, const char *word);

/* `a, b = await maker(...)` in def d, the one binding of each of those
 * names there, whose targets are the names of tuple t in order (`return a,
 * b`): that assignment's right side (the await); the null node otherwise. */
static pn unpacked_call(lower *L, pn d, pn t)
{
    uint32_t c = pn_named_count(t);
    pn body = pn_field(d, PF_body), none = &pt_null;
    if (c < 2 || pn_isnull(body)) return none;
    PN_FOR_NAMED(el, t) if (!pn_is(unparen(el), PT_identifier)) return none;
    const pt_node *endp = L->T->v + L->T->n;
    pn found = none;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type != PT_assignment) continue;
        pn left = unparen(pn_field(x, PF_left));
        if ((!pn_is(left, PT_pattern_list) && !pn_is(left, PT_tuple_pattern) && !pn_is(left, PT_tuple)) ||
            pn_named_count(left) != c)
            continue;
        int same = 1;
        for (uint32_t k = 0; k < c && same; k++) {
            pn a = unparen(pn_named_child(left, k)), b = unparen(pn_named_child(t, k));
            same = pn_is(a, PT_identifier) && strcmp(text(L, a), text(L, b)) == 0;
        }
        if (!same) continue;
        if (!pn_isnull(found)) return none;
        found = unparen(pn_field(x, PF_right));
    }
    if (pn_isnull(found)) return none;
    /* (besides, only `reader = writer = None` before a retry loop) */
    PN_FOR_NAMED(el, t) {
        const char *nm = text(L, unparen(el));
        int n = 0;
        for (pn x = body; x < endp && x->start < body->end; x++) {
            if (!binds_name(L, x, nm)) continue;
            pn up = pn_parent(x);
            pn r = pn_is(up, PT_assignment) && pn_field(up, PF_left) == x ? unparen(pn_field(up, PF_right)) : &pt_null;
            while (pn_is(r, PT_assignment)) r = unparen(pn_field(r, PF_right));
            if (!pn_is(r, PT_none)) n++;
        }
        if (n != 1) return none;
    }
    return found;
}

/* The catalogued maker (an `arg=await` one, a coroutine function) whose
 * result coroutine d returns directly on every return (`return await
 * asyncio.wait_for(asyncio.open_connection(...), t)`), or NULL. */
static const ca_cat_entry *def_delegates_maker(lower *L, pn d)
{
    if (!has_token(d, PT_async)) return NULL;
    const pt_node *endp = L->T->v + L->T->n;
    const ca_cat_entry *one = NULL;
    pn body = pn_field(d, PF_body);
    if (pn_isnull(body)) return NULL;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type == PT_function_definition || x->type == PT_lambda) return NULL;
        if (x->type != PT_return_statement) continue;
        pn v = unparen(pn_first_named(x));
        /* (`reader, writer = await asyncio.wait_for(asyncio.open_connection(
         * ...), t)` ... `return reader, writer`: the maker's tuple handed
         * back as it came, its names bound there alone) */
        if (pn_is(v, PT_tuple) || pn_is(v, PT_expression_list)) v = unpacked_call(L, d, v);
        if (pn_is(v, PT_await)) v = unparen(pn_first_named(v));
        for (int guard = 0; guard < 4 && pn_is(v, PT_call); guard++) {
            char *wd = dotted(L, pn_field(v, PF_function));
            if (!wd || !cat(L, CAT_TIMEOUT_CALL, wd)) break;
            v = unparen(first_pos_arg(v, 0));
        }
        if (!pn_is(v, PT_call)) return NULL;
        char *md = dotted(L, pn_field(v, PF_function));
        const ca_cat_entry *e = md ? cat(L, CAT_ACQUIRE, md) : NULL;
        if (!e || !e->arg || strcmp(e->arg, "await") != 0 || (one && one != e)) return NULL;
        one = e;
    }
    return one;
}

/* Is text [s, s+n) a plain-data type (`str`, `int`, `Optional[str]`,
 * `str | None`, `bytes`...): a value of it holds nothing to release?
 * (Not `bool`: a bool handed back with a resource says whether the
 * resource is there and this caller's, `conn, close_conn = await
 * parse(p)` ... `if close_conn: conn.close()`, and stays tied to it: the
 * walk reads its test as it reads a test of the resource itself.) */
static int scalar_type_text(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\n')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\n')) n--;
    static const char *const scalars[] = {"str", "int", "float", "bytes", "None", "complex", NULL};
    for (int i = 0; scalars[i]; i++)
        if (n == strlen(scalars[i]) && memcmp(s, scalars[i], n) == 0) return 1;
    /* (`Optional[str]`, `str | None`: each member scalar) */
    if (n > 10 && memcmp(s, "Optional[", 9) == 0 && s[n - 1] == ']') return scalar_type_text(s + 9, n - 10);
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '[') depth++;
        else if (s[i] == ']') depth--;
        else if (s[i] == '|' && depth == 0) return scalar_type_text(s, i) && scalar_type_text(s + i + 1, n - i - 1);
    }
    return 0;
}

/* The nodes of def d's own body in preorder, the bodies of functions and
 * lambdas nested in it skipped: `own_iter it = own_nodes(L, d); for (pn x
 * = own_next(&it); !pn_isnull(x); x = own_next(&it))`. */
typedef struct own_iter {
    const pt_node *end;
    uint32_t body_end, nested_end;
    pn x;
} own_iter;

static own_iter own_nodes(lower *L, pn d)
{
    own_iter it = {L->T->v + L->T->n, 0, 0, &pt_null};
    pn body = pn_field(d, PF_body);
    if (!pn_isnull(body)) {
        it.body_end = body->end;
        it.x = body;
    }
    return it;
}

static pn own_next(own_iter *it)
{
    for (; !pn_isnull(it->x) && it->x < it->end && it->x->start < it->body_end; it->x++) {
        pn x = it->x;
        if (x->type == PT_function_definition || x->type == PT_lambda) {
            if (x->end > it->nested_end) it->nested_end = x->end;
            continue;
        }
        if (x->start < it->nested_end) continue;
        it->x++;
        return x;
    }
    return &pt_null;
}

/* Does a local's name say it holds an error (`err`, `error`, `exc`,
 * `login_err`)? The error half of a Go-style result pair, `_, err = await
 * f.open(conn)`: an exception or None, whatever the call makes. */
static int error_var_name(const char *n)
{
    static const char *const exact[] = {"err", "error", "errors", "exc", "exception", "ex", "e", NULL};
    static const char *const suffix[] = {"_err", "_error", "_exc", "_exception", NULL};
    while (*n == '_') n++;
    for (int i = 0; exact[i]; i++)
        if (strcmp(n, exact[i]) == 0) return 1;
    size_t l = strlen(n);
    for (int i = 0; suffix[i]; i++) {
        size_t sl = strlen(suffix[i]);
        if (l > sl && strcmp(n + l - sl, suffix[i]) == 0) return 1;
    }
    return 0;
}

/* Is name a parameter of def d, or bound in d's own body only by loops
 * over a parameter (`for addr in addresses:`)? Either way a value the
 * caller handed in. */
static int def_param_value(lower *L, pn d, const char *name)
{
    int param = 0;
    PN_FOR_NAMED(pp, pn_field(d, PF_parameters)) {
        pn id = param_ident(pp);
        if (!pn_isnull(id) && pn_is(id, PT_identifier) && strcmp(text(L, id), name) == 0) param = 1;
    }
    int loops = 0;
    own_iter it = own_nodes(L, d);
    for (pn x = own_next(&it); !pn_isnull(x); x = own_next(&it)) {
        if (!binds_name(L, x, name)) continue;
        pn up = pn_parent(x);
        if (!pn_is(up, PT_for_statement) || pn_field(up, PF_left) != x) return 0;
        pn over = unparen(pn_field(up, PF_right));
        if (!pn_is(over, PT_identifier) || strcmp(text(L, over), name) == 0 || !def_param_value(L, d, text(L, over)))
            return 0;
        loops++;
    }
    return param ? loops == 0 : loops > 0;
}

/* Element k of c of what def d returns is plain data: its return
 * annotation is `tuple[Conn, str]` with a scalar type at k, or, with no
 * annotation, every return hands back a c-tuple with a string or number
 * literal at k (`return conn, f"req-{n}"`), or the caller's own value
 * there (`return sock, remote_address`, an element of the addresses it
 * was handed): nothing the call made. */
static int def_returns_data_at(lower *L, pn d, int k, int c)
{
    pn rt = pn_field(d, PF_return_type);
    if (!pn_isnull(rt)) {
        const char *t = L->src + rt->start;
        size_t n = rt->end - rt->start, skip = 0;
        if (n > 7 && memcmp(t, "typing.", 7) == 0) skip = 7;
        if (n - skip > 7 && (memcmp(t + skip, "tuple[", 6) == 0 || memcmp(t + skip, "Tuple[", 6) == 0) && t[n - 1] == ']') {
            const char *a = t + skip + 6, *e = t + n - 1;
            int depth = 0, idx = 0;
            const char *from = a, *part = NULL;
            size_t part_n = 0;
            for (const char *q = a; q <= e; q++) {
                if (q < e && (*q == '[' || *q == '(')) depth++;
                else if (q < e && (*q == ']' || *q == ')')) depth--;
                else if (q == e || (*q == ',' && depth == 0)) {
                    if (idx == k) part = from, part_n = (size_t)(q - from);
                    idx++;
                    from = q + 1;
                }
            }
            return idx == c && part && scalar_type_text(part, part_n);
        }
        /* (`-> Any`, `-> object`: the annotation says nothing of the parts;
         * the returns do) */
        if (!(n == 3 && memcmp(t, "Any", 3) == 0) && !(n == 10 && memcmp(t, "typing.Any", 10) == 0) &&
            !(n == 6 && memcmp(t, "object", 6) == 0))
            return 0;
    }
    int rets = 0;
    own_iter it = own_nodes(L, d);
    for (pn x = own_next(&it); !pn_isnull(x); x = own_next(&it)) {
        if (x->type != PT_return_statement) continue;
        pn v = unparen(pn_first_named(x));
        if ((!pn_is(v, PT_tuple) && !pn_is(v, PT_expression_list)) || (int)pn_named_count(v) != c) return 0;
        pn el = returned_element(x, k);
        if (!pn_is(el, PT_string) && !pn_is(el, PT_concatenated_string) && !pn_is(el, PT_integer) &&
            !pn_is(el, PT_float) && !(pn_is(el, PT_identifier) && def_param_value(L, d, text(L, el))))
            return 0;
        rets++;
    }
    return rets > 0;
}

/* How name is bound in def d (its body, not nested functions): 2 when some
 * assignment gives it a catalogued maker's result (`proc = await
 * asyncio.create_subprocess_exec(...)`), 3 when one gives it True or
 * False, 1 when one gives it an awaited call of another kind (a helper of
 * the tree may make something), 0 otherwise (parameters, literals, plain
 * calls). */
static int def_binding_kind(lower *L, pn d, const char *name)
{
    const pt_node *endp = L->T->v + L->T->n;
    if (pn_isnull(pn_field(d, PF_body))) return 1;
    int kind = 0;
    own_iter it = own_nodes(L, d);
    for (pn x = own_next(&it); !pn_isnull(x); x = own_next(&it)) {
        if (x->type == PT_for_statement || x->type == PT_with_item || x->type == PT_as_pattern) {
            /* (bound by a loop or a with: what it is, is not read here) */
            if (binds_name(L, x, name)) return 1;
            continue;
        }
        if (x->type != PT_assignment && x->type != PT_augmented_assignment) continue;
        pn left = unparen(pn_field(x, PF_left));
        int hit = 0;
        for (pn y = left; !pn_isnull(left) && y < endp && y->start < left->end; y++)
            if (y->type == PT_identifier && text_is(L, y, name)) hit = 1;
        if (!hit) continue;
        pn r = unparen(pn_field(x, PF_right));
        int awaited = pn_is(r, PT_await);
        if (awaited) r = unparen(pn_first_named(r));
        if (pn_is(r, PT_call)) {
            char *md = dotted(L, pn_field(r, PF_function));
            if (md && cat(L, CAT_ACQUIRE, md)) return 2;
        }
        if (awaited) kind = 1;
        /* (a flag, `owned = True`: it says whether the resource is the
         * caller's, and stays tied to it) */
        if (pn_is(r, PT_true) || pn_is(r, PT_false)) return 3;
    }
    return kind;
}

/* `proc, _input, command = await self._spawn_proc(...)` of a def of this
 * module named `name` whose every return hands back a c-tuple (or a tuple
 * of Nones) where one position holds a name bound to a catalogued maker's
 * result and every other position a literal, None, or a name no
 * assignment binds to such a result or to an awaited call: the position
 * carrying the resource, by every def of that name; -1 when none. */
static int def_tuple_carrier(lower *L, const char *name, int c)
{
    if (!name || c < 2) return -1;
    const pt_node *endp = L->T->v + L->T->n;
    int carrier = -1, defs = 0;
    for (pn d = L->T->v; d < endp; d++) {
        if (d->type != PT_function_definition || !text_is(L, pn_field(d, PF_name), name)) continue;
        defs++;
        if (pn_isnull(pn_field(d, PF_body))) return -1;
        int here = -1, rets = 0;
        own_iter it = own_nodes(L, d);
        for (pn x = own_next(&it); !pn_isnull(x); x = own_next(&it)) {
            if (x->type != PT_return_statement) continue;
            pn v = unparen(pn_first_named(x));
            if ((!pn_is(v, PT_tuple) && !pn_is(v, PT_expression_list)) || (int)pn_named_count(v) != c) return -1;
            rets++;
            for (int k = 0; k < c; k++) {
                pn el = returned_element(x, k);
                if (pn_is(el, PT_none) || pn_is(el, PT_string) || pn_is(el, PT_integer) || pn_is(el, PT_float))
                    continue;
                /* (a bool part stays tied to the resource: whether it is
                 * the caller's) */
                if (!pn_is(el, PT_identifier)) return -1;
                int bk = def_binding_kind(L, d, text(L, el));
                if (bk == 1 || bk == 3) return -1;
                if (bk == 2) {
                    if (here >= 0 && here != k) return -1;
                    here = k;
                }
            }
        }
        if (!rets || here < 0 || (carrier >= 0 && carrier != here)) return -1;
        carrier = here;
    }
    return defs ? carrier : -1;
}

/* `conn, request_id = await self._open(...)`: is element k of the c a
 * function of this module named `name` hands back plain data, by every
 * def of that name (def_returns_data_at)? That part holds none of the
 * resource the call makes. */
static int tuple_part_is_data(lower *L, const char *name, int k, int c)
{
    if (!name) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    int defs = 0;
    for (pn d = L->T->v; d < endp; d++) {
        if (d->type != PT_function_definition || !text_is(L, pn_field(d, PF_name), name)) continue;
        if (!def_returns_data_at(L, d, k, c)) return 0;
        defs++;
    }
    return defs > 0;
}

/* What every coroutine of this module named `name` hands back, when each
 * returns the same catalogued maker's result (def_delegates_maker); NULL
 * otherwise. The module's delegating coroutines are found once (few
 * modules have any). */
static const ca_cat_entry *delegated_maker(lower *L, const char *name)
{
    if (!L->makers_ready) {
        L->makers_ready = 1;
        const pt_node *endp = L->T->v + L->T->n;
        for (pn d = L->T->v; d < endp; d++) {
            if (d->type != PT_function_definition) continue;
            const ca_cat_entry *e = def_delegates_maker(L, d);
            if (e) CA_VEC_PUSH(L->makers, ((maker_ref){text(L, pn_field(d, PF_name)), e}));
        }
        /* (another def of the same name that does not delegate, or to
         * another maker, leaves the name saying nothing) */
        for (pn d = L->T->v; d < endp && L->makers.n; d++) {
            if (d->type != PT_function_definition) continue;
            for (size_t k = 0; k < L->makers.n; k++)
                if (L->makers.v[k].e && text_is(L, pn_field(d, PF_name), L->makers.v[k].name) &&
                    def_delegates_maker(L, d) != L->makers.v[k].e)
                    L->makers.v[k].e = NULL;
        }
    }
    for (size_t k = 0; k < L->makers.n; k++)
        if (strcmp(L->makers.v[k].name, name) == 0) return L->makers.v[k].e;
    return NULL;
}

/* A task's coroutine that makes a resource, read as if awaited: a
 * catalogued maker, a `create*`/`open*` name (not a plural batch, not a
 * catalogued not-remote output), or a coroutine of the module that hands
 * back a maker's result. What the task returns is that resource. */
static int coroutine_makes(lower *L, pn co)
{
    if (!pn_is(co, PT_call)) return 0;
    call_info cc = call_of(L, co);
    const ca_cat_entry *e = cc.dotted ? cat(L, CAT_ACQUIRE, cc.dotted) : NULL;
    if (e && !(e->kind && strcmp(e->kind, "task") == 0)) return 1;
    if (!cc.name) return 0;
    const ca_cat_entry *p = cat(L, CAT_ACQUIRE_PREFIX, bare_name(cc.name));
    if (p && !(p->kind && strcmp(p->kind, "remote") == 0 && ca_name_plural_create(bare_name(cc.name))) &&
        !cat(L, CAT_NOT_REMOTE, bare_name(cc.name)))
        return 1;
    return delegated_maker(L, cc.name) != NULL;
}


/* Is the receiver of dotted call d (all but its last part) one whose
 * creates are requests answered in the reply, leaving nothing to reap
 * (catalog request-receiver: `client.im.v1.message`, `*.completions`)? */
static int request_receiver(lower *L, const char *d)
{
    const char *dot = strrchr(d, '.');
    if (!dot || dot == d) return 0;
    char *recv = ca_arena_strndup(&L->m->arena, d, (size_t)(dot - d));
    return cat(L, CAT_REQUEST_RECEIVER, recv) != NULL;
}

static rhs_info classify_rhs(lower *L, pn right)
{
    rhs_info ri = {0, NULL, -1, -1, NULL, -1, 0, &pt_null};
    pn r = unparen(right);
    int awaited = 0;
    if (pn_is(r, PT_await)) {
        awaited = 1;
        r = unparen(pn_first_named(r));
    }
    for (int guard = 0; guard < 8 && pn_is(r, PT_call); guard++) {
        char *d = dotted(L, pn_field(r, PF_function));
        if (d && (cat(L, CAT_TIMEOUT_CALL, d) || cat(L, CAT_SHIELD_CALL, d))) {
            r = unparen(first_pos_arg(r, 0));
            continue;
        }
        if (calls_timeout_wrapper(L, r)) {
            r = wrapped_call(L, r);
            continue;
        }
        break;
    }
    if (pn_is(r, PT_list_comprehension) || pn_is(r, PT_set_comprehension)) {
        pn body = unparen(pn_first_named(r));
        if (pn_is(body, PT_call)) {
            call_info ci = call_of(L, body);
            const ca_cat_entry *e = ci.dotted ? cat(L, CAT_ACQUIRE, ci.dotted) : NULL;
            if (e && !(ci.name && cat(L, CAT_GROUP_SPAWN, ci.name) && !pn_isnull(ci.recv) &&
                       recv_is_group(L, ci.recv))) {
                ri.acq = ACQ_STRONG;
                ri.rkind = e->kind;
                /* `[create_task(s.close()) for s in socks]`: each task runs
                 * a release, as for one made by a single call */
                pn co = unparen(first_pos_arg(body, 0));
                if (e->kind && (strcmp(e->kind, "task") == 0 || strcmp(e->kind, "future") == 0) && pn_is(co, PT_call)) {
                    call_info cc = call_of(L, co);
                    if ((names_release(L, cc.name) && teardown_body(L, cc.name)) || releases_only_body(L, cc.name))
                        ri.acq |= ACQ_TEARDOWN;
                }
                /* `[tc.create_task(c) for c in cs]`: made by a local object,
                 * owned through it as one made by a single call is */
                if (!pn_isnull(ci.recv)) {
                    int rv = root_var(L, ci.recv);
                    if (rv >= 0 && !(L->f->vars[rv].flags & (VAR_SELF | VAR_PARAM))) ri.parent = rv;
                }
            }
        }
        return ri;
    }
    if (pn_is(r, PT_subscript)) {
        pn val = pn_field(r, PF_value);
        if (is_registry(L, val)) {
            ri.acq = ACQ_REGISTRY_READ;
            ri.registry = norm_text(L, val, 200);
        }
        return ri;
    }
    if (!pn_is(r, PT_call)) return ri;
    ri.is_call = 1;
    ri.call = r;
    call_info ci = call_of(L, r);
    /* list(self._reg.values()) */
    if (ci.dotted && !pn_isnull(first_pos_arg(r, 0))) {
        for (const char **w = builtin_wrappers; *w; w++) {
            if (strcmp(ci.dotted, *w) != 0) continue;
            pn in = unparen(first_pos_arg(r, 0));
            pn base = pn_is(in, PT_call) ? unparen(pn_field(in, PF_function)) : in;
            /* list(self._reg.keys()): the keys name the entries, they hold nothing */
            if (pn_is(base, PT_attribute) && pn_is(in, PT_call) &&
                strcmp(text(L, pn_field(base, PF_attribute)), "keys") == 0)
                break;
            if (pn_is(base, PT_attribute) && pn_is(in, PT_call)) base = pn_field(base, PF_object);
            if (is_registry(L, base)) {
                ri.acq = ACQ_REGISTRY_READ;
                ri.registry = norm_text(L, base, 200);
                return ri;
            }
        }
    }
    /* `peer = random.choice(peers)`: one element of its argument, read as
     * `peers[i]` is (a registry's element is a read of the registry;
     * anything else's is the owner's of the container) */
    if (ci.dotted && cat(L, CAT_ELEMENT_CALL, ci.dotted)) {
        pn a0 = unparen(first_pos_arg(r, 0));
        if (!pn_isnull(a0) && is_registry(L, a0)) {
            ri.acq = ACQ_REGISTRY_READ;
            ri.registry = norm_text(L, a0, 200);
        }
        return ri;
    }
    /* `key = str(message.id)`: plain data (after the registry reads above:
     * `list(self._reg.values())` is a read of the registry); a generic
     * specialised at the call, `create_memory_object_stream[Event](0)`,
     * is its function */
    if (ci.dotted && cat(L, CAT_PLAIN_CALL, ci.dotted)) return ri;
    if (!ci.dotted && pn_is(ci.fn, PT_subscript)) {
        char *gd = dotted(L, pn_field(ci.fn, PF_value));
        if (gd && cat(L, CAT_PLAIN_CALL, gd)) return ri;
    }
    int group_spawn = ci.name && !pn_isnull(ci.recv) && cat(L, CAT_GROUP_SPAWN, ci.name) &&
                      recv_is_group(L, ci.recv);
    if (group_spawn) return ri;
    /* `agent = kwargs.get("agent")`: a value the caller handed in by keyword,
     * looked up in the function's **kwargs: still the caller's */
    if (L->kwargs_name && ci.name && (strcmp(ci.name, "get") == 0 || strcmp(ci.name, "setdefault") == 0) &&
        pn_is(unparen(ci.recv), PT_identifier) && text_is(L, unparen(ci.recv), L->kwargs_name))
        return ri;
    if (!pn_isnull(ci.recv)) {
        int rv = root_var(L, ci.recv);
        if (rv >= 0 && !(L->f->vars[rv].flags & (VAR_SELF | VAR_PARAM))) ri.parent = rv;
        if (rv >= 0 && (L->f->vars[rv].flags & VAR_EXIT_STACK) && ci.name && cat(L, CAT_EXIT_STACK_ADOPT, ci.name)) {
            ri.adopt_stack = rv;
            ri.parent = -1;
            ri.acq = ACQ_STRONG;
            ri.rkind = "resource";
            pn a0 = unparen(first_pos_arg(r, 0));
            if (pn_is(a0, PT_call)) {
                call_info ai = call_of(L, a0);
                const ca_cat_entry *e = ai.dotted ? cat(L, CAT_ACQUIRE, ai.dotted) : NULL;
                if (e) ri.rkind = e->kind;
            }
            return ri;
        }
    }
    const ca_cat_entry *e = ci.dotted ? cat(L, CAT_ACQUIRE, ci.dotted) : NULL;
    /* (`arg=()`: a maker only when called with no arguments) */
    if (e && e->arg && strcmp(e->arg, "()") == 0 && !no_args(r)) e = NULL;
    /* (`arg=await`: a coroutine function; not awaited, the call made a
     * coroutine object, which holds nothing until something runs it) */
    if (e && e->arg && strcmp(e->arg, "await") == 0 && !awaited) e = NULL;
    /* (`ret = await asyncio.create_task(coro)`: what the task returned) */
    if (e && awaited && e->kind && strcmp(e->kind, "task") == 0) return ri;
    if (e && e->kind && strcmp(e->kind, "task") == 0 && receive_watcher(L, unparen(first_pos_arg(r, 0)))) return ri;
    if (e && e->kind && strcmp(e->kind, "task") == 0 && spawns_awaited_none(L, first_pos_arg(r, 0))) return ri;
    if (e && e->kind && strcmp(e->kind, "task") == 0 && spawns_timed_wait(L, first_pos_arg(r, 0))) return ri;
    if (e && e->kind && strcmp(e->kind, "task") == 0) {
        pn a0 = unparen(first_pos_arg(r, 0));
        /* `asyncio.create_task(asyncio.sleep(t))`: a timer task, which
         * holds nothing and ends by itself */
        char *ad = pn_is(a0, PT_call) ? dotted(L, pn_field(a0, PF_function)) : NULL;
        if (ad && strcmp(ad, "asyncio.sleep") == 0) return ri;
        /* `asyncio.ensure_future(fut)` of a parameter annotated as a
         * future or a task hands back that same object, the caller's:
         * nothing is made */
        int av = ci.name && strcmp(ci.name, "ensure_future") == 0 && pn_is(a0, PT_identifier) ? var_of(L, a0) : -1;
        const char *ac = av >= 0 && (L->f->vars[av].flags & VAR_PARAM)
                             ? map_get(L->param_class.v, L->param_class.n, text(L, a0))
                             : NULL;
        const char *last = last_component(ac);
        if (last && (strcmp(last, "Future") == 0 || strcmp(last, "Task") == 0)) return ri;
    }
    if (e) {
        ri.acq = ACQ_STRONG;
        ri.rkind = e->kind;
        ri.tuple_index = e->tuple_index;
        pn co = unparen(first_pos_arg(r, 0));
        if (e->kind && (strcmp(e->kind, "task") == 0 || strcmp(e->kind, "future") == 0) && pn_is(co, PT_call)) {
            call_info cc = call_of(L, co);
            if ((names_release(L, cc.name) && teardown_body(L, cc.name)) || releases_only_body(L, cc.name))
                ri.acq |= ACQ_TEARDOWN;
            else if (coroutine_makes(L, co))
                ri.acq |= ACQ_MAKER;
        }
        return ri;
    }
    /* `reader, writer = await initiator.connect()` of a coroutine of this
     * module that hands back a catalogued maker's result (`return await
     * asyncio.wait_for(asyncio.open_connection(...), t)`): what it returns
     * is that maker's, element for element (tuple=) */
    if (awaited && ci.name && (e = delegated_maker(L, ci.name)) != NULL) {
        ri.acq = ACQ_STRONG;
        ri.rkind = e->kind;
        ri.tuple_index = e->tuple_index;
        return ri;
    }
    if (awaited && ci.dotted && cat(L, CAT_EXECUTOR, ci.dotted)) {
        ri.acq = ACQ_WEAK | ACQ_EXECUTOR;
        ri.rkind = "resource";
        for (int k = 0; k < 2; k++) {
            pn fa = first_pos_arg(r, k);
            char *fd = pn_isnull(fa) ? NULL : dotted(L, fa);
            /* (`run_in_executor(None, s.connect_ex, addr)`: a catalogued
             * plain call hands back data, whatever its name sounds like) */
            if (fd && cat(L, CAT_PLAIN_CALL, fd)) continue;
            const ca_cat_entry *fe = fd ? cat(L, CAT_ACQUIRE, fd) : NULL;
            /* (a name that only sounds like a maker, `_open_file`, needs
             * evidence, as for a call in the event loop) */
            unsigned heur = 0;
            /* (so does one of the file's own package, imported from it:
             * `from .ops import create_client`, whatever the name says,
             * the tree's code decides) */
            if (!fe && fd && (fe = cat(L, CAT_ACQUIRE_PREFIX, bare_name(last_component(fd)))) &&
                (defined_here(L, last_component(fd)) ||
                 (pn_is(unparen(fa), PT_identifier) && imported_module(L, text(L, unparen(fa))))))
                heur = ACQ_HEURISTIC;
            /* (`admin.create_topics`: a plural create, a batch; and a name
             * the catalog says creates nothing remote, as for an awaited
             * call: `service.create_embedding`) */
            if (fe && fd && !cat(L, CAT_ACQUIRE, fd) && fe->kind && strcmp(fe->kind, "remote") == 0 &&
                (ca_name_plural_create(bare_name(last_component(fd))) ||
                 cat(L, CAT_NOT_REMOTE, bare_name(last_component(fd))) || request_receiver(L, fd)))
                fe = NULL;
            /* (`to_thread(agent.start, msg)`: a name that starts something,
             * run in a thread, mostly starts its receiver and hands back
             * what the run produced (its output, a job's id), not a handle
             * the caller owns; by its name alone it needs evidence too) */
            if (fe && fd && !cat(L, CAT_ACQUIRE, fd) && fe->kind && strcmp(fe->kind, "session") == 0)
                heur = ACQ_HEURISTIC;
            /* (`run_in_executor(None, Credential.create, offer)`: a class's
             * alternative constructor, known by its name alone, builds an
             * object in this process; a client's `create_vpc` makes
             * something elsewhere) */
            if (fe && fd && !cat(L, CAT_ACQUIRE, fd) && ca_name_class_method(fd)) fe = NULL;
            if (fe) {
                ri.acq = ACQ_STRONG | ACQ_EXECUTOR | heur;
                ri.rkind = fe->kind;
            }
        }
        ri.parent = -1;
        return ri;
    }
    if (ci.name && !pn_isnull(ci.recv) && is_registry(L, ci.recv)) {
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
        /* (`tools = await adapter._create_tools_from_connectors(cs)`,
         * `create_messages(m)`: a create whose noun is plural makes a batch,
         * a list of things, not one handle the function owns; the name
         * says nothing of a resource, and a plain call result it is) */
        if (p && p->kind && strcmp(p->kind, "remote") == 0 && ca_name_plural_create(bare_name(ci.name))) p = NULL;
        if (p && !cat(L, CAT_NOT_REMOTE, bare_name(ci.name))) {
            ri.acq = ACQ_STRONG | ACQ_HEURISTIC;
            ri.rkind = p->kind;
            /* (`browser = await p.chromium.launch()`: whatever its verb
             * says, a catalogued child-maker's result goes with its
             * receiver, below) */
            if (ci.dotted && !pn_isnull(ci.recv) && cat(L, CAT_CHILD_MAKER, ci.dotted)) ri.acq |= ACQ_CHILD;
            return ri;
        }
    }
    if (ci.name) {
        const char *p = ci.name;
        while (*p == '_') p++;
        /* `e = AssistantOtherError(exception=e)`: an exception object,
         * whatever a handler hands it to */
        if (exception_class_name(p)) return ri;
        /* `application, page = self.inspector.find_page_id(pid)`, `row =
         * await conn.fetchrow(q)`: a call that finds an existing object (a
         * lookup verb, but `get`, which factories and pools use too) hands
         * back something its keeper owns, or data; not a find-or-make,
         * `find_or_create_session`, a later word the catalog reads as
         * making (acquire-prefix) */
        char first[32];
        first_word(p, first, sizeof(first));
        int makes = 0;
        for (const char *w = strchr(p, '_'); w && !makes; w = strchr(w + 1, '_'))
            makes = w[1] && cat(L, CAT_ACQUIRE_PREFIX, w + 1) != NULL;
        if (strcmp(first, "get") != 0 && !makes && cat(L, CAT_LOOKUP_VERB, first)) return ri;
    }
    ri.acq = ACQ_WEAK;
    ri.rkind = "resource";
    /* `page = await context.new_page()`: a tab inside its context, which
     * lists it and closes it with itself (catalog child-maker) */
    if (ci.dotted && !pn_isnull(ci.recv) && cat(L, CAT_CHILD_MAKER, ci.dotted)) ri.acq |= ACQ_CHILD;
    /* `msg = await ctx.send(text)`: the message a send posted (or a
     * helper's, `msg = await edit_or_reply(event, text)`) */
    if (ci.name && message_verb(L, ci.name)) ri.acq |= ACQ_MESSAGE;
    return ri;
}

/* A call with no arguments at all: `asyncio.Queue()`. */
static int no_args(pn call)
{
    if (!pn_is(call, PT_call)) return 0;
    pn args = pn_field(call, PF_arguments);
    return pn_isnull(args) || pn_isnull(pn_first_named(args));
}

static int annot_plain(lower *L, pn t, const char **one);

/* The class a call of this module's code is annotated to return: `await
 * self._start(...)` where the class's `_start` says `-> Handle`, or a
 * module function's `-> Handle`. NULL when it names none (or a plain type). */


/* `def _build_runner(w): return Runner(store=w.store)`, not annotated: a
 * plain (not async) function whose every return builds an object of one
 * class (a capitalized name) in place; that class, or NULL. */
static const char *built_class(lower *L, pn def)
{
    if (has_token(def, PT_async)) return NULL;
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body)) return NULL;
    const pt_node *endp = L->T->v + L->T->n;
    const char *cls = NULL;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type == PT_function_definition || x->type == PT_lambda || x->type == PT_class_definition) {
            uint32_t end = x->end; /* (its returns are its own) */
            while (x + 1 < endp && (x + 1)->start < end) x++;
            continue;
        }
        if (x->type == PT_yield) return NULL;
        if (x->type != PT_return_statement) continue;
        pn v = unparen(pn_first_named(x));
        if (pn_isnull(v) || !pn_is(v, PT_call)) return NULL;
        pn cf = unparen(pn_field(v, PF_function));
        if (!pn_is(cf, PT_identifier) && !pn_is(cf, PT_attribute)) return NULL;
        const char *d = dotted(L, cf);
        const char *lc = d ? last_component(d) : NULL;
        if (!lc || lc[0] < 'A' || lc[0] > 'Z' || (cls && strcmp(cls, d) != 0)) return NULL;
        cls = d;
    }
    return cls;
}

static const char *returned_class(lower *L, pn call)
{
    call_info ci = call_of(L, call);
    if (!ci.name) return NULL;
    const char *prefix = NULL;
    if (!pn_isnull(ci.recv)) {
        pn rv = unparen(ci.recv);
        if (!pn_is(rv, PT_identifier) || strcmp(text(L, rv), "self") != 0 || !L->class_name) return NULL;
        prefix = L->class_name;
    }
    for (size_t i = 0; i < L->pending.n; i++) {
        pn d = L->pending.v[i].node;
        if (!pn_is(d, PT_function_definition) || strcmp(text(L, pn_field(d, PF_name)), ci.name) != 0) continue;
        const char *pre = L->pending.v[i].prefix;
        size_t pl = prefix ? strlen(prefix) : 0;
        if (prefix ? (strncmp(pre, prefix, pl) != 0 || strcmp(pre + pl, ".") != 0) : pre[0] != 0) continue;
        pn rt = pn_field(d, PF_return_type);
        const char *one = NULL;
        if (pn_isnull(rt)) return built_class(L, d);
        if (annot_plain(L, rt, &one)) return NULL;
        return one;
    }
    return NULL;
}

static void record_ctor(lower *L, int v, pn right)
{
    pn r = unparen(right);
    char *d = NULL;
    if (pn_is(r, PT_await)) {
        /* `h = await self._start(...)` annotated `-> Handle`: h is a Handle */
        pn c = unparen(pn_first_named(r));
        const char *rc = pn_is(c, PT_call) ? returned_class(L, c) : NULL;
        /* `response = await client.request(...)` of `client =
         * httpx.AsyncClient(...)`: made by that library maker's method,
         * "httpx.AsyncClient.request" (what the catalog says of a value so
         * made: `...request(*).aread` reads a body already read) */
        if (!rc && pn_is(c, PT_call)) {
            call_info mc = call_of(L, c);
            pn rv = pn_isnull(mc.recv) ? mc.recv : unparen(mc.recv);
            const char *mk = mc.name && !pn_isnull(rv) && pn_is(rv, PT_identifier) && var_of(L, rv) >= 0
                                 ? map_get(L->locals_ctor.v, L->locals_ctor.n, text(L, rv))
                                 : NULL;
            if (mk && strchr(mk, '.') && !strchr(mk, '(')) {
                ca_sb q = {0};
                ca_sb_addf(&q, "%s.%s", mk, mc.name);
                rc = ca_arena_strdup(&L->m->arena, ca_sb_str(&q));
                ca_sb_release(&q);
            }
        }
        if (v >= 0) {
            /* (a binding hides what an earlier one of the name was made by) */
            name_map e = {L->f->vars[v].name, rc ? rc : "", 0, 0};
            CA_VEC_PUSH(L->locals_ctor, e);
            ca_sb key = {0};
            ca_sb_addf(&key, "%s()", L->f->vars[v].name);
            name_map e2 = {ca_arena_strdup(&L->m->arena, ca_sb_str(&key)), "", 0, 0};
            ca_sb_release(&key);
            CA_VEC_PUSH(L->locals_ctor, e2);
        }
        return;
    }
    if (pn_is(r, PT_call)) {
        const char *rc = returned_class(L, r);
        if (rc) d = (char *)rc;
        else d = dotted(L, pn_field(r, PF_function));
    }
    else if (pn_is(r, PT_attribute) || pn_is(r, PT_identifier)) d = dotted(L, r);
    if (!d || v < 0) return;
    name_map e = {L->f->vars[v].name, d, 0, 0};
    CA_VEC_PUSH(L->locals_ctor, e);
    /* "name()": made with no arguments; a later binding of the name without
     * that form hides it (map_get finds the last entry of the name first) */
    ca_sb key = {0};
    ca_sb_addf(&key, "%s()", L->f->vars[v].name);
    const char *bare = no_args(r) ? d : "";
    /* `q = self._receive_queue` of `self._receive_queue = asyncio.Queue()`:
     * the same queue, made with no arguments */
    if (pn_is(r, PT_attribute)) {
        const char *b = recv_made_bare(L, r);
        if (b) bare = b;
    }
    name_map e2 = {ca_arena_strdup(&L->m->arena, ca_sb_str(&key)), bare, 0, 0};
    ca_sb_release(&key);
    CA_VEC_PUSH(L->locals_ctor, e2);
}

/* The constructor the receiver of a method call was made with, when it was
 * called with no arguments: `self._q` of a class whose method assigns
 * `self._q = asyncio.Queue()`, or a local `q = asyncio.Queue()`. */
static const char *recv_made_bare(lower *L, pn recv)
{
    pn r = unparen(recv);
    ca_sb key = {0};
    const char *d = NULL;
    if (pn_is(r, PT_identifier)) {
        ca_sb_addf(&key, "%s()", text(L, r));
        d = map_get(L->locals_ctor.v, L->locals_ctor.n, ca_sb_str(&key));
    } else if (pn_is(r, PT_attribute) && self_class(L)) {
        char *obj = text(L, unparen(pn_field(r, PF_object)));
        if (strcmp(obj, "self") == 0 || strcmp(obj, "cls") == 0) {
            ca_sb_addf(&key, "%s.%s()", self_class(L), text(L, pn_field(r, PF_attribute)));
            d = map_get(L->class_attrs.v, L->class_attrs.n, ca_sb_str(&key));
        }
    }
    ca_sb_release(&key);
    return d && *d ? d : NULL;
}

/* Is `name` bound in def exactly once (binds_name; nested defs aside), by
 * an assignment whose value says every element is a finished task: a
 * comprehension over tasks filtered by their own done-test (`{t for t in
 * tasks if t.done()}`), or the first of the two sets `asyncio.wait` returns
 * (`done, _ = await asyncio.wait(ts)`)? */
static int finished_set(lower *L, pn def, const char *name)
{
    const pt_node *endp = L->T->v + L->T->n;
    int binds = 0, finished = 0;
    uint32_t nested_end = 0;
    for (pn y = def + 1; y < endp && y->start < def->end; y++) {
        if (in_nested_def(y, &nested_end) || !binds_name(L, y, name)) continue;
        if (++binds > 1) return 0;
        pn up = pn_parent(y);
        while (pn_is(up, PT_pattern_list) || pn_is(up, PT_tuple_pattern) || pn_is(up, PT_parenthesized_expression))
            up = pn_parent(up);
        if (!pn_is(up, PT_assignment)) return 0;
        pn left = unparen(pn_field(up, PF_left)), right = unparen(pn_field(up, PF_right));
        if ((pn_is(right, PT_set_comprehension) || pn_is(right, PT_list_comprehension)) && left == y) {
            /* `{t for t in tasks if t.done()}` */
            const char *tgt = NULL;
            int tested = 0;
            PN_FOR_NAMED(c, right) {
                if (pn_is(c, PT_for_in_clause)) {
                    pn l = unparen(pn_field(c, PF_left));
                    tgt = pn_is(l, PT_identifier) ? text(L, l) : NULL;
                } else if (pn_is(c, PT_if_clause) && tgt) {
                    pn t = unparen(pn_first_named(c));
                    pn fn = pn_is(t, PT_call) ? unparen(pn_field(t, PF_function)) : &pt_null;
                    if (pn_is(fn, PT_attribute) && pn_isnull(first_pos_arg(t, 0)) &&
                        pn_is(unparen(pn_field(fn, PF_object)), PT_identifier) &&
                        text_is(L, unparen(pn_field(fn, PF_object)), tgt) &&
                        text_is(L, pn_field(fn, PF_attribute), "done"))
                        tested = 1;
                }
            }
            pn body0 = pn_first_named(right);
            finished = tested && tgt && pn_is(unparen(body0), PT_identifier) && text_is(L, unparen(body0), tgt);
        } else if (pn_is(right, PT_await) && (pn_is(left, PT_pattern_list) || pn_is(left, PT_tuple_pattern)) &&
                   pn_named_count(left) == 2 && unparen(pn_first_named(left)) == y) {
            /* `done, pending = await asyncio.wait(tasks, ...)` */
            pn c = unparen(pn_first_named(right));
            char *d = pn_is(c, PT_call) ? dotted(L, pn_field(c, PF_function)) : NULL;
            finished = d && (strcmp(d, "asyncio.wait") == 0 || strcmp(d, "asyncio.tasks.wait") == 0);
        }
    }
    return binds == 1 && finished;
}

/* `[t] = done`, `t, = done`, `t = done.pop()`, `t = next(iter(done))`:
 * the one binding of name in def, taking an element of a set named over
 * (or the null node). */
static pn unpacked_from(lower *L, pn def, const char *name)
{
    pn found = &pt_null;
    int binds = 0;
    const pt_node *endp = L->T->v + L->T->n;
    pn body = pn_field(def, PF_body);
    for (pn y = body; !pn_isnull(body) && y < endp && y->start < body->end; y++) {
        if (!binds_name(L, y, name)) continue;
        binds++;
        pn a = pn_parent(y);
        while (!pn_isnull(a) && (pn_is(a, PT_pattern_list) || pn_is(a, PT_tuple_pattern) || pn_is(a, PT_list_pattern)))
            a = pn_parent(a);
        if (!pn_is(a, PT_assignment)) continue;
        pn left = unparen(pn_field(a, PF_left)), r = unparen(pn_field(a, PF_right));
        int single = pn_is(left, PT_identifier) ||
                     ((pn_is(left, PT_pattern_list) || pn_is(left, PT_tuple_pattern) || pn_is(left, PT_list_pattern)) &&
                      pn_named_count(left) == 1);
        if (!single) continue;
        if (!pn_is(left, PT_identifier) && pn_is(r, PT_identifier)) found = r;
        else if (pn_is(left, PT_identifier) && pn_is(r, PT_call)) {
            pn fn = unparen(pn_field(r, PF_function));
            /* done.pop() */
            if (pn_is(fn, PT_attribute) && text_is(L, pn_field(fn, PF_attribute), "pop") &&
                pn_is(unparen(pn_field(fn, PF_object)), PT_identifier) && pn_isnull(first_pos_arg(r, 0)))
                found = unparen(pn_field(fn, PF_object));
            /* next(iter(done)) */
            pn a0 = unparen(first_pos_arg(r, 0));
            if (pn_is(fn, PT_identifier) && text_is(L, fn, "next") && pn_is(a0, PT_call) &&
                text_is(L, unparen(pn_field(a0, PF_function)), "iter") &&
                pn_is(unparen(first_pos_arg(a0, 0)), PT_identifier))
                found = unparen(first_pos_arg(a0, 0));
        }
    }
    return binds == 1 ? found : &pt_null;
}

/* `await task` right in `for task in S:` (task not bound again in the
 * loop), or of a task taken out of S once (unpacked_from), where S is a
 * finished set (finished_set) of the enclosing def. */
static int finished_element(lower *L, pn aw, pn id)
{
    const char *name = text(L, id);
    {
        /* (an element unpacked from the finished set, not looped over) */
        pn def = pn_parent(aw);
        while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
        pn over = pn_isnull(def) ? def : unpacked_from(L, def, name);
        if (!pn_isnull(over) && finished_set(L, def, text(L, over))) return 1;
    }
    pn loop = &pt_null;
    for (pn up = pn_parent(aw); !pn_isnull(up); up = pn_parent(up)) {
        if (pn_is(up, PT_function_definition) || pn_is(up, PT_lambda) || pn_is(up, PT_class_definition)) break;
        if (pn_is(up, PT_for_statement)) {
            pn l = unparen(pn_field(up, PF_left));
            if (pn_is(l, PT_identifier) && text_is(L, l, name)) {
                loop = up;
                break;
            }
        }
    }
    if (pn_isnull(loop)) return 0;
    pn over = unparen(pn_field(loop, PF_right));
    if (!pn_is(over, PT_identifier)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    pn lb = pn_field(loop, PF_body);
    for (pn y = lb; y < endp && y->start < lb->end; y++)
        if (binds_name(L, y, name)) return 0;
    pn def = pn_parent(loop);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    return !pn_isnull(def) && finished_set(L, def, text(L, over));
}

/* Is await aw (of the task named by id) in the body of an `if` whose
 * condition says that task is done (`if task.done():`, or an operand of an
 * `and` chain), with no loop between the test and the await and no binding
 * of the name before it? A finished task stays finished: awaiting it returns
 * its result at once, and no cancellation can be delivered there. */
static int done_guarded(lower *L, pn aw, pn id)
{
    const char *name = text(L, id);
    const pt_node *endp = L->T->v + L->T->n;
    for (pn up = pn_parent(aw); !pn_isnull(up); up = pn_parent(up)) {
        if (pn_is(up, PT_function_definition) || pn_is(up, PT_lambda) || pn_is(up, PT_class_definition) ||
            pn_is(up, PT_for_statement) || pn_is(up, PT_while_statement))
            return 0;
        if (!pn_is(up, PT_if_statement)) continue;
        pn body = pn_field(up, PF_consequence);
        if (pn_isnull(body) || aw->start < body->start || aw->start >= body->end) continue;
        pn cond = pn_field(up, PF_condition);
        if (pn_isnull(cond)) return 0;
        for (pn y = body; y < endp && y->start < aw->start; y++)
            if (binds_name(L, y, name)) return 0;
        ca_sb want = {0};
        ca_sb_addf(&want, "%s.done()", name);
        const char *w = ca_sb_str(&want);
        size_t wl = strlen(w);
        const char *ct = norm_text(L, cond, 400);
        int ok = 0;
        for (const char *p = strstr(ct, w); p && !ok; p = strstr(p + 1, w)) {
            /* (a whole operand of an `and` chain, not `not t.done()`) */
            int start = p == ct || (p - ct >= 4 && strncmp(p - 4, "and ", 4) == 0);
            int end = p[wl] == 0 || strncmp(p + wl, " and", 4) == 0;
            ok = start && end;
        }
        ca_sb_release(&want);
        if (ok && strstr(ct, " or ")) ok = 0;
        return ok;
    }
    return 0;
}

/* A function defined in the function being lowered, by name (a def
 * statement met before this point), or null. */
static pn local_def(lower *L, const char *name)
{
    ca_sb sb = {0};
    ca_sb_addf(&sb, "%s.<locals>.", L->f->qualname);
    pn found = &pt_null;
    for (size_t i = L->pending.n; i-- > 0 && pn_isnull(found);) {
        const pending_def *p = &L->pending.v[i];
        if (!pn_is(p->node, PT_function_definition) || strcmp(p->prefix, ca_sb_str(&sb)) != 0) continue;
        pn nm = pn_field(p->node, PF_name);
        if (nm->end - nm->start == strlen(name) && memcmp(L->src + nm->start, name, strlen(name)) == 0)
            found = p->node;
    }
    ca_sb_release(&sb);
    return found;
}

/* The variables of this function a local function's body mentions (its
 * closure, read by whoever runs it). The flat tree is in preorder: the
 * body's nodes follow the def's. */
static void closure_vars(lower *L, pn def, int_vec *out)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = def + 1; x < endp && x->start < def->end; x++)
        if (x->type == PT_identifier) push_unique(out, var_of(L, x));
}

/* For `create_task(local())` (a spawner the catalog names) of a function
 * defined in this one: the variables of this function the local one
 * closes or enters as a context manager in its body (`async with
 * server:`, `server.close()`), which the task it runs owns. */
static void closure_released_vars(lower *L, pn right, int_vec *out)
{
    pn r = unparen(right);
    if (!pn_is(r, PT_call)) return;
    call_info ci = call_of(L, r);
    if (!ci.name || !spawns_task(L, &ci, NULL, 0)) return;
    pn c = unparen(first_pos_arg(r, 0));
    if (!pn_is(c, PT_call)) return;
    pn fn = unparen(pn_field(c, PF_function));
    if (!pn_is(fn, PT_identifier)) return;
    pn def = local_def(L, text(L, fn));
    if (pn_isnull(def)) return;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = def + 1; x < endp && x->start < def->end; x++) {
        pn id = &pt_null;
        if (x->type == PT_with_item) {
            pn v = unparen(pn_field(x, PF_value));
            if (pn_is(v, PT_as_pattern)) v = unparen(pn_first_named(v));
            if (pn_is(v, PT_identifier)) id = v;
        } else if (x->type == PT_call) {
            pn f = unparen(pn_field(x, PF_function));
            if (pn_is(f, PT_attribute) && pn_is(unparen(pn_field(f, PF_object)), PT_identifier) &&
                cat(L, CAT_RELEASE_METHOD, text(L, pn_field(f, PF_attribute))))
                id = unparen(pn_field(f, PF_object));
        }
        if (pn_isnull(id)) continue;
        /* (a name the local function binds itself is its own) */
        const char *nm = text(L, id);
        int own = 0;
        pn params = pn_field(def, PF_parameters);
        if (!pn_isnull(params))
            PN_FOR_NAMED(pp, params) {
                pn pid = param_ident(pp);
                if (!pn_isnull(pid) && pn_is(pid, PT_identifier) && strcmp(text(L, pid), nm) == 0) own = 1;
            }
        for (pn y = def + 1; !own && y < endp && y->start < def->end; y++) own = binds_name(L, y, nm);
        if (own) continue;
        int v = var_of(L, id);
        if (v >= 0 && !(L->f->vars[v].flags & (VAR_SELF | VAR_PARAM))) push_unique(out, v);
    }
}

/* What the making of a value refers to: the arguments of the call (through
 * await and timeout/shield wrappers) and, for a call of a local function
 * among them, that function's closure: `create_task(pump(proc.stdout))`,
 * `create_task(_drain())` where `_drain` reads `proc`. */
static void making_refs(lower *L, pn right, int_vec *out)
{
    pn r = unparen(right);
    if (pn_is(r, PT_await)) r = unparen(pn_first_named(r));
    if (!pn_is(r, PT_call)) return;
    pn args = pn_field(r, PF_arguments);
    if (pn_isnull(args)) return;
    ref_vars(L, args, out);
    PN_FOR_NAMED(a, args) {
        pn c = unparen(pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
        if (!pn_is(c, PT_call)) continue;
        pn fn = unparen(pn_field(c, PF_function));
        if (!pn_is(fn, PT_identifier)) continue;
        pn def = local_def(L, text(L, fn));
        if (!pn_isnull(def)) closure_vars(L, def, out);
    }
}

/* The IR_CALL lowered for call node c (lowering emits it before the
 * binding), made now when lowering had no reason to: the engine asks the
 * callee what it returns. */
static ir_node *making_call(lower *L, ir_block *out, pn c)
{
    for (int i = out->n - 1; i >= 0; i--)
        if (out->v[i]->kind == IR_CALL && out->v[i]->site.start == c->start && out->v[i]->site.end == c->end)
            return out->v[i];
    call_info ci = call_of(L, c);
    ir_node *n = emit(L, out, IR_CALL, c, -1);
    n->text = ci.dotted ? ci.dotted : text(L, ci.fn);
    n->flags = CALL_VALUE_ONLY;
    n->vars = ca_arena_alloc(&L->m->arena, sizeof(int));
    n->kwnames = ca_arena_alloc(&L->m->arena, sizeof(char *));
    return n;
}

static int declared_plain(lower *L, int v)
{
    for (size_t i = 0; i < L->plain_decl.n; i++)
        if (strcmp(L->plain_decl.v[i], L->f->vars[v].name) == 0) return 1;
    return 0;
}

/* Does call c create a file at the path `name` names: `open(name, "wb")`
 * (a mode that writes, appends or creates), `name.open("w")`,
 * `name.write_text(...)`, `name.write_bytes(...)`, `name.touch()`? */
static int creates_file_at(lower *L, pn c, const char *name)
{
    pn f = unparen(pn_field(c, PF_function));
    pn mode = &pt_null;
    if (pn_is(f, PT_identifier) && text_is(L, f, "open")) {
        pn a0 = unparen(first_pos_arg(c, 0));
        if (!pn_is(a0, PT_identifier) || !text_is(L, a0, name)) return 0;
        mode = first_pos_arg(c, 1);
        if (pn_isnull(mode)) mode = kw_arg(L, c, "mode");
    } else if (pn_is(f, PT_attribute)) {
        pn o = unparen(pn_field(f, PF_object));
        if (!pn_is(o, PT_identifier) || !text_is(L, o, name)) return 0;
        const char *m = text(L, pn_field(f, PF_attribute));
        if (strcmp(m, "write_text") == 0 || strcmp(m, "write_bytes") == 0 || strcmp(m, "touch") == 0) return 1;
        if (strcmp(m, "open") != 0) return 0;
        mode = first_pos_arg(c, 0);
        if (pn_isnull(mode)) mode = kw_arg(L, c, "mode");
    } else {
        return 0;
    }
    mode = unparen(mode);
    if (!pn_is(mode, PT_string)) return 0;
    const char *t = text(L, mode);
    return strpbrk(t, "wxa") != NULL;
}

/* Does node x bind `name` again: `name = ...`, `for name in ...`, `for i,
 * name in ...`, `a, name = ...`? */
static int rebinds(lower *L, pn x, const char *name)
{
    if (x->type != PT_assignment && x->type != PT_for_statement) return 0;
    pn left = unparen(pn_field(x, PF_left));
    if (pn_is(left, PT_identifier)) return text_is(L, left, name);
    if (pn_is(left, PT_pattern_list) || pn_is(left, PT_tuple_pattern))
        PN_FOR_NAMED(t, left) {
            if (pn_is(t, PT_identifier) && text_is(L, t, name)) return 1;
        }
    return 0;
}

/* Does `pred` hold at some node after `at` in its function's body, before
 * any other binding of `name` (rebinds)? */
static int used_later(lower *L, pn at, const char *name, int (*pred)(lower *, pn, const char *))
{
    pn body = enclosing_body(at);
    if (pn_isnull(body)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = at; x < endp && x->start < body->end; x++) {
        if (x->start < at->end) continue;
        if (rebinds(L, x, name)) return 0;
        if (pred(L, x, name)) return 1;
    }
    return 0;
}

static int makes_file_at(lower *L, pn x, const char *name) { return x->type == PT_call && creates_file_at(L, x, name); }

/* `name["endpoint"]`: a read of a string key (not a store into it). */
static int reads_key(lower *L, pn x, const char *name)
{
    if (x->type != PT_subscript) return 0;
    pn base = unparen(pn_field(x, PF_value));
    if (!pn_is(base, PT_identifier) || !text_is(L, base, name)) return 0;
    pn up = pn_parent(x);
    if (!pn_isnull(up) && (pn_is(up, PT_assignment) || pn_is(up, PT_augmented_assignment)) && pn_field(up, PF_left) == x)
        return 0;
    pn key = &pt_null;
    PN_FOR_NAMED(ix, x) {
        if (ix != pn_field(x, PF_value)) key = unparen(ix);
    }
    return pn_is(key, PT_string);
}

/* Is `name`, bound at `at`, a path whose file the function creates later
 * (creates_file_at), with no other binding of it in between? */
static int file_made_later(lower *L, pn at, const char *name) { return used_later(L, at, name, makes_file_at); }

/* Is `name`, bound at `at`, read as a record later (reads_key), before any
 * other binding of it? A mapping of fields is data, whatever the call that
 * made it is named. */
static int read_as_record(lower *L, pn at, const char *name) { return used_later(L, at, name, reads_key); }

/* `ws = WebSocket(scope, receive, send)`: a call handed the function's own
 * `receive` and `send` parameters, the ASGI server's callables for one
 * connection. What it makes wraps that connection, which the server owns
 * (and closes when the app call ends, by any exception): nothing of the
 * function's to release. */
static int wraps_asgi_channel(lower *L, pn call)
{
    pn args = pn_field(call, PF_arguments);
    if (pn_isnull(args) || !pn_is(args, PT_argument_list) || !L->f) return 0;
    int rx = 0, tx = 0;
    PN_FOR_NAMED(a, args) {
        pn u = unparen(pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
        if (!pn_is(u, PT_identifier)) continue;
        int pv = ir_var_find(L->f, text(L, u));
        if (pv < 0 || !(L->f->vars[pv].flags & VAR_PARAM)) continue;
        if (text_is(L, u, "receive")) rx = 1;
        if (text_is(L, u, "send")) tx = 1;
    }
    return rx && tx;
}

static void acquire_var(lower *L, ir_block *out, pn at, int v, const rhs_info *ri, pn right)
{
    if (v < 0 || L->plain_bind || declared_plain(L, v)) return;
    if (!pn_isnull(ri->call) && pn_is(ri->call, PT_call) && wraps_asgi_channel(L, ri->call)) return;
    /* (a remote object's record stands for it: `agent = create_agent(...)`
     * read as `agent["agentId"]` is still the object made) */
    if ((ri->acq & ACQ_STRONG) && !(ri->rkind && strcmp(ri->rkind, "remote") == 0) &&
        read_as_record(L, at, L->f->vars[v].name))
        return;
    ir_node *mk = !pn_isnull(ri->call) ? making_call(L, out, ri->call) : NULL;
    /* `p = full_tree_path(...)` ... `with open(p, "wb")`: a call's result
     * that names a file made later; what may need releasing (the file) is
     * made there, where its acquisition goes */
    if (ri->acq == ACQ_WEAK && ri->is_call && mk && file_made_later(L, at, L->f->vars[v].name)) {
        name_map e = {L->f->vars[v].name, "", 0, 0};
        CA_VEC_PUSH(L->unmade_paths, e);
        CA_VEC_PUSH(L->unmade_makers, mk);
        return;
    }
    {
        const char *maker = !pn_isnull(ri->call) ? dotted(L, pn_field(ri->call, PF_function)) : NULL;
        fresh_var fv = {L->f->vars[v].name, maker, L->loop_depth, 0};
        size_t k = 0;
        while (k < L->fresh.n && strcmp(L->fresh.v[k].name, fv.name) != 0) k++;
        if (k < L->fresh.n) L->fresh.v[k] = fv;
        else CA_VEC_PUSH(L->fresh, fv);
    }
    ir_node *n = emit(L, out, IR_ACQUIRE, at, v);
    if (ri->acq & ACQ_TEARDOWN) L->f->vars[v].flags |= VAR_TEARDOWN;
    else L->f->vars[v].flags &= ~VAR_TEARDOWN;
    if (ri->acq & ACQ_MAKER) L->f->vars[v].flags |= VAR_MAKER;
    else L->f->vars[v].flags &= ~VAR_MAKER;
    n->ref = mk;
    if ((ri->acq & ACQ_STRONG) && !(ri->acq & ACQ_HEURISTIC)) CA_VEC_PUSH(L->strong, v);
    n->flags = ri->acq;
    n->rkind = ri->rkind ? ri->rkind : "resource";
    n->var2 = ri->parent == v ? -1 : ri->parent;
    n->text = ri->registry;
    if (ri->acq & ACQ_STRONG) {
        int_vec refs = {0};
        making_refs(L, right, &refs);
        if (refs.n) {
            n->vars = ca_arena_alloc(&L->m->arena, sizeof(int) * refs.n);
            for (size_t k = 0; k < refs.n; k++) n->vars[k] = refs.v[k];
            n->nvars = (int)refs.n;
        }
        CA_VEC_FREE(refs);
    }
    if (ri->acq & ACQ_EXECUTOR) {
        for (int i = out->n - 1; i >= 0; i--)
            if (out->v[i]->kind == IR_EXECUTOR) {
                out->v[i]->var = v;
                if ((ri->acq & ACQ_STRONG) && !(ri->acq & ACQ_HEURISTIC)) out->v[i]->flags |= EXEC_STRONG;
                if (ri->acq & ACQ_HEURISTIC) out->v[i]->flags |= EXEC_HEURISTIC;
                if (out->v[i]->flags & EXEC_CHILD) n->flags |= ACQ_CHILD;
                else if (out->v[i]->cname && strncmp(out->v[i]->cname, "create_", 7) == 0) CA_VEC_PUSH(L->created, v);
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
/* Does the module bind `name` at its top level (`_REG: dict = {}`,
 * `_var = ContextVar(...)`)? */
static int module_binds(lower *L, const char *name)
{
    pn root = pn_root(L->T);
    PN_FOR_NAMED(st, root) {
        if (!pn_is(st, PT_expression_statement)) continue;
        pn a = pn_first_named(st);
        if (!pn_is(a, PT_assignment)) continue;
        pn left = unparen(pn_field(a, PF_left));
        if (pn_is(left, PT_identifier) && strcmp(text(L, left), name) == 0) return 1;
    }
    return 0;
}

/* `tasks = self.cancel_all_pending_tasks()`: what a call named for
 * cancelling (catalog cancel-helper), made without an await, hands back
 * is what it cancelled; an await of v after it takes what those tasks end
 * with, as after `v.cancel()` (first_cancel). */
static void note_cancelled_result(lower *L, int v, pn r)
{
    if (!pn_is(r, PT_call) || L->f->vars[v].first_cancel != UINT32_MAX) return;
    pn fn = pn_field(r, PF_function);
    if (pn_isnull(fn) || !bytes_contain(L->src + fn->start, fn->end - fn->start, "cancel")) return;
    call_info ci = call_of(L, r);
    if (ci.name && strcmp(ci.name, "cancel") != 0 && cat(L, CAT_CANCEL_HELPER, ci.name))
        L->f->vars[v].first_cancel = r->start;
}

static void bind_target(lower *L, ir_block *out, pn left, pn right, pn at)
{
    left = unparen(left);
    pn r = unparen(right);
    if (pn_is(left, PT_identifier)) {
        char *name = text(L, left);
        int existing = ir_var_find(L->f, name);
        int v = existing >= 0 ? existing : ir_var_add(L->m, L->f, name, 0);
        {
            /* `workers = _workers_var.get()`, `lst = _REG[k]`: a view of
             * module state */
            pn base = &pt_null;
            if (pn_is(r, PT_call)) {
                pn fx = unparen(pn_field(r, PF_function));
                if (pn_is(fx, PT_attribute)) base = unparen(pn_field(fx, PF_object));
            } else if (pn_is(r, PT_subscript)) {
                base = unparen(pn_field(r, PF_value));
            }
            if (pn_is(base, PT_identifier) && var_of(L, base) < 0 &&
                !map_get(L->imports.v, L->imports.n, text(L, base)) && module_binds(L, text(L, base)))
                CA_VEC_PUSH(L->global_views, name);
        }
        for (size_t k = 0; k < L->flags.n; k++)
            if (strcmp(L->flags.v[k], name) == 0) {
                int rv = pn_is(r, PT_identifier) ? var_of(L, r) : -1;
                unsigned bf = pn_is(r, PT_true) ? BIND_TRUE : pn_is(r, PT_false) ? BIND_FALSE
                            : pn_is(r, PT_none) ? BIND_NONE
                            : (rv >= 0 && (L->f->vars[rv].flags & VAR_EXC)) ? BIND_TRUE /* an exception object */
                                                                              : (BIND_TRUE | BIND_FALSE | BIND_NONE);
                emit(L, out, IR_BIND, at, v)->flags = bf;
                break;
            }
        if (pn_is(r, PT_none)) {
            /* `x = None`: the function is done with what x held (code
             * writes it after releasing or handing x over; in a loop, the
             * previous iteration's value) */
            emit(L, out, IR_DONE, at, v);
            return;
        }
        /* `prot = lambda: Protocol(data)`, `name = "idle"`: a new value
         * that is no resource; what the name held before is no longer
         * reached through it (as for `x = None`) */
        if (pn_is(r, PT_lambda) || pn_is(r, PT_string) || pn_is(r, PT_integer) || pn_is(r, PT_float) ||
            pn_is(r, PT_true) || pn_is(r, PT_false)) {
            if (existing >= 0) emit(L, out, IR_DONE, at, v);
            return;
        }
        record_ctor(L, v, right);
        note_exc_flag(L, v, right);
        note_cancelled_result(L, v, r);
        /* `tasks = [t for t in self._tasks if not t.done()]` after each
         * was cancelled: tasks holds cancelled tasks */
        if ((pn_is(r, PT_list_comprehension) || pn_is(r, PT_set_comprehension) ||
             pn_is(r, PT_generator_expression)) && cancelled_container(L, r)) {
            name_map c = {name, "", 0, 0};
            CA_VEC_PUSH(L->cancelled, c);
        }
        int rv = var_of(L, r);
        if (declared_outer(L, name)) {
            /* `global task; task = create_task(...)`: the module (or the
             * enclosing function) holds it from here on, past this call */
            if (rv >= 0 && rv != v) emit(L, out, IR_TRANSFER, at, rv);
            return;
        }
        /* `pending = set(tasks)`, `live = list(tasks)`: a copy of the
         * container holds the same values */
        if (rv < 0 && pn_is(r, PT_call) && pn_named_count(pn_field(r, PF_arguments)) == 1) {
            pn a0 = unparen(first_pos_arg(r, 0));
            char *d = dotted(L, pn_field(r, PF_function));
            for (const char **w = builtin_wrappers; d && *w && pn_is(a0, PT_identifier); w++)
                if (strcmp(d, *w) == 0 && strcmp(d, "dict") != 0) {
                    rv = var_of(L, a0);
                    break;
                }
        }
        if (rv >= 0) {
            if (rv != v) {
                ir_node *n = emit(L, out, IR_ALIAS, at, rv);
                n->var2 = v;
            }
            return;
        }
        rhs_info ri = classify_rhs(L, right);
        if (ri.acq) acquire_var(L, out, at, v, &ri, right);
        else if (pn_is(r, PT_tuple) || pn_is(r, PT_list) || pn_is(r, PT_dictionary) || pn_is(r, PT_set) ||
                 pn_is(r, PT_conditional_expression) || pn_is(r, PT_list_comprehension) ||
                 pn_is(r, PT_set_comprehension) || pn_is(r, PT_generator_expression) || pn_is(r, PT_binary_operator) ||
                 pn_is(r, PT_boolean_operator)) /* (`pending = pending or exc`: one of the two) */
            alias_into(L, out, right, v, at);
        return;
    }
    if (pn_is(left, PT_pattern_list) || pn_is(left, PT_tuple_pattern) || pn_is(left, PT_list_pattern) ||
        pn_is(left, PT_tuple) || pn_is(left, PT_list)) {
        rhs_info ri = classify_rhs(L, right);
        uint32_t c = pn_named_count(left);
        /* parallel unpacking of a literal tuple: a, b = x, y */
        pn rr = unparen(right);
        int literal = (pn_is(rr, PT_tuple) || pn_is(rr, PT_expression_list)) && pn_named_count(rr) == c;
        pn el_it = pn_first_named(left), rr_it = literal ? pn_first_named(rr) : &pt_null;
        /* `_, proto = await loop.create_connection(...)`: the transport is
         * dropped on purpose and the protocol, which connection_made handed
         * it to, is what the function keeps of it: the pair's other name
         * carries the resource */
        int carrier = ri.tuple_index;
        /* (a def of this module that hands its resource back at one
         * position of the tuple, plain values at the others) */
        if (ri.acq && carrier < 0 && !pn_isnull(ri.call) && pn_is(ri.call, PT_call))
            carrier = def_tuple_carrier(L, call_of(L, ri.call).name, (int)c);
        int parts[8], nparts = 0;
        if (ri.acq && carrier >= 0 && c == 2) {
            pn at_k = unparen(pn_named_child(left, (uint32_t)carrier));
            pn other = unparen(pn_named_child(left, (uint32_t)(1 - carrier)));
            if (pn_is(at_k, PT_identifier) && strcmp(text(L, at_k), "_") == 0 && pn_is(other, PT_identifier) &&
                strcmp(text(L, other), "_") != 0)
                carrier = 1 - carrier;
        }
        for (uint32_t i = 0; i < c; i++, el_it = pn_after_named(el_it)) {
            pn el = unparen(el_it);
            if (pn_is(el, PT_list_splat_pattern)) el = pn_first_named(el);
            if (literal) {
                bind_target(L, out, el, rr_it, at);
                rr_it = pn_after_named(rr_it);
                continue;
            }
            if (!pn_is(el, PT_identifier)) {
                if (ri.acq == 0) bind_target(L, out, el, right, at);
                continue;
            }
            if (strcmp(text(L, el), "_") == 0) continue; /* discarded on purpose */
            int v = ir_var_add(L->m, L->f, text(L, el), 0);
            /* (a name tested somewhere now holds a value of which nothing is
             * known: `pusher = None` ... `worker, pusher = make()`) */
            for (size_t k = 0; k < L->flags.n; k++)
                if (strcmp(L->flags.v[k], text(L, el)) == 0) {
                    emit(L, out, IR_BIND, at, v)->flags = BIND_TRUE | BIND_FALSE | BIND_NONE;
                    break;
                }
            if (!ri.acq) continue;
            if (carrier >= 0 && (int)i != carrier) continue;
            if (error_var_name(text(L, el))) continue;
            if (carrier < 0 && !pn_isnull(ri.call) && pn_is(ri.call, PT_call) &&
                tuple_part_is_data(L, call_of(L, ri.call).name, (int)i, (int)c))
                continue;
            acquire_var(L, out, at, v, &ri, right);
            if (nparts < 8) parts[nparts++] = v;
        }
        /* `transport, stream, features = await conn.connect(...)`: a maker
         * the catalog does not lay out hands back the parts of one
         * connection, and what ends one part ends them all (closing the
         * stream closes its transport); the catalog's own pairs
         * (`os.pipe()`, `socketpair()`) stay separate resources */
        int foreign = 0; /* (a method of an object of another's: not a helper of the tree on self) */
        if (!pn_isnull(ri.call) && pn_is(ri.call, PT_call)) {
            pn fn = pn_field(ri.call, PF_function);
            pn recv = pn_is(fn, PT_attribute) ? unparen(pn_field(fn, PF_object)) : &pt_null;
            int rv = pn_is(recv, PT_identifier) ? var_of(L, recv) : -1;
            foreign = pn_is(recv, PT_identifier) && strcmp(text(L, recv), "self") != 0 &&
                      strcmp(text(L, recv), "cls") != 0 && !(rv >= 0 && (L->f->vars[rv].flags & VAR_SELF));
        }
        if (nparts >= 2 && carrier < 0 && (ri.acq & ACQ_HEURISTIC) && foreign)
            for (int i = 1; i < nparts; i++) {
                emit(L, out, IR_ALIAS, at, parts[i])->var2 = parts[0];
                emit(L, out, IR_ALIAS, at, parts[0])->var2 = parts[i];
            }
        return;
    }
    /* stores: self.x = v, entry.ws = v, self._reg[k] = v, local[k] = v */
    if (pn_is(left, PT_attribute)) note_staged_cancel(L, pn_field(left, PF_attribute), right);
    if (pn_is(left, PT_attribute) || pn_is(left, PT_subscript)) {
        int cv;
        owner_kind o = owner_of(L, left, &cv);
        int_vec vs = {0};
        value_vars(L, right, &vs);
        if (o != OWN_NONE && o != OWN_LOCAL) identity_vars(L, right, &vs);
        /* `self.debug_task = create_task(_serve())` of a local `_serve`
         * whose body closes what it reads of this function (`async with
         * server:`): the task owns that value, and the owner the task */
        if (o != OWN_NONE && o != OWN_LOCAL) closure_released_vars(L, right, &vs);
        /* `self._conns[conn] = task`: a dict holds its keys as well */
        if (pn_is(left, PT_subscript) && o != OWN_NONE) {
            pn base = pn_field(left, PF_value);
            PN_FOR_NAMED(ix, left) {
                if (ix == base) continue;
                pn ixu = unparen(ix);
                if (pn_is(ixu, PT_identifier)) push_unique(&vs, var_of(L, ixu));
            }
        }
        if (o == OWN_SELF) {
            /* the object holds a catalogued resource: its class owns one */
            rhs_info ri = classify_rhs(L, right);
            int held = (ri.acq & ACQ_STRONG) && !(ri.acq & ACQ_HEURISTIC);
            /* (an exit stack made with no arguments holds nothing until
             * something is entered on it: its class owns one, but an
             * object that holds only it holds nothing yet) */
            int empty = held && ri.rkind && strcmp(ri.rkind, "exit-stack") == 0 && no_args(unparen(right));
            for (size_t i = 0; i < vs.n && !held; i++)
                for (size_t k = 0; k < L->strong.n; k++) held |= L->strong.v[k] == vs.v[i];
            if (held) L->f->fflags |= FN_HOLDS_RESOURCE;
            if (held && !empty) L->f->fflags |= FN_HOLDS_FULL;
        }
        if (o == OWN_LOCAL && pn_is(left, PT_attribute) && pn_is(unparen(pn_field(left, PF_object)), PT_identifier) &&
            pn_is(pn_field(left, PF_attribute), PT_identifier)) {
            /* `entry.task = asyncio.create_task(...)`, `entry.tasks = [create_task(...), ...]`:
             * a catalogued resource made straight into a local object is a
             * member variable of its own, held by the object: live until the
             * object is handed over, or the member released (`entry.task.cancel()`) */
            pn el = unparen(right);
            rhs_info ri = {0};
            if (pn_is(el, PT_list) || pn_is(el, PT_tuple)) {
                PN_FOR_NAMED(x, el) {
                    ri = classify_rhs(L, x);
                    if (ri.acq) {
                        el = x;
                        break;
                    }
                }
            } else {
                ri = classify_rhs(L, el);
            }
            if ((ri.acq & ACQ_STRONG) && !(ri.acq & ACQ_HEURISTIC) && !(ri.acq & ACQ_REGISTRY_TAKE)) {
                ca_sb nm = {0};
                ca_sb_addf(&nm, "%s.%s", text(L, unparen(pn_field(left, PF_object))), text(L, pn_field(left, PF_attribute)));
                int mv = ir_var_add(L->m, L->f, ca_arena_strdup(&L->m->arena, ca_sb_str(&nm)), 0);
                ca_sb_release(&nm);
                L->member_vars = 1;
                acquire_var(L, out, at, mv, &ri, el);
                ir_node *n = emit(L, out, IR_ALIAS, at, mv);
                n->var2 = cv;
                remember_member(L, cv, text(L, pn_field(left, PF_attribute)), mv);
            }
        }
        for (size_t i = 0; i < vs.n; i++) {
            if (o == OWN_LOCAL && vs.v[i] != cv) {
                ir_node *n = emit(L, out, IR_ALIAS, at, vs.v[i]);
                n->var2 = cv;
                if (pn_is(left, PT_attribute) && pn_is(unparen(pn_field(left, PF_object)), PT_identifier))
                    remember_member(L, cv, text(L, pn_field(left, PF_attribute)), vs.v[i]);
            } else if (o != OWN_NONE && o != OWN_LOCAL) {
                emit(L, out, IR_TRANSFER, at, vs.v[i])->flags =
                    o == OWN_SELF ? XFER_SELF : o == OWN_GLOBAL ? XFER_OUTER : 0;
            }
        }
        /* `self.proc = entry.proc`: a part of a local record handed to an owner */
        pn rr = unparen(right);
        if (o != OWN_NONE && o != OWN_LOCAL && !vs.n && pn_is(rr, PT_attribute) &&
            pn_is(unparen(pn_field(rr, PF_object)), PT_identifier)) {
            int xv = var_of(L, unparen(pn_field(rr, PF_object)));
            /* (`self._sandbox_id = sandbox.id`, `cls._type_id = bt.id`: the
             * owner keeps what names it, and finds it again by that name:
             * the value itself is handed over, as in `Handle(id=ref.id)`) */
            int names_it = cat(L, CAT_IDENTITY_ATTR, text(L, pn_field(rr, PF_attribute))) != NULL;
            if (xv >= 0 && !(L->f->vars[xv].flags & (VAR_SELF | VAR_PARAM)))
                emit(L, out, IR_TRANSFER, at, xv)->flags = names_it ? XFER_IDENTITY : XFER_PART;
        }
        CA_VEC_FREE(vs);
        /* self._lock = asyncio.Lock() in any method: remember the class attribute */
        return;
    }
}

/* ------------------------------------------------------------------------ */
/* Statements.                                                              */

static void lower_block(lower *L, pn block, ir_block *out);
static void lower_stmt(lower *L, pn s, ir_block *out);
static int binds_name(lower *L, pn x, const char *name);

/* `def on_signal(...): task.cancel()` (or one that hands on the bound
 * `task.cancel`) defined in this function, task one of
 * its locals: the function (through its own closure, a signal or done
 * callback) cancels that task, so an await of task after the def takes
 * what the task ends with, as after `task.cancel()` (first_cancel). */
static void closure_cancels(lower *L, pn def)
{
    pn body = pn_field(def, PF_body);
    if (!L->f || pn_isnull(body)) return;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        /* (`task.cancel()`, or its bound `task.cancel` handed on from the
         * closure: `loop.run_in_executor(None, task.cancel)`) */
        if (x->type != PT_attribute || !text_is(L, pn_field(x, PF_attribute), "cancel")) continue;
        pn r = unparen(pn_field(x, PF_object));
        if (!pn_is(r, PT_identifier)) continue;
        const char *nm = text(L, r);
        int bound = 0;
        for (pn y = body; y < endp && y->start < body->end && !bound; y++) bound = binds_name(L, y, nm);
        int v = bound ? -1 : ir_var_find(L->f, nm);
        if (v >= 0 && L->f->vars[v].first_cancel == UINT32_MAX) L->f->vars[v].first_cancel = def->start;
    }
}
static int annot_plain(lower *L, pn t, const char **one);

/* Does the module import root (`trio`, `trio.abc`, `from trio import x`;
 * not a package's own `from ..asyncio import x`)? */
static int imports_root(lower *L, const char *root)
{
    size_t n = strlen(root);
    for (size_t i = 0; i < L->imports.n; i++) {
        const char *v = L->imports.v[i].relative ? NULL : L->imports.v[i].value;
        if (v && strncmp(v, root, n) == 0 && (v[n] == '\0' || v[n] == '.')) return 1;
    }
    return 0;
}

/* A module written for trio or anyio alone: the cancellation its catch-all
 * handlers see is level-triggered. */
static int level_module(lower *L)
{
    return (imports_root(L, "trio") || imports_root(L, "anyio")) && !imports_root(L, "asyncio");
}

static void classify_handler_as_written(lower *L, pn types, ir_handler *h);

static void classify_handler(lower *L, pn types, ir_handler *h)
{
    classify_handler_as_written(L, types, h);
    if ((h->flags & H_CANCEL) && L->f && (L->f->fflags & FN_SCOPE_DRIVEN)) h->flags |= H_LEVEL;
}

static void classify_handler_as_written(lower *L, pn types, ir_handler *h)
{
    if (pn_isnull(types)) {
        h->flags = H_CANCEL | H_BASE | H_BARE | (level_module(L) ? H_LEVEL : 0);
        h->catches = "";
        return;
    }
    h->catches = norm_text(L, types, 200);
    pn stack[64];
    int sp = 0;
    stack[sp++] = types;
    while (sp) {
        pn t = unparen(stack[--sp]);
        if (pn_is(t, PT_tuple) || pn_is(t, PT_expression_list) || pn_is(t, PT_argument_list)) {
            PN_FOR_NAMED(ch, t) {
                if (sp >= 63) break;
                stack[sp++] = ch;
            }
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
            if (cat(L, CAT_NOT_CANCEL_EXC, name)) continue;
            if (cat(L, CAT_INTERRUPT_EXC, name)) h->flags |= H_INTERRUPT;
            if (strcmp(name, "Exception") == 0 || strcmp(name, "builtins.Exception") == 0) h->flags |= H_EXCEPTION;
            const ca_cat_entry *e = NULL;
            if (cat(L, CAT_CATCHALL_EXC, name)) {
                h->flags |= H_CANCEL | H_BASE;
                if (level_module(L)) h->flags |= H_LEVEL;
            } else if ((e = cat(L, CAT_CANCEL_EXC, name)) || (k == 1 && (e = cat(L, CAT_CANCEL_EXC, buf)))) {
                h->flags |= H_CANCEL;
                if (e->kind && (strcmp(e->kind, "level") == 0 ||
                                (strcmp(e->kind, "scope-level") == 0 && level_module(L))))
                    h->flags |= H_LEVEL;
            }
        }
    }
}

/* The class whose instance `self` is here: the method's class, or, in a
 * function nested in a method that does not take a `self` of its own, the
 * enclosing method's (the closure's `self`). NULL outside a class. */
static const char *self_class(lower *L)
{
    if (L->class_name) return L->class_name;
    if (!L->outer_class || !L->f) return NULL;
    int v = ir_var_find(L->f, "self");
    if (v >= 0 && (L->f->vars[v].flags & VAR_PARAM)) return NULL;
    return L->outer_class;
}

/* What the class records for `self.attr` (class_attrs "Cls.attr" with
 * suffix: "" for the attribute's constructor, "[]" for a defaultdict's
 * entry factory), when e is an attribute of self or cls; NULL otherwise. */
static const char *self_attr_ctor_of(lower *L, pn e, const char *suffix)
{
    if (!pn_is(e, PT_attribute) || !self_class(L)) return NULL;
    pn obj = unparen(pn_field(e, PF_object));
    if (!pn_is(obj, PT_identifier)) return NULL;
    char *on = text(L, obj);
    if (strcmp(on, "self") != 0 && strcmp(on, "cls") != 0) return NULL;
    ca_sb key = {0};
    ca_sb_addf(&key, "%s.%s%s", self_class(L), text(L, pn_field(e, PF_attribute)), suffix);
    const char *ctor = map_get(L->class_attrs.v, L->class_attrs.n, ca_sb_str(&key));
    ca_sb_release(&key);
    return ctor;
}

static int nonsuspending_ctx(lower *L, pn expr)
{
    pn e = unparen(expr);
    char *d = NULL;
    if (pn_is(e, PT_call)) d = dotted(L, pn_field(e, PF_function));
    if (d && cat(L, CAT_NONSUSPENDING_CM, d)) return 1;
    /* self._lock where the class assigns self._lock = asyncio.Lock() */
    const char *ctor = pn_is(e, PT_attribute) ? self_attr_ctor_of(L, e, "") : NULL;
    if (ctor && cat(L, CAT_NONSUSPENDING_CM, ctor)) return 1;
    /* self._locks[key] where the class assigns self._locks =
     * defaultdict(asyncio.Lock): every entry is such a lock */
    ctor = pn_is(e, PT_subscript) ? self_attr_ctor_of(L, unparen(pn_field(e, PF_value)), "[]") : NULL;
    if (ctor && cat(L, CAT_NONSUSPENDING_CM, ctor)) return 1;
    if (pn_is(e, PT_identifier)) {
        char *name = text(L, e);
        ctor = ir_var_find(L->f, name) >= 0 ? map_get(L->locals_ctor.v, L->locals_ctor.n, name)
                                                  : map_get(L->globals.v, L->globals.n, name);
        if (ctor && cat(L, CAT_NONSUSPENDING_CM, ctor)) return 1;
    }
    return 0;
}

/* Does a body hold a suspension of its own: an await, async with or async
 * for outside nested definitions? */
static int body_suspends(lower *L, pn body)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = body; y < endp && y->start < body->end; y++) {
        if (y->type == PT_function_definition || y->type == PT_lambda || y->type == PT_class_definition) {
            /* skip the nested scope */
            uint32_t end = y->end;
            while (y + 1 < endp && (y + 1)->start < end) y++;
            continue;
        }
        if (y->type == PT_await) return 1;
        if ((y->type == PT_with_statement || y->type == PT_for_statement || y->type == PT_for_in_clause) &&
            has_token(y, PT_async))
            return 1;
    }
    return 0;
}

/* `async with self._lock`, where the class makes self._lock an asyncio lock
 * (lock-fastpath: acquiring a free one does not suspend): is it a lock no
 * holder keeps across a suspension? Then, the loop being one thread, every
 * acquire finds it free, and the acquire is no checkpoint today: it becomes
 * one the day a holder awaits inside. Read over the module: every `async
 * with self._lock` body, and no other use of it but `.locked()` (an
 * acquire() or a hand-over could hold it anywhere). Cached per attribute. */
static int lock_idle(lower *L, pn expr)
{
    pn e = unparen(expr);
    if (!pn_is(e, PT_attribute) || !L->class_name) return 0;
    pn obj = unparen(pn_field(e, PF_object));
    if (!pn_is(obj, PT_identifier) || strcmp(text(L, obj), "self") != 0) return 0;
    const char *attr = text(L, pn_field(e, PF_attribute));
    ca_sb key = {0};
    ca_sb_addf(&key, "%s.%s", L->class_name, attr);
    const char *ctor = map_get(L->class_attrs.v, L->class_attrs.n, ca_sb_str(&key));
    int idle = 0;
    if (ctor && cat(L, CAT_LOCK_FASTPATH, ctor)) {
        const char *cached = map_get(L->idle_locks.v, L->idle_locks.n, ca_sb_str(&key));
        if (cached) {
            idle = cached[0] == '1';
        } else {
            idle = 1;
            const pt_node *endp = L->T->v + L->T->n;
            for (pn u = pn_root(L->T); u < endp && idle; u++) {
                if (u->type != PT_attribute) continue;
                pn uo = unparen(pn_field(u, PF_object)), ua = pn_field(u, PF_attribute);
                if (!pn_is(uo, PT_identifier) || strcmp(text(L, uo), "self") != 0 || strcmp(text(L, ua), attr) != 0)
                    continue;
                pn p = pn_parent(u);
                while (pn_is(p, PT_parenthesized_expression)) p = pn_parent(p);
                if (pn_is(p, PT_with_item)) {
                    pn ws = pn_parent(pn_parent(p)); /* with_item < with_clause < with_statement */
                    if (pn_is(ws, PT_with_statement) && has_token(ws, PT_async)) {
                        if (body_suspends(L, pn_field(ws, PF_body))) idle = 0;
                        continue;
                    }
                    idle = 0;
                } else if (pn_is(p, PT_attribute) && pn_field(p, PF_object) == u) {
                    if (strcmp(text(L, pn_field(p, PF_attribute)), "locked") != 0) idle = 0;
                } else if (pn_is(p, PT_assignment) && pn_field(p, PF_left) == u) {
                    continue; /* self._lock = asyncio.Lock() */
                } else if (!pn_is(p, PT_expression_statement)) {
                    idle = 0;
                }
            }
            name_map m = {ca_arena_strdup(&L->m->arena, ca_sb_str(&key)), idle ? "1" : "0", 0, 0};
            CA_VEC_PUSH(L->idle_locks, m);
        }
    }
    ca_sb_release(&key);
    return idle;
}

/* Is the context manager of `async with expr` made by a call of catalog
 * category k: `X(...)` itself, or a local or module name assigned from one
 * (`client = httpx.AsyncClient(); async with client:`)? */
static int ctx_matches(lower *L, pn expr, ca_cat_kind k)
{
    pn e = unparen(expr);
    if (pn_is(e, PT_call)) {
        char *d = dotted(L, pn_field(e, PF_function));
        return d && cat(L, k, d) != NULL;
    }
    if (pn_is(e, PT_identifier)) {
        char *name = text(L, e);
        const char *ctor = ir_var_find(L->f, name) >= 0 ? map_get(L->locals_ctor.v, L->locals_ctor.n, name)
                                                        : map_get(L->globals.v, L->globals.n, name);
        return ctor && cat(L, k, ctor) != NULL;
    }
    return 0;
}

static void lower_with(lower *L, pn s, ir_block *out)
{
    int is_async = has_token(s, PT_async);
    pn clause = &pt_null;
    PN_FOR_NAMED(ch, s)
        if (pn_is(ch, PT_with_clause)) clause = ch;
    pn body = pn_field(s, PF_body);
    ir_block *cur = out;
    node_vec items = {0};
    if (!pn_isnull(clause)) named_children(clause, &items);
    /* Each item nests the next one's WITH node: items count against
     * IR_MAX_DEPTH like blocks do (`with a, b, ...` of 100,000 items). */
    int nested = 0;
    for (size_t i = 0; i < items.n; i++) {
        pn item = items.v[i];
        if (!pn_is(item, PT_with_item)) continue;
        if (L->depth + nested > IR_MAX_DEPTH) {
            L->too_deep = 1;
            L->f->truncated = 1;
            break;
        }
        pn val = unparen(pn_field(item, PF_value));
        pn expr = val, target = &pt_null;
        if (pn_is(val, PT_as_pattern)) {
            expr = pn_first_named(val);
            target = as_target(val);
        }
        lower_expr(L, cur, expr, s);
        if (!is_async && pn_is(unparen(expr), PT_call) && ctx_matches(L, expr, CAT_SUPPRESS_CM)) {
            /* `with suppress(E):` is `try: ... except E: pass` */
            pn args = pn_field(unparen(expr), PF_arguments);
            ir_node *t = ir_node_new(L->m, IR_TRY, site_of(L, s));
            t->handlers = ca_arena_alloc(&L->m->arena, sizeof(ir_handler));
            ir_handler *h = &t->handlers[t->nhandlers++];
            h->site = site_of(L, s);
            h->exc_var = -1;
            classify_handler(L, args, h);
            h->catches = pn_isnull(args) ? "" : norm_text(L, args, 200);
            if (h->flags & H_BARE) h->flags &= ~(unsigned)(H_CANCEL | H_BASE | H_BARE); /* suppress() of nothing */
            h->flags |= H_SUPPRESS;
            ir_block_push(L->m, cur, t);
            cur = &t->a;
            nested++;
            continue;
        }
        ir_node *w = ir_node_new(L->m, IR_WITH, site_of(L, s));
        w->text = norm_text(L, expr, 160);
        /* the call that makes the context manager, for its summary */
        if (pn_is(unparen(expr), PT_call)) {
            pn ce = unparen(expr);
            for (int i = cur->n - 1; i >= 0 && !w->ref; i--)
                if (cur->v[i]->kind == IR_CALL && cur->v[i]->site.start == ce->start && cur->v[i]->site.end == ce->end)
                    w->ref = cur->v[i];
            /* (`async with Handlers.manage():`, a call lowering had no reason
             * to record: the engine asks the callee whether entering or
             * leaving it suspends) */
            if (!w->ref && is_async) w->ref = making_call(L, cur, ce);
        }
        if (is_async) w->flags |= WITH_ASYNC;
        pn e = unparen(expr);
        char *d = pn_is(e, PT_call) ? dotted(L, pn_field(e, PF_function)) : NULL;
        if (nonsuspending_ctx(L, expr)) w->flags |= WITH_NONSUSP_EXIT;
        if (ctx_matches(L, expr, CAT_NONSUSPENDING_ENTER)) w->flags |= WITH_NONSUSP_ENTER;
        if (is_async && lock_idle(L, expr)) w->flags |= WITH_LOCK_IDLE;
        if (d) {
            const ca_cat_entry *sh = cat(L, CAT_SHIELD_SCOPE, d);
            if (sh) {
                pn kv = sh->arg ? kw_arg(L, e, sh->arg) : &pt_null;
                if (!sh->arg || (!pn_isnull(kv) && is_true_literal(L, kv))) {
                    w->flags |= WITH_SHIELD;
                    if (strncmp(d, "trio.", 5) == 0 || level_module(L)) w->flags |= WITH_SHIELD_ALL;
                }
            }
            if (cat(L, CAT_TIMEOUT_SCOPE, d)) w->flags |= WITH_TIMEOUT;
        }
        int tv = -1;
        if (!pn_isnull(target) && pn_is(target, PT_identifier))
            tv = ir_var_add(L->m, L->f, text(L, target), 0);
        /* `async with Handler(ws, manager) as handler:`: the object a class
         * makes, which its enter hands back (`return self`), for the class
         * of the methods called on it (`await handler.run()`) */
        if (tv >= 0 && d && pn_is(e, PT_call)) {
            const char *lc = last_component(d);
            if (lc[0] >= 'A' && lc[0] <= 'Z') {
                name_map me = {L->f->vars[tv].name, d, 0, 0};
                CA_VEC_PUSH(L->locals_ctor, me);
            }
        }
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
                w->rkind = ri.rkind;
            } else {
                w->flags |= WITH_TARGET;
            }
            w->var = tv;
        }
        int ev = var_of(L, e);
        if (ev >= 0) w->var2 = ev; /* async with v: hands v over */
        /* `async with FdStream(r)`: values given to the context manager's
         * constructor are its to close (not for scopes, groups and stacks,
         * which take no resources) */
        if (pn_is(e, PT_call) && !(w->flags & (WITH_SHIELD | WITH_TIMEOUT | WITH_GROUP | WITH_EXIT_STACK))) {
            int_vec hv = {0};
            pn args = pn_field(e, PF_arguments);
            if (!pn_isnull(args)) value_vars(L, args, &hv);
            /* its first positional argument, a plain name, is what it runs
             * (`async with run_app(app):`): first, and flagged */
            pn a0 = unparen(first_pos_arg(e, 0));
            int sv = pn_is(a0, PT_identifier) ? var_of(L, a0) : -1;
            if (sv >= 0 && !(L->f->vars[sv].flags & VAR_SELF)) {
                size_t at = hv.n;
                for (size_t k = 0; k < hv.n; k++)
                    if (hv.v[k] == sv) at = k;
                if (at == hv.n) CA_VEC_PUSH(hv, sv);
                int t0 = hv.v[0];
                hv.v[0] = sv;
                hv.v[at] = t0;
                w->flags |= WITH_SUBJECT;
            }
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

/* The module-level function of that name (its one def), or null. */
static pn module_def(lower *L, const char *name)
{
    const pt_node *endp = L->T->v + L->T->n;
    pn found = &pt_null;
    for (pn d = L->T->v; d < endp; d++) {
        if (d->type != PT_function_definition || !text_is(L, pn_field(d, PF_name), name)) continue;
        pn up = pn_parent(d);
        if (pn_is(up, PT_decorated_definition)) up = pn_parent(up);
        if (!pn_is(up, PT_module)) continue;
        if (!pn_isnull(found)) return &pt_null;
        found = d;
    }
    return found;
}

/* Does a handler's block ask whether its task is being cancelled
 * (`current_task().cancelling()`, `task.uncancel()`), itself or through a
 * function of this module that does (`if _host_is_cancelling(): raise`,
 * `if _cancellation_count() > before: raise`, one level deep), or one
 * named for the question wherever it is defined (`task_is_cancelling()`)? */
static int asks_cancelling_in(lower *L, pn block, int depth)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = block; x < endp && x->start < block->end; x++) {
        if (x->type != PT_call) continue;
        pn fn = unparen(pn_field(x, PF_function));
        if (pn_is(fn, PT_attribute) && cat(L, CAT_CANCELLING_TEST, text(L, pn_field(fn, PF_attribute)))) return 1;
        /* (an imported function named for the question, `if
         * task_is_cancelling(): raise`: catalog cancelling-test) */
        if (pn_is(fn, PT_identifier) && cat(L, CAT_CANCELLING_TEST, text(L, fn))) return 1;
        if (depth == 0 && pn_is(fn, PT_identifier)) {
            pn d = module_def(L, text(L, fn));
            pn body = pn_isnull(d) ? d : pn_field(d, PF_body);
            if (!pn_isnull(body) && asks_cancelling_in(L, body, depth + 1)) return 1;
        }
    }
    return 0;
}

static int asks_cancelling(lower *L, pn block) { return asks_cancelling_in(L, block, 0); }

static int bytes_contain(const char *s, size_t n, const char *word);

/* Does the handler's block cancel its own task again (`asyncio.current_task()
 * .cancel()`, or `.cancel()` of a name the block binds to current_task(),
 * catalog current-task)? The cancellation is re-armed: asyncio raises it at
 * the task's next await, so the handler passes it on, as a raise would. */
static int recancels(lower *L, pn block)
{
    if (!bytes_contain(L->src + block->start, block->end - block->start, "current_task")) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = block; x < endp && x->start < block->end; x++) {
        if (x->type != PT_call) continue;
        pn fn = unparen(pn_field(x, PF_function));
        if (!pn_is(fn, PT_attribute) || !text_is(L, pn_field(fn, PF_attribute), "cancel")) continue;
        pn r = unparen(pn_field(fn, PF_object));
        if (pn_is(r, PT_call)) {
            char *d = dotted(L, pn_field(r, PF_function));
            if (d && cat(L, CAT_CURRENT_TASK, d)) return 1;
            continue;
        }
        if (!pn_is(r, PT_identifier)) continue;
        /* `current = asyncio.current_task()` in the block */
        for (pn y = block; y < endp && y->start < x->start; y++) {
            if (y->type != PT_assignment) continue;
            pn left = unparen(pn_field(y, PF_left)), right = unparen(pn_field(y, PF_right));
            if (!pn_is(left, PT_identifier) || !pn_is(right, PT_call) || strcmp(text(L, left), text(L, r)) != 0) continue;
            char *d = dotted(L, pn_field(right, PF_function));
            if (d && cat(L, CAT_CURRENT_TASK, d)) return 1;
        }
    }
    return 0;
}

/* Does expression e hold a name (an identifier, an attribute's name, a
 * keyword) that says cancelled or interrupted (`FinishReason.INTERRUPTED`,
 * `cancelled=True`): a status the caller's code can test? A message
 * ("Execution was cancelled.") is for a reader, and the name of a called
 * method (`t.cancel()`) is an act, not a status. */
static int names_cancel_status(lower *L, pn e)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = e; x < endp && x->start < e->end; x++) {
        if (x->type != PT_identifier) continue;
        pn up = pn_parent(x);
        if (pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == x && pn_is(pn_parent(up), PT_call) &&
            pn_field(pn_parent(up), PF_function) == up)
            continue;
        size_t n = x->end - x->start;
        const char *t = L->src + x->start;
        for (size_t i = 0; i + 6 <= n; i++)
            if (strncasecmp(t + i, "cancel", 6) == 0 || (i + 9 <= n && strncasecmp(t + i, "interrupt", 9) == 0)) return 1;
    }
    return 0;
}

/* Is name nm in what a return or a yield of the function body hands back? */
static int handed_back(lower *L, pn body, const char *nm)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = body; y < endp && y->start < body->end; y++) {
        if (y->type != PT_return_statement && y->type != PT_yield) continue;
        for (pn z = y; z < endp && z->start < y->end; z++)
            if (z->type == PT_identifier && text_is(L, z, nm)) return 1;
    }
    return 0;
}

/* Does the handler (one with no `as` name) throw the exception it caught
 * into the code it drives, `context.throw(*sys.exc_info())`: the type,
 * value and traceback spread into a call of the catalog's exc-sink (a
 * generator's or a greenlet's throw), which raises it there? (A call handed
 * the tuple whole, `state.set_exception(sys.exc_info())`, may keep it as
 * a record: not read as raised.) */
static int hands_exc_info_on(lower *L, pn block)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = block; x < endp && x->start < block->end; x++) {
        if (x->type != PT_call) continue;
        char *d = dotted(L, pn_field(x, PF_function));
        if (!d || strcmp(d, "sys.exc_info") != 0) continue;
        pn up = pn_parent(x);
        if (!pn_is(up, PT_list_splat)) continue;
        up = pn_parent(up);
        if (!pn_is(up, PT_argument_list)) continue;
        pn c = pn_parent(up);
        pn f = pn_is(c, PT_call) ? unparen(pn_field(c, PF_function)) : &pt_null;
        const char *m = pn_is(f, PT_attribute) ? text(L, pn_field(f, PF_attribute)) : NULL;
        if (m && cat(L, CAT_EXC_SINK, m)) return 1;
    }
    return 0;
}

/* A return that hands back nothing true: `return`, `return None`,
 * `return False`. */
static int returns_false(pn ret)
{
    pn v = pn_first_named(ret);
    if (pn_isnull(v) || pn_is(v, PT_comment)) return 1;
    v = unparen(v);
    return pn_is(v, PT_none) || pn_is(v, PT_false);
}

/* In `__aexit__(self, typ, value, tb)` (or `__exit__`): does the handler
 * raise what it caught unless the with-body's own exception is in flight
 * (`if value is None: raise`, `if exc is not value: raise`) and otherwise
 * end the method handing back nothing true? Or, the inverse, hand back
 * nothing true when what it caught is the body's exception (`if exc is
 * value: return False`) and raise anything else? The with statement then
 * raises the body's exception (or the very one caught): the task goes on
 * unwinding, nothing is swallowed. */
static int yields_to_body_exc(lower *L, pn handler, pn block, pn alias)
{
    pn def = handler;
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    if (pn_isnull(def)) return 0;
    const char *fname = text(L, pn_field(def, PF_name));
    if (strcmp(fname, "__aexit__") != 0 && strcmp(fname, "__exit__") != 0) return 0;
    const char *exc_param = NULL;
    int k = 0;
    PN_FOR_NAMED(prm, pn_field(def, PF_parameters)) {
        pn id = param_ident(prm);
        if (k++ == 2 && !pn_isnull(id)) exc_param = text(L, id);
    }
    if (!exc_param) return 0;
    const char *caught = !pn_isnull(alias) && pn_is(unparen(alias), PT_identifier) ? text(L, unparen(alias)) : NULL;
    ca_sb none_test = {0}, other_test = {0}, same_test = {0}, same_test2 = {0};
    ca_sb_addf(&none_test, "%s is None", exc_param);
    if (caught) {
        ca_sb_addf(&other_test, "%s is not %s", caught, exc_param);
        ca_sb_addf(&same_test, "%s is %s", caught, exc_param);
        ca_sb_addf(&same_test2, "%s is %s", exc_param, caught);
    }
    int guarded = 0, ok = 1, same = 0;
    pn last = &pt_null;
    PN_FOR_NAMED(st, block) {
        if (pn_is(st, PT_comment)) continue;
        last = st;
        if (!guarded && pn_is(st, PT_if_statement) && pn_isnull(pn_field(st, PF_alternative))) {
            const char *c = norm_text(L, unparen(pn_field(st, PF_condition)), 200);
            int test = strcmp(c, ca_sb_str(&none_test)) == 0 || (caught && strcmp(c, ca_sb_str(&other_test)) == 0);
            pn cons = pn_field(st, PF_consequence);
            pn only = pn_named_count(cons) == 1 ? pn_first_named(cons) : &pt_null;
            if (test && pn_is(only, PT_raise_statement)) {
                guarded = 1;
                continue;
            }
            /* the inverse: `if exc is value: return False` then `raise` */
            if (caught && (strcmp(c, ca_sb_str(&same_test)) == 0 || strcmp(c, ca_sb_str(&same_test2)) == 0) &&
                pn_is(only, PT_return_statement) && returns_false(only)) {
                guarded = same = 1;
                continue;
            }
        }
        /* (a return before the guard, or a true one after it, keeps the
         * caught exception from going anywhere) */
        const pt_node *endp = L->T->v + L->T->n;
        for (pn x = st; x < endp && x->start < st->end; x++)
            if (x->type == PT_return_statement && (!guarded || same || !returns_false(x))) ok = 0;
    }
    ca_sb_release(&none_test);
    ca_sb_release(&other_test);
    ca_sb_release(&same_test);
    ca_sb_release(&same_test2);
    if (!guarded || !ok) return 0;
    /* (after the inverse test the handler must raise: anything else is
     * the caught exception going nowhere) */
    if (same) return pn_is(last, PT_raise_statement);
    if (pn_is(last, PT_return_statement) || pn_is(last, PT_raise_statement)) return 1;
    /* falls past the try: the try must end the method */
    pn tr = pn_parent(handler);
    pn body = pn_field(def, PF_body);
    pn fin = &pt_null;
    PN_FOR_NAMED(st, body)
        if (!pn_is(st, PT_comment)) fin = st;
    return fin == tr;
}

/* Does the handler turn the cancellation into a status its caller is handed:
 * returned or yielded there (`return ChatResponse(finished_reason=
 * FinishedReason.INTERRUPTED)`), or stored in a local (or on a local's
 * attribute) that the function returns or yields (`acc.finished_reason =
 * INTERRUPTED` ... `yield acc.build()`)? The caller's code is told the work
 * was cancelled, as by a returned exception. */
static int reports_cancel(lower *L, pn handler, pn block)
{
    pn body = enclosing_body(handler);
    if (pn_isnull(body)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = block; x < endp && x->start < block->end; x++) {
        if (x->type == PT_function_definition || x->type == PT_lambda) {
            /* (a nested function's returns are its own) */
            uint32_t end = x->end;
            while (x + 1 < endp && (x + 1)->start < end) x++;
            continue;
        }
        if (x->type == PT_return_statement || x->type == PT_yield) {
            if (names_cancel_status(L, x)) return 1;
            continue;
        }
        if (x->type != PT_assignment && x->type != PT_augmented_assignment) continue;
        pn right = pn_field(x, PF_right), left = unparen(pn_field(x, PF_left));
        if (pn_isnull(right) || !names_cancel_status(L, right)) continue;
        while (pn_is(left, PT_attribute)) left = unparen(pn_field(left, PF_object));
        if (pn_is(left, PT_identifier) && !text_is(L, left, "self") && handed_back(L, body, text(L, left))) return 1;
    }
    return 0;
}

/* Does block b call a catalogued sweep of every task (`asyncio.all_tasks()`)? */
static int sweeps_tasks(lower *L, pn b)
{
    if (pn_isnull(b) || !bytes_contain(L->src + b->start, b->end - b->start, "all_tasks")) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = b; x < endp && x->start < b->end; x++) {
        if (x->type != PT_call) continue;
        char *d = dotted(L, pn_field(x, PF_function));
        if (d && cat(L, CAT_TASK_SWEEP, d)) return 1;
    }
    return 0;
}

/* The tasks block b makes (IR_ACQUIRE of kind task), into vs. */
static void tasks_made(const ir_block *b, int_vec *vs)
{
    for (int i = 0; i < b->n; i++) {
        const ir_node *n = b->v[i];
        if (n->kind == IR_ACQUIRE && n->var >= 0 && n->rkind && strcmp(n->rkind, "task") == 0) push_unique(vs, n->var);
        tasks_made(&n->a, vs);
        tasks_made(&n->b, vs);
        tasks_made(&n->c, vs);
        for (int k = 0; k < n->nbranches; k++) tasks_made(&n->branches[k], vs);
        for (int k = 0; k < n->nhandlers; k++) tasks_made(&n->handlers[k].body, vs);
    }
}

/* Does a handler's block ask something the try's body set up whether it
 * was itself cancelled? A scope the body entered (`with deadline() as
 * scope:`, then `if scope.cancelled(): ...` / `scope.cancelled_caught`:
 * catalog scope-own-test) swallows only its own cancellation. So does a
 * task the body awaited through a shield (`await asyncio.shield(t)` or
 * `wait_for(shield(conn.task), s)`, then `if not t.cancelled(): raise`),
 * when some path of the handler raises again: the shield keeps the
 * caller's cancellation from reaching t, so t was cancelled by someone
 * else, and a handler that goes on whatever the test says swallows the
 * caller's too. */
static int asks_own_cancel(lower *L, pn body, pn block)
{
    if (pn_isnull(body) || pn_isnull(block)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    const char *names[16];
    int shielded[16];
    int nn = 0, raises = 0;
    for (pn x = body; x < endp && x->start < body->end && nn < 16; x++) {
        if (x->type == PT_with_item) {
            pn val = unparen(pn_field(x, PF_value));
            if (!pn_is(val, PT_as_pattern)) continue;
            pn target = as_target(val);
            if (pn_isnull(target) || !pn_is(target, PT_identifier)) continue;
            names[nn] = text(L, target);
            shielded[nn++] = 0;
        } else if (x->type == PT_call && cat(L, CAT_SHIELD_CALL, dotted(L, pn_field(x, PF_function)))) {
            pn a = unparen(pn_first_named(pn_field(x, PF_arguments)));
            /* (`shield(asyncio.wrap_future(fut))`: fut seen another way) */
            if (pn_is(a, PT_call)) {
                char *vd = dotted(L, pn_field(a, PF_function));
                if (vd && cat(L, CAT_VIEW_CALL, vd)) a = unparen(first_pos_arg(a, 0));
            }
            if (!pn_is(a, PT_identifier) && !pn_is(a, PT_attribute)) continue;
            names[nn] = text(L, a);
            shielded[nn++] = 1;
        }
    }
    for (pn x = block; x < endp && x->start < block->end && !raises; x++) raises = x->type == PT_raise_statement;
    for (pn x = block; nn && x < endp && x->start < block->end; x++) {
        if (x->type != PT_attribute || !cat(L, CAT_SCOPE_OWN_TEST, text(L, pn_field(x, PF_attribute)))) continue;
        pn obj = unparen(pn_field(x, PF_object));
        const char *o = text(L, obj);
        int call = pn_is(pn_parent(x), PT_call) && pn_field(pn_parent(x), PF_function) == x;
        for (int k = 0; k < nn; k++) {
            if (strcmp(names[k], o) != 0) continue;
            if (!shielded[k] && pn_is(obj, PT_identifier)) return 1;
            if (shielded[k] && raises && call && text_is(L, pn_field(x, PF_attribute), "cancelled")) return 1;
        }
    }
    return 0;
}

static void lower_try(lower *L, pn s, ir_block *out)
{
    ir_node *t = emit(L, out, IR_TRY, s, -1);
    lower_block(L, pn_field(s, PF_body), &t->a);
    int nh = 0;
    PN_FOR_NAMED(ch, s)
        if (pn_is(ch, PT_except_clause) || pn_is(ch, PT_except_group_clause)) nh++;
    t->handlers = ca_arena_alloc(&L->m->arena, sizeof(ir_handler) * (size_t)(nh ? nh : 1));
    int cancel_taken = 0;
    PN_FOR_NAMED(ch, s) {
        if (pn_is(ch, PT_except_clause) || pn_is(ch, PT_except_group_clause)) {
            ir_handler *h = &t->handlers[t->nhandlers++];
            h->site = site_of(L, ch);
            h->exc_var = -1;
            pn types = pn_field(ch, PF_value), alias = pn_field(ch, PF_alias), block = &pt_null;
            PN_FOR_NAMED(x, ch) {
                if (pn_is(x, PT_block)) block = x;
                else if (pn_isnull(types) && !pn_is(x, PT_comment)) types = x;
                else if (pn_isnull(alias) && x != types && !pn_is(x, PT_comment)) alias = x;
            }
            /* `except E as e` may parse as an as_pattern */
            if (pn_is(types, PT_as_pattern)) {
                pn al = pn_field(types, PF_alias);
                if (!pn_isnull(al)) alias = unparen(pn_first_named(al));
                types = pn_first_named(types);
            }
            classify_handler(L, types, h);
            /* `except* E`: named so in messages (`except *E` is the same clause) */
            if (pn_is(ch, PT_except_group_clause) && h->catches && *h->catches) {
                ca_sb star = {0};
                ca_sb_addf(&star, "*%s", h->catches);
                h->catches = ca_arena_strdup(&L->m->arena, ca_sb_str(&star));
                ca_sb_release(&star);
            }
            /* a cancellation goes to the first clause that catches it: a
             * later one never sees it (`except CancelledError: raise` then
             * `except BaseException:`) */
            if (cancel_taken) h->flags &= ~(unsigned)H_CANCEL;
            else if (h->flags & H_CANCEL) cancel_taken = 1;
            if (!pn_isnull(block) &&
                (asks_cancelling(L, block) || asks_own_cancel(L, pn_field(s, PF_body), block) || recancels(L, block) ||
                 reports_cancel(L, s, block) || yields_to_body_exc(L, ch, block, alias) ||
                 (pn_isnull(alias) && hands_exc_info_on(L, block))))
                h->flags |= H_CANCELLING;
            if (!pn_isnull(alias) && pn_is(unparen(alias), PT_identifier))
                h->exc_var = ir_var_add(L->m, L->f, text(L, unparen(alias)), VAR_EXC);
            int saved = L->in_cleanup, saved_cancel = L->in_cancel_handler;
            L->in_cleanup = 1;
            if (h->flags & H_CANCEL) L->in_cancel_handler = 1;
            lower_block(L, block, &h->body);
            L->in_cleanup = saved;
            L->in_cancel_handler = saved_cancel;
        } else if (pn_is(ch, PT_else_clause)) {
            lower_block(L, pn_field(ch, PF_body), &t->b);
        } else if (pn_is(ch, PT_finally_clause)) {
            pn block = &pt_null;
            PN_FOR_NAMED(x, ch)
                if (pn_is(x, PT_block)) block = x;
            int saved = L->in_cleanup;
            L->in_cleanup = 1;
            /* `finally: for t in asyncio.all_tasks(): ...`: a sweep of every
             * task (tagged, then cancelled or waited for) reaches each task
             * the try made, however it is held */
            if (sweeps_tasks(L, block)) {
                int_vec made = {0};
                tasks_made(&t->a, &made);
                for (size_t i = 0; i < made.n; i++) emit_release(L, &t->c, block, made.v[i], 0, NULL);
                CA_VEC_FREE(made);
            }
            lower_block(L, block, &t->c);
            L->in_cleanup = saved;
            t->flags |= 1u; /* has finally */
        }
    }
}

static void lower_for(lower *L, pn s, ir_block *out)
{
    pn left = pn_field(s, PF_left), right = pn_field(s, PF_right);
    lower_expr(L, out, right, s);
    /* (the async generator a task's own frame iterates outside any loop
     * runs as that task's last frames, as an awaited call there does) */
    if (has_token(s, PT_async) && pn_is(unparen(right), PT_call) && L->f && (L->f->fflags & FN_OWN_TASK) &&
        L->loop_depth == 0)
        note_tail(L, unparen(right));
    /* `for app in apps` of `apps: list[App]`: app is an App */
    {
        pn lt = unparen(left), rt = unparen(right);
        const char *c = pn_is(lt, PT_identifier) && pn_is(rt, PT_identifier)
                            ? map_get(L->elem_class.v, L->elem_class.n, text(L, rt))
                            : NULL;
        /* (`for s in self._sessions.values()`, `for c in list(self._conns)`) */
        if (!c && pn_is(lt, PT_identifier) && !pn_is(rt, PT_identifier)) c = self_container_class(L, rt);
        if (c && *c) {
            name_map e = {text(L, lt), c, 0, 0};
            CA_VEC_PUSH(L->elem_class, e);
        }
    }
    ir_node *loop = emit(L, out, IR_LOOP, s, -1);
    if (has_token(s, PT_async)) loop->flags |= LOOP_ASYNC_FOR;
    loop->text = norm_text(L, s, 80);
    /* container of the elements: tasks, list(tasks), tasks.values(), enumerate(tasks) */
    pn r = unparen(right);
    int cv = -1;
    for (int guard = 0; guard < 4 && cv < 0; guard++) {
        if (pn_is(r, PT_identifier)) cv = var_of(L, r);
        else if (pn_is(r, PT_call)) {
            pn fn = unparen(pn_field(r, PF_function));
            pn a0 = first_pos_arg(r, 0);
            if (pn_is(fn, PT_attribute) && pn_isnull(a0)) r = unparen(pn_field(fn, PF_object));
            else if (!pn_isnull(a0)) r = unparen(a0);
            else break;
        } else break;
    }
    /* `async for ev in proc`: what is stepped (its __anext__ runs here) */
    if ((loop->flags & LOOP_ASYNC_FOR) && pn_is(unparen(right), PT_identifier)) loop->var = var_of(L, unparen(right));
    int_vec targets = {0};
    pn stack[32];
    int sp = 0;
    stack[sp++] = left;
    while (sp) {
        pn t = unparen(stack[--sp]);
        if (pn_is(t, PT_identifier)) {
            int v = ir_var_add(L->m, L->f, text(L, t), 0);
            push_unique(&targets, v);
        } else {
            PN_FOR_NAMED(ch, t) {
                if (sp >= 31) break;
                stack[sp++] = ch;
            }
        }
    }
    /* `for r in list(self._by_id.values())`: the elements are what self holds */
    {
        pn rr = unparen(right);
        for (int guard = 0; guard < 4 && pn_is(rr, PT_call); guard++) {
            pn fn = unparen(pn_field(rr, PF_function));
            pn a0 = first_pos_arg(rr, 0);
            rr = pn_is(fn, PT_attribute) && pn_isnull(a0) ? unparen(pn_field(fn, PF_object)) : unparen(a0);
        }
        pn root = pn_isnull(rr) ? &pt_null : root_ident(rr);
        int sv = pn_isnull(root) ? -1 : var_of(L, root);
        if (sv >= 0 && (L->f->vars[sv].flags & VAR_SELF) && !pn_is(rr, PT_identifier))
            for (size_t i = 0; i < targets.n; i++) L->f->vars[targets.v[i]].flags |= VAR_OF_SELF;
    }
    /* `for t in tasks: t.cancel()` then `for t2 in tasks: await t2`: an
     * earlier loop over the same container cancelled each element, so an
     * await of one is an await of a task the function cancelled, as
     * after `t.cancel(); await t` (first_cancel) */
    uint32_t cancelled_at = UINT32_MAX;
    for (size_t k = 0; cv >= 0 && k + 1 < L->elem_of.n; k += 2) {
        int e = L->elem_of.v[k];
        if (L->elem_of.v[k + 1] == cv && e >= 0 && L->f->vars[e].first_cancel < s->start &&
            L->f->vars[e].first_cancel < cancelled_at)
            cancelled_at = L->f->vars[e].first_cancel;
    }
    for (size_t i = 0; i < targets.n; i++) {
        if (cv >= 0 && targets.v[i] != cv) {
            L->f->vars[targets.v[i]].flags |= VAR_ELEMENT;
            ir_node *n = emit(L, &loop->a, IR_ELEMENT, s, targets.v[i]);
            n->var2 = cv;
            CA_VEC_PUSH(L->elem_of, targets.v[i]);
            CA_VEC_PUSH(L->elem_of, cv);
            if (cancelled_at != UINT32_MAX && L->f->vars[targets.v[i]].first_cancel == UINT32_MAX)
                L->f->vars[targets.v[i]].first_cancel = cancelled_at;
        }
    }
    /* `for task in (first, second): task.cancel()`: the name stands for
     * each value the literal lists (a release of it releases them all) */
    {
        pn rr = unparen(right);
        if (pn_is(rr, PT_tuple) || pn_is(rr, PT_list) || pn_is(rr, PT_set))
            PN_FOR_NAMED(el, rr) {
                pn eu = unparen(el);
                int ev = pn_is(eu, PT_identifier) ? var_of(L, eu) : -1;
                if (ev < 0) continue;
                for (size_t i = 0; i < targets.n; i++)
                    if (targets.v[i] != ev) emit(L, &loop->a, IR_ALIAS, s, ev)->var2 = targets.v[i];
            }
    }
    CA_VEC_FREE(targets);
    L->loop_depth++;
    lower_block(L, pn_field(s, PF_body), &loop->a);
    L->loop_depth--;
    pn alt = pn_field(s, PF_alternative);
    if (!pn_isnull(alt)) lower_block(L, pn_field(alt, PF_body), &loop->b);
    release_swept_members(L, out, s);
}

/* What a condition says about one variable: on which branch it holds
 * nothing to release (it is None, or it has finished: `t.done()`,
 * `proc.returncode is not None`). var -1 when it says nothing. */
typedef struct cond_fact {
    int var;
    int empty_if_true, empty_if_false;
    int type_test; /* `isinstance(v, socket.socket)`: lower_if decides */
} cond_fact;

static cond_fact no_fact(void)
{
    cond_fact f = {-1, 0, 0, 0};
    return f;
}

static cond_fact cond_test_d(lower *L, pn cond, int depth);
static int finished_set(lower *L, pn def, const char *name);

/* One test, not a chain: `v`, `v is None`, `v is not None`, `v.done()`,
 * `v.returncode is None`, with `not` around it; or, nested in parentheses
 * as an operand of a chain, a chain of the other operator (`t is None or
 * (isinstance(t, K) and t.returncode is not None)`), a few levels deep. */
static cond_fact cond_atom(lower *L, pn cond, int depth)
{
    int neg = 0;
    pn c = unparen(cond);
    for (int guard = 0; guard < 4 && pn_is(c, PT_not_operator); guard++) {
        neg ^= 1;
        c = unparen(pn_field(c, PF_argument));
    }
    cond_fact f = no_fact();
    if (pn_is(c, PT_named_expression)) c = unparen(pn_field(c, PF_name)); /* `if ts := [...]:` */
    if (pn_is(c, PT_boolean_operator)) {
        if (depth >= 4) return no_fact();
        f = cond_test_d(L, c, depth + 1);
    } else if (pn_is(c, PT_identifier)) {
        f.var = var_of(L, c);
        f.empty_if_false = 1; /* a falsy value: None (or empty) */
    } else if (pn_is(c, PT_call) && !neg && depth == 0 && pn_is(unparen(pn_field(c, PF_function)), PT_identifier) &&
               text_is(L, unparen(pn_field(c, PF_function)), "isinstance") &&
               pn_is(unparen(first_pos_arg(c, 0)), PT_identifier) && !pn_isnull(first_pos_arg(c, 1))) {
        /* `isinstance(sock, socket.socket)` of a catalogued resource class:
         * where it fails, sock is no such object (lower_if takes it only
         * where the test's branch hands sock on: the code's own word for
         * which value is the resource) */
        char *cd = dotted(L, unparen(first_pos_arg(c, 1)));
        if (!cd || !cat(L, CAT_ACQUIRE, cd)) return no_fact();
        f.var = var_of(L, unparen(first_pos_arg(c, 0)));
        f.empty_if_false = 1;
        f.type_test = 1;
    } else if (pn_is(c, PT_call) && pn_isnull(first_pos_arg(c, 0))) {
        pn fn = unparen(pn_field(c, PF_function));
        if (!pn_is(fn, PT_attribute)) return no_fact();
        const char *m = text(L, pn_field(fn, PF_attribute));
        /* `t.done()`: true, nothing left; `d.exists()`: false, nothing left */
        if (cat(L, CAT_DONE_TEST, m)) f.empty_if_true = 1;
        else if (cat(L, CAT_LIVE_TEST, m)) f.empty_if_false = 1;
        else return no_fact();
        f.var = var_of(L, pn_field(fn, PF_object));
    } else if (pn_is(c, PT_comparison_operator) && pn_named_count(c) == 2 &&
               pn_is(unparen(pn_first_named(c)), PT_identifier) && pn_is(unparen(pn_named_child(c, 1)), PT_identifier) &&
               (comparison_is(L, c, "in") || comparison_is(L, c, "not in"))) {
        /* `if t not in done:` of `done, _ = await asyncio.wait({t, ...})`
         * (a finished set, finished_set): where t is in it, t has ended */
        pn def = pn_parent(c);
        while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
        if (pn_isnull(def) || !finished_set(L, def, text(L, unparen(pn_named_child(c, 1))))) return no_fact();
        f.var = var_of(L, unparen(pn_first_named(c)));
        int in = comparison_is(L, c, "in");
        f.empty_if_true = in;
        f.empty_if_false = !in;
    } else if (pn_is(c, PT_comparison_operator) && pn_named_count(c) == 2) {
        pn a = unparen(pn_first_named(c)), b = unparen(pn_named_child(c, 1));
        if (!pn_is(b, PT_none)) return no_fact();
        char *t = text(L, c);
        int is_not = strstr(t, " is not ") != NULL || strstr(t, "!=") != NULL;
        int is_is = strstr(t, " is ") != NULL || strstr(t, "==") != NULL;
        if (!is_not && !is_is) return no_fact();
        if (pn_is(a, PT_identifier)) {
            f.var = var_of(L, a);
            f.empty_if_true = !is_not;
            f.empty_if_false = is_not;
        } else if (pn_is(a, PT_attribute) && cat(L, CAT_FINISHED_ATTR, text(L, pn_field(a, PF_attribute)))) {
            /* `proc.returncode is not None`: finished */
            f.var = var_of(L, pn_field(a, PF_object));
            f.empty_if_true = is_not;
            f.empty_if_false = !is_not;
        } else {
            return no_fact();
        }
    } else {
        return no_fact();
    }
    if (f.var < 0) return no_fact();
    if (neg) {
        int t = f.empty_if_true;
        f.empty_if_true = f.empty_if_false;
        f.empty_if_false = t;
    }
    return f;
}

/* A test, or an and/or chain of tests about one variable:
 * `t is not None and not t.done()` is false only when t holds nothing. The
 * chain is read iteratively (100,000 operands nest that deep). Under
 * `and`, the true branch has what any operand says of it and the false
 * branch what every operand says; under `or` the other way round. */
static cond_fact cond_test_d(lower *L, pn cond, int depth)
{
    pn c = unparen(cond);
    if (!pn_is(c, PT_boolean_operator)) return cond_atom(L, c, depth);
    unsigned op = pn_child(c, 1)->type;
    if (op != PT_and && op != PT_or) return no_fact();
    cond_fact acc = no_fact();
    int first = 1, complete = 1;
    /* the chain nests to the left: walk down its left spine, taking each
     * right operand, and the leftmost last */
    for (pn cur = c;; cur = unparen(pn_field(cur, PF_left))) {
        int is_chain = pn_is(cur, PT_boolean_operator) && pn_child(cur, 1)->type == op;
        cond_fact f = cond_atom(L, is_chain ? pn_field(cur, PF_right) : cur, depth);
        if (f.var < 0 || (!first && acc.var >= 0 && f.var != acc.var)) {
            complete = 0;
        } else {
            if (first || acc.var < 0) {
                acc = f;
            } else if (op == PT_and) {
                acc.empty_if_true |= f.empty_if_true;
                acc.empty_if_false &= f.empty_if_false;
            } else {
                acc.empty_if_true &= f.empty_if_true;
                acc.empty_if_false |= f.empty_if_false;
            }
        }
        first = 0;
        if (!is_chain) break;
    }
    if (acc.var < 0) return no_fact();
    /* an operand that says nothing may decide the branch the chain's
     * operands do not all agree on */
    if (!complete) {
        if (op == PT_and) acc.empty_if_false = 0;
        else acc.empty_if_true = 0;
    }
    return acc;
}

static cond_fact cond_test(lower *L, pn cond) { return cond_test_d(L, cond, 0); }

/* An exception class expression of isinstance(v, C): can it match a
 * cancellation? (a tuple or `A | B` if any member can) */
static int class_can_cancel(lower *L, pn t)
{
    pn stack[32];
    int sp = 0, can = 0;
    stack[sp++] = t;
    while (sp) {
        pn c = unparen(stack[--sp]);
        if (pn_is(c, PT_tuple) || pn_is(c, PT_binary_operator) || pn_is(c, PT_union_type)) {
            PN_FOR_NAMED(x, c) if (sp < 31) stack[sp++] = x;
            continue;
        }
        char *d = dotted(L, c);
        if (d && !cat(L, CAT_NOT_CANCEL_EXC, d) && (cat(L, CAT_CANCEL_EXC, d) || cat(L, CAT_CATCHALL_EXC, d))) can = 1;
    }
    return can;
}

/* One atom of a condition: the variable it is about and what the true
 * branch needs of it (TEST_*), or 0. */
static int exc_flag_of(lower *L, int v)
{
    for (size_t i = 0; v >= 0 && i + 1 < L->exc_flags.n; i += 2)
        if (L->exc_flags.v[i] == v) return L->exc_flags.v[i + 1];
    return -1;
}

static int bool_atom(lower *L, pn cond, int *var);

/* `flag = (a and isinstance(exc, Exception) and b)`: record that flag
 * truthy means exc is no cancellation (an operand of the `and` chain says
 * so, directly or through another such flag); any other binding of flag
 * forgets it. */
static void note_exc_flag(lower *L, int v, pn right)
{
    for (size_t i = 0; i + 1 < L->exc_flags.n; i += 2)
        if (L->exc_flags.v[i] == v) L->exc_flags.v[i] = -1;
    if (v < 0 || !L->f) return;
    pn c = unparen(right);
    int e = -1;
    for (int guard = 0; guard < 64; guard++) {
        int is_and = pn_is(c, PT_boolean_operator) && pn_child(c, 1)->type == PT_and;
        int av;
        int t = bool_atom(L, is_and ? pn_field(c, PF_right) : c, &av);
        if (t == TEST_EXC_OTHER) e = av;
        if (!is_and) break;
        c = unparen(pn_field(c, PF_left));
    }
    if (e < 0 || e == v) return;
    CA_VEC_PUSH(L->exc_flags, v);
    CA_VEC_PUSH(L->exc_flags, e);
}

static int bool_atom(lower *L, pn cond, int *var)
{
    int neg = 0;
    pn c = unparen(cond);
    for (int guard = 0; guard < 4 && pn_is(c, PT_not_operator); guard++) {
        neg ^= 1;
        c = unparen(pn_field(c, PF_argument));
    }
    int test = 0;
    *var = -1;
    /* `if tasks := [...]:` tests the name it binds */
    if (pn_is(c, PT_named_expression)) c = unparen(pn_field(c, PF_name));
    if (pn_is(c, PT_identifier)) {
        *var = var_of(L, c);
        test = TEST_TRUTHY;
        /* a flag that holds only when the exception is no cancellation */
        int e = neg ? -1 : exc_flag_of(L, *var);
        if (e >= 0) {
            *var = e;
            return TEST_EXC_OTHER;
        }
    } else if (pn_is(c, PT_comparison_operator) && pn_named_count(c) == 2) {
        pn a = unparen(pn_first_named(c)), b = unparen(pn_named_child(c, 1));
        if (!pn_is(a, PT_identifier)) return 0;
        char *t = text(L, c);
        int is_not = strstr(t, " is not ") != NULL || strstr(t, "!=") != NULL;
        int is_is = !is_not && (strstr(t, " is ") != NULL || strstr(t, "==") != NULL);
        if (!is_not && !is_is) return 0;
        *var = var_of(L, a);
        if (pn_is(b, PT_none)) test = is_not ? TEST_NOT_NONE : TEST_NONE;
        else if (pn_is(b, PT_true)) test = is_not ? TEST_FALSY : TEST_TRUTHY;
        else if (pn_is(b, PT_false)) test = is_not ? 0 : TEST_FALSE;
    } else if (pn_is(c, PT_call)) {
        char *d = dotted(L, pn_field(c, PF_function));
        pn a0 = first_pos_arg(c, 0), a1 = first_pos_arg(c, 1);
        if (d && strcmp(d, "isinstance") == 0 && !pn_isnull(a0) && !pn_isnull(a1) && pn_is(unparen(a0), PT_identifier)) {
            *var = var_of(L, a0);
            test = class_can_cancel(L, a1) ? TEST_EXC_CANCEL : TEST_EXC_OTHER;
        }
    }
    if (*var < 0 || !test) return 0;
    if (neg) {
        switch (test) {
        case TEST_TRUTHY: test = TEST_FALSY; break;
        case TEST_FALSY: test = TEST_TRUTHY; break;
        case TEST_NONE: test = TEST_NOT_NONE; break;
        case TEST_NOT_NONE: test = TEST_NONE; break;
        case TEST_EXC_CANCEL: test = TEST_EXC_OTHER; break;
        case TEST_EXC_OTHER: test = TEST_EXC_CANCEL; break;
        default: return 0;
        }
    }
    return test;
}

/* The atoms branch 0 of `if cond:` needs: one, or every operand of an
 * `and` chain that is one (read iteratively down the chain's left spine). */
static void if_atoms(lower *L, ir_node *n, pn cond)
{
    int_vec vars = {0};
    CA_VEC(uint8_t) tests = {0};
    pn c = unparen(cond);
    int chain = pn_is(c, PT_boolean_operator) && pn_child(c, 1)->type == PT_and;
    for (pn cur = c;; cur = unparen(pn_field(cur, PF_left))) {
        int is_chain = chain && pn_is(cur, PT_boolean_operator) && pn_child(cur, 1)->type == PT_and;
        int v;
        int t = bool_atom(L, is_chain ? pn_field(cur, PF_right) : cur, &v);
        if (t) {
            CA_VEC_PUSH(vars, v);
            CA_VEC_PUSH(tests, (uint8_t)t);
        }
        if (!is_chain || vars.n > 64) break;
    }
    /* a lone atom says what the other branches have too; of a chain only
     * the true branch is known, so a chain keeps its atoms only when all of
     * them were read (an unknown operand does not weaken branch 0) */
    if (vars.n) {
        n->vars = ca_arena_alloc(&L->m->arena, sizeof(int) * vars.n);
        uint8_t *t = ca_arena_alloc(&L->m->arena, tests.n);
        for (size_t i = 0; i < vars.n; i++) {
            n->vars[i] = vars.v[i];
            t[i] = tests.v[i];
        }
        n->tests = t;
        n->nvars = (int)vars.n;
        if (!chain && vars.n == 1) n->flags |= IF_ONE_TEST;
    }
    CA_VEC_FREE(vars);
    CA_VEC_FREE(tests);
}

static void prepend_done(lower *L, ir_block *b, int v, ir_site at, unsigned flags)
{
    ir_node *d = ir_node_new(L->m, IR_DONE, at);
    d->var = v;
    d->flags = flags;
    ir_block_push(L->m, b, d);
    for (int i = b->n - 1; i > 0; i--) b->v[i] = b->v[i - 1];
    b->v[0] = d;
}

/* Does the condition read only options: attributes of self (or cls),
 * parameters, constants, combined with not/and/or/comparisons? At least
 * one option, no call, no local of the function's own making. */
/* Is identifier x, which the function it is in never binds, a parameter of
 * a function around that one (`def catch(reraise: bool = True): def
 * wrap(f): async def run(): ... if reraise: raise`)? The decorator's
 * option, fixed when the wrapper is made. */
static int closure_param(lower *L, pn x)
{
    const char *name = text(L, x);
    int fns = 0;
    for (pn p = pn_parent(x); !pn_isnull(p); p = pn_parent(p)) {
        if (pn_is(p, PT_class_definition) || pn_is(p, PT_lambda)) return 0;
        if (!pn_is(p, PT_function_definition)) continue;
        if (fns++ == 0) continue; /* (the function the test is in) */
        pn params = pn_field(p, PF_parameters);
        if (pn_isnull(params)) continue;
        PN_FOR_NAMED(pp, params) {
            pn id = param_ident(pp);
            if (!pn_isnull(id) && pn_is(id, PT_identifier) && strcmp(text(L, id), name) == 0) return 1;
        }
        /* (bound in that function's body instead: a local of it, not an option) */
        pn body = pn_field(p, PF_body);
        const pt_node *endp = L->T->v + L->T->n;
        for (pn y = body; !pn_isnull(body) && y < endp && y->start < body->end; y++)
            if (binds_name(L, y, name)) return 0;
    }
    return 0;
}

static int config_condition(lower *L, pn cond)
{
    pn c = unparen(cond);
    const pt_node *endp = L->T->v + L->T->n;
    int options = 0;
    for (pn x = c; x < endp && x->start < c->end; x++) {
        if (x->end <= c->start) continue;
        switch (x->type) {
        case PT_call: case PT_await: case PT_lambda: case PT_named_expression: return 0;
        case PT_attribute: {
            pn r = root_ident(x);
            int v = pn_isnull(r) ? -1 : var_of(L, r);
            if (v < 0 || !(L->f->vars[v].flags & (VAR_SELF | VAR_PARAM))) return 0;
            if (L->f->vars[v].flags & VAR_SELF) {
                /* self.x: an option of the object, not its state */
                pn obj = unparen(pn_field(x, PF_object));
                if (obj != r || !L->class_name) return 0;
                ca_sb key = {0};
                ca_sb_addf(&key, "%s.%s", L->class_name, text(L, pn_field(x, PF_attribute)));
                const char *o = map_get(L->options.v, L->options.n, ca_sb_str(&key));
                ca_sb_release(&key);
                if (!o || strcmp(o, "1") != 0) return 0;
            }
            options = 1;
            x = pn_field(x, PF_attribute); /* (its parts are read) */
            break;
        }
        case PT_identifier: {
            pn p = pn_parent(x);
            if (!pn_isnull(p) && pn_is(p, PT_attribute) && pn_field(p, PF_object) != x) break; /* an attribute name */
            int v = var_of(L, x);
            if (v < 0 && closure_param(L, x)) {
                options = 1;
                break;
            }
            if (v < 0 || !(L->f->vars[v].flags & (VAR_SELF | VAR_PARAM))) return 0;
            options = 1;
            break;
        }
        default: break;
        }
    }
    return options;
}

/* `if w is None:` in a loop that never binds w again (the outermost loop
 * around the if, in this function, nested functions included): every pass
 * of the loop takes the branch the first pass took, since an identity test
 * keeps its answer while the name keeps its object. */
static int loop_fixed_test(lower *L, pn s, const ir_node *n)
{
    if (!(n->flags & IF_ONE_TEST) || n->nvars != 1 || n->vars[0] < 0 ||
        (n->tests[0] != TEST_NONE && n->tests[0] != TEST_NOT_NONE))
        return 0;
    pn loop = &pt_null;
    for (pn p = pn_parent(s); !pn_isnull(p); p = pn_parent(p)) {
        if (pn_is(p, PT_function_definition) || pn_is(p, PT_lambda) || pn_is(p, PT_class_definition)) break;
        if (pn_is(p, PT_for_statement) || pn_is(p, PT_while_statement)) loop = p;
    }
    if (pn_isnull(loop)) return 0;
    const char *name = L->f->vars[n->vars[0]].name;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = loop; x < endp && x->start < loop->end; x++)
        if (binds_name(L, x, name)) return 0;
    return 1;
}

/* Is the condition a test of a value itself (`if pending:`, `if not x`,
 * `if x is None`), not of a task's end (`t.done()`, `proc.returncode`)?
 * Where it finds the value falsy or None, the value holds nothing: what was
 * put into it has left (DONE_EMPTY). */
static int value_test(pn cond)
{
    pn c = unparen(cond);
    for (int guard = 0; guard < 4 && pn_is(c, PT_not_operator); guard++) c = unparen(pn_field(c, PF_argument));
    if (pn_is(c, PT_named_expression)) c = unparen(pn_field(c, PF_name));
    if (pn_is(c, PT_identifier)) return 1;
    return pn_is(c, PT_comparison_operator) && pn_named_count(c) == 2 && pn_is(unparen(pn_first_named(c)), PT_identifier) &&
           pn_is(unparen(pn_named_child(c, 1)), PT_none);
}

/* `if False:` / `if 0:` / `if None:`: code switched off, whose body never
 * runs, so nothing in it opens or suspends. But `if False: yield`, the
 * idiom that makes a stub a generator: a yield there, when the function
 * has none elsewhere, still says what the function is, so that body is
 * read. */
static int switched_off(lower *L, pn s)
{
    pn c0 = unparen(pn_field(s, PF_condition));
    if (!pn_is(c0, PT_false) && !pn_is(c0, PT_none) && !(pn_is(c0, PT_integer) && text_is(L, c0, "0"))) return 0;
    pn body = pn_field(s, PF_consequence), d = pn_parent(s);
    while (!pn_isnull(d) && !pn_is(d, PT_function_definition)) d = pn_parent(d);
    pn fbody = pn_isnull(d) ? d : pn_field(d, PF_body);
    const pt_node *endp = L->T->v + L->T->n;
    uint32_t nested_end = 0;
    int inside = 0, outside = 0;
    for (pn x = fbody; !pn_isnull(fbody) && x < endp && x->start < fbody->end; x++) {
        if (in_nested_def(x, &nested_end) || x->type != PT_yield) continue;
        if (!pn_isnull(body) && x->start >= body->start && x->end <= body->end) inside = 1;
        else outside = 1;
    }
    return !(inside && !outside);
}

/* Does block b end in a return whose value names variable v (`return
 * sock, address`)? */
static int branch_returns_var(lower *L, pn b, int v)
{
    if (pn_isnull(b) || v < 0) return 0;
    pn last = &pt_null;
    PN_FOR_NAMED(st, b) last = st;
    if (pn_isnull(last) || !pn_is(last, PT_return_statement)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = last; x < endp && x->start < last->end; x++)
        if (x->type == PT_identifier && var_of(L, x) == v) return 1;
    return 0;
}

static void lower_if(lower *L, pn s, ir_block *out)
{
    lower_expr(L, out, pn_field(s, PF_condition), s);
    ir_node *n = emit(L, out, IR_IF, s, -1);
    cond_fact cf = cond_test(L, pn_field(s, PF_condition));
    /* (the test alone: in a chain its failing says nothing of the type) */
    if (cf.type_test && (!pn_is(unparen(pn_field(s, PF_condition)), PT_call) ||
                         !branch_returns_var(L, pn_field(s, PF_consequence), cf.var)))
        cf = no_fact();
    unsigned empty = value_test(pn_field(s, PF_condition)) ? DONE_EMPTY : 0;
    if_atoms(L, n, pn_field(s, PF_condition));
    if (config_condition(L, pn_field(s, PF_condition))) n->flags |= IF_ON_CONFIG;
    int cflag = tests_cancel_flag(L, pn_field(s, PF_condition));
    if (cflag) n->flags |= IF_CANCEL_FLAG | (cflag == 2 ? IF_CANCEL_FLAG_NOT : 0);
    if (loop_fixed_test(L, s, n)) n->flags |= IF_LOOP_FIXED;
    int nb = 1;
    PN_FOR_NAMED(ch, s)
        if (pn_is(ch, PT_elif_clause) || pn_is(ch, PT_else_clause)) nb++;
    n->branches = ca_arena_alloc(&L->m->arena, sizeof(ir_block) * (size_t)(nb + 1));
    if (switched_off(L, s)) n->nbranches++;
    else lower_block(L, pn_field(s, PF_consequence), &n->branches[n->nbranches++]);
    PN_FOR_NAMED(ch, s) {
        if (pn_is(ch, PT_elif_clause)) {
            ir_block *b = &n->branches[n->nbranches++];
            /* every elif and the else run only when the first test failed */
            if (cf.var >= 0 && cf.empty_if_false) emit(L, b, IR_DONE, ch, cf.var)->flags = empty;
            lower_expr(L, b, pn_field(ch, PF_condition), ch);
            lower_block(L, pn_field(ch, PF_consequence), b);
        } else if (pn_is(ch, PT_else_clause)) {
            ir_block *b = &n->branches[n->nbranches++];
            if (cf.var >= 0 && cf.empty_if_false) emit(L, b, IR_DONE, ch, cf.var)->flags = empty;
            lower_block(L, pn_field(ch, PF_body), b);
            n->flags |= IF_HAS_ELSE;
        }
    }
    if (cf.var < 0) return;
    if (cf.empty_if_true) prepend_done(L, &n->branches[0], cf.var, n->site, empty);
    if (cf.empty_if_false && !(n->flags & IF_HAS_ELSE) && n->nbranches == 1) {
        /* the implicit else: nothing to release there */
        ir_node *d = ir_node_new(L->m, IR_DONE, n->site);
        d->var = cf.var;
        d->flags = empty;
        ir_block_push(L->m, &n->branches[n->nbranches++], d);
        n->flags |= IF_HAS_ELSE;
    }
}

static void lower_match(lower *L, pn s, ir_block *out)
{
    pn body = pn_field(s, PF_body);
    PN_FOR_NAMED(ch, s)
        if (ch != body) lower_expr(L, out, ch, s);
    ir_node *n = emit(L, out, IR_IF, s, -1);
    uint32_t nc = pn_named_count(body);
    n->branches = ca_arena_alloc(&L->m->arena, sizeof(ir_block) * (size_t)(nc ? nc : 1));
    PN_FOR_NAMED(cc, body) {
        if (!pn_is(cc, PT_case_clause)) continue;
        ir_block *b = &n->branches[n->nbranches++];
        PN_FOR_NAMED(p, cc) {
            if (pn_is(p, PT_case_pattern) && strcmp(text(L, p), "_") == 0 && pn_isnull(pn_field(cc, PF_guard)))
                n->flags |= IF_HAS_ELSE;
        }
        lower_block(L, pn_field(cc, PF_consequence), b);
    }
}

/* A function defined in a function that nothing there names (no
 * decorator registers it, no call, no reference, not returned): it never
 * runs, so none of its code is read (its name is local to that scope). */
static int never_named(lower *L, pn def)
{
    if (!pn_is(def, PT_function_definition) || pn_is(pn_parent(def), PT_decorated_definition)) return 0;
    pn outer = pn_parent(def);
    while (!pn_isnull(outer) && !pn_is(outer, PT_function_definition)) outer = pn_parent(outer);
    pn nm = pn_field(def, PF_name);
    if (pn_isnull(outer) || pn_isnull(nm)) return 0;
    const char *name = text(L, nm);
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = outer + 1; x < endp && x->start < outer->end; x++)
        if (x != nm && x->type == PT_identifier && text_is(L, x, name)) return 0;
    return 1;
}

static void queue_def(lower *L, pn def)
{
    if (never_named(L, def)) return;
    pending_def p;
    p.node = def;
    ca_sb sb = {0};
    ca_sb_addf(&sb, "%s.<locals>.", L->f->qualname);
    p.prefix = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
    ca_sb_release(&sb);
    p.class_name = NULL;
    p.outer_class = L->class_name ? L->class_name : L->outer_class;
    CA_VEC_PUSH(L->pending, p);
}

static void lower_stmt(lower *L, pn s, ir_block *out)
{
    if (L->too_deep) return;
    unsigned t = s->type;
    if (t == PT_expression_statement) {
        PN_FOR_NAMED(e, s) {
            if (pn_is(e, PT_assignment)) {
                /* a = b = value: evaluate the value once, bind each target */
                pn cur = e;
                pn targets[32];
                int nt = 0;
                while (pn_is(cur, PT_assignment) && nt < 32) {
                    targets[nt++] = pn_field(cur, PF_left);
                    pn rr = pn_field(cur, PF_right);
                    if (pn_isnull(rr)) { cur = rr; break; }
                    cur = rr;
                }
                /* `x: str = ""`: the name holds plain data in the whole
                 * function (a checker holds every later binding to it) */
                pn ty = pn_field(e, PF_type);
                int plain = !pn_isnull(ty) && annot_plain(L, ty, NULL);
                if (plain && nt == 1 && pn_is(unparen(targets[0]), PT_identifier))
                    CA_VEC_PUSH(L->plain_decl, text(L, unparen(targets[0])));
                /* `it = aiter(stream)`: a view of its argument, the same
                 * object for an iterator or a generator: bound as `it = stream` */
                if (pn_is(unparen(cur), PT_call)) {
                    pn c = unparen(cur);
                    char *d = dotted(L, pn_field(c, PF_function));
                    pn a0 = unparen(first_pos_arg(c, 0));
                    if (d && cat(L, CAT_VIEW_CALL, d) && pn_is(a0, PT_identifier) && pn_isnull(first_pos_arg(c, 1)))
                        cur = a0;
                    /* `peer = cast(LESPeer, self.pool.best_peer)`: a read of
                     * the attribute, told to the type checker (catalog
                     * cast-call), whatever holds it still holds it; `conn =
                     * cast(Connection, conn)`, the same object under a type */
                    else if (d && cat(L, CAT_CAST_CALL, d) &&
                             (pn_is(unparen(first_pos_arg(c, 1)), PT_attribute) ||
                              pn_is(unparen(first_pos_arg(c, 1)), PT_identifier)) &&
                             pn_isnull(first_pos_arg(c, 2)))
                        cur = unparen(first_pos_arg(c, 1));
                }
                if (!pn_isnull(cur)) {
                    lower_expr(L, out, cur, s);
                    L->plain_bind = plain;
                    /* `REG[k] = x = make()`: one object under every target.
                     * A name takes the value first; the other targets then
                     * store that name, so the registry store is a store of x */
                    pn named = &pt_null;
                    /* (a value made here: `a = b = None` binds each name
                     * to the literal, as before) */
                    int made = pn_is(unparen(cur), PT_call) || pn_is(unparen(cur), PT_await);
                    for (int k = 0; k < nt && nt > 1 && made; k++)
                        if (pn_is(unparen(targets[k]), PT_identifier)) { named = unparen(targets[k]); break; }
                    if (!pn_isnull(named)) bind_target(L, out, named, cur, s);
                    for (int k = 0; k < nt; k++)
                        if (unparen(targets[k]) != named)
                            bind_target(L, out, targets[k], pn_isnull(named) ? cur : named, s);
                    L->plain_bind = 0;
                }
            } else if (pn_is(e, PT_augmented_assignment)) {
                lower_expr(L, out, pn_field(e, PF_right), s);
            } else {
                int n0 = out->n;
                lower_expr(L, out, e, s);
                /* `f(x)` / `await f(x)` as a statement: what it returns is
                 * dropped (CALL_DROPPED) */
                pn c = unparen(e);
                if (pn_is(c, PT_await)) c = unparen(pn_first_named(c));
                for (int k = n0; pn_is(c, PT_call) && k < out->n; k++)
                    if (out->v[k]->kind == IR_CALL && out->v[k]->site.start == c->start && out->v[k]->site.end == c->end)
                        out->v[k]->flags |= CALL_DROPPED;
            }
        }
        return;
    }
    if (t == PT_return_statement) {
        PN_FOR_NAMED(e, s) {
            pn re = unparen(e);
            int unbound = pn_is(re, PT_identifier) && ir_var_find(L->f, text(L, re)) < 0;
            lower_expr(L, out, e, s);
            int rv;
            if (pn_is(re, PT_attribute) && owner_of(L, re, &rv) == OWN_SELF) L->f->fflags |= FN_RETURNS_BORROWED;
            /* `def get_sink(): return _sink`: a module-level object the
             * function only reads (not one it makes on first use, `global
             * _x; _x = X()`), which the module keeps */
            if (unbound && !declared_outer(L, text(L, re)) && map_get(L->globals.v, L->globals.n, text(L, re)))
                L->f->fflags |= FN_RETURNS_BORROWED;
            /* `return next((m for m in self.models if ...), None)`: an
             * element of what self holds */
            if (returns_element_of_self(L, re)) L->f->fflags |= FN_RETURNS_BORROWED;
            /* `return self._workspaces[name]`: an entry of a registry self
             * holds, which self keeps */
            if (pn_is(re, PT_subscript)) {
                pn held = unparen(pn_field(re, PF_value));
                if (pn_is(held, PT_attribute) && owner_of(L, held, &rv) == OWN_SELF) L->f->fflags |= FN_RETURNS_BORROWED;
            }
            /* `fut = Future(); self._futures[name] = fut; return fut`: a
             * value this block stored in self before the return, on every
             * path that reaches it, is lent: self keeps it (not one parked
             * on a parameter's object, which may own nothing) */
            if (pn_is(re, PT_identifier)) {
                int v = var_of(L, re);
                for (int k = 0; v >= 0 && k < out->n; k++) {
                    const ir_node *x = out->v[k];
                    if (x->kind == IR_TRANSFER && x->var == v && (x->flags & XFER_SELF) &&
                        !(x->flags & (XFER_RETURN | XFER_PART))) {
                        L->f->fflags |= FN_RETURNS_BORROWED;
                        break;
                    }
                }
            }
            if (pn_is(re, PT_call)) L->returns_call++;
            else if (!pn_is(re, PT_none)) L->returns_other++;
            int_vec vs = {0};
            value_vars(L, e, &vs);
            for (size_t k = 0; k < vs.n; k++) emit(L, out, IR_TRANSFER, s, vs.v[k])->flags = XFER_RETURN;
            CA_VEC_FREE(vs);
        }
        pn rv0 = unparen(pn_first_named(s));
        /* `return self._client.create(...)`: what the function hands back is
         * that call's result (the rules ask whether it makes a resource) */
        ir_node *made_by = !pn_isnull(rv0) && pn_is(rv0, PT_call) ? making_call(L, out, rv0) : NULL;
        ir_node *ret = emit(L, out, IR_RETURN, s, -1);
        ret->ref = made_by;
        /* `return {"base_dir": d, "atp": atp}`: a literal built here */
        if (pn_isnull(rv0) || pn_is(rv0, PT_dictionary) || pn_is(rv0, PT_list) || pn_is(rv0, PT_tuple) ||
            pn_is(rv0, PT_set) || pn_is(rv0, PT_string) || pn_is(rv0, PT_integer) || pn_is(rv0, PT_float) ||
            pn_is(rv0, PT_true) || pn_is(rv0, PT_false) || pn_is(rv0, PT_none) || pn_is(rv0, PT_expression_list))
            ret->flags |= RETURN_LITERAL;
        /* (or a value a catalogued plain call builds in place, `return
         * tqdm(desc=label)`, `return str(x)`) */
        if (!pn_isnull(rv0) && pn_is(rv0, PT_call)) {
            char *pd = dotted(L, pn_field(rv0, PF_function));
            if (pd && cat(L, CAT_PLAIN_CALL, pd)) ret->flags |= RETURN_LITERAL;
        }
        if (ret->flags & RETURN_LITERAL) L->returns_literal++;
        else L->returns_nonliteral++;
        /* `return await worker, True` in a cancellation handler, where the
         * function's other returns say False there (`return await
         * shield(worker), False`): the flag tells the caller it was
         * cancelled, for it to raise */
        if (L->in_cancel_handler && returns_cancel_flag(L, s)) ret->flags |= RETURN_CANCEL;
        /* `return asyncio.CancelledError()` / `return exc_cancelled`: handed to the caller to raise */
        if (!pn_isnull(rv0)) {
            char *d = dotted(L, pn_is(rv0, PT_call) ? pn_field(rv0, PF_function) : rv0);
            if (d && cat(L, CAT_CANCEL_EXC, d) && !cat(L, CAT_NOT_CANCEL_EXC, d)) ret->flags |= RETURN_CANCEL;
            /* `return self._entries.pop(key, None)`: hands its caller an entry taken out of a registry */
            if (pn_is(rv0, PT_call) && (classify_rhs(L, rv0).acq & ACQ_REGISTRY_TAKE)) ret->flags |= RETURN_TAKEN;
            /* `return async_timeout.timeout_at(when)`: a helper that makes a quiet scope */
            if (pn_is(rv0, PT_call) && ctx_matches(L, rv0, CAT_NONSUSPENDING_ENTER) && nonsuspending_ctx(L, rv0))
                ret->flags |= RETURN_QUIET_CM;
        }
        return;
    }
    if (t == PT_raise_statement) {
        int rv = -1;
        unsigned rf = 0;
        PN_FOR_NAMED(e, s) {
            lower_expr(L, out, e, s);
            if (e == pn_first_named(s)) {
                rv = var_of(L, e);
                pn x = unparen(e);
                char *d = dotted(L, pn_is(x, PT_call) ? pn_field(x, PF_function) : x);
                if (d && cat(L, CAT_CANCEL_EXC, d) && !cat(L, CAT_NOT_CANCEL_EXC, d)) rf |= RAISE_CANCEL;
            }
        }
        ir_node *n = emit(L, out, IR_RAISE, s, -1);
        n->var2 = rv;
        if (pn_isnull(pn_first_named(s))) rf |= RAISE_BARE;
        n->flags = rf;
        return;
    }
    if (t == PT_break_statement) { emit(L, out, IR_BREAK, s, -1); return; }
    if (t == PT_continue_statement) { emit(L, out, IR_CONTINUE, s, -1); return; }
    if (t == PT_delete_statement) {
        pn stack[32];
        int sp = 0;
        PN_FOR_NAMED(e, s) {
            if (sp >= 32) break;
            stack[sp++] = e;
        }
        while (sp) {
            pn e = unparen(stack[--sp]);
            if (pn_is(e, PT_expression_list) || pn_is(e, PT_tuple)) {
                PN_FOR_NAMED(x, e) {
                    if (sp >= 32) break;
                    stack[sp++] = x;
                }
            } else if (pn_is(e, PT_subscript) && is_registry(L, pn_field(e, PF_value))) {
                ir_node *n = emit(L, out, IR_TAKE, e, -1);
                n->text = norm_text(L, pn_field(e, PF_value), 200);
            }
        }
        return;
    }
    if (t == PT_global_statement || t == PT_nonlocal_statement) {
        PN_FOR_NAMED(x, s) {
            const char *nm = text(L, x);
            CA_VEC_PUSH(L->global_decl, nm);
        }
        return;
    }
    if (t == PT_function_definition || t == PT_class_definition) {
        if (t == PT_function_definition) closure_cancels(L, s);
        queue_def(L, s);
        return;
    }
    if (t == PT_decorated_definition) {
        pn d = pn_field(s, PF_definition);
        if (!pn_isnull(d)) queue_def(L, d);
        return;
    }
    if (t == PT_assert_statement || t == PT_print_statement || t == PT_exec_statement) {
        PN_FOR_NAMED(x, s) lower_expr(L, out, x, s);
        return;
    }
    /* compound statements: bounded depth */
    int compound = t == PT_if_statement || t == PT_for_statement ||
                   t == PT_while_statement || t == PT_try_statement ||
                   t == PT_with_statement || t == PT_match_statement;
    if (!compound) return;
    if (++L->depth > IR_MAX_DEPTH) {
        L->too_deep = 1;
        L->f->truncated = 1;
        L->depth--;
        return;
    }
    if (t == PT_if_statement) lower_if(L, s, out);
    else if (t == PT_for_statement) lower_for(L, s, out);
    else if (t == PT_while_statement) {
        ir_node *n = emit(L, out, IR_LOOP, s, -1);
        pn cond = pn_field(s, PF_condition);
        if (is_true_literal(L, cond)) n->flags |= LOOP_INFINITE;
        lower_expr(L, &n->c, cond, s);
        /* `while not self._stopping:` of a flag the object's canceller sets
         * before its cancel: each pass tests it again, after whatever the
         * pass before did (a handler there included), as an `if` of that
         * flag at the end of the body would: placed there */
        if (!(n->flags & LOOP_INFINITE) && tests_cancel_flag(L, cond)) {
            ir_site end = n->site;
            end.start = end.end;
            ir_node *t = ir_node_new(L->m, IR_IF, end);
            t->flags = IF_CANCEL_FLAG;
            t->branches = ca_arena_alloc(&L->m->arena, sizeof(ir_block) * 2);
            t->nbranches = 2;
            t->flags |= IF_HAS_ELSE;
            ir_block_push(L->m, &n->c, t);
        }
        L->loop_depth++;
        lower_block(L, pn_field(s, PF_body), &n->a);
        L->loop_depth--;
        /* `while not conn:`: each pass starts where the test found conn
         * empty, holding nothing (as the branch of an `if not conn:`) */
        if (!(n->flags & LOOP_INFINITE)) {
            cond_fact cf = cond_test(L, cond);
            if (cf.var >= 0 && cf.empty_if_true)
                prepend_done(L, &n->a, cf.var, n->site, value_test(cond) ? DONE_EMPTY : 0);
        }
        pn alt = pn_field(s, PF_alternative);
        /* `while need_retry and retry <= 5:`: a pass runs only where the
         * test holds, `while c: body` read as `while True: if not c:
         * break` (a flag the pass before cleared on success ends the loop
         * there, with what that pass made: no next pass holds it); not for
         * a loop with an else, which the test's failure runs */
        if (!(n->flags & LOOP_INFINITE) && pn_isnull(alt)) {
            ir_site at = site_of(L, cond);
            ir_node *t = ir_node_new(L->m, IR_IF, at);
            if_atoms(L, t, cond);
            /* `while not task.done():` left by its test: the task has
             * ended there (a break inside leaves it as it was) */
            cond_fact xf = cond_test(L, cond);
            if (t->nvars > 0 || (xf.var >= 0 && xf.empty_if_false)) {
                t->branches = ca_arena_alloc(&L->m->arena, sizeof(ir_block) * 2);
                memset(t->branches, 0, sizeof(ir_block) * 2);
                t->nbranches = 2;
                t->flags |= IF_HAS_ELSE | IF_LOOP_TEST;
                if (xf.var >= 0 && xf.empty_if_false) {
                    ir_node *d = ir_node_new(L->m, IR_DONE, at);
                    d->var = xf.var;
                    d->flags = value_test(cond) ? DONE_EMPTY : 0;
                    ir_block_push(L->m, &t->branches[1], d);
                }
                ir_block_push(L->m, &t->branches[1], ir_node_new(L->m, IR_BREAK, at));
                ir_block_push(L->m, &n->a, t);
                for (int i = n->a.n - 1; i > 0; i--) n->a.v[i] = n->a.v[i - 1];
                n->a.v[0] = t;
            }
        }
        if (!pn_isnull(alt)) lower_block(L, pn_field(alt, PF_body), &n->b);
    } else if (t == PT_try_statement) lower_try(L, s, out);
    else if (t == PT_with_statement) lower_with(L, s, out);
    else if (t == PT_match_statement) lower_match(L, s, out);
    L->depth--;
}

static void lower_block(lower *L, pn block, ir_block *out)
{
    PN_FOR_NAMED(st, block) {
        if (L->too_deep) break;
        lower_stmt(L, st, out);
    }
}

/* ------------------------------------------------------------------------ */
/* Annotations, decorators and classes.                                     */

/* The right side of a module-level type alias bound once (`ClientDep =
 * Annotated[Client, Depends(get_client)]`, `Conn: TypeAlias = Connection`),
 * when it reads as a type (a subscript or a dotted name), or null. */
static pn module_alias(lower *L, const char *name)
{
    pn root = L->T->v, found = &pt_null;
    PN_FOR_NAMED(st, root) {
        if (!pn_is(st, PT_expression_statement)) continue;
        pn a = pn_first_named(st);
        if (!pn_is(a, PT_assignment)) continue;
        pn l = unparen(pn_field(a, PF_left)), r = unparen(pn_field(a, PF_right));
        if (!pn_is(l, PT_identifier) || !text_is(L, l, name) || pn_isnull(r)) continue;
        if (!pn_isnull(found)) return &pt_null;
        if (!pn_is(r, PT_subscript) && !pn_is(r, PT_identifier) && !pn_is(r, PT_attribute)) return &pt_null;
        found = r;
    }
    return found;
}

/* What an annotation says: 1 when every type it allows is plain data
 * (catalog plain-type: `str`, `dict[str, Any]`, `bool | None`,
 * `Optional[int]`), 0 otherwise; *one (when not NULL) receives the one
 * class it names, when it names exactly one besides None. Bounded depth. */
static int annot_plain_d(lower *L, pn t, const char **one, int *nclass, int depth)
{
    t = unparen(t);
    if (pn_isnull(t) || depth > 8) return 0;
    if (pn_is(t, PT_type)) return annot_plain_d(L, pn_first_named(t), one, nclass, depth + 1);
    if (pn_is(t, PT_none)) return 1;
    if (pn_is(t, PT_union_type) || pn_is(t, PT_binary_operator)) {
        int plain = 1;
        PN_FOR_NAMED(x, t) plain &= annot_plain_d(L, x, one, nclass, depth + 1);
        return plain;
    }
    if (pn_is(t, PT_string)) {
        /* a forward reference, `-> "Cls"`: a dotted name in quotes */
        char *q = text(L, t);
        size_t n = strlen(q);
        if (n < 3 || (q[0] != '"' && q[0] != '\'') || q[n - 1] != q[0]) return 0;
        char *d = ca_arena_strndup(&L->m->arena, q + 1, n - 2);
        /* `"Application[Any, CCT]"`: the class before its parameters */
        char *br = strchr(d, '[');
        if (br && br > d && d[strlen(d) - 1] == ']') *br = 0;
        for (char *c = d; *c; c++)
            if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '.')) return 0;
        if (cat(L, CAT_PLAIN_TYPE, d)) return 1;
        if (nclass && (*nclass)++ == 0 && one) *one = d;
        return 0;
    }
    pn head = t;
    pn args = &pt_null;
    if (pn_is(t, PT_subscript)) {
        head = pn_field(t, PF_value);
        args = t;
    } else if (pn_is(t, PT_generic_type)) {
        head = pn_first_named(t);
        args = t;
    }
    char *d = dotted(L, head);
    if (!d) return 0;
    if (strcmp(d, "None") == 0) return 1;
    /* `Annotated[Client, Depends(get_client)]`: the type is its first
     * argument, the rest is metadata */
    if ((strcmp(d, "typing.Annotated") == 0 || strcmp(d, "Annotated") == 0 ||
         strcmp(d, "typing_extensions.Annotated") == 0) && !pn_isnull(args)) {
        PN_FOR_NAMED(x, args) {
            if (x == head) continue;
            return annot_plain_d(L, x, one, nclass, depth + 1);
        }
        return 0;
    }
    /* `ClientDep = Annotated[Client, Depends(...)]` at module level, a
     * parameter annotated `client: ClientDep`: what the alias names */
    if (pn_is(head, PT_identifier) && pn_isnull(args)) {
        pn alias = module_alias(L, d);
        if (!pn_isnull(alias)) return annot_plain_d(L, alias, one, nclass, depth + 1);
    }
    int wrapper = strcmp(d, "typing.Optional") == 0 || strcmp(d, "Optional") == 0 ||
                  strcmp(d, "typing.Union") == 0 || strcmp(d, "Union") == 0;
    /* (`list[str]` parses as a generic_type whose parameters sit in a
     * type_parameter node; `typing.List[str]` as a subscript) */
    if (!pn_isnull(args) && pn_is(args, PT_generic_type))
        PN_FOR_NAMED(x, args)
            if (pn_is(x, PT_type_parameter)) args = x;
    if (wrapper && !pn_isnull(args)) {
        int plain = 1;
        PN_FOR_NAMED(x, args) if (x != head) plain &= annot_plain_d(L, x, one, nclass, depth + 1);
        return plain;
    }
    if (cat(L, CAT_PLAIN_TYPE, d)) {
        /* a container of plain data (or of anything: `dict[str, Any]` is data) */
        int plain = 1;
        if (!pn_isnull(args))
            PN_FOR_NAMED(x, args) {
                if (x == head) continue;
                pn xx = unparen(pn_is(x, PT_type) ? pn_first_named(x) : x);
                char *xd = dotted(L, xx);
                if (xd && (strcmp(xd, "typing.Any") == 0 || strcmp(xd, "Any") == 0)) continue;
                if (pn_is(xx, PT_none)) continue;
                plain &= annot_plain_d(L, xx, NULL, NULL, depth + 1);
            }
        return plain;
    }
    if (nclass && (*nclass)++ == 0 && one) *one = d;
    return 0;
}

static int annot_plain(lower *L, pn t, const char **one)
{
    int n = 0;
    const char *c = NULL;
    int plain = annot_plain_d(L, t, &c, &n, 0);
    if (one) *one = n == 1 ? c : NULL;
    return plain;
}

/* The dotted names of a definition's decorators (`@dataclass(frozen=True)`
 * names `dataclass`), through the decorated_definition around it. */
static int has_decorator(lower *L, pn def, ca_cat_kind k, const char *exact)
{
    pn parent = pn_parent(def);
    if (pn_isnull(parent) || !pn_is(parent, PT_decorated_definition)) return 0;
    PN_FOR_NAMED(dec, parent) {
        if (!pn_is(dec, PT_decorator)) continue;
        pn e = unparen(pn_first_named(dec));
        if (pn_is(e, PT_call)) e = unparen(pn_field(e, PF_function));
        char *d = dotted(L, e);
        if (!d) continue;
        if (exact && strcmp(last_component(d), exact) == 0) return 1;
        if (!exact && cat(L, k, d)) return 1;
    }
    return 0;
}

/* What module-level name `on` holds when a call made it, as the catalog
 * spells an instance (`bot = commands.Bot(...)`: "discord.ext.commands.Bot()"),
 * or NULL. */
static const char *global_instance(lower *L, const char *on)
{
    for (size_t i = 0; i < L->globals.n; i++) {
        const char *v = L->globals.v[i].value;
        size_t vl = v ? strlen(v) : 0;
        if (strcmp(L->globals.v[i].key, on) == 0 && vl >= 3 && strcmp(v + vl - 2, "()") == 0) return v;
    }
    return NULL;
}

/* Does the catalog's category name method attr of an instance (`instance`
 * as global_instance spells it: "fastapi.APIRouter()" and "post")? */
static int instance_member_in(lower *L, const char *instance, const char *attr, ca_cat_kind k)
{
    if (!instance) return 0;
    ca_sb q = {0};
    ca_sb_addf(&q, "%s.%s", instance, attr);
    int hit = cat(L, k, ca_sb_str(&q)) != NULL;
    ca_sb_release(&q);
    return hit;
}

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Is def (a function definition) a chat framework's event or command
 * handler by one of its decorators (catalog event-handler)? The decorator
 * named through imports (`@commands.command()`, `@commands.Cog.listener()`),
 * a method of a module-level object the catalog names
 * (`bot = commands.Bot(...)` ... `@bot.event`), or a subcommand of a group
 * defined beside it (`@settings.command()` of `@commands.group() async def
 * settings(...)`, catalog event-subcommand). */
static int event_handler_def(lower *L, pn def, int depth)
{
    pn st = pn_parent(def);
    if (pn_isnull(st) || !pn_is(st, PT_decorated_definition) || depth > 3) return 0;
    PN_FOR_NAMED(dec, st) {
        if (!pn_is(dec, PT_decorator)) continue;
        pn e = unparen(pn_first_named(dec));
        if (pn_is(e, PT_call)) e = unparen(pn_field(e, PF_function));
        char *d = dotted(L, e);
        if (d && cat(L, CAT_EVENT_HANDLER, d)) return 1;
        if (!pn_is(e, PT_attribute)) continue;
        pn obj = unparen(pn_field(e, PF_object));
        if (!pn_is(obj, PT_identifier)) continue;
        const char *on = text(L, obj), *attr = text(L, pn_field(e, PF_attribute));
        /* (a module-level object: `bot = commands.Bot(...)`) */
        if (instance_member_in(L, global_instance(L, on), attr, CAT_EVENT_HANDLER)) return 1;
        /* (a group beside it) */
        if (!cat(L, CAT_EVENT_SUBCOMMAND, attr)) continue;
        pn block = pn_parent(st);
        if (pn_isnull(block)) continue;
        PN_FOR_NAMED(sib, block) {
            pn sd = pn_is(sib, PT_decorated_definition) ? pn_field(sib, PF_definition) : &pt_null;
            if (!pn_is(sd, PT_function_definition) || sd == def || !text_is(L, pn_field(sd, PF_name), on)) continue;
            if (event_handler_def(L, sd, depth + 1)) return 1;
        }
    }
    return 0;
}

/* Does def cancel tasks it may find among all the program's
 * (FN_CANCELS_ANY)? One that looks at `all_tasks(` and cancels
 * (`.cancel(`) but for a sweep that picks them by a literal, or a chat
 * command (handler) that cancels in a module that looks at all tasks: an operator's command to cancel any task by its
 * name or address (robodanny's `?cancel_task` beside its task listing). */
static int cancels_any_task(lower *L, pn def, int handler)
{
    if (def->end <= def->start || def->end > L->len) return 0;
    const char *b = L->src + def->start;
    size_t n = def->end - def->start;
    if (!bytes_contain(b, n, ".cancel(")) return 0;
    /* (a sweep that picks its tasks by a literal, `if
     * task.get_stack()[0].f_code.co_name == "do_typing"`, cancels those
     * alone) */
    if (bytes_contain(b, n, "all_tasks(")) return !bytes_contain(b, n, "== \"") && !bytes_contain(b, n, "== '");
    return handler && bytes_contain(L->src, L->len, "all_tasks(");
}

/* After lowering f (an @asynccontextmanager), can the code after its last
 * yield suspend? A checkpoint after it, an `async for` running over it, an
 * `async with` around it whose exit may suspend, one entered after it. */
typedef struct quiet_q {
    uint32_t yield_at;
    int suspends;
} quiet_q;

static int after_yield_suspends(void *ctx, const ir_node *n)
{
    quiet_q *q = ctx;
    int over = n->site.start <= q->yield_at && q->yield_at < n->site.end;
    if (n->kind == IR_CHECKPOINT && n->site.start > q->yield_at && !(n->flags & CP_NO_SUSPEND)) q->suspends = 1;
    if (n->kind == IR_LOOP && (n->flags & LOOP_ASYNC_FOR) && (over || n->site.start > q->yield_at)) q->suspends = 1;
    if (n->kind == IR_WITH && (n->flags & WITH_ASYNC)) {
        if (over && !(n->flags & WITH_NONSUSP_EXIT)) q->suspends = 1;
        if (n->site.start > q->yield_at && !((n->flags & WITH_NONSUSP_ENTER) && (n->flags & WITH_NONSUSP_EXIT)))
            q->suspends = 1;
    }
    return q->suspends;
}

/* Can the code before f's first yield suspend? A checkpoint before it, an
 * `async for` begun before it, an `async with` entered before it whose
 * entry (or, closed before the yield, whose exit) may suspend. */
static int before_yield_suspends(void *ctx, const ir_node *n)
{
    quiet_q *q = ctx;
    if (n->site.start >= q->yield_at) return q->suspends;
    int over = q->yield_at < n->site.end;
    if (n->kind == IR_CHECKPOINT && !(n->flags & CP_NO_SUSPEND)) q->suspends = 1;
    if (n->kind == IR_LOOP && (n->flags & LOOP_ASYNC_FOR)) q->suspends = 1;
    if (n->kind == IR_WITH && (n->flags & WITH_ASYNC)) {
        if (!(n->flags & WITH_NONSUSP_ENTER)) q->suspends = 1;
        if (!over && !(n->flags & WITH_NONSUSP_EXIT)) q->suspends = 1;
    }
    return q->suspends;
}

static void note_quiet_exit(lower *L, pn def, ir_func *f)
{
    if (!(f->fflags & FN_GENERATOR) || !f->is_async || !has_decorator(L, def, CAT__COUNT, "asynccontextmanager"))
        return;
    pn body = pn_field(def, PF_body);
    const pt_node *endp = L->T->v + L->T->n;
    uint32_t last = 0, first = UINT32_MAX, nested_end = 0;
    int any = 0;
    for (pn x = body; !pn_isnull(body) && x < endp && x->start < body->end; x++) {
        if (x->type == PT_function_definition || x->type == PT_lambda || x->type == PT_class_definition) {
            if (x->end > nested_end) nested_end = x->end;
            continue;
        }
        if (x->type == PT_yield && x->start >= nested_end) {
            any = 1;
            if (x->start > last) last = x->start;
            if (x->start < first) first = x->start;
        }
    }
    if (!any) return;
    quiet_q q = {last, 0};
    ir_visit(&f->body, after_yield_suspends, &q);
    if (!q.suspends) f->fflags |= FN_CM_QUIET_EXIT;
    quiet_q e = {first, 0};
    ir_visit(&f->body, before_yield_suspends, &e);
    if (!e.suspends) f->fflags |= FN_CM_QUIET_ENTER;
}

/* After lowering method f: where it first touches self (a store into
 * self, `self._gw = ...`, counted where the store happens, after its right
 * side; a call of a method of self or of what self holds, `self._start()`,
 * `self._conns.append(c)`), and whether any checkpoint, `async for` or
 * `async with` can suspend after that, or in a loop that also touches
 * self. */
typedef struct hold_q {
    const ir_block *body;
    uint32_t first;      /* the first touch, UINT32_MAX when none */
    const uint32_t *at;  /* every touch */
    size_t n;
    int suspends;
} hold_q;

static int touched_within(const hold_q *q, ir_site s)
{
    for (size_t i = 0; i < q->n; i++)
        if (q->at[i] >= s.start && q->at[i] < s.end) return 1;
    return 0;
}

static int can_suspend_node(const ir_node *n)
{
    if (n->kind == IR_CHECKPOINT) return !(n->flags & CP_NO_SUSPEND);
    if (n->kind == IR_LOOP) return (n->flags & LOOP_ASYNC_FOR) != 0;
    if (n->kind == IR_WITH && (n->flags & WITH_ASYNC))
        return !((n->flags & WITH_NONSUSP_ENTER) && (n->flags & WITH_NONSUSP_EXIT));
    return 0;
}

static int suspends_in(void *ctx, const ir_node *n)
{
    int *any = ctx;
    if (can_suspend_node(n)) *any = 1;
    return *any;
}

/* Are positions t and c on different branches of one `if` (no path goes
 * through both)? */
typedef struct excl_q {
    uint32_t t, c;
    int excl;
} excl_q;

static int block_holds(const ir_block *b, uint32_t pos)
{
    /* (its nodes' span: an await starts before the call it awaits, lowered
     * first; a touch may sit at the very end, where a store or an awaited
     * call ends) */
    uint32_t lo = UINT32_MAX, hi = 0;
    for (int i = 0; i < b->n; i++) {
        if (b->v[i]->site.start < lo) lo = b->v[i]->site.start;
        if (b->v[i]->site.end > hi) hi = b->v[i]->site.end;
    }
    return b->n > 0 && lo <= pos && pos <= hi;
}

static int exclusive_at(void *ctx, const ir_node *n)
{
    excl_q *q = ctx;
    uint32_t lo = q->t < q->c ? q->t : q->c, hi = q->t < q->c ? q->c : q->t;
    if (n->site.start > lo || hi > n->site.end) return 0;
    if (n->kind == IR_IF) {
        int bt = -1, bc = -1;
        for (int k = 0; k < n->nbranches; k++) {
            if (block_holds(&n->branches[k], q->t)) bt = k;
            if (block_holds(&n->branches[k], q->c)) bc = k;
        }
        if (bt >= 0 && bc >= 0 && bt != bc) q->excl = 1;
    }
    return q->excl;
}

static int after_hold_suspends(void *ctx, const ir_node *n)
{
    hold_q *q = ctx;
    if (can_suspend_node(n) && n->site.end > q->first) {
        /* (a touch on another branch of an `if` than the suspension is on
         * no path before it) */
        for (size_t i = 0; i < q->n && !q->suspends; i++) {
            if (q->at[i] >= n->site.end) continue;
            excl_q e = {q->at[i], n->site.start, 0};
            ir_visit(q->body, exclusive_at, &e);
            if (!e.excl) q->suspends = 1;
        }
    }
    if (n->kind == IR_LOOP && touched_within(q, n->site)) {
        int any = can_suspend_node(n);
        if (!any) ir_visit_children(n, suspends_in, &any);
        if (any) q->suspends = 1;
    }
    return q->suspends;
}

static int rooted_at_self(lower *L, pn n)
{
    pn r = root_ident(n);
    return !pn_isnull(r) && r != unparen(n) && strcmp(text(L, r), "self") == 0;
}

/* `def bind(self, ep): fut = asyncio.Future(); try: ...; except Exception as
 * e: fut.set_exception(e) else: fut.set_result(ep); return fut`: a plain
 * function that makes a future, completes it itself and returns it, the
 * future named nowhere else (not handed on, not stored: nobody else could
 * complete it later). What it returns is done: awaiting it does not
 * suspend (FN_DONE_FUTURE). */
static void note_done_future(lower *L, pn def, ir_func *f)
{
    if (f->is_async || (f->fflags & FN_GENERATOR)) return;
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body)) return;
    const pt_node *endp = L->T->v + L->T->n;
    const char *fut = NULL;
    int completes = 0, returns = 0;
    uint32_t nested_end = 0;
    /* the future: one name bound from a future's constructor */
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type == PT_function_definition || x->type == PT_lambda || x->type == PT_class_definition) {
            if (x->end > nested_end) nested_end = x->end;
            continue;
        }
        if (x->start < nested_end || x->type != PT_assignment) continue;
        pn l = unparen(pn_field(x, PF_left)), r = unparen(pn_field(x, PF_right));
        if (!pn_is(l, PT_identifier) || !pn_is(r, PT_call)) continue;
        call_info ci = call_of(L, r);
        int makes = ci.name && (strcmp(ci.name, "create_future") == 0 ||
                                (ci.dotted && (strcmp(ci.dotted, "asyncio.Future") == 0 ||
                                               strcmp(ci.dotted, "asyncio.futures.Future") == 0)));
        if (!makes) continue;
        if (fut && strcmp(fut, text(L, l)) != 0) return; /* (two futures: not this shape) */
        fut = text(L, l);
    }
    if (!fut) return;
    size_t fl = strlen(fut);
    nested_end = 0;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type == PT_function_definition || x->type == PT_lambda || x->type == PT_class_definition) {
            if (x->end > nested_end) nested_end = x->end;
            /* (named in a nested function: it may complete it later, or hand it on) */
            for (pn y = x; y < endp && y->start < x->end; y++)
                if (y->type == PT_identifier && y->end - y->start == fl && memcmp(L->src + y->start, fut, fl) == 0)
                    return;
            continue;
        }
        if (x->start < nested_end) continue;
        if (x->type == PT_yield) return;
        if (x->type == PT_return_statement) {
            pn v = unparen(pn_first_named(x));
            if (!pn_is(v, PT_identifier) || strcmp(text(L, v), fut) != 0) return;
            returns++;
            continue;
        }
        if (x->type != PT_identifier || x->end - x->start != fl || memcmp(L->src + x->start, fut, fl) != 0) continue;
        pn up = pn_parent(x);
        while (pn_is(up, PT_parenthesized_expression)) up = pn_parent(up);
        if (pn_is(up, PT_return_statement)) continue;
        if (pn_is(up, PT_assignment) && pn_field(up, PF_left) == x) continue; /* (its making) */
        if (pn_is(up, PT_attribute) && pn_field(up, PF_object) == x) {
            const char *m = text(L, pn_field(up, PF_attribute));
            pn call = pn_parent(up);
            if (pn_is(call, PT_call) && (strcmp(m, "set_result") == 0 || strcmp(m, "set_exception") == 0)) {
                completes = 1;
                continue;
            }
            if (pn_is(call, PT_call) && (strcmp(m, "done") == 0 || strcmp(m, "cancelled") == 0)) continue;
        }
        return; /* named some other way: handed on, stored, awaited */
    }
    if (completes && returns) f->fflags |= FN_DONE_FUTURE;
}

/* An __init__ whose body only stores on self its parameters or literals
 * (`self.proc = proc`, `self.count = 0`, `self.items = []`), beside a
 * docstring or `pass`: constructing the class runs nothing that raises. */
static int plain_init(lower *L, pn def)
{
    pn body = pn_field(def, PF_body), params = pn_field(def, PF_parameters);
    if (pn_isnull(body) || pn_isnull(params)) return 0;
    PN_FOR_NAMED(st, body) {
        if (pn_is(st, PT_pass_statement) || pn_is(st, PT_comment)) continue;
        if (!pn_is(st, PT_expression_statement)) return 0;
        pn e = pn_first_named(st);
        if (pn_is(e, PT_string) || pn_is(e, PT_concatenated_string)) continue; /* (a docstring) */
        if (!pn_is(e, PT_assignment) || pn_named_count(st) != 1) return 0;
        pn left = unparen(pn_field(e, PF_left)), right = unparen(pn_field(e, PF_right));
        if (!pn_is(left, PT_attribute) || !pn_is(unparen(pn_field(left, PF_object)), PT_identifier) ||
            !text_is(L, unparen(pn_field(left, PF_object)), "self"))
            return 0;
        if (pn_isnull(right)) continue; /* (`self.x: int`, a bare annotation) */
        if (pn_is(right, PT_none) || pn_is(right, PT_true) || pn_is(right, PT_false) || pn_is(right, PT_integer) ||
            pn_is(right, PT_float) || pn_is(right, PT_string) || pn_is(right, PT_concatenated_string))
            continue;
        if ((pn_is(right, PT_list) || pn_is(right, PT_dictionary) || pn_is(right, PT_tuple)) &&
            pn_named_count(right) == 0)
            continue;
        if (!pn_is(right, PT_identifier) || text_is(L, right, "self")) return 0;
        /* (a parameter of the __init__ itself) */
        int param = 0;
        PN_FOR_NAMED(p, params) {
            pn id = param_ident(p);
            if (!pn_isnull(id) && pn_is(id, PT_identifier) && text_is(L, id, text(L, right))) param = 1;
        }
        if (!param) return 0;
    }
    return 1;
}

/* Is call x only tested, not awaited: the condition of an if, elif or
 * while, or an operand of `not`, `and`/`or` or a comparison there? */
static int tested_query(pn x)
{
    pn c = x, p = pn_parent(x);
    while (pn_is(p, PT_parenthesized_expression) || pn_is(p, PT_not_operator) || pn_is(p, PT_boolean_operator) ||
           pn_is(p, PT_comparison_operator)) {
        c = p;
        p = pn_parent(p);
    }
    if (pn_is(p, PT_await)) return 0;
    return (pn_is(p, PT_if_statement) || pn_is(p, PT_elif_clause) || pn_is(p, PT_while_statement)) &&
           pn_field(p, PF_condition) == c;
}

static void note_quiet_hold(lower *L, pn def, ir_func *f)
{
    if (!f->is_method) return;
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body)) return;
    const pt_node *endp = L->T->v + L->T->n;
    /* at: every touch; via: the same, but a method of self awaited right
     * there (`await self._bind(...)`) touches where it returns */
    CA_VEC(uint32_t) at = {0};
    CA_VEC(uint32_t) via = {0};
    uint32_t first = UINT32_MAX, first_via = UINT32_MAX, nested_end = 0, await_end = UINT32_MAX;
    int calls = 0, self_awaits = 0;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type == PT_function_definition || x->type == PT_lambda || x->type == PT_class_definition) {
            if (x->end > nested_end) nested_end = x->end;
            continue;
        }
        if (x->start < nested_end) continue;
        if (x->type == PT_await && (x->flags & PT_NAMED)) await_end = x->end; /* (not the keyword) */
        uint32_t t = UINT32_MAX, tv = UINT32_MAX;
        if ((x->type == PT_assignment || x->type == PT_augmented_assignment) &&
            rooted_at_self(L, pn_field(x, PF_left)))
            t = tv = x->end;
        else if (x->type == PT_call) {
            pn fn = unparen(pn_field(x, PF_function));
            if (pn_is(fn, PT_attribute) && rooted_at_self(L, fn)) {
                t = tv = x->start;
                calls = 1;
                /* (a query only tested, not awaited: `while not
                 * self.path.exists():` asks, it stores nothing) */
                if (tested_query(x)) t = tv = UINT32_MAX;
                pn obj = unparen(pn_field(fn, PF_object));
                if (x->end == await_end && pn_is(obj, PT_identifier) && strcmp(text(L, obj), "self") == 0) {
                    tv = x->end;
                    self_awaits = 1;
                }
            }
        }
        if (t == UINT32_MAX) continue;
        CA_VEC_PUSH(at, t);
        CA_VEC_PUSH(via, tv);
        if (t < first) first = t;
        if (tv < first_via) first_via = tv;
    }
    if (calls) f->fflags |= FN_SELF_CALLS;
    if (f->is_async) {
        hold_q q = {&f->body, first, at.v, at.n, 0};
        if (first != UINT32_MAX) ir_visit(&f->body, after_hold_suspends, &q);
        if (!q.suspends) f->fflags |= FN_QUIET_HOLD;
        else if (self_awaits) {
            hold_q w = {&f->body, first_via, via.v, via.n, 0};
            if (first_via != UINT32_MAX) ir_visit(&f->body, after_hold_suspends, &w);
            if (!w.suspends) f->fflags |= FN_QUIET_VIA;
        }
    }
    CA_VEC_FREE(at);
    CA_VEC_FREE(via);
}

/* A class definition as an ir_class: its bases and what they make it. */
/* Is the function's body a stub: only a docstring, `...` and `raise
 * NotImplementedError`? */
static int stub_body(lower *L, pn def)
{
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body)) return 0;
    int n = 0;
    PN_FOR_NAMED(st, body) {
        if (pn_is(st, PT_comment)) continue;
        if (pn_is(st, PT_raise_statement)) {
            /* `raise NotImplementedError(...)`: the subclass's to write */
            char *t = text(L, st);
            if (!strstr(t, "NotImplementedError")) return 0;
            n++;
            continue;
        }
        if (!pn_is(st, PT_expression_statement) || pn_named_count(st) != 1) return 0;
        pn e = pn_first_named(st);
        if (!pn_is(e, PT_string) && strcmp(text(L, e), "...") != 0) return 0;
        n++;
    }
    return n > 0;
}

static void record_class(lower *L, pn cls, const char *qualname)
{
    ir_class *c = ir_class_new(L->m);
    c->name = text(L, pn_field(cls, PF_name));
    c->qualname = qualname;
    c->site = site_of(L, cls);
    pn sup = pn_field(cls, PF_superclasses);
    int n = pn_isnull(sup) ? 0 : (int)pn_named_count(sup);
    c->bases = ca_arena_alloc(&L->m->arena, sizeof(char *) * (size_t)(n ? n : 1));
    if (!pn_isnull(sup))
        PN_FOR_NAMED(b, sup) {
            pn e = b;
            int meta = 0;
            if (pn_is(b, PT_keyword_argument)) {
                meta = strcmp(text(L, pn_field(b, PF_name)), "metaclass") == 0;
                if (!meta) continue;
                e = pn_field(b, PF_value);
            }
            e = unparen(e);
            if (pn_is(e, PT_subscript)) e = pn_field(e, PF_value); /* Generic[T], Protocol[T] */
            char *d = dotted(L, e);
            if (!d) continue;
            if (cat(L, CAT_DATA_BASE, d)) c->flags |= CLASS_DATA;
            if (cat(L, CAT_PROTOCOL_BASE, d)) c->flags |= CLASS_PROTOCOL;
            if (cat(L, CAT_ABSTRACT_BASE, d)) c->flags |= CLASS_ABSTRACT;
            if (!meta && cat(L, CAT_ENDPOINT_BASE, d)) c->flags |= CLASS_ENDPOINT;
            if (!meta && cat(L, CAT_SERVICE_BASE, d)) c->flags |= CLASS_SERVICE;
            if (!meta && cat(L, CAT_TEST_BASE, d)) c->flags |= CLASS_TEST;
            if (!meta && cat(L, CAT_EVENT_BASE, d)) c->flags |= CLASS_EVENT;
            if (!meta) c->bases[c->nbases++] = d;
        }
    if (has_decorator(L, cls, CAT_DATA_DECORATOR, NULL)) c->flags |= CLASS_DATA;
}

/* ------------------------------------------------------------------------ */
/* Functions and module facts.                                              */


/* Is identifier x used only as a tool: the receiver of a method call given
 * other values to work on (`fs.rm(path)`, `client.delete(sandbox_id)`),
 * which does not release x itself (`x.close()`, `x.kill(sig)` would)? */
static int tool_use(lower *L, pn x)
{
    /* a key: `reg[x]`, `x in reg`, `reg.pop(x)` name an entry, not x's own */
    pn up = pn_parent(x);
    if (!pn_isnull(up) && pn_is(up, PT_subscript) && pn_field(up, PF_value) != x) return 1;
    if (!pn_isnull(up) && pn_is(up, PT_comparison_operator) && pn_first_named(up) == x) {
        char *t = text(L, up);
        if (strstr(t, " in ")) return 1;
    }
    if (!pn_isnull(up) && pn_is(up, PT_argument_list) && pn_first_named(up) == x) {
        pn c = pn_parent(up);
        pn fn = pn_isnull(c) ? &pt_null : unparen(pn_field(c, PF_function));
        if (pn_is(fn, PT_attribute)) {
            const char *m = text(L, pn_field(fn, PF_attribute));
            if (strcmp(m, "pop") == 0 || strcmp(m, "get") == 0 || strcmp(m, "setdefault") == 0) return 1;
        }
    }
    pn a = pn_parent(x);
    if (pn_isnull(a) || !pn_is(a, PT_attribute) || pn_field(a, PF_object) != x) return 0;
    pn c = pn_parent(a);
    if (pn_isnull(c) || !pn_is(c, PT_call) || pn_field(c, PF_function) != a) return 0;
    pn args = pn_field(c, PF_arguments);
    if (pn_isnull(args) || pn_isnull(pn_first_named(args))) return 0;
    const char *m = text(L, pn_field(a, PF_attribute));
    return !names_release(L, m);
}

/* Does body store a parameter (not self) under self's attribute named as
 * attr (`self.ctx = ctx`)? */
static int self_attr_is_param(lower *L, pn body, pn attr)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type != PT_assignment) continue;
        pn l = unparen(pn_field(x, PF_left)), r = unparen(pn_field(x, PF_right));
        if (!pn_is(l, PT_attribute) || !pn_is(r, PT_identifier)) continue;
        pn o = unparen(pn_field(l, PF_object));
        int ov = pn_is(o, PT_identifier) ? var_of(L, o) : -1;
        if (ov < 0 || !(L->f->vars[ov].flags & VAR_SELF)) continue;
        if (strcmp(text(L, pn_field(l, PF_attribute)), text(L, attr)) != 0) continue;
        int rv = var_of(L, r);
        if (rv >= 0 && (L->f->vars[rv].flags & VAR_PARAM) && !(L->f->vars[rv].flags & VAR_SELF)) return 1;
    }
    return 0;
}

/* Does this __init__ hand `self` to one of its parameters: a call on it
 * whose name says it keeps what it is given (`conn.add_channel(self)`,
 * `pool.register(self)`), or a store into it (`registry._items[k] =
 * self`); a call also through one it kept on self (self_attr_is_param)? */
static int joins_param(lower *L, pn def)
{
    pn body = pn_field(def, PF_body);
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        pn root = &pt_null;
        int gives_self = 0;
        if (x->type == PT_call) {
            pn fn = unparen(pn_field(x, PF_function));
            if (!pn_is(fn, PT_attribute)) continue;
            const char *m = text(L, pn_field(fn, PF_attribute));
            char first[64];
            if (!cat(L, CAT_REGISTER_METHOD, m) && !cat(L, CAT_REGISTER_METHOD, first_word(m, first, sizeof(first))) &&
                !ca_catalog_contains_word(L->cat, CAT_REGISTER_WORD, m))
                continue;
            pn args = pn_field(x, PF_arguments);
            PN_FOR_NAMED(a, args) {
                pn av = unparen(pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
                int sv = pn_is(av, PT_identifier) ? var_of(L, av) : -1;
                gives_self |= sv >= 0 && (L->f->vars[sv].flags & VAR_SELF);
            }
            root = unparen(pn_field(fn, PF_object));
        } else if (x->type == PT_assignment) {
            pn l = unparen(pn_field(x, PF_left)), r = unparen(pn_field(x, PF_right));
            int sv = pn_is(l, PT_subscript) && pn_is(r, PT_identifier) ? var_of(L, r) : -1;
            if (sv < 0 || !(L->f->vars[sv].flags & VAR_SELF)) continue;
            gives_self = 1;
            root = unparen(pn_field(l, PF_value));
        } else {
            continue;
        }
        if (!gives_self) continue;
        pn first = &pt_null; /* (the attribute right on the root: `ctx` of `self.ctx.bot.views`) */
        while (pn_is(root, PT_attribute)) {
            first = pn_field(root, PF_attribute);
            root = unparen(pn_field(root, PF_object));
        }
        if (!pn_is(root, PT_identifier)) continue;
        int v = var_of(L, root);
        if (v >= 0 && (L->f->vars[v].flags & VAR_PARAM) && !(L->f->vars[v].flags & VAR_SELF)) return 1;
        /* (or by a registering call through a parameter the constructor
         * kept on self: `self.ctx = ctx` ... `self.ctx.bot.views.add(self)`;
         * an entry stored into a table reached so, `self._client._handlers[seq]
         * = self`, is a dispatch entry the object answers through, not its
         * owner's hold on it) */
        if (x->type == PT_call && v >= 0 && (L->f->vars[v].flags & VAR_SELF) && !pn_isnull(first) &&
            self_attr_is_param(L, body, first))
            return 1;
    }
    return 0;
}

/* `cls: type[T]` with `-> T` (T a TypeVar bound to the class, how
 * `-> Self` was spelled before typing.Self): the method returns an
 * instance of the class it is called on, as `-> Self` does. */
static void self_typevar_return(lower *L, ir_func *f, pn ty, pn rt, const char *class_name)
{
    if (pn_isnull(ty) || pn_isnull(rt) || !class_name) return;
    const char *t = text(L, ty), *r = text(L, rt);
    if (!t || !r) return;
    const char *open = strchr(t, '[');
    size_t tl = strlen(t);
    if (!open || tl < 2 || t[tl - 1] != ']') return;
    size_t hl = (size_t)(open - t);
    if (!((hl == 4 && strncmp(t, "type", 4) == 0) || (hl == 4 && strncmp(t, "Type", 4) == 0) ||
          (hl == 11 && strncmp(t, "typing.Type", 11) == 0)))
        return;
    const char *in = open + 1;
    size_t il = tl - hl - 2;
    /* (a quoted return annotation names the same TypeVar) */
    size_t rl = strlen(r);
    if (rl >= 2 && (r[0] == '"' || r[0] == '\'') && r[rl - 1] == r[0]) {
        r++;
        rl -= 2;
    }
    if (il && il == rl && strncmp(in, r, il) == 0) f->ret_type = class_name;
}

/* Is node x the name `name` where it is bound: `p = ...`, `p += ...`,
 * `for p in`, `with ... as p`, `p := ...`, `del p`, `global p`? */
static int binds_name(lower *L, pn x, const char *name)
{
    if (x->type != PT_identifier || strcmp(text(L, x), name) != 0) return 0;
    pn up = pn_parent(x);
    if ((pn_is(up, PT_assignment) || pn_is(up, PT_augmented_assignment)) && pn_field(up, PF_left) == x) return 1;
    /* (`with ... as p` puts p under an as_pattern_target, a type the
     * frontend does not name: any parent it does not know counts) */
    if (pn_is(up, PT_named_expression) || pn_is(up, PT_as_pattern) || up->type == PT_OTHER ||
        pn_is(up, PT_pattern_list) || pn_is(up, PT_tuple_pattern) || pn_is(up, PT_list_pattern) ||
        pn_is(up, PT_delete_statement) || pn_is(up, PT_global_statement) || pn_is(up, PT_nonlocal_statement))
        return 1;
    return pn_is(up, PT_for_statement) && pn_field(up, PF_left) == x;
}

static int mark_param_return(void *ctx, const ir_node *n)
{
    const int *p = ctx;
    if (n->kind == IR_RETURN) {
        ir_node *m = (ir_node *)n; /* (the frontend's own node) */
        m->flags |= RETURN_PARAM;
        m->var = *p;
    }
    return 0;
}

/* `def strip(state): state.messages = ...; return state`: every path ends
 * in `return p` for one parameter p (not self, not *args) that the body
 * never binds again; the returns are marked RETURN_PARAM, so a caller's
 * `state = strip(state)` is read as the same object, not a new one. */
static void note_returned_param(lower *L, pn def, ir_func *f)
{
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body) || !f->nparams) return;
    pn last = &pt_null;
    PN_FOR_NAMED(st, body) if (!pn_is(st, PT_comment)) last = st;
    if (!pn_is(last, PT_return_statement)) return;
    pn rv = unparen(pn_first_named(last));
    if (!pn_is(rv, PT_identifier)) return;
    const char *name = text(L, rv);
    int p = -1;
    for (int q = 0; q < f->nparams; q++)
        if (strcmp(f->vars[q].name, name) == 0) p = q;
    if (p < 0 || (f->vars[p].flags & (VAR_SELF | VAR_VARARGS))) return;
    const pt_node *endp = L->T->v + L->T->n;
    uint32_t nested_end = 0;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->start < nested_end) continue;
        if (x->type == PT_function_definition || x->type == PT_lambda || x->type == PT_class_definition) {
            nested_end = x->end;
            continue;
        }
        if (x->type == PT_return_statement) {
            pn e = unparen(pn_first_named(x));
            if (!pn_is(e, PT_identifier) || strcmp(text(L, e), name) != 0) return;
        }
        if (binds_name(L, x, name)) return;
    }
    ir_visit(&f->body, mark_param_return, &p);
}

/* `self._task = asyncio.current_task()` in a method, with `self._task`
 * read in another method of the class: the method publishes the task it
 * runs in so that the object can cancel it ("so it can be cancelled"); a
 * cancellation it meets is the object's stop, as for a task the module
 * starts (FN_OWN_TASK). */
static int publishes_current_task(lower *L, pn def)
{
    pn cls = pn_parent(def);
    while (!pn_isnull(cls) && !pn_is(cls, PT_class_definition) && !pn_is(cls, PT_function_definition))
        cls = pn_parent(cls);
    if (!pn_is(cls, PT_class_definition)) return 0;
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body) || !bytes_contain(L->src + body->start, body->end - body->start, "current_task")) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    own_iter it = own_nodes(L, def);
    for (pn x = own_next(&it); !pn_isnull(x); x = own_next(&it)) {
        if (x->type != PT_assignment) continue;
        pn left = unparen(pn_field(x, PF_left)), r = unparen(pn_field(x, PF_right));
        if (!pn_is(left, PT_attribute) || !pn_is(unparen(pn_field(left, PF_object)), PT_identifier) ||
            !text_is(L, unparen(pn_field(left, PF_object)), "self") || !pn_is(r, PT_call) ||
            !pn_isnull(first_pos_arg(r, 0)))
            continue;
        char *d = dotted(L, pn_field(r, PF_function));
        if (!d || !cat(L, CAT_CURRENT_TASK, d)) continue;
        /* (read in another method of the class) */
        const char *attr = text(L, pn_field(left, PF_attribute));
        pn cb = pn_field(cls, PF_body);
        for (pn y = cb; !pn_isnull(cb) && y < endp && y->start < cb->end; y++) {
            if (y->start >= def->start && y->end <= def->end) continue;
            if (y->type == PT_attribute && text_is(L, pn_field(y, PF_attribute), attr) &&
                pn_is(unparen(pn_field(y, PF_object)), PT_identifier) && text_is(L, unparen(pn_field(y, PF_object)), "self"))
                return 1;
        }
    }
    return 0;
}

/* Does def hand its own task to anyone (`queue.put(("register",
 * asyncio.current_task()))`, `self._task = current_task()`, `t =
 * current_task()`)? Whoever gets it may cancel it. Asking it something
 * (`current_task().cancelling()`) or reporting it hands out nothing. */
static int hands_out_current_task(lower *L, pn def)
{
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body) || !bytes_contain(L->src + body->start, body->end - body->start, "current_task")) return 0;
    own_iter it = own_nodes(L, def);
    for (pn x = own_next(&it); !pn_isnull(x); x = own_next(&it)) {
        if (x->type != PT_call) continue;
        char *d = dotted(L, pn_field(x, PF_function));
        if (!d || !cat(L, CAT_CURRENT_TASK, d)) continue;
        pn p = pn_parent(x);
        /* (but its bound cancel handed on, `loop.call_later(n,
         * current_task().cancel)`, is its task handed out) */
        if (pn_is(p, PT_attribute) && pn_field(p, PF_object) == x) {
            pn pp = pn_parent(p);
            int called = pn_is(pp, PT_call) && pn_field(pp, PF_function) == p;
            if (called || !text_is(L, pn_field(p, PF_attribute), "cancel")) continue;
            return 1;
        }
        /* (nor does naming it in a report: `log.debug("[%s] stopped",
         * asyncio.current_task())`) */
        if (pn_is(p, PT_argument_list)) {
            pn call = pn_parent(p);
            char *r = pn_is(call, PT_call) ? dotted(L, pn_field(call, PF_function)) : NULL;
            if (r && cat(L, CAT_REPORT_CALL, r)) continue;
        }
        return 1;
    }
    return 0;
}

/* The decorators of coroutine function f (index: the last made) that may
 * start it as a task of its own, for the scan (SPAWN_DECORATION): a name or
 * an attribute (`@new_task`, `@utils.new_task`), not a call (`@app.get("/")`
 * registers) nor one of the language's own (`@staticmethod`, `@property`,
 * `@abstractmethod`, `@override`, a `functools` wrapper). */
static void note_decorations(lower *L, pn def, const ir_func *f)
{
    static const char *const plain[] = {"staticmethod", "classmethod", "property", "abstractmethod", "override",
                                        "cached_property", "wraps", "cache", "lru_cache", "final", "setter",
                                        "getter", "deleter", "asynccontextmanager", "contextmanager"};
    pn parent = pn_parent(def);
    if (pn_isnull(parent) || !pn_is(parent, PT_decorated_definition)) return;
    PN_FOR_NAMED(dec, parent) {
        if (!pn_is(dec, PT_decorator)) continue;
        pn e = unparen(pn_first_named(dec));
        if (!pn_is(e, PT_identifier) && !pn_is(e, PT_attribute)) continue;
        char *d = dotted(L, e);
        if (!d) continue;
        const char *last = last_component(d);
        int skip = 0;
        for (size_t k = 0; k < sizeof(plain) / sizeof(plain[0]) && !skip; k++) skip = strcmp(last, plain[k]) == 0;
        if (!skip) ir_spawn_add_via(L->m, L->m->nfuncs - 1, f->name, SPAWN_DECORATION, d);
    }
}

/* `def background(func): @wraps(func) async def wrapper(*a, **k): return
 * loop.create_task(func(*a, **k)); return wrapper`: a plain function whose
 * coroutine wrapper (returned) starts a call of its first parameter as a task
 * and awaits nothing (so it hands the task back, or drops it, and never
 * waits on it). A function it decorates runs as a task of its own at every
 * call (SPAWN_STARTER, read by the scan with SPAWN_DECORATION). */
static pn returned_inner_def(lower *L, pn def);

static int starter_decorator(lower *L, pn def)
{
    pn params = pn_field(def, PF_parameters), body = pn_field(def, PF_body);
    if (has_token(def, PT_async) || pn_isnull(params) || pn_isnull(body)) return 0;
    pn p0 = pn_first_named(params);
    pn id0 = pn_isnull(p0) ? p0 : param_ident(p0);
    if (pn_isnull(id0) || !pn_is(id0, PT_identifier) || L->src[p0->start] == '*') return 0;
    const char *pname = text(L, id0);
    pn wrapper = returned_inner_def(L, def);
    if (pn_isnull(wrapper) || !has_token(wrapper, PT_async)) return 0;
    pn wb = pn_field(wrapper, PF_body);
    if (pn_isnull(wb)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    int starts = 0;
    uint32_t nested_end = 0;
    for (pn y = wb; y < endp && y->start < wb->end; y++) {
        if (y->start < nested_end) continue;
        if (y->type == PT_function_definition || y->type == PT_lambda || y->type == PT_class_definition) {
            nested_end = y->end;
            continue;
        }
        if (y->type == PT_await) return 0;
        if (y->type != PT_call) continue;
        call_info ci = call_of(L, y);
        pn a0 = unparen(first_pos_arg(y, 0));
        if (!ci.name || !pn_is(a0, PT_call) || !spawns_task(L, &ci, NULL, 0)) continue;
        pn f0 = unparen(pn_field(a0, PF_function));
        if (pn_is(f0, PT_identifier) && strcmp(text(L, f0), pname) == 0) starts = 1;
    }
    return starts;
}

/* Is x an operand of comparison up whose other operand is a bool or a
 * number literal (`ok is False`, `added > 0`, `0 < n <= 3`)? Such a value
 * is a flag or a count. */
static int compared_with_scalar(pn up, pn x)
{
    if (!pn_is(up, PT_comparison_operator)) return 0;
    int mine = 0, scalar = 0;
    PN_FOR_NAMED(o, up) {
        if (o == x) {
            mine = 1;
            continue;
        }
        pn u = unparen(o);
        if (pn_is(u, PT_unary_operator)) u = unparen(pn_field(u, PF_argument));
        if (pn_is(u, PT_true) || pn_is(u, PT_false) || pn_is(u, PT_integer) || pn_is(u, PT_float)) scalar = 1;
    }
    return mine && scalar;
}

static void lower_function(lower *L, pn def, const char *prefix, const char *class_name)
{
    ir_func *f = ir_func_new(L->m);
    char *name = text(L, pn_field(def, PF_name));
    f->name = name;
    ca_sb sb = {0};
    ca_sb_addf(&sb, "%s%s", prefix, name);
    f->qualname = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
    ca_sb_release(&sb);
    f->class_name = class_name;
    f->site = site_of(L, def);
    f->is_async = has_token(def, PT_async);
    L->f = f;
    pn rt = pn_field(def, PF_return_type);
    if (!pn_isnull(rt)) {
        const char *one = NULL;
        /* `-> NoReturn`/`Never` is a plain answer about the value too, but
         * a different fact: kept in ret_type for the summaries */
        if (annot_plain(L, rt, &one)) f->fflags |= FN_RET_PLAIN;
        else f->ret_type = one;
        /* `-> Self` in a class: an instance of that class */
        if (f->ret_type && class_name) {
            const char *d = strrchr(f->ret_type, '.');
            if (strcmp(d ? d + 1 : f->ret_type, "Self") == 0) f->ret_type = class_name;
        }
    }
    if (has_decorator(L, def, CAT__COUNT, "abstractmethod")) f->fflags |= FN_ABSTRACT;
    /* (a handler that hands out its own task, `self.jobs[ctx.author.id] =
     * asyncio.current_task()`, is held by whoever gets it, a `?stop`
     * command that cancels it) */
    if (f->is_async && event_handler_def(L, def, 0) && !hands_out_current_task(L, def)) f->fflags |= FN_EVENT_HANDLER;
    if (L->value_names.n && bsearch(&name, L->value_names.v, L->value_names.n, sizeof(L->value_names.v[0]), cmp_cstr))
        f->fflags |= FN_REFERENCED;
    if (cancels_any_task(L, def, (f->fflags & FN_EVENT_HANDLER) != 0)) f->fflags |= FN_CANCELS_ANY;
    /* `@aiotools.server_context`: the library runs it as the root context of
     * a worker and stops it by ending what it waits for, never by a cancel
     * (catalog root-context) */
    if (has_decorator(L, def, CAT_ROOT_CONTEXT, NULL)) f->fflags |= FN_UNCANCELLED | FN_RUNNER_MAIN;
    /* a method of a Protocol, or a stub (`...` or only a docstring), stands
     * for the implementations: nothing is known of what they do */
    if (class_name && stub_body(L, def)) f->fflags |= FN_STUB;
    for (size_t k = 0; k < L->own_tasks.n; k++)
        if (strcmp(L->own_tasks.v[k], name) == 0) f->fflags |= FN_OWN_TASK;
    for (size_t k = 0; k < L->own_wrappers.n; k++) {
        size_t ql = strlen(f->qualname), wl = strlen(L->own_wrappers.v[k]);
        if (ql >= wl && strcmp(f->qualname + ql - wl, L->own_wrappers.v[k]) == 0 &&
            (ql == wl || f->qualname[ql - wl - 1] == '.'))
            f->fflags |= FN_OWN_TASK;
    }
    if (f->is_async && asgi_signature(L, def, class_name != NULL)) f->fflags |= FN_OWN_TASK;
    if (f->is_async && class_name && publishes_current_task(L, def)) f->fflags |= FN_OWN_TASK;
    for (size_t k = 0; k < L->arg0_spawners.n && !class_name && !*prefix; k++)
        if (strcmp(L->arg0_spawners.v[k], name) == 0) f->fflags |= FN_SPAWNS_ARG0;
    for (size_t k = 0; k < L->arg0_spawners.n && class_name; k++)
        if (strcmp(L->arg0_spawners.v[k], f->qualname) == 0) f->fflags |= FN_SPAWNS_ARG0;
    if (f->is_async) note_decorations(L, def, f);
    else if (!class_name && !*prefix && starter_decorator(L, def))
        ir_spawn_add(L->m, L->m->nfuncs - 1, name, SPAWN_STARTER);
    /* (by name, or `Class.name` for a method of self a class starts) */
    for (size_t k = 0; k < L->uncancelled.n; k++)
        if (strcmp(L->uncancelled.v[k], name) == 0 ||
            (class_name && strchr(L->uncancelled.v[k], '.') && strcmp(L->uncancelled.v[k], f->qualname) == 0))
            f->fflags |= FN_UNCANCELLED;
    /* (a task that hands itself out is held by whoever gets it) */
    if (hands_out_current_task(L, def)) {
        if (f->is_async) f->fflags |= FN_HANDS_OUT_TASK;
        f->fflags &= ~FN_UNCANCELLED;
    }
    for (size_t k = 0; k < L->scope_driven.n && !class_name; k++)
        if (strcmp(L->scope_driven.v[k], name) == 0 && !strstr(f->qualname, ".<locals>.")) f->fflags |= FN_SCOPE_DRIVEN;
    for (size_t k = 0; k < L->scope_driven_defs.n; k++)
        if (L->scope_driven_defs.v[k] == def->start && strstr(f->qualname, ".<locals>.")) f->fflags |= FN_SCOPE_DRIVEN;
    for (size_t k = 0; k < L->route_defs.n && f->is_async; k++)
        if (L->route_defs.v[k] == def->start && strstr(f->qualname, ".<locals>."))
            f->fflags |= FN_OWN_TASK | FN_UNCANCELLED;
    for (size_t k = 0; k < L->awaited.n; k++)
        if (strcmp(L->awaited.v[k], name) == 0) f->fflags |= FN_AWAITED_HERE;
    for (size_t k = 0; k < L->awaited_any.n && class_name; k++)
        if (strcmp(L->awaited_any.v[k], name) == 0) f->fflags |= FN_AWAITED_ANY;
    /* (only a coroutine no other module can await: a local one, or a
     * private one; a public `run_controller` run by asyncio.run here may
     * be awaited under a timeout by code that imports it) */
    for (size_t k = 0; k < L->mains.n; k++)
        if (strcmp(L->mains.v[k], name) == 0 && (name[0] == '_' || strstr(f->qualname, ".<locals>.")))
            f->fflags |= FN_MAIN_TASK;
    for (size_t k = 0; k < L->mains.n && f->is_async; k++)
        if (strcmp(L->mains.v[k], name) == 0) f->fflags |= FN_RUNNER_MAIN;
    /* a test case (`async def test_x` in a Test class, or in a test
     * module): its runner (pytest-asyncio, IsolatedAsyncioTestCase) runs
     * it as the main task of the test's loop and cancels what it leaves
     * running when it ends */
    if (f->is_async && test_case(L, name, class_name)) f->fflags |= FN_MAIN_TASK;
    L->class_name = class_name;
    L->locals_ctor.n = 0;
    L->param_class.n = 0;
    L->local_class.n = 0;
    L->elem_class.n = 0;
    L->global_decl.n = 0;
    L->plain_decl.n = 0;
    L->global_views.n = 0;
    L->exc_flags.n = 0;
    L->fresh.n = 0;
    L->unmade_paths.n = 0;
    L->unmade_makers.n = 0;
    L->loop_depth = 0;
    L->depth = 0;
    L->in_cleanup = 0;
    L->in_cancel_handler = 0;
    L->too_deep = 0;
    L->cancelled.n = 0;
    L->self_cancellers.n = 0;
    collect_self_cancellers(L, def);
    L->strong.n = 0;
    L->elem_of.n = 0;
    L->created.n = 0;
    L->flags.n = 0;
    L->member_vars = 0;
    L->returns_call = L->returns_other = 0;
    L->returns_literal = L->returns_nonliteral = 0;
    {
        /* which names get literal True/False/None somewhere in the body: every
         * binding of them is recorded (IR_BIND), so their value along a path
         * is known (a flag set after a hand-over, tested in a handler) */
        pn body0 = pn_field(def, PF_body);
        const pt_node *endp0 = L->T->v + L->T->n;
        for (pn x = body0; x < endp0 && x->start < body0->end; x++) {
            if (x->type != PT_assignment) continue;
            pn l = unparen(pn_field(x, PF_left)), r = unparen(pn_field(x, PF_right));
            if (!pn_is(l, PT_identifier) || pn_isnull(r)) continue;
            if (pn_is(r, PT_true) || pn_is(r, PT_false) || pn_is(r, PT_none)) {
                const char *nm = text(L, l);
                int seen = 0;
                for (size_t k = 0; k < L->flags.n; k++) seen |= strcmp(L->flags.v[k], nm) == 0;
                if (!seen) CA_VEC_PUSH(L->flags, nm);
            }
        }
        /* (but a name a nested function rebinds through `nonlocal`, or a
         * global, can change whenever other code runs: its value is not
         * followed) */
        for (pn x = body0; x < endp0 && x->start < body0->end && L->flags.n; x++) {
            if (x->type != PT_nonlocal_statement && x->type != PT_global_statement) continue;
            PN_FOR_NAMED(id, x) {
                if (!pn_is(id, PT_identifier)) continue;
                const char *nm = text(L, id);
                for (size_t k = 0; k < L->flags.n;) {
                    if (strcmp(L->flags.v[k], nm) == 0) L->flags.v[k] = L->flags.v[--L->flags.n];
                    else k++;
                }
            }
        }
    }
    pn params = pn_field(def, PF_parameters);
    L->kwargs_name = NULL;
    PN_FOR_NAMED(p, params) {
        pn id = param_ident(p);
        if (pn_isnull(id)) continue;
        unsigned fl = VAR_PARAM;
        if (p->end - p->start > 2 && L->src[p->start] == '*' && L->src[p->start + 1] == '*') L->kwargs_name = text(L, id);
        if (pn_is(p, PT_list_splat_pattern) || (!pn_is(p, PT_identifier) && pn_is(pn_first_named(p), PT_list_splat_pattern)))
            fl |= VAR_VARARGS;
        if (f->nparams == 0 && class_name) {
            const char *pname = text(L, id);
            if (strcmp(pname, "self") == 0 || strcmp(pname, "cls") == 0) {
                fl |= VAR_SELF;
                f->is_method = 1;
            }
        }
        ir_var_add(L->m, f, text(L, id), fl);
        f->nparams = f->nvars;
        /* `def create(cls: type[T], ...) -> T`: T is the class it is called on */
        if ((fl & VAR_SELF) && !pn_is(p, PT_identifier) && !pn_isnull(pn_field(def, PF_return_type)))
            self_typevar_return(L, f, pn_field(p, PF_type), pn_field(def, PF_return_type), class_name);
        /* the one class an annotation names (not plain data, not a union of
         * classes): what the parameter's methods resolve to */
        pn ty = pn_is(p, PT_identifier) ? &pt_null : pn_field(p, PF_type);
        const char *one = NULL;
        int plain = !(fl & VAR_SELF) && !pn_isnull(ty) && annot_plain(L, ty, &one);
        if (plain) f->vars[f->nvars - 1].flags |= VAR_PLAIN;
        if (!(fl & VAR_SELF) && !pn_isnull(ty) && !plain && one) {
            name_map e = {text(L, id), one, 0, 0};
            CA_VEC_PUSH(L->param_class, e);
        }
    }
    if (f->is_method) mark_views_of_self(L, def, f);
    note_element_classes(L, def);
    lower_block(L, pn_field(def, PF_body), &f->body);
    note_returned_param(L, def, f);
    note_quiet_exit(L, def, f);
    note_quiet_hold(L, def, f);
    if (f->is_method && f->name && strcmp(f->name, "__init__") == 0 && plain_init(L, def)) f->fflags |= FN_PLAIN_INIT;
    note_done_future(L, def, f);
    if (L->returns_call && !L->returns_other) f->fflags |= FN_RETURNS_CALL;
    if (L->returns_literal && !L->returns_nonliteral) f->fflags |= FN_RETURNS_LITERAL;
    if (f->is_method && strcmp(name, "__init__") == 0 && joins_param(L, def)) f->fflags |= FN_JOINS_PARAM;
    /* which parameters the body names at all (the flat tree is in
     * preorder: the body's nodes follow the def's) */
    /* and where the body last names each variable: a variable named
     * inside a nested function or lambda may be used whenever that runs */
    pn body = pn_field(def, PF_body);
    const pt_node *endp = L->T->v + L->T->n;
    uint32_t *last = ca_xcalloc((size_t)f->nvars + 1, sizeof(*last));
    unsigned char *nested = ca_xcalloc((size_t)f->nvars + 1, 1);
    uint32_t nested_end = 0;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type == PT_function_definition || x->type == PT_lambda) {
            if (x->end > nested_end) nested_end = x->end;
            continue;
        }
        if (x->type != PT_identifier) continue;
        int v = var_of(L, x);
        if (v >= 0 && v < f->nparams && v < 64 && !tool_use(L, x)) f->param_mentions |= 1ull << v;
        pn up = pn_parent(x);
        if (v >= 0 && x->start >= nested_end && compared_with_scalar(up, x)) f->vars[v].flags |= VAR_SCALAR;
        int mv = pn_is(up, PT_attribute) && pn_field(up, PF_object) == x ? var_of(L, up) : -1;
        for (int k = 0; k < 2; k++) {
            int w = k ? mv : v;
            if (w < 0 || w >= f->nvars) continue;
            if (x->start < nested_end) nested[w] = 1;
            if (x->start + 1 > last[w]) last[w] = x->start + 1;
        }
    }
    for (int i = 0; i < f->nvars; i++)
        if (last[i] && !nested[i]) f->vars[i].last_mention = last[i] - 1;
    free(last);
    free(nested);
    if (L->too_deep && !L->m->diagnostic)
        L->m->diagnostic = ca_xasprintf("nesting deeper than %d levels in %s (line %d); the rest of it was not analysed",
                                        IR_MAX_DEPTH, f->qualname, f->site.line);
    L->f = NULL;
}

/* `self.X = Ctor()` in a class's methods, and `X = Ctor()` in its body. */
static void note_option(lower *L, const char *key, int option)
{
    for (size_t i = 0; i < L->options.n; i++)
        if (strcmp(L->options.v[i].key, key) == 0) {
            if (!option) L->options.v[i].value = "0";
            return;
        }
    name_map e = {ca_arena_strdup(&L->m->arena, key), option ? "1" : "0", 0, 0};
    CA_VEC_PUSH(L->options, e);
}

/* Does every return in body (a def's, nested defs aside) hand back the
 * bare name nm, or None, with at least one of them nm? */
static int returns_name(lower *L, pn body, const char *nm)
{
    const pt_node *endp = L->T->v + L->T->n;
    uint32_t nested_end = 0;
    int named = 0;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (in_nested_def(x, &nested_end) || x->type != PT_return_statement) continue;
        pn v = unparen(pn_first_named(x));
        if (pn_is(v, PT_identifier) && text_is(L, v, nm)) named = 1;
        else if (!pn_isnull(v) && !pn_is(v, PT_none)) return 0;
    }
    return named;
}

/* Which attributes of the class are options: assigned only in __init__,
 * straight from one of its parameters (`self.suppress = suppress`). */
static void collect_options(lower *L, pn cls, const char *class_name)
{
    pn body = pn_field(cls, PF_body);
    const pt_node *endp = L->T->v + L->T->n;
    PN_FOR_NAMED(m, body) {
        pn def = pn_is(m, PT_decorated_definition) ? pn_field(m, PF_definition) : m;
        if (!pn_is(def, PT_function_definition)) continue;
        int init = strcmp(text(L, pn_field(def, PF_name)), "__init__") == 0;
        pn params = pn_field(def, PF_parameters);
        pn fb = pn_field(def, PF_body);
        if (pn_isnull(fb)) continue;
        CA_VEC(const char *) set_true = {0};
        for (pn x = fb; x < endp && x->start < fb->end; x++) {
            if (pn_is(x, PT_call)) {
                pn fn = unparen(pn_field(x, PF_function));
                /* `def _finished(self): ... self._task.cancel()` */
                if (pn_is(fn, PT_attribute) && strcmp(text(L, pn_field(fn, PF_attribute)), "cancel") == 0) {
                    pn tobj = unparen(pn_field(fn, PF_object));
                    /* `task = self.task; ...; task.cancel(); return task`: a
                     * method that hands back the task it cancelled (value
                     * "<return>"); what the caller binds to its answer is a
                     * task cancelled there */
                    if (pn_is(tobj, PT_identifier) && returns_name(L, fb, text(L, tobj))) {
                        ca_sb mk = {0};
                        ca_sb_addf(&mk, "%s.%s", class_name, text(L, pn_field(def, PF_name)));
                        name_map e = {ca_arena_strdup(&L->m->arena, ca_sb_str(&mk)), "<return>", 0, 0};
                        CA_VEC_PUSH(L->cancelling_methods, e);
                        ca_sb_release(&mk);
                    }
                    if (pn_is(tobj, PT_attribute) && pn_is(unparen(pn_field(tobj, PF_object)), PT_identifier) &&
                        strcmp(text(L, unparen(pn_field(tobj, PF_object))), "self") == 0) {
                        ca_sb mk = {0};
                        ca_sb_addf(&mk, "%s.%s", class_name, text(L, pn_field(def, PF_name)));
                        name_map e = {ca_arena_strdup(&L->m->arena, ca_sb_str(&mk)), norm_text(L, tobj, 200), 0, 0};
                        CA_VEC_PUSH(L->cancelling_methods, e);
                        ca_sb_release(&mk);
                    }
                }
                const char *an = pn_is(fn, PT_attribute) ? text(L, pn_field(fn, PF_attribute)) : NULL;
                pn ao = pn_is(fn, PT_attribute) ? unparen(pn_field(fn, PF_object)) : &pt_null;
                /* `self._stopped.set()`: an event of the object set, as a
                 * flag set to True (tested `self._stopped.is_set()`) */
                if (an && strcmp(an, "set") == 0 && pn_is(ao, PT_attribute) && pn_named_count(pn_field(x, PF_arguments)) == 0 &&
                    pn_is(unparen(pn_field(ao, PF_object)), PT_identifier) &&
                    strcmp(text(L, unparen(pn_field(ao, PF_object))), "self") == 0) {
                    ca_sb ek = {0};
                    ca_sb_addf(&ek, "%s.%s", class_name, text(L, pn_field(ao, PF_attribute)));
                    CA_VEC_PUSH(set_true, ca_arena_strdup(&L->m->arena, ca_sb_str(&ek)));
                    ca_sb_release(&ek);
                    continue;
                }
                if (!set_true.n) continue;
                /* `self._stopping = True` ... `task.cancel()`, or ... `await
                 * self.disconnect()`: the object's own teardown, which stops
                 * its tasks (in this class or a subclass); or a helper named
                 * for cancelling (catalog cancel-helper: `await
                 * cancel_tasks(all_tasks)`) */
                int teardown = an && pn_is(ao, PT_identifier) && strcmp(text(L, ao), "self") == 0 &&
                               cat(L, CAT_RELEASE_METHOD, an) && strcmp(an, "__exit__") != 0 &&
                               strcmp(an, "__aexit__") != 0;
                const char *cn = an ? an : pn_is(fn, PT_identifier) ? text(L, fn) : NULL;
                if (cn && strcmp(cn, "cancel") != 0 && cat(L, CAT_CANCEL_HELPER, cn)) teardown = 1;
                if ((an && strcmp(an, "cancel") == 0) || teardown) {
                    for (size_t k = 0; k < set_true.n; k++) CA_VEC_PUSH(L->cancel_flags, set_true.v[k]);
                    set_true.n = 0;
                }
                continue;
            }
            if (!pn_is(x, PT_assignment) && !pn_is(x, PT_augmented_assignment)) continue;
            pn left = unparen(pn_field(x, PF_left));
            if (!pn_is(left, PT_attribute)) continue;
            char *obj = text(L, unparen(pn_field(left, PF_object)));
            if (strcmp(obj, "self") != 0) continue;
            ca_sb key = {0};
            ca_sb_addf(&key, "%s.%s", class_name, text(L, pn_field(left, PF_attribute)));
            int option = 0;
            pn right = unparen(pn_field(x, PF_right));
            if (init && pn_is(x, PT_assignment) && pn_is(right, PT_identifier) && !pn_isnull(params)) {
                const char *rn = text(L, right);
                for (pn q = params; q < endp && q->start < params->end; q++)
                    if (pn_is(q, PT_identifier) && strcmp(text(L, q), rn) == 0) option = 1;
            }
            note_option(L, ca_sb_str(&key), option);
            if (pn_is(x, PT_assignment) && pn_is(right, PT_true))
                CA_VEC_PUSH(set_true, ca_arena_strdup(&L->m->arena, ca_sb_str(&key)));
            /* `self.running = False` before the cancel: a flag the object's
             * loops run while set (`while self.running:`), cleared to stop
             * them ("!Class.attr") */
            if (pn_is(x, PT_assignment) && pn_is(right, PT_false)) {
                ca_sb nk = {0};
                ca_sb_addf(&nk, "!%s", ca_sb_str(&key));
                CA_VEC_PUSH(set_true, ca_arena_strdup(&L->m->arena, ca_sb_str(&nk)));
                ca_sb_release(&nk);
            }
            ca_sb_release(&key);
        }
        CA_VEC_FREE(set_true);
    }
}

/* `if self.F:` where F is a cancel flag of the class (cancel_flags). */
/* `next((m for m in self.models if ...), None)`, `next(iter(self._conns))`:
 * one element of a container self holds. */
static int returns_element_of_self(lower *L, pn e)
{
    if (!pn_is(e, PT_call)) return 0;
    char *d = dotted(L, pn_field(e, PF_function));
    if (!d || strcmp(d, "next") != 0) return 0;
    pn a0 = unparen(first_pos_arg(e, 0));
    pn over = &pt_null;
    if (pn_is(a0, PT_generator_expression)) {
        PN_FOR_NAMED(c, a0)
            if (pn_is(c, PT_for_in_clause)) {
                over = unparen(pn_field(c, PF_right));
                break;
            }
    } else if (pn_is(a0, PT_call)) {
        char *it = dotted(L, pn_field(a0, PF_function));
        if (it && strcmp(it, "iter") == 0) over = unparen(first_pos_arg(a0, 0));
    }
    int rv;
    return !pn_isnull(over) && pn_is(over, PT_attribute) && owner_of(L, over, &rv) == OWN_SELF;
}

/* Does the body of def (a function defined in the one being lowered)
 * cancel the task it runs in (`asyncio.current_task().cancel()`, or `t =
 * asyncio.current_task(); t.cancel()`)? */
static int cancels_current_task(lower *L, pn def)
{
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body)) return 0;
    const pt_node *endp = L->T->v + L->T->n;
    const char *bound = NULL;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type == PT_assignment) {
            pn l = unparen(pn_field(x, PF_left)), r = unparen(pn_field(x, PF_right));
            if (pn_is(l, PT_identifier) && pn_is(r, PT_call)) {
                char *d = dotted(L, pn_field(r, PF_function));
                if (d && strcmp(last_component(d), "current_task") == 0) bound = text(L, l);
            }
        }
        if (x->type != PT_call) continue;
        pn fn = unparen(pn_field(x, PF_function));
        if (!pn_is(fn, PT_attribute) || strcmp(text(L, pn_field(fn, PF_attribute)), "cancel") != 0) continue;
        pn recv = unparen(pn_field(fn, PF_object));
        if (pn_is(recv, PT_identifier) && bound && strcmp(text(L, recv), bound) == 0) return 1;
        if (pn_is(recv, PT_call)) {
            char *d = dotted(L, pn_field(recv, PF_function));
            if (d && strcmp(last_component(d), "current_task") == 0) return 1;
        }
    }
    return 0;
}

/* `stopper.add_done_callback(request_cancel)` where request_cancel, defined
 * in this function, cancels the current task: stopper's names. */
static void collect_self_cancellers(lower *L, pn def)
{
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body) || !bytes_contain(L->src + body->start, body->end - body->start, "add_done_callback")) return;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = body; x < endp && x->start < body->end; x++) {
        if (x->type != PT_call) continue;
        pn fn = unparen(pn_field(x, PF_function));
        if (!pn_is(fn, PT_attribute) || strcmp(text(L, pn_field(fn, PF_attribute)), "add_done_callback") != 0) continue;
        pn recv = unparen(pn_field(fn, PF_object)), cb = unparen(first_pos_arg(x, 0));
        if (!pn_is(recv, PT_identifier) || !pn_is(cb, PT_identifier)) continue;
        const char *cbn = text(L, cb);
        for (pn y = body; y < endp && y->start < body->end; y++) {
            if (y->type != PT_function_definition || strcmp(text(L, pn_field(y, PF_name)), cbn) != 0) continue;
            if (cancels_current_task(L, y)) CA_VEC_PUSH(L->self_cancellers, text(L, recv));
            break;
        }
    }
}

/* `if stopper is not None and stopper.done():` for a self-canceller: on
 * branch 0 the cancellation is the function's own request. */
static int tests_self_canceller(lower *L, pn cond)
{
    pn c = unparen(cond);
    while (pn_is(c, PT_boolean_operator) && pn_child(c, 1)->type == PT_and) {
        if (tests_self_canceller(L, pn_field(c, PF_right))) return 1;
        c = unparen(pn_field(c, PF_left));
    }
    if (!pn_is(c, PT_call) || !pn_isnull(first_pos_arg(c, 0))) return 0;
    pn fn = unparen(pn_field(c, PF_function));
    if (!pn_is(fn, PT_attribute) || strcmp(text(L, pn_field(fn, PF_attribute)), "done") != 0) return 0;
    pn recv = unparen(pn_field(fn, PF_object));
    if (!pn_is(recv, PT_identifier)) return 0;
    for (size_t i = 0; i < L->self_cancellers.n; i++)
        if (strcmp(L->self_cancellers.v[i], text(L, recv)) == 0) return 1;
    return 0;
}

static int tests_cancel_flag(lower *L, pn cond)
{
    if (L->self_cancellers.n && tests_self_canceller(L, cond)) return 1;
    pn c = unparen(cond);
    /* `if not self._stopping: raise`: the flag is set where the test fails
     * (one `not`; iteratively, so that `not not ... x` costs no stack) */
    if (pn_is(c, PT_not_operator)) {
        pn a = unparen(pn_field(c, PF_argument));
        if (pn_isnull(a) || pn_is(a, PT_not_operator)) return 0;
        int r = tests_cancel_flag(L, a);
        return r == 1 ? 2 : r == 2 ? 1 : 0;
    }
    /* `if self.transport.app.should_stop:`, `if self._closing:`: a flag
     * named as the shutdown of its object (catalog closing-flag) */
    if (pn_is(c, PT_attribute)) {
        const char *an = text(L, pn_field(c, PF_attribute));
        while (an && *an == '_') an++;
        if (an && cat(L, CAT_CLOSING_FLAG, an)) return 1;
    }
    /* `if self._stopped.is_set():`: an event of the object, read as a flag */
    if (pn_is(c, PT_call) && pn_named_count(pn_field(c, PF_arguments)) == 0) {
        pn cf = unparen(pn_field(c, PF_function));
        if (pn_is(cf, PT_attribute) && text_is(L, pn_field(cf, PF_attribute), "is_set"))
            c = unparen(pn_field(cf, PF_object));
    }
    /* (in a def of a method's body, the method's `self` it closes over) */
    const char *cls = L->class_name;
    if (!cls && L->outer_class && pn_is(c, PT_attribute) && pn_is(unparen(pn_field(c, PF_object)), PT_identifier) &&
        ir_var_find(L->f, "self") < 0)
        cls = L->outer_class;
    if (!pn_is(c, PT_attribute) || !cls) return 0;
    pn obj = unparen(pn_field(c, PF_object));
    if (!pn_is(obj, PT_identifier) || strcmp(text(L, obj), "self") != 0) return 0;
    ca_sb key = {0};
    ca_sb_addf(&key, "%s.%s", cls, text(L, pn_field(c, PF_attribute)));
    int hit = 0;
    for (size_t i = 0; i < L->cancel_flags.n && hit != 1; i++) {
        const char *cf = L->cancel_flags.v[i];
        if (strcmp(cf, ca_sb_str(&key)) == 0) hit = 1;
        /* (a flag cleared before the cancel: the test fails once cancelled;
         * unless some method sets it before its cancel, which decides) */
        else if (cf[0] == '!' && strcmp(cf + 1, ca_sb_str(&key)) == 0) hit = 2;
    }
    ca_sb_release(&key);
    return hit;
}

/* "Cls.attr[*]" → the one class of the elements annotation t names
 * (`list[Connection]`, `tuple[Connection, ...]`), when it names one (what
 * a loop over the attribute binds; "Cls.attr[]" is a mapping's entry). */
static void note_element_attr(lower *L, const char *class_name, const char *attr, pn t)
{
    const char *c = pn_isnull(t) ? NULL : element_class(L, t);
    /* ("Cls.attr[v]": the one class of a mapping's values, `dict[str,
     * Session]`, what a loop over `.values()` binds) */
    const char *v = c || pn_isnull(t) ? NULL : value_class(L, t);
    if (!c && !v) return;
    ca_sb key = {0};
    ca_sb_addf(&key, "%s.%s%s", class_name, attr, c ? "[*]" : "[v]");
    name_map e = {ca_arena_strdup(&L->m->arena, ca_sb_str(&key)), c ? c : v, 0, 0};
    CA_VEC_PUSH(L->class_attrs, e);
    ca_sb_release(&key);
}

static void collect_class_attrs(lower *L, pn cls, const char *class_name)
{
    collect_options(L, cls, class_name);
    pn body = pn_field(cls, PF_body);
    pn stack[256];
    int sp = 0;
    PN_FOR_NAMED(x, body) {
        if (sp >= 256) break;
        stack[sp++] = x;
    }
    while (sp) {
        pn s = stack[--sp];
        if (pn_is(s, PT_decorated_definition)) s = pn_field(s, PF_definition);
        /* `@property def ledger(self) -> Ledger`: reading self.ledger gives
         * the one class its annotation names, as `self.ledger = ledger` of
         * a parameter so annotated does (only a property of this class) */
        if (pn_is(s, PT_function_definition) && pn_parent(pn_parent(s)) == body &&
            (has_decorator(L, s, CAT__COUNT, "property") || has_decorator(L, s, CAT__COUNT, "cached_property"))) {
            pn ty = pn_field(s, PF_return_type);
            const char *one = NULL;
            if (!pn_isnull(ty) && !annot_plain(L, ty, &one) && one) {
                ca_sb key = {0};
                ca_sb_addf(&key, "%s.%s", class_name, text(L, pn_field(s, PF_name)));
                name_map e = {ca_arena_strdup(&L->m->arena, ca_sb_str(&key)), one, 0, 0};
                CA_VEC_PUSH(L->attr_types, e);
                ca_sb_release(&key);
            }
            /* (`-> tuple[Connection, ...]`: what a loop over it binds) */
            note_element_attr(L, class_name, text(L, pn_field(s, PF_name)), ty);
        }
        if (pn_is(s, PT_function_definition)) {
            PN_FOR_NAMED(x, pn_field(s, PF_body)) {
                if (sp >= 256) break;
                stack[sp++] = x;
            }
            continue;
        }
        if (pn_is(s, PT_if_statement)) {
            PN_FOR_NAMED(x, pn_field(s, PF_consequence)) {
                if (sp >= 256) break;
                stack[sp++] = x;
            }
            /* (and the elif and else branches: `if isinstance(event, Request):
             * self.handshake = Handshake(...)` in an event dispatcher) */
            PN_FOR_NAMED(x, s) {
                if (!pn_is(x, PT_elif_clause) && !pn_is(x, PT_else_clause)) continue;
                pn blk = pn_is(x, PT_elif_clause) ? pn_field(x, PF_consequence) : pn_field(x, PF_body);
                PN_FOR_NAMED(y, blk) {
                    if (sp >= 256) break;
                    stack[sp++] = y;
                }
            }
            continue;
        }
        /* (and the bodies of with, try, for and while statements: `with
         * self._startup_lock: def run_loop(): self._q = asyncio.Queue()`) */
        if (pn_is(s, PT_with_statement) || pn_is(s, PT_try_statement) || pn_is(s, PT_for_statement) ||
            pn_is(s, PT_while_statement) || pn_is(s, PT_block) || pn_is(s, PT_except_clause) ||
            pn_is(s, PT_finally_clause) || pn_is(s, PT_else_clause)) {
            PN_FOR_NAMED(x, s) {
                if (sp >= 256) break;
                if (pn_is(x, PT_block) || pn_is(x, PT_except_clause) || pn_is(x, PT_finally_clause) ||
                    pn_is(x, PT_else_clause) || pn_is(x, PT_expression_statement) || pn_is(x, PT_if_statement) ||
                    pn_is(x, PT_with_statement) || pn_is(x, PT_try_statement) || pn_is(x, PT_for_statement) ||
                    pn_is(x, PT_while_statement) || pn_is(x, PT_function_definition) ||
                    pn_is(x, PT_decorated_definition))
                    stack[sp++] = x;
            }
            continue;
        }
        if (!pn_is(s, PT_expression_statement)) continue;
        pn a = pn_first_named(s);
        if (!pn_is(a, PT_assignment)) continue;
        pn left = unparen(pn_field(a, PF_left)), right = unparen(pn_field(a, PF_right));
        const char *attr = NULL;
        if (pn_is(left, PT_attribute)) {
            char *obj = text(L, pn_field(left, PF_object));
            if (strcmp(obj, "self") == 0 || strcmp(obj, "cls") == 0) attr = text(L, pn_field(left, PF_attribute));
        } else if (pn_is(left, PT_identifier)) {
            /* (a name of the class body, `pool = Pool()`; not a local of
             * one of its methods, `ledger = self.ledgers.get(k)`) */
            int local = 0;
            for (pn up = pn_parent(a); !pn_isnull(up) && up != cls && !local; up = pn_parent(up))
                local = pn_is(up, PT_function_definition) || pn_is(up, PT_lambda);
            if (!local) attr = text(L, left);
        }
        /* `self._conns: list[Connection] = []`: what a loop over it binds */
        if (attr && pn_is(left, PT_attribute)) note_element_attr(L, class_name, attr, pn_field(a, PF_type));
        if (attr && pn_is(right, PT_identifier) && pn_is(left, PT_attribute)) {
            /* `self.manager = manager`: the class its parameter's annotation names */
            pn def = pn_parent(a);
            while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
            pn params = pn_isnull(def) ? def : pn_field(def, PF_parameters);
            const char *rn = text(L, right);
            if (!pn_isnull(params))
                PN_FOR_NAMED(p, params) {
                    if (pn_is(p, PT_identifier)) continue;
                    pn id = pn_first_named(p);
                    if (pn_isnull(id) || !pn_is(id, PT_identifier) || strcmp(text(L, id), rn) != 0) continue;
                    pn ty = pn_field(p, PF_type);
                    const char *one = NULL;
                    if (!pn_isnull(ty) && !annot_plain(L, ty, &one) && one) {
                        ca_sb key = {0};
                        ca_sb_addf(&key, "%s.%s", class_name, attr);
                        name_map e = {ca_arena_strdup(&L->m->arena, ca_sb_str(&key)), one, 0, 0};
                        CA_VEC_PUSH(L->attr_types, e);
                        ca_sb_release(&key);
                    }
                    break;
                }
        }
        /* `self.events = events or EventsManager()`: the default's class */
        if (pn_is(right, PT_boolean_operator)) {
            pn alt = unparen(pn_field(right, PF_right));
            if (pn_is(alt, PT_call)) right = alt;
        }
        if (!attr || !pn_is(right, PT_call)) continue;
        pn cf = unparen(pn_field(right, PF_function));
        if (pn_is(cf, PT_subscript)) cf = pn_field(cf, PF_value); /* Chan[Event]() */
        char *d = dotted(L, cf);
        if (!d) continue;
        ca_sb key = {0};
        ca_sb_addf(&key, "%s.%s", class_name, attr);
        name_map e = {ca_arena_strdup(&L->m->arena, ca_sb_str(&key)), d, 0, 0};
        CA_VEC_PUSH(L->class_attrs, e);
        /* "Cls.attr[]": what each entry of `defaultdict(asyncio.Lock)` is
         * made by, the factory named as its argument */
        if (strcmp(d, "collections.defaultdict") == 0 || strcmp(d, "defaultdict") == 0) {
            pn f0 = unparen(first_pos_arg(right, 0));
            char *fd = !pn_isnull(f0) && (pn_is(f0, PT_attribute) || pn_is(f0, PT_identifier)) ? dotted(L, f0) : NULL;
            if (fd) {
                ca_sb ek = {0};
                ca_sb_addf(&ek, "%s.%s[]", class_name, attr);
                name_map e3 = {ca_arena_strdup(&L->m->arena, ca_sb_str(&ek)), fd, 0, 0};
                CA_VEC_PUSH(L->class_attrs, e3);
                ca_sb_release(&ek);
            }
        }
        if (no_args(right)) {
            /* "Cls.attr()": made with no arguments (`asyncio.Queue()`, unbounded) */
            ca_sb_adds(&key, "()");
            name_map e2 = {ca_arena_strdup(&L->m->arena, ca_sb_str(&key)), d, 0, 0};
            CA_VEC_PUSH(L->class_attrs, e2);
        }
        ca_sb_release(&key);
    }
}

static void add_import(lower *L, const char *alias, const char *dotted_name)
{
    name_map e = {alias, dotted_name, 0, 0};
    CA_VEC_PUSH(L->imports, e);
}

/* A name the module binds at its top level to another module's function,
 * which a call of another module may name through this one (SPAWN_EXPORT):
 * `create_task = context_lib.create_task` (through an import), `from .ctx
 * import create_task` (a function's name: lower case, public; a package's
 * __init__ is no such module, the scan finds what lies under a package by
 * its directory). */
static void note_export(lower *L, const char *name, const char *dotted_name, int from_import)
{
    if (!name || !dotted_name || !strchr(dotted_name, '.')) return;
    if (from_import) {
        const char *base = L->m->path ? strrchr(L->m->path, '/') : NULL;
        base = base ? base + 1 : L->m->path;
        if (!(name[0] >= 'a' && name[0] <= 'z') || (base && strcmp(base, "__init__.py") == 0)) return;
    }
    ir_spawn_add_via(L->m, 0, name, SPAWN_EXPORT, dotted_name);
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
    if (!w) return 1;
    if (w > n) return 0;
    /* (candidates by memchr on the first byte, in either case; the
     * comparison is case-insensitive as before) */
    const char *end = s + (n - w + 1);
    unsigned char c = (unsigned char)word[0];
    int lo = tolower(c), up = toupper(c);
    const char *a = memchr(s, lo, (size_t)(end - s));
    const char *b = up != lo ? memchr(s, up, (size_t)(end - s)) : NULL;
    while (a || b) {
        const char *h = a && (!b || a < b) ? a : b;
        if (strncasecmp(h, word, w) == 0) return 1;
        if (h == a) a = h + 1 < end ? memchr(h + 1, lo, (size_t)(end - h - 1)) : NULL;
        else b = h + 1 < end ? memchr(h + 1, up, (size_t)(end - h - 1)) : NULL;
    }
    return 0;
}

/* Comments found by a byte scan (string literals skipped), for a tree
 * without errors: the tree walk then need not visit every expression node. */
static void scan_comments(lower *L)
{
    /* the bytes that matter outside strings */
    static const unsigned char special[256] = {['\n'] = 1, ['#'] = 1, ['\''] = 1, ['"'] = 1};
    const char *s = L->src;
    size_t len = L->len, i = 0;
    int line = 1;
    while (i < len) {
        while (i < len && !special[(unsigned char)s[i]]) i++;
        if (i >= len) break;
        char c = s[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (c == '#') {
            const char *nl = memchr(s + i, '\n', len - i);
            size_t e = nl ? (size_t)(nl - s) : len;
            if (bytes_contain(s + i, e - i, "noqa") || bytes_contain(s + i, e - i, "cancelaudit")) {
                char *txt = ca_arena_strndup(&L->m->arena, s + i, e - i);
                note_comment(L, txt, line);
            }
            i = e;
        } else if (c == '\'' || c == '"') {
            int triple = i + 2 < len && s[i + 1] == c && s[i + 2] == c;
            for (i += triple ? 3 : 1; i < len; i++) {
                while (i < len && s[i] != c && s[i] != '\\' && s[i] != '\n') i++;
                if (i >= len) break;
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
static const unsigned char stmt_holder[PT__COUNT] = {
    [PT_module] = 1, [PT_block] = 1, [PT_decorated_definition] = 1, [PT_function_definition] = 1,
    [PT_class_definition] = 1, [PT_if_statement] = 1, [PT_elif_clause] = 1, [PT_else_clause] = 1,
    [PT_for_statement] = 1, [PT_while_statement] = 1, [PT_try_statement] = 1, [PT_except_clause] = 1,
    [PT_except_group_clause] = 1, [PT_finally_clause] = 1, [PT_with_statement] = 1, [PT_match_statement] = 1,
    [PT_case_clause] = 1, [PT_expression_statement] = 1,
};

/* ---- tasks the module starts ---------------------------------------- */

/* The call a local name was last bound to before x, in the function
 * around x (`coro = self._run(); create_task(coro)`), or the null node. */
/* What `name` was last assigned, in the function holding x, before x
 * (`name = ...`), or null. */
static pn bound_value(lower *L, pn x, const char *name)
{
    pn body = enclosing_body(pn_parent(x));
    pn found = &pt_null;
    if (pn_isnull(body)) return found;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = body; y < endp && y->start < x->start; y++) {
        if (y->type != PT_assignment) continue;
        pn left = unparen(pn_field(y, PF_left));
        if (pn_is(left, PT_identifier) && strcmp(text(L, left), name) == 0) found = unparen(pn_field(y, PF_right));
    }
    return found;
}

static pn bound_call(lower *L, pn x, const char *name)
{
    pn v = bound_value(L, x, name);
    return pn_is(v, PT_call) ? v : &pt_null;
}

/* The name of the function a task runs, from the spawner's first argument:
 * `self._run()`, `_run(x)`, `self._run` (start_soon(fn, ...)), or a local
 * name bound to such a call before (`wrapped = self._run_event(...)`). */
static const char *spawned_name(lower *L, pn a)
{
    a = unparen(a);
    if (pn_is(a, PT_identifier)) {
        pn c = bound_call(L, a, text(L, a));
        if (!pn_isnull(c)) a = c;
    }
    if (pn_is(a, PT_call)) a = unparen(pn_field(a, PF_function));
    if (pn_is(a, PT_attribute)) return text(L, pn_field(a, PF_attribute));
    if (pn_is(a, PT_identifier)) return text(L, a);
    return NULL;
}

#define PICKED_MAX 16

static pn method_around(pn x, pn *cls);
static pn class_method(lower *L, pn c, const char *name);

/* The name of a function x names: `self.m` or a bare name; NULL otherwise. */
static const char *named_function(lower *L, pn x)
{
    x = unparen(x);
    if (pn_is(x, PT_attribute) && pn_is(unparen(pn_field(x, PF_object)), PT_identifier) &&
        text_is(L, unparen(pn_field(x, PF_object)), "self"))
        return text(L, pn_field(x, PF_attribute));
    if (pn_is(x, PT_identifier)) return text(L, x);
    return NULL;
}

/* The dictionary literal a dispatch expression looks its function up in:
 * `{"a": self._a, ...}[kind]`, `{...}.get(kind)`, or either on a local
 * bound to the literal before (`table = {...}; table[kind]`); null
 * otherwise. */
static pn dispatch_table(lower *L, pn e, pn at)
{
    e = unparen(e);
    pn t = &pt_null;
    if (pn_is(e, PT_subscript)) t = unparen(pn_field(e, PF_value));
    else if (pn_is(e, PT_call)) {
        pn f = unparen(pn_field(e, PF_function));
        if (pn_is(f, PT_attribute) && text_is(L, pn_field(f, PF_attribute), "get"))
            t = unparen(pn_field(f, PF_object));
    }
    if (pn_is(t, PT_identifier)) t = bound_value(L, at, text(L, t));
    return pn_is(t, PT_dictionary) ? t : &pt_null;
}

/* The one statement that returns in the body of method def, past a
 * docstring: its value, or null when the body does anything else. */
static pn sole_return(pn def)
{
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body)) return &pt_null;
    pn ret = &pt_null;
    int n = 0;
    PN_FOR_NAMED(st, body) {
        if (n == 0 && pn_is(st, PT_expression_statement) && pn_is(pn_first_named(st), PT_string)) continue;
        if (++n > 1 || !pn_is(st, PT_return_statement)) return &pt_null;
        ret = pn_first_named(st);
    }
    return pn_isnull(ret) ? ret : unparen(ret);
}

/* `fn = self._run_once if once else self._run_loop` before `spawn(fn())`:
 * the functions such a local picks from (each a name or a self method),
 * at most two; the count found. Or a dispatch table: `fn =
 * handlers[kind]` of a dictionary literal of such functions, or `fn =
 * self._handler_for(kind)` of a method of the class whose one statement
 * returns such a lookup (`return {"a": self._a, ...}[kind]`): each of
 * its values, at most PICKED_MAX. */
static int picked_functions(lower *L, pn a, const char *out[PICKED_MAX])
{
    a = unparen(a);
    /* (or picked in place: `ensure_future(self._loop() if again else
     * self._once())`, a call of each) */
    int direct = pn_is(a, PT_conditional_expression);
    pn right = a;
    if (!direct) {
        if (!pn_is(a, PT_call)) return 0;
        pn f = unparen(pn_field(a, PF_function));
        if (!pn_is(f, PT_identifier)) return 0;
        right = bound_value(L, a, text(L, f));
        /* (a dispatch table, looked up here or by a method of self) */
        pn table = dispatch_table(L, right, a);
        if (pn_isnull(table) && pn_is(right, PT_call)) {
            const char *m = named_function(L, pn_field(right, PF_function));
            pn rf = unparen(pn_field(right, PF_function));
            pn cls;
            method_around(a, &cls);
            pn d = m && pn_is(rf, PT_attribute) ? class_method(L, cls, m) : &pt_null;
            pn rv = pn_isnull(d) ? d : sole_return(d);
            if (!pn_isnull(rv)) table = dispatch_table(L, rv, rv);
        }
        if (!pn_isnull(table)) {
            int n = 0;
            PN_FOR_NAMED(pr, table) {
                if (!pn_is(pr, PT_pair)) return 0;
                const char *name = named_function(L, pn_field(pr, PF_value));
                if (!name || n == PICKED_MAX) return 0;
                out[n++] = name;
            }
            return n;
        }
    }
    if (!pn_is(right, PT_conditional_expression)) return 0;
    int n = 0;
    PN_FOR_NAMED(alt, right) {
        pn x = unparen(alt);
        if (alt == pn_named_child(right, 1)) continue; /* (the condition) */
        if (direct) {
            if (!pn_is(x, PT_call)) return 0;
            x = unparen(pn_field(x, PF_function));
        }
        const char *name = named_function(L, x);
        if (!name || n == 2) return 0;
        out[n++] = name;
    }
    return n;
}

/* Does call x start a task on its first argument: a catalogued task
 * spawner or task entry (`loop.create_task`, a project's own `create_task`
 * helper, asyncio.run), a group's spawn, or one of the module's wrappers (a
 * function that spawns its own parameter)? */
static int spawns_task(lower *L, const call_info *ci, const char *const *wrappers, size_t nwrappers)
{
    const ca_cat_entry *e = ci->dotted ? cat(L, CAT_ACQUIRE, ci->dotted) : NULL;
    if (e && e->kind && strcmp(e->kind, "task") == 0) return 1;
    if (ci->dotted && cat(L, CAT_TASK_ENTRY, ci->dotted)) return 1;
    if (!pn_isnull(ci->recv) && cat(L, CAT_GROUP_SPAWN, ci->name) && recv_is_group(L, ci->recv)) return 1;
    for (size_t i = 0; i < nwrappers; i++)
        if (strcmp(wrappers[i], ci->name) == 0) return 1;
    return 0;
}

/* A task start: which function, where, and whether what holds the task
 * can cancel it. */
typedef struct task_start {
    const char *fn;
    pn call;
    int uncancelled;
    const char *cls; /* `self.fn()` started in a method of this class: the class's fn, NULL otherwise */
} task_start;

/* Can a use u of the task's holder cancel the task? A method call on it
 * other than cancel(), a test of it, a new value for it, or a call that
 * keeps tasks without cancelling them (asyncio.shield, asyncio.wait) do
 * not; anything else may: cancel(), an await of it (the awaiting task's
 * cancellation goes into it), gather or wait_for, a helper, a copy. */
/* Is container c (`self._background_tasks`, a module's `_tasks`) a
 * keep-alive set only: every use of its text in the module adds, discards
 * or removes one element, counts it, or (re)binds it, so nothing reached
 * through it can cancel what it holds (asyncio's documented idiom:
 * `tasks.add(t); t.add_done_callback(tasks.discard)`)? */
static int keepalive_container(lower *L, pn c)
{
    if (!pn_is(c, PT_attribute) && !pn_is(c, PT_identifier)) return 0;
    const char *h = norm_text(L, c, 200);
    size_t hl = strlen(h);
    const pt_node *endp = L->T->v + L->T->n;
    int adds = 0;
    for (pn u = pn_root(L->T); u < endp; u++) {
        if (u->type != PT_attribute && u->type != PT_identifier) continue;
        if (u->end - u->start < hl || u->end - u->start > 200 || strcmp(norm_text(L, u, 200), h) != 0) continue;
        pn up = pn_parent(u);
        /* (the name part of an attribute is not a use of its own) */
        if (pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == u) continue;
        if (pn_is(up, PT_attribute) && pn_field(up, PF_object) == u) {
            const char *m = text(L, pn_field(up, PF_attribute));
            if (strcmp(m, "add") == 0 || strcmp(m, "append") == 0) {
                adds++;
                continue;
            }
            if (strcmp(m, "discard") == 0 || strcmp(m, "remove") == 0) continue;
            return 0;
        }
        if (pn_is(up, PT_assignment) && pn_field(up, PF_left) == u) continue;
        if (pn_is(up, PT_argument_list)) {
            pn call = pn_parent(up);
            pn fn = pn_is(call, PT_call) ? unparen(pn_field(call, PF_function)) : &pt_null;
            if (pn_is(fn, PT_identifier) && text_is(L, fn, "len")) continue;
        }
        return 0;
    }
    return adds > 0;
}

static int use_may_cancel(lower *L, pn u)
{
    pn p = pn_parent(u);
    while (pn_is(p, PT_parenthesized_expression)) {
        u = p;
        p = pn_parent(p);
    }
    /* `self._background_tasks.add(task)` into a keep-alive set */
    if (pn_is(p, PT_argument_list) && pn_named_count(p) == 1) {
        pn c = pn_parent(p);
        pn fn = pn_is(c, PT_call) ? unparen(pn_field(c, PF_function)) : &pt_null;
        if (pn_is(fn, PT_attribute)) {
            const char *m = text(L, pn_field(fn, PF_attribute));
            if ((strcmp(m, "add") == 0 || strcmp(m, "append") == 0) &&
                keepalive_container(L, unparen(pn_field(fn, PF_object))))
                return 0;
        }
    }
    if (pn_is(p, PT_attribute) && pn_field(p, PF_object) == u) {
        pn attr = pn_field(p, PF_attribute);
        return strcmp(text(L, attr), "cancel") == 0 || strcmp(text(L, attr), "cancelling") == 0;
    }
    if (pn_is(p, PT_assignment)) return pn_field(p, PF_left) != u; /* `self._t = None` is fine; a copy is not */
    /* `if t.done(): result = await t`: the task has ended, the await only
     * reads its outcome (nothing is left to cancel in it) */
    if (pn_is(p, PT_await)) {
        for (pn up = pn_parent(p); !pn_isnull(up) && !pn_is(up, PT_function_definition); up = pn_parent(up)) {
            if (!pn_is(up, PT_block)) continue;
            pn st = pn_parent(up);
            if (!pn_is(st, PT_if_statement) || pn_field(st, PF_consequence) != up) continue;
            ca_sb want = {0};
            ca_sb_addf(&want, "%s.done()", norm_text(L, u, 200));
            int done = strcmp(norm_text(L, pn_field(st, PF_condition), 400), ca_sb_str(&want)) == 0;
            ca_sb_release(&want);
            if (done) return 0;
        }
        return 1;
    }
    if (pn_is(p, PT_comparison_operator) || pn_is(p, PT_not_operator) || pn_is(p, PT_boolean_operator) ||
        pn_is(p, PT_if_statement) || pn_is(p, PT_elif_clause) || pn_is(p, PT_while_statement) ||
        pn_is(p, PT_conditional_expression))
        return 0;
    /* asyncio.wait([t]), asyncio.shield(t) */
    if (pn_is(p, PT_list) || pn_is(p, PT_set) || pn_is(p, PT_tuple)) p = pn_parent(p);
    if (pn_is(p, PT_argument_list)) {
        pn c = pn_parent(p);
        if (pn_is(c, PT_call)) {
            char *d = dotted(L, pn_field(c, PF_function));
            if (d && cat(L, CAT_KEEPS_TASK, d)) return 0;
        }
    }
    return 1;
}

/* `create_task(self._run())` in a method of class C: C's name (the task
 * runs C's _run, or an override's); NULL for anything else. */
static const char *self_method_class(lower *L, pn a0, pn x)
{
    pn c = unparen(a0);
    if (!pn_is(c, PT_call)) return NULL;
    pn fn = unparen(pn_field(c, PF_function));
    if (!pn_is(fn, PT_attribute)) return NULL;
    pn ob = unparen(pn_field(fn, PF_object));
    if (!pn_is(ob, PT_identifier) || strcmp(text(L, ob), "self") != 0) return NULL;
    pn cls;
    method_around(x, &cls);
    return pn_isnull(cls) ? NULL : text(L, pn_field(cls, PF_name));
}

/* The class (definition) and method whose body holds x: the innermost
 * function, and the class right around it (null nodes when none). */
static pn method_around(pn x, pn *cls)
{
    pn def = x;
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    *cls = &pt_null;
    if (pn_isnull(def)) return def;
    pn c = pn_parent(def);
    while (!pn_isnull(c) && (pn_is(c, PT_block) || pn_is(c, PT_decorated_definition))) c = pn_parent(c);
    if (pn_is(c, PT_class_definition)) *cls = c;
    return def;
}

/* The class of this module named name (by its own name), or the null node. */
static pn module_class(lower *L, const char *name)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn u = pn_root(L->T); u < endp; u++)
        if (u->type == PT_class_definition && strcmp(text(L, pn_field(u, PF_name)), name) == 0) return u;
    return &pt_null;
}

/* Does class c (of this module) have anc among its bases, through classes
 * of the module (by last name, a few levels)? */
static int derives_from(lower *L, pn c, pn anc, int depth)
{
    if (pn_isnull(c) || depth > 8) return 0;
    pn sup = pn_field(c, PF_superclasses);
    if (pn_isnull(sup)) return 0;
    const char *an = text(L, pn_field(anc, PF_name));
    PN_FOR_NAMED(b, sup) {
        pn e = unparen(b);
        if (pn_is(e, PT_subscript)) e = pn_field(e, PF_value);
        char *d = dotted(L, e);
        if (!d) continue;
        if (strcmp(last_component(d), an) == 0) return 1;
        pn bc = module_class(L, last_component(d));
        if (!pn_isnull(bc) && bc != c && derives_from(L, bc, anc, depth + 1)) return 1;
    }
    return 0;
}

/* The definition of the method named name that class c defines itself, or
 * the null node (also for a null c). */
static pn class_method(lower *L, pn c, const char *name)
{
    pn body = pn_isnull(c) ? c : pn_field(c, PF_body);
    if (pn_isnull(body)) return &pt_null;
    PN_FOR_NAMED(st, body) {
        pn d = pn_is(st, PT_decorated_definition) ? pn_field(st, PF_definition) : st;
        if (pn_is(d, PT_function_definition) && strcmp(text(L, pn_field(d, PF_name)), name) == 0) return d;
    }
    return &pt_null;
}

/* Does class c define a method named name itself? */
static int defines_method(lower *L, pn c, const char *name) { return !pn_isnull(class_method(L, c, name)); }

/* Can a use u of `self.<holder>` touch the holder a method of class cs
 * set? Only on an object of cs: a use in cs, in a subclass of it, or in a
 * base of it by a method cs does not override (a base's method cs
 * replaces never runs on a cs; an unrelated class's self is another
 * object). A use outside any class may. */
static int same_object_use(lower *L, pn cs, pn u)
{
    pn cu;
    pn mu = method_around(u, &cu);
    if (pn_isnull(cs) || pn_isnull(cu) || cu == cs) return 1;
    if (derives_from(L, cu, cs, 0)) return 1;
    if (derives_from(L, cs, cu, 0)) return !defines_method(L, cs, text(L, pn_field(mu, PF_name)));
    return 0;
}

/* Is node u (a use of a local name, or of a list literal it is an element
 * of) only awaited by this function: an awaited gather or asyncio.wait
 * hands it (`await asyncio.gather(*tasks)`, `await asyncio.wait([t])`)?
 * The await's own cancellation is this function's. */
static int awaited_child_use(lower *L, pn u)
{
    pn p = pn_parent(u);
    if (pn_is(p, PT_list_splat)) p = pn_parent(p);
    if (!pn_is(p, PT_argument_list)) return 0;
    pn c = pn_parent(p);
    if (!pn_is(c, PT_call)) return 0;
    pn up = pn_parent(c);
    while (pn_is(up, PT_parenthesized_expression)) up = pn_parent(up);
    if (!pn_is(up, PT_await)) return 0;
    char *d = dotted(L, pn_field(c, PF_function));
    return d && (cat(L, CAT_CHILD_TASKS, d) || strcmp(d, "asyncio.wait") == 0);
}

/* Is every use of local name h in function def a holder's use that
 * cancels nothing of its own: a binding of the name, a test of it, a
 * method other than cancel (`t.add_done_callback(cb)`, `t.done()`), an
 * `await t`, or (lists, depth 0 only) an element of a list literal bound
 * to another local, or appended to one, whose every use is so too, handed
 * to an awaited gather? */
static int held_only_to_await(lower *L, pn def, const char *h, int depth)
{
    const pt_node *endp = L->T->v + L->T->n;
    int uses = 0;
    for (pn u = def; u < endp && (u == def || u->start < def->end); u++) {
        if (u->type != PT_identifier) continue;
        pn up = pn_parent(u);
        if (pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == u) continue;
        if (pn_is(up, PT_keyword_argument) && pn_field(up, PF_name) == u) continue;
        if (u->end - u->start > 200 || !text_is(L, u, h)) continue;
        /* (the name bound in a nested function or class is another) */
        pn in = pn_parent(u);
        while (!pn_isnull(in) && !pn_is(in, PT_function_definition) && !pn_is(in, PT_lambda) &&
               !pn_is(in, PT_class_definition))
            in = pn_parent(in);
        if (in != def) return 0;
        uses++;
        pn p = up;
        while (pn_is(p, PT_parenthesized_expression)) p = pn_parent(p);
        if (pn_is(p, PT_assignment) && pn_field(p, PF_left) == u) continue;
        if (pn_is(p, PT_await)) continue;
        if (pn_is(p, PT_comparison_operator) || pn_is(p, PT_not_operator) || pn_is(p, PT_boolean_operator) ||
            pn_is(p, PT_if_statement) || pn_is(p, PT_elif_clause) || pn_is(p, PT_while_statement))
            continue;
        if (pn_is(p, PT_attribute) && pn_field(p, PF_object) == u) {
            const char *m = text(L, pn_field(p, PF_attribute));
            pn call = pn_parent(p);
            if (strcmp(m, "cancel") == 0 || strcmp(m, "cancelling") == 0 || !pn_is(call, PT_call)) return 0;
            /* (`tasks.append(t)`: the list is held where it is used) */
            if (depth > 0 && strcmp(m, "append") != 0 && strcmp(m, "extend") != 0) return 0;
            continue;
        }
        if (depth > 0) {
            /* the list: handed to an awaited gather, or `len(tasks)` */
            if (awaited_child_use(L, u)) continue;
            if (pn_is(p, PT_argument_list)) {
                pn fn = unparen(pn_field(pn_parent(p), PF_function));
                if (pn_is(fn, PT_identifier) && text_is(L, fn, "len")) continue;
            }
            return 0;
        }
        if (awaited_child_use(L, u)) continue;
        /* `tasks = [a, b]` / `tasks.append(t)` of a local list held so */
        pn lst = p;
        if (pn_is(lst, PT_list) || pn_is(lst, PT_tuple) || pn_is(lst, PT_set)) {
            pn q = pn_parent(lst);
            while (pn_is(q, PT_parenthesized_expression)) q = pn_parent(q);
            if (awaited_child_use(L, lst)) continue;
            if (pn_is(q, PT_assignment) && pn_field(q, PF_right) == lst &&
                pn_is(unparen(pn_field(q, PF_left)), PT_identifier) &&
                held_only_to_await(L, def, text(L, unparen(pn_field(q, PF_left))), depth + 1))
                continue;
            return 0;
        }
        if (pn_is(p, PT_argument_list) && pn_named_count(p) == 1) {
            pn c = pn_parent(p);
            pn fn = pn_is(c, PT_call) ? unparen(pn_field(c, PF_function)) : &pt_null;
            if (pn_is(fn, PT_attribute) && pn_is(unparen(pn_field(fn, PF_object)), PT_identifier)) {
                const char *m = text(L, pn_field(fn, PF_attribute));
                if ((strcmp(m, "append") == 0 || strcmp(m, "add") == 0) &&
                    held_only_to_await(L, def, text(L, unparen(pn_field(fn, PF_object))), depth + 1))
                    continue;
            }
        }
        return 0;
    }
    return uses > 0;
}

/* The plain task start x (`t = asyncio.create_task(self._loop())`, the
 * catalog's task starters, not a group's): is its task held by a local of
 * the function that starts it, only to be awaited there
 * (held_only_to_await)? */
static int held_for_await(lower *L, pn x)
{
    pn p = pn_parent(x);
    if (!pn_is(p, PT_assignment) || pn_field(p, PF_right) != x) return 0;
    pn left = unparen(pn_field(p, PF_left));
    if (!pn_is(left, PT_identifier)) return 0;
    call_info ci = call_of(L, x);
    const ca_cat_entry *e = ci.dotted ? cat(L, CAT_ACQUIRE, ci.dotted) : NULL;
    if (!e || !e->kind || strcmp(e->kind, "task") != 0) return 0;
    pn def = pn_parent(x);
    while (!pn_isnull(def) && !pn_is(def, PT_function_definition)) def = pn_parent(def);
    if (pn_isnull(def)) return 0;
    return held_only_to_await(L, def, text(L, left), 0);
}

/* The plain task start x (`h = asyncio.create_task(self._run())`): is it
 * held where no use can cancel it? Its holder is what the start is
 * assigned to (an attribute of self, read module-wide, or a local name,
 * read in its function); a start handed to something else (returned,
 * passed, stored in a container) may be cancelled by whoever gets it. A
 * start that is a statement of its own is dropped: no code holds the task
 * (only the loop's teardown cancels it, as the process ends). */
static int uncancelled_start(lower *L, pn x)
{
    pn p = pn_parent(x);
    if (pn_is(p, PT_expression_statement)) return 1;
    /* the body of a lambda handed to a call that drops what its callback
     * returns (catalog callback-registrar: `loop.add_signal_handler(sig,
     * lambda: asyncio.create_task(self._stop()))`) */
    if (pn_is(p, PT_lambda) && pn_field(p, PF_body) == x) {
        pn al = pn_parent(p);
        pn rc = pn_is(al, PT_argument_list) ? pn_parent(al) : &pt_null;
        if (pn_is(rc, PT_call)) {
            call_info rci = call_of(L, rc);
            if (rci.dotted && cat(L, CAT_CALLBACK_REGISTRAR, rci.dotted)) return 1;
        }
        return 0;
    }
    if (!pn_is(p, PT_assignment) || pn_field(p, PF_right) != x) return 0;
    pn left = unparen(pn_field(p, PF_left));
    int attr = pn_is(left, PT_attribute) && pn_is(unparen(pn_field(left, PF_object)), PT_identifier) &&
               strcmp(text(L, unparen(pn_field(left, PF_object))), "self") == 0;
    if (!attr && !pn_is(left, PT_identifier)) return 0;
    const char *h = norm_text(L, left, 200);
    pn scope = pn_root(L->T);
    if (!attr) {
        for (scope = pn_parent(x); !pn_isnull(scope) && !pn_is(scope, PT_function_definition);)
            scope = pn_parent(scope);
        if (pn_isnull(scope)) return 0; /* a module-level task: anyone may import it */
    }
    const pt_node *endp = L->T->v + L->T->n;
    pn cs = &pt_null;
    if (attr) method_around(x, &cs);
    for (pn u = scope; u < endp && (u == scope || u->start < scope->end); u++) {
        if (u == left || (u->type != PT_attribute && u->type != PT_identifier)) continue;
        if (attr != (u->type == PT_attribute)) continue;
        /* (an identifier that is an attribute's name is not the holder) */
        pn up = pn_parent(u);
        if (!attr && pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == u) continue;
        if (u->end - u->start > 200 || strcmp(norm_text(L, u, 200), h) != 0) continue;
        if (attr && !same_object_use(L, cs, u)) continue;
        if (use_may_cancel(L, u)) return 0;
    }
    return 1;
}

/* Does the module turn on aiohttp's cancellation of handlers whose client
 * went away (`web.AppRunner(app, handler_cancellation=True)`)? Then its
 * routes' handlers may be cancelled (an asyncio server's callbacks are
 * never). */
static int unheld_cancels(lower *L, const char *dotted_name)
{
    if (strncmp(dotted_name, "asyncio.", 8) == 0) return 0;
    return bytes_contain(L->src, L->len, "handler_cancellation");
}

/* The function a callback reference names (`handle`, `self._handle`), or
 * NULL. */
static const char *callback_name(lower *L, pn r)
{
    r = unparen(r);
    if (pn_is(r, PT_identifier)) return text(L, r);
    if (!pn_is(r, PT_attribute)) return NULL;
    pn ob = unparen(pn_field(r, PF_object));
    if (!pn_is(ob, PT_identifier) || strcmp(text(L, ob), "self") != 0) return NULL;
    return text(L, pn_field(r, PF_attribute));
}

/* `self._handle` handed on in a method of class C: C's name. */
static const char *callback_class(lower *L, pn r, pn x)
{
    r = unparen(r);
    if (!pn_is(r, PT_attribute)) return NULL;
    pn cls;
    method_around(x, &cls);
    return pn_isnull(cls) ? NULL : text(L, pn_field(cls, PF_name));
}

/* Is function fn only ever started as a task by starts (never called or
 * passed anywhere else in the module, where it could run in a cancellable
 * caller)? A reference handed to a start by name (a server's connection
 * callback) counts as that start. */
static int only_started(lower *L, pn root, const char *fn, const task_start *starts, size_t n)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn u = root; u < endp; u++) {
        if (u->type != PT_identifier || u->end - u->start != strlen(fn) ||
            memcmp(L->src + u->start, fn, u->end - u->start) != 0)
            continue;
        pn p = pn_parent(u);
        if (pn_is(p, PT_function_definition) && pn_field(p, PF_name) == u) continue;
        /* (`asyncio.run`, `other.run`: a member of something else) */
        if (pn_is(p, PT_attribute) && pn_field(p, PF_attribute) == u) {
            pn ob = unparen(pn_field(p, PF_object));
            if (!pn_is(ob, PT_identifier) || (strcmp(text(L, ob), "self") != 0 && strcmp(text(L, ob), "cls") != 0))
                continue;
        }
        /* (nor a module of a package, `from pantalaimon.daemon import
         * ProxyDaemon`, nor a keyword's name, `Thread(daemon=True)`) */
        if (pn_is(p, PT_dotted_name) && pn_first_named(p) != u) continue;
        if (pn_is(p, PT_keyword_argument) && pn_field(p, PF_name) == u) continue;
        /* self._run or _run, called: the call must be a start's argument */
        pn ref = pn_is(p, PT_attribute) && pn_field(p, PF_attribute) == u ? p : u;
        pn c = pn_parent(ref);
        int ok = 0;
        /* (or handed by reference, maybe through functools.partial, to a
         * start: `asyncio.start_server(self._handle, ...)`) */
        pn hc = c;
        if (pn_is(hc, PT_keyword_argument)) hc = pn_parent(hc);
        if (pn_is(hc, PT_argument_list) && pn_is(pn_parent(hc), PT_call)) {
            pn sc = pn_parent(hc);
            call_info pi = call_of(L, sc);
            if (pi.name && strcmp(pi.name, "partial") == 0 && pn_is(pn_parent(sc), PT_argument_list))
                sc = pn_parent(pn_parent(sc));
            for (size_t k = 0; k < n && !ok; k++) ok = starts[k].call == sc && strcmp(starts[k].fn, fn) == 0;
            if (ok) continue;
        }
        if (pn_is(c, PT_call) && pn_field(c, PF_function) == ref) {
            pn args = pn_parent(c);
            pn sc = pn_is(args, PT_argument_list) ? pn_parent(args) : &pt_null;
            for (size_t k = 0; k < n && !ok; k++) ok = starts[k].call == sc && strcmp(starts[k].fn, fn) == 0;
        }
        if (!ok) return 0;
    }
    return 1;
}

/* Is fn used in the module as a value, not called (`shutdown_kernel =
 * run_sync(_async_shutdown_kernel)`, `handler = Manager._stop`): handed on
 * under another name, it may be awaited in place by code the module does
 * not see. `self.fn`, `cls.fn` and a class of the module's `Cls.fn` count;
 * another object's `x.fn` is some other function. */
static int named_as_value(lower *L, pn root, const char *fn)
{
    const pt_node *endp = L->T->v + L->T->n;
    size_t fl = strlen(fn);
    for (pn u = root; u < endp; u++) {
        if (u->type != PT_identifier || u->end - u->start != fl || memcmp(L->src + u->start, fn, fl) != 0) continue;
        pn p = pn_parent(u);
        if (pn_is(p, PT_function_definition) && pn_field(p, PF_name) == u) continue;
        if (pn_is(p, PT_attribute) && pn_field(p, PF_attribute) == u) {
            pn ob = unparen(pn_field(p, PF_object));
            if (!pn_is(ob, PT_identifier)) continue;
            const char *on = text(L, ob);
            if (strcmp(on, "self") != 0 && strcmp(on, "cls") != 0 && pn_isnull(module_class(L, on))) continue;
        } else if (pn_is(p, PT_attribute)) {
            continue; /* (fn.x: the object of a member read) */
        }
        if (pn_is(p, PT_dotted_name) && pn_first_named(p) != u) continue; /* (`from pkg.fn import X`) */
        pn ref = pn_is(p, PT_attribute) && pn_field(p, PF_attribute) == u ? p : u;
        pn c = pn_parent(ref);
        if (pn_is(c, PT_call) && pn_field(c, PF_function) == ref) continue;
        /* (a decorator's own name, `@fn`, or a keyword's name) */
        if (pn_is(c, PT_decorator) || (pn_is(c, PT_keyword_argument) && pn_field(c, PF_name) == ref)) continue;
        return 1;
    }
    return 0;
}

/* Which functions of the module run as tasks the module itself starts: a
 * coroutine handed to a task spawner (see spawns_task). Their outermost
 * frame is the task: a cancellation it catches there is the task's own
 * shutdown (asyncio.run's teardown, an owner's cancel, a group's). And
 * which of those nothing in the module can cancel (L->uncancelled): every
 * start of it is a plain task whose holder is only tested, shielded or
 * waited for, and it is never called otherwise. By text, module-wide: a
 * first read, before any function is lowered; its texts go to a scratch
 * arena, only the names found are kept. */
/* The name of a parameter: x, x: T, x=1, x: T = 1, *args, **kw, *args: T,
 * **kw: T (the null node for `*` and `/`). */
static pn param_ident(pn p)
{
    pn id = p;
    for (int guard = 0; guard < 4 && !pn_isnull(id) && !pn_is(id, PT_identifier); guard++) {
        pn nm = pn_field(id, PF_name);
        id = pn_isnull(nm) ? pn_first_named(id) : nm;
    }
    return !pn_isnull(id) && pn_is(id, PT_identifier) ? id : &pt_null;
}

/* Async functions of the module (methods included) that await their first
 * argument (after self) under a catalogued timeout call: a provider's
 * `_await_sdk_call(self, awaitable, ...)`. Awaiting one is awaiting that
 * argument under a timeout. */
static void collect_timeout_wrappers(lower *L, pn root)
{
    if (!bytes_contain(L->src, L->len, "wait_for")) return;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn d = root; d < endp; d++) {
        if (d->type != PT_function_definition || !has_token(d, PT_async)) continue;
        pn body = pn_field(d, PF_body), params = pn_field(d, PF_parameters);
        if (pn_isnull(body) || pn_isnull(params)) continue;
        /* the first parameter after self/cls */
        const char *first = NULL;
        int idx = 0;
        PN_FOR_NAMED(pp, params) {
            pn id = param_ident(pp);
            if (pn_isnull(id) || !pn_is(id, PT_identifier)) break;
            const char *nm = text(L, id);
            if (idx++ == 0 && (strcmp(nm, "self") == 0 || strcmp(nm, "cls") == 0)) continue;
            first = nm;
            break;
        }
        if (!first) continue;
        /* names bound to what the first parameter returns: `aw = factory()` */
        CA_VEC(const char *) made = {0};
        for (pn y = body; y < endp && y->start < body->end; y++) {
            if (y->type != PT_assignment) continue;
            pn left = unparen(pn_field(y, PF_left)), right = unparen(pn_field(y, PF_right));
            if (!pn_is(left, PT_identifier) || !pn_is(right, PT_call)) continue;
            pn fn = unparen(pn_field(right, PF_function));
            if (pn_is(fn, PT_identifier) && strcmp(text(L, fn), first) == 0) CA_VEC_PUSH(made, text(L, left));
        }
        for (pn y = body; y < endp && y->start < body->end; y++) {
            if (y->type != PT_call) continue;
            char *dd = dotted(L, pn_field(y, PF_function));
            if (!dd || !cat(L, CAT_TIMEOUT_CALL, dd)) continue;
            pn a0 = unparen(first_pos_arg(y, 0));
            if (pn_is(a0, PT_identifier) && strcmp(text(L, a0), first) == 0) {
                CA_VEC_PUSH(L->timeout_wrappers, text(L, pn_field(d, PF_name)));
                break;
            }
            int factory = 0;
            if (pn_is(a0, PT_call) && pn_is(unparen(pn_field(a0, PF_function)), PT_identifier) &&
                strcmp(text(L, unparen(pn_field(a0, PF_function))), first) == 0)
                factory = 1;
            for (size_t k = 0; k < made.n && !factory && pn_is(a0, PT_identifier); k++)
                factory = strcmp(made.v[k], text(L, a0)) == 0;
            if (factory) {
                CA_VEC_PUSH(L->factory_wrappers, text(L, pn_field(d, PF_name)));
                break;
            }
        }
        CA_VEC_FREE(made);
    }
}

/* Is call c one of the module's timeout wrappers: 1 for one that awaits its
 * first argument (`self._await_sdk_call(x)`), 2 for one that awaits what
 * its first argument returns, given a lambda (`self._op(lambda: c.create())`),
 * 0 otherwise. */
static int calls_timeout_wrapper(lower *L, pn c)
{
    if ((!L->timeout_wrappers.n && !L->factory_wrappers.n) || !pn_is(c, PT_call)) return 0;
    pn fn = unparen(pn_field(c, PF_function));
    const char *name = NULL;
    if (pn_is(fn, PT_identifier)) name = text(L, fn);
    else if (pn_is(fn, PT_attribute) && pn_is(unparen(pn_field(fn, PF_object)), PT_identifier) &&
             strcmp(text(L, unparen(pn_field(fn, PF_object))), "self") == 0)
        name = text(L, pn_field(fn, PF_attribute));
    if (!name) return 0;
    for (size_t i = 0; i < L->timeout_wrappers.n; i++)
        if (strcmp(L->timeout_wrappers.v[i], name) == 0) return 1;
    pn a0 = unparen(first_pos_arg(c, 0));
    if (!pn_is(a0, PT_lambda) || !pn_is(unparen(pn_field(a0, PF_body)), PT_call)) return 0;
    for (size_t i = 0; i < L->factory_wrappers.n; i++)
        if (strcmp(L->factory_wrappers.v[i], name) == 0) return 2;
    return 0;
}

/* The call a timeout wrapper runs: its first argument, or the body of the
 * lambda given to a factory wrapper. */
static pn wrapped_call(lower *L, pn c)
{
    pn a0 = unparen(first_pos_arg(c, 0));
    if (calls_timeout_wrapper(L, c) == 2) return unparen(pn_field(a0, PF_body));
    return a0;
}

/* Names the module awaits as plain coroutines: `await f(...)`, `await
 * self.f(...)`, also through a timeout call (`await wait_for(self.f(), t)`). */
static void collect_awaited(lower *L, pn root)
{
    if (!bytes_contain(L->src, L->len, "await") && !bytes_contain(L->src, L->len, "async for")) return;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn x = root; x < endp; x++) {
        /* (the expression, not its keyword; and an async generator iterated
         * in place, `async for e in self._events()`, runs in its caller's
         * task as an awaited coroutine does) */
        pn c;
        if (x->type == PT_for_statement && has_token(x, PT_async)) c = unparen(pn_field(x, PF_right));
        else if (x->type == PT_await && !pn_isnull(pn_first_named(x))) c = unparen(pn_first_named(x));
        else continue;
        if (!pn_is(c, PT_call)) continue;
        char *d = dotted(L, pn_field(c, PF_function));
        if (d && cat(L, CAT_TIMEOUT_CALL, d)) c = unparen(first_pos_arg(c, 0));
        if (!pn_is(c, PT_call)) continue;
        pn fn = unparen(pn_field(c, PF_function));
        const char *nm = NULL;
        if (pn_is(fn, PT_identifier)) nm = text(L, fn);
        else if (pn_is(fn, PT_attribute) && pn_is(unparen(pn_field(fn, PF_object)), PT_identifier) &&
                 (strcmp(text(L, unparen(pn_field(fn, PF_object))), "self") == 0 ||
                  strcmp(text(L, unparen(pn_field(fn, PF_object))), "cls") == 0))
            nm = text(L, pn_field(fn, PF_attribute));
        /* (a function that awaits itself, `return await self._poller()` to
         * start over after an error, runs that call in its own task: it is
         * no other caller's) */
        if (nm) {
            pn cls;
            pn def = method_around(x, &cls);
            if (pn_isnull(def) || !text_is(L, pn_field(def, PF_name), nm)) CA_VEC_PUSH(L->awaited, nm);
        }
        if (pn_is(fn, PT_attribute)) CA_VEC_PUSH(L->awaited_any, text(L, pn_field(fn, PF_attribute)));
        /* (`await super().m(c)`: self's own base's method, in an override) */
        pn ob = pn_is(fn, PT_attribute) ? unparen(pn_field(fn, PF_object)) : &pt_null;
        int of_super = pn_is(ob, PT_call) && pn_is(unparen(pn_field(ob, PF_function)), PT_identifier) &&
                       strcmp(text(L, unparen(pn_field(ob, PF_function))), "super") == 0;
        if (pn_is(fn, PT_attribute) && !nm && !of_super)
            CA_VEC_PUSH(L->awaited_other, text(L, pn_field(fn, PF_attribute)));
    }
}

/* Is some decorator of decorated definition st the bare name deco (`@deco`)? */
static int decorated_by(lower *L, pn st, const char *deco)
{
    PN_FOR_NAMED(d, st) {
        if (!pn_is(d, PT_decorator)) continue;
        pn e = unparen(pn_first_named(d));
        if (pn_is(e, PT_identifier) && strcmp(text(L, e), deco) == 0) return 1;
    }
    return 0;
}

/* `def worker(f): async def wrapper(...): try: await f(...) except
 * CancelledError: ...; return wrapper`, where every function the module
 * decorates with `@worker` runs as a task of the module (found): the
 * wrapper replaces each of them, so it is the outermost frame of those
 * tasks, and a cancellation it catches is the task's own end. */
static void decorator_task_wrappers(lower *L, pn root, const char *const *found, size_t nfound)
{
    if (nfound == 0) return; /* (no task of the module: no wrapper stands in for one) */
    const pt_node *endp = L->T->v + L->T->n;
    for (pn d = root; d < endp; d++) {
        if (d->type != PT_function_definition) continue;
        pn body = pn_field(d, PF_body);
        if (pn_isnull(body)) continue;
        const char *deco = text(L, pn_field(d, PF_name));
        /* its own body: an async def and a `return` of that name */
        const char *wrapper = NULL;
        PN_FOR_NAMED(st, body) {
            pn def = pn_is(st, PT_decorated_definition) ? pn_field(st, PF_definition) : st;
            if (pn_is(def, PT_function_definition) && has_token(def, PT_async)) wrapper = text(L, pn_field(def, PF_name));
        }
        int returned = 0;
        PN_FOR_NAMED(st, body) {
            if (!wrapper || !pn_is(st, PT_return_statement)) continue;
            pn v = unparen(pn_first_named(st));
            if (pn_is(v, PT_identifier) && strcmp(text(L, v), wrapper) == 0) returned = 1;
        }
        if (!returned) continue;
        size_t uses = 0, tasks = 0;
        for (pn st = root; st < endp; st++) {
            if (st->type != PT_decorated_definition || !decorated_by(L, st, deco)) continue;
            pn def = pn_field(st, PF_definition);
            if (!pn_is(def, PT_function_definition)) continue;
            const char *fn = text(L, pn_field(def, PF_name));
            uses++;
            for (size_t i = 0; i < nfound; i++)
                if (strcmp(found[i], fn) == 0) {
                    tasks++;
                    break;
                }
        }
        if (uses == 0 || tasks != uses) continue;
        ca_sb sb = {0};
        ca_sb_addf(&sb, "%s.<locals>.%s", deco, wrapper);
        CA_VEC_PUSH(L->own_wrappers, ca_arena_strdup(&L->m->arena, ca_sb_str(&sb)));
        ca_sb_release(&sb);
    }
}

/* The function def defines in its own body and returns, by the one return
 * statement it has (`def websocket_endpoint(worker): async def
 * _endpoint(ws): ...; return _endpoint`), or a null node. */
static pn returned_inner_def(lower *L, pn def)
{
    pn body = pn_field(def, PF_body);
    if (pn_isnull(body)) return body;
    const char *ret = NULL;
    PN_FOR_NAMED(st, body) {
        if (!pn_is(st, PT_return_statement)) continue;
        pn v = unparen(pn_first_named(st));
        if (ret || pn_isnull(v) || !pn_is(v, PT_identifier)) return &pt_null;
        ret = text(L, v);
    }
    if (!ret) return &pt_null;
    PN_FOR_NAMED(st, body) {
        pn in = pn_is(st, PT_decorated_definition) ? pn_field(st, PF_definition) : st;
        if (pn_is(in, PT_function_definition) && text_is(L, pn_field(in, PF_name), ret)) return in;
    }
    return &pt_null;
}

/* A module-level function of this module named fname that returns a
 * function it defines itself (returned_inner_def): that function's name,
 * or NULL. */
static const char *factory_inner(lower *L, pn root, const char *fname)
{
    PN_FOR_NAMED(d, root) {
        pn def = pn_is(d, PT_decorated_definition) ? pn_field(d, PF_definition) : d;
        if (!pn_is(def, PT_function_definition) || !text_is(L, pn_field(def, PF_name), fname)) continue;
        pn in = returned_inner_def(L, def);
        return pn_isnull(in) ? NULL : text(L, pn_field(in, PF_name));
    }
    return NULL;
}

static void collect_own_tasks(lower *L, pn root)
{
    /* no spawner in the text, no task to find (most modules) */
    static const char *const words[] = {"create_task", "ensure_future", "start_soon", ".start(", "run(", "gather(",
                                        "_threadsafe(", "_task(", "_route("};
    int any = 0;
    for (size_t w = 0; w < sizeof(words) / sizeof(words[0]) && !any; w++)
        any = bytes_contain(L->src, L->len, words[w]);
    /* nor a spawner the catalog names (`background_tasks.create(...)` of
     * `*background_task*`, a configured one), nor a server that runs the
     * handlers handed to it (`web.post(path, handle)`): the last literal
     * part of each task-entry pattern, and of each unheld-server pattern
     * called (`post(`: a bare `post` is a common word) */
    for (int pass = 0; pass < 2 && !any; pass++) {
        size_t ne = 0;
        const ca_cat_entry *te = ca_catalog_entries(L->cat, pass ? CAT_UNHELD_SERVER : CAT_TASK_ENTRY, &ne);
        for (size_t i = 0; i < ne && !any; i++) {
            const char *p = te[i].pattern, *best = NULL;
            size_t bl = 0;
            for (const char *q = p; *q;) {
                size_t run = strcspn(q, "*?[.");
                if (run > 0) best = q, bl = run;
                q += run;
                if (*q) q++;
            }
            if (best && bl >= 4) {
                char w[128];
                if (bl >= sizeof(w) - 1) bl = sizeof(w) - 2;
                memcpy(w, best, bl);
                w[bl] = 0;
                /* (a word as long as `add_route` is read bare too: the
                 * registration may be bound to a local first, `r =
                 * app.router.add_route`) */
                if (pass && !best[bl] && bl < 6) strcat(w, "(");
                any = bytes_contain(L->src, L->len, w);
            }
        }
    }
    if (!any) return;
    ca_arena keep = L->m->arena;
    memset(&L->m->arena, 0, sizeof(L->m->arena));
    CA_VEC(const char *) wrappers = {0};
    CA_VEC(int) wrapper_arg = {0}; /* the parameter of each wrapper it starts (0 the first) */
    CA_VEC(int) wrapper_root = {0}; /* 1 when the wrapper runs it as an event loop's root task */
    CA_VEC(const char *) found = {0};
    const pt_node *endp = L->T->v + L->T->n;
    /* wrappers: `def start_pending_task(coro, ...): create_task(coro)` */
    for (pn d = root; d < endp; d++) {
        if (d->type != PT_function_definition) continue;
        pn body = pn_field(d, PF_body), params = pn_field(d, PF_parameters);
        if (pn_isnull(body) || pn_isnull(params)) continue;
        for (pn y = body; y < endp && y->start < body->end; y++) {
            if (y->type != PT_call) continue;
            call_info ci = call_of(L, y);
            pn a0 = first_pos_arg(y, 0);
            /* (or a factory it is handed, called right there:
             * `create_task(task_factory())`, `create_task(fn(*args))`;
             * its callers hand it a function, `spawn(self._receiver)`) */
            pn a0u = unparen(a0);
            if (pn_is(a0u, PT_call) && pn_is(unparen(pn_field(a0u, PF_function)), PT_identifier))
                a0 = unparen(pn_field(a0u, PF_function));
            if (!ci.name || !pn_is(unparen(a0), PT_identifier) || !spawns_task(L, &ci, NULL, 0)) continue;
            const char *an = text(L, unparen(a0));
            int param = 0, pidx = -1, pos = 0, plain = 1;
            PN_FOR_NAMED(pp, params) {
                pn id = param_ident(pp);
                /* (`*args`, `**kw`, keyword-only: no place to count) */
                if (pn_isnull(id) || L->src[pp->start] == '*' || L->src[pp->start] == '/') plain = 0;
                if (!pn_isnull(id) && pn_is(id, PT_identifier) && strcmp(text(L, id), an) == 0) {
                    param = 1;
                    if (plain) pidx = pos;
                }
                pos++;
            }
            if (param) {
                CA_VEC_PUSH(wrappers, text(L, pn_field(d, PF_name)));
                CA_VEC_PUSH(wrapper_arg, pidx);
                /* (`def _run_sync(self, coro): return
                 * self._loop.run_until_complete(coro)`: a synchronous facade
                 * over a loop of its own, whose root task nothing cancels) */
                /* (or `return asyncio.run_coroutine_threadsafe(coro,
                 * loop).result()`: another loop's task, whose concurrent
                 * future it only waits on, never cancels) */
                const ca_cat_entry *fe = ci.dotted ? cat(L, CAT_ACQUIRE, ci.dotted) : NULL;
                int waited = fe && fe->kind && strcmp(fe->kind, "future") == 0 &&
                             ((pn_is(pn_parent(y), PT_attribute) &&
                               text_is(L, pn_field(pn_parent(y), PF_attribute), "result")) ||
                              uncancelled_start(L, y));
                CA_VEC_PUSH(wrapper_root, (ci.dotted && cat(L, CAT_ROOT_RUNNER, ci.dotted)) || waited ? 1 : 0);
                /* a module function starting its first parameter: one
                 * other modules may call (FN_SPAWNS_ARG0); not one that
                 * waits for what it started (`run_coroutine_threadsafe(
                 * coro, loop).result(timeout)`), which runs it to its end */
                pn p0 = pn_first_named(params);
                pn id0 = pn_isnull(p0) ? p0 : param_ident(p0);
                if (pn_parent(d) == root && !pn_isnull(id0) && pn_is(id0, PT_identifier) && text_is(L, id0, an) &&
                    !pn_is(pn_parent(y), PT_attribute))
                    CA_VEC_PUSH(L->arg0_spawners, ca_arena_strdup(&keep, text(L, pn_field(d, PF_name))));
                /* (or a method of a module-level class starting its first
                 * parameter after self: `def create(self, coroutine, *,
                 * name): task = asyncio.create_task(coroutine)` of a task
                 * supervisor; "Class.method") */
                pn cb = pn_parent(d), cd = pn_isnull(cb) ? cb : pn_parent(cb);
                pn p1 = pn_isnull(p0) ? p0 : pn_named_child(params, 1);
                pn id1 = pn_isnull(p1) ? p1 : param_ident(p1);
                if (!pn_isnull(cd) && pn_is(cb, PT_block) && pn_is(cd, PT_class_definition) && pn_parent(cd) == root &&
                    !pn_isnull(id0) && pn_is(id0, PT_identifier) && text_is(L, id0, "self") && !pn_isnull(id1) &&
                    pn_is(id1, PT_identifier) && text_is(L, id1, an) && L->src[p1->start] != '*' &&
                    !pn_is(pn_parent(y), PT_attribute)) {
                    ca_sb q = {0};
                    ca_sb_addf(&q, "%s.%s", text(L, pn_field(cd, PF_name)), text(L, pn_field(d, PF_name)));
                    CA_VEC_PUSH(L->arg0_spawners, ca_arena_strdup(&keep, ca_sb_str(&q)));
                    ca_sb_release(&q);
                }
                break;
            }
        }
    }
    CA_VEC(task_start) starts = {0};
    CA_VEC(task_start) main_starts = {0};
    for (pn x = root; x < endp; x++) {
        if (x->type != PT_call) continue;
        call_info ci = call_of(L, x);
        if (!ci.name) continue;
        /* (or through a local bound once to the registration's bound
         * method: `r = app.router.add_route; r("GET", "/", handle)`) */
        const char *unheld = ci.dotted;
        {
            pn cf = unparen(pn_field(x, PF_function));
            pn b = pn_is(cf, PT_identifier) ? bound_once_before(L, cf, x) : &pt_null;
            char *bd = pn_is(b, PT_attribute) ? dotted(L, b) : NULL;
            if (bd && cat(L, CAT_UNHELD_SERVER, bd)) unheld = bd;
        }
        if (unheld && cat(L, CAT_UNHELD_SERVER, unheld) && !unheld_cancels(L, unheld)) {
            /* `asyncio.start_server(self._handle, host, port)`: the server
             * runs each connection's handler in a task nobody holds */
            pn args = pn_field(x, PF_arguments);
            if (!pn_isnull(args) && pn_is(args, PT_argument_list))
                PN_FOR_NAMED(a, args) {
                    pn v = unparen(pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
                    pn r = partial_target(L, v);
                    const char *fn = callback_name(L, r);
                    if (!fn) continue;
                    task_start t = {fn, x, 1, callback_class(L, r, x)};
                    CA_VEC_PUSH(starts, t);
                }
        }
        if (ci.dotted && cat(L, CAT_ROUTE_ENTRY, ci.dotted)) {
            /* `app.add_api_websocket_route(path, websocket_endpoint(worker=
             * w))`: the handler a factory of this module makes and returns,
             * run by the framework in a task of its own per request */
            pn args = pn_field(x, PF_arguments);
            if (!pn_isnull(args) && pn_is(args, PT_argument_list))
                PN_FOR_NAMED(a, args) {
                    pn c = unparen(pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
                    pn cf = pn_is(c, PT_call) ? unparen(pn_field(c, PF_function)) : &pt_null;
                    const char *inner = pn_is(cf, PT_identifier) ? factory_inner(L, root, text(L, cf)) : NULL;
                    if (inner) CA_VEC_PUSH(found, inner);
                }
        }
        pn a0 = spawned_arg_src(L, x);
        if (pn_isnull(a0)) continue;
        if (ci.dotted && cat(L, CAT_MAIN_RUNNER, ci.dotted)) {
            /* `asyncio.run(main())`: main's task is the runner's, which
             * cancels what main leaves running when it ends */
            const char *fn = spawned_name(L, a0);
            /* (not a public method of self, `def run(self):
             * asyncio.run(self.serve())`: a sync wrapper of a class's
             * async API, which its users also await in tasks of theirs) */
            if (fn && !(fn[0] != '_' && self_method_class(L, a0, x))) {
                task_start t = {fn, x, 0, NULL};
                CA_VEC_PUSH(main_starts, t);
            }
        }
        if (ci.name && cat(L, CAT_DEFERRED_CALL, ci.name)) {
            /* `loop.call_soon_threadsafe(loop.create_task, self._run())`: the
             * callback is a spawner, handed the coroutine to start */
            char *sd = dotted(L, unparen(first_pos_arg(x, 0)));
            const ca_cat_entry *se = sd ? cat(L, CAT_ACQUIRE, sd) : NULL;
            pn a1 = first_pos_arg(x, 1);
            if (sd && ((se && se->kind && strcmp(se->kind, "task") == 0) || cat(L, CAT_TASK_ENTRY, sd)) &&
                !pn_isnull(a1)) {
                const char *fn = spawned_name(L, a1);
                if (fn) CA_VEC_PUSH(found, fn);
            }
            continue;
        }
        if (ci.dotted && cat(L, CAT_CHILD_TASKS, ci.dotted)) {
            /* `await asyncio.gather(self._pump_a(), self._pump_b())`: each
             * coroutine runs as a task of its own, and the gatherer's
             * cancellation reaches the gatherer whatever a child does
             * with its own */
            pn args = pn_field(x, PF_arguments);
            if (!pn_isnull(args) && pn_is(args, PT_argument_list))
                PN_FOR_NAMED(a, args) {
                    if (pn_is(a, PT_keyword_argument)) continue;
                    /* (directly, in a comprehension, through a local bound
                     * once to one, or appended to a local bound to `[]`) */
                    pn kids[8];
                    int appended = 0, nk = gather_children(L, a, x, kids, 8, &appended);
                    for (int k = 0; k < nk; k++) {
                        const char *fn = spawned_name(L, kids[k]);
                        /* (an appended method the module also awaits in
                         * place on another object, `await
                         * delegator.delegate(t)`, runs there in that
                         * caller's task) */
                        if (fn && appended && awaited_elsewhere(L, kids[k])) continue;
                        if (fn && !named_as_value(L, root, fn)) CA_VEC_PUSH(found, fn);
                    }
                }
            continue;
        }
        if (spawns_task(L, &ci, wrappers.v, wrappers.n)) {
            /* `_start_session_task(ap, run_flow(), ...)`: a module function
             * wrapper that starts its second parameter starts that argument */
            if (!ci.dotted || strchr(ci.dotted, '.') == NULL)
                for (size_t w = 0; w < wrappers.n; w++)
                    if (strcmp(wrappers.v[w], ci.name) == 0 && wrapper_arg.v[w] > 0) {
                        pn aw = first_pos_arg(x, wrapper_arg.v[w]);
                        if (!pn_isnull(aw)) a0 = aw;
                        break;
                    }
            const char *picked[PICKED_MAX];
            int np = picked_functions(L, a0, picked);
            for (int i = 0; i < np; i++) CA_VEC_PUSH(found, picked[i]);
            if (np) continue;
            const char *fn = spawned_name(L, a0);
            if (!fn) continue;
            CA_VEC_PUSH(found, fn);
            /* a plain task (not a group's, not a main task) may be one
             * nobody cancels: see below */
            const ca_cat_entry *e = ci.dotted ? cat(L, CAT_ACQUIRE, ci.dotted) : NULL;
            /* (or a loop's task another thread starts, held by the
             * concurrent future it hands back: `run_coroutine_threadsafe`) */
            int plain = pn_is(unparen(a0), PT_call) && e && e->kind &&
                        (strcmp(e->kind, "task") == 0 || strcmp(e->kind, "future") == 0);
            /* `loop.run_until_complete(process())`: the loop's root task,
             * held by nothing that could cancel it */
            int root = pn_is(unparen(a0), PT_call) && ci.dotted && cat(L, CAT_ROOT_RUNNER, ci.dotted);
            /* (or through a wrapper of this module that does so: the root
             * task is the coroutine handed to it) */
            for (size_t w = 0; !root && w < wrappers.n && pn_is(unparen(a0), PT_call); w++)
                if (wrapper_root.v[w] && ci.name && strcmp(wrappers.v[w], ci.name) == 0) root = 1;
            task_start t = {fn, x, root ? 1 : plain ? uncancelled_start(L, x) : 0, self_method_class(L, a0, x)};
            CA_VEC_PUSH(starts, t);
        } else if (ci.dotted && cat(L, CAT_KEEPS_TASK, ci.dotted) && cat(L, CAT_SHIELD_CALL, ci.dotted) &&
                   pn_is(unparen(a0), PT_call)) {
            /* `await asyncio.shield(self._start())`: the task shield makes
             * of it is held by nothing else */
            const char *fn = spawned_name(L, a0);
            if (!fn) continue;
            task_start t = {fn, x, 1, self_method_class(L, a0, x)};
            CA_VEC_PUSH(starts, t);
        }
    }
    CA_VEC(const char *) uncancelled = {0};
    for (size_t i = 0; i < starts.n; i++) {
        const char *fn = starts.v[i].fn, *cls = starts.v[i].cls;
        /* (`self._run()` started in class C runs C's _run: the starts that
         * count are C's, and those of a base of C in methods C does not
         * replace; a name otherwise) */
        pn cd = cls ? module_class(L, cls) : &pt_null;
        int ok = 1, seen = 0;
        for (size_t k = 0; k < starts.n; k++) {
            if (strcmp(starts.v[k].fn, fn) != 0) continue;
            if (cls && starts.v[k].cls && strcmp(starts.v[k].cls, cls) != 0) {
                pn ck;
                pn mk = method_around(starts.v[k].call, &ck);
                if (pn_isnull(cd) || pn_isnull(ck) || !derives_from(L, cd, ck, 0) ||
                    defines_method(L, cd, text(L, pn_field(mk, PF_name))))
                    continue;
            }
            ok &= starts.v[k].uncancelled;
        }
        ca_sb q = {0};
        if (cls) ca_sb_addf(&q, "%s.%s", cls, fn);
        else ca_sb_addf(&q, "%s", fn);
        const char *key = ca_arena_strdup(&L->m->arena, ca_sb_str(&q));
        ca_sb_release(&q);
        for (size_t k = 0; k < uncancelled.n; k++) seen |= strcmp(uncancelled.v[k], key) == 0;
        if (ok && !seen && only_started(L, root, fn, starts.v, starts.n)) CA_VEC_PUSH(uncancelled, key);
    }
    /* a function the module also awaits as a plain coroutine (`await
     * self._close()`, also under a timeout call: collect_awaited) runs in
     * its caller's task there: a cancellation it catches is the caller's,
     * not its own */
    for (size_t k = 0; k < L->awaited.n; k++)
        for (size_t i = 0; i < found.n;) {
            if (strcmp(found.v[i], L->awaited.v[k]) == 0) found.v[i] = found.v[--found.n];
            else i++;
        }

    /* a main coroutine named nowhere else in the module than at its runner */
    CA_VEC(const char *) mains = {0};
    for (size_t i = 0; i < main_starts.n; i++)
        if (only_started(L, root, main_starts.v[i].fn, main_starts.v, main_starts.n))
            CA_VEC_PUSH(mains, main_starts.v[i].fn);
    ca_arena scratch = L->m->arena;
    L->m->arena = keep;
    for (size_t i = 0; i < mains.n; i++) CA_VEC_PUSH(L->mains, ca_arena_strdup(&L->m->arena, mains.v[i]));
    CA_VEC_FREE(mains);
    CA_VEC_FREE(main_starts);
    for (size_t i = 0; i < found.n; i++) CA_VEC_PUSH(L->own_tasks, ca_arena_strdup(&L->m->arena, found.v[i]));
    decorator_task_wrappers(L, root, found.v, found.n);
    for (size_t i = 0; i < uncancelled.n; i++)
        CA_VEC_PUSH(L->uncancelled, ca_arena_strdup(&L->m->arena, uncancelled.v[i]));
    ca_arena_free(&scratch);
    CA_VEC_FREE(found);
    CA_VEC_FREE(wrappers);
    CA_VEC_FREE(wrapper_arg);
    CA_VEC_FREE(wrapper_root);
    CA_VEC_FREE(starts);
    CA_VEC_FREE(uncancelled);
}

/* `return StreamingResponse(event_stream(run), media_type=...)`: a function
 * every use of which in the module is the first argument of a scope runner
 * (catalog scope-runner). The server drives the generator inside a cancel
 * scope that it cancels when the client goes away; that cancellation is
 * delivered again at each await until the generator leaves the scope, so a
 * handler that catches it and returns ends the stream rather than losing
 * a cancel (FN_SCOPE_DRIVEN). */
/* The value a local name is bound to by its one binding (`name = expr`,
 * and no loop, `with ... as`, walrus or other assignment of it) in the
 * function around `at`, before it; the null node otherwise. */
static pn bound_once_before(lower *L, pn name, pn at)
{
    pn d = pn_parent(at);
    while (!pn_isnull(d) && !pn_is(d, PT_function_definition)) d = pn_parent(d);
    pn body = pn_isnull(d) ? d : pn_field(d, PF_body);
    pn none = &pt_null;
    if (pn_isnull(body)) return none;
    const pt_node *endp = L->T->v + L->T->n;
    const char *nm = text(L, name);
    pn found = none;
    int n = 0;
    for (pn u = body; u < endp && u->start < body->end; u++) {
        if (!binds_name(L, u, nm)) continue;
        n++;
        pn up = pn_parent(u);
        if (pn_is(up, PT_assignment) && u->start < at->start) found = unparen(pn_field(up, PF_right));
    }
    return n == 1 ? found : none;
}

/* Is call c a method call (`self.m(...)`) whose name the module also
 * awaits in place on another object (`await other.m(...)`)? */
static int awaited_elsewhere(lower *L, pn c)
{
    pn fn = unparen(pn_field(c, PF_function));
    if (!pn_is(fn, PT_attribute)) return 0;
    const char *m = text(L, pn_field(fn, PF_attribute));
    for (size_t k = 0; k < L->awaited_other.n; k++)
        if (strcmp(L->awaited_other.v[k], m) == 0) return 1;
    return 0;
}

/* `tasks = []` ... `tasks.append(fetch(c))` ... `gather(*tasks)`: the
 * calls appended to a local bound once to an empty list before `at`, in
 * the function around it (up to max; returns how many, or -1 when the
 * list is also filled some other way: `+=`, `extend`, an item store). */
static int appended_calls(lower *L, pn name, pn at, pn *out, int max)
{
    pn b = bound_once_before(L, name, at);
    if (!pn_is(b, PT_list) || !pn_isnull(pn_first_named(b))) return -1;
    pn d = pn_parent(at);
    while (!pn_isnull(d) && !pn_is(d, PT_function_definition)) d = pn_parent(d);
    pn body = pn_isnull(d) ? d : pn_field(d, PF_body);
    if (pn_isnull(body)) return -1;
    const pt_node *endp = L->T->v + L->T->n;
    const char *nm = text(L, name);
    int n = 0;
    for (pn u = body; u < endp && u->start < at->start; u++) {
        if (u->type != PT_identifier || !text_is(L, u, nm)) continue;
        pn up = pn_parent(u);
        if (!pn_is(up, PT_attribute) || pn_field(up, PF_object) != u) continue;
        const char *m = text(L, pn_field(up, PF_attribute));
        pn call = pn_parent(up);
        if (strcmp(m, "append") != 0 || !pn_is(call, PT_call) || pn_field(call, PF_function) != up) return -1;
        pn a0 = unparen(first_pos_arg(call, 0));
        if (!pn_is(a0, PT_call) || n == max) return -1;
        out[n++] = a0;
    }
    return n;
}

/* The generator calls a scope runner's first argument a0 (at call at)
 * hands it: the call itself, what a local bound once before it holds
 * (`gen = stream(); return StreamingResponse(gen)`), or either branch of
 * a conditional (`stream() if post.stream else whole()`). Up to 2. */
static int handed_generator_calls(lower *L, pn a0, pn at, pn out[2])
{
    a0 = unparen(a0);
    if (pn_is(a0, PT_identifier)) a0 = unparen(bound_once_before(L, a0, at));
    if (pn_is(a0, PT_call)) {
        out[0] = a0;
        return 1;
    }
    int n = 0;
    if (pn_is(a0, PT_conditional_expression)) {
        int i = 0;
        PN_FOR_NAMED(b, a0) {
            pn e = unparen(b);
            if (i++ != 1 && pn_is(e, PT_call) && n < 2) out[n++] = e;
        }
    }
    return n;
}

/* The generator calls handed to call, when it is a scope runner's
 * (handed_generator_calls); 0 otherwise. */
static int runner_generators(lower *L, pn call, pn out[2])
{
    if (call->type != PT_call) return 0;
    call_info ci = call_of(L, call);
    if (!ci.dotted || !cat(L, CAT_SCOPE_RUNNER, ci.dotted)) return 0;
    return handed_generator_calls(L, first_pos_arg(call, 0), call, out);
}

static void collect_scope_driven(lower *L, pn root)
{
    if (!bytes_contain(L->src, L->len, "Response(")) return;
    const pt_node *endp = L->T->v + L->T->n;
    CA_VEC(const char *) names = {0};
    for (pn x = root; x < endp; x++) {
        /* (`gen = ...; return StreamingResponse(gen)`: what the local was
         * bound to, once, in the function that hands it over) */
        pn gens[2];
        int ng = runner_generators(L, x, gens);
        for (int g = 0; g < ng; g++) {
            pn fn = unparen(pn_field(gens[g], PF_function));
            if (pn_is(fn, PT_identifier)) CA_VEC_PUSH(names, text(L, fn));
            /* (and the generator a wrapper of one level is handed, `wrap(
             * sse_events(...), ctx)`: the wrapper iterates it in the scope) */
            pn in = unparen(first_pos_arg(gens[g], 0));
            pn ifn = pn_is(in, PT_call) ? unparen(pn_field(in, PF_function)) : &pt_null;
            if (pn_is(ifn, PT_identifier)) CA_VEC_PUSH(names, text(L, ifn));
        }
    }
    for (size_t i = 0; i < names.n; i++) {
        const char *fn = names.v[i];
        size_t fl = strlen(fn), runs = 0, uses = 0;
        int seen = 0;
        for (size_t k = 0; k < L->scope_driven.n && !seen; k++) seen = strcmp(L->scope_driven.v[k], fn) == 0;
        if (seen) continue;
        for (size_t k = 0; k < names.n; k++) runs += strcmp(names.v[k], fn) == 0;
        for (pn u = root; u < endp; u++) {
            if (u->type != PT_identifier || u->end - u->start != fl || memcmp(L->src + u->start, fn, fl) != 0) continue;
            pn up = pn_parent(u);
            if (pn_is(up, PT_function_definition) && pn_field(up, PF_name) == u) continue;
            if (pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == u) continue;
            uses++;
        }
        if (uses == runs) CA_VEC_PUSH(L->scope_driven, fn);
    }
    CA_VEC_FREE(names);
    /* a generator defined in the function that hands it to the runner
     * (`def stream(): async def gen(): ...; return StreamingResponse(gen())`):
     * its uses are counted in that function */
    for (pn x = root; x < endp; x++) {
        pn gens[2];
        int ng = runner_generators(L, x, gens);
        for (int g = 0; g < ng; g++) {
            pn fn = unparen(pn_field(gens[g], PF_function));
            if (!pn_is(fn, PT_identifier)) continue;
            pn d = pn_parent(x);
            while (!pn_isnull(d) && !pn_is(d, PT_function_definition)) d = pn_parent(d);
            pn body = pn_isnull(d) ? d : pn_field(d, PF_body);
            if (pn_isnull(body)) continue;
            size_t fl = fn->end - fn->start, runs = 0, uses = 0;
            pn def = &pt_null;
            for (pn u = body; u < endp && u->start < body->end; u++) {
                if (u->type == PT_call) {
                    pn ugens[2];
                    int nu = runner_generators(L, u, ugens);
                    for (int h = 0; h < nu; h++) {
                        pn uf = unparen(pn_field(ugens[h], PF_function));
                        if (pn_is(uf, PT_identifier) && uf->end - uf->start == fl &&
                            memcmp(L->src + uf->start, L->src + fn->start, fl) == 0)
                            runs++;
                    }
                    continue;
                }
                if (u->type != PT_identifier || u->end - u->start != fl || memcmp(L->src + u->start, L->src + fn->start, fl) != 0)
                    continue;
                pn up = pn_parent(u);
                if (pn_is(up, PT_function_definition) && pn_field(up, PF_name) == u) {
                    /* (defined right in this function, not deeper) */
                    pn o = pn_parent(up);
                    while (!pn_isnull(o) && !pn_is(o, PT_function_definition)) o = pn_parent(o);
                    if (o == d) def = up;
                    continue;
                }
                if (pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == u) continue;
                uses++;
            }
            if (!pn_isnull(def) && uses == runs) CA_VEC_PUSH(L->scope_driven_defs, def->start);
        }
    }
}

/* Is call c a registration of an event listener, `pc.add_listener("track",
 * self._on_track)`, `emitter.on("data", handler)`? */
static int listener_registration(lower *L, pn c)
{
    static const char *const names[] = {"on", "once", "add_listener", "add_event_handler", "add_event_listener"};
    /* (a route registration too: the framework's run of a request) */
    call_info ci = call_of(L, c);
    if (ci.dotted && cat(L, CAT_ROUTE_ENTRY, ci.dotted)) return 1;
    pn fn = unparen(pn_field(c, PF_function));
    if (!pn_is(fn, PT_attribute)) return 0;
    pn m = pn_field(fn, PF_attribute);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (text_is(L, m, names[i])) return 1;
    return 0;
}

/* Coroutine functions an event emitter runs: handed by reference to a
 * listener registration (`pc.add_listener("track", self._on_track)`), or a
 * web framework's route registration (`app.router.add_route("GET", path,
 * handle_ws)`), and named nowhere else in the module. The emitter runs a
 * coroutine listener as a task of its own (or awaits it from its dispatch
 * loop), the framework each request: the outermost frame of that run, as
 * for a decorator's registration. */
static void collect_listeners(lower *L, pn root)
{
    if (!bytes_contain(L->src, L->len, "on(") && !bytes_contain(L->src, L->len, "listener(") &&
        !bytes_contain(L->src, L->len, "handler(") && !bytes_contain(L->src, L->len, "add_") &&
        !bytes_contain(L->src, L->len, "web.") && !bytes_contain(L->src, L->len, "Route("))
        return;
    const pt_node *endp = L->T->v + L->T->n;
    CA_VEC(pn) refs = {0};
    for (pn c = root; c < endp; c++) {
        if (c->type != PT_call || !listener_registration(L, c)) continue;
        pn args = pn_field(c, PF_arguments);
        if (pn_isnull(args) || !pn_is(args, PT_argument_list)) continue;
        PN_FOR_NAMED(a, args) {
            pn u = partial_target(L, pn_is(a, PT_keyword_argument) ? pn_field(a, PF_value) : a);
            if (pn_isnull(u)) continue;
            if (pn_is(u, PT_attribute)) {
                pn o = unparen(pn_field(u, PF_object));
                if (!pn_is(o, PT_identifier) || (strcmp(text(L, o), "self") != 0 && strcmp(text(L, o), "cls") != 0))
                    continue;
                u = pn_field(u, PF_attribute);
            }
            if (pn_is(u, PT_identifier)) CA_VEC_PUSH(refs, u);
        }
    }
    for (size_t i = 0; i < refs.n; i++) {
        const char *fn = text(L, refs.v[i]);
        size_t fl = strlen(fn);
        int def_async = 0, uses = 0;
        for (pn u = root; u < endp && uses == 0; u++) {
            if (u->type != PT_identifier || u->end - u->start != fl || memcmp(L->src + u->start, fn, fl) != 0) continue;
            pn up = pn_parent(u);
            if (pn_is(up, PT_function_definition) && pn_field(up, PF_name) == u) {
                def_async |= has_token(up, PT_async);
                continue;
            }
            int reg = 0;
            for (size_t k = 0; k < refs.n && !reg; k++) reg = refs.v[k] == u;
            if (reg) continue;
            /* (`worker.start()`: a member of something else; `self.fn(...)`
             * called is a use) */
            if (pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == u && !pn_is(pn_parent(up), PT_call)) continue;
            uses++;
        }
        if (def_async && !uses) CA_VEC_PUSH(L->own_tasks, ca_arena_strdup(&L->m->arena, fn));
    }
    CA_VEC_FREE(refs);
}

/* Coroutine functions a framework runs: registered by a decorator that is
 * a method of an object (`@sio.on("message")`, `@worker_app.command()`,
 * `@router.get("/")`, `@bot.event`), the object a module global made by a
 * call or a name imported from a module (not a module itself), and named
 * nowhere else in the module. The framework's dispatcher calls them as the
 * outermost frame of what it runs: a cancellation they catch is that run's
 * own end, as for a task (FN_OWN_TASK). */
/* Module-level decorators whose wrapper runs the decorated function as a
 * program's main coroutine: `def coro(f): @wraps(f) def wrapper(*a, **k):
 * return asyncio.run(f(*a, **k)); return wrapper` (a main runner called on
 * a call of the decorator's parameter). */
static int runs_param_as_main(lower *L, pn def)
{
    pn params = pn_field(def, PF_parameters), body = pn_field(def, PF_body);
    if (pn_isnull(params) || pn_isnull(body)) return 0;
    pn first = &pt_null;
    PN_FOR_NAMED(pp, params) {
        first = param_ident(pp);
        break;
    }
    if (pn_isnull(first) || !pn_is(first, PT_identifier)) return 0;
    const char *pname = text(L, first);
    const pt_node *endp = L->T->v + L->T->n;
    for (pn y = body; y < endp && y->start < body->end; y++) {
        if (y->type != PT_call) continue;
        char *d = dotted(L, pn_field(y, PF_function));
        if (!d || !cat(L, CAT_MAIN_RUNNER, d)) continue;
        pn a0 = unparen(first_pos_arg(y, 0));
        if (!pn_is(a0, PT_call)) continue;
        pn f0 = unparen(pn_field(a0, PF_function));
        if (pn_is(f0, PT_identifier) && strcmp(text(L, f0), pname) == 0) return 1;
    }
    return 0;
}

static void collect_framework_entries(lower *L, pn root)
{
    if (!bytes_contain(L->src, L->len, "@")) return;
    const pt_node *endp = L->T->v + L->T->n;
    CA_VEC(const char *) runners = {0};
    int may_run = bytes_contain(L->src, L->len, ".run(");
    PN_FOR_NAMED(st, root) {
        if (!may_run) break;
        pn d = pn_is(st, PT_decorated_definition) ? pn_field(st, PF_definition) : st;
        if (pn_is(d, PT_function_definition) && !has_token(d, PT_async) && runs_param_as_main(L, d))
            CA_VEC_PUSH(runners, text(L, pn_field(d, PF_name)));
    }
    /* (module level, and methods of module-level classes: `@Service.task
     * async def _fetcher(self)`, run by the service the class defines) */
    /* (a method only when private: a public one is the class's API,
     * awaited by callers in other modules) */
    CA_VEC(pn) defs = {0};
    PN_FOR_NAMED(st, root) {
        if (pn_is(st, PT_decorated_definition)) CA_VEC_PUSH(defs, st);
        pn cls = pn_is(st, PT_decorated_definition) ? pn_field(st, PF_definition) : st;
        if (!pn_is(cls, PT_class_definition)) continue;
        pn cb = pn_field(cls, PF_body);
        if (pn_isnull(cb)) continue;
        PN_FOR_NAMED(m, cb) {
            pn md = pn_is(m, PT_decorated_definition) ? pn_field(m, PF_definition) : &pt_null;
            if (pn_is(md, PT_function_definition) && text(L, pn_field(md, PF_name))[0] == '_') CA_VEC_PUSH(defs, m);
        }
    }
    for (size_t di = 0; di < defs.n; di++) {
        pn st = defs.v[di];
        pn def = pn_field(st, PF_definition);
        if (!pn_is(def, PT_function_definition) || !has_token(def, PT_async)) continue;
        int registered = 0, main = 0, unheld = 0;
        PN_FOR_NAMED(d, st) {
            if (!pn_is(d, PT_decorator)) continue;
            pn e = unparen(pn_first_named(d));
            int called = pn_is(e, PT_call);
            /* `@asyncio_run async def run_cmd(...)`: a decorator named as a
             * main runner, whose wrapper runs the function with
             * asyncio.run: the program's main coroutine */
            char *dd = pn_is(e, PT_identifier) || pn_is(e, PT_attribute) ? dotted(L, e) : NULL;
            if (dd && cat(L, CAT_MAIN_RUNNER, dd)) main = 1;
            for (size_t r = 0; r < runners.n && pn_is(e, PT_identifier); r++)
                if (strcmp(runners.v[r], text(L, e)) == 0) main = 1;
            if (pn_is(e, PT_call)) e = unparen(pn_field(e, PF_function));
            if (!pn_is(e, PT_attribute)) continue;
            pn obj = unparen(pn_field(e, PF_object));
            /* (a decorator that wraps for callers, `@functools.wraps(f)`, a
             * retry, a property's setter, registers nothing) */
            if (!pn_is(obj, PT_identifier) || cat(L, CAT_WRAPPING_DECORATOR, text(L, pn_field(e, PF_attribute))))
                continue;
            const char *on = text(L, obj);
            const char *g = map_get(L->globals.v, L->globals.n, on);
            int object = g && *g; /* a module global made by a call */
            for (size_t i = L->imports.n; !object && i-- > 0;)
                if (strcmp(L->imports.v[i].key, on) == 0) {
                    object = L->imports.v[i].from_import;
                    break;
                }
            if (object) registered = 1;
            /* (`@router.post("/x")` of `router = APIRouter()`: a server that
             * runs its handlers in tasks it never cancels, catalog
             * unheld-server `fastapi.APIRouter().*`) */
            if (object && called &&
                instance_member_in(L, global_instance(L, on), text(L, pn_field(e, PF_attribute)), CAT_UNHELD_SERVER))
                unheld = 1;
        }
        if (main) {
            const char *fn = text(L, pn_field(def, PF_name));
            CA_VEC_PUSH(L->own_tasks, ca_arena_strdup(&L->m->arena, fn));
            CA_VEC_PUSH(L->mains, ca_arena_strdup(&L->m->arena, fn));
            continue;
        }
        if (!registered) continue;
        /* named nowhere else in the module: only the framework calls it */
        pn nm = pn_field(def, PF_name);
        const char *fn = text(L, nm);
        size_t fl = strlen(fn);
        int uses = 0;
        for (pn u = root; u < endp && uses == 0; u++) {
            if (u->type != PT_identifier || u == nm || u->end - u->start != fl || memcmp(L->src + u->start, fn, fl) != 0)
                continue;
            pn up = pn_parent(u);
            /* (`worker.start()`: a member of something else) */
            if (pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == u) continue;
            uses++;
        }
        if (!uses) CA_VEC_PUSH(L->own_tasks, ca_arena_strdup(&L->m->arena, fn));
        if (!uses && unheld) CA_VEC_PUSH(L->uncancelled, ca_arena_strdup(&L->m->arena, fn));
    }
    CA_VEC_FREE(defs);
    CA_VEC_FREE(runners);
}

/* The dotted class of what local `name` of function def holds, as the
 * catalog spells an instance (`fastapi.FastAPI()`): its one binding to a
 * call before `at` (`app = FastAPI(title=...)`), or the annotation of the
 * parameter of that name (`def mount(app: FastAPI)`); NULL otherwise. */
static char *local_instance_class(lower *L, pn def, pn name, pn at)
{
    const char *nm = text(L, name);
    /* (its one binding in def itself: a nested def's parameter of that
     * name, `async def lifespan(app: FastAPI)`, is another variable) */
    pn b = &pt_null, body = pn_field(def, PF_body);
    const pt_node *endp = L->T->v + L->T->n;
    int nb = 0;
    uint32_t nested_end = 0;
    for (pn u = body; !pn_isnull(body) && u < endp && u->start < body->end; u++) {
        if (u != body && in_nested_def(u, &nested_end)) continue;
        if (!binds_name(L, u, nm)) continue;
        nb++;
        pn up = pn_parent(u);
        if (pn_is(up, PT_assignment) && u->start < at->start) b = unparen(pn_field(up, PF_right));
    }
    if (nb != 1) b = &pt_null;
    pn cls = &pt_null;
    if (pn_is(b, PT_call)) cls = unparen(pn_field(b, PF_function));
    pn params = pn_field(def, PF_parameters);
    if (!nb && !pn_isnull(params))
        PN_FOR_NAMED(p, params) {
            pn id = param_ident(p);
            if (pn_isnull(id) || strcmp(text(L, id), nm) != 0 || pn_is(p, PT_identifier)) continue;
            pn ty = pn_field(p, PF_type);
            if (!pn_isnull(ty) && pn_is(ty, PT_type)) ty = pn_first_named(ty);
            cls = unparen(ty);
            break;
        }
    if (!pn_is(cls, PT_identifier) && !pn_is(cls, PT_attribute)) return NULL;
    char *d = dotted(L, cls);
    if (!d) return NULL;
    ca_sb q = {0};
    ca_sb_addf(&q, "%s()", d);
    char *r = ca_arena_strdup(&L->m->arena, ca_sb_str(&q));
    ca_sb_release(&q);
    return r;
}

/* Request handlers registered inside a function on a server it makes or
 * is handed (`def create_app(): app = FastAPI() ... @app.post("/x") async
 * def handle(request)`, or `def mount(app: FastAPI)`): as at module level
 * (collect_framework_entries), a server the catalog names unheld-server
 * runs each request in a task of its own it never cancels when the client
 * goes away, so the handler, named nowhere else in the function, is the
 * outermost frame of a task nothing cancels. */
static void collect_local_routes(lower *L, pn root)
{
    if (!bytes_contain(L->src, L->len, "@")) return;
    const pt_node *endp = L->T->v + L->T->n;
    for (pn st = root; st < endp; st++) {
        if (st->type != PT_decorated_definition) continue;
        pn def = pn_field(st, PF_definition);
        if (!pn_is(def, PT_function_definition) || !has_token(def, PT_async)) continue;
        pn outer = pn_parent(st);
        while (!pn_isnull(outer) && !pn_is(outer, PT_function_definition) && !pn_is(outer, PT_class_definition))
            outer = pn_parent(outer);
        if (!pn_is(outer, PT_function_definition)) continue;
        int unheld = 0;
        PN_FOR_NAMED(d, st) {
            if (!pn_is(d, PT_decorator)) continue;
            pn e = unparen(pn_first_named(d));
            if (!pn_is(e, PT_call)) continue;
            e = unparen(pn_field(e, PF_function));
            if (!pn_is(e, PT_attribute)) continue;
            pn obj = unparen(pn_field(e, PF_object));
            if (!pn_is(obj, PT_identifier)) continue;
            if (instance_member_in(L, local_instance_class(L, outer, obj, st), text(L, pn_field(e, PF_attribute)),
                                   CAT_UNHELD_SERVER))
                unheld = 1;
        }
        if (!unheld) continue;
        /* named nowhere else in the function around it: only the server
         * calls it */
        pn nm = pn_field(def, PF_name), body = pn_field(outer, PF_body);
        const char *fn = text(L, nm);
        size_t fl = strlen(fn);
        int uses = 0;
        for (pn u = body; !pn_isnull(body) && u < endp && u->start < body->end && !uses; u++) {
            if (u->type != PT_identifier || u == nm || u->end - u->start != fl || memcmp(L->src + u->start, fn, fl) != 0)
                continue;
            pn up = pn_parent(u);
            if (pn_is(up, PT_attribute) && pn_field(up, PF_attribute) == u) continue;
            uses++;
        }
        if (!uses) CA_VEC_PUSH(L->route_defs, def->start);
    }
}


/* Is name bound in a function around u (its own or one it is nested in,
 * whose variable a closure reads), as a parameter or by a binding of that
 * function's own: a local variable, not the function of that name? */
static int bound_locally(lower *L, pn u, const char *name)
{
    const pt_node *endp = L->T->v + L->T->n;
    for (pn d = pn_parent(u); !pn_isnull(d); d = pn_parent(d)) {
        if (!pn_is(d, PT_function_definition)) continue;
        pn params = pn_field(d, PF_parameters), body = pn_field(d, PF_body);
        if (!pn_isnull(params))
            PN_FOR_NAMED(pp, params) {
                pn id = param_ident(pp);
                if (!pn_isnull(id) && text_is(L, id, name)) return 1;
            }
        if (pn_isnull(body)) continue;
        uint32_t nested_end = 0;
        for (pn x = body; x < endp && x->start < body->end; x++) {
            if (x != body && in_nested_def(x, &nested_end)) continue;
            if (binds_name(L, x, name)) return 1;
        }
    }
    return 0;
}

/* The names of functions the module uses as values rather than calling
 * them: `function=self.check`, `handlers.append(on_done)`, `cb =
 * self._step` (a member of self, cls or a class of the module, or a bare
 * name of a function the module defines that is no local variable there).
 * A function of such a name may run wherever that value is called
 * (FN_REFERENCED). */
static void collect_value_names(lower *L, pn root)
{
    const pt_node *endp = L->T->v + L->T->n;
    CA_VEC(const char *) defs = {0};
    for (pn u = root; u < endp; u++)
        if (u->type == PT_function_definition) CA_VEC_PUSH(defs, text(L, pn_field(u, PF_name)));
    if (!defs.n) return;
    qsort(defs.v, defs.n, sizeof(defs.v[0]), cmp_cstr);
    for (pn u = root; u < endp; u++) {
        if (u->type != PT_identifier) continue;
        pn p = pn_parent(u);
        int member = pn_is(p, PT_attribute) && pn_field(p, PF_attribute) == u;
        if (!member && (pn_is(p, PT_attribute) || pn_is(p, PT_function_definition))) continue;
        pn ref = member ? p : u;
        pn c = pn_parent(ref);
        /* (read as a value: an argument, an element, an assigned or
         * returned value; a call, a decorator, a keyword's name, a binding
         * are not) */
        if (!pn_is(c, PT_argument_list) && !pn_is(c, PT_keyword_argument) && !pn_is(c, PT_assignment) &&
            !pn_is(c, PT_list) && !pn_is(c, PT_tuple) && !pn_is(c, PT_dictionary) && !pn_is(c, PT_pair) &&
            !pn_is(c, PT_return_statement) && !pn_is(c, PT_set))
            continue;
        if (pn_is(c, PT_keyword_argument) && pn_field(c, PF_name) == ref) continue;
        if (pn_is(c, PT_assignment) && pn_field(c, PF_left) == ref) continue;
        const char *nm = text(L, u);
        if (!bsearch(&nm, defs.v, defs.n, sizeof(defs.v[0]), cmp_cstr)) continue;
        if (member) {
            pn ob = unparen(pn_field(p, PF_object));
            if (!pn_is(ob, PT_identifier)) continue;
            const char *on = text(L, ob);
            if (strcmp(on, "self") != 0 && strcmp(on, "cls") != 0 && pn_isnull(module_class(L, on))) continue;
        } else if (bound_locally(L, u, nm)) {
            continue;
        }
        /* (handed to a registration whose server runs it in a task of its
         * own, `CommandHandler("chat", self.prompt)`, `web.post(path,
         * handle)`: where it runs is known, collect_own_tasks's) */
        pn call = pn_is(c, PT_keyword_argument) ? pn_parent(pn_parent(c)) : pn_parent(c);
        if (pn_is(c, PT_argument_list) || pn_is(c, PT_keyword_argument)) {
            char *cd = pn_is(call, PT_call) ? dotted(L, pn_field(call, PF_function)) : NULL;
            if (cd && (cat(L, CAT_UNHELD_SERVER, cd) || cat(L, CAT_ROUTE_ENTRY, cd))) continue;
        }
        CA_VEC_PUSH(L->value_names, nm);
    }
    CA_VEC_FREE(defs);
    if (L->value_names.n) qsort(L->value_names.v, L->value_names.n, sizeof(L->value_names.v[0]), cmp_cstr);
}

/* One pass over the whole tree: imports, module globals, comments
 * (suppressions), syntax errors. Iterative, in preorder. */
static void scan_module(lower *L, pn root)
{
    /* A tree with errors is walked whole (ERROR/MISSING nodes and comments
     * can sit anywhere); otherwise statements only, comments by a byte scan. */
    int full = (root->flags & PT_ERRORS) != 0;
    if (!full) scan_comments(L);
    pn n = root;
    int depth = 0;
    for (;;) {
        int descend = full || stmt_holder[n->type];
        if ((n->flags & PT_MISSING) || n->type == PT_ERROR) {
            if (L->m->parse_errors++ == 0) L->m->first_error_line = line_of(L, n);
        }
        if (n->type == PT_import_statement) {
            PN_FOR_NAMED(x, n) {
                if (pn_is(x, PT_dotted_name)) {
                    char *full = text(L, x);
                    char *head = ca_arena_strndup(&L->m->arena, full, strcspn(full, "."));
                    add_import(L, head, head);
                } else if (pn_is(x, PT_aliased_import)) {
                    add_import(L, text(L, pn_field(x, PF_alias)), text(L, pn_field(x, PF_name)));
                }
            }
            descend = 0;
        } else if (n->type == PT_import_from_statement) {
            pn mod = pn_field(n, PF_module_name);
            char *mname = pn_isnull(mod) ? "" : text(L, mod);
            PN_FOR_NAMED(x, n) {
                if (x == mod) continue;
                const char *local = NULL, *orig = NULL;
                if (pn_is(x, PT_dotted_name)) local = orig = text(L, x);
                else if (pn_is(x, PT_aliased_import)) {
                    local = text(L, pn_field(x, PF_alias));
                    orig = text(L, pn_field(x, PF_name));
                }
                if (!local) continue;
                ca_sb sb = {0};
                ca_sb_addf(&sb, "%s.%s", mname[0] == '.' ? mname + strspn(mname, ".") : mname, orig);
                const char *full = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
                if (mname[0] == '.' && !mname[strspn(mname, ".")]) full = orig;
                ca_sb_release(&sb);
                add_import(L, local, full);
                L->imports.v[L->imports.n - 1].relative = (int)strspn(mname, ".");
                L->imports.v[L->imports.n - 1].from_import = 1;
                note_export(L, local, full, 1);
            }
            descend = 0;
        } else if (n->type == PT_comment) {
            if (full) note_comment(L, text(L, n), line_of(L, n));
            descend = 0;
        } else if (depth == 2 && n->type == PT_assignment) {
            /* module-level: expression_statement > assignment */
            pn left = unparen(pn_field(n, PF_left));
            pn right = unparen(pn_field(n, PF_right));
            if (pn_is(left, PT_identifier)) {
                char *d = NULL;
                if (pn_is(right, PT_call)) {
                    d = dotted_raw(L, pn_field(right, PF_function));
                    d = d ? resolve(L, d) : NULL;
                    if (d) {
                        ca_sb sb = {0};
                        ca_sb_addf(&sb, "%s", d);
                        /* keep a call marker so `X = anyio.get_cancelled_exc_class()` matches */
                        ca_sb_adds(&sb, "()");
                        name_map e2 = {text(L, left), ca_arena_strdup(&L->m->arena, ca_sb_str(&sb)), 0, 0};
                        ca_sb_release(&sb);
                        CA_VEC_PUSH(L->globals, e2);
                        name_map e = {text(L, left), d, 0, 0};
                        CA_VEC_PUSH(L->globals, e);
                        descend = 0;
                    }
                } else if (pn_is(right, PT_attribute) || pn_is(right, PT_identifier)) {
                    char *raw = dotted_raw(L, right);
                    d = resolve(L, raw);
                    if (raw && d && d != raw) note_export(L, text(L, left), d, 0);
                }
                /* (`_sink = None`, `_client: Client | None = None`: a
                 * module-level name all the same, assigned later) */
                if (!pn_is(right, PT_call) || !d) {
                    name_map e = {text(L, left), d ? d : "", 0, 0};
                    CA_VEC_PUSH(L->globals, e);
                }
            }
        }
        if (descend && (n->flags & PT_KIDS)) {
            n = pn_first(n);
            depth++;
            continue;
        }
        /* to the next sibling, climbing while there is none (never above root) */
        while (!n->next) {
            if (n == root) return;
            n = pn_parent(n);
            depth--;
        }
        if (n == root) return;
        n = pn_next(n);
    }
}

/* Module-level definitions (also inside module-level if/try blocks). */
static void collect_toplevel(lower *L, pn root)
{
    pn stack[512];
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
        pn n = stack[sp];
        const char *prefix = prefixes[sp], *cls = classes[sp];
        named_children(n, &kids);
        /* push in reverse so children come out in order */
        for (size_t i = kids.n; i-- > 0;) {
            pn ch = kids.v[i];
            if (pn_is(ch, PT_decorated_definition)) ch = pn_field(ch, PF_definition);
            if (pn_isnull(ch)) continue;
            if (pn_is(ch, PT_function_definition)) {
                pending_def p = {ch, prefix, cls, NULL};
                CA_VEC_PUSH(L->pending, p);
            } else if (pn_is(ch, PT_class_definition)) {
                char *name = text(L, pn_field(ch, PF_name));
                ca_sb sb = {0};
                ca_sb_addf(&sb, "%s%s.", prefix, name);
                const char *np = ca_arena_strdup(&L->m->arena, ca_sb_str(&sb));
                ca_sb_release(&sb);
                /* class qualname without trailing dot */
                const char *cq = ca_arena_strndup(&L->m->arena, np, strlen(np) - 1);
                collect_class_attrs(L, ch, cq);
                record_class(L, ch, cq);
                if (sp < 511) {
                    stack[sp] = pn_field(ch, PF_body);
                    prefixes[sp] = np;
                    classes[sp] = cq;
                    sp++;
                }
            } else if (sp < 511 && !cls &&
                       (pn_is(ch, PT_if_statement) || pn_is(ch, PT_try_statement) || pn_is(ch, PT_block) ||
                        pn_is(ch, PT_else_clause) || pn_is(ch, PT_elif_clause) || pn_is(ch, PT_except_clause) ||
                        pn_is(ch, PT_finally_clause) || pn_is(ch, PT_with_statement))) {
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
    uint32_t x = ((const pending_def *)a)->node->start;
    uint32_t y = ((const pending_def *)b)->node->start;
    return x < y ? -1 : x > y;
}

/* Offset of the first invalid UTF-8 sequence, or (size_t)-1. */
static size_t utf8_invalid_at(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        /* eight ASCII bytes at a time */
        uint64_t w;
        while (i + 8 <= n && (memcpy(&w, p + i, 8), (w & 0x8080808080808080ull) == 0)) i += 8;
        if (i >= n) break;
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
    /* bytes that are neither whitespace nor the start of a comment, a line
     * continuation or a string: each only ends the run */
    static const unsigned char special[256] = {
        [' '] = 1, ['\t'] = 1, ['\f'] = 1, ['\v'] = 1, ['\r'] = 1, ['\n'] = 1,
        ['#'] = 1, ['\\'] = 1, ['\''] = 1, ['"'] = 1,
    };
    int run = 0;
    size_t i = 0;
    while (i < len) {
        if (!special[(unsigned char)s[i]]) {
            run = 0;
            do i++;
            while (i < len && !special[(unsigned char)s[i]]);
            continue;
        }
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

/* Skips the string literal whose quote opens at src[i] (a prefix such as
 * `rb` is read as a name before it); returns the offset after it, or len. A
 * backslash keeps the next byte inside the literal in every kind of string
 * (a raw string too, as Python's tokenizer reads it). */
static size_t skip_string(const char *src, size_t len, size_t i)
{
    char q = src[i];
    int triple = i + 2 < len && src[i + 1] == q && src[i + 2] == q;
    for (i += triple ? 3 : 1; i < len; i++) {
        if (src[i] == '\\') {
            i++;
            continue;
        }
        if (!triple && src[i] == '\n') return i;
        if (src[i] != q) continue;
        if (!triple) return i + 1;
        if (i + 2 < len && src[i + 1] == q && src[i + 2] == q) return i + 3;
    }
    return len;
}

/* A copy of src in *buf to write into, made on the first change. */
static char *writable(const char *src, size_t len, char **buf)
{
    if (!*buf) {
        *buf = ca_xmalloc(len + 1);
        memcpy(*buf, src, len);
        (*buf)[len] = 0;
    }
    return *buf;
}

/* One rewrite at a logical line's first token (offset at, bracket depth 0):
 * returns the offset to go on from (past at), and counts what it changed. */
typedef size_t (*line_rewrite)(const char *src, size_t len, size_t at, char **buf, int *fixed);

/* Calls fn at the first token of each logical line of src, strings,
 * comments, bracketed continuations and `\` line joins skipped. Returns how
 * many changes fn counted. */
static int each_logical_line(const char *src, size_t len, char **buf, line_rewrite fn)
{
    int fixed = 0, depth = 0, line_start = 1;
    for (size_t i = 0; i < len;) {
        char c = src[i];
        if (c == '\n') {
            line_start = depth == 0;
            i++;
            continue;
        }
        if (c == '#') {
            while (i < len && src[i] != '\n') i++;
            continue;
        }
        if (c == '\'' || c == '"') {
            i = skip_string(src, len, i);
            line_start = 0;
            continue;
        }
        if (c == '\\' && i + 1 < len && src[i + 1] == '\n') {
            i += 2;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') depth++;
        if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
        if (!line_start || c == ' ' || c == '\t' || c == '\f') {
            i++;
            continue;
        }
        line_start = 0;
        if (depth != 0) {
            i++;
            continue;
        }
        size_t next = fn(src, len, i, buf, &fixed);
        i = next > i ? next : i + 1;
    }
    return fixed;
}

/* Python 3.14 lets an except clause name several classes without brackets
 * (PEP 758: `except TimeoutError, ConnectionError:`), which the pinned
 * grammar reads as Python 2's `except TimeoutError, name:`. Rewrites such a
 * header, on one line, into the bracketed form in the same number of bytes
 * (`except(TimeoutError,ConnectionError):`, the blanks after `except` and
 * the commas giving room for the brackets, spaces before the colon making
 * up the rest), so byte offsets and lines stay valid. */
static size_t bracket_except_group(const char *src, size_t len, size_t i, char **buf, int *fixed)
{
    if (i + 7 > len || memcmp(src + i, "except", 6) != 0) return i + 1;
    size_t k = i + 6;
    if (k < len && src[k] == '*') k++;
    if (k >= len || (src[k] != ' ' && src[k] != '\t')) return k;
    size_t seg = k; /* the header between the keyword and its colon */
    size_t commas[64];
    int nc = 0, d = 0, ok = 1;
    size_t colon = 0;
    for (size_t j = k; j < len && ok; j++) {
        char h = src[j];
        if (h == '\n' || h == '#' || h == '\\') ok = 0;
        else if (h == '\'' || h == '"') {
            size_t e = skip_string(src, len, j);
            if (e >= len || memchr(src + j, '\n', e - j)) ok = 0;
            else j = e - 1;
        } else if (h == '(' || h == '[' || h == '{') d++;
        else if (h == ')' || h == ']' || h == '}') d--;
        else if (d == 0 && h == ',') {
            if (nc < 64) commas[nc++] = j;
            else ok = 0;
        } else if (d == 0 && h == ':') {
            colon = j;
            break;
        } else if (d == 0 && h == 'a' && j + 2 < len && src[j + 1] == 's' && j > 0 &&
                   (src[j - 1] == ' ' || src[j - 1] == '\t') && (src[j + 2] == ' ' || src[j + 2] == '\t'))
            ok = 0; /* `except A, B as e:` is no such header */
    }
    if (!ok || !colon || !nc) return k;
    /* (the items, trimmed, joined by bare commas, in brackets) */
    char out[4096];
    size_t o = 0, room = colon - seg;
    if (room >= sizeof(out)) return colon;
    out[o++] = '(';
    size_t from = seg;
    for (int n = 0; n <= nc; n++) {
        size_t to = n < nc ? commas[n] : colon;
        size_t a = from, b = to;
        while (a < b && (src[a] == ' ' || src[a] == '\t')) a++;
        while (b > a && (src[b - 1] == ' ' || src[b - 1] == '\t')) b--;
        if (a == b || o + (b - a) + 1 > room) return colon;
        memcpy(out + o, src + a, b - a);
        o += b - a;
        out[o++] = n < nc ? ',' : ')';
        from = to + 1;
    }
    while (o < room) out[o++] = ' ';
    memcpy(writable(src, len, buf) + seg, out, room);
    (*fixed)++;
    return colon;
}

/* The comma after the last item of a bracketed `with` (`async with (\n
 * trio.open_nursery() as n,\n):`, a formatter's magic trailing comma,
 * Python 3.10), which the pinned grammar reads as a tuple of as-patterns
 * instead of the items: blanked to a space, so offsets and lines stay
 * valid. */
static size_t drop_with_trailing_comma(const char *src, size_t len, size_t i, char **buf, int *fixed)
{
    size_t k = i;
    if (k + 6 < len && memcmp(src + k, "async", 5) == 0 && (src[k + 5] == ' ' || src[k + 5] == '\t')) {
        k += 5;
        while (k < len && (src[k] == ' ' || src[k] == '\t')) k++;
    }
    if (k + 5 > len || memcmp(src + k, "with", 4) != 0 || (src[k + 4] != ' ' && src[k + 4] != '\t' && src[k + 4] != '('))
        return i + 1;
    k += 4;
    while (k < len && (src[k] == ' ' || src[k] == '\t')) k++;
    if (k >= len || src[k] != '(') return k;
    /* the group's matching `)`, and the last comma at its top level */
    int d = 0;
    size_t last_comma = 0, close = 0;
    int after_comma = 0; /* nothing but blanks and comments since the comma */
    for (size_t j = k; j < len; j++) {
        char h = src[j];
        if (h == '\'' || h == '"') {
            j = skip_string(src, len, j) - 1;
            after_comma = 0;
            continue;
        }
        if (h == '#') {
            while (j + 1 < len && src[j + 1] != '\n') j++;
            continue;
        }
        if (h == '(' || h == '[' || h == '{') d++;
        else if (h == ')' || h == ']' || h == '}') {
            if (--d == 0) {
                close = j;
                break;
            }
        } else if (h == ',' && d == 1) {
            last_comma = j;
            after_comma = 1;
            continue;
        }
        if (h != ' ' && h != '\t' && h != '\n' && h != '\r' && h != '\f' && h != ')' && h != ']' && h != '}')
            after_comma = 0;
    }
    if (!close) return len;
    size_t colon = close + 1;
    while (colon < len && (src[colon] == ' ' || src[colon] == '\t')) colon++;
    if (after_comma && last_comma && colon < len && src[colon] == ':') {
        writable(src, len, buf)[last_comma] = ' ';
        (*fixed)++;
    }
    return close + 1;
}

/* Python 3.13's defaults of type parameters (PEP 696: `class Job[T =
 * typing.Any]:`, `def f[T: str = str](x)`), which the pinned grammar does
 * not know: each default, the `=` and what follows it up to the next comma
 * or the closing bracket of the parameter list, is blanked (new lines
 * kept), so offsets and lines stay valid. A default says nothing this
 * analysis reads. Writes into *buf (a copy of src made on the first
 * change); returns how many defaults it blanked. */
static int blank_type_param_defaults(const char *src, size_t len, char **buf)
{
    int fixed = 0;
    for (size_t i = 0; i < len;) {
        char c = src[i];
        if (c == '#') {
            while (i < len && src[i] != '\n') i++;
            continue;
        }
        if (c == '\'' || c == '"') {
            i = skip_string(src, len, i);
            continue;
        }
        int word = isalpha((unsigned char)c) || c == '_';
        if (!word) {
            i++;
            continue;
        }
        size_t w = i;
        while (i < len && (isalnum((unsigned char)src[i]) || src[i] == '_')) i++;
        /* (a word that opens a name: `class`, `def` or `type`, then a
         * name, then the `[` of its type parameters) */
        if (w > 0 && (isalnum((unsigned char)src[w - 1]) || src[w - 1] == '_' || src[w - 1] == '.')) continue;
        size_t wl = i - w;
        if (!((wl == 5 && memcmp(src + w, "class", 5) == 0) || (wl == 3 && memcmp(src + w, "def", 3) == 0) ||
              (wl == 4 && memcmp(src + w, "type", 4) == 0)))
            continue;
        size_t k = i;
        while (k < len && (src[k] == ' ' || src[k] == '\t')) k++;
        if (k == i || k >= len || !(isalpha((unsigned char)src[k]) || src[k] == '_')) continue;
        while (k < len && (isalnum((unsigned char)src[k]) || src[k] == '_')) k++;
        while (k < len && (src[k] == ' ' || src[k] == '\t')) k++;
        if (k >= len || src[k] != '[') continue;
        int depth = 0;
        size_t blank_from = 0;
        /* (a list never closed runs to the end: nothing after it opens
         * another, and the scan resumes there, not after the name) */
        i = len;
        for (size_t j = k; j < len; j++) {
            char h = src[j];
            if (h == '\'' || h == '"') {
                j = skip_string(src, len, j) - 1;
                continue;
            }
            if (h == '#') {
                while (j < len && src[j] != '\n') j++;
                continue;
            }
            if (h == '(' || h == '[' || h == '{') depth++;
            int closes = h == ')' || h == ']' || h == '}';
            if ((closes && depth == 1) || (h == ',' && depth == 1)) {
                if (blank_from) {
                    char *w = writable(src, len, buf);
                    for (size_t b = blank_from; b < j; b++)
                        if (w[b] != '\n') w[b] = ' ';
                    fixed++;
                    blank_from = 0;
                }
            }
            if (closes && --depth == 0) {
                i = j + 1;
                break;
            }
            if (h == '=' && depth == 1 && !blank_from && (j + 1 >= len || src[j + 1] != '=')) blank_from = j;
        }
    }
    return fixed;
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
    size_t nul_at = nul ? (size_t)(nul - src) : 0; /* before src may become the CR-fixed copy */
    for (const char *cr = memchr(src, '\r', len); cr; cr = memchr(cr + 1, '\r', len - (size_t)(cr + 1 - src))) {
        size_t i = (size_t)(cr - src);
        if (i + 1 >= len || src[i + 1] != '\n') {
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
    /* (`except A, B:`, Python 3.14, in brackets for the grammar) */
    if (each_logical_line(src, len, &crfixed, bracket_except_group) && crfixed != src) {
        src = crfixed;
        m->src = src;
    }
    /* (`async with (\n a as x,\n):`, without the comma after its last item) */
    if (each_logical_line(src, len, &crfixed, drop_with_trailing_comma) && crfixed != src) {
        src = crfixed;
        m->src = src;
    }
    /* (`class Job[T = Any]:`, Python 3.13, without its defaults) */
    if (blank_type_param_defaults(src, len, &crfixed) && crfixed != src) {
        src = crfixed;
        m->src = src;
    }
    size_t bad = utf8_invalid_at(src, len);
    if (nul) {
        m->diagnostic = ca_xasprintf("NUL byte at offset %zu (Python refuses such a file); analysed as far as it parses",
                                     nul_at);
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
    /* tree-sitter 0.20.7 has more shapes that crash it than any pre-check
     * knows (70,000 `else:` in a row): the scan lowers every file in a
     * worker process, where a crash costs this file (scan/contain.c) */
    TSTree *tree = ts_parser_parse_string(fe->parser, NULL, src, (uint32_t)len);
    if (!tree) {
        free(m->diagnostic);
        m->diagnostic = ca_xstrdup("parser gave up on this file");
        free(crfixed);
        m->src = NULL;
        return -1;
    }
    /* Lowering reads the flat copy; the TSTree goes at once. */
    py_tree *flat = &fe->flat;
    int built = py_tree_build(flat, tree, src, (uint32_t)len);
    ts_tree_delete(tree);
    if (built != 0) {
        py_tree_trim(flat, PY_FLAT_KEEP);
        free(m->diagnostic);
        m->diagnostic = ca_xstrdup("file too large to parse");
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
    L.T = flat;
    index_continuations(&L);
    pn root = pn_root(flat);
    scan_module(&L, root);
    collect_awaited(&L, root);
    collect_own_tasks(&L, root);
    collect_framework_entries(&L, root);
    collect_local_routes(&L, root);
    collect_value_names(&L, root);
    collect_listeners(&L, root);
    collect_scope_driven(&L, root);
    collect_timeout_wrappers(&L, root);
    collect_toplevel(&L, root);
    if (L.pending.n) qsort(L.pending.v, L.pending.n, sizeof(pending_def), cmp_pending);
    /* nested definitions are queued while lowering their parents */
    for (size_t i = 0; i < L.pending.n; i++) {
        pending_def p = L.pending.v[i];
        if (pn_is(p.node, PT_class_definition)) {
            /* a class inside a function: its methods */
            char *name = text(&L, pn_field(p.node, PF_name));
            ca_sb sb = {0};
            ca_sb_addf(&sb, "%s%s.", p.prefix, name);
            const char *np = ca_arena_strdup(&m->arena, ca_sb_str(&sb));
            ca_sb_release(&sb);
            const char *cq = ca_arena_strndup(&m->arena, np, strlen(np) - 1);
            collect_class_attrs(&L, p.node, cq);
            record_class(&L, p.node, cq);
            PN_FOR_NAMED(kid, pn_field(p.node, PF_body)) {
                pn ch = kid;
                if (pn_is(ch, PT_decorated_definition)) ch = pn_field(ch, PF_definition);
                if (pn_is(ch, PT_function_definition) || pn_is(ch, PT_class_definition)) {
                    pending_def q = {ch, np, cq, NULL};
                    CA_VEC_PUSH(L.pending, q);
                }
            }
            continue;
        }
        L.outer_class = p.outer_class;
        lower_function(&L, p.node, p.prefix, p.class_name);
    }
    /* the methods this module awaits in place on another object (`await
     * venue.fetch_trades(c)`), for the scan: an implementation of a base's
     * stub that another module starts as a task is not only that task's
     * when some module also awaits it so (SPAWN_AWAITED) */
    for (size_t i = 0; i < L.awaited_other.n && m->nfuncs > 0; i++)
        ir_spawn_add(m, 0, L.awaited_other.v[i], SPAWN_AWAITED);
    CA_VEC_FREE(L.imports);
    CA_VEC_FREE(L.makers);
    CA_VEC_FREE(L.globals);
    CA_VEC_FREE(L.class_attrs);
    CA_VEC_FREE(L.attr_types);
    CA_VEC_FREE(L.options);
    CA_VEC_FREE(L.timeout_wrappers);
    CA_VEC_FREE(L.factory_wrappers);
    CA_VEC_FREE(L.cancel_flags);
    CA_VEC_FREE(L.cancelling_methods);
    CA_VEC_FREE(L.pending);
    CA_VEC_FREE(L.locals_ctor);
    CA_VEC_FREE(L.param_class);
    CA_VEC_FREE(L.elem_class);
    CA_VEC_FREE(L.local_class);
    CA_VEC_FREE(L.global_decl);
    CA_VEC_FREE(L.plain_decl);
    CA_VEC_FREE(L.global_views);
    CA_VEC_FREE(L.exc_flags);
    CA_VEC_FREE(L.fresh);
    CA_VEC_FREE(L.cancelled);
    CA_VEC_FREE(L.self_cancellers);
    CA_VEC_FREE(L.strong);
    CA_VEC_FREE(L.elem_of);
    CA_VEC_FREE(L.created);
    CA_VEC_FREE(L.cont);
    CA_VEC_FREE(L.flags);
    CA_VEC_FREE(L.own_tasks);
    CA_VEC_FREE(L.arg0_spawners);
    CA_VEC_FREE(L.closures);
    CA_VEC_FREE(L.unmade_paths);
    CA_VEC_FREE(L.unmade_makers);
    CA_VEC_FREE(L.own_wrappers);
    CA_VEC_FREE(L.scope_driven);
    CA_VEC_FREE(L.scope_driven_defs);
    CA_VEC_FREE(L.route_defs);
    CA_VEC_FREE(L.value_names);
    CA_VEC_FREE(L.awaited);
    CA_VEC_FREE(L.awaited_any);
    CA_VEC_FREE(L.awaited_other);
    CA_VEC_FREE(L.uncancelled);
    CA_VEC_FREE(L.mains);
    CA_VEC_FREE(L.idle_locks);
    py_tree_trim(flat, PY_FLAT_KEEP);
    if (crfixed) {
        m->src = NULL; /* the caller's buffer is the one that outlives m */
        free(crfixed);
    }
    return 0;
}
