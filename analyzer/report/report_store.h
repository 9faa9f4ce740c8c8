/*
 * report_store.h — the reporters that read a stored scan back: the backend
 * coverage matrix (text, Markdown, JSON, HTML; report_matrix.c) and the
 * issue-ready bug report (Markdown, HTML; report_issue.c), and what the two
 * share (report_store.c). Neither uses the other: both write through the
 * document writer of doc.h and show findings as bugs through bug.h.
 *
 * Pipeline position: the end. These functions take a ca_results that
 * store_load_scan() returned and never re-run analysis; the only thing they
 * read besides it are the scanned source files (path relative to the scan's
 * root; source.h), for code excerpts. A file that is gone or changed since
 * the scan is said so in the output, never an error.
 *
 * Escaping: every string from the scan is shown as data in each format
 * (doc.h says how).
 *
 * Errors: writers return 0, or -1 when writing to `out` failed.
 */
#ifndef CA_REPORT_STORE_H
#define CA_REPORT_STORE_H

#include <stdio.h>

#include "model/model.h"
#include "report/doc.h"
#include "util/util.h"

typedef enum rs_format { RS_TEXT = 0, RS_MARKDOWN, RS_JSON, RS_HTML } rs_format;

/* "text" / "markdown" (or "md") / "json" / "html" → *out; -1 when unknown. */
int rs_format_parse(const char *name, rs_format *out);

typedef struct rs_opts {
    /* CANCELAUDIT_REPRODUCIBLE: leave out what changes from run to run (scan
     * id, dates, scanned root, git revision, the database path) so that
     * golden files and the example reports under reports/ are stable. */
    int reproducible;
    int color;            /* text: ANSI colors */
    int width;            /* text: terminal columns to fit (0: 100) */
    const char *select;   /* the --select list that narrowed the cells, or NULL */
    const char *family;   /* matrix --family: only this family (its name, or a duck-typed
                             family's name without the '*'), or NULL */
    const char *boundary; /* matrix --boundary: only this boundary, as a list per family */
} rs_opts;

/* ---- matrix (report_matrix.c) ------------------------------------------ */

/* `matrix --select RULES`: recompute r's gap cells from its stored,
 * unsuppressed findings restricted to the selected rules. A gap keeps the
 * selected rules that still have a finding in it (and their lines); a gap
 * left with none becomes `covered` when the cell records a protection, else
 * `no-window`. An inherited cell keeps its status and loses the rules not
 * selected. Other cells are unchanged: a stored scan cannot show more than
 * it found. select uses ca_rule_selected() syntax. */
void report_matrix_select(ca_results *r, const char *select);

/* Whether r has a family o->family names (0 with *err listing the
 * families), and a boundary o->boundary names in it (or in any family);
 * NULL filters always exist. *err is heap, the caller frees it. */
int report_matrix_check(const ca_results *r, const rs_opts *o, char **err);

/* The matrix of r in fmt, one grid per family, the largest first. Without
 * --family or --boundary a family none of whose cells shows a window
 * (every cell no-window or absent) is not drawn but named at the end.
 * - text: per family a title, the classes that are not backends, a grid
 *   that fits o->width columns (the shorter axis across, cell text
 *   wrapped); then the legend and one compiler-style line per gap;
 * - markdown: per family a GitHub table with the shorter axis across, then
 *   a legend and the list of gaps;
 * - json: {tool, scan{id, status, started, finished, root, git_rev,
 *   version}, select, family, boundary, backends[], boundaries[],
 *   families[{name, kind, base, path, line, backends[{name, class, path,
 *   line}], excluded[{class, role, path, line}], boundaries[]}],
 *   coverage[{family, backend, boundary, status, rules[], protection, path,
 *   function, line, lines[]}]} (every family o's filters keep, drawn or
 *   not);
 * - html: one self-contained page (inline CSS, no script, no external
 *   resource): a section per family with its counts and colour-coded table
 *   (cells never break inside a word), each gap cell linking to a section
 *   with its findings, code excerpt and evidence.
 * With o->boundary each family that has it shows the one row as a list:
 * backend, status, protection or rules, file:line. */
int report_matrix(FILE *out, const ca_results *r, rs_format fmt, const rs_opts *o);

/* ---- issue report (report_issue.c) ------------------------------------- */

/* What `cancelaudit report` reports on: exactly one field is set. A
 * fingerprint may be a unique prefix (4 characters at least). */
typedef struct rs_target {
    const char *fingerprint;
    const char *backend;
    const char *boundary;
} rs_target;

/* Write the issue-ready report (Markdown or HTML) for t: title, summary,
 * "Describe the bug" per finding group (findings of one rule at one
 * checkpoint of one function: the resources that leak together), "Other
 * backends checked" (the matrix row of each boundary involved), "Expected
 * behaviour", "Suggested fix" (concrete, then the rule doc's "Use instead"),
 * "Debug information". Suppressed findings are left out unless named by
 * fingerprint.
 * Returns 0 written; 1 nothing to report (a known backend or boundary
 * without findings; nothing written, *err says so); 2 unknown or ambiguous
 * target (*err says which, nothing written); -1 write error. *err is a heap
 * string the caller frees. */
int report_issue(FILE *out, const ca_results *r, const rs_target *t, rs_format fmt, const rs_opts *o,
                 char **err);

/* ---- shared by report_matrix.c and report_issue.c (report_store.c) ---- */

/* Does finding f count for matrix cell c (one of the cell's rules, and the
 * cell's method or one of its gap lines; the same backend, or for an
 * inherited cell the same file)? */
int rs_finding_in_cell(const ca_coverage *c, const ca_finding *f);
/* The finding of r that puts gap line `line` into cell c from a helper the
 * boundary method calls (a same-backend method other than c->function),
 * so that a report can say "via `Class._helper`" and point at the
 * helper's file; NULL when the line is the boundary method's own. */
const ca_finding *rs_line_helper(const ca_results *r, const ca_coverage *c, int line);
/* The cell status as a fixed word ("gap", "covered", "no-window",
 * "inherited", "absent"; anything else "unknown"): what HTML classes and
 * data-status attributes carry, so no stored text reaches an attribute. */
const char *rs_status_word(const char *status);
/* The family record named name, or NULL (none; cells of an old scan). */
const ca_family *rs_family_named(const ca_results *r, const char *name);
/* Does cell c belong to the family named fam (NULL names the cells of no
 * family)? */
int rs_cell_in_family(const ca_coverage *c, const char *fam);
/* The covered cell of cells[0..n) to copy a fix from: the most specific
 * protection (except BaseException + shield first, exit stack last), then
 * the backend's name. NULL when none is covered. */
const ca_coverage *rs_precedent(const ca_coverage *const *cells, size_t n);
/* The one row of a boundary as a table: backend (marked "(this report)"
 * when it is reported_backend), status, protection or rules (a gap line in
 * a helper of r's findings says "via" it), where. */
void rs_boundary_table(doc_writer *d, const ca_results *r, const ca_coverage *const *cells, size_t n,
                       const char *reported_backend);
/* Is rule id listed in the comma-separated csv? */
int rs_csv_has(const char *csv, const char *id);
/* The next item of a "CAN101, CAN102" list at *p, spaces trimmed: its start
 * in *item and length in *n; *p moves past it. 0 when none is left (a NULL
 * list has none). */
int rs_csv_next(const char **p, const char **item, size_t *n);
/* The positive numbers of a "44,60,44" list, sorted and unique, as a heap
 * array in *out that the caller frees (NULL when there are none); returns
 * how many. */
size_t rs_lines_parse(const char *csv, int **out);
/* A cell's rules "CAN101,CAN102" written as the value "CAN101, CAN102". */
void rs_rules_val(doc_writer *d, const char *csv);
/* Sorted, de-duplicated line numbers of a "44,60,44" list as "44, 60"
 * (sep between them), appended to sb; returns how many. */
size_t rs_lines_list(ca_sb *sb, const char *csv, const char *sep);

/* The scan's metadata as shown in headers and debug sections, or NULL for
 * what reproducible output leaves out. */
const char *rs_meta_date(const ca_results *r, const rs_opts *o);


#endif
