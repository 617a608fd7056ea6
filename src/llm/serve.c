/* serve.c - the serving simulation of `nnperf llm --serve` (docs/llm.md, "Serving"): requests arrive (a Poisson
 * rate or a fixed concurrency, prompt and output lengths drawn from a seeded generator), an engine admits them into
 * a paged KV cache (blocks of block_size tokens, a request admitted when its prompt's blocks are free, the latest
 * admitted preempted and recomputed when a decode step finds no free block), and runs steps of continuous batching:
 * every running request that has finished its prefill decodes one token, and the rest of the step's token budget
 * (chunk) goes to prefill chunks in arrival order (chunked prefill). Each step is priced by the per-layer model
 * through a cache of a few predicted shapes: decode steps t(B, P) at batch sizes B (powers of two up to the
 * largest batch, interpolated linearly between them) and two past lengths (affine in P), prefill as the cumulative
 * T(S) of S prompt tokens at batch 1 (a chunk of c tokens after p costs T(p + c) - T(p)). Everything lives in the
 * simulation's own state: two simulations never share anything. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hw/hw.h"
#include "llm.h"

/* splitmix64: a small, seeded generator (no global state) */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s) /* in [0, 1) */
{
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

static int draw_len(uint64_t *s, int mean, int dist, int cap)
{
    double v = mean;
    if (dist == NNPERF_LENGTHS_UNIFORM)
        v = mean * (0.5 + rng_unit(s)); /* [N/2, 3N/2) */
    else if (dist == NNPERF_LENGTHS_EXPONENTIAL)
        v = -mean * log(1.0 - rng_unit(s));
    int n = (int)lround(v);
    if (n < 1) n = 1;
    if (n > cap) n = cap;
    return n;
}

/* ---- the price of a step ---- */

#define SV_MAX_GRID 40

struct pricer {
    const struct llm_serve_in *in;
    int nb, np;
    int b[SV_MAX_GRID]; /* decode batch sizes */
    double p_lo, p_hi;  /* decode past lengths */
    double t_lo[SV_MAX_GRID], t_hi[SV_MAX_GRID];
    int s[SV_MAX_GRID];     /* prefill lengths (batch 1) */
    double ts[SV_MAX_GRID]; /* cumulative prefill time T(s) */
};

static enum nnperf_status pricer_init(struct pricer *pr, const struct llm_serve_in *in, int max_ctx,
                                      int max_prompt, struct diag *d)
{
    memset(pr, 0, sizeof *pr);
    pr->in = in;
    int maxb = in->o.max_batch;
    for (int b = 1; pr->nb < SV_MAX_GRID - 1; b *= 2) {
        pr->b[pr->nb++] = b < maxb ? b : maxb;
        if (b >= maxb) break;
    }
    pr->p_lo = 1, pr->p_hi = max_ctx > 2 ? max_ctx - 1 : 2;
    enum nnperf_status st = NNPERF_OK;
    for (int i = 0; !st && i < pr->nb; i++) {
        st = in->price(in->ctx, pr->b[i], 1, (int)pr->p_lo, &pr->t_lo[i]);
        if (!st) st = in->price(in->ctx, pr->b[i], 1, (int)pr->p_hi, &pr->t_hi[i]);
    }
    /* prefill: 16, 32, ... up to the longest prompt */
    for (int s = 16; !st && pr->np < SV_MAX_GRID - 1; s *= 2) {
        int v = s < max_prompt ? s : max_prompt;
        pr->s[pr->np] = v;
        st = in->price(in->ctx, 1, v, 0, &pr->ts[pr->np]);
        pr->np++;
        if (s >= max_prompt) break;
    }
    (void)d;
    return st;
}

static double lerp(double x0, double y0, double x1, double y1, double x)
{
    return x1 == x0 ? y0 : y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

/* a decode step of n sequences whose mean past length is p */
static double decode_time(const struct pricer *pr, int n, double p)
{
    int i = 0;
    while (i + 1 < pr->nb && pr->b[i + 1] < n) i++;
    int j = i + 1 < pr->nb && pr->b[i] < n ? i + 1 : i;
    double lo = lerp(pr->b[i], pr->t_lo[i], pr->b[j], pr->t_lo[j], n);
    double hi = lerp(pr->b[i], pr->t_hi[i], pr->b[j], pr->t_hi[j], n);
    double t = lerp(pr->p_lo, lo, pr->p_hi, hi, p);
    return t > 0 ? t : 0;
}

/* T(s): the prefill of s tokens at batch 1 (0 at 0, linear below the first point and between points) */
static double prefill_cum(const struct pricer *pr, double s)
{
    if (s <= 0) return 0;
    if (s <= pr->s[0]) return pr->ts[0] * s / pr->s[0];
    for (int i = 1; i < pr->np; i++)
        if (s <= pr->s[i]) return lerp(pr->s[i - 1], pr->ts[i - 1], pr->s[i], pr->ts[i], s);
    int k = pr->np - 1;
    return k > 0 ? lerp(pr->s[k - 1], pr->ts[k - 1], pr->s[k], pr->ts[k], s) : pr->ts[0] * s / pr->s[0];
}

/* ---- the load: requests with their lengths and arrivals at rate 1 ---- */

struct load {
    int n;
    double *unit; /* arrival of request i at one request per second (Poisson or the trace's, scaled) */
    int *prompt, *output;
    double trace_rate; /* a trace: its own rate (requests over its span); 0 drawn */
};

static void load_free(struct load *ld)
{
    free(ld->unit), free(ld->prompt), free(ld->output);
    memset(ld, 0, sizeof *ld);
}

static int load_alloc(struct load *ld, int n)
{
    ld->n = n;
    ld->unit = calloc((size_t)n, sizeof *ld->unit);
    ld->prompt = calloc((size_t)n, sizeof *ld->prompt);
    ld->output = calloc((size_t)n, sizeof *ld->output);
    return ld->unit && ld->prompt && ld->output;
}

static void draw_load(struct load *ld, const struct nnperf_serve_options *o, int cap)
{
    uint64_t seed = o->seed;
    double t = 0;
    for (int i = 0; i < ld->n; i++) {
        ld->prompt[i] = draw_len(&seed, o->prompt, o->lengths, cap - 1);
        ld->output[i] = draw_len(&seed, o->output, o->lengths, cap - ld->prompt[i]);
        t += -log(1.0 - rng_unit(&seed)); /* drawn for a concurrency too: the same lengths either way */
        ld->unit[i] = t;
    }
}

#define TRACE_MAX_ROWS 1000000

/* the value of "key" on a JSON line: its number after the colon */
static int jsonl_num(const char *line, const char *key, double *v)
{
    char pat[40];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(line, pat);
    if (!p) return 0;
    p += strlen(pat);
    while (*p == ' ' || *p == '\t') p++;
    if (*p++ != ':') return 0;
    char *end;
    *v = c_strtod(p, &end);
    return end != p;
}

static const char *const trace_cols[3] = {"arrival_s", "prompt", "output"};

/* A trace of requests (docs/llm.md, Serving): CSV whose header names arrival_s, prompt and output (other columns
 * ignored), or JSON lines {"arrival_s": .., "prompt": .., "output": ..}; arrivals in seconds, not decreasing;
 * lengths whole, at least 1, and within the model's positions */
static enum nnperf_status read_trace(struct load *ld, const char *path, int cap, struct diag *d)
{
    char *text = NULL;
    size_t len = 0;
    enum nnperf_status st = hw_read_file(path, &text, &len, d);
    if (st) return st;
    int rows = 0;
    for (size_t i = 0; i < len; i++) rows += text[i] == '\n';
    if (!load_alloc(ld, rows + 1)) {
        free(text);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    ld->n = 0;
    int json = -1, col[3] = {-1, -1, -1}, lineno = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && !st; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r') line[--n] = 0;
        const char *q = line;
        while (*q == ' ' || *q == '\t') q++;
        if (!*q || *q == '#') continue;
        if (json < 0) {
            json = *q == '{';
            if (!json) { /* the header */
                int k = 0;
                for (char *f = line, *e;; f = e + 1, k++) {
                    e = strchr(f, ',');
                    size_t fl = e ? (size_t)(e - f) : strlen(f);
                    while (fl && (f[fl - 1] == ' ')) fl--;
                    while (fl && *f == ' ') f++, fl--;
                    for (int c = 0; c < 3; c++)
                        if (strlen(trace_cols[c]) == fl && !strncmp(f, trace_cols[c], fl)) col[c] = k;
                    if (!e) break;
                }
                for (int c = 0; c < 3 && !st; c++)
                    if (col[c] < 0)
                        st = diag_set(
                            d, NNPERF_E_INVALID,
                            "%s:%d: the CSV header has no '%s' column (a trace names arrival_s, prompt "
                            "and output)",
                            path, lineno, trace_cols[c]);
                continue;
            }
        }
        if (ld->n >= TRACE_MAX_ROWS) {
            st = diag_set(d, NNPERF_E_LIMIT, "%s: more than %d requests", path, TRACE_MAX_ROWS);
            break;
        }
        double v[3] = {0, 0, 0};
        for (int c = 0; c < 3 && !st; c++) {
            int ok;
            if (json)
                ok = jsonl_num(q, trace_cols[c], &v[c]);
            else {
                const char *f = line;
                for (int k = 0; k < col[c] && f; k++) f = strchr(f, ','), f = f ? f + 1 : NULL;
                char *end = NULL;
                ok = f && (v[c] = c_strtod(f, &end), end != f) && (*end == ',' || *end == ' ' || !*end);
            }
            if (!ok)
                st = diag_set(d, NNPERF_E_INVALID, "%s:%d: no number for '%s'", path, lineno, trace_cols[c]);
            else if (!isfinite(v[c]) || v[c] < 0 ||
                     (c && (v[c] != floor(v[c]) || v[c] < 1 || v[c] > 1 << 24)))
                st = diag_set(d, NNPERF_E_INVALID, "%s:%d: '%s' is %g, expected %s", path, lineno,
                              trace_cols[c], v[c],
                              c ? "a whole number of tokens (1 or more)" : "seconds (0 or more)");
        }
        if (st) break;
        if (ld->n && v[0] < ld->unit[ld->n - 1])
            st = diag_set(d, NNPERF_E_INVALID, "%s:%d: arrival_s %g is before the previous request's %g",
                          path, lineno, v[0], ld->unit[ld->n - 1]);
        else if (v[1] + v[2] > cap)
            st = diag_set(d, NNPERF_E_INVALID,
                          "%s:%d: prompt %g + output %g tokens is over the model's position limit of %d",
                          path, lineno, v[1], v[2], cap);
        else {
            ld->unit[ld->n] = v[0], ld->prompt[ld->n] = (int)v[1], ld->output[ld->n] = (int)v[2];
            ld->n++;
        }
    }
    free(text);
    if (!st && !ld->n) st = diag_set(d, NNPERF_E_INVALID, "%s: no requests", path);
    if (!st) {
        double span = ld->unit[ld->n - 1] - ld->unit[0];
        ld->trace_rate = span > 0 ? (ld->n - 1) / span : 0;
    }
    return st;
}

/* ---- the engine ---- */

struct req {
    double arrival, first, done;
    int prompt, output;
    int target;    /* tokens to prefill: the prompt, plus what was generated before a preemption */
    int prefilled; /* of target */
    int generated;
    int blocks;
    int state; /* 0 not arrived, 1 waiting, 2 running, 3 done */
    int order; /* admission order (preemption takes the latest) */
};

static int blocks_for(int tokens, int bs)
{
    return (tokens + bs - 1) / bs;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void percentiles(double *v, int n, double out[3])
{
    if (n <= 0) {
        out[0] = out[1] = out[2] = 0;
        return;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_dbl);
    const double q[3] = {0.5, 0.9, 0.99};
    for (int k = 0; k < 3; k++) { /* nearest rank */
        int i = (int)ceil(q[k] * n) - 1;
        out[k] = v[i < 0 ? 0 : i >= n ? n - 1 : i];
    }
}

/* the KV occupancy and running requests of each step, for the series */
struct trace_pt {
    double t0, t1, kv, running;
};

struct series {
    struct trace_pt *p;
    long long n, cap;
};

static void series_add(struct series *s, double t0, double t1, double kv, double running)
{
    if (s->n == s->cap) {
        long long cap = s->cap ? 2 * s->cap : 1024;
        struct trace_pt *p = realloc(s->p, (size_t)cap * sizeof *p);
        if (!p) return; /* the series then ends early; the run's numbers are unaffected */
        s->p = p, s->cap = cap;
    }
    s->p[s->n++] = (struct trace_pt){t0, t1, kv, running};
}

/* means over NNPERF_SERVE_SERIES equal spans of [0, end] */
static void series_bucket(const struct series *s, double end, struct nnperf_serve_result *res)
{
    int K = NNPERF_SERVE_SERIES;
    double w = end / K, kv[NNPERF_SERVE_SERIES] = {0}, run[NNPERF_SERVE_SERIES] = {0};
    if (!(w > 0) || !s->n) return;
    for (long long i = 0; i < s->n; i++) {
        const struct trace_pt *q = &s->p[i];
        for (int k = (int)fmin(K - 1, q->t0 / w); k < K && k * w < q->t1; k++) {
            double a = fmax(q->t0, k * w), b = fmin(q->t1, (k + 1) * w);
            if (b > a) kv[k] += q->kv * (b - a), run[k] += q->running * (b - a);
        }
    }
    res->n_series = K;
    for (int k = 0; k < K; k++)
        res->series_t[k] = (k + 1) * w, res->series_kv[k] = kv[k] / w, res->series_running[k] = run[k] / w;
}

/* One run of the engine over the load: Poisson (or trace) arrivals at `rate` requests/s, or a closed loop of
 * `concurrency`; series non-NULL: the occupancy of every step */
static enum nnperf_status simulate(const struct llm_serve_in *in, const struct pricer *pr,
                                   const struct load *ld, double rate, int concurrency,
                                   long long total_blocks, struct nnperf_serve_result *res,
                                   struct series *series, struct diag *d)
{
    const struct nnperf_serve_options *o = &in->o;
    memset(res, 0, sizeof *res);
    int n = ld->n, bs = o->block_size;
    struct req *r = calloc((size_t)n, sizeof *r);
    double *tmp = calloc((size_t)n, sizeof *tmp);
    int *run = calloc((size_t)o->max_batch, sizeof *run);
    if (!r || !tmp || !run) {
        free(r), free(tmp), free(run);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        r[i].prompt = ld->prompt[i], r[i].output = ld->output[i], r[i].target = r[i].prompt;
        r[i].arrival = rate > 0          ? ld->unit[i] / rate
                       : i < concurrency ? 0
                                         : -1; /* the rest as others finish */
    }
    enum nnperf_status st = NNPERF_OK;
    double now = 0, busy_kv = 0, peak_kv = 0, batch_sum = 0, first_arrival = -1, last_done = 0;
    long long free_blocks = total_blocks;
    int n_run = 0, next = 0, done = 0, order = 0, next_closed = rate > 0 ? n : concurrency;
    long long steps = 0, max_steps = 200000000LL;
    int head = 0; /* the first request not yet finished or running, for the waiting queue scan */
    if (rate > 0 && n) now = r[0].arrival;
    while (done < n && steps < max_steps) {
        /* arrivals up to now */
        while (next < n && r[next].arrival >= 0 && r[next].arrival <= now) {
            r[next].state = 1;
            if (first_arrival < 0) first_arrival = r[next].arrival;
            next++;
        }
        /* admission in arrival order: the prompt's blocks free and a slot */
        for (int i = head; i < next && n_run < o->max_batch; i++) {
            if (r[i].state != 1) continue;
            int need = blocks_for(r[i].target + 1, bs);
            if (need > free_blocks) break; /* first come, first served */
            free_blocks -= need;
            r[i].blocks = need;
            r[i].state = 2;
            r[i].order = order++;
            run[n_run++] = i;
        }
        while (head < n && r[head].state >= 2) head++;
        if (!n_run) { /* idle: to the next arrival */
            if (next < n && r[next].arrival > now) {
                if (series) series_add(series, now, r[next].arrival, 0, 0);
                now = r[next].arrival;
                continue;
            }
            if (next >= n || r[next].arrival < 0) {
                st = diag_set(d, NNPERF_E_USAGE, "serving: no request can run (a KV cache of %lld blocks)",
                              total_blocks);
                break;
            }
            continue;
        }
        /* decode tokens first (each needs room for its next token: a new block when it crosses one; when too
         * few are free, the latest admitted requests are preempted and recomputed later), then prefill chunks */
        int need = 0;
        for (int k = 0; k < n_run; k++) {
            const struct req *q = &r[run[k]];
            if (q->prefilled >= q->target && blocks_for(q->prompt + q->generated + 1, bs) > q->blocks) need++;
        }
        while (need > free_blocks && n_run > 0) {
            int victim = 0;
            for (int v = 1; v < n_run; v++)
                if (r[run[v]].order > r[run[victim]].order) victim = v;
            struct req *x = &r[run[victim]];
            if (x->prefilled >= x->target && blocks_for(x->prompt + x->generated + 1, bs) > x->blocks) need--;
            free_blocks += x->blocks;
            x->blocks = 0, x->state = 1, x->target = x->prompt + x->generated, x->prefilled = 0;
            if (run[victim] < head) head = run[victim];
            run[victim] = run[--n_run];
            res->preemptions++;
        }
        int budget = o->chunk, n_dec = 0;
        double past_sum = 0, prefill_t = 0;
        for (int k = 0; k < n_run; k++) {
            struct req *q = &r[run[k]];
            if (q->prefilled < q->target) continue;
            if (blocks_for(q->prompt + q->generated + 1, bs) > q->blocks) free_blocks--, q->blocks++;
            n_dec++;
            past_sum += q->prompt + q->generated;
            budget--;
        }
        for (int k = 0; k < n_run && budget > 0; k++) {
            struct req *q = &r[run[k]];
            if (q->prefilled >= q->target) continue;
            int c = q->target - q->prefilled < budget ? q->target - q->prefilled : budget;
            prefill_t += prefill_cum(pr, q->prefilled + c) - prefill_cum(pr, q->prefilled);
            q->prefilled += c;
            budget -= c;
            if (q->prefilled == q->target) q->state = 4; /* its first token comes at the end of the step */
        }
        double dt = (n_dec ? decode_time(pr, n_dec, past_sum / n_dec) : 0) + prefill_t;
        if (!(dt > 0)) dt = 1e-9;
        /* KV occupancy over the step */
        double used = (double)(total_blocks - free_blocks) / (double)total_blocks;
        busy_kv += used * dt;
        if (used > peak_kv) peak_kv = used;
        batch_sum += (n_dec + 0.0) * dt;
        if (series) series_add(series, now, now + dt, used, n_run);
        now += dt;
        steps++;
        for (int k = 0; k < n_run; k++) {
            struct req *q = &r[run[k]];
            if (q->state ==
                4) { /* prefill finished: the first token (or, after a preemption, the next one) */
                q->state = 2;
                if (q->generated == 0) q->first = now;
                q->generated++;
            } else if (q->prefilled >= q->target)
                q->generated++;
            if (q->generated >= q->output) {
                q->state = 3, q->done = now;
                free_blocks += q->blocks;
                q->blocks = 0;
                done++;
                last_done = now;
                if (next_closed < n) r[next_closed++].arrival = now; /* closed loop: the next one comes in */
                run[k--] = run[--n_run];
            }
        }
    }
    if (!st && done < n) st = diag_set(d, NNPERF_E_LIMIT, "serving: over %lld steps", max_steps);
    if (!st) {
        double start = first_arrival > 0 ? first_arrival : 0, span = last_done - start;
        long long out_tokens = 0, in_tokens = 0;
        for (int i = 0; i < n; i++) out_tokens += r[i].output, in_tokens += r[i].prompt;
        res->requests = n;
        res->steps = steps > 2000000000LL ? 2000000000 : (int)steps;
        res->duration_s = span;
        res->output_tokens_per_s = span > 0 ? (double)out_tokens / span : 0;
        res->input_tokens_per_s = span > 0 ? (double)in_tokens / span : 0;
        res->requests_per_s = span > 0 ? n / span : 0;
        res->kv_blocks = (double)total_blocks;
        res->kv_occupancy_mean = now > 0 ? busy_kv / now : 0;
        res->kv_occupancy_peak = peak_kv;
        res->mean_decode_batch = now > 0 ? batch_sum / now : 0;
        for (int i = 0; i < n; i++) tmp[i] = r[i].first - r[i].arrival;
        percentiles(tmp, n, res->ttft_s);
        int m = 0;
        for (int i = 0; i < n; i++)
            if (r[i].output > 1) tmp[m++] = (r[i].done - r[i].first) / (r[i].output - 1);
        percentiles(tmp, m, res->tpot_s);
        for (int i = 0; i < n; i++) tmp[i] = r[i].done - r[i].arrival;
        percentiles(tmp, n, res->e2e_s);
    }
    free(r), free(tmp), free(run);
    return st;
}

/* the result meets the latency target: TTFT and TPOT at its percentile within their bounds */
static int meets(const struct nnperf_serve_options *o, const struct nnperf_serve_result *r)
{
    int k = o->slo_percentile == 99 ? 2 : 1;
    return (o->slo_ttft_s <= 0 || r->ttft_s[k] <= o->slo_ttft_s) &&
           (o->slo_tpot_s <= 0 || r->tpot_s[k] <= o->slo_tpot_s);
}

/* The state of the rate search: the bracket [lo, hi] (0: not found yet) and the run at lo */
struct rate_search {
    const struct llm_serve_in *in;
    const struct pricer *pr;
    const struct load *ld;
    long long blocks;
    double lo, hi;
    struct nnperf_serve_result *best;
    struct diag *d;
};

/* one simulation at rate x: x becomes the bracket's low end when it meets the target (its run kept), else the high
 * end. Returns the simulation's status; *ok whether it met the target */
static enum nnperf_status probe(struct rate_search *s, double x, int *ok)
{
    struct nnperf_serve_result r;
    enum nnperf_status st = simulate(s->in, s->pr, s->ld, x, 0, s->blocks, &r, NULL, s->d);
    *ok = !st && meets(&s->in->o, &r);
    if (st) return st;
    if (*ok)
        s->lo = x, *s->best = r;
    else
        s->hi = x;
    return st;
}

/* The largest rate that meets the target: from the load's own rate (or 1 request/s) doubled while it meets it or
 * halved until it does (40 times at most), then 16 bisections of the bracket; the same requests at every rate.
 * out: the run at that rate, slo_rate 0 when none meets it */
static enum nnperf_status search_rate(const struct llm_serve_in *in, const struct pricer *pr,
                                      const struct load *ld, double start, long long blocks,
                                      struct nnperf_serve_result *out, struct diag *d)
{
    struct rate_search s = {in, pr, ld, blocks, 0, 0, out, d};
    double x = start;
    int up, ok;
    enum nnperf_status st = probe(&s, x, &up);
    for (int i = 0; !st && i < 40 && !(s.lo > 0 && s.hi > 0); i++) {
        x = up ? 2 * x : x / 2;
        st = probe(&s, x, &ok);
    }
    for (int i = 0; !st && s.lo > 0 && s.hi > 0 && i < 16; i++) st = probe(&s, 0.5 * (s.lo + s.hi), &ok);
    out->slo_rate = s.lo;
    return st;
}

enum nnperf_status llm_serve_run(const struct llm_serve_in *in, struct nnperf_serve_result *res,
                                 struct diag *d)
{
    const struct nnperf_serve_options *o = &in->o;
    memset(res, 0, sizeof *res);
    int bs = o->block_size;
    double block_bytes = in->kv_bytes_per_token * bs;
    long long total_blocks = block_bytes > 0 ? (long long)floor(in->kv_capacity_bytes / block_bytes) : 0;
    if (total_blocks < 1)
        return diag_set(
            d, NNPERF_E_USAGE,
            "serving: no memory is left for the KV cache (%.3g bytes for blocks of %d tokens of %.3g "
            "bytes each)",
            in->kv_capacity_bytes, bs, in->kv_bytes_per_token);
    int cap = in->position_limit > 0 ? in->position_limit : 1 << 24;
    struct load ld = {0};
    enum nnperf_status st = NNPERF_OK;
    if (o->trace)
        st = read_trace(&ld, o->trace, cap, d);
    else if (!load_alloc(&ld, o->requests))
        st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
    else
        draw_load(&ld, o, cap);
    int max_prompt = 1, max_ctx = 2;
    for (int i = 0; !st && i < ld.n; i++) {
        if (ld.prompt[i] > max_prompt) max_prompt = ld.prompt[i];
        if (ld.prompt[i] + ld.output[i] > max_ctx) max_ctx = ld.prompt[i] + ld.output[i];
        if (blocks_for(ld.prompt[i] + ld.output[i], bs) > total_blocks)
            st = diag_set(
                d, NNPERF_E_USAGE,
                "serving: a request of %d + %d tokens needs %d KV blocks of %d tokens, the cache holds "
                "%lld",
                ld.prompt[i], ld.output[i], blocks_for(ld.prompt[i] + ld.output[i], bs), bs, total_blocks);
    }
    struct pricer pr;
    if (!st) st = pricer_init(&pr, in, max_ctx, max_prompt, d);
    /* a trace arrives at its own times: rate 1 over arrival_s */
    double rate = o->trace ? 1 : o->rate;
    struct series se = {0};
    if (!st) st = simulate(in, &pr, &ld, rate, o->concurrency, total_blocks, res, &se, d);
    if (!st) series_bucket(&se, se.n ? se.p[se.n - 1].t1 : 0, res);
    free(se.p);
    if (!st && (o->slo_ttft_s > 0 || o->slo_tpot_s > 0)) {
        struct nnperf_serve_result at = {0};
        /* a trace is compressed or stretched in time: its rate is (requests - 1) over its span */
        double start = o->trace ? (ld.trace_rate > 0 ? ld.trace_rate : 1) : o->rate > 0 ? o->rate : 1;
        struct load scaled = ld;
        double *unit = NULL;
        if (o->trace && ld.trace_rate > 0) { /* unit arrivals at one request per second */
            unit = malloc((size_t)ld.n * sizeof *unit);
            if (!unit) st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
            for (int i = 0; unit && i < ld.n; i++) unit[i] = (ld.unit[i] - ld.unit[0]) * ld.trace_rate;
            scaled.unit = unit;
        }
        if (!st) st = search_rate(in, &pr, &scaled, start, total_blocks, &at, d);
        free(unit);
        int k = o->slo_percentile == 99 ? 2 : 1;
        res->slo_searched = 1;
        res->slo_rate = at.slo_rate;
        res->slo_ttft_s = at.slo_rate > 0 ? at.ttft_s[k] : 0;
        res->slo_tpot_s = at.slo_rate > 0 ? at.tpot_s[k] : 0;
    }
    load_free(&ld);
    return st;
}
