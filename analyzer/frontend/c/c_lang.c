/*
 * c_lang.c — the C frontend behind ca_lang (frontend/lang.h): what a scan
 * asks of a .c or .h file.
 *
 * The folder: frontend/c/ lowers C (through libclang) for threads cancelled
 * with pthread_cancel: c_compdb.c reads compile_commands.json, c_libclang.c
 * loads libclang on first use, c_lower.c lowers a translation unit, this
 * file is the ca_lang the scan driver calls.
 *
 * Where it sits: between the scan driver and c_lower.c. The gate: the C rules
 * are about threads that are cancelled, so unless --c-cancel-scope forces
 * it, C files are lowered only when one of them names a thread-cancelling
 * function (c_mentions_cancel, on the bytes the scan read anyway); else
 * every C file is recorded skipped and libclang is never loaded. The
 * prefilter drops headers that cannot define a function body. The compile
 * settings (c_compdb.c) are read when --compile-commands names them (before
 * any file, so a bad one stops the scan), else before the first C file is
 * lowered (prepare). Once lowered, calls are summarised through (a wrapper of a
 * wrapper of sleep() is a cancellation point), and the C rules apply when a
 * lowered file calls pthread_cancel. C files are never reused by rescans.
 */
#include "frontend/c/c_internal.h"

#include <stdlib.h>
#include <string.h>

int c_prefilter(const char *path, const char *src, size_t len)
{
    if (!c_is_header(path)) return 1;
    static const char *const words[] = {"static", "inline"};
    for (int w = 0; w < 2; w++) {
        size_t n = strlen(words[w]);
        for (size_t i = 0; i + n <= len; i++)
            if (src[i] == words[w][0] && memcmp(src + i, words[w], n) == 0) return 1;
    }
    return 0;
}

int c_mentions_cancel(const ca_catalog *cat, const char *src, size_t len)
{
    char word[128];
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)src[i];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            i++;
            continue;
        }
        size_t s = i;
        while (i < len && (src[i] == '_' || (src[i] >= 'a' && src[i] <= 'z') || (src[i] >= 'A' && src[i] <= 'Z') ||
                           (src[i] >= '0' && src[i] <= '9')))
            i++;
        if (i - s >= sizeof(word)) continue;
        memcpy(word, src + s, i - s);
        word[i - s] = 0;
        if (ca_catalog_match(cat, CAT_C_THREAD_CANCEL, word)) return 1;
    }
    return 0;
}

typedef struct c_scan {
    const ca_catalog *cat;
    const char *const *roots;
    size_t nroots;
    const char **files;         /* the C files (the setup's strings) */
    size_t nfiles;
    int cancel_scope;
    int built;
    c_project *proj;            /* NULL when built: defaults only */
} c_scan;

static int c_scan_new(const ca_lang_setup *setup, void **state, char **err)
{
    c_scan *st = ca_xcalloc(1, sizeof(*st));
    st->cat = setup->cat;
    st->roots = setup->roots;
    st->nroots = setup->nroots;
    st->files = ca_xmalloc(sizeof(char *) * (setup->nfiles + 1));
    for (size_t i = 0; i < setup->nfiles; i++) st->files[i] = setup->files[i];
    st->nfiles = setup->nfiles;
    st->cancel_scope = setup->cancel_scope;
    *state = st;
    if (setup->compile_commands) {
        char *e = NULL;
        st->proj = c_project_new(setup->compile_commands, st->roots, st->nroots, st->files, st->nfiles, &e);
        if (!st->proj) {
            if (err) *err = ca_xasprintf("--compile-commands: %s", e ? e : "no compile_commands.json");
            free(e);
            return 2;
        }
        st->built = 1;
    }
    return 0;
}

static void c_scan_free(void *state)
{
    c_scan *st = state;
    if (!st) return;
    c_project_free(st->proj);
    free(st->files);
    free(st);
}

static int c_gate(void *state)
{
    const c_scan *st = state;
    if (st->cancel_scope > 0) return CA_GATE_OPEN;
    if (st->cancel_scope < 0 || !st->cat) return CA_GATE_CLOSED;
    return CA_GATE_ASK;
}

static int c_gate_feed(void *state, const char *src, size_t len)
{
    return c_mentions_cancel(((const c_scan *)state)->cat, src, len);
}

static void c_prepare(void *state)
{
    c_scan *st = state;
    if (st->built) return;
    /* without a named database this cannot fail: one found by looking is used when valid */
    st->proj = c_project_new(NULL, st->roots, st->nroots, st->files, st->nfiles, NULL);
    st->built = 1;
}

/* libclang is loaded by the first c_lower, not here. */
static void *c_worker_new(void *state)
{
    const c_scan *st = state;
    return c_frontend_new(st->cat, st->proj);
}

static void c_worker_free(void *worker) { c_frontend_free(worker); }

static int c_lang_lower(void *worker, const char *path, const char *src, size_t len, ir_module *m)
{
    return c_lower(worker, path, src, len, m);
}

static int c_threads_in_scope(void *state, const ir_module *const *mods, size_t n)
{
    const c_scan *st = state;
    int cancels = 0;
    for (size_t i = 0; i < n; i++) cancels |= mods[i]->cancels_threads;
    return st->cancel_scope > 0 || (st->cancel_scope == 0 && cancels);
}

static const char *const c_exts[] = {".c", ".h", NULL};

const ca_lang c_lang = {
    .name = "c",
    .exts = c_exts,
    .reusable = 0,
    .call_summaries = 1,
    .scan_new = c_scan_new,
    .scan_free = c_scan_free,
    .gate = c_gate,
    .gate_feed = c_gate_feed,
    .prefilter = c_prefilter,
    .guard = NULL,
    .prepare = c_prepare,
    .worker_new = c_worker_new,
    .worker_free = c_worker_free,
    .lower = c_lang_lower,
    .threads_in_scope = c_threads_in_scope,
};
