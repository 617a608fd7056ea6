/* fuzz_cli.c - libFuzzer harness for the CLI's table-driven option parser (tools/nnperf/cli_parse.c, which neither
 * prints nor exits): the first byte chooses the command, the rest is its argument words separated by NUL bytes.
 * Whatever the words, cli_parse returns 0 or 2 with a message, every list stays within CLI_MAX_LIST, and
 * cli_args_free releases everything (LeakSanitizer). Built and run like every tests/fuzz/fuzz_*.c harness. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nnperf/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) return 0;
    enum cli_cmd_id cmd = (enum cli_cmd_id)(data[0] % CMD_COUNT);
    char *text = malloc(size); /* the words, NUL-terminated (the last one too) */
    char **argv = calloc(size, sizeof *argv);
    if (!text || !argv) abort();
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    int argc = 0;
    for (size_t i = 0; i < size - 1; i += strlen(text + i) + 1) argv[argc++] = text + i;
    struct cli_args a;
    char err[1024];
    int rc = cli_parse(cmd, argc, argv, &a, err, sizeof err);
    if (rc != 0 && rc != 2) abort();
    if (rc == 2 && !err[0]) abort(); /* a refusal always says why */
    if (rc == 0) {
        for (int k = 0; k < OPT_COUNT; k++) {
            if (a.v[k].n > CLI_MAX_LIST) abort();
            if (cli_options[k].type != CLI_T_FLAG)
                for (int i = 0; i < a.v[k].n; i++)
                    if (strlen(a.v[k].s[i]) > CLI_MAX_VALUE) abort();
        }
        if (a.n_operands > cli_cmds[cmd].max_operands) abort();
    }
    cli_args_free(&a);
    free(argv);
    free(text);
    return 0;
}
