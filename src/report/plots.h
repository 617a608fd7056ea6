/* plots.h - the SVG plots of the reports, built on svg.h from a rep_view (view.h) or plain data: a prediction's
 * roofline, timeline and memory breakdown; compare's heatmap, whole-model roofline, latency-vs-throughput lines and
 * accuracy pareto fronts. Each plot says on its root element how many layers it could draw
 * (data-layers-total / -shown / -drawn) and why the others are not drawn, in its caption. standalone: the SVG is a
 * file of its own (XML namespace, no page script). */
#ifndef NNPERF_REPORT_PLOTS_H
#define NNPERF_REPORT_PLOTS_H

#include "svg.h"
#include "view.h"

/* The plot's layer counts for the browser test: <g class="layer-counts" data-layers-total/-shown/-drawn>. */
void rp_layer_counts(struct strbuf *sb, const struct rep_view *v, int drawn);
/* A roofline's ceilings as a polyline's points: the bandwidth diagonal up to the ridge, then the peak. */
void rp_ceiling_points(struct strbuf *sb, const struct rep_axis *ax, const struct rep_axis *ay, double peak,
                       double bw);

/* Every shown layer with ops as a point: x = aligned ops per DDR byte, y = attained ops/s, area ~ time, colour =
 * operator class; the ceilings (Williams et al. 2009). */
void rp_roofline(const struct rep_view *v, struct strbuf *sb, int standalone);
/* hb_perf-style lanes per unit (compute, DDR load, DDR store; overhead on the compute lane) over one run, layer
 * names on hover, the heaviest layers in a legend; the compute utilization and the DDR bandwidth with its ceiling
 * per interval. Fixed height whatever the number of layers; in the HTML page (standalone = 0) it zooms and scrolls
 * in time. */
void rp_timeline(const struct rep_view *v, struct strbuf *sb, int standalone);
/* DDR bytes of every shown layer in execution order: weights, activations, spills. */
void rp_memory(const struct rep_view *v, struct strbuf *sb, int standalone);

/* A rows x cols matrix (row-major, NAN = no value) drawn with a logarithmic colour scale. */
struct rep_heat {
    int rows, cols;
    const char *const *row_names;
    const char *const *col_names;
    const double *v;
    const char *unit; /* "FPS" */
};
void rp_heatmap(const struct rep_heat *h, struct strbuf *sb, int standalone);

/* One line or point set: n points (x, y), labels[i] (may be NULL) named in the hover text. NAN points are skipped. */
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
    int point_labels;         /* 1: every point's label written beside it (left out where it would overlap) */
    const char *const *notes; /* lines written under the plot (why a line bends); NULL = none */
    int n_notes;
};
void rp_lines(const struct rep_plot *pl, const struct rep_series *s, int n, struct strbuf *sb,
              int standalone);

/* QuTiBench's whole-model roofline: every platform's ceilings, each model on each platform a point (x = ops per DDR
 * byte of the whole model, y = ops per frame x FPS); colour = platform, marker = model. */
void rp_compare_roofline(const struct nnperf_compare_data *d, struct strbuf *sb, int standalone);

#endif
