/* main.c - the nnperf command: dispatches to one cmd_<name>.c per subcommand. A client of nnperf.h only. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char analyze_usage[] =
    "usage: nnperf analyze MODEL.onnx [options]\n"
    "\n"
    "Infers every tensor's shape and type and counts per-node MACs, FLOPs, parameters and bytes.\n"
    "\n"
    "options:\n"
    "  --input NAME=DIMS     set an input's shape, e.g. --input input=1x3x224x224 (symbols allowed: batchx3x224x224)\n"
    "  --dim SYMBOL=N        bind a symbolic dimension, e.g. --dim batch=1\n"
    "  --format FMT          table (default), json or csv\n"
    "  -o, --output FILE     write to FILE (written completely or not at all) instead of standard output\n"
    "  --strict              exit 1 when the analysis has warnings (unknown operators, unknown shapes)\n"
    "  --drop-value-info     ignore shapes declared in the model and infer everything\n"
    "\n"
    "with a platform (latency prediction, docs/prediction.md):\n"
    "  --hw NAME|FILE        a built-in preset (nnperf hw list) or a platform YAML file (docs/platform-format.md)\n"
    "  --dtype DT            int4, int8, fp16, bf16 or fp32 (default: the platform's)\n"
    "  --batch N             frames per run (default: the platform's frames_per_run)\n"
    "  --memory-model M      planned (SRAM/DDR plan, default) or weights-only (QuTiBench)\n"
    "  --interval MS         timeline interval in milliseconds (default 0.5)\n"
    "\n"
    "exit codes: 0 ok, 1 warnings under --strict, 2 bad input or usage\n";

static const char compare_usage[] =
    "usage: nnperf compare MODEL.onnx... --hw P1,P2,... [--dtype DT] [--batch N] [--format table|csv|json] [-o FILE]\n"
    "\n"
    "The model x platform matrix of FPS and latency (QuTiBench's heatmap). A platform without the dtype shows n/a.\n"
    "Options --input, --dim, --memory-model and --interval are as for analyze.\n";

static const char sweep_usage[] =
    "usage: nnperf sweep MODEL.onnx --hw P[,P2...] --batch 1,2,4,8 [--dtype int8,fp16] [--format table|csv|json]\n"
    "\n"
    "Latency and throughput for every (platform, dtype, batch) configuration; the model is analysed once.\n";

static const char roofline_usage[] =
    "usage: nnperf roofline MODEL.onnx --hw P [--dtype DT] [--batch N] [--format table|csv|json] [-o FILE]\n"
    "\n"
    "Each layer's arithmetic intensity (ops per DDR byte) and attained ops/s against the platform's ceilings.\n";

static const char ops_usage[] = "usage: nnperf ops [--format table|csv]\n"
                                "\n"
                                "Lists the supported operators: domain, name, opset range and class.\n";

const struct cli_cmd cli_cmds[] = {
    {"analyze", "shapes, types and per-node costs of an ONNX model", analyze_usage, cmd_analyze},
    {"compare", "FPS and latency of models x platforms", compare_usage, cmd_compare},
    {"sweep", "latency vs throughput over batch sizes and dtypes", sweep_usage, cmd_sweep},
    {"roofline", "per-layer intensity and attained performance vs ceilings", roofline_usage, cmd_roofline},
    {"hw", "list the built-in platforms, show one as YAML", hw_usage, cmd_hw},
    {"probe", "measure this machine's peak ops/s and memory bandwidth, write a platform YAML", probe_usage,
     cmd_probe},
    {"calibrate", "fit a platform's efficiencies to ONNX Runtime profiles", calibrate_usage, cmd_calibrate},
    {"validate", "predicted vs measured time per layer and in total", validate_usage, cmd_validate},
    {"ops", "list the supported operators", ops_usage, cmd_ops},
};
const int cli_n_cmds = (int)(sizeof cli_cmds / sizeof cli_cmds[0]);

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("nnperf: ", stderr);
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
        for (int i = 0; i < cli_n_cmds; i++)
            if (!strcmp(argv[2], cli_cmds[i].name)) {
                fputs(cli_cmds[i].usage, stdout);
                return 0;
            }
        cli_error("no command '%s' (try 'nnperf help')", argv[2]);
        return 2;
    }
    for (int i = 0; i < cli_n_cmds; i++)
        if (!strcmp(c, cli_cmds[i].name)) {
            for (int k = 2; k < argc; k++)
                if (!strcmp(argv[k], "-h") || !strcmp(argv[k], "--help")) {
                    fputs(cli_cmds[i].usage, stdout);
                    return 0;
                }
            return cli_cmds[i].run(argc - 2, argv + 2);
        }
    cli_error("unknown command '%s'", c);
    usage(stderr);
    return 2;
}
