/*
 * test_ruledoc.c — unit tests for ruledoc.h: the front-matter parser and
 * section lookup on in-memory docs, the embedded rules/CAN*.md set (whatever
 * it holds: every embedded doc must parse and match its file name), the
 * `rules` / `explain` printers, and --select/--ignore semantics.
 */
#include "util/embed.h"
#include "rules/ruledoc.h"
#include "util/util.h"
#include "ca_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char good_doc[] =
    "id: can901\n"
    "name: test-rule   # a comment\n"
    "severity: warning          # error | warning | note\n"
    "default: strict            # on | strict\n"
    "summary: A summary: with a colon # and a hash.\n"
    "owner: someone\n"
    "---\n"
    "\n"
    "## What it does\n"
    "Finds things.\n"
    "\n"
    "## Why is this bad?\n"
    "Because.\n"
    "### A sub-heading stays inside\n"
    "More.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "## this is a Python comment, not a heading\n"
    "async def f():\n"
    "    ~~~\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "~~~~python\n"
    "# also code\n"
    "~~~~\n"
    "Shielded.\n"
    "## Known problems\n"
    "\n"
    "## References\n"
    "- one\n"
    "- two\n";

static void test_parse_good(void)
{
    ca_ruledoc d;
    char *err = NULL;
    CHECK(ca_ruledoc_parse(good_doc, sizeof good_doc - 1, &d, &err) == 0);
    if (err) {
        fprintf(stderr, "parse: %s\n", err);
        free(err);
        ca_test_fail(__FILE__, __LINE__, "see above");
        return;
    }
    CHECK_STR_EQ(d.id, "CAN901");
    CHECK_STR_EQ(d.name, "test-rule");
    CHECK(d.severity == CA_SEV_WARNING);
    CHECK(d.default_on == 0);
    CHECK_STR_EQ(d.summary, "A summary: with a colon # and a hash.");
    CHECK(strncmp(d.body, "## What it does\n", 16) == 0);

    char *s;
    CHECK_STR_EQ(s = ca_ruledoc_section(&d, "What it does"), "Finds things.");
    free(s);
    CHECK_STR_EQ(s = ca_ruledoc_section(&d, "why is this bad"), "Because.\n### A sub-heading stays inside\nMore.");
    free(s);
    CHECK_STR_EQ(s = ca_ruledoc_section(&d, "Example"),
              "```python\n## this is a Python comment, not a heading\nasync def f():\n    ~~~\n```");
    free(s);
    CHECK_STR_EQ(s = ca_ruledoc_section(&d, "USE INSTEAD:"), "~~~~python\n# also code\n~~~~\nShielded.");
    free(s);
    CHECK_STR_EQ(s = ca_ruledoc_section(&d, "Known problems"), "");
    free(s);
    CHECK_STR_EQ(s = ca_ruledoc_section(&d, "References"), "- one\n- two");
    free(s);
    CHECK(ca_ruledoc_section(&d, "Nonexistent") == NULL);
    CHECK(ca_ruledoc_section(&d, "this is a Python comment, not a heading") == NULL);
    ca_ruledoc_free(&d);

    /* YAML-style opening fence, CRLF line endings, on/error */
    static const char crlf[] = "---\r\nid: CAN902\r\nname: x\r\nseverity: error\r\ndefault: on\r\n"
                               "summary: S.\r\n---\r\n## Use instead\r\nY.\r\n";
    CHECK(ca_ruledoc_parse(crlf, sizeof crlf - 1, &d, NULL) == 0);
    CHECK_STR_EQ(d.id, "CAN902");
    CHECK(d.default_on == 1 && d.severity == CA_SEV_ERROR);
    CHECK_STR_EQ(d.summary, "S.");
    CHECK_STR_EQ(s = ca_ruledoc_section(&d, "Use instead"), "Y.");
    free(s);
    ca_ruledoc_free(&d);
}

static void check_parse_err(const char *text, const char *want)
{
    ca_ruledoc d;
    char *err = NULL;
    CHECK(ca_ruledoc_parse(text, strlen(text), &d, &err) == -1);
    CHECK(d.id == NULL && d.body == NULL);
    CHECK_STR_EQ(err, want);
    free(err);
}

static void test_parse_errors(void)
{
    check_parse_err("", "no '---' line after the front matter");
    check_parse_err("id: CAN1\nname: n\nseverity: error\ndefault: on\nsummary: s\n", "no '---' line after the front matter");
    check_parse_err("name: n\nseverity: error\ndefault: on\nsummary: s\n---\n", "missing 'id'");
    check_parse_err("id: CAN1\nseverity: error\ndefault: on\nsummary: s\n---\n", "missing 'name'");
    check_parse_err("id: CAN1\nname: n\nseverity: error\ndefault: on\n---\n", "missing 'summary'");
    check_parse_err("id: CAN1\nname: n\ndefault: on\nsummary: s\n---\n", "missing 'severity'");
    check_parse_err("id: CAN1\nname: n\nseverity: error\nsummary: s\n---\n", "missing 'default'");
    check_parse_err("id: CAN1\nseverity: fatal\n---\n", "line 2: severity must be error, warning or note, not 'fatal'");
    check_parse_err("id: CAN1\ndefault: off\n---\n", "line 2: default must be on or strict, not 'off'");
    check_parse_err("id: CAN-1\n---\n", "line 1: invalid rule id 'CAN-1'");
    check_parse_err("id: CAN1\nid: CAN2\n---\n", "line 2: duplicate key 'id'");
    check_parse_err("id: CAN1\nname: a\nname: b\n---\n", "line 3: duplicate key 'name'");
    check_parse_err("id: CAN1\njust words\n---\n", "line 2: expected 'key: value' in the front matter");
}

static void test_embedded(void)
{
    size_t n, files = 0;
    const ca_ruledoc *all = ca_ruledoc_all(&n);
    for (size_t i = 0; i < ca_embedded_count; i++) {
        const char *name = ca_embedded_files[i].name;
        if (strncmp(name, "rules/CAN", 9) == 0 && !strchr(name + 6, '/') && strlen(name) > 3 &&
            strcmp(name + strlen(name) - 3, ".md") == 0)
            files++;
    }
    CHECK(n == files); /* every embedded rules/CAN*.md parsed and matched its name */
    for (size_t i = 0; i < n; i++) {
        CHECK(all[i].id && all[i].name && all[i].summary && all[i].body);
        CHECK(*all[i].name && *all[i].summary);
        if (i) CHECK(strcmp(all[i - 1].id, all[i].id) < 0);
        CHECK(ca_ruledoc_get(all[i].id) == &all[i]);
        char lower[32];
        snprintf(lower, sizeof lower, "%s", all[i].id);
        for (char *p = lower; *p; p++) *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
        CHECK(ca_ruledoc_get(lower) == &all[i]);
        char *what = ca_ruledoc_section(&all[i], "What it does");
        CHECK(what != NULL); /* the fixed sections of DESIGN/STYLE */
        free(what);
    }
    CHECK(ca_ruledoc_get("CAN000") == NULL);
    CHECK(ca_ruledoc_get(NULL) == NULL);
    size_t n2;
    CHECK(ca_ruledoc_all(&n2) == all && n2 == n); /* parsed once */
}

static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
    FILE *f = tmpfile();
    if (!f) return ca_xstrdup("");
    fn(f, arg);
    fflush(f);
    long len = ftell(f);
    rewind(f);
    char *buf = ca_xmalloc((size_t)(len > 0 ? len : 0) + 1);
    size_t got = fread(buf, 1, (size_t)(len > 0 ? len : 0), f);
    buf[got] = 0;
    fclose(f);
    return buf;
}

static void do_list(FILE *f, const void *arg)
{
    (void)arg;
    ca_ruledoc_print_list(f);
}

static int explain_rc;
static void do_explain(FILE *f, const void *arg) { explain_rc = ca_ruledoc_explain(f, arg); }

static void test_printers(void)
{
    size_t n;
    const ca_ruledoc *all = ca_ruledoc_all(&n);
    char *list = capture(do_list, NULL);
    if (n == 0) {
        CHECK_STR_EQ(list, "no rules are built in\n");
    } else {
        CHECK(strncmp(list, "ID ", 3) == 0 && strstr(list, "DEFAULT") && strstr(list, "SUMMARY"));
        for (size_t i = 0; i < n; i++) {
            CHECK(strstr(list, all[i].id) != NULL);
            CHECK(strstr(list, all[i].summary) != NULL);
        }
    }
    free(list);

    char *text = capture(do_explain, "CAN000");
    CHECK(explain_rc == 2);
    CHECK_STR_EQ(text, "");
    free(text);

    if (n) {
        char lower[32];
        snprintf(lower, sizeof lower, "%s", all[0].id);
        lower[0] = (char)(lower[0] - 'A' + 'a');
        text = capture(do_explain, lower);
        CHECK(explain_rc == 0);
        char *head = ca_xasprintf("%s: %s\n", all[0].id, all[0].name);
        CHECK(strncmp(text, head, strlen(head)) == 0);
        CHECK(strstr(text, all[0].summary) != NULL);
        CHECK(strstr(text, all[0].body) != NULL);
        free(head);
        free(text);
    }

    FILE *full = fopen("/dev/full", "w");
    if (full && n) {
        CHECK(ca_ruledoc_explain(full, all[0].id) == 3);
    }
    if (full) fclose(full);
}

static void test_selection(void)
{
    /* independent of which docs exist */
    CHECK(ca_rule_selected("CAN101", "CAN101", NULL, 0) == 1);
    CHECK(ca_rule_selected("CAN101", "can1", NULL, 0) == 1);
    CHECK(ca_rule_selected("CAN101", " CAN3 , can10 ", NULL, 0) == 1);
    CHECK(ca_rule_selected("CAN101", "CAN3", NULL, 0) == 0);
    CHECK(ca_rule_selected("CAN101", "CAN1011", NULL, 0) == 0);
    CHECK(ca_rule_selected("CAN101", "CAN", "CAN10", 0) == 0);     /* ignore wins */
    CHECK(ca_rule_selected("CAN101", "CAN101", "can101", 1) == 0);
    CHECK(ca_rule_selected("CAN101", NULL, "CAN2,CAN3", 0) == (ca_ruledoc_get("CAN101") ? ca_ruledoc_get("CAN101")->default_on : 1));
    CHECK(ca_rule_selected("CAN999", NULL, NULL, 0) == 1);         /* no doc: default on */
    CHECK(ca_rule_selected("CAN999", "", " , ", 0) == 1);          /* empty lists are no lists */
    CHECK(ca_rule_selected("CAN999", ",", NULL, 0) == 1);
    CHECK(ca_rule_selected(NULL, NULL, NULL, 1) == 0);

    size_t n;
    const ca_ruledoc *all = ca_ruledoc_all(&n);
    for (size_t i = 0; i < n; i++) {
        const char *id = all[i].id;
        char prefix[8];
        snprintf(prefix, sizeof prefix, "%.4s", id);
        if (all[i].default_on) {
            CHECK(ca_rule_selected(id, NULL, NULL, 0) == 1);
            CHECK(ca_rule_selected(id, NULL, prefix, 0) == 0);
        } else {
            CHECK(ca_rule_selected(id, NULL, NULL, 0) == 0);
            CHECK(ca_rule_selected(id, NULL, NULL, 1) == 1);
            CHECK(ca_rule_selected(id, id, NULL, 0) == 1);
            CHECK(ca_rule_selected(id, prefix, NULL, 0) == 1);
            CHECK(ca_rule_selected(id, prefix, id, 1) == 0);
        }
    }

    char *bad = NULL;
    CHECK(ca_rule_check_list(NULL, &bad) == 0 && bad == NULL);
    CHECK(ca_rule_check_list("", &bad) == 0 && bad == NULL);
    CHECK(ca_rule_check_list("FOO", &bad) == -1);
    CHECK_STR_EQ(bad, "FOO");
    free(bad);
    if (n) {
        char *list = ca_xasprintf(" %s , can, %.4s", all[0].id, all[n - 1].id);
        CHECK(ca_rule_check_list(list, &bad) == 0 && bad == NULL);
        free(list);
        list = ca_xasprintf("%s, CAN0x ", all[0].id);
        CHECK(ca_rule_check_list(list, &bad) == -1);
        CHECK_STR_EQ(bad, "CAN0x");
        free(bad);
        free(list);
    }
}

/* "did you mean" for rule ids: a typo, a swap, a letter for a digit */
static void test_suggest(void)
{
    CHECK_STR_EQ(ca_rule_suggest("CNA101"), "CAN101");
    CHECK_STR_EQ(ca_rule_suggest("can1O2"), "CAN102");
    CHECK_STR_EQ(ca_rule_suggest("CAN4O1"), "CAN401");
    CHECK(ca_rule_suggest("E501") == NULL);
    CHECK(ca_rule_suggest(NULL) == NULL);
}

int main(void)
{
    test_suggest();
    test_parse_good();
    test_parse_errors();
    test_embedded();
    test_printers();
    test_selection();
    CA_TEST_MAIN();
}
