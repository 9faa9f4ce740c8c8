/*
 * test_config.c — unit tests for analyzer/config/config.c: every key and the
 * catalog category it feeds, both file forms, discovery walking up (a
 * pyproject.toml without [tool.cancelaudit] is skipped, the walk stops at
 * the repository root), glob rebasing, and the error messages (file, line,
 * key) for unknown keys and wrong types.
 *
 * Builds its trees under mkdtemp("/tmp/ca_test_XXXXXX") and runs inside it.
 */
#include "ca_test.h"
#include "catalog/catalog.h"
#include "config/config.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

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

/* Load `text` written to `name`; returns the error (heap) or NULL. */
static char *load_text(const char *name, const char *text, ca_config *c)
{
    write_file(name, text);
    ca_config_init(c);
    char *err = NULL;
    if (ca_config_load(name, c, &err) != 0) return err ? err : ca_xstrdup("(no message)");
    return NULL;
}

static void expect_error(const char *name, const char *text, const char *want)
{
    ca_config c;
    char *err = load_text(name, text, &c);
    int good = err && strstr(err, want) != NULL;
    if (!good) fprintf(stderr, "error: %s\n  wanted: %s\n  in: %s\n", err ? err : "(accepted)", want, text);
    CHECK(good);
    CHECK(c.path == NULL && c.nextras == 0 && c.nmaps == 0);
    free(err);
    ca_config_free(&c);
}

static int has_extra(const ca_config *c, const char *cat, const char *pattern, const char *kind)
{
    for (size_t i = 0; i < c->nextras; i++) {
        const ca_config_extra *e = &c->extras[i];
        if (strcmp(e->category, cat) == 0 && strcmp(e->pattern, pattern) == 0 &&
            (kind ? e->kind && strcmp(e->kind, kind) == 0 : e->kind == NULL))
            return 1;
    }
    return 0;
}

static void test_every_key(void)
{
    ca_config c;
    char *err = load_text("cancelaudit.toml",
                          "select = [\"CAN1\", \"CAN301\"]\n"
                          "ignore = \"CAN102, CAN4\"\n"
                          "strict = true\n"
                          "exclude = [\"generated\", \"tests/fixtures/*\"]\n"
                          "max-size = 1_048_576\n"
                          "jobs = 3\n"
                          "file-timeout = 2.5\n"
                          "file-memory = \"512M\"\n"
                          "acquirers = [\"mysdk.open_box\", { pattern = \"*.lease\", kind = \"lease\" }]\n"
                          "releasers = [\"Zap\", \"mysdk.free_box\"]\n"
                          "registries = [\"Enlist\"]\n"
                          "register = \"adopt_box\"\n"
                          "remote-creates = [\"mysdk.Box.create\"]\n"
                          "cancellation = [\"mysdk.Interrupted\"]\n"
                          "shields = [\"mysdk.protect\"]\n"
                          "timeouts = [\"mysdk.deadline\"]\n"
                          "[backends]\n"
                          "blaxel = \"providers/blaxel/*\"\n"
                          "local = [\"*unix_local*\", \"*docker*\"]\n",
                          &c);
    CHECK(err == NULL);
    if (err) fprintf(stderr, "%s\n", err);
    free(err);
    CHECK_STR_EQ(c.path, "cancelaudit.toml");
    CHECK(c.abs_path && c.abs_path[0] == '/');
    CHECK_STR_EQ(c.select, "CAN1,CAN301");
    CHECK_STR_EQ(c.ignore, "CAN102,CAN4");
    CHECK_EQ(c.strict, 1);
    CHECK_EQ(c.nexcludes, 2);
    if (c.nexcludes == 2) {
        CHECK_STR_EQ(c.excludes[0], "generated");
        CHECK_STR_EQ(c.excludes[1], "tests/fixtures/*");
    }
    CHECK_EQ(c.max_size, 1048576);
    CHECK_EQ(c.jobs, 3);
    CHECK(c.file_timeout == 2.5);
    CHECK_EQ(c.file_memory, (int64_t)512 << 20);
    CHECK(has_extra(&c, "acquire", "mysdk.open_box", "resource"));
    CHECK(has_extra(&c, "acquire", "*.lease", "lease"));
    CHECK(has_extra(&c, "release-method", "Zap", NULL));
    CHECK(has_extra(&c, "release-word", "zap", NULL));
    CHECK(has_extra(&c, "release-func", "mysdk.free_box", NULL));
    CHECK(!has_extra(&c, "release-method", "mysdk.free_box", NULL));
    CHECK(has_extra(&c, "register-word", "enlist", NULL));
    CHECK(has_extra(&c, "register-word", "adopt_box", NULL));
    CHECK(has_extra(&c, "remote-create", "mysdk.Box.create", NULL));
    CHECK(has_extra(&c, "cancel-exc", "mysdk.Interrupted", NULL));
    CHECK(has_extra(&c, "shield-call", "mysdk.protect", NULL));
    CHECK(has_extra(&c, "timeout-call", "mysdk.deadline", NULL));
    CHECK(has_extra(&c, "timeout-scope", "mysdk.deadline", NULL));
    CHECK_EQ(c.nmaps, 3);
    if (c.nmaps == 3) {
        CHECK_STR_EQ(c.maps[0].name, "blaxel");
        CHECK_STR_EQ(c.maps[0].glob, "providers/blaxel/*");
        CHECK_STR_EQ(c.maps[2].name, "local");
        CHECK_STR_EQ(c.maps[2].glob, "*docker*");
    }

    /* the catalog a scan would use answers for the extras */
    char *cerr = NULL;
    ca_catalog *base = ca_catalog_builtin(&cerr);
    CHECK(base != NULL);
    free(cerr);
    ca_catalog *cat = ca_config_catalog(&c, base);
    CHECK(cat != NULL);
    if (cat) {
        const ca_cat_entry *e = ca_catalog_match(cat, CAT_ACQUIRE, "mysdk.open_box");
        CHECK(e && strcmp(e->kind, "resource") == 0);
        e = ca_catalog_match(cat, CAT_ACQUIRE, "pool.lease");
        CHECK(e && strcmp(e->kind, "lease") == 0);
        CHECK(ca_catalog_match(cat, CAT_RELEASE_METHOD, "Zap"));
        CHECK(ca_catalog_contains_word(cat, CAT_RELEASE_WORD, "_zap_box"));
        CHECK(ca_catalog_match(cat, CAT_RELEASE_FUNC, "mysdk.free_box"));
        CHECK(ca_catalog_contains_word(cat, CAT_REGISTER_WORD, "self._enlist"));
        CHECK(ca_catalog_match(cat, CAT_REMOTE_CREATE, "mysdk.Box.create"));
        CHECK(ca_catalog_match(cat, CAT_CANCEL_EXC, "mysdk.Interrupted"));
        CHECK(ca_catalog_match(cat, CAT_SHIELD_CALL, "mysdk.protect"));
        CHECK(ca_catalog_match(cat, CAT_TIMEOUT_CALL, "mysdk.deadline"));
        CHECK(ca_catalog_match(cat, CAT_TIMEOUT_SCOPE, "mysdk.deadline"));
        /* built-in knowledge is still there, and the built-in is untouched */
        CHECK(ca_catalog_match(cat, CAT_ACQUIRE, "aiohttp.ClientSession"));
        CHECK(ca_catalog_match(base, CAT_ACQUIRE, "mysdk.open_box") == NULL);
        CHECK(ca_catalog_digest(cat) != ca_catalog_digest(base));
    }
    ca_catalog_free(cat);
    ca_config_free(&c);
    CHECK(c.path == NULL && c.strict == -1 && c.jobs == -1);

    /* no extras: the built-in serves as it is */
    err = load_text("cancelaudit.toml", "strict = false\n", &c);
    CHECK(err == NULL);
    free(err);
    CHECK_EQ(c.strict, 0);
    CHECK(c.select == NULL && c.ignore == NULL && c.max_size == 0 && c.jobs == -1);
    CHECK(ca_config_catalog(&c, base) == NULL);
    ca_config_free(&c);

    /* an empty file is an empty configuration; an empty select is unset */
    err = load_text("cancelaudit.toml", "select = []\n", &c);
    CHECK(err == NULL);
    free(err);
    CHECK(c.select == NULL && c.path != NULL);
    ca_config_free(&c);

    /* array-of-tables form for acquirers */
    err = load_text("cancelaudit.toml", "[[acquirers]]\npattern = \"a.b\"\nkind = \"k\"\n[[acquirers]]\npattern = \"c\"\n", &c);
    CHECK(err == NULL);
    free(err);
    CHECK(has_extra(&c, "acquire", "a.b", "k") && has_extra(&c, "acquire", "c", "resource"));
    ca_config_free(&c);
}

static void test_pyproject_form(void)
{
    ca_config c;
    char *err = load_text("pyproject.toml",
                          "[project]\nname = \"demo\"\nversion = \"1\"\n\n"
                          "[tool.ruff]\nline-length = 100\n\n"
                          "[tool.cancelaudit]\nselect = \"CAN101\"\n\n"
                          "[tool.cancelaudit.backends]\nmodal = [\"*modal*\"]\n",
                          &c);
    CHECK(err == NULL);
    free(err);
    CHECK_STR_EQ(c.select, "CAN101");
    CHECK(c.nmaps == 1 && strcmp(c.maps[0].name, "modal") == 0);
    ca_config_free(&c);

    /* --config with another name may be either form */
    err = load_text("other.toml", "[tool.cancelaudit]\nstrict = true\n[tool.black]\nx = 1\n", &c);
    CHECK(err == NULL);
    free(err);
    CHECK_EQ(c.strict, 1);
    ca_config_free(&c);

    /* an explicit pyproject.toml must have the table */
    expect_error("pyproject.toml", "[project]\nname = \"x\"\n", "pyproject.toml:1: no [tool.cancelaudit] table");
    expect_error("pyproject.toml", "[tool]\ncancelaudit = 1\n", "pyproject.toml:2: 'tool.cancelaudit' must be a table");
}

static void test_errors(void)
{
    expect_error("pyproject.toml", "[tool.cancelaudit]\nselect = [\"CAN1\"]\n\nstrcit = true\n",
                 "pyproject.toml:4: unknown key 'strcit' in [tool.cancelaudit] (did you mean 'strict'?)");
    expect_error("pyproject.toml", "[tool.cancelaudit]\nmax_size = 10\n",
                 "pyproject.toml:2: unknown key 'max_size' in [tool.cancelaudit] (did you mean 'max-size'?)");
    expect_error("cancelaudit.toml", "\nflavour = 1\n", "cancelaudit.toml:2: unknown key 'flavour' in the top-level table");
    expect_error("pyproject.toml", "[tool.cancelaudit]\nstrict = \"yes\"\n",
                 "pyproject.toml:2: 'strict' must be a boolean (true or false), not a string");
    expect_error("cancelaudit.toml", "select = 101\n", "cancelaudit.toml:1: 'select' must be an array of strings or a comma-separated string, not an integer");
    expect_error("cancelaudit.toml", "select = [\n  \"CAN101\",\n  7,\n]\n", "cancelaudit.toml:3: 'select' must be");
    expect_error("cancelaudit.toml", "select = [\"CAN999\"]\n", "cancelaudit.toml:1: unknown rule 'CAN999' in 'select'");
    expect_error("cancelaudit.toml", "ignore = \"CAN101, XYZ\"\n", "unknown rule 'XYZ' in 'ignore'");
    expect_error("cancelaudit.toml", "ignore = \"CAN101,  ,\"\n", "");
    expect_error("cancelaudit.toml", "exclude = 3\n", "cancelaudit.toml:1: 'exclude' must be a string or an array of strings, not an integer");
    expect_error("cancelaudit.toml", "exclude = [\"\"]\n", "'exclude' holds an empty entry");
    expect_error("cancelaudit.toml", "max-size = \"10MB\"\n", "'max-size' must be an integer, not a string");
    expect_error("cancelaudit.toml", "max-size = 0\n", "'max-size' must be between 1 and");
    expect_error("cancelaudit.toml", "jobs = 5000\n", "'jobs' must be between 0 and 1024");
    expect_error("cancelaudit.toml", "jobs = 1.5\n", "'jobs' must be an integer, not a float");
    expect_error("cancelaudit.toml", "file-timeout = \"60\"\n", "'file-timeout' must be a number of seconds, not a string");
    expect_error("cancelaudit.toml", "file-timeout = -1\n", "'file-timeout' must be between 0 (no limit) and");
    expect_error("cancelaudit.toml", "file-memory = \"2Q\"\n", "'file-memory' must be a number of MiB or a size");
    expect_error("cancelaudit.toml", "file-memory = true\n", "'file-memory' must be a number of MiB or a size such as \"2G\" or \"512M\", not a boolean");
    expect_error("cancelaudit.toml", "file-memory = -5\n", "'file-memory' must be between 0 (no limit)");
    expect_error("cancelaudit.toml", "acquirers = { pattern = \"x\" }\n", "'acquirers' must be an array");
    expect_error("cancelaudit.toml", "acquirers = [\"ok\", 3]\n", "'acquirers' must be an array of strings or of {pattern");
    expect_error("cancelaudit.toml", "acquirers = [{ kind = \"x\" }]\n", "cancelaudit.toml:1: 'acquirers' item 1 needs a 'pattern'");
    expect_error("cancelaudit.toml", "acquirers = [\n{ pattern = \"x\", knd = \"y\" }]\n",
                 "cancelaudit.toml:2: unknown key 'knd' in 'acquirers' item 1 (pattern, kind) (did you mean 'kind'?)");
    expect_error("cancelaudit.toml", "acquirers = [{ pattern = 1 }]\n", "'pattern' must be a non-empty string");
    expect_error("cancelaudit.toml", "releasers = [true]\n", "'releasers' must be a string or an array of strings: item 1 is a boolean");
    expect_error("cancelaudit.toml", "registries = [\"a.register\"]\n", "'registries' entries are call names without dots");
    expect_error("cancelaudit.toml", "backends = \"x\"\n", "'backends' must be a table");
    expect_error("cancelaudit.toml", "[backends]\nx = 1\n", "cancelaudit.toml:2: 'backends.x' must be a string or an array of strings, not an integer");
    expect_error("cancelaudit.toml", "[backends.x]\nglob = \"y\"\n", "'backends.x' must be a string or an array of strings, not a table");
    /* TOML syntax errors carry the column too */
    expect_error("cancelaudit.toml", "strict = true\nstrict = false\n", "cancelaudit.toml:2:1: duplicate key 'strict'");
    expect_error("cancelaudit.toml", "select = [\"CAN1\"\n", "cancelaudit.toml:1:10: unterminated array");
    /* unreadable */
    ca_config c;
    ca_config_init(&c);
    char *err = NULL;
    CHECK(ca_config_load("missing.toml", &c, &err) == -1);
    CHECK(err && strstr(err, "missing.toml: ") == err);
    free(err);
    err = NULL;
    mkdir("adir", 0755);
    CHECK(ca_config_load("adir", &c, &err) == -1);
    CHECK(err && strstr(err, "not a regular file"));
    free(err);
}

static void test_limits(void)
{
    ca_config c;
    char *err = load_text("cancelaudit.toml", "file-timeout = 0\nfile-memory = 1024\n", &c);
    CHECK(err == NULL);
    free(err);
    CHECK(c.file_timeout == 0);
    CHECK_EQ(c.file_memory, (int64_t)1 << 30);
    ca_config_free(&c);
    CHECK(c.file_timeout == -1 && c.file_memory == -1); /* unset again */

    double t = -1;
    CHECK(ca_config_parse_seconds("60", &t) == 0 && t == 60);
    CHECK(ca_config_parse_seconds("2.5", &t) == 0 && t == 2.5);
    CHECK(ca_config_parse_seconds("0", &t) == 0 && t == 0);
    const char *bad_t[] = {"", "x", "-1", "1e3", " 5", "5 ", "inf", "nan", "0x10", "5s"};
    for (size_t i = 0; i < sizeof(bad_t) / sizeof(bad_t[0]); i++) CHECK(ca_config_parse_seconds(bad_t[i], &t) == -1);
    int64_t m = -1;
    CHECK(ca_config_parse_memory("2048", &m) == 0 && m == (int64_t)2 << 30); /* MiB */
    CHECK(ca_config_parse_memory("2G", &m) == 0 && m == (int64_t)2 << 30);
    CHECK(ca_config_parse_memory("2GiB", &m) == 0 && m == (int64_t)2 << 30);
    CHECK(ca_config_parse_memory("512M", &m) == 0 && m == (int64_t)512 << 20);
    CHECK(ca_config_parse_memory("1.5GiB", &m) == 0 && m == (int64_t)3 << 29);
    CHECK(ca_config_parse_memory("64KiB", &m) == 0 && m == 65536);
    CHECK(ca_config_parse_memory("0", &m) == 0 && m == 0);
    const char *bad_m[] = {"", "x", "-1", "2Q", "2 G", "1e3", "inf", "2g", "99999999999T"};
    for (size_t i = 0; i < sizeof(bad_m) / sizeof(bad_m[0]); i++) CHECK(ca_config_parse_memory(bad_m[i], &m) == -1);
}

static void test_discovery(void)
{
    /* repo/.git, repo/pyproject.toml (with the table), repo/a/pyproject.toml
     * (without), repo/a/b/code.py; above the repo a configuration that must
     * never be reached from inside it. */
    char *top = ca_xasprintf("%s/disc", root);
    char *repo = ca_xasprintf("%s/repo", top);
    char *deep = ca_xasprintf("%s/a/b", repo);
    mkdirs(deep);
    char *p = ca_xasprintf("%s/.git", repo);
    mkdirs(p);
    free(p);
    p = ca_xasprintf("%s/cancelaudit.toml", top);
    write_file(p, "strict = true\n");
    free(p);
    p = ca_xasprintf("%s/pyproject.toml", repo);
    write_file(p, "[tool.cancelaudit]\nselect = [\"CAN2\"]\nexclude = [\"a/b/gen/*\"]\n");
    free(p);
    p = ca_xasprintf("%s/a/pyproject.toml", repo);
    write_file(p, "[project]\nname = \"inner\"\n[tool.black]\nline-length = 80\n");
    free(p);
    char *code = ca_xasprintf("%s/code.py", deep);
    write_file(code, "async def f():\n    pass\n");

    ca_config c;
    ca_config_init(&c);
    char *err = NULL;
    CHECK(ca_config_discover(code, &c, &err) == 0);
    CHECK(err == NULL);
    char *want = ca_xasprintf("%s/pyproject.toml", repo);
    CHECK_STR_EQ(c.abs_path, want);
    CHECK_STR_EQ(c.path, "disc/repo/pyproject.toml"); /* shown relative to the cwd */
    CHECK_STR_EQ(c.select, "CAN2");
    CHECK_EQ(c.nexcludes, 1);
    if (c.nexcludes) CHECK_STR_EQ(c.excludes[0], "disc/repo/a/b/gen/*");
    ca_config_free(&c);

    /* from a directory start, and from inside the tree as the cwd */
    CHECK(chdir(deep) == 0);
    ca_config_init(&c);
    CHECK(ca_config_discover(NULL, &c, &err) == 0);
    CHECK_STR_EQ(c.abs_path, want);
    CHECK_STR_EQ(c.path, want); /* above the cwd: absolute */
    if (c.nexcludes) CHECK_STR_EQ(c.excludes[0], "gen/*");
    ca_config_free(&c);
    ca_config_init(&c);
    CHECK(ca_config_discover("does/not/exist.py", &c, &err) == 0);
    CHECK_STR_EQ(c.abs_path, want);
    ca_config_free(&c);

    /* a nearer cancelaudit.toml wins */
    p = ca_xasprintf("%s/a/cancelaudit.toml", repo);
    write_file(p, "ignore = [\"CAN4\"]\n");
    ca_config_init(&c);
    CHECK(ca_config_discover(".", &c, &err) == 0);
    CHECK_STR_EQ(c.abs_path, p);
    CHECK_STR_EQ(c.ignore, "CAN4");
    ca_config_free(&c);
    unlink(p);
    free(p);

    /* without the repository's file the walk stops at the repository root */
    p = ca_xasprintf("%s/pyproject.toml", repo);
    unlink(p);
    ca_config_init(&c);
    CHECK(ca_config_discover(code, &c, &err) == 0);
    CHECK(c.path == NULL);
    ca_config_free(&c);
    /* ... and goes on above a directory that is no repository */
    char *git = ca_xasprintf("%s/.git", repo);
    rmdir(git);
    ca_config_init(&c);
    CHECK(ca_config_discover(code, &c, &err) == 0);
    char *above = ca_xasprintf("%s/cancelaudit.toml", top);
    CHECK_STR_EQ(c.abs_path, above);
    CHECK_EQ(c.strict, 1);
    ca_config_free(&c);

    /* an invalid file found on the way is an error naming it */
    write_file(p, "[tool.cancelaudit]\nbogus = 1\n");
    ca_config_init(&c);
    CHECK(ca_config_discover(code, &c, &err) == -1);
    CHECK(err && strstr(err, "pyproject.toml:2: unknown key 'bogus' in [tool.cancelaudit]"));
    CHECK(c.path == NULL);
    free(err);
    err = NULL;
    /* a pyproject.toml with broken TOML is an error even without the table */
    write_file(p, "[project\n");
    ca_config_init(&c);
    CHECK(ca_config_discover(code, &c, &err) == -1);
    CHECK(err && strstr(err, "pyproject.toml:1:9: "));
    free(err);
    unlink(p);

    CHECK(chdir(root) == 0);
    free(above);
    free(git);
    free(p);
    free(want);
    free(code);
    free(deep);
    free(repo);
    free(top);
}

static void test_rebase(void)
{
    char *g;
#define REBASE(glob, cfg, cwd, want)                   \
    g = ca_config_rebase_glob(glob, cfg, cwd);         \
    CHECK_STR_EQ(g, want);                             \
    free(g)
    REBASE("build", "/p", "/p/sub", "build");           /* component globs match anywhere */
    REBASE("*.gen.py", "/p", "/x", "*.gen.py");
    REBASE("tests/*", "/p", "/p", "tests/*");
    REBASE("./tests/*", "/p", "/p", "tests/*");
    REBASE("tests/*", "/p/proj", "/p", "proj/tests/*"); /* config below the cwd */
    REBASE("tests/*", "/", "/p", "../tests/*");
    REBASE("sub/gen/*", "/p", "/p/sub", "gen/*");       /* config above the cwd */
    REBASE("other/gen/*", "/p", "/p/sub/dir", "../../other/gen/*");
    REBASE("*/gen/*", "/p", "/p/sub", "*/gen/*");
    REBASE("sub/gen/*", "/", "/sub", "gen/*");
    REBASE("a/b", "/q", "/p", "a/b");                   /* unrelated directories */
    REBASE("/abs/x", "/p", "/p/s", "/abs/x");
    REBASE("subx/y", "/p", "/p/sub", "../subx/y");
#undef REBASE
}

static void test_per_file_ignores(void)
{
    mkdirs("pfi/sub");
    ca_config c;
    char *err = load_text("pfi/cancelaudit.toml",
                          "[per-file-ignores]\n"
                          "\"tests\" = [\"CAN\"]\n"
                          "\"test_*.py\" = \"CAN101, CAN102\"\n"
                          "\"legacy/*\" = [\"CAN4\"]\n"
                          "\"empty\" = []\n",
                          &c);
    CHECK(err == NULL);
    free(err);
    CHECK(c.nfile_ignores == 3);
    /* a directory component anywhere, a file name anywhere */
    CHECK(ca_config_file_ignored(&c, "src/tests/x.py", "CAN301"));
    CHECK(ca_config_file_ignored(&c, "./tests/x.py", "CAN101"));
    CHECK(ca_config_file_ignored(&c, "a/test_b.py", "CAN102"));
    CHECK(!ca_config_file_ignored(&c, "a/test_b.py", "CAN301"));
    CHECK(!ca_config_file_ignored(&c, "a/b.py", "CAN101"));
    CHECK(!ca_config_file_ignored(&c, "a/testsuite.py", "CAN101"));
    /* with '/': relative to the file's directory (pfi/), as seen from the cwd */
    CHECK(ca_config_file_ignored(&c, "pfi/legacy/old.py", "CAN401"));
    CHECK(!ca_config_file_ignored(&c, "legacy/old.py", "CAN401"));
    CHECK(!ca_config_file_ignored(&c, "pfi/legacy/old.py", "CAN101"));
    CHECK(!ca_config_file_ignored(NULL, "tests/x.py", "CAN101"));
    ca_config_free(&c);
    expect_error("pfi/bad.toml", "[per-file-ignores]\n\"x\" = [\"CNA101\"]\n", "did you mean 'CAN101'?");
    expect_error("pfi/bad.toml", "per-file-ignores = \"tests\"\n", "'per-file-ignores' must be a table");
    expect_error("pfi/bad.toml", "output-format = \"pretty\"\n", "'output-format' must be one of");
    err = load_text("pfi/fmt.toml", "output-format = \"concise\"\n", &c);
    CHECK(err == NULL && c.output_format && strcmp(c.output_format, "concise") == 0);
    free(err);
    ca_config_free(&c);
}

static void test_project_root(void)
{
    mkdirs("roots/repo/.git");
    mkdirs("roots/repo/pkg/deep");
    mkdirs("roots/repo/tool/x");
    write_file("roots/repo/tool/pyproject.toml", "[tool.black]\nline-length = 99\n");
    write_file("roots/repo/pkg/pyproject.toml", "[tool.cancelaudit]\nstrict = true\n");
    write_file("roots/repo/pkg/deep/m.py", "x = 1\n");
    const char *why = NULL;
    char *want = ca_xasprintf("%s/roots/repo/pkg", root);
    char *got = ca_config_project_root("roots/repo/pkg/deep/m.py", &why);
    CHECK_STR_EQ(got, want);
    CHECK_STR_EQ(why, "pyproject.toml with [tool.cancelaudit]");
    free(got);
    free(want);
    /* a pyproject.toml of another tool is not ours: .git decides */
    want = ca_xasprintf("%s/roots/repo", root);
    got = ca_config_project_root("roots/repo/tool/x", &why);
    CHECK_STR_EQ(got, want);
    CHECK_STR_EQ(why, ".git");
    free(got);
    free(want);
    mkdirs("roots/plain/a");
    write_file("roots/plain/cancelaudit.toml", "strict = false\n");
    want = ca_xasprintf("%s/roots/plain", root);
    got = ca_config_project_root("roots/plain/a", &why);
    CHECK_STR_EQ(got, want);
    CHECK_STR_EQ(why, "cancelaudit.toml");
    free(got);
    free(want);
}

int main(void)
{
    char tmpl[] = "/tmp/ca_test_XXXXXX";
    if (!mkdtemp(tmpl)) {
        perror("mkdtemp");
        return 1;
    }
    char *rp = realpath(tmpl, NULL);
    snprintf(root, sizeof(root), "%s", rp ? rp : tmpl);
    free(rp);
    if (chdir(root) != 0) return 1;
    test_every_key();
    test_pyproject_form();
    test_errors();
    test_limits();
    test_discovery();
    test_rebase();
    test_per_file_ignores();
    test_project_root();
    char *cmd = ca_xasprintf("rm -rf '%s'", root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
    free(cmd);
    CA_TEST_MAIN();
}
