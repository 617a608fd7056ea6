#!/usr/bin/python3
"""make_bad_inputs.py - writes the bad-input corpus: tests/bad-inputs/<name>.onnx and expected.txt.

Dev tool, run by hand after changing a case (the outputs are committed):
    /usr/bin/python3 tests/bad-inputs/make_bad_inputs.py
Needs Debian's python3-onnx (onnx.helper). Deterministic: fixed seeds, no timestamps, so a rerun gives the same
bytes. Each case is a tiny file that must make `nnperf analyze` fail with exit code 2 and one line on stderr that
contains the expected substring (see check.sh). Malformed protobuf is written by hand with the encoder below
(wire format: https://protobuf.dev/programming-guides/encoding/).
"""
import os
import random
import sys

from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
OPSET = [helper.make_opsetid("", 13)]
CASES = []  # (file name, bytes, expected substring)


def case(name, data, expect):
    CASES.append((name + ".onnx", data, expect))


# ---- wire-format encoder for hand-made malformed bytes ----
def varint(x):
    x &= (1 << 64) - 1  # negative int64 -> two's complement, 10 bytes
    out = bytearray()
    while True:
        b = x & 0x7F
        x >>= 7
        if x:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(num, wire):
    return varint(num << 3 | wire)


def fld_len(num, payload):
    return key(num, 2) + varint(len(payload)) + payload


def fld_varint(num, x):
    return key(num, 0) + varint(x)


def model(graph, ir_version=8, opset=None):
    m = helper.make_model(graph, opset_imports=opset or OPSET, producer_name="make_bad_inputs")
    m.ir_version = ir_version
    return m.SerializeToString()


def model_with_raw_graph(graph_bytes, ir_version=8):
    """A ModelProto around graph bytes that onnx itself could not serialize."""
    head = fld_varint(1, ir_version) + fld_len(8, helper.make_opsetid("", 13).SerializeToString())
    return head + fld_len(7, graph_bytes)


def vi(name, shape, dt=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dt, shape)


def small_graph():
    """x[1,1,5,5] -> Conv(w) -> Relu -> y: a valid model with an initializer, for truncation."""
    w = helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 3, 3], [0.5] * 9)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["y"], name="relu"),
    ]
    return helper.make_graph(nodes, "small", [vi("x", [1, 1, 5, 5])], [vi("y", [1, 1, 5, 5])], [w])


# ---- protobuf level ----
case("empty", b"", "empty file")

rng = random.Random(20240607)
case("random_bytes", bytes(rng.getrandbits(8) for _ in range(256)), "malformed ModelProto")

good = model(small_graph())
case("truncated", good[: len(good) // 2], "truncated file: ModelProto field 7")

# ModelProto.graph (field 7) sent as a varint instead of a length-delimited message
case("wrong_wire_type", fld_varint(1, 8) + fld_varint(7, 5), "field 'graph' (7) has wire type 0, expected 2")

# ir_version as an 11-byte varint: more than 64 bits
case("varint_overflow", key(1, 0) + b"\xff" * 10 + b"\x01", "varint longer than 64 bits")

# a node whose 'input' string claims 200 bytes inside a 12-byte NodeProto
bad_node = fld_len(4, b"Relu") + key(1, 2) + varint(200) + b"x"
g = helper.make_graph([], "g", [vi("x", [2])], []).SerializeToString() + fld_len(1, bad_node)
case("length_past_end", model_with_raw_graph(g),
     "malformed NodeProto at byte 38: field 'input' (1) claims 200 bytes")

# ---- tensors and shapes ----
t = TensorProto(name="w", data_type=TensorProto.FLOAT)
t.dims.extend([-1, 4])
g = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], name="add")], "g", [vi("x", [4])],
                      [vi("y", None)], [t])
case("negative_dim", model(g), "initializer 'w': has a negative dim (-1)")

# 2^40 x 2^40 elements: the element count overflows int64 (inputs, fed to an Add)
big = [1 << 40, 1 << 40]
g = helper.make_graph([helper.make_node("Add", ["a", "b"], ["y"], name="add")], "g",
                      [vi("a", big), vi("b", big)], [vi("y", None)])
case("dim_product_overflow", model(g),
     "graph input 'a': the size of shape 1099511627776x1099511627776 overflows int64")

# the same as an initializer without data
t = TensorProto(name="w", data_type=TensorProto.FLOAT)
t.dims.extend(big)
g = helper.make_graph([helper.make_node("Relu", ["w"], ["y"], name="relu")], "g", [], [vi("y", None)], [t])
case("init_dim_overflow", model(g), "initializer 'w': the size of shape 1099511627776x1099511627776 overflows")

g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g", [vi("x", [1] * 17)],
                      [vi("y", None)])
case("rank_over_limit", model(g), "'x': shape has 17 dims, more than the limit of 16")

t = TensorProto(name="w", data_type=TensorProto.FLOAT)
t.dims.extend([1] * 17)
t.raw_data = b"\0\0\0\0"
g = helper.make_graph([helper.make_node("Relu", ["w"], ["y"], name="relu")], "g", [], [vi("y", None)], [t])
case("init_rank_over_limit", model(g), "initializer 'w': has more than 16 dims")



def init_model(t):
    """Relu over initializer t."""
    g = helper.make_graph([helper.make_node("Relu", [t.name], ["y"], name="relu")], "g", [], [vi("y", None)], [t])
    return model(g)


# dims [2^40] with 16 bytes of raw_data: would pass for 4 TiB of weights
t = TensorProto(name="w", data_type=TensorProto.FLOAT, raw_data=b"\0" * 16)
t.dims.extend([1 << 40])
case("init_data_short", init_model(t),
     "initializer 'w': raw_data has 16 bytes, its shape 1099511627776 of float32 needs 4398046511104")

t = TensorProto(name="w", data_type=TensorProto.FLOAT)
t.dims.extend([4])
t.float_data.extend([1.0, 2.0, 3.0])
case("init_values_count", init_model(t), "initializer 'w': has 3 stored values, its shape 4 of float32 needs 4")

t = TensorProto(name="w", data_type=TensorProto.FLOAT)
t.dims.extend([4])
case("init_no_data", init_model(t), "initializer 'w': has no data for its shape 4 of float32")

t = TensorProto(name="w", data_type=9999, raw_data=b"\0" * 4)
t.dims.extend([1])
case("init_dtype_9999", init_model(t), "initializer 'w': data_type 9999 is not one this nnperf knows")

g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g", [vi("x", [1], 9999)],
                      [vi("y", None)])
case("input_elem_type_9999", model(g), "value 'x': elem_type 9999 is not one this nnperf knows")

# a TypeProto nested 100 sequences deep (each level a few bytes; unbounded recursion otherwise)
tp = helper.make_tensor_type_proto(TensorProto.FLOAT, [1])
for _ in range(100):
    tp = helper.make_sequence_type_proto(tp)
g = helper.make_graph([helper.make_node("Identity", ["x"], ["y"], name="id")], "g",
                      [helper.make_value_info("x", tp)], [vi("y", None)])
case("deep_type_nesting", model(g), "type nested deeper than")

# ---- graph structure ----
g = helper.make_graph([helper.make_node("Relu", ["b"], ["a"], name="node_a"),
                       helper.make_node("Relu", ["a"], ["b"], name="node_b")], "g", [vi("x", [1])],
                      [vi("b", None)])
case("cycle", model(g), "cycle through node")

g = helper.make_graph([helper.make_node("Relu", ["nowhere"], ["y"], name="relu")], "g", [vi("x", [1])],
                      [vi("y", None)])
case("dangling_input", model(g), "node 'relu' (Relu): input 'nowhere' is not a graph input")

g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="r1"),
                       helper.make_node("Neg", ["x"], ["y"], name="r2")], "g", [vi("x", [1])], [vi("y", None)])
case("duplicate_output", model(g), "node 'r2' (Neg): value 'y' is defined twice")

g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g", [vi("x", [1])],
                      [vi("z", None)])
case("output_not_produced", model(g), "graph output 'z' is not produced by any node")

g = helper.make_graph([helper.make_node("", ["x"], ["y"], name="n1")], "g", [vi("x", [1])], [vi("y", None)])
case("no_op_type", model(g), "node 'n1' has no op_type")

# ---- attributes ----
# 'axes' of an Unsqueeze claiming 2^31 packed ints but the file ends after 3 of them
attr = fld_len(1, b"axes") + fld_varint(20, 7) + key(8, 2) + varint(1 << 31) + b"\x00\x01\x02"
bad_node = fld_len(1, b"x") + fld_len(2, b"y") + fld_len(3, b"unsq") + fld_len(4, b"Unsqueeze") + fld_len(5, attr)
g = helper.make_graph([], "g", [vi("x", [2])], [vi("y", None)]).SerializeToString() + fld_len(1, bad_node)
case("attr_huge_packed_ints", model_with_raw_graph(g, ir_version=6),
     "malformed AttributeProto at byte 77: field 'ints' (8) claims 2147483648 bytes")

g = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1])], "g",
                      [vi("x", [1, 1, 5, 5])], [vi("y", None)],
                      [helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 3, 3], [0.5] * 9)])
case("conv_bad_pads", model(g), "node 'conv' (Conv): attribute 'pads'")


# Concat's axis given as a string: must not pass for the default
g = helper.make_graph([helper.make_node("Concat", ["a", "b"], ["y"], name="concat", axis="0")], "g",
                      [vi("a", [2]), vi("b", [3])], [vi("y", None)])
case("attr_wrong_type", model(g), "node 'concat' (Concat): attribute 'axis' has type STRING, expected INT")

# an attribute type that ONNX does not have (AttributeProto.type 9999; python's onnx refuses to write it)
attr = fld_len(1, b"axis") + fld_varint(3, 0) + fld_varint(20, 9999)  # name, i, type
node = (fld_len(1, b"a") + fld_len(1, b"b") + fld_len(2, b"y") + fld_len(3, b"concat") + fld_len(4, b"Concat")
        + fld_len(5, attr))
g = helper.make_graph([], "g", [vi("a", [2]), vi("b", [3])], [vi("y", None)]).SerializeToString() + fld_len(1, node)
case("attr_type_9999", model_with_raw_graph(g), "node 'concat': attribute 'axis' has type 9999, not an ONNX attribute")

# Reshape's shape as a STRING tensor
s = helper.make_tensor("s", TensorProto.STRING, [2], [b"3", b"2"])
g = helper.make_graph([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")], "g", [vi("x", [2, 3])],
                      [vi("y", None)], [s])
case("reshape_string_shape", model(g),
     "node 'reshape' (Reshape): input 'shape' ('s') has type string, expected int64")

# Reshape to 2^32 x 2^32 x 2^32: the element count check must not be skipped because the product overflows
s = helper.make_tensor("s", TensorProto.INT64, [3], [1 << 32] * 3)
g = helper.make_graph([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")], "g", [vi("x", [2, 3])],
                      [vi("y", None)], [s])
case("reshape_overflow", model(g), "node 'reshape' (Reshape): input 'shape' has values whose product overflows")


# If nested 40 deep (the limit is NNPERF_MAX_SUBGRAPH_DEPTH = 32)
def nested_if(depth, i=0):
    leaf = helper.make_graph([helper.make_node("Identity", ["x"], ["o%d" % i], name="leaf%d" % i)], "leaf%d" % i,
                             [], [vi("o%d" % i, [1])])
    if i == depth:
        return leaf
    node = helper.make_node("If", ["c"], ["o%d" % i], name="if%d" % i,
                            then_branch=nested_if(depth, i + 1), else_branch=leaf)
    return helper.make_graph([node], "g%d" % i, [], [vi("o%d" % i, [1])])


top = nested_if(40)
top.input.extend([vi("c", [], TensorProto.BOOL), vi("x", [1])])
case("deep_subgraph_nesting", model(top), "subgraphs nested deeper than 32")

# model-local functions F0..F19, each calling the next twice: 2^19 nodes from a 1 KB file when inlined
fns = []
for i in range(20):
    if i == 19:
        body = [helper.make_node("Relu", ["a"], ["b"])]
    else:
        body = [helper.make_node("F%d" % (i + 1), ["a"], ["t"], domain="local"),
                helper.make_node("F%d" % (i + 1), ["t"], ["b"], domain="local")]
    fns.append(helper.make_function("local", "F%d" % i, ["a"], ["b"], body, [helper.make_opsetid("", 13)]))
g = helper.make_graph([helper.make_node("F0", ["x"], ["y"], domain="local", name="call")], "g", [vi("x", [1])],
                      [vi("y", None)])
m = helper.make_model(g, opset_imports=OPSET + [helper.make_opsetid("local", 1)], functions=fns,
                      producer_name="make_bad_inputs")
m.ir_version = 8
case("function_call_explosion", m.SerializeToString(), "is called more than 4096 times")



def function_model(fns, call_inputs):
    g = helper.make_graph([helper.make_node("F", call_inputs, ["y"], domain="local", name="call")], "g",
                          [vi("x", [1])], [vi("y", None)])
    m = helper.make_model(g, opset_imports=OPSET + [helper.make_opsetid("local", 1)], functions=fns,
                          producer_name="make_bad_inputs")
    m.ir_version = 8
    return m.SerializeToString()


def relu_function():
    return helper.make_function("local", "F", ["a"], ["b"], [helper.make_node("Relu", ["a"], ["b"])],
                                [helper.make_opsetid("", 13)])


case("function_defined_twice", function_model([relu_function(), relu_function()], ["x"]),
     "function 'F' of domain 'local' is defined twice")
case("function_wrong_arity", function_model([relu_function()], ["x", "x"]),
     "node 'call' (F): has 2 inputs, function 'F' declares 1")

# ---- external data ----
def ext_model(location, needed, **entries):
    t = TensorProto(name="shape", data_type=TensorProto.INT64, data_location=TensorProto.EXTERNAL)
    t.dims.extend([2])
    e = t.external_data.add()
    e.key, e.value = "location", location
    for k, v in entries.items():
        e = t.external_data.add()
        e.key, e.value = k, v
    if needed:  # the values decide Reshape's output shape
        n = helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")
    else:
        n = helper.make_node("Shape", ["shape"], ["y"], name="shape_of")
    g = helper.make_graph([n], "g", [vi("x", [2, 3])], [vi("y", None)], [t])
    return model(g)


case("external_dotdot", ext_model("../x.bin", False), "external data location '../x.bin' escapes")
case("external_absolute", ext_model("/etc/passwd", False), "external data location '/etc/passwd' escapes")
case("external_missing", ext_model("missing_shape.bin", True), "cannot open external data")
case("external_nul_location", ext_model("x.bin\0/../../etc/passwd", False),
     "initializer 'shape': external data location has a NUL byte")
case("external_empty_location", ext_model("", False), "initializer 'shape': external data location is empty")
case("external_length_huge", ext_model("x.bin", False, length=str(1 << 63)),
     "initializer 'shape': external data length 9223372036854775808 is beyond 2^62")
case("external_offset_huge", ext_model("x.bin", False, offset=str(1 << 64)),
     "initializer 'shape': external data offset 18446744073709551616 is beyond 2^62")
case("external_length_mismatch", ext_model("x.bin", False, length="5"),
     "initializer 'shape': external data length 5 does not match its shape 2 of int64 (16 bytes)")
# external_short.bin (8 zero bytes, committed) holds half of the 16 bytes
case("external_past_end", ext_model("external_short.bin", False),
     "initializer 'shape': external data offset 0 + 16 bytes is beyond the end of 'external_short.bin' (8 bytes)")
# a symbolic link or FIFO named external_link.bin is made next to a copy of this model at test time
# (check_external.sh); not in expected.txt
LINK_MODEL = ext_model("external_link.bin", True)

# ---- model level ----
case("ir_version_2", model(small_graph(), ir_version=2), "IR version 2 is not supported")


def relu_model(opsets):
    """Relu with exactly these opset_import entries (none for [])."""
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g", [vi("x", [1])],
                          [vi("y", None)])
    m = helper.make_model(g, opset_imports=opsets, producer_name="make_bad_inputs")
    m.ir_version = 8
    return m.SerializeToString()


op = helper.make_opsetid
case("opset_zero", relu_model([op("", 0)]), "opset_import: domain 'ai.onnx' has version 0, expected 1 or more")
case("opset_negative", relu_model([op("", -1)]),
     "opset_import: domain 'ai.onnx' has version -1, expected 1 or more")
case("opset_99", relu_model([op("", 99)]),
     "opset_import: ai.onnx version 99 is newer than the newest this nnperf knows")
case("opset_int64_max", relu_model([op("", (1 << 63) - 1)]),
     "opset_import: ai.onnx version 9223372036854775807 is newer than the newest this nnperf knows")
case("opset_twice", relu_model([op("", 13), op("ai.onnx", 17)]),
     "opset_import: domain 'ai.onnx' is imported twice (versions 13 and 17)")
case("opset_none", relu_model([]), "the model has no opset_import (IR version 8 requires one)")
case("opset_no_ai_onnx", relu_model([op("local", 1)]), "node 'relu' (Relu): the model imports no ai.onnx opset")
case("no_graph", fld_varint(1, 8) + fld_len(8, helper.make_opsetid("", 13).SerializeToString()),
     "the model has no graph")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    lines = []
    for name, data, expect in CASES:
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        lines.append("%s\t%s\n" % (name, expect))
    with open(os.path.join(out, "external_short.bin"), "wb") as f:
        f.write(b"\0" * 8)
    with open(os.path.join(out, "external_link.onnx"), "wb") as f:
        f.write(LINK_MODEL)
    with open(os.path.join(out, "expected.txt"), "w") as f:
        f.write("# <file>\\t<substring the one-line error must contain>; written by make_bad_inputs.py\n")
        f.writelines(lines)
    print("wrote %d cases to %s" % (len(CASES), out))


if __name__ == "__main__":
    main()
