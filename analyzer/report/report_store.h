/*
 * report_store.h — the reporters that read a stored scan back: the backend
 * coverage matrix (text, Markdown, JSON, HTML; report_matrix.c) and the
 * issue-ready bug report (Markdown, HTML; report_issue.c), plus the small
 * document writer both share so that one piece of code writes a section in
 * Markdown and in HTML alike.
 *
 * Pipeline position: the end. These functions take a ca_results that
 * store_load_scan() returned and never re-run analysis; the only thing they
 * read besides it are the scanned source files (path relative to the scan's
 * root), for code excerpts. A file that is gone or changed since the scan is
 * said so in the output, never an error.
 *
 * Escaping: every string in a ca_results and every source line came from
 * code or paths somebody else wrote. Each format treats them as data:
 * terminal text shows control characters, invalid UTF-8 and bidirectional
 * overrides as visible escapes; Markdown puts them in code spans (fences
 * longer than any backtick run inside, `|` escaped in tables, newlines shown
 * as \n) or backslash-escapes them; HTML escapes them as entities. Nothing
 * from the scan can open a tag, a link, a table cell or a mention.
 *
 * Errors: writers return 0, or -1 when writing to `out` failed.
 */
#ifndef CA_REPORT_STORE_H
#define CA_REPORT_STORE_H

#include <stdio.h>

#include "util/json.h"
#include "model/model.h"
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
} rs_opts;

/* ---- matrix (report_matrix.c) ------------------------------------------ */

/* `matrix --select RULES`: recompute r's gap cells from its stored,
 * unsuppressed findings restricted to the selected rules. A gap keeps the
 * selected rules that still have a finding in it (and their lines); a gap
 * left with none becomes `covered` when the cell records a protection, else
 * `no-window`. Other cells are unchanged: a stored scan cannot show more
 * than it found. select uses ca_rule_selected() syntax. */
void report_matrix_select(ca_results *r, const char *select);

/* The matrix of r in fmt:
 * - text: a grid that fits o->width columns (the shorter axis across, cell
 *   text wrapped), then one compiler-style line per gap;
 * - markdown: a GitHub table (backends down, boundaries across), a legend
 *   and the list of gaps;
 * - json: {tool, scan{id, status, started, finished, root, git_rev,
 *   version}, select, backends[], boundaries[], coverage[{backend, boundary,
 *   status, rules[], protection, path, function, line, lines[]}]};
 * - html: one self-contained page (inline CSS, no script, no external
 *   resource): the colour-coded table, each gap cell linking to a section
 *   with its findings, code excerpt and evidence. */
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

/* ---- shared by report_matrix.c, report_issue.c and diff.c -------------- */

/* How rs_put shows a string. */
typedef enum rs_mode {
    RS_PUT_TERM = 0,   /* terminal: visible escapes for controls, bidi, bad UTF-8 */
    RS_PUT_HTML,       /* entities for & < > " ', plus the terminal escapes */
    RS_PUT_HTML_BLOCK, /* HTML inside <pre>: like HTML, tabs kept */
    RS_PUT_MD_TEXT,    /* Markdown prose: markup punctuation backslash-escaped */
    RS_PUT_CODE,       /* inside a code span: only the terminal escapes */
    RS_PUT_CODE_CELL,  /* inside a code span in a table cell: also `|` → `\|` */
    RS_PUT_BLOCK       /* a line of a code block: like CODE, tabs kept */
} rs_mode;

/* Append s (NULL: nothing) to sb, escaped for mode. */
void rs_put(ca_sb *sb, const char *s, rs_mode mode);
void rs_put_n(ca_sb *sb, const char *s, size_t n, rs_mode mode);
/* Code points rs_put(TERM) would show for s: the text matrix's widths. */
size_t rs_display_width(const char *s);

/* A document being written as Markdown or HTML. The writer keeps just
 * enough state to escape correctly (inside a table cell or not) and to
 * close Markdown tables (the separator after the first row). */
typedef struct rs_doc {
    ca_sb *sb;
    int html;
    int in_cell;          /* inside a table cell */
    int row;              /* rows written in the current table */
    int cols;             /* cells in the current row */
    int head_cols;        /* cells of the table's first row */
} rs_doc;

void rs_lit(rs_doc *d, const char *s);     /* our own prose (HTML-escaped; Markdown as is) */
void rs_litf(rs_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rs_val(rs_doc *d, const char *s);     /* a value from the scan, as escaped prose */
void rs_code(rs_doc *d, const char *s);    /* a value from the scan, as inline code */
void rs_strong(rs_doc *d, const char *s);  /* our own word, bold */
void rs_raw(rs_doc *d, const char *md, const char *html); /* format-specific literal markup */
void rs_heading(rs_doc *d, int level, const char *anchor); /* anchor: HTML id or NULL */
void rs_heading_end(rs_doc *d, int level);
void rs_para(rs_doc *d);
void rs_para_end(rs_doc *d);
void rs_list(rs_doc *d);
void rs_item(rs_doc *d);
void rs_item_end(rs_doc *d);
void rs_list_end(rs_doc *d);
void rs_table(rs_doc *d, const char *css_class);
void rs_row(rs_doc *d);
void rs_row_end(rs_doc *d);
/* header: a <th>; css_class / data_status may be NULL (HTML attributes). */
void rs_cell(rs_doc *d, int header, const char *css_class, const char *data_status);
void rs_cell_end(rs_doc *d);
void rs_table_end(rs_doc *d);
/* `path:line` (just `path` when line <= 0) as inline code; NULL: nothing. */
void rs_loc(rs_doc *d, const char *path, int line);
void rs_link(rs_doc *d, const char *anchor); /* HTML: <a href="#anchor">; Markdown: nothing */
void rs_link_end(rs_doc *d);
/* A trusted Markdown snippet (a rule doc section): as is, or rendered to
 * HTML (paragraphs, fenced code, `-` lists, inline code). */
void rs_markdown(rs_doc *d, const char *md);
/* The HTML page around a document: doctype, a Content-Security-Policy that
 * allows inline styles and nothing else, the shared style sheet, <title>
 * (title is escaped). */
void rs_html_page_begin(rs_doc *d, const char *title);
void rs_html_page_end(rs_doc *d);

/* One line of a code excerpt. mark: ' ', 'A' acquired, '>' unprotected
 * checkpoint, '!' handler that misses cancellation; elided: a "..." line
 * (lineno and text unused). */
typedef struct rs_excerpt_line {
    int lineno;
    char mark;
    int elided;
    const char *text;
    size_t len;
} rs_excerpt_line;
void rs_excerpt(rs_doc *d, const rs_excerpt_line *lines, size_t n);

/* Does finding f count for matrix cell c (same backend, one of the cell's
 * rules, and the cell's method or one of its gap lines)? */
int rs_finding_in_cell(const ca_coverage *c, const ca_finding *f);
/* The cell status as a fixed word ("gap", "covered", "no-window",
 * "absent"; anything else "unknown"): what HTML classes and data-status
 * attributes carry, so no stored text reaches an attribute. */
const char *rs_status_word(const char *status);
/* Is rule id listed in the comma-separated csv? */
int rs_csv_has(const char *csv, const char *id);
/* "CAN101,CAN102" appended to sb as "CAN101, CAN102". */
void rs_rules_list(ca_sb *sb, const char *csv);
/* Sorted, de-duplicated line numbers of a "44,60,44" list as "44, 60"
 * (sep between them), into sb. */
void rs_lines_list(ca_sb *sb, const char *csv, const char *sep);

/* The scan's metadata as shown in headers and debug sections, or NULL for
 * what reproducible output leaves out. */
const char *rs_meta_date(const ca_results *r, const rs_opts *o);


/* report_issue.c: the evidence of one gap cell (its findings grouped, each
 * with explanation, handler table and excerpt), as used by the HTML matrix.
 * level: heading level of each group. */
void rs_cell_evidence(rs_doc *d, const ca_results *r, const ca_coverage *cell, int level);

#endif
