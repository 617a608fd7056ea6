/* test_mcu.c - the MAX7800x planner (`nnperf map`): the vendor's published ai85net5 processor masks validate; a
 * wrong mask, overlapping offsets and an exhausted processor are each rejected with the right message; every model
 * in models/mcu plans and its plan validates (or fails with messages naming layer, resource and remedy); the
 * published ai8x networks (models/mcu/ai8x) plan with the vendor's layer count, processors per layer, kernel words
 * and fit; each device rule has a model that breaks it and a near-identical one that passes (models/mcu/rules);
 * streaming and per-layer weight bits. */
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

static struct mcu_plan *plan_file(const char *name, const char *target, int bits, const char *bits_file,
                                  struct loaded *L)
{
    char path[256], err[512];
    memset(L, 0, sizeof *L);
    snprintf(path, sizeof path, "models/mcu/%s.onnx", name);
    struct nnperf_map_options o = {target, bits, bits_file, 0};
    if (nnperf_model_load(path, NULL, &L->m, err, sizeof err) != NNPERF_OK ||
        nnperf_analyze(L->m, NULL, &L->a, err, sizeof err) != NNPERF_OK ||
        nnperf_map_ex(L->a, &o, &L->h, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s: %s\n", path, err);
        return NULL;
    }
    return mcu_plan_of(L->h);
}

static struct mcu_plan *plan(const char *name, const char *target, int bits, struct loaded *L)
{
    return plan_file(name, target, bits, NULL, L);
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
    /* t = 0: MAX78000, 1: MAX78002. kws20_conv1d pads Conv1d layers of 96-100 channels (a rule of the MAX78002
     * only); cifar10_residual adds in front of biased convolutions, which the MAX78002 runs in layers apart */
    static const struct {
        const char *name;
        int fits[2];
        const char *why78002;
    } cases[] = {
        {"mnist_ai85net5", {1, 1}, NULL},
        {"cifar10_simplenet", {1, 1}, NULL},
        {"kws20_conv1d", {1, 0}, "padded Conv1d (padding 1) reading 96 channels in 2 passes"},
        {"cifar10_residual", {1, 1}, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int t = 0; t < 2; t++) {
            struct loaded L;
            struct mcu_plan *p = plan(cases[i].name, t ? "max78002" : "max78000", 8, &L);
            CHECK(p != NULL);
            if (!p) continue;
            CHECK_EQ_U(p->fits, cases[i].fits[t]);
            if (cases[i].fits[t]) {
                for (int k = 0; k < p->problems->n; k++)
                    fprintf(stderr, "%s: %s\n", cases[i].name, p->problems->m[k].text);
                struct mcu_msgs *ms = calloc(1, sizeof *ms);
                CHECK_EQ_U(mcu_validate(p, ms), 0);
                free(ms);
            } else
                CHECK(any_problem(p, cases[i].why78002));
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
        int n78000 = p->n_layers;
        done(&L);
        /* on the MAX78002 each add is a pass-through layer of its own in front of its biased convolution */
        p = plan("cifar10_residual", "max78002", 8, &L);
        CHECK(p != NULL);
        if (p) {
            CHECK_EQ_U(p->n_layers, n78000 + 2);
            int alone = 0;
            for (int i = 0; i + 1 < p->n_layers; i++)
                alone += p->layers[i].op == MCU_OP_NONE && p->layers[i].elt == MCU_ELT_ADD &&
                         p->layers[i + 1].in_seq[0] == i && p->layers[i + 1].bias_group >= 0 &&
                         p->layers[i + 1].elt == MCU_ELT_NONE;
            CHECK_EQ_U(alone, 2);
            done(&L);
        }
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
        CHECK_EQ_U(p->would_fit_larger, 1);
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
    CHECK(strstr(err, "unknown target 'max78001' (max78000 or max78002)") != NULL);
    CHECK(nnperf_map(L.a, "max78000", 3, &h, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(h == NULL);
    done(&L);
}

/* The published networks, on the devices the vendor builds them for: the vendor's layer count and processors per
 * layer (the popcounts of the masks in its networks/ YAML files), fit, and kernel words where its loader's count
 * differs from outputs x passes (kws20 v3 layers 0 and 6: 100 outputs take 2 passes of 52 processors). */
static void test_published(void)
{
    /* cycles: the vendor's own estimate for nnperf's plan (bench/mcu/ai8x_oracle.py, bench/RESULTS.md); 0 where
     * the vendor's tool estimates none (MAX78002) */
    static const struct {
        const char *model, *target;
        int layers;
        int procs[17];
        uint64_t cycles;
    } cases[] = {
        {"ai8x/ai85net5_mnist", "max78000", 5, {1, 60, 60, 56, 12}, 70157},
        {"ai8x/ai85nascifarnet_cifar100",
         "max78000",
         11,
         {3, 64, 32, 64, 32, 64, 64, 64, 64, 64, 64},
         228937},
        {"ai8x/ai85simplenet_cifar100",
         "max78000",
         14,
         {3, 16, 20, 20, 20, 20, 20, 44, 48, 48, 48, 64, 64, 64},
         129319},
        {"ai8x/ai85ressimplenet_cifar100",
         "max78000",
         17,
         {3, 16, 20, 20, 20, 20, 20, 20, 20, 44, 48, 48, 48, 48, 64, 64, 64},
         144271},
        {"ai8x/ai85kws20netv3", "max78000", 9, {64, 52, 48, 64, 48, 64, 48, 52, 64}, 71782},
        {"ai8x/ai87kws20netv3", "max78002", 9, {64, 52, 48, 64, 48, 64, 48, 52, 64}, 0},
        {"ai8x/ai85faceidnet", "max78000", 9, {3, 16, 32, 32, 64, 64, 64, 64, 64}, 876838},
        {"ai8x/ai85cdnet", "max78000", 7, {3, 16, 32, 64, 32, 32, 16}, 757910},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct loaded L;
        struct mcu_plan *p = plan(cases[c].model, cases[c].target, 8, &L);
        CHECK(p != NULL);
        if (!p) continue;
        CHECK(p->fits);
        for (int k = 0; k < p->problems->n; k++)
            fprintf(stderr, "%s: %s\n", cases[c].model, p->problems->m[k].text);
        CHECK_EQ_U(p->n_layers, cases[c].layers);
        for (int i = 0; i < p->n_layers && i < cases[c].layers; i++)
            if (mcu_popcount(p->layers[i].in_mask) != cases[c].procs[i]) {
                fprintf(stderr, "%s layer %d: %d processors, the vendor's network has %d\n", cases[c].model,
                        i, mcu_popcount(p->layers[i].in_mask), cases[c].procs[i]);
                CHECK(0);
            }
        if (cases[c].cycles && p->cycles != cases[c].cycles) {
            fprintf(stderr, "%s: %llu cycles, the vendor's estimate is %llu\n", cases[c].model,
                    (unsigned long long)p->cycles, (unsigned long long)cases[c].cycles);
            CHECK(0);
        }
        if (!strcmp(cases[c].model, "ai8x/ai85kws20netv3")) {
            CHECK_EQ_U(p->layers[0].kern_len, 24);
            CHECK_EQ_U(p->layers[6].kern_len, 70);
        }
        if (!strcmp(cases[c].model,
                    "ai8x/ai85nascifarnet_cifar100")) /* fc: 52 + 48 outputs, each pass a new word */
            CHECK_EQ_U(p->layers[10].kern_len, 90);
        done(&L);
    }
}

/* The MAX78002 cannot run an element-wise operation and a convolution with bias in one layer: the residual Add in
 * front of a biased convolution runs in a pass-through layer of its own (the vendor's tool accepts that plan), not
 * "does not fit"; fused by hand, the validator refuses the layer. The MAX78000 fuses them. */
static void test_eltwise_bias(void)
{
    struct loaded L;
    struct mcu_plan *p = plan("rules/eltwise_bias_bad", "max78002", 8, &L);
    CHECK(p != NULL);
    if (!p) return;
    CHECK(p->fits);
    for (int k = 0; k < p->problems->n; k++)
        fprintf(stderr, "eltwise_bias_bad: %s\n", p->problems->m[k].text);
    CHECK_EQ_U(p->n_layers, 4);
    if (p->n_layers == 4) {
        struct mcu_layer *e = &p->layers[2], *y = &p->layers[3];
        CHECK(e->op == MCU_OP_NONE && e->elt == MCU_ELT_ADD && e->n_in == 2 && e->in_seq[0] == 0 &&
              e->in_seq[1] == 1 && e->bias_group < 0 && e->out_ch == 16);
        CHECK(y->op == MCU_OP_CONV2D && y->elt == MCU_ELT_NONE && y->n_in == 1 && y->in_seq[0] == 2 &&
              y->bias_group >= 0);
        CHECK(has_msg(p->notes, MCU_R_RULE, "runs in a layer of its own"));
        /* fused again by hand: the device rule refuses it */
        struct mcu_msgs *ms = calloc(1, sizeof *ms);
        y->elt = MCU_ELT_ADD, y->n_in = 2, y->in_seq[0] = 0, y->in_seq[1] = 1;
        CHECK(mcu_validate(p, ms) > 0);
        CHECK(has_msg(ms, MCU_R_RULE, "element-wise add fused with a conv2d that has a bias"));
        free(ms);
    }
    done(&L);
    p = plan("rules/eltwise_bias_bad", "max78000", 8, &L);
    CHECK(p != NULL);
    if (p) {
        CHECK(p->fits);
        CHECK_EQ_U(p->n_layers, 3);
        done(&L);
    }
    p = plan("rules/eltwise_bias_ok", "max78002", 8, &L);
    CHECK(p != NULL);
    if (p) {
        CHECK(p->fits);
        CHECK_EQ_U(p->n_layers, 3);
        done(&L);
    }
}

/* Each device rule: the _bad model breaks it (the plan does not fit, the problem names the rule), the _ok model,
 * changed just enough, fits. */
static void test_rules(void)
{
    static const struct {
        const char *name, *target, *needle;
    } cases[] = {
        {"conv1d_pad_multipass", "max78002", "padded Conv1d (padding 1) reading 128 channels in 2 passes"},
        {"pad_kernel", "max78000", "padding 1 is not smaller than the 1x1 kernel"},
        {"eltwise_passes", "max78000",
         "element-wise add of 2 operands over 3 passes (160 channels) fused with conv2d"},
        {"pool_passes", "max78000", "pooling 128 channels (2 passes) without a convolution to 4x4"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char name[128];
        struct loaded L;
        snprintf(name, sizeof name, "rules/%s_bad", cases[c].name);
        struct mcu_plan *p = plan(name, cases[c].target, 8, &L);
        CHECK(p != NULL);
        if (p) {
            CHECK(!p->fits);
            if (!any_problem(p, cases[c].needle)) {
                fprintf(stderr, "%s on %s: no problem '%s'\n", name, cases[c].target, cases[c].needle);
                CHECK(0);
            }
            done(&L);
        }
        snprintf(name, sizeof name, "rules/%s_ok", cases[c].name);
        p = plan(name, cases[c].target, 8, &L);
        CHECK(p != NULL);
        if (p) {
            CHECK(p->fits);
            for (int k = 0; k < p->problems->n; k++)
                fprintf(stderr, "%s: %s\n", name, p->problems->m[k].text);
            done(&L);
        }
    }
    /* the device-specific rules hold on one device only */
    struct loaded L;
    struct mcu_plan *p = plan("rules/conv1d_pad_multipass_bad", "max78000", 8, &L);
    if (p) {
        CHECK(p->fits);
        done(&L);
    }
    p = plan("rules/pool_passes_bad", "max78002", 8, &L);
    if (p) {
        CHECK(p->fits);
        done(&L);
    }
    /* flatten cannot pool: the planner pools in a pass-through layer of its own; fused, the validator refuses */
    p = plan("rules/flatten_pool_bad", "max78000", 8, &L);
    CHECK(p != NULL);
    if (p) {
        CHECK(p->fits);
        CHECK_EQ_U(p->n_layers, 3);
        const struct mcu_layer *pt = &p->layers[1], *fc = &p->layers[2];
        CHECK(pt->op == MCU_OP_NONE && pt->pool == MCU_POOL_MAX);
        CHECK(fc->op == MCU_OP_LINEAR && fc->flatten && !fc->pool);
        struct mcu_msgs *ms = calloc(1, sizeof *ms);
        p->layers[2].pool = MCU_POOL_MAX, p->layers[2].pool_kh = p->layers[2].pool_kw = 2;
        p->layers[2].pool_stride = 2;
        CHECK(mcu_validate(p, ms) > 0);
        CHECK(has_msg(ms, MCU_R_RULE, "flatten with 2x2 pooling in front"));
        /* a pass-through layer does not activate */
        memset(ms, 0, sizeof *ms);
        p->layers[1].act = MCU_ACT_RELU;
        CHECK(mcu_validate(p, ms) > 0);
        CHECK(has_msg(ms, MCU_R_RULE, "ReLU in a pass-through layer (no convolution)"));
        free(ms);
        done(&L);
    }
    p = plan("rules/flatten_pool_ok", "max78000", 8, &L);
    if (p) {
        CHECK(p->fits);
        CHECK_EQ_U(p->n_layers, 2);
        done(&L);
    }
    test_eltwise_bias();
}

/* Streaming: the 3x160x120 faceid and 3x128x128 cats-dogs inputs do not fit a 32 KiB instance whole; layers 0-1
 * stream as in the vendor's own networks, and the YAML says so. On the MAX78002 (80 KiB) they need not. */
static void test_streaming(void)
{
    const char *models[] = {"ai8x/ai85faceidnet", "ai8x/ai85cdnet"};
    for (int i = 0; i < 2; i++) {
        struct loaded L;
        struct mcu_plan *p = plan(models[i], "max78000", 8, &L);
        CHECK(p != NULL);
        if (!p) continue;
        CHECK(p->fits);
        CHECK_EQ_U(p->streaming_layers, 2);
        CHECK(p->layers[0].streaming && p->layers[1].streaming && !p->layers[2].streaming);
        CHECK(has_msg(p->notes, MCU_R_STREAMING, "streaming (FIFO) mode required: layers 0-1 stream"));
        char *out = NULL, err[256];
        size_t len = 0;
        CHECK(nnperf_mcu_plan_render(L.h, "yaml", &out, &len, err, sizeof err) == NNPERF_OK);
        CHECK(out && strstr(out, "streaming: true"));
        free(out);
        /* without streaming the input overflows the instance */
        p->layers[0].streaming = p->layers[1].streaming = 0;
        p->streaming_layers = 0;
        struct mcu_msgs *ms = calloc(1, sizeof *ms);
        CHECK(mcu_validate(p, ms) > 0);
        CHECK(has_msg(ms, MCU_R_DATA, "the model input needs"));
        free(ms);
        done(&L);
        p = plan(models[i], "max78002", 8, &L);
        if (p) {
            CHECK(p->fits);
            CHECK_EQ_U(p->streaming_layers, 0);
            done(&L);
        }
    }
}

/* Per-layer weight bits from an ai8x-training QAT policy: conv1 8, conv2 4, conv3-conv10 2, conv11-conv14 4 */
static void test_weight_bits(void)
{
    struct loaded L;
    struct mcu_plan *p = plan_file("ai8x/ai85simplenet_cifar100", "max78000", 8,
                                   "models/mcu/ai8x/qat_policy_cifar100.yaml", &L);
    CHECK(p != NULL);
    if (p) {
        static const int want[14] = {8, 4, 2, 2, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4};
        int64_t bytes = 0;
        for (int i = 0; i < p->n_layers && i < 14; i++) {
            CHECK_EQ_U(p->layers[i].weight_bits, want[i]);
            bytes += (p->layers[i].weights * want[i] + 7) / 8;
        }
        CHECK_EQ_U(p->weight_bytes, bytes);
        char *out = NULL, err[256];
        size_t len = 0;
        CHECK(nnperf_mcu_plan_render(L.h, "yaml", &out, &len, err, sizeof err) == NNPERF_OK);
        CHECK(out && strstr(out, "quantization: 2") && strstr(out, "quantization: 4"));
        free(out);
        done(&L);
    }
    /* quantized weights in the graph (DequantizeLinear of an int8 / int4 initializer) say their bits, over the
     * --weight-bits default; the other layer keeps the default */
    for (int b = 0; b < 2; b++) {
        p = plan(b ? "quant/qdq_int4" : "quant/qdq_int8", "max78000", 2, &L);
        CHECK(p != NULL);
        if (!p) continue;
        CHECK_EQ_U(p->n_layers, 2);
        CHECK_EQ_U(p->layers[0].weight_bits, 2);
        CHECK_EQ_U(p->layers[1].weight_bits, b ? 4 : 8);
        CHECK_EQ_U(p->layers[1].kern_len, b ? 8 : 16); /* 16 kernels of 3x3: 16 words at 8 bits, 8 at 4 */
        CHECK(has_msg(p->notes, MCU_R_OPERATOR, "weight bits of 1 layer from the graph's quantized weights"));
        done(&L);
    }
    /* bad files: the file, line and key named; a name that matches no layer */
    const char *bad[][2] = {
        {"conv1: 8\nconv2: 3\n", ":2: key 'conv2': weight bits '3'"},
        {"conv1: 8\nconv1: 4\n", ":2: key 'conv1': given twice (first on line 1)"},
        {"  conv1: 8\n", ":1: key 'conv1': indented, but not inside 'overrides:'"},
        {"conv99: 4\n", ":1: key 'conv99' names no layer with weights"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[64], err[512];
        snprintf(path, sizeof path, "test_mcu_bits_%zu.yaml", i);
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (!f) continue;
        fputs(bad[i][0], f);
        fclose(f);
        struct nnperf_model *m = NULL;
        struct nnperf_analysis *a = NULL;
        struct nnperf_mcu_plan *h = NULL;
        struct nnperf_map_options o = {"max78000", 8, path, 0};
        if (nnperf_model_load("models/mcu/ai8x/ai85simplenet_cifar100.onnx", NULL, &m, err, sizeof err) ==
                NNPERF_OK &&
            nnperf_analyze(m, NULL, &a, err, sizeof err) == NNPERF_OK) {
            CHECK(nnperf_map_ex(a, &o, &h, err, sizeof err) != NNPERF_OK);
            CHECK(h == NULL);
            if (!strstr(err, bad[i][1])) {
                fprintf(stderr, "weight-bits file %zu: '%s' lacks '%s'\n", i, err, bad[i][1]);
                CHECK(0);
            }
        }
        nnperf_analysis_free(a);
        nnperf_model_free(m);
        remove(path);
    }
}

/* Two plans are the same plan: every layer's operation, shapes, masks, offsets, kernel and bias placement, bits and
 * cycles, and the usage. Prints the first difference. */
static int same_plan(const char *what, const struct mcu_plan *a, const struct mcu_plan *b)
{
    if (a->n_layers != b->n_layers || a->fits != b->fits || a->cycles != b->cycles ||
        a->weight_bytes != b->weight_bytes || a->bias_bytes != b->bias_bytes ||
        a->kern_words_used != b->kern_words_used || a->streaming_layers != b->streaming_layers ||
        a->problems->n != b->problems->n || memcmp(a->data_peak, b->data_peak, sizeof a->data_peak)) {
        fprintf(stderr,
                "%s: %d layers, fits %d, %llu cycles, %lld weight bytes, %d problems; the plain export: "
                "%d, %d, %llu, %lld, %d\n",
                what, b->n_layers, b->fits, (unsigned long long)b->cycles, (long long)b->weight_bytes,
                b->problems->n, a->n_layers, a->fits, (unsigned long long)a->cycles,
                (long long)a->weight_bytes, a->problems->n);
        for (int k = 0; k < b->problems->n && k < 3; k++) fprintf(stderr, "  %s\n", b->problems->m[k].text);
        return 0;
    }
    for (int i = 0; i < a->n_layers; i++) {
        const struct mcu_layer *x = &a->layers[i], *y = &b->layers[i];
        int same =
            x->op == y->op && x->kh == y->kh && x->kw == y->kw && x->pad == y->pad && x->pool == y->pool &&
            x->pool_kh == y->pool_kh && x->pool_stride == y->pool_stride && x->pool_first == y->pool_first &&
            x->act == y->act && x->elt == y->elt && x->n_in == y->n_in &&
            !memcmp(x->in_seq, y->in_seq, sizeof x->in_seq) && x->flatten == y->flatten &&
            x->in_ch == y->in_ch && x->out_ch == y->out_ch && x->in_h == y->in_h && x->in_w == y->in_w &&
            x->out_h == y->out_h && x->out_w == y->out_w && x->weights == y->weights && x->bias == y->bias &&
            x->output_width == y->output_width && x->weight_bits == y->weight_bits &&
            x->streaming == y->streaming && x->in_mask == y->in_mask && x->out_mask == y->out_mask &&
            x->in_offset == y->in_offset && x->out_offset == y->out_offset && x->write_gap == y->write_gap &&
            x->kern_offset == y->kern_offset && x->kern_len == y->kern_len &&
            x->bias_group == y->bias_group && x->bias_offset == y->bias_offset && x->cycles == y->cycles;
        if (!same) {
            fprintf(stderr, "%s: layer %d ('%s') differs from the plain export's ('%s')\n", what, i, y->name,
                    x->name);
            return 0;
        }
    }
    return 1;
}

/* ai8x-training's own export (float and 8-bit QAT, `--summary onnx` and `onnx_simplified`) of every published
 * network (tests/data/mcu/make_vendor_exports.py): the output-shift multiplies, rounding, clamps, the QAT weight
 * arithmetic and the float export's BatchNormalization / 4 fold into the layers, and the plan equals the plain
 * export's on both devices. The old planner refused each file at its first multiply. */
static void test_vendor_exports(void)
{
    static const char *nets[] = {"ai85net5_mnist",
                                 "ai85net5_cifar10",
                                 "ai85nascifarnet_cifar10",
                                 "ai85nascifarnet_cifar100",
                                 "ai85simplenet_cifar100",
                                 "ai85simplenetwide2x_cifar100",
                                 "ai85ressimplenet_cifar100",
                                 "ai85kws20netv3",
                                 "ai87kws20netv3",
                                 "ai85faceidnet",
                                 "ai85cdnet"};
    static const char *forms[] = {"float", "float_simplified", "qat8", "qat8_simplified"};
    int compared = 0;
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        for (int t = 0; t < 2; t++) {
            const char *target = t ? "max78002" : "max78000";
            char name[200];
            snprintf(name, sizeof name, "ai8x/%s", nets[i]);
            struct loaded A;
            struct mcu_plan *a = plan(name, target, 8, &A);
            CHECK(a != NULL);
            if (!a) continue;
            for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
                snprintf(name, sizeof name, "../../tests/data/mcu/vendor/%s_%s", nets[i], forms[f]);
                struct loaded B;
                struct mcu_plan *b = plan(name, target, 8, &B);
                CHECK(b != NULL);
                if (!b) continue;
                char what[300];
                snprintf(what, sizeof what, "%s on the %s", name, target);
                CHECK(same_plan(what, a, b));
                compared++;
                done(&B);
            }
            done(&A);
        }
    CHECK_EQ_U(compared, 88);
    /* the mixed-precision QAT export (the vendor's policy: 8 / 4 / 2 bits): its rounding steps give each layer's bits,
     * as the policy file given to the plain export does */
    static const char *mixed[] = {"ai85simplenet_cifar100", "ai85simplenetwide2x_cifar100"};
    for (int i = 0; i < 2; i++)
        for (int t = 0; t < 2; t++) {
            const char *target = t ? "max78002" : "max78000";
            char name[200];
            struct loaded A, B;
            snprintf(name, sizeof name, "ai8x/%s", mixed[i]);
            struct mcu_plan *a = plan_file(name, target, 8, "models/mcu/ai8x/qat_policy_cifar100.yaml", &A);
            snprintf(name, sizeof name, "../../tests/data/mcu/vendor/%s_qat_mixed", mixed[i]);
            struct mcu_plan *b = plan(name, target, 8, &B);
            CHECK(a && b);
            if (a && b) {
                CHECK(same_plan(name, a, b));
                int two = 0;
                for (int k = 0; k < b->n_layers; k++) two += b->layers[k].weight_bits == 2;
                CHECK_EQ_U(two, 8);
            }
            if (a) done(&A);
            if (b) done(&B);
        }
    /* a layer without weights (ressimplenet's pass-through copies) has 8 bits whatever the file's default, as in a
     * mixed export planned without the file */
    struct loaded L;
    struct mcu_plan *p = plan_file("ai8x/ai85ressimplenet_cifar100", "max78000", 8,
                                   "models/mcu/ai8x/qat_policy_cifar100.yaml", &L);
    CHECK(p != NULL);
    if (p) {
        int copies = 0;
        for (int k = 0; k < p->n_layers; k++)
            if (!p->layers[k].weights) {
                copies++;
                CHECK_EQ_U(p->layers[k].weight_bits, 8);
            }
        CHECK_EQ_U(copies, 3);
        done(&L);
    }
}

/* The CNN clock as the vendor's examples run it (MAX78000: 50 MHz, MAX78002: 200 MHz): MNIST and KWS20 v3 within 5%
 * of the microseconds the vendor's example READMEs measured (1,410 and 1,442 us, docs/sources.md
 * [MSDK-EXAMPLES]); --clock sets another. */
static void test_clock(void)
{
    static const struct {
        const char *model;
        double measured_us;
    } cases[] = {{"ai8x/ai85net5_mnist", 1410}, {"ai8x/ai85kws20netv3", 1442}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct loaded L;
        struct mcu_plan *p = plan(cases[c].model, "max78000", 8, &L);
        CHECK(p != NULL);
        if (!p) continue;
        double us = p->latency_s * 1e6, err = us / cases[c].measured_us - 1;
        if (err > 0.05 || err < -0.05) {
            fprintf(stderr, "%s: %.1f us, the vendor measured %.0f us (%+.1f%%)\n", cases[c].model, us,
                    cases[c].measured_us, 100 * err);
            CHECK(0);
        }
        done(&L);
    }
    CHECK(mcu_device_find("max78000")->clock_hz == 50e6);
    CHECK(mcu_device_find("max78002")->clock_hz == 200e6);
    /* --clock: the same cycles at another clock; a clock out of range is refused */
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    struct nnperf_mcu_plan *h = NULL;
    char err[512];
    CHECK(nnperf_model_load("models/mcu/ai8x/ai85net5_mnist.onnx", NULL, &m, err, sizeof err) == NNPERF_OK);
    CHECK(nnperf_analyze(m, NULL, &a, err, sizeof err) == NNPERF_OK);
    struct nnperf_map_options o = {"max78000", 8, NULL, 100e6};
    CHECK(nnperf_map_ex(a, &o, &h, err, sizeof err) == NNPERF_OK);
    if (h) {
        struct mcu_plan *p = mcu_plan_of(h);
        CHECK_EQ_U(p->cycles, 70157);
        CHECK(p->latency_s > 701.56e-6 && p->latency_s < 701.58e-6);
        char *text = NULL;
        CHECK(nnperf_mcu_plan_render(h, "json", &text, NULL, err, sizeof err) == NNPERF_OK);
        CHECK(text && strstr(text, "\"clock_hz\":100000000"));
        free(text);
        nnperf_mcu_plan_free(h);
    }
    o.clock_hz = -1;
    CHECK(nnperf_map_ex(a, &o, &h, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(strstr(err, "CNN clock") != NULL);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* A streaming layer with a bias: the vendor's tool warns on the MAX78000 (SUPPORT_STREAM_BIAS off) and gives the
 * streaming first layer one bias byte more; the MAX78002 supports it. A scaling that is no power of two is refused
 * with the node's name. */
static void test_stream_bias_and_scale(void)
{
    struct loaded L;
    struct mcu_plan *p = plan("../../tests/data/mcu/stream_bias", "max78000", 8, &L);
    CHECK(p != NULL);
    if (p) {
        CHECK(p->fits);
        CHECK(p->layers[0].streaming && p->layers[0].bias_group >= 0);
        CHECK_EQ_U(p->warnings->n, 1);
        CHECK(
            has_msg(p->warnings, MCU_R_STREAMING, "layer 0 ('/conv1/Conv'): combining streaming and a bias"));
        CHECK_EQ_U(p->bias_bytes, 17); /* 16 channels + the work-around byte */
        CHECK_EQ_U(nnperf_mcu_plan_warning_count(L.h), 1);
        CHECK(nnperf_mcu_plan_warning(L.h, 0) != NULL && nnperf_mcu_plan_warning(L.h, 1) == NULL);
        done(&L);
    }
    p = plan("../../tests/data/mcu/stream_bias", "max78002", 8, &L);
    CHECK(p != NULL);
    if (p) {
        CHECK_EQ_U(p->warnings->n, 0);
        CHECK_EQ_U(p->bias_bytes, 16);
        done(&L);
    }
    p = plan("ai8x/ai85faceidnet", "max78000", 8, &L); /* streams, no bias in the streaming layers */
    if (p) {
        CHECK(p->streaming_layers == 2 && p->warnings->n == 0);
        done(&L);
    }
    p = plan("../../tests/data/mcu/scale_not_pow2", "max78000", 8, &L);
    CHECK(p != NULL);
    if (p) {
        CHECK(!p->fits);
        CHECK(any_problem(p, "node '/conv1/Mul' (Mul): a scaling by 0.3"));
        done(&L);
    }
}

int main(void)
{
    test_vendor_exports();
    test_clock();
    test_stream_bias_and_scale();
    test_published();
    test_rules();
    test_streaming();
    test_weight_bits();
    test_seed004();
    test_models_fit();
    test_too_large();
    test_render_and_errors();
    return tt_done();
}
