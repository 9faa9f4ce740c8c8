/*
 * cli_output.c — the check every subcommand that writes an --output file
 * makes before it writes anything: that the file is not the store.
 *
 * `scan -o .cancelaudit/audit.db` used to overwrite the database with the
 * report, all history gone. The output is refused when it resolves to the
 * database or one of SQLite's files beside it (-wal, -shm, -journal): the
 * same file (device and inode, through any symlink or hard link), or, for
 * files not there yet, the same path once the directory is resolved. The
 * database path is protected whether or not this run opens it (--no-db,
 * `baseline`): a report there would still destroy the history.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/util.h"

/* path made absolute with its directory resolved (symlinks and ..), the
 * last component kept as written; heap. */
static char *resolved(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? ca_xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : ca_xstrdup(".");
    const char *base = slash ? slash + 1 : path;
    char buf[PATH_MAX];
    char *out;
    if (realpath(dir, buf)) out = ca_xasprintf("%s/%s", strcmp(buf, "/") == 0 ? "" : buf, base);
    else if (path[0] == '/') out = ca_xstrdup(path);
    else if (getcwd(buf, sizeof(buf))) out = ca_xasprintf("%s/%s", buf, path);
    else out = ca_xstrdup(path);
    free(dir);
    return out;
}

static int same_file(const char *a, const struct stat *sa, const char *b)
{
    struct stat sb;
    if (sa && stat(b, &sb) == 0 && sa->st_dev == sb.st_dev && sa->st_ino == sb.st_ino) return 1;
    char *ra = resolved(a), *rb = resolved(b);
    int same = strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

int cli_refuse_store_output(const char *option, const char *output, const char *db)
{
    if (!output || !db || strcmp(db, ":memory:") == 0 || strcmp(output, "-") == 0) return 0;
    struct stat so;
    const struct stat *sop = stat(output, &so) == 0 ? &so : NULL;
    static const char *const sides[] = {"", "-wal", "-shm", "-journal"};
    /* SQLite names its side files after the database's real path when the
     * one given is a symlink */
    char real[PATH_MAX];
    const char *names[2] = {db, realpath(db, real) ? real : db};
    for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]) * 2; i++) {
        char *file = ca_xasprintf("%s%s", names[i & 1], sides[i / 2]);
        int hit = same_file(output, sop, file);
        free(file);
        if (!hit) continue;
        i /= 2;
        const char *what = i == 0 ? "the database" : i == 3 ? "the journal of the database"
                                                            : "a file SQLite keeps beside the database";
        fprintf(stderr, "cancelaudit: %s %s is %s %s: writing there would destroy the scan history; "
                        "choose another file\n",
                option, output, what, db);
        return 2;
    }
    return 0;
}
