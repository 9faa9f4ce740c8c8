/*
 * test_cache.c — the directory-index blob (cache.h's ca_dirs format): what
 * is written reads back, and every cut or damaged blob is refused rather
 * than read past its end (a rescan then reads the directories afresh).
 * And a function's facts: every summary answer a function can have reads
 * back as written, so no file is lowered again for what its summary says.
 */
#include <stdlib.h>
#include <string.h>

#include "ca_test.h"
#include "model/cache.h"

static char *entries(const char *const *names, const unsigned char *types, size_t n, size_t *len)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += 2 + strlen(names[i]);
    char *e = malloc(total + 1);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        e[at++] = (char)types[i];
        memcpy(e + at, names[i], strlen(names[i]) + 1);
        at += strlen(names[i]) + 1;
    }
    *len = total;
    return e;
}

/* Walks the whole blob; the number of directories, or -1 when refused. */
static int count(const char *blob, size_t len)
{
    size_t at = 0;
    const char *path, *ent;
    int64_t mtime;
    size_t elen;
    int n = 0, rc;
    while ((rc = ca_dirs_next(blob, len, &at, &path, &mtime, &ent, &elen)) == 1) {
        if (at > len || ent + elen > blob + len || path + strlen(path) >= blob + len) return -2;
        n++;
    }
    return rc < 0 ? -1 : n;
}

static void test_round_trip(void)
{
    const char *names_a[] = {"a.py", "pkg", "sandbox.py"};
    const unsigned char types_a[] = {8, 4, 8};
    const char *names_b[] = {"x.py"};
    const unsigned char types_b[] = {0xff};
    ca_dir_rec d[3];
    memset(d, 0, sizeof(d));
    d[0].path = "tree";
    d[0].mtime_ns = 1795953020421916540LL;
    d[0].entries = entries(names_a, types_a, 3, &d[0].len);
    d[1].path = "tree/pkg";
    d[1].mtime_ns = -1; /* any 64-bit value survives */
    d[1].entries = entries(names_b, types_b, 1, &d[1].len);
    d[2].path = "tree/empty";
    d[2].mtime_ns = 0;
    d[2].entries = NULL;
    d[2].len = 0;

    size_t len = 0;
    char *blob = ca_dirs_encode(d, 3, &len);
    CHECK(blob != NULL && len > 0);
    size_t at = 0;
    const char *path, *ent;
    int64_t mtime;
    size_t elen;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(ca_dirs_next(blob, len, &at, &path, &mtime, &ent, &elen), 1);
        CHECK_STR_EQ(path, d[i].path);
        CHECK_EQ(mtime, d[i].mtime_ns);
        CHECK_EQ(elen, d[i].len);
        CHECK(elen == 0 || memcmp(ent, d[i].entries, elen) == 0);
    }
    CHECK_EQ(ca_dirs_next(blob, len, &at, &path, &mtime, &ent, &elen), 0);
    CHECK_EQ(count(blob, len), 3);

    /* every cut short of the end is refused or ends cleanly at a boundary,
     * and never reads past the bytes it was given */
    for (size_t cut = 0; cut < len; cut++) {
        char *part = malloc(cut ? cut : 1);
        memcpy(part, blob, cut);
        int n = count(part, cut);
        CHECK(n == -1 || (n >= 0 && n < 3));
        free(part);
    }
    /* a wrong tag, and a length field larger than what follows */
    char *bad = malloc(len);
    memcpy(bad, blob, len);
    bad[0] = 'X';
    CHECK_EQ(count(bad, len), -1);
    memcpy(bad, blob, len);
    size_t tag = strlen("ca-dirs 1\n");
    size_t lenfield = tag + strlen("tree") + 1 + 8;
    bad[lenfield + 3] = 0x7f;
    CHECK_EQ(count(bad, len), -1);
    /* an empty path is refused */
    memcpy(bad, blob, len);
    bad[tag] = 0;
    CHECK_EQ(count(bad, len), -1);
    free(bad);

    size_t elen0 = 0;
    char *none = ca_dirs_encode(NULL, 0, &elen0);
    CHECK_EQ(count(none, elen0), 0);
    free(none);
    free(blob);
    free(d[0].entries);
    free(d[1].entries);
}

/* Encodes f and decodes it into *back (memory from a); the decoder's answer. */
static int facts_round_trip(const ca_facts *f, ca_facts *back, ca_arena *a)
{
    char *text = ca_facts_encode(f);
    CHECK(text != NULL);
    memset(a, 0, sizeof(*a));
    memset(back, 0, sizeof(*back));
    int rc = text ? ca_facts_decode(text, back, a) : -1;
    free(text);
    return rc;
}

static void test_facts_returns(void)
{
    const char *params[] = {"t"};
    for (int r = ENG_RET_UNKNOWN; r <= ENG_RET_MAX; r++) {
        ca_facts f;
        memset(&f, 0, sizeof(f));
        f.sum.returns = r;
        f.sum.suspends = 1;
        f.sum.uses = 1;
        f.nparams = 1;
        f.params = params;
        f.varargs = -1;
        f.ret_type = "Timeout";
        ca_arena a;
        ca_facts back;
        CHECK_EQ(facts_round_trip(&f, &back, &a), 0);
        CHECK_EQ(back.sum.returns, r);
        CHECK_EQ(back.nparams, 1);
        CHECK_STR_EQ(back.ret_type, "Timeout");
        ca_arena_free(&a);
    }
    /* one past the largest answer is refused */
    ca_facts f;
    memset(&f, 0, sizeof(f));
    f.sum.returns = ENG_RET_MAX + 1;
    f.varargs = -1;
    ca_arena a;
    ca_facts back;
    CHECK_EQ(facts_round_trip(&f, &back, &a), -1);
    ca_arena_free(&a);
}

/* Function flags keep all 32 bits through the store (FN_PLAIN_INIT is the
 * top one): a reused file's functions read what a fresh lowering says. */
static void test_facts_flags(void)
{
    const uint64_t flags[] = {0u, FN_RELEASES_SELF, FN_PLAIN_INIT, FN_PLAIN_INIT | FN_UNCANCELLED_VIA | 1u, 0xffffffffu,
                              0xffffffffffffffffull, 0x100000000ull | FN_OWN_TASK};
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
        ca_facts f;
        memset(&f, 0, sizeof(f));
        f.varargs = -1;
        f.fflags = flags[i];
        ca_arena a;
        ca_facts back;
        CHECK_EQ(facts_round_trip(&f, &back, &a), 0);
        CHECK_EQ(back.fflags, flags[i]);
        ca_arena_free(&a);
    }
}

int main(void)
{
    test_round_trip();
    test_facts_returns();
    test_facts_flags();
    CA_TEST_MAIN();
}
