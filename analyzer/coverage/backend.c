/*
 * backend.c — implementation of backend.h: configuration globs, the marker
 * directory walk-up with its per-directory cache, and the stem fallback.
 */
#include "coverage/backend.h"
#include "util/util.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const marker_files[] = {"sandbox.py", "provider.py", "client.py", "backend.py"};

/* What is known of one directory: whether it holds a marker file, and
 * what the walk up from a file in it found (the nearest marker directory's
 * name, or none). Files in one directory share it, so a tree costs one walk
 * up per directory rather than per file. */
typedef struct dir_slot {
    char *dir;          /* NULL = empty slot */
    signed char marker; /* -1 not known yet, else 0/1 */
    signed char near_known;
    char *near;         /* NULL = no marker directory above */
} dir_slot;

struct ca_backend_cache {
    pthread_mutex_t mu;
    ca_backend_map *maps; /* deep copies */
    size_t nmaps;
    dir_slot *slots; /* open addressing, power-of-two size */
    size_t nslots, used;
};

ca_backend_cache *ca_backend_cache_new(const ca_backend_map *maps, size_t nmaps)
{
    ca_backend_cache *c = ca_xcalloc(1, sizeof(*c));
    pthread_mutex_init(&c->mu, NULL);
    if (nmaps) {
        c->maps = ca_xcalloc(nmaps, sizeof(*c->maps));
        for (size_t i = 0; i < nmaps; i++) {
            c->maps[i].name = ca_xstrdup(maps[i].name);
            c->maps[i].glob = ca_xstrdup(maps[i].glob);
        }
        c->nmaps = nmaps;
    }
    c->nslots = 64;
    c->slots = ca_xcalloc(c->nslots, sizeof(*c->slots));
    return c;
}

void ca_backend_cache_free(ca_backend_cache *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->nmaps; i++) {
        free((char *)c->maps[i].name);
        free((char *)c->maps[i].glob);
    }
    free(c->maps);
    for (size_t i = 0; i < c->nslots; i++) {
        free(c->slots[i].dir);
        free(c->slots[i].near);
    }
    free(c->slots);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

/* Caller holds c->mu. Index of dir[0..n)'s slot, or of the empty slot for it. */
static size_t slot_for(const ca_backend_cache *c, const char *dir, size_t n)
{
    size_t i = (size_t)ca_strhash(dir, n) & (c->nslots - 1);
    while (c->slots[i].dir && !(strncmp(c->slots[i].dir, dir, n) == 0 && c->slots[i].dir[n] == 0))
        i = (i + 1) & (c->nslots - 1);
    return i;
}

/* Caller holds c->mu. dir[0..n)'s slot; NULL when there is none and create
 * is 0. A slot moves when the table grows: use it under the lock only. */
static dir_slot *slot_get(ca_backend_cache *c, const char *dir, size_t n, int create)
{
    size_t i = slot_for(c, dir, n);
    if (c->slots[i].dir) return &c->slots[i];
    if (!create) return NULL;
    if ((c->used + 1) * 2 > c->nslots) {
        dir_slot *old = c->slots;
        size_t oldn = c->nslots;
        c->nslots *= 2;
        c->slots = ca_xcalloc(c->nslots, sizeof(*c->slots));
        for (size_t k = 0; k < oldn; k++)
            if (old[k].dir) c->slots[slot_for(c, old[k].dir, strlen(old[k].dir))] = old[k];
        free(old);
        i = slot_for(c, dir, n);
    }
    dir_slot *s = &c->slots[i];
    s->dir = ca_xstrndup(dir, n);
    s->marker = -1;
    c->used++;
    return s;
}

/* Caller holds c->mu. The first answer stays (threads may race to give it). */
static void marker_put(ca_backend_cache *c, const char *dir, int has)
{
    dir_slot *s = slot_get(c, dir, strlen(dir), 1);
    if (s->marker < 0) s->marker = (signed char)has;
}

static int has_marker(ca_backend_cache *c, const char *dir)
{
    pthread_mutex_lock(&c->mu);
    const dir_slot *s = slot_get(c, dir, strlen(dir), 0);
    int has = s ? s->marker : -1;
    pthread_mutex_unlock(&c->mu);
    if (has >= 0) return has;

    /* The disk check runs unlocked; two threads may both do it, harmlessly. */
    has = 0;
    for (size_t k = 0; k < sizeof(marker_files) / sizeof(marker_files[0]) && !has; k++) {
        char *p = ca_xasprintf("%s/%s", dir, marker_files[k]);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) has = 1;
        free(p);
    }
    pthread_mutex_lock(&c->mu);
    marker_put(c, dir, has);
    pthread_mutex_unlock(&c->mu);
    return has;
}

static char *clean_path(const char *p);

void ca_backend_cache_note_dir(void *cache, const char *dir, const char *const *names, const unsigned char *types,
                               size_t n)
{
    ca_backend_cache *c = cache;
    int has = 0;
    for (size_t k = 0; k < sizeof(marker_files) / sizeof(marker_files[0]); k++) {
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (strcmp(names[mid], marker_files[k]) < 0) lo = mid + 1;
            else hi = mid;
        }
        if (lo == n || strcmp(names[lo], marker_files[k]) != 0) continue;
        if (types[lo] != DT_REG) return; /* a symlink, or the file system does not say: stat it when asked */
        has = 1;
    }
    char *d = clean_path(dir);
    pthread_mutex_lock(&c->mu);
    marker_put(c, d, has);
    pthread_mutex_unlock(&c->mu);
    free(d);
}

/* Whether clean_path would return p as it is (discovery's paths are):
 * no empty component (doubled or trailing '/'), no "." component. */
static int is_clean(const char *p)
{
    const char *s = p;
    if (*s == '/') s++; /* the root's slash stays */
    while (*s) {
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == 0 || (len == 1 && s[0] == '.')) return 0;
        if (!e) break;
        s = e + 1;
        if (!*s) return 0;
    }
    return 1;
}

/* Drop "./" components and duplicate '/' (".." kept); "" stays "". */
static char *clean_path(const char *p)
{
    if (is_clean(p)) return ca_xstrdup(p);
    ca_sb sb = {0};
    if (p[0] == '/') ca_sb_addc(&sb, '/');
    const char *s = p;
    while (*s) {
        while (*s == '/') s++;
        if (!*s) break;
        const char *e = s;
        while (*e && *e != '/') e++;
        if (!(e - s == 1 && s[0] == '.')) {
            if (sb.len && sb.buf[sb.len - 1] != '/') ca_sb_addc(&sb, '/');
            ca_sb_add(&sb, s, (size_t)(e - s));
        }
        s = e;
    }
    return ca_sb_detach(&sb);
}

/* 1 and *name (owned by the cache; NULL for none) when dir[0..n)'s walk up
 * is known. */
static int near_get(ca_backend_cache *c, const char *dir, size_t n, const char **name)
{
    pthread_mutex_lock(&c->mu);
    const dir_slot *s = slot_get(c, dir, n, 0);
    int known = s && s->near_known;
    if (known) *name = s->near;
    pthread_mutex_unlock(&c->mu);
    return known;
}

/* Remember dir[0..n)'s walk up (the first answer stays); returns the
 * cache's copy of the name. */
static const char *near_put(ca_backend_cache *c, const char *dir, size_t n, const char *name)
{
    pthread_mutex_lock(&c->mu);
    dir_slot *s = slot_get(c, dir, n, 1);
    if (!s->near_known) {
        s->near = name ? ca_xstrdup(name) : NULL;
        s->near_known = 1;
    }
    const char *kept = s->near;
    pthread_mutex_unlock(&c->mu);
    return kept;
}

static char *base_name(const char *p, size_t n)
{
    size_t s = n;
    while (s > 0 && p[s - 1] != '/') s--;
    return ca_xstrndup(p + s, n - s);
}

/* The cache-owned name of the nearest marker directory above the file at
 * p (slash: where its name starts; first_end: the end of the path's first
 * usable component), or NULL. */
static const char *nearest_marker(ca_backend_cache *c, const char *p, size_t slash, size_t first_end)
{
    size_t own = slash ? slash - 1 : 0;
    const char *near = NULL;
    if (near_get(c, p, own, &near)) return near;
    /* Walk up until a marker, or a directory whose answer is known; every
     * directory passed on the way gets the same answer, so the next file
     * below one of them stops there. */
    CA_VEC(size_t) passed = {0};
    size_t dir_end = own;
    while (dir_end >= first_end) {
        if (dir_end != own && near_get(c, p, dir_end, &near)) break;
        char *name = base_name(p, dir_end);
        int has = 0;
        if (strcmp(name, "..") != 0) {
            char *dir = ca_xstrndup(p, dir_end);
            has = has_marker(c, dir);
            free(dir);
        }
        if (has) {
            near = near_put(c, p, dir_end, name);
            free(name);
            break;
        }
        free(name);
        CA_VEC_PUSH(passed, dir_end);
        size_t up = dir_end;
        while (up > 0 && p[up - 1] != '/') up--;
        if (up == 0) break;
        dir_end = up - 1;
    }
    for (size_t i = 0; i < passed.n; i++) near_put(c, p, passed.v[i], near);
    CA_VEC_FREE(passed);
    near_put(c, p, own, near); /* when own was not passed (a marker itself, or no directory to walk) */
    return near;
}

/* Where the file name starts in p, and the end of p's first usable
 * component (0: none; ".", "/" and ".." components excluded). */
static void path_parts(const char *p, size_t *slash, size_t *first_end)
{
    size_t len = strlen(p);
    *slash = len;
    while (*slash > 0 && p[*slash - 1] != '/') (*slash)--;
    *first_end = 0;
    const char *s = p;
    while (*s == '/') s++;
    for (;;) {
        const char *e = strchr(s, '/');
        if (!e) break; /* s is the file itself: there is no directory */
        if (!(e - s == 2 && s[0] == '.' && s[1] == '.')) {
            *first_end = (size_t)(e - p);
            break;
        }
        s = e + 1;
    }
}

int ca_backend_dir_marker(ca_backend_cache *c, const char *path, const char **marker)
{
    *marker = NULL;
    if (c->nmaps) return 1;
    char *p = clean_path(path ? path : "");
    size_t slash, first_end;
    path_parts(p, &slash, &first_end);
    if (first_end) *marker = nearest_marker(c, p, slash, first_end);
    free(p);
    return 0;
}

int ca_backend_has_maps(const ca_backend_cache *c) { return c->nmaps > 0; }

const char *ca_backend_configured(ca_backend_cache *c, const char *path)
{
    if (!c->nmaps) return NULL;
    char *p = clean_path(path ? path : "");
    const char *hit = NULL;
    for (size_t i = 0; i < c->nmaps && !hit; i++)
        if (fnmatch(c->maps[i].glob, p, 0) == 0) hit = c->maps[i].name;
    free(p);
    return hit;
}

char *ca_backend_name(ca_backend_cache *c, const char *path)
{
    char *p = clean_path(path ? path : "");
    for (size_t i = 0; i < c->nmaps; i++) {
        if (fnmatch(c->maps[i].glob, p, 0) == 0) {
            free(p);
            return ca_xstrdup(c->maps[i].name);
        }
    }

    size_t slash, first_end;
    path_parts(p, &slash, &first_end);
    const char *file = p + slash;

    if (first_end) {
        const char *near = nearest_marker(c, p, slash, first_end);
        if (near) {
            char *name = ca_xstrdup(near);
            free(p);
            return name;
        }
    }

    char *name;
    if (strcmp(file, "__init__.py") == 0 || strcmp(file, "__init__.pyi") == 0) {
        name = slash > 1 ? base_name(p, slash - 1) : ca_xstrdup("");
        if (!name[0] || strcmp(name, "..") == 0) {
            /* "__init__.py" or "../__init__.py": the directory's real name. */
            char *dir = slash > 1 ? ca_xstrndup(p, slash - 1) : ca_xstrdup(slash == 1 ? "/" : ".");
            char *real = realpath(dir, NULL);
            free(name);
            name = real && strlen(real) > 1 ? base_name(real, strlen(real)) : ca_xstrdup("__init__");
            free(real);
            free(dir);
        }
    } else {
        const char *dot = strrchr(file, '.');
        name = dot && dot != file ? ca_xstrndup(file, (size_t)(dot - file)) : ca_xstrdup(file[0] ? file : p);
    }
    free(p);
    if (!name[0]) {
        free(name);
        name = ca_xstrdup(".");
    }
    return name;
}
