/*
 * test_ir_serial.c — ir_encode / ir_decode (ir/serial.c): every module the
 * Python and the C frontend make of the corpus comes back the same — member
 * by member of every struct in ir.h (same_module below), its dump, and its
 * bytes re-encoded — and a truncated or damaged buffer is refused without a
 * read out of bounds (the ASan build checks that).
 *
 * Lowering runs in worker processes (scan/contain.c), so a member that
 * serial.c does not carry is lost on the way back and changes findings
 * without a word; same_module names the member that differs. A member added
 * to ir.h goes into serial.c and into same_module (serial.c's size checks
 * stop the build until it does).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ca_test.h"
#include "catalog/catalog.h"
#include "frontend/c/c_frontend.h"
#include "frontend/python/py_frontend.h"
#include "ir/ir.h"
#include "util/util.h"

static py_frontend *fe;
static c_frontend *cfe;
static int modules, c_modules;

/* ------------------------------------------------------------------------ */
/* Member by member.                                                        */

typedef struct node_pair {
    const ir_node *a, *b;
} node_pair;

typedef struct cmp {
    const char *path;
    const char *where; /* the function being compared */
    CA_VEC(node_pair) pairs; /* every node of a, in pre-order, with its copy in b */
    int bad;
} cmp;

static void differs(cmp *c, const char *what)
{
    if (c->bad++ < 5) fprintf(stderr, "%s: %s: %s differs after the round trip\n", c->path, c->where, what);
}

static int str_same(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

#define SAME_INT(c, x, y, what)                                                                                 \
    do {                                                                                                      \
        if ((x) != (y)) differs(c, what);                                                                     \
    } while (0)
#define SAME_STR(c, x, y, what)                                                                                 \
    do {                                                                                                      \
        if (!str_same((x), (y))) differs(c, what);                                                            \
    } while (0)

static void same_site(cmp *c, ir_site a, ir_site b, const char *what)
{
    if (a.line != b.line || a.col != b.col || a.end_line != b.end_line || a.end_col != b.end_col ||
        a.start != b.start || a.end != b.end)
        differs(c, what);
}

/* The copy of a's node p in b (NULL: none; (void *)1: p is no node of a). */
static const ir_node *mapped(const cmp *c, const ir_node *p)
{
    if (!p) return NULL;
    for (size_t i = 0; i < c->pairs.n; i++)
        if (c->pairs.v[i].a == p) return c->pairs.v[i].b;
    return (const ir_node *)1;
}

static void same_block(cmp *c, const ir_block *a, const ir_block *b);

static void same_node(cmp *c, const ir_node *a, const ir_node *b)
{
    /* a node reachable twice in a would come back as two */
    if (mapped(c, a) != (const ir_node *)1) differs(c, "node sharing (one node in two blocks)");
    node_pair np = {a, b};
    CA_VEC_PUSH(c->pairs, np);
    SAME_INT(c, a->kind, b->kind, "ir_node.kind");
    same_site(c, a->site, b->site, "ir_node.site");
    SAME_INT(c, a->flags, b->flags, "ir_node.flags");
    SAME_INT(c, a->var, b->var, "ir_node.var");
    SAME_INT(c, a->var2, b->var2, "ir_node.var2");
    SAME_STR(c, a->text, b->text, "ir_node.text");
    SAME_STR(c, a->rkind, b->rkind, "ir_node.rkind");
    SAME_STR(c, a->callee, b->callee, "ir_node.callee");
    SAME_STR(c, a->cname, b->cname, "ir_node.cname");
    SAME_STR(c, a->recv, b->recv, "ir_node.recv");
    SAME_INT(c, a->nvars, b->nvars, "ir_node.nvars");
    int nv = a->nvars < b->nvars ? a->nvars : b->nvars;
    for (int i = 0; i < nv; i++) SAME_INT(c, a->vars[i], b->vars[i], "ir_node.vars[]");
    if (a->kind == IR_IF) {
        SAME_INT(c, a->tests != NULL, b->tests != NULL, "ir_node.tests");
        if (a->tests && b->tests)
            for (int i = 0; i < nv; i++) SAME_INT(c, a->tests[i], b->tests[i], "ir_node.tests[]");
    } else {
        SAME_INT(c, a->kwnames != NULL, b->kwnames != NULL, "ir_node.kwnames");
        if (a->kwnames && b->kwnames)
            for (int i = 0; i < nv; i++) SAME_STR(c, a->kwnames[i], b->kwnames[i], "ir_node.kwnames[]");
    }
    same_block(c, &a->a, &b->a);
    same_block(c, &a->b, &b->b);
    same_block(c, &a->c, &b->c);
    SAME_INT(c, a->nbranches, b->nbranches, "ir_node.nbranches");
    for (int i = 0; i < a->nbranches && i < b->nbranches; i++) same_block(c, &a->branches[i], &b->branches[i]);
    SAME_INT(c, a->nhandlers, b->nhandlers, "ir_node.nhandlers");
    for (int i = 0; i < a->nhandlers && i < b->nhandlers; i++) {
        const ir_handler *ha = &a->handlers[i], *hb = &b->handlers[i];
        same_site(c, ha->site, hb->site, "ir_handler.site");
        SAME_INT(c, ha->flags, hb->flags, "ir_handler.flags");
        SAME_STR(c, ha->catches, hb->catches, "ir_handler.catches");
        SAME_INT(c, ha->exc_var, hb->exc_var, "ir_handler.exc_var");
        same_block(c, &ha->body, &hb->body);
    }
}

static void same_block(cmp *c, const ir_block *a, const ir_block *b)
{
    SAME_INT(c, a->n, b->n, "ir_block.n");
    for (int i = 0; i < a->n && i < b->n; i++) same_node(c, a->v[i], b->v[i]);
}

/* ref and stack_with, once every node has its copy (a ref may point
 * forward, or into another function). */
static int same_refs(void *ctx, const ir_node *n)
{
    cmp *c = ctx;
    const ir_node *copy = mapped(c, n);
    if (copy == (const ir_node *)1 || !copy) return 0;
    if (mapped(c, n->ref) != copy->ref) differs(c, "ir_node.ref");
    return 0;
}

static void same_module(const char *path, const ir_module *a, const ir_module *b)
{
    cmp c;
    memset(&c, 0, sizeof(c));
    c.path = path;
    c.where = "module";
    SAME_STR(&c, a->path, b->path, "ir_module.path");
    SAME_STR(&c, a->language, b->language, "ir_module.language");
    SAME_STR(&c, a->diagnostic, b->diagnostic, "ir_module.diagnostic");
    SAME_INT(&c, a->parse_errors, b->parse_errors, "ir_module.parse_errors");
    SAME_INT(&c, a->first_error_line, b->first_error_line, "ir_module.first_error_line");
    SAME_INT(&c, a->cancels_threads, b->cancels_threads, "ir_module.cancels_threads");
    /* src and len are the caller's: the scan sets len, src stays NULL (contain.h) */
    SAME_INT(&c, a->nsupp, b->nsupp, "ir_module.nsupp");
    for (int i = 0; i < a->nsupp && i < b->nsupp; i++) {
        SAME_INT(&c, a->supp[i].line, b->supp[i].line, "ir_suppress.line");
        SAME_STR(&c, a->supp[i].rules, b->supp[i].rules, "ir_suppress.rules");
    }
    SAME_INT(&c, a->nclasses, b->nclasses, "ir_module.nclasses");
    for (int k = 0; k < a->nclasses && k < b->nclasses; k++) {
        const ir_class *x = a->classes[k], *y = b->classes[k];
        SAME_STR(&c, x->name, y->name, "ir_class.name");
        SAME_STR(&c, x->qualname, y->qualname, "ir_class.qualname");
        same_site(&c, x->site, y->site, "ir_class.site");
        SAME_INT(&c, x->flags, y->flags, "ir_class.flags");
        SAME_INT(&c, x->nbases, y->nbases, "ir_class.nbases");
        for (int i = 0; i < x->nbases && i < y->nbases; i++) SAME_STR(&c, x->bases[i], y->bases[i], "ir_class.bases[]");
        SAME_INT(&c, x->nholds, y->nholds, "ir_class.nholds");
        for (int i = 0; i < x->nholds && i < y->nholds; i++) SAME_STR(&c, x->holds[i], y->holds[i], "ir_class.holds[]");
    }
    SAME_INT(&c, a->nspawns, b->nspawns, "ir_module.nspawns");
    for (int k = 0; k < a->nspawns && k < b->nspawns; k++) {
        SAME_INT(&c, a->spawns[k].func, b->spawns[k].func, "ir_spawn.func");
        SAME_STR(&c, a->spawns[k].text, b->spawns[k].text, "ir_spawn.text");
        SAME_INT(&c, a->spawns[k].flags, b->spawns[k].flags, "ir_spawn.flags");
        SAME_STR(&c, a->spawns[k].via, b->spawns[k].via, "ir_spawn.via");
    }
    SAME_INT(&c, a->nfuncs, b->nfuncs, "ir_module.nfuncs");
    int nf = a->nfuncs < b->nfuncs ? a->nfuncs : b->nfuncs;
    for (int k = 0; k < nf; k++) {
        const ir_func *x = a->funcs[k], *y = b->funcs[k];
        c.where = x->qualname ? x->qualname : "?";
        SAME_STR(&c, x->name, y->name, "ir_func.name");
        SAME_STR(&c, x->qualname, y->qualname, "ir_func.qualname");
        SAME_STR(&c, x->class_name, y->class_name, "ir_func.class_name");
        same_site(&c, x->site, y->site, "ir_func.site");
        SAME_INT(&c, x->is_async, y->is_async, "ir_func.is_async");
        SAME_INT(&c, x->is_method, y->is_method, "ir_func.is_method");
        SAME_INT(&c, x->nparams, y->nparams, "ir_func.nparams");
        SAME_INT(&c, x->truncated, y->truncated, "ir_func.truncated");
        SAME_INT(&c, x->param_mentions, y->param_mentions, "ir_func.param_mentions");
        SAME_INT(&c, x->fflags, y->fflags, "ir_func.fflags");
        SAME_STR(&c, x->ret_type, y->ret_type, "ir_func.ret_type");
        /* id is the scan driver's scratch, set after lowering */
        SAME_INT(&c, x->nvars, y->nvars, "ir_func.nvars");
        same_block(&c, &x->body, &y->body);
    }
    /* the pointers, now that every node of a has its copy */
    for (int k = 0; k < nf; k++) {
        const ir_func *x = a->funcs[k], *y = b->funcs[k];
        c.where = x->qualname ? x->qualname : "?";
        ir_visit(&x->body, same_refs, &c);
        for (int i = 0; i < x->nvars && i < y->nvars; i++) {
            const ir_var *u = &x->vars[i], *v = &y->vars[i];
            SAME_STR(&c, u->name, v->name, "ir_var.name");
            SAME_INT(&c, u->flags, v->flags, "ir_var.flags");
            SAME_INT(&c, u->first_cancel, v->first_cancel, "ir_var.first_cancel");
            SAME_INT(&c, u->last_mention, v->last_mention, "ir_var.last_mention");
            if (mapped(&c, u->stack_with) != v->stack_with) differs(&c, "ir_var.stack_with");
        }
    }
    CHECK_EQ(c.bad, 0);
    CA_VEC_FREE(c.pairs);
}

static void dump_all(const ir_module *m, ca_sb *out)
{
    ca_sb_addf(out, "%s|%s|%s|%d|%d|%d\n", m->path ? m->path : "-", m->language ? m->language : "-",
               m->diagnostic ? m->diagnostic : "-", m->parse_errors, m->first_error_line, m->cancels_threads);
    for (int i = 0; i < m->nsupp; i++) ca_sb_addf(out, "supp %d %s\n", m->supp[i].line, m->supp[i].rules);
    for (int k = 0; k < m->nfuncs; k++) ir_dump(m, m->funcs[k], out);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void round_trip(const char *path)
{
    int is_c = ends_with(path, ".c") || ends_with(path, ".h");
    char *src = NULL;
    size_t len = 0;
    if (ca_read_file(path, &src, &len) != 0) return;
    ir_module m;
    memset(&m, 0, sizeof(m));
    int lowered = is_c ? c_lower(cfe, path, src, len, &m) : py_lower(fe, path, src, len, &m);
    if (lowered == 0) {
        m.src = NULL;
        ca_sb a = {0}, b = {0}, da = {0}, db = {0};
        ir_encode(&m, &a);
        ir_module back;
        int rc = ir_decode(a.buf, a.len, &back);
        CHECK_EQ(rc, 0);
        if (rc == 0) {
            ir_encode(&back, &b);
            CHECK(a.len == b.len && memcmp(a.buf, b.buf, a.len) == 0);
            dump_all(&m, &da);
            dump_all(&back, &db);
            CHECK_STR_EQ(ca_sb_str(&da), ca_sb_str(&db));
            CHECK_EQ(back.nfuncs, m.nfuncs);
            same_module(path, &m, &back);
            ir_module_free(&back);
        }
        if (is_c) c_modules++;
        else modules++;
        ca_sb_release(&a);
        ca_sb_release(&b);
        ca_sb_release(&da);
        ca_sb_release(&db);
    } else if (is_c && m.diagnostic) {
        fprintf(stderr, "note: %s not lowered: %s\n", path, m.diagnostic);
    }
    ir_module_free(&m);
    free(src);
}

static void walk(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char *p = ca_xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) walk(p);
        else if (ends_with(p, ".py") || ends_with(p, ".c") || ends_with(p, ".h")) round_trip(p);
        free(p);
    }
    closedir(d);
}

/* Every prefix of a buffer, and every single-byte change of it, decodes
 * to -1 or to a module; never a crash or a read past the end. */
static void damaged(void)
{
    const char *src = "import asyncio\n"
                      "async def f(s, q):\n"
                      "    async with contextlib.AsyncExitStack() as st:\n"
                      "        t = asyncio.create_task(w(q))\n"
                      "        try:\n"
                      "            await asyncio.wait_for(s.create(name=q), 5)  # noqa: CAN201\n"
                      "        except asyncio.CancelledError as e:\n"
                      "            t.cancel()\n"
                      "            raise e\n";
    ir_module m;
    memset(&m, 0, sizeof(m));
    CHECK_EQ(py_lower(fe, "d.py", src, strlen(src), &m), 0);
    m.src = NULL;
    ca_sb a = {0};
    ir_encode(&m, &a);
    int refused = 0;
    for (size_t n = 0; n < a.len; n++) {
        ir_module back;
        int rc = ir_decode(a.buf, n, &back);
        refused += rc != 0;
        if (rc == 0) ir_module_free(&back);
    }
    CHECK_EQ(refused, (int)a.len); /* a proper prefix is never a whole module */
    char *copy = ca_xmalloc(a.len);
    for (size_t i = 0; i < a.len; i++) {
        for (int bit = 0; bit < 8; bit++) {
            memcpy(copy, a.buf, a.len);
            copy[i] ^= (char)(1 << bit);
            ir_module back;
            if (ir_decode(copy, a.len, &back) == 0) ir_module_free(&back);
        }
    }
    free(copy);
    ca_sb_release(&a);
    ir_module_free(&m);
    ir_module empty;
    CHECK(ir_decode("CAIR", 4, &empty) != 0);
    CHECK(ir_decode("XXXX\x01", 5, &empty) != 0);
}

int main(void)
{
    char *err = NULL;
    const ca_catalog *cat = ca_catalog_builtin(&err);
    CHECK(cat != NULL);
    if (!cat) return 1;
    fe = py_frontend_new(cat);
    cfe = c_frontend_new(cat, NULL);
    walk("corpus");
    CHECK(modules >= 30);
    CHECK(c_modules >= 8); /* libclang is required (scripts/bootstrap.sh installs it) */
    damaged();
    c_frontend_free(cfe);
    py_frontend_free(fe);
    CA_TEST_MAIN();
}
