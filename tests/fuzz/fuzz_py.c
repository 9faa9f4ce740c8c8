/*
 * fuzz_py.c — libFuzzer target: arbitrary bytes through the whole analysis
 * of one Python file, the way scan.c's lower_one + analyse_file drive it.
 *
 * bytes → bracket-depth pre-check (the Python guard: tree-sitter 0.20.7 crashes on
 * ~65k unclosed brackets, so such input never reaches the parser) → py_lower
 * → ir_encode → ir_decode (what a scan's worker process sends back,
 * scan/contain.c; the decoded module must encode to the same bytes again)
 * → eng_summarize for every function → eng_analyze with a module-local
 * resolver → rules_run (strict, every rule) → the backend families of the
 * module's classes (bases resolved by name within it) → the coverage
 * matrix, one grid per family or the older rule without one → every
 * reporter (text, JSON, SARIF, github) into /dev/null, so the escaping of
 * names taken from hostile source runs too.
 *
 * The prefilter is skipped on purpose: inputs without "async" still reach
 * the parser and the lowering, which is where the bugs would be.
 *
 * The same file links into two programs: fuzz_py (clang, -fsanitize=fuzzer,
 * built with -DCA_FUZZ=ON, see docs/reliability.md) and fuzz_replay
 * (tests/fuzz/replay.c, any compiler, every build) which runs the kept
 * regression inputs through LLVMFuzzerTestOneInput.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "coverage/family.h"
#include "coverage/matrix.h"
#include "model/model.h"
#include "frontend/python/py_frontend.h"
#include "frontend/python/py_precheck.h"
#include "report/report.h"
#include "rules/rules.h"
#include "scan/scan.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static py_frontend *fuzz_fe;
static const ca_catalog *fuzz_cat;
static FILE *fuzz_sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char *err = NULL;
    const ca_catalog *cat = ca_catalog_builtin(&err);
    if (!cat) {
        fprintf(stderr, "fuzz_py: built-in catalog: %s\n", err ? err : "?");
        abort();
    }
    fuzz_fe = py_frontend_new(cat);
    fuzz_cat = cat;
    fuzz_sink = fopen("/dev/null", "w");
    if (!fuzz_sink) abort();
    return 0;
}

/* What the resolver needs: the module's functions and their summaries,
 * indexed by ir_func.id. */
typedef struct fuzz_mod {
    eng_summary *sums;
} fuzz_mod;

static const char *last_part(const char *s)
{
    const char *p = strrchr(s, '.');
    return p ? p + 1 : s;
}

/* scan.c's resolve() restricted to one module: self.m() within the class,
 * else a module-level function of that name. */
static const ir_func *fuzz_resolve(void *ctx, const ir_module *m, const ir_func *caller, const ir_node *call,
                                   const eng_summary **summary, int *off)
{
    fuzz_mod *fm = ctx;
    *off = 0;
    if (!call->text) return NULL;
    const char *name = last_part(call->text);
    for (int i = 0; i < m->nfuncs; i++) {
        const ir_func *f = m->funcs[i];
        if (call->flags & CALL_ON_SELF) {
            if (f->class_name && caller->class_name && strcmp(f->class_name, caller->class_name) == 0 &&
                strcmp(f->name, name) == 0 && f->is_method) {
                *off = 1;
                *summary = &fm->sums[f->id];
                return f;
            }
        } else if (!f->class_name && strcmp(f->qualname, name) == 0) {
            *summary = &fm->sums[f->id];
            return f;
        }
    }
    return NULL;
}

static void report_all(const ca_results *r)
{
    report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.cwd = "/fuzz";
    ro.show_suppressed = 1;
    report_text(fuzz_sink, r, &ro);
    report_json(fuzz_sink, r, &ro);
    report_github(fuzz_sink, r, &ro);
    /* SARIF writes every rule doc each time; without a finding or a
     * diagnostic there is nothing from the input in it, only lost speed. */
    if (r->nfindings || r->files[0].diagnostic) report_sarif(fuzz_sink, r, &ro);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fuzz_fe) LLVMFuzzerInitialize(NULL, NULL);
    /* py_lower takes (pointer, length) and need not see a NUL; a copy gives
     * ASan exact bounds to check it against. */
    char *src = malloc(size ? size : 1);
    if (!src) return 0;
    if (size) memcpy(src, data, size);
    if (py_bracket_depth(src, size, PY_MAX_BRACKET_DEPTH) > PY_MAX_BRACKET_DEPTH) {
        free(src);
        return 0;
    }

    ir_module m;
    memset(&m, 0, sizeof m);
    const char *path = "fuzz/<in\"put>.py";
    if (py_lower(fuzz_fe, path, src, size, &m) != 0) {
        ir_module_free(&m);
        free(src);
        return 0;
    }
    /* the scan analyses the module as its worker sent it */
    {
        ca_sb enc = {0}, again = {0};
        ir_encode(&m, &enc);
        ir_module back;
        if (ir_decode(enc.buf, enc.len, &back) != 0) {
            fprintf(stderr, "fuzz_py: ir_decode refused what ir_encode wrote (%zu bytes)\n", enc.len);
            abort();
        }
        ir_encode(&back, &again);
        if (again.len != enc.len || memcmp(again.buf, enc.buf, enc.len) != 0) {
            fprintf(stderr, "fuzz_py: the decoded module encodes differently\n");
            abort();
        }
        ca_sb_release(&enc);
        ca_sb_release(&again);
        m.src = NULL;
        ir_module_free(&m);
        m = back;
    }

    int n = m.nfuncs;
    fuzz_mod fm;
    fm.sums = calloc((size_t)n + 1, sizeof(eng_summary));
    ca_matrix_fn *mf = calloc((size_t)n + 1, sizeof(ca_matrix_fn));
    int **callees = calloc((size_t)n + 1, sizeof(int *));
    if (!fm.sums || !mf || !callees) abort();
    for (int i = 0; i < n; i++) {
        m.funcs[i]->id = i;
        eng_summarize(m.funcs[i], &fm.sums[i]);
    }

    eng_resolver res = {&fm, fuzz_resolve, NULL};
    rule_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.m = &m;
    rc.path = path;
    rc.backend = "fuzz";
    rc.cat = fuzz_cat;
    rc.strict = 1;
    for (int i = 0; i < n; i++) {
        ir_func *f = m.funcs[i];
        eng_result er;
        memset(&er, 0, sizeof er);
        rules_run(&rc, f, &res, &er);
        /* Two backends (class methods vs module functions) so the matrix
         * has boundaries to compare. */
        mf[i].backend = f->class_name ? "classes" : "module";
        mf[i].class_name = f->class_name;
        mf[i].name = f->name;
        mf[i].qualname = f->qualname;
        mf[i].path = path;
        mf[i].line = f->site.line;
        mf[i].is_async = f->is_async;
        mf[i].protections = er.protections;
        mf[i].had_window = er.had_window;
        if (er.ncallees) {
            callees[i] = calloc((size_t)er.ncallees, sizeof(int));
            if (!callees[i]) abort();
            for (int k = 0; k < er.ncallees; k++) callees[i][k] = er.callees[k]->id;
            mf[i].callees = callees[i];
            mf[i].ncallees = er.ncallees;
        }
        eng_result_free(&er);
    }

    ca_results r;
    memset(&r, 0, sizeof r);
    r.findings = rc.out;
    r.nfindings = rc.nout;
    r.files = calloc(1, sizeof(ca_file_rec));
    if (!r.files) abort();
    r.nfiles = 1;
    r.files[0].path = ca_xstrdup(path);
    r.files[0].status = CA_FILE_ANALYZED;
    r.files[0].parse_errors = m.parse_errors;
    if (m.diagnostic) r.files[0].diagnostic = ca_xstrdup(m.diagnostic);
    r.files[0].language = ca_xstrdup("python");
    r.scan.files_scanned = 1;

    /* the families of the module's classes, by name within it */
    int nc = m.nclasses;
    ca_fam_class *fc = calloc((size_t)nc + 1, sizeof(ca_fam_class));
    int **bases = calloc((size_t)nc + 1, sizeof(int *));
    ca_fam_method *fmeth = calloc((size_t)n + 1, sizeof(ca_fam_method));
    if (!fc || !bases || !fmeth) abort();
    for (int k = 0; k < nc; k++) {
        const ir_class *c = m.classes[k];
        fc[k].name = c->name;
        fc[k].qualname = c->qualname;
        fc[k].path = k % 2 ? path : "fuzz/other.py";
        fc[k].line = c->site.line;
        fc[k].flags = c->flags;
        fc[k].dir_name = k % 3 ? "fuzz" : "";
        bases[k] = calloc((size_t)c->nbases + 1, sizeof(int));
        if (!bases[k]) abort();
        for (int b = 0; b < c->nbases; b++) {
            int hit = -1;
            for (int q = 0; q < nc && hit < 0; q++)
                if (strcmp(m.classes[q]->name, last_part(c->bases[b])) == 0) hit = q;
            if (hit >= 0) bases[k][fc[k].nbases++] = hit; /* a cycle of names too: the walks must bear it */
            else fc[k].library_base = 1;
        }
        fc[k].bases = bases[k];
    }
    size_t nmeth = 0;
    for (int i = 0; i < n; i++) {
        const ir_func *f = m.funcs[i];
        int cls = -1;
        for (int k = 0; k < nc && cls < 0; k++)
            if (f->class_name && strcmp(m.classes[k]->qualname, f->class_name) == 0) cls = k;
        if (cls < 0) continue;
        fmeth[nmeth].cls = cls;
        fmeth[nmeth].name = f->name;
        fmeth[nmeth].is_async = f->is_async;
        fmeth[nmeth].fflags = f->fflags | (ca_family_delegates(f) ? FN_DELEGATES : 0);
        fmeth[nmeth].id = i;
        nmeth++;
    }
    ca_fam_set fams;
    ca_families_find(fc, (size_t)nc, fmeth, nmeth, size % 2, &fams);
    (void)ca_families_digest(fc, (size_t)nc, fmeth, nmeth, size % 2);
    ca_matrix_family *grids = calloc(fams.n + 1, sizeof(ca_matrix_family));
    if (!grids) abort();
    for (size_t i = 0; i < fams.n; i++) {
        const ca_fam *f = &fams.v[i];
        const char **names = calloc(f->nbackends + 1, sizeof(char *));
        if (!names) abort();
        for (size_t b = 0; b < f->nbackends; b++) {
            names[b] = f->members[b].backend;
            (void)ca_families_owner(&fams, fc, (size_t)nc, f->members[b].cls, path, "fuzz");
        }
        grids[i] = (ca_matrix_family){f->name, names, f->nbackends, (const char *const *)f->boundaries,
                                      f->nboundaries, f->impl, f->inherited};
    }
    ca_matrix_build(mf, (size_t)n, grids, fams.n, "directories", &r);
    for (size_t i = 0; i < fams.n; i++) free((void *)grids[i].backends);
    free(grids);
    ca_fam_set_free(&fams);
    for (int k = 0; k < nc; k++) free(bases[k]);
    free(bases);
    free(fc);
    free(fmeth);
    ca_results_sort(&r);
    report_all(&r);

    ca_results_free(&r);
    for (int i = 0; i < n; i++) free(callees[i]);
    free(callees);
    free(mf);
    free(fm.sums);
    ir_module_free(&m);
    free(src);
    return 0;
}
