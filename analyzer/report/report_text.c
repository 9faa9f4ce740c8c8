/*
 * report_text.c — the compiler-style text reporter ("path:line:col: CAN101
 * message" + a summary line), in the concise form (that line alone) and
 * the full one (the source lines under it, as ruff's `--output-format
 * full`), `--statistics`, and the small helpers every reporter shares
 * (sorted views of the results, which findings are listed).
 *
 * Text goes to terminals and CI logs, so strings from source code are shown
 * as visible escapes when they hold control characters, invalid UTF-8 or
 * bidirectional overrides: a hostile file name cannot move the cursor,
 * recolor the terminal or reorder what the reader sees.
 */
#include "report/report.h"
#include "report/source.h"
#include "rules/ruledoc.h"
#include "util/json.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- shared helpers ---------------------------------------------------- */

ca_finding *report_sorted_findings(const ca_results *r)
{
    if (!r || r->nfindings == 0) return NULL;
    ca_results view = {0};
    view.findings = ca_xmalloc(r->nfindings * sizeof(ca_finding));
    memcpy(view.findings, r->findings, r->nfindings * sizeof(ca_finding));
    view.nfindings = r->nfindings;
    ca_results_sort(&view); /* sorts only what view holds: the shallow copy */
    return view.findings;
}

ca_coverage *report_sorted_coverage(const ca_results *r)
{
    if (!r || r->ncoverage == 0) return NULL;
    ca_results view = {0};
    view.coverage = ca_xmalloc(r->ncoverage * sizeof(ca_coverage));
    memcpy(view.coverage, r->coverage, r->ncoverage * sizeof(ca_coverage));
    view.ncoverage = r->ncoverage;
    ca_results_sort(&view);
    return view.coverage;
}

int report_finding_listed(const ca_finding *f, const report_opts *o)
{
    if (f->baselined) return 0;
    return !f->suppressed || (o && o->show_suppressed);
}

int report_emit(FILE *out, ca_sb *sb)
{
    int ok = fwrite(ca_sb_str(sb), 1, sb->len, out) == sb->len;
    ca_sb_release(sb);
    if (fflush(out) != 0 || ferror(out)) ok = 0;
    return ok ? 0 : -1;
}

int report_json_emit(FILE *out, ca_json_writer *w, ca_sb *sb)
{
    int ok = ca_json_finish(w) == 0;
    ca_sb_addc(sb, '\n');
    return report_emit(out, sb) == 0 && ok;
}

int report_baselined_count(const ca_results *r)
{
    int flagged = 0;
    for (size_t i = 0; i < r->nfindings; i++) flagged += r->findings[i].baselined == 1 ? 1 : 0;
    return r->scan.baselined > flagged ? r->scan.baselined : flagged;
}

/* ---- text -------------------------------------------------------------- */

static int visible_cp(int32_t cp)
{
    if (cp >= 0x80 && cp <= 0x9F) return 0;                 /* C1 controls */
    if (cp == 0x200E || cp == 0x200F || cp == 0x061C) return 0; /* bidi marks */
    if (cp >= 0x202A && cp <= 0x202E) return 0;             /* bidi embeddings/overrides */
    if (cp >= 0x2066 && cp <= 0x2069) return 0;             /* bidi isolates */
    if (cp == 0x2028 || cp == 0x2029) return 0;             /* line separators */
    return 1;
}

/* Append s for a terminal: printable text as is, the rest as escapes. */
static void add_shown(ca_sb *sb, const char *s)
{
    if (!s) return;
    size_t n = strlen(s), i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F) {
            size_t run = i;
            while (run < n && (unsigned char)s[run] >= 0x20 && (unsigned char)s[run] < 0x7F) run++;
            ca_sb_add(sb, s + i, run - i);
            i = run;
            continue;
        }
        if (c < 0x80) {
            switch (c) {
            case '\n': ca_sb_adds(sb, "\\n"); break;
            case '\r': ca_sb_adds(sb, "\\r"); break;
            case '\t': ca_sb_adds(sb, "\\t"); break;
            default: ca_sb_addf(sb, "\\x%02x", c); break;
            }
            i++;
            continue;
        }
        size_t adv;
        int32_t cp = ca_json_utf8_next(s + i, n - i, &adv);
        if (cp < 0)
            ca_sb_adds(sb, "\xEF\xBF\xBD");
        else if (!visible_cp(cp))
            ca_sb_addf(sb, "\\u%04x", (unsigned)cp);
        else
            ca_sb_add(sb, s + i, adv);
        i += adv;
    }
}

static const char *sev_color(ca_severity s)
{
    switch (s) {
    case CA_SEV_ERROR: return "\033[1;31m";
    case CA_SEV_WARNING: return "\033[1;33m";
    default: return "\033[1;36m";
    }
}

typedef struct rule_count {
    const char *rule;
    int n;
} rule_count;

static int cmp_rule_count(const void *a, const void *b)
{
    return strcmp(((const rule_count *)a)->rule, ((const rule_count *)b)->rule);
}

static const char *plural(int n, const char *one, const char *many) { return n == 1 ? one : many; }

static int flush_sb(FILE *out, ca_sb *sb)
{
    int ok = sb->len == 0 || fwrite(sb->buf, 1, sb->len, out) == sb->len;
    ca_sb_reset(sb);
    return ok;
}

/* ---- full: a finding's source lines ----------------------------------- */

/* One source line as a terminal shows it (add_shown's escapes, tabs to the
 * next multiple of 4) and where each of its code points starts on screen,
 * so that markers line up under columns counted in code points. */
typedef struct shown_line {
    ca_sb text;
    CA_VEC(size_t) at; /* at[i]: display column of code point i; at[n]: the width */
} shown_line;

static void show_line(shown_line *sl, const char *s, size_t n)
{
    size_t i = 0, width = 0;
    while (i < n) {
        CA_VEC_PUSH(sl->at, width);
        unsigned char c = (unsigned char)s[i];
        size_t adv = 1, before = sl->text.len;
        if (c == '\t') {
            for (size_t to = (width / 4 + 1) * 4; width < to; width++) ca_sb_addc(&sl->text, ' ');
        } else if (c >= 0x20 && c < 0x7F) {
            ca_sb_addc(&sl->text, (char)c);
            width++;
        } else if (c < 0x80) {
            ca_sb_addf(&sl->text, "\\x%02x", c);
            width += sl->text.len - before;
        } else {
            int32_t cp = ca_json_utf8_next(s + i, n - i, &adv);
            if (!adv) adv = 1;
            if (cp < 0) {
                ca_sb_adds(&sl->text, "\xEF\xBF\xBD");
                width++;
            } else if (!visible_cp(cp)) {
                ca_sb_addf(&sl->text, "\\u%04x", (unsigned)cp);
                width += sl->text.len - before;
            } else {
                ca_sb_add(&sl->text, s + i, adv);
                width++;
            }
        }
        i += adv;
    }
    CA_VEC_PUSH(sl->at, width);
}

/* Display column of 1-based code-point column col (clamped to the line). */
static size_t col_at(const shown_line *sl, int col)
{
    size_t k = col > 1 ? (size_t)(col - 1) : 0;
    if (k >= sl->at.n) k = sl->at.n - 1;
    return sl->at.v[k];
}

typedef struct excerpt {
    ca_sb *sb;
    int gutter; /* width of the line-number column */
    int color;
} excerpt;

static void gutter(excerpt *x, int lineno)
{
    if (x->color) ca_sb_adds(x->sb, "\033[1;34m");
    if (lineno > 0) ca_sb_addf(x->sb, "%*d |", x->gutter, lineno);
    else if (lineno < 0) ca_sb_addf(x->sb, "%*s |", x->gutter, "...");
    else ca_sb_addf(x->sb, "%*s |", x->gutter, "");
    if (x->color) ca_sb_adds(x->sb, "\033[0m");
}

/* "NN | the line" and, when mark, "   |   ^^^^ label" under [c1, c2)
 * (code-point columns; c2 <= c1: to the end of the line's text). */
static void excerpt_line(excerpt *x, const char *s, size_t n, int lineno, char mark, int c1, int c2,
                         const char *label)
{
    shown_line sl = {0};
    show_line(&sl, s, n);
    gutter(x, lineno);
    if (sl.text.len) ca_sb_addc(x->sb, ' ');
    ca_sb_add(x->sb, ca_sb_str(&sl.text), sl.text.len);
    ca_sb_addc(x->sb, '\n');
    if (mark) {
        if (c2 <= c1) { /* to the end of the text, trailing blanks left out */
            size_t t = n;
            while (t && (s[t - 1] == ' ' || s[t - 1] == '\t')) t--;
            c2 = 1;
            for (size_t k = 0; k < t; k++) c2 += ((unsigned char)s[k] & 0xC0) != 0x80;
        }
        size_t from = col_at(&sl, c1), to = col_at(&sl, c2);
        if (to <= from) to = from + 1;
        gutter(x, 0);
        ca_sb_addf(x->sb, " %*s", (int)from, "");
        if (x->color) ca_sb_adds(x->sb, mark == '^' ? "\033[1;31m" : "\033[1;33m");
        for (size_t k = from; k < to; k++) ca_sb_addc(x->sb, mark);
        if (label && *label) {
            ca_sb_addc(x->sb, ' ');
            add_shown(x->sb, label);
        }
        if (x->color) ca_sb_adds(x->sb, "\033[0m");
        ca_sb_addc(x->sb, '\n');
    }
    ca_sb_release(&sl.text);
    CA_VEC_FREE(sl.at);
}

static int digits(int n)
{
    int d = 1;
    while (n >= 10) {
        n /= 10;
        d++;
    }
    return d;
}

/* The source lines of f: acquisition and checkpoint, marked, and the lines
 * between them when they are few. Nothing when the file is not there as
 * the scan saw it. */
static void add_excerpt(ca_sb *sb, src_cache *sc, const ca_finding *f, int color)
{
    src_file *file = src_get(sc, f->path);
    const char *s;
    size_t n;
    if (!file || !file->text || file->changed || !src_line(file, f->line, &s, &n)) return;
    int acq = f->acquired_line > 0 && f->acquired_line != f->line && src_line(file, f->acquired_line, &s, &n)
                  ? f->acquired_line : 0;
    int first = acq && acq < f->line ? acq : f->line, last = acq > f->line ? acq : f->line;
    int between = last - first - 1;
    excerpt x = {sb, digits(last), color};
    if (between > 3 && x.gutter < 3) x.gutter = 3;
    char *acq_label = ca_xasprintf("`%s` acquired%s", f->resource ? f->resource : "",
                                   acq > f->line ? " (on a later line: the window goes round a loop)" : "");
    gutter(&x, 0);
    ca_sb_addc(sb, '\n');
    for (int l = first; l <= last; l++) {
        if (l != first && l != last && between > 3) {
            gutter(&x, -1);
            ca_sb_addc(sb, '\n');
            l = last - 1;
            continue;
        }
        if (!src_line(file, l, &s, &n)) continue;
        if (l == f->line) {
            int c2 = f->end_line == f->line ? f->end_column : 0;
            excerpt_line(&x, s, n, l, '^', f->column, c2, f->rule);
        } else if (l == acq) {
            int c1 = f->acquired_column > 0 ? f->acquired_column : 1;
            if (f->acquired_column <= 0) /* from the first non-blank */
                while ((size_t)c1 <= n && (s[c1 - 1] == ' ' || s[c1 - 1] == '\t')) c1++;
            excerpt_line(&x, s, n, l, '-', c1, 0, acq_label);
        } else {
            excerpt_line(&x, s, n, l, 0, 0, 0, NULL);
        }
    }
    gutter(&x, 0);
    ca_sb_addc(sb, '\n');
    free(acq_label);
}

/* ---- text ------------------------------------------------------------- */

static void add_summary(ca_sb *sb, const ca_results *r, int total, const rule_count *counts, size_t ncounts,
                        int suppressed)
{
    ca_sb_addf(sb, "%d %s", total, plural(total, "finding", "findings"));
    if (ncounts) {
        ca_sb_adds(sb, " (");
        for (size_t k = 0; k < ncounts; k++) {
            ca_sb_addf(sb, "%s%d ", k ? ", " : "", counts[k].n);
            add_shown(sb, counts[k].rule);
        }
        ca_sb_addc(sb, ')');
    }
    int scanned = r->scan.files_scanned, skipped = r->scan.files_skipped, errors = r->scan.errors;
    ca_sb_addf(sb, " in %d %s; %d %s skipped (no async), %d %s; %d baselined", scanned,
               plural(scanned, "file", "files"), skipped, plural(skipped, "file", "files"), errors,
               plural(errors, "error", "errors"), report_baselined_count(r));
    if (suppressed) ca_sb_addf(sb, "; %d suppressed", suppressed);
    int unchanged = 0;
    for (size_t i = 0; i < r->nfindings; i++) unchanged += r->findings[i].baselined == 2;
    if (unchanged) ca_sb_addf(sb, "; %d outside the changed lines", unchanged);
    ca_sb_addc(sb, '\n');
}

static void count_rule(void *vec, const char *rule)
{
    CA_VEC(rule_count) *counts = vec;
    size_t k = 0;
    while (k < counts->n && strcmp(counts->v[k].rule, rule ? rule : "") != 0) k++;
    if (k == counts->n) CA_VEC_PUSH(*counts, ((rule_count){rule ? rule : "", 0}));
    counts->v[k].n++;
}

int report_text(FILE *out, const ca_results *r, const report_opts *o)
{
    ca_finding *fs = report_sorted_findings(r);
    CA_VEC(rule_count) counts = {0};
    CA_VEC(const char *) explained = {0};
    ca_sb sb = {0};
    src_cache sc = {.r = r};
    int ok = 1, total = 0, suppressed = 0;
    int color = o && o->color, full = !(o && o->concise);

    for (size_t i = 0; i < r->nfindings; i++) {
        const ca_finding *f = &fs[i];
        if (!f->baselined && f->suppressed) suppressed++;
        if (!report_finding_listed(f, o)) continue;
        if (color) ca_sb_adds(&sb, "\033[1m");
        add_shown(&sb, f->path ? f->path : "");
        ca_sb_addf(&sb, ":%d:%d:", f->line, f->column);
        if (color) ca_sb_adds(&sb, "\033[0m");
        ca_sb_addc(&sb, ' ');
        if (color) ca_sb_adds(&sb, sev_color(f->severity));
        add_shown(&sb, f->rule ? f->rule : "");
        if (color) ca_sb_adds(&sb, "\033[0m");
        ca_sb_addc(&sb, ' ');
        add_shown(&sb, f->message ? f->message : "");
        if (f->suppressed) ca_sb_adds(&sb, " (suppressed)");
        ca_sb_addc(&sb, '\n');
        if (full) {
            add_excerpt(&sb, &sc, f, color);
            int seen = 0;
            for (size_t k = 0; k < explained.n && !seen; k++) seen = strcmp(explained.v[k], f->rule ? f->rule : "") == 0;
            if (!seen && f->rule && ca_ruledoc_get(f->rule)) {
                CA_VEC_PUSH(explained, f->rule);
                ca_sb_addf(&sb, "%*s= help: `cancelaudit explain ", 2, "");
                add_shown(&sb, f->rule);
                ca_sb_adds(&sb, "` says why this leaks and how to fix it\n");
            }
            ca_sb_addc(&sb, '\n');
        }
        ok = flush_sb(out, &sb) && ok;
        if (f->suppressed) continue;
        total++;
        count_rule(&counts, f->rule);
    }
    if (counts.n) qsort(counts.v, counts.n, sizeof(rule_count), cmp_rule_count);
    if (!(o && o->quiet)) add_summary(&sb, r, total, counts.v, counts.n, suppressed);
    ok = flush_sb(out, &sb) && ok;

    ca_sb_release(&sb);
    CA_VEC_FREE(counts);
    CA_VEC_FREE(explained);
    src_cache_free(&sc);
    free(fs);
    if (fflush(out) != 0 || ferror(out)) ok = 0;
    return ok ? 0 : -1;
}

/* ---- statistics ---------------------------------------------------------- */

static int cmp_count_desc(const void *a, const void *b)
{
    const rule_count *x = a, *y = b;
    if (x->n != y->n) return x->n > y->n ? -1 : 1;
    return strcmp(x->rule, y->rule);
}

int report_statistics(FILE *out, const ca_results *r, const report_opts *o, int json)
{
    ca_finding *fs = report_sorted_findings(r);
    CA_VEC(rule_count) rules = {0};
    CA_VEC(rule_count) files = {0}; /* .rule holds the path */
    int total = 0, suppressed = 0;
    for (size_t i = 0; i < r->nfindings; i++) {
        const ca_finding *f = &fs[i];
        if (!f->baselined && f->suppressed) suppressed++;
        if (f->baselined || f->suppressed) continue;
        total++;
        count_rule(&rules, f->rule);
        count_rule(&files, f->path);
    }
    CA_VEC(rule_count) by_id = {0};
    for (size_t k = 0; k < rules.n; k++) CA_VEC_PUSH(by_id, rules.v[k]);
    if (by_id.n) qsort(by_id.v, by_id.n, sizeof(rule_count), cmp_rule_count);
    if (rules.n) qsort(rules.v, rules.n, sizeof(rule_count), cmp_count_desc);
    if (files.n) qsort(files.v, files.n, sizeof(rule_count), cmp_count_desc);
    ca_sb sb = {0};
    int ok;
    if (json) {
        ca_json_writer w;
        ca_json_init(&w, &sb, 1);
        ca_json_begin_object(&w);
        ca_json_tool(&w);
        ca_json_key(&w, "statistics");
        ca_json_begin_object(&w);
        ca_json_kv_int(&w, "total", total);
        ca_json_key(&w, "rules");
        ca_json_begin_array(&w);
        for (size_t k = 0; k < rules.n; k++) {
            const ca_ruledoc *d = ca_ruledoc_get(rules.v[k].rule);
            ca_json_begin_object(&w);
            ca_json_kv_string(&w, "rule", rules.v[k].rule);
            ca_json_kv_string(&w, "name", d ? d->name : NULL);
            ca_json_kv_int(&w, "count", rules.v[k].n);
            ca_json_end_object(&w);
        }
        ca_json_end_array(&w);
        ca_json_key(&w, "files");
        ca_json_begin_array(&w);
        for (size_t k = 0; k < files.n; k++) {
            ca_json_begin_object(&w);
            ca_json_kv_string(&w, "path", files.v[k].rule);
            ca_json_kv_int(&w, "count", files.v[k].n);
            ca_json_end_object(&w);
        }
        ca_json_end_array(&w);
        ca_json_end_object(&w);
        ca_json_kv_int(&w, "schema_version", REPORT_JSON_SCHEMA_VERSION);
        ca_json_end_object(&w);
        ok = report_json_emit(out, &w, &sb) ? 0 : -1;
    } else {
        int cw = digits(total) > 5 ? digits(total) : 5;
        size_t iw = 4;
        for (size_t k = 0; k < rules.n; k++)
            if (strlen(rules.v[k].rule) > iw) iw = strlen(rules.v[k].rule);
        if (rules.n) {
            ca_sb_addf(&sb, "%*s  %-*s  %s\n", cw, "count", (int)iw, "rule", "name");
            for (size_t k = 0; k < rules.n; k++) {
                const ca_ruledoc *d = ca_ruledoc_get(rules.v[k].rule);
                ca_sb_addf(&sb, "%*d  ", cw, rules.v[k].n);
                add_shown(&sb, rules.v[k].rule);
                ca_sb_addf(&sb, "%*s  ", (int)(iw - strlen(rules.v[k].rule)), "");
                add_shown(&sb, d ? d->name : "");
                ca_sb_addc(&sb, '\n');
            }
            ca_sb_addf(&sb, "\n%*s  %s\n", cw, "count", "file");
            for (size_t k = 0; k < files.n; k++) {
                ca_sb_addf(&sb, "%*d  ", cw, files.v[k].n);
                add_shown(&sb, files.v[k].rule);
                ca_sb_addc(&sb, '\n');
            }
            ca_sb_addc(&sb, '\n');
        }
        if (!(o && o->quiet)) add_summary(&sb, r, total, by_id.v, by_id.n, suppressed);
        ok = report_emit(out, &sb);
    }
    CA_VEC_FREE(rules);
    CA_VEC_FREE(files);
    CA_VEC_FREE(by_id);
    free(fs);
    return ok;
}
