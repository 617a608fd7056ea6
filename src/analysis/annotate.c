/* annotate.c - nnperf_annotate: the analysed model written back as ONNX with its inferred types and shapes (the
 * writer is src/onnx/annotate.c; this file hands it the analysis's graph). */
#define _XOPEN_SOURCE 700 /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../onnx/annotate.h"
#include "analysis.h"

/* protobuf refuses messages of 2 GiB and more (its size fields are 32-bit signed): docs/sources.md [PROTOBUF-LIMITS] */
#define ANNOTATE_MAX_BYTES ((size_t)INT32_MAX)

/* The folder of a file name, malloc'd ("." for a bare name). */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    size_t n = (size_t)(slash - path);
    char *s = malloc(n + 1);
    if (s) memcpy(s, path, n), s[n] = 0;
    return s;
}

enum nnperf_status an_annotate(const struct nnperf_analysis *a, const struct ox_annotate_opts *xo,
                               const char *dest, void **out, size_t *len, char *err, size_t errlen)
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
    struct ox_annotate_opts o = xo ? *xo : (struct ox_annotate_opts){0};
    /* a destination that is not a file (a device, a FIFO: the writer refuses it) moves nothing */
    struct stat sb;
    int moves = dest && strcmp(dest, "-") && (stat(dest, &sb) != 0 || S_ISREG(sb.st_mode));
    char *dir = moves ? folder_of(dest) : NULL;
    if (moves && !dir) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    o.out_dir = dir;
    pbw_init(&w, ANNOTATE_MAX_BYTES);
    enum nnperf_status st = ox_annotate(m, an_graph(&a->st), &o, &w, NULL, &d);
    free(dir);
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

enum nnperf_status nnperf_annotate(const struct nnperf_analysis *a, void **out, size_t *len, char *err,
                                   size_t errlen)
{
    return an_annotate(a, NULL, NULL, out, len, err, errlen);
}

enum nnperf_status an_annotate_write(const struct nnperf_analysis *a, const struct ox_annotate_opts *xo,
                                     const char *path, const struct nnperf_write_options *opts, char *err,
                                     size_t errlen)
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
    enum nnperf_status st = an_annotate(a, xo, path, &data, &len, err, errlen);
    if (!st) st = nnperf_write_file(path, data, len, &o, err, errlen);
    free(data);
    free(inputs);
    return st;
}

enum nnperf_status nnperf_annotate_write(const struct nnperf_analysis *a, const char *path,
                                         const struct nnperf_write_options *opts, char *err, size_t errlen)
{
    return an_annotate_write(a, NULL, path, opts, err, errlen);
}
