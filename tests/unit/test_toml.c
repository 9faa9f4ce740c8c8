/*
 * test_toml.c — unit tests for analyzer/config/toml.c: every TOML 1.0 construct
 * the configuration may use (keys, tables, arrays of tables, each string
 * form and escape, number bases, floats, booleans, dates, arrays, inline
 * tables), value positions, the redefinition rules, errors with their
 * line:column, and hostile input (100,000-deep nesting, huge tables,
 * invalid UTF-8) that must fail cleanly or stay fast.
 */
#include "ca_test.h"
#include "config/toml.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse(const char *text, ca_toml_doc *doc, char **err)
{
    return ca_toml_parse(text, strlen(text), "t.toml", doc, err);
}

/* text must parse; returns the doc (caller frees). */
static ca_toml_doc ok(const char *text)
{
    ca_toml_doc doc;
    char *err = NULL;
    int r = parse(text, &doc, &err);
    if (r != 0) fprintf(stderr, "unexpected error: %s\n  in: %s\n", err ? err : "?", text);
    CHECK(r == 0);
    free(err);
    return doc;
}

/* text must fail with a message that starts with `where` ("t.toml:L:C: ")
 * and contains `what`. */
static void bad(const char *text, const char *where, const char *what)
{
    ca_toml_doc doc;
    char *err = NULL;
    int r = parse(text, &doc, &err);
    CHECK(r == -1);
    CHECK(doc.root == NULL);
    if (r == 0) {
        fprintf(stderr, "accepted invalid TOML: %s\n", text);
        ca_toml_doc_free(&doc);
        return;
    }
    int good = err && strncmp(err, where, strlen(where)) == 0 && strstr(err, what);
    if (!good) fprintf(stderr, "error %s\n  wanted %s... %s\n  in: %s\n", err ? err : "(none)", where, what, text);
    CHECK(good);
    free(err);
}

static const ca_toml_value *path(const ca_toml_value *t, const char *dotted)
{
    char *copy = ca_xstrdup(dotted);
    const ca_toml_value *v = t;
    for (char *k = strtok(copy, "."); k && v; k = strtok(NULL, ".")) v = ca_toml_get(v, k);
    free(copy);
    return v;
}

static const char *str_at(const ca_toml_value *root, const char *p)
{
    const ca_toml_value *v = path(root, p);
    return v && (v->type == CA_TOML_STRING || v->type == CA_TOML_DATETIME) ? v->str : NULL;
}

static long long int_at(const ca_toml_value *root, const char *p)
{
    const ca_toml_value *v = path(root, p);
    CHECK(v && v->type == CA_TOML_INTEGER);
    return v && v->type == CA_TOML_INTEGER ? (long long)v->integer : -424242;
}

static void test_keys_and_tables(void)
{
    ca_toml_doc d = ok("# comment\n"
                       "bare_key-1 = 1\n"
                       "\"quoted key\" = 2\n"
                       "'literal.key' = 3\n"
                       "a.b.c = 4   # dotted\n"
                       "a . b . d = 5\n"
                       "\"\" = 6\n"
                       "1234 = 7\n"
                       "\n"
                       "[table]\n"
                       "x = 'y'\n"
                       "[ dog . \"tater.man\" ]\n"
                       "type.name = \"pug\"\n"
                       "[x.y.z]\n"
                       "[x]\n"
                       "w = true\n");
    const ca_toml_value *r = d.root;
    CHECK(r && r->type == CA_TOML_TABLE);
    CHECK_EQ(int_at(r, "bare_key-1"), 1);
    CHECK_EQ(ca_toml_get(r, "quoted key")->integer, 2);
    CHECK_EQ(ca_toml_get(r, "literal.key")->integer, 3);
    CHECK_EQ(int_at(r, "a.b.c"), 4);
    CHECK_EQ(int_at(r, "a.b.d"), 5);
    CHECK_EQ(ca_toml_get(r, "")->integer, 6);
    CHECK_EQ(int_at(r, "1234"), 7);
    CHECK_STR_EQ(str_at(r, "table.x"), "y");
    const ca_toml_value *dog = ca_toml_get(r, "dog");
    CHECK(dog && ca_toml_get(dog, "tater.man"));
    CHECK_STR_EQ(str_at(ca_toml_get(dog, "tater.man"), "type.name"), "pug");
    CHECK(path(r, "x.y.z") && path(r, "x.y.z")->type == CA_TOML_TABLE);
    CHECK(path(r, "x.w") && path(r, "x.w")->boolean == 1);
    /* entries keep document order and their positions */
    CHECK_STR_EQ(r->entries[0].key, "bare_key-1");
    CHECK_EQ(r->entries[0].line, 2);
    CHECK_EQ(r->entries[0].col, 1);
    const ca_toml_entry *e = ca_toml_find(path(r, "a.b"), "d");
    CHECK(e && e->line == 6 && e->col == 9);
    CHECK_EQ(path(r, "a.b.d")->col, 13);
    CHECK_EQ(path(r, "table")->line, 10);
    CHECK_EQ(path(r, "x")->line, 15); /* defined by [x] after [x.y.z] */
    ca_toml_doc_free(&d);

    /* sub-tables may be added to a table made by dotted keys */
    d = ok("[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true\n");
    CHECK(path(d.root, "fruit.apple.texture.smooth")->boolean == 1);
    CHECK_STR_EQ(str_at(d.root, "fruit.apple.color"), "red");
    ca_toml_doc_free(&d);

    /* the root may be empty; whitespace-only and comment-only documents too */
    d = ok("");
    CHECK(d.root && d.root->nentries == 0);
    ca_toml_doc_free(&d);
    d = ok("  \t\n# only a comment\r\n\n");
    CHECK(d.root && d.root->nentries == 0);
    ca_toml_doc_free(&d);
    /* a BOM is skipped; CRLF line ends */
    d = ok("\xEF\xBB\xBFk = 1\r\n[t]\r\nv = 2\r\n");
    CHECK_EQ(int_at(d.root, "t.v"), 2);
    CHECK_EQ(ca_toml_find(d.root, "k")->col, 1);
    ca_toml_doc_free(&d);
}

static void test_array_of_tables(void)
{
    ca_toml_doc d = ok("[[products]]\nname = \"Hammer\"\nsku = 738594937\n\n[[products]]\n\n"
                       "[[products]]\nname = \"Nail\"\ncolor = \"gray\"\n"
                       "[[fruits]]\nname = \"apple\"\n[fruits.physical]\ncolor = \"red\"\n"
                       "[[fruits.varieties]]\nname = \"red delicious\"\n[[fruits.varieties]]\nname = \"granny smith\"\n"
                       "[[fruits]]\nname = \"banana\"\n[[fruits.varieties]]\nname = \"plantain\"\n");
    const ca_toml_value *p = ca_toml_get(d.root, "products");
    CHECK(p && p->type == CA_TOML_ARRAY && p->nitems == 3);
    CHECK_STR_EQ(str_at(ca_toml_at(p, 0), "name"), "Hammer");
    CHECK(ca_toml_at(p, 1)->nentries == 0);
    CHECK_EQ(ca_toml_at(p, 1)->line, 5);
    CHECK_STR_EQ(str_at(ca_toml_at(p, 2), "color"), "gray");
    const ca_toml_value *f = ca_toml_get(d.root, "fruits");
    CHECK(f && f->nitems == 2);
    CHECK_STR_EQ(str_at(ca_toml_at(f, 0), "physical.color"), "red");
    CHECK(ca_toml_get(ca_toml_at(f, 0), "varieties")->nitems == 2);
    CHECK_STR_EQ(str_at(ca_toml_at(ca_toml_get(ca_toml_at(f, 1), "varieties"), 0), "name"), "plantain");
    CHECK(ca_toml_at(f, 2) == NULL);
    ca_toml_doc_free(&d);
}

static void test_strings(void)
{
    ca_toml_doc d = ok("b = \"tab\\there \\\"q\\\" back\\\\slash \\b\\f\\n\\r\"\n"
                       "u = \"\\u00e9\\U0001F600\\u0041\"\n"
                       "lit = 'C:\\Users\\nodejs\\templates'\n"
                       "ml = \"\"\"\nRoses are red\nViolets are blue\"\"\"\n"
                       "trim = \"\"\"\\\n    The quick \\\n    brown fox.\\\n    \"\"\"\n"
                       "quotes = \"\"\"Here are two quotation marks: \"\". Simple enough.\"\"\"\n"
                       "five = \"\"\"\"This,\" she said, \"is just a pointless statement.\"\"\"\"\n"
                       "mll = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''\n"
                       "apos = ''''That,' she said, 'is still pointless.''''\n"
                       "nul = \"a\\u0000b\"\n"
                       "utf = \"grüße ✓\"\n"
                       "crlf = \"\"\"a\r\nb\"\"\"\n");
    const ca_toml_value *r = d.root;
    CHECK_STR_EQ(str_at(r, "b"), "tab\there \"q\" back\\slash \b\f\n\r");
    CHECK_STR_EQ(str_at(r, "u"), "\xC3\xA9\xF0\x9F\x98\x80" "A");
    CHECK_STR_EQ(str_at(r, "lit"), "C:\\Users\\nodejs\\templates");
    CHECK_STR_EQ(str_at(r, "ml"), "Roses are red\nViolets are blue");
    CHECK_STR_EQ(str_at(r, "trim"), "The quick brown fox.");
    CHECK_STR_EQ(str_at(r, "quotes"), "Here are two quotation marks: \"\". Simple enough.");
    CHECK_STR_EQ(str_at(r, "five"), "\"This,\" she said, \"is just a pointless statement.\"");
    CHECK_STR_EQ(str_at(r, "mll"),
                 "The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n");
    CHECK_STR_EQ(str_at(r, "apos"), "'That,' she said, 'is still pointless.'");
    const ca_toml_value *nul = ca_toml_get(r, "nul");
    CHECK(nul && nul->len == 3 && memcmp(nul->str, "a\0b", 3) == 0);
    CHECK_STR_EQ(str_at(r, "utf"), "grüße ✓");
    CHECK_STR_EQ(str_at(r, "crlf"), "a\nb");
    CHECK_EQ(ca_toml_get(r, "ml")->line, 4);
    CHECK_EQ(ca_toml_get(r, "trim")->line, 7);
    CHECK_EQ(ca_toml_find(r, "quotes")->line, 11);
    ca_toml_doc_free(&d);
}

static void test_numbers_bools_dates(void)
{
    ca_toml_doc d = ok("i1 = +99\ni2 = 42\ni3 = 0\ni4 = -17\ni5 = 1_000_000\ni6 = 5_349_221\n"
                       "h = 0xDEAD_beef\no = 0o755\nb = 0b1101_0110\n"
                       "max = 9223372036854775807\nmin = -9223372036854775808\nneg0 = -0\n"
                       "f1 = +1.0\nf2 = 3.1415\nf3 = -0.01\nf4 = 5e+22\nf5 = 1e06\nf6 = -2E-2\nf7 = 6.626e-34\n"
                       "f8 = 224_617.445_991_228\nf9 = 0.0\n"
                       "inf1 = inf\ninf2 = +inf\ninf3 = -inf\nnan1 = nan\nnan2 = -nan\n"
                       "t = true\nf = false\n"
                       "odt1 = 1979-05-27T07:32:00Z\nodt2 = 1979-05-27T00:32:00-07:00\n"
                       "odt3 = 1979-05-27T00:32:00.999999+07:00\nodt4 = 1979-05-27 07:32:00Z\n"
                       "ldt = 1979-05-27T07:32:00\nld = 1979-05-27\nlt = 07:32:00\nlt2 = 00:32:00.999999\n"
                       "leap = 2000-02-29\n");
    const ca_toml_value *r = d.root;
    CHECK_EQ(int_at(r, "i1"), 99);
    CHECK_EQ(int_at(r, "i2"), 42);
    CHECK_EQ(int_at(r, "i3"), 0);
    CHECK_EQ(int_at(r, "i4"), -17);
    CHECK_EQ(int_at(r, "i5"), 1000000);
    CHECK_EQ(int_at(r, "i6"), 5349221);
    CHECK_EQ(int_at(r, "h"), 0xDEADBEEF);
    CHECK_EQ(int_at(r, "o"), 0755);
    CHECK_EQ(int_at(r, "b"), 0xD6);
    CHECK(ca_toml_get(r, "max")->integer == INT64_MAX);
    CHECK(ca_toml_get(r, "min")->integer == INT64_MIN);
    CHECK_EQ(int_at(r, "neg0"), 0);
    struct { const char *k; double v; } fl[] = {{"f1", 1.0}, {"f2", 3.1415}, {"f3", -0.01}, {"f4", 5e22},
                                                {"f5", 1e6}, {"f6", -2e-2}, {"f7", 6.626e-34},
                                                {"f8", 224617.445991228}, {"f9", 0.0}};
    for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
        const ca_toml_value *v = ca_toml_get(r, fl[i].k);
        CHECK(v && v->type == CA_TOML_FLOAT && v->real == fl[i].v);
    }
    CHECK(isinf(ca_toml_get(r, "inf1")->real) && ca_toml_get(r, "inf1")->real > 0);
    CHECK(isinf(ca_toml_get(r, "inf2")->real) && ca_toml_get(r, "inf2")->real > 0);
    CHECK(isinf(ca_toml_get(r, "inf3")->real) && ca_toml_get(r, "inf3")->real < 0);
    CHECK(isnan(ca_toml_get(r, "nan1")->real) && isnan(ca_toml_get(r, "nan2")->real));
    CHECK(ca_toml_get(r, "t")->type == CA_TOML_BOOL && ca_toml_get(r, "t")->boolean == 1);
    CHECK(ca_toml_get(r, "f")->boolean == 0);
    CHECK_STR_EQ(str_at(r, "odt1"), "1979-05-27T07:32:00Z");
    CHECK_STR_EQ(str_at(r, "odt2"), "1979-05-27T00:32:00-07:00");
    CHECK_STR_EQ(str_at(r, "odt3"), "1979-05-27T00:32:00.999999+07:00");
    CHECK_STR_EQ(str_at(r, "odt4"), "1979-05-27 07:32:00Z");
    CHECK_STR_EQ(str_at(r, "ldt"), "1979-05-27T07:32:00");
    CHECK_STR_EQ(str_at(r, "ld"), "1979-05-27");
    CHECK_STR_EQ(str_at(r, "lt"), "07:32:00");
    CHECK_STR_EQ(str_at(r, "lt2"), "00:32:00.999999");
    CHECK(ca_toml_get(r, "ld")->type == CA_TOML_DATETIME);
    CHECK_STR_EQ(str_at(r, "leap"), "2000-02-29");
    ca_toml_doc_free(&d);
}

static void test_arrays_and_inline_tables(void)
{
    ca_toml_doc d = ok("integers = [ 1, 2, 3 ]\n"
                       "colors = [ \"red\", 'yellow', \"\"\"green\"\"\" ]\n"
                       "nested = [ [ 1, 2 ], [3, 4, 5] ]\n"
                       "mixed = [ [ 1, 2 ], [\"a\", \"b\", \"c\"], 0.5, { x = 1 } ]\n"
                       "multi = [\n  1,  # one\n  # a comment line\n  2,\n]\n"
                       "empty = []\n"
                       "emptyt = {}\n"
                       "name = { first = \"Tom\", last = \"Preston-Werner\" }\n"
                       "point = {x=1,y=2}\n"
                       "animal = { type.name = \"pug\", type.kind = \"dog\" }\n"
                       "acq = [\"a.b\", { pattern = \"x.y\", kind = \"session\" }]\n");
    const ca_toml_value *r = d.root;
    const ca_toml_value *a = ca_toml_get(r, "integers");
    CHECK(a && a->nitems == 3 && ca_toml_at(a, 2)->integer == 3);
    CHECK_STR_EQ(ca_toml_at(ca_toml_get(r, "colors"), 2)->str, "green");
    const ca_toml_value *n = ca_toml_get(r, "nested");
    CHECK(n && ca_toml_at(ca_toml_at(n, 1), 2)->integer == 5);
    const ca_toml_value *m = ca_toml_get(r, "mixed");
    CHECK(m && m->nitems == 4 && ca_toml_at(m, 2)->type == CA_TOML_FLOAT && ca_toml_at(m, 3)->type == CA_TOML_TABLE);
    const ca_toml_value *ml = ca_toml_get(r, "multi");
    CHECK(ml && ml->nitems == 2);
    CHECK_EQ(ca_toml_at(ml, 1)->line, 8);
    CHECK_EQ(ca_toml_at(ml, 1)->col, 3);
    CHECK(ca_toml_get(r, "empty")->nitems == 0);
    CHECK(ca_toml_get(r, "emptyt")->type == CA_TOML_TABLE);
    CHECK_STR_EQ(str_at(r, "name.last"), "Preston-Werner");
    CHECK_EQ(int_at(r, "point.y"), 2);
    CHECK_STR_EQ(str_at(r, "animal.type.kind"), "dog");
    const ca_toml_value *acq = ca_toml_get(r, "acq");
    CHECK_STR_EQ(str_at(ca_toml_at(acq, 1), "kind"), "session");
    CHECK_EQ(ca_toml_at(acq, 1)->col, 15);
    ca_toml_doc_free(&d);
}

static void test_errors(void)
{
    /* syntax */
    bad("a = 1\nb = \n", "t.toml:2:5: ", "expected a value");
    bad("a = 1\n\nkey\n", "t.toml:3:4: ", "expected '='");
    bad("x = nope\n", "t.toml:1:5: ", "strings need quotes");
    bad("x = 1 2\n", "t.toml:1:7: ", "end of the line");
    bad("= 1\n", "t.toml:1:1: ", "key");
    bad("a.b. = 1\n", "t.toml:1:6: ", "key");
    bad("[a\nb = 1\n", "t.toml:1:3: ", "']'");
    bad("[[a]\n", "t.toml:1:4: ", "']]'");
    bad("[]\n", "t.toml:1:2: ", "key");
    bad("a = \"unterminated\nb = 1\n", "t.toml:1:", "unterminated string");
    bad("a = '''never closed\n\n", "t.toml:1:5: ", "unterminated multi-line string");
    bad("a = \"\\q\"\n", "t.toml:1:6: ", "unknown escape '\\q'");
    bad("a = \"\\u12\"\n", "t.toml:1:6: ", "hex digits");
    bad("a = \"\\uD800\"\n", "t.toml:1:6: ", "not a Unicode scalar value");
    bad("a = \"\\U00110000\"\n", "t.toml:1:6: ", "not a Unicode scalar value");
    bad("a = \"ctl\x01\"\n", "t.toml:1:9: ", "U+0001 must be escaped");
    bad("a = 'x\x7f'\n", "t.toml:1:7: ", "not allowed in a literal string");
    bad("# bad \x02 comment\n", "t.toml:1:7: ", "comment");
    bad("a = \"\xff\"\n", "t.toml:1:6: ", "invalid UTF-8");
    bad("a = \"\"\"x\"\"\"\"\"\"\n", "t.toml:1:", "too many quotes");
    {
        ca_toml_doc q = ok("a = \"\"\"\"\"\"\"\n"); /* open, one quote, close */
        CHECK_STR_EQ(str_at(q.root, "a"), "\"");
        ca_toml_doc_free(&q);
    }
    bad("\"\"\"k\"\"\" = 1\n", "t.toml:1:1: ", "multi-line string cannot be a key");
    bad("a = 1\rb = 2\n", "t.toml:1:6: ", "end of the line");
    /* numbers */
    bad("a = 012\n", "t.toml:1:5: ", "leading zeros");
    bad("a = 1__0\n", "t.toml:1:5: ", "invalid number");
    bad("a = _1\n", "t.toml:1:5: ", "value");
    bad("a = 1_\n", "t.toml:1:5: ", "invalid number");
    bad("a = 9223372036854775808\n", "t.toml:1:5: ", "64 bits");
    bad("a = -9223372036854775809\n", "t.toml:1:5: ", "64 bits");
    bad("a = 0x8000000000000000\n", "t.toml:1:5: ", "64 bits");
    bad("a = +0x10\n", "t.toml:1:5: ", "sign");
    bad("a = 0b102\n", "t.toml:1:5: ", "binary");
    bad("a = 0o8\n", "t.toml:1:5: ", "octal");
    bad("a = 1.\n", "t.toml:1:5: ", "decimal point");
    bad("a = .5\n", "t.toml:1:5: ", "'.'");
    bad("a = 1e\n", "t.toml:1:5: ", "exponent");
    bad("a = 1.2.3\n", "t.toml:1:5: ", "invalid float");
    bad("a = 03.14\n", "t.toml:1:5: ", "leading zeros");
    bad("a = truee\n", "t.toml:1:5: ", "value");
    bad("a = TRUE\n", "t.toml:1:5: ", "value");
    /* dates */
    bad("a = 1979-13-01\n", "t.toml:1:5: ", "date out of range");
    bad("a = 1979-02-29\n", "t.toml:1:5: ", "date out of range");
    bad("a = 1979-05-27T25:00:00\n", "t.toml:1:16: ", "time out of range");
    bad("a = 1979-05-27T07:32\n", "t.toml:1:16: ", "HH:MM:SS");
    bad("a = 1979-05-27T07:32:00+7:00\n", "t.toml:1:24: ", "offset");
    /* arrays and inline tables */
    bad("a = [1, 2\nb = 3\n", "t.toml:2:1: ", "expected ',' or ']'");
    bad("a = [1,,2]\n", "t.toml:1:8: ", "value");
    bad("a = [,]\n", "t.toml:1:6: ", "value");
    bad("a = [1, 2\n", "t.toml:1:5: ", "unterminated array");
    bad("a = { x = 1, }\n", "t.toml:1:14: ", "trailing comma");
    bad("a = { x = 1\n}\n", "t.toml:1:12: ", "newlines are not allowed");
    bad("a = { x = 1 y = 2 }\n", "t.toml:1:13: ", "expected ',' or '}'");
    bad("a = { x = 1, x = 2 }\n", "t.toml:1:14: ", "duplicate key 'x'");
    bad("a = { b = { c = 1 }, b.d = 2 }\n", "t.toml:1:22: ", "inline table");
}

static void test_redefinitions(void)
{
    bad("name = \"Tom\"\nname = \"Pradyun\"\n", "t.toml:2:1: ", "duplicate key 'name' (first defined at line 1)");
    bad("spelling = 1\n\"spelling\" = 2\n", "t.toml:2:1: ", "duplicate key");
    bad("a.b = 1\na.b.c = 2\n", "t.toml:2:3: ", "cannot add keys to 'a.b': it is an integer");
    bad("[fruit]\napple = \"red\"\n[fruit]\norange = 1\n", "t.toml:3:1: ", "defined twice (first at line 1)");
    bad("[a]\n[a.b]\n[a]\n", "t.toml:3:1: ", "defined twice");
    bad("[fruit]\napple.color = 1\n[fruit.apple]\n", "t.toml:3:1: ", "dotted keys");
    bad("[a.b.c]\nz = 9\n[a]\nb.c.t = 1\n", "t.toml:4:3: ", "cannot add keys to 'b.c' with a dotted key: it is a table defined by a header at line 1");
    bad("a = {}\n[a]\n", "t.toml:2:1: ", "inline table");
    bad("a = {}\n[a.b]\n", "t.toml:2:2: ", "inline table");
    bad("a = { x = 1 }\na.y = 2\n", "t.toml:2:1: ", "inline table");
    bad("a = [1]\n[[a]]\n", "t.toml:2:1: ", "already an array");
    bad("[a]\n[[a]]\n", "t.toml:2:1: ", "already a table");
    bad("[[a]]\n[a]\n", "t.toml:2:1: ", "array of tables");
    bad("a = [{ b = 1 }]\n[a.c]\n", "t.toml:2:2: ", "array");
    bad("a = 1\n[a.b]\n", "t.toml:2:2: ", "integer");
    bad("[t]\nk = 1\n[t.k]\n", "t.toml:3:1: ", "already an integer");
    /* what stays valid */
    ca_toml_doc d = ok("[a.b.c]\n[a]\nb.d = 1\n[a.x]\n");
    CHECK_EQ(int_at(d.root, "a.b.d"), 1);
    ca_toml_doc_free(&d);
    d = ok("a = { b.c = 1, b.d = 2 }\n");
    CHECK_EQ(int_at(d.root, "a.b.d"), 2);
    ca_toml_doc_free(&d);
    d = ok("[[a]]\n[a.b]\nx = 1\n[[a]]\n[a.b]\nx = 2\n");
    CHECK_EQ(ca_toml_get(ca_toml_get(ca_toml_at(ca_toml_get(d.root, "a"), 1), "b"), "x")->integer, 2);
    ca_toml_doc_free(&d);
}

static void test_hostile(void)
{
    /* 100,000 unclosed brackets: an error at the depth limit, no deep stack */
    size_t n = 100000;
    char *deep = ca_xmalloc(n + 8);
    memcpy(deep, "a=", 2);
    memset(deep + 2, '[', n);
    deep[n + 2] = '\n';
    deep[n + 3] = 0;
    char msg[64];
    snprintf(msg, sizeof(msg), "deeper than %d", CA_TOML_MAX_DEPTH);
    bad(deep, "t.toml:1:", msg);
    /* the same closed */
    ca_sb sb = {0};
    ca_sb_adds(&sb, "a=");
    for (size_t i = 0; i < n; i++) ca_sb_addc(&sb, '[');
    for (size_t i = 0; i < n; i++) ca_sb_addc(&sb, ']');
    ca_sb_addc(&sb, '\n');
    bad(ca_sb_str(&sb), "t.toml:1:", msg);
    ca_sb_reset(&sb);
    /* inline tables and dotted keys and headers are bounded the same way */
    ca_sb_adds(&sb, "a=");
    for (size_t i = 0; i < n; i++) ca_sb_adds(&sb, "{b=");
    bad(ca_sb_str(&sb), "t.toml:1:", msg);
    ca_sb_reset(&sb);
    for (size_t i = 0; i < n; i++) ca_sb_adds(&sb, "k.");
    ca_sb_adds(&sb, "k = 1\n");
    bad(ca_sb_str(&sb), "t.toml:1:", "dotted parts");
    ca_sb_reset(&sb);
    ca_sb_addc(&sb, '[');
    for (size_t i = 0; i < 100; i++) ca_sb_adds(&sb, "k.");
    ca_sb_adds(&sb, "k]\n");
    for (size_t i = 0; i < 100; i++) ca_sb_adds(&sb, "j.");
    ca_sb_adds(&sb, "j = 1\n");
    bad(ca_sb_str(&sb), "t.toml:", msg);
    ca_sb_reset(&sb);
    /* the depth limit itself is fine */
    ca_sb_adds(&sb, "a=");
    for (int i = 0; i < CA_TOML_MAX_DEPTH - 1; i++) ca_sb_addc(&sb, '[');
    for (int i = 0; i < CA_TOML_MAX_DEPTH - 1; i++) ca_sb_addc(&sb, ']');
    ca_sb_addc(&sb, '\n');
    ca_toml_doc d = ok(ca_sb_str(&sb));
    ca_toml_doc_free(&d);
    ca_sb_reset(&sb);
    /* many keys in one table stay fast (hash index) and findable */
    for (int i = 0; i < 50000; i++) ca_sb_addf(&sb, "key%d = %d\n", i, i);
    d = ok(ca_sb_str(&sb));
    CHECK(d.root && d.root->nentries == 50000);
    CHECK(ca_toml_get(d.root, "key49999") && ca_toml_get(d.root, "key49999")->integer == 49999);
    CHECK(ca_toml_find(d.root, "key123")->line == 124);
    CHECK(ca_toml_get(d.root, "key50000") == NULL);
    ca_toml_doc_free(&d);
    ca_sb_reset(&sb);
    for (int i = 0; i < 20000; i++) ca_sb_addf(&sb, "k%d = 1\n", i);
    ca_sb_adds(&sb, "k777 = 2\n");
    bad(ca_sb_str(&sb), "t.toml:20001:1: ", "duplicate key 'k777' (first defined at line 778)");
    ca_sb_reset(&sb);
    /* many headers and strings: positions are taken in one forward pass */
    for (int i = 0; i < 20000; i++) ca_sb_addf(&sb, "[[t]]\nx = \"s%d\"\n[t.sub]\ny = [1, 'two']\n", i);
    d = ok(ca_sb_str(&sb));
    CHECK(ca_toml_get(d.root, "t") && ca_toml_get(d.root, "t")->nitems == 20000);
    CHECK_EQ(ca_toml_at(ca_toml_get(d.root, "t"), 19999)->line, 19999 * 4 + 1);
    CHECK_EQ(ca_toml_get(ca_toml_at(ca_toml_get(d.root, "t"), 19999), "x")->col, 5);
    ca_toml_doc_free(&d);
    ca_sb_reset(&sb);
    /* a long single-line array: columns stay cheap */
    ca_sb_adds(&sb, "a = [");
    for (int i = 0; i < 200000; i++) ca_sb_adds(&sb, "1,");
    ca_sb_adds(&sb, "x]\n");
    bad(ca_sb_str(&sb), "t.toml:1:400006: ", "value");
    ca_sb_release(&sb);
    /* embedded NUL and truncated input */
    ca_toml_doc doc;
    char *err = NULL;
    CHECK(ca_toml_parse("a = 1\0b = 2\n", 12, NULL, &doc, &err) == -1);
    CHECK(err && strncmp(err, "<string>:1:6: ", 14) == 0);
    free(err);
    err = NULL;
    CHECK(ca_toml_parse("a = \"abc", 8, "x", &doc, &err) == -1);
    free(err);
    err = NULL;
    CHECK(ca_toml_parse("a = 1\n", 3, "x", &doc, &err) == -1); /* "a =" */
    free(err);
    /* every prefix of a valid document parses or fails, never crashes */
    const char *full = "[t]\na = \"\"\"x\"\"\"\nb = [1, {c = 'd'}]\n[[e]]\nf = 1979-05-27T07:32:00Z\n";
    for (size_t k = 0; k <= strlen(full); k++) {
        err = NULL;
        if (ca_toml_parse(full, k, "p", &doc, &err) == 0) ca_toml_doc_free(&doc);
        free(err);
    }
    free(deep);
}

static void test_file_and_helpers(void)
{
    ca_toml_doc d;
    char *err = NULL;
    CHECK(ca_toml_parse_file("/nonexistent/dir/x.toml", &d, &err) == -1);
    CHECK(err && strstr(err, "/nonexistent/dir/x.toml: ") == err);
    free(err);
    CHECK_STR_EQ(ca_toml_type_name(CA_TOML_DATETIME), "datetime");
    CHECK_STR_EQ(ca_toml_type_name(CA_TOML_TABLE), "table");
    CHECK(ca_toml_get(NULL, "x") == NULL);
    CHECK(ca_toml_at(NULL, 0) == NULL);
    ca_toml_doc_free(NULL);
    d = ok("a = 1\n");
    CHECK(ca_toml_get(ca_toml_get(d.root, "a"), "x") == NULL);
    CHECK(ca_toml_at(d.root, 0) == NULL);
    ca_toml_doc_free(&d);
    ca_toml_doc_free(&d); /* twice is harmless */
}

int main(void)
{
    test_keys_and_tables();
    test_array_of_tables();
    test_strings();
    test_numbers_bools_dates();
    test_arrays_and_inline_tables();
    test_errors();
    test_redefinitions();
    test_hostile();
    test_file_and_helpers();
    CA_TEST_MAIN();
}
