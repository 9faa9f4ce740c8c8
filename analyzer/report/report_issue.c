/*
 * report_issue.c — `cancelaudit report`: an issue-ready bug report, in
 * Markdown or HTML, for one finding, one backend or one boundary of a
 * stored scan (report_store.h); and the evidence of a gap cell that the
 * HTML matrix shows.
 *
 * The report is written for the maintainer who receives it: what leaks,
 * where, the code (read from the scanned root, with the acquisition, the
 * unprotected checkpoint and the handlers marked), why each handler misses
 * cancellation, how the other backends handle the same boundary, the
 * ownership contract the code should keep, a concrete fix plus the rule
 * doc's pattern, and what produced the report. Findings of one rule at one
 * checkpoint of one function are one bug (a socket and its reader task that
 * leak together), not two.
 *
 * The prose per rule and per resource kind lives in the tables and switch
 * below; the facts all come from the store.
 */
#include "report/report_store.h"
#include "model/cache.h"
#include "report/report.h"
#include "rules/ruledoc.h"

#include <stdlib.h>
#include <string.h>

static int str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }
static const char *nz(const char *s) { return s ? s : ""; }

/* ---- source files, as they are now under the scan's root --------------------- */

typedef struct src_file {
    char *path;        /* as stored */
    char *full;        /* where it was looked for */
    char *text;        /* NULL when unreadable */
    size_t len;
    int err;           /* errno of the read */
    int changed;       /* content hash differs from the scan's */
    size_t *off;       /* start of each line */
    size_t nlines;
} src_file;

typedef struct src_cache {
    const ca_results *r;
    CA_VEC(src_file) files;
} src_cache;

static void src_cache_free(src_cache *c)
{
    for (size_t i = 0; i < c->files.n; i++) {
        free(c->files.v[i].path);
        free(c->files.v[i].full);
        free(c->files.v[i].text);
        free(c->files.v[i].off);
    }
    CA_VEC_FREE(c->files);
}

static src_file *src_get(src_cache *c, const char *path)
{
    if (!path) return NULL;
    for (size_t i = 0; i < c->files.n; i++)
        if (strcmp(c->files.v[i].path, path) == 0) return &c->files.v[i];
    src_file f;
    memset(&f, 0, sizeof(f));
    f.path = ca_xstrdup(path);
    const char *root = c->r->scan.root;
    f.full = path[0] == '/' || !root || !*root ? ca_xstrdup(path) : ca_xasprintf("%s/%s", root, path);
    f.err = ca_read_file(f.full, &f.text, &f.len);
    if (f.err == 0) {
        for (size_t i = 0; i < c->r->nfiles; i++) {
            const ca_file_rec *fr = &c->r->files[i];
            if (!str_eq(fr->path, path) || !fr->hash) continue;
            char hex[17];
            ca_hash_hex(ca_content_hash(f.text, f.len), hex);
            f.changed = strcmp(hex, fr->hash) != 0;
        }
        CA_VEC(size_t) off = {0};
        CA_VEC_PUSH(off, (size_t)0);
        for (size_t i = 0; i < f.len; i++)
            if (f.text[i] == '\n' && i + 1 < f.len) CA_VEC_PUSH(off, i + 1);
        f.off = off.v;
        f.nlines = f.len ? off.n : 0;
    }
    CA_VEC_PUSH(c->files, f);
    return &c->files.v[c->files.n - 1];
}

/* Line lineno (1-based) without its newline; 0 when out of range. */
static int src_line(const src_file *f, int lineno, const char **s, size_t *n)
{
    if (!f || !f->text || lineno < 1 || (size_t)lineno > f->nlines) return 0;
    size_t a = f->off[lineno - 1];
    size_t b = (size_t)lineno < f->nlines ? f->off[lineno] - 1 : f->len;
    if (b > a && f->text[b - 1] == '\n') b--;
    if (b > a && f->text[b - 1] == '\r') b--;
    *s = f->text + a;
    *n = b - a;
    return 1;
}

static int indent_of(const char *s, size_t n, int *blank)
{
    int w = 0;
    size_t i = 0;
    for (; i < n && (s[i] == ' ' || s[i] == '\t'); i++) w += s[i] == '\t' ? 8 - w % 8 : 1;
    *blank = i == n || s[i] == '#';
    return w;
}

/* Byte offset of code point column col (1-based) in s[0..n). */
static size_t col_offset(const char *s, size_t n, int col)
{
    size_t i = 0;
    for (int c = 1; c < col && i < n; c++) {
        i++;
        while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    }
    return i;
}

/* Python source without comments, whitespace collapsed. Quote-aware on one
 * line at a time (a checkpoint's text spans its own lines only). */
static void add_code_line(ca_sb *out, const char *s, size_t n, char *quote)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (*quote) {
            if (c == '\\' && i + 1 < n) {
                ca_sb_addc(out, c);
                c = s[++i];
            } else if (c == *quote) {
                *quote = 0;
            }
        } else if (c == '#') {
            break;
        } else if (c == '"' || c == '\'') {
            *quote = c;
        }
        if (c == ' ' || c == '\t') {
            if (out->len && out->buf[out->len - 1] != ' ' && out->buf[out->len - 1] != '(' &&
                out->buf[out->len - 1] != '[' && out->buf[out->len - 1] != '{')
                ca_sb_addc(out, ' ');
            continue;
        }
        if ((c == ')' || c == ']' || c == '}') && out->len && out->buf[out->len - 1] == ' ' && !*quote) out->len--;
        ca_sb_addc(out, c);
    }
    if (out->len && out->buf[out->len - 1] != ' ') ca_sb_addc(out, ' ');
}

/* `async with x: body` → `async with x`: the ':' outside brackets and
 * strings that ends a block header. */
static void cut_at_block_colon(ca_sb *sb)
{
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i < sb->len; i++) {
        char c = sb->buf[i];
        if (quote) {
            if (c == '\\') i++;
            else if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (c == ':' && depth == 0) {
            sb->len = i;
            sb->buf[i] = 0;
            return;
        }
    }
}

/* The checkpoint as a reader would quote it: from the source when it is
 * there (comments dropped), else the stored text; long calls as `f(...)`. */
static char *checkpoint_text(src_cache *c, const ca_finding *f)
{
    ca_sb sb = {0};
    src_file *sf = src_get(c, f->path);
    if (sf && sf->text && !sf->changed && f->line > 0 && f->end_line >= f->line && f->end_line - f->line < 40) {
        char quote = 0;
        for (int l = f->line; l <= f->end_line; l++) {
            const char *s;
            size_t n;
            if (!src_line(sf, l, &s, &n)) break;
            size_t a = l == f->line ? col_offset(s, n, f->column) : 0;
            size_t b = l == f->end_line && f->end_column > 0 ? col_offset(s, n, f->end_column) : n;
            if (b < a) b = n;
            add_code_line(&sb, s + a, b - a, &quote);
        }
        if (strncmp(ca_sb_str(&sb), "async with ", 11) == 0 || strncmp(ca_sb_str(&sb), "async for ", 10) == 0)
            cut_at_block_colon(&sb);
        while (sb.len && (sb.buf[sb.len - 1] == ' ' || sb.buf[sb.len - 1] == ':')) sb.buf[--sb.len] = 0;
    }
    if (!sb.len) ca_sb_adds(&sb, nz(f->checkpoint));
    const char *t = ca_sb_str(&sb);
    const char *paren = strchr(t, '(');
    if (sb.len > 48 && paren) {
        char *cut = ca_xstrndup(t, (size_t)(paren - t));
        ca_sb_release(&sb);
        ca_sb_adds(&sb, cut);
        ca_sb_adds(&sb, "(...)");
        free(cut);
    }
    return ca_sb_detach(&sb);
}

/* ---- groups: the findings that are one bug ------------------------------------ */

typedef struct group {
    const ca_finding **f;
    size_t n;
} group;

typedef CA_VEC(group) group_vec;

static int same_bug(const ca_finding *a, const ca_finding *b)
{
    return str_eq(a->path, b->path) && str_eq(a->function, b->function) && str_eq(a->rule, b->rule) &&
           a->line == b->line;
}

/* Members of a bug in the order they came into being. */
static int cmp_member(const void *a, const void *b)
{
    const ca_finding *x = *(const ca_finding *const *)a, *y = *(const ca_finding *const *)b;
    if (x->acquired_line != y->acquired_line) return x->acquired_line < y->acquired_line ? -1 : 1;
    return strcmp(nz(x->resource), nz(y->resource));
}

/* fs: sorted (ca_results_sort order); same bugs are adjacent or close by. */
static void build_groups(const ca_finding **fs, size_t n, group_vec *out)
{
    unsigned char *used = ca_xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        if (used[i]) continue;
        group g = {ca_xmalloc(sizeof(ca_finding *) * (n - i)), 0};
        for (size_t k = i; k < n; k++)
            if (!used[k] && same_bug(fs[i], fs[k])) {
                used[k] = 1;
                g.f[g.n++] = fs[k];
            }
        qsort(g.f, g.n, sizeof(ca_finding *), cmp_member);
        CA_VEC_PUSH(*out, g);
    }
    free(used);
}

static void free_groups(group_vec *g)
{
    for (size_t i = 0; i < g->n; i++) free(g->v[i].f);
    CA_VEC_FREE(*g);
}

/* Findings of r that t names, unsuppressed unless named by fingerprint,
 * in ca_results_sort order. */
static size_t select_findings(const ca_results *r, const ca_finding *sorted, const rs_target *t,
                              const ca_finding ***out)
{
    const ca_finding **v = ca_xmalloc(sizeof(ca_finding *) * (r->nfindings + 1));
    size_t n = 0;
    const ca_finding *named = NULL;
    if (t->fingerprint) {
        for (size_t i = 0; i < r->nfindings; i++)
            if (sorted[i].fingerprint && strncmp(sorted[i].fingerprint, t->fingerprint, strlen(t->fingerprint)) == 0)
                named = &sorted[i];
    }
    for (size_t i = 0; i < r->nfindings; i++) {
        const ca_finding *f = &sorted[i];
        int take = 0;
        if (named) take = f == named || (!f->suppressed && same_bug(f, named));
        else if (t->backend) take = !f->suppressed && str_eq(f->backend, t->backend);
        else if (t->boundary) {
            for (size_t k = 0; k < r->ncoverage && !take; k++) {
                const ca_coverage *c = &r->coverage[k];
                take = !f->suppressed && str_eq(c->boundary, t->boundary) && str_eq(c->status, "gap") &&
                       rs_finding_in_cell(c, f);
            }
        }
        if (take) v[n++] = f;
    }
    *out = v;
    return n;
}

/* The gap cells a group counts for. */
static size_t group_cells(const ca_results *r, const group *g, const ca_coverage **out, size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < r->ncoverage && n < max; k++)
        if (str_eq(r->coverage[k].status, "gap") && rs_finding_in_cell(&r->coverage[k], g->f[0]))
            out[n++] = &r->coverage[k];
    return n;
}

static const ca_function_rec *find_function(const ca_results *r, const char *path, const char *qualname)
{
    for (size_t i = 0; i < r->nfunctions; i++)
        if (str_eq(r->functions[i].path, path) && str_eq(r->functions[i].qualname, qualname))
            return &r->functions[i];
    return NULL;
}

/* ---- words ---------------------------------------------------------------------- */

/* What happens to a resource of this kind when nothing releases it: said
 * of one, and of several. */
static const char *const kind_fate[][3] = {
    {"task", "keeps running", "keep running"},
    {"future", "is never awaited or cancelled", "are never awaited or cancelled"},
    {"websocket", "stays open", "stay open"},
    {"socket", "stays open", "stay open"},
    {"connection", "stays open", "stay open"},
    {"connector", "keeps its connections open", "keep their connections open"},
    {"stream", "stays open", "stay open"},
    {"transport", "stays open", "stay open"},
    {"session", "stays open", "stay open"},
    {"client", "stays open", "stay open"},
    {"server", "keeps listening", "keep listening"},
    {"process", "is left running with no owner to reap it", "are left running with no owner to reap them"},
    {"fd", "stays open until the process exits", "stay open until the process exits"},
    {"file", "stays open", "stay open"},
    {"directory", "is never removed", "are never removed"},
    {"remote", "keeps running on the server until its TTL", "keep running on the server until their TTL"},
    {"registry entry", "is never torn down", "are never torn down"},
    {"exit-stack", "never runs its callbacks", "never run their callbacks"},
};

static const char *fate(const char *kind, int plural)
{
    const char *k = nz(kind);
    for (size_t i = 0; i < sizeof(kind_fate) / sizeof(kind_fate[0]); i++) {
        size_t n = strlen(kind_fate[i][0]);
        /* "socket tuple", "stream tuple": the first word decides */
        if (strncmp(k, kind_fate[i][0], n) == 0 && (k[n] == 0 || k[n] == ' ')) return kind_fate[i][plural ? 2 : 1];
    }
    return plural ? "are never released" : "is never released";
}

/* ", " between items and " and " before the last. */
static void sep(doc_writer *d, size_t i, size_t n)
{
    if (i == 0) return;
    doc_lit(d, i + 1 == n ? (n > 2 ? ", and " : " and ") : ", ");
}

/* `ws` and `reader` */
static void res_names(doc_writer *d, const group *g)
{
    for (size_t i = 0; i < g->n; i++) {
        sep(d, i, g->n);
        doc_code(d, g->f[i]->resource);
    }
}

/* Runs of a group's members (in order) that share what key() says; calls
 * each(d, g, first, count, index of the run, number of runs). */
typedef int (*same_fn)(const ca_finding *a, const ca_finding *b);

static size_t count_runs(const group *g, same_fn same)
{
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++) n += i == 0 || !same(g->f[i - 1], g->f[i]);
    return n;
}

static int same_origin(const ca_finding *a, const ca_finding *b)
{
    return a->acquired_line == b->acquired_line && strcmp(nz(a->resource_kind), nz(b->resource_kind)) == 0;
}

static int same_fate(const ca_finding *a, const ca_finding *b)
{
    return strcmp(fate(a->resource_kind, 0), fate(b->resource_kind, 0)) == 0;
}

/* `ws` (websocket, created at line 51) and `reader` (task, line 52);
 * `master` and `slave` (fd, created at line 42) */
static void res_details(doc_writer *d, const group *g)
{
    size_t runs = count_runs(g, same_origin), run = 0;
    for (size_t i = 0; i < g->n;) {
        size_t j = i + 1;
        while (j < g->n && same_origin(g->f[i], g->f[j])) j++;
        sep(d, run, runs);
        for (size_t k = i; k < j; k++) {
            if (k > i) doc_lit(d, k + 1 == j ? " and " : ", ");
            doc_code(d, g->f[k]->resource);
        }
        doc_lit(d, " (");
        doc_val(d, g->f[i]->resource_kind ? g->f[i]->resource_kind : "resource");
        if (g->f[i]->acquired_line > 0)
            doc_litf(d, run == 0 ? ", created at line %d" : ", line %d", g->f[i]->acquired_line);
        doc_lit(d, ")");
        run++;
        i = j;
    }
}

/* `ws` stays open and `reader` keeps running; `master` and `slave` stay open */
static void res_fates(doc_writer *d, const group *g)
{
    size_t runs = count_runs(g, same_fate), run = 0;
    for (size_t i = 0; i < g->n;) {
        size_t j = i + 1;
        while (j < g->n && same_fate(g->f[i], g->f[j])) j++;
        sep(d, run++, runs);
        for (size_t k = i; k < j; k++) {
            if (k > i) doc_lit(d, k + 1 == j ? " and " : ", ");
            doc_code(d, g->f[k]->resource);
        }
        doc_lit(d, " ");
        doc_lit(d, fate(g->f[i]->resource_kind, j - i > 1));
        i = j;
    }
}

static const char *short_name(const char *qualname)
{
    const char *q = nz(qualname), *dot = strrchr(q, '.');
    return dot ? dot + 1 : q;
}

/* The one-line description of a group, used in headings and titles. */
static void group_phrase(doc_writer *d, const group *g)
{
    const ca_finding *f = g->f[0];
    const char *rule = nz(f->rule);
    int plural = g->n > 1;
    doc_code(d, f->function);
    if (str_eq(rule, "CAN101") || str_eq(rule, "CAN102")) {
        doc_lit(d, " leaks ");
        res_names(d, g);
        doc_lit(d, " when cancelled before registration");
    } else if (str_eq(rule, "CAN201") || str_eq(rule, "CAN202")) {
        char *call = ca_xasprintf("%s(...)", nz(f->resource));
        doc_lit(d, " loses the remote resource that ");
        doc_code(d, call);
        doc_lit(d, str_eq(rule, "CAN201") ? " creates on timeout or cancellation" : " creates when cancelled");
        free(call);
    } else if (str_eq(rule, "CAN203")) {
        doc_lit(d, " leaks ");
        res_names(d, g);
        doc_lit(d, " made in a worker thread when cancelled");
    } else if (str_eq(rule, "CAN301")) {
        doc_lit(d, " abandons the teardown of ");
        res_names(d, g);
        doc_lit(d, " when cancelled");
    } else if (str_eq(rule, "CAN302")) {
        doc_lit(d, ": a second cancellation abandons the cleanup of ");
        res_names(d, g);
    } else if (str_eq(rule, "CAN401")) {
        doc_lit(d, " swallows cancellation");
    } else {
        doc_lit(d, ": ");
        doc_val(d, rule);
        doc_lit(d, plural ? " findings" : " finding");
    }
}

/* "`except Exception`" for a handler's catches text */
static void handler_code(doc_writer *d, const char *catches)
{
    if (str_eq(catches, "finally")) {
        doc_code(d, "finally");
        return;
    }
    char *t = catches && *catches ? ca_xasprintf("except %s", catches) : ca_xstrdup("except");
    doc_code(d, t);
    free(t);
}

/* ---- one bug ---------------------------------------------------------------------- */

static void explain_group(doc_writer *d, src_cache *sc, const group *g)
{
    const ca_finding *f = g->f[0];
    const char *rule = nz(f->rule);
    int many = g->n > 1;
    char *cp = checkpoint_text(sc, f);
    doc_para(d);
    if (str_eq(rule, "CAN101") || str_eq(rule, "CAN102")) {
        res_details(d, g);
        doc_lit(d, many ? " are" : " is");
        doc_lit(d, " not owned by anything yet when ");
        doc_code(d, f->function);
        doc_lit(d, " reaches ");
        doc_code(d, cp);
        doc_litf(d, " at line %d: ", f->line);
        doc_lit(d, many ? "they have" : "it has");
        doc_lit(d, " not been registered. ");
        if (str_eq(rule, "CAN101")) {
            doc_lit(d, "The code that would release ");
            doc_lit(d, many ? "them" : "it");
            doc_lit(d, f->nhandlers > 1 ? " runs only in the handlers below, and none of them"
                                        : " runs only in the handler below, which never");
            doc_lit(d, f->nhandlers > 1 ? " catches cancellation. " : " catches cancellation. ");
        } else {
            doc_lit(d, "No ");
            doc_code(d, "except");
            doc_lit(d, ", ");
            doc_code(d, "finally");
            doc_lit(d, " or context manager around that point releases ");
            doc_lit(d, many ? "them. " : "it. ");
        }
        doc_litf(d, "If the task is cancelled at line %d (a caller's timeout, a task group shutting down, a client "
                    "disconnecting), ", f->line);
        res_fates(d, g);
        doc_lit(d, many ? "; nothing can find them later, because they never reached the registry."
                        : "; nothing can find it later, because it never reached the registry.");
    } else if (str_eq(rule, "CAN201") || str_eq(rule, "CAN202")) {
        char *call = ca_xasprintf("%s(...)", nz(f->resource));
        doc_code(d, f->function);
        doc_lit(d, " awaits the remote create ");
        doc_code(d, call);
        free(call);
        doc_litf(d, " at line %d", f->line);
        if (str_eq(rule, "CAN201")) {
            doc_lit(d, " under a timeout (");
            doc_code(d, cp);
            doc_lit(d, "), without a shield. When the timeout fires or the caller cancels, ");
        } else {
            doc_lit(d, " without a shield. When the caller cancels, ");
        }
        doc_lit(d, "the request is cancelled on the client side, but the server may already have created the "
                   "resource, or may still create it. Its id never reaches ");
        doc_code(d, f->function);
        doc_lit(d, ", so nothing deletes it: it keeps running (and costing) until its TTL. Cleaning up by a "
                   "caller-chosen id afterwards still races a create that lands late.");
    } else if (str_eq(rule, "CAN203")) {
        res_details(d, g);
        doc_lit(d, many ? " are" : " is");
        doc_lit(d, " made in a worker thread by ");
        doc_code(d, cp);
        doc_litf(d, " at line %d. Cancelling that await does not stop the thread: it finishes, its result is "
                    "dropped, and nothing releases it (",
                 f->line);
        res_fates(d, g);
        doc_lit(d, ").");
    } else if (str_eq(rule, "CAN301")) {
        res_names(d, g);
        doc_lit(d, many ? " were" : " was");
        if (f->acquired_line > 0) doc_litf(d, " taken out of the registry at line %d", f->acquired_line);
        else doc_lit(d, " taken out of the registry");
        doc_lit(d, " and released only after ");
        doc_code(d, cp);
        doc_litf(d, " at line %d. If the task is cancelled there, ", f->line);
        doc_lit(d, many ? "they are" : "it is");
        doc_lit(d, " neither registered nor released: the rest of the teardown never runs, and whatever ");
        doc_lit(d, many ? "they hold" : "it holds");
        doc_lit(d, " (connections, tasks, processes) is never released.");
    } else if (str_eq(rule, "CAN302")) {
        doc_lit(d, "The cleanup ");
        doc_code(d, cp);
        doc_litf(d, " at line %d runs while handling cancellation, but it is not shielded. A second "
                    "cancellation (a task group cancelling again, an outer timeout firing during cleanup) "
                    "interrupts it, and ",
                 f->line);
        res_names(d, g);
        doc_lit(d, many ? " are" : " is");
        doc_lit(d, " left half released.");
    } else if (str_eq(rule, "CAN401")) {
        doc_lit(d, "A handler in ");
        doc_code(d, f->function);
        doc_litf(d, " catches cancellation at line %d and has a path that completes without re-raising it. The "
                    "cancellation is swallowed: whoever cancelled the task (a timeout, a task group, shutdown) "
                    "believes it stopped, but it keeps running.",
                 f->line);
    } else {
        doc_val(d, f->message);
    }
    doc_para_end(d);
    free(cp);
}

static void handler_table(doc_writer *d, const group *g)
{
    const ca_finding *f = g->f[0];
    if (!f->nhandlers) return;
    int misses = str_eq(f->rule, "CAN101");
    doc_table(d, "handlers");
    doc_row(d);
    doc_cell(d, 1, NULL, NULL);
    doc_lit(d, "line");
    doc_cell_end(d);
    doc_cell(d, 1, NULL, NULL);
    doc_lit(d, "handler");
    doc_cell_end(d);
    doc_cell(d, 1, NULL, NULL);
    doc_lit(d, misses ? "runs on cancellation?" : "role");
    doc_cell_end(d);
    doc_row_end(d);
    for (size_t h = 0; h < f->nhandlers; h++) {
        const ca_handler_ref *hr = &f->handlers[h];
        doc_row(d);
        doc_cell(d, 0, NULL, NULL);
        doc_litf(d, "%d", hr->line);
        doc_cell_end(d);
        doc_cell(d, 0, NULL, NULL);
        handler_code(d, hr->catches);
        doc_cell_end(d);
        doc_cell(d, 0, NULL, NULL);
        if (misses) {
            doc_lit(d, "no: ");
            doc_code(d, "asyncio.CancelledError");
            if (str_eq(hr->catches, "Exception")) {
                doc_lit(d, " derives from ");
                doc_code(d, "BaseException");
                doc_lit(d, ", not ");
                doc_code(d, "Exception");
                doc_lit(d, " (Python 3.8+)");
            } else if (hr->catches && hr->catches[0] == '(') {
                doc_lit(d, " is none of ");
                doc_code(d, hr->catches);
            } else {
                doc_lit(d, " is not a subclass of ");
                doc_code(d, hr->catches);
            }
        } else {
            doc_lit(d, "related handler");
        }
        doc_cell_end(d);
        doc_row_end(d);
    }
    doc_table_end(d);
}

typedef struct range_ {
    int a, b;
} range_;

static int cmp_range(const void *x, const void *y)
{
    const range_ *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

static void excerpt_group(doc_writer *d, src_cache *sc, const ca_results *r, const group *g)
{
    const ca_finding *f = g->f[0];
    src_file *sf = src_get(sc, f->path);
    if (!sf || !sf->text) {
        doc_para(d);
        doc_lit(d, "No code excerpt: the source file ");
        doc_code(d, f->path);
        doc_lit(d, " is no longer at ");
        doc_code(d, sf ? sf->full : f->path);
        doc_lit(d, " (");
        doc_val(d, sf ? strerror(sf->err) : "no path");
        doc_lit(d, ").");
        doc_para_end(d);
        return;
    }
    const ca_function_rec *fn = find_function(r, f->path, f->function);
    int lo = 1, hi = (int)sf->nlines;
    if (fn && fn->line > 0) lo = fn->line;
    if (fn && fn->end_line >= lo && fn->end_line <= hi) hi = fn->end_line;

    CA_VEC(range_) rg = {0};
    int acq_min = 0, acq_max = 0, cp_end = f->end_line >= f->line ? f->end_line : f->line;
    for (size_t i = 0; i < g->n; i++) {
        int a = g->f[i]->acquired_line;
        if (a > 0 && (!acq_min || a < acq_min)) acq_min = a;
        if (a > acq_max) acq_max = a;
    }
    if (fn && fn->line > 0 && (!acq_min || fn->line < acq_min) && fn->line < f->line)
        CA_VEC_PUSH(rg, ((range_){fn->line, fn->line}));
    if (acq_min > lo + 1) {
        /* the block header the acquisition sits in (`async with self._lock:`) */
        const char *s0, *s1;
        size_t n0, n1;
        int b0, b1;
        if (src_line(sf, acq_min - 1, &s0, &n0) && src_line(sf, acq_min, &s1, &n1) &&
            indent_of(s0, n0, &b0) < indent_of(s1, n1, &b1) && !b0)
            acq_min--;
    }
    if (acq_min && acq_min <= f->line && f->line - acq_min <= 30) {
        CA_VEC_PUSH(rg, ((range_){acq_min, cp_end + 2}));
    } else {
        if (acq_min) CA_VEC_PUSH(rg, ((range_){acq_min, acq_max + 1}));
        CA_VEC_PUSH(rg, ((range_){f->line - 2, cp_end + 2}));
    }
    for (size_t h = 0; h < f->nhandlers; h++) {
        int hl = f->handlers[h].line, end = hl;
        const char *s;
        size_t n;
        int blank;
        if (!src_line(sf, hl, &s, &n)) continue;
        int ind = indent_of(s, n, &blank);
        for (int l = hl + 1; l <= hi && l <= hl + 5; l++) {
            if (!src_line(sf, l, &s, &n)) break;
            int li = indent_of(s, n, &blank);
            if (!blank && li <= ind) break;
            end = l;
        }
        CA_VEC_PUSH(rg, ((range_){hl, end}));
    }
    for (size_t i = 0; i < rg.n; i++) {
        if (rg.v[i].a < lo) rg.v[i].a = lo;
        if (rg.v[i].b > hi) rg.v[i].b = hi;
    }
    qsort(rg.v, rg.n, sizeof(range_), cmp_range);

    CA_VEC(doc_excerpt_line) lines = {0};
    int last = 0;
    for (size_t i = 0; i < rg.n && lines.n < 120; i++) {
        int a = rg.v[i].a, b = rg.v[i].b;
        if (b < a || b <= last) continue;
        if (a <= last) a = last + 1;
        if (last && a - last > 3) CA_VEC_PUSH(lines, ((doc_excerpt_line){0, ' ', 1, NULL, 0}));
        else if (last) a = last + 1; /* a short gap is shown rather than elided */
        for (int l = a; l <= b; l++) {
            doc_excerpt_line el = {l, ' ', 0, NULL, 0};
            if (!src_line(sf, l, &el.text, &el.len)) break;
            for (size_t k = 0; k < g->n; k++)
                if (g->f[k]->acquired_line == l) el.mark = 'A';
            for (size_t h = 0; h < f->nhandlers; h++)
                if (f->handlers[h].line == l) el.mark = '!';
            if (l == f->line) el.mark = '>';
            CA_VEC_PUSH(lines, el);
            last = l;
        }
    }
    CA_VEC_FREE(rg);
    if (!lines.n) {
        CA_VEC_FREE(lines);
        return;
    }
    int first = 0, final = 0;
    for (size_t i = 0; i < lines.n; i++)
        if (!lines.v[i].elided) {
            if (!first) first = lines.v[i].lineno;
            final = lines.v[i].lineno;
        }
    doc_para(d);
    doc_loc(d, f->path, 0);
    doc_litf(d, ", lines %d to %d. ", first, final);
    int has_a = 0, has_h = 0;
    for (size_t i = 0; i < lines.n; i++) {
        has_a |= lines.v[i].mark == 'A';
        has_h |= lines.v[i].mark == '!';
    }
    doc_lit(d, "Marks: ");
    if (has_a) {
        doc_code(d, "A");
        doc_lit(d, str_eq(f->rule, "CAN301") ? " taken out of the registry, " : " created, ");
    }
    doc_code(d, ">");
    doc_lit(d, " cancelled here, nothing releases it");
    if (has_h) {
        doc_lit(d, ", ");
        doc_code(d, "!");
        doc_lit(d, str_eq(f->rule, "CAN101") ? " handler that misses cancellation" : " related handler");
    }
    doc_lit(d, ".");
    if (sf->changed) doc_lit(d, " The file has changed since the scan: the lines may not match the findings.");
    doc_para_end(d);
    doc_excerpt(d, lines.v, lines.n);
    CA_VEC_FREE(lines);
}

/* group_phrase, after "backend: " when the report spans backends */
static void group_title(doc_writer *d, const group *g, int with_backend)
{
    if (with_backend) {
        doc_val(d, g->f[0]->backend);
        doc_lit(d, ": ");
    }
    group_phrase(d, g);
}

static void describe_group(doc_writer *d, src_cache *sc, const ca_results *r, const group *g, int level, size_t index,
                           int with_backend)
{
    char anchor[32];
    snprintf(anchor, sizeof(anchor), "bug-%zu", index ? index : 1);
    doc_heading(d, level, d->html ? anchor : NULL);
    if (index) doc_litf(d, "%zu. ", index);
    group_title(d, g, with_backend);
    doc_heading_end(d, level);
    explain_group(d, sc, g);
    handler_table(d, g);
    excerpt_group(d, sc, r, g);
}

void rs_cell_evidence(doc_writer *d, const ca_results *r, const ca_coverage *cell, int level)
{
    ca_finding *sorted = report_sorted_findings(r);
    const ca_finding **fs = ca_xmalloc(sizeof(ca_finding *) * (r->nfindings + 1));
    size_t n = 0;
    for (size_t i = 0; i < r->nfindings; i++)
        if (!sorted[i].suppressed && rs_finding_in_cell(cell, &sorted[i])) fs[n++] = &sorted[i];
    group_vec groups = {0};
    build_groups(fs, n, &groups);
    src_cache sc = {.r = r};
    for (size_t i = 0; i < groups.n; i++) {
        doc_heading(d, level, NULL);
        group_phrase(d, &groups.v[i]);
        doc_heading_end(d, level);
        explain_group(d, &sc, &groups.v[i]);
        handler_table(d, &groups.v[i]);
        excerpt_group(d, &sc, r, &groups.v[i]);
        doc_para(d);
        doc_lit(d, "Fingerprints: ");
        for (size_t k = 0; k < groups.v[i].n; k++) {
            if (k) doc_lit(d, ", ");
            doc_code(d, groups.v[i].f[k]->fingerprint);
        }
        doc_lit(d, ". Full report: ");
        char *cmd = ca_xasprintf("cancelaudit report --finding %s", nz(groups.v[i].f[0]->fingerprint));
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
    free_groups(&groups);
    free(fs);
    free(sorted);
}

/* ---- the sections around the bugs ---------------------------------------------- */

static const char *rule_name(const char *id)
{
    const ca_ruledoc *doc = ca_ruledoc_get(nz(id));
    return doc ? doc->name : NULL;
}

static void other_backends(doc_writer *d, const ca_results *r, const ca_coverage *cs, const char *boundary,
                           const char *reported_backend)
{
    size_t counts[4] = {0}, total = 0;
    static const char *const st[4] = {"covered", "no-window", "gap", "absent"};
    for (size_t i = 0; i < r->ncoverage; i++) {
        if (!str_eq(cs[i].boundary, boundary)) continue;
        total++;
        for (int k = 0; k < 4; k++) counts[k] += str_eq(cs[i].status, st[k]);
    }
    size_t defined = total - counts[3];
    doc_para(d);
    doc_litf(d, "%zu of the %zu backends in the scan define ", defined, total);
    doc_code(d, boundary);
    doc_lit(d, ": ");
    int parts = 0;
    if (counts[0])
        doc_litf(d, "%s%zu %s everything on cancellation (covered)", parts++ ? ", " : "", counts[0],
                 counts[0] == 1 ? "releases" : "release");
    if (counts[1])
        doc_litf(d, "%s%zu %s nothing across an await (no window)", parts++ ? ", " : "", counts[1],
                 counts[1] == 1 ? "holds" : "hold");
    if (counts[2]) doc_litf(d, "%s%zu %s a gap", parts++ ? ", " : "", counts[2], counts[2] == 1 ? "has" : "have");
    doc_lit(d, ".");
    doc_para_end(d);

    doc_table(d, "others");
    doc_row(d);
    static const char *const head[] = {"backend", "status", "protection or rules", "where"};
    for (int k = 0; k < 4; k++) {
        doc_cell(d, 1, NULL, NULL);
        doc_lit(d, head[k]);
        doc_cell_end(d);
    }
    doc_row_end(d);
    for (size_t i = 0; i < r->ncoverage; i++) {
        const ca_coverage *c = &cs[i];
        if (!str_eq(c->boundary, boundary)) continue;
        doc_row(d);
        doc_cell(d, 0, NULL, NULL);
        doc_val(d, c->backend);
        if (reported_backend && str_eq(c->backend, reported_backend)) doc_lit(d, " (this report)");
        doc_cell_end(d);
        doc_cell(d, 0, rs_status_word(c->status), rs_status_word(c->status));
        if (str_eq(c->status, "gap")) doc_strong(d, "gap");
        else doc_val(d, c->status);
        doc_cell_end(d);
        doc_cell(d, 0, NULL, NULL);
        if (str_eq(c->status, "gap")) {
            ca_sb l = {0};
            rs_rules_list(&l, c->rules);
            doc_val(d, ca_sb_str(&l));
            ca_sb_reset(&l);
            rs_lines_list(&l, c->lines, ", ");
            if (l.len) doc_litf(d, strchr(ca_sb_str(&l), ',') ? " at lines %s" : " at line %s", ca_sb_str(&l));
            ca_sb_release(&l);
        } else if (str_eq(c->status, "covered")) {
            doc_val(d, c->protection);
        } else if (str_eq(c->status, "no-window")) {
            doc_lit(d, "nothing it acquires is live across an await");
        } else if (str_eq(c->status, "absent")) {
            doc_lit(d, "does not define ");
            doc_code(d, boundary);
        }
        doc_cell_end(d);
        doc_cell(d, 0, NULL, NULL);
        if (c->path) doc_loc(d, c->path, c->line);
        doc_cell_end(d);
        doc_row_end(d);
    }
    doc_table_end(d);
}

enum { FAM_PREREG = 1, FAM_TEARDOWN = 2, FAM_REMOTE = 4, FAM_SWALLOW = 8, FAM_OTHER = 16 };

static int family(const char *rule)
{
    if (str_eq(rule, "CAN101") || str_eq(rule, "CAN102") || str_eq(rule, "CAN203")) return FAM_PREREG;
    if (str_eq(rule, "CAN301") || str_eq(rule, "CAN302")) return FAM_TEARDOWN;
    if (str_eq(rule, "CAN201") || str_eq(rule, "CAN202")) return FAM_REMOTE;
    if (str_eq(rule, "CAN401")) return FAM_SWALLOW;
    return FAM_OTHER;
}

static void expected_behaviour(doc_writer *d, int fams)
{
    if (fams & FAM_PREREG) {
        doc_para(d);
        doc_lit(d, "Everything a method creates must have exactly one owner at every point where the task can be "
                   "cancelled. Either registration commits (the entry is in the registry, and the registry's close "
                   "path owns its cleanup), or, when the call is cancelled before registration, the method itself "
                   "releases what it created (cancels the task, closes the socket or descriptors, kills and reaps "
                   "the process) and then lets ");
        doc_code(d, "CancelledError");
        doc_lit(d, " propagate. That cleanup must be settled: shielded, or re-awaited until it is done, so a "
                   "second cancellation cannot abandon it halfway. A cancelled call leaves nothing behind.");
        doc_para_end(d);
    }
    if (fams & FAM_TEARDOWN) {
        doc_para(d);
        doc_lit(d, "Once an entry leaves the registry, the method that took it out is its only owner until the "
                   "teardown has finished. The teardown must be settled: completed before the first await, or run "
                   "where a cancellation cannot interrupt it (a shielded task, re-awaited until done), with the "
                   "cancellation re-raised afterwards. A cancelled close still closes.");
        doc_para_end(d);
    }
    if (fams & FAM_REMOTE) {
        doc_para(d);
        doc_lit(d, "A remote create must not lose what it may have created. Either the create completes and its "
                   "result is registered (the registry then owns deletion), or the caller gives up (timeout or "
                   "cancellation) and the request keeps running in a tracked task that deletes the resource as "
                   "soon as it exists, while the cancellation propagates to the caller.");
        doc_para_end(d);
    }
    if (fams & FAM_SWALLOW) {
        doc_para(d);
        doc_lit(d, "Cancellation must propagate: a handler that catches ");
        doc_code(d, "CancelledError");
        doc_lit(d, " (or ");
        doc_code(d, "BaseException");
        doc_lit(d, ", or a bare ");
        doc_code(d, "except:");
        doc_lit(d, ") releases what it must and re-raises.");
        doc_para_end(d);
    }
    if (fams & FAM_OTHER) {
        doc_para(d);
        doc_lit(d, "Every resource has an owner at every checkpoint, and cancellation propagates once cleanup has "
                   "settled.");
        doc_para_end(d);
    }
}

/* The handler a CAN101 fix changes: `except Exception` when there is one. */
static const ca_handler_ref *main_handler(const ca_finding *f)
{
    const ca_handler_ref *best = NULL;
    for (size_t h = 0; h < f->nhandlers; h++) {
        if (str_eq(f->handlers[h].catches, "Exception")) return &f->handlers[h];
        best = &f->handlers[h];
    }
    return best;
}

static void concrete_fix(doc_writer *d, const group *g)
{
    const ca_finding *f = g->f[0];
    const char *rule = nz(f->rule);
    doc_lit(d, "In ");
    doc_code(d, f->function);
    doc_lit(d, ": ");
    if (str_eq(rule, "CAN101")) {
        const ca_handler_ref *h = main_handler(f);
        doc_lit(d, "make the cleanup that releases ");
        res_names(d, g);
        doc_lit(d, " run on cancellation too");
        if (h) {
            doc_lit(d, ", for example by changing ");
            handler_code(d, h->catches);
            doc_litf(d, " (line %d) to ", h->line);
            doc_code(d, "except BaseException");
        }
        doc_lit(d, " or adding an ");
        doc_code(d, "except asyncio.CancelledError");
        doc_lit(d, " clause with the same cleanup; keep the ");
        doc_code(d, "raise");
        doc_lit(d, ", and shield awaited cleanup so a second cancellation cannot cut it short.");
    } else if (str_eq(rule, "CAN102")) {
        doc_lit(d, "hand ");
        res_names(d, g);
        doc_litf(d, " to the registry before the checkpoint at line %d, or wrap the code from the creation to the "
                    "registration in a ",
                 f->line);
        doc_code(d, "try");
        doc_lit(d, " whose ");
        doc_code(d, "except BaseException");
        doc_lit(d, " releases them and re-raises.");
    } else if (str_eq(rule, "CAN201") || str_eq(rule, "CAN202")) {
        doc_lit(d, "run ");
        doc_code(d, f->resource);
        doc_lit(d, " as its own task, await it through ");
        doc_code(d, "asyncio.shield");
        doc_lit(d, str_eq(rule, "CAN201") ? " (inside the timeout)" : "");
        doc_lit(d, ", and when the wait is abandoned hand the task to a tracked reaper that deletes the resource "
                   "once it exists.");
    } else if (str_eq(rule, "CAN203")) {
        doc_lit(d, "keep the executor future, and when the await is cancelled release its result from a done "
                   "callback (or use the non-blocking API).");
    } else if (str_eq(rule, "CAN301")) {
        doc_lit(d, "tear ");
        res_names(d, g);
        doc_lit(d, " down before removing it from the registry, or run the teardown as a shielded task that a "
                   "cancellation of ");
        doc_code(d, short_name(f->function));
        doc_lit(d, " cannot interrupt.");
    } else if (str_eq(rule, "CAN302")) {
        doc_litf(d, "shield the cleanup await at line %d, re-awaiting it until done if the handler must wait for "
                    "it, and re-raise the cancellation afterwards.",
                 f->line);
    } else if (str_eq(rule, "CAN401")) {
        doc_litf(d, "re-raise the cancellation caught at line %d once the handler's cleanup is done.", f->line);
    } else {
        doc_val(d, f->message);
    }
}

/* "cancelaudit scan corpus" from the stored arguments, without the options
 * that only say where output and the database went. */
static char *scan_command(const char *args)
{
    ca_sb sb = {0};
    ca_sb_adds(&sb, "cancelaudit");
    static const char *const with_value[] = {"--db", "--output", "-o", "--format", "-f", "--jobs", "-j"};
    static const char *const flags[] = {"--no-progress", "--quiet", "-q", "--no-db", "--no-cache"};
    const char *p = args ? args : "scan";
    int skip_next = 0;
    while (*p) {
        if (strncmp(p, " (config ", 9) == 0 || strncmp(p, "(config ", 8) == 0) break;
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if (e == p) break;
        size_t n = (size_t)(e - p);
        int drop = skip_next;
        skip_next = 0;
        for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]) && !drop; k++) {
            size_t m = strlen(with_value[k]);
            if (n == m && strncmp(p, with_value[k], m) == 0) drop = skip_next = 1;
            else if (n > m && strncmp(p, with_value[k], m) == 0 && p[m] == '=') drop = 1;
        }
        for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]) && !drop; k++)
            drop = n == strlen(flags[k]) && strncmp(p, flags[k], n) == 0;
        if (!drop) {
            ca_sb_addc(&sb, ' ');
            ca_sb_add(&sb, p, n);
        }
        p = e;
    }
    return ca_sb_detach(&sb);
}

static void debug_info(doc_writer *d, const ca_results *r, const rs_target *t, const group_vec *groups,
                       const rs_opts *o)
{
    doc_list(d);
    doc_item(d);
    doc_lit(d, "Found by static analysis with cancelaudit ");
    doc_val(d, r->scan.version ? r->scan.version : ca_version);
    if (r->scan.version && !str_eq(r->scan.version, ca_version)) {
        doc_lit(d, " (report written by ");
        doc_val(d, ca_version);
        doc_lit(d, ")");
    }
    doc_lit(d, "; the findings come from the source code, not from a run.");
    doc_item_end(d);
    if (o->reproducible) {
        doc_item(d);
        doc_lit(d, "Scan id, dates, scanned root and git revision left out (reproducible output).");
        doc_item_end(d);
    } else {
        if (r->scan.root) {
            doc_item(d);
            doc_lit(d, "Scanned root: ");
            doc_code(d, r->scan.root);
            doc_item_end(d);
        }
        if (r->scan.git_rev && *r->scan.git_rev) {
            doc_item(d);
            doc_lit(d, "Git revision: ");
            doc_code(d, r->scan.git_rev);
            doc_item_end(d);
        }
        doc_item(d);
        doc_litf(d, "Scan: %lld (", (long long)r->scan.id);
        doc_val(d, r->scan.status ? r->scan.status : "complete");
        doc_lit(d, ")");
        const char *date = rs_meta_date(r, o);
        if (date) {
            doc_lit(d, ", ");
            doc_val(d, date);
        }
        doc_item_end(d);
    }
    char *cmd = scan_command(r->scan.args);
    doc_item(d);
    doc_lit(d, "Scan command: ");
    doc_code(d, cmd);
    doc_item_end(d);
    free(cmd);
    const char *opt = t->fingerprint ? "--finding" : t->backend ? "--backend" : "--boundary";
    const char *val = t->fingerprint ? groups->v[0].f[0]->fingerprint : t->backend ? t->backend : t->boundary;
    char *rep = ca_xasprintf("cancelaudit report %s %s", opt, nz(val));
    doc_item(d);
    doc_lit(d, "This report: ");
    doc_code(d, rep);
    doc_item_end(d);
    free(rep);
    doc_item(d);
    doc_lit(d, "Findings (rule, resource, fingerprint): ");
    size_t k = 0;
    for (size_t i = 0; i < groups->n; i++)
        for (size_t j = 0; j < groups->v[i].n; j++) {
            const ca_finding *f = groups->v[i].f[j];
            if (k++) doc_lit(d, "; ");
            doc_val(d, f->rule);
            doc_lit(d, " ");
            doc_code(d, f->resource);
            doc_lit(d, " ");
            doc_code(d, f->fingerprint);
        }
    doc_item_end(d);
    doc_list_end(d);
}

/* ---- the report ------------------------------------------------------------------- */

static int known_backend(const ca_results *r, const char *name)
{
    for (size_t i = 0; i < r->ncoverage; i++)
        if (str_eq(r->coverage[i].backend, name)) return 1;
    for (size_t i = 0; i < r->nfindings; i++)
        if (str_eq(r->findings[i].backend, name)) return 1;
    for (size_t i = 0; i < r->nfiles; i++)
        if (str_eq(r->files[i].backend, name)) return 1;
    return 0;
}

/* "a, b, c" of the distinct values of a coverage field, for messages. */
static char *known_list(const ca_results *r, int boundaries)
{
    ca_sb sb = {0};
    const ca_coverage *cs = report_sorted_coverage(r), *c = cs;
    CA_VEC(const char *) seen = {0};
    for (size_t i = 0; i < r->ncoverage; i++, c++) {
        const char *v = boundaries ? c->boundary : c->backend;
        int dup = 0;
        for (size_t k = 0; k < seen.n && !dup; k++) dup = str_eq(seen.v[k], v);
        if (dup || !v) continue;
        CA_VEC_PUSH(seen, v);
        if (sb.len) ca_sb_adds(&sb, ", ");
        doc_put(&sb, v, DOC_PUT_TERM);
    }
    CA_VEC_FREE(seen);
    free((void *)cs);
    return ca_sb_detach(&sb);
}

static int check_target(const ca_results *r, const rs_target *t, char **err)
{
    ca_sb sb = {0};
    if (t->fingerprint) {
        const char *fp = t->fingerprint, *match = NULL;
        int ambiguous = 0;
        for (size_t i = 0; i < r->nfindings; i++) {
            const char *x = r->findings[i].fingerprint;
            if (!x || strncmp(x, fp, strlen(fp)) != 0) continue;
            if (match && strcmp(match, x) != 0) ambiguous = 1;
            match = x;
        }
        if (strlen(fp) < 4) ca_sb_adds(&sb, "a fingerprint needs at least 4 characters");
        else if (!match) ca_sb_adds(&sb, "no finding with fingerprint ");
        else if (ambiguous) ca_sb_adds(&sb, "ambiguous fingerprint prefix ");
        if (sb.len && strlen(fp) >= 4) doc_put(&sb, fp, DOC_PUT_TERM);
    } else if (t->backend && !known_backend(r, t->backend)) {
        char *list = known_list(r, 0);
        ca_sb_adds(&sb, "no backend ");
        doc_put(&sb, t->backend, DOC_PUT_TERM);
        ca_sb_addf(&sb, " in this scan (backends: %s)", *list ? list : "none");
        free(list);
    } else if (t->boundary) {
        int found = 0;
        for (size_t i = 0; i < r->ncoverage && !found; i++) found = str_eq(r->coverage[i].boundary, t->boundary);
        if (!found) {
            char *list = known_list(r, 1);
            ca_sb_adds(&sb, "no boundary ");
            doc_put(&sb, t->boundary, DOC_PUT_TERM);
            ca_sb_addf(&sb, " in this scan (boundaries: %s)", *list ? list : "none");
            free(list);
        }
    } else if (!t->backend) {
        ca_sb_adds(&sb, "nothing to report on: give --finding, --backend or --boundary");
    }
    if (!sb.len) return 0;
    *err = ca_sb_detach(&sb);
    return 2;
}

static void write_title(doc_writer *d, const ca_results *r, const rs_target *t, const group_vec *groups)
{
    const ca_finding *f0 = groups->v[0].f[0];
    if (t->boundary && groups->n > 1) {
        size_t total = 0, gaps = 0;
        for (size_t i = 0; i < r->ncoverage; i++)
            if (str_eq(r->coverage[i].boundary, t->boundary)) {
                total++;
                gaps += str_eq(r->coverage[i].status, "gap");
            }
        doc_code(d, t->boundary);
        doc_litf(d, " leaks resources on cancellation in %zu of %zu backends: ", gaps, total);
        size_t k = 0;
        for (size_t i = 0; i < r->ncoverage; i++)
            if (str_eq(r->coverage[i].boundary, t->boundary) && str_eq(r->coverage[i].status, "gap")) {
                sep(d, k++, gaps);
                doc_val(d, r->coverage[i].backend);
            }
        return;
    }
    doc_val(d, t->backend ? t->backend : f0->backend);
    doc_lit(d, ": ");
    if (groups->n == 1) {
        group_phrase(d, &groups->v[0]);
        return;
    }
    doc_lit(d, "cancellation leaks in ");
    CA_VEC(const char *) names = {0};
    for (size_t i = 0; i < groups->n; i++) {
        const char *s = short_name(groups->v[i].f[0]->function);
        int dup = 0;
        for (size_t k = 0; k < names.n && !dup; k++) dup = strcmp(names.v[k], s) == 0;
        if (!dup) CA_VEC_PUSH(names, s);
    }
    for (size_t k = 0; k < names.n; k++) {
        sep(d, k, names.n);
        doc_code(d, names.v[k]);
    }
    CA_VEC_FREE(names);
}

int report_issue(FILE *out, const ca_results *r, const rs_target *t, rs_format fmt, const rs_opts *opts,
                 char **err)
{
    rs_opts none = {0};
    const rs_opts *o = opts ? opts : &none;
    *err = NULL;
    int rc = check_target(r, t, err);
    if (rc) return rc;
    ca_finding *sorted = report_sorted_findings(r);
    ca_coverage *cs = report_sorted_coverage(r);
    const ca_finding **fs = NULL;
    size_t n = select_findings(r, sorted, t, &fs);
    if (n == 0) {
        ca_sb m = {0};
        ca_sb_adds(&m, t->backend ? "backend " : "boundary ");
        doc_put(&m, t->backend ? t->backend : t->boundary, DOC_PUT_TERM);
        ca_sb_adds(&m, t->backend ? " has no findings in this scan: nothing to report"
                                  : " has no gap in this scan: nothing to report");
        *err = ca_sb_detach(&m);
        free(fs);
        free(sorted);
        free(cs);
        return 1;
    }
    group_vec groups = {0};
    build_groups(fs, n, &groups);
    src_cache sc = {.r = r};
    ca_sb sb = {0};
    doc_writer dd = {.sb = &sb, .html = fmt == RS_HTML}, *d = &dd;
    int fams = 0;
    for (size_t i = 0; i < groups.n; i++) fams |= family(groups.v[i].f[0]->rule);

    if (d->html) {
        char *title = ca_xasprintf("cancelaudit report: %s",
                                   t->fingerprint ? t->fingerprint : t->backend ? t->backend : t->boundary);
        doc_html_page_begin(d, title);
        free(title);
    }
    doc_heading(d, 1, NULL);
    write_title(d, r, t, &groups);
    doc_heading_end(d, 1);

    /* Summary */
    doc_heading(d, 2, NULL);
    doc_lit(d, "Summary");
    doc_heading_end(d, 2);
    doc_para(d);
    doc_lit(d, groups.n == 1 ? "Static analysis found one place" : "Static analysis found ");
    if (groups.n > 1) doc_litf(d, "%zu places", groups.n);
    if (t->boundary) {
        doc_lit(d, " in implementations of ");
        doc_code(d, t->boundary);
    } else {
        doc_lit(d, " in the ");
        doc_val(d, t->backend ? t->backend : groups.v[0].f[0]->backend);
        doc_lit(d, " backend");
    }
    doc_lit(d, " where a resource has no owner across a point where the task can be cancelled (an ");
    doc_code(d, "await");
    doc_lit(d, " or ");
    doc_code(d, "async with");
    doc_lit(d, "). When the task is cancelled there, nothing releases it:");
    doc_para_end(d);
    doc_list(d);
    for (size_t i = 0; i < groups.n; i++) {
        const ca_finding *f = groups.v[i].f[0];
        char anchor[32];
        snprintf(anchor, sizeof(anchor), "bug-%zu", i + 1);
        doc_item(d);
        doc_link(d, anchor);
        group_title(d, &groups.v[i], t->boundary != NULL);
        doc_link_end(d);
        doc_lit(d, " (");
        doc_loc(d, f->path, f->line);
        doc_lit(d, ", ");
        doc_val(d, f->rule);
        const char *rn = rule_name(f->rule);
        if (rn) {
            doc_lit(d, " ");
            doc_val(d, rn);
        }
        doc_lit(d, ")");
        doc_item_end(d);
    }
    doc_list_end(d);
    /* the precedent in the same code base, when there is one */
    CA_VEC(const char *) bounds = {0};
    for (size_t i = 0; i < groups.n; i++) {
        const ca_coverage *cells[8];
        size_t nc = group_cells(r, &groups.v[i], cells, 8);
        for (size_t k = 0; k < nc; k++) {
            int dup = 0;
            for (size_t j = 0; j < bounds.n && !dup; j++) dup = str_eq(bounds.v[j], cells[k]->boundary);
            if (!dup) CA_VEC_PUSH(bounds, cells[k]->boundary);
        }
    }
    {
        size_t nprec = 0;
        size_t *covered = ca_xcalloc(bounds.n + 1, sizeof(size_t));
        for (size_t b = 0; b < bounds.n; b++) {
            for (size_t i = 0; i < r->ncoverage; i++)
                covered[b] += str_eq(cs[i].boundary, bounds.v[b]) && str_eq(cs[i].status, "covered");
            nprec += covered[b] > 0;
        }
        if (nprec) {
            doc_para(d);
            doc_lit(d, "Other backends already handle cancellation in ");
            doc_lit(d, nprec == 1 ? "the same method (" : "the same methods (");
            size_t k = 0;
            for (size_t b = 0; b < bounds.n; b++) {
                if (!covered[b]) continue;
                if (k++) doc_lit(d, ", ");
                doc_litf(d, "%zu in ", covered[b]);
                doc_code(d, bounds.v[b]);
            }
            doc_lit(d, "; see Other backends checked), so the fix has working precedents in this code base.");
            doc_para_end(d);
        }
        free(covered);
    }

    /* Describe the bug */
    doc_heading(d, 2, NULL);
    doc_lit(d, "Describe the bug");
    doc_heading_end(d, 2);
    for (size_t i = 0; i < groups.n; i++)
        describe_group(d, &sc, r, &groups.v[i], 3, groups.n > 1 ? i + 1 : 0, t->boundary != NULL);

    /* Other backends checked */
    doc_heading(d, 2, NULL);
    doc_lit(d, "Other backends checked");
    doc_heading_end(d, 2);
    for (size_t b = 0; b < bounds.n; b++) {
        if (bounds.n > 1) {
            doc_heading(d, 3, NULL);
            doc_code(d, bounds.v[b]);
            doc_heading_end(d, 3);
        }
        const char *mine = t->boundary ? NULL : t->backend ? t->backend : groups.v[0].f[0]->backend;
        other_backends(d, r, cs, bounds.v[b], mine);
    }
    for (size_t i = 0; i < groups.n; i++) {
        const ca_coverage *cells[1];
        if (group_cells(r, &groups.v[i], cells, 1)) continue;
        doc_para(d);
        doc_code(d, groups.v[i].f[0]->function);
        doc_lit(d, " is not a boundary (no other backend defines ");
        doc_code(d, short_name(groups.v[i].f[0]->function));
        doc_lit(d, "), so there is nothing to compare it with.");
        doc_para_end(d);
    }
    CA_VEC_FREE(bounds);

    /* Expected behaviour */
    doc_heading(d, 2, NULL);
    doc_lit(d, "Expected behaviour");
    doc_heading_end(d, 2);
    expected_behaviour(d, fams);

    /* Suggested fix */
    doc_heading(d, 2, NULL);
    doc_lit(d, "Suggested fix");
    doc_heading_end(d, 2);
    doc_list(d);
    for (size_t i = 0; i < groups.n; i++) {
        doc_item(d);
        concrete_fix(d, &groups.v[i]);
        doc_item_end(d);
    }
    doc_list_end(d);
    CA_VEC(const char *) rules = {0};
    for (size_t i = 0; i < groups.n; i++) {
        const char *id = groups.v[i].f[0]->rule;
        int dup = 0;
        for (size_t k = 0; k < rules.n && !dup; k++) dup = str_eq(rules.v[k], id);
        if (!dup && id) CA_VEC_PUSH(rules, id);
    }
    for (size_t k = 0; k < rules.n; k++) {
        const ca_ruledoc *doc = ca_ruledoc_get(rules.v[k]);
        char *section = doc ? ca_ruledoc_section(doc, "Use instead") : NULL;
        if (!section) continue;
        doc_para(d);
        doc_lit(d, "The pattern, from the documentation of ");
        doc_val(d, doc->id);
        doc_lit(d, " (");
        char *explain = ca_xasprintf("cancelaudit explain %s", doc->id);
        doc_code(d, explain);
        free(explain);
        doc_lit(d, "):");
        doc_para_end(d);
        doc_raw(d, "", "<blockquote class=\"ruledoc\">\n");
        doc_markdown(d, section);
        doc_raw(d, "", "</blockquote>\n");
        free(section);
    }
    CA_VEC_FREE(rules);

    /* Debug information */
    doc_heading(d, 2, NULL);
    doc_lit(d, "Debug information");
    doc_heading_end(d, 2);
    debug_info(d, r, t, &groups, o);
    if (d->html) doc_html_page_end(d);

    int ok = fwrite(ca_sb_str(&sb), 1, sb.len, out) == sb.len;
    if (fflush(out) != 0 || ferror(out)) ok = 0;
    ca_sb_release(&sb);
    src_cache_free(&sc);
    free_groups(&groups);
    free(fs);
    free(sorted);
    free(cs);
    return ok ? 0 : -1;
}
