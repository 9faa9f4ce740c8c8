/*
 * report_markdown.c — `scan --format markdown`: the findings as a table to
 * paste into an issue or a pull-request comment, then the coverage matrix
 * (report_matrix's Markdown) when the scan found boundaries. Reads only the
 * results; every value from source or paths is escaped for Markdown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/doc.h"
#include "report/report.h"
#include "report/report_store.h"

int report_markdown(FILE *out, const ca_results *r, const report_opts *o)
{
    ca_sb sb = {0};
    ca_finding *fs = report_sorted_findings(r);
    size_t listed = 0;
    for (size_t i = 0; i < r->nfindings; i++) listed += report_finding_listed(&fs[i], o) ? 1 : 0;
    ca_sb_adds(&sb, "# cancelaudit findings\n\n");
    ca_sb_addf(&sb, "%zu finding%s in %d file%s scanned (%d skipped without async code, %d error%s)",
               listed, listed == 1 ? "" : "s", r->scan.files_scanned, r->scan.files_scanned == 1 ? "" : "s",
               r->scan.files_skipped, r->scan.errors, r->scan.errors == 1 ? "" : "s");
    int hidden = report_baselined_count(r);
    if (hidden) ca_sb_addf(&sb, "; %d baselined", hidden);
    if (o && o->below_confidence)
        ca_sb_addf(&sb, "; %d below %s confidence", o->below_confidence, o->min_confidence ? o->min_confidence : "the minimum");
    ca_sb_adds(&sb, ".\n\n");
    if (listed) {
        ca_sb_adds(&sb, "| rule | location | function | resource | confidence | message |\n"
                        "| --- | --- | --- | --- | --- | --- |\n");
        for (size_t i = 0; i < r->nfindings; i++) {
            const ca_finding *f = &fs[i];
            if (!report_finding_listed(f, o)) continue;
            /* each value one code span, fenced past any backticks it holds */
            char *loc = ca_xasprintf("%s:%d:%d", f->path ? f->path : "", f->line, f->column);
            ca_sb_addf(&sb, "| %s | ", f->rule);
            doc_code_span(&sb, loc, 1);
            ca_sb_adds(&sb, " | ");
            doc_code_span(&sb, f->function, 1);
            ca_sb_adds(&sb, " | ");
            for (size_t k = 0; k < ca_finding_nresources(f); k++) {
                if (k) ca_sb_adds(&sb, ", ");
                doc_code_span(&sb, ca_finding_resource(f, k).name, 1);
            }
            ca_sb_addf(&sb, " | %s | ", ca_confidence_name(f->confidence));
            free(loc);
            ca_sb tmp = {0};
            doc_put(&tmp, f->message, DOC_PUT_MD_TEXT);
            /* a table cell: no raw pipes or line breaks */
            for (const char *p = ca_sb_str(&tmp); *p; p++) {
                if (*p == '|') ca_sb_adds(&sb, "\\|");
                else if (*p == '\n' || *p == '\r') ca_sb_addc(&sb, ' ');
                else ca_sb_addc(&sb, *p);
            }
            ca_sb_release(&tmp);
            ca_sb_adds(&sb, " |\n");
        }
        ca_sb_addc(&sb, '\n');
    }
    free(fs);
    if (report_emit(out, &sb) != 0) return -1;
    if (!r->ncoverage) return 0;
    rs_opts ro;
    memset(&ro, 0, sizeof(ro));
    ro.reproducible = getenv("CANCELAUDIT_REPRODUCIBLE") != NULL;
    return report_matrix(out, r, RS_MARKDOWN, &ro);
}
