/*
 * test_lang.c — unit tests for analyzer/frontend/lang.c and the two
 * languages behind it: the registry (names, suffixes, the default) and
 * the hooks a scan asks before it lowers (gates, guards, prefilters).
 */
#include "frontend/lang.h"
#include "ca_test.h"
#include "frontend/c/c_frontend.h"
#include "frontend/python/py_frontend.h"
#include "frontend/python/py_precheck.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static void test_registry(void)
{
    size_t n = 0;
    const ca_lang *const *all = ca_lang_all(&n);
    CHECK_EQ(n, 2);
    CHECK(all[0] == &py_lang && all[1] == &c_lang);
    CHECK(ca_lang_default() == &py_lang);
    CHECK(ca_lang_named("python") == &py_lang);
    CHECK(ca_lang_named("c") == &c_lang);
    CHECK(ca_lang_named("C") == NULL && ca_lang_named("") == NULL && ca_lang_named(NULL) == NULL);
    CHECK(ca_lang_by_suffix("a.py", all, n) == &py_lang);
    CHECK(ca_lang_by_suffix("dir.c/x.py", all, n) == &py_lang);
    CHECK(ca_lang_by_suffix("lib.c", all, n) == &c_lang);
    CHECK(ca_lang_by_suffix("lib.h", all, n) == &c_lang);
    CHECK(ca_lang_by_suffix("stub.pyi", all, n) == NULL);
    CHECK(ca_lang_by_suffix("py", all, n) == NULL);
    CHECK(ca_lang_by_suffix(".py", all, n) == &py_lang);
    CHECK(ca_lang_by_suffix("lib.c", all, 1) == NULL); /* Python alone */
    CHECK(ca_lang_by_suffix("a.py", all, 0) == NULL);
    /* only Python files are reused; only C summarises through calls */
    CHECK(py_lang.reusable && !c_lang.reusable);
    CHECK(py_lang.call_summaries && c_lang.call_summaries);
    CHECK(py_lang.await_summaries && !c_lang.await_summaries);
}

static void test_python_hooks(void)
{
    CHECK(py_lang.gate == NULL);
    CHECK(py_lang.prefilter("x.py", "async def f(): pass\n", 20) == 1);
    CHECK(py_lang.prefilter("x.py", "def f(): pass\n", 14) == 0);
    CHECK(py_lang.guard("f((x))", 6) == NULL);
    size_t n = PY_MAX_BRACKET_DEPTH + 1;
    char *deep = ca_xmalloc(n);
    memset(deep, '[', n);
    char *why = py_lang.guard(deep, n);
    CHECK_STR_EQ(why, "brackets nested deeper than 1000 levels; not parsed");
    free(why);
    CHECK(py_lang.guard(deep, n - 1) == NULL);
    free(deep);
}

static void test_c_hooks(void)
{
    const ca_catalog *cat = ca_catalog_builtin(NULL);
    const char *files[] = {"a.c", "b.h"};
    ca_lang_setup s;
    memset(&s, 0, sizeof(s));
    s.cat = cat;
    s.files = files;
    s.nfiles = 2;
    int scopes[] = {0, 1, -1};
    int gates[] = {CA_GATE_ASK, CA_GATE_OPEN, CA_GATE_CLOSED};
    for (int i = 0; i < 3; i++) {
        void *st = NULL;
        char *err = NULL;
        s.cancel_scope = scopes[i];
        CHECK_EQ(c_lang.scan_new(&s, &st, &err), 0);
        CHECK(err == NULL);
        CHECK_EQ(c_lang.gate(st), gates[i]);
        /* a mention opens the gate, wherever it is; a call is what puts CAN5xx in scope */
        const char *call = "void f(pthread_t t) { pthread_cancel(t); }\n";
        CHECK_EQ(c_lang.gate_feed(st, call, strlen(call)), 1);
        CHECK_EQ(c_lang.gate_feed(st, "int x;\n", 7), 0);
        CHECK_EQ(c_lang.gate_feed(st, "my_pthread_cancel_hook", 22), 0);
        ir_module cancels, plain;
        memset(&cancels, 0, sizeof(cancels));
        memset(&plain, 0, sizeof(plain));
        cancels.cancels_threads = 1;
        const ir_module *both[] = {&plain, &cancels};
        CHECK_EQ(c_lang.threads_in_scope(st, both, 2), scopes[i] >= 0);
        CHECK_EQ(c_lang.threads_in_scope(st, both, 1), scopes[i] > 0);
        CHECK_EQ(c_lang.threads_in_scope(st, NULL, 0), scopes[i] > 0);
        /* the compile settings are read before the first worker is made */
        c_lang.prepare(st);
        void *w = c_lang.worker_new(st);
        CHECK(w != NULL);
        c_lang.worker_free(w);
        c_lang.scan_free(st);
    }
    /* without a catalog nothing can name pthread_cancel */
    s.cat = NULL;
    s.cancel_scope = 0;
    void *st = NULL;
    CHECK_EQ(c_lang.scan_new(&s, &st, NULL), 0);
    CHECK_EQ(c_lang.gate(st), CA_GATE_CLOSED);
    c_lang.scan_free(st);
    /* a named database that is not there stops the scan */
    s.cat = cat;
    s.compile_commands = "/nonexistent/ca_test_dir";
    char *err = NULL;
    st = NULL;
    CHECK_EQ(c_lang.scan_new(&s, &st, &err), 2);
    CHECK(err && strncmp(err, "--compile-commands: /nonexistent/ca_test_dir/compile_commands.json: ", 68) == 0);
    free(err);
    c_lang.scan_free(st);
    CHECK(c_lang.prefilter("a.h", "#define X 1\n", 12) == 0);
    CHECK(c_lang.prefilter("a.c", "", 0) == 1);
    CHECK(c_lang.guard == NULL);
}

int main(void)
{
    test_registry();
    test_python_hooks();
    test_c_hooks();
    CA_TEST_MAIN();
}
