/*
 * cache.h — the formats behind incremental rescans (DESIGN §9): a fast
 * content hash, the identity of this build, and the text encodings of what
 * the store keeps so that an unchanged file's results can be reused without
 * parsing it:
 *
 *   functions.facts  one function's summary, parameters, matrix facts and
 *                    resolved callees (by file path and ordinal);
 *   files.deps       the names the file's analysis looked up across files,
 *                    with a digest of what they resolved to.
 *
 * The scan driver (scan.c) decides when reuse is sound; this file only
 * turns facts into text and back. Decoders never trust their input: a
 * malformed string is an error (the file is then analysed afresh), never a
 * crash.
 */
#ifndef CA_CACHE_H
#define CA_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#include "engine/engine.h"
#include "util/util.h"

/* A 64-bit hash of file contents, several bytes per cycle: a scan hashes
 * every file it reads. Not cryptographic; equal contents give equal hashes
 * on every machine. */
uint64_t ca_content_hash(const void *data, size_t n);

/* A digest of the running executable's bytes (read once per process,
 * thread-safe), so results stored by another build are never reused; 0 when
 * the executable cannot be read (then only the version guards reuse). */
uint64_t ca_build_id(void);

/* What a rescan needs of a function it does not lower again. */
typedef struct ca_facts {
    eng_summary sum;
    int is_method;
    unsigned protections;      /* PROT_* seen at window checkpoints */
    int had_window;
    int nparams;
    const char **params;       /* parameter names, in order */
    int varargs;               /* index of the *args parameter, -1 when none */
    uint64_t fflags;           /* ir_func.fflags */
    const char *ret_type;      /* ir_func.ret_type */
    int ncallees;
    int *callee_ordinal;       /* position of the callee among its file's functions */
    const char **callee_path;  /* its file; NULL for the function's own file */
} ca_facts;

/* The text form of f (heap; the caller frees). */
char *ca_facts_encode(const ca_facts *f);
/* Parse text made by ca_facts_encode into *out; arrays and strings are
 * allocated in a. Returns 0, or -1 when s is NULL or malformed. */
int ca_facts_decode(const char *s, ca_facts *out, ca_arena *a);

/* The text form of what a reused file brings to a scan besides its
 * functions: the digest and names of its cross-file lookups, the classes
 * its module defines and the tasks it starts on functions by name (classes
 * and spawns of m; m may be NULL). Heap; the caller frees. */
char *ca_deps_encode(uint64_t digest, const char *const *names, size_t n, const ir_module *m);

/* A scan's directory listings as one blob (the store keeps one per scan):
 * "ca-dirs 1\n", then per directory its path, a NUL, its mtime (8 bytes,
 * little-endian), the length of its entries (4 bytes, little-endian) and
 * the entries (ca_dir_rec's format). *len gets the blob's size. */
char *ca_dirs_encode(const ca_dir_rec *dirs, size_t n, size_t *len);

/* The directory at *at in blob (start with *at = 0): 1 and its parts, the
 * pointers into blob; 0 at the end; -1 when the blob does not decode. */
int ca_dirs_next(const char *blob, size_t len, size_t *at, const char **path, int64_t *mtime_ns,
                 const char **entries, size_t *elen);
/* Parse text made by ca_deps_encode; names are allocated in m's arena and
 * the classes and spawns added to m. Returns 0, or -1 when s is NULL or malformed. */
int ca_deps_decode(const char *s, uint64_t *digest, const char ***names, size_t *n, ir_module *m);

#endif
