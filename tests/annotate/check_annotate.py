#!/usr/bin/env python3
"""nnperf annotate, checked from python3-onnx's side.

usage: check_annotate.py NNPERF REPO_ROOT OUTDIR

For each model: `nnperf annotate MODEL -o OUTDIR/NAME.onnx`, then
  - onnx.checker.check_model passes, also with full_check (ONNX's strict shape inference agrees with every
    annotation); the zoo's weights are stripped (external data files that do not exist), so empty files of the
    right size stand in for them beside the output: the checker only asks that they exist;
  - every node output of the main graph has a value_info entry or is a graph output, with concrete dims where the
    model's inputs are concrete (the acceptance of `nnperf annotate models/swin_t.onnx`);
  - initializers (external data references included), nodes, opset imports and metadata are as in the original;
  - symbols stay by name (the decoder: dim_param 'batch_size').
Exit 0 when all pass, 1 otherwise, 77 when python3-onnx is missing.
"""
import json
import os
import re
import subprocess
import sys

try:
    import onnx
except ImportError:
    print("python3-onnx not found: skipped")
    sys.exit(77)

NN, ROOT, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(OUT, exist_ok=True)
BACKEND = "/usr/share/libonnx-testdata/data/node"

# (model, node outputs must all be concrete)
MODELS = [(f"models/{m}.onnx", True) for m in
          ("swin_t", "resnet50", "mobilenet_v2", "efficientnet_b0", "inception_v3", "vit_b_16", "convnext_tiny",
           "shufflenet_v2_x1_0", "googlenet")]
MODELS += [("tests/data/llm/tiny-llama-hf.onnx", False), ("tests/data/loader/local_function.onnx", True)]
MODELS += [(f"{BACKEND}/{t}/model.onnx", False) for t in ("test_if", "test_loop11", "test_if_seq", "test_scan_sum")
           if os.path.exists(f"{BACKEND}/{t}/model.onnx")]

failed = 0


def fail(model, msg):
    global failed
    failed += 1
    print(f"FAIL {model}: {msg}")


def stand_in_weights(m, folder):
    """Empty files of the right size for the external data the model refers to (sparse: no disk used)."""
    sizes = {}
    for t in m.graph.initializer:
        if t.data_location != onnx.TensorProto.EXTERNAL:
            continue
        d = {e.key: e.value for e in t.external_data}
        end = int(d.get("offset", "0")) + int(d.get("length", "0"))
        sizes[d["location"]] = max(sizes.get(d["location"], 0), end)
    for loc, size in sizes.items():
        with open(os.path.join(folder, loc), "ab") as f:
            f.truncate(max(size, os.path.getsize(os.path.join(folder, loc))))


def concrete(vi):
    t = vi.type.tensor_type
    return t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim)


for rel, want_concrete in MODELS:
    src = rel if os.path.isabs(rel) else os.path.join(ROOT, rel)
    name = os.path.basename(src) if not src.startswith(BACKEND) else src.split("/")[-2] + ".onnx"
    out = os.path.join(OUT, name)
    r = subprocess.run([NN, "annotate", src, "-o", out, "-q"], capture_output=True, text=True)
    if r.returncode != 0:
        fail(rel, f"nnperf annotate exit {r.returncode}: {r.stderr.strip()}")
        continue
    orig = onnx.load(src, load_external_data=False)
    ann = onnx.load(out, load_external_data=False)
    stand_in_weights(ann, OUT)
    try:
        onnx.checker.check_model(out)
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # the checker's own exception types differ between onnx versions
        fail(rel, f"onnx.checker: {str(e)[:300]}")
        continue
    g, og = ann.graph, orig.graph
    if [t.SerializeToString() for t in g.initializer] != [t.SerializeToString() for t in og.initializer]:
        fail(rel, "initializers differ from the original")
    if len(g.node) != len(og.node) or any(
            a.SerializeToString() != b.SerializeToString() for a, b in zip(g.node, og.node)
            if not any(at.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for at in b.attribute)):
        fail(rel, "nodes differ from the original")
    if ann.opset_import != orig.opset_import or ann.metadata_props != orig.metadata_props or \
            ann.producer_name != orig.producer_name or ann.ir_version != orig.ir_version:
        fail(rel, "model fields differ from the original")
    typed = {v.name: v for v in list(g.value_info) + list(g.output)}
    outputs = [o for n in g.node for o in n.output if o]
    missing = [o for o in outputs if o not in typed]
    if missing and not rel.endswith("local_function.onnx"):
        fail(rel, f"{len(missing)} node outputs without a type, first '{missing[0]}'")
    if want_concrete:
        partial = [o for o in outputs if o in typed and not concrete(typed[o])]
        if partial:
            fail(rel, f"{len(partial)} node outputs with unknown dims, first '{partial[0]}'")
    if "llama" in rel:
        params = {d.dim_param for v in g.value_info for d in v.type.tensor_type.shape.dim if d.dim_param}
        if "batch_size" not in params:
            fail(rel, f"symbol 'batch_size' lost (dim_params: {sorted(params)[:5]})")
    print(f"ok {rel}: {len(g.value_info)} value_info entries, {len(outputs)} node outputs")


# --costs --hw: every node's doc_string holds its predicted time, the model's metadata the summary; the checker
# passes; a node's own doc_string stays ahead of the cost paragraph, and annotating again replaces that paragraph.
# A QDQ model is lowered before fusion (its Q/DQ nodes become views): its layers' times still add up to the latency.
n_cost = 0
for rel, hw in (("models/resnet18.onnx", "rdk-s100"), ("models/mobilenet_v2.onnx", "jetson-orin-nano"),
                ("tests/data/quant/resnet18_qdq.onnx", "rdk-s100")):
    src = os.path.join(ROOT, rel)
    out = os.path.join(OUT, "costs-" + os.path.basename(rel))
    r = subprocess.run([NN, "annotate", src, "--costs", "--hw", hw, "-o", out, "-q"], capture_output=True, text=True)
    if r.returncode != 0:
        fail(rel, f"annotate --costs exit {r.returncode}: {r.stderr.strip()}")
        continue
    ann = onnx.load(out, load_external_data=False)
    stand_in_weights(ann, OUT)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:
        fail(rel, f"onnx.checker on the costed model: {str(e)[:300]}")
    meta = {p.key: p.value for p in ann.metadata_props}
    if meta.get("nnperf.platform") != hw or float(meta.get("nnperf.latency_ms", "0")) <= 0:
        fail(rel, f"metadata without the prediction: {meta}")
    latency = float(meta.get("nnperf.latency_ms", "0"))
    # the why in the metadata is the reports' (one function, nnperf_prediction_why, computes both): the shares by
    # bound and the heaviest layers of the JSON report's summary.why
    r = subprocess.run([NN, "analyze", src, "--hw", hw, "--format", "json", "-q"], capture_output=True, text=True)
    why = json.loads(r.stdout)["summary"]["why"]
    outer = re.sub(r" \([^)]*\)", "", meta.get("nnperf.time_by_bound", ""))
    got = {k: float(v) for k, v in re.findall(r"(\w+) ([0-9.e+-]+)%", outer)}
    want = {k: 100 * v["share"] for k, v in why["time_by_bound"].items() if v["share"] > 0}
    if set(got) != set(want) or any(abs(got[k] - want[k]) > 0.06 * max(1, want[k]) for k in got):
        fail(rel, f"metadata time_by_bound {got} is not the report's {want}")
    heavy = re.findall(r"'([^']*)' ", meta.get("nnperf.heaviest_layers", ""))
    if heavy != [t["layer"] for t in why["top"]]:
        fail(rel, f"metadata heaviest_layers {heavy} are not the report's {[t['layer'] for t in why['top']]}")
    total = 0.0
    for n in ann.graph.node:
        d = n.doc_string
        if not d.startswith("nnperf: ") or " ms " not in d or f"on {hw} " not in d:
            fail(rel, f"node {n.name} has no cost in its doc_string: {d!r}")
            break
        t = float(d.split()[1])
        if "% of the" in d:
            total += t  # a fused layer's time is on each of its nodes: counted once below
    layers = {}
    for n in ann.graph.node:
        if "; layer " in n.doc_string:
            layers[n.doc_string.split("; layer ")[1].split(" of ")[0]] = float(n.doc_string.split()[1])
    if abs(sum(layers.values()) - latency) > 0.02 * latency:
        fail(rel, f"the layers' times add up to {sum(layers.values()):.4g} ms, the latency is {latency:.4g} ms")
    # again, from the annotated model with a doc_string of its own on the first node
    ann.graph.node[0].doc_string = "the first node"
    again_src = os.path.join(OUT, "doc-" + os.path.basename(rel))
    onnx.save(ann, again_src)
    again = os.path.join(OUT, "again-" + os.path.basename(rel))
    r = subprocess.run([NN, "annotate", again_src, "--costs", "--hw", hw, "-o", again, "-q"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail(rel, f"annotate --costs of an annotated model: exit {r.returncode}: {r.stderr.strip()}")
        continue
    b = onnx.load(again, load_external_data=False)
    d0 = b.graph.node[0].doc_string
    if not d0.startswith("the first node\n\nnnperf: ") or d0.count("nnperf: ") != 1:
        fail(rel, f"re-annotated doc_string: {d0!r}")
    if [p.key for p in b.metadata_props].count("nnperf.latency_ms") != 1:
        fail(rel, "re-annotated model has the nnperf metadata twice")
    n_cost += 1
    print(f"ok costs {rel} on {hw}: {len(ann.graph.node)} nodes, {len(layers)} layers, {latency:.4g} ms")

# external data: a model whose weights are in a file beside it, annotated into another folder, loads with its weights
import numpy as np  # noqa: E402  (python3-onnx depends on numpy)
from onnx import helper, numpy_helper, TensorProto  # noqa: E402

ext = os.path.join(OUT, "ext")
os.makedirs(os.path.join(ext, "src", "sub"), exist_ok=True)
w = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64])],
                      [numpy_helper.from_array(w, "w")])
mext = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(mext, os.path.join(ext, "src", "m.onnx"), save_as_external_data=True, all_tensors_to_one_file=True,
          location="sub/m.bin", size_threshold=0)
for dest, want_loc in (("up.onnx", "src/sub/m.bin"), ("src/same.onnx", "sub/m.bin"), ("src/sub/down.onnx", "m.bin")):
    out = os.path.join(ext, dest)
    r = subprocess.run([NN, "annotate", os.path.join(ext, "src", "m.onnx"), "-o", out, "-q"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail(dest, f"annotate of external data exit {r.returncode}: {r.stderr.strip()}")
        continue
    try:
        back = onnx.load(out)
        got = numpy_helper.to_array(back.graph.initializer[0])
        loc = {e.key: e.value for e in onnx.load(out, load_external_data=False).graph.initializer[0].external_data}
        if not np.array_equal(got, w) or loc.get("location") != want_loc:
            fail(dest, f"external data: location {loc.get('location')!r} (want {want_loc!r}) or other weights")
        else:
            print(f"ok external data annotated into {dest}: location {want_loc}")
    except Exception as e:
        fail(dest, f"onnx.load of the model annotated with external data: {str(e)[:300]}")
# a sibling folder cannot reach the data without '..' (which ONNX refuses): refused, nothing written
os.makedirs(os.path.join(ext, "other"), exist_ok=True)
out = os.path.join(ext, "other", "m.onnx")
r = subprocess.run([NN, "annotate", os.path.join(ext, "src", "m.onnx"), "-o", out, "-q"], capture_output=True,
                   text=True)
if r.returncode != 2 or "outside the output's folder" not in r.stderr or "sub/m.bin" not in r.stderr or \
        os.path.exists(out):
    fail("other/m.onnx", f"annotate into a sibling folder: exit {r.returncode}, {r.stderr.strip()!r}")
else:
    print("ok external data refused for a sibling folder: " + r.stderr.strip()[:120])

print(f"{len(MODELS) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
