/* test_hostile_text.c - names from a model cannot change what nnperf writes for people or for tools (issue 19):
 *  - `nnperf map --format yaml`: a node name with a line break and a whole ai8x layer after it, or ": " and " #",
 *    and a model file named "a: b #c.onnx", leave the description's layers as they are (parsed here with libyaml);
 *  - tables and CSV (analysis, prediction, map): no control character but the line break, no byte that is not
 *    UTF-8; ESC comes out as the text \x1b.
 * Models: tests/data/text/ (make_models.py there). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "common/onnx_build.h"
#include "core/core.h"
#include "nnperf.h"
#include "tinytest.h"

/* the top mapping's "layers" sequence length and its "arch" value (arch: NUL-terminated, at most 255 bytes);
 * -1 when the text is not YAML or has no such keys */
static int yaml_layers(const char *text, size_t len, char *arch)
{
    yaml_parser_t p;
    yaml_document_t doc;
    int n = -1;
    arch[0] = 0;
    if (!yaml_parser_initialize(&p)) return -1;
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    if (yaml_parser_load(&p, &doc)) {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root && root->type == YAML_MAPPING_NODE)
            for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top;
                 pr++) {
                yaml_node_t *k = yaml_document_get_node(&doc, pr->key),
                            *v = yaml_document_get_node(&doc, pr->value);
                if (!k || !v || k->type != YAML_SCALAR_NODE) continue;
                const char *key = (const char *)k->data.scalar.value;
                if (!strcmp(key, "layers") && v->type == YAML_SEQUENCE_NODE)
                    n = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
                if (!strcmp(key, "arch") && v->type == YAML_SCALAR_NODE)
                    snprintf(arch, 256, "%s", (const char *)v->data.scalar.value);
            }
        yaml_document_delete(&doc);
    } else {
        fprintf(stderr, "not YAML: %s at line %zu\n", p.problem ? p.problem : "?", p.problem_mark.line + 1);
    }
    yaml_parser_delete(&p);
    return n;
}

struct run {
    struct nnperf_model *m;
    struct nnperf_analysis *a;
};

static int load(const char *path, struct run *r)
{
    char err[512];
    memset(r, 0, sizeof *r);
    if (nnperf_model_load(path, NULL, &r->m, err, sizeof err) ||
        nnperf_analyze(r->m, NULL, &r->a, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", path, err);
        return 0;
    }
    return 1;
}

static void run_free(struct run *r)
{
    nnperf_analysis_free(r->a);
    nnperf_model_free(r->m);
}

/* map's YAML of the model at path: its layer count and arch */
static int map_layers(const char *path, char *arch)
{
    struct run r;
    int n = -1;
    if (!load(path, &r)) return -1;
    struct nnperf_mcu_plan *plan = NULL;
    char err[512], *out = NULL;
    size_t len = 0;
    if (nnperf_map(r.a, "max78000", 8, &plan, err, sizeof err) == NNPERF_OK &&
        nnperf_mcu_plan_render(plan, "yaml", &out, &len, err, sizeof err) == NNPERF_OK) {
        n = yaml_layers(out, len, arch);
        /* the names went into comments, made printable: no raw ESC, DEL or line break of a name */
        CHECK(!strchr(out, '\033') && !strchr(out, '\177'));
        free(out);
    } else {
        fprintf(stderr, "%s: %s\n", path, err);
    }
    nnperf_mcu_plan_free(plan);
    run_free(&r);
    return n;
}

static void test_map_yaml(void)
{
    char arch[256];
    int want = map_layers("models/mcu/cifar10_residual.onnx", arch);
    CHECK(want > 3);
    CHECK_STR(arch, "cifar10_residual");
    /* node names with a line break followed by a layer, ": " and " #", ESC, DEL, C1, a byte that is not UTF-8 */
    CHECK_EQ_U(map_layers("tests/data/text/names.onnx", arch), want);
    CHECK_STR(arch, "names");
    /* a model file named with ": " and " #" */
    char dir[] = "/tmp/nnperf-text.XXXXXX", path[128];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/a: b #c.onnx", dir);
    size_t len;
    unsigned char *buf = NULL;
    FILE *in = fopen("models/mcu/cifar10_residual.onnx", "rb"), *out = fopen(path, "wb");
    CHECK(in && out);
    if (in && out) {
        buf = malloc(1 << 20);
        len = fread(buf, 1, 1 << 20, in);
        CHECK(fwrite(buf, 1, len, out) == len);
    }
    if (in) fclose(in);
    if (out) fclose(out);
    free(buf);
    CHECK_EQ_U(map_layers(path, arch), want);
    CHECK_STR(arch, "a: b #c");
    unlink(path);
    rmdir(dir);
}

/* text for people: every byte printable UTF-8 or a line break */
static int printable(const char *s, size_t len)
{
    if (strlen(s) != len) return 0;
    for (const char *p = s; *p;) {
        int n = *p == '\n' ? 1 : core_text_char(p);
        if (!n) {
            fprintf(stderr, "unprintable byte 0x%02x at %zu: ...%.40s\n", (unsigned char)*p, (size_t)(p - s),
                    p > s + 40 ? p - 40 : s);
            return 0;
        }
        p += n;
    }
    return 1;
}

static void test_tables(void)
{
    struct run r;
    char err[512], *out;
    size_t len;
    const char *models[] = {"tests/data/text/names.onnx", "tests/data/text/dims.onnx"};
    for (int i = 0; i < 2; i++) {
        if (!load(models[i], &r)) {
            CHECK(0);
            continue;
        }
        enum nnperf_format fmts[] = {NNPERF_FORMAT_TABLE, NNPERF_FORMAT_CSV};
        for (int f = 0; f < 2; f++) {
            CHECK(nnperf_analysis_render(r.a, fmts[f], &out, &len, err, sizeof err) == NNPERF_OK);
            CHECK(printable(out, len));
            CHECK(strstr(out, "\\x1b") != NULL); /* ESC is shown as text */
            free(out);
        }
        struct nnperf_platform *pl = NULL;
        struct nnperf_prediction *p = NULL;
        CHECK(nnperf_platform_load("zcu102-dpu", &pl, err, sizeof err) == NNPERF_OK);
        if (pl && nnperf_predict(r.a, pl, NULL, &p, err, sizeof err) == NNPERF_OK) {
            for (int f = 0; f < 2; f++) {
                CHECK(nnperf_prediction_render(p, fmts[f], &out, &len, err, sizeof err) == NNPERF_OK);
                CHECK(printable(out, len));
                free(out);
            }
        }
        nnperf_prediction_free(p);
        nnperf_platform_free(pl);
        if (i == 0) {
            struct nnperf_mcu_plan *plan = NULL;
            CHECK(nnperf_map(r.a, "max78000", 8, &plan, err, sizeof err) == NNPERF_OK);
            if (plan) {
                CHECK(nnperf_mcu_plan_render(plan, "table", &out, &len, err, sizeof err) == NNPERF_OK);
                CHECK(printable(out, len));
                /* the node name's line break did not start a line: the faked layer is on the layer's line */
                CHECK(strstr(out, "\n  - processors") == NULL);
                free(out);
            }
            nnperf_mcu_plan_free(plan);
        }
        run_free(&r);
    }
}

static void test_escaper(void)
{
    struct strbuf sb;
    sb_init(&sb, 1 << 16);
    sb_put_text(&sb,
                "a\033[2Jb\nc\td\177e\xc2\x9b"
                "f\xff"
                "g\xe2\x82\xac"
                "h\xed\xa0\x80"
                "i\xc0\xaf"
                "j",
                NULL);
    CHECK_STR(sb.p, "a\\x1b[2Jb\\x0ac\\x09d\\x7fe\\xc2\\x9bf\\xffg\xe2\x82\xach\\xed\\xa0\\x80i\\xc0\\xafj");
    sb.len = 0;
    sb_put_text(&sb, "one\ntwo\033", "\n");
    CHECK_STR(sb.p, "one\ntwo\\x1b");
    sb_free(&sb);
    CHECK(core_text_plain("plain text, \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80"));
    CHECK(!core_text_plain("cut short \xe2\x82"));
    /* bidirectional controls: RLO (U+202E), LRI (U+2066), RLM (U+200F) and ALM (U+061C) are escaped byte by byte */
    sb_init(&sb, 1 << 16);
    sb_put_text(&sb, "fits\xe2\x80\xae:no\xe2\x81\xa6x\xe2\x80\x8fy\xd8\x9cz", NULL);
    CHECK_STR(sb.p, "fits\\xe2\\x80\\xae:no\\xe2\\x81\\xa6x\\xe2\\x80\\x8fy\\xd8\\x9cz");
    sb_free(&sb);
    CHECK(!core_text_plain("a\xe2\x80\xae"
                           "b"));
    CHECK(core_text_plain("arrow \xe2\x86\x92 and \xe2\x80\x94 dash")); /* U+2192, U+2014 stay */
}

/* a Relu over 2^30 x 2^29 float32 elements: 2^64 bits, once counted as 0 bytes with the cost known */
static void test_saturated(void)
{
    struct pbw w;
    pbw_init(&w, 1 << 20);
    size_t g = ob_begin(&w);
    int64_t dims[2] = {(int64_t)1 << 30, (int64_t)1 << 29};
    const char *x = "x", *y = "y";
    ob_value(&w, 0, x, dims, 2);
    ob_node(&w, "Relu", "relu", &x, 1, &y, 1);
    ob_value(&w, 1, y, dims, 2);
    ob_end(&w, g);
    char err[512], *out = NULL;
    size_t len;
    struct nnperf_model *m = NULL;
    struct nnperf_analysis *a = NULL;
    CHECK(nnperf_model_load_buffer(w.p, w.len, "big.onnx", NULL, NULL, &m, err, sizeof err) == NNPERF_OK);
    CHECK(m && nnperf_analyze(m, NULL, &a, err, sizeof err) == NNPERF_OK);
    if (a) {
        struct nnperf_summary s;
        nnperf_analysis_summary(a, &s);
        CHECK_EQ_U(s.unknown_nodes, 1);
        CHECK(nnperf_analysis_render(a, NNPERF_FORMAT_JSON, &out, &len, err, sizeof err) == NNPERF_OK);
        CHECK(out && strstr(out, "\"cost_known\":false,\"saturated\":true") &&
              strstr(out, "counts saturated"));
        free(out);
        struct nnperf_platform *pl = NULL;
        struct nnperf_prediction *p = NULL;
        CHECK(nnperf_platform_load("zcu102-dpu", &pl, err, sizeof err) == NNPERF_OK);
        /* --hw refuses and names the node, where it once priced the exabytes at DDR speed */
        CHECK(nnperf_predict(a, pl, NULL, &p, err, sizeof err) == NNPERF_E_USAGE);
        CHECK(!p && strstr(err, "node 'relu' (Relu)") && strstr(err, "saturated"));
        nnperf_prediction_free(p);
        nnperf_platform_free(pl);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
    pbw_free(&w);
}

int main(void)
{
    test_saturated();
    test_escaper();
    test_map_yaml();
    test_tables();
    return tt_done();
}
