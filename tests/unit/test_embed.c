/*
 * test_embed.c — the table CMake generates from rules/ (cmake/embed_rules.cmake):
 * sorted for binary search, NUL-terminated, byte-identical to the files.
 */
#include <stdlib.h>
#include <string.h>

#include "ca_test.h"
#include "util/embed.h"
#include "util/util.h"

int main(void)
{
    CHECK(ca_embed_find("rules/no-such-file") == NULL);
    CHECK(ca_embed_find("") == NULL);
    CHECK(ca_embedded_files[ca_embedded_count].name == NULL);

    for (size_t i = 0; i < ca_embedded_count; i++) {
        const ca_embedded *e = &ca_embedded_files[i];
        CHECK(strncmp(e->name, "rules/", 6) == 0);
        if (i > 0) CHECK(strcmp(ca_embedded_files[i - 1].name, e->name) < 0);
        CHECK(ca_embed_find(e->name) == e);
        CHECK(e->data[e->len] == '\0');

        /* Tests run in the source root: compare with the file itself. */
        char *buf = NULL;
        size_t len = 0;
        CHECK_EQ(ca_read_file(e->name, &buf, &len), 0);
        CHECK_EQ(len, e->len);
        if (buf && len == e->len) CHECK_MEM_EQ(buf, e->data, len);
        free(buf);
    }
    CA_TEST_MAIN();
}
