/* serve_timing.c - times one serving simulation of 1,000 Poisson requests (nnperf_llm with serve options), and with
 * a third argument the search of the largest rate whose p90 TTFT is within SLO_TTFT_MS: build with
 * gcc -O2 -Iinclude bench/llm/serve_timing.c -Lbuild -lnnperf -lm -o /tmp/sv;
 * LD_LIBRARY_PATH=build /tmp/sv CONFIG PLATFORM [SLO_TTFT_MS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "nnperf.h"
int main(int c, char **v)
{
    struct nnperf_model *m;
    struct nnperf_platform *p;
    char err[2048];
    if (nnperf_llm_config_load(v[1], &m, err, sizeof err) ||
        nnperf_platform_load(v[2], &p, err, sizeof err)) {
        puts(err);
        return 2;
    }
    int prompt = 512;
    struct nnperf_serve_options so = {.requests = 1000,
                                      .rate = 5,
                                      .seed = 1,
                                      .lengths = NNPERF_LENGTHS_EXPONENTIAL,
                                      .slo_ttft_s = c > 3 ? atof(v[3]) / 1e3 : 0};
    struct nnperf_llm_options o = {.prompts = &prompt, .n_prompts = 1, .generate = 128, .serve = &so};
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    struct nnperf_llm *l;
    if (nnperf_llm(m, p, &o, &l, err, sizeof err)) {
        puts(err);
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    struct nnperf_serve_result r;
    nnperf_llm_serve_result(l, &r);
    printf("wall %.2f s: %d steps, out tok/s %.1f, req/s %.2f, TTFT p50/p90/p99 %.1f/%.1f/%.1f ms, TPOT p50 "
           "%.2f ms, e2e p99 %.2f s, KV mean %.3f peak %.3f, preempt %d\n",
           (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9, r.steps, r.output_tokens_per_s,
           r.requests_per_s, r.ttft_s[0] * 1e3, r.ttft_s[1] * 1e3, r.ttft_s[2] * 1e3, r.tpot_s[0] * 1e3,
           r.e2e_s[2], r.kv_occupancy_mean, r.kv_occupancy_peak, r.preemptions);
    if (r.slo_searched)
        printf("largest rate with p90 TTFT <= %s ms: %.3f requests/s (p90 TTFT there %.1f ms)\n", v[3],
               r.slo_rate, r.slo_ttft_s * 1e3);
    return 0;
}
