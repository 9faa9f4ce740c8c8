/*
 * matrix.c — building the coverage matrix (matrix.h).
 *
 * The folder: coverage/ turns per-function facts into the backend ×
 * boundary view (DESIGN §4): backend.c names each file's backend (from
 * configuration globs, marker files or the file stem), matrix.c builds the
 * cells. It runs after the rules, inside the scan, and its cells go to the
 * store with the findings.
 *
 * A cell's evidence is the boundary method itself plus the helpers it calls
 * that belong to the same backend (transitively, a few levels): a window in
 * `self._start_session(...)` counts for `open_session`.
 *
 * Cost: a tree with many backends has boundaries × backends cells, most of
 * them `absent`; each cell touches only the functions that define it and
 * what they reach, through indexes sorted once, never the whole function or
 * finding list.
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

/* Scratch shared by the cells: marks, the DFS stack and the marked list. */
typedef struct reach_buf {
    unsigned char *mark;
    size_t *stack;
    int *depth;
    size_t *touched;
    size_t ntouched;
} reach_buf;

/* Mark fn and its same-backend callees (depth-limited, iterative). */
static void reach(const ca_matrix_fn *fns, size_t n, size_t start, reach_buf *rb)
{
    size_t sp = 0;
    if (!rb->mark[start]) rb->touched[rb->ntouched++] = start;
    rb->stack[sp] = start;
    rb->depth[sp++] = 0;
    rb->mark[start] = 1;
    while (sp) {
        sp--;
        size_t i = rb->stack[sp];
        int d = rb->depth[sp];
        if (d >= 4) continue;
        for (int k = 0; k < fns[i].ncallees; k++) {
            int c = fns[i].callees[k];
            if (c < 0 || (size_t)c >= n || rb->mark[c]) continue;
            if (strcmp(fns[c].backend, fns[i].backend) != 0) continue;
            rb->mark[c] = 1;
            rb->touched[rb->ntouched++] = (size_t)c;
            rb->stack[sp] = (size_t)c;
            rb->depth[sp++] = d + 1;
        }
    }
}

void ca_matrix_build(const ca_matrix_fn *fns, size_t n, ca_results *out)
{
    /* boundaries: async method names with two or more backends */
    const char **names = ca_xmalloc(sizeof(char *) * (n + 1));
    size_t nn = 0;
    for (size_t i = 0; i < n; i++)
        if (fns[i].is_async && fns[i].class_name && !is_private(fns[i].name)) names[nn++] = fns[i].name;
    qsort(names, nn, sizeof(char *), cmp_str);
    const char **backends = ca_xmalloc(sizeof(char *) * (n + 1));
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) backends[nb++] = fns[i].backend;
    qsort(backends, nb, sizeof(char *), cmp_str);
    size_t ub = 0;
    for (size_t i = 0; i < nb; i++)
        if (ub == 0 || strcmp(backends[ub - 1], backends[i]) != 0) backends[ub++] = backends[i];

    /* async methods by (name, backend, index): a boundary's definitions are one run */
    size_t *cand = ca_xmalloc(sizeof(size_t) * (n + 1));
    size_t nc = 0;
    for (size_t i = 0; i < n; i++)
        if (fns[i].is_async && fns[i].class_name) cand[nc++] = i;
    sort_fns = fns;
    qsort(cand, nc, sizeof(size_t), cmp_cand);
    /* unsuppressed findings by (path, function, index) */
    size_t *fidx = ca_xmalloc(sizeof(size_t) * (out->nfindings + 1));
    size_t nfi = 0;
    for (size_t f = 0; f < out->nfindings; f++)
        if (!out->findings[f].suppressed) fidx[nfi++] = f;
    sort_findings = out->findings;
    qsort(fidx, nfi, sizeof(size_t), cmp_find);

    reach_buf rb;
    rb.mark = ca_xcalloc(n + 1, 1);
    rb.stack = ca_xmalloc(sizeof(size_t) * (n + 1));
    rb.depth = ca_xmalloc(sizeof(int) * (n + 1));
    rb.touched = ca_xmalloc(sizeof(size_t) * (n + 1));
    rb.ntouched = 0;

    /* Rows: the backends that define at least one boundary. A module that
     * implements none of the shared interface is no provider, and its row
     * would be all `absent`. */
    unsigned char *row = ca_xcalloc(ub + 1, 1);
    for (size_t i = 0, ci0 = 0; i < nn;) {
        size_t j = i;
        while (j < nn && strcmp(names[j], names[i]) == 0) j++;
        const char *boundary = names[i];
        i = j;
        while (ci0 < nc && strcmp(fns[cand[ci0]].name, boundary) < 0) ci0++;
        size_t ce = ci0;
        while (ce < nc && strcmp(fns[cand[ce]].name, boundary) == 0) ce++;
        size_t defined = 0;
        for (size_t k = ci0; k < ce; k++)
            if (k == ci0 || strcmp(fns[cand[k]].backend, fns[cand[k - 1]].backend) != 0) defined++;
        if (defined >= 2) {
            for (size_t k = ci0; k < ce; k++) {
                const char *key = fns[cand[k]].backend;
                const char **hit = bsearch(&key, backends, ub, sizeof(char *), cmp_str);
                if (hit) row[hit - backends] = 1;
            }
        }
        ci0 = ce;
    }

    size_t ci = 0; /* start of the current boundary's run in cand */
    for (size_t i = 0; i < nn;) {
        size_t j = i;
        while (j < nn && strcmp(names[j], names[i]) == 0) j++;
        const char *boundary = names[i];
        i = j;
        while (ci < nc && strcmp(fns[cand[ci]].name, boundary) < 0) ci++;
        size_t ce = ci;
        while (ce < nc && strcmp(fns[cand[ce]].name, boundary) == 0) ce++;
        /* how many backends define it? */
        size_t defined = 0;
        for (size_t k = ci; k < ce; k++)
            if (k == ci || strcmp(fns[cand[k]].backend, fns[cand[k - 1]].backend) != 0) defined++;
        if (defined < 2) continue;
        size_t bi = ci; /* start of this backend's definitions in the run */
        for (size_t b = 0; b < ub; b++) {
            if (!row[b]) continue; /* defines no boundary: never has a candidate here */
            ca_coverage cell;
            memset(&cell, 0, sizeof(cell));
            cell.backend = ca_xstrdup(backends[b]);
            cell.boundary = ca_xstrdup(boundary);
            while (bi < ce && strcmp(fns[cand[bi]].backend, backends[b]) < 0) bi++;
            size_t be = bi;
            while (be < ce && strcmp(fns[cand[be]].backend, backends[b]) == 0) be++;
            const ca_matrix_fn *first = bi < be ? &fns[cand[bi]] : NULL;
            for (size_t k = bi; k < be; k++) reach(fns, n, cand[k], &rb);
            bi = be;
            if (!first) {
                cell.status = ca_xstrdup("absent");
                cell.rules = ca_xstrdup("");
                cell.protection = ca_xstrdup("");
                cell.lines = ca_xstrdup("");
            } else {
                cell.path = ca_xstrdup(first->path);
                cell.function = ca_xstrdup(first->qualname);
                cell.line = first->line;
                unsigned prot = 0;
                const char *rules[16];
                size_t nr = 0;
                int *glines = ca_xmalloc(sizeof(int) * (out->nfindings + 1));
                size_t ngl = 0;
                int first_gap = 0;
                /* evidence in function order, as the findings were reported */
                qsort(rb.touched, rb.ntouched, sizeof(size_t), cmp_size);
                for (size_t t = 0; t < rb.ntouched; t++) {
                    size_t k = rb.touched[t];
                    prot |= fns[k].protections;
                    size_t lo = 0, hi = nfi;
                    while (lo < hi) {
                        size_t mid = (lo + hi) / 2;
                        const ca_finding *fd = &out->findings[fidx[mid]];
                        int c = strcmp(fd->path, fns[k].path);
                        if (!c) c = strcmp(fd->function, fns[k].qualname);
                        if (c < 0) lo = mid + 1;
                        else hi = mid;
                    }
                    for (; lo < nfi; lo++) {
                        const ca_finding *fd = &out->findings[fidx[lo]];
                        if (strcmp(fd->path, fns[k].path) != 0 || strcmp(fd->function, fns[k].qualname) != 0) break;
                        int seen = 0;
                        for (size_t r = 0; r < nr; r++) seen |= strcmp(rules[r], fd->rule) == 0;
                        if (!seen && nr < 16) rules[nr++] = fd->rule;
                        glines[ngl++] = fd->line;
                        if (!first_gap || fd->line < first_gap) first_gap = fd->line;
                    }
                }
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
                    cell.status = ca_xstrdup("gap");
                    cell.rules = ca_sb_detach(&rs);
                    /* what protection there is, for `matrix --select` views */
                    cell.protection = ca_xstrdup(eng_protection_best(prot));
                    cell.lines = ca_sb_detach(&lines);
                    cell.line = first_gap;
                } else {
                    ca_sb_release(&lines);
                    cell.rules = ca_xstrdup("");
                    cell.lines = ca_xstrdup("");
                    if (prot) {
                        cell.status = ca_xstrdup("covered");
                        cell.protection = ca_xstrdup(eng_protection_best(prot));
                    } else {
                        cell.status = ca_xstrdup("no-window");
                        cell.protection = ca_xstrdup("");
                    }
                }
            }
            for (size_t t = 0; t < rb.ntouched; t++) rb.mark[rb.touched[t]] = 0;
            rb.ntouched = 0;
            out->coverage = ca_xrealloc(out->coverage, sizeof(ca_coverage) * (out->ncoverage + 1));
            out->coverage[out->ncoverage++] = cell;
        }
    }
    free(rb.mark);
    free(rb.stack);
    free(rb.depth);
    free(rb.touched);
    free(cand);
    free(fidx);
    free(names);
    free(backends);
    free(row);
}
