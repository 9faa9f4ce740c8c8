/*
 * test_catalog.c — ca_catalog_match answers what fnmatch answers: its
 * shortcuts (a literal pattern is compared whole, a wildcard pattern's
 * literal head and tail are checked first) never turn away a string that
 * fnmatch(pattern, s, 0) accepts, nor accept one it refuses. Patterns with
 * brackets, escapes and '?' included; then every category of the built-in
 * catalog against a list of names, entry order kept (first match wins).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "ca_test.h"
#include "catalog/catalog.h"
#include "util/embed.h"

static const char *const patterns[] = {
    "open", "*.close", "create*", "asyncio.*", "a*b*c", "*", "**", "*x*", "?", "a?c", "*.?", "[*]abc",
    "[ab]*.x", "a\\*b", "\\?x*", "*]", "x[!.]y", "a*[*]", "*.ws_connect", "os.open", "a.b.c", "*c", "ab*ab",
    "*.", ".*", "",
};

static const char *const names[] = {
    "open", "opens", "x.close", ".close", "close", "create", "create_task", "asyncio.sleep", "asyncio", "abc",
    "aXbYc", "ab", "a", "x", "*abc", "]abc", "a.x", "b.yz.x", "a*b", "a\\*b", "?x", "?xyz", "\\?x", "x]",
    "x.y", "xay", "a*", "a[*]", "s.ws_connect", "ws_connect", "os.open", "a.b.c", "c", "abab", "ab.ab",
    "aba", "x.", ".", ".x", "\xff\xfe", "caf\xc3\xa9", "x.\xc3\xa9",
};

int main(void)
{
    size_t np = sizeof(patterns) / sizeof(patterns[0]), nn = sizeof(names) / sizeof(names[0]);
    for (size_t i = 0; i < np; i++) {
        char *err = NULL;
        ca_catalog *c = ca_catalog_clone(ca_catalog_builtin(&err));
        CHECK(c != NULL);
        /* a category the built-in catalog leaves empty: the pattern alone */
        CHECK_EQ(ca_catalog_add(c, "settle-call", patterns[i], NULL), 0);
        for (size_t k = 0; k < nn; k++) {
            int want = *names[k] && patterns[i][0] && fnmatch(patterns[i], names[k], 0) == 0;
            int got = 0;
            const ca_cat_entry *e = ca_catalog_match(c, CAT_SETTLE_CALL, names[k]);
            for (; e; e = NULL)
                if (strcmp(e->pattern, patterns[i]) == 0) got = 1;
            if (got != want) fprintf(stderr, "    pattern '%s' name '%s': %d, fnmatch %d\n", patterns[i], names[k], got, want);
            CHECK_EQ(got, want);
        }
        ca_catalog_free(c);
    }
    /* the built-in catalog: the first entry of the category that fnmatch
     * accepts, in file order (the .cat lines read here directly) */
    char *err = NULL;
    const ca_catalog *b = ca_catalog_builtin(&err);
    CHECK(b != NULL);
    static const char *const real[] = {
        "asyncio.create_task", "loop.create_task", "aiohttp.ClientSession", "open", "os.open", "x.ws_connect",
        "create_box", "connect", "close", "aclose", "asyncio.shield", "asyncio.wait_for", "anyio.CancelScope",
        "asyncio.CancelledError", "trio.Cancelled", "BaseException", "self._lock", "asyncio.Lock", "x.y.z",
        "contextlib.AsyncExitStack", "stack.enter_async_context", "nursery.start_soon", "tg.create_task",
        "loop.run_in_executor", "sock.accept", "aio", "pthread_mutex_lock", "read", "malloc", "free",
    };
    int compared = 0;
    for (size_t k = 0; k < sizeof(real) / sizeof(real[0]); k++) {
        for (int cat = 0; cat < CAT__COUNT; cat++) {
            int want = 0;
            for (size_t f = 0; f < ca_embedded_count && !want; f++) {
                const ca_embedded *e = &ca_embedded_files[f];
                size_t nl = strlen(e->name);
                if (strncmp(e->name, "rules/catalog/", 14) != 0 || nl < 4 || strcmp(e->name + nl - 4, ".cat") != 0)
                    continue;
                for (const char *line = e->data; line && *line && !want;) {
                    const char *eol = strchr(line, '\n');
                    char buf[512], word[128], pat[256];
                    size_t len = eol ? (size_t)(eol - line) : strlen(line);
                    if (len < sizeof(buf)) {
                        memcpy(buf, line, len);
                        buf[len] = 0;
                        char *hash = strchr(buf, '#');
                        if (hash) *hash = 0;
                        if (sscanf(buf, "%127s %255s", word, pat) == 2 && ca_catalog_category(word) == cat &&
                            fnmatch(pat, real[k], 0) == 0)
                            want = 1;
                        if (want) {
                            const ca_cat_entry *got = ca_catalog_match(b, (ca_cat_kind)cat, real[k]);
                            CHECK(got != NULL);
                            if (got) CHECK_STR_EQ(got->pattern, pat);
                            compared++;
                        }
                    }
                    line = eol ? eol + 1 : NULL;
                }
            }
            if (!want) CHECK(ca_catalog_match(b, (ca_cat_kind)cat, real[k]) == NULL);
        }
    }
    CHECK(compared > 10);
    /* ca_catalog_entries lists a category in file order, added ones last */
    {
        ca_catalog *c = ca_catalog_clone(b);
        size_t n0 = 0, n1 = 0;
        const ca_cat_entry *v = ca_catalog_entries(c, CAT_TASK_ENTRY, &n0);
        CHECK(n0 > 5);
        CHECK(v != NULL && strcmp(v[0].pattern, "asyncio.run") == 0);
        CHECK_EQ(ca_catalog_add(c, "task-entry", "*start_job*", NULL), 0);
        v = ca_catalog_entries(c, CAT_TASK_ENTRY, &n1);
        CHECK_EQ(n1, n0 + 1);
        if (n1 == n0 + 1) CHECK_STR_EQ(v[n0].pattern, "*start_job*");
        ca_catalog_free(c);
    }
    /* a name's words: snake_case and camelCase split, a capital run's last
     * capital starting the next word, whole words only */
    CHECK(ca_name_has_word("close_handle", "close"));
    CHECK(ca_name_has_word("hLsarClose", "close"));
    CHECK(ca_name_has_word("hRCloseServiceHandle", "close"));
    CHECK(ca_name_has_word("HTTPServer", "server"));
    CHECK(ca_name_has_word("hDRSUnbind", "unbind"));
    CHECK(!ca_name_has_word("closed", "close"));
    CHECK(!ca_name_has_word("enclose_all", "close"));
    CHECK(!ca_name_has_word(NULL, "close"));
    CA_TEST_MAIN();
}
