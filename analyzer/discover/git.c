/*
 * git.c — implementation of git.h: running git without a shell, parsing
 * `git diff --unified=0` hunk headers into per-file line ranges, and mapping
 * the repository-relative paths git prints onto cwd-relative ones.
 */
#include "discover/git.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- running git -------------------------------------------------------- */

#define GIT_NOT_FOUND (-1)
#define GIT_FAILED (-2)

/* The first executable "git" on PATH (heap), or NULL. */
static char *find_git(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    const char *s = path;
    for (;;) {
        const char *e = strchr(s, ':');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        char *cand = n ? ca_xasprintf("%.*s/git", (int)n, s) : ca_xstrdup("./git");
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) return cand;
        free(cand);
        if (!e) return NULL;
        s = e + 1;
    }
}

/*
 * Run git with `args` (NULL-terminated, without the program name), stdout
 * collected into *out when out is non-NULL. Returns git's exit status,
 * GIT_NOT_FOUND when there is no git on PATH, GIT_FAILED when it could not
 * be started or was killed by a signal.
 */
static int run_git(const char *const *args, ca_sb *out)
{
    char *git = find_git();
    if (!git) return GIT_NOT_FOUND;

    /* Everything the child needs is built before fork: after it, in a
     * process with threads, only async-signal-safe calls are allowed. */
    CA_VEC(char *) argv = {0};
    CA_VEC_PUSH(argv, (char *)"git");
    for (size_t i = 0; args[i]; i++) CA_VEC_PUSH(argv, (char *)args[i]);
    CA_VEC_PUSH(argv, (char *)NULL);
    CA_VEC(char *) envp = {0};
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, "GIT_OPTIONAL_LOCKS=", 19) != 0) CA_VEC_PUSH(envp, *e);
    CA_VEC_PUSH(envp, (char *)"GIT_OPTIONAL_LOCKS=0");
    CA_VEC_PUSH(envp, (char *)NULL);

    int rc = GIT_FAILED;
    int fds[2] = {-1, -1};
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0 || pipe(fds) != 0) goto done;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);

    pid_t pid = fork();
    if (pid < 0) goto done;
    if (pid == 0) {
        /* dup2 clears close-on-exec on the copies. */
        if (dup2(devnull, 0) < 0 || dup2(fds[1], 1) < 0 || dup2(devnull, 2) < 0) _exit(127);
        execve(git, argv.v, envp.v);
        _exit(127);
    }
    close(fds[1]);
    fds[1] = -1;
    char buf[65536];
    for (;;) {
        ssize_t r = read(fds[0], buf, sizeof(buf));
        if (r < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (r == 0) break;
        if (out) ca_sb_add(out, buf, (size_t)r);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            status = -1;
            break;
        }
    }
    if (status != -1 && WIFEXITED(status)) rc = WEXITSTATUS(status);
done:
    if (fds[0] >= 0) close(fds[0]);
    if (fds[1] >= 0) close(fds[1]);
    if (devnull >= 0) close(devnull);
    CA_VEC_FREE(argv);
    CA_VEC_FREE(envp);
    free(git);
    return rc;
}

static void chomp(ca_sb *sb)
{
    while (sb->len && (sb->buf[sb->len - 1] == '\n' || sb->buf[sb->len - 1] == '\r')) sb->buf[--sb->len] = 0;
}

static int is_object_id(const char *s)
{
    size_t n = strlen(s);
    if (n != 40 && n != 64) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    return 1;
}

/* Whether git could see a repository from dir: a `.git` (directory, or a
 * file naming one) in dir or an ancestor, or GIT_DIR set. Saves starting
 * git for the many trees that are not checkouts; git itself decides the
 * rest (worktrees, safe.directory, ceilings). */
static int may_be_repo(const char *dir)
{
    if (getenv("GIT_DIR")) return 1;
    char *abs = realpath(dir, NULL);
    if (!abs) return 1; /* let git say */
    size_t n = strlen(abs);
    int found = 0;
    for (;;) {
        char *probe = ca_xasprintf("%.*s/.git", (int)n, abs);
        struct stat st;
        found = stat(probe, &st) == 0;
        free(probe);
        if (found || n <= 1) break;
        while (n > 1 && abs[n - 1] != '/') n--;
        if (n > 1) n--; /* drop the '/' too, unless it is the root */
        if (n == 1 && abs[0] == '/') {
            struct stat rt;
            found = stat("/.git", &rt) == 0;
            break;
        }
    }
    free(abs);
    return found;
}

char *ca_git_rev(const char *dir)
{
    /* a scanned file: git -C needs its directory */
    struct stat st;
    char *parent = NULL;
    if (dir && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        const char *slash = strrchr(dir, '/');
        parent = slash ? ca_xstrndup(dir, slash == dir ? 1 : (size_t)(slash - dir)) : ca_xstrdup(".");
        dir = parent;
    }
    if (!may_be_repo(dir ? dir : ".")) {
        free(parent);
        return NULL;
    }
    const char *args[] = {"-C", dir ? dir : ".", "rev-parse", "--verify", "-q", "HEAD^{commit}", NULL};
    ca_sb out = {0};
    int rc = run_git(args, &out);
    free(parent);
    chomp(&out);
    if (rc != 0 || !is_object_id(ca_sb_str(&out))) {
        ca_sb_release(&out);
        return NULL;
    }
    return ca_sb_detach(&out);
}

/* ---- the changed-lines set ---------------------------------------------- */

typedef struct line_range {
    int first, last; /* inclusive */
} line_range;

typedef struct changed_file {
    char *path; /* NULL = empty slot */
    int whole;
    CA_VEC(line_range) ranges;
} changed_file;

struct ca_changed_lines {
    changed_file *slots; /* open addressing, power-of-two size */
    size_t nslots, used;
};

static size_t file_slot(const ca_changed_lines *c, const char *path)
{
    size_t i = (size_t)ca_hash64(path, strlen(path), CA_HASH_SEED) & (c->nslots - 1);
    while (c->slots[i].path && strcmp(c->slots[i].path, path) != 0) i = (i + 1) & (c->nslots - 1);
    return i;
}

static changed_file *file_get(ca_changed_lines *c, const char *path)
{
    size_t i = file_slot(c, path);
    if (c->slots[i].path) return &c->slots[i];
    if ((c->used + 1) * 2 > c->nslots) {
        changed_file *old = c->slots;
        size_t oldn = c->nslots;
        c->nslots *= 2;
        c->slots = ca_xcalloc(c->nslots, sizeof(*c->slots));
        for (size_t k = 0; k < oldn; k++)
            if (old[k].path) c->slots[file_slot(c, old[k].path)] = old[k];
        free(old);
        i = file_slot(c, path);
    }
    c->slots[i].path = ca_xstrdup(path);
    c->used++;
    return &c->slots[i];
}

static int cmp_range(const void *a, const void *b)
{
    const line_range *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

/* Sort and merge each file's ranges so lookups can bisect. */
static void finish_ranges(ca_changed_lines *c)
{
    for (size_t i = 0; i < c->nslots; i++) {
        changed_file *f = &c->slots[i];
        if (!f->path || f->ranges.n < 2) continue;
        qsort(f->ranges.v, f->ranges.n, sizeof(*f->ranges.v), cmp_range);
        size_t k = 0;
        for (size_t j = 1; j < f->ranges.n; j++) {
            if (f->ranges.v[j].first <= f->ranges.v[k].last + 1) {
                if (f->ranges.v[j].last > f->ranges.v[k].last) f->ranges.v[k].last = f->ranges.v[j].last;
            } else {
                f->ranges.v[++k] = f->ranges.v[j];
            }
        }
        f->ranges.n = k + 1;
    }
}

void ca_changed_lines_free(ca_changed_lines *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->nslots; i++) {
        free(c->slots[i].path);
        CA_VEC_FREE(c->slots[i].ranges);
    }
    free(c->slots);
    free(c);
}

int ca_changed_has(const ca_changed_lines *c, const char *path, int line)
{
    if (!c || !path) return 0;
    while (path[0] == '.' && path[1] == '/') {
        path += 2;
        while (*path == '/') path++;
    }
    size_t i = file_slot(c, path);
    const changed_file *f = &c->slots[i];
    if (!f->path) return 0;
    if (f->whole) return 1;
    size_t lo = 0, hi = f->ranges.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (line < f->ranges.v[mid].first)
            hi = mid;
        else if (line > f->ranges.v[mid].last)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

/* ---- paths -------------------------------------------------------------- */

/* A path relative to the repository top made relative to the cwd, whose
 * own top-relative prefix is `prefix` ("" or "sub/dir/"). Heap string. */
static char *top_to_cwd(const char *top_rel, const char *prefix)
{
    const char *p = top_rel, *q = prefix;
    /* Strip the leading directories the two share. */
    for (;;) {
        const char *qe = strchr(q, '/');
        if (!qe) break;
        size_t n = (size_t)(qe - q);
        if (strncmp(p, q, n) == 0 && p[n] == '/') {
            p += n + 1;
            q = qe + 1;
        } else {
            break;
        }
    }
    ca_sb sb = {0};
    for (const char *s = q; *s; s++)
        if (*s == '/') ca_sb_adds(&sb, "../");
    ca_sb_adds(&sb, p);
    return ca_sb_detach(&sb);
}

/* A path as git prints it in a diff header: either plain, or in double
 * quotes with C escapes. Writes the decoded text to out. */
static void decode_git_path(const char *s, size_t n, ca_sb *out)
{
    if (n < 2 || s[0] != '"' || s[n - 1] != '"') {
        /* git pads a name holding a space with a tab for patch(1). */
        if (n && s[n - 1] == '\t') n--;
        ca_sb_add(out, s, n);
        return;
    }
    for (size_t i = 1; i + 1 < n; i++) {
        char ch = s[i];
        if (ch != '\\' || i + 2 >= n) {
            ca_sb_addc(out, ch);
            continue;
        }
        char e = s[++i];
        switch (e) {
        case 'a': ca_sb_addc(out, '\a'); break;
        case 'b': ca_sb_addc(out, '\b'); break;
        case 't': ca_sb_addc(out, '\t'); break;
        case 'n': ca_sb_addc(out, '\n'); break;
        case 'v': ca_sb_addc(out, '\v'); break;
        case 'f': ca_sb_addc(out, '\f'); break;
        case 'r': ca_sb_addc(out, '\r'); break;
        default:
            if (e >= '0' && e <= '3' && i + 2 < n - 1 && s[i + 1] >= '0' && s[i + 1] <= '7' && s[i + 2] >= '0' &&
                s[i + 2] <= '7') {
                ca_sb_addc(out, (char)(((e - '0') << 6) | ((s[i + 1] - '0') << 3) | (s[i + 2] - '0')));
                i += 2;
            } else {
                ca_sb_addc(out, e); /* \" and \\ */
            }
        }
    }
}

/* Parse a decimal at *s; advances *s. */
static long parse_num(const char **s)
{
    long v = 0;
    while (**s >= '0' && **s <= '9') {
        if (v < 100000000) v = v * 10 + (**s - '0');
        (*s)++;
    }
    return v;
}

/* "@@ -a[,b] +c[,d] @@": the old count b and the new start c, count d. */
static int parse_hunk(const char *line, long *old_n, long *new_start, long *new_n)
{
    const char *s = line + 3;
    if (*s != '-') return 0;
    s++;
    parse_num(&s);
    *old_n = 1;
    if (*s == ',') {
        s++;
        *old_n = parse_num(&s);
    }
    if (*s != ' ' || s[1] != '+') return 0;
    s += 2;
    *new_start = parse_num(&s);
    *new_n = 1;
    if (*s == ',') {
        s++;
        *new_n = parse_num(&s);
    }
    return *s == ' ';
}

static void parse_diff(ca_changed_lines *c, const char *text, size_t len, const char *prefix)
{
    changed_file *cur = NULL;
    long rem_old = 0, rem_new = 0;
    const char *s = text, *end = text + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        const char *next = nl ? nl + 1 : end;

        if (rem_old > 0 || rem_new > 0) {
            /* Hunk body: counted, so a body line such as "+++ x" is never
             * taken for a header. */
            char k = n ? s[0] : ' ';
            if (k == '+') {
                rem_new--;
                s = next;
                continue;
            }
            if (k == '-') {
                rem_old--;
                s = next;
                continue;
            }
            if (k == ' ') {
                rem_old--;
                rem_new--;
                s = next;
                continue;
            }
            if (k == '\\') {
                s = next;
                continue;
            }
            rem_old = rem_new = 0; /* malformed: resync on headers */
        }
        if (n >= 11 && memcmp(s, "diff --git ", 11) == 0) {
            cur = NULL;
        } else if (n >= 4 && memcmp(s, "+++ ", 4) == 0) {
            cur = NULL;
            ca_sb raw = {0};
            decode_git_path(s + 4, n - 4, &raw);
            const char *p = ca_sb_str(&raw);
            if (strncmp(p, "b/", 2) == 0) {
                char *rel = top_to_cwd(p + 2, prefix);
                cur = file_get(c, rel);
                free(rel);
            }
            ca_sb_release(&raw);
        } else if (n >= 3 && memcmp(s, "@@ ", 3) == 0) {
            long old_n = 0, start = 0, count = 0;
            char *line = ca_xstrndup(s, n);
            if (parse_hunk(line, &old_n, &start, &count)) {
                rem_old = old_n;
                rem_new = count;
                if (cur && count > 0 && start > 0) {
                    line_range r = {(int)start, (int)(start + count - 1)};
                    CA_VEC_PUSH(cur->ranges, r);
                }
            }
            free(line);
        }
        s = next;
    }
}

static void add_untracked(ca_changed_lines *c, const char *text, size_t len, const char *prefix)
{
    const char *s = text, *end = text + len;
    while (s < end) {
        const char *z = memchr(s, '\0', (size_t)(end - s));
        size_t n = z ? (size_t)(z - s) : (size_t)(end - s);
        if (n) {
            char *p = ca_xstrndup(s, n);
            char *rel = top_to_cwd(p, prefix);
            file_get(c, rel)->whole = 1;
            free(rel);
            free(p);
        }
        s = z ? z + 1 : end;
    }
}

static int fail(char **err, char *msg)
{
    if (err)
        *err = msg;
    else
        free(msg);
    return 2;
}

int ca_git_changed_lines(const char *rev, ca_changed_lines **out, char **err)
{
    *out = NULL;
    if (err) *err = NULL;

    ca_sb prefix = {0};
    const char *prefix_args[] = {"rev-parse", "--show-prefix", NULL};
    int rc = run_git(prefix_args, &prefix);
    if (rc == GIT_NOT_FOUND) {
        ca_sb_release(&prefix);
        return fail(err, ca_xstrdup("git is not installed (no git on PATH)"));
    }
    if (rc != 0) {
        ca_sb_release(&prefix);
        return fail(err, ca_xstrdup("not inside a git repository"));
    }
    chomp(&prefix);

    /* A revision that looks like an option would be read as one. */
    if (!rev || !rev[0] || rev[0] == '-') {
        ca_sb_release(&prefix);
        return fail(err, ca_xasprintf("unknown revision '%s'", rev ? rev : ""));
    }
    char *spec = ca_xasprintf("%s^{commit}", rev);
    const char *verify_args[] = {"rev-parse", "--verify", "-q", spec, NULL};
    ca_sb commit = {0};
    rc = run_git(verify_args, &commit);
    free(spec);
    chomp(&commit);
    if (rc != 0 || !is_object_id(ca_sb_str(&commit))) {
        ca_sb_release(&commit);
        ca_sb_release(&prefix);
        return fail(err, ca_xasprintf("unknown revision '%s'", rev));
    }

    const char *diff_args[] = {"-c", "core.quotePath=false", "-c", "diff.relative=false",
                               "diff", "--unified=0", "--no-color", "--no-ext-diff", "--no-textconv",
                               "--src-prefix=a/", "--dst-prefix=b/", ca_sb_str(&commit), "--", NULL};
    ca_sb diff = {0};
    rc = run_git(diff_args, &diff);
    if (rc != 0) {
        ca_sb_release(&diff);
        ca_sb_release(&commit);
        ca_sb_release(&prefix);
        return fail(err, ca_xasprintf("git diff %s failed (exit status %d)", rev, rc));
    }

    ca_changed_lines *c = ca_xcalloc(1, sizeof(*c));
    c->nslots = 64;
    c->slots = ca_xcalloc(c->nslots, sizeof(*c->slots));
    parse_diff(c, diff.buf ? diff.buf : "", diff.len, ca_sb_str(&prefix));

    /* Not yet added files: the whole file is new. A failure here only loses
     * that extra, so it is not an error. */
    const char *others_args[] = {"ls-files", "--others", "--exclude-standard", "-z", "--full-name", "--", ":/", NULL};
    ca_sb others = {0};
    if (run_git(others_args, &others) == 0) add_untracked(c, others.buf ? others.buf : "", others.len, ca_sb_str(&prefix));
    finish_ranges(c);

    ca_sb_release(&others);
    ca_sb_release(&diff);
    ca_sb_release(&commit);
    ca_sb_release(&prefix);
    *out = c;
    return 0;
}
