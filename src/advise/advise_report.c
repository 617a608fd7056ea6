/* advise_report.c - the advice as a table (findings ordered by gain, each with its layers, evidence and change),
 * JSON (schema "nnperf.advice", docs/advise.md) or HTML (the prediction's page with an Advice tab, through
 * rep_html_prediction's extra tabs). Numbers have fixed formats so the output is byte-for-byte reproducible. */
#include <stdio.h>
#include <stdlib.h>

#include "../report/html.h"
#include "advise.h"

#define TABLE_MAX_LAYERS 6 /* layer names shown per finding in the table */

static void header(const struct nnperf_advice *adv, struct strbuf *sb)
{
    sb_printf(sb, "advice for %s on %s (%s, %d frame%s per run): latency %.3f ms per run, %.1f FPS\n",
              adv->model, adv->platform, adv->dtype, adv->frames, adv->frames > 1 ? "s" : "",
              adv->latency_s * 1e3, adv->fps);
    sb_printf(
        sb,
        "%d finding%s, ordered by predicted gain per frame; each gain is the prediction re-run with the "
        "change applied (%d changes predicted, %d below the minimum gain: %.1f%%, 10%% for batch and "
        "dtype)\n",
        adv->n, adv->n == 1 ? "" : "s", adv->n_checked, adv->n_below, adv->min_gain * 100);
}

static void table(const struct nnperf_advice *adv, struct strbuf *sb)
{
    header(adv, sb);
    for (int i = 0; i < adv->n; i++) {
        const struct adv_finding *f = &adv->f[i];
        sb_printf(sb, "\n%d. %-18s gain %.4f ms per frame (%.1f%%)\n", i + 1, f->rule, f->gain_s * 1e3,
                  f->gain_fraction * 100);
        sb_puts(sb, "   layers:   ");
        for (int k = 0; k < f->n_layers && k < TABLE_MAX_LAYERS; k++)
            sb_printf(sb, "%s%s", k ? ", " : "", f->layers[k]);
        if (f->n_layers > TABLE_MAX_LAYERS) sb_printf(sb, " (+%d more)", f->n_layers - TABLE_MAX_LAYERS);
        if (!f->n_layers) sb_puts(sb, "(whole model)");
        sb_printf(sb, "\n   evidence: %s\n   change:   %s\n", f->evidence, f->change);
    }
    if (!adv->n) sb_puts(sb, "\nno finding: no rule predicts a gain above the threshold\n");
    sb_puts(sb, "\n`nnperf advise --explain RULE` gives a rule's rationale and source.\n");
}

static void json_num(struct strbuf *sb, const char *key, double x)
{
    sb_printf(sb, ",\"%s\":%.6g", key, x);
}

static void json(const struct nnperf_advice *adv, struct strbuf *sb)
{
    sb_puts(sb, "{\"schema\":\"nnperf.advice\",\"schema_version\":1,\"model\":");
    sb_json_str(sb, adv->model);
    sb_puts(sb, ",\"platform\":");
    sb_json_str(sb, adv->platform);
    sb_printf(sb, ",\"dtype\":\"%s\",\"frames_per_run\":%d", adv->dtype, adv->frames);
    json_num(sb, "latency_ms", adv->latency_s * 1e3);
    json_num(sb, "fps", adv->fps);
    json_num(sb, "min_gain_percent", adv->min_gain * 100);
    sb_printf(sb, ",\"changes_predicted\":%d,\"findings\":[", adv->n_checked);
    for (int i = 0; i < adv->n; i++) {
        const struct adv_finding *f = &adv->f[i];
        sb_printf(sb, "%s\n{\"rule\":\"%s\",\"layers\":[", i ? "," : "", f->rule);
        for (int k = 0; k < f->n_layers; k++) {
            if (k) sb_putc(sb, ',');
            sb_json_str(sb, f->layers[k]);
        }
        sb_puts(sb, "],\"evidence\":");
        sb_json_str(sb, f->evidence);
        sb_puts(sb, ",\"change\":");
        sb_json_str(sb, f->change);
        json_num(sb, "gain_ms", f->gain_s * 1e3);
        json_num(sb, "gain_percent", f->gain_fraction * 100);
        json_num(sb, "latency_ms", f->latency_s * 1e3);
        json_num(sb, "new_latency_ms", f->new_latency_s * 1e3);
        sb_printf(sb, ",\"frames_per_run\":%d,\"new_frames_per_run\":%d", f->frames, f->new_frames);
        json_num(sb, "fps", f->fps);
        json_num(sb, "new_fps", f->new_fps);
        sb_putc(sb, '}');
    }
    sb_puts(sb, "\n]}\n");
}

/* the Advice tab: a table of findings, every name escaped */
static void html_tab(const struct nnperf_advice *adv, struct strbuf *sb)
{
    sb_printf(
        sb,
        "<p>%d finding%s, ordered by predicted gain per frame. Each gain is the prediction re-run with the "
        "change applied to a copy of the model (a what-if); %d changes predicted, %d below the minimum gain "
        "(%.1f%%, 10%% for batch and dtype). "
        "<code>nnperf advise --explain RULE</code> gives a rule's rationale and source (Horizon's efficient "
        "model design advice).</p>\n",
        adv->n, adv->n == 1 ? "" : "s", adv->n_checked, adv->n_below, adv->min_gain * 100);
    if (!adv->n) return;
    sb_puts(sb,
            "<div class=\"tablewrap\"><table id=\"advice\">\n<thead><tr><th class=\"n\">#</th><th>rule</th>"
            "<th class=\"n\">gain ms</th><th class=\"n\">gain %</th><th>layers</th><th>evidence</th>"
            "<th>change</th></tr></thead>\n<tbody>\n");
    for (int i = 0; i < adv->n; i++) {
        const struct adv_finding *f = &adv->f[i];
        sb_printf(sb, "<tr><td class=\"n\">%d</td><td>", i + 1);
        rep_esc(sb, f->rule);
        sb_printf(sb, "</td><td class=\"n\">%.4f</td><td class=\"n\">%.1f</td><td>", f->gain_s * 1e3,
                  f->gain_fraction * 100);
        for (int k = 0; k < f->n_layers && k < 20; k++) {
            if (k) sb_puts(sb, "<br>");
            rep_esc(sb, f->layers[k]);
        }
        if (f->n_layers > 20) sb_printf(sb, "<br>(+%d more)", f->n_layers - 20);
        sb_puts(sb, "</td><td>");
        rep_esc(sb, f->evidence);
        sb_puts(sb, "</td><td>");
        rep_esc(sb, f->change);
        sb_puts(sb, "</td></tr>\n");
    }
    sb_puts(sb, "</tbody></table></div>\n");
}

enum nnperf_status adv_render(const struct nnperf_advice *adv, enum nnperf_format fmt, struct strbuf *sb)
{
    switch (fmt) {
    case NNPERF_FORMAT_TABLE: table(adv, sb); return NNPERF_OK;
    case NNPERF_FORMAT_JSON: json(adv, sb); return NNPERF_OK;
    case NNPERF_FORMAT_HTML: {
        struct strbuf tab;
        sb_init(&tab, (size_t)16 << 20);
        html_tab(adv, &tab);
        if (tab.overflow) {
            sb_free(&tab);
            return NNPERF_E_LIMIT;
        }
        struct rep_html_section sec = {"advice", "Advice", tab.p ? tab.p : "", 1};
        rep_html_prediction(adv->base, &sec, 1, sb);
        sb_free(&tab);
        return NNPERF_OK;
    }
    default: return NNPERF_E_USAGE;
    }
}
