/* test_quant.c - quantized graphs predicted as their compilers run them (src/predict/lower.c): the QDQ and the
 * QOperator forms of resnet18, mobilenet_v2, efficientnet_b0 and a transformer encoder (tests/data/quant/, made by
 * make_models.py there) against their float twins at the quantized dtype, on every preset with an int8 or fp16 peak
 * (GPUs, NPUs, DPUs, Edge TPUs, the VPU, the CPUs); a QDQ model with one Conv left float; and the encoder's
 * dynamic quantization (ONNX Runtime's quantize_dynamic) against its QDQ twin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnperf.h"
#include "tinytest.h"

#define DIR "tests/data/quant/"

/* the models, freed at the end (an analysis reads its model's names and dims) */
static struct nnperf_model *loaded[16];
static int n_loaded;

static struct nnperf_analysis *load(const char *path)
{
    char err[512];
    struct nnperf_model *m = NULL;
    struct nnperf_analysis *a = NULL;
    if (nnperf_model_load(path, NULL, &m, err, sizeof err) || nnperf_analyze(m, NULL, &a, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", path, err);
        a = NULL;
    }
    if (m && n_loaded < 16) loaded[n_loaded++] = m;
    return a;
}

static struct nnperf_prediction *predict(const struct nnperf_analysis *a, const struct nnperf_platform *hw,
                                         const char *dtype)
{
    char err[512];
    struct nnperf_predict_options o = {0};
    o.dtype = dtype;
    struct nnperf_prediction *p = NULL;
    if (nnperf_predict(a, hw, &o, &p, err, sizeof err)) {
        fprintf(stderr, "predict: %s\n", err);
        return NULL;
    }
    return p;
}

/* the presets with an int8 or fp16 peak: every GPU, NPU, DPU, Edge TPU, the VPU and the two CPUs (the FPGA overlays
 * of int4 only have no type the 8-bit graph could compute at) */
static int comparable(const struct nnperf_platform *hw)
{
    struct nnperf_platform_info in;
    nnperf_platform_info(hw, &in);
    return in.peak_int8 > 0 || in.peak_fp16 > 0;
}

/* the QDQ or QOperator form q of float model f on hw: same layers, latency within 3% (it is equal here), same weight
 * bytes as f at the dtype q computes at (int8 where the platform has it) */
static void compare(const char *name, const char *form, const struct nnperf_analysis *f,
                    const struct nnperf_analysis *q, const struct nnperf_platform *hw)
{
    struct nnperf_platform_info in;
    nnperf_platform_info(hw, &in);
    struct nnperf_prediction *pq = predict(q, hw, NULL);
    CHECK(pq != NULL);
    if (!pq) return;
    struct nnperf_prediction_summary sq, sf;
    nnperf_prediction_summary(pq, &sq);
    if (in.peak_int8 > 0) CHECK_STR(sq.dtype, "int8");
    struct nnperf_prediction *pf = predict(f, hw, sq.dtype);
    CHECK(pf != NULL);
    if (pf) {
        nnperf_prediction_summary(pf, &sf);
        double rel = sf.latency_s > 0 ? fabs(sq.latency_s / sf.latency_s - 1) : 1;
        if (rel > 0.03 || sq.layers != sf.layers || sq.weight_bytes_per_frame != sf.weight_bytes_per_frame)
            fprintf(stderr, "%s %s on %s: %.6f ms vs %.6f ms float at %s, %d vs %d layers, %.0f vs %.0f B\n",
                    name, form, in.name, sq.latency_s * 1e3, sf.latency_s * 1e3, sq.dtype, sq.layers,
                    sf.layers, sq.weight_bytes_per_frame, sf.weight_bytes_per_frame);
        CHECK(rel <= 0.03);
        CHECK_EQ_U(sq.layers, sf.layers);
        CHECK(sq.weight_bytes_per_frame == sf.weight_bytes_per_frame);
        /* every layer computes at the quantized type */
        int n = nnperf_prediction_layer_count(pq), other = 0;
        for (int i = 0; i < n; i++) {
            struct nnperf_layer_info li;
            nnperf_prediction_layer(pq, i, &li);
            other += strcmp(li.dtype, sq.dtype) != 0;
        }
        CHECK_EQ_U(other, 0);
    }
    nnperf_prediction_free(pf);
    nnperf_prediction_free(pq);
}

/* two quantized forms of one model on hw, each at its own types: same layers and weight bytes, latency within 3% */
static void compare_forms(const char *what, const struct nnperf_analysis *a, const struct nnperf_analysis *b,
                          const struct nnperf_platform *hw)
{
    struct nnperf_prediction *pa = predict(a, hw, NULL), *pb = predict(b, hw, NULL);
    CHECK(pa && pb);
    if (pa && pb) {
        struct nnperf_prediction_summary sa, sb;
        nnperf_prediction_summary(pa, &sa);
        nnperf_prediction_summary(pb, &sb);
        double rel = sb.latency_s > 0 ? fabs(sa.latency_s / sb.latency_s - 1) : 1;
        if (rel > 0.03 || sa.layers != sb.layers || sa.weight_bytes_per_frame != sb.weight_bytes_per_frame)
            fprintf(stderr, "%s on %s: %.6f vs %.6f ms, %d vs %d layers, %.0f vs %.0f B\n", what, sa.platform,
                    sa.latency_s * 1e3, sb.latency_s * 1e3, sa.layers, sb.layers, sa.weight_bytes_per_frame,
                    sb.weight_bytes_per_frame);
        CHECK(rel <= 0.03);
        CHECK_EQ_U(sa.layers, sb.layers);
        CHECK(sa.weight_bytes_per_frame == sb.weight_bytes_per_frame);
    }
    nnperf_prediction_free(pa);
    nnperf_prediction_free(pb);
}

static int has_node(const struct nnperf_prediction *p, int i, const char *name)
{
    const char *nd;
    for (int k = 0; (nd = nnperf_prediction_layer_node(p, i, k, NULL)) != NULL; k++)
        if (!strcmp(nd, name)) return 1;
    return 0;
}

/* resnet18 with layer2.1's first Conv left float (no Q/DQ around it): exactly the layer of that Conv (and of the
 * Relu after it, where the platform does not fuse them) computes float, on the fallback unit where the platform
 * has no float peak; the rest computes at int8 as in the QDQ model. */
static void float_layer(const struct nnperf_analysis *q, const struct nnperf_analysis *q1,
                        const struct nnperf_platform *hw)
{
    struct nnperf_platform_info in;
    nnperf_platform_info(hw, &in);
    if (in.peak_int8 <= 0) return;
    struct nnperf_prediction *p = predict(q1, hw, NULL), *p0 = predict(q, hw, NULL);
    CHECK(p && p0);
    if (!p || !p0) {
        nnperf_prediction_free(p);
        nnperf_prediction_free(p0);
        return;
    }
    int has_float = in.peak_fp16 > 0 || in.peak_fp32 > 0;
    int n = nnperf_prediction_layer_count(p), found = 0, wrong = 0;
    double ops1 = 0, ops0 = 0;
    CHECK_EQ_U(n, nnperf_prediction_layer_count(p0));
    for (int i = 0; i < n; i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, i, &li);
        int conv = has_node(p, i, "/layer2/layer2.1/conv1/Conv"),
            relu = has_node(p, i, "/layer2/layer2.1/relu/Relu");
        int is_float = strcmp(li.dtype, "int8") != 0;
        if (conv || relu) {
            struct nnperf_layer_info l0;
            nnperf_prediction_layer(p0, i, &l0);
            ops1 += li.ops;
            ops0 += l0.ops;
        }
        if (conv) {
            found = 1;
            CHECK(is_float);
            CHECK(li.fallback == !has_float);

        } else if (!relu && (is_float || li.fallback)) {
            fprintf(stderr, "%s: layer %s is %s%s\n", in.name, li.name, li.dtype,
                    li.fallback ? " (fallback)" : "");
            wrong++;
        }
    }
    CHECK(found);
    CHECK_EQ_U(wrong, 0);
    /* the QuantizeLinear after the float layers is a real conversion, done by the unit that runs them: more work
     * than the same layers of the all-int8 model */
    CHECK(ops1 > ops0);
    nnperf_prediction_free(p);
    nnperf_prediction_free(p0);
}

int main(void)
{
    static const char *const models[] = {"resnet18", "mobilenet_v2", "efficientnet_b0", "encoder"};
    struct nnperf_analysis *fl[4], *qdq[4], *qop[4];
    char path[256];
    for (int m = 0; m < 4; m++) {
        snprintf(path, sizeof path, m == 3 ? DIR "%s.onnx" : "models/%s.onnx", models[m]);
        fl[m] = load(path);
        snprintf(path, sizeof path, DIR "%s_qdq.onnx", models[m]);
        qdq[m] = load(path);
        snprintf(path, sizeof path, DIR "%s_qop.onnx", models[m]);
        qop[m] = load(path);
        CHECK(fl[m] && qdq[m] && qop[m]);
        if (!fl[m] || !qdq[m] || !qop[m]) return tt_done();
    }
    struct nnperf_analysis *float1 = load(DIR "resnet18_qdq_float1.onnx");
    /* ONNX Runtime's dynamic quantization (DynamicQuantizeLinear, MatMulInteger, Cast, Mul) and its QDQ twin */
    struct nnperf_analysis *dyn = load(DIR "encoder_dyn.onnx"), *dyn_qdq = load(DIR "encoder_qdq_w.onnx");
    CHECK(float1 && dyn && dyn_qdq);
    int n_hw = 0;
    for (int i = 0; i < nnperf_platform_preset_count(); i++) {
        char err[256];
        struct nnperf_platform *hw = NULL;
        if (nnperf_platform_load(nnperf_platform_preset_name(i), &hw, err, sizeof err)) {
            CHECK(0);
            continue;
        }
        if (comparable(hw)) {
            n_hw++;
            for (int m = 0; m < 4; m++) {
                compare(models[m], "QDQ", fl[m], qdq[m], hw);
                compare(models[m], "QOperator", fl[m], qop[m], hw);
            }
            if (float1) float_layer(qdq[0], float1, hw);
            if (dyn && dyn_qdq) compare_forms("encoder_dyn vs encoder_qdq_w", dyn, dyn_qdq, hw);
        }
        nnperf_platform_free(hw);
    }
    CHECK(n_hw >= 21); /* 23 presets but the two int4 overlays */
    /* --dtype sets only the layers the graph leaves float: the QDQ model's layers stay int8 */
    struct nnperf_platform *gpu = NULL;
    char err[256];
    CHECK(!nnperf_platform_load("jetson-orin-nano", &gpu, err, sizeof err));
    if (gpu) {
        struct nnperf_prediction *a = predict(qdq[0], gpu, NULL), *b = predict(qdq[0], gpu, "fp16");
        CHECK(a && b);
        if (a && b) {
            struct nnperf_prediction_summary sa, sb;
            nnperf_prediction_summary(a, &sa);
            nnperf_prediction_summary(b, &sb);
            CHECK(sa.latency_s == sb.latency_s);
            struct nnperf_layer_info li;
            nnperf_prediction_layer(b, 0, &li);
            CHECK_STR(li.dtype, "int8");
        }
        nnperf_prediction_free(a);
        nnperf_prediction_free(b);
        nnperf_platform_free(gpu);
    }
    for (int m = 0; m < 4; m++) {
        nnperf_analysis_free(fl[m]);
        nnperf_analysis_free(qdq[m]);
        nnperf_analysis_free(qop[m]);
    }
    nnperf_analysis_free(float1);
    nnperf_analysis_free(dyn);
    nnperf_analysis_free(dyn_qdq);
    for (int i = 0; i < n_loaded; i++) nnperf_model_free(loaded[i]);
    return tt_done();
}
