/*
 * test_report.c — unit tests for the reporters (report.h) on an in-memory
 * ca_results full of hostile strings (quotes, newlines, <script>, %, :, ,
 * non-ASCII, invalid UTF-8, a bidi override): exact text, JSON and GitHub
 * output; the JSON re-read with json.h has every contract field with the
 * right type and nothing else; the SARIF parses and has the keys code
 * scanning needs; write errors are reported.
 */
#include "util/json.h"
#include "model/model.h"
#include "report/report.h"
#include "rules/ruledoc.h"
#include "util/util.h"
#include "ca_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOSTILE_PATH "a/we\"ird,na:me%<script>\n\xc3\xa9.py"
#define HOSTILE_MSG "ws \"leaks\": 100% <script>alert(1)</script>\r\nx \xff \xe2\x80\xae end"

static void add_finding(ca_results *r, const char *rule, ca_severity sev, const char *path, int line, int col,
                        const char *message, const char *fp)
{
    r->findings = ca_xrealloc(r->findings, (r->nfindings + 1) * sizeof(ca_finding));
    ca_finding *f = &r->findings[r->nfindings++];
    memset(f, 0, sizeof(*f));
    f->rule = ca_xstrdup(rule);
    f->severity = sev;
    f->path = ca_xstrdup(path);
    f->line = line;
    f->column = col;
    f->end_line = line;
    f->end_column = col + 10;
    f->function = ca_xstrdup("Client.open");
    f->backend = ca_xstrdup("north");
    f->resource = ca_xstrdup("ws");
    f->resource_kind = ca_xstrdup("socket");
    f->acquired_line = line > 1 ? line - 1 : 0;
    f->acquired_column = 5;
    f->message = ca_xstrdup(message);
    f->checkpoint = ca_xstrdup("await x");
    f->fingerprint = ca_xstrdup(fp);
}

static void add_cell(ca_results *r, const char *backend, const char *status, const char *rules,
                     const char *protection, const char *path, int line)
{
    r->coverage = ca_xrealloc(r->coverage, (r->ncoverage + 1) * sizeof(ca_coverage));
    ca_coverage *c = &r->coverage[r->ncoverage++];
    memset(c, 0, sizeof(*c));
    c->backend = ca_xstrdup(backend);
    c->boundary = ca_xstrdup("open_shell");
    c->status = ca_xstrdup(status);
    c->rules = ca_xstrdup(rules);
    c->protection = ca_xstrdup(protection);
    c->path = path ? ca_xstrdup(path) : NULL;
    c->function = path ? ca_xstrdup("X.open_shell") : NULL;
    c->line = line;
    c->lines = ca_xstrdup("");
}

/* Findings deliberately out of order; the reporters sort. */
static void build(ca_results *r)
{
    memset(r, 0, sizeof(*r));
    r->scan.id = 0;
    r->scan.started = ca_xstrdup("2026-11-29T08:42:39Z");
    r->scan.finished = ca_xstrdup("2026-11-29T08:42:41Z");
    r->scan.status = ca_xstrdup("complete");
    r->scan.version = ca_xstrdup(ca_version);
    r->scan.files_scanned = 4;
    r->scan.files_skipped = 2;
    r->scan.errors = 1;

    add_finding(r, "CAN102", CA_SEV_ERROR, "b/z.py", 3, 5, "lock, contended", "00000000000000b1");
    add_finding(r, "CAN302", CA_SEV_WARNING, "c.py", 7, 1, "cleanup: not shielded", "00000000000000c1");
    add_finding(r, "CAN401", CA_SEV_NOTE, "a/y.py", 2, 3, "baselined one", "00000000000000a3");
    r->findings[2].baselined = 1;
    add_finding(r, "CAN101", CA_SEV_ERROR, "a/x.py", 1, 1, "suppressed one", "00000000000000a2");
    r->findings[3].suppressed = 1;
    add_finding(r, "CAN101", CA_SEV_ERROR, HOSTILE_PATH, 10, 9, HOSTILE_MSG, "00000000000000a1");
    ca_finding *h = &r->findings[4];
    h->function = (free(h->function), ca_xstrdup("outer.<locals>.inner"));
    h->resource = (free(h->resource), ca_xstrdup("self.ws[\"k\"]"));
    h->nhandlers = 2;
    h->handlers = ca_xcalloc(2, sizeof(ca_handler_ref));
    h->handlers[0] = (ca_handler_ref){12, 5, ca_xstrdup("(TimeoutError, \"x\\y\")")};
    h->handlers[1] = (ca_handler_ref){14, 5, ca_xstrdup("Exception")};

    add_cell(r, "south", "gap", "CAN101, CAN102", "", "fleet/south/provider.py", 14);
    add_cell(r, "north", "covered", "", "except BaseException", "fleet/north/provider.py", 9);
    add_cell(r, "east", "absent", "", "", NULL, 0);

    r->files = ca_xcalloc(2, sizeof(ca_file_rec));
    r->nfiles = 2;
    r->files[0].path = ca_xstrdup("big.py");
    r->files[0].status = CA_FILE_ERROR;
    r->files[0].diagnostic = ca_xstrdup("file too large (over 10 MB); skipped");
    r->files[1].path = ca_xstrdup("a/x.py");
    r->files[1].status = CA_FILE_ANALYZED;
}

typedef int (*reporter)(FILE *, const ca_results *, const report_opts *);

static char *run(reporter fn, const ca_results *r, const report_opts *o, int *rc)
{
    FILE *f = tmpfile();
    if (!f) {
        ca_test_fail(__FILE__, __LINE__, "see above");
        return ca_xstrdup("");
    }
    *rc = fn(f, r, o);
    long len = ftell(f);
    rewind(f);
    char *buf = ca_xmalloc((size_t)(len > 0 ? len : 0) + 1);
    size_t got = fread(buf, 1, (size_t)(len > 0 ? len : 0), f);
    buf[got] = 0;
    fclose(f);
    return buf;
}

static void test_text(const ca_results *r)
{
    int rc;
    report_opts o = {.cwd = "/work/proj", .concise = 1};
    char *out = run(report_text, r, &o, &rc);
    CHECK(rc == 0);
    CHECK_STR_EQ(out,
              "a/we\"ird,na:me%<script>\\n\xc3\xa9.py:10:9: CAN101 "
              "ws \"leaks\": 100% <script>alert(1)</script>\\r\\nx \xef\xbf\xbd \\u202e end\n"
              "b/z.py:3:5: CAN102 lock, contended\n"
              "c.py:7:1: CAN302 cleanup: not shielded\n"
              "3 findings (1 CAN101, 1 CAN102, 1 CAN302) in 4 files; 2 files skipped (no async), 1 error; "
              "1 baselined; 1 suppressed\n");
    free(out);

    o.show_suppressed = 1;
    out = run(report_text, r, &o, &rc);
    CHECK(rc == 0);
    CHECK(strstr(out, "\na/x.py:1:1: CAN101 suppressed one (suppressed)\nb/z.py:3:5:") != NULL);
    CHECK(strstr(out, "baselined one") == NULL);
    free(out);

    o.show_suppressed = 0;
    o.color = 1;
    out = run(report_text, r, &o, &rc);
    CHECK(strstr(out, "\033[1mb/z.py:3:5:\033[0m \033[1;31mCAN102\033[0m lock, contended\n") != NULL);
    CHECK(strstr(out, "\033[1mc.py:7:1:\033[0m \033[1;33mCAN302\033[0m") != NULL);
    free(out);

    /* empty results, singulars */
    ca_results e = {0};
    e.scan.files_scanned = 1;
    e.scan.files_skipped = 1;
    e.scan.baselined = 2;
    out = run(report_text, &e, NULL, &rc);
    CHECK(rc == 0);
    CHECK_STR_EQ(out, "0 findings in 1 file; 1 file skipped (no async), 0 errors; 2 baselined\n");
    free(out);
}

static void test_github(const ca_results *r)
{
    int rc;
    char *out = run(report_github, r, NULL, &rc);
    CHECK(rc == 0);
    CHECK_STR_EQ(out,
              "::error file=a/we\"ird%2Cna%3Ame%25<script>%0A\xc3\xa9.py,line=10,col=9,endLine=10,endColumn=19,"
              "title=CAN101::ws \"leaks\": 100%25 <script>alert(1)</script>%0D%0Ax \\xff \\u202e end\n"
              "::error file=b/z.py,line=3,col=5,endLine=3,endColumn=15,title=CAN102::lock, contended\n"
              "::warning file=c.py,line=7,col=1,endLine=7,endColumn=11,title=CAN302::cleanup: not shielded\n");
    free(out);

    /* notice for notes; a suppressed finding only on request */
    ca_results one = {0};
    add_finding(&one, "CAN401", CA_SEV_NOTE, "p,q.py", 4, 2, "m%", "0000000000000001");
    one.findings[0].end_line = 0;
    one.findings[0].end_column = 0;
    out = run(report_github, &one, NULL, &rc);
    CHECK_STR_EQ(out, "::notice file=p%2Cq.py,line=4,col=2,title=CAN401::m%25\n");
    free(out);
    one.findings[0].suppressed = 1;
    out = run(report_github, &one, NULL, &rc);
    CHECK_STR_EQ(out, "");
    free(out);
    report_opts o = {.show_suppressed = 1};
    out = run(report_github, &one, &o, &rc);
    CHECK_STR_EQ(out, "::notice file=p%2Cq.py,line=4,col=2,title=CAN401 (suppressed)::m%25\n");
    free(out);
    ca_results_free(&one);
}

static void test_json_exact(const ca_results *r)
{
    int rc;
    char *out = run(report_json, r, NULL, &rc);
    CHECK(rc == 0);
    char *want = ca_xasprintf(
        "{\n"
        "  \"tool\": {\n"
        "    \"name\": \"cancelaudit\",\n"
        "    \"version\": \"%s\"\n"
        "  },\n"
        "  \"scan\": {\n"
        "    \"id\": null,\n"
        "    \"files_scanned\": 4,\n"
        "    \"files_skipped\": 2,\n"
        "    \"errors\": 1,\n"
        "    \"baselined\": 1,\n"
        "    \"min_confidence\": \"low\",\n"
        "    \"below_min_confidence\": 0\n"
        "  },\n"
        "  \"findings\": [\n"
        "    {\n"
        "      \"rule\": \"CAN101\",\n"
        "      \"severity\": \"error\",\n"
        "      \"path\": \"a/we\\\"ird,na:me%%<script>\\n\xc3\xa9.py\",\n"
        "      \"line\": 10,\n"
        "      \"column\": 9,\n"
        "      \"end_line\": 10,\n"
        "      \"end_column\": 19,\n"
        "      \"function\": \"outer.<locals>.inner\",\n"
        "      \"backend\": \"north\",\n"
        "      \"resource\": \"self.ws[\\\"k\\\"]\",\n"
        "      \"resource_kind\": \"socket\",\n"
        "      \"acquired_line\": 9,\n"
        "      \"handlers\": [\n"
        "        {\n"
        "          \"line\": 12,\n"
        "          \"catches\": \"(TimeoutError, \\\"x\\\\y\\\")\"\n"
        "        },\n"
        "        {\n"
        "          \"line\": 14,\n"
        "          \"catches\": \"Exception\"\n"
        "        }\n"
        "      ],\n"
        "      \"message\": \"ws \\\"leaks\\\": 100%% <script>alert(1)</script>\\r\\nx \\udcff \xe2\x80\xae end\",\n"
        "      \"fingerprint\": \"00000000000000a1\",\n"
        "      \"suppressed\": false,\n"
        "      \"confidence\": \"high\",\n"
        "      \"resources\": [\n"
        "        \"self.ws[\\\"k\\\"]\"\n"
        "      ],\n"
        "      \"acquired_lines\": [\n"
        "        9\n"
        "      ],\n"
        "      \"fingerprint_aliases\": []\n"
        "    },\n"
        "    {\n"
        "      \"rule\": \"CAN101\",\n"
        "      \"severity\": \"error\",\n"
        "      \"path\": \"a/x.py\",\n"
        "      \"line\": 1,\n"
        "      \"column\": 1,\n"
        "      \"end_line\": 1,\n"
        "      \"end_column\": 11,\n"
        "      \"function\": \"Client.open\",\n"
        "      \"backend\": \"north\",\n"
        "      \"resource\": \"ws\",\n"
        "      \"resource_kind\": \"socket\",\n"
        "      \"acquired_line\": 0,\n"
        "      \"handlers\": [],\n"
        "      \"message\": \"suppressed one\",\n"
        "      \"fingerprint\": \"00000000000000a2\",\n"
        "      \"suppressed\": true,\n"
        "      \"confidence\": \"high\",\n"
        "      \"resources\": [\n"
        "        \"ws\"\n"
        "      ],\n"
        "      \"acquired_lines\": [\n"
        "        0\n"
        "      ],\n"
        "      \"fingerprint_aliases\": []\n"
        "    },\n",
        ca_version);
    CHECK(strncmp(out, want, strlen(want)) == 0);
    if (strncmp(out, want, strlen(want)) != 0) fprintf(stderr, "json got:\n%s\n", out);
    const char *tail =
        "  \"coverage\": [\n"
        "    {\n"
        "      \"family\": null,\n"
        "      \"backend\": \"east\",\n"
        "      \"boundary\": \"open_shell\",\n"
        "      \"status\": \"absent\",\n"
        "      \"rules\": [],\n"
        "      \"protection\": \"\",\n"
        "      \"path\": null,\n"
        "      \"line\": null\n"
        "    },\n"
        "    {\n"
        "      \"family\": null,\n"
        "      \"backend\": \"north\",\n"
        "      \"boundary\": \"open_shell\",\n"
        "      \"status\": \"covered\",\n"
        "      \"rules\": [],\n"
        "      \"protection\": \"except BaseException\",\n"
        "      \"path\": \"fleet/north/provider.py\",\n"
        "      \"line\": 9\n"
        "    },\n"
        "    {\n"
        "      \"family\": null,\n"
        "      \"backend\": \"south\",\n"
        "      \"boundary\": \"open_shell\",\n"
        "      \"status\": \"gap\",\n"
        "      \"rules\": [\n"
        "        \"CAN101\",\n"
        "        \"CAN102\"\n"
        "      ],\n"
        "      \"protection\": \"\",\n"
        "      \"path\": \"fleet/south/provider.py\",\n"
        "      \"line\": 14\n"
        "    }\n"
        "  ],\n"
        "  \"families\": [],\n"
        "  \"schema_version\": 2\n"
        "}\n";
    CHECK(strlen(out) > strlen(tail) && strcmp(out + strlen(out) - strlen(tail), tail) == 0);
    CHECK(strstr(out, "baselined one") == NULL);
    free(want);
    free(out);
}

/* ---- JSON contract: names and types ---------------------------------- */

typedef struct field {
    const char *name;
    int types; /* bit set of 1 << ca_json_type */
} field;

#define T(t) (1 << (t))
#define STR T(CA_JSON_STRING)
#define NUM T(CA_JSON_NUMBER)
#define NUL T(CA_JSON_NULL)

/* obj has exactly these fields, each of an allowed type (integers for NUM). */
static void check_fields(const ca_json_value *obj, const field *fields, size_t n, const char *where)
{
    if (!obj || obj->type != CA_JSON_OBJECT) {
        fprintf(stderr, "%s: not an object\n", where);
        ca_test_fail(__FILE__, __LINE__, "see above");
        return;
    }
    if (obj->len != n) {
        fprintf(stderr, "%s: %zu fields, want %zu\n", where, obj->len, n);
        ca_test_fail(__FILE__, __LINE__, "see above");
    }
    for (size_t i = 0; i < n; i++) {
        const ca_json_value *v = ca_json_get(obj, fields[i].name);
        if (!v) {
            fprintf(stderr, "%s: missing field %s\n", where, fields[i].name);
            ca_test_fail(__FILE__, __LINE__, "see above");
        } else if (!(fields[i].types & T(v->type)) || (v->type == CA_JSON_NUMBER && !v->is_int)) {
            fprintf(stderr, "%s: field %s has type %s\n", where, fields[i].name, ca_json_type_name(v->type));
            ca_test_fail(__FILE__, __LINE__, "see above");
        }
    }
}

static void test_json_contract(const ca_results *r)
{
    static const field top[] = {{"tool", T(CA_JSON_OBJECT)}, {"scan", T(CA_JSON_OBJECT)},
                                {"findings", T(CA_JSON_ARRAY)}, {"coverage", T(CA_JSON_ARRAY)},
                                {"families", T(CA_JSON_ARRAY)}, {"schema_version", NUM}};
    static const field tool[] = {{"name", STR}, {"version", STR}};
    static const field scan[] = {{"id", NUM | NUL}, {"files_scanned", NUM}, {"files_skipped", NUM},
                                 {"errors", NUM}, {"baselined", NUM}, {"min_confidence", STR},
                                 {"below_min_confidence", NUM}};
    static const field finding[] = {
        {"rule", STR}, {"severity", STR}, {"path", STR}, {"line", NUM}, {"column", NUM}, {"end_line", NUM},
        {"end_column", NUM}, {"function", STR}, {"backend", STR}, {"resource", STR}, {"resource_kind", STR},
        {"acquired_line", NUM}, {"handlers", T(CA_JSON_ARRAY)}, {"message", STR}, {"fingerprint", STR},
        {"suppressed", T(CA_JSON_BOOL)}, {"confidence", STR}, {"resources", T(CA_JSON_ARRAY)},
        {"acquired_lines", T(CA_JSON_ARRAY)}, {"fingerprint_aliases", T(CA_JSON_ARRAY)}};
    static const field handler[] = {{"line", NUM}, {"catches", STR}};
    static const field cell[] = {{"family", STR | NUL}, {"backend", STR}, {"boundary", STR}, {"status", STR},
                                 {"rules", T(CA_JSON_ARRAY)}, {"protection", STR}, {"path", STR | NUL},
                                 {"line", NUM | NUL}};
#define N(a) (sizeof(a) / sizeof((a)[0]))

    for (int with_id = 0; with_id <= 1; with_id++) {
        ca_results rr = *r;
        rr.scan.id = with_id ? 42 : 0;
        int rc;
        char *out = run(report_json, &rr, NULL, &rc);
        ca_json_doc doc;
        char *err = NULL;
        CHECK(ca_json_parse(out, strlen(out), 0, &doc, &err) == 0);
        if (err) {
            fprintf(stderr, "report_json output does not parse: %s\n", err);
            free(err);
            free(out);
            continue;
        }
        check_fields(doc.root, top, N(top), "top");
        check_fields(ca_json_get(doc.root, "tool"), tool, N(tool), "tool");
        check_fields(ca_json_get(doc.root, "scan"), scan, N(scan), "scan");
        const ca_json_value *id = ca_json_get(ca_json_get(doc.root, "scan"), "id");
        CHECK(with_id ? (id && id->type == CA_JSON_NUMBER && id->integer == 42) : (id && id->type == CA_JSON_NULL));
        const ca_json_value *fs = ca_json_get(doc.root, "findings");
        CHECK(fs && fs->len == 4); /* 5 minus the baselined one */
        for (size_t i = 0; fs && i < fs->len; i++) {
            const ca_json_value *f = ca_json_at(fs, i);
            check_fields(f, finding, N(finding), "finding");
            const ca_json_value *hs = ca_json_get(f, "handlers");
            for (size_t k = 0; hs && k < hs->len; k++) check_fields(ca_json_at(hs, k), handler, N(handler), "handler");
            const ca_json_value *sev = ca_json_get(f, "severity");
            CHECK(sev && (!strcmp(sev->str, "error") || !strcmp(sev->str, "warning") || !strcmp(sev->str, "note")));
        }
        /* the hostile strings survive the round trip (bytes that are not UTF-8 too) */
        const ca_json_value *f0 = ca_json_at(fs, 0);
        CHECK_STR_EQ(ca_json_get(f0, "path")->str, HOSTILE_PATH);
        CHECK_STR_EQ(ca_json_get(f0, "message")->str,
                  "ws \"leaks\": 100% <script>alert(1)</script>\r\nx \xff \xe2\x80\xae end");
        CHECK_STR_EQ(ca_json_get(ca_json_at(ca_json_get(f0, "handlers"), 0), "catches")->str, "(TimeoutError, \"x\\y\")");
        const ca_json_value *cs = ca_json_get(doc.root, "coverage");
        CHECK(cs && cs->len == 3);
        for (size_t i = 0; cs && i < cs->len; i++) {
            check_fields(ca_json_at(cs, i), cell, N(cell), "coverage");
            const ca_json_value *rules = ca_json_get(ca_json_at(cs, i), "rules");
            for (size_t k = 0; rules && k < rules->len; k++) CHECK(ca_json_at(rules, k)->type == CA_JSON_STRING);
        }
        ca_json_doc_free(&doc);
        free(out);
    }
}

/* ---- SARIF ------------------------------------------------------------ */

static const ca_json_value *path_get(const ca_json_value *v, const char *path)
{
    /* "a.b.0.c": object keys and array indexes separated by '.' */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok(buf, "."); tok && v; tok = strtok(NULL, ".")) {
        if (tok[0] >= '0' && tok[0] <= '9')
            v = ca_json_at(v, (size_t)strtoul(tok, NULL, 10));
        else
            v = ca_json_get(v, tok);
    }
    return v;
}

static const char *path_str(const ca_json_value *v, const char *path)
{
    const ca_json_value *s = path_get(v, path);
    return s && s->type == CA_JSON_STRING ? s->str : NULL;
}

static void test_sarif(const ca_results *r)
{
    int rc;
    report_opts o = {.cwd = "/work/some dir/"};
    char *out = run(report_sarif, r, &o, &rc);
    CHECK(rc == 0);
    ca_json_doc doc;
    char *err = NULL;
    CHECK(ca_json_parse(out, strlen(out), 0, &doc, &err) == 0);
    if (err) {
        fprintf(stderr, "sarif does not parse: %s\n", err);
        free(err);
        free(out);
        return;
    }
    const ca_json_value *root = doc.root;
    CHECK_STR_EQ(path_str(root, "$schema"), "https://json.schemastore.org/sarif-2.1.0.json");
    CHECK_STR_EQ(path_str(root, "version"), "2.1.0");
    CHECK(path_get(root, "runs")->len == 1);
    const ca_json_value *run0 = path_get(root, "runs.0");
    CHECK_STR_EQ(path_str(run0, "tool.driver.name"), "cancelaudit");
    CHECK_STR_EQ(path_str(run0, "tool.driver.version"), ca_version);
    CHECK_STR_EQ(path_str(run0, "tool.driver.semanticVersion"), ca_version);
    CHECK_STR_EQ(path_str(run0, "tool.driver.informationUri"), "https://github.com/cancelaudit/cancelaudit");
    CHECK_STR_EQ(path_str(run0, "columnKind"), "unicodeCodePoints");
    CHECK_STR_EQ(path_str(run0, "originalUriBaseIds.%SRCROOT%.uri"), "file:///work/some%20dir/");
    CHECK(path_get(run0, "invocations.0.executionSuccessful")->boolean == 1);
    CHECK_STR_EQ(path_str(run0, "invocations.0.startTimeUtc"), "2026-11-29T08:42:39Z");
    CHECK_STR_EQ(path_str(run0, "invocations.0.endTimeUtc"), "2026-11-29T08:42:41Z");
    CHECK_STR_EQ(path_str(run0, "invocations.0.toolExecutionNotifications.0.level"), "error");
    CHECK_STR_EQ(path_str(run0, "invocations.0.toolExecutionNotifications.0.message.text"),
              "file too large (over 10 MB); skipped");
    CHECK_STR_EQ(path_str(run0, "invocations.0.toolExecutionNotifications.0.locations.0.physicalLocation.artifactLocation.uri"),
              "big.py");

    size_t ndocs;
    const ca_ruledoc *docs = ca_ruledoc_all(&ndocs);
    const ca_json_value *rules = path_get(run0, "tool.driver.rules");
    CHECK(rules && rules->type == CA_JSON_ARRAY && rules->len == ndocs);
    for (size_t i = 0; rules && i < rules->len; i++) {
        const ca_json_value *rule = ca_json_at(rules, i);
        CHECK_STR_EQ(path_str(rule, "id"), docs[i].id);
        CHECK_STR_EQ(path_str(rule, "name"), docs[i].name);
        CHECK_STR_EQ(path_str(rule, "shortDescription.text"), docs[i].summary);
        CHECK(path_str(rule, "fullDescription.text") != NULL);
        CHECK(path_str(rule, "helpUri") && strstr(path_str(rule, "helpUri"), docs[i].id));
        CHECK(path_str(rule, "help.text") != NULL && path_str(rule, "help.markdown") != NULL);
        CHECK_STR_EQ(path_str(rule, "defaultConfiguration.level"), ca_severity_name(docs[i].severity));
        CHECK(path_get(rule, "properties.tags")->type == CA_JSON_ARRAY);
    }

    const ca_json_value *results = path_get(run0, "results");
    CHECK(results && results->len == 5); /* baselined and suppressed stay, marked */
    for (size_t i = 0; results && i < results->len; i++) {
        const ca_json_value *res = ca_json_at(results, i);
        const ca_json_value *idx = path_get(res, "ruleIndex");
        if (idx) CHECK_STR_EQ(path_str(ca_json_at(rules, (size_t)idx->integer), "id"), path_str(res, "ruleId"));
        CHECK(path_str(res, "level") && path_str(res, "message.text"));
        CHECK_STR_EQ(path_str(res, "locations.0.physicalLocation.artifactLocation.uriBaseId"), "%SRCROOT%");
        CHECK(path_str(res, "partialFingerprints.cancelaudit/v2") != NULL);
        const ca_json_value *rank = path_get(res, "rank");
        CHECK(rank && rank->type == CA_JSON_NUMBER && rank->number >= 0.0 && rank->number <= 100.0);
        CHECK_STR_EQ(path_str(res, "properties.confidence"), "high");
    }
    const ca_json_value *h = ca_json_at(results, 0);
    CHECK_STR_EQ(path_str(h, "ruleId"), "CAN101");
    CHECK_STR_EQ(path_str(h, "locations.0.physicalLocation.artifactLocation.uri"),
              "a/we%22ird%2Cna%3Ame%25%3Cscript%3E%0A%C3%A9.py");
    CHECK(path_get(h, "locations.0.physicalLocation.region.startLine")->integer == 10);
    CHECK(path_get(h, "locations.0.physicalLocation.region.startColumn")->integer == 9);
    CHECK(path_get(h, "locations.0.physicalLocation.region.endLine")->integer == 10);
    CHECK(path_get(h, "locations.0.physicalLocation.region.endColumn")->integer == 19);
    CHECK_STR_EQ(path_str(h, "locations.0.logicalLocations.0.fullyQualifiedName"), "outer.<locals>.inner");
    CHECK_STR_EQ(path_str(h, "message.text"),
              "ws \"leaks\": 100% <script>alert(1)</script>\r\nx \xff \xe2\x80\xae end");
    CHECK(path_get(h, "relatedLocations")->len == 3);
    CHECK(path_get(h, "relatedLocations.0.id")->integer == 1);
    CHECK_STR_EQ(path_str(h, "relatedLocations.0.message.text"), "resource acquired here");
    CHECK(path_get(h, "relatedLocations.0.physicalLocation.region.startLine")->integer == 9);
    CHECK_STR_EQ(path_str(h, "relatedLocations.1.message.text"),
              "handler catches (TimeoutError, \"x\\y\"), which does not include cancellation");
    CHECK(path_get(h, "relatedLocations.2.id")->integer == 3);
    CHECK_STR_EQ(path_str(h, "relatedLocations.2.message.text"),
              "handler catches Exception, which does not include cancellation");
    CHECK_STR_EQ(path_str(h, "partialFingerprints.cancelaudit/v2"), "00000000000000a1");
    CHECK(path_get(h, "suppressions") == NULL);
    CHECK_STR_EQ(path_str(ca_json_at(results, 1), "suppressions.0.kind"), "inSource");
    CHECK_STR_EQ(path_str(ca_json_at(results, 2), "suppressions.0.kind"), "external");
    CHECK_STR_EQ(path_str(ca_json_at(results, 2), "level"), "note");
    CHECK_STR_EQ(path_str(ca_json_at(results, 4), "level"), "warning");
    ca_json_doc_free(&doc);
    free(out);

    /* absolute paths: inside the cwd become relative, outside stay file:// URIs */
    ca_results abs = {0};
    add_finding(&abs, "CAN101", CA_SEV_ERROR, "/work/some dir/pkg/m.py", 2, 1, "m", "0000000000000001");
    add_finding(&abs, "CAN101", CA_SEV_ERROR, "/elsewhere/n.py", 2, 1, "m", "0000000000000002");
    add_finding(&abs, "CAN101", CA_SEV_ERROR, "./././q.py", 2, 1, "m", "0000000000000003");
    out = run(report_sarif, &abs, &o, &rc);
    CHECK(ca_json_parse(out, strlen(out), 0, &doc, NULL) == 0);
    const ca_json_value *res = path_get(doc.root, "runs.0.results");
    CHECK_STR_EQ(path_str(res, "0.locations.0.physicalLocation.artifactLocation.uri"), "q.py");
    CHECK_STR_EQ(path_str(res, "1.locations.0.physicalLocation.artifactLocation.uri"), "file:///elsewhere/n.py");
    CHECK(path_get(res, "1.locations.0.physicalLocation.artifactLocation.uriBaseId") == NULL);
    CHECK_STR_EQ(path_str(res, "2.locations.0.physicalLocation.artifactLocation.uri"), "pkg/m.py");
    CHECK_STR_EQ(path_str(res, "2.locations.0.physicalLocation.artifactLocation.uriBaseId"), "%SRCROOT%");
    ca_json_doc_free(&doc);
    free(out);
    ca_results_free(&abs);
}

/* ---- one finding per window; confidence ------------------------------- */

/* A window of two resources (as rule_emit_window makes one), medium
 * confidence, and a latent one of low confidence. */
static void build_windows(ca_results *w)
{
    memset(w, 0, sizeof(*w));
    w->scan.files_scanned = 1;
    add_finding(w, "CAN101", CA_SEV_ERROR, "s.py", 12, 18, "`session` and `pump` leak", "00000000000000f1");
    ca_finding *f = &w->findings[0];
    f->resource = (free(f->resource), ca_xstrdup("session"));
    f->resource_kind = (free(f->resource_kind), ca_xstrdup("session"));
    f->acquired_line = 9;
    f->acquired_column = 9;
    ca_finding_add_resource(f, "session", "session", 9, 9, "00000000000000e1");
    ca_finding_add_resource(f, "pump", "task", 10, 9, "00000000000000e2");
    f->confidence = CA_CONF_MEDIUM;
    add_finding(w, "CAN102", CA_SEV_ERROR, "s.py", 22, 9, "latent", "00000000000000f2");
    ca_finding_add_resource(&w->findings[1], "ws", "socket", 21, 5, "00000000000000e3");
    w->findings[1].confidence = CA_CONF_LOW;
}

static void test_windows(void)
{
    ca_results w;
    build_windows(&w);
    int rc;
    report_opts o = {.concise = 1};
    char *out = run(report_text, &w, &o, &rc);
    CHECK_STR_EQ(out, "s.py:12:18: CAN101 `session` and `pump` leak (medium confidence)\n"
                      "s.py:22:9: CAN102 latent (low confidence)\n"
                      "2 findings (1 CAN101, 1 CAN102) in 1 file; 0 files skipped (no async), 0 errors; 0 baselined\n");
    free(out);
    out = run(report_github, &w, NULL, &rc);
    CHECK(strstr(out, "title=CAN101::`session` and `pump` leak (medium confidence)\n") != NULL);
    free(out);

    /* JSON: the first resource, all of them, where each came into being, their aliases */
    out = run(report_json, &w, NULL, &rc);
    ca_json_doc doc;
    CHECK(ca_json_parse(out, strlen(out), 0, &doc, NULL) == 0);
    const ca_json_value *f0 = path_get(doc.root, "findings.0");
    CHECK_STR_EQ(path_str(f0, "resource"), "session");
    CHECK_STR_EQ(path_str(f0, "confidence"), "medium");
    CHECK(path_get(f0, "resources")->len == 2);
    CHECK_STR_EQ(path_str(f0, "resources.1"), "pump");
    CHECK(path_get(f0, "acquired_lines.1")->integer == 10);
    CHECK_STR_EQ(path_str(f0, "fingerprint_aliases.0"), "00000000000000e1");
    CHECK_STR_EQ(path_str(f0, "fingerprint_aliases.1"), "00000000000000e2");
    CHECK_STR_EQ(path_str(doc.root, "findings.1.confidence"), "low");
    ca_json_doc_free(&doc);
    free(out);

    /* SARIF: each acquisition a related location, the rank from the confidence */
    report_opts so = {.cwd = "/w"};
    out = run(report_sarif, &w, &so, &rc);
    CHECK(ca_json_parse(out, strlen(out), 0, &doc, NULL) == 0);
    const ca_json_value *r0 = path_get(doc.root, "runs.0.results.0");
    CHECK(path_get(r0, "rank")->number == 60.0);
    CHECK(path_get(doc.root, "runs.0.results.1.rank")->number == 30.0);
    CHECK_STR_EQ(path_str(r0, "properties.confidence"), "medium");
    CHECK_STR_EQ(path_str(r0, "relatedLocations.0.message.text"), "`session` acquired here");
    CHECK(path_get(r0, "relatedLocations.0.physicalLocation.region.startLine")->integer == 9);
    CHECK_STR_EQ(path_str(r0, "relatedLocations.1.message.text"), "`pump` acquired here");
    CHECK(path_get(r0, "relatedLocations.1.physicalLocation.region.startLine")->integer == 10);
    CHECK(path_get(r0, "relatedLocations.1.id")->integer == 2);
    CHECK_STR_EQ(path_str(r0, "properties.resources.1"), "pump");
    CHECK_STR_EQ(path_str(r0, "properties.fingerprintAliases.1"), "00000000000000e2");
    CHECK_STR_EQ(path_str(r0, "partialFingerprints.cancelaudit/v2"), "00000000000000f1");
    ca_json_doc_free(&doc);
    free(out);

    /* the store reporters tell a window's resources one by one */
    size_t n;
    ca_finding *each = report_resource_findings(&w, &n);
    CHECK(n == 3);
    CHECK_STR_EQ(each[0].resource, "pump"); /* ca_results_sort order: line, rule, then resource */
    CHECK(each[0].acquired_line == 10);
    CHECK_STR_EQ(each[0].resource_kind, "task");
    CHECK_STR_EQ(each[0].fingerprint, "00000000000000f1");
    CHECK(ca_finding_has_fingerprint(&each[0], "00000000000000e2") && !ca_finding_has_fingerprint(&each[0], "00000000000000e1"));
    CHECK_STR_EQ(each[1].resource, "session");
    CHECK_STR_EQ(each[2].resource, "ws");
    free(each);

    /* --min-confidence: what is below goes, and the summary says how many */
    CHECK(ca_finding_has_fingerprint(&w.findings[0], "00000000000000e1"));
    CHECK(ca_finding_has_fingerprint(&w.findings[0], "00000000000000f1"));
    CHECK(!ca_finding_has_fingerprint(&w.findings[0], "00000000000000e3"));
    CHECK(report_drop_below_confidence(&w, CA_CONF_LOW) == 0 && w.nfindings == 2);
    report_opts mo = {.concise = 1, .min_confidence = "medium"};
    mo.below_confidence = report_drop_below_confidence(&w, CA_CONF_MEDIUM);
    CHECK(mo.below_confidence == 1 && w.nfindings == 1);
    out = run(report_text, &w, &mo, &rc);
    CHECK(strstr(out, "; 0 baselined; 1 below medium confidence\n") != NULL);
    free(out);
    out = run(report_json, &w, &mo, &rc);
    CHECK(strstr(out, "\"min_confidence\": \"medium\",\n    \"below_min_confidence\": 1\n") != NULL);
    free(out);
    CHECK(report_drop_below_confidence(&w, CA_CONF_HIGH) == 1 && w.nfindings == 0);
    ca_results_free(&w);

    /* the levels and their order */
    CHECK(ca_confidence_at_least(CA_CONF_HIGH, CA_CONF_MEDIUM) && !ca_confidence_at_least(CA_CONF_LOW, CA_CONF_MEDIUM));
    CHECK(report_confidence_rank(CA_CONF_HIGH) > report_confidence_rank(CA_CONF_MEDIUM));
    CHECK_STR_EQ(report_confidence_note(CA_CONF_HIGH), "");
}

static void test_write_errors(const ca_results *r)
{
    reporter all[] = {report_text, report_json, report_sarif, report_github};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        FILE *full = fopen("/dev/full", "w");
        if (!full) return;
        CHECK(all[i](full, r, NULL) == -1);
        fclose(full);
    }
}

int main(void)
{
    ca_results r;
    build(&r);
    test_text(&r);
    test_github(&r);
    test_json_exact(&r);
    test_json_contract(&r);
    test_sarif(&r);
    test_windows();
    test_write_errors(&r);
    /* the reporters leave the input as it was */
    CHECK(strcmp(r.findings[0].path, "b/z.py") == 0 && strcmp(r.coverage[0].backend, "south") == 0);
    ca_results_free(&r);
    CA_TEST_MAIN();
}
