/*
 * test_store.c — unit tests for store.h, the SQLite system of record:
 * creating the database (and .cancelaudit/.gitignore), scan rows, a full
 * round trip of results with hostile strings, "latest complete", partial
 * scans left by a dead process, refusal of newer and foreign databases, the
 * one-transaction write, the incremental-rescan lookups, and integrity.
 *
 * Each case works in its own directory under a fresh mkdtemp() directory,
 * which is removed at the end. A second, plain SQLite connection inspects
 * what the store wrote.
 */
#include "ca_test.h"
#include "model/model.h"
#include "store/store.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmp_root[64];

static char *tmp_path(const char *rel) { return ca_xasprintf("%s/%s", tmp_root, rel); }

static void rm_rf(const char *path)
{
    struct stat sb;
    if (lstat(path, &sb) != 0) return;
    if (S_ISDIR(sb.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
                char *child = ca_xasprintf("%s/%s", path, e->d_name);
                rm_rf(child);
                free(child);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* ---- a plain connection to look at what the store wrote ---------------- */

static sqlite3 *raw_open(const char *db)
{
    sqlite3 *h = NULL;
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        fprintf(stderr, "raw_open %s: %s\n", db, h ? sqlite3_errmsg(h) : "?");
        sqlite3_close(h);
        return NULL;
    }
    sqlite3_busy_timeout(h, 10000);
    return h;
}

static void raw_exec(const char *db, const char *sql)
{
    sqlite3 *h = raw_open(db);
    char *msg = NULL;
    if (!h || sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "raw_exec %s: %s\n", sql, msg ? msg : "?");
        ca_test_failures++;
    }
    sqlite3_free(msg);
    sqlite3_close(h);
}

/* First column of the first row as an integer; -1 when there is no row. */
static long long raw_int(const char *db, const char *sql, long long bind1)
{
    sqlite3 *h = raw_open(db);
    sqlite3_stmt *s = NULL;
    long long v = -1;
    if (h && sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK) {
        if (sqlite3_bind_parameter_count(s) >= 1) sqlite3_bind_int64(s, 1, bind1);
        if (sqlite3_step(s) == SQLITE_ROW) v = sqlite3_column_int64(s, 0);
    } else {
        fprintf(stderr, "raw_int %s: %s\n", sql, h ? sqlite3_errmsg(h) : "?");
        ca_test_failures++;
    }
    sqlite3_finalize(s);
    sqlite3_close(h);
    return v;
}

/* First column of the first row as a heap string; NULL when none. */
static char *raw_str(const char *db, const char *sql)
{
    sqlite3 *h = raw_open(db);
    sqlite3_stmt *s = NULL;
    char *v = NULL;
    if (h && sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK) {
        if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
            v = ca_xstrdup((const char *)sqlite3_column_text(s, 0));
    } else {
        ca_test_failures++;
    }
    sqlite3_finalize(s);
    sqlite3_close(h);
    return v;
}

static char *read_text(const char *path)
{
    char *buf = NULL;
    size_t n;
    return ca_read_file(path, &buf, &n) == 0 ? buf : NULL;
}

/* ---- results to write -------------------------------------------------- */

#define HOSTILE_PATH "pkg/we'ird \"name\"\n<script>alert(1)</script>;--.py"
#define INVALID_UTF8_PATH "pkg/\xff\xfe bad utf8 \xc3.py"
#define UNICODE_PATH "sandboxes/\xc3\xbcn\xc3\xaf\xe2\x82\xac.py"

static void add_file(ca_results *r, const char *path, ca_file_status status, const char *diag)
{
    r->files = ca_xrealloc(r->files, (r->nfiles + 1) * sizeof *r->files);
    ca_file_rec *f = &r->files[r->nfiles++];
    memset(f, 0, sizeof *f);
    f->path = ca_xstrdup(path);
    f->size = 123456789012LL + (int64_t)r->nfiles;
    f->mtime_ns = 1732870000123456789LL + (int64_t)r->nfiles;
    f->hash = status == CA_FILE_ERROR ? NULL : ca_xstrdup("0123456789abcdef");
    f->parse_errors = (int)r->nfiles;
    f->parse_ms = 1.25 * (double)r->nfiles;
    f->status = status;
    f->diagnostic = diag ? ca_xstrdup(diag) : NULL;
    f->backend = ca_xstrdup("blaxel");
    f->language = ca_xstrdup("python");
}

static void add_function(ca_results *r, const char *path, const char *qualname, const char *cls, int line)
{
    r->functions = ca_xrealloc(r->functions, (r->nfunctions + 1) * sizeof *r->functions);
    ca_function_rec *f = &r->functions[r->nfunctions++];
    memset(f, 0, sizeof *f);
    f->path = ca_xstrdup(path);
    f->qualname = ca_xstrdup(qualname);
    const char *dot = strrchr(qualname, '.');
    f->name = ca_xstrdup(dot ? dot + 1 : qualname);
    f->class_name = cls ? ca_xstrdup(cls) : NULL;
    f->line = line;
    f->end_line = line + 20;
    f->is_async = line % 2;
    f->backend = ca_xstrdup("blaxel");
}

static ca_finding *add_finding(ca_results *r, const char *rule, const char *path, int line, const char *message)
{
    r->findings = ca_xrealloc(r->findings, (r->nfindings + 1) * sizeof *r->findings);
    ca_finding *f = &r->findings[r->nfindings++];
    memset(f, 0, sizeof *f);
    f->rule = rule ? ca_xstrdup(rule) : NULL;
    f->severity = line % 3 == 0 ? CA_SEV_NOTE : CA_SEV_WARNING;
    f->path = ca_xstrdup(path);
    f->line = line;
    f->column = 9;
    f->end_line = line;
    f->end_column = 40;
    f->function = ca_xstrdup("Sandbox.pty_exec_start");
    f->backend = ca_xstrdup("blaxel");
    f->resource = ca_xstrdup("ws");
    f->resource_kind = ca_xstrdup("socket");
    f->acquired_line = line - 3;
    f->acquired_column = 5;
    f->message = ca_xstrdup(message);
    f->checkpoint = ca_xstrdup("await self._lock.acquire()");
    f->fingerprint = ca_xasprintf("%016x", (unsigned)line * 2654435761u);
    f->suppressed = line % 2;
    f->baselined = line % 5 == 0;
    return f;
}

static void add_handler(ca_finding *f, int line, const char *catches)
{
    f->handlers = ca_xrealloc(f->handlers, (f->nhandlers + 1) * sizeof *f->handlers);
    ca_handler_ref *h = &f->handlers[f->nhandlers++];
    h->line = line;
    h->column = 5;
    h->catches = ca_xstrdup(catches);
}

static void add_cell(ca_results *r, const char *backend, const char *boundary, const char *status,
                     const char *path, int line)
{
    r->coverage = ca_xrealloc(r->coverage, (r->ncoverage + 1) * sizeof *r->coverage);
    ca_coverage *c = &r->coverage[r->ncoverage++];
    memset(c, 0, sizeof *c);
    c->family = ca_xstrdup(strcmp(boundary, "create") == 0 ? "BaseSandboxClient" : "BaseSandboxSession");
    c->backend = ca_xstrdup(backend);
    c->boundary = ca_xstrdup(boundary);
    c->status = ca_xstrdup(status);
    c->rules = ca_xstrdup(strcmp(status, "gap") == 0 ? "CAN101,CAN102" : "");
    c->protection = ca_xstrdup(strcmp(status, "covered") == 0 ? "except BaseException + shield" : "");
    c->path = path ? ca_xstrdup(path) : NULL;
    c->function = path ? ca_xasprintf("Sandbox.%s", boundary) : NULL;
    c->line = line;
    c->lines = ca_xstrdup(strcmp(status, "gap") == 0 ? "14,17" : "");
}

/* A result set exercising every field, NULL vs "", and hostile text. */
static void make_results(ca_results *r, const char *tag)
{
    memset(r, 0, sizeof *r);
    r->scan.files_scanned = 3;
    r->scan.files_skipped = 7;
    r->scan.errors = 1;
    r->scan.baselined = 2;
    add_file(r, HOSTILE_PATH, CA_FILE_ANALYZED, NULL);
    add_file(r, INVALID_UTF8_PATH, CA_FILE_ERROR, "file is larger than the 10 MiB limit");
    add_file(r, UNICODE_PATH, CA_FILE_CACHED, NULL);
    add_file(r, "plain/skipped.py", CA_FILE_SKIPPED, NULL);
    add_function(r, HOSTILE_PATH, "Sandbox.pty_exec_start", "Sandbox", 11);
    add_function(r, UNICODE_PATH, "outer.<locals>.inner", NULL, 4);

    ca_finding *f = add_finding(r, "CAN101", HOSTILE_PATH, 14, "x'); DROP TABLE scans; -- %s%n \"quoted\"\n<b>");
    add_handler(f, 20, "(asyncio.TimeoutError, Exception)");
    add_handler(f, 24, "finally");
    f = add_finding(r, "CAN102", HOSTILE_PATH, 30, tag);
    add_handler(f, 31, "Exception");
    add_finding(r, "CAN201", UNICODE_PATH, 45, "\xe2\x80\xa8 line separator, tab\t, nul-free");

    add_cell(r, "blaxel", "pty_exec_start", "gap", HOSTILE_PATH, 14);
    add_cell(r, "e2b", "pty_exec_start", "absent", NULL, 0);
    add_cell(r, "modal", "create", "covered", UNICODE_PATH, 3);

    /* two families, the second without a base, one member no backend */
    r->families = ca_xcalloc(2, sizeof(ca_family));
    r->nfamilies = 2;
    ca_family *fa = &r->families[0];
    fa->name = ca_xstrdup("BaseSandboxSession");
    fa->kind = ca_xstrdup("subclasses");
    fa->base = ca_xstrdup("BaseSandboxSession");
    fa->path = ca_xstrdup(HOSTILE_PATH);
    fa->line = 199;
    fa->members = ca_xcalloc(3, sizeof(ca_family_member));
    fa->nmembers = 3;
    fa->members[0] = (ca_family_member){ca_xstrdup("blaxel"), ca_xstrdup("BlaxelSandboxSession"),
                                        ca_xstrdup(HOSTILE_PATH), 11, ca_xstrdup("backend")};
    fa->members[1] = (ca_family_member){ca_xstrdup("e2b"), ca_xstrdup("E2BSandboxSession"), ca_xstrdup(UNICODE_PATH),
                                        4, ca_xstrdup("backend")};
    fa->members[2] = (ca_family_member){NULL, ca_xstrdup("SandboxSession"), ca_xstrdup(UNICODE_PATH), 9,
                                        ca_xstrdup("proxy")};
    ca_family *fb = &r->families[1];
    fb->name = ca_xstrdup("BaseSandboxClient");
    fb->kind = ca_xstrdup("duck-typed");
    fb->members = ca_xcalloc(1, sizeof(ca_family_member));
    fb->nmembers = 1;
    fb->members[0] = (ca_family_member){ca_xstrdup("modal"), NULL, NULL, 0, ca_xstrdup("backend")};
    r->scan.class_digest = ca_xstrdup("c1 00112233445566ff");
}

static void check_results_equal(const ca_results *got, const ca_results *want)
{
    CHECK_EQ(got->nfiles, want->nfiles);
    for (size_t i = 0; i < got->nfiles && i < want->nfiles; i++) {
        const ca_file_rec *a = &got->files[i], *b = &want->files[i];
        CHECK_STR_EQ(a->path, b->path);
        CHECK_EQ(a->size, b->size);
        CHECK_EQ(a->mtime_ns, b->mtime_ns);
        CHECK_STR_EQ(a->hash, b->hash);
        CHECK_EQ(a->parse_errors, b->parse_errors);
        CHECK(a->parse_ms == b->parse_ms);
        CHECK_EQ(a->status, b->status);
        CHECK_STR_EQ(a->diagnostic, b->diagnostic);
        CHECK_STR_EQ(a->backend, b->backend);
        CHECK_STR_EQ(a->language, b->language);
    }
    CHECK_EQ(got->nfunctions, want->nfunctions);
    for (size_t i = 0; i < got->nfunctions && i < want->nfunctions; i++) {
        const ca_function_rec *a = &got->functions[i], *b = &want->functions[i];
        CHECK_STR_EQ(a->path, b->path);
        CHECK_STR_EQ(a->qualname, b->qualname);
        CHECK_STR_EQ(a->name, b->name);
        CHECK_STR_EQ(a->class_name, b->class_name);
        CHECK_EQ(a->line, b->line);
        CHECK_EQ(a->end_line, b->end_line);
        CHECK_EQ(a->is_async, b->is_async);
        CHECK_STR_EQ(a->backend, b->backend);
    }
    CHECK_EQ(got->nfindings, want->nfindings);
    for (size_t i = 0; i < got->nfindings && i < want->nfindings; i++) {
        const ca_finding *a = &got->findings[i], *b = &want->findings[i];
        CHECK_STR_EQ(a->rule, b->rule);
        CHECK_EQ(a->severity, b->severity);
        CHECK_STR_EQ(a->path, b->path);
        CHECK_EQ(a->line, b->line);
        CHECK_EQ(a->column, b->column);
        CHECK_EQ(a->end_line, b->end_line);
        CHECK_EQ(a->end_column, b->end_column);
        CHECK_STR_EQ(a->function, b->function);
        CHECK_STR_EQ(a->backend, b->backend);
        CHECK_STR_EQ(a->resource, b->resource);
        CHECK_STR_EQ(a->resource_kind, b->resource_kind);
        CHECK_EQ(a->acquired_line, b->acquired_line);
        CHECK_EQ(a->acquired_column, b->acquired_column);
        CHECK_STR_EQ(a->message, b->message);
        CHECK_STR_EQ(a->checkpoint, b->checkpoint);
        CHECK_STR_EQ(a->fingerprint, b->fingerprint);
        CHECK_EQ(a->suppressed, b->suppressed);
        CHECK_EQ(a->baselined, b->baselined);
        CHECK_EQ(a->nhandlers, b->nhandlers);
        for (size_t j = 0; j < a->nhandlers && j < b->nhandlers; j++) {
            CHECK_EQ(a->handlers[j].line, b->handlers[j].line);
            CHECK_EQ(a->handlers[j].column, b->handlers[j].column);
            CHECK_STR_EQ(a->handlers[j].catches, b->handlers[j].catches);
        }
    }
    CHECK_EQ(got->ncoverage, want->ncoverage);
    for (size_t i = 0; i < got->ncoverage && i < want->ncoverage; i++) {
        const ca_coverage *a = &got->coverage[i], *b = &want->coverage[i];
        CHECK_STR_EQ(a->backend, b->backend);
        CHECK_STR_EQ(a->boundary, b->boundary);
        CHECK_STR_EQ(a->status, b->status);
        CHECK_STR_EQ(a->rules, b->rules);
        CHECK_STR_EQ(a->protection, b->protection);
        CHECK_STR_EQ(a->path, b->path);
        CHECK_STR_EQ(a->function, b->function);
        CHECK_EQ(a->line, b->line);
        CHECK_STR_EQ(a->lines, b->lines);
        CHECK_STR_EQ(a->family, b->family);
    }
    CHECK_EQ(got->nfamilies, want->nfamilies);
    for (size_t i = 0; i < got->nfamilies && i < want->nfamilies; i++) {
        const ca_family *a = &got->families[i], *b = &want->families[i];
        CHECK_STR_EQ(a->name, b->name);
        CHECK_STR_EQ(a->kind, b->kind);
        CHECK_STR_EQ(a->base, b->base);
        CHECK_STR_EQ(a->path, b->path);
        CHECK_EQ(a->line, b->line);
        CHECK_EQ(a->nmembers, b->nmembers);
        for (size_t k = 0; k < a->nmembers && k < b->nmembers; k++) {
            CHECK_STR_EQ(a->members[k].backend, b->members[k].backend);
            CHECK_STR_EQ(a->members[k].class_name, b->members[k].class_name);
            CHECK_STR_EQ(a->members[k].path, b->members[k].path);
            CHECK_EQ(a->members[k].line, b->members[k].line);
            CHECK_STR_EQ(a->members[k].role, b->members[k].role);
        }
    }
}

/* Begin a scan and write r into it; returns its id (0 on failure). */
static int64_t store_scan(ca_store *st, ca_results *r, const char *args)
{
    char *err = NULL;
    r->scan.root = ca_xstrdup("/work/some \"root\"\n");
    r->scan.git_rev = ca_xstrdup("0123456789abcdef0123456789abcdef01234567");
    r->scan.args = ca_xstrdup(args);
    if (store_begin_scan(st, &r->scan, &err) != 0 || store_write_results(st, r->scan.id, r, &err) != 0) {
        fprintf(stderr, "store_scan: %s\n", err ? err : "?");
        free(err);
        ca_test_failures++;
        return 0;
    }
    return r->scan.id;
}

static ca_store *open_ok(const char *db)
{
    ca_store *st = NULL;
    char *err = NULL;
    int rc = store_open(db, &st, &err);
    CHECK_EQ(rc, 0);
    if (rc) fprintf(stderr, "    store_open: %s\n", err ? err : "?");
    free(err);
    return st;
}

/* ---- the cases ---------------------------------------------------------- */

static void test_create(void)
{
    char *db = tmp_path("create/.cancelaudit/audit.db");
    ca_store *st = open_ok(db);
    store_close(st);
    char *gi = tmp_path("create/.cancelaudit/.gitignore");
    char *body = read_text(gi);
    CHECK_STR_EQ(body, "*\n");
    CHECK_EQ(raw_int(db, "PRAGMA user_version", 0), STORE_SCHEMA_VERSION);
    char *mode = raw_str(db, "PRAGMA journal_mode");
    CHECK_STR_EQ(mode, "wal");
    /* Reopening an existing database migrates nothing and keeps working. */
    st = open_ok(db);
    store_close(st);
    free(mode);
    free(body);
    free(gi);
    free(db);

    /* Deep parents are created; only a folder named .cancelaudit gets a .gitignore. */
    db = tmp_path("deep/a/b//c/audit.db");
    st = open_ok(db);
    store_close(st);
    gi = tmp_path("deep/a/b/c/.gitignore");
    CHECK(access(gi, F_OK) != 0);
    free(gi);
    free(db);

    /* A .gitignore the user wrote stays as it is. */
    char *own = tmp_path("own");
    char *dir = tmp_path("own/.cancelaudit");
    gi = tmp_path("own/.cancelaudit/.gitignore");
    CHECK_EQ(mkdir(own, 0777), 0);
    CHECK_EQ(mkdir(dir, 0777), 0);
    FILE *fp = fopen(gi, "w");
    CHECK(fp != NULL);
    if (fp) {
        fputs("audit.db\n", fp);
        fclose(fp);
    }
    db = tmp_path("own/.cancelaudit/audit.db");
    st = open_ok(db);
    store_close(st);
    body = read_text(gi);
    CHECK_STR_EQ(body, "audit.db\n");
    free(body);
    free(db);
    free(gi);
    free(dir);
    free(own);

    /* A parent that is a file is a clear error, not a crash. */
    char *file = tmp_path("afile");
    fp = fopen(file, "w");
    if (fp) fclose(fp);
    db = tmp_path("afile/audit.db");
    char *err = NULL;
    st = NULL;
    CHECK_EQ(store_open(db, &st, &err), -1);
    CHECK(st == NULL);
    CHECK(err && strstr(err, "afile"));
    free(err);
    free(db);
    free(file);
}

static void test_two_scans(void)
{
    char *db = tmp_path("two/.cancelaudit/audit.db");
    ca_store *st = open_ok(db);
    char *err = NULL;
    ca_scan_meta a = {0}, b = {0};
    a.args = ca_xstrdup("cancelaudit scan a");
    b.args = ca_xstrdup("cancelaudit scan b");
    CHECK_EQ(store_begin_scan(st, &a, &err), 0);
    CHECK_EQ(store_begin_scan(st, &b, &err), 0);
    CHECK(a.id > 0);
    CHECK(b.id > a.id);
    CHECK_STR_EQ(a.status, "running");
    CHECK(a.started != NULL && strlen(a.started) == 20);
    CHECK_STR_EQ(a.version, ca_version);
    /* The row is committed at once: another connection sees it. */
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM scans", 0), 2);
    CHECK_EQ(raw_int(db, "SELECT pid FROM scans WHERE id = ?", a.id), (long long)getpid());

    ca_scan_meta *list = NULL;
    size_t n = 0;
    CHECK_EQ(store_list_scans(st, &list, &n, &err), 0);
    CHECK_EQ(n, 2);
    if (n == 2) {
        CHECK_EQ(list[0].id, b.id); /* newest first */
        CHECK_EQ(list[1].id, a.id);
        CHECK_STR_EQ(list[0].status, "running"); /* our own process is alive */
        CHECK_STR_EQ(list[1].args, "cancelaudit scan a");
    }
    store_scans_free(list, n);

    /* Running scans are not "latest". */
    ca_results r = {0};
    CHECK_EQ(store_load_scan(st, 0, &r, &err), 1);
    CHECK(err && strstr(err, "no complete scan"));
    free(err);
    err = NULL;
    CHECK_EQ(store_load_scan(st, 9999, &r, &err), 1);
    CHECK(err && strstr(err, "no scan 9999"));
    free(err);
    err = NULL;

    ca_results holder = { .scan = a };
    ca_results_free(&holder);
    holder.scan = b;
    ca_results_free(&holder);
    store_close(st);
    free(db);
}

static void test_round_trip(void)
{
    char *db = tmp_path("round/.cancelaudit/audit.db");
    ca_store *st = open_ok(db);
    ca_results want;
    make_results(&want, "second finding <tag>");
    ca_results_sort(&want);
    int64_t id = store_scan(st, &want, "cancelaudit scan 'x' \"y\"\n--db z");
    CHECK(id > 0);

    char *err = NULL;
    for (int latest = 0; latest < 2; latest++) {
        ca_results got = {0};
        CHECK_EQ(store_load_scan(st, latest ? 0 : id, &got, &err), 0);
        CHECK_EQ(got.scan.id, id);
        CHECK_STR_EQ(got.scan.status, "complete");
        CHECK_STR_EQ(got.scan.root, want.scan.root);
        CHECK_STR_EQ(got.scan.git_rev, want.scan.git_rev);
        CHECK_STR_EQ(got.scan.args, want.scan.args);
        CHECK_STR_EQ(got.scan.class_digest, want.scan.class_digest);
        CHECK_STR_EQ(got.scan.version, ca_version);
        CHECK_STR_EQ(got.scan.started, want.scan.started);
        CHECK(got.scan.finished != NULL);
        CHECK_EQ(got.scan.files_scanned, 3);
        CHECK_EQ(got.scan.files_skipped, 7);
        CHECK_EQ(got.scan.errors, 1);
        CHECK_EQ(got.scan.baselined, 2);
        check_results_equal(&got, &want);
        ca_results_free(&got);
    }
    CHECK_EQ(raw_int(db, "SELECT findings_count FROM scans WHERE id = ?", id), 3);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM finding_handlers", 0), 3);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'scans'", 0), 1);
    /* Hostile text went in as data, byte for byte. */
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM findings WHERE instr(message, 'DROP TABLE') > 0", 0), 1);

    /* Results are written once: a second write into a complete scan is refused. */
    CHECK_EQ(store_write_results(st, id, &want, &err), -1);
    CHECK(err && strstr(err, "already"));
    free(err);
    err = NULL;
    CHECK_EQ(store_write_results(st, 424242, &want, &err), -1);
    CHECK(err && strstr(err, "no scan 424242"));
    free(err);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM findings", 0), 3);

    ca_results_free(&want);
    store_close(st);
    free(db);

    /* An in-memory store works the same way (nothing on disk). */
    st = open_ok(":memory:");
    make_results(&want, "mem");
    ca_results_sort(&want);
    id = store_scan(st, &want, "mem");
    ca_results got = {0};
    err = NULL;
    CHECK_EQ(store_load_scan(st, 0, &got, &err), 0);
    check_results_equal(&got, &want);
    ca_results_free(&got);
    ca_results_free(&want);
    store_close(st);
}

static void test_latest_and_reuse(void)
{
    char *db = tmp_path("latest/audit.db");
    ca_store *st = open_ok(db);
    ca_results r1, r2;
    make_results(&r1, "first");
    make_results(&r2, "second");
    free(r2.findings[2].message);
    r2.findings[2].message = ca_xstrdup("only in scan two");
    int64_t id1 = store_scan(st, &r1, "one");
    int64_t id2 = store_scan(st, &r2, "two");
    char *err = NULL;
    ca_scan_meta running = {0};
    CHECK_EQ(store_begin_scan(st, &running, &err), 0);
    CHECK(id1 > 0 && id2 > id1 && running.id > id2);

    ca_results got = {0};
    CHECK_EQ(store_load_scan(st, 0, &got, &err), 0);
    CHECK_EQ(got.scan.id, id2);
    int seen = 0;
    for (size_t i = 0; i < got.nfindings; i++) seen += !strcmp(got.findings[i].message, "only in scan two");
    CHECK_EQ(seen, 1);
    ca_results_free(&got);

    /* The running scan loads too, empty, and says what it is. */
    CHECK_EQ(store_load_scan(st, running.id, &got, &err), 0);
    CHECK_STR_EQ(got.scan.status, "running");
    CHECK_EQ(got.nfindings, 0);
    ca_results_free(&got);

    CHECK_EQ(raw_int(db, "SELECT id FROM latest_scan", 0), id2);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM latest_findings", 0), 3);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM latest_coverage", 0), 3);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM latest_findings WHERE scan_id <> ?", id2), 0);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM findings", 0), 6);

    int64_t latest = 0, started_ns = 0;
    CHECK_EQ(store_latest_complete(st, &latest, &started_ns, &err), 0);
    CHECK_EQ(latest, id2);
    CHECK(started_ns > 1700000000LL * 1000000000LL);

    /* Incremental rescans: the file record of the latest complete scan. */
    ca_file_rec f;
    int64_t from = 0;
    CHECK_EQ(store_cached_file(st, UNICODE_PATH, &f, &from, &err), 0);
    CHECK_EQ(from, id2);
    CHECK_STR_EQ(f.path, UNICODE_PATH);
    CHECK_EQ(f.status, CA_FILE_CACHED);
    CHECK_STR_EQ(f.hash, "0123456789abcdef");
    CHECK_EQ(f.size, 123456789012LL + 3);
    CHECK_EQ(f.mtime_ns, 1732870000123456789LL + 3);
    store_file_rec_free(&f);
    CHECK_EQ(store_cached_file(st, INVALID_UTF8_PATH, &f, NULL, &err), 0);
    CHECK_STR_EQ(f.path, INVALID_UTF8_PATH);
    CHECK_STR_EQ(f.diagnostic, "file is larger than the 10 MiB limit");
    CHECK(f.hash == NULL);
    store_file_rec_free(&f);
    CHECK_EQ(store_cached_file(st, "no/such/file.py", &f, &from, &err), 1);

    /* Reuse appends one file's findings (with handlers) and functions. */
    ca_results reuse = {0};
    add_file(&reuse, "already/there.py", CA_FILE_ANALYZED, NULL);
    add_finding(&reuse, "CAN401", "already/there.py", 3, "kept");
    CHECK_EQ(store_load_file_results(st, id2, HOSTILE_PATH, &reuse, &err), 0);
    CHECK_EQ(reuse.nfindings, 3);
    CHECK_EQ(reuse.nfunctions, 1);
    if (reuse.nfindings == 3) {
        CHECK_STR_EQ(reuse.findings[0].message, "kept");
        CHECK_STR_EQ(reuse.findings[1].path, HOSTILE_PATH);
        CHECK_EQ(reuse.findings[1].nhandlers + reuse.findings[2].nhandlers, 3);
    }
    CHECK_EQ(store_load_file_results(st, id2, "no/such/file.py", &reuse, &err), 0);
    CHECK_EQ(reuse.nfindings, 3);
    ca_results_free(&reuse);

    ca_results holder = { .scan = running };
    ca_results_free(&holder);
    ca_results_free(&r1);
    ca_results_free(&r2);
    store_close(st);
    free(db);
}

/* A scan whose process died before writing its results reads as partial. */
static void test_partial(void)
{
    char *db = tmp_path("partial/.cancelaudit/audit.db");
    ca_store *st = open_ok(db);
    ca_results done;
    make_results(&done, "done");
    int64_t complete_id = store_scan(st, &done, "complete one");
    /* SQLite connections must not cross fork(): the child opens its own. */
    store_close(st);

    pid_t child = fork();
    if (child == 0) {
        /* A scan that is killed after its row is committed: no results, no close. */
        ca_store *cst = NULL;
        ca_scan_meta m = {0};
        if (store_open(db, &cst, NULL) != 0 || store_begin_scan(cst, &m, NULL) != 0) _exit(1);
        _exit(0);
    }
    int status = 0;
    CHECK(child > 0);
    CHECK_EQ(waitpid(child, &status, 0), child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    st = open_ok(db);
    long long dead_id = raw_int(db, "SELECT max(id) FROM scans", 0);
    CHECK(dead_id > complete_id);
    CHECK_EQ(raw_int(db, "SELECT pid FROM scans WHERE id = ?", dead_id), child);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM scans WHERE id = ? AND status = 'running'", dead_id), 1);

    char *err = NULL;
    ca_scan_meta *list = NULL;
    size_t n = 0;
    CHECK_EQ(store_list_scans(st, &list, &n, &err), 0);
    CHECK_EQ(n, 2);
    if (n == 2) {
        CHECK_EQ(list[0].id, dead_id);
        CHECK_STR_EQ(list[0].status, "partial");
        CHECK_STR_EQ(list[1].status, "complete");
    }
    store_scans_free(list, n);

    ca_results got = {0};
    CHECK_EQ(store_load_scan(st, dead_id, &got, &err), 0);
    CHECK_STR_EQ(got.scan.status, "partial");
    ca_results_free(&got);
    CHECK_EQ(store_load_scan(st, 0, &got, &err), 0);
    CHECK_EQ(got.scan.id, complete_id); /* the partial scan is never "latest" */
    ca_results_free(&got);

    /* Our own running scan is running, until it claims another host or boot. */
    ca_scan_meta mine = {0};
    CHECK_EQ(store_begin_scan(st, &mine, &err), 0);
    CHECK_EQ(store_load_scan(st, mine.id, &got, &err), 0);
    CHECK_STR_EQ(got.scan.status, "running");
    ca_results_free(&got);
    raw_exec(db, "UPDATE scans SET host = 'elsewhere.example' WHERE id = (SELECT max(id) FROM scans)");
    CHECK_EQ(store_load_scan(st, mine.id, &got, &err), 0);
    CHECK_STR_EQ(got.scan.status, "partial");
    ca_results_free(&got);
    if (access("/proc/sys/kernel/random/boot_id", R_OK) == 0) {
        raw_exec(db, "UPDATE scans SET host = (SELECT host FROM scans WHERE id = 1),"
                     " boot_id = 'another-boot' WHERE id = (SELECT max(id) FROM scans)");
        CHECK_EQ(store_load_scan(st, mine.id, &got, &err), 0);
        CHECK_STR_EQ(got.scan.status, "partial");
        ca_results_free(&got);
    }

    ca_results holder = { .scan = mine };
    ca_results_free(&holder);
    ca_results_free(&done);
    store_close(st);
    free(db);
}

static void test_refusals(void)
{
    char *err = NULL;
    ca_store *st = NULL;

    char *db = tmp_path("newer/audit.db");
    store_close(open_ok(db));
    raw_exec(db, "PRAGMA user_version = 99");
    CHECK_EQ(store_open(db, &st, &err), -1);
    CHECK(st == NULL);
    char *want = ca_xasprintf("database schema version 99 is newer than this cancelaudit supports (%d); "
                              "upgrade cancelaudit or use another --db", STORE_SCHEMA_VERSION);
    CHECK(err && strstr(err, want));
    free(want);
    free(err);
    err = NULL;
    free(db);

    /* Another program's database is left alone. */
    db = tmp_path("foreign.db");
    raw_exec(db, "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('mine')");
    CHECK_EQ(store_open(db, &st, &err), -1);
    CHECK(err && strstr(err, "not a cancelaudit database"));
    free(err);
    err = NULL;
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM sqlite_master", 0), 1);
    free(db);

    /* A file that is no database at all. */
    db = tmp_path("text.db");
    FILE *fp = fopen(db, "w");
    if (fp) {
        fputs("this is not an SQLite database, just some text long enough to have a header......\n", fp);
        fclose(fp);
    }
    CHECK_EQ(store_open(db, &st, &err), -1);
    CHECK(err && strstr(err, "text.db"));
    free(err);
    free(db);
}

/* A failure mid-write rolls back everything of that scan and leaves it running. */
static void test_one_transaction(void)
{
    char *db = tmp_path("txn/audit.db");
    ca_store *st = open_ok(db);
    char *err = NULL;
    ca_results r;
    make_results(&r, "txn");
    CHECK_EQ(store_begin_scan(st, &r.scan, &err), 0);
    int64_t id = r.scan.id;

    /* Files, functions and two findings go in before the third breaks NOT NULL. */
    char *rule = r.findings[2].rule;
    r.findings[2].rule = NULL;
    CHECK_EQ(store_write_results(st, id, &r, &err), -1);
    CHECK(err && strstr(err, "NOT NULL"));
    free(err);
    err = NULL;
    r.findings[2].rule = rule;

    const char *tables[] = { "files", "functions", "findings", "coverage" };
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        char *sql = ca_xasprintf("SELECT count(*) FROM %s WHERE scan_id = ?", tables[i]);
        CHECK_EQ(raw_int(db, sql, id), 0);
        free(sql);
    }
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM finding_handlers", 0), 0);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM scans WHERE id = ? AND status = 'running'", id), 1);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM scans WHERE finished IS NOT NULL", 0), 0);

    /* The connection is still usable and the same scan can still be completed. */
    CHECK_EQ(store_write_results(st, id, &r, &err), 0);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM findings WHERE scan_id = ?", id), 3);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM scans WHERE id = ? AND status = 'complete'", id), 1);

    /* Deleting a scan takes all its rows with it. */
    char *del = ca_xasprintf("PRAGMA foreign_keys = ON; DELETE FROM scans WHERE id = %lld", (long long)id);
    raw_exec(db, del);
    free(del);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM findings", 0), 0);
    CHECK_EQ(raw_int(db, "SELECT count(*) FROM finding_handlers", 0), 0);

    ca_results_free(&r);
    store_close(st);
    free(db);
}

static void test_integrity(void)
{
    char *db = tmp_path("round/.cancelaudit/audit.db");
    char *ok = raw_str(db, "PRAGMA integrity_check");
    CHECK_STR_EQ(ok, "ok");
    free(ok);
    CHECK_EQ(raw_int(db, "PRAGMA foreign_key_check", 0), -1); /* no rows */
    free(db);
    db = tmp_path("latest/audit.db");
    ok = raw_str(db, "PRAGMA integrity_check");
    CHECK_STR_EQ(ok, "ok");
    free(ok);
    CHECK_EQ(raw_int(db, "PRAGMA foreign_key_check", 0), -1);
    free(db);
}

int main(void)
{
    snprintf(tmp_root, sizeof tmp_root, "/tmp/ca_test_store_XXXXXX");
    if (!mkdtemp(tmp_root)) {
        perror("mkdtemp");
        return 1;
    }
    test_create();
    test_two_scans();
    test_round_trip();
    test_latest_and_reuse();
    test_partial();
    test_refusals();
    test_one_transaction();
    test_integrity();
    rm_rf(tmp_root);
    CA_TEST_MAIN();
}
