/*
 * test_discover.c — unit tests for analyzer/discover/discover.c: the file walk
 * (excludes, virtualenvs, symlinks, FIFOs, size limit, permissions, sorting,
 * missing paths, languages by suffix).
 *
 * Builds its trees under mkdtemp("/tmp/ca_test_XXXXXX"), runs with that tree
 * as the current directory, and removes it afterwards.
 */
#include "discover/discover.h"
#include "ca_test.h"
#include "frontend/lang.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        abort();
    }
    fputs(text, f);
    fclose(f);
}

static void mkdirs(const char *path)
{
    char *p = ca_xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    }
    mkdir(p, 0755);
    free(p);
}

static void rm_tree(const char *dir)
{
    char *cmd = ca_xasprintf("chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", dir, dir);
    if (system(cmd) != 0) fprintf(stderr, "warning: could not remove %s\n", dir);
    free(cmd);
}

static const ca_disc_file *find(const ca_disc_file *f, size_t n, const char *path)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].path, path) == 0) return &f[i];
    return NULL;
}

static size_t count_with_prefix(const ca_disc_file *f, size_t n, const char *prefix)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(f[i].path, prefix, strlen(prefix)) == 0) c++;
    return c;
}

static void dump(const ca_disc_file *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "  %s [%s] %s\n", f[i].path, f[i].language ? f[i].language : "-",
                f[i].diagnostic ? f[i].diagnostic : "");
}

static int sorted_unique(const ca_disc_file *f, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (strcmp(f[i - 1].path, f[i].path) >= 0) return 0;
    return 1;
}

/* The tree every walk test uses (cwd is its root). */
static void build_tree(const char *outside)
{
    write_file("a.py", "async def f():\n    await g()\n");
    mkdirs("b");
    mkdirs("empty");
    write_file("b/c.py", "x = 1\n");
    write_file("b/readme.txt", "not python\n");
    write_file("stub.pyi", "def f() -> int: ...\n");
    write_file("lib.c", "int f(void) { return 0; }\n");
    write_file("lib.h", "int f(void);\n");
    const char *excluded[] = {".git", "node_modules", "__pycache__", "build", "dist", "foo.egg-info",
                              ".cancelaudit", ".venv", ".tox", "site-packages"};
    for (size_t i = 0; i < sizeof(excluded) / sizeof(excluded[0]); i++) {
        char *d = ca_xasprintf("%s/sub", excluded[i]);
        mkdirs(d);
        char *f = ca_xasprintf("%s/x.py", d);
        write_file(f, "async def f(): pass\n");
        free(f);
        free(d);
    }
    /* Near misses of the default excludes are walked. */
    const char *kept[] = {"buildx", "egg-info", "my.egg-infos", "venvs", "Build"};
    for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
        char *f = ca_xasprintf("%s/y.py", kept[i]);
        mkdirs(kept[i]);
        write_file(f, "async def f(): pass\n");
        free(f);
    }
    /* A virtualenv under an arbitrary name. */
    mkdirs("myenv/lib/python3.11");
    write_file("myenv/pyvenv.cfg", "home = /usr/bin\n");
    write_file("myenv/lib/python3.11/mod.py", "x = 1\n");
    /* User-excluded. */
    mkdirs("skipme");
    write_file("skipme/s.py", "x = 1\n");
    mkdirs("gen");
    write_file("gen/x_pb2.py", "x = 1\n");
    write_file("gen/keep.py", "x = 1\n");
    /* Non-regular file with a .py name. */
    if (mkfifo("fifo.py", 0644) != 0) perror("mkfifo");
    /* Symlink loops: back to the parent and to itself; a self-referencing link. */
    mkdirs("loop");
    write_file("loop/l.py", "x = 1\n");
    if (symlink("..", "loop/up") != 0) perror("symlink");
    if (symlink(".", "loop/self") != 0) perror("symlink");
    if (symlink("bad.py", "bad.py") != 0) perror("symlink");
    /* A second name for a directory in the tree, and one for a directory outside. */
    if (symlink("b", "alias_b") != 0) perror("symlink");
    if (symlink(outside, "ext") != 0) perror("symlink");
    /* A symlinked file is followed. */
    if (symlink("a.py", "link_a.py") != 0) perror("symlink");
    /* Too large for the 100-byte limit the test sets. */
    char big[201];
    memset(big, '#', 200);
    big[200] = 0;
    write_file("big.py", big);
    /* Deep nesting: the walk has no recursion to run out of. */
    ca_sb deep = {0};
    ca_sb_adds(&deep, "deep");
    for (int i = 0; i < 300; i++) ca_sb_adds(&deep, "/d");
    mkdirs(deep.buf);
    ca_sb_adds(&deep, "/leaf.py");
    write_file(deep.buf, "x = 1\n");
    ca_sb_release(&deep);
}

static void test_walk(void)
{
    const char *excl[] = {"skipme", "*_pb2.py", "./nothing/"};
    ca_discover_opts o = {0};
    o.excludes = excl;
    o.nexcludes = 3;
    o.max_size = 100;
    const char *paths[] = {"."};
    ca_disc_file *f = NULL;
    size_t n = 0;
    char *err = NULL;
    int rc = ca_discover(paths, 1, &o, &f, &n, &err);
    CHECK_EQ(rc, 0);
    CHECK_STR_EQ(err, NULL);
    CHECK(sorted_unique(f, n));

    const ca_disc_file *a = find(f, n, "a.py");
    CHECK(a && a->diagnostic == NULL && strcmp(a->language, "python") == 0);
    CHECK(a && a->size == (int64_t)strlen("async def f():\n    await g()\n") && a->mtime_ns > 0);
    CHECK(find(f, n, "b/c.py") != NULL);
    CHECK(find(f, n, "b/readme.txt") == NULL);
    CHECK(find(f, n, "stub.pyi") == NULL);
    CHECK(find(f, n, "lib.c") == NULL && find(f, n, "lib.h") == NULL);
    /* default excludes */
    CHECK(count_with_prefix(f, n, ".git/") == 0);
    CHECK(count_with_prefix(f, n, "node_modules/") == 0);
    CHECK(count_with_prefix(f, n, "__pycache__/") == 0);
    CHECK(count_with_prefix(f, n, "build/") == 0);
    CHECK(count_with_prefix(f, n, "dist/") == 0);
    CHECK(count_with_prefix(f, n, "foo.egg-info/") == 0);
    CHECK(count_with_prefix(f, n, ".cancelaudit/") == 0);
    CHECK(count_with_prefix(f, n, ".venv/") == 0);
    CHECK(count_with_prefix(f, n, "site-packages/") == 0);
    CHECK(find(f, n, "buildx/y.py") && find(f, n, "egg-info/y.py") && find(f, n, "my.egg-infos/y.py"));
    CHECK(find(f, n, "venvs/y.py") && find(f, n, "Build/y.py"));
    /* virtualenv by its pyvenv.cfg */
    CHECK(count_with_prefix(f, n, "myenv/") == 0);
    /* user excludes: a component and a path glob */
    CHECK(count_with_prefix(f, n, "skipme/") == 0);
    CHECK(find(f, n, "gen/x_pb2.py") == NULL);
    CHECK(find(f, n, "gen/keep.py") != NULL);
    /* FIFO: listed with a diagnostic, never opened */
    const ca_disc_file *fifo = find(f, n, "fifo.py");
    CHECK(fifo && fifo->diagnostic && strcmp(fifo->diagnostic, "not a regular file (FIFO)") == 0);
    /* symlink loops: each reported once, the walk finished */
    const ca_disc_file *up = find(f, n, "loop/up");
    const ca_disc_file *self = find(f, n, "loop/self");
    CHECK(up && up->diagnostic && strcmp(up->diagnostic, "symlink loop") == 0 && up->language == NULL);
    CHECK(self && self->diagnostic && strcmp(self->diagnostic, "symlink loop") == 0);
    CHECK(count_with_prefix(f, n, "loop/") == 3); /* l.py, self, up */
    const ca_disc_file *bad = find(f, n, "bad.py");
    CHECK(bad && bad->diagnostic && strcmp(bad->diagnostic, "symlink loop") == 0);
    /* a second name for a walked directory is not walked again */
    CHECK(count_with_prefix(f, n, "alias_b/") == 0);
    /* a symlinked directory outside the tree is followed, once */
    const ca_disc_file *e = find(f, n, "ext/e.py");
    CHECK(e && e->diagnostic == NULL);
    /* symlinked file followed */
    const ca_disc_file *la = find(f, n, "link_a.py");
    CHECK(la && la->diagnostic == NULL && a && la->size == a->size);
    /* size limit */
    const ca_disc_file *big = find(f, n, "big.py");
    CHECK(big && big->diagnostic && strcmp(big->diagnostic, "file too large (200 bytes > limit 100)") == 0);
    CHECK(big && big->size == 200);
    /* deep tree */
    CHECK(count_with_prefix(f, n, "deep/d/d/d/") == 1);
    if (ca_test_failures || getenv("CA_TEST_VERBOSE")) dump(f, n);
    ca_disc_files_free(f, n);

    /* Without default excludes: build/ and the virtualenv come back; every language on. */
    ca_discover_opts o2 = {0};
    o2.no_default_excludes = 1;
    o2.langs = ca_lang_all(&o2.nlangs);
    rc = ca_discover(paths, 1, &o2, &f, &n, &err);
    CHECK(rc == 0);
    CHECK(find(f, n, "build/sub/x.py") != NULL);
    CHECK(find(f, n, "myenv/lib/python3.11/mod.py") != NULL);
    CHECK(find(f, n, "skipme/s.py") != NULL);
    const ca_disc_file *c = find(f, n, "lib.c");
    CHECK(c && strcmp(c->language, "c") == 0);
    CHECK(find(f, n, "lib.h") != NULL);
    /* default size limit: 200 bytes is fine */
    big = find(f, n, "big.py");
    CHECK(big && big->diagnostic == NULL);
    CHECK(sorted_unique(f, n));
    ca_disc_files_free(f, n);
}

static void test_named_paths(void)
{
    char *cwd = getcwd(NULL, 0);
    char *abs_a = ca_xasprintf("%s/a.py", cwd);
    write_file("notes.txt", "async\n");
    /* Overlapping names for the same files are listed once, by their short name. */
    const char *paths[] = {"./b/", "a.py", abs_a, "./a.py", "b/../a.py", "notes.txt", "fifo.py", "b"};
    ca_disc_file *f = NULL;
    size_t n = 0;
    char *err = NULL;
    int rc = ca_discover(paths, sizeof(paths) / sizeof(paths[0]), NULL, &f, &n, &err);
    CHECK(rc == 0);
    CHECK(sorted_unique(f, n));
    CHECK_EQ(n, 4);
    CHECK(n >= 1 && strcmp(f[0].path, "a.py") == 0);
    CHECK(find(f, n, "b/c.py") != NULL);
    /* a named file is listed whatever its suffix */
    const ca_disc_file *t = find(f, n, "notes.txt");
    CHECK(t && strcmp(t->language, "python") == 0 && t->diagnostic == NULL);
    const ca_disc_file *fifo = find(f, n, "fifo.py");
    CHECK(fifo && fifo->diagnostic && strstr(fifo->diagnostic, "FIFO"));
    if (ca_test_failures) dump(f, n);
    ca_disc_files_free(f, n);

    /* A user exclude applies to a named file, not to a named directory. */
    const char *excl[] = {"b"};
    ca_discover_opts o = {0};
    o.excludes = excl;
    o.nexcludes = 1;
    const char *p2[] = {"b/c.py"};
    rc = ca_discover(p2, 1, &o, &f, &n, &err);
    CHECK(rc == 0 && n == 0);
    ca_disc_files_free(f, n);
    const char *excl2[] = {"gen"};
    o.excludes = excl2;
    const char *p3[] = {"gen"};
    rc = ca_discover(p3, 1, &o, &f, &n, &err);
    CHECK(rc == 0 && find(f, n, "gen/keep.py") != NULL);
    ca_disc_files_free(f, n);

    /* A missing named path is exit code 2 with a clear message, nothing listed. */
    const char *p4[] = {"a.py", "nope/x.py"};
    rc = ca_discover(p4, 2, NULL, &f, &n, &err);
    CHECK(rc == 2);
    CHECK(f == NULL && n == 0);
    CHECK_STR_EQ(err, "nope/x.py: no such file or directory");
    free(err);
    err = NULL;

    rc = ca_discover(NULL, 0, NULL, &f, &n, &err); /* no paths means "." */
    CHECK(rc == 0 && find(f, n, "a.py") != NULL);
    ca_disc_files_free(f, n);

    free(abs_a);
    free(cwd);
}

/* A path outside the cwd is shown as given (minus the trailing '/'). */
static void test_outside_cwd(const char *outside)
{
    char *given = ca_xasprintf("%s/", outside);
    const char *paths[] = {given};
    ca_disc_file *f = NULL;
    size_t n = 0;
    char *err = NULL;
    CHECK(ca_discover(paths, 1, NULL, &f, &n, &err) == 0);
    char *want = ca_xasprintf("%s/e.py", outside);
    CHECK(n == 1 && strcmp(f[0].path, want) == 0);
    ca_disc_files_free(f, n);
    free(want);
    free(given);
}

/* Unreadable directory and file. Root bypasses permissions, so under root the
 * check runs in a child that drops to uid/gid 65534 (nobody). */
static void test_permissions(const char *root)
{
    mkdirs("locked");
    write_file("locked/hidden.py", "x = 1\n");
    write_file("secret.py", "x = 1\n");
    chmod("locked", 0);
    chmod("secret.py", 0);
    chmod(root, 0755);

    pid_t pid = fork();
    if (pid == 0) {
        if (geteuid() == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0) _exit(77);
        }
        const char *paths[] = {"."};
        ca_disc_file *f = NULL;
        size_t n = 0;
        char *err = NULL;
        int bad = 0;
        if (ca_discover(paths, 1, NULL, &f, &n, &err) != 0) bad |= 1;
        const ca_disc_file *l = find(f, n, "locked");
        if (!l || !l->diagnostic || strcmp(l->diagnostic, "permission denied") != 0 || l->language) bad |= 2;
        if (find(f, n, "locked/hidden.py")) bad |= 4;
        const ca_disc_file *s = find(f, n, "secret.py");
        if (!s || !s->diagnostic || strcmp(s->diagnostic, "permission denied") != 0) bad |= 8;
        if (!find(f, n, "a.py")) bad |= 16; /* the walk went on */
        if (bad) dump(f, n);
        ca_disc_files_free(f, n);
        _exit(bad);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        printf("test_discover: running as root and cannot drop privileges: "
               "skipping the unreadable-directory assertions\n");
    } else {
        if (geteuid() == 0) printf("test_discover: root: permission checks ran as uid 65534\n");
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
            fprintf(stderr, "permission child status %d\n", status);
    }
    chmod("locked", 0755);
    chmod("secret.py", 0644);
    chmod(root, 0700);
}

int main(void)
{
    /* A FIFO that gets opened by mistake would block forever: fail instead. */
    alarm(60);
    char root_t[] = "/tmp/ca_test_XXXXXX";
    char out_t[] = "/tmp/ca_test_XXXXXX";
    char *root = mkdtemp(root_t);
    char *outside = mkdtemp(out_t);
    if (!root || !outside) {
        perror("mkdtemp");
        return 1;
    }
    char *e = ca_xasprintf("%s/e.py", outside);
    write_file(e, "x = 1\n");
    free(e);
    int home = open(".", O_RDONLY | O_DIRECTORY);
    if (home < 0 || chdir(root) != 0) {
        perror("chdir");
        return 1;
    }
    build_tree(outside);

    test_walk();
    test_named_paths();
    test_outside_cwd(outside);
    test_permissions(root);

    if (fchdir(home) != 0) perror("fchdir");
    close(home);
    rm_tree(root);
    rm_tree(outside);
    CA_TEST_MAIN();
}
