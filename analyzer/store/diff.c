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

/* ---- families --------------------------------------------------------- */

typedef CA_VEC(const char *) name_list;

static int has_name(const name_list *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (s && l->v[i] && strcmp(l->v[i], s) == 0) return 1;
    return 0;
}

static void backends_of(const ca_family *f, name_list *out)
{
    out->n = 0;
    for (size_t i = 0; f && i < f->nmembers; i++)
        if (f->members[i].backend) CA_VEC_PUSH(*out, f->members[i].backend);
}

static const ca_family *family_named(const ca_results *r, const char *name)
{
    for (size_t i = 0; i < r->nfamilies; i++)
        if (r->families[i].name && name && strcmp(r->families[i].name, name) == 0) return &r->families[i];
    return NULL;
}

/* Which families and backends the two scans differ in. Nothing to say when
 * either scan has no family records (stored before families) or both were
 * found in the same class graph (equal digests give equal families). */
static void family_changes(ca_sb *text, ca_json_writer *w, const ca_results *old, const ca_results *new_)
{
    if (w) {
        ca_json_key(w, "families");
        ca_json_begin_array(w);
    }
    int same = old->scan.class_digest && new_->scan.class_digest &&
               strcmp(old->scan.class_digest, new_->scan.class_digest) == 0;
    if (same || !old->nfamilies || !new_->nfamilies) {
        if (w) ca_json_end_array(w);
        return;
    }
    name_list a = {0}, b = {0};
    int header = 0;
    for (int pass = 0; pass < 2; pass++) {
        const ca_results *here = pass ? old : new_, *there = pass ? new_ : old;
        for (size_t i = 0; i < here->nfamilies; i++) {
            const ca_family *f = &here->families[i], *g = family_named(there, f->name);
            if (pass && g) continue; /* compared in the first pass */
            backends_of(pass ? g : f, &b);
            backends_of(pass ? f : g, &a);
            /* a: the old scan's backends, b: the new one's */
            name_list plus = {0}, minus = {0};
            for (size_t k = 0; k < b.n; k++)
                if (!has_name(&a, b.v[k])) CA_VEC_PUSH(plus, b.v[k]);
            for (size_t k = 0; k < a.n; k++)
                if (!has_name(&b, a.v[k])) CA_VEC_PUSH(minus, a.v[k]);
            const char *change = !g ? (pass ? "removed" : "added") : (plus.n || minus.n) ? "changed" : NULL;
            if (change && text) {
                if (!header++) ca_sb_adds(text, "families:\n");
                ca_sb_adds(text, !g ? (pass ? "  - " : "  + ") : "  ");
                doc_put(text, f->name, DOC_PUT_TERM);
                if (!g) ca_sb_addf(text, " (%zu backend%s)", pass ? a.n : b.n, (pass ? a.n : b.n) == 1 ? "" : "s");
                for (size_t k = 0; g && k < plus.n; k++) {
                    ca_sb_adds(text, k ? ", +" : ": +");
                    doc_put(text, plus.v[k], DOC_PUT_TERM);
                }
                for (size_t k = 0; g && k < minus.n; k++) {
                    ca_sb_adds(text, k || plus.n ? ", -" : ": -");
                    doc_put(text, minus.v[k], DOC_PUT_TERM);
                }
                ca_sb_addc(text, '\n');
            }
            if (change && w) {
                ca_json_begin_object(w);
                ca_json_kv_string(w, "name", f->name);
                ca_json_kv_string(w, "change", change);
                ca_json_key(w, "backends_added");
                ca_json_begin_array(w);
                for (size_t k = 0; k < plus.n; k++) ca_json_string(w, plus.v[k]);
                ca_json_end_array(w);
                ca_json_key(w, "backends_removed");
                ca_json_begin_array(w);
                for (size_t k = 0; k < minus.n; k++) ca_json_string(w, minus.v[k]);
                ca_json_end_array(w);
                ca_json_end_object(w);
            }
            CA_VEC_FREE(plus);
            CA_VEC_FREE(minus);
        }
    }
    CA_VEC_FREE(a);
    CA_VEC_FREE(b);
    if (w) ca_json_end_array(w);
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
        family_changes(NULL, &w, old, new_);
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
        family_changes(&sb, NULL, old, new_);
    }
    return report_emit(out, &sb);
}
