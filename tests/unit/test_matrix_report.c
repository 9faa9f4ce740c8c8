/*
 * test_matrix_report.c — unit tests for the store reporters' building blocks
 * (doc.h, report_store.h, diff.h) on in-memory results: escaping per output
 * mode, Markdown code spans with backticks and pipes, `matrix --select`
 * recomputing gap cells, which findings count for a cell, the Markdown
 * matrix table keeping its shape with hostile names, report targets that do
 * not exist, and diff matching equal fingerprints one to one.
 */
#include "store/diff.h"
#include "model/model.h"
#include "report/doc.h"
#include "report/report_store.h"
#include "util/util.h"
#include "ca_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *put(const char *s, doc_mode m)
{
    ca_sb sb = {0};
    doc_put(&sb, s, m);
    return ca_sb_detach(&sb);
}

static char *code(const char *s, int in_cell)
{
    ca_sb sb = {0};
    doc_writer d = {.sb = &sb, .in_cell = in_cell};
    doc_code(&d, s);
    return ca_sb_detach(&sb);
}

static void check_put(void)
{
    char *t = put("a\nb\x1b\xe2\x80\xae\xff|", DOC_PUT_TERM);
    CHECK_STR_EQ(t, "a\\nb\\x1b\\u202e\xEF\xBF\xBD|");
    free(t);
    t = put("<a href=\"x\">&'\t", DOC_PUT_HTML);
    CHECK_STR_EQ(t, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;\\t");
    free(t);
    t = put("x\ty<", DOC_PUT_HTML_BLOCK);
    CHECK_STR_EQ(t, "x\ty&lt;");
    free(t);
    t = put("*x*|<y>@z_[l](u)", DOC_PUT_MD_TEXT);
    CHECK_STR_EQ(t, "\\*x\\*\\|\\<y\\>\\@z\\_\\[l\\](u)");
    free(t);
    t = put("- item", DOC_PUT_MD_TEXT); /* would start a list */
    CHECK_STR_EQ(t, "\\- item");
    free(t);
    t = put("a|b<c>", DOC_PUT_CODE_CELL);
    CHECK_STR_EQ(t, "a\\|b<c>");
    free(t);
    CHECK_EQ(doc_display_width("caf\xc3\xa9\n"), 6); /* é is one column, \n two */
}

static void check_code_spans(void)
{
    char *t = code("a`b", 0);
    CHECK_STR_EQ(t, "``a`b``");
    free(t);
    t = code("`x", 0);
    CHECK_STR_EQ(t, "`` `x ``");
    free(t);
    t = code(" x ", 0);
    CHECK_STR_EQ(t, "`  x  `");
    free(t);
    t = code("a|b", 1);
    CHECK_STR_EQ(t, "`a\\|b`");
    free(t);
    t = code("", 0);
    CHECK_STR_EQ(t, "");
    free(t);
    ca_sb sb = {0};
    doc_writer h = {.sb = &sb, .html = 1};
    doc_code(&h, "<b>");
    CHECK_STR_EQ(ca_sb_str(&sb), "<code>&lt;b&gt;</code>");
    ca_sb_release(&sb);
}

static void add_cell(ca_results *r, const char *backend, const char *boundary, const char *status, const char *rules,
                     const char *protection, const char *lines)
{
    r->coverage = ca_xrealloc(r->coverage, (r->ncoverage + 1) * sizeof(ca_coverage));
    ca_coverage *c = &r->coverage[r->ncoverage++];
    memset(c, 0, sizeof(*c));
    c->backend = ca_xstrdup(backend);
    c->boundary = ca_xstrdup(boundary);
    c->status = ca_xstrdup(status);
    c->rules = ca_xstrdup(rules);
    c->protection = ca_xstrdup(protection);
    c->lines = ca_xstrdup(lines);
    if (strcmp(status, "absent") != 0) {
        c->path = ca_xstrdup("p/provider.py");
        c->function = ca_xasprintf("P.%s", boundary);
        c->line = 5;
    }
}

static void add_finding(ca_results *r, const char *rule, const char *backend, const char *function, int line,
                        const char *fp, int suppressed)
{
    r->findings = ca_xrealloc(r->findings, (r->nfindings + 1) * sizeof(ca_finding));
    ca_finding *f = &r->findings[r->nfindings++];
    memset(f, 0, sizeof(*f));
    f->rule = ca_xstrdup(rule);
    f->path = ca_xstrdup("p/provider.py");
    f->line = line;
    f->column = 9;
    f->end_line = line;
    f->function = ca_xstrdup(function);
    f->backend = ca_xstrdup(backend);
    f->resource = ca_xstrdup("ws");
    f->resource_kind = ca_xstrdup("websocket");
    f->message = ca_xstrdup("m");
    f->checkpoint = ca_xstrdup("await x()");
    f->fingerprint = ca_xstrdup(fp);
    f->suppressed = suppressed;
}

static void check_select(void)
{
    ca_results r = {0};
    add_cell(&r, "p", "open", "gap", "CAN101,CAN301", "", "10,20,10");
    add_cell(&r, "p", "close", "gap", "CAN301", "finally", "30");
    add_cell(&r, "q", "open", "covered", "", "except BaseException", "");
    add_finding(&r, "CAN101", "p", "P.open", 10, "a1", 0);
    add_finding(&r, "CAN301", "p", "P._helper", 20, "a2", 0); /* a helper: counted by its line */
    add_finding(&r, "CAN301", "p", "P.close", 30, "a3", 0);
    add_finding(&r, "CAN101", "q", "Q.open", 10, "a4", 0);    /* another backend: never counted */

    CHECK(rs_finding_in_cell(&r.coverage[0], &r.findings[0]));
    CHECK(rs_finding_in_cell(&r.coverage[0], &r.findings[1]));
    CHECK(!rs_finding_in_cell(&r.coverage[0], &r.findings[3]));
    CHECK(!rs_finding_in_cell(&r.coverage[1], &r.findings[0]));

    report_matrix_select(&r, "CAN1");
    CHECK_STR_EQ(r.coverage[0].status, "gap");
    CHECK_STR_EQ(r.coverage[0].rules, "CAN101");
    CHECK_STR_EQ(r.coverage[0].lines, "10");
    CHECK_EQ(r.coverage[0].line, 10);
    CHECK_STR_EQ(r.coverage[1].status, "covered"); /* the cell recorded a protection */
    CHECK_STR_EQ(r.coverage[1].rules, "");
    CHECK_STR_EQ(r.coverage[2].status, "covered");
    report_matrix_select(&r, "CAN2");
    CHECK_STR_EQ(r.coverage[0].status, "no-window");
    ca_results_free(&r);
}

static int count_unescaped_pipes(const char *line)
{
    int n = 0;
    for (const char *p = line; *p; p++)
        if (*p == '|' && (p == line || p[-1] != '\\')) n++;
    return n;
}

static void check_markdown_table(void)
{
    ca_results r = {0};
    const char *evil = "e|v\ni`l<script>";
    add_cell(&r, evil, "open|x", "gap", "CAN101", "", "10");
    add_cell(&r, "plain", "open|x", "covered", "", "finally|x", "");
    add_finding(&r, "CAN101", evil, "P.open|x", 10, "b1", 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_EQ(report_matrix(f, &r, RS_MARKDOWN, NULL), 0);
    fclose(f);
    int rows = 0, width = -1;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] != '|') continue;
        int n = count_unescaped_pipes(line);
        if (width < 0) width = n;
        CHECK_EQ(n, width);
        rows++;
    }
    CHECK_EQ(rows, 4); /* header, separator, two backends */
    CHECK_EQ(width, 3);
    free(buf);

    /* unknown targets and empty ones */
    char *err = NULL;
    f = open_memstream(&buf, &len);
    rs_target t = {.backend = "nosuch"};
    CHECK_EQ(report_issue(f, &r, &t, RS_MARKDOWN, NULL, &err), 2);
    CHECK(err && strstr(err, "nosuch"));
    free(err);
    rs_target t2 = {.backend = "plain"};
    CHECK_EQ(report_issue(f, &r, &t2, RS_MARKDOWN, NULL, &err), 1);
    free(err);
    rs_target t3 = {.fingerprint = "b1"};
    CHECK_EQ(report_issue(f, &r, &t3, RS_MARKDOWN, NULL, &err), 2); /* prefix too short */
    free(err);
    fclose(f);
    CHECK_EQ(len, 0);
    free(buf);
    ca_results_free(&r);
}

static void check_diff(void)
{
    ca_results a = {0}, b = {0};
    add_finding(&a, "CAN101", "p", "P.open", 10, "same", 0);
    add_finding(&a, "CAN101", "p", "P.open", 10, "same", 0);
    add_finding(&a, "CAN102", "p", "P.open", 12, "gone", 0);
    add_finding(&a, "CAN102", "p", "P.open", 14, "hidden", 1);
    add_finding(&b, "CAN101", "p", "P.open", 40, "same", 0);
    add_finding(&b, "CAN301", "p", "P.close", 50, "fresh", 0);
    add_finding(&b, "CAN102", "p", "P.open", 42, "gone", 1); /* suppressed now: fixed */
    ca_diff d;
    ca_diff_compute(&a, &b, &d);
    CHECK_EQ(d.nunchanged, 1);
    CHECK_EQ(d.unchanged[0]->line, 40); /* the new scan's finding */
    CHECK_EQ(d.nadded, 1);
    CHECK_STR_EQ(d.added[0]->fingerprint, "fresh");
    CHECK_EQ(d.nfixed, 2); /* one of the two "same", and "gone" */
    ca_diff_free(&d);
    ca_results_free(&a);
    ca_results_free(&b);
}

int main(void)
{
    check_put();
    check_code_spans();
    check_select();
    check_markdown_table();
    check_diff();
    CA_TEST_MAIN();
}
