/*
 * doc.h — how a string from a scan is shown in each output format, and the
 * document writer that writes one page as Markdown or HTML from the same
 * calls (doc.c).
 *
 * Pipeline position: the bottom of the reporters. The store reporters
 * (report_store.h) write their pages through rs_doc; report_markdown.c and
 * diff.c use the escaping alone. Nothing here reads a ca_results.
 *
 * Escaping: every string in a ca_results and every source line came from
 * code or paths somebody else wrote. Each format treats them as data:
 * terminal text shows control characters, invalid UTF-8 and bidirectional
 * overrides as visible escapes; Markdown puts them in code spans (fences
 * longer than any backtick run inside, `|` escaped in tables, newlines shown
 * as \n) or backslash-escapes them; HTML escapes them as entities. Nothing
 * from the scan can open a tag, a link, a table cell or a mention.
 *
 * Memory: a writer appends to the caller's ca_sb and owns nothing.
 */
#ifndef CA_REPORT_DOC_H
#define CA_REPORT_DOC_H

#include <stddef.h>

#include "util/util.h"

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
/* Code points in s[0..n): the columns of text already escaped for TERM. */
size_t rs_utf8_width(const char *s, size_t n);

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

#endif
