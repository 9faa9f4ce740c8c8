/*
 * c_frontend.h — the C frontend: a .c/.h file → libclang translation unit →
 * ownership IR (ir.h), the same IR the Python frontend produces. Knows C,
 * POSIX threads (through the catalog, rules/catalog/c.cat) and libclang;
 * knows nothing of rules.
 *
 * libclang is not linked: it is dlopen()ed the first time a C file is
 * lowered (DESIGN §9), so a Python-only scan never loads it. Compile flags
 * come from a c_project, built once per scan: a compile_commands.json next to
 * the file (or in a directory above it, up to the scanned root), or the one
 * named with --compile-commands, else `-std=gnu11 -I<each directory of the
 * scanned tree that holds headers>`.
 *
 * What a C function lowers to: acquisitions (catalog c-acquire, c-lock) as
 * IR_ACQUIRE (locks with kind "lock"), releases as IR_RELEASE, POSIX
 * cancellation points as IR_CHECKPOINT, stores into memory reachable from a
 * parameter or a global, returns and registering calls as IR_TRANSFER,
 * pthread_cleanup_push(fn, arg) … pthread_cleanup_pop(n) as an IR_TRY whose
 * handler catches cancellation and hands `arg` to `fn`, regions with
 * cancellation disabled as shield scopes (IR_WITH, WITH_SHIELD), calls into
 * other functions as IR_CALL with CALL_RUNS_CALLEE (their summaries make them
 * checkpoints), and calls made while asynchronous cancellation is enabled
 * with CALL_ASYNC_CANCEL. Calls of small helpers of the same translation
 * unit that take a lock or release something for their caller are lowered
 * as what they wrap. Variables are locals, parameters, and access paths
 * (`pool->lock`, `*out`, `fds[]`) held by their root variable.
 *
 * The folder: this header is the C frontend's public face; c_compdb.c
 * reads the compile settings (compile_commands.json, c_project),
 * c_libclang.c loads libclang and holds its function table, c_lower.c
 * lowers a translation unit, c_lang.c holds the byte checks and puts it
 * all behind ca_lang (c_lang below), and c_internal.h is what they share.
 */
#ifndef CA_C_FRONTEND_H
#define CA_C_FRONTEND_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "frontend/lang.h"
#include "ir/ir.h"

typedef struct c_project c_project;
typedef struct c_frontend c_frontend;

/* Compile settings for one scan. `compile_commands_dir`: a directory holding
 * compile_commands.json that applies to every file (NULL: look for one next
 * to each file and in the directories above it, up to the scanned root that
 * holds it). `roots`: the scanned paths; `c_files`: the C files found (the
 * directories of the headers among them become the default -I list).
 * Returns NULL and sets *err (heap) when compile_commands_dir holds no
 * readable, valid compile_commands.json; a database found by looking is used
 * when valid and ignored otherwise. Read-only once built (shared by workers). */
c_project *c_project_new(const char *compile_commands_dir, const char *const *roots, size_t nroots,
                         const char *const *c_files, size_t nfiles, char **err);
void c_project_free(c_project *p);

/* One per worker thread; cheap (libclang is loaded on first use). `proj`
 * may be NULL (defaults only). */
c_frontend *c_frontend_new(const ca_catalog *cat, const c_project *proj);
void c_frontend_free(c_frontend *fe);

/* Lower src (len bytes, the contents of path) into *m, which the caller
 * zeroed; m->language is "c". Compile errors (a missing header included) are
 * counted in m->parse_errors with m->first_error_line, and m->diagnostic
 * says what they were; what parsed is still lowered. Returns 0, or -1 when
 * the file could not be parsed at all (libclang missing or refusing it;
 * m->diagnostic says why). */
int c_lower(c_frontend *fe, const char *path, const char *src, size_t len, ir_module *m);

/* 0 when the file cannot hold a function body worth lowering: a header with
 * neither `static` nor `inline` in it. 1 otherwise (every .c file). */
int c_prefilter(const char *path, const char *src, size_t len);

/* 1 when the source names a thread-cancelling function (catalog
 * c-thread-cancel, e.g. pthread_cancel) as an identifier: a cheap byte
 * scan. A scan none of whose C files does so has no C findings unless
 * forced, and need not parse them. */
int c_mentions_cancel(const ca_catalog *cat, const char *src, size_t len);

/* 1 once libclang has been loaded into this process. */
int c_libclang_loaded(void);

/* C behind the language interface (c_lang.c). */
extern const ca_lang c_lang;

#endif
