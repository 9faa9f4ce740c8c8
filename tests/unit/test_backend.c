/*
 * test_backend.c — unit tests for analyzer/coverage/backend.c: the DESIGN §4 naming
 * examples, the walk-up boundary at the current directory, configuration
 * maps, the per-directory cache, and concurrent use from several threads.
 *
 * Builds its tree under mkdtemp("/tmp/ca_test_XXXXXX") and runs inside it.
 */
#include "coverage/backend.h"
#include "ca_test.h"
#include "util/util.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static void touch(const char *path)
{
    char *dir = ca_xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        mkdirs(dir);
    }
    free(dir);
    write_file(path, "x = 1\n");
}

static void rm_tree(const char *dir)
{
    char *cmd = ca_xasprintf("rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "warning: could not remove %s\n", dir);
    free(cmd);
}

static void expect_name(ca_backend_cache *c, const char *path, const char *want)
{
    char *got = ca_backend_name(c, path);
    CHECK_STR_EQ(got, want);
    if (strcmp(got, want) != 0) fprintf(stderr, "    (backend of %s)\n", path);
    free(got);
}

static void test_defaults(const char *root, const char *other)
{
    touch("blaxel/sandbox.py");
    touch("blaxel/mounts.py");
    touch("blaxel/internal/helpers.py");
    touch("sandboxes/unix_local.py");
    touch("sandboxes/docker_local.py");
    touch("pkg/__init__.py");
    touch("pkg/util.py");
    touch("fleet/south/provider.py");
    touch("fleet/east/client.py");
    touch("fleet/east/backend.py");
    touch("nest/a/b/c/deep.py");
    touch("nest/a/backend.py");
    mkdirs("fake/client.py"); /* a directory with a marker's name is no marker */
    touch("fake/mod.py");
    touch("__init__.py");
    touch("top.py");
    touch("plain/x.py");
    /* A marker in the cwd itself must not make everything one backend. */
    touch("client.py");

    ca_backend_cache *c = ca_backend_cache_new(NULL, 0);
    expect_name(c, "blaxel/sandbox.py", "blaxel");
    expect_name(c, "blaxel/mounts.py", "blaxel");
    expect_name(c, "./blaxel//mounts.py", "blaxel");
    expect_name(c, "blaxel/internal/helpers.py", "blaxel");
    expect_name(c, "sandboxes/unix_local.py", "unix_local");
    expect_name(c, "sandboxes/docker_local.py", "docker_local");
    expect_name(c, "pkg/__init__.py", "pkg");
    expect_name(c, "pkg/util.py", "util");
    expect_name(c, "fleet/south/provider.py", "south");
    expect_name(c, "fleet/east/client.py", "east");
    expect_name(c, "nest/a/b/c/deep.py", "a");
    expect_name(c, "fake/mod.py", "mod");
    expect_name(c, "top.py", "top");
    expect_name(c, "client.py", "client");
    expect_name(c, "plain/x.py", "x");
    expect_name(c, "plain/../blaxel/mounts.py", "blaxel");
    expect_name(c, "plain/../sandboxes/unix_local.py", "unix_local");
    const char *slash = strrchr(root, '/');
    expect_name(c, "__init__.py", slash + 1);
    expect_name(c, "noext", "noext");
    expect_name(c, "", ".");

    /* Outside the cwd: absolute paths and ".." paths walk up the same way. */
    char *abs_sandbox = ca_xasprintf("%s/blaxel2/mounts.py", other);
    expect_name(c, abs_sandbox, "blaxel2");
    free(abs_sandbox);
    char *abs_plain = ca_xasprintf("%s/plain2/tool.py", other);
    expect_name(c, abs_plain, "tool");
    free(abs_plain);

    /* The cache keeps the first answer for a directory: a later marker is
     * seen only by a new cache (one cache lives for one scan). */
    touch("plain/backend.py");
    expect_name(c, "plain/x.py", "x");
    ca_backend_cache_free(c);
    c = ca_backend_cache_new(NULL, 0);
    expect_name(c, "plain/x.py", "plain");
    ca_backend_cache_free(c);

    /* From a subdirectory, "../" paths: ".." itself is never a candidate. */
    mkdirs("work");
    if (chdir("work") != 0) {
        ca_test_fail(__FILE__, __LINE__, "chdir(\"work\")");
        return;
    }
    c = ca_backend_cache_new(NULL, 0);
    expect_name(c, "../blaxel/mounts.py", "blaxel");
    expect_name(c, "../top.py", "top");
    expect_name(c, "../sandboxes/unix_local.py", "unix_local");
    expect_name(c, "../__init__.py", slash + 1);
    ca_backend_cache_free(c);
    if (chdir("..") != 0) perror("chdir");
}

static void test_maps(void)
{
    const ca_backend_map maps[] = {
        {"acme", "vendor/acme_*"},
        {"legacy", "*/legacy/*"},
        {"second", "vendor/acme_x.py"}, /* shadowed: first match wins */
    };
    ca_backend_cache *c = ca_backend_cache_new(maps, 3);
    expect_name(c, "vendor/acme_x.py", "acme");
    expect_name(c, "./vendor/acme_y/z.py", "acme");
    expect_name(c, "src/old/legacy/deep/file.py", "legacy"); /* '*' spans '/' */
    expect_name(c, "blaxel/mounts.py", "blaxel");             /* no map: default rules */
    ca_backend_cache_free(c);
}

typedef struct job {
    ca_backend_cache *c;
    int bad;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (int round = 0; round < 50; round++) {
        for (int k = 0; k < 40; k++) {
            char *path = ca_xasprintf("many/d%02d/%s.py", k, k % 2 ? "sandbox" : "m");
            char *want = k % 2 ? ca_xasprintf("d%02d", k) : ca_xstrdup("m");
            char *got = ca_backend_name(j->c, path);
            if (strcmp(got, want) != 0) j->bad++;
            free(want);
            free(got);
            free(path);
        }
    }
    return NULL;
}

static void test_threads(void)
{
    for (int k = 0; k < 40; k++) {
        char *p = ca_xasprintf("many/d%02d/%s.py", k, k % 2 ? "sandbox" : "m");
        touch(p);
        free(p);
    }
    ca_backend_cache *c = ca_backend_cache_new(NULL, 0);
    pthread_t th[8];
    job jobs[8];
    for (int i = 0; i < 8; i++) {
        jobs[i].c = c;
        jobs[i].bad = 0;
        pthread_create(&th[i], NULL, worker, &jobs[i]);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        CHECK(jobs[i].bad == 0);
    }
    ca_backend_cache_free(c);
}

int main(void)
{
    char root_t[] = "/tmp/ca_test_XXXXXX";
    char other_t[] = "/tmp/ca_test_XXXXXX";
    char *root = mkdtemp(root_t);
    char *other = mkdtemp(other_t);
    if (!root || !other) {
        perror("mkdtemp");
        return 1;
    }
    char *p = ca_xasprintf("%s/blaxel2/sandbox.py", other);
    touch(p);
    free(p);
    p = ca_xasprintf("%s/plain2/tool.py", other);
    touch(p);
    free(p);
    int home = open(".", O_RDONLY | O_DIRECTORY);
    if (home < 0 || chdir(root) != 0) {
        perror("chdir");
        return 1;
    }

    test_defaults(root, other);
    test_maps();
    test_threads();

    if (fchdir(home) != 0) perror("fchdir");
    close(home);
    rm_tree(root);
    rm_tree(other);
    CA_TEST_MAIN();
}
