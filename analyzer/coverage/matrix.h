/*
 * matrix.h — the backend coverage matrix (DESIGN §4): for every boundary
 * (an async method name defined by two or more backends) and backend, is
 * the boundary a gap, covered (and how), free of windows, or absent.
 * Built from per-function facts the scan gathered; stored as coverage rows.
 */
#ifndef CA_MATRIX_H
#define CA_MATRIX_H

#include <stddef.h>

#include "model/model.h"

typedef struct ca_matrix_fn {
    const char *backend, *class_name, *name, *qualname, *path;
    int line;
    int is_async;
    unsigned protections;   /* engine PROT_* bits */
    int had_window;
    const int *callees;     /* indices into the same array */
    int ncallees;
} ca_matrix_fn;

/* Append coverage cells to out->coverage from fns and out->findings
 * (unsuppressed findings count; they must already be filtered by the
 * selected rules). */
void ca_matrix_build(const ca_matrix_fn *fns, size_t n, ca_results *out);

#endif
