/* html.c - the HTML writer (html.h): page scaffold, CSS, the page script, tabs, cards, tables. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html.h"

static const char css[] =
    "*{box-sizing:border-box}"
    "body{margin:0;font:14px/1.45 'DejaVu Sans',Arial,Helvetica,sans-serif;color:#1d1d1f;background:#f4f5f7}"
    "header{background:#1f2a44;color:#fff;padding:14px 24px 0}"
    "header h1{margin:0;font-size:20px;font-weight:600;overflow-wrap:anywhere}"
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
    "table.kv td:first-child{color:#5b6478;width:280px}table.kv td{overflow-wrap:anywhere}"
    "table.sortable thead th{position:sticky;top:0;background:#eef1f6;cursor:pointer;user-select:none;"
    "white-space:nowrap}"
    "table.sortable thead th .muted{white-space:normal}" /* a column's notes (dtype, expected error) wrap */
    "table.sortable thead th:hover{background:#e0e6f0}"
    "th[aria-sort=ascending]::after{content:' \\25B2';font-size:10px}"
    "th[aria-sort=descending]::after{content:' \\25BC';font-size:10px}"
    "td.name{min-width:160px;max-width:300px;overflow-wrap:anywhere}td.sh{overflow-wrap:anywhere;max-width:"
    "150px}"
    "td.nodes{max-width:220px;overflow-wrap:anywhere}td.nodes details summary{cursor:pointer;color:#33415f}"
    "td.nodes ol{margin:2px 0;padding-left:18px}"
    "tbody tr:hover{background:#f3f7ff}"
    ".tablewrap{max-height:70vh;overflow:auto;border:1px solid #e2e6ee;border-radius:6px}"
    ".tools{display:flex;gap:12px;align-items:center;margin-bottom:8px;flex-wrap:wrap}"
    ".tools input{font:inherit;padding:5px 8px;width:340px;border:1px solid #c5ccd8;border-radius:4px}"
    ".tools button{font:inherit;padding:3px 10px;border:1px solid "
    "#c5ccd8;border-radius:4px;background:#f7f9fc;"
    "cursor:pointer}"
    ".muted{color:#5b6478;font-size:12px}"
    ".b-compute{color:#1f77b4}.b-memory{color:#c0392b}.b-fallback{color:#8e44ad}.b-overhead{color:#7f7f7f}"
    ".warn{background:#fff8e6;border:1px solid #f0d58c;border-radius:6px;padding:8px 12px;margin:8px 0}"
    ".warn ul{margin:4px 0;padding-left:20px}"
    ".plot{overflow-x:auto}svg.plot{max-width:100%;height:auto;display:block}"
    ".tl-scroll{overflow-x:auto;overflow-y:hidden;border:1px solid #e2e6ee;border-radius:6px}"
    ".tl-scroll svg.plot{max-width:none}"
    "@media (max-width:1180px){main{padding:12px 10px 30px}table{font-size:12px}th,td{padding:3px 4px}"
    "td.name{min-width:100px;max-width:170px}td.nodes{max-width:120px}td.sh{max-width:96px}"
    "table.kv td:first-child{width:180px}}"
    "pre{white-space:pre-wrap;font-size:13px}"
    "footer{color:#5b6478;font-size:12px;text-align:center;padding:10px}"
    "@media print{body{background:#fff}header{background:#fff;color:#000}header .sub{color:#333}"
    "nav.tabs,.tools{display:none}section.tab,section.tab[hidden]{display:block;border:0;padding:0;"
    "break-before:page}section.tab:first-of-type{break-before:auto}.tablewrap{max-height:none;overflow:"
    "visible;"
    "border:0}table.sortable thead th{position:static}main{max-width:none;padding:0}}";

/* The page script: tabs (#tab=ID opens one), sorting, filtering, the timeline's zoom and scroll, and the
 * self-test (#selftest). Tick labels of a zoomed timeline are made as svg.c makes them (rs_axis). */
static const char js[] =
    "(function(){'use strict';\n"
    "var errors=[];window.addEventListener('error',function(e){errors.push('error: '+e.message);});\n"
    "document.addEventListener('securitypolicyviolation',function(e){errors.push('blocked: "
    "'+e.blockedURI);});\n"
    "var "
    "each=function(sel,f,root){Array.prototype.forEach.call((root||document).querySelectorAll(sel),f);};\n"
    "var buttons=document.querySelectorAll('nav.tabs button');\n"
    "function show(id){for(var i=0;i<buttons.length;i++){var "
    "b=buttons[i],on=b.getAttribute('data-tab')===id;\n"
    "b.setAttribute('aria-selected',on?'true':'false');"
    "document.getElementById('tab-'+b.getAttribute('data-tab')).hidden=!on;}}\n"
    "for(var i=0;i<buttons.length;i++)buttons[i].addEventListener('click',function(){"
    "show(this.getAttribute('data-tab'));});\n"
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
    "each('table.sortable',function(t){each('th',function(h,c){h.addEventListener('click',function(){\n"
    "var cur=h.getAttribute('aria-sort');sortTable(t,c,cur?cur==='ascending':h.classList.contains('n'));});},"
    "t.tHead.rows[0]);});\n"
    "each('input.filter',function(inp){\n"
    "var t=document.getElementById(inp.getAttribute('data-table')),"
    "cnt=document.getElementById(inp.getAttribute('data-count'));\n"
    "inp.addEventListener('input',function(){var q=inp.value.toLowerCase(),rows=t.tBodies[0].rows,n=0;\n"
    "for(var i=0;i<rows.length;i++){var r=rows[i];if(r._t===undefined)r._t=r.textContent.toLowerCase();\n"
    "var on=r._t.indexOf(q)>=0;r.hidden=!on;if(on)n++;}if(cnt)cnt.textContent=n+' of '+rows.length+' "
    "rows';});});\n";
/* timeline zoom: the data group is scaled in x, tick labels and grid lines are made again for the width */
static const char js_zoom[] =
    "function label(v,step,big){if(Math.abs(v)<step*1e-9)return '0';var p=['','k','M','G','T','P','E'],i=0;\n"
    "while(big>=999.5&&i<6){big/=1000;i++;}var "
    "s=step/Math.pow(1000,i),d=Math.max(0,Math.ceil(-Math.log10(s)-1e-9));"
    "\nreturn (v/Math.pow(1000,i)).toFixed(d)+(p[i]?' '+p[i]:'');}\n"
    "function ticks(g,x0,px,span){while(g.firstChild)g.removeChild(g.firstChild);\n"
    "var n=Math.max(2,Math.min(400,Math.floor(px/90)));var "
    "raw=span/(n-1),mag=Math.pow(10,Math.floor(Math.log10(raw)));"
    "\nvar "
    "f=raw/"
    "mag,step=(f<=1?1:f<=2?2:f<=5?5:10)*mag,y=+g.getAttribute('data-y'),g0=+g.getAttribute('data-g0');\n"
    "for(var k=0;k*step<=span*(1+1e-9);k++){var "
    "x=x0+px*k*step/span,l=document.createElementNS(g.namespaceURI,'line');\n"
    "l.setAttribute('x1',x);l.setAttribute('x2',x);l.setAttribute('y1',g0);l.setAttribute('y2',y);"
    "l.setAttribute('stroke','#e3e3e3');g.appendChild(l);\n"
    "var t=document.createElementNS(g.namespaceURI,'text');t.setAttribute('x',x);t.setAttribute('y',y+15);"
    "t.setAttribute('font-size','11');t.setAttribute('text-anchor','middle');t.setAttribute('class','tick');"
    "\n"
    "t.textContent=label(k*step,step,span);g.appendChild(t);}}\n"
    "each('.tl',function(w){var svg=w.querySelector('svg.timeline'),sc=w.querySelector('.tl-scroll'),"
    "geo=svg.querySelector('g.tl-geometry');\n"
    "var x0=+geo.getAttribute('data-x0'),x1=+geo.getAttribute('data-x1'),W=+svg.getAttribute('width'),"
    "H=+svg.getAttribute('height'),span=+geo.getAttribute('data-span'),zmax=+geo.getAttribute('data-zmax'),z="
    "1;\n"
    "var fixed=svg.querySelector('g.tl-fixed');\n"
    "function zoom(nz,at){nz=Math.max(1,Math.min(zmax,nz));if(nz===z)return;var "
    "keep=at===undefined?sc.clientWidth/2:at;\n"
    "var t=(sc.scrollLeft+keep-x0)/((x1-x0)*z);z=nz;var w2=W+(x1-x0)*(z-1);svg.setAttribute('width',w2);\n"
    "svg.setAttribute('viewBox','0 0 '+w2+' '+H);\n"
    "each('g.tl-zoom',function(g){g.setAttribute('transform','translate('+x0+',0) scale('+z+',1) "
    "translate('+(-x0)+',0)');},svg);\n"
    "each('g.tl-ticks',function(g){ticks(g,x0,(x1-x0)*z,span);},svg);\n"
    "sc.scrollLeft=Math.max(0,x0+t*(x1-x0)*z-keep);place();w.setAttribute('data-zoom',z);}\n"
    "function place(){fixed.setAttribute('transform','translate('+sc.scrollLeft+',0)');}\n"
    "sc.addEventListener('scroll',place);\n"
    "sc.addEventListener('wheel',function(e){if(!e.ctrlKey)return;e.preventDefault();\n"
    "var r=sc.getBoundingClientRect();zoom(e.deltaY<0?z*1.5:z/1.5,e.clientX-r.left);},{passive:false});\n"
    "each('button[data-zoom]',function(b){b.addEventListener('click',function(){var "
    "f=+b.getAttribute('data-zoom');"
    "zoom(f>0?z*f:1);});},w);\n"
    "w._zoom=zoom;});\n";
static const char js_selftest[] =
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

void rh_page_open(struct strbuf *sb, const char *title, const char *sub)
{
    sb_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
                "'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
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

void rh_nav(struct strbuf *sb, const struct rep_tab *t, int n)
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

void rh_tab_open(struct strbuf *sb, const char *id, const char *h2, int first)
{
    sb_puts(sb, "<section class=\"tab\" role=\"tabpanel\" id=\"tab-");
    rep_esc(sb, id);
    sb_printf(sb, "\"%s>\n<h2>", first ? "" : " hidden");
    rep_esc(sb, h2);
    sb_puts(sb, "</h2>\n");
}

void rh_tab_close(struct strbuf *sb)
{
    sb_puts(sb, "</section>\n");
}

void rh_page_close(struct strbuf *sb)
{
    sb_puts(sb,
            "</main>\n<footer>nnperf " NNPERF_VERSION
            " &middot; predictions are estimates from a platform model, not measurements</footer>\n<script>");
    sb_puts(sb, js);
    sb_puts(sb, js_zoom);
    sb_puts(sb, js_selftest);
    sb_puts(sb, "</script>\n</body>\n</html>\n");
}

void rh_cards_open(struct strbuf *sb)
{
    sb_puts(sb, "<div class=\"cards\">\n");
}

void rh_card(struct strbuf *sb, const char *k, const char *v)
{
    sb_puts(sb, "<div class=\"card\"><div class=\"k\">");
    rep_esc(sb, k);
    sb_puts(sb, "</div><div class=\"v\">");
    rep_esc(sb, v);
    sb_puts(sb, "</div></div>\n");
}

void rh_cards_close(struct strbuf *sb)
{
    sb_puts(sb, "</div>\n");
}

void rh_kv_open(struct strbuf *sb)
{
    sb_puts(sb, "<table class=\"kv\">\n");
}

void rh_kv(struct strbuf *sb, const char *k, const char *v)
{
    sb_puts(sb, "<tr><td>");
    rep_esc(sb, k);
    sb_puts(sb, "</td><td>");
    rep_esc(sb, v);
    sb_puts(sb, "</td></tr>\n");
}

void rh_kv_close(struct strbuf *sb)
{
    sb_puts(sb, "</table>\n");
}

void rh_note(struct strbuf *sb, const char *cls, const char *attrs, const char *text)
{
    sb_printf(sb, "<p class=\"muted%s%s\"%s%s>", cls ? " " : "", cls ? cls : "", attrs ? " " : "",
              attrs ? attrs : "");
    rep_esc(sb, text);
    sb_puts(sb, "</p>\n");
}

void rh_table_open(struct strbuf *sb, const char *id, const char *what, int n_rows, const struct rep_hcol *c,
                   int nc, int sorted_col)
{
    sb_printf(
        sb,
        "<div class=\"tools\"><input type=\"search\" class=\"filter\" data-table=\"%s\" "
        "data-count=\"%s-count\" placeholder=\"filter %s: name, op, class, bound\" aria-label=\"filter %s\">"
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

void rh_table_close(struct strbuf *sb)
{
    sb_puts(sb, "</tbody></table></div>\n");
}

void rh_td_num(struct strbuf *sb, const char *shown, double key)
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

void rh_td_text(struct strbuf *sb, const char *cls, const char *s)
{
    if (cls)
        sb_printf(sb, "<td class=\"%s\">", cls);
    else
        sb_puts(sb, "<td>");
    rep_esc(sb, s);
    sb_puts(sb, "</td>");
}

static void items(struct strbuf *sb, const char *const *w, int from, int to)
{
    sb_puts(sb, "<ul>");
    for (int i = from; i < to; i++) {
        sb_puts(sb, "<li>");
        rep_esc(sb, w[i]);
        sb_puts(sb, "</li>");
    }
    sb_puts(sb, "</ul>");
}

void rh_warnings(struct strbuf *sb, const char *head, const char *const *w, int n)
{
    if (n <= 0) return;
    sb_puts(sb, "<div class=\"warn\"><b>");
    rep_esc(sb, head);
    sb_printf(sb, " (%d)</b>", n);
    int limit = n > 12 ? 10 : n;
    items(sb, w, 0, limit);
    if (limit < n) {
        sb_printf(sb, "<details><summary>%d more</summary>", n - limit);
        items(sb, w, limit, n);
        sb_puts(sb, "</details>");
    }
    sb_puts(sb, "</div>\n");
}
