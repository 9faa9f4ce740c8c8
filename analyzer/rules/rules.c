/*
 * rules.c — the rule table and what every rule shares (rules.h): running
 * the engine with the rules as listeners, and building a finding.
 *
 * The folder: rules/ turns the engine's events into findings: one file per
 * rule family (canNNN.c), registered in rules.def; ruledoc.c serves the rule
 * docs embedded from the top-level rules/ and decides which rules a run
 * selects.
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#include "rules/ruledoc.h"

#define CA_RULE(name) extern const rule_def rule_##name;
#include "rules/rules.def"
#undef CA_RULE

static const rule_def *const rule_table[] = {
#define CA_RULE(name) &rule_##name,
#include "rules/rules.def"
#undef CA_RULE
};
#define NRULES ((int)(sizeof(rule_table) / sizeof(rule_table[0])))

int rule_on(const rule_ctx *ctx, const char *rule)
{
    return ca_rule_selected(rule, ctx->select, ctx->ignore, ctx->strict);
}

const char *rule_var_name(const rule_ctx *ctx, int v)
{
    return v >= 0 && v < ctx->f->nvars ? ctx->f->vars[v].name : "?";
}

const char *rule_last_part(const char *s)
{
    const char *p = s ? strrchr(s, '.') : NULL;
    return p ? p + 1 : s;
}

const ca_cat_entry *rule_cat(const rule_ctx *ctx, ca_cat_kind k, const char *s)
{
    return ctx->cat && s ? ca_catalog_match(ctx->cat, k, s) : NULL;
}

char *rule_callee_text(const char *text)
{
    if (!text) return ca_xstrdup("");
    size_t n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\n' || text[n - 1] == '\t' || text[n - 1] == '\r')) n--;
    /* the opening parenthesis of the call the text ends with: depth-0
     * brackets and string literals skipped on the way */
    size_t group = 0, open = 0, close = 0;
    int depth = 0, paren = 0; /* paren: the last depth-0 group is a call's (...) */
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (c == '"' || c == '\'') {
            for (i++; i < n && text[i] != c; i++)
                if (text[i] == '\\') i++;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            if (depth++ == 0) group = i;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth > 0 && --depth == 0) {
                open = group;
                close = i;
                paren = c == ')' && text[group] == '(';
            }
        }
    }
    /* the frontend cuts long node text with "...": a call left open there
     * is still the call the text ends with */
    if (depth > 0 && text[group] == '(' && n >= 3 && strcmp(text + n - 3, "...") == 0) {
        open = group;
        close = n - 1;
        paren = 1;
        depth = 0;
    }
    /* a call: something callable right before the parenthesis, not `await (x)` */
    char before = open ? text[open - 1] : ' ';
    int callable = before == '_' || before == ')' || before == ']' || (before >= '0' && before <= '9') ||
                   (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') || (before & 0x80);
    if (!paren || depth != 0 || close != n - 1 || !callable) return ca_xstrndup(text, n);
    size_t inner = open + 1;
    while (inner < close && (text[inner] == ' ' || text[inner] == '\n' || text[inner] == '\t')) inner++;
    /* (the closing parenthesis of a cut call is gone: inner < close still says it had arguments) */
    return ca_xasprintf("%.*s(%s)", (int)open, text, inner < close ? "\xe2\x80\xa6" : "");
}

char *rule_checkpoint_desc(const ir_node *at)
{
    if (!at) return ca_xstrdup("this checkpoint");
    if (at->kind == IR_LOOP) return ca_xstrdup("this `async for` step");
    char *callee = rule_callee_text(at->text);
    char *d = at->kind == IR_WITH ? ca_xasprintf("`async with %s`", callee)
                                  : ca_xasprintf("`%s`", *callee ? callee : "await");
    free(callee);
    return d;
}

/* 16 hex digits of the fields joined by newlines: no line number in it, so
 * it survives code moving. */
static char *fingerprint_of(const char *const *fields, int n)
{
    ca_sb sb = {0};
    for (int i = 0; i < n; i++) {
        if (i) ca_sb_addc(&sb, '\n');
        ca_sb_adds(&sb, fields[i] ? fields[i] : "");
    }
    char hex[17];
    ca_hash_hex(ca_hash64(sb.buf, sb.len, CA_HASH_SEED), hex);
    ca_sb_release(&sb);
    return ca_xstrdup(hex);
}

ca_finding *rule_emit(rule_ctx *ctx, const char *rule, ir_site at, const char *resource, const char *kind,
                      const ir_node *acquired, const ir_handler *const *handlers, int nhandlers,
                      const char *checkpoint, char *message)
{
    if (ctx->nout == ctx->cap) {
        ctx->cap = ctx->cap ? ctx->cap * 2 : 8;
        ctx->out = ca_xrealloc(ctx->out, sizeof(ca_finding) * ctx->cap);
    }
    ca_finding *f = &ctx->out[ctx->nout++];
    memset(f, 0, sizeof(*f));
    const ca_ruledoc *doc = ca_ruledoc_get(rule);
    f->rule = ca_xstrdup(rule);
    f->severity = doc ? doc->severity : CA_SEV_ERROR;
    f->path = ca_xstrdup(ctx->path);
    f->line = at.line;
    f->column = at.col;
    f->end_line = at.end_line;
    f->end_column = at.end_col;
    f->function = ca_xstrdup(ctx->f->qualname);
    f->backend = ca_xstrdup(ctx->backend ? ctx->backend : "");
    f->resource = ca_xstrdup(resource ? resource : "");
    f->resource_kind = ca_xstrdup(kind ? kind : "resource");
    if (acquired) {
        f->acquired_line = acquired->site.line;
        f->acquired_column = acquired->site.col;
    }
    if (nhandlers > 0) {
        f->handlers = ca_xcalloc((size_t)nhandlers, sizeof(ca_handler_ref));
        for (int i = 0; i < nhandlers; i++) {
            f->handlers[i].line = handlers[i]->site.line;
            f->handlers[i].column = handlers[i]->site.col;
            f->handlers[i].catches = ca_xstrdup(handlers[i]->catches && *handlers[i]->catches
                                                    ? handlers[i]->catches : "(bare)");
        }
        f->nhandlers = (size_t)nhandlers;
    }
    f->message = message;
    f->checkpoint = ca_xstrdup(checkpoint ? checkpoint : "");
    const char *fields[] = {rule, ctx->path, ctx->f->qualname, f->resource, f->checkpoint};
    f->fingerprint = fingerprint_of(fields, 5);
    f->suppressed = ir_suppressed(ctx->m, at.line, rule);
    return f;
}

/* A window's fingerprint: rule, path, function and checkpoint text, and
 * when `names` is set its resources' names too (two windows whose
 * checkpoints read alike). The "window" field keeps it apart from every
 * per-resource fingerprint. */
static char *window_fingerprint(const ca_finding *f, const char *names)
{
    const char *fields[] = {"window", f->rule, f->path, f->function, f->checkpoint, names};
    return fingerprint_of(fields, names ? 6 : 5);
}

ca_finding *rule_emit_window(rule_ctx *ctx, const char *rule, ir_site at, const rule_res *res, int nres,
                             const ir_handler *const *handlers, int nhandlers, const char *checkpoint,
                             char *message)
{
    ca_finding *f = rule_emit(ctx, rule, at, res[0].name, res[0].kind, res[0].acquired, handlers, nhandlers,
                              checkpoint, message);
    for (int i = 0; i < nres; i++) {
        const char *fields[] = {rule, ctx->path, ctx->f->qualname, res[i].name ? res[i].name : "", f->checkpoint};
        char *alias = fingerprint_of(fields, 5);
        const ir_node *a = res[i].acquired;
        ca_finding_add_resource(f, res[i].name ? res[i].name : "", res[i].kind ? res[i].kind : "resource",
                                a ? a->site.line : 0, a ? a->site.col : 0, alias);
        free(alias);
    }
    free(f->fingerprint);
    f->fingerprint = window_fingerprint(f, NULL);
    return f;
}

char *rule_res_list(const rule_ctx *ctx, const rule_res *res, int nres, const char *what, int kinds)
{
    (void)ctx;
    ca_sb sb = {0};
    for (int i = 0; i < nres;) {
        int line = res[i].acquired ? res[i].acquired->site.line : 0;
        const char *kind = res[i].kind ? res[i].kind : "resource";
        int j = i + 1;
        while (j < nres && (res[j].acquired ? res[j].acquired->site.line : 0) == line &&
               (!kinds || strcmp(res[j].kind ? res[j].kind : "resource", kind) == 0))
            j++;
        /* runs joined as a list: "A, B and C" */
        if (i) ca_sb_adds(&sb, j == nres ? " and " : ", ");
        for (int k = i; k < j; k++) {
            if (k > i) ca_sb_adds(&sb, k + 1 == j ? " and " : ", ");
            ca_sb_addf(&sb, "`%s`", res[k].name ? res[k].name : "?");
        }
        if (kinds) ca_sb_addf(&sb, " (%s, %s line %d)", kind, what ? what : "acquired", line);
        else ca_sb_addf(&sb, " (%s%sline %d)", what ? what : "", what ? " " : "", line);
        i = j;
    }
    return ca_sb_detach(&sb);
}

static int cmp_str_ptr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Windows of one function and rule whose checkpoints read alike would
 * share a fingerprint: theirs take their resources' names too (sorted),
 * and, were those alike as well, their place in the function. */
static void distinct_fingerprints(rule_ctx *ctx, size_t from)
{
    for (size_t i = from; i < ctx->nout; i++) {
        ca_finding *f = &ctx->out[i];
        if (!f->nresources) continue;
        int clash = 0;
        for (size_t k = from; k < ctx->nout && !clash; k++)
            clash = k != i && ctx->out[k].nresources && strcmp(ctx->out[k].fingerprint, f->fingerprint) == 0 &&
                    strcmp(ctx->out[k].rule, f->rule) == 0;
        if (!clash) continue;
        /* every member of the clash is renamed in this pass: mark them */
        for (size_t k = i; k < ctx->nout; k++) {
            ca_finding *g = &ctx->out[k];
            if (!g->nresources || strcmp(g->rule, f->rule) != 0 || strcmp(g->checkpoint, f->checkpoint) != 0) continue;
            const char **names = ca_xmalloc(sizeof(char *) * g->nresources);
            for (size_t r = 0; r < g->nresources; r++) names[r] = g->resources[r].name ? g->resources[r].name : "";
            qsort(names, g->nresources, sizeof(char *), cmp_str_ptr);
            ca_sb sb = {0};
            for (size_t r = 0; r < g->nresources; r++) ca_sb_addf(&sb, "%s%s", r ? "," : "", names[r]);
            /* the same names twice: told apart by the order of their checkpoints */
            int nth = 0;
            for (size_t q = from; q < ctx->nout; q++) {
                const ca_finding *h = &ctx->out[q];
                if (q == k || !h->nresources || strcmp(h->rule, g->rule) != 0 ||
                    strcmp(h->checkpoint, g->checkpoint) != 0 || h->nresources != g->nresources)
                    continue;
                int same = 1;
                for (size_t r = 0; r < h->nresources && same; r++) {
                    int found = 0;
                    for (size_t t = 0; t < h->nresources && !found; t++)
                        found = strcmp(h->resources[t].name ? h->resources[t].name : "", names[r]) == 0;
                    same = found;
                }
                if (same && (h->line < g->line || (h->line == g->line && h->column < g->column))) nth++;
            }
            if (nth) ca_sb_addf(&sb, "#%d", nth + 1);
            free(names);
            free(g->fingerprint);
            g->fingerprint = window_fingerprint(g, ca_sb_str(&sb));
            ca_sb_release(&sb);
        }
    }
}

void rule_windows_add(rule_windows *w, const eng_event *ev)
{
    for (int i = 0; i < ev->nwindows; i++) {
        const eng_window *e = &ev->windows[i];
        rule_window r = {e->var, ev->node, ev->site, e->acquired, e->registry_take, NULL, e->nmissing, e->conditional};
        if (e->nmissing) {
            r.missing = ca_arena_alloc(&w->arena, sizeof(*r.missing) * (size_t)e->nmissing);
            memcpy(r.missing, e->missing, sizeof(*r.missing) * (size_t)e->nmissing);
        }
        CA_VEC_PUSH(w->v, r);
    }
}

void rule_windows_free(rule_windows *w)
{
    CA_VEC_FREE(w->v);
    ca_arena_free(&w->arena);
}

/* Does the run select any id of the family? */
static int family_on(const rule_ctx *ctx, const rule_def *d)
{
    const char *p = d->ids;
    while (*p) {
        size_t n = strcspn(p, ",");
        char id[32];
        if (n < sizeof(id)) {
            memcpy(id, p, n);
            id[n] = 0;
            if (rule_on(ctx, id)) return 1;
        }
        p += n + (p[n] == ',');
    }
    return 0;
}

static void dispatch(void *ctx, const eng_walk *W, const eng_event *ev)
{
    rule_run *rr = ctx;
    rr->def->on_event(rr, W, ev);
}

/* Marks each unshielded remote create the function awaits (REM_CREATE):
 * the summary fixed point decides, once calls resolve, whether it makes
 * the function remote (eng_summary_update). */
static int seed_node(void *ctx, const ir_node *n)
{
    const ca_catalog *cat = ctx;
    if (n->kind == IR_AWAIT_CALL && !(n->flags & REM_SHIELDED) && rule_remote_create(cat, n))
        ((ir_node *)n)->flags |= REM_CREATE;
    return 0;
}

/* A synchronous function (what thread work runs) that returns what a
 * remote create made: `box = self._client.containers.create(...)`, then
 * `return box`. */
typedef struct sync_seed {
    const ca_catalog *cat;
    uint8_t *made;
    int nvars;
} sync_seed;

static int sync_seed_node(void *ctx, const ir_node *n)
{
    sync_seed *q = ctx;
    int ret = n->kind == IR_RETURN && n->ref;
    if ((ret || (n->kind == IR_ACQUIRE && n->var >= 0 && n->var < q->nvars)) && n->ref && n->ref->text) {
        const char *t = n->ref->text;
        const char *dot = strrchr(t, '.');
        ir_node c;
        memset(&c, 0, sizeof(c));
        c.kind = IR_AWAIT_CALL;
        c.callee = t;
        c.cname = dot ? dot + 1 : t;
        char recv[256];
        if (dot && (size_t)(dot - t) < sizeof(recv)) {
            memcpy(recv, t, (size_t)(dot - t));
            recv[dot - t] = 0;
            c.recv = recv;
            c.flags = REM_HAS_RECV;
        }
        if (rule_remote_create(q->cat, &c)) {
            if (ret) return 1;
            q->made[n->var] = 1;
        }
    }
    return n->kind == IR_TRANSFER && (n->flags & XFER_RETURN) && n->var >= 0 && n->var < q->nvars && q->made[n->var];
}

void rules_seed_summary(const ca_catalog *cat, const ir_func *f, eng_summary *s)
{
    if (!cat) return;
    if (f->is_async) {
        ir_visit(&f->body, seed_node, (void *)cat);
        return;
    }
    sync_seed q = {cat, ca_xcalloc((size_t)f->nvars + 1, 1), f->nvars};
    if (ir_visit(&f->body, sync_seed_node, &q)) s->remote = 1;
    free(q.made);
}

const ir_func *rule_runs(const rule_ctx *ctx, const ir_node *n, const eng_summary **sum)
{
    *sum = NULL;
    if (!ctx->res || !ctx->res->resolve) return NULL;
    if (n->kind == IR_EXECUTOR) {
        int off = 0;
        if (!n->ref) return NULL;
        const ir_func *f = ctx->res->resolve(ctx->res->ctx, ctx->m, ctx->f, n->ref, sum, &off);
        return f == ctx->f ? NULL : f;
    }
    const ir_func *f = eng_resolve_awaited(ctx->m, ctx->f, ctx->res, n, sum);
    return f == ctx->f ? NULL : f;
}

void rules_run(rule_ctx *ctx, const ir_func *f, const eng_resolver *r, eng_result *er)
{
    ctx->res = r;
    /* a module is read by its own language's rules: pthread cancellation
     * windows are CAN5xx, never CAN1xx */
    const char *lang = ctx->m->language ? ctx->m->language : "python";
    ctx->f = f;
    rule_run runs[NRULES];
    eng_listener ls[NRULES];
    int n = 0;
    for (int i = 0; i < NRULES; i++) {
        const rule_def *d = rule_table[i];
        if (strcmp(d->language, lang) != 0 || !family_on(ctx, d)) continue;
        rule_run *rr = &runs[n];
        memset(rr, 0, sizeof(*rr));
        rr->ctx = ctx;
        rr->def = d;
        if (d->begin) d->begin(rr);
        eng_listener *l = &ls[n];
        l->ctx = rr;
        l->events = d->on_event ? d->events : 0;
        l->nstate = rr->nstate;
        l->on_event = dispatch;
        n++;
    }
    size_t from = ctx->nout;
    eng_analyze(ctx->m, f, r, ls, n, er);
    for (int i = 0; i < n; i++) runs[i].def->end(&runs[i]);
    distinct_fingerprints(ctx, from);
}
