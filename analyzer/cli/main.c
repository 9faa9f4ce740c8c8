/*
 * main.c — the command line (DESIGN §6). Parses arguments, runs a
 * subcommand, maps outcomes to exit codes: 0 no unsuppressed finding,
 * 1 findings, 2 usage or configuration error, 3 the run itself failed.
 * The only place that decides the process's exit status.
 *
 * The folder: cli/ is the front door. main.c dispatches; cli_scan.c runs
 * `scan` and `baseline` (options, configuration, the scan driver, the
 * reporters); cli_store.c the subcommands that read the store (matrix,
 * report, diff, merge); cli_help.c every command's help and the "did you
 * mean" of usage errors; cli_project.c where the store lives; cli_debug.c
 * the IR dump for developers.
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
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) return cli_help(stdout, NULL);
    if (strcmp(cmd, "help") == 0) return cli_help(stdout, argc > 2 ? argv[2] : NULL);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("cancelaudit %s\n", ca_version);
        return 0;
    }
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } table[] = {
        {"matrix", cli_matrix}, {"report", cli_report}, {"diff", cli_diff},       {"merge", cli_merge},
        {"rules", cli_rules},   {"explain", cli_explain}, {"debug-ir", cli_debug_ir},
    };
    int is_scan = strcmp(cmd, "scan") == 0, is_baseline = strcmp(cmd, "baseline") == 0;
    int known = is_scan || is_baseline;
    for (size_t i = 0; !known && i < sizeof(table) / sizeof(table[0]); i++) known = strcmp(cmd, table[i].name) == 0;
    if (!known) {
        cli_unknown_command(cmd);
        return 2;
    }
    if (cli_wants_help(argc - 2, argv + 2)) return cli_help(stdout, cmd);
    if (is_scan || is_baseline) return cli_scan(argc - 2, argv + 2, is_baseline);
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (strcmp(cmd, table[i].name) == 0) return table[i].run(argc - 2, argv + 2);
    return 2;
}
