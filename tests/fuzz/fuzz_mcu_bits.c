/* fuzz_mcu_bits.c - libFuzzer harness for the weight-bits file reader of `nnperf map --weight-bits-file`
 * (src/mcu/bits.c): "NAME: BITS" lines or an ai8x-training QAT policy. Bad input must come back as an error status
 * naming the line and key, never a crash. Built and run like every tests/fuzz/fuzz_*.c harness. */
#include <stdlib.h>
#include <string.h>

#include "mcu/mcu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 20)) return 0;
    char *text = malloc(size + 1);
    struct mcu_bits *b = calloc(1, sizeof *b);
    if (!text || !b) {
        free(text), free(b);
        return 0;
    }
    memcpy(text, data, size);
    text[size] = 0;
    b->path = "fuzz.yaml";
    struct diag d = {0};
    if (mcu_bits_parse(text, b, &d) == NNPERF_OK)
        for (int i = 0; i < b->n; i++)
            if (!b->r[i].name ||
                (b->r[i].bits != 8 && b->r[i].bits != 4 && b->r[i].bits != 2 && b->r[i].bits != 1))
                abort(); /* a rule the planner cannot use */
    free(text);
    free(b);
    return 0;
}
