/* fuzz_llm.c - libFuzzer harness for `nnperf llm`'s dims: the input's first line is the symbol of a decoder
 * input's second dim (a name or an expression such as "past_sequence_length + sequence_length", as exporters write
 * them), each further line a dim binding "NAME=N" as --dim gives them (at most 8). The model is built in memory: an
 * int64 input_ids [batch_size, LINE 1] cast to float, through a Relu, to the output. nnperf_llm (one prompt of 4
 * tokens, 2 generated, 2 decode points, on a100-80gb) either refuses with a message or predicts finite, positive
 * times; its JSON holds no inf or nan (a finding: abort). UBSan checks the expression evaluator's arithmetic. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/onnx_build.h"
#include "nnperf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct nnperf_platform *plat;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char err[512];
    if (nnperf_platform_load("a100-80gb", &plat, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "fuzz_llm: %s\n", err);
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = 0;
    const char *lines[9];
    int n = 0;
    for (char *s = text, *nl; s && n < 9; s = nl) {
        nl = strchr(s, '\n');
        if (nl) *nl++ = 0;
        lines[n++] = s;
    }
    if (!n || !lines[0][0] ||
        strlen(lines[0]) != strlen(text)) { /* no symbol, or a NUL inside the first line */
        free(text);
        return 0;
    }
    struct pbw w;
    pbw_init(&w, 1 << 20);
    size_t g = ob_begin(&w);
    const char *syms[2] = {"batch_size", lines[0]};
    int64_t dims[2] = {-1, -1};
    const char *ids = "input_ids", *f = "f", *y = "logits";
    ob_value_ex(&w, 0, ids, 7 /* INT64 */, syms, dims, 2);
    ob_node_attr_int(&w, "Cast", "cast", &ids, 1, &f, 1, "to", 1 /* FLOAT */);
    ob_node(&w, "Relu", "relu", &f, 1, &y, 1);
    ob_value_ex(&w, 1, y, 1, syms, dims, 2);
    ob_end(&w, g);
    if (w.err) abort();
    char err[1024];
    struct nnperf_model *m = NULL;
    if (nnperf_model_load_buffer(w.p, w.len, "llm.onnx", NULL, NULL, &m, err, sizeof err) == NNPERF_OK) {
        int prompt = 4;
        struct nnperf_llm_options o = {.prompts = &prompt,
                                       .n_prompts = 1,
                                       .generate = 2,
                                       .decode_points = 2,
                                       .dims = lines + 1,
                                       .n_dims = n - 1};
        struct nnperf_llm *l = NULL;
        err[0] = 0;
        enum nnperf_status st = nnperf_llm(m, plat, &o, &l, err, sizeof err);
        if (st != NNPERF_OK && !err[0]) abort(); /* a refusal says why */
        if (st == NNPERF_OK) {
            struct nnperf_llm_row r;
            nnperf_llm_row(l, 0, &r);
            if (!(isfinite(r.ttft_s) && r.ttft_s >= 0 && isfinite(r.tpot_mean_s) && isfinite(r.e2e_s)))
                abort();
            char *out = NULL;
            size_t len = 0;
            if (nnperf_llm_render(l, NNPERF_FORMAT_JSON, &out, &len, err, sizeof err) == NNPERF_OK) {
                static const char *const bad[] = {":inf", ": inf", ":-inf", ": -inf",
                                                  ":nan", ": nan", ":-nan", ": -nan"};
                if (!out || strlen(out) != len) abort();
                for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
                    if (strstr(out, bad[k])) abort();
            }
            free(out);
        }
        nnperf_llm_free(l);
    }
    nnperf_model_free(m);
    pbw_free(&w);
    free(text);
    return 0;
}
