/* fuzz_onnx.c - libFuzzer harness for the ONNX reader: nnperf_model_load_buffer, then nnperf_analyze, the JSON
 * renderer and nnperf_annotate (its output loaded back) when the model loads. Bad input must come back as an error
 * status, never a crash: the sanitizers and libFuzzer judge the rest. Built and run like every tests/fuzz/fuzz_*.c harness (see CMakeLists.txt there):
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
        /* the model written back with its inferred shapes: the bytes read at load read again, so the writer
         * only fails for size; what it writes is read back (exercised, not judged: an inferred shape may be one
         * the loader refuses as declared, e.g. an element count past int64) */
        void *ann = NULL;
        enum nnperf_status st = nnperf_annotate(a, &ann, &len, err, sizeof err);
        if (st != NNPERF_OK && st != NNPERF_E_LIMIT && st != NNPERF_E_NOMEM) abort();
        struct nnperf_model *m2 = NULL;
        if (st == NNPERF_OK && nnperf_model_load_buffer(ann, len, "annotated.onnx", "/nonexistent", NULL, &m2,
                                                        err, sizeof err) == NNPERF_OK)
            nnperf_model_free(m2);
        nnperf_free(ann);
        nnperf_analysis_free(a);
    }
    nnperf_model_free(m);
    return 0;
}
