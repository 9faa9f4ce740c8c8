/*
 * report_matrix.c — `cancelaudit matrix`: the backend × boundary coverage
 * matrix of a stored scan, one grid per family of backends (DESIGN §4), as
 * terminal text, Markdown, JSON or one HTML page (report_store.h), written
 * through the document writer of doc.h; the HTML page's evidence of each
 * gap cell is its findings as bugs (bug.h).
 *
 * Layout decisions: every format puts the shorter axis across (what fits a
 * terminal, an issue, a page without scrolling sideways); the terminal grid
 * also wraps cell text to fit the width, and falls back to a list per
 * boundary when no grid fits. Families come in the store's order (the
 * largest first); boundaries by how many backends define them, then by
 * name; backends by name. A family none of whose cells shows a window is
 * named, not drawn, unless asked for.
 *
 * Scans stored before families have cells that name no family: they are
 * drawn as the one matrix they were.
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
static const char *nz(const char *s) { return s ? s : ""; }

/* A cell that says something of its inherited code's windows. */
static int inherited_with(const ca_coverage *c, int rules)
{
    if (!str_eq(c->status, "inherited")) return 0;
    return rules ? c->rules && *c->rules : (c->rules && *c->rules) || (c->protection && *c->protection);
}

void report_matrix_select(ca_results *r, const char *select)
{
    if (!select || !*select) return;
    for (size_t i = 0; i < r->ncoverage; i++) {
        ca_coverage *c = &r->coverage[i];
        if (!str_eq(c->status, "gap") && !inherited_with(c, 1)) continue;
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
        free(c->rules);
        free(c->lines);
        c->rules = ca_xstrdup("");
        c->lines = ca_xstrdup("");
        if (str_eq(c->status, "inherited")) continue; /* still the other class's code */
        free(c->status);
        c->status = ca_xstrdup(c->protection && *c->protection ? "covered" : "no-window");
    }
}

/* ---- the families' grids ------------------------------------------------------ */

/* One family's grid. */
typedef struct mview {
    const char *name;         /* "" for the cells of a scan stored before families */
    const ca_family *fam;     /* its record; NULL for those */
    const char **backends;
    size_t nb;
    const char **bounds;
    size_t nbd;
    const ca_coverage **grid; /* [backend * nbd + boundary]; NULL: no cell */
    size_t ngap, ncovered, ninherited, nnowin, nabsent;
    int windows;              /* a cell shows a window: something to audit */
    int drawn;
} mview;

typedef struct mset {
    mview *v;                 /* the families the filters keep, in order */
    size_t n;
    size_t ndrawn;
} mset;

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

/* A family's name as --family may give it: whole, or a duck-typed
 * family's without its '*'. */
static int family_named(const char *name, const char *want)
{
    return str_eq(name, want) || (name && name[0] == '*' && str_eq(name + 1, want));
}

static void mview_build(mview *v, const ca_coverage *const *cells, size_t n)
{
    const char **bs = ca_xmalloc(sizeof(char *) * (n + 1));
    bcount *bd = ca_xmalloc(sizeof(bcount) * (n + 1));
    size_t nbd = 0, nb = 0;
    for (size_t i = 0; i < n; i++) {
        const ca_coverage *c = cells[i];
        const char *be = nz(c->backend), *bn = nz(c->boundary);
        bs[nb++] = be;
        size_t k = 0;
        while (k < nbd && strcmp(bd[k].name, bn) != 0) k++;
        if (k == nbd) bd[nbd++] = (bcount){bn, 0};
        if (!str_eq(c->status, "absent")) bd[k].defined++;
        const char *st = c->status;
        if (str_eq(st, "gap")) v->ngap++;
        else if (str_eq(st, "covered")) v->ncovered++;
        else if (str_eq(st, "inherited")) v->ninherited++;
        else if (str_eq(st, "no-window")) v->nnowin++;
        else if (str_eq(st, "absent")) v->nabsent++;
        if (str_eq(st, "gap") || str_eq(st, "covered") || inherited_with(c, 0)) v->windows = 1;
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
    for (size_t i = 0; i < n; i++) {
        const ca_coverage *c = cells[i];
        size_t b = 0, d = 0;
        while (b < v->nb && strcmp(v->backends[b], nz(c->backend)) != 0) b++;
        while (d < v->nbd && strcmp(v->bounds[d], nz(c->boundary)) != 0) d++;
        if (b < v->nb && d < v->nbd && !v->grid[b * v->nbd + d]) v->grid[b * v->nbd + d] = c;
    }
}

/* The names of the families r has, records first (their order), then
 * those only cells name ("" for cells of none). */
static size_t family_names(const ca_results *r, const char ***out)
{
    const char **names = ca_xmalloc(sizeof(char *) * (r->nfamilies + r->ncoverage + 1));
    size_t n = 0;
    for (size_t i = 0; i < r->nfamilies; i++) names[n++] = nz(r->families[i].name);
    for (size_t i = 0; i < r->ncoverage; i++) {
        const char *f = nz(r->coverage[i].family);
        int seen = 0;
        for (size_t k = 0; k < n && !seen; k++) seen = strcmp(names[k], f) == 0;
        if (!seen) names[n++] = f;
    }
    *out = names;
    return n;
}

static void mset_build(mset *s, const ca_results *r, const rs_opts *o)
{
    memset(s, 0, sizeof(*s));
    const char **names;
    size_t nn = family_names(r, &names);
    s->v = ca_xcalloc(nn + 1, sizeof(mview));
    const ca_coverage **cells = ca_xmalloc(sizeof(ca_coverage *) * (r->ncoverage + 1));
    for (size_t i = 0; i < nn; i++) {
        if (o->family && !family_named(names[i], o->family)) continue;
        size_t n = 0;
        for (size_t k = 0; k < r->ncoverage; k++) {
            const ca_coverage *c = &r->coverage[k];
            if (!rs_cell_in_family(c, names[i])) continue;
            if (o->boundary && !str_eq(c->boundary, o->boundary)) continue;
            cells[n++] = c;
        }
        if (!n) continue;
        mview *v = &s->v[s->n++];
        v->name = names[i];
        v->fam = rs_family_named(r, names[i]);
        mview_build(v, cells, n);
        v->drawn = o->family || o->boundary || v->windows;
        s->ndrawn += v->drawn;
    }
    free(cells);
    free(names);
}

static void mset_free(mset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].backends);
        free(s->v[i].bounds);
        free(s->v[i].grid);
    }
    free(s->v);
}

int report_matrix_check(const ca_results *r, const rs_opts *o, char **err)
{
    *err = NULL;
    const char **names;
    size_t nn = family_names(r, &names);
    ca_sb sb = {0};
    if (o->family) {
        int found = 0;
        for (size_t i = 0; i < nn && !found; i++) found = family_named(names[i], o->family);
        if (!found) {
            ca_sb_adds(&sb, "no family ");
            doc_put(&sb, o->family, DOC_PUT_TERM);
            ca_sb_adds(&sb, " in this scan (families: ");
            size_t k = 0;
            for (size_t i = 0; i < nn; i++) {
                if (!*names[i]) continue;
                if (k++) ca_sb_adds(&sb, ", ");
                doc_put(&sb, names[i], DOC_PUT_TERM);
            }
            ca_sb_adds(&sb, k ? ")" : "none)");
        }
    }
    if (!sb.len && o->boundary) {
        int found = 0;
        for (size_t i = 0; i < r->ncoverage && !found; i++) {
            const ca_coverage *c = &r->coverage[i];
            int in = !o->family;
            for (size_t k = 0; k < nn && !in; k++) in = family_named(names[k], o->family) && rs_cell_in_family(c, names[k]);
            found = in && str_eq(c->boundary, o->boundary);
        }
        if (!found) {
            ca_sb_adds(&sb, "no boundary ");
            doc_put(&sb, o->boundary, DOC_PUT_TERM);
            ca_sb_adds(&sb, o->family ? " in this family" : " in this scan");
            ca_sb_adds(&sb, " (boundaries: ");
            size_t k = 0;
            CA_VEC(const char *) seen = {0};
            for (size_t i = 0; i < r->ncoverage; i++) {
                const ca_coverage *c = &r->coverage[i];
                int in = !o->family;
                for (size_t q = 0; q < nn && !in; q++) in = family_named(names[q], o->family) && rs_cell_in_family(c, names[q]);
                int dup = 0;
                for (size_t q = 0; q < seen.n && !dup; q++) dup = str_eq(seen.v[q], c->boundary);
                if (!in || dup || !c->boundary) continue;
                CA_VEC_PUSH(seen, c->boundary);
                if (k++) ca_sb_adds(&sb, ", ");
                doc_put(&sb, c->boundary, DOC_PUT_TERM);
            }
            CA_VEC_FREE(seen);
            ca_sb_adds(&sb, k ? ")" : "none)");
        }
    }
    free(names);
    if (!sb.len) return 1;
    *err = ca_sb_detach(&sb);
    return 0;
}

/* What a family is, after its name: "subclasses of BaseSandboxSession
 * (path:line)", "implementations of the protocol ...", "duck-typed
 * siblings: classes named *Provider with shared async methods", ... */
static void family_kind_text(ca_sb *sb, const ca_family *f, doc_mode mode)
{
    if (!f) return;
    const char *k = f->kind;
    if (str_eq(k, "subclasses") || str_eq(k, "protocol")) {
        ca_sb_adds(sb, str_eq(k, "protocol") ? "classes that implement the protocol " : "subclasses of ");
        doc_put(sb, f->base ? f->base : f->name, mode);
        if (f->path) {
            ca_sb_adds(sb, " at ");
            doc_put(sb, f->path, mode);
            if (f->line > 0) ca_sb_addf(sb, ":%d", f->line);
        }
    } else if (str_eq(k, "duck-typed")) {
        ca_sb_adds(sb, "duck-typed siblings: classes named ");
        doc_put(sb, f->name, mode);
        ca_sb_adds(sb, " with shared async methods");
    } else if (str_eq(k, "directory")) {
        ca_sb_adds(sb, "backends by directory: the tree has no family of classes");
    } else if (str_eq(k, "configured")) {
        ca_sb_adds(sb, "backends by configuration");
    } else {
        doc_put(sb, k, mode);
    }
}

/* family_kind_text through a document writer: names as code, the base's
 * place as a location; cap: the first letter a capital (a sentence). */
static void family_kind_doc(doc_writer *d, const ca_family *f, int cap)
{
    const char *k = f->kind;
    if (str_eq(k, "subclasses") || str_eq(k, "protocol")) {
        doc_lit(d, str_eq(k, "protocol") ? (cap ? "Classes that implement the protocol " : "classes that implement the protocol ")
                                         : (cap ? "Subclasses of " : "subclasses of "));
        doc_code(d, f->base ? f->base : f->name);
        if (f->path) {
            doc_lit(d, " at ");
            doc_loc(d, f->path, f->line);
        }
    } else if (str_eq(k, "duck-typed")) {
        doc_lit(d, cap ? "Duck-typed siblings: classes named " : "duck-typed siblings: classes named ");
        doc_code(d, f->name);
        doc_lit(d, " with shared async methods");
    } else if (str_eq(k, "directory")) {
        doc_lit(d, cap ? "Backends by directory: the tree has no family of classes"
                       : "backends by directory: the tree has no family of classes");
    } else if (str_eq(k, "configured")) {
        doc_lit(d, cap ? "Backends by configuration" : "backends by configuration");
    } else {
        doc_val(d, k);
    }
}

/* " Not backends: `SandboxSession` (proxy), ...." when there are such members. */
static void excluded_doc(doc_writer *d, const ca_family *f)
{
    size_t n = 0;
    for (size_t i = 0; f && i < f->nmembers; i++) {
        const ca_family_member *m = &f->members[i];
        if (m->backend || !m->class_name) continue;
        doc_lit(d, n++ ? ", " : " Not backends: ");
        doc_code(d, m->class_name);
        doc_lit(d, " (");
        doc_val(d, m->role);
        doc_lit(d, ")");
    }
    if (n) doc_lit(d, ".");
}

/* The members that are no backend: "SandboxSession (proxy), ..." (raw). */
static size_t excluded_text(ca_sb *sb, const ca_family *f)
{
    size_t n = 0;
    for (size_t i = 0; f && i < f->nmembers; i++) {
        const ca_family_member *m = &f->members[i];
        if (m->backend || !m->class_name) continue;
        if (n++) ca_sb_adds(sb, ", ");
        ca_sb_adds(sb, m->class_name);
        ca_sb_adds(sb, " (");
        ca_sb_adds(sb, nz(m->role));
        ca_sb_addc(sb, ')');
    }
    return n;
}

/* "gap CAN101,CAN102 L44,60" / "covered: except BaseException" /
 * "inherited gap CAN102 L8" / "inherited: finally" / status */
static void cell_text(ca_sb *sb, const ca_coverage *c)
{
    if (!c) {
        ca_sb_adds(sb, "?");
        return;
    }
    int inh = str_eq(c->status, "inherited");
    if (str_eq(c->status, "gap") || inherited_with(c, 1)) {
        ca_sb_adds(sb, inh ? "inherited gap " : "gap ");
        ca_sb_adds(sb, c->rules ? c->rules : "");
        ca_sb tmp = {0};
        rs_lines_list(&tmp, c->lines, ",");
        if (tmp.len) ca_sb_addf(sb, " L%s", ca_sb_str(&tmp));
        ca_sb_release(&tmp);
    } else if ((str_eq(c->status, "covered") || inh) && c->protection && *c->protection) {
        ca_sb_adds(sb, inh ? "inherited: " : "covered: ");
        ca_sb_adds(sb, c->protection);
    } else {
        ca_sb_adds(sb, c->status ? c->status : "?");
    }
}

static const char *const legend[][2] = {
    {"gap", "a resource has no owner across a cancellation point (rules, lines)"},
    {"covered", "every window is released on cancellation (the protection found)"},
    {"no-window", "nothing the method acquires is live across an await"},
    {"inherited", "the backend runs a method of another class (judged from that code)"},
    {"absent", "the backend does not define the method"},
};

/* The legend's entries for the statuses the drawn grids show. */
static int legend_used(const mset *s, size_t i)
{
    for (size_t k = 0; k < s->n; k++) {
        const mview *v = &s->v[k];
        if (!v->drawn) continue;
        size_t counts[] = {v->ngap, v->ncovered, v->nnowin, v->ninherited, v->nabsent};
        if (counts[i]) return 1;
    }
    return i != 3; /* inherited only where it occurs: older matrices never had it */
}

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
/* The end of a family's title line, " (what its members are)", and the
 * line of the classes that are not backends. */
static void text_family_tail(ca_sb *sb, const mview *v)
{
    if (v->fam) {
        ca_sb kind = {0};
        family_kind_text(&kind, v->fam, DOC_PUT_TERM);
        if (kind.len) ca_sb_addf(sb, " (%s)", ca_sb_str(&kind));
        ca_sb_release(&kind);
    }
    ca_sb_addc(sb, '\n');
    ca_sb ex = {0};
    if (excluded_text(&ex, v->fam)) {
        ca_sb_adds(sb, "not backends: ");
        doc_put(sb, ca_sb_str(&ex), DOC_PUT_TERM);
        ca_sb_addc(sb, '\n');
    }
    ca_sb_release(&ex);
}

static void text_title(ca_sb *sb, const mview *v)
{
    if (*v->name) {
        doc_put(sb, v->name, DOC_PUT_TERM);
        ca_sb_adds(sb, ": ");
    }
    ca_sb_addf(sb, "%zu backend%s x %zu boundar%s", v->nb, v->nb == 1 ? "" : "s", v->nbd, v->nbd == 1 ? "y" : "ies");
    text_family_tail(sb, v);
}

static void text_header(ca_sb *sb, const ca_results *r, const rs_opts *o)
{
    ca_sb_adds(sb, "coverage matrix");
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

/* `--boundary`: the one row of each family as lines: backend, cell, where. */
static void text_row_list(ca_sb *sb, const mview *v, const rs_opts *o)
{
    size_t labw = 0, cellw = 0;
    char **texts = ca_xcalloc(v->nb + 1, sizeof(char *));
    for (size_t b = 0; b < v->nb; b++) {
        size_t w = doc_display_width(v->backends[b]);
        if (w > labw) labw = w;
        ca_sb raw = {0}, shown = {0};
        cell_text(&raw, v->grid[b * v->nbd]);
        doc_put(&shown, ca_sb_str(&raw), DOC_PUT_TERM);
        ca_sb_release(&raw);
        texts[b] = ca_sb_detach(&shown);
        size_t cw = doc_utf8_width(texts[b], strlen(texts[b]));
        if (cw > cellw) cellw = cw;
    }
    if (labw > 28) labw = 28;
    if (cellw > 44) cellw = 44;
    for (size_t b = 0; b < v->nb; b++) {
        const ca_coverage *c = v->grid[b * v->nbd];
        ca_sb_adds(sb, "  ");
        size_t w = doc_display_width(v->backends[b]);
        doc_put(sb, v->backends[b], DOC_PUT_TERM);
        pad(sb, w < labw ? labw - w : 0);
        ca_sb_adds(sb, "  ");
        const char *col = o->color && c ? status_color(c->status) : "";
        ca_sb_adds(sb, col);
        ca_sb_adds(sb, texts[b]);
        if (*col) ca_sb_adds(sb, "\033[0m");
        if (c && c->path) {
            size_t tw = doc_utf8_width(texts[b], strlen(texts[b]));
            pad(sb, tw < cellw ? cellw - tw : 0);
            ca_sb_adds(sb, "  ");
            doc_put(sb, c->path, DOC_PUT_TERM);
            if (c->line > 0) ca_sb_addf(sb, ":%d", c->line);
        }
        ca_sb_addc(sb, '\n');
        free(texts[b]);
    }
    free(texts);
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


/* Legend, the compiler-style list of gaps, and the families not drawn. */
static void text_footer(ca_sb *sb, const ca_results *r, const mset *s)
{
    ca_sb_addc(sb, '\n');
    for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]); i++)
        if (legend_used(s, i)) ca_sb_addf(sb, "%-10s %s\n", legend[i][0], legend[i][1]);
    size_t ngaps = 0;
    for (size_t k = 0; k < s->n; k++) ngaps += s->v[k].drawn ? s->v[k].ngap : 0;
    if (ngaps) {
        ca_sb_addf(sb, "\n%zu gap%s:\n", ngaps, ngaps == 1 ? "" : "s");
        for (size_t k = 0; k < s->n; k++) {
            const mview *v = &s->v[k];
            if (!v->drawn) continue;
            for (size_t b = 0; b < v->nb; b++)
                for (size_t d = 0; d < v->nbd; d++) {
                    const ca_coverage *c = v->grid[b * v->nbd + d];
                    if (!c || !str_eq(c->status, "gap")) continue;
                    /* a gap line in a helper the boundary calls is that helper's file's */
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
    }
    if (s->ndrawn < s->n) {
        ca_sb_addf(sb, "\n%zu famil%s not drawn (no window in any cell):", s->n - s->ndrawn,
                   s->n - s->ndrawn == 1 ? "y" : "ies");
        size_t k = 0;
        for (size_t i = 0; i < s->n; i++) {
            const mview *v = &s->v[i];
            if (v->drawn) continue;
            ca_sb_adds(sb, k++ ? ", " : " ");
            doc_put(sb, v->name, DOC_PUT_TERM);
            ca_sb_addf(sb, " (%zu backend%s)", v->nb, v->nb == 1 ? "" : "s");
        }
        ca_sb_adds(sb, "; `cancelaudit matrix --family NAME` draws one\n");
    }
}

static void matrix_text(ca_sb *sb, const ca_results *r, const mset *s, const rs_opts *o)
{
    text_header(sb, r, o);
    if (s->n == 0) {
        ca_sb_adds(sb, "no boundaries: no async method is defined by two or more backends\n");
        return;
    }
    for (size_t k = 0; k < s->n; k++) {
        const mview *v = &s->v[k];
        if (!v->drawn) continue;
        ca_sb_addc(sb, '\n');
        if (o->boundary) {
            doc_put(sb, o->boundary, DOC_PUT_TERM);
            if (*v->name) {
                ca_sb_adds(sb, " in ");
                doc_put(sb, v->name, DOC_PUT_TERM);
            }
            ca_sb_addf(sb, ": %zu backend%s", v->nb, v->nb == 1 ? "" : "s");
            text_family_tail(sb, v);
            text_row_list(sb, v, o);
            continue;
        }
        text_title(sb, v);
        if (text_grid(sb, v, o) != 0) text_list(sb, v, o);
    }
    /* the one-row lists say all a footer would */
    if (!o->boundary) text_footer(sb, r, s);
}

/* ---- Markdown and HTML ------------------------------------------------------ */

/* A value that must not break across lines (a word with a hyphen). */
static void nw_val(doc_writer *d, const char *s)
{
    doc_raw(d, "", "<span class=\"nw\">");
    doc_val(d, s);
    doc_raw(d, "", "</span>");
}

static void nw_code(doc_writer *d, const char *s)
{
    doc_raw(d, "", "<span class=\"nw\">");
    doc_code(d, s);
    doc_raw(d, "", "</span>");
}

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
    } else if (str_eq(st, "gap") || inherited_with(c, 1)) {
        int inh = str_eq(st, "inherited");
        if (inh) {
            doc_lit(d, "inherited");
            doc_raw(d, " (", "<span class=\"detail rules\">");
            doc_lit(d, "gap: ");
        } else {
            char anchor[32];
            snprintf(anchor, sizeof(anchor), "gap-%zu", gap_index);
            doc_link(d, anchor);
            doc_strong(d, "gap");
            doc_link_end(d);
            doc_raw(d, ": ", "<span class=\"detail rules\">");
        }
        rs_rules_val(d, c->rules);
        ca_sb tmp = {0};
        size_t nlines = rs_lines_list(&tmp, c->lines, ", ");
        if (nlines) {
            doc_raw(d, inh ? ", " : " ", "</span><span class=\"detail lines\">");
            if (!inh) doc_lit(d, "(");
            doc_lit(d, nlines > 1 ? "lines " : "line ");
            doc_lit(d, ca_sb_str(&tmp));
            if (!inh) doc_lit(d, ")");
        }
        doc_raw(d, inh ? ")" : "", "</span>");
        ca_sb_release(&tmp);
    } else if (str_eq(st, "covered") || str_eq(st, "inherited")) {
        doc_lit(d, st);
        if (c->protection && *c->protection) {
            doc_raw(d, str_eq(st, "covered") ? ": " : " (", "<span class=\"detail protection\">");
            doc_val(d, c->protection);
            doc_raw(d, str_eq(st, "covered") ? "" : ")", "</span>");
        }
    } else {
        nw_val(d, st ? st : "?");
    }
    doc_cell_end(d);
}

/* Whether the grid puts the backends across (the shorter axis goes across;
 * on a tie the boundaries, as matrices always did). */
static int backends_across(const mview *v) { return v->nb < v->nbd; }

/* gapno[b * nbd + d]: the number of each gap cell in the order the table
 * shows them, from *next on. */
static size_t *number_gaps(const mview *v, size_t *next)
{
    size_t *no = ca_xcalloc(v->nb * v->nbd + 1, sizeof(size_t));
    int across = backends_across(v);
    size_t rows = across ? v->nbd : v->nb, cols = across ? v->nb : v->nbd;
    for (size_t i = 0; i < rows; i++)
        for (size_t k = 0; k < cols; k++) {
            size_t b = across ? k : i, d = across ? i : k;
            const ca_coverage *c = v->grid[b * v->nbd + d];
            if (c && str_eq(c->status, "gap")) no[b * v->nbd + d] = ++*next;
        }
    return no;
}

static void matrix_table(doc_writer *d, const mview *v, const size_t *gapno)
{
    int across = backends_across(v);
    size_t rows = across ? v->nbd : v->nb, cols = across ? v->nb : v->nbd;
    doc_raw(d, "", "<div class=\"matrix-wrap\">\n");
    doc_table(d, "matrix");
    doc_row(d);
    doc_cell(d, 1, NULL, NULL);
    doc_lit(d, across ? "boundary" : "backend");
    doc_cell_end(d);
    for (size_t k = 0; k < cols; k++) {
        doc_cell(d, 1, NULL, NULL);
        if (across) nw_val(d, v->backends[k]);
        else nw_code(d, v->bounds[k]);
        doc_cell_end(d);
    }
    doc_row_end(d);
    for (size_t i = 0; i < rows; i++) {
        doc_row(d);
        doc_cell(d, 1, across ? "boundary" : "backend", NULL);
        if (across) nw_code(d, v->bounds[i]);
        else nw_val(d, v->backends[i]);
        doc_cell_end(d);
        for (size_t k = 0; k < cols; k++) {
            size_t b = across ? k : i, x = across ? i : k;
            matrix_cell(d, v->grid[b * v->nbd + x], gapno[b * v->nbd + x]);
        }
        doc_row_end(d);
    }
    doc_table_end(d);
    doc_raw(d, "", "</div>\n");
}

static void matrix_legend(doc_writer *d, const mset *s)
{
    doc_para(d);
    doc_raw(d, "", "<span class=\"legend\">");
    int any = 0;
    for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]); i++) {
        if (!legend_used(s, i)) continue;
        if (d->html) ca_sb_addf(d->sb, "<span><span class=\"swatch %s\"></span>", legend[i][0]);
        else if (any) ca_sb_adds(d->sb, " ·\n");
        any = 1;
        doc_strong(d, legend[i][0]);
        doc_lit(d, ": ");
        doc_lit(d, legend[i][1]);
        doc_raw(d, "", "</span>");
    }
    doc_raw(d, "", "</span>");
    doc_para_end(d);
}

/* One list item per gap: where it is and what it is. */
static void matrix_gap_item(doc_writer *d, const ca_results *r, const ca_coverage *c, const char *family)
{
    const ca_finding *via = rs_line_helper(r, c, c->line);
    if (family && *family) {
        doc_val(d, family);
        doc_lit(d, " · ");
    }
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
    size_t nsorted;
    ca_finding *sorted = report_resource_findings(r, &nsorted);
    const ca_finding **fs = ca_xmalloc(sizeof(ca_finding *) * (nsorted + 1));
    size_t n = 0;
    for (size_t i = 0; i < nsorted; i++)
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
        for (size_t k = 0, shown = 0; k < groups.v[i].n; k++) {
            /* a finding of several resources: its fingerprint once */
            int seen = 0;
            for (size_t q = 0; q < k && !seen; q++)
                seen = groups.v[i].f[q]->fingerprint == groups.v[i].f[k]->fingerprint;
            if (seen) continue;
            if (shown++) doc_lit(d, ", ");
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

/* "9 backends × 22 boundaries: 16 gaps, 2 covered, ..." */
static void counts_line(doc_writer *d, const mview *v)
{
    doc_litf(d, "%zu backend%s × %zu boundar%s", v->nb, v->nb == 1 ? "" : "s", v->nbd, v->nbd == 1 ? "y" : "ies");
    const size_t counts[] = {v->ngap, v->ncovered, v->ninherited, v->nnowin, v->nabsent};
    static const char *const what[][2] = {{"gap", "gaps"}, {"covered", "covered"}, {"inherited", "inherited"},
                                           {"no-window", "no-window"}, {"absent", "absent"}};
    size_t k = 0;
    for (size_t i = 0; i < 5; i++) {
        if (!counts[i]) continue;
        doc_litf(d, "%s%zu %s", k++ ? ", " : ": ", counts[i], what[i][counts[i] == 1 ? 0 : 1]);
    }
}

/* A family's heading and what it is. */
static void family_intro(doc_writer *d, const mview *v, size_t index, int html)
{
    if (html) ca_sb_addf(d->sb, "<section class=\"family\" id=\"family-%zu\">\n", index);
    doc_heading(d, 2, NULL);
    doc_val(d, *v->name ? v->name : "Backends");
    if (html) {
        ca_sb_adds(d->sb, " <span class=\"counts\">");
        counts_line(d, v);
        ca_sb_adds(d->sb, "</span>");
    }
    doc_heading_end(d, 2);
    doc_para(d);
    if (!html) {
        counts_line(d, v);
        doc_lit(d, ".");
    }
    if (v->fam) {
        doc_lit(d, html ? "" : " ");
        family_kind_doc(d, v->fam, 1);
        doc_lit(d, ".");
        excluded_doc(d, v->fam);
    }
    doc_para_end(d);
}

static int cmp_cell_backend(const void *a, const void *b)
{
    const ca_coverage *x = *(const ca_coverage *const *)a, *y = *(const ca_coverage *const *)b;
    return strcmp(nz(x->backend), nz(y->backend));
}

/* --boundary: the family's one row as the table an issue takes. */
static void boundary_list(doc_writer *d, const ca_results *r, const mview *v, const rs_opts *o, size_t index,
                          int html)
{
    if (html) ca_sb_addf(d->sb, "<section class=\"family\" id=\"family-%zu\">\n", index);
    doc_heading(d, 2, NULL);
    doc_code(d, o->boundary);
    if (*v->name) {
        doc_lit(d, " in ");
        doc_val(d, v->name);
    }
    doc_heading_end(d, 2);
    doc_para(d);
    size_t defined = v->nb - v->nabsent;
    doc_litf(d, "%zu of %zu backends run ", defined, v->nb);
    doc_code(d, o->boundary);
    const size_t counts[] = {v->ngap, v->ncovered, v->ninherited, v->nnowin};
    static const char *const what[][2] = {{"has a gap", "have a gap"}, {"is covered", "are covered"},
                                           {"inherits it", "inherit it"},
                                           {"holds nothing across an await", "hold nothing across an await"}};
    size_t k = 0;
    for (size_t i = 0; i < 4; i++) {
        if (!counts[i]) continue;
        doc_litf(d, "%s%zu %s", k++ ? ", " : ": ", counts[i], what[i][counts[i] == 1 ? 0 : 1]);
    }
    doc_lit(d, ".");
    if (v->fam) {
        doc_lit(d, " The backends: ");
        family_kind_doc(d, v->fam, 0);
        doc_lit(d, ".");
        excluded_doc(d, v->fam);
    }
    doc_para_end(d);
    const ca_coverage **cells = ca_xmalloc(sizeof(ca_coverage *) * (v->nb + 1));
    size_t n = 0;
    for (size_t b = 0; b < v->nb; b++)
        if (v->grid[b * v->nbd]) cells[n++] = v->grid[b * v->nbd];
    qsort(cells, n, sizeof(ca_coverage *), cmp_cell_backend);
    rs_boundary_table(d, r, cells, n, NULL);
    const ca_coverage *prec = rs_precedent(cells, n);
    if (prec && v->ngap) {
        doc_para(d);
        doc_lit(d, "Working precedent for the gaps: ");
        doc_val(d, prec->backend);
        doc_lit(d, " (");
        doc_code(d, prec->function);
        doc_lit(d, ", ");
        doc_loc(d, prec->path, prec->line);
        doc_lit(d, ") releases on cancellation with ");
        doc_val(d, prec->protection);
        doc_lit(d, ".");
        doc_para_end(d);
    }
    free(cells);
    if (html) ca_sb_adds(d->sb, "</section>\n");
}

/* The families not drawn, by name. */
static void quiet_families(doc_writer *d, const mset *s)
{
    if (s->ndrawn == s->n) return;
    doc_para(d);
    doc_litf(d, "%zu famil%s not drawn (no window in any cell): ", s->n - s->ndrawn,
             s->n - s->ndrawn == 1 ? "y" : "ies");
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        const mview *v = &s->v[i];
        if (v->drawn) continue;
        if (k++) doc_lit(d, ", ");
        doc_val(d, v->name);
        doc_litf(d, " (%zu backend%s)", v->nb, v->nb == 1 ? "" : "s");
    }
    doc_lit(d, ". ");
    doc_code(d, "cancelaudit matrix --family NAME");
    doc_lit(d, " draws one.");
    doc_para_end(d);
}

static void matrix_doc(ca_sb *sb, const ca_results *r, const mset *s, const rs_opts *o, int html)
{
    doc_writer d = {.sb = sb, .html = html};
    if (html) doc_html_page_begin(&d, "cancelaudit: cancellation coverage matrix");
    doc_heading(&d, 1, NULL);
    if (o->boundary) {
        doc_code(&d, o->boundary);
        doc_lit(&d, ": cancellation coverage across the backends");
    } else {
        doc_lit(&d, "Cancellation coverage matrix");
    }
    doc_heading_end(&d, 1);
    doc_para(&d);
    size_t named = 0;
    for (size_t i = 0; i < s->n; i++) named += *s->v[i].name != 0;
    if (s->n == 1 && !named) {
        doc_litf(&d, "%zu backend%s × %zu boundar%s (async methods that two or more backends define).", s->v[0].nb,
                 s->v[0].nb == 1 ? "" : "s", s->v[0].nbd, s->v[0].nbd == 1 ? "y" : "ies");
    } else if (s->n) {
        if (o->boundary) {
            doc_code(&d, o->boundary);
            doc_litf(&d, " is a boundary of %zu famil%s: ", s->n, s->n == 1 ? "y" : "ies");
        } else {
            doc_litf(&d, "%zu famil%s of backends", s->n, s->n == 1 ? "y" : "ies");
            if (s->ndrawn < s->n) doc_litf(&d, ", %zu drawn", s->ndrawn);
            doc_lit(&d, ": ");
        }
        size_t k = 0;
        for (size_t i = 0; i < s->n; i++) {
            const mview *v = &s->v[i];
            if (!v->drawn) continue;
            if (k++) doc_lit(&d, "; ");
            if (html) ca_sb_addf(sb, "<a href=\"#family-%zu\">", i + 1);
            doc_val(&d, *v->name ? v->name : "backends");
            if (html) ca_sb_adds(sb, "</a>");
            doc_litf(&d, " (%zu backend%s", v->nb, v->nb == 1 ? "" : "s");
            if (v->ngap) doc_litf(&d, ", %zu gap%s", v->ngap, v->ngap == 1 ? "" : "s");
            doc_lit(&d, ")");
        }
        doc_lit(&d, ".");
    }
    doc_raw(&d, "\n", " <span class=\"meta\">");
    matrix_scan_line(&d, r, o);
    doc_raw(&d, "", "</span>");
    doc_para_end(&d);
    if (s->n == 0) {
        doc_para(&d);
        doc_lit(&d, "No boundaries: no async method is defined by two or more backends.");
        doc_para_end(&d);
        if (html) doc_html_page_end(&d);
        return;
    }
    if (o->boundary) {
        for (size_t i = 0; i < s->n; i++)
            if (s->v[i].drawn) boundary_list(&d, r, &s->v[i], o, i + 1, html);
        if (html) doc_html_page_end(&d);
        return;
    }
    size_t **gapno = ca_xcalloc(s->n + 1, sizeof(size_t *));
    size_t next = 0, ngaps = 0;
    int one = s->ndrawn == 1 && !named; /* an old scan's one unnamed grid: no section of its own */
    for (size_t i = 0; i < s->n; i++) {
        const mview *v = &s->v[i];
        if (!v->drawn) continue;
        gapno[i] = number_gaps(v, &next);
        ngaps += v->ngap;
        if (!one) family_intro(&d, v, i + 1, html);
        matrix_table(&d, v, gapno[i]);
        if (html && !one) ca_sb_adds(sb, "</section>\n");
    }
    matrix_legend(&d, s);
    quiet_families(&d, s);
    if (ngaps && !html) {
        doc_heading(&d, 2, NULL);
        doc_litf(&d, "Gaps (%zu)", ngaps);
        doc_heading_end(&d, 2);
        doc_list(&d);
        for (size_t i = 0; i < s->n; i++) {
            const mview *v = &s->v[i];
            if (!v->drawn) continue;
            for (size_t b = 0; b < v->nb; b++)
                for (size_t x = 0; x < v->nbd; x++) {
                    const ca_coverage *c = v->grid[b * v->nbd + x];
                    if (!c || !str_eq(c->status, "gap")) continue;
                    doc_item(&d);
                    matrix_gap_item(&d, r, c, s->ndrawn > 1 ? v->name : NULL);
                    doc_item_end(&d);
                }
        }
        doc_list_end(&d);
        doc_para(&d);
        doc_lit(&d, "For an issue-ready report of one backend: ");
        doc_code(&d, "cancelaudit report --backend NAME");
        doc_lit(&d, "; of one boundary across the backends: ");
        doc_code(&d, "cancelaudit report --boundary NAME");
        doc_lit(&d, ".");
        doc_para_end(&d);
    }
    if (ngaps && html) {
        /* the evidence in the numbering's order */
        for (size_t no = 1; no <= next; no++)
            for (size_t i = 0; i < s->n; i++) {
                const mview *v = &s->v[i];
                if (!v->drawn) continue;
                for (size_t k = 0; k < v->nb * v->nbd; k++) {
                    if (gapno[i][k] != no) continue;
                    const ca_coverage *c = v->grid[k];
                    char anchor[32];
                    snprintf(anchor, sizeof(anchor), "gap-%zu", no);
                    ca_sb_addf(sb, "<section class=\"evidence\" id=\"%s\">\n", anchor);
                    doc_heading(&d, 2, NULL);
                    if (s->ndrawn > 1 && *v->name) {
                        doc_val(&d, v->name);
                        doc_lit(&d, " · ");
                    }
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
    }
    for (size_t i = 0; i < s->n; i++) free(gapno[i]);
    free(gapno);
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


static void matrix_json(ca_sb *sb, const ca_results *r, const mset *s, const rs_opts *o)
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
    ca_json_kv_string(&w, "family", o->family);
    ca_json_kv_string(&w, "boundary", o->boundary);
    /* every backend and boundary of the families kept, in their order */
    CA_VEC(const char *) names = {0};
    for (int pass = 0; pass < 2; pass++) {
        ca_json_key(&w, pass ? "boundaries" : "backends");
        ca_json_begin_array(&w);
        names.n = 0;
        for (size_t i = 0; i < s->n; i++) {
            const mview *v = &s->v[i];
            size_t n = pass ? v->nbd : v->nb;
            for (size_t k = 0; k < n; k++) {
                const char *x = pass ? v->bounds[k] : v->backends[k];
                int seen = 0;
                for (size_t q = 0; q < names.n && !seen; q++) seen = strcmp(names.v[q], x) == 0;
                if (seen) continue;
                CA_VEC_PUSH(names, x);
                ca_json_string(&w, x);
            }
        }
        ca_json_end_array(&w);
    }
    CA_VEC_FREE(names);
    ca_json_key(&w, "families");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < s->n; i++) {
        const mview *v = &s->v[i];
        if (!v->fam) continue;
        /* report_json_family's fields, and what the grid shows of it */
        ca_json_begin_object(&w);
        report_json_family_fields(&w, v->fam);
        ca_json_kv_bool(&w, "drawn", v->drawn);
        ca_json_key(&w, "boundaries");
        ca_json_begin_array(&w);
        for (size_t k = 0; k < v->nbd; k++) ca_json_string(&w, v->bounds[k]);
        ca_json_end_array(&w);
        ca_json_end_object(&w);
    }
    ca_json_end_array(&w);
    ca_json_key(&w, "coverage");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < s->n; i++) {
        const mview *v = &s->v[i];
        for (size_t b = 0; b < v->nb; b++)
            for (size_t k = 0; k < v->nbd; k++) {
                const ca_coverage *c = v->grid[b * v->nbd + k];
                if (!c) continue;
                ca_json_begin_object(&w);
                ca_json_kv_string(&w, "family", c->family);
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
    mset s;
    mset_build(&s, r, o);
    ca_sb sb = {0};
    switch (fmt) {
    case RS_TEXT: matrix_text(&sb, r, &s, o); break;
    case RS_MARKDOWN: matrix_doc(&sb, r, &s, o, 0); break;
    case RS_HTML: matrix_doc(&sb, r, &s, o, 1); break;
    case RS_JSON: matrix_json(&sb, r, &s, o); break;
    }
    mset_free(&s);
    return report_emit(out, &sb);
}
