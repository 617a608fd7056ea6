/* model_load.c - the public model loaders: the ONNX reader (onnx/, below the operator registry) with the
 * registry handed down, so that nodes know their operator, model-local functions whose operator the registry has are
 * kept as calls, and a model importing a newer ai.onnx opset than the registry knows is refused. */
#include "analysis.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../onnx/onnx.h"

static struct ox_registry registry(void)
{
    struct ox_registry r = {op_find, op_newest_opset()};
    return r;
}

/* Why bytes that did not load are no ONNX model at all, from their first bytes: a text file or a known format; NULL
 * when they may be a damaged ONNX model (the loader's message says more then). */
static const char *not_onnx(const unsigned char *b, size_t n)
{
    if (n < 4) return NULL;
    static const struct {
        const char *magic;
        size_t len, at;
        const char *what;
    } magics[] = {
        {"\x89PNG", 4, 0, "a PNG image"},
        {"\x7f"
         "ELF",
         4, 0, "an ELF executable"},
        {"PK\x03\x04", 4, 0,
         "a ZIP archive; a PyTorch .pt/.pth checkpoint is one: export it with torch.onnx.export"},
        {"\x1f\x8b", 2, 0, "a gzip file"},
        {"\x89HDF", 4, 0, "an HDF5 file; a Keras .h5 model is one: convert it with tf2onnx"},
        {"\x93NUMPY", 6, 0, "a NumPy array file"},
        {"TFL3", 4, 4, "a TensorFlow Lite model: convert it with tf2onnx"},
    };
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (n >= magics[i].at + magics[i].len && !memcmp(b + magics[i].at, magics[i].magic, magics[i].len))
            return magics[i].what;
    /* An ONNX model starts with field keys and lengths (bytes under 0x20: ir_version is 0x08); text has none but
     * tab, newline and carriage return. */
    if (n > 512) n = 512;
    for (size_t i = 0; i < n; i++)
        if ((b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r') || b[i] == 0x7f) return NULL;
    size_t k = 0;
    while (k < n && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r')) k++;
    if (k < n && (b[k] == '{' || b[k] == '[')) return "a JSON text file";
    return "a text file";
}

/* a model that did not load: "NAME: not an ONNX model (a text file)" in place of the parser's message when the
 * first bytes say what the file is instead */
static enum nnperf_status explain(enum nnperf_status st, const char *name, const unsigned char *head,
                                  size_t n, char *err, size_t errlen)
{
    if (st == NNPERF_OK || st == NNPERF_E_IO || st == NNPERF_E_NOMEM) return st;
    const char *why = not_onnx(head, n);
    if (why && err && errlen) snprintf(err, errlen, "%s: not an ONNX model (%s)", name ? name : "model", why);
    return st;
}

enum nnperf_status nnperf_model_load(const char *path, const struct nnperf_load_options *opts,
                                     struct nnperf_model **out, char *err, size_t errlen)
{
    struct ox_registry r = registry();
    enum nnperf_status st = ox_model_load(path, opts, &r, out, err, errlen);
    if (st == NNPERF_OK || st == NNPERF_E_IO || st == NNPERF_E_NOMEM || !path) return st;
    unsigned char head[512];
    ssize_t n = -1;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        n = read(fd, head, sizeof head);
        close(fd);
    }
    return n > 0 ? explain(st, path, head, (size_t)n, err, errlen) : st;
}

enum nnperf_status nnperf_model_load_buffer(const void *buf, size_t len, const char *name, const char *dir,
                                            const struct nnperf_load_options *opts, struct nnperf_model **out,
                                            char *err, size_t errlen)
{
    struct ox_registry r = registry();
    enum nnperf_status st = ox_model_load_buffer(buf, len, name, dir, opts, &r, out, err, errlen);
    return buf ? explain(st, name, buf, len, err, errlen) : st;
}
