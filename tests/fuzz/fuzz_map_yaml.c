/* fuzz_map_yaml.c - libFuzzer harness for the ai8x-synthesis YAML that `nnperf map --format yaml` writes: the input
 * gives the model path and every layer's node names (NUL-separated strings: path, then name and nodes per layer),
 * set on the plan of models/mcu/cifar10_residual.onnx and models/mcu/kws20_conv1d.onnx (the first byte picks one).
 * Whatever the names hold (line breaks, ": ", " #", quotes, control characters, bytes that are not UTF-8), the
 * written text must parse with libyaml into as many layers as the plan has, each with the plan's processors and
 * operation, and an arch equal to the file's base name when that name is printable (a finding: abort). The text
 * tables (map's table) must hold no control character but the line break. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/core.h"
#include "mcu/mcu.h"
#include "nnperf.h"

#ifndef NNPERF_SOURCE_DIR
#define NNPERF_SOURCE_DIR "."
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define N_MODELS 2
static struct nnperf_model *models[N_MODELS];
static struct nnperf_analysis *analyses[N_MODELS];
static struct nnperf_mcu_plan *plans[N_MODELS];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    static const char *const names[N_MODELS] = {"cifar10_residual", "kws20_conv1d"};
    char path[1024], err[512];
    for (int i = 0; i < N_MODELS; i++) {
        snprintf(path, sizeof path, "%s/models/mcu/%s.onnx", NNPERF_SOURCE_DIR, names[i]);
        if (nnperf_model_load(path, NULL, &models[i], err, sizeof err) != NNPERF_OK ||
            nnperf_analyze(models[i], NULL, &analyses[i], err, sizeof err) != NNPERF_OK ||
            nnperf_map(analyses[i], "max78000", 8, &plans[i], err, sizeof err) != NNPERF_OK) {
            fprintf(stderr, "fuzz_map_yaml: %s\n", err);
            abort();
        }
    }
    return 0;
}

static const char *scalar(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = yaml_document_get_node(doc, pr->key), *v = yaml_document_get_node(doc, pr->value);
        if (k && v && k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE &&
            !strcmp((const char *)k->data.scalar.value, key))
            return (const char *)v->data.scalar.value;
    }
    return NULL;
}

static void check_yaml(const struct mcu_plan *p, const char *text, size_t len)
{
    yaml_parser_t ps;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&ps)) abort();
    yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
    if (!yaml_parser_load(&ps, &doc)) {
        fprintf(stderr, "fuzz_map_yaml: not YAML: %s (line %zu)\n%s\n", ps.problem ? ps.problem : "?",
                ps.problem_mark.line + 1, text);
        abort();
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc), *layers = NULL;
    if (!root || root->type != YAML_MAPPING_NODE) abort();
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
        if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, "layers"))
            layers = yaml_document_get_node(&doc, pr->value);
    }
    if (root->data.mapping.pairs.top - root->data.mapping.pairs.start != 3)
        abort(); /* arch, dataset, layers */
    if (!layers || layers->type != YAML_SEQUENCE_NODE) abort();
    if (layers->data.sequence.items.top - layers->data.sequence.items.start != p->n_layers) {
        fprintf(stderr, "fuzz_map_yaml: %d layers written as %d\n%s\n", p->n_layers,
                (int)(layers->data.sequence.items.top - layers->data.sequence.items.start), text);
        abort();
    }
    for (int i = 0; i < p->n_layers; i++) {
        yaml_node_t *l = yaml_document_get_node(&doc, layers->data.sequence.items.start[i]);
        char want[32];
        snprintf(want, sizeof want, "0x%016llx", (unsigned long long)p->layers[i].in_mask);
        const char *got = scalar(&doc, l, "processors");
        if (!got || strcmp(got, want)) abort();
        if (!scalar(&doc, l, "operation")) abort();
    }
    const char *model = p->model, *base = strrchr(model, '/');
    base = base ? base + 1 : model;
    size_t blen = strlen(base);
    if (blen > 5 && !strcmp(base + blen - 5, ".onnx")) blen -= 5;
    const char *arch = scalar(&doc, root, "arch");
    if (!arch) abort();
    char *b = strndup(base, blen);
    if (!b) abort();
    if (core_text_plain(b) && strcmp(arch, b)) {
        fprintf(stderr, "fuzz_map_yaml: arch '%s', expected '%s'\n", arch, b);
        abort();
    }
    free(b);
    yaml_document_delete(&doc);
    yaml_parser_delete(&ps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) return 0;
    struct mcu_plan *p = mcu_plan_of(plans[data[0] % N_MODELS]);
    char *text = malloc(size); /* the strings, NUL-terminated (the last one too) */
    if (!text) abort();
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    const char *s[1 + 2 * 64];
    int n = 0;
    for (size_t i = 0; i < size - 1 && n < (int)(sizeof s / sizeof s[0]); i += strlen(text + i) + 1)
        s[n++] = text + i;
    /* the plan's own strings, put back afterwards */
    const char *model = p->model;
    const char *names[64], *nodes[64];
    int nl = p->n_layers < 64 ? p->n_layers : 64;
    for (int i = 0; i < nl; i++) names[i] = p->layers[i].name, nodes[i] = p->layers[i].nodes;
    if (n > 0) p->model = s[0];
    for (int i = 0; i < nl && 1 + 2 * i < n; i++) {
        p->layers[i].name = s[1 + 2 * i];
        if (2 + 2 * i < n) p->layers[i].nodes = s[2 + 2 * i];
    }
    struct strbuf sb;
    sb_init(&sb, (size_t)1 << 26);
    if (mcu_render(p, "yaml", &sb) != NNPERF_OK || sb.overflow || !sb.p) abort();
    check_yaml(p, sb.p, sb.len);
    sb.len = 0;
    if (mcu_render(p, "table", &sb) != NNPERF_OK || sb.overflow || !sb.p) abort();
    for (const char *q = sb.p; *q;) {
        int c = *q == '\n' ? 1 : core_text_char(q);
        if (!c) abort(); /* a control character reached the text table */
        q += c;
    }
    sb_free(&sb);
    p->model = model;
    for (int i = 0; i < nl; i++) p->layers[i].name = names[i], p->layers[i].nodes = nodes[i];
    free(text);
    return 0;
}
