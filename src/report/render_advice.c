/* render_advice.c - `nnperf advise`: the advice as a table (findings ordered by gain, each with its layers,
 * evidence and change), JSON (schema "nnperf.advice", docs/json-schema.md and docs/advise.md) or HTML (the
 * prediction's page with an Advice tab). Numbers have fixed formats so the output is byte-for-byte reproducible.
 * The advice is read from the advise module's own record of it (src/advise/advise.h, below report in the layer
 * order); the prediction it advised on through the public accessors (view.h). */
#include <stdio.h>
#include <stdlib.h>

#include "../advise/advise.h"
#include "render.h"

#define TABLE_MAX_LAYERS 6 /* layer names shown per finding in the table */

static void header(const struct nnperf_advice *adv, struct strbuf *sb)
{
    sb_printf(sb, "advice for %s on %s (%s, %d frame%s per run): latency %.3f ms per run, %.1f FPS\n",
              adv->model, adv->platform, adv->dtype, adv->frames, adv->frames > 1 ? "s" : "",
              adv->latency_s * 1e3, adv->fps);
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(adv->base, &s);
    char xe[400];
    rep_expected_error_text(adv->base, &s, xe, sizeof xe);
    sb_printf(sb, "expected error of the prediction: %s\n", xe);
    sb_printf(
        sb,
        "%d finding%s, ordered by predicted gain per frame; each gain is the prediction re-run with the "
        "change applied (%d changes predicted, %d below the minimum gain: %.1f%%, 10%% for batch and "
        "dtype)\n",
        adv->n, adv->n == 1 ? "" : "s", adv->n_checked, adv->n_below, adv->min_gain * 100);
    for (int i = adv->warn_from; nnperf_prediction_warning(adv->base, i); i++)
        sb_printf(sb, "warning: %s\n", nnperf_prediction_warning(adv->base, i));
}

/* What the change does to throughput and to the latency per run: "269.4 -> 338.4 FPS (+25.6%), latency per run
 * 3.712 -> 2.956 ms (-0.756 ms)"; a latency that grows is named a cost. */
static void effect(const struct adv_finding *f, struct strbuf *sb)
{
    double dl = (f->new_latency_s - f->latency_s) * 1e3;
    sb_printf(sb, "%.1f -> %.1f FPS (%+.1f%%), latency per run %.3f -> %.3f ms (%+.3f ms%s)", f->fps,
              f->new_fps, f->fps > 0 ? 100 * (f->new_fps / f->fps - 1) : 0, f->latency_s * 1e3,
              f->new_latency_s * 1e3, dl, dl > 0.0005 ? ": a latency cost" : "");
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
        sb_printf(sb, "\n   evidence: %s\n   change:   %s\n   effect:   ", f->evidence, f->change);
        effect(f, sb);
        sb_putc(sb, '\n');
    }
    if (!adv->n) sb_puts(sb, "\nno finding: no rule predicts a gain above the threshold\n");
    sb_puts(sb, "\n`nnperf advise --explain RULE` gives a rule's rationale and source.\n");
}

static void json(const struct nnperf_advice *adv, struct strbuf *sb)
{
    struct rep_json j;
    rj_init(&j, sb);
    rj_obj(&j, NULL, 1);
    rj_header(&j, "nnperf.advice", 1);
    rj_str(&j, "model", adv->model);
    rj_str(&j, "platform", adv->platform);
    rj_str(&j, "dtype", adv->dtype);
    rj_int(&j, "frames_per_run", adv->frames);
    rj_num(&j, "latency_ms", adv->latency_s * 1e3);
    rj_num(&j, "fps", adv->fps);
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(adv->base, &s);
    rep_json_expected_error(&j, &s);
    rj_num(&j, "min_gain_percent", adv->min_gain * 100);
    rj_int(&j, "changes_predicted", adv->n_checked);
    rj_arr(&j, "findings", 1);
    for (int i = 0; i < adv->n; i++) {
        const struct adv_finding *f = &adv->f[i];
        rj_obj(&j, NULL, 0);
        rj_str(&j, "rule", f->rule);
        rj_arr(&j, "layers", 0);
        for (int k = 0; k < f->n_layers; k++) rj_str(&j, NULL, f->layers[k]);
        rj_end(&j);
        rj_str(&j, "evidence", f->evidence);
        rj_str(&j, "change", f->change);
        rj_num(&j, "gain_ms", f->gain_s * 1e3);
        rj_num(&j, "gain_percent", f->gain_fraction * 100);
        rj_num(&j, "latency_ms", f->latency_s * 1e3);
        rj_num(&j, "new_latency_ms", f->new_latency_s * 1e3);
        rj_int(&j, "frames_per_run", f->frames);
        rj_int(&j, "new_frames_per_run", f->new_frames);
        rj_num(&j, "fps", f->fps);
        rj_num(&j, "new_fps", f->new_fps);
        rj_end(&j);
    }
    rj_end(&j);
    rep_json_warnings(&j, adv->a, adv->base);
    rj_end(&j);
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
            "<th>change</th><th>effect</th></tr></thead>\n<tbody>\n");
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
        sb_puts(sb, "</td><td>");
        struct strbuf e;
        sb_init(&e, 512);
        effect(f, &e);
        rep_esc(sb, e.p ? e.p : "");
        sb_free(&e);
        sb_puts(sb, "</td></tr>\n");
    }
    sb_puts(sb, "</tbody></table></div>\n");
}

enum nnperf_status nnperf_advice_render(const struct nnperf_advice *adv, enum nnperf_format fmt, char **out,
                                        size_t *len, char *err, size_t errlen)
{
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (!adv) {
        if (err && errlen) snprintf(err, errlen, "no advice given");
        return NNPERF_E_USAGE;
    }
    struct strbuf sb;
    sb_init(&sb, (size_t)64 << 20);
    switch (fmt) {
    case NNPERF_FORMAT_TABLE: table(adv, &sb); break;
    case NNPERF_FORMAT_JSON: json(adv, &sb); break;
    case NNPERF_FORMAT_HTML: {
        struct strbuf tab;
        sb_init(&tab, (size_t)16 << 20);
        html_tab(adv, &tab);
        struct rep_view v;
        if (tab.overflow || rep_view_init(&v, adv->base, adv->model)) {
            sb.overflow = 1;
        } else {
            struct rep_extra_tab sec = {"advice", "Advice", tab.p ? tab.p : ""};
            rep_pred_html(&v, &sec, 1, &sb);
            rep_view_free(&v);
        }
        sb_free(&tab);
        break;
    }
    default: sb_free(&sb); return rep_bad_format("advice", fmt, "table, json or html", err, errlen);
    }
    return rep_finish_as(&sb, fmt, out, len, err, errlen);
}
