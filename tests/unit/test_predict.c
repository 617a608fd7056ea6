/* test_predict.c - every prediction pass against hand-computed expectations on tiny graphs
 * (the models in tests/data/predict/, made by make_models.py there), and the timeline's bookkeeping. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predict/calibrate.h"
#include "predict/predict.h"
#include "tinytest.h"

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12;
}
#define NEAR(a, b) near((double)(a), (double)(b))
/* the array model's utilization of a layer (what its compute time was divided by) */
static double util_of(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    double t_strided;
    return pr_array_util(p, L, &t_strided);
}

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

/* predicts a on platform pl with options o; NULL (and the message on stderr) on failure */
static struct nnperf_prediction *predict_with(struct nnperf_analysis *a, const struct nnperf_platform *pl,
                                              const struct nnperf_predict_options *o)
{
    struct nnperf_prediction *p;
    char err[512];
    if (nnperf_predict(a, pl, o, &p, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    return p;
}

static struct nnperf_prediction *predict(struct nnperf_analysis *a, int batch)
{
    struct nnperf_predict_options o = {.dtype = NULL, .batch = batch, .memory_model = 0, .interval_s = 0};
    return predict_with(a, &plat, &o);
}

/* predicts a on a platform given as YAML text with extra lines appended, with options o */
static struct nnperf_prediction *predict_text(struct nnperf_analysis *a, const char *yaml, const char *extra,
                                              const struct nnperf_predict_options *o)
{
    static struct nnperf_platform pl;
    char text[4096];
    snprintf(text, sizeof text, "%s%s", yaml, extra ? extra : "");
    struct diag d = {0};
    hw_init(&pl.hw);
    if (hw_load_yaml(text, strlen(text), "test.yaml", &pl.hw, &d) != NNPERF_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return NULL;
    }
    return predict_with(a, &pl, o);
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
        CHECK(pr_out_rank(L) == 4);
        CHECK_EQ_U(pr_aligned_dims(L)[0], 6);
        CHECK_EQ_U(pr_aligned_dims(L)[1], 128);
        CHECK_EQ_U(pr_aligned_dims(L)[2], 64);
        CHECK_EQ_U(pr_aligned_dims(L)[3], 128);
        CHECK(NEAR(pr_align_factor(L), 128.0 / 120.0));
        CHECK(NEAR(pr_mac_aligned(L), L->mac_ops * 128.0 / 120.0));
        /* effective ops: 2 x (6*128*64*120 outputs x 16*3*3) */
        CHECK(NEAR(L->mac_ops, 2.0 * 6 * 128 * 64 * 120 * 16 * 9));
        /* compute time = aligned ops / peak */
        CHECK(NEAR(L->t_compute, pr_mac_aligned(L) / 1e12));
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
        CHECK(NEAR(pr_lx(L)->spill_load_bytes + pr_lx(L)->spill_store_bytes, 0));
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
        CHECK(NEAR(pr_lx(&p->layers[2])->spill_store_bytes, 65536)); /* conv3 makes room by spilling a */
        CHECK(NEAR(pr_lx(&p->layers[4])->spill_load_bytes, 65536));  /* the Add reads a back */
        CHECK(NEAR(pr_lx(&p->layers[1])->spill_store_bytes + pr_lx(&p->layers[3])->spill_store_bytes, 0));
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

/* compute.frame_serial: a batch of 4 runs frame by frame, so every layer's time (its weights read again, its
 * per-layer cost paid again) is 4 times one frame's; without it the weights are read once per run */
static void test_frame_serial(void)
{
    static const char *yaml =
        "format: 1\nname: fs\ncompute:\n  peak_ops: {int8: 1e12}\n  efficiency: {default: 1}\n"
        "  frame_serial: %s\nmemory:\n  ddr_bandwidth: 1e9\n  overlap: true\n"
        "overhead:\n  per_layer_s: 1e-5\n";
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("shortcut", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    double lat[2][2] = {{0}}, w[2][2] = {{0}};
    for (int fs = 0; fs < 2; fs++)
        for (int b = 0; b < 2; b++) {
            char text[512];
            snprintf(text, sizeof text, yaml, fs ? "true" : "false");
            struct nnperf_predict_options o = {.batch = b ? 4 : 1};
            struct nnperf_prediction *p = predict_text(a, text, NULL, &o);
            CHECK(p != NULL);
            if (!p) continue;
            struct nnperf_prediction_summary s;
            nnperf_prediction_summary(p, &s);
            lat[fs][b] = s.latency_s, w[fs][b] = s.weight_bytes_per_frame;
            nnperf_prediction_free(p);
        }
    CHECK(NEAR(lat[1][1], 4 * lat[1][0]));
    CHECK(NEAR(w[1][1], w[1][0]));
    CHECK(NEAR(w[0][1], w[0][0] / 4));
    CHECK(lat[0][1] < 0.9 * lat[1][1]);
    CHECK(NEAR(lat[0][0], lat[1][0]));
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.array.fc_tile 256: fc_pad's fc1 (300 inputs, 20 outputs) reads its weights padded to 512 x 20 = 10240
 * elements and pays one more per-layer cost (the expand stage of its padded input); fc2 (20 inputs, 300 outputs)
 * reads 20 x 512 = 10240 and no more stages. At FP16 over 1e9 B/s with compute negligible, both layers are
 * memory-bound: the tiles add (40960 - 24000) bytes = 16.96 us and one 10 us stage to the frame. */
static void test_fc_tile(void)
{
    static const char *yaml =
        "format: 1\nname: fct\ncompute:\n  peak_ops: {fp16: 1e15}\n  default_dtype: fp16\n"
        "  efficiency: {default: 1}\n  fusion:\n    - [MatMul, Relu]\n  array:\n"
        "    fc_tile: %d\nmemory:\n  sram_bytes: 1e7\n  ddr_bandwidth: 1e9\n  overlap: true\n"
        "overhead:\n  per_layer_s: 1e-5\n";
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("fc_pad", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    double lat[2] = {0}, w[2] = {0}, over[2][2] = {{0}};
    for (int on = 0; on < 2; on++) {
        char text[512];
        snprintf(text, sizeof text, yaml, on ? 256 : 0);
        struct nnperf_predict_options o = {.batch = 1};
        struct nnperf_prediction *p = predict_text(a, text, NULL, &o);
        CHECK(p != NULL && p->n_layers == 2);
        if (!p || p->n_layers != 2) {
            nnperf_prediction_free(p);
            continue;
        }
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        lat[on] = s.latency_s, w[on] = s.weight_bytes_per_frame;
        for (int l = 0; l < 2; l++) over[on][l] = p->layers[l].t_overhead;
        nnperf_prediction_free(p);
    }
    CHECK(NEAR(w[0], 2 * (300 * 20 + 20 * 300)));
    CHECK(NEAR(w[1], 2 * (512 * 20 + 20 * 512)));
    CHECK(NEAR(over[0][0], 1e-5) && NEAR(over[0][1], 1e-5));
    CHECK(NEAR(over[1][0], 2e-5) && NEAR(over[1][1], 1e-5));
    CHECK(fabs(lat[1] - lat[0] - (16960e-9 + 1e-5)) < 1e-12);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* overhead.per_layer_overlap: fc_pad's two layers (fc1 with its Relu, fc2) at FP16 over 1e9 B/s each move 12600
 * bytes (12000 of weights and the 600-byte input or output; the 40-byte tensor between them stays on chip): 12.6 us
 * of memory, compute negligible. With a 20 us per-layer cost they take 32.6 us each (65.2 us) when the launch adds to
 * the work, and max(12.6, 20) = 20 us each (40 us) when it overlaps; with 10 us, max(12.6, 10) = 12.6 us each. */
static void test_layer_overlap(void)
{
    static const char *yaml =
        "format: 1\nname: olap\ncompute:\n  peak_ops: {fp16: 1e15}\n  default_dtype: fp16\n"
        "  efficiency: {default: 1}\n  fusion:\n    - [MatMul, Relu]\nmemory:\n  sram_bytes: 1e7\n"
        "  ddr_bandwidth: 1e9\n  overlap: true\noverhead:\n  per_layer_s: %g\n  per_layer_overlap: %s\n";
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("fc_pad", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    static const struct {
        double per_layer;
        int overlap;
        double layer, latency;
    } cases[] = {{20e-6, 0, 32.6e-6, 65.2e-6}, {20e-6, 1, 20e-6, 40e-6}, {10e-6, 1, 12.6e-6, 25.2e-6}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, yaml, cases[i].per_layer, cases[i].overlap ? "true" : "false");
        struct nnperf_predict_options o = {.batch = 1};
        struct nnperf_prediction *p = predict_text(a, text, NULL, &o);
        CHECK(p != NULL && p->n_layers == 2);
        if (!p || p->n_layers != 2) {
            nnperf_prediction_free(p);
            continue;
        }
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        for (int l = 0; l < 2; l++) CHECK(fabs(p->layers[l].t_total - cases[i].layer) < 1e-12);
        CHECK(fabs(s.latency_s - cases[i].latency) < 1e-12);
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.dataflow: strided_dw's 1x1 conv (32 -> 32 channels, 16x16 outputs) folded PE 8 x SIMD 4 takes
 * 4 x 8 x 256 = 8192 cycles a frame, its depthwise 3x3 (32 channels) PE 4 x SIMD 9 takes 8 x 1 x 256 = 2048; at
 * 100 MHz 81.92 and 20.48 us. One frame: their sum; four frames: the sum plus 3 x the slowest; the throughput is
 * the slowest layer's pace. Without a folding entry a layer is fully folded (PE = SIMD = 1). */
static void test_dataflow(void)
{
    static const char *yaml =
        "format: 1\nname: df\ncompute:\n  peak_ops: {int8: 1e15}\n  efficiency: {default: 1}\n"
        "  dataflow:\n    clock_hz: 1e8\n    folding:\n      - {node: down, pe: 8, simd: 4}\n%s"
        "memory:\n  ddr_bandwidth: 1e15\n  overlap: true\noverhead:\n  per_layer_s: 0\n";
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("strided_dw", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    char text[1024];
    snprintf(text, sizeof text, yaml, "      - {node: dw, pe: 4, simd: 9}\n");
    double down = 8192 / 1e8, dw = 2048 / 1e8;
    for (int b = 1; b <= 4; b += 3) {
        struct nnperf_predict_options o = {.batch = b};
        struct nnperf_prediction *p = predict_text(a, text, NULL, &o);
        CHECK(p != NULL);
        if (!p) continue;
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        CHECK(!strcmp(s.compute_model, "dataflow"));
        CHECK(NEAR(s.latency_s, down + dw + (b - 1) * down));
        CHECK(NEAR(s.throughput_fps, 1 / down));
        CHECK(s.warnings == 0);
        nnperf_prediction_free(p);
    }
    /* dw unlisted: fully folded, 32 x 9 x 256 cycles; an entry naming no layer is reported */
    snprintf(text, sizeof text, yaml, "      - {node: nowhere, pe: 2, simd: 2}\n");
    struct nnperf_predict_options o = {.batch = 1};
    struct nnperf_prediction *p = predict_text(a, text, NULL, &o);
    CHECK(p != NULL);
    if (p) {
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        CHECK(NEAR(s.latency_s, down + 32 * 9 * 256 / 1e8));
        CHECK(s.warnings == 1 && strstr(nnperf_prediction_warning(p, 0), "'nowhere'") != NULL);
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.dataflow without a folding list, from the fabric: strided_dw's 1x1 conv (32 -> 32, 16x16 outputs) and
 * depthwise 3x3 (32 channels) at int8 (a lane 8 x 8 = 64 LUTs). SetFolding's path per target T (cycles a frame):
 * T 1024: down PE 8 x SIMD 32, dw PE 8 x SIMD 9 (328 lanes, 20,992 LUTs); T 2048: PE 4 (164 lanes, 10,496 LUTs;
 * weight memories: down 4 PEs x 8 blocks (256 bits wide, 8 deep), dw 4 x 2 (72 bits): 40 18 Kb blocks); T 4096:
 * PE 2 (20 blocks). 15,000 LUTs: T 2048; 30 blocks: T 4096; (64 + 16) / 2 blocks: T 2048; 100 LUTs: nothing fits
 * (warned), fully folded.
 * compute.dataflow.streaming: strided_dw's rows stream. down (stride 2 1x1, 16 output rows) folded PE 8 x SIMD 4 takes
 * 8192 cycles a frame, 512 a row, its row r done at (r + 1) x 512; dw (3x3, pad 1, 16 rows) PE 4 x SIMD 9 takes
 * 2048, 128 a row, and its row r reads down's rows up to r + 1 (row 15: 15): done at max(its row r - 1, (r + 2) x
 * 512) + 128, row 15 at max(8320, 8192) + 128 = 8448 cycles (one after the other: 10240). With down PE 32 x SIMD 32
 * (256 cycles, 16 a row) dw is the slowest: its row 0 starts at 32, then its rows follow at its own pace, 32 + 2048.
 * Four frames add 3 x the slowest; fill is unused with streaming. */
static void test_dataflow_fabric(void)
{
    static const char *yaml =
        "format: 1\nname: df\ncompute:\n  peak_ops: {int8: 1e15}\n  efficiency: {default: 1}\n"
        "  dataflow:\n    clock_hz: 1e8\n%s"
        "memory:\n  ddr_bandwidth: 1e15\n  overlap: true\noverhead:\n  per_layer_s: 0\n";
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("strided_dw", &m);
    if (!a) {
        CHECK(0);
        return;
    }
    static const struct {
        const char *keys;
        int batch;
        double latency_cycles, period_cycles;
        int warnings;
    } cases[] = {
        {"    luts: 30000\n    lut_fraction: 0.5\n", 1, 2 * 2048, 2048, 0},
        {"    luts: 30000\n    lut_fraction: 0.5\n", 4, 2 * 2048 + 3 * 2048, 2048, 0},
        {"    luts: 1e6\n    bram18: 30\n", 1, 2 * 4096, 4096, 0},
        {"    luts: 1e6\n    bram18: 64\n    uram: 1\n    memory_fraction: 0.5\n", 1, 2 * 2048, 2048, 0},
        {"    luts: 30000\n    lut_fraction: 0.5\n    fill: 0.5\n", 1, 2048 + 0.5 * 2048, 2048, 0},
        {"    luts: 100\n", 1, 32 * 32 * 256 + 32 * 9 * 256, 32 * 32 * 256, 1},
        /* a folding list is the build's own: it wins over the fabric (dw unlisted: fully folded) */
        {"    luts: 30000\n    folding:\n      - {node: down, pe: 8, simd: 4}\n", 1, 8192 + 32 * 9 * 256,
         32 * 9 * 256, 0},
#define DF_STREAM(down)                                                                                      \
    "    streaming: true\n    fill: 0.5\n    folding:\n      - {node: down, " down "}\n"                     \
    "      - {node: dw, pe: 4, simd: 9}\n"
        {DF_STREAM("pe: 8, simd: 4"), 1, 8448, 8192, 0},
        {DF_STREAM("pe: 8, simd: 4"), 4, 8448 + 3 * 8192, 8192, 0},
        {DF_STREAM("pe: 32, simd: 32"), 1, 32 + 2048, 2048, 0},
        {DF_STREAM("pe: 32, simd: 32"), 4, 32 + 2048 + 3 * 2048, 2048, 0},
#undef DF_STREAM
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, yaml, cases[i].keys);
        struct nnperf_predict_options o = {.batch = cases[i].batch};
        struct nnperf_prediction *p = predict_text(a, text, NULL, &o);
        CHECK(p != NULL);
        if (!p) continue;
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        CHECK(NEAR(s.latency_s, cases[i].latency_cycles / 1e8));
        CHECK(NEAR(s.throughput_fps, 1e8 / cases[i].period_cycles));
        CHECK(s.warnings == cases[i].warnings);
        if (cases[i].warnings) CHECK(strstr(nnperf_prediction_warning(p, 0), "does not fit") != NULL);
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.winograd: the stem's 3x3 conv (3 -> 8 channels, 16x16 outputs, stride 1) as Winograd. With min_channels 8
 * (the 8 output channels reach it) and both channel counts within large_channels, F(6,3): ceil(16/6)^2 = 9 tiles of
 * 8x8, 9 x 64 x 3 x 8 = 13824 MACs (direct: 16 x 16 x 8 x 3 x 9 = 55296) and transforms 9 x 64 x (3 x 9 + 8 x 7)
 * = 47808 ops; with large_channels 4 (and the 3 input channels under min_channels) F(2,3): 64 tiles of 4x4,
 * 64 x 16 x 3 x 8 = 24576 MACs and 64 x 16 x (3 x 2 + 8 x 1.5) = 18432 ops; int8 (no tile) runs direct; with
 * min_channels 16 neither channel count reaches it: direct */
static void test_winograd_speedup_modes(void)
{
    static const char *yaml =
        "format: 1\nname: wg\ncompute:\n  peak_ops: {fp16: 1e9, int8: 2e9}\n"
        "  efficiency: {default: 1}\n  vector_ops: 1e8\n%s"
        "memory:\n  ddr_bandwidth: 1e15\n  overlap: true\noverhead:\n  per_layer_s: 0\n";
    /* the conv layer's compute time and model. compute.parallel_speedup: 4 cores that together reach 2 x one core's
     * rate run the direct conv at half the peak; a speedup above the cores is the cores' number.
     * compute.array.modes: 16 lanes in 1 block (16 output channels a descriptor, 3 x 9 cycles a pixel) or 2 (8
     * channels, ceil(3/2) x 9 + 5 = 23 cycles): the 2-block mode, 27 x 8 MACs a pixel in 23 x 16 lane-cycles; with
     * at most 10 coefficients a block, 1 block takes 3 passes of 9 cycles (27), 2 blocks 2 passes of 9 + 5 (28): 27,
     * utilization 0.5. A depthwise conv on the modes (strided_dw's dw: 32 channels, 3x3, 16x16 outputs, 73728 MACs)
     * runs as ceil(32 / t) dense t x t convs (OpenVINO's splitHwDepthConv): t = 8 costs 4 x min(8 x 9, 4 x 9 + 5)
     * = 164 cycles a pixel (t = 4: 8 x 23 = 184, t = 6: 6 x 32 = 192, t = 16: 2 x 144 = 288), utilization
     * 32 x 9 / (164 x 16); on the roofline its MACs at the peak. compute.gemm_output_s 1e-9 adds per GEMM output: the
     * direct conv's 8 x 16 x 16 = 2048 (halved where 4 cores reach 2 x one core's rate), the Winograd F(6,3) conv's
     * 9 tiles x 64 x 8 = 4608 transformed outputs; nothing for the depthwise conv (no GEMM) */
    static const struct {
        const char *keys;
        const char *dtype;
        double t;
        const char *model;
        int dw; /* the case is strided_dw's depthwise layer (else stem's first) */
    } cases[] = {
        {"  winograd: {tile: {fp16: 6}, min_channels: 8, large_channels: 128}\n", "fp16",
         2 * 13824 / 1e9 + 47808 / 1e8, "roofline", 0},
        {"  winograd: {tile: {fp16: 6}, min_channels: 8, large_channels: 4}\n", "fp16",
         2 * 24576 / 1e9 + 18432 / 1e8, "roofline", 0},
        {"  winograd: {tile: {fp16: 6}, min_channels: 8, large_channels: 128}\n", "int8", 2 * 55296 / 2e9,
         "roofline", 0},
        {"  winograd: {tile: {fp16: 6}, min_channels: 16, large_channels: 128}\n", "fp16", 2 * 55296 / 1e9,
         "roofline", 0},
        {"", "fp16", 2 * 55296 / 1e9, "roofline", 0},
        {"  cores: 4\n  parallel_speedup: 2\n", "fp16", 2 * 55296 / 0.5e9, "roofline", 0},
        {"  cores: 4\n  parallel_speedup: 8\n", "fp16", 2 * 55296 / 1e9, "roofline", 0},
        {"  cores: 4\n", "fp16", 2 * 55296 / 1e9, "roofline", 0},
        {"  array:\n    channels: {fp16: 16}\n    modes: [{blocks: 1}, {blocks: 2, overhead: 5}]\n", "fp16",
         2 * 55296 / (1e9 * 216.0 / (23 * 16)), "array", 0},
        {"  array:\n    channels: {fp16: 16}\n    block_reduce_max: 10\n"
         "    modes: [{blocks: 1}, {blocks: 2, overhead: 5}]\n",
         "fp16", 2 * 55296 / (1e9 * 0.5), "array", 0},
        {"  array:\n    channels: {fp16: 16}\n    modes: [{blocks: 1}, {blocks: 2, overhead: 5}]\n", "fp16",
         2 * 73728 / (1e9 * (32.0 * 9 / (164 * 16))), "array", 1},
        {"", "fp16", 2 * 73728 / 1e9, "roofline", 1},
        {"  gemm_output_s: 1e-9\n", "fp16", 2 * 55296 / 1e9 + 2048 * 1e-9, "roofline", 0},
        {"  winograd: {tile: {fp16: 6}, min_channels: 8, large_channels: 128}\n  gemm_output_s: 1e-9\n",
         "fp16", 2 * 13824 / 1e9 + 47808 / 1e8 + 4608 * 1e-9, "roofline", 0},
        {"  cores: 4\n  parallel_speedup: 2\n  gemm_output_s: 1e-9\n", "fp16",
         2 * 55296 / 0.5e9 + 2048 * 1e-9 / 2, "roofline", 0},
        {"  gemm_output_s: 1e-9\n", "fp16", 2 * 73728 / 1e9, "roofline", 1},
    };
    struct nnperf_model *m[2];
    struct nnperf_analysis *a[2] = {analyze("stem", &m[0]), analyze("strided_dw", &m[1])};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct nnperf_analysis *an = a[cases[i].dw];
        CHECK(an != NULL);
        if (!an) continue;
        char text[1024];
        snprintf(text, sizeof text, yaml, cases[i].keys);
        struct nnperf_predict_options o = {.batch = 1, .dtype = cases[i].dtype};
        struct nnperf_prediction *p = predict_text(an, text, NULL, &o);
        CHECK(p != NULL && p->n_layers >= 1);
        if (!p || p->n_layers < 1) continue;
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        CHECK(!strcmp(s.compute_model, cases[i].model));
        const struct pr_layer *L = &p->layers[0];
        for (int l = 0; cases[i].dw && l < p->n_layers; l++)
            if (p->layers[l].main && p->layers[l].main->name && !strcmp(p->layers[l].main->name, "dw"))
                L = &p->layers[l];
        CHECK(NEAR(L->t_compute, cases[i].t));
        nnperf_prediction_free(p);
    }
    for (int k = 0; k < 2; k++)
        if (a[k]) nnperf_analysis_free(a[k]), nnperf_model_free(m[k]);
}

/* nnperf_predict_options.threads on a platform whose 4 cores are a CPU runtime's threads (compute.threaded), the
 * stem's first conv (3 -> 8 channels, 16x16 outputs, 55296 MACs, fp16 peak 1e9 for the 4 cores): N threads run at
 * 1 + (2 - 1) x (N - 1) / 3 times one core's rate (parallel_speedup 2); compute.thread_tile 4 splits the 8 output
 * channels into 2 tiles, which keep 2 of 4 threads busy (1 thread: all); overhead.thread_sync_s is paid by a layer on
 * 2 or more threads; memory.core_bandwidth caps the layers' DDR bandwidth at threads x it. Refused: more threads
 * than cores, or a platform that is not threaded. */
static void test_threads(void)
{
    static const char *yaml =
        "format: 1\nname: cpu\ncompute:\n  cores: 4\n  peak_ops: {fp16: 1e9}\n  efficiency: {default: 1}\n"
        "  vector_ops: 1e8\n%s\nmemory:\n  ddr_bandwidth: 1e10\n  overlap: true\n%s\noverhead:\n  "
        "per_layer_s: 0\n%s\n";
    static const struct {
        const char *compute, *memory, *overhead;
        int threads;
        double t_compute, t_overhead, bw; /* bw: pr_layer_ddr_bw; < 0: refused */
    } cases[] = {
        {"  parallel_speedup: 2\n  threaded: true", "", "", 0, 2 * 55296 / (1e9 * 2 / 4), 0, 1e10},
        {"  parallel_speedup: 2\n  threaded: true", "", "", 1, 2 * 55296 / (1e9 / 4), 0, 1e10},
        {"  parallel_speedup: 2\n  threaded: true", "", "", 3, 2 * 55296 / (1e9 * (5.0 / 3) / 4), 0, 1e10},
        {"  parallel_speedup: 2\n  threaded: true", "", "", 4, 2 * 55296 / (1e9 * 2 / 4), 0, 1e10},
        {"  threaded: true\n  thread_tile: 4", "", "", 4, 2 * 55296 / 1e9 / 0.5, 0, 1e10},
        {"  threaded: true\n  thread_tile: 4", "", "", 1, 2 * 55296 / (1e9 / 4), 0, 1e10},
        {"  threaded: true", "", "  thread_sync_s: 1e-6", 2, 2 * 55296 / (1e9 / 2), 1e-6, 1e10},
        {"  threaded: true", "", "  thread_sync_s: 1e-6", 1, 2 * 55296 / (1e9 / 4), 0, 1e10},
        {"  threaded: true", "  core_bandwidth: 1e9", "", 1, 2 * 55296 / (1e9 / 4), 0, 1e9},
        {"  threaded: true", "  core_bandwidth: 1e9", "", 4, 2 * 55296 / 1e9, 0, 4e9},
        {"  threaded: true", "  core_bandwidth: 4e9", "", 3, 2 * 55296 / (1e9 * 3 / 4), 0, 1e10},
        {"  threaded: true", "", "", 5, 0, 0, -1},
        {"  parallel_speedup: 2", "  core_bandwidth: 1e9", "", 1, 0, 0, -1},
    };
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("stem", &m);
    CHECK(a != NULL);
    if (!a) return;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, yaml, cases[i].compute, cases[i].memory, cases[i].overhead);
        struct nnperf_predict_options o = {.batch = 1, .dtype = "fp16", .threads = cases[i].threads};
        struct nnperf_prediction *p = predict_text(a, text, NULL, &o);
        if (cases[i].bw < 0) {
            CHECK(p == NULL);
            if (p) nnperf_prediction_free(p);
            continue;
        }
        CHECK(p != NULL && p->n_layers >= 1);
        if (!p || p->n_layers < 1) continue;
        CHECK(NEAR(p->layers[0].t_compute, cases[i].t_compute));
        CHECK(NEAR(p->layers[0].t_overhead, cases[i].t_overhead));
        CHECK(NEAR(pr_layer_ddr_bw(p), cases[i].bw));
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        CHECK_EQ_U(s.cores_per_inference, cases[i].threads ? cases[i].threads : 4);
        nnperf_prediction_free(p);
    }
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
        CHECK(NEAR(pr_lx(L)->transfer_bytes, 65536));
        CHECK(NEAR(pr_lx(L)->t_transfer, 65536 / 1e9 + 65536 * 2 / 1e10));
        /* Erf: 1 FLOP per element on the CPU */
        CHECK(NEAR(L->t_compute, 32768 / 1e10));
        CHECK(L->t_total >= pr_lx(L)->t_transfer + L->t_compute);
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

/* ---- the structural model (array compute model, tiled memory, weight residency, cores) ---- */

/* an NPU described as a MAC array: 1 Tops/s int8 per core, 2 cores with one inference each, lanes 32 over the
 * reduction and 4 over output channels, a 100 G elements/s vector unit, strided input re-laid out at 10 GB/s,
 * SiLU fused, no alignment, 256 KiB SRAM */
static const char array_yaml[] = "format: 1\n"
                                 "name: test-array\n"
                                 "compute:\n"
                                 "  cores: 2\n"
                                 "  cores_per_inference: 1\n"
                                 "  peak_ops: {int8: 2e12}\n"
                                 "  default_dtype: int8\n"
                                 "  efficiency: {default: 1}\n"
                                 "  array: {reduce: {int8: 32}, channels: {int8: 4}}\n"
                                 "  vector_ops: 1e11\n"
                                 "  strided_input_bandwidth: 1e10\n"
                                 "  fusion:\n"
                                 "    - [Conv, SiLU]\n"
                                 "memory:\n"
                                 "  sram_bytes: 256KiB\n"
                                 "  ddr_bandwidth: 1e10\n"
                                 "  overlap: true\n"
                                 "overhead:\n"
                                 "  per_layer_s: 0\n"
                                 "  per_run_s: 1e-5\n";

/* predicts a tiny model on a platform given as YAML text plus extra lines appended to it; NULL on failure */
static struct nnperf_prediction *predict_on(struct nnperf_analysis *a, const char *yaml, const char *extra,
                                            int memory_model)
{
    struct nnperf_predict_options o = {.memory_model = memory_model};
    return predict_text(a, yaml, extra, &o);
}

static void test_array_silu(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("silu", &m);
    struct nnperf_prediction *p = a ? predict_on(a, array_yaml, NULL, 0) : NULL;
    CHECK(p != NULL);
    if (p) {
        /* Conv + Sigmoid + Mul is one layer; its activation is free: compute is the MAC time alone. 1x1 conv
         * 32->32 at 16x16: 262,144 MACs; R = 32 fills the lanes, K = 32 fills lanes of 4; one core = 1e12 ops/s */
        CHECK(p->n_layers == 1 && p->layers[0].n_nodes == 3);
        CHECK(p->compute_model == PR_COMPUTE_ARRAY);
        CHECK(NEAR(util_of(p, &p->layers[0]), 1));
        CHECK(NEAR(p->layers[0].t_compute, 2.0 * 262144 / 1e12));
        /* the run starts with the per-run cost */
        CHECK(NEAR(p->layers[0].start, 1e-5) && NEAR(p->latency, 1e-5 + p->layers[0].t_total));
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        /* two cores, one inference each: more than one stream's FPS, less than twice it (the memory-bound layer
         * shares the DDR: test_runtime_stages) */
        CHECK(s.cores == 2 && s.cores_per_inference == 1 && s.throughput_fps > s.fps &&
              s.throughput_fps < 2 * s.fps);
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* The runtime around the layers (docs/prediction.md, section 5): host stages per frame and the per-call cost before
 * the layers; the two inferences in flight share the DDR (the memory time of the layer doubles); the host stages run
 * beside the accelerator on overhead.host_cores; a batch on an accelerator taking one frame a call is that many
 * calls. */
static void test_runtime_stages(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("silu", &m);
    static const char *const host[2] = {"  host_per_frame_s: 2e-4\n  host_cores: 2\n",
                                        "  host_per_frame_s: 1e-7\n  host_cores: 2\n"};
    for (int h = 0; a && h < 2; h++) {
        struct nnperf_prediction *p = predict_on(a, array_yaml, host[h], 0);
        CHECK(p != NULL);
        if (!p) continue;
        double hf = h ? 1e-7 : 2e-4;
        const struct pr_layer *L = &p->layers[0];
        CHECK(NEAR(L->start, hf + 1e-5) && NEAR(p->latency, hf + 1e-5 + L->t_total));
        CHECK(L->t_memory > L->t_compute); /* memory-bound: sharing the DDR slows it */
        double shared = 1e-5 + 2 * L->t_memory, acc = 2 / shared, cpu = 2 / hf;
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        CHECK(NEAR(s.throughput_fps, acc < cpu ? acc : cpu));
        CHECK(!strcmp(s.throughput_limit, h ? "shared DDR" : "host CPU"));
        nnperf_prediction_free(p);
    }
    /* overhead.host_serial_s: in series with the run in one thread; with several threads the accelerator's part is
     * as without it (the serial part is not the accelerator's), and the run rate at most one frame per serial time */
    struct nnperf_prediction *p0 = a ? predict_on(a, array_yaml, host[1], 0) : NULL;
    static const double serial[2] = {1e-6, 0.5};
    for (int k = 0; p0 && k < 2; k++) {
        char over[128];
        snprintf(over, sizeof over, "  host_per_frame_s: 1e-7\n  host_serial_s: %g\n  host_cores: 2\n",
                 serial[k]);
        struct nnperf_prediction *p = predict_on(a, array_yaml, over, 0);
        CHECK(p != NULL);
        if (!p) continue;
        CHECK(NEAR(p->latency, p0->latency + serial[k]) &&
              NEAR(p->layers[0].start, p0->layers[0].start + serial[k]));
        struct nnperf_prediction_summary s, s0;
        nnperf_prediction_summary(p, &s);
        nnperf_prediction_summary(p0, &s0);
        CHECK(NEAR(s.throughput_fps, k ? 1 / serial[k] : s0.throughput_fps));
        CHECK(!strcmp(s.throughput_limit, k ? "host CPU" : "shared DDR"));
        nnperf_prediction_free(p);
    }
    nnperf_prediction_free(p0);
    /* overhead.host_per_input_element_s: silu's input x is 1x32x16x16, 8192 elements a frame; at 1e-8 s each the
     * host stage of a frame is 2e-4 + 8.192e-5 = 2.8192e-4 s, in series with the run (the layer starts after it and
     * the 1e-5 per-call cost) and on the 2 host cores beside it: 2 / 2.8192e-4 = 7094.2 FPS, the host CPU's limit */
    struct nnperf_prediction *pe =
        a ? predict_on(a, array_yaml,
                       "  host_per_frame_s: 2e-4\n  host_per_input_element_s: 1e-8\n  host_cores: 2\n", 0)
          : NULL;
    CHECK(pe != NULL);
    if (pe) {
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(pe, &s);
        CHECK(NEAR(pe->layers[0].start, 2.8192e-4 + 1e-5) &&
              NEAR(pe->latency, 2.8192e-4 + 1e-5 + pe->layers[0].t_total));
        CHECK(NEAR(s.throughput_fps, 2 / 2.8192e-4) && !strcmp(s.throughput_limit, "host CPU"));
    }
    nnperf_prediction_free(pe);
    /* overhead.host_per_output_element_s: silu's output is 1x32x16x16 as well, 8192 elements a frame; at 2e-8 s each
     * beside 1e-8 per input element the host stage is 2e-4 + 8.192e-5 + 1.6384e-4 = 4.4576e-4 s. The same graph
     * delivering its output quantized (silu_q: a QuantizeLinear to int8 at the end) has no float output: its host
     * stage is 2e-4 + 8.192e-5 s, the input's part alone */
    struct nnperf_model *mq;
    struct nnperf_analysis *aq = analyze("silu_q", &mq);
    for (int q = 0; q < 2; q++) {
        struct nnperf_analysis *an = q ? aq : a;
        double stage = q ? 2.8192e-4 : 4.4576e-4;
        struct nnperf_prediction *po =
            an ? predict_on(an, array_yaml,
                            "  host_per_frame_s: 2e-4\n  host_per_input_element_s: 1e-8\n"
                            "  host_per_output_element_s: 2e-8\n  host_cores: 2\n",
                            0)
               : NULL;
        CHECK(po != NULL);
        if (po) {
            struct nnperf_prediction_summary s;
            nnperf_prediction_summary(po, &s);
            CHECK(NEAR(po->layers[0].start, stage + 1e-5) && NEAR(s.throughput_fps, 2 / stage));
        }
        nnperf_prediction_free(po);
    }
    nnperf_analysis_free(aq);
    nnperf_model_free(mq);
    /* frames_per_call 1, batch 4: four calls, four frames of host stages; the weights loaded once per call */
    char yaml[2048];
    const char *at = strstr(array_yaml, "  peak_ops:");
    snprintf(yaml, sizeof yaml, "%.*s  frames_per_call: 1\n%s", (int)(at - array_yaml), array_yaml, at);
    struct nnperf_predict_options o = {.batch = 4};
    struct nnperf_prediction *p4 = a ? predict_text(a, yaml, host[0], &o) : NULL;
    o.batch = 1;
    struct nnperf_prediction *p1 = a ? predict_text(a, yaml, host[0], &o) : NULL;
    CHECK(p4 && p1);
    if (p4 && p1) {
        CHECK(NEAR(p4->layers[0].start, 4 * (2e-4 + 1e-5)));
        CHECK(NEAR(p4->w_bytes, 4 * p1->w_bytes));
    }
    nnperf_prediction_free(p4);
    nnperf_prediction_free(p1);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* nnperf_predict_options.streams: N application threads, each running one run after another, finish at most N runs
 * per (latency + (N - 1) x the serial host stage of a run), below the saturated throughput. On test-array with
 * host_serial_s 1e-6 (host_per_frame_s 1e-7): latency L = 1e-5 (per run) + the layer + 1e-7 + 1e-6; saturated:
 * 2 / (1e-5 + 2 x the layer's memory time) (the two inferences share the DDR, test_runtime_stages), about 1.49e5 FPS;
 * N = 1: 1 / L, about 7.8e4; N = 2: 2 / (L + 1e-6), about 1.45e5 (both "application threads"); N = 3: 3 / (L + 2e-6),
 * about 2.0e5, above the saturated: "shared DDR". With calibration.time_scale 2 the serial part doubles as well. */
static void test_streams(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("silu", &m);
    static const char *const over[2] = {"  host_per_frame_s: 1e-7\n  host_serial_s: 1e-6\n  host_cores: 2\n",
                                        "  host_per_frame_s: 1e-7\n  host_serial_s: 1e-6\n  host_cores: 2\n"
                                        "calibration:\n  time_scale: 2\n"};
    for (int k = 0; a && k < 2; k++) {
        double ts = k ? 2 : 1;
        struct nnperf_prediction *p0 = predict_on(a, array_yaml, over[k], 0);
        CHECK(p0 != NULL);
        if (!p0) continue;
        const struct pr_layer *L0 = &p0->layers[0];
        double lat = ts * (1e-5 + L0->t_total / ts + 1e-7 + 1e-6), sat = 2 / (ts * 1e-5 + 2 * L0->t_memory);
        CHECK(NEAR(p0->latency, lat) && L0->t_memory > L0->t_compute);
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p0, &s);
        CHECK(NEAR(s.throughput_fps, sat) && !strcmp(s.throughput_limit, "shared DDR") && s.streams == 0);
        for (int n = 1; n <= 3; n++) {
            struct nnperf_predict_options o = {.streams = n};
            struct nnperf_prediction *p = predict_text(a, array_yaml, over[k], &o);
            CHECK(p != NULL);
            if (!p) continue;
            double want = n / (lat + (n - 1) * ts * 1e-6);
            nnperf_prediction_summary(p, &s);
            CHECK(NEAR(p->latency, lat) && s.streams == n); /* the one-thread latency is unchanged */
            CHECK(NEAR(s.throughput_fps, want < sat ? want : sat));
            CHECK(!strcmp(s.throughput_limit, n < 3 ? "application threads" : "shared DDR"));
            /* another batch keeps the streams: as nnperf_predict at that batch */
            struct nnperf_prediction *pb = NULL;
            char err[256];
            o.batch = 2;
            struct nnperf_prediction *p2 = predict_text(a, array_yaml, over[k], &o);
            CHECK(nnperf_predict_batch(p, 2, &pb, err, sizeof err) == NNPERF_OK && p2);
            if (pb && p2) {
                struct nnperf_prediction_summary sb, s2;
                nnperf_prediction_summary(pb, &sb);
                nnperf_prediction_summary(p2, &s2);
                CHECK(sb.streams == n && NEAR(sb.throughput_fps, s2.throughput_fps) &&
                      !strcmp(sb.throughput_limit, s2.throughput_limit));
            }
            nnperf_prediction_free(pb);
            nnperf_prediction_free(p2);
            nnperf_prediction_free(p);
        }
        nnperf_prediction_free(p0);
    }
    /* a negative count is refused, naming the option */
    struct nnperf_predict_options bad = {.streams = -1};
    struct nnperf_platform pl;
    struct diag d = {0};
    hw_init(&pl.hw);
    CHECK(hw_load_yaml(array_yaml, strlen(array_yaml), "test.yaml", &pl.hw, &d) == NNPERF_OK);
    struct nnperf_prediction *p = NULL;
    char err[256] = "";
    CHECK(!a || (nnperf_predict(a, &pl, &bad, &p, err, sizeof err) == NNPERF_E_USAGE && !p &&
                 strstr(err, "streams -1")));
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* memory.core_bandwidth: one inference's bytes move at min(ddr_bandwidth, its core's own ports) x efficiency; the
 * inferences in flight on the two cores share ddr_bandwidth, so their memory time grows only by as much as their
 * ports together ask more than the DDR gives (4e9 each: 8e9 < 1e10, none; 8e9 each: 16e9 / 1e10 = 1.6x) */
static void test_core_ports(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("silu", &m);
    const char *at = a ? strstr(array_yaml, "  overlap: true\n") : NULL;
    CHECK(!a || at != NULL);
    struct nnperf_prediction *p0 = at ? predict_on(a, array_yaml, NULL, 0) : NULL;
    static const double ports[3] = {4e9, 8e9, 2e10};
    for (int i = 0; p0 && i < 3; i++) {
        char yaml[2048], line[64];
        snprintf(line, sizeof line, "  core_bandwidth: %g\n", ports[i]);
        snprintf(yaml, sizeof yaml, "%.*s%s%s", (int)(at - array_yaml), array_yaml, line, at);
        struct nnperf_prediction *p = predict_on(a, yaml, NULL, 0);
        CHECK(p != NULL);
        if (!p) continue;
        const struct pr_layer *L = &p->layers[0], *L0 = &p0->layers[0];
        double rate = ports[i] < 1e10 ? ports[i] : 1e10, grow = 2 * rate / 1e10 > 1 ? 2 * rate / 1e10 : 1;
        CHECK(NEAR(L->t_memory, L0->t_memory * 1e10 / rate) && L->t_memory > L->t_compute);
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        CHECK(NEAR(s.throughput_fps, 2 / (1e-5 + grow * L->t_memory)));
        CHECK(!strcmp(s.throughput_limit, grow > 1 ? "shared DDR" : "accelerator cores"));
        nnperf_prediction_free(p);
    }
    nnperf_prediction_free(p0);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* overhead.per_weight_s: each weight element converted once per run, in its layer's overhead: the conv's 32 x 32
 * weights (and bias) cost per_weight_s each, the same at batch 1 and at batch 4 run as four calls of one frame */
static void test_weight_prep(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("silu", &m);
    char yaml[2048];
    const char *at = a ? strstr(array_yaml, "  peak_ops:") : NULL;
    CHECK(!a || at != NULL);
    for (int batch = 1; at && batch <= 4; batch += 3) {
        snprintf(yaml, sizeof yaml, "%.*s  frames_per_call: 1\n%s", (int)(at - array_yaml), array_yaml, at);
        struct nnperf_predict_options o = {.batch = batch};
        struct nnperf_prediction *p0 = predict_text(a, yaml, NULL, &o);
        struct nnperf_prediction *p1 = predict_text(a, yaml, "  per_weight_s: 1e-9\n", &o);
        CHECK(p0 && p1);
        if (p0 && p1) {
            const struct pr_layer *L0 = &p0->layers[0], *L1 = &p1->layers[0];
            CHECK(L1->params >= 32 * 32);
            CHECK(NEAR(L1->t_overhead - L0->t_overhead, 1e-9 * L1->params));
            CHECK(NEAR(p1->latency - p0->latency, 1e-9 * L1->params));
        }
        nnperf_prediction_free(p0);
        nnperf_prediction_free(p1);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* wave quantization (compute.array.units): the 1x1 conv's 256 pixels x 32 channels in tiles of 64 x 4 are 32
 * tiles; 3 units run them in 11 waves (33 slots), 64 units in one half-empty wave */
static void test_array_waves(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("silu", &m);
    const char *key = "channels: {int8: 4}}";
    const double units[] = {3, 64, 32}, fill[] = {32.0 / 33, 0.5, 1};
    for (int i = 0; a && i < 3; i++) {
        char yaml[sizeof array_yaml + 128];
        const char *at = strstr(array_yaml, key);
        CHECK(at != NULL);
        if (!at) break;
        snprintf(yaml, sizeof yaml, "%.*schannels: {int8: 4}, pixels: {int8: 64}, units: %g}%s",
                 (int)(at - array_yaml), array_yaml, units[i], at + strlen(key));
        struct nnperf_prediction *p = predict_on(a, yaml, NULL, 0);
        CHECK(p != NULL);
        if (p) {
            CHECK(p->n_layers == 1 && NEAR(util_of(p, &p->layers[0]), fill[i]));
            CHECK(NEAR(p->layers[0].t_compute, 2.0 * 262144 / 1e12 / fill[i]));
        }
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_array_strided_dw(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("strided_dw", &m);
    struct nnperf_prediction *p = a ? predict_on(a, array_yaml, NULL, 0) : NULL;
    CHECK(p != NULL);
    if (p && p->n_layers == 2) {
        const struct pr_layer *down = &p->layers[0], *dw = &p->layers[1];
        /* the strided 1x1 conv: full lanes (R = 32, K = 32); 32x16x16 outputs x 32 MACs; plus its 1x32x32x32
         * input (32,768 bytes) re-laid out at 10 GB/s */
        CHECK(NEAR(util_of(p, down), 1));
        CHECK(NEAR(down->t_compute, 2.0 * 8192 * 32 / 1e12 + 32768 / 1e10));
        /* the depthwise conv, a class of its own: R = 9 of 32 lanes, K = 1 of 4 */
        CHECK(dw->klass == OC_CONV_DEPTHWISE);
        CHECK(NEAR(util_of(p, dw), 9.0 / 32 / 4));
        CHECK(NEAR(dw->t_compute, 2.0 * 8192 * 9 / (1e12 * 9.0 / 32 / 4)));
    }
    nnperf_prediction_free(p);
    /* depthwise convs running channel-parallel (span_groups): the 32 channels fill the lanes of 4 */
    static char yaml2[sizeof array_yaml + 64];
    snprintf(yaml2, sizeof yaml2, "%s", array_yaml);
    const char *key = "channels: {int8: 4}}";
    char *at = strstr(yaml2, key);
    CHECK(at != NULL);
    if (at)
        snprintf(at, sizeof yaml2 - (size_t)(at - yaml2), "channels: {int8: 4}, span_groups: true}%s",
                 strstr(array_yaml, key) + strlen(key));
    p = a ? predict_on(a, yaml2, NULL, 0) : NULL;
    CHECK(p != NULL && p->n_layers == 2 && NEAR(util_of(p, &p->layers[1]), 9.0 / 32));
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* array_yaml with its array line replaced by `array` (a whole "  array: {...}\n" line); 0 when it does not fit */
static int array_variant(char *out, size_t n, const char *array)
{
    const char *key = "  array: {reduce: {int8: 32}, channels: {int8: 4}}\n", *at = strstr(array_yaml, key);
    CHECK(at != NULL);
    return at &&
           snprintf(out, n, "%.*s%s%s", (int)(at - array_yaml), array_yaml, array, at + strlen(key)) < (int)n;
}

/* each platform array_variant(arrays[i]) fills the array's lanes of `layer` (the model's only layer when NULL) to
 * want[i] */
static void check_array_utils(const char *model, const char *const *arrays, const double *want, int n,
                              const char *layer, const struct nnperf_predict_options *o)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze(model, &m);
    for (int i = 0; i < n && a; i++) {
        char yaml[sizeof array_yaml + 256];
        if (!array_variant(yaml, sizeof yaml, arrays[i])) break;
        struct nnperf_prediction *p = predict_text(a, yaml, NULL, o);
        const struct pr_layer *L = p && !layer && p->n_layers == 1 ? &p->layers[0] : NULL;
        for (int l = 0; p && layer && l < p->n_layers; l++)
            if (p->layers[l].main && !strcmp(p->layers[l].main->name, layer)) L = &p->layers[l];
        CHECK(L != NULL);
        if (L) CHECK(NEAR(util_of(p, L), want[i]));
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.array.batch_rows: a GPU's implicit GEMM pads the rows of all frames of a run together, an NPU each frame's
 * pixels on their own. The 1x1 conv 32->32 at 16x16 (256 pixels a frame) at batch 2 on 192 pixel lanes: one frame
 * fills 256 / 384, both frames together 512 / 576; matmul_rows_untiled leaves a conv's rows tiled */
static void test_array_batch_rows(void)
{
    static const char *const arrays[3] = {
        "  array: {reduce: {int8: 32}, channels: {int8: 4}, pixels: {int8: 192}}\n",
        "  array: {reduce: {int8: 32}, channels: {int8: 4}, pixels: {int8: 192}, "
        "batch_rows: true}\n",
        "  array: {reduce: {int8: 32}, channels: {int8: 4}, pixels: {int8: 192}, "
        "batch_rows: true, matmul_rows_untiled: true}\n"};
    static const double want[3] = {256.0 / 384, 512.0 / 576, 512.0 / 576};
    struct nnperf_predict_options o = {.batch = 2};
    check_array_utils("silu", arrays, want, 3, NULL, &o);
}

/* compute.array.matmul_rows_untiled: a MatMul's rows are not padded to the pixel lanes. attention's q.k^T (rows 2 heads
 * x 8 queries = 16, 8 columns, reduction 4) on 64 pixel lanes fills 16 / 64 of them; untiled, all of its lanes */
static void test_array_matmul_rows(void)
{
    static const char *const arrays[2] = {
        "  array: {reduce: {int8: 4}, channels: {int8: 8}, pixels: {int8: 64}, batch_rows: true}\n",
        "  array: {reduce: {int8: 4}, channels: {int8: 8}, pixels: {int8: 64}, batch_rows: true, "
        "matmul_rows_untiled: true}\n"};
    static const double want[2] = {16.0 / 64, 1};
    check_array_utils("attention", arrays, want, 2, "qk", NULL);
}

/* compute.array.tiles: silu's conv (K = 32 output channels, P = 256 pixels) takes the tile of least padded work:
 * 64x64 alone pads K to 64 (0.5); with 32x32 offered it takes 32x32 (1); a 32x32 at efficiency 0.25 does 4x the
 * work of 64x64's padding, so 64x64 (0.5); 32x32 and 32x128 pad alike and the tie goes to the larger, whose 2 tiles
 * fill 2 of 3 units (2/3, where 32x32's 8 tiles would fill 8 of 9), in either order */
static void test_array_tiles(void)
{
    static const char *const arrays[5] = {
        "  array: {reduce: {int8: 32}, tiles: [{channels: 64, pixels: 64}]}\n",
        "  array: {reduce: {int8: 32}, tiles: [{channels: 64, pixels: 64}, {channels: 32, pixels: 32}]}\n",
        "  array: {reduce: {int8: 32}, tiles: [{channels: 32, pixels: 32, efficiency: 0.25}, {channels: 64, "
        "pixels: 64}]}\n",
        "  array: {reduce: {int8: 32}, units: 3, tiles: [{channels: 32, pixels: 32}, {channels: 32, pixels: "
        "128}]}\n",
        "  array: {reduce: {int8: 32}, units: 3, tiles: [{channels: 32, pixels: 128}, {channels: 32, pixels: "
        "32}]}\n"};
    static const double want[5] = {0.5, 1, 0.5, 2.0 / 3, 2.0 / 3};
    check_array_utils("silu", arrays, want, 5, NULL, NULL);
}

/* compute.dtype_efficiency: a factor on the class efficiency at that dtype; the conv of silu is MAC-bound on
 * array_yaml, so 0.5 at int8 doubles its compute time and 0.5 at fp16 leaves an int8 run as it is */
static void test_dtype_efficiency(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("silu", &m);
    static const char *arrays[3] = {"  array: {reduce: {int8: 32}, channels: {int8: 4}}\n",
                                    "  array: {reduce: {int8: 32}, channels: {int8: 4}}\n"
                                    "  dtype_efficiency: {int8: 0.5}\n",
                                    "  array: {reduce: {int8: 32}, channels: {int8: 4}}\n"
                                    "  dtype_efficiency: {fp16: 0.5}\n"};
    const double want[3] = {1, 2, 1};
    double t0 = 0;
    for (int i = 0; i < 3 && a; i++) {
        char yaml[sizeof array_yaml + 128];
        if (!array_variant(yaml, sizeof yaml, arrays[i])) break;
        struct nnperf_prediction *p = predict_text(a, yaml, NULL, NULL);
        CHECK(p != NULL && p->n_layers == 1);
        if (p && p->n_layers == 1) {
            if (i == 0) t0 = p->layers[0].t_compute;
            CHECK(t0 > 0 && NEAR(p->layers[0].t_compute / t0, want[i]));
        }
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_tiled(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("chain3", &m);
    /* planned: each 64x72x72 activation (331,776 B) is larger than the 256 KiB SRAM and goes through DDR */
    struct nnperf_prediction *p = a ? predict_on(a, array_yaml, NULL, NNPERF_MEMORY_PLANNED) : NULL;
    const double act = 64.0 * 72 * 72, wts = 64.0 * 64 * 9;
    CHECK(p != NULL);
    if (p && p->n_layers == 3) {
        CHECK(NEAR(p->layers[0].store_bytes, act) && NEAR(p->layers[1].load_bytes, act));
        CHECK(NEAR(p->layers[1].store_bytes, act) && NEAR(p->layers[2].load_bytes, act));
        CHECK(p->layers[0].start < p->layers[1].start);
    }
    nnperf_prediction_free(p);
    /* tiled: the three layers form one depth-first group (3 x 36,864 B of weights + line buffers of 4 rows of
     * 64 x 72 B each fit 256 KiB); only the graph's input and output and the weights cross DDR */
    p = a ? predict_on(a, array_yaml, NULL, NNPERF_MEMORY_TILED) : NULL;
    CHECK(p != NULL);
    if (p && p->n_layers == 3) {
        double ddr = 0;
        for (int l = 0; l < 3; l++)
            ddr += p->layers[l].load_bytes + p->layers[l].store_bytes +
                   pr_lx(&p->layers[l])->spill_load_bytes + pr_lx(&p->layers[l])->spill_store_bytes +
                   p->layers[l].w_bytes;
        CHECK(NEAR(ddr, act + act + 3 * wts));
        CHECK(p->layers[0].group == p->layers[2].group);
        /* one group: every layer is active over the group's whole span */
        CHECK(NEAR(p->layers[0].start, p->layers[2].start) && NEAR(p->layers[0].end, p->layers[2].end));
        CHECK(NEAR(p->layers[2].end, p->latency));
    }
    nnperf_prediction_free(p);
    /* a 120,000 B SRAM holds conv1 and conv2 (2 x (36,864 + 4 x 4,608) B) but not conv3 as well: a second group
     * starts, and the tensor between the groups (larger than the SRAM) goes through DDR */
    static char small[sizeof array_yaml];
    snprintf(small, sizeof small, "%s", array_yaml);
    char *at = strstr(small, "256KiB");
    if (at) memcpy(at, "120000", 6);
    p = a ? predict_on(a, small, NULL, NNPERF_MEMORY_TILED) : NULL;
    CHECK(p != NULL);
    if (p && p->n_layers == 3) {
        CHECK(p->layers[0].group == p->layers[1].group && p->layers[1].group != p->layers[2].group);
        CHECK(NEAR(p->layers[1].store_bytes, act) && NEAR(p->layers[2].load_bytes, act));
        CHECK(p->layers[0].store_bytes == 0 && p->layers[1].load_bytes == 0);
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_weight_residency(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("chain3", &m);
    /* a 50 kB weight memory holds conv1's 36,864 B; conv2's do not fit, so conv2 and conv3 stream theirs over a
     * 100 MB/s host link every inference, as do the graph's input and output */
    static char yaml[sizeof array_yaml + 128];
    snprintf(yaml, sizeof yaml, "%s", array_yaml);
    char *at = strstr(yaml, "  ddr_bandwidth: 1e10\n");
    if (at) {
        char rest[1024];
        snprintf(rest, sizeof rest, "%s", at);
        snprintf(at, sizeof yaml - (size_t)(at - yaml),
                 "  weight_sram_bytes: 50000\n  link_bandwidth: 1e8\n%s", rest);
    }
    struct nnperf_prediction *p = a ? predict_on(a, yaml, NULL, NNPERF_MEMORY_PLANNED) : NULL;
    const double act = 64.0 * 72 * 72, wts = 64.0 * 64 * 9;
    CHECK(p != NULL);
    if (p && p->n_layers == 3) {
        CHECK(p->layers[0].w_bytes == 0 &&
              NEAR(pr_lx(&p->layers[0])->link_bytes, act)); /* resident weights; the input */
        CHECK(p->layers[1].w_bytes == 0 && NEAR(pr_lx(&p->layers[1])->link_bytes, wts));
        CHECK(
            NEAR(pr_lx(&p->layers[2])->link_bytes, wts + act)); /* streamed weights and the graph's output */
        /* the link is the bottleneck of conv2: its time is its streamed weights over the link */
        CHECK(p->layers[1].t_total >= wts / 1e8);
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* a CPU described by kernel costs: 100 Gops/s fp32, conv efficiency 0.5, depthwise 0.25, narrow-input 0.8 */
static const char kernels_yaml[] =
    "format: 1\n"
    "name: test-cpu\n"
    "compute:\n"
    "  peak_ops: {fp32: 1e11}\n"
    "  default_dtype: fp32\n"
    "  efficiency: {conv: 0.5, conv_depthwise: 0.25}\n"
    "  kernel_costs: {output_s: 1e-9, activation_pass_s: 2e-9, element_s: 3e-9,\n"
    "                 narrow_input_efficiency: 0.8}\n"
    "  fusion:\n"
    "    - [Conv, SiLU]\n"
    "    - [Conv, Relu]\n"
    "memory:\n"
    "  ddr_bandwidth: 1e10\n"
    "  overlap: false\n"
    "overhead:\n"
    "  per_layer_s: 1e-6\n";

static void test_kernels_model(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("silu", &m);
    struct nnperf_prediction *p = a ? predict_on(a, kernels_yaml, NULL, 0) : NULL;
    CHECK(p != NULL);
    if (p) {
        /* Conv+Sigmoid+Mul (SiLU) is one layer: 1x1 32->32 at 16x16, 262,144 MACs at 1e11 x 0.5; 8,192 outputs
         * at 1 ns; Sigmoid is not Relu: a pass over the 8,192 outputs at 2 ns; 4,096 weight bytes at 10 GB/s; 1 us */
        CHECK(p->compute_model == PR_COMPUTE_KERNELS);
        CHECK(p->n_layers == 1 && p->layers[0].n_nodes == 3);
        double conv = 2.0 * 262144 / (1e11 * 0.5) + 8192 * 1e-9 + 8192 * 2e-9;
        CHECK(NEAR(p->layers[0].t_compute, conv));
        CHECK(NEAR(p->layers[0].t_total, conv + 4096 / 1e10 + 1e-6));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
    /* layers without MACs: BatchNormalization reads 8,192 elements (its parameters are constants) and writes
     * 8,192; the Add reads two and writes one; 3 ns each */
    a = analyze("fuse_block", &m);
    p = a ? predict_on(a, kernels_yaml, NULL, 0) : NULL;
    CHECK(p != NULL);
    if (p) {
        CHECK(p->n_layers == 4 && !strcmp(p->layers[1].main->op_type, "BatchNormalization"));
        CHECK(NEAR(p->layers[1].t_total, 2 * 8192 * 3e-9 + 1e-6));
        CHECK(NEAR(p->layers[2].t_total, 3 * 8192 * 3e-9 + 1e-6));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
    /* the stem (3 input channels) runs at the narrow-input efficiency; its Relu is applied in the kernel */
    a = analyze("stem", &m);
    p = a ? predict_on(a, kernels_yaml, NULL, 0) : NULL;
    CHECK(p != NULL);
    if (p) {
        CHECK(p->n_layers == 1);
        double macs = 8.0 * 16 * 16 * 3 * 9;
        CHECK(NEAR(p->layers[0].t_compute, 2 * macs / (1e11 * 0.8) + 8 * 16 * 16 * 1e-9));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* calibration of the kernel-cost model recovers the coefficients that made the measurements */
static void test_kernels_calibrate(void)
{
    static const char *const names[] = {"silu", "strided_dw", "chain3", "stem", "fuse_block", "shortcut"};
    enum { N = sizeof names / sizeof names[0] };
    struct nnperf_model *m[N] = {0};
    struct nnperf_analysis *a[N] = {0};
    struct perf_profile prof[N];
    struct perf_profile_node nodes[N][16];
    struct perf_cal_input in[N];
    int ok = 1;
    memset(prof, 0, sizeof prof);
    for (int i = 0; i < N && ok; i++) {
        a[i] = analyze(names[i], &m[i]);
        struct nnperf_prediction *p = a[i] ? predict_on(a[i], kernels_yaml, NULL, 0) : NULL;
        ok = p && p->n_layers <= 16;
        for (int l = 0; ok && l < p->n_layers; l++)
            nodes[i][l] = (struct perf_profile_node){
                .name = p->layers[l].nodes[0]->name, .total_us = p->layers[l].t_total * 1e6, .count = 1};
        if (ok) prof[i] = (struct perf_profile){.nodes = nodes[i], .n_nodes = p->n_layers, .runs = 1};
        in[i] = (struct perf_cal_input){names[i], a[i], &prof[i]};
        nnperf_prediction_free(p);
    }
    CHECK(ok);
    if (ok) {
        /* start from other values: the fit must not depend on them */
        char text[4096];
        snprintf(text, sizeof text, "%s", kernels_yaml);
        struct hw_desc hw;
        struct diag d = {0};
        hw_init(&hw);
        CHECK(hw_load_yaml(text, strlen(text), "test.yaml", &hw, &d) == NNPERF_OK);
        hw.eff[OC_CONV] = 1, hw.eff[OC_CONV_DEPTHWISE] = 1, hw.kc.narrow_eff = 0.1;
        hw.kc.output_s = 5e-9, hw.kc.pass_s = 5e-9, hw.kc.element_s = 5e-9, hw.layer_overhead_s = 0;
        CHECK(perf_calibrate(&hw, HW_FP32, in, N, NULL, &d) == NNPERF_OK);
        CHECK(fabs(hw.eff[OC_CONV] - 0.5) < 1e-6 && fabs(hw.eff[OC_CONV_DEPTHWISE] - 0.25) < 1e-6);
        CHECK(fabs(hw.kc.narrow_eff - 0.8) < 1e-6);
        CHECK(fabs(hw.kc.output_s - 1e-9) < 1e-15 && fabs(hw.kc.pass_s - 2e-9) < 1e-15);
        CHECK(fabs(hw.kc.element_s - 3e-9) < 1e-15 && fabs(hw.layer_overhead_s - 1e-6) < 1e-12);
    }
    for (int i = 0; i < N; i++) {
        nnperf_analysis_free(a[i]);
        nnperf_model_free(m[i]);
    }
}

/* a GPU-like platform: no fusion patterns; the extra lines switch pointwise fusion and fused attention on */
static const char gpu_yaml[] = "format: 1\n"
                               "name: test-gpu\n"
                               "memory:\n"
                               "  ddr_bandwidth: 1e10\n"
                               "  overlap: true\n"
                               "overhead:\n"
                               "  per_layer_s: 1e-6\n"
                               "compute:\n"
                               "  peak_ops: {fp16: 1e12}\n"
                               "  default_dtype: fp16\n"
                               "  efficiency: {default: 1}\n";

static struct nnperf_prediction *predict_gpu(struct nnperf_analysis *a, const char *extra, int causal,
                                             const char *kv)
{
    struct nnperf_predict_options o = {.causal = causal, .kv_dtype = kv};
    return predict_text(a, gpu_yaml, extra, &o);
}

static void test_pointwise_fusion(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("fuse_block", &m);
    /* without it: Conv, BatchNormalization, Add, Relu are four layers; with it one kernel, whose only DDR traffic
     * is x (read once although two nodes read it), the weights and y */
    struct nnperf_prediction *p = a ? predict_gpu(a, NULL, 0, NULL) : NULL;
    CHECK(p && p->n_layers == 4);
    nnperf_prediction_free(p);
    p = a ? predict_gpu(a, "  fuse_pointwise: true\n", 0, NULL) : NULL;
    CHECK(p && p->n_layers == 1);
    if (p) {
        CHECK(p->layers[0].n_nodes == 4 && !strcmp(p->layers[0].main->op_type, "Conv"));
        CHECK(NEAR(p->layers[0].load_bytes, 32 * 16 * 16 * 2) &&
              NEAR(p->layers[0].store_bytes, 32 * 16 * 16 * 2));
        CHECK(NEAR(p->layers[0].t_overhead, 1e-6));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* weight-only quantization (compute.weight_only): int4 has no peak on the GPU; asked for, it stores the weights at
 * int4 and computes at fp16, as dtype fp16 with weight_dtype int4 does; an explicit weight dtype wins; without the
 * key int4 is refused */
static void test_weight_only(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("fuse_block", &m);
    struct nnperf_predict_options o4 = {.dtype = "int4"}, w4 = {.dtype = "fp16", .weight_dtype = "int4"};
    struct nnperf_predict_options o4w8 = {.dtype = "int4", .weight_dtype = "int8"};
    struct nnperf_prediction *p = a ? predict_text(a, gpu_yaml, NULL, &o4) : NULL;
    CHECK(a && !p);
    nnperf_prediction_free(p);
    p = a ? predict_text(a, gpu_yaml, "  weight_only: true\n", &o4) : NULL;
    struct nnperf_prediction *q = a ? predict_text(a, gpu_yaml, NULL, &w4) : NULL;
    CHECK(p && q);
    if (p && q) {
        CHECK(p->dtype == HW_FP16 && p->w_elem == 0.5);
        CHECK(p->latency == q->latency && p->n_layers == q->n_layers);
        CHECK(p->n_warn > 0 && strstr(p->warn[0], "weights stored at int4, computed at fp16"));
    }
    nnperf_prediction_free(q);
    q = a ? predict_text(a, gpu_yaml, "  weight_only: true\n", &o4w8) : NULL;
    CHECK(q && q->dtype == HW_FP16 && q->w_elem == 1);
    if (p && q) CHECK(q->latency > p->latency); /* int8 weights move twice the bytes */
    nnperf_prediction_free(q);
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* memory.overlap_exponent k: a layer takes (compute^k + memory^k)^(1/k); memory.overlap_exponent_classes limits it to
 * those operator classes, the others take max(compute, memory) */
static void test_overlap_exponent(void)
{
    static const char *yaml = "format: 1\n"
                              "name: test-gpu-k\n"
                              "overhead:\n"
                              "  per_layer_s: 0\n"
                              "compute:\n"
                              "  peak_ops: {fp16: 1e12}\n"
                              "  default_dtype: fp16\n"
                              "  efficiency: {default: 1}\n"
                              "memory:\n"
                              "  ddr_bandwidth: 1e10\n"
                              "  overlap: true\n"
                              "  overlap_exponent: 2\n";
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("attention", &m);
    struct nnperf_predict_options o = {0};
    for (int scoped = 0; scoped < 2; scoped++) {
        struct nnperf_prediction *p =
            a ? predict_text(a, yaml, scoped ? "  overlap_exponent_classes: [matmul]\n" : NULL, &o) : NULL;
        CHECK(p && p->n_layers == 4);
        int matmuls = 0, partial = 0;
        for (int l = 0; p && l < p->n_layers; l++) {
            const struct pr_layer *L = &p->layers[l];
            double c = L->t_compute, mem = L->t_memory, hi = c > mem ? c : mem;
            int k2 = !scoped || L->klass == OC_MATMUL;
            matmuls += L->klass == OC_MATMUL;
            partial += k2 && c > 0 && mem > 0;
            CHECK(NEAR(L->t_total, k2 && c > 0 && mem > 0 ? sqrt(c * c + mem * mem) : hi));
        }
        CHECK(matmuls == 2 && partial >= 2);
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.alignment[].products: a rule for outputs derived from a product of two activations only. Attention's
 * QK (2 heads x 8 x 8), its scale, its softmax and PV ([1, 2, 8, 4]) all so derive: under the power-of-two rule they
 * keep their shapes, where the conv rule reads the heads as channels (2 -> 32) and pads W to 16 (32x and 64x). A
 * MatMul of an activation and a weight (fc_pad: x [1, 300] x [300, 20]) is no product: the conv rule pads 20 to 32. */
static void test_align_products(void)
{
    static const char *yaml = "format: 1\n"
                              "name: test-products\n"
                              "compute:\n"
                              "  peak_ops: {int8: 1e12}\n"
                              "  default_dtype: int8\n"
                              "  alignment:\n";
    static const char *prod = "    - {classes: [matmul, eltwise, softmax], products: true, pow2: true}\n";
    static const char *conv = "    - {classes: [conv, gemm, matmul, eltwise, softmax], c: 32, h: 8, w: 16}\n"
                              "memory:\n"
                              "  ddr_bandwidth: 1e10\n";
    char extra[512];
    struct nnperf_predict_options o = {0};
    struct nnperf_model *m, *m2;
    struct nnperf_analysis *a = analyze("attention", &m), *fc = analyze("fc_pad", &m2);
    for (int with = 0; with < 2; with++) {
        snprintf(extra, sizeof extra, "%s%s", with ? prod : "", conv);
        struct nnperf_prediction *p = a ? predict_text(a, yaml, extra, &o) : NULL;
        CHECK(p && p->n_layers == 4);
        for (int l = 0; p && l < p->n_layers; l++) {
            const struct pr_layer *L = &p->layers[l];
            CHECK(L->product == with); /* marked only where a rule asks for it */
            CHECK(NEAR(pr_align_factor(L), with ? 1.0 : l == 3 ? 64.0 : 32.0));
        }
        nnperf_prediction_free(p);
        p = fc ? predict_text(fc, yaml, extra, &o) : NULL;
        CHECK(p && p->n_layers >= 2);
        if (p) {
            CHECK(p->layers[0].klass == OC_MATMUL && !p->layers[0].product);
            CHECK_EQ_U(pr_aligned_dims(&p->layers[0])[1], 32);
        }
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(a), nnperf_analysis_free(fc);
    nnperf_model_free(m), nnperf_model_free(m2);
}

static void test_fused_attention(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("attention", &m);
    /* 2 heads x 8 x 8 x 4 MACs for each MatMul: 2 x (512 + 512) ops */
    struct nnperf_prediction *p = a ? predict_gpu(a, NULL, 0, NULL) : NULL;
    CHECK(p && p->n_layers == 4);
    nnperf_prediction_free(p);
    /* pointwise fusion alone: the scale joins QK's kernel; Softmax and PV stay apart */
    p = a ? predict_gpu(a, "  fuse_pointwise: true\n", 0, NULL) : NULL;
    CHECK(p && p->n_layers == 3);
    nnperf_prediction_free(p);
    /* fused attention: one layer; the scores never reach DDR: it loads Q, K, V and stores y */
    p = a ? predict_gpu(a, "  fused_attention: true\n", 0, NULL) : NULL;
    CHECK(p && p->n_layers == 1);
    if (p) {
        CHECK(p->layers[0].n_nodes == 4 && NEAR(p->layers[0].mac_ops, 2 * (512 + 512)));
        CHECK(NEAR(p->layers[0].load_bytes, 3 * 64 * 2) && NEAR(p->layers[0].store_bytes, 64 * 2));
    }
    nnperf_prediction_free(p);
    /* causal: 8 queries over 8 keys, (8 x 9 / 2) / 64 of the work */
    p = a ? predict_gpu(a, "  fused_attention: true\n", 1, NULL) : NULL;
    CHECK(p && p->n_layers == 1 && NEAR(p->layers[0].mac_ops, 2 * (512 + 512) * 36.0 / 64));
    nnperf_prediction_free(p);
    /* an unknown storage dtype is refused with its name */
    p = a ? predict_gpu(a, NULL, 0, "fp6") : NULL;
    CHECK(p == NULL);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* a runtime's kernel boundaries (docs/prediction.md, Runtimes): PyTorch eager runs LayerNorm, GELU, SiLU and
 * HardSwish as one kernel each however torch.onnx wrote them, a Linear's bias in its GEMM, views as no kernel and a
 * convolution's bias as a kernel of its own */
static const char eager_keys[] = "  fusion: [[MatMul, Add]]\n"
                                 "  composite_kernels: [LayerNormalization, Gelu, HardSwish, SiLU]\n";

static const struct pr_layer *layer_named(const struct nnperf_prediction *p, const char *first)
{
    for (int l = 0; p && l < p->n_layers; l++)
        if (!strcmp(p->layers[l].nodes[0]->name, first)) return &p->layers[l];
    return NULL;
}

/* sibling products (compute.fuse_sibling_products): the three products reading x with constant weights run as one
 * kernel (x read once, the weights side by side, one per-layer cost); x times its own transpose stays apart */
static void test_sibling_products(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("siblings", &m);
    struct nnperf_prediction *p = a ? predict_gpu(a, NULL, 0, NULL) : NULL;
    const struct pr_layer *q = layer_named(p, "q_proj");
    CHECK(p && q && q->n_nodes == 1 && layer_named(p, "gram"));
    int before = p ? p->n_layers : 0;
    nnperf_prediction_free(p);
    p = a ? predict_gpu(a, "  fuse_sibling_products: true\n", 0, NULL) : NULL;
    q = layer_named(p, "q_proj");
    CHECK(p && p->n_layers == before - 2 && q && q->n_nodes == 3);
    if (q) {
        /* 8 rows x 16 x (16 + 8 + 8) MACs; x (8 x 16, FP16) loaded once, q, k and v stored */
        CHECK(NEAR(q->mac_ops, 2.0 * 8 * 16 * 32));
        CHECK(NEAR(q->load_bytes, 8 * 16 * 2) && NEAR(q->store_bytes, 8 * 32 * 2));
        CHECK(NEAR(q->t_overhead, 1e-6));
        for (int i = 0; i < q->n_nodes; i++) CHECK(strcmp(q->nodes[i]->name, "gram"));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_runtime_kernels(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("eager_block", &m);
    /* every node a layer: LayerNorm 9, Linear 2, GELU 5, Transpose, Reshape, Conv, SiLU 2, HardSwish 2 */
    struct nnperf_prediction *p = a ? predict_gpu(a, NULL, 0, NULL) : NULL;
    CHECK(p && p->n_layers == 23);
    const struct pr_layer *L = layer_named(p, "conv"), *T = layer_named(p, "transpose");
    CHECK(L && NEAR(L->t_overhead, 1e-6) && T && T->t_total > 0);
    nnperf_prediction_free(p);
    /* one layer per PyTorch kernel: LayerNorm, Linear, GELU, Transpose, Reshape, Conv, SiLU, HardSwish */
    p = a ? predict_gpu(a, eager_keys, 0, NULL) : NULL;
    CHECK(p && p->n_layers == 8);
    L = layer_named(p, "ln_mean");
    /* the LayerNorm reads x (16 x 32 fp16) and writes its result; its intermediates stay in the kernel */
    CHECK(L && L->n_nodes == 9 && NEAR(L->load_bytes, 16 * 32 * 2) && NEAR(L->store_bytes, 16 * 32 * 2));
    CHECK(layer_named(p, "gelu_div") && layer_named(p, "gelu_div")->n_nodes == 5);
    CHECK(layer_named(p, "silu_sig") && layer_named(p, "silu_sig")->n_nodes == 2);
    CHECK(layer_named(p, "hswish_sig") && layer_named(p, "hswish_sig")->n_nodes == 2);
    CHECK(layer_named(p, "fc") && layer_named(p, "fc")->n_nodes == 2);
    nnperf_prediction_free(p);
    /* views launch nothing; the conv's bias is a second kernel: one more launch and a pass over its output (8 x 4 x
     * 4 fp16, stored to DDR: read and written again) */
    p = a ? predict_gpu(a, "  view_ops: [Transpose, Reshape]\n  bias_kernel: true\n", 0, NULL) : NULL;
    CHECK(p && p->n_layers == 23);
    L = layer_named(p, "conv"), T = layer_named(p, "transpose");
    CHECK(L && NEAR(L->store_bytes, 8 * 4 * 4 * 2) && NEAR(L->t_overhead, 2e-6 + 2 * 8 * 4 * 4 * 2 / 1e10));
    CHECK(T && T->t_total == 0 && layer_named(p, "reshape") && layer_named(p, "reshape")->t_total == 0);
    nnperf_prediction_free(p);
    /* compute.bias_kernel_bandwidth: the pass reads and writes the whole output at that rate, also where the
     * output stays on chip (a 1 MB SRAM keeps it there: no stored bytes) */
    static const char gpu_sram_yaml[] = "format: 1\nname: test-gpu-sram\nmemory:\n  ddr_bandwidth: 1e10\n"
                                        "  sram_bytes: 1e6\n  overlap: true\noverhead:\n  per_layer_s: 1e-6\n"
                                        "compute:\n  peak_ops: {fp16: 1e12}\n  default_dtype: fp16\n"
                                        "  efficiency: {default: 1}\n  bias_kernel: true\n";
    p = a ? predict_text(a, gpu_sram_yaml, NULL, NULL) : NULL;
    L = p ? layer_named(p, "conv") : NULL;
    CHECK(L && L->store_bytes == 0 && NEAR(L->t_overhead, 2e-6));
    nnperf_prediction_free(p);
    p = a ? predict_text(a, gpu_sram_yaml, "  bias_kernel_bandwidth: 1e9\n", NULL) : NULL;
    L = p ? layer_named(p, "conv") : NULL;
    CHECK(L && L->store_bytes == 0 && NEAR(L->t_overhead, 2e-6 + 2 * 8 * 4 * 4 * 2 / 1e9));
    nnperf_prediction_free(p);
    /* a name the key does not know is refused */
    p = a ? predict_gpu(a, "  composite_kernels: [Softmax]\n", 0, NULL) : NULL;
    CHECK(p == NULL);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.lut_chains on an array platform (vector unit 1e9 elements/s, no alignment): eager_block's GELU, grouped
 * into one layer by composite_kernels, over h [1, 16, 64]: every node a pass of its own (Div, Erf, Add, Mul, Mul:
 * 5 x 1024 elements) without the key; with it every node is a function of h and the five are one table (1 x 1024);
 * the SiLU over the conv's output c [1, 8, 4, 4] likewise one pass (128) where it was two; in the LayerNorm only the
 * Sqrt of (variance + eps) folds (one [1, 16, 1] pass less): its Sub, Div and its scale and bias (vectors, not one
 * function per element) stay passes of their own */
static void test_lut_chains(void)
{
    static const char lut_yaml[] =
        "format: 1\nname: test-npu\nmemory:\n  ddr_bandwidth: 1e10\n  overlap: true\n"
        "compute:\n  peak_ops: {int8: 1e12}\n  default_dtype: int8\n"
        "  efficiency: {default: 1}\n  vector_ops: 1e9\n"
        "  array: {reduce: {int8: 1}, channels: {int8: 1}}\n"
        "  composite_kernels: [Gelu, LayerNormalization, SiLU]\n";
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("eager_block", &m);
    struct nnperf_prediction *p = a ? predict_text(a, lut_yaml, NULL, NULL) : NULL;
    const struct pr_layer *G = layer_named(p, "gelu_div"), *N = layer_named(p, "ln_mean");
    const struct pr_layer *S = layer_named(p, "silu_sig");
    CHECK(G && G->n_nodes == 5 && NEAR(G->t_compute, 5 * 1024 / 1e9));
    CHECK(S && S->n_nodes == 2 && NEAR(S->t_compute, 2 * 128 / 1e9));
    double ln = N ? N->t_compute : 0;
    nnperf_prediction_free(p);
    p = a ? predict_text(a, lut_yaml, "  lut_chains: true\n", NULL) : NULL;
    G = layer_named(p, "gelu_div"), N = layer_named(p, "ln_mean"), S = layer_named(p, "silu_sig");
    CHECK(G && NEAR(G->t_compute, 1024 / 1e9));
    CHECK(S && NEAR(S->t_compute, 128 / 1e9));
    /* the LayerNorm: only its Sqrt reads a one-function node (Add of eps) of its layer: one [1, 16, 1] pass less */
    CHECK(N && ln > 0 && NEAR(N->t_compute, ln - 16 / 1e9));
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* overhead.per_layer_class_s: a layer pays its class's per-kernel cost where the map lists it, per_layer_s (1 us)
 * otherwise; compute.bias_kernel_s: the conv's bias kernel pays its own (eager_block's conv: 8 x 4 x 4 fp16 output
 * stored to DDR, 2 x 256 bytes at 1e10 B/s for the bias pass); the copy of a permuted view pays the data class's
 * (permute_copy: 2 x 384 bytes at 1e9 B/s); a depthwise conv pays conv_grouped's, then conv's */
static void test_layer_class_cost(void)
{
    static const char yaml[] =
        "format: 1\nname: test-gpu-class\nmemory:\n  ddr_bandwidth: 1e10\n  overlap: true\n"
        "overhead:\n  per_layer_s: 1e-6\n  per_layer_class_s: {%s}\ncompute:\n"
        "  peak_ops: {fp16: 1e12}\n  default_dtype: fp16\n  efficiency: {default: 1}\n"
        "  view_ops: [Transpose, Reshape]\n  bias_kernel: true\n";
    char text[1024];
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("eager_block", &m);
    snprintf(text, sizeof text, yaml, "conv: 3e-6, activation: 5e-7, eltwise: 2e-7");
    struct nnperf_prediction *p = a ? predict_text(a, text, eager_keys, NULL) : NULL;
    const struct pr_layer *C = layer_named(p, "conv"), *S = layer_named(p, "silu_sig"),
                          *H = layer_named(p, "hswish_sig"), *G = layer_named(p, "gelu_div"),
                          *F = layer_named(p, "fc"), *N = layer_named(p, "ln_mean");
    CHECK(C && NEAR(C->t_overhead, 3e-6 + 3e-6 + 2 * 256 / 1e10));
    CHECK(S && NEAR(S->t_overhead, 5e-7) && H && NEAR(H->t_overhead, 5e-7) && G && NEAR(G->t_overhead, 2e-7));
    CHECK(F && NEAR(F->t_overhead, 1e-6) && N && NEAR(N->t_overhead, 1e-6));
    nnperf_prediction_free(p);
    p = a ? predict_text(a, text, "  bias_kernel_s: 4e-6\n", NULL) : NULL;
    C = layer_named(p, "conv");
    CHECK(C && NEAR(C->t_overhead, 3e-6 + 4e-6 + 2 * 256 / 1e10));
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
    a = analyze("permute_copy", &m);
    snprintf(text, sizeof text, yaml, "data: 3e-6, reduce: 2e-6");
    p = a ? predict_text(a, text, "  copy_bandwidth: 1e9\n", NULL) : NULL;
    const struct pr_layer *M = layer_named(p, "merge"), *R = layer_named(p, "mean3");
    CHECK(M && NEAR(M->t_overhead, 3e-6 + 768 / 1e9) && R && NEAR(R->t_overhead, 2e-6 + 3e-6 + 768 / 1e9));
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
    a = analyze("strided_dw", &m);
    static const char *const maps[] = {"conv: 3e-6", "conv: 3e-6, conv_grouped: 4e-6",
                                       "conv: 3e-6, conv_grouped: 4e-6, conv_depthwise: 5e-6"};
    for (int i = 0; i < 3; i++) {
        snprintf(text, sizeof text, yaml, maps[i]);
        p = a ? predict_text(a, text, NULL, NULL) : NULL;
        const struct pr_layer *D = layer_named(p, "dw");
        CHECK(D && D->klass == OC_CONV_DEPTHWISE && NEAR(D->t_overhead, 3e-6 + 1e-6 * i));
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.copy_bandwidth and compute.norm_bandwidth (PyTorch's copies of permuted views and its LayerNorm/ReduceMean
 * kernels' rate): permute_copy's x [1, 4, 6, 8] fp16 is 192 elements, 384 bytes */
static void test_permute_copy(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("permute_copy", &m);
    static const char yaml[] = "format: 1\nname: test-gpu-views\nmemory:\n  ddr_bandwidth: 1e10\n"
                               "  sram_bytes: 1e6\n  overlap: true\noverhead:\n  per_layer_s: 1e-6\n"
                               "compute:\n  peak_ops: {fp16: 1e12}\n  default_dtype: fp16\n"
                               "  efficiency: {default: 1}\n  view_ops: [Transpose, Reshape]\n";
    /* without the keys: views are free, each ReduceMean one launch and its on-chip bytes (no time) */
    struct nnperf_prediction *p = a ? predict_text(a, yaml, NULL, NULL) : NULL;
    const struct pr_layer *M = layer_named(p, "merge"), *S = layer_named(p, "split"),
                          *R3 = layer_named(p, "mean3");
    const struct pr_layer *R1 = layer_named(p, "mean1");
    CHECK(M && M->t_total == 0 && S && S->t_total == 0 && R3 && NEAR(R3->t_overhead, 1e-6) && R1 &&
          R1->t_memory < 2e-9);
    nnperf_prediction_free(p);
    /* the copies: the Reshape that merges x's axes 2 and 1, 3 (not next to each other once permuted) copies the
     * view, 2 x 384 bytes at 1e9 B/s plus a launch; the one that only splits an axis stays a view; the ReduceMean
     * of the second view copies it first */
    p = a ? predict_text(a, yaml, "  copy_bandwidth: 1e9\n", NULL) : NULL;
    M = layer_named(p, "merge"), S = layer_named(p, "split"), R3 = layer_named(p, "mean3");
    R1 = layer_named(p, "mean1");
    CHECK(M && NEAR(M->t_overhead, 1e-6 + 768 / 1e9) && NEAR(M->t_total, 1e-6 + 768 / 1e9));
    CHECK(S && S->t_total == 0 && R1 && NEAR(R1->t_overhead, 1e-6));
    CHECK(R3 && NEAR(R3->t_overhead, 2e-6 + 768 / 1e9));
    nnperf_prediction_free(p);
    /* norm_bandwidth: each ReduceMean reads its 384 bytes and writes its output (mean1 6 elements, mean3 6 x 8) at
     * no more than 1e8 B/s, though the plan keeps them on chip */
    p = a ? predict_text(a, yaml, "  norm_bandwidth: 1e8\n", NULL) : NULL;
    R1 = layer_named(p, "mean1"), R3 = layer_named(p, "mean3");
    CHECK(R1 && NEAR(R1->t_memory, 396 / 1e8) && NEAR(R1->t_total, 396 / 1e8 + 1e-6));
    CHECK(R3 && NEAR(R3->t_memory, 480 / 1e8) && NEAR(R3->t_overhead, 1e-6));
    nnperf_prediction_free(p);
    /* norm_row_s: a lone ReduceMean is not a LayerNorm (no per-row time) */
    p = a ? predict_text(a, yaml, "  norm_row_s: 1e-6\n", NULL) : NULL;
    R1 = layer_named(p, "mean1");
    CHECK(R1 && R1->t_memory < 2e-9);
    nnperf_prediction_free(p);
    /* a copy rate with Transpose not a view: the Transpose is a kernel of its own, nothing more is charged */
    static const char no_view[] = "format: 1\nname: test-gpu\nmemory:\n  ddr_bandwidth: 1e10\n"
                                  "overhead:\n  per_layer_s: 1e-6\ncompute:\n  peak_ops: {fp16: 1e12}\n"
                                  "  default_dtype: fp16\n  copy_bandwidth: 1e9\n";
    p = a ? predict_text(a, no_view, NULL, NULL) : NULL;
    R3 = layer_named(p, "mean3");
    CHECK(R3 && NEAR(R3->t_overhead, 1e-6));
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
    /* compute.norm_row_s: eager_block's LayerNorm (the composite layer, x [1, 16, 32] over its last axis) takes at
     * least 16 rows x 1e-6 s, far above its 2 x 1024 bytes' time */
    a = analyze("eager_block", &m);
    p = a ? predict_gpu(a,
                        "  fusion: [[MatMul, Add]]\n  composite_kernels: [LayerNormalization, Gelu, "
                        "HardSwish, SiLU]\n"
                        "  norm_row_s: 1e-6\n",
                        0, NULL)
          : NULL;
    const struct pr_layer *L = layer_named(p, "ln_mean");
    CHECK(L && L->n_nodes == 9 && NEAR(L->t_memory, 16e-6));
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.concat_bandwidth (PyTorch's torch.cat as one kernel): concat's y [1, 16, 4, 4] fp16 is 256 elements, 512
 * bytes, made of two Relu outputs of 256 bytes each */
static void test_concat_kernel(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("concat", &m);
    static const char yaml[] = "format: 1\nname: test-gpu-cat\nmemory:\n  ddr_bandwidth: 1e7\n"
                               "  sram_bytes: %s\n  overlap: true\noverhead:\n  per_layer_s: 1e-6\n"
                               "compute:\n  peak_ops: {fp16: 1e12}\n  default_dtype: fp16\n";
    char text[512];
    /* on chip (1e6 bytes of SRAM): without the key the Concat moves no DDR bytes and launches nothing */
    snprintf(text, sizeof text, yaml, "1e6");
    struct nnperf_prediction *p = a ? predict_text(a, text, NULL, NULL) : NULL;
    const struct pr_layer *C = layer_named(p, "cat"), *R = layer_named(p, "relu_y");
    CHECK(C && C->t_total == 0 && R);
    double relu = R ? R->t_total : 0;
    nnperf_prediction_free(p);
    /* with the key: one kernel, 2 x 512 bytes at 1e9 B/s plus a launch; the other layers unchanged */
    p = a ? predict_text(a, text, "  concat_bandwidth: 1e9\n", NULL) : NULL;
    C = layer_named(p, "cat"), R = layer_named(p, "relu_y");
    CHECK(C && NEAR(C->t_memory, 1024 / 1e9) && NEAR(C->t_overhead, 1e-6) &&
          NEAR(C->t_total, 1e-6 + 1024 / 1e9));
    CHECK(R && NEAR(R->t_total, relu));
    nnperf_prediction_free(p);
    /* no SRAM (1 byte): the plan reads 512 and writes 512 bytes at 1e7 B/s, longer than the kernel's rate: stays */
    snprintf(text, sizeof text, yaml, "1");
    p = a ? predict_text(a, text, "  concat_bandwidth: 1e9\n", NULL) : NULL;
    C = layer_named(p, "cat");
    CHECK(C && NEAR(C->t_memory, 1024 / 1e7) && NEAR(C->t_total, 1e-6 + 1024 / 1e7));
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.pool_element_s and compute.grouped_transform_bandwidth (PyTorch's channels-last pooling kernels and
 * cuDNN's grouped convolutions): pool_group's x [1, 8, 6, 6] fp16 -> 3x3 MaxPool (288 output elements, 2592 window
 * elements) -> a 3x3 conv of 2 groups of 4 channels (input and output 288 elements each) -> a 1x1 AveragePool (one
 * element a window) */
static void test_pool_group_kernels(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("pool_group", &m);
    static const char yaml[] =
        "format: 1\nname: test-gpu-pool\nmemory:\n  ddr_bandwidth: 1e7\n  sram_bytes: 1e6\n"
        "  overlap: true\noverhead:\n  per_layer_s: 1e-6\n"
        "compute:\n  peak_ops: {fp16: 1e12}\n  default_dtype: fp16\n";
    struct nnperf_prediction *p = a ? predict_text(a, yaml, NULL, NULL) : NULL;
    const struct pr_layer *P = layer_named(p, "maxpool"), *G = layer_named(p, "gconv"),
                          *A = layer_named(p, "avgpool1");
    CHECK(P && G && A);
    double pool = P ? P->t_memory : 0, conv = G ? G->t_overhead : 0, avg = A ? A->t_total : 0;
    CHECK(NEAR(conv, 1e-6));
    nnperf_prediction_free(p);
    p = a ? predict_text(a, yaml, "  pool_element_s: 1e-6\n  grouped_transform_bandwidth: 1e9\n", NULL)
          : NULL;
    P = layer_named(p, "maxpool"), G = layer_named(p, "gconv"), A = layer_named(p, "avgpool1");
    /* the MaxPool: 288 output elements x 1e-6 s, longer than its memory time */
    CHECK(P && pool < 288e-6 && NEAR(P->t_memory, 288e-6));
    /* the grouped conv: two more kernels and 2 x (288 + 288) elements x 2 bytes at 1e9 B/s */
    CHECK(G && NEAR(G->t_overhead, 3e-6 + 2304 / 1e9));
    /* a window of one element is not a window kernel: unchanged */
    CHECK(A && NEAR(A->t_total, avg));
    nnperf_prediction_free(p);
    /* compute.grouped_transform_skip_pow2: the conv's groups hold 4 input channels each, a power of two: no such
     * kernels */
    p = a ? predict_text(a, yaml, "  grouped_transform_bandwidth: 1e9\n  grouped_transform_skip_pow2: true\n",
                         NULL)
          : NULL;
    G = layer_named(p, "gconv");
    CHECK(G && NEAR(G->t_overhead, 1e-6));
    double kernels = p ? pr_kernel_count(p) : 0;
    nnperf_prediction_free(p);
    /* compute.op_kernels with overhead.small_kernel_s: a MaxPool run as 3 kernels pays 2 more; the prediction
     * launches 2 more kernels */
    static const char yaml_small[] =
        "format: 1\nname: test-gpu-pool\nmemory:\n  ddr_bandwidth: 1e7\n  sram_bytes: 1e6\n"
        "  overlap: true\noverhead:\n  per_layer_s: 1e-6\n  small_kernel_s: 1e-5\n"
        "compute:\n  peak_ops: {fp16: 1e12}\n  default_dtype: fp16\n";
    p = a ? predict_text(a, yaml_small,
                         "  op_kernels: [{op: MaxPool, kernels: 3}]\n  grouped_transform_bandwidth: 1e9\n"
                         "  grouped_transform_skip_pow2: true\n",
                         NULL)
          : NULL;
    P = layer_named(p, "maxpool"), G = layer_named(p, "gconv");
    CHECK(P && NEAR(P->t_overhead, 1e-6 + 2e-5) && G && NEAR(G->t_overhead, 1e-6));
    CHECK(p && kernels >= 3 && pr_kernel_count(p) == kernels + 2);
    nnperf_prediction_free(p);
    /* a batch of 4 frames: the MaxPool's floor per frame, the one-element window still unchanged */
    struct nnperf_predict_options o = {.batch = 4};
    p = a ? predict_text(a, yaml, NULL, &o) : NULL;
    A = layer_named(p, "avgpool1");
    avg = A ? A->t_total : 0;
    nnperf_prediction_free(p);
    p = a ? predict_text(a, yaml, "  pool_element_s: 1e-6\n", &o) : NULL;
    P = layer_named(p, "maxpool"), A = layer_named(p, "avgpool1");
    CHECK(P && NEAR(P->t_memory, 4 * 288e-6));
    CHECK(A && avg > 0 && NEAR(A->t_total, avg));
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void test_power(void)
{
    struct nnperf_model *m;
    struct nnperf_analysis *a = analyze("fuse_block", &m);
    struct nnperf_prediction *p = a ? predict_gpu(a, NULL, 0, NULL) : NULL;
    CHECK(p != NULL);
    struct nnperf_prediction_summary s;
    if (p) { /* no power keys: no numbers */
        nnperf_prediction_summary(p, &s);
        CHECK(isnan(s.energy_j_per_frame) && isnan(s.power_w) && isnan(s.fps_per_w));
    }
    nnperf_prediction_free(p);
    p = a ? predict_gpu(a, "power: {static_w: 2, op_j: {fp16: 1e-12}, ddr_j_per_byte: 1e-10}\n", 0, NULL)
          : NULL;
    CHECK(p != NULL);
    if (p) {
        /* 2 W over the run, 1 pJ per aligned op, 0.1 nJ per DDR byte */
        double ops = 0, bytes = 0;
        for (int l = 0; l < p->n_layers; l++) {
            const struct pr_layer *L = &p->layers[l];
            ops += pr_mac_aligned(L) + pr_vec_aligned(L);
            bytes += L->w_bytes + L->load_bytes + L->store_bytes + pr_lx(L)->spill_load_bytes +
                     pr_lx(L)->spill_store_bytes;
        }
        double e = 2 * p->latency + ops * 1e-12 + bytes * 1e-10;
        nnperf_prediction_summary(p, &s);
        CHECK(ops > 0 && bytes > 0);
        CHECK(NEAR(s.energy_j_per_frame, e) && NEAR(s.power_w, e / p->latency));
        CHECK(NEAR(s.fps_per_w, s.fps / s.power_w));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* compute.tf32_ops: an FP32 layer of a class in compute.tf32_classes (absent: every class) takes its MACs at the
 * TF32 rate, its element-wise work stays on vector_ops; the run's peak is the TF32 rate; a TF32 MAC's energy is
 * op_j.fp32 x peak_ops.fp32 / tf32_ops. fuse_block: one Conv (with BN, Add and Relu fused); fc_pad: two MatMuls. */
static void test_tf32(void)
{
    static const char *yaml = "format: 1\n"
                              "name: test-tf32\n"
                              "memory:\n"
                              "  ddr_bandwidth: 1e15\n"
                              "  overlap: true\n"
                              "overhead:\n"
                              "  per_layer_s: 0\n"
                              "power: {op_j: {fp32: 8e-12}}\n"
                              "compute:\n"
                              "  peak_ops: {fp32: 1e11, fp16: 1.6e12}\n"
                              "  default_dtype: fp32\n"
                              "  vector_ops: 5e10\n"
                              "  fuse_pointwise: true\n"
                              "  efficiency: {default: 0.5}\n";
    static const char *const models[] = {"fuse_block", "fc_pad"};
    static const char *const extras[] = {NULL, "  tf32_ops: 8e11\n",
                                         "  tf32_ops: 8e11\n  tf32_classes: [conv]\n"};
    struct nnperf_predict_options o = {0};
    for (int mi = 0; mi < 2; mi++) {
        struct nnperf_model *m;
        struct nnperf_analysis *a = analyze(models[mi], &m);
        CHECK(a != NULL);
        for (int e = 0; a && e < 3; e++) {
            struct nnperf_prediction *p = predict_text(a, yaml, extras[e], &o);
            CHECK(p != NULL);
            if (!p) continue;
            int macs = 0;
            for (int l = 0; l < p->n_layers; l++) {
                const struct pr_layer *L = &p->layers[l];
                int tf32 = e == 1 || (e == 2 && L->klass == OC_CONV);
                double rate = (tf32 ? 8e11 : 1e11) * 0.5;
                double mac = pr_mac_aligned(L), vec = pr_vec_aligned(L);
                macs += mac > 0;
                CHECK(L->dtype == HW_FP32);
                CHECK(NEAR(L->t_compute, mac / rate + vec / 5e10));
                CHECK(NEAR(pr_layer_energy(p, L), mac * (tf32 ? 1e-12 : 8e-12) + vec * 8e-12));
            }
            CHECK(macs == (mi ? 2 : 1));
            CHECK(NEAR(pr_peak(p), e ? 8e11 : 1e11));
            nnperf_prediction_free(p);
        }
        nnperf_analysis_free(a);
        nnperf_model_free(m);
    }
}

/* The model's family (docs/prediction.md, "Expected error") and the band of the platform's test rows of it: attention
 * (two activations multiplied), LayerNorm (the operator or torch.onnx's decomposition) and GELU through Erf make a
 * model transformer-style; a conv, or a Linear whose weight the graph transposes (a value computed from a weight
 * only), is a cnn. Validation keys: 10 test rows, 4 transformer-style (30% / 60%), 6 cnn (10% / 40%). */
static void test_family(void)
{
    static const char *const tf[] = {"attention", "family_ln", "family_lnop", "family_gelu", "eager_block"};
    static const char *const cnn[] = {"stem", "family_linear", "fuse_block"};
    const char *val =
        "validation:\n  test_rows: 10\n  median_error: 0.2\n  p90_error: 0.5\n"
        "  transformer_test_rows: 4\n  transformer_median_error: 0.3\n  transformer_p90_error: 0.6\n"
        "  cnn_test_rows: 6\n  cnn_median_error: 0.1\n  cnn_p90_error: 0.4\n";
    struct nnperf_predict_options o = {.batch = 1};
    for (int i = 0; i < 8; i++) {
        int is_tf = i < 5;
        const char *name = is_tf ? tf[i] : cnn[i - 5];
        struct nnperf_model *m;
        struct nnperf_analysis *a = analyze(name, &m);
        struct nnperf_prediction *p = a ? predict_text(a, npu_yaml, val, &o) : NULL;
        struct nnperf_prediction_summary s;
        CHECK(p != NULL);
        if (p) {
            nnperf_prediction_summary(p, &s);
            if (!s.family || strcmp(s.family, is_tf ? NNPERF_FAMILY_TRANSFORMER : NNPERF_FAMILY_CNN))
                fprintf(stderr, "%s: family %s\n", name, s.family ? s.family : "(null)");
            CHECK(s.family && !strcmp(s.family, is_tf ? NNPERF_FAMILY_TRANSFORMER : NNPERF_FAMILY_CNN));
            CHECK(s.expected_error_rows == 10 && NEAR(s.expected_error_median, 0.2));
            CHECK(s.family_test_rows == (is_tf ? 4 : 6));
            CHECK(NEAR(s.family_median, is_tf ? 0.3 : 0.1) && NEAR(s.family_p90, is_tf ? 0.6 : 0.4));
            /* another batch of the same prediction (nnperf_predict_batch: no fusion stage) keeps the family */
            struct nnperf_prediction *b = NULL;
            char err[256];
            CHECK(nnperf_predict_batch(p, 2, &b, err, sizeof err) == NNPERF_OK && b);
            if (b) nnperf_prediction_summary(b, &s);
            CHECK(b && s.family && !strcmp(s.family, is_tf ? NNPERF_FAMILY_TRANSFORMER : NNPERF_FAMILY_CNN));
            nnperf_prediction_free(b);
            nnperf_prediction_free(p);
        }
        /* no rows by family (absent, or not adding up to test_rows): -1; none of the family's: 0 rows, no band */
        const char *extra[] = {"validation:\n  test_rows: 10\n  median_error: 0.2\n  p90_error: 0.5\n",
                               "validation:\n  test_rows: 11\n  median_error: 0.2\n  p90_error: 0.5\n"
                               "  transformer_test_rows: 4\n  cnn_test_rows: 6\n",
                               "validation:\n  test_rows: 10\n  median_error: 0.2\n  p90_error: 0.5\n"
                               "  transformer_test_rows: 0\n  cnn_test_rows: 10\n  cnn_median_error: 0.2\n"
                               "  cnn_p90_error: 0.5\n"};
        for (int e = 0; a && e < 3; e++) {
            p = predict_text(a, npu_yaml, extra[e], &o);
            CHECK(p != NULL);
            if (!p) continue;
            nnperf_prediction_summary(p, &s);
            CHECK(s.family_test_rows == (e < 2 ? -1 : is_tf ? 0 : 10));
            CHECK(e == 2 && !is_tf ? NEAR(s.family_median, 0.2) : isnan(s.family_median));
            nnperf_prediction_free(p);
        }
        nnperf_analysis_free(a);
        nnperf_model_free(m);
    }
}

/* No-work layers are views (lowering rule no_op): swin_t's 24 Dropouts (ratio 0, training_mode true as exported)
 * form no layer on rdk-s100, and the float graph keeps the platform's int8 (no layer on the fallback unit: a
 * lowering rule that sets no type must not send the graph down the float path). Those rules only mark nodes, so
 * the lowered graph shares the analysis's records but for the ones the rewiring writes (lower.c, lower_shared):
 * the analysis keeps its own (a Dropout's reader still reads the Dropout, its Constant inputs keep their reader),
 * while in the lowered graph the reader reads the Dropout's input, the Dropout reads nothing, the Constants'
 * outputs have no reader, and the nodes nothing rewired are the analysis's own records. */
static void test_no_op_views(void)
{
    struct nnperf_model *m = NULL;
    struct nnperf_analysis *a = NULL;
    struct nnperf_platform *pl = NULL;
    struct nnperf_prediction *p = NULL;
    char err[512];
    CHECK(nnperf_model_load("models/swin_t.onnx", NULL, &m, err, sizeof err) == NNPERF_OK);
    CHECK(m && nnperf_analyze(m, NULL, &a, err, sizeof err) == NNPERF_OK);
    CHECK(nnperf_platform_load("rdk-s100", &pl, err, sizeof err) == NNPERF_OK);
    CHECK(a && pl && nnperf_predict(a, pl, NULL, &p, err, sizeof err) == NNPERF_OK);
    if (p) {
        int dropout_nodes = 0, readers = 0, shared = 0;
        const struct ir_graph *g = an_graph(&a->st);
        CHECK(p->g != g && p->g->n_nodes == g->n_nodes);
        for (int k = 0; k < g->n_nodes; k++) {
            const struct ir_node *nd = g->nodes[k], *low = p->g->nodes[k];
            shared += low == nd;
            if (nd->op != OPID_DROPOUT) continue;
            dropout_nodes++;
            CHECK(nd->n_in == 3 && nd->n_out >= 1 && low != nd && low->n_in == 0 && low->n_out == 0);
            for (int i = 1; i < nd->n_in; i++) {
                const struct ir_node *c = nd->in[i]->producer;
                CHECK(c && nd->in[i]->n_consumers == 1);
                if (c) CHECK(p->g->nodes[c->index]->out[0]->n_consumers == 0 && p->g->nodes[c->index] != c);
            }
            const struct ir_value *y = nd->out[0];
            for (int r = k + 1; r < g->n_nodes; r++)
                for (int i = 0; i < g->nodes[r]->n_in; i++) {
                    if (g->nodes[r]->in[i] != y) continue;
                    readers++;
                    CHECK(p->g->nodes[r] != g->nodes[r] && p->g->nodes[r]->in[i] == nd->in[0]);
                    CHECK(pr_producer(p, g->nodes[r]->out[0]) == p->g->nodes[r]);
                }
        }
        CHECK(dropout_nodes == 24 && readers >= 24);
        CHECK(shared == g->n_nodes - 24 * 3 - readers); /* the Dropouts, their Constants and their readers */
        for (int i = 0; i < p->n_layers; i++) {
            for (int k = 0; k < p->layers[i].n_nodes; k++) CHECK(p->layers[i].nodes[k]->op != OPID_DROPOUT);
            CHECK(!p->layers[i].fallback);
        }
        CHECK(p->dtype == HW_INT8 && p->fallback_layers == 0);
        CHECK(!p->cons.c); /* the lowering's consumer index, taken and freed by fusion */
        /* that index (pr_cons_build_from, from the positions the rewiring found) is the one fusion would build */
        struct pr_cons_ix built = {0}, from = {0};
        int n = 0, *num = malloc(sizeof *num * (size_t)(4 * p->g->n_nodes + 1));
        for (int k = 0; num && k < p->g->n_nodes; k++)
            for (int i = 0; i < p->g->nodes[k]->n_in; i++)
                if (p->g->nodes[k]->in[i]) num[n++] = ir_value_pos(p->g, p->g->nodes[k]->in[i]);
        CHECK(num && pr_cons_build(p->g, &built) && pr_cons_build_from(p->g, &from, num, n));
        CHECK(built.n == n && from.n == n && n > 7000);
        for (int i = 0; i < n && built.c && from.c; i++)
            if (built.c[i].v != from.c[i].v || built.c[i].node != from.c[i].node) {
                CHECK(0);
                break;
            }
        for (int i = 0; i < p->g->n_values && built.first && from.first; i++)
            CHECK(pr_cons_find(&built, p->g->values[i]) == pr_cons_find(&from, p->g->values[i]));
        pr_cons_free(&built), pr_cons_free(&from), free(num);
    }
    nnperf_prediction_free(p);
    nnperf_platform_free(pl);
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
    test_frame_serial();
    test_layer_overlap();
    test_fc_tile();
    test_dataflow();
    test_dataflow_fabric();
    test_winograd_speedup_modes();
    test_threads();
    test_fallback();
    test_timeline();
    test_array_silu();
    test_array_batch_rows();
    test_array_matmul_rows();
    test_dtype_efficiency();
    test_array_tiles();
    test_runtime_stages();
    test_streams();
    test_core_ports();
    test_weight_prep();
    test_array_waves();
    test_array_strided_dw();
    test_tiled();
    test_weight_residency();
    test_kernels_model();
    test_kernels_calibrate();
    test_pointwise_fusion();
    test_weight_only();
    test_fused_attention();
    test_sibling_products();
    test_align_products();
    test_overlap_exponent();
    test_runtime_kernels();
    test_lut_chains();
    test_permute_copy();
    test_concat_kernel();
    test_pool_group_kernels();
    test_layer_class_cost();
    test_power();
    test_tf32();
    test_no_op_views();
    test_family();
    return tt_done();
}
