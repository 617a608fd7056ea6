/* render_analysis.c - an analysis as a table (for people), JSON (docs/json-schema.md), CSV (a row per node) or an
 * HTML page, and the pieces of it the prediction reports reuse. This is the one file of the report module that
 * reads an analysis' internals (the graph with its inferred shapes and costs). Output is deterministic: nodes in
 * execution order, fixed number formats, no locale. */
#include <math.h>
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

static void json_count(struct rep_json *j, const char *k, uint64_t x, int known)
{
    if (known)
        rj_uint(j, k, x);
    else
        rj_null(j, k);
}

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
    rj_arr(j, "tensors", 1);
    for (int i = 0; i < g->n_values; i++) {
        const struct ir_value *v = g->values[i];
        rj_obj(j, NULL, 0);
        rj_str(j, "name", v->name);
        const char *dn = ir_dtype_name(v->dtype);
        rj_str(j, "dtype", v->dtype && dn ? dn : NULL);
        json_shape(j, v);
        rj_str(j, "kind", kind_name(v));
        if (v->type_kind == TK_SEQUENCE)
            rj_str(j, "type", "sequence");
        else if (v->type_kind == TK_OPTIONAL)
            rj_str(j, "type", "optional");
        else if (v->type_kind == TK_MAP)
            rj_str(j, "type", "map");
        if (v->unknown_reason) rj_str(j, "unknown_reason", v->unknown_reason);
        rj_end(j);
    }
    rj_end(j);
    rj_arr(j, "nodes", 1);
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        const struct ir_cost *c = &nd->cost;
        rj_obj(j, NULL, 0);
        rj_str(j, "name", nd->name);
        rj_str(j, "op", nd->op_type);
        rj_str(j, "domain", nd->domain[0] ? nd->domain : "ai.onnx");
        rj_str(j, "class", nd->op >= 0 ? op_class_name(op_table[nd->op].klass) : "unknown");
        rj_arr(j, "inputs", 0);
        for (int i = 0; i < nd->n_in; i++) rj_str(j, NULL, nd->in[i] ? nd->in[i]->name : "");
        rj_end(j);
        rj_arr(j, "outputs", 0);
        for (int i = 0; i < nd->n_out; i++) rj_str(j, NULL, nd->out[i] ? nd->out[i]->name : "");
        rj_end(j);
        json_count(j, "macs", c->macs, c->known);
        json_count(j, "flops", c->flops, c->known);
        json_count(j, "params", c->params, c->known);
        json_count(j, "bytes_read", c->bytes_read, c->known);
        json_count(j, "bytes_written", c->bytes_written, c->known);
        if (c->known)
            rj_num(j, "intensity", intensity(c));
        else
            rj_null(j, "intensity");
        rj_bool(j, "cost_known", c->known);
        if (c->saturated) rj_bool(j, "saturated", 1);
        rj_end(j);
    }
    rj_end(j);
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

static void fmt_u64(char *b, size_t n, uint64_t x)
{
    snprintf(b, n, "%llu", (unsigned long long)x);
}

static void render_csv(const struct nnperf_analysis *a, struct strbuf *sb)
{
    const struct ir_graph *g = graph(a);
    struct rep_csv c;
    rc_init(&c, sb);
    rc_header(&c, "index,name,op,domain,output_shape,macs,flops,params,bytes_read,bytes_written,intensity,"
                  "cost_known");
    struct strbuf shp;
    sb_init(&shp, 1 << 20);
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        const struct ir_cost *ct = &nd->cost;
        rc_int(&c, k);
        rc_str(&c, nd->name);
        rc_str(&c, nd->op_type);
        rc_str(&c, nd->domain[0] ? nd->domain : "ai.onnx");
        shp.len = 0;
        if (shp.p) shp.p[0] = 0;
        ir_format_shape(&shp, main_out(nd), "x");
        rc_str(&c, shp.p ? shp.p : "");
        uint64_t v[5] = {ct->macs, ct->flops, ct->params, ct->bytes_read, ct->bytes_written};
        for (int i = 0; i < 5; i++) {
            if (!ct->known) {
                rc_empty(&c);
                continue;
            }
            char b[32];
            fmt_u64(b, sizeof b, v[i]);
            rc_str(&c, b);
        }
        if (ct->known)
            rc_num(&c, intensity(ct));
        else
            rc_empty(&c);
        rc_str(&c, ct->known ? "true" : "false");
        rc_end(&c);
    }
    sb_free(&shp);
}

/* ---- text ---- */

/* node indices sorted by a cost, largest first, stable (merge sort: no global state) */
static void sort_nodes(int *v, int *tmp, int n, const struct ir_graph *g, int by)
{
    if (n < 2) return;
    int h = n / 2;
    sort_nodes(v, tmp, h, g, by);
    sort_nodes(v + h, tmp, n - h, g, by);
    int i = 0, j = h, k = 0;
    while (i < h && j < n) {
        const struct ir_cost *x = &g->nodes[v[i]]->cost, *y = &g->nodes[v[j]]->cost;
        uint64_t vx = by == 1   ? x->bytes_read + x->bytes_written
                      : by == 2 ? (x->known ? x->flops : 0)
                                : x->macs;
        uint64_t vy = by == 1   ? y->bytes_read + y->bytes_written
                      : by == 2 ? (y->known ? y->flops : 0)
                                : y->macs;
        tmp[k++] = vy > vx ? v[j++] : v[i++];
    }
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, (size_t)n * sizeof *v);
}

static const struct rep_col node_cols[] = {
    {"#", 1, 2, 0, 0},       {"node", 0, 0, 36, 12}, {"op", 0, 3, 18, 0},    {"output shape", 0, 4, 24, 0},
    {"MACs", 1, 0, 0, 0},    {"FLOPs", 1, 5, 0, 0},  {"params", 1, 6, 0, 0}, {"read", 1, 7, 0, 0},
    {"written", 1, 8, 0, 0}, {"FLOP/B", 1, 9, 0, 0},
};

static void node_row(struct rep_table *t, const struct ir_graph *g, int k, struct strbuf *shp)
{
    const struct ir_node *nd = g->nodes[k];
    const struct ir_cost *c = &nd->cost;
    char f[10][48];
    snprintf(f[0], sizeof f[0], "%d", k);
    shp->len = 0;
    if (shp->p) shp->p[0] = 0;
    ir_format_shape(shp, main_out(nd), "x");
    if (c->known) {
        rep_si(f[4], sizeof f[4], (double)c->macs, "");
        rep_si(f[5], sizeof f[5], (double)c->flops, "");
        rep_si(f[6], sizeof f[6], (double)c->params, "");
        rep_si(f[7], sizeof f[7], (double)c->bytes_read, "B");
        rep_si(f[8], sizeof f[8], (double)c->bytes_written, "B");
        c_snprintf(f[9], sizeof f[9], "%.2f", intensity(c));
    } else {
        for (int i = 4; i < 10; i++) snprintf(f[i], sizeof f[i], "?");
    }
    const char *vals[10] = {
        f[0], nd->name[0] ? nd->name : "-", nd->op_type, shp->p ? shp->p : "?", f[4], f[5], f[6], f[7], f[8],
        f[9]};
    rt_row(t, vals);
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
        struct rep_table t;
        rt_init(&t, node_cols, 10);
        struct strbuf shp;
        sb_init(&shp, 1 << 20);
        int constants = 0, rows = 0;
        for (int k = 0; k < n; k++) {
            if (!o->all && is_constant(g->nodes[k])) {
                constants++;
                continue;
            }
            idx[rows++] = k;
        }
        if (o->top > 0) {
            sort_nodes(idx, tmp, rows, g, 2);
            if (rows > o->top) rows = o->top;
        }
        for (int i = 0; i < rows; i++) node_row(&t, g, idx[i], &shp);
        sb_free(&shp);
        char c1[32];
        struct strbuf note;
        sb_init(&note, 1 << 16);
        if (o->top > 0) sb_printf(&note, "The %d nodes with the most FLOPs of %d. ", rows, n);
        if (constants) {
            rep_count(c1, sizeof c1, constants);
            sb_printf(&note, "%s Constant nodes are not shown: they only hold values (--all shows them). ",
                      c1);
        }
        rt_finish(&t, o->width, 0, sb, &note);
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
        sort_nodes(idx, tmp, n, g, by);
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
    static const struct rep_hcol cols[] = {{"#", "index", 1},         {"node", "name", 0},
                                           {"op", "op", 0},           {"output shape", "shape", 0},
                                           {"MACs", "macs", 1},       {"FLOPs", "time", 1},
                                           {"params", "params", 1},   {"read", "read", 1},
                                           {"written", "written", 1}, {"FLOP/B", "intensity", 1}};
    rh_table_open(sb, "layer-table", "nodes", g->n_nodes, cols, 10, 5);
    int n = g->n_nodes;
    int *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx),
        *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
    struct strbuf shp;
    sb_init(&shp, 1 << 20);
    if (!idx || !tmp) sb->overflow = 1;
    for (int i = 0; idx && tmp && i < n; i++) idx[i] = i;
    if (idx && tmp) sort_nodes(idx, tmp, n, g, 2);
    for (int k = 0; idx && tmp && k < n; k++) {
        const struct ir_node *nd = g->nodes[idx[k]];
        const struct ir_cost *c = &nd->cost;
        char b[48];
        sb_puts(sb, "<tr>");
        snprintf(b, sizeof b, "%d", idx[k]);
        rh_td_num(sb, b, idx[k]);
        rh_td_text(sb, "name", nd->name[0] ? nd->name : "-");
        rh_td_text(sb, NULL, nd->op_type);
        shp.len = 0;
        if (shp.p) shp.p[0] = 0;
        ir_format_shape(&shp, main_out(nd), "x");
        rh_td_text(sb, "sh", shp.p ? shp.p : "?");
        double v[5] = {(double)c->macs, (double)c->flops, (double)c->params, (double)c->bytes_read,
                       (double)c->bytes_written};
        for (int i = 0; i < 5; i++) {
            if (c->known)
                rep_si(b, sizeof b, v[i], i >= 3 ? "B" : "");
            else
                snprintf(b, sizeof b, "?");
            rh_td_num(sb, b, c->known ? v[i] : (double)NAN);
        }
        double in = intensity(c);
        c_snprintf(b, sizeof b, "%.2f", in);
        rh_td_num(sb, c->known ? b : "?", c->known ? in : (double)NAN);
        sb_puts(sb, "</tr>\n");
    }
    sb_free(&shp);
    free(idx), free(tmp);
    rh_table_close(sb);
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
