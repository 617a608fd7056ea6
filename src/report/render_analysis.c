/* render_analysis.c - an analysis as a table (for people), JSON (docs/json-schema.md), CSV (a row per node) or an
 * HTML page, and the pieces of it the prediction reports reuse. This is the one file of the report module that
 * reads an analysis' internals (the graph with its inferred shapes and costs). Output is deterministic: nodes in
 * execution order, fixed number formats, no locale. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/analysis.h"
#include "render.h"

static const struct an_state *st(const struct nnperf_analysis *a)
{
    return &a->st;
}

static const struct ir_graph *graph(const struct nnperf_analysis *a)
{
    return an_graph(st(a));
}

const char *rep_an_path(const struct nnperf_analysis *a)
{
    return st(a)->m->path ? st(a)->m->path : "";
}

void rep_an_inputs(const struct nnperf_analysis *a, struct strbuf *sb)
{
    const struct ir_graph *g = graph(a);
    int k = 0;
    for (int i = 0; i < g->n_inputs; i++) {
        const struct ir_value *v = g->inputs[i];
        if (!v || (v->flags & IR_V_INIT)) continue;
        if (k++) sb_puts(sb, ", ");
        sb_puts(sb, v->name);
        sb_puts(sb, " ");
        ir_format_shape(sb, v, "x");
    }
    if (!k) sb_puts(sb, "none");
}

static const char *kind_name(const struct ir_value *v)
{
    if (v->flags & IR_V_INIT) return "initializer";
    if (v->flags & IR_V_INPUT) return "input";
    if (v->flags & IR_V_OUTPUT) return "output";
    return "intermediate";
}

static double intensity(const struct ir_cost *c)
{
    uint64_t b = c->bytes_read + c->bytes_written;
    return b ? (double)c->flops / (double)b : 0.0;
}

static const struct ir_value *main_out(const struct ir_node *nd)
{
    for (int i = 0; i < nd->n_out; i++)
        if (nd->out[i]) return nd->out[i];
    return NULL;
}

static int is_constant(const struct ir_node *nd)
{
    return !strcmp(nd->op_type, "Constant") && (!nd->domain[0] || !strcmp(nd->domain, "ai.onnx"));
}

/* ---- JSON ---- */

static void json_shape(struct rep_json *j, const struct ir_value *v)
{
    if (!v || v->rank < 0 || v->type_kind == TK_MAP) {
        rj_null(j, "shape");
        return;
    }
    rj_arr(j, "shape", 0);
    for (int i = 0; i < v->rank; i++) {
        if (v->dims[i].val >= 0)
            rj_int(j, NULL, (long long)v->dims[i].val);
        else if (v->dims[i].sym)
            rj_str(j, NULL, v->dims[i].sym);
        else
            rj_null(j, NULL);
    }
    rj_end(j);
}

/* ---- the columns of a tensor and of a node (fields.h): JSON, CSV, the table and the page's table ---- */

/* a node as its rows read it: its index, and its output's shape as the caller formatted it (NULL: none written) */
struct node_row {
    const struct ir_node *nd;
    int index;
    const char *shape;
};

#define ND(r) (((const struct node_row *)(r))->nd)

static void name_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    c->s = ND(row)->name;
}

static void node_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    c->s = ND(row)->name[0] ? ND(row)->name : "-";
}

static void op_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    c->s = ND(row)->op_type;
}

static void domain_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    c->s = ND(row)->domain[0] ? ND(row)->domain : "ai.onnx";
}

static void class_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    int op = ND(row)->op;
    c->s = op >= 0 ? op_class_name(op_table[op].klass) : "unknown";
}

static void names_json(struct rep_json *j, const char *key, struct ir_value *const *v, int n)
{
    rj_arr(j, key, 0);
    for (int i = 0; i < n; i++) rj_str(j, NULL, v[i] ? v[i]->name : "");
    rj_end(j);
}

static void inputs_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    names_json(j, key, ND(row)->in, ND(row)->n_in);
}

static void outputs_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    names_json(j, key, ND(row)->out, ND(row)->n_out);
}

/* the output's shape: empty in the CSV, "?" for people when none was written */
static void shape_csv_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const char *shape = ((const struct node_row *)row)->shape;
    c->s = shape ? shape : "";
}

static void shape_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const char *shape = ((const struct node_row *)row)->shape;
    c->s = shape ? shape : "?";
}

/* a count of the node's cost: unknown is null, empty and "?" */
static void count_cell(struct rf_cell *c, uint64_t v, int known)
{
    c->is_num = 1;
    if (known) {
        c->i = (long long)v, c->is_int = c->is_unsigned = 1;
    } else {
        c->x = NAN, c->text = "?";
    }
}

#define COUNT_CELL(name_, m_)                                                                                \
    static void name_(const void *ctx, const void *row, struct rf_cell *c)                                   \
    {                                                                                                        \
        (void)ctx;                                                                                           \
        count_cell(c, ND(row)->cost.m_, ND(row)->cost.known);                                                \
    }
COUNT_CELL(macs_cell, macs)
COUNT_CELL(flops_cell, flops)
COUNT_CELL(params_cell, params)
COUNT_CELL(read_cell, bytes_read)
COUNT_CELL(written_cell, bytes_written)

static void intensity_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct ir_cost *ct = &ND(row)->cost;
    c->is_num = 1;
    c->x = ct->known ? intensity(ct) : NAN;
    if (!ct->known) c->text = "?";
}

static void known_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    c->s = ND(row)->cost.known ? "true" : "false";
}

static void known_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    rj_bool(j, key, ND(row)->cost.known);
}

static void saturated_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    if (ND(row)->cost.saturated) rj_bool(j, key, 1);
}

#define PAGE (RF_TABLE | RF_HTML)
#define COUNT(k_, head_, drop_, unit_, hkey_, fn_)                                                           \
    {                                                                                                        \
        .key = k_, .col = {head_, 1, drop_, 0, 0}, .in = RF_ALL | RF_HTML, .kind = RF_FN, .fn = fn_,         \
        .people = RF_P_COUNT, .unit = unit_, .hkey = hkey_                                                   \
    }
/* a column placed differently in two formats, or written differently, is two rows */
static const struct rf_field node_fields[] = {
    {.key = "index",
     .col = {"#", 1, 2, 0, 0},
     .in = RF_CSV | PAGE,
     .kind = RF_INT,
     .off = offsetof(struct node_row, index)},
    {.key = "name", .in = RF_MACHINE, .kind = RF_FN, .fn = name_cell},
    {.col = {"node", 0, 0, 36, 12},
     .in = PAGE,
     .kind = RF_FN,
     .fn = node_cell,
     .hkey = "name",
     .hcls = "name"},
    {.key = "op", .col = {"op", 0, 3, 18, 0}, .in = RF_ALL | RF_HTML, .kind = RF_FN, .fn = op_cell},
    {.key = "domain", .in = RF_MACHINE, .kind = RF_FN, .fn = domain_cell},
    {.key = "class", .in = RF_JSON, .kind = RF_FN, .fn = class_cell},
    {.key = "inputs", .in = RF_JSON, .kind = RF_FN, .json = inputs_json},
    {.key = "outputs", .in = RF_JSON, .kind = RF_FN, .json = outputs_json},
    {.key = "output_shape", .in = RF_CSV, .kind = RF_FN, .fn = shape_csv_cell},
    {.col = {"output shape", 0, 4, 24, 0},
     .in = PAGE,
     .kind = RF_FN,
     .fn = shape_cell,
     .hkey = "shape",
     .hcls = "sh"},
    COUNT("macs", "MACs", 0, "", "macs", macs_cell),
    COUNT("flops", "FLOPs", 5, "", "time", flops_cell),
    COUNT("params", "params", 6, "", "params", params_cell),
    COUNT("bytes_read", "read", 7, "B", "read", read_cell),
    COUNT("bytes_written", "written", 8, "B", "written", written_cell),
    {.key = "intensity",
     .col = {"FLOP/B", 1, 9, 0, 0},
     .in = RF_ALL | RF_HTML,
     .kind = RF_FN,
     .fn = intensity_cell,
     .people = RF_P_FIX2},
    {.key = "cost_known", .in = RF_MACHINE, .kind = RF_FN, .fn = known_cell, .json = known_json},
    {.key = "saturated", .in = RF_JSON, .kind = RF_FN, .json = saturated_json},
};
#undef PAGE
#undef COUNT
#define N_NODE_FIELDS ((int)(sizeof node_fields / sizeof node_fields[0]))

/* the rows of nodes idx[0..n) (all of them in order when idx is NULL) in the pass w, with their shapes but for
 * JSON */
static void node_rows(struct rf_rows *w, const struct ir_graph *g, const int *idx, int n)
{
    struct strbuf shp;
    sb_init(&shp, 1 << 20);
    for (int i = 0; i < n; i++) {
        int k = idx ? idx[i] : i;
        struct node_row r = {g->nodes[k], k, NULL};
        if (w->fmt != NNPERF_FORMAT_JSON) {
            shp.len = 0;
            if (shp.p) shp.p[0] = 0;
            ir_format_shape(&shp, main_out(r.nd), "x");
            r.shape = shp.p;
        }
        rf_row(w, &r);
    }
    sb_free(&shp);
}

#define TV(r) ((const struct ir_value *)(r))

static void dtype_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const char *dn = ir_dtype_name(TV(row)->dtype);
    c->s = TV(row)->dtype && dn ? dn : NULL;
}

static void shape_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx, (void)key;
    json_shape(j, TV(row));
}

static void kind_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    c->s = kind_name(TV(row));
}

/* "type" only for a value that is not a tensor */
static void type_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    int k = TV(row)->type_kind;
    if (k == TK_SEQUENCE || k == TK_OPTIONAL || k == TK_MAP)
        rj_str(j, key, k == TK_SEQUENCE ? "sequence" : k == TK_OPTIONAL ? "optional" : "map");
}

static void unknown_reason_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    if (ir_unknown_reason(TV(row))) rj_str(j, key, ir_unknown_reason(TV(row)));
}

static const struct rf_field tensor_fields[] = {
    {.key = "name", .in = RF_JSON, .kind = RF_STR, .off = offsetof(struct ir_value, name)},
    {.key = "dtype", .in = RF_JSON, .kind = RF_FN, .fn = dtype_cell},
    {.key = "shape", .in = RF_JSON, .kind = RF_FN, .json = shape_json},
    {.key = "kind", .in = RF_JSON, .kind = RF_FN, .fn = kind_cell},
    {.key = "type", .in = RF_JSON, .kind = RF_FN, .json = type_json},
    {.key = "unknown_reason", .in = RF_JSON, .kind = RF_FN, .json = unknown_reason_json},
};

void rep_an_json_head(const struct nnperf_analysis *a, struct rep_json *j)
{
    const struct ir_model *m = st(a)->m;
    const struct nnperf_summary *s = &st(a)->sum;
    rj_header(j, "nnperf.analysis", NNPERF_JSON_SCHEMA_VERSION);
    rj_obj(j, "model", 0);
    rj_str(j, "path", m->path);
    rj_int(j, "ir_version", (long long)m->ir_version);
    rj_str(j, "producer", m->producer ? m->producer : "");
    rj_obj(j, "opsets", 0);
    for (int i = 0; i < m->n_opsets; i++)
        rj_int(j, m->opsets[i].domain[0] ? m->opsets[i].domain : "ai.onnx", (long long)m->opsets[i].version);
    rj_end(j);
    rj_end(j);
    rj_obj(j, "summary", 0);
    rj_uint(j, "macs", s->macs);
    rj_uint(j, "flops", s->flops);
    rj_uint(j, "params", s->params);
    rj_uint(j, "weight_bytes", s->weight_bytes);
    rj_uint(j, "activation_bytes", s->activation_bytes);
    rj_uint(j, "conv_gemm_matmul_macs", s->conv_gemm_matmul_macs);
    rj_int(j, "nodes", s->nodes);
    rj_int(j, "unknown_nodes", s->unknown_nodes);
    rj_int(j, "unknown_tensors", s->unknown_tensors);
    rj_int(j, "warnings", s->warnings);
}

void rep_an_json_body(const struct nnperf_analysis *a, struct rep_json *j)
{
    const struct an_state *an = st(a);
    const struct ir_graph *g = graph(a);
    rj_end(j); /* summary */
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_JSON, tensor_fields, (int)(sizeof tensor_fields / sizeof tensor_fields[0]),
             NULL, NULL, j, "tensors");
    for (int i = 0; i < g->n_values; i++) rf_row(&w, g->values[i]);
    rf_end(&w, NULL, 0, 0, NULL);
    rf_begin(&w, NNPERF_FORMAT_JSON, node_fields, N_NODE_FIELDS, NULL, NULL, j, "nodes");
    node_rows(&w, g, NULL, g->n_nodes);
    rf_end(&w, NULL, 0, 0, NULL);
    rj_arr(j, "warnings", 1);
    for (int i = 0; i < an->n_warn; i++) rj_str(j, NULL, an->warn[i]);
    rj_end(j);
}

void rep_json_warnings(struct rep_json *j, const struct nnperf_analysis *a, const struct nnperf_prediction *p)
{
    struct nnperf_summary s = {0};
    struct nnperf_prediction_summary ps = {0};
    if (a) nnperf_analysis_summary(a, &s);
    if (p) nnperf_prediction_summary(p, &ps);
    rj_arr(j, "warnings", 1);
    for (int i = 0; i < s.warnings; i++) rj_str(j, NULL, nnperf_analysis_warning(a, i));
    for (int i = 0; i < ps.warnings; i++) rj_str(j, NULL, nnperf_prediction_warning(p, i));
    rj_end(j);
}

/* ---- CSV ---- */

static void render_csv(const struct nnperf_analysis *a, struct strbuf *sb)
{
    const struct ir_graph *g = graph(a);
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_CSV, node_fields, N_NODE_FIELDS, NULL, sb, NULL, NULL);
    node_rows(&w, g, NULL, g->n_nodes);
    rf_end(&w, sb, 0, 0, NULL);
}

/* ---- text ---- */

static uint64_t sort_key(const struct ir_node *nd, int by)
{
    const struct ir_cost *x = &nd->cost;
    return by == 1 ? x->bytes_read + x->bytes_written : by == 2 ? (x->known ? x->flops : 0) : x->macs;
}

/* node indices sorted by a cost, largest first, stable (merge sort: no global state) */
static void sort_nodes(int *v, int *tmp, int n, const struct ir_graph *g, int by)
{
    if (n < 2) return;
    int h = n / 2;
    sort_nodes(v, tmp, h, g, by);
    sort_nodes(v + h, tmp, n - h, g, by);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = sort_key(g->nodes[v[j]], by) > sort_key(g->nodes[v[i]], by) ? v[j++] : v[i++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, (size_t)n * sizeof *v);
}

/* The first `top` of sort_nodes' order into v[0..top) (the rest of v is left in no order): for a few, one pass
 * keeping the best in order (a later node goes after the ones with the same cost, as in the stable sort). */
static void top_nodes(int *v, int *tmp, int n, int top, const struct ir_graph *g, int by)
{
    enum { FEW = 16 };
    if (top <= 0 || top > FEW || top >= n) {
        sort_nodes(v, tmp, n, g, by);
        return;
    }
    int best[FEW], m = 0;
    uint64_t key[FEW];
    for (int i = 0; i < n; i++) {
        uint64_t x = sort_key(g->nodes[v[i]], by);
        if (m == top && x <= key[m - 1]) continue;
        int j = m < top ? m++ : m - 1;
        for (; j > 0 && key[j - 1] < x; j--) best[j] = best[j - 1], key[j] = key[j - 1];
        best[j] = v[i], key[j] = x;
    }
    memcpy(v, best, (size_t)m * sizeof *v);
}

void rep_an_table(const struct nnperf_analysis *a, const struct nnperf_render_options *o, struct strbuf *sb)
{
    static const struct nnperf_render_options none = {0, 0, 0, 0};
    if (!o) o = &none;
    const struct an_state *an = st(a);
    const struct ir_graph *g = graph(a);
    const struct nnperf_summary *s = &an->sum;
    int n = g->n_nodes;
    sb_puts(sb, "model: ");
    sb_put_text(sb, an->m->path ? an->m->path : "", NULL);
    sb_printf(sb, " (IR %lld, ", (long long)an->m->ir_version);
    sb_put_text(sb, an->m->producer && an->m->producer[0] ? an->m->producer : "unknown producer", NULL);
    sb_puts(sb, ")\n");
    int *idx = malloc((size_t)(n ? n : 1) * sizeof *idx), *tmp = malloc((size_t)(n ? n : 1) * sizeof *tmp);
    if (!idx || !tmp) {
        free(idx), free(tmp);
        sb->overflow = 1;
        return;
    }
    if (!o->summary_only) {
        int constants = 0, rows = 0;
        for (int k = 0; k < n; k++) {
            if (!o->all && is_constant(g->nodes[k])) {
                constants++;
                continue;
            }
            idx[rows++] = k;
        }
        if (o->top > 0) {
            top_nodes(idx, tmp, rows, o->top, g, 2);
            if (rows > o->top) rows = o->top;
        }
        struct rf_rows w;
        rf_begin(&w, NNPERF_FORMAT_TABLE, node_fields, N_NODE_FIELDS, NULL, sb, NULL, NULL);
        node_rows(&w, g, idx, rows);
        char c1[32];
        struct strbuf note;
        sb_init(&note, 1 << 16);
        if (o->top > 0) sb_printf(&note, "The %d nodes with the most FLOPs of %d. ", rows, n);
        if (constants) {
            rep_count(c1, sizeof c1, constants);
            sb_printf(&note, "%s Constant nodes are not shown: they only hold values (--all shows them). ",
                      c1);
        }
        rf_end(&w, sb, o->width, 0, &note);
    }
    char v[5][32];
    rep_si(v[0], sizeof v[0], (double)s->macs, "");
    rep_si(v[1], sizeof v[1], (double)s->flops, "");
    rep_si(v[2], sizeof v[2], (double)s->params, "");
    rep_si(v[3], sizeof v[3], (double)s->weight_bytes, "B");
    rep_si(v[4], sizeof v[4], (double)s->activation_bytes, "B");
    char line[512];
    c_snprintf(line, sizeof line,
               "%d nodes, %s MACs, %s FLOPs (FLOPs = 2 x MACs + element-wise work), %s params; weights %s, "
               "activations %s; conv/gemm/matmul MACs %.3f G (torchvision's \"GFLOPS\")",
               s->nodes, v[0], v[1], v[2], v[3], v[4], (double)s->conv_gemm_matmul_macs / 1e9);
    sb_puts(sb, "\ntotal: ");
    rt_wrap_indent(sb, line, o->width, 7);
    if (s->unknown_nodes || s->unknown_tensors)
        sb_printf(sb, "       %d nodes without a cost, %d tensors without concrete dims\n", s->unknown_nodes,
                  s->unknown_tensors);
    uint64_t bytes = 0;
    for (int j = 0; j < n; j++) bytes += g->nodes[j]->cost.bytes_read + g->nodes[j]->cost.bytes_written;
    for (int by = 0; by < 2 && n; by++) {
        for (int i = 0; i < n; i++) idx[i] = i;
        top_nodes(idx, tmp, n, 5, g, by);
        sb_printf(sb, "\nheaviest nodes by %s:\n", by ? "bytes moved" : "MACs");
        static const struct rep_col cols[2][4] = {
            {{"node", 0, 0, 60, 16}, {"op", 0, 1, 18, 0}, {"MACs", 1, 0, 0, 0}, {"share", 1, 0, 0, 0}},
            {{"node", 0, 0, 60, 16}, {"op", 0, 1, 18, 0}, {"bytes", 1, 0, 0, 0}, {"share", 1, 0, 0, 0}}};
        struct rep_table t;
        rt_init(&t, cols[by], 4);
        for (int i = 0; i < n && i < 5; i++) {
            const struct ir_node *nd = g->nodes[idx[i]];
            uint64_t x = by ? nd->cost.bytes_read + nd->cost.bytes_written : nd->cost.macs;
            if (!x) break;
            char b[32], pc[16];
            rep_si(b, sizeof b, (double)x, by ? "B" : "");
            uint64_t tot = by ? bytes : s->macs;
            rep_pct(pc, sizeof pc, tot ? (double)x / (double)tot : 0.0);
            const char *cells[4] = {nd->name, nd->op_type, b, pc};
            rt_row(&t, cells);
        }
        struct strbuf no_note;
        sb_init(&no_note, 16);
        rt_finish(&t, o->width, 2, sb, &no_note);
    }
    free(idx), free(tmp);
    if (an->n_warn) {
        sb_printf(sb, "\nwarnings (%d):\n", an->n_warn);
        for (int i = 0; i < an->n_warn; i++) {
            sb_puts(sb, "  ");
            rt_wrap_indent(sb, an->warn[i], o->width, 4);
        }
    }
}

/* ---- HTML ---- */

static void html_summary(const struct nnperf_analysis *a, struct strbuf *sb)
{
    const struct an_state *an = st(a);
    const struct nnperf_summary *s = &an->sum;
    char b[96];
    rh_cards_open(sb);
    rep_si(b, sizeof b, (double)s->macs, "");
    rh_card(sb, "MACs", b);
    rep_si(b, sizeof b, (double)s->flops, "");
    rh_card(sb, "FLOPs", b);
    rep_si(b, sizeof b, (double)s->params, "");
    rh_card(sb, "parameters", b);
    rep_si(b, sizeof b, (double)s->weight_bytes, "B");
    rh_card(sb, "weight bytes", b);
    rep_count(b, sizeof b, s->nodes);
    rh_card(sb, "nodes", b);
    rh_cards_close(sb);
    rh_kv_open(sb);
    struct strbuf t;
    sb_init(&t, 1 << 20);
    rep_an_inputs(a, &t);
    rh_kv(sb, "model", an->m->path);
    rh_kv(sb, "producer", an->m->producer && an->m->producer[0] ? an->m->producer : "unknown");
    rh_kv(sb, "inputs", t.p ? t.p : "");
    sb_free(&t);
    snprintf(b, sizeof b, "%llu", (unsigned long long)s->macs);
    rh_kv(sb, "MACs (multiply-accumulates)", b);
    snprintf(b, sizeof b, "%llu", (unsigned long long)s->flops);
    rh_kv(sb, "FLOPs (2 x MACs + element-wise work)", b);
    c_snprintf(b, sizeof b, "%.3f G", (double)s->conv_gemm_matmul_macs / 1e9);
    rh_kv(sb, "conv/gemm/matmul MACs (torchvision's \"GFLOPS\")", b);
    rep_si(b, sizeof b, (double)s->activation_bytes, "B");
    rh_kv(sb, "activation bytes", b);
    snprintf(b, sizeof b, "%d nodes without a cost, %d tensors without concrete dims", s->unknown_nodes,
             s->unknown_tensors);
    rh_kv(sb, "unknown", b);
    rh_kv_close(sb);
}

static void render_html(const struct nnperf_analysis *a, struct strbuf *sb)
{
    const struct an_state *an = st(a);
    const struct ir_graph *g = graph(a);
    char title[512];
    snprintf(title, sizeof title, "nnperf: %s", an->m->path);
    rh_page_open(sb, title,
                 "analysis: shapes, types and per-node costs (no platform given: add --hw for latency)");
    static const struct rep_tab tabs[] = {{"summary", "Summary"}, {"layers", "Layer details"}};
    rh_nav(sb, tabs, 2);
    rh_tab_open(sb, "summary", "Summary", 1);
    html_summary(a, sb);
    rh_warnings(sb, "warnings", an->warn, an->n_warn);
    rh_tab_close(sb);
    rh_tab_open(sb, "layers", "Layer details (heaviest first)", 0);
    int n = g->n_nodes;
    int *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx),
        *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
    if (!idx || !tmp) sb->overflow = 1;
    for (int i = 0; idx && tmp && i < n; i++) idx[i] = i;
    if (idx && tmp) sort_nodes(idx, tmp, n, g, 2);
    struct rf_rows w;
    rf_begin_html(&w, node_fields, N_NODE_FIELDS, NULL, sb, "layer-table", "nodes", n, 5);
    if (idx && tmp) node_rows(&w, g, idx, n);
    rf_end(&w, sb, 0, 0, NULL);
    free(idx), free(tmp);
    rh_tab_close(sb);
    rh_page_close(sb);
}

/* ---- entry points ---- */

enum nnperf_status rep_finish(struct strbuf *sb, char **out, size_t *len, char *err, size_t errlen)
{
    if (sb->overflow || !sb->p) {
        sb_free(sb);
        if (err && errlen) snprintf(err, errlen, "report too large or out of memory");
        return NNPERF_E_LIMIT;
    }
    *out = sb->p;
    if (len) *len = sb->len;
    return NNPERF_OK;
}

/* The output formats, indexed by enum nnperf_format: the only list of their names (nnperf_format_name); text: text
 * for people, whose control characters and bytes that are not UTF-8 rep_finish_as writes as \xNN. */
static const struct {
    const char *name;
    int text;
} formats[] = {
    [NNPERF_FORMAT_TABLE] = {"table", 1}, [NNPERF_FORMAT_JSON] = {"json", 0},
    [NNPERF_FORMAT_CSV] = {"csv", 1},     [NNPERF_FORMAT_HTML] = {"html", 0},
    [NNPERF_FORMAT_TRACE] = {"trace", 0},
};

int nnperf_format_count(void)
{
    return (int)(sizeof formats / sizeof formats[0]);
}

const char *nnperf_format_name(int fmt)
{
    return fmt >= 0 && fmt < nnperf_format_count() ? formats[fmt].name : NULL;
}

enum nnperf_status rep_finish_as(struct strbuf *sb, enum nnperf_format fmt, char **out, size_t *len,
                                 char *err, size_t errlen)
{
    if (nnperf_format_name((int)fmt) && formats[fmt].text && !sb->overflow && sb->p) {
        struct strbuf t;
        sb_init(&t, REP_CAP);
        sb_put_text(&t, sb->p, "\n");
        sb_free(sb);
        *sb = t;
    }
    return rep_finish(sb, out, len, err, errlen);
}

enum nnperf_status rep_bad_format(const char *what, enum nnperf_format fmt, const char *avail, char *err,
                                  size_t errlen)
{
    if (err && errlen) {
        if (nnperf_format_name((int)fmt))
            snprintf(err, errlen, "%s: format %s is not available (%s)", what, nnperf_format_name((int)fmt),
                     avail);
        else
            snprintf(err, errlen, "%s: unknown output format %d (%s)", what, (int)fmt, avail);
    }
    return NNPERF_E_USAGE;
}

enum nnperf_status nnperf_analysis_render_opts(const struct nnperf_analysis *a, enum nnperf_format fmt,
                                               const struct nnperf_render_options *opts, char **out,
                                               size_t *len, char *err, size_t errlen)
{
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (!a) {
        if (err && errlen) snprintf(err, errlen, "no analysis given");
        return NNPERF_E_USAGE;
    }
    struct strbuf sb;
    sb_init(&sb, REP_CAP);
    switch (fmt) {
    case NNPERF_FORMAT_JSON: {
        struct rep_json j;
        rj_init(&j, &sb);
        rj_obj(&j, NULL, 1);
        rep_an_json_head(a, &j);
        rep_an_json_body(a, &j);
        rj_end(&j);
        break;
    }
    case NNPERF_FORMAT_CSV: render_csv(a, &sb); break;
    case NNPERF_FORMAT_TABLE: rep_an_table(a, opts, &sb); break;
    case NNPERF_FORMAT_HTML: render_html(a, &sb); break;
    default:
        sb_free(&sb);
        return rep_bad_format("analysis", fmt,
                              "table, json, csv or html; a trace is a prediction's timeline: name a platform",
                              err, errlen);
    }
    return rep_finish_as(&sb, fmt, out, len, err, errlen);
}

enum nnperf_status nnperf_analysis_render(const struct nnperf_analysis *a, enum nnperf_format fmt, char **out,
                                          size_t *len, char *err, size_t errlen)
{
    return nnperf_analysis_render_opts(a, fmt, NULL, out, len, err, errlen);
}
