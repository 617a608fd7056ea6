#!/usr/bin/python3
"""Generate the weight-stripped ONNX models in models/mcu/ for `nnperf map` (MAX78000 / MAX78002 planner).

Developer tool only: CI never runs it.  The generated .onnx files are committed.
Requires the Debian packages python3-torch and python3-onnx; run it with the system interpreter:

    /usr/bin/python3 models/mcu/make_mcu_models.py

The networks are built the way analogdevicesinc/ai8x-training builds its ai8x models (ai8x.py: FusedConv2dReLU,
FusedMaxPoolConv2dReLU, FusedAvgPoolConv2dReLU, Add, Linear): Conv2d/Conv1d with explicit padding and bias, ReLU,
pooling in FRONT of a convolution, no BatchNorm (ai8x folds it into the conv before synthesis), an element-wise Add
feeding the next convolution (residual), Flatten + Linear at the end.  Random weights, eval mode, exported with
torch.onnx.export at opset 13 (input "input", output "output").

    mnist_ai85net5      1x28x28   ai85net5 (ai8x-training models/ai85net.py): 60-60-56-12 channels, Linear 192->10
    cifar10_simplenet   3x32x32   after ai85simplenet: 14 conv layers (3x3 and 1x1), 512 channels at most
    kws20_conv1d        128x128   after ai85kws20 (v3): Conv1d over 128 MFCC channels x 128 samples, Linear -> 21
    cifar10_residual    3x32x32   after ai85ressimplenet: two Adds, one operand also read by another layer
    cifar10_large       3x32x32   256-channel 3x3 layers and a depthwise conv: too large for the MAX78000 (kernel
                                  memory, depthwise), fits the MAX78002
    cifar10_huge        3x32x32   5x5 and stride-2 convs and three 512x512 3x3 layers: fits neither

Weights are stripped exactly like models/make_models.py: every initializer larger than 1024 bytes keeps its name,
dims and data_type, its data become an EXTERNAL reference into "<name>.weights" (offsets aligned to 64 bytes), and
that .weights file is not written.  Smaller initializers stay inline.
"""

import io
import os

import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import numpy_helper

INLINE_LIMIT = 1024
ALIGN = 64
HERE = os.path.dirname(os.path.abspath(__file__))


class Net5(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 60, 3, padding=1)
        self.conv2 = nn.Conv2d(60, 60, 3, padding=2)
        self.conv3 = nn.Conv2d(60, 56, 3, padding=1)
        self.conv4 = nn.Conv2d(56, 12, 3, padding=1)
        self.fc = nn.Linear(12 * 4 * 4, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(F.max_pool2d(x, 2, 2)))
        x = F.relu(self.conv3(F.max_pool2d(x, 2, 2)))
        x = F.relu(self.conv4(F.avg_pool2d(x, 2, 2)))
        return self.fc(torch.flatten(x, 1))


class Seq(nn.Module):
    """A chain of (pool, conv) steps: pool is None, 'max' or 'avg'; ends with an optional flatten + linear."""

    def __init__(self, steps, fc=None, dim=2):
        super().__init__()
        conv = nn.Conv2d if dim == 2 else nn.Conv1d
        self.steps = steps
        self.convs = nn.ModuleList([conv(ci, co, k, stride=s, padding=p, groups=g)
                                    for (_, ci, co, k, p, s, g, _) in steps])
        self.fc = nn.Linear(*fc) if fc else None
        self.dim = dim

    def forward(self, x):
        for (pool, _, _, _, _, _, _, relu), c in zip(self.steps, self.convs):
            if pool == "max":
                x = F.max_pool2d(x, 2, 2) if self.dim == 2 else F.max_pool1d(x, 2, 2)
            elif pool == "avg":
                x = F.avg_pool2d(x, 2, 2) if self.dim == 2 else F.avg_pool1d(x, 2, 2)
            x = c(x)
            if relu:
                x = F.relu(x)
        if self.fc is not None:
            x = self.fc(torch.flatten(x, 1))
        return x


def step(ci, co, k=3, p=1, pool=None, s=1, g=1, relu=True):
    return (pool, ci, co, k, p, s, g, relu)


def simplenet():
    return Seq([step(3, 16), step(16, 20), step(20, 20), step(20, 20), step(20, 20, pool="max"),
                step(20, 20), step(20, 44), step(44, 48, pool="max"), step(48, 48),
                step(48, 96, pool="max"), step(96, 512, k=1, p=0, pool="max"), step(512, 128, k=1, p=0),
                step(128, 128, pool="max"), step(128, 10, k=1, p=0, relu=False)])


def kws20():
    return Seq([step(128, 100, k=1, p=0), step(100, 96, p=0), step(96, 64), step(64, 48, pool="max"),
                step(48, 64), step(64, 96, pool="max"), step(96, 100), step(100, 64, k=6, p=1, pool="max")],
               fc=(64 * 12, 21), dim=1)


class Residual(nn.Module):
    def __init__(self):
        super().__init__()
        c = nn.Conv2d
        self.conv0 = c(3, 16, 3, padding=1)
        self.conv1 = c(16, 20, 3, padding=1)
        self.conv2 = c(20, 20, 3, padding=1)
        self.conv3 = c(20, 20, 3, padding=1)
        self.conv4 = c(20, 20, 3, padding=1)
        self.conv5 = c(20, 20, 3, padding=1)
        self.conv6 = c(20, 32, 3, padding=1)
        self.conv7 = c(32, 64, 3, padding=1)
        self.conv8 = c(64, 64, 3, padding=1)
        self.conv9 = c(64, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 2 * 2, 10)

    def forward(self, x):
        x = F.relu(self.conv0(x))
        x = F.relu(self.conv1(x))
        a = F.relu(self.conv2(x))          # read by conv3 AND by the Add: needs a passthrough copy
        b = F.relu(self.conv3(a))
        y = F.relu(self.conv4(a + b))      # residual 1: eltwise add fused in front of conv4
        z = F.relu(self.conv5(y))
        w = F.relu(self.conv6(F.max_pool2d(y + z, 2, 2)))  # residual 2 (y is read twice too), then pool
        w = F.relu(self.conv7(F.max_pool2d(w, 2, 2)))
        w = F.relu(self.conv8(F.max_pool2d(w, 2, 2)))
        w = F.relu(self.conv9(F.max_pool2d(w, 2, 2)))
        return self.fc(torch.flatten(w, 1))


def large():
    return Seq([step(3, 64), step(64, 128), step(128, 256, pool="max"), step(256, 256),
                step(256, 256, g=256), step(256, 256, pool="max"), step(256, 128, pool="max"),
                step(128, 64, pool="max")], fc=(64 * 2 * 2, 10))


def huge():
    return Seq([step(3, 64, k=5, p=2), step(64, 64, s=2), step(64, 512), step(512, 512, pool="max"),
                step(512, 512), step(512, 512), step(512, 64, pool="max")], fc=(64 * 4 * 4, 10))


MODELS = {
    "mnist_ai85net5": (Net5, (1, 1, 28, 28)),
    "cifar10_simplenet": (simplenet, (1, 3, 32, 32)),
    "kws20_conv1d": (kws20, (1, 128, 128)),
    "cifar10_residual": (Residual, (1, 3, 32, 32)),
    "cifar10_large": (large, (1, 3, 32, 32)),
    "cifar10_huge": (huge, (1, 3, 32, 32)),
}


def tensor_nbytes(t):
    if len(t.raw_data):
        return len(t.raw_data)
    return numpy_helper.to_array(t).nbytes


def strip_weights(model, name):
    location = name + ".weights"
    offset = 0
    for t in model.graph.initializer:
        nbytes = tensor_nbytes(t)
        if nbytes <= INLINE_LIMIT:
            continue
        offset = (offset + ALIGN - 1) // ALIGN * ALIGN
        for field in ("raw_data", "float_data", "int32_data", "string_data",
                      "int64_data", "double_data", "uint64_data"):
            t.ClearField(field)
        del t.external_data[:]
        t.data_location = onnx.TensorProto.EXTERNAL
        for k, v in (("location", location), ("offset", str(offset)), ("length", str(nbytes))):
            e = t.external_data.add()
            e.key = k
            e.value = v
        offset += nbytes


def main():
    for name, (ctor, shape) in MODELS.items():
        torch.manual_seed(0)
        model = ctor().eval()
        buf = io.BytesIO()
        torch.onnx.export(model, torch.randn(*shape), buf, opset_version=13, do_constant_folding=True,
                          input_names=["input"], output_names=["output"])
        m = onnx.load_from_string(buf.getvalue())
        strip_weights(m, name)
        path = os.path.join(HERE, name + ".onnx")
        with open(path, "wb") as f:
            f.write(m.SerializeToString())
        print(f"{path}: {os.path.getsize(path)} bytes, {len(m.graph.node)} nodes")


if __name__ == "__main__":
    main()
