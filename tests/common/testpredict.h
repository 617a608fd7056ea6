/* testpredict.h - the setup the unit tests repeat (test_advise, test_llm, test_predict_batch): a model loaded,
 * analysed and predicted on a platform, each step's message printed when it fails. */
#ifndef NNPERF_TESTPREDICT_H
#define NNPERF_TESTPREDICT_H

#include "nnperf.h"

struct tp_run {
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    struct nnperf_prediction *p;
};

/* Loads path and analyses it with ao (may be NULL); when plat is not NULL, predicts it with po (may be NULL). 1
 * when every step asked for succeeded; else 0, the failing step's message on stderr after the path, and its handle
 * and the later ones NULL. Free with tp_free, also after a failure. */
int tp_run(struct tp_run *r, const char *path, const struct nnperf_analyze_options *ao,
           const struct nnperf_platform *plat, const struct nnperf_predict_options *po);
void tp_free(struct tp_run *r);

#endif
