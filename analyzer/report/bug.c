/*
 * bug.c — the findings that are one bug, and the words and evidence that
 * explain one (bug.h): what leaks, where, why each handler misses
 * cancellation, and the code, read from the scanned root, with the
 * acquisition, the unprotected checkpoint and the handlers marked.
 *
 * The prose per rule and per resource kind lives in the tables and
 * switches below; the facts all come from the store.
 */
#include "report/bug.h"

#include <stdlib.h>
#include <string.h>

static int str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }
static const char *nz(const char *s) { return s ? s : ""; }

/* ---- quoting the code ---------------------------------------------------------- */

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

int bug_same(const ca_finding *a, const ca_finding *b)
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
void bug_group_findings(const ca_finding **fs, size_t n, bug_groups *out)
{
    unsigned char *used = ca_xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        if (used[i]) continue;
        bug_group g = {ca_xmalloc(sizeof(ca_finding *) * (n - i)), 0};
        for (size_t k = i; k < n; k++)
            if (!used[k] && bug_same(fs[i], fs[k])) {
                used[k] = 1;
                g.f[g.n++] = fs[k];
            }
        qsort(g.f, g.n, sizeof(ca_finding *), cmp_member);
        CA_VEC_PUSH(*out, g);
    }
    free(used);
}

void bug_groups_free(bug_groups *g)
{
    for (size_t i = 0; i < g->n; i++) free(g->v[i].f);
    CA_VEC_FREE(*g);
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

/* `ws` and `reader` */
void bug_resources(doc_writer *d, const bug_group *g)
{
    for (size_t i = 0; i < g->n; i++) {
        doc_sep(d, i, g->n);
        doc_code(d, g->f[i]->resource);
    }
}

/* Runs of a group's members (in order) that are alike by same(): one
 * phrase each, "`a` and `b` (task, line 52)". */
typedef int (*same_fn)(const ca_finding *a, const ca_finding *b);

static size_t count_runs(const bug_group *g, same_fn same)
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

/* The resources of members i..j-1, one run: "`a`, `b` and `c`". */
static void run_names(doc_writer *d, const bug_group *g, size_t i, size_t j)
{
    for (size_t k = i; k < j; k++) {
        if (k > i) doc_lit(d, k + 1 == j ? " and " : ", ");
        doc_code(d, g->f[k]->resource);
    }
}

/* `ws` (websocket, created at line 51) and `reader` (task, line 52);
 * `master` and `slave` (fd, created at line 42) */
static void res_details(doc_writer *d, const bug_group *g)
{
    size_t runs = count_runs(g, same_origin), run = 0;
    for (size_t i = 0; i < g->n;) {
        size_t j = i + 1;
        while (j < g->n && same_origin(g->f[i], g->f[j])) j++;
        doc_sep(d, run, runs);
        run_names(d, g, i, j);
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
static void res_fates(doc_writer *d, const bug_group *g)
{
    size_t runs = count_runs(g, same_fate), run = 0;
    for (size_t i = 0; i < g->n;) {
        size_t j = i + 1;
        while (j < g->n && same_fate(g->f[i], g->f[j])) j++;
        doc_sep(d, run++, runs);
        run_names(d, g, i, j);
        doc_lit(d, " ");
        doc_lit(d, fate(g->f[i]->resource_kind, j - i > 1));
        i = j;
    }
}

/* The one-line description of a group, used in headings and titles. */
void bug_phrase(doc_writer *d, const bug_group *g)
{
    const ca_finding *f = g->f[0];
    const char *rule = nz(f->rule);
    int plural = g->n > 1;
    doc_code(d, f->function);
    if (str_eq(rule, "CAN101") || str_eq(rule, "CAN102")) {
        doc_lit(d, " leaks ");
        bug_resources(d, g);
        doc_lit(d, " when cancelled before registration");
    } else if (str_eq(rule, "CAN201") || str_eq(rule, "CAN202")) {
        char *call = ca_xasprintf("%s(...)", nz(f->resource));
        doc_lit(d, " loses the remote resource that ");
        doc_code(d, call);
        doc_lit(d, str_eq(rule, "CAN201") ? " creates on timeout or cancellation" : " creates when cancelled");
        free(call);
    } else if (str_eq(rule, "CAN203")) {
        doc_lit(d, " leaks ");
        bug_resources(d, g);
        doc_lit(d, " made in a worker thread when cancelled");
    } else if (str_eq(rule, "CAN301")) {
        doc_lit(d, " abandons the teardown of ");
        bug_resources(d, g);
        doc_lit(d, " when cancelled");
    } else if (str_eq(rule, "CAN302")) {
        doc_lit(d, ": a second cancellation abandons the cleanup of ");
        bug_resources(d, g);
    } else if (str_eq(rule, "CAN401")) {
        doc_lit(d, " swallows cancellation");
    } else {
        doc_lit(d, ": ");
        doc_val(d, rule);
        doc_lit(d, plural ? " findings" : " finding");
    }
}

/* "`except Exception`" for a handler's catches text */
void bug_handler_code(doc_writer *d, const char *catches)
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

static void explain_group(doc_writer *d, src_cache *sc, const bug_group *g)
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
        bug_resources(d, g);
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
        bug_resources(d, g);
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

static void handler_table(doc_writer *d, const bug_group *g)
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
        bug_handler_code(d, hr->catches);
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

static const ca_function_rec *find_function(const ca_results *r, const char *path, const char *qualname)
{
    for (size_t i = 0; i < r->nfunctions; i++)
        if (str_eq(r->functions[i].path, path) && str_eq(r->functions[i].qualname, qualname))
            return &r->functions[i];
    return NULL;
}

static void excerpt_group(doc_writer *d, src_cache *sc, const ca_results *r, const bug_group *g)
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

void bug_evidence(doc_writer *d, src_cache *sc, const ca_results *r, const bug_group *g)
{
    explain_group(d, sc, g);
    handler_table(d, g);
    excerpt_group(d, sc, r, g);
}
