/* cmd_probe.c - `nnperf probe`: measures this machine (one thread: fp32 and int8 compute, element-wise throughput, L2
 * and DDR bandwidth) and writes the result as a platform YAML file, the starting point of calibration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

struct probe_progress {
    int tty;
    char last[64]; /* last phase printed */
};

static void on_progress(void *arg, double fraction, const char *what)
{
    struct probe_progress *pp = arg;
    if (pp->tty) {
        int width = 30, filled = (int)(fraction * width + 0.5);
        if (filled > width) filled = width;
        char bar[32];
        for (int i = 0; i < width; i++) bar[i] = i < filled ? '#' : '.';
        bar[width] = 0;
        fprintf(stderr, "\r[%s] %3d%%  %-28s", bar, (int)(fraction * 100 + 0.5), what);
        if (fraction >= 1) fputc('\n', stderr);
        fflush(stderr);
    } else if (strcmp(pp->last, what) != 0) {
        snprintf(pp->last, sizeof pp->last, "%s", what);
        fprintf(stderr, "probe: %3d%% %s\n", (int)(fraction * 100 + 0.5), what);
    }
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cmd_probe(const struct cli_args *a)
{
    const char *out = cli_str(a, OPT_OUTPUT);
    double seconds = a->v[OPT_SECONDS].n ? a->v[OPT_SECONDS].d[0] : 10;
    struct probe_progress pp;
    memset(&pp, 0, sizeof pp);
    pp.tty = isatty(fileno(stderr));
    char err[1024], *yaml = NULL;
    size_t len = 0;
    double t0 = mono_s();
    enum nnperf_status st = nnperf_probe_host(seconds, on_progress, &pp, &yaml, &len, err, sizeof err);
    double took = mono_s() - t0;
    if (st != NNPERF_OK) {
        if (pp.tty) fputc('\n', stderr);
        cli_error("probe: %s", err);
        return 2;
    }
    int rc = cli_write_output(a, yaml, len);
    free(yaml);
    if (rc) return rc;
    if (out && strcmp(out, "-")) {
        /* read the file back: checks that it loads, and gives the figures for the summary line */
        struct nnperf_platform *p;
        if (nnperf_platform_load(out, &p, err, sizeof err) != NNPERF_OK) {
            cli_error("probe: '%s' was written but does not load back: %s", out, err);
            return 2;
        }
        struct nnperf_platform_info info;
        nnperf_platform_info(p, &info);
        fprintf(stderr,
                "probe: fp32 %.1f GFLOP/s, int8 %.1f GOP/s, DDR %.2f GB/s, L2 %.0f KiB; %.1f s -> %s\n",
                info.peak_fp32 / 1e9, info.peak_int8 / 1e9, info.ddr_bandwidth / 1e9, info.sram_bytes / 1024,
                took, out);
        nnperf_platform_free(p);
    } else {
        fprintf(stderr, "probe: done in %.1f s\n", took);
    }
    return 0;
}
