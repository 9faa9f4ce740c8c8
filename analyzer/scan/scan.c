/*
 * scan.c — the pipeline driver (scan.h): the phases of a scan over a pool
 * of worker threads, and its progress line.
 *
 * The folder: scan/ runs discover → parse → lower → summaries → rules →
 * matrix for one scan. This file holds the phases and the calls into the
 * languages (frontend/lang.h), the engine and the rules; link.c is the
 * cross-file linker (function table, resolve, deps digest); reuse.c what a
 * rescan takes from the base scan (per-file reuse, directory listings, the
 * tree digest); collect.c puts the results together and writes the first
 * part early; contain.c lowers files in worker processes; scan_internal.h
 * is what they share.
 *
 * Phase 1 (parallel): per file, reuse its results from the base scan
 * (reuse.c) or read it once and hand the bytes to its language's hooks
 * (gate, prefilter, guard, lower); lower runs in a worker process
 * (contain.h), so a parser that crashes, runs away or eats the memory
 * costs its file a diagnostic and nothing else; the module comes back
 * encoded, the source is freed, and the summaries are built here. A file
 * whose language's gate is still undecided (C: does any C file name
 * pthread_cancel?) waits with its bytes until every file has been read,
 * then is lowered or recorded skipped.
 * Phase 2: the function table and the name index for cross-file calls
 * (link.c); reused files are checked against it (reuse.c); then the
 * summaries that go through calls, for the languages that need them.
 * Phase 3 (parallel): the engine and the rules per function of every
 * lowered file.
 * Phase 4: the coverage matrix, from the facts of every function
 * (collect.c).
 * Output does not depend on the number of workers: results are kept per
 * file, in discovery order (workers take the largest files first, which
 * only changes when a file is done), per-file diagnostics are printed in
 * path order once the files are done, and everything is sorted at the end.
 * Before phase 1 a rescan may find that nothing changed and take the
 * base's results whole (reuse.c); after phase 4 the working state is
 * freed on a thread of its own (release) when the caller asked for that.
 */
#include "scan/scan_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/rules.h"

/* Files waiting for their language's gate keep their bytes up to this much
 * in all, so that a file is read once; one past it is read again if the
 * gate opens (a large tree in which the opening file comes late). */
#ifndef CA_PARK_BUDGET
#define CA_PARK_BUDGET ((size_t)64 << 20)
#endif

/* A path as one visible line: control bytes, DEL and invalid UTF-8 are
 * shown as escapes, so a file name cannot split a diagnostic or drive the
 * terminal. */
static void add_visible(ca_sb *sb, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; p[i];) {
        unsigned c = p[i];
        if (c == '\n') { ca_sb_adds(sb, "\\n"); i++; continue; }
        if (c == '\r') { ca_sb_adds(sb, "\\r"); i++; continue; }
        if (c == '\t') { ca_sb_adds(sb, "\\t"); i++; continue; }
        if (c < 0x20 || c == 0x7f) { ca_sb_addf(sb, "\\x%02x", c); i++; continue; }
        if (c < 0x80) { ca_sb_addc(sb, (char)c); i++; continue; }
        size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
        size_t j = 1;
        while (k && j < k && (p[i + j] & 0xC0) == 0x80) j++;
        if (!k || j != k) { ca_sb_addf(sb, "\\x%02x", c); i++; continue; }
        unsigned cp = k == 2 ? ((c & 0x1F) << 6) | (p[i + 1] & 0x3F)
                    : k == 3 ? ((c & 0x0F) << 12) | ((p[i + 1] & 0x3F) << 6) | (p[i + 2] & 0x3F)
                             : 0;
        if ((cp >= 0x80 && cp < 0xA0) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
            ca_sb_addf(sb, "\\u%04x", cp);
        else
            ca_sb_add(sb, s + i, k);
        i += k;
    }
}

void scan_diag(scan_state *S, const char *path, const char *msg)
{
    if (S->o->quiet) return;
    ca_sb sb = {0};
    ca_sb_adds(&sb, "cancelaudit: ");
    add_visible(&sb, path);
    ca_sb_adds(&sb, ": ");
    add_visible(&sb, msg);
    ca_sb_addc(&sb, '\n');
    fputs(ca_sb_str(&sb), stderr); /* one write: lines from workers never interleave */
    ca_sb_release(&sb);
}

/* At most ten redraws a second: a terminal that scrolls is slower than a
 * scan. Files go largest first, so the ETA counts bytes, not files. */
static void progress(scan_state *S)
{
    if (!S->o->progress || S->redo) return;
    size_t d = atomic_load(&S->done), n = S->njobs;
    uint64_t db = atomic_load(&S->done_bytes);
    double now = ca_now_monotonic();
    pthread_mutex_lock(&S->err_lock);
    if (d == n || now - S->last_draw >= 0.1) {
        S->last_draw = now;
        double el = now - S->t0;
        double rate = el > 0 ? (double)d / el : 0;
        double eta = db > 0 ? el * (double)(S->total_bytes - db) / (double)db : 0;
        fprintf(stderr, "\r\033[K[%zu/%zu] files, %.0f files/s, ETA %.0fs", d, n, rate, eta);
    }
    pthread_mutex_unlock(&S->err_lock);
}

/* ------------------------------------------------------------------------ */
/* Phase 1.                                                                 */

/* Once per language and scan, before a worker is made for it: the state
 * lowering reads is complete before the first file is lowered. */
static void prepare_lang(scan_state *S, int k)
{
    if (!S->langs[k]->prepare || atomic_load(&S->prepared[k])) return;
    pthread_mutex_lock(&S->lang_lock);
    if (!atomic_load(&S->prepared[k])) {
        S->langs[k]->prepare(S->lang_state[k]);
        atomic_store(&S->prepared[k], 1);
    }
    pthread_mutex_unlock(&S->lang_lock);
}

/* The file's bytes to its language's lowering (in a worker process when
 * the scan has them: a crash there costs this file only), and its
 * summaries: what phase 1 does once a file is known to need it. Takes
 * src. */
static void lower_src(scan_state *S, void **workers, file_job *j, char *src, size_t len)
{
    const ca_lang *L = S->langs[j->lang];
    ca_file_rec *r = &j->rec;
    double t = ca_now_monotonic();
    int rc = S->contain ? scan_contain_lower(S->contain, j->lang, j->df->path, src, len, &j->m) : 1;
    if (rc == 1) { /* no worker process to be had: here, as before containment */
        if (!workers[j->lang]) {
            prepare_lang(S, j->lang);
            workers[j->lang] = L->worker_new(S->lang_state[j->lang]);
        }
        rc = L->lower(workers[j->lang], j->df->path, src, len, &j->m);
    }
    r->parse_ms = (ca_now_monotonic() - t) * 1000.0;
    j->m.src = NULL;
    free(src);
    r->parse_errors = j->m.parse_errors;
    if (rc != 0) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = ca_xstrdup(j->m.diagnostic ? j->m.diagnostic : "could not be parsed");
        return;
    }
    r->status = CA_FILE_ANALYZED;
    j->lowered = 1;
    j->sums = ca_xcalloc((size_t)j->m.nfuncs + 1, sizeof(eng_summary));
    for (int k = 0; k < j->m.nfuncs; k++) {
        eng_summarize(j->m.funcs[k], &j->sums[k]);
        rules_seed_summary(S->o->cat, j->m.funcs[k], &j->sums[k]);
    }
    if (j->m.diagnostic) r->diagnostic = ca_xstrdup(j->m.diagnostic);
}

/* A file that waited for its gate keeps its bytes if the budget allows. */
static void park(scan_state *S, file_job *j, char *src, size_t len)
{
    size_t was = atomic_fetch_add(&S->parked_bytes, len);
    if (was + len <= CA_PARK_BUDGET) {
        j->parked = 1;
        j->src = src;
        j->len = len;
        return;
    }
    atomic_fetch_sub(&S->parked_bytes, len);
    free(src);
    j->parked = 2;
}

/* Fills j->rec (and j->m when the file is lowered). A per-file problem goes
 * into rec.diagnostic; scan_collect() prints them all, in path order, so
 * stderr reads the same for any number of workers. The bytes are read once
 * and handed to the language's hooks: the gate while it is undecided (then
 * the file waits: see gates_decided), the prefilter, the guard, the
 * lowering. */
static void lower_one(scan_state *S, void **workers, file_job *j)
{
    ca_disc_file *df = j->df;
    ca_file_rec *r = &j->rec;
    r->path = ca_xstrdup(df->path);
    r->size = df->size;
    r->mtime_ns = df->mtime_ns;
    r->language = ca_xstrdup(df->language ? df->language : ca_lang_default()->name);
    r->backend = ca_backend_name(S->backends, df->path);
    if (df->diagnostic || !df->language) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = ca_xstrdup(df->diagnostic ? df->diagnostic : "not a file");
        return;
    }
    const ca_lang *L = j->lang >= 0 ? S->langs[j->lang] : NULL;
    int gate = L ? atomic_load(&S->gate[j->lang]) : CA_GATE_CLOSED;
    if (gate == CA_GATE_CLOSED) {
        r->status = CA_FILE_SKIPPED;
        return;
    }
    j->waiting = gate == CA_GATE_ASK;
    /* as git's index does: same size and mtime, and the mtime older than
     * the base scan's start (so not written during it), is the same file */
    if (!j->waiting && !j->forced && j->base && j->base->size == df->size && j->base->mtime_ns == df->mtime_ns &&
        df->mtime_ns < S->base_started_ns - CA_MTIME_SLACK_NS && scan_reuse(j))
        return;
    char *src = NULL;
    size_t len = 0;
    int e = ca_read_file(df->path, &src, &len);
    if (e) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = e == EINVAL ? ca_xstrdup("not a regular file") : ca_xasprintf("cannot read: %s", strerror(e));
        return;
    }
    if (j->waiting && atomic_load(&S->gate[j->lang]) == CA_GATE_ASK &&
        L->gate_feed(S->lang_state[j->lang], src, len))
        atomic_store(&S->gate[j->lang], CA_GATE_OPEN);
    char hex[17];
    ca_hash_hex(ca_content_hash(src, len), hex);
    r->hash = ca_xstrdup(hex);
    r->size = (int64_t)len;
    if (!j->waiting && !j->forced && j->base && j->base->size == (int64_t)len && strcmp(j->base->hash, hex) == 0 &&
        scan_reuse(j)) {
        free(src);
        return;
    }
    int64_t limit = S->o->max_size > 0 ? S->o->max_size : CA_DISCOVER_DEFAULT_MAX_SIZE;
    if ((int64_t)len > limit) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = ca_xasprintf("file too large (%zu bytes > limit %lld)", len, (long long)limit);
        free(src);
        return;
    }
    if (L->prefilter && !j->forced && !L->prefilter(df->path, src, len)) {
        r->status = CA_FILE_SKIPPED;
        free(src);
        return;
    }
    char *refused = L->guard ? L->guard(src, len) : NULL;
    if (refused) {
        r->status = CA_FILE_ERROR;
        r->diagnostic = refused;
        free(src);
        return;
    }
    if (j->waiting) {
        if (atomic_load(&S->gate[j->lang]) != CA_GATE_OPEN) {
            park(S, j, src, len);
            return;
        }
        j->waiting = 0; /* opened meanwhile: what this file is, is settled */
    }
    lower_src(S, workers, j, src, len);
}

/* A file is done with phase 1: the progress line counts it. */
static void job_done(scan_state *S, const file_job *j)
{
    atomic_fetch_add(&S->done_bytes, j->df->size > 0 ? (uint64_t)j->df->size : 0);
    atomic_fetch_add(&S->done, 1);
    progress(S);
}

/* A phase 1 thread's workers, one per language, made when first needed. */
static void workers_free(scan_state *S, void **workers)
{
    for (size_t k = 0; k < S->nlangs; k++)
        if (workers[k]) S->langs[k]->worker_free(workers[k]);
    free(workers);
}

static void *phase1(void *arg)
{
    scan_state *S = arg;
    void **workers = ca_xcalloc(S->nlangs + 1, sizeof(void *));
    for (;;) {
        size_t i = atomic_fetch_add(&S->next, 1);
        if (i >= S->norder) break;
        file_job *j = &S->jobs[S->order[i]];
        lower_one(S, workers, j);
        if (!j->parked) job_done(S, j); /* a parked one once it is lowered */
    }
    workers_free(S, workers);
    return NULL;
}

/* The files that waited for their gate, once every file was read: lowered
 * with the bytes they kept, or read again. */
static void *phase1_waited(void *arg)
{
    scan_state *S = arg;
    void **workers = ca_xcalloc(S->nlangs + 1, sizeof(void *));
    for (;;) {
        size_t i = atomic_fetch_add(&S->next, 1);
        if (i >= S->norder) break;
        file_job *j = &S->jobs[S->order[i]];
        if (j->parked == 1) {
            char *src = j->src;
            j->src = NULL;
            lower_src(S, workers, j, src, j->len);
        } else {
            store_file_rec_free(&j->rec); /* and from the start, now that the gate is open */
            lower_one(S, workers, j);
        }
        j->parked = 0;
        job_done(S, j);
    }
    workers_free(S, workers);
    return NULL;
}

/* Every file has been read: a gate still undecided is closed, and the files
 * that waited for it are recorded as skipped, as if never read. Those that
 * waited for a gate that opened are settled (the order left for
 * phase1_waited: those to lower). */
static void gates_decided(scan_state *S)
{
    for (size_t k = 0; k < S->nlangs; k++)
        if (atomic_load(&S->gate[k]) == CA_GATE_ASK) atomic_store(&S->gate[k], CA_GATE_CLOSED);
    S->norder = 0;
    for (size_t i = 0; i < S->njobs; i++) {
        file_job *j = &S->jobs[i];
        if (!j->waiting) continue;
        j->waiting = 0;
        if (atomic_load(&S->gate[j->lang]) == CA_GATE_OPEN) {
            if (j->parked) S->order[S->norder++] = i;
            continue;
        }
        ca_file_rec *r = &j->rec;
        free(r->hash);
        free(r->diagnostic);
        r->hash = r->diagnostic = NULL;
        r->size = j->df->size;
        r->status = CA_FILE_SKIPPED;
        free(j->src);
        j->src = NULL;
        if (j->parked) {
            j->parked = 0;
            job_done(S, j);
        }
    }
    atomic_store(&S->parked_bytes, 0);
}

/* qsort has no context argument; the order is sorted on one thread. */
static const ca_disc_file *sort_files;

static int cmp_larger_first(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int64_t sx = sort_files[x].size, sy = sort_files[y].size;
    if (sx != sy) return sx > sy ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* What the languages learn from the modules they lowered: whether the
 * rules that need a cancelled thread apply (threads_in_scope), and
 * summaries through calls (call_summaries: a wrapper of a wrapper of
 * sleep() reaches a cancellation point), to a fixed point. */
static void lang_summaries(scan_state *S)
{
    int any = 0;
    S->c_active = 0;
    CA_VEC(const ir_module *) mods = {0};
    for (size_t k = 0; k < S->nlangs; k++) {
        const ca_lang *L = S->langs[k];
        mods.n = 0;
        for (size_t i = 0; i < S->njobs; i++)
            if (S->jobs[i].lowered && S->jobs[i].lang == (int)k) CA_VEC_PUSH(mods, &S->jobs[i].m);
        if (L->threads_in_scope) S->c_active |= L->threads_in_scope(S->lang_state[k], mods.v, mods.n);
        if (L->call_summaries && mods.n) any = 1;
    }
    CA_VEC_FREE(mods);
    if (!any) return;
    file_ctx fc;
    memset(&fc, 0, sizeof(fc));
    fc.S = S;
    fc.memo_cap = 1024;
    fc.memo = ca_xcalloc(fc.memo_cap, sizeof(*fc.memo));
    eng_resolver res = {&fc, scan_resolve, scan_class_of};
    /* what calls pass on (releases, takes, checkpoints reached), and which
     * functions can suspend when awaited: both only grow, so each settles.
     * An abstract method stands for its overrides, which may suspend; when
     * the first fixed point leaves every implementation in the tree of one
     * unable to suspend, the summaries start again with that one quiet
     * (the second fixed point can only find less that suspends, so its
     * implementations stay quiet) */
    eng_summary *initial = ca_xmalloc(sizeof(eng_summary) * (S->nfns + 1));
    for (size_t i = 0; i < S->nfns; i++) initial[i] = S->fns[i].sum;
    uint8_t *quiet = ca_xcalloc(S->nfns + 1, 1);
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            int any_quiet = 0;
            for (size_t i = 0; i < S->nfns; i++) {
                const file_job *j = &S->jobs[S->fns[i].file];
                if (j->lowered && S->langs[j->lang]->await_summaries && scan_stub_quiet(S, i)) quiet[i] = any_quiet = 1;
            }
            if (!any_quiet) break;
            for (size_t i = 0; i < S->nfns; i++) S->fns[i].sum = initial[i];
            fc.memo_n = 0;
            memset(fc.memo, 0, fc.memo_cap * sizeof(*fc.memo));
        }
        for (size_t i = 0; i < S->nfns; i++) {
            fn_ref *r = &S->fns[i];
            const file_job *j = &S->jobs[r->file];
            if (j->lowered && S->langs[j->lang]->await_summaries)
                r->sum.suspends = (r->f->fflags & (FN_ABSTRACT | FN_STUB)) != 0 && !quiet[i];
        }
        /* A worklist over passes: the first pass updates every function and
         * records whom it resolved; later passes update only the functions a
         * callee of which changed since the pass before (an update is a
         * function of the callees' summaries, so the others cannot change). */
        int *stamp = ca_xcalloc(S->nfns + 1, sizeof(int)); /* 1 + the last pass it changed in, 0 never */
        size_t *dep_off = ca_xcalloc(S->nfns + 1, sizeof(size_t));
        CA_VEC(int) deps = {0};
        int changed = 1;
        for (int pass = 0; changed && pass < 64; pass++) {
            changed = 0;
            fc.recording = pass == 0;
            for (size_t i = 0; i < S->nfns; i++) {
                fn_ref *r = &S->fns[i];
                const file_job *j = &S->jobs[r->file];
                if (!j->lowered) continue;
                if (pass > 0) {
                    int need = 0;
                    for (size_t k = dep_off[i]; k < dep_off[i + 1] && !need; k++) need = stamp[deps.v[k]] >= pass;
                    if (!need) continue;
                }
                const ca_lang *L = S->langs[j->lang];
                int c = 0;
                fc.callee_ids.n = 0;
                if (L->call_summaries) c |= eng_summary_update(&j->m, r->f, &res, &r->sum);
                if (L->await_summaries) c |= eng_suspends_update(&j->m, r->f, &res, &r->sum);
                if (c) {
                    stamp[i] = pass + 1;
                    changed = 1;
                }
                if (pass == 0) {
                    dep_off[i] = deps.n;
                    for (size_t k = 0; k < fc.callee_ids.n; k++)
                        if (fc.callee_ids.v[k] >= 0 && (size_t)fc.callee_ids.v[k] < S->nfns && fc.callee_ids.v[k] != (int)i)
                            CA_VEC_PUSH(deps, fc.callee_ids.v[k]);
                    dep_off[i + 1] = deps.n;
                }
                fc.deps.n = 0;
            }
            if (pass == 0) /* functions not lowered keep empty ranges */
                for (size_t i = 1; i <= S->nfns; i++)
                    if (dep_off[i] < dep_off[i - 1]) dep_off[i] = dep_off[i - 1];
        }
        free(stamp);
        free(dep_off);
        CA_VEC_FREE(deps);
    }
    free(initial);
    free(quiet);
    scan_file_ctx_free(&fc);
}

/* ------------------------------------------------------------------------ */
/* Phase 3.                                                                 */

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static void analyse_file(scan_state *S, size_t fi)
{
    file_job *j = &S->jobs[fi];
    if (!j->lowered) return;
    file_ctx fc;
    memset(&fc, 0, sizeof(fc));
    fc.S = S;
    eng_resolver res = {&fc, scan_resolve, scan_class_of};
    rule_ctx rc;
    memset(&rc, 0, sizeof(rc));
    rc.m = &j->m;
    rc.path = j->rec.path;
    rc.backend = j->rec.backend;
    rc.select = S->o->select;
    rc.ignore = S->o->ignore;
    rc.strict = S->o->strict;
    rc.c_active = S->c_active;
    rc.cat = S->o->cat;
    for (int i = 0; i < j->m.nfuncs; i++) {
        ir_func *f = j->m.funcs[i];
        eng_result er;
        memset(&er, 0, sizeof(er));
        rules_run(&rc, f, &res, &er);
        if (er.limits) {
            /* a walk cut short says so: findings there may be missing */
            char *msg = eng_limit_message(er.limits, f->qualname, f->site.line);
            char *d = j->rec.diagnostic ? ca_xasprintf("%s; %s", j->rec.diagnostic, msg) : msg;
            if (d != msg) free(msg);
            free(j->rec.diagnostic);
            j->rec.diagnostic = d;
        }
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
    /* the facts the store keeps, while this worker has the function at hand */
    for (int i = 0; i < j->m.nfuncs; i++) {
        fn_ref *fr = &S->fns[j->m.funcs[i]->id];
        fr->facts = scan_encode_facts(S, fr);
    }
    /* sorted and unique, so the record reads the same however calls were ordered */
    size_t n = 0;
    if (fc.deps.n) qsort(fc.deps.v, fc.deps.n, sizeof(char *), cmp_cstr);
    for (size_t i = 0; i < fc.deps.n; i++)
        if (n == 0 || strcmp(fc.deps.v[n - 1], fc.deps.v[i]) != 0) fc.deps.v[n++] = fc.deps.v[i];
    j->rec.deps = ca_deps_encode(scan_deps_digest(S, fc.deps.v, n), fc.deps.v, n, &j->m);
    scan_file_ctx_free(&fc);
}

static void *phase3(void *arg)
{
    scan_state *S = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&S->next, 1);
        if (i >= S->norder) break;
        analyse_file(S, S->order[i]);
    }
    return NULL;
}

/* Phase 3's work, the most functions first, so that no worker is left
 * with a large file at the end. */
static const scan_state *sort_work;

static int cmp_more_functions(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int fx = sort_work->jobs[x].m.nfuncs, fy = sort_work->jobs[y].m.nfuncs;
    if (fx != fy) return fx > fy ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void order_phase3(scan_state *S)
{
    S->norder = 0;
    for (size_t i = 0; i < S->njobs; i++)
        if (S->jobs[i].lowered) S->order[S->norder++] = i;
    sort_work = S;
    qsort(S->order, S->norder, sizeof(size_t), cmp_more_functions);
}

static void run_pool(scan_state *S, void *(*fn)(void *), size_t items)
{
    int n = S->o->jobs > 0 ? S->o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if ((size_t)n > items) n = items ? (int)items : 1;
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

/* Each language's state for the scan, from the files discovery found,
 * and its gate; 2 with *err for a usage error (a --compile-commands
 * directory without a usable database). */
static int langs_begin(scan_state *S, const ca_disc_file *files, size_t nfiles, char **err)
{
    const ca_scan_opts *o = S->o;
    S->langs = ca_lang_all(&S->nlangs);
    S->lang_state = ca_xcalloc(S->nlangs + 1, sizeof(void *));
    S->gate = ca_xcalloc(S->nlangs + 1, sizeof(atomic_int));
    S->prepared = ca_xcalloc(S->nlangs + 1, sizeof(atomic_int));
    CA_VEC(const char *) mine = {0};
    int rc = 0;
    for (size_t k = 0; k < S->nlangs && rc == 0; k++) {
        const ca_lang *L = S->langs[k];
        mine.n = 0;
        for (size_t i = 0; i < nfiles; i++)
            if (files[i].language && !files[i].diagnostic && strcmp(files[i].language, L->name) == 0)
                CA_VEC_PUSH(mine, files[i].path);
        ca_lang_setup setup;
        memset(&setup, 0, sizeof(setup));
        setup.cat = o->cat;
        setup.roots = o->paths;
        setup.nroots = o->npaths;
        setup.files = mine.v;
        setup.nfiles = mine.n;
        setup.compile_commands = o->compile_commands;
        setup.cancel_scope = o->c_cancel_scope;
        if (L->scan_new) rc = L->scan_new(&setup, &S->lang_state[k], err);
        if (rc == 0) atomic_init(&S->gate[k], L->gate ? L->gate(S->lang_state[k]) : CA_GATE_OPEN);
        atomic_init(&S->prepared[k], 0);
    }
    CA_VEC_FREE(mine);
    return rc;
}

/* What every way out of ca_scan_run frees. */
static void scan_state_free(scan_state *S)
{
    for (size_t i = 0; i < S->nfns; i++) free(S->fns[i].callees);
    for (size_t i = 0; S->jobs && i < S->njobs; i++) {
        file_job *j = &S->jobs[i];
        ir_module_free(&j->m);
        free(j->sums);
        free(j->facts);
        free(j->src);
    }
    for (size_t k = 0; S->lang_state && k < S->nlangs; k++)
        if (S->langs[k]->scan_free) S->langs[k]->scan_free(S->lang_state[k]);
    free(S->lang_state);
    free(S->gate);
    free(S->prepared);
    free(S->fns);
    free(S->by_name);
    free(S->by_method);
    free(S->exports);
    free(S->classes);
    free(S->cls_by_name);
    free(S->mod_by_stem);
    for (size_t i = 0; i < S->npath_names; i++) free(S->path_names[i]);
    free(S->path_names);
    free(S->jobs);
    free(S->order);
    ca_results_free(&S->base);
    ca_results_free(&S->taken);
    scan_free_prior_dirs(S);
    scan_free_dirs(S);
    ca_backend_cache_free(S->backends);
    pthread_mutex_destroy(&S->dirs_lock);
    pthread_mutex_destroy(&S->err_lock);
    pthread_mutex_destroy(&S->lang_lock);
    free(S);
}

/* Freeing a scan's state (the tree's files, the walk's listings, the
 * IR left) is left to a thread when the caller will reap it (defer_free):
 * the results are complete, and the caller writes its report meanwhile. */
typedef struct release_job {
    scan_state *S;
    ca_disc_file *files;
    size_t nfiles;
} release_job;

static pthread_t reaper;
static int reaping;

static void *release_main(void *arg)
{
    release_job *r = arg;
    scan_state_free(r->S);
    ca_disc_files_free(r->files, r->nfiles);
    free(r);
    return NULL;
}

static void release(scan_state *S, ca_disc_file *files, size_t nfiles)
{
    release_job *r = ca_xmalloc(sizeof(*r));
    r->S = S;
    r->files = files;
    r->nfiles = nfiles;
    if (S->o->defer_free && !reaping && pthread_create(&reaper, NULL, release_main, r) == 0) {
        reaping = 1;
        return;
    }
    release_main(r);
}

int ca_scan_run(const ca_scan_opts *o, ca_results *out, char **err)
{
    scan_state *S = ca_xcalloc(1, sizeof(*S));
    S->o = o;
    pthread_mutex_init(&S->err_lock, NULL);
    pthread_mutex_init(&S->dirs_lock, NULL);
    pthread_mutex_init(&S->lang_lock, NULL);
    free(out->scan.cache_key);
    out->scan.cache_key = scan_cache_key(o);
    S->cache_key = out->scan.cache_key;
    S->backends = ca_backend_cache_new(o->maps, o->nmaps);
    if (o->cache) scan_load_base(S);
    if (S->base.scan.id) scan_load_prior_dirs(S);
    pthread_t taker;
    int taking = S->base.scan.tree_digest && pthread_create(&taker, NULL, scan_read_taken, S) == 0;

    ca_discover_opts dopt;
    memset(&dopt, 0, sizeof(dopt));
    dopt.excludes = o->excludes;
    dopt.nexcludes = o->nexcludes;
    dopt.max_size = o->max_size;
    dopt.langs = ca_lang_all(&dopt.nlangs);
    dopt.on_dir = scan_on_dir;
    dopt.on_dir_ctx = S;
    if (S->nprior) {
        dopt.recall = scan_recall;
        dopt.recall_ctx = S;
    }
    dopt.jobs = o->jobs;
    ca_disc_file *files = NULL;
    size_t nfiles = 0;
    int rc = ca_discover(o->paths, o->npaths, &dopt, &files, &nfiles, err) != 0 ? 2 : 0;
    if (taking) pthread_join(taker, NULL);
    if (rc == 0) rc = langs_begin(S, files, nfiles, err);
    if (rc != 0) {
        ca_disc_files_free(files, nfiles);
        scan_state_free(S);
        return rc;
    }
    char *found = S->base.scan.tree_digest ? scan_found_tree_digest(S, files, nfiles) : NULL;
    int same = found && strcmp(found, S->base.scan.tree_digest) == 0;
    free(found);
    if (same && taking && scan_take_base(S, out) == 0) {
        release(S, files, nfiles); /* the rows are shared: no listings to record */
        return 0;
    }
    ca_results_free(&S->taken);
    if (S->base.scan.id) scan_load_base_rest(S);

    S->njobs = nfiles;
    S->jobs = ca_xcalloc(nfiles + 1, sizeof(file_job));
    S->order = ca_xmalloc(sizeof(size_t) * (nfiles + 1));
    S->t0 = ca_now_monotonic();
    for (size_t i = 0; i < nfiles; i++) {
        S->jobs[i].df = &files[i];
        S->jobs[i].lang = -1;
        for (size_t k = 0; files[i].language && k < S->nlangs; k++)
            if (strcmp(files[i].language, S->langs[k]->name) == 0) S->jobs[i].lang = (int)k;
        S->order[i] = i;
        S->total_bytes += files[i].size > 0 ? (uint64_t)files[i].size : 0;
        if (S->base.nfiles) scan_attach_base(S, &S->jobs[i]);
    }
    S->norder = nfiles;
    /* largest first, so no worker is left with a big file at the end */
    sort_files = files;
    qsort(S->order, nfiles, sizeof(size_t), cmp_larger_first);

    /* here, while this is the only thread (contain.h) */
    scan_contain_limits lim = {o->file_timeout, o->file_memory};
    if (lim.timeout == 0) lim.timeout = CA_FILE_TIMEOUT_DEFAULT;
    if (lim.memory == 0) lim.memory = CA_FILE_MEMORY_DEFAULT;
    if (lim.timeout < 0) lim.timeout = 0;
    if (lim.memory < 0) lim.memory = 0;
    S->contain = scan_contain_start(S->langs, S->lang_state, S->nlangs, &lim);

    run_pool(S, phase1, S->norder);
    gates_decided(S);
    run_pool(S, phase1_waited, S->norder);
    if (o->progress) fputs("\r\033[K", stderr);

    /* phase 2: the table; reused files whose lookups changed are lowered */
    S->redo = 1;
    for (;;) {
        scan_build_table(S);
        scan_build_classes(S);
        /* classes that lowered code constructs, defined in files the
         * prefilter skipped: lower those files too, and build again */
        if (scan_classes_wanted(S)) {
            run_pool(S, phase1, S->norder);
            continue;
        }
        /* summaries settle before reused files are checked against them:
         * what they recorded was settled too */
        lang_summaries(S);
        if (!scan_check_reused(S)) break;
        run_pool(S, phase1, S->norder);
    }
    int leaked = scan_contain_stop(S->contain) != 0;
    S->contain = NULL;

    order_phase3(S);
    run_pool(S, phase3, S->norder);
    scan_collect(S, out);

    if (S->writing) {
        pthread_join(S->writer, NULL);
        out->stored_parts = S->writer_rc == 0;
    }
    release(S, files, nfiles);
    if (leaked) {
        /* sanitizer builds only: what LSan's exit status is in process */
        *err = ca_xstrdup("a lowering worker process failed its leak check (CANCELAUDIT_WORKER_STDERR=1 shows "
                          "the report)");
        return 3;
    }
    return 0;
}

void ca_scan_reap(void)
{
    if (!reaping) return;
    pthread_join(reaper, NULL);
    reaping = 0;
}
