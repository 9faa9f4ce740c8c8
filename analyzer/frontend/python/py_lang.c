/*
 * py_lang.c — the Python frontend behind ca_lang (frontend/lang.h): what a
 * scan asks of a .py file.
 *
 * Where it sits: between the scan driver and py_frontend.c. The byte checks
 * are py_precheck.c's (prefilter: the file defines a coroutine; guard: its
 * brackets nest shallowly enough for tree-sitter); lowering is py_lower,
 * one parser per worker; and the file's diagnostic says where the syntax
 * errors begin. Python files are reused by rescans, have no scan-wide gate
 * and need no summaries through calls.
 */
#include "frontend/python/py_frontend.h"

#include <stdlib.h>

#include "frontend/python/py_precheck.h"

typedef struct py_scan {
    const ca_catalog *cat;
} py_scan;

static int py_scan_new(const ca_lang_setup *setup, void **state, char **err)
{
    (void)err;
    py_scan *st = ca_xcalloc(1, sizeof(*st));
    st->cat = setup->cat;
    *state = st;
    return 0;
}

static void py_scan_free(void *state) { free(state); }

static int py_prefilter(const char *path, const char *src, size_t len)
{
    (void)path;
    return py_prefilter_async(src, len);
}

static char *py_guard(const char *src, size_t len)
{
    if (py_bracket_depth(src, len, PY_MAX_BRACKET_DEPTH) <= PY_MAX_BRACKET_DEPTH) return NULL;
    return ca_xasprintf("brackets nested deeper than %d levels; not parsed", PY_MAX_BRACKET_DEPTH);
}

static void *py_worker_new(void *state) { return py_frontend_new(((const py_scan *)state)->cat); }

static void py_worker_free(void *worker) { py_frontend_free(worker); }

/* py_lower, and a file with syntax errors says where they begin (and what
 * else py_lower had to say). */
static int py_lang_lower(void *worker, const char *path, const char *src, size_t len, ir_module *m)
{
    int rc = py_lower(worker, path, src, len, m);
    if (rc == 0 && m->parse_errors) {
        char *msg = ca_xasprintf("syntax error at line %d (%d error node%s); analysed where it parsed%s%s",
                                 m->first_error_line, m->parse_errors, m->parse_errors == 1 ? "" : "s",
                                 m->diagnostic ? "; " : "", m->diagnostic ? m->diagnostic : "");
        free(m->diagnostic);
        m->diagnostic = msg;
    }
    return rc;
}

static const char *const py_exts[] = {".py", NULL};

const ca_lang py_lang = {
    .name = "python",
    .exts = py_exts,
    .reusable = 1,
    .call_summaries = 1,
    .await_summaries = 1,
    .scan_new = py_scan_new,
    .scan_free = py_scan_free,
    .gate = NULL,
    .gate_feed = NULL,
    .prefilter = py_prefilter,
    .guard = py_guard,
    .prepare = NULL,
    .worker_new = py_worker_new,
    .worker_free = py_worker_free,
    .lower = py_lang_lower,
    .threads_in_scope = NULL,
};
