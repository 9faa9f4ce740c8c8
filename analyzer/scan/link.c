/*
 * link.c — the scan's cross-file linker: the function table of every file
 * (lowered or reused), the name index over it, scan_resolve() (the
 * engine's resolver: which function a call reaches, and its summary), and
 * the digest of what a file's cross-file names resolved to, which decides
 * whether a reused file stays reused (reuse.c). Part of the scan driver
 * (scan.c): phase 2, and read by phase 3.
 *
 * A call resolves in its own module first (a method of the caller's class
 * on `self`, a module-level function by name); else to the one function of
 * that name in the scan's modules of the same language (a method of that
 * name for `self.m()`: a base class's), and to nothing when there are none
 * or several.
 */
#include "scan/scan_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *last_part(const char *s)
{
    const char *p = strrchr(s, '.');
    return p ? p + 1 : s;
}

/* qsort has no context argument; the table is sorted on one thread. */
static const scan_state *sort_ctx;

static int cmp_by_name(const void *a, const void *b)
{
    const scan_state *S = sort_ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(S->fns[x].f->name, S->fns[y].f->name);
    if (c) return c;
    return x < y ? -1 : x > y;
}

/* by_method: by name, then by the last component of the class, so that a
 * method of a named class is found by halving (lookup_method_of) */
static int cmp_by_method(const void *a, const void *b)
{
    const scan_state *S = sort_ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(S->fns[x].f->name, S->fns[y].f->name);
    if (c) return c;
    const char *cx = S->fns[x].f->class_name, *cy = S->fns[y].f->class_name;
    c = strcmp(cx ? last_part(cx) : "", cy ? last_part(cy) : "");
    if (c) return c;
    return x < y ? -1 : x > y;
}

static int cmp_export(const void *a, const void *b)
{
    const scan_state *S = sort_ctx;
    const export_ref *x = a, *y = b;
    int c = strcmp(S->jobs[x->file].m.spawns[x->spawn].text, S->jobs[y->file].m.spawns[y->spawn].text);
    if (c) return c;
    return x->file != y->file ? (x->file < y->file ? -1 : 1) : (x->spawn > y->spawn) - (x->spawn < y->spawn);
}

void scan_build_table(scan_state *S)
{
    free(S->fns);
    free(S->by_name);
    free(S->by_method);
    size_t nf = 0;
    for (size_t i = 0; i < S->njobs; i++) nf += (size_t)S->jobs[i].m.nfuncs;
    S->fns = ca_xcalloc(nf + 1, sizeof(fn_ref));
    S->by_name = ca_xmalloc(sizeof(size_t) * (nf + 1));
    S->by_method = ca_xmalloc(sizeof(size_t) * (nf + 1));
    S->nfns = S->nby_name = S->nby_method = 0;
    for (size_t i = 0; i < S->njobs; i++)
        for (int k = 0; k < S->jobs[i].m.nfuncs; k++) {
            ir_func *f = S->jobs[i].m.funcs[k];
            /* what the families read of a body (a reused stub keeps it in its facts) */
            if (S->jobs[i].lowered && ca_family_delegates(f)) f->fflags |= FN_DELEGATES;
            f->id = (int)S->nfns;
            fn_ref *r = &S->fns[S->nfns++];
            r->file = (int)i;
            r->ordinal = k;
            r->f = f;
            r->sum = S->jobs[i].sums[k];
            if (!f->class_name && !strstr(f->qualname, "<locals>")) S->by_name[S->nby_name++] = (size_t)f->id;
            /* (static methods too: `Cls.create(...)` of a @staticmethod in
             * another file) */
            else if (f->class_name && (f->is_method || !strstr(f->qualname, "<locals>")))
                S->by_method[S->nby_method++] = (size_t)f->id;
        }
    sort_ctx = S;
    qsort(S->by_name, S->nby_name, sizeof(size_t), cmp_by_name);
    qsort(S->by_method, S->nby_method, sizeof(size_t), cmp_by_method);
    /* the names modules bind to functions of other modules, by name */
    free(S->exports);
    S->exports = NULL;
    S->nexports = 0;
    size_t ne = 0;
    for (size_t i = 0; i < S->njobs; i++)
        for (int k = 0; k < S->jobs[i].m.nspawns; k++) ne += (S->jobs[i].m.spawns[k].flags & SPAWN_EXPORT) != 0;
    if (ne) {
        S->exports = ca_xmalloc(sizeof(*S->exports) * ne);
        for (size_t i = 0; i < S->njobs; i++)
            for (int k = 0; k < S->jobs[i].m.nspawns; k++)
                if (S->jobs[i].m.spawns[k].flags & SPAWN_EXPORT) S->exports[S->nexports++] = (export_ref){i, k};
        qsort(S->exports, S->nexports, sizeof(*S->exports), cmp_export);
    }
}

static int same_language(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* Names of cross-file method lookups carry this prefix in the cache's
 * dependency list, so module functions and methods never collide. */
#define METHOD_DEP "self."
/* ... and a method of a named class, "of:Class.method" */
#define METHOD_OF_DEP "of:"
#define MODULE_DEP "in:"

static const fn_ref *lookup_export(const scan_state *S, const char *qual, const char *name, const char *language);

static int under_module(const char *path, const char *text, const char *name);
static int under_module_path(const char *path, const char *text, const char *name);

/* The one function of index idx (sorted by name) named `name` in modules of
 * `language` (NULL: Python), or NULL (none, or several); and with `qual` ("mod.f", for a MODULE_DEP name) the one that lives in
 * a module or package named mod, where f alone names several (`from
 * .server_main import serve_forever` beside another module's one); `name`
 * points into qual. */
static const fn_ref *lookup_unique_in(const scan_state *S, const size_t *idx, size_t n, const char *name,
                                      const char *language, const char *qual)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(S->fns[idx[mid]].f->name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    const fn_ref *hit = NULL;
    for (; lo < n && strcmp(S->fns[idx[lo]].f->name, name) == 0; lo++) {
        const fn_ref *r = &S->fns[idx[lo]];
        if (!same_language(S->jobs[r->file].m.language, language)) continue;
        if (qual && !under_module(S->jobs[r->file].df->path, qual, name)) continue;
        if (hit) return NULL;
        hit = r;
    }
    return hit;
}

static const fn_ref *lookup_unique(const scan_state *S, const size_t *idx, size_t n, const char *name,
                                   const char *language)
{
    return lookup_unique_in(S, idx, n, name, language, NULL);
}

/* A module-level function, or for a METHOD_DEP name the one method of that
 * name in the scan. */
/* The one method `method` of a class named `cls` (last components), or NULL;
 * with `qual` ("mod.Cls.method", cls pointing into it) the one whose class
 * lives in a module or package named mod. */
static const fn_ref *lookup_method_of(const scan_state *S, const char *cls, size_t cls_len, const char *method,
                                      const char *language, const char *qual)
{
    size_t lo = 0, hi = S->nby_method, n = S->nby_method;
    const size_t *idx = S->by_method;
    /* the first entry not before (method, cls) in cmp_by_method's order */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const ir_func *f = S->fns[idx[mid]].f;
        int c = strcmp(f->name, method);
        if (c == 0) {
            const char *k = f->class_name ? last_part(f->class_name) : "";
            c = strncmp(k, cls, cls_len);
            if (c == 0 && k[cls_len]) c = 1;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    /* (with qual: first the one whose file lies at the whole module path,
     * `pkg/sub/mod.py` for "pkg.sub.mod.Cls", when several modules named
     * mod define Cls; then by the module's last name alone) */
    for (int strict = qual ? 1 : 0; strict >= 0; strict--) {
        const fn_ref *hit = NULL;
        int many = 0;
        for (size_t i = lo; i < n && strcmp(S->fns[idx[i]].f->name, method) == 0; i++) {
            const fn_ref *r = &S->fns[idx[i]];
            const char *c = r->f->class_name ? last_part(r->f->class_name) : "";
            if (strlen(c) != cls_len || strncmp(c, cls, cls_len) != 0) break;
            if (!same_language(S->jobs[r->file].m.language, language)) continue;
            if (qual && !(strict ? under_module_path(S->jobs[r->file].df->path, qual, cls)
                                 : under_module(S->jobs[r->file].df->path, qual, cls)))
                continue;
            if (hit) many = 1;
            hit = r;
        }
        if (hit && !many) return hit;
        if (many && !strict) return NULL;
    }
    return NULL;
}

static const fn_ref *lookup_global(const scan_state *S, const char *name, const char *language)
{
    if (strncmp(name, MODULE_DEP, strlen(MODULE_DEP)) == 0) {
        const char *qual = name + strlen(MODULE_DEP), *f = strrchr(qual, '.');
        if (!f) return NULL;
        const fn_ref *r = lookup_unique_in(S, S->by_name, S->nby_name, f + 1, language, qual);
        return r ? r : lookup_export(S, qual, f + 1, language);
    }
    if (strncmp(name, METHOD_OF_DEP, strlen(METHOD_OF_DEP)) == 0) {
        /* "Cls.method", or "mod.Cls.method" where Cls alone names several */
        const char *cm = name + strlen(METHOD_OF_DEP), *dot = strrchr(cm, '.');
        if (!dot) return NULL;
        const char *cls = dot;
        while (cls > cm && cls[-1] != '.') cls--;
        return lookup_method_of(S, cls, (size_t)(dot - cls), dot + 1, language, cls > cm ? cm : NULL);
    }
    if (strncmp(name, METHOD_DEP, strlen(METHOD_DEP)) == 0)
        return lookup_unique(S, S->by_method, S->nby_method, name + strlen(METHOD_DEP), language);
    return lookup_unique(S, S->by_name, S->nby_name, name, language);
}

/* `mod.NAME(...)` where module mod binds NAME to a function of another
 * module (SPAWN_EXPORT: `create_task = context_lib.create_task`): that
 * function, when it is the one of its name (as lookup_global finds it) in
 * the module the binding names. `qual` is the call's text or a MODULE_DEP key's
 * ("mod.NAME"), name points at NAME in it. */
static const fn_ref *lookup_export(const scan_state *S, const char *qual, const char *name, const char *language)
{
    size_t lo = 0, hi = S->nexports;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const export_ref *e = &S->exports[mid];
        if (strcmp(S->jobs[e->file].m.spawns[e->spawn].text, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    const fn_ref *hit = NULL;
    for (size_t k = lo; k < S->nexports; k++) {
        const export_ref *e = &S->exports[k];
        const ir_spawn *sp = &S->jobs[e->file].m.spawns[e->spawn];
        if (strcmp(sp->text, name) != 0) break;
        if (!same_language(S->jobs[e->file].m.language, language) || !under_module(S->jobs[e->file].df->path, qual, name))
            continue;
        const char *to = sp->via, *tn = last_part(to);
        const fn_ref *r = lookup_global(S, tn, language);
        if (!r || (int)e->file == r->file || !under_module(S->jobs[r->file].df->path, to, tn)) continue;
        if (hit && hit != r) return NULL;
        hit = r;
    }
    return hit;
}

/* What the names resolve to across files: everything of the target that
 * scan_resolve() hands the engine (summary, parameters) and the matrix
 * (file and position). Names in the order given. */
uint64_t scan_deps_digest(const scan_state *S, const char *const *names, size_t n)
{
    uint64_t h = CA_HASH_SEED;
    for (size_t i = 0; i < n; i++) {
        h = scan_hash_str(h, names[i]);
        if (strncmp(names[i], CLASS_DEP, strlen(CLASS_DEP)) == 0) {
            const cls_ref *c = scan_find_class(S, NULL, names[i] + strlen(CLASS_DEP));
            h = scan_hash_u64(h, c ? 1 + c->flags : 0);
            if (c) h = scan_hash_str(h, S->jobs[c->file].df->path);
            continue;
        }
        const fn_ref *r = lookup_global(S, names[i], NULL);
        if (!r) {
            h = scan_hash_u64(h, 0);
            continue;
        }
        h = scan_hash_u64(h, 1);
        h = scan_hash_str(h, S->jobs[r->file].df->path);
        h = scan_hash_u64(h, (uint64_t)r->ordinal);
        h = scan_hash_u64(h, r->sum.releases);
        h = scan_hash_u64(h, r->sum.takes_early);
        h = scan_hash_u64(h, r->sum.takes_late);
        h = scan_hash_u64(h, (uint64_t)r->sum.has_checkpoint);
        h = scan_hash_u64(h, (uint64_t)r->sum.suspends | (uint64_t)r->sum.noreturn << 1 | (uint64_t)r->sum.returns << 2 |
                                 (uint64_t)(r->sum.remote != 0) << 8 | (uint64_t)r->sum.returns_param << 9);
        h = scan_hash_u64(h, r->sum.uses);
        h = scan_hash_u64(h, r->sum.passes);
        h = scan_hash_u64(h, (uint64_t)r->f->nparams);
        /* (and what a caller's walk reads of its flags: a fresh object's
         * method that stores into self after its last suspension) */
        h = scan_hash_u64(h, (uint64_t)(r->f->fflags & (FN_QUIET_HOLD | FN_QUIET_VIA | FN_STUB | FN_ABSTRACT |
                                                      FN_DONE_FUTURE)));
        for (int q = 0; q < r->f->nparams; q++) h = scan_hash_str(h, r->f->vars[q].name);
    }
    return h;
}

static int cmp_fn_key(const void *x, const void *y)
{
    const fn_key *p = x, *q = y;
    int c = strcmp(p->a, q->a);
    if (!c) c = strcmp(p->b, q->b);
    if (!c) c = p->index < q->index ? -1 : p->index > q->index;
    return c;
}

static void index_module(file_ctx *fc, const ir_module *m)
{
    fc->indexed = m;
    fc->methods.n = fc->globals.n = 0;
    fc->has_locals = 0;
    for (int i = 0; i < m->nfuncs; i++) {
        const ir_func *f = m->funcs[i];
        /* (static methods too: `self.helper(x)` of a @staticmethod) */
        if (f->class_name && f->name && (f->is_method || !strstr(f->qualname, ".<locals>."))) {
            fn_key k = {f->class_name, f->name, i};
            CA_VEC_PUSH(fc->methods, k);
        }
        if (!f->class_name && f->qualname) {
            fn_key k = {f->qualname, "", i};
            CA_VEC_PUSH(fc->globals, k);
            if (strstr(f->qualname, ".<locals>.")) fc->has_locals = 1;
        }
    }
    if (fc->methods.n) qsort(fc->methods.v, fc->methods.n, sizeof(fn_key), cmp_fn_key);
    if (fc->globals.n) qsort(fc->globals.v, fc->globals.n, sizeof(fn_key), cmp_fn_key);
}

/* The first function (in module order) with keys a, b; -1 when none. */
static int find_fn(const fn_key *v, size_t n, const char *a, const char *b)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(v[mid].a, a);
        if (!c) c = strcmp(v[mid].b, b);
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && strcmp(v[lo].a, a) == 0 && strcmp(v[lo].b, b) == 0 ? v[lo].index : -1;
}

void scan_file_ctx_free(file_ctx *fc)
{
    free(fc->memo);
    CA_VEC_FREE(fc->callee_ids);
    CA_VEC_FREE(fc->deps);
    CA_VEC_FREE(fc->methods);
    CA_VEC_FREE(fc->globals);
}

/* Method `name` of class `cls` (as module m names it) or of its bases in
 * the tree, nearest first (16 classes at most); NULL when none has it.
 * With bases_only, the class itself is not looked at (its module's own
 * index already was). */
static const fn_ref *method_of_class(file_ctx *fc, const ir_module *m, const char *cls, const char *name,
                                     int bases_only)
{
    scan_state *S = fc->S;
    const char *queue[16];
    const ir_module *qmod[16];
    int nq = 0;
    queue[nq] = cls;
    qmod[nq++] = m;
    for (int qi = 0; qi < nq; qi++) {
        if (qi == 0 && bases_only) {
            const cls_ref *c = scan_find_class(S, m, cls);
            for (int b = 0; c && b < c->c->nbases && nq < 16; b++) {
                queue[nq] = c->c->bases[b];
                qmod[nq++] = &S->jobs[c->file].m;
            }
            continue;
        }
        ca_sb dep = {0};
        ca_sb_addf(&dep, METHOD_OF_DEP "%s.%s", last_part(queue[qi]), name);
        const char *key = ca_arena_strdup((ca_arena *)&m->arena, ca_sb_str(&dep));
        ca_sb_release(&dep);
        CA_VEC_PUSH(fc->deps, key);
        const fn_ref *r = lookup_global(S, key, m->language);
        /* (a class name several modules define: the one the receiver's
         * class names through its module, `workers.Worker`) */
        if (!r && qi == 0 && strchr(cls, '.')) {
            ca_sb qd = {0};
            ca_sb_addf(&qd, METHOD_OF_DEP "%s.%s", cls, name);
            key = ca_arena_strdup((ca_arena *)&m->arena, ca_sb_str(&qd));
            ca_sb_release(&qd);
            CA_VEC_PUSH(fc->deps, key);
            r = lookup_global(S, key, m->language);
        }
        if (r) return r;
        const cls_ref *c = scan_find_class(S, qmod[qi], queue[qi]);
        if (!c) continue;
        for (int b = 0; b < c->c->nbases && nq < 16; b++) {
            queue[nq] = c->c->bases[b];
            qmod[nq++] = &S->jobs[c->file].m;
        }
    }
    return NULL;
}

static const ir_func *resolve_uncached(file_ctx *fc, const ir_module *m, const ir_func *caller,
                                       const ir_node *call, const eng_summary **summary, int *off);

static size_t memo_slot(const resolve_memo *t, size_t cap, const ir_func *caller, const char *text, uint32_t start,
                        unsigned on_self)
{
    uint64_t h = (uint64_t)(uintptr_t)caller * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uintptr_t)text + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    h ^= ((uint64_t)start << 1 | on_self) * 0xC2B2AE3D27D4EB4Full;
    size_t i = (size_t)(h ^ (h >> 29)) & (cap - 1);
    while (t[i].text && !(t[i].caller == caller && t[i].text == text && t[i].start == start && t[i].on_self == on_self))
        i = (i + 1) & (cap - 1);
    return i;
}

/* The one method of the tree named name, in modules of language, when it
 * is a coroutine; or NULL. */
static const ir_func *unique_method(const scan_state *S, const char *name, const char *language)
{
    const fn_ref *r = lookup_unique(S, S->by_method, S->nby_method, name, language);
    return r && r->f->is_async && r->f->class_name ? r->f : NULL;
}

/* Does a call's text name a method of an object that a module of the tree
 * holds or makes, through the import that binds it (`app.database.ledger.
 * record` of `from app.database import ledger`, `bot.lister.Lister.pick`
 * of `Lister(self).pick()`): three parts at least, not on self; its first
 * part one of the tree's names and no local of the caller's (`conn.db.
 * fetch` of a local `conn`); and the part before the object (its module)
 * one of the tree's names too (not `pkg.models.Task.objects.acreate`,
 * an attribute of a class)? */
static int names_tree_object(const scan_state *S, const ir_func *caller, const char *t)
{
    const char *d1 = t ? strchr(t, '.') : NULL;
    const char *me = t ? strrchr(t, '.') : NULL;
    if (!d1 || me == d1 || strncmp(t, "self.", 5) == 0) return 0;
    const char *ms = me;
    while (ms > t && ms[-1] != '.') ms--;
    const char *pe = ms - 1, *ps = pe;
    while (ps > t && ps[-1] != '.') ps--;
    size_t hl = (size_t)(d1 - t);
    if (!scan_tree_has_name(S, t, hl) || !scan_tree_has_name(S, ps, (size_t)(pe - ps))) return 0;
    char head[128];
    if (hl >= sizeof head) return 0;
    memcpy(head, t, hl);
    head[hl] = 0;
    return ir_var_find(caller, head) < 0;
}

/* A call left unresolved that names a method of an object of the tree
 * (names_tree_object): the call graph of the reachability growths reads
 * it as the one method of the tree of its name (unique_method), so the
 * file depends on which that is. */
static void note_method_dep(file_ctx *fc, const ir_module *m, const ir_func *caller, const ir_node *call)
{
    if ((call->flags & CALL_ON_SELF) || !names_tree_object(fc->S, caller, call->text)) return;
    ca_sb dep = {0};
    ca_sb_addf(&dep, METHOD_DEP "%s", strrchr(call->text, '.') + 1);
    const char *key = ca_arena_strdup((ca_arena *)&m->arena, ca_sb_str(&dep));
    ca_sb_release(&dep);
    CA_VEC_PUSH(fc->deps, key);
}

const ir_func *scan_resolve(void *ctx, const ir_module *m, const ir_func *caller, const ir_node *call,
                            const eng_summary **summary, int *off)
{
    file_ctx *fc = ctx;
    if (!fc->memo_cap || !call->text) {
        const ir_func *f = resolve_uncached(fc, m, caller, call, summary, off);
        if (!f) note_method_dep(fc, m, caller, call);
        if (f && fc->recording) CA_VEC_PUSH(fc->callee_ids, f->id);
        return f;
    }
    unsigned on_self = (call->flags & CALL_ON_SELF) != 0;
    size_t i = memo_slot(fc->memo, fc->memo_cap, caller, call->text, call->site.start, on_self);
    if (fc->memo[i].text) {
        *summary = fc->memo[i].sum;
        *off = fc->memo[i].off;
        if (fc->memo[i].callee && fc->recording) CA_VEC_PUSH(fc->callee_ids, fc->memo[i].callee->id);
        return fc->memo[i].callee;
    }
    const eng_summary *sum = NULL;
    int o = 0;
    const ir_func *f = resolve_uncached(fc, m, caller, call, &sum, &o);
    if (!f) note_method_dep(fc, m, caller, call);
    if ((fc->memo_n + 1) * 2 > fc->memo_cap) { /* grow, then find the slot again */
        size_t cap = fc->memo_cap * 2;
        resolve_memo *t = ca_xcalloc(cap, sizeof(*t));
        for (size_t k = 0; k < fc->memo_cap; k++)
            if (fc->memo[k].text)
                t[memo_slot(t, cap, fc->memo[k].caller, fc->memo[k].text, fc->memo[k].start, fc->memo[k].on_self)] =
                    fc->memo[k];
        free(fc->memo);
        fc->memo = t;
        fc->memo_cap = cap;
        i = memo_slot(t, cap, caller, call->text, call->site.start, on_self);
    }
    resolve_memo e = {caller, call->text, call->site.start, on_self, f, sum, o};
    fc->memo[i] = e;
    fc->memo_n++;
    if (f && fc->recording) CA_VEC_PUSH(fc->callee_ids, f->id);
    *summary = sum;
    *off = o;
    return f;
}

/* The class of the method a nested function is defined in (`Cls.m.<locals>.f`
 * closes over m's self), or NULL. */
static const char *closure_class(const ir_module *m, const ir_func *caller)
{
    const char *q = caller->qualname;
    const char *cut = q ? strstr(q, ".<locals>.") : NULL;
    if (!cut) return NULL;
    size_t n = (size_t)(cut - q);
    for (int i = 0; i < m->nfuncs; i++) {
        const ir_func *f = m->funcs[i];
        if (f->class_name && f->is_method && f->qualname && strlen(f->qualname) == n && strncmp(f->qualname, q, n) == 0)
            return f->class_name;
    }
    return NULL;
}

/* Does path agree with the whole module part of `text` before `name`
 * ("pkg.sub.mod.Cls"), component for component from the end, until one of
 * the two runs out (".../pkg/sub/mod.py", "sub/mod/__init__.py"), over at
 * least two components? */
static int under_module_path(const char *path, const char *text, const char *name)
{
    const char *qe = name - 1; /* (the dot before name) */
    if (qe <= text) return 0;
    size_t plen = strlen(path);
    const char *pe = path + plen;
    if (plen > 12 && strcmp(pe - 12, "/__init__.py") == 0) pe -= 12;
    else if (plen > 3 && strcmp(pe - 3, ".py") == 0) pe -= 3;
    else return 0;
    int matched = 0;
    while (qe > text && pe > path) {
        const char *qs = qe, *ps = pe;
        while (qs > text && qs[-1] != '.') qs--;
        while (ps > path && ps[-1] != '/') ps--;
        if (qe - qs != pe - ps || strncmp(qs, ps, (size_t)(qe - qs)) != 0) return 0;
        matched++;
        qe = qs > text ? qs - 1 : text;
        pe = ps > path ? ps - 1 : path;
        if (qs == text || ps == path) break;
    }
    return matched >= 2;
}

/* Does path lie in the module the component before `name` in `text` names
 * ("a.aio.f": a file "aio.py", or anything under a directory "aio")? */
static int under_module(const char *path, const char *text, const char *name)
{
    const char *end = name - 1; /* the dot before name */
    const char *comp = end;
    while (comp > text && comp[-1] != '.') comp--;
    size_t n = (size_t)(end - comp);
    if (n == 0) return 1;
    for (const char *p = path; *p; p++) {
        if (p != path && p[-1] != '/') continue;
        if (strncmp(p, comp, n) != 0) continue;
        if (p[n] == '/' || (strncmp(p + n, ".py", 3) == 0 && p[n + 3] == 0)) return 1;
    }
    return 0;
}

static const ir_func *resolve_uncached(file_ctx *fc, const ir_module *m, const ir_func *caller,
                                       const ir_node *call, const eng_summary **summary, int *off)
{
    scan_state *S = fc->S;
    *off = 0;
    if (!call->text) return NULL;
    const char *name = last_part(call->text);
    if (fc->indexed != m) index_module(fc, m);
    if (call->flags & CALL_ON_SELF) {
        const char *cls = caller->class_name ? caller->class_name : closure_class(m, caller);
        int i = cls ? find_fn(fc->methods.v, fc->methods.n, cls, name) : -1;
        if (i >= 0) {
            const ir_func *f = m->funcs[i];
            *off = f->is_method ? 1 : 0; /* (a static method takes no self) */
            *summary = &S->fns[f->id].sum;
            return f;
        }
        /* not in the class: its bases in the tree, nearest first
         * (`class CloudIoT(iot_base.BaseIoT)` ... `self.connect()`) */
        const fn_ref *br = cls ? method_of_class(fc, m, cls, name, 1) : NULL;
        if (br) {
            *off = br->f->is_method ? 1 : 0;
            *summary = &br->sum;
            return br->f;
        }
        /* nor there: a base class's method, when its name is unique */
        ca_sb dep = {0};
        ca_sb_addf(&dep, METHOD_DEP "%s", name);
        const char *key = ca_arena_strdup((ca_arena *)&m->arena, ca_sb_str(&dep));
        ca_sb_release(&dep);
        CA_VEC_PUSH(fc->deps, key);
        const fn_ref *r = lookup_global(S, key, m->language);
        if (!r) return NULL;
        *off = r->f->is_method ? 1 : 0;
        *summary = &r->sum;
        return r->f;
    }
    /* `Cls.create(...)`: a class method (or static method) called through
     * its class of the tree */
    const char *recv = (call->flags & CALL_RECV_CLASS) ? call->recv : NULL;
    /* (`x = cls(...)` in a class method: an instance of the caller's class) */
    if (recv && strcmp(recv, "cls") == 0 && caller->class_name && caller->is_method) recv = caller->class_name;
    int through_class = 0;
    if (!recv && name != call->text) {
        size_t plen = (size_t)(name - call->text) - 1;
        char *prefix = ca_arena_strndup((ca_arena *)&m->arena, call->text, plen);
        if (scan_find_class(S, m, prefix)) {
            recv = prefix;
            through_class = 1;
        }
    }
    /* (a class named through a module outside the tree, `asyncio.Queue` of
     * `q: asyncio.Queue` or of `super()` in `class Queue(asyncio.Queue)`,
     * is none of the tree's, whatever its last name) */
    if (recv && strchr(recv, '.') && !scan_tree_has_name(S, recv, strcspn(recv, "."))) recv = NULL;
    if (recv) {
        /* a method of the class the receiver was made from */
        const char *cls = last_part(recv);
        /* (never the caller itself: `await super().get()` in `class
         * Queue(asyncio.Queue)` names asyncio's Queue, whose last part is
         * the caller's own class's name; a base outside the tree is no
         * function of it) */
        for (size_t k = 0; k < fc->methods.n; k++) { /* (rare: a linear look in this module first) */
            const fn_key *e = &fc->methods.v[k];
            if (strcmp(last_part(e->a), cls) == 0 && strcmp(e->b, name) == 0 && m->funcs[e->index] != caller) {
                const ir_func *f = m->funcs[e->index];
                *off = through_class ? (f->is_method ? 1 : 0) : 1;
                *summary = &S->fns[f->id].sum;
                return f;
            }
        }
        /* the class, then its bases in the tree, nearest first */
        const fn_ref *r = method_of_class(fc, m, recv, name, 0);
        if (r && r->f != caller) {
            *off = through_class ? (r->f->is_method ? 1 : 0) : 1;
            *summary = &r->sum;
            return r->f;
        }
        /* not a class of the tree (or the method comes from a base outside
         * it): by name, as any other call */
    }
    /* a function defined in the caller (or in a function around it), by
     * the name it has there: `async def _run(): ...` then `_run()` */
    if (fc->has_locals && caller->qualname && !strchr(call->text, '.')) {
        ca_sb q = {0};
        ca_sb_adds(&q, caller->qualname);
        for (;;) {
            size_t keep = q.len;
            ca_sb_addf(&q, ".<locals>.%s", name);
            int i = find_fn(fc->globals.v, fc->globals.n, ca_sb_str(&q), "");
            if (i >= 0) {
                ca_sb_release(&q);
                *summary = &S->fns[m->funcs[i]->id].sum;
                return m->funcs[i];
            }
            /* out one function: cut the last ".<locals>.NAME" */
            q.len = keep;
            q.buf[q.len] = 0;
            char *cut = NULL;
            for (char *p = strstr(q.buf, ".<locals>."); p; p = strstr(p + 1, ".<locals>.")) cut = p;
            if (!cut) break;
            q.len = (size_t)(cut - q.buf);
            *cut = 0;
        }
        ca_sb_release(&q);
    }
    /* a parameter or local of the caller by that name is a value called,
     * not a function of the tree (`async def run(open_stream): await
     * open_stream()`) */
    if (name == call->text && ir_var_find(caller, name) >= 0) return NULL;
    /* a module-level function in the same module, else a unique one anywhere */
    int i = find_fn(fc->globals.v, fc->globals.n, name, "");
    if (i >= 0) {
        const ir_func *f = m->funcs[i];
        *summary = &S->fns[f->id].sum;
        return f;
    }
    CA_VEC_PUSH(fc->deps, name);
    const fn_ref *r = lookup_global(S, name, m->language);
    /* `mod.f(...)`: only a function that lives under a module or package of
     * that name (`utils.aio.cancel_and_wait` in `.../aio/utils.py`), not any
     * function of the tree named f (`asyncio.wait` is no `wait` of the tree) */
    if (r && name != call->text && !under_module(S->jobs[r->file].df->path, call->text, name)) r = NULL;
    if (!r && name != call->text) {
        /* none, several or another module's of that name: the one under the
         * module the call names (`server_main.serve_forever`), or the one
         * that module binds by that name (`processor.create_task` of
         * `create_task = context_lib.create_task`) */
        const char *comp = name - 1;
        while (comp > call->text && comp[-1] != '.') comp--;
        ca_sb key = {0};
        ca_sb_addf(&key, MODULE_DEP "%s", comp);
        const char *k = ca_arena_strdup((ca_arena *)&m->arena, ca_sb_str(&key));
        ca_sb_release(&key);
        CA_VEC_PUSH(fc->deps, k);
        r = lookup_global(S, k, m->language);
    }
    if (!r) return NULL;
    *summary = &r->sum;
    return r->f;
}

/* ------------------------------------------------------------------------ */
/* Tasks started on functions of other modules.                             */

/* Every module's spawns (ir_spawn; a reused file's come back from its deps
 * record) resolved like calls: a coroutine function of another module
 * that its own module never awaits (FN_AWAITED_HERE) runs as the task
 * that spawn starts, so its outermost frame is that task's
 * (FN_SPAWNED_ELSEWHERE; FN_OWN_TASK is its module's own word for the
 * same). The flag is set on lowered functions; a reused function whose
 * stored flag differs has its file marked in stale[] (its results read
 * the flag). */
/* Does class c (of module file) have a class named `anc` among itself and
 * its bases in the tree (by last name, nearest 32)? */
static int inherits(const scan_state *S, const cls_ref *c, const char *anc)
{
    const cls_ref *queue[32];
    int nq = 0;
    queue[nq++] = c;
    for (int qi = 0; qi < nq; qi++) {
        if (strcmp(queue[qi]->c->name, anc) == 0) return 1;
        for (int b = 0; b < queue[qi]->c->nbases && nq < 32; b++) {
            const cls_ref *bc = scan_find_class(S, &S->jobs[queue[qi]->file].m, queue[qi]->c->bases[b]);
            if (bc) queue[nq++] = bc;
        }
    }
    return 0;
}

/* A spawn of an abstract method (a base's stub, `raise NotImplementedError`)
 * starts whichever implementation the object has: one of a subclass of the
 * stub's class, or of a mixin that some class of the tree combines with
 * it (`class Client(UpdateMethods, ..., BaseClient)`); when the tree shows
 * no such relation (the combining class may sit in a module the async
 * prefilter skips), the one implementation of that name, if it is the
 * only one. */
static int awaited_in_place(const scan_state *S, const char *name)
{
    for (size_t i = 0; i < S->njobs; i++) {
        const ir_module *m = &S->jobs[i].m;
        for (int k = 0; k < m->nspawns; k++)
            if ((m->spawns[k].flags & SPAWN_AWAITED) && strcmp(m->spawns[k].text, name) == 0) return 1;
    }
    return 0;
}

static void mark_implementations(const scan_state *S, const ir_func *stub, uint8_t *spawned, int gathered)
{
    if (!stub->class_name) return;
    /* (gathered: a name some module also awaits in place on another
     * object runs there in its awaiter's task, `await venue.fetch_trades(c)`) */
    if (gathered && stub->name && awaited_in_place(S, stub->name)) return;
    const char *sc = last_part(stub->class_name);
    /* the implementations: methods of that name (most stubs have one or none) */
    CA_VEC(size_t) cands = {0};
    for (size_t k = 0; k < S->nfns; k++) {
        const ir_func *g = S->fns[k].f;
        if (g != stub && g->class_name && strcmp(g->name, stub->name) == 0 && !(g->fflags & (FN_ABSTRACT | FN_STUB)))
            CA_VEC_PUSH(cands, k);
    }
    if (!cands.n) return;
    /* the classes that inherit the stub's class: one pass over the class table */
    CA_VEC(const cls_ref *) heirs = {0};
    for (size_t d = 0; d < S->nclasses; d++)
        if (inherits(S, &S->classes[d], sc)) CA_VEC_PUSH(heirs, &S->classes[d]);
    int marked = 0;
    for (size_t i = 0; i < cands.n; i++) {
        size_t k = cands.v[i];
        const ir_func *g = S->fns[k].f;
        if (!g->is_async || (g->fflags & FN_AWAITED_HERE)) continue;
        const cls_ref *gc = scan_find_class(S, &S->jobs[S->fns[k].file].m, g->class_name);
        if (!gc) continue;
        int related = inherits(S, gc, sc);
        for (size_t h = 0; h < heirs.n && !related; h++) related = inherits(S, heirs.v[h], gc->c->name);
        if (related) spawned[k] = marked = 1;
    }
    if (!marked && cands.n == 1) {
        const ir_func *g = S->fns[cands.v[0]].f;
        if (g->is_async && !(g->fflags & FN_AWAITED_HERE)) spawned[cands.v[0]] = 1;
    }
    CA_VEC_FREE(cands);
    CA_VEC_FREE(heirs);
}

/* A spawn of `self.m()` in a method of class C starts, on an object of a
 * subclass of C that overrides m, the override: methods of that name in
 * classes of the tree that inherit C, async and never awaited in their
 * own module (each override is then the outermost frame of that task). */
static void mark_overrides(const scan_state *S, const ir_func *g, uint8_t *spawned)
{
    if (!g->class_name || !g->name || (g->fflags & FN_AWAITED_ANY)) return;
    const char *gc = last_part(g->class_name);
    for (size_t k = 0; k < S->nfns; k++) {
        const ir_func *h = S->fns[k].f;
        if (h == g || !h->class_name || !h->name || strcmp(h->name, g->name) != 0) continue;
        /* (an override its module also awaits directly, `await app.m()`,
         * runs in that caller's task there) */
        if (!h->is_async || (h->fflags & (FN_AWAITED_HERE | FN_AWAITED_ANY | FN_ABSTRACT | FN_STUB))) continue;
        const cls_ref *hc = scan_find_class(S, &S->jobs[S->fns[k].file].m, h->class_name);
        if (!hc || strcmp(hc->c->name, gc) == 0 || !inherits(S, hc, gc)) continue;
        spawned[k] = 1;
    }
}

/* An abstract method (or stub) whose every implementation in the tree
 * suspends nowhere: a method of that name in a class that inherits the
 * stub's class, async, with suspends clear as the last fixed point left
 * it (an override that is itself a stub does nothing). None found: 0
 * (nothing is known of them). */
int scan_stub_quiet(const scan_state *S, size_t stub_index)
{
    const ir_func *stub = S->fns[stub_index].f;
    if (!stub->class_name || !stub->is_async || !(stub->fflags & (FN_ABSTRACT | FN_STUB))) return 0;
    const char *sc = last_part(stub->class_name);
    int found = 0;
    for (size_t k = 0; k < S->nfns; k++) {
        const ir_func *g = S->fns[k].f;
        if (g == stub || !g->class_name || strcmp(g->name, stub->name) != 0) continue;
        const cls_ref *gc = scan_find_class(S, &S->jobs[S->fns[k].file].m, g->class_name);
        if (!gc || gc->c->name == NULL || strcmp(gc->c->name, sc) == 0 || !inherits(S, gc, sc)) continue;
        if (!g->is_async) return 0;
        /* (an override that is itself only `pass` or a docstring does
         * nothing; its own overrides inherit the stub's class as well and
         * are met in this loop) */
        if (!(g->fflags & (FN_ABSTRACT | FN_STUB)) && S->fns[k].sum.suspends) return 0;
        found = 1;
    }
    return found;
}

/* `await self.server.handle_request(scope, receive, send)` as a task's tail,
 * on an object self holds whose class is not known here: the one coroutine
 * of the tree with that method name, when there is exactly one (a sync
 * method of the same name, a sibling's twin, is no coroutine), or NULL.
 * Several, each the implementation of one abstract method (or stub) of
 * that name in a class they all inherit (`async for msg in
 * self._client.listen()` with a `ComfyClient` and a `CloudClient` of an
 * abstract `Client`): that stub, which stands for them. */
static const ir_func *unique_self_held_tail(const scan_state *S, const char *text)
{
    if (!text) return NULL;
    const char *m = strrchr(text, '.');
    if (!m) return NULL;
    if (strncmp(text, "self.", 5) == 0) {
        if (m == text + 4) return NULL; /* (`self.m`: self's own, resolved already) */
    } else {
        /* (`create_task(app.state.processor.run(q))`: a method of an object
         * reached through another, whose class is not known here) */
        const char *d1 = strchr(text, '.');
        if (d1 == m) return NULL;
        /* (nor one some module awaits in place on an object: a coroutine
         * of that name also runs in its awaiter's task) */
        if (awaited_in_place(S, m + 1)) return NULL;
    }
    m++;
    const ir_func *one = NULL;
    int several = 0;
    for (size_t i = 0; i < S->nfns; i++) {
        const ir_func *g = S->fns[i].f;
        if (!g->is_async || !g->class_name || !g->name || strcmp(g->name, m) != 0) continue;
        if (one) several = 1;
        one = g;
    }
    if (!several) return one;
    for (size_t i = 0; i < S->nfns; i++) {
        const ir_func *st = S->fns[i].f;
        if (!st->class_name || !st->name || strcmp(st->name, m) != 0 || !(st->fflags & (FN_ABSTRACT | FN_STUB)))
            continue;
        const char *sc = last_part(st->class_name);
        int all = 1;
        for (size_t k = 0; k < S->nfns && all; k++) {
            const ir_func *g = S->fns[k].f;
            if (g == st || !g->is_async || !g->class_name || !g->name || strcmp(g->name, m) != 0) continue;
            const cls_ref *gc = scan_find_class(S, &S->jobs[S->fns[k].file].m, g->class_name);
            all = gc && (strcmp(last_part(g->class_name), sc) == 0 || inherits(S, gc, sc));
        }
        if (all) return st;
    }
    return NULL;
}

/* Sets flag on each function marked (clears it on the others), as the scan
 * computed it; a reused file keeps its stored flags, and one whose flag no
 * longer matches is marked in stale, to be analysed again (with stale
 * NULL, a flag read from the bodies of the functions, which a reused file
 * does not bring back: it keeps the flag it was analysed with). */
static void apply_scan_flag(scan_state *S, const uint8_t *marked, ir_fflags flag, uint8_t *stale)
{
    for (size_t k = 0; k < S->nfns; k++) {
        fn_ref *r = &S->fns[k];
        file_job *j = &S->jobs[r->file];
        int had = (r->f->fflags & flag) != 0;
        if (j->reused) {
            if (had != marked[k] && stale) stale[r->file] = 1;
        } else if (marked[k]) {
            r->f->fflags |= flag;
        } else {
            r->f->fflags &= ~flag;
        }
    }
}

/* What a spawn record's name (text, read as a call with flags) resolves
 * to from function func of module m; NULL when nothing of the tree. */
static const ir_func *resolve_named(file_ctx *fc, const ir_module *m, int func, const char *text, unsigned flags)
{
    ir_site nowhere;
    memset(&nowhere, 0, sizeof(nowhere));
    const eng_summary *sum = NULL;
    int off = 0;
    ir_node call = ir_call_stub(text, flags, nowhere);
    return scan_resolve(fc, m, m->funcs[func], &call, &sum, &off);
}

/* A SPAWN_DECORATION record's coroutine function, when the decorator is a
 * function of the tree whose coroutine wrapper starts a call of its first
 * parameter as a task and waits on nothing (SPAWN_STARTER: `def
 * new_task(func): async def wrapper(*a, **k): return
 * loop.create_task(func(*a, **k)); return wrapper`): each call of it starts
 * a task of its own, whose outermost frame it is; else NULL. */
static const ir_func *deco_started(file_ctx *fc, const ir_module *m, const ir_spawn *sp)
{
    if (sp->func < 0 || sp->func >= m->nfuncs || !sp->via) return NULL;
    const ir_func *g = m->funcs[sp->func];
    if (!g->is_async || g->id < 0 || (size_t)g->id >= fc->S->nfns) return NULL;
    const ir_func *w = resolve_named(fc, m, sp->func, sp->via, 0);
    if (!w || w == g || w->is_async || w->id < 0 || (size_t)w->id >= fc->S->nfns) return NULL;
    const fn_ref *wr = &fc->S->fns[w->id];
    const ir_module *wm = &fc->S->jobs[wr->file].m;
    for (int k = 0; k < wm->nspawns; k++)
        if ((wm->spawns[k].flags & SPAWN_STARTER) && !(wm->spawns[k].flags & (SPAWN_EDGE | SPAWN_DECORATION)) &&
            wm->spawns[k].func == wr->ordinal)
            return g;
    return NULL;
}

void scan_mark_spawns(scan_state *S, uint8_t *stale)
{
    uint8_t *spawned = ca_xcalloc(S->nfns + 1, 1);
    file_ctx fc;
    memset(&fc, 0, sizeof(fc));
    fc.S = S;
    for (size_t i = 0; i < S->njobs; i++) {
        const ir_module *m = &S->jobs[i].m;
        for (int k = 0; k < m->nspawns; k++) {
            const ir_spawn *sp = &m->spawns[k];
            if (sp->flags & SPAWN_DECORATION) {
                /* (`@new_task async def f`: every call of f starts it) */
                const ir_func *g = deco_started(&fc, m, sp);
                if (g) spawned[g->id] = 1;
                continue;
            }
            if (sp->func < 0 || sp->func >= m->nfuncs ||
                (sp->flags & (SPAWN_AWAITED | SPAWN_MAIN | SPAWN_EDGE | SPAWN_SELF_CALL | SPAWN_EXPORT)) ||
                (sp->flags & SPAWN_STARTER))
                continue;
            if (sp->flags & SPAWN_VIA) {
                /* (a spawn only if what the call hands the coroutine to
                 * starts it: a wrapper of another module) */
                /* ("self.NAME": a method of the spawning function's class
                 * or of one of its bases) */
                const ir_func *w = resolve_named(&fc, m, sp->func, sp->via,
                                                 sp->via && strncmp(sp->via, "self.", 5) == 0 ? CALL_ON_SELF : 0);
                if (!w || !(w->fflags & FN_SPAWNS_ARG0)) continue;
            }
            const ir_func *g = resolve_named(&fc, m, sp->func, sp->text,
                                             sp->flags & ~(SPAWN_ENTRY | SPAWN_TAIL | SPAWN_VIA | SPAWN_SCOPE | SPAWN_GATHER));
            if (!g && (sp->flags & SPAWN_TAIL)) g = unique_self_held_tail(S, sp->text);
            if (g && (g->fflags & (FN_ABSTRACT | FN_STUB))) mark_implementations(S, g, spawned, (sp->flags & SPAWN_GATHER) != 0);
            /* (a gathered coroutine counts through a stub only) */
            if (sp->flags & SPAWN_GATHER) continue;
            else if (g && (sp->flags & CALL_ON_SELF))
                mark_overrides(S, g, spawned);
            if (!g || g->id < 0 || (size_t)g->id >= S->nfns) continue;
            /* (a task its own module starts is FN_OWN_TASK's, by the module's
             * own rules; a framework's run is the same in any module) */
            if (S->fns[g->id].file == (int)i && !(sp->flags & (SPAWN_ENTRY | SPAWN_VIA))) continue;
            if (!g->is_async || (g->fflags & FN_AWAITED_HERE)) continue;
            /* (what a scope runner is handed must be an async generator) */
            if ((sp->flags & SPAWN_SCOPE) && !(g->fflags & FN_GENERATOR)) continue;
            spawned[g->id] = 1;
        }
    }
    scan_file_ctx_free(&fc);
    /* the verb methods of a web framework's handler classes (`class
     * SpawnHandler(BaseHandler)` ... `async def get(self)`, tornado's
     * RequestHandler at the root): the framework calls them for each
     * request, the outermost frame of its task */
    const ca_catalog *cat = S->o->cat;
    for (size_t k = 0; k < S->nfns && cat; k++) {
        const ir_func *g = S->fns[k].f;
        if (!g->class_name || !g->is_async || (g->fflags & (FN_AWAITED_HERE | FN_AWAITED_ANY | FN_ABSTRACT | FN_STUB)) ||
            !ca_catalog_match(cat, CAT_ENDPOINT_METHOD, g->name))
            continue;
        const cls_ref *c = scan_find_class(S, &S->jobs[S->fns[k].file].m, g->class_name);
        if (c && (c->flags & ENG_CLASS_ENDPOINT)) spawned[k] = 1;
    }
    apply_scan_flag(S, spawned, FN_SPAWNED_ELSEWHERE, stale);
    free(spawned);
}

/* ---- coroutines that run only in a runner's main task -------------------- */

/* A call site of a function of the tree: who calls, whom, and whether the
 * call is awaited in place outside any timeout (the caller's task runs
 * the callee to its end, and only what cancels the caller cancels it). */
typedef struct main_edge {
    size_t caller, callee;
    int in_place;
    int kept; /* what the call returns is kept (not a statement of its own, CALL_DROPPED) */
    int unheld; /* the coroutine of a task start nothing can cancel (CALL_UNHELD_START) */
} main_edge;

typedef CA_VEC(main_edge) main_edge_vec;

/* A call of a method of self, its name hashed, the file it is in and
 * the class of the method that makes it. */
typedef struct named_call {
    uint64_t h;
    int file;
    const char *cls;
    const char *name; /* (the method's, to keep with the file) */
} named_call;

typedef CA_VEC(named_call) named_call_vec;

static int cmp_named_call(const void *a, const void *b)
{
    uint64_t x = ((const named_call *)a)->h, y = ((const named_call *)b)->h;
    return x < y ? -1 : x > y;
}

/* Whether a class of another file than `file`, one that class c inherits,
 * calls a method of self by the name whose hash is h (sorted vec): c's
 * override of it runs there. */
static int called_elsewhere(const scan_state *S, const named_call_vec *v, uint64_t h, int file, const cls_ref *c)
{
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->v[mid].h < h) lo = mid + 1;
        else hi = mid;
    }
    for (; lo < v->n && v->v[lo].h == h; lo++) {
        if (v->v[lo].file == file) continue;
        if (v->v[lo].cls && inherits(S, c, v->v[lo].cls)) return 1;
    }
    return 0;
}

typedef struct main_q {
    file_ctx *fc;
    const ir_module *m;
    const ir_func *f;
    size_t fid;
    CA_VEC(ir_site) timeouts; /* `async with timeout(...)` bodies of f */
    CA_VEC(const ir_node *) entered; /* the calls that make what an `async with` of f enters */
    CA_VEC(ir_site) stack_enters; /* `await stack.enter_async_context(...)` calls of f */
    main_edge_vec *edges;
    named_call_vec *names; /* every call of a method of self, in any module */
    int file;
} main_q;

static int note_timeouts(void *ctx, const ir_node *n)
{
    main_q *q = ctx;
    if (n->kind == IR_WITH && (n->flags & WITH_TIMEOUT)) CA_VEC_PUSH(q->timeouts, n->site);
    /* (`async with serve(app) as s:` runs the context manager's code in
     * this task, on entering and on leaving) */
    if (n->kind == IR_WITH && (n->flags & WITH_ASYNC) && n->ref) CA_VEC_PUSH(q->entered, n->ref);
    /* (so does `await stack.enter_async_context(serve(app))`) */
    if (n->kind == IR_CALL && (n->flags & CALL_AWAITED) && n->text && q->fc->S->o->cat) {
        const char *dot = strrchr(n->text, '.');
        if (dot && ca_catalog_match(q->fc->S->o->cat, CAT_EXIT_STACK_ADOPT, dot + 1)) CA_VEC_PUSH(q->stack_enters, n->site);
    }
    return 0;
}

static int note_calls(void *ctx, const ir_node *n)
{
    main_q *q = ctx;
    if (n->kind == IR_CALL && n->text && (n->flags & CALL_ON_SELF) && !strchr(n->text, '.') && q->f->class_name) {
        named_call c = {scan_hash_str(CA_HASH_SEED, n->text), q->file, last_part(q->f->class_name), n->text};
        CA_VEC_PUSH(*q->names, c);
    }
    if (n->kind != IR_CALL || (n->flags & CALL_VALUE_ONLY) || !n->text) return 0;
    const eng_summary *sum = NULL;
    int off = 0;
    const ir_func *g = scan_resolve(q->fc, q->m, q->f, n, &sum, &off);
    /* (`await ledger.record(k)` of `from .book import ledger`, `await
     * Lister(self).pick()`: a method of an object named through an import
     * or made in place, whose class the resolver cannot name: the one
     * coroutine method of the tree of that name. An edge more only keeps
     * its callee out of a growth unless the call is in place in a member) */
    if (!g && !(n->flags & CALL_ON_SELF) && names_tree_object(q->fc->S, q->f, n->text))
        g = unique_method(q->fc->S, strrchr(n->text, '.') + 1, q->m->language);
    if (!g || g == q->f || g->id < 0 || (size_t)g->id >= q->fc->S->nfns || !g->is_async) return 0;
    int timed = 0;
    for (size_t k = 0; k < q->timeouts.n; k++)
        timed |= q->timeouts.v[k].start <= n->site.start && n->site.end <= q->timeouts.v[k].end;
    int entered = 0;
    for (size_t k = 0; k < q->entered.n; k++) entered |= q->entered.v[k] == n;
    for (size_t k = 0; k < q->stack_enters.n; k++)
        entered |= q->stack_enters.v[k].start < n->site.start && n->site.end <= q->stack_enters.v[k].end;
    main_edge e = {q->fid, (size_t)g->id, ((n->flags & (CALL_AWAITED | CALL_GATHERED | CALL_HELD_AWAIT)) || entered) && !timed,
                   !(n->flags & CALL_DROPPED), (n->flags & CALL_UNHELD_START) != 0};
    CA_VEC_PUSH(*q->edges, e);
    return 0;
}

/* Grows set (seeded) to a fixed point: g joins when every call of it in
 * the tree (total, at least one) is in place in a member of its own
 * module, and g is private or local (a public function may be awaited by
 * code outside the tree, a library's user), or g is a function of an
 * entry module (entry[file]: one that hands a coroutine of its own to a
 * main runner, or runs as a root context): a program's entry is not a
 * library's API, and the module that runs itself is where its callers
 * are. With across, the members may be of any module and g public: what
 * a task nothing cancels awaits, wherever it is written, meets no
 * cancellation either, and a library's user has no way into such a task
 * (a public function every call of which in the tree runs there is that
 * task's code; the user who calls it elsewhere is no caller the tree
 * shows, a risk taken for the server handlers and dropped starts whose
 * code is reached only so). With unheld, a start nothing can cancel
 * (CALL_UNHELD_START), in any module, counts as such a call too; blocked
 * functions never join (an override a base runs elsewhere). */
static void grow_in_place(const scan_state *S, const main_edge_vec *edges, const int *total, uint8_t *set,
                          const uint8_t *entry, int across, int unheld, const uint8_t *blocked)
{
    size_t n = S->nfns;
    int *good = ca_xcalloc(n + 1, sizeof(int));
    for (int changed = 1; changed;) {
        changed = 0;
        memset(good, 0, sizeof(int) * (n + 1));
        for (size_t i = 0; i < edges->n; i++)
            if ((edges->v[i].in_place && set[edges->v[i].caller] &&
                 (across || S->fns[edges->v[i].caller].file == S->fns[edges->v[i].callee].file)) ||
                (unheld && edges->v[i].unheld))
                good[edges->v[i].callee]++;
        for (size_t k = 0; k < n; k++) {
            const ir_func *g = S->fns[k].f;
            /* (a task another module starts on it makes a call that is not
             * in place; a route's handler, handed by reference, has no
             * call at all) */
            /* (nor one its module also names as a value, handed to
             * something that may call it elsewhere: `Loop(function=
             * self.check_servers)`) */
            if (set[k] || !total[k] || good[k] != total[k] || !g->is_async || (g->fflags & FN_REFERENCED) ||
                (blocked && blocked[k]))
                continue;
            if (!across && !ir_func_private(g) && !(entry && entry[S->fns[k].file])) continue;
            set[k] = 1;
            changed = 1;
        }
    }
    free(good);
}

/* The calls a lowered file's coroutines make, as the scan resolved them,
 * kept with the file (SPAWN_EDGE, SPAWN_SELF_CALL) for a rescan that
 * reuses it without its bodies: edges v[e0..] and self calls c[c0..] of
 * function k. */
static void keep_calls(scan_state *S, size_t k, const main_edge_vec *edges, size_t e0, const named_call_vec *calls,
                       size_t c0)
{
    const fn_ref *r = &S->fns[k];
    ir_module *m = &S->jobs[r->file].m;
    ca_sb q = {0};
    for (size_t i = e0; i < edges->n; i++) {
        const fn_ref *g = &S->fns[edges->v[i].callee];
        ca_sb_reset(&q);
        ca_sb_addf(&q, "%s:%d", g->file == r->file ? "" : S->jobs[g->file].df->path, g->ordinal);
        ir_spawn_append(m, r->ordinal, ca_arena_strdup(&m->arena, ca_sb_str(&q)),
                        SPAWN_EDGE | (edges->v[i].in_place ? SPAWN_IN_PLACE : 0) | (edges->v[i].kept ? SPAWN_KEPT : 0) |
                            (edges->v[i].unheld ? SPAWN_UNHELD : 0),
                        NULL);
    }
    for (size_t i = c0; i < calls->n; i++) {
        ca_sb_reset(&q);
        ca_sb_addf(&q, "%s.%s", calls->v[i].cls, calls->v[i].name);
        ir_spawn_append(m, r->ordinal, ca_arena_strdup(&m->arena, ca_sb_str(&q)), SPAWN_SELF_CALL, NULL);
    }
    ca_sb_release(&q);
}

/* What a reused file kept of its calls (keep_calls), back as edges and
 * self calls. */
static void recall_calls(scan_state *S, size_t file, main_edge_vec *edges, named_call_vec *calls)
{
    ir_module *m = &S->jobs[file].m;
    for (int k = 0; k < m->nspawns; k++) {
        const ir_spawn *sp = &m->spawns[k];
        if (!(sp->flags & (SPAWN_EDGE | SPAWN_SELF_CALL)) || sp->func < 0 || sp->func >= m->nfuncs) continue;
        const char *sep = strrchr(sp->text, sp->flags & SPAWN_EDGE ? ':' : '.');
        if (!sep || m->funcs[sp->func]->id < 0) continue;
        if (sp->flags & SPAWN_SELF_CALL) {
            named_call c = {scan_hash_str(CA_HASH_SEED, sep + 1), (int)file,
                            ca_arena_strndup(&m->arena, sp->text, (size_t)(sep - sp->text)), sep + 1};
            CA_VEC_PUSH(*calls, c);
            continue;
        }
        size_t fi = file;
        if (sep > sp->text) {
            char *path = ca_xstrndup(sp->text, (size_t)(sep - sp->text));
            fi = scan_job_by_path(S, path);
            free(path);
        }
        long ord = strtol(sep + 1, NULL, 10);
        if (fi == SIZE_MAX || ord < 0 || ord >= S->jobs[fi].m.nfuncs) continue;
        const ir_func *g = S->jobs[fi].m.funcs[ord];
        if (g->id < 0 || (size_t)g->id >= S->nfns || !g->is_async) continue;
        main_edge e = {(size_t)m->funcs[sp->func]->id, (size_t)g->id, (sp->flags & SPAWN_IN_PLACE) != 0,
                       (sp->flags & SPAWN_KEPT) != 0, (sp->flags & SPAWN_UNHELD) != 0};
        CA_VEC_PUSH(*edges, e);
    }
}

/* Drops what keep_calls put in a file's module (lowered again, or read
 * again by another pass). */
static void forget_calls(ir_module *m)
{
    int w = 0;
    for (int i = 0; i < m->nspawns; i++)
        if (!(m->spawns[i].flags & (SPAWN_EDGE | SPAWN_SELF_CALL))) m->spawns[w++] = m->spawns[i];
    m->nspawns = w;
}

/* Is function k a coroutine method whose name the catalog's category
 * names (`launch`, `test*`) of a class of the tree with flag cls_flag
 * (ENG_CLASS_SERVICE, ENG_CLASS_TEST: derived from a framework's base)? */
static int framework_method(const scan_state *S, size_t k, int category, unsigned cls_flag)
{
    const ir_func *g = S->fns[k].f;
    if (!g->is_async || !g->class_name || !g->name || !S->o->cat || !ca_catalog_match(S->o->cat, category, g->name))
        return 0;
    const cls_ref *c = scan_find_class(S, &S->jobs[S->fns[k].file].m, g->class_name);
    return c && (c->flags & cls_flag);
}

void scan_mark_main_only(scan_state *S, uint8_t *stale)
{
    size_t n = S->nfns;
    uint8_t *only = ca_xcalloc(n + 1, 1);
    uint8_t *unc = ca_xcalloc(n + 1, 1);
    uint8_t *unh = ca_xcalloc(n + 1, 1);
    uint8_t *tests = ca_xcalloc(n + 1, 1); /* tests a runner collects, and what they alone await in their module */
    main_edge_vec edges = {0};
    named_call_vec names = {0};
    /* (the calls are read, and kept with each file, whether or not this
     * tree has a main or an uncancelled task yet: a later scan that adds
     * one reuses the rest) */
    {
        file_ctx fc;
        memset(&fc, 0, sizeof(fc));
        fc.S = S;
        /* a coroutine of another module handed to a main runner (SPAWN_MAIN:
         * `asyncio.run(handle_command(args))`): how many such hand-offs */
        int *handed = ca_xcalloc(n + 1, sizeof(int));
        for (size_t i = 0; i < S->njobs; i++) {
            const ir_module *m = &S->jobs[i].m;
            for (int k = 0; k < m->nspawns; k++) {
                const ir_spawn *sp = &m->spawns[k];
                if (!(sp->flags & SPAWN_MAIN) || sp->func < 0 || sp->func >= m->nfuncs) continue;
                const ir_func *g = resolve_named(&fc, m, sp->func, sp->text, sp->flags & ~SPAWN_MAIN);
                if (g && g->is_async && g->id >= 0 && (size_t)g->id < n && S->fns[g->id].file != (int)i) handed[g->id]++;
            }
        }
        /* coroutines a decorator of the tree starts as a task at each call
         * (SPAWN_DECORATION) */
        uint8_t *deco = ca_xcalloc(n + 1, 1);
        for (size_t i = 0; i < S->njobs; i++) {
            const ir_module *m = &S->jobs[i].m;
            for (int k = 0; k < m->nspawns; k++) {
                if (!(m->spawns[k].flags & SPAWN_DECORATION)) continue;
                const ir_func *g = deco_started(&fc, m, &m->spawns[k]);
                if (g) deco[g->id] = 1;
            }
        }
        for (size_t i = 0; i < S->njobs; i++) {
            if (S->jobs[i].reused) recall_calls(S, i, &edges, &names);
            else forget_calls(&S->jobs[i].m);
        }
        for (size_t k = 0; k < n; k++) {
            const fn_ref *r = &S->fns[k];
            const ir_module *m = &S->jobs[r->file].m;
            if ((m->language && strcmp(m->language, "python") != 0) || S->jobs[r->file].reused) continue;
            main_q q = {&fc, m, r->f, k, {0}, {0}, {0}, &edges, &names, r->file};
            size_t e0 = edges.n, c0 = names.n;
            ir_visit(&r->f->body, note_timeouts, &q);
            ir_visit(&r->f->body, note_calls, &q);
            keep_calls(S, k, &edges, e0, &names, c0);
            CA_VEC_FREE(q.timeouts);
            CA_VEC_FREE(q.entered);
            CA_VEC_FREE(q.stack_enters);
        }
        scan_file_ctx_free(&fc);
        /* (a call of one a decorator starts runs nothing in place: it starts
         * the task; one whose task it keeps, `jobs["jd"] = await
         * listener()`, may cancel it) */
        uint8_t *kept = ca_xcalloc(n + 1, 1);
        for (size_t i = 0; i < edges.n; i++)
            if (deco[edges.v[i].callee]) {
                edges.v[i].in_place = 0;
                kept[edges.v[i].callee] |= edges.v[i].kept != 0;
            }
        /* every call of g, how many of them are in place in a member: all,
         * and at least one, or g is a runner's main never called elsewhere */
        int *total = ca_xcalloc(n + 1, sizeof(int));
        int *other = ca_xcalloc(n + 1, sizeof(int)); /* calls but the runner's own (FN_RUNNER_MAIN) */
        int *placed = ca_xcalloc(n + 1, sizeof(int)); /* calls awaited in place */
        for (size_t i = 0; i < edges.n; i++) {
            const main_edge *e = &edges.v[i];
            total[e->callee]++;
            placed[e->callee] += e->in_place != 0;
            /* (the call handed to the runner, in the main's module: its
             * module names it nowhere else) */
            if (e->in_place || S->fns[e->caller].file != S->fns[e->callee].file) other[e->callee]++;
        }
        int cancels_any = 0;
        for (size_t k = 0; k < n && !cancels_any; k++) cancels_any = (S->fns[k].f->fflags & FN_CANCELS_ANY) != 0;
        for (size_t k = 0; k < n; k++) {
            const ir_func *g = S->fns[k].f;
            /* (the module that hands its main to a runner runs itself: a
             * program's entry, whose main is its own, public or not;
             * called anywhere else in the tree, it may run under a timeout) */
            if ((g->fflags & FN_RUNNER_MAIN) && !other[k] && !(g->fflags & FN_SPAWNED_ELSEWHERE))
                only[k] = 1;
            /* (so is one another module hands to its runner, awaited nowhere
             * and called only at those hand-offs, which also read as task
             * starts: FN_SPAWNED_ELSEWHERE is the runner's main task) */
            if (handed[k] && !placed[k] && total[k] <= handed[k]) only[k] = 1;
            /* a task of its module that nothing can cancel (FN_UNCANCELLED):
             * what it awaits in place runs in that task */
            if (g->fflags & FN_UNCANCELLED) unc[k] = 1;
            /* the service method of a framework's service class (launart's
             * `launch` of a `Service`), called nowhere in the tree: the
             * framework runs it in a task it never cancels */
            if (!total[k] && framework_method(S, k, CAT_SERVICE_METHOD, ENG_CLASS_SERVICE)) unc[k] = 1;
            /* a chat framework's event or command handler (discord.py's
             * `@commands.command()`, `@commands.Cog.listener()`), called
             * nowhere in the tree: the framework runs each event in a task
             * it keeps no handle to and never cancels, unless the program
             * cancels tasks it finds among all of them (a `?cancel_task`
             * command over `asyncio.all_tasks()`) */
            if (!total[k] && g->is_async && (g->fflags & FN_EVENT_HANDLER) && !cancels_any) unc[k] = 1;
            /* (or a method the framework calls on an interactive component
             * of the tree for each interaction: a modal's `on_submit`, a
             * button's `callback`, a view's `on_timeout`, each run in a task
             * the view or modal starts and keeps no handle to), unless some
             * module awaits a method of its name on another object
             * (`await menu.on_timeout()` over a list of menus) */
            if (!total[k] && !cancels_any && framework_method(S, k, CAT_EVENT_METHOD, ENG_CLASS_EVENT) &&
                !awaited_in_place(S, g->name))
                unc[k] = 1;
            /* a test the test runner collects (pytest's `async def
             * test_x()` at a module's top, or `test_x` of a class named
             * `TestX`), called nowhere in the tree: the runner runs it to
             * its end in a loop of its own and never cancels it */
            if (!total[k] && g->is_async && g->name && S->o->cat && !strstr(g->qualname, "<locals>") &&
                ca_catalog_match(S->o->cat, CAT_TEST_FUNCTION, g->name) &&
                (!g->class_name || ca_catalog_match(S->o->cat, CAT_TEST_CLASS, last_part(g->class_name))))
                tests[k] = 1;
            /* (or a test method of a test case class: unittest's
             * `IsolatedAsyncioTestCase`, its setup and teardown too) */
            if (!total[k] && framework_method(S, k, CAT_TEST_METHOD, ENG_CLASS_TEST)) tests[k] = 1;
        }
        /* (unless another module calls it or starts it as a task, which
         * its own module's starts, deciding FN_UNCANCELLED, did not see) */
        for (size_t i = 0; i < edges.n; i++)
            if (S->fns[edges.v[i].caller].file != S->fns[edges.v[i].callee].file) unc[edges.v[i].callee] = 0;
        /* (or a base class of its class in another module calls a method
         * of its name on self: `await self._arun()` runs the override) */
        if (names.n) qsort(names.v, names.n, sizeof(names.v[0]), cmp_named_call);
        /* (a method so run, that is: its override runs where the base
         * awaits it, maybe under a timeout) */
        uint8_t *overridden = ca_xcalloc(n + 1, 1);
        for (size_t k = 0; k < n; k++) {
            const ir_func *g = S->fns[k].f;
            if (!g->is_async || !g->class_name || !g->name) continue;
            const cls_ref *gc = scan_find_class(S, &S->jobs[S->fns[k].file].m, g->class_name);
            if (gc && called_elsewhere(S, &names, scan_hash_str(CA_HASH_SEED, g->name), S->fns[k].file, gc)) {
                overridden[k] = 1;
                unc[k] = 0;
            }
        }
        /* a coroutine a decorator starts as a task at every call, where no
         * call in the tree keeps that task (`await confirm(...)` as a
         * statement, or handed by name to a framework): nothing can cancel
         * it */
        for (size_t k = 0; k < n; k++)
            if (deco[k] && !kept[k]) unc[k] = 1;
        free(deco);
        free(kept);
        free(other);
        /* (a module that hands a coroutine of its own to a main runner
         * runs itself: a program's entry, not a library's API) */
        uint8_t *entry = ca_xcalloc(S->njobs + 1, 1);
        for (size_t k = 0; k < n; k++)
            if ((S->fns[k].f->fflags & FN_RUNNER_MAIN) || (handed[k] && only[k])) entry[S->fns[k].file] = 1;
        grow_in_place(S, &edges, total, only, entry, 0, 0, NULL);
        grow_in_place(S, &edges, total, unc, entry, 1, 0, NULL);
        /* (and with the starts nothing can cancel as callers that meet no
         * cancellation, in any module: FN_UNHELD_VIA) */
        memcpy(unh, unc, n + 1);
        grow_in_place(S, &edges, total, unh, entry, 1, 1, overridden);
        free(overridden);
        /* (what only tests await runs in their tasks too, but only in a
         * module of tests, public or not: a library's function its tests
         * call is the library's API, which its users may cancel) */
        uint8_t *test_mod = ca_xcalloc(S->njobs + 1, 1);
        for (size_t k = 0; k < n; k++)
            if (tests[k]) test_mod[S->fns[k].file] = 1;
        grow_in_place(S, &edges, total, tests, test_mod, 0, 0, NULL);
        for (size_t k = 0; k < n; k++)
            if (tests[k]) unc[k] = 1;
        free(test_mod);
        free(entry);
        for (size_t k = 0; k < n; k++)
            if (S->fns[k].f->fflags & FN_UNCANCELLED) unc[k] = unh[k] = 0; /* (the frontend's own) */
        for (size_t k = 0; k < n; k++)
            if (unc[k]) unh[k] = 0;
        free(total);
        free(placed);
        free(handed);
    }
    CA_VEC_FREE(edges);
    CA_VEC_FREE(names);
    /* (calls in other files decide them: a reused file whose functions
     * they change is analysed again) */
    apply_scan_flag(S, only, FN_MAIN_ONLY, stale);
    apply_scan_flag(S, unc, FN_UNCANCELLED_VIA, stale);
    apply_scan_flag(S, unh, FN_UNHELD_VIA, stale);
    free(only);
    free(unc);
    free(unh);
    free(tests);
}
