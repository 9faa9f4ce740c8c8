/*
 * bug.h — the findings that are one bug, and how the store reporters
 * explain one (bug.c). Findings of one rule at one checkpoint of one
 * function are one bug (a socket and its reader task that leak together),
 * not two. Its evidence is what a maintainer needs to see it: what leaks
 * and why each handler misses cancellation, the table of handlers, and the
 * code with the acquisition, the checkpoint and the handlers marked.
 *
 * Pipeline position: the end, below the reporters that show bugs (the issue
 * report, report_issue.c, and the evidence of a gap cell in the HTML
 * matrix, report_matrix.c) and above doc.h and source.h. It reads a
 * ca_results and the scanned sources and never re-runs analysis.
 */
#ifndef CA_REPORT_BUG_H
#define CA_REPORT_BUG_H

#include <stddef.h>

#include "model/model.h"
#include "report/doc.h"
#include "report/source.h"
#include "util/util.h"

/* One bug: its findings, pointers into the caller's array. */
typedef struct bug_group {
    const ca_finding **f;
    size_t n;
} bug_group;

typedef CA_VEC(bug_group) bug_groups;

/* Are a and b one bug (same path, function, rule and checkpoint line)? */
int bug_same(const ca_finding *a, const ca_finding *b);
/* Group fs[0..n), in ca_results_sort order, into bugs appended to *out;
 * the members of each come in the order they came into being (acquisition
 * line, then resource). The groups borrow fs's findings; free the arrays
 * with bug_groups_free(). */
void bug_group_findings(const ca_finding **fs, size_t n, bug_groups *out);
void bug_groups_free(bug_groups *g);

/* The one-line description of g, for headings and titles: "`open` leaks
 * `ws` and `reader` when cancelled before registration". */
void bug_phrase(doc_writer *d, const bug_group *g);
/* g's resources as code: "`ws` and `reader`". */
void bug_resources(doc_writer *d, const bug_group *g);
/* A handler's catches text as code: "`except Exception`", "`finally`". */
void bug_handler_code(doc_writer *d, const char *catches);
/* The evidence of g: the paragraph that explains it, the table of its
 * handlers (when it has any) and the excerpt of its code, or why there is
 * none. sc reads the sources; r holds the function records that bound the
 * excerpt. */
void bug_evidence(doc_writer *d, src_cache *sc, const ca_results *r, const bug_group *g);

#endif
