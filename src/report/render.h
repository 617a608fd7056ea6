/* render.h - the top of the report stack: what the render entry points (render_*.c, the nnperf_*_render functions
 * of include/nnperf.h) share. render_analysis.c is the one file of the module that reads an analysis' internals;
 * predictions are read through view.h (public accessors) only. */
#ifndef NNPERF_REPORT_RENDER_H
#define NNPERF_REPORT_RENDER_H

#include "csv.h"
#include "fields.h"
#include "html.h"
#include "json.h"
#include "plots.h"
#include "table.h"

#define REP_CAP ((size_t)1 << 31) /* the largest report */

/* Hands a finished buffer to the caller (*out malloc'd, *len its length), or frees it and reports NNPERF_E_LIMIT
 * when it overflowed its cap or ran out of memory. */
enum nnperf_status rep_finish(struct strbuf *sb, char **out, size_t *len, char *err, size_t errlen);
/* rep_finish for a report in format fmt: text for people (table and CSV) first has every control character but
 * the line break, and every byte that is not UTF-8, written as \xNN (sb_put_text): whatever a name from a model
 * holds, it cannot drive the terminal the report is printed on. */
enum nnperf_status rep_finish_as(struct strbuf *sb, enum nnperf_format fmt, char **out, size_t *len,
                                 char *err, size_t errlen);
/* NNPERF_E_USAGE with "what: format X is not available (...)" */
enum nnperf_status rep_bad_format(const char *what, enum nnperf_format fmt, const char *avail, char *err,
                                  size_t errlen);

/* ---- the analysis (render_analysis.c) ---- */
const char *rep_an_path(const struct nnperf_analysis *a);
/* the graph inputs that are not initializers with their shapes: "input 1x3x224x224, mask 1x128" */
void rep_an_inputs(const struct nnperf_analysis *a, struct strbuf *sb);
/* The analysis document's first members into an open top-level JSON object: schema, versions, model, and the
 * summary object with the analysis counts, left open for the prediction's keys; rep_an_json_body closes it and
 * writes tensors, nodes and warnings. */
void rep_an_json_head(const struct nnperf_analysis *a, struct rep_json *j);
void rep_an_json_body(const struct nnperf_analysis *a, struct rep_json *j);
/* "warnings": the analysis's warnings, then the prediction's (p may be NULL): the library's warnings in the JSON
 * documents that carry no analysis (roofline, advice, validate). */
void rep_json_warnings(struct rep_json *j, const struct nnperf_analysis *a,
                       const struct nnperf_prediction *p);
/* The text report: model line, node table (Constant nodes folded unless opts->all; opts->top heaviest by FLOPs;
 * none with opts->summary_only), totals, heaviest nodes, warnings. */
void rep_an_table(const struct nnperf_analysis *a, const struct nnperf_render_options *o, struct strbuf *sb);

/* ---- a prediction (render_prediction.c) ---- */
/* The view of p for its reports (rep_view_init with the model's path): NNPERF_OK, or NNPERF_E_USAGE (p NULL) or
 * NNPERF_E_NOMEM with the message in err. */
enum nnperf_status rep_view_open(struct rep_view *v, const struct nnperf_prediction *p, char *err,
                                 size_t errlen);
/* An extra tab of the prediction page, e.g. "Advice": id is an HTML id ([a-z0-9-]), title its label; html is
 * inserted as is (the caller escaped every name in it). */
struct rep_extra_tab {
    const char *id, *title, *html;
};
void rep_pred_html(const struct rep_view *v, const struct rep_extra_tab *extra, int n_extra,
                   struct strbuf *sb);

/* The prediction's expected error: its platform's validation (median and 90th-percentile |error| over the test rows
 * of bench/fidelity, and their number) or "not validated" with why (p: for --set; may be NULL). Every report that
 * shows a prediction's number shows it: the long text, the short one of table cells ("+-14% n=18", "not validated"),
 * and the JSON member "expected_error" ({median, p90, test_rows} of all the rows, the model's family and its
 * family_test_rows, family_median, family_p90, validated_for_family; or null when not validated).
 * The band the texts show (rep_expected_band, docs/prediction.md "Expected error"): a transformer-style model's,
 * over the platform's transformer-style test rows where it has any (none: all the rows' band and the words "not
 * validated for this one"); a cnn's, over its cnn test rows where it has 5 or more (REP_XE_MIN_CNN_ROWS) and not only
 * those; else all the rows' (also where the platform gives no rows by family, or the summary no family: nnperf
 * compare's platforms whose models differ in family). */
#define REP_XE_MIN_CNN_ROWS 5
struct rep_xe_band {
    int rows;
    double median, p90;
    const char
        *family; /* NNPERF_FAMILY_TRANSFORMER or NNPERF_FAMILY_CNN: the test rows it is over; NULL: all */
    int family_unvalidated; /* a transformer-style model and none of the rows is one */
};
struct rep_xe_band rep_expected_band(const struct nnperf_prediction_summary *s);
void rep_expected_error_text(const struct nnperf_prediction *p, const struct nnperf_prediction_summary *s,
                             char *b, size_t n);
void rep_expected_error_short(const struct nnperf_prediction_summary *s, char *b, size_t n);
void rep_json_expected_error(struct rep_json *j, const struct nnperf_prediction_summary *s);

/* ---- the predicted timeline as Chrome trace events (render_trace.c) ---- */
/* The whole trace document ({"traceEvents": [...], ...}) of one prediction. */
void rep_pred_trace(const struct rep_view *v, struct strbuf *sb);

#endif
