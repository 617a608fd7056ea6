/* predict_report.c - the prediction as people and programs read it: an HBDK-style summary (seed 000: ops per
 * frame and run, DDR bytes per frame/run/second, loaded and stored bytes, latency, FPS, utilization), layer details
 * (ops, original and aligned output shape, compute and load/store time, active period, bound, share) and the
 * timeline; JSON adds the same to the analysis document; CSV has one row per layer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "report.h"

void rep_json_num(struct strbuf *sb, double x)
{
    if (!isfinite(x))
        sb_puts(sb, "null");
    else if (x == floor(x) && fabs(x) < 1e15)
        sb_printf(sb, "%.0f", x);
    else
        sb_printf(sb, "%.6g", x);
}

static void kv(struct strbuf *sb, const char *k, double x)
{
    sb_printf(sb, ",\"%s\":", k);
    rep_json_num(sb, x);
}

void rep_prediction_json_summary(const struct nnperf_prediction *p, struct strbuf *sb)
{
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(p, &s);
    sb_puts(sb, ",\"platform\":");
    sb_json_str(sb, s.platform);
    sb_puts(sb, ",\"dtype\":");
    sb_json_str(sb, s.dtype);
    sb_printf(sb, ",\"frames_per_run\":%d", s.frames_per_run);
    sb_puts(sb, ",\"memory_model\":");
    sb_json_str(sb, s.memory_model);
    sb_puts(sb, ",\"compute_model\":");
    sb_json_str(sb, s.compute_model);
    kv(sb, "latency_ms", s.latency_s * 1e3);
    kv(sb, "fps", s.fps);
    kv(sb, "throughput_fps", s.throughput_fps);
    sb_printf(sb, ",\"cores\":%d,\"cores_per_inference\":%d", s.cores, s.cores_per_inference);
    kv(sb, "ops_per_frame", s.ops_per_frame);
    kv(sb, "ops_per_run", s.ops_per_run);
    kv(sb, "aligned_ops_per_frame", s.aligned_ops_per_frame);
    kv(sb, "ddr_bytes_per_frame", s.ddr_bytes_per_frame);
    kv(sb, "ddr_bytes_per_run", s.ddr_bytes_per_run);
    kv(sb, "ddr_bytes_per_second", s.ddr_bytes_per_second);
    kv(sb, "loaded_bytes_per_frame", s.loaded_bytes_per_frame);
    kv(sb, "stored_bytes_per_frame", s.stored_bytes_per_frame);
    kv(sb, "weight_bytes_per_frame", s.weight_bytes_per_frame);
    kv(sb, "spill_bytes_per_frame", s.spill_bytes_per_frame);
    kv(sb, "avg_utilization", s.avg_utilization);
    sb_printf(sb, ",\"layers\":%d,\"fallback_layers\":%d,\"spilled_tensors\":%d,\"unknown_layers\":%d",
              s.layers, s.fallback_layers, s.spilled_tensors, s.unknown_layers);
}

static void json_dims(struct strbuf *sb, const struct pr_layer *L, int aligned)
{
    if (!L->out || L->out->rank < 0) {
        sb_puts(sb, "null");
        return;
    }
    sb_putc(sb, '[');
    for (int i = 0; i < L->out->rank; i++) {
        if (i) sb_putc(sb, ',');
        struct ir_dim d = L->out->dims[i];
        if (d.val < 0)
            sb_puts(sb, "null");
        else
            sb_printf(sb, "%lld",
                      (long long)(aligned && L->out_rank == L->out->rank ? L->aligned_dims[i] : d.val));
    }
    sb_putc(sb, ']');
}

void rep_prediction_json_tail(const struct nnperf_prediction *p, struct strbuf *sb)
{
    const struct hw_desc *hw = &p->hw;
    sb_puts(sb, ",\n\"platform\":{\"name\":");
    sb_json_str(sb, hw->name);
    sb_puts(sb, ",\"description\":");
    sb_json_str(sb, hw->description);
    kv(sb, "peak_ops", hw->peak_ops[p->dtype]);
    kv(sb, "ddr_bandwidth", hw->ddr_bw);
    kv(sb, "ddr_efficiency", hw->ddr_eff);
    kv(sb, "sram_bytes", hw->sram_bytes);
    sb_puts(sb, "},\n\"layers\":[");
    for (int l = 0; l < p->n_layers; l++) {
        const struct pr_layer *L = &p->layers[l];
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, l, &li);
        sb_puts(sb, l ? ",\n{" : "\n{");
        sb_puts(sb, "\"name\":");
        sb_json_str(sb, L->name);
        sb_puts(sb, ",\"op\":");
        sb_json_str(sb, li.op);
        sb_puts(sb, ",\"class\":");
        sb_json_str(sb, li.klass);
        sb_puts(sb, ",\"nodes\":[");
        for (int i = 0; i < L->n_nodes; i++) {
            if (i) sb_putc(sb, ',');
            sb_json_str(sb, L->nodes[i]->name);
        }
        sb_puts(sb, "],\"unit\":");
        sb_json_str(sb, L->fallback ? "fallback" : "accelerator");
        sb_printf(sb, ",\"cost_known\":%s", L->cost_known ? "true" : "false");
        kv(sb, "ops", li.ops);
        kv(sb, "aligned_ops", li.aligned_ops);
        sb_puts(sb, ",\"output_shape\":");
        json_dims(sb, L, 0);
        sb_puts(sb, ",\"aligned_output_shape\":");
        json_dims(sb, L, 1);
        kv(sb, "weight_bytes", L->w_bytes);
        kv(sb, "load_bytes", L->load_bytes);
        kv(sb, "store_bytes", L->store_bytes);
        kv(sb, "spill_store_bytes", L->spill_store_bytes);
        kv(sb, "spill_load_bytes", L->spill_load_bytes);
        kv(sb, "transfer_bytes", L->transfer_bytes);
        kv(sb, "compute_us", L->t_compute * 1e6);
        kv(sb, "memory_us", L->t_memory * 1e6);
        kv(sb, "transfer_us", L->t_transfer * 1e6);
        kv(sb, "overhead_us", L->t_overhead * 1e6);
        kv(sb, "time_us", L->t_total * 1e6);
        kv(sb, "start_us", L->start * 1e6);
        kv(sb, "end_us", L->end * 1e6);
        sb_puts(sb, ",\"bound\":");
        sb_json_str(sb, li.bound);
        kv(sb, "share", p->latency > 0 ? L->t_total / p->latency : 0);
        kv(sb, "intensity", li.intensity);
        kv(sb, "attained_ops_per_s", li.attained);
        sb_putc(sb, '}');
    }
    sb_puts(sb, "\n],\n\"timeline\":{\"interval_ms\":");
    rep_json_num(sb, p->interval_s * 1e3);
    const char *keys[3] = {"utilization", "load_bandwidth", "store_bandwidth"};
    for (int k = 0; k < 3; k++) {
        sb_printf(sb, ",\"%s\":[", keys[k]);
        for (int i = 0; i < p->n_iv; i++) {
            if (i) sb_putc(sb, ',');
            double x = k == 0 ? p->iv[i].util : k == 1 ? p->iv[i].load_bw : p->iv[i].store_bw;
            rep_json_num(sb, k == 0 ? round(x * 1e6) / 1e6 : round(x));
        }
        sb_putc(sb, ']');
    }
    sb_puts(sb, "},\n\"prediction_warnings\":[");
    for (int i = 0; i < p->n_warn; i++) {
        if (i) sb_putc(sb, ',');
        sb_puts(sb, "\n");
        sb_json_str(sb, p->warn[i]);
    }
    sb_puts(sb, p->n_warn ? "\n]" : "]");
}

static void shape_str(char *b, size_t n, const struct pr_layer *L, int aligned)
{
    size_t o = 0;
    b[0] = 0;
    if (!L->out || L->out->rank < 0) {
        snprintf(b, n, "?");
        return;
    }
    for (int i = 0; i < L->out->rank && o + 24 < n; i++) {
        struct ir_dim d = L->out->dims[i];
        int64_t v = aligned && L->out_rank == L->out->rank ? L->aligned_dims[i] : d.val;
        if (d.val < 0)
            o += (size_t)snprintf(b + o, n - o, "%s?", i ? "x" : "");
        else
            o += (size_t)snprintf(b + o, n - o, "%s%lld", i ? "x" : "", (long long)v);
    }
}

void rep_prediction_table(const struct nnperf_prediction *p, struct strbuf *sb)
{
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(p, &s);
    char a[8][48];
    sb_printf(sb, "\nplatform: %s (%s), dtype %s, %d frame%s per run, memory model %s\n", p->hw.name,
              p->hw.description[0] ? p->hw.description : "no description", s.dtype, s.frames_per_run,
              s.frames_per_run == 1 ? "" : "s", s.memory_model);
    rep_fmt_si(a[0], 48, s.ops_per_frame);
    rep_fmt_si(a[1], 48, s.ops_per_run);
    rep_fmt_si(a[2], 48, s.aligned_ops_per_frame);
    sb_printf(sb, "  ops per frame            %s (aligned %s; ops = 2 x MACs + other FLOPs)\n", a[0], a[2]);
    sb_printf(sb, "  ops per run              %s\n", a[1]);
    rep_fmt_si(a[3], 48, s.ddr_bytes_per_frame);
    rep_fmt_si(a[4], 48, s.ddr_bytes_per_run);
    rep_fmt_si(a[5], 48, s.ddr_bytes_per_second);
    sb_printf(sb, "  DDR bytes per frame      %sB (per run %sB, per second %sB/s)\n", a[3], a[4], a[5]);
    rep_fmt_si(a[0], 48, s.loaded_bytes_per_frame);
    rep_fmt_si(a[1], 48, s.stored_bytes_per_frame);
    rep_fmt_si(a[2], 48, s.weight_bytes_per_frame);
    rep_fmt_si(a[3], 48, s.spill_bytes_per_frame);
    sb_printf(sb, "  loaded / stored per frame %sB / %sB (weights %sB, spills %sB)\n", a[0], a[1], a[2],
              a[3]);
    rep_fmt_time(a[6], 48, s.latency_s);
    sb_printf(sb, "  latency                  %s per run\n", a[6]);
    sb_printf(sb, "  FPS                      %.2f\n", s.fps);
    if (s.cores > s.cores_per_inference)
        sb_printf(sb, "  throughput               %.2f FPS (%d inferences in flight, one per %d core%s)\n",
                  s.throughput_fps, s.cores / s.cores_per_inference, s.cores_per_inference,
                  s.cores_per_inference == 1 ? "" : "s");
    sb_printf(sb, "  average utilization      %.1f%%\n", s.avg_utilization * 100);
    sb_printf(sb, "  layers                   %d (%d on the fallback unit, %d spilled tensors)\n", s.layers,
              s.fallback_layers, s.spilled_tensors);
    sb_printf(sb, "\n%-5s %-30s %-14s %9s %-18s %-18s %10s %10s %-22s %-8s %6s\n", "#", "layer", "op", "ops",
              "output shape", "aligned shape", "compute", "load/store", "active period (us)", "bound",
              "share");
    for (int l = 0; l < p->n_layers; l++) {
        const struct pr_layer *L = &p->layers[l];
        if (L->t_total <= 0 && L->mac_ops + L->vec_ops <= 0) continue; /* views and folded work */
        char ops[32], sh[96], ash[96], tc[32], tm[32], per[64];
        rep_fmt_si(ops, sizeof ops, L->mac_ops + L->vec_ops);
        shape_str(sh, sizeof sh, L, 0);
        shape_str(ash, sizeof ash, L, 1);
        rep_fmt_time(tc, sizeof tc, L->t_compute);
        rep_fmt_time(tm, sizeof tm, L->t_memory + L->t_transfer);
        snprintf(per, sizeof per, "%.1f ~ %.1f (%.1f)", L->start * 1e6, L->end * 1e6,
                 (L->end - L->start) * 1e6);
        const char *nm = L->name;
        size_t nl = strlen(nm);
        sb_printf(sb, "%-5d %-30s %-14s %9s %-18s %-18s %10s %10s %-22s %-8s %5.1f%%\n", l,
                  nl > 30 ? nm + nl - 30 : nm, L->main->op_type, ops, sh, ash, tc, tm, per,
                  L->fallback ? "fallback"
                              : (L->bound == PB_COMPUTE    ? "compute"
                                 : L->bound == PB_MEMORY   ? "memory"
                                 : L->bound == PB_OVERHEAD ? "overhead"
                                                           : "unknown"),
                  p->latency > 0 ? 100 * L->t_total / p->latency : 0);
    }
    sb_printf(sb, "\ntimeline (interval %.3f ms): utilization %% | load MB/s | store MB/s\n",
              p->interval_s * 1e3);
    int step = p->n_iv > 40 ? (p->n_iv + 39) / 40 : 1;
    for (int i = 0; i < p->n_iv; i += step)
        sb_printf(sb, "  %8.3f ms  %5.1f%%  %10.1f  %10.1f\n", i * p->interval_s * 1e3, p->iv[i].util * 100,
                  p->iv[i].load_bw / 1e6, p->iv[i].store_bw / 1e6);
    if (step > 1) sb_printf(sb, "  (every %dth of %d intervals shown; JSON has them all)\n", step, p->n_iv);
    if (p->n_warn) {
        sb_printf(sb, "\nprediction warnings (%d):\n", p->n_warn);
        for (int i = 0; i < p->n_warn; i++) sb_printf(sb, "  %s\n", p->warn[i]);
    }
}

static void csv_str(struct strbuf *sb, const char *s)
{
    int q = strpbrk(s, ",\"\n") != NULL;
    if (q) sb_putc(sb, '"');
    for (; *s; s++) {
        if (*s == '"') sb_putc(sb, '"');
        sb_putc(sb, *s);
    }
    if (q) sb_putc(sb, '"');
}

void rep_prediction_csv(const struct nnperf_prediction *p, struct strbuf *sb)
{
    sb_puts(sb,
            "index,layer,op,class,unit,nodes,ops,aligned_ops,weight_bytes,load_bytes,store_bytes,spill_bytes,"
            "compute_us,memory_us,transfer_us,time_us,start_us,end_us,bound,share\n");
    for (int l = 0; l < p->n_layers; l++) {
        const struct pr_layer *L = &p->layers[l];
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, l, &li);
        sb_printf(sb, "%d,", l);
        csv_str(sb, L->name);
        sb_putc(sb, ',');
        csv_str(sb, li.op);
        sb_printf(sb, ",%s,%s,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%s,%.6f\n",
                  li.klass, L->fallback ? "fallback" : "accelerator", L->n_nodes, li.ops, li.aligned_ops,
                  li.weight_bytes, li.load_bytes, li.store_bytes, li.spill_bytes, L->t_compute * 1e6,
                  L->t_memory * 1e6, L->t_transfer * 1e6, L->t_total * 1e6, L->start * 1e6, L->end * 1e6,
                  li.bound, p->latency > 0 ? L->t_total / p->latency : 0);
    }
}

enum nnperf_status nnperf_prediction_render(const struct nnperf_prediction *p, enum nnperf_format fmt,
                                            char **out, size_t *len, char *err, size_t errlen)
{
    struct strbuf sb;
    sb_init(&sb, (size_t)1 << 31);
    *out = NULL;
    *len = 0;
    switch (fmt) {
    case NNPERF_FORMAT_JSON: rep_analysis_json(p->an, &sb, p); break;
    case NNPERF_FORMAT_CSV: rep_prediction_csv(p, &sb); break;
    case NNPERF_FORMAT_TABLE:
        rep_analysis_table(p->an, &sb);
        rep_prediction_table(p, &sb);
        break;
    case NNPERF_FORMAT_HTML: rep_html_prediction(p, NULL, 0, &sb); break;
    default:
        if (err && errlen) snprintf(err, errlen, "unknown output format %d", (int)fmt);
        return NNPERF_E_USAGE;
    }
    return rep_finish(&sb, out, len, err, errlen);
}
