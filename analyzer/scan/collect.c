/*
 * collect.c — the scan's results put together (ca_results, scan.h): the
 * file records and their diagnostics (printed here, in path order), the
 * findings, the function rows with the facts a rescan reuses, the backend
 * families and the coverage matrix; and the early writer, which stores the
 * files and listings on a thread of its own while the matrix is built
 * (ca_scan_opts.sink). Part of the scan driver (scan.c): phase 4.
 *
 * Backends are named here, for every file, function and finding, reused or
 * not (families.c): which backend code belongs to depends on classes in
 * other files, so it is decided once the whole class graph is known.
 */
#include "scan/scan_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/matrix.h"

size_t scan_job_by_path(const scan_state *S, const char *path)
{
    size_t lo = 0, hi = S->njobs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(S->jobs[mid].df->path, path) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < S->njobs && strcmp(S->jobs[lo].df->path, path) == 0 ? lo : SIZE_MAX;
}

/* A reused function's callees, from its facts, as indices into S->fns. */
static void reused_callees(scan_state *S, fn_ref *r)
{
    const ca_facts *fa = &S->jobs[r->file].facts[r->ordinal];
    if (!fa->ncallees) return;
    r->callees = ca_xmalloc(sizeof(int) * (size_t)fa->ncallees);
    for (int k = 0; k < fa->ncallees; k++) {
        size_t fi = fa->callee_path[k] ? scan_job_by_path(S, fa->callee_path[k]) : (size_t)r->file;
        if (fi == SIZE_MAX || fa->callee_ordinal[k] >= S->jobs[fi].m.nfuncs) continue;
        r->callees[r->ncallees++] = S->jobs[fi].m.funcs[fa->callee_ordinal[k]]->id;
    }
}

char *scan_encode_facts(const scan_state *S, const fn_ref *r)
{
    ca_facts fa;
    memset(&fa, 0, sizeof(fa));
    fa.sum = r->sum;
    fa.is_method = r->f->is_method;
    fa.protections = r->protections;
    fa.had_window = r->had_window;
    fa.nparams = r->f->nparams;
    const char **params = ca_xmalloc(sizeof(char *) * ((size_t)fa.nparams + 1));
    fa.varargs = -1;
    fa.fflags = r->f->fflags;
    fa.ret_type = r->f->ret_type;
    for (int q = 0; q < fa.nparams; q++) {
        params[q] = r->f->vars[q].name;
        if (r->f->vars[q].flags & VAR_VARARGS) fa.varargs = q;
    }
    fa.params = params;
    fa.ncallees = r->ncallees;
    fa.callee_ordinal = ca_xmalloc(sizeof(int) * ((size_t)r->ncallees + 1));
    fa.callee_path = ca_xmalloc(sizeof(char *) * ((size_t)r->ncallees + 1));
    for (int k = 0; k < r->ncallees; k++) {
        const fn_ref *c = &S->fns[r->callees[k]];
        fa.callee_ordinal[k] = c->ordinal;
        fa.callee_path[k] = c->file == r->file ? NULL : S->jobs[c->file].df->path;
    }
    char *s = ca_facts_encode(&fa);
    free(params);
    free(fa.callee_ordinal);
    free(fa.callee_path);
    return s;
}

/* The sink's early part: what scan_collect() has settled (files, listings) is
 * written while the rest of the results is put together. */
static void *write_parts(void *arg)
{
    scan_state *S = arg;
    char *err = NULL;
    S->writer_rc = store_write_parts(S->o->sink, S->o->sink_scan, S->out->files, S->out->nfiles, S->out->dirs,
                                     S->out->ndirs, &err);
    free(err); /* the caller's full write says it again */
    return NULL;
}

/* Replace *slot (heap) with a copy of name. */
static void set_backend(char **slot, const char *name)
{
    if (*slot && strcmp(*slot, name) == 0) return;
    free(*slot);
    *slot = ca_xstrdup(name);
}

void scan_collect(scan_state *S, ca_results *out)
{
    scan_families F;
    scan_families_build(S, &F);
    out->files = ca_xcalloc(S->njobs + 1, sizeof(ca_file_rec));
    size_t nfind = 0;
    for (size_t i = 0; i < S->njobs; i++)
        nfind += S->jobs[i].reused ? S->jobs[i].nbase_finds : S->jobs[i].nfindings;
    out->findings = ca_xcalloc(nfind + 1, sizeof(ca_finding));
    out->functions = ca_xcalloc(S->nfns + 1, sizeof(ca_function_rec));
    for (size_t i = 0; i < S->njobs; i++) {
        file_job *j = &S->jobs[i];
        ca_finding *fs = j->reused ? j->base_finds : j->findings;
        size_t nf = j->reused ? j->nbase_finds : j->nfindings;
        for (size_t k = 0; k < nf; k++)
            set_backend(&fs[k].backend,
                        scan_families_owner(S, &F, scan_families_class_of(S, (int)i, fs[k].function, NULL), (int)i));
        if (j->rec.backend) set_backend(&j->rec.backend, scan_families_owner(S, &F, -1, (int)i));
        out->files[out->nfiles++] = j->rec;
        memset(&j->rec, 0, sizeof(j->rec));
        ca_file_rec *r = &out->files[out->nfiles - 1];
        if (r->diagnostic) scan_diag(S, r->path, r->diagnostic);
        switch (r->status) {
        case CA_FILE_ANALYZED:
        case CA_FILE_CACHED: out->scan.files_scanned++; break;
        case CA_FILE_SKIPPED: out->scan.files_skipped++; break;
        default: out->scan.errors++; break;
        }
        if (j->reused) {
            /* the baseline is applied afresh by the caller */
            for (size_t k = 0; k < j->nbase_finds; k++) {
                ca_finding *f = &out->findings[out->nfindings++];
                *f = j->base_finds[k];
                f->baselined = 0;
                memset(&j->base_finds[k], 0, sizeof(ca_finding));
            }
        } else {
            for (size_t k = 0; k < j->nfindings; k++) out->findings[out->nfindings++] = j->findings[k];
        }
        free(j->findings);
        j->findings = NULL;
    }
    /* files and listings are settled: from here on only read */
    scan_collect_dirs(S, out);
    if (S->o->sink) {
        S->out = out;
        S->writing = pthread_create(&S->writer, NULL, write_parts, S) == 0;
    }
    for (size_t i = 0; i < S->nfns; i++)
        if (S->jobs[S->fns[i].file].reused) reused_callees(S, &S->fns[i]);
    ca_matrix_fn *mf = ca_xcalloc(S->nfns + 1, sizeof(ca_matrix_fn));
    for (size_t i = 0; i < S->nfns; i++) {
        fn_ref *r = &S->fns[i];
        const file_job *j = &S->jobs[r->file];
        const ca_file_rec *fi = &out->files[r->file];
        ca_function_rec *fr = &out->functions[out->nfunctions++];
        fr->path = ca_xstrdup(fi->path);
        fr->qualname = ca_xstrdup(r->f->qualname);
        fr->name = ca_xstrdup(r->f->name);
        fr->class_name = r->f->class_name ? ca_xstrdup(r->f->class_name) : NULL;
        fr->line = r->f->site.line;
        fr->end_line = r->f->site.end_line;
        fr->is_async = r->f->is_async;
        fr->backend = ca_xstrdup(scan_families_owner(S, &F, F.fn_class[i], r->file));
        fr->ordinal = r->ordinal;
        fr->facts = NULL;
        if (j->reused) {
            const ca_facts *fa = &j->facts[r->ordinal];
            r->protections = fa->protections;
            r->had_window = fa->had_window;
        }
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
    for (size_t i = 0; i < S->nfns; i++) {
        out->functions[i].facts = S->fns[i].facts ? S->fns[i].facts : scan_encode_facts(S, &S->fns[i]);
        S->fns[i].facts = NULL;
    }
    free(out->scan.tree_digest);
    out->scan.tree_digest = scan_recorded_tree_digest(S, out->files); /* files are in job order still */
    /* one order for the matrix's evidence, whether findings were reused or
     * not; files are in path order already, and the early writer reads them */
    ca_results rest = {0};
    rest.findings = out->findings;
    rest.nfindings = out->nfindings;
    rest.functions = out->functions;
    rest.nfunctions = out->nfunctions;
    ca_results_sort(&rest);
    const char *fallback = F.configured ? "configured" : "directories";
    ca_matrix_family *grids;
    size_t ngrids;
    scan_families_grids(&F, &grids, &ngrids);
    ca_matrix_build(mf, S->nfns, grids, ngrids, fallback, out);
    scan_families_grids_free(grids, ngrids);
    free(mf);
    scan_families_results(&F, fallback, out);
    free(out->scan.class_digest);
    out->scan.class_digest = F.digest;
    F.digest = NULL;
    scan_families_free(&F);
    /* the rest is in order already */
    ca_results cells = {0};
    cells.coverage = out->coverage;
    cells.ncoverage = out->ncoverage;
    ca_results_sort(&cells);
}
