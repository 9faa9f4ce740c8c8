/*
 * report_text.c — the compiler-style text reporter ("path:line:col: CAN101
 * message" + a summary line), and the small helpers every reporter shares
 * (sorted views of the results, which findings are listed).
 *
 * Text goes to terminals and CI logs, so strings from source code are shown
 * as visible escapes when they hold control characters, invalid UTF-8 or
 * bidirectional overrides: a hostile file name cannot move the cursor,
 * recolor the terminal or reorder what the reader sees.
 */
#include "report/report.h"
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

int report_text(FILE *out, const ca_results *r, const report_opts *o)
{
    ca_finding *fs = report_sorted_findings(r);
    CA_VEC(rule_count) counts = {0};
    ca_sb sb = {0};
    int ok = 1, total = 0, suppressed = 0;
    int color = o && o->color;

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
        ok = flush_sb(out, &sb) && ok;
        if (f->suppressed) continue;
        total++;
        size_t k = 0;
        while (k < counts.n && strcmp(counts.v[k].rule, f->rule ? f->rule : "") != 0) k++;
        if (k == counts.n) CA_VEC_PUSH(counts, ((rule_count){f->rule ? f->rule : "", 0}));
        counts.v[k].n++;
    }
    if (counts.n) qsort(counts.v, counts.n, sizeof(rule_count), cmp_rule_count);

    ca_sb_addf(&sb, "%d %s", total, plural(total, "finding", "findings"));
    if (counts.n) {
        ca_sb_adds(&sb, " (");
        for (size_t k = 0; k < counts.n; k++) {
            ca_sb_addf(&sb, "%s%d ", k ? ", " : "", counts.v[k].n);
            add_shown(&sb, counts.v[k].rule);
        }
        ca_sb_addc(&sb, ')');
    }
    int scanned = r->scan.files_scanned, skipped = r->scan.files_skipped, errors = r->scan.errors;
    ca_sb_addf(&sb, " in %d %s; %d %s skipped (no async), %d %s; %d baselined", scanned,
               plural(scanned, "file", "files"), skipped, plural(skipped, "file", "files"), errors,
               plural(errors, "error", "errors"), report_baselined_count(r));
    if (suppressed) ca_sb_addf(&sb, "; %d suppressed", suppressed);
    int unchanged = 0;
    for (size_t i = 0; i < r->nfindings; i++) unchanged += r->findings[i].baselined == 2;
    if (unchanged) ca_sb_addf(&sb, "; %d outside the changed lines", unchanged);
    ca_sb_addc(&sb, '\n');
    ok = flush_sb(out, &sb) && ok;

    ca_sb_release(&sb);
    CA_VEC_FREE(counts);
    free(fs);
    if (fflush(out) != 0 || ferror(out)) ok = 0;
    return ok ? 0 : -1;
}
