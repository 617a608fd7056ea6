/* view.c - the reports' view of a prediction (view.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/* layer a before layer b (< 0) when it takes longer; equal times in index order */
static int cmp_time(const double *t, int a, int b)
{
    if (t[a] != t[b]) return t[a] < t[b] ? 1 : -1;
    return a - b;
}

/* a stable merge sort of layer indices by time t[], longest first (qsort_r is not in C11) */
static void sort_idx(int *v, int *tmp, int n, const double *t)
{
    if (n < 2) return;
    int h = n / 2;
    sort_idx(v, tmp, h, t);
    sort_idx(v + h, tmp, n - h, t);
    int i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = cmp_time(t, v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, (size_t)n * sizeof *v);
}

const char *const rep_bound_names[REP_N_BOUNDS] = {"compute", "memory", "overhead", "fallback", "unknown"};
const char *const rep_memory_names[3] = {"ddr", "sram", "link"};
const char *const rep_memory_labels[3] = {"DDR", "SRAM", "link"};

int rep_layer_memory(const struct rep_layer *L)
{
    for (int m = 1; m < 3; m++)
        if (L->d.memory && !strcmp(L->d.memory, rep_memory_names[m])) return m;
    return 0;
}

/* the index of rep_layer_bound(L) in rep_bound_names (an unlisted bound counts as "unknown") */
static int bound_index(const struct rep_layer *L)
{
    const char *b = rep_layer_bound(L);
    int k = 0;
    while (k < REP_N_BOUNDS - 1 && strcmp(b ? b : "", rep_bound_names[k])) k++;
    return k;
}

static const char *bound_label(int k)
{
    static const char *const lab[REP_N_BOUNDS] = {"compute-bound", "memory-bound", "overhead",
                                                  "on the fallback unit", "of unknown bound"};
    return lab[k];
}

/* the library's why (nnperf_prediction_why, which annotate --costs writes too), its shares and the advice rules */
static void why_init(struct rep_view *v)
{
    struct rep_why *w = &v->why;
    struct nnperf_why y;
    nnperf_prediction_why(v->p, &y);
    for (int k = 0; k < REP_N_BOUNDS; k++) w->t[k] = y.t[k];
    for (int m = 0; m < 3; m++) w->mem_t[m] = y.memory_t[m];
    w->total = y.total;
    w->outside = y.outside;
    for (int k = 0; k < REP_N_BOUNDS; k++) w->share[k] = w->total > 0 ? w->t[k] / w->total : 0;
    for (int i = 0; i < y.n_top; i++) {
        w->rule[i] = nnperf_advice_rule_for_layer(v->p, y.top[i]);
        w->top[w->n_top++] = y.top[i];
    }
}

int rep_view_init(struct rep_view *v, const struct nnperf_prediction *p, const char *model)
{
    memset(v, 0, sizeof *v);
    v->p = p;
    v->model = model ? model : "";
    v->a = nnperf_prediction_analysis(p);
    nnperf_prediction_summary(p, &v->s);
    nnperf_prediction_setup(p, &v->su);
    v->n = nnperf_prediction_layer_count(p);
    size_t n = (size_t)(v->n > 0 ? v->n : 1);
    v->shown = calloc(n, sizeof *v->shown);
    v->by_time = calloc(n, sizeof *v->by_time);
    int *tmp = calloc(n, sizeof *tmp);
    double *t = calloc(n, sizeof *t); /* the layers' times, while sorting */
    v->warn = calloc((size_t)(v->s.warnings > 0 ? v->s.warnings : 1), sizeof *v->warn);
    if (!v->shown || !v->by_time || !tmp || !t || !v->warn) {
        free(tmp);
        free(t);
        rep_view_free(v);
        return NNPERF_E_NOMEM;
    }
    for (int i = 0; i < v->s.warnings; i++) v->warn[i] = nnperf_prediction_warning(p, i);
    for (int i = 0; i < v->n; i++) {
        struct nnperf_layer_info li;
        struct nnperf_layer_detail d = {.cost_known =
                                            1}; /* every layer's when the summary counts none unknown */
        nnperf_prediction_layer(p, i, &li);
        if (v->s.unknown_layers) nnperf_prediction_layer_detail(p, i, &d);
        t[i] = li.t_total;
        v->shown[i] = li.t_total > 0 || li.ops > 0 || !d.cost_known;
        if (!v->shown[i]) {
            v->n_hidden++;
            continue;
        }
        if (!d.cost_known) v->n_unknown++;
        v->by_time[v->n_shown++] = i;
    }
    sort_idx(v->by_time, tmp, v->n_shown, t);
    free(tmp);
    free(t);
    why_init(v);
    return 0;
}

const struct rep_layer *rep_view_layer(const struct rep_view *v, int i, struct rep_layer *L)
{
    L->index = i;
    nnperf_prediction_layer(v->p, i, &L->li);
    nnperf_prediction_layer_detail(v->p, i, &L->d);
    L->shown = i >= 0 && i < v->n && v->shown[i];
    L->share = v->s.latency_s > 0 ? L->li.t_total / v->s.latency_s : 0;
    return L;
}

void rep_view_free(struct rep_view *v)
{
    free(v->shown);
    free(v->by_time);
    free(v->warn);
    v->shown = NULL, v->by_time = NULL, v->warn = NULL;
}

void rep_view_hidden_note(const struct rep_view *v, struct strbuf *sb)
{
    if (!v->n_hidden) return;
    /* the hidden layers' operators, most frequent first (at most six named) */
    const char *ops[6];
    int cnt[6], k = 0, other = 0;
    for (int i = 0; i < v->n; i++) {
        if (v->shown[i]) continue;
        struct nnperf_layer_info li;
        nnperf_prediction_layer(v->p, i, &li);
        const char *op = li.op;
        int j = 0;
        while (j < k && strcmp(ops[j], op)) j++;
        if (j < k)
            cnt[j]++;
        else if (k < 6)
            ops[k] = op, cnt[k++] = 1;
        else
            other++;
    }
    for (int i = 1; i < k; i++) /* by count, descending; stable */
        for (int j = i; j > 0 && cnt[j] > cnt[j - 1]; j--) {
            const char *t = ops[j];
            ops[j] = ops[j - 1], ops[j - 1] = t;
            int c = cnt[j];
            cnt[j] = cnt[j - 1], cnt[j - 1] = c;
        }
    sb_printf(
        sb,
        "%d of the %d layers do%s no work (no ops, no predicted time: run as views or computed ahead of "
        "time) and %s not shown: ",
        v->n_hidden, v->n, v->n_hidden == 1 ? "es" : "", v->n_hidden == 1 ? "is" : "are");
    for (int i = 0; i < k; i++) sb_printf(sb, "%s%s x%d", i ? ", " : "", ops[i], cnt[i]);
    if (other) sb_printf(sb, ", %d of other operators", other);
    sb_putc(sb, '.');
}

void rep_layer_shape(char *b, size_t n, const struct rep_layer *L, int aligned)
{
    size_t o = 0;
    if (!n) return;
    b[0] = 0;
    if (L->d.rank <= 0) {
        snprintf(b, n, L->d.rank ? "?" : "scalar");
        return;
    }
    for (int i = 0; i < L->d.rank && o + 24 < n; i++) {
        int64_t v = aligned ? L->d.aligned_dims[i] : L->d.dims[i];
        if (v < 0)
            o += (size_t)snprintf(b + o, n - o, "%s?", i ? "x" : "");
        else
            o += (size_t)snprintf(b + o, n - o, "%s%lld", i ? "x" : "", (long long)v);
    }
}

const char *rep_layer_bound(const struct rep_layer *L)
{
    return L->li.fallback ? "fallback" : L->li.bound;
}

void rep_layer_bound_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    c->s = rep_layer_bound(row);
}

void rep_why_text(const struct rep_view *v, int which, struct strbuf *sb)
{
    const struct rep_why *w = &v->why;
    char b[48];
    int n = 0;
    if (!which) {
        if (w->total <= 0) {
            sb_puts(sb, "no layer takes time");
            return;
        }
        for (int k = 0; k < REP_N_BOUNDS; k++) {
            if (w->t[k] <= 0) continue;
            rep_pct(b, sizeof b, w->share[k]);
            sb_printf(sb, "%s%s %s", n++ ? ", " : "", bound_label(k), b);
            int kinds = (w->mem_t[0] > 0) + (w->mem_t[1] > 0) + (w->mem_t[2] > 0), nm = 0;
            for (int m = 0; k == 1 && m < 3; m++) { /* which memory: "(DDR)", or "(DDR 25%, link 5%)" */
                if (w->mem_t[m] <= 0) continue;
                rep_pct(b, sizeof b, w->mem_t[m] / w->total);
                sb_printf(sb, "%s%s%s%s", nm++ ? ", " : " (", rep_memory_labels[m], kinds > 1 ? " " : "",
                          kinds > 1 ? b : "");
            }
            if (nm) sb_putc(sb, ')');
        }
        rep_time(b, sizeof b, w->total);
        sb_printf(sb, " of %s", b);
        if (w->outside > 0) {
            rep_time(b, sizeof b, w->outside);
            sb_printf(sb, " (overhead includes %s of the run outside any layer)", b);
        }
        return;
    }
    if (!w->n_top) sb_puts(sb, "none takes time");
    for (int i = 0; i < w->n_top; i++) {
        struct rep_layer row;
        const struct rep_layer *L = rep_view_layer(v, w->top[i], &row);
        char pc[48];
        rep_time(b, sizeof b, L->li.t_total);
        rep_pct(pc, sizeof pc, L->share);
        int k = bound_index(L);
        sb_printf(sb, "%s'%s' %s %s%s%s (%s", i ? ", " : "", L->li.name, b, bound_label(k),
                  k == 1 ? " on " : "", k == 1 ? rep_memory_labels[rep_layer_memory(L)] : "", pc);
        if (w->rule[i]) sb_printf(sb, "; advise rule %s", w->rule[i]);
        sb_putc(sb, ')');
    }
}
