/*
 * doc.h — how a string from a scan is shown in each output format, and the
 * document writer that writes one page as Markdown or HTML from the same
 * calls (doc.c).
 *
 * Pipeline position: the bottom of the reporters. The store reporters
 * (report_store.h, bug.h) write their pages through doc_writer;
 * report_markdown.c and diff.c use the escaping alone. Nothing here reads a
 * ca_results.
 *
 * Escaping: every string in a ca_results and every source line came from
 * code or paths somebody else wrote. Each format treats them as data:
 * terminal text shows control characters, invalid UTF-8 and bidirectional
 * overrides as visible escapes; Markdown puts them in code spans (fences
 * longer than any backtick run inside, `|` escaped in tables, newlines shown
 * as \n) or backslash-escapes them; HTML escapes them as entities. Nothing
 * from the scan can open a tag, a link, a table cell or a mention.
 *
 * Memory: a writer appends to the caller's ca_sb and owns nothing; start
 * one as (doc_writer){.sb = sb, .html = 0 or 1}.
 */
#ifndef CA_REPORT_DOC_H
#define CA_REPORT_DOC_H

#include <stddef.h>

#include "util/util.h"

/* How doc_put shows a string. */
typedef enum doc_mode {
    DOC_PUT_TERM = 0,   /* terminal: visible escapes for controls, bidi, bad UTF-8 */
    DOC_PUT_HTML,       /* entities for & < > " ', plus the terminal escapes */
    DOC_PUT_HTML_BLOCK, /* HTML inside <pre>: like HTML, tabs kept */
    DOC_PUT_MD_TEXT,    /* Markdown prose: markup punctuation backslash-escaped */
    DOC_PUT_CODE,       /* inside a code span: only the terminal escapes */
    DOC_PUT_CODE_CELL,  /* inside a code span in a table cell: also `|` → `\|` */
    DOC_PUT_BLOCK       /* a line of a code block: like CODE, tabs kept */
} doc_mode;

/* Append s (NULL: nothing) to sb, escaped for mode. */
void doc_put(ca_sb *sb, const char *s, doc_mode mode);
void doc_put_n(ca_sb *sb, const char *s, size_t n, doc_mode mode);
/* s as one Markdown code span: escaped as DOC_PUT_CODE (DOC_PUT_CODE_CELL
 * when in_cell), between fences one backtick longer than the longest run
 * inside, padded with a space where CommonMark would otherwise eat one or
 * merge a backtick with the fence. Every inline code in our Markdown is
 * written by this (doc_code too). */
void doc_code_span(ca_sb *sb, const char *s, int in_cell);
/* Code points doc_put(TERM) would show for s: the text matrix's widths. */
size_t doc_display_width(const char *s);
/* Code points in s[0..n): the columns of text already escaped for TERM. */
size_t doc_utf8_width(const char *s, size_t n);

/* A document being written as Markdown or HTML. The writer keeps just
 * enough state to escape correctly (inside a table cell or not) and to
 * close Markdown tables (the separator after the first row). */
typedef struct doc_writer {
    ca_sb *sb;
    int html;
    int in_cell;          /* inside a table cell */
    int row;              /* rows written in the current table */
    int cols;             /* cells in the current row */
    int head_cols;        /* cells of the table's first row */
} doc_writer;

void doc_lit(doc_writer *d, const char *s);     /* our own prose (HTML-escaped; Markdown as is) */
void doc_litf(doc_writer *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What goes before item i of n in "a, b, and c" (prose of our own): nothing
 * before the first, " and " before the second of two, ", and " before the
 * last of more, else ", ". */
void doc_sep(doc_writer *d, size_t i, size_t n);
void doc_val(doc_writer *d, const char *s);     /* a value from the scan, as escaped prose */
void doc_code(doc_writer *d, const char *s);    /* a value from the scan, as inline code */
void doc_strong(doc_writer *d, const char *s);  /* our own word, bold */
void doc_raw(doc_writer *d, const char *md, const char *html); /* format-specific literal markup */
void doc_heading(doc_writer *d, int level, const char *anchor); /* anchor: HTML id or NULL */
void doc_heading_end(doc_writer *d, int level);
void doc_para(doc_writer *d);
void doc_para_end(doc_writer *d);
void doc_list(doc_writer *d);
void doc_item(doc_writer *d);
void doc_item_end(doc_writer *d);
void doc_list_end(doc_writer *d);
void doc_table(doc_writer *d, const char *css_class);
void doc_row(doc_writer *d);
void doc_row_end(doc_writer *d);
/* header: a <th>; css_class / data_status may be NULL (HTML attributes). */
void doc_cell(doc_writer *d, int header, const char *css_class, const char *data_status);
void doc_cell_end(doc_writer *d);
void doc_table_end(doc_writer *d);
/* `path:line` (just `path` when line <= 0) as inline code; NULL: nothing. */
void doc_loc(doc_writer *d, const char *path, int line);
void doc_link(doc_writer *d, const char *anchor); /* HTML: <a href="#anchor">; Markdown: nothing */
void doc_link_end(doc_writer *d);
/* A trusted Markdown snippet (a rule doc section): as is, or rendered to
 * HTML (paragraphs, fenced code, `-` lists, inline code). */
void doc_markdown(doc_writer *d, const char *md);
/* The HTML page around a document: doctype, a Content-Security-Policy that
 * allows inline styles and nothing else, the shared style sheet, <title>
 * (title is escaped). */
void doc_html_page_begin(doc_writer *d, const char *title);
void doc_html_page_end(doc_writer *d);

/* One line of a code excerpt. mark: ' ', 'A' acquired, '>' unprotected
 * checkpoint, '!' handler that misses cancellation; elided: a "..." line
 * (lineno and text unused). */
typedef struct doc_excerpt_line {
    int lineno;
    char mark;
    int elided;
    const char *text;
    size_t len;
} doc_excerpt_line;
void doc_excerpt(doc_writer *d, const doc_excerpt_line *lines, size_t n);

#endif
