/*
 * scan.c — the pipeline driver (scan.h).
 *
 * Phase 1 (parallel): per file, reuse its results from the base scan
 * (below) or read it once and hand the bytes to its language's hooks
 * (frontend/lang.h: gate, prefilter, guard, lower); the tree is freed
 * inside the frontend, the source right after, and the summaries are
 * built while the IR is at hand. A file whose language's gate is still
 * undecided (C: does any C file name pthread_cancel?) waits with its bytes
 * until every file has been read, then is lowered or recorded skipped.
 * Phase 2: the function table and the name index for cross-file calls;
 * reused files are checked against it (below); then the summaries that go
 * through calls, for the languages that need them.
 * Phase 3 (parallel): the engine and the rules per function of every
 * lowered file.
 * Phase 4: the coverage matrix, from the facts of every function.
 * Output does not depend on the number of workers: results are kept per
 * file, in discovery order (workers take the largest files first, which
 * only changes when a file is done), per-file diagnostics are printed in
 * path order once the files are done, and everything is sorted at the end.
 *
 * Incremental rescans (DESIGN §9). The base is the newest complete scan in
 * the database with this scan's cache key: the same build of the tool, the
 * same catalog, rule selection, size limit, backend mapping and working
 * directory. A file's stored results are reused when
 *   - its content is unchanged: its size and mtime_ns equal the base's
 *     record and the mtime is older than the base scan's start (then the
 *     file is not even read), or its content hash equals the base's;
 *   - its backend is unchanged (findings carry it);
 *   - what its analysis read from other files is unchanged. The engine sees
 *     other files only through resolve(), when a call names a module-level
 *     function the file does not define. The file's `deps` record lists
 *     those names with a digest of what each resolved to (file, position,
 *     summary, parameters); the digest is recomputed against this scan's
 *     function table, and a file whose digest differs is lowered and
 *     analysed afresh. Re-lowering an unchanged file does not change the
 *     table, so one pass settles it; the loop only matters when a file
 *     changes while it is being scanned.
 * Per function the store keeps what the rest of a scan needs without the IR
 * (`facts`, cache.h): the summary and parameters that callers apply, and
 * the protections, windows and callees the matrix reads. A reused file adds
 * stub functions (names, parameters, summaries) to the table, and its
 * stored findings and facts to the output; it costs a stat and no parse.
 *
 * Before all that, two shortcuts (docs/store.md):
 *   - directories: the walk takes the entries of a directory whose mtime is
 *     the one the base's walk recorded from the base's listing (scan_recall)
 *     instead of reading it;
 *   - nothing changed: when the tree digest of what the walk found equals
 *     the base's, the results are the base's (take_base), read back while
 *     the tree was walked, and the store shares the base's rows.
 * And after it, the files and listings are written into the scan's
 * transaction on a thread of their own (write_parts) while the matrix is
 * built; the working state is freed on another (release) when the caller
 * asked for that.
 */
#include "scan/scan.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cache.h"
#include "discover/discover.h"
#include "engine/engine.h"
#include "coverage/matrix.h"
#include "frontend/lang.h"
#include "rules/rules.h"

typedef struct file_job {
    ca_disc_file *df;
    int lang;             /* index in scan_state.langs; -1: none (not a file, or no language's) */
    ca_file_rec rec;
    ir_module m;          /* the file's IR (lowered) or stub functions (reused) */
    int lowered;          /* m holds IR for phase 3 */
    int reused;           /* rec, findings and facts come from the base scan */
    eng_summary *sums;    /* per function of m */
    ca_facts *facts;      /* reused: per function of m */
    /* reused: the names the file resolved across files, and their digest */
    const char **deps;
    size_t ndeps;
    uint64_t deps_digest;
    /* the base scan's rows for this path; base NULL when there are none */
    const ca_file_rec *base;
    ca_function_rec *base_fns;  /* by ordinal */
    size_t nbase_fns;
    ca_finding *base_finds;
    size_t nbase_finds;
    /* phase 1, while the language's gate is undecided (CA_GATE_ASK): rec
     * holds what the file would be if the gate opens */
    int waiting;
    int parked;           /* 1: src kept for lowering; 2: read again if the gate opens */
    char *src;
    size_t len;
    /* phase 3 output */
    ca_finding *findings;
    size_t nfindings;
} file_job;

typedef struct fn_ref {
    int file;
    int ordinal;          /* index in its module */
    ir_func *f;
    eng_summary sum;
    unsigned protections;
    int had_window;
    int *callees;
    int ncallees;
    char *facts;          /* encoded by phase 3 for an analysed function (NULL: collect encodes it) */
} fn_ref;

/* A directory of the base as its walk listed it (ca_dir_rec, decoded). */
typedef struct prior_dir {
    const char *path;     /* in scan_state.prior_blob, as the rest */
    int64_t mtime_ns;     /* -1: not to be trusted */
    const char *entries;
    size_t len;
    int decoded;          /* names/types filled (under scan_state.dirs_lock) */
    const char **names;
    unsigned char *types;
    size_t n;
} prior_dir;

/* An mtime this close to a scan's start may share its clock tick with a
 * change made after the scan looked (file systems stamp times from a
 * coarse clock): only older ones prove nothing changed since. */
#define CA_MTIME_SLACK_NS ((int64_t)20 * 1000 * 1000)

typedef struct scan_state {
    const ca_scan_opts *o;
    file_job *jobs;
    size_t njobs;
    /* the jobs phase 1 works on */
    size_t *order;
    size_t norder;
    atomic_size_t next;
    atomic_size_t done;
    atomic_uint_fast64_t done_bytes; /* of files done, by discovery's sizes: the ETA's measure */
    uint64_t total_bytes;
    fn_ref *fns;
    size_t nfns;
    /* module-level functions sorted by name for cross-file calls */
    size_t *by_name;
    size_t nby_name;
    /* methods (self/cls first parameter) sorted by name, for `self.m()`
     * calls that the caller's own class does not define (a base class) */
    size_t *by_method;
    size_t nby_method;
    ca_backend_cache *backends;
    /* the base scan of an incremental rescan (rows reused are moved out) */
    const char *cache_key;
    ca_results base;      /* base.scan: the base's scan row (id 0: no base) */
    ca_results taken;     /* read_taken: the base's results, in case nothing changed */
    /* the early writer (scan.h's sink): files and listings of `out` */
    ca_results *out;
    pthread_t writer;
    int writing, writer_rc;
    int taken_rc;
    /* the base's directory listings (one blob), indexed by path */
    char *prior_blob;
    size_t prior_len;
    struct prior_dir *prior_dirs;
    size_t nprior;
    /* this scan's listings (on_dir, from any walking thread); one recalled
     * unchanged keeps its prior record (entries NULL, from set) */
    pthread_mutex_t dirs_lock;
    CA_VEC(ca_dir_rec) dirs;
    CA_VEC(const prior_dir *) dirs_from;
    int64_t base_started_ns;
    pthread_mutex_t err_lock;
    double t0, last_draw;
    int redo;             /* phase 1 runs again on files whose reuse failed */
    /* the languages (frontend/lang.h), by index: their states for this scan
     * and their gates (CA_GATE_*) */
    const ca_lang *const *langs;
    size_t nlangs;
    void **lang_state;
    atomic_int *gate;
    atomic_size_t parked_bytes; /* of files waiting for a gate with their bytes */
    int c_active;         /* rule_ctx.c_active: the languages' threads_in_scope */
} scan_state;

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

static void diag(scan_state *S, const char *path, const char *msg)
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
/* Reuse of the base scan's results.                                        */

/* Rows the base scan holds for job j's path, if any are reusable at all. */
static void attach_base(scan_state *S, file_job *j)
{
    ca_results *b = &S->base;
    const char *path = j->df->path;
    size_t lo = 0, hi = b->nfiles;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(b->files[mid].path, path) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo >= b->nfiles || strcmp(b->files[lo].path, path) != 0) return;
    const ca_file_rec *r = &b->files[lo];
    const ca_lang *L = ca_lang_named(r->language);
    if (!r->hash || !L || !L->reusable) return;
    if (r->status == CA_FILE_SKIPPED) {
        j->base = r;
        return;
    }
    if ((r->status != CA_FILE_ANALYZED && r->status != CA_FILE_CACHED) || !r->deps || !r->backend) return;
    lo = 0, hi = b->nfunctions;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(b->functions[mid].path, path) < 0) lo = mid + 1;
        else hi = mid;
    }
    size_t end = lo;
    while (end < b->nfunctions && strcmp(b->functions[end].path, path) == 0) end++;
    j->base_fns = b->functions + lo;
    j->nbase_fns = end - lo;
    lo = 0, hi = b->nfindings;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(b->findings[mid].path, path) < 0) lo = mid + 1;
        else hi = mid;
    }
    end = lo;
    while (end < b->nfindings && strcmp(b->findings[end].path, path) == 0) end++;
    /* a row the analysis would never write (a damaged database) is not reused */
    for (size_t k = lo; k < end; k++) {
        const ca_finding *f = &b->findings[k];
        if (!f->rule || !f->function || !f->message || !f->fingerprint) return;
    }
    j->base_finds = b->findings + lo;
    j->nbase_finds = end - lo;
    j->base = r;
}

/* Stub functions for a reused file, from the base's function rows: what
 * the function table, the resolver and the matrix read of a function. */
/* Free what lowering or stub-building left on j (module, summaries, facts). */
static void drop_lowered(file_job *j)
{
    ir_module_free(&j->m);
    free(j->facts);
    free(j->sums);
    j->facts = NULL;
    j->sums = NULL;
    j->deps = NULL;
    j->ndeps = 0;
}

static int build_stubs(file_job *j)
{
    ir_module *m = &j->m;
    memset(m, 0, sizeof(*m));
    m->path = j->df->path;
    if (ca_deps_decode(j->base->deps, &j->deps_digest, &j->deps, &j->ndeps, &m->arena) != 0) goto fail;
    j->facts = ca_xcalloc(j->nbase_fns + 1, sizeof(ca_facts));
    j->sums = ca_xcalloc(j->nbase_fns + 1, sizeof(eng_summary));
    for (size_t k = 0; k < j->nbase_fns; k++) {
        const ca_function_rec *r = &j->base_fns[k];
        ca_facts *fa = &j->facts[k];
        if (r->ordinal != (int)k || !r->name || !r->qualname) goto fail;
        if (ca_facts_decode(r->facts, fa, &m->arena) != 0) goto fail;
        ir_func *f = ir_func_new(m);
        f->name = ca_arena_strdup(&m->arena, r->name);
        f->qualname = ca_arena_strdup(&m->arena, r->qualname);
        f->class_name = r->class_name ? ca_arena_strdup(&m->arena, r->class_name) : NULL;
        f->site.line = r->line;
        f->site.end_line = r->end_line;
        f->is_async = r->is_async;
        f->is_method = fa->is_method;
        f->nparams = f->nvars = f->cap_vars = fa->nparams;
        f->vars = ca_arena_alloc(&m->arena, sizeof(ir_var) * ((size_t)fa->nparams + 1));
        for (int q = 0; q < fa->nparams; q++) {
            f->vars[q].name = fa->params[q];
            f->vars[q].flags = VAR_PARAM | (q == 0 && fa->is_method ? VAR_SELF : 0);
            f->vars[q].first_cancel = UINT32_MAX;
        }
        j->sums[k] = fa->sum;
    }
    return 1;
fail:
    drop_lowered(j);
    return 0;
}

/* Take the base's results for j if its backend is unchanged. */
static int reuse(file_job *j)
{
    const ca_file_rec *b = j->base;
    ca_file_rec *r = &j->rec;
    if (b->status != CA_FILE_SKIPPED) {
        if (strcmp(b->backend, r->backend) != 0 || !build_stubs(j)) return 0;
        r->status = CA_FILE_CACHED;
        r->deps = ca_xstrdup(b->deps);
        r->parse_errors = b->parse_errors;
        r->diagnostic = b->diagnostic ? ca_xstrdup(b->diagnostic) : NULL;
    } else {
        r->status = CA_FILE_SKIPPED;
    }
    if (!r->hash) r->hash = ca_xstrdup(b->hash);
    j->reused = 1;
    return 1;
}

/* Forget a reuse that failed its dependency check: the file is lowered. */
static void unreuse(file_job *j)
{
    ca_file_rec *r = &j->rec;
    free(r->path);
    free(r->hash);
    free(r->diagnostic);
    free(r->backend);
    free(r->language);
    free(r->deps);
    memset(r, 0, sizeof(*r));
    drop_lowered(j);
    j->reused = 0;
    j->base = NULL;
}

/* ------------------------------------------------------------------------ */
/* Phase 1.                                                                 */

/* The file's bytes to its language's lowering, and its summaries: what
 * phase 1 does once a file is known to need it. Takes src. */
static void lower_src(scan_state *S, void **workers, file_job *j, char *src, size_t len)
{
    const ca_lang *L = S->langs[j->lang];
    ca_file_rec *r = &j->rec;
    if (!workers[j->lang]) workers[j->lang] = L->worker_new(S->lang_state[j->lang]);
    double t = ca_now_monotonic();
    int rc = L->lower(workers[j->lang], j->df->path, src, len, &j->m);
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
    for (int k = 0; k < j->m.nfuncs; k++) eng_summarize(j->m.funcs[k], &j->sums[k]);
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
 * into rec.diagnostic; collect() prints them all, in path order, so stderr
 * reads the same for any number of workers. The bytes are read once and
 * handed to the language's hooks: the gate while it is undecided (then the
 * file waits: see gates_decided), the prefilter, the guard, the lowering. */
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
    if (!j->waiting && j->base && j->base->size == df->size && j->base->mtime_ns == df->mtime_ns &&
        df->mtime_ns < S->base_started_ns - CA_MTIME_SLACK_NS && reuse(j))
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
    if (!j->waiting && j->base && j->base->size == (int64_t)len && strcmp(j->base->hash, hex) == 0 && reuse(j)) {
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
    if (L->prefilter && !L->prefilter(df->path, src, len)) {
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

static void *phase1(void *arg)
{
    scan_state *S = arg;
    void **workers = ca_xcalloc(S->nlangs + 1, sizeof(void *));
    for (;;) {
        size_t i = atomic_fetch_add(&S->next, 1);
        if (i >= S->norder) break;
        file_job *j = &S->jobs[S->order[i]];
        lower_one(S, workers, j);
        if (j->parked) continue; /* counted when it is lowered */
        atomic_fetch_add(&S->done_bytes, j->df->size > 0 ? (uint64_t)j->df->size : 0);
        atomic_fetch_add(&S->done, 1);
        progress(S);
    }
    for (size_t k = 0; k < S->nlangs; k++)
        if (workers[k]) S->langs[k]->worker_free(workers[k]);
    free(workers);
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
            ca_file_rec *r = &j->rec;
            free(r->path);
            free(r->hash);
            free(r->diagnostic);
            free(r->backend);
            free(r->language);
            memset(r, 0, sizeof(*r));
            lower_one(S, workers, j);
        }
        j->parked = 0;
        atomic_fetch_add(&S->done_bytes, j->df->size > 0 ? (uint64_t)j->df->size : 0);
        atomic_fetch_add(&S->done, 1);
        progress(S);
    }
    for (size_t k = 0; k < S->nlangs; k++)
        if (workers[k]) S->langs[k]->worker_free(workers[k]);
    free(workers);
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
            atomic_fetch_add(&S->done_bytes, j->df->size > 0 ? (uint64_t)j->df->size : 0);
            atomic_fetch_add(&S->done, 1);
            progress(S);
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

/* ------------------------------------------------------------------------ */
/* Phase 2: the function table, and resolving calls across files.          */

static const char *last_part(const char *s)
{
    const char *p = strrchr(s, '.');
    return p ? p + 1 : s;
}

/* qsort has no context argument; the table is sorted on one thread. */
static const scan_state *sort_ctx;

static int cmp_by_name(const void *a, const void *b)
{
    const scan_state *S = sort_ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(S->fns[x].f->name, S->fns[y].f->name);
    if (c) return c;
    return x < y ? -1 : x > y;
}

static void build_table(scan_state *S)
{
    free(S->fns);
    free(S->by_name);
    free(S->by_method);
    size_t nf = 0;
    for (size_t i = 0; i < S->njobs; i++) nf += (size_t)S->jobs[i].m.nfuncs;
    S->fns = ca_xcalloc(nf + 1, sizeof(fn_ref));
    S->by_name = ca_xmalloc(sizeof(size_t) * (nf + 1));
    S->by_method = ca_xmalloc(sizeof(size_t) * (nf + 1));
    S->nfns = S->nby_name = S->nby_method = 0;
    for (size_t i = 0; i < S->njobs; i++)
        for (int k = 0; k < S->jobs[i].m.nfuncs; k++) {
            ir_func *f = S->jobs[i].m.funcs[k];
            f->id = (int)S->nfns;
            fn_ref *r = &S->fns[S->nfns++];
            r->file = (int)i;
            r->ordinal = k;
            r->f = f;
            r->sum = S->jobs[i].sums[k];
            if (!f->class_name && !strstr(f->qualname, "<locals>")) S->by_name[S->nby_name++] = (size_t)f->id;
            else if (f->class_name && f->is_method) S->by_method[S->nby_method++] = (size_t)f->id;
        }
    sort_ctx = S;
    qsort(S->by_name, S->nby_name, sizeof(size_t), cmp_by_name);
    qsort(S->by_method, S->nby_method, sizeof(size_t), cmp_by_name);
}

static int same_language(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* Names of cross-file method lookups carry this prefix in the cache's
 * dependency list, so module functions and methods never collide. */
#define METHOD_DEP "self."

/* The one function of index idx (sorted by name) named `name` in modules of
 * `language` (NULL: Python), or NULL (none, or several). */
static const fn_ref *lookup_unique(const scan_state *S, const size_t *idx, size_t n, const char *name,
                                   const char *language)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(S->fns[idx[mid]].f->name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    const fn_ref *hit = NULL;
    for (; lo < n && strcmp(S->fns[idx[lo]].f->name, name) == 0; lo++) {
        const fn_ref *r = &S->fns[idx[lo]];
        if (!same_language(S->jobs[r->file].m.language, language)) continue;
        if (hit) return NULL;
        hit = r;
    }
    return hit;
}

/* A module-level function, or for a METHOD_DEP name the one method of that
 * name in the scan. */
static const fn_ref *lookup_global(const scan_state *S, const char *name, const char *language)
{
    if (strncmp(name, METHOD_DEP, strlen(METHOD_DEP)) == 0)
        return lookup_unique(S, S->by_method, S->nby_method, name + strlen(METHOD_DEP), language);
    return lookup_unique(S, S->by_name, S->nby_name, name, language);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    return s ? ca_hash64(s, strlen(s) + 1, h) : ca_hash64("\001", 1, h);
}

static uint64_t hash_u64(uint64_t h, uint64_t v) { return ca_hash64(&v, sizeof(v), h); }

/* What the names resolve to across files: everything of the target that
 * resolve() hands the engine (summary, parameters) and the matrix (file and
 * position). Names in the order given. */
static uint64_t deps_digest(const scan_state *S, const char *const *names, size_t n)
{
    uint64_t h = CA_HASH_SEED;
    for (size_t i = 0; i < n; i++) {
        h = hash_str(h, names[i]);
        const fn_ref *r = lookup_global(S, names[i], NULL);
        if (!r) {
            h = hash_u64(h, 0);
            continue;
        }
        h = hash_u64(h, 1);
        h = hash_str(h, S->jobs[r->file].df->path);
        h = hash_u64(h, (uint64_t)r->ordinal);
        h = hash_u64(h, r->sum.releases);
        h = hash_u64(h, r->sum.takes_early);
        h = hash_u64(h, r->sum.takes_late);
        h = hash_u64(h, (uint64_t)r->sum.has_checkpoint);
        h = hash_u64(h, (uint64_t)r->f->nparams);
        for (int q = 0; q < r->f->nparams; q++) h = hash_str(h, r->f->vars[q].name);
    }
    return h;
}

/* A module's functions by the keys resolve() looks them up by: methods
 * by (class, name), module-level functions by (qualname); ties keep module
 * order, so a lookup finds the first definition as a scan would. */
typedef struct fn_key {
    const char *a, *b;
    int index;
} fn_key;

static int cmp_fn_key(const void *x, const void *y)
{
    const fn_key *p = x, *q = y;
    int c = strcmp(p->a, q->a);
    if (!c) c = strcmp(p->b, q->b);
    if (!c) c = p->index < q->index ? -1 : p->index > q->index;
    return c;
}

typedef struct file_ctx {
    scan_state *S;
    CA_VEC(const char *) deps; /* names resolved across files (point into the IR) */
    const ir_module *indexed;  /* the module the keys below are of */
    CA_VEC(fn_key) methods;
    CA_VEC(fn_key) globals;
} file_ctx;

static void index_module(file_ctx *fc, const ir_module *m)
{
    fc->indexed = m;
    fc->methods.n = fc->globals.n = 0;
    for (int i = 0; i < m->nfuncs; i++) {
        const ir_func *f = m->funcs[i];
        if (f->class_name && f->is_method && f->name) {
            fn_key k = {f->class_name, f->name, i};
            CA_VEC_PUSH(fc->methods, k);
        }
        if (!f->class_name && f->qualname) {
            fn_key k = {f->qualname, "", i};
            CA_VEC_PUSH(fc->globals, k);
        }
    }
    if (fc->methods.n) qsort(fc->methods.v, fc->methods.n, sizeof(fn_key), cmp_fn_key);
    if (fc->globals.n) qsort(fc->globals.v, fc->globals.n, sizeof(fn_key), cmp_fn_key);
}

/* The first function (in module order) with keys a, b; -1 when none. */
static int find_fn(const fn_key *v, size_t n, const char *a, const char *b)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(v[mid].a, a);
        if (!c) c = strcmp(v[mid].b, b);
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && strcmp(v[lo].a, a) == 0 && strcmp(v[lo].b, b) == 0 ? v[lo].index : -1;
}

static void file_ctx_free(file_ctx *fc)
{
    CA_VEC_FREE(fc->deps);
    CA_VEC_FREE(fc->methods);
    CA_VEC_FREE(fc->globals);
}

static const ir_func *resolve(void *ctx, const ir_module *m, const ir_func *caller, const ir_node *call,
                              const eng_summary **summary, int *off)
{
    file_ctx *fc = ctx;
    scan_state *S = fc->S;
    *off = 0;
    if (!call->text) return NULL;
    const char *name = last_part(call->text);
    if (fc->indexed != m) index_module(fc, m);
    if (call->flags & CALL_ON_SELF) {
        int i = caller->class_name ? find_fn(fc->methods.v, fc->methods.n, caller->class_name, name) : -1;
        if (i >= 0) {
            const ir_func *f = m->funcs[i];
            *off = 1;
            *summary = &S->fns[f->id].sum;
            return f;
        }
        /* not in the class: a base class's method, when its name is unique */
        ca_sb dep = {0};
        ca_sb_addf(&dep, METHOD_DEP "%s", name);
        const char *key = ca_arena_strdup((ca_arena *)&m->arena, ca_sb_str(&dep));
        ca_sb_release(&dep);
        CA_VEC_PUSH(fc->deps, key);
        const fn_ref *r = lookup_global(S, key, m->language);
        if (!r) return NULL;
        *off = 1;
        *summary = &r->sum;
        return r->f;
    }
    /* a module-level function in the same module, else a unique one anywhere */
    int i = find_fn(fc->globals.v, fc->globals.n, name, "");
    if (i >= 0) {
        const ir_func *f = m->funcs[i];
        *summary = &S->fns[f->id].sum;
        return f;
    }
    CA_VEC_PUSH(fc->deps, name);
    const fn_ref *r = lookup_global(S, name, m->language);
    if (!r) return NULL;
    *summary = &r->sum;
    return r->f;
}

/* Reused files whose cross-file lookups now resolve differently go back to
 * phase 1; returns how many. */
static size_t check_reused(scan_state *S)
{
    S->norder = 0;
    for (size_t i = 0; i < S->njobs; i++) {
        file_job *j = &S->jobs[i];
        if (!j->reused || j->rec.status != CA_FILE_CACHED) continue;
        if (deps_digest(S, j->deps, j->ndeps) != j->deps_digest) S->order[S->norder++] = i;
    }
    /* only now: the table points into the stubs of the files let go */
    for (size_t k = 0; k < S->norder; k++) unreuse(&S->jobs[S->order[k]]);
    return S->norder;
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
    eng_resolver res = {&fc, resolve};
    int changed = 1;
    for (int iter = 0; changed && iter < 64; iter++) {
        changed = 0;
        for (size_t i = 0; i < S->nfns; i++) {
            fn_ref *r = &S->fns[i];
            const file_job *j = &S->jobs[r->file];
            if (!j->lowered || !S->langs[j->lang]->call_summaries) continue;
            changed |= eng_summary_update(&j->m, r->f, &res, &r->sum);
            fc.deps.n = 0;
        }
    }
    file_ctx_free(&fc);
}

/* ------------------------------------------------------------------------ */
/* Phase 3.                                                                 */

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static char *encode_facts(const scan_state *S, const fn_ref *r);

static void analyse_file(scan_state *S, size_t fi)
{
    file_job *j = &S->jobs[fi];
    if (!j->lowered) return;
    file_ctx fc;
    memset(&fc, 0, sizeof(fc));
    fc.S = S;
    eng_resolver res = {&fc, resolve};
    rule_ctx rc;
    memset(&rc, 0, sizeof(rc));
    rc.m = &j->m;
    rc.path = j->rec.path;
    rc.backend = j->rec.backend;
    rc.select = S->o->select;
    rc.ignore = S->o->ignore;
    rc.strict = S->o->strict;
    rc.c_active = S->c_active;
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
    /* the facts the store keeps, while this worker has the function at hand */
    for (int i = 0; i < j->m.nfuncs; i++) {
        fn_ref *fr = &S->fns[j->m.funcs[i]->id];
        fr->facts = encode_facts(S, fr);
    }
    /* sorted and unique, so the record reads the same however calls were ordered */
    size_t n = 0;
    if (fc.deps.n) qsort(fc.deps.v, fc.deps.n, sizeof(char *), cmp_cstr);
    for (size_t i = 0; i < fc.deps.n; i++)
        if (n == 0 || strcmp(fc.deps.v[n - 1], fc.deps.v[i]) != 0) fc.deps.v[n++] = fc.deps.v[i];
    j->rec.deps = ca_deps_encode(deps_digest(S, fc.deps.v, n), fc.deps.v, n);
    file_ctx_free(&fc);
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

/* ------------------------------------------------------------------------ */
/* The cache key, and loading the base.                                     */

/* Everything besides the files that a file's results depend on. A new
 * option that changes analysis results must be hashed here. */
static char *cache_key(const ca_scan_opts *o)
{
    uint64_t h = hash_str(CA_HASH_SEED, "cancelaudit scan cache 1");
    h = hash_str(h, ca_version);
    h = hash_u64(h, ca_build_id());
    h = hash_u64(h, o->cat ? (uint64_t)ca_catalog_digest(o->cat) : 0);
    h = hash_str(h, o->select);
    h = hash_str(h, o->ignore);
    h = hash_u64(h, (uint64_t)(o->strict != 0));
    h = hash_u64(h, (uint64_t)(o->max_size > 0 ? o->max_size : 0));
    h = hash_str(h, o->compile_commands);
    h = hash_u64(h, (uint64_t)(int64_t)o->c_cancel_scope);
    h = hash_u64(h, (uint64_t)o->nmaps);
    for (size_t i = 0; i < o->nmaps; i++) h = hash_str(hash_str(h, o->maps[i].name), o->maps[i].glob);
    /* paths are relative to the working directory */
    char cwd[PATH_MAX];
    h = hash_str(h, getcwd(cwd, sizeof(cwd)) ? cwd : "?");
    char hex[17];
    ca_hash_hex(h, hex);
    return ca_xstrdup(hex);
}

static int cmp_file_path(const void *a, const void *b)
{
    return strcmp(((const ca_file_rec *)a)->path, ((const ca_file_rec *)b)->path);
}

static int cmp_fn_ordinal(const void *a, const void *b)
{
    const ca_function_rec *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    if (c) return c;
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

static int cmp_finding_path(const void *a, const void *b)
{
    return strcmp(((const ca_finding *)a)->path, ((const ca_finding *)b)->path);
}

/* ---- directory listings ------------------------------------------------ */

static int cmp_prior(const void *a, const void *b)
{
    return strcmp(((const prior_dir *)a)->path, ((const prior_dir *)b)->path);
}

static const prior_dir *find_prior(const scan_state *S, const char *dir)
{
    prior_dir key;
    key.path = dir;
    return bsearch(&key, S->prior_dirs, S->nprior, sizeof(prior_dir), cmp_prior);
}

/* discover's on_dir: backends learn of marker files, and the scan keeps the
 * listing for the next scan to recall (a recalled one by reference). */
static void scan_on_dir(void *ctx, const char *dir, int64_t mtime_ns, const char *const *names,
                        const unsigned char *types, size_t n)
{
    scan_state *S = ctx;
    ca_backend_cache_note_dir(S->backends, dir, names, types, n);
    if (!mtime_ns || !S->o->record) return;
    const prior_dir *p = S->nprior ? find_prior(S, dir) : NULL;
    ca_dir_rec d;
    memset(&d, 0, sizeof(d));
    d.path = ca_xstrdup(dir);
    d.mtime_ns = mtime_ns;
    const prior_dir *from = NULL;
    /* names that point into the prior record were recalled from it (its
     * bytes never change during the scan): the same entries */
    if (p && n && names[0] >= p->entries && names[0] < p->entries + p->len) {
        from = p;
    } else {
        ca_sb sb = {0};
        for (size_t i = 0; i < n; i++) {
            ca_sb_addc(&sb, (char)(types[i] ? types[i] : 0xff)); /* never a NUL: DT_UNKNOWN is 0 */
            ca_sb_add(&sb, names[i], strlen(names[i]) + 1);
        }
        d.len = sb.len;
        d.entries = ca_sb_detach(&sb);
    }
    pthread_mutex_lock(&S->dirs_lock);
    CA_VEC_PUSH(S->dirs, d);
    CA_VEC_PUSH(S->dirs_from, from);
    pthread_mutex_unlock(&S->dirs_lock);
}

/* A stored listing's entries; 0 when the record does not decode. */
static int decode_listing(prior_dir *p)
{
    const char *e = p->entries;
    size_t n = 0;
    for (size_t at = 0; at < p->len;) {
        if (at + 1 >= p->len) return 0;
        const char *nul = memchr(e + at + 1, 0, p->len - at - 1);
        if (!nul || nul == e + at + 1) return 0;
        n++;
        at = (size_t)(nul - e) + 1;
    }
    p->names = ca_xmalloc(sizeof(char *) * (n + 1));
    p->types = ca_xmalloc(n + 1);
    size_t k = 0;
    for (size_t at = 0; at < p->len; k++) {
        unsigned char t = (unsigned char)e[at];
        p->types[k] = t == 0xff ? 0 : t;
        p->names[k] = e + at + 1;
        at += strlen(e + at + 1) + 2;
    }
    p->n = n;
    return 1;
}

/* discover's recall: a directory whose mtime is the one the base's walk
 * saw, and safely older than the base's start, holds what it held then.
 * Listings are decoded when first asked for. */
static int scan_recall(void *ctx, const char *dir, int64_t mtime_ns, ca_dir_names *out)
{
    scan_state *S = ctx;
    prior_dir *p = (prior_dir *)find_prior(S, dir);
    if (!p || p->mtime_ns != mtime_ns || mtime_ns >= S->base_started_ns - CA_MTIME_SLACK_NS) return 0;
    pthread_mutex_lock(&S->dirs_lock);
    if (!p->decoded) {
        if (decode_listing(p)) p->decoded = 1;
        else p->mtime_ns = -1;
    }
    int ok = p->decoded;
    pthread_mutex_unlock(&S->dirs_lock);
    if (!ok) return 0;
    out->names = p->names;
    out->types = p->types;
    out->n = p->n;
    return 1;
}

/* The base's listings, by path; decoded on recall. A blob that does not
 * decode is not used at all. */
static void load_prior_dirs(scan_state *S)
{
    char *err = NULL;
    if (store_load_dir_index(S->o->cache, S->base.scan.id, &S->prior_blob, &S->prior_len, &err) != 0) {
        free(err);
        return;
    }
    CA_VEC(prior_dir) v = {0};
    size_t at = 0;
    prior_dir p;
    memset(&p, 0, sizeof(p));
    int rc;
    while ((rc = ca_dirs_next(S->prior_blob, S->prior_len, &at, &p.path, &p.mtime_ns, &p.entries, &p.len)) == 1)
        CA_VEC_PUSH(v, p);
    if (rc < 0) {
        CA_VEC_FREE(v);
        return;
    }
    S->prior_dirs = v.v;
    S->nprior = v.n;
    /* stored by path already; sorting again only guards the lookups */
    int sorted = 1;
    for (size_t i = 1; i < S->nprior && sorted; i++) sorted = cmp_prior(&S->prior_dirs[i - 1], &S->prior_dirs[i]) < 0;
    if (!sorted) {
        qsort(S->prior_dirs, S->nprior, sizeof(prior_dir), cmp_prior);
        for (size_t i = 1; i < S->nprior; i++)
            if (strcmp(S->prior_dirs[i - 1].path, S->prior_dirs[i].path) == 0) {
                S->prior_dirs[i - 1].mtime_ns = -1; /* ambiguous */
                S->prior_dirs[i].mtime_ns = -1;
            }
    }
}

static void free_prior_dirs(scan_state *S)
{
    for (size_t i = 0; i < S->nprior; i++) {
        free(S->prior_dirs[i].names);
        free(S->prior_dirs[i].types);
    }
    free(S->prior_dirs);
    S->prior_dirs = NULL;
    S->nprior = 0;
    free(S->prior_blob);
    S->prior_blob = NULL;
}

static int cmp_dir_rec(const void *a, const void *b)
{
    return strcmp(((const ca_dir_rec *)a)->path, ((const ca_dir_rec *)b)->path);
}

/* This scan's listings into out, by path (one record per directory); a
 * recalled one copies its prior record. */
static void collect_dirs(scan_state *S, ca_results *out)
{
    for (size_t i = 0; i < S->dirs.n; i++) {
        const prior_dir *from = S->dirs_from.v[i];
        if (!from) continue;
        S->dirs.v[i].len = from->len;
        S->dirs.v[i].entries = ca_xmalloc(from->len + 1);
        memcpy(S->dirs.v[i].entries, from->entries, from->len);
        S->dirs.v[i].entries[from->len] = 0;
    }
    CA_VEC_FREE(S->dirs_from);
    if (S->dirs.n) qsort(S->dirs.v, S->dirs.n, sizeof(ca_dir_rec), cmp_dir_rec);
    size_t k = 0;
    for (size_t i = 0; i < S->dirs.n; i++) {
        if (k && strcmp(S->dirs.v[k - 1].path, S->dirs.v[i].path) == 0) {
            free(S->dirs.v[i].path);
            free(S->dirs.v[i].entries);
            continue;
        }
        S->dirs.v[k++] = S->dirs.v[i];
    }
    out->dirs = S->dirs.v;
    out->ndirs = k;
    memset(&S->dirs, 0, sizeof(S->dirs));
}

static void free_dirs(scan_state *S)
{
    for (size_t i = 0; i < S->dirs.n; i++) {
        free(S->dirs.v[i].path);
        free(S->dirs.v[i].entries);
    }
    CA_VEC_FREE(S->dirs);
    CA_VEC_FREE(S->dirs_from);
}

/* The base: the newest complete scan with this scan's cache key (its row
 * only; what per-file reuse needs is read once the scan knows it needs it:
 * load_base_rest). Without one (or on a database error, which only costs
 * speed) the scan is a full one. */
static void load_base(scan_state *S)
{
    char *err = NULL;
    int rc = store_cache_base(S->o->cache, S->cache_key, &S->base.scan, &S->base_started_ns, &err);
    if (rc < 0 && !S->o->quiet) fprintf(stderr, "cancelaudit: not reusing earlier results: %s\n", err ? err : "?");
    free(err);
    if (rc != 0) ca_results_free(&S->base);
}

/* The base's files, functions and findings, for per-file reuse. */
static void load_base_rest(scan_state *S)
{
    char *err = NULL;
    ca_results *b = &S->base;
    if (store_load_reusable(S->o->cache, b->scan.id, STORE_FILES | STORE_FUNCTIONS | STORE_FINDINGS, b, &err) != 0) {
        if (!S->o->quiet) fprintf(stderr, "cancelaudit: not reusing earlier results: %s\n", err ? err : "?");
        free(err);
        ca_results_free(b);
        return;
    }
    for (size_t i = 0; i < b->nfiles; i++)
        if (!b->files[i].path) b->files[i].path = ca_xstrdup("");
    /* stored sorted by path already; sorting again only guards the lookups */
    qsort(b->files, b->nfiles, sizeof(ca_file_rec), cmp_file_path);
    qsort(b->functions, b->nfunctions, sizeof(ca_function_rec), cmp_fn_ordinal);
    int sorted = 1;
    for (size_t i = 1; i < b->nfindings && sorted; i++) sorted = cmp_finding_path(&b->findings[i - 1], &b->findings[i]) <= 0;
    if (!sorted) qsort(b->findings, b->nfindings, sizeof(ca_finding), cmp_finding_path);
}

/* ------------------------------------------------------------------------ */
/* A rescan in which nothing changed.                                       */

/* The tree digest (ca_scan_meta.tree_digest): every file's path, size,
 * mtime and language (discovery's state_hash, computed by the thread that
 * stat'ed the file), and per directory what decides its files' backends,
 * in path order, folded into two 64-bit lanes. A scan records it when all of its results can
 * be reused as they are (no file with an error, no C file analysed: phase 1
 * would redo those); a rescan that finds the same digest, every mtime
 * safely older than that scan's start, has the same files in the same
 * state, so the same function table, resolutions, findings and matrix: its
 * results are the base's. */

typedef struct tree_hash {
    uint64_t a, b;           /* two lanes, each a different hash function */
    size_t nfiles;
    ca_backend_cache *backends;
    const char *dir;         /* the directory of the last file (a prefix of its path) */
    size_t dirlen;
    int per_file;            /* configured globs decide backends file by file */
    ca_sb rec;               /* one record's bytes, reused */
} tree_hash;

static void tree_mix(tree_hash *t)
{
    const char *buf = t->rec.buf ? t->rec.buf : "";
    uint64_t x = ca_content_hash(buf, t->rec.len), y = ca_strhash(buf, t->rec.len);
    t->a = ((t->a ^ x) << 23 | (t->a ^ x) >> 41) * 0x9e3779b97f4a7c15ULL;
    t->b = ((t->b ^ y) << 31 | (t->b ^ y) >> 33) * 0xc2b2ae3d27d4eb4fULL;
}

/* A file's record; and when its directory differs from the last file's, a
 * record of what decides the backends there (the nearest marker
 * directory): a file's backend is that, or a function of its own path. */
static void tree_hash_file(tree_hash *t, const ca_disc_file *df)
{
    const char *path = df->path;
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) : 0;
    if (!t->dir || dl != t->dirlen || memcmp(path, t->dir, dl) != 0) {
        const char *marker = NULL;
        t->per_file = ca_backend_dir_marker(t->backends, path, &marker);
        t->rec.len = 0;
        ca_sb_addc(&t->rec, 'D');
        ca_sb_add(&t->rec, path, dl);
        ca_sb_addc(&t->rec, 0);
        ca_sb_add(&t->rec, marker ? marker : "\001", strlen(marker ? marker : "\001") + 1);
        tree_mix(t);
        t->dir = path;
        t->dirlen = dl;
    }
    /* a file: discovery's hash of its path, size, mtime and language */
    uint64_t h = df->state_hash;
    if (t->per_file) {
        char *be = ca_backend_name(t->backends, path);
        h ^= ca_content_hash(be, strlen(be));
        free(be);
    }
    t->a = ((t->a ^ h) << 23 | (t->a ^ h) >> 41) * 0x9e3779b97f4a7c15ULL;
    t->b = ((t->b ^ (h * 0xff51afd7ed558ccdULL)) << 31 | (t->b ^ (h * 0xff51afd7ed558ccdULL)) >> 33) *
           0xc2b2ae3d27d4eb4fULL;
    t->nfiles++;
}

static char *tree_hash_hex(tree_hash *t)
{
    char a[17], b[17];
    ca_hash_hex(t->a ^ (uint64_t)t->nfiles, a);
    ca_hash_hex(t->b ^ (uint64_t)t->nfiles, b);
    ca_sb_release(&t->rec);
    return ca_xasprintf("t4 %s%s", a, b);
}

static void tree_hash_init(tree_hash *t, ca_backend_cache *backends)
{
    memset(t, 0, sizeof(*t));
    t->a = 0x7472656564696731ULL;
    t->b = 0x6469676573743332ULL;
    t->backends = backends;
}

/* The digest of the tree discovery found, or NULL when a file is not in a
 * state the base could hold (an error) or changed too late (its mtime not
 * safely older than the base's start). */
static char *found_tree_digest(scan_state *S, const ca_disc_file *files, size_t nfiles)
{
    tree_hash t;
    tree_hash_init(&t, S->backends);
    for (size_t i = 0; i < nfiles; i++) {
        const ca_disc_file *df = &files[i];
        if (df->diagnostic || !df->language || df->mtime_ns >= S->base_started_ns - CA_MTIME_SLACK_NS) {
            ca_sb_release(&t.rec);
            return NULL;
        }
        tree_hash_file(&t, df);
    }
    return tree_hash_hex(&t);
}

/* The digest this scan records: NULL unless every result is reusable. */
static char *recorded_tree_digest(const scan_state *S, const ca_file_rec *recs)
{
    tree_hash t;
    tree_hash_init(&t, S->backends);
    for (size_t i = 0; i < S->njobs; i++) {
        const file_job *j = &S->jobs[i];
        const ca_file_rec *r = &recs[i];
        int whole = !j->df->diagnostic && j->df->language && r->backend && r->hash;
        if (whole && r->status != CA_FILE_SKIPPED &&
            (j->lang < 0 || !S->langs[j->lang]->reusable ||
             (r->status != CA_FILE_ANALYZED && r->status != CA_FILE_CACHED) || !r->deps))
            whole = 0;
        if (!whole) {
            ca_sb_release(&t.rec);
            return NULL;
        }
        tree_hash_file(&t, j->df);
    }
    return tree_hash_hex(&t);
}

/* The results of a rescan in which nothing changed: the base's findings
 * and cells, file records as phase 1 would have made them, and rows_of so
 * that the store shares the base's rows. 0, or -1 when the base cannot be
 * read as expected (then the scan goes the long way). */
/* Read what a rescan in which nothing changed reports, ahead of knowing
 * whether nothing changed: it runs while discovery walks the tree (the
 * connection is idle then) and is dropped when the tree turns out to
 * differ. */
static void *read_taken(void *arg)
{
    scan_state *S = arg;
    char *err = NULL;
    S->taken_rc = store_load_reusable(S->o->cache, S->base.scan.id,
                                      STORE_DIAGNOSED | STORE_FINDINGS | STORE_COVERAGE | STORE_ROWS_ID, &S->taken, &err);
    free(err);
    return NULL;
}

static int take_base(scan_state *S, ca_results *out)
{
    ca_results got = S->taken;
    memset(&S->taken, 0, sizeof(S->taken));
    const ca_scan_meta *m = &S->base.scan;
    if (S->taken_rc != 0) {
        ca_results_free(&got);
        return -1;
    }
    for (size_t k = 0; k < got.nfindings; k++) {
        const ca_finding *f = &got.findings[k];
        if (!f->rule || !f->function || !f->message || !f->fingerprint || !f->path) {
            ca_results_free(&got);
            return -1;
        }
    }
    for (size_t i = 0; i < got.nfiles; i++) {
        ca_file_rec *r = &got.files[i];
        if (!r->path) {
            ca_results_free(&got);
            return -1;
        }
        if (r->status == CA_FILE_ANALYZED) r->status = CA_FILE_CACHED;
        r->parse_ms = 0;
        if (r->diagnostic) diag(S, r->path, r->diagnostic);
    }
    out->files = got.files;
    out->nfiles = got.nfiles;
    out->findings = got.findings;
    out->nfindings = got.nfindings;
    out->coverage = got.coverage;
    out->ncoverage = got.ncoverage;
    out->scan.rows_of = got.scan.rows_of;
    out->scan.files_scanned = m->files_scanned;
    out->scan.files_skipped = m->files_skipped;
    out->scan.errors = m->errors;
    free(out->scan.tree_digest);
    out->scan.tree_digest = ca_xstrdup(m->tree_digest);
    for (size_t k = 0; k < out->nfindings; k++) out->findings[k].baselined = 0; /* applied afresh by the caller */
    memset(&got, 0, sizeof(got));
    ca_results_sort(out);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Collecting the results.                                                  */

static size_t job_by_path(const scan_state *S, const char *path)
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
        size_t fi = fa->callee_path[k] ? job_by_path(S, fa->callee_path[k]) : (size_t)r->file;
        if (fi == SIZE_MAX || fa->callee_ordinal[k] >= S->jobs[fi].m.nfuncs) continue;
        r->callees[r->ncallees++] = S->jobs[fi].m.funcs[fa->callee_ordinal[k]]->id;
    }
}

static char *encode_facts(const scan_state *S, const fn_ref *r)
{
    ca_facts fa;
    memset(&fa, 0, sizeof(fa));
    fa.sum = r->sum;
    fa.is_method = r->f->is_method;
    fa.protections = r->protections;
    fa.had_window = r->had_window;
    fa.nparams = r->f->nparams;
    const char **params = ca_xmalloc(sizeof(char *) * ((size_t)fa.nparams + 1));
    for (int q = 0; q < fa.nparams; q++) params[q] = r->f->vars[q].name;
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

static void collect_dirs(scan_state *S, ca_results *out);

/* The sink's early part: what collect() has settled (files, listings) is
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

static void collect(scan_state *S, ca_results *out)
{
    out->files = ca_xcalloc(S->njobs + 1, sizeof(ca_file_rec));
    size_t nfind = 0;
    for (size_t i = 0; i < S->njobs; i++)
        nfind += S->jobs[i].reused ? S->jobs[i].nbase_finds : S->jobs[i].nfindings;
    out->findings = ca_xcalloc(nfind + 1, sizeof(ca_finding));
    out->functions = ca_xcalloc(S->nfns + 1, sizeof(ca_function_rec));
    for (size_t i = 0; i < S->njobs; i++) {
        file_job *j = &S->jobs[i];
        out->files[out->nfiles++] = j->rec;
        memset(&j->rec, 0, sizeof(j->rec));
        ca_file_rec *r = &out->files[out->nfiles - 1];
        if (r->diagnostic) diag(S, r->path, r->diagnostic);
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
    collect_dirs(S, out);
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
        fr->backend = ca_xstrdup(fi->backend);
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
        out->functions[i].facts = S->fns[i].facts ? S->fns[i].facts : encode_facts(S, &S->fns[i]);
        S->fns[i].facts = NULL;
    }
    free(out->scan.tree_digest);
    out->scan.tree_digest = recorded_tree_digest(S, out->files); /* files are in job order still */
    /* one order for the matrix's evidence, whether findings were reused or
     * not; files are in path order already, and the early writer reads them */
    ca_results rest = {0};
    rest.findings = out->findings;
    rest.nfindings = out->nfindings;
    rest.functions = out->functions;
    rest.nfunctions = out->nfunctions;
    ca_results_sort(&rest);
    ca_matrix_build(mf, S->nfns, out);
    free(mf);
    /* the rest is in order already */
    ca_results cells = {0};
    cells.coverage = out->coverage;
    cells.ncoverage = out->ncoverage;
    ca_results_sort(&cells);
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
    free(S->fns);
    free(S->by_name);
    free(S->by_method);
    free(S->jobs);
    free(S->order);
    ca_results_free(&S->base);
    ca_results_free(&S->taken);
    free_prior_dirs(S);
    free_dirs(S);
    ca_backend_cache_free(S->backends);
    pthread_mutex_destroy(&S->dirs_lock);
    pthread_mutex_destroy(&S->err_lock);
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
    free(out->scan.cache_key);
    out->scan.cache_key = cache_key(o);
    S->cache_key = out->scan.cache_key;
    S->backends = ca_backend_cache_new(o->maps, o->nmaps);
    if (o->cache) load_base(S);
    if (S->base.scan.id) load_prior_dirs(S);
    pthread_t taker;
    int taking = S->base.scan.tree_digest && pthread_create(&taker, NULL, read_taken, S) == 0;

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
    char *found = S->base.scan.tree_digest ? found_tree_digest(S, files, nfiles) : NULL;
    int same = found && strcmp(found, S->base.scan.tree_digest) == 0;
    free(found);
    if (same && taking && take_base(S, out) == 0) {
        release(S, files, nfiles); /* the rows are shared: no listings to record */
        return 0;
    }
    ca_results_free(&S->taken);
    if (S->base.scan.id) load_base_rest(S);

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
        if (S->base.nfiles) attach_base(S, &S->jobs[i]);
    }
    S->norder = nfiles;
    /* largest first, so no worker is left with a big file at the end */
    sort_files = files;
    qsort(S->order, nfiles, sizeof(size_t), cmp_larger_first);

    run_pool(S, phase1, S->norder);
    gates_decided(S);
    run_pool(S, phase1_waited, S->norder);
    if (o->progress) fputs("\r\033[K", stderr);

    /* phase 2: the table; reused files whose lookups changed are lowered */
    S->redo = 1;
    for (;;) {
        build_table(S);
        if (!check_reused(S)) break;
        run_pool(S, phase1, S->norder);
    }

    lang_summaries(S);

    order_phase3(S);
    run_pool(S, phase3, S->norder);
    collect(S, out);

    if (S->writing) {
        pthread_join(S->writer, NULL);
        out->stored_parts = S->writer_rc == 0;
    }
    release(S, files, nfiles);
    return 0;
}

void ca_scan_reap(void)
{
    if (!reaping) return;
    pthread_join(reaper, NULL);
    reaping = 0;
}
