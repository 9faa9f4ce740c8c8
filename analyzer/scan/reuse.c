/*
 * reuse.c — incremental rescans (DESIGN §9): what a scan takes from the
 * base scan instead of doing it again. Part of the scan driver (scan.c).
 *
 * The base is the newest complete scan in the database with this scan's
 * cache key (scan_cache_key): the same build of the tool, the same catalog,
 * rule selection, size limit, backend mapping and working directory. A
 * file's stored results are reused when
 *   - its content is unchanged: its size and mtime_ns equal the base's
 *     record and the mtime is older than the base scan's start (then the
 *     file is not even read), or its content hash equals the base's;
 *   - what its analysis read from other files is unchanged. The engine sees
 *     other files only through scan_resolve() (link.c), when a call names a
 *     module-level function the file does not define. The file's `deps`
 *     record lists those names with a digest of what each resolved to
 *     (file, position, summary, parameters); the digest is recomputed
 *     against this scan's function table, and a file whose digest differs
 *     is lowered and analysed afresh (scan_check_reused). Re-lowering an
 *     unchanged file does not change the table, so one pass settles it;
 *     the loop only matters when a file changes while it is being scanned.
 *     A function another module starts as a task (FN_SPAWNED_ELSEWHERE,
 *     link.c) has its rules read that: a reused file whose stored flag no
 *     longer matches what the modules' spawns say is lowered afresh too.
 * Only the files of a reusable language (ca_lang.reusable) are reused.
 * Per function the store keeps what the rest of a scan needs without the IR
 * (`facts`, cache.h): the summary and parameters that callers apply, and
 * the protections, windows and callees the matrix reads. A reused file adds
 * stub functions (names, parameters, summaries) to the table, and its
 * stored findings and facts to the output; it costs a stat and no parse.
 * Which backend a file's code belongs to is no part of what is reused:
 * families span files (a subclass here, its base there), so collect.c
 * finds them afresh every scan from the whole class graph (a reused
 * file's classes come back from its deps record) and names the backend of
 * every function and finding, reused or not; the scan records the digest
 * of that graph (ca_scan_meta.class_digest).
 *
 * Before all that, two shortcuts (docs/store.md):
 *   - directories: the walk takes the entries of a directory whose mtime is
 *     the one the base's walk recorded from the base's listing (scan_recall)
 *     instead of reading it;
 *   - nothing changed: when the tree digest of what the walk found equals
 *     the base's, the results are the base's (scan_take_base), read back
 *     while the tree was walked, and the store shares the base's rows.
 */
#include "scan/scan_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Reuse of the base scan's results, file by file.                          */

/* Rows the base scan holds for job j's path, if any are reusable at all. */
void scan_attach_base(scan_state *S, file_job *j)
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

/* Stub functions for a reused file, from the base's function rows: what
 * the function table, the resolver and the matrix read of a function. */
static int build_stubs(file_job *j)
{
    ir_module *m = &j->m;
    memset(m, 0, sizeof(*m));
    m->path = j->df->path;
    if (ca_deps_decode(j->base->deps, &j->deps_digest, &j->deps, &j->ndeps, m) != 0) goto fail;
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
        f->fflags = fa->fflags;
        f->ret_type = fa->ret_type;
        f->nparams = f->nvars = f->cap_vars = fa->nparams;
        f->vars = ca_arena_alloc(&m->arena, sizeof(ir_var) * ((size_t)fa->nparams + 1));
        for (int q = 0; q < fa->nparams; q++) {
            f->vars[q].name = fa->params[q];
            f->vars[q].flags = VAR_PARAM | (q == 0 && fa->is_method ? VAR_SELF : 0) | (q == fa->varargs ? VAR_VARARGS : 0);
            f->vars[q].first_cancel = UINT32_MAX;
            f->vars[q].last_mention = UINT32_MAX;
        }
        j->sums[k] = fa->sum;
    }
    return 1;
fail:
    drop_lowered(j);
    return 0;
}

/* Take the base's results for j. */
int scan_reuse(file_job *j)
{
    const ca_file_rec *b = j->base;
    ca_file_rec *r = &j->rec;
    if (b->status != CA_FILE_SKIPPED) {
        if (!build_stubs(j)) return 0;
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
    store_file_rec_free(&j->rec);
    drop_lowered(j);
    j->reused = 0;
    j->base = NULL;
}

/* Reused files whose cross-file lookups now resolve differently go back to
 * phase 1; returns how many. */
size_t scan_check_reused(scan_state *S)
{
    S->norder = 0;
    /* (and those whose functions another module now starts as tasks, or
     * no longer does: their handlers read that) */
    uint8_t *stale = ca_xcalloc(S->njobs + 1, 1);
    scan_mark_spawns(S, stale);
    scan_mark_main_only(S, stale);
    for (size_t i = 0; i < S->njobs; i++) {
        file_job *j = &S->jobs[i];
        if (!j->reused || j->rec.status != CA_FILE_CACHED) continue;
        if (stale[i] || scan_deps_digest(S, j->deps, j->ndeps) != j->deps_digest) S->order[S->norder++] = i;
    }
    free(stale);
    /* only now: the table points into the stubs of the files let go */
    for (size_t k = 0; k < S->norder; k++) unreuse(&S->jobs[S->order[k]]);
    return S->norder;
}

/* ------------------------------------------------------------------------ */
/* The cache key, and loading the base.                                     */

/* Everything besides the files that a file's results depend on. A new
 * option that changes analysis results must be hashed here. */
char *scan_cache_key(const ca_scan_opts *o)
{
    uint64_t h = scan_hash_str(CA_HASH_SEED, "cancelaudit scan cache 1");
    h = scan_hash_str(h, ca_version);
    h = scan_hash_u64(h, ca_build_id());
    h = scan_hash_u64(h, o->cat ? (uint64_t)ca_catalog_digest(o->cat) : 0);
    h = scan_hash_str(h, o->select);
    h = scan_hash_str(h, o->ignore);
    h = scan_hash_u64(h, (uint64_t)(o->strict != 0));
    h = scan_hash_u64(h, (uint64_t)(o->max_size > 0 ? o->max_size : 0));
    h = scan_hash_str(h, o->compile_commands);
    h = scan_hash_u64(h, (uint64_t)(int64_t)o->c_cancel_scope);
    h = scan_hash_u64(h, (uint64_t)o->nmaps);
    for (size_t i = 0; i < o->nmaps; i++) h = scan_hash_str(scan_hash_str(h, o->maps[i].name), o->maps[i].glob);
    if (o->results_key) h = scan_hash_str(h, o->results_key);
    /* paths are relative to the working directory */
    char cwd[PATH_MAX];
    h = scan_hash_str(h, getcwd(cwd, sizeof(cwd)) ? cwd : "?");
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
void scan_on_dir(void *ctx, const char *dir, int64_t mtime_ns, const char *const *names,
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
int scan_recall(void *ctx, const char *dir, int64_t mtime_ns, ca_dir_names *out)
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
void scan_load_prior_dirs(scan_state *S)
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

void scan_free_prior_dirs(scan_state *S)
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
void scan_collect_dirs(scan_state *S, ca_results *out)
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

void scan_free_dirs(scan_state *S)
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
void scan_load_base(scan_state *S)
{
    char *err = NULL;
    int rc = store_cache_base(S->o->cache, S->cache_key, &S->base.scan, &S->base_started_ns, &err);
    if (rc < 0 && !S->o->quiet) fprintf(stderr, "cancelaudit: not reusing earlier results: %s\n", err ? err : "?");
    free(err);
    if (rc != 0) ca_results_free(&S->base);
}

/* The base's files, functions and findings, for per-file reuse. */
void scan_load_base_rest(scan_state *S)
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
char *scan_found_tree_digest(scan_state *S, const ca_disc_file *files, size_t nfiles)
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
char *scan_recorded_tree_digest(const scan_state *S, const ca_file_rec *recs)
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

/* Read what a rescan in which nothing changed reports, ahead of knowing
 * whether nothing changed: it runs while discovery walks the tree (the
 * connection is idle then) and is dropped when the tree turns out to
 * differ. */
void *scan_read_taken(void *arg)
{
    scan_state *S = arg;
    char *err = NULL;
    S->taken_rc = store_load_reusable(S->o->cache, S->base.scan.id,
                                      STORE_DIAGNOSED | STORE_FINDINGS | STORE_COVERAGE | STORE_FAMILIES |
                                          STORE_ROWS_ID,
                                      &S->taken, &err);
    free(err);
    return NULL;
}

/* The results of a rescan in which nothing changed: the base's findings
 * and cells, file records as phase 1 would have made them, and rows_of so
 * that the store shares the base's rows. 0, or -1 when the base cannot be
 * read as expected (then the scan goes the long way). */
int scan_take_base(scan_state *S, ca_results *out)
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
        if (r->diagnostic) scan_diag(S, r->path, r->diagnostic);
    }
    out->files = got.files;
    out->nfiles = got.nfiles;
    out->findings = got.findings;
    out->nfindings = got.nfindings;
    out->coverage = got.coverage;
    out->ncoverage = got.ncoverage;
    out->families = got.families;
    out->nfamilies = got.nfamilies;
    out->scan.rows_of = got.scan.rows_of;
    out->scan.files_scanned = m->files_scanned;
    out->scan.files_skipped = m->files_skipped;
    out->scan.errors = m->errors;
    free(out->scan.tree_digest);
    out->scan.tree_digest = ca_xstrdup(m->tree_digest);
    free(out->scan.class_digest);
    out->scan.class_digest = m->class_digest ? ca_xstrdup(m->class_digest) : NULL;
    for (size_t k = 0; k < out->nfindings; k++) out->findings[k].baselined = 0; /* applied afresh by the caller */
    memset(&got, 0, sizeof(got));
    ca_results_sort(out);
    return 0;
}
