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
    return several ? NULL : hit;
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
    for (size_t i = 0; i < S->njobs; i++)
        for (int k = 0; k < S->jobs[i].m.nclasses; k++) {
            cls_ref *r = &S->classes[S->nclasses];
            r->c = S->jobs[i].m.classes[k];
            r->file = (int)i;
            r->flags = ENG_CLASS_KNOWN | ((r->c->flags & CLASS_DATA) ? ENG_CLASS_DATA : 0);
            S->cls_by_name[S->nclasses] = S->nclasses;
            S->nclasses++;
        }
    sort_ctx = S;
    qsort(S->cls_by_name, S->nclasses, sizeof(size_t), cmp_cls);
    /* what its own methods do */
    for (size_t i = 0; i < S->nfns; i++) {
        const fn_ref *f = &S->fns[i];
        if (!f->f->class_name || !(f->f->fflags & (FN_RELEASES_SELF | FN_HOLDS_RESOURCE))) continue;
        const ir_module *m = &S->jobs[f->file].m;
        for (int k = 0; k < m->nclasses; k++)
            if (strcmp(m->classes[k]->qualname, f->f->class_name) == 0) {
                for (size_t c = 0; c < S->nclasses; c++)
                    if (S->classes[c].c == m->classes[k]) S->classes[c].flags |= ENG_CLASS_OWNS;
            }
    }
    /* and what its bases do, to a fixed point (inheritance is acyclic in
     * real code; the bound only stops a cycle of names) */
    int changed = 1;
    for (int iter = 0; changed && iter < 64; iter++) {
        changed = 0;
        for (size_t c = 0; c < S->nclasses; c++) {
            cls_ref *r = &S->classes[c];
            unsigned f = r->flags;
            for (int b = 0; b < r->c->nbases; b++) {
                const cls_ref *base = scan_find_class(S, &S->jobs[r->file].m, r->c->bases[b]);
                if (base && base != r) {
                    f |= base->flags & (ENG_CLASS_OWNS | ENG_CLASS_DATA);
                    if (!(base->flags & ENG_CLASS_KNOWN)) f &= ~ENG_CLASS_KNOWN;
                } else if (!base && !scan_plain_base(S, r->c->bases[b])) {
                    f &= ~ENG_CLASS_KNOWN;
                }
            }
            if (f != r->flags) {
                r->flags = f;
                changed = 1;
            }
        }
    }
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
