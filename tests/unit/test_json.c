/*
 * test_json.c — unit tests for json.h: writer escaping (control characters,
 * invalid UTF-8, line separators), separators and pretty printing, misuse
 * detection, reader round trips, \u escapes, numbers, error positions and
 * the depth limit on hostile nesting.
 */
#include "util/json.h"
#include "util/util.h"
#include "ca_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Escape one string with the writer's rules and return it (static buffer). */
static const char *esc(const char *s, size_t n, int html_safe)
{
    static ca_sb sb;
    ca_sb_reset(&sb);
    ca_json_escape(&sb, s, n, html_safe);
    return ca_sb_str(&sb);
}
#define ESC(lit) esc(lit, sizeof(lit) - 1, 0)

static void test_escaping(void)
{
    CHECK_STR_EQ(ESC("plain"), "\"plain\"");
    CHECK_STR_EQ(ESC("q\"b\\s/"), "\"q\\\"b\\\\s/\"");
    CHECK_STR_EQ(ESC("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
    CHECK_STR_EQ(ESC("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"");
    CHECK_STR_EQ(ESC("a\0b"), "\"a\\u0000b\"");
    CHECK_STR_EQ(ESC("<script>&"), "\"<script>&\"");
    CHECK_STR_EQ(esc("</script>&", 10, 1), "\"\\u003c/script\\u003e\\u0026\"");
    /* valid multi-byte sequences pass through */
    CHECK_STR_EQ(ESC("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    /* U+2028 / U+2029 are escaped */
    CHECK_STR_EQ(ESC("a\xe2\x80\xa8" "b\xe2\x80\xa9"), "\"a\\u2028b\\u2029\"");
    /* bytes that are not UTF-8: each a lone surrogate U+DC80+byte
     * (surrogateescape), so that no two names print the same */
    CHECK_STR_EQ(ESC("a\xff" "b"), "\"a\\udcff" "b\"");
    CHECK_STR_EQ(ESC("\xe2\x82"), "\"\\udce2\\udc82\"");               /* truncated at end */
    CHECK_STR_EQ(ESC("\xe2\x82" "A"), "\"\\udce2\\udc82" "A\"");       /* truncated mid-string */
    CHECK_STR_EQ(ESC("\xc0\xaf"), "\"\\udcc0\\udcaf\"");               /* overlong */
    CHECK_STR_EQ(ESC("\xed\xa0\x80"), "\"\\udced\\udca0\\udc80\"");     /* surrogate */
    CHECK_STR_EQ(ESC("\xf4\x90\x80\x80"), "\"\\udcf4\\udc90\\udc80\\udc80\""); /* > U+10FFFF */
    CHECK_STR_EQ(ESC("\x80"), "\"\\udc80\"");                           /* lone continuation */
    CHECK_STR_EQ(ESC("\xef\xbf\xbd"), "\"\xef\xbf\xbd\"");             /* a real U+FFFD stays one */
    /* and back: the reader turns them into the bytes again */
    {
        const char *names[] = {"a\xff" "b", "\xe2\x82" "A", "\xed\xa0\x80", "\x80\x80", "ok \xc3\xa9"};
        for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
            ca_sb sb = {0};
            ca_json_escape(&sb, names[k], strlen(names[k]), 0);
            ca_json_doc doc;
            CHECK(ca_json_parse(sb.buf, sb.len, 0, &doc, NULL) == 0);
            CHECK(doc.root && doc.root->type == CA_JSON_STRING && strcmp(doc.root->str, names[k]) == 0);
            ca_json_doc_free(&doc);
            ca_sb_release(&sb);
        }
    }

    size_t adv;
    CHECK(ca_json_utf8_next("\xf0\x9f\x98\x80", 4, &adv) == 0x1F600 && adv == 4);
    CHECK(ca_json_utf8_next("\xf0\x9f\x98", 3, &adv) == -1 && adv == 3);
    CHECK(ca_json_utf8_next("\xe0\x80\x80", 3, &adv) == -1 && adv == 1);
}

static void test_writer_compact(void)
{
    ca_sb sb = {0};
    ca_json_writer w;
    ca_json_init(&w, &sb, 0);
    ca_json_begin_object(&w);
    ca_json_kv_string(&w, "s", "x\"y");
    ca_json_kv_int(&w, "i", -42);
    ca_json_kv_bool(&w, "t", 1);
    ca_json_kv_bool(&w, "f", 0);
    ca_json_kv_null(&w, "n");
    ca_json_kv_string(&w, "nul", NULL);
    ca_json_key(&w, "a");
    ca_json_begin_array(&w);
    ca_json_int(&w, 1);
    ca_json_double(&w, 0.1);
    ca_json_begin_object(&w);
    ca_json_end_object(&w);
    ca_json_begin_array(&w);
    ca_json_end_array(&w);
    ca_json_string_n(&w, "a\0b", 3);
    ca_json_end_array(&w);
    ca_json_key(&w, "k\n");
    ca_json_int(&w, INT64_MIN);
    ca_json_end_object(&w);
    CHECK(ca_json_finish(&w) == 0);
    CHECK_STR_EQ(ca_sb_str(&sb),
              "{\"s\":\"x\\\"y\",\"i\":-42,\"t\":true,\"f\":false,\"n\":null,\"nul\":null,"
              "\"a\":[1,0.1,{},[],\"a\\u0000b\"],\"k\\n\":-9223372036854775808}");
    ca_sb_release(&sb);
}

static void test_writer_pretty(void)
{
    ca_sb sb = {0};
    ca_json_writer w;
    ca_json_init(&w, &sb, 1);
    ca_json_begin_object(&w);
    ca_json_kv_string(&w, "a", "b");
    ca_json_key(&w, "list");
    ca_json_begin_array(&w);
    ca_json_int(&w, 1);
    ca_json_begin_object(&w);
    ca_json_kv_int(&w, "x", 2);
    ca_json_end_object(&w);
    ca_json_end_array(&w);
    ca_json_key(&w, "empty");
    ca_json_begin_array(&w);
    ca_json_end_array(&w);
    ca_json_end_object(&w);
    CHECK(ca_json_finish(&w) == 0);
    CHECK_STR_EQ(ca_sb_str(&sb),
              "{\n"
              "  \"a\": \"b\",\n"
              "  \"list\": [\n"
              "    1,\n"
              "    {\n"
              "      \"x\": 2\n"
              "    }\n"
              "  ],\n"
              "  \"empty\": []\n"
              "}");
    ca_sb_release(&sb);
}

static void test_writer_doubles(void)
{
    struct { double v; const char *want; } cases[] = {
        {0.1, "0.1"}, {3.0, "3"}, {-0.5, "-0.5"}, {1e300, "1e+300"},
        {12.345678901234567, "12.345678901234567"}, {NAN, "null"}, {INFINITY, "null"}, {-INFINITY, "null"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ca_sb sb = {0};
        ca_json_writer w;
        ca_json_init(&w, &sb, 0);
        ca_json_double(&w, cases[i].v);
        CHECK(ca_json_finish(&w) == 0);
        CHECK_STR_EQ(ca_sb_str(&sb), cases[i].want);
        if (cases[i].want[0] != 'n') CHECK(strtod(ca_sb_str(&sb), NULL) == cases[i].v);
        ca_sb_release(&sb);
    }
}

static void test_writer_misuse(void)
{
    ca_sb sb = {0};
    ca_json_writer w;

    ca_json_init(&w, &sb, 0);           /* nothing written */
    CHECK(ca_json_finish(&w) == -1);

    ca_json_init(&w, &sb, 0);           /* key outside an object */
    ca_json_key(&w, "k");
    CHECK(ca_json_finish(&w) == -1);

    ca_json_init(&w, &sb, 0);           /* value without a key */
    ca_json_begin_object(&w);
    ca_json_int(&w, 1);
    ca_json_end_object(&w);
    CHECK(ca_json_finish(&w) == -1);

    ca_json_init(&w, &sb, 0);           /* key without a value */
    ca_json_begin_object(&w);
    ca_json_key(&w, "k");
    ca_json_end_object(&w);
    CHECK(ca_json_finish(&w) == -1);

    ca_json_init(&w, &sb, 0);           /* unbalanced */
    ca_json_begin_array(&w);
    CHECK(ca_json_finish(&w) == -1);

    ca_json_init(&w, &sb, 0);           /* mismatched end */
    ca_json_begin_array(&w);
    ca_json_end_object(&w);
    CHECK(ca_json_finish(&w) == -1);

    ca_json_init(&w, &sb, 0);           /* two top-level values */
    ca_json_int(&w, 1);
    ca_json_int(&w, 2);
    CHECK(ca_json_finish(&w) == -1);
    ca_sb_release(&sb);
}

static int parse_ok(const char *text, ca_json_doc *doc)
{
    char *err = NULL;
    int rc = ca_json_parse(text, strlen(text), 0, doc, &err);
    if (rc != 0) fprintf(stderr, "unexpected parse error for [%s]: %s\n", text, err);
    free(err);
    return rc == 0;
}

/* Parse text expecting failure; returns the message (caller frees). */
static char *parse_err(const char *text, size_t len, int depth)
{
    ca_json_doc doc;
    char *err = NULL;
    int rc = ca_json_parse(text, len, depth, &doc, &err);
    CHECK(rc == -1);
    CHECK(doc.root == NULL);
    ca_json_doc_free(&doc);
    return err ? err : ca_xstrdup("(no message)");
}

static void check_err(const char *text, const char *want)
{
    char *e = parse_err(text, strlen(text), 0);
    CHECK_STR_EQ(e, want);
    free(e);
}

static void test_reader_values(void)
{
    ca_json_doc doc;
    if (!parse_ok(" {\"a\": [1, -0, 1.5e3, true, false, null, \"s\"], \"o\": {}, \"e\": [],"
                  " \"big\": 9223372036854775807, \"over\": 9223372036854775808,"
                  " \"min\": -9223372036854775808, \"a\": \"dup\"}\n", &doc)) {
        ca_test_fail(__FILE__, __LINE__, "see above");
        return;
    }
    const ca_json_value *r = doc.root;
    CHECK(r->type == CA_JSON_OBJECT && r->len == 7);
    CHECK(ca_json_get(r, "missing") == NULL);
    const ca_json_value *a = &r->items[0];
    CHECK(a->type == CA_JSON_ARRAY && a->len == 7);
    CHECK(ca_json_at(a, 0)->is_int && ca_json_at(a, 0)->integer == 1);
    CHECK(ca_json_at(a, 1)->is_int && ca_json_at(a, 1)->integer == 0);
    CHECK(!ca_json_at(a, 2)->is_int && ca_json_at(a, 2)->number == 1500.0);
    CHECK(ca_json_at(a, 3)->type == CA_JSON_BOOL && ca_json_at(a, 3)->boolean == 1);
    CHECK(ca_json_at(a, 4)->type == CA_JSON_BOOL && ca_json_at(a, 4)->boolean == 0);
    CHECK(ca_json_at(a, 5)->type == CA_JSON_NULL);
    CHECK(ca_json_at(a, 6)->type == CA_JSON_STRING && strcmp(ca_json_at(a, 6)->str, "s") == 0);
    CHECK(ca_json_at(a, 7) == NULL);
    CHECK(ca_json_get(r, "a")->type == CA_JSON_STRING); /* last duplicate wins */
    CHECK(ca_json_get(r, "o")->type == CA_JSON_OBJECT && ca_json_get(r, "o")->len == 0);
    CHECK(ca_json_get(r, "e")->type == CA_JSON_ARRAY && ca_json_get(r, "e")->len == 0);
    CHECK(ca_json_get(r, "big")->is_int && ca_json_get(r, "big")->integer == INT64_MAX);
    CHECK(!ca_json_get(r, "over")->is_int && ca_json_get(r, "over")->number > 9.2e18);
    CHECK(ca_json_get(r, "min")->is_int && ca_json_get(r, "min")->integer == INT64_MIN);
    CHECK_STR_EQ(ca_json_type_name(ca_json_get(r, "o")->type), "object");
    ca_json_doc_free(&doc);

    /* scalars at top level, BOM, input not NUL-terminated */
    if (parse_ok("\xEF\xBB\xBF\"x\"", &doc)) {
        CHECK(doc.root->type == CA_JSON_STRING && strcmp(doc.root->str, "x") == 0);
        ca_json_doc_free(&doc);
    }
    char buf[] = {'4', '2', '7'};
    CHECK(ca_json_parse(buf, 2, 0, &doc, NULL) == 0 && doc.root->integer == 42);
    ca_json_doc_free(&doc);
}

static void test_reader_escapes(void)
{
    ca_json_doc doc;
    if (!parse_ok("[\"\\u00e9\\ud83d\\ude00\\u0000x\", \"\\ud800\", \"\\udc00\\u0041\","
                  " \"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\uD83D\\uDE00\", \"\\ud83d\\u0041\"]", &doc)) {
        ca_test_fail(__FILE__, __LINE__, "see above");
        return;
    }
    const ca_json_value *s0 = ca_json_at(doc.root, 0);
    CHECK(s0->len == 8 && memcmp(s0->str, "\xc3\xa9\xf0\x9f\x98\x80\0x", 8) == 0);
    CHECK_STR_EQ(ca_json_at(doc.root, 1)->str, "\xef\xbf\xbd");          /* lone high surrogate */
    CHECK_STR_EQ(ca_json_at(doc.root, 2)->str, "\xef\xbf\xbd" "A");      /* lone low surrogate below DC80 */
    CHECK_STR_EQ(ca_json_at(doc.root, 3)->str, "\"\\/\b\f\n\r\t");
    CHECK_STR_EQ(ca_json_at(doc.root, 4)->str, "\xf0\x9f\x98\x80");      /* upper-case hex */
    CHECK_STR_EQ(ca_json_at(doc.root, 5)->str, "\xef\xbf\xbd" "A");      /* high then non-low */
    ca_json_doc_free(&doc);
}

/* Whatever the writer emits, the reader reads back as the same data. */
static void test_round_trip(void)
{
    static const char *strings[] = {
        "", "plain", "quote\" backslash\\ slash/", "new\nline\r\ttab", "\x01\x02\x1f\x7f",
        "<script>alert('x')</script>", "100% : , ;", "caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80",
    };
    size_t ns = sizeof strings / sizeof strings[0];
    for (int pretty = 0; pretty <= 1; pretty++) {
        ca_sb sb = {0};
        ca_json_writer w;
        ca_json_init(&w, &sb, pretty);
        ca_json_begin_object(&w);
        ca_json_key(&w, "strings");
        ca_json_begin_array(&w);
        for (size_t i = 0; i < ns; i++) ca_json_string(&w, strings[i]);
        ca_json_end_array(&w);
        for (size_t i = 0; i < ns; i++) ca_json_kv_int(&w, strings[i], (int64_t)i);
        ca_json_key(&w, "bad");
        ca_json_string(&w, "a\xff\xfe" "b");
        ca_json_key(&w, "d");
        ca_json_double(&w, 2.5e-7);
        ca_json_end_object(&w);
        CHECK(ca_json_finish(&w) == 0);

        ca_json_doc doc;
        char *err = NULL;
        CHECK(ca_json_parse(sb.buf, sb.len, 0, &doc, &err) == 0);
        if (err) {
            fprintf(stderr, "round trip parse: %s\n", err);
            free(err);
            ca_sb_release(&sb);
            continue;
        }
        const ca_json_value *arr = ca_json_get(doc.root, "strings");
        CHECK(arr && arr->len == ns);
        for (size_t i = 0; arr && i < ns; i++) {
            CHECK_STR_EQ(ca_json_at(arr, i)->str, strings[i]);
            const ca_json_value *k = ca_json_get(doc.root, strings[i]);
            CHECK(k && k->is_int && k->integer == (int64_t)i);
        }
        CHECK_STR_EQ(ca_json_get(doc.root, "bad")->str, "a\xff\xfe" "b"); /* bytes that are not UTF-8 come back */
        CHECK(ca_json_get(doc.root, "d")->number == 2.5e-7);
        ca_json_doc_free(&doc);
        ca_sb_release(&sb);
    }
}

static void test_reader_errors(void)
{
    check_err("", "line 1, column 1: unexpected end of input, expected a value");
    check_err("   \n ", "line 2, column 2: unexpected end of input, expected a value");
    check_err("{\n  \"a\": tru\n}", "line 2, column 8: unexpected 't', expected a value");
    check_err("[1,]", "line 1, column 4: unexpected ']', expected a value");
    check_err("[1 2]", "line 1, column 4: unexpected '2', expected ',' or ']'");
    check_err("{\"a\" 1}", "line 1, column 6: unexpected '1', expected ':' after the key");
    check_err("{\"a\":1,}", "line 1, column 8: unexpected '}', expected a string key");
    check_err("{a:1}", "line 1, column 2: unexpected 'a', expected a string key");
    check_err("01", "line 1, column 2: unexpected '1', expected end of input after the document");
    check_err("1 x", "line 1, column 3: unexpected 'x', expected end of input after the document");
    check_err("-", "line 1, column 2: unexpected end of input, expected a digit");
    check_err("1.", "line 1, column 3: unexpected end of input, expected a digit after '.'");
    check_err("1e+", "line 1, column 4: unexpected end of input, expected a digit in the exponent");
    check_err("\"abc", "line 1, column 1: unterminated string");
    check_err("[\"a\tb\"]", "line 1, column 4: control character U+0009 in string (escape it)");
    check_err("[\"a\xff\"]", "line 1, column 4: invalid UTF-8 in string");
    check_err("[\"\\x\"]", "line 1, column 3: invalid escape in string");
    check_err("[\"\\u12\"]", "line 1, column 3: invalid \\u escape (need 4 hex digits)");
    check_err("[\"\xc3\xa9\", x]", "line 1, column 7: unexpected 'x', expected a value");
    check_err("[\"\xc3\xa9\",\n\xc3\xa9]", "line 2, column 1: unexpected U+00E9, expected a value");
    check_err("// c\n1", "line 1, column 1: unexpected '/', expected a value");
    check_err("[1]\xff", "line 1, column 4: unexpected byte 0xFF, expected end of input after the document");
    check_err("{\"a\":[1}", "line 1, column 8: unexpected '}', expected ',' or ']'");
    /* embedded NUL bytes in the input are not JSON */
    char *e = parse_err("[1,\0]", 5, 0);
    CHECK_STR_EQ(e, "line 1, column 4: unexpected U+0000, expected a value");
    free(e);
}

static void test_depth(void)
{
    ca_json_doc doc;
    char *err = NULL;
    CHECK(ca_json_parse("[[[1]]]", 7, 3, &doc, &err) == 0 && err == NULL);
    ca_json_doc_free(&doc);
    char *e = parse_err("[[[1]]]", 7, 2);
    CHECK_STR_EQ(e, "line 1, column 3: nesting deeper than 2 levels");
    free(e);
    e = parse_err("{\"a\":{\"b\":[]}}", 14, 2);
    CHECK_STR_EQ(e, "line 1, column 11: nesting deeper than 2 levels");
    free(e);

    /* a million open brackets: a message, not a stack overflow */
    size_t n = 1000000;
    char *deep = ca_xmalloc(n);
    memset(deep, '[', n);
    e = parse_err(deep, n, 0);
    CHECK_STR_EQ(e, "line 1, column 513: nesting deeper than 512 levels");
    free(e);

    /* writer and reader agree on deep but allowed nesting */
    ca_sb sb = {0};
    ca_json_writer w;
    ca_json_init(&w, &sb, 0); /* pretty output of this would be quadratic in size */
    for (int i = 0; i < 100000; i++) ca_json_begin_array(&w);
    ca_json_int(&w, 7);
    for (int i = 0; i < 100000; i++) ca_json_end_array(&w);
    CHECK(ca_json_finish(&w) == 0);
    CHECK(ca_json_parse(sb.buf, sb.len, 100000, &doc, &err) == 0);
    const ca_json_value *v = doc.root;
    int levels = 0;
    while (v && v->type == CA_JSON_ARRAY) {
        v = ca_json_at(v, 0);
        levels++;
    }
    CHECK(levels == 100000 && v && v->integer == 7);
    ca_json_doc_free(&doc);
    ca_sb_release(&sb);
    free(deep);
}

int main(void)
{
    test_escaping();
    test_writer_compact();
    test_writer_pretty();
    test_writer_doubles();
    test_writer_misuse();
    test_reader_values();
    test_reader_escapes();
    test_round_trip();
    test_reader_errors();
    test_depth();
    CA_TEST_MAIN();
}
