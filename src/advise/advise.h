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
    struct adv_finding *f;
    int n, cap;
};

/* rules.c: the rule table */
struct adv_rule {
    const char *id, *title, *text;
};
extern const struct adv_rule adv_rules[];
extern const int adv_n_rules;

#endif
