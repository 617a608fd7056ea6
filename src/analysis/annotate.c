/* annotate.c - nnperf_annotate: the analysed model written back as ONNX with its inferred types and shapes (the
 * writer is src/onnx/annotate.c; this file hands it the analysis's graph). */
#include <stdio.h>
#include <stdlib.h>

#include "../onnx/annotate.h"
#include "analysis.h"

/* protobuf refuses messages of 2 GiB and more (its size fields are 32-bit signed): docs/sources.md [PROTOBUF-LIMITS] */
#define ANNOTATE_MAX_BYTES ((size_t)INT32_MAX)

enum nnperf_status nnperf_annotate(const struct nnperf_analysis *a, void **out, size_t *len, char *err,
                                   size_t errlen)
{
    if (out) *out = NULL;
    if (len) *len = 0;
    if (!a || !out || !len) {
        if (err && errlen) snprintf(err, errlen, "nnperf_annotate: no analysis or no place for the output");
        return NNPERF_E_USAGE;
    }
    const struct ir_model *m = a->st.m;
    struct diag d = {0};
    struct pbw w;
    pbw_init(&w, ANNOTATE_MAX_BYTES);
    enum nnperf_status st = ox_annotate(m, an_graph(&a->st), &w, NULL, &d);
    if (st) {
        pbw_free(&w);
        if (err && errlen)
            snprintf(err, errlen, "%s: %s", m->path, d.msg[0] ? d.msg : nnperf_status_name(st));
        return st;
    }
    *out = w.p ? (void *)w.p : malloc(1); /* an empty model is written as zero bytes */
    if (!*out) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    *len = w.len;
    return NNPERF_OK;
}

enum nnperf_status nnperf_annotate_write(const struct nnperf_analysis *a, const char *path,
                                         const struct nnperf_write_options *opts, char *err, size_t errlen)
{
    if (!a || !path) {
        if (err && errlen) snprintf(err, errlen, "nnperf_annotate_write: no analysis or no file name");
        return NNPERF_E_USAGE;
    }
    const struct ir_model *m = a->st.m;
    /* the inputs: the caller's and every file of the model (its weights too) */
    int n = (opts ? opts->n_inputs : 0) + m->n_files;
    const char **inputs = calloc((size_t)(n ? n : 1), sizeof *inputs);
    if (!inputs) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    int k = 0;
    for (int i = 0; opts && i < opts->n_inputs; i++) inputs[k++] = opts->inputs[i];
    for (int i = 0; i < m->n_files; i++) inputs[k++] = m->files[i];
    struct nnperf_write_options o = {inputs, k, opts ? opts->temporary : NULL, opts ? opts->ctx : NULL};
    void *data = NULL;
    size_t len = 0;
    enum nnperf_status st = nnperf_annotate(a, &data, &len, err, errlen);
    if (!st) st = nnperf_write_file(path, data, len, &o, err, errlen);
    free(data);
    free(inputs);
    return st;
}
