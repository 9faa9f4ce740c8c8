/*
 * report_store.c — what the store reporters share (report_store.h): the
 * names of their formats, and how a coverage cell's stored fields read: its
 * status as a fixed word, its comma-separated rules and lines, and which
 * findings count for it. The matrix (report_matrix.c) and the issue report
 * (report_issue.c) both build on these and on nothing of each other.
 *
 * Pipeline position: the end, beside doc.c; reads a ca_results and writes
 * nothing but the strings it is asked for.
 */
#include "report/report_store.h"

#include <stdlib.h>
#include <string.h>

static int str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

int rs_format_parse(const char *name, rs_format *out)
{
    if (!name) return -1;
    if (strcmp(name, "text") == 0) *out = RS_TEXT;
    else if (strcmp(name, "markdown") == 0 || strcmp(name, "md") == 0) *out = RS_MARKDOWN;
    else if (strcmp(name, "json") == 0) *out = RS_JSON;
    else if (strcmp(name, "html") == 0) *out = RS_HTML;
    else return -1;
    return 0;
}

/* ---- cells and findings ---------------------------------------------------- */

/* The next comma-separated item of a "CAN101, CAN102" list at *p, spaces
 * trimmed, into *item and *n; *p moves past it. 0 when none is left. */
int rs_csv_next(const char **p, const char **item, size_t *n)
{
    const char *s = *p;
    while (s && *s) {
        while (*s == ' ' || *s == ',') s++;
        const char *e = s;
        while (*e && *e != ',') e++;
        const char *t = e;
        while (t > s && t[-1] == ' ') t--;
        if (t > s) {
            *item = s;
            *n = (size_t)(t - s);
            *p = e;
            return 1;
        }
        s = e;
    }
    *p = s;
    return 0;
}

const char *rs_status_word(const char *status)
{
    static const char *const words[] = {"gap", "covered", "no-window", "inherited", "absent"};
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (str_eq(status, words[i])) return words[i];
    return "unknown";
}

int rs_csv_has(const char *csv, const char *id)
{
    if (!csv || !id || !*id) return 0;
    size_t len = strlen(id), n;
    const char *item;
    for (const char *p = csv; rs_csv_next(&p, &item, &n);)
        if (n == len && strncmp(item, id, n) == 0) return 1;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The positive numbers of a "44,60,44" list, sorted and unique. */
size_t rs_lines_parse(const char *csv, int **out)
{
    CA_VEC(int) v = {0};
    for (const char *p = csv ? csv : ""; *p;) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p) {
            p++;
            continue;
        }
        if (x > 0 && x < 1000000000L) CA_VEC_PUSH(v, (int)x);
        p = end;
    }
    if (v.n) qsort(v.v, v.n, sizeof(int), cmp_int);
    size_t u = 0;
    for (size_t i = 0; i < v.n; i++)
        if (u == 0 || v.v[u - 1] != v.v[i]) v.v[u++] = v.v[i];
    *out = v.v;
    return u;
}

void rs_rules_val(doc_writer *d, const char *csv)
{
    ca_sb sb = {0};
    size_t n, k = 0;
    const char *item;
    for (const char *p = csv; rs_csv_next(&p, &item, &n); k++) {
        if (k) ca_sb_adds(&sb, ", ");
        ca_sb_add(&sb, item, n);
    }
    /* one value: a list marker is escaped only where the list starts */
    doc_val(d, ca_sb_str(&sb));
    ca_sb_release(&sb);
}

size_t rs_lines_list(ca_sb *sb, const char *csv, const char *sep)
{
    int *l = NULL;
    size_t n = rs_lines_parse(csv, &l);
    for (size_t i = 0; i < n; i++) ca_sb_addf(sb, "%s%d", i ? sep : "", l[i]);
    free(l);
    return n;
}

static int lines_has(const char *csv, int line)
{
    int *l = NULL;
    size_t n = rs_lines_parse(csv, &l);
    int found = 0;
    for (size_t i = 0; i < n && !found; i++) found = l[i] == line;
    free(l);
    return found;
}

int rs_finding_in_cell(const ca_coverage *c, const ca_finding *f)
{
    if (!rs_csv_has(c->rules, f->rule)) return 0;
    /* an inherited cell shows another class's code: its findings are that
     * code's, whichever backend it is */
    int inherited = str_eq(c->status, "inherited");
    if (inherited ? !str_eq(c->path, f->path) : !str_eq(c->backend, f->backend)) return 0;
    if (str_eq(c->function, f->function) && str_eq(c->path, f->path)) return 1;
    /* a window in a same-backend helper the boundary calls: the cell holds its line */
    return lines_has(c->lines, f->line);
}

const ca_family *rs_family_named(const ca_results *r, const char *name)
{
    for (size_t i = 0; name && i < r->nfamilies; i++)
        if (str_eq(r->families[i].name, name)) return &r->families[i];
    return NULL;
}

int rs_cell_in_family(const ca_coverage *c, const char *fam)
{
    if (!fam || !*fam) return !c->family || !*c->family;
    return str_eq(c->family, fam);
}

/* The protections as engine.h ranks them, most specific first. */
static size_t protection_rank(const char *p)
{
    static const char *const order[] = {"except BaseException + shield", "except BaseException", "except CancelledError",
                                        "finally", "context manager", "exit stack"};
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
        if (str_eq(p, order[i])) return i;
    return sizeof(order) / sizeof(order[0]);
}

const ca_coverage *rs_precedent(const ca_coverage *const *cells, size_t n)
{
    const ca_coverage *best = NULL;
    for (size_t i = 0; i < n; i++) {
        const ca_coverage *c = cells[i];
        if (!str_eq(c->status, "covered")) continue;
        if (!best || protection_rank(c->protection) < protection_rank(best->protection) ||
            (protection_rank(c->protection) == protection_rank(best->protection) && c->backend && best->backend &&
             strcmp(c->backend, best->backend) < 0))
            best = c;
    }
    return best;
}

/* " at lines 44, 60 (via `Q._spawn`)": a cell's gap lines, each naming the
 * helper it lies in when that is not the boundary method. */
static void gap_lines(doc_writer *d, const ca_results *r, const ca_coverage *c)
{
    int *l = NULL;
    size_t n = rs_lines_parse(c->lines, &l);
    if (n) doc_lit(d, n > 1 ? " at lines " : " at line ");
    for (size_t i = 0; i < n; i++) {
        if (i) doc_lit(d, ", ");
        doc_litf(d, "%d", l[i]);
        const ca_finding *via = rs_line_helper(r, c, l[i]);
        if (via) {
            doc_lit(d, " (via ");
            doc_code(d, via->function);
            doc_lit(d, ")");
        }
    }
    free(l);
}

void rs_boundary_table(doc_writer *d, const ca_results *r, const ca_coverage *const *cells, size_t n,
                       const char *reported_backend)
{
    doc_table(d, "others");
    doc_row(d);
    static const char *const head[] = {"backend", "status", "protection or rules", "where"};
    for (int k = 0; k < 4; k++) {
        doc_cell(d, 1, NULL, NULL);
        doc_lit(d, head[k]);
        doc_cell_end(d);
    }
    doc_row_end(d);
    for (size_t i = 0; i < n; i++) {
        const ca_coverage *c = cells[i];
        const char *st = c->status;
        doc_row(d);
        doc_cell(d, 0, NULL, NULL);
        doc_val(d, c->backend);
        if (reported_backend && str_eq(c->backend, reported_backend)) doc_lit(d, " (this report)");
        doc_cell_end(d);
        doc_cell(d, 0, rs_status_word(st), rs_status_word(st));
        if (str_eq(st, "gap")) doc_strong(d, "gap");
        else doc_val(d, st);
        doc_cell_end(d);
        doc_cell(d, 0, NULL, NULL);
        int rules = c->rules && *c->rules;
        if (rules) {
            if (str_eq(st, "inherited")) doc_lit(d, "gap in the inherited code: ");
            rs_rules_val(d, c->rules);
            gap_lines(d, r, c);
        } else if ((str_eq(st, "covered") || str_eq(st, "inherited")) && c->protection && *c->protection) {
            doc_val(d, c->protection);
        } else if (str_eq(st, "no-window") || str_eq(st, "inherited")) {
            doc_lit(d, "nothing it acquires is live across an await");
        } else if (str_eq(st, "absent")) {
            doc_lit(d, "does not define ");
            doc_code(d, c->boundary);
        }
        if (str_eq(st, "inherited") && c->function) {
            doc_lit(d, "; runs ");
            doc_code(d, c->function);
        }
        doc_cell_end(d);
        doc_cell(d, 0, NULL, NULL);
        if (c->path) doc_loc(d, c->path, c->line);
        doc_cell_end(d);
        doc_row_end(d);
    }
    doc_table_end(d);
}

const ca_finding *rs_line_helper(const ca_results *r, const ca_coverage *c, int line)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        const ca_finding *f = &r->findings[i];
        if (f->line != line || !rs_finding_in_cell(c, f)) continue;
        if (!(str_eq(f->function, c->function) && str_eq(f->path, c->path))) return f;
    }
    return NULL;
}

const char *rs_meta_date(const ca_results *r, const rs_opts *o)
{
    if (o && o->reproducible) return NULL;
    return r->scan.finished ? r->scan.finished : r->scan.started;
}
