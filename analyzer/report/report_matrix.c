/*
 * report_matrix.c — `cancelaudit matrix`: the backend × boundary coverage
 * matrix of a stored scan as terminal text, Markdown, JSON or one HTML page
 * (report_store.h), written through the document writer of doc.h; the
 * HTML page's evidence of each gap cell is its findings as bugs (bug.h).
 *
 * Layout decisions: Markdown and HTML always put backends down and
 * boundaries across (what a maintainer pastes into an issue); the terminal
 * grid puts the shorter axis across and wraps cell text to fit the width.
 * Boundaries are ordered by how many backends define them, then by name;
 * backends by name.
 */
#include "report/report_store.h"
#include "report/bug.h"
#include "report/doc.h"
#include "report/report.h"
#include "report/source.h"
#include "rules/ruledoc.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

static int str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

void report_matrix_select(ca_results *r, const char *select)
{
    if (!select || !*select) return;
    for (size_t i = 0; i < r->ncoverage; i++) {
        ca_coverage *c = &r->coverage[i];
        if (!str_eq(c->status, "gap")) continue;
        ca_sb rules = {0}, lines = {0};
        /* rules in the order the cell lists them */
        size_t n;
        const char *item;
        for (const char *p = c->rules; rs_csv_next(&p, &item, &n);) {
            char *id = ca_xstrndup(item, n);
            int kept = 0;
            if (ca_rule_selected(id, select, NULL, 0))
                for (size_t k = 0; k < r->nfindings; k++) {
                    const ca_finding *f = &r->findings[k];
                    if (f->suppressed || !str_eq(f->rule, id) || !rs_finding_in_cell(c, f)) continue;
                    kept = 1;
                    if (lines.len) ca_sb_addc(&lines, ',');
                    ca_sb_addf(&lines, "%d", f->line);
                }
            if (kept) {
                if (rules.len) ca_sb_addc(&rules, ',');
                ca_sb_adds(&rules, id);
            }
            free(id);
        }
        if (rules.len) {
            free(c->rules);
            free(c->lines);
            c->rules = ca_sb_detach(&rules);
            c->lines = ca_sb_detach(&lines);
            int *l = NULL;
            if (rs_lines_parse(c->lines, &l)) c->line = l[0];
            free(l);
            continue;
        }
        ca_sb_release(&rules);
        ca_sb_release(&lines);
        free(c->status);
        free(c->rules);
        free(c->lines);
        c->status = ca_xstrdup(c->protection && *c->protection ? "covered" : "no-window");
        c->rules = ca_xstrdup("");
        c->lines = ca_xstrdup("");
    }
}

/* ---- the matrix's shape ------------------------------------------------------ */

typedef struct mview {
    const char **backends;
    size_t nb;
    const char **bounds;
    size_t nbd;
    const ca_coverage **grid; /* [backend * nbd + boundary]; NULL: no cell */
} mview;

typedef struct bcount {
    const char *name;
    int defined;
} bcount;

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static int cmp_bcount(const void *a, const void *b)
{
    const bcount *x = a, *y = b;
    if (x->defined != y->defined) return x->defined > y->defined ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void mview_build(mview *v, const ca_results *r)
{
    memset(v, 0, sizeof(*v));
    const char **bs = ca_xmalloc(sizeof(char *) * (r->ncoverage + 1));
    bcount *bd = ca_xmalloc(sizeof(bcount) * (r->ncoverage + 1));
    size_t nbd = 0, nb = 0;
    for (size_t i = 0; i < r->ncoverage; i++) {
        const ca_coverage *c = &r->coverage[i];
        const char *be = c->backend ? c->backend : "", *bn = c->boundary ? c->boundary : "";
        bs[nb++] = be;
        size_t k = 0;
        while (k < nbd && strcmp(bd[k].name, bn) != 0) k++;
        if (k == nbd) bd[nbd++] = (bcount){bn, 0};
        if (!str_eq(c->status, "absent")) bd[k].defined++;
    }
    if (nb) qsort(bs, nb, sizeof(char *), cmp_cstr);
    size_t u = 0;
    for (size_t i = 0; i < nb; i++)
        if (u == 0 || strcmp(bs[u - 1], bs[i]) != 0) bs[u++] = bs[i];
    if (nbd) qsort(bd, nbd, sizeof(bcount), cmp_bcount);
    v->backends = bs;
    v->nb = u;
    v->bounds = ca_xmalloc(sizeof(char *) * (nbd + 1));
    for (size_t i = 0; i < nbd; i++) v->bounds[i] = bd[i].name;
    v->nbd = nbd;
    free(bd);
    v->grid = ca_xcalloc(v->nb * v->nbd + 1, sizeof(ca_coverage *));
    for (size_t i = 0; i < r->ncoverage; i++) {
        const ca_coverage *c = &r->coverage[i];
        size_t b = 0, d = 0;
        while (b < v->nb && strcmp(v->backends[b], c->backend ? c->backend : "") != 0) b++;
        while (d < v->nbd && strcmp(v->bounds[d], c->boundary ? c->boundary : "") != 0) d++;
        if (b < v->nb && d < v->nbd && !v->grid[b * v->nbd + d]) v->grid[b * v->nbd + d] = c;
    }
}

static void mview_free(mview *v)
{
    free(v->backends);
    free(v->bounds);
    free(v->grid);
}

static size_t count_status(const ca_results *r, const char *status)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncoverage; i++) n += str_eq(r->coverage[i].status, status);
    return n;
}

/* "gap CAN101,CAN102 L44,60" / "covered: except BaseException" / status */
static void cell_text(ca_sb *sb, const ca_coverage *c)
{
    if (!c) {
        ca_sb_adds(sb, "?");
        return;
    }
    if (str_eq(c->status, "gap")) {
        ca_sb_adds(sb, "gap ");
        ca_sb_adds(sb, c->rules ? c->rules : "");
        ca_sb tmp = {0};
        rs_lines_list(&tmp, c->lines, ",");
        if (tmp.len) ca_sb_addf(sb, " L%s", ca_sb_str(&tmp));
        ca_sb_release(&tmp);
    } else if (str_eq(c->status, "covered") && c->protection && *c->protection) {
        ca_sb_adds(sb, "covered: ");
        ca_sb_adds(sb, c->protection);
    } else {
        ca_sb_adds(sb, c->status ? c->status : "?");
    }
}

static const char *const legend[][2] = {
    {"gap", "a resource has no owner across a cancellation point (rules, lines)"},
    {"covered", "every window is released on cancellation (the protection found)"},
    {"no-window", "nothing the method acquires is live across an await"},
    {"absent", "the backend does not define the method"},
};

/* ---- text ------------------------------------------------------------------ */

typedef struct span_ {
    size_t off, len;
} span_;

/* Split s into lines of at most width code points, at spaces when possible. */
static size_t wrap(const char *s, size_t width, span_ **out)
{
    CA_VEC(span_) v = {0};
    size_t n = strlen(s), i = 0;
    if (width < 1) width = 1;
    while (i < n || v.n == 0) {
        while (i < n && s[i] == ' ' && v.n) i++;
        size_t j = i, w = 0, last_space = 0;
        while (j < n && w < width) {
            if (s[j] == ' ') last_space = j;
            j++;
            while (j < n && ((unsigned char)s[j] & 0xC0) == 0x80) j++;
            w++;
        }
        if (j < n && s[j] != ' ' && last_space > i) j = last_space;
        size_t e = j;
        while (e > i && s[e - 1] == ' ') e--;
        CA_VEC_PUSH(v, ((span_){i, e - i}));
        if (j >= n) break;
        i = j;
    }
    *out = v.v;
    return v.n;
}

static const char *status_color(const char *status)
{
    if (str_eq(status, "gap")) return "\033[1;31m";
    if (str_eq(status, "covered")) return "\033[32m";
    if (str_eq(status, "absent")) return "\033[2m";
    return "";
}

static void pad(ca_sb *sb, size_t n)
{
    for (size_t i = 0; i < n; i++) ca_sb_addc(sb, ' ');
}

static void text_header(ca_sb *sb, const ca_results *r, const mview *v, const rs_opts *o)
{
    ca_sb_addf(sb, "coverage matrix: %zu backend%s x %zu boundar%s", v->nb, v->nb == 1 ? "" : "s", v->nbd,
               v->nbd == 1 ? "y" : "ies");
    if (!o->reproducible && r->scan.id) ca_sb_addf(sb, ", scan %lld", (long long)r->scan.id);
    if (!o->reproducible && r->scan.root) {
        ca_sb_adds(sb, " of ");
        doc_put(sb, r->scan.root, DOC_PUT_TERM);
    }
    const char *date = rs_meta_date(r, o);
    if (date) {
        ca_sb_adds(sb, " (");
        doc_put(sb, date, DOC_PUT_TERM);
        ca_sb_addc(sb, ')');
    }
    if (o->select) {
        ca_sb_adds(sb, ", rules ");
        doc_put(sb, o->select, DOC_PUT_TERM);
    }
    ca_sb_addc(sb, '\n');
    if (r->scan.status && !str_eq(r->scan.status, "complete")) {
        ca_sb_adds(sb, "warning: this scan is ");
        doc_put(sb, r->scan.status, DOC_PUT_TERM);
        ca_sb_adds(sb, ": its results may be incomplete\n");
    }
}

/* One block per boundary, one line per backend that defines it, then the
 * backends that do not: for matrices too wide for any grid. */
static void text_list(ca_sb *sb, const mview *v, const rs_opts *o)
{
    size_t labw = 0;
    for (size_t b = 0; b < v->nb; b++) {
        size_t w = doc_display_width(v->backends[b]);
        if (w > labw) labw = w;
    }
    if (labw > 28) labw = 28;
    for (size_t d = 0; d < v->nbd; d++) {
        if (d) ca_sb_addc(sb, '\n');
        doc_put(sb, v->bounds[d], DOC_PUT_TERM);
        ca_sb_addc(sb, '\n');
        ca_sb absent = {0};
        for (size_t b = 0; b < v->nb; b++) {
            const ca_coverage *c = v->grid[b * v->nbd + d];
            if (!c || str_eq(c->status, "absent")) {
                if (absent.len) ca_sb_adds(&absent, ", ");
                doc_put(&absent, v->backends[b], DOC_PUT_TERM);
                continue;
            }
            ca_sb_adds(sb, "  ");
            size_t w = doc_display_width(v->backends[b]);
            doc_put(sb, v->backends[b], DOC_PUT_TERM);
            pad(sb, w < labw ? labw - w : 0);
            ca_sb_adds(sb, "  ");
            ca_sb raw = {0};
            cell_text(&raw, c);
            const char *col = o->color ? status_color(c->status) : "";
            ca_sb_adds(sb, col);
            doc_put(sb, ca_sb_str(&raw), DOC_PUT_TERM);
            if (*col) ca_sb_adds(sb, "\033[0m");
            ca_sb_release(&raw);
            ca_sb_addc(sb, '\n');
        }
        if (absent.len) {
            static const char lead[] = "  absent in: ";
            size_t width = o->width > 40 ? (size_t)o->width : 100;
            span_ *ls;
            size_t nl = wrap(ca_sb_str(&absent), width - (sizeof(lead) - 1), &ls);
            for (size_t l = 0; l < nl; l++) {
                if (l == 0) ca_sb_adds(sb, lead);
                else pad(sb, sizeof(lead) - 1);
                ca_sb_add(sb, ca_sb_str(&absent) + ls[l].off, ls[l].len);
                ca_sb_addc(sb, '\n');
            }
            free(ls);
        }
        ca_sb_release(&absent);
    }
}

static int text_grid(ca_sb *sb, const mview *v, const rs_opts *o);
static void text_footer(ca_sb *sb, const ca_results *r, const mview *v);

static void matrix_text(ca_sb *sb, const ca_results *r, const mview *v, const rs_opts *o)
{
    text_header(sb, r, v, o);
    if (v->nbd == 0) {
        ca_sb_adds(sb, "no boundaries: no async method is defined by two or more backends\n");
        return;
    }
    if (text_grid(sb, v, o) != 0) text_list(sb, v, o);
    text_footer(sb, r, v);
}

/* The grid, or -1 (nothing written) when it cannot fit o->width. */
static int text_grid(ca_sb *sb, const mview *v, const rs_opts *o)
{
    int across_bounds = v->nbd <= v->nb; /* the shorter axis goes across */
    size_t nrows = across_bounds ? v->nb : v->nbd, ncols = across_bounds ? v->nbd : v->nb;
    char **texts = ca_xcalloc(nrows * ncols + 1, sizeof(char *));
    char **collab = ca_xcalloc(ncols + 1, sizeof(char *)), **rowlab = ca_xcalloc(nrows + 1, sizeof(char *));
    size_t *colw = ca_xcalloc(ncols + 1, sizeof(size_t));
    size_t labw = strlen(across_bounds ? "backend" : "boundary");
    for (size_t c = 0; c < ncols; c++) {
        ca_sb t = {0};
        doc_put(&t, across_bounds ? v->bounds[c] : v->backends[c], DOC_PUT_TERM);
        collab[c] = ca_sb_detach(&t);
        colw[c] = doc_utf8_width(collab[c], strlen(collab[c]));
    }
    for (size_t rr = 0; rr < nrows; rr++) {
        ca_sb t = {0};
        doc_put(&t, across_bounds ? v->backends[rr] : v->bounds[rr], DOC_PUT_TERM);
        rowlab[rr] = ca_sb_detach(&t);
        size_t w = doc_utf8_width(rowlab[rr], strlen(rowlab[rr]));
        if (w > labw) labw = w;
        for (size_t c = 0; c < ncols; c++) {
            const ca_coverage *cell = across_bounds ? v->grid[rr * v->nbd + c] : v->grid[c * v->nbd + rr];
            ca_sb raw = {0}, shown = {0};
            cell_text(&raw, cell);
            doc_put(&shown, ca_sb_str(&raw), DOC_PUT_TERM);
            ca_sb_release(&raw);
            texts[rr * ncols + c] = ca_sb_detach(&shown);
            size_t cw = doc_utf8_width(texts[rr * ncols + c], strlen(texts[rr * ncols + c]));
            if (cw > colw[c]) colw[c] = cw;
        }
    }
    /* shrink the widest columns until the grid fits */
    size_t width = o->width > 20 ? (size_t)o->width : 100;
    if (labw > 28) labw = 28;
    for (;;) {
        size_t total = labw;
        for (size_t c = 0; c < ncols; c++) total += 2 + colw[c];
        if (total <= width) break;
        size_t widest = 0;
        for (size_t c = 1; c < ncols; c++)
            if (colw[c] > colw[widest]) widest = c;
        if (colw[widest] <= 12) break;
        colw[widest]--;
    }
    int rc = 0;
    size_t total = labw;
    for (size_t c = 0; c < ncols; c++) total += 2 + colw[c];
    if (total > width) {
        rc = -1;
        goto done;
    }
    int wrapped = 0;
    for (size_t i = 0; i < nrows * ncols; i++) wrapped |= doc_utf8_width(texts[i], strlen(texts[i])) > colw[i % ncols];

    /* header row, then a rule */
    size_t hl = 1;
    span_ **hw = ca_xcalloc(ncols + 1, sizeof(span_ *));
    size_t *hn = ca_xcalloc(ncols + 1, sizeof(size_t));
    for (size_t c = 0; c < ncols; c++) {
        hn[c] = wrap(collab[c], colw[c], &hw[c]);
        if (hn[c] > hl) hl = hn[c];
    }
    for (size_t l = 0; l < hl; l++) {
        const char *corner = l == 0 ? (across_bounds ? "backend" : "boundary") : "";
        ca_sb_adds(sb, corner);
        pad(sb, labw - strlen(corner));
        for (size_t c = 0; c < ncols; c++) {
            ca_sb_adds(sb, "  ");
            size_t w = 0;
            if (l < hn[c]) {
                ca_sb_add(sb, collab[c] + hw[c][l].off, hw[c][l].len);
                w = doc_utf8_width(collab[c] + hw[c][l].off, hw[c][l].len);
            }
            if (c + 1 < ncols) pad(sb, colw[c] - w);
        }
        ca_sb_addc(sb, '\n');
    }
    for (size_t c = 0; c < ncols; c++) free(hw[c]);
    free(hw);
    free(hn);
    for (size_t i = 0; i < labw; i++) ca_sb_addc(sb, '-');
    for (size_t c = 0; c < ncols; c++) {
        ca_sb_adds(sb, "  ");
        for (size_t i = 0; i < colw[c]; i++) ca_sb_addc(sb, '-');
    }
    ca_sb_addc(sb, '\n');

    for (size_t rr = 0; rr < nrows; rr++) {
        span_ **cw = ca_xcalloc(ncols + 1, sizeof(span_ *));
        size_t *cn = ca_xcalloc(ncols + 1, sizeof(size_t));
        size_t lines = 1;
        for (size_t c = 0; c < ncols; c++) {
            cn[c] = wrap(texts[rr * ncols + c], colw[c], &cw[c]);
            if (cn[c] > lines) lines = cn[c];
        }
        span_ *lw;
        size_t ln = wrap(rowlab[rr], labw, &lw);
        if (ln > lines) lines = ln;
        for (size_t l = 0; l < lines; l++) {
            size_t w = 0;
            if (l < ln) {
                ca_sb_add(sb, rowlab[rr] + lw[l].off, lw[l].len);
                w = doc_utf8_width(rowlab[rr] + lw[l].off, lw[l].len);
            }
            pad(sb, labw - w);
            for (size_t c = 0; c < ncols; c++) {
                ca_sb_adds(sb, "  ");
                const char *t = texts[rr * ncols + c];
                w = 0;
                if (l < cn[c] && cw[c][l].len) {
                    const ca_coverage *cell = across_bounds ? v->grid[rr * v->nbd + c] : v->grid[c * v->nbd + rr];
                    const char *col = o->color && cell ? status_color(cell->status) : "";
                    ca_sb_adds(sb, col);
                    ca_sb_add(sb, t + cw[c][l].off, cw[c][l].len);
                    if (*col) ca_sb_adds(sb, "\033[0m");
                    w = doc_utf8_width(t + cw[c][l].off, cw[c][l].len);
                }
                if (c + 1 < ncols) pad(sb, colw[c] - w);
            }
            /* no trailing spaces */
            while (sb->len && sb->buf[sb->len - 1] == ' ') sb->buf[--sb->len] = 0;
            ca_sb_addc(sb, '\n');
        }
        if (wrapped && rr + 1 < nrows) ca_sb_addc(sb, '\n');
        for (size_t c = 0; c < ncols; c++) free(cw[c]);
        free(cw);
        free(cn);
        free(lw);
    }
done:
    for (size_t i = 0; i < nrows * ncols; i++) free(texts[i]);
    for (size_t c = 0; c < ncols; c++) free(collab[c]);
    for (size_t rr = 0; rr < nrows; rr++) free(rowlab[rr]);
    free(texts);
    free(collab);
    free(rowlab);
    free(colw);
    return rc;
}

/* Legend and the compiler-style list of gaps. */
static void text_footer(ca_sb *sb, const ca_results *r, const mview *v)
{
    ca_sb_addc(sb, '\n');
    for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]); i++)
        ca_sb_addf(sb, "%-10s %s\n", legend[i][0], legend[i][1]);
    size_t ngaps = count_status(r, "gap");
    if (!ngaps) return;
    ca_sb_addf(sb, "\n%zu gap%s:\n", ngaps, ngaps == 1 ? "" : "s");
    for (size_t b = 0; b < v->nb; b++)
        for (size_t d = 0; d < v->nbd; d++) {
            const ca_coverage *c = v->grid[b * v->nbd + d];
            if (!c || !str_eq(c->status, "gap")) continue;
            const ca_finding *via = rs_line_helper(r, c, c->line);
            doc_put(sb, via ? via->path : c->path ? c->path : "?", DOC_PUT_TERM);
            ca_sb_addf(sb, ":%d: ", c->line);
            doc_put(sb, c->backend, DOC_PUT_TERM);
            ca_sb_addc(sb, ' ');
            doc_put(sb, c->boundary, DOC_PUT_TERM);
            ca_sb_adds(sb, ": ");
            doc_put(sb, c->rules, DOC_PUT_TERM);
            if (c->function) {
                ca_sb_adds(sb, " in ");
                doc_put(sb, c->function, DOC_PUT_TERM);
            }
            if (via) {
                ca_sb_adds(sb, " via ");
                doc_put(sb, via->function, DOC_PUT_TERM);
            }
            ca_sb_addc(sb, '\n');
        }
}

/* ---- Markdown and HTML ------------------------------------------------------ */

/* "Scan 3 of `/work/main` at git revision `abc`, 2026-…; cancelaudit 0.1.0." */
static void matrix_scan_line(doc_writer *d, const ca_results *r, const rs_opts *o)
{
    int any = 0;
    if (!o->reproducible && r->scan.id) {
        doc_litf(d, "Scan %lld", (long long)r->scan.id);
        any = 1;
    }
    if (!o->reproducible && r->scan.root) {
        doc_lit(d, any ? " of " : "Scan of ");
        doc_code(d, r->scan.root);
        any = 1;
    }
    if (!o->reproducible && r->scan.git_rev && *r->scan.git_rev) {
        doc_lit(d, any ? " at git revision " : "Scan at git revision ");
        doc_code(d, r->scan.git_rev);
        any = 1;
    }
    const char *date = rs_meta_date(r, o);
    if (date) {
        doc_lit(d, any ? ", " : "Scan of ");
        doc_val(d, date);
        any = 1;
    }
    doc_lit(d, any ? "; cancelaudit " : "cancelaudit ");
    doc_val(d, r->scan.version ? r->scan.version : ca_version);
    doc_lit(d, ".");
    if (o->select) {
        doc_lit(d, " Rules selected: ");
        doc_code(d, o->select);
        doc_lit(d, ".");
    }
    if (r->scan.status && !str_eq(r->scan.status, "complete")) {
        doc_lit(d, " Warning: this scan is ");
        doc_val(d, r->scan.status);
        doc_lit(d, "; its results may be incomplete.");
    }
}

static void matrix_cell(doc_writer *d, const ca_coverage *c, size_t gap_index)
{
    const char *st = c ? c->status : NULL;
    doc_cell(d, 0, rs_status_word(st), rs_status_word(st));
    if (!c) {
        doc_lit(d, "?");
    } else if (str_eq(st, "gap")) {
        char anchor[32];
        snprintf(anchor, sizeof(anchor), "gap-%zu", gap_index);
        doc_link(d, anchor);
        doc_strong(d, "gap");
        doc_link_end(d);
        doc_raw(d, ": ", "<span class=\"detail rules\">");
        rs_rules_val(d, c->rules);
        ca_sb tmp = {0};
        size_t nlines = rs_lines_list(&tmp, c->lines, ", ");
        if (nlines) {
            doc_raw(d, " ", "</span><span class=\"detail lines\">");
            doc_lit(d, nlines > 1 ? "(lines " : "(line ");
            doc_lit(d, ca_sb_str(&tmp));
            doc_lit(d, ")");
        }
        doc_raw(d, "", "</span>");
        ca_sb_release(&tmp);
    } else if (str_eq(st, "covered")) {
        doc_lit(d, "covered");
        if (c->protection && *c->protection) {
            doc_raw(d, ": ", "<span class=\"detail protection\">");
            doc_val(d, c->protection);
            doc_raw(d, "", "</span>");
        }
    } else {
        doc_val(d, st ? st : "?");
    }
    doc_cell_end(d);
}

static void matrix_table(doc_writer *d, const mview *v)
{
    doc_table(d, "matrix");
    doc_row(d);
    doc_cell(d, 1, NULL, NULL);
    doc_lit(d, "backend");
    doc_cell_end(d);
    for (size_t b = 0; b < v->nbd; b++) {
        doc_cell(d, 1, NULL, NULL);
        doc_code(d, v->bounds[b]);
        doc_cell_end(d);
    }
    doc_row_end(d);
    size_t gap = 0;
    for (size_t b = 0; b < v->nb; b++) {
        doc_row(d);
        doc_cell(d, 1, "backend", NULL);
        doc_val(d, v->backends[b]);
        doc_cell_end(d);
        for (size_t k = 0; k < v->nbd; k++) {
            const ca_coverage *c = v->grid[b * v->nbd + k];
            if (c && str_eq(c->status, "gap")) gap++;
            matrix_cell(d, c, gap);
        }
        doc_row_end(d);
    }
    doc_table_end(d);
}

static void matrix_legend(doc_writer *d)
{
    doc_para(d);
    doc_raw(d, "", "<span class=\"legend\">");
    for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]); i++) {
        if (d->html) ca_sb_addf(d->sb, "<span><span class=\"swatch %s\"></span>", legend[i][0]);
        else if (i) ca_sb_adds(d->sb, " ·\n");
        doc_strong(d, legend[i][0]);
        doc_lit(d, ": ");
        doc_lit(d, legend[i][1]);
        doc_raw(d, "", "</span>");
    }
    doc_raw(d, "", "</span>");
    doc_para_end(d);
}

/* One list item per gap: where it is and what it is. */
static void matrix_gap_item(doc_writer *d, const ca_results *r, const ca_coverage *c)
{
    const ca_finding *via = rs_line_helper(r, c, c->line);
    doc_val(d, c->backend);
    doc_lit(d, " ");
    doc_code(d, c->boundary);
    doc_lit(d, ": ");
    rs_rules_val(d, c->rules);
    doc_lit(d, " in ");
    doc_code(d, c->function);
    if (via) { /* the line is the helper's, not the boundary method's */
        doc_lit(d, " via ");
        doc_code(d, via->function);
    }
    doc_lit(d, " (");
    doc_loc(d, via ? via->path : c->path, c->line);
    doc_lit(d, ")");
}

/* The evidence of one gap cell: its findings as bugs, each with its
 * evidence and the command for its full report. level: the heading level
 * of each bug. */
static void matrix_cell_evidence(doc_writer *d, const ca_results *r, const ca_coverage *cell, int level)
{
    ca_finding *sorted = report_sorted_findings(r);
    const ca_finding **fs = ca_xmalloc(sizeof(ca_finding *) * (r->nfindings + 1));
    size_t n = 0;
    for (size_t i = 0; i < r->nfindings; i++)
        if (!sorted[i].suppressed && rs_finding_in_cell(cell, &sorted[i])) fs[n++] = &sorted[i];
    bug_groups groups = {0};
    bug_group_findings(fs, n, &groups);
    src_cache sc = {.r = r};
    for (size_t i = 0; i < groups.n; i++) {
        doc_heading(d, level, NULL);
        bug_phrase(d, &groups.v[i]);
        doc_heading_end(d, level);
        bug_evidence(d, &sc, r, &groups.v[i]);
        doc_para(d);
        doc_lit(d, "Fingerprints: ");
        for (size_t k = 0; k < groups.v[i].n; k++) {
            if (k) doc_lit(d, ", ");
            doc_code(d, groups.v[i].f[k]->fingerprint);
        }
        doc_lit(d, ". Full report: ");
        const char *fp = groups.v[i].f[0]->fingerprint;
        char *cmd = ca_xasprintf("cancelaudit report --finding %s", fp ? fp : "");
        doc_code(d, cmd);
        free(cmd);
        doc_lit(d, ".");
        doc_para_end(d);
    }
    if (!groups.n) {
        doc_para(d);
        doc_lit(d, "The findings of this cell are not in the scan (suppressed, or a store from another version).");
        doc_para_end(d);
    }
    src_cache_free(&sc);
    bug_groups_free(&groups);
    free(fs);
    free(sorted);
}

static void matrix_doc(ca_sb *sb, const ca_results *r, const mview *v, const rs_opts *o, int html)
{
    doc_writer d = {.sb = sb, .html = html};
    if (html) doc_html_page_begin(&d, "cancelaudit: cancellation coverage matrix");
    doc_heading(&d, 1, NULL);
    doc_lit(&d, "Cancellation coverage matrix");
    doc_heading_end(&d, 1);
    doc_para(&d);
    doc_litf(&d, "%zu backend%s × %zu boundar%s (async methods that two or more backends define).", v->nb,
             v->nb == 1 ? "" : "s", v->nbd, v->nbd == 1 ? "y" : "ies");
    doc_raw(&d, "\n", " <span class=\"meta\">");
    matrix_scan_line(&d, r, o);
    doc_raw(&d, "", "</span>");
    doc_para_end(&d);
    if (v->nbd == 0) {
        doc_para(&d);
        doc_lit(&d, "No boundaries: no async method is defined by two or more backends.");
        doc_para_end(&d);
    } else {
        matrix_table(&d, v);
        matrix_legend(&d);
    }
    size_t ngaps = count_status(r, "gap"), k = 0;
    if (ngaps && !html) {
        doc_heading(&d, 2, NULL);
        doc_litf(&d, "Gaps (%zu)", ngaps);
        doc_heading_end(&d, 2);
        doc_list(&d);
        for (size_t b = 0; b < v->nb; b++)
            for (size_t x = 0; x < v->nbd; x++) {
                const ca_coverage *c = v->grid[b * v->nbd + x];
                if (!c || !str_eq(c->status, "gap")) continue;
                doc_item(&d);
                matrix_gap_item(&d, r, c);
                doc_item_end(&d);
            }
        doc_list_end(&d);
        doc_para(&d);
        doc_lit(&d, "For an issue-ready report of one backend: ");
        doc_code(&d, "cancelaudit report --backend NAME");
        doc_lit(&d, ".");
        doc_para_end(&d);
    }
    if (ngaps && html) {
        for (size_t b = 0; b < v->nb; b++)
            for (size_t x = 0; x < v->nbd; x++) {
                const ca_coverage *c = v->grid[b * v->nbd + x];
                if (!c || !str_eq(c->status, "gap")) continue;
                char anchor[32];
                snprintf(anchor, sizeof(anchor), "gap-%zu", ++k);
                ca_sb_addf(sb, "<section class=\"evidence\" id=\"%s\">\n", anchor);
                doc_heading(&d, 2, NULL);
                doc_val(&d, c->backend);
                doc_lit(&d, " · ");
                doc_code(&d, c->boundary);
                doc_lit(&d, ": gap ");
                doc_val(&d, c->rules);
                doc_heading_end(&d, 2);
                doc_para(&d);
                doc_lit(&d, "In ");
                doc_code(&d, c->function);
                doc_lit(&d, " (");
                doc_loc(&d, c->path, c->line);
                doc_lit(&d, ").");
                doc_para_end(&d);
                matrix_cell_evidence(&d, r, c, 3);
                ca_sb_adds(sb, "</section>\n");
            }
    }
    if (html) doc_html_page_end(&d);
}

/* ---- JSON --------------------------------------------------------------------- */

static void json_csv_list(ca_json_writer *w, const char *csv, int numbers)
{
    ca_json_begin_array(w);
    if (numbers) {
        int *l = NULL;
        size_t n = rs_lines_parse(csv, &l);
        for (size_t i = 0; i < n; i++) ca_json_int(w, l[i]);
        free(l);
    } else {
        size_t n;
        const char *item;
        for (const char *p = csv; rs_csv_next(&p, &item, &n);) ca_json_string_n(w, item, n);
    }
    ca_json_end_array(w);
}

static void matrix_json(ca_sb *sb, const ca_results *r, const mview *v, const rs_opts *o)
{
    ca_json_writer w;
    ca_json_init(&w, sb, 1);
    ca_json_begin_object(&w);
    ca_json_tool(&w);
    ca_json_key(&w, "scan");
    ca_json_begin_object(&w);
    if (!o->reproducible && r->scan.id) ca_json_kv_int(&w, "id", r->scan.id);
    else ca_json_kv_null(&w, "id");
    ca_json_kv_string(&w, "status", r->scan.status);
    ca_json_kv_string(&w, "started", o->reproducible ? NULL : r->scan.started);
    ca_json_kv_string(&w, "finished", o->reproducible ? NULL : r->scan.finished);
    ca_json_kv_string(&w, "root", o->reproducible ? NULL : r->scan.root);
    ca_json_kv_string(&w, "git_rev", o->reproducible ? NULL : r->scan.git_rev);
    ca_json_kv_string(&w, "version", r->scan.version);
    ca_json_end_object(&w);
    ca_json_kv_string(&w, "select", o->select);
    ca_json_key(&w, "backends");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < v->nb; i++) ca_json_string(&w, v->backends[i]);
    ca_json_end_array(&w);
    ca_json_key(&w, "boundaries");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < v->nbd; i++) ca_json_string(&w, v->bounds[i]);
    ca_json_end_array(&w);
    ca_json_key(&w, "coverage");
    ca_json_begin_array(&w);
    for (size_t b = 0; b < v->nb; b++)
        for (size_t k = 0; k < v->nbd; k++) {
            const ca_coverage *c = v->grid[b * v->nbd + k];
            if (!c) continue;
            ca_json_begin_object(&w);
            ca_json_kv_string(&w, "backend", c->backend);
            ca_json_kv_string(&w, "boundary", c->boundary);
            ca_json_kv_string(&w, "status", c->status);
            ca_json_key(&w, "rules");
            json_csv_list(&w, c->rules, 0);
            ca_json_kv_string(&w, "protection", c->protection ? c->protection : "");
            ca_json_kv_string(&w, "path", c->path);
            ca_json_kv_string(&w, "function", c->function);
            if (c->line > 0) ca_json_kv_int(&w, "line", c->line);
            else ca_json_kv_null(&w, "line");
            ca_json_key(&w, "lines");
            json_csv_list(&w, c->lines, 1);
            ca_json_end_object(&w);
        }
    ca_json_end_array(&w);
    ca_json_kv_int(&w, "schema_version", REPORT_JSON_SCHEMA_VERSION);
    ca_json_end_object(&w);
    ca_json_finish(&w);
    ca_sb_addc(sb, '\n');
}

int report_matrix(FILE *out, const ca_results *r, rs_format fmt, const rs_opts *opts)
{
    rs_opts none = {0};
    const rs_opts *o = opts ? opts : &none;
    mview v;
    mview_build(&v, r);
    ca_sb sb = {0};
    switch (fmt) {
    case RS_TEXT: matrix_text(&sb, r, &v, o); break;
    case RS_MARKDOWN: matrix_doc(&sb, r, &v, o, 0); break;
    case RS_HTML: matrix_doc(&sb, r, &v, o, 1); break;
    case RS_JSON: matrix_json(&sb, r, &v, o); break;
    }
    mview_free(&v);
    return report_emit(out, &sb);
}
