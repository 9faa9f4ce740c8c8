/*
 * model.c — lifetime and ordering helpers for the scan results (model.h).
 *
 * The folder: model/ is what a scan produces and every later stage reads:
 * findings, files, functions, coverage cells (model.h), and the encoded
 * per-function facts and cross-file dependencies the store keeps for
 * incremental rescans (cache.c).
 */
#include "model/model.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

const char ca_version[] = "0.1.0";
#ifndef CA_PARSER_VERSION
#define CA_PARSER_VERSION "tree-sitter-python (version not recorded by this build)"
#endif
const char ca_parser_version[] = CA_PARSER_VERSION;

const char *ca_severity_name(ca_severity s)
{
    switch (s) {
    case CA_SEV_ERROR: return "error";
    case CA_SEV_WARNING: return "warning";
    default: return "note";
    }
}

const char *ca_confidence_name(ca_confidence c)
{
    switch (c) {
    case CA_CONF_MEDIUM: return "medium";
    case CA_CONF_LOW: return "low";
    default: return "high";
    }
}

int ca_confidence_parse(const char *s, ca_confidence *out)
{
    static const char *const names[] = {"high", "medium", "low"};
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (ca_confidence)i;
            return 0;
        }
    return -1;
}

const char *ca_file_status_name(ca_file_status s)
{
    switch (s) {
    case CA_FILE_ANALYZED: return "analyzed";
    case CA_FILE_SKIPPED: return "skipped";
    case CA_FILE_CACHED: return "cached";
    default: return "error";
    }
}

static char *dup_or_null(const char *s) { return s ? ca_xstrdup(s) : NULL; }

void ca_finding_free(ca_finding *f)
{
    free(f->rule); free(f->path); free(f->function); free(f->backend);
    free(f->resource); free(f->resource_kind); free(f->message);
    free(f->checkpoint); free(f->fingerprint);
    for (size_t i = 0; i < f->nhandlers; i++) free(f->handlers[i].catches);
    free(f->handlers);
    memset(f, 0, sizeof(*f));
}

void ca_finding_copy(ca_finding *dst, const ca_finding *src)
{
    *dst = *src;
    dst->rule = dup_or_null(src->rule);
    dst->path = dup_or_null(src->path);
    dst->function = dup_or_null(src->function);
    dst->backend = dup_or_null(src->backend);
    dst->resource = dup_or_null(src->resource);
    dst->resource_kind = dup_or_null(src->resource_kind);
    dst->message = dup_or_null(src->message);
    dst->checkpoint = dup_or_null(src->checkpoint);
    dst->fingerprint = dup_or_null(src->fingerprint);
    dst->handlers = NULL;
    if (src->nhandlers) {
        dst->handlers = ca_xcalloc(src->nhandlers, sizeof(ca_handler_ref));
        for (size_t i = 0; i < src->nhandlers; i++) {
            dst->handlers[i] = src->handlers[i];
            dst->handlers[i].catches = dup_or_null(src->handlers[i].catches);
        }
    }
}

void ca_coverage_copy(ca_coverage *dst, const ca_coverage *src)
{
    *dst = *src;
    dst->family = dup_or_null(src->family);
    dst->backend = dup_or_null(src->backend);
    dst->boundary = dup_or_null(src->boundary);
    dst->status = dup_or_null(src->status);
    dst->rules = dup_or_null(src->rules);
    dst->protection = dup_or_null(src->protection);
    dst->path = dup_or_null(src->path);
    dst->function = dup_or_null(src->function);
    dst->lines = dup_or_null(src->lines);
}

void ca_family_free(ca_family *f)
{
    free(f->name); free(f->kind); free(f->base); free(f->path);
    for (size_t i = 0; i < f->nmembers; i++) {
        ca_family_member *m = &f->members[i];
        free(m->backend); free(m->class_name); free(m->path); free(m->role);
    }
    free(f->members);
    memset(f, 0, sizeof(*f));
}

void ca_results_free(ca_results *r)
{
    ca_scan_meta *m = &r->scan;
    free(m->started); free(m->finished); free(m->root); free(m->git_rev);
    free(m->version); free(m->args); free(m->status); free(m->cache_key); free(m->tree_digest);
    free(m->class_digest);
    for (size_t i = 0; i < r->nfiles; i++) {
        ca_file_rec *f = &r->files[i];
        free(f->path); free(f->hash); free(f->diagnostic); free(f->backend); free(f->language);
        free(f->deps);
    }
    free(r->files);
    for (size_t i = 0; i < r->nfunctions; i++) {
        ca_function_rec *f = &r->functions[i];
        free(f->path); free(f->qualname); free(f->name); free(f->class_name); free(f->backend);
        free(f->facts);
    }
    free(r->functions);
    for (size_t i = 0; i < r->nfindings; i++) ca_finding_free(&r->findings[i]);
    free(r->findings);
    for (size_t i = 0; i < r->ndirs; i++) {
        free(r->dirs[i].path);
        free(r->dirs[i].entries);
    }
    free(r->dirs);
    for (size_t i = 0; i < r->ncoverage; i++) {
        ca_coverage *c = &r->coverage[i];
        free(c->family); free(c->backend); free(c->boundary); free(c->status); free(c->rules);
        free(c->protection); free(c->path); free(c->function); free(c->lines);
    }
    free(r->coverage);
    for (size_t i = 0; i < r->nfamilies; i++) ca_family_free(&r->families[i]);
    free(r->families);
    memset(r, 0, sizeof(*r));
}

static int cmp_str(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

static int cmp_finding(const void *pa, const void *pb)
{
    const ca_finding *a = pa, *b = pb;
    int c;
    if ((c = cmp_str(a->path, b->path))) return c;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    if (a->column != b->column) return a->column < b->column ? -1 : 1;
    if ((c = cmp_str(a->rule, b->rule))) return c;
    if ((c = cmp_str(a->function, b->function))) return c;
    return cmp_str(a->resource, b->resource);
}

static int cmp_cov(const void *pa, const void *pb)
{
    const ca_coverage *a = pa, *b = pb;
    int c;
    if ((c = cmp_str(a->family, b->family))) return c;
    if ((c = cmp_str(a->boundary, b->boundary))) return c;
    return cmp_str(a->backend, b->backend);
}

static int cmp_file(const void *pa, const void *pb)
{
    return cmp_str(((const ca_file_rec *)pa)->path, ((const ca_file_rec *)pb)->path);
}

static int cmp_func(const void *pa, const void *pb)
{
    const ca_function_rec *a = pa, *b = pb;
    int c;
    if ((c = cmp_str(a->path, b->path))) return c;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    return cmp_str(a->qualname, b->qualname);
}

/* qsort, after a look whether the array is in order already (results
 * usually are: a merge sort pays n log n comparisons even then). */
static void sort_if_needed(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    const char *p = base;
    for (size_t i = 1; i < n; i++)
        if (cmp(p + (i - 1) * size, p + i * size) > 0) {
            qsort(base, n, size, cmp);
            return;
        }
}

void ca_results_sort(ca_results *r)
{
    if (r->nfindings) sort_if_needed(r->findings, r->nfindings, sizeof(ca_finding), cmp_finding);
    if (r->ncoverage) sort_if_needed(r->coverage, r->ncoverage, sizeof(ca_coverage), cmp_cov);
    if (r->nfiles) sort_if_needed(r->files, r->nfiles, sizeof(ca_file_rec), cmp_file);
    if (r->nfunctions) sort_if_needed(r->functions, r->nfunctions, sizeof(ca_function_rec), cmp_func);
}
