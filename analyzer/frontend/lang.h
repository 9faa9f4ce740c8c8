/*
 * lang.h — the languages a scan reads, each behind one interface (ca_lang),
 * and the registry that lists them. Discovery tags files by the suffixes
 * here; the scan driver (scan/) calls the hooks and never asks which
 * language a file is in.
 *
 * Where it sits: discover → **parse → lower** → rules. For every file the
 * driver reads the bytes once and hands them to the hooks in this order:
 *
 *   gate       scan-wide: can any file of the language matter in this
 *              scan? (C: only when some C file names pthread_cancel.)
 *   prefilter  can this file matter? (Python: it defines a coroutine.)
 *   guard      is it safe to parse?
 *   lower      the bytes → the file's ir_module (after prepare, once
 *              per language and scan, when the first file is to be
 *              lowered).
 *
 * The driver then summarises each function (the engine's eng_summarize),
 * links calls across files, and asks the languages what they learned from
 * their modules (call_summaries, threads_in_scope). A language's state for
 * the scan (scan_new, then prepare) is made on one thread and only read
 * while files are lowered; a worker's (worker_new) is its own. What lower
 * produces is the module and nothing else, written to no shared state, so
 * the scan runs it in worker processes (scan/contain.h: a crash costs one
 * file): the module, encoded, is all the scan needs back; it computes the
 * summaries itself. prepare then runs in the process that forks those
 * workers, and worker_new in each of them.
 */
#ifndef CA_LANG_H
#define CA_LANG_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "ir/ir.h"

/* What a language's state for one scan is made from (ca_lang.scan_new).
 * Everything is the caller's and outlives the state. */
typedef struct ca_lang_setup {
    const ca_catalog *cat;
    const char *const *roots;      /* the paths the scan was given, as given */
    size_t nroots;
    const char *const *files;      /* the language's files, in discovery order, those without a diagnostic */
    size_t nfiles;
    /* options only some languages read */
    const char *compile_commands;  /* C: a directory whose compile_commands.json applies to every file */
    int cancel_scope;              /* C: the C rules apply 0 when the code calls pthread_cancel, 1 always, -1 never */
} ca_lang_setup;

/* A gate's answer (ca_lang.gate). */
enum {
    CA_GATE_CLOSED = 0,            /* no file of the language is read or lowered: each is recorded skipped */
    CA_GATE_OPEN = 1,              /* files go on to the prefilter */
    CA_GATE_ASK = 2                /* open as soon as gate_feed says 1 for some file's bytes, closed if none does */
};

typedef struct ca_lang {
    const char *name;              /* a file record's language (model.h): "python", "c" */
    const char *const *exts;       /* name suffixes of the files a walk lists; NULL-terminated */
    /* A rescan may take a file's stored results when it is unchanged
     * (DESIGN §9). Only these languages' files count toward a tree digest. */
    int reusable;
    /* A function's summary takes in its callees': the driver runs
     * eng_summary_update over the language's functions to a fixed point
     * once every file is lowered (a C wrapper of a wrapper of sleep() is a
     * cancellation point). */
    int call_summaries;
    int await_summaries;           /* the driver works out which functions can suspend when awaited
                                      (eng_suspends_update, to a fixed point) */

    /* The state for one scan: 0 with *state set (NULL allowed), or 2 with
     * *err (heap) for a usage error that stops the scan before any file is
     * read. NULL hook: no state. scan_free(NULL) must do nothing. */
    int (*scan_new)(const ca_lang_setup *setup, void **state, char **err);
    void (*scan_free)(void *state);

    /* The gate, asked once after discovery (NULL hook: CA_GATE_OPEN).
     * With CA_GATE_ASK the driver feeds gate_feed every file's bytes until
     * one opens it (from any worker thread: it must only read), and lowers
     * no file of the language before it is open. A file read while its
     * gate is undecided is never reused from the base scan. */
    int (*gate)(void *state);
    int (*gate_feed)(void *state, const char *src, size_t len);

    /* 0 when the file cannot matter (it is recorded skipped, with its
     * hash); NULL hook: every file can. */
    int (*prefilter)(const char *path, const char *src, size_t len);
    /* NULL when the file is safe to parse; otherwise the reason (heap),
     * and the file is recorded as an error, not parsed. NULL hook: none. */
    char *(*guard)(const char *src, size_t len);

    /* Once per scan, on one thread, before the first file of the language
     * is lowered: what lowering needs that a scan which lowers none should
     * not pay for (C: the compile settings). NULL hook: nothing. */
    void (*prepare)(void *state);

    /* One worker per thread that lowers files (made when the thread first
     * needs it, after prepare); it may read the state, never write it.
     * lower fills *m (zeroed by the caller) from src (len bytes, the
     * contents of path, freed when lower returns: the IR holds offsets):
     * 0, with m->diagnostic the file's one-line diagnostic if it has one,
     * or -1 when the file could not be parsed at all (m->diagnostic says
     * why). */
    void *(*worker_new)(void *state);
    void (*worker_free)(void *worker);
    int (*lower)(void *worker, const char *path, const char *src, size_t len, ir_module *m);

    /* Once every file is lowered, the modules of the language this scan
     * lowered (n may be 0): whether the rules that need a thread that is
     * cancelled apply (rule_ctx.c_active). NULL hook: the language does
     * not say. */
    int (*threads_in_scope)(void *state, const ir_module *const *mods, size_t n);
} ca_lang;

/* Every language, in a fixed order; *n is set. The array is static. */
const ca_lang *const *ca_lang_all(size_t *n);

/* The language called `name` (a record's or discovery's language), or NULL. */
const ca_lang *ca_lang_named(const char *name);

/* The language among langs[0..n) one of whose suffixes ends `name`, or NULL. */
const ca_lang *ca_lang_by_suffix(const char *name, const ca_lang *const *langs, size_t n);

/* The language of a file nothing else decides: a file named on the command
 * line whose suffix no language claims, the record of an entry that is not
 * a file. Python. */
const ca_lang *ca_lang_default(void);

#endif
