/* plot_timeline.c - the timeline of one run as Horizon's hb_perf draws it ([HB-PERF]): for every unit (the
 * accelerator and, when layers fall back, the fallback unit) a compute lane, a DDR-load lane and a DDR-store lane
 * showing when each layer keeps them busy (from nnperf_prediction_layer_busy), the heaviest layers in colour and in
 * a legend, every layer's name on hover; under them the compute utilization and the DDR load / store bandwidth per
 * interval with the DDR ceiling. The height is fixed whatever the number of layers; in the HTML page the time axis
 * zooms (buttons, ctrl + wheel) and scrolls, the page script rescaling the data group and making the ticks again
 * (html.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots.h"

#define TL_W     1160.0
#define TL_L     170.0
#define TL_R     (TL_W - 24.0)
#define LANE_H   16.0
#define LANE_GAP 3.0
#define N_HEAVY  10 /* layers named in the legend */
#define MAX_ZOOM 100.0
#define TICK_PX  90.0 /* about one time tick per this many pixels (the page script uses the same) */

static const char *const lane_names[4] = {"compute", "DDR load", "DDR store", "other"};
/* colours of the layers that are not among the heaviest: two shades per lane, alternating, so that neighbouring
 * layers stay apart */
static const char *const lane_shade[4][2] = {
    {"#9ecae1", "#c6dbef"}, {"#a1d99b", "#c7e9c0"}, {"#fdae6b", "#fdd0a2"}, {"#bdbdbd", "#d9d9d9"}};

struct tl {
    const struct rep_view *v;
    struct rep_axis ax; /* time in seconds over [TL_L, TL_R] */
    double scale;       /* seconds -> display unit */
    const char *unit;
    int units;           /* 1 or 2 (with the fallback unit) */
    double lane_y[2][3]; /* top of each lane */
    double lanes_top, lanes_bottom;
    int heavy_rank[N_HEAVY];
};

/* the time axis' ticks and grid (made again by the page script when zooming) */
static void time_ticks(struct strbuf *sb, const struct tl *t, double y, double grid_top)
{
    struct rep_axis a = {t->ax.lo * t->scale, t->ax.hi * t->scale, 0, TL_L, TL_R, t->ax.step * t->scale};
    char b[48];
    sb_puts(sb, "<g class=\"axis x tl-ticks\" data-scale=\"linear\" data-y=\"");
    rs_num(sb, y);
    sb_puts(sb, "\" data-g0=\"");
    rs_num(sb, grid_top);
    sb_puts(sb, "\">\n");
    int n = (int)round((a.hi - a.lo) / a.step) + 1;
    for (int k = 0; k < n && k < 400; k++) {
        double val = a.lo + a.step * k, x = ra_px(&a, val);
        rs_line(sb, x, grid_top, x, y, "stroke=\"#e3e3e3\"");
        rep_tick(b, sizeof b, val, a.step, a.hi);
        rs_text(sb, x, y + 15, "middle", 11, "class=\"tick\"", b);
    }
    sb_puts(sb, "</g>\n");
}

/* a linear y axis of a panel: grid lines into the zoomed group (zoomed = 1), labels into the fixed one */
static void y_axis(struct strbuf *sb, const struct rep_axis *a, int zoomed, const char *label)
{
    int n = (int)round((a->hi - a->lo) / a->step) + 1;
    if (zoomed) {
        for (int k = 0; k < n && k < 60; k++) {
            double y = ra_px(a, a->lo + a->step * k);
            rs_line(sb, TL_L, y, TL_R, y, "stroke=\"#e3e3e3\"");
        }
        return;
    }
    sb_puts(sb, "<g class=\"axis y\" data-scale=\"linear\">\n");
    char b[48];
    for (int k = 0; k < n && k < 60; k++) {
        double val = a->lo + a->step * k;
        rep_tick(b, sizeof b, val, a->step, a->hi);
        rs_text(sb, TL_L - 6, ra_px(a, val) + 4, "end", 11, "class=\"tick\"", b);
    }
    rs_vtext(sb, TL_L - 52, (a->p0 + a->p1) / 2, 11, label);
    rs_line(sb, TL_L, a->p0, TL_L, a->p1, "stroke=\"#555\"");
    sb_puts(sb, "</g>\n");
}

static int heavy_rank(const struct tl *t, int layer)
{
    for (int i = 0; i < N_HEAVY; i++)
        if (t->heavy_rank[i] == layer) return i;
    return -1;
}

/* one layer's busy periods on the lanes, in a group whose title names it */
static int draw_layer(struct strbuf *sb, const struct tl *t, const struct rep_layer *Ly, int nth)
{
    struct nnperf_busy b[8];
    int nb = nnperf_prediction_layer_busy(t->v->p, Ly->index, b, 8);
    if (nb > 8) nb = 8;
    if (nb <= 0) return 0;
    int hr = heavy_rank(t, Ly->index);
    char tm[48], pc[16], st[48], en[48];
    rep_time(tm, sizeof tm, Ly->li.t_total);
    rep_pct(pc, sizeof pc, Ly->share);
    rep_time(st, sizeof st, Ly->li.start);
    rep_time(en, sizeof en, Ly->li.end);
    sb_printf(sb, "<g data-l=\"%d\"><title>", Ly->index);
    if (hr >= 0) sb_printf(sb, "#%d heaviest: ", hr + 1);
    rep_esc(sb, Ly->li.name);
    sb_puts(sb, " (");
    rep_esc(sb, Ly->li.op);
    sb_printf(sb, ")&#10;%s (%s), %s to %s, %s-bound", tm, pc, st, en, rep_layer_bound(Ly));
    for (int k = 0; k < nb; k++) {
        char d[48];
        rep_time(d, sizeof d, b[k].end - b[k].start);
        sb_printf(sb, "&#10;%s %s", lane_names[b[k].lane], d);
    }
    sb_puts(sb, "</title>");
    for (int k = 0; k < nb; k++) {
        int unit = b[k].unit > 0 && t->units > 1 ? 1 : 0;
        int lane = b[k].lane == NNPERF_LANE_OTHER ? 0 : b[k].lane;
        double x0 = ra_px(&t->ax, b[k].start), x1 = ra_px(&t->ax, b[k].end);
        if (x1 - x0 < 0.3) x1 = x0 + 0.3 <= TL_R ? x0 + 0.3 : TL_R, x0 = x1 - 0.3;
        const char *fill =
            hr >= 0 && b[k].lane != NNPERF_LANE_OTHER ? rep_palette(hr) : lane_shade[b[k].lane][nth & 1];
        double y = t->lane_y[unit][lane], h = LANE_H;
        if (b[k].lane == NNPERF_LANE_OTHER) y += LANE_H * 0.35, h = LANE_H * 0.3; /* a thin bar: overhead */
        rs_rect(sb, x0, y, x1 - x0, h, fill);
    }
    sb_puts(sb, "</g>\n");
    return 1;
}

static void series(struct strbuf *sb, const struct tl *t, const struct rep_axis *ay, int which,
                   const char *color, const char *name)
{
    int n = nnperf_prediction_interval_count(t->v->p);
    if (n <= 0) return;
    sb_printf(
        sb,
        "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" vector-effect=\"non-scaling-stroke\" "
        "points=\"",
        color);
    for (int i = 0; i < n; i++) {
        struct nnperf_interval iv;
        nnperf_prediction_interval(t->v->p, i, &iv);
        double val = which == 0   ? iv.utilization * 100
                     : which == 1 ? iv.load_bandwidth / 1e9
                                  : iv.store_bandwidth / 1e9;
        if (i) sb_putc(sb, ' ');
        rs_xy(sb, &t->ax, iv.start, ay, val);
        sb_putc(sb, ' ');
        rs_xy(sb, &t->ax, iv.end, ay, val);
    }
    sb_puts(sb, "\"><title>");
    rep_esc(sb, name);
    sb_puts(sb, "</title></polyline>\n");
}

void rp_timeline(const struct rep_view *v, struct strbuf *sb, int standalone)
{
    struct tl t;
    memset(&t, 0, sizeof t);
    t.v = v;
    double lat = v->s.latency_s;
    t.scale = lat >= 1e-3 ? 1e3 : 1e6;
    t.unit = lat >= 1e-3 ? "ms" : "us";
    int fb = 0;
    for (int i = 0; i < v->n && !fb; i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(v->p, i, &li);
        fb = v->shown[i] && li.fallback;
    }
    t.units = fb ? 2 : 1;
    for (int i = 0; i < N_HEAVY; i++) {
        t.heavy_rank[i] = -1;
        if (i >= v->n_shown) continue;
        struct nnperf_layer_info li;
        nnperf_prediction_layer(v->p, v->by_time[i], &li);
        if (li.t_total > 0) t.heavy_rank[i] = v->by_time[i];
    }
    /* time axis: nice ticks in display units over [0, latency] */
    struct rep_axis disp = {0, lat > 0 ? lat * t.scale : 1, 0, TL_L, TL_R, 0};
    ra_nice(&disp, (int)((TL_R - TL_L) / TICK_PX));
    t.ax = (struct rep_axis){disp.lo / t.scale, disp.hi / t.scale, 0, TL_L, TL_R, disp.step / t.scale};
    /* layout, top to bottom */
    double y = 40; /* at most one screen high at 1024 x 768 with two units (tests/browser) */
    t.lanes_top = y;
    for (int u = 0; u < t.units; u++) {
        y += 15; /* the unit's name */
        for (int l = 0; l < 3; l++) t.lane_y[u][l] = y, y += LANE_H + LANE_GAP;
        y += 6;
    }
    t.lanes_bottom = y - 6;
    double ax1 = t.lanes_bottom + 6, u0 = ax1 + 44, u1 = u0 + 64, ax2 = u1 + 6, b0 = ax2 + 44, b1 = b0 + 80,
           ax3 = b1 + 6, leg = ax3 + 46;
    int rows = (N_HEAVY + 2) / 3; /* the legend in three columns */
    double H = leg + 18.0 * rows + 42;
    /* the shortest drawn layer is a few pixels wide at the largest zoom */
    double tmin = HUGE_VAL;
    for (int s = 0; s < v->n_shown; s++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(v->p, v->by_time[s], &li);
        double d = li.t_total;
        if (d > 0 && d < tmin) tmin = d;
    }
    double span = t.ax.hi - t.ax.lo, zmax = 1;
    if (isfinite(tmin) && span > 0) zmax = 6.0 / ((TL_R - TL_L) * tmin / span);
    if (zmax < 1) zmax = 1;
    if (zmax > MAX_ZOOM) zmax = MAX_ZOOM;
    int drawn = 0;
    for (int i = 0; i < v->n; i++) {
        struct nnperf_busy b[8];
        drawn += v->shown[i] && nnperf_prediction_layer_busy(v->p, i, b, 8) > 0;
    }
    char title[512], lb[256];
    snprintf(title, sizeof title, "Timeline of %s on %s", v->model, v->s.platform);
    rs_open(sb, TL_W, H, standalone, "plot timeline", title);
    rp_layer_counts(sb, v, drawn);
    /* the page script reads the geometry from here */
    sb_puts(sb, "<g class=\"tl-geometry\" data-x0=\"");
    rs_num(sb, TL_L);
    sb_puts(sb, "\" data-x1=\"");
    rs_num(sb, TL_R);
    sb_printf(sb, "\" data-span=\"%.17g\" data-zmax=\"%.3g\"></g>\n", disp.hi - disp.lo, zmax);

    /* ---- zoomed in x: lanes, series and their grids ---- */
    sb_puts(sb, "<g class=\"tl-zoom\">\n");
    rs_plot_area(sb, TL_L, t.lanes_top, TL_R, t.lanes_bottom);
    sb_puts(sb, "<g class=\"lanes-bg\">");
    for (int u = 0; u < t.units; u++)
        for (int l = 0; l < 3; l++) rs_rect(sb, TL_L, t.lane_y[u][l], TL_R - TL_L, LANE_H, "#f6f7f9");
    sb_puts(sb, "</g>\n<g class=\"data\">\n");
    int nth = 0;
    for (int i = 0; i < v->n; i++)
        if (v->shown[i]) {
            struct rep_layer row;
            nth += draw_layer(sb, &t, rep_view_layer(v, i, &row), nth);
        }
    sb_puts(sb, "</g>\n");
    struct rep_axis au = {0, 100, 0, u1, u0, 25};
    double bmax = 0;
    for (int i = 0; i < nnperf_prediction_interval_count(v->p); i++) {
        struct nnperf_interval iv;
        nnperf_prediction_interval(v->p, i, &iv);
        if (iv.load_bandwidth > bmax) bmax = iv.load_bandwidth;
        if (iv.store_bandwidth > bmax) bmax = iv.store_bandwidth;
    }
    double ceiling = v->su.ddr_bandwidth;
    struct rep_axis ab = {0, (bmax > ceiling ? bmax : ceiling) / 1e9, 0, b1, b0, 0};
    if (!(ab.hi > 0)) ab.hi = 1;
    ra_nice(&ab, 5);
    rs_plot_area(sb, TL_L, u0, TL_R, u1);
    y_axis(sb, &au, 1, NULL);
    sb_puts(sb, "<g class=\"data\">\n");
    series(sb, &t, &au, 0, "#1f77b4", "compute utilization (%)");
    sb_puts(sb, "</g>\n");
    rs_plot_area(sb, TL_L, b0, TL_R, b1);
    y_axis(sb, &ab, 1, NULL);
    sb_puts(sb, "<g class=\"data\">\n");
    if (ceiling > 0) {
        double cy = ra_px(&ab, ceiling / 1e9);
        sb_puts(sb, "<line class=\"ceiling\" x1=\"");
        rs_num(sb, TL_L);
        sb_puts(sb, "\" x2=\"");
        rs_num(sb, TL_R);
        sb_puts(sb, "\" y1=\"");
        rs_num(sb, cy);
        sb_puts(sb, "\" y2=\"");
        rs_num(sb, cy);
        sb_puts(sb, "\" stroke=\"#c0392b\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\" "
                    "vector-effect=\"non-scaling-stroke\"><title>DDR ceiling</title></line>\n");
    }
    series(sb, &t, &ab, 1, "#2ca02c", "DDR load bandwidth (GB/s)");
    series(sb, &t, &ab, 2, "#d62728", "DDR store bandwidth (GB/s)");
    sb_puts(sb, "</g>\n");
    rs_line(sb, TL_L, ax1, TL_R, ax1, "stroke=\"#555\"");
    rs_line(sb, TL_L, ax2, TL_R, ax2, "stroke=\"#555\"");
    rs_line(sb, TL_L, ax3, TL_R, ax3, "stroke=\"#555\"");
    sb_puts(sb, "</g>\n");

    /* ---- time axes (made again when zooming) ---- */
    time_ticks(sb, &t, ax1, t.lanes_top);
    time_ticks(sb, &t, ax2, u0);
    time_ticks(sb, &t, ax3, b0);

    /* ---- fixed on the left while scrolling: lane names, y axes, panel titles ---- */
    sb_puts(sb, "<g class=\"tl-fixed\">\n");
    rs_rect(sb, 0, 30, TL_L - 8, ax3 + 24 - 30, "#ffffff"); /* the 0 tick's label reaches left of TL_L */
    snprintf(lb, sizeof lb, "time (%s)", t.unit);
    rs_text(sb, TL_L - 12, ax1 + 15, "end", 11, "font-weight=\"bold\"", lb);
    rs_text(sb, TL_L - 12, ax2 + 15, "end", 11, "font-weight=\"bold\"", lb);
    rs_text(sb, TL_L - 12, ax3 + 15, "end", 11, "font-weight=\"bold\"", lb);
    for (int u = 0; u < t.units; u++) {
        char un[160];
        if (u == 0)
            snprintf(un, sizeof un, "accelerator (%s)", v->s.platform);
        else
            snprintf(un, sizeof un, "fallback (%s)", v->su.fallback ? v->su.fallback : "cpu");
        rs_text(sb, 8, t.lane_y[u][0] - 5, "start", 12, "font-weight=\"bold\"", un);
        for (int l = 0; l < 3; l++)
            rs_text(sb, TL_L - 12, t.lane_y[u][l] + LANE_H - 4, "end", 11, NULL, lane_names[l]);
    }
    rs_text(sb, TL_L + 4, u0 - 8, "start", 12, "font-weight=\"bold\"", "compute utilization per interval");
    y_axis(sb, &au, 0, "utilization (%)");
    rs_text(sb, TL_L + 4, b0 - 8, "start", 12, "font-weight=\"bold\"", "DDR bandwidth per interval");
    y_axis(sb, &ab, 0, "GB/s");
    if (ceiling > 0) {
        char c1[32], c2[32];
        rep_si(c1, sizeof c1, ceiling, "B/s");
        rep_si(c2, sizeof c2, v->su.ddr_nominal, "B/s");
        /* one inference's cores reach less than the shared DDR alone (memory.core_bandwidth) */
        int own = ceiling < v->su.ddr_nominal * v->su.ddr_efficiency * 0.999;
        if (own)
            c_snprintf(lb, sizeof lb, "DDR ceiling %s (its cores' own; shared: %s x %.2f efficiency)", c1, c2,
                       v->su.ddr_efficiency);
        else if (v->su.ddr_efficiency < 1)
            c_snprintf(lb, sizeof lb, "DDR ceiling %s (%s x %.2f efficiency)", c1, c2, v->su.ddr_efficiency);
        else
            snprintf(lb, sizeof lb, "DDR ceiling %s", c1);
        double cy = ra_px(&ab, ceiling / 1e9);
        rs_text(sb, TL_L + 6, cy < b0 + 14 ? cy + 13 : cy - 4, "start", 11, "fill=\"#c0392b\"", lb);
    }

    /* ---- title, legend of the heaviest layers, keys ---- */
    snprintf(lb, sizeof lb, "Timeline of one run (%d frame%s): when each unit computes and moves data",
             v->s.frames_per_run, v->s.frames_per_run == 1 ? "" : "s");
    rs_text(sb, 8, 22, "start", 14, "font-weight=\"bold\"", lb);
    rs_text(sb, 8, leg - 8, "start", 12, "font-weight=\"bold\"", "heaviest layers (colour on the lanes):");
    for (int i = 0; i < N_HEAVY && t.heavy_rank[i] >= 0; i++) {
        struct rep_layer row;
        const struct rep_layer *Ly = rep_view_layer(v, t.heavy_rank[i], &row);
        double x = 8 + (i / rows) * (TL_W / 3), yy = leg + 18.0 * (i % rows) + 6;
        char tm[48], pc[16], name[64];
        rep_time(tm, sizeof tm, Ly->li.t_total);
        rep_pct(pc, sizeof pc, Ly->share);
        size_t nl = strlen(Ly->li.name);
        snprintf(name, sizeof name, "%s%s", nl > 32 ? ".." : "", /* a third of the width each */
                 nl > 32 ? Ly->li.name + nl - 30 : Ly->li.name);
        snprintf(lb, sizeof lb, "%d. %s (%s) %s, %s", i + 1, name, Ly->li.op, tm, pc);
        sb_printf(sb, "<g data-legend=\"%d\">", Ly->index);
        rs_rect(sb, x, yy - 10, 12, 12, rep_palette(i));
        rs_text(sb, x + 17, yy, "start", 11, NULL, lb);
        sb_puts(sb, "</g>\n");
    }
    double ky = leg + 18.0 * rows + 14;
    c_snprintf(
        lb, sizeof lb,
        "other layers alternate light shades; a thin grey bar is fixed per-layer overhead or a fallback "
        "transfer; load and store lanes are DDR traffic; interval %.3g ms",
        v->su.interval_s * 1e3);
    rs_text(sb, 8, ky, "start", 11, "fill=\"#555\"", lb);
    snprintf(lb, sizeof lb, "%d of %d shown layers drawn%s", drawn, v->n_shown,
             drawn < v->n_shown ? " (the others have no predicted time: unknown cost)" : "");
    rs_text(sb, 8, ky + 16, "start", 11, "fill=\"#555\"", lb);
    sb_puts(sb, "<g class=\"keys\">");
    double kx = TL_W - 230;
    rs_line(sb, kx, ky + 12, kx + 20, ky + 12, "stroke=\"#2ca02c\" stroke-width=\"2\"");
    rs_text(sb, kx + 24, ky + 16, "start", 11, NULL, "load");
    rs_line(sb, kx + 70, ky + 12, kx + 90, ky + 12, "stroke=\"#d62728\" stroke-width=\"2\"");
    rs_text(sb, kx + 94, ky + 16, "start", 11, NULL, "store");
    rs_line(sb, kx + 140, ky + 12, kx + 160, ky + 12, "stroke=\"#c0392b\" stroke-dasharray=\"6 4\"");
    rs_text(sb, kx + 164, ky + 16, "start", 11, NULL, "ceiling");
    sb_puts(sb, "</g>\n</g>\n");
    rs_close(sb);
}
