/*
 * py_frontend.h — the Python frontend: source bytes → tree-sitter tree →
 * ownership IR (ir.h). Knows Python syntax and the catalog; knows nothing
 * of rules.
 *
 * One py_frontend per worker thread (it owns a TSParser). The catalog is
 * shared read-only.
 *
 * The folder: py_frontend.c lowers a parsed file, py_tree.c flattens the
 * tree-sitter tree it reads, py_precheck.c holds the byte checks made
 * before parsing, and py_lang.c puts it all behind ca_lang (py_lang below),
 * which is how a scan reaches Python.
 */
#ifndef CA_PY_FRONTEND_H
#define CA_PY_FRONTEND_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "frontend/lang.h"
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

/* Python behind the language interface (py_lang.c). */
extern const ca_lang py_lang;

#endif
