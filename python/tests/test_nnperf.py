"""The nnperf package against the library and the CLI: analysis and prediction figures equal the CLI's JSON,
analyses of one model are independent, errors carry the library's message, handles are freed deterministically."""
import gc
import json
import os
import subprocess

import pytest

import nnperf


def run(*cmd):
    """The CLI's output; a sanitizer runtime preloaded into python (sanitized builds) is not passed on to it."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    return subprocess.check_output(cmd, env=env)


def cli_json(cli, *args):
    return json.loads(run(cli, *args, "--format", "json"))


def test_version_and_platforms(cli):
    out = run(cli, "--version").decode()
    assert out.split()[1] == nnperf.__version__ == nnperf.version()
    names = nnperf.platforms()
    assert names == sorted(names) and "rdk-s100" in names and "horizon-j5" in names
    listed = run(cli, "hw", "list").decode().splitlines()[1:]
    assert names == [line.split()[0] for line in listed if line.strip() and not line.split()[0].isdigit()]


def test_analysis_equals_cli(models, cli):
    path = os.path.join(models, "mobilenet_v2.onnx")
    a = nnperf.load(path).analyze()
    doc = cli_json(cli, "analyze", path)
    s = a.summary
    for key, value in doc["summary"].items():
        assert s[key] == value, key
    assert s["unbound_dims"] == 0
    assert a.nodes == doc["nodes"]
    assert a.tensors == doc["tensors"]
    assert json.loads(a.to_json()) == doc
    conv = [n for n in a.nodes if n["op"] == "Conv"]
    assert len(conv) == 52 and sum(n["macs"] for n in a.nodes) == s["macs"]


# The batch-1 analysis must not change when the same model is analysed at batch 8.
def test_batch8_is_8x_and_batch1_unchanged(models):
    m = nnperf.load(os.path.join(models, "resnet18.onnx"))
    a1 = m.analyze()
    s1, j1 = a1.summary, a1.to_json()
    fps1 = a1.predict("rdk-s100").summary["fps"]
    a8 = m.analyze(inputs={"input": [8, 3, 224, 224]})
    s8 = a8.summary
    assert s8["macs"] == 8 * s1["macs"] and s8["flops"] == 8 * s1["flops"]
    assert s8["params"] == s1["params"]
    assert {t["name"]: t["shape"] for t in a8.tensors}["input"] == [8, 3, 224, 224]
    # the batch-1 analysis, read again from the library: as it was
    assert a1.summary == s1
    assert a1.to_json() == j1
    assert a1.predict("rdk-s100").summary["fps"] == fps1


def test_batch8_macs(models):
    """The part of the acceptance that holds today: batch 8 counts 8x the MACs of batch 1."""
    m = nnperf.load(os.path.join(models, "resnet18.onnx"))
    macs1 = m.analyze().summary["macs"]
    a8 = m.analyze(inputs={"input": [8, 3, 224, 224]})
    assert a8.summary["macs"] == 8 * macs1


def test_predict_equals_cli(models, cli):
    path = os.path.join(models, "resnet50.onnx")
    p = nnperf.load(path).analyze().predict("rdk-s100")
    doc = cli_json(cli, "analyze", path, "--hw", "rdk-s100")
    assert p.summary["fps"] == doc["summary"]["fps"]  # the same double, not a rounding of it
    assert p.summary == doc["summary"]
    assert p.layers == doc["layers"] and len(p.layers) == p.summary["layers"]
    assert p.timeline == doc["timeline"]
    assert p.platform["name"] == "rdk-s100"
    assert json.loads(p.to_json()) == doc


def test_predict_options(models, cli):
    path = os.path.join(models, "mobilenet_v2.onnx")
    a = nnperf.load(path).analyze()
    p = a.predict("horizon-j5", dtype="int8", batch=4, memory_model="planned")
    doc = cli_json(cli, "analyze", path, "--hw", "horizon-j5", "--dtype", "int8", "--batch", "4",
                   "--memory-model", "planned")
    assert p.summary["frames_per_run"] == 4 and p.summary["memory_model"] == "planned"
    assert p.summary["fps"] == doc["summary"]["fps"]
    assert a.predict("horizon-j5", batch=1).summary["fps"] != p.summary["fps"]


def test_predict_threads(models, cli):
    """threads= runs one inference on that many of a CPU runtime's threads, as `--threads`; refused elsewhere"""
    path = os.path.join(models, "squeezenet1_1.onnx")
    a = nnperf.load(path).analyze()
    p1 = a.predict("raspberry-pi-5", dtype="fp16", threads=1)
    doc = cli_json(cli, "analyze", path, "--hw", "raspberry-pi-5", "--dtype", "fp16", "--threads", "1")
    assert p1.summary == doc["summary"] and p1.summary["cores_per_inference"] == 1
    p4 = a.predict("raspberry-pi-5", dtype="fp16", threads=4)
    assert p4.summary == a.predict("raspberry-pi-5", dtype="fp16").summary
    assert p4.summary["latency_ms"] < p1.summary["latency_ms"]
    with pytest.raises(nnperf.Error, match="compute.threaded"):
        a.predict("zcu102-dpu", threads=1)
    with pytest.raises(nnperf.Error, match="1 to 4 threads"):
        a.predict("raspberry-pi-5", threads=5)
    with pytest.raises(nnperf.Error, match="not a number of threads"):
        a.predict("raspberry-pi-5", threads=0)


def test_predict_streams(models, root, cli):
    """streams= is the throughput of N application threads each running one inference after another, as
    `--streams`: on the ZCU104 QuTiBench runtime (overhead.host_serial_s 4.221 ms, one frame a run) N runs per
    (latency + (N - 1) x 4.221 ms) below the saturated throughput; the latency is unchanged"""
    path = os.path.join(models, "squeezenet1_1.onnx")
    plat = os.path.join(root, "presets", "runtimes", "zcu104-dpu-qutibench.yaml")
    a = nnperf.load(path).analyze()
    sat = a.predict(plat).summary
    assert sat["streams"] == 0
    for n in (1, 2, 64):
        s = a.predict(plat, streams=n).summary
        want = n / (sat["latency_ms"] / 1e3 + (n - 1) * 4.221e-3)
        assert s["streams"] == n and s["latency_ms"] == sat["latency_ms"]
        assert s["throughput_fps"] == pytest.approx(min(want, sat["throughput_fps"]), rel=1e-9)
        assert s["throughput_limit"] == ("application threads" if want < sat["throughput_fps"]
                                         else sat["throughput_limit"])
    # the serial stage binds the saturated throughput (1 / 4.221 ms, host CPU): N threads approach it from below
    s64 = a.predict(plat, streams=64).summary
    assert sat["throughput_limit"] == "host CPU" and sat["throughput_fps"] == pytest.approx(1 / 4.221e-3)
    assert 0.95 * sat["throughput_fps"] < s64["throughput_fps"] < sat["throughput_fps"]
    assert s64["throughput_limit"] == "application threads"
    # where the serial stage is not the bound, enough threads reach the saturated throughput and its limit
    z = a.predict("zcu102-dpu").summary
    assert a.predict("zcu102-dpu", streams=64).summary == dict(z, streams=64)
    doc = cli_json(cli, "analyze", path, "--hw", plat, "--streams", "2")
    assert doc["summary"] == a.predict(plat, streams=2).summary
    for bad in (0, -1, True, 2.0, "2"):
        with pytest.raises(nnperf.Error, match="not a number of application threads"):
            a.predict(plat, streams=bad)


def test_expected_error(models, root):
    """the summary carries the preset's validation (bench/fidelity/data test rows) or None, and repr shows it"""
    a = nnperf.load(os.path.join(models, "squeezenet1_1.onnx")).analyze()
    with open(os.path.join(root, "presets", "zcu102-dpu.yaml")) as f:
        text = f.read().split("\nvalidation:", 1)[1]
    want = {k: float(v.split("#")[0]) for k, v in (line.strip().split(":", 1) for line in text.splitlines()[1:4])}
    p = a.predict("zcu102-dpu")
    x = p.summary["expected_error"]
    assert (x["median"], x["p90"], x["test_rows"]) == (want["median_error"], want["p90_error"], want["test_rows"])
    assert f"+-{100 * x['median']:.0f}% median" in repr(p)
    q = a.predict("horizon-j5")  # no whole-model test rows (its HBDK report is per layer)
    assert q.summary["expected_error"] is None and "not validated" in repr(q)


def test_expected_error_by_family(root):
    """a transformer-style model (one attention block) gets the band of the platform's transformer-style test rows
    (rdk-x5: its validation.transformer_* keys), or "not validated" for it where there are none (zcu102-dpu)"""
    a = nnperf.load(os.path.join(root, "tests", "data", "predict", "attention.onnx")).analyze()
    p, q = a.predict("rdk-x5"), a.predict("zcu102-dpu")
    assert p.summary["family"] == q.summary["family"] == "transformer-style"
    with open(os.path.join(root, "presets", "rdk-x5.yaml")) as f:
        keys = dict(line.strip().split(": ") for line in f.read().split("\nvalidation:", 1)[1].splitlines()[1:])
    x = p.summary["expected_error"]
    assert x["validated_for_family"] is True and x["family_test_rows"] == int(keys["transformer_test_rows"]) > 0
    assert (x["family_median"], x["family_p90"]) == (float(keys["transformer_median_error"]),
                                                      float(keys["transformer_p90_error"]))
    assert f"+-{100 * x['family_median']:.0f}% median" in repr(p)
    assert f"{x['family_test_rows']} transformer-style test rows" in repr(p)
    assert x["shown"] == {"median": x["family_median"], "p90": x["family_p90"], "test_rows": x["family_test_rows"],
                          "rows_of": "transformer-style", "validated_for_model": True}
    y = q.summary["expected_error"]
    assert y["validated_for_family"] is False and y["family_test_rows"] == 0 and y["family_median"] is None
    assert "not validated for this one" in repr(q) and f"{y['test_rows']} test rows" in repr(q)
    assert y["shown"] == {"median": y["median"], "p90": y["p90"], "test_rows": y["test_rows"], "rows_of": "all",
                          "validated_for_model": False}
    c = nnperf.load(os.path.join(root, "tests", "data", "predict", "stem.onnx")).analyze().predict("rdk-x5")
    assert c.summary["family"] == "cnn"
    assert c.summary["expected_error"]["family_test_rows"] == int(keys["cnn_test_rows"])


def test_weight_dtype_apart_from_compute(models):
    """W4A16: int4 weights with fp16 compute read a quarter of the fp16 weight bytes; an unknown name is an Error."""
    a = nnperf.load(os.path.join(models, "resnet50.onnx")).analyze()
    fp16 = a.predict("a100-80gb", dtype="fp16").summary
    w4 = a.predict("a100-80gb", dtype="fp16", weight_dtype="int4").summary
    assert w4["dtype"] == "fp16"
    assert w4["weight_bytes_per_frame"] == pytest.approx(fp16["weight_bytes_per_frame"] / 4)
    with pytest.raises(nnperf.Error, match="unknown weight dtype 'int3'"):
        a.predict("a100-80gb", weight_dtype="int3")


def test_quantized_layer_dtype(root, models):
    """A QDQ model predicts as its float twin at int8, every layer's dtype in p.layers; its one float Conv is fp16."""
    quant = os.path.join(root, "tests", "data", "quant")
    q = nnperf.load(os.path.join(quant, "resnet18_qdq.onnx")).analyze().predict("jetson-orin-nano")
    f = nnperf.load(os.path.join(models, "resnet18.onnx")).analyze().predict("jetson-orin-nano", dtype="int8")
    assert q.summary["latency_ms"] == pytest.approx(f.summary["latency_ms"], rel=1e-12)
    assert q.summary["dtype"] == "int8" and {L["dtype"] for L in q.layers} == {"int8"}
    q1 = nnperf.load(os.path.join(quant, "resnet18_qdq_float1.onnx")).analyze().predict("jetson-orin-nano")
    assert [L["name"] for L in q1.layers if L["dtype"] != "int8"] == ["/layer2/layer2.1/conv1/Conv+1"]
    assert q1.layers[9]["dtype"] == "fp16"


def test_kv_dtype(root):
    """An fp8 KV cache: a decode step reads the past at 1 byte per element instead of 2 and appends one token."""
    a = nnperf.load(os.path.join(root, "tests", "data", "llm", "tiny-llama-genai.onnx")).analyze(
        dims={"batch_size": 1, "sequence_length": 1, "past_sequence_length": 64, "total_sequence_length": 65})
    past = sum(2 * 2 * 64 * 16 for t in a.tensors if t["name"].startswith("present."))  # fp16 bytes of the past
    fp16 = a.predict("a100-80gb", dtype="fp16").summary
    fp8 = a.predict("a100-80gb", dtype="fp16", kv_dtype="fp8").summary
    assert fp16["loaded_bytes_per_frame"] - fp8["loaded_bytes_per_frame"] == pytest.approx(past / 2)
    assert fp16["stored_bytes_per_frame"] - fp8["stored_bytes_per_frame"] == pytest.approx(past / 64 / 2)


def test_symbols_bound_with_dims(root):
    m = nnperf.load(os.path.join(root, "tests", "data", "llm", "tiny-llama-hf.onnx"))
    a = m.analyze()
    assert "batch_size" in a.unbound_dims and a.summary["unknown_nodes"] > 0
    # the attention mask's dim is an expression of two symbols, a symbol of its own
    b = m.analyze(dims={"batch_size": 2, "sequence_length": 16, "past_sequence_length": 8,
                        "past_sequence_length + sequence_length": 24})
    assert b.summary["unbound_dims"] == 0 and b.summary["unknown_nodes"] == 0
    logits = {t["name"]: t["shape"] for t in b.tensors}["logits"]
    assert logits[:2] == [2, 16]


def test_errors_carry_the_library_message(tmp_path, models, root):
    with pytest.raises(nnperf.Error) as e:
        nnperf.load(os.path.join(root, "README.md"))
    assert str(e.value).endswith("README.md: not an ONNX model (a text file)")
    assert e.value.status == "malformed model"
    with pytest.raises(nnperf.Error, match="no-such-file.onnx"):
        nnperf.load(tmp_path / "no-such-file.onnx")
    m = nnperf.load(os.path.join(models, "resnet18.onnx"))
    with pytest.raises(nnperf.Error, match="no input named 'nope'"):
        m.analyze(inputs={"nope": [1, 3, 8, 8]})
    a = m.analyze()
    with pytest.raises(nnperf.Error, match="hoizon-j5"):
        a.predict("hoizon-j5")
    with pytest.raises(nnperf.Error, match=r"unknown platform 'rdk-s10'.*\(did you mean 'rdk-s100'\?\)"):
        a.predict("rdk-s10")
    # no int4 peak and no weight-only quantization: refused (a GPU preset computes int4 weights at fp16)
    with pytest.raises(nnperf.Error, match="int4"):
        a.predict("horizon-j5", dtype="int4")
    with pytest.raises(nnperf.Error):
        a.predict("rdk-s100", memory_model="everything-in-sram")
    with pytest.raises(TypeError):
        m.analyze(inputs={"input": "1x3x224x224"})
    with pytest.raises(TypeError):
        m.analyze(dims={"batch": "8"})


def test_objects_keep_their_parents_and_free_deterministically(models):
    gc.collect()
    before = nnperf._live_handles()
    p = nnperf.load(os.path.join(models, "squeezenet1_1.onnx")).analyze().predict("zcu102-dpu")
    # the model and the analysis have no name left, but the prediction keeps them
    assert nnperf._live_handles()["model"] == before["model"] + 1
    assert p.summary["fps"] > 0 and p.analysis.summary["nodes"] > 0
    a = p.analysis
    del p
    assert nnperf._live_handles()["prediction"] == before["prediction"]  # freed at once, no gc needed
    m = a.model
    m.close()  # the analysis still holds the model
    assert nnperf._live_handles()["model"] == before["model"] + 1
    with pytest.raises(nnperf.Error, match="closed"):
        m.analyze()
    assert a.summary["nodes"] > 0
    a.close()
    assert nnperf._live_handles() == before
    with pytest.raises(nnperf.Error, match="closed"):
        a.summary
    with nnperf.load(os.path.join(models, "squeezenet1_1.onnx")) as m2:
        with m2.analyze() as a2:
            assert a2.summary["nodes"] > 0
    assert nnperf._live_handles() == before


def test_reports(models):
    p = nnperf.load(os.path.join(models, "resnet18.onnx")).analyze().predict("horizon-j5")
    page = p.html()
    assert page.lstrip().lower().startswith("<!doctype html") and "resnet18" in page
    frame = p._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and "<script" not in frame  # escaped into the attribute
    assert "horizon-j5" in p.table()
    for kind in ("roofline", "timeline", "memory"):
        svg = p.plot(kind)
        assert "<svg" in svg[:200] and svg.rstrip().endswith("</svg>")
    with pytest.raises(nnperf.Error, match="nope"):
        p.plot("nope")
    a = p.analysis
    assert a._repr_html_().startswith("<iframe") and "Conv" in a.table()


def test_to_pandas(models):
    pd = pytest.importorskip("pandas", reason="python3-pandas is not installed")
    p = nnperf.load(os.path.join(models, "resnet18.onnx")).analyze().predict("rdk-s100")
    df = p.to_pandas()
    assert len(df) == len(p.layers) and {"name", "op", "time_us", "bound"} <= set(df.columns)
    assert abs(df["share"].sum() - 1.0) < 1e-9
    nodes = p.analysis.to_pandas()
    assert isinstance(nodes, pd.DataFrame) and len(nodes) == p.analysis.summary["nodes"]


def test_annotate(tmp_path, models):
    a = nnperf.load(os.path.join(models, "resnet18.onnx")).analyze(inputs={"input": [2, 3, 224, 224]})
    data = a.annotate()
    out = a.annotate(tmp_path / "r18.onnx")
    assert open(out, "rb").read() == data
    b = nnperf.load(out).analyze()  # the annotated model's input is 2x3x224x224 now
    assert b.summary["macs"] == a.summary["macs"] and b.summary["warnings"] == 0
    assert [f for f in os.listdir(tmp_path)] == ["r18.onnx"]  # no temporary file left


def test_annotate_costs(tmp_path, models, cli):
    """annotate(costs=...) writes what `nnperf annotate --costs --hw P` writes: each node's time in its
    doc_string, the summary in the model's metadata."""
    path = os.path.join(models, "resnet18.onnx")
    a = nnperf.load(path).analyze()
    p = a.predict("rdk-s100")
    data = a.annotate(costs=p)
    assert data == a.annotate(costs="rdk-s100")
    assert data == run(cli, "annotate", path, "--costs", "--hw", "rdk-s100", "-o", "-", "-q")
    assert data.count(b"nnperf: ") == len(a.nodes)
    assert b"nnperf.latency_ms" in data and a.annotate() != data
    with pytest.raises(nnperf.Error, match="another analysis"):
        nnperf.load(path).analyze().annotate(costs=p)


# ---- issue 18: frames per run from the input's batch, dims checked by the library, unbound dims refused ----

def test_frames_per_run_from_the_input_batch(models, cli):
    path = os.path.join(models, "resnet18.onnx")
    m = nnperf.load(path)
    a8 = m.analyze(inputs={"input": [8, 3, 224, 224]})
    assert a8.batch == 8 and m.analyze().batch == 1
    by_input = a8.predict("rdk-s100").summary
    by_batch = m.analyze().predict("rdk-s100", batch=8).summary
    assert by_input["frames_per_run"] == by_batch["frames_per_run"] == 8
    assert by_input["fps"] == by_batch["fps"]
    assert by_input == cli_json(cli, "analyze", path, "--hw", "rdk-s100", "--input", "input=8x3x224x224")["summary"]
    assert a8.predict("rdk-s100", batch=16).summary["frames_per_run"] == 16
    with pytest.raises(nnperf.Error, match="batch 12 is not a multiple of the 8 frames"):
        a8.predict("rdk-s100", batch=12)


def test_dims_are_checked_by_the_library(models, root):
    m = nnperf.load(os.path.join(models, "resnet18.onnx"))
    real = "input 'input' [1, 3, 224, 224]"
    for dims, what in (([0, 3, 224, 224], "dim 0 is '0'"), ([-224, 3, 224, 224], "dim 0 is '-224'"),
                       (["1.5", 3, 224, 224], "dim 0 is '1.5'"), ([1, 3, 224], "has 4 dims")):
        with pytest.raises(nnperf.Error) as e:
            m.analyze(inputs={"input": dims})
        assert real in str(e.value) and what in str(e.value) and "--" not in str(e.value)
    with pytest.raises(nnperf.Error, match=r"no input named 'inptu' \(did you mean 'input'\?\); its inputs: input "):
        m.analyze(inputs={"inptu": [1, 3, 224, 224]})
    b = nnperf.load(os.path.join(root, "tests", "data", "analysis", "batch.onnx"))
    with pytest.raises(nnperf.Error) as e:
        b.analyze(dims={"bacth": 8})
    assert "did you mean 'batch'?" in str(e.value) and "batch (input 'x' dim 0)" in str(e.value)
    assert "--dim" not in str(e.value)


def test_unbound_dims_refuse_to_predict(root):
    b = nnperf.load(os.path.join(root, "tests", "data", "analysis", "batch.onnx"))
    with pytest.warns(nnperf.UnboundDimWarning, match="unbound symbolic input dims 'batch'"):
        a = b.analyze()
    with pytest.raises(nnperf.Error, match=r"unbound symbolic input dim 'batch' \(input 'x' dim 0\)") as e:
        a.predict("rdk-s100")
    assert "analyze(dims={'batch': 1})" in str(e.value) and "--" not in str(e.value)
    with pytest.warns(nnperf.PredictionWarning):
        p = a.predict("rdk-s100", allow_unbound=True)
    assert p.summary["fps"] > 0
    assert b.analyze(dims={"batch": 8}).predict("rdk-s100").summary["frames_per_run"] == 8


def test_library_warnings_reach_python(tmp_path, root):
    # x [1, 4] -> Frobnicate (com.example, an operator nnperf does not know) -> y: tests/data/analysis/make_models.py
    data = open(os.path.join(root, "tests", "data", "analysis", "unknown_op.onnx"), "rb").read()
    with pytest.warns(nnperf.UnknownOperatorWarning, match="com.example.Frobnicate") as rec:
        a = nnperf.load(data).analyze()
    assert all(issubclass(w.category, nnperf.NnperfWarning) for w in rec)
    assert issubclass(nnperf.UnknownOperatorWarning, UserWarning)
    assert a.model.path == "<bytes>" and a.summary["unknown_nodes"] == 1
    assert any("Frobnicate" in w for w in json.loads(a.to_json())["warnings"])
    path = tmp_path / "frob.onnx"
    path.write_bytes(data)
    with pytest.warns(nnperf.UnknownOperatorWarning):
        nnperf.load(path).analyze()


def test_load_bytes_never_quotes_them(root):
    text = open(os.path.join(root, "README.md"), "rb").read()
    with pytest.raises(nnperf.Error) as e:
        nnperf.load(text)
    assert str(e.value) == "<bytes>: not an ONNX model (a text file)"
    junk = b"\x08\x07" + b"A" * 100000
    with pytest.raises(nnperf.Error) as e:
        nnperf.load(junk)
    assert len(str(e.value)) < 300 and "AAAA" not in str(e.value)
def test_llm_serve(root, cli):
    """nnperf.llm(serve=...) simulates serving: 1000 requests at concurrency 8 finish near the static batch-8
    throughput of the same result, equal to the CLI's --serve; bad serve options are an Error (issue 20)."""
    cfg = os.path.join(root, "tests", "data", "llm", "configs", "llama-3.1-8b.json")
    r = nnperf.llm(config=cfg, platform="a100-80gb", batches=8, generate=128, serve=dict(concurrency=8, seed=3))
    s, row = r.serve, r.summary
    assert s["requests"] == 1000 and s["concurrency"] == 8 and s["seed"] == 3
    static = row["batch"] * row["generate"] / (row["e2e_ms"] / 1e3)
    assert abs(s["output_tokens_per_s"] / static - 1) < 0.10
    assert s["ttft_ms"]["p50"] <= s["ttft_ms"]["p90"] <= s["ttft_ms"]["p99"]
    assert "KV cache occupancy" in r.table()
    c = cli_json(cli, "llm", "--config", cfg, "--hw", "a100-80gb", "--batch", "8", "--generate", "128", "--serve",
                 "--concurrency", "8", "--seed", "3")
    assert c["serve"] == s
    p = nnperf.llm(config=cfg, platform="a100-80gb", prompts=256, generate=64,
                   serve=dict(rate=4, requests=200, lengths="exponential", block_size=16))
    assert p.serve["requests"] == 200 and p.serve["lengths"] == "exponential" and p.serve["rate"] == 4
    assert nnperf.llm(config=cfg, platform="a100-80gb", generate=16).serve is None
    for bad in (dict(rate=1, concurrency=2), dict(), dict(concurrency=-1), dict(rate=1, lengths="normal"),
                dict(rate=1, burst=3), "fast"):
        with pytest.raises(nnperf.Error):
            nnperf.llm(config=cfg, platform="a100-80gb", generate=16, serve=bad)


def test_llm_parallel(root, cli):
    """nnperf.llm(tp=, pp=) on a multi-GPU preset equals the CLI's --tp/--pp: Llama-3-70B fp16 fits 8x H100 with
    TP 4 and is an Error on one device; a bad degree is an Error (issue 20)."""
    cfg = os.path.join(root, "tests", "data", "llm", "configs", "llama-3-70b.json")
    r = nnperf.llm(config=cfg, platform="8x-h100-sxm", tp=4, prompts=512, generate=32)
    c = cli_json(cli, "llm", "--config", cfg, "--hw", "8x-h100-sxm", "--tp", "4", "--prompt", "512", "--generate",
                 "32")
    assert r.summary == c["summary"] and c["parallel"] == {"tp": 4, "pp": 1, "devices": 4, "microbatches": 1}
    assert r.summary["fits"] and r.summary["tpot_comm_ms"] > 0
    with pytest.raises(nnperf.Error, match="does not fit"):
        nnperf.llm(config=cfg, platform="8x-h100-sxm", prompts=512, generate=32)
    for bad in (0, 3.5, True, 2000):
        with pytest.raises(nnperf.Error):
            nnperf.llm(config=cfg, platform="8x-h100-sxm", tp=bad, generate=32)
    # pipeline micro-batches: the same as the CLI's --microbatches; more than 1 without pp is an Error
    r = nnperf.llm(config=cfg, platform="8x-h100-sxm", tp=2, pp=2, microbatches=4, batches=8, prompts=256,
                   generate=16)
    c = cli_json(cli, "llm", "--config", cfg, "--hw", "8x-h100-sxm", "--tp", "2", "--pp", "2", "--microbatches",
                 "4", "--batch", "8", "--prompt", "256", "--generate", "16")
    assert r.summary == c["summary"] and c["parallel"]["microbatches"] == 4
    for bad in (dict(microbatches=2), dict(pp=2, microbatches=0), dict(pp=2, microbatches=True)):
        with pytest.raises(nnperf.Error):
            nnperf.llm(config=cfg, platform="8x-h100-sxm", tp=4, generate=16, **bad)


def test_llm_serve_trace_slo(root, cli):
    """serve=dict(trace=..., slo_ttft_ms=..., slo_tpot_ms=...) equals the CLI's --trace/--slo-*: the trace's 24
    requests, KV occupancy over time, the largest rate meeting the target (issue 20)."""
    cfg = os.path.join(root, "tests", "data", "llm", "configs", "llama-3.1-8b.json")
    trace = os.path.join(root, "tests", "data", "llm", "trace.csv")
    r = nnperf.llm(config=cfg, platform="a100-80gb", serve=dict(trace=trace, slo_ttft_ms=200, slo_tpot_ms=40))
    c = cli_json(cli, "llm", "--config", cfg, "--hw", "a100-80gb", "--serve", "--trace", trace, "--slo-ttft", "200",
                 "--slo-tpot", "40")
    assert r.serve == c["serve"] and r.serve["requests"] == 24 and len(r.serve["kv_series"]) == 64
    slo = r.serve["slo"]
    assert slo["percentile"] == 90 and slo["max_rate"] > 0 and slo["ttft_ms_at_max_rate"] <= 200
    for bad in (dict(trace=trace, slo_ttft_ms=-1), dict(rate=1, slo_percentile=95), dict(trace=trace, rate=2)):
        with pytest.raises(nnperf.Error):
            nnperf.llm(config=cfg, platform="a100-80gb", serve=bad)


def test_llm_speculative(root, cli):
    """nnperf.llm(draft=, accept=, spec_tokens=) equals the CLI's --draft/--accept/--spec-tokens (issue 20)."""
    cfg = os.path.join(root, "tests", "data", "llm", "configs")
    kw = dict(platform="a100-80gb", prompts=256, generate=32)
    r = nnperf.llm(config=os.path.join(cfg, "llama-3.1-8b.json"), draft=os.path.join(cfg, "gemma-3-1b.json"),
                   accept=0.8, spec_tokens=4, **kw)
    c = cli_json(cli, "llm", "--config", os.path.join(cfg, "llama-3.1-8b.json"), "--hw", "a100-80gb", "--prompt",
                 "256", "--generate", "32", "--draft", os.path.join(cfg, "gemma-3-1b.json"), "--accept", "0.8",
                 "--spec-tokens", "4")
    assert r.summary == c["summary"] and c["speculative"]["draft_tokens"] == 4
    assert abs(c["speculative"]["tokens_per_step"] - (1 - 0.8 ** 5) / 0.2) < 1e-9
    plain = nnperf.llm(config=os.path.join(cfg, "llama-3.1-8b.json"), **kw)
    assert r.summary["tpot_ms"] < plain.summary["tpot_ms"]
    with pytest.raises(nnperf.Error):
        nnperf.llm(config=os.path.join(cfg, "llama-3.1-8b.json"), accept=0.5, **kw)


def test_llm_config_and_memory(tmp_path, root, cli):
    """nnperf.llm from a config.json equals the CLI; a model over the device memory is an Error naming both sizes
    unless allow_offload (issue 20)."""
    cfg = os.path.join(root, "tests", "data", "llm", "configs")
    r = nnperf.llm(config=os.path.join(cfg, "llama-3.1-8b.json"), platform="a100-80gb", prompts=[128, 256],
                   batches=2, generate=16)
    c = cli_json(cli, "llm", "--config", os.path.join(cfg, "llama-3.1-8b.json"), "--hw", "a100-80gb", "--prompt",
                 "128,256", "--batch", "2", "--generate", "16")
    assert r.summary == c["summary"] and len(r.rows) == 2
    assert r.document["position_limit"] == 131072
    # how far to trust it: a100-80gb has no published LLM test rows (its A100 rows are fit rows); jetson-agx-orin has
    assert r.summary["expected_error"] is None
    j = nnperf.llm(config=os.path.join(cfg, "qwen3-8b.json"), platform="jetson-agx-orin", weights="int4",
                   compute="fp16", prompts=2048, generate=1)
    band = j.summary["expected_error"]
    assert band["test_rows"] == 8 and 0 < band["median"] <= band["p90"]
    assert "expected error           +-" in j.table()
    with pytest.raises(nnperf.Error, match=r"needs 16.2 GB .* but 'jetson-orin-nano' has 8.59 GB"):
        nnperf.llm(config=os.path.join(cfg, "llama-3.1-8b.json"), platform="jetson-orin-nano")
    with pytest.raises(nnperf.Error, match=r"needs 138 GB .* but 'a100-80gb' has 85.9 GB"):
        nnperf.llm(config=os.path.join(cfg, "llama-2-70b.json"), platform="a100-80gb")
    off = nnperf.llm(config=os.path.join(cfg, "llama-2-70b.json"), platform="a100-80gb", allow_offload=True,
                     generate=4)
    assert off.summary["offload_bytes"] > 50e9 and off.summary["fits"] is False
    m = nnperf.load(os.path.join(root, "tests", "data", "llm", "tiny-llama-genai.onnx"))
    t = nnperf.llm(m, "a100-80gb", prompts=64, generate=8)
    assert t.summary["prompt"] == 64 and t.document["kv_cache"]["kv_heads"] == 2
    with pytest.raises(nnperf.Error, match="over the model's position limit of 512"):
        nnperf.llm(m, "a100-80gb", prompts=600)
    with pytest.raises(nnperf.Error, match="model_type 'gpt9' is not one nnperf builds"):
        bad = tmp_path / "config.json"
        with open(bad, "w") as f:
            f.write('{"model_type": "gpt9"}')
        nnperf.llm(config=bad, platform="a100-80gb")
