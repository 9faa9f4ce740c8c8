/*
 * classes.c — the scan's class table: every class of every module (lowered
 * or reused), and what the tree says of each (resolver's class_of): whether
 * it is a data model, and whether it owns a resource — one of its methods,
 * or of a base class's, releases something held by self (self._ws.close(),
 * os.close(self._fd)) or stores a catalogued resource on self. Part of
 * phase 2 (scan.c), read by phase 3 through eng_resolver.class_of.
 *
 * A class is "known" only when every base is a class of the tree or a plain
 * one (object, typing.Generic, a data-model, protocol or ABC base): a class
 * built on a library's class may own what the library's class owns.
 * Bases resolve by name, in the class's module first, as calls do (link.c).
 */
#include "scan/scan_internal.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"

static const char *last_part(const char *s)
{
    const char *p = strrchr(s, '.');
    return p ? p + 1 : s;
}

static const scan_state *sort_ctx;

static int cmp_cls(const void *a, const void *b)
{
    const scan_state *S = sort_ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(S->classes[x].c->name, S->classes[y].c->name);
    if (c) return c;
    return x < y ? -1 : x > y;
}

/* How many of the last components of the dotted module mod[0..mlen) the
 * file path names, from its end: ".../a/b.py" or ".../a/b/__init__.py" is
 * 2 for "x.a.b"; 0 when not even the last one matches. */
static int module_match(const char *path, const char *mod, size_t mlen)
{
    const char *pe = path + strlen(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strcmp(base, "__init__.py") == 0) {
        pe = base > path ? base - 1 : path;
    } else {
        size_t bl = strlen(base);
        if (bl < 3 || strcmp(base + bl - 3, ".py") != 0) return 0;
        pe = base + bl - 3;
    }
    const char *me = mod + mlen;
    int k = 0;
    while (me > mod && pe > path) {
        const char *ms = me;
        while (ms > mod && ms[-1] != '.') ms--;
        const char *ps = pe;
        while (ps > path && ps[-1] != '/') ps--;
        if ((size_t)(me - ms) != (size_t)(pe - ps) || strncmp(ms, ps, (size_t)(me - ms)) != 0) break;
        k++;
        me = ms > mod ? ms - 1 : mod;
        pe = ps > path ? ps - 1 : path;
        if (ms == mod || ps == path) break;
    }
    return k;
}

/* The name of a file as a module: "b" for ".../b.py"; NULL for a
 * package's __init__.py or a file that is no Python module. */
static const char *module_stem(const char *path, size_t *len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    if (bl < 4 || strcmp(base + bl - 3, ".py") != 0 || strcmp(base, "__init__.py") == 0) return NULL;
    *len = bl - 3;
    return base;
}

static int cmp_stem(const void *a, const void *b)
{
    const scan_state *S = sort_ctx;
    size_t la = 0, lb = 0;
    const char *x = module_stem(S->jobs[*(const size_t *)a].df->path, &la);
    const char *y = module_stem(S->jobs[*(const size_t *)b].df->path, &lb);
    int c = strncmp(x, y, la < lb ? la : lb);
    if (c) return c;
    return la < lb ? -1 : la > lb;
}

/* How much of the dotted module full[0..flen) (whose last part is mod,
 * mlen bytes) the best plain module of the tree other than file `not`
 * names (module_match); 0 when none has that name. */
static int other_module_match(const scan_state *S, const char *full, size_t flen, const char *mod, size_t mlen, int not)
{
    size_t lo = 0, hi = S->nmod_by_stem;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2, l = 0;
        const char *st = module_stem(S->jobs[S->mod_by_stem[mid]].df->path, &l);
        int c = strncmp(st, mod, l < mlen ? l : mlen);
        if (c == 0) c = l < mlen ? -1 : l > mlen;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    int best = 0;
    for (; lo < S->nmod_by_stem; lo++) {
        size_t l = 0;
        const char *path = S->jobs[S->mod_by_stem[lo]].df->path;
        const char *st = module_stem(path, &l);
        if (l != mlen || strncmp(st, mod, mlen) != 0) break;
        if ((int)S->mod_by_stem[lo] == not) continue;
        int k = module_match(path, full, flen);
        if (k > best) best = k;
    }
    return best;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every directory name and module stem on the paths of the tree's Python
 * files (`pkg`, `sub`, `mod` for pkg/sub/mod.py), sorted, without repeats. */
static void build_path_names(scan_state *S)
{
    for (size_t i = 0; i < S->npath_names; i++) free(S->path_names[i]);
    free(S->path_names);
    CA_VEC(char *) v = {0};
    for (size_t i = 0; i < S->njobs; i++) {
        const char *path = S->jobs[i].df ? S->jobs[i].df->path : NULL;
        size_t pl = path ? strlen(path) : 0;
        if (pl < 4 || strcmp(path + pl - 3, ".py") != 0) continue;
        const char *p = path;
        while (*p) {
            size_t l = strcspn(p, "/");
            size_t nl = p[l] ? l : l - 3; /* (the last part without .py) */
            if (nl > 0 && !(nl == 1 && p[0] == '.')) {
                char *c = ca_xmalloc(nl + 1);
                memcpy(c, p, nl);
                c[nl] = 0;
                CA_VEC_PUSH(v, c);
            }
            p += l;
            if (*p) p++;
        }
    }
    if (v.n) qsort(v.v, v.n, sizeof(char *), cmp_str);
    size_t k = 0;
    for (size_t i = 0; i < v.n; i++) {
        if (k && strcmp(v.v[k - 1], v.v[i]) == 0) free(v.v[i]);
        else v.v[k++] = v.v[i];
    }
    S->path_names = v.v;
    S->npath_names = k;
}

/* Does some path of the tree have a directory or module named n[0..len)? */
int scan_tree_has_name(const scan_state *S, const char *n, size_t len)
{
    size_t lo = 0, hi = S->npath_names;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *c = S->path_names[mid];
        int r = strncmp(c, n, len);
        if (r == 0) r = c[len] ? 1 : 0;
        if (r == 0) return 1;
        if (r < 0) lo = mid + 1;
        else hi = mid;
    }
    return 0;
}

const cls_ref *scan_find_class(const scan_state *S, const ir_module *m, const char *name)
{
    if (!name || !*name) return NULL;
    const char *n = last_part(name);
    size_t lo = 0, hi = S->nclasses;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(S->classes[S->cls_by_name[mid]].c->name, n) < 0) lo = mid + 1;
        else hi = mid;
    }
    const cls_ref *hit = NULL, *local = NULL;
    int several = 0;
    for (; lo < S->nclasses && strcmp(S->classes[S->cls_by_name[lo]].c->name, n) == 0; lo++) {
        const cls_ref *r = &S->classes[S->cls_by_name[lo]];
        if (m && &S->jobs[r->file].m == m) local = r;
        if (hit) several = 1;
        hit = r;
    }
    if (local) return local;
    if (!several && hit) {
        /* the one class of that name, unless the name says another module
         * of the tree better, a plain one not lowered (`legacy.bases.Base`
         * while only `schemas/bases.py`'s Base is known); a package's
         * __init__ may re-export a class of any of its modules */
        const char *dot = strrchr(name, '.');
        if (!dot || dot == name) return hit;
        const char *mod = dot;
        while (mod > name && mod[-1] != '.') mod--;
        size_t mlen = (size_t)(dot - mod);
        size_t flen = (size_t)(dot - name);
        int parts = 1;
        for (const char *p = name; p < dot; p++) parts += *p == '.';
        const char *hp = S->jobs[hit->file].df->path;
        int k = module_match(hp, name, flen);
        /* (`pkg.storage._base.Client` for the class of
         * pkg/storage/_base/_client.py: the name is of the package holding
         * the file, whose __init__ re-exports it; matched as that package) */
        const char *hs = strrchr(hp, '/');
        if (hs && (size_t)(hs - hp) < 4000) {
            char pkg[4096];
            memcpy(pkg, hp, (size_t)(hs - hp));
            memcpy(pkg + (hs - hp), "/__init__.py", 13);
            int kp = module_match(pkg, name, flen);
            if (kp > k) k = kp;
        }
        /* (a hit whose path says the whole module name is the one meant) */
        if (k < parts && other_module_match(S, name, flen, mod, mlen, hit->file) > k) return NULL;
        /* (`aiohttp.web.AppRunner` while the tree's one AppRunner is of a
         * module of its own: a name whose top-level package no path of the
         * tree has, and no part of which the hit's path matches, is a
         * library's class) */
        if (k == 0 && !scan_tree_has_name(S, name, strcspn(name, "."))) return NULL;
        return hit;
    }
    /* several of that name: the one of the module the name says
     * (`channel.Channel` after `from .channel import Channel`), the one
     * whose path matches most of it when several modules share the last
     * name (`pkg._internal.schemas.bases.Model` and
     * `pkg.server.schemas.bases.Model`), if only one matches most */
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name) return NULL;
    const cls_ref *pick = NULL;
    int best = 0, tie = 0;
    for (lo = hi; lo < S->nclasses && strcmp(S->classes[S->cls_by_name[lo]].c->name, n) == 0; lo++) {
        const cls_ref *r = &S->classes[S->cls_by_name[lo]];
        int k = module_match(S->jobs[r->file].df->path, name, (size_t)(dot - name));
        if (k > best) {
            best = k;
            pick = r;
            tie = 0;
        } else if (k == best && k > 0) {
            tie = 1;
        }
    }
    return best > 0 && !tie ? pick : NULL;
}

int scan_plain_base(const scan_state *S, const char *b)
{
    if (strcmp(b, "object") == 0 || strcmp(b, "typing.Generic") == 0 || strcmp(b, "Generic") == 0) return 1;
    const ca_catalog *cat = S->o->cat;
    return cat && (ca_catalog_match(cat, CAT_DATA_BASE, b) || ca_catalog_match(cat, CAT_PROTOCOL_BASE, b) ||
                   ca_catalog_match(cat, CAT_ABSTRACT_BASE, b));
}

void scan_build_classes(scan_state *S)
{
    free(S->classes);
    free(S->cls_by_name);
    size_t n = 0;
    for (size_t i = 0; i < S->njobs; i++) n += (size_t)S->jobs[i].m.nclasses;
    S->classes = ca_xcalloc(n + 1, sizeof(cls_ref));
    S->cls_by_name = ca_xmalloc(sizeof(size_t) * (n + 1));
    S->nclasses = 0;
    size_t *first = ca_xcalloc(S->njobs + 1, sizeof(size_t)); /* job i's classes start here */
    for (size_t i = 0; i < S->njobs; i++) {
        first[i] = S->nclasses;
        for (int k = 0; k < S->jobs[i].m.nclasses; k++) {
            cls_ref *r = &S->classes[S->nclasses];
            r->c = S->jobs[i].m.classes[k];
            r->file = (int)i;
            r->flags = ENG_CLASS_KNOWN | ((r->c->flags & CLASS_DATA) ? ENG_CLASS_DATA : 0) |
                       ((r->c->flags & CLASS_ENDPOINT) ? ENG_CLASS_ENDPOINT : 0) |
                       ((r->c->flags & CLASS_SERVICE) ? ENG_CLASS_SERVICE : 0) |
                       ((r->c->flags & CLASS_TEST) ? ENG_CLASS_TEST : 0) |
                       ((r->c->flags & CLASS_EVENT) ? ENG_CLASS_EVENT : 0);
            S->cls_by_name[S->nclasses] = S->nclasses;
            S->nclasses++;
        }
    }
    sort_ctx = S;
    qsort(S->cls_by_name, S->nclasses, sizeof(size_t), cmp_cls);
    free(S->mod_by_stem);
    S->mod_by_stem = ca_xmalloc(sizeof(size_t) * (S->njobs + 1));
    S->nmod_by_stem = 0;
    for (size_t i = 0; i < S->njobs; i++) {
        size_t l = 0;
        if (S->jobs[i].df && S->jobs[i].df->path && module_stem(S->jobs[i].df->path, &l))
            S->mod_by_stem[S->nmod_by_stem++] = i;
    }
    qsort(S->mod_by_stem, S->nmod_by_stem, sizeof(size_t), cmp_stem);
    build_path_names(S);
    /* what its own methods do */
    /* (per class: its __init__ calls a method of self; one of its plain
     * methods stores a catalogued resource on self. Both: the constructor
     * may leave the object holding it) */
    enum { CTOR_CALLS_SELF = 1, PLAIN_METHOD_HOLDS = 2 };
    unsigned char *ctor = ca_xcalloc(S->nclasses + 1, 1);
    for (size_t i = 0; i < S->nfns; i++) {
        const fn_ref *f = &S->fns[i];
        if (!f->f->class_name) continue;
        unsigned add = 0;
        if (f->f->fflags & (FN_RELEASES_SELF | FN_HOLDS_RESOURCE)) add |= ENG_CLASS_OWNS;
        if ((f->f->fflags & FN_CANCEL_RELEASES_SELF) && f->f->name && strcmp(f->f->name, "__anext__") == 0)
            add |= ENG_CLASS_STEP_RELEASES;
        if (f->f->fflags & FN_JOINS_PARAM) add |= ENG_CLASS_JOINS;
        int init = f->f->name && strcmp(f->f->name, "__init__") == 0;
        unsigned char tmp = 0;
        if (init && (f->f->fflags & (FN_HOLDS_FULL | FN_JOINS_PARAM))) add |= ENG_CLASS_INIT_HOLDS;
        if (init && (f->f->fflags & FN_PLAIN_INIT)) add |= ENG_CLASS_PLAIN_INIT;
        if (init && (f->f->fflags & FN_SELF_CALLS)) tmp |= CTOR_CALLS_SELF;
        if (!init && !f->f->is_async && (f->f->fflags & FN_HOLDS_FULL)) tmp |= PLAIN_METHOD_HOLDS;
        if (tmp) {
            const ir_module *m = &S->jobs[f->file].m;
            for (int k = 0; k < m->nclasses; k++)
                if (strcmp(m->classes[k]->qualname, f->f->class_name) == 0) ctor[first[f->file] + (size_t)k] |= tmp;
        }
        if (!add) continue;
        const ir_module *m = &S->jobs[f->file].m;
        for (int k = 0; k < m->nclasses; k++)
            if (strcmp(m->classes[k]->qualname, f->f->class_name) == 0)
                S->classes[first[f->file] + (size_t)k].flags |= add;
    }
    for (size_t c = 0; c < S->nclasses; c++)
        if (ctor[c] == (CTOR_CALLS_SELF | PLAIN_METHOD_HOLDS)) S->classes[c].flags |= ENG_CLASS_INIT_HOLDS;
    free(ctor);
    free(first);
    /* and what its bases do, to a fixed point (inheritance is acyclic in
     * real code; the bound only stops a cycle of names) */
    /* (each name looked up once: the loop below may go round many times) */
    size_t nref = 0;
    for (size_t c = 0; c < S->nclasses; c++) nref += (size_t)S->classes[c].c->nholds + (size_t)S->classes[c].c->nbases;
    const cls_ref **ref = ca_xcalloc(nref + 1, sizeof(*ref));
    uint8_t *plain = ca_xcalloc(nref + 1, 1);
    for (size_t c = 0, at = 0; c < S->nclasses; c++) {
        const cls_ref *r = &S->classes[c];
        for (int h = 0; h < r->c->nholds; h++, at++) ref[at] = scan_find_class(S, &S->jobs[r->file].m, r->c->holds[h]);
        for (int b = 0; b < r->c->nbases; b++, at++) {
            ref[at] = scan_find_class(S, &S->jobs[r->file].m, r->c->bases[b]);
            plain[at] = !ref[at] && scan_plain_base(S, r->c->bases[b]);
        }
    }
    int changed = 1;
    for (int iter = 0; changed && iter < 64; iter++) {
        changed = 0;
        for (size_t c = 0, at = 0; c < S->nclasses; c++) {
            cls_ref *r = &S->classes[c];
            unsigned f = r->flags;
            /* what it releases of its own: owned if what made it is not a
             * class of the tree, or is one that owns something */
            for (int h = 0; h < r->c->nholds; h++, at++) {
                const cls_ref *held = ref[at];
                if (!held || held == r || (held->flags & ENG_CLASS_OWNS)) f |= ENG_CLASS_OWNS;
            }
            for (int b = 0; b < r->c->nbases; b++, at++) {
                const cls_ref *base = ref[at];
                if (base && base != r) {
                    f |= base->flags & (ENG_CLASS_OWNS | ENG_CLASS_DATA | ENG_CLASS_STEP_RELEASES | ENG_CLASS_JOINS |
                                        ENG_CLASS_ENDPOINT | ENG_CLASS_SERVICE | ENG_CLASS_TEST | ENG_CLASS_EVENT |
                                        ENG_CLASS_INIT_HOLDS);
                    if (!(base->flags & ENG_CLASS_KNOWN)) f &= ~ENG_CLASS_KNOWN;
                } else if (!base && !plain[at]) {
                    f &= ~ENG_CLASS_KNOWN;
                }
            }
            if (f != r->flags) {
                r->flags = f;
                changed = 1;
            }
        }
    }
    free(ref);
    free(plain);
}

unsigned scan_class_of(void *ctx, const ir_module *m, const char *name)
{
    file_ctx *fc = ctx;
    if (!name) return 0;
    const cls_ref *r = scan_find_class(fc->S, m, name);
    if (!r || &fc->S->jobs[r->file].m != m) {
        /* looked up across files: the file's reuse depends on the answer */
        ca_sb dep = {0};
        ca_sb_addf(&dep, CLASS_DEP "%s", last_part(name));
        CA_VEC_PUSH(fc->deps, ca_arena_strdup((ca_arena *)&m->arena, ca_sb_str(&dep)));
        ca_sb_release(&dep);
    }
    return r ? r->flags : 0;
}

/* ---- classes defined where the prefilter does not look ------------------ */

#define WANTED_MAX 256   /* module names looked for in one round */
#define FORCED_MAX 256   /* files lowered this way in one scan */

typedef struct wanted_q {
    const scan_state *S;
    const ir_module *m;
    const char *dir;     /* the importing file's directory */
    size_t dir_len;
    CA_VEC(char *) mods; /* "helpers", "agents/run_internal/tool_use_tracker" */
    CA_VEC(char *) dirs; /* the importing file's directory, for a one-part (relative) name */
    CA_VEC(char *) names; /* the class looked for in each */
    CA_VEC(uint8_t) funcs; /* 1: names[i] is a module-level function (run in a worker thread), not a class */
    uint8_t *released;   /* per variable of the function read: released (or handed to cleanup) somewhere */
    int nreleased;
} wanted_q;

static int note_release(void *ctx, const ir_node *n)
{
    wanted_q *q = ctx;
    if (n->kind == IR_RELEASE && n->var >= 0 && n->var < q->nreleased) q->released[n->var] = 1;
    if (n->kind == IR_CALL && (n->flags & (CALL_NAME_RELEASES | CALL_IN_CLEANUP)))
        for (int k = 0; k < n->nvars; k++)
            if (n->vars[k] >= 0 && n->vars[k] < q->nreleased) q->released[n->vars[k]] = 1;
    return 0;
}

/* (a private class, `_RecordBase`, is a class too) */
static int class_like(const char *s)
{
    while (*s == '_') s++;
    return *s >= 'A' && *s <= 'Z';
}

/* Only where the class decides something: a value the function acquired
 * from a constructor call whose resource-ness rests on evidence (a plain
 * call result, a name that sounds like one), not every call of a class. */
/* Records that `name` (dotted; dot its last '.') is looked for in the
 * module its dotted part names, from a file in dir: a class, or with fn a
 * module-level function; once per (module, dir, name, kind). */
/* Records that class (or with fn, module-level function) `name` is looked
 * for in module mod (a path, `a/b`; taken), from a file in dir; once per
 * (module, dir, name, kind). */
static void push_wanted_mod(wanted_q *q, char *mod, const char *dir, const char *name, size_t nlen, int fn)
{
    for (size_t i = 0; i < q->mods.n; i++)
        if (q->funcs.v[i] == fn && strcmp(q->mods.v[i], mod) == 0 && strcmp(q->dirs.v[i], dir) == 0 &&
            strlen(q->names.v[i]) == nlen && strncmp(q->names.v[i], name, nlen) == 0) {
            free(mod);
            return;
        }
    CA_VEC_PUSH(q->mods, mod);
    CA_VEC_PUSH(q->dirs, ca_xstrdup(dir));
    CA_VEC_PUSH(q->names, ca_xstrndup(name, nlen));
    CA_VEC_PUSH(q->funcs, (uint8_t)fn);
}

static void push_wanted(wanted_q *q, const char *name, const char *dot, const char *dir, int fn)
{
    /* the module part, as a path: a.b.C -> a/b */
    char *mod = ca_xstrndup(name, (size_t)(dot - name));
    for (char *p = mod; *p; p++)
        if (*p == '.') *p = '/';
    push_wanted_mod(q, mod, dir, dot + 1, strlen(dot + 1), fn);
}

static void want_class(wanted_q *q, const char *name, const char *dir, int depth);

/* The unknown bases of a known class, each looked for as a class is (a data
 * model's base in a module with no async code: without it the class is not
 * known, and what it owns is not either); their own bases come next round. */
static void want_bases(wanted_q *q, const cls_ref *r, int depth)
{
    if (!r || (r->flags & ENG_CLASS_KNOWN) || depth > 8) return;
    const char *path = q->S->jobs[r->file].df->path;
    const char *slash = strrchr(path, '/');
    char *dir = ca_xstrndup(path, slash ? (size_t)(slash - path) : 0);
    for (int b = 0; b < r->c->nbases; b++) {
        const char *base = r->c->bases[b];
        if (scan_plain_base(q->S, base)) continue;
        const cls_ref *br = scan_find_class(q->S, &q->S->jobs[r->file].m, base);
        if (br && br != r) want_bases(q, br, depth + 1);
        else if (!br) want_class(q, base, dir, depth + 1);
    }
    free(dir);
}

/* Looks for class `name` (dotted, `pkg.mod.Cls`) in a file the prefilter
 * skipped: records its module, unless the tree already knows the class (then
 * its unknown bases). */
static void want_class(wanted_q *q, const char *name, const char *dir, int depth)
{
    if (q->mods.n >= WANTED_MAX) return;
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name || !class_like(dot + 1) || strchr(name, '(')) return;
    const cls_ref *r = scan_find_class(q->S, q->m, name);
    if (r) {
        want_bases(q, r, depth);
        return;
    }
    push_wanted(q, name, dot, dir, 0);
}

/* `await loop.run_in_executor(None, torrents.create_torrent_file, ...)`
 * made a value whose name says it is a resource: the function run, a
 * module-level one of a file the prefilter skipped (`pkg.mod.fn`), is
 * looked for, so that what it returns is known (plain data, or a resource
 * it made). */
static void want_thread_work(wanted_q *q, const ir_node *x)
{
    if (q->mods.n >= WANTED_MAX || !x->ref || !x->ref->text || x->var < 0 ||
        !(x->flags & (EXEC_STRONG | EXEC_HEURISTIC)))
        return;
    const char *name = x->ref->text, *dot = strrchr(name, '.');
    if (!dot || dot == name || class_like(dot + 1) || strchr(name, '(')) return;
    push_wanted(q, name, dot, q->dir, 1);
}

/* Only where the class decides something: a value the function acquired
 * from a constructor call whose resource-ness rests on evidence (a plain
 * call result, a name that sounds like one), not every call of a class.
 * `Cls.model_validate(data)`, a method called on the class, counts as its
 * constructor. */
static int want_call(void *ctx, const ir_node *a)
{
    wanted_q *q = ctx;
    if (a->kind == IR_EXECUTOR) {
        want_thread_work(q, a);
        return 0;
    }
    if (a->kind != IR_ACQUIRE || !(a->flags & (ACQ_WEAK | ACQ_HEURISTIC)) || q->mods.n >= WANTED_MAX) return 0;
    /* ... and that the function releases somewhere (what makes a plain
     * call result a resource): otherwise the class cannot change it */
    if (a->var < 0 || a->var >= q->nreleased || !q->released[a->var]) return 0;
    const ir_node *n = a->ref;
    if (!n || n->kind != IR_CALL || !n->text || strchr(n->text, '(')) return 0;
    const char *dot = strrchr(n->text, '.');
    if (!dot || dot == n->text) {
        /* a class of this module: its unknown bases */
        if (class_like(n->text)) want_bases(q, scan_find_class(q->S, q->m, n->text), 0);
        return 0;
    }
    if (class_like(dot + 1)) {
        want_class(q, n->text, q->dir, 0);
        return 0;
    }
    const char *prev = dot;
    while (prev > n->text && prev[-1] != '.') prev--;
    if (!class_like(prev)) return 0;
    char *cls = ca_xstrndup(n->text, (size_t)(dot - n->text));
    const cls_ref *r = scan_find_class(q->S, q->m, cls);
    if (r) want_bases(q, r, 0);
    else want_class(q, cls, q->dir, 0);
    free(cls);
    return 0;
}

/* Does path name module mod (mod.py or mod/__init__.py at a path
 * boundary)? A one-part name (what a relative import leaves) must lie in
 * the importing file's directory or one above it. */
static int names_module(const char *path, const char *mod, const char *dir)
{
    size_t pl = strlen(path), ml = strlen(mod);
    static const char *const tails[] = {".py", "/__init__.py"};
    for (int t = 0; t < 2; t++) {
        size_t tl = strlen(tails[t]);
        if (pl < ml + tl || strcmp(path + pl - tl, tails[t]) != 0 || strncmp(path + pl - tl - ml, mod, ml) != 0)
            continue;
        size_t start = pl - tl - ml;
        if (start > 0 && path[start - 1] != '/') continue;
        if (strchr(mod, '/')) return 1;
        /* relative: the module's directory is dir or an ancestor of it */
        size_t mdir = start ? start - 1 : 0, dl = strlen(dir);
        if (mdir <= dl && strncmp(dir, path, mdir) == 0 && (mdir == dl || dir[mdir] == '/' || mdir == 0)) return 1;
    }
    return 0;
}

/* Does the file's text hold `class NAME` followed by `(` or `:` (a cheap
 * look before parsing a file only for its class)? With fn, `def NAME(` at
 * the start of a line (a module-level function). */
static int defines_name(const char *path, const char *name, int fn)
{
    char *src = NULL;
    size_t len = 0;
    if (ca_read_file(path, &src, &len) != 0) return 0;
    size_t nl = strlen(name);
    int found = 0;
    const char *kw = fn ? "def " : "class ";
    size_t kl = strlen(kw);
    for (size_t i = 0; !found && i + kl + nl < len; i++) {
        if (memcmp(src + i, kw, kl) != 0 ||
            (fn ? (i > 0 && src[i - 1] != '\n')
                : (i > 0 && src[i - 1] != '\n' && src[i - 1] != ' ' && src[i - 1] != '\t')))
            continue;
        size_t p = i + kl;
        while (p < len && src[p] == ' ') p++;
        if (p + nl < len && memcmp(src + p, name, nl) == 0) {
            size_t e = p + nl;
            while (e < len && src[e] == ' ') e++;
            found = e < len && (src[e] == '(' || (!fn && (src[e] == ':' || src[e] == '[')));
        }
    }
    free(src);
    return found;
}

/* Is the text at p (up to e) the word w? */
static int word_at(const char *p, const char *e, const char *w, size_t wl)
{
    return (size_t)(e - p) == wl && memcmp(p, w, wl) == 0;
}

/* A module the prefilter skipped that names the class looked for without
 * defining it: a package's `__init__.py` re-exporting it, `from ._model
 * import KbRecord` (or `*`). Each module such a `from` line names is looked
 * for in turn (relative to the file's own package; `from pkg.mod import`
 * as a dotted name); not `Orig as KbRecord`, since classes are known by
 * their own names. Returns how many were added. */
static size_t want_reexport(wanted_q *q, const char *path, const char *name, int fn)
{
    char *src = NULL;
    size_t len = 0, added = q->mods.n;
    if (ca_read_file(path, &src, &len) != 0) return 0;
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    size_t nl = strlen(name);
    for (const char *line = src, *end = src + len; line < end && q->mods.n < WANTED_MAX;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol) eol = end;
        const char *p = line;
        line = eol < end ? eol + 1 : end;
        while (p < eol && (*p == ' ' || *p == '\t')) p++;
        if (eol - p < 5 || memcmp(p, "from ", 5) != 0) continue;
        p += 5;
        while (p < eol && *p == ' ') p++;
        const char *ms = p;
        int level = 0;
        while (p < eol && *p == '.') p++, level++;
        const char *rs = p;
        while (p < eol && (*p == '.' || *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                           (*p >= '0' && *p <= '9')))
            p++;
        const char *re = p;
        if (re == rs || p == ms) continue; /* (`from . import x`: a module, not a class) */
        while (p < eol && *p == ' ') p++;
        if (eol - p < 7 || memcmp(p, "import", 6) != 0 || (p[6] != ' ' && p[6] != '(')) continue;
        p += 6;
        while (p < eol && *p == ' ') p++;
        /* the list: to the end of the line, or to `)` across lines */
        const char *ls = p, *le = eol;
        if (p < eol && *p == '(') {
            ls = p + 1;
            const char *close = memchr(ls, ')', (size_t)(end - ls));
            le = close ? close : end;
            const char *nx = memchr(le, '\n', (size_t)(end - le));
            line = nx ? nx + 1 : end;
        }
        /* the name in the list, or `*` */
        int found = 0;
        for (const char *it = ls; it < le && !found;) {
            const char *ie = it;
            while (ie < le && *ie != ',' && *ie != '\n' && *ie != '#') ie++;
            /* (one word: `Orig as name` is not it, classes are looked up
             * by their own name) */
            const char *w0 = NULL;
            size_t w0l = 0;
            int nt = 0;
            for (const char *c = it; c < ie && nt < 2;) {
                while (c < ie && (*c == ' ' || *c == '\t' || *c == '\\' || *c == '\r')) c++;
                const char *ws = c;
                while (c < ie && *c != ' ' && *c != '\t' && *c != '\\' && *c != '\r') c++;
                if (c > ws && nt++ == 0) w0 = ws, w0l = (size_t)(c - ws);
            }
            found = nt == 1 && (word_at(w0, w0 + w0l, name, nl) || word_at(w0, w0 + w0l, "*", 1));
            /* (a comment runs to the end of its line) */
            if (ie < le && *ie == '#') {
                const char *nx = memchr(ie, '\n', (size_t)(le - ie));
                ie = nx ? nx : le;
            }
            it = ie < le ? ie + 1 : le;
        }
        if (!found) continue;
        /* the module as a path: relative to the file's package, a level
         * up per further dot */
        size_t base = dlen;
        for (int k = 1; k < level; k++) {
            while (base > 0 && path[base - 1] != '/') base--;
            if (base > 0) base--;
        }
        if (level > 1 && base == 0) continue;
        ca_sb m = {0};
        if (level && base) ca_sb_addf(&m, "%.*s/", (int)base, path);
        for (const char *c = rs; c < re; c++) ca_sb_addf(&m, "%c", *c == '.' ? '/' : *c);
        char *dir = ca_xstrndup(path, dlen);
        push_wanted_mod(q, ca_xstrdup(ca_sb_str(&m)), dir, name, nl, fn);
        free(dir);
        ca_sb_release(&m);
    }
    free(src);
    return q->mods.n - added;
}

size_t scan_classes_wanted(scan_state *S)
{
    size_t nforced = 0;
    for (size_t i = 0; i < S->njobs; i++) nforced += S->jobs[i].forced != 0;
    S->norder = 0;
    if (nforced >= FORCED_MAX) return 0;
    wanted_q q;
    memset(&q, 0, sizeof(q));
    q.S = S;
    for (size_t i = 0; i < S->njobs && q.mods.n < WANTED_MAX; i++) {
        const file_job *j = &S->jobs[i];
        if (!j->lowered || (j->m.language && strcmp(j->m.language, "python") != 0)) continue;
        q.m = &j->m;
        const char *slash = strrchr(j->df->path, '/');
        q.dir_len = slash ? (size_t)(slash - j->df->path) : 0;
        char *dir = ca_xstrndup(j->df->path, q.dir_len);
        q.dir = dir;
        for (int k = 0; k < j->m.nfuncs; k++) {
            const ir_func *f = j->m.funcs[k];
            q.nreleased = f->nvars;
            q.released = ca_xcalloc((size_t)f->nvars + 1, 1);
            ir_visit(&f->body, note_release, &q);
            ir_visit(&f->body, want_call, &q);
            free(q.released);
        }
        free(dir);
    }
    /* (a module's last name, compared first: most files name none of them;
     * a round for each step of a chain of re-exports) */
    const char **last = NULL;
    for (size_t from = 0, round = 0; from < q.mods.n && nforced < FORCED_MAX && round < 4; round++) {
        size_t to = q.mods.n;
        free(last);
        last = ca_xcalloc(to + 1, sizeof(*last));
        for (size_t k = from; k < to; k++) {
            const char *sl = strrchr(q.mods.v[k], '/');
            last[k] = sl ? sl + 1 : q.mods.v[k];
        }
        for (size_t i = 0; i < S->njobs && nforced < FORCED_MAX; i++) {
            file_job *j = &S->jobs[i];
            if (j->forced || j->rec.status != CA_FILE_SKIPPED || j->lang < 0 || !j->df->language ||
                strcmp(j->df->language, "python") != 0)
                continue;
            /* the file's module name: "b" for .../b.py and .../b/__init__.py */
            const char *path = j->df->path, *base = strrchr(path, '/');
            base = base ? base + 1 : path;
            const char *stem = base;
            size_t sl = strlen(base);
            if (strcmp(base, "__init__.py") == 0 && base > path + 1) {
                const char *e = base - 1;
                stem = e;
                while (stem > path && stem[-1] != '/') stem--;
                sl = (size_t)(e - stem);
            } else if (sl > 3) {
                sl -= 3;
            }
            for (size_t k = from; k < to; k++) {
                if (strlen(last[k]) != sl || strncmp(last[k], stem, sl) != 0 ||
                    !names_module(j->df->path, q.mods.v[k], q.dirs.v[k]))
                    continue;
                /* (a class-like name may be a module function that builds
                 * a record, `def AssistantMsg(...) -> Msg`: what it is
                 * annotated to return says what it makes) */
                if (!defines_name(j->df->path, q.names.v[k], q.funcs.v[k]) &&
                    (q.funcs.v[k] || !defines_name(j->df->path, q.names.v[k], 1))) {
                    want_reexport(&q, j->df->path, q.names.v[k], q.funcs.v[k]);
                    continue;
                }
                j->forced = 1;
                store_file_rec_free(&j->rec);
                memset(&j->rec, 0, sizeof(j->rec));
                S->order[S->norder++] = i;
                nforced++;
                break;
            }
        }
        from = to;
    }
    free(last);
    for (size_t k = 0; k < q.mods.n; k++) {
        free(q.mods.v[k]);
        free(q.dirs.v[k]);
        free(q.names.v[k]);
    }
    CA_VEC_FREE(q.mods);
    CA_VEC_FREE(q.dirs);
    CA_VEC_FREE(q.names);
    CA_VEC_FREE(q.funcs);
    return S->norder;
}
