/* test_decoder.c - the decoder lowering rules (src/predict/lower_decoder.c): a torch-style export (hf layout:
 * repeat-KV as Unsqueeze -> Expand -> Reshape, the cache as Concat(past, new), decomposed rotary, a 4-D mask) and
 * ONNX Runtime GenAI's layout (GroupQueryAttention) of the same decoder predict the same on a GPU that fuses
 * attention. Graphs: tests/data/llm/small-{gqa,mha}-{hf,genai}.onnx (bench/llm/make_graphs.py --tiny: hidden 512,
 * 8 heads, 2 or 8 KV heads, 2 layers). The platform is the a100-80gb preset without its per-kernel overhead, so that
 * the two layouts' few extra kernels (the hf layout's mask and position arithmetic) do not hide the traffic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"
#include "tinytest.h"

#define DIR "tests/data/llm/"

static struct nnperf_platform *gpu;

static struct nnperf_llm *run(const char *name, int prompt, int batch)
{
    char path[256], err[1024];
    struct nnperf_model *m = NULL;
    struct nnperf_llm *l = NULL;
    snprintf(path, sizeof path, DIR "%s.onnx", name);
    struct nnperf_llm_options o = {
        .prompts = &prompt, .n_prompts = 1, .batches = &batch, .n_batches = 1, .generate = 4};
    if (nnperf_model_load(path, NULL, &m, err, sizeof err) != NNPERF_OK ||
        nnperf_llm(m, gpu, &o, &l, err, sizeof err) != NNPERF_OK)
        fprintf(stderr, "%s\n", err);
    nnperf_model_free(m);
    return l;
}

static double rel(double a, double b)
{
    return b != 0 ? fabs(a - b) / fabs(b) : INFINITY;
}

/* TTFT, TPOT and memory of the two layouts within 3% (activations within 5%: the hf layout keeps its gathered
 * cos/sin tables alive, 4% of these small graphs' peak), at a short and a long context and two batches. When the
 * repeated K/V are charged (written by the repeat and read again by the attention), the long-context decode step
 * of the grouped-query model is about 4x the GenAI layout's; a materialised mask or the 2048 x 2048 scores in the
 * peak-memory walk make the memory 15x. */
static void test_layouts_agree(void)
{
    static const char *const models[] = {"small-gqa", "small-mha"};
    static const int prompts[] = {64, 2048}, batches[] = {1, 16};
    for (size_t m = 0; m < 2; m++)
        for (size_t i = 0; i < 2; i++)
            for (size_t j = 0; j < 2; j++) {
                char hf[64], genai[64];
                snprintf(hf, sizeof hf, "%s-hf", models[m]);
                snprintf(genai, sizeof genai, "%s-genai", models[m]);
                struct nnperf_llm *a = run(hf, prompts[i], batches[j]),
                                  *b = run(genai, prompts[i], batches[j]);
                CHECK(a && b);
                if (a && b) {
                    struct nnperf_llm_row x, y;
                    nnperf_llm_row(a, 0, &x);
                    nnperf_llm_row(b, 0, &y);
                    int ok = rel(x.ttft_s, y.ttft_s) <= 0.03 && rel(x.tpot_first_s, y.tpot_first_s) <= 0.03 &&
                             rel(x.tpot_mean_s, y.tpot_mean_s) <= 0.03 &&
                             rel(x.activation_bytes, y.activation_bytes) <= 0.05 &&
                             rel(x.memory_bytes, y.memory_bytes) <= 0.05 &&
                             x.kv_cache_bytes == y.kv_cache_bytes;
                    if (!ok)
                        fprintf(
                            stderr,
                            "%s prompt %d batch %d: hf/genai ttft %g/%g tpot %g/%g act %g/%g memory %g/%g\n",
                            models[m], prompts[i], batches[j], x.ttft_s, y.ttft_s, x.tpot_mean_s,
                            y.tpot_mean_s, x.activation_bytes, y.activation_bytes, x.memory_bytes,
                            y.memory_bytes);
                    CHECK(ok);
                }
                nnperf_llm_free(a);
                nnperf_llm_free(b);
            }
}

/* one decode step of small-gqa-hf (batch 16, past 2048) analysed and predicted on the GPU */
static struct nnperf_prediction *decode_step(struct nnperf_model **m, struct nnperf_analysis **a)
{
    static const char *const inputs[] = {"input_ids=16x1",
                                         "attention_mask=16x2049",
                                         "position_ids=16x1",
                                         "past_key_values.0.key=16x2x2048x64",
                                         "past_key_values.0.value=16x2x2048x64",
                                         "past_key_values.1.key=16x2x2048x64",
                                         "past_key_values.1.value=16x2x2048x64"};
    char err[512];
    struct nnperf_prediction *p = NULL;
    struct nnperf_analyze_options ao = {inputs, 7, NULL, 0};
    struct nnperf_predict_options po = {.causal = 1}; /* one run of the graph: 16 sequences */
    *a = NULL;
    if (nnperf_model_load(DIR "small-gqa-hf.onnx", NULL, m, err, sizeof err) != NNPERF_OK ||
        nnperf_analyze(*m, &ao, a, err, sizeof err) != NNPERF_OK ||
        nnperf_predict(*a, gpu, &po, &p, err, sizeof err) != NNPERF_OK)
        fprintf(stderr, "%s\n", err);
    return p;
}

/* the decode step's traffic, layer by layer: the repeat-KV nodes and the K transpose are views (no layer), and so
 * is the mask's Expand (computed inside the attention kernel); each attention kernel reads the cache once (K and V of 2 KV heads x 2049 tokens x 64, fp16, batch 16: its
 * loads are the cache and the query, not 4 x the cache), and the Concat appends one token without reading the
 * past */
static void test_decode_layers(void)
{
    struct nnperf_model *m = NULL;
    struct nnperf_analysis *a = NULL;
    struct nnperf_prediction *p = decode_step(&m, &a);
    CHECK(p != NULL);
    const double cache = 2.0 * 16 * 2 * 2049 * 64 * 2; /* K and V of one layer */
    int attention = 0, expands = 0;
    double stores = 0;
    for (int i = 0; p && i < nnperf_prediction_layer_count(p); i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, i, &li);
        if (!strcmp(li.klass, "attention")) {
            attention++;
            /* the cache, the query (16 x 8 heads x 64 fp16) and nothing of the size of a repeated cache */
            CHECK(li.load_bytes >= cache && li.load_bytes < 1.01 * cache);
        }
        for (int k = 0; k < p->layers[i].n_nodes; k++)
            expands += p->layers[i].nodes[k]->op == OPID_EXPAND || p->layers[i].nodes[k]->op == OPID_TILE;
        stores += li.store_bytes;
    }
    CHECK_EQ_U(attention, 2);
    CHECK_EQ_U(expands, 0);       /* no layer holds a K/V repeat or the mask's broadcast */
    CHECK(stores < 0.01 * cache); /* one token appended per step, nothing of the cache's size written */
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* One decode step (batch b, past 16) of tiny-mixtral-genai[-FORM] (2 layers, hidden 64, 4 SwiGLU experts of 96,
 * top 2), analysed and predicted on the GPU; *moe_w gets the weight bytes of its MoE layers, *n_moe their count. */
static double moe_step(const char *form, int b, double *moe_w, int *n_moe)
{
    char path[128], ids[32], mask[32], kv[4][64], err[512];
    snprintf(path, sizeof path, DIR "tiny-mixtral-genai%s%s.onnx", *form ? "-" : "", form);
    snprintf(ids, sizeof ids, "input_ids=%dx1", b);
    snprintf(mask, sizeof mask, "attention_mask=%dx17", b);
    const char *inputs[6] = {ids, mask};
    for (int i = 0; i < 4; i++) {
        snprintf(kv[i], sizeof kv[i], "past_key_values.%d.%s=%dx2x16x16", i / 2, i % 2 ? "value" : "key", b);
        inputs[2 + i] = kv[i];
    }
    struct nnperf_model *m = NULL;
    struct nnperf_analysis *a = NULL;
    struct nnperf_prediction *p = NULL;
    struct nnperf_analyze_options ao = {inputs, 6, NULL, 0};
    struct nnperf_predict_options po = {.causal = 1};
    double t = -1;
    *moe_w = 0, *n_moe = 0;
    if (nnperf_model_load(path, NULL, &m, err, sizeof err) == NNPERF_OK &&
        nnperf_analyze(m, &ao, &a, err, sizeof err) == NNPERF_OK &&
        nnperf_predict(a, gpu, &po, &p, err, sizeof err) == NNPERF_OK) {
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        t = s.latency_s;
        for (int i = 0; i < nnperf_prediction_layer_count(p); i++) {
            struct nnperf_layer_info li;
            nnperf_prediction_layer(p, i, &li);
            if (!strcmp(li.op, "MoE") || !strcmp(li.op, "QMoE")) *moe_w += li.weight_bytes, (*n_moe)++;
            CHECK(strcmp(li.bound, "unknown") != 0);
        }
    } else
        fprintf(stderr, "%s: %s\n", path, err);
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
    return t;
}

/* a mixture of experts in three forms (and QMoE): com.microsoft MoE, a dense export (every expert on every token, weighted by
 * scattered routing weights) and the eager export (TopK -> NonZero -> Gather -> expert -> ScatterND) predict the
 * same decode step; its MoE layers read the weights of E x (1 - (1 - k/E)^tokens) experts: 2 of 4 for one token,
 * 3.984 for 8. Before the lowering rule moe_block, the dense form read all 4 experts and ran them on every token,
 * and the eager form's experts could not be counted (data-dependent NonZero counts: 0 s). */
static void test_moe_forms(void)
{
    static const char *const forms[] = {"", "dense", "eager"};
    const double expert = 3.0 * 64 * 96 * 2; /* fp16 bytes of one expert */
    for (int b = 1; b <= 8; b += 7) {
        double t0 = 0, want = 2 * expert * 4 * (1 - pow(1 - 2.0 / 4, b));
        for (int f = 0; f < 3; f++) {
            double w;
            int n;
            double t = moe_step(forms[f], b, &w, &n);
            if (!f) t0 = t;
            CHECK(t > 0 && rel(t, t0) <= 0.05);
            CHECK_EQ_U(n, 2);
            /* within 0.5%: a fused MoE layer may also hold the next norm's 64 weights */
            if (rel(w, want) > 0.005)
                fprintf(stderr, "moe form '%s' batch %d: expert bytes %g, expected %g\n", forms[f], b, w,
                        want);
            CHECK(rel(w, want) <= 0.005);
        }
        /* com.microsoft QMoE with 4-bit experts: the routed experts' codes (half a byte a weight) and fp16 row
         * scales (96 + 64 + 96 per expert), plus the fused norm's 64 fp16 weights per layer */
        double w, want_q = 2 * (4 * (1 - pow(1 - 2.0 / 4, b)) * (3.0 * 64 * 96 / 2 + 256 * 2) + 128);
        int n;
        CHECK(moe_step("qmoe", b, &w, &n) > 0);
        CHECK_EQ_U(n, 2);
        CHECK(rel(w, want_q) <= 1e-6);
    }
}

int main(void)
{
    char err[512];
    if (nnperf_platform_load("a100-80gb", &gpu, err, sizeof err) != NNPERF_OK ||
        nnperf_platform_set(gpu, "overhead.per_layer_s", "0", err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    test_layouts_agree();
    test_decode_layers();
    test_moe_forms();
    nnperf_platform_free(gpu);
    return tt_done();
}
