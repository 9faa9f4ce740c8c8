/*
 * test_git.c — unit tests for analyzer/discover/git.c: the checkout revision, and the
 * changed-lines set behind `scan --changed-since` (modified, added, deleted
 * and untouched lines, untracked files, quoted file names, paths seen from a
 * subdirectory, unknown revisions, outside a repository).
 *
 * Makes a repository with `git init` under mkdtemp("/tmp/ca_test_XXXXXX");
 * the identity is given with -c on the command line, never in global config.
 * GIT_CEILING_DIRECTORIES keeps git from finding a repository above /tmp.
 */
#include "discover/git.h"
#include "ca_test.h"
#include "util/util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#define GIT "git -c user.name=cancelaudit-test -c user.email=test@example.invalid -c init.defaultBranch=main " \
            "-c commit.gpgsign=false "

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

static int sh(const char *cmd)
{
    int rc = system(cmd);
    if (rc != 0) {
        ca_test_fail(__FILE__, __LINE__, "shell command");
        fprintf(stderr, "    command failed (%d): %s\n", rc, cmd);
    }
    return rc;
}

static int is_hex40(const char *s)
{
    if (!s || strlen(s) != 40) return 0;
    for (int i = 0; i < 40; i++)
        if (!strchr("0123456789abcdef", s[i])) return 0;
    return 1;
}

static void test_repo(const char *repo)
{
    if (chdir(repo) != 0) {
        ca_test_fail(__FILE__, __LINE__, "chdir(repo)");
        return;
    }
    CHECK(ca_git_rev(NULL) == NULL); /* not a repository yet */

    mkdir("sub", 0755);
    write_file("a.py", "l1\nl2\nl3\nl4\nl5\nl6\n");
    write_file("sub/b.py", "b1\nb2\n");
    write_file("gone.py", "g1\ng2\n");
    write_file("notes.txt", "n1\nn2\nn3\n");
    write_file("sp ace.py", "s1\ns2\n");
    write_file("t\tab.py", "t1\nt2\n");
    write_file("caf\xc3\xa9.py", "c1\nc2\n");
    write_file(".gitignore", "ignored.py\n");
    CHECK_EQ(sh(GIT "init -q && " GIT "add -A && " GIT "commit -q -m one"), 0);

    char *rev = ca_git_rev(repo);
    CHECK(is_hex40(rev));
    char *rev2 = ca_git_rev(NULL);
    CHECK(rev && rev2 && strcmp(rev, rev2) == 0);
    free(rev2);
    char *from_sub = ca_git_rev("sub");
    CHECK(rev && from_sub && strcmp(rev, from_sub) == 0);
    free(from_sub);

    /* Working tree edits after the commit. */
    write_file("a.py", "l1\nl2\nL3 changed\nl4\nl5\nl6\nl7 added\n");
    write_file("sub/b.py", "b2\n");                  /* b1 deleted: nothing marked */
    /* Two hunks; the first adds a line that reads like a header. */
    write_file("notes.txt", "n1\n++ b/fake.py\nn2\nn3\nn4 added\n");
    write_file("sp ace.py", "s1\nS2\n");
    write_file("t\tab.py", "T1\nt2\n");
    write_file("caf\xc3\xa9.py", "c1\nc2\nc3\n");
    write_file("new.py", "n1\nn2\n");                 /* untracked */
    write_file("ignored.py", "i1\n");                 /* ignored: not changed */
    CHECK(sh("git rm -q gone.py") == 0);

    ca_changed_lines *c = NULL;
    char *err = NULL;
    int rc = ca_git_changed_lines(rev ? rev : "HEAD", &c, &err);
    CHECK(rc == 0 && c != NULL && err == NULL);
    if (err) fprintf(stderr, "err: %s\n", err);
    CHECK(ca_changed_has(c, "a.py", 3) == 1);
    CHECK(ca_changed_has(c, "./a.py", 3) == 1);
    CHECK(ca_changed_has(c, "a.py", 7) == 1);
    CHECK(ca_changed_has(c, "a.py", 2) == 0);
    CHECK(ca_changed_has(c, "a.py", 4) == 0);
    CHECK(ca_changed_has(c, "a.py", 6) == 0);
    CHECK(ca_changed_has(c, "sub/b.py", 1) == 0);
    CHECK(ca_changed_has(c, "sub/b.py", 2) == 0);
    CHECK(ca_changed_has(c, "notes.txt", 2) == 1);
    CHECK(ca_changed_has(c, "notes.txt", 3) == 0);
    CHECK(ca_changed_has(c, "notes.txt", 5) == 1);
    CHECK(ca_changed_has(c, "fake.py", 2) == 0);
    CHECK(ca_changed_has(c, "fake.py", 5) == 0);
    CHECK(ca_changed_has(c, "sp ace.py", 2) == 1);
    CHECK(ca_changed_has(c, "sp ace.py", 1) == 0);
    CHECK(ca_changed_has(c, "t\tab.py", 1) == 1);
    CHECK(ca_changed_has(c, "t\tab.py", 2) == 0);
    CHECK(ca_changed_has(c, "caf\xc3\xa9.py", 3) == 1);
    CHECK(ca_changed_has(c, "new.py", 1) == 1);
    CHECK(ca_changed_has(c, "new.py", 99) == 1);
    CHECK(ca_changed_has(c, "ignored.py", 1) == 0);
    CHECK(ca_changed_has(c, "gone.py", 1) == 0);
    CHECK(ca_changed_has(c, "missing.py", 1) == 0);
    CHECK(ca_changed_has(NULL, "a.py", 3) == 0);
    ca_changed_lines_free(c);

    /* The index counts too: a staged change is still a change. */
    CHECK(sh(GIT "add a.py") == 0);
    rc = ca_git_changed_lines("HEAD", &c, &err);
    CHECK(rc == 0 && ca_changed_has(c, "a.py", 3) == 1);
    ca_changed_lines_free(c);

    /* From a subdirectory: paths are relative to the cwd. */
    if (chdir("sub") == 0) {
        rc = ca_git_changed_lines("HEAD", &c, &err);
        CHECK(rc == 0);
        CHECK(ca_changed_has(c, "../a.py", 3) == 1);
        CHECK(ca_changed_has(c, "a.py", 3) == 0);
        CHECK(ca_changed_has(c, "../new.py", 1) == 1);
        ca_changed_lines_free(c);
        write_file("fresh.py", "x\n");
        rc = ca_git_changed_lines("HEAD", &c, &err);
        CHECK(rc == 0 && ca_changed_has(c, "fresh.py", 1) == 1);
        ca_changed_lines_free(c);
        if (chdir("..") != 0) perror("chdir");
    } else {
        ca_test_fail(__FILE__, __LINE__, "chdir(\"sub\")");
    }

    /* Unknown revisions, including one that looks like an option. */
    c = NULL;
    rc = ca_git_changed_lines("no-such-rev", &c, &err);
    CHECK(rc == 2 && c == NULL);
    CHECK_STR_EQ(err, "unknown revision 'no-such-rev'");
    free(err);
    err = NULL;
    rc = ca_git_changed_lines("--output=/tmp/ca_test_pwned", &c, &err);
    CHECK(rc == 2 && c == NULL && err != NULL);
    CHECK(access("/tmp/ca_test_pwned", F_OK) != 0);
    free(err);
    err = NULL;
    rc = ca_git_changed_lines("", &c, NULL); /* err may be NULL */
    CHECK(rc == 2 && c == NULL);

    free(rev);
}

static void test_outside(const char *dir)
{
    if (chdir(dir) != 0) {
        ca_test_fail(__FILE__, __LINE__, "chdir(dir)");
        return;
    }
    CHECK(ca_git_rev(NULL) == NULL);
    CHECK(ca_git_rev(dir) == NULL);
    CHECK(ca_git_rev("/nonexistent/dir") == NULL);
    ca_changed_lines *c = NULL;
    char *err = NULL;
    int rc = ca_git_changed_lines("HEAD", &c, &err);
    CHECK(rc == 2 && c == NULL);
    CHECK_STR_EQ(err, "not inside a git repository");
    free(err);

    /* Without git on PATH: a clear error, not a crash. */
    char *old = ca_xstrdup(getenv("PATH") ? getenv("PATH") : "");
    setenv("PATH", "/nonexistent", 1);
    err = NULL;
    rc = ca_git_changed_lines("HEAD", &c, &err);
    CHECK(rc == 2 && err && strstr(err, "git is not installed"));
    free(err);
    CHECK(ca_git_rev(NULL) == NULL);
    setenv("PATH", old, 1);
    free(old);
}

int main(void)
{
    /* No repository above /tmp may leak into the tests. */
    setenv("GIT_CEILING_DIRECTORIES", "/tmp", 1);
    unsetenv("GIT_DIR");
    unsetenv("GIT_WORK_TREE");
    char repo_t[] = "/tmp/ca_test_XXXXXX";
    char out_t[] = "/tmp/ca_test_XXXXXX";
    char *repo = mkdtemp(repo_t);
    char *outside = mkdtemp(out_t);
    if (!repo || !outside) {
        perror("mkdtemp");
        return 1;
    }
    int home = open(".", O_RDONLY | O_DIRECTORY);
    if (home < 0) return 1;

    if (system("git --version >/dev/null 2>&1") != 0) {
        printf("test_git: git is not installed: skipping the repository tests\n");
    } else {
        test_repo(repo);
    }
    test_outside(outside);

    if (fchdir(home) != 0) perror("fchdir");
    close(home);
    char *cmd = ca_xasprintf("rm -rf '%s' '%s'", repo, outside);
    if (system(cmd) != 0) fprintf(stderr, "warning: cleanup failed\n");
    free(cmd);
    CA_TEST_MAIN();
}
