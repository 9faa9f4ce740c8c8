/*
 * scan.h — the pipeline driver: discover → parse → lower → summaries →
 * rules → matrix, over a pool of worker threads (one parser each). The
 * caller stores and reports the ca_results it fills.
 */
#ifndef CA_SCAN_H
#define CA_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "coverage/backend.h"
#include "catalog/catalog.h"
#include "model/model.h"
#include "store/store.h"

typedef struct ca_scan_opts {
    const char *const *paths;
    size_t npaths;
    const char *const *excludes;
    size_t nexcludes;
    int jobs;                  /* 0: number of cores */
    const char *select, *ignore;
    int strict;
    int64_t max_size;          /* 0: default */
    const ca_catalog *cat;
    const ca_backend_map *maps;
    size_t nmaps;
    int progress;              /* draw a progress line on stderr */
    int quiet;                 /* no per-file diagnostics on stderr */
    /* Reuse unchanged files' results from the newest complete scan in this
     * store with the same cache key (DESIGN §9); NULL: analyse every file.
     * Read by one helper thread while the tree is walked, before the workers
     * start; the caller must not use it until ca_scan_run returns. */
    ca_store *cache;
    /* The results will be stored: keep what the next scan may reuse that
     * only a walk sees (out->dirs, the directory listings). */
    int record;
    /* When set, the scan writes what is final early (files and directory
     * listings) into an open transaction of this store for scan sink_scan,
     * on a thread of its own while it finishes its work, and sets
     * out->stored_parts; the caller then completes it with
     * store_write_rest (or store_write_abort). Same connection as cache is
     * fine: the scan uses one thread at a time on it. */
    ca_store *sink;
    int64_t sink_scan;
    /* Free the scan's working state on a thread of its own after the
     * results are out; the caller must call ca_scan_reap() before it
     * exits (or runs another scan). */
    int defer_free;
    /* C files: a directory whose compile_commands.json gives every C file's
     * flags (NULL: look next to each file, up to its scanned root); and when
     * CAN501-CAN503 apply: 0 when the scanned code calls pthread_cancel,
     * 1 always, -1 never. */
    const char *compile_commands;
    int c_cancel_scope;
    /* Each file is parsed and lowered in a worker process (scan/contain.h)
     * with these limits: CPU seconds and bytes of memory; 0: the defaults
     * below, negative: no limit. A file past one gets a diagnostic. */
    double file_timeout;
    int64_t file_memory;
    /* A digest of what the caller does to the results before storing them
     * (cli_scan.c drops the findings per-file-ignores leave out), hashed
     * into the cache key so a rescan never reuses results filtered
     * otherwise. NULL: nothing. */
    const char *results_key;
} ca_scan_opts;

#define CA_FILE_TIMEOUT_DEFAULT 60.0
#define CA_FILE_MEMORY_DEFAULT ((int64_t)2 << 30)

/* Run the scan into *out (zeroed by caller, scan metadata aside). Sets
 * out->scan.cache_key: a digest of the tool build, the catalog and every
 * option above that changes results (an option added here that changes
 * results must be hashed into it: see scan_cache_key() in reuse.c). Files,
 * functions (with their cache facts) and findings come out in a stable
 * order whatever the number of jobs. Per-file problems become file
 * records with diagnostics (and lines on stderr unless quiet). Returns 0;
 * 2 for a usage problem (a named path that does not exist) with *err; 3 for
 * an internal failure with *err. */
int ca_scan_run(const ca_scan_opts *o, ca_results *out, char **err);

/* Wait for the state a scan with defer_free left to be freed. */
void ca_scan_reap(void);

#endif
