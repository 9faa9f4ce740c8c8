/*
 * matrix.h — the backend coverage matrix (DESIGN §4): per family
 * (family.h), for every boundary and backend, is the boundary a gap,
 * covered (and how), free of windows, inherited from another class, or
 * absent. Built from per-function facts the scan gathered; stored as
 * coverage rows, each naming its family.
 */
#ifndef CA_MATRIX_H
#define CA_MATRIX_H

#include <stddef.h>

#include "model/model.h"

typedef struct ca_matrix_fn {
    const char *backend;    /* whose code it is ("" none: then its file groups it) */
    const char *class_name, *name, *qualname, *path;
    int line;
    int is_async;
    unsigned protections;   /* engine PROT_* bits */
    int had_window;
    const int *callees;     /* indices into the same array */
    int ncallees;
} ca_matrix_fn;

/* One family's grid: the function each backend runs for each boundary. */
typedef struct ca_matrix_family {
    const char *name;
    const char *const *backends;
    size_t nbackends;
    const char *const *boundaries;
    size_t nboundaries;
    const int *impl;                  /* [backend * nboundaries + boundary]: index into fns, -1 absent */
    const unsigned char *inherited;   /* same shape: the function is another class's */
} ca_matrix_family;

/* Append coverage cells to out->coverage from fns and out->findings
 * (unsuppressed findings count; they must already be filtered by the
 * selected rules): one per (backend, boundary) of each family. A cell's
 * evidence is its function and the functions it calls that are the same
 * backend's code (transitively, a few levels), or, for code of no backend,
 * the same file's. An inherited cell has status "inherited" and the rules,
 * lines and protection its (inherited) code shows.
 * With no family (nfams 0) the older rule makes one grid named fallback:
 * the boundaries are the public async methods that two or more backends
 * (fns[].backend, "" none) define, and the rows the backends that define
 * one. */
void ca_matrix_build(const ca_matrix_fn *fns, size_t n, const ca_matrix_family *fams, size_t nfams,
                     const char *fallback, ca_results *out);

#endif
