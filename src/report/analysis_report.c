/* analysis_report.c - renders an analysis as a table (for people), JSON (docs/json-schema.md) or CSV (node
 * rows). Output is deterministic: nodes in execution order, fixed number formats, no locale. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "report.h"

#define REPORT_CAP ((size_t)1 << 31)

static const char *kind_name(const struct ir_value *v)
{
    if (v->flags & IR_V_INIT) return "initializer";
    if (v->flags & IR_V_INPUT) return "input";
    if (v->flags & IR_V_OUTPUT) return "output";
    return "intermediate";
}

static void fmt_u64(char *b, size_t n, uint64_t x, int known)
{
    if (!known)
        snprintf(b, n, "?");
    else
        snprintf(b, n, "%llu", (unsigned long long)x);
}

/* Human-readable count: 4.09G, 118M, 1.2k */
void rep_fmt_si(char *b, size_t n, double x)
{
    const char *u[] = {"", "k", "M", "G", "T", "P"};
    int i = 0;
    while (x >= 1000.0 && i < 5) x /= 1000.0, i++;
    if (i == 0)
        snprintf(b, n, "%.0f", x);
    else
        snprintf(b, n, x >= 100 ? "%.0f%s" : x >= 10 ? "%.1f%s" : "%.2f%s", x, u[i]);
}

void rep_fmt_time(char *b, size_t n, double s)
{
    if (s >= 1)
        snprintf(b, n, "%.3f s", s);
    else if (s >= 1e-3)
        snprintf(b, n, "%.3f ms", s * 1e3);
    else
        snprintf(b, n, "%.1f us", s * 1e6);
}

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

static void json_shape(struct strbuf *sb, const struct ir_value *v)
{
    if (!v || v->rank < 0 || v->type_kind == TK_MAP) {
        sb_puts(sb, "null");
        return;
    }
    sb_putc(sb, '[');
    for (int i = 0; i < v->rank; i++) {
        if (i) sb_putc(sb, ',');
        if (v->dims[i].val >= 0)
            sb_printf(sb, "%lld", (long long)v->dims[i].val);
        else if (v->dims[i].sym)
            sb_json_str(sb, v->dims[i].sym);
        else
            sb_puts(sb, "null");
    }
    sb_putc(sb, ']');
}

static void json_cost_field(struct strbuf *sb, const char *k, uint64_t x, int known)
{
    if (known)
        sb_printf(sb, "\"%s\":%llu,", k, (unsigned long long)x);
    else
        sb_printf(sb, "\"%s\":null,", k);
}

void rep_analysis_json(const struct an_state *an, struct strbuf *sb, const struct nnperf_prediction *p)
{
    const struct ir_model *m = an->m;
    const struct ir_graph *g = m->graph;
    const struct nnperf_summary *s = &an->sum;
    sb_printf(sb, "{\n\"schema\":\"nnperf.analysis\",\n\"schema_version\":%d,\n\"nnperf_version\":",
              NNPERF_JSON_SCHEMA_VERSION);
    sb_json_str(sb, NNPERF_VERSION);
    sb_puts(sb, ",\n\"model\":{\"path\":");
    sb_json_str(sb, m->path);
    sb_printf(sb, ",\"ir_version\":%lld,\"producer\":", (long long)m->ir_version);
    sb_json_str(sb, m->producer ? m->producer : "");
    sb_puts(sb, ",\"opsets\":{");
    for (int i = 0; i < m->n_opsets; i++) {
        if (i) sb_putc(sb, ',');
        sb_json_str(sb, m->opsets[i].domain[0] ? m->opsets[i].domain : "ai.onnx");
        sb_printf(sb, ":%lld", (long long)m->opsets[i].version);
    }
    sb_puts(sb, "}},\n\"summary\":{");
    sb_printf(sb,
              "\"macs\":%llu,\"flops\":%llu,\"params\":%llu,\"weight_bytes\":%llu,\"activation_bytes\":%llu,"
              "\"conv_gemm_matmul_macs\":%llu,\"nodes\":%d,\"unknown_nodes\":%d,\"unknown_tensors\":%d,"
              "\"warnings\":%d",
              (unsigned long long)s->macs, (unsigned long long)s->flops, (unsigned long long)s->params,
              (unsigned long long)s->weight_bytes, (unsigned long long)s->activation_bytes,
              (unsigned long long)s->conv_gemm_matmul_macs, s->nodes, s->unknown_nodes, s->unknown_tensors,
              s->warnings);
    if (p) rep_prediction_json_summary(p, sb);
    sb_puts(sb, "},\n");
    sb_puts(sb, "\"tensors\":[\n");
    for (int i = 0; i < g->n_values; i++) {
        const struct ir_value *v = g->values[i];
        if (i) sb_puts(sb, ",\n");
        sb_puts(sb, "{\"name\":");
        sb_json_str(sb, v->name);
        sb_puts(sb, ",\"dtype\":");
        const char *dn = ir_dtype_name(v->dtype);
        if (v->dtype && dn)
            sb_json_str(sb, dn);
        else
            sb_puts(sb, "null");
        sb_puts(sb, ",\"shape\":");
        json_shape(sb, v);
        sb_printf(sb, ",\"kind\":\"%s\"", kind_name(v));
        if (v->type_kind == TK_SEQUENCE)
            sb_puts(sb, ",\"type\":\"sequence\"");
        else if (v->type_kind == TK_OPTIONAL)
            sb_puts(sb, ",\"type\":\"optional\"");
        else if (v->type_kind == TK_MAP)
            sb_puts(sb, ",\"type\":\"map\"");
        if (v->unknown_reason) {
            sb_puts(sb, ",\"unknown_reason\":");
            sb_json_str(sb, v->unknown_reason);
        }
        sb_putc(sb, '}');
    }
    sb_puts(sb, "\n],\n\"nodes\":[\n");
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        const struct ir_cost *c = &nd->cost;
        if (k) sb_puts(sb, ",\n");
        sb_puts(sb, "{\"name\":");
        sb_json_str(sb, nd->name);
        sb_puts(sb, ",\"op\":");
        sb_json_str(sb, nd->op_type);
        sb_puts(sb, ",\"domain\":");
        sb_json_str(sb, nd->domain[0] ? nd->domain : "ai.onnx");
        sb_puts(sb, ",\"class\":");
        sb_json_str(sb, nd->op >= 0 ? op_class_name(op_table[nd->op].klass) : "unknown");
        sb_puts(sb, ",\"inputs\":[");
        for (int i = 0; i < nd->n_in; i++) {
            if (i) sb_putc(sb, ',');
            if (nd->in[i])
                sb_json_str(sb, nd->in[i]->name);
            else
                sb_puts(sb, "\"\"");
        }
        sb_puts(sb, "],\"outputs\":[");
        for (int i = 0; i < nd->n_out; i++) {
            if (i) sb_putc(sb, ',');
            sb_json_str(sb, nd->out[i] ? nd->out[i]->name : "");
        }
        sb_puts(sb, "],");
        json_cost_field(sb, "macs", c->macs, c->known);
        json_cost_field(sb, "flops", c->flops, c->known);
        json_cost_field(sb, "params", c->params, c->known);
        json_cost_field(sb, "bytes_read", c->bytes_read, c->known);
        json_cost_field(sb, "bytes_written", c->bytes_written, c->known);
        if (c->known)
            sb_printf(sb, "\"intensity\":%.4f,", intensity(c));
        else
            sb_puts(sb, "\"intensity\":null,");
        sb_printf(sb, "\"cost_known\":%s}", c->known ? "true" : "false");
    }
    sb_puts(sb, "\n],\n\"warnings\":[");
    for (int i = 0; i < an->n_warn; i++) {
        sb_puts(sb, i ? ",\n" : "\n");
        sb_json_str(sb, an->warn[i]);
    }
    sb_puts(sb, an->n_warn ? "\n]" : "]");
    if (p) rep_prediction_json_tail(p, sb);
    sb_puts(sb, "\n}\n");
}

static void csv_field(struct strbuf *sb, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        sb_puts(sb, s);
        return;
    }
    sb_putc(sb, '"');
    for (; *s; s++) {
        if (*s == '"') sb_putc(sb, '"');
        sb_putc(sb, *s);
    }
    sb_putc(sb, '"');
}

static void render_csv(const struct an_state *an, struct strbuf *sb)
{
    const struct ir_graph *g = an->m->graph;
    sb_puts(sb, "index,name,op,domain,output_shape,macs,flops,params,bytes_read,bytes_written,intensity,cost_"
                "known\n");
    struct strbuf shp;
    sb_init(&shp, 4096);
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        const struct ir_cost *c = &nd->cost;
        char b[5][32];
        sb_printf(sb, "%d,", k);
        csv_field(sb, nd->name);
        sb_putc(sb, ',');
        csv_field(sb, nd->op_type);
        sb_putc(sb, ',');
        csv_field(sb, nd->domain[0] ? nd->domain : "ai.onnx");
        sb_putc(sb, ',');
        shp.len = 0;
        if (shp.p) shp.p[0] = 0;
        ir_format_shape(&shp, main_out(nd), "x");
        csv_field(sb, shp.p ? shp.p : "");
        fmt_u64(b[0], 32, c->macs, c->known);
        fmt_u64(b[1], 32, c->flops, c->known);
        fmt_u64(b[2], 32, c->params, c->known);
        fmt_u64(b[3], 32, c->bytes_read, c->known);
        fmt_u64(b[4], 32, c->bytes_written, c->known);
        sb_printf(sb, ",%s,%s,%s,%s,%s,", b[0], b[1], b[2], b[3], b[4]);
        if (c->known) sb_printf(sb, "%.4f", intensity(c));
        sb_printf(sb, ",%s\n", c->known ? "true" : "false");
    }
    sb_free(&shp);
}

struct col {
    const char *head;
    int width;
    int right;
};

static void pad(struct strbuf *sb, const char *s, int w, int right)
{
    int n = (int)strlen(s);
    if (n > w && w > 3) {
        /* keep the end of long names: it is the distinctive part of exporter names */
        sb_puts(sb, "..");
        sb_puts(sb, s + n - (w - 2));
        return;
    }
    if (right)
        for (int i = n; i < w; i++) sb_putc(sb, ' ');
    sb_puts(sb, s);
    if (!right)
        for (int i = n; i < w; i++) sb_putc(sb, ' ');
}

static int cmp_idx_macs(const void *a, const void *b, const struct ir_graph *g, int by_bytes)
{
    const struct ir_node *x = g->nodes[*(const int *)a], *y = g->nodes[*(const int *)b];
    uint64_t vx = by_bytes ? x->cost.bytes_read + x->cost.bytes_written : x->cost.macs;
    uint64_t vy = by_bytes ? y->cost.bytes_read + y->cost.bytes_written : y->cost.macs;
    if (vx != vy) return vx < vy ? 1 : -1;
    return *(const int *)a - *(const int *)b;
}

static const struct ir_graph *sort_graph;
static int sort_by_bytes;
static int cmp_heavy(const void *a, const void *b)
{
    return cmp_idx_macs(a, b, sort_graph, sort_by_bytes);
}

void rep_analysis_table(const struct an_state *an, struct strbuf *sb)
{
    const struct ir_graph *g = an->m->graph;
    const struct nnperf_summary *s = &an->sum;
    struct col cols[] = {{"#", 5, 1},       {"node", 28, 0}, {"op", 18, 0},    {"output shape", 20, 0},
                         {"MACs", 9, 1},    {"FLOPs", 9, 1}, {"params", 8, 1}, {"read", 8, 1},
                         {"written", 8, 1}, {"FLOP/B", 7, 1}};
    int nc = (int)(sizeof cols / sizeof cols[0]);
    sb_printf(sb, "model: %s (IR %lld, %s)\n", an->m->path, (long long)an->m->ir_version,
              an->m->producer && an->m->producer[0] ? an->m->producer : "unknown producer");
    for (int i = 0; i < nc; i++) {
        if (i) sb_putc(sb, ' ');
        pad(sb, cols[i].head, cols[i].width, cols[i].right);
    }
    sb_putc(sb, '\n');
    struct strbuf shp;
    sb_init(&shp, 4096);
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        const struct ir_cost *c = &nd->cost;
        char f[10][64];
        snprintf(f[0], 64, "%d", k);
        shp.len = 0;
        if (shp.p) shp.p[0] = 0;
        ir_format_shape(&shp, main_out(nd), "x");
        if (c->known) {
            rep_fmt_si(f[4], 64, (double)c->macs);
            rep_fmt_si(f[5], 64, (double)c->flops);
            rep_fmt_si(f[6], 64, (double)c->params);
            rep_fmt_si(f[7], 64, (double)c->bytes_read);
            rep_fmt_si(f[8], 64, (double)c->bytes_written);
            snprintf(f[9], 64, "%.2f", intensity(c));
        } else {
            for (int i = 4; i < 10; i++) snprintf(f[i], 64, "?");
        }
        const char *vals[10] = {f[0],        nd->name[0] ? nd->name : "-",
                                nd->op_type, shp.p ? shp.p : "?",
                                f[4],        f[5],
                                f[6],        f[7],
                                f[8],        f[9]};
        for (int i = 0; i < nc; i++) {
            if (i) sb_putc(sb, ' ');
            pad(sb, vals[i], cols[i].width, cols[i].right);
        }
        sb_putc(sb, '\n');
    }
    sb_free(&shp);
    char a[5][32];
    rep_fmt_si(a[0], 32, (double)s->macs);
    rep_fmt_si(a[1], 32, (double)s->flops);
    rep_fmt_si(a[2], 32, (double)s->params);
    rep_fmt_si(a[3], 32, (double)s->weight_bytes);
    rep_fmt_si(a[4], 32, (double)s->activation_bytes);
    sb_printf(sb, "\ntotal: %d nodes, %s MACs, %s FLOPs (FLOPs = 2 x MACs + element-wise work), %s params\n",
              s->nodes, a[0], a[1], a[2]);
    sb_printf(sb,
              "       weights %s bytes, activations %s bytes; conv/gemm/matmul MACs %.3f G (torchvision's "
              "\"GFLOPS\")\n",
              a[3], a[4], (double)s->conv_gemm_matmul_macs / 1e9);
    if (s->unknown_nodes || s->unknown_tensors)
        sb_printf(sb, "       %d nodes without a cost, %d tensors without concrete dims\n", s->unknown_nodes,
                  s->unknown_tensors);
    int n = g->n_nodes;
    int *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
    if (idx && n) {
        for (int by = 0; by < 2; by++) {
            for (int i = 0; i < n; i++) idx[i] = i;
            sort_graph = g;
            sort_by_bytes = by;
            qsort(idx, (size_t)n, sizeof *idx, cmp_heavy);
            sb_printf(sb, "\nheaviest nodes by %s:\n", by ? "bytes moved" : "MACs");
            for (int i = 0; i < n && i < 5; i++) {
                const struct ir_node *nd = g->nodes[idx[i]];
                uint64_t v = by ? nd->cost.bytes_read + nd->cost.bytes_written : nd->cost.macs;
                if (!v) break;
                char b[32];
                rep_fmt_si(b, 32, (double)v);
                uint64_t tot = by ? 0 : s->macs;
                if (by)
                    for (int j = 0; j < n; j++)
                        tot += g->nodes[j]->cost.bytes_read + g->nodes[j]->cost.bytes_written;
                sb_printf(sb, "  %-40s %-16s %8s  %5.1f%%\n", nd->name, nd->op_type, b,
                          tot ? 100.0 * (double)v / (double)tot : 0.0);
            }
        }
    }
    free(idx);
    if (an->n_warn) {
        sb_printf(sb, "\nwarnings (%d):\n", an->n_warn);
        for (int i = 0; i < an->n_warn; i++) sb_printf(sb, "  %s\n", an->warn[i]);
    }
}

enum nnperf_status nnperf_analysis_render(const struct nnperf_analysis *a, enum nnperf_format fmt, char **out,
                                          size_t *len, char *err, size_t errlen)
{
    struct strbuf sb;
    sb_init(&sb, REPORT_CAP);
    *out = NULL;
    *len = 0;
    switch (fmt) {
    case NNPERF_FORMAT_JSON: rep_analysis_json(&a->st, &sb, NULL); break;
    case NNPERF_FORMAT_CSV: render_csv(&a->st, &sb); break;
    case NNPERF_FORMAT_TABLE: rep_analysis_table(&a->st, &sb); break;
    case NNPERF_FORMAT_HTML: rep_html_analysis(&a->st, &sb); break;
    default:
        if (err && errlen) snprintf(err, errlen, "unknown output format %d", (int)fmt);
        return NNPERF_E_USAGE;
    }
    return rep_finish(&sb, out, len, err, errlen);
}
