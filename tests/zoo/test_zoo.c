/* test_zoo.c - the real-model acceptance checks over models/ (torchvision exports, opset 13, weights stripped):
 * with the model's own value_info ignored, every tensor resolves to concrete dims, every node is counted, and
 * summary.macs equals the conv/linear/matmul MACs of torchvision's counting method (models/reference.csv, made by
 * models/make_models.py) exactly, and torchvision's published "_ops" to 3 decimals where
 * the torchvision documentation publishes it (docs/sources.md [TORCHVISION-MODELS]).
 * usage: test_zoo MODELS_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnperf.h"
#include "tinytest.h"

/* torchvision meta["_ops"] in G-MACs, as the torchvision documentation publishes them (docs/sources.md
 * [TORCHVISION-MODELS]) */
static const struct {
    const char *model;
    double gmacs;
} published[] = {
    {"resnet18", 1.814},        {"resnet50", 4.089},  {"mobilenet_v2", 0.301}, {"mobilenet_v3_large", 0.217},
    {"efficientnet_b0", 0.386}, {"googlenet", 1.498}, {"vgg16", 15.47},
};

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "models";
    char path[4096];
    snprintf(path, sizeof path, "%s/reference.csv", dir);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f) return tt_done();
    char line[1024];
    int models = 0;
    if (!fgets(line, sizeof line, f)) line[0] = 0; /* header */
    while (fgets(line, sizeof line, f)) {
        char name[128], input[64];
        double gmacs;
        unsigned long long macs, params;
        if (sscanf(line, "%127[^,],%63[^,],%lf,%llu,%llu", name, input, &gmacs, &macs, &params) != 5)
            continue;
        snprintf(path, sizeof path, "%s/%s.onnx", dir, name);
        char err[1024];
        struct nnperf_load_options lo = {NNPERF_LOAD_DROP_VALUE_INFO};
        struct nnperf_model *m;
        if (nnperf_model_load(path, &lo, &m, err, sizeof err) != NNPERF_OK) {
            fprintf(stderr, "%s\n", err);
            CHECK(0);
            continue;
        }
        struct nnperf_analysis *a;
        if (nnperf_analyze(m, NULL, &a, err, sizeof err) != NNPERF_OK) {
            fprintf(stderr, "%s\n", err);
            CHECK(0);
            nnperf_model_free(m);
            continue;
        }
        struct nnperf_summary s;
        nnperf_analysis_summary(a, &s);
        models++;
        printf("%-20s nodes %5d  unknown tensors %4d  unknown nodes %3d  MACs %llu (reference %llu)\n", name,
               s.nodes, s.unknown_tensors, s.unknown_nodes, (unsigned long long)s.macs, macs);
        CHECK_EQ_U(s.unknown_tensors, 0);
        CHECK_EQ_U(s.unknown_nodes, 0);
        CHECK_EQ_U(s.macs, macs);
        CHECK_EQ_U(s.conv_gemm_matmul_macs, s.macs);
        for (size_t i = 0; i < sizeof published / sizeof published[0]; i++)
            if (!strcmp(published[i].model, name)) {
                double g = round((double)s.macs / 1e6) / 1e3;
                if (fabs(g - published[i].gmacs) > 1e-9)
                    fprintf(stderr, "%s: %.3f G-MACs, torchvision publishes %.3f\n", name, g,
                            published[i].gmacs);
                CHECK(fabs(g - published[i].gmacs) < 1e-9);
            }
        nnperf_analysis_free(a);
        nnperf_model_free(m);
    }
    fclose(f);
    printf("zoo: %d models checked\n", models);
    CHECK(models >= 7);
    return tt_done();
}
