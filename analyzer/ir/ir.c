/*
 * ir.c — construction, dumping and lifetime of the ownership IR (ir.h).
 *
 * The folder: ir/ is the language-neutral form between the frontends and
 * the engine (DESIGN §2): ir.h the types, ir.c building, visiting and
 * dumping them, serial.c a module as one buffer (so lowering can run in
 * another process).
 */
#include "ir/ir.h"

#include <stdlib.h>
#include <string.h>

ir_node *ir_node_new(ir_module *m, ir_kind kind, ir_site site)
{
    ir_node *n = ca_arena_alloc(&m->arena, sizeof(*n));
    n->kind = kind;
    n->site = site;
    n->var = n->var2 = -1;
    return n;
}

void ir_block_push(ir_module *m, ir_block *b, ir_node *n)
{
    if (b->n == b->cap) {
        int cap = b->cap ? b->cap * 2 : 8;
        ir_node **v = ca_arena_alloc(&m->arena, sizeof(*v) * (size_t)cap);
        if (b->n) memcpy(v, b->v, sizeof(*v) * (size_t)b->n);
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = n;
}

int ir_var_find(const ir_func *f, const char *name)
{
    for (int i = 0; i < f->nvars; i++)
        if (f->vars[i].name[0] == name[0] && strcmp(f->vars[i].name, name) == 0) return i;
    return -1;
}

int ir_func_private(const ir_func *f)
{
    /* (a function defined in another is reached only through it) */
    if (f->qualname && strstr(f->qualname, ".<locals>.")) return 1;
    size_t len = f->name ? strlen(f->name) : 0;
    if (len < 2 || f->name[0] != '_') return 0;
    return !(len > 4 && f->name[1] == '_' && f->name[len - 1] == '_' && f->name[len - 2] == '_');
}

int ir_var_add(ir_module *m, ir_func *f, const char *name, unsigned flags)
{
    int i = ir_var_find(f, name);
    if (i >= 0) {
        f->vars[i].flags |= flags & ~(unsigned)VAR_PARAM;
        return i;
    }
    if (f->nvars == f->cap_vars) {
        int cap = f->cap_vars ? f->cap_vars * 2 : 16;
        ir_var *v = ca_arena_alloc(&m->arena, sizeof(*v) * (size_t)cap);
        if (f->nvars) memcpy(v, f->vars, sizeof(*v) * (size_t)f->nvars);
        f->vars = v;
        f->cap_vars = cap;
    }
    ir_var *v = &f->vars[f->nvars];
    v->name = ca_arena_strdup(&m->arena, name);
    v->flags = flags;
    v->first_cancel = UINT32_MAX;
    v->last_mention = UINT32_MAX;
    return f->nvars++;
}

ir_func *ir_func_new(ir_module *m)
{
    ir_func *f = ca_arena_alloc(&m->arena, sizeof(*f));
    if (m->nfuncs == m->cap_funcs) {
        int cap = m->cap_funcs ? m->cap_funcs * 2 : 16;
        ir_func **v = ca_arena_alloc(&m->arena, sizeof(*v) * (size_t)cap);
        if (m->nfuncs) memcpy(v, m->funcs, sizeof(*v) * (size_t)m->nfuncs);
        m->funcs = v;
        m->cap_funcs = cap;
    }
    m->funcs[m->nfuncs++] = f;
    return f;
}

void ir_class_hold(ir_module *m, ir_class *c, const char *ctor)
{
    for (int i = 0; i < c->nholds; i++)
        if (strcmp(c->holds[i], ctor) == 0) return;
    if (c->nholds == c->cap_holds) {
        int cap = c->cap_holds ? c->cap_holds * 2 : 4;
        const char **v = ca_arena_alloc(&m->arena, sizeof(*v) * (size_t)cap);
        if (c->nholds) memcpy(v, c->holds, sizeof(*v) * (size_t)c->nholds);
        c->holds = v;
        c->cap_holds = cap;
    }
    c->holds[c->nholds++] = ca_arena_strdup(&m->arena, ctor);
}

ir_class *ir_class_new(ir_module *m)
{
    ir_class *c = ca_arena_alloc(&m->arena, sizeof(*c));
    if (m->nclasses == m->cap_classes) {
        int cap = m->cap_classes ? m->cap_classes * 2 : 8;
        ir_class **v = ca_arena_alloc(&m->arena, sizeof(*v) * (size_t)cap);
        if (m->nclasses) memcpy(v, m->classes, sizeof(*v) * (size_t)m->nclasses);
        m->classes = v;
        m->cap_classes = cap;
    }
    m->classes[m->nclasses++] = c;
    return c;
}

void ir_spawn_add(ir_module *m, int func, const char *text, unsigned flags) { ir_spawn_add_via(m, func, text, flags, NULL); }

void ir_spawn_add_via(ir_module *m, int func, const char *text, unsigned flags, const char *via)
{
    if (!text) return;
    for (int i = 0; i < m->nspawns; i++)
        if (m->spawns[i].func == func && m->spawns[i].flags == flags && strcmp(m->spawns[i].text, text) == 0 &&
            (m->spawns[i].via == via || (m->spawns[i].via && via && strcmp(m->spawns[i].via, via) == 0)))
            return;
    ir_spawn_append(m, func, text, flags, via);
}

void ir_spawn_append(ir_module *m, int func, const char *text, unsigned flags, const char *via)
{
    if (m->nspawns == m->cap_spawns) {
        int cap = m->cap_spawns ? m->cap_spawns * 2 : 4;
        ir_spawn *v = ca_arena_alloc(&m->arena, sizeof(*v) * (size_t)cap);
        if (m->nspawns) memcpy(v, m->spawns, sizeof(*v) * (size_t)m->nspawns);
        m->spawns = v;
        m->cap_spawns = cap;
    }
    ir_spawn *sp = &m->spawns[m->nspawns++];
    sp->func = func;
    sp->text = text;
    sp->flags = flags;
    sp->via = via;
}

void ir_module_free(ir_module *m)
{
    if (!m) return;
    free(m->diagnostic);
    ca_arena_free(&m->arena);
    memset(m, 0, sizeof(*m));
}

int ir_suppressed(const ir_module *m, int line, const char *rule)
{
    for (int i = 0; i < m->nsupp; i++) {
        if (m->supp[i].line != line) continue;
        const char *r = m->supp[i].rules;
        if (strcmp(r, "*") == 0) return 1;
        size_t n = strlen(rule);
        for (const char *p = r; (p = strstr(p, rule)) != NULL; p += n) {
            int start_ok = p == r || p[-1] == ',';
            int end_ok = p[n] == 0 || p[n] == ',';
            if (start_ok && end_ok) return 1;
        }
        /* prefixes: ignore[CAN1] */
        const char *p = r;
        while (*p) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (len && len <= n && strncmp(p, rule, len) == 0) return 1;
            p += len + (e ? 1 : 0);
        }
    }
    return 0;
}

int ir_visit_children(const ir_node *n, ir_node_fn fn, void *ctx)
{
    int r;
    if ((r = ir_visit(&n->c, fn, ctx)) || (r = ir_visit(&n->a, fn, ctx))) return r;
    for (int k = 0; k < n->nbranches; k++)
        if ((r = ir_visit(&n->branches[k], fn, ctx))) return r;
    for (int k = 0; k < n->nhandlers; k++)
        if ((r = ir_visit(&n->handlers[k].body, fn, ctx))) return r;
    return ir_visit(&n->b, fn, ctx);
}

int ir_visit(const ir_block *b, ir_node_fn fn, void *ctx)
{
    int r;
    for (int i = 0; i < b->n; i++)
        if ((r = fn(ctx, b->v[i])) || (r = ir_visit_children(b->v[i], fn, ctx))) return r;
    return 0;
}

static const char *kind_name(ir_kind k)
{
    static const char *const names[] = {
        "acquire", "alias", "element", "transfer", "release", "adopt", "commit", "checkpoint",
        "done", "take", "await-call", "executor", "call", "if", "loop", "try", "with", "return",
        "raise", "break", "continue", "bind",
    };
    return names[k];
}

static const char *vname(const ir_func *f, int v) { return v >= 0 && v < f->nvars ? f->vars[v].name : "-"; }

static void dump_block(const ir_func *f, const ir_block *b, int depth, ca_sb *out);

static void indent(ca_sb *out, int depth)
{
    for (int i = 0; i < depth; i++) ca_sb_adds(out, "  ");
}

static void dump_node(const ir_func *f, const ir_node *n, int depth, ca_sb *out)
{
    indent(out, depth);
    ca_sb_addf(out, "%d: %s", n->site.line, kind_name(n->kind));
    if (n->var >= 0) ca_sb_addf(out, " %s", vname(f, n->var));
    if (n->var2 >= 0) ca_sb_addf(out, " <%s>", vname(f, n->var2));
    if (n->rkind) ca_sb_addf(out, " kind=%s", n->rkind);
    if (n->flags) ca_sb_addf(out, " flags=%#x", n->flags);
    if (n->text && n->kind != IR_CHECKPOINT) ca_sb_addf(out, " '%s'", n->text);
    static const char *const test_name[] = {"", ":truthy", ":falsy", ":none", ":not-none", ":false", ":cancel",
                                            ":other"};
    const uint8_t *tests = n->kind == IR_IF ? n->tests : NULL;
    for (int i = 0; i < n->nvars; i++)
        ca_sb_addf(out, "%s%s%s", i ? "," : " [", vname(f, n->vars[i]),
                   tests ? test_name[tests[i] < 8 ? tests[i] : 0] : "");
    if (n->nvars) ca_sb_adds(out, "]");
    ca_sb_adds(out, "\n");
    switch (n->kind) {
    case IR_IF:
        for (int i = 0; i < n->nbranches; i++) {
            indent(out, depth + 1);
            ca_sb_addf(out, "branch %d:\n", i);
            dump_block(f, &n->branches[i], depth + 2, out);
        }
        break;
    case IR_LOOP:
        if (n->c.n) { indent(out, depth + 1); ca_sb_adds(out, "cond:\n"); dump_block(f, &n->c, depth + 2, out); }
        dump_block(f, &n->a, depth + 1, out);
        if (n->b.n) { indent(out, depth + 1); ca_sb_adds(out, "else:\n"); dump_block(f, &n->b, depth + 2, out); }
        break;
    case IR_TRY:
        dump_block(f, &n->a, depth + 1, out);
        for (int i = 0; i < n->nhandlers; i++) {
            indent(out, depth + 1);
            ca_sb_addf(out, "except %s flags=%#x:\n", n->handlers[i].catches, n->handlers[i].flags);
            dump_block(f, &n->handlers[i].body, depth + 2, out);
        }
        if (n->b.n) { indent(out, depth + 1); ca_sb_adds(out, "else:\n"); dump_block(f, &n->b, depth + 2, out); }
        if (n->c.n) { indent(out, depth + 1); ca_sb_adds(out, "finally:\n"); dump_block(f, &n->c, depth + 2, out); }
        break;
    case IR_WITH:
        dump_block(f, &n->a, depth + 1, out);
        break;
    default:
        break;
    }
}

static void dump_block(const ir_func *f, const ir_block *b, int depth, ca_sb *out)
{
    for (int i = 0; i < b->n; i++) dump_node(f, b->v[i], depth, out);
}

void ir_dump(const ir_module *m, const ir_func *f, ca_sb *out)
{
    (void)m;
    ca_sb_addf(out, "func %s%s\n", f->qualname, f->is_async ? " async" : "");
    dump_block(f, &f->body, 1, out);
}
