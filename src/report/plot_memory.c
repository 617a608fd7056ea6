/* plot_memory.c - where the DDR bytes go: one stacked bar (weights, activations loaded and stored, spills) per
 * shown layer in execution order. A layer without DDR traffic keeps its slot (its data stays on chip), so the bars
 * count the same layers as the tables; past a few hundred layers the plot grows wider and scrolls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plots.h"

#define SLOT_MIN 2.5 /* pixels per layer at least */

void rp_memory(const struct rep_view *v, struct strbuf *sb, int standalone)
{
    const double L = 90, T = 50, B = 380, PW = 780; /* the plot area's width before it grows */
    double slot = v->n_shown ? PW / v->n_shown : PW;
    if (slot < SLOT_MIN) slot = SLOT_MIN;
    double R = L + slot * (v->n_shown ? v->n_shown : 1), W = R + 30, H = 500;
    if (W < 900) W = 900;
    double tot[3] = {0, 0, 0}, ymax = 0;
    int traffic = 0;
    for (int i = 0; i < v->n; i++) {
        struct rep_layer row;
        const struct rep_layer *Ly = rep_view_layer(v, i, &row);
        tot[0] += Ly->li.weight_bytes, tot[1] += Ly->li.load_bytes + Ly->li.store_bytes,
            tot[2] += Ly->li.spill_bytes;
        if (!Ly->shown) continue;
        if (Ly->li.ddr_bytes > ymax) ymax = Ly->li.ddr_bytes;
        traffic += Ly->li.ddr_bytes > 0;
    }
    char title[512], lb[256], a[3][32];
    snprintf(title, sizeof title, "DDR bytes per layer of %s on %s", v->model, v->s.platform);
    rs_open(sb, W, H, standalone, "plot memory", title);
    rp_layer_counts(sb, v, v->n_shown);
    rs_text(sb, L, 22, "start", 14, "font-weight=\"bold\"", "Where the DDR bytes go, per layer (per run)");
    for (int k = 0; k < 3; k++) rep_si(a[k], sizeof a[k], tot[k], "B");
    snprintf(lb, sizeof lb, "total: weights %s, activations %s, spills %s", a[0], a[1], a[2]);
    rs_text(sb, L, 40, "start", 12, "fill=\"#333\"", lb);
    struct rep_axis ay = {0, ymax > 0 ? ymax : 1, 0, B, T, 0};
    ra_nice(&ay, 6);
    rs_plot_area(sb, L, T, R, B);
    rs_axis(sb, &ay, 1, L, R, "DDR bytes");
    const char *cols[3] = {"#4e79a7", "#f28e2b", "#e15759"};
    const char *names[3] = {"weights", "activations (load + store)", "spills"};
    double bw = slot * 0.8;
    sb_puts(sb, "<g class=\"data\">\n");
    int k_slot = 0;
    for (int i = 0; i < v->n; i++) {
        struct rep_layer row;
        const struct rep_layer *Ly = rep_view_layer(v, i, &row);
        if (!Ly->shown) continue;
        double val[3] = {Ly->li.weight_bytes, Ly->li.load_bytes + Ly->li.store_bytes, Ly->li.spill_bytes};
        double x = L + k_slot++ * slot + (slot - bw) / 2, acc = 0;
        sb_printf(sb, "<g data-l=\"%d\"><title>", Ly->index);
        rep_esc(sb, Ly->li.name);
        sb_puts(sb, " (");
        rep_esc(sb, Ly->li.op);
        if (Ly->li.ddr_bytes > 0) {
            for (int k = 0; k < 3; k++) rep_si(a[k], sizeof a[k], val[k], "B");
            sb_printf(sb, ")&#10;weights %s, activations %s, spills %s</title>", a[0], a[1], a[2]);
        } else {
            sb_puts(sb, ")&#10;no DDR traffic: its data stays on chip</title>");
        }
        for (int k = 0; k < 3; k++) {
            if (val[k] <= 0) continue;
            double y0 = ra_px(&ay, acc), y1 = ra_px(&ay, acc + val[k]);
            rs_rect(sb, x, y1, bw, y0 - y1 > 0.3 ? y0 - y1 : 0.3, cols[k]);
            acc += val[k];
        }
        sb_puts(sb, "</g>\n");
    }
    sb_puts(sb, "</g>\n");
    snprintf(lb, sizeof lb, "%d shown layers in execution order, %d of them with DDR traffic", v->n_shown,
             traffic);
    rs_text(sb, L, B + 20, "start", 12, NULL, lb);
    for (int k = 0; k < 3; k++) {
        double x = L + k * 200.0;
        rs_rect(sb, x, H - 40, 12, 12, cols[k]);
        rs_text(sb, x + 17, H - 30, "start", 12, NULL, names[k]);
    }
    rs_close(sb);
}
