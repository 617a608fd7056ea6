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
import os
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

print(f"{len(MODELS) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
