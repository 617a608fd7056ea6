/* test_wide_node.c - a node with very many inputs (a Sum of N Relu outputs) is predicted in linear time: the
 * layer's reads are deduplicated with a per-tensor mark, not a scan of the list so far (issue 19: 100k inputs took
 * 16 s with --hw). ctest runs this under a timeout (tests/CMakeLists.txt); the timing itself is in bench/wide_node.sh. */
#include <stdio.h>
#include <stdlib.h>

#include "common/onnx_build.h"
#include "nnperf.h"
#include "tinytest.h"

struct wide {
    struct pbw w;
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    struct nnperf_platform *pl;
    struct nnperf_prediction *p;
    int layers;
};

/* Sum over the Relu outputs r<order[0]>, r<order[1]>, ... of n_relu Relu nodes on one 1x8 input */
static struct nnperf_prediction *predict_sum(struct wide *wd, int n_relu, const int *order, int n_sum)
{
    struct pbw w;
    pbw_init(&w, (size_t)1 << 30);
    size_t g = ob_begin(&w);
    int64_t dims[2] = {1, 8};
    ob_value(&w, 0, "x", dims, 2);
    char name[32], out[32];
    const char *x = "x";
    for (int i = 0; i < n_relu; i++) {
        snprintf(name, sizeof name, "relu%d", i);
        snprintf(out, sizeof out, "r%d", i);
        const char *o = out;
        ob_node(&w, "Relu", name, &x, 1, &o, 1);
    }
    char(*in)[16] = malloc((size_t)n_sum * sizeof *in);
    const char **inp = malloc((size_t)n_sum * sizeof *inp);
    for (int i = 0; i < n_sum; i++) {
        snprintf(in[i], sizeof in[i], "r%d", order ? order[i] : i);
        inp[i] = in[i];
    }
    const char *y = "y";
    ob_node(&w, "Sum", "sum", inp, n_sum, &y, 1);
    ob_value(&w, 1, "y", dims, 2);
    ob_end(&w, g);
    free(in);
    free(inp);
    char err[512];
    struct nnperf_model *m = NULL;
    struct nnperf_analysis *a = NULL;
    struct nnperf_platform *pl = NULL;
    struct nnperf_prediction *p = NULL;
    if (w.err || nnperf_model_load_buffer(w.p, w.len, "wide.onnx", NULL, NULL, &m, err, sizeof err) ||
        nnperf_analyze(m, NULL, &a, err, sizeof err) ||
        nnperf_platform_load("zcu102-dpu", &pl, err, sizeof err) ||
        nnperf_platform_set(pl, "memory.sram_bytes", "0", err, sizeof err) ||
        nnperf_predict(a, pl, NULL, &p, err, sizeof err))
        fprintf(stderr, "wide model: %s\n", err);
    *wd = (struct wide){w, m, a, pl, p, p ? nnperf_prediction_layer_count(p) : -1};
    return p;
}

static void wide_free(struct wide *wd)
{
    nnperf_prediction_free(wd->p);
    nnperf_platform_free(wd->pl);
    nnperf_analysis_free(wd->a);
    nnperf_model_free(wd->m);
    pbw_free(&wd->w);
}

static double sum_reads(const struct nnperf_prediction *p, int layers)
{
    struct nnperf_layer_info li;
    nnperf_prediction_layer(p, layers - 1, &li);
    return li.ddr_bytes + li.load_bytes;
}

int main(void)
{
    /* an input listed several times is read once: Sum(r0, r0, r1, r0) reads what Sum(r0, r1) reads */
    int dup[] = {0, 0, 1, 0}, two[] = {0, 1};
    struct wide wa, wb;
    struct nnperf_prediction *a = predict_sum(&wa, 2, dup, 4), *b = predict_sum(&wb, 2, two, 2);
    int la = wa.layers, lb = wb.layers;
    CHECK(a && b);
    if (a && b) {
        CHECK_EQ_U(la, lb);
        CHECK(sum_reads(a, la) > 0);
        CHECK(sum_reads(a, la) == sum_reads(b, lb));
    }
    wide_free(&wa);

    /* 300,000 distinct inputs: every Relu is a layer, the Sum reads each of their outputs once */
    int n = 300000;
    struct wide ww, w1;
    struct nnperf_prediction *wide = predict_sum(&ww, n, NULL, n), *one = predict_sum(&w1, 1, NULL, 1);
    int lw = ww.layers, l1 = w1.layers;
    CHECK(wide && one);
    if (wide && one) {
        CHECK_EQ_U(lw, n + 1);
        /* each input adds what the second input of Sum(r0, r1) adds */
        double each = sum_reads(b, lb) - sum_reads(one, l1);
        CHECK(each > 0);
        CHECK(sum_reads(wide, lw) == sum_reads(one, l1) + (n - 1) * each);
    }
    wide_free(&ww);
    wide_free(&w1);
    wide_free(&wb);
    return tt_done();
}
