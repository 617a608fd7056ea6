/* advise.h - the advice module's internals: findings (a rule's evidence, suggested change and what-if) and the
 * advice that holds them. advise.c runs the rules over a base prediction and predicts each what-if; rules.c holds
 * the rule texts for --explain; src/report/render_advice.c renders the findings. */
#ifndef NNPERF_ADVISE_H
#define NNPERF_ADVISE_H

#include "../predict/predict.h"

#define ADV_MAX_LAYERS 64 /* layers named per finding (the rest are counted in the evidence) */

struct adv_finding {
    const char *rule;
    const char **layers;
    int n_layers;
    const char *evidence, *change;
    struct nnperf_whatif wi;
    double gain_s, gain_fraction, latency_s, new_latency_s, fps, new_fps;
    int frames, new_frames;
};

struct nnperf_advice {
    struct arena ar;
    const struct nnperf_analysis *a;
    struct nnperf_prediction *base; /* the prediction advised on (kept for the HTML report) */
    const char *model, *platform, *dtype;
    int frames;
    double latency_s, fps, min_gain;
    int n_checked; /* what-ifs predicted */
    int n_below;   /* of which below min_gain */
    int warn_from; /* base's warnings from this one on are the advice's (a what-if it could not predict) */
    struct adv_finding *f;
    int n, cap;
};

/* rules.c: the rule table */
/* One row per rule (rules.c): its id, title, the text of `nnperf advise --explain`, and the function that checks
 * it over a base prediction and records its findings (advise.c). Adding a rule = one row and one function. */
struct adv_run;
struct adv_rule {
    const char *id, *title, *text;
    void (*check)(struct adv_run *r);
};
void adv_check_fallback(struct adv_run *r);
void adv_check_fusion(struct adv_run *r);
void adv_check_align(struct adv_run *r);
void adv_check_attention(struct adv_run *r);
void adv_check_grouped(struct adv_run *r);
void adv_check_spill(struct adv_run *r);
void adv_check_weights(struct adv_run *r);
void adv_check_transform(struct adv_run *r);
void adv_check_batch(struct adv_run *r);
void adv_check_dtype(struct adv_run *r);
extern const struct adv_rule adv_rules[];
extern const int adv_n_rules;

#endif
