/*
 * util.c — implementation of util.h: buffers, arena, hashing, file reading.
 *
 * The folder: util/ holds what every stage uses and that knows nothing of
 * the analysis: growable buffers and vectors, the arena, hashes, file
 * reading (util.c), the JSON writer and reader (json.c), the embedded files
 * (embed.h).
 */
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

static void (*oom_handler)(void);

void ca_set_oom_handler(void (*fn)(void)) { oom_handler = fn; }

static void oom(void)
{
    if (oom_handler) oom_handler();
    fputs("cancelaudit: out of memory\n", stderr);
    abort();
}

void *ca_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) oom();
    return p;
}

void *ca_xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) oom();
    return p;
}

void *ca_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) oom();
    return q;
}

char *ca_xstrdup(const char *s)
{
    return ca_xstrndup(s ? s : "", strlen(s ? s : ""));
}

char *ca_xstrndup(const char *s, size_t n)
{
    char *p = ca_xmalloc(n + 1);
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *ca_xasprintf(const char *fmt, ...)
{
    ca_sb sb = {0};
    va_list ap;
    va_start(ap, fmt);
    ca_sb_vaddf(&sb, fmt, ap);
    va_end(ap);
    return ca_sb_detach(&sb);
}

void ca_sb_grow(ca_sb *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1) cap *= 2;
    sb->buf = ca_xrealloc(sb->buf, cap);
    sb->cap = cap;
}

void ca_sb_add(ca_sb *sb, const char *data, size_t n)
{
    ca_sb_grow(sb, n);
    if (n) memcpy(sb->buf + sb->len, data, n);
    sb->len += n;
    sb->buf[sb->len] = 0;
}

void ca_sb_adds(ca_sb *sb, const char *s) { ca_sb_add(sb, s, strlen(s)); }

void ca_sb_addc(ca_sb *sb, char c) { ca_sb_add(sb, &c, 1); }

void ca_sb_vaddf(ca_sb *sb, const char *fmt, va_list ap)
{
    char small[256];
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(small, sizeof(small), fmt, cp);
    va_end(cp);
    if (n < 0) return;
    if ((size_t)n < sizeof(small)) {
        ca_sb_add(sb, small, (size_t)n);
        return;
    }
    ca_sb_grow(sb, (size_t)n);
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void ca_sb_addf(ca_sb *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ca_sb_vaddf(sb, fmt, ap);
    va_end(ap);
}

void ca_sb_reset(ca_sb *sb)
{
    sb->len = 0;
    if (sb->buf) sb->buf[0] = 0;
}

char *ca_sb_detach(ca_sb *sb)
{
    char *b = sb->buf ? sb->buf : ca_xstrdup("");
    sb->buf = NULL;
    sb->len = sb->cap = 0;
    return b;
}

void ca_sb_release(ca_sb *sb)
{
    free(sb->buf);
    sb->buf = NULL;
    sb->len = sb->cap = 0;
}

const char *ca_sb_str(const ca_sb *sb) { return sb->buf ? sb->buf : ""; }

struct ca_arena_block {
    ca_arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *ca_arena_alloc(ca_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    ca_arena_block *b = a->head;
    if (!b || b->used + n > b->cap) {
        size_t cap = n > 65536 ? n : 65536;
        b = ca_xmalloc(sizeof(*b) + cap);
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
        a->total += cap;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *ca_arena_strndup(ca_arena *a, const char *s, size_t n)
{
    char *p = ca_arena_alloc(a, n + 1);
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *ca_arena_strdup(ca_arena *a, const char *s) { return ca_arena_strndup(a, s, strlen(s)); }

void ca_arena_free(ca_arena *a)
{
    ca_arena_block *b = a->head;
    while (b) {
        ca_arena_block *n = b->next;
        free(b);
        b = n;
    }
    a->head = NULL;
    a->total = 0;
}

uint64_t ca_hash64(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t ca_strhash(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    uint64_t t = 0;
    for (size_t k = 0; i + k < n; k++) t |= (uint64_t)p[i + k] << (8 * k);
    h = (h ^ t) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 32);
}

void ca_hash_hex(uint64_t h, char out[17])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 15; i >= 0; i--) {
        out[i] = hex[h & 15];
        h >>= 4;
    }
    out[16] = 0;
}

int ca_read_file(const char *path, char **out, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return EINVAL;
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    char *buf = ca_xmalloc(cap + 1);
    size_t n = 0;
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = ca_xrealloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            free(buf);
            close(fd);
            return e;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = 0;
    *out = buf;
    *len = n;
    return 0;
}

double ca_now_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ca_iso_now(char *out, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

size_t ca_edit_distance(const char *a, const char *b)
{
    /* optimal string alignment: a swap of two neighbours is one edit, as
     * typists make it ("scna" for "scan") */
    size_t na = strlen(a), nb = strlen(b);
    if (na > 40 || nb > 40) return 99;
    size_t rows[3][41], *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= nb; j++) prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[nb];
}

const char *ca_closest(const char *s, const char *const *known, size_t n)
{
    char low[48];
    size_t len = strlen(s);
    if (len >= sizeof(low)) return NULL;
    for (size_t i = 0; i <= len; i++) low[i] = (char)tolower((unsigned char)s[i]);
    const char *best = NULL;
    size_t bd = len <= 4 ? 2 : 3;
    for (size_t i = 0; n == (size_t)-1 ? known[i] != NULL : i < n; i++) {
        char k[48];
        size_t kl = strlen(known[i]);
        if (kl >= sizeof(k)) continue;
        for (size_t j = 0; j <= kl; j++) k[j] = (char)tolower((unsigned char)known[i][j]);
        size_t d = ca_edit_distance(low, k);
        if (d < bd) {
            bd = d;
            best = known[i];
        }
    }
    return best;
}
