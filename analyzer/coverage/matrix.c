/*
 * matrix.c — building the coverage matrix (matrix.h).
 *
 * The folder: coverage/ turns per-function facts into the backend ×
 * boundary view (DESIGN §4): family.c finds the families of backends in
 * the class graph (and which method each backend runs for each boundary),
 * backend.c names files by the directory rule (configuration globs,
 * marker files, the file stem) for trees without a family, matrix.c
 * builds the cells. It runs after the rules, inside the scan, and its
 * cells go to the store with the findings.
 *
 * A cell's evidence is the boundary method itself plus the helpers it calls
 * that are the same backend's code (transitively, a few levels): a window
 * in `self._start_session(...)` counts for `open_session`.
 *
 * Cost: each cell touches only the functions that define it and what they
 * reach, through indexes sorted once, never the whole function or finding
 * list; a tree without families has boundaries × backends cells, most of
 * them `absent`.
 */
#include "coverage/matrix.h"

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/util.h"

/* Boundaries are the providers' public interface: private helpers
 * (`_pump`) and dunders are evidence for a cell, never a boundary. */
static int is_private(const char *n) { return n[0] == '_'; }

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* qsort has no context argument; the build runs on one thread. */
static const ca_matrix_fn *sort_fns;
static const ca_finding *sort_findings;

/* Boundary candidates by (name, backend, index). */
static int cmp_cand(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(sort_fns[x].name, sort_fns[y].name);
    if (!c) c = strcmp(sort_fns[x].backend, sort_fns[y].backend);
    return c ? c : (x < y ? -1 : x > y);
}

/* Findings by (path, function, index). */
static int cmp_find(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(sort_findings[x].path, sort_findings[y].path);
    if (!c) c = strcmp(sort_findings[x].function, sort_findings[y].function);
    return c ? c : (x < y ? -1 : x > y);
}

/* What the cells share: marks, the DFS stack, the marked list, and the
 * unsuppressed findings by (path, function). */
typedef struct judge_ctx {
    const ca_matrix_fn *fns;
    size_t n;
    const ca_results *out;
    size_t *fidx;
    size_t nfi;
    unsigned char *mark;
    size_t *stack;
    int *depth;
    size_t *touched;
    size_t ntouched;
    ca_results *dst; /* where the cells go (out, writable) */
    size_t cap;      /* cells allocated in dst->coverage */
} judge_ctx;

/* Code of one backend, or (of none) of one file. */
static int same_owner(const ca_matrix_fn *a, const ca_matrix_fn *b)
{
    if (strcmp(a->backend, b->backend) != 0) return 0;
    return a->backend[0] || strcmp(a->path, b->path) == 0;
}

/* Mark fn and its same-owner callees (depth-limited, iterative). */
static void reach(judge_ctx *J, size_t start)
{
    const ca_matrix_fn *fns = J->fns;
    size_t sp = 0;
    if (!J->mark[start]) J->touched[J->ntouched++] = start;
    J->stack[sp] = start;
    J->depth[sp++] = 0;
    J->mark[start] = 1;
    while (sp) {
        sp--;
        size_t i = J->stack[sp];
        int d = J->depth[sp];
        if (d >= 4) continue;
        for (int k = 0; k < fns[i].ncallees; k++) {
            int c = fns[i].callees[k];
            if (c < 0 || (size_t)c >= J->n || J->mark[c]) continue;
            if (!same_owner(&fns[c], &fns[i])) continue;
            J->mark[c] = 1;
            J->touched[J->ntouched++] = (size_t)c;
            J->stack[sp] = (size_t)c;
            J->depth[sp++] = d + 1;
        }
    }
}

/* The cell of the functions defs[0..ndefs) (a backend's definitions of
 * one boundary; none: absent), status and evidence filled in. */
static void judge(judge_ctx *J, const size_t *defs, size_t ndefs, ca_coverage *cell)
{
    const ca_matrix_fn *fns = J->fns;
    const ca_results *out = J->out;
    if (!ndefs) {
        cell->status = ca_xstrdup("absent");
        cell->rules = ca_xstrdup("");
        cell->protection = ca_xstrdup("");
        cell->lines = ca_xstrdup("");
        return;
    }
    for (size_t k = 0; k < ndefs; k++) reach(J, defs[k]);
    const ca_matrix_fn *first = &fns[defs[0]];
    cell->path = ca_xstrdup(first->path);
    cell->function = ca_xstrdup(first->qualname);
    cell->line = first->line;
    unsigned prot = 0;
    const char *rules[16];
    size_t nr = 0;
    int *glines = ca_xmalloc(sizeof(int) * (out->nfindings + 1));
    size_t ngl = 0;
    int first_gap = 0;
    /* evidence in function order, as the findings were reported */
    qsort(J->touched, J->ntouched, sizeof(size_t), cmp_size);
    for (size_t t = 0; t < J->ntouched; t++) {
        size_t k = J->touched[t];
        prot |= fns[k].protections;
        size_t lo = 0, hi = J->nfi;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            const ca_finding *fd = &out->findings[J->fidx[mid]];
            int c = strcmp(fd->path, fns[k].path);
            if (!c) c = strcmp(fd->function, fns[k].qualname);
            if (c < 0) lo = mid + 1;
            else hi = mid;
        }
        for (; lo < J->nfi; lo++) {
            const ca_finding *fd = &out->findings[J->fidx[lo]];
            if (strcmp(fd->path, fns[k].path) != 0 || strcmp(fd->function, fns[k].qualname) != 0) break;
            int seen = 0;
            for (size_t r = 0; r < nr; r++) seen |= strcmp(rules[r], fd->rule) == 0;
            if (!seen && nr < 16) rules[nr++] = fd->rule;
            glines[ngl++] = fd->line;
            if (!first_gap || fd->line < first_gap) first_gap = fd->line;
        }
    }
    for (size_t t = 0; t < J->ntouched; t++) J->mark[J->touched[t]] = 0;
    J->ntouched = 0;
    qsort(glines, ngl, sizeof(int), cmp_int);
    ca_sb lines = {0};
    for (size_t g = 0; g < ngl; g++) {
        if (g && glines[g] == glines[g - 1]) continue;
        if (lines.len) ca_sb_addc(&lines, ',');
        ca_sb_addf(&lines, "%d", glines[g]);
    }
    free(glines);
    if (nr) {
        qsort(rules, nr, sizeof(char *), cmp_str);
        ca_sb rs = {0};
        for (size_t r = 0; r < nr; r++) {
            if (r) ca_sb_addc(&rs, ',');
            ca_sb_adds(&rs, rules[r]);
        }
        cell->status = ca_xstrdup("gap");
        cell->rules = ca_sb_detach(&rs);
        /* what protection there is, for `matrix --select` views */
        cell->protection = ca_xstrdup(eng_protection_best(prot));
        cell->lines = ca_sb_detach(&lines);
        cell->line = first_gap;
        return;
    }
    ca_sb_release(&lines);
    cell->rules = ca_xstrdup("");
    cell->lines = ca_xstrdup("");
    cell->status = ca_xstrdup(prot ? "covered" : "no-window");
    cell->protection = ca_xstrdup(prot ? eng_protection_best(prot) : "");
}

/* Cells grow by doubling: a family of a hundred backends and two hundred
 * boundaries has tens of thousands of cells, and growing one at a time
 * copies the array that many times (hours under a sanitizer's realloc). */
static void push_cell(judge_ctx *J, const ca_coverage *cell)
{
    ca_results *out = J->dst;
    if (out->ncoverage == J->cap) {
        J->cap = J->cap ? J->cap * 2 : 64;
        out->coverage = ca_xrealloc(out->coverage, sizeof(ca_coverage) * J->cap);
    }
    out->coverage[out->ncoverage++] = *cell;
}

static void family_cells(judge_ctx *J, const ca_matrix_family *f)
{
    for (size_t k = 0; k < f->nboundaries; k++)
        for (size_t b = 0; b < f->nbackends; b++) {
            ca_coverage cell;
            memset(&cell, 0, sizeof(cell));
            cell.family = ca_xstrdup(f->name);
            cell.backend = ca_xstrdup(f->backends[b]);
            cell.boundary = ca_xstrdup(f->boundaries[k]);
            int fi = f->impl[b * f->nboundaries + k];
            size_t def = fi >= 0 && (size_t)fi < J->n ? (size_t)fi : 0;
            judge(J, &def, fi >= 0 && (size_t)fi < J->n, &cell);
            if (fi >= 0 && f->inherited[b * f->nboundaries + k]) {
                /* the judgement of the code it runs stays in the other fields */
                free(cell.status);
                cell.status = ca_xstrdup("inherited");
            }
            push_cell(J, &cell);
        }
}

/* The older rule, for a tree without a family: backends by fns[].backend. */
static void fallback_cells(judge_ctx *J, const char *family)
{
    const ca_matrix_fn *fns = J->fns;
    size_t n = J->n;
    /* boundaries: async method names with two or more backends */
    const char **names = ca_xmalloc(sizeof(char *) * (n + 1));
    size_t nn = 0;
    for (size_t i = 0; i < n; i++)
        if (fns[i].is_async && fns[i].class_name && fns[i].backend[0] && !is_private(fns[i].name))
            names[nn++] = fns[i].name;
    qsort(names, nn, sizeof(char *), cmp_str);
    const char **backends = ca_xmalloc(sizeof(char *) * (n + 1));
    size_t nb = 0;
    for (size_t i = 0; i < n; i++)
        if (fns[i].backend[0]) backends[nb++] = fns[i].backend;
    qsort(backends, nb, sizeof(char *), cmp_str);
    size_t ub = 0;
    for (size_t i = 0; i < nb; i++)
        if (ub == 0 || strcmp(backends[ub - 1], backends[i]) != 0) backends[ub++] = backends[i];

    /* async methods by (name, backend, index): a boundary's definitions are one run */
    size_t *cand = ca_xmalloc(sizeof(size_t) * (n + 1));
    size_t nc = 0;
    for (size_t i = 0; i < n; i++)
        if (fns[i].is_async && fns[i].class_name && fns[i].backend[0]) cand[nc++] = i;
    sort_fns = fns;
    qsort(cand, nc, sizeof(size_t), cmp_cand);

    /* Rows: the backends that define at least one boundary. A module that
     * implements none of the shared interface is no provider, and its row
     * would be all `absent`. */
    unsigned char *row = ca_xcalloc(ub + 1, 1);
    for (int pass = 0; pass < 2; pass++) {
        size_t ci = 0; /* start of the current boundary's run in cand */
        for (size_t i = 0; i < nn;) {
            size_t j = i;
            while (j < nn && strcmp(names[j], names[i]) == 0) j++;
            const char *boundary = names[i];
            i = j;
            while (ci < nc && strcmp(fns[cand[ci]].name, boundary) < 0) ci++;
            size_t ce = ci;
            while (ce < nc && strcmp(fns[cand[ce]].name, boundary) == 0) ce++;
            size_t defined = 0;
            for (size_t k = ci; k < ce; k++)
                if (k == ci || strcmp(fns[cand[k]].backend, fns[cand[k - 1]].backend) != 0) defined++;
            if (defined < 2) {
                ci = ce;
                continue;
            }
            if (pass == 0) {
                for (size_t k = ci; k < ce; k++) {
                    const char *key = fns[cand[k]].backend;
                    const char **hit = bsearch(&key, backends, ub, sizeof(char *), cmp_str);
                    if (hit) row[hit - backends] = 1;
                }
                ci = ce;
                continue;
            }
            size_t bi = ci; /* start of this backend's definitions in the run */
            for (size_t b = 0; b < ub; b++) {
                if (!row[b]) continue; /* defines no boundary: never has a candidate here */
                ca_coverage cell;
                memset(&cell, 0, sizeof(cell));
                cell.family = ca_xstrdup(family);
                cell.backend = ca_xstrdup(backends[b]);
                cell.boundary = ca_xstrdup(boundary);
                while (bi < ce && strcmp(fns[cand[bi]].backend, backends[b]) < 0) bi++;
                size_t be = bi;
                while (be < ce && strcmp(fns[cand[be]].backend, backends[b]) == 0) be++;
                judge(J, cand + bi, be - bi, &cell);
                bi = be;
                push_cell(J, &cell);
            }
            ci = ce;
        }
    }
    free(cand);
    free(names);
    free(backends);
    free(row);
}

void ca_matrix_build(const ca_matrix_fn *fns, size_t n, const ca_matrix_family *fams, size_t nfams,
                     const char *fallback, ca_results *out)
{
    judge_ctx J;
    memset(&J, 0, sizeof(J));
    J.fns = fns;
    J.n = n;
    J.out = out;
    J.dst = out;
    J.cap = out->ncoverage; /* what is there may be allocated exactly */
    /* unsuppressed findings by (path, function, index) */
    J.fidx = ca_xmalloc(sizeof(size_t) * (out->nfindings + 1));
    for (size_t f = 0; f < out->nfindings; f++)
        if (!out->findings[f].suppressed) J.fidx[J.nfi++] = f;
    sort_findings = out->findings;
    qsort(J.fidx, J.nfi, sizeof(size_t), cmp_find);
    J.mark = ca_xcalloc(n + 1, 1);
    J.stack = ca_xmalloc(sizeof(size_t) * (n + 1));
    J.depth = ca_xmalloc(sizeof(int) * (n + 1));
    J.touched = ca_xmalloc(sizeof(size_t) * (n + 1));

    if (nfams)
        for (size_t i = 0; i < nfams; i++) family_cells(&J, &fams[i]);
    else
        fallback_cells(&J, fallback ? fallback : "");

    free(J.mark);
    free(J.stack);
    free(J.depth);
    free(J.touched);
    free(J.fidx);
}
