/* conformance.c - shape inference against the ONNX backend node tests (Debian libonnx-testdata).
 * Method (issue 2): drop value_info and the declared shapes of graph outputs; give integer inputs of at most 64
 * elements as initializers (IR version 4 and later; a sequence input of integer tensors with at most 64 values in all
 * gets its elements, since a sequence cannot be an initializer); infer; compare each graph output's dims with the dims of
 * test_data_set_0/output_N.pb (for sequence outputs: element j's dims against the inferred element j when the
 * elements are known one by one, and their number must match; otherwise every element against the merged
 * element dims). Prints the pass count and writes the
 * failures to conformance-failures.txt in the working directory.
 * usage: conformance NODE_DIR [MIN_PASS] [TEST_NAME_FILTER] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "onnx/onnx.h"
#include "onnx/pb.h"
#include "common/testfiles.h"

/* dims of every tensor inside a SequenceProto / OptionalProto (field 3 tensors; 5 nested sequences) */
static int collect_tensors(struct ir_model *m, const uint8_t *p, size_t n, int is_optional,
                           struct ir_value *out, int cap, int *cnt)
{
    struct pb r = pb_make(p, n);
    struct pb_field f;
    const char *why;
    int rc;
    while ((rc = pb_next(&r, &f, &why)) == 1) {
        if (f.wire != PB_LEN) continue;
        if (f.num == 3 && *cnt < cap) {
            struct diag d = {0};
            memset(&out[*cnt], 0, sizeof out[*cnt]);
            if (ox_parse_tensor(m, f.data, f.len, &out[*cnt], &d)) return 0;
            (*cnt)++;
        } else if (f.num == 5 && is_optional) {
            if (!collect_tensors(m, f.data, f.len, 0, out, cap, cnt)) return 0;
        }
    }
    return rc == 0;
}

static int dims_match(const struct ir_value *inf, const struct ir_value *exp)
{
    if (inf->rank != exp->rank) return 0;
    for (int i = 0; i < inf->rank; i++)
        if (inf->dims[i].val < 0 || inf->dims[i].val != exp->dims[i].val) return 0;
    return 1;
}

static void describe(char *buf, size_t n, const struct ir_value *v)
{
    struct strbuf sb;
    sb_init(&sb, 1000);
    ir_format_shape(&sb, v, "x");
    snprintf(buf, n, "%s", sb.p ? sb.p : "?");
    sb_free(&sb);
}

/* returns 1 pass, 0 fail (reason in why) */
static int run_test(const char *dir, char *why, size_t whylen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/model.onnx", dir);
    struct nnperf_load_options lo = {NNPERF_LOAD_DROP_VALUE_INFO};
    struct nnperf_model *nm;
    char err[1024];
    if (nnperf_model_load(path, &lo, &nm, err, sizeof err) != NNPERF_OK) {
        snprintf(why, whylen, "load: %s", err);
        return 0;
    }
    struct ir_model *m = (struct ir_model *)nm;
    struct ir_graph *g = m->graph;
    unsigned char *bufs[64] = {0};
    int nb = 0;
    /* inputs in order, skipping those that are initializers */
    int k = 0;
    for (int i = 0; i < g->n_inputs && nb < 64; i++) {
        struct ir_value *v = g->inputs[i];
        if (v->flags & IR_V_INIT) continue;
        snprintf(path, sizeof path, "%s/test_data_set_0/input_%d.pb", dir, k++);
        size_t len;
        unsigned char *b = tf_read_file(path, &len);
        if (!b) continue;
        bufs[nb++] = b;
        if (v->type_kind == TK_SEQUENCE && m->ir_version >= 4) {
            /* The method's "integer inputs of at most 64 elements become initializers", for a sequence input: ONNX
             * cannot store a sequence as an initializer, so a non-empty sequence of integer tensors holding at most
             * 64 values in all gets its elements from the test input instead (2 tests: sequence_insert_at_*).
             * Float, empty or larger sequences stay unknown. */
            struct ir_value el[64];
            int cnt = 0, allint = 1;
            int64_t total = 0, n;
            if (!collect_tensors(m, b, len, 1, el, 64, &cnt) || cnt == 0) continue;
            for (int j = 0; j < cnt; j++) {
                allint &= ir_dtype_is_int(el[j].dtype);
                total = ir_numel(&el[j], &n) ? total + n : 1000;
            }
            if (!allint || total > 64) continue;
            struct ir_value **l = ar_calloc(&m->ar, (size_t)cnt, sizeof *l);
            if (!l) continue;
            for (int j = 0; j < cnt; j++) {
                if (!(l[j] = ar_alloc(&m->ar, sizeof **l))) break;
                *l[j] = el[j];
                l[j]->type_kind = TK_TENSOR;
            }
            if (!ir_set_elems(&m->ar, v, cnt, l)) continue;
            v->dtype = el[0].dtype;
            v->rank = el[0].rank;
            for (int j = 1; j < cnt; j++)
                if (el[j].rank != v->rank) v->rank = -1;
            v->dims = NULL;
            if (v->rank > 0 && (v->dims = ar_calloc(&m->ar, (size_t)v->rank, sizeof *v->dims)))
                for (int q = 0; q < v->rank; q++) {
                    v->dims[q] = el[0].dims[q];
                    for (int j = 1; j < cnt; j++)
                        if (el[j].dims[q].val != v->dims[q].val) v->dims[q] = IR_DIM_UNKNOWN;
                }
            continue;
        }
        if (v->type_kind != TK_TENSOR) continue;
        struct ir_value t = {0};
        struct diag d = {0};
        if (ox_parse_tensor(m, b, len, &t, &d)) continue;
        int64_t n;
        if (m->ir_version >= 4 && ir_dtype_is_int(t.dtype) && ir_numel(&t, &n) && n <= 64) {
            /* the value becomes an initializer: shape and data from the test input */
            v->dtype = t.dtype;
            v->rank = t.rank;
            v->dims = t.dims;
            v->init = t.init;
            v->flags |= IR_V_INIT;
        }
    }
    struct nnperf_analysis *an;
    int pass = 1;
    if (nnperf_analyze(nm, NULL, &an, err, sizeof err) != NNPERF_OK) {
        snprintf(why, whylen, "analyze: %s", err);
        pass = 0;
    } else {
        const struct ir_graph *ag =
            an_graph(&an->st); /* the analysis's graph: the model's is never written */
        for (int i = 0; i < ag->n_outputs && pass; i++) {
            const struct ir_value *v = ag->outputs[i];
            snprintf(path, sizeof path, "%s/test_data_set_0/output_%d.pb", dir, i);
            size_t len;
            unsigned char *b = tf_read_file(path, &len);
            if (!b) {
                snprintf(why, whylen, "missing %s", path);
                pass = 0;
                break;
            }
            struct ir_value exp[64];
            int cnt = 0;
            char a[256], e[256];
            if (v->type_kind == TK_SEQUENCE || v->type_kind == TK_OPTIONAL) {
                /* an optional sequence is typed a sequence (the loader's convention) while its expected value is
                 * an OptionalProto wrapping the SequenceProto (field 5): look inside it as for an optional */
                if (!collect_tensors(m, b, len, 1, exp, 64, &cnt)) {
                    snprintf(why, whylen, "output %d: cannot read expected sequence", i);
                    pass = 0;
                } else if (ir_elems(v) && ir_n_elems(v) >= 0) {
                    /* elements known one by one: element j against expected element j */
                    if (ir_n_elems(v) != cnt) {
                        snprintf(why, whylen,
                                 "output %d '%s': inferred a sequence of %d elements, expected %d", i,
                                 v->name, ir_n_elems(v), cnt);
                        pass = 0;
                    }
                    for (int j = 0; j < cnt && pass; j++)
                        if (!dims_match(ir_elems(v)[j], &exp[j])) {
                            describe(a, sizeof a, ir_elems(v)[j]);
                            describe(e, sizeof e, &exp[j]);
                            snprintf(why, whylen,
                                     "output %d '%s' (sequence element %d): inferred %s, expected %s", i,
                                     v->name, j, a, e);
                            pass = 0;
                        }
                } else {
                    /* only the merged element shape: every expected element must have it */
                    for (int j = 0; j < cnt && pass; j++)
                        if (!dims_match(v, &exp[j])) {
                            describe(a, sizeof a, v);
                            describe(e, sizeof e, &exp[j]);
                            snprintf(why, whylen,
                                     "output %d '%s' (sequence element %d): inferred %s, expected %s", i,
                                     v->name, j, a, e);
                            pass = 0;
                        }
                }
            } else {
                struct diag d = {0};
                memset(&exp[0], 0, sizeof exp[0]);
                if (ox_parse_tensor(m, b, len, &exp[0], &d)) {
                    snprintf(why, whylen, "output %d: cannot read expected tensor: %s", i, d.msg);
                    pass = 0;
                } else if (!dims_match(v, &exp[0])) {
                    describe(a, sizeof a, v);
                    describe(e, sizeof e, &exp[0]);
                    snprintf(why, whylen, "output %d '%s': inferred %s, expected %s", i, v->name, a, e);
                    pass = 0;
                }
            }
            free(b);
        }
        nnperf_analysis_free(an);
    }
    for (int i = 0; i < nb; i++) free(bufs[i]);
    nnperf_model_free(nm);
    return pass;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: conformance NODE_DIR [MIN_PASS] [FILTER]\n");
        return 2;
    }
    const char *root = argv[1];
    int min_pass = argc > 2 ? atoi(argv[2]) : 0;
    const char *filter = argc > 3 ? argv[3] : NULL;
    size_t n_all;
    char **names = tf_list_dir(root, &n_all);
    if (!names) {
        printf("conformance: %s not found (install libonnx-testdata); skipped\n", root);
        return 77;
    }
    FILE *fail = fopen("conformance-failures.txt", "w");
    int passed = 0, n = 0;
    for (size_t i = 0; i < n_all; i++) {
        if (filter && !strstr(names[i], filter)) continue;
        char dir[4096], why[1024] = "";
        snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
        int ok = run_test(dir, why, sizeof why);
        n++;
        passed += ok;
        if (!ok && fail) fprintf(fail, "%s: %s\n", names[i], why);
        if (!ok && filter) printf("FAIL %s: %s\n", names[i], why);
    }
    tf_free_names(names, n_all);
    if (fail) fclose(fail);
    printf("conformance: %d of %d ONNX backend node tests pass (required: %d)\n", passed, n, min_pass);
    printf("%d passed, %d failed\n", passed, n - passed);
    return passed >= min_pass ? 0 : 1;
}
