/* fuzz_onnx.c - libFuzzer harness for the ONNX reader: nnperf_model_load_buffer, then nnperf_analyze and the JSON
 * renderer when the model loads. Bad input must come back as an error status, never a crash: the sanitizers and
 * libFuzzer judge the rest. Built and run like every tests/fuzz/fuzz_*.c harness (see CMakeLists.txt there):
 * as a libFuzzer binary (NNPERF_FUZZ=ON, run_fuzz.sh) and as the replay test fuzz_replay_onnx. */
#include <stdlib.h>

#include "nnperf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    struct nnperf_model *m = NULL;
    /* no directory for external data: "/nonexistent" makes every external file missing, never a real read */
    if (nnperf_model_load_buffer(data, size, "fuzz.onnx", "/nonexistent", NULL, &m, err, sizeof err) !=
        NNPERF_OK)
        return 0;
    struct nnperf_analysis *a = NULL;
    if (nnperf_analyze(m, NULL, &a, err, sizeof err) == NNPERF_OK) {
        char *json = NULL;
        size_t len = 0;
        if (nnperf_analysis_render(a, NNPERF_FORMAT_JSON, &json, &len, err, sizeof err) == NNPERF_OK)
            free(json);
        nnperf_analysis_free(a);
    }
    nnperf_model_free(m);
    return 0;
}
