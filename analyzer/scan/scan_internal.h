/*
 * scan_internal.h — what the files of the scan driver share (scan.c,
 * link.c, reuse.c, collect.c): the state of one scan, its jobs and its
 * function table, and the functions one of them calls in another. Nothing
 * outside analyzer/scan/ includes it; the public header is scan.h.
 */
#ifndef CA_SCAN_INTERNAL_H
#define CA_SCAN_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coverage/family.h"
#include "coverage/matrix.h"
#include "discover/discover.h"
#include "engine/engine.h"
#include "frontend/lang.h"
#include "model/cache.h"
#include "scan/contain.h"
#include "scan/scan.h"

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
    int forced;           /* lowered although its language's prefilter skips it: it defines a class
                             that lowered code constructs (scan_classes_wanted) */
    char *src;
    size_t len;
    /* phase 3 output */
    ca_finding *findings;
    size_t nfindings;
} file_job;

/* A module's SPAWN_EXPORT record: jobs[file].m.spawns[spawn]. */
typedef struct export_ref {
    size_t file;
    int spawn;
} export_ref;

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

/* A class of the scan's modules and what the tree says of it. */
typedef struct cls_ref {
    const ir_class *c;
    int file;
    unsigned flags;       /* ENG_CLASS_* */
} cls_ref;

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
    /* SPAWN_EXPORT records of every module, sorted by the name bound */
    export_ref *exports;
    size_t nexports;
    /* classes of every module, and sorted by name */
    cls_ref *classes;
    size_t nclasses;
    size_t *cls_by_name;
    /* Python files that are plain modules (not a package's __init__),
     * sorted by their name without .py: which module a dotted name means */
    size_t *mod_by_stem;
    size_t nmod_by_stem;
    /* every directory and module name on the paths of those files, sorted,
     * without repeats (strings owned): which top-level names the tree has */
    char **path_names;
    size_t npath_names;
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
    atomic_int *prepared; /* ca_lang.prepare has run (under lang_lock) */
    pthread_mutex_t lang_lock;
    atomic_size_t parked_bytes; /* of files waiting for a gate with their bytes */
    int c_active;         /* rule_ctx.c_active: the languages' threads_in_scope */
    scan_contain *contain; /* phase 1's worker processes; NULL: lowering in process */
} scan_state;

/* A module's functions by the keys scan_resolve() looks them up by: methods
 * by (class, name), module-level functions by (qualname); ties keep module
 * order, so a lookup finds the first definition as a scan would. */
typedef struct fn_key {
    const char *a, *b;
    int index;
} fn_key;

/* What scan_resolve() keeps while it serves one file: the names it
 * resolved across files (for the file's deps record), and an index of the
 * module it was last asked about. Zero it, set S; scan_file_ctx_free. */
/* A resolved call, remembered by the summaries' fixed point (which asks
 * the same question of every call on every pass). */
typedef struct resolve_memo {
    const ir_func *caller;
    const char *text;          /* the call's text pointer (into the IR) */
    uint32_t start;
    unsigned on_self;
    const ir_func *callee;     /* NULL: not in the scan */
    const eng_summary *sum;
    int off;
} resolve_memo;

typedef struct file_ctx {
    scan_state *S;
    CA_VEC(const char *) deps; /* names resolved across files (point into the IR) */
    const ir_module *indexed;  /* the module the keys below are of */
    int has_locals;            /* it defines functions inside functions */
    CA_VEC(fn_key) methods;
    CA_VEC(fn_key) globals;
    /* set by the summaries' driver only: answers do not change between its
     * passes (names, not summaries, decide them), and it keeps no deps */
    resolve_memo *memo;
    size_t memo_cap, memo_n;
    int recording;             /* push every resolved callee's id on callee_ids */
    CA_VEC(int) callee_ids;
} file_ctx;

/* Hashing for digests (cache key, deps): a string (NULL differs from
 * every string) or a number into h. */
static inline uint64_t scan_hash_str(uint64_t h, const char *s)
{
    return s ? ca_hash64(s, strlen(s) + 1, h) : ca_hash64("\001", 1, h);
}

static inline uint64_t scan_hash_u64(uint64_t h, uint64_t v) { return ca_hash64(&v, sizeof(v), h); }

/* ---- scan.c ------------------------------------------------------------- */

/* A per-file diagnostic on stderr, one line (path and message shown
 * safely), unless the scan is quiet. */
void scan_diag(scan_state *S, const char *path, const char *msg);

/* ---- link.c: the function table and cross-file calls ------------------- */

/* (Re)build S->fns and the name indexes from every job's module. */
void scan_build_table(scan_state *S);
/* The engine's resolver (eng_resolver.fn); ctx is a file_ctx. */
const ir_func *scan_resolve(void *ctx, const ir_module *m, const ir_func *caller, const ir_node *call,
                            const eng_summary **summary, int *off);
void scan_file_ctx_free(file_ctx *fc);
/* The class table (classes.c), after scan_build_table; and the resolver's
 * class_of (ctx is a file_ctx). */
void scan_build_classes(scan_state *S);
unsigned scan_class_of(void *ctx, const ir_module *m, const char *name);
/* Whether a base the tree does not define is a plain one (object, Generic,
 * a data-model, protocol or ABC base of the catalog). */
int scan_plain_base(const scan_state *S, const char *base);
/* A class looked up across files is recorded in the deps under this prefix. */
#define CLASS_DEP "class."
/* The class of that name in m, else the one of that name in the scan, or NULL. */
const cls_ref *scan_find_class(const scan_state *S, const ir_module *m, const char *name);
/* Does some path of the tree have a directory or module named n[0..len)? */
int scan_tree_has_name(const scan_state *S, const char *n, size_t len);
/* The files the prefilter skipped that define a class lowered code makes
 * objects of (`tm = TimeoutHandle(...)` with TimeoutHandle in a module
 * without coroutines): marked forced and put in S->order for phase 1;
 * returns how many (0: none left). Each file is forced at most once. */
size_t scan_classes_wanted(scan_state *S);
/* Functions started as tasks by other modules (FN_SPAWNED_ELSEWHERE): set
 * on lowered functions; stale[file] = 1 (when stale is given) for a reused
 * file whose stored flag no longer holds. */
void scan_mark_spawns(scan_state *S, uint8_t *stale);
/* FN_MAIN_ONLY and FN_UNCANCELLED_VIA: the coroutines that run only in a
 * runner's main task (private or local ones, any in a module that runs
 * itself), or in a task nothing can cancel (any, in any module), as that
 * task's coroutine or awaited or entered in place, outside any timeout, at
 * every call of them in the tree, by coroutines that do. The calls are read
 * from lowered bodies and kept with each file (SPAWN_EDGE, SPAWN_SELF_CALL)
 * for a rescan that reuses it; stale[file] = 1 for a reused file whose
 * stored flag no longer holds. */
void scan_mark_main_only(scan_state *S, uint8_t *stale);
/* The job of the file at path (jobs are sorted by path), SIZE_MAX if none. */
size_t scan_job_by_path(const scan_state *S, const char *path);
/* Does every implementation in the tree of the abstract method (or stub) at
 * S->fns[stub_index] suspend nowhere (and is there one)? */
int scan_stub_quiet(const scan_state *S, size_t stub_index);
/* What the names resolve to across files, hashed, in the order given. */
uint64_t scan_deps_digest(const scan_state *S, const char *const *names, size_t n);

/* ---- reuse.c: what a rescan takes from the base scan -------------------- */

/* Everything besides the files that results depend on, as hex (heap). */
char *scan_cache_key(const ca_scan_opts *o);
/* The base scan's row (S->base.scan; id 0: none), then the rest of what
 * per-file reuse reads. Database errors only cost speed (a line on
 * stderr). */
void scan_load_base(scan_state *S);
void scan_load_base_rest(scan_state *S);
/* j->base and the base's rows for j's path, when they can be reused. */
void scan_attach_base(scan_state *S, file_job *j);
/* Take the base's results for j (1), or not (0: j is as it was). */
int scan_reuse(file_job *j);
/* Reused files whose cross-file names resolve differently now are let go
 * and listed in S->order for phase 1; returns how many. */
size_t scan_check_reused(scan_state *S);
/* Directory listings: the base's (loaded, freed), discover's on_dir and
 * recall hooks (ctx is S), and this scan's into out (scan_free_dirs frees
 * what was not handed over). */
void scan_load_prior_dirs(scan_state *S);
void scan_free_prior_dirs(scan_state *S);
void scan_on_dir(void *ctx, const char *dir, int64_t mtime_ns, const char *const *names, const unsigned char *types,
                 size_t n);
int scan_recall(void *ctx, const char *dir, int64_t mtime_ns, ca_dir_names *out);
void scan_collect_dirs(scan_state *S, ca_results *out);
void scan_free_dirs(scan_state *S);
/* Tree digests (heap hex, or NULL): of what discovery found, and the one
 * this scan records (recs: its file records, in job order). */
char *scan_found_tree_digest(scan_state *S, const ca_disc_file *files, size_t nfiles);
char *scan_recorded_tree_digest(const scan_state *S, const ca_file_rec *recs);
/* A thread's body (arg: S): read the base's results into S->taken. */
void *scan_read_taken(void *arg);
/* The base's results as this scan's, when nothing changed: 0, or -1. */
int scan_take_base(scan_state *S, ca_results *out);

/* ---- families.c: the backend families of the scan ----------------------- */

typedef struct scan_families {
    ca_fam_class *classes;   /* [k] describes S->classes[k] */
    int **bases;             /* the classes' resolved bases (owned) */
    size_t nclasses;
    ca_fam_method *methods;  /* ids are indices into S->fns */
    size_t nmethods;
    int *fn_class;           /* [S->fns index]: the class whose code it is, -1 module level */
    int configured;          /* backend globs are configured */
    char **dir_name;         /* [job]: the directory rule's name of its file (owned) */
    size_t njobs;
    ca_fam_set set;
    char *digest;            /* of the class graph, for ca_scan_meta.class_digest */
    /* scan_families_owner's answers, made on first use: per class (its
     * backend, or NULL), per job (the answer for code outside a member) */
    const char **cls_owner;
    const char **file_owner;
    uint8_t *file_known;
    ca_fam_owner_index *owner_index;
} scan_families;

/* The families of S's class table (after phase 2, while the jobs' records
 * are in place: their rec.backend holds the directory rule's names). Free
 * with scan_families_free. */
void scan_families_build(scan_state *S, scan_families *F);
void scan_families_free(scan_families *F);
/* The class of job `file` whose code the function `qualname` is (its
 * class_name when known), as an index into S->classes, or -1. */
int scan_families_class_of(const scan_state *S, int file, const char *qualname, const char *class_name);
/* The backend the code of class cls (-1: module level) in job `file` is,
 * "" for none (a string of F's or of the file record's). */
const char *scan_families_owner(const scan_state *S, const scan_families *F, int cls, int file);
/* The matrix's grids of F's families (*out: free with
 * scan_families_grids_free; the strings are F's). */
void scan_families_grids(const scan_families *F, ca_matrix_family **out, size_t *n);
void scan_families_grids_free(ca_matrix_family *g, size_t n);
/* out->families: F's families; without any, the one family of the older
 * rule (named fallback) when out->coverage has cells. */
void scan_families_results(const scan_families *F, const char *fallback, ca_results *out);

/* ---- collect.c: the results --------------------------------------------- */

/* A function's facts as the store keeps them (heap). */
char *scan_encode_facts(const scan_state *S, const fn_ref *r);
/* Move the jobs' records, findings and functions into out, with the
 * matrix; starts the early writer when the caller gave a sink. */
void scan_collect(scan_state *S, ca_results *out);

#endif
