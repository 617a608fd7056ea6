/* cli.h - shared pieces of the nnperf command: the command and option tables, the parsed command line, output and
 * terminal helpers. The CLI is a client of include/nnperf.h only. */
#ifndef NNPERF_CLI_H
#define NNPERF_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "nnperf.h"

/* ---- commands (commands.def, cli_table.c) ---- */
enum cli_cmd_id {
#define CMD(id, fn, ...) CMD_##id,
#include "commands.def"
#undef CMD
    CMD_COUNT
};
#define C_(x) (1u << CMD_##x)

/* What a command's operands (the arguments that are not options) are: model files, MODEL=PROFILE pairs, or words
 * (hw list/show, advise --explain RULE). Drives the input checks and the completion. */
enum cli_operand { CLI_OPERAND_NONE, CLI_OPERAND_MODEL, CLI_OPERAND_PAIR, CLI_OPERAND_WORD };

struct cli_cmd {
    const char *name, *summary;
    const char *synopsis;    /* usage lines, '\n' between them */
    const char *description; /* one paragraph: what it does */
    const char *notes;       /* after the options (exit codes ...), or NULL */
    const char *formats;     /* --format choices, the default first ("table,json,csv"), or NULL */
    enum cli_operand operand;
    const char *operand_name; /* for messages: "model" */
    int min_operands, max_operands;
};
extern const struct cli_cmd cli_cmds[CMD_COUNT];
/* The command named name, or -1. */
int cli_cmd_find(const char *name);

/* ---- options (options.def, cli_table.c) ---- */
enum cli_type {
    CLI_T_FLAG,
    CLI_T_STR,
    CLI_T_FILE,
    CLI_T_OUTPUT,
    CLI_T_PLATFORM,
    CLI_T_INT,
    CLI_T_NUM,
    CLI_T_CHOICE
};
enum cli_group { CLI_G_OPTIONS, CLI_G_SHAPES, CLI_G_PREDICT, CLI_G_OUTPUT, CLI_G_GENERAL, CLI_G_COUNT };
#define CLI_F_SPLIT    1u /* a _STR/_PLATFORM value is a comma list (where the command takes several values) */
#define CLI_F_MIN_OPEN 2u /* _NUM: min itself is out of range */

struct cli_option {
    const char *name, *alias;
    enum cli_type type;
    const char *metavar, *choices;
    const char *words; /* _STR: values the completion offers (a comma list; not enforced), or NULL */
    double min, max;
    unsigned flags;
    unsigned cmds, lists;
    enum cli_group group;
    const char *help;
};

enum cli_opt_id {
#define OPT(id, ...) OPT_##id,
#include "options.def"
#undef OPT
    OPT_COUNT
};
extern const struct cli_option cli_options[OPT_COUNT];
extern const char *const cli_group_titles[CLI_G_COUNT];

/* ---- the parsed command line (cli_parse.c) ---- */
#define CLI_MAX_LIST  256  /* values of one option (repeated and comma lists together), operands */
#define CLI_MAX_VALUE 4096 /* bytes of one value */

struct cli_values {
    int n;          /* values given (flags: times given) */
    const char **s; /* the values as given (a comma list split); owned by the cli_args */
    int *i;         /* _INT: the numbers; _CHOICE: the index in the choices */
    double *d;      /* _NUM: the numbers */
};

struct cli_args {
    enum cli_cmd_id cmd;
    struct cli_values v[OPT_COUNT];
    const char **operands; /* borrowed from argv */
    int n_operands;
    int help; /* -h / --help was given: nothing else was checked */
};

/* Parses argv (the words after the command name) for command cmd into a, without printing or exiting. Returns 0,
 * or 2 with a one-line message in err ("analyze: --batch '0': expected a whole number from 1 to 1000000"). Free a
 * with cli_args_free in both cases. */
int cli_parse(enum cli_cmd_id cmd, int argc, char *const *argv, struct cli_args *a, char *err, size_t errlen);
void cli_args_free(struct cli_args *a);
/* The first value of an option, or NULL; whether a flag was given; the number of values. */
const char *cli_str(const struct cli_args *a, enum cli_opt_id id);
int cli_flag(const struct cli_args *a, enum cli_opt_id id);
/* The closest of n candidates to word (an edit distance of at most a third of its length, at least 1), or NULL:
 * the "did you mean" of commands, options, choices and presets. */
const char *cli_suggest(const char *word, const char *const *cands, int n);
/* A comma list as words: "a, b or c", first_note after the first word ("table (default), json or csv"). */
void cli_word_list(const char *list, const char *first_note, char *out, size_t n);

/* Checks the files the command line names before anything reads them: every model operand, input option and
 * platform file that exists must be a regular file (a FIFO would block, a directory is no model); a platform that
 * is neither a preset nor a file gets "did you mean". Returns 0, or prints the error and returns 2. */
int cli_check_inputs(const struct cli_args *a);
/* Calls fn(ctx, path) for every input file the command line names (model operands, both sides of MODEL=PROFILE,
 * file options, platform files, --accuracy files), whether or not it exists; stops at the first non-zero return,
 * which it returns. */
int cli_input_files(const struct cli_args *a, int (*fn)(void *ctx, const char *path), void *ctx);

/* ---- the model commands' common view (cli_args.c) ---- */
struct cli_run {
    const char *cmd;
    const char *const *models;
    int n_models;
    const char *const *hw;
    int n_hw;
    const char *const *inputs, *const *dims;
    int n_inputs, n_dims;
    const char *const *dtypes;
    int n_dtypes;
    const int *batches;
    int n_batches;
    int memory_model;
    double interval_s;
    enum nnperf_format fmt;
    const char *out;
    int strict;
    unsigned load_flags;
    int quiet;                   /* --quiet: no warnings, no progress on stderr */
    const char *plot;            /* --plot roofline|timeline|memory */
    const char *const *accuracy; /* --accuracy MODEL=PCT or FILE.csv, as given */
    int n_accuracy;
    const struct cli_args *args;
    int allow_unbound; /* --allow-unbound */
    int threads;       /* --threads (0: the platform's) */
    int streams;       /* --streams (0: every unit busy) */
};
/* The run options of a parsed command line (pointers into a). Returns 0, or prints the error and returns 2 (a
 * combination of options that does not go together). */
int cli_run_init(const struct cli_args *a, struct cli_run *r);
/* Loads a model and analyses it with the command line's --input/--dim: 0, or prints the error and returns 2. */
int cli_load(const struct cli_run *r, const char *model, struct nnperf_model **m, struct nnperf_analysis **a);
/* Loads a model (no analysis); a file that is not an ONNX model is named as such. 0, or prints and returns 2. */
int cli_load_model(const char *path, const struct nnperf_load_options *lo, struct nnperf_model **m);
/* Appends the analysis's warnings as "NAME: message" (malloc'd) to *list of *n: 0, or 2 when out of memory. */
int cli_collect_warnings(const struct nnperf_analysis *a, const char *name, char ***list, int *n);
/* sweep and compare: 0 when every symbolic input dim of the analysis is bound, else prints an error naming them
 * and returns 2. */
int cli_require_bound(const struct nnperf_analysis *an, const char *cmd, const char *model);
int cli_load_platforms(const struct cli_run *r, struct nnperf_platform **plats);
/* Loads one platform (a preset or a file); on error prints it, with "did you mean" for a misspelt preset. */
int cli_load_platform(const struct cli_args *a, const char *name, struct nnperf_platform **p);
/* The comma that ends the first value of a --set list (KEY=V1,V2 is a sweep axis), or NULL when v is one value: commas
 * inside quotes ("a,b" or 'a,b') and inside a flow collection ([..] or {..}) do not split. */
const char *cli_set_next(const char *v);
/* One --set value split at its '=': 0, or prints why it is not KEY=VALUE and returns 2. */
int cli_split_set(const char *cmd, const char *s, char *key, size_t keycap, const char **value);
/* The one platform (--hw) and the one model of a command: returns 0, or prints the error and returns 2 with nothing
 * left to free. */
int cli_load_one(const struct cli_run *r, struct nnperf_platform **plat, struct nnperf_model **m,
                 struct nnperf_analysis **an);
/* Prediction options from the command line: its first --dtype and --batch, --threads, --streams (NULL / 0: the
 * platform's own). */
struct nnperf_predict_options cli_predict_options(const struct cli_run *r);
const char *cli_model_name(const char *path);
/* Parses --accuracy values for model display names (file name without .onnx); acc[i] = NAN when not given.
 * Returns 0 or prints an error and returns 2. */
int cli_parse_accuracy(const struct cli_run *r, double *acc);

/* ---- output (output.c) ---- */
/* Writes data to -o FILE of the command line, or to standard output when there is none or it is "-". A file is
 * written completely or not at all: a temporary created next to it (O_EXCL, O_NOFOLLOW, an unpredictable name),
 * every write checked, fsync'd, closed and renamed over the target, which keeps its mode; a target that is not a
 * regular file (a device, a FIFO, a directory) or is one of the command's input files is refused. Returns 0, or
 * prints the error (with its cause) and returns 2. */
int cli_write_output(const struct cli_args *a, const char *data, size_t len);
/* The same for an explicit path (NULL or "-": standard output). */
int cli_write_file(const struct cli_args *a, const char *path, const char *data, size_t len);
/* Flushes and checks standard output at the end of a command: 0, or prints the error and returns 2. */
int cli_finish_stdout(void);
/* Notes the files of a loaded model (its external data too) as inputs that -o may not name (cli_load_model). */
void cli_note_model_files(const struct nnperf_model *m);
/* SIGINT, SIGTERM and SIGHUP remove the temporary of a file being written, then end the command as they would. */
void cli_catch_signals(void);

/* ---- terminal (term.c) ---- */
/* Progress bar on stderr: cli_progress_start(quiet) once, then cli_progress(done, total, what) as work proceeds;
 * nothing is drawn until a second has passed, nor when stderr is not a terminal or quiet is set.
 * cli_progress_end() clears the line. */
void cli_progress_start(int quiet);
void cli_progress(int done, int total, const char *what);
void cli_progress_end(void);
/* The width tables are fitted to: --width when given (0 = no limit), else 0 when writing to a file (-o), else the
 * terminal's width, else $COLUMNS, else 80. */
int cli_table_width(const struct cli_args *a);
/* The terminal's width on standard output, else $COLUMNS, else 0 (unknown). */
int cli_columns(void);
/* Words of s wrapped at width columns (0 = no limit), every line after the first indented by ind; the first line
 * continues at column col (help texts, `hw list`'s descriptions). */
void cli_wrap(FILE *f, const char *s, int col, int ind, int width);
/* msg with control characters (a node or file name may carry escape sequences) written as \xNN; lines: line breaks
 * are kept (a multi-line log) */
void cli_put_text(FILE *f, const char *msg, int lines);
/* Prints "nnperf: msg" to stderr; control characters in msg (from file or node names) are escaped. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The same, as "nnperf: warning: msg" in yellow on a terminal, unless quiet. */
void cli_warn(int quiet, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- help (help.c), all generated from the tables ---- */
void cli_usage(FILE *f);
void cli_print_help(FILE *f, enum cli_cmd_id cmd);
/* `nnperf help --man`: the man page (roff); `nnperf help --completion`: the bash completion script. */
void cli_print_man(FILE *f);
void cli_print_completion(FILE *f);

/* ---- the commands (cmd_*.c, one function per row of commands.def) ---- */
#define CMD(id, fn, ...) int fn(const struct cli_args *a);
#include "commands.def"
#undef CMD

#endif
