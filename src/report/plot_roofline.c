/* plot_roofline.c - the roofline of a prediction ([ROOFLINE] in docs/sources.md): attained ops/s against
 * arithmetic intensity, one point per layer, and the platform's ceilings. A layer's intensity is over the bytes
 * of the memory that bounds it (nnperf_layer_detail.memory: DDR, on-chip SRAM or the host link), and each memory
 * that bounds a layer has its own ceiling (its bandwidth x intensity), so a link-bound layer sits under the link's
 * ceiling, not at the right edge for want of DDR bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots.h"

#define PAD 14 /* the largest point's radius: points stay inside the plot area */

/* the layer's arithmetic intensity over the bytes of the memory that bounds it (0: it moves none) */
static double intensity(const struct rep_layer *L)
{
    return L->d.memory_bytes > 0 ? L->li.aligned_ops / L->d.memory_bytes : 0;
}

/* hover text of a layer: name (op, class), time and share, bound, ops, the bytes of its memory, intensity */
static void layer_tip(struct strbuf *sb, const struct rep_layer *L)
{
    char t[48], o[32], b[32], in[32], pc[16];
    rep_time(t, sizeof t, L->li.t_total);
    rep_si(o, sizeof o, L->li.ops, "");
    rep_si(b, sizeof b, L->d.memory_bytes, "B");
    rep_si(in, sizeof in, intensity(L), "");
    rep_pct(pc, sizeof pc, L->share);
    sb_puts(sb, "<title>");
    rep_esc(sb, L->li.name);
    sb_puts(sb, " (");
    rep_esc(sb, L->li.op);
    sb_printf(sb,
              ", %s)&#10;time %s (%s), %s-bound&#10;%s ops, %s via %s (its slowest memory), %s ops/B</title>",
              L->li.klass, t, pc, rep_layer_bound(L), o, b, rep_memory_labels[rep_layer_memory(L)], in);
}

/* legend of the operator classes drawn, from x to the right, wrapping at xmax */
static void class_legend(const struct rep_view *v, const int *idx, int n, struct strbuf *sb, double x,
                         double y, double xmax)
{
    int seen[32] = {0}, nc = 0;
    while (rep_class_name(nc)) nc++;
    for (int i = 0; i < n; i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(v->p, idx[i], &li);
        int k = 0;
        while (k < nc && strcmp(li.klass, rep_class_name(k))) k++;
        seen[k] = 1;
    }
    double cx = x;
    for (int k = 0; k <= nc; k++) {
        if (!seen[k]) continue;
        const char *nm = k < nc ? rep_class_name(k) : "other";
        double w = 30 + 7.5 * (double)strlen(nm);
        if (cx + w > xmax) cx = x, y += 16;
        rs_rect(sb, cx, y - 9, 10, 10, rep_class_color(k < nc ? nm : NULL));
        rs_text(sb, cx + 14, y, "start", 11, NULL, nm);
        cx += w;
    }
}

void rp_layer_counts(struct strbuf *sb, const struct rep_view *v, int drawn)
{
    sb_printf(sb,
              "<g class=\"layer-counts\" data-layers-total=\"%d\" data-layers-shown=\"%d\" "
              "data-layers-drawn=\"%d\"></g>\n",
              v->n, v->n_shown, drawn);
}

void rp_ceiling_points(struct strbuf *sb, const struct rep_axis *ax, const struct rep_axis *ay, double peak,
                       double bw)
{
    double x0 = ax->lo, ridge = peak / bw;
    if (bw * x0 < ay->lo) x0 = ay->lo / bw;
    if (ridge > ax->hi) ridge = ax->hi;
    rs_xy(sb, ax, x0, ay, bw * x0);
    sb_putc(sb, ' ');
    rs_xy(sb, ax, ridge, ay, bw * ridge < peak ? bw * ridge : peak);
    sb_putc(sb, ' ');
    rs_xy(sb, ax, ax->hi, ay, peak);
}

void rp_roofline(const struct rep_view *v, struct strbuf *sb, int standalone)
{
    const double W = 900, H = 610, L = 90, R = 870, T = 40, B = 470;
    double peak = v->su.peak_ops, bw = v->su.ddr_bandwidth;
    double cbw[3] = {bw, 0, 0}; /* the ceilings: DDR, and SRAM and link where they bound a layer */
    static const char *const dash[3] = {"", " stroke-dasharray=\"8 4\"", " stroke-dasharray=\"2 3\""};
    struct rep_axis ax = {HUGE_VAL, 0, 1, L + PAD, R - PAD, 0}, ay = {HUGE_VAL, 0, 1, B - PAD, T + PAD, 0};
    double tmax = 0;
    int n_onchip = 0, n = 0;
    int *idx = malloc((size_t)(v->n > 0 ? v->n : 1) * sizeof *idx);
    if (!idx) {
        sb->overflow = 1;
        return;
    }
    for (int s = 0; s < v->n_shown; s++) { /* biggest first, so small points stay visible on top */
        struct rep_layer row;
        const struct rep_layer *Ly = rep_view_layer(v, v->by_time[s], &row);
        if (Ly->li.t_total <= 0 || Ly->li.aligned_ops <= 0 || Ly->li.attained <= 0) continue;
        idx[n++] = Ly->index;
        if (Ly->li.t_total > tmax) tmax = Ly->li.t_total;
        int k = rep_layer_memory(Ly);
        if (k && !Ly->li.fallback && Ly->d.memory_bandwidth > cbw[k]) cbw[k] = Ly->d.memory_bandwidth;
        double in = intensity(Ly);
        if (in > 0) {
            if (in < ax.lo) ax.lo = in;
            if (in > ax.hi) ax.hi = in;
        } else {
            n_onchip++;
        }
        if (Ly->li.attained < ay.lo) ay.lo = Ly->li.attained;
        if (Ly->li.attained > ay.hi) ay.hi = Ly->li.attained;
    }
    if (peak > 0) {
        if (peak > ay.hi) ay.hi = peak;
        if (!isfinite(ay.lo)) ay.lo = peak / 1000;
        for (int k = 0; k < 3; k++) {
            if (cbw[k] <= 0) continue;
            double ridge = peak / cbw[k];
            if (ridge * 4 > ax.hi) ax.hi = ridge * 4;
            if (ridge / 4 < ax.lo) ax.lo = ridge / 4;
        }
    }
    if (!isfinite(ax.lo)) ax.lo = 0.1, ax.hi = 1000;
    if (!isfinite(ay.lo)) ay.lo = 1e6, ay.hi = 1e9;
    ra_nice(&ax, 0);
    ra_nice(&ay, 0);
    char title[512];
    snprintf(title, sizeof title, "Roofline of %s on %s", v->model, v->s.platform);
    rs_open(sb, W, H, standalone, "plot roofline", title);
    rp_layer_counts(sb, v, n);
    rs_frame(sb, L, T, R, B, &ax, &ay, "Roofline: attained ops/s vs arithmetic intensity",
             "arithmetic intensity (ops per byte of the memory that bounds the layer, log)",
             "attained ops/s (log)");
    for (int k = 0; k < 3 && peak > 0; k++) {
        if (cbw[k] <= 0) continue;
        sb_printf(sb, "<polyline fill=\"none\" stroke=\"#222\" stroke-width=\"2\"%s points=\"", dash[k]);
        rp_ceiling_points(sb, &ax, &ay, peak, cbw[k]);
        sb_printf(sb, "\"><title>%s ceiling</title></polyline>\n", rep_memory_labels[k]);
    }
    for (int i = 0; i < n; i++) {
        struct rep_layer row;
        const struct rep_layer *Ly = rep_view_layer(v, idx[i], &row);
        double x = intensity(Ly) > 0 ? ra_px(&ax, intensity(Ly)) : ax.p1;
        double r = 2.5 + 11 * sqrt(tmax > 0 ? Ly->li.t_total / tmax : 0);
        sb_printf(sb, "<circle data-l=\"%d\" data-mem=\"%s\" data-bound=\"%s\" cx=\"", Ly->index,
                  rep_memory_names[rep_layer_memory(Ly)], rep_layer_bound(Ly));
        rs_num(sb, x);
        sb_puts(sb, "\" cy=\"");
        rs_num(sb, ra_px(&ay, Ly->li.attained));
        sb_puts(sb, "\" r=\"");
        rs_num(sb, r);
        sb_printf(sb, "\" fill=\"%s\" fill-opacity=\"0.75\" stroke=\"#333\" stroke-width=\"0.5\"%s>",
                  rep_class_color(Ly->li.klass), intensity(Ly) > 0 ? "" : " stroke-dasharray=\"2 1\"");
        layer_tip(sb, Ly);
        sb_puts(sb, "</circle>\n");
    }
    sb_puts(sb, "</g>\n");
    if (peak > 0 && bw > 0) {
        char b1[32], b2[32], lb[128];
        rep_si(b1, sizeof b1, peak, "ops/s");
        rep_si(b2, sizeof b2, bw, "B/s");
        snprintf(lb, sizeof lb, "peak %s (%s)", b1, v->s.dtype);
        rs_text(sb, R - PAD, ra_px(&ay, peak) - 6, "end", 12, NULL, lb);
        for (int k = 0; k < 3; k++) {
            if (cbw[k] <= 0) continue;
            rep_si(b2, sizeof b2, cbw[k], "B/s");
            snprintf(lb, sizeof lb, "%s %s", rep_memory_labels[k], b2);
            double ridge = peak / cbw[k],
                   lv = ridge / 30 > ax.lo && cbw[k] * ridge / 30 > ay.lo ? ridge / 30 : ridge;
            double ly = ra_px(&ay, cbw[k] * lv) + 16, lx = ra_px(&ax, lv) + 10;
            if (ly > B - 4) ly = B - 4;
            if (lx > R - 110) lx = R - 110;
            rs_text(sb, lx, ly, "start", 12, NULL, lb);
        }
    }
    class_legend(v, idx, n, sb, L, B + 58, R);
    char note[400];
    int undrawn = v->n_shown - n, o = 0;
    snprintf(note, sizeof note, "%d of %d shown layers drawn; point area ~ layer time", n, v->n_shown);
    rs_text(sb, L, H - 24, "start", 11, "fill=\"#555\"", note);
    note[0] = 0;
    if (n_onchip)
        o += snprintf(note + o, sizeof note - (size_t)o,
                      "%d moving no bytes through memory at the right edge (dashed)%s", n_onchip,
                      undrawn > 0 ? "; " : "");
    if (undrawn > 0 && o >= 0)
        snprintf(note + o, sizeof note - (size_t)o,
                 "%d without ops or time (data movement, unknown cost) have no point", undrawn);
    if (note[0]) rs_text(sb, L, H - 10, "start", 11, "fill=\"#555\"", note);
    rs_close(sb);
    free(idx);
}
