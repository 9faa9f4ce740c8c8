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
    static const char *const words[] = {"gap", "covered", "no-window", "absent"};
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
    if (!str_eq(c->backend, f->backend) || !rs_csv_has(c->rules, f->rule)) return 0;
    if (str_eq(c->function, f->function) && str_eq(c->path, f->path)) return 1;
    /* a window in a same-backend helper the boundary calls: the cell holds its line */
    return lines_has(c->lines, f->line);
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
