/*
 * git.h — the little the scan needs from git: the revision of the checkout
 * being scanned (recorded with each scan, DESIGN §5) and the lines changed
 * since a revision (`scan --changed-since REV`, DESIGN §6).
 *
 * git is run with fork/exec (never a shell), stdin and stderr on /dev/null,
 * GIT_OPTIONAL_LOCKS=0 so a scan never takes the index lock, and the
 * options that user configuration could change (prefixes, colour, external
 * diff, textconv, quoting, diff.relative) pinned on the command line.
 */
#ifndef CA_GIT_H
#define CA_GIT_H

/* `git rev-parse HEAD` of the checkout containing `dir` (NULL means the
 * current directory) as a heap string of 40 (or, in SHA-256 repositories, 64)
 * lowercase hex digits; the caller frees it. NULL when `dir` is not in a git
 * checkout, the checkout has no commit yet, or git is missing. */
char *ca_git_rev(const char *dir);

/* A set of (path, line): the lines added or modified since a revision. */
typedef struct ca_changed_lines ca_changed_lines;

/*
 * Lines changed since `rev` in the repository containing the current
 * directory: `git diff --unified=0 REV --` (working tree and index included)
 * gives the new-side line ranges of every hunk; files that git does not
 * track yet (untracked and not ignored) count as changed on every line,
 * since a file not added yet is as new as it gets. Pure deletions mark no
 * line. Paths are stored relative to the current directory ("../x.py" for a
 * file of the repository outside it), as discovery shows them.
 *
 * Returns 0 and sets *out (free with ca_changed_lines_free). Returns 2 with
 * *out NULL and *err a heap message (no "cancelaudit:" prefix; caller frees)
 * when not inside a git repository, when `rev` does not name a commit, when
 * git is not installed, or when git diff fails. `err` may be NULL.
 */
int ca_git_changed_lines(const char *rev, ca_changed_lines **out, char **err);

/* 1 when `line` (1-based) of `path` (relative to the current directory; a
 * leading "./" is ignored) was added or modified; 0 otherwise, and for a
 * NULL set. Read-only: safe to call from several threads at once. */
int ca_changed_has(const ca_changed_lines *c, const char *path, int line);

/* Frees the set; NULL is a no-op. */
void ca_changed_lines_free(ca_changed_lines *c);

#endif
