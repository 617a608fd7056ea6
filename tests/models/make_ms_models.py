#!/usr/bin/python3
"""make_ms_models.py - dev tool: writes tests/models/ms_transformer_block.onnx, a small transformer block made of the
com.microsoft operators that ONNX Runtime's transformer optimizer and LLM exporters emit:

    SkipLayerNormalization -> Attention -> FastGelu -> MatMulNBits (4-bit) -> GroupQueryAttention (packed QKV)

Symbolic dims: batch, seq (this call's tokens) and past_seq (the KV cache length of GroupQueryAttention).
Sizes are tiny (hidden 32, 4 heads, head size 8; GQA 4 query heads over 2 KV heads) so the file stays a few KB:
initializers are zeros. Run with /usr/bin/python3 (python3-onnx):

    /usr/bin/python3 tests/models/make_ms_models.py [OUTPUT_DIR]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HIDDEN = 32  # model width
HEADS = 4  # Attention heads (head size 8)
GQA_HEADS, GQA_KV_HEADS, HEAD = 4, 2, 8  # GroupQueryAttention: packed QKV = (4 + 2*2) * 8 = 64
QKV = (GQA_HEADS + 2 * GQA_KV_HEADS) * HEAD
BLOCK, BITS = 32, 4  # MatMulNBits


def zeros(name, shape, dtype=np.float32):
    return numpy_helper.from_array(np.zeros(shape, dtype=dtype), name)


def make_block():
    ms = "com.microsoft"
    k_blocks = (HIDDEN + BLOCK - 1) // BLOCK
    blob = BLOCK * BITS // 8
    inits = [
        zeros("ln_gamma", [HIDDEN]),
        zeros("ln_beta", [HIDDEN]),
        zeros("attn_weights", [HIDDEN, 3 * HIDDEN]),
        zeros("attn_bias", [3 * HIDDEN]),
        zeros("gelu_bias", [HIDDEN]),
        zeros("qkv_B", [QKV, k_blocks, blob], np.uint8),  # (N, k_blocks, blob_size), 4-bit codes
        zeros("qkv_scales", [QKV * k_blocks]),
    ]
    nodes = [
        helper.make_node("SkipLayerNormalization", ["x", "skip", "ln_gamma", "ln_beta"],
                         ["ln_out", "ln_mean", "ln_inv_std", "residual"], name="skip_ln", domain=ms,
                         epsilon=1e-5),
        helper.make_node("Attention", ["ln_out", "attn_weights", "attn_bias"], ["attn_out", "attn_present"],
                         name="attention", domain=ms, num_heads=HEADS, unidirectional=1),
        helper.make_node("FastGelu", ["attn_out", "gelu_bias"], ["gelu_out"], name="fast_gelu", domain=ms),
        helper.make_node("MatMulNBits", ["gelu_out", "qkv_B", "qkv_scales"], ["qkv"], name="qkv_proj", domain=ms,
                         K=HIDDEN, N=QKV, bits=BITS, block_size=BLOCK, accuracy_level=4),
        helper.make_node("GroupQueryAttention",
                         ["qkv", "", "", "past_key", "past_value", "seqlens_k", "total_sequence_length"],
                         ["y", "present_key", "present_value"], name="gqa", domain=ms,
                         num_heads=GQA_HEADS, kv_num_heads=GQA_KV_HEADS),
    ]
    f = TensorProto.FLOAT
    inputs = [
        helper.make_tensor_value_info("x", f, ["batch", "seq", HIDDEN]),
        helper.make_tensor_value_info("skip", f, ["batch", "seq", HIDDEN]),
        helper.make_tensor_value_info("past_key", f, ["batch", GQA_KV_HEADS, "past_seq", HEAD]),
        helper.make_tensor_value_info("past_value", f, ["batch", GQA_KV_HEADS, "past_seq", HEAD]),
        helper.make_tensor_value_info("seqlens_k", TensorProto.INT32, ["batch"]),
        helper.make_tensor_value_info("total_sequence_length", TensorProto.INT32, []),
    ]
    # outputs are declared with their element type and no shape: the analysis has to infer the shapes
    outputs = [helper.make_tensor_value_info(n, f, None)
               for n in ("y", "present_key", "present_value", "attn_present", "residual")]
    graph = helper.make_graph(nodes, "ms_transformer_block", inputs, outputs, initializer=inits)
    model = helper.make_model(graph, producer_name="nnperf make_ms_models.py",
                              opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(ms, 1)])
    model.ir_version = 8
    return model


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(out_dir, "ms_transformer_block.onnx")
    model = make_block()
    # onnx.checker (1.12) insists on shapes for graph outputs, which this model leaves out on purpose: check a copy
    # whose outputs carry a placeholder shape
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    for o in probe.graph.output:
        o.type.tensor_type.shape.dim.add().dim_param = "any"
    onnx.checker.check_model(probe)
    onnx.save(model, path)
    print("%s: %d bytes" % (path, os.path.getsize(path)))


if __name__ == "__main__":
    main()
