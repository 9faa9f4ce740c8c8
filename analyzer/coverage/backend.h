/*
 * backend.h — the directory rule (DESIGN §4): which backend a file belongs
 * to by its path. Backends are families' classes first (family.h); this
 * rule names a family's backend whose class name says nothing, and makes
 * the matrix's rows only in a tree without a family. Sits beside
 * discovery: the scan driver names each discovered file once, workers do
 * it in parallel.
 *
 * Rules, in order:
 *   1. configuration maps (name, glob): the first whose glob matches the
 *      path (fnmatch without FNM_PATHNAME, so '*' spans '/') wins;
 *   2. the nearest directory, walking up from the file's own, that holds a
 *      `sandbox.py`, `provider.py`, `client.py` or `backend.py` names the
 *      backend (`blaxel/sandbox.py`, `blaxel/mounts.py` → `blaxel`). The walk
 *      stops at the path's first component: the current directory and
 *      anything above it, and ".." components, are never candidates, so a
 *      marker there cannot make the whole scan one backend;
 *   3. otherwise the file's stem (`sandboxes/unix_local.py` → `unix_local`),
 *      and for an `__init__.py` its directory (`pkg/__init__.py` → `pkg`; at
 *      top level, the current directory's name).
 * Paths are as discovery shows them (relative to the cwd when under it);
 * "./" and duplicate '/' are ignored.
 */
#ifndef CA_BACKEND_H
#define CA_BACKEND_H

#include <stddef.h>

/* From configuration: `name` for every path matching `glob`. */
typedef struct ca_backend_map {
    const char *name;
    const char *glob;
} ca_backend_map;

/* Remembers, per directory, whether it holds a marker file (checked with
 * stat). Safe to share between threads: guarded by a mutex, and the disk
 * checks run outside it. */
typedef struct ca_backend_cache ca_backend_cache;

/* A new cache; the maps are copied (the caller keeps ownership of its
 * array). nmaps may be 0 with maps NULL. Free with ca_backend_cache_free. */
ca_backend_cache *ca_backend_cache_new(const ca_backend_map *maps, size_t nmaps);

/* The backend of `path` as a heap string the caller frees; never NULL (an
 * empty or odd path yields its text or "." rather than an error). `c` must
 * not be NULL. */
char *ca_backend_name(ca_backend_cache *c, const char *path);

/* The configured backend whose glob matches path (rule 1), or NULL when
 * none does or none is configured; the string is the cache's. */
const char *ca_backend_configured(ca_backend_cache *c, const char *path);

/* Whether backend globs are configured. */
int ca_backend_has_maps(const ca_backend_cache *c);

/* What decides the backends of the files directly in path's directory
 * besides their own paths: *marker is the nearest marker directory's name
 * (owned by the cache, valid until it is freed), or NULL when there is none
 * and each file's own name decides. Returns 0 so; 1 when configured globs
 * decide file by file (then ask ca_backend_name). */
int ca_backend_dir_marker(ca_backend_cache *c, const char *path, const char **marker);

/* Frees the cache; NULL is a no-op. No call may be running on it. */
void ca_backend_cache_free(ca_backend_cache *c);

/* What a directory listing already says about marker files: dir's sorted
 * names with their d_type (discover.h's on_dir has this shape; ctx is the
 * cache). Saves ca_backend_name its stats for every directory a walk saw;
 * a marker name that is not plainly a regular file is left to stat. */
void ca_backend_cache_note_dir(void *cache, const char *dir, const char *const *names, const unsigned char *types,
                               size_t n);

#endif
