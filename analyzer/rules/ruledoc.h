/*
 * ruledoc.h — rule documentation and rule selection.
 *
 * Each rule has one file rules/CANnnn.md, embedded in the binary (embed.h):
 * a front-matter block of "key: value" lines (id, name, severity, default,
 * summary), a line "---", then Markdown in fixed sections (## What it does,
 * ## Why is this bad?, ## Example, ## Use instead, ## Known problems,
 * ## References). This module parses them once, serves them to
 * `cancelaudit rules` / `cancelaudit explain` and to the reporters (SARIF
 * rule metadata, Markdown reports), and decides which rules a run selects.
 *
 * Rule ids are matched case-insensitively everywhere ("can101" == "CAN101").
 */
#ifndef CA_RULEDOC_H
#define CA_RULEDOC_H

#include <stddef.h>
#include <stdio.h>

#include "model/model.h"

typedef struct ca_ruledoc {
    char *id;            /* "CAN101" (upper case) */
    char *name;          /* "cleanup-misses-cancellation" */
    ca_severity severity;
    int default_on;      /* 1: "default: on"; 0: "default: strict" (only with --strict or --select) */
    char *summary;       /* one sentence */
    char *body;          /* the Markdown after the "---" line */
} ca_ruledoc;

/* The embedded doc for id (any case), or NULL. The docs are parsed on first
 * use (thread-safe) and live for the life of the process: do not free. A
 * malformed embedded doc is left out with a diagnostic on stderr. */
const ca_ruledoc *ca_ruledoc_get(const char *id);
/* All embedded docs, sorted by id; *n receives their number (0 when none
 * are built in). Same lifetime as ca_ruledoc_get. */
const ca_ruledoc *ca_ruledoc_all(size_t *n);

/* The text of the section headed "## title" (matched case-insensitively,
 * ignoring trailing '?', ':' and spaces), without its heading and without
 * leading/trailing blank lines; headings inside ``` or ~~~ fences do not
 * count. Returns a heap string (caller frees), or NULL when the doc has no
 * such section. */
char *ca_ruledoc_section(const ca_ruledoc *doc, const char *title);

/* `cancelaudit rules`: a table of id, default, name and summary. */
void ca_ruledoc_print_list(FILE *out);
/* `cancelaudit explain ID`: the whole doc, readably. Returns 0 when printed,
 * 2 for an unknown id (a message naming the known ids goes to stderr), 3
 * when writing to out failed — usable as the exit code as is. */
int ca_ruledoc_explain(FILE *out, const char *id);

/* Parse one rule file text[0..len) into out (all strings heap-allocated;
 * free with ca_ruledoc_free). Returns 0, or -1 with out zeroed and, when err
 * is not NULL, *err set to a heap message (caller frees). Exposed for tests
 * and for project-local rule docs; the embedded docs go through it. */
int ca_ruledoc_parse(const char *text, size_t len, ca_ruledoc *out, char **err);
void ca_ruledoc_free(ca_ruledoc *doc);

/* Is rule id selected for this run? select_csv / ignore_csv are
 * comma-separated ids or id prefixes ("CAN101,CAN3"), NULL or "" when not
 * given; whitespace around items is ignored. Without a selection the rules
 * whose default is on are selected, plus the strict ones when strict is 1;
 * a selection replaces that default and turns on whatever it names, strict
 * rules included; ignore wins over select. A rule without a doc counts as
 * default-on. Returns 1 or 0. */
int ca_rule_selected(const char *id, const char *select_csv, const char *ignore_csv, int strict);

/* Validate a --select/--ignore list: every item must be a known id or a
 * prefix of one. Returns 0 when valid; -1 otherwise, with *bad (when not
 * NULL) set to the first unknown item (heap; caller frees). */
int ca_rule_check_list(const char *csv, char **bad);
/* The known rule id closest to an unknown item ("CAN10" -> "CAN101",
 * "CNA102" -> "CAN102"), for "did you mean"; NULL when none is close. */
const char *ca_rule_suggest(const char *item);

#endif
