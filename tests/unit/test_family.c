/*
 * test_family.c — unit tests for the family builder (coverage/family.h) on
 * class graphs written out by hand: a base with subclasses at two depths, a
 * protocol implemented without inheriting it, the members that are no
 * backend (abstract, proxy, private), backend names with the shared words
 * stripped and their fallbacks, configured names, folding a family into a
 * larger one, duck-typed siblings only where nothing is declared, a cycle
 * of bases, which backend a function's code is, the digest, and the
 * delegation fact read from lowered Python.
 */
#include "catalog/catalog.h"
#include "coverage/family.h"
#include "frontend/python/py_frontend.h"
#include "ca_test.h"

#include <stdlib.h>
#include <string.h>

/* A graph under construction: classes and methods by name. */
typedef struct tg {
    ca_fam_class c[32];
    int bases[32][4];
    size_t nc;
    ca_fam_method m[128];
    size_t nm;
} tg;

static int cls(tg *g, const char *name, const char *path, unsigned flags)
{
    ca_fam_class *c = &g->c[g->nc];
    memset(c, 0, sizeof(*c));
    c->name = c->qualname = name;
    c->path = path;
    c->line = (int)g->nc + 1;
    c->flags = flags;
    c->dir_name = "dir";
    c->bases = g->bases[g->nc];
    return (int)g->nc++;
}

static void base(tg *g, int c, int b) { g->bases[c][g->c[c].nbases++] = b; }

static void meth(tg *g, int c, const char *name, int is_async, uint64_t fflags)
{
    ca_fam_method *m = &g->m[g->nm];
    m->cls = c;
    m->name = name;
    m->is_async = is_async;
    m->fflags = fflags;
    m->id = 1000 + (int)g->nm; /* ids are the caller's: not indices */
    g->nm++;
}

static const ca_fam *fam_named(const ca_fam_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].name, name) == 0) return &s->v[i];
    return NULL;
}

static int backend_index(const ca_fam *f, const char *backend)
{
    for (size_t b = 0; b < f->nbackends; b++)
        if (strcmp(f->members[b].backend, backend) == 0) return (int)b;
    return -1;
}

static int bound_index(const ca_fam *f, const char *boundary)
{
    for (size_t k = 0; k < f->nboundaries; k++)
        if (strcmp(f->boundaries[k], boundary) == 0) return (int)k;
    return -1;
}

/* The role of class c in f, or -1 when it is no member. */
static int role_of(const ca_fam *f, int c)
{
    for (size_t i = 0; i < f->nmembers; i++)
        if (f->members[i].cls == c) return (int)f->members[i].role;
    return -1;
}

static int impl(const ca_fam *f, const char *backend, const char *boundary, int *inherited)
{
    int b = backend_index(f, backend), k = bound_index(f, boundary);
    if (b < 0 || k < 0) return -2;
    *inherited = f->inherited[(size_t)b * f->nboundaries + (size_t)k];
    return f->impl[(size_t)b * f->nboundaries + (size_t)k];
}

static void check_words(void)
{
    size_t st[8], ln[8];
    size_t n = ca_family_words("E2BSandboxSession", st, ln, 8);
    CHECK_EQ(n, 3);
    CHECK(ln[0] == 3 && strncmp("E2BSandboxSession" + st[0], "E2B", 3) == 0);
    n = ca_family_words("HTTPServer", st, ln, 8);
    CHECK_EQ(n, 2);
    CHECK_EQ(ln[0], 4);
    n = ca_family_words("R2Mount", st, ln, 8);
    CHECK_EQ(n, 2);
    n = ca_family_words("_Private_name", st, ln, 8);
    CHECK_EQ(n, 2);
    CHECK_EQ(ca_family_words("", st, ln, 8), 0);
}

/* BaseSandboxSession's shape: two levels of subclasses, a tracing proxy,
 * an abstract test interface, a private double. */
static void check_subclasses(void)
{
    tg g = {0};
    int b = cls(&g, "BaseSandboxSession", "s/base.py", CLASS_ABSTRACT);
    meth(&g, b, "pty_exec_start", 1, 0);
    meth(&g, b, "stop", 1, 0);
    meth(&g, b, "exec", 1, FN_ABSTRACT);
    meth(&g, b, "_helper", 1, 0);
    meth(&g, b, "describe", 0, 0);
    int docker = cls(&g, "DockerSandboxSession", "s/docker.py", 0);
    base(&g, docker, b);
    meth(&g, docker, "pty_exec_start", 1, 0);
    meth(&g, docker, "exec", 1, 0);
    int mid = cls(&g, "RemoteSandboxSession", "s/remote.py", 0); /* leaves exec abstract: abstract */
    base(&g, mid, b);
    meth(&g, mid, "stop", 1, 0);
    int e2b = cls(&g, "E2BSandboxSession", "e2b/sandbox.py", 0);
    base(&g, e2b, mid);
    meth(&g, e2b, "exec", 1, 0);
    int unix_local = cls(&g, "UnixLocalSandboxSession", "s/unix_local.py", 0);
    base(&g, unix_local, b);
    meth(&g, unix_local, "exec", 1, 0);
    meth(&g, unix_local, "pty_exec_start", 1, 0);
    int proxy = cls(&g, "SandboxSession", "s/session.py", 0);
    base(&g, proxy, b);
    meth(&g, proxy, "pty_exec_start", 1, FN_DELEGATES);
    meth(&g, proxy, "stop", 1, FN_DELEGATES);
    meth(&g, proxy, "exec", 1, FN_DELEGATES);
    int fake = cls(&g, "ScriptedSandboxSession", "testing.py", CLASS_ABSTRACT);
    base(&g, fake, b);
    int priv = cls(&g, "_ScriptedSandboxSession", "testing.py", 0);
    base(&g, priv, fake);
    meth(&g, priv, "exec", 1, 0);
    int lone = cls(&g, "Unrelated", "u.py", 0);
    meth(&g, lone, "pty_exec_start", 1, 0);

    ca_fam_set s;
    ca_families_find(g.c, g.nc, g.m, g.nm, 0, &s);
    CHECK_EQ(s.n, 1);
    const ca_fam *f = fam_named(&s, "BaseSandboxSession");
    CHECK(f != NULL);
    if (!f) {
        ca_fam_set_free(&s);
        return;
    }
    CHECK_EQ(f->kind, CA_FAM_SUBCLASS);
    CHECK_EQ(f->base, b);
    CHECK_EQ(f->nbackends, 3);
    /* backends first, by name, with the shared words stripped */
    CHECK_STR_EQ(f->members[0].backend, "docker");
    CHECK_STR_EQ(f->members[1].backend, "e2b");
    CHECK_STR_EQ(f->members[2].backend, "unix_local");
    CHECK_EQ(role_of(f, proxy), CA_ROLE_PROXY);
    CHECK_EQ(role_of(f, fake), CA_ROLE_ABSTRACT);
    CHECK_EQ(role_of(f, mid), CA_ROLE_ABSTRACT);
    CHECK_EQ(role_of(f, priv), CA_ROLE_PRIVATE);
    CHECK_EQ(role_of(f, lone), -1);
    /* boundaries: the base's public async methods (not exec: abstract there,
     * but declared; not _helper, not describe) */
    CHECK_EQ(f->nboundaries, 3);
    CHECK(bound_index(f, "exec") >= 0 && bound_index(f, "_helper") < 0 && bound_index(f, "describe") < 0);
    int inh = -1;
    CHECK_EQ(impl(f, "docker", "pty_exec_start", &inh), 1004 + 1);
    CHECK_EQ(inh, 0);
    CHECK_EQ(impl(f, "e2b", "pty_exec_start", &inh), 1000); /* the base's */
    CHECK_EQ(inh, 1);
    CHECK_EQ(impl(f, "e2b", "stop", &inh), 1007); /* the abstract intermediate's, two levels up */
    CHECK_EQ(inh, 1);
    CHECK_EQ(impl(f, "docker", "exec", &inh), 1006);
    /* an abstract method is no implementation: a backend without exec is absent */
    CHECK_EQ(impl(f, "docker", "stop", &inh), 1001);
    CHECK_EQ(inh, 1);
    /* whose code: a member's, its file's, its backend directory's, nobody's */
    g.c[e2b].dir_name = "e2b"; /* e2b/ holds a marker file: the directory rule names it */
    g.c[docker].dir_name = "docker";
    g.c[unix_local].dir_name = "unix_local";
    CHECK_STR_EQ(ca_families_owner(&s, g.c, g.nc, docker, "s/docker.py", "docker"), "docker");
    CHECK_STR_EQ(ca_families_owner(&s, g.c, g.nc, -1, "s/docker.py", "docker"), "docker");
    CHECK_STR_EQ(ca_families_owner(&s, g.c, g.nc, -1, "e2b/mounts.py", "e2b"), "e2b");
    CHECK_STR_EQ(ca_families_owner(&s, g.c, g.nc, -1, "e2b/sub/pty.py", "e2b"), "e2b");
    CHECK(ca_families_owner(&s, g.c, g.nc, -1, "other/e2b/x.py", "e2b") == NULL); /* another tree */
    CHECK(ca_families_owner(&s, g.c, g.nc, -1, "s/util.py", "util") == NULL); /* beside docker: no backend's */
    CHECK(ca_families_owner(&s, g.c, g.nc, b, "s/base.py", "base") == NULL);
    ca_fam_set_free(&s);

    /* configured: names from the globs, and a member no glob maps is no backend */
    g.c[docker].config_name = "dock";
    g.c[e2b].config_name = "e2b-cloud";
    ca_families_find(g.c, g.nc, g.m, g.nm, 1, &s);
    f = s.n ? &s.v[0] : NULL;
    CHECK(f && f->nbackends == 2);
    CHECK(f && backend_index(f, "dock") >= 0 && backend_index(f, "e2b-cloud") >= 0 && backend_index(f, "unix_local") < 0);
    ca_fam_set_free(&s);
    g.c[e2b].config_name = NULL;
    ca_families_find(g.c, g.nc, g.m, g.nm, 1, &s);
    CHECK_EQ(s.n, 0); /* one backend left: no family */
    ca_fam_set_free(&s);
}

/* A protocol implemented structurally; a capability protocol two of its
 * providers have folds into it; a class with some of the methods is no
 * member. */
static void check_protocol(void)
{
    tg g = {0};
    int p = cls(&g, "SandboxProvider", "base.py", CLASS_PROTOCOL);
    meth(&g, p, "create", 1, 0);
    meth(&g, p, "close", 1, 0);
    int cap = cls(&g, "SupportsPty", "base.py", CLASS_PROTOCOL);
    meth(&g, cap, "create_pty", 1, 0);
    const char *names[] = {"DockerProvider", "ModalProvider", "LocalProvider"};
    int prov[3];
    for (int i = 0; i < 3; i++) {
        prov[i] = cls(&g, names[i], i == 0 ? "docker/provider.py" : i == 1 ? "modal/provider.py" : "local.py", 0);
        meth(&g, prov[i], "create", 1, 0);
        meth(&g, prov[i], "close", 1, 0);
        if (i < 2) meth(&g, prov[i], "create_pty", 1, 0);
    }
    int api = cls(&g, "SandboxApi", "api.py", 0);
    meth(&g, api, "create", 1, 0); /* no close: not a provider */
    ca_fam_set s;
    ca_families_find(g.c, g.nc, g.m, g.nm, 0, &s);
    CHECK_EQ(s.n, 1);
    const ca_fam *f = s.n ? &s.v[0] : NULL;
    if (f) {
        CHECK_STR_EQ(f->name, "SandboxProvider");
        CHECK_EQ(f->kind, CA_FAM_PROTOCOL);
        CHECK_EQ(f->nbackends, 3);
        CHECK(backend_index(f, "docker") >= 0 && backend_index(f, "local") >= 0);
        CHECK_EQ(role_of(f, api), -1);
        CHECK(bound_index(f, "create_pty") >= 0); /* folded in */
        int inh;
        CHECK_EQ(impl(f, "local", "create_pty", &inh), -1); /* absent */
        CHECK_EQ(impl(f, "docker", "create", &inh), 1003);
        CHECK_EQ(inh, 0);
    }
    ca_fam_set_free(&s);
}

/* Duck-typed siblings make a family only in a tree that declares none;
 * names that clash fall back to the directory rule. */
static void check_duck_typed(void)
{
    tg g = {0};
    int a = cls(&g, "AlderRunner", "alder/runner.py", 0);
    meth(&g, a, "start", 1, 0);
    meth(&g, a, "stop", 1, 0);
    int b = cls(&g, "BirchRunner", "birch/runner.py", 0);
    meth(&g, b, "start", 1, 0);
    int b2 = cls(&g, "BirchRunner", "cases/b2.py", 0); /* the same name elsewhere: a clash */
    meth(&g, b2, "start", 1, 0);
    g.c[b].dir_name = "birch";
    g.c[b2].dir_name = "b2";
    int other = cls(&g, "AlderConfig", "alder/runner.py", 0);
    meth(&g, other, "start", 1, 0);
    ca_fam_set s;
    ca_families_find(g.c, g.nc, g.m, g.nm, 0, &s);
    CHECK_EQ(s.n, 1);
    const ca_fam *f = s.n ? &s.v[0] : NULL;
    if (f) {
        CHECK_STR_EQ(f->name, "*Runner");
        CHECK_EQ(f->kind, CA_FAM_IMPLICIT);
        CHECK_EQ(f->base, -1);
        CHECK_EQ(f->nbackends, 3);
        CHECK(backend_index(f, "alder") >= 0 && backend_index(f, "birch") >= 0 && backend_index(f, "b2") >= 0);
        CHECK_EQ(role_of(f, other), -1);
        CHECK_EQ(f->nboundaries, 1); /* stop: one class only */
    }
    ca_fam_set_free(&s);

    /* declare a family and the siblings are no family any more */
    int qb = cls(&g, "BaseQueue", "q.py", 0);
    meth(&g, qb, "publish", 1, 0);
    int q1 = cls(&g, "AmberQueue", "q.py", 0), q2 = cls(&g, "CoralQueue", "q.py", 0);
    base(&g, q1, qb);
    base(&g, q2, qb);
    ca_families_find(g.c, g.nc, g.m, g.nm, 0, &s);
    CHECK_EQ(s.n, 1);
    CHECK(s.n && strcmp(s.v[0].name, "BaseQueue") == 0);
    if (s.n) {
        int inh;
        CHECK_EQ(impl(&s.v[0], "amber", "publish", &inh), (int)(1000 + g.nm - 1));
        CHECK_EQ(inh, 1);
    }
    ca_fam_set_free(&s);
}

/* Bases that name each other (a cycle) and a class that is its own base
 * never make a walk loop. */
static void check_cycle(void)
{
    tg g = {0};
    int a = cls(&g, "A", "a.py", 0), b = cls(&g, "B", "b.py", 0), c = cls(&g, "C", "c.py", 0);
    base(&g, a, b);
    base(&g, b, a);
    base(&g, c, a);
    base(&g, c, c);
    meth(&g, a, "run", 1, 0);
    meth(&g, b, "run", 1, FN_ABSTRACT);
    ca_fam_set s;
    ca_families_find(g.c, g.nc, g.m, g.nm, 0, &s);
    CHECK(s.n <= 3);
    ca_fam_set_free(&s);
    CHECK(ca_families_digest(g.c, g.nc, g.m, g.nm, 0) == ca_families_digest(g.c, g.nc, g.m, g.nm, 0));
    uint64_t d0 = ca_families_digest(g.c, g.nc, g.m, g.nm, 0);
    g.m[0].fflags |= FN_DELEGATES;
    CHECK(ca_families_digest(g.c, g.nc, g.m, g.nm, 0) != d0);
    g.m[0].fflags = 0;
    g.bases[c][0] = b;
    CHECK(ca_families_digest(g.c, g.nc, g.m, g.nm, 0) != d0);
    CHECK(ca_families_digest(g.c, g.nc, g.m, g.nm, 1) != ca_families_digest(g.c, g.nc, g.m, g.nm, 0));
    ca_families_find(NULL, 0, NULL, 0, 0, &s);
    CHECK_EQ(s.n, 0);
    ca_fam_set_free(&s);
}

static const char PROXY_SRC[] =
    "class Tracing(Base):\n"
    "    async def exec(self, cmd):\n"
    "        return await self._inner.exec(cmd)\n"
    "    async def stop(self):\n"
    "        await self._emit('stop')\n"
    "        await self._inner.stop()\n"
    "    async def start(self):\n"
    "        return await super().start()\n"
    "    async def create(self, spec):\n"
    "        return await self._client.create(spec)\n";

static void check_delegates(void)
{
    char *err = NULL;
    const ca_catalog *cat = ca_catalog_builtin(&err);
    CHECK(cat != NULL);
    if (!cat) return;
    py_frontend *fe = py_frontend_new(cat);
    ir_module m;
    memset(&m, 0, sizeof(m));
    CHECK_EQ(py_lower(fe, "t.py", PROXY_SRC, sizeof(PROXY_SRC) - 1, &m), 0);
    int seen = 0;
    for (int i = 0; i < m.nfuncs; i++) {
        const ir_func *f = m.funcs[i];
        int d = ca_family_delegates(f);
        if (strcmp(f->name, "exec") == 0) {
            CHECK(d);
            seen++;
        } else if (strcmp(f->name, "stop") == 0) { /* work of its own first */
            CHECK(!d);
            seen++;
        } else if (strcmp(f->name, "start") == 0) { /* the base's, not a wrapped object's */
            CHECK(!d);
            seen++;
        } else if (strcmp(f->name, "create") == 0) {
            /* a one-call wrapper of an SDK looks the same: the proxy rule
             * needs most of a member's boundaries to be such */
            CHECK(d);
            seen++;
        }
    }
    CHECK_EQ(seen, 4);
    ir_module_free(&m);
    py_frontend_free(fe);
}

int main(void)
{
    check_words();
    check_subclasses();
    check_protocol();
    check_duck_typed();
    check_cycle();
    check_delegates();
    CA_TEST_MAIN();
}
