/*
 * py_frontend.h — the Python frontend: source bytes → tree-sitter tree →
 * ownership IR (ir.h). Knows Python syntax and the catalog; knows nothing
 * of rules.
 *
 * One py_frontend per worker thread (it owns a TSParser). The catalog is
 * shared read-only.
 */
#ifndef CA_PY_FRONTEND_H
#define CA_PY_FRONTEND_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "ir/ir.h"

typedef struct py_frontend py_frontend;

py_frontend *py_frontend_new(const ca_catalog *cat);
void py_frontend_free(py_frontend *fe);

/* Lower src (len bytes; need not be NUL-terminated, may hold NULs) into *m,
 * which the caller zeroed. m->src points at src, which must outlive m.
 * Syntax errors are recovered (counted in m->parse_errors); per-file problems
 * land in m->diagnostic. Returns 0, or -1 when the file could not be parsed
 * at all (m->diagnostic says why). The tree is freed before returning. */
int py_lower(py_frontend *fe, const char *path, const char *src, size_t len, ir_module *m);

#endif
