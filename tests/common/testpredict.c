/* testpredict.c - load, analyse and predict in one call for unit tests (testpredict.h). */
#include "testpredict.h"

#include <stdio.h>

int tp_run(struct tp_run *r, const char *path, const struct nnperf_analyze_options *ao,
           const struct nnperf_platform *plat, const struct nnperf_predict_options *po)
{
    char err[1024];
    *r = (struct tp_run){NULL, NULL, NULL};
    enum nnperf_status st = nnperf_model_load(path, NULL, &r->m, err, sizeof err);
    if (!st) st = nnperf_analyze(r->m, ao, &r->a, err, sizeof err);
    if (!st && plat) st = nnperf_predict(r->a, plat, po, &r->p, err, sizeof err);
    if (st) fprintf(stderr, "%s: %s\n", path, err);
    return st == NNPERF_OK;
}

void tp_free(struct tp_run *r)
{
    nnperf_prediction_free(r->p);
    nnperf_analysis_free(r->a);
    nnperf_model_free(r->m);
    *r = (struct tp_run){NULL, NULL, NULL};
}
