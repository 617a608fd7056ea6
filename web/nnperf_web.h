/* nnperf_web.h - the entry points of the WebAssembly build that web/app.js calls (web/nnperf_web.c): the public API
 * of include/nnperf.h with handles returned instead of out-parameters, lists as newline-separated text, and
 * malloc'd strings (freed with nnperf_free). NULL on error, with the library's message in err. */
#ifndef NNPERF_WEB_H
#define NNPERF_WEB_H

#include <stddef.h>

#include "nnperf.h"

/* nnperf_model_load_buffer; buf must outlive the model */
struct nnperf_model *nw_load(const void *buf, size_t len, const char *name, char *err, size_t errlen);
/* nnperf_analyze; inputs: "NAME=DIMS" lines (--input), dims: "SYMBOL=N" lines (--dim) */
struct nnperf_analysis *nw_analyze(const struct nnperf_model *m, const char *inputs, const char *dims,
                                   char *err, size_t errlen);
/* nnperf_platform_load, then nnperf_platform_set for each "KEY=VALUE" line of sets (--set) */
struct nnperf_platform *nw_platform(const char *name, const char *sets, char *err, size_t errlen);
/* nnperf_predict with the default options (`nnperf analyze --hw`) */
struct nnperf_prediction *nw_predict(const struct nnperf_analysis *a, const struct nnperf_platform *p,
                                     char *err, size_t errlen);
/* the prediction summary's numbers into out (order in nnperf_web.c); returns how many (at most cap) */
int nw_summary(const struct nnperf_prediction *p, double *out, int cap);
/* renders (fmt: enum nnperf_format), nnperf_plot_svg (kind), nnperf_advise + nnperf_advice_render */
char *nw_analysis_render(const struct nnperf_analysis *a, int fmt, char *err, size_t errlen);
char *nw_prediction_render(const struct nnperf_prediction *p, int fmt, char *err, size_t errlen);
char *nw_plot(const struct nnperf_prediction *p, const char *kind, char *err, size_t errlen);
char *nw_advise(const struct nnperf_analysis *a, const struct nnperf_platform *p, int fmt, char *err,
                size_t errlen);
/* nnperf_platform_yaml; the preset names; the analysis's unbound dims: one a line */
char *nw_platform_yaml(const struct nnperf_platform *p);
char *nw_presets(void);
char *nw_unbound_dims(const struct nnperf_analysis *a);

#endif
