/* calibrate.h - fitting a platform's per-class efficiencies and per-layer overhead to measured profiles, and
 * matching profile nodes to predicted layers (see calibrate.c for the method). */
#ifndef NNPERF_CALIBRATE_H
#define NNPERF_CALIBRATE_H

#include "predict.h"
#include "profile.h"

#define PERF_MATCH_NAME 4096

struct perf_cal_input {
    const char *name; /* for messages */
    const struct nnperf_analysis *analysis;
    const struct perf_profile *profile;
};

/* Fits hw (in: the uncalibrated platform, e.g. from `nnperf probe`; out: efficiencies and overhead set) at dtype
 * (enum hw_dtype). A summary of the fit is appended to log (may be NULL). */
enum nnperf_status perf_calibrate(struct hw_desc *hw, int dtype, struct perf_cal_input *in, int n,
                                  struct strbuf *log, struct diag *d);
/* Measured time per run of each layer of p (layer_us[p->n_layers]) and of profile nodes matching no layer. */
void perf_match(const struct nnperf_prediction *p, const struct perf_profile *prof, double *layer_us,
                double *unmatched_us);
/* How many of the profile's nodes name a node or value of p's model (by the rules of perf_match): a profile of
 * another model matches few. */
int perf_match_count(const struct nnperf_prediction *p, const struct perf_profile *prof);

#endif
