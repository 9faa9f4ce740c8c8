/*
 * discover.h — the first stage of the pipeline (discover → parse → lower →
 * rules → store → report): walk the paths named on the command line and list
 * the files a scan should look at, each with its language (by the suffixes
 * of frontend/lang.h).
 *
 * Discovery only stats (lstat/stat/fstatat); it never opens a file, so a FIFO
 * or a device in the tree cannot block it. Every per-file problem (not a
 * regular file, too large, unreadable, a symlink loop) becomes an entry with
 * a diagnostic rather than an error: the scan goes on (DESIGN §10).
 */
#ifndef CA_DISCOVER_H
#define CA_DISCOVER_H

#include <stddef.h>
#include <stdint.h>

#define CA_DISCOVER_DEFAULT_MAX_SIZE ((int64_t)10 * 1024 * 1024)

/* A directory's entries: names ("." and ".." left out) and their d_type. */
typedef struct ca_dir_names {
    const char *const *names;
    const unsigned char *types;
    size_t n;
} ca_dir_names;

typedef struct ca_discover_opts {
    /* User globs (fnmatch without FNM_PATHNAME, so '*' spans '/'), matched
     * against an entry's path relative to the current directory and against
     * each of its path components; a trailing '/' and a leading "./" in a
     * glob are ignored. They apply to walked entries and to named files,
     * never to a named directory itself. */
    const char *const *excludes;
    size_t nexcludes;
    /* Default excludes apply to directories met during a walk (never to a
     * path named explicitly): .git .hg .svn node_modules __pycache__ .venv
     * venv env .env .tox .nox .mypy_cache .pytest_cache .ruff_cache build
     * dist site-packages .eggs *.egg-info .cancelaudit, and any directory
     * that holds a `pyvenv.cfg` (a virtualenv). */
    int no_default_excludes;
    /* The languages whose files a walk lists, by their suffixes
     * (ca_lang.exts); none (nlangs 0): the default language's alone
     * (ca_lang_default, Python). A named file is listed whatever the
     * languages here: in the language of the registry that claims its
     * suffix, else the default one. */
    const struct ca_lang *const *langs;
    size_t nlangs;
    /* Files larger than this many bytes get a diagnostic; 0 means
     * CA_DISCOVER_DEFAULT_MAX_SIZE. */
    int64_t max_size;
    /* When set, called once for every directory walked, before its files
     * are listed, with all the names it holds ("." and ".." left out),
     * sorted by strcmp, and their d_type (DT_UNKNOWN when the file system
     * does not say), and the directory's mtime (0: unknown). `dir` is spelt
     * as the paths of the files in it begin ("." for the current
     * directory). For callers that need to know of
     * files the walk does not list (a backend's marker files) without
     * another stat per directory. */
    void (*on_dir)(void *ctx, const char *dir, int64_t mtime_ns, const char *const *names,
                   const unsigned char *types, size_t n);
    void *on_dir_ctx;
    /* When set, asked before a directory is read, with its mtime as the
     * walk stat'ed it: 1 and *out filled (with memory that stays the
     * caller's until ca_discover returns) when the caller knows the
     * directory's entries as they stand (an earlier walk saw the same
     * mtime, safely in the past); 0 to read it. May be called from several
     * threads at once. */
    int (*recall)(void *ctx, const char *dir, int64_t mtime_ns, struct ca_dir_names *out);
    void *recall_ctx;
    /* Threads that read directories: the walk plus jobs - 1 helpers that
     * list and stat directories ahead of it (the result does not depend on
     * it). 0: the number of cores; 1: the walk alone. */
    int jobs;
} ca_discover_opts;

typedef struct ca_disc_file {
    /* Relative to the current directory when under it ("./" stripped,
     * duplicate '/' collapsed); otherwise as given. Never NULL. */
    char *path;
    int64_t size, mtime_ns;   /* of the file (symlinks followed); 0 when unknown */
    /* ca_disc_state_hash of the file as listed (0 for an entry with a
     * diagnostic): computed by the thread that stat'ed it */
    uint64_t state_hash;
    /* the language's name (ca_lang.name): "python" | "c", static strings
     * not to be freed; NULL for an entry that stands for a directory (one
     * that could not be read, or a symlink loop). */
    const char *language;
    /* NULL when fine; otherwise a one-line reason, and the file must not be
     * opened for parsing: "not a regular file (FIFO)", "file too large
     * (52428800 bytes > limit 10485760)", "permission denied", "symlink
     * loop", ... */
    char *diagnostic;
} ca_disc_file;

/*
 * List the files under `paths` (npaths == 0 means "."). On success returns 0
 * and sets *out to a heap array of *nout entries (free it with
 * ca_disc_files_free), sorted by path (strcmp order) and without duplicate
 * paths. Returns 2 when a named path does not exist; then *out is NULL,
 * *nout 0 and *err a heap message "path/x: no such file or directory" (caller
 * frees). `err` may be NULL; `opts` may be NULL (all defaults).
 *
 * Named files are listed whatever their suffix; walked files only when they
 * end in a suffix of one of opts->langs (".py" by default). Symlinks to
 * files are followed. Each directory (by device and inode) is entered at most once:
 * real directories are walked before symlinked ones, so a tree's files keep
 * their real names; a symlink that leads back to a directory being walked is
 * reported once as a "symlink loop" entry and not followed. Directories that
 * cannot be read become entries with a diagnostic and language NULL.
 */
int ca_discover(const char *const *paths, size_t npaths, const ca_discover_opts *opts,
                ca_disc_file **out, size_t *nout, char **err);

/* A file's state as discovery saw it, hashed: path, size, mtime, language
 * (64 bits, cache.h's content hash; never 0). */
uint64_t ca_disc_state_hash(const char *path, int64_t size, int64_t mtime_ns, const char *language);

/* Frees the array returned by ca_discover and every string in it. */
void ca_disc_files_free(ca_disc_file *files, size_t n);

#endif
