/*
 * scan.h — the pipeline driver: discover → parse → lower → summaries →
 * rules → matrix, over a pool of worker threads (one parser each). The
 * caller stores and reports the ca_results it fills.
 */
#ifndef CA_SCAN_H
#define CA_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "catalog.h"
#include "model.h"

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
} ca_scan_opts;

/* Run the scan into *out (zeroed by caller). Per-file problems become file
 * records with diagnostics (and lines on stderr unless quiet). Returns 0;
 * 2 for a usage problem (a named path that does not exist) with *err; 3 for
 * an internal failure with *err. */
int ca_scan_run(const ca_scan_opts *o, ca_results *out, char **err);

/* The bracket depth above which a file is refused before parsing. */
#define CA_MAX_BRACKET_DEPTH 1000

#endif
