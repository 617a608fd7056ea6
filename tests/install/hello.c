/* hello.c - the smallest program against an installed libnnperf (tests/install/check_install.sh builds it with
 * pkg-config and with CMake's find_package): loads a model, analyses it and prints its MACs. */
#include <nnperf.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    char err[512];
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    struct nnperf_summary s;
    if (argc != 2 || nnperf_model_load(argv[1], NULL, &m, err, sizeof err) != NNPERF_OK) return 2;
    if (nnperf_analyze(m, NULL, &a, err, sizeof err) != NNPERF_OK) return 2;
    nnperf_analysis_summary(a, &s);
    printf("nnperf %s: %llu MACs\n", nnperf_version(), (unsigned long long)s.macs);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
    return 0;
}
