/* render.c - writes a MAX7800x plan as a table (layer program, plan, kernel map, usage, problems), as JSON, or as an
 * ai8x-synthesis network description (YAML: arch, dataset, layers with processors, output_processors, in_offset,
 * out_offset, operation, kernel_size, pad, activate, max_pool/avg_pool, pool_stride, eltwise, in_sequences,
 * write_gap, flatten, streaming, quantization; the keys and values the vendor's loader reads, [AI8X-SYNTHESIS] in docs/sources.md), which
 * that loader accepts as written. Output is deterministic: fixed formats, C locale number printing, no timestamps. */
#include <stdio.h>
#include <string.h>

#include "../core/yamlw.h"
#include "mcu.h"

const char *mcu_op_name(int op)
{
    switch (op) {
    case MCU_OP_CONV2D: return "conv2d";
    case MCU_OP_CONV1D: return "conv1d";
    case MCU_OP_CONVT2D: return "convtranspose2d";
    case MCU_OP_LINEAR: return "mlp";
    default: return "none";
    }
}

const char *mcu_elt_name(int elt)
{
    switch (elt) {
    case MCU_ELT_ADD: return "add";
    case MCU_ELT_SUB: return "sub";
    case MCU_ELT_XOR: return "xor";
    case MCU_ELT_OR: return "or";
    default: return "none";
    }
}

static const char *act_name(int a)
{
    return a == MCU_ACT_RELU ? "ReLU" : a == MCU_ACT_ABS ? "Abs" : "None";
}

static const char *op_of(const struct mcu_layer *l)
{
    return l->passthrough ? "passthrough" : mcu_op_name(l->op);
}

static void kernel_str(char *b, size_t n, const struct mcu_layer *l)
{
    if (l->op == MCU_OP_NONE)
        snprintf(b, n, "-");
    else if (l->op == MCU_OP_CONV1D)
        snprintf(b, n, "%d", l->kh);
    else
        snprintf(b, n, "%dx%d", l->kh, l->kw);
}

static void pool_str(char *b, size_t n, const struct mcu_layer *l)
{
    if (!l->pool)
        snprintf(b, n, "-");
    else if (l->pool_kh == l->pool_kw || l->op == MCU_OP_CONV1D)
        snprintf(b, n, "%s%d/%d", l->pool == MCU_POOL_MAX ? "max" : "avg", l->pool_kh, l->pool_stride);
    else
        snprintf(b, n, "%s%dx%d/%d", l->pool == MCU_POOL_MAX ? "max" : "avg", l->pool_kh, l->pool_kw,
                 l->pool_stride);
}

static void seq_str(char *b, size_t n, const struct mcu_layer *l)
{
    size_t at = 0;
    b[0] = 0;
    for (int k = 0; k < l->n_in && at < n; k++)
        at += (size_t)snprintf(b + at, n - at, "%s%d", k ? ", " : "", l->in_seq[k]);
}

static int kmax_words(const struct mcu_device *d)
{
    return d->kern_words_big > d->kern_words ? d->kern_words_big : d->kern_words;
}

/* "  - text" per message, made printable (a node name's line break cannot start a line) */
static void put_msgs(struct strbuf *sb, const struct mcu_msgs *ms)
{
    for (int i = 0; i < ms->n; i++) {
        sb_puts(sb, "  - ");
        sb_put_text(sb, ms->m[i].text, NULL);
        sb_putc(sb, '\n');
    }
}

static void render_table(const struct mcu_plan *p, struct strbuf *sb)
{
    const struct mcu_device *d = p->dev;
    char a[64], b[64], c[64];
    sb_puts(sb, "model: ");
    sb_put_text(sb, p->model ? p->model : "", NULL);
    sb_putc(sb, '\n');
    sb_printf(sb, "target: %s (%d processors, %d x %lld KiB data memory, %g MHz CNN clock), %d-bit weights\n",
              d->display, d->procs, d->instances, (long long)(d->instance_bytes / 1024), p->clock_hz / 1e6,
              p->weight_bits);
    sb_printf(sb, "result: %s\n\n", p->fits ? "fits" : "does not fit");

    sb_puts(sb, "layer program:\n");
    sb_printf(sb, "  %3s %-15s %-6s %3s %-9s %-4s %-5s %-8s %6s %6s %-9s %-9s %6s  %s\n", "#", "operation",
              "kernel", "pad", "pool", "act", "elt", "inputs", "in ch", "out ch", "in", "out", "passes",
              "nodes");
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        char k[16], pl[32], seq[64], in[32], out[32], op[24];
        kernel_str(k, sizeof k, l);
        pool_str(pl, sizeof pl, l);
        seq_str(seq, sizeof seq, l);
        snprintf(in, sizeof in, "%dx%d", l->in_h, l->in_w);
        snprintf(out, sizeof out, "%dx%d", l->out_h, l->out_w);
        snprintf(op, sizeof op, "%s%s", op_of(l), l->flatten ? "+flat" : "");
        sb_printf(sb, "  %3d %-15s %-6s %3d %-9s %-4s %-5s %-8s %6d %6d %-9s %-9s %6d  ", i, op, k, l->pad,
                  pl, act_name(l->act), l->elt ? mcu_elt_name(l->elt) : "-", seq, l->in_ch, l->out_ch, in,
                  out, l->passes);
        sb_put_text(sb, l->passthrough ? l->name : l->nodes, NULL);
        sb_putc(sb, '\n');
    }

    sb_puts(sb, "\nplan (offsets are bytes inside each data-memory instance; kernel words are 72-bit):\n");
    sb_printf(sb, "  %3s %-18s %-18s %-9s %-10s %3s %-16s %-10s %10s %10s\n", "#", "processors",
              "output procs", "in_offset", "out_offset", "gap", "kernel words", "bias", "cycles", "us");
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        char kw[32], bias[24];
        if (l->kern_len)
            snprintf(kw, sizeof kw, "%d-%d", l->kern_offset, l->kern_offset + l->kern_len - 1);
        else
            snprintf(kw, sizeof kw, "-");
        if (l->bias_group >= 0)
            snprintf(bias, sizeof bias, "g%d+%d", l->bias_group, l->bias_offset);
        else
            snprintf(bias, sizeof bias, "-");
        sb_printf(sb, "  %3d 0x%016llx 0x%016llx 0x%04llx    0x%04llx     %3d %-16s %-10s %10llu %10.2f\n", i,
                  (unsigned long long)l->in_mask, (unsigned long long)l->out_mask,
                  (unsigned long long)l->in_offset, (unsigned long long)l->out_offset, l->write_gap, kw, bias,
                  (unsigned long long)l->cycles, (double)l->cycles / p->clock_hz * 1e6);
    }

    /* kernel map: one row per processor, one column per group of words, the layer (0-9, a-z, then '*') */
    int kmax = kmax_words(d), cols = 64, per = (kmax + cols - 1) / cols;
    sb_printf(
        sb,
        "\nkernel map (rows: processors 0-63; one column = %d words; layer number 0-9a-z, '*' beyond 35, "
        "'.' free, 'X' not present):\n",
        per);
    for (int q = 0; q < 64; q++) {
        int cap = mcu_kern_words(d, q);
        char row[64];
        for (int col = 0; col < cols; col++) row[col] = col * per >= cap ? 'X' : '.';
        /* each layer marks the columns its kernels cover on this processor; the lowest layer keeps a column */
        for (int i = 0; i < p->n_layers; i++) {
            const struct mcu_layer *l = &p->layers[i];
            if (!l->kern_len || !(l->in_mask >> q & 1) || per <= 0) continue;
            char ch = i < 10 ? (char)('0' + i) : i < 36 ? (char)('a' + i - 10) : '*';
            int64_t c0 = l->kern_offset / per, c1 = (l->kern_offset + l->kern_len - 1) / per;
            for (int64_t col = c0 < 0 ? 0 : c0; col <= c1 && col < cols; col++)
                if (row[col] == '.') row[col] = ch;
        }
        sb_printf(sb, "  %2d ", q);
        sb_putn(sb, row, (size_t)cols);
        sb_putc(sb, '\n');
    }

    sb_puts(sb, "\nusage:\n");
    int64_t cap = mcu_kern_bytes_total(d);
    mcu_commas(a, sizeof a, p->weight_bytes);
    mcu_commas(b, sizeof b, cap);
    sb_printf(sb, "  weight memory: %s bytes of %s (%.1f%%)", a, b,
              cap ? 100.0 * (double)p->weight_bytes / (double)cap : 0);
    mcu_commas(a, sizeof a, p->kern_words_used);
    mcu_commas(b, sizeof b, cap / 9);
    sb_printf(sb, "; kernel words used %s of %s\n", a, b);
    mcu_commas(a, sizeof a, p->bias_bytes);
    mcu_commas(b, sizeof b, (long long)d->bias_groups * d->bias_group_bytes);
    sb_printf(sb, "  bias memory: %s bytes of %s\n", a, b);
    mcu_commas(c, sizeof c, d->instance_bytes);
    sb_printf(sb, "  data memory peak per instance (bytes of %s):", c);
    for (int k = 0; k < d->instances && k < 16; k++)
        sb_printf(sb, "%s%lld", k % 8 ? " " : "\n    ", (long long)p->data_peak[k]);
    sb_printf(sb, "\n  layers: %d of %d (%d pass-through)\n", p->n_layers, d->max_layers, p->passthroughs);
    mcu_commas(a, sizeof a, (long long)p->cycles);
    sb_printf(sb, "  latency: %s cycles, %.2f us at %g MHz (cycle model: docs/map.md)\n", a,
              p->latency_s * 1e6, p->clock_hz / 1e6);
    if (p->problems->n) sb_printf(sb, "\nproblems (%d):\n", p->problems->n);
    put_msgs(sb, p->problems);
    if (p->notes->n) sb_puts(sb, "\nnotes:\n");
    put_msgs(sb, p->notes);
    if (p->warnings->n) sb_puts(sb, "\nwarnings (the vendor's tool gives them too):\n");
    put_msgs(sb, p->warnings);
}

static void render_json(const struct mcu_plan *p, struct strbuf *sb)
{
    const struct mcu_device *d = p->dev;
    sb_puts(sb, "{\n  \"schema\": \"nnperf.map\",\n  \"schema_version\": 1,\n  \"model\": ");
    sb_json_str(sb, p->model ? p->model : "");
    sb_printf(sb, ",\n  \"target\": \"%s\",\n  \"weight_bits\": %d,\n  \"fits\": %s,\n", d->name,
              p->weight_bits, p->fits ? "true" : "false");
    sb_puts(sb, "  \"layers\": [");
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        sb_printf(sb, "%s\n    {\"index\": %d, \"name\": ", i ? "," : "", i);
        sb_json_str(sb, l->name);
        sb_puts(sb, ", \"nodes\": ");
        sb_json_str(sb, l->nodes);
        sb_printf(
            sb, ", \"operation\": \"%s\", \"kernel\": [%d, %d], \"pad\": %d, \"stride\": %d, \"groups\": %d",
            op_of(l), l->kh, l->kw, l->pad, l->stride, l->groups);
        if (l->pool)
            sb_printf(sb, ", \"pool\": {\"type\": \"%s\", \"size\": [%d, %d], \"stride\": %d, \"first\": %s}",
                      l->pool == MCU_POOL_MAX ? "max" : "avg", l->pool_kh, l->pool_kw, l->pool_stride,
                      l->pool_first ? "true" : "false");
        else
            sb_puts(sb, ", \"pool\": null");
        sb_printf(sb, ", \"activation\": \"%s\", \"eltwise\": %s%s%s, \"in_sequences\": [", act_name(l->act),
                  l->elt ? "\"" : "", l->elt ? mcu_elt_name(l->elt) : "null", l->elt ? "\"" : "");
        for (int k = 0; k < l->n_in; k++) sb_printf(sb, "%s%d", k ? ", " : "", l->in_seq[k]);
        sb_printf(
            sb,
            "], \"flatten\": %s, \"in_channels\": %d, \"out_channels\": %d, \"in_dims\": [%d, %d], "
            "\"pooled_dims\": [%d, %d], \"out_dims\": [%d, %d], \"passes\": %d, \"weights\": %lld, "
            "\"macs\": %llu,\n     \"processors\": \"0x%016llx\", \"output_processors\": \"0x%016llx\", "
            "\"in_offset\": %lld, \"out_offset\": %lld, \"write_gap\": %d, \"out_bytes\": %lld, "
            "\"kernel_offset\": %d, \"kernel_words\": %d, \"bias_group\": %d, \"bias_offset\": %d, "
            "\"weight_bits\": %d, \"streaming\": %s, \"cycles\": %llu, \"latency_us\": %.3f}",
            l->flatten ? "true" : "false", l->in_ch, l->out_ch, l->in_h, l->in_w, l->pooled_h, l->pooled_w,
            l->out_h, l->out_w, l->passes, (long long)l->weights, (unsigned long long)l->macs,
            (unsigned long long)l->in_mask, (unsigned long long)l->out_mask, (long long)l->in_offset,
            (long long)l->out_offset, l->write_gap, (long long)l->out_bytes, l->kern_offset, l->kern_len,
            l->bias_group, l->bias_offset, l->weight_bits, l->streaming ? "true" : "false",
            (unsigned long long)l->cycles, (double)l->cycles / p->clock_hz * 1e6);
    }
    sb_puts(sb, "\n  ],\n");
    int64_t cap = mcu_kern_bytes_total(d);
    sb_printf(sb,
              "  \"usage\": {\"weight_bytes\": %lld, \"weight_capacity\": %lld, \"kernel_words\": %lld, "
              "\"kernel_words_capacity\": %lld, \"bias_bytes\": %lld, \"bias_capacity\": %d, "
              "\"data_instance_bytes\": %lld, \"data_peak\": [",
              (long long)p->weight_bytes, (long long)cap, (long long)p->kern_words_used, (long long)(cap / 9),
              (long long)p->bias_bytes, d->bias_groups * d->bias_group_bytes, (long long)d->instance_bytes);
    for (int k = 0; k < 16; k++) sb_printf(sb, "%s%lld", k ? ", " : "", (long long)p->data_peak[k]);
    sb_printf(sb, "], \"layers\": %d, \"max_layers\": %d, \"passthrough_layers\": %d},\n", p->n_layers,
              d->max_layers, p->passthroughs);
    sb_printf(sb, "  \"latency\": {\"cycles\": %llu, \"clock_hz\": %.0f, \"us\": %.3f},\n",
              (unsigned long long)p->cycles, p->clock_hz, p->latency_s * 1e6);
    sb_puts(sb, "  \"problems\": [");
    for (int i = 0; i < p->problems->n; i++) {
        sb_puts(sb, i ? ",\n    " : "\n    ");
        sb_json_str(sb, p->problems->m[i].text);
    }
    sb_puts(sb, p->problems->n ? "\n  ],\n" : "],\n");
    sb_puts(sb, "  \"notes\": [");
    for (int i = 0; i < p->notes->n; i++) {
        sb_puts(sb, i ? ",\n    " : "\n    ");
        sb_json_str(sb, p->notes->m[i].text);
    }
    sb_puts(sb, p->notes->n ? "\n  ],\n" : "],\n");
    sb_puts(sb, "  \"warnings\": [");
    for (int i = 0; i < p->warnings->n; i++) {
        sb_puts(sb, i ? ",\n    " : "\n    ");
        sb_json_str(sb, p->warnings->m[i].text);
    }
    sb_puts(sb, p->warnings->n ? "\n  ]\n}\n" : "]\n}\n");
}

/* The ai8x-synthesis description: every key and value through libyaml's emitter (core/yamlw.h), so that no model
 * or node name changes the structure; the layers' node names go into comment lines, made printable. */
static void render_yaml(const struct mcu_plan *p, struct strbuf *sb)
{
    const char *model = p->model ? p->model : "model";
    const char *base = strrchr(model, '/');
    base = base ? base + 1 : model;
    size_t blen = strlen(base);
    if (blen > 5 && !strcmp(base + blen - 5, ".onnx")) blen -= 5;
    char line[512];
    snprintf(line, sizeof line, "ai8x-synthesis network description written by nnperf map from %s", model);
    yw_comment(sb, 0, line);
    snprintf(line, sizeof line, "target %s, %d-bit weights%s: %s", p->dev->display, p->weight_bits,
             p->bits ? " (per-layer bits from a weight-bits file)" : "",
             p->fits ? "fits" : "DOES NOT FIT (see nnperf map's problems)");
    yw_comment(sb, 0, line);
    if (p->streaming_layers) {
        snprintf(line, sizeof line, "layers 0-%d stream: run the vendor's tool with --fifo",
                 p->streaming_layers - 1);
        yw_comment(sb, 0, line);
    }
    sb_puts(sb, "---\n");
    struct yamlw w;
    struct arena ar;
    ar_init(&ar, 0);
    yw_begin(&w, sb);
    yw_map(&w, 0);
    yw_plain(&w, "arch");
    yw_str(&w, ar_strndup(&ar, base, blen));
    yw_plain(&w, "dataset");
    yw_str(&w, p->dataset ? p->dataset : "unknown");
    yw_end_map(&w);
    yw_end(&w);
    ar_free(&ar);
    sb_puts(sb, "\nlayers:\n");
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        char k[16];
        snprintf(line, sizeof line, "Layer %d: %s", i, l->passthrough ? l->name : l->nodes);
        yw_comment(sb, 2, line);
        /* the item "- key: value ..." as a one-item sequence, each of its lines indented under layers: */
        struct strbuf item;
        sb_init(&item, (size_t)1 << 20);
        yw_begin(&w, &item);
        yw_seq(&w, 0);
        yw_map(&w, 0);
        yw_plain(&w, "processors");
        yw_printf(&w, "0x%016llx", (unsigned long long)l->in_mask);
        yw_plain(&w, "output_processors");
        yw_printf(&w, "0x%016llx", (unsigned long long)l->out_mask);
        yw_plain(&w, "in_offset");
        yw_printf(&w, "0x%04llx", (unsigned long long)l->in_offset);
        yw_plain(&w, "out_offset");
        yw_printf(&w, "0x%04llx", (unsigned long long)l->out_offset);
        yw_plain(&w, "operation");
        yw_plain(&w, op_of(l));
        if (l->op != MCU_OP_NONE && l->op != MCU_OP_LINEAR) { /* mlp: 1x1 implied, the loader refuses it */
            kernel_str(k, sizeof k, l);
            yw_plain(&w, "kernel_size");
            yw_plain(&w, k);
            yw_plain(&w, "pad");
            yw_printf(&w, "%d", l->pad);
        }
        yw_plain(&w, "activate");
        yw_plain(&w, act_name(l->act));
        if (l->pool) {
            yw_plain(&w, l->pool == MCU_POOL_MAX ? "max_pool" : "avg_pool");
            if (l->pool_kh == l->pool_kw || l->op == MCU_OP_CONV1D) {
                yw_printf(&w, "%d", l->pool_kh);
            } else {
                yw_seq(&w, 1);
                yw_printf(&w, "%d", l->pool_kh);
                yw_printf(&w, "%d", l->pool_kw);
                yw_end_seq(&w);
            }
            yw_plain(&w, "pool_stride");
            yw_printf(&w, "%d", l->pool_stride);
            if (l->elt && !l->pool_first) {
                yw_plain(&w, "pool_first");
                yw_plain(&w, "false");
            }
        }
        if (l->elt) {
            yw_plain(&w, "eltwise");
            yw_plain(&w, mcu_elt_name(l->elt));
        }
        if (l->n_in > 1 || l->in_seq[0] != i - 1) {
            yw_plain(&w, "in_sequences");
            if (l->n_in > 1) yw_seq(&w, 1);
            for (int j = 0; j < l->n_in; j++) yw_printf(&w, "%d", l->in_seq[j]);
            if (l->n_in > 1) yw_end_seq(&w);
        }
        if (l->write_gap) {
            yw_plain(&w, "write_gap");
            yw_printf(&w, "%d", l->write_gap);
        }
        if (l->flatten) {
            yw_plain(&w, "flatten");
            yw_plain(&w, "true");
        }
        if (l->chw || i == 0) {
            yw_plain(&w, "data_format");
            yw_plain(&w, l->chw ? "CHW" : "HWC");
        }
        if (l->streaming) {
            yw_plain(&w, "streaming");
            yw_plain(&w, "true");
        }
        if (l->output_width == 32) {
            yw_plain(&w, "output_width");
            yw_plain(&w, "32");
        }
        if (l->weight_bits != 8 && l->kern_len) {
            yw_plain(&w, "quantization");
            yw_printf(&w, "%d", l->weight_bits);
        }
        yw_end_map(&w);
        yw_end_seq(&w);
        yw_end(&w);
        for (const char *q = item.p ? item.p : ""; *q;) {
            const char *e = strchr(q, '\n');
            size_t n = e ? (size_t)(e - q) + 1 : strlen(q);
            sb_puts(sb, "  ");
            sb_putn(sb, q, n);
            q += n;
        }
        if (item.overflow) sb->overflow = 1;
        sb_free(&item);
    }
}

enum nnperf_status mcu_render(const struct mcu_plan *p, const char *fmt, struct strbuf *sb)
{
    if (!strcmp(fmt, "table")) { /* text for people: a name's control characters written as \xNN */
        struct strbuf t;
        sb_init(&t, sb->cap);
        render_table(p, &t);
        if (t.overflow) sb->overflow = 1;
        sb_put_text(sb, t.p ? t.p : "", "\n");
        sb_free(&t);
    } else if (!strcmp(fmt, "json"))
        render_json(p, sb);
    else if (!strcmp(fmt, "yaml"))
        render_yaml(p, sb);
    else
        return NNPERF_E_USAGE;
    return NNPERF_OK;
}
