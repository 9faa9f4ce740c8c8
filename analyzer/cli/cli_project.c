/*
 * cli_project.c — where a command keeps its store when --db does not say.
 *
 * As ruff keeps one cache at the project root, scanning from a
 * subdirectory uses the store of the project it belongs to, not a second
 * `.cancelaudit/` next to the shell: the root is the nearest directory at
 * or above the scanned path that holds a cancelaudit configuration or
 * `.git` (config.h's ca_config_project_root). The readers (matrix, report,
 * diff) look up from the current directory, so they find the store a scan
 * from anywhere in the project wrote. $CANCELAUDIT_DB overrides the
 * default for every command; --db overrides both.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/config.h"
#include "util/util.h"

char *cli_shown_path(const char *path)
{
    char cwd[PATH_MAX];
    if (!path) return ca_xstrdup("");
    if (path[0] != '/' || !getcwd(cwd, sizeof(cwd))) return ca_xstrdup(path);
    size_t n = strlen(cwd);
    if (strcmp(cwd, "/") != 0 && strncmp(path, cwd, n) == 0 && path[n] == '/' && path[n + 1])
        return ca_xstrdup(path + n + 1);
    return ca_xstrdup(path);
}

char *cli_default_db(const char *start, char **why)
{
    const char *env = getenv("CANCELAUDIT_DB");
    if (env && *env) {
        if (why) *why = ca_xstrdup("from $CANCELAUDIT_DB");
        return ca_xstrdup(env);
    }
    const char *what = NULL;
    char *root = ca_config_project_root(start, &what);
    char cwd[PATH_MAX];
    if (!root || !getcwd(cwd, sizeof(cwd))) {
        if (why) *why = ca_xstrdup("no cancelaudit configuration or .git above it: the current directory's");
        free(root);
        return ca_xstrdup(CA_DEFAULT_DB);
    }
    char *real_cwd = realpath(cwd, NULL);
    char *db;
    if (real_cwd && strcmp(real_cwd, root) == 0) db = ca_xstrdup(CA_DEFAULT_DB);
    else db = ca_xasprintf("%s%s%s", root, strcmp(root, "/") == 0 ? "" : "/", CA_DEFAULT_DB);
    if (why) {
        char *shown = cli_shown_path(root);
        *why = ca_xasprintf("the project root %s holds %s", real_cwd && strcmp(real_cwd, root) == 0 ? "." : shown,
                            what);
        free(shown);
    }
    free(real_cwd);
    free(root);
    return db;
}
