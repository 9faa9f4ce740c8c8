/*
 * main.c — the command line (DESIGN §6). Parses arguments, runs a
 * subcommand, maps outcomes to exit codes: 0 no unsuppressed finding,
 * 1 findings, 2 usage or configuration error, 3 the run itself failed.
 * The only place that decides the process's exit status.
 *
 * The folder: cli/ is the front door. main.c dispatches; cli_scan.c runs
 * `scan` and `baseline` (options, configuration, the scan driver, the
 * reporters); cli_store.c the subcommands that read the store (matrix,
 * report, diff, rules, explain); cli_debug.c the IR dump for developers.
 * Nothing below cli/ exits the process or prints usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>

#include "cli/cli.h"
#include "model/model.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        cli_usage(stdout);
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
    if (strcmp(cmd, "debug-ir") == 0) return cli_debug_ir(argc - 2, argv + 2);
    fprintf(stderr, "cancelaudit: unknown command '%s' (try --help)\n", cmd);
    return 2;
}
