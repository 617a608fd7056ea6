/* main.c - the nnperf command: finds the command (cli_table.c), parses its options with the one table-driven
 * parser (cli_parse.c), checks the input files, runs one cmd_<name>.c, and checks standard output at the end. A
 * client of nnperf.h only. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int (*const runs[CMD_COUNT])(const struct cli_args *) = {
#define CMD(id, fn, ...) [CMD_##id] = fn,
#include "commands.def"
#undef CMD
};

/* "unknown command 'analyse' (did you mean 'analyze'?)" */
static int unknown_command(const char *what, const char *name)
{
    const char *cands[CMD_COUNT + 1];
    for (int i = 0; i < CMD_COUNT; i++) cands[i] = cli_cmds[i].name;
    cands[CMD_COUNT] = "help";
    const char *sug = cli_suggest(name, cands, CMD_COUNT + 1);
    if (sug)
        cli_error("%s '%s' (did you mean '%s'?)", what, name, sug);
    else
        cli_error("%s '%s' (see 'nnperf --help')", what, name);
    return 2;
}

static int help(int argc, char **argv)
{
    if (argc < 3) {
        cli_usage(stdout);
        return 0;
    }
    if (!strcmp(argv[2], "--man")) {
        cli_print_man(stdout);
        return 0;
    }
    if (!strcmp(argv[2], "--completion")) {
        cli_print_completion(stdout);
        return 0;
    }
    int id = cli_cmd_find(argv[2]);
    if (id < 0) return unknown_command("help: no command", argv[2]);
    cli_print_help(stdout, (enum cli_cmd_id)id);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage(stderr);
        return 2;
    }
    const char *c = argv[1];
    int rc;
    if (!strcmp(c, "--version") || !strcmp(c, "version")) {
        printf("nnperf %s\n", nnperf_version());
        rc = 0;
    } else if (!strcmp(c, "-h") || !strcmp(c, "--help")) {
        cli_usage(stdout);
        rc = 0;
    } else if (!strcmp(c, "help")) {
        rc = help(argc, argv);
    } else {
        int id = cli_cmd_find(c);
        if (id < 0) return unknown_command("unknown command", c);
        struct cli_args a;
        char err[1024];
        cli_catch_signals();
        rc = cli_parse((enum cli_cmd_id)id, argc - 2, argv + 2, &a, err, sizeof err);
        if (rc)
            cli_error("%s", err);
        else if (a.help)
            cli_print_help(stdout, (enum cli_cmd_id)id);
        else
            rc = cli_check_inputs(&a) ? 2 : runs[id](&a);
        cli_args_free(&a);
    }
    /* a failed command has said why; a command that succeeded fails when its output could not be written */
    return rc ? rc : cli_finish_stdout();
}
