/* test_report.c - the report module: the formatting leaf (SI units with a space, exact numbers, tick labels, CSV
 * fields), the JSON writer, the text table's fitting to a width, and the render options of the public API on real
 * models (width, --top, --summary, --all), the busy periods of the lanes against the layers' times, and the sweep
 * builder. */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnperf.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/svg.h"
#include "report/table.h"
#include "report/view.h"
#include "tinytest.h"

static void si(double x, const char *unit, const char *want)
{
    char b[48];
    rep_si(b, sizeof b, x, unit);
    CHECK_STR(b, want);
}

static void test_fmt(void)
{
    si(2.5712e7, "B", "25.7 MB");
    si(2.376e8, "", "238 M");
    si(2.0512e10, "B/s", "20.5 GB/s");
    si(0.5, "", "0.5");
    si(512, "B", "512 B");
    si(4e9, "", "4 G");
    si(999.4, "", "999");
    si(999.6, "", "1 k");
    si(0, "B", "0 B");
    si(-1500, "", "-1.5 k");
    si(2.5e-6, "s", "2.5 us");
    si(NAN, "B", "? B");
    char b[64];
    rep_time(b, sizeof b, 1.348e-3);
    CHECK_STR(b, "1.348 ms");
    rep_time(b, sizeof b, 8.8e-6);
    CHECK_STR(b, "8.8 us");
    rep_pct(b, sizeof b, 0.0482);
    CHECK_STR(b, "4.8%");
    rep_count(b, sizeof b, 9057);
    CHECK_STR(b, "9,057");
    rep_count(b, sizeof b, -1234567);
    CHECK_STR(b, "-1,234,567");
    /* exact numbers read back as the same double; integers without a fraction; no -0 */
    double xs[] = {0.1, 1.0 / 3, 88.92277794336812, 9765236985.207815, 1e300, 5e-324, 123456789012345.0};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        core_exact(b, sizeof b, xs[i]);
        CHECK(strtod(b, NULL) == xs[i]);
    }
    core_exact(b, sizeof b, 0.1);
    CHECK_STR(b, "0.1");
    core_exact(b, sizeof b, 302055424);
    CHECK_STR(b, "302055424");
    core_exact(b, sizeof b, -0.0);
    CHECK_STR(b, "0");
    core_exact(b, sizeof b, INFINITY);
    CHECK_STR(b, "null");
    /* tick labels of one axis share a prefix and the step's decimals */
    rep_tick(b, sizeof b, 1.0, 0.5, 2.0);
    CHECK_STR(b, "1.0");
    rep_tick(b, sizeof b, 1.5, 0.5, 2.0);
    CHECK_STR(b, "1.5");
    rep_tick(b, sizeof b, 0, 0.5, 2.0);
    CHECK_STR(b, "0");
    rep_tick(b, sizeof b, 250e3, 50e3, 500e3);
    CHECK_STR(b, "250 k");
    rep_tick(b, sizeof b, 250e3, 50e3, 1e6); /* the axis reaches 1 M: every label in M */
    CHECK_STR(b, "0.25 M");
    rep_tick(b, sizeof b, 1.234, 0.002, 1.3);
    CHECK_STR(b, "1.234");
    /* CSV fields (RFC 4180) */
    struct strbuf sb;
    sb_init(&sb, 1 << 16);
    rep_csv_str(&sb, "plain");
    sb_putc(&sb, '|');
    rep_csv_str(&sb, "a,b");
    sb_putc(&sb, '|');
    rep_csv_str(&sb, "say \"hi\"");
    sb_putc(&sb, '|');
    rep_csv_str(&sb, "two\nlines, \033[2J");
    sb_putc(&sb, '|');
    rep_csv_str(&sb, "no\tquote");
    /* control characters are written as text (\x0a, \x1b): CSV is printed to terminals too */
    CHECK_STR(sb.p, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\\x0alines, \\x1b[2J\"|no\\x09quote");
    sb_free(&sb);
    /* HTML escaping */
    sb_init(&sb, 1 << 16);
    rep_esc(&sb, "<a href='x'>&\"\x01");
    CHECK_STR(sb.p, "&lt;a href=&#39;x&#39;&gt;&amp;&quot; ");
    sb_free(&sb);
}

static void test_json(void)
{
    struct strbuf sb;
    sb_init(&sb, 1 << 16);
    struct rep_json j;
    rj_init(&j, &sb);
    rj_obj(&j, NULL, 1);
    rj_header(&j, "nnperf.test", 3);
    rj_arr(&j, "rows", 1);
    rj_obj(&j, NULL, 0);
    rj_num(&j, "x", 0.25);
    rj_null(&j, "y");
    rj_str(&j, "s", "q\"\n");
    rj_end(&j);
    rj_obj(&j, NULL, 0);
    rj_bool(&j, "b", 1);
    rj_uint(&j, "u", 18446744073709551615ull);
    rj_num(&j, "nan", NAN);
    rj_end(&j);
    rj_end(&j);
    rj_arr(&j, "empty", 0);
    rj_end(&j);
    rj_end(&j);
    CHECK_STR(sb.p,
              "{\n\"schema\":\"nnperf.test\",\n\"schema_version\":3,\n\"nnperf_version\":\"" NNPERF_VERSION
              "\",\n\"rows\":[\n{\"x\":0.25,\"y\":null,\"s\":\"q\\\"\\n\"},\n{\"b\":true,\"u\":"
              "18446744073709551615,\"nan\":null}\n],\n\"empty\":[]\n}\n");
    sb_free(&sb);
}

/* the longest line of s */
static int longest_line(const char *s)
{
    int best = 0, cur = 0;
    for (; *s; s++) {
        if (*s == '\n') {
            if (cur > best) best = cur;
            cur = 0;
        } else {
            cur++;
        }
    }
    return cur > best ? cur : best;
}

static void test_table(void)
{
    static const struct rep_col cols[] = {
        {"name", 0, 0, 30, 8}, {"wide", 0, 2, 0, 0}, {"wider", 0, 1, 0, 0}, {"time", 1, 0, 0, 0}};
    struct rep_table t;
    rt_init(&t, cols, 4);
    const char *r1[4] = {"/a/very/long/layer/name/that/goes/on/Conv+2", "xxxxxxxxxxxxxxxxxxxx",
                         "yyyyyyyyyyyyyyyyyyyyyyyyy", "1.5 ms"};
    const char *r2[4] = {"short", "x", "y", "12.0 us"};
    rt_row(&t, r1);
    rt_row(&t, r2);
    struct strbuf sb;
    int dropped;
    for (int w = 0; w <= 120; w += 20) {
        sb_init(&sb, 1 << 16);
        rt_write(&t, w, 0, &sb, &dropped);
        if (w >= 30) CHECK(longest_line(sb.p) <= w || w == 0);
        CHECK(strstr(sb.p, "time") != NULL);                       /* never dropped */
        CHECK(strstr(sb.p, "12.0 us") != NULL);                    /* nor its values */
        if (w == 40) CHECK(dropped == 2 && !strstr(sb.p, "wide")); /* the highest ranks go first */
        if (w == 60) CHECK(dropped == 1 && strstr(sb.p, "wider") && !strstr(sb.p, "xxx"));
        if (w == 0 || w == 120) CHECK(dropped == 0 && strstr(sb.p, "Conv+2"));
        if (w == 40) CHECK(strstr(sb.p, "..") != NULL && strstr(sb.p, "Conv+2")); /* cut from the left */
        sb_free(&sb);
    }
    rt_free(&t);
    sb_init(&sb, 1 << 16);
    rt_wrap_indent(&sb, "one two three four five six seven eight nine ten eleven twelve", 30, 4);
    CHECK(longest_line(sb.p) <= 30);
    CHECK(strstr(sb.p, "\n    ") != NULL);
    sb_free(&sb);
}

static char *render_pred(const struct nnperf_prediction *p, const struct nnperf_render_options *o)
{
    char *out = NULL, err[256];
    size_t len;
    CHECK(nnperf_prediction_render_opts(p, NNPERF_FORMAT_TABLE, o, &out, &len, err, sizeof err) == NNPERF_OK);
    return out;
}

static int count_lines_with(const char *s, const char *word)
{
    int n = 0;
    for (const char *l = s; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), l);
        n += strstr(line, word) != NULL;
        l = nl ? nl + 1 : NULL;
    }
    return n;
}

static void test_options(void)
{
    char err[512];
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    struct nnperf_platform *hw;
    struct nnperf_prediction *p;
    if (nnperf_model_load("models/resnet50.onnx", NULL, &m, err, sizeof err) ||
        nnperf_analyze(m, NULL, &a, err, sizeof err) ||
        nnperf_platform_load("horizon-j5", &hw, err, sizeof err) ||
        nnperf_predict(a, hw, NULL, &p, err, sizeof err)) {
        fprintf(stderr, "setup: %s\n", err);
        CHECK(0);
        return;
    }
    /* width: the layer table keeps time, bound and share and fits */
    for (int w = 60; w <= 160; w += 50) {
        struct nnperf_render_options o = {.width = w};
        char *s = render_pred(p, &o);
        const char *table = s ? strstr(s, "\n # layer") : NULL;
        CHECK(table != NULL);
        if (!table) continue;
        const char *end = strstr(table + 1, "\n\n");
        char head[512];
        snprintf(head, sizeof head, "%.*s", (int)(strchr(table + 1, '\n') - table - 1), table + 1);
        CHECK(strstr(head, "time") && strstr(head, "bound") && strstr(head, "share"));
        char *sect = strndup(table + 1, end ? (size_t)(end - table - 1) : strlen(table + 1));
        CHECK(sect && longest_line(sect) <= w);
        free(sect);
        free(s);
    }
    /* top: the N heaviest layers, heaviest first */
    struct nnperf_render_options top = {.top = 5};
    char *s = render_pred(p, &top);
    CHECK(s && strstr(s, "The 5 heaviest of 56 shown layers"));
    int layers = nnperf_prediction_layer_count(p), rows = 0;
    double last = HUGE_VAL;
    const char *t = s ? strstr(s, "\n # layer") : NULL;
    for (const char *l = t ? strchr(t + 1, '\n') + 1 : NULL;
         l && isdigit((unsigned char)l[0 + (l[0] == ' ')]);
         l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        int idx = atoi(l);
        struct nnperf_layer_info li;
        CHECK(idx >= 0 && idx < layers);
        nnperf_prediction_layer(p, idx, &li);
        CHECK(li.t_total <= last);
        last = li.t_total;
        rows++;
    }
    CHECK_EQ_U(rows, 5);
    free(s);
    /* summary only: no layer table, no node table, still the summary */
    struct nnperf_render_options sum = {.summary_only = 1};
    s = render_pred(p, &sum);
    CHECK(s && !strstr(s, " # layer") && !strstr(s, "# node") && strstr(s, "latency") && strstr(s, "total:"));
    free(s);
    /* all: the layer that does no work (Flatten) appears only with all */
    struct nnperf_render_options none = {0}, all = {.all = 1};
    s = render_pred(p, &none);
    t = s ? strstr(s, "\n # layer") : NULL;
    CHECK(t && count_lines_with(t, "/Flatten ") == 0 && strstr(t, "--all shows them"));
    free(s);
    s = render_pred(p, &all);
    t = s ? strstr(s, "\n # layer") : NULL;
    CHECK(t && count_lines_with(t, "/Flatten ") == 1);
    free(s);

    /* lanes: every layer's busy periods lie in the run, on one unit, and their compute, load and store parts add up
     * to the layer's time parts (scaled to the time the layer keeps the unit busy) */
    double slot = 0;
    for (int i = 0; i < layers; i++) {
        struct nnperf_layer_info li;
        struct nnperf_layer_detail d;
        struct nnperf_busy b[8];
        nnperf_prediction_layer(p, i, &li);
        nnperf_prediction_layer_detail(p, i, &d);
        int n = nnperf_prediction_layer_busy(p, i, b, 8);
        CHECK(n >= 0 && n <= 8);
        double comp = 0, mem = 0, lo = HUGE_VAL, hi = -HUGE_VAL;
        for (int k = 0; k < n; k++) {
            CHECK(b[k].end >= b[k].start && b[k].start >= slot - 1e-12);
            CHECK(b[k].unit == (li.fallback ? 1 : 0));
            if (b[k].lane == NNPERF_LANE_COMPUTE) comp += b[k].end - b[k].start;
            if (b[k].lane == NNPERF_LANE_LOAD || b[k].lane == NNPERF_LANE_STORE) mem += b[k].end - b[k].start;
            if (b[k].start < lo) lo = b[k].start;
            if (b[k].end > hi) hi = b[k].end;
        }
        if (n) CHECK(hi - lo <= li.t_total * (1 + 1e-9) + 1e-15);
        if (li.t_total > 0 && n) CHECK(comp <= li.t_total * (1 + 1e-9) && mem <= li.t_total * (1 + 1e-9));
        if (li.t_total > 0 && li.t_compute + li.t_memory + d.t_overhead + d.t_transfer > 0) CHECK(n > 0);
        slot += li.t_total;
    }
    /* fused nodes: a layer named X+N has N + 1 nodes, the first named X */
    for (int i = 0; i < layers; i++) {
        struct nnperf_layer_info li;
        nnperf_prediction_layer(p, i, &li);
        const char *plus = strrchr(li.name, '+');
        const char *first = nnperf_prediction_layer_node(p, i, 0, NULL);
        CHECK(first != NULL && nnperf_prediction_layer_node(p, i, li.nodes, NULL) == NULL);
        if (plus && li.nodes > 1) {
            CHECK(atoi(plus + 1) == li.nodes - 1);
            CHECK(first && !strncmp(li.name, first, (size_t)(plus - li.name)));
        }
    }

    /* the sweep keeps what it needs: the prediction is freed before the sweep is rendered */
    struct nnperf_sweep *sw;
    CHECK(nnperf_sweep_new("resnet50.onnx", &sw, err, sizeof err) == NNPERF_OK);
    for (int b = 1; b <= 2; b++) {
        struct nnperf_predict_options po = {.batch = b};
        struct nnperf_prediction *q;
        CHECK(nnperf_predict(a, hw, &po, &q, err, sizeof err) == NNPERF_OK);
        CHECK(nnperf_sweep_add(sw, q, b == 2 ? "a,b" : NULL, err, sizeof err) == NNPERF_OK);
        nnperf_prediction_free(q);
    }
    CHECK_EQ_U(nnperf_sweep_count(sw), 2);
    char *csv = NULL;
    size_t len;
    CHECK(nnperf_sweep_render(sw, NNPERF_FORMAT_CSV, NULL, &csv, &len, err, sizeof err) == NNPERF_OK);
    CHECK(csv && strstr(csv, "horizon-j5,int8,1,") && strstr(csv, "horizon-j5,int8,2,") &&
          strstr(csv, ",\"a,b\"\n"));
    free(csv);
    CHECK(nnperf_sweep_render(sw, NNPERF_FORMAT_HTML, NULL, &csv, &len, err, sizeof err) == NNPERF_E_USAGE);
    nnperf_sweep_free(sw);

    /* roofline: every layer with time; html is refused with a reason */
    char *rf = NULL;
    CHECK(nnperf_roofline_render(p, NNPERF_FORMAT_CSV, NULL, &rf, &len, err, sizeof err) == NNPERF_OK);
    free(rf);
    CHECK(nnperf_roofline_render(p, NNPERF_FORMAT_HTML, NULL, &rf, &len, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(strstr(err, "roofline") != NULL);

    nnperf_prediction_free(p);
    nnperf_platform_free(hw);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* Constant nodes are folded out of the analysis table unless all is set */
static void test_constants(void)
{
    char err[512];
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    if (nnperf_model_load("models/swin_t.onnx", NULL, &m, err, sizeof err) ||
        nnperf_analyze(m, NULL, &a, err, sizeof err)) {
        fprintf(stderr, "setup: %s\n", err);
        CHECK(0);
        return;
    }
    char *s = NULL, *t = NULL;
    size_t len;
    struct nnperf_render_options none = {0}, all = {.all = 1}, top = {.top = 10};
    CHECK(nnperf_analysis_render_opts(a, NNPERF_FORMAT_TABLE, &none, &s, &len, err, sizeof err) == NNPERF_OK);
    CHECK(nnperf_analysis_render_opts(a, NNPERF_FORMAT_TABLE, &all, &t, &len, err, sizeof err) == NNPERF_OK);
    /* node rows: the op column holds "Constant" (the note about them says "Constant nodes") */
    int c_none = count_lines_with(s, " Constant ") - count_lines_with(s, "Constant nodes"),
        c_all = count_lines_with(t, " Constant ") - count_lines_with(t, "Constant nodes");
    CHECK(c_none == 0 && c_all > 2000);
    CHECK(strstr(s, "Constant nodes are not shown") != NULL);
    free(s), free(t);
    CHECK(nnperf_analysis_render_opts(a, NNPERF_FORMAT_TABLE, &top, &s, &len, err, sizeof err) == NNPERF_OK);
    CHECK(s && strstr(s, "The 10 nodes with the most FLOPs"));
    free(s);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* the why block: shares by bound sum to 1, the seconds to the run (or the summed layers when larger), and the top
 * layers are the three longest shown ones (found here by a plain scan, not the view's sort) */
/* layer i of the view, read on demand (two reads may be compared in one expression) */
static const struct rep_layer *lay(const struct rep_view *v, int i)
{
    static struct rep_layer rows[2];
    static int k;
    k ^= 1;
    return rep_view_layer(v, i, &rows[k]);
}

static void test_why(const char *model, const char *platform)
{
    char err[512];
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    struct nnperf_platform *hw;
    struct nnperf_prediction *p;
    if (nnperf_model_load(model, NULL, &m, err, sizeof err) || nnperf_analyze(m, NULL, &a, err, sizeof err) ||
        nnperf_platform_load(platform, &hw, err, sizeof err) ||
        nnperf_predict(a, hw, NULL, &p, err, sizeof err)) {
        fprintf(stderr, "setup: %s\n", err);
        CHECK(0);
        return;
    }
    struct rep_view v;
    CHECK(rep_view_init(&v, p, model) == 0);
    double sum = 0, t = 0, layers = 0;
    for (int k = 0; k < REP_N_BOUNDS; k++) sum += v.why.share[k], t += v.why.t[k];
    for (int i = 0; i < v.n; i++) layers += lay(&v, i)->li.t_total;
    CHECK(fabs(sum - 1) < 1e-9);
    CHECK(fabs(t - v.why.total) <= 1e-9 * v.why.total);
    CHECK(fabs(v.why.total - fmax(layers, v.s.latency_s)) <= 1e-9 * v.why.total);
    CHECK(v.why.n_top == 3);
    /* the view's order of the shown layers: longest first, equal times by index; each read as the accessors say */
    for (int k = 0; k < v.n_shown; k++) {
        struct rep_layer row;
        struct nnperf_layer_info li;
        const struct rep_layer *L = rep_view_layer(&v, v.by_time[k], &row);
        nnperf_prediction_layer(p, v.by_time[k], &li);
        CHECK(L->shown && L->index == v.by_time[k] && L->li.t_total == li.t_total &&
              !strcmp(L->li.name, li.name));
        if (k) {
            double prev = lay(&v, v.by_time[k - 1])->li.t_total;
            CHECK(prev > L->li.t_total || (prev == L->li.t_total && v.by_time[k - 1] < v.by_time[k]));
        }
    }
    int used[3] = {-1, -1, -1};
    for (int r = 0; r < 3; r++) {
        int best = -1;
        for (int i = 0; i < v.n; i++) {
            if (!lay(&v, i)->shown || i == used[0] || i == used[1]) continue;
            if (best < 0 || lay(&v, i)->li.t_total > lay(&v, best)->li.t_total) best = i;
        }
        used[r] = best;
        /* ties may order differently: compare times */
        CHECK(best >= 0 && lay(&v, v.why.top[r])->li.t_total == lay(&v, best)->li.t_total);
    }
    /* nnperf_prediction_bound_layers counts what the per-layer accessor says */
    static const char *const bounds[] = {"compute", "memory", "overhead", "unknown", "mem", "fallback"};
    int counted = 0;
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
        int n = 0;
        for (int i = 0; i < v.n; i++) n += !strcmp(lay(&v, i)->li.bound, bounds[b]);
        CHECK(nnperf_prediction_bound_layers(p, bounds[b]) == n);
        counted += n;
    }
    CHECK(counted == v.n);
    CHECK(nnperf_prediction_bound_layers(p, NULL) == 0 &&
          nnperf_prediction_bound_layers(NULL, "memory") == 0);
    rep_view_free(&v);
    nnperf_prediction_free(p);
    nnperf_platform_free(hw);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* core_exact's text is the first of "%.15g", "%.16g", "%.17g" that reads back as x (its definition, computed here
 * with printf and strtod) for doubles of every kind its integer-arithmetic way covers and the edges of that way:
 * random bit patterns, short decimals, quotients, powers of two and their neighbours (where the gap below halves),
 * dyadic fractions whose 18th digit is a tie. */
static uint64_t xs_state = 0x9e3779b97f4a7c15ull;
static uint64_t xs_next(void)
{
    xs_state ^= xs_state << 13;
    xs_state ^= xs_state >> 7;
    xs_state ^= xs_state << 17;
    return xs_state;
}

static int exact_bad;
static void exact_same(double x)
{
    char got[40], want[64];
    size_t n = core_exact(got, sizeof got, x);
    if (isfinite(x) && x == floor(x) &&
        fabs(x) < 9007199254740992.0) /* integers below 2^53: "%lld" (-0.0: "0") */
        snprintf(want, sizeof want, "%lld", (long long)x);
    else if (!isfinite(x))
        strcpy(want, "null");
    else
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(want, sizeof want, "%.*g", prec, x);
            if (strtod(want, NULL) == x) break;
        }
    if ((strcmp(got, want) || n != strlen(got)) && exact_bad++ < 10)
        fprintf(stderr, "core_exact(%a): \"%s\" (length %zu), printf: \"%s\"\n", x, got, n, want);
}

static void test_exact(void)
{
    for (int i = 0; i < 40000; i++) { /* random bits with binary exponents from 2^-24 to 2^56 */
        uint64_t r = xs_next(), bits = (r & ((1ull << 52) - 1)) | (uint64_t)(1023 - 24 + (int)(r >> 52) % 81)
                                                                      << 52;
        double x;
        memcpy(&x, &bits, sizeof x);
        exact_same(x);
        exact_same(-x);
    }
    for (int i = 0; i < 20000; i++) { /* anywhere, subnormals and huge values included */
        uint64_t bits = xs_next();
        double x;
        memcpy(&x, &bits, sizeof x);
        exact_same(x);
    }
    for (int i = 0; i < 40000; i++) { /* short decimals and quotients, as reports hold */
        uint64_t r = xs_next();
        exact_same((double)(r % 100000) / pow(10, (double)((r >> 40) % 12)));
        exact_same((double)(r % 1000003 + 1) / (double)((r >> 24) % 9973 + 1));
        exact_same((double)(r >> 11) / 9007199254740992.0 * pow(10, (double)((r >> 3) % 22) - 6));
    }
    for (int e = -24; e <= 54; e++) { /* powers of two, their neighbours, ties at the 18th digit */
        exact_same(nextafter(ldexp(1, e), 0));
        for (int k = -3; k <= 3; k++) {
            exact_same(ldexp(1, e) + ldexp(k, e - 52));
            exact_same(ldexp(1, e) * (1 + ldexp(1, -17 - k)));
        }
    }
    for (int j = 1; j < 5000; j++) exact_same((double)j / 131072);
    /* integers (every length of digits, 2^53 and its neighbours, where the hand-written digits stop), zeros and
     * the values that are not finite */
    for (double p = 1; p < 1e19; p *= 10)
        for (int k = -2; k <= 2; k++) {
            exact_same(p + k);
            exact_same(-(p + k));
        }
    for (int k = -3; k <= 3; k++)
        exact_same(9007199254740992.0 + 2 * k), exact_same(-9007199254740992.0 + 2 * k);
    for (int i = 0; i < 20000; i++) {
        uint64_t r = xs_next();
        exact_same((double)(int64_t)(r >> (r % 64)));
    }
    exact_same(0.0);
    exact_same(-0.0);
    exact_same(INFINITY);
    exact_same(-INFINITY);
    exact_same(NAN);
    exact_same(DBL_MAX);
    exact_same(DBL_MIN);
    exact_same(DBL_TRUE_MIN);
    CHECK(exact_bad == 0);
}

int main(void)
{
    test_why("models/resnet50.onnx", "horizon-j5");
    test_why("tests/data/predict/shortcut.onnx", "zcu102-dpu");
    test_fmt();
    test_exact();
    test_json();
    test_table();
    test_options();
    test_constants();
    return tt_done();
}
