/*
 * matrix.c — building the coverage matrix (matrix.h).
 *
 * A cell's evidence is the boundary method itself plus the helpers it calls
 * that belong to the same backend (transitively, a few levels): a window in
 * `self._start_session(...)` counts for `open_session`.
 */
#include "matrix.h"

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "util.h"

static int is_dunder(const char *n) { return strncmp(n, "__", 2) == 0 && strlen(n) > 4; }

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Mark fn and its same-backend callees (depth-limited, iterative). */
static void reach(const ca_matrix_fn *fns, size_t n, size_t start, unsigned char *mark)
{
    size_t *stack = ca_xmalloc(sizeof(size_t) * (n + 1));
    int *depth = ca_xmalloc(sizeof(int) * (n + 1));
    size_t sp = 0;
    stack[sp] = start;
    depth[sp++] = 0;
    mark[start] = 1;
    while (sp) {
        sp--;
        size_t i = stack[sp];
        int d = depth[sp];
        if (d >= 4) continue;
        for (int k = 0; k < fns[i].ncallees; k++) {
            int c = fns[i].callees[k];
            if (c < 0 || (size_t)c >= n || mark[c]) continue;
            if (strcmp(fns[c].backend, fns[i].backend) != 0) continue;
            mark[c] = 1;
            stack[sp] = (size_t)c;
            depth[sp++] = d + 1;
        }
    }
    free(stack);
    free(depth);
}

void ca_matrix_build(const ca_matrix_fn *fns, size_t n, ca_results *out)
{
    /* boundaries: async method names with two or more backends */
    const char **names = ca_xmalloc(sizeof(char *) * (n + 1));
    size_t nn = 0;
    for (size_t i = 0; i < n; i++)
        if (fns[i].is_async && fns[i].class_name && !is_dunder(fns[i].name)) names[nn++] = fns[i].name;
    qsort(names, nn, sizeof(char *), cmp_str);
    const char **backends = ca_xmalloc(sizeof(char *) * (n + 1));
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) backends[nb++] = fns[i].backend;
    qsort(backends, nb, sizeof(char *), cmp_str);
    size_t ub = 0;
    for (size_t i = 0; i < nb; i++)
        if (ub == 0 || strcmp(backends[ub - 1], backends[i]) != 0) backends[ub++] = backends[i];
    unsigned char *mark = ca_xmalloc(n + 1);
    for (size_t i = 0; i < nn;) {
        size_t j = i;
        while (j < nn && strcmp(names[j], names[i]) == 0) j++;
        const char *boundary = names[i];
        i = j;
        /* how many backends define it? */
        size_t defined = 0;
        for (size_t b = 0; b < ub; b++) {
            for (size_t k = 0; k < n; k++)
                if (fns[k].is_async && fns[k].class_name && strcmp(fns[k].name, boundary) == 0 &&
                    strcmp(fns[k].backend, backends[b]) == 0) {
                    defined++;
                    break;
                }
        }
        if (defined < 2) continue;
        for (size_t b = 0; b < ub; b++) {
            ca_coverage cell;
            memset(&cell, 0, sizeof(cell));
            cell.backend = ca_xstrdup(backends[b]);
            cell.boundary = ca_xstrdup(boundary);
            memset(mark, 0, n + 1);
            const ca_matrix_fn *first = NULL;
            for (size_t k = 0; k < n; k++)
                if (fns[k].is_async && fns[k].class_name && strcmp(fns[k].name, boundary) == 0 &&
                    strcmp(fns[k].backend, backends[b]) == 0) {
                    if (!first) first = &fns[k];
                    reach(fns, n, k, mark);
                }
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
                int window = 0;
                const char *rules[16];
                size_t nr = 0;
                ca_sb lines = {0};
                int first_gap = 0;
                for (size_t k = 0; k < n; k++) {
                    if (!mark[k]) continue;
                    prot |= fns[k].protections;
                    window |= fns[k].had_window;
                    for (size_t f = 0; f < out->nfindings; f++) {
                        const ca_finding *fd = &out->findings[f];
                        if (fd->suppressed || strcmp(fd->path, fns[k].path) != 0 ||
                            strcmp(fd->function, fns[k].qualname) != 0)
                            continue;
                        int seen = 0;
                        for (size_t r = 0; r < nr; r++) seen |= strcmp(rules[r], fd->rule) == 0;
                        if (!seen && nr < 16) rules[nr++] = fd->rule;
                        if (lines.len) ca_sb_addc(&lines, ',');
                        ca_sb_addf(&lines, "%d", fd->line);
                        if (!first_gap || fd->line < first_gap) first_gap = fd->line;
                    }
                }
                if (nr) {
                    qsort(rules, nr, sizeof(char *), cmp_str);
                    ca_sb rs = {0};
                    for (size_t r = 0; r < nr; r++) {
                        if (r) ca_sb_addc(&rs, ',');
                        ca_sb_adds(&rs, rules[r]);
                    }
                    cell.status = ca_xstrdup("gap");
                    cell.rules = ca_sb_detach(&rs);
                    cell.protection = ca_xstrdup("");
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
                    (void)window;
                }
            }
            out->coverage = ca_xrealloc(out->coverage, sizeof(ca_coverage) * (out->ncoverage + 1));
            out->coverage[out->ncoverage++] = cell;
        }
    }
    free(mark);
    free(names);
    free(backends);
}
