/*
 * test_grammar.c — the fetched tree-sitter-python grammar (ts_python) links
 * against Debian's tree-sitter runtime with a compatible ABI, and its
 * external scanner (indentation) works: the build, not the frontend, is
 * under test here.
 */
#include <string.h>
#include <tree_sitter/api.h>

#include "ca_test.h"

const TSLanguage *tree_sitter_python(void);

static TSTree *parse(TSParser *p, const char *src)
{
    return ts_parser_parse_string(p, NULL, src, (uint32_t)strlen(src));
}

int main(void)
{
    const TSLanguage *lang = tree_sitter_python();
    CHECK(lang != NULL);
    uint32_t abi = ts_language_version(lang);
    CHECK(abi >= TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION);
    CHECK(abi <= TREE_SITTER_LANGUAGE_VERSION);

    TSParser *p = ts_parser_new();
    CHECK(ts_parser_set_language(p, lang));

    TSTree *t = parse(p, "async def f(s):\n"
                         "    async with s:\n"
                         "        await s.get()\n"
                         "    return 1\n");
    TSNode root = ts_tree_root_node(t);
    CHECK_STR_EQ(ts_node_type(root), "module");
    CHECK(!ts_node_has_error(root));
    CHECK_EQ(ts_node_named_child_count(root), 1);
    TSNode def = ts_node_named_child(root, 0);
    CHECK_STR_EQ(ts_node_type(def), "function_definition");
    /* Two statements in the body: the scanner's DEDENT closed the with-block. */
    TSNode body = ts_node_child_by_field_name(def, "body", 4);
    CHECK_EQ(ts_node_named_child_count(body), 2);
    ts_tree_delete(t);

    t = parse(p, "def f(:\n    pass\n");
    CHECK(ts_node_has_error(ts_tree_root_node(t)));
    ts_tree_delete(t);

    ts_parser_delete(p);
    CA_TEST_MAIN();
}
