/* report.h - the writers shared by the analysis and prediction reports. */
#ifndef NNPERF_REPORT_H
#define NNPERF_REPORT_H

#include "../predict/predict.h"

/* The analysis JSON document; with p, the prediction's fields are added (summary, platform, layers, timeline). */
void rep_analysis_json(const struct an_state *an, struct strbuf *sb, const struct nnperf_prediction *p);
void rep_analysis_table(const struct an_state *an, struct strbuf *sb);
void rep_prediction_json_summary(const struct nnperf_prediction *p, struct strbuf *sb);
void rep_prediction_json_tail(const struct nnperf_prediction *p, struct strbuf *sb);
void rep_prediction_table(const struct nnperf_prediction *p, struct strbuf *sb);
void rep_prediction_csv(const struct nnperf_prediction *p, struct strbuf *sb);
/* 4.09G, 118M, 1.2k */
void rep_fmt_si(char *b, size_t n, double x);
/* "1.234 s", "12.345 ms", "3.4 us" */
void rep_fmt_time(char *b, size_t n, double seconds);
/* Hands a finished buffer to the caller (*out malloc'd, *len its length), or frees it and reports NNPERF_E_LIMIT
 * when it overflowed its cap or ran out of memory. */
enum nnperf_status rep_finish(struct strbuf *sb, char **out, size_t *len, char *err, size_t errlen);
/* a double in JSON: finite with up to 6 significant digits, else null */
void rep_json_num(struct strbuf *sb, double x);

#endif
