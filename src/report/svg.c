/* svg.c - the SVG writer (svg.h): primitives, axes and colours. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg.h"

void rs_num(struct strbuf *sb, double x)
{
    if (!isfinite(x)) x = 0;
    double r = round(x * 10) / 10;
    if (r == 0) r = 0; /* no -0 */
    if (r == floor(r))
        sb_printf(sb, "%.0f", r);
    else
        sb_printf(sb, "%.1f", r);
}

void rs_open(struct strbuf *sb, double w, double h, int standalone, const char *cls, const char *title)
{
    sb_printf(sb, "<svg%s class=\"%s\" width=\"", standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "",
              cls);
    rs_num(sb, w);
    sb_puts(sb, "\" height=\"");
    rs_num(sb, h);
    sb_puts(sb, "\" viewBox=\"0 0 ");
    rs_num(sb, w);
    sb_putc(sb, ' ');
    rs_num(sb, h);
    sb_puts(sb, "\" " REP_FONT " role=\"img\">\n<title>");
    rep_esc(sb, title);
    sb_puts(sb, "</title>\n");
    rs_rect(sb, 0, 0, w, h, "#ffffff");
}

void rs_close(struct strbuf *sb)
{
    sb_puts(sb, "</svg>\n");
}

void rs_text(struct strbuf *sb, double x, double y, const char *anchor, int size, const char *extra,
             const char *s)
{
    sb_puts(sb, "<text x=\"");
    rs_num(sb, x);
    sb_puts(sb, "\" y=\"");
    rs_num(sb, y);
    sb_printf(sb, "\" font-size=\"%d\" text-anchor=\"%s\"%s%s>", size, anchor, extra ? " " : "",
              extra ? extra : "");
    rep_esc(sb, s);
    sb_puts(sb, "</text>\n");
}

void rs_line(struct strbuf *sb, double x1, double y1, double x2, double y2, const char *style)
{
    sb_puts(sb, "<line x1=\"");
    rs_num(sb, x1);
    sb_puts(sb, "\" y1=\"");
    rs_num(sb, y1);
    sb_puts(sb, "\" x2=\"");
    rs_num(sb, x2);
    sb_puts(sb, "\" y2=\"");
    rs_num(sb, y2);
    sb_printf(sb, "\" %s/>\n", style);
}

void rs_rect_open(struct strbuf *sb, double x, double y, double w, double h, const char *fill)
{
    sb_puts(sb, "<rect x=\"");
    rs_num(sb, x);
    sb_puts(sb, "\" y=\"");
    rs_num(sb, y);
    sb_puts(sb, "\" width=\"");
    rs_num(sb, w);
    sb_puts(sb, "\" height=\"");
    rs_num(sb, h);
    sb_printf(sb, "\" fill=\"%s\"", fill);
}

void rs_rect(struct strbuf *sb, double x, double y, double w, double h, const char *fill)
{
    rs_rect_open(sb, x, y, w, h, fill);
    sb_puts(sb, "/>\n");
}

void rs_plot_area(struct strbuf *sb, double x0, double y0, double x1, double y1)
{
    sb_puts(sb, "<rect class=\"plot-area\" x=\"");
    rs_num(sb, x0);
    sb_puts(sb, "\" y=\"");
    rs_num(sb, y0);
    sb_puts(sb, "\" width=\"");
    rs_num(sb, x1 - x0);
    sb_puts(sb, "\" height=\"");
    rs_num(sb, y1 - y0);
    sb_puts(sb, "\" fill=\"none\"/>\n");
}

/* ---- axes ---- */

void rep_tick(char *b, size_t n, double v, double step, double big)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    if (fabs(v) < step * 1e-9) {
        snprintf(b, n, "0");
        return;
    }
    int i = 0;
    while (big >= 999.5 && i < 6) big /= 1000, i++;
    double unit = pow(1000, i), s = step / unit;
    int d = (int)ceil(-log10(s) - 1e-9);
    if (d < 0) d = 0;
    if (d > 12) d = 12;
    c_snprintf(b, n, "%.*f%s%s", d, v / unit, prefix[i][0] ? " " : "", prefix[i]);
}

void ra_nice(struct rep_axis *a, int n_ticks)
{
    if (n_ticks < 2) n_ticks = 2;
    if (a->log) {
        if (!(a->lo > 0) || !isfinite(a->lo)) a->lo = 1;
        if (!(a->hi > a->lo) || !isfinite(a->hi)) a->hi = a->lo * 10;
        a->lo = pow(10, floor(log10(a->lo) + 1e-9));
        a->hi = pow(10, ceil(log10(a->hi) - 1e-9));
        if (a->hi <= a->lo) a->hi = a->lo * 10;
        a->step = 10;
        return;
    }
    if (!isfinite(a->lo)) a->lo = 0;
    if (!(a->hi > a->lo) || !isfinite(a->hi)) a->hi = a->lo + 1;
    double raw = (a->hi - a->lo) / (n_ticks - 1), mag = pow(10, floor(log10(raw))), f = raw / mag;
    double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    a->lo = floor(a->lo / step + 1e-9) * step;
    a->hi = ceil(a->hi / step - 1e-9) * step;
    a->step = step;
}

double ra_px(const struct rep_axis *a, double v)
{
    double t;
    if (a->log) {
        if (!(v > 0)) v = a->lo;
        t = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    } else {
        t = (v - a->lo) / (a->hi - a->lo);
    }
    if (!isfinite(t)) t = 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    return a->p0 + t * (a->p1 - a->p0);
}

void rs_axis(struct strbuf *sb, const struct rep_axis *a, int vertical, double at, double grid_to,
             const char *label)
{
    sb_printf(sb, "<g class=\"axis %s\" data-scale=\"%s\">\n", vertical ? "y" : "x",
              a->log ? "log" : "linear");
    int n;
    double every = 1; /* log axes over many decades label every second (third...) decade */
    if (a->log) {
        double decades = round(log10(a->hi / a->lo));
        every = decades > 16 ? 3 : decades > 8 ? 2 : 1;
        n = (int)decades + 1;
    } else {
        n = (int)round((a->hi - a->lo) / a->step) + 1;
    }
    if (n > 60) n = 60;
    for (int k = 0; k < n; k++) {
        double v = a->log ? a->lo * pow(10, k) : a->lo + a->step * k;
        if (!a->log && fabs(v) < a->step * 1e-9) v = 0;
        double p = ra_px(a, v);
        if (vertical)
            rs_line(sb, at, p, grid_to, p, "stroke=\"#e3e3e3\"");
        else
            rs_line(sb, p, at, p, grid_to, "stroke=\"#e3e3e3\"");
        if (fmod((double)k, every) != 0) continue;
        char b[48];
        if (a->log)
            rep_si(b, sizeof b, v, "");
        else
            rep_tick(b, sizeof b, v, a->step, fabs(a->lo) > fabs(a->hi) ? fabs(a->lo) : fabs(a->hi));
        if (vertical)
            rs_text(sb, at - 5, p + 4, "end", 11, "class=\"tick\"", b);
        else
            rs_text(sb, p, at + 15, "middle", 11, "class=\"tick\"", b);
    }
    if (vertical) {
        rs_vtext(sb, at - 52, (a->p0 + a->p1) / 2, 12, label);
        rs_line(sb, at, a->p0, at, a->p1, "stroke=\"#555\"");
    } else {
        rs_text(sb, (a->p0 + a->p1) / 2, at + 33, "middle", 12, NULL, label);
        rs_line(sb, a->p0, at, a->p1, at, "stroke=\"#555\"");
    }
    sb_puts(sb, "</g>\n");
}

void rs_frame(struct strbuf *sb, double x0, double y0, double x1, double y1, const struct rep_axis *ax,
              const struct rep_axis *ay, const char *heading, const char *xlabel, const char *ylabel)
{
    rs_text(sb, x0, 22, "start", 14, "font-weight=\"bold\"", heading);
    rs_plot_area(sb, x0, y0, x1, y1);
    rs_axis(sb, ax, 0, y1, y0, xlabel);
    rs_axis(sb, ay, 1, x0, x1, ylabel);
    sb_puts(sb, "<g class=\"data\">\n");
}

void rs_xy(struct strbuf *sb, const struct rep_axis *ax, double x, const struct rep_axis *ay, double y)
{
    rs_num(sb, ra_px(ax, x));
    sb_putc(sb, ',');
    rs_num(sb, ra_px(ay, y));
}

void rs_vtext(struct strbuf *sb, double x, double y, int size, const char *s)
{
    sb_puts(sb, "<text transform=\"translate(");
    rs_num(sb, x);
    sb_putc(sb, ',');
    rs_num(sb, y);
    sb_printf(sb, ") rotate(-90)\" font-size=\"%d\" text-anchor=\"middle\">", size);
    rep_esc(sb, s);
    sb_puts(sb, "</text>\n");
}

/* ---- colours ---- */

static const char *const class_names[] = {
    "conv", "conv_grouped", "gemm",   "matmul",  "attention", "rnn",  "eltwise", "activation",
    "pool", "norm",         "reduce", "softmax", "resize",    "data", "quant",   "conv_depthwise"};
static const char *const class_colors[] = {"#1f77b4", "#17becf", "#9467bd", "#6a3d9a", "#e377c2", "#8c564b",
                                           "#ff7f0e", "#bcbd22", "#2ca02c", "#d62728", "#a05d56", "#f0027f",
                                           "#7f7f00", "#8c8c8c", "#4d9221", "#0b8fa0"};
static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

const char *rep_class_color(const char *klass)
{
    for (size_t i = 0; i < sizeof class_names / sizeof class_names[0]; i++)
        if (klass && !strcmp(klass, class_names[i])) return class_colors[i];
    return "#b0b0b0";
}

const char *rep_class_name(int i)
{
    return i >= 0 && i < (int)(sizeof class_names / sizeof class_names[0]) ? class_names[i] : NULL;
}

const char *rep_palette(int i)
{
    return palette[(i % 10 + 10) % 10];
}
