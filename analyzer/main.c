/*
 * main.c — the command line (DESIGN §6). Parses arguments, runs a
 * subcommand, maps outcomes to exit codes: 0 no unsuppressed finding,
 * 1 findings, 2 usage or configuration error, 3 the run itself failed.
 * The only place that decides the process's exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>

#include "cli.h"
#include "model.h"

static void usage(FILE *out)
{
    fprintf(out,
            "cancelaudit %s — find cancellation ownership bugs in async Python code\n"
            "\n"
            "usage:\n"
            "  cancelaudit scan [PATH...] [--format text|json|sarif|github|markdown] [--output FILE]\n"
            "                   [--db PATH | --no-db] [--select RULES] [--ignore RULES] [--strict]\n"
            "                   [--baseline FILE] [--changed-since REV] [--jobs N] [--config FILE]\n"
            "                   [--exclude GLOB]... [--max-size BYTES] [--no-cache] [--quiet] [--no-progress]\n"
            "  cancelaudit matrix   [--db PATH] [--scan ID] [--select RULES] [--format text|markdown|json|html] [--output FILE]\n"
            "  cancelaudit report   [--db PATH] [--scan ID] (--finding FP | --backend NAME | --boundary NAME)\n"
            "                       [--format markdown|html] [--output FILE]\n"
            "  cancelaudit diff     [--db PATH] [--format text|json] OLD_SCAN NEW_SCAN\n"
            "  cancelaudit baseline [PATH...] --output FILE [scan options]\n"
            "  cancelaudit rules | explain RULE | --version | --help\n"
            "\n"
            "exit codes: 0 no finding, 1 findings, 2 usage or configuration error, 3 the run failed\n"
            "\n"
            "examples:\n"
            "  cancelaudit scan src/                      # findings as path:line:col: CAN101 message\n"
            "  cancelaudit scan --format sarif -o out.sarif src/\n"
            "  cancelaudit scan --strict --select CAN1,CAN3 providers/\n"
            "  cancelaudit matrix --format markdown       # backend x boundary coverage of the last scan\n"
            "  cancelaudit explain CAN101\n"
            "\n"
            "suppress one finding with `# cancelaudit: ignore[CAN101]` or `# noqa: CAN101` on its line.\n",
            ca_version);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("cancelaudit %s\n", ca_version);
        return 0;
    }
    if (strcmp(cmd, "scan") == 0) return cli_scan(argc - 2, argv + 2, 0);
    if (strcmp(cmd, "baseline") == 0) return cli_scan(argc - 2, argv + 2, 1);
    if (strcmp(cmd, "matrix") == 0) return cli_matrix(argc - 2, argv + 2);
    if (strcmp(cmd, "report") == 0) return cli_report(argc - 2, argv + 2);
    if (strcmp(cmd, "diff") == 0) return cli_diff(argc - 2, argv + 2);
    if (strcmp(cmd, "rules") == 0) return cli_rules(argc - 2, argv + 2);
    if (strcmp(cmd, "explain") == 0) return cli_explain(argc - 2, argv + 2);
    fprintf(stderr, "cancelaudit: unknown command '%s' (try --help)\n", cmd);
    return 2;
}
