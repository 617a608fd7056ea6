"""The C API of libnnperf (include/nnperf.h) as ctypes sees it: the library, the structures the binding passes or
reads, and the prototypes of the functions it calls. Keep in step with include/nnperf.h."""
import ctypes
import os
from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_int, c_size_t, c_uint, c_uint64,
                    c_void_p)


def _library_path():
    """NNPERF_LIBRARY when set (a libnnperf.so of one's own build), else the one installed with the package."""
    env = os.environ.get("NNPERF_LIBRARY")
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libnnperf.so")


_path = _library_path()
try:
    lib = ctypes.CDLL(_path)
except OSError as e:
    raise ImportError(f"nnperf: cannot load the library {_path}: {e} (reinstall the package, or set NNPERF_LIBRARY "
                      "to a libnnperf.so built with CMake)") from e

# enum nnperf_format (nnperf_format_name; ctest name_tables checks these against the library)
FORMAT_TABLE, FORMAT_JSON, FORMAT_CSV, FORMAT_HTML, FORMAT_TRACE = 0, 1, 2, 3, 4
# enum nnperf_memory_model (nnperf_memory_model_name)
MEMORY_MODELS = {None: 0, "planned": 1, "weights-only": 2, "tiled": 3}
LOAD_DROP_VALUE_INFO = 1
ERRLEN = 2048


class LoadOptions(Structure):
    _fields_ = [("flags", c_uint)]


class AnalyzeOptions(Structure):
    _fields_ = [("input_shapes", POINTER(c_char_p)), ("n_input_shapes", c_int),
                ("dim_bindings", POINTER(c_char_p)), ("n_dim_bindings", c_int)]


class Summary(Structure):
    _fields_ = [("macs", c_uint64), ("flops", c_uint64), ("params", c_uint64), ("weight_bytes", c_uint64),
                ("activation_bytes", c_uint64), ("conv_gemm_matmul_macs", c_uint64), ("nodes", c_int),
                ("unknown_nodes", c_int), ("unknown_tensors", c_int), ("warnings", c_int),
                ("unbound_dims", c_int)]


class PredictOptions(Structure):
    _fields_ = [("dtype", c_char_p), ("batch", c_int), ("memory_model", c_int), ("interval_s", c_double),
                ("whatif", c_void_p), ("causal", c_int), ("weight_dtype", c_char_p),
                ("activation_dtype", c_char_p), ("kv_dtype", c_char_p), ("allow_unbound", c_int),
                ("no_timeline", c_int), ("threads", c_int), ("streams", c_int)]


def _proto(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


ERR = (c_char_p, c_size_t)
OUT_TEXT = (POINTER(POINTER(c_char)), POINTER(c_size_t))

version = _proto("nnperf_version", c_char_p)
status_name = _proto("nnperf_status_name", c_char_p, c_int)
free = _proto("nnperf_free", None, c_void_p)

model_load = _proto("nnperf_model_load", c_int, c_char_p, POINTER(LoadOptions), POINTER(c_void_p), *ERR)
model_free = _proto("nnperf_model_free", None, c_void_p)
analyze = _proto("nnperf_analyze", c_int, c_void_p, POINTER(AnalyzeOptions), POINTER(c_void_p), *ERR)
analysis_free = _proto("nnperf_analysis_free", None, c_void_p)
analysis_summary = _proto("nnperf_analysis_summary", None, c_void_p, POINTER(Summary))
analysis_warning = _proto("nnperf_analysis_warning", c_char_p, c_void_p, c_int)
analysis_unbound_dim = _proto("nnperf_analysis_unbound_dim", c_char_p, c_void_p, c_int)
analysis_render = _proto("nnperf_analysis_render", c_int, c_void_p, c_int, *OUT_TEXT, *ERR)
analysis_check_bound = _proto("nnperf_analysis_check_bound", c_int, c_void_p, *ERR)
analysis_warning_kind = _proto("nnperf_analysis_warning_kind", c_char_p, c_void_p, c_int)
analysis_batch = _proto("nnperf_analysis_batch", c_int, c_void_p)
model_load_buffer = _proto("nnperf_model_load_buffer", c_int, c_void_p, c_size_t, c_char_p, c_char_p,
                           POINTER(LoadOptions), POINTER(c_void_p), *ERR)
annotate = _proto("nnperf_annotate", c_int, c_void_p, POINTER(c_void_p), POINTER(c_size_t), *ERR)
# the library's file writer (the rules of `nnperf -o`); options NULL: the model's own files are still refused
annotate_write = _proto("nnperf_annotate_write", c_int, c_void_p, c_char_p, c_void_p, *ERR)


class AnnotateOptions(Structure):
    _fields_ = [("costs", c_void_p), ("dest", c_char_p)]


annotate_opts = _proto("nnperf_annotate_opts", c_int, c_void_p, POINTER(AnnotateOptions), POINTER(c_void_p),
                       POINTER(c_size_t), *ERR)
annotate_write_opts = _proto("nnperf_annotate_write_opts", c_int, c_void_p, POINTER(AnnotateOptions), c_char_p,
                             c_void_p, *ERR)

platform_load = _proto("nnperf_platform_load", c_int, c_char_p, POINTER(c_void_p), *ERR)
platform_free = _proto("nnperf_platform_free", None, c_void_p)
preset_count = _proto("nnperf_platform_preset_count", c_int)
preset_name = _proto("nnperf_platform_preset_name", c_char_p, c_int)

predict = _proto("nnperf_predict", c_int, c_void_p, c_void_p, POINTER(PredictOptions), POINTER(c_void_p), *ERR)
prediction_free = _proto("nnperf_prediction_free", None, c_void_p)
prediction_warning = _proto("nnperf_prediction_warning", c_char_p, c_void_p, c_int)
prediction_render = _proto("nnperf_prediction_render", c_int, c_void_p, c_int, *OUT_TEXT, *ERR)
plot_svg = _proto("nnperf_plot_svg", c_int, c_void_p, c_char_p, *OUT_TEXT, *ERR)


# ---- LLM inference (nnperf_llm, docs/llm.md) ----
class LlmOptions(Structure):
    _fields_ = [("prompts", POINTER(c_int)), ("n_prompts", c_int), ("generate", c_int),
                ("batches", POINTER(c_int)), ("n_batches", c_int), ("weights", c_char_p), ("kv", c_char_p),
                ("compute", c_char_p), ("decode_points", c_int), ("dims", POINTER(c_char_p)), ("n_dims", c_int),
                ("allow_offload", c_int), ("serve", c_void_p), ("tp", c_int), ("pp", c_int),
                ("draft", c_void_p), ("spec_tokens", c_int), ("spec_accept", c_double),
                ("microbatches", c_int)]


class ServeOptions(Structure):
    _fields_ = [("requests", c_int), ("rate", c_double), ("concurrency", c_int), ("seed", c_uint64),
                ("prompt", c_int), ("output", c_int), ("lengths", c_int), ("block_size", c_int), ("chunk", c_int),
                ("max_batch", c_int), ("trace", c_char_p), ("slo_ttft_s", c_double), ("slo_tpot_s", c_double),
                ("slo_percentile", c_int)]


llm = _proto("nnperf_llm", c_int, c_void_p, c_void_p, POINTER(LlmOptions), POINTER(c_void_p), *ERR)
llm_free = _proto("nnperf_llm_free", None, c_void_p)
llm_render = _proto("nnperf_llm_render", c_int, c_void_p, c_int, *OUT_TEXT, *ERR)
llm_config_load = _proto("nnperf_llm_config_load", c_int, c_char_p, POINTER(c_void_p), *ERR)
llm_config_load_tp = _proto("nnperf_llm_config_load_tp", c_int, c_char_p, c_int, POINTER(c_void_p), *ERR)
