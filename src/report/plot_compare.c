/* plot_compare.c - the plots of a comparison: the FPS heatmap (QuTiBench's model x platform matrix, see
 * [QUTIBENCH] in docs/sources.md), QuTiBench's whole-model roofline (every platform's ceilings, each model a point),
 * latency-vs-throughput lines over a batch sweep and accuracy-vs-throughput pareto fronts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots.h"

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

void rp_heatmap(const struct rep_heat *h, struct strbuf *sb, int standalone)
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
    rs_open(sb, W, H, standalone, "plot heatmap", h->unit);
    rs_plot_area(sb, L, T, L + cw * h->cols, T + ch * h->rows);
    char b[64], col[16];
    snprintf(b, sizeof b, "%s per model and platform (log colour scale)", h->unit);
    rs_text(sb, 10, 20, "start", 14, "font-weight=\"bold\"", b);
    for (int c = 0; c < h->cols; c++) {
        double x = L + cw * c + cw / 2, y = T - 8;
        sb_puts(sb, "<text transform=\"translate(");
        rs_num(sb, x);
        sb_putc(sb, ',');
        rs_num(sb, y);
        sb_puts(sb, ") rotate(-30)\" font-size=\"12\" text-anchor=\"start\">");
        rep_esc(sb, h->col_names[c]);
        sb_puts(sb, "</text>\n");
    }
    for (int r = 0; r < h->rows; r++)
        rs_text(sb, L - 8, T + ch * r + ch / 2 + 4, "end", 12, NULL, h->row_names[r]);
    sb_puts(sb, "<g class=\"data\">\n");
    for (int r = 0; r < h->rows; r++) {
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
            rs_rect_open(sb, L + cw * c + 1, T + ch * r + 1, cw - 2, ch - 2, col);
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
                c_snprintf(b, sizeof b, v >= 100 ? "%.0f" : "%.2f", v);
            else
                snprintf(b, sizeof b, "n/a");
            rs_text(sb, L + cw * c + cw / 2, T + ch * r + ch / 2 + 4, "middle", 12,
                    dark ? "fill=\"#ffffff\" pointer-events=\"none\""
                         : "fill=\"#222\" pointer-events=\"none\"",
                    b);
        }
    }
    sb_puts(sb, "</g>\n");
    /* colour bar */
    double y = T + ch * h->rows + 20;
    for (int i = 0; i < 20; i++) {
        int dark;
        heat_color(i / 19.0, col, sizeof col, &dark);
        rs_rect(sb, L + i * 10.0, y, 10, 10, col);
    }
    sb_putc(sb, '\n');
    if (hi > 0) {
        char lo_s[32], hi_s[32], lb[96];
        rep_si(lo_s, sizeof lo_s, lo, "");
        rep_si(hi_s, sizeof hi_s, hi, "");
        snprintf(lb, sizeof lb, "%s ... %s %s", lo_s, hi_s, h->unit);
        rs_text(sb, L + 210, y + 10, "start", 11, NULL, lb);
    }
    rs_close(sb);
}

/* ---- lines and pareto fronts ---- */

static const char *const series_colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                            "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static int pt_ok(const struct rep_plot *pl, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!pl->xlog || x > 0) && (!pl->ylog || y > 0);
}

/* A note under a plot in lines of at most NOTE_CH characters (11 px text in the 860 px), broken at blanks, the
 * first at y and each next 15 px lower: written to sb (NULL: only counted); returns the number of lines. */
enum { NOTE_CH = 132 };
static int note_wrap(struct strbuf *sb, const char *q, double y)
{
    int lines = 0;
    const char *first = q;
    while (*q) {
        size_t len = strlen(q), cut = len;
        if (len > NOTE_CH) {
            cut = NOTE_CH;
            while (cut > NOTE_CH / 2 && q[cut] != ' ') cut--;
        }
        if (sb) {
            char line[NOTE_CH + 8];
            snprintf(line, sizeof line, "%s%.*s", q == first ? "" : "  ", (int)cut, q);
            rs_text(sb, 12, y + 15.0 * lines, "start", 11, "class=\"plot-note\" fill=\"#8a3b00\"", line);
        }
        lines++;
        q += cut;
        while (*q == ' ') q++;
    }
    return lines;
}

void rp_lines(const struct rep_plot *pl, const struct rep_series *s, int n, struct strbuf *sb, int standalone)
{
    const double L = 80, R = 640, T = 40, B = 330;
    int note_lines = 0; /* the notes under the plot, word-wrapped to the width */
    for (int i = 0; pl->notes && i < pl->n_notes; i++) note_lines += note_wrap(NULL, pl->notes[i], 0);
    int W = 860, H = 390 + 15 * note_lines;
    struct rep_axis ax = {HUGE_VAL, -HUGE_VAL, pl->xlog, L + 8, R - 8, 0},
                    ay = {HUGE_VAL, -HUGE_VAL, pl->ylog, B - 8, T + 8, 0};
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
    rs_open(sb, W, H, standalone, pl->pareto ? "plot pareto" : "plot lines", pl->title);
    double placed[256]
                 [3]; /* pareto labels drawn so far: x, y, width (a label that would overlap is left out) */
    int n_placed = 0;
    ra_nice(&ax, 6);
    ra_nice(&ay, 6);
    rs_frame(sb, L, T, R, B, &ax, &ay, pl->title, pl->xlabel, pl->ylabel);
    struct strbuf lab; /* point labels, written after the data: text may reach past the plot area */
    sb_init(&lab, sb->cap);
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
                    rs_xy(sb, &ax, s[k].x[ord[i]], &ay, s[k].y[ord[i - 1]]);
                    sb_putc(sb, ' ');
                }
                rs_xy(sb, &ax, s[k].x[ord[i]], &ay, s[k].y[ord[i]]);
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
                rs_xy(sb, &ax, s[k].x[ord[i]], &ay, s[k].y[ord[i]]);
            }
            sb_puts(sb, "\"><title>");
            rep_esc(sb, s[k].name);
            sb_puts(sb, "</title></polyline>\n");
        }
        for (int i = 0; i < m; i++) {
            int j = ord[i];
            sb_puts(sb, "<circle cx=\"");
            rs_num(sb, ra_px(&ax, s[k].x[j]));
            sb_puts(sb, "\" cy=\"");
            rs_num(sb, ra_px(&ay, s[k].y[j]));
            sb_printf(sb, "\" r=\"%s\" fill=\"%s\" stroke=\"#fff\"><title>", pl->pareto ? "5" : "3.5", c);
            rep_esc(sb, s[k].name);
            if (s[k].labels && s[k].labels[j]) {
                sb_puts(sb, ", ");
                rep_esc(sb, s[k].labels[j]);
            }
            char xb[32], yb[32];
            rep_si(xb, sizeof xb, s[k].x[j], "");
            rep_si(yb, sizeof yb, s[k].y[j], "");
            sb_printf(sb, ": %s, %s</title></circle>\n", xb, yb);
            double lx = ra_px(&ax, s[k].x[j]) + 7, ly = ra_px(&ay, s[k].y[j]) - 5;
            int clash = 0;
            int labelled = (pl->pareto || pl->point_labels) && s[k].labels && s[k].labels[j];
            if (labelled) {
                double lw = 6.0 * (double)strlen(s[k].labels[j]);
                for (int q = 0; q < n_placed && !clash; q++)
                    clash = fabs(placed[q][1] - ly) < 11 && lx < placed[q][0] + placed[q][2] &&
                            placed[q][0] < lx + lw;
                if (!clash && n_placed < 256)
                    placed[n_placed][0] = lx, placed[n_placed][1] = ly, placed[n_placed++][2] = lw;
            }
            if (labelled && !clash) rs_text(&lab, lx, ly, "start", 10, "fill=\"#444\"", s[k].labels[j]);
        }
        free(ord);
    }
    sb_puts(sb, "</g>\n");
    if (lab.overflow) sb->overflow = 1;
    if (lab.p) sb_puts(sb, lab.p);
    sb_free(&lab);
    /* legend on the right */
    for (int k = 0; k < n && k < 20; k++) {
        double y = T + 8 + k * 18.0;
        sb_puts(sb, "<g color=\"");
        sb_puts(sb, series_colors[k % 10]);
        sb_puts(sb, "\">");
        rs_line(sb, R + 20, y - 4, R + 40, y - 4,
                k >= 10 ? "stroke-width=\"3\" stroke-dasharray=\"5 3\" stroke=\"currentColor\""
                        : "stroke-width=\"3\" stroke=\"currentColor\"");
        sb_puts(sb, "</g>");
        rs_text(sb, R + 46, y, "start", 11, NULL, s[k].name);
    }
    if (n > 20) rs_text(sb, R + 20, T + 8 + 20 * 18.0, "start", 11, "fill=\"#555\"", "(more in the table)");
    for (int i = 0, ln = 0; pl->notes && i < pl->n_notes; i++) /* under the axis label */
        ln += note_wrap(sb, pl->notes[i], 392 + 15.0 * ln);
    rs_close(sb);
}

/* ---- whole-model roofline ---- */

/* a marker per model: circle, square, triangle, diamond, then again with a dashed outline */
static void marker(struct strbuf *sb, int kind, double x, double y, const char *color)
{
    const double r = 6;
    const char *dash = kind >= 4 ? " stroke-dasharray=\"2 1\"" : "";
    switch (kind % 4) {
    case 0:
        sb_puts(sb, "<circle cx=\"");
        rs_num(sb, x);
        sb_puts(sb, "\" cy=\"");
        rs_num(sb, y);
        sb_puts(sb, "\" r=\"6\"");
        break;
    case 1: rs_rect_open(sb, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7, color); break;
    default: {
        double pts[4][2] = {{x, y - r}, {x + r, y + r * 0.8}, {x - r, y + r * 0.8}, {0, 0}};
        int np = 3;
        if (kind % 4 == 3)
            pts[0][1] = y - r, pts[1][0] = x + r, pts[1][1] = y, pts[2][0] = x, pts[2][1] = y + r,
            pts[3][0] = x - r, pts[3][1] = y, np = 4;
        sb_puts(sb, "<polygon points=\"");
        for (int i = 0; i < np; i++) {
            if (i) sb_putc(sb, ' ');
            rs_num(sb, pts[i][0]);
            sb_putc(sb, ',');
            rs_num(sb, pts[i][1]);
        }
        sb_putc(sb, '"');
    }
    }
    sb_printf(sb, " fill=\"%s\" fill-opacity=\"0.85\" stroke=\"#222\" stroke-width=\"0.8\"%s>", color, dash);
}

static const char *marker_end(int kind)
{
    switch (kind % 4) {
    case 0: return "</circle>\n";
    case 1: return "</rect>\n";
    default: return "</polygon>\n";
    }
}

/* a model's point on a platform: attained ops/s and ops per DDR byte (0 without DDR traffic); 0 when not predicted */
static int cell_point(const struct nnperf_compare_cell *c, double *att, double *in)
{
    *att = c->ops_per_frame * c->fps;
    *in = c->ddr_bytes_per_frame > 0 ? c->ops_per_frame / c->ddr_bytes_per_frame : 0;
    return *att > 0 && isfinite(*att);
}

void rp_compare_roofline(const struct nnperf_compare_data *d, struct strbuf *sb, int standalone)
{
    const double W = 900, H = 520, L = 90, R = 640, T = 40, B = 430, PAD = 8;
    int M = d->n_models, P = d->n_platforms, drawn = 0;
    struct rep_axis ax = {HUGE_VAL, 0, 1, L + PAD, R - PAD, 0}, ay = {HUGE_VAL, 0, 1, B - PAD, T + PAD, 0};
    for (int m = 0; m < M; m++)
        for (int p = 0; p < P; p++) {
            double att, in;
            if (!cell_point(&d->cells[m * P + p], &att, &in)) continue;
            if (in > 0) {
                if (in < ax.lo) ax.lo = in;
                if (in > ax.hi) ax.hi = in;
            }
            if (att < ay.lo) ay.lo = att;
            if (att > ay.hi) ay.hi = att;
        }
    for (int p = 0; p < P && d->peak_ops && d->ddr_bandwidth; p++) {
        double peak = d->peak_ops[p], bw = d->ddr_bandwidth[p];
        if (!(peak > 0) || !(bw > 0)) continue;
        if (peak > ay.hi) ay.hi = peak;
        if (peak / bw * 4 > ax.hi) ax.hi = peak / bw * 4;
        if (peak / bw / 4 < ax.lo) ax.lo = peak / bw / 4;
    }
    if (!isfinite(ax.lo)) ax.lo = 1, ax.hi = 1000;
    if (!isfinite(ay.lo)) ay.lo = 1e9, ay.hi = 1e12;
    ra_nice(&ax, 0);
    ra_nice(&ay, 0);
    rs_open(sb, W, H, standalone, "plot roofline-compare", "Whole-model roofline of the compared models");
    rs_frame(sb, L, T, R, B, &ax, &ay, "Whole-model roofline: each model on each platform is a point",
             "arithmetic intensity (ops per DDR byte of a frame, log)",
             "attained ops/s (ops per frame x FPS, log)");
    for (int p = 0; p < P && d->peak_ops && d->ddr_bandwidth; p++) {
        double peak = d->peak_ops[p], bw = d->ddr_bandwidth[p];
        if (!(peak > 0) || !(bw > 0)) continue;
        sb_printf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", rep_palette(p));
        rp_ceiling_points(sb, &ax, &ay, peak, bw);
        char pk[32], b[32];
        rep_si(pk, sizeof pk, peak, "ops/s");
        rep_si(b, sizeof b, bw, "B/s");
        sb_puts(sb, "\"><title>");
        rep_esc(sb, d->platforms[p]);
        sb_printf(sb, " (%s): peak %s, DDR %s</title></polyline>\n",
                  d->dtypes && d->dtypes[p] ? d->dtypes[p] : "", pk, b);
    }
    for (int m = 0; m < M; m++)
        for (int p = 0; p < P; p++) {
            const struct nnperf_compare_cell *c = &d->cells[m * P + p];
            double att, in;
            if (!cell_point(c, &att, &in)) continue;
            drawn++;
            marker(sb, m % 8, in > 0 ? ra_px(&ax, in) : ax.p1, ra_px(&ay, att), rep_palette(p));
            char a1[32], a2[32], a3[32];
            rep_si(a1, sizeof a1, att, "ops/s");
            rep_si(a2, sizeof a2, in, ""); /* ops per byte: "2.11 k ops/B", not "kops/B" */
            rep_si(a3, sizeof a3, c->fps, "");
            sb_puts(sb, "<title>");
            rep_esc(sb, d->models[m]);
            sb_puts(sb, " on ");
            rep_esc(sb, d->platforms[p]);
            sb_printf(sb, " (%s)&#10;%s FPS, %s at %s ops/B</title>",
                      d->dtypes && d->dtypes[p] ? d->dtypes[p] : "", a3, a1, a2);
            sb_puts(sb, marker_end(m % 8));
        }
    sb_puts(sb, "</g>\n");
    /* legends: platforms (colour) and models (marker) */
    double y = T + 8;
    rs_text(sb, R + 20, y, "start", 12, "font-weight=\"bold\"", "platforms");
    for (int p = 0; p < P && p < 10; p++) {
        y += 17;
        char lb[160];
        snprintf(lb, sizeof lb, "%s (%s)", d->platforms[p], d->dtypes && d->dtypes[p] ? d->dtypes[p] : "?");
        char st[64];
        snprintf(st, sizeof st, "stroke=\"%s\" stroke-width=\"3\"", rep_palette(p));
        rs_line(sb, R + 20, y - 4, R + 40, y - 4, st);
        rs_text(sb, R + 46, y, "start", 11, NULL, lb);
    }
    y += 26;
    rs_text(sb, R + 20, y, "start", 12, "font-weight=\"bold\"", "models");
    for (int m = 0; m < M && m < 8; m++) {
        y += 17;
        marker(sb, m, R + 30, y - 4, "#ffffff");
        sb_puts(sb, marker_end(m));
        rs_text(sb, R + 46, y, "start", 11, NULL, d->models[m]);
    }
    char note[160];
    snprintf(note, sizeof note,
             "%d of %d model-platform pairs drawn (the others could not be predicted); a line per "
             "platform: its DDR bandwidth up to the ridge, then its peak",
             drawn, M * P);
    rs_text(sb, L, H - 10, "start", 11, "fill=\"#555\"", note);
    rs_close(sb);
}
