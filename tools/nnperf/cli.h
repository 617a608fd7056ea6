/* cli.h - shared pieces of the nnperf command: the command table and output helpers. */
#ifndef NNPERF_CLI_H
#define NNPERF_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "nnperf.h"

struct cli_cmd {
    const char *name;
    const char *summary;
    const char *usage; /* full help text */
    int (*run)(int argc, char **argv);
};

extern const struct cli_cmd cli_cmds[];
extern const int cli_n_cmds;

int cmd_analyze(int argc, char **argv);
int cmd_ops(int argc, char **argv);
extern const char hw_usage[];
int cmd_hw(int, char **);
int cmd_compare(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_roofline(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_validate(int argc, char **argv);
extern const char calibrate_usage[], validate_usage[];
extern const char probe_usage[];
int cmd_probe(int argc, char **argv);
extern const char llm_usage[];
int cmd_llm(int argc, char **argv);
extern const char map_usage[];
int cmd_map(int argc, char **argv);
extern const char advise_usage[];
int cmd_advise(int argc, char **argv);

/* options shared by the model commands (cli_args.c) */
#define CLI_MAX_LIST        256
#define CLI_OPT_SHAPES      1u  /* --input, --dim */
#define CLI_OPT_HW          2u  /* --hw */
#define CLI_OPT_PREDICT     4u  /* --dtype, --batch, --memory-model, --interval */
#define CLI_OPT_MANY_MODELS 8u  /* several models */
#define CLI_OPT_PLOT        16u /* --plot (analyze) */
#define CLI_OPT_ACCURACY    32u /* --accuracy (compare) */
struct cli_run {
    const char *models[CLI_MAX_LIST];
    int n_models;
    const char *hw[CLI_MAX_LIST];
    int n_hw;
    const char *inputs[CLI_MAX_LIST], *dims[CLI_MAX_LIST];
    int n_inputs, n_dims;
    const char *dtypes[16];
    int n_dtypes;
    int batches[CLI_MAX_LIST];
    int n_batches;
    int memory_model;
    double interval_s;
    enum nnperf_format fmt;
    const char *out;
    int strict;
    unsigned load_flags;
    int quiet;                          /* --quiet: no warnings, no progress on stderr */
    const char *plot;                   /* --plot roofline|timeline|memory */
    const char *accuracy[CLI_MAX_LIST]; /* --accuracy MODEL=PCT or FILE.csv, as given */
    int n_accuracy;
};
/* Returns 0, or prints the error and returns 2. */
int cli_parse_run(int argc, char **argv, struct cli_run *r, const char *cmd, unsigned allowed);
int cli_load(const struct cli_run *r, const char *model, struct nnperf_model **m, struct nnperf_analysis **a);
/* sweep and compare: 0 when every symbolic input dim of the analysis is bound, else prints an error naming them
 * and returns 2. */
int cli_require_bound(const struct nnperf_analysis *an, const char *cmd, const char *model);
int cli_load_platforms(const struct cli_run *r, struct nnperf_platform **plats);
/* The one platform (--hw) and the one model of a command: returns 0, or prints the error and returns 2 with nothing
 * left to free. */
int cli_load_one(const struct cli_run *r, struct nnperf_platform **plat, struct nnperf_model **m,
                 struct nnperf_analysis **an);
/* Prediction options from the command line: its first --dtype and --batch (NULL / 0: the platform's own). */
struct nnperf_predict_options cli_predict_options(const struct cli_run *r);
const char *cli_model_name(const char *path);
/* Writes s as a JSON string literal. */
void cli_json_str(FILE *f, const char *s);

/* Writes data to path atomically (temp file + rename) or to stdout when path is NULL or "-". Returns 0 or prints
 * an error and returns 2. */
int cli_write_output(const char *path, const char *data, size_t len);
/* Terminal (term.c): the width of the terminal on fd (TIOCGWINSZ, else $COLUMNS, else 0 = not a terminal or
 * unknown); whether to colour output on fd (a tty and no NO_COLOR); a colour escape or "" (code "1" bold, "31" red,
 * "33" yellow, "0" reset). */
int cli_term_width(int fd);
int cli_use_color(int fd);
const char *cli_sgr(int fd, const char *code);
/* Progress bar on stderr: cli_progress_start(quiet) once, then cli_progress(done, total, what) as work proceeds;
 * nothing is drawn until a second has passed, nor when stderr is not a terminal or quiet is set.
 * cli_progress_end() clears the line. */
void cli_progress_start(int quiet);
void cli_progress(int done, int total, const char *what);
void cli_progress_end(void);
/* The width tables are fitted to: 0 (no limit) when writing to a file (out), else the terminal's width, else
 * $COLUMNS, else 80. */
int cli_table_width(const char *out);
/* Help (help.c): prints a command's help from its option table; 0, or -1 when the command has no table. */
int cli_print_help(FILE *f, const char *cmd);
/* `nnperf help --man`: the man page (roff) from the same tables. */
void cli_print_man(FILE *f);
/* `nnperf help --completion`: the bash completion script from the same tables. */
void cli_print_completion(FILE *f);
/* Parses --accuracy values for model display names (file name without .onnx); acc[i] = NAN when not given.
 * Returns 0 or prints an error and returns 2. */
int cli_parse_accuracy(const struct cli_run *r, double *acc);

/* Prints "nnperf: msg" to stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
