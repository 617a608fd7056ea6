/* fuzz_calibrate.c - libFuzzer harness for calibrate's output: the input's first line is the parameters to fit
 * (`--fit`, e.g. "efficiency,overhead.per_layer_s"), the rest a measured table (`--table`: CSV with model, input,
 * dtype, batch, latency_ms or fps; '@' stands for the folder of the small test models, tests/data/predict/). The
 * table is written to a temporary file and calibrated on a small NPU (nnperf_calibrate_table, at most 4 rows).
 * What calibrate returns must be a platform the reader of `--hw FILE` accepts, and a refusal says why (a finding:
 * abort): calibrate never writes a file its own reader refuses. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw/hw.h"
#include "nnperf.h"

#ifndef NNPERF_SOURCE_DIR
#define NNPERF_SOURCE_DIR "."
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void cleanup(void)
{
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    /* in memory where the machine has /dev/shm: a table written per input costs disk block work otherwise */
    snprintf(dir, sizeof dir, "/dev/shm/nnperf-fuzzcal.XXXXXX");
    if (!mkdtemp(dir)) {
        snprintf(dir, sizeof dir, "/tmp/nnperf-fuzzcal.XXXXXX");
        if (!mkdtemp(dir)) abort();
    }
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2048 || memchr(data, 0, size)) return 0;
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = 0;
    char *table = strchr(text, '\n');
    if (!table) {
        free(text);
        return 0;
    }
    *table++ = 0;
    const char *fit = text;
    /* the table: '@' -> the models' folder; at most 5 lines (the header and 4 rows) */
    char path[128];
    snprintf(path, sizeof path, "%s/table.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f) abort();
    int lines = 0;
    for (const char *p = table; *p && lines < 5; p++) {
        if (*p == '@')
            fputs(NNPERF_SOURCE_DIR "/tests/data/predict/", f);
        else
            fputc(*p, f);
        lines += *p == '\n';
    }
    fclose(f);
    char *yaml = NULL, *log = NULL, err[1024];
    size_t len = 0;
    err[0] = 0;
    enum nnperf_status st = nnperf_calibrate_table(NNPERF_SOURCE_DIR "/tests/data/advise/adv-npu.yaml", path,
                                                   fit, &yaml, &len, &log, err, sizeof err);
    if (st != NNPERF_OK && !err[0]) abort();
    if (st == NNPERF_OK) {
        struct hw_desc *hw = malloc(sizeof *hw);
        struct diag d = {NNPERF_OK, {0}};
        if (!hw || !yaml || strlen(yaml) != len) abort();
        if (hw_load_text(yaml, len, "calibrated", NULL, HW_LOAD_NO_FILES, hw, &d) != NNPERF_OK) {
            fprintf(stderr, "fuzz_calibrate: calibrate wrote what its reader refuses: %s\n%s\n", d.msg, yaml);
            abort();
        }
        free(hw);
    }
    free(yaml);
    free(log);
    unlink(path);
    free(text);
    return 0;
}
