/*
 * c_compdb.c — the C frontend's compile settings (c_project, c_frontend.h):
 * which flags each C file is parsed with.
 *
 * Where it sits: built once per scan before any C file is lowered, then
 * read by every worker's c_lower (c_lower.c). Flags come from a
 * compile_commands.json (the one named with --compile-commands, else the
 * nearest one next to a file or above it, up to its scanned root, or in the
 * root's build/), filtered to what changes how a file parses. A file no
 * database knows gets -std=gnu11 and, in this order, an -I for its own
 * directory and each one above it up to its scanned root, for every
 * include/ directory of the tree (`#include "hamlib/rig.h"` lives in
 * include/hamlib/), and for every directory that holds headers; its
 * compile errors then say that this is what was tried (c_project_origin).
 * Needs no libclang.
 */
#include "frontend/c/c_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/json.h"

typedef struct c_dbentry {
    char *file;      /* canonical (realpath) when it exists, else as joined */
    char *dir;       /* the entry's working directory, absolute */
    str_vec args;    /* filtered flags, relative paths made absolute */
} c_dbentry;

typedef struct c_db {
    char *dir;       /* directory holding compile_commands.json; NULL: none there */
    CA_VEC(c_dbentry) entries;
} c_db;

typedef struct c_fileflags {
    char *path;      /* as discovered */
    str_vec args;    /* a database's flags; without one, the -I of the file's directory and those above it */
    int from_db;
    char *origin;    /* where the flags came from, for diagnostics */
} c_fileflags;

struct c_project {
    CA_VEC(c_fileflags) files;  /* sorted by path */
    str_vec defaults;           /* after a file's own -I list when no database knows it */
    char *default_origin;
};

static char *path_dirname(const char *p)
{
    const char *s = strrchr(p, '/');
    if (!s) return ca_xstrdup(".");
    if (s == p) return ca_xstrdup("/");
    return ca_xstrndup(p, (size_t)(s - p));
}

static char *path_join2(const char *a, const char *b)
{
    if (b[0] == '/' || !a || !*a) return ca_xstrdup(b);
    size_t n = strlen(a);
    return ca_xasprintf("%s%s%s", a, a[n - 1] == '/' ? "" : "/", b);
}

char *c_canonical(const char *p)
{
    char buf[PATH_MAX];
    if (realpath(p, buf)) return ca_xstrdup(buf);
    return ca_xstrdup(p);
}

/* Shell-like split of a "command" string: blanks separate, quotes and
 * backslashes group. */
static void split_command(const char *s, str_vec *out)
{
    ca_sb cur = {0};
    int have = 0;
    char q = 0;
    for (const char *p = s;; p++) {
        char c = *p;
        if (!c) break;
        if (q) {
            if (c == q) q = 0;
            else if (c == '\\' && q == '"' && (p[1] == '"' || p[1] == '\\')) ca_sb_addc(&cur, *++p);
            else ca_sb_addc(&cur, c);
            continue;
        }
        if (c == '\'' || c == '"') { q = c; have = 1; continue; }
        if (c == '\\' && p[1]) { ca_sb_addc(&cur, *++p); have = 1; continue; }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (have || cur.len) sv_push(out, ca_sb_str(&cur));
            ca_sb_reset(&cur);
            have = 0;
            continue;
        }
        ca_sb_addc(&cur, c);
        have = 1;
    }
    if (have || cur.len) sv_push(out, ca_sb_str(&cur));
    ca_sb_release(&cur);
}

static int is_one_of(const char *a, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(a, *set) == 0) return 1;
    return 0;
}

/* Options whose value is a path; relative ones are made absolute against the
 * entry's directory (libclang's -working-directory would change the whole
 * process's working directory, under every other worker's feet). */
static const char *const path_opts[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros",
                                        "-isysroot", "--sysroot", "-iprefix", "-iwithprefix", NULL};

static char *abs_value(const char *v, const char *dir)
{
    if (!*v || v[0] == '/' || v[0] == '=') return ca_xstrdup(v);
    return path_join2(dir, v);
}

/* Keep what changes how the file parses (-I -D -U -std -include ...); drop
 * the compiler, inputs, outputs and dependency-file options. */
static void filter_args(const str_vec *in, const char *dir, str_vec *out)
{
    static const char *const drop1[] = {"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP", "-MG", "-pipe",
                                        "-fsyntax-only", "-v", "-###", NULL};
    static const char *const drop2[] = {"-o", "-MF", "-MT", "-MQ", "-MJ", "-Xlinker", "-Xassembler",
                                        "-Xpreprocessor", "-Xclang", "-arch", NULL};
    static const char *const keep2[] = {"-D", "-U", "-target", "-x", NULL};
    size_t i = in->n && in->v[0][0] != '-' ? 1 : 0;
    for (; i < in->n; i++) {
        const char *a = in->v[i];
        if (strcmp(a, "--") == 0) break;
        if (a[0] != '-') continue; /* an input file */
        if (is_one_of(a, drop1) || strncmp(a, "-Werror", 7) == 0 || strncmp(a, "-working-directory", 18) == 0)
            continue;
        if (is_one_of(a, drop2)) { i++; continue; }
        if (is_one_of(a, keep2)) {
            sv_push(out, a);
            if (i + 1 < in->n) sv_push(out, in->v[++i]);
            continue;
        }
        if (is_one_of(a, path_opts)) {
            sv_push(out, a);
            if (i + 1 < in->n) CA_VEC_PUSH(*out, abs_value(in->v[++i], dir));
            continue;
        }
        int joined = 0;
        for (const char *const *o = path_opts; *o && !joined; o++) {
            size_t n = strlen(*o);
            if (strncmp(a, *o, n) != 0 || !a[n]) continue;
            const char *v = a[n] == '=' && strcmp(*o, "--sysroot") == 0 ? a + n + 1 : a + n;
            char *absv = abs_value(v, dir);
            CA_VEC_PUSH(*out, ca_xasprintf("%.*s%s%s", (int)n, a, v != a + n ? "=" : "", absv));
            free(absv);
            joined = 1;
        }
        if (!joined) sv_push(out, a);
    }
}

static void db_free(c_db *db)
{
    if (!db) return;
    for (size_t i = 0; i < db->entries.n; i++) {
        free(db->entries.v[i].file);
        free(db->entries.v[i].dir);
        sv_free(&db->entries.v[i].args);
    }
    CA_VEC_FREE(db->entries);
    free(db->dir);
    free(db);
}

/* Load dir/compile_commands.json. Returns NULL (and *err when err) when it
 * is missing or not a compilation database. */
static c_db *db_load(const char *dir, char **err)
{
    char *path = path_join2(dir, "compile_commands.json");
    char *buf = NULL;
    size_t len = 0;
    int e = ca_read_file(path, &buf, &len);
    if (e) {
        if (err) *err = ca_xasprintf("%s: %s", path, strerror(e));
        free(path);
        return NULL;
    }
    ca_json_doc doc;
    char *jerr = NULL;
    if (ca_json_parse(buf, len, CA_JSON_DEFAULT_DEPTH, &doc, &jerr) != 0 || !doc.root ||
        doc.root->type != CA_JSON_ARRAY) {
        if (err) *err = ca_xasprintf("%s: %s", path, jerr ? jerr : "not a JSON array of compile commands");
        free(jerr);
        ca_json_doc_free(&doc);
        free(buf);
        free(path);
        return NULL;
    }
    free(buf);
    c_db *db = ca_xcalloc(1, sizeof(*db));
    char *absdir = c_canonical(dir);
    db->dir = absdir;
    for (size_t i = 0;; i++) {
        const ca_json_value *ent = ca_json_at(doc.root, i);
        if (!ent) break;
        const ca_json_value *file = ca_json_get(ent, "file");
        const ca_json_value *wdir = ca_json_get(ent, "directory");
        const ca_json_value *args = ca_json_get(ent, "arguments");
        const ca_json_value *cmd = ca_json_get(ent, "command");
        if (!file || file->type != CA_JSON_STRING) continue;
        c_dbentry de;
        memset(&de, 0, sizeof(de));
        de.dir = wdir && wdir->type == CA_JSON_STRING ? path_join2(absdir, wdir->str) : ca_xstrdup(absdir);
        char *joined = path_join2(de.dir, file->str);
        de.file = c_canonical(joined);
        free(joined);
        str_vec raw = {0};
        if (args && args->type == CA_JSON_ARRAY) {
            for (size_t k = 0;; k++) {
                const ca_json_value *a = ca_json_at(args, k);
                if (!a) break;
                if (a->type == CA_JSON_STRING) sv_push(&raw, a->str);
            }
        } else if (cmd && cmd->type == CA_JSON_STRING) {
            split_command(cmd->str, &raw);
        }
        filter_args(&raw, de.dir, &de.args);
        sv_free(&raw);
        CA_VEC_PUSH(db->entries, de);
    }
    ca_json_doc_free(&doc);
    free(path);
    return db;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static int cmp_flags(const void *a, const void *b)
{
    return strcmp(((const c_fileflags *)a)->path, ((const c_fileflags *)b)->path);
}

typedef struct db_cache_ent {
    char *dir;
    c_db *db; /* NULL: none there */
} db_cache_ent;
typedef CA_VEC(db_cache_ent) db_cache;

static c_db *db_at(db_cache *cache, const char *dir)
{
    for (size_t i = 0; i < cache->n; i++)
        if (strcmp(cache->v[i].dir, dir) == 0) return cache->v[i].db;
    db_cache_ent e = {ca_xstrdup(dir), db_load(dir, NULL)};
    CA_VEC_PUSH(*cache, e);
    return e.db;
}

/* The root (a scanned path, as a directory) that holds path, or NULL. */
static const char *root_of(const char *path, const char *const *roots, size_t nroots, char **dir_out)
{
    for (size_t i = 0; i < nroots; i++) {
        struct stat st;
        char *d = stat(roots[i], &st) == 0 && S_ISDIR(st.st_mode) ? ca_xstrdup(roots[i]) : path_dirname(roots[i]);
        size_t n = strlen(d);
        while (n > 1 && d[n - 1] == '/') d[--n] = 0;
        int under = strcmp(d, ".") == 0 ? path[0] != '/' : strncmp(path, d, n) == 0 && (path[n] == '/' || !path[n]);
        if (under) {
            *dir_out = d;
            return roots[i];
        }
        free(d);
    }
    return NULL;
}

/* The database for a file: in its directory or one above it, up to its root. */
static c_db *db_for(db_cache *cache, const char *path, const char *const *roots, size_t nroots)
{
    char *top = NULL;
    root_of(path, roots, nroots, &top);
    char *dir = path_dirname(path);
    c_db *found = NULL;
    for (int guard = 0; guard < 256; guard++) {
        found = db_at(cache, dir);
        if (found) break;
        if (!top || strcmp(dir, top) == 0 || strcmp(dir, ".") == 0 || strcmp(dir, "/") == 0) break;
        char *up = path_dirname(dir);
        free(dir);
        dir = up;
    }
    if (!found && top) {
        /* the usual out-of-tree build directory at the root */
        char *b = path_join2(top, "build");
        found = db_at(cache, b);
        free(b);
    }
    free(dir);
    free(top);
    return found;
}

static const c_dbentry *db_entry_for(const c_db *db, const char *path)
{
    char *canon = c_canonical(path);
    char *cdir = path_dirname(canon);
    const c_dbentry *same_dir = NULL;
    for (size_t i = 0; i < db->entries.n; i++) {
        const c_dbentry *e = &db->entries.v[i];
        if (strcmp(e->file, canon) == 0) {
            free(canon);
            free(cdir);
            return e;
        }
        if (!same_dir) {
            char *ed = path_dirname(e->file);
            if (strcmp(ed, cdir) == 0) same_dir = e;
            free(ed);
        }
    }
    free(canon);
    free(cdir);
    /* a header, or a file the build does not compile: its neighbours' flags */
    return same_dir ? same_dir : db->entries.n ? &db->entries.v[0] : NULL;
}

/* Is s in the sorted list v? *at: where it is or would go. */
static int sorted_has(const str_vec *v, const char *s, size_t *at)
{
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(v->v[mid], s);
        if (c == 0) {
            *at = mid;
            return 1;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    *at = lo;
    return 0;
}

/* Append "-I<dir>" for the distinct directories of dirs (sorted first; at
 * most max of them) to out, and free dirs; returns how many. */
static size_t add_dirs(str_vec *out, str_vec *dirs, size_t max)
{
    if (dirs->n) qsort(dirs->v, dirs->n, sizeof(char *), cmp_str);
    size_t added = 0;
    for (size_t i = 0; i < dirs->n && added < max; i++) {
        if (i && strcmp(dirs->v[i], dirs->v[i - 1]) == 0) continue;
        char *abs = c_canonical(dirs->v[i]);
        char *flag = ca_xasprintf("-I%s", abs);
        CA_VEC_PUSH(*out, flag);
        free(abs);
        added++;
    }
    sv_free(dirs);
    return added;
}

/* -I for the file's own directory and each one above it, up to the
 * scanned root that holds it (nearest first: what `#include <x.h>` in a
 * tree without build flags most often means). */
static void own_dirs(const char *path, const char *const *roots, size_t nroots, str_vec *out)
{
    char *top = NULL;
    root_of(path, roots, nroots, &top);
    char *dir = path_dirname(path);
    for (int guard = 0; guard < 64; guard++) {
        char *abs = c_canonical(dir);
        char *flag = ca_xasprintf("-I%s", abs);
        CA_VEC_PUSH(*out, flag);
        free(abs);
        if (!top || strcmp(dir, top) == 0 || strcmp(dir, ".") == 0 || strcmp(dir, "/") == 0) break;
        char *up = path_dirname(dir);
        free(dir);
        dir = up;
    }
    free(dir);
    free(top);
}

c_project *c_project_new(const char *compile_commands_dir, const char *const *roots, size_t nroots,
                         const char *const *c_files, size_t nfiles, char **err)
{
    c_db *forced = NULL;
    if (compile_commands_dir) {
        forced = db_load(compile_commands_dir, err);
        if (!forced) return NULL;
    }
    c_project *p = ca_xcalloc(1, sizeof(*p));
    sv_push(&p->defaults, "-std=gnu11");
    /* the tree's include/ directories: next to a file or above it up to its
     * root, or on the way to a file (a component named include) */
    str_vec incs = {0}, seen = {0}; /* seen: directories looked at, sorted */
    for (size_t i = 0; i < nfiles; i++) {
        char *top = NULL;
        root_of(c_files[i], roots, nroots, &top);
        char *dir = path_dirname(c_files[i]);
        for (int guard = 0; guard < 64; guard++) {
            size_t at;
            if (sorted_has(&seen, dir, &at)) break; /* and the ones above it */
            CA_VEC_PUSH(seen, NULL);
            memmove(seen.v + at + 1, seen.v + at, (seen.n - 1 - at) * sizeof(char *));
            seen.v[at] = ca_xstrdup(dir);
            const char *base = strrchr(dir, '/');
            base = base ? base + 1 : dir;
            if (strcmp(base, "include") == 0) sv_push(&incs, dir);
            char *cand = path_join2(dir, "include");
            struct stat st;
            if (stat(cand, &st) == 0 && S_ISDIR(st.st_mode)) CA_VEC_PUSH(incs, cand);
            else free(cand);
            if (!top || strcmp(dir, top) == 0 || strcmp(dir, ".") == 0 || strcmp(dir, "/") == 0) break;
            char *up = path_dirname(dir);
            free(dir);
            dir = up;
        }
        free(dir);
        free(top);
    }
    sv_free(&seen);
    size_t nincs = add_dirs(&p->defaults, &incs, 64);
    /* -I for every directory of the tree that holds headers, and the roots */
    str_vec dirs = {0};
    for (size_t i = 0; i < nfiles; i++) {
        size_t n = strlen(c_files[i]);
        if (n < 2 || strcmp(c_files[i] + n - 2, ".h") != 0) continue;
        CA_VEC_PUSH(dirs, path_dirname(c_files[i]));
    }
    for (size_t i = 0; i < nroots; i++) {
        struct stat st;
        if (stat(roots[i], &st) == 0 && S_ISDIR(st.st_mode)) sv_push(&dirs, roots[i]);
    }
    size_t nhdr = add_dirs(&p->defaults, &dirs, 512);
    p->default_origin = ca_xasprintf("no compile_commands.json covers it: parsed with -I for its directory and those "
                                     "above it up to the scanned root, %zu include/ director%s and %zu header "
                                     "director%s of the tree; --compile-commands DIR gives the build's flags",
                                     nincs, nincs == 1 ? "y" : "ies", nhdr, nhdr == 1 ? "y" : "ies");
    db_cache cache = {0};
    for (size_t i = 0; i < nfiles; i++) {
        c_db *db = forced ? forced : db_for(&cache, c_files[i], roots, nroots);
        const c_dbentry *e = db ? db_entry_for(db, c_files[i]) : NULL;
        c_fileflags ff;
        memset(&ff, 0, sizeof(ff));
        ff.path = ca_xstrdup(c_files[i]);
        if (e) {
            for (size_t k = 0; k < e->args.n; k++) sv_push(&ff.args, e->args.v[k]);
            ff.from_db = 1;
            ff.origin = ca_xasprintf("flags from %s/compile_commands.json", db->dir);
        } else {
            own_dirs(c_files[i], roots, nroots, &ff.args);
        }
        CA_VEC_PUSH(p->files, ff);
    }
    if (p->files.n) qsort(p->files.v, p->files.n, sizeof(c_fileflags), cmp_flags);
    for (size_t i = 0; i < cache.n; i++) {
        free(cache.v[i].dir);
        db_free(cache.v[i].db);
    }
    CA_VEC_FREE(cache);
    db_free(forced);
    return p;
}

void c_project_free(c_project *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->files.n; i++) {
        free(p->files.v[i].path);
        free(p->files.v[i].origin);
        sv_free(&p->files.v[i].args);
    }
    CA_VEC_FREE(p->files);
    sv_free(&p->defaults);
    free(p->default_origin);
    free(p);
}

static const c_fileflags *file_flags(const c_project *p, const char *path)
{
    size_t lo = 0, hi = p->files.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(p->files.v[mid].path, path);
        if (c == 0) return &p->files.v[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

void c_project_flags(const c_project *p, const char *path, const str_vec **first, const str_vec **rest)
{
    static const str_vec none = {0};
    *first = *rest = &none;
    if (!p) return;
    const c_fileflags *ff = file_flags(p, path);
    if (ff) *first = &ff->args;
    if (!ff || !ff->from_db) *rest = &p->defaults;
}

const char *c_project_origin(const c_project *p, const char *path)
{
    if (!p) return NULL;
    const c_fileflags *ff = file_flags(p, path);
    return ff && ff->from_db ? ff->origin : p->default_origin;
}
