/* svg.h - nnperf's SVG writer: the document, text, lines, rectangles, axes with grid and tick labels (linear and
 * logarithmic), colour tables. Coordinates have one decimal, every text is escaped, output depends on nothing but
 * the data. The plots (plots.h) are built on it.
 *
 * Structure the browser test relies on (tests/browser/checks.js): every plot has one <rect class="plot-area"> and
 * draws its data inside it in <g class="data"> groups; every axis is a <g class="axis" data-scale="linear|log">
 * whose <text class="tick"> labels are numbers with an SI prefix ("0.5", "2", "10 k", "1 G"). */
#ifndef NNPERF_REPORT_SVG_H
#define NNPERF_REPORT_SVG_H

#include "fmt.h"

#define REP_FONT "font-family=\"DejaVu Sans,Arial,Helvetica,sans-serif\""

/* A coordinate with one decimal ("12.5"), never "-0"; non-finite values are written as 0. */
void rs_num(struct strbuf *sb, double x);
/* <svg> with a white background; standalone adds the XML namespace (a file of its own). cls: CSS classes. */
void rs_open(struct strbuf *sb, double w, double h, int standalone, const char *cls, const char *title);
void rs_close(struct strbuf *sb);
/* extra: more attributes (may be NULL) */
void rs_text(struct strbuf *sb, double x, double y, const char *anchor, int size, const char *extra,
             const char *s);
void rs_line(struct strbuf *sb, double x1, double y1, double x2, double y2, const char *style);
/* <rect ... fill="fill" with the tag left open: the caller adds attributes and ends it ("/>" or "><title>...") */
void rs_rect_open(struct strbuf *sb, double x, double y, double w, double h, const char *fill);
void rs_rect(struct strbuf *sb, double x, double y, double w, double h, const char *fill);
/* the plot area: <rect class="plot-area"> from (x0, y0) to (x1, y1), no fill */
void rs_plot_area(struct strbuf *sb, double x0, double y0, double x1, double y1);

struct rep_axis {
    double lo, hi; /* data range (log: both > 0) */
    int log;
    double p0, p1; /* pixels of lo and hi */
    double step;   /* tick step (linear), set by ra_nice */
};
/* Widens [lo, hi] to whole decades (log) or to a multiple of a 1-2-5 step giving about n_ticks ticks (linear). */
void ra_nice(struct rep_axis *a, int n_ticks);
/* The pixel of v, clamped to [p0, p1] (a value outside the range is drawn at the edge, never beyond it). */
double ra_px(const struct rep_axis *a, double v);
/* The label of tick v of a linear axis with this step whose largest |value| is big: every label of the axis has the
 * same SI prefix (that of big) and as many decimals as the step needs ("0", "0.5", "1.0", "1.5"; "0", "250 k"). The
 * page script makes the zoomed timeline's labels the same way. */
void rep_tick(char *b, size_t n, double v, double step, double big);
/* Draws an axis whose range is already nice: grid lines from 'at' to 'grid_to' (the other axis' ends), tick
 * labels and the axis label; vertical axes stand at x = at, horizontal ones at y = at. */
void rs_axis(struct strbuf *sb, const struct rep_axis *a, int vertical, double at, double grid_to,
             const char *label);

/* A plot's frame: its heading at the top left, the plot area from (x0, y0) to (x1, y1), both axes (their ranges
 * already nice) with their labels, and the opened <g class="data"> group the caller fills and closes. */
void rs_frame(struct strbuf *sb, double x0, double y0, double x1, double y1, const struct rep_axis *ax,
              const struct rep_axis *ay, const char *heading, const char *xlabel, const char *ylabel);
/* The pixel pair "x,y" of a data point (a polyline's points). */
void rs_xy(struct strbuf *sb, const struct rep_axis *ax, double x, const struct rep_axis *ay, double y);
/* A label rotated to read upwards, centred at (x, y) (a vertical axis' title). */
void rs_vtext(struct strbuf *sb, double x, double y, int size, const char *s);

/* The colour of an operator class ("conv", "matmul", ...) as "#rrggbb"; unknown classes are grey. */
const char *rep_class_color(const char *klass);
/* The i-th of the known classes (NULL past the end) and a ten-colour qualitative palette. */
const char *rep_class_name(int i);
const char *rep_palette(int i);

#endif
