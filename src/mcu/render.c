/* render.c - writes a MAX7800x plan as a table (layer program, plan, kernel map, usage, problems), as JSON, or as an
 * ai8x-synthesis network description (YAML: arch, dataset, layers with processors, output_processors, in_offset,
 * out_offset, operation, kernel_size, pad, activate, max_pool/avg_pool, pool_stride, eltwise, in_sequences,
 * write_gap, flatten, streaming, quantization; the keys and values the vendor's loader reads, [AI8X-SYNTHESIS] in docs/sources.md), which
 * that loader accepts as written. Output is deterministic: fixed formats, C locale number printing, no timestamps. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../core/yamlw.h"
#include "../report/fields.h"
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

/* ---- a layer's columns: the JSON's members and the two tables' columns (fields.h) ----
 * ctx is the plan. The fields up to PLAN_AT are the layer program's table, those from PLAN_AT the plan's; the JSON
 * walks them all. */

#define L(m) offsetof(struct mcu_layer, m)

static void index_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    c->i = (const struct mcu_layer *)row - ((const struct mcu_plan *)ctx)->layers;
    c->is_num = c->is_int = 1;
}

static void operation_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    c->s = op_of(row);
}

static void program_op_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct mcu_layer *l = row;
    snprintf(c->buf, sizeof c->buf, "%s%s", op_of(l), l->flatten ? "+flat" : "");
    c->s = c->buf;
}

static void kernel_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    kernel_str(c->buf, sizeof c->buf, row);
    c->s = c->buf;
}

static void pool_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    pool_str(c->buf, sizeof c->buf, row);
    c->s = c->buf;
}

static void act_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    c->s = act_name(((const struct mcu_layer *)row)->act);
}

/* the element-wise operation: JSON null and "-" in the table when none */
static void elt_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct mcu_layer *l = row;
    c->s = l->elt ? mcu_elt_name(l->elt) : NULL;
    c->text = l->elt ? NULL : "-";
}

static void inputs_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    seq_str(c->buf, sizeof c->buf, row);
    c->s = c->buf;
}

static void dims_cell(char *b, size_t n, int h, int w, struct rf_cell *c)
{
    snprintf(b, n, "%dx%d", h, w);
    c->s = b;
}

static void in_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct mcu_layer *l = row;
    dims_cell(c->buf, sizeof c->buf, l->in_h, l->in_w, c);
}

static void out_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct mcu_layer *l = row;
    dims_cell(c->buf, sizeof c->buf, l->out_h, l->out_w, c);
}

static void nodes_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct mcu_layer *l = row;
    c->s = l->passthrough ? l->name : l->nodes;
}

static void mask_cell(uint64_t m, struct rf_cell *c)
{
    snprintf(c->buf, sizeof c->buf, "0x%016llx", (unsigned long long)m);
    c->s = c->buf;
}

static void processors_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    mask_cell(((const struct mcu_layer *)row)->in_mask, c);
}

static void out_processors_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    mask_cell(((const struct mcu_layer *)row)->out_mask, c);
}

static void offset_cell(int64_t off, struct rf_cell *c)
{
    snprintf(c->buf, sizeof c->buf, "0x%04llx", (unsigned long long)off);
    c->s = c->buf;
}

static void in_offset_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    offset_cell(((const struct mcu_layer *)row)->in_offset, c);
}

static void out_offset_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    offset_cell(((const struct mcu_layer *)row)->out_offset, c);
}

static void kernel_words_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct mcu_layer *l = row;
    if (l->kern_len)
        snprintf(c->buf, sizeof c->buf, "%d-%d", l->kern_offset, l->kern_offset + l->kern_len - 1);
    else
        snprintf(c->buf, sizeof c->buf, "-");
    c->s = c->buf;
}

static void bias_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct mcu_layer *l = row;
    if (l->bias_group >= 0)
        snprintf(c->buf, sizeof c->buf, "g%d+%d", l->bias_group, l->bias_offset);
    else
        snprintf(c->buf, sizeof c->buf, "-");
    c->s = c->buf;
}

static void latency_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    c->x = (double)((const struct mcu_layer *)row)->cycles * 1e6 / ((const struct mcu_plan *)ctx)->clock_hz;
    c->is_num = 1;
}

/* JSON members that are arrays or objects */
static void pair(struct rep_json *j, const char *key, int a, int b)
{
    rj_arr(j, key, 0);
    rj_int(j, NULL, a);
    rj_int(j, NULL, b);
    rj_end(j);
}

static void kernel_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    pair(j, key, ((const struct mcu_layer *)row)->kh, ((const struct mcu_layer *)row)->kw);
}

static void in_dims_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    pair(j, key, ((const struct mcu_layer *)row)->in_h, ((const struct mcu_layer *)row)->in_w);
}

static void pooled_dims_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    pair(j, key, ((const struct mcu_layer *)row)->pooled_h, ((const struct mcu_layer *)row)->pooled_w);
}

static void out_dims_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    pair(j, key, ((const struct mcu_layer *)row)->out_h, ((const struct mcu_layer *)row)->out_w);
}

static void pool_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    const struct mcu_layer *l = row;
    if (!l->pool) {
        rj_null(j, key);
        return;
    }
    rj_obj(j, key, 0);
    rj_str(j, "type", l->pool == MCU_POOL_MAX ? "max" : "avg");
    pair(j, "size", l->pool_kh, l->pool_kw);
    rj_int(j, "stride", l->pool_stride);
    rj_bool(j, "first", l->pool_first);
    rj_end(j);
}

static void in_sequences_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    const struct mcu_layer *l = row;
    rj_arr(j, key, 0);
    for (int k = 0; k < l->n_in; k++) rj_int(j, NULL, l->in_seq[k]);
    rj_end(j);
}

#define RF_JT (RF_JSON | RF_TABLE)

static const struct rf_field layer_fields[] = {
    /* the layer program */
    {.key = "index", .col = {"#", 1, 0, 0, 0}, .in = RF_JT, .kind = RF_FN, .fn = index_cell},
    {.key = "name", .in = RF_JSON, .kind = RF_STR, .off = L(name)},
    {.key = "nodes", .in = RF_JSON, .kind = RF_STR, .off = L(nodes)},
    {.key = "operation", .in = RF_JSON, .kind = RF_FN, .fn = operation_cell},
    {.col = {"operation", 0, 0, 0, 0}, .in = RF_TABLE, .kind = RF_FN, .fn = program_op_cell},
    {.key = "kernel",
     .col = {"kernel", 0, 0, 0, 0},
     .in = RF_JT,
     .kind = RF_FN,
     .fn = kernel_cell,
     .json = kernel_json},
    {.key = "pad", .col = {"pad", 1, 0, 0, 0}, .in = RF_JT, .kind = RF_INT, .off = L(pad)},
    {.key = "stride", .in = RF_JSON, .kind = RF_INT, .off = L(stride)},
    {.key = "groups", .in = RF_JSON, .kind = RF_INT, .off = L(groups)},
    {.key = "pool",
     .col = {"pool", 0, 0, 0, 0},
     .in = RF_JT,
     .kind = RF_FN,
     .fn = pool_cell,
     .json = pool_json},
    {.key = "activation", .col = {"act", 0, 0, 0, 0}, .in = RF_JT, .kind = RF_FN, .fn = act_cell},
    {.key = "eltwise", .col = {"elt", 0, 0, 0, 0}, .in = RF_JT, .kind = RF_FN, .fn = elt_cell},
    {.key = "in_sequences",
     .col = {"inputs", 0, 0, 0, 0},
     .in = RF_JT,
     .kind = RF_FN,
     .fn = inputs_cell,
     .json = in_sequences_json},
    {.key = "flatten", .in = RF_JSON, .kind = RF_BOOL, .off = L(flatten)},
    {.key = "in_channels", .col = {"in ch", 1, 0, 0, 0}, .in = RF_JT, .kind = RF_INT, .off = L(in_ch)},
    {.key = "out_channels", .col = {"out ch", 1, 0, 0, 0}, .in = RF_JT, .kind = RF_INT, .off = L(out_ch)},
    {.key = "in_dims",
     .col = {"in", 0, 0, 0, 0},
     .in = RF_JT,
     .kind = RF_FN,
     .fn = in_cell,
     .json = in_dims_json},
    {.key = "pooled_dims", .in = RF_JSON, .kind = RF_FN, .json = pooled_dims_json},
    {.key = "out_dims",
     .col = {"out", 0, 0, 0, 0},
     .in = RF_JT,
     .kind = RF_FN,
     .fn = out_cell,
     .json = out_dims_json},
    {.key = "passes", .col = {"passes", 1, 0, 0, 0}, .in = RF_JT, .kind = RF_INT, .off = L(passes)},
    {.key = "weights", .in = RF_JSON, .kind = RF_I64, .off = L(weights)},
    {.key = "macs", .in = RF_JSON, .kind = RF_U64, .off = L(macs)},
    {.col = {"nodes", 0, 0, 0, 0}, .in = RF_TABLE, .kind = RF_FN, .fn = nodes_cell},
    /* the plan (PLAN_AT) */
    {.col = {"#", 1, 0, 0, 0}, .in = RF_TABLE, .kind = RF_FN, .fn = index_cell},
    {.key = "processors",
     .col = {"processors", 0, 0, 0, 0},
     .in = RF_JT,
     .kind = RF_FN,
     .fn = processors_cell},
    {.key = "output_processors",
     .col = {"output procs", 0, 0, 0, 0},
     .in = RF_JT,
     .kind = RF_FN,
     .fn = out_processors_cell},
    {.key = "in_offset", .in = RF_JSON, .kind = RF_I64, .off = L(in_offset)},
    {.col = {"in_offset", 0, 0, 0, 0}, .in = RF_TABLE, .kind = RF_FN, .fn = in_offset_cell},
    {.key = "out_offset", .in = RF_JSON, .kind = RF_I64, .off = L(out_offset)},
    {.col = {"out_offset", 0, 0, 0, 0}, .in = RF_TABLE, .kind = RF_FN, .fn = out_offset_cell},
    {.key = "write_gap", .col = {"gap", 1, 0, 0, 0}, .in = RF_JT, .kind = RF_INT, .off = L(write_gap)},
    {.key = "out_bytes", .in = RF_JSON, .kind = RF_I64, .off = L(out_bytes)},
    {.key = "kernel_offset", .in = RF_JSON, .kind = RF_INT, .off = L(kern_offset)},
    {.key = "kernel_words", .in = RF_JSON, .kind = RF_INT, .off = L(kern_len)},
    {.col = {"kernel words", 0, 0, 0, 0}, .in = RF_TABLE, .kind = RF_FN, .fn = kernel_words_cell},
    {.key = "bias_group", .in = RF_JSON, .kind = RF_INT, .off = L(bias_group)},
    {.key = "bias_offset", .in = RF_JSON, .kind = RF_INT, .off = L(bias_offset)},
    {.col = {"bias", 0, 0, 0, 0}, .in = RF_TABLE, .kind = RF_FN, .fn = bias_cell},
    {.key = "weight_bits", .in = RF_JSON, .kind = RF_INT, .off = L(weight_bits)},
    {.key = "streaming", .in = RF_JSON, .kind = RF_BOOL, .off = L(streaming)},
    {.key = "cycles", .col = {"cycles", 1, 0, 0, 0}, .in = RF_JT, .kind = RF_U64, .off = L(cycles)},
    {.key = "latency_us",
     .col = {"us", 1, 0, 0, 0},
     .in = RF_JT,
     .kind = RF_FN,
     .fn = latency_cell,
     .people = RF_P_FIX2},
};
#define N_FIELDS ((int)(sizeof layer_fields / sizeof layer_fields[0]))
#define PLAN_AT  23 /* the first field of the plan's table */

/* the layers as one of the two tables (fields [from, to)), after 2 spaces */
static void layer_table(const struct mcu_plan *p, int from, int to, struct strbuf *sb)
{
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_TABLE, layer_fields + from, to - from, p, sb, NULL, NULL);
    for (int i = 0; i < p->n_layers; i++) rf_row(&w, &p->layers[i]);
    rf_end(&w, sb, 0, 2, NULL);
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
    layer_table(p, 0, PLAN_AT, sb);

    sb_puts(sb, "\nplan (offsets are bytes inside each data-memory instance; kernel words are 72-bit):\n");
    layer_table(p, PLAN_AT, N_FIELDS, sb);

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

static void json_msgs(struct rep_json *j, const char *key, const struct mcu_msgs *ms)
{
    rj_arr(j, key, 1);
    for (int i = 0; i < ms->n; i++) rj_str(j, NULL, ms->m[i].text);
    rj_end(j);
}

static void render_json(const struct mcu_plan *p, struct strbuf *sb)
{
    const struct mcu_device *d = p->dev;
    struct rep_json j;
    rj_init(&j, sb);
    rj_obj(&j, NULL, 1);
    rj_header(&j, "nnperf.map", 1);
    rj_str(&j, "model", p->model ? p->model : "");
    rj_str(&j, "target", d->name);
    rj_int(&j, "weight_bits", p->weight_bits);
    rj_bool(&j, "fits", p->fits);
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_JSON, layer_fields, N_FIELDS, p, sb, &j, "layers");
    for (int i = 0; i < p->n_layers; i++) rf_row(&w, &p->layers[i]);
    rf_end(&w, sb, 0, 0, NULL);
    int64_t cap = mcu_kern_bytes_total(d);
    rj_obj(&j, "usage", 0);
    rj_int(&j, "weight_bytes", p->weight_bytes);
    rj_int(&j, "weight_capacity", cap);
    rj_int(&j, "kernel_words", p->kern_words_used);
    rj_int(&j, "kernel_words_capacity", cap / 9);
    rj_int(&j, "bias_bytes", p->bias_bytes);
    rj_int(&j, "bias_capacity", (long long)d->bias_groups * d->bias_group_bytes);
    rj_int(&j, "data_instance_bytes", d->instance_bytes);
    rj_arr(&j, "data_peak", 0);
    for (int k = 0; k < 16; k++) rj_int(&j, NULL, p->data_peak[k]);
    rj_end(&j);
    rj_int(&j, "layers", p->n_layers);
    rj_int(&j, "max_layers", d->max_layers);
    rj_int(&j, "passthrough_layers", p->passthroughs);
    rj_end(&j);
    rj_obj(&j, "latency", 0);
    rj_uint(&j, "cycles", p->cycles);
    rj_num(&j, "clock_hz", p->clock_hz);
    rj_num(&j, "us", p->latency_s * 1e6);
    rj_end(&j);
    json_msgs(&j, "problems", p->problems);
    json_msgs(&j, "notes", p->notes);
    json_msgs(&j, "warnings", p->warnings);
    rj_end(&j);
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
