/*
 * store.h — the SQLite system of record (DESIGN §5).
 *
 * Pipeline position: discover → parse → lower to IR → rules → **store** →
 * report. A scan writes its ca_results here; reporters, `diff` and the
 * incremental rescan read them back. Nothing else in the tree talks SQL.
 *
 * Life of a scan: store_begin_scan() commits the scan row as `running`
 * straight away; store_write_results() writes everything in one transaction
 * that also flips the row to `complete`. A crash or kill in between leaves
 * earlier scans intact and the row `running`; a `running` row whose process
 * is gone (or that was written on another host or before a reboot) reads back
 * as `partial`. "Latest" always means the newest *complete* scan.
 *
 * Errors: functions return 0 on success and -1 on failure with *err set to a
 * one-line heap message (the caller frees it) that begins "database PATH: "
 * (print it as it is); functions that look something up return 1 when it is
 * not there. No function ends the process.
 *
 * Threading: a ca_store is one SQLite connection; use it from one thread at a
 * time (the scan's writer thread). Several processes may share a database:
 * writers wait for each other (busy timeout), readers never block (WAL).
 */
#ifndef CA_STORE_H
#define CA_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

typedef struct ca_store ca_store;

/* The schema version this build writes and understands (PRAGMA user_version). */
#define STORE_SCHEMA_VERSION 5

/* Open or create the database at path (":memory:" works too). A missing
 * parent directory is created (mkdir -p); a parent directory named
 * `.cancelaudit` without a .gitignore gets one containing `*`. Sets WAL,
 * busy_timeout 10 s, foreign_keys and synchronous=NORMAL, and creates or
 * migrates the schema. Refuses a database with a newer schema version than
 * STORE_SCHEMA_VERSION, and a file that belongs to another application.
 * On success *out owns the connection (store_close frees it); on failure
 * returns -1, *out is NULL and *err holds the reason. */
int store_open(const char *path, ca_store **out, char **err);

/* After a write: copy the write-ahead log into the database file on a
 * thread of its own, while the caller goes on with other work; the
 * connection is that thread's until store_close, which waits for it.
 * (Connections opened here never checkpoint on their own.) */
void store_checkpoint_start(ca_store *st);

/* Close the connection and free st. NULL is fine. */
void store_close(ca_store *st);

/* Insert the scan row as `running` and commit it at once. Records this
 * process's pid, host and boot, meta's root, git_rev, args and version
 * (ca_version when NULL) and started (now when NULL). On success sets
 * meta->id, fills meta->started/version when they were NULL and sets
 * meta->status to "running" (meta keeps owning its strings). */
int store_begin_scan(ca_store *st, ca_scan_meta *meta, char **err);

/* Write r's files, functions, findings (with handlers), coverage and
 * families (with their members) under scan_id, then mark the scan `complete` with r->scan's counts and finished
 * time (now when NULL) — all in one transaction. When r->scan.rows_of names
 * a complete scan holding its own rows, and as many files, findings and
 * cells as r (a rescan in which nothing changed), no rows are copied: the
 * scan records rows_of and, in finding_flags, the findings r hides
 * (ca_finding.row_id says which row each is); otherwise a copy is written. scan_id must name a
 * `running` scan. On any error everything is rolled back, the row stays
 * `running` (it reads as partial once this process is gone) and -1 is
 * returned. r is not modified. */
int store_write_results(ca_store *st, int64_t scan_id, const ca_results *r, char **err);

/* The same in two parts, for a caller that writes while it works:
 * store_write_parts opens the transaction and writes the files and the
 * directory index; store_write_rest writes everything else of r (files
 * and directories left out), marks the scan complete and commits. Between
 * the two the transaction stays open (one thread at a time, as always);
 * store_write_abort rolls it back. On an error either rolls back and
 * returns -1. */
int store_write_parts(ca_store *st, int64_t scan_id, const ca_file_rec *files, size_t nfiles, const ca_dir_rec *dirs,
                      size_t ndirs, char **err);
int store_write_rest(ca_store *st, int64_t scan_id, const ca_results *r, char **err);
void store_write_abort(ca_store *st);

/* Load scan scan_id (0: the latest complete scan) into *out, which the
 * caller zeroed: meta (status "complete", "running" or "partial"), files,
 * functions, findings with handlers, coverage and families (none for a
 * scan stored before schema 4: its cells name no family), in
 * ca_results_sort order.
 * Returns 0; 1 with *err when there is no such scan; -1 on error (then *out
 * is freed and zeroed again). The caller frees *out with ca_results_free. */
int store_load_scan(ca_store *st, int64_t scan_id, ca_results *out, char **err);

/* All scans, newest first, with their computed status. *out is a heap array
 * of *n entries (NULL when none); free it with store_scans_free. */
int store_list_scans(ca_store *st, ca_scan_meta **out, size_t *n, char **err);
void store_scans_free(ca_scan_meta *scans, size_t n);

/* The latest complete scan's id and start time in ns since the epoch
 * (CLOCK_REALTIME; a file whose mtime is not older than this may have changed
 * during that scan). Returns 0, 1 when there is no complete scan, -1 on
 * error. started_ns may be NULL. */
int store_latest_complete(ca_store *st, int64_t *scan_id, int64_t *started_ns, char **err);

/* For incremental rescans: the record of `path` in the latest complete scan
 * (path, size, mtime_ns, hash, status, parse data, backend, language) into
 * *out, and that scan's id into *scan_id (may be NULL; the rows may be
 * those of an earlier scan that it shares). Returns 0 found,
 * 1 not found (no *err), -1 on error. On 0 the caller owns *out's strings
 * and frees them with store_file_rec_free. */
int store_cached_file(ca_store *st, const char *path, ca_file_rec *out, int64_t *scan_id, char **err);
void store_file_rec_free(ca_file_rec *f);

/* Append the findings (with handlers) and functions of `path` in scan
 * scan_id to out's arrays, for reusing an unchanged file's results. Order is
 * storage order; call ca_results_sort when done appending. Returns 0 (also
 * when there is nothing to append) or -1; on error out may already hold some
 * of the appended entries and stays valid for ca_results_free. */
int store_load_file_results(ca_store *st, int64_t scan_id, const char *path, ca_results *out, char **err);

/* For incremental rescans: the newest complete scan recorded with
 * cache_key (ca_scan_meta.cache_key): its row into *meta (the caller frees
 * its strings, e.g. through a ca_results holding it) and its start in ns
 * since the epoch. Returns 0, 1 when there is none (no *err), -1 on error. */
int store_cache_base(ca_store *st, const char *cache_key, ca_scan_meta *meta, int64_t *started_ns, char **err);

/* Append the parts of scan scan_id named in `parts` (STORE_FILES ...) to
 * out's arrays, in storage order, read as one snapshot; the scan row is not
 * read. Findings keep the flags of the scan that owns the rows (reused
 * findings have their baseline applied afresh). STORE_ROWS_ID sets
 * out->scan.rows_of to the scan that holds scan_id's rows (itself, or the
 * scan it shares them with): the scan to name when a rescan's results are
 * these rows unchanged. Returns 0 or -1; on error out may hold part of the
 * rows and stays valid for ca_results_free. */
enum {
    STORE_FILES = 1u << 0,
    STORE_FUNCTIONS = 1u << 1,
    STORE_FINDINGS = 1u << 2,
    STORE_COVERAGE = 1u << 3,
    STORE_ROWS_ID = 1u << 4,
    STORE_DIAGNOSED = 1u << 5, /* only the files that carry a diagnostic */
    STORE_FAMILIES = 1u << 6,
};
int store_load_reusable(ca_store *st, int64_t scan_id, unsigned parts, ca_results *out, char **err);

/* The directory listings scan scan_id's walk made (or the scan whose rows
 * it shares), as one blob in cache.h's ca_dirs format: *blob is the
 * caller's (free it). Returns 0, 1 when there is none, -1 on error. */
int store_load_dir_index(ca_store *st, int64_t scan_id, char **blob, size_t *len, char **err);

/* ---- merge.c: the stores of sharded scans made one ---------------------- */

/* One input of store_merge: path is the caller's; the rest is filled in. */
typedef struct store_merge_part {
    const char *path;
    int64_t scan_id;     /* the input's latest complete scan, which was merged */
    int64_t files, findings, cells, families;
} store_merge_part;

/* Add to `out` one complete scan holding the latest complete scan of each
 * store parts[i].path (opened with store_open one at a time, so an older
 * schema is migrated; read in one read transaction each): its files,
 * functions, findings with handlers, coverage cells, families with their
 * members and directory listings, ids renumbered and every other column
 * kept (a shard scan that shares an earlier scan's rows contributes those
 * rows, with its own baselined flags; the shards' families are each
 * shard's own, put in a scan's largest-first order, and a name two shards
 * use is made unique). The scan row: the earliest start and latest finish,
 * the summed counts, the common directory of the roots, the git revision
 * and cache key when every shard has the same one (else NULL; the class
 * digest always NULL), the versions seen, `args`. All in one transaction: on any failure `out` is
 * unchanged. Returns 0 with *scan_id; 1 when an input holds no complete
 * scan; 2 when a file path is in two inputs (the shards must be disjoint);
 * -1 on other errors; *err says why. The input paths must not name out's
 * file. */
int store_merge(ca_store *out, store_merge_part *parts, size_t n, const char *args, int64_t *scan_id, char **err);

#endif
