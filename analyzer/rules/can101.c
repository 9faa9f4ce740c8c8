/*
 * can101.c — CAN101, CAN102, CAN301: a value live and unowned across a
 * checkpoint that no enclosing region releases on cancellation.
 *
 * The engine reports each such window at its checkpoint (ENG_EV_CHECKPOINT).
 * One finding per (function, resource, rule), at the first such
 * checkpoint: CAN101 when some handler would release the value but none
 * catches cancellation; CAN102 when nothing would; CAN301 (only) when the
 * value came out of a registry. Not on a path entered by an exception for
 * a value live since before it (cleanup), nor in a task nothing cancels.
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

static const char *acq_kind(const rule_window *o)
{
    if (o->registry_take) return "registry entry";
    return o->acquired && o->acquired->rkind ? o->acquired->rkind : "resource";
}

static char *handler_list(const rule_window *o)
{
    ca_sb sb = {0};
    for (int i = 0; i < o->nmissing; i++) {
        const ir_handler *h = o->missing[i];
        int dup = 0;
        for (int k = 0; k < i; k++) dup |= o->missing[k] == h;
        if (dup) continue;
        if (sb.len) ca_sb_adds(&sb, ", ");
        ca_sb_addf(&sb, "`except %s` (line %d)", h->catches, h->site.line);
    }
    return ca_sb_detach(&sb);
}

typedef struct holders_q {
    const char *text;
    ca_sb *lines;
    int n;
} holders_q;

static int note_holder(void *ctx, const ir_node *n)
{
    holders_q *q = ctx;
    if (n->kind == IR_WITH && (n->flags & WITH_LOCK_IDLE) && n->text && strcmp(n->text, q->text) == 0) {
        ca_sb_addf(q->lines, "%s%d", q->n++ ? ", " : "", n->site.line);
    }
    return 0;
}

/* For a window whose checkpoint is an idle lock's acquire: what makes it
 * latent, with the places that hold the lock (the module's). */
static char *latent_note(const rule_ctx *ctx, const ir_node *at)
{
    if (!at || at->kind != IR_WITH || !(at->flags & WITH_LOCK_IDLE) || !at->text) return NULL;
    ca_sb lines = {0};
    holders_q q = {at->text, &lines, 0};
    for (int i = 0; i < ctx->m->nfuncs; i++) ir_visit(&ctx->m->funcs[i]->body, note_holder, &q);
    char *note = ca_xasprintf(" (latent: no holder of `%s` awaits while holding it, line%s %s, so acquiring it does "
                              "not suspend today; the window opens the day one holder awaits)",
                              at->text, q.n > 1 ? "s" : "", ca_sb_str(&lines));
    ca_sb_release(&lines);
    return note;
}

static int latent(const rule_window *o)
{
    return o->at && o->at->kind == IR_WITH && (o->at->flags & WITH_LOCK_IDLE);
}

static void emit_one(rule_ctx *ctx, const char *rule, const rule_window *o)
{
    const char *name = rule_var_name(ctx, o->var);
    char *cp = rule_checkpoint_desc(o->at);
    int acq_line = o->acquired ? o->acquired->site.line : 0;
    char *msg;
    if (strcmp(rule, "CAN101") == 0) {
        char *hl = handler_list(o);
        int several = o->nmissing > 1 && o->missing[0] != o->missing[1];
        char *latent = latent_note(ctx, o->at);
        msg = ca_xasprintf("`%s` (%s, acquired line %d) is unowned across %s%s: the cleanup that would release it "
                           "runs only in %s, which %s cancellation (CancelledError is a "
                           "BaseException); cancelled here, it leaks",
                           name, acq_kind(o), acq_line, cp, latent ? latent : "", hl,
                           several ? "do not catch" : "does not catch");
        free(latent);
        free(hl);
    } else if (strcmp(rule, "CAN102") == 0) {
        char *latent = latent_note(ctx, o->at);
        if (o->conditional)
            msg = ca_xasprintf("`%s` (%s, acquired line %d) is unowned across %s%s: `except %s` (line %d) "
                               "releases it only on a branch that cannot run when the task is cancelled here "
                               "(what it tests is not set yet), nothing else releases it, and nothing "
                               "registered it yet",
                               name, acq_kind(o), acq_line, cp, latent ? latent : "",
                               o->conditional->catches[0] ? o->conditional->catches : ":",
                               o->conditional->site.line);
        else
            msg = ca_xasprintf("`%s` (%s, acquired line %d) is unowned across %s%s: no handler, finally or "
                               "context manager releases it if the task is cancelled here, and nothing "
                               "registered it yet",
                               name, acq_kind(o), acq_line, cp, latent ? latent : "");
        free(latent);
    } else {
        msg = ca_xasprintf("`%s` was taken out of its registry (line %d) and is released only after %s: "
                           "cancelled here, it is neither registered nor released (teardown not "
                           "cancellation-settled)",
                           name, acq_line, cp);
    }
    const char *cptext = o->at && o->at->text ? o->at->text : "";
    char *fp = o->at && o->at->kind == IR_WITH ? ca_xasprintf("async with %s", cptext)
             : o->at && o->at->kind == IR_LOOP ? ca_xasprintf("async for %s", cptext)
                                               : ca_xstrdup(cptext);
    ca_finding *f = rule_emit(ctx, rule, o->site, name, acq_kind(o), o->acquired,
                              (const ir_handler *const *)o->missing, strcmp(rule, "CAN101") == 0 ? o->nmissing : 0,
                              fp, msg);
    /* latent today: low; a resource known by name or use, or an entry of a
     * registry the code keeps itself: medium; a catalogued one: high */
    if (latent(o)) f->confidence = CA_CONF_LOW;
    else if (o->registry_take || !o->acquired || (o->acquired->flags & (ACQ_HEURISTIC | ACQ_WEAK)))
        f->confidence = CA_CONF_MEDIUM;
    free(fp);
    free(cp);
}

static void begin(rule_run *rr) { rr->data = ca_xcalloc(1, sizeof(rule_windows)); }

static void on_event(rule_run *rr, const eng_walk *W, const eng_event *ev)
{
    /* A task nothing can cancel meets a cancellation only from a timeout of
     * its own (which its caller sees as TimeoutError, an ordinary
     * exception): its other checkpoints open no window. */
    if ((eng_func(W)->fflags & FN_UNCANCELLED) && !ev->in_timeout) return;
    if (!ev->exc_from) {
        rule_windows_add(rr->data, ev);
        return;
    }
    /* On a path entered by an exception, a value live since before it is
     * being cleaned up: cancelling that cleanup takes the failure (or
     * cancellation) that led here and then a cancellation landing in it —
     * CAN302's repeated cancellation, not a window of its own. A value
     * made on the cleanup path itself has its windows like any other. */
    eng_window keep[64];
    eng_event sub = *ev;
    sub.nwindows = 0;
    sub.windows = keep;
    for (int i = 0; i < ev->nwindows; i++) {
        const eng_window *w = &ev->windows[i];
        if (w->acquired && w->acquired->site.start < ev->exc_from) continue;
        if (sub.nwindows == (int)(sizeof(keep) / sizeof(keep[0]))) {
            rule_windows_add(rr->data, &sub);
            sub.nwindows = 0;
        }
        keep[sub.nwindows++] = *w;
    }
    if (sub.nwindows) rule_windows_add(rr->data, &sub);
}

static void end(rule_run *rr)
{
    rule_ctx *ctx = rr->ctx;
    rule_windows *w = rr->data;
    for (int v = 0; v < ctx->f->nvars; v++) {
        const rule_window *first101 = NULL, *first102 = NULL, *first301 = NULL;
        for (size_t i = 0; i < w->v.n; i++) {
            const rule_window *o = &w->v.v[i];
            if (o->var != v) continue;
            const rule_window **slot = o->registry_take ? &first301 : o->nmissing ? &first101 : &first102;
            /* the first checkpoint, but a real one before a latent one (an
             * idle lock's acquire) */
            if (!*slot || latent(o) < latent(*slot) ||
                (latent(o) == latent(*slot) && o->site.start < (*slot)->site.start))
                *slot = o;
        }
        if (first301) {
            if (rule_on(ctx, "CAN301")) emit_one(ctx, "CAN301", first301);
            continue;
        }
        if (first101 && rule_on(ctx, "CAN101")) emit_one(ctx, "CAN101", first101);
        if (first102 && rule_on(ctx, "CAN102")) emit_one(ctx, "CAN102", first102);
    }
    rule_windows_free(w);
    free(w);
}

const rule_def rule_can101 = {
    .ids = "CAN101,CAN102,CAN301",
    .language = "python",
    .events = ENG_ON(ENG_EV_CHECKPOINT),
    .begin = begin,
    .on_event = on_event,
    .end = end,
};
