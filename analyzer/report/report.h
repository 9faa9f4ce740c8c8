/*
 * report.h — the machine- and human-facing reporters of `cancelaudit scan`
 * and `cancelaudit report`: compiler-style text, the JSON contract
 * (DESIGN §6), SARIF 2.1.0 and GitHub workflow commands.
 *
 * The folder: report/ is the last stage. report_text/json/sarif/github/
 * markdown.c write a scan's findings; report_matrix.c and report_issue.c
 * the coverage matrix and issue-ready reports from the store, on top of
 * doc.c (the document writer and its escaping), bug.c (findings grouped
 * into bugs and their evidence) and source.c (the scanned files now).
 *
 * Reporters sit at the end of the pipeline: they read a ca_results (from the
 * scan in memory or from the store) and never re-run analysis or change it.
 * Every string in a ca_results came from source code or paths, so each
 * format escapes it as data: JSON/SARIF through json.h, GitHub through its
 * workflow-command escaping, text by showing control characters, invalid
 * UTF-8 and bidirectional overrides as visible escapes.
 *
 * Shared rules: a finding with `baselined` set is never listed (it is
 * counted); a `suppressed` finding is listed only in JSON (field
 * "suppressed") and SARIF (result.suppressions), and in text/github only
 * when opts->show_suppressed. Findings come out in ca_results_sort order
 * (path, line, column, rule), whatever the order in r.
 *
 * Each reporter returns 0, or -1 when writing to out failed (out is not
 * closed). opts may be NULL (no color, suppressed hidden, cwd from getcwd).
 */
#ifndef CA_REPORT_H
#define CA_REPORT_H

#include <stdio.h>

#include "model/model.h"
#include "util/util.h"

typedef struct report_opts {
    int color;            /* text only: ANSI colors */
    int show_suppressed;  /* text/github: also list suppressed findings */
    const char *cwd;      /* absolute directory paths are relative to; NULL: getcwd() */
    int concise;          /* text: the first line of each finding alone (no source excerpt) */
    int quiet;            /* text: the findings alone (no summary line) */
} report_opts;

/* The schema version every JSON document carries (docs/json.md):
 * bumped when a field is removed, renamed or retyped. */
#define REPORT_JSON_SCHEMA_VERSION 1

/* "path:line:col: CAN101 message" per listed finding, then one summary line
 * "N findings (X CAN101, Y CAN102) in M files; K files skipped (no async),
 * E errors; B baselined" (singulars for 1; "; S suppressed" appended when
 * some findings are suppressed). Unless o->concise, each finding's line is
 * followed by its source lines as they are now under r->scan.root (ruff's
 * full format): the acquisition marked `-`, the checkpoint `^` with the
 * rule id, a "..." row for the lines between, a `= help:` line pointing at
 * `cancelaudit explain` at a rule's first finding, and a blank line. A
 * file that cannot be read, or whose content changed since the scan, gets
 * no excerpt. o->quiet leaves the summary out. */
int report_text(FILE *out, const ca_results *r, const report_opts *o);

/* `scan --statistics`: the listed findings counted per rule (with its
 * name) and per file, most first, then the summary line unless o->quiet;
 * with json, one object {tool, statistics: {total, rules: [{rule, name,
 * count}], files: [{path, count}]}, schema_version}. */
int report_statistics(FILE *out, const ca_results *r, const report_opts *o, int json);

/* The DESIGN §6 object, pretty-printed, newline-terminated:
 * tool{name,version}; scan{id (null when 0), files_scanned, files_skipped,
 * errors, baselined}; findings[{rule, severity, path, line, column,
 * end_line, end_column, function, backend, resource, resource_kind,
 * acquired_line, handlers[{line, catches}], message, fingerprint,
 * suppressed}]; coverage[{family, backend, boundary, status, rules[ids],
 * protection, path, line}]; families[{name, kind, base, path, line,
 * backends[{name, class, path, line}], excluded[{class, role, path,
 * line}]}]; schema_version (REPORT_JSON_SCHEMA_VERSION). A NULL string is
 * written as null; a line is null when 0 (an absent method; a family
 * without a base). docs/json.md is the schema. */
int report_json(FILE *out, const ca_results *r, const report_opts *o);
/* One finding as the JSON contract's object (DESIGN §6), for every document
 * that lists findings (scan output, diffs). */
struct ca_json_writer;
void report_json_finding(struct ca_json_writer *w, const ca_finding *f);
/* One family's fields as the object above has them (scan output, the JSON
 * matrix); the caller opens and closes the object. */
void report_json_family_fields(struct ca_json_writer *w, const ca_family *f);

/* SARIF 2.1.0, one run: driver metadata and every rule doc (ruledoc.h),
 * results with related locations (acquisition, handlers), partial
 * fingerprints "cancelaudit/v1", inSource suppressions for suppressed
 * findings and external ones for baselined findings, artifact URIs relative
 * to %SRCROOT% (the cwd as a file:// URI), invocation times from the scan
 * metadata, and a tool execution notification per file diagnostic. */
int report_sarif(FILE *out, const ca_results *r, const report_opts *o);

/* One workflow command per listed finding:
 * "::error file=P,line=L,col=C,endLine=L2,endColumn=C2,title=CAN101::MESSAGE"
 * (warning / notice for the other severities). */
int report_github(FILE *out, const ca_results *r, const report_opts *o);
/* Markdown: a findings table, then the coverage matrix (report_markdown.c). */
int report_markdown(FILE *out, const ca_results *r, const report_opts *o);

/* ---- shared by the reporters (defined in report_text.c) -------------- */

/* Shallow copy of r->findings in ca_results_sort order: the strings still
 * belong to r. Caller frees the array with free(); NULL when there are none. */
ca_finding *report_sorted_findings(const ca_results *r);
/* Same for r->coverage. */
ca_coverage *report_sorted_coverage(const ca_results *r);
/* 1 when f is listed by text/github: not baselined, and not suppressed
 * unless o->show_suppressed. */
int report_finding_listed(const ca_finding *f, const report_opts *o);
/* Findings hidden by the baseline: the larger of r->scan.baselined and the
 * number of findings flagged baselined in r. */
int report_baselined_count(const ca_results *r);
/* Write the document built in sb to out and flush; frees sb. Returns 0
 * when all of it was written, else -1. */
int report_emit(FILE *out, ca_sb *sb);
/* Finish a JSON document built in sb, add a newline, write it to out and
 * flush; frees sb. Returns 1 when all of it was written and well formed. */
int report_json_emit(FILE *out, struct ca_json_writer *w, ca_sb *sb);

#endif
