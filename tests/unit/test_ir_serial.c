/*
 * test_ir_serial.c — ir_encode / ir_decode (ir/serial.c): every module the
 * Python frontend makes of the corpus comes back the same (its dump and its
 * bytes re-encoded), and a truncated or damaged buffer is refused without a
 * read out of bounds (the ASan build checks that).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ca_test.h"
#include "catalog/catalog.h"
#include "frontend/python/py_frontend.h"
#include "ir/ir.h"
#include "util/util.h"

static py_frontend *fe;
static int modules;

static void dump_all(const ir_module *m, ca_sb *out)
{
    ca_sb_addf(out, "%s|%s|%s|%d|%d|%d\n", m->path ? m->path : "-", m->language ? m->language : "-",
               m->diagnostic ? m->diagnostic : "-", m->parse_errors, m->first_error_line, m->cancels_threads);
    for (int i = 0; i < m->nsupp; i++) ca_sb_addf(out, "supp %d %s\n", m->supp[i].line, m->supp[i].rules);
    for (int k = 0; k < m->nfuncs; k++) ir_dump(m, m->funcs[k], out);
}

static void round_trip(const char *path)
{
    char *src = NULL;
    size_t len = 0;
    if (ca_read_file(path, &src, &len) != 0) return;
    ir_module m;
    memset(&m, 0, sizeof(m));
    if (py_lower(fe, path, src, len, &m) == 0) {
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
            ir_module_free(&back);
        }
        modules++;
        ca_sb_release(&a);
        ca_sb_release(&b);
        ca_sb_release(&da);
        ca_sb_release(&db);
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
        else if (strlen(p) > 3 && strcmp(p + strlen(p) - 3, ".py") == 0) round_trip(p);
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
    walk("corpus");
    CHECK(modules >= 30);
    damaged();
    py_frontend_free(fe);
    CA_TEST_MAIN();
}
