/*
 * diff.h — comparing two stored scans by finding fingerprint (DESIGN §5):
 * which findings are new, which are fixed, which are unchanged. Backs
 * `cancelaudit diff OLD NEW`.
 *
 * Fingerprints survive line shifts and unrelated edits (rule + file +
 * function + resource + normalized checkpoint text), so a finding that only
 * moved is unchanged. Suppressed findings take no part on either side: a
 * finding suppressed in the new scan counts as fixed, like the scan's exit
 * code counts it. Equal fingerprints are matched one to one, so two
 * findings that share one and become one again show one fixed.
 */
#ifndef CA_DIFF_H
#define CA_DIFF_H

#include <stdio.h>

#include "model/model.h"
#include "report/report_store.h"

typedef struct ca_diff {
    const ca_finding **added;     /* in the new scan only (pointers into it) */
    size_t nadded;
    const ca_finding **fixed;     /* in the old scan only (pointers into it) */
    size_t nfixed;
    const ca_finding **unchanged; /* in both: the new scan's finding */
    size_t nunchanged;
} ca_diff;

/* Compare old and new_. Each list comes out in ca_results_sort order. The
 * pointers borrow from old and new_, which must outlive *out; free the lists
 * with ca_diff_free. */
void ca_diff_compute(const ca_results *old, const ca_results *new_, ca_diff *out);
void ca_diff_free(ca_diff *d);

/* Text: a summary line "scan 3 -> scan 5: 1 new, 0 fixed, 9 unchanged",
 * then "new:" and "fixed:" sections of compiler-style lines with the
 * fingerprint, then "families:" when the scans' families differ (a family
 * added or removed, backends that joined or left one; not said when either
 * scan predates families or both share one class-graph digest). JSON:
 * {tool, old_scan{id, status, started, root, git_rev}, new_scan{...},
 * summary{new, fixed, unchanged}, new[], fixed[], unchanged[], families[{name,
 * change: added|removed|changed, backends_added[], backends_removed[]}]}
 * with findings {fingerprint, rule, severity, path, line, column,
 * function, backend, resource, resource_kind, message}. o may be
 * NULL; o->reproducible leaves out ids, dates and roots. Returns 0, or -1
 * when writing failed. */
int report_diff(FILE *out, const ca_results *old, const ca_results *new_, const ca_diff *d, rs_format fmt,
                const rs_opts *o);

#endif
