/* test_predict.c - every prediction pass against hand-computed expectations on tiny graphs
 * (the models in tests/data/predict/, made by make_models.py there), and the timeline's bookkeeping. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "predict/predict.h"
#include "tinytest.h"

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12;
}
#define NEAR(a, b) near((double)(a), (double)(b))

/* a small NPU: 1 Tops/s int8, 10 GB/s DDR, 2 MiB SRAM, H8/W16/C32 conv alignment, Conv-BN-Add-Relu fusion,
 * Erf unsupported with a CPU fallback */
static const char npu_yaml[] = "format: 1\n"
                               "name: test-npu\n"
                               "compute:\n"
                               "  peak_ops: {int8: 1e12, fp16: 5e11}\n"
                               "  default_dtype: int8\n"
                               "  efficiency: {default: 1}\n"
                               "  unsupported: [Erf]\n"
                               "  alignment:\n"
                               "    - {classes: [conv], n: 1, c: 32, h: 8, w: 16}\n"
                               "  fusion:\n"
                               "    - [Conv, BatchNormalization, Add, Relu]\n"
                               "    - [Conv, Relu]\n"
                               "memory:\n"
                               "  sram_bytes: 2097152\n"
                               "  sram_bandwidth: 0\n"
                               "  ddr_bandwidth: 1e10\n"
                               "  ddr_efficiency: 1\n"
                               "  overlap: true\n"
                               "fallback:\n"
                               "  name: cpu\n"
                               "  peak_ops: 1e10\n"
                               "  bandwidth: 5e9\n"
                               "  efficiency: 1\n"
                               "  transfer_bandwidth: 1e9\n"
                               "  quantize_ops_per_element: 2\n"
                               "  overhead_s: 0\n"
                               "overhead:\n"
                               "  per_layer_s: 0\n";

static struct nnperf_platform plat;

static struct nnperf_analysis *analyze(const char *name, struct nnperf_model **m)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "tests/data/predict/%s.onnx", name);
    if (nnperf_model_load(path, NULL, m, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    struct nnperf_analysis *a;
    if (nnperf_analyze(*m, NULL, &a, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    return a;
}

static struct nnperf_prediction *predict(struct nnperf_analysis *a, int batch)
{
    struct nnperf_predict_options o = {.dtype = NULL, .batch = batch, .memory_model = 0, .interval_s = 0};
    struct nnperf_prediction *p;
    char err[512];
    if (nnperf_predict(a, &plat, &o, &p, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    return p;
}

static void test_align(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("conv_align", &m);
    CHECK(a != NULL);
    if (!a) return;
    struct nnperf_prediction *p = predict(a, 0);
    CHECK(p && p->n_layers == 1);
    if (p && p->n_layers == 1) {
        const struct pr_layer *L = &p->layers[0];
        /* output 6x128x64x120 -> 6x128x64x128: W 120 pads to 128 */
        CHECK(L->out_rank == 4);
        CHECK_EQ_U(L->aligned_dims[0], 6);
        CHECK_EQ_U(L->aligned_dims[1], 128);
        CHECK_EQ_U(L->aligned_dims[2], 64);
        CHECK_EQ_U(L->aligned_dims[3], 128);
        CHECK(NEAR(L->align_factor, 128.0 / 120.0));
        CHECK(NEAR(L->mac_ops_aligned, L->mac_ops * 128.0 / 120.0));
        /* effective ops: 2 x (6*128*64*120 outputs x 16*3*3) */
        CHECK(NEAR(L->mac_ops, 2.0 * 6 * 128 * 64 * 120 * 16 * 9));
        /* compute time = aligned ops / peak */
        CHECK(NEAR(L->t_compute, L->mac_ops_aligned / 1e12));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_fusion(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("fuse_block", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    struct nnperf_prediction *p = predict(a, 0);
    CHECK(p && p->n_layers == 1);
    if (p && p->n_layers == 1) {
        const struct pr_layer *L = &p->layers[0];
        CHECK_EQ_U(L->n_nodes, 4);
        /* DDR: the input x (1x32x16x16 int8 = 8192 B) once, the output y (8192 B, aligned 1x32x16x16) stored once,
         * and the weights (32*32*9 + 4*32 = 9344 int8); the fused intermediates c, n, a cost nothing */
        CHECK(NEAR(L->load_bytes, 8192));
        CHECK(NEAR(L->store_bytes, 8192));
        CHECK(NEAR(L->w_bytes, 9344));
        CHECK(NEAR(L->spill_load_bytes + L->spill_store_bytes, 0));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_spill(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("shortcut", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    /* each activation is 1x64x32x32 int8 = 65536 B. With 150,000 B of SRAM, a, b fit; c does not fit beside them:
     * a (read again by the final Add) has the farthest last use and is spilled (stored) at conv3, and read back by
     * the Add. */
    struct nnperf_platform small = plat;
    small.hw.sram_bytes = 150000;
    struct nnperf_predict_options o = {.dtype = NULL, .batch = 0, .memory_model = 0, .interval_s = 0};
    struct nnperf_prediction *p;
    char err[512];
    CHECK(nnperf_predict(a, &small, &o, &p, err, sizeof err) == NNPERF_OK);
    CHECK(p->n_layers == 5);
    if (p->n_layers == 5) {
        CHECK(NEAR(p->layers[2].spill_store_bytes, 65536)); /* conv3 makes room by spilling a */
        CHECK(NEAR(p->layers[4].spill_load_bytes, 65536));  /* the Add reads a back */
        CHECK(NEAR(p->layers[1].spill_store_bytes + p->layers[3].spill_store_bytes, 0));
        CHECK_EQ_U(p->spilled_tensors, 1);
    }
    nnperf_prediction_free(p);
    /* with 2 MiB everything stays on chip */
    p = predict(a, 0);
    CHECK(p && p->spilled_tensors == 0 && NEAR(p->spill_bytes, 0));
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_batch_weights(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("shortcut", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    struct nnperf_prediction *p1 = predict(a, 1), *p4 = predict(a, 4);
    struct nnperf_prediction_summary s1, s4;
    nnperf_prediction_summary(p1, &s1);
    nnperf_prediction_summary(p4, &s4);
    /* weights are loaded once per run: per frame they fall as 1/batch */
    CHECK(NEAR(s1.weight_bytes_per_frame, 4 * 64 * 64 * 9));
    CHECK(NEAR(s4.weight_bytes_per_frame, s1.weight_bytes_per_frame / 4));
    CHECK(s4.latency_s >= s1.latency_s);
    CHECK(NEAR(s4.fps * s4.latency_s, 4));
    nnperf_prediction_free(p1);
    nnperf_prediction_free(p4);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_fallback(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("fallback", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    struct nnperf_prediction *p = predict(a, 0);
    CHECK(p && p->n_layers == 3);
    if (p && p->n_layers == 3) {
        const struct pr_layer *L = &p->layers[1];
        CHECK(L->fallback == 1);
        CHECK_EQ_U(p->fallback_layers, 1);
        /* in 1x32x32x32 and out 1x32x32x32 (int8, 32768 B each) cross the boundary: 65536 B at 1e9 B/s, plus
         * 65536 elements x 2 ops of (de)quantization at 1e10 ops/s */
        CHECK(NEAR(L->transfer_bytes, 65536));
        CHECK(NEAR(L->t_transfer, 65536 / 1e9 + 65536 * 2 / 1e10));
        /* Erf: 1 FLOP per element on the CPU */
        CHECK(NEAR(L->t_compute, 32768 / 1e10));
        CHECK(L->t_total >= L->t_transfer + L->t_compute);
        /* conv1's output, on chip, is written to DDR for the CPU; conv2 loads the CPU's result */
        CHECK(NEAR(L->store_bytes, 32768));
        CHECK(NEAR(p->layers[2].load_bytes, 32768));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_timeline(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("shortcut", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    struct nnperf_predict_options o = {.dtype = NULL, .batch = 3, .memory_model = 0, .interval_s = 2e-6};
    struct nnperf_prediction *p;
    char err[512];
    CHECK(nnperf_predict(a, &plat, &o, &p, err, sizeof err) == NNPERF_OK);
    double load = 0, store = 0, busy = 0;
    int in_range = 1;
    for (int i = 0; i < p->n_iv; i++) {
        double len = i == p->n_iv - 1 ? p->latency - i * p->interval_s : p->interval_s;
        load += p->iv[i].load_bw * len;
        store += p->iv[i].store_bw * len;
        busy += p->iv[i].util * len;
        if (p->iv[i].util < 0 || p->iv[i].util > 1) in_range = 0;
    }
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(p, &s);
    CHECK(p->n_iv > 3);
    CHECK(in_range);
    CHECK(fabs(load - s.loaded_bytes_per_frame * 3) < 1e-6 * load + 1e-3);
    CHECK(fabs(store - s.stored_bytes_per_frame * 3) < 1e-6 * store + 1e-3);
    CHECK(fabs(busy / p->latency - s.avg_utilization) < 1e-9);
    CHECK(s.avg_utilization > 0 && s.avg_utilization <= 1);
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

int main(void)
{
    struct diag d = {0};
    hw_init(&plat.hw);
    if (hw_load_yaml(npu_yaml, strlen(npu_yaml), "test-npu.yaml", &plat.hw, &d) != NNPERF_OK) {
        fprintf(stderr, "%s\n", d.msg);
        CHECK(0);
        return tt_done();
    }
    test_align();
    test_fusion();
    test_spill();
    test_batch_weights();
    test_fallback();
    test_timeline();
    return tt_done();
}
