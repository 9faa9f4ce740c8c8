/*
 * test_py_lower.c — the Python frontend (py_frontend.c) lowers small
 * snippets to the ownership IR of DESIGN §2: acquisitions (catalog, naming
 * heuristic, tuple elements, registry take-outs), aliases, transfers,
 * adoption by context managers and exit stacks, releases, checkpoints,
 * handler classification, nested scopes and qualnames, modern syntax,
 * suppression comments, syntax errors and the nesting limit.
 *
 * Each snippet is lowered on its own; assertions walk the ir_func tree
 * (every block of every structured node) and, where the shape matters less
 * than the fact, read the ir_dump text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ca_test.h"
#include "catalog/catalog.h"
#include "ir/ir.h"
#include "frontend/python/py_frontend.h"
#include "util/util.h"

static py_frontend *fe;

/* ------------------------------------------------------------------------ */
/* Lowering and lookup helpers.                                             */

typedef struct snippet {
    ir_module m;
    char *src;
} snippet;

static void lower_n(snippet *s, const char *src, size_t len)
{
    memset(s, 0, sizeof(*s));
    s->src = malloc(len ? len : 1);
    memcpy(s->src, src, len);
    int rc = py_lower(fe, "snippet.py", s->src, len, &s->m);
    CHECK_EQ(rc, 0);
}

static void lower_src(snippet *s, const char *src) { lower_n(s, src, strlen(src)); }

static void done(snippet *s)
{
    ir_module_free(&s->m);
    free(s->src);
}

static const ir_func *func(const snippet *s, const char *qualname)
{
    for (int i = 0; i < s->m.nfuncs; i++)
        if (strcmp(s->m.funcs[i]->qualname, qualname) == 0) return s->m.funcs[i];
    fprintf(stderr, "    no function %s in the snippet\n", qualname);
    return NULL;
}

static int var(const ir_func *f, const char *name) { return f ? ir_var_find(f, name) : -1; }

/* Count the nodes of a function that satisfy p (ir_visit's order; the
 * first one met in *first). */
typedef int (*node_pred)(const ir_func *f, const ir_node *n, const void *arg);

typedef struct count_ctx {
    const ir_func *f;
    node_pred p;
    const void *arg;
    const ir_node **first;
    int n;
} count_ctx;

static int count_one(void *ctx, const ir_node *n)
{
    count_ctx *c = ctx;
    if (c->p(c->f, n, c->arg)) {
        c->n++;
        if (c->first && !*c->first) *c->first = n;
    }
    return 0;
}

static int walk_count(const ir_func *f, const ir_block *b, node_pred p, const void *arg, const ir_node **first)
{
    count_ctx c = {f, p, arg, first, 0};
    ir_visit(b, count_one, &c);
    return c.n;
}

/* Match on kind and, when given, the variable's name (var) and flags. */
typedef struct match {
    ir_kind kind;
    const char *var;   /* NULL: any */
    const char *var2;  /* NULL: any */
    unsigned flags;    /* all of these must be set */
} match;

static int pred_match(const ir_func *f, const ir_node *n, const void *arg)
{
    const match *m = arg;
    if (n->kind != m->kind) return 0;
    if (m->var && (n->var < 0 || strcmp(f->vars[n->var].name, m->var) != 0)) return 0;
    if (m->var2 && (n->var2 < 0 || strcmp(f->vars[n->var2].name, m->var2) != 0)) return 0;
    return (n->flags & m->flags) == m->flags;
}

static int count(const ir_func *f, ir_kind k, const char *v, const char *v2, unsigned flags)
{
    if (!f) return -1;
    match m = {k, v, v2, flags};
    return walk_count(f, &f->body, pred_match, &m, NULL);
}

static const ir_node *find(const ir_func *f, ir_kind k, const char *v, const char *v2, unsigned flags)
{
    if (!f) return NULL;
    match m = {k, v, v2, flags};
    const ir_node *first = NULL;
    walk_count(f, &f->body, pred_match, &m, &first);
    return first;
}

typedef struct text_match {
    ir_kind kind;
    const char *text; /* substring of the node's text */
} text_match;

static int pred_text(const ir_func *f, const ir_node *n, const void *arg)
{
    (void)f;
    const text_match *m = arg;
    return n->kind == m->kind && n->text && strstr(n->text, m->text) != NULL;
}

static const ir_node *find_text(const ir_func *f, ir_kind k, const char *text)
{
    if (!f) return NULL;
    text_match m = {k, text};
    const ir_node *first = NULL;
    walk_count(f, &f->body, pred_text, &m, &first);
    return first;
}

/* Every node of kind k, in walk order, up to cap. */
typedef struct collect {
    ir_kind kind;
    const ir_node *v[64];
    int n;
} collect;

static int pred_collect(const ir_func *f, const ir_node *n, const void *arg)
{
    (void)f;
    collect *c = (collect *)arg;
    if (n->kind == c->kind && c->n < 64) c->v[c->n++] = n;
    return 0;
}

static collect all_of(const ir_func *f, ir_kind k)
{
    collect c;
    memset(&c, 0, sizeof(c));
    c.kind = k;
    if (f) walk_count(f, &f->body, pred_collect, &c, NULL);
    return c;
}

/* Index of the first top-level node of kind k (var name when given), or -1. */
static int top_index(const ir_func *f, ir_kind k, const char *v)
{
    if (!f) return -1;
    for (int i = 0; i < f->body.n; i++) {
        const ir_node *n = f->body.v[i];
        if (n->kind != k) continue;
        if (v && (n->var < 0 || strcmp(f->vars[n->var].name, v) != 0)) continue;
        return i;
    }
    return -1;
}

static char *dump(const snippet *s, const ir_func *f)
{
    ca_sb sb = {0};
    if (f) ir_dump(&s->m, f, &sb);
    return ca_sb_detach(&sb);
}

static int has_checkpoint_var_in(const ir_node *cp, int v)
{
    for (int i = 0; i < cp->nvars; i++)
        if (cp->vars[i] == v) return 1;
    return 0;
}


/* The handler of try node t whose `catches` text is exactly c. */
static const ir_handler *handler(const ir_node *t, const char *c)
{
    if (!t) return NULL;
    for (int i = 0; i < t->nhandlers; i++)
        if (strcmp(t->handlers[i].catches, c) == 0) return &t->handlers[i];
    fprintf(stderr, "    no handler `except %s`\n", c);
    return NULL;
}

static unsigned hflags(const ir_node *t, const char *c)
{
    const ir_handler *h = handler(t, c);
    return h ? h->flags : 0xdeadu;
}

/* ------------------------------------------------------------------------ */
/* Acquisitions.                                                            */

static void test_catalog_acquire(void)
{
    snippet s;
    lower_src(&s, "import asyncio, aiohttp\n"
                  "\n"
                  "async def f():\n"
                  "    s = aiohttp.ClientSession()\n"
                  "    t = asyncio.create_task(work())\n"
                  "    p = await asyncio.create_subprocess_exec('ls')\n");
    const ir_func *f = func(&s, "f");
    CHECK(f && f->is_async);
    const ir_node *a = find(f, IR_ACQUIRE, "s", NULL, ACQ_STRONG);
    CHECK(a != NULL);
    if (a) {
        CHECK_STR_EQ(a->rkind, "session");
        CHECK_EQ(a->site.line, 4);
    }
    a = find(f, IR_ACQUIRE, "t", NULL, ACQ_STRONG);
    CHECK(a && strcmp(a->rkind, "task") == 0);
    a = find(f, IR_ACQUIRE, "p", NULL, ACQ_STRONG);
    CHECK(a && strcmp(a->rkind, "process") == 0);
    /* the await is a checkpoint that happens before p exists */
    int cp = -1, acq = top_index(f, IR_ACQUIRE, "p");
    for (int i = 0; f && i < f->body.n; i++)
        if (f->body.v[i]->kind == IR_CHECKPOINT && f->body.v[i]->site.line == 6) cp = i;
    CHECK(cp >= 0 && acq > cp);
    /* the non-acquiring call `work()` acquires nothing by itself */
    CHECK_EQ(count(f, IR_ACQUIRE, NULL, NULL, 0), 3);
    done(&s);
}

static void test_catalog_through_imports(void)
{
    snippet s;
    lower_src(&s, "import aiohttp as ah\n"
                  "from asyncio import create_task\n"
                  "import os\n"
                  "\n"
                  "async def f():\n"
                  "    s = ah.ClientSession()\n"
                  "    t = create_task(work())\n"
                  "    fd = os.open('x', 0)\n"
                  "    fh = open('y')\n");
    const ir_func *f = func(&s, "f");
    const ir_node *a = find(f, IR_ACQUIRE, "s", NULL, ACQ_STRONG);
    CHECK(a && strcmp(a->rkind, "session") == 0);
    a = find(f, IR_ACQUIRE, "t", NULL, ACQ_STRONG);
    CHECK(a && strcmp(a->rkind, "task") == 0);
    a = find(f, IR_ACQUIRE, "fd", NULL, ACQ_STRONG);
    CHECK(a && strcmp(a->rkind, "fd") == 0);
    a = find(f, IR_ACQUIRE, "fh", NULL, ACQ_STRONG);
    CHECK(a && strcmp(a->rkind, "file") == 0);
    done(&s);
}

static void test_naming_heuristic_awaited_only(void)
{
    snippet s;
    lower_src(&s, "async def f(client):\n"
                  "    box = await client.create_sandbox()\n"
                  "    box2 = client.create_sandbox()\n"
                  "    ch = await client.open_channel()\n"
                  "    data = await client.fetch()\n"
                  "    w = await client.spawn_worker()\n");
    const ir_func *f = func(&s, "f");
    const ir_node *a = find(f, IR_ACQUIRE, "box", NULL, ACQ_STRONG);
    CHECK(a && strcmp(a->rkind, "remote") == 0);
    /* un-awaited: not a resource for sure (at most a weak call result) */
    CHECK_EQ(count(f, IR_ACQUIRE, "box2", NULL, ACQ_STRONG), 0);
    CHECK(find(f, IR_ACQUIRE, "ch", NULL, ACQ_STRONG) != NULL);
    CHECK(find(f, IR_ACQUIRE, "w", NULL, ACQ_STRONG) != NULL);
    CHECK_EQ(count(f, IR_ACQUIRE, "data", NULL, ACQ_STRONG), 0);
    /* the parameter is the caller's: never acquired */
    CHECK_EQ(count(f, IR_ACQUIRE, "client", NULL, 0), 0);
    CHECK(f && (f->vars[var(f, "client")].flags & VAR_PARAM));
    CHECK_EQ(f ? f->nparams : -1, 1);
    done(&s);
}

static void test_tuple_unpacking(void)
{
    snippet s;
    lower_src(&s, "import asyncio, os\n"
                  "\n"
                  "async def f():\n"
                  "    r, w = os.pipe()\n"
                  "    reader, writer = await asyncio.open_connection('h', 1)\n"
                  "    (m, sl) = os.openpty()\n");
    const ir_func *f = func(&s, "f");
    CHECK_EQ(count(f, IR_ACQUIRE, "r", NULL, ACQ_STRONG), 1);
    CHECK_EQ(count(f, IR_ACQUIRE, "w", NULL, ACQ_STRONG), 1);
    const ir_node *a = find(f, IR_ACQUIRE, "w", NULL, 0);
    CHECK(a && strcmp(a->rkind, "fd") == 0);
    /* the catalog says the writer carries the stream */
    CHECK_EQ(count(f, IR_ACQUIRE, "reader", NULL, 0), 0);
    a = find(f, IR_ACQUIRE, "writer", NULL, ACQ_STRONG);
    CHECK(a && strcmp(a->rkind, "stream") == 0);
    CHECK(var(f, "reader") >= 0); /* still a variable of the function */
    CHECK_EQ(count(f, IR_ACQUIRE, "m", NULL, ACQ_STRONG), 1);
    CHECK_EQ(count(f, IR_ACQUIRE, "sl", NULL, ACQ_STRONG), 1);
    done(&s);
}

static void test_registry_take(void)
{
    snippet s;
    lower_src(&s, "class Reg:\n"
                  "    def __init__(self):\n"
                  "        self._d = {}\n"
                  "\n"
                  "    async def take(self, k):\n"
                  "        a, b = self._d.pop(k)\n"
                  "        e = self._d.pop(k, None)\n"
                  "        del self._d[k]\n"
                  "        local = {}\n"
                  "        x = local.pop(k)\n");
    const ir_func *f = func(&s, "Reg.take");
    const ir_node *a = find(f, IR_ACQUIRE, "a", NULL, ACQ_REGISTRY_TAKE);
    CHECK(a && a->text && strcmp(a->text, "self._d") == 0);
    a = find(f, IR_ACQUIRE, "b", NULL, ACQ_REGISTRY_TAKE);
    CHECK(a && a->text && strcmp(a->text, "self._d") == 0);
    CHECK_EQ(count(f, IR_ACQUIRE, "e", NULL, ACQ_REGISTRY_TAKE), 1);
    const ir_node *t = find(f, IR_TAKE, NULL, NULL, 0);
    CHECK(t && t->text && strcmp(t->text, "self._d") == 0 && t->site.line == 8);
    /* a local dict is no registry */
    CHECK_EQ(count(f, IR_ACQUIRE, "x", NULL, ACQ_REGISTRY_TAKE), 0);
    done(&s);
}

/* ------------------------------------------------------------------------ */
/* Aliases and transfers.                                                   */

static void test_aliases(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "\n"
                  "async def f(session):\n"
                  "    ws = await session.ws_connect('u')\n"
                  "    entry = Entry()\n"
                  "    entry.ws = ws\n"
                  "    proc = await asyncio.create_subprocess_exec('x')\n"
                  "    e2 = Entry(proc=proc)\n"
                  "    a = asyncio.create_task(work())\n"
                  "    b = asyncio.create_task(work())\n"
                  "    pair = (a, b)\n"
                  "    x = a\n"
                  "    bag = []\n"
                  "    bag.append(b)\n");
    const ir_func *f = func(&s, "f");
    CHECK_EQ(count(f, IR_ALIAS, "ws", "entry", 0), 1);
    CHECK_EQ(count(f, IR_ALIAS, "proc", "e2", 0), 1);
    CHECK_EQ(count(f, IR_ALIAS, "a", "pair", 0), 1);
    CHECK_EQ(count(f, IR_ALIAS, "b", "pair", 0), 1);
    CHECK_EQ(count(f, IR_ALIAS, "a", "x", 0), 1);
    CHECK_EQ(count(f, IR_ALIAS, "b", "bag", 0), 1);
    /* none of these hands anything to an owner outside the function */
    CHECK_EQ(count(f, IR_TRANSFER, NULL, NULL, 0), 0);
    done(&s);
}

static void test_transfers(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "_REG = {}\n"
                  "\n"
                  "class Svc:\n"
                  "    async def put(self, k):\n"
                  "        v = asyncio.create_task(work())\n"
                  "        self._reg[k] = v\n"
                  "        t = asyncio.create_task(work())\n"
                  "        self._tasks.add(t)\n"
                  "        u = asyncio.create_task(work())\n"
                  "        self.current = u\n"
                  "        g = asyncio.create_task(work())\n"
                  "        _REG[k] = g\n"
                  "        local = {}\n"
                  "        w = asyncio.create_task(work())\n"
                  "        local[k] = w\n"
                  "        r = asyncio.create_task(work())\n"
                  "        return r\n"
                  "\n"
                  "    async def gen(self):\n"
                  "        y = asyncio.create_task(work())\n"
                  "        yield y\n");
    const ir_func *f = func(&s, "Svc.put");
    const ir_node *t = find(f, IR_TRANSFER, "v", NULL, 0);
    CHECK(t && t->site.line == 7);
    CHECK_EQ(count(f, IR_TRANSFER, "t", NULL, 0), 1);
    CHECK_EQ(count(f, IR_TRANSFER, "u", NULL, 0), 1);
    CHECK_EQ(count(f, IR_TRANSFER, "g", NULL, 0), 1);
    /* a local container holds w: an alias, not a transfer */
    CHECK_EQ(count(f, IR_TRANSFER, "w", NULL, 0), 0);
    CHECK_EQ(count(f, IR_ALIAS, "w", "local", 0), 1);
    /* return v: transfer, then the return */
    int ti = top_index(f, IR_TRANSFER, "r"), ri = top_index(f, IR_RETURN, NULL);
    CHECK(ti >= 0 && ri == ti + 1);
    const ir_func *g = func(&s, "Svc.gen");
    CHECK_EQ(count(g, IR_TRANSFER, "y", NULL, 0), 1);
    done(&s);
}

static void test_async_with_adopts(void)
{
    snippet s;
    lower_src(&s, "import aiohttp\n"
                  "\n"
                  "async def f():\n"
                  "    s = aiohttp.ClientSession()\n"
                  "    async with s:\n"
                  "        await s.get('u')\n"
                  "    async with aiohttp.ClientSession() as s2:\n"
                  "        await s2.get('u')\n"
                  "    with open('f') as fh:\n"
                  "        pass\n");
    const ir_func *f = func(&s, "f");
    collect w = all_of(f, IR_WITH);
    CHECK_EQ(w.n, 3);
    if (w.n == 3) {
        /* `async with v:` hands v over as the statement begins */
        CHECK(w.v[0]->var2 == var(f, "s"));
        CHECK(w.v[0]->flags & WITH_ASYNC);
        CHECK(w.v[0]->a.n >= 1 && w.v[0]->a.v[w.v[0]->a.n - 1]->kind == IR_CHECKPOINT); /* the body */
        /* a context manager that makes the resource owns what it binds */
        CHECK(w.v[1]->flags & WITH_OWNS);
        CHECK(w.v[1]->var == var(f, "s2"));
        CHECK(w.v[1]->rkind && strcmp(w.v[1]->rkind, "session") == 0);
        CHECK(!(w.v[2]->flags & WITH_ASYNC));
        CHECK(w.v[2]->flags & WITH_OWNS);
        CHECK(w.v[2]->var == var(f, "fh"));
    }
    done(&s);
}

static void test_exit_stack(void)
{
    snippet s;
    lower_src(&s, "import contextlib, aiohttp\n"
                  "\n"
                  "async def f():\n"
                  "    async with contextlib.AsyncExitStack() as stack:\n"
                  "        s = aiohttp.ClientSession()\n"
                  "        stack.push_async_callback(s.close)\n"
                  "        ws = await stack.enter_async_context(s.ws_connect('u'))\n"
                  "        await work()\n"
                  "        keep = stack.pop_all()\n");
    const ir_func *f = func(&s, "f");
    const ir_node *w = find(f, IR_WITH, NULL, NULL, WITH_EXIT_STACK | WITH_ASYNC);
    CHECK(w != NULL);
    int sv = var(f, "stack");
    CHECK(sv >= 0 && (f->vars[sv].flags & VAR_EXIT_STACK) && f->vars[sv].stack_with == w);
    const ir_node *ad = find(f, IR_ADOPT, "s", "stack", 0);
    CHECK(ad && ad->ref == w && ad->site.line == 6);
    CHECK(find(f, IR_ACQUIRE, "ws", NULL, ACQ_STRONG) != NULL);
    ad = find(f, IR_ADOPT, "ws", "stack", 0);
    CHECK(ad && ad->ref == w);
    /* s.close handed to the stack is no release of s */
    CHECK_EQ(count(f, IR_RELEASE, "s", NULL, 0), 0);
    CHECK_EQ(count(f, IR_COMMIT, NULL, "stack", 0), 1);
    done(&s);
}

/* ------------------------------------------------------------------------ */
/* Releases.                                                                */

static void test_releases(void)
{
    snippet s;
    lower_src(&s, "import asyncio, aiohttp, os\n"
                  "\n"
                  "class C:\n"
                  "    async def f(self, tasks):\n"
                  "        s = aiohttp.ClientSession()\n"
                  "        await s.close()\n"
                  "        fd = os.open('x', 0)\n"
                  "        os.close(fd)\n"
                  "        t = asyncio.create_task(work())\n"
                  "        try:\n"
                  "            await work()\n"
                  "        except Exception:\n"
                  "            await self._forget(t)\n"
                  "            raise\n"
                  "        u = asyncio.create_task(work())\n"
                  "        self._terminate(u)\n"
                  "        for k in tasks:\n"
                  "            k.cancel()\n");
    const ir_func *f = func(&s, "C.f");
    const ir_node *r = find(f, IR_RELEASE, "s", NULL, REL_AWAITED);
    CHECK(r && !(r->flags & REL_IN_CLEANUP));
    CHECK_EQ(count(f, IR_RELEASE, "fd", NULL, 0), 1);
    /* in a handler, any call that receives t hands it to cleanup */
    const ir_node *c = find_text(f, IR_CALL, "_forget");
    CHECK(c && (c->flags & CALL_IN_CLEANUP) && (c->flags & CALL_ON_SELF) && (c->flags & CALL_AWAITED));
    CHECK(c && c->nvars == 1 && c->vars[0] == var(f, "t"));
    /* outside a handler, a call whose name says it releases */
    c = find_text(f, IR_CALL, "_terminate");
    CHECK(c && (c->flags & CALL_NAME_RELEASES) && !(c->flags & CALL_IN_CLEANUP));
    CHECK(c && c->nvars == 1 && c->vars[0] == var(f, "u"));
    /* for k in tasks: k.cancel() releases each element of tasks */
    CHECK_EQ(count(f, IR_ELEMENT, "k", "tasks", 0), 1);
    CHECK_EQ(count(f, IR_RELEASE, "k", NULL, 0), 1);
    done(&s);
}

static void test_release_in_cleanup_flags(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "\n"
                  "async def f():\n"
                  "    t = asyncio.create_task(work())\n"
                  "    try:\n"
                  "        await work()\n"
                  "    finally:\n"
                  "        t.cancel()\n"
                  "        await asyncio.shield(t)\n");
    const ir_func *f = func(&s, "f");
    const ir_node *r = find(f, IR_RELEASE, "t", NULL, REL_IN_CLEANUP);
    CHECK(r && r->site.line == 8);
    const ir_node *tr = find(f, IR_TRY, NULL, NULL, 0);
    CHECK(tr && tr->c.n > 0 && tr->nhandlers == 0);
    const ir_node *cp = find(f, IR_CHECKPOINT, NULL, NULL, CP_SHIELDED | CP_IN_CLEANUP);
    CHECK(cp && cp->site.line == 9);
    done(&s);
}

/* ------------------------------------------------------------------------ */
/* Checkpoints.                                                             */

static void test_checkpoints(void)
{
    snippet s;
    lower_src(&s, "async def f(it, cm):\n"
                  "    await work()\n"
                  "    async with cm:\n"
                  "        pass\n"
                  "    async for item in it:\n"
                  "        pass\n"
                  "    with cm:\n"
                  "        pass\n"
                  "    for item in it:\n"
                  "        pass\n");
    const ir_func *f = func(&s, "f");
    const ir_node *cp = find(f, IR_CHECKPOINT, NULL, NULL, CP_AWAIT | CP_CALL);
    CHECK(cp && cp->site.line == 2 && cp->site.col == 5);
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 1);
    collect w = all_of(f, IR_WITH);
    CHECK_EQ(w.n, 2);
    if (w.n == 2) {
        CHECK(w.v[0]->flags & WITH_ASYNC);        /* enter (and exit) can suspend */
        CHECK(!(w.v[0]->flags & WITH_NONSUSP_EXIT)); /* an unknown CM may suspend on exit */
        CHECK(!(w.v[1]->flags & WITH_ASYNC));
    }
    collect l = all_of(f, IR_LOOP);
    CHECK_EQ(l.n, 2);
    if (l.n == 2) {
        CHECK(l.v[0]->flags & LOOP_ASYNC_FOR);
        CHECK(!(l.v[1]->flags & LOOP_ASYNC_FOR));
    }
    done(&s);
}

static void test_nonsuspending_exit(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "from asyncio import Semaphore\n"
                  "\n"
                  "class Svc:\n"
                  "    sem = Semaphore(2)\n"
                  "\n"
                  "    def __init__(self):\n"
                  "        self._lock = asyncio.Lock()\n"
                  "        self._cond = asyncio.Condition()\n"
                  "        self._other = make_thing()\n"
                  "\n"
                  "    async def f(self):\n"
                  "        async with self._lock:\n"
                  "            pass\n"
                  "        async with self._cond:\n"
                  "            pass\n"
                  "        async with self.sem:\n"
                  "            pass\n"
                  "        async with self._other:\n"
                  "            pass\n"
                  "        async with self._never_assigned:\n"
                  "            pass\n"
                  "        async with asyncio.timeout(1):\n"
                  "            pass\n");
    const ir_func *f = func(&s, "Svc.f");
    collect w = all_of(f, IR_WITH);
    CHECK_EQ(w.n, 6);
    if (w.n == 6) {
        for (int i = 0; i < 6; i++) CHECK(w.v[i]->flags & WITH_ASYNC);
        CHECK(w.v[0]->flags & WITH_NONSUSP_EXIT);
        CHECK(w.v[1]->flags & WITH_NONSUSP_EXIT);
        CHECK(w.v[2]->flags & WITH_NONSUSP_EXIT);
        CHECK(!(w.v[3]->flags & WITH_NONSUSP_EXIT));
        CHECK(!(w.v[4]->flags & WITH_NONSUSP_EXIT));
        CHECK(w.v[5]->flags & WITH_NONSUSP_EXIT);
        CHECK(w.v[5]->flags & WITH_TIMEOUT);
    }
    done(&s);
    /* the same attribute name in another class that does not assign a Lock */
    lower_src(&s, "import asyncio\n"
                  "\n"
                  "class A:\n"
                  "    def __init__(self):\n"
                  "        self._lock = asyncio.Lock()\n"
                  "\n"
                  "class B:\n"
                  "    async def f(self):\n"
                  "        async with self._lock:\n"
                  "            pass\n");
    f = func(&s, "B.f");
    const ir_node *n = find(f, IR_WITH, NULL, NULL, WITH_ASYNC);
    CHECK(n && !(n->flags & WITH_NONSUSP_EXIT));
    done(&s);
}

static void test_shields_and_groups(void)
{
    snippet s;
    lower_src(&s, "import asyncio, trio\n"
                  "\n"
                  "async def f():\n"
                  "    with trio.CancelScope(shield=True):\n"
                  "        await work()\n"
                  "    with trio.CancelScope():\n"
                  "        await work()\n"
                  "    async with asyncio.TaskGroup() as tg:\n"
                  "        t = tg.create_task(work())\n"
                  "    u = asyncio.create_task(work())\n"
                  "    await asyncio.wait_for(u, 5)\n");
    const ir_func *f = func(&s, "f");
    collect w = all_of(f, IR_WITH);
    CHECK_EQ(w.n, 3);
    if (w.n == 3) {
        CHECK(w.v[0]->flags & WITH_SHIELD);
        CHECK(!(w.v[1]->flags & WITH_SHIELD));
        CHECK(w.v[2]->flags & WITH_GROUP);
    }
    /* started on a task group: the group owns it from birth */
    CHECK_EQ(count(f, IR_ACQUIRE, "t", NULL, 0), 0);
    CHECK(var(f, "tg") >= 0 && (f->vars[var(f, "tg")].flags & VAR_GROUP));
    /* wait_for(u) passes cancellation into u and u is done afterwards */
    collect cps = all_of(f, IR_CHECKPOINT);
    const ir_node *cp = cps.n ? cps.v[cps.n - 1] : NULL;
    CHECK(cp && cp->site.line == 11 && has_checkpoint_var_in(cp, var(f, "u")));
    CHECK_EQ(count(f, IR_DONE, "u", NULL, 0), 1);
    done(&s);
}

static void test_remote_create_under_timeout(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "\n"
                  "async def f(client):\n"
                  "    box = await asyncio.wait_for(client.create_sandbox(), 10)\n"
                  "    box2 = await asyncio.shield(client.create_sandbox())\n"
                  "    t = await asyncio.create_task(work())\n");
    const ir_func *f = func(&s, "f");
    /* every awaited call is recorded with its names; CAN201/202 decide
     * from the catalog which are remote creates */
    collect r = all_of(f, IR_AWAIT_CALL);
    CHECK_EQ(r.n, 3);
    if (r.n == 3) {
        CHECK(r.v[0]->flags & REM_TIMEOUT);
        CHECK(!(r.v[0]->flags & REM_SHIELDED));
        CHECK(r.v[0]->flags & REM_HAS_RECV);
        CHECK(r.v[0]->text && strcmp(r.v[0]->text, "client.create_sandbox") == 0);
        CHECK(r.v[0]->cname && strcmp(r.v[0]->cname, "create_sandbox") == 0);
        CHECK(r.v[0]->recv && strcmp(r.v[0]->recv, "client") == 0);
        CHECK(r.v[1]->flags & REM_SHIELDED);
        CHECK(!(r.v[1]->flags & REM_TIMEOUT));
        CHECK(r.v[2]->callee && strcmp(r.v[2]->callee, "asyncio.create_task") == 0);
        CHECK(!(r.v[2]->flags & (REM_TIMEOUT | REM_SHIELDED)));
    }
    CHECK(find(f, IR_ACQUIRE, "box", NULL, ACQ_STRONG) != NULL);
    done(&s);
}

/* ------------------------------------------------------------------------ */
/* Handlers.                                                                */

/* Flags of the one handler in `try: await work() except CLAUSE: raise`. */
static unsigned clause_flags(const char *clause)
{
    char src[512];
    snprintf(src, sizeof src,
             "import asyncio, trio, anyio\n"
             "\n"
             "async def f():\n"
             "    try:\n"
             "        await work()\n"
             "    except %s:\n"
             "        raise\n", clause);
    snippet s;
    lower_src(&s, src);
    const ir_node *t = find(func(&s, "f"), IR_TRY, NULL, NULL, 0);
    unsigned fl = (t && t->nhandlers == 1) ? t->handlers[0].flags : 0xdeadu;
    done(&s);
    return fl;
}

static void test_handler_classification(void)
{
    CHECK_EQ(clause_flags("asyncio.TimeoutError") & (H_CANCEL | H_BASE), 0);
    CHECK_EQ(clause_flags("Exception") & (H_CANCEL | H_BASE), 0);
    CHECK_EQ(clause_flags("(ValueError, OSError)") & H_CANCEL, 0);
    CHECK_EQ(clause_flags("BaseException") & (H_CANCEL | H_BASE | H_BARE), H_CANCEL | H_BASE);
    CHECK_EQ(clause_flags("asyncio.CancelledError") & (H_CANCEL | H_BASE), H_CANCEL);
    CHECK_EQ(clause_flags("(OSError, asyncio.CancelledError) as err") & (H_CANCEL | H_BASE), H_CANCEL);
    CHECK_EQ(clause_flags("trio.Cancelled") & H_CANCEL, H_CANCEL);
    CHECK_EQ(clause_flags("anyio.get_cancelled_exc_class()") & H_CANCEL, H_CANCEL);
    CHECK_EQ(clause_flags("concurrent.futures.CancelledError") & H_CANCEL, 0);

    snippet s;
    lower_src(&s, "async def f():\n"
                  "    try:\n"
                  "        await work()\n"
                  "    except ValueError:\n"
                  "        raise\n"
                  "    except (OSError, KeyError) as err:\n"
                  "        raise\n"
                  "    except:\n"
                  "        raise\n");
    const ir_func *f = func(&s, "f");
    const ir_node *t = find(f, IR_TRY, NULL, NULL, 0);
    CHECK(t && t->nhandlers == 3);
    CHECK_EQ(hflags(t, "") & (H_CANCEL | H_BASE | H_BARE), H_CANCEL | H_BASE | H_BARE);
    const ir_handler *h = handler(t, "(OSError, KeyError)");
    CHECK(h && h->exc_var >= 0 && h->exc_var == var(f, "err"));
    CHECK(h && h->site.line == 6);
    h = handler(t, "ValueError");
    CHECK(h && h->exc_var == -1 && h->site.line == 4);
    done(&s);
}

/* A clause after one that already catches cancellation never sees it:
 * Python takes the first matching clause. */
static void test_handler_order(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "\n"
                  "async def f():\n"
                  "    try:\n"
                  "        await work()\n"
                  "    except BaseException:\n"
                  "        raise\n"
                  "    except asyncio.CancelledError:\n"
                  "        pass\n"
                  "\n"
                  "async def g():\n"
                  "    try:\n"
                  "        await work()\n"
                  "    except asyncio.CancelledError:\n"
                  "        raise\n"
                  "    except BaseException:\n"
                  "        pass\n");
    const ir_node *t = find(func(&s, "f"), IR_TRY, NULL, NULL, 0);
    CHECK_EQ(hflags(t, "BaseException") & H_CANCEL, H_CANCEL);
    CHECK_EQ(hflags(t, "asyncio.CancelledError") & H_CANCEL, 0);
    t = find(func(&s, "g"), IR_TRY, NULL, NULL, 0);
    CHECK_EQ(hflags(t, "asyncio.CancelledError") & H_CANCEL, H_CANCEL);
    CHECK_EQ(hflags(t, "BaseException") & H_CANCEL, 0);
    done(&s);
}

/* Level-triggered cancellation: trio's always; anyio's and a catch-all's
 * in a module that does not use asyncio itself (a package's own
 * `..asyncio` module does not count). */
static void test_handler_level(void)
{
    snippet s;
    lower_src(&s, "import trio\n"
                  "from ..asyncio.client import helper\n"
                  "async def f():\n"
                  "    try:\n"
                  "        await trio.sleep(1)\n"
                  "    except BaseException:\n"
                  "        raise\n"
                  "async def g():\n"
                  "    try:\n"
                  "        await trio.sleep(1)\n"
                  "    except trio.Cancelled:\n"
                  "        raise\n");
    CHECK_EQ(hflags(find(func(&s, "f"), IR_TRY, NULL, NULL, 0), "BaseException") & H_LEVEL, H_LEVEL);
    CHECK_EQ(hflags(find(func(&s, "g"), IR_TRY, NULL, NULL, 0), "trio.Cancelled") & H_LEVEL, H_LEVEL);
    done(&s);
    lower_src(&s, "import asyncio, anyio\n"
                  "async def f():\n"
                  "    try:\n"
                  "        await asyncio.sleep(1)\n"
                  "    except anyio.get_cancelled_exc_class():\n"
                  "        raise\n"
                  "async def g():\n"
                  "    try:\n"
                  "        await asyncio.sleep(1)\n"
                  "    except BaseException:\n"
                  "        raise\n");
    CHECK_EQ(hflags(find(func(&s, "f"), IR_TRY, NULL, NULL, 0), "anyio.get_cancelled_exc_class()") & (H_LEVEL | H_CANCEL),
             H_CANCEL);
    CHECK_EQ(hflags(find(func(&s, "g"), IR_TRY, NULL, NULL, 0), "BaseException") & H_LEVEL, 0);
    done(&s);
    lower_src(&s, "import anyio\n"
                  "async def f():\n"
                  "    try:\n"
                  "        await anyio.sleep(1)\n"
                  "    except anyio.get_cancelled_exc_class():\n"
                  "        raise\n");
    CHECK_EQ(hflags(find(func(&s, "f"), IR_TRY, NULL, NULL, 0), "anyio.get_cancelled_exc_class()") & H_LEVEL, H_LEVEL);
    done(&s);
}

static void test_handler_names_through_imports(void)
{
    snippet s;
    lower_src(&s, "import asyncio as aio\n"
                  "import anyio\n"
                  "from asyncio import CancelledError as C\n"
                  "from asyncio import TimeoutError\n"
                  "Cancelled = anyio.get_cancelled_exc_class()\n"
                  "\n"
                  "async def f1():\n"
                  "    try:\n"
                  "        await work()\n"
                  "    except C:\n"
                  "        raise\n"
                  "async def f2():\n"
                  "    try:\n"
                  "        await work()\n"
                  "    except aio.CancelledError:\n"
                  "        raise\n"
                  "async def f3():\n"
                  "    try:\n"
                  "        await work()\n"
                  "    except Cancelled:\n"
                  "        raise\n"
                  "async def f4():\n"
                  "    try:\n"
                  "        await work()\n"
                  "    except TimeoutError:\n"
                  "        raise\n");
    CHECK_EQ(hflags(find(func(&s, "f1"), IR_TRY, NULL, NULL, 0), "C") & H_CANCEL, H_CANCEL);
    CHECK_EQ(hflags(find(func(&s, "f2"), IR_TRY, NULL, NULL, 0), "aio.CancelledError") & H_CANCEL,
             H_CANCEL);
    CHECK_EQ(hflags(find(func(&s, "f3"), IR_TRY, NULL, NULL, 0), "Cancelled") & H_CANCEL, H_CANCEL);
    CHECK_EQ(hflags(find(func(&s, "f4"), IR_TRY, NULL, NULL, 0), "TimeoutError") & H_CANCEL, 0);
    done(&s);
}

/* ------------------------------------------------------------------------ */
/* Nested scopes and qualnames.                                             */

static void test_nested_scopes(void)
{
    snippet s;
    lower_src(&s, "async def outer(z):\n"
                  "    def inner():\n"
                  "        return 1\n"
                  "    async def ainner():\n"
                  "        await work()\n"
                  "    f = lambda: work()\n"
                  "    g = lambda: (await_ for await_ in z)\n"
                  "    class K:\n"
                  "        async def m(self):\n"
                  "            await work()\n"
                  "    xs = (await y for y in z)\n"
                  "    def unused():\n"
                  "        return 2\n"
                  "    return inner, ainner\n");
    const ir_func *f = func(&s, "outer");
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 0);
    const ir_func *in = func(&s, "outer.<locals>.ainner");
    CHECK(in && in->is_async && in->class_name == NULL);
    CHECK_EQ(count(in, IR_CHECKPOINT, NULL, NULL, 0), 1);
    CHECK(func(&s, "outer.<locals>.inner") != NULL);
    const ir_func *m = func(&s, "outer.<locals>.K.m");
    CHECK(m && m->is_method);
    CHECK_EQ(count(m, IR_CHECKPOINT, NULL, NULL, 0), 1);
    /* no function is made for the lambdas or the generator expression, nor
     * for a nested def nothing names (it never runs) */
    CHECK(func(&s, "outer.<locals>.unused") == NULL);
    CHECK_EQ(s.m.nfuncs, 4);
    done(&s);
}

static void test_qualnames(void)
{
    snippet s;
    lower_src(&s, "class Outer:\n"
                  "    class Inner:\n"
                  "        async def m(self):\n"
                  "            pass\n"
                  "\n"
                  "    @staticmethod\n"
                  "    def util(x):\n"
                  "        pass\n"
                  "\n"
                  "    @classmethod\n"
                  "    async def make(cls):\n"
                  "        pass\n"
                  "\n"
                  "    async def run(self, a, b=1, *rest, key=None, **kw):\n"
                  "        def helper():\n"
                  "            pass\n"
                  "        return helper\n"
                  "\n"
                  "def top():\n"
                  "    pass\n");
    const ir_func *f = func(&s, "Outer.Inner.m");
    CHECK(f && f->is_method && f->class_name && strcmp(f->class_name, "Outer.Inner") == 0);
    CHECK(f && strcmp(f->name, "m") == 0 && f->site.line == 3);
    f = func(&s, "Outer.util");
    CHECK(f && !f->is_method && f->nparams == 1);
    f = func(&s, "Outer.make");
    CHECK(f && f->is_method && f->is_async);
    CHECK(f && (f->vars[var(f, "cls")].flags & VAR_SELF));
    f = func(&s, "Outer.run");
    CHECK(f && f->nparams == 6);
    CHECK(f && (f->vars[0].flags & VAR_SELF) && strcmp(f->vars[0].name, "self") == 0);
    CHECK(f && var(f, "rest") >= 0 && var(f, "kw") >= 0 && var(f, "key") >= 0);
    CHECK(func(&s, "Outer.run.<locals>.helper") != NULL);
    f = func(&s, "top");
    CHECK(f && f->class_name == NULL && !f->is_method && !f->is_async);
    done(&s);
}

/* ------------------------------------------------------------------------ */
/* Control flow.                                                            */

static void test_control_flow(void)
{
    snippet s;
    lower_src(&s, "async def f(x, y):\n"
                  "    while True:\n"
                  "        if x:\n"
                  "            break\n"
                  "        elif y:\n"
                  "            continue\n"
                  "        else:\n"
                  "            raise ValueError()\n"
                  "    for i in y:\n"
                  "        await work()\n"
                  "    else:\n"
                  "        return 2\n"
                  "    return 1\n");
    const ir_func *f = func(&s, "f");
    const ir_node *loop = find(f, IR_LOOP, NULL, NULL, LOOP_INFINITE);
    CHECK(loop && loop->site.line == 2);
    const ir_node *n = find(f, IR_IF, NULL, NULL, IF_HAS_ELSE);
    CHECK(n && n->nbranches == 3);
    CHECK_EQ(count(f, IR_BREAK, NULL, NULL, 0), 1);
    CHECK_EQ(count(f, IR_CONTINUE, NULL, NULL, 0), 1);
    CHECK_EQ(count(f, IR_RAISE, NULL, NULL, 0), 1);
    CHECK_EQ(count(f, IR_RETURN, NULL, NULL, 0), 2);
    collect l = all_of(f, IR_LOOP);
    CHECK(l.n == 2 && l.v[1]->b.n == 1 && l.v[1]->b.v[0]->kind == IR_RETURN);
    done(&s);
}

/* ------------------------------------------------------------------------ */
/* Python 3.8–3.13 syntax.                                                  */

static void test_walrus(void)
{
    snippet s;
    lower_src(&s, "async def f(g):\n"
                  "    if (x := await g()):\n"
                  "        return x\n"
                  "    while (chunk := await g()) is not None:\n"
                  "        pass\n");
    CHECK_EQ(s.m.parse_errors, 0);
    const ir_func *f = func(&s, "f");
    CHECK(var(f, "x") >= 0 && var(f, "chunk") >= 0);
    /* the await runs before the branch: a top-level checkpoint, then the if */
    int cp = top_index(f, IR_CHECKPOINT, NULL), iff = top_index(f, IR_IF, NULL);
    CHECK(cp >= 0 && iff > cp);
    CHECK_EQ(count(f, IR_TRANSFER, "x", NULL, 0), 1);
    const ir_node *loop = find(f, IR_LOOP, NULL, NULL, 0);
    CHECK(loop && loop->c.n > 0); /* the condition's await is in the loop's condition block */
    done(&s);
}

static void test_match(void)
{
    snippet s;
    lower_src(&s, "async def f(cmd):\n"
                  "    match cmd:\n"
                  "        case {'op': 'start', **rest}:\n"
                  "            await work()\n"
                  "        case [1, *others]:\n"
                  "            pass\n"
                  "        case Point(x=0, y=yy) if yy > 1:\n"
                  "            pass\n"
                  "        case 'a' | 'b' as ab:\n"
                  "            pass\n"
                  "        case _:\n"
                  "            return None\n"
                  "\n"
                  "def match_is_a_name(match, case):\n"
                  "    match = case\n"
                  "    return match\n");
    CHECK_EQ(s.m.parse_errors, 0);
    const ir_func *f = func(&s, "f");
    const ir_node *n = find(f, IR_IF, NULL, NULL, 0);
    CHECK(n && n->nbranches == 5 && (n->flags & IF_HAS_ELSE));
    CHECK(n && n->nbranches == 5 && n->branches[0].n == 3 && n->branches[0].v[2]->kind == IR_CHECKPOINT);
    CHECK(func(&s, "match_is_a_name") != NULL);
    done(&s);
}

static void test_except_star(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "\n"
                  "async def f():\n"
                  "    try:\n"
                  "        await work()\n"
                  "    except* asyncio.CancelledError:\n"
                  "        raise\n"
                  "    except* (ValueError, TypeError) as eg:\n"
                  "        pass\n");
    CHECK_EQ(s.m.parse_errors, 0);
    const ir_func *f = func(&s, "f");
    const ir_node *t = find(f, IR_TRY, NULL, NULL, 0);
    CHECK(t && t->nhandlers == 2);
    /* (an except* clause is named with its star) */
    CHECK_EQ(hflags(t, "*asyncio.CancelledError") & H_CANCEL, H_CANCEL);
    CHECK_EQ(hflags(t, "*(ValueError, TypeError)") & H_CANCEL, 0);
    done(&s);
}

static void test_type_params(void)
{
    snippet s;
    lower_src(&s, "type Alias = int\n"
                  "type Pair[T] = tuple[T, T]\n"
                  "\n"
                  "def ident[T](x: T) -> T:\n"
                  "    return x\n"
                  "\n"
                  "class Box[T: (int, str), *Ts, **P]:\n"
                  "    async def get[U](self, u: U) -> T:\n"
                  "        return await work()\n");
    CHECK_EQ(s.m.parse_errors, 0);
    const ir_func *f = func(&s, "ident");
    CHECK(f && f->nparams == 1 && count(f, IR_TRANSFER, "x", NULL, 0) == 1);
    f = func(&s, "Box.get");
    CHECK(f && f->is_method && f->nparams == 2);
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 1);
    done(&s);
}

static void test_misc_syntax(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "\n"
                  "def fs(name, width):\n"
                  "    return f\"{name!r:>{width}} {'q'} {name=} {f'{name}'}\"\n"
                  "\n"
                  "def po(a, b, /, c, *, d):\n"
                  "    return a\n"
                  "\n"
                  "@decorator\n"
                  "@other.thing(1)\n"
                  "async def deco(x: int = 1, *args: str, **kw: object) -> None:\n"
                  "    await work()\n"
                  "\n"
                  "async def acomp(it):\n"
                  "    xs = [x async for x in it]\n"
                  "    ys = [await z for z in it]\n"
                  "    zs = {k: v async for k, v in it}\n"
                  "    print(*xs, sep='')\n"
                  "    async with (open_a() as a, open_b() as b):\n"
                  "        pass\n"
                  "    lst = [*xs, *ys]\n"
                  "    n = 1_000_000 + 0x_ff + 1j\n"
                  "    return lst\n");
    CHECK_EQ(s.m.parse_errors, 0);
    CHECK(func(&s, "fs") != NULL);
    const ir_func *f = func(&s, "po");
    CHECK(f && f->nparams == 4);
    f = func(&s, "deco");
    CHECK(f && f->is_async);
    /* annotated *args and **kw are parameters too */
    CHECK_EQ(f ? f->nparams : -1, 3);
    CHECK(f && var(f, "args") >= 0 && (f->vars[var(f, "args")].flags & VAR_PARAM));
    CHECK(f && var(f, "kw") >= 0 && (f->vars[var(f, "kw")].flags & VAR_PARAM));
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 1);
    f = func(&s, "acomp");
    /* an async comprehension runs in (and suspends) the enclosing coroutine:
     * its `async for` steps and its awaits are checkpoints of acomp */
    const ir_node *cp15 = NULL, *cp16 = NULL, *cp17 = NULL;
    collect cps = all_of(f, IR_CHECKPOINT);
    for (int i = 0; i < cps.n; i++) {
        if (cps.v[i]->site.line == 15) cp15 = cps.v[i];
        if (cps.v[i]->site.line == 16) cp16 = cps.v[i];
        if (cps.v[i]->site.line == 17) cp17 = cps.v[i];
    }
    CHECK(cp16 != NULL);
    CHECK(cp15 != NULL);
    CHECK(cp17 != NULL);
    /* the parenthesized multi-item async with: two nested WITH nodes */
    const ir_node *w = find(f, IR_WITH, NULL, NULL, WITH_ASYNC);
    CHECK(w && w->site.line == 19 && w->a.n >= 1 && w->a.v[w->a.n - 1]->kind == IR_WITH);
    CHECK_EQ(count(f, IR_WITH, NULL, NULL, WITH_ASYNC), 2);
    done(&s);
}

/* ------------------------------------------------------------------------ */
/* Suppression comments.                                                    */

static void test_suppressions(void)
{
    snippet s;
    lower_src(&s, "async def f():\n"
                  "    await work()  # noqa: CAN101\n"
                  "    await work()  # cancelaudit: ignore[CAN102]\n"
                  "    await work()  # noqa\n"
                  "    await work()  # noqa: E501\n"
                  "    await work()  # cancelaudit: ignore[CAN101, CAN102]\n"
                  "    s = '# noqa: CAN101'\n"
                  "    await work()  # noqa: E501,CAN102\n"
                  "    await work()\n");
    CHECK_EQ(s.m.parse_errors, 0);
    CHECK(ir_suppressed(&s.m, 2, "CAN101"));
    CHECK(!ir_suppressed(&s.m, 2, "CAN102"));
    CHECK(ir_suppressed(&s.m, 3, "CAN102"));
    CHECK(!ir_suppressed(&s.m, 3, "CAN101"));
    CHECK(ir_suppressed(&s.m, 4, "CAN101"));
    CHECK(ir_suppressed(&s.m, 4, "CAN401"));
    CHECK(!ir_suppressed(&s.m, 5, "CAN101"));
    CHECK(!ir_suppressed(&s.m, 5, "CAN102"));
    CHECK(ir_suppressed(&s.m, 6, "CAN101"));
    CHECK(ir_suppressed(&s.m, 6, "CAN102"));
    CHECK(!ir_suppressed(&s.m, 6, "CAN201"));
    CHECK(!ir_suppressed(&s.m, 7, "CAN101")); /* a string, not a comment */
    CHECK(ir_suppressed(&s.m, 8, "CAN102"));
    CHECK(!ir_suppressed(&s.m, 8, "CAN101"));
    CHECK(!ir_suppressed(&s.m, 9, "CAN101"));
    CHECK_EQ(s.m.nsupp, 6);
    done(&s);
}

/* ------------------------------------------------------------------------ */
/* Bad input.                                                               */

static void test_syntax_errors(void)
{
    snippet s;
    lower_src(&s, "async def before():\n"
                  "    await work()\n"
                  "\n"
                  "def broken(:\n"
                  "    pass\n"
                  "\n"
                  "async def after():\n"
                  "    await work()\n");
    CHECK(s.m.parse_errors > 0);
    CHECK_EQ(s.m.first_error_line, 4);
    const ir_func *f = func(&s, "before");
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 1);
    f = func(&s, "after");
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 1);
    done(&s);
    /* an unterminated construct at the end of a file */
    lower_src(&s, "import asyncio\n"
                  "\n"
                  "async def ok():\n"
                  "    t = asyncio.create_task(work())\n"
                  "    await work()\n"
                  "\n"
                  "async def cut():\n"
                  "    await work(1, [2, {3:\n");
    CHECK(s.m.parse_errors > 0);
    f = func(&s, "ok");
    CHECK(find(f, IR_ACQUIRE, "t", NULL, ACQ_STRONG) != NULL);
    done(&s);
}

static void test_bytes_and_columns(void)
{
    snippet s;
    /* code points, not bytes: "é€" is 2 code points, 5 bytes */
    lower_src(&s, "async def f():\n"
                  "    s = \"\xc3\xa9\xe2\x82\xac\"; await work()\n");
    const ir_func *f = func(&s, "f");
    const ir_node *cp = find(f, IR_CHECKPOINT, NULL, NULL, 0);
    CHECK(cp != NULL);
    if (cp) {
        CHECK_EQ(cp->site.line, 2);
        CHECK_EQ(cp->site.col, 15);       /* 4 + `s = "é€"; ` (10) + 1 */
        CHECK_EQ(cp->site.end_col, 27);
    }
    done(&s);
    /* NUL bytes and invalid UTF-8 inside the source: no crash, the rest lowers */
    static const char bad[] = "async def g():\n"
                              "    x = '\x00\xff\xfe'\n"
                              "    await work()\n"
                              "\xff\xfe\n"
                              "async def h():\n"
                              "    await work()\n";
    lower_n(&s, bad, sizeof(bad) - 1);
    CHECK(func(&s, "h") != NULL);
    done(&s);
    /* CRLF and a BOM */
    lower_src(&s, "\xef\xbb\xbf" "async def c():\r\n    await work()\r\n");
    f = func(&s, "c");
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 1);
    done(&s);
    /* CR-only line ends (old Mac style) are valid Python line ends too */
    lower_src(&s, "import asyncio\r"
                  "async def m():\r"
                  "    t = asyncio.create_task(work())\r"
                  "    await work()\r");
    CHECK_EQ(s.m.parse_errors, 0);
    f = func(&s, "m");
    const ir_node *acq = find(f, IR_ACQUIRE, "t", NULL, ACQ_STRONG);
    CHECK(acq != NULL);
    CHECK_EQ(acq ? acq->site.line : -1, 3);
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 1);
    done(&s);
    lower_n(&s, "", 0);
    CHECK_EQ(s.m.nfuncs, 0);
    CHECK_EQ(s.m.parse_errors, 0);
    done(&s);
}

/* Python 3.14's unbracketed exception lists (PEP 758): `except A, B:`
 * catches both classes, not A bound to the name B (Python 2), and a header
 * of three or more parses too; offsets and lines stay those of the file. */
static void test_except_groups(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "async def f(sock):\n"
                  "    try:\n"
                  "        await sock.recv()\n"
                  "    except ConnectionError, asyncio.CancelledError:\n"
                  "        return None\n"
                  "async def g(sock):\n"
                  "    try:\n"
                  "        await sock.recv()\n"
                  "    except OSError, ValueError, KeyError:\n"
                  "        pass\n"
                  "    s = \"\"\"\n"
                  "    except A, B:\n"
                  "    \"\"\"\n"
                  "    await sock.send(s)\n");
    CHECK_EQ(s.m.parse_errors, 0);
    const ir_node *t = find(func(&s, "f"), IR_TRY, NULL, NULL, 0);
    CHECK(t != NULL);
    CHECK_EQ(t ? t->nhandlers : 0, 1);
    if (t && t->nhandlers == 1) {
        CHECK_EQ(t->handlers[0].flags & H_CANCEL, H_CANCEL);
        CHECK_EQ(t->handlers[0].exc_var, -1);
        CHECK_EQ(t->handlers[0].site.line, 5);
        CHECK_EQ(t->handlers[0].site.col, 5);
    }
    t = find(func(&s, "g"), IR_TRY, NULL, NULL, 0);
    CHECK(t != NULL);
    if (t && t->nhandlers == 1) CHECK_EQ(t->handlers[0].flags & H_CANCEL, 0);
    /* (the await after the string keeps its line) */
    const ir_func *g = func(&s, "g");
    CHECK_EQ(count(g, IR_CHECKPOINT, NULL, NULL, 0), 2);
    const ir_node *last = NULL;
    for (int i = 0; g && i < g->body.n; i++)
        if (g->body.v[i]->kind == IR_CHECKPOINT) last = g->body.v[i];
    CHECK_EQ(last ? last->site.line : -1, 15);
    done(&s);
    /* no room for the brackets (`except* A,B:`): left as written */
    lower_src(&s, "async def h(x):\n"
                  "    try:\n"
                  "        await x()\n"
                  "    except* A,B:\n"
                  "        pass\n");
    CHECK(s.m.parse_errors > 0);
    done(&s);
}

/* Python 3.13's defaults of type parameters (PEP 696) parse: the class's
 * methods are lowered, with their lines, and a `==` or a default of a
 * function's own parameters is left alone. */
static void test_type_param_defaults(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "class Job[T = dict[str, int], PK: int = int](Base[T]):\n"
                  "    async def run(self, x=[1, 2]):\n"
                  "        t = asyncio.create_task(work())\n"
                  "        await work()\n"
                  "def pick[T: str = str](a: T = 'x') -> T:\n"
                  "    return a\n"
                  "type Pair[K = str,\n"
                  "          V = int] = dict[K, V]\n"
                  "async def after():\n"
                  "    await work()\n");
    CHECK_EQ(s.m.parse_errors, 0);
    const ir_func *f = func(&s, "Job.run");
    CHECK(f != NULL);
    const ir_node *acq = f ? find(f, IR_ACQUIRE, "t", NULL, ACQ_STRONG) : NULL;
    CHECK(acq != NULL);
    CHECK_EQ(acq ? acq->site.line : -1, 4);
    f = func(&s, "after");
    CHECK(f != NULL);
    CHECK_EQ(f ? f->site.line : -1, 10);
    done(&s);
}

/* A bracketed `with` whose last item has a trailing comma (a formatter's
 * magic trailing comma) lowers as its items, not as one tuple. */
static void test_with_trailing_comma(void)
{
    snippet s;
    lower_src(&s, "import trio\n"
                  "async def f(t, p):\n"
                  "    async with (\n"
                  "        trio.open_nursery() as n,\n"
                  "        p.open() as s,  # the stream\n"
                  "    ):\n"
                  "        await n.start(t)\n"
                  "    with (p.lock(),):\n"
                  "        await t()\n");
    CHECK_EQ(s.m.parse_errors, 0);
    const ir_func *f = func(&s, "f");
    const ir_node *w = find(f, IR_WITH, NULL, NULL, 0);
    CHECK(w != NULL);
    CHECK(w && w->text && strcmp(w->text, "trio.open_nursery()") == 0);
    CHECK(w && (w->flags & WITH_GROUP));
    CHECK(var(f, "n") >= 0 && var(f, "s") >= 0);
    done(&s);
}

static void test_nesting_limit(void)
{
    /* IR_MAX_DEPTH + 20 nested `if`s (one-space indents), then a function
     * that must still be lowered */
    int levels = IR_MAX_DEPTH + 20;
    ca_sb sb = {0};
    ca_sb_adds(&sb, "async def deep(x):\n");
    for (int i = 0; i < levels; i++) {
        for (int k = 0; k <= i; k++) ca_sb_addc(&sb, ' ');
        ca_sb_adds(&sb, "if x:\n");
    }
    for (int k = 0; k <= levels; k++) ca_sb_addc(&sb, ' ');
    ca_sb_adds(&sb, "await work()\n");
    ca_sb_adds(&sb, "async def later():\n    await work()\n");
    snippet s;
    lower_src(&s, ca_sb_str(&sb));
    CHECK_EQ(s.m.parse_errors, 0);
    const ir_func *f = func(&s, "deep");
    CHECK(f && f->truncated);
    CHECK(s.m.diagnostic != NULL && strstr(s.m.diagnostic, "deep") != NULL);
    /* the levels lowered before the limit are there */
    CHECK(count(f, IR_IF, NULL, NULL, 0) >= IR_MAX_DEPTH - 1);
    f = func(&s, "later");
    CHECK(f && !f->truncated && count(f, IR_CHECKPOINT, NULL, NULL, 0) == 1);
    done(&s);
    ca_sb_release(&sb);

    /* at the limit: nothing truncated */
    ca_sb_adds(&sb, "async def fits(x):\n");
    for (int i = 0; i < IR_MAX_DEPTH; i++) {
        for (int k = 0; k <= i; k++) ca_sb_addc(&sb, ' ');
        ca_sb_adds(&sb, "if x:\n");
    }
    for (int k = 0; k <= IR_MAX_DEPTH; k++) ca_sb_addc(&sb, ' ');
    ca_sb_adds(&sb, "await work()\n");
    lower_src(&s, ca_sb_str(&sb));
    f = func(&s, "fits");
    CHECK(f && !f->truncated && s.m.diagnostic == NULL);
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 1);
    done(&s);
    ca_sb_release(&sb);

    /* deep expressions are walked without recursion */
    ca_sb_adds(&sb, "async def expr():\n    await work(");
    for (int i = 0; i < 3000; i++) ca_sb_addc(&sb, '[');
    for (int i = 0; i < 3000; i++) ca_sb_addc(&sb, ']');
    ca_sb_adds(&sb, ")\n    y = ");
    for (int i = 0; i < 3000; i++) ca_sb_adds(&sb, "a + ");
    ca_sb_adds(&sb, "a\n    await work()\n");
    lower_src(&s, ca_sb_str(&sb));
    f = func(&s, "expr");
    CHECK_EQ(count(f, IR_CHECKPOINT, NULL, NULL, 0), 2);
    done(&s);
    ca_sb_release(&sb);
}

static void test_dump(void)
{
    snippet s;
    lower_src(&s, "import asyncio\n"
                  "\n"
                  "class P:\n"
                  "    async def start(self, k):\n"
                  "        t = asyncio.create_task(work())\n"
                  "        async with self._lock:\n"
                  "            self._tasks[k] = t\n");
    const ir_func *f = func(&s, "P.start");
    char *d = dump(&s, f);
    CHECK(strstr(d, "func P.start async\n") != NULL);
    CHECK(strstr(d, "acquire t kind=task") != NULL);
    CHECK(strstr(d, "with ") != NULL && strstr(d, "'self._lock'") != NULL);
    CHECK(strstr(d, "transfer t") != NULL);
    free(d);
    done(&s);
}

int main(void)
{
    char *err = NULL;
    ca_catalog *cat = ca_catalog_builtin(&err);
    CHECK(cat != NULL);
    if (!cat) {
        fprintf(stderr, "catalog: %s\n", err ? err : "?");
        CA_TEST_MAIN();
    }
    fe = py_frontend_new(cat);

    test_catalog_acquire();
    test_catalog_through_imports();
    test_naming_heuristic_awaited_only();
    test_tuple_unpacking();
    test_registry_take();
    test_aliases();
    test_transfers();
    test_async_with_adopts();
    test_exit_stack();
    test_releases();
    test_release_in_cleanup_flags();
    test_checkpoints();
    test_nonsuspending_exit();
    test_shields_and_groups();
    test_remote_create_under_timeout();
    test_handler_classification();
    test_handler_order();
    test_handler_level();
    test_handler_names_through_imports();
    test_nested_scopes();
    test_qualnames();
    test_control_flow();
    test_walrus();
    test_match();
    test_except_star();
    test_type_params();
    test_misc_syntax();
    test_suppressions();
    test_syntax_errors();
    test_bytes_and_columns();
    test_except_groups();
    test_type_param_defaults();
    test_with_trailing_comma();
    test_nesting_limit();
    test_dump();

    py_frontend_free(fe);
    CA_TEST_MAIN();
}
