/* fuzz_profile.c - libFuzzer harness for the ONNX Runtime profile reader (src/predict/profile.c, streamed): the
 * first byte chooses how many bytes the reader takes at a time (1 to 256, so that events, strings and escapes
 * cross reads), the rest is the profile. Bad input must come back as an error status, never a crash, a leak or a
 * read past the input. Built and run like every tests/fuzz/fuzz_*.c harness (tests/fuzz/CMakeLists.txt). */
#include <stdint.h>
#include <stdlib.h>

#include "predict/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) return 0;
    size_t chunk = (size_t)data[0] + 1;
    struct perf_profile p;
    struct diag d = {NNPERF_OK, {0}};
    if (perf_profile_load_chunked((const char *)data + 1, size - 1, "fuzz.json", chunk, &p, &d) ==
        NNPERF_OK) {
        /* what a successful read promises */
        if (p.runs < 1 || p.n_nodes < 0 || !(p.run_median_us >= 0) || !(p.kernel_total_us >= 0)) abort();
        for (int i = 0; i < p.n_nodes; i++)
            if (!p.nodes[i].name || p.nodes[i].count < 1 || perf_profile_find(&p, p.nodes[i].name) == NULL)
                abort();
    }
    perf_profile_free(&p);
    return 0;
}
