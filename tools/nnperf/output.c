/* output.c - the output of the CLI: standard output, checked (a failed write or final flush is an error with its
 * cause), and files named by -o, written by the library's one writer (nnperf_write_file, src/core/write.c: a hidden
 * temporary renamed over the target; no FIFO, device, directory or input replaced). The inputs the output may not
 * name are every file the command reads: its named inputs (cli_input_files: models, platforms, profiles, tables,
 * bits files) and each file of every model it loaded (nnperf_model_file: the external data too, noted by
 * cli_load_model). While a temporary exists its name is kept here, and SIGINT, SIGTERM and SIGHUP remove it before
 * the command dies (cli_catch_signals). */
#define _XOPEN_SOURCE 700 /* sigaction */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int write_stdout(const char *data, size_t len)
{
    if (len && fwrite(data, 1, len, stdout) != len) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        return 2;
    }
    if (fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        return 2;
    }
    return 0;
}

int cli_finish_stdout(void)
{
    int bad = ferror(stdout);
    errno = 0;
    if (fflush(stdout) != 0 || bad) {
        int e = errno;
        cli_error("cannot write to standard output: %s", e ? strerror(e) : "a write failed");
        return 2;
    }
    return 0;
}

/* the files of the models loaded (copies: a model may be freed before the output is written) */
static char **model_files;
static int n_model_files, cap_model_files;

void cli_note_model_files(const struct nnperf_model *m)
{
    for (int i = 0; i < nnperf_model_file_count(m); i++) {
        if (n_model_files == cap_model_files) {
            int cap = cap_model_files ? cap_model_files * 2 : 8;
            char **v = realloc(model_files, (size_t)cap * sizeof *v);
            if (!v) return; /* out of memory: the write is still checked against the named inputs */
            model_files = v;
            cap_model_files = cap;
        }
        char *p = strdup(nnperf_model_file(m, i));
        if (p) model_files[n_model_files++] = p;
    }
}

/* the temporary being written, for the signal handler: its name is complete before tmp_set is 1 */
static char tmp_name[4096];
static volatile sig_atomic_t tmp_set;

static void on_temporary(void *ctx, const char *tmp)
{
    (void)ctx;
    tmp_set = 0;
    if (tmp && strlen(tmp) < sizeof tmp_name) {
        memcpy(tmp_name, tmp, strlen(tmp) + 1);
        tmp_set = 1;
    }
}

static void on_signal(int sig)
{
    if (tmp_set) unlink(tmp_name); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        /* a signal the parent made the command ignore (nohup) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) sigaction(sigs[i], &sa, NULL);
    }
}

struct input_list {
    const char **v;
    int n, cap;
};

static int add_input(void *ctx, const char *path)
{
    struct input_list *l = ctx;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 16;
        const char **v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) return 1;
        l->v = v;
        l->cap = cap;
    }
    char *p = strdup(path); /* cli_input_files frees what it makes for the call */
    if (!p) return 1;
    l->v[l->n++] = p;
    return 0;
}

int cli_write_file(const struct cli_args *a, const char *path, const char *data, size_t len)
{
    if (!path || !strcmp(path, "-")) return write_stdout(data, len);
    struct input_list l = {NULL, 0, 0};
    int bad = a ? cli_input_files(a, add_input, &l) : 0;
    for (int i = 0; i < n_model_files && !bad; i++) bad = add_input(&l, model_files[i]);
    /* calibrate --table: the models the table names, loaded inside the library, and their weights */
    if (!bad && a && a->cmd == CMD_CALIBRATE && cli_str(a, OPT_TABLE) && cli_str(a, OPT_HW))
        bad = nnperf_calibrate_table_inputs(cli_str(a, OPT_HW), cli_str(a, OPT_TABLE), add_input, &l, NULL,
                                            0) == NNPERF_E_NOMEM;
    int rc = 2;
    if (bad) {
        cli_error("cannot write '%s': out of memory", path);
    } else {
        struct nnperf_write_options o = {l.v, l.n, on_temporary, NULL};
        char err[1024];
        if (nnperf_write_file(path, data, len, &o, err, sizeof err) == NNPERF_OK)
            rc = 0;
        else
            cli_error("%s", err);
    }
    for (int i = 0; i < l.n; i++) free((void *)l.v[i]);
    free(l.v);
    return rc;
}

int cli_write_output(const struct cli_args *a, const char *data, size_t len)
{
    return cli_write_file(a, a ? cli_str(a, OPT_OUTPUT) : NULL, data, len);
}
