/*
 * util.h — small shared helpers: growable string buffers (git's strbuf
 * habit), growable arrays, an arena for per-file allocations, checked
 * allocation, and a 64-bit content hash.
 *
 * Ownership: a ca_sb owns its buffer; ca_sb_detach() hands it to the caller.
 * Allocation failure aborts with a message (the only place below main that
 * may end the process: there is nothing sensible to report without memory).
 */
#ifndef CA_UTIL_H
#define CA_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

void *ca_xmalloc(size_t n);
void *ca_xcalloc(size_t n, size_t sz);
void *ca_xrealloc(void *p, size_t n);
char *ca_xstrdup(const char *s);
char *ca_xstrndup(const char *s, size_t n);
/* printf into a fresh heap string; caller frees. */
char *ca_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Called on allocation failure before the message and abort() (NULL: none);
 * a worker process (scan/contain.c) ends there with a status of its own. */
void ca_set_oom_handler(void (*fn)(void));

/* Growable byte buffer, always NUL-terminated. Zero-initialised is empty. */
typedef struct ca_sb {
    char *buf;
    size_t len;
    size_t cap;
} ca_sb;

void ca_sb_grow(ca_sb *sb, size_t extra);
void ca_sb_add(ca_sb *sb, const char *data, size_t n);
void ca_sb_adds(ca_sb *sb, const char *s);
void ca_sb_addc(ca_sb *sb, char c);
void ca_sb_addf(ca_sb *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ca_sb_vaddf(ca_sb *sb, const char *fmt, va_list ap);
void ca_sb_reset(ca_sb *sb);
/* Returns the buffer (never NULL) and leaves sb empty; caller frees. */
char *ca_sb_detach(ca_sb *sb);
void ca_sb_release(ca_sb *sb);
/* The buffer's text, "" when nothing was added. Valid until the next add. */
const char *ca_sb_str(const ca_sb *sb);

/* Growable array of T: declare with CA_VEC(T) name; push with CA_VEC_PUSH. */
#define CA_VEC(T) struct { T *v; size_t n, cap; }
#define CA_VEC_PUSH(vec, item)                                                   \
    do {                                                                         \
        if ((vec).n == (vec).cap) {                                              \
            (vec).cap = (vec).cap ? (vec).cap * 2 : 8;                           \
            (vec).v = ca_xrealloc((vec).v, (vec).cap * sizeof(*(vec).v));        \
        }                                                                        \
        (vec).v[(vec).n++] = (item);                                             \
    } while (0)
#define CA_VEC_FREE(vec) do { free((vec).v); (vec).v = NULL; (vec).n = (vec).cap = 0; } while (0)

/* Arena: many small allocations freed in one call. */
typedef struct ca_arena_block ca_arena_block;
typedef struct ca_arena {
    ca_arena_block *head;
    size_t total;
} ca_arena;

void *ca_arena_alloc(ca_arena *a, size_t n);          /* zeroed, 16-aligned */
char *ca_arena_strndup(ca_arena *a, const char *s, size_t n);
char *ca_arena_strdup(ca_arena *a, const char *s);
void ca_arena_free(ca_arena *a);

/* FNV-1a 64 over bytes; used for content hashes and fingerprints. */
uint64_t ca_hash64(const void *data, size_t n, uint64_t seed);
/* A fast hash for in-memory tables only (never stored: it may change):
 * eight bytes at a time. */
uint64_t ca_strhash(const void *data, size_t n);
#define CA_HASH_SEED 0xcbf29ce484222325ULL
/* 16 lowercase hex digits + NUL into out. */
void ca_hash_hex(uint64_t h, char out[17]);

/* Read a whole file into a heap buffer (NUL-terminated). Returns 0 on
 * success, else errno; *out untouched on failure. */
int ca_read_file(const char *path, char **out, size_t *len);

/* Edit distance between a and b (insertions, deletions, substitutions and
 * swaps of neighbours count one each); strings longer than 40 bytes are
 * never close (returns 99). */
size_t ca_edit_distance(const char *a, const char *b);
/* The entry of known[0..n) (NULL-terminated when n is (size_t)-1) closest
 * to s, for "did you mean" hints: within two edits, or one for words of up
 * to four letters, compared case-insensitively; NULL when none is. */
const char *ca_closest(const char *s, const char *const *known, size_t n);

/* Wall clock in ms (CLOCK_REALTIME) and monotonic seconds. */
double ca_now_monotonic(void);
/* ISO-8601 UTC timestamp "2026-11-29T08:42:39Z" of now into out (>= 32). */
void ca_iso_now(char *out, size_t n);

#endif
