/*
 * cli_help.c — what each subcommand says about itself: `cancelaudit CMD
 * --help` (every option with what it does), `cancelaudit --help`, and the
 * "did you mean" of an unknown command or option.
 *
 * One table per subcommand lists its options; the parsers in cli_scan.c and
 * cli_store.c accept exactly these names (tests/cli/test_help.py runs every
 * option a help text lists), and an unknown option is matched against the
 * same table, so help, parsing and suggestions cannot drift apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "model/model.h"
#include "rules/ruledoc.h"
#include "util/util.h"

typedef struct cli_opt {
    const char *names; /* "-f, --format": the spellings, comma-separated */
    const char *arg;   /* "FORMAT", or NULL for a flag */
    const char *help;  /* what it does; may hold '\n' for more lines */
} cli_opt;

typedef struct cli_cmd {
    const char *name;
    const char *usage;    /* after "cancelaudit NAME" */
    const char *summary;  /* one line, for `cancelaudit --help` */
    const char *details;  /* paragraphs before the options; NULL: none */
    const cli_opt *opts;  /* {NULL}-terminated */
    const char *examples; /* NULL: none */
} cli_cmd;

#define OPT_HELP {"-h, --help", NULL, "Print this help and exit."}
#define OPT_VERBOSE                                                                                        \
    {"-v, --verbose", NULL, "Say on stderr which store is used and why (and, for scan, which configuration " \
                            "file and rules)."}
#define OPT_DB                                                                                                   \
    {"--db", "PATH",                                                                                             \
     "The SQLite store. Default: .cancelaudit/audit.db at the project root, the nearest directory above the "   \
     "scanned path (for scan) or the current directory (the other commands) that holds a cancelaudit "          \
     "configuration or .git; the current directory when there is none. $CANCELAUDIT_DB overrides the default."}
#define OPT_SCAN_ID {"--scan", "ID", "Read scan ID instead of the latest complete one (`latest` also works)."}
/* what the levels are, said once for every command that takes them */
#define OPT_MIN_CONFIDENCE(what)                                                                               \
    {"--min-confidence", "LEVEL",                                                                               \
     what " Levels: high (a catalogued resource at a checkpoint that suspends), medium (a resource known by "  \
     "its name or its use, a catch-all handler), low (a window that is latent today, such as an idle lock's "   \
     "acquire). Default: low, every finding (rules/README.md says what each rule's levels mean)."}

/* The options that choose what a scan analyses: scan and baseline share them. */
#define SCAN_SELECTION_OPTS                                                                                       \
    {"--select", "RULES",                                                                                         \
     "Only these rules: comma-separated ids or prefixes (CAN101,CAN3). Replaces the default selection and the "  \
     "configuration's `select`, and turns strict rules on when it names them."},                                 \
    {"--ignore", "RULES", "Leave these rules out (ids or prefixes); adds to the configuration's `ignore`."},      \
    {"--strict", NULL, "Also run the rules whose default is strict (CAN202, CAN302)."},                          \
    {"--config", "FILE",                                                                                          \
     "Read this configuration (a pyproject.toml with [tool.cancelaudit], or a cancelaudit.toml) instead of "     \
     "the one found walking up from the first PATH."},                                                            \
    {"--no-config", NULL, "Read no configuration file."},                                                        \
    {"--exclude", "GLOB",                                                                                         \
     "Skip files and directories matching GLOB ('*' spans '/'); repeatable, adds to the configuration's "        \
     "`exclude` and the default excludes (.git, .venv, build, node_modules, ...)."},                             \
    {"--max-size", "BYTES", "Skip files larger than this (default 10 MB), with a diagnostic."},                  \
    {"--file-timeout", "SECONDS",                                                                                 \
     "CPU time one file's parsing and lowering may take in its worker process (default 60; 0: no limit); a "    \
     "file past it gets a diagnostic and the scan goes on. Overrides the configuration's `file-timeout`."},      \
    {"--file-memory", "SIZE",                                                                                     \
     "Memory one file's parsing and lowering may add to its worker process: MiB, or a size with a unit "         \
     "(512M, 2G; default 2 GiB; 0: no limit); a file past it gets a diagnostic and the scan goes on. "           \
     "Overrides the configuration's `file-memory`."},                                                            \
    {"-j, --jobs", "N", "Worker threads (default: the number of cores; 0 means the default)."},                  \
    {"--compile-commands", "DIR",                                                                                 \
     "C files: the directory holding the compile_commands.json to parse them with. Without it one is looked "    \
     "for next to each file and above it; a file none covers is parsed with -I for its own directory and its "   \
     "parents and for the tree's include/ directories."},                                                         \
    {"--no-cache", NULL,                                                                                          \
     "Analyse every file again instead of reusing the results of unchanged files from the store."},              \
    {"-q, --quiet", NULL,                                                                                         \
     "Print the findings and nothing else: no summary line, no progress, no per-file diagnostics (they are "     \
     "still recorded in the store)."},                                                                            \
    OPT_VERBOSE,                                                                                                  \
    {"--no-progress", NULL, "No progress line on stderr (it is only drawn on a terminal anyway)."}

static const cli_opt scan_opts[] = {
    {"-f, --format, --output-format", "FORMAT",
     "How findings are written:\n"
     "  full      (default) one `path:line:col: CAN101 message` line per finding, then the source lines "
     "of its acquisition and its checkpoint, marked, as ruff's full format\n"
     "  concise   the first line alone (`text` is its older name): for editors and grep\n"
     "  json      one object with the findings and the coverage matrix (docs/json.md)\n"
     "  sarif     SARIF 2.1.0 for code scanning\n"
     "  github    GitHub Actions workflow commands (annotations on a pull request)\n"
     "  markdown  a findings table and the matrix\n"
     "The configuration's `output-format` sets the default."},
    {"-o, --output", "FILE", "Write the report to FILE instead of stdout."},
    OPT_DB,
    {"--no-db", NULL, "Do not record the scan (and reuse nothing from earlier scans)."},
    SCAN_SELECTION_OPTS,
    {"--baseline", "FILE",
     "Hide the findings whose fingerprints FILE lists (written by `cancelaudit baseline`); they are counted, "
     "not listed, and do not make the exit code 1. A finding of several resources is also hidden when FILE "
     "lists the fingerprint each of its resources had as a finding of its own (a baseline written before "
     "findings were one per window)."},
    {"--changed-since", "REV",
     "List only findings whose window touches a line changed since git revision REV (working tree included)."},
    {"--statistics", NULL,
     "Instead of the findings, print how many there are per rule and per file (with --format json: the "
     "same as a JSON object)."},
    {"--exit-zero", NULL, "Exit 0 even when there are findings (usage errors and failures still exit 2 and 3)."},
    OPT_MIN_CONFIDENCE("Report (in every format, and in the exit code) only"
                       " findings of this confidence or higher; the store still records them all. The"
                       " configuration's `min-confidence` sets the default."),
    OPT_HELP,
    {NULL, NULL, NULL},
};

static const cli_opt baseline_opts[] = {
    {"-o, --output", "FILE", "Where to write the baseline (required): the unsuppressed findings' fingerprints."},
    SCAN_SELECTION_OPTS,
    OPT_HELP,
    {NULL, NULL, NULL},
};

static const cli_opt matrix_opts[] = {
    OPT_DB,
    OPT_SCAN_ID,
    {"--select", "RULES", "Count only these rules' gaps (`--select CAN101,CAN102`: the pre-registration view)."},
    {"--family", "NAME",
     "Only this family's grid, named as the matrix heads it: its base class or protocol, or a duck-typed "
     "family's shared name (`*Provider`, the '*' optional). An unknown name is an error that lists the "
     "scan's families."},
    {"--boundary", "NAME",
     "Only this boundary (an async method the backends share), as one row across the backends: the list "
     "an issue takes. With --family, that family's boundary; an unknown name lists the boundaries."},
    {"-f, --format", "FORMAT",
     "text (default; a grid for the terminal), markdown, json or html. Without it, an --output name ending "
     "in .md, .json, .html or .txt picks the format."},
    {"-o, --output", "FILE", "Write the matrix to FILE instead of stdout."},
    OPT_VERBOSE,
    OPT_HELP,
    {NULL, NULL, NULL},
};

static const cli_opt report_opts_table[] = {
    OPT_DB,
    OPT_SCAN_ID,
    {"--finding", "FP", "Report the bug of this finding (a fingerprint, or an unambiguous prefix of one)."},
    {"--backend", "NAME", "Report every gap of this backend, with the other backends' cells to compare."},
    {"--boundary", "NAME", "Report every gap of this boundary (an async method the backends share)."},
    OPT_MIN_CONFIDENCE("Leave out the findings below this confidence."),
    {"-f, --format", "FORMAT", "markdown (default) or html; an --output name ending in .html picks html."},
    {"-o, --output", "FILE", "Write the report to FILE instead of stdout."},
    OPT_VERBOSE,
    OPT_HELP,
    {NULL, NULL, NULL},
};

static const cli_opt diff_opts[] = {
    OPT_DB,
    OPT_MIN_CONFIDENCE("Compare only the findings of this confidence or higher, in both scans (a finding"
                       " whose confidence rose to it reads as new)."),
    {"-f, --format", "FORMAT", "text (default) or json."},
    {"-o, --output", "FILE", "Write the diff to FILE instead of stdout."},
    OPT_VERBOSE,
    OPT_HELP,
    {NULL, NULL, NULL},
};

static const cli_opt merge_opts[] = {
    {"-v, --verbose", NULL, "Say on stderr which scan of each input was merged, with its numbers of files, findings, "
                            "matrix cells and families."},
    OPT_HELP,
    {NULL, NULL, NULL},
};

static const cli_opt help_only[] = {
    OPT_HELP,
    {NULL, NULL, NULL},
};

static const cli_cmd commands[] = {
    {"scan", "[PATH...] [options]", "find the windows where cancellation leaks a resource (the default job)",
     "Scans the Python files (and the C files, when the code cancels threads) under each PATH (default: the "
     "current directory), records the scan in the store and reports the findings. Configuration comes from "
     "[tool.cancelaudit] in a pyproject.toml or from a cancelaudit.toml, found walking up from the first "
     "PATH to the repository root; the command line wins over it.\n\n"
     "Exit codes: 0 no finding left to report, 1 findings, 2 usage or configuration error, 3 the run failed. "
     "Only the findings reported count: not those suppressed inline, hidden by --baseline or --changed-since, "
     "or below --min-confidence.",
     scan_opts,
     "  cancelaudit scan src/\n"
     "  cancelaudit scan --format concise src/ | grep CAN101\n"
     "  cancelaudit scan --statistics --exit-zero .          # the shape of a first run\n"
     "  cancelaudit scan --format sarif -o out.sarif src/\n"
     "  cancelaudit scan --strict --select CAN1,CAN3 providers/"},
    {"baseline", "[PATH...] --output FILE [options]", "record today's findings so that CI fails only on new ones",
     "Scans like `scan` (nothing is stored) and writes the fingerprints of the unsuppressed findings to FILE; "
     "`cancelaudit scan --baseline FILE` then lists only findings not in it.",
     baseline_opts, "  cancelaudit baseline . --output .cancelaudit-baseline.json"},
    {"matrix", "[options]", "the coverage matrix of the last scan: backend x boundary",
     "Reads the store (it never scans): one grid per family of backends, the largest first, each backend's "
     "async boundary methods as gap (with rules and lines), covered (with the protection found), inherited "
     "(judged from the base's code), no-window or absent.",
     matrix_opts,
     "  cancelaudit matrix\n  cancelaudit matrix --format html -o matrix.html\n"
     "  cancelaudit matrix --boundary pty_exec_start   # one boundary across a family's backends"},
    {"report", "(--finding FP | --backend NAME | --boundary NAME) [options]",
     "an issue-ready bug report from the store",
     "Writes a report to file with a project: the code, the window, why the handlers miss cancellation, the "
     "other backends checked and the fix. Exactly one of --finding, --backend and --boundary.",
     report_opts_table, "  cancelaudit report --backend docker > issue.md"},
    {"diff", "[options] OLD_SCAN NEW_SCAN", "new, fixed and unchanged findings between two stored scans",
     "Compares two scans of the store by fingerprint. A finding of several resources (one window) also matches "
     "the findings its resources were in a scan stored before findings were one per window: it is unchanged "
     "when each of them is in the other scan. Exits 1 when NEW_SCAN has findings OLD_SCAN lacks.",
     diff_opts, "  cancelaudit diff 3 4\n  cancelaudit diff --format json 3 latest"},
    {"merge", "OUT.db IN.db...", "merge the stores of sharded scans into one",
     "Adds to OUT.db (created when missing) one scan that holds the latest complete scan of every IN.db: "
     "files, functions, findings with their handlers, coverage cells, backend families, directory listings; ids "
     "are renumbered, every other column is kept (but a family name two shards use, which is made unique). The "
     "shards must have scanned disjoint paths (a path in two of them is an error), ideally from the same "
     "directory, so that `matrix`, `report` and `diff` on OUT.db see the whole organisation as one scan. Each "
     "shard's families are the ones its own scan found: a family spread over two shards shows as two. The IN "
     "stores are only read (one of an older schema is first migrated, as any command that opens it does).",
     merge_opts, "  cancelaudit merge org.db shard-*/audit.db && cancelaudit matrix --db org.db"},
    {"rules", "", "every rule, its default and summary", NULL, help_only, NULL},
    {"explain", "RULE", "a rule's documentation: why it matters, bad and good examples, the fix", NULL, help_only,
     "  cancelaudit explain CAN101"},
    {"debug-ir", "FILE.py [QUALNAME]", "the ownership IR a Python file lowers to (for developers)", NULL,
     help_only, NULL},
    {"help", "[COMMAND]", "this overview, or a command's help", NULL, help_only, NULL},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const cli_cmd *find_cmd(const char *name)
{
    for (size_t i = 0; name && i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

/* Print text at indent, wrapped at width columns; '\n' in text starts a new
 * line and keeps the spaces after it (list items are written to fit). */
static void wrap(FILE *out, const char *text, int indent, int width)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        size_t lead = 0;
        while (lead < len && p[lead] == ' ') lead++;
        /* a list item ("  full      what it is") hangs its continuation under "what" */
        size_t hang = lead;
        if (lead) {
            while (hang < len && p[hang] != ' ') hang++;
            while (hang < len && p[hang] == ' ') hang++;
            if (hang >= len) hang = lead;
        }
        size_t at = lead;
        int first = 1;
        while (at < len || first) {
            size_t col = first ? lead : hang;
            int avail = width - indent - (int)col;
            if (avail < 20) avail = 20;
            size_t n = len - at;
            if ((int)n > avail) {
                size_t cut = (size_t)avail;
                while (cut > 0 && p[at + cut] != ' ') cut--;
                n = cut ? cut : (size_t)avail;
            }
            fprintf(out, "%*s%.*s\n", indent + (int)col, "", (int)n, p + at);
            at += n;
            while (at < len && p[at] == ' ') at++;
            first = 0;
        }
        if (!nl) break;
        p = nl + 1;
        if (!*p) break;
    }
}

static void print_cmd_help(FILE *out, const cli_cmd *c)
{
    fprintf(out, "cancelaudit %s — %s\n\nusage: cancelaudit %s%s%s\n", c->name, c->summary, c->name,
            *c->usage ? " " : "", c->usage);
    if (c->details) {
        fputc('\n', out);
        const char *p = c->details;
        while (p) {
            const char *para = strstr(p, "\n\n");
            char *chunk = para ? ca_xstrndup(p, (size_t)(para - p)) : ca_xstrdup(p);
            wrap(out, chunk, 0, 80);
            free(chunk);
            if (para) fputc('\n', out);
            p = para ? para + 2 : NULL;
        }
    }
    fputs("\noptions:\n", out);
    for (const cli_opt *o = c->opts; o->names; o++) {
        fprintf(out, "  %s%s%s\n", o->names, o->arg ? " " : "", o->arg ? o->arg : "");
        wrap(out, o->help, 6, 80);
    }
    if (c->examples) fprintf(out, "\nexamples:\n%s\n", c->examples);
}

void cli_usage(FILE *out)
{
    fprintf(out,
            "cancelaudit %s — find cancellation ownership bugs in async Python (and C) code\n"
            "\n"
            "usage: cancelaudit COMMAND [options]     (cancelaudit COMMAND --help for its options)\n"
            "\n"
            "commands:\n",
            ca_version);
    for (size_t i = 0; i < NCOMMANDS; i++) fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fputs("\n"
          "common options (scan):\n"
          "  --format full|concise|json|sarif|github|markdown   --output FILE   --db PATH | --no-db\n"
          "  --select RULES   --ignore RULES   --exclude GLOB   --statistics   --exit-zero   -q   -v\n"
          "\n"
          "exit codes: 0 no finding, 1 findings, 2 usage or configuration error, 3 the run failed\n"
          "\n"
          "examples:\n"
          "  cancelaudit scan src/                      # findings with their source, then a summary\n"
          "  cancelaudit scan --format sarif -o out.sarif src/\n"
          "  cancelaudit matrix --format markdown       # backend x boundary coverage of the last scan\n"
          "  cancelaudit explain CAN101\n"
          "\n"
          "suppress one finding with `# cancelaudit: ignore[CAN101]` or `# noqa: CAN101` on its line.\n",
          out);
}

int cli_help(FILE *out, const char *cmd)
{
    if (!cmd) {
        cli_usage(out);
        return 0;
    }
    const cli_cmd *c = find_cmd(cmd);
    if (!c) {
        cli_unknown_command(cmd);
        return 2;
    }
    print_cmd_help(out, c);
    return 0;
}

int cli_wants_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return 1;
    }
    return 0;
}

/* Every spelling of every option of c, for suggestions: pointers into buf. */
static size_t option_names(const cli_cmd *c, const char **names, size_t cap, char *buf, size_t bufsize)
{
    size_t n = 0;
    size_t used = 0;
    for (const cli_opt *o = c->opts; o->names; o++) {
        const char *p = o->names;
        while (*p && n < cap) {
            while (*p == ' ' || *p == ',') p++;
            size_t len = strcspn(p, ", ");
            if (!len || used + len + 1 > bufsize) break;
            memcpy(buf + used, p, len);
            buf[used + len] = 0;
            names[n++] = buf + used;
            used += len + 1;
            p += len;
        }
    }
    return n;
}

void cli_bad_option(const char *cmd, const char *arg)
{
    const cli_cmd *c = find_cmd(cmd);
    const char *hint = NULL; /* points into buf */
    const char *names[128];
    char buf[2048];
    if (c) {
        size_t n = option_names(c, names, 128, buf, sizeof(buf));
        char *bare = ca_xstrndup(arg, strcspn(arg, "="));
        hint = ca_closest(bare, names, n);
        free(bare);
    }
    fprintf(stderr, "cancelaudit: unknown option '%s' for `cancelaudit %s`", arg, cmd);
    if (hint) fprintf(stderr, " (did you mean '%s'?)", hint);
    fprintf(stderr, "; see `cancelaudit %s --help`\n", cmd);
}

void cli_unknown_command(const char *cmd)
{
    const char *names[NCOMMANDS];
    for (size_t i = 0; i < NCOMMANDS; i++) names[i] = commands[i].name;
    const char *hint = ca_closest(cmd, names, NCOMMANDS);
    fprintf(stderr, "cancelaudit: unknown command '%s'", cmd);
    if (hint) fprintf(stderr, " (did you mean '%s'?)", hint);
    fputs("; see `cancelaudit --help`\n", stderr);
}

void cli_bad_rule(const char *bad, const char *where)
{
    const char *hint = ca_rule_suggest(bad);
    fprintf(stderr, "cancelaudit: unknown rule '%s' in %s", bad ? bad : "?", where);
    if (hint) fprintf(stderr, " (did you mean '%s'?)", hint);
    fputs("; see `cancelaudit rules`\n", stderr);
}
