/* main.c - the nnperf command: dispatches to one cmd_<name>.c per subcommand. A client of nnperf.h only. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The model commands' help (analyze, compare, sweep, roofline, ops) is in option tables in help.c, which also
 * generate the man page and the bash completion; their usage field here is NULL. */

const struct cli_cmd cli_cmds[] = {
    {"analyze", "shapes, types and per-node costs of an ONNX model", NULL, cmd_analyze},
    {"compare", "FPS and latency of models x platforms", NULL, cmd_compare},
    {"sweep", "latency vs throughput over batch sizes and dtypes", NULL, cmd_sweep},
    {"roofline", "per-layer intensity and attained performance vs ceilings", NULL, cmd_roofline},
    {"hw", "list the built-in platforms, show one as YAML", hw_usage, cmd_hw},
    {"probe", "measure this machine's peak ops/s and memory bandwidth, write a platform YAML", probe_usage,
     cmd_probe},
    {"calibrate", "fit a platform's efficiencies to ONNX Runtime profiles", calibrate_usage, cmd_calibrate},
    {"validate", "predicted vs measured time per layer and in total", validate_usage, cmd_validate},
    {"llm", "LLM inference: time to first token, tokens/s, KV cache, memory fit", llm_usage, cmd_llm},
    {"map", "plan a model on a MAX78000/MAX78002 CNN accelerator", map_usage, cmd_map},
    {"advise", "which layers waste compute or bandwidth, what to change, and the predicted gain",
     advise_usage, cmd_advise},
    {"ops", "list the supported operators", NULL, cmd_ops},
};
const int cli_n_cmds = (int)(sizeof cli_cmds / sizeof cli_cmds[0]);

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%snnperf:%s ", cli_sgr(2, "31"), cli_sgr(2, "0"));
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_write_output(const char *path, const char *data, size_t len)
{
    if (!path || !strcmp(path, "-")) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            cli_error("cannot write to standard output");
            return 2;
        }
        return 0;
    }
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp) return 2;
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        cli_error("cannot write '%s'", path);
        free(tmp);
        return 2;
    }
    int ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        cli_error("cannot write '%s'", path);
        free(tmp);
        return 2;
    }
    free(tmp);
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: nnperf COMMAND [options]\n\ncommands:\n");
    for (int i = 0; i < cli_n_cmds; i++) fprintf(f, "  %-10s %s\n", cli_cmds[i].name, cli_cmds[i].summary);
    fprintf(f, "  %-10s %s\n", "help CMD", "show a command's options");
    fprintf(f, "\n  nnperf --version\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *c = argv[1];
    if (!strcmp(c, "--version") || !strcmp(c, "version")) {
        printf("nnperf %s\n", nnperf_version());
        return 0;
    }
    if (!strcmp(c, "-h") || !strcmp(c, "--help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(c, "help")) {
        if (argc < 3) {
            usage(stdout);
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
        for (int i = 0; i < cli_n_cmds; i++)
            if (!strcmp(argv[2], cli_cmds[i].name)) {
                if (cli_print_help(stdout, cli_cmds[i].name) < 0) fputs(cli_cmds[i].usage, stdout);
                return 0;
            }
        cli_error("no command '%s' (try 'nnperf help')", argv[2]);
        return 2;
    }
    for (int i = 0; i < cli_n_cmds; i++)
        if (!strcmp(c, cli_cmds[i].name)) {
            for (int k = 2; k < argc; k++)
                if (!strcmp(argv[k], "-h") || !strcmp(argv[k], "--help")) {
                    if (cli_print_help(stdout, cli_cmds[i].name) < 0) fputs(cli_cmds[i].usage, stdout);
                    return 0;
                }
            return cli_cmds[i].run(argc - 2, argv + 2);
        }
    cli_error("unknown command '%s'", c);
    usage(stderr);
    return 2;
}
