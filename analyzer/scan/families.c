/*
 * families.c — the scan's backend families (coverage/family.h) from its
 * class table: the classes of every module (lowered or reused) with their
 * bases resolved as classes.c resolves them, the methods of each from the
 * function table, and the directory rule's name of each file. Then, per
 * function, whose backend its code is (a member class's, else its file's
 * or directory's one backend), the grids the matrix draws, and the
 * families as the results keep them. Part of the scan driver: phase 4
 * (collect.c).
 *
 * Without a family in the tree the older rule names the backends: the
 * directory rule of each file (backend.h), or with configured globs the
 * glob's name and nothing for the other files.
 */
#include "scan/scan_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/family.h"
#include "coverage/matrix.h"

/* The class whose code a function is, by its qualname: its class_name
 * when given, else the class whose qualname is the longest that starts the
 * function's (`C.m.<locals>.f` is C's code). -1 for module-level code.
 * The classes of a job are contiguous in S->classes (classes.c adds them
 * job by job). */
int scan_families_class_of(const scan_state *S, int file, const char *qualname, const char *class_name)
{
    size_t lo = 0, hi = S->nclasses;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (S->classes[mid].file < file) lo = mid + 1;
        else hi = mid;
    }
    int best = -1;
    size_t best_len = 0;
    for (; lo < S->nclasses && S->classes[lo].file == file; lo++) {
        const char *q = S->classes[lo].c->qualname;
        size_t n = strlen(q);
        if (class_name && strcmp(q, class_name) == 0) return (int)lo;
        if (n > best_len && strncmp(qualname, q, n) == 0 && qualname[n] == '.') {
            best = (int)lo;
            best_len = n;
        }
    }
    return best;
}

/* A function defined directly in its class's body. */
static int is_method_of(const ir_func *f, const char *cq)
{
    size_t n = strlen(cq);
    return f->class_name && strncmp(f->qualname, cq, n) == 0 && f->qualname[n] == '.' &&
           strcmp(f->qualname + n + 1, f->name) == 0;
}

void scan_families_build(scan_state *S, scan_families *F)
{
    memset(F, 0, sizeof(*F));
    int configured = ca_backend_has_maps(S->backends);
    F->configured = configured;
    F->njobs = S->njobs;
    F->dir_name = ca_xcalloc(S->njobs + 1, sizeof(char *));
    for (size_t i = 0; i < S->njobs; i++) F->dir_name[i] = ca_xstrdup(S->jobs[i].rec.backend ? S->jobs[i].rec.backend : "");
    F->classes = ca_xcalloc(S->nclasses + 1, sizeof(ca_fam_class));
    F->bases = ca_xcalloc(S->nclasses + 1, sizeof(int *));
    F->nclasses = S->nclasses;
    for (size_t k = 0; k < S->nclasses; k++) {
        const cls_ref *r = &S->classes[k];
        const file_job *j = &S->jobs[r->file];
        ca_fam_class *c = &F->classes[k];
        c->name = r->c->name;
        c->qualname = r->c->qualname;
        c->path = j->df->path;
        c->line = r->c->site.line;
        c->flags = r->c->flags;
        c->dir_name = F->dir_name[r->file];
        c->config_name = configured ? ca_backend_configured(S->backends, j->df->path) : NULL;
        int *bases = ca_xmalloc(sizeof(int) * ((size_t)r->c->nbases + 1));
        for (int b = 0; b < r->c->nbases; b++) {
            const cls_ref *base = scan_find_class(S, &j->m, r->c->bases[b]);
            if (base && base != r) bases[c->nbases++] = (int)(base - S->classes);
            else if (base || !scan_plain_base(S, r->c->bases[b])) c->library_base = 1;
        }
        c->bases = bases;
        F->bases[k] = bases;
    }
    F->fn_class = ca_xmalloc(sizeof(int) * (S->nfns + 1));
    F->methods = ca_xcalloc(S->nfns + 1, sizeof(ca_fam_method));
    for (size_t i = 0; i < S->nfns; i++) {
        const fn_ref *r = &S->fns[i];
        int cls = scan_families_class_of(S, r->file, r->f->qualname, r->f->class_name);
        F->fn_class[i] = cls;
        if (cls < 0 || !is_method_of(r->f, S->classes[cls].c->qualname)) continue;
        ca_fam_method *m = &F->methods[F->nmethods++];
        m->cls = cls;
        m->name = r->f->name;
        m->is_async = r->f->is_async;
        m->fflags = r->f->fflags;
        m->id = (int)i;
    }
    ca_families_find(F->classes, F->nclasses, F->methods, F->nmethods, configured, &F->set);
    char hex[17];
    ca_hash_hex(ca_families_digest(F->classes, F->nclasses, F->methods, F->nmethods, configured), hex);
    F->digest = ca_xasprintf("c1 %s", hex);
}

const char *scan_families_owner(const scan_state *S, const scan_families *F, int cls, int file)
{
    const char *path = S->jobs[file].df->path;
    if (F->set.n) {
        /* a member class's backend, else the file's answer: both the same
         * for every function asked about, so made once (the question is
         * asked per function and per finding, the set is large) */
        scan_families *M = (scan_families *)F;
        if (!M->cls_owner) {
            M->cls_owner = ca_xcalloc(F->nclasses + 1, sizeof(char *));
            for (size_t i = F->set.n; i-- > 0;) /* the first family's member wins, as in ca_families_owner */
                for (size_t k = F->set.v[i].nbackends; k-- > 0;) {
                    int c = F->set.v[i].members[k].cls;
                    if (c >= 0 && (size_t)c < F->nclasses) M->cls_owner[c] = F->set.v[i].members[k].backend;
                }
            M->file_owner = ca_xcalloc(F->njobs + 1, sizeof(char *));
            M->file_known = ca_xcalloc(F->njobs + 1, 1);
        }
        if (cls >= 0 && (size_t)cls < F->nclasses && M->cls_owner[cls]) return M->cls_owner[cls];
        if (file >= 0 && (size_t)file < F->njobs) {
            if (!M->file_known[file]) {
                if (!M->owner_index) M->owner_index = ca_families_owner_index(&F->set, F->classes, F->nclasses);
                M->file_owner[file] = ca_families_owner_of_file(M->owner_index, path, F->dir_name[file]);
                M->file_known[file] = 1;
            }
            return M->file_owner[file] ? M->file_owner[file] : "";
        }
        const char *b = ca_families_owner(&F->set, F->classes, F->nclasses, cls, path, F->dir_name[file]);
        return b ? b : "";
    }
    if (F->configured) {
        const char *b = ca_backend_configured(S->backends, path);
        return b ? b : "";
    }
    return F->dir_name[file];
}

void scan_families_grids(const scan_families *F, ca_matrix_family **out, size_t *n)
{
    *n = F->set.n;
    *out = ca_xcalloc(F->set.n + 1, sizeof(ca_matrix_family));
    for (size_t i = 0; i < F->set.n; i++) {
        const ca_fam *f = &F->set.v[i];
        ca_matrix_family *g = &(*out)[i];
        const char **names = ca_xmalloc(sizeof(char *) * (f->nbackends + 1));
        for (size_t b = 0; b < f->nbackends; b++) names[b] = f->members[b].backend;
        g->name = f->name;
        g->backends = names;
        g->nbackends = f->nbackends;
        g->boundaries = (const char *const *)f->boundaries;
        g->nboundaries = f->nboundaries;
        g->impl = f->impl;
        g->inherited = f->inherited;
    }
}

void scan_families_grids_free(ca_matrix_family *g, size_t n)
{
    for (size_t i = 0; i < n; i++) free((void *)g[i].backends);
    free(g);
}

static char *dup_or_null(const char *s) { return s ? ca_xstrdup(s) : NULL; }

void scan_families_results(const scan_families *F, const char *fallback, ca_results *out)
{
    if (F->set.n) {
        out->families = ca_xcalloc(F->set.n + 1, sizeof(ca_family));
        for (size_t i = 0; i < F->set.n; i++) {
            const ca_fam *f = &F->set.v[i];
            ca_family *r = &out->families[out->nfamilies++];
            r->name = ca_xstrdup(f->name);
            r->kind = ca_xstrdup(ca_fam_kind_name(f->kind));
            if (f->base >= 0) {
                const ca_fam_class *b = &F->classes[f->base];
                r->base = ca_xstrdup(b->qualname);
                r->path = dup_or_null(b->path);
                r->line = b->line;
            }
            r->members = ca_xcalloc(f->nmembers + 1, sizeof(ca_family_member));
            for (size_t k = 0; k < f->nmembers; k++) {
                const ca_fam_member *m = &f->members[k];
                const ca_fam_class *c = &F->classes[m->cls];
                ca_family_member *o = &r->members[r->nmembers++];
                o->backend = dup_or_null(m->backend);
                o->class_name = ca_xstrdup(c->qualname);
                o->path = dup_or_null(c->path);
                o->line = c->line;
                o->role = ca_xstrdup(ca_fam_role_name(m->role));
            }
        }
        return;
    }
    /* the older rule: one family, its backends those with a row */
    CA_VEC(const char *) rows = {0};
    for (size_t i = 0; i < out->ncoverage; i++) {
        const char *b = out->coverage[i].backend;
        int seen = 0;
        for (size_t k = 0; k < rows.n && !seen; k++) seen = strcmp(rows.v[k], b) == 0;
        if (!seen) CA_VEC_PUSH(rows, b);
    }
    if (!rows.n) return;
    for (size_t i = 1; i < rows.n; i++)
        for (size_t k = i; k > 0 && strcmp(rows.v[k - 1], rows.v[k]) > 0; k--) {
            const char *t = rows.v[k];
            rows.v[k] = rows.v[k - 1];
            rows.v[k - 1] = t;
        }
    out->families = ca_xcalloc(2, sizeof(ca_family));
    ca_family *r = &out->families[out->nfamilies++];
    r->name = ca_xstrdup(fallback);
    r->kind = ca_xstrdup(F->configured ? "configured" : "directory");
    r->members = ca_xcalloc(rows.n + 1, sizeof(ca_family_member));
    for (size_t k = 0; k < rows.n; k++) {
        ca_family_member *o = &r->members[r->nmembers++];
        o->backend = ca_xstrdup(rows.v[k]);
        o->role = ca_xstrdup("backend");
    }
    CA_VEC_FREE(rows);
}

void scan_families_free(scan_families *F)
{
    for (size_t k = 0; k < F->nclasses; k++) free(F->bases[k]);
    free(F->bases);
    free(F->classes);
    free(F->methods);
    free(F->fn_class);
    free(F->digest);
    for (size_t i = 0; i < F->njobs; i++) free(F->dir_name[i]);
    free(F->dir_name);
    ca_fam_set_free(&F->set);
    free(F->cls_owner);
    free(F->file_owner);
    free(F->file_known);
    ca_families_owner_index_free(F->owner_index);
    memset(F, 0, sizeof(*F));
}
