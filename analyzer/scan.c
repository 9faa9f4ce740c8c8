/*
 * scan.c — the pipeline driver (scan.h).
 *
 * Phase 1 (parallel): read, prefilter, depth pre-scan, parse and lower each
 * file; the tree is freed inside py_lower, the source right after.
 * Phase 2: summaries of every function and the name index for calls.
 * Phase 3 (parallel): the engine and the rules per function.
 * Phase 4: the coverage matrix.
 * Output order does not depend on the number of workers: results are kept
 * per file and sorted at the end.
 */
#include "scan.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "discover.h"
#include "engine.h"
#include "matrix.h"
#include "py_frontend.h"
#include "rules.h"

typedef struct file_job {
    ca_disc_file *df;
    ca_file_rec rec;
    ir_module m;
    int lowered;
    /* phase 3 output */
    ca_finding *findings;
    size_t nfindings;
} file_job;

typedef struct fn_ref {
    int file;
    ir_func *f;
    eng_summary sum;
    unsigned protections;
    int had_window;
    int *callees;
    int ncallees;
} fn_ref;

typedef struct scan_state {
    const ca_scan_opts *o;
    file_job *jobs;
    size_t njobs;
    atomic_size_t next;
    atomic_size_t done;
    fn_ref *fns;
    size_t nfns;
    /* module-level functions sorted by name for cross-file calls */
    size_t *by_name;
    size_t nby_name;
    ca_backend_cache *backends;
    pthread_mutex_t err_lock;
    double t0;
} scan_state;

static void diag(scan_state *S, const char *path, const char *msg)
{
    if (S->o->quiet) return;
    pthread_mutex_lock(&S->err_lock);
    if (S->o->progress) fputs("\r\033[K", stderr);
    fprintf(stderr, "cancelaudit: %s: %s\n", path, msg);
    pthread_mutex_unlock(&S->err_lock);
}

static void progress(scan_state *S)
{
    if (!S->o->progress) return;
    size_t d = atomic_load(&S->done), n = S->njobs;
    if (d % 16 != 0 && d != n) return;
    double el = ca_now_monotonic() - S->t0;
    double rate = el > 0 ? (double)d / el : 0;
    double eta = rate > 0 ? (double)(n - d) / rate : 0;
    pthread_mutex_lock(&S->err_lock);
    fprintf(stderr, "\r\033[K[%zu/%zu] files, %.0f files/s, ETA %.0fs", d, n, rate, eta);
    pthread_mutex_unlock(&S->err_lock);
}

static void lower_one(scan_state *S, py_frontend *fe, file_job *j)
{
    ca_disc_file *df = j->df;
    ca_file_rec *r = &j->rec;
    r->path = ca_xstrdup(df->path);
    r->size = df->size;
    r->mtime_ns = df->mtime_ns;
    r->language = ca_xstrdup(df->language ? df->language : "python");
    r->backend = ca_backend_name(S->backends, df->path);
    if (df->diagnostic || !df->language) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = ca_xstrdup(df->diagnostic ? df->diagnostic : "not a file");
        diag(S, df->path, r->diagnostic);
        return;
    }
    if (strcmp(df->language, "python") != 0) {
        r->status = CA_FILE_SKIPPED;
        return;
    }
    char *src = NULL;
    size_t len = 0;
    int e = ca_read_file(df->path, &src, &len);
    if (e) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = e == EINVAL ? ca_xstrdup("not a regular file") : ca_xasprintf("cannot read: %s", strerror(e));
        diag(S, df->path, r->diagnostic);
        return;
    }
    char hex[17];
    ca_hash_hex(ca_hash64(src, len, CA_HASH_SEED), hex);
    r->hash = ca_xstrdup(hex);
    r->size = (int64_t)len;
    if (S->o->max_size > 0 && (int64_t)len > S->o->max_size) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = ca_xasprintf("file too large (%zu bytes > limit %lld)", len, (long long)S->o->max_size);
        diag(S, df->path, r->diagnostic);
        free(src);
        return;
    }
    if (!ca_prefilter_async(src, len)) {
        r->status = CA_FILE_SKIPPED;
        free(src);
        return;
    }
    int depth = ca_bracket_depth(src, len, CA_MAX_BRACKET_DEPTH);
    if (depth > CA_MAX_BRACKET_DEPTH) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = ca_xasprintf("brackets nested deeper than %d levels; not parsed", CA_MAX_BRACKET_DEPTH);
        diag(S, df->path, r->diagnostic);
        free(src);
        return;
    }
    double t = ca_now_monotonic();
    int rc = py_lower(fe, df->path, src, len, &j->m);
    r->parse_ms = (ca_now_monotonic() - t) * 1000.0;
    j->m.src = NULL;
    free(src);
    r->parse_errors = j->m.parse_errors;
    if (rc != 0) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = ca_xstrdup(j->m.diagnostic ? j->m.diagnostic : "could not be parsed");
        diag(S, df->path, r->diagnostic);
        return;
    }
    r->status = CA_FILE_ANALYZED;
    j->lowered = 1;
    if (j->m.parse_errors) {
        char *msg = ca_xasprintf("syntax error at line %d (%d error node%s); analysed where it parsed%s%s",
                                 j->m.first_error_line, j->m.parse_errors, j->m.parse_errors == 1 ? "" : "s",
                                 j->m.diagnostic ? "; " : "", j->m.diagnostic ? j->m.diagnostic : "");
        r->diagnostic = msg;
        diag(S, df->path, msg);
    } else if (j->m.diagnostic) {
        r->diagnostic = ca_xstrdup(j->m.diagnostic);
        diag(S, df->path, r->diagnostic);
    }
}

static void *phase1(void *arg)
{
    scan_state *S = arg;
    py_frontend *fe = py_frontend_new(S->o->cat);
    for (;;) {
        size_t i = atomic_fetch_add(&S->next, 1);
        if (i >= S->njobs) break;
        lower_one(S, fe, &S->jobs[i]);
        atomic_fetch_add(&S->done, 1);
        progress(S);
    }
    py_frontend_free(fe);
    return NULL;
}

/* ------------------------------------------------------------------------ */

static const char *last_part(const char *s)
{
    const char *p = strrchr(s, '.');
    return p ? p + 1 : s;
}

static int cmp_by_name(const void *a, const void *b, void *ctx);

static scan_state *sort_ctx;
static int cmp_idx(const void *a, const void *b)
{
    return cmp_by_name(a, b, sort_ctx);
}

static int cmp_by_name(const void *a, const void *b, void *ctx)
{
    scan_state *S = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(S->fns[x].f->name, S->fns[y].f->name);
    if (c) return c;
    return x < y ? -1 : x > y;
}

static const ir_func *resolve(void *ctx, const ir_module *m, const ir_func *caller, const ir_node *call,
                              const eng_summary **summary, int *off)
{
    scan_state *S = ctx;
    *off = 0;
    if (!call->text) return NULL;
    const char *name = last_part(call->text);
    if (call->flags & CALL_ON_SELF) {
        for (int i = 0; i < m->nfuncs; i++) {
            const ir_func *f = m->funcs[i];
            if (f->class_name && caller->class_name && strcmp(f->class_name, caller->class_name) == 0 &&
                strcmp(f->name, name) == 0 && f->is_method) {
                *off = 1;
                *summary = &S->fns[f->id].sum;
                return f;
            }
        }
        return NULL;
    }
    /* a module-level function in the same module, else a unique one anywhere */
    for (int i = 0; i < m->nfuncs; i++) {
        const ir_func *f = m->funcs[i];
        if (!f->class_name && strcmp(f->qualname, name) == 0) {
            *summary = &S->fns[f->id].sum;
            return f;
        }
    }
    size_t lo = 0, hi = S->nby_name;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(S->fns[S->by_name[mid]].f->name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo < S->nby_name && strcmp(S->fns[S->by_name[lo]].f->name, name) == 0 &&
        (lo + 1 >= S->nby_name || strcmp(S->fns[S->by_name[lo + 1]].f->name, name) != 0)) {
        fn_ref *r = &S->fns[S->by_name[lo]];
        *summary = &r->sum;
        return r->f;
    }
    return NULL;
}

static void analyse_file(scan_state *S, size_t fi)
{
    file_job *j = &S->jobs[fi];
    if (!j->lowered) return;
    eng_resolver res = {S, resolve};
    rule_ctx rc;
    memset(&rc, 0, sizeof(rc));
    rc.m = &j->m;
    rc.path = j->rec.path;
    rc.backend = j->rec.backend;
    rc.select = S->o->select;
    rc.ignore = S->o->ignore;
    rc.strict = S->o->strict;
    for (int i = 0; i < j->m.nfuncs; i++) {
        ir_func *f = j->m.funcs[i];
        eng_result er;
        memset(&er, 0, sizeof(er));
        eng_analyze(&j->m, f, &res, &er);
        rc.f = f;
        rc.res = &er;
        rules_run(&rc);
        fn_ref *fr = &S->fns[f->id];
        fr->protections = er.protections;
        fr->had_window = er.had_window;
        if (er.ncallees) {
            fr->callees = ca_xmalloc(sizeof(int) * (size_t)er.ncallees);
            for (int k = 0; k < er.ncallees; k++) fr->callees[k] = er.callees[k]->id;
            fr->ncallees = er.ncallees;
        }
        eng_result_free(&er);
    }
    j->findings = rc.out;
    j->nfindings = rc.nout;
}

static void *phase3(void *arg)
{
    scan_state *S = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&S->next, 1);
        if (i >= S->njobs) break;
        analyse_file(S, i);
    }
    return NULL;
}

static void run_pool(scan_state *S, void *(*fn)(void *))
{
    int n = S->o->jobs > 0 ? S->o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if ((size_t)n > S->njobs) n = S->njobs ? (int)S->njobs : 1;
    atomic_store(&S->next, 0);
    if (n == 1) {
        fn(S);
        return;
    }
    pthread_t *th = ca_xmalloc(sizeof(pthread_t) * (size_t)n);
    int started = 0;
    for (int i = 0; i < n; i++) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 16u << 20);
        if (pthread_create(&th[i], &attr, fn, S) == 0) started++;
        pthread_attr_destroy(&attr);
    }
    if (started == 0) fn(S);
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    free(th);
}

int ca_scan_run(const ca_scan_opts *o, ca_results *out, char **err)
{
    ca_discover_opts dopt;
    memset(&dopt, 0, sizeof(dopt));
    dopt.excludes = o->excludes;
    dopt.nexcludes = o->nexcludes;
    dopt.max_size = o->max_size;
    ca_disc_file *files = NULL;
    size_t nfiles = 0;
    int rc = ca_discover(o->paths, o->npaths, &dopt, &files, &nfiles, err);
    if (rc != 0) return 2;

    scan_state *S = ca_xcalloc(1, sizeof(*S));
    S->o = o;
    S->njobs = nfiles;
    S->jobs = ca_xcalloc(nfiles + 1, sizeof(file_job));
    S->backends = ca_backend_cache_new(o->maps, o->nmaps);
    pthread_mutex_init(&S->err_lock, NULL);
    S->t0 = ca_now_monotonic();
    for (size_t i = 0; i < nfiles; i++) S->jobs[i].df = &files[i];

    run_pool(S, phase1);
    if (o->progress) fputs("\r\033[K", stderr);

    /* phase 2: index and summaries */
    size_t nf = 0;
    for (size_t i = 0; i < nfiles; i++) nf += (size_t)S->jobs[i].m.nfuncs;
    S->fns = ca_xcalloc(nf + 1, sizeof(fn_ref));
    S->by_name = ca_xmalloc(sizeof(size_t) * (nf + 1));
    for (size_t i = 0; i < nfiles; i++)
        for (int k = 0; k < S->jobs[i].m.nfuncs; k++) {
            ir_func *f = S->jobs[i].m.funcs[k];
            f->id = (int)S->nfns;
            fn_ref *r = &S->fns[S->nfns++];
            r->file = (int)i;
            r->f = f;
            eng_summarize(f, &r->sum);
            if (!f->class_name && !strstr(f->qualname, "<locals>")) S->by_name[S->nby_name++] = (size_t)f->id;
        }
    sort_ctx = S;
    qsort(S->by_name, S->nby_name, sizeof(size_t), cmp_idx);

    run_pool(S, phase3);

    /* collect */
    out->files = ca_xcalloc(nfiles + 1, sizeof(ca_file_rec));
    size_t nfind = 0;
    for (size_t i = 0; i < nfiles; i++) nfind += S->jobs[i].nfindings;
    out->findings = ca_xcalloc(nfind + 1, sizeof(ca_finding));
    out->functions = ca_xcalloc(S->nfns + 1, sizeof(ca_function_rec));
    for (size_t i = 0; i < nfiles; i++) {
        file_job *j = &S->jobs[i];
        out->files[out->nfiles++] = j->rec;
        switch (j->rec.status) {
        case CA_FILE_ANALYZED:
        case CA_FILE_CACHED: out->scan.files_scanned++; break;
        case CA_FILE_SKIPPED: out->scan.files_skipped++; break;
        default: out->scan.errors++; break;
        }
        for (size_t k = 0; k < j->nfindings; k++) out->findings[out->nfindings++] = j->findings[k];
        free(j->findings);
    }
    ca_matrix_fn *mf = ca_xcalloc(S->nfns + 1, sizeof(ca_matrix_fn));
    for (size_t i = 0; i < S->nfns; i++) {
        fn_ref *r = &S->fns[i];
        file_job *j = &S->jobs[r->file];
        ca_function_rec *fr = &out->functions[out->nfunctions++];
        fr->path = ca_xstrdup(j->rec.path);
        fr->qualname = ca_xstrdup(r->f->qualname);
        fr->name = ca_xstrdup(r->f->name);
        fr->class_name = r->f->class_name ? ca_xstrdup(r->f->class_name) : NULL;
        fr->line = r->f->site.line;
        fr->end_line = r->f->site.end_line;
        fr->is_async = r->f->is_async;
        fr->backend = ca_xstrdup(j->rec.backend);
        mf[i].backend = fr->backend;
        mf[i].class_name = fr->class_name;
        mf[i].name = fr->name;
        mf[i].qualname = fr->qualname;
        mf[i].path = fr->path;
        mf[i].line = fr->line;
        mf[i].is_async = fr->is_async;
        mf[i].protections = r->protections;
        mf[i].had_window = r->had_window;
        mf[i].callees = r->callees;
        mf[i].ncallees = r->ncallees;
    }
    ca_matrix_build(mf, S->nfns, out);
    free(mf);
    for (size_t i = 0; i < S->nfns; i++) free(S->fns[i].callees);
    for (size_t i = 0; i < nfiles; i++) ir_module_free(&S->jobs[i].m);
    free(S->fns);
    free(S->by_name);
    free(S->jobs);
    ca_backend_cache_free(S->backends);
    pthread_mutex_destroy(&S->err_lock);
    free(S);
    ca_disc_files_free(files, nfiles);
    ca_results_sort(out);
    return 0;
}
