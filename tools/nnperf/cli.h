/* cli.h - shared pieces of the nnperf command: the command table and output helpers. */
#ifndef NNPERF_CLI_H
#define NNPERF_CLI_H

#include <stddef.h>

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

/* Writes data to path atomically (temp file + rename) or to stdout when path is NULL or "-". Returns 0 or prints
 * an error and returns 2. */
int cli_write_output(const char *path, const char *data, size_t len);
/* Prints "nnperf: msg" to stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
