/*
 * discover.c — implementation of discover.h: the directory walk that lists
 * the files of a scan, each tagged with its language by the suffixes the
 * languages claim (frontend/lang.h). What a file's bytes say (whether it is
 * worth, or safe, to parse) is its language's business, not discovery's.
 *
 * The folder: discover/ is the first stage of the pipeline: the walk (this
 * file) and the git questions a scan asks (git.c: the checkout revision,
 * changed lines for --changed-since).
 *
 * The walk uses an explicit stack (no recursion), stats entries with
 * fstatat relative to the open directory, and never opens anything but
 * directories. Directories are identified by (device, inode): each is
 * entered once, and the chain of directories that led to one is kept so a
 * symlink back into that chain is told apart from a second name for a
 * directory walked elsewhere.
 */
#include "discover/discover.h"
#include "frontend/lang.h"
#include "model/cache.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static const char *const default_excludes[] = {
    ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", "env", ".env",
    ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", "build", "dist",
    "site-packages", ".eggs", "*.egg-info", ".cancelaudit",
};

/* ---- small helpers ------------------------------------------------------ */

/* A one-line, lower-case reason for errno e (heap string). */
static char *errno_text(int e)
{
    switch (e) {
    case EACCES:
    case EPERM: return ca_xstrdup("permission denied");
    case ELOOP: return ca_xstrdup("symlink loop");
    case ENOENT: return ca_xstrdup("no such file or directory");
    case ENAMETOOLONG: return ca_xstrdup("path too long");
    case ENOTDIR: return ca_xstrdup("not a directory");
    default: break;
    }
    char *s = ca_xstrdup(strerror(e));
    if (s[0] >= 'A' && s[0] <= 'Z') s[0] = (char)(s[0] - 'A' + 'a');
    return s;
}

static const char *file_type_name(mode_t m)
{
    if (S_ISFIFO(m)) return "FIFO";
    if (S_ISSOCK(m)) return "socket";
    if (S_ISCHR(m)) return "character device";
    if (S_ISBLK(m)) return "block device";
    if (S_ISDIR(m)) return "directory";
    return "unknown type";
}

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && memcmp(s + n - m, suf, m) == 0;
}

static int64_t mtime_ns(const struct stat *st)
{
    return (int64_t)st->st_mtim.tv_sec * 1000000000 + (int64_t)st->st_mtim.tv_nsec;
}

static char *path_join(const char *dir, const char *name)
{
    if (strcmp(dir, ".") == 0) return ca_xstrdup(name);
    size_t n = strlen(dir), m = strlen(name);
    int sep = !(n && dir[n - 1] == '/');
    char *p = ca_xmalloc(n + (size_t)sep + m + 1);
    memcpy(p, dir, n);
    if (sep) p[n] = '/';
    memcpy(p + n + (size_t)sep, name, m + 1);
    return p;
}

/* Lexically clean a path: collapse '/', drop "." components; with
 * resolve_dotdot, ".." removes the previous component (when there is one).
 * Returns "." for an empty relative result, "/" for the root. */
static char *lexical_clean(const char *p, int resolve_dotdot)
{
    int abs = p[0] == '/';
    CA_VEC(const char *) comp = {0};
    CA_VEC(size_t) clen = {0};
    const char *s = p;
    while (*s) {
        while (*s == '/') s++;
        if (!*s) break;
        const char *e = s;
        while (*e && *e != '/') e++;
        size_t n = (size_t)(e - s);
        if (n == 1 && s[0] == '.') {
            /* drop */
        } else if (resolve_dotdot && n == 2 && s[0] == '.' && s[1] == '.' && comp.n &&
                   !(clen.v[comp.n - 1] == 2 && memcmp(comp.v[comp.n - 1], "..", 2) == 0)) {
            comp.n--;
            clen.n--;
        } else if (resolve_dotdot && n == 2 && s[0] == '.' && s[1] == '.' && abs) {
            /* "/.." is "/" */
        } else {
            CA_VEC_PUSH(comp, s);
            CA_VEC_PUSH(clen, n);
        }
        s = e;
    }
    ca_sb sb = {0};
    if (abs) ca_sb_addc(&sb, '/');
    for (size_t i = 0; i < comp.n; i++) {
        if (i) ca_sb_addc(&sb, '/');
        ca_sb_add(&sb, comp.v[i], clen.v[i]);
    }
    if (sb.len == 0) ca_sb_addc(&sb, '.');
    CA_VEC_FREE(comp);
    CA_VEC_FREE(clen);
    return ca_sb_detach(&sb);
}

/* If abs_path is cwd or under it, the relative remainder (heap); else NULL. */
static char *relative_to(const char *abs_path, const char *cwd)
{
    size_t n = strlen(cwd);
    if (strcmp(cwd, "/") == 0) return ca_xstrdup(abs_path[1] ? abs_path + 1 : ".");
    if (strncmp(abs_path, cwd, n) != 0) return NULL;
    if (abs_path[n] == 0) return ca_xstrdup(".");
    if (abs_path[n] != '/') return NULL;
    return ca_xstrdup(abs_path + n + 1);
}

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The display form of a named path: relative to the current directory when
 * it lies under it, otherwise the given path cleaned of "." and '//'. */
static char *display_path(const char *given)
{
    char *clean = lexical_clean(given, 0);
    int has_dotdot = strcmp(clean, "..") == 0 || strncmp(clean, "../", 3) == 0 || strstr(clean, "/../") ||
                     has_suffix(clean, "/..");
    if (clean[0] != '/' && !has_dotdot) return clean;

    /* The physical cwd, and $PWD when it is a second (symlinked) name for it. */
    char *phys = getcwd(NULL, 0);
    const char *pwd = getenv("PWD");
    const char *cwds[2] = {phys, NULL};
    if (pwd && pwd[0] == '/' && (!phys || strcmp(pwd, phys) != 0) && same_file(pwd, ".")) cwds[1] = pwd;

    char *result = NULL;
    for (int i = 0; i < 2 && !result; i++) {
        if (!cwds[i]) continue;
        char *absolute = clean[0] == '/' ? ca_xstrdup(clean) : ca_xasprintf("%s/%s", cwds[i], clean);
        char *resolved = lexical_clean(absolute, 1);
        result = relative_to(resolved, cwds[i]);
        /* ".." resolved by text is wrong after a symlink: keep the short
         * form only when it names the same object. */
        if (result && has_dotdot && !same_file(result, given)) {
            free(result);
            result = NULL;
        }
        free(absolute);
        free(resolved);
    }
    free(phys);
    if (!result) return clean;
    free(clean);
    return result;
}

/* ---- excludes ----------------------------------------------------------- */

typedef struct excl {
    CA_VEC(char *) user;
    int defaults;
} excl;

/* fnmatch(pattern, name, 0) for the default excludes, without fnmatch for
 * the two shapes they come in: a literal name, or '*' and a literal tail
 * (names hold no '/'). Every directory of a tree is asked, twice. */
static int match_default_dir(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof(default_excludes) / sizeof(default_excludes[0]); i++) {
        const char *g = default_excludes[i];
        if (g[0] == '*') {
            size_t t = strlen(g + 1);
            if (n >= t && memcmp(name + n - t, g + 1, t) == 0) return 1;
        } else if (g[0] == name[0] && strcmp(g, name) == 0) {
            return 1;
        }
    }
    return 0;
}

static int match_user_one(const excl *x, const char *s, size_t n)
{
    char *tmp = ca_xstrndup(s, n);
    int hit = 0;
    for (size_t i = 0; i < x->user.n && !hit; i++)
        if (fnmatch(x->user.v[i], tmp, 0) == 0) hit = 1;
    free(tmp);
    return hit;
}

/* An entry met in a walk: its relative path and its own name. */
static int match_user_entry(const excl *x, const char *path, const char *name)
{
    if (!x->user.n) return 0;
    return match_user_one(x, path, strlen(path)) || match_user_one(x, name, strlen(name));
}

/* A named file: its path and each component of a path under the cwd. */
static int match_user_named(const excl *x, const char *path)
{
    if (!x->user.n) return 0;
    if (match_user_one(x, path, strlen(path))) return 1;
    if (path[0] == '/' || strcmp(path, "..") == 0 || strncmp(path, "../", 3) == 0) return 0;
    const char *s = path;
    while (*s) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n && match_user_one(x, s, n)) return 1;
        if (!e) break;
        s = e + 1;
    }
    return 0;
}

/* ---- walk state --------------------------------------------------------- */

typedef struct dir_node {
    dev_t dev;
    ino_t ino;
    size_t parent; /* index into nodes, or NO_PARENT */
} dir_node;
#define NO_PARENT ((size_t)-1)

typedef struct listing listing;

typedef struct pending {
    char *path;
    size_t parent;
    /* the directory's device and inode when the parent's listing stat'ed
     * it already (known 1); roots are stat'ed when walked */
    int known;
    dev_t dev;
    ino_t ino;
    int64_t mtime_ns;
} pending;

typedef struct walk {
    const ca_discover_opts *opts;
    /* the languages whose files the walk lists (frontend/lang.h) */
    const ca_lang *const *langs;
    size_t nlangs;
    const ca_lang *only_default;  /* langs when the options name none */
    int64_t max_size;
    excl x;
    CA_VEC(ca_disc_file) files;
    CA_VEC(dir_node) nodes;
    size_t *slots; /* open-addressing set of node index + 1; 0 = empty */
    size_t nslots;
    CA_VEC(pending) stack;    /* real directories */
    CA_VEC(pending) deferred; /* directories reached through a symlink */
    /* helper threads reading directories ahead (prefetch_main) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    CA_VEC(listing *) queue;  /* directories to read, newest first */
    listing **ahead;          /* open addressing by path: listings read or queued, not yet walked */
    size_t nahead, ahead_used;
    CA_VEC(listing *) claimed; /* queued listings the walk read itself: freed at the end */
    int stop;
    int nhelpers;
    pthread_t *helpers;
} walk;

static uint64_t devino_hash(dev_t dev, ino_t ino)
{
    uint64_t k[2] = {(uint64_t)dev, (uint64_t)ino};
    return ca_hash64(k, sizeof(k), CA_HASH_SEED);
}

static size_t visited_find(const walk *w, dev_t dev, ino_t ino)
{
    if (!w->nslots) return NO_PARENT;
    size_t i = (size_t)devino_hash(dev, ino) & (w->nslots - 1);
    while (w->slots[i]) {
        const dir_node *n = &w->nodes.v[w->slots[i] - 1];
        if (n->dev == dev && n->ino == ino) return w->slots[i] - 1;
        i = (i + 1) & (w->nslots - 1);
    }
    return NO_PARENT;
}

static void visited_insert_slot(size_t *slots, size_t nslots, const dir_node *nodes, size_t idx)
{
    size_t i = (size_t)devino_hash(nodes[idx].dev, nodes[idx].ino) & (nslots - 1);
    while (slots[i]) i = (i + 1) & (nslots - 1);
    slots[i] = idx + 1;
}

static size_t visited_add(walk *w, dev_t dev, ino_t ino, size_t parent)
{
    dir_node n = {dev, ino, parent};
    CA_VEC_PUSH(w->nodes, n);
    size_t idx = w->nodes.n - 1;
    if ((w->nodes.n) * 2 > w->nslots) {
        size_t ns = w->nslots ? w->nslots * 2 : 64;
        size_t *slots = ca_xcalloc(ns, sizeof(*slots));
        for (size_t i = 0; i < idx; i++) visited_insert_slot(slots, ns, w->nodes.v, i);
        free(w->slots);
        w->slots = slots;
        w->nslots = ns;
    }
    visited_insert_slot(w->slots, w->nslots, w->nodes.v, idx);
    return idx;
}

static int is_ancestor(const walk *w, size_t from, dev_t dev, ino_t ino)
{
    for (size_t i = from; i != NO_PARENT; i = w->nodes.v[i].parent)
        if (w->nodes.v[i].dev == dev && w->nodes.v[i].ino == ino) return 1;
    return 0;
}

/* What the walk keeps of a stat: a listing holds one or two per entry. */
typedef struct st_lite {
    mode_t mode;
    dev_t dev;
    ino_t ino;
    int64_t size, mtime_ns;
} st_lite;

static st_lite lite(const struct stat *st)
{
    st_lite l = {st->st_mode, st->st_dev, st->st_ino, (int64_t)st->st_size, mtime_ns(st)};
    return l;
}

uint64_t ca_disc_state_hash(const char *path, int64_t size, int64_t mtime_ns, const char *language)
{
    size_t np = strlen(path) + 1, nl = language ? strlen(language) : 0;
    size_t n = np + sizeof(size) + sizeof(mtime_ns) + nl;
    char small[512];
    char *buf = n <= sizeof(small) ? small : ca_xmalloc(n);
    memcpy(buf, path, np);
    memcpy(buf + np, &size, sizeof(size));
    memcpy(buf + np + sizeof(size), &mtime_ns, sizeof(mtime_ns));
    if (nl) memcpy(buf + np + sizeof(size) + sizeof(mtime_ns), language, nl);
    uint64_t h = ca_content_hash(buf, n);
    if (buf != small) free(buf);
    return h ? h : 1;
}

/* hash: the entry's ca_disc_state_hash when its reader computed it, else 0 */
static void add_entry_h(walk *w, char *path, const st_lite *st, const char *language, char *diag, uint64_t hash)
{
    ca_disc_file f = {0};
    f.path = path;
    if (st) {
        f.size = st->size;
        f.mtime_ns = st->mtime_ns;
    }
    if (!diag) f.state_hash = hash ? hash : ca_disc_state_hash(path, f.size, f.mtime_ns, language);
    f.language = language; /* a ca_lang's name: static */
    f.diagnostic = diag;
    CA_VEC_PUSH(w->files, f);
}

static void add_entry(walk *w, char *path, const st_lite *st, const char *language, char *diag)
{
    add_entry_h(w, path, st, language, diag, 0);
}

/* A file (symlinks already followed into st): checks type, size, access. */
/* aerr: the errno of a read-access check, 0 when readable or not checked. */
static void add_file(walk *w, char *path, const st_lite *st, const char *language, int aerr, uint64_t hash)
{
    char *diag = NULL;
    if (!S_ISREG(st->mode)) {
        diag = ca_xasprintf("not a regular file (%s)", file_type_name(st->mode));
    } else if (st->size > w->max_size) {
        diag = ca_xasprintf("file too large (%lld bytes > limit %lld)", (long long)st->size,
                            (long long)w->max_size);
    } else if (aerr) {
        diag = errno_text(aerr);
    }
    add_entry_h(w, path, st, language, diag, hash);
}

/* Whether a regular file may be read: 0 or the errno. A file everyone may
 * read needs no check of its own (an ACL that denies it anyway shows when
 * the file is read). */
static int read_access(int dfd, const char *name, const st_lite *st)
{
    if (!S_ISREG(st->mode) || (st->mode & S_IROTH)) return 0;
    if (faccessat(dfd, name, R_OK, 0) == 0 || errno == ENOSYS) return 0;
    return errno;
}

static const char *walked_language(const walk *w, const char *name)
{
    const ca_lang *L = ca_lang_by_suffix(name, w->langs, w->nlangs);
    return L ? L->name : NULL;
}

/* A named file is listed whatever its suffix. */
static const char *named_language(const char *path)
{
    size_t n;
    const ca_lang *const *all = ca_lang_all(&n);
    const ca_lang *L = ca_lang_by_suffix(path, all, n);
    return (L ? L : ca_lang_default())->name;
}

/* One entry of a directory as read from the disk. */
typedef struct dir_entry {
    char *name;
    unsigned char type; /* d_type: DT_UNKNOWN when the file system does not say */
    int stated;         /* 0: a file the walk does not list, left unstatted */
    int lerr, terr;     /* errno of lstat, of stat through a symlink (0: fine) */
    int aerr;           /* read_access of a listed regular file */
    uint64_t hash;      /* ca_disc_state_hash of a listed file, by its reader */
    st_lite lst, tst;
} dir_entry;

/* A directory's listing with every stat the walk needs: the disk work of
 * entering a directory, which helper threads may do ahead of the walk. */
struct listing {
    char *path;
    int64_t mtime_ns;   /* of the directory, from the stat that found it (0: unknown) */
    int state;          /* 0 queued, 1 being read, 2 read (under walk.mu) */
    int open_err, read_err;
    int venv;           /* holds pyvenv.cfg: skipped by the default excludes */
    int borrowed;       /* the names are the recall's (not freed here) */
    dir_entry *v;
    size_t n;
};

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const dir_entry *)a)->name, ((const dir_entry *)b)->name);
}

/* A directory holding `pyvenv.cfg` is a virtualenv: known from its sorted
 * listing; a symlink of that name counts when it leads somewhere. */
static int is_virtualenv(int dfd, const char *dir, const dir_entry *v, size_t n)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(v[mid].name, "pyvenv.cfg");
        if (c == 0) {
            struct stat st;
            if (v[mid].type != DT_LNK) return 1;
            char *p = dir ? path_join(dir, "pyvenv.cfg") : ca_xstrdup("pyvenv.cfg");
            int r = fstatat(dfd, p, &st, 0) == 0;
            free(p);
            return r;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return 0;
}

/* Read directory `path` into L. Touches only read-only parts of w (and the
 * caller's on_dir, which must be thread-safe), so any thread may run it. */
/* What to hand fstatat for an entry: its name (beside an open directory,
 * dir NULL) or its path, built in *full. */
static const char *entry_arg(ca_sb *full, const char *dir, const char *name)
{
    if (!dir) return name;
    full->len = 0;
    if (strcmp(dir, ".") != 0) {
        ca_sb_adds(full, dir);
        if (dir[0] && dir[strlen(dir) - 1] != '/') ca_sb_addc(full, '/');
    }
    ca_sb_adds(full, name);
    return ca_sb_str(full);
}

static void read_listing(const walk *w, const char *path, int named, listing *L)
{
    CA_VEC(dir_entry) names = {0};
    ca_dir_names known;
    DIR *d = NULL;
    int dfd = AT_FDCWD; /* a recalled directory is not opened: its entries go by path */
    if (w->opts && w->opts->recall && L->mtime_ns && w->opts->recall(w->opts->recall_ctx, path, L->mtime_ns, &known)) {
        for (size_t i = 0; i < known.n; i++) {
            dir_entry ent;
            memset(&ent, 0, sizeof(ent));
            ent.name = (char *)known.names[i]; /* stays the caller's until ca_discover returns */
            ent.type = known.types[i];
            CA_VEC_PUSH(names, ent);
        }
        L->borrowed = 1;
    } else {
        d = opendir(path);
        if (!d) {
            L->open_err = errno;
            return;
        }
        dfd = dirfd(d);
        for (;;) {
            errno = 0;
            struct dirent *de = readdir(d);
            if (!de) {
                L->read_err = errno;
                break;
            }
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
            dir_entry ent;
            memset(&ent, 0, sizeof(ent));
            ent.name = ca_xstrdup(de->d_name);
            ent.type = de->d_type;
            CA_VEC_PUSH(names, ent);
        }
    }
    /* Sorted, so which of two names for one directory gets walked does not
     * depend on the file system's listing order (a recalled listing is in
     * order already: it was stored so). */
    int sorted = 1;
    for (size_t i = 1; i < names.n && sorted; i++) sorted = cmp_entry(&names.v[i - 1], &names.v[i]) < 0;
    if (!sorted) qsort(names.v, names.n, sizeof(*names.v), cmp_entry);
    L->v = names.v;
    L->n = names.n;
    ca_sb full = {0};
    /* default excludes never apply to a directory named on the command line */
    if (!named && w->x.defaults && is_virtualenv(dfd, d ? NULL : path, names.v, names.n)) {
        L->venv = 1;
        if (d) closedir(d);
        ca_sb_release(&full);
        return;
    }
    if (w->opts && w->opts->on_dir) {
        const char **nv = ca_xmalloc(sizeof(char *) * (names.n + 1));
        unsigned char *tv = ca_xmalloc(names.n + 1);
        for (size_t i = 0; i < names.n; i++) {
            nv[i] = names.v[i].name;
            tv[i] = names.v[i].type;
        }
        w->opts->on_dir(w->opts->on_dir_ctx, path, L->mtime_ns, nv, tv, names.n);
        free(nv);
        free(tv);
    }
    for (size_t i = 0; i < names.n; i++) {
        dir_entry *e = &names.v[i];
        /* Most of a tree is files we do not list: skip them unstatted. */
        if (e->type == DT_REG && !walked_language(w, e->name)) continue;
        e->stated = 1;
        const char *arg = entry_arg(&full, d ? NULL : path, e->name);
        struct stat st;
        if (fstatat(dfd, arg, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            e->lerr = errno;
            continue;
        }
        e->lst = lite(&st);
        if (S_ISLNK(st.st_mode)) {
            if (fstatat(dfd, arg, &st, 0) != 0) {
                e->terr = errno;
                continue;
            }
            e->tst = lite(&st);
        } else {
            e->tst = e->lst;
        }
        const char *lang = walked_language(w, e->name);
        if (lang) {
            e->aerr = read_access(dfd, arg, &e->tst);
            /* the path as the walk spells it (path_join) */
            const char *full_path = entry_arg(&full, strcmp(path, ".") == 0 ? NULL : path, e->name);
            e->hash = ca_disc_state_hash(full_path, e->tst.size, e->tst.mtime_ns, lang);
        }
    }
    ca_sb_release(&full);
    if (d) closedir(d);
}

static void listing_free(listing *L)
{
    if (!L) return;
    for (size_t i = 0; i < L->n && !L->borrowed; i++) free(L->v[i].name);
    free(L->v);
    free(L->path);
    free(L);
}

/* ---- helpers that read directories ahead of the walk ------------------- */

/* The walk itself stays on one thread, in one order, so its result does not
 * depend on timing. Reading a directory (listing it and stat'ing what the
 * walk will look at) is what costs, and it does not depend on the walk:
 * whoever reads a directory, a helper or the walk, queues its real
 * subdirectories that no exclude skips for reading too, newest first (the
 * order the walk's stack takes them in). The walk claims a directory's
 * listing by path when it gets there, reading it itself if nobody has,
 * and while it waits for one a helper is reading it reads another. */

static size_t ahead_slot(const walk *w, const char *path)
{
    size_t i = (size_t)ca_strhash(path, strlen(path)) & (w->nahead - 1);
    while (w->ahead[i] && strcmp(w->ahead[i]->path, path) != 0) i = (i + 1) & (w->nahead - 1);
    return i;
}

/* Caller holds w->mu. */
static void ahead_put(walk *w, listing *L)
{
    if ((w->ahead_used + 1) * 2 > w->nahead) {
        listing **old = w->ahead;
        size_t oldn = w->nahead;
        w->nahead = oldn ? oldn * 2 : 256;
        w->ahead = ca_xcalloc(w->nahead, sizeof(*w->ahead));
        for (size_t k = 0; k < oldn; k++)
            if (old[k]) w->ahead[ahead_slot(w, old[k]->path)] = old[k];
        free(old);
    }
    size_t i = ahead_slot(w, L->path);
    if (w->ahead[i]) return; /* queued already (two readers of one directory) */
    w->ahead[i] = L;
    w->ahead_used++;
    CA_VEC_PUSH(w->queue, L);
}

/* Caller holds w->mu. Removes and returns path's listing, or NULL. */
static listing *ahead_take(walk *w, const char *path)
{
    if (!w->nahead) return NULL;
    size_t i = ahead_slot(w, path);
    listing *L = w->ahead[i];
    if (!L) return NULL;
    /* backward-shift deletion keeps every probe chain whole */
    w->ahead[i] = NULL;
    w->ahead_used--;
    for (size_t j = (i + 1) & (w->nahead - 1); w->ahead[j]; j = (j + 1) & (w->nahead - 1)) {
        listing *m = w->ahead[j];
        w->ahead[j] = NULL;
        w->ahead[ahead_slot(w, m->path)] = m;
    }
    return L;
}

/* After reading L: queue the subdirectories the walk will enter (real
 * directories, not skipped by the default or user excludes). Caller holds
 * w->mu. */
static void queue_subdirs(walk *w, const listing *L)
{
    for (size_t i = L->n; i-- > 0 && !L->venv;) {
        const dir_entry *e = &L->v[i];
        if (!e->stated || e->lerr || !S_ISDIR(e->lst.mode)) continue;
        if (w->x.defaults && match_default_dir(e->name)) continue;
        char *child = path_join(L->path, e->name);
        if (match_user_entry(&w->x, child, e->name)) {
            free(child);
            continue;
        }
        listing *c = ca_xcalloc(1, sizeof(*c));
        c->path = child;
        c->mtime_ns = e->lst.mtime_ns;
        ahead_put(w, c);
        if (w->ahead[ahead_slot(w, child)] != c) listing_free(c);
    }
}

/* Read one queued listing (newest first); caller holds w->mu and gets it
 * back. 0 when the queue is empty. */
static int read_one(walk *w)
{
    while (w->queue.n) {
        listing *L = w->queue.v[--w->queue.n];
        if (L->state != 0) continue; /* the walk claimed it and reads it itself */
        L->state = 1;
        pthread_mutex_unlock(&w->mu);
        read_listing(w, L->path, 0, L);
        pthread_mutex_lock(&w->mu);
        L->state = 2;
        queue_subdirs(w, L);
        pthread_cond_broadcast(&w->cv);
        return 1;
    }
    return 0;
}

static void *prefetch_main(void *arg)
{
    walk *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->stop)
        if (!read_one(w)) pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* p's listing: read ahead, or read here. The caller frees it. */
static listing *take_listing(walk *w, pending *p, int named)
{
    if (!w->nhelpers) {
        listing *L = ca_xcalloc(1, sizeof(*L));
        L->path = ca_xstrdup(p->path);
        L->mtime_ns = p->mtime_ns;
        read_listing(w, p->path, named, L);
        return L;
    }
    pthread_mutex_lock(&w->mu);
    listing *L = named ? NULL : ahead_take(w, p->path);
    if (!L || L->state == 0) {
        /* nobody has read it: here, then (a queued copy is skipped by the
         * helpers, its state no longer 0, and freed with the queue) */
        if (L) {
            L->state = 3; /* claimed: read_one skips it; the walk owns it */
        }
        pthread_mutex_unlock(&w->mu);
        listing *mine = ca_xcalloc(1, sizeof(*mine));
        mine->path = ca_xstrdup(p->path);
        mine->mtime_ns = p->mtime_ns;
        read_listing(w, p->path, named, mine);
        pthread_mutex_lock(&w->mu);
        if (L) CA_VEC_PUSH(w->claimed, L);
        queue_subdirs(w, mine);
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        return mine;
    }
    while (L->state != 2)
        if (!read_one(w)) pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
    return L;
}

/* Enter one directory: list it, add its files, queue its subdirectories. */
static void walk_dir(walk *w, pending p, int named)
{
    if (!p.known) {
        struct stat st;
        if (stat(p.path, &st) != 0) {
            add_entry(w, p.path, NULL, NULL, errno_text(errno));
            return;
        }
        p.dev = st.st_dev;
        p.ino = st.st_ino;
        p.mtime_ns = mtime_ns(&st);
    }
    listing *L = take_listing(w, &p, named);
    if (visited_find(w, p.dev, p.ino) != NO_PARENT) {
        if (!named && is_ancestor(w, p.parent, p.dev, p.ino))
            add_entry(w, p.path, NULL, NULL, ca_xstrdup("symlink loop"));
        else
            free(p.path); /* a second name for a directory already walked */
        listing_free(L);
        return;
    }
    size_t node = visited_add(w, p.dev, p.ino, p.parent);
    if (L->open_err) {
        add_entry(w, p.path, NULL, NULL, errno_text(L->open_err));
        listing_free(L);
        return;
    }
    if (L->read_err) add_entry(w, ca_xstrdup(p.path), NULL, NULL, errno_text(L->read_err));

    CA_VEC(pending) subdirs = {0};
    for (size_t i = 0; i < L->n && !L->venv; i++) {
        const dir_entry *e = &L->v[i];
        const char *name = e->name;
        if (!e->stated) continue;
        const char *lang = walked_language(w, name);
        if (e->lerr) {
            if (lang) add_entry(w, path_join(p.path, name), NULL, lang, errno_text(e->lerr));
            continue;
        }
        int is_link = S_ISLNK(e->lst.mode);
        if (e->terr) {
            if (e->terr == ELOOP)
                add_entry(w, path_join(p.path, name), NULL, lang, ca_xstrdup("symlink loop"));
            else if (lang)
                add_entry(w, path_join(p.path, name), NULL, lang,
                          e->terr == ENOENT ? ca_xstrdup("broken symlink") : errno_text(e->terr));
            continue;
        }
        if (S_ISDIR(e->tst.mode)) {
            if (!w->x.defaults || !match_default_dir(name)) {
                char *child = path_join(p.path, name);
                if (match_user_entry(&w->x, child, name)) {
                    free(child);
                    continue;
                }
                pending c;
                memset(&c, 0, sizeof(c));
                c.path = child;
                c.parent = node;
                c.known = 1;
                c.dev = e->tst.dev;
                c.ino = e->tst.ino;
                c.mtime_ns = e->tst.mtime_ns;
                if (is_link)
                    CA_VEC_PUSH(w->deferred, c);
                else
                    CA_VEC_PUSH(subdirs, c);
            }
            continue;
        }
        if (!lang) continue;
        char *child = path_join(p.path, name);
        if (match_user_entry(&w->x, child, name)) {
            free(child);
            continue;
        }
        add_file(w, child, &e->tst, lang, e->aerr, e->hash);
    }
    listing_free(L);
    /* Reverse, so the stack pops them in name order. */
    for (size_t i = subdirs.n; i-- > 0;) CA_VEC_PUSH(w->stack, subdirs.v[i]);
    CA_VEC_FREE(subdirs);
    free(p.path);
}

static void run_walk(walk *w)
{
    for (;;) {
        if (w->stack.n) {
            pending p = w->stack.v[--w->stack.n];
            walk_dir(w, p, 0);
        } else if (w->deferred.n) {
            /* FIFO over symlinked directories keeps the order predictable. */
            pending p = w->deferred.v[0];
            memmove(w->deferred.v, w->deferred.v + 1, (w->deferred.n - 1) * sizeof(*w->deferred.v));
            w->deferred.n--;
            walk_dir(w, p, 0);
        } else {
            break;
        }
    }
}

static int cmp_file(const void *a, const void *b)
{
    return strcmp(((const ca_disc_file *)a)->path, ((const ca_disc_file *)b)->path);
}

static void free_file(ca_disc_file *f)
{
    free(f->path);

    free(f->diagnostic);
}

void ca_disc_files_free(ca_disc_file *files, size_t n)
{
    if (!files) return;
    for (size_t i = 0; i < n; i++) free_file(&files[i]);
    free(files);
}

static void walk_free(walk *w)
{
    for (size_t i = 0; i < w->x.user.n; i++) free(w->x.user.v[i]);
    CA_VEC_FREE(w->x.user);
    for (size_t i = 0; i < w->stack.n; i++) free(w->stack.v[i].path);
    for (size_t i = 0; i < w->deferred.n; i++) free(w->deferred.v[i].path);
    CA_VEC_FREE(w->stack);
    CA_VEC_FREE(w->deferred);
    /* what was read ahead but never walked (a second name for a directory) */
    for (size_t i = 0; i < w->nahead; i++) listing_free(w->ahead[i]);
    free(w->ahead);
    for (size_t i = 0; i < w->claimed.n; i++) listing_free(w->claimed.v[i]);
    CA_VEC_FREE(w->claimed);
    CA_VEC_FREE(w->queue);
    CA_VEC_FREE(w->nodes);
    free(w->slots);
}

/* A glob as the user wrote it, made comparable with our paths. */
static char *clean_glob(const char *g)
{
    while (g[0] == '.' && g[1] == '/') g += 2;
    size_t n = strlen(g);
    while (n > 1 && g[n - 1] == '/') n--;
    return ca_xstrndup(g, n);
}

int ca_discover(const char *const *paths, size_t npaths, const ca_discover_opts *opts,
                ca_disc_file **out, size_t *nout, char **err)
{
    static const char *const dot[] = {"."};
    *out = NULL;
    *nout = 0;
    if (err) *err = NULL;
    if (npaths == 0) {
        paths = dot;
        npaths = 1;
    }

    /* A missing named path is a usage error: find it before walking. */
    for (size_t i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) {
            if (err) *err = ca_xasprintf("%s: no such file or directory", paths[i]);
            return 2;
        }
    }

    walk w = {0};
    w.opts = opts;
    w.only_default = ca_lang_default();
    w.langs = opts && opts->nlangs ? opts->langs : &w.only_default;
    w.nlangs = opts && opts->nlangs ? opts->nlangs : 1;
    w.max_size = opts && opts->max_size > 0 ? opts->max_size : CA_DISCOVER_DEFAULT_MAX_SIZE;
    w.x.defaults = !(opts && opts->no_default_excludes);
    if (opts)
        for (size_t i = 0; i < opts->nexcludes; i++)
            if (opts->excludes[i] && opts->excludes[i][0]) CA_VEC_PUSH(w.x.user, clean_glob(opts->excludes[i]));

    CA_VEC(pending) roots = {0};
    for (size_t i = 0; i < npaths; i++) {
        char *disp = display_path(paths[i]);
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            int e = errno;
            add_entry(&w, disp, NULL, named_language(disp), errno_text(e));
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            pending p;
            memset(&p, 0, sizeof(p));
            p.path = disp;
            p.parent = NO_PARENT;
            CA_VEC_PUSH(roots, p);
            continue;
        }
        if (match_user_named(&w.x, disp)) {
            free(disp);
            continue;
        }
        st_lite named = lite(&st);
        add_file(&w, disp, &named, named_language(disp), read_access(AT_FDCWD, paths[i], &named), 0);
    }
    /* Named directories in the order given; each one's real tree first. */
    int jobs = opts && opts->jobs > 0 ? opts->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (roots.n && jobs > 1) {
        pthread_mutex_init(&w.mu, NULL);
        pthread_cond_init(&w.cv, NULL);
        w.helpers = ca_xmalloc(sizeof(pthread_t) * (size_t)(jobs - 1));
        for (int i = 0; i < jobs - 1; i++)
            if (pthread_create(&w.helpers[w.nhelpers], NULL, prefetch_main, &w) == 0) w.nhelpers++;
    }
    for (size_t i = 0; i < roots.n; i++) {
        walk_dir(&w, roots.v[i], 1);
        run_walk(&w);
    }
    CA_VEC_FREE(roots);
    if (w.helpers) {
        pthread_mutex_lock(&w.mu);
        w.stop = 1;
        pthread_cond_broadcast(&w.cv);
        pthread_mutex_unlock(&w.mu);
        for (int i = 0; i < w.nhelpers; i++) pthread_join(w.helpers[i], NULL);
        free(w.helpers);
        pthread_mutex_destroy(&w.mu);
        pthread_cond_destroy(&w.cv);
        w.helpers = NULL;
        w.nhelpers = 0;
    }

    if (w.files.n) qsort(w.files.v, w.files.n, sizeof(*w.files.v), cmp_file);
    size_t k = 0;
    for (size_t i = 0; i < w.files.n; i++) {
        if (k && strcmp(w.files.v[k - 1].path, w.files.v[i].path) == 0) {
            free_file(&w.files.v[i]);
            continue;
        }
        w.files.v[k++] = w.files.v[i];
    }
    *out = w.files.v;
    *nout = k;
    w.files.v = NULL;
    walk_free(&w);
    return 0;
}
