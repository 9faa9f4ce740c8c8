/*
 * test_util.c — analyzer/util/util.h: string buffers, vectors, the arena, the
 * content hash (pinned to the published FNV-1a 64 vectors, since stored
 * fingerprints depend on it never changing) and ca_read_file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ca_test.h"
#include "util/util.h"

static void test_sb(void)
{
    ca_sb sb = {0};
    CHECK_STR_EQ(ca_sb_str(&sb), "");
    CHECK_EQ(sb.len, 0);

    ca_sb_adds(&sb, "await ");
    ca_sb_addc(&sb, 'x');
    ca_sb_add(&sb, "()garbage", 2);
    ca_sb_addf(&sb, " line %d col %s", 12, "3");
    CHECK_STR_EQ(ca_sb_str(&sb), "await x() line 12 col 3");
    CHECK_EQ(sb.len, strlen("await x() line 12 col 3"));

    ca_sb_reset(&sb);
    CHECK_STR_EQ(ca_sb_str(&sb), "");
    CHECK_EQ(sb.len, 0);

    /* Growth across many reallocations keeps every byte, embedded NULs too. */
    for (int i = 0; i < 10000; i++) ca_sb_addc(&sb, (char)('a' + i % 26));
    ca_sb_add(&sb, "\0z", 2);
    CHECK_EQ(sb.len, 10002);
    CHECK(sb.buf[9999] == (char)('a' + 9999 % 26));
    CHECK(sb.buf[10000] == '\0' && sb.buf[10001] == 'z' && sb.buf[10002] == '\0');

    char *s = ca_sb_detach(&sb);
    CHECK(s != NULL && s[0] == 'a');
    CHECK(sb.buf == NULL && sb.len == 0);
    CHECK_STR_EQ(ca_sb_str(&sb), "");
    free(s);

    s = ca_sb_detach(&sb); /* never NULL, even when empty */
    CHECK(s != NULL && s[0] == '\0');
    free(s);

    char *big = ca_xasprintf("%s-%05d", "fmt", 42);
    ca_sb_addf(&sb, "%s/%s", big, big);
    CHECK_STR_EQ(ca_sb_str(&sb), "fmt-00042/fmt-00042");
    free(big);
    ca_sb_release(&sb);
    CHECK(sb.buf == NULL);
}

static void test_vec(void)
{
    CA_VEC(int) v = {0};
    for (int i = 0; i < 1000; i++) CA_VEC_PUSH(v, i * 3);
    CHECK_EQ(v.n, 1000);
    CHECK(v.cap >= v.n);
    CHECK_EQ(v.v[0], 0);
    CHECK_EQ(v.v[999], 2997);
    CA_VEC_FREE(v);
    CHECK(v.v == NULL && v.n == 0 && v.cap == 0);
}

static void test_arena(void)
{
    ca_arena a = {0};
    int all_zero = 1, all_aligned = 1;
    for (size_t i = 1; i <= 2000; i++) {
        unsigned char *p = ca_arena_alloc(&a, i % 97 + 1);
        if ((uintptr_t)p % 16 != 0) all_aligned = 0;
        for (size_t k = 0; k < i % 97 + 1; k++)
            if (p[k]) all_zero = 0;
        memset(p, 0xab, i % 97 + 1); /* a later block must still come back zeroed */
    }
    CHECK(all_zero);
    CHECK(all_aligned);

    /* Larger than any sensible block size. */
    unsigned char *huge = ca_arena_alloc(&a, 1 << 20);
    CHECK(huge[0] == 0 && huge[(1 << 20) - 1] == 0);

    char *d = ca_arena_strdup(&a, "session");
    CHECK_STR_EQ(d, "session");
    char *n = ca_arena_strndup(&a, "websocket", 3);
    CHECK_STR_EQ(n, "web");
    CHECK(a.total > 0);

    ca_arena_free(&a);
    CHECK(a.head == NULL && a.total == 0);
    ca_arena_free(&a); /* freeing an empty arena is fine */
}

static void test_hash(void)
{
    /* FNV-1a 64 test vectors. */
    CHECK(ca_hash64("", 0, CA_HASH_SEED) == 0xcbf29ce484222325ULL);
    CHECK(ca_hash64("a", 1, CA_HASH_SEED) == 0xaf63dc4c8601ec8cULL);
    CHECK(ca_hash64("foobar", 6, CA_HASH_SEED) == 0x85944171f73967e8ULL);
    /* Chaining through the seed hashes the concatenation. */
    CHECK(ca_hash64("bar", 3, ca_hash64("foo", 3, CA_HASH_SEED)) == 0x85944171f73967e8ULL);

    char hex[17];
    ca_hash_hex(0x85944171f73967e8ULL, hex);
    CHECK_STR_EQ(hex, "85944171f73967e8");
    ca_hash_hex(0x1ULL, hex);
    CHECK_STR_EQ(hex, "0000000000000001");
}

static void test_read_file(void)
{
    char path[] = "/tmp/ca_test_util_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    static const char content[] = "async def f():\n\0\xff await x\n";
    size_t clen = sizeof content - 1;
    CHECK_EQ(write(fd, content, clen), clen);
    close(fd);

    char *buf = NULL;
    size_t len = 0;
    CHECK_EQ(ca_read_file(path, &buf, &len), 0);
    CHECK_EQ(len, clen);
    if (buf) {
        CHECK_MEM_EQ(buf, content, clen);
        CHECK(buf[len] == '\0');
        free(buf);
    }

    /* An empty file reads as an empty, NUL-terminated buffer. */
    CHECK(truncate(path, 0) == 0);
    buf = NULL;
    CHECK_EQ(ca_read_file(path, &buf, &len), 0);
    CHECK_EQ(len, 0);
    CHECK(buf != NULL && buf[0] == '\0');
    free(buf);

    unlink(path);
    char *untouched = (char *)"sentinel";
    buf = untouched;
    CHECK_EQ(ca_read_file(path, &buf, &len), ENOENT);
    CHECK(buf == untouched);

    /* A directory is not a regular file: an error, not a hang or a crash. */
    CHECK(ca_read_file("/tmp", &buf, &len) != 0);
    CHECK(buf == untouched);
}

/* "did you mean": edits, swaps of neighbours, case, and what is too far */
static void test_closest(void)
{
    CHECK(ca_edit_distance("", "") == 0);
    CHECK(ca_edit_distance("scan", "scan") == 0);
    CHECK(ca_edit_distance("scna", "scan") == 1);   /* a swap is one edit */
    CHECK(ca_edit_distance("matrx", "matrix") == 1);
    CHECK(ca_edit_distance("--foramt", "--format") == 1);
    CHECK(ca_edit_distance("abc", "xyz") == 3);
    CHECK(ca_edit_distance("a123456789012345678901234567890123456789012", "a") == 99);
    const char *const opts[] = {"--format", "--output", "--select", "--statistics", NULL};
    CHECK_STR_EQ(ca_closest("--foramt", opts, (size_t)-1), "--format");
    CHECK_STR_EQ(ca_closest("--STATISTIC", opts, (size_t)-1), "--statistics");
    CHECK(ca_closest("--verbose", opts, (size_t)-1) == NULL);
    const char *const cmds[] = {"scan", "diff", "merge"};
    CHECK_STR_EQ(ca_closest("dif", cmds, 3), "diff");
    CHECK(ca_closest("xy", cmds, 3) == NULL); /* short words: one edit at most */
    CHECK(ca_closest("", cmds, 3) == NULL);
}

int main(void)
{
    test_closest();
    test_sb();
    test_vec();
    test_arena();
    test_hash();
    test_read_file();
    CA_TEST_MAIN();
}
