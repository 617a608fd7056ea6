/* help.c - the option tables of the model commands and everything generated from them: `nnperf help CMD` /
 * `--help`, the man page (`nnperf help --man` > docs/nnperf.1) and the bash completion (`nnperf help
 * --completion` > tools/completion/nnperf.bash). tools/dev/gen_man.sh regenerates both files and a test checks
 * that the committed ones are up to date. Commands without a table here (hw, probe, ...) keep their usage text in
 * the command table (main.c); the man page shows it as is and completion picks their --options out of it. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct cli_opt {
    const char *flag, *arg, *help;
};

struct cli_group {
    const char *title;
    const struct cli_opt *opts; /* ends with {NULL} */
};

struct cli_help {
    const char *cmd, *synopsis, *description;
    struct cli_group groups[4];
    const char *notes;
};

static const struct cli_opt shape_opts[] = {
    {"--input", "NAME=DIMS",
     "set an input's shape, e.g. --input input=1x3x224x224 (symbols allowed: batchx3x224x224)"},
    {"--dim", "SYMBOL=N", "bind a symbolic dimension, e.g. --dim batch=1"},
    {"--drop-value-info", NULL, "ignore shapes declared in the model and infer everything"},
    {NULL, NULL, NULL}};

static const struct cli_opt predict_opts[] = {
    {"--hw", "NAME|FILE",
     "a built-in preset (nnperf hw list) or a platform YAML file (docs/platform-format.md)"},
    {"--dtype", "DT", "int4, int8, fp16, bf16 or fp32 (default: the platform's)"},
    {"--batch", "N", "frames per run (default: the platform's frames_per_run)"},
    {"--memory-model", "M", "planned (SRAM/DDR plan, default) or weights-only (QuTiBench)"},
    {"--interval", "MS", "timeline interval in milliseconds (default 0.5)"},
    {NULL, NULL, NULL}};

static const struct cli_opt analyze_opts[] = {
    {"--format", "FMT",
     "table (default), json, csv or html (a self-contained page with plots; needs no network)"},
    {"--plot", "KIND", "write one plot as SVG instead: roofline, timeline or memory (needs --hw)"},
    {"-o, --output", "FILE", "write to FILE (written completely or not at all) instead of standard output"},
    {"--strict", NULL, "exit 1 when the analysis has warnings (unknown operators, unknown shapes)"},
    {"-q, --quiet", NULL, "no warnings and no progress bar on standard error"},
    {NULL, NULL, NULL}};

static const struct cli_opt compare_opts[] = {
    {"--hw", "P1,P2,...", "the platforms (presets or YAML files), required"},
    {"--dtype", "DT",
     "one dtype for all platforms (default: each platform's); a platform without it shows n/a"},
    {"--batch", "N", "frames per run (default: the platform's)"},
    {"--format", "FMT",
     "table (default), json, csv or html (heatmap, latency-vs-throughput lines over batches 1, 2, "
     "4, 8, 16, and the accuracy pareto front)"},
    {"--accuracy", "M=PCT|FILE",
     "a model's accuracy for the pareto front, e.g. --accuracy resnet50=76.1 (repeat, "
     "or a CSV file of model,accuracy lines)"},
    {"-o, --output", "FILE", "write to FILE instead of standard output"},
    {"-q, --quiet", NULL, "no warnings and no progress bar on standard error"},
    {NULL, NULL, NULL}};

static const struct cli_opt sweep_opts[] = {
    {"--hw", "P[,P2...]", "the platforms, required"},
    {"--batch", "1,2,4,8", "batch sizes (default: the platform's frames per run)"},
    {"--dtype", "DT[,DT2...]", "dtypes (default: the platform's)"},
    {"--format", "FMT", "table (default), json or csv"},
    {"-o, --output", "FILE", "write to FILE instead of standard output"},
    {"-q, --quiet", NULL, "no warnings and no progress bar on standard error"},
    {NULL, NULL, NULL}};

static const struct cli_opt roofline_opts[] = {
    {"--hw", "P", "the platform, required"},
    {"--dtype", "DT", "int4, int8, fp16, bf16 or fp32 (default: the platform's)"},
    {"--batch", "N", "frames per run"},
    {"--format", "FMT", "table (default), json or csv"},
    {"-o, --output", "FILE", "write to FILE instead of standard output"},
    {NULL, NULL, NULL}};

static const struct cli_opt ops_opts[] = {{"--format", "FMT", "table (default) or csv"}, {NULL, NULL, NULL}};

static const struct cli_help helps[] = {
    {"analyze",
     "nnperf analyze MODEL.onnx [options]",
     "Infers every tensor's shape and type and counts per-node MACs, FLOPs, parameters and bytes. With --hw, "
     "predicts latency and throughput on a platform (docs/prediction.md).",
     {{"options", analyze_opts},
      {"shapes", shape_opts},
      {"with a platform (latency prediction)", predict_opts}},
     "exit codes: 0 ok, 1 warnings under --strict, 2 bad input or usage"},
    {"compare",
     "nnperf compare MODEL.onnx... --hw P1,P2,... [options]",
     "The model x platform matrix of FPS and latency (QuTiBench's heatmap). A platform without the dtype "
     "shows n/a. "
     "Options --input, --dim, --memory-model and --interval are as for analyze.",
     {{"options", compare_opts}, {"shapes", shape_opts}},
     NULL},
    {"sweep",
     "nnperf sweep MODEL.onnx --hw P[,P2...] --batch 1,2,4,8 [--dtype int8,fp16] [options]",
     "Latency and throughput for every (platform, dtype, batch) configuration; the model is analysed once.",
     {{"options", sweep_opts}},
     NULL},
    {"roofline",
     "nnperf roofline MODEL.onnx --hw P [options]",
     "Each layer's arithmetic intensity (ops per DDR byte) and attained ops/s against the platform's "
     "ceilings. "
     "For a picture: nnperf analyze MODEL --hw P --plot roofline -o r.svg",
     {{"options", roofline_opts}},
     NULL},
    {"ops",
     "nnperf ops [--format table|csv]",
     "Lists the supported operators: domain, name, opset range and class.",
     {{"options", ops_opts}},
     NULL},
};
#define N_HELPS ((int)(sizeof helps / sizeof helps[0]))

static const struct cli_help *find(const char *cmd)
{
    for (int i = 0; i < N_HELPS; i++)
        if (!strcmp(helps[i].cmd, cmd)) return &helps[i];
    return NULL;
}

/* words wrapped at width, every line indented by ind (the first line continues at column col) */
static void wrap(FILE *f, const char *s, int col, int ind, int width)
{
    while (*s) {
        const char *w = s;
        while (*w && *w != ' ') w++;
        int n = (int)(w - s);
        if (col > ind && col + 1 + n > width) {
            fprintf(f, "\n%*s", ind, "");
            col = ind;
        } else if (col > ind) {
            fputc(' ', f);
            col++;
        }
        fwrite(s, 1, (size_t)n, f);
        col += n;
        s = *w ? w + 1 : w;
    }
    fputc('\n', f);
}

int cli_print_help(FILE *f, const char *cmd)
{
    const struct cli_help *h = find(cmd);
    if (!h) return -1;
    fprintf(f, "usage: %s\n\n", h->synopsis);
    wrap(f, h->description, 0, 0, 100);
    for (int g = 0; g < 4 && h->groups[g].opts; g++) {
        fprintf(f, "\n%s:\n", h->groups[g].title);
        for (const struct cli_opt *o = h->groups[g].opts; o->flag; o++) {
            char left[64];
            snprintf(left, sizeof left, "%s%s%s", o->flag, o->arg ? " " : "", o->arg ? o->arg : "");
            int col = fprintf(f, "  %-22s", left);
            if (col > 24) {
                fprintf(f, "\n%24s", "");
                col = 24;
            }
            wrap(f, o->help, col, 24, 118);
        }
    }
    if (h->notes) fprintf(f, "\n%s\n", h->notes);
    return 0;
}

/* roff text: backslashes and dashes escaped, a leading dot or quote protected */
static void roff(FILE *f, const char *s, int dashes)
{
    if (*s == '.' || *s == '\'') fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-' && dashes)
            fputs("\\-", f);
        else
            fputc(*s, f);
        if (*s == '\n' && (s[1] == '.' || s[1] == '\'')) fputs("\\&", f);
    }
}

void cli_print_man(FILE *f)
{
    fprintf(f, ".\\\" nnperf.1 - generated by tools/dev/gen_man.sh from tools/nnperf/help.c; do not edit\n");
    fprintf(f, ".TH NNPERF 1 \"\" \"nnperf %s\" \"User Commands\"\n", nnperf_version());
    fprintf(f, ".SH NAME\nnnperf \\- ONNX model analyzer and latency predictor\n");
    fprintf(f, ".SH SYNOPSIS\n.B nnperf\n.I COMMAND\n.RI [ options ]\n.br\n.B nnperf help\n.I COMMAND\n");
    fprintf(f,
            ".SH DESCRIPTION\nnnperf reads an ONNX model, infers every tensor's shape and type, counts MACs, "
            "FLOPs, parameters and bytes per node, and predicts latency, throughput and DDR traffic on a "
            "platform (a built-in preset or a YAML file). Reports are tables, JSON, CSV or a self-contained "
            "HTML page with plots.\n");
    fprintf(f, ".SH COMMANDS\n");
    for (int i = 0; i < cli_n_cmds; i++) {
        fprintf(f, ".TP\n.B %s\n", cli_cmds[i].name);
        roff(f, cli_cmds[i].summary, 1);
        fputc('\n', f);
    }
    for (int i = 0; i < cli_n_cmds; i++) {
        const struct cli_help *h = find(cli_cmds[i].name);
        fprintf(f, ".SH \"NNPERF %s\"\n", cli_cmds[i].name);
        if (!h) {
            fprintf(f, ".nf\n");
            roff(f, cli_cmds[i].usage ? cli_cmds[i].usage : "", 0);
            fprintf(f, ".fi\n");
            continue;
        }
        fprintf(f, ".B ");
        roff(f, h->synopsis, 1);
        fprintf(f, "\n.PP\n");
        roff(f, h->description, 0);
        fputc('\n', f);
        for (int g = 0; g < 4 && h->groups[g].opts; g++) {
            fprintf(f, ".SS ");
            roff(f, h->groups[g].title, 0);
            fputc('\n', f);
            for (const struct cli_opt *o = h->groups[g].opts; o->flag; o++) {
                fprintf(f, ".TP\n.B ");
                roff(f, o->flag, 1);
                if (o->arg) {
                    fprintf(f, " \" \"\n.I ");
                    roff(f, o->arg, 0);
                }
                fputc('\n', f);
                roff(f, o->help, 0);
                fputc('\n', f);
            }
        }
        if (h->notes) {
            fprintf(f, ".PP\n");
            roff(f, h->notes, 0);
            fputc('\n', f);
        }
    }
    fprintf(
        f,
        ".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nwhen set and not empty, no colour on the terminal\n"
        ".TP\n.B COLUMNS\nthe terminal width when it cannot be asked (tables are cut to it on a terminal)\n");
    fprintf(f, ".SH EXIT STATUS\n0 ok, 1 warnings under \\-\\-strict, 2 bad input or usage.\n");
    fprintf(
        f, ".SH SEE ALSO\nThe docs/ folder of the source: prediction.md, platform-format.md, json-schema.md, "
           "conventions.md.\n");
}

/* every distinct "--word" or "-x" option in text, space separated, appended to out */
static void opts_of_text(const char *t, char *out, size_t n)
{
    for (const char *s = t; *s; s++) {
        if (s[0] != '-' || (s > t && (isalnum((unsigned char)s[-1]) || s[-1] == '-'))) continue;
        const char *e = s + 1;
        if (*e == '-') e++;
        if (!islower((unsigned char)*e)) continue;
        while (isalnum((unsigned char)*e) || *e == '-') e++;
        char w[64];
        size_t l = (size_t)(e - s);
        if (l >= sizeof w || (s[1] != '-' && l != 2)) continue;
        memcpy(w, s, l);
        w[l] = 0;
        size_t ol = strlen(out);
        char pad[70];
        snprintf(pad, sizeof pad, " %s ", w);
        char cur[4200];
        snprintf(cur, sizeof cur, " %s ", out);
        if (strstr(cur, pad)) continue;
        if (ol + l + 2 < n) snprintf(out + ol, n - ol, "%s%s", ol ? " " : "", w);
        s = e - 1;
    }
}

void cli_print_completion(FILE *f)
{
    fprintf(
        f,
        "# bash completion for nnperf - generated by tools/dev/gen_man.sh from tools/nnperf/help.c; do not "
        "edit\n# install: source it, or copy it to /usr/share/bash-completion/completions/nnperf\n");
    fprintf(f, "_nnperf() {\n    local cur prev cmd opts\n    cur=${COMP_WORDS[COMP_CWORD]}\n"
               "    prev=${COMP_WORDS[COMP_CWORD-1]}\n    cmd=${COMP_WORDS[1]}\n");
    fprintf(f, "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n        COMPREPLY=($(compgen -W \"");
    for (int i = 0; i < cli_n_cmds; i++) fprintf(f, "%s ", cli_cmds[i].name);
    fprintf(f, "help --help --version\" -- \"$cur\"))\n        return\n    fi\n");
    fprintf(f, "    case \"$prev\" in\n"
               "    help) COMPREPLY=($(compgen -W \"");
    for (int i = 0; i < cli_n_cmds; i++) fprintf(f, "%s%s", i ? " " : "", cli_cmds[i].name);
    fprintf(f,
            "\" -- \"$cur\")); return ;;\n"
            "    --hw) COMPREPLY=($(compgen -W \"$(nnperf hw list 2>/dev/null | awk 'NR>1{print $1}')\" -- "
            "\"$cur\") $(compgen -f -X '!*.yaml' -- \"$cur\")); return ;;\n"
            "    --format) COMPREPLY=($(compgen -W \"table json csv html\" -- \"$cur\")); return ;;\n"
            "    --dtype) COMPREPLY=($(compgen -W \"int4 int8 fp16 bf16 fp32\" -- \"$cur\")); return ;;\n"
            "    --memory-model) COMPREPLY=($(compgen -W \"planned weights-only\" -- \"$cur\")); return ;;\n"
            "    --plot) COMPREPLY=($(compgen -W \"roofline timeline memory\" -- \"$cur\")); return ;;\n"
            "    -o|--output|--accuracy) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
            "    --input|--dim|--batch|--interval|--seconds) return ;;\n"
            "    esac\n    case \"$cmd\" in\n");
    for (int i = 0; i < cli_n_cmds; i++) {
        char o[4096] = "";
        const struct cli_help *h = find(cli_cmds[i].name);
        if (h)
            for (int g = 0; g < 4 && h->groups[g].opts; g++)
                for (const struct cli_opt *x = h->groups[g].opts; x->flag; x++)
                    opts_of_text(x->flag, o, sizeof o);
        else if (cli_cmds[i].usage)
            opts_of_text(cli_cmds[i].usage, o, sizeof o);
        fprintf(f, "    %s) opts=\"%s%s--help\" ;;\n", cli_cmds[i].name, o, o[0] ? " " : "");
    }
    fprintf(f,
            "    *) opts=\"--help\" ;;\n    esac\n"
            "    if [[ $cur == -* ]]; then\n        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
            "    else\n        COMPREPLY=($(compgen -f -X '!*.onnx' -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
            "    fi\n}\ncomplete -o filenames -F _nnperf nnperf\n");
}
