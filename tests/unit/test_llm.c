/* test_llm.c - LLM inference (nnperf_llm) on the tiny decoder graphs of tests/data/llm/ (made by
 * bench/llm/make_graphs.py --tiny: 2 layers, hidden 64, 4 heads, 2 KV heads for tiny-llama), and the analysis
 * fixes it relies on: shape arithmetic known after binding is folded, an embedding Gather reads only its rows,
 * unbound symbolic dims are named. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "llm/llm.h"
#include "common/testfiles.h"
#include "common/testpredict.h"
#include "tinytest.h"

#define DIR "tests/data/llm/"

/* a GPU-like platform with 1 MB of device memory: the tiny models fit at batch 1, not at batch 64 */
static const char gpu_yaml[] = "format: 1\n"
                               "name: tiny-gpu\n"
                               "compute:\n"
                               "  peak_ops: {fp16: 1e12, fp32: 5e11}\n"
                               "  default_dtype: fp16\n"
                               "memory:\n"
                               "  ddr_bandwidth: 1e10\n"
                               "  ddr_bytes: 1MB\n"
                               "overhead:\n"
                               "  per_layer_s: 1e-6\n";

static struct nnperf_platform gpu;

static struct nnperf_model *load(const char *name)
{
    char path[256], err[512];
    struct nnperf_model *m = NULL;
    snprintf(path, sizeof path, DIR "%s.onnx", name);
    if (nnperf_model_load(path, NULL, &m, err, sizeof err) != NNPERF_OK) fprintf(stderr, "%s\n", err);
    return m;
}

static struct nnperf_llm *run(struct nnperf_model *m, const struct nnperf_llm_options *o)
{
    char err[1024];
    struct nnperf_llm *l = NULL;
    if (nnperf_llm(m, &gpu, o, &l, err, sizeof err) != NNPERF_OK) fprintf(stderr, "%s\n", err);
    return l;
}

/* KV cache: 2 (K, V) x layers x KV heads x head dim x tokens x batch x bytes, exactly */
static void test_kv_exact(void)
{
    int prompts[2] = {16, 40}, batches[2] = {1, 3};
    struct nnperf_llm_options o = {
        .prompts = prompts, .n_prompts = 2, .generate = 8, .batches = batches, .n_batches = 2};
    const char *names[3] = {"tiny-llama-hf", "tiny-llama-genai", "tiny-llama-genai-int4"};
    double first_kv[3] = {0};
    for (int k = 0; k < 3; k++) {
        struct nnperf_model *m = load(names[k]);
        struct nnperf_llm *l = m ? run(m, &o) : NULL;
        CHECK(l != NULL);
        if (!l) {
            nnperf_model_free(m);
            continue;
        }
        struct nnperf_llm_summary s;
        nnperf_llm_summary(l, &s);
        CHECK_EQ_U(s.rows, 4);
        CHECK_EQ_U(s.layers, 2);
        CHECK_EQ_U(s.kv_heads, 2);
        CHECK_EQ_U(s.head_dim, 16);
        CHECK(s.has_kv_cache);
        for (int i = 0; i < s.rows; i++) {
            struct nnperf_llm_row r;
            nnperf_llm_row(l, i, &r);
            CHECK_EQ_U(r.prompt, prompts[i / 2]);
            CHECK_EQ_U(r.batch, batches[i % 2]);
            double want = 2.0 * 2 * 2 * 16 * (r.prompt + 8) * r.batch * 2;
            CHECK(r.kv_cache_bytes == want);
            CHECK(r.kv_bytes_per_token == 2.0 * 2 * 2 * 16 * 2);
            CHECK(r.ttft_s > 0 && r.tpot_first_s > 0);
            CHECK(r.tpot_last_s >= r.tpot_first_s);
            CHECK(r.tpot_mean_s >= r.tpot_first_s && r.tpot_mean_s <= r.tpot_last_s);
            CHECK(fabs(r.e2e_s - (r.ttft_s + 8 * r.tpot_mean_s)) <= 1e-9 * r.e2e_s);
            CHECK(fabs(r.decode_tokens_per_s - r.batch / r.tpot_mean_s) <= 1e-6 * r.decode_tokens_per_s);
            CHECK(r.memory_bytes == r.weight_bytes + r.kv_cache_bytes + r.activation_bytes);
            CHECK(r.fits == (r.memory_bytes <= 1e6));
        }
        /* a longer prompt takes longer to prefill; a bigger batch holds more cache */
        struct nnperf_llm_row a, b, c;
        nnperf_llm_row(l, 0, &a), nnperf_llm_row(l, 1, &b), nnperf_llm_row(l, 2, &c);
        CHECK(c.ttft_s > a.ttft_s);
        CHECK(b.kv_cache_bytes == 3 * a.kv_cache_bytes);
        first_kv[k] = a.kv_cache_bytes;
        /* what fits: the largest batch and context computed from the first row's rates */
        double per_seq = a.kv_cache_bytes + a.activation_bytes;
        CHECK_EQ_U(s.max_batch, (unsigned)floor((1e6 - a.weight_bytes) / per_seq));
        CHECK(s.max_context > a.prompt);
        nnperf_llm_free(l);
        nnperf_model_free(m);
    }
    /* the same model in both layouts has the same cache */
    CHECK(first_kv[0] == first_kv[1] && first_kv[1] == first_kv[2]);
}

/* the hf layout's shape arithmetic (Shape -> Gather -> Unsqueeze -> Concat, Range of positions) is folded once the
 * dims are bound: no layer is a Shape, Range or a Concat of shapes */
static void test_folding(void)
{
    struct nnperf_model *m = load("tiny-llama-hf");
    const char *inputs[] = {"input_ids=1x8",
                            "attention_mask=1x12",
                            "position_ids=1x8",
                            "past_key_values.0.key=1x2x4x16",
                            "past_key_values.0.value=1x2x4x16",
                            "past_key_values.1.key=1x2x4x16",
                            "past_key_values.1.value=1x2x4x16"};
    struct nnperf_analyze_options ao = {inputs, 7, NULL, 0};
    struct nnperf_analysis *a = NULL;
    char err[512];
    CHECK(m && nnperf_analyze(m, &ao, &a, err, sizeof err) == NNPERF_OK);
    if (!a) {
        nnperf_model_free(m);
        return;
    }
    struct nnperf_summary s;
    nnperf_analysis_summary(a, &s);
    CHECK_EQ_U(s.unbound_dims, 0);
    CHECK_EQ_U(s.unknown_nodes, 0);
    const struct ir_graph *g = an_graph(&a->st);
    int shapes = 0, folded_shapes = 0, embed = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if (!strcmp(nd->op_type, "Shape")) {
            shapes++;
            folded_shapes += nd->out[0]->is_const == 2;
            CHECK_EQ_U(nd->cost.params, 0); /* known after binding, not a parameter */
        }
        if (!strcmp(nd->name, "/embed_tokens/Gather")) {
            /* 256 x 64 fp16 table, 8 ids: reads 8 rows (1 KiB) and the 8 int64 ids */
            embed = 1;
            CHECK_EQ_U(nd->cost.bytes_read, 8 * 64 * 2 + 8 * 8);
            CHECK_EQ_U(nd->cost.params, 256 * 64);
            CHECK_EQ_U(nd->cost.params_read, 8 * 64);
        }
    }
    CHECK(shapes > 10 && folded_shapes == shapes);
    CHECK(embed);
    struct nnperf_prediction *p = NULL;
    CHECK(nnperf_predict(a, &gpu, NULL, &p, err, sizeof err) == NNPERF_OK);
    int bad = 0;
    for (int i = 0; p && i < nnperf_prediction_layer_count(p); i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, i, &li);
        if (!strcmp(li.op, "Shape") || !strcmp(li.op, "Range") || !strcmp(li.op, "ConstantOfShape")) bad++;
    }
    CHECK_EQ_U(bad, 0);
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* latency of one phase of tiny-llama-hf (2 layers, 2 KV heads of 16), analysed and predicted on its own */
static double phase_latency(struct nnperf_model *m, int seq, int past)
{
    char ids[32], mask[32], pos[32];
    snprintf(ids, sizeof ids, "input_ids=1x%d", seq);
    snprintf(mask, sizeof mask, "attention_mask=1x%d", past + seq);
    snprintf(pos, sizeof pos, "position_ids=1x%d", seq);
    const char *inputs[7] = {ids, mask, pos};
    static const char *const kv_names[] = {"past_key_values.0.key", "past_key_values.0.value",
                                           "past_key_values.1.key", "past_key_values.1.value"};
    char kvs[4][64];
    for (int i = 0; i < 4; i++) {
        snprintf(kvs[i], sizeof kvs[i], "%s=1x2x%dx16", kv_names[i], past);
        inputs[3 + i] = kvs[i];
    }
    struct nnperf_analyze_options ao = {inputs, 7, NULL, 0};
    struct nnperf_predict_options po = {.batch = 1, .causal = 1};
    struct nnperf_analysis *a = NULL;
    struct nnperf_prediction *p = NULL;
    char err[512];
    double t = -1;
    if (nnperf_analyze(m, &ao, &a, err, sizeof err) == NNPERF_OK &&
        nnperf_predict(a, &gpu, &po, &p, err, sizeof err) == NNPERF_OK) {
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        t = s.latency_s;
    } else
        fprintf(stderr, "%s\n", err);
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    return t;
}

/* every phase nnperf_llm predicts is an analysis of its own: the prefill and the first and last decode steps equal
 * analyses of a freshly loaded model with the phase's shapes, made in another order (one analysis does not change
 * the next) */
static void test_phases_independent(void)
{
    struct nnperf_model *m = load("tiny-llama-hf"), *fresh = load("tiny-llama-hf");
    struct nnperf_llm_options o = {.generate = 4, .decode_points = 2};
    int prompt = 8;
    o.prompts = &prompt, o.n_prompts = 1;
    struct nnperf_llm *l = m ? run(m, &o) : NULL;
    CHECK(l != NULL && fresh != NULL);
    if (l && fresh) {
        struct nnperf_llm_row r;
        nnperf_llm_row(l, 0, &r);
        double last = phase_latency(fresh, 1, 11), first = phase_latency(fresh, 1, 8);
        double prefill = phase_latency(fresh, 8, 0);
        CHECK(prefill > 0 && first > 0 && last > first);
        CHECK(r.ttft_s == prefill);
        CHECK(r.tpot_first_s == first);
        CHECK(r.tpot_last_s == last);
    }
    nnperf_llm_free(l);
    nnperf_model_free(fresh);
    nnperf_model_free(m);
}

/* --compute int4 on a platform with weight-only quantization and no int4 peak: int4 weights, fp16 compute, the same
 * numbers as --weights int4 --compute fp16 (weight bytes included) */
static void test_weight_only(void)
{
    static const char extra[] = "  weight_only: true\n";
    char text[sizeof gpu_yaml + sizeof extra];
    const char *at = strstr(gpu_yaml, "memory:\n");
    CHECK(at != NULL);
    if (!at) return;
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - gpu_yaml), gpu_yaml, extra, at);
    struct nnperf_platform wo;
    struct diag d = {0};
    hw_init(&wo.hw);
    CHECK(hw_load_yaml(text, strlen(text), "tiny-gpu-wo", &wo.hw, &d) == NNPERF_OK && wo.hw.weight_only);
    struct nnperf_model *m = load("tiny-llama-hf");
    int prompt = 32; /* the tiny graphs' positions end at 512 */
    struct nnperf_llm_options a = {.compute = "int4", .generate = 4, .prompts = &prompt, .n_prompts = 1},
                              b = {.weights = "int4", .generate = 4, .prompts = &prompt, .n_prompts = 1};
    struct nnperf_llm *la = NULL, *lb = NULL;
    char err[512];
    CHECK(m && nnperf_llm(m, &wo, &a, &la, err, sizeof err) == NNPERF_OK);
    if (!la) fprintf(stderr, "%s\n", err);
    CHECK(m && nnperf_llm(m, &wo, &b, &lb, err, sizeof err) == NNPERF_OK);
    if (la && lb) {
        struct nnperf_llm_row ra, rb;
        nnperf_llm_row(la, 0, &ra);
        nnperf_llm_row(lb, 0, &rb);
        CHECK(ra.ttft_s == rb.ttft_s && ra.tpot_mean_s == rb.tpot_mean_s &&
              ra.weight_bytes == rb.weight_bytes);
        struct nnperf_llm_summary s;
        nnperf_llm_summary(la, &s);
        CHECK_STR(s.weights, "int4");
        CHECK_STR(s.compute, "fp16");
    }
    nnperf_llm_free(la);
    nnperf_llm_free(lb);
    nnperf_model_free(m);
}

/* unbound symbolic dims are named, in the summary and a warning */
static void test_unbound(void)
{
    struct nnperf_model *m = load("tiny-llama-genai");
    struct nnperf_analysis *a = NULL;
    char err[512];
    CHECK(m && nnperf_analyze(m, NULL, &a, err, sizeof err) == NNPERF_OK);
    if (a) {
        struct nnperf_summary s;
        nnperf_analysis_summary(a, &s);
        CHECK_EQ_U(s.unbound_dims, 4); /* batch_size, sequence_length, total_sequence_length, past_... */
        CHECK_STR(nnperf_analysis_unbound_dim(a, 0), "batch_size");
        CHECK(nnperf_analysis_unbound_dim(a, 4) == NULL);
        int found = 0;
        for (int i = 0; i < s.warnings; i++)
            found |=
                strstr(nnperf_analysis_warning(a, i), "unbound symbolic input dims 'batch_size'") != NULL;
        CHECK(found);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* errors: a model that is no decoder, bad options */
static void test_errors(void)
{
    char err[512];
    struct nnperf_llm *l = NULL;
    struct nnperf_model *m = NULL;
    CHECK(nnperf_model_load("models/resnet18.onnx", NULL, &m, err, sizeof err) == NNPERF_OK);
    CHECK(nnperf_llm(m, &gpu, NULL, &l, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(strstr(err, "no input named 'input_ids'") != NULL);
    CHECK(l == NULL);
    nnperf_model_free(m);
    m = load("tiny-gpt2-hf-fp32");
    struct nnperf_llm_options o = {.kv = "fp7"};
    CHECK(nnperf_llm(m, &gpu, &o, &l, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(strstr(err, "KV cache dtype 'fp7': unknown format") != NULL);
    o = (struct nnperf_llm_options){.generate = -3};
    CHECK(nnperf_llm(m, &gpu, &o, &l, err, sizeof err) == NNPERF_E_USAGE);
    /* a kv dtype changes the cache bytes: fp32 model, fp8 cache: a quarter */
    int prompt = 8;
    struct nnperf_llm_options o32 = {.prompts = &prompt, .n_prompts = 1, .generate = 4};
    struct nnperf_llm_options o8 = o32;
    o8.kv = "fp8";
    struct nnperf_llm *a = run(m, &o32), *b = run(m, &o8);
    CHECK(a && b);
    if (a && b) {
        struct nnperf_llm_row ra, rb;
        nnperf_llm_row(a, 0, &ra), nnperf_llm_row(b, 0, &rb);
        CHECK(ra.kv_cache_bytes == 2.0 * 2 * 4 * 16 * 12 * 4);
        CHECK(rb.kv_cache_bytes * 4 == ra.kv_cache_bytes);
        /* renders: the JSON summary keys the issue names, CSV header, HTML tabs */
        static const char *const keys[] = {
            "\"ttft_ms\"",        "\"tpot_ms\"",      "\"decode_tokens_per_s\"", "\"e2e_ms\"",
            "\"kv_cache_bytes\"", "\"weight_bytes\"", "\"memory_bytes\"",        "\"fits\""};
        char *out;
        size_t len;
        CHECK(nnperf_llm_render(a, NNPERF_FORMAT_JSON, &out, &len, err, sizeof err) == NNPERF_OK);
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) CHECK(strstr(out, keys[k]) != NULL);
        free(out);
        CHECK(nnperf_llm_render(a, NNPERF_FORMAT_CSV, &out, &len, err, sizeof err) == NNPERF_OK);
        CHECK(!strncmp(out, "prompt,generate,batch,ttft_ms", 29));
        free(out);
        CHECK(nnperf_llm_render(a, NNPERF_FORMAT_HTML, &out, &len, err, sizeof err) == NNPERF_OK);
        CHECK(strstr(out, "data-tab=\"prefill\"") && strstr(out, "data-tab=\"decode\"") &&
              strstr(out, "<svg"));
        free(out);
    }
    nnperf_llm_free(a);
    nnperf_llm_free(b);
    nnperf_model_free(m);
}

/* model name analysed with inputs and predicted on plat; r holds the three (tp_free) */
static struct nnperf_prediction *predict_phase(const char *name, const struct nnperf_platform *plat,
                                               struct tp_run *r, const char *const *inputs, int n)
{
    char path[256];
    snprintf(path, sizeof path, DIR "%s.onnx", name);
    struct nnperf_analyze_options ao = {inputs, n, NULL, 0};
    tp_run(r, path, &ao, plat, NULL);
    return r->p;
}

/* prediction side: a decode step appends to the cache in place (the Concat writes one token and does not read the
 * past), a broadcast (Expand) moves no bytes, MatMulNBits' packed weights move their stored bytes */
static void test_decode_traffic(void)
{
    const char *inputs[] = {"input_ids=1x1",
                            "attention_mask=1x13",
                            "position_ids=1x1",
                            "past_key_values.0.key=1x2x12x16",
                            "past_key_values.0.value=1x2x12x16",
                            "past_key_values.1.key=1x2x12x16",
                            "past_key_values.1.value=1x2x12x16"};
    struct tp_run r;
    struct nnperf_prediction *p = predict_phase("tiny-llama-hf", &gpu, &r, inputs, 7);
    CHECK(p != NULL);
    int concat = 0, expand = 0;
    for (int i = 0; p && i < nnperf_prediction_layer_count(p); i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, i, &li);
        if (!strcmp(li.name, "/layers.0/Concat_k")) {
            concat = 1;
            CHECK(li.store_bytes == 1 * 2 * 1 * 16 * 2); /* one token of 2 heads x 16, fp16 */
            CHECK(li.load_bytes == 1 * 2 * 1 * 16 * 2);  /* reads the new key only, not the 12-token past */
        }
        if (!strcmp(li.op, "Expand") && strstr(li.name, "Expand")) {
            expand++;
            CHECK(li.ddr_bytes == 0 && li.t_total == 0);
        }
    }
    CHECK(concat);
    /* the padding mask's broadcast (the causal mask is folded: shapes only); the K/V repeats are views that form
     * no layer (lowering rule repeat_kv, tests/unit/test_decoder.c) */
    CHECK_EQ_U(expand, 1);
    tp_free(&r);
    const char *gin[] = {"input_ids=1x4",
                         "attention_mask=1x4",
                         "past_key_values.0.key=1x2x0x16",
                         "past_key_values.0.value=1x2x0x16",
                         "past_key_values.1.key=1x2x0x16",
                         "past_key_values.1.value=1x2x0x16"};
    p = predict_phase("tiny-llama-genai-int4", &gpu, &r, gin, 6);
    CHECK(p != NULL);
    int q = 0;
    for (int i = 0; p && i < nnperf_prediction_layer_count(p); i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, i, &li);
        if (!strcmp(li.name, "/model/layers.0/attn/q_proj/MatMulNBits")) {
            q = 1;
            /* B: 64 x 2 blocks x 16 bytes = 2048 bytes as stored; scales: 128 fp16 = 256 bytes */
            CHECK(li.weight_bytes == 2048 + 256);
        }
    }
    CHECK(q);
    tp_free(&r);
}

/* compute.kv_per_query_head: a decode step's GroupQueryAttention (tiny-llama: 4 query heads over 2 KV heads) reads
 * its past key and value once per query head, twice the cache; the prefill (no past, several tokens) and the other
 * layers are unchanged */
static double gqa_load(const char *const *inputs, int n, int per_query_head, double *others)
{
    struct nnperf_platform p = gpu;
    p.hw.kv_per_query_head = per_query_head;
    struct tp_run r;
    struct nnperf_prediction *pr = predict_phase("tiny-llama-genai", &p, &r, inputs, n);
    double gqa = 0;
    *others = 0;
    for (int i = 0; pr && i < nnperf_prediction_layer_count(pr); i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(pr, i, &li);
        if (!strcmp(li.op, "GroupQueryAttention"))
            gqa += li.load_bytes;
        else
            *others += li.ddr_bytes;
    }
    tp_free(&r);
    return gqa;
}

static void test_kv_per_query_head(void)
{
    const char *decode[] = {"input_ids=1x1",
                            "attention_mask=1x13",
                            "past_key_values.0.key=1x2x12x16",
                            "past_key_values.0.value=1x2x12x16",
                            "past_key_values.1.key=1x2x12x16",
                            "past_key_values.1.value=1x2x12x16"};
    const char *prefill[] = {"input_ids=1x4",
                             "attention_mask=1x4",
                             "past_key_values.0.key=1x2x0x16",
                             "past_key_values.0.value=1x2x0x16",
                             "past_key_values.1.key=1x2x0x16",
                             "past_key_values.1.value=1x2x0x16"};
    double o1, o2;
    double once = gqa_load(decode, 6, 0, &o1), per_head = gqa_load(decode, 6, 1, &o2);
    CHECK(once > 0);
    /* 2 layers' past key and value: 2 KV heads x 12 tokens x 16 x 2 bytes each, read by 2 query heads per KV
     * head: once more */
    double past = 2.0 * 2 * 2 * 12 * 16 * 2;
    CHECK(fabs(per_head - once - past) < 1e-9);
    CHECK(o1 == o2);
    double p1 = gqa_load(prefill, 6, 0, &o1), p2 = gqa_load(prefill, 6, 1, &o2);
    CHECK(p1 > 0 && p1 == p2 && o1 == o2);
}

/* a platform from gpu_yaml with extra memory keys */
static int gpu_with(struct nnperf_platform *p, const char *memory_keys)
{
    char text[2048];
    const char *at = strstr(gpu_yaml, "  ddr_bytes: 1MB\n");
    if (!at) return 0;
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - gpu_yaml), gpu_yaml, memory_keys,
             at + strlen("  ddr_bytes: 1MB\n"));
    struct diag d = {0};
    hw_init(&p->hw);
    if (hw_load_yaml(text, strlen(text), "tiny-gpu-mem", &p->hw, &d) != NNPERF_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return 0;
    }
    return 1;
}

/* memory: a configuration over memory.ddr_bytes less memory.reserved_bytes is refused with both sizes; with
 * allow_offload the weights over it stream over memory.host_bandwidth every forward pass */
static void test_memory_refusal(void)
{
    struct nnperf_platform big, small, small_link;
    CHECK(gpu_with(&big, "  ddr_bytes: 1GB\n"));
    struct nnperf_model *m = load("tiny-llama-hf");
    int prompt = 64, batch = 8;
    struct nnperf_llm_options o = {
        .prompts = &prompt, .n_prompts = 1, .batches = &batch, .n_batches = 1, .generate = 8};
    char err[1024];
    struct nnperf_llm *ref = NULL, *l = NULL;
    CHECK(m && nnperf_llm(m, &big, &o, &ref, err, sizeof err) == NNPERF_OK);
    if (!ref) {
        nnperf_model_free(m);
        return;
    }
    struct nnperf_llm_row r0;
    nnperf_llm_row(ref, 0, &r0);
    CHECK(r0.fits == 1 && r0.offload_bytes == 0);
    /* a device whose memory less a 50 kB reserve holds all but half the weights */
    double usable = r0.memory_bytes - r0.weight_bytes / 2;
    char keys[256];
    snprintf(keys, sizeof keys, "  ddr_bytes: %.0f\n  reserved_bytes: 50000\n", usable + 50e3);
    CHECK(gpu_with(&small, keys));
    snprintf(keys, sizeof keys, "  ddr_bytes: %.0f\n  reserved_bytes: 50000\n  host_bandwidth: 1e9\n",
             usable + 50e3);
    CHECK(gpu_with(&small_link, keys));
    CHECK(nnperf_llm(m, &small, &o, &l, err, sizeof err) == NNPERF_E_USAGE && l == NULL);
    CHECK(strstr(err, "does not fit") && strstr(err, "but 'tiny-gpu' has ") &&
          strstr(err, " after the runtime's reserve of 50 kB)") && strstr(err, "--allow-offload"));
    o.allow_offload = 1;
    CHECK(nnperf_llm(m, &small, &o, &l, err, sizeof err) == NNPERF_E_USAGE && l == NULL);
    CHECK(strstr(err, "memory.host_bandwidth") != NULL);
    CHECK(nnperf_llm(m, &small_link, &o, &l, err, sizeof err) == NNPERF_OK);
    if (l) {
        struct nnperf_llm_row r;
        nnperf_llm_row(l, 0, &r);
        double over = r0.memory_bytes - usable, t = over / 1e9;
        CHECK(r.fits == 0 && fabs(r.offload_bytes - over) <= 1e-9 * over);
        CHECK(fabs(r.ttft_s - (r0.ttft_s + t)) <= 1e-9 * r.ttft_s);
        CHECK(fabs(r.tpot_mean_s - (r0.tpot_mean_s + t)) <= 1e-9 * r.tpot_mean_s);
        CHECK(fabs(r.e2e_s - (r0.e2e_s + 9 * t)) <= 1e-9 * r.e2e_s);
        CHECK(nnperf_llm_warning(l, 0) && strstr(nnperf_llm_warning(l, 0), "stream from host memory"));
    }
    nnperf_llm_free(l);
    /* the reserve and the KV fraction shrink the largest batch: (usable - weights) / (acts + KV / fraction) */
    struct nnperf_platform res;
    CHECK(gpu_with(&res, "  ddr_bytes: 1GB\n  reserved_bytes: 0.5GB\n  kv_fraction: 0.5\n"));
    o.allow_offload = 0;
    l = NULL;
    CHECK(nnperf_llm(m, &res, &o, &l, err, sizeof err) == NNPERF_OK);
    if (l) {
        struct nnperf_llm_summary s, s0;
        nnperf_llm_summary(l, &s), nnperf_llm_summary(ref, &s0);
        double per_seq = (r0.activation_bytes + r0.kv_cache_bytes / 0.5) / batch;
        CHECK_EQ_U(s.max_batch, (unsigned)floor((0.5e9 - r0.weight_bytes) / per_seq));
        CHECK(s.max_batch < s0.max_batch / 2);
        CHECK(s.reserved_bytes == 0.5e9 && s.kv_fraction == 0.5);
    }
    nnperf_llm_free(l);
    nnperf_llm_free(ref);
    nnperf_model_free(m);
}

/* the model's position limit: tiny-llama-hf's rotary table covers 512 positions; a context over it is refused,
 * and the largest context reported is at most it */
static void test_position_limit(void)
{
    struct nnperf_platform big;
    CHECK(gpu_with(&big, "  ddr_bytes: 1GB\n"));
    const char *names[2] = {"tiny-llama-hf", "tiny-llama-genai"};
    for (int k = 0; k < 2; k++) {
        struct nnperf_model *m = load(names[k]);
        int prompt = 500;
        struct nnperf_llm_options o = {.prompts = &prompt, .n_prompts = 1, .generate = 13};
        char err[1024];
        struct nnperf_llm *l = NULL;
        CHECK(m && nnperf_llm(m, &big, &o, &l, err, sizeof err) == NNPERF_E_USAGE && l == NULL);
        CHECK(strstr(err, "513 tokens is over the model's position limit of 512 tokens (rotary table") !=
              NULL);
        o.generate = 12;
        CHECK(m && nnperf_llm(m, &big, &o, &l, err, sizeof err) == NNPERF_OK);
        if (l) {
            struct nnperf_llm_summary s;
            nnperf_llm_summary(l, &s);
            CHECK_EQ_U(s.position_limit, 512);
            CHECK_EQ_U(s.max_context, 512); /* 1 GB would hold far more */
        }
        nnperf_llm_free(l);
        nnperf_model_free(m);
    }
}

/* the peak activations are what a serving runtime holds: no attention scores where the platform fuses attention
 * (they stay on chip) */
static void test_peak_activations(void)
{
    struct nnperf_platform fused, plain;
    CHECK(gpu_with(&fused, "  ddr_bytes: 1GB\n"));
    fused.hw.fused_attention = 1;
    CHECK(gpu_with(&plain, "  ddr_bytes: 1GB\n"));
    struct nnperf_model *m = load("tiny-llama-hf");
    int prompt = 256;
    struct nnperf_llm_options o = {.prompts = &prompt, .n_prompts = 1, .generate = 4};
    char err[1024];
    struct nnperf_llm *lf = NULL, *lp = NULL;
    CHECK(m && nnperf_llm(m, &fused, &o, &lf, err, sizeof err) == NNPERF_OK);
    CHECK(m && nnperf_llm(m, &plain, &o, &lp, err, sizeof err) == NNPERF_OK);
    if (lf && lp) {
        struct nnperf_llm_row rf, rp;
        nnperf_llm_row(lf, 0, &rf), nnperf_llm_row(lp, 0, &rp);
        /* one layer's scores: 4 heads x 256 x 256 fp32 = 1 MB, materialised only without fused attention */
        CHECK(rp.activation_bytes > 4.0 * 256 * 256 * 4);
        CHECK(rp.activation_bytes - rf.activation_bytes >= 4.0 * 256 * 256 * 4);
    }
    nnperf_llm_free(lf);
    nnperf_llm_free(lp);
    nnperf_model_free(m);
}

static struct nnperf_llm *run_config(const char *name, struct nnperf_platform *p,
                                     const struct nnperf_llm_options *o, char *err, size_t errlen,
                                     enum nnperf_status *st)
{
    char path[256];
    snprintf(path, sizeof path, DIR "configs/%s.json", name);
    struct nnperf_model *m = NULL;
    struct nnperf_llm *l = NULL;
    *st = nnperf_llm_config_load_tp(path, o->tp ? o->tp : 1, &m, err, errlen);
    if (!*st) *st = nnperf_llm(m, p, o, &l, err, errlen);
    nnperf_model_free(m);
    return l;
}

/* a decoder built from a config.json predicts what the ONNX graph of the same model in the GenAI layout does
 * (tiny-llama and tiny-mixtral, written independently by bench/llm/make_graphs.py): the same times, cache and
 * activations, exactly */
static void test_config_equals_onnx(void)
{
    struct nnperf_platform big;
    CHECK(gpu_with(&big, "  ddr_bytes: 1GB\n"));
    big.hw.fused_attention = 1, big.hw.fuse_pointwise = 1;
    const char *names[2] = {"tiny-llama", "tiny-mixtral"};
    int prompts[2] = {16, 300}, batches[2] = {1, 3};
    struct nnperf_llm_options o = {
        .prompts = prompts, .n_prompts = 2, .batches = batches, .n_batches = 2, .generate = 8};
    for (int k = 0; k < 2; k++) {
        char err[1024], onnx[64];
        enum nnperf_status st;
        struct nnperf_llm *a = run_config(names[k], &big, &o, err, sizeof err, &st);
        if (!a) fprintf(stderr, "%s\n", err);
        snprintf(onnx, sizeof onnx, "%s-genai", names[k]);
        struct nnperf_model *m = load(onnx);
        struct nnperf_llm *b = NULL;
        CHECK(a && m && nnperf_llm(m, &big, &o, &b, err, sizeof err) == NNPERF_OK);
        for (int i = 0; a && b && i < 4; i++) {
            struct nnperf_llm_row ra, rb;
            nnperf_llm_row(a, i, &ra), nnperf_llm_row(b, i, &rb);
            CHECK(ra.ttft_s == rb.ttft_s && ra.tpot_mean_s == rb.tpot_mean_s &&
                  ra.tpot_last_s == rb.tpot_last_s);
            CHECK(ra.kv_cache_bytes == rb.kv_cache_bytes && ra.activation_bytes == rb.activation_bytes);
            CHECK(ra.weight_bytes == rb.weight_bytes);
        }
        if (a) {
            struct nnperf_llm_summary s;
            nnperf_llm_summary(a, &s);
            CHECK_EQ_U(s.layers, 2);
            CHECK_EQ_U(s.kv_heads, 2);
            CHECK_EQ_U(s.head_dim, 16);
            CHECK_EQ_U(s.position_limit, 512);
        }
        nnperf_llm_free(a);
        nnperf_llm_free(b);
        nnperf_model_free(m);
    }
}

/* the expected error: the platform's llm_validation in the summary, the table, the JSON and the HTML card; none
 * (NAN, "not validated", null) without it, or once the platform is changed with --set */
static void test_expected_error(void)
{
    char text[1024], err[1024], *out = NULL;
    size_t len = 0;
    snprintf(text, sizeof text, "%sllm_validation: {test_rows: 12, median_error: 0.0734, p90_error: 0.21}\n",
             gpu_yaml);
    struct nnperf_platform band;
    struct diag d = {0};
    hw_init(&band.hw);
    CHECK(hw_load_yaml(text, strlen(text), "tiny-gpu-band", &band.hw, &d) == NNPERF_OK);
    struct nnperf_model *m = load("tiny-llama-hf");
    int prompt = 32, one = 1;
    struct nnperf_llm_options o = {
        .prompts = &prompt, .n_prompts = 1, .batches = &one, .n_batches = 1, .generate = 4};
    const struct nnperf_platform *plats[2] = {&band, &gpu};
    for (int k = 0; m && k < 3; k++) {
        if (k == 2)
            CHECK(nnperf_platform_set(&band, "memory.ddr_bandwidth", "2e10", err, sizeof err) == NNPERF_OK);
        struct nnperf_llm *l = NULL;
        CHECK(nnperf_llm(m, plats[k == 1], &o, &l, err, sizeof err) == NNPERF_OK);
        if (!l) continue;
        struct nnperf_llm_summary s;
        nnperf_llm_summary(l, &s);
        int on = k == 0;
        CHECK(s.expected_error_rows == (on ? 12 : 0));
        CHECK(on ? s.expected_error_median == 0.0734 && s.expected_error_p90 == 0.21
                 : isnan(s.expected_error_median) && isnan(s.expected_error_p90));
        CHECK(nnperf_llm_render(l, NNPERF_FORMAT_TABLE, &out, &len, err, sizeof err) == NNPERF_OK);
        CHECK(out &&
              strstr(out, on       ? "expected error           +-7% median, +-21% at the 90th percentile "
                                     "(|error| over 12 LLM test rows, bench/llm)"
                          : k == 1 ? "expected error           not validated (no LLM test rows"
                                   : "expected error           not validated (the platform was changed "
                                     "with --set)"));
        free(out);
        out = NULL;
        CHECK(nnperf_llm_render(l, NNPERF_FORMAT_JSON, &out, &len, err, sizeof err) == NNPERF_OK);
        CHECK(out && strstr(out, on ? "\"expected_error\":{\"median\":0.0734,\"p90\":0.21,\"test_rows\":12}"
                                    : "\"expected_error\":null"));
        free(out);
        out = NULL;
        CHECK(nnperf_llm_render(l, NNPERF_FORMAT_HTML, &out, &len, err, sizeof err) == NNPERF_OK);
        CHECK(out && strstr(out, on ? "+-7% n=12" : "not validated"));
        free(out);
        out = NULL;
        nnperf_llm_free(l);
    }
    nnperf_model_free(m);
}

/* the published configurations: weights = the model's parameters (counted here from its config) x 2 bytes + the
 * rotary tables, KV cache from its own KV heads and head_dim; a mixture of experts reads only the routed experts
 * at one token */
static void test_configs(void)
{
    struct nnperf_platform big;
    CHECK(gpu_with(&big, "  ddr_bytes: 1TB\n"));
    struct {
        const char *name;
        double h, layers, heads, kv, hd, ffn, vocab, pos, experts, tied, bias, qk_norm, post_norms;
    } t[] = {
        {"llama-3.1-8b", 4096, 32, 32, 8, 128, 14336, 128256, 131072, 0, 0, 0, 0, 0},
        {"llama-3-70b", 8192, 80, 64, 8, 128, 28672, 128256, 8192, 0, 0, 0, 0, 0},
        {"llama-3.3-70b", 8192, 80, 64, 8, 128, 28672, 128256, 131072, 0, 0, 0, 0, 0},
        {"qwen2.5-7b", 3584, 28, 28, 4, 128, 18944, 152064, 131072, 0, 0, 1, 0, 0},
        {"mixtral-8x7b", 4096, 32, 32, 8, 128, 14336, 32000, 32768, 8, 0, 0, 0, 0},
        {"qwen3-8b", 4096, 36, 32, 8, 128, 12288, 151936, 40960, 0, 0, 0, 1, 0},
        {"qwen3-0.6b", 1024, 28, 16, 8, 128, 3072, 151936, 40960, 0, 1, 0, 1, 0},
        {"qwen3-1.7b", 2048, 28, 16, 8, 128, 6144, 151936, 40960, 0, 1, 0, 1, 0},
        {"qwen3-4b-instruct-2507", 2560, 36, 32, 8, 128, 9728, 151936, 262144, 0, 1, 0, 1, 0},
        {"gemma-2-9b", 3584, 42, 16, 8, 256, 14336, 256000, 8192, 0, 1, 0, 0, 1},
        {"phi-3-mini-4k", 3072, 32, 32, 32, 96, 8192, 32064, 4096, 0, 0, 0, 0, 0},
    };
    int prompt = 64, one = 1;
    struct nnperf_llm_options o = {
        .prompts = &prompt, .n_prompts = 1, .batches = &one, .n_batches = 1, .generate = 4};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        char err[1024];
        enum nnperf_status st;
        struct nnperf_llm *l = run_config(t[k].name, &big, &o, err, sizeof err, &st);
        CHECK(l != NULL);
        if (!l) {
            fprintf(stderr, "%s: %s\n", t[k].name, err);
            continue;
        }
        double h = t[k].h, q = t[k].heads * t[k].hd, kv = t[k].kv * t[k].hd;
        double mlp = 3 * h * t[k].ffn * (t[k].experts > 0 ? t[k].experts : 1) +
                     (t[k].experts > 0 ? h * t[k].experts : 0);
        double layer = h * q * 2 + h * kv * 2 + mlp + 2 * h + (t[k].bias > 0 ? q + 2 * kv : 0) +
                       (t[k].qk_norm > 0 ? 2 * t[k].hd : 0) + (t[k].post_norms > 0 ? 2 * h : 0);
        double params = t[k].layers * layer + t[k].vocab * h * (t[k].tied > 0 ? 1 : 2) + h;
        double rotary = 2 * t[k].pos * t[k].hd / 2;
        struct nnperf_llm_row r;
        nnperf_llm_row(l, 0, &r);
        struct nnperf_llm_summary s;
        nnperf_llm_summary(l, &s);
        /* and a few int64 constants: the mask's, the per-head norms' shapes */
        double consts = r.weight_bytes - 2 * (params + rotary);
        CHECK(consts >= 0 && consts < 64 + 128 * t[k].layers);
        CHECK(r.kv_cache_bytes == 2 * t[k].layers * kv * (prompt + 4) * 2);
        CHECK_EQ_U(s.position_limit, (unsigned)t[k].pos);
        CHECK_EQ_U(s.kv_heads, (unsigned)t[k].kv);
        nnperf_llm_free(l);
    }
    /* Llama-3.1-8B: 8,030,261,248 parameters (its published size, 8.03B) */
    double l31 = 32 * (4096.0 * 4096 * 2 + 4096.0 * 1024 * 2 + 3 * 4096.0 * 14336 + 2 * 4096) +
                 2 * 128256.0 * 4096 + 4096;
    CHECK(l31 == 8030261248.0);
}

/* compute.op_kernels, overhead.small_kernel_s and overhead.prefill_host_kernel_s: Qwen3-0.6B's 28 attention nodes
 * run as 19 kernels each, 18 more at 1 us in every decode step; the prefill takes the host's 1 ms per kernel it
 * launches (more than its device time), the decode steps do not */
static void test_kernels_and_host(void)
{
    static const char yaml[] =
        "format: 1\nname: tiny-gpu-kernels\n"
        "compute:\n  peak_ops: {fp16: 1e12, fp32: 5e11}\n  default_dtype: fp16\n"
        "  op_kernels: [{op: GroupQueryAttention, kernels: 19}]\n"
        "memory:\n  ddr_bandwidth: 1e10\n  ddr_bytes: 1TB\n"
        "overhead:\n  per_layer_s: 1e-6\n  small_kernel_s: 1e-6\n  prefill_host_kernel_s: 1e-3\n";
    struct nnperf_platform plain, more;
    struct diag d = {0};
    CHECK(gpu_with(&plain, "  ddr_bytes: 1TB\n"));
    hw_init(&more.hw);
    CHECK(hw_load_yaml(yaml, strlen(yaml), "tiny-gpu-kernels", &more.hw, &d) == NNPERF_OK);
    int prompt = 16, one = 1;
    struct nnperf_llm_options o = {.prompts = &prompt,
                                   .n_prompts = 1,
                                   .batches = &one,
                                   .n_batches = 1,
                                   .generate = 2,
                                   .decode_points = 2};
    char err[1024];
    enum nnperf_status st;
    struct nnperf_llm *a = run_config("qwen3-0.6b", &plain, &o, err, sizeof err, &st);
    struct nnperf_llm *b = run_config("qwen3-0.6b", &more, &o, err, sizeof err, &st);
    if (!a || !b) fprintf(stderr, "%s\n", err);
    CHECK(a && b);
    if (a && b) {
        struct nnperf_llm_row ra, rb;
        nnperf_llm_row(a, 0, &ra);
        nnperf_llm_row(b, 0, &rb);
        CHECK(fabs(rb.tpot_first_s - ra.tpot_first_s - 28 * 18e-6) < 1e-9);
        double k = rb.ttft_s / 1e-3;
        CHECK(ra.ttft_s < 0.5 && k > 28 * 19 && fabs(k - floor(k + 0.5)) < 1e-6);
    }
    nnperf_llm_free(a);
    nnperf_llm_free(b);
}

/* a mixture of experts at one token reads k of E experts' weights; a long prompt reads them all */
static void test_moe_traffic(void)
{
    struct nnperf_model *m = NULL;
    char err[512];
    CHECK(nnperf_llm_config_load(DIR "configs/tiny-mixtral.json", &m, err, sizeof err) == NNPERF_OK);
    const char *dec[] = {"input_ids=1x1",
                         "attention_mask=1x9",
                         "past_key_values.0.key=1x2x8x16",
                         "past_key_values.0.value=1x2x8x16",
                         "past_key_values.1.key=1x2x8x16",
                         "past_key_values.1.value=1x2x8x16"};
    const char *pre[] = {"input_ids=1x256",
                         "attention_mask=1x256",
                         "past_key_values.0.key=1x2x0x16",
                         "past_key_values.0.value=1x2x0x16",
                         "past_key_values.1.key=1x2x0x16",
                         "past_key_values.1.value=1x2x0x16"};
    double wb[2] = {0};
    for (int ph = 0; m && ph < 2; ph++) {
        struct nnperf_analyze_options ao = {ph ? pre : dec, 6, NULL, 0};
        struct nnperf_analysis *a = NULL;
        struct nnperf_prediction *p = NULL;
        CHECK(nnperf_analyze(m, &ao, &a, err, sizeof err) == NNPERF_OK);
        if (a) CHECK(nnperf_predict(a, &gpu, NULL, &p, err, sizeof err) == NNPERF_OK);
        for (int i = 0; p && i < nnperf_prediction_layer_count(p); i++) {
            struct nnperf_layer_info li;
            nnperf_prediction_layer(p, i, &li);
            if (!strcmp(li.name, "/model/layers.0/mlp/MoE")) wb[ph] = li.weight_bytes;
        }
        nnperf_prediction_free(p);
        nnperf_analysis_free(a);
    }
    double expert = 3.0 * 64 * 96 * 2;   /* one expert's fc1, fc2, fc3 in fp16 */
    CHECK(fabs(wb[0] - 2 * expert) < 1); /* one token: its 2 experts */
    CHECK(fabs(wb[1] - 4 * expert) < 1); /* 256 tokens: all 4 */
    nnperf_model_free(m);
}

/* bad configurations: the file, line and column, or the key */
static void test_config_errors(void)
{
    static const struct {
        const char *text, *want;
        enum nnperf_status st;
    } t[] = {
        {"{\"model_type\": \"llama\",\n \"hidden_size\": 64 \"x\": 1}", ":2:20: expected ',' or '}'",
         NNPERF_E_PARSE},
        {"[1, 2]", ":1:1: expected a JSON object", NNPERF_E_PARSE},
        {"{\"model_type\": \"gpt2\"}", "model_type 'gpt2' is not one nnperf builds", NNPERF_E_UNSUPPORTED},
        {"{\"hidden_size\": 64}", "no 'model_type'", NNPERF_E_INVALID},
        {"{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 2}",
         "'num_attention_heads' is missing", NNPERF_E_INVALID},
        {"{\"model_type\": \"llama\", \"hidden_size\": 64.5}",
         "'hidden_size' is 64.5, expected a whole number", NNPERF_E_INVALID},
        {"{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
         "\"num_attention_heads\": 4, "
         "\"num_key_value_heads\": 3, \"vocab_size\": 8, \"max_position_embeddings\": 8, "
         "\"intermediate_size\": 8}",
         "num_attention_heads 4 is not a multiple of num_key_value_heads 3", NNPERF_E_INVALID},
        {"{\"model_type\": \"llama\", \"a\": \"unterminated}", "unterminated string", NNPERF_E_PARSE},
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        char path[] = "/tmp/nnperf-config-XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0);
        if (fd < 0) continue;
        FILE *f = fdopen(fd, "w");
        fputs(t[k].text, f);
        fclose(f);
        struct nnperf_model *m = NULL;
        char err[1024];
        enum nnperf_status st = nnperf_llm_config_load(path, &m, err, sizeof err);
        CHECK(st == t[k].st && m == NULL);
        CHECK(strstr(err, t[k].want) != NULL && strstr(err, path) != NULL);
        if (!strstr(err, t[k].want)) fprintf(stderr, "got: %s\n", err);
        remove(path);
    }
}

/* storage formats: fp8 encodings, GGUF types by bits per weight, group-quantized intN:gG, bits per weight */
static void test_weight_formats(void)
{
    CHECK(pr_dtype_bytes("fp8_e4m3") == 1 && pr_dtype_bytes("E5M2") == 1 && pr_dtype_bytes("fp8") == 1);
    CHECK(pr_dtype_bytes("q4_k_m") == 4.84 / 8 && pr_dtype_bytes("Q4_0") == 4.5 / 8 &&
          pr_dtype_bytes("q8_0") == 8.5 / 8);
    CHECK(pr_dtype_bytes("int4:g128") == (4 + 20.0 / 128) / 8);
    CHECK(pr_dtype_bytes("int8:g32") == (8 + 24.0 / 32) / 8);
    CHECK(pr_dtype_bytes("4.85") == 4.85 / 8);
    CHECK(pr_dtype_bytes("q9_k") == 0 && pr_dtype_bytes("int4:g4") == 0 && pr_dtype_bytes("int4:") == 0 &&
          pr_dtype_bytes("0.5") == 0 && pr_dtype_bytes("4.85x") == 0 && pr_dtype_bytes("") == 0);
    CHECK(hw_dtype_from_name("fp8_e5m2") == HW_FP8 && hw_dtype_from_name("q4_k_m") < 0);
    /* the weight bytes and the decode step follow the bits: q4_k_m between int4 and int8 */
    struct nnperf_platform big;
    CHECK(gpu_with(&big, "  ddr_bytes: 1GB\n"));
    big.hw.peak_ops[HW_INT8] = big.hw.peak_ops[HW_INT4] = 2e12;
    int prompt = 16;
    const char *w[3] = {"int4", "q4_k_m", "int8"};
    double wb[3] = {0}, tp[3] = {0}, f16 = 0;
    for (int k = 0; k < 3; k++) {
        struct nnperf_llm_options o = {
            .prompts = &prompt, .n_prompts = 1, .generate = 4, .weights = w[k], .compute = "fp16"};
        char err[1024];
        enum nnperf_status st;
        struct nnperf_llm *l = run_config("tiny-llama", &big, &o, err, sizeof err, &st);
        CHECK(l != NULL);
        if (!l) continue;
        struct nnperf_llm_row r;
        nnperf_llm_row(l, 0, &r);
        wb[k] = r.weight_bytes, tp[k] = r.tpot_mean_s;
        if (k == 1) { /* the float weights at 4.84 bits: fp16 bytes x 4.84 / 16 plus the int64 constants */
            struct nnperf_llm_options o16 = o;
            o16.weights = NULL;
            struct nnperf_llm *l16 = run_config("tiny-llama", &big, &o16, err, sizeof err, &st);
            if (l16) {
                struct nnperf_llm_row r16;
                nnperf_llm_row(l16, 0, &r16);
                f16 = r16.weight_bytes;
            }
            nnperf_llm_free(l16);
        }
        nnperf_llm_free(l);
    }
    CHECK(wb[0] < wb[1] && wb[1] < wb[2] && tp[0] < tp[1] && tp[1] < tp[2]);
    CHECK(fabs(wb[1] - f16 * 4.84 / 16) < 16); /* one 8-byte int64 constant */
}

/* fp8 compute: at a platform's fp8 peak, stored at one byte; refused where there is no fp8 peak */
static void test_fp8(void)
{
    struct nnperf_platform fp8, none;
    CHECK(gpu_with(&fp8, "  ddr_bytes: 1GB\n"));
    fp8.hw.peak_ops[HW_FP8] = fp8.hw.peak_ops[HW_INT8] = 2e12;
    CHECK(gpu_with(&none, "  ddr_bytes: 1GB\n"));
    int prompt = 64;
    struct nnperf_llm_options o = {.prompts = &prompt, .n_prompts = 1, .generate = 4, .compute = "fp8_e4m3"};
    struct nnperf_llm_options o8 = o, o16 = o;
    o8.compute = "int8", o16.compute = "fp16";
    char err[1024];
    enum nnperf_status st;
    struct nnperf_llm *a = run_config("tiny-llama", &fp8, &o, err, sizeof err, &st);
    struct nnperf_llm *b = run_config("tiny-llama", &fp8, &o8, err, sizeof err, &st);
    struct nnperf_llm *c = run_config("tiny-llama", &fp8, &o16, err, sizeof err, &st);
    CHECK(a && b && c);
    if (a && b && c) {
        struct nnperf_llm_row ra, rb, rc;
        nnperf_llm_row(a, 0, &ra), nnperf_llm_row(b, 0, &rb), nnperf_llm_row(c, 0, &rc);
        CHECK(ra.ttft_s == rb.ttft_s && ra.tpot_mean_s == rb.tpot_mean_s); /* same peak, same bytes as int8 */
        CHECK(ra.ttft_s < rc.ttft_s && ra.tpot_mean_s < rc.tpot_mean_s);
        CHECK(ra.kv_cache_bytes * 2 == rc.kv_cache_bytes); /* the cache at the compute dtype */
    }
    nnperf_llm_free(a), nnperf_llm_free(b), nnperf_llm_free(c);
    CHECK(run_config("tiny-llama", &none, &o, err, sizeof err, &st) == NULL && st == NNPERF_E_USAGE);
    CHECK(strstr(err, "has no fp8 peak (compute.peak_ops.fp8)") != NULL);
}

/* serving: a closed loop at concurrency B with fixed lengths saturates at the static batch-B prediction; the
 * same seed gives the same run, in two threads at once too; a small cache preempts and still finishes */
struct serve_job {
    struct nnperf_model *m;
    const struct nnperf_platform *p;
    struct nnperf_llm_options o;
    struct nnperf_serve_result r;
    enum nnperf_status st;
};

static void *serve_thread(void *arg)
{
    struct serve_job *j = arg;
    struct nnperf_llm *l = NULL;
    char err[1024];
    j->st = nnperf_llm(j->m, j->p, &j->o, &l, err, sizeof err);
    if (j->st) fprintf(stderr, "%s\n", err);
    if (l) nnperf_llm_serve_result(l, &j->r);
    nnperf_llm_free(l);
    return NULL;
}

static void test_serve(void)
{
    struct nnperf_platform big;
    CHECK(gpu_with(&big, "  ddr_bytes: 1GB\n"));
    struct nnperf_model *m = NULL;
    char err[512];
    CHECK(nnperf_llm_config_load(DIR "configs/tiny-llama.json", &m, err, sizeof err) == NNPERF_OK);
    if (!m) return;
    int prompt = 64, batch = 8;
    struct nnperf_serve_options so = {.requests = 96, .concurrency = 8, .chunk = 8 * 64 + 8, .max_batch = 8};
    struct serve_job a = {.m = m, .p = &big};
    a.o = (struct nnperf_llm_options){
        .prompts = &prompt, .n_prompts = 1, .batches = &batch, .n_batches = 1, .generate = 32, .serve = &so};
    serve_thread(&a);
    CHECK(a.st == NNPERF_OK && a.r.requests == 96 && a.r.preemptions == 0);
    struct nnperf_llm *l = NULL;
    struct nnperf_llm_options st_o = a.o;
    st_o.serve = NULL;
    CHECK(nnperf_llm(m, &big, &st_o, &l, err, sizeof err) == NNPERF_OK);
    if (l) {
        struct nnperf_llm_row r;
        nnperf_llm_row(l, 0, &r);
        double static_tps = 8.0 * 32 / r.e2e_s;
        CHECK(fabs(a.r.output_tokens_per_s - static_tps) < 0.10 * static_tps);
        if (fabs(a.r.output_tokens_per_s - static_tps) >= 0.10 * static_tps)
            fprintf(stderr, "serve %g static %g\n", a.r.output_tokens_per_s, static_tps);
        CHECK(nnperf_llm_serve_result(l, &a.r) == 0);
        nnperf_llm_free(l);
    }
    /* Poisson arrivals, exponential lengths: the same seed in two threads at once equals one after the other */
    struct nnperf_serve_options po = {
        .requests = 300, .rate = 2000, .seed = 7, .lengths = NNPERF_LENGTHS_EXPONENTIAL};
    struct serve_job s1 = a, s2 = a, t1, t2;
    s1.o.serve = s2.o.serve = &po;
    s1.o.batches = s2.o.batches = NULL, s1.o.n_batches = s2.o.n_batches = 0;
    serve_thread(&s1);
    t1 = s1, t2 = s1;
    memset(&t1.r, 0, sizeof t1.r), memset(&t2.r, 0, sizeof t2.r);
    pthread_t th1, th2;
    int c1 = pthread_create(&th1, NULL, serve_thread, &t1),
        c2 = pthread_create(&th2, NULL, serve_thread, &t2);
    CHECK(c1 == 0 && c2 == 0);
    if (!c1) pthread_join(th1, NULL);
    if (!c2) pthread_join(th2, NULL);
    CHECK(s1.st == NNPERF_OK && t1.st == NNPERF_OK && t2.st == NNPERF_OK);
    CHECK(!memcmp(&s1.r, &t1.r, sizeof s1.r) && !memcmp(&s1.r, &t2.r, sizeof s1.r));
    CHECK(s1.r.ttft_s[0] <= s1.r.ttft_s[1] && s1.r.ttft_s[1] <= s1.r.ttft_s[2] &&
          s1.r.e2e_s[2] >= s1.r.e2e_s[0]);
    CHECK(s1.r.kv_occupancy_peak <= 1 && s1.r.kv_occupancy_mean > 0 && s1.r.requests_per_s > 0);
    po.seed = 8;
    serve_thread(&s2);
    CHECK(s2.st == NNPERF_OK && memcmp(&s1.r, &s2.r, sizeof s1.r) != 0);
    /* a cache of a few blocks: requests are preempted and recomputed, and all finish */
    struct nnperf_platform small;
    CHECK(gpu_with(&small, "  ddr_bytes: 392kB\n"));
    struct nnperf_serve_options pc = {.requests = 40, .concurrency = 16, .block_size = 16, .chunk = 64};
    struct serve_job s3 = s1;
    s3.p = &small, s3.o.serve = &pc;
    serve_thread(&s3);
    CHECK(s3.st == NNPERF_OK && s3.r.preemptions > 0 && s3.r.requests == 40);

    nnperf_model_free(m);
}

/* writes text into a new temporary file named by tmpl (mkstemp) */
static void write_tmp(char *tmpl, const char *text)
{
    CHECK(tf_write_tmp(tmpl, text));
}

/* serving, what issue 20 asked next: a trace file (CSV and JSON lines give the same run; bad ones are named with
 * their line), KV occupancy over time (its time average is the run's mean), the largest rate meeting a latency
 * target (met there, and a tighter target gives a lower rate) */
static void test_serve_trace_slo(void)
{
    struct nnperf_platform big;
    CHECK(gpu_with(&big, "  ddr_bytes: 1GB\n"));
    struct nnperf_model *m = NULL;
    char err[1024];
    CHECK(nnperf_llm_config_load(DIR "configs/tiny-llama.json", &m, err, sizeof err) == NNPERF_OK);
    if (!m) return;
    char csv[] = "/tmp/nnperf-trace-XXXXXX", jsonl[] = "/tmp/nnperf-trace-XXXXXX",
         bad[] = "/tmp/nnperf-trace-XXXXXX";
    char text[8192] = "# a trace\nid,arrival_s,prompt,output\n", js[8192] = "";
    for (int i = 0; i < 40; i++) {
        size_t n = strlen(text), k = strlen(js);
        snprintf(text + n, sizeof text - n, "%d,%g,%d,%d\n", i, i * 0.0003, 20 + 7 * (i % 5),
                 5 + 3 * (i % 4));
        snprintf(js + k, sizeof js - k, "{\"output\": %d, \"arrival_s\": %g, \"prompt\": %d}\n",
                 5 + 3 * (i % 4), i * 0.0003, 20 + 7 * (i % 5));
    }
    write_tmp(csv, text), write_tmp(jsonl, js);
    struct nnperf_serve_options so = {.trace = csv};
    struct serve_job a = {.m = m, .p = &big}, b;
    int p64 = 64;
    a.o = (struct nnperf_llm_options){.prompts = &p64, .n_prompts = 1, .generate = 8, .serve = &so};
    b = a;
    serve_thread(&a);
    struct nnperf_serve_options sj = so;
    sj.trace = jsonl;
    b.o.serve = &sj;
    serve_thread(&b);
    CHECK(a.st == NNPERF_OK && b.st == NNPERF_OK && a.r.requests == 40);
    CHECK(!memcmp(&a.r, &b.r, sizeof a.r));
    /* the series: 64 spans, occupancy in [0, 1], its time average the run's mean */
    CHECK_EQ_U(a.r.n_series, NNPERF_SERVE_SERIES);
    double sum = 0;
    for (int k = 0; k < a.r.n_series; k++) {
        sum += a.r.series_kv[k];
        CHECK(a.r.series_kv[k] >= 0 && a.r.series_kv[k] <= 1 && a.r.series_running[k] >= 0);
        CHECK(k == 0 || a.r.series_t[k] > a.r.series_t[k - 1]);
    }
    CHECK(fabs(sum / a.r.n_series - a.r.kv_occupancy_mean) < 1e-9 * a.r.kv_occupancy_mean);
    CHECK(a.r.kv_occupancy_mean > 0);
    /* bad traces */
    const char *bads[][2] = {
        {"arrival_s,prompt\n0,5\n", ":1: the CSV header has no 'output' column"},
        {"arrival_s,prompt,output\n0.5,5,5\n0.2,5,5\n", ":3: arrival_s 0.2 is before"},
        {"arrival_s,prompt,output\n0,x,5\n", ":2: no number for 'prompt'"},
        {"{\"arrival_s\": 0, \"prompt\": 5}\n", ":1: no number for 'output'"},
        {"arrival_s,prompt,output\n0,500,20\n", "over the model's position limit of 512"},
        {"arrival_s,prompt,output\n0,2.5,5\n", "'prompt' is 2.5, expected a whole number"}};
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        strcpy(bad, "/tmp/nnperf-trace-XXXXXX");
        write_tmp(bad, bads[i][0]);
        struct nnperf_serve_options sb = {.trace = bad};
        struct nnperf_llm_options o = a.o;
        o.serve = &sb;
        struct nnperf_llm *l = NULL;
        CHECK(nnperf_llm(m, &big, &o, &l, err, sizeof err) == NNPERF_E_INVALID && strstr(err, bads[i][1]) &&
              strstr(err, bad));
        if (!strstr(err, bads[i][1])) fprintf(stderr, "%s\n", err);
        unlink(bad);
    }
    /* a latency target: the largest Poisson rate whose p90 TTFT is within 2 ms */
    int prompt = 64;
    struct nnperf_serve_options ps = {
        .requests = 300, .rate = 100, .seed = 3, .lengths = NNPERF_LENGTHS_UNIFORM, .slo_ttft_s = 2e-3};
    struct serve_job c = {.m = m, .p = &big};
    c.o = (struct nnperf_llm_options){.prompts = &prompt, .n_prompts = 1, .generate = 16, .serve = &ps};
    serve_thread(&c);
    CHECK(c.st == NNPERF_OK && c.r.slo_searched && c.r.slo_rate > 0);
    CHECK(c.r.slo_ttft_s <= 2e-3 && c.r.slo_ttft_s > 0);
    struct serve_job at = c;
    struct nnperf_serve_options pa = ps;
    pa.rate = c.r.slo_rate, pa.slo_ttft_s = 0;
    at.o.serve = &pa;
    serve_thread(&at);
    CHECK(at.st == NNPERF_OK && at.r.ttft_s[1] == c.r.slo_ttft_s && !at.r.slo_searched);
    struct nnperf_serve_options pt = ps;
    pt.slo_ttft_s = 1e-3, pt.slo_tpot_s = 1e-3, pt.slo_percentile = 99;
    struct serve_job t = c;
    t.o.serve = &pt;
    serve_thread(&t);
    CHECK(t.st == NNPERF_OK && t.r.slo_rate <= c.r.slo_rate);
    CHECK(t.r.slo_rate == 0 || (t.r.slo_ttft_s <= 1e-3 && t.r.slo_tpot_s <= 1e-3));
    /* a trace and a rate at once, or a percentile other than 90 and 99, are refused */
    struct nnperf_serve_options both = {.trace = csv, .rate = 3}, pct = {.rate = 3, .slo_percentile = 95};
    struct nnperf_llm_options o = a.o;
    struct nnperf_llm *l = NULL;
    o.serve = &both;
    CHECK(nnperf_llm(m, &big, &o, &l, err, sizeof err) == NNPERF_E_USAGE && strstr(err, "one of them"));
    o.serve = &pct;
    CHECK(nnperf_llm(m, &big, &o, &l, err, sizeof err) == NNPERF_E_USAGE &&
          strstr(err, "percentile 90 or 99"));
    unlink(csv), unlink(jsonl);
    nnperf_model_free(m);
}

/* one link cost as the platform's keys price it (NCCL's ring model): fixed + steps x per step + bytes / rate */
static double link_s(const struct nnperf_platform *p, int steps, double bytes)
{
    return p->hw.ic_lat_s + steps * p->hw.ic_hop_s + bytes / (p->hw.ic_bw * p->hw.ic_eff);
}

static int row_of(const char *name, struct nnperf_platform *p, struct nnperf_llm_options *o, int tp, int pp,
                  struct nnperf_llm_row *r, char *err, size_t errlen)
{
    enum nnperf_status st;
    o->tp = tp, o->pp = pp;
    struct nnperf_llm *l = run_config(name, p, o, err, errlen, &st);
    if (l) nnperf_llm_row(l, 0, r);
    nnperf_llm_free(l);
    return l != NULL;
}

/* tensor and pipeline parallelism (issue 20): Llama-3-70B fp16 on the 8x H100 preset is refused on one device
 * with its sizes and fits with TP 2 and 4: weights and KV cache per device a half and a quarter (the norms are
 * replicated), each step faster, the link's time that of Megatron's 2L + 1 all-reduces and a logits all-gather;
 * pipeline stages split the layers' weights and KV cache and add one send per stage boundary; misuse is refused */
static void test_parallel(void)
{
    struct nnperf_platform *h8 = NULL, one;
    char err[1024];
    CHECK(nnperf_platform_load("8x-h100-sxm", &h8, err, sizeof err) == NNPERF_OK);
    CHECK(gpu_with(&one, "  ddr_bytes: 1TB\n"));
    if (!h8) return;
    CHECK_EQ_U(h8->hw.devices, 8);
    int prompt = 1024;
    struct nnperf_llm_options o = {.prompts = &prompt, .n_prompts = 1, .generate = 64};
    struct nnperf_llm_row r1, r2, r4;
    CHECK(!row_of("llama-3-70b", h8, &o, 1, 1, &r1, err, sizeof err));
    CHECK(strstr(err, "needs 142 GB (weights 141 GB") && strstr(err, "85.9 GB per device") &&
          strstr(err, "(--tp, --pp)"));
    if (!strstr(err, "needs 142 GB")) fprintf(stderr, "%s\n", err);
    CHECK(row_of("llama-3-70b", &one, &o, 1, 1, &r1, err, sizeof err));
    CHECK(row_of("llama-3-70b", h8, &o, 2, 1, &r2, err, sizeof err) && r2.fits == 1);
    CHECK(row_of("llama-3-70b", h8, &o, 4, 1, &r4, err, sizeof err) && r4.fits == 1);
    CHECK(r2.weight_bytes >= r1.weight_bytes / 2 && r2.weight_bytes < 1.001 * r1.weight_bytes / 2);
    CHECK(r4.weight_bytes >= r1.weight_bytes / 4 && r4.weight_bytes < 1.001 * r1.weight_bytes / 4);
    CHECK(r2.kv_cache_bytes == r1.kv_cache_bytes / 2 && r4.kv_cache_bytes == r1.kv_cache_bytes / 4);
    CHECK(r4.tpot_mean_s < r2.tpot_mean_s && r4.ttft_s < r2.ttft_s && r2.ttft_comm_s < r2.ttft_s);
    /* prefill at TP 2: 161 all-reduces of 1024 x 8192 fp16 hidden states (each device sends half, twice) and the
     * all-gather of the last token's logits (128256 / 2 per device) */
    double x = 1024.0 * 8192 * 2;
    double want = 161 * link_s(h8, 2, x) + link_s(h8, 1, 64128.0 * 2);
    CHECK(fabs(r2.ttft_comm_s - want) < 1e-9 * want);
    if (fabs(r2.ttft_comm_s - want) >= 1e-9 * want)
        fprintf(stderr, "comm %g want %g\n", r2.ttft_comm_s, want);
    CHECK(r1.ttft_comm_s == 0 && r1.tpot_comm_s == 0);

    /* pipeline: tiny-llama (2 layers, hidden 64, untied head) in 2 stages on a 4-device platform */
    struct nnperf_platform four;
    CHECK(gpu_with(&four, "  ddr_bytes: 1GB\n"));
    four.hw.devices = 4, four.hw.ic_bw = 1e10, four.hw.ic_eff = 0.5, four.hw.ic_lat_s = 2e-6;
    four.hw.ic_hop_s = 1e-7;
    int p16 = 16, b3 = 3;
    struct nnperf_llm_options t = {
        .prompts = &p16, .n_prompts = 1, .batches = &b3, .n_batches = 1, .generate = 8, .microbatches = 1};
    struct nnperf_llm_row q1, q2;
    CHECK(row_of("tiny-llama", &four, &t, 1, 1, &q1, err, sizeof err));
    CHECK(row_of("tiny-llama", &four, &t, 1, 2, &q2, err, sizeof err));
    CHECK(q2.kv_cache_bytes == q1.kv_cache_bytes / 2);
    /* one layer's weights and the larger end (embedding and head: 256 x 64 each) */
    double ends = 2 * 256.0 * 64 * 2;
    CHECK(fabs(q2.weight_bytes - ((q1.weight_bytes - ends) / 2 + ends / 2)) < 1);
    CHECK(fabs(q2.ttft_comm_s - link_s(&four, 1, 3 * 16 * 64 * 2.0)) < 1e-15);
    CHECK(fabs(q2.ttft_s - q2.ttft_comm_s - q1.ttft_s) < 1e-12);
    /* micro-batches (GPipe): a batch of 4 as 2 micro-batches of 2 through 2 stages; a stage runs half of the
     * model's time at batch 2. The prefill is 2 + 2 - 1 = 3 stage slots and 2 sends, a decode step max(2, 2) = 2
     * slots and 1 send; the KV cache is the whole batch's, the activations one micro-batch's */
    int b2 = 2, b4 = 4;
    struct nnperf_llm_row h2, m2, m1;
    t.batches = &b2;
    CHECK(row_of("tiny-llama", &four, &t, 1, 1, &h2, err, sizeof err));
    t.batches = &b4;
    CHECK(row_of("tiny-llama", &four, &t, 1, 2, &m1, err, sizeof err));
    t.microbatches = 2;
    CHECK(row_of("tiny-llama", &four, &t, 1, 2, &m2, err, sizeof err));
    double send_pre = link_s(&four, 1, 2 * 16 * 64 * 2.0), send_dec = link_s(&four, 1, 2 * 1 * 64 * 2.0);
    CHECK(fabs(m2.ttft_s - (3 * h2.ttft_s / 2 + 2 * send_pre)) < 1e-12);
    CHECK(fabs(m2.ttft_comm_s - 2 * send_pre) < 1e-15);
    CHECK(fabs(m2.tpot_first_s - (h2.tpot_first_s + send_dec)) < 1e-12);
    CHECK(m2.kv_cache_bytes == m1.kv_cache_bytes && m2.weight_bytes == m1.weight_bytes);
    CHECK(m2.activation_bytes < m1.activation_bytes);
    /* 0: as many as stages */
    t.microbatches = 0;
    CHECK(row_of("tiny-llama", &four, &t, 1, 2, &m1, err, sizeof err) && m1.ttft_s == m2.ttft_s);
    t.microbatches = 2;
    CHECK(!row_of("tiny-llama", &four, &t, 1, 1, &m1, err, sizeof err) && strstr(err, "need pipeline"));
    t.microbatches = 1, t.batches = &b3;
    /* misuse */
    CHECK(!row_of("tiny-llama", &four, &t, 3, 1, &q2, err, sizeof err) && strstr(err, "does not divide"));
    CHECK(!row_of("tiny-llama", &four, &t, 1, 3, &q2, err, sizeof err) && strstr(err, "2 decoder layers"));
    CHECK(!row_of("tiny-llama", &four, &t, 4, 2, &q2, err, sizeof err) && strstr(err, "has 4"));
    four.hw.ic_bw = 0;
    CHECK(!row_of("tiny-llama", &four, &t, 2, 1, &q2, err, sizeof err) &&
          strstr(err, "interconnect.bandwidth"));
    struct nnperf_model *m = load("tiny-llama-genai");
    struct nnperf_llm *l = NULL;
    t.tp = 2, t.pp = 1;
    CHECK(m && nnperf_llm(m, h8, &t, &l, err, sizeof err) == NNPERF_E_USAGE &&
          strstr(err, "one device's shard"));
    t.tp = 0, t.pp = 2;
    CHECK(m &&
          nnperf_llm(m, h8, &t, &l, err, sizeof err) == NNPERF_OK); /* pipeline stages of an ONNX decoder */
    nnperf_llm_free(l);
    nnperf_model_free(m);
    nnperf_platform_free(h8);
}

/* speculative decoding (issue 20): k draft tokens accepted at rate a give (1 - a^(k+1)) / (1 - a) tokens per target
 * step ([SPEC-DECODING]); one step costs the verification of k + 1 positions and k draft decode steps, so a = 0 and
 * a = 1 differ by exactly k + 1, and a = 0 costs more than plain decoding by at least the k draft steps; the draft's
 * weights count in the memory; misuse is refused */
static void test_speculative(void)
{
    struct nnperf_platform big;
    CHECK(gpu_with(&big, "  ddr_bytes: 1GB\n"));
    struct nnperf_model *m = NULL, *dm = NULL;
    char err[1024];
    CHECK(nnperf_llm_config_load(DIR "configs/tiny-llama.json", &m, err, sizeof err) == NNPERF_OK);
    CHECK(nnperf_llm_config_load(DIR "configs/tiny-mixtral.json", &dm, err, sizeof err) == NNPERF_OK);
    if (!m || !dm) return;
    int p = 32, b = 2;
    struct nnperf_llm_options o = {
        .prompts = &p, .n_prompts = 1, .batches = &b, .n_batches = 1, .generate = 16};
    struct nnperf_llm_row plain, draft, r0, r1, r8;
    struct nnperf_llm *l = NULL;
    CHECK(nnperf_llm(m, &big, &o, &l, err, sizeof err) == NNPERF_OK);
    if (l) nnperf_llm_row(l, 0, &plain), nnperf_llm_free(l);
    CHECK(nnperf_llm(dm, &big, &o, &l, err, sizeof err) == NNPERF_OK);
    if (l) nnperf_llm_row(l, 0, &draft), nnperf_llm_free(l);
    o.draft = dm, o.spec_tokens = 3;
    struct nnperf_llm_row *rows[3] = {&r0, &r1, &r8};
    double acc[3] = {0, 1, 0.8};
    for (int i = 0; i < 3; i++) {
        o.spec_accept = acc[i];
        CHECK(nnperf_llm(m, &big, &o, &l, err, sizeof err) == NNPERF_OK);
        if (!l) return;
        nnperf_llm_row(l, 0, rows[i]);
        struct nnperf_llm_summary s;
        nnperf_llm_summary(l, &s);
        double want = acc[i] == 1 ? 4 : (1 - pow(acc[i], 4)) / (1 - acc[i]);
        CHECK(s.spec_tokens == 3 && fabs(s.spec_tokens_per_step - want) < 1e-12);
        nnperf_llm_free(l);
    }
    CHECK(fabs(r0.tpot_mean_s / r1.tpot_mean_s - 4) < 1e-9);
    CHECK(fabs(r8.tpot_mean_s * (1 - pow(0.8, 4)) / 0.2 - r0.tpot_mean_s) < 1e-9 * r0.tpot_mean_s);
    CHECK(r0.tpot_first_s > plain.tpot_first_s + 3 * draft.tpot_first_s * 0.999);
    CHECK(r0.ttft_s == plain.ttft_s);
    CHECK(r0.weight_bytes == plain.weight_bytes + draft.weight_bytes);
    /* misuse */
    o.spec_accept = 1.5;
    CHECK(nnperf_llm(m, &big, &o, &l, err, sizeof err) == NNPERF_E_USAGE && strstr(err, "acceptance rate"));
    o.spec_accept = 0.5;
    struct nnperf_serve_options so = {.concurrency = 2};
    o.serve = &so;
    CHECK(nnperf_llm(m, &big, &o, &l, err, sizeof err) == NNPERF_E_USAGE && strstr(err, "speculative"));
    nnperf_model_free(dm);
    nnperf_model_free(m);
}

int main(void)
{
    struct diag d = {0};
    if (hw_load_yaml(gpu_yaml, sizeof gpu_yaml - 1, "tiny-gpu", &gpu.hw, &d) != NNPERF_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return 1;
    }
    test_kv_exact();
    test_folding();
    test_unbound();
    test_errors();
    test_decode_traffic();
    test_kv_per_query_head();
    test_phases_independent();
    test_weight_only();
    test_memory_refusal();
    test_position_limit();
    test_peak_activations();
    test_config_equals_onnx();
    test_configs();
    test_kernels_and_host();
    test_expected_error();
    test_moe_traffic();
    test_config_errors();
    test_weight_formats();
    test_fp8();
    test_serve();
    test_serve_trace_slo();
    test_parallel();
    test_speculative();
    return tt_done();
}
