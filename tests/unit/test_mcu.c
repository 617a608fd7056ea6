/* test_mcu.c - the MAX7800x planner (`nnperf map`): the seed-004 ai85net5 processor masks validate; a wrong mask,
 * overlapping offsets and an exhausted processor are each rejected with the right message; every model in
 * models/mcu plans and its plan validates (or fails with messages naming layer, resource and remedy). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcu/mcu.h"
#include "tinytest.h"

struct loaded {
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    struct nnperf_mcu_plan *h;
};

static struct mcu_plan *plan(const char *name, const char *target, int bits, struct loaded *L)
{
    char path[256], err[512];
    memset(L, 0, sizeof *L);
    snprintf(path, sizeof path, "models/mcu/%s.onnx", name);
    if (nnperf_model_load(path, NULL, &L->m, err, sizeof err) != NNPERF_OK ||
        nnperf_analyze(L->m, NULL, &L->a, err, sizeof err) != NNPERF_OK ||
        nnperf_map(L->a, target, bits, &L->h, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s: %s\n", path, err);
        return NULL;
    }
    return mcu_plan_of(L->h);
}

static void done(struct loaded *L)
{
    nnperf_mcu_plan_free(L->h);
    nnperf_analysis_free(L->a);
    nnperf_model_free(L->m);
}

static int has_msg(const struct mcu_msgs *ms, int res, const char *needle)
{
    for (int i = 0; i < ms->n; i++)
        if ((res < 0 || ms->m[i].res == res) && strstr(ms->m[i].text, needle)) return 1;
    return 0;
}

static int any_problem(const struct mcu_plan *p, const char *needle)
{
    return has_msg(p->problems, -1, needle);
}

/* seed 004: ai85net5 on MNIST, masks and out_offsets from the ai8x-synthesis YAML */
static void seed_masks(struct mcu_plan *p)
{
    static const uint64_t masks[5] = {0x1ull, 0xfffffffffffffff0ull, 0xfffffffffffffff0ull,
                                      0x0ffffffffffffff0ull, 0xfffull};
    static const int64_t outs[5] = {0x2000, 0, 0x2000, 0, 0x1000};
    for (int i = 0; i < 5; i++) {
        p->layers[i].in_mask = masks[i];
        p->layers[i].out_mask = i < 4 ? masks[i + 1] : 0x3ffull;
        p->layers[i].out_offset = outs[i];
        p->layers[i].in_offset = i ? outs[i - 1] : 0;
        p->layers[i].write_gap = 0;
    }
    mcu_place_kernels(p);
}

static void test_seed004(void)
{
    struct loaded L;
    struct mcu_plan *p = plan("mnist_ai85net5", "max78000", 8, &L);
    CHECK(p != NULL);
    if (!p) return;
    CHECK_EQ_U(p->n_layers, 5);
    CHECK_EQ_U(p->layers[0].in_ch, 1);
    CHECK_EQ_U(p->layers[1].in_ch, 60);
    CHECK_EQ_U(p->layers[3].in_ch, 56);
    CHECK_EQ_U(p->layers[4].in_ch, 12);
    CHECK(p->layers[4].flatten && p->layers[4].op == MCU_OP_LINEAR);
    CHECK(p->layers[1].pool == MCU_POOL_MAX && p->layers[3].pool == MCU_POOL_AVG);
    CHECK(p->fits);

    struct mcu_msgs *ms = calloc(1, sizeof *ms);
    seed_masks(p);
    CHECK_EQ_U(mcu_validate(p, ms), 0);
    for (int i = 0; i < ms->n; i++) fprintf(stderr, "  unexpected: %s\n", ms->m[i].text);

    /* a mask with the wrong bit count: 59 processors for 60 channels */
    memset(ms, 0, sizeof *ms);
    seed_masks(p);
    p->layers[1].in_mask = 0x7ffffffffffffff0ull;
    CHECK(mcu_validate(p, ms) > 0);
    CHECK(has_msg(ms, MCU_R_PROCESSORS, "enables 59 processors; 60 input channels need 60"));

    /* more than 64 channels: processors per pass rounded up to a multiple of 4 (100 channels: 2 x 52) */
    int passes;
    CHECK_EQ_U(mcu_procs_per_pass(100, &passes), 52);
    CHECK_EQ_U(passes, 2);
    CHECK_EQ_U(mcu_procs_per_pass(1024, &passes), 64);
    CHECK_EQ_U(passes, 16);

    /* overlapping offsets: layer 1 writes where layer 0's output still lives */
    memset(ms, 0, sizeof *ms);
    seed_masks(p);
    p->layers[1].out_offset = 0x2000;
    p->layers[2].in_offset = 0x2000;
    CHECK(mcu_validate(p, ms) > 0);
    CHECK(has_msg(ms, MCU_R_OVERLAP, "layer 1's output at 0x2000-0x23ff overlaps layer 0's output"));

    /* out of an instance: 0x7e00 + 1024 bytes > 32 KiB */
    memset(ms, 0, sizeof *ms);
    seed_masks(p);
    p->layers[1].out_offset = 0x7e00;
    p->layers[2].in_offset = 0x7e00;
    CHECK(mcu_validate(p, ms) > 0);
    CHECK(has_msg(ms, MCU_R_DATA, "a data-memory instance has 32768 bytes"));

    /* an exhausted processor: layer 2's kernels pushed past word 767 */
    memset(ms, 0, sizeof *ms);
    seed_masks(p);
    p->layers[2].kern_offset = 740;
    CHECK(mcu_validate(p, ms) > 0);
    CHECK(has_msg(ms, MCU_R_KERNEL, "kernel memory exhausted at processor 4: needs words 740-795"));
    CHECK(has_msg(ms, MCU_R_KERNEL, "the processor has 768"));

    /* overlapping kernels */
    memset(ms, 0, sizeof *ms);
    seed_masks(p);
    p->layers[2].kern_offset = p->layers[1].kern_offset;
    CHECK(mcu_validate(p, ms) > 0);
    CHECK(has_msg(ms, MCU_R_KERNEL, "overlap layer 1's kernels"));

    /* layer count */
    memset(ms, 0, sizeof *ms);
    seed_masks(p);
    const struct mcu_device *dev = p->dev;
    struct mcu_device small = *dev;
    small.max_layers = 4;
    p->dev = &small;
    CHECK(mcu_validate(p, ms) > 0);
    CHECK(has_msg(ms, MCU_R_LAYERS, "5 layers"));
    p->dev = dev;
    free(ms);
    done(&L);
}

static void test_models_fit(void)
{
    static const char *fit[] = {"mnist_ai85net5", "cifar10_simplenet", "kws20_conv1d", "cifar10_residual"};
    for (size_t i = 0; i < sizeof fit / sizeof fit[0]; i++) {
        for (int t = 0; t < 2; t++) {
            struct loaded L;
            struct mcu_plan *p = plan(fit[i], t ? "max78002" : "max78000", 8, &L);
            CHECK(p != NULL);
            if (!p) continue;
            CHECK(p->fits);
            for (int k = 0; k < p->problems->n; k++)
                fprintf(stderr, "%s: %s\n", fit[i], p->problems->m[k].text);
            struct mcu_msgs *ms = calloc(1, sizeof *ms);
            CHECK_EQ_U(mcu_validate(p, ms), 0);
            free(ms);
            CHECK(p->n_layers <= p->dev->max_layers);
            CHECK(p->cycles > 0);
            done(&L);
        }
    }
    /* the residual model: pass-through copies with write_gap, element-wise add fused in front of a conv */
    struct loaded L;
    struct mcu_plan *p = plan("cifar10_residual", "max78000", 8, &L);
    if (p) {
        CHECK_EQ_U(p->passthroughs, 2);
        int adds = 0, gaps = 0;
        for (int i = 0; i < p->n_layers; i++) {
            adds += p->layers[i].elt == MCU_ELT_ADD && p->layers[i].n_in == 2;
            gaps += p->layers[i].write_gap == 1;
        }
        CHECK_EQ_U(adds, 2);
        CHECK_EQ_U(gaps, 4);
        done(&L);
    }
    /* kws20: Conv1d layers */
    p = plan("kws20_conv1d", "max78000", 8, &L);
    if (p) {
        CHECK(p->layers[0].op == MCU_OP_CONV1D);
        CHECK_EQ_U(p->layers[0].passes, 2);
        CHECK_EQ_U(mcu_popcount(p->layers[0].in_mask), 64);
        done(&L);
    }
}

static void test_too_large(void)
{
    struct loaded L;
    struct mcu_plan *p = plan("cifar10_large", "max78000", 8, &L);
    CHECK(p != NULL);
    if (p) {
        CHECK(!p->fits);
        CHECK(any_problem(p, "depthwise convolution (groups = 256): not on the MAX78000"));
        CHECK(any_problem(p, "layer 3 ('/convs.3/Conv'): kernel memory exhausted at processor"));
        CHECK(any_problem(p, "the processor has 768"));
        CHECK(any_problem(p, "the MAX78000 has 442,368"));
        CHECK(any_problem(p, "4-bit weights (--weight-bits 4) (not enough alone)"));
        CHECK(any_problem(p, "or the MAX78002 (2,340 KiB of weights) (it fits with that)"));
        CHECK_EQ_U(p->would_fit_max78002, 1);
        done(&L);
    }
    p = plan("cifar10_large", "max78002", 8, &L);
    CHECK(p != NULL);
    if (p) {
        CHECK(p->fits);
        struct mcu_msgs *ms = calloc(1, sizeof *ms);
        CHECK_EQ_U(mcu_validate(p, ms), 0);
        free(ms);
        done(&L);
    }
    /* fits neither: every unsupported parameter listed at once */
    for (int t = 0; t < 2; t++) {
        p = plan("cifar10_huge", t ? "max78002" : "max78000", 8, &L);
        CHECK(p != NULL);
        if (!p) continue;
        CHECK(!p->fits);
        CHECK(any_problem(p, "kernel 5x5 (Conv2d supports 1x1 and 3x3)"));
        CHECK(any_problem(p, "stride 2"));
        CHECK(any_problem(p, "kernel memory exhausted"));
        done(&L);
    }
}

static void test_render_and_errors(void)
{
    struct loaded L;
    struct mcu_plan *p = plan("mnist_ai85net5", "max78000", 4, &L);
    CHECK(p != NULL);
    if (!p) return;
    char *out = NULL;
    size_t len = 0;
    char err[256];
    CHECK(nnperf_mcu_plan_render(L.h, "yaml", &out, &len, err, sizeof err) == NNPERF_OK);
    CHECK(out && strstr(out, "arch: mnist_ai85net5") && strstr(out, "dataset: MNIST"));
    CHECK(out && strstr(out, "flatten: true") && strstr(out, "quantization: 4"));
    free(out);
    CHECK(nnperf_mcu_plan_render(L.h, "xml", &out, &len, err, sizeof err) == NNPERF_E_USAGE);
    struct nnperf_mcu_plan *h = NULL;
    CHECK(nnperf_map(L.a, "max78001", 8, &h, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(strstr(err, "unknown target 'max78001'") != NULL);
    CHECK(nnperf_map(L.a, "max78000", 3, &h, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(h == NULL);
    done(&L);
}

int main(void)
{
    test_seed004();
    test_models_fit();
    test_too_large();
    test_render_and_errors();
    return tt_done();
}
