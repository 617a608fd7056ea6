#!/usr/bin/python3
"""Generate small weight-stripped ONNX models for `nnperf map` with python3-onnx (no PyTorch needed).

Developer tool only: CI never runs it; the generated .onnx files are committed.  Run it with the system interpreter:

    /usr/bin/python3 models/mcu/make_ai8x_models.py

Two sets of models:

models/mcu/ai8x/   the published MAX78000/MAX78002 demo networks, layer for layer as the ai8x-training model
                   definitions build them (models/ai85net.py, ai85net-nas-cifar.py, ai85net-simplenet.py,
                   ai85net-simplenet-wide2x.py, ai85net-res-simplenet.py, ai85net-kws20-v3.py, ai87net-kws20-v3.py,
                   ai85net-faceid.py, ai85net-cd.py; docs/sources.md): pooling in front of a convolution, BN folded
                   (a bias where the training script passes --use-bias), ReLU, Add for residuals, flatten + Linear.
                   Node names follow torch.onnx.export ("/conv1/Conv"), so an ai8x-training QAT policy file
                   names their layers (nnperf map --weight-bits-file).
models/mcu/rules/  one pair per device rule nnperf map checks: NAME_bad.onnx breaks the rule, NAME_ok.onnx is the
                   same network changed just enough to pass (tests/unit/test_mcu.c).

Weights are stripped like models/make_models.py: initializers larger than 1024 bytes keep name, dims and type, their
data become an EXTERNAL reference into "<name>.weights" that is never written.  Smaller initializers stay inline
(zeros).
"""

import os

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
INLINE_LIMIT = 1024
ALIGN = 64


class Net:
    """A tiny graph builder that tracks shapes (N=1; 2-D: C,H,W; 1-D: C,L)."""

    def __init__(self, name, shape):
        self.name = name
        self.nodes, self.inits = [], []
        self.offset = 0
        self.n = 0
        self.x = ("input", list(shape))
        self.inp = helper.make_tensor_value_info("input", TensorProto.FLOAT, [1] + list(shape))

    def _tensor(self, name, dims):
        numel = 1
        for d in dims:
            numel *= d
        nbytes = numel * 4
        if nbytes <= INLINE_LIMIT:
            return helper.make_tensor(name, TensorProto.FLOAT, dims, [0.0] * numel)
        t = TensorProto()
        t.name = name
        t.data_type = TensorProto.FLOAT
        t.dims.extend(dims)
        self.offset = (self.offset + ALIGN - 1) // ALIGN * ALIGN
        t.data_location = TensorProto.EXTERNAL
        for k, v in (("location", self.name + ".weights"), ("offset", str(self.offset)), ("length", str(nbytes))):
            e = t.external_data.add()
            e.key, e.value = k, v
        self.offset += nbytes
        return t

    def _out(self, name):
        self.n += 1
        return f"{name}_out{self.n}"

    def pool(self, x, kind, k, s=None, name="pool"):
        s = s or k
        ks = [k] if isinstance(k, int) else list(k)
        src, shape = x
        dims = shape[1:]
        if len(ks) == 1 and len(dims) == 2:
            ks = ks * 2
        ss = [s] * len(ks) if isinstance(s, int) else list(s)
        y = self._out(name)
        op = "MaxPool" if kind == "max" else "AveragePool"
        self.nodes.append(helper.make_node(op, [src], [y], name=f"/{name}/{op}", kernel_shape=ks, strides=ss))
        out = [shape[0]] + [(d - k_) // s_ + 1 for d, k_, s_ in zip(dims, ks, ss)]
        return (y, out)

    def conv(self, x, cout, k, pad, name, relu=True, bias=True, pool=None, groups=1, stride=1, dilation=1):
        if pool:
            x = self.pool(x, pool[0], pool[1], pool[2] if len(pool) > 2 else pool[1], name=name + "/pool")
        src, shape = x
        cin, dims = shape[0], shape[1:]
        ks = [k] * len(dims) if isinstance(k, int) else list(k)
        w = f"{name}.weight"
        self.inits.append(self._tensor(w, [cout, cin // groups] + ks))
        ins = [src, w]
        if bias:
            self.inits.append(self._tensor(f"{name}.bias", [cout]))
            ins.append(f"{name}.bias")
        y = self._out(name)
        self.nodes.append(helper.make_node("Conv", ins, [y], name=f"/{name}/Conv", kernel_shape=ks,
                                           pads=[pad] * (2 * len(dims)), strides=[stride] * len(dims),
                                           dilations=[dilation] * len(dims), group=groups))
        out = [cout] + [(d + 2 * pad - dilation * (k_ - 1) - 1) // stride + 1 for d, k_ in zip(dims, ks)]
        x = (y, out)
        if relu:
            x = self.relu(x, name)
        return x

    def relu(self, x, name):
        y = self._out(name + "_relu")
        self.nodes.append(helper.make_node("Relu", [x[0]], [y], name=f"/{name}/Relu"))
        return (y, x[1])

    def add(self, a, b, name):
        y = self._out(name)
        self.nodes.append(helper.make_node("Add", [a[0], b[0]], [y], name=f"/{name}/Add"))
        return (y, a[1])

    def flatten(self, x):
        y = self._out("flat")
        n = 1
        for d in x[1]:
            n *= d
        self.nodes.append(helper.make_node("Flatten", [x[0]], [y], name="/Flatten", axis=1))
        return (y, [n])

    def linear(self, x, out, name, bias=True):
        if len(x[1]) > 1:
            x = self.flatten(x)
        w = f"{name}.weight"
        self.inits.append(self._tensor(w, [out, x[1][0]]))
        ins = [x[0], w]
        if bias:
            self.inits.append(self._tensor(f"{name}.bias", [out]))
            ins.append(f"{name}.bias")
        y = self._out(name)
        self.nodes.append(helper.make_node("Gemm", ins, [y], name=f"/{name}/Gemm", transB=1))
        return (y, [out])

    def view(self, x):
        """x.view(N, -1): a Reshape to 1 x (C*H*W)."""
        n = 1
        for d in x[1]:
            n *= d
        shape = f"shape{self.n}"
        self.inits.append(helper.make_tensor(shape, TensorProto.INT64, [2], [1, n]))
        y = self._out("view")
        self.nodes.append(helper.make_node("Reshape", [x[0], shape], [y], name="/Reshape"))
        return (y, [n])

    def save(self, x, path):
        out = helper.make_tensor_value_info("output", TensorProto.FLOAT, [1] + list(x[1]))
        self.nodes.append(helper.make_node("Identity", [x[0]], ["output"], name="/output"))
        g = helper.make_graph(self.nodes, self.name, [self.inp], [out], initializer=self.inits)
        m = helper.make_model(g, producer_name="make_ai8x_models.py",
                              opset_imports=[helper.make_opsetid("", getattr(self, "opset", 13))])
        m.ir_version = 7
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(m.SerializeToString())
        print(f"{os.path.relpath(path, HERE)}: {os.path.getsize(path)} bytes, {len(self.nodes)} nodes")


# ---- the published networks (ai8x-training models/) ----

def ai85net5(dataset, shape, classes):
    """ai85net.py AI85Net5: planes 60, fc_inputs 12; conv bias off, fc bias on."""
    g = Net("ai85net5_" + dataset, shape)
    pad = 2 if shape[1] == 28 else 1
    x = g.conv(g.x, 60, 3, 1, "conv1", bias=False)
    x = g.conv(x, 60, 3, pad, "conv2", bias=False, pool=("max", 2))
    x = g.conv(x, 56, 3, 1, "conv3", bias=False, pool=("max", 2))
    x = g.conv(x, 12, 3, 1, "conv4", bias=False, pool=("avg", 2))
    return g, g.linear(g.view(x), classes, "fc")


def nascifarnet(classes):
    """ai85net-nas-cifar.py AI85NASCifarNet, trained with --use-bias (BN folded into the bias)."""
    g = Net(f"ai85nascifarnet_cifar{classes}", (3, 32, 32))
    x = g.conv(g.x, 64, 3, 1, "conv1_1")
    x = g.conv(x, 32, 1, 0, "conv1_2")
    x = g.conv(x, 64, 3, 1, "conv1_3")
    x = g.conv(x, 32, 3, 1, "conv2_1", pool=("max", 2))
    x = g.conv(x, 64, 1, 0, "conv2_2")
    x = g.conv(x, 128, 3, 1, "conv3_1", pool=("max", 2))
    x = g.conv(x, 128, 1, 0, "conv3_2")
    x = g.conv(x, 64, 3, 1, "conv4_1", pool=("max", 2))
    x = g.conv(x, 128, 3, 1, "conv4_2")
    x = g.conv(x, 128, 1, 0, "conv5_1", pool=("max", 2))
    return g, g.linear(g.view(x), classes, "fc")


def simplenet(wide):
    """ai85net-simplenet.py AI85SimpleNet / ai85net-simplenet-wide2x.py, --use-bias; output x.view(N, -1)."""
    g = Net("ai85simplenetwide2x_cifar100" if wide else "ai85simplenet_cifar100", (3, 32, 32))
    c = [24, 32, 32, 32, 32, 32, 64, 64, 64, 128, 512, 192, 192] if wide else \
        [16, 20, 20, 20, 20, 20, 44, 48, 48, 96, 512, 128, 128]
    k = [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 3]
    pooled = {4, 7, 9, 10, 12}
    x = g.x
    for i in range(13):
        x = g.conv(x, c[i], k[i], 1 if k[i] == 3 else 0, f"conv{i + 1}", pool=("max", 2) if i in pooled else None)
    x = g.conv(x, 100, 1, 0, "conv14", relu=False)
    return g, g.view(x)


def ressimplenet():
    """ai85net-res-simplenet.py AI85ResidualSimpleNet (no bias): three residual Adds."""
    g = Net("ai85ressimplenet_cifar100", (3, 32, 32))
    x = g.conv(g.x, 16, 3, 1, "conv1", bias=False)
    r = g.conv(x, 20, 3, 1, "conv2", bias=False)
    x = g.conv(r, 20, 3, 1, "conv3", bias=False)
    x = g.add(x, r, "resid1")
    x = g.conv(x, 20, 3, 1, "conv4", bias=False)
    r = g.conv(x, 20, 3, 1, "conv5", bias=False, pool=("max", 2))
    x = g.conv(r, 20, 3, 1, "conv6", bias=False)
    x = g.add(x, r, "resid2")
    x = g.conv(x, 44, 3, 1, "conv7", bias=False)
    r = g.conv(x, 48, 3, 1, "conv8", bias=False, pool=("max", 2))
    x = g.conv(r, 48, 3, 1, "conv9", bias=False)
    x = g.add(x, r, "resid3")
    x = g.conv(x, 96, 3, 1, "conv10", bias=False, pool=("max", 2))
    x = g.conv(x, 512, 1, 0, "conv11", bias=False, pool=("max", 2))
    x = g.conv(x, 128, 1, 0, "conv12", bias=False)
    x = g.conv(x, 128, 3, 1, "conv13", bias=False, pool=("max", 2))
    x = g.conv(x, 100, 1, 0, "conv14", bias=False, relu=False)
    return g, g.view(x)


def kws20v3(ai87):
    """ai85net-kws20-v3.py / ai87net-kws20-v3.py (no bias; Dropout is a no-op in inference)."""
    g = Net("ai87kws20netv3" if ai87 else "ai85kws20netv3", (128, 128))
    p = 0 if ai87 else 1
    x = g.conv(g.x, 100, 1, 0, "voice_conv1", bias=False)
    x = g.conv(x, 96, 3, 0, "voice_conv2", bias=False)
    x = g.conv(x, 64, 3, p, "voice_conv3", bias=False, pool=("max", 2))
    x = g.conv(x, 48, 3, 0, "voice_conv4", bias=False)
    x = g.conv(x, 64, 3, p, "kws_conv1", bias=False, pool=("max", 2))
    x = g.conv(x, 96, 3, 0, "kws_conv2", bias=False)
    x = g.conv(x, 100, 3, p, "kws_conv3", bias=False, pool=("avg", 2))
    x = g.conv(x, 64, 3 if ai87 else 6, p, "kws_conv4", bias=False, pool=("max", 2))
    return g, g.linear(g.view(x), 21, "fc", bias=False)


def faceid():
    """ai85net-faceid.py AI85FaceIDNet: 3x160x120, conv1/conv2/conv8 without bias, a trailing AvgPool (5, 3)."""
    g = Net("ai85faceidnet", (3, 160, 120))
    x = g.conv(g.x, 16, 3, 1, "conv1", bias=False)
    x = g.conv(x, 32, 3, 1, "conv2", bias=False, pool=("max", 2))
    x = g.conv(x, 32, 3, 1, "conv3", pool=("max", 2))
    x = g.conv(x, 64, 3, 1, "conv4", pool=("max", 2))
    x = g.conv(x, 64, 3, 1, "conv5", pool=("max", 2))
    x = g.conv(x, 64, 3, 1, "conv6")
    x = g.conv(x, 64, 3, 1, "conv7")
    x = g.conv(x, 512, 1, 0, "conv8", bias=False, relu=False, pool=("max", 2))
    x = g.pool(x, "avg", (5, 3), 1, name="avgpool")
    return g, x


def catsdogs():
    """ai85net-cd.py AI85CatsDogsNet: 3x128x128, fc_inputs 16, conv bias off, fc bias on."""
    g = Net("ai85cdnet", (3, 128, 128))
    x = g.conv(g.x, 16, 3, 1, "conv1", bias=False)
    x = g.conv(x, 32, 3, 1, "conv2", bias=False, pool=("max", 2))
    x = g.conv(x, 64, 3, 1, "conv3", bias=False, pool=("max", 2))
    x = g.conv(x, 32, 3, 1, "conv4", bias=False, pool=("max", 2))
    x = g.conv(x, 32, 3, 1, "conv5", bias=False, pool=("max", 2))
    x = g.conv(x, 16, 3, 1, "conv6", bias=False)
    return g, g.linear(g.view(x), 2, "fc")


PUBLISHED = {
    "ai85net5_mnist": lambda: ai85net5("mnist", (1, 28, 28), 10),
    "ai85net5_cifar10": lambda: ai85net5("cifar10", (3, 32, 32), 10),
    "ai85nascifarnet_cifar10": lambda: nascifarnet(10),
    "ai85nascifarnet_cifar100": lambda: nascifarnet(100),
    "ai85simplenet_cifar100": lambda: simplenet(False),
    "ai85simplenetwide2x_cifar100": lambda: simplenet(True),
    "ai85ressimplenet_cifar100": ressimplenet,
    "ai85kws20netv3": lambda: kws20v3(False),
    "ai87kws20netv3": lambda: kws20v3(True),
    "ai85faceidnet": faceid,
    "ai85cdnet": catsdogs,
}


# ---- one pair per device rule: NAME_bad breaks it, NAME_ok is the same network changed just enough ----

def conv1d_pad_multipass(pad):
    """MAX78002: a padded Conv1d reads at most 64 channels (128 channels = 2 passes)."""
    g = Net("conv1d_pad_multipass", (128, 32))
    x = g.conv(g.x, 32, 3, pad, "conv1")
    return g, g.conv(x, 16, 1, 0, "conv2", relu=False)


def pad_kernel(pad):
    """Padding must be smaller than the kernel: a 1x1 convolution cannot pad."""
    g = Net("pad_kernel", (3, 16, 16))
    x = g.conv(g.x, 16, 3, 1, "conv1")
    return g, g.conv(x, 16, 1, pad, "conv2", relu=False)


def flatten_pool(pool):
    """Flatten cannot pool: a Linear reading flatten(maxpool(x)) needs the pooling in a layer of its own."""
    g = Net("flatten_pool", (3, 16, 16))
    x = g.conv(g.x, 16, 3, 1, "conv1", pool=("max", 2))
    if pool:
        x = g.pool(x, "max", 2)
    return g, g.linear(g.view(x), 10, "fc")


def eltwise_passes(channels):
    """MAX78000: an element-wise operation fused with a convolution reads at most 2 passes x 2 operands."""
    g = Net("eltwise_passes", (3, 8, 8))
    a = g.conv(g.x, channels, 3, 1, "conv_a")
    b = g.conv(g.x, channels, 3, 1, "conv_b")
    return g, g.conv(g.add(a, b, "add"), 16, 1, 0, "conv_y", relu=False, bias=False)


def pool_passes(k):
    """MAX78000: pooling more than 64 channels without a convolution only down to 1x1."""
    g = Net("pool_passes", (3, 8, 8))
    x = g.conv(g.x, 128, 3, 1, "conv1")
    return g, g.pool(x, "max", k)


def eltwise_bias(bias):
    """MAX78002: an element-wise operation and a convolution with bias go in separate layers."""
    g = Net("eltwise_bias", (3, 8, 8))
    a = g.conv(g.x, 16, 3, 1, "conv_a", bias=False)
    b = g.conv(g.x, 16, 3, 1, "conv_b", bias=False)
    return g, g.conv(g.add(a, b, "add"), 16, 3, 1, "conv_y", relu=False, bias=bias)


def qdq(bits):
    """Quantized weights in the graph (QDQ): DequantizeLinear of an int8 (opset 13) or int4 (opset 21) initializer
    feeding conv2; nnperf map takes the layer's weight bits from it."""
    g = Net(f"qdq_int{bits}", (3, 16, 16))
    x = g.conv(g.x, 16, 3, 1, "conv1")
    wq = "conv2.weight_quantized"
    t = TensorProto()
    t.name, t.data_type = wq, TensorProto.INT8 if bits == 8 else 22  # 22: INT4 (ONNX 1.16; not in python3-onnx 1.12)
    t.dims.extend([16, 16, 3, 3])
    t.raw_data = bytes(16 * 16 * 9 if bits == 8 else 16 * 16 * 9 // 2)
    g.inits += [t, helper.make_tensor("conv2.scale", TensorProto.FLOAT, [], [0.01])]
    g.nodes.append(helper.make_node("DequantizeLinear", [wq, "conv2.scale"], ["conv2.weight"],
                                    name="/conv2/DequantizeLinear"))
    y = g._out("conv2")
    g.nodes.append(helper.make_node("Conv", [x[0], "conv2.weight"], [y], name="/conv2/Conv", kernel_shape=[3, 3],
                                    pads=[1, 1, 1, 1]))
    g.opset = 13 if bits == 8 else 21
    return g, (y, [16, 16, 16])


RULES = {
    "conv1d_pad_multipass": (lambda: conv1d_pad_multipass(1), lambda: conv1d_pad_multipass(0)),
    "pad_kernel": (lambda: pad_kernel(1), lambda: pad_kernel(0)),
    "flatten_pool": (lambda: flatten_pool(True), lambda: flatten_pool(False)),
    "eltwise_passes": (lambda: eltwise_passes(160), lambda: eltwise_passes(128)),
    "pool_passes": (lambda: pool_passes(2), lambda: pool_passes(8)),
    "eltwise_bias": (lambda: eltwise_bias(True), lambda: eltwise_bias(False)),
}


def main():
    for name, make in PUBLISHED.items():
        g, y = make()
        g.save(y, os.path.join(HERE, "ai8x", name + ".onnx"))
    for bits in (8, 4):
        g, y = qdq(bits)
        g.save(y, os.path.join(HERE, "quant", f"qdq_int{bits}.onnx"))
    for name, (bad, ok) in RULES.items():
        for suffix, make in (("bad", bad), ("ok", ok)):
            g, y = make()
            g.name = f"{name}_{suffix}"
            g.save(y, os.path.join(HERE, "rules", f"{name}_{suffix}.onnx"))


if __name__ == "__main__":
    main()
