/* probe.c - `nnperf probe`: measures this machine's single-thread ceilings and writes them as a platform description
 * (struct hw_desc) that calibration later refines.
 *
 * What is measured (each phase repeats its kernel for a share of the time budget and keeps the best rate, as STREAM
 * does):
 *   fp32      an FMA loop over 10 independent accumulator vectors (enough to cover the FMA latency on two ports),
 *             plain C with fmaf() that the compiler vectorizes; 1 FMA = 2 ops.
 *   int8      a dot product of two L1-resident int8 arrays accumulated in int32, plain C that the compiler vectorizes
 *             (sign-extend, multiply, add): what compiled integer code reaches, NOT the VNNI/AMX peak of the CPU;
 *             1 MAC = 2 ops.
 *   vector    an element-wise fp32 kernel (y = max(x * s + t, 0): 3 FLOPs per element) over L1-resident arrays.
 *   sram      a STREAM triad (a = b + s * c) over three arrays filling half the L2 cache.
 *   ddr       the same triad over three arrays of at least 4x the last-level cache each. Bytes are counted the STREAM
 *             way: 24 per element (two reads, one write; the write-allocate read is not counted).
 * Each kernel comes in three builds chosen at run time with __builtin_cpu_supports: AVX-512 (512-bit vectors),
 * AVX2+FMA, and the baseline ISA (generic C; other architectures get only this one).
 * Cache sizes come from /sys/devices/system/cpu/cpu0/cache (what lscpu reads), else sysconf, else defaults. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define PROBE_X86 1
#else
#define PROBE_X86 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PROBE_NOINLINE __attribute__((noinline))
#else
#define PROBE_NOINLINE
#endif

#if PROBE_X86
#define PROBE_AVX2 __attribute__((target("avx2,fma")))
#if defined(__clang__)
#define PROBE_AVX512 __attribute__((target("avx512f,avx512bw,avx2,fma")))
#else
/* GCC prefers 256-bit vectors even with AVX-512 enabled; ask for 512-bit ones */
#define PROBE_AVX512 __attribute__((target("avx512f,avx512bw,avx2,fma,prefer-vector-width=512")))
#endif
#endif
#define PROBE_BASE

enum probe_isa { ISA_GENERIC, ISA_AVX2, ISA_AVX512 };
static const char *const isa_names[] = {"generic", "avx2", "avx512"};
/* fp32 lanes per vector register in each build: the width of the accumulator arrays */
static const int isa_lanes[] = {4, 8, 16};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- kernels ---- */

/* fp32: 10 accumulator arrays of W lanes each; every array becomes one vector register once the inner j-loop is
 * vectorized, and the 10 chains are independent. With a = 0.999, b = 0.001 the values converge to 1 (no denormals,
 * no overflow). */
#define FMA_OP(x)    fmaf(x, a, b)
#define MULADD_OP(x) ((x)*a + (b)) /* no FMA in the baseline ISA: a multiply and an add, still 2 ops */
#define FMA_KERNEL(NAME, W, ATTR, OP)                                                                        \
    ATTR PROBE_NOINLINE static float NAME(uint64_t reps, float a, float b)                                   \
    {                                                                                                        \
        float c0[W], c1[W], c2[W], c3[W], c4[W], c5[W], c6[W], c7[W], c8[W], c9[W];                          \
        for (int j = 0; j < W; j++) {                                                                        \
            float v = (float)j * 0.01f;                                                                      \
            c0[j] = v, c1[j] = v + 0.1f, c2[j] = v + 0.2f, c3[j] = v + 0.3f, c4[j] = v + 0.4f;               \
            c5[j] = v + 0.5f, c6[j] = v + 0.6f, c7[j] = v + 0.7f, c8[j] = v + 0.8f, c9[j] = v + 0.9f;        \
        }                                                                                                    \
        for (uint64_t r = 0; r < reps; r++)                                                                  \
            for (int j = 0; j < W; j++) {                                                                    \
                c0[j] = OP(c0[j]), c1[j] = OP(c1[j]), c2[j] = OP(c2[j]), c3[j] = OP(c3[j]),                  \
                c4[j] = OP(c4[j]);                                                                           \
                c5[j] = OP(c5[j]), c6[j] = OP(c6[j]), c7[j] = OP(c7[j]), c8[j] = OP(c8[j]),                  \
                c9[j] = OP(c9[j]);                                                                           \
            }                                                                                                \
        float s = 0;                                                                                         \
        for (int j = 0; j < W; j++)                                                                          \
            s += c0[j] + c1[j] + c2[j] + c3[j] + c4[j] + c5[j] + c6[j] + c7[j] + c8[j] + c9[j];              \
        return s;                                                                                            \
    }
#define FMA_CHAINS 10

/* int8: dot product of two DOT_K-element arrays; x changes a little after every pass so that no pass can be hoisted.
 * |sum| <= DOT_K * 128 * 128 = 2^26: no int32 overflow within a pass. */
#define DOT_K 4096
#define DOT_KERNEL(NAME, ATTR)                                                                               \
    ATTR PROBE_NOINLINE static uint32_t NAME(int8_t *x, const int8_t *y, uint64_t reps)                      \
    {                                                                                                        \
        uint32_t total = 0;                                                                                  \
        for (uint64_t r = 0; r < reps; r++) {                                                                \
            int32_t s = 0;                                                                                   \
            for (int i = 0; i < DOT_K; i++) s += (int32_t)x[i] * (int32_t)y[i];                              \
            total += (uint32_t)s;                                                                            \
            x[r & (DOT_K - 1)] = (int8_t)(x[r & (DOT_K - 1)] ^ 1);                                           \
        }                                                                                                    \
        return total;                                                                                        \
    }

/* vector: y = max(x * s + t, 0) and back, VEC_N floats each way (L1-resident); 3 FLOPs per element. Values stay
 * in [0, 1]. */
#define VEC_N 2048
#define VEC_KERNEL(NAME, ATTR)                                                                               \
    ATTR PROBE_NOINLINE static void NAME(float *restrict x, float *restrict y, uint64_t reps)                \
    {                                                                                                        \
        const float s = 0.999f, t = 0.001f;                                                                  \
        for (uint64_t r = 0; r < reps; r++) {                                                                \
            for (int i = 0; i < VEC_N; i++) {                                                                \
                float v = x[i] * s + t;                                                                      \
                y[i] = v > 0.0f ? v : 0.0f;                                                                  \
            }                                                                                                \
            for (int i = 0; i < VEC_N; i++) {                                                                \
                float v = y[i] * s + t;                                                                      \
                x[i] = v > 0.0f ? v : 0.0f;                                                                  \
            }                                                                                                \
        }                                                                                                    \
    }

/* triad: a = b + s * c over nblocks blocks of TRIAD_BLOCK doubles (a constant trip count the vectorizer likes). */
#define TRIAD_BLOCK 1024
#define TRIAD_KERNEL(NAME, ATTR)                                                                             \
    ATTR PROBE_NOINLINE static void NAME(double *restrict a, const double *restrict b,                       \
                                         const double *restrict c, size_t nblocks, double s)                 \
    {                                                                                                        \
        for (size_t k = 0; k < nblocks; k++) {                                                               \
            size_t o = k * TRIAD_BLOCK;                                                                      \
            for (int i = 0; i < TRIAD_BLOCK; i++)                                                            \
                a[o + (size_t)i] = b[o + (size_t)i] + s * c[o + (size_t)i];                                  \
        }                                                                                                    \
    }

FMA_KERNEL(fma_generic, 4, PROBE_BASE, MULADD_OP)
DOT_KERNEL(dot_generic, PROBE_BASE)
VEC_KERNEL(vec_generic, PROBE_BASE)
TRIAD_KERNEL(triad_generic, PROBE_BASE)
#if PROBE_X86
FMA_KERNEL(fma_avx2, 8, PROBE_AVX2, FMA_OP)
FMA_KERNEL(fma_avx512, 16, PROBE_AVX512, FMA_OP)
DOT_KERNEL(dot_avx2, PROBE_AVX2)
DOT_KERNEL(dot_avx512, PROBE_AVX512)
VEC_KERNEL(vec_avx2, PROBE_AVX2)
VEC_KERNEL(vec_avx512, PROBE_AVX512)
TRIAD_KERNEL(triad_avx2, PROBE_AVX2)
TRIAD_KERNEL(triad_avx512, PROBE_AVX512)
#endif

static enum probe_isa detect_isa(void)
{
#if PROBE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return ISA_AVX2;
#endif
    return ISA_GENERIC;
}

/* Each runner does `reps` repetitions of its kernel and returns the work done (ops or bytes). */
struct probe_bufs {
    enum probe_isa isa;
    int8_t *qx, *qy;
    float *vx, *vy;
    double *ta, *tb, *tc; /* current triad arrays */
    size_t tblocks;
    volatile double
        sink; /* keeps results alive so no kernel is optimised away (per probe: no global state) */
};

static double run_fma(struct probe_bufs *p, uint64_t reps)
{
    float s;
    switch (p->isa) {
#if PROBE_X86
    case ISA_AVX512: s = fma_avx512(reps, 0.999f, 0.001f); break;
    case ISA_AVX2: s = fma_avx2(reps, 0.999f, 0.001f); break;
#endif
    default: s = fma_generic(reps, 0.999f, 0.001f); break;
    }
    p->sink = (double)s;
    return 2.0 * FMA_CHAINS * isa_lanes[p->isa] * (double)reps;
}

static double run_dot(struct probe_bufs *p, uint64_t reps)
{
    uint32_t s;
    switch (p->isa) {
#if PROBE_X86
    case ISA_AVX512: s = dot_avx512(p->qx, p->qy, reps); break;
    case ISA_AVX2: s = dot_avx2(p->qx, p->qy, reps); break;
#endif
    default: s = dot_generic(p->qx, p->qy, reps); break;
    }
    p->sink = (double)s;
    return 2.0 * DOT_K * (double)reps;
}

static double run_vec(struct probe_bufs *p, uint64_t reps)
{
    switch (p->isa) {
#if PROBE_X86
    case ISA_AVX512: vec_avx512(p->vx, p->vy, reps); break;
    case ISA_AVX2: vec_avx2(p->vx, p->vy, reps); break;
#endif
    default: vec_generic(p->vx, p->vy, reps); break;
    }
    p->sink = (double)p->vx[reps % VEC_N];
    return 2.0 * 3.0 * VEC_N * (double)reps;
}

static double run_triad(struct probe_bufs *p, uint64_t reps)
{
    for (uint64_t r = 0; r < reps; r++) {
        double s = 3.0 - (double)(r & 1); /* vary the scalar so passes differ */
        switch (p->isa) {
#if PROBE_X86
        case ISA_AVX512: triad_avx512(p->ta, p->tb, p->tc, p->tblocks, s); break;
        case ISA_AVX2: triad_avx2(p->ta, p->tb, p->tc, p->tblocks, s); break;
#endif
        default: triad_generic(p->ta, p->tb, p->tc, p->tblocks, s); break;
        }
    }
    p->sink = p->ta[(size_t)(reps % TRIAD_BLOCK)];
    return 3.0 * sizeof(double) * TRIAD_BLOCK * (double)p->tblocks * (double)reps;
}

/* ---- timing loop and progress ---- */

struct probe_run {
    double t0, budget, hard_end;
    void (*progress)(void *arg, double fraction, const char *what);
    void *arg;
};

static void report(const struct probe_run *pr, const char *what)
{
    if (!pr->progress) return;
    double f = (now_s() - pr->t0) / pr->budget;
    pr->progress(pr->arg, f < 0 ? 0 : f > 0.99 ? 0.99 : f, what);
}

/* Repeats fn for about phase_s seconds and returns the best rate (work per second) of its trials. The number of
 * repetitions per trial grows from reps0 until one trial takes about phase_s / 8; at least min_trials trials of that
 * length run unless the probe's hard end (30 s) comes first. */
static double best_rate(const struct probe_run *pr, const char *what, double phase_s, struct probe_bufs *p,
                        double (*fn)(struct probe_bufs *, uint64_t), uint64_t reps0, int min_trials)
{
    double start = now_s(), trial_s = phase_s / 8, best = 0;
    if (trial_s < 0.02) trial_s = 0.02;
    uint64_t reps = reps0 ? reps0 : 1;
    int full = 0;
    report(pr, what);
    for (;;) {
        double t = now_s();
        double work = fn(p, reps);
        double t1 = now_s(), dt = t1 - t;
        if (dt > 0 && work / dt > best) best = work / dt;
        if (dt >= trial_s * 0.5)
            full++;
        else if (reps < (UINT64_C(1) << 40)) {
            /* aim at trial_s: scale by the ratio, at most 16x at a time */
            double k = dt > 0 ? trial_s / dt : 16;
            reps = (uint64_t)((double)reps * (k > 16 ? 16 : k < 2 ? 2 : k));
        }
        report(pr, what);
        if (t1 >= pr->hard_end) break;
        if (t1 - start >= phase_s && full >= min_trials) break;
    }
    return best;
}

/* ---- machine facts ---- */

/* "2048K", "105M", "1G" (sysfs cache sizes) -> bytes; 0 when malformed. */
static double parse_cache_size(const char *s)
{
    char *end;
    double v = c_strtod(s, &end);
    if (end == s || !(v > 0)) return 0;
    switch (*end) {
    case 'K':
    case 'k': return v * 1024;
    case 'M':
    case 'm': return v * 1024 * 1024;
    case 'G':
    case 'g': return v * 1024 * 1024 * 1024;
    default: return v;
    }
}

static int read_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int ok = fgets(buf, (int)n, f) != NULL;
    fclose(f);
    if (ok) buf[strcspn(buf, "\r\n")] = 0;
    return ok;
}

/* L2 size (per core: an L2 instance belongs to one core on the CPUs this targets) and the last level's size. */
static void cache_sizes(double *l2, double *llc)
{
    *l2 = *llc = 0;
    int llc_level = 0;
    for (int i = 0; i < 16; i++) {
        char path[128], level[16], type[32], size[32];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!read_line(path, level, sizeof level)) break;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!read_line(path, type, sizeof type) || !strcmp(type, "Instruction")) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!read_line(path, size, sizeof size)) continue;
        int lv = atoi(level);
        double bytes = parse_cache_size(size);
        if (lv == 2) *l2 = bytes;
        if (lv >= llc_level && bytes > 0) llc_level = lv, *llc = bytes;
    }
#ifdef _SC_LEVEL2_CACHE_SIZE
    if (!(*l2 > 0)) {
        long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
        if (v > 0) *l2 = (double)v;
    }
#endif
#ifdef _SC_LEVEL3_CACHE_SIZE
    if (!(*llc > 0)) {
        long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
        if (v > 0) *llc = (double)v;
    }
#endif
    if (!(*l2 > 0)) *l2 = 1024.0 * 1024; /* unknown: 1 MiB, a common L2 size */
    if (!(*llc > 0) || *llc < *l2) *llc = *l2 > 32.0 * 1024 * 1024 ? *l2 : 32.0 * 1024 * 1024;
}

static void cpu_model(char *out, size_t n)
{
    snprintf(out, n, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) && strncmp(line, "Processor", 9) && strncmp(line, "uarch", 5))
            continue;
        char *c = strchr(line, ':');
        if (!c) continue;
        c++;
        while (*c == ' ' || *c == '\t') c++;
        c[strcspn(c, "\r\n")] = 0;
        for (char *q = c; *q; q++)
            if ((unsigned char)*q < 0x20 || *q == '"' || *q == '\\') *q = ' ';
        if (*c) {
            snprintf(out, n, "%s", c);
            break;
        }
    }
    fclose(f);
}

static void *alloc64(size_t bytes)
{
    size_t n = (bytes + 63) / 64 * 64;
    return aligned_alloc(64, n ? n : 64);
}

/* ---- the probe ---- */

/* Measures this machine on one thread within about budget_s seconds (<= 0: 10 s; clamped to [1, 30]) and fills
 * out: name "host", the CPU model, peak_ops fp32 (FMA loop) and int8 (a compiled int8 multiply-accumulate loop:
 * what plain C code reaches, not the VNNI/AMX peak), vector_ops, ddr_bandwidth (triad over arrays >= 4x the
 * last-level cache), sram_bytes = L2 per core and sram_bandwidth (triad in L2); efficiency 1 everywhere, overlap on,
 * no fallback, per-layer overhead 0 (calibration fits it). default_dtype fp32.
 * progress (may be NULL) is called from this thread with the overall fraction done (0..1) and the phase's name.
 * info (may be NULL) receives the raw figures. Errors: NNPERF_E_NOMEM when the triad arrays cannot be allocated,
 * NNPERF_E_USAGE for a NULL out. */
static enum nnperf_status hw_probe_ex(struct hw_desc *out, double budget_s,
                                      void (*progress)(void *arg, double fraction, const char *what),
                                      void *arg, struct hw_probe_info *info, struct diag *d)
{
    if (!out) return diag_set(d, NNPERF_E_USAGE, "hw_probe: no output description");
    if (!(budget_s > 0)) budget_s = 10;
    if (budget_s < 1) budget_s = 1;
    if (budget_s > 30) budget_s = 30;

    struct probe_run pr;
    pr.t0 = now_s();
    pr.budget = budget_s;
    pr.hard_end = pr.t0 + 30; /* the whole probe stays under 30 s whatever the machine */
    pr.progress = progress;
    pr.arg = arg;

    struct probe_bufs p;
    memset(&p, 0, sizeof p);
    p.isa = detect_isa();

    double l2, llc;
    cache_sizes(&l2, &llc);

    /* DDR triad arrays: >= 4x the last-level cache each (at least 64 MiB), at most 1 GiB and 1/16 of the RAM */
    double want = 4 * llc;
    if (want < 64.0 * 1024 * 1024) want = 64.0 * 1024 * 1024;
    if (want > 1024.0 * 1024 * 1024) want = 1024.0 * 1024 * 1024;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0 && want > (double)pages * (double)psz / 16)
        want = (double)pages * (double)psz / 16;
    size_t ddr_blocks = (size_t)(want / (TRIAD_BLOCK * sizeof(double)));
    if (ddr_blocks < 16) ddr_blocks = 16;
    /* L2 triad arrays: the three fill half of L2 */
    size_t l2_blocks = (size_t)(l2 / 6 / (TRIAD_BLOCK * sizeof(double)));
    if (l2_blocks < 1) l2_blocks = 1;

    enum nnperf_status st = NNPERF_OK;
    size_t ddr_elems = ddr_blocks * TRIAD_BLOCK, l2_elems = l2_blocks * TRIAD_BLOCK;
    double *big[3] = {NULL, NULL, NULL}, *small[3] = {NULL, NULL, NULL};
    p.qx = alloc64(DOT_K);
    p.qy = alloc64(DOT_K);
    p.vx = alloc64(VEC_N * sizeof(float));
    p.vy = alloc64(VEC_N * sizeof(float));
    for (int i = 0; i < 3; i++) {
        small[i] = alloc64(l2_elems * sizeof(double));
        big[i] = alloc64(ddr_elems * sizeof(double));
    }
    int ok = p.qx && p.qy && p.vx && p.vy;
    for (int i = 0; i < 3; i++) ok = ok && small[i] && big[i];
    if (!ok) {
        st = diag_set(d, NNPERF_E_NOMEM, "probe: cannot allocate 3 x %.0f MiB for the memory bandwidth test",
                      (double)ddr_elems * sizeof(double) / (1024.0 * 1024));
        goto done;
    }
    for (int i = 0; i < DOT_K; i++) {
        p.qx[i] = (int8_t)((i * 37) % 255 - 127);
        p.qy[i] = (int8_t)((i * 101) % 251 - 125);
    }
    for (int i = 0; i < VEC_N; i++) p.vx[i] = (float)(i % 100) * 0.01f, p.vy[i] = 0;
    for (size_t k = 0; k < l2_elems; k++) small[0][k] = 0, small[1][k] = 1, small[2][k] = 2;

    double fp32 = best_rate(&pr, "fp32 FMA loop", 0.2 * budget_s, &p, run_fma, 1000, 3);
    double int8 = best_rate(&pr, "int8 dot product", 0.12 * budget_s, &p, run_dot, 100, 3);
    double vec = best_rate(&pr, "fp32 element-wise", 0.1 * budget_s, &p, run_vec, 100, 3);
    p.ta = small[0], p.tb = small[1], p.tc = small[2], p.tblocks = l2_blocks;
    double l2bw = best_rate(&pr, "L2 bandwidth (triad)", 0.08 * budget_s, &p, run_triad, 10, 3);

    /* b and c are read: touch their pages first (page faults are not bandwidth, and untouched pages would all read
     * the shared zero page); a is faulted in by the first pass, which is then slow and never the best. What is left
     * of the budget goes here, page touching included. */
    report(&pr, "DDR bandwidth (triad)");
    for (int i = 1; i < 3; i++) {
        double v = (double)i;
        for (size_t k = 0; k < ddr_elems; k++) big[i][k] = v;
        report(&pr, "DDR bandwidth (triad)");
    }
    p.ta = big[0], p.tb = big[1], p.tc = big[2], p.tblocks = ddr_blocks;
    double left = pr.t0 + budget_s - now_s();
    double ddrbw = best_rate(&pr, "DDR bandwidth (triad)", left > 0.5 ? left : 0.5, &p, run_triad, 1, 2);

    if (!(fp32 > 0) || !(ddrbw > 0)) {
        st = diag_set(d, NNPERF_E_UNSUPPORTED, "probe: the clock did not advance while measuring");
        goto done;
    }

    double secs = now_s() - pr.t0;
    char cpu[160];
    cpu_model(cpu, sizeof cpu);
    hw_init(out);
    snprintf(out->name, sizeof out->name, "host");
    snprintf(out->description, sizeof out->description, "this machine, one thread: %s", cpu);
    time_t tt = time(NULL);
    struct tm tmv;
    char date[32] = "unknown date";
    if (gmtime_r(&tt, &tmv)) strftime(date, sizeof date, "%Y-%m-%d", &tmv);
    c_snprintf(
        out->source, sizeof out->source,
        "nnperf probe, %s, %.1f s, %s kernels: fp32 = vectorized FMA loop; int8 = compiled int8 dot product "
        "(not the VNNI/AMX peak); vector_ops = fp32 max(x*s+t,0) in L1; ddr_bandwidth = STREAM triad over "
        "3 x %.0f MiB (24 B/element); sram = L2 per core, bandwidth = triad in L2; kernel costs: 8, 8 and 4 "
        "bytes "
        "per element through L2 (ASSUMPTION until nnperf calibrate fits them, docs/prediction.md). Before "
        "calibration.",
        date, secs, isa_names[p.isa], (double)ddr_elems * sizeof(double) / (1024.0 * 1024));
    out->cores = 1;
    out->peak_ops[HW_FP32] = fp32;
    out->peak_ops[HW_INT8] = int8;
    out->default_dtype = HW_FP32;
    out->vector_ops = vec;
    out->sram_bytes = l2;
    out->sram_bw = l2bw;
    out->ddr_bw = ddrbw;
    out->ddr_eff = 1;
    out->eff_default = 1;
    /* the CPU's kernels (kernel-cost compute model, docs/prediction.md): MACs at the probed peak, and per-element
     * costs first guessed as traffic through L2 (an accumulator stored and reloaded, an activation pass read and
     * written: 8 bytes; an element of a layer without MACs: 4 bytes); nnperf calibrate fits all of them. A CPU
     * writes and re-reads its activations around each kernel: they do not overlap compute. */
    if (l2bw > 0) out->kc.output_s = 8 / l2bw, out->kc.pass_s = 8 / l2bw, out->kc.element_s = 4 / l2bw;
    out->overlap = 0;
    out->layer_overhead_s = 0;
    out->fb.present = 0;
    snprintf(out->assume[out->n_assume++], HW_MAX_KEY, "compute.kernel_costs");
    st = hw_validate(out, "probe", d);
    if (st == NNPERF_OK && info) {
        info->isa = isa_names[p.isa];
        info->fp32_ops = fp32;
        info->int8_ops = int8;
        info->vector_ops = vec;
        info->l2_bw = l2bw;
        info->ddr_bw = ddrbw;
        info->l2_bytes = l2;
        info->llc_bytes = llc;
        info->triad_bytes = (double)ddr_elems * sizeof(double);
        info->seconds = secs;
    }
    if (st == NNPERF_OK && progress) progress(arg, 1.0, "done");

done:
    free(p.qx);
    free(p.qy);
    free(p.vx);
    free(p.vy);
    for (int i = 0; i < 3; i++) free(small[i]), free(big[i]);
    return st;
}

/* Same, without the raw figures. */
static enum nnperf_status hw_probe(struct hw_desc *out, double budget_s,
                                   void (*progress)(void *arg, double fraction, const char *what), void *arg,
                                   struct diag *d)
{
    return hw_probe_ex(out, budget_s, progress, arg, NULL, d);
}

/* ---- public wrapper (nnperf.h) ---- */

enum nnperf_status nnperf_probe_host(double budget_s, void (*progress)(void *, double, const char *),
                                     void *arg, char **yaml_out, size_t *len, char *err, size_t errlen)
{
    if (yaml_out) *yaml_out = NULL;
    if (len) *len = 0;
    if (!yaml_out) {
        if (err && errlen) snprintf(err, errlen, "nnperf_probe_host: missing output argument");
        return NNPERF_E_USAGE;
    }
    struct hw_desc *hw = malloc(sizeof *hw);
    if (!hw) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    struct diag d = {NNPERF_OK, {0}};
    enum nnperf_status st = hw_probe(hw, budget_s, progress, arg, &d);
    if (st != NNPERF_OK) {
        if (err && errlen) snprintf(err, errlen, "%s", d.msg);
        free(hw);
        return st;
    }
    struct strbuf sb;
    sb_init(&sb, 1u << 20);
    hw_write_yaml(hw, &sb);
    free(hw);
    if (sb.overflow || !sb.p) {
        sb_free(&sb);
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    *yaml_out = sb.p; /* malloc'd by the strbuf: the caller frees it */
    if (len) *len = sb.len;
    return NNPERF_OK;
}
