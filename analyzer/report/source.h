/*
 * source.h — the scanned source files as they are now, read back for the
 * code excerpts and quoted checkpoints of the store reporters (source.c).
 *
 * Pipeline position: the end, below bug.c. A stored path is read relative
 * to the scan's root. A file that is gone is kept with the errno of the
 * read, and one whose content hash differs from the scan's is marked
 * changed, so that a report can say so instead of failing.
 *
 * Memory: a src_cache owns every file it has read until src_cache_free();
 * start one as (src_cache){.r = r}.
 */
#ifndef CA_REPORT_SOURCE_H
#define CA_REPORT_SOURCE_H

#include <stddef.h>

#include "model/model.h"
#include "util/util.h"

typedef struct src_file {
    char *path;        /* as stored */
    char *full;        /* where it was looked for */
    char *text;        /* NULL when unreadable */
    size_t len;
    int err;           /* errno of the read */
    int changed;       /* content hash differs from the scan's */
    size_t *off;       /* start of each line */
    size_t nlines;
} src_file;

typedef struct src_cache {
    const ca_results *r;
    CA_VEC(src_file) files;
} src_cache;

/* The file at the stored path (NULL: NULL), read on first use. Its text is
 * NULL when it could not be read (err says why). The pointer stays valid
 * until the next src_get() or src_cache_free(). */
src_file *src_get(src_cache *c, const char *path);
/* Line lineno (1-based) of f, without its line ending, into *s and *n; 0
 * when f is NULL or unreadable or the line is out of range. */
int src_line(const src_file *f, int lineno, const char **s, size_t *n);
void src_cache_free(src_cache *c);

#endif
