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
#include <stdlib.h>
#include <string.h>

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

enum nnperf_status llm_serve_run(const struct llm_serve_in *in, struct nnperf_serve_result *res,
                                 struct diag *d)
{
    const struct nnperf_serve_options *o = &in->o;
    memset(res, 0, sizeof *res);
    int n = o->requests, bs = o->block_size;
    double block_bytes = in->kv_bytes_per_token * bs;
    long long total_blocks = block_bytes > 0 ? (long long)floor(in->kv_capacity_bytes / block_bytes) : 0;
    if (total_blocks < 1)
        return diag_set(
            d, NNPERF_E_USAGE,
            "serving: no memory is left for the KV cache (%.3g bytes for blocks of %d tokens of %.3g "
            "bytes each)",
            in->kv_capacity_bytes, bs, in->kv_bytes_per_token);
    struct req *r = calloc((size_t)n, sizeof *r);
    double *tmp = calloc((size_t)n, sizeof *tmp);
    int *run = calloc((size_t)o->max_batch, sizeof *run);
    if (!r || !tmp || !run) {
        free(r), free(tmp), free(run);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    uint64_t seed = o->seed;
    int cap = in->position_limit > 0 ? in->position_limit : 1 << 24;
    int max_prompt = 1, max_ctx = 2;
    double t_arr = 0;
    for (int i = 0; i < n; i++) {
        r[i].prompt = draw_len(&seed, o->prompt, o->lengths, cap - 1);
        r[i].output = draw_len(&seed, o->output, o->lengths, cap - r[i].prompt);
        r[i].target = r[i].prompt;
        if (o->rate > 0) {
            t_arr += -log(1.0 - rng_unit(&seed)) / o->rate;
            r[i].arrival = t_arr;
            r[i].state = 0;
        } else
            r[i].arrival = i < o->concurrency ? 0 : -1; /* the rest arrive as others finish */
        if (r[i].prompt > max_prompt) max_prompt = r[i].prompt;
        if (r[i].prompt + r[i].output > max_ctx) max_ctx = r[i].prompt + r[i].output;
        if (blocks_for(r[i].prompt + r[i].output, bs) > total_blocks) {
            free(r), free(tmp), free(run);
            return diag_set(
                d, NNPERF_E_USAGE,
                "serving: a request of %d + %d tokens needs %d KV blocks of %d tokens, the cache holds "
                "%lld",
                r[i].prompt, r[i].output, blocks_for(r[i].prompt + r[i].output, bs), bs, total_blocks);
        }
    }
    struct pricer pr;
    enum nnperf_status st = pricer_init(&pr, in, max_ctx, max_prompt, d);
    if (st) {
        free(r), free(tmp), free(run);
        return st;
    }
    double now = 0, busy_kv = 0, peak_kv = 0, batch_sum = 0, first_arrival = -1, last_done = 0;
    long long free_blocks = total_blocks;
    int n_run = 0, next = 0, done = 0, order = 0, next_closed = o->rate > 0 ? n : o->concurrency;
    long long steps = 0, max_steps = 200000000LL;
    int head = 0; /* the first request not yet finished or running, for the waiting queue scan */
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
            prefill_t += prefill_cum(&pr, q->prefilled + c) - prefill_cum(&pr, q->prefilled);
            q->prefilled += c;
            budget -= c;
            if (q->prefilled == q->target) q->state = 4; /* its first token comes at the end of the step */
        }
        double dt = (n_dec ? decode_time(&pr, n_dec, past_sum / n_dec) : 0) + prefill_t;
        if (!(dt > 0)) dt = 1e-9;
        /* KV occupancy over the step */
        double used = (double)(total_blocks - free_blocks) / (double)total_blocks;
        busy_kv += used * dt;
        if (used > peak_kv) peak_kv = used;
        batch_sum += (n_dec + 0.0) * dt;
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
        double span = last_done - (first_arrival > 0 ? first_arrival : 0);
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
