/* model_load.c - the public model loaders: the ONNX reader (onnx/, below the operator registry) with the
 * registry handed down, so that nodes know their operator, model-local functions whose operator the registry has are
 * kept as calls, and a model importing a newer ai.onnx opset than the registry knows is refused. */
#include "analysis.h"

#include "../onnx/onnx.h"

static struct ox_registry registry(void)
{
    struct ox_registry r = {op_find, op_newest_opset()};
    return r;
}

enum nnperf_status nnperf_model_load(const char *path, const struct nnperf_load_options *opts,
                                     struct nnperf_model **out, char *err, size_t errlen)
{
    struct ox_registry r = registry();
    return ox_model_load(path, opts, &r, out, err, errlen);
}

enum nnperf_status nnperf_model_load_buffer(const void *buf, size_t len, const char *name, const char *dir,
                                            const struct nnperf_load_options *opts, struct nnperf_model **out,
                                            char *err, size_t errlen)
{
    struct ox_registry r = registry();
    return ox_model_load_buffer(buf, len, name, dir, opts, &r, out, err, errlen);
}
