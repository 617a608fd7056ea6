/* fuzz_onnx.c - libFuzzer harness for the ONNX reader: nnperf_model_load_buffer, then nnperf_analyze and the JSON
 * renderer when the model loads. Built by tests/fuzz/CMakeLists.txt when NNPERF_FUZZ is ON (clang,
 * -fsanitize=fuzzer,address,undefined); replay.c runs the same function over saved inputs without libFuzzer. */
#include <stdlib.h>

#include "fuzz_onnx.h"
#include "nnperf.h"

int fuzz_onnx_one(const uint8_t *data, size_t size)
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

#ifndef NNPERF_FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_onnx_one(data, size);
}
#endif
