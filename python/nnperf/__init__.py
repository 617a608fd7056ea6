"""nnperf: ONNX model analysis and latency prediction, from Python.

    import nnperf
    model = nnperf.load("models/resnet50.onnx")
    a = model.analyze()                                   # shapes, MACs, FLOPs, bytes per node
    a.summary["macs"], a.nodes[0], a.tensors[0]
    a8 = model.analyze(inputs={"input": [8, 3, 224, 224]})
    p = a.predict("rdk-s100")                             # a built-in platform (nnperf.platforms()) or a YAML file
    p.summary["fps"], p.layers[0], p.timeline
    p.to_pandas()                                         # the layers as a DataFrame (pandas installed)
    p                                                     # in Jupyter: the HTML report

A binding of libnnperf (include/nnperf.h) through ctypes. Each object owns one library handle and keeps the object
it was made from alive (a prediction its analysis, an analysis its model); a handle is freed as soon as nothing uses
it any more (CPython frees on the last reference), or at once with close() / a with block. The library's errors
raise nnperf.Error with its message, which names the file, node and attribute; its warnings go through Python's
warnings module (nnperf.NnperfWarning and a subclass per kind: UnknownOperatorWarning, UnboundDimWarning, ...).
"""
import ctypes
import html as _html
import json
import os
import threading
import warnings as _warnings

from . import _capi

__all__ = ["Error", "load", "platforms", "version", "Model", "Analysis", "Prediction", "NnperfWarning",
           "UnknownOperatorWarning", "UnboundDimWarning", "AnalysisWarning", "PredictionWarning", "llm", "LLM"]

__version__ = _capi.version().decode()


class Error(Exception):
    """An error from libnnperf: str(e) is its message; e.status the status name ("malformed model", "usage
    error", ...)."""

    def __init__(self, message, status="usage error"):
        super().__init__(message)
        self.status = status


class NnperfWarning(UserWarning):
    """A warning of libnnperf's (the CLI prints the same ones on standard error). Filter the kinds apart with its
    subclasses, e.g. warnings.simplefilter("ignore", nnperf.PredictionWarning)."""


class UnknownOperatorWarning(NnperfWarning):
    """The model uses operators nnperf does not support: their outputs are unknown and their cost not counted."""


class UnboundDimWarning(NnperfWarning):
    """Symbolic input dims are left unbound: the nodes depending on them cannot be counted (predict() refuses
    such an analysis unless allow_unbound=True)."""


class AnalysisWarning(NnperfWarning):
    """Any other warning of an analysis: shapes inferred against the declared ones, nodes that could not be
    counted, inputs with different batches, ..."""


class PredictionWarning(NnperfWarning):
    """A warning of a prediction: layers on the fallback unit, tensors spilled to DDR, unknown layer costs, ..."""


_WARNING_KINDS = {"unknown-operator": UnknownOperatorWarning, "unbound-dim": UnboundDimWarning}


def _warn(messages, stacklevel=2):
    """Issues each (message, category) through the warnings module, pointing at the caller's caller."""
    for message, category in messages:
        _warnings.warn(message, category, stacklevel=stacklevel + 1)


def version():
    """The library's version."""
    return __version__


def platforms():
    """The names of the built-in platform presets, sorted (each works as analysis.predict(name))."""
    return [_capi.preset_name(i).decode() for i in range(_capi.preset_count())]


# ---- handles ----

_live = {"model": 0, "analysis": 0, "prediction": 0}
_live_lock = threading.Lock()


def _live_handles():
    """How many library handles of each kind are not freed yet (for tests)."""
    return dict(_live)


class _Handle:
    """One library handle, freed once: by close(), or when the last reference to it goes. parent (another
    _Handle) is kept alive as long as this one is: the library's objects borrow from the one they were made from."""

    __slots__ = ("ptr", "kind", "_free", "parent")

    def __init__(self, ptr, kind, free, parent=None):
        self.ptr, self.kind, self._free, self.parent = ptr, kind, free, parent
        with _live_lock:
            _live[kind] += 1

    @property
    def _as_parameter_(self):
        """What ctypes passes for the handle: its pointer. A call is given the _Handle itself (_Object._ptr), so the
        call's arguments hold it: a close() in another thread while the call runs (GIL released) drops only the
        object's reference, and the handle is freed when the call is done (never under it)."""
        return ctypes.c_void_p(self.ptr)

    def close(self):
        if self.ptr:
            ptr, self.ptr = self.ptr, None
            self._free(ptr)
            with _live_lock:
                _live[self.kind] -= 1
        self.parent = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone already
            pass


def _check(status, err):
    if status != 0:
        raise Error(err.value.decode(errors="replace") or _capi.status_name(status).decode(),
                    _capi.status_name(status).decode())


def _text(render, *args):
    """Calls a render function (…, char **out, size_t *len, err, errlen) and returns its output as str."""
    out, n = ctypes.POINTER(ctypes.c_char)(), ctypes.c_size_t()
    err = ctypes.create_string_buffer(_capi.ERRLEN)
    st = render(*args, ctypes.byref(out), ctypes.byref(n), err, _capi.ERRLEN)
    try:
        _check(st, err)
        return ctypes.string_at(out, n.value).decode("utf-8", errors="replace")
    finally:
        _capi.free(ctypes.cast(out, ctypes.c_void_p))


def _path(p):
    return _nul_free(os.fsencode(os.fspath(p)), "path")


def _nul_free(b, what):
    """b (bytes) for a C string: a NUL byte would end it early (a path "a.onnx\\0junk" would open a.onnx), so
    it is refused."""
    if b"\0" in b:
        raise ValueError(f"{what} {b!r} contains a NUL byte")
    return b


def _cstr(s, what):
    """A str argument as a C string (UTF-8, no NUL byte); None stays None."""
    return None if s is None else _nul_free(s.encode(), what)


_INT_MAX = 2**31 - 1  # a C int


def _check_count(value, name, what):
    """None or a whole number from 1 to a C int's largest; else nnperf.Error naming the argument"""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _INT_MAX):
        raise Error(f"{name} {value!r} is not a number of {what} (1 or more)")


def _dims_text(name, dims):
    """[1, 3, 'h', 224] -> '1x3xhx224' (the library's --input syntax); [] -> 'scalar'."""
    if isinstance(dims, (str, bytes)) or not hasattr(dims, "__iter__"):
        raise TypeError(f"inputs['{name}']: expected a list of dims such as [1, 3, 224, 224], got {dims!r}")
    parts = []
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, (int, str)):
            raise TypeError(f"inputs['{name}']: a dim is an int or a symbol name, got {d!r}")
        if isinstance(d, str) and ("x" in d or "," in d or not d):
            raise ValueError(f"inputs['{name}']: symbol {d!r} cannot be passed (empty, or contains 'x' or ',', "
                             "which separate dims); bind it with dims= instead")
        parts.append(str(d))
    return "x".join(parts) if parts else "scalar"


class _Object:
    """What Model, Analysis and Prediction share: one handle (_h), closed on close() or at the end of a with block,
    and the JSON document it renders (to_json), parsed once."""

    _h = None
    _doc = None
    _what = "object"

    def _ptr(self):
        """The handle, to pass to a library call (ctypes passes its pointer, _Handle._as_parameter_); read once,
        so that a close() in another thread either comes first (an Error here) or waits for the call."""
        h = self._h
        if h is None or not h.ptr:
            raise Error(f"the {self._what} is closed")
        return h

    def _document(self):
        """The JSON document of to_json(), parsed once."""
        if self._doc is None:
            self._doc = json.loads(self.to_json())
        return self._doc

    def close(self):
        """Lets go of the handle now: it is freed at once, or, when an object made from this one still uses it, as
        soon as that one goes."""
        self._h = None  # the handle goes with its last reference: this one, or the last child's

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Model(_Object):
    """A loaded ONNX model (nnperf.load). Weights are never read; the model keeps no tie to the file once loaded (it
    may be rewritten: analyses answer as loaded; annotate() refuses a changed file)."""

    _what = "model"

    def __init__(self, path, drop_value_info=False):
        opts = _capi.LoadOptions(_capi.LOAD_DROP_VALUE_INFO if drop_value_info else 0)
        ptr = ctypes.c_void_p()
        err = ctypes.create_string_buffer(_capi.ERRLEN)
        if _is_model_bytes(path):
            # the model's bytes: copied into a buffer the handle keeps (the library reads weights from it), and
            # named "<bytes>" in messages, which never quote the bytes themselves
            data = bytes(path)
            buf = ctypes.create_string_buffer(data, len(data) or 1)
            self.path = "<bytes>"
            _check(_capi.model_load_buffer(buf, len(data), b"<bytes>", None, ctypes.byref(opts),
                                           ctypes.byref(ptr), err, _capi.ERRLEN), err)
            self._h = _Handle(ptr.value, "model", lambda p, buf=buf: _capi.model_free(p))
            return
        self.path = os.fspath(path)
        _check(_capi.model_load(_path(path), ctypes.byref(opts), ctypes.byref(ptr), err, _capi.ERRLEN), err)
        self._h = _Handle(ptr.value, "model", _capi.model_free)


    def analyze(self, inputs=None, dims=None):
        """Infers every tensor's shape and type and counts each node's MACs, FLOPs, parameters and bytes.
        inputs: {input name: [dims]} to set input shapes (ints, or symbol names); dims: {symbol: int} to bind
        symbolic dims. Each analysis is its own: analysing again with other inputs leaves earlier ones as they
        were."""
        shapes = [_cstr(f"{name}={_dims_text(name, d)}", "input shape") for name, d in (inputs or {}).items()]
        binds = []
        for sym, n in (dims or {}).items():
            if isinstance(n, bool) or not isinstance(n, int):
                raise TypeError(f"dims['{sym}']: expected an int, got {n!r}")
            binds.append(_cstr(f"{sym}={n}", "dim binding"))
        arr_s = (ctypes.c_char_p * max(len(shapes), 1))(*shapes)
        arr_d = (ctypes.c_char_p * max(len(binds), 1))(*binds)
        opts = _capi.AnalyzeOptions(arr_s, len(shapes), arr_d, len(binds))
        ptr = ctypes.c_void_p()
        err = ctypes.create_string_buffer(_capi.ERRLEN)
        h = self._ptr()  # the parent of the analysis: the handle used, even when another thread closes this model
        _check(_capi.analyze(h, ctypes.byref(opts), ctypes.byref(ptr), err, _capi.ERRLEN), err)
        a = Analysis(self, _Handle(ptr.value, "analysis", _capi.analysis_free, h))
        _warn(a._warnings_by_kind())
        return a

    def __repr__(self):
        return f"<nnperf.Model {self.path!r}>"


class Analysis(_Object):
    """Shapes, types and costs of one model with one set of input shapes (Model.analyze)."""

    _what = "analysis"

    def __init__(self, model, handle):
        self.model = model
        self._h = handle

    @property
    def summary(self):
        """Totals: macs, flops, params, weight_bytes, activation_bytes, conv_gemm_matmul_macs, nodes,
        unknown_nodes, unknown_tensors, warnings, unbound_dims (read from the library on each access)."""
        s = _capi.Summary()
        _capi.analysis_summary(self._ptr(), ctypes.byref(s))
        return {name: getattr(s, name) for name, _ in _capi.Summary._fields_}

    @property
    def warnings(self):
        return [_capi.analysis_warning(self._ptr(), i).decode() for i in range(self.summary["warnings"])]

    @property
    def unbound_dims(self):
        """Symbolic input dims left unbound (bind them with analyze(dims=...))."""
        return [_capi.analysis_unbound_dim(self._ptr(), i).decode() for i in range(self.summary["unbound_dims"])]

    @property
    def batch(self):
        """Frames one run of the graph computes: the batch (dim 0) of the inputs that analyze(inputs=..., dims=...)
        bound; 1 when none was bound. predict() takes the frames per run from it."""
        return _capi.analysis_batch(self._ptr())

    def _warnings_by_kind(self):
        """[(message, warning class)] of the analysis's warnings."""
        out = []
        for i in range(self.summary["warnings"]):
            kind = _capi.analysis_warning_kind(self._ptr(), i)
            out.append((_capi.analysis_warning(self._ptr(), i).decode(errors="replace"),
                        _WARNING_KINDS.get(kind.decode() if kind else "", AnalysisWarning)))
        return out

    def to_json(self):
        """The analysis as JSON text (schema nnperf.analysis, docs/json-schema.md), as `nnperf analyze --format
        json` writes it."""
        return _text(_capi.analysis_render, self._ptr(), _capi.FORMAT_JSON)

    @property
    def nodes(self):
        """One dict per node: name, op, domain, class, inputs, outputs, macs, flops, params, bytes_read,
        bytes_written, intensity, cost_known."""
        return self._document()["nodes"]

    @property
    def tensors(self):
        """One dict per tensor: name, dtype, shape (ints, symbol names, null for unknown), kind."""
        return self._document()["tensors"]

    def table(self):
        """The text table `nnperf analyze` prints."""
        return _text(_capi.analysis_render, self._ptr(), _capi.FORMAT_TABLE)

    def html(self):
        return _text(_capi.analysis_render, self._ptr(), _capi.FORMAT_HTML)

    def _repr_html_(self):
        return _iframe(self.html())

    def to_pandas(self):
        """The nodes as a pandas DataFrame."""
        return _pandas().DataFrame(self.nodes)

    def annotate(self, path=None, costs=None):
        """The model as ONNX with every inferred shape as value_info (what `nnperf annotate` writes). Returns the
        bytes, or with path writes them there and returns path, with the rules of `nnperf annotate -o` (the library's
        nnperf_annotate_write): completely or not at all (a hidden temporary renamed over path), a new file with the
        mode the umask gives, never onto a FIFO, device or directory, and never onto the model or its external data.
        Written into another folder than the model's, external data locations are rewritten relative to it (an
        nnperf.Error when a data file lies outside it). costs: a Prediction of this analysis, or a platform name
        or file to predict on (`annotate --costs --hw P`): each node's doc_string gets its predicted time, share,
        bound and layer, and the model's metadata_props the summary (nnperf.latency_ms, ...)."""
        err = ctypes.create_string_buffer(_capi.ERRLEN)
        pred = None
        if costs is not None:
            pred = costs if isinstance(costs, Prediction) else self.predict(costs)
            if pred.analysis is not self:
                raise Error("annotate: costs is a prediction of another analysis")
        ph = pred._ptr() if pred is not None else None  # held through the call
        opts = _capi.AnnotateOptions(ph.ptr if ph is not None else None, None)
        if path is not None:
            _check(_capi.annotate_write_opts(self._ptr(), ctypes.byref(opts), _path(path), None, err, _capi.ERRLEN),
                   err)
            return path
        out, n = ctypes.c_void_p(), ctypes.c_size_t()
        st = _capi.annotate_opts(self._ptr(), ctypes.byref(opts), ctypes.byref(out), ctypes.byref(n), err,
                                 _capi.ERRLEN)
        try:
            _check(st, err)
            return ctypes.string_at(out, n.value)
        finally:
            _capi.free(out)

    def predict(self, platform, dtype=None, batch=None, memory_model=None, weight_dtype=None, kv_dtype=None,
                allow_unbound=False, threads=None, streams=None):
        """Predicts latency, throughput, DDR traffic and the timeline on a platform: a preset name
        (nnperf.platforms()) or a platform YAML file. dtype: "int8", "fp16", ... (None: the platform's); batch:
        frames per run (None: the batch of the analysed inputs, Analysis.batch; a batch given must be a multiple of
        it, the graph then runs batch / Analysis.batch times per run); memory_model: a memory model's name
        ("planned", "weights-only", "tiled", ...: docs/prediction.md; None: the platform's); weight_dtype,
        kv_dtype: storage types apart from the compute dtype ("int4" weights with dtype "fp16" is W4A16; "fp8" KV
        cache; None: the compute dtype's). An analysis with unbound symbolic input dims raises nnperf.Error naming
        them, unless allow_unbound=True (their nodes then count as 0 s). threads: the threads one inference runs on,
        on a platform whose cores are a CPU runtime's threads (compute.threaded; None: all its cores). streams: the
        application threads, each running one inference after another, whose throughput summary["throughput_fps"]
        gives (hrt_model_exec --thread_num N; None: as many as keep every unit busy; throughput_limit "application
        threads" where they bind). The prediction's warnings are issued as nnperf.PredictionWarning."""
        err = ctypes.create_string_buffer(_capi.ERRLEN)
        if not allow_unbound and _capi.analysis_check_bound(self._ptr(), err, _capi.ERRLEN) != 0:
            sym = self.unbound_dims[0] if self.unbound_dims else "NAME"
            raise Error(f"{err.value.decode(errors='replace')} (analyze(dims={{{sym!r}: 1}}) or "
                        "analyze(inputs={...}); allow_unbound=True predicts them as 0 s)", "usage error")
        if memory_model not in _capi.MEMORY_MODELS:
            names = [n for n in _capi.MEMORY_MODELS if n]
            raise Error(f"unknown memory model {memory_model!r} ({', '.join(names[:-1])} or {names[-1]})")
        if batch is not None and (isinstance(batch, bool) or not isinstance(batch, int) or batch < 1):
            raise Error(f"batch {batch!r} is not a number of frames (1 or more)")
        if batch is not None and batch > _INT_MAX:
            raise ValueError(f"batch {batch} is out of range (1 to {_INT_MAX})")
        _check_count(threads, "threads", "threads")
        _check_count(streams, "streams", "application threads")
        err = ctypes.create_string_buffer(_capi.ERRLEN)
        plat = ctypes.c_void_p()
        _check(_capi.platform_load(_path(platform), ctypes.byref(plat), err, _capi.ERRLEN), err)
        try:
            opts = _capi.PredictOptions(_cstr(dtype or None, "dtype"), batch or 0,
                                        _capi.MEMORY_MODELS[memory_model], 0.0, None, 0,
                                        _cstr(weight_dtype or None, "weight dtype"), None,
                                        _cstr(kv_dtype or None, "kv dtype"), 1 if allow_unbound else 0, 0,
                                        threads or 0, streams or 0)
            ptr = ctypes.c_void_p()
            h = self._ptr()  # the parent of the prediction (see Model.analyze)
            st = _capi.predict(h, plat, ctypes.byref(opts), ctypes.byref(ptr), err, _capi.ERRLEN)
        finally:
            _capi.platform_free(plat)  # the prediction keeps its own copy
        _check(st, err)
        p = Prediction(self, _Handle(ptr.value, "prediction", _capi.prediction_free, h))
        _warn((w, PredictionWarning) for w in p.warnings)
        return p

    def __repr__(self):
        try:
            s = self.summary
        except Error:
            return f"<nnperf.Analysis of {self.model.path!r} (closed)>"
        return f"<nnperf.Analysis of {self.model.path!r}: {s['nodes']} nodes, {s['macs']} MACs>"


class Prediction(_Object):
    """An analysis mapped onto a platform (Analysis.predict): latency, FPS, per-layer times, the timeline."""

    _what = "prediction"

    def __init__(self, analysis, handle):
        self.analysis = analysis
        self._h = handle

    def to_json(self):
        """The analysis and the prediction as JSON text, what `nnperf analyze --hw P --format json` writes."""
        return _text(_capi.prediction_render, self._ptr(), _capi.FORMAT_JSON)

    @property
    def summary(self):
        """The JSON summary: the analysis's totals and platform, dtype, latency_ms, fps, throughput_fps,
        throughput_limit (what binds it: accelerator cores, shared DDR, host CPU, host link or, with streams,
        application threads), streams,
        ddr_bytes_per_frame, avg_utilization, layers, family (the model's: "transformer-style" or "cnn"),
        expected_error (median and p90 |error| of the platform's test rows and their number, and the same over its
        test rows of the model's family: family_test_rows, family_median, family_p90, validated_for_family; None
        where not validated), ... (docs/json-schema.md)."""
        return self._document()["summary"]

    @property
    def layers(self):
        """One dict per layer (fused nodes): name, op, class, nodes, unit, ops, time_us, bound, share, ..."""
        return self._document()["layers"]

    @property
    def timeline(self):
        """interval_ms and, per interval, utilization, load_bandwidth and store_bandwidth (bytes/s)."""
        return self._document()["timeline"]

    @property
    def platform(self):
        return self._document()["platform"]

    @property
    def warnings(self):
        return self._document()["prediction_warnings"]

    def table(self):
        """The text report `nnperf analyze --hw P` prints."""
        return _text(_capi.prediction_render, self._ptr(), _capi.FORMAT_TABLE)

    def html(self):
        """The self-contained HTML report (tabs, plots; nothing loaded from the network)."""
        return _text(_capi.prediction_render, self._ptr(), _capi.FORMAT_HTML)

    def plot(self, kind="roofline"):
        """One plot as SVG text: "roofline", "timeline" or "memory"."""
        return _text(_capi.plot_svg, self._ptr(), _cstr(kind, "plot kind"))

    def _repr_html_(self):
        return _iframe(self.html())

    def to_pandas(self):
        """The layers as a pandas DataFrame (one row per layer)."""
        return _pandas().DataFrame(self.layers)

    def __repr__(self):
        try:
            s = self.summary
        except Error:
            return "<nnperf.Prediction (closed)>"
        x = s.get("expected_error")
        band = " (not validated)"
        if x:  # the band the library's reports show (docs/prediction.md, "Expected error")
            b = x["shown"]
            of = "" if b["rows_of"] == "all" else b["rows_of"] + " "
            band = (f" (expected error +-{100 * b['median']:.0f}% median, +-{100 * b['p90']:.0f}% p90, "
                    f"{b['test_rows']} {of}test rows"
                    f"{'' if b['validated_for_model'] else '; none transformer-style: not validated for this one'})")
        return (f"<nnperf.Prediction {self.analysis.model.path!r} on {s['platform']} ({s['dtype']}): "
                f"{s['latency_ms']:.4g} ms, {s['fps']:.4g} FPS{band}>")


def _iframe(page):
    """A report page for Jupyter: in an iframe, so that its styles and script stay out of the notebook's."""
    return (f'<iframe srcdoc="{_html.escape(page, quote=True)}" style="width: 100%; height: 640px; border: 0" '
            'sandbox="allow-scripts"></iframe>')


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError("to_pandas() needs pandas (Debian: apt-get install python3-pandas)") from e
    return pandas


def _is_model_bytes(x):
    """A model's content rather than a path: a bytearray or memoryview, or bytes that no path looks like (longer
    than a path can be, or starting with a control character: an ONNX file starts with a field key, 0x08)."""
    if isinstance(x, (bytearray, memoryview)):
        return True
    return isinstance(x, bytes) and (len(x) > 4096 or (len(x) > 0 and x[0] < 0x20))


def load(path, drop_value_info=False):
    """Loads an ONNX model: a path, or the model's bytes (weights in external files are then not found).
    drop_value_info: ignore the shapes the model declares and infer everything. Raises nnperf.Error when the file
    cannot be read or is not an ONNX model ("not an ONNX model (a text file)")."""
    return Model(path, drop_value_info)


# ---- LLM inference (`nnperf llm`, docs/llm.md) ----


def _int_list(name, values):
    if values is None:
        return None, 0
    if isinstance(values, int) and not isinstance(values, bool):
        values = [values]
    vals = list(values)
    for v in vals:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= _INT_MAX:
            raise Error(f"{name}: {v!r} is not a whole number from 1 to {_INT_MAX}")
    return (ctypes.c_int * max(len(vals), 1))(*vals), len(vals)


_SERVE_INTS = ("requests", "concurrency", "seed", "prompt", "output", "block_size", "chunk", "max_batch", "slo_percentile")
_SERVE_LENGTHS = ("fixed", "uniform", "exponential")


def _serve_options(serve):
    if not isinstance(serve, dict):
        raise Error(f"serve: {serve!r} is not a dict (rate or concurrency, requests, prompt, output, lengths, seed, "
                    "block_size, chunk, max_batch)")
    so = _capi.ServeOptions()
    for k, v in serve.items():
        if k in _SERVE_INTS:
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= _INT_MAX:
                raise Error(f"serve: {k} {v!r} is not a whole number from 0 to {_INT_MAX}")
            setattr(so, k, v)
        elif k == "rate":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < float("inf"):
                raise Error(f"serve: rate {v!r} is not a number of requests per second")
            so.rate = float(v)
        elif k in ("slo_ttft_ms", "slo_tpot_ms"):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 1e9:
                raise Error(f"serve: {k} {v!r} is not a latency in milliseconds")
            setattr(so, k[:-3] + "_s", float(v) / 1e3)
        elif k == "trace":
            so.trace = _path(v)
        elif k == "lengths":
            if v not in _SERVE_LENGTHS:
                raise Error(f"serve: lengths {v!r} is not one of {', '.join(_SERVE_LENGTHS)}")
            so.lengths = _SERVE_LENGTHS.index(v)
        else:
            raise Error(f"serve: unknown key {k!r} (rate, concurrency, trace, requests, prompt, output, lengths, "
                        "seed, block_size, chunk, max_batch, slo_ttft_ms, slo_tpot_ms, slo_percentile)")
    return so


class LLM:
    """The result of nnperf.llm: `summary` (the first configuration, with the largest batch and context that fit,
    and `expected_error`: the platform's band over its LLM test rows, {median, p90, test_rows}, or None
    when not validated for decoders), `rows` (every prompt x batch), `warnings`, and the whole JSON document
    (`document`, schema "nnperf.llm")."""

    def __init__(self, document, table, html):
        self.document = document
        self.summary = document["summary"]
        self.rows = document["rows"]
        self.warnings = document["warnings"]
        self.serve = document.get("serve")  # the serving simulation (llm(serve=...)), else None
        self._table, self._html = table, html

    def table(self):
        return self._table

    def html(self):
        return self._html

    def _repr_html_(self):
        return _iframe(self._html)

    def __repr__(self):
        s = self.summary
        return (f"<nnperf.LLM {self.document['model']} on {self.document['platform']}: TTFT {s['ttft_ms']:.3f} ms, "
                f"TPOT {s['tpot_ms']:.3f} ms, fits {s['fits']}>")


def llm(model=None, platform=None, config=None, prompts=None, generate=None, batches=None, weights=None, kv=None,
        compute=None, allow_offload=False, decode_points=None, dims=None, serve=None, tp=None, pp=None,
        draft=None, spec_tokens=None, accept=None, microbatches=None):
    """LLM inference of a decoder-only model on a platform (`nnperf llm`): time to first token, time per output
    token, tokens/s, KV cache and memory for each prompt length x batch. model: an ONNX decoder (a path or an
    nnperf.Model); or config: a Hugging Face config.json (Llama 2/3, Mistral, Mixtral, Qwen2/2.5/3 and their MoE,
    Gemma 1/2/3, Phi-3) from which the library builds the decoder. platform: a preset name or a YAML file.
    prompts, batches: an int or a list (default 512 and 1); generate: output tokens (128); weights, kv, compute:
    dtypes ("int4", "int8", "fp8", "fp16", "bf16", "fp32"); allow_offload: predict a model over the device memory
    with its weights streamed from host memory instead of raising nnperf.Error; dims: {symbol: int}.
    serve: a dict that also simulates serving (docs/llm.md, Serving): rate (requests/s, Poisson), concurrency or
    trace (a CSV or JSON-lines file of arrival_s, prompt, output), with slo_ttft_ms / slo_tpot_ms (and
    slo_percentile 90 or 99) also the largest rate meeting that latency target,
    and optionally requests (1000), prompt and output (mean lengths; default the first prompt and generate),
    lengths ("fixed", "uniform", "exponential"), seed, block_size, chunk, max_batch; the result's `serve` is then
    the dict of the JSON's "serve" object (TTFT/TPOT/e2e p50/p90/p99 in ms, tokens/s, requests/s, KV occupancy).
    tp, pp: tensor and pipeline parallelism over the platform's devices (a multi-GPU preset such as "8x-h100-sxm";
    tp > 1 needs config: each device's shard is built from it); sizes are then per device. microbatches: with pp,
    the micro-batches in flight through the stages (default pp; 1: the whole batch at once).
    draft, accept (and spec_tokens, default 4): speculative decoding with a draft model (an ONNX decoder, an
    nnperf.Model or a config.json path) whose tokens are each accepted with probability accept."""
    if (draft is None) != (accept is None) or (draft is None and spec_tokens is not None):
        raise Error("draft and accept go together (and spec_tokens with them)")
    if accept is not None and (isinstance(accept, bool) or not isinstance(accept, (int, float))):
        raise Error(f"accept: {accept!r} is not a probability")
    if spec_tokens is not None and (isinstance(spec_tokens, bool) or not isinstance(spec_tokens, int)):
        raise Error(f"spec_tokens: {spec_tokens!r} is not a number of tokens")
    if (model is None) == (config is None):
        raise Error("give a model or a config, not both" if model is not None else "give a model or a config")
    if platform is None:
        raise Error("a platform is required (a preset name or a platform YAML file)")
    err = ctypes.create_string_buffer(_capi.ERRLEN)
    for name, v in (("tp", tp), ("pp", pp)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 1024):
            raise Error(f"{name}: {v!r} is not a number of devices (1 to 1024)")
    if microbatches is not None and (isinstance(microbatches, bool) or not isinstance(microbatches, int) or
                                     not 1 <= microbatches <= 4096):
        raise Error(f"microbatches: {microbatches!r} is not a number of micro-batches (1 to 4096)")
    if config is not None:
        ptr = ctypes.c_void_p()
        _check(_capi.llm_config_load_tp(_path(config), tp or 1, ctypes.byref(ptr), err, _capi.ERRLEN), err)
        m = _Handle(ptr.value, "model", _capi.model_free)
    elif isinstance(model, Model):
        m = model._ptr()
    else:
        m = load(model)._ptr()
    pr, npr = _int_list("prompts", prompts)
    ba, nba = _int_list("batches", batches)
    if generate is not None and (isinstance(generate, bool) or not isinstance(generate, int) or generate < 1):
        raise Error(f"generate: {generate!r} is not a number of tokens (1 or more)")
    dim_list = [_nul_free(f"{k}={int(v)}".encode(), "dim") for k, v in (dims or {}).items()]
    dims_c = (ctypes.c_char_p * max(len(dim_list), 1))(*dim_list)
    opts = _capi.LlmOptions(pr, npr, generate or 0, ba, nba, _cstr(weights, "weights"), _cstr(kv, "kv"),
                            _cstr(compute, "compute"), decode_points or 0, dims_c, len(dim_list),
                            1 if allow_offload else 0, None, tp or 0, pp or 0)
    opts.microbatches = microbatches or 0
    dm = None
    if draft is not None:
        if isinstance(draft, Model):
            dm = draft._ptr()
        elif os.fspath(draft).endswith(".json"):
            ptr = ctypes.c_void_p()
            _check(_capi.llm_config_load(_path(draft), ctypes.byref(ptr), err, _capi.ERRLEN), err)
            dm = _Handle(ptr.value, "model", _capi.model_free)
        else:
            dm = load(draft)._ptr()
        opts.draft = dm.ptr  # dm (a _Handle) stays referenced here until the call returns
        opts.spec_tokens = spec_tokens or 0
        opts.spec_accept = float(accept)
    if serve is not None:
        so = _serve_options(serve)
        opts.serve = ctypes.cast(ctypes.pointer(so), ctypes.c_void_p)
    plat = ctypes.c_void_p()
    _check(_capi.platform_load(_path(platform), ctypes.byref(plat), err, _capi.ERRLEN), err)
    res = ctypes.c_void_p()
    try:
        st = _capi.llm(m, plat, ctypes.byref(opts), ctypes.byref(res), err, _capi.ERRLEN)
    finally:
        _capi.platform_free(plat)
    _check(st, err)
    try:
        doc = json.loads(_text(_capi.llm_render, res, _capi.FORMAT_JSON))
        table = _text(_capi.llm_render, res, _capi.FORMAT_TABLE)
        page = _text(_capi.llm_render, res, _capi.FORMAT_HTML)
    finally:
        _capi.llm_free(res)
    return LLM(doc, table, page)
