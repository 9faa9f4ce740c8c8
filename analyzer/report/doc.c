/*
 * doc.c — how text from a scan is shown in each output format (doc_put),
 * and the small Markdown/HTML document writer (doc_writer) that the store
 * reporters write their pages with, so that a section is written once and
 * comes out in both formats (doc.h).
 *
 * Pipeline position: the last step of the reporters, below those that write
 * pages (report_matrix.c, report_issue.c, bug.c) and those that only escape
 * (report_markdown.c, diff.c). It knows nothing of ca_results: it escapes
 * and lays out the strings it is given.
 */
#include "report/doc.h"
#include "util/json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- escaping ------------------------------------------------------------ */

/* Code points that would let a string reorder or hide what the reader sees. */
static int visible_cp(int32_t cp)
{
    if (cp >= 0x80 && cp <= 0x9F) return 0;                    /* C1 controls */
    if (cp == 0x200E || cp == 0x200F || cp == 0x061C) return 0; /* bidi marks */
    if (cp >= 0x202A && cp <= 0x202E) return 0;                /* embeddings, overrides */
    if (cp >= 0x2066 && cp <= 0x2069) return 0;                /* isolates */
    if (cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF) return 0;
    return 1;
}

/* Markdown punctuation that could start markup inline: emphasis, code,
 * links, raw HTML, entities, tables, strikethrough, mentions, headings. */
static int md_special(unsigned char c) { return c && strchr("\\`*_{}[]<>#|~&@!", c) != NULL; }

void doc_put_n(ca_sb *sb, const char *s, size_t n, doc_mode mode)
{
    if (!s) return;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            size_t adv;
            int32_t cp = ca_json_utf8_next(s + i, n - i, &adv);
            if (cp < 0) ca_sb_adds(sb, "\xEF\xBF\xBD");
            else if (!visible_cp(cp)) ca_sb_addf(sb, "\\u%04x", (unsigned)cp);
            else ca_sb_add(sb, s + i, adv);
            i += adv;
            continue;
        }
        i++;
        if (c < 0x20 || c == 0x7F) {
            if (c == '\t' && (mode == DOC_PUT_BLOCK || mode == DOC_PUT_HTML_BLOCK)) ca_sb_addc(sb, '\t');
            else if (c == '\n') ca_sb_adds(sb, "\\n");
            else if (c == '\r') ca_sb_adds(sb, "\\r");
            else if (c == '\t') ca_sb_adds(sb, "\\t");
            else ca_sb_addf(sb, "\\x%02x", c);
            continue;
        }
        switch (mode) {
        case DOC_PUT_HTML:
        case DOC_PUT_HTML_BLOCK:
            if (c == '&') ca_sb_adds(sb, "&amp;");
            else if (c == '<') ca_sb_adds(sb, "&lt;");
            else if (c == '>') ca_sb_adds(sb, "&gt;");
            else if (c == '"') ca_sb_adds(sb, "&quot;");
            else if (c == '\'') ca_sb_adds(sb, "&#39;");
            else ca_sb_addc(sb, (char)c);
            break;
        case DOC_PUT_MD_TEXT:
            /* a leading list or heading marker, or markup anywhere */
            if (md_special(c) || (i == 1 && strchr("-+.=", c))) ca_sb_addc(sb, '\\');
            ca_sb_addc(sb, (char)c);
            break;
        case DOC_PUT_CODE_CELL:
            if (c == '|') ca_sb_addc(sb, '\\');
            ca_sb_addc(sb, (char)c);
            break;
        default:
            ca_sb_addc(sb, (char)c);
            break;
        }
    }
}

void doc_put(ca_sb *sb, const char *s, doc_mode mode)
{
    if (s) doc_put_n(sb, s, strlen(s), mode);
}

size_t doc_utf8_width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) w++;
    return w;
}

size_t doc_display_width(const char *s)
{
    ca_sb sb = {0};
    doc_put(&sb, s, DOC_PUT_TERM);
    size_t w = doc_utf8_width(ca_sb_str(&sb), sb.len);
    ca_sb_release(&sb);
    return w;
}

/* ---- the document writer ------------------------------------------------- */

/* Markdown blocks are separated by one blank line. */
static void md_block(doc_writer *d)
{
    ca_sb *sb = d->sb;
    if (sb->len == 0) return;
    if (sb->buf[sb->len - 1] != '\n') ca_sb_addc(sb, '\n');
    if (sb->len < 2 || sb->buf[sb->len - 2] != '\n') ca_sb_addc(sb, '\n');
}

void doc_lit(doc_writer *d, const char *s)
{
    if (d->html) doc_put(d->sb, s, DOC_PUT_HTML);
    else ca_sb_adds(d->sb, s);
}

void doc_litf(doc_writer *d, const char *fmt, ...)
{
    ca_sb tmp = {0};
    va_list ap;
    va_start(ap, fmt);
    ca_sb_vaddf(&tmp, fmt, ap);
    va_end(ap);
    doc_lit(d, ca_sb_str(&tmp));
    ca_sb_release(&tmp);
}

void doc_val(doc_writer *d, const char *s)
{
    doc_put(d->sb, s ? s : "", d->html ? DOC_PUT_HTML : DOC_PUT_MD_TEXT);
}

void doc_code(doc_writer *d, const char *s)
{
    if (!s || !*s) return;
    if (d->html) {
        ca_sb_adds(d->sb, "<code>");
        doc_put(d->sb, s, DOC_PUT_HTML);
        ca_sb_adds(d->sb, "</code>");
        return;
    }
    doc_code_span(d->sb, s, d->in_cell);
}

void doc_code_span(ca_sb *sb, const char *s, int in_cell)
{
    ca_sb tmp = {0};
    doc_put(&tmp, s ? s : "", in_cell ? DOC_PUT_CODE_CELL : DOC_PUT_CODE);
    size_t run = 0, longest = 0;
    for (size_t i = 0; i < tmp.len; i++) {
        run = tmp.buf[i] == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    const char *t = ca_sb_str(&tmp);
    /* CommonMark strips one space from each side when both are there (and
     * the span is not all spaces), and a backtick at either end would merge
     * with the fence: pad then. An empty span would be no span at all. */
    int spaces = tmp.len > 0 && strspn(t, " ") == tmp.len;
    int pad = tmp.len == 0 || t[0] == '`' || t[tmp.len - 1] == '`' ||
              (!spaces && t[0] == ' ' && t[tmp.len - 1] == ' ');
    for (size_t k = 0; k <= longest; k++) ca_sb_addc(sb, '`');
    if (pad) ca_sb_addc(sb, ' ');
    ca_sb_add(sb, t, tmp.len);
    if (pad) ca_sb_addc(sb, ' ');
    for (size_t k = 0; k <= longest; k++) ca_sb_addc(sb, '`');
    ca_sb_release(&tmp);
}

/* ", " between items and " and " before the last. */
void doc_sep(doc_writer *d, size_t i, size_t n)
{
    if (i == 0) return;
    doc_lit(d, i + 1 == n ? (n > 2 ? ", and " : " and ") : ", ");
}

void doc_strong(doc_writer *d, const char *s)
{
    ca_sb_adds(d->sb, d->html ? "<strong>" : "**");
    doc_lit(d, s);
    ca_sb_adds(d->sb, d->html ? "</strong>" : "**");
}

void doc_raw(doc_writer *d, const char *md, const char *html)
{
    const char *s = d->html ? html : md;
    if (s) ca_sb_adds(d->sb, s);
}

void doc_heading(doc_writer *d, int level, const char *anchor)
{
    if (level < 1) level = 1;
    if (level > 6) level = 6;
    if (d->html) {
        ca_sb_addf(d->sb, "<h%d", level);
        if (anchor) {
            ca_sb_adds(d->sb, " id=\"");
            doc_put(d->sb, anchor, DOC_PUT_HTML);
            ca_sb_addc(d->sb, '"');
        }
        ca_sb_addc(d->sb, '>');
        return;
    }
    md_block(d);
    for (int i = 0; i < level; i++) ca_sb_addc(d->sb, '#');
    ca_sb_addc(d->sb, ' ');
}

void doc_heading_end(doc_writer *d, int level)
{
    if (level < 1) level = 1;
    if (level > 6) level = 6;
    if (d->html) ca_sb_addf(d->sb, "</h%d>\n", level);
    else ca_sb_addc(d->sb, '\n');
}

void doc_para(doc_writer *d)
{
    if (d->html) ca_sb_adds(d->sb, "<p>");
    else md_block(d);
}

void doc_para_end(doc_writer *d) { ca_sb_adds(d->sb, d->html ? "</p>\n" : "\n"); }

void doc_list(doc_writer *d)
{
    if (d->html) ca_sb_adds(d->sb, "<ul>\n");
    else md_block(d);
}

void doc_item(doc_writer *d) { ca_sb_adds(d->sb, d->html ? "<li>" : "- "); }
void doc_item_end(doc_writer *d) { ca_sb_adds(d->sb, d->html ? "</li>\n" : "\n"); }
void doc_list_end(doc_writer *d)
{
    if (d->html) ca_sb_adds(d->sb, "</ul>\n");
}

void doc_table(doc_writer *d, const char *css_class)
{
    d->row = d->cols = d->head_cols = 0;
    if (!d->html) {
        md_block(d);
        return;
    }
    ca_sb_adds(d->sb, "<table");
    if (css_class) ca_sb_addf(d->sb, " class=\"%s\"", css_class);
    ca_sb_adds(d->sb, ">\n");
}

void doc_row(doc_writer *d)
{
    d->cols = 0;
    if (d->html) {
        if (d->row == 0) ca_sb_adds(d->sb, "<thead>\n");
        ca_sb_adds(d->sb, "<tr>");
    } else {
        ca_sb_addc(d->sb, '|');
    }
}

void doc_row_end(doc_writer *d)
{
    if (d->html) {
        ca_sb_adds(d->sb, "</tr>\n");
        if (d->row == 0) ca_sb_adds(d->sb, "</thead>\n<tbody>\n");
    } else {
        ca_sb_addc(d->sb, '\n');
        if (d->row == 0) {
            ca_sb_addc(d->sb, '|');
            for (int i = 0; i < d->cols; i++) ca_sb_adds(d->sb, " --- |");
            ca_sb_addc(d->sb, '\n');
        }
    }
    if (d->row == 0) d->head_cols = d->cols;
    d->row++;
}

void doc_cell(doc_writer *d, int header, const char *css_class, const char *data_status)
{
    d->cols++;
    d->in_cell = 1;
    if (!d->html) {
        ca_sb_addc(d->sb, ' ');
        return;
    }
    ca_sb_adds(d->sb, header ? "<th" : "<td");
    if (header && d->row > 0) ca_sb_adds(d->sb, " scope=\"row\"");
    if (css_class) {
        ca_sb_adds(d->sb, " class=\"");
        doc_put(d->sb, css_class, DOC_PUT_HTML);
        ca_sb_addc(d->sb, '"');
    }
    if (data_status) {
        ca_sb_adds(d->sb, " data-status=\"");
        doc_put(d->sb, data_status, DOC_PUT_HTML);
        ca_sb_addc(d->sb, '"');
    }
    ca_sb_addc(d->sb, '>');
}

void doc_cell_end(doc_writer *d)
{
    d->in_cell = 0;
    ca_sb_adds(d->sb, d->html ? (d->row == 0 ? "</th>" : "</td>") : " |");
}

void doc_table_end(doc_writer *d)
{
    if (d->html) ca_sb_adds(d->sb, d->row > 0 ? "</tbody>\n</table>\n" : "</table>\n");
    d->row = d->cols = d->head_cols = 0;
}

void doc_link(doc_writer *d, const char *anchor)
{
    if (!d->html) return;
    ca_sb_adds(d->sb, "<a href=\"#");
    doc_put(d->sb, anchor, DOC_PUT_HTML);
    ca_sb_adds(d->sb, "\">");
}

void doc_link_end(doc_writer *d)
{
    if (d->html) ca_sb_adds(d->sb, "</a>");
}

/* Inline Markdown of our own docs to HTML: `code` spans, the rest text. */
static void md_inline_html(ca_sb *sb, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        const char *tick = memchr(s + i, '`', n - i);
        if (!tick) {
            doc_put_n(sb, s + i, n - i, DOC_PUT_HTML);
            return;
        }
        size_t open = (size_t)(tick - s), run = 0;
        while (open + run < n && s[open + run] == '`') run++;
        /* the closing run of the same length */
        size_t j = open + run, close = n;
        while (j < n) {
            if (s[j] != '`') {
                j++;
                continue;
            }
            size_t r2 = 0;
            while (j + r2 < n && s[j + r2] == '`') r2++;
            if (r2 == run) {
                close = j;
                break;
            }
            j += r2;
        }
        if (close == n) {
            doc_put_n(sb, s + i, n - i, DOC_PUT_HTML);
            return;
        }
        doc_put_n(sb, s + i, open - i, DOC_PUT_HTML);
        ca_sb_adds(sb, "<code>");
        doc_put_n(sb, s + open + run, close - open - run, DOC_PUT_HTML);
        ca_sb_adds(sb, "</code>");
        i = close + run;
    }
}

void doc_markdown(doc_writer *d, const char *md)
{
    if (!md) return;
    if (!d->html) {
        md_block(d);
        ca_sb_adds(d->sb, md);
        ca_sb_addc(d->sb, '\n');
        return;
    }
    enum { NONE, PARA, LIST, FENCE } state = NONE;
    const char *p = md;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *next = nl ? nl + 1 : p + n;
        size_t ind = 0;
        while (ind < n && p[ind] == ' ') ind++;
        int fence = n - ind >= 3 && (strncmp(p + ind, "```", 3) == 0 || strncmp(p + ind, "~~~", 3) == 0);
        if (state == FENCE) {
            if (fence) {
                ca_sb_adds(d->sb, "</code></pre>\n");
                state = NONE;
            } else {
                doc_put_n(d->sb, p, n, DOC_PUT_HTML_BLOCK);
                ca_sb_addc(d->sb, '\n');
            }
            p = next;
            continue;
        }
        int blank = ind == n;
        int item = n - ind >= 2 && (p[ind] == '-' || p[ind] == '*') && p[ind + 1] == ' ';
        if ((blank || fence || item) && state == PARA) {
            ca_sb_adds(d->sb, "</p>\n");
            state = NONE;
        }
        if ((blank || fence) && state == LIST) {
            ca_sb_adds(d->sb, "</li>\n</ul>\n");
            state = NONE;
        }
        if (fence) {
            ca_sb_adds(d->sb, "<pre class=\"doc\"><code>");
            state = FENCE;
        } else if (item) {
            ca_sb_adds(d->sb, state == LIST ? "</li>\n<li>" : "<ul>\n<li>");
            state = LIST;
            md_inline_html(d->sb, p + ind + 2, n - ind - 2);
        } else if (!blank) {
            if (state == NONE) {
                ca_sb_adds(d->sb, "<p>");
                state = PARA;
            } else {
                ca_sb_addc(d->sb, '\n');
            }
            md_inline_html(d->sb, p + ind, n - ind);
        }
        p = next;
    }
    if (state == PARA) ca_sb_adds(d->sb, "</p>\n");
    else if (state == LIST) ca_sb_adds(d->sb, "</li>\n</ul>\n");
    else if (state == FENCE) ca_sb_adds(d->sb, "</code></pre>\n");
}

static const char *mark_class(char m)
{
    switch (m) {
    case 'A': return "acq";
    case '>': return "cp";
    case '!': return "hd";
    default: return "ctx";
    }
}

void doc_excerpt(doc_writer *d, const doc_excerpt_line *lines, size_t n)
{
    ca_sb *sb = d->sb;
    if (d->html) {
        ca_sb_adds(sb, "<pre class=\"excerpt\"><code>");
        for (size_t i = 0; i < n; i++) {
            if (lines[i].elided) {
                ca_sb_adds(sb, "<span class=\"line elided\"><span class=\"ln\">     </span>    ...</span>");
                continue;
            }
            char m = lines[i].mark;
            const char *mk = m == '>' ? "&gt;" : m == 'A' ? "A" : m == '!' ? "!" : " ";
            ca_sb_addf(sb, "<span class=\"line %s\"><span class=\"ln\">%5d</span> <span class=\"mk\">%s</span>  ",
                       mark_class(lines[i].mark), lines[i].lineno, mk);
            doc_put_n(sb, lines[i].text, lines[i].len, DOC_PUT_HTML_BLOCK);
            /* display:block spans: a newline here would double the spacing */
            ca_sb_adds(sb, "</span>");
        }
        ca_sb_adds(sb, "</code></pre>\n");
        return;
    }
    /* fence longer than any backtick run in the excerpt */
    ca_sb body = {0};
    for (size_t i = 0; i < n; i++) {
        if (lines[i].elided) {
            ca_sb_adds(&body, "        ...\n");
            continue;
        }
        ca_sb_addf(&body, "%5d %c  ", lines[i].lineno, lines[i].mark);
        doc_put_n(&body, lines[i].text, lines[i].len, DOC_PUT_BLOCK);
        ca_sb_addc(&body, '\n');
    }
    size_t run = 0, longest = 0;
    for (size_t i = 0; i < body.len; i++) {
        run = body.buf[i] == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    size_t fence = longest >= 3 ? longest + 1 : 3;
    md_block(d);
    for (size_t k = 0; k < fence; k++) ca_sb_addc(sb, '`');
    ca_sb_adds(sb, "text\n");
    ca_sb_add(sb, ca_sb_str(&body), body.len);
    for (size_t k = 0; k < fence; k++) ca_sb_addc(sb, '`');
    ca_sb_addc(sb, '\n');
    ca_sb_release(&body);
}

void doc_html_page_begin(doc_writer *d, const char *title)
{
    ca_sb *sb = d->sb;
    ca_sb_adds(sb,
               "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               /* nothing from the scan can run, load or submit anything */
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
               "style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    doc_put(sb, title, DOC_PUT_HTML);
    ca_sb_adds(sb,
               "</title>\n<style>\n"
               "body{font:15px/1.5 -apple-system,\"Segoe UI\",Helvetica,Arial,sans-serif;color:#1f2328;"
               "max-width:1200px;margin:2em auto;padding:0 1.5em}\n"
               "code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}\n"
               "code{background:#eff1f3;padding:.1em .3em;border-radius:4px}\n"
               "pre{background:#f6f8fa;padding:10px 12px;overflow:auto;border-radius:6px}\n"
               "pre code{background:none;padding:0}\n"
               "table{border-collapse:collapse;margin:1em 0}\n"
               "th,td{border:1px solid #d0d7de;padding:6px 10px;text-align:left;vertical-align:top}\n"
               "thead th{background:#f6f8fa}\n"
               "td.gap{background:#ffebe9;border-color:#cf222e}\n"
               "td.covered{background:#dafbe1}\n"
               "td.no-window{background:#f6f8fa}\n"
               "td.absent{color:#6e7781;font-style:italic}\n"
               "td.inherited{background:#eef4ff}\n"
               "td .detail{display:block;font-size:13px}\n"
               /* a cell wraps between words, never inside one (no-window, a
                * boundary's name); a grid wider than the page scrolls */
               "table.matrix td,table.matrix th{overflow-wrap:normal;word-break:normal;hyphens:manual}\n"
               ".nw{white-space:nowrap}\n"
               ".matrix-wrap{overflow-x:auto}\n"
               "section.family{margin-top:2em}\n"
               "h2 .counts{font-size:14px;font-weight:normal;color:#59636e;margin-left:.6em}\n"
               ".swatch.gap{background:#ffebe9;border-color:#cf222e}\n"
               ".swatch.covered{background:#dafbe1}\n"
               ".swatch.no-window{background:#f6f8fa}\n"
               ".swatch.inherited{background:#eef4ff}\n"
               "td.gap a{color:#a40e26;font-weight:600}\n"
               ".meta{color:#59636e}\n"
               ".legend span{display:inline-block;margin-right:1.2em}\n"
               ".swatch{display:inline-block;width:.9em;height:.9em;border:1px solid #d0d7de;"
               "vertical-align:middle;margin-right:.3em}\n"
               ".excerpt .line{display:block}\n"
               ".excerpt .ln{color:#6e7781}\n"
               ".excerpt .cp{background:#ffd8d3;font-weight:600}\n"
               ".excerpt .acq{background:#fff8c5}\n"
               ".excerpt .hd{background:#ddf4ff}\n"
               ".excerpt .elided{color:#6e7781}\n"
               "section.evidence{border-top:1px solid #d0d7de;margin-top:2em}\n"
               "</style>\n</head>\n<body>\n");
}

void doc_html_page_end(doc_writer *d) { ca_sb_adds(d->sb, "</body>\n</html>\n"); }

void doc_loc(doc_writer *d, const char *path, int line)
{
    if (!path) return;
    ca_sb l = {0};
    if (line > 0) ca_sb_addf(&l, "%s:%d", path, line);
    else ca_sb_adds(&l, path);
    doc_code(d, ca_sb_str(&l));
    ca_sb_release(&l);
}
