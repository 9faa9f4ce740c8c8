/*
 * config.h — project configuration (DESIGN §6): `[tool.cancelaudit]` in a
 * pyproject.toml, or the top level of a cancelaudit.toml. Sits between the
 * TOML reader (toml.h) and `cancelaudit scan` (cli_scan.c), which merges a
 * loaded configuration with the command line.
 *
 * Discovery walks up from the first scanned path (or the current
 * directory): in each directory a cancelaudit.toml wins over a
 * pyproject.toml; a pyproject.toml without a [tool.cancelaudit] table is
 * skipped and the walk goes on. The walk stops after the directory that
 * holds `.git` (the repository root) or at the filesystem root.
 *
 * Keys (see docs/configuration.md): select, ignore (rule ids or prefixes:
 * an array of strings or one comma-separated string), strict (boolean),
 * exclude (globs), max-size (bytes), jobs, file-timeout (seconds) and
 * file-memory (MiB, or a size with a unit), and catalog extras: acquirers
 * ("pattern" or {pattern = "...", kind = "..."}), releasers, registries
 * (alias register), remote-creates, cancellation, shields, timeouts; and a
 * `backends` table mapping a backend name to a glob or an array of globs;
 * a `per-file-ignores` table mapping a glob to the rules its files leave
 * out; output-format (scan's default --format); min-confidence (scan's
 * default --min-confidence).
 * Globs that contain a '/' are written relative to the configuration
 * file's directory and are rebased here onto the current directory, the
 * frame discovery and backend naming match paths in.
 *
 * Errors are "FILE:LINE: what" (TOML syntax errors "FILE:LINE:COL: what"):
 * an unknown key names the key and its table, a wrong type names the key
 * and the type it needs.
 */
#ifndef CA_CONFIG_H
#define CA_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "coverage/backend.h"
#include "catalog/catalog.h"

/* per-file-ignores: the rules left out for the files a glob matches. */
typedef struct ca_file_ignore {
    char *glob;             /* rebased onto the current directory, as excludes */
    char *rules;            /* comma-separated ids or prefixes */
} ca_file_ignore;

/* One catalog entry the configuration adds (category as in rules/catalog). */
typedef struct ca_config_extra {
    char *category;
    char *pattern;
    char *kind;             /* acquirers only; NULL otherwise */
} ca_config_extra;

typedef struct ca_config {
    char *path;             /* the file, as shown in messages; NULL: no configuration */
    char *abs_path;         /* the same, absolute (recorded with the scan) */
    char *select, *ignore;  /* comma-separated ids; NULL when the file does not set them */
    int strict;             /* -1 unset, else 0 or 1 */
    char **excludes;        /* rebased onto the current directory */
    size_t nexcludes;
    int64_t max_size;       /* 0 unset */
    int jobs;               /* -1 unset */
    ca_backend_map *maps;   /* name/glob strings owned by the config */
    size_t nmaps;
    ca_config_extra *extras;
    size_t nextras;
    int c_cancel_scope;     /* C files: 0 auto (when the scan calls pthread_cancel), 1 always, -1 never */
    char *compile_commands; /* C files: directory of compile_commands.json, absolute; NULL unset */
    double file_timeout;    /* seconds a file's analysis may take; 0 no limit, -1 unset */
    int64_t file_memory;    /* bytes a file's analysis may use; 0 no limit, -1 unset */
    ca_file_ignore *file_ignores; /* per-file-ignores, in file order */
    size_t nfile_ignores;
    char *output_format;    /* scan's default --format; NULL unset */
    char *min_confidence;   /* scan's default --min-confidence ("high", "medium", "low"); NULL unset */
} ca_config;

/* The values of --file-timeout / file-timeout and --file-memory /
 * file-memory. Seconds: a number, decimals allowed ("60", "2.5"); memory:
 * a number of MiB, or one with a binary unit ("2048", "512M", "2G",
 * "1.5GiB", "64KiB"). 0 means no limit. 0, or -1 for text that is none. */
int ca_config_parse_seconds(const char *s, double *out);
int ca_config_parse_memory(const char *s, int64_t *out);

/* An empty configuration (everything unset). */
void ca_config_init(ca_config *c);
void ca_config_free(ca_config *c);

/* Load `path` (--config FILE): a file with a [tool.cancelaudit] table is
 * read in pyproject form, any other file in cancelaudit.toml form; a file
 * named pyproject.toml without that table is an error. Returns 0, or -1
 * with *err (heap) and c left empty. c must be initialised. */
int ca_config_load(const char *path, ca_config *c, char **err);

/* Find and load the configuration for a scan starting at `start` (a file
 * or directory; NULL or a path that does not exist: the current
 * directory). Returns 0 — with c->path NULL when there is none — or -1 with
 * *err when the file found is invalid. c must be initialised. */
int ca_config_discover(const char *start, ca_config *c, char **err);

/* 1 when rule (an id) is left out for path (relative to the current
 * directory, as findings carry it) by per-file-ignores: a glob matches the
 * path or one of its components, as an exclude does, and its rules name
 * the id or a prefix of it. */
int ca_config_file_ignored(const ca_config *c, const char *path, const char *rule);

/* The project root of `start` (a file or directory; NULL or missing: the
 * current directory): the nearest directory at or above it that holds a
 * configuration discovery would load, or `.git` — the directory the store
 * belongs in. Absolute, heap; NULL when there is none. *why (may be NULL)
 * names what was found there: "cancelaudit.toml", "pyproject.toml with
 * [tool.cancelaudit]" or ".git" (static strings). */
char *ca_config_project_root(const char *start, const char **why);

/* The catalog a scan uses: a copy of `base` with the configuration's extras
 * added (caller frees with ca_catalog_free), or NULL when there are none
 * and `base` serves as it is. */
ca_catalog *ca_config_catalog(const ca_config *c, const ca_catalog *base);

/* Rewrite a glob written relative to directory `cfgdir` so that it matches
 * paths as discovery shows them from `cwd` (both absolute, no trailing
 * '/'). Globs without '/' match any path component and stay as they are.
 * Returns a heap string. Exposed for tests. */
char *ca_config_rebase_glob(const char *glob, const char *cfgdir, const char *cwd);

#endif
