/*
 * cli_store.c — the subcommands that read the store and never scan:
 * `matrix`, `report` and `diff`, and `merge`, which writes one store from
 * others and never scans either. Options, opening the database
 * read-side (a missing database is a usage error, never created here),
 * loading scans, and writing the output where it was asked to go. The
 * reporters themselves are report_matrix.c, report_issue.c and diff.c;
 * the merge is store/merge.c.
 *
 * Output is rendered in memory first, so a failed or empty report never
 * leaves a truncated --output file behind. Without --format, an --output
 * name ending in .md, .json, .html or .txt picks the format it names.
 *
 * CANCELAUDIT_REPRODUCIBLE=1 in the environment leaves out scan ids, dates,
 * the scanned root and the git revision (golden files, reports/).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "store/diff.h"
#include "report/report.h"
#include "report/report_store.h"
#include "rules/ruledoc.h"
#include "store/store.h"

typedef struct store_args {
    const char *cmd;      /* the subcommand, for messages */
    const char *db;       /* --db; NULL: the default (cli_default_db) */
    char *db_default;     /* what db points to when it is the default */
    int verbose;
    const char *scan;     /* --scan value, NULL: the latest complete scan */
    const char *format;
    const char *output;
} store_args;

static int reproducible(void)
{
    const char *v = getenv("CANCELAUDIT_REPRODUCIBLE");
    return v && *v && strcmp(v, "0") != 0;
}

/* Columns of the terminal on stdout: $COLUMNS, the tty's size, else 100. */
static int term_width(void)
{
    const char *c = getenv("COLUMNS");
    if (c && *c) {
        long n = strtol(c, NULL, 10);
        if (n >= 20 && n <= 10000) return (int)n;
    }
    struct winsize ws;
    if (isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    return 100;
}

/* "12", "latest" → *id (0 for latest). */
static int parse_scan_id(const char *s, int64_t *id)
{
    if (!s || strcmp(s, "latest") == 0) {
        *id = 0;
        return 0;
    }
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v <= 0) return -1;
    *id = v;
    return 0;
}

/* Open the database for reading. 0, or the exit code after a message. */
static int open_store(const char *db, ca_store **st)
{
    if (strcmp(db, ":memory:") != 0 && access(db, F_OK) != 0) {
        fprintf(stderr, "cancelaudit: no database at %s (run `cancelaudit scan` first, or give --db PATH)\n", db);
        return 2;
    }
    char *err = NULL;
    if (store_open(db, st, &err) != 0) {
        fprintf(stderr, "cancelaudit: %s\n", err ? err : "cannot open the database");
        free(err);
        return 3;
    }
    return 0;
}

/* Load scan `spec` (NULL: latest complete) into *r. 0, or an exit code
 * after a message (then *r is empty). */
static int load_scan(ca_store *st, const char *spec, ca_results *r)
{
    int64_t id;
    if (parse_scan_id(spec, &id) != 0) {
        fprintf(stderr, "cancelaudit: '%s' is not a scan id (a positive number, or `latest`)\n", spec);
        return 2;
    }
    char *err = NULL;
    memset(r, 0, sizeof(*r));
    int rc = store_load_scan(st, id, r, &err);
    if (rc == 1) {
        if (id) fprintf(stderr, "cancelaudit: no scan %lld in the database\n", (long long)id);
        else fprintf(stderr, "cancelaudit: no complete scan in the database (run `cancelaudit scan` first)\n");
        free(err);
        return 2;
    }
    if (rc != 0) {
        fprintf(stderr, "cancelaudit: %s\n", err ? err : "cannot read the scan");
        free(err);
        return 3;
    }
    if (r->scan.status && strcmp(r->scan.status, "complete") != 0)
        fprintf(stderr, "cancelaudit: warning: scan %lld is %s; its results may be incomplete\n",
                (long long)r->scan.id, r->scan.status);
    return 0;
}

/* The one scan matrix and report read: open db, load it, close. */
static int read_scan(const char *db, const char *spec, ca_results *r)
{
    ca_store *st = NULL;
    int rc = open_store(db, &st);
    if (rc) return rc;
    rc = load_scan(st, spec, r);
    store_close(st);
    return rc;
}

/* Render into memory with fn(out, ctx): returns fn's result (-1 also when
 * no memory stream could be made); *buf (caller frees) holds *len bytes. */
typedef int (*render_fn)(FILE *out, void *ctx);

static int render(render_fn fn, void *ctx, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    FILE *mem = open_memstream(buf, len);
    if (!mem) return -1;
    int rc = fn(mem, ctx);
    if (fclose(mem) != 0) rc = -1;
    return rc;
}

/* Write text[0..n) to path (or stdout when NULL). 0, or 3 after a message. */
static int emit(const char *path, const char *text, size_t n)
{
    FILE *out = path ? fopen(path, "w") : stdout;
    if (!out) {
        fprintf(stderr, "cancelaudit: --output %s: %s\n", path, strerror(errno));
        return 3;
    }
    int ok = fwrite(text, 1, n, out) == n;
    if (path) ok = fclose(out) == 0 && ok;
    else ok = fflush(out) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "cancelaudit: writing %s failed\n", path ? path : "the output");
        return 3;
    }
    return 0;
}

/* Common options; anything else is handed to `extra` (1: consumed, 0:
 * unknown, -1: bad value, message printed). Positional arguments go to
 * pos (when not NULL). Returns 0 or 2. */
typedef int (*extra_fn)(int argc, char **argv, int *i, void *ctx);

static int parse_common(int argc, char **argv, store_args *a, extra_fn extra, void *ctx, const char **pos,
                        int maxpos, int *npos)
{
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char **slot = NULL;
        const char *name = NULL;
        if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
            a->verbose = 1;
            continue;
        }
        if (cli_is_opt(arg, "--db")) slot = &a->db, name = "--db";
        else if (cli_is_opt(arg, "--scan")) slot = &a->scan, name = "--scan";
        else if (cli_is_opt(arg, "--format")) slot = &a->format, name = "--format";
        else if (cli_is_opt(arg, "-f")) slot = &a->format, name = "-f";
        else if (cli_is_opt(arg, "--output")) slot = &a->output, name = "--output";
        else if (cli_is_opt(arg, "-o")) slot = &a->output, name = "-o";
        if (slot) {
            const char *v = cli_opt_value(argc, argv, &i, name);
            if (!v) return 2;
            *slot = v;
            continue;
        }
        if (arg[0] == '-' && arg[1] && !(arg[1] >= '0' && arg[1] <= '9')) {
            int rc = extra ? extra(argc, argv, &i, ctx) : 0;
            if (rc < 0) return 2;
            if (rc == 0) {
                cli_bad_option(a->cmd, arg);
                return 2;
            }
            continue;
        }
        if (!pos || *npos >= maxpos) {
            fprintf(stderr, "cancelaudit: unexpected argument '%s'; see `cancelaudit %s --help`\n", arg, a->cmd);
            return 2;
        }
        pos[(*npos)++] = arg;
    }
    if (!a->db) {
        char *why = NULL;
        a->db = a->db_default = cli_default_db(NULL, &why);
        if (a->verbose) {
            char *shown = cli_shown_path(a->db);
            fprintf(stderr, "cancelaudit: store: %s (%s)\n", shown, why);
            free(shown);
        }
        free(why);
    } else if (a->verbose) {
        fprintf(stderr, "cancelaudit: store: %s (--db)\n", a->db);
    }
    return cli_refuse_store_output("--output", a->output, a->db);
}

/* The format an --output name implies (".md", ".json", ".html", ".txt"),
 * or NULL. */
static const char *format_of(const char *path)
{
    static const char *const ext[][2] = {{".md", "markdown"}, {".markdown", "markdown"}, {".json", "json"},
                                         {".html", "html"}, {".htm", "html"}, {".txt", "text"}};
    size_t n = path ? strlen(path) : 0;
    for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
        size_t m = strlen(ext[i][0]);
        if (n > m && strcmp(path + n - m, ext[i][0]) == 0) return ext[i][1];
    }
    return NULL;
}

/* --format, else what --output's name implies when this command writes
 * that format, else dflt. allowed: bit (1 << format) per accepted format;
 * names lists them. */
static int check_format(const store_args *a, const char *dflt, unsigned allowed, const char *names, rs_format *fmt)
{
    const char *f = a->format;
    rs_format implied;
    if (!f && rs_format_parse(format_of(a->output), &implied) == 0 && (allowed & (1u << implied)))
        f = format_of(a->output);
    if (!f) f = dflt;
    rs_format v;
    if (rs_format_parse(f, &v) != 0 || !(allowed & (1u << v))) {
        fprintf(stderr, "cancelaudit: unknown --format '%s' (%s)\n", f, names);
        return 2;
    }
    *fmt = v;
    return 0;
}

/* ---- matrix ---------------------------------------------------------------- */

/* What matrix takes besides the common options. */
typedef struct matrix_args {
    const char *select, *family, *boundary;
} matrix_args;

static int matrix_extra(int argc, char **argv, int *i, void *ctx)
{
    matrix_args *m = ctx;
    const char *names[] = {"--select", "--family", "--boundary"};
    const char **slots[] = {&m->select, &m->family, &m->boundary};
    for (int k = 0; k < 3; k++) {
        if (!cli_is_opt(argv[*i], names[k])) continue;
        const char *v = cli_opt_value(argc, argv, i, names[k]);
        if (!v) return -1;
        *slots[k] = v;
        return 1;
    }
    return 0;
}

typedef struct matrix_job {
    const ca_results *r;
    rs_format fmt;
    const rs_opts *o;
} matrix_job;

static int matrix_render(FILE *out, void *ctx)
{
    const matrix_job *j = ctx;
    return report_matrix(out, j->r, j->fmt, j->o);
}

int cli_matrix(int argc, char **argv)
{
    store_args a = {.cmd = "matrix"};
    matrix_args m = {0};
    rs_format fmt;
    int rc = parse_common(argc, argv, &a, matrix_extra, &m, NULL, 0, NULL);
    const char *select = m.select;
    if (!rc)
        rc = check_format(&a, "text", 1u << RS_TEXT | 1u << RS_MARKDOWN | 1u << RS_JSON | 1u << RS_HTML,
                          "text, markdown, json, html", &fmt);
    char *bad = NULL;
    if (!rc && select && ca_rule_check_list(select, &bad) != 0) {
        cli_bad_rule(bad, "--select");
        free(bad);
        rc = 2;
    }
    ca_results r;
    if (!rc) rc = read_scan(a.db, a.scan, &r);
    if (rc) {
        free(a.db_default);
        return rc;
    }
    if (select) report_matrix_select(&r, select);

    rs_opts o = {.reproducible = reproducible(), .select = select, .family = m.family, .boundary = m.boundary};
    char *why = NULL;
    if (!report_matrix_check(&r, &o, &why)) {
        fprintf(stderr, "cancelaudit: %s\n", why ? why : "nothing to show");
        free(why);
        ca_results_free(&r);
        free(a.db_default);
        return 2;
    }
    o.color = fmt == RS_TEXT && !a.output && isatty(1) && !getenv("NO_COLOR");
    o.width = term_width();
    char *buf;
    size_t len;
    matrix_job job = {&r, fmt, &o};
    int wr = render(matrix_render, &job, &buf, &len);
    rc = wr != 0 ? 3 : emit(a.output, buf, len);
    if (wr != 0) fprintf(stderr, "cancelaudit: writing the matrix failed\n");
    free(buf);
    ca_results_free(&r);
    free(a.db_default);
    return rc;
}

/* --min-confidence LEVEL of report and diff: 1 consumed, 0 not it, -1 bad. */
static int min_confidence_opt(int argc, char **argv, int *i, const char **out)
{
    if (!cli_is_opt(argv[*i], "--min-confidence")) return 0;
    const char *v = cli_opt_value(argc, argv, i, "--min-confidence");
    if (!v) return -1;
    ca_confidence c;
    if (ca_confidence_parse(v, &c) != 0) {
        fprintf(stderr, "cancelaudit: unknown --min-confidence '%s' (high, medium, low)\n", v);
        return -1;
    }
    *out = v;
    return 1;
}

/* Leave out of r the findings below level (NULL: none). */
static void drop_below(ca_results *r, const char *level)
{
    ca_confidence c;
    if (level && ca_confidence_parse(level, &c) == 0) report_drop_below_confidence(r, c);
}

/* ---- report ---------------------------------------------------------------- */

typedef struct report_args {
    rs_target t;
    const char *min_confidence;
} report_args;

static int report_extra(int argc, char **argv, int *i, void *ctx)
{
    report_args *ra = ctx;
    rs_target *t = &ra->t;
    int mc = min_confidence_opt(argc, argv, i, &ra->min_confidence);
    if (mc) return mc;
    const char *names[] = {"--finding", "--backend", "--boundary"};
    const char **slots[] = {&t->fingerprint, &t->backend, &t->boundary};
    for (int k = 0; k < 3; k++) {
        if (!cli_is_opt(argv[*i], names[k])) continue;
        const char *v = cli_opt_value(argc, argv, i, names[k]);
        if (!v) return -1;
        *slots[k] = v;
        return 1;
    }
    return 0;
}

typedef struct report_job {
    const ca_results *r;
    const rs_target *t;
    rs_format fmt;
    const rs_opts *o;
    char *err;
} report_job;

static int report_render(FILE *out, void *ctx)
{
    report_job *j = ctx;
    return report_issue(out, j->r, j->t, j->fmt, j->o, &j->err);
}

int cli_report(int argc, char **argv)
{
    store_args a = {.cmd = "report"};
    report_args ra = {{0}, NULL};
    rs_target t = {0};
    rs_format fmt;
    int rc = parse_common(argc, argv, &a, report_extra, &ra, NULL, 0, NULL);
    t = ra.t;
    if (!rc) rc = check_format(&a, "markdown", 1u << RS_MARKDOWN | 1u << RS_HTML, "markdown, html", &fmt);
    int given = (t.fingerprint != NULL) + (t.backend != NULL) + (t.boundary != NULL);
    if (!rc && given != 1) {
        fprintf(stderr, "cancelaudit: report needs exactly one of --finding FP, --backend NAME, --boundary NAME; "
                        "see `cancelaudit report --help`\n");
        rc = 2;
    }
    ca_results r;
    if (!rc) rc = read_scan(a.db, a.scan, &r);
    if (rc) {
        free(a.db_default);
        return rc;
    }
    drop_below(&r, ra.min_confidence);

    rs_opts o = {.reproducible = reproducible()};
    char *buf;
    size_t len;
    report_job job = {&r, &t, fmt, &o, NULL};
    int wr = render(report_render, &job, &buf, &len);
    char *err = job.err;
    if (wr == 0) {
        rc = emit(a.output, buf, len);
    } else if (wr == 1) {
        fprintf(stderr, "cancelaudit: %s\n", err ? err : "nothing to report");
        rc = 0;
    } else if (wr == 2) {
        fprintf(stderr, "cancelaudit: %s\n", err ? err : "unknown report target");
        rc = 2;
    } else {
        fprintf(stderr, "cancelaudit: writing the report failed\n");
        rc = 3;
    }
    free(err);
    free(buf);
    ca_results_free(&r);
    free(a.db_default);
    return rc;
}

/* ---- diff ------------------------------------------------------------------ */

typedef struct diff_job {
    const ca_results *old, *cur;
    const ca_diff *d;
    rs_format fmt;
    const rs_opts *o;
} diff_job;

static int diff_render(FILE *out, void *ctx)
{
    const diff_job *j = ctx;
    return report_diff(out, j->old, j->cur, j->d, j->fmt, j->o);
}

static int diff_run(store_args *pa, const char **pos, int npos, const char *min_confidence);

static int diff_extra(int argc, char **argv, int *i, void *ctx)
{
    return min_confidence_opt(argc, argv, i, ctx);
}

int cli_diff(int argc, char **argv)
{
    store_args a = {.cmd = "diff"};
    const char *pos[2];
    const char *min_confidence = NULL;
    int npos = 0;
    int rc = parse_common(argc, argv, &a, diff_extra, &min_confidence, pos, 2, &npos);
    if (!rc) rc = diff_run(&a, pos, npos, min_confidence);
    free(a.db_default);
    return rc;
}

static int diff_run(store_args *pa, const char **pos, int npos, const char *min_confidence)
{
    store_args a = *pa;
    rs_format fmt;
    int rc;
    if (a.scan) {
        fprintf(stderr, "cancelaudit: diff takes the two scan ids as arguments, not --scan\n");
        return 2;
    }
    if (npos != 2) {
        fprintf(stderr, "cancelaudit: usage: cancelaudit diff [--db PATH] [--format text|json] OLD_SCAN NEW_SCAN\n");
        return 2;
    }
    if ((rc = check_format(&a, "text", 1u << RS_TEXT | 1u << RS_JSON, "text, json", &fmt))) return rc;
    ca_store *st = NULL;
    if ((rc = open_store(a.db, &st))) return rc;
    ca_results old, cur;
    rc = load_scan(st, pos[0], &old);
    if (rc) {
        store_close(st);
        return rc;
    }
    rc = load_scan(st, pos[1], &cur);
    store_close(st);
    if (rc) {
        ca_results_free(&old);
        return rc;
    }
    /* both sides at the level asked for: what is new is new at that level */
    drop_below(&old, min_confidence);
    drop_below(&cur, min_confidence);
    ca_diff d;
    ca_diff_compute(&old, &cur, &d);
    rs_opts o = {.reproducible = reproducible()};
    char *buf;
    size_t len;
    diff_job job = {&old, &cur, &d, fmt, &o};
    int wr = render(diff_render, &job, &buf, &len);
    if (wr != 0) {
        fprintf(stderr, "cancelaudit: writing the diff failed\n");
        rc = 3;
    } else {
        rc = emit(a.output, buf, len);
        if (rc == 0 && d.nadded) rc = 1;
    }
    free(buf);
    ca_diff_free(&d);
    ca_results_free(&old);
    ca_results_free(&cur);
    return rc;
}

/* ---- merge ----------------------------------------------------------------- */

static int same_file(const char *a, const char *b)
{
    char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
    int same = ra && rb && strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

int cli_merge(int argc, char **argv)
{
    int verbose = 0;
    CA_VEC(const char *) pos = {0};
    int rc = 0;
    for (int i = 0; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) verbose = 1;
        else if (strcmp(a, "--") == 0) for (i++; i < argc; i++) CA_VEC_PUSH(pos, argv[i]);
        else if (a[0] == '-' && a[1]) {
            cli_bad_option("merge", a);
            rc = 2;
        } else CA_VEC_PUSH(pos, a);
    }
    if (!rc && pos.n < 2) {
        fprintf(stderr, "cancelaudit: usage: cancelaudit merge OUT.db IN.db...; see `cancelaudit merge --help`\n");
        rc = 2;
    }
    for (size_t i = 1; !rc && i < pos.n; i++) {
        if (access(pos.v[i], F_OK) != 0) {
            fprintf(stderr, "cancelaudit: no database at %s\n", pos.v[i]);
            rc = 2;
        } else if (same_file(pos.v[0], pos.v[i])) {
            fprintf(stderr, "cancelaudit: %s is both the output and an input\n", pos.v[i]);
            rc = 2;
        }
        for (size_t k = 1; !rc && k < i; k++)
            if (same_file(pos.v[k], pos.v[i])) {
                fprintf(stderr, "cancelaudit: %s is given twice\n", pos.v[i]);
                rc = 2;
            }
    }
    if (rc) {
        CA_VEC_FREE(pos);
        return rc;
    }
    ca_sb args = {0};
    ca_sb_adds(&args, "merge");
    for (size_t i = 0; i < pos.n; i++) ca_sb_addf(&args, " %s", pos.v[i]);
    store_merge_part *parts = ca_xcalloc(pos.n, sizeof(*parts));
    for (size_t i = 1; i < pos.n; i++) parts[i - 1].path = pos.v[i];
    ca_store *st = NULL;
    char *err = NULL;
    int64_t id = 0;
    if (store_open(pos.v[0], &st, &err) != 0) {
        fprintf(stderr, "cancelaudit: %s\n", err ? err : "cannot open the output database");
        rc = 3;
    } else {
        int mr = store_merge(st, parts, pos.n - 1, ca_sb_str(&args), &id, &err);
        if (mr != 0) {
            fprintf(stderr, "cancelaudit: merge: %s\n", err ? err : "failed");
            rc = mr > 0 ? 2 : 3;
        }
    }
    store_close(st);
    if (!rc) {
        int64_t files = 0, findings = 0, cells = 0, families = 0;
        for (size_t i = 0; i + 1 < pos.n; i++) {
            files += parts[i].files;
            findings += parts[i].findings;
            cells += parts[i].cells;
            families += parts[i].families;
            if (verbose)
                fprintf(stderr,
                        "cancelaudit: %s: scan %lld (%lld files, %lld findings, %lld matrix cells, %lld families)\n",
                        parts[i].path, (long long)parts[i].scan_id, (long long)parts[i].files,
                        (long long)parts[i].findings, (long long)parts[i].cells, (long long)parts[i].families);
        }
        printf("merged %zu store%s into %s as scan %lld: %lld files, %lld findings, %lld matrix cells, %lld families\n",
               pos.n - 1, pos.n == 2 ? "" : "s", pos.v[0], (long long)id, (long long)files, (long long)findings,
               (long long)cells, (long long)families);
        if (fflush(stdout) != 0) rc = 3;
    }
    free(err);
    free(parts);
    ca_sb_release(&args);
    CA_VEC_FREE(pos);
    return rc;
}
