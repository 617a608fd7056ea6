/* svg.c - nnperf's SVG writer: escaping, fixed-precision numbers, axes (linear and logarithmic) and the plots of
 * the HTML report and `nnperf analyze --plot`: roofline (Williams et al. 2009; QuTiBench, seed 001), timeline Gantt
 * with the compute utilization and load / store bandwidth series (HBDK's temporal statistics, seed 000), memory
 * breakdown, compare heatmap, latency-vs-throughput lines and the accuracy-vs-throughput pareto front. Hover text is
 * SVG <title>, so it works without script. Output depends on nothing but the data: no locale, no clock. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define FONT "font-family=\"DejaVu Sans,Arial,Helvetica,sans-serif\""

void rep_esc(struct strbuf *sb, const char *s)
{
    if (!s) return;
    const char *run = s;
    for (; *s; s++) {
        const char *r = NULL;
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': r = "&amp;"; break;
        case '<': r = "&lt;"; break;
        case '>': r = "&gt;"; break;
        case '"': r = "&quot;"; break;
        case '\'': r = "&#39;"; break;
        default:
            if (c < 0x20 || c == 0x7f) r = " ";
        }
        if (r) {
            sb_putn(sb, run, (size_t)(s - run));
            sb_puts(sb, r);
            run = s + 1;
        }
    }
    sb_putn(sb, run, (size_t)(s - run));
}

void rep_num(struct strbuf *sb, double x)
{
    if (!isfinite(x)) x = 0;
    double r = round(x * 10) / 10;
    if (r == 0) r = 0; /* no -0.0 */
    if (r == floor(r))
        sb_printf(sb, "%.0f", r);
    else
        sb_printf(sb, "%.1f", r);
}

static const char *const class_names[] = {"conv",   "conv_grouped", "gemm",   "matmul", "attention",
                                          "rnn",    "eltwise",      "act",    "pool",   "norm",
                                          "reduce", "softmax",      "resize", "data",   "quant"};
static const char *const class_colors[] = {"#1f77b4", "#17becf", "#9467bd", "#6a3d9a", "#e377c2",
                                           "#8c564b", "#ff7f0e", "#bcbd22", "#2ca02c", "#d62728",
                                           "#a05d56", "#f0027f", "#7f7f00", "#8c8c8c", "#4d9221"};

const char *rep_class_color(const char *klass)
{
    for (size_t i = 0; i < sizeof class_names / sizeof class_names[0]; i++)
        if (klass && !strcmp(klass, class_names[i])) return class_colors[i];
    return "#b0b0b0";
}

/* ---- axes ---- */

struct axis {
    double lo, hi; /* data range (log: both > 0) */
    int log;
    double p0, p1; /* pixels of lo and hi */
};

static double ax_px(const struct axis *a, double v)
{
    double t;
    if (a->log) {
        if (!(v > 0)) v = a->lo;
        t = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    } else {
        t = (v - a->lo) / (a->hi - a->lo);
    }
    if (!isfinite(t)) t = 0;
    if (t < -0.05) t = -0.05;
    if (t > 1.05) t = 1.05;
    return a->p0 + t * (a->p1 - a->p0);
}

/* widens [lo, hi] to whole decades (log) or to a nice step (linear); returns the tick step (linear) */
static double ax_nice(struct axis *a)
{
    if (a->log) {
        if (!(a->lo > 0) || !isfinite(a->lo)) a->lo = 1;
        if (!(a->hi > a->lo) || !isfinite(a->hi)) a->hi = a->lo * 10;
        a->lo = pow(10, floor(log10(a->lo) + 1e-9));
        a->hi = pow(10, ceil(log10(a->hi) - 1e-9));
        if (a->hi <= a->lo) a->hi = a->lo * 10;
        return 10;
    }
    if (!isfinite(a->lo)) a->lo = 0;
    if (!(a->hi > a->lo) || !isfinite(a->hi)) a->hi = a->lo + 1;
    double raw = (a->hi - a->lo) / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;
    double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    a->lo = floor(a->lo / step + 1e-9) * step;
    a->hi = ceil(a->hi / step - 1e-9) * step;
    return step;
}

/* a tick label: 0.001, 0.5, 12, 1.5k, 2G */
static void tick_label(char *b, size_t n, double x)
{
    if (fabs(x) < 1e-12)
        snprintf(b, n, "0");
    else if (fabs(x) < 1)
        snprintf(b, n, "%.3g", x);
    else
        rep_fmt_si(b, n, x);
}

static void text(struct strbuf *sb, double x, double y, const char *anchor, int size, const char *extra,
                 const char *s)
{
    sb_puts(sb, "<text x=\"");
    rep_num(sb, x);
    sb_puts(sb, "\" y=\"");
    rep_num(sb, y);
    sb_printf(sb, "\" font-size=\"%d\" text-anchor=\"%s\"%s%s>", size, anchor, extra ? " " : "",
              extra ? extra : "");
    rep_esc(sb, s);
    sb_puts(sb, "</text>\n");
}

static void line(struct strbuf *sb, double x1, double y1, double x2, double y2, const char *style)
{
    sb_puts(sb, "<line x1=\"");
    rep_num(sb, x1);
    sb_puts(sb, "\" y1=\"");
    rep_num(sb, y1);
    sb_puts(sb, "\" x2=\"");
    rep_num(sb, x2);
    sb_puts(sb, "\" y2=\"");
    rep_num(sb, y2);
    sb_printf(sb, "\" %s/>\n", style);
}

static void rect(struct strbuf *sb, double x, double y, double w, double h, const char *fill)
{
    sb_puts(sb, "<rect x=\"");
    rep_num(sb, x);
    sb_puts(sb, "\" y=\"");
    rep_num(sb, y);
    sb_puts(sb, "\" width=\"");
    rep_num(sb, w);
    sb_puts(sb, "\" height=\"");
    rep_num(sb, h);
    sb_printf(sb, "\" fill=\"%s\"", fill);
}

/* axis with grid lines and tick labels; horizontal axes at y = py, vertical ones at x = px */
static void draw_axis(struct strbuf *sb, struct axis *a, int vertical, double other0, double other1,
                      const char *label, const char *unit_suffix)
{
    double step = ax_nice(a);
    char b[48], lb[64];
    int k = 0;
    for (double v = a->lo; v <= a->hi * (1 + 1e-9) && k < 40; v = a->log ? v * 10 : a->lo + step * ++k) {
        double p = ax_px(a, v);
        tick_label(b, sizeof b, v);
        snprintf(lb, sizeof lb, "%s%s", b, unit_suffix ? unit_suffix : "");
        if (vertical) {
            line(sb, other0, p, other1, p, "stroke=\"#e3e3e3\"");
            text(sb, other0 - 5, p + 4, "end", 11, NULL, lb);
        } else {
            line(sb, p, other0, p, other1, "stroke=\"#e3e3e3\"");
            text(sb, p, other0 + 15, "middle", 11, NULL, lb);
        }
        if (a->log) k++;
    }
    if (vertical) {
        sb_puts(sb, "<text transform=\"translate(");
        rep_num(sb, other0 - 52);
        sb_putc(sb, ',');
        rep_num(sb, (a->p0 + a->p1) / 2);
        sb_puts(sb, ") rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">");
        rep_esc(sb, label);
        sb_puts(sb, "</text>\n");
        line(sb, other0, a->p0, other0, a->p1, "stroke=\"#555\"");
    } else {
        text(sb, (a->p0 + a->p1) / 2, other0 + 33, "middle", 12, NULL, label);
        line(sb, a->p0, other0, a->p1, other0, "stroke=\"#555\"");
    }
}

static void svg_open(struct strbuf *sb, int w, int h, int standalone, const char *cls, const char *title)
{
    sb_printf(sb,
              "<svg%s class=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" " FONT " role=\"img\">\n",
              standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", cls, w, h, w, h);
    sb_puts(sb, "<title>");
    rep_esc(sb, title);
    sb_puts(sb, "</title>\n");
    rect(sb, 0, 0, w, h, "#ffffff");
    sb_puts(sb, "/>\n");
}

/* legend of the operator classes present in p, from x to the right, wrapping at xmax */
static void class_legend(const struct nnperf_prediction *p, struct strbuf *sb, double x, double y,
                         double xmax)
{
    size_t nc = sizeof class_names / sizeof class_names[0];
    int seen[sizeof class_names / sizeof class_names[0] + 1] = {0};
    for (int l = 0; l < p->n_layers; l++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, l, &li);
        if (li.t_total <= 0) continue;
        size_t k = 0;
        while (k < nc && strcmp(li.klass, class_names[k])) k++;
        seen[k] = 1;
    }
    double cx = x;
    for (size_t k = 0; k <= nc; k++) {
        if (!seen[k]) continue;
        const char *nm = k < nc ? class_names[k] : "other";
        double w = 30 + 7.5 * (double)strlen(nm);
        if (cx + w > xmax) cx = x, y += 16;
        rect(sb, cx, y - 9, 10, 10, k < nc ? class_colors[k] : "#b0b0b0");
        sb_puts(sb, "/>\n");
        text(sb, cx + 14, y, "start", 11, NULL, nm);
        cx += w;
    }
}

static void layer_tip(struct strbuf *sb, const struct nnperf_prediction *p,
                      const struct nnperf_layer_info *li)
{
    char t[48], o[32], b[32];
    rep_fmt_time(t, sizeof t, li->t_total);
    rep_fmt_si(o, sizeof o, li->ops);
    rep_fmt_si(b, sizeof b, li->ddr_bytes);
    sb_puts(sb, "<title>");
    rep_esc(sb, li->name);
    sb_puts(sb, " (");
    rep_esc(sb, li->op);
    sb_printf(sb, ", %s)&#10;time %s (%.1f%%), %s-bound&#10;%s ops, %sB DDR, %.3g ops/B</title>", li->klass,
              t, p->latency > 0 ? 100 * li->t_total / p->latency : 0.0, li->fallback ? "fallback" : li->bound,
              o, b, li->intensity);
}

/* ---- roofline ---- */

void rep_svg_roofline(const struct nnperf_prediction *p, struct strbuf *sb, int standalone)
{
    const int W = 900, H = 560;
    const double L = 80, R = 870, T = 40, B = 470;
    double peak, bw;
    nnperf_prediction_ceilings(p, &peak, &bw);
    struct axis ax = {HUGE_VAL, 0, 1, L, R}, ay = {HUGE_VAL, 0, 1, B, T};
    double tmax = 0;
    int n_onchip = 0;
    for (int l = 0; l < p->n_layers; l++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, l, &li);
        if (li.t_total <= 0 || li.aligned_ops <= 0) continue;
        if (li.t_total > tmax) tmax = li.t_total;
        if (li.intensity > 0) {
            if (li.intensity < ax.lo) ax.lo = li.intensity;
            if (li.intensity > ax.hi) ax.hi = li.intensity;
        } else {
            n_onchip++;
        }
        if (li.attained < ay.lo) ay.lo = li.attained;
        if (li.attained > ay.hi) ay.hi = li.attained;
    }
    if (peak > 0) {
        if (peak > ay.hi) ay.hi = peak;
        if (bw > 0) {
            double ridge = peak / bw;
            if (ridge * 4 > ax.hi) ax.hi = ridge * 4;
            if (ridge / 4 < ax.lo) ax.lo = ridge / 4;
        }
    }
    if (!isfinite(ax.lo)) ax.lo = 0.1, ax.hi = 1000;
    if (!isfinite(ay.lo)) ay.lo = peak > 0 ? peak / 1000 : 1e6, ay.hi = peak > 0 ? peak : 1e9;
    if (ay.lo < ay.hi / 1e7) ay.lo = ay.hi / 1e7;
    char title[512];
    snprintf(title, sizeof title, "Roofline of %s on %s", p->an->m->path, p->hw.name);
    svg_open(sb, W, H, standalone, "plot roofline", title);
    text(sb, L, 22, "start", 14, "font-weight=\"bold\"", "Roofline: attained ops/s vs arithmetic intensity");
    draw_axis(sb, &ax, 0, B, T, "arithmetic intensity (ops per DDR byte, log)", NULL);
    draw_axis(sb, &ay, 1, L, R, "attained ops/s (log)", NULL);
    /* ceilings: the bandwidth diagonal up to the ridge, then the compute peak */
    if (peak > 0 && bw > 0) {
        double x0 = ax.lo, ridge = peak / bw, x1 = ax.hi;
        double y0 = bw * x0;
        if (y0 < ay.lo) x0 = ay.lo / bw, y0 = ay.lo;
        sb_puts(sb, "<polyline fill=\"none\" stroke=\"#222\" stroke-width=\"2\" points=\"");
        rep_num(sb, ax_px(&ax, x0));
        sb_putc(sb, ',');
        rep_num(sb, ax_px(&ay, y0));
        sb_putc(sb, ' ');
        rep_num(sb, ax_px(&ax, ridge));
        sb_putc(sb, ',');
        rep_num(sb, ax_px(&ay, peak));
        sb_putc(sb, ' ');
        rep_num(sb, ax_px(&ax, x1));
        sb_putc(sb, ',');
        rep_num(sb, ax_px(&ay, peak));
        sb_puts(sb, "\"><title>ceilings</title></polyline>\n");
        char b1[32], b2[32], lb[128];
        rep_fmt_si(b1, sizeof b1, peak);
        rep_fmt_si(b2, sizeof b2, bw);
        snprintf(lb, sizeof lb, "peak %s ops/s (%s)", b1, hw_dtype_name(p->dtype));
        text(sb, R - 4, ax_px(&ay, peak) - 6, "end", 12, NULL, lb);
        snprintf(lb, sizeof lb, "DDR %s B/s", b2);
        double lv = ridge / 30 > ax.lo && bw * ridge / 30 > ay.lo ? ridge / 30 : ridge;
        double lx = ax_px(&ax, lv) + 10, ly = ax_px(&ay, bw * lv) + 16;
        sb_puts(sb, "<text x=\"");
        rep_num(sb, lx);
        sb_puts(sb, "\" y=\"");
        rep_num(sb, ly);
        sb_puts(sb, "\" font-size=\"12\" text-anchor=\"start\">");
        rep_esc(sb, lb);
        sb_puts(sb, "</text>\n");
    }
    /* layers, biggest first so small points stay visible on top */
    int *idx = malloc((size_t)(p->n_layers > 0 ? p->n_layers : 1) * sizeof *idx);
    int n = 0;
    if (idx) {
        for (int l = 0; l < p->n_layers; l++) {
            struct nnperf_layer_info li;
            nnperf_prediction_layer(p, l, &li);
            if (li.t_total > 0 && li.aligned_ops > 0) idx[n++] = l;
        }
        for (int i = 1; i < n; i++) { /* insertion sort by time, descending, stable */
            int v = idx[i], j = i;
            while (j > 0 && p->layers[idx[j - 1]].t_total < p->layers[v].t_total) idx[j] = idx[j - 1], j--;
            idx[j] = v;
        }
    }
    sb_puts(sb, "<g class=\"pts\" fill-opacity=\"0.75\" stroke=\"#333\" stroke-width=\"0.5\">\n");
    for (int i = 0; i < n; i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, idx[i], &li);
        double x = li.intensity > 0 ? ax_px(&ax, li.intensity) : R - 6;
        double r = 2.5 + 11 * sqrt(tmax > 0 ? li.t_total / tmax : 0);
        sb_puts(sb, "<circle cx=\"");
        rep_num(sb, x);
        sb_puts(sb, "\" cy=\"");
        rep_num(sb, ax_px(&ay, li.attained));
        sb_puts(sb, "\" r=\"");
        rep_num(sb, r);
        sb_printf(sb, "\" fill=\"%s\"%s>", rep_class_color(li.klass),
                  li.intensity > 0 ? "" : " stroke-dasharray=\"2 1\"");
        layer_tip(sb, p, &li);
        sb_puts(sb, "</circle>\n");
    }
    sb_puts(sb, "</g>\n");
    free(idx);
    char note[160];
    if (n_onchip)
        snprintf(note, sizeof note,
                 "point area ~ layer time; %d layer%s without DDR traffic drawn at the right edge (dashed)",
                 n_onchip, n_onchip == 1 ? "" : "s");
    else
        snprintf(note, sizeof note, "point area ~ layer time");
    class_legend(p, sb, L, B + 58, R);
    text(sb, L, H - 8, "start", 11, "fill=\"#555\"", note);
    sb_puts(sb, "</svg>\n");
}

/* ---- timeline ---- */

static void series(struct strbuf *sb, const struct nnperf_prediction *p, const struct axis *ax,
                   const struct axis *ay, int which, const char *color, const char *name)
{
    sb_printf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", color);
    for (int i = 0; i < p->n_iv; i++) {
        double v = which == 0   ? p->iv[i].util * 100
                   : which == 1 ? p->iv[i].load_bw / 1e9
                                : p->iv[i].store_bw / 1e9;
        double t0 = i * p->interval_s, t1 = (i + 1) * p->interval_s;
        if (t1 > p->latency && p->latency > 0) t1 = p->latency;
        if (i) sb_putc(sb, ' ');
        rep_num(sb, ax_px(ax, t0));
        sb_putc(sb, ',');
        rep_num(sb, ax_px(ay, v));
        sb_putc(sb, ' ');
        rep_num(sb, ax_px(ax, t1));
        sb_putc(sb, ',');
        rep_num(sb, ax_px(ay, v));
    }
    sb_puts(sb, "\"><title>");
    rep_esc(sb, name);
    sb_puts(sb, "</title></polyline>\n");
}

void rep_svg_timeline(const struct nnperf_prediction *p, struct strbuf *sb, int standalone)
{
    int n = 0;
    for (int l = 0; l < p->n_layers; l++)
        if (p->layers[l].t_total > 0) n++;
    const double L = 80, R = 870;
    double rowh = n ? 600.0 / n : 12;
    if (rowh > 14) rowh = 14;
    if (rowh < 1.2) rowh = 1.2;
    double g0 = 40, g1 = g0 + rowh * (n ? n : 1);
    double u0 = g1 + 60, u1 = u0 + 110, b0 = u1 + 60, b1 = b0 + 130;
    int W = 900, H = (int)ceil(b1 + 75);
    double scale = p->latency >= 1e-3 ? 1e3 : 1e6;
    const char *unit = p->latency >= 1e-3 ? "ms" : "us";
    struct axis ax = {0, p->latency > 0 ? p->latency * scale : 1, 0, L, R};
    ax_nice(&ax);
    ax.lo /= scale, ax.hi /= scale;
    char title[512], lb[96];
    snprintf(title, sizeof title, "Timeline of %s on %s", p->an->m->path, p->hw.name);
    svg_open(sb, W, H, standalone, "plot timeline", title);
    text(sb, L, 22, "start", 14, "font-weight=\"bold\"",
         "Layer active periods (execution order, top to bottom)");
    /* time axis drawn under each panel, in display units */
    struct axis axd = {ax.lo * scale, ax.hi * scale, 0, L, R};
    snprintf(lb, sizeof lb, "time (%s)", unit);
    draw_axis(sb, &axd, 0, g1, g0, lb, NULL);
    sb_puts(sb, "<g class=\"bars\">\n");
    int row = 0;
    for (int l = 0; l < p->n_layers; l++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, l, &li);
        if (li.t_total <= 0) continue;
        double x0 = ax_px(&ax, li.start), x1 = ax_px(&ax, li.end);
        if (x1 - x0 < 1) x1 = x0 + 1;
        rect(sb, x0, g0 + row * rowh, x1 - x0, rowh > 2 ? rowh - 0.6 : rowh, rep_class_color(li.klass));
        sb_putc(sb, '>');
        layer_tip(sb, p, &li);
        sb_puts(sb, "</rect>\n");
        row++;
    }
    sb_puts(sb, "</g>\n");
    text(sb, L, u0 - 12, "start", 13, "font-weight=\"bold\"", "Compute utilization per interval");
    struct axis au = {0, 100, 0, u1, u0};
    draw_axis(sb, &axd, 0, u1, u0, lb, NULL);
    draw_axis(sb, &au, 1, L, R, "utilization (%)", NULL);
    series(sb, p, &ax, &au, 0, "#1f77b4", "compute utilization (%)");
    double bmax = 0;
    for (int i = 0; i < p->n_iv; i++) {
        if (p->iv[i].load_bw > bmax) bmax = p->iv[i].load_bw;
        if (p->iv[i].store_bw > bmax) bmax = p->iv[i].store_bw;
    }
    text(sb, L, b0 - 12, "start", 13, "font-weight=\"bold\"", "DDR bandwidth per interval");
    struct axis ab = {0, bmax > 0 ? bmax / 1e9 : 1, 0, b1, b0};
    draw_axis(sb, &axd, 0, b1, b0, lb, NULL);
    draw_axis(sb, &ab, 1, L, R, "GB/s", NULL);
    series(sb, p, &ax, &ab, 1, "#2ca02c", "load bandwidth (GB/s)");
    series(sb, p, &ax, &ab, 2, "#d62728", "store bandwidth (GB/s)");
    double ly = H - 12.0;
    line(sb, L, ly - 4, L + 20, ly - 4, "stroke=\"#2ca02c\" stroke-width=\"2\"");
    text(sb, L + 24, ly, "start", 11, NULL, "load");
    line(sb, L + 70, ly - 4, L + 90, ly - 4, "stroke=\"#d62728\" stroke-width=\"2\"");
    text(sb, L + 94, ly, "start", 11, NULL, "store");
    snprintf(lb, sizeof lb, "interval %.3g ms", p->interval_s * 1e3);
    text(sb, R, ly, "end", 11, "fill=\"#555\"", lb);
    sb_puts(sb, "</svg>\n");
}

/* ---- memory breakdown ---- */

#define MEM_MAX_BARS 80

void rep_svg_memory(const struct nnperf_prediction *p, struct strbuf *sb, int standalone)
{
    int *idx = malloc((size_t)(p->n_layers > 0 ? p->n_layers : 1) * sizeof *idx);
    int n = 0;
    double tot[3] = {0, 0, 0};
    for (int l = 0; l < p->n_layers && idx; l++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, l, &li);
        tot[0] += li.weight_bytes, tot[1] += li.load_bytes + li.store_bytes, tot[2] += li.spill_bytes;
        if (li.ddr_bytes > 0) idx[n++] = l;
    }
    int shown = n;
    if (n > MEM_MAX_BARS) { /* keep the heaviest, shown in execution order */
        double *key = malloc((size_t)n * sizeof *key);
        if (key) {
            for (int i = 0; i < n; i++) {
                struct nnperf_layer_info li;
                nnperf_prediction_layer(p, idx[i], &li);
                key[i] = li.ddr_bytes;
            }
            double *sorted = malloc((size_t)n * sizeof *sorted);
            if (sorted) {
                memcpy(sorted, key, (size_t)n * sizeof *sorted);
                for (int i = 1; i < n; i++) { /* descending */
                    double v = sorted[i];
                    int j = i;
                    while (j > 0 && sorted[j - 1] < v) sorted[j] = sorted[j - 1], j--;
                    sorted[j] = v;
                }
                double cut = sorted[MEM_MAX_BARS - 1];
                int k = 0, above = 0;
                for (int i = 0; i < n; i++) above += key[i] > cut;
                int ties = MEM_MAX_BARS - above;
                for (int i = 0; i < n; i++)
                    if (key[i] > cut || (key[i] == cut && ties-- > 0)) idx[k++] = idx[i];
                shown = k;
                free(sorted);
            }
            free(key);
        }
    }
    const double L = 80, R = 870, T = 50, B = 380;
    int W = 900, H = 500;
    double ymax = 0;
    for (int i = 0; i < shown; i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, idx[i], &li);
        if (li.ddr_bytes > ymax) ymax = li.ddr_bytes;
    }
    char title[512], lb[256], a[3][32];
    snprintf(title, sizeof title, "DDR bytes per layer of %s on %s", p->an->m->path, p->hw.name);
    svg_open(sb, W, H, standalone, "plot memory", title);
    text(sb, L, 22, "start", 14, "font-weight=\"bold\"", "Where the DDR bytes go, per layer (per run)");
    for (int k = 0; k < 3; k++) rep_fmt_si(a[k], sizeof a[k], tot[k]);
    snprintf(lb, sizeof lb, "total: weights %s B, activations %s B, spills %s B", a[0], a[1], a[2]);
    text(sb, L, 40, "start", 12, "fill=\"#333\"", lb);
    struct axis ay = {0, ymax > 0 ? ymax : 1, 0, B, T};
    draw_axis(sb, &ay, 1, L, R, "bytes", NULL);
    line(sb, L, B, R, B, "stroke=\"#555\"");
    const char *cols[3] = {"#4e79a7", "#f28e2b", "#e15759"};
    const char *names[3] = {"weights", "activations (load + store)", "spills"};
    double slot = shown ? (R - L) / shown : R - L, bw = slot * 0.8;
    sb_puts(sb, "<g class=\"bars\">\n");
    for (int i = 0; i < shown; i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, idx[i], &li);
        double v[3] = {li.weight_bytes, li.load_bytes + li.store_bytes, li.spill_bytes};
        double x = L + i * slot + (slot - bw) / 2, acc = 0;
        sb_puts(sb, "<g>");
        for (int k = 0; k < 3; k++) {
            if (v[k] <= 0) continue;
            double y0 = ax_px(&ay, acc), y1 = ax_px(&ay, acc + v[k]);
            rect(sb, x, y1, bw, y0 - y1, cols[k]);
            sb_puts(sb, "/>");
            acc += v[k];
        }
        for (int k = 0; k < 3; k++) rep_fmt_si(a[k], sizeof a[k], v[k]);
        sb_puts(sb, "<title>");
        rep_esc(sb, li.name);
        sb_puts(sb, " (");
        rep_esc(sb, li.op);
        sb_printf(sb, ")&#10;weights %sB, activations %sB, spills %sB</title></g>\n", a[0], a[1], a[2]);
    }
    sb_puts(sb, "</g>\n");
    if (shown < n)
        snprintf(lb, sizeof lb, "the %d layers with most DDR traffic of %d, in execution order", shown, n);
    else
        snprintf(lb, sizeof lb, "%d layers with DDR traffic, in execution order", n);
    text(sb, (L + R) / 2, B + 20, "middle", 12, NULL, lb);
    for (int k = 0; k < 3; k++) {
        double x = L + k * 200.0;
        rect(sb, x, H - 40, 12, 12, cols[k]);
        sb_puts(sb, "/>\n");
        text(sb, x + 17, H - 30, "start", 12, NULL, names[k]);
    }
    sb_puts(sb, "</svg>\n");
    free(idx);
}

/* ---- compare: heatmap ---- */

/* a 5-stop sequential scale (light yellow -> dark blue), t in [0,1] */
static void heat_color(double t, char *b, size_t n, int *dark)
{
    static const int stops[5][3] = {
        {255, 247, 188}, {161, 218, 180}, {65, 182, 196}, {34, 94, 168}, {12, 44, 132}};
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    double s = t * 4;
    int i = (int)floor(s);
    if (i > 3) i = 3;
    double f = s - i;
    int c[3];
    for (int k = 0; k < 3; k++) c[k] = (int)lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k]));
    snprintf(b, n, "#%02x%02x%02x", c[0], c[1], c[2]);
    *dark = t > 0.55;
}

void rep_svg_heatmap(const struct rep_heat *h, struct strbuf *sb, int standalone)
{
    size_t rl = 8, cl = 4;
    for (int r = 0; r < h->rows; r++)
        if (strlen(h->row_names[r]) > rl) rl = strlen(h->row_names[r]);
    for (int c = 0; c < h->cols; c++)
        if (strlen(h->col_names[c]) > cl) cl = strlen(h->col_names[c]);
    if (rl > 40) rl = 40;
    if (cl > 28) cl = 28;
    double L = 20 + 7.5 * (double)rl, cw = 110, ch = 32, T = 40 + 4.0 * (double)cl;
    int W = (int)ceil(L + cw * h->cols + 6.5 * (double)cl), H = (int)ceil(T + ch * h->rows + 60);
    double lo = HUGE_VAL, hi = 0;
    for (int i = 0; i < h->rows * h->cols; i++)
        if (h->v[i] > 0 && isfinite(h->v[i])) {
            if (h->v[i] < lo) lo = h->v[i];
            if (h->v[i] > hi) hi = h->v[i];
        }
    svg_open(sb, W, H, standalone, "plot heatmap", h->unit);
    char b[64], col[16];
    snprintf(b, sizeof b, "%s per model and platform (log colour scale)", h->unit);
    text(sb, 10, 20, "start", 14, "font-weight=\"bold\"", b);
    for (int c = 0; c < h->cols; c++) {
        double x = L + cw * c + cw / 2, y = T - 8;
        sb_puts(sb, "<text transform=\"translate(");
        rep_num(sb, x);
        sb_putc(sb, ',');
        rep_num(sb, y);
        sb_puts(sb, ") rotate(-30)\" font-size=\"12\" text-anchor=\"start\">");
        rep_esc(sb, h->col_names[c]);
        sb_puts(sb, "</text>\n");
    }
    for (int r = 0; r < h->rows; r++) {
        text(sb, L - 8, T + ch * r + ch / 2 + 4, "end", 12, NULL, h->row_names[r]);
        for (int c = 0; c < h->cols; c++) {
            double v = h->v[r * h->cols + c];
            int dark = 0;
            int ok = v > 0 && isfinite(v);
            if (ok) {
                double t = hi > lo ? (log(v) - log(lo)) / (log(hi) - log(lo)) : 0.5;
                heat_color(t, col, sizeof col, &dark);
            } else {
                snprintf(col, sizeof col, "#eeeeee");
            }
            rect(sb, L + cw * c + 1, T + ch * r + 1, cw - 2, ch - 2, col);
            sb_puts(sb, "><title>");
            rep_esc(sb, h->row_names[r]);
            sb_puts(sb, " on ");
            rep_esc(sb, h->col_names[c]);
            if (ok)
                sb_printf(sb, ": %.2f %s", v, h->unit);
            else
                sb_puts(sb, ": n/a");
            sb_puts(sb, "</title></rect>\n");
            if (ok)
                snprintf(b, sizeof b, v >= 100 ? "%.0f" : "%.2f", v);
            else
                snprintf(b, sizeof b, "n/a");
            text(sb, L + cw * c + cw / 2, T + ch * r + ch / 2 + 4, "middle", 12,
                 dark ? "fill=\"#ffffff\" pointer-events=\"none\"" : "fill=\"#222\" pointer-events=\"none\"",
                 b);
        }
    }
    /* colour bar */
    double y = T + ch * h->rows + 20;
    for (int i = 0; i < 20; i++) {
        int dark;
        heat_color(i / 19.0, col, sizeof col, &dark);
        rect(sb, L + i * 10.0, y, 10, 10, col);
        sb_puts(sb, "/>");
    }
    sb_putc(sb, '\n');
    if (hi > 0) {
        char lo_s[32], hi_s[32], lb[96];
        rep_fmt_si(lo_s, sizeof lo_s, lo);
        rep_fmt_si(hi_s, sizeof hi_s, hi);
        snprintf(lb, sizeof lb, "%s ... %s %s", lo_s, hi_s, h->unit);
        text(sb, L + 210, y + 10, "start", 11, NULL, lb);
    }
    sb_puts(sb, "</svg>\n");
}

/* ---- lines and pareto fronts ---- */

static const char *const series_colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                            "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static int pt_ok(const struct rep_plot *pl, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!pl->xlog || x > 0) && (!pl->ylog || y > 0);
}

void rep_svg_lines(const struct rep_plot *pl, const struct rep_series *s, int n, struct strbuf *sb,
                   int standalone)
{
    const double L = 80, R = 640, T = 40, B = 330;
    int W = 860, H = 390;
    struct axis ax = {HUGE_VAL, -HUGE_VAL, pl->xlog, L, R}, ay = {HUGE_VAL, -HUGE_VAL, pl->ylog, B, T};
    for (int k = 0; k < n; k++)
        for (int i = 0; i < s[k].n; i++) {
            double x = s[k].x[i], y = s[k].y[i];
            if (!pt_ok(pl, x, y)) continue;
            if (x < ax.lo) ax.lo = x;
            if (x > ax.hi) ax.hi = x;
            if (y < ay.lo) ay.lo = y;
            if (y > ay.hi) ay.hi = y;
        }
    if (!isfinite(ax.lo)) ax.lo = pl->xlog ? 1 : 0, ax.hi = ax.lo * 10 + 1;
    if (!isfinite(ay.lo)) ay.lo = pl->ylog ? 1 : 0, ay.hi = ay.lo * 10 + 1;
    if (!pl->ylog && !pl->pareto && ay.lo > 0) ay.lo = 0;
    if (ax.hi <= ax.lo) ax.hi = pl->xlog ? ax.lo * 10 : ax.lo + 1;
    if (ay.hi <= ay.lo) ay.hi = pl->ylog ? ay.lo * 10 : ay.lo + 1;
    svg_open(sb, W, H, standalone, pl->pareto ? "plot pareto" : "plot lines", pl->title);
    double placed[256]
                 [3]; /* pareto labels drawn so far: x, y, width (a label that would overlap is left out) */
    int n_placed = 0;
    text(sb, L, 22, "start", 14, "font-weight=\"bold\"", pl->title);
    draw_axis(sb, &ax, 0, B, T, pl->xlabel, NULL);
    draw_axis(sb, &ay, 1, L, R, pl->ylabel, NULL);
    for (int k = 0; k < n; k++) {
        const char *c = series_colors[k % 10];
        const char *dash = k >= 10 ? " stroke-dasharray=\"5 3\"" : "";
        int *ord = malloc((size_t)(s[k].n > 0 ? s[k].n : 1) * sizeof *ord);
        int m = 0;
        if (!ord) continue;
        for (int i = 0; i < s[k].n; i++)
            if (pt_ok(pl, s[k].x[i], s[k].y[i])) ord[m++] = i;
        if (pl->pareto) { /* front: sort by x descending, keep points whose y beats every point to their right */
            for (int i = 1; i < m; i++) {
                int v = ord[i], j = i;
                while (j > 0 && s[k].x[ord[j - 1]] < s[k].x[v]) ord[j] = ord[j - 1], j--;
                ord[j] = v;
            }
            int f = 0;
            double best = -HUGE_VAL;
            for (int i = 0; i < m; i++)
                if (s[k].y[ord[i]] > best) best = s[k].y[ord[i]], ord[f++] = ord[i];
            sb_printf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"", c, dash);
            for (int i = 0; i < f; i++) {
                if (i) { /* staircase */
                    sb_putc(sb, ' ');
                    rep_num(sb, ax_px(&ax, s[k].x[ord[i]]));
                    sb_putc(sb, ',');
                    rep_num(sb, ax_px(&ay, s[k].y[ord[i - 1]]));
                    sb_putc(sb, ' ');
                }
                rep_num(sb, ax_px(&ax, s[k].x[ord[i]]));
                sb_putc(sb, ',');
                rep_num(sb, ax_px(&ay, s[k].y[ord[i]]));
            }
            sb_puts(sb, "\"><title>pareto front: ");
            rep_esc(sb, s[k].name);
            sb_puts(sb, "</title></polyline>\n");
            m = 0;
            for (int i = 0; i < s[k].n; i++)
                if (pt_ok(pl, s[k].x[i], s[k].y[i])) ord[m++] = i;
        } else if (m > 1) {
            sb_printf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", c, dash);
            for (int i = 0; i < m; i++) {
                if (i) sb_putc(sb, ' ');
                rep_num(sb, ax_px(&ax, s[k].x[ord[i]]));
                sb_putc(sb, ',');
                rep_num(sb, ax_px(&ay, s[k].y[ord[i]]));
            }
            sb_puts(sb, "\"><title>");
            rep_esc(sb, s[k].name);
            sb_puts(sb, "</title></polyline>\n");
        }
        for (int i = 0; i < m; i++) {
            int j = ord[i];
            sb_puts(sb, "<circle cx=\"");
            rep_num(sb, ax_px(&ax, s[k].x[j]));
            sb_puts(sb, "\" cy=\"");
            rep_num(sb, ax_px(&ay, s[k].y[j]));
            sb_printf(sb, "\" r=\"%s\" fill=\"%s\" stroke=\"#fff\"><title>", pl->pareto ? "5" : "3.5", c);
            rep_esc(sb, s[k].name);
            if (s[k].labels && s[k].labels[j]) {
                sb_puts(sb, ", ");
                rep_esc(sb, s[k].labels[j]);
            }
            char xb[32], yb[32];
            snprintf(xb, sizeof xb, "%.4g", s[k].x[j]);
            snprintf(yb, sizeof yb, "%.4g", s[k].y[j]);
            sb_printf(sb, ": %s, %s</title></circle>\n", xb, yb);
            double lx = ax_px(&ax, s[k].x[j]) + 7, ly = ax_px(&ay, s[k].y[j]) - 5;
            int clash = 0;
            if (pl->pareto && s[k].labels && s[k].labels[j]) {
                double lw = 6.0 * (double)strlen(s[k].labels[j]);
                for (int q = 0; q < n_placed && !clash; q++)
                    clash = fabs(placed[q][1] - ly) < 11 && lx < placed[q][0] + placed[q][2] &&
                            placed[q][0] < lx + lw;
                if (!clash && n_placed < 256)
                    placed[n_placed][0] = lx, placed[n_placed][1] = ly, placed[n_placed++][2] = lw;
            }
            if (pl->pareto && s[k].labels && s[k].labels[j] && !clash) {
                sb_puts(sb, "<text x=\"");
                rep_num(sb, ax_px(&ax, s[k].x[j]) + 7);
                sb_puts(sb, "\" y=\"");
                rep_num(sb, ax_px(&ay, s[k].y[j]) - 5);
                sb_puts(sb, "\" font-size=\"10\" fill=\"#444\">");
                rep_esc(sb, s[k].labels[j]);
                sb_puts(sb, "</text>\n");
            }
        }
        free(ord);
    }
    /* legend on the right */
    for (int k = 0; k < n && k < 20; k++) {
        double y = T + 8 + k * 18.0;
        sb_puts(sb, "<g color=\"");
        sb_puts(sb, series_colors[k % 10]);
        sb_puts(sb, "\">");
        line(sb, R + 20, y - 4, R + 40, y - 4,
             k >= 10 ? "stroke-width=\"3\" stroke-dasharray=\"5 3\" stroke=\"currentColor\""
                     : "stroke-width=\"3\" stroke=\"currentColor\"");
        sb_puts(sb, "</g>");
        text(sb, R + 46, y, "start", 11, NULL, s[k].name);
    }
    if (n > 20) text(sb, R + 20, T + 8 + 20 * 18.0, "start", 11, "fill=\"#555\"", "(more in the table)");
    sb_puts(sb, "</svg>\n");
}
