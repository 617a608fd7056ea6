/* test_advise.c - the design-advice rules (src/advise/) on crafted models (tests/data/advise/, made by
 * make_models.py there, on the made-up platform adv-npu.yaml there): for each rule a model that breaks it and a
 * near-identical one that does not; and for every finding, that its predicted gain is the difference of two
 * predictions recomputed here with nnperf_predict, without and with the finding's what-if. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise/advise.h"
#include "common/testpredict.h"
#include "nnperf.h"
#include "tinytest.h"

static struct nnperf_platform *plat;

struct rcase {
    const char *model, *rule, *dtype;
    int expect;           /* 1: the rule must fire, 0: it must not */
    const char *evidence; /* a substring the finding's evidence must hold (NULL: none checked) */
};

static const struct rcase cases[] = {
    {"fallback_yes", "fallback", NULL, 1, "with Erf runs on the fallback unit cpu"},
    {"fallback_no", "fallback", NULL, 0, NULL},
    {"fusion_yes", "fusion-blocked", NULL, 1, "Conv->Add->Relu pattern cannot fuse"},
    {"fusion_no", "fusion-blocked", NULL, 0, NULL},
    {"align_yes", "align-channels", NULL, 1, "C=33 padded to 64: 48% of this layer's MACs are padding"},
    {"align_no", "align-channels", NULL, 0, NULL},
    {"grouped_yes", "grouped-conv", NULL, 1, "256 input channels is memory-bound"},
    {"grouped_no", "grouped-conv", NULL, 0, NULL},
    {"spill_yes", "spilled-shortcut", NULL, 1, "'a' (512.0 KiB per frame) from layer 'conv1'"},
    {"spill_no", "spilled-shortcut", NULL, 0, NULL},
    {"weights_yes", "large-weights", NULL, 1, "1.00 MiB of weights"},
    {"weights_no", "large-weights", NULL, 0, NULL},
    {"transform_yes", "data-transform", NULL, 1, "1 Transpose layer on the accelerator"},
    {"transform_no", "data-transform", NULL, 0, NULL},
    {"batch_yes", "batch-small-input", NULL, 1, "is 32x32 (<= 256)"},
    {"batch_no", "batch-small-input", NULL, 0, NULL},
    {"dtype_yes", "dtype", "fp16", 1, "int8 peak (1e+12 ops/s) is 4.0x its fp16 peak"},
    {"dtype_no", "dtype", "fp16", 0, NULL},
    {"attention_yes", "padded-attention", NULL, 1, "MatMul of an attention: its output 1x3x49x"},
    {"attention_no", "padded-attention", NULL, 0, NULL},
};

/* nnperf_advice_rule_for_layer names, for a layer of a model that breaks a rule, that rule (the why block's
 * causes), and nothing for the layers of the model that keeps it */
struct lcase {
    const char *model, *layer, *rule; /* rule NULL: no layer of the model gets one */
};
static const struct lcase layer_rules[] = {
    {"attention_yes", "scores", "padded-attention"}, {"attention_no", NULL, NULL},
    {"weights_yes", "fc", "large-weights"},          {"fallback_yes", "act", "fallback"},
    {"transform_yes", "tr", "data-transform"},       {"grouped_yes", "conv", "grouped-conv"},
};

/* model name of tests/data/advise, loaded and analysed (predicted on plat when predict is set) */
static int setup(struct tp_run *r, const char *name, int predict)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/advise/%s.onnx", name);
    return tp_run(r, path, NULL, predict ? plat : NULL, NULL);
}

static void test_rule_for_layer(const struct lcase *c)
{
    struct tp_run r;
    if (!setup(&r, c->model, 1)) {
        CHECK(0);
        tp_free(&r);
        return;
    }
    const struct nnperf_prediction *p = r.p;
    int seen = 0;
    for (int i = 0; i < nnperf_prediction_layer_count(p); i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, i, &li);
        const char *rule = nnperf_advice_rule_for_layer(p, i);
        if (!c->layer) {
            if (rule) fprintf(stderr, "%s: layer '%s' gets rule %s\n", c->model, li.name, rule);
            CHECK(rule == NULL);
        } else if (!strncmp(li.name, c->layer, strlen(c->layer))) {
            seen = 1;
            if (!rule || strcmp(rule, c->rule))
                fprintf(stderr, "%s: '%s' gets %s\n", c->model, li.name, rule ? rule : "none");
            CHECK(rule && !strcmp(rule, c->rule));
        }
    }
    CHECK(seen || !c->layer);
    CHECK(nnperf_advice_rule_for_layer(p, -1) == NULL);
    CHECK(nnperf_advice_rule_for_layer(p, nnperf_prediction_layer_count(p)) == NULL);
    CHECK(nnperf_advice_rule_for_layer(NULL, 0) == NULL);
    tp_free(&r);
}

static double per_frame(const struct nnperf_prediction *p)
{
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(p, &s);
    return s.latency_s / s.frames_per_run;
}

/* every finding's gain = per-frame latency without - with its what-if, recomputed here */
static void check_gains(const struct nnperf_analysis *a, const struct nnperf_advise_options *ao,
                        const struct nnperf_advice *adv, const char *model)
{
    char err[512];
    struct nnperf_predict_options o = ao->predict;
    struct nnperf_prediction *base, *with;
    if (nnperf_predict(a, plat, &o, &base, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s: %s\n", model, err);
        CHECK(0);
        return;
    }
    double prev = INFINITY;
    for (int i = 0; i < nnperf_advice_count(adv); i++) {
        struct nnperf_finding f;
        nnperf_advice_finding(adv, i, &f);
        CHECK(f.whatif != NULL);
        CHECK(f.gain_s <= prev); /* ordered by gain */
        prev = f.gain_s;
        o.whatif = f.whatif;
        if (nnperf_predict(a, plat, &o, &with, err, sizeof err) != NNPERF_OK) {
            fprintf(stderr, "%s: %s: %s\n", model, f.rule, err);
            CHECK(0);
            continue;
        }
        double gain = per_frame(base) - per_frame(with);
        int ok = fabs(gain - f.gain_s) <= 1e-12 + 1e-9 * fabs(gain) && gain > 0;
        if (!ok) fprintf(stderr, "%s: %s: gain %.9g s, recomputed %.9g s\n", model, f.rule, f.gain_s, gain);
        CHECK(ok);
        CHECK(fabs(f.gain_fraction - gain / per_frame(base)) <= 1e-9);
        nnperf_prediction_free(with);
    }
    nnperf_prediction_free(base);
}

static void run_case(const struct rcase *c)
{
    char err[512];
    struct tp_run r;
    if (!setup(&r, c->model, 0)) {
        CHECK(0);
        tp_free(&r);
        return;
    }
    const struct nnperf_analysis *a = r.a;
    struct nnperf_advise_options ao = {.predict = {.dtype = c->dtype}};
    struct nnperf_advice *adv;
    if (nnperf_advise(a, plat, &ao, &adv, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s: %s\n", c->model, err);
        CHECK(0);
    } else {
        int found = 0;
        for (int i = 0; i < nnperf_advice_count(adv); i++) {
            struct nnperf_finding f;
            nnperf_advice_finding(adv, i, &f);
            if (strcmp(f.rule, c->rule)) continue;
            found++;
            CHECK(f.n_layers > 0 || !strcmp(f.rule, "batch-small-input") || !strcmp(f.rule, "dtype"));
            CHECK(f.evidence && f.change && f.change[0]);
            if (c->evidence && !strstr(f.evidence, c->evidence)) {
                fprintf(stderr, "%s: evidence \"%s\" lacks \"%s\"\n", c->model, f.evidence, c->evidence);
                CHECK(0);
            }
            if (!strcmp(f.rule, "batch-small-input")) CHECK(f.new_frames == 4 && f.new_fps > f.fps);
        }
        printf("%-14s %-18s %s\n", c->model, c->rule, found ? "fires" : "silent");
        if ((found > 0) != c->expect)
            fprintf(stderr, "%s: rule %s: expected %s\n", c->model, c->rule,
                    c->expect ? "a finding" : "none");
        CHECK((found > 0) == c->expect);
        check_gains(a, &ao, adv, c->model);
        /* the renderings */
        char *out;
        size_t len;
        CHECK(nnperf_advice_render(adv, NNPERF_FORMAT_TABLE, &out, &len, err, sizeof err) == NNPERF_OK);
        if (out) CHECK(strlen(out) == len && strstr(out, "advice for ") == out);
        free(out);
        CHECK(nnperf_advice_render(adv, NNPERF_FORMAT_JSON, &out, &len, err, sizeof err) == NNPERF_OK);
        if (out) CHECK(strstr(out, "\"schema\":\"nnperf.advice\"") != NULL);
        free(out);
        CHECK(nnperf_advice_render(adv, NNPERF_FORMAT_HTML, &out, &len, err, sizeof err) == NNPERF_OK);
        if (out) CHECK(strstr(out, "Advice") != NULL);
        free(out);
        CHECK(nnperf_advice_render(adv, NNPERF_FORMAT_CSV, &out, &len, err, sizeof err) == NNPERF_E_USAGE);
        nnperf_advice_free(adv);
    }
    tp_free(&r);
}

/* The what-if of a finding against the graph edited by hand: predicting model `yes` with the what-if of its `rule`
 * finding must give the latency per frame of model `edited` (the same graph with the suggested change made in the
 * ONNX file, re-analyzed from scratch). A fallback what-if is checked against a model whose operator the platform
 * runs (Tanh for Erf: the same per-element cost in docs/conventions.md). */
struct ecase {
    const char *yes, *rule, *edited;
};

static const struct ecase edits[] = {
    {"fusion_yes", "fusion-blocked", "fusion_no"},       /* Relu moved after the Add */
    {"align_yes", "align-channels", "align_no"},         /* 33 -> 32 channels */
    {"grouped_yes", "grouped-conv", "grouped_edit"},     /* group=4 */
    {"transform_yes", "data-transform", "transform_no"}, /* Transpose -> a view */
    {"fallback_yes", "fallback", "fallback_no"},         /* Erf -> an operator the platform runs */
};

static void test_whatif_equals_edit(const struct ecase *c)
{
    char err[512];
    struct tp_run r1, r2;
    int ok1 = setup(&r1, c->yes, 0), ok2 = setup(&r2, c->edited, 0);
    if (!ok1 || !ok2) {
        CHECK(0);
        tp_free(&r1);
        tp_free(&r2);
        return;
    }
    const struct nnperf_analysis *a1 = r1.a, *a2 = r2.a;
    struct nnperf_advise_options ao = {0};
    struct nnperf_advice *adv = NULL;
    struct nnperf_prediction *with = NULL, *edited = NULL;
    CHECK(nnperf_advise(a1, plat, &ao, &adv, err, sizeof err) == NNPERF_OK);
    int found = 0;
    for (int i = 0; adv && i < nnperf_advice_count(adv); i++) {
        struct nnperf_finding f;
        nnperf_advice_finding(adv, i, &f);
        if (strcmp(f.rule, c->rule)) continue;
        found = 1;
        struct nnperf_predict_options o = ao.predict;
        o.whatif = f.whatif;
        CHECK(nnperf_predict(a1, plat, &o, &with, err, sizeof err) == NNPERF_OK);
        CHECK(nnperf_predict(a2, plat, &ao.predict, &edited, err, sizeof err) == NNPERF_OK);
        if (with && edited) {
            double x = per_frame(with), y = per_frame(edited);
            printf("%-14s what-if %.6g s, edited graph %s %.6g s\n", c->yes, x, c->edited, y);
            CHECK(fabs(x - y) <= 1e-9 * y);
        }
        nnperf_prediction_free(with);
        nnperf_prediction_free(edited);
        break;
    }
    CHECK(found);
    nnperf_advice_free(adv);
    tp_free(&r1);
    tp_free(&r2);
}

/* What-ifs on a lowered graph: a model the prediction lowers (a QDQ model's Q/DQ pairs, a Dropout: views) gets the
 * same findings, with the same gains, as its float twin, whose base prediction is the same; the values its what-ifs
 * name are the lowered graph's tensors (before, they named values the what-if's own lowering never held: no
 * finding), and a QOperator node's weights keep a what-if's scale when the lowering recounts them. */
struct twin {
    const char *lowered, *plain, *rule;
};
static const struct twin twins[] = {
    /* pin 'a', read through a Q/DQ pair by conv2 and the Add */
    {"spill_yes_qdq", "spill_yes", "spilled-shortcut"},
    /* pin conv1's output, read through a Dropout */
    {"spill_yes_drop", "spill_yes", "spilled-shortcut"},
    /* channels of 'a', read by conv2 through a Q/DQ pair */
    {"align_yes_qdq", "align_yes", "align-channels"},
    /* node what-ifs on a QOperator node the lowering renames: the weights it recounts keep the what-if's scale */
    {"grouped_yes_qop", "grouped_yes", "grouped-conv"},
    {"weights_yes_qop", "weights_yes", "large-weights"},
};

/* the gain of model's `rule` finding on plat (0: none); *base: the latency per frame advised on */
static double finding_gain(const char *model, const char *rule, double *base)
{
    char err[512];
    struct tp_run r;
    struct nnperf_advice *adv = NULL;
    double gain = 0;
    *base = 0;
    struct nnperf_advise_options ao = {0};
    if (setup(&r, model, 0) && nnperf_advise(r.a, plat, &ao, &adv, err, sizeof err) == NNPERF_OK) {
        *base = adv->latency_s / adv->frames;
        for (int i = 0; i < nnperf_advice_count(adv); i++) {
            struct nnperf_finding f;
            nnperf_advice_finding(adv, i, &f);
            if (!strcmp(f.rule, rule)) gain = f.gain_s;
        }
        check_gains(r.a, &ao, adv, model);
        CHECK(adv->warn_from == adv->base->n_warn); /* every what-if predicted */
    } else
        CHECK(0);
    nnperf_advice_free(adv);
    tp_free(&r);
    return gain;
}

static void test_lowered_twin(const struct twin *c)
{
    double b1, b2, g1 = finding_gain(c->lowered, c->rule, &b1), g2 = finding_gain(c->plain, c->rule, &b2);
    printf("%-14s %-18s gain %.6g s of %.6g s; %s: %.6g s of %.6g s\n", c->lowered, c->rule, g1, b1, c->plain,
           g2, b2);
    CHECK(g2 > 0 && b2 > 0);
    CHECK(fabs(b1 - b2) <= 1e-9 * b2);
    CHECK(fabs(g1 - g2) <= 1e-9 * g2);
}

/* A what-if built by hand on the QDQ model: pinning the analysis's value 'a_dq' (the DequantizeLinear's output)
 * pins the tensor the lowering maps it to ('a', conv1's output), as pinning 'a' does; a value the lowered graph
 * holds no tensor of (another model's, a DynamicQuantizeLinear's scale) is named in a warning and changes nothing. */
static double pinned(const struct nnperf_analysis *a, const struct ir_value *v, const char *warn)
{
    char err[512];
    struct arena ar;
    ar_init(&ar, 0);
    struct nnperf_whatif wi = {0};
    struct pr_change *c = pr_whatif_add(&ar, &wi, WI_PIN);
    struct nnperf_predict_options o = {.whatif = &wi};
    struct nnperf_prediction *p = NULL;
    double t = -1;
    if (c) c->v = v;
    if (c && nnperf_predict(a, plat, &o, &p, err, sizeof err) == NNPERF_OK) {
        t = per_frame(p);
        int seen = 0;
        for (int i = 0; nnperf_prediction_warning(p, i); i++)
            if (strstr(nnperf_prediction_warning(p, i), "what-if: value '")) {
                seen = 1;
                if (!warn || !strstr(nnperf_prediction_warning(p, i), warn))
                    fprintf(stderr, "warning: %s\n", nnperf_prediction_warning(p, i));
                CHECK(warn && strstr(nnperf_prediction_warning(p, i), warn));
            }
        CHECK(seen == (warn != NULL));
    } else
        CHECK(0);
    nnperf_prediction_free(p);
    ar_free(&ar);
    return t;
}

static void test_whatif_values(void)
{
    struct tp_run q, f, d;
    int ok = setup(&q, "spill_yes_qdq", 1) & setup(&f, "spill_yes", 1);
    ok &= tp_run(&d, "tests/data/quant/encoder_dyn.onnx", NULL, plat, NULL);
    CHECK(ok);
    if (ok) {
        const struct ir_graph *gq = an_graph(&q.a->st), *gf = an_graph(&f.a->st), *gd = an_graph(&d.a->st);
        const struct ir_value *adq = ir_find(gq, "a_dq"), *aq = ir_find(gq, "a"), *af = ir_find(gf, "a");
        const struct ir_value *scale = NULL;
        for (int k = 0; k < gd->n_nodes && !scale; k++)
            if (gd->nodes[k]->op == OPID_DYNAMIC_QUANTIZE_LINEAR) scale = gd->nodes[k]->out[1];
        CHECK(adq && aq && af && scale);
        if (adq && aq && af && scale) {
            double t_q = per_frame(q.p), t_f = per_frame(f.p);
            double w_dq = pinned(q.a, adq, NULL), w_a = pinned(q.a, aq, NULL), w_f = pinned(f.a, af, NULL);
            printf("pin a_dq %.6g s, a %.6g s (of %.6g s); float twin: pin a %.6g s (of %.6g s)\n", w_dq, w_a,
                   t_q, w_f, t_f);
            CHECK(w_dq < t_q && fabs(w_dq - w_a) <= 1e-12 && fabs(w_dq - w_f) <= 1e-9 * w_f);
            char msg[160];
            CHECK(pinned(d.a, af, "value 'a' is not a value of this model's graph") == per_frame(d.p));
            snprintf(msg, sizeof msg, "value '%s' is made by a lowering view", scale->name);
            CHECK(pinned(d.a, scale, msg) == per_frame(d.p));
        }
    }
    tp_free(&q);
    tp_free(&f);
    tp_free(&d);
}

/* large-weights on 4-bit weights behind a DequantizeLinear (weights_yes_qdq4): the what-if halves the weight bytes
 * the lowering counts at 4 bits (before, it subtracted the unscaled codes from the halved count: negative weights,
 * a 95% gain) */
static void test_whatif_4bit(void)
{
    char err[512];
    struct tp_run r;
    struct nnperf_advice *adv = NULL;
    struct nnperf_advise_options ao = {0};
    int found = 0;
    if (!setup(&r, "weights_yes_qdq4", 1) ||
        nnperf_advise(r.a, plat, &ao, &adv, err, sizeof err) != NNPERF_OK)
        CHECK(0);
    for (int i = 0; adv && i < nnperf_advice_count(adv); i++) {
        struct nnperf_finding f;
        struct nnperf_prediction *with = NULL;
        nnperf_advice_finding(adv, i, &f);
        if (strcmp(f.rule, "large-weights")) continue;
        found = 1;
        struct nnperf_predict_options o = {.whatif = f.whatif};
        CHECK(nnperf_predict(r.a, plat, &o, &with, err, sizeof err) == NNPERF_OK);
        for (int l = 0; with && l < nnperf_prediction_layer_count(r.p); l++) {
            struct nnperf_layer_info b, w;
            nnperf_prediction_layer(r.p, l, &b);
            nnperf_prediction_layer(with, l, &w);
            if (strcmp(b.name, "fc")) continue;
            printf("weights_yes_qdq4 fc weight bytes %.0f, with the what-if %.0f\n", b.weight_bytes,
                   w.weight_bytes);
            CHECK(b.weight_bytes == 1048576 && w.weight_bytes == 0.5 * b.weight_bytes);
        }
        nnperf_prediction_free(with);
    }
    CHECK(found);
    nnperf_advice_free(adv);
    tp_free(&r);
}

/* without a what-if nothing changes; a what-if inside the options is refused by nnperf_advise */
static void test_api(void)
{
    CHECK(nnperf_advice_rule_count() >= 9);
    for (int i = 0; i < nnperf_advice_rule_count(); i++) {
        const char *id = nnperf_advice_rule_id(i), *t = nnperf_advice_explain(id);
        CHECK(t && strstr(t, id) == t && strstr(t, "Source: [S100-ADVICE]"));
    }
    CHECK(nnperf_advice_explain("no-such-rule") == NULL);
    /* the rule table: every row has its check function and a unique id */
    for (int i = 0; i < adv_n_rules; i++) {
        CHECK(adv_rules[i].check != NULL && adv_rules[i].title && adv_rules[i].text);
        for (int j = 0; j < i; j++) CHECK(strcmp(adv_rules[i].id, adv_rules[j].id) != 0);
    }
    CHECK(nnperf_advice_rule_id(-1) == NULL);
}

int main(void)
{
    char err[512];
    if (nnperf_platform_load("tests/data/advise/adv-npu.yaml", &plat, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    test_api();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) test_whatif_equals_edit(&edits[i]);
    for (size_t i = 0; i < sizeof layer_rules / sizeof layer_rules[0]; i++)
        test_rule_for_layer(&layer_rules[i]);
    for (size_t i = 0; i < sizeof twins / sizeof twins[0]; i++) test_lowered_twin(&twins[i]);
    test_whatif_values();
    test_whatif_4bit();
    nnperf_platform_free(plat);
    return tt_done();
}
