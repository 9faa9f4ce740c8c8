/*
 * report_issue.c — `cancelaudit report`: an issue-ready bug report, in
 * Markdown or HTML, for one finding, one backend or one boundary of a
 * stored scan (report_store.h).
 *
 * The report is written for the maintainer who receives it: what leaks,
 * where, the code and why each handler misses cancellation (the evidence
 * of each bug, bug.h), how the other backends handle the same boundary,
 * the ownership contract the code should keep, a concrete fix plus the
 * rule doc's pattern, and what produced the report.
 *
 * The prose of the sections around the bugs lives in the tables and
 * switches below; the facts all come from the store.
 */
#include "report/report_store.h"
#include "report/bug.h"
#include "report/doc.h"
#include "report/report.h"
#include "report/source.h"
#include "rules/ruledoc.h"

#include <stdlib.h>
#include <string.h>

static int str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }
static const char *nz(const char *s) { return s ? s : ""; }

typedef CA_VEC(const char *) str_list;

/* Append s to l unless an equal string is there (NULL equals nothing);
 * 1 when it was appended. The strings stay the caller's. */
static int add_unique(str_list *l, const char *s)
{
    for (size_t k = 0; k < l->n; k++)
        if (str_eq(l->v[k], s)) return 0;
    CA_VEC_PUSH(*l, s);
    return 1;
}

/* A cell whose code has a gap: a gap, or inherited code with one. */
static int gap_cell(const ca_coverage *c)
{
    return str_eq(c->status, "gap") || (str_eq(c->status, "inherited") && c->rules && *c->rules);
}

/* Who a finding's code belongs to, for prose: its backend, or for code of no
 * backend (a base class others inherit) the class or file it is in. */
static void owner_val(doc_writer *d, const ca_finding *f)
{
    if (f->backend && *f->backend) {
        doc_val(d, f->backend);
        return;
    }
    const char *q = nz(f->function), *dot = strchr(q, '.');
    if (dot) {
        char *cls = ca_xstrndup(q, (size_t)(dot - q));
        doc_code(d, cls);
        free(cls);
    } else {
        doc_code(d, f->path);
    }
}

/* ---- which bugs ------------------------------------------------------------------ */

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
        if (named) take = f == named || (!f->suppressed && bug_same(f, named));
        else if (t->backend) take = !f->suppressed && str_eq(f->backend, t->backend);
        else if (t->boundary) {
            for (size_t k = 0; k < r->ncoverage && !take; k++) {
                const ca_coverage *c = &r->coverage[k];
                take = !f->suppressed && str_eq(c->boundary, t->boundary) && gap_cell(c) && rs_finding_in_cell(c, f);
            }
        }
        if (take) v[n++] = f;
    }
    *out = v;
    return n;
}

/* The gap cells a group counts for. */
static size_t group_cells(const ca_results *r, const bug_group *g, const ca_coverage **out, size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < r->ncoverage && n < max; k++)
        if (gap_cell(&r->coverage[k]) && rs_finding_in_cell(&r->coverage[k], g->f[0])) out[n++] = &r->coverage[k];
    return n;
}

static const char *short_name(const char *qualname)
{
    const char *q = nz(qualname), *dot = strrchr(q, '.');
    return dot ? dot + 1 : q;
}

/* bug_phrase, after "backend: " when the report spans backends */
static void group_title(doc_writer *d, const bug_group *g, int with_backend)
{
    if (with_backend) {
        owner_val(d, g->f[0]);
        doc_lit(d, ": ");
    }
    bug_phrase(d, g);
}

static void describe_group(doc_writer *d, src_cache *sc, const ca_results *r, const bug_group *g, int level,
                           size_t index, int with_backend)
{
    char anchor[32];
    snprintf(anchor, sizeof(anchor), "bug-%zu", index ? index : 1);
    doc_heading(d, level, d->html ? anchor : NULL);
    if (index) doc_litf(d, "%zu. ", index);
    group_title(d, g, with_backend);
    doc_heading_end(d, level);
    bug_evidence(d, sc, r, g);
}

/* ---- the sections around the bugs ---------------------------------------------- */

static const char *rule_name(const char *id)
{
    const ca_ruledoc *doc = ca_ruledoc_get(nz(id));
    return doc ? doc->name : NULL;
}

/* The cells of boundary in family fam (NULL: cells of no family), by
 * backend: the matrix row "Other backends checked" shows. */
static size_t row_cells(const ca_results *r, const ca_coverage *cs, const char *fam, const char *boundary,
                        const ca_coverage ***out)
{
    const ca_coverage **v = ca_xmalloc(sizeof(ca_coverage *) * (r->ncoverage + 1));
    size_t n = 0;
    for (size_t i = 0; i < r->ncoverage; i++)
        if (str_eq(cs[i].boundary, boundary) && rs_cell_in_family(&cs[i], fam)) v[n++] = &cs[i];
    *out = v;
    return n;
}

static void other_backends(doc_writer *d, const ca_results *r, const ca_coverage *cs, const char *fam,
                           const char *boundary, const char *reported_backend)
{
    const ca_coverage **row;
    size_t total = row_cells(r, cs, fam, boundary, &row);
    size_t counts[5] = {0};
    static const char *const st[5] = {"covered", "no-window", "gap", "inherited", "absent"};
    for (size_t i = 0; i < total; i++)
        for (int k = 0; k < 5; k++) counts[k] += str_eq(row[i]->status, st[k]);
    size_t defined = total - counts[4];
    doc_para(d);
    doc_litf(d, "%zu of the %zu backends ", defined, total);
    if (fam && *fam) {
        doc_lit(d, "of ");
        doc_val(d, fam);
        const ca_family *f = rs_family_named(r, fam);
        if (f && f->path) {
            doc_lit(d, " (");
            doc_loc(d, f->path, f->line);
            doc_lit(d, ")");
        }
    } else {
        doc_lit(d, "in the scan");
    }
    doc_lit(d, " run ");
    doc_code(d, boundary);
    doc_lit(d, ": ");
    int parts = 0;
    if (counts[0])
        doc_litf(d, "%s%zu %s everything on cancellation (covered)", parts++ ? ", " : "", counts[0],
                 counts[0] == 1 ? "releases" : "release");
    if (counts[1])
        doc_litf(d, "%s%zu %s nothing across an await (no window)", parts++ ? ", " : "", counts[1],
                 counts[1] == 1 ? "holds" : "hold");
    if (counts[3])
        doc_litf(d, "%s%zu %s another class's method (inherited)", parts++ ? ", " : "", counts[3],
                 counts[3] == 1 ? "runs" : "run");
    if (counts[2]) doc_litf(d, "%s%zu %s a gap", parts++ ? ", " : "", counts[2], counts[2] == 1 ? "has" : "have");
    doc_lit(d, ".");
    doc_para_end(d);
    rs_boundary_table(d, r, row, total, reported_backend);
    free(row);
}

/* "cloudflare's `C.pty_exec_start` (`path:line`) releases ... with except
 * CancelledError" for the covered sibling to copy. */
static void precedent_phrase(doc_writer *d, const ca_coverage *p)
{
    doc_val(d, p->backend);
    doc_lit(d, "'s ");
    doc_code(d, p->function);
    doc_lit(d, " (");
    doc_loc(d, p->path, p->line);
    doc_lit(d, ") releases what it holds on cancellation, with ");
    doc_val(d, p->protection);
}

/* What kind of leak a rule describes: the sections below speak of kinds. */
enum { KIND_PREREG = 1, KIND_TEARDOWN = 2, KIND_REMOTE = 4, KIND_SWALLOW = 8, KIND_OTHER = 16 };

static int rule_kind(const char *rule)
{
    if (str_eq(rule, "CAN101") || str_eq(rule, "CAN102") || str_eq(rule, "CAN203")) return KIND_PREREG;
    if (str_eq(rule, "CAN301") || str_eq(rule, "CAN302")) return KIND_TEARDOWN;
    if (str_eq(rule, "CAN201") || str_eq(rule, "CAN202")) return KIND_REMOTE;
    if (str_eq(rule, "CAN401")) return KIND_SWALLOW;
    return KIND_OTHER;
}

static void expected_behaviour(doc_writer *d, int kinds)
{
    if (kinds & KIND_PREREG) {
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
    if (kinds & KIND_TEARDOWN) {
        doc_para(d);
        doc_lit(d, "Once an entry leaves the registry, the method that took it out is its only owner until the "
                   "teardown has finished. The teardown must be settled: completed before the first await, or run "
                   "where a cancellation cannot interrupt it (a shielded task, re-awaited until done), with the "
                   "cancellation re-raised afterwards. A cancelled close still closes.");
        doc_para_end(d);
    }
    if (kinds & KIND_REMOTE) {
        doc_para(d);
        doc_lit(d, "A remote create must not lose what it may have created. Either the create completes and its "
                   "result is registered (the registry then owns deletion), or the caller gives up (timeout or "
                   "cancellation) and the request keeps running in a tracked task that deletes the resource as "
                   "soon as it exists, while the cancellation propagates to the caller.");
        doc_para_end(d);
    }
    if (kinds & KIND_SWALLOW) {
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
    if (kinds & KIND_OTHER) {
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

static void concrete_fix(doc_writer *d, const bug_group *g)
{
    const ca_finding *f = g->f[0];
    const char *rule = nz(f->rule);
    doc_lit(d, "In ");
    doc_code(d, f->function);
    doc_lit(d, ": ");
    if (str_eq(rule, "CAN101")) {
        const ca_handler_ref *h = main_handler(f);
        doc_lit(d, "make the cleanup that releases ");
        bug_resources(d, g);
        doc_lit(d, " run on cancellation too");
        if (h) {
            doc_lit(d, ", for example by changing ");
            bug_handler_code(d, h->catches);
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
        bug_resources(d, g);
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
        bug_resources(d, g);
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

/* Bugs whose fixes read alike — the same change in the same function, say
 * one handler to widen for two resources that leak at different awaits —
 * get one bullet that names all their resources. */
static int same_fix(const bug_group *a, const bug_group *b)
{
    const ca_finding *x = a->f[0], *y = b->f[0];
    if (!str_eq(x->rule, y->rule) || !str_eq(x->function, y->function) || !str_eq(x->path, y->path)) return 0;
    const char *rule = nz(x->rule);
    if (str_eq(rule, "CAN101")) {
        const ca_handler_ref *h = main_handler(x), *k = main_handler(y);
        return (!h && !k) || (h && k && h->line == k->line && str_eq(h->catches, k->catches));
    }
    if (str_eq(rule, "CAN102") || str_eq(rule, "CAN302") || str_eq(rule, "CAN401")) return x->line == y->line;
    if (str_eq(rule, "CAN201") || str_eq(rule, "CAN202")) return str_eq(x->resource, y->resource);
    if (str_eq(rule, "CAN203") || str_eq(rule, "CAN301")) return 1;
    return str_eq(x->message, y->message);
}

/* The list items of the bugs' fixes, one per fix (the caller opens the
 * list: the precedents to copy follow in it). */
static void suggested_fixes(doc_writer *d, const bug_groups *groups)
{
    unsigned char *done = ca_xcalloc(groups->n + 1, 1);
    for (size_t i = 0; i < groups->n; i++) {
        if (done[i]) continue;
        size_t total = 0;
        for (size_t k = i; k < groups->n; k++)
            if (!done[k] && same_fix(&groups->v[i], &groups->v[k])) total += groups->v[k].n;
        bug_group all = {ca_xmalloc(sizeof(ca_finding *) * (total + 1)), 0};
        for (size_t k = i; k < groups->n; k++) {
            if (done[k] || !same_fix(&groups->v[i], &groups->v[k])) continue;
            done[k] = 1;
            for (size_t j = 0; j < groups->v[k].n; j++) {
                int seen = 0; /* a resource named once */
                for (size_t q = 0; q < all.n && !seen; q++) seen = str_eq(all.f[q]->resource, groups->v[k].f[j]->resource);
                if (!seen) all.f[all.n++] = groups->v[k].f[j];
            }
        }
        doc_item(d);
        concrete_fix(d, &all);
        doc_item_end(d);
        free(all.f);
    }
    free(done);
}

/* "cancelaudit scan corpus" from the stored arguments, without the options
 * that only say where output and the database went. */
static char *scan_command(const char *args)
{
    ca_sb sb = {0};
    ca_sb_adds(&sb, "cancelaudit");
    static const char *const with_value[] = {"--db", "--output", "-o", "--format", "-f", "--output-format", "--jobs",
                                             "-j"};
    static const char *const flags[] = {"--no-progress", "--quiet", "-q", "--no-db", "--no-cache", "-v", "--verbose",
                                        "--statistics", "--exit-zero"};
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

static void debug_info(doc_writer *d, const ca_results *r, const rs_target *t, const bug_groups *groups,
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
    doc_item(d);
    doc_lit(d, "Python parsed with: ");
    doc_val(d, ca_parser_version);
    if (r->scan.version && !str_eq(r->scan.version, ca_version)) doc_lit(d, " (the report's build)");
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
        doc_item(d);
        doc_lit(d, "Git revision: ");
        if (r->scan.git_rev && *r->scan.git_rev) doc_code(d, r->scan.git_rev);
        else if (r->scan.args && strncmp(r->scan.args, "merge ", 6) == 0)
            doc_lit(d, "none recorded (a merged scan whose shards were at different revisions)");
        else doc_lit(d, "none recorded (the scanned path was not in a git checkout with a commit)");
        doc_item_end(d);
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
    str_list seen = {0};
    for (size_t i = 0; i < r->ncoverage; i++, c++) {
        const char *v = boundaries ? c->boundary : c->backend;
        if (!v || !add_unique(&seen, v)) continue;
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

static void write_title(doc_writer *d, const ca_results *r, const rs_target *t, const bug_groups *groups)
{
    const ca_finding *f0 = groups->v[0].f[0];
    if (t->boundary && groups->n > 1) {
        /* the backends of the families in which the boundary has a gap */
        size_t total = 0, gaps = 0;
        for (size_t i = 0; i < r->ncoverage; i++) {
            const ca_coverage *c = &r->coverage[i];
            if (!str_eq(c->boundary, t->boundary)) continue;
            int gappy = 0;
            for (size_t k = 0; k < r->ncoverage && !gappy; k++)
                gappy = str_eq(r->coverage[k].boundary, t->boundary) && gap_cell(&r->coverage[k]) &&
                        str_eq(nz(r->coverage[k].family), nz(c->family));
            if (!gappy) continue;
            total++;
            gaps += gap_cell(c);
        }
        doc_code(d, t->boundary);
        doc_litf(d, " leaks resources on cancellation in %zu of %zu backends: ", gaps, total);
        size_t k = 0;
        for (size_t i = 0; i < r->ncoverage; i++)
            if (str_eq(r->coverage[i].boundary, t->boundary) && gap_cell(&r->coverage[i])) {
                doc_sep(d, k++, gaps);
                doc_val(d, r->coverage[i].backend);
            }
        return;
    }
    if (t->backend) doc_val(d, t->backend);
    else owner_val(d, f0);
    doc_lit(d, ": ");
    if (groups->n == 1) {
        bug_phrase(d, &groups->v[0]);
        return;
    }
    doc_lit(d, "cancellation leaks in ");
    str_list names = {0};
    for (size_t i = 0; i < groups->n; i++) add_unique(&names, short_name(groups->v[i].f[0]->function));
    for (size_t k = 0; k < names.n; k++) {
        doc_sep(d, k, names.n);
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
    bug_groups groups = {0};
    bug_group_findings(fs, n, &groups);
    src_cache sc = {.r = r};
    ca_sb sb = {0};
    doc_writer dd = {.sb = &sb, .html = fmt == RS_HTML}, *d = &dd;
    int kinds = 0;
    for (size_t i = 0; i < groups.n; i++) kinds |= rule_kind(groups.v[i].f[0]->rule);

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
    } else if (t->backend || *nz(groups.v[0].f[0]->backend)) {
        doc_lit(d, " in the ");
        doc_val(d, t->backend ? t->backend : groups.v[0].f[0]->backend);
        doc_lit(d, " backend");
    } else {
        doc_lit(d, " in ");
        owner_val(d, groups.v[0].f[0]);
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
    /* the rows the report's cells are in (family, boundary), and the
     * working precedent in each: a covered sibling of the same family */
    str_list fams = {0}, bounds = {0};
    for (size_t i = 0; i < groups.n; i++) {
        const ca_coverage *cells[8];
        size_t nc = group_cells(r, &groups.v[i], cells, 8);
        for (size_t k = 0; k < nc; k++) {
            int seen = 0;
            for (size_t q = 0; q < bounds.n && !seen; q++)
                seen = str_eq(bounds.v[q], cells[k]->boundary) && str_eq(nz(fams.v[q]), nz(cells[k]->family));
            if (seen) continue;
            CA_VEC_PUSH(fams, cells[k]->family);
            CA_VEC_PUSH(bounds, cells[k]->boundary);
        }
    }
    const ca_coverage **prec = ca_xcalloc(bounds.n + 1, sizeof(ca_coverage *));
    size_t nprec = 0;
    for (size_t b = 0; b < bounds.n; b++) {
        const ca_coverage **row;
        size_t n = row_cells(r, cs, fams.v[b], bounds.v[b], &row);
        prec[b] = rs_precedent(row, n);
        nprec += prec[b] != NULL;
        free(row);
    }
    if (nprec) {
        doc_para(d);
        doc_lit(d, "The fix has a working precedent in this code base: ");
        size_t k = 0;
        for (size_t b = 0; b < bounds.n; b++) {
            if (!prec[b]) continue;
            if (k++) doc_lit(d, "; ");
            precedent_phrase(d, prec[b]);
        }
        doc_lit(d, " (see Other backends checked).");
        doc_para_end(d);
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
            int named = 0;
            for (size_t q = 0; q < fams.n && !named; q++) named = q != b && str_eq(bounds.v[q], bounds.v[b]);
            if (named && fams.v[b]) {
                doc_lit(d, " in ");
                doc_val(d, fams.v[b]);
            }
            doc_heading_end(d, 3);
        }
        const char *mine = t->boundary ? NULL : t->backend ? t->backend : groups.v[0].f[0]->backend;
        other_backends(d, r, cs, fams.v[b], bounds.v[b], mine);
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

    /* Expected behaviour */
    doc_heading(d, 2, NULL);
    doc_lit(d, "Expected behaviour");
    doc_heading_end(d, 2);
    expected_behaviour(d, kinds);

    /* Suggested fix */
    doc_heading(d, 2, NULL);
    doc_lit(d, "Suggested fix");
    doc_heading_end(d, 2);
    doc_list(d);
    suggested_fixes(d, &groups);
    for (size_t b = 0; b < bounds.n; b++) {
        if (!prec[b]) continue;
        doc_item(d);
        doc_lit(d, "Copy the working precedent for ");
        doc_code(d, bounds.v[b]);
        doc_lit(d, ": ");
        precedent_phrase(d, prec[b]);
        doc_lit(d, ".");
        doc_item_end(d);
    }
    free(prec);
    CA_VEC_FREE(fams);
    CA_VEC_FREE(bounds);
    doc_list_end(d);
    str_list rules = {0};
    for (size_t i = 0; i < groups.n; i++)
        if (groups.v[i].f[0]->rule) add_unique(&rules, groups.v[i].f[0]->rule);
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

    rc = report_emit(out, &sb);
    src_cache_free(&sc);
    bug_groups_free(&groups);
    free(fs);
    free(sorted);
    free(cs);
    return rc;
}
