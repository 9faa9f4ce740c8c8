/*
 * test_c_frontend.c — the C frontend (c_frontend.h): what C lowers to in the
 * ownership IR, compile settings, diagnostics, and that a Python-only scan
 * never loads libclang.
 *
 * Set CA_DUMP=1 to print the IR of every snippet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/c/c_frontend.h"
#include "ca_test.h"
#include "catalog/catalog.h"
#include "model/model.h"
#include "scan/scan.h"

static char tmpdir[] = "/tmp/ca_cfront_XXXXXX";

static char *write_file(const char *name, const char *text);

static void put(const char *name, const char *text) { free(write_file(name, text)); }

static char *write_file(const char *name, const char *text)
{
    char *path = ca_xasprintf("%s/%s", tmpdir, name);
    for (char *slash = strchr(path + strlen(tmpdir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        mkdir(path, 0755);
        *slash = '/';
    }
    FILE *f = fopen(path, "w");
    if (!f) return path;
    fputs(text, f);
    fclose(f);
    return path;
}

typedef struct lowered {
    ir_module m;
    char *dump;
    int rc;
} lowered;

static void lower_with(const c_project *proj, const char *name, const char *src, lowered *out)
{
    memset(out, 0, sizeof(*out));
    char *path = write_file(name, src);
    const ca_catalog *cat = ca_catalog_builtin(NULL);
    c_frontend *fe = c_frontend_new(cat, proj);
    out->rc = c_lower(fe, path, src, strlen(src), &out->m);
    c_frontend_free(fe);
    ca_sb sb = {0};
    for (int i = 0; i < out->m.nfuncs; i++) ir_dump(&out->m, out->m.funcs[i], &sb);
    out->dump = ca_sb_detach(&sb);
    if (getenv("CA_DUMP"))
        fprintf(stderr, "--- %s (errors %d, %s)\n%s", name, out->m.parse_errors,
                out->m.diagnostic ? out->m.diagnostic : "no diagnostic", out->dump);
    out->m.src = NULL;
    free(path);
}

static void lower_src(const char *name, const char *src, lowered *out) { lower_with(NULL, name, src, out); }

static void lowered_free(lowered *l)
{
    ir_module_free(&l->m);
    free(l->dump);
}

static int has(const lowered *l, const char *needle) { return strstr(l->dump, needle) != NULL; }

/* A Python-only scan pays nothing for the C frontend. Runs first. */
static void test_python_scan_does_not_load_libclang(void)
{
    put("py/app.py", "import asyncio\n\nasync def f():\n    await asyncio.sleep(1)\n");
    char *dir = ca_xasprintf("%s/py", tmpdir);
    const char *paths[] = {dir};
    ca_scan_opts o;
    memset(&o, 0, sizeof(o));
    o.paths = paths;
    o.npaths = 1;
    o.jobs = 1;
    o.quiet = 1;
    o.cat = ca_catalog_builtin(NULL);
    ca_results res;
    memset(&res, 0, sizeof(res));
    char *err = NULL;
    CHECK_EQ(ca_scan_run(&o, &res, &err), 0);
    CHECK_EQ(res.scan.files_scanned, 1);
    CHECK_EQ(c_libclang_loaded(), 0);
    ca_results_free(&res);
    free(err);
    free(dir);
}

static void test_lock_across_cond_wait(void)
{
    lowered l;
    lower_src("pool.c",
              "#include <pthread.h>\n"
              "struct pool { pthread_mutex_t lock; pthread_cond_t ready; int n; };\n"
              "#define LOCK(p) pthread_mutex_lock(&(p)->lock)\n"
              "void *worker(void *arg) {\n"
              "    struct pool *pool = arg;\n"
              "    LOCK(pool);\n"
              "    while (pool->n == 0) pthread_cond_wait(&pool->ready, &pool->lock);\n"
              "    pthread_mutex_unlock(&pool->lock);\n"
              "    return 0;\n"
              "}\n",
              &l);
    CHECK_EQ(l.rc, 0);
    CHECK_EQ(l.m.parse_errors, 0);
    CHECK_STR_EQ(l.m.language, "c");
    CHECK_EQ(l.m.nfuncs, 1);
    CHECK(has(&l, "6: acquire pool->lock kind=lock"));
    CHECK(has(&l, "checkpoint"));
    CHECK(has(&l, "8: release pool->lock"));
    CHECK(has(&l, "alias pool->lock <pool>"));
    lowered_free(&l);
}

static void test_cleanup_region(void)
{
    lowered l;
    lower_src("fixed.c",
              "#include <pthread.h>\n"
              "#include <stdlib.h>\n"
              "#include <unistd.h>\n"
              "static void unlock_it(void *m) { pthread_mutex_unlock(m); }\n"
              "static void say(void *m) { (void)m; }\n"
              "void f(pthread_mutex_t *mu, int fd) {\n"
              "    char *buf = malloc(8);\n"
              "    pthread_mutex_lock(mu);\n"
              "    pthread_cleanup_push(unlock_it, mu);\n"
              "    pthread_cleanup_push(free, buf);\n"
              "    read(fd, buf, 8);\n"
              "    pthread_cleanup_pop(1);\n"
              "    pthread_cleanup_pop(0);\n"
              "    pthread_cleanup_push(say, mu);\n"
              "    sleep(1);\n"
              "    pthread_cleanup_pop(1);\n"
              "}\n",
              &l);
    CHECK_EQ(l.m.parse_errors, 0);
    /* two nested regions, each with a handler catching cancellation */
    CHECK(has(&l, "except pthread_cleanup_push(unlock_it, mu) flags=0x3:"));
    CHECK(has(&l, "except pthread_cleanup_push(free, buf) flags=0x3:"));
    CHECK(has(&l, "release buf flags=0x1"));
    CHECK(has(&l, "call flags=0x2 'unlock_it' [mu]"));
    /* a handler defined here that releases nothing protects nothing */
    CHECK(has(&l, "call flags=0x2 'say' [-]"));
    lowered_free(&l);
}

static void test_cleanup_without_header(void)
{
    lowered l;
    lower_src("noheader.c",
              "void *malloc(unsigned long);\n"
              "void f(int fd) {\n"
              "    char *buf = malloc(8);\n"
              "    pthread_cleanup_push(free, buf);\n"
              "    read(fd, buf, 8);\n"
              "    pthread_cleanup_pop(1);\n"
              "}\n",
              &l);
    CHECK(has(&l, "except pthread_cleanup_push(free, buf) flags=0x3:"));
    CHECK(has(&l, "5: checkpoint"));
    lowered_free(&l);
}

static void test_disabled_and_async(void)
{
    lowered l;
    lower_src("state.c",
              "#include <pthread.h>\n"
              "#include <stdlib.h>\n"
              "#include <unistd.h>\n"
              "void f(void) {\n"
              "    int old;\n"
              "    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);\n"
              "    sleep(1);\n"
              "    pthread_setcancelstate(old, NULL);\n"
              "    sleep(2);\n"
              "    pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old);\n"
              "    free(malloc(1));\n"
              "    pthread_setcanceltype(old, NULL);\n"
              "    pthread_cancel(0);\n"
              "}\n",
              &l);
    CHECK(has(&l, "7: with flags=0x4"));
    CHECK(has(&l, "9: checkpoint"));
    CHECK(!has(&l, "9: with"));
    CHECK(has(&l, "11: call flags=0x40 'malloc'"));
    CHECK(has(&l, "11: call flags=0x40 'free'"));
    CHECK_EQ(l.m.cancels_threads, 1);
    lowered_free(&l);
}

static void test_transfers_and_failure_tests(void)
{
    lowered l;
    lower_src("own.c",
              "#include <stdlib.h>\n"
              "#include <fcntl.h>\n"
              "#include <unistd.h>\n"
              "struct s { char *buf; };\n"
              "static char *g;\n"
              "char *f(struct s *out, const char *p) {\n"
              "    char *a = malloc(1);\n"
              "    out->buf = a;\n"
              "    char *b = malloc(1);\n"
              "    g = b;\n"
              "    int fd = open(p, O_RDONLY);\n"
              "    if (fd < 0) return 0;\n"
              "    char *c = malloc(1);\n"
              "    return c;\n"
              "}\n",
              &l);
    CHECK(has(&l, "8: transfer a"));
    CHECK(has(&l, "10: transfer b"));
    CHECK(has(&l, "11: acquire fd kind=fd"));
    CHECK(has(&l, "done fd"));
    CHECK(has(&l, "14: transfer c"));
    lowered_free(&l);
}

static void test_goto_cleanup(void)
{
    lowered l;
    lower_src("goto.c",
              "#include <stdlib.h>\n"
              "#include <unistd.h>\n"
              "int f(int fd) {\n"
              "    char *b = malloc(4);\n"
              "    if (!b) goto out;\n"
              "    if (read(fd, b, 4) < 0) goto fail;\n"
              "    return 0;\n"
              "fail:\n"
              "    free(b);\n"
              "out:\n"
              "    return -1;\n"
              "}\n",
              &l);
    /* the gotos break out of loops wrapped around the code before the labels */
    CHECK(has(&l, "loop flags=0x2"));
    CHECK(has(&l, "break"));
    CHECK(!has(&l, "6: return"));
    lowered_free(&l);
}

static void test_missing_header(void)
{
    lowered l;
    lower_src("missing.c",
              "#include \"nowhere/not_here.h\"\n"
              "#include <stdlib.h>\n"
              "int f(struct thing *t, int fd) {\n"
              "    char *b = malloc(4);\n"
              "    thing_poke(t);\n"
              "    read(fd, b, 4);\n"
              "    free(b);\n"
              "    return 0;\n"
              "}\n",
              &l);
    CHECK_EQ(l.rc, 0);
    CHECK(l.m.parse_errors >= 1);
    CHECK_EQ(l.m.first_error_line, 1);
    CHECK(l.m.diagnostic && strstr(l.m.diagnostic, "missing header 'nowhere/not_here.h'"));
    CHECK(has(&l, "4: acquire b kind=memory"));
    CHECK(has(&l, "6: checkpoint"));
    lowered_free(&l);
}

static void test_compile_commands(void)
{
    const char *src = "#include \"cfg.h\"\n"
                      "#include <unistd.h>\n"
                      "void f(int fd) {\n"
                      "#ifdef WITH_SYNC\n"
                      "    fsync(fd);\n"
                      "#endif\n"
                      "    CFG_NAP();\n"
                      "}\n";
    put("db/inc/cfg.h", "#define CFG_NAP() usleep(1)\n");
    char *file = write_file("db/unit.c", src);
    put("db/compile_commands.json",
               "[{\"directory\": \".\", \"file\": \"unit.c\",\n"
               "  \"command\": \"cc -DWITH_SYNC -I inc -o unit.o -c unit.c\"}]\n");
    char *root = ca_xasprintf("%s/db", tmpdir);
    const char *roots[] = {root};
    const char *files[] = {file};
    char *err = NULL;
    c_project *p = c_project_new(NULL, roots, 1, files, 1, &err);
    CHECK(p != NULL);
    lowered l;
    lower_with(p, "db/unit.c", src, &l);
    CHECK_EQ(l.m.parse_errors, 0);
    CHECK(has(&l, "5: checkpoint"));
    CHECK(has(&l, "7: checkpoint"));
    lowered_free(&l);
    c_project_free(p);
    /* without the database: no -D, no -I */
    lower_with(NULL, "db/unit.c", src, &l);
    CHECK(!has(&l, "5: checkpoint"));
    CHECK(l.m.parse_errors >= 1);
    lowered_free(&l);
    /* a named directory without a database is an error */
    p = c_project_new(tmpdir, roots, 1, files, 1, &err);
    CHECK(p == NULL);
    CHECK(err && strstr(err, "compile_commands.json"));
    free(err);
    free(root);
    free(file);
}

static void test_wrappers_are_calls(void)
{
    lowered l;
    lower_src("wrap.c",
              "#include <unistd.h>\n"
              "static void nap(void) { usleep(10); }\n"
              "void f(void) { nap(); }\n",
              &l);
    CHECK(has(&l, "3: call flags=0x20 'nap'"));
    lowered_free(&l);
}

static void test_lock_helpers(void)
{
    lowered l;
    lower_src("helpers.c",
              "#include <pthread.h>\n"
              "struct queue { pthread_mutex_t mu; };\n"
              "struct pool { struct queue queue; };\n"
              "static void q_lock(struct queue *q) { pthread_mutex_lock(&q->mu); }\n"
              "static void q_unlock(struct queue *q) { pthread_mutex_unlock(&q->mu); }\n"
              "static void both(struct queue *q) { q_lock(q); pthread_mutex_lock(&q->mu); pthread_mutex_unlock(&q->mu); }\n"
              "void f(struct pool *pool, struct queue *q) {\n"
              "    q_lock(&pool->queue);\n"
              "    q_lock(q);\n"
              "    q_unlock(&pool->queue);\n"
              "}\n",
              &l);
    CHECK(has(&l, "8: acquire pool->queue.mu kind=lock"));
    CHECK(has(&l, "9: acquire q->mu kind=lock"));
    CHECK(has(&l, "10: release pool->queue.mu"));
    /* a function that takes and gives back the lock is no lock helper */
    CHECK(!has(&l, "'both'\n  8: acquire"));
    lowered_free(&l);
}

static void test_deep_nesting(void)
{
    ca_sb sb = {0};
    ca_sb_adds(&sb, "void f(int x) {\n");
    for (int i = 0; i < 240; i++) ca_sb_adds(&sb, "if (x) {\n");
    ca_sb_adds(&sb, "x++;\n");
    for (int i = 0; i < 240; i++) ca_sb_adds(&sb, "}\n");
    ca_sb_adds(&sb, "}\nvoid g(void) {}\n");
    lowered l;
    lower_src("deep.c", ca_sb_str(&sb), &l);
    CHECK_EQ(l.rc, 0);
    CHECK_EQ(l.m.nfuncs, 2);
    CHECK(l.m.diagnostic && strstr(l.m.diagnostic, "nesting deeper than"));
    lowered_free(&l);
    ca_sb_release(&sb);
}

static void test_prefilter(void)
{
    CHECK_EQ(c_prefilter("a.h", "#define X 1\n", 12), 0);
    CHECK_EQ(c_prefilter("a.h", "static inline int f(void) { return 1; }\n", 41), 1);
    CHECK_EQ(c_prefilter("a.c", "", 0), 1);
}

static void test_suppression_comment(void)
{
    lowered l;
    lower_src("supp.c",
              "#include <unistd.h>\n"
              "void f(void) {\n"
              "    sleep(1); /* cancelaudit: ignore[CAN501] */\n"
              "    sleep(2); // noqa: CAN502\n"
              "}\n",
              &l);
    CHECK(ir_suppressed(&l.m, 3, "CAN501"));
    CHECK(!ir_suppressed(&l.m, 3, "CAN502"));
    CHECK(ir_suppressed(&l.m, 4, "CAN502"));
    lowered_free(&l);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_python_scan_does_not_load_libclang();
    test_prefilter();
    test_lock_across_cond_wait();
    test_cleanup_region();
    test_cleanup_without_header();
    test_disabled_and_async();
    test_transfers_and_failure_tests();
    test_goto_cleanup();
    test_missing_header();
    test_compile_commands();
    test_wrappers_are_calls();
    test_lock_helpers();
    test_deep_nesting();
    test_suppression_comment();
    char *cmd = ca_xasprintf("rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    free(cmd);
    CA_TEST_MAIN();
}
