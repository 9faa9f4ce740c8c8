/*
 * diff.c — scan-to-scan comparison by fingerprint (diff.h): a sort-merge of
 * the two scans' unsuppressed findings, and its text and JSON reports.
 */
#include "store/diff.h"
#include "util/json.h"
#include "report/doc.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

static int cmp_fp(const void *a, const void *b)
{
    const ca_finding *x = *(const ca_finding *const *)a, *y = *(const ca_finding *const *)b;
    return strcmp(x->fingerprint ? x->fingerprint : "", y->fingerprint ? y->fingerprint : "");
}

/* Pointers to r's unsuppressed findings, sorted by fingerprint. */
static size_t by_fingerprint(const ca_results *r, const ca_finding ***out)
{
    const ca_finding **v = ca_xmalloc(sizeof(ca_finding *) * (r->nfindings + 1));
    size_t n = 0;
    for (size_t i = 0; i < r->nfindings; i++)
        if (!r->findings[i].suppressed) v[n++] = &r->findings[i];
    if (n) qsort(v, n, sizeof(*v), cmp_fp);
    *out = v;
    return n;
}

/* Back to ca_results_sort order (path, line, column, rule, ...). */
static int cmp_pos(const void *a, const void *b)
{
    const ca_finding *x = *(const ca_finding *const *)a, *y = *(const ca_finding *const *)b;
    int c = strcmp(x->path ? x->path : "", y->path ? y->path : "");
    if (c) return c;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->column != y->column) return x->column < y->column ? -1 : 1;
    if ((c = strcmp(x->rule ? x->rule : "", y->rule ? y->rule : ""))) return c;
    return strcmp(x->resource ? x->resource : "", y->resource ? y->resource : "");
}

void ca_diff_compute(const ca_results *old, const ca_results *new_, ca_diff *out)
{
    memset(out, 0, sizeof(*out));
    const ca_finding **a, **b;
    size_t na = by_fingerprint(old, &a), nb = by_fingerprint(new_, &b);
    out->added = ca_xmalloc(sizeof(ca_finding *) * (nb + 1));
    out->fixed = ca_xmalloc(sizeof(ca_finding *) * (na + 1));
    out->unchanged = ca_xmalloc(sizeof(ca_finding *) * (nb + 1));
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        int c = i == na ? 1 : j == nb ? -1 : cmp_fp(&a[i], &b[j]);
        if (c < 0) out->fixed[out->nfixed++] = a[i++];
        else if (c > 0) out->added[out->nadded++] = b[j++];
        else {
            out->unchanged[out->nunchanged++] = b[j++];
            i++;
        }
    }
    qsort(out->added, out->nadded, sizeof(ca_finding *), cmp_pos);
    qsort(out->fixed, out->nfixed, sizeof(ca_finding *), cmp_pos);
    qsort(out->unchanged, out->nunchanged, sizeof(ca_finding *), cmp_pos);
    free(a);
    free(b);
}

void ca_diff_free(ca_diff *d)
{
    free(d->added);
    free(d->fixed);
    free(d->unchanged);
    memset(d, 0, sizeof(*d));
}

static void text_line(ca_sb *sb, const ca_finding *f)
{
    ca_sb_adds(sb, "  ");
    doc_put(sb, f->path, DOC_PUT_TERM);
    ca_sb_addf(sb, ":%d:%d: ", f->line, f->column);
    doc_put(sb, f->rule, DOC_PUT_TERM);
    ca_sb_addc(sb, ' ');
    doc_put(sb, f->message, DOC_PUT_TERM);
    ca_sb_adds(sb, " [");
    doc_put(sb, f->fingerprint, DOC_PUT_TERM);
    ca_sb_adds(sb, "]\n");
}

static void scan_name(ca_sb *sb, const ca_results *r, const char *which, const rs_opts *o)
{
    if (o->reproducible || !r->scan.id) ca_sb_addf(sb, "%s scan", which);
    else ca_sb_addf(sb, "scan %lld", (long long)r->scan.id);
}

static void json_scan(ca_json_writer *w, const char *key, const ca_results *r, const rs_opts *o)
{
    ca_json_key(w, key);
    ca_json_begin_object(w);
    if (!o->reproducible && r->scan.id) ca_json_kv_int(w, "id", r->scan.id);
    else ca_json_kv_null(w, "id");
    ca_json_kv_string(w, "status", r->scan.status);
    ca_json_kv_string(w, "started", o->reproducible ? NULL : r->scan.started);
    ca_json_kv_string(w, "root", o->reproducible ? NULL : r->scan.root);
    ca_json_kv_string(w, "git_rev", o->reproducible ? NULL : r->scan.git_rev);
    ca_json_end_object(w);
}

static void json_list(ca_json_writer *w, const char *key, const ca_finding *const *fs, size_t n)
{
    ca_json_key(w, key);
    ca_json_begin_array(w);
    for (size_t i = 0; i < n; i++) report_json_finding(w, fs[i]);
    ca_json_end_array(w);
}

int report_diff(FILE *out, const ca_results *old, const ca_results *new_, const ca_diff *d, rs_format fmt,
                const rs_opts *opts)
{
    rs_opts none = {0};
    const rs_opts *o = opts ? opts : &none;
    ca_sb sb = {0};
    if (fmt == RS_JSON) {
        ca_json_writer w;
        ca_json_init(&w, &sb, 1);
        ca_json_begin_object(&w);
        ca_json_tool(&w);
        json_scan(&w, "old_scan", old, o);
        json_scan(&w, "new_scan", new_, o);
        ca_json_key(&w, "summary");
        ca_json_begin_object(&w);
        ca_json_kv_int(&w, "new", (int64_t)d->nadded);
        ca_json_kv_int(&w, "fixed", (int64_t)d->nfixed);
        ca_json_kv_int(&w, "unchanged", (int64_t)d->nunchanged);
        ca_json_end_object(&w);
        json_list(&w, "new", d->added, d->nadded);
        json_list(&w, "fixed", d->fixed, d->nfixed);
        json_list(&w, "unchanged", d->unchanged, d->nunchanged);
        ca_json_kv_int(&w, "schema_version", REPORT_JSON_SCHEMA_VERSION);
        ca_json_end_object(&w);
        ca_json_finish(&w);
        ca_sb_addc(&sb, '\n');
    } else {
        scan_name(&sb, old, "old", o);
        ca_sb_adds(&sb, " -> ");
        scan_name(&sb, new_, "new", o);
        ca_sb_addf(&sb, ": %zu new, %zu fixed, %zu unchanged\n", d->nadded, d->nfixed, d->nunchanged);
        if (d->nadded) ca_sb_adds(&sb, "new:\n");
        for (size_t i = 0; i < d->nadded; i++) text_line(&sb, d->added[i]);
        if (d->nfixed) ca_sb_adds(&sb, "fixed:\n");
        for (size_t i = 0; i < d->nfixed; i++) text_line(&sb, d->fixed[i]);
    }
    return report_emit(out, &sb);
}
