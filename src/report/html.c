/* html.c - the HTML reports: one self-contained page per analysis, prediction or comparison (HBDK's report has
 * the same tabs, seed 000). Nothing is loaded from elsewhere: CSS and script are inline, plots are inline SVG, and a
 * Content-Security-Policy forbids any network request. Every name from the model is escaped (rep_esc), so a layer
 * called <script> stays text. Output is deterministic: rows in a fixed order, fixed number formats, no clock. The
 * script (tabs, sorting, filtering) also has a self-test, run when the URL ends in #selftest (tests/browser/). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

static const char css[] =
    "*{box-sizing:border-box}"
    "body{margin:0;font:14px/1.45 'DejaVu Sans',Arial,Helvetica,sans-serif;color:#1d1d1f;background:#f4f5f7}"
    "header{background:#1f2a44;color:#fff;padding:14px 24px 0}"
    "header h1{margin:0;font-size:20px;font-weight:600}"
    "header .sub{color:#c9d2e6;font-size:13px;margin:2px 0 10px;overflow-wrap:anywhere}"
    "nav.tabs{display:flex;gap:2px;flex-wrap:wrap}"
    "nav.tabs button{font:inherit;border:0;background:#33415f;color:#dfe6f5;padding:8px 16px;cursor:pointer;"
    "border-radius:6px 6px 0 0}"
    "nav.tabs button[aria-selected=true]{background:#f4f5f7;color:#1f2a44;font-weight:600}"
    "main{max-width:1240px;margin:0 auto;padding:16px 20px 40px}"
    "section.tab{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:16px "
    "20px;margin-bottom:16px}"
    "section.tab[hidden]{display:none}"
    "h2{font-size:17px;margin:0 0 12px}h3{font-size:15px;margin:18px 0 8px}"
    ".cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:10px;margin-bottom:"
    "16px}"
    ".card{background:#f7f9fc;border:1px solid #e2e6ee;border-radius:6px;padding:8px 12px}"
    ".card .k{font-size:12px;color:#5b6478}.card .v{font-size:20px;font-weight:600}"
    "table{border-collapse:collapse;width:100%;font-size:13px}"
    "th,td{padding:4px 6px;border-bottom:1px solid #eceef2;text-align:left;vertical-align:top}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    "table.kv td:first-child{color:#5b6478;width:280px}"
    "table.sortable thead th{position:sticky;top:0;background:#eef1f6;cursor:pointer;user-select:none;"
    "white-space:nowrap}"
    "table.sortable thead th:hover{background:#e0e6f0}"
    "th[aria-sort=ascending]::after{content:' \\25B2';font-size:10px}"
    "th[aria-sort=descending]::after{content:' \\25BC';font-size:10px}"
    "td.name{min-width:200px;max-width:340px;overflow-wrap:anywhere}td.sh{white-space:nowrap}"
    "tbody tr:hover{background:#f3f7ff}"
    ".tablewrap{max-height:70vh;overflow:auto;border:1px solid #e2e6ee;border-radius:6px}"
    ".tools{display:flex;gap:12px;align-items:center;margin-bottom:8px}"
    ".tools input{font:inherit;padding:5px 8px;width:340px;border:1px solid #c5ccd8;border-radius:4px}"
    ".muted{color:#5b6478;font-size:12px}"
    ".b-compute{color:#1f77b4}.b-memory{color:#c0392b}.b-fallback{color:#8e44ad}.b-overhead{color:#7f7f7f}"
    ".warn{background:#fff8e6;border:1px solid #f0d58c;border-radius:6px;padding:8px 12px;margin:8px 0}"
    ".warn ul{margin:4px 0;padding-left:20px}"
    ".plot{overflow-x:auto}svg.plot{max-width:100%;height:auto;display:block}"
    "svg.roofline,svg.timeline,svg.memory,svg.lines,svg.pareto{width:100%}"
    "pre{white-space:pre-wrap;font-size:13px}"
    "footer{color:#5b6478;font-size:12px;text-align:center;padding:10px}"
    "@media print{body{background:#fff}header{background:#fff;color:#000}header .sub{color:#333}"
    "nav.tabs,.tools{display:none}section.tab,section.tab[hidden]{display:block;border:0;padding:0;"
    "break-before:page}section.tab:first-of-type{break-before:auto}.tablewrap{max-height:none;overflow:"
    "visible;"
    "border:0}table.sortable thead th{position:static}main{max-width:none;padding:0}}";

static const char js[] =
    "(function(){'use strict';\n"
    "var errors=[];window.addEventListener('error',function(e){errors.push('error: '+e.message);});\n"
    "document.addEventListener('securitypolicyviolation',function(e){errors.push('blocked: "
    "'+e.blockedURI);});\n"
    "var buttons=document.querySelectorAll('nav.tabs button');\n"
    "function show(id){for(var i=0;i<buttons.length;i++){var "
    "b=buttons[i],on=b.getAttribute('data-tab')===id;\n"
    "b.setAttribute('aria-selected',on?'true':'false');document.getElementById('tab-'+b.getAttribute('data-"
    "tab'))"
    ".hidden=!on;}}\n"
    "for(var i=0;i<buttons.length;i++)buttons[i].addEventListener('click',function(){show(this.getAttribute("
    "'data-tab'));});\n"
    "var m=/tab=([a-z0-9-]+)/.exec(location.hash);if(m&&document.getElementById('tab-'+m[1]))show(m[1]);\n"
    "function cell(r,c){var td=r.cells[c];var v=td.getAttribute('data-v');return "
    "v===null?td.textContent:v;}\n"
    "function sortTable(t,c,desc){var th=t.tHead.rows[0].cells,num=th[c].classList.contains('n');\n"
    "var tb=t.tBodies[0],rows=Array.prototype.slice.call(tb.rows);\n"
    "var keyed=rows.map(function(r,i){var "
    "v=cell(r,c);return{r:r,i:i,v:num?parseFloat(v):v.toLowerCase()};});\n"
    "keyed.sort(function(a,b){var x=a.v,y=b.v;if(num){if(isNaN(x))x=-Infinity;if(isNaN(y))y=-Infinity;}\n"
    "var d=x<y?-1:x>y?1:0;return (desc?-d:d)||a.i-b.i;});\n"
    "var "
    "f=document.createDocumentFragment();keyed.forEach(function(k){f.appendChild(k.r);});tb.appendChild(f);\n"
    "for(var k=0;k<th.length;k++)th[k].removeAttribute('aria-sort');\n"
    "th[c].setAttribute('aria-sort',desc?'descending':'ascending');}\n"
    "var tables=document.querySelectorAll('table.sortable');\n"
    "Array.prototype.forEach.call(tables,function(t){var th=t.tHead.rows[0].cells;\n"
    "Array.prototype.forEach.call(th,function(h,c){h.addEventListener('click',function(){\n"
    "var "
    "cur=h.getAttribute('aria-sort');sortTable(t,c,cur?cur==='ascending':h.classList.contains('n'));});});});"
    "\n"
    "Array.prototype.forEach.call(document.querySelectorAll('input.filter'),function(inp){\n"
    "var "
    "t=document.getElementById(inp.getAttribute('data-table')),cnt=document.getElementById(inp.getAttribute("
    "'data-count'));\n"
    "inp.addEventListener('input',function(){var q=inp.value.toLowerCase(),rows=t.tBodies[0].rows,n=0;\n"
    "for(var i=0;i<rows.length;i++){var r=rows[i];if(r._t===undefined)r._t=r.textContent.toLowerCase();\n"
    "var on=r._t.indexOf(q)>=0;r.hidden=!on;if(on)n++;}if(cnt)cnt.textContent=n+' of '+rows.length+' "
    "rows';});});\n"
    "function report(out,t){var p=document.createElement('pre');p.id='selftest-result';\n"
    "p.textContent=(out.length?'FAIL\\n'+out.join('\\n'):'PASS')+'\\ntabs '+buttons.length+', rows '+"
    "document.querySelectorAll('table.sortable tbody tr').length+', script ms '+t+', selftest ms '+"
    "Math.round(performance.now()-t);\n"
    "document.body.appendChild(p);}\n"
    "function selftest(t){var out=[];\n"
    "for(var i=0;i<buttons.length;i++){var "
    "id=buttons[i].getAttribute('data-tab'),s=document.getElementById('tab-'+id);\n"
    "if(!s){out.push('missing tab '+id);continue;}buttons[i].click();if(s.hidden)out.push('tab '+id+' not "
    "shown');\n"
    "if(!s.querySelector('svg,table,pre,p'))out.push('tab '+id+' is empty');}\n"
    "if(buttons.length)buttons[0].click();\n"
    "Array.prototype.forEach.call(tables,function(t){var th=t.tHead.rows[0].cells,c=-1;\n"
    "for(var k=0;k<th.length;k++)if(th[k].getAttribute('data-key')==='time')c=k;if(c<0)return;\n"
    "for(var pass=0;pass<2;pass++){th[c].click();var desc=th[c].getAttribute('aria-sort')==='descending',"
    "rows=t.tBodies[0].rows;\n"
    "for(var r=1;r<rows.length;r++){var a=parseFloat(cell(rows[r-1],c)),b=parseFloat(cell(rows[r],c));\n"
    "if(desc?a<b:a>b){out.push('table '+t.id+' not sorted by time ('+(desc?'desc':'asc')+') at row "
    "'+r);break;}}}});\n"
    "report(out.concat(errors),t);}\n"
    "var t0=Math.round(performance.now());\n"
    "if(location.hash.indexOf('selftest')>=0)selftest(t0);else "
    "if(location.hash.indexOf('loadtime')>=0)report(errors,t0);\n"
    "})();\n";

static void page_open(struct strbuf *sb, const char *title, const char *sub)
{
    sb_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
                "'unsafe-inline'; "
                "script-src 'unsafe-inline'; img-src data:\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<meta name=\"generator\" content=\"nnperf " NNPERF_VERSION "\">\n<title>");
    rep_esc(sb, title);
    sb_puts(sb, "</title>\n<style>");
    sb_puts(sb, css);
    sb_puts(sb, "</style>\n</head>\n<body>\n<header>\n<h1>");
    rep_esc(sb, title);
    sb_puts(sb, "</h1>\n<div class=\"sub\">");
    rep_esc(sb, sub);
    sb_puts(sb, "</div>\n");
}

struct tabdef {
    const char *id, *title;
};

static void nav(struct strbuf *sb, const struct tabdef *t, int n)
{
    sb_puts(sb, "<nav class=\"tabs\" role=\"tablist\">");
    for (int i = 0; i < n; i++) {
        sb_puts(sb, "<button type=\"button\" role=\"tab\" data-tab=\"");
        rep_esc(sb, t[i].id);
        sb_printf(sb, "\" aria-selected=\"%s\">", i ? "false" : "true");
        rep_esc(sb, t[i].title);
        sb_puts(sb, "</button>");
    }
    sb_puts(sb, "</nav>\n</header>\n<main>\n");
}

static void tab_open(struct strbuf *sb, const char *id, const char *h2, int first)
{
    sb_puts(sb, "<section class=\"tab\" role=\"tabpanel\" id=\"tab-");
    rep_esc(sb, id);
    sb_printf(sb, "\"%s>\n<h2>", first ? "" : " hidden");
    rep_esc(sb, h2);
    sb_puts(sb, "</h2>\n");
}

static void page_close(struct strbuf *sb)
{
    sb_puts(sb,
            "</main>\n<footer>nnperf " NNPERF_VERSION
            " &middot; predictions are estimates from a platform model, not measurements</footer>\n<script>");
    sb_puts(sb, js);
    sb_puts(sb, "</script>\n</body>\n</html>\n");
}

static void card(struct strbuf *sb, const char *k, const char *v)
{
    sb_puts(sb, "<div class=\"card\"><div class=\"k\">");
    rep_esc(sb, k);
    sb_puts(sb, "</div><div class=\"v\">");
    rep_esc(sb, v);
    sb_puts(sb, "</div></div>\n");
}

static void kv(struct strbuf *sb, const char *k, const char *v)
{
    sb_puts(sb, "<tr><td>");
    rep_esc(sb, k);
    sb_puts(sb, "</td><td>");
    rep_esc(sb, v);
    sb_puts(sb, "</td></tr>\n");
}

static void si(char *b, size_t n, double x, const char *unit)
{
    char t[32];
    rep_fmt_si(t, sizeof t, x);
    snprintf(b, n, "%s%s%s", t, unit[0] ? " " : "", unit);
}

/* a numeric cell: shown text, sort key */
static void td_num(struct strbuf *sb, const char *shown, double key)
{
    sb_puts(sb, "<td class=\"n\" data-v=\"");
    if (isfinite(key))
        sb_printf(sb, "%.6g", key);
    else
        sb_puts(sb, "NaN");
    sb_puts(sb, "\">");
    rep_esc(sb, shown);
    sb_puts(sb, "</td>");
}

static void td_text(struct strbuf *sb, const char *cls, const char *s)
{
    if (cls)
        sb_printf(sb, "<td class=\"%s\">", cls);
    else
        sb_puts(sb, "<td>");
    rep_esc(sb, s);
    sb_puts(sb, "</td>");
}

struct col {
    const char *head, *key;
    int num;
};

static void table_head(struct strbuf *sb, const char *id, const char *what, int n_rows, const struct col *c,
                       int nc, int sorted_col)
{
    sb_printf(sb,
              "<div class=\"tools\"><input type=\"search\" class=\"filter\" data-table=\"%s\" "
              "data-count=\"%s-count\" "
              "placeholder=\"filter %s: name, op, class, bound\" aria-label=\"filter %s\">"
              "<span class=\"muted\" id=\"%s-count\">%d rows</span>"
              "<span class=\"muted\">click a column header to sort</span></div>\n",
              id, id, what, what, id, n_rows);
    sb_printf(sb, "<div class=\"tablewrap\"><table class=\"sortable\" id=\"%s\">\n<thead><tr>", id);
    for (int i = 0; i < nc; i++) {
        sb_printf(sb, "<th%s data-key=\"%s\"%s>", c[i].num ? " class=\"n\"" : "", c[i].key,
                  i == sorted_col ? " aria-sort=\"descending\"" : "");
        rep_esc(sb, c[i].head);
        sb_puts(sb, "</th>");
    }
    sb_puts(sb, "</tr></thead>\n<tbody>\n");
}

static void warnings_box(struct strbuf *sb, const char *head, const char *const *w, int n)
{
    if (!n) return;
    sb_printf(sb, "<div class=\"warn\"><b>");
    rep_esc(sb, head);
    sb_printf(sb, " (%d)</b>", n);
    int limit = n > 12 ? 10 : n;
    sb_puts(sb, "<ul>");
    for (int i = 0; i < limit; i++) {
        sb_puts(sb, "<li>");
        rep_esc(sb, w[i]);
        sb_puts(sb, "</li>");
    }
    sb_puts(sb, "</ul>");
    if (limit < n) {
        sb_printf(sb, "<details><summary>%d more</summary><ul>", n - limit);
        for (int i = limit; i < n; i++) {
            sb_puts(sb, "<li>");
            rep_esc(sb, w[i]);
            sb_puts(sb, "</li>");
        }
        sb_puts(sb, "</ul></details>");
    }
    sb_puts(sb, "</div>\n");
}

static void inputs_text(struct strbuf *out, const struct ir_graph *g)
{
    int k = 0;
    for (int i = 0; i < g->n_inputs; i++) {
        const struct ir_value *v = g->inputs[i];
        if (!v || (v->flags & IR_V_INIT)) continue;
        if (k++) sb_puts(out, ", ");
        sb_puts(out, v->name);
        sb_puts(out, " ");
        ir_format_shape(out, v, "x");
    }
    if (!k) sb_puts(out, "none");
}

static const struct ir_value *node_out(const struct ir_node *nd)
{
    for (int i = 0; i < nd->n_out; i++)
        if (nd->out[i]) return nd->out[i];
    return NULL;
}

/* ---- analysis page ---- */

static const struct ir_graph *sort_g;

static int cmp_flops(const void *a, const void *b)
{
    const struct ir_node *x = sort_g->nodes[*(const int *)a], *y = sort_g->nodes[*(const int *)b];
    uint64_t fx = x->cost.known ? x->cost.flops : 0, fy = y->cost.known ? y->cost.flops : 0;
    if (fx != fy) return fx < fy ? 1 : -1;
    return *(const int *)a - *(const int *)b;
}

static void analysis_summary(const struct an_state *an, struct strbuf *sb)
{
    const struct nnperf_summary *s = &an->sum;
    char b[96];
    sb_puts(sb, "<div class=\"cards\">\n");
    si(b, sizeof b, (double)s->macs, "");
    card(sb, "MACs", b);
    si(b, sizeof b, (double)s->flops, "");
    card(sb, "FLOPs", b);
    si(b, sizeof b, (double)s->params, "");
    card(sb, "parameters", b);
    si(b, sizeof b, (double)s->weight_bytes, "B");
    card(sb, "weight bytes", b);
    snprintf(b, sizeof b, "%d", s->nodes);
    card(sb, "nodes", b);
    sb_puts(sb, "</div>\n<table class=\"kv\">\n");
    struct strbuf t;
    sb_init(&t, 1 << 20);
    inputs_text(&t, an->m->graph);
    kv(sb, "model", an->m->path);
    kv(sb, "producer", an->m->producer && an->m->producer[0] ? an->m->producer : "unknown");
    kv(sb, "inputs", t.p ? t.p : "");
    sb_free(&t);
    snprintf(b, sizeof b, "%llu", (unsigned long long)s->macs);
    kv(sb, "MACs (multiply-accumulates)", b);
    snprintf(b, sizeof b, "%llu", (unsigned long long)s->flops);
    kv(sb, "FLOPs (2 x MACs + element-wise work)", b);
    snprintf(b, sizeof b, "%.3f G", (double)s->conv_gemm_matmul_macs / 1e9);
    kv(sb, "conv/gemm/matmul MACs (torchvision's \"GFLOPS\")", b);
    si(b, sizeof b, (double)s->activation_bytes, "B");
    kv(sb, "activation bytes", b);
    snprintf(b, sizeof b, "%d nodes without a cost, %d tensors without concrete dims", s->unknown_nodes,
             s->unknown_tensors);
    kv(sb, "unknown", b);
    sb_puts(sb, "</table>\n");
}

void rep_html_analysis(const struct an_state *an, struct strbuf *sb)
{
    const struct ir_graph *g = an->m->graph;
    char title[512];
    snprintf(title, sizeof title, "nnperf: %s", an->m->path);
    page_open(sb, title,
              "analysis: shapes, types and per-node costs (no platform given: add --hw for latency)");
    static const struct tabdef tabs[] = {{"summary", "Summary"}, {"layers", "Layer details"}};
    nav(sb, tabs, 2);
    tab_open(sb, "summary", "Summary", 1);
    analysis_summary(an, sb);
    warnings_box(sb, "warnings", an->warn, an->n_warn);
    sb_puts(sb, "</section>\n");
    tab_open(sb, "layers", "Layer details (heaviest first)", 0);
    static const struct col cols[] = {{"#", "index", 1},         {"node", "name", 0},
                                      {"op", "op", 0},           {"output shape", "shape", 0},
                                      {"MACs", "macs", 1},       {"FLOPs", "time", 1},
                                      {"params", "params", 1},   {"read", "read", 1},
                                      {"written", "written", 1}, {"FLOP/B", "intensity", 1}};
    table_head(sb, "layer-table", "nodes", g->n_nodes, cols, 10, 5);
    int *idx = malloc((size_t)(g->n_nodes > 0 ? g->n_nodes : 1) * sizeof *idx);
    struct strbuf shp;
    sb_init(&shp, 1 << 20);
    for (int i = 0; idx && i < g->n_nodes; i++) idx[i] = i;
    if (idx) {
        sort_g = g;
        qsort(idx, (size_t)g->n_nodes, sizeof *idx, cmp_flops);
    }
    for (int k = 0; idx && k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[idx[k]];
        const struct ir_cost *c = &nd->cost;
        char b[48];
        sb_puts(sb, "<tr>");
        snprintf(b, sizeof b, "%d", idx[k]);
        td_num(sb, b, idx[k]);
        td_text(sb, "name", nd->name[0] ? nd->name : "-");
        td_text(sb, NULL, nd->op_type);
        shp.len = 0;
        if (shp.p) shp.p[0] = 0;
        ir_format_shape(&shp, node_out(nd), "x");
        td_text(sb, NULL, shp.p ? shp.p : "?");
        double v[5] = {(double)c->macs, (double)c->flops, (double)c->params, (double)c->bytes_read,
                       (double)c->bytes_written};
        for (int i = 0; i < 5; i++) {
            if (c->known)
                rep_fmt_si(b, sizeof b, v[i]);
            else
                snprintf(b, sizeof b, "?");
            td_num(sb, b, c->known ? v[i] : NAN);
        }
        double in = v[3] + v[4] > 0 ? v[1] / (v[3] + v[4]) : 0;
        snprintf(b, sizeof b, "%.2f", in);
        td_num(sb, c->known ? b : "?", c->known ? in : NAN);
        sb_puts(sb, "</tr>\n");
    }
    sb_free(&shp);
    free(idx);
    sb_puts(sb, "</tbody></table></div>\n</section>\n");
    page_close(sb);
}

/* ---- prediction page ---- */

static const struct nnperf_prediction *sort_p;

static int cmp_time(const void *a, const void *b)
{
    const struct pr_layer *x = &sort_p->layers[*(const int *)a], *y = &sort_p->layers[*(const int *)b];
    if (x->t_total != y->t_total) return x->t_total < y->t_total ? 1 : -1;
    return *(const int *)a - *(const int *)b;
}

static void shape_cell(struct strbuf *sb, const struct pr_layer *L, int aligned)
{
    sb_puts(sb, "<td class=\"sh\">");
    if (!L->out || L->out->rank < 0)
        sb_puts(sb, "?");
    else
        for (int i = 0; i < L->out->rank; i++) {
            struct ir_dim d = L->out->dims[i];
            int64_t v = aligned && L->out_rank == L->out->rank ? L->aligned_dims[i] : d.val;
            if (i) sb_putc(sb, 'x');
            if (d.val < 0)
                sb_putc(sb, '?');
            else
                sb_printf(sb, "%lld", (long long)v);
        }
    sb_puts(sb, "</td>");
}

static void prediction_summary(const struct nnperf_prediction *p, struct strbuf *sb)
{
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(p, &s);
    const struct nnperf_summary *as = &p->an->sum;
    char b[160], c1[32], c2[32], c3[32];
    sb_puts(sb, "<div class=\"cards\">\n");
    rep_fmt_time(b, sizeof b, s.latency_s);
    card(sb, "latency per run", b);
    snprintf(b, sizeof b, "%.2f", s.fps);
    card(sb, "FPS", b);
    si(b, sizeof b, s.ops_per_frame, "");
    card(sb, "ops per frame", b);
    si(b, sizeof b, s.ddr_bytes_per_frame, "B");
    card(sb, "DDR bytes per frame", b);
    snprintf(b, sizeof b, "%.1f%%", s.avg_utilization * 100);
    card(sb, "average utilization", b);
    sb_puts(sb, "</div>\n<table class=\"kv\">\n");
    kv(sb, "model", p->an->m->path);
    snprintf(b, sizeof b, "%s%s%s", p->hw.name, p->hw.description[0] ? ": " : "", p->hw.description);
    kv(sb, "platform", b);
    snprintf(b, sizeof b, "%s, memory model %s", s.dtype, s.memory_model);
    kv(sb, "dtype", b);
    struct strbuf t;
    sb_init(&t, 1 << 20);
    inputs_text(&t, p->an->m->graph);
    kv(sb, "inputs", t.p ? t.p : "");
    sb_free(&t);
    snprintf(b, sizeof b, "%d", s.frames_per_run);
    kv(sb, "frames per run", b);
    rep_fmt_si(c1, sizeof c1, s.ops_per_frame);
    rep_fmt_si(c2, sizeof c2, s.aligned_ops_per_frame);
    rep_fmt_si(c3, sizeof c3, s.ops_per_run);
    snprintf(b, sizeof b, "%s (aligned %s; per run %s; ops = 2 x MACs + other FLOPs)", c1, c2, c3);
    kv(sb, "ops per frame", b);
    rep_fmt_si(c1, sizeof c1, (double)as->macs);
    rep_fmt_si(c2, sizeof c2, (double)as->params);
    snprintf(b, sizeof b, "%s MACs, %s parameters, %d nodes in %d layers", c1, c2, as->nodes, s.layers);
    kv(sb, "model size", b);
    rep_fmt_si(c1, sizeof c1, s.ddr_bytes_per_frame);
    rep_fmt_si(c2, sizeof c2, s.ddr_bytes_per_run);
    rep_fmt_si(c3, sizeof c3, s.ddr_bytes_per_second);
    snprintf(b, sizeof b, "%s B per frame, %s B per run, %s B/s", c1, c2, c3);
    kv(sb, "DDR traffic", b);
    rep_fmt_si(c1, sizeof c1, s.loaded_bytes_per_frame);
    rep_fmt_si(c2, sizeof c2, s.stored_bytes_per_frame);
    snprintf(b, sizeof b, "%s B / %s B", c1, c2);
    kv(sb, "loaded / stored per frame", b);
    rep_fmt_si(c1, sizeof c1, s.weight_bytes_per_frame);
    rep_fmt_si(c2, sizeof c2, s.spill_bytes_per_frame);
    snprintf(b, sizeof b, "weights %s B, spills %s B (%d spilled tensors)", c1, c2, s.spilled_tensors);
    kv(sb, "of which per frame", b);
    rep_fmt_time(c1, sizeof c1, s.latency_s);
    snprintf(b, sizeof b, "%s per run, %.2f FPS", c1, s.fps);
    kv(sb, "latency", b);
    snprintf(b, sizeof b, "%.1f%%", s.avg_utilization * 100);
    kv(sb, "average compute utilization", b);
    snprintf(b, sizeof b, "%d fallback layers, %d layers of unknown cost, %d nodes of unknown operators",
             s.fallback_layers, s.unknown_layers, as->unknown_nodes);
    kv(sb, "attention", b);
    sb_puts(sb, "</table>\n");
    warnings_box(sb, "analysis warnings", p->an->warn, p->an->n_warn);
    warnings_box(sb, "prediction warnings", p->warn, p->n_warn);
}

static const char *bound_of(const struct pr_layer *L)
{
    if (L->fallback) return "fallback";
    return L->bound == PB_COMPUTE    ? "compute"
           : L->bound == PB_MEMORY   ? "memory"
           : L->bound == PB_OVERHEAD ? "overhead"
                                     : "unknown";
}

static void prediction_layers(const struct nnperf_prediction *p, struct strbuf *sb)
{
    static const struct col cols[] = {{"#", "index", 1},
                                      {"layer", "name", 0},
                                      {"op", "op", 0},
                                      {"class", "class", 0},
                                      {"time", "time", 1},
                                      {"share", "share", 1},
                                      {"bound", "bound", 0},
                                      {"ops", "ops", 1},
                                      {"compute", "compute", 1},
                                      {"load/store", "memory", 1},
                                      {"active (us)", "start", 1},
                                      {"output shape", "shape", 0},
                                      {"aligned shape", "ashape", 0}};
    int *idx = malloc((size_t)(p->n_layers > 0 ? p->n_layers : 1) * sizeof *idx);
    int n = 0;
    for (int l = 0; idx && l < p->n_layers; l++) {
        const struct pr_layer *L = &p->layers[l];
        if (L->t_total <= 0 && L->mac_ops + L->vec_ops <= 0) continue; /* views and folded work */
        idx[n++] = l;
    }
    if (idx) {
        sort_p = p;
        qsort(idx, (size_t)n, sizeof *idx, cmp_time);
    }
    table_head(sb, "layer-table", "layers", n, cols, 13, 4);
    for (int i = 0; i < n; i++) {
        const struct pr_layer *L = &p->layers[idx[i]];
        char b[96];
        sb_puts(sb, "<tr>");
        snprintf(b, sizeof b, "%d", idx[i]);
        td_num(sb, b, idx[i]);
        td_text(sb, "name", L->name);
        td_text(sb, NULL, L->main->op_type);
        td_text(sb, NULL, op_class_name(L->klass));
        rep_fmt_time(b, sizeof b, L->t_total);
        td_num(sb, b, L->t_total * 1e6);
        double share = p->latency > 0 ? 100 * L->t_total / p->latency : 0;
        snprintf(b, sizeof b, "%.1f%%", share);
        td_num(sb, b, share);
        const char *bd = bound_of(L);
        sb_printf(sb, "<td class=\"b-%s\">%s</td>", bd, bd);
        rep_fmt_si(b, sizeof b, L->mac_ops + L->vec_ops);
        td_num(sb, b, L->mac_ops + L->vec_ops);
        rep_fmt_time(b, sizeof b, L->t_compute);
        td_num(sb, b, L->t_compute * 1e6);
        rep_fmt_time(b, sizeof b, L->t_memory + L->t_transfer);
        td_num(sb, b, (L->t_memory + L->t_transfer) * 1e6);
        snprintf(b, sizeof b, "%.1f ~ %.1f (%.1f)", L->start * 1e6, L->end * 1e6, (L->end - L->start) * 1e6);
        td_num(sb, b, L->start * 1e6);
        shape_cell(sb, L, 0);
        shape_cell(sb, L, 1);
        sb_puts(sb, "</tr>\n");
    }
    sb_puts(sb, "</tbody></table></div>\n");
    free(idx);
}

void rep_html_prediction(const struct nnperf_prediction *p, const struct rep_html_section *extra, int n_extra,
                         struct strbuf *sb)
{
    char title[512], sub[512];
    snprintf(title, sizeof title, "nnperf: %s on %s", p->an->m->path, p->hw.name);
    snprintf(sub, sizeof sub, "predicted latency and throughput, %s, %d frame%s per run",
             hw_dtype_name(p->dtype), p->batch, p->batch == 1 ? "" : "s");
    page_open(sb, title, sub);
    struct tabdef tabs[16] = {{"summary", "Summary"},
                              {"layers", "Layer details"},
                              {"timeline", "Timeline"},
                              {"roofline", "Roofline"},
                              {"memory", "Memory"}};
    int nt = 5;
    for (int i = 0; i < n_extra && nt < 16; i++) tabs[nt].id = extra[i].id, tabs[nt++].title = extra[i].title;
    nav(sb, tabs, nt);
    tab_open(sb, "summary", "Summary", 1);
    prediction_summary(p, sb);
    sb_puts(sb, "</section>\n");
    tab_open(sb, "layers", "Layer details (heaviest first)", 0);
    prediction_layers(p, sb);
    sb_puts(sb, "</section>\n");
    tab_open(sb, "timeline", "Timeline", 0);
    sb_puts(
        sb,
        "<p class=\"muted\">Each bar is a layer's active period (the span in which its work is in flight; "
        "layers overlap). Hover a bar for its name, time and bound.</p>\n<div class=\"plot\">");
    rep_svg_timeline(p, sb, 0);
    sb_puts(sb, "</div>\n</section>\n");
    tab_open(sb, "roofline", "Roofline", 0);
    sb_puts(
        sb,
        "<p class=\"muted\">Every layer is a point: x = aligned ops per DDR byte, y = attained ops/s; area "
        "grows with the layer's time, colour is its operator class. Hover a point for the layer.</p>\n"
        "<div class=\"plot\">");
    rep_svg_roofline(p, sb, 0);
    sb_puts(sb, "</div>\n</section>\n");
    tab_open(sb, "memory", "Memory", 0);
    sb_puts(
        sb,
        "<p class=\"muted\">DDR bytes per run of each layer: weights read, activations loaded and stored, "
        "spills (tensors that did not fit on chip, stored and read back).</p>\n<div class=\"plot\">");
    rep_svg_memory(p, sb, 0);
    sb_puts(sb, "</div>\n</section>\n");
    for (int i = 0; i < n_extra; i++) {
        tab_open(sb, extra[i].id, extra[i].title, 0);
        if (extra[i].is_html)
            sb_puts(sb, extra[i].text ? extra[i].text : "");
        else {
            sb_puts(sb, "<pre>");
            rep_esc(sb, extra[i].text ? extra[i].text : "");
            sb_puts(sb, "</pre>");
        }
        sb_puts(sb, "\n</section>\n");
    }
    page_close(sb);
}

/* ---- compare page ---- */

void rep_html_compare(const struct nnperf_compare_data *d, struct strbuf *sb)
{
    int M = d->n_models, P = d->n_platforms;
    char sub[256];
    snprintf(sub, sizeof sub, "%d model%s x %d platform%s, dtype %s", M, M == 1 ? "" : "s", P,
             P == 1 ? "" : "s", d->dtype ? d->dtype : "per platform default");
    page_open(sb, "nnperf: model x platform comparison", sub);
    struct tabdef tabs[3] = {
        {"summary", "Summary"}, {"sweep", "Latency vs throughput"}, {"accuracy", "Accuracy"}};
    int nt = d->accuracy ? 3 : 2;
    if (!d->n_batches && !d->accuracy)
        nt = 1;
    else if (!d->n_batches)
        tabs[1] = tabs[2];
    nav(sb, tabs, nt);
    tab_open(sb, "summary", "FPS and latency", 1);
    struct rep_heat h = {M, P, d->models, d->platforms, d->fps, "FPS"};
    sb_puts(sb, "<div class=\"plot\">");
    rep_svg_heatmap(&h, sb, 0);
    sb_puts(sb, "</div>\n");
    for (int pass = 0; pass < 2; pass++) {
        sb_printf(
            sb,
            "<h3>%s</h3>\n<div class=\"tablewrap\"><table class=\"sortable\" id=\"%s-table\">\n<thead><tr>"
            "<th data-key=\"name\">model</th>",
            pass ? "latency (ms per run)" : "FPS", pass ? "latency" : "fps");
        for (int c = 0; c < P; c++) {
            sb_puts(sb, "<th class=\"n\" data-key=\"p\">");
            rep_esc(sb, d->platforms[c]);
            sb_puts(sb, "</th>");
        }
        sb_puts(sb, "</tr></thead>\n<tbody>\n");
        for (int r = 0; r < M; r++) {
            sb_puts(sb, "<tr>");
            td_text(sb, "name", d->models[r]);
            for (int c = 0; c < P; c++) {
                double v = pass ? d->latency_ms[r * P + c] : d->fps[r * P + c];
                char b[32];
                if (isfinite(v))
                    snprintf(b, sizeof b, "%.2f", v);
                else
                    snprintf(b, sizeof b, "n/a");
                td_num(sb, b, v);
            }
            sb_puts(sb, "</tr>\n");
        }
        sb_puts(sb, "</tbody></table></div>\n");
    }
    sb_puts(sb, "</section>\n");
    if (d->n_batches) {
        tab_open(sb, "sweep", "Latency vs throughput over a batch sweep", 0);
        sb_puts(sb, "<p class=\"muted\">One line per platform; points are batch sizes ");
        for (int b = 0; b < d->n_batches; b++) sb_printf(sb, "%s%d", b ? ", " : "", d->batches[b]);
        sb_puts(sb, ". Up and to the right costs latency for throughput.</p>\n");
        struct rep_series *s = calloc((size_t)(P > 0 ? P : 1), sizeof *s);
        double *x = calloc((size_t)(P * d->n_batches + 1), sizeof *x);
        double *y = calloc((size_t)(P * d->n_batches + 1), sizeof *y);
        char(*lab)[24] = calloc((size_t)(d->n_batches + 1), sizeof *lab);
        const char **labp = calloc((size_t)(d->n_batches + 1), sizeof *labp);
        for (int r = 0; s && x && y && lab && labp && r < M; r++) {
            for (int b = 0; b < d->n_batches; b++) {
                snprintf(lab[b], sizeof lab[b], "batch %d", d->batches[b]);
                labp[b] = lab[b];
            }
            for (int c = 0; c < P; c++) {
                for (int b = 0; b < d->n_batches; b++) {
                    size_t k = ((size_t)r * (size_t)P + (size_t)c) * (size_t)d->n_batches + (size_t)b;
                    x[c * d->n_batches + b] = d->sweep_fps[k];
                    y[c * d->n_batches + b] = d->sweep_latency_ms[k];
                }
                s[c].name = d->platforms[c];
                s[c].n = d->n_batches;
                s[c].x = x + c * d->n_batches;
                s[c].y = y + c * d->n_batches;
                s[c].labels = labp;
            }
            char t[256];
            snprintf(t, sizeof t, "%s: latency vs throughput", d->models[r]);
            struct rep_plot pl = {t, "throughput (frames/s, log)", "latency per run (ms, log)", 1, 1, 0};
            sb_puts(sb, "<div class=\"plot\">");
            rep_svg_lines(&pl, s, P, sb, 0);
            sb_puts(sb, "</div>\n");
        }
        free(s), free(x), free(y), free(lab), free(labp);
        sb_puts(sb, "</section>\n");
    }
    if (d->accuracy) {
        tab_open(sb, "accuracy", "Accuracy vs throughput", 0);
        sb_puts(
            sb,
            "<p class=\"muted\">Each point is a model on a platform; the staircase is each platform's pareto "
            "front (no other model there is both faster and more accurate).</p>\n");
        struct rep_series *s = calloc((size_t)(P > 0 ? P : 1), sizeof *s);
        double *x = calloc((size_t)(P * M + 1), sizeof *x);
        double *y = calloc((size_t)(P * M + 1), sizeof *y);
        if (s && x && y) {
            for (int c = 0; c < P; c++) {
                for (int r = 0; r < M; r++) {
                    x[c * M + r] = d->fps[r * P + c];
                    y[c * M + r] = d->accuracy[r];
                }
                s[c].name = d->platforms[c];
                s[c].n = M;
                s[c].x = x + c * M;
                s[c].y = y + c * M;
                s[c].labels = d->models;
            }
            struct rep_plot pl = {"Accuracy vs throughput", "throughput (FPS, log)", "accuracy (%)", 1, 0, 1};
            sb_puts(sb, "<div class=\"plot\">");
            rep_svg_lines(&pl, s, P, sb, 0);
            sb_puts(sb, "</div>\n");
        }
        free(s), free(x), free(y);
        sb_puts(sb, "<table class=\"kv\">\n");
        for (int r = 0; r < M; r++) {
            char b[32];
            if (isfinite(d->accuracy[r]))
                snprintf(b, sizeof b, "%.2f%%", d->accuracy[r]);
            else
                snprintf(b, sizeof b, "not given");
            kv(sb, d->models[r], b);
        }
        sb_puts(sb, "</table>\n</section>\n");
    }
    page_close(sb);
}

/* ---- public entry points ---- */

enum nnperf_status nnperf_plot_svg(const struct nnperf_prediction *p, const char *kind, char **out,
                                   size_t *len, char *err, size_t errlen)
{
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (!p || !kind) {
        if (err && errlen) snprintf(err, errlen, "no prediction or plot kind given");
        return NNPERF_E_USAGE;
    }
    struct strbuf sb;
    sb_init(&sb, (size_t)1 << 30);
    sb_puts(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if (!strcmp(kind, "roofline"))
        rep_svg_roofline(p, &sb, 1);
    else if (!strcmp(kind, "timeline"))
        rep_svg_timeline(p, &sb, 1);
    else if (!strcmp(kind, "memory"))
        rep_svg_memory(p, &sb, 1);
    else {
        sb_free(&sb);
        if (err && errlen) snprintf(err, errlen, "unknown plot '%s' (roofline, timeline or memory)", kind);
        return NNPERF_E_USAGE;
    }
    return rep_finish(&sb, out, len, err, errlen);
}

enum nnperf_status nnperf_compare_render(const struct nnperf_compare_data *d, enum nnperf_format fmt,
                                         char **out, size_t *len, char *err, size_t errlen)
{
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (fmt != NNPERF_FORMAT_HTML) {
        if (err && errlen)
            snprintf(err, errlen, "compare reports are rendered as html only (format %d)", (int)fmt);
        return NNPERF_E_USAGE;
    }
    if (!d || d->n_models < 1 || d->n_platforms < 1 || !d->models || !d->platforms || !d->fps ||
        !d->latency_ms || (d->n_batches > 0 && (!d->batches || !d->sweep_fps || !d->sweep_latency_ms))) {
        if (err && errlen) snprintf(err, errlen, "incomplete compare data");
        return NNPERF_E_USAGE;
    }
    struct strbuf sb;
    sb_init(&sb, (size_t)1 << 30);
    rep_html_compare(d, &sb);
    return rep_finish(&sb, out, len, err, errlen);
}

/* ---- page pieces for reports written elsewhere (src/llm/) ---- */

void rep_html_page_open(struct strbuf *sb, const char *title, const char *sub, const char *const *tab_ids,
                        const char *const *tab_titles, int n_tabs)
{
    struct tabdef t[16];
    int n = n_tabs < 16 ? n_tabs : 16;
    for (int i = 0; i < n; i++) t[i] = (struct tabdef){tab_ids[i], tab_titles[i]};
    page_open(sb, title, sub);
    nav(sb, t, n);
}

void rep_html_tab(struct strbuf *sb, const char *id, const char *h2, int first)
{
    tab_open(sb, id, h2, first);
}

void rep_html_tab_close(struct strbuf *sb)
{
    sb_puts(sb, "</section>\n");
}

void rep_html_card(struct strbuf *sb, const char *k, const char *v)
{
    card(sb, k, v);
}

void rep_html_page_close(struct strbuf *sb)
{
    page_close(sb);
}
