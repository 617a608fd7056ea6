/* svg.h - nnperf's own SVG writer and the plots built on it: roofline, timeline Gantt with utilization and
 * bandwidth series, memory breakdown, compare heatmap, latency-vs-throughput lines and the accuracy-vs-throughput
 * pareto front. Output is deterministic (fixed precision, no locale) and every text is escaped. */
#ifndef NNPERF_SVG_H
#define NNPERF_SVG_H

#include "report.h"

/* Writes s escaped for XML/HTML text and attribute values (& < > " '); control bytes become spaces. */
void rep_esc(struct strbuf *sb, const char *s);
/* A coordinate with one decimal ("12.5"), never "-0.0"; non-finite values are written as 0. */
void rep_num(struct strbuf *sb, double x);
/* The colour of an operator class ("conv", "matmul", ...) as "#rrggbb"; unknown classes are grey. */
const char *rep_class_color(const char *klass);

/* Plots of a prediction. standalone: add the XML namespace so the SVG opens as a file of its own. */
void rep_svg_roofline(const struct nnperf_prediction *p, struct strbuf *sb, int standalone);
void rep_svg_timeline(const struct nnperf_prediction *p, struct strbuf *sb, int standalone);
void rep_svg_memory(const struct nnperf_prediction *p, struct strbuf *sb, int standalone);

/* A rows x cols matrix (row-major, NAN = no value) drawn with a logarithmic colour scale. */
struct rep_heat {
    int rows, cols;
    const char *const *row_names;
    const char *const *col_names;
    const double *v;
    const char *unit; /* "FPS" */
};
void rep_svg_heatmap(const struct rep_heat *h, struct strbuf *sb, int standalone);

/* One line or point set: n points (x, y), labels[i] (may be NULL) named in the hover text. NAN points are
 * skipped. */
struct rep_series {
    const char *name;
    int n;
    const double *x, *y;
    const char *const *labels;
};
struct rep_plot {
    const char *title, *xlabel, *ylabel;
    int xlog, ylog;
    int pareto; /* 1: draw points and each series' pareto front (higher x and higher y are better), not lines */
};
void rep_svg_lines(const struct rep_plot *pl, const struct rep_series *s, int n, struct strbuf *sb,
                   int standalone);

#endif
