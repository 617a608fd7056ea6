#!/usr/bin/python3
"""Generate the weight-stripped ONNX models the fidelity dataset names that models/ does not have.

Developer tool only (needs python3-torchvision and python3-onnx; CI never runs it); the generated files are
committed. Weights are stripped the way models/make_models.py strips them (its strip_weights: every initializer over
1 KiB but the INT64 ones becomes an external-data reference to a file that is not shipped).

    /usr/bin/python3 bench/fidelity/data/make_models.py [NAME...]     (no NAME: all of them)

Models (random weights, eval mode, opset 13, input "input", output "output"):
  cnv_s{1,0.5,0.25,0.125}  QuTiBench's CNV at a channel scale (docs/sources.md [QUTIBENCH]; its topology table:
                          CNV 6,157,696 parameters and 469,449,728 ops at 100%): 3x3 valid convs 128, 128, pool,
                          256, 256, pool, 512, 512, then FC 1024, 1024, 10, every width times the scale; 1x3x32x32.
  mlp_s{1,0.5,0.25,0.125}  QuTiBench's MLP: 784 -> 2048 -> 2048 -> 2048 -> 10 (10,014,720 parameters at 100%), hidden
                          widths times the scale; 1x1x28x28 flattened.
  mobilenet_v1            MobileNet v1 1.0 (Howard et al. 2017): 3x3 stem 32 stride 2, 13 depthwise-separable
                          blocks, global pool, FC 1000; 1x3x224x224.
  mobilenet_v1_0.25_128, mobilenet_v1_0.5_160
                          the same at width 0.25 / 0.5 (TF slim's depth(): channels x width, at least 8), FC 1001;
                          1x3x128x128 / 1x3x160x160 (the Vitis AI 1.4 zoo's tf_mobilenetv1_0.25 / 0.5).
  mobilenet_v2_1.4        torchvision mobilenet_v2 at width 1.4 (the zoo's tf_mobilenetv2_1.4); 1x3x224x224.
  mlp_784_512_200         the fully connected network of openvinotoolkit/openvino issue 9784 (ncs2_openvino.csv): 784
                          -> 512 -> 200 -> 10 with biases and ReLU, no normalization; 1x1x28x28 flattened.
  vgg19                   torchvision vgg19; 1x3x224x224.
  googlenet_bvlc          Caffe's BVLC GoogLeNet (LRN, 5x5 inception branches, no BatchNorm) as ncnn's benchmark
                          runs it (benchmark/googlenet.param: 6,998,552 parameters); 1x3x224x224.
  resnet152, densenet169, efficientnet_b3, efficientnet_v2_s, regnet_y_1_6gf, regnet_x_3_2gf, convnext_small,
  vit_b_32, swin_s, mnasnet0_5, shufflenet_v2_x2_0, resnext101_32x8d
                          torchvision's definitions (googlenet-style options none), 1x3x224x224: the networks of the
                          third H100 run (bench/gpu/README.md), none of which models/ has.
  vit_b_32_384            torchvision vit_b_32 built for 384x384 input (ViT-B/32: 12 layers, width 768, 12 heads,
                          145 tokens), the network of ncnn's benchmark 'vision_transformer' (rpi5_ncnn.csv);
                          1x3x384x384.
  efficientnet_lite0..4   EfficientNet-lite as timm's tf_efficientnet_lite0-4 (the RDK S100 zoo's, s100_zoo.csv):
                          EfficientNet-B0's stages without SE, ReLU6, stem 32 and head 1280 fixed, first and last
                          stage repeats unscaled; widths x 1.0/1.0/1.1/1.2/1.4, depths x 1.0/1.1/1.2/1.4/1.8; inputs
                          224/240/260/300/380. Symmetric padding (timm pads stride-2 convs TensorFlow-style: same
                          output sizes and MACs).
  resnet152_v1            ResNet-152 v1 (stride 2 in a downsampling bottleneck's first 1x1 conv): the S100 zoo's,
                          whose hb_compile op count (22,564,831,232) it matches; 1x3x224x224.
  resnet50_v1             ResNet-50 v1 the same way (the Vitis AI 1.4 zoo's cf_resnet50 and tf2_resnet50).
  inception_v4, inception_resnet_v2, bn_inception, inception_v2_slim
                          TF slim's Inception v4 and Inception-ResNet v2 (1x3x299x299), the Caffe BN-Inception and TF
                          slim's inception_v2 (1x3x224x224): the Vitis AI 1.4 zoo's cf/tf_inceptionv4,
                          tf_inceptionresnetv2, cf_inceptionv2, tf_inceptionv2 (ops within 1.6% of its OPS per image).
  mobilenet_edgetpu_1.0, mobilenet_edgetpu_0.75
                          TF slim's MobileNet-EdgeTPU (mobilenet_v3.py V3_EDGETPU) at width 1.0 / 0.75, 1x3x224x224
                          (the zoo's tf_mobilenetEdge1.0 / 0.75: MACs 990.7M / 624.5M, the zoo's 990M / 624M).
  resnet_v1_{50,101,152}_slim, resnet_v2_{50,101,152}_slim
                          TF slim's resnet_v1 (1x3x224x224, 1000 classes) and pre-activation resnet_v2 (1x3x299x299,
                          1001 classes): the stride 2 in the 3x3 conv of the last unit of blocks 1-3, a 1x1 max-pool
                          shortcut where the depth is unchanged (the zoo's tf_resnetv1_* / tf_resnetv2_*; ops within
                          0.2% of its OPS per image).
  mobilenetv4_conv_small, mobilenetv4_conv_medium
                          MobileNetV4 conv-small (1x3x224x224) and conv-medium (1x3x256x256) as timm builds them (the
                          S100 zoo's): parameters 3,761,480 / 9,681,560 with BN folded and ops 372,011,136 /
                          2,160,488,448, as the zoo's export and hb_compile print them.
  r3d_18                  torchvision's R3D-18 with its global average pool as a ReduceMean (the S100 zoo's 3DResNet
                          sample); 1x3x16x112x112.
  repvgg_a0, repvgg_a1, repvgg_a2, repvgg_b0, repvgg_b1g2, repvgg_b1g4
                          RepVGG in its deploy form (one 3x3 conv with bias and ReLU a block), the RDK X5 zoo's
                          (rdk_x5_zoo.csv); 1x3x224x224.
  mobileone_s0..s4        MobileOne reparameterized (3x3 depthwise and 1x1 convs with bias and ReLU; S4 with SE), the
                          RDK X5 zoo's; 1x3x224x224.
  fasternet_t0, fasternet_t1, fasternet_t2, fasternet_s
                          FasterNet (partial 3x3 conv on a quarter of the channels, 1x1 MLP, BN), the RDK X5 zoo's;
                          1x3x224x224.
  efficientnet_b2, efficientnet_b4
                          torchvision's, at 1x3x224x224 as the RDK X5 zoo runs them.
  repvit_m0_9, repvit_m1_0, repvit_m1_1, efficientformer_l1, efficientformer_l3, efficientformerv2_s0..s2,
  efficientvit_m5, fastvit_t8, fastvit_t12, fastvit_s12, fastvit_sa12, edgenext_xx_small, edgenext_x_small,
  edgenext_small, edgenext_base
                          the RDK X5 zoo's transformer-style classifiers (rdk_x5_zoo_transformers.csv) in their
                          deployed form, written from the papers and timm's definitions (docs/sources.md
                          [TIMM-X5VIT]); 1x3x224x224.
  convnext_atto, convnext_femto, convnext_pico, convnext_nano
                          timm's ConvNeXt variants with the MLP as 1x1 convs (conv_mlp), the RDK X5 zoo's
                          (rdk_x5_zoo_convnext.csv); 1x3x224x224.
  yolov5u{n,s,m,l,x}, yolov8{n,s,m,l,x}, yolo11{n,s,m,l,x}, yolo12{n,s,m,l,x}
                          Ultralytics' detectors (BatchNorm fused) with the RDK X5 zoo's export patch: the Detect
                          head's six NHWC outputs, attention softmax as max/sub/exp/sum/div (rdk_x5_zoo_yolo.csv;
                          docs/sources.md [RDK-ZOO-X5-YOLO], [ULTRALYTICS]); 1x3x640x640.
  yolo11{n,s,m,l,x}_softmax, yolo12{n,s,m,l,x}_softmax
                          the same with ultralytics' own attention (one Softmax node), as the RDK S100 zoo exports
                          them (the Detect head patched alike: s100_zoo_yolo.csv, [RDK-ZOO-S-YOLO]).
  yolov8{n,s,m,l,x}_seg, yolo11{n,s,m,l,x}_seg_softmax
                          the S100 zoo's seg models: the same networks with the Segment head as its seg patch
                          returns it, ten NHWC outputs (s100_zoo_yolo_seg.csv, [RDK-ZOO-S-YOLO-SEG]).
  yolov8{n,s,m,l,x}_pose, yolo11{n,s,m,l,x}_pose_softmax
                          the S100 zoo's pose models: one class, the Pose head's keypoint branch, nine NHWC
                          outputs as its pose patch returns them (s100_zoo_yolo_pose.csv, [RDK-ZOO-S-YOLO-POSE]).
  yolo11{n,s,m,l,x}_seg, yolo11{n,s,m,l,x}_pose
                          the RDK X5 zoo's YOLO11 seg and pose models: the same heads with its export patch's attention
                          (max/sub/exp/sum/div), as its compile logs show it; its YOLOv8 seg and pose models are the
                          files above (rdk_x5_zoo_yolo_seg.csv, rdk_x5_zoo_yolo_pose.csv, [RDK-ZOO-X5-YOLO]).
  yolov8{n,s,m,l,x}_cls, yolo11{n,s,m,l,x}_cls
                          the RDK X5 zoo's YOLOv8-cls and YOLO11-cls (ultralytics' cls yamls, BatchNorm fused, the
                          Linear's 1000 outputs without Softmax as its compile logs show; rdk_x5_zoo_yolo_cls.csv);
                          1x3x224x224.
  retinanet_mlperf        MLPerf Inference's RetinaNet (ResNeXt50-32x4d FPN, 264 classes) without its NMS, the head's
                          ten outputs (mlperf_retinanet.csv, [MLPERF-INF]); 1x3x800x800.
  yolov8n_ultralytics, yolo11{n,s,m,l,x}_ultralytics
                          YOLOv8n and YOLO11 as ultralytics' own ONNX export writes them (the decoded (1, 84, 8400)
                          Detect output: DFL, boxes at the anchor points, sigmoid scores; YOLO11's attention with its
                          Softmax), the files TensorRT reads in jetson_orin_nano.csv and ultralytics_jetson.csv;
                          1x3x640x640.
  yolo26{n,s,m,l,x}_softmax
                          YOLO26 as the RDK X5 zoo's export_yolo26_detect_bpu.py writes it: the one-to-one head's
                          class and box maps per level, six NHWC outputs, ultralytics' attention (a Softmax node)
                          (rdk_x5_zoo_yolo26.csv); 1x3x640x640.
  yolo26{n,s,m,l,x}_ultralytics, yolo26{n,s,m,l,x}_ultralytics_dense
                          YOLO26 as ultralytics exports it (docs/sources.md [ULTRALYTICS-YOLO26]): end-to-end (the
                          one-to-one head and the top-300 selection, (1, 300, 6)), and _dense with the end2end branch
                          off (the one-to-many head, (1, 84, 8400)), as its INT8 export on TensorRT 10.3 is
                          (ultralytics_jetson_yolo26.csv); 1x3x640x640.
  yolox_s_leaky           YOLOX-S with LeakyReLU (Hailo's model zoo's yolox_s_leaky: 8.96 M parameters, 13.37 G MACs
                          in its table), exported without decoding ((1, 8400, 85)); jetson_orin_nano.csv;
                          1x3x640x640.
  NAME_q (S100_Q)         the S100 zoo's Detect and Seg graphs with a QuantizeLinear on every output it delivers
                          quantized (all but the class scores), made from NAME's file (the S100 rows of
                          s100_zoo_yolo.csv, s100_zoo_yolo_seg.csv and zoo_yolov5u.csv).
Prints each model's parameters, MACs and parameters with BatchNorm folded into the convs (QuTiBench's numbers for
CNV/MLP and the S100 zoo's parameter and op counts are checked against these)."""
import contextlib
import importlib.util
import math
import os
import subprocess
import sys

import onnx
import torch
import torch.nn as nn
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("mm", os.path.join(HERE, "..", "..", "..", "models", "make_models.py"))
mm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mm)


def cnv(s):
    c = [int(round(w * s)) for w in (128, 128, 256, 256, 512, 512)]
    f = int(round(1024 * s))
    layers, cin = [], 3
    for i, co in enumerate(c):
        layers += [nn.Conv2d(cin, co, 3, bias=False), nn.BatchNorm2d(co), nn.ReLU()]
        if i in (1, 3):
            layers.append(nn.MaxPool2d(2))
        cin = co
    layers += [nn.Flatten(), nn.Linear(cin, f, bias=False), nn.BatchNorm1d(f), nn.ReLU(),
               nn.Linear(f, f, bias=False), nn.BatchNorm1d(f), nn.ReLU(), nn.Linear(f, 10, bias=False)]
    return nn.Sequential(*layers), (1, 3, 32, 32)


def mlp(s):
    h = int(round(2048 * s))
    return nn.Sequential(nn.Flatten(), nn.Linear(784, h, bias=False), nn.BatchNorm1d(h), nn.ReLU(),
                         nn.Linear(h, h, bias=False), nn.BatchNorm1d(h), nn.ReLU(),
                         nn.Linear(h, h, bias=False), nn.BatchNorm1d(h), nn.ReLU(),
                         nn.Linear(h, 10, bias=False)), (1, 1, 28, 28)


def mobilenet_v1(width=1.0, side=224, classes=1000):
    """MobileNet v1 at a width multiplier (TF slim's depth(): channels x width, at least 8) and input side"""
    def dw(cin, cout, stride):
        return [nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(),
                nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]
    cfg = [(32, 64, 1), (64, 128, 2), (128, 128, 1), (128, 256, 2), (256, 256, 1), (256, 512, 2)] + \
          [(512, 512, 1)] * 5 + [(512, 1024, 2), (1024, 1024, 1)]

    def d(c):
        return max(int(c * width), 8)
    layers = [nn.Conv2d(3, d(32), 3, 2, 1, bias=False), nn.BatchNorm2d(d(32)), nn.ReLU()]
    for a, b, st in cfg:
        layers += dw(d(a), d(b), st)
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(d(1024), classes)]
    return nn.Sequential(*layers), (1, 3, side, side)


# TF slim's MobileNet v1 at the Vitis AI 1.4 zoo's smaller widths and inputs (tf_mobilenetv1_0.25_imagenet_128_128,
# tf_mobilenetv1_0.5_imagenet_160_160; 1001 classes, slim's background class): name -> (width, side)
MNV1_SLIM = {"mobilenet_v1_0.25_128": (0.25, 128), "mobilenet_v1_0.5_160": (0.5, 160)}


# EfficientNet-lite (Google's TPU reference models, as timm's tf_efficientnet_lite0-4 build them): EfficientNet-B0's
# stages without squeeze-and-excitation, ReLU6 for Swish; the stem (32) and head (1280) channels and the first and
# last stages' repeats are not scaled. Stages: (block, repeats, kernel, stride, expansion, channels).
LITE_STAGES = [("ds", 1, 3, 1, 1, 16), ("ir", 2, 3, 2, 6, 24), ("ir", 2, 5, 2, 6, 40), ("ir", 3, 3, 2, 6, 80),
               ("ir", 3, 5, 1, 6, 112), ("ir", 4, 5, 2, 6, 192), ("ir", 1, 3, 1, 6, 320)]
# name: (width multiplier, depth multiplier, input side)
LITE = {"efficientnet_lite0": (1.0, 1.0, 224), "efficientnet_lite1": (1.0, 1.1, 240),
        "efficientnet_lite2": (1.1, 1.2, 260), "efficientnet_lite3": (1.2, 1.4, 300),
        "efficientnet_lite4": (1.4, 1.8, 380)}


def round_channels(c, mult):
    """timm's round_channels: c x mult to a multiple of 8, not below 90% of it"""
    v = c * mult
    r = max(8, int(v + 4) // 8 * 8)
    return r + 8 if r < 0.9 * v else r


class LiteBlock(nn.Module):
    """an inverted residual (1x1 expansion, k x k depthwise, 1x1 projection) or, with expansion 1, a depthwise
    separable block; BatchNorm after every conv, ReLU6 after all but the projection; a skip where shapes allow"""

    def __init__(self, cin, cout, k, stride, e):
        super().__init__()
        mid = cin * e
        layers = [] if e == 1 else [nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU6()]
        layers += [nn.Conv2d(mid, mid, k, stride, k // 2, groups=mid, bias=False), nn.BatchNorm2d(mid), nn.ReLU6(),
                   nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout)]
        self.body = nn.Sequential(*layers)
        self.skip = stride == 1 and cin == cout

    def forward(self, x):
        y = self.body(x)
        return x + y if self.skip else y


def efficientnet_lite(name):
    wm, dm, side = LITE[name]
    layers = [nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6()]
    cin = 32
    for i, (_, r, k, s, e, c) in enumerate(LITE_STAGES):
        reps = r if i in (0, len(LITE_STAGES) - 1) else int(math.ceil(r * dm))
        cout = round_channels(c, wm)
        for j in range(reps):
            layers.append(LiteBlock(cin, cout, k, s if j == 0 else 1, e))
            cin = cout
    layers += [nn.Conv2d(cin, 1280, 1, bias=False), nn.BatchNorm2d(1280), nn.ReLU6(),
               nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(1280, 1000)]
    return nn.Sequential(*layers), (1, 3, side, side)


def resnet_v1(depth):
    """ResNet-50/101/152 as He et al. 2015 first defined it (the Caffe model, Keras's ResNet50): a downsampling
    bottleneck strides in its first 1x1 conv, not in its 3x3 conv as torchvision's (v1.5) does; otherwise
    torchvision's resnetN"""
    model = getattr(torchvision.models, "resnet%d" % depth)(weights=None)
    for stage in (model.layer2, model.layer3, model.layer4):
        stage[0].conv1.stride, stage[0].conv2.stride = (2, 2), (1, 1)
    return model, (1, 3, 224, 224)


class SlimBottleneck(nn.Module):
    """a bottleneck unit of TF slim's resnet_v1 / resnet_v2 (resnet_v1.py, resnet_v2.py): 1x1, 3x3 (which carries
    the unit's stride), 1x1 to 4x the bottleneck depth; the shortcut a strided 1x1 max-pool (a subsample, no
    arithmetic) where the depth does not change, else a strided 1x1 projection conv. v1: BatchNorm after each conv,
    ReLU after the sum. v2 (pre-activation): BatchNorm + ReLU on the unit's input, which the residual branch and a
    projection shortcut read, the last 1x1 conv with a bias and no normalization"""

    def __init__(self, cin, depth, stride, v2):
        super().__init__()
        mid = depth // 4
        self.v2 = v2
        self.pre = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU()) if v2 else nn.Identity()
        if cin == depth:
            self.short = nn.MaxPool2d(1, stride)
        else:
            self.short = nn.Conv2d(cin, depth, 1, stride, bias=v2)
            if not v2:
                self.short = nn.Sequential(self.short, nn.BatchNorm2d(depth))
        last = [nn.Conv2d(mid, depth, 1, bias=True)] if v2 else conv_bn(mid, depth, 1, act=False)
        self.body = nn.Sequential(*conv_bn(cin, mid, 1), *conv_bn(mid, mid, 3, stride), *last)
        self.relu = nn.Identity() if v2 else nn.ReLU()

    def forward(self, x):
        p = self.pre(x)
        s = self.short(x if isinstance(self.short, nn.MaxPool2d) else p)
        return self.relu(s + self.body(p))


# TF slim's ResNet units per block (blocks of base depth 64, 128, 256, 512; output depth 4x): the stride 2 is in the
# LAST unit of blocks 1-3 (slim's resnet_v1_block / resnet_v2_block), not in a block's first unit as in Caffe or
# torchvision
SLIM_UNITS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


def resnet_slim(depth, v2, side, classes):
    """TF slim's resnet_v1_N / resnet_v2_N: a 7x7/2 stem conv (v1: with BatchNorm + ReLU; v2: plain, with a bias),
    3x3/2 max-pool, the bottleneck blocks (SlimBottleneck), v2's final BatchNorm + ReLU, global pool and a 1x1 conv
    classifier (here a Linear: the same MACs)"""
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=v2)] + ([] if v2 else [nn.BatchNorm2d(64), nn.ReLU()])
    layers.append(nn.MaxPool2d(3, 2, 1))
    cin = 64
    for b, n in enumerate(SLIM_UNITS[depth]):
        for u in range(n):
            stride = 2 if b < 3 and u == n - 1 else 1
            layers.append(SlimBottleneck(cin, 256 << b, stride, v2))
            cin = 256 << b
    layers += ([nn.BatchNorm2d(cin), nn.ReLU()] if v2 else []) + \
        [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, classes)]
    return nn.Sequential(*layers), (1, 3, side, side)


# the Vitis AI 1.4 zoo's TF slim ResNets: tf_resnetv1_{50,101,152}_imagenet_224_224 (1000 classes, as slim's
# resnet_v1 checkpoints) and tf_resnetv2_{50,101,152}_imagenet_299_299 (1001 classes): name -> (depth, v2, side,
# classes)
RESNET_SLIM = {"resnet_v1_50_slim": (50, False, 224, 1000), "resnet_v1_101_slim": (101, False, 224, 1000),
               "resnet_v1_152_slim": (152, False, 224, 1000), "resnet_v2_50_slim": (50, True, 299, 1001),
               "resnet_v2_101_slim": (101, True, 299, 1001), "resnet_v2_152_slim": (152, True, 299, 1001)}


def cbr(cin, cout, k, stride=1, valid=False):
    """conv (k or (kh, kw)) + BatchNorm + ReLU; TF's SAME padding (k // 2 each side) or VALID (none)"""
    kh, kw = (k, k) if isinstance(k, int) else k
    pad = (0, 0) if valid else (kh // 2, kw // 2)
    return nn.Sequential(nn.Conv2d(cin, cout, (kh, kw), stride, pad, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


def chain(cin, *convs):
    """a branch of convs in series: each (cout, k[, stride[, valid]])"""
    layers = []
    for c in convs:
        layers.append(cbr(cin, *c))
        cin = c[0]
    return nn.Sequential(*layers)


class Concat(nn.Module):
    """an Inception module: its branches side by side, their outputs concatenated along the channels"""

    def __init__(self, *branches):
        super().__init__()
        self.branches = nn.ModuleList(branches)

    def forward(self, x):
        return torch.cat([b(x) for b in self.branches], 1)


def avg_proj(cin, cout):
    """an Inception pool branch: 3x3 average pool, stride 1 (TF: SAME, padding not counted), then a 1x1 conv"""
    return nn.Sequential(nn.AvgPool2d(3, 1, 1, count_include_pad=False), cbr(cin, cout, 1))


def max_pool(stride=2, valid=True):
    return nn.MaxPool2d(3, stride, 0 if valid else 1)


def inception_v4():
    """TF slim's inception_v4 (Szegedy et al. 2016, the Vitis AI 1.4 zoo's tf_inceptionv4 and cf_inceptionv4): stem,
    4 Inception-A, Reduction-A, 7 Inception-B, Reduction-B, 3 Inception-C, global pool, FC 1001 (no auxiliary head at
    inference); 1x3x299x299"""
    L = [cbr(3, 32, 3, 2, True), cbr(32, 32, 3, 1, True), cbr(32, 64, 3),
         Concat(max_pool(), cbr(64, 96, 3, 2, True)),
         Concat(chain(160, (64, 1), (96, 3, 1, True)),
                chain(160, (64, 1), (64, (1, 7)), (64, (7, 1)), (96, 3, 1, True))),
         Concat(cbr(192, 192, 3, 2, True), max_pool())]
    for _ in range(4):
        L.append(Concat(cbr(384, 96, 1), chain(384, (64, 1), (96, 3)), chain(384, (64, 1), (96, 3), (96, 3)),
                        avg_proj(384, 96)))
    L.append(Concat(cbr(384, 384, 3, 2, True), chain(384, (192, 1), (224, 3), (256, 3, 2, True)), max_pool()))
    for _ in range(7):
        L.append(Concat(cbr(1024, 384, 1), chain(1024, (192, 1), (224, (1, 7)), (256, (7, 1))),
                        chain(1024, (192, 1), (192, (7, 1)), (224, (1, 7)), (224, (7, 1)), (256, (1, 7))),
                        avg_proj(1024, 128)))
    L.append(Concat(chain(1024, (192, 1), (192, 3, 2, True)),
                    chain(1024, (256, 1), (256, (1, 7)), (320, (7, 1)), (320, 3, 2, True)), max_pool()))
    for _ in range(3):
        L.append(Concat(cbr(1536, 256, 1),
                        nn.Sequential(cbr(1536, 384, 1), Concat(cbr(384, 256, (1, 3)), cbr(384, 256, (3, 1)))),
                        nn.Sequential(chain(1536, (384, 1), (448, (3, 1)), (512, (1, 3))),
                                      Concat(cbr(512, 256, (1, 3)), cbr(512, 256, (3, 1)))),
                        avg_proj(1536, 256)))
    L += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(1536, 1001)]
    return nn.Sequential(*L), (1, 3, 299, 299)


class Residual(nn.Module):
    """an Inception-ResNet block: branches concatenated, a 1x1 conv (with a bias, no BatchNorm) back to the input's
    channels, scaled and added to the input, then ReLU (none on the last block8)"""

    def __init__(self, cin, width, scale, branches, act=True):
        super().__init__()
        self.mix = Concat(*branches)
        self.up = nn.Conv2d(width, cin, 1)
        self.scale = scale
        self.act = nn.ReLU() if act else nn.Identity()

    def forward(self, x):
        return self.act(x + self.scale * self.up(self.mix(x)))


def inception_resnet_v2():
    """TF slim's inception_resnet_v2 (the zoo's tf_inceptionresnetv2): stem, Mixed_5b, 10 block35 (scale 0.17),
    Mixed_6a, 20 block17 (0.10), Mixed_7a, 10 block8 (0.20, the last without ReLU), 1x1 conv 1536, global pool,
    FC 1001; 1x3x299x299"""
    L = [cbr(3, 32, 3, 2, True), cbr(32, 32, 3, 1, True), cbr(32, 64, 3), max_pool(), cbr(64, 80, 1, 1, True),
         cbr(80, 192, 3, 1, True), max_pool(),
         Concat(cbr(192, 96, 1), chain(192, (48, 1), (64, 5)), chain(192, (64, 1), (96, 3), (96, 3)),
                avg_proj(192, 64))]
    for _ in range(10):
        L.append(Residual(320, 128, 0.17, [cbr(320, 32, 1), chain(320, (32, 1), (32, 3)),
                                      chain(320, (32, 1), (48, 3), (64, 3))]))
    L.append(Concat(cbr(320, 384, 3, 2, True), chain(320, (256, 1), (256, 3), (384, 3, 2, True)), max_pool()))
    for _ in range(20):
        L.append(Residual(1088, 384, 0.10, [cbr(1088, 192, 1), chain(1088, (128, 1), (160, (1, 7)), (192, (7, 1)))]))
    L.append(Concat(chain(1088, (256, 1), (384, 3, 2, True)), chain(1088, (256, 1), (288, 3, 2, True)),
                    chain(1088, (256, 1), (288, 3), (320, 3, 2, True)), max_pool()))
    for i in range(10):
        L.append(Residual(2080, 448, 0.20, [cbr(2080, 192, 1), chain(2080, (192, 1), (224, (1, 3)), (256, (3, 1)))],
                          act=i < 9))
    L += [cbr(2080, 1536, 1), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(1536, 1001)]
    return nn.Sequential(*L), (1, 3, 299, 299)


# BN-Inception (Ioffe and Szegedy 2015): modules (1x1, 3x3 reduce, 3x3, double-3x3 reduce, double 3x3, pool, proj,
# stride); stride 2: no 1x1 branch, the pool a pass-through max-pool. 'caffe' is the Caffe model (the zoo's
# cf_inceptionv2; stem a 7x7 conv), 'slim' TF slim's inception_v2 (tf_inceptionv2: stem a depthwise-separable 7x7 with
# depth multiplier 8, and 96-channel pool projections in Mixed_4d / Mixed_4e)
BN_INCEPTION_CAFFE = [(64, 64, 64, 64, 96, "avg", 32, 1), (64, 64, 96, 64, 96, "avg", 64, 1),
                      (0, 128, 160, 64, 96, "max", 0, 2), (224, 64, 96, 96, 128, "avg", 128, 1),
                      (192, 96, 128, 96, 128, "avg", 128, 1), (160, 128, 160, 128, 160, "avg", 128, 1),
                      (96, 128, 192, 160, 192, "avg", 128, 1), (0, 128, 192, 192, 256, "max", 0, 2),
                      (352, 192, 320, 160, 224, "avg", 128, 1), (352, 192, 320, 192, 224, "max", 128, 1)]
BN_INCEPTION = {"caffe": BN_INCEPTION_CAFFE,
                "slim": [m[:6] + (96,) + m[7:] if i in (5, 6) else m for i, m in enumerate(BN_INCEPTION_CAFFE)]}


def bn_inception(kind):
    if kind == "caffe":
        L = [cbr(3, 64, 7, 2)]
    else:
        L = [nn.Conv2d(3, 24, 7, 2, 3, groups=3, bias=False), nn.Conv2d(24, 64, 1, bias=False), nn.BatchNorm2d(64),
             nn.ReLU()]
    L += [nn.MaxPool2d(3, 2, 1), cbr(64, 64, 1), cbr(64, 192, 3), nn.MaxPool2d(3, 2, 1)]
    cin = 192
    for one, r3, c3, rd, cd, pool, proj, st in BN_INCEPTION[kind]:
        br = [cbr(cin, one, 1)] if one else []
        br += [chain(cin, (r3, 1), (c3, 3, st)), chain(cin, (rd, 1), (cd, 3), (cd, 3, st))]
        if st == 2:
            br.append(nn.MaxPool2d(3, 2, 1))
        else:
            p = nn.AvgPool2d(3, 1, 1, count_include_pad=False) if pool == "avg" else nn.MaxPool2d(3, 1, 1)
            br.append(nn.Sequential(p, cbr(cin, proj, 1)))
        L.append(Concat(*br))
        cin = one + c3 + cd + (cin if st == 2 else proj)
    L += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, 1000 if kind == "caffe" else 1001)]
    return nn.Sequential(*L), (1, 3, 224, 224)


# MobileNet-EdgeTPU (TF slim's mobilenet_v3.py V3_EDGETPU, the zoo's tf_mobilenetEdge1.0 / 0.75): a 3x3/2 stem to 32,
# then blocks (fused, kernel, stride, expansion, channels, skip allowed); a fused block expands with one kxk conv that
# carries the stride, a depthwise block with a 1x1 conv and then a kxk depthwise conv; the expansion is the input's
# channels x the factor to a multiple of 8, and is left out where that is not more than the input's (the first block:
# a 1x1 projection alone); a 1x1 conv to 1280 (not scaled by the width: slim's finegrain classification mode), global
# pool, FC 1001. Channels x the width multiplier (round_channels). ReLU throughout.
MNEDGE_BLOCKS = [(True, 3, 1, 1, 16, True), (True, 3, 2, 8, 32, True)] + [(True, 3, 1, 4, 32, True)] * 3 + \
    [(True, 3, 2, 8, 48, True)] + [(True, 3, 1, 4, 48, True)] * 3 + [(False, 3, 2, 8, 96, True)] + \
    [(False, 3, 1, 4, 96, True)] * 3 + [(False, 3, 1, 8, 96, False)] + [(False, 3, 1, 4, 96, True)] * 3 + \
    [(False, 5, 2, 8, 160, True)] + [(False, 5, 1, 4, 160, True)] * 3 + [(False, 3, 1, 8, 192, True)]
MNEDGE = {"mobilenet_edgetpu_1.0": 1.0, "mobilenet_edgetpu_0.75": 0.75}


class EdgeTpuBlock(nn.Module):
    def __init__(self, cin, fused, k, stride, e, cout, skip):
        super().__init__()
        inner = round_channels(cin * e, 1.0)
        layers = []
        if inner > cin:
            layers += conv_bn(cin, inner, k, stride) if fused else conv_bn(cin, inner, 1)
        else:
            inner = cin
        layers += [] if fused else conv_bn(inner, inner, k, stride, inner)
        self.body = nn.Sequential(*layers, *conv_bn(inner, cout, 1, act=False))
        self.skip = skip and stride == 1 and cin == cout

    def forward(self, x):
        y = self.body(x)
        return x + y if self.skip else y


def mobilenet_edgetpu(name):
    wm = MNEDGE[name]
    cin = round_channels(32, wm)
    layers = conv_bn(3, cin, 3, 2)
    for fused, k, stride, e, c, skip in MNEDGE_BLOCKS:
        layers.append(EdgeTpuBlock(cin, fused, k, stride, e, round_channels(c, wm), skip))
        cin = round_channels(c, wm)
    layers += conv_bn(cin, 1280, 1) + [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(1280, 1001)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


# MobileNetV4 conv-small and conv-medium as timm builds them (mobilenetv4_conv_small/medium; Qin et al. 2024, the
# RDK S100 zoo's): blocks (kind, repeats, start dw kernel, mid dw kernel, stride, expansion, channels); ReLU throughout.
# cn: kxk conv + BN + ReLU (no skip); er: fused IB (kxk expansion conv, 1x1 projection); uir: universal inverted
# bottleneck (optional start dw kxk + BN, 1x1 expansion, optional mid dw kxk with the stride, 1x1 projection; the
# start dw takes the stride when there is no mid one). Stem 3x3/2 to 32; head: 960-channel conv, global pool, 1x1
# conv to 1280 + BN + ReLU, FC 1000.
MNV4 = {"mobilenetv4_conv_small": [
            ("cn", 1, 0, 3, 2, 1, 32), ("cn", 1, 0, 1, 1, 1, 32), ("cn", 1, 0, 3, 2, 1, 96), ("cn", 1, 0, 1, 1, 1, 64),
            ("uir", 1, 5, 5, 2, 3, 96), ("uir", 4, 0, 3, 1, 2, 96), ("uir", 1, 3, 0, 1, 4, 96),
            ("uir", 1, 3, 3, 2, 6, 128), ("uir", 1, 5, 5, 1, 4, 128), ("uir", 1, 0, 5, 1, 4, 128),
            ("uir", 1, 0, 5, 1, 3, 128), ("uir", 2, 0, 3, 1, 4, 128), ("cn", 1, 0, 1, 1, 1, 960)],
        "mobilenetv4_conv_medium": [
            ("er", 1, 0, 3, 2, 4, 48),
            ("uir", 1, 3, 5, 2, 4, 80), ("uir", 1, 3, 3, 1, 2, 80),
            ("uir", 1, 3, 5, 2, 6, 160), ("uir", 2, 3, 3, 1, 4, 160), ("uir", 1, 3, 5, 1, 4, 160),
            ("uir", 1, 3, 3, 1, 4, 160), ("uir", 1, 3, 0, 1, 4, 160), ("uir", 1, 0, 0, 1, 2, 160),
            ("uir", 1, 3, 0, 1, 4, 160),
            ("uir", 1, 5, 5, 2, 6, 256), ("uir", 1, 5, 5, 1, 4, 256), ("uir", 2, 3, 5, 1, 4, 256),
            ("uir", 1, 0, 0, 1, 4, 256), ("uir", 1, 3, 0, 1, 4, 256), ("uir", 1, 3, 5, 1, 2, 256),
            ("uir", 1, 5, 5, 1, 4, 256), ("uir", 2, 0, 0, 1, 4, 256), ("uir", 1, 5, 0, 1, 2, 256),
            ("cn", 1, 0, 1, 1, 1, 960)]}
MNV4_SIDE = {"mobilenetv4_conv_small": 224, "mobilenetv4_conv_medium": 256}


def conv_bn(cin, cout, k, stride=1, groups=1, act=True):
    layers = [nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)]
    return layers + [nn.ReLU()] if act else layers


class Mnv4Block(nn.Module):
    def __init__(self, kind, cin, cout, start, mid, stride, e):
        super().__init__()
        if kind == "cn":
            layers = conv_bn(cin, cout, mid, stride)
        elif kind == "er":
            layers = conv_bn(cin, round_channels(cin * e, 1.0), mid, stride) + \
                conv_bn(round_channels(cin * e, 1.0), cout, 1, act=False)
        else:
            hid = round_channels(cin * e, 1.0)
            layers = conv_bn(cin, cin, start, 1 if mid else stride, cin, act=False) if start else []
            layers += conv_bn(cin, hid, 1)
            layers += conv_bn(hid, hid, mid, stride, hid) if mid else []
            layers += conv_bn(hid, cout, 1, act=False)
        self.body = nn.Sequential(*layers)
        self.skip = kind != "cn" and stride == 1 and cin == cout

    def forward(self, x):
        y = self.body(x)
        return x + y if self.skip else y


def mobilenetv4(name):
    layers, cin = conv_bn(3, 32, 3, 2), 32
    for kind, reps, start, mid, stride, e, cout in MNV4[name]:
        for j in range(reps):
            layers.append(Mnv4Block(kind, cin, cout, start, mid, stride if j == 0 else 1, e))
            cin = cout
    layers += [nn.AdaptiveAvgPool2d(1)] + conv_bn(cin, 1280, 1) + [nn.Flatten(), nn.Linear(1280, 1000)]
    side = MNV4_SIDE[name]
    return nn.Sequential(*layers), (1, 3, side, side)


class MeanPool(nn.Module):
    """the global average pool as a ReduceMean over the clip's time, height and width"""

    def forward(self, x):
        return x.mean(dim=(2, 3, 4), keepdim=True)


def r3d_18():
    """torchvision's R3D-18 (video ResNet-18, 3x3x3 convs) with its 3-D global average pool as a ReduceMean, as the
    RDK S100 zoo's 3DResNet sample exports it (hb_compile takes no 3-D GlobalAveragePool); a 16-frame 112x112 clip"""
    model = torchvision.models.video.r3d_18(weights=None)
    model.avgpool = MeanPool()
    return model, (1, 3, 16, 112, 112)


def folded_params(model):
    """parameters once BatchNorm is folded into the conv before it (a bias per output channel), as the zoo's
    exported ONNX files count them"""
    n = 0
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Conv3d)):
            n += m.weight.numel() + m.out_channels
        elif isinstance(m, nn.Linear):
            n += m.weight.numel() + (m.bias.numel() if m.bias is not None else 0)
    return n


# The RDK X5 zoo's networks (rdk_x5_zoo.csv). RepVGG (Ding et al. 2021) in its deploy form: every block one 3x3 conv
# with bias and ReLU; stages of 1/2/4/14/1 (A) or 1/4/6/16/1 (B) blocks, channels min(64, 64a), 64a, 128a, 256a, 512b,
# the first block of each stage stride 2; g2/g4: the even-numbered blocks (2, 4, ..., 26, counted over all stages
# after the stem) grouped in 2 or 4. name: (blocks of stages 1-4, a, b, groups)
REPVGG = {"repvgg_a0": ((2, 4, 14, 1), 0.75, 2.5, 1), "repvgg_a1": ((2, 4, 14, 1), 1.0, 2.5, 1),
          "repvgg_a2": ((2, 4, 14, 1), 1.5, 2.75, 1), "repvgg_b0": ((4, 6, 16, 1), 1.0, 2.5, 1),
          "repvgg_b1g2": ((4, 6, 16, 1), 2.0, 4.0, 2), "repvgg_b1g4": ((4, 6, 16, 1), 2.0, 4.0, 4)}


def repvgg(name):
    blocks, a, b, g = REPVGG[name]
    cin = min(64, int(64 * a))
    layers, idx = [nn.Conv2d(3, cin, 3, 2, 1), nn.ReLU()], 1
    for n, cout in zip(blocks, (int(64 * a), int(128 * a), int(256 * a), int(512 * b))):
        for j in range(n):
            groups = g if idx % 2 == 0 else 1
            layers += [nn.Conv2d(cin, cout, 3, 2 if j == 0 else 1, 1, groups=groups), nn.ReLU()]
            cin, idx = cout, idx + 1
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, 1000)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


# MobileOne (Vasu et al. 2023) reparameterized: every block one conv with bias and ReLU, a 3x3 depthwise then a 1x1
# pointwise per unit; stages of 2/8/10/1 units at 64, 128, 256, 512 channels times the width multipliers, the stem
# min(64, 64 w0), the first unit of each stage stride 2; S4: squeeze-and-excitation (1x1 reduce to 1/16, ReLU, 1x1
# expand, Sigmoid, as apple/ml-mobileone's SEBlock) on the last 5 units of stage 3 and the unit of stage 4.
MOBILEONE = {"mobileone_s0": (0.75, 1.0, 1.0, 2.0), "mobileone_s1": (1.5, 1.5, 2.0, 2.5),
             "mobileone_s2": (1.5, 2.0, 2.5, 4.0), "mobileone_s3": (2.0, 2.5, 3.0, 4.0),
             "mobileone_s4": (3.0, 3.5, 3.5, 4.0)}


class SqueezeExcite(nn.Module):
    """global mean, 1x1 reduce (rd channels, default c/16) with bias, ReLU, 1x1 expand, Sigmoid, times the input"""

    def __init__(self, c, rd=None):
        super().__init__()
        rd = rd or int(c * 0.0625)
        self.reduce, self.expand = nn.Conv2d(c, rd, 1), nn.Conv2d(rd, c, 1)

    def forward(self, x):
        s = torch.sigmoid(self.expand(torch.relu(self.reduce(x.mean(dim=(2, 3), keepdim=True)))))
        return x * s


def mobileone(name):
    w = MOBILEONE[name]
    se = name == "mobileone_s4"
    cin = min(64, int(64 * w[0]))
    layers = [nn.Conv2d(3, cin, 3, 2, 1), nn.ReLU()]
    for n, c, wm, n_se in zip((2, 8, 10, 1), (64, 128, 256, 512), w, (0, 0, 5 if se else 0, 1 if se else 0)):
        cout = int(c * wm)
        for j in range(n):
            use_se = j >= n - n_se
            layers += [nn.Conv2d(cin, cin, 3, 2 if j == 0 else 1, 1, groups=cin)]
            layers += ([SqueezeExcite(cin)] if use_se else []) + [nn.ReLU(), nn.Conv2d(cin, cout, 1)]
            layers += ([SqueezeExcite(cout)] if use_se else []) + [nn.ReLU()]
            cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, 1000)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


# FasterNet (Chen et al. 2023): a 4x4 stride-4 patch embedding (conv + BN); stages of (1, 2, 8, 2) blocks ((1, 2, 13,
# 2) for S) at embed x 1, 2, 4, 8 channels with a 2x2 stride-2 conv + BN between them; a block is a partial 3x3 conv
# on the first quarter of the channels (split, conv, concat), then 1x1 to 2x channels, BN, the activation, 1x1 back,
# added to its input; head: global pool, 1x1 conv to 1280, the activation, FC 1000. name: (embed, depths, GELU?)
FASTERNET = {"fasternet_t0": (40, (1, 2, 8, 2), True), "fasternet_t1": (64, (1, 2, 8, 2), True),
             "fasternet_t2": (96, (1, 2, 8, 2), False), "fasternet_s": (128, (1, 2, 13, 2), False)}


class FasterBlock(nn.Module):
    def __init__(self, dim, act):
        super().__init__()
        self.part = dim // 4
        self.pconv = nn.Conv2d(self.part, self.part, 3, 1, 1, bias=False)
        self.mlp = nn.Sequential(nn.Conv2d(dim, 2 * dim, 1, bias=False), nn.BatchNorm2d(2 * dim), act(),
                                 nn.Conv2d(2 * dim, dim, 1, bias=False))

    def forward(self, x):
        a, b = torch.split(x, [self.part, x.shape[1] - self.part], dim=1)
        return x + self.mlp(torch.cat((self.pconv(a), b), 1))


def fasternet(name):
    embed, depths, gelu = FASTERNET[name]
    act = nn.GELU if gelu else nn.ReLU
    layers, dim = [nn.Conv2d(3, embed, 4, 4, bias=False), nn.BatchNorm2d(embed)], embed
    for i, n in enumerate(depths):
        if i:
            layers += [nn.Conv2d(dim, 2 * dim, 2, 2, bias=False), nn.BatchNorm2d(2 * dim)]
            dim *= 2
        layers += [FasterBlock(dim, act) for _ in range(n)]
    layers += [nn.AdaptiveAvgPool2d(1), nn.Conv2d(dim, 1280, 1, bias=False), act(), nn.Flatten(),
               nn.Linear(1280, 1000)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


# The RDK X5 zoo's transformer-style classifiers (rdk_x5_zoo_transformers.csv), written from the papers' block tables
# and timm's definitions (docs/sources.md [REPVIT], [EFFICIENTFORMER], [FASTVIT], [TIMM]) in their deployed form:
# BatchNorm folded into the conv before it (torch.onnx does that in eval mode), re-parameterized branches merged into
# the one conv with bias they become (RepViT's distillation head, averaged with the class head, merged into one Linear
# as its deploy export does; EfficientFormer, exported from timm without re-parameterization, keeps both).
class ScaledResidual(nn.Module):
    """x + f(x), f scaled per channel by a layer scale when one is given (a Mul by a (C,) or (C,1,1) constant)"""

    def __init__(self, f, scale_shape=None):
        super().__init__()
        self.f = f
        self.scale = nn.Parameter(torch.full(scale_shape, 1e-5)) if scale_shape else None

    def forward(self, x):
        y = self.f(x)
        return x + (y * self.scale if self.scale is not None else y)


def conv_mlp(c, hidden, act=nn.GELU):
    """1x1 conv to hidden channels, the activation, 1x1 conv back (biases: BatchNorm folded)"""
    return nn.Sequential(nn.Conv2d(c, hidden, 1), act(), nn.Conv2d(hidden, c, 1))


def token_mlp(c, r=4):
    """Linear to r x, GELU, Linear back (on tokens or channels-last maps)"""
    return nn.Sequential(nn.Linear(c, r * c), nn.GELU(), nn.Linear(r * c, c))


def se_rd8(c, ratio=0.25):
    """timm's SqueezeExcite channel rounding (make_divisible to 8)"""
    return max(8, int(c * ratio + 4) // 8 * 8)


# RepViT (Wang et al. 2023) as timm's repvit_m0_9 / m1_0 / m1_1: stem 3x3 s2 to c/2, GELU, 3x3 s2 to c; stage 1 of
# n blocks at c; stages 2-4 each a downsample (a block without SE, a 3x3 depthwise s2, a 1x1 to the new width and a
# residual 2x MLP) then n blocks; a block is a 3x3 depthwise conv (RepVGG-style, merged), squeeze-excite (ratio 0.25)
# on every other block starting with the first of a stage, and a residual 1x1 MLP of ratio 2 with GELU. name:
# (widths, depths)
REPVIT = {"repvit_m0_9": ((48, 96, 192, 384), (2, 2, 14, 2)), "repvit_m1_0": ((56, 112, 224, 448), (2, 2, 14, 2)),
          "repvit_m1_1": ((64, 128, 256, 512), (2, 2, 12, 2))}


def repvit_block(c, se):
    layers = [nn.Conv2d(c, c, 3, 1, 1, groups=c)] + ([SqueezeExcite(c, se_rd8(c))] if se else [])
    return nn.Sequential(*layers, ScaledResidual(conv_mlp(c, 2 * c)))


def repvit(name):
    widths, depths = REPVIT[name]
    c = widths[0]
    layers = [nn.Conv2d(3, c // 2, 3, 2, 1), nn.GELU(), nn.Conv2d(c // 2, c, 3, 2, 1)]
    for i, (w, n) in enumerate(zip(widths, depths)):
        if i:
            layers += [repvit_block(c, False), nn.Conv2d(c, c, 3, 2, 1, groups=c), nn.Conv2d(c, w, 1),
                       ScaledResidual(conv_mlp(w, 2 * w))]
            c = w
        layers += [repvit_block(c, j % 2 == 0) for j in range(n)]
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, 1000)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


class AvgPoolMixer(nn.Module):
    """PoolFormer's token mixer: 3x3 average pool (stride 1, padding not counted) minus the input"""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool2d(3, 1, 1, count_include_pad=False)

    def forward(self, x):
        return self.pool(x) - x


class EFAttention(nn.Module):
    """EfficientFormer's attention over the 7x7 tokens: qkv Linear to heads x (key 32, key 32, value 4 x 32), q k^T
    scaled plus a learned per-head bias over token pairs (a constant once exported), Softmax, times v, Linear back"""

    def __init__(self, dim, heads=8, key=32, ratio=4, tokens=49):
        super().__init__()
        self.heads, self.key, self.val = heads, key, ratio * key
        self.qkv = nn.Linear(dim, heads * (2 * key + ratio * key))
        self.proj = nn.Linear(heads * ratio * key, dim)
        self.register_buffer("bias", torch.zeros(heads, tokens, tokens))

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.qkv(x).reshape(b, n, self.heads, -1).permute(0, 2, 1, 3).split(
            [self.key, self.key, self.val], dim=3)
        a = torch.softmax(q @ k.transpose(-2, -1) * self.key ** -0.5 + self.bias, dim=-1)
        return self.proj((a @ v).transpose(1, 2).reshape(b, n, self.heads * self.val))


class Tokens(nn.Module):
    """B x C x H x W -> B x HW x C"""

    def forward(self, x):
        return x.flatten(2).transpose(1, 2)


class MeanHead(nn.Module):
    """LayerNorm, mean over the tokens, the class and distillation Linear heads averaged (timm's export keeps both;
    the published parameter counts include both)"""

    def __init__(self, dim):
        super().__init__()
        self.norm, self.fc, self.dist = nn.LayerNorm(dim), nn.Linear(dim, 1000), nn.Linear(dim, 1000)

    def forward(self, x):
        x = self.norm(x).mean(dim=1)
        return (self.fc(x) + self.dist(x)) / 2


# EfficientFormer (Li et al. 2022) as timm's efficientformer_l1 / l3: stem two 3x3 s2 convs (to c/2 and c) with BN
# and ReLU; stages of n meta-blocks at the widths, a 3x3 s2 conv + BN before stages 2-4; a 4D meta-block is x + s1 x
# (avgpool3x3(x) - x) then x + s2 x MLP (1x1 conv to 4x, BN, GELU, 1x1 conv, BN); the last num_vit blocks of stage 4
# are 3D (tokens): x + s1 x attention(LayerNorm(x)) then x + s2 x MLP(LayerNorm(x)) (Linear 4x, GELU, Linear), s1, s2
# layer scales. name: (widths, depths, num_vit)
EFFICIENTFORMER = {"efficientformer_l1": ((48, 96, 224, 448), (3, 2, 6, 4), 1),
                   "efficientformer_l3": ((64, 128, 320, 512), (4, 4, 12, 6), 4)}


def efficientformer(name):
    widths, depths, num_vit = EFFICIENTFORMER[name]
    c = widths[0]
    layers = [nn.Conv2d(3, c // 2, 3, 2, 1), nn.ReLU(), nn.Conv2d(c // 2, c, 3, 2, 1), nn.ReLU()]
    for i, (w, n) in enumerate(zip(widths, depths)):
        if i:
            layers.append(nn.Conv2d(c, w, 3, 2, 1))
            c = w
        vit = num_vit if i == len(widths) - 1 else 0
        for j in range(n - vit):
            layers += [ScaledResidual(AvgPoolMixer(), (c, 1, 1)), ScaledResidual(conv_mlp(c, 4 * c), (c, 1, 1))]
        if vit:
            layers.append(Tokens())
        for j in range(vit):
            layers += [ScaledResidual(nn.Sequential(nn.LayerNorm(c), EFAttention(c)), (c,)),
                       ScaledResidual(nn.Sequential(nn.LayerNorm(c), token_mlp(c)), (c,))]
    layers.append(MeanHead(c))
    return nn.Sequential(*layers), (1, 3, 224, 224)


class MHSA2d(nn.Module):
    """FastViT's attention on a B x C x H x W map: tokens, qkv Linear without bias (heads of 32), scaled q k^T,
    Softmax, times v, Linear back, map again"""

    def __init__(self, dim, head=32):
        super().__init__()
        self.heads, self.head = dim // head, head
        self.qkv, self.proj = nn.Linear(dim, 3 * dim, bias=False), nn.Linear(dim, dim)

    def forward(self, x):
        b, c, h, w = x.shape
        q, k, v = self.qkv(x.flatten(2).transpose(1, 2)).reshape(b, h * w, 3, self.heads, self.head).permute(
            2, 0, 3, 1, 4).unbind(0)
        a = torch.softmax(q * self.head ** -0.5 @ k.transpose(-2, -1), dim=-1)
        return self.proj((a @ v).transpose(1, 2).reshape(b, h * w, c)).transpose(1, 2).reshape(b, c, h, w)


# FastViT (Vasu et al. 2023) re-parameterized, as timm's fastvit_t8 / t12 / s12 / sa12 after reparameterize_model:
# stem 3x3 s2 conv, 3x3 s2 depthwise, 1x1 (each with bias and GELU); before stages 2-4 a 7x7 s2 conv grouped by the
# input channels (to 2x) then 1x1 with GELU; a RepMixer block is a 3x3 depthwise conv (the merged mixer) then x + s x
# ConvFFN (7x7 depthwise, 1x1 to r x, GELU, 1x1 back); SA12's stage 4 starts with a 7x7 depthwise conditional
# position encoding (merged) and its blocks are x + s1 x attention(BatchNorm(x)), x + s2 x ConvFFN; head: 3x3 conv
# grouped by the 512 input channels to 1024, squeeze-excite (1/16), GELU, mean, Linear. name: (widths, depths, MLP
# ratio, attention in stage 4)
FASTVIT = {"fastvit_t8": ((48, 96, 192, 384), (2, 2, 4, 2), 3, False),
           "fastvit_t12": ((64, 128, 256, 512), (2, 2, 6, 2), 3, False),
           "fastvit_s12": ((64, 128, 256, 512), (2, 2, 6, 2), 4, False),
           "fastvit_sa12": ((64, 128, 256, 512), (2, 2, 6, 2), 4, True)}


def conv_ffn(c, r):
    return nn.Sequential(nn.Conv2d(c, c, 7, 1, 3, groups=c), conv_mlp(c, r * c))


def fastvit(name):
    widths, depths, r, sa = FASTVIT[name]
    c = widths[0]
    layers = [nn.Conv2d(3, c, 3, 2, 1), nn.GELU(), nn.Conv2d(c, c, 3, 2, 1, groups=c), nn.GELU(), nn.Conv2d(c, c, 1),
              nn.GELU()]
    for i, (w, n) in enumerate(zip(widths, depths)):
        if i:
            layers += [nn.Conv2d(c, w, 7, 2, 3, groups=c), nn.Conv2d(w, w, 1), nn.GELU()]
            c = w
        if sa and i == len(widths) - 1:
            layers.append(nn.Conv2d(c, c, 7, 1, 3, groups=c))
            attn = [ScaledResidual(nn.Sequential(nn.BatchNorm2d(c), MHSA2d(c)), (c, 1, 1)) for _ in range(n)]
            layers += [m for a in attn for m in (a, ScaledResidual(conv_ffn(c, r), (c, 1, 1)))]
        else:
            layers += [m for _ in range(n) for m in (nn.Conv2d(c, c, 3, 1, 1, groups=c),
                                                     ScaledResidual(conv_ffn(c, r), (c, 1, 1)))]
    layers += [nn.Conv2d(c, 2 * c, 3, 1, 1, groups=c), SqueezeExcite(2 * c), nn.GELU(), nn.AdaptiveAvgPool2d(1),
               nn.Flatten(), nn.Linear(2 * c, 1000)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


class ChannelsLastNorm(nn.Module):
    """LayerNorm over the channels of a B x C x H x W map (permute, LayerNorm, permute back)"""

    def __init__(self, c, eps=1e-6):
        super().__init__()
        self.norm = nn.LayerNorm(c, eps=eps)

    def forward(self, x):
        return self.norm(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)


class EdgeConvBlock(nn.Module):
    """EdgeNeXt's conv encoder: k x k depthwise conv, then (channels last) LayerNorm, MLP 4x with GELU, layer scale,
    added to the block's input"""

    def __init__(self, c, k):
        super().__init__()
        self.dw, self.norm, self.mlp = nn.Conv2d(c, c, k, 1, k // 2, groups=c), nn.LayerNorm(c, eps=1e-6), token_mlp(c)
        self.gamma = nn.Parameter(torch.full((c,), 1e-6))

    def forward(self, x):
        y = self.mlp(self.norm(self.dw(x).permute(0, 2, 3, 1))) * self.gamma
        return x + y.permute(0, 3, 1, 2)


class SDTA(nn.Module):
    """EdgeNeXt's split depth-wise transpose attention: the channels in s chunks, each of the first s-1 (plus the
    previous one's output) through a 3x3 depthwise conv, the last passed on; tokens (plus a fixed Fourier position
    encoding through a 1x1 conv where used); x + g1 x cross-covariance attention (qkv Linear with bias, q and k
    L2-normalized over the tokens, a per-head temperature, Softmax over the channel x channel map, times v, Linear)
    of LayerNorm(x); then x + g2 x MLP 4x of LayerNorm(x)"""

    def __init__(self, c, scales, heads, side, pos):
        super().__init__()
        self.n, w = scales, int(math.ceil(c / scales))
        self.convs = nn.ModuleList(nn.Conv2d(w, w, 3, 1, 1, groups=w) for _ in range(max(1, scales - 1)))
        self.heads, self.side = heads, side
        if pos:
            self.register_buffer("grid", torch.zeros(1, 64, side, side))
            self.pos = nn.Conv2d(64, c, 1)
        else:
            self.pos = None
        self.norm_xca, self.norm = nn.LayerNorm(c, eps=1e-6), nn.LayerNorm(c, eps=1e-6)
        self.qkv, self.proj = nn.Linear(c, 3 * c), nn.Linear(c, c)
        self.temperature = nn.Parameter(torch.ones(heads, 1, 1))
        self.g1, self.g2 = nn.Parameter(torch.full((c,), 1e-6)), nn.Parameter(torch.full((c,), 1e-6))
        self.mlp = token_mlp(c)

    def forward(self, x):
        b, c, h, w = x.shape
        parts, outs = x.chunk(len(self.convs) + 1, dim=1), []
        sp = parts[0]
        for i, conv in enumerate(self.convs):
            sp = conv(sp if i == 0 else sp + parts[i])
            outs.append(sp)
        t = torch.cat(outs + [parts[-1]], 1).reshape(b, c, h * w).permute(0, 2, 1)
        if self.pos is not None:
            t = t + self.pos(self.grid).reshape(1, c, h * w).permute(0, 2, 1)
        q, k, v = self.qkv(self.norm_xca(t)).reshape(b, h * w, 3, self.heads, -1).permute(2, 0, 3, 4, 1).unbind(0)
        q, k = nn.functional.normalize(q, dim=-1), nn.functional.normalize(k, dim=-1)
        a = torch.softmax(q @ k.transpose(-2, -1) * self.temperature, dim=-1)
        t = t + self.proj((a @ v).permute(0, 3, 1, 2).reshape(b, h * w, c)) * self.g1
        y = self.mlp(self.norm(t)) * self.g2
        return x + y.reshape(b, h, w, c).permute(0, 3, 1, 2)


# EdgeNeXt (Maaz et al. 2022) as timm's edgenext_xx_small / x_small / small / base: a 4x4 s4 patch conv + LayerNorm;
# stages 2-4 start with LayerNorm + a 2x2 s2 conv; in each stage all blocks but the last are conv encoders with
# kernels 3/5/7/9 by stage, the last of stages 2-4 an SDTA block (chunks 2/3/4 by stage, the position encoding in
# stage 2 only); head: global mean, LayerNorm, Linear. name: (widths, depths, heads)
EDGENEXT = {"edgenext_xx_small": ((24, 48, 88, 168), (2, 2, 6, 2), 4),
            "edgenext_x_small": ((32, 64, 100, 192), (3, 3, 9, 3), 4),
            "edgenext_small": ((48, 96, 160, 304), (3, 3, 9, 3), 8),
            "edgenext_base": ((80, 160, 288, 584), (3, 3, 9, 3), 8)}


def edgenext(name):
    widths, depths, heads = EDGENEXT[name]
    c, side = widths[0], 56
    layers = [nn.Conv2d(3, c, 4, 4), ChannelsLastNorm(c)]
    for i, (w, n, k, sc) in enumerate(zip(widths, depths, (3, 5, 7, 9), (2, 2, 3, 4))):
        if i:
            layers += [ChannelsLastNorm(c), nn.Conv2d(c, w, 2, 2)]
            c, side = w, side // 2
        layers += [EdgeConvBlock(c, k) for _ in range(n - (1 if i else 0))]
        if i:
            layers.append(SDTA(c, sc, heads, side, i == 1))
    layers += [nn.AdaptiveAvgPool2d(1), ChannelsLastNorm(c), nn.Flatten(), nn.Linear(c, 1000)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


# ConvNeXt (Liu et al. 2022) as timm's convnext_atto / femto / pico / nano (conv_mlp=True, the RDK X5 zoo's export
# of them, rdk_x5_zoo_convnext.csv): a 4x4 s4 patch conv (bias) + LayerNorm2d; stages 2-4 start with LayerNorm2d + a
# 2x2 s2 conv; a block is a 7x7 depthwise conv (bias), LayerNorm2d (permute, LayerNorm eps 1e-6, permute back), a
# 1x1 conv MLP 4x with GELU, a layer scale (a Mul by a (C,1,1) constant) and the residual add; head: global mean,
# LayerNorm2d, flatten, Linear. name: (widths, depths)
CONVNEXT = {"convnext_atto": ((40, 80, 160, 320), (2, 2, 6, 2)), "convnext_femto": ((48, 96, 192, 384), (2, 2, 6, 2)),
            "convnext_pico": ((64, 128, 256, 512), (2, 2, 6, 2)), "convnext_nano": ((80, 160, 320, 640), (2, 2, 8, 2))}


def convnext_block(c):
    return ScaledResidual(nn.Sequential(nn.Conv2d(c, c, 7, 1, 3, groups=c), ChannelsLastNorm(c), conv_mlp(c, 4 * c)),
                          (c, 1, 1))


def convnext_timm(name):
    widths, depths = CONVNEXT[name]
    layers = [nn.Conv2d(3, widths[0], 4, 4), ChannelsLastNorm(widths[0])]
    for i, (w, n) in enumerate(zip(widths, depths)):
        if i:
            layers += [ChannelsLastNorm(widths[i - 1]), nn.Conv2d(widths[i - 1], w, 2, 2)]
        layers += [convnext_block(w) for _ in range(n)]
    layers += [nn.AdaptiveAvgPool2d(1), ChannelsLastNorm(widths[-1]), nn.Flatten(), nn.Linear(widths[-1], 1000)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


class EFV2Attention(nn.Module):
    """EfficientFormerV2's attention on a map (heads 8, key 32 (16 when it downsamples), value 4 x key): 1x1 q, k, v
    (BatchNorm folded), a 3x3 depthwise 'local' conv on v; q k^T scaled plus a learned bias over token pairs (a
    constant once exported), 1x1 'talking head' convs over the heads before and after the Softmax (not when it
    downsamples), times v, plus the local v, GELU, 1x1 projection. stride: a 3x3 s2 depthwise conv first and a
    bilinear x2 upsample at the end; down: queries from a 3x3 s2 depthwise conv plus a stride-2 subsample (then 1x1),
    the output at half the side"""

    def __init__(self, dim, side, stride=False, down=False, out=None):
        super().__init__()
        h, key = 8, 16 if down else 32
        self.h, self.key, self.val = h, key, 4 * key
        self.stride = nn.Conv2d(dim, dim, 3, 2, 1, groups=dim) if stride else None
        self.down = down
        if down:
            self.q_local, self.q_pool = nn.Conv2d(dim, dim, 3, 2, 1, groups=dim), nn.AvgPool2d(1, 2, 0)
        self.q, self.k, self.v = nn.Conv2d(dim, h * key, 1), nn.Conv2d(dim, h * key, 1), nn.Conv2d(dim, h * 4 * key, 1)
        self.v_local = nn.Conv2d(h * 4 * key, h * 4 * key, 3, 2 if down else 1, 1, groups=h * 4 * key)
        self.th1, self.th2 = (None, None) if down else (nn.Conv2d(h, h, 1), nn.Conv2d(h, h, 1))
        self.proj = nn.Sequential(nn.GELU(), nn.Conv2d(h * 4 * key, out or dim, 1))
        n = (side // 2) ** 2 if stride else side ** 2
        self.register_buffer("bias", torch.zeros(h, (side // 2) ** 2 if down else n, n))

    def forward(self, x):
        b = x.shape[0]
        if self.stride is not None:
            x = self.stride(x)
        q_in = self.q_local(x) + self.q_pool(x) if self.down else x
        q = self.q(q_in).flatten(2).reshape(b, self.h, self.key, -1).transpose(2, 3)
        k = self.k(x).flatten(2).reshape(b, self.h, self.key, -1)
        v = self.v(x)
        v_local = self.v_local(v)
        v = v.flatten(2).reshape(b, self.h, self.val, -1).transpose(2, 3)
        a = q @ k * self.key ** -0.5 + self.bias
        a = torch.softmax(a if self.th1 is None else self.th1(a), dim=-1)
        a = a if self.th2 is None else self.th2(a)
        y = (a @ v).transpose(2, 3).reshape(v_local.shape) + v_local
        if self.stride is not None:
            y = nn.functional.interpolate(y, scale_factor=2, mode="bilinear")
        return self.proj(y)


class AttnDownsample(nn.Module):
    """EfficientFormerV2's last downsample: a 3x3 s2 conv plus the downsampling attention"""

    def __init__(self, cin, cout, side):
        super().__init__()
        self.conv, self.attn = nn.Conv2d(cin, cout, 3, 2, 1), EFV2Attention(cin, side, down=True, out=cout)

    def forward(self, x):
        return self.conv(x) + self.attn(x)


# EfficientFormerV2 (Li et al. 2023) as timm's efficientformerv2_s0 / s1 / s2: stem two 3x3 s2 convs (c/2, c) with BN
# and GELU; a 3x3 s2 conv + BN before stages 2-4 (plus the downsampling attention before stage 4); every block x +
# s2 x MLP (1x1 to r x, BN, GELU, 3x3 depthwise, BN, GELU, 1x1, BN) with r per block, the last num_vit blocks of
# stages 3 and 4 first x + s1 x attention (stage 3's strided to 7x7); head: BN, mean, class and distillation Linear
# averaged. name: (widths, depths, MLP ratios of stages 3 and 4, num_vit)
EFFICIENTFORMERV2 = {"efficientformerv2_s0": ((32, 48, 96, 176), (2, 2, 6, 4), ((4, 3, 3, 3, 4, 4), (4, 3, 3, 4)), 2),
                     "efficientformerv2_s1": ((32, 48, 120, 224), (3, 3, 9, 6),
                                              ((4, 4, 3, 3, 3, 3, 4, 4, 4), (4, 4, 3, 3, 4, 4)), 2),
                     "efficientformerv2_s2": ((32, 64, 144, 288), (4, 4, 12, 8),
                                              ((4, 4, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4), (4, 4, 3, 3, 3, 3, 4, 4)), 4)}


class MapHead(nn.Module):
    """global mean, the class and distillation Linear heads averaged"""

    def __init__(self, dim):
        super().__init__()
        self.fc, self.dist = nn.Linear(dim, 1000), nn.Linear(dim, 1000)

    def forward(self, x):
        x = x.mean(dim=(2, 3))
        return (self.fc(x) + self.dist(x)) / 2


def efficientformerv2(name):
    widths, depths, ratios, num_vit = EFFICIENTFORMERV2[name]
    c, side = widths[0], 56
    layers = [nn.Conv2d(3, c // 2, 3, 2, 1), nn.GELU(), nn.Conv2d(c // 2, c, 3, 2, 1), nn.GELU()]
    for i, (w, n) in enumerate(zip(widths, depths)):
        if i == 3:
            layers.append(AttnDownsample(c, w, side))
        elif i:
            layers.append(nn.Conv2d(c, w, 3, 2, 1))
        if i:
            c, side = w, side // 2
        for j in range(n):
            r = ratios[i - 2][j] if i >= 2 else 4
            if i >= 2 and j >= n - num_vit:
                layers.append(ScaledResidual(EFV2Attention(c, side, stride=i == 2), (c, 1, 1)))
            layers.append(ScaledResidual(nn.Sequential(nn.Conv2d(c, r * c, 1), nn.GELU(),
                                                       nn.Conv2d(r * c, r * c, 3, 1, 1, groups=r * c), nn.GELU(),
                                                       nn.Conv2d(r * c, c, 1)), (c, 1, 1)))
    layers += [nn.BatchNorm2d(c), MapHead(c)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


class CascadedGroupAttention(nn.Module):
    """EfficientViT's attention within a window: the channels in h chunks; head i takes chunk i plus head i-1's
    output, a 1x1 conv to q (16), k (16), v (dim / h), a k x k depthwise conv on q, Softmax(q^T k scaled + a learned
    bias over token pairs), v times it; the heads concatenated, ReLU, 1x1 projection (BatchNorm folded)"""

    def __init__(self, dim, heads, kernels, tokens, key=16):
        super().__init__()
        self.key, self.val = key, dim // heads
        self.qkvs = nn.ModuleList(nn.Conv2d(self.val, 2 * key + self.val, 1) for _ in range(heads))
        self.dws = nn.ModuleList(nn.Conv2d(key, key, k, 1, k // 2, groups=key) for k in kernels[:heads])
        self.proj = nn.Sequential(nn.ReLU(), nn.Conv2d(dim, dim, 1))
        self.register_buffer("bias", torch.zeros(heads, tokens, tokens))

    def forward(self, x):
        b, _, h, w = x.shape
        parts, outs = x.chunk(len(self.qkvs), dim=1), []
        feat = parts[0]
        for i, (qkv, dw) in enumerate(zip(self.qkvs, self.dws)):
            q, k, v = qkv(feat if i == 0 else feat + parts[i]).split([self.key, self.key, self.val], dim=1)
            q, k, v = dw(q).flatten(2) * self.key ** -0.5, k.flatten(2), v.flatten(2)
            a = torch.softmax(q.transpose(-2, -1) @ k + self.bias[i], dim=-1)
            feat = (v @ a.transpose(-2, -1)).reshape(b, self.val, h, w)
            outs.append(feat)
        return self.proj(torch.cat(outs, 1))


class WindowAttention(nn.Module):
    """the attention on 7x7 windows of a side x side map (side a multiple of 7, or at most 7: one window)"""

    def __init__(self, dim, heads, kernels, side, win=7):
        super().__init__()
        self.win = min(win, side)
        self.attn = CascadedGroupAttention(dim, heads, kernels, self.win ** 2)

    def forward(self, x):
        b, c, h, w = x.shape
        if h <= self.win:
            return self.attn(x)
        n, m, s = h // self.win, w // self.win, self.win
        t = x.reshape(b, c, n, s, m, s).permute(0, 2, 4, 1, 3, 5).reshape(b * n * m, c, s, s)
        return self.attn(t).reshape(b, n, m, c, s, s).permute(0, 3, 1, 4, 2, 5).reshape(b, c, h, w)


def evit_dw_ffn(c):
    """EfficientViT's residual 3x3 depthwise conv and residual 1x1 MLP 2x with ReLU"""
    return [ScaledResidual(nn.Conv2d(c, c, 3, 1, 1, groups=c)), ScaledResidual(conv_mlp(c, 2 * c, nn.ReLU))]


# EfficientViT (Liu et al. 2023, MSRA) as timm's efficientvit_m5: patch embedding of four 3x3 s2 convs (to c/8, c/4,
# c/2, c) with ReLU between; stages at 14x14, 7x7, 4x4 of 1/3/4 blocks at 192/288/384 channels with 3/3/4 heads; each
# block: residual depthwise, residual MLP, residual windowed cascaded group attention, residual depthwise, residual
# MLP; between stages a residual depthwise + MLP, patch merging (1x1 to 4x, ReLU, 3x3 s2 depthwise, ReLU,
# squeeze-excite 0.25, 1x1 out), and a residual depthwise + MLP; head: mean, Linear (BatchNorm folded).
EFFICIENTVIT = {"efficientvit_m5": ((192, 288, 384), (1, 3, 4), (3, 3, 4), (7, 5, 3, 3))}


def efficientvit(name):
    widths, depths, heads, kernels = EFFICIENTVIT[name]
    c, side = widths[0], 14
    layers = [nn.Conv2d(3, c // 8, 3, 2, 1), nn.ReLU(), nn.Conv2d(c // 8, c // 4, 3, 2, 1), nn.ReLU(),
              nn.Conv2d(c // 4, c // 2, 3, 2, 1), nn.ReLU(), nn.Conv2d(c // 2, c, 3, 2, 1)]
    for i, (w, n, h) in enumerate(zip(widths, depths, heads)):
        if i:
            e = 4 * c
            layers += evit_dw_ffn(c) + [nn.Conv2d(c, e, 1), nn.ReLU(), nn.Conv2d(e, e, 3, 2, 1, groups=e), nn.ReLU(),
                                        SqueezeExcite(e, se_rd8(e)), nn.Conv2d(e, w, 1)]
            c, side = w, (side - 1) // 2 + 1
            layers += evit_dw_ffn(c)
        for _ in range(n):
            layers += evit_dw_ffn(c) + [ScaledResidual(WindowAttention(c, h, kernels, side))] + evit_dw_ffn(c)
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, 1000)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


class LRNFn(torch.autograd.Function):
    """across-channel local response normalization, exported as one ONNX LRN node (torch.onnx writes
    nn.LocalResponseNorm as a padded average pool, a Pow and a Div behind an If)"""

    @staticmethod
    def forward(ctx, x, size, alpha, beta, k):
        return nn.functional.local_response_norm(x, size, alpha, beta, k)

    @staticmethod
    def symbolic(g, x, size, alpha, beta, k):
        return g.op("LRN", x, size_i=size, alpha_f=alpha, beta_f=beta, bias_f=k)


class LRN(nn.Module):
    """Caffe's LRN (ACROSS_CHANNELS, local_size 5, alpha 1e-4, beta 0.75, k 1)"""

    def forward(self, x):
        return LRNFn.apply(x, 5, 1e-4, 0.75, 1.0)


class InceptionV1(nn.Module):
    """a BVLC GoogLeNet inception module: 1x1; 1x1 -> 3x3; 1x1 -> 5x5; 3x3 max pool (stride 1) -> 1x1; each conv with
    a bias and ReLU, the four concatenated"""

    def __init__(self, cin, c1, r3, c3, r5, c5, cp):
        super().__init__()
        cr = lambda i, o, k: [nn.Conv2d(i, o, k, 1, k // 2), nn.ReLU()]
        self.b = nn.ModuleList([nn.Sequential(*cr(cin, c1, 1)), nn.Sequential(*cr(cin, r3, 1), *cr(r3, c3, 3)),
                                nn.Sequential(*cr(cin, r5, 1), *cr(r5, c5, 5)),
                                nn.Sequential(nn.MaxPool2d(3, 1, 1, ceil_mode=True), *cr(cin, cp, 1))])

    def forward(self, x):
        return torch.cat([b(x) for b in self.b], 1)


# Ultralytics YOLOv8 / YOLO11 / YOLO12 detectors as the RDK X5 zoo exports them (samples/vision/ultralytics_yolo,
# docs/sources.md [RDK-ZOO-X5-YOLO], [ULTRALYTICS]): BatchNorm fused into every conv (model.fuse() before export), SiLU
# activations, the model zoo's export patch: the Detect head returns, per level P3/P4/P5, the class conv branch
# (cv3) then the box branch (cv2, 4 x 16 DFL logits) each permuted to NHWC (no DFL, no decoding, no concat), and the
# attention modules' softmax is written as max, subtract, exp, sum and divide along the key dimension, with the
# permutes the patch adds around it. Written from ultralytics' yaml tables and module definitions.
# scale: (depth, width, max channels)
YOLO_SCALES = {"yolov5u": {"n": (0.33, 0.25, 1024), "s": (0.33, 0.50, 1024), "m": (0.67, 0.75, 1024),
                           "l": (1.00, 1.00, 1024), "x": (1.33, 1.25, 1024)},
               "yolov8": {"n": (0.33, 0.25, 1024), "s": (0.33, 0.50, 1024), "m": (0.67, 0.75, 768),
                          "l": (1.00, 1.00, 512), "x": (1.00, 1.25, 512)},
               "yolo11": {"n": (0.50, 0.25, 1024), "s": (0.50, 0.50, 1024), "m": (0.50, 1.00, 512),
                          "l": (1.00, 1.00, 512), "x": (1.00, 1.50, 512)},
               "yolo12": {"n": (0.50, 0.25, 1024), "s": (0.50, 0.50, 1024), "m": (0.50, 1.00, 512),
                          "l": (1.00, 1.00, 512), "x": (1.00, 1.50, 512)}}
YOLO26_SCALES = YOLO_SCALES["yolo11"]  # ultralytics' yolo26.yaml: YOLO11's depth, width and max channels


class YConv(nn.Sequential):
    """ultralytics Conv with its BatchNorm fused: a conv with bias, then SiLU (or nothing: act False; or another
    activation: act a module class, e.g. YOLOX's leaky_relu)"""

    def __init__(self, c1, c2, k=1, s=1, p=None, g=1, act=True):
        layers = [nn.Conv2d(c1, c2, k, s, k // 2 if p is None else p, groups=g)]
        super().__init__(*(layers + [nn.SiLU() if act is True else act()] if act else layers))


class YBottleneck(nn.Module):
    def __init__(self, c1, c2, shortcut=True, k=3, e=0.5, k1=None, act=True):
        super().__init__()
        c_ = int(c2 * e)
        self.cv1, self.cv2 = YConv(c1, c_, k if k1 is None else k1, act=act), YConv(c_, c2, k, act=act)
        self.add = shortcut and c1 == c2

    def forward(self, x):
        y = self.cv2(self.cv1(x))
        return x + y if self.add else y


class YC3k(nn.Module):
    """C3k: n bottlenecks of two 3x3 convs (e=1), cv3(cat(m(cv1(x)), cv2(x))); k1=1: YOLOv5's C3 (a 1x1 then a 3x3),
    which with act=leaky_relu is YOLOX's CSPLayer"""

    def __init__(self, c1, c2, n=1, shortcut=True, e=0.5, k1=None, act=True):
        super().__init__()
        c_ = int(c2 * e)
        self.cv1, self.cv2, self.cv3 = YConv(c1, c_, act=act), YConv(c1, c_, act=act), YConv(2 * c_, c2, act=act)
        self.m = nn.Sequential(*(YBottleneck(c_, c_, shortcut, 3, 1.0, k1, act) for _ in range(n)))

    def forward(self, x):
        return self.cv3(torch.cat((self.m(self.cv1(x)), self.cv2(x)), 1))


class YC2f(nn.Module):
    """C2f (YOLOv8: bottlenecks with e=1) and C3k2 (YOLO11/12: bottlenecks with e=0.5, or C3k blocks)"""

    def __init__(self, c1, c2, n=1, shortcut=False, e=0.5, kind="c2f", c3k=False, attn=False):
        super().__init__()
        self.c = c = int(c2 * e)
        self.cv1, self.cv2 = YConv(c1, 2 * c), YConv((2 + n) * c, c2)
        if kind == "c2f":
            self.m = nn.ModuleList(YBottleneck(c, c, shortcut, 3, 1.0) for _ in range(n))
        elif attn:  # YOLO26's C3k2 with attention: a bottleneck then a PSA block (ultralytics' Softmax), before c3k
            self.m = nn.ModuleList(nn.Sequential(YBottleneck(c, c, shortcut), YPSABlock(c, False, max(c // 64, 1)))
                                   for _ in range(n))
        else:
            self.m = nn.ModuleList(YC3k(c, c, 2, shortcut) if c3k else YBottleneck(c, c, shortcut) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).split((self.c, self.c), 1))
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


class YSPPF(nn.Module):
    def __init__(self, c1, c2, k=5):
        super().__init__()
        c_ = c1 // 2
        self.cv1, self.cv2, self.m = YConv(c1, c_), YConv(4 * c_, c2), nn.MaxPool2d(k, 1, k // 2)

    def forward(self, x):
        y = [self.cv1(x)]
        y.extend(self.m(y[-1]) for _ in range(3))
        return self.cv2(torch.cat(y, 1))


class YSPPF26(nn.Module):
    """YOLO26's SPPF (yolo26.yaml `SPPF, [1024, 5, 3, True]`): cv1 without activation, three 5x5 max pools, cv2 over
    the four, plus its input (the shortcut: same channels in and out)"""

    def __init__(self, c1, c2, k=5, n=3):
        super().__init__()
        c_ = c1 // 2
        self.cv1, self.cv2, self.m = YConv(c1, c_, act=False), YConv((n + 1) * c_, c2), nn.MaxPool2d(k, 1, k // 2)
        self.n, self.add = n, c1 == c2

    def forward(self, x):
        y = [self.cv1(x)]
        y.extend(self.m(y[-1]) for _ in range(self.n))
        y = self.cv2(torch.cat(y, 1))
        return x + y if self.add else y


def softmax_keys(attn, patched):
    """the softmax of (B, heads, queries, keys) scores over the keys: ultralytics' Softmax node, or (patched) the X5
    zoo's export patch: permuted to (B, keys, heads, queries), max, subtract, exp, sum, divide, permuted back"""
    if not patched:
        return attn.softmax(dim=-1)
    attn = attn.permute(0, 3, 1, 2).contiguous()
    e = torch.exp(attn - attn.max(dim=1, keepdim=True).values)
    return (e / e.sum(dim=1, keepdim=True)).permute(0, 2, 3, 1).contiguous()


class YAttention(nn.Module):
    """YOLO11's PSA attention (qkv 1x1, keys of half the head width, a 3x3 depthwise position conv on v, proj), in
    the X5 zoo patch's form (patched) or ultralytics' own (a Softmax node, as the S100 zoo exports it)"""

    def __init__(self, dim, heads, patched=True):
        super().__init__()
        self.patched, self.heads, self.head_dim = patched, heads, dim // heads
        self.key_dim = int(self.head_dim * 0.5)
        self.scale = self.key_dim ** -0.5
        self.qkv = YConv(dim, dim + 2 * self.key_dim * heads, act=False)
        self.proj, self.pe = YConv(dim, dim, act=False), YConv(dim, dim, 3, g=dim, act=False)

    def forward(self, x):
        b, c, h, w = x.shape
        q, k, v = self.qkv(x).view(b, self.heads, 2 * self.key_dim + self.head_dim, h * w).split(
            [self.key_dim, self.key_dim, self.head_dim], dim=2)
        attn = softmax_keys((q.transpose(-2, -1) @ k) * self.scale, self.patched)
        return self.proj((v @ attn.transpose(-2, -1)).view(b, c, h, w) + self.pe(v.reshape(b, c, h, w)))


class YPSABlock(nn.Module):
    def __init__(self, c, patched, heads=None):
        super().__init__()
        self.attn = YAttention(c, c // 64 if heads is None else heads, patched)
        self.ffn = nn.Sequential(YConv(c, 2 * c), YConv(2 * c, c, act=False))

    def forward(self, x):
        x = x + self.attn(x)
        return x + self.ffn(x)


class YC2PSA(nn.Module):
    def __init__(self, c1, n=1, patched=True):
        super().__init__()
        self.c = c = c1 // 2
        self.cv1, self.cv2 = YConv(c1, 2 * c), YConv(2 * c, c1)
        self.m = nn.Sequential(*(YPSABlock(c, patched) for _ in range(n)))

    def forward(self, x):
        a, b = self.cv1(x).split((self.c, self.c), 1)
        return self.cv2(torch.cat((a, self.m(b)), 1))


class YAAttn(nn.Module):
    """YOLO12's area attention (heads of 32 channels, the map cut into `area` horizontal bands, a 7x7 depthwise
    position conv on v), in the X5 zoo patch's form (patched) or ultralytics' own (a Softmax node)"""

    def __init__(self, dim, heads, area, patched=True):
        super().__init__()
        self.patched, self.area, self.heads, self.head_dim = patched, area, heads, dim // heads
        self.qkv, self.proj = YConv(dim, 3 * dim, act=False), YConv(dim, dim, act=False)
        self.pe = YConv(dim, dim, 7, g=dim, act=False)

    def forward(self, x):
        b, c, h, w = x.shape
        n = h * w
        qkv = self.qkv(x).flatten(2).transpose(1, 2)
        if self.area > 1:
            qkv = qkv.reshape(b * self.area, n // self.area, c * 3)
            b, n, _ = qkv.shape
        q, k, v = qkv.view(b, n, self.heads, self.head_dim * 3).permute(0, 2, 3, 1).split(
            [self.head_dim] * 3, dim=2)
        attn = softmax_keys((q.transpose(-2, -1) @ k) * (self.head_dim ** -0.5), self.patched)
        y = (v @ attn.transpose(-2, -1)).permute(0, 3, 1, 2)
        v = v.permute(0, 3, 1, 2)
        if self.area > 1:
            y = y.reshape(b // self.area, n * self.area, c)
            v = v.reshape(b // self.area, n * self.area, c)
            b, n, _ = y.shape
        y = y.reshape(b, h, w, c).permute(0, 3, 1, 2).contiguous()
        v = v.reshape(b, h, w, c).permute(0, 3, 1, 2).contiguous()
        return self.proj(y + self.pe(v))


class YABlock(nn.Module):
    def __init__(self, dim, heads, mlp_ratio, area, patched):
        super().__init__()
        self.attn = YAAttn(dim, heads, area, patched)
        self.mlp = nn.Sequential(YConv(dim, int(dim * mlp_ratio)), YConv(int(dim * mlp_ratio), dim, act=False))

    def forward(self, x):
        x = x + self.attn(x)
        return x + self.mlp(x)


class YA2C2f(nn.Module):
    """YOLO12's R-ELAN: cv1, n stages (two area-attention blocks each, or a C3k), cv2 over their concat; with the
    residual (L/X) x + gamma x out"""

    def __init__(self, c1, c2, n=1, a2=True, area=1, residual=False, mlp_ratio=2.0, patched=True):
        super().__init__()
        c_ = int(c2 * 0.5)
        self.cv1, self.cv2 = YConv(c1, c_), YConv((1 + n) * c_, c2)
        self.gamma = nn.Parameter(0.01 * torch.ones(c2)) if a2 and residual else None
        self.m = nn.ModuleList(nn.Sequential(*(YABlock(c_, c_ // 32, mlp_ratio, area, patched) for _ in range(2))) if a2
                               else YC3k(c_, c_, 2) for _ in range(n))

    def forward(self, x):
        y = [self.cv1(x)]
        y.extend(m(y[-1]) for m in self.m)
        y = self.cv2(torch.cat(y, 1))
        return x + self.gamma.view(1, -1, 1, 1) * y if self.gamma is not None else y


class YDetect(nn.Module):
    """Detect's two branches per level, as the zoo patch returns them: cls (cv3) then box (cv2), each NHWC"""

    def __init__(self, ch, legacy, nc=80):
        super().__init__()
        c2, c3 = max(16, ch[0] // 4, 64), max(ch[0], min(nc, 100))
        self.cv2 = nn.ModuleList(nn.Sequential(YConv(x, c2, 3), YConv(c2, c2, 3), nn.Conv2d(c2, 64, 1)) for x in ch)
        self.cv3 = nn.ModuleList(
            nn.Sequential(YConv(x, c3, 3), YConv(c3, c3, 3), nn.Conv2d(c3, nc, 1)) if legacy else
            nn.Sequential(YConv(x, x, 3, g=x), YConv(x, c3), YConv(c3, c3, 3, g=c3), YConv(c3, c3),
                          nn.Conv2d(c3, nc, 1))
            for x in ch)

    def forward(self, xs):
        out = []
        for i, x in enumerate(xs):
            out += [self.cv3[i](x).permute(0, 2, 3, 1).contiguous(), self.cv2[i](x).permute(0, 2, 3, 1).contiguous()]
        return tuple(out)


class YSegment(YDetect):
    """Segment as the S100 zoo's seg patch returns it: Detect's six outputs, each level's mask coefficients (cv4: two
    3x3 convs and a 1x1 to 32) and the prototype masks (Proto: a 3x3 conv at P3, a 2x2 stride-2 transposed conv, a
    3x3 conv, a 1x1 conv to 32 with SiLU), all NHWC"""

    def __init__(self, ch, legacy, npr, nm=32):
        super().__init__(ch, legacy)
        c4 = max(ch[0] // 4, nm)
        self.cv4 = nn.ModuleList(nn.Sequential(YConv(x, c4, 3), YConv(c4, c4, 3), nn.Conv2d(c4, nm, 1)) for x in ch)
        self.proto = nn.Sequential(YConv(ch[0], npr, 3), nn.ConvTranspose2d(npr, npr, 2, 2, 0, bias=True),
                                   YConv(npr, npr, 3), YConv(npr, nm))

    def forward(self, xs):
        out = list(super().forward(xs))
        out += [self.cv4[i](x).permute(0, 2, 3, 1).contiguous() for i, x in enumerate(xs)]
        return tuple(out + [self.proto(xs[0]).permute(0, 2, 3, 1).contiguous()])


class YPose(YDetect):
    """Pose as the S100 zoo's pose patch returns it: one class (a person), per level the class, box and keypoint
    branches (cv4: two 3x3 convs and a 1x1 to 17 keypoints x 3), all NHWC"""

    def __init__(self, ch, legacy, nk=17 * 3):
        super().__init__(ch, legacy, nc=1)
        c4 = max(ch[0] // 4, nk)
        self.cv4 = nn.ModuleList(nn.Sequential(YConv(x, c4, 3), YConv(c4, c4, 3), nn.Conv2d(c4, nk, 1)) for x in ch)

    def forward(self, xs):
        out = []
        for i, (cls, box) in enumerate(zip(*[iter(super().forward(xs))] * 2)):
            out += [cls, box, self.cv4[i](xs[i]).permute(0, 2, 3, 1).contiguous()]
        return tuple(out)


def add_anchors(module, side, strides):
    """ultralytics' make_anchors as buffers of module: `anchors` (1, 2, A), each level's cell centres (offset 0.5) at a
    side of `side` pixels, and `strides` (1, 1, A), each anchor's level stride"""
    pts, st = [], []
    for s in strides:
        n = side // s
        y, x = torch.meshgrid(torch.arange(n) + 0.5, torch.arange(n) + 0.5, indexing="ij")
        pts.append(torch.stack((x, y), -1).view(-1, 2))
        st.append(torch.full((n * n, 1), float(s)))
    module.register_buffer("anchors", torch.cat(pts).transpose(0, 1).unsqueeze(0))
    module.register_buffer("strides", torch.cat(st).transpose(0, 1).unsqueeze(0))


def decode_boxes(module, dist, corners=False):
    """distances (B, 4, A) to the anchor (left-top, right-bottom) as boxes scaled by each anchor's stride: centre and
    size (ultralytics' dist2bbox), or corners (its end-to-end export)"""
    lt, rb = dist.chunk(2, 1)
    x1y1, x2y2 = module.anchors - lt, module.anchors + rb
    return (torch.cat((x1y1, x2y2), 1) if corners else torch.cat(((x1y1 + x2y2) / 2, x2y2 - x1y1), 1)) * module.strides


class YDetectDecoded(YDetect):
    """ultralytics' Detect as its own ONNX export writes it (`model.export(format="onnx")`, not a zoo's patch): per
    level box (cv2, 64 = 4 x 16 bins) and class (cv3) maps concatenated and flattened, the levels concatenated, the
    DFL (softmax over the 16 bins, then a fixed 1x1 conv), the distances turned into centre-size boxes at the anchor
    points and scaled by each anchor's stride, the class scores through a sigmoid: one (1, 84, anchors) output"""

    def __init__(self, ch, legacy, nc=80, side=640, strides=(8, 16, 32)):
        super().__init__(ch, legacy, nc)
        self.nc = nc
        self.dfl = nn.Conv2d(16, 1, 1, bias=False)
        with torch.no_grad():
            self.dfl.weight.copy_(torch.arange(16, dtype=torch.float).view(1, 16, 1, 1))
        add_anchors(self, side, strides)

    def forward(self, xs):
        b = xs[0].shape[0]
        x = torch.cat([torch.cat((self.cv2[i](t), self.cv3[i](t)), 1).view(b, 64 + self.nc, -1)
                       for i, t in enumerate(xs)], 2)
        box, cls = x.split((64, self.nc), 1)
        a = box.shape[2]
        dist = self.dfl(box.view(b, 4, 16, a).transpose(2, 1).softmax(1)).view(b, 4, a)
        return torch.cat((decode_boxes(self, dist), cls.sigmoid()), 1)


class YDetect26(nn.Module):
    """YOLO26's Detect (reg_max 1: 4 box channels and no DFL) as ultralytics exports it: both branch sets are built
    (one-to-many cv2/cv3 and their one-to-one copies, as the model's parameter count has them); end2end: the
    one-to-one branches, boxes as corners at the anchor points, sigmoid scores, then the export's top-k (the 300
    anchors of best class score, their 300 best (anchor, class) pairs): one (1, 300, 6) output; end2end off (what
    ultralytics exports for INT8 on TensorRT 10.3, JetPack 6): the one-to-many branches decoded as YOLO11's without
    the DFL, one (1, 84, anchors) output; raw (the RDK zoo's export patch, export_yolo26_detect_bpu.py): the
    one-to-one branches' class and box maps per level, six NHWC outputs"""

    def __init__(self, ch, end2end, nc=80, side=640, strides=(8, 16, 32), max_det=300, raw=False):
        super().__init__()
        self.nc, self.end2end, self.max_det, self.raw = nc, end2end, max_det, raw
        c2, c3 = max(16, ch[0] // 4, 4), max(ch[0], min(nc, 100))

        def branches():
            box = nn.ModuleList(nn.Sequential(YConv(x, c2, 3), YConv(c2, c2, 3), nn.Conv2d(c2, 4, 1)) for x in ch)
            cls = nn.ModuleList(nn.Sequential(YConv(x, x, 3, g=x), YConv(x, c3), YConv(c3, c3, 3, g=c3),
                                              YConv(c3, c3), nn.Conv2d(c3, nc, 1)) for x in ch)
            return box, cls

        self.cv2, self.cv3 = branches()
        self.o2o_cv2, self.o2o_cv3 = branches()
        add_anchors(self, side, strides)

    def forward(self, xs):
        b = xs[0].shape[0]
        box_h, cls_h = (self.o2o_cv2, self.o2o_cv3) if self.end2end else (self.cv2, self.cv3)
        if self.raw:  # the RDK zoo's export patch: per level the class and box maps, NHWC, nothing decoded
            out = []
            for i, t in enumerate(xs):
                out += [cls_h[i](t).permute(0, 2, 3, 1), box_h[i](t).permute(0, 2, 3, 1)]
            return tuple(out)
        box = torch.cat([box_h[i](t).view(b, 4, -1) for i, t in enumerate(xs)], 2)
        cls = torch.cat([cls_h[i](t).view(b, self.nc, -1) for i, t in enumerate(xs)], 2)
        y = torch.cat((decode_boxes(self, box, self.end2end), cls.sigmoid()), 1)
        if not self.end2end:
            return y
        boxes, scores = y.permute(0, 2, 1).split([4, self.nc], dim=-1)
        k = self.max_det
        ori = scores.max(dim=-1)[0].topk(k)[1].unsqueeze(-1)
        scores, index = scores.gather(1, ori.repeat(1, 1, self.nc)).flatten(1).topk(k)
        idx = ori[torch.arange(b)[..., None], index // self.nc]
        boxes = boxes.gather(1, idx.repeat(1, 1, 4))
        return torch.cat([boxes, scores[..., None], (index % self.nc)[..., None].float()], -1)


def c3k2(rep, big):
    """YOLO11's and YOLO12's C3k2 block maker: (c1, c2, n, c3k, e) -> YC2f, its C3k blocks forced at scales m/l/x"""
    return lambda a, b, n, c3k=False, e=0.5, attn=False: YC2f(a, b, rep(n), True, e, "c3k2", c3k or big, attn)


def to_p4(ch, k2):
    """the first six layers (to P4/16) that YOLO11's and YOLO12's backbones share"""
    return [YConv(3, ch(64), 3, 2), YConv(ch(64), ch(128), 3, 2), k2(ch(128), ch(256), 2, False, 0.25),
            YConv(ch(256), ch(256), 3, 2), k2(ch(256), ch(512), 2, False, 0.25), YConv(ch(512), ch(512), 3, 2)]


def yolo_backbone(family, ch, rep, big, patched, sppf=True):
    """YOLOv8's or YOLO11's backbone as ultralytics' yamls define it, a list of modules (ch: a layer's channels at the
    scale, rep: its repeats, big: scale m/l/x); sppf False: without the SPPF, as the cls yamls write it"""
    spp = [(YSPPF26 if family == "yolo26" else YSPPF)(ch(1024), ch(1024))] if sppf else []
    if family == "yolov8":
        c2f = lambda a, b, n: YC2f(a, b, rep(n), True)  # noqa: E731
        return [YConv(3, ch(64), 3, 2), YConv(ch(64), ch(128), 3, 2), c2f(ch(128), ch(128), 3),
                YConv(ch(128), ch(256), 3, 2), c2f(ch(256), ch(256), 6), YConv(ch(256), ch(512), 3, 2),
                c2f(ch(512), ch(512), 6), YConv(ch(512), ch(1024), 3, 2), c2f(ch(1024), ch(1024), 3)] + spp
    k2 = c3k2(rep, big)
    return to_p4(ch, k2) + [k2(ch(512), ch(512), 2, True), YConv(ch(512), ch(1024), 3, 2),
                            k2(ch(1024), ch(1024), 2, True)] + spp + [YC2PSA(ch(1024), rep(2), patched)]


class YOLO(nn.Module):
    """the backbone and PAN head of YOLOv5u, YOLOv8, YOLO11 or YOLO12 at one scale; forward returns the six head
    outputs (seg: and the four of the segmentation head); patched: the attention softmax as the X5 zoo's export patch
    writes it, else ultralytics' Softmax"""

    def __init__(self, family, scale, patched=True, seg=False, pose=False, decoded=False, end2end=True):
        super().__init__()
        d, wd, mc = (YOLO26_SCALES if family == "yolo26" else YOLO_SCALES[family])[scale]
        ch = lambda c: int(math.ceil(min(c, mc) * wd / 8) * 8)  # noqa: E731 (ultralytics' make_divisible)
        rep = lambda n: max(round(n * d), 1)  # noqa: E731
        big = scale in "mlx"
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.lat4 = self.lat5 = None
        if family == "yolov5u":
            c3 = lambda a, b, n, sc: YC3k(a, b, rep(n), sc, 0.5, 1)  # noqa: E731
            self.b = nn.ModuleList([YConv(3, ch(64), 6, 2, 2), YConv(ch(64), ch(128), 3, 2),
                                    c3(ch(128), ch(128), 3, True),
                                    YConv(ch(128), ch(256), 3, 2), c3(ch(256), ch(256), 6, True),
                                    YConv(ch(256), ch(512), 3, 2), c3(ch(512), ch(512), 9, True),
                                    YConv(ch(512), ch(1024), 3, 2), c3(ch(1024), ch(1024), 3, True),
                                    YSPPF(ch(1024), ch(1024))])
            # the head first narrows P5 and P4 with 1x1 convs whose outputs the bottom-up path reuses
            self.lat5, self.lat4 = YConv(ch(1024), ch(512)), YConv(ch(512), ch(256))
            self.p4, self.p3 = c3(ch(512) + ch(512), ch(512), 3, False), c3(ch(256) + ch(256), ch(256), 3, False)
            self.d3, self.n4 = YConv(ch(256), ch(256), 3, 2), c3(ch(256) + ch(256), ch(512), 3, False)
            self.d4, self.n5 = YConv(ch(512), ch(512), 3, 2), c3(ch(512) + ch(512), ch(1024), 3, False)
            self.taps = (4, 6, 9)
        elif family == "yolov8":
            c2f = lambda a, b, n, sc: YC2f(a, b, rep(n), sc)  # noqa: E731
            self.b = nn.ModuleList(yolo_backbone(family, ch, rep, big, patched))
            self.p4, self.p3 = c2f(ch(1024) + ch(512), ch(512), 3, False), c2f(ch(512) + ch(256), ch(256), 3, False)
            self.d3, self.n4 = YConv(ch(256), ch(256), 3, 2), c2f(ch(256) + ch(512), ch(512), 3, False)
            self.d4, self.n5 = YConv(ch(512), ch(512), 3, 2), c2f(ch(512) + ch(1024), ch(1024), 3, False)
            self.taps = (4, 6, 9)
        else:
            k2 = c3k2(rep, big)
            if family in ("yolo11", "yolo26"):
                self.b = nn.ModuleList(yolo_backbone(family, ch, rep, big, patched))
                self.taps = (4, 6, 10)
                self.p4, self.p3 = k2(ch(1024) + ch(512), ch(512), 2), k2(ch(512) + ch(512), ch(256), 2)
                self.n4 = k2(ch(256) + ch(512), ch(512), 2)
                # YOLO26's last C3k2: one unit of a bottleneck and a PSA block (yolo26.yaml `[1024, True, 0.5, True]`)
                self.n5 = k2(ch(512) + ch(1024), ch(1024), 1, True, 0.5, True) if family == "yolo26" else \
                    k2(ch(512) + ch(1024), ch(1024), 2, True)
            else:
                res = (True, 1.2) if scale in "lx" else (False, 2.0)
                a2 = lambda a, b, n, att, area: YA2C2f(a, b, rep(n), att, area, *res, patched)  # noqa: E731
                self.b = nn.ModuleList(to_p4(ch, k2) + [a2(ch(512), ch(512), 4, True, 4),
                                                        YConv(ch(512), ch(1024), 3, 2),
                                                        a2(ch(1024), ch(1024), 4, True, 1)])
                self.taps = (4, 6, 8)
                self.p4, self.p3 = a2(ch(1024) + ch(512), ch(512), 2, False, -1), \
                    a2(ch(512) + ch(512), ch(256), 2, False, -1)
                self.n4 = a2(ch(256) + ch(512), ch(512), 2, False, -1)
                self.n5 = k2(ch(512) + ch(1024), ch(1024), 2, True)
            self.d3, self.d4 = YConv(ch(256), ch(256), 3, 2), YConv(ch(512), ch(512), 3, 2)
        heads = (ch(256), ch(512), ch(1024)), family in ("yolov5u", "yolov8")
        # Segment's prototype width: ultralytics' 256 scaled as a layer's channels (parse_model's make_divisible)
        self.detect = YDetect26(heads[0], end2end, raw=not decoded) if family == "yolo26" else \
            YSegment(*heads, ch(256)) if seg else YPose(*heads) if pose else \
            YDetectDecoded(*heads) if decoded else YDetect(*heads)

    def forward(self, x):
        taps = []
        for i, m in enumerate(self.b):
            x = m(x)
            if i in self.taps:
                taps.append(x)
        c3, c4, c5 = taps
        if self.lat5 is not None:  # YOLOv5's head: the narrowed P5 and P4 are what the bottom-up path concatenates
            c5 = self.lat5(c5)
            h4 = self.lat4(self.p4(torch.cat((self.up(c5), c4), 1)))
        else:
            h4 = self.p4(torch.cat((self.up(c5), c4), 1))
        p3 = self.p3(torch.cat((self.up(h4), c3), 1))
        p4 = self.n4(torch.cat((self.d3(p3), h4), 1))
        p5 = self.n5(torch.cat((self.d4(p4), c5), 1))
        return self.detect([p3, p4, p5])


YOLO_CLS_SCALES = {"yolov8": {"n": (0.33, 0.25, 1024), "s": (0.33, 0.50, 1024), "m": (0.67, 0.75, 1024),
                              "l": (1.00, 1.00, 1024), "x": (1.00, 1.25, 1024)},
                   "yolo11": YOLO_SCALES["yolo11"]}


class YOLOCls(nn.Sequential):
    """YOLOv8-cls or YOLO11-cls at one scale (ultralytics' yolov8-cls.yaml and yolo11-cls.yaml: the detector's backbone
    without SPPF, then Classify: a 1x1 conv to 1280, global pooling and a 1000-way Linear), as the X5 zoo's export
    writes it: the Linear's output is the graph's (no Softmax; its compile logs end at the Gemm), YOLO11's attention
    patched (max/sub/exp/sum/div)"""

    def __init__(self, family, scale):
        d, wd, mc = YOLO_CLS_SCALES[family][scale]
        ch = lambda c: int(math.ceil(min(c, mc) * wd / 8) * 8)  # noqa: E731 (ultralytics' make_divisible)
        rep = lambda n: max(round(n * d), 1)  # noqa: E731
        body = yolo_backbone(family, ch, rep, scale in "mlx", True, sppf=False)
        super().__init__(*body, YConv(ch(1024), 1280), nn.AdaptiveAvgPool2d(1), nn.Flatten(1), nn.Linear(1280, 1000))


def leaky_relu():
    """the activation of YOLOX's leaky variant (Hailo's yolox_s_leaky): LeakyReLU(0.1)"""
    return nn.LeakyReLU(0.1)


def XConv(c1, c2, k=1, s=1):
    """YOLOX's BaseConv with its BatchNorm folded: ultralytics' Conv with LeakyReLU"""
    return YConv(c1, c2, k, s, act=leaky_relu)


def XCSP(c1, c2, n, shortcut=True):
    """YOLOX's CSPLayer: YOLOv5's C3 (two 1x1 convs to half the output width, n bottlenecks of a 1x1 and a 3x3 on the
    first, concat, a 1x1 conv) with LeakyReLU"""
    return YC3k(c1, c2, n, shortcut, 0.5, 1, leaky_relu)


class XSPP(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        h = c1 // 2
        self.cv1, self.cv2 = XConv(c1, h), XConv(4 * h, c2)
        self.pools = nn.ModuleList(nn.MaxPool2d(k, 1, k // 2) for k in (5, 9, 13))

    def forward(self, x):
        x = self.cv1(x)
        return self.cv2(torch.cat([x] + [p(x) for p in self.pools], 1))


class YOLOXS(nn.Module):
    """YOLOX-S (Ge et al. 2021; Megvii's yolox_s: depth 0.33, width 0.5) with LeakyReLU, as Hailo's model zoo trains
    it (yolox_s_leaky): Focus stem, CSPDarknet (CSP layers of 1, 3, 3 and 1 bottlenecks, SPP 5/9/13 before the last),
    PAFPN, and the decoupled head (per level a 1x1 stem to 128, two 3x3 convs for the classes and two for the box,
    1x1 predictions of 80 classes, 4 box values and 1 objectness), the export without decoding: per level box,
    sigmoid objectness and sigmoid classes concatenated, the levels flattened and concatenated to (1, anchors, 85)"""

    def __init__(self, nc=80):
        super().__init__()
        self.stem = XConv(12, 32, 3)
        self.dark = nn.ModuleList([nn.Sequential(XConv(32, 64, 3, 2), XCSP(64, 64, 1)),
                                   nn.Sequential(XConv(64, 128, 3, 2), XCSP(128, 128, 3)),
                                   nn.Sequential(XConv(128, 256, 3, 2), XCSP(256, 256, 3)),
                                   nn.Sequential(XConv(256, 512, 3, 2), XSPP(512, 512), XCSP(512, 512, 1, False))])
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.lat0, self.c3_p4 = XConv(512, 256), XCSP(512, 256, 1, False)
        self.red1, self.c3_p3 = XConv(256, 128), XCSP(256, 128, 1, False)
        self.bu2, self.c3_n3 = XConv(128, 128, 3, 2), XCSP(256, 256, 1, False)
        self.bu1, self.c3_n4 = XConv(256, 256, 3, 2), XCSP(512, 512, 1, False)
        self.stems = nn.ModuleList(XConv(c, 128) for c in (128, 256, 512))
        branch = lambda: nn.Sequential(XConv(128, 128, 3), XConv(128, 128, 3))  # noqa: E731
        self.cls_convs = nn.ModuleList(branch() for _ in range(3))
        self.reg_convs = nn.ModuleList(branch() for _ in range(3))
        self.cls_preds = nn.ModuleList(nn.Conv2d(128, nc, 1) for _ in range(3))
        self.reg_preds = nn.ModuleList(nn.Conv2d(128, 4, 1) for _ in range(3))
        self.obj_preds = nn.ModuleList(nn.Conv2d(128, 1, 1) for _ in range(3))

    def forward(self, x):
        x = self.stem(torch.cat((x[..., ::2, ::2], x[..., 1::2, ::2], x[..., ::2, 1::2], x[..., 1::2, 1::2]), 1))
        feats = []
        for d in self.dark:
            x = d(x)
            feats.append(x)
        x2, x1, x0 = feats[1], feats[2], feats[3]
        fpn0 = self.lat0(x0)
        f0 = self.c3_p4(torch.cat((self.up(fpn0), x1), 1))
        fpn1 = self.red1(f0)
        p3 = self.c3_p3(torch.cat((self.up(fpn1), x2), 1))
        p4 = self.c3_n3(torch.cat((self.bu2(p3), fpn1), 1))
        p5 = self.c3_n4(torch.cat((self.bu1(p4), fpn0), 1))
        outs = []
        for i, f in enumerate((p3, p4, p5)):
            f = self.stems[i](f)
            c, r = self.cls_convs[i](f), self.reg_convs[i](f)
            o = torch.cat((self.reg_preds[i](r), self.obj_preds[i](r).sigmoid(), self.cls_preds[i](c).sigmoid()), 1)
            outs.append(o.flatten(2))
        return torch.cat(outs, 2).permute(0, 2, 1)


class RetinaNetMLPerf(nn.Module):
    """MLPerf Inference's RetinaNet (mlcommons/training single_stage_detector/ssd/model/retinanet.py,
    retinanet_resnext50_32x4d_fpn: a ResNeXt50-32x4d FPN over C3-C5 with P6/P7 from P5, LastLevelP6P7(256, 256);
    torchvision's RetinaNet head, 4 conv+ReLU towers, 9 anchors, 264 classes) at 800x800, BatchNorm as in
    torchvision's backbone (folded by the deployed engine); forward returns the head's ten per-level outputs (class
    logits then box regression): anchor decoding and NMS, which NVIDIA's engine runs in a plugin after them, are not in
    the graph"""

    def __init__(self, classes=264):
        super().__init__()
        from torchvision.models.detection.backbone_utils import _resnet_fpn_extractor
        from torchvision.models.detection.retinanet import RetinaNetHead
        from torchvision.ops.feature_pyramid_network import LastLevelP6P7
        body = torchvision.models.resnext50_32x4d(weights=None)
        self.backbone = _resnet_fpn_extractor(body, 5, returned_layers=[2, 3, 4], extra_blocks=LastLevelP6P7(256, 256))
        self.head = RetinaNetHead(256, 9, classes)

    def forward(self, x):
        f = list(self.backbone(x).values())
        cls, box = self.head.classification_head, self.head.regression_head
        return [cls.cls_logits(cls.conv(t)) for t in f] + [box.bbox_reg(box.conv(t)) for t in f]


def yolo(name):
    """yolo12n: the X5 zoo's export (patched softmax); yolo12n_softmax: ultralytics' own attention (the S100 zoo's);
    yolo11n_seg_softmax, yolov8n_seg: the segmentation models (the S100 zoo's seg patch); yolov8n_pose,
    yolo11n_pose_softmax: the pose models (its pose patch); yolo11n_seg, yolo11n_pose: the X5 zoo's (patched softmax);
    yolov8n_ultralytics: ultralytics' own ONNX export (the decoded Detect output)"""
    if name.endswith("_ultralytics_dense"):  # YOLO26 with end2end off (its INT8 export on TensorRT 10.3)
        base = name[:-len("_ultralytics_dense")]
        return YOLO(base[:-1], base[-1], patched=False, decoded=True, end2end=False), (1, 3, 640, 640)
    if name.endswith("_ultralytics"):
        base = name[:-len("_ultralytics")]
        return YOLO(base[:-1], base[-1], patched=False, decoded=True), (1, 3, 640, 640)
    base, patched = (name[:-len("_softmax")], False) if name.endswith("_softmax") else (name, True)
    base, seg = (base[:-len("_seg")], True) if base.endswith("_seg") else (base, False)
    base, pose = (base[:-len("_pose")], True) if base.endswith("_pose") else (base, False)
    return YOLO(base[:-1], base[-1], patched, seg, pose), (1, 3, 640, 640)


def googlenet_bvlc():
    """Caffe's BVLC GoogLeNet as ncnn's benchmark/googlenet.param holds it (docs/sources.md [NCNN-BENCH]): 7x7/2
    conv 64, 3x3/2 max pool, LRN, 1x1 64, 3x3 192, LRN, 3x3/2 max pool, inception 3a-3b, pool, 4a-4e, pool, 5a-5b
    (5x5 branches, no BatchNorm), 7x7 average pool, InnerProduct 1000, Softmax; pools in Caffe's ceil mode; 6,998,552
    parameters as the param file's weight sizes sum"""
    mp = lambda: nn.MaxPool2d(3, 2, ceil_mode=True)
    i = InceptionV1
    layers = [nn.Conv2d(3, 64, 7, 2, 3), nn.ReLU(), mp(), LRN(), nn.Conv2d(64, 64, 1), nn.ReLU(),
              nn.Conv2d(64, 192, 3, 1, 1), nn.ReLU(), LRN(), mp(),
              i(192, 64, 96, 128, 16, 32, 32), i(256, 128, 128, 192, 32, 96, 64), mp(),
              i(480, 192, 96, 208, 16, 48, 64), i(512, 160, 112, 224, 24, 64, 64), i(512, 128, 128, 256, 24, 64, 64),
              i(512, 112, 144, 288, 32, 64, 64), i(528, 256, 160, 320, 32, 128, 128), mp(),
              i(832, 256, 160, 320, 32, 128, 128), i(832, 384, 192, 384, 48, 128, 128),
              nn.AvgPool2d(7, 1), nn.Flatten(), nn.Linear(1024, 1000), nn.Softmax(1)]
    return nn.Sequential(*layers), (1, 3, 224, 224)


def mlp_784_512_200():
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 200), nn.ReLU(),
                         nn.Linear(200, 10)), (1, 1, 28, 28)


def models():
    for s, tag in ((1, "1"), (0.5, "0.5"), (0.25, "0.25"), (0.125, "0.125")):
        yield "cnv_s" + tag, cnv(s)
        yield "mlp_s" + tag, mlp(s)
    yield "mobilenet_v1", mobilenet_v1()
    yield "mlp_784_512_200", mlp_784_512_200()
    yield "googlenet_bvlc", googlenet_bvlc()
    yield "vgg19", (torchvision.models.vgg19(weights=None), (1, 3, 224, 224))
    yield "vit_b_32_384", (torchvision.models.vit_b_32(weights=None, image_size=384), (1, 3, 384, 384))
    for n in TV_THIRD_RUN + TV_SEVENTH_RUN + TV_EIGHTH_RUN + [m for m in TV_TENTH_RUN if m not in TV_ELSEWHERE]:
        yield n, (getattr(torchvision.models, n)(weights=None), (1, 3, 224, 224))
    for n in LITE:
        yield n, efficientnet_lite(n)
    yield "resnet152_v1", resnet_v1(152)
    yield "r3d_18", r3d_18()
    for n in MNV4:
        yield n, mobilenetv4(n)
    for n, (w, side) in MNV1_SLIM.items():
        yield n, mobilenet_v1(w, side, 1001)
    yield "mobilenet_v2_1.4", (torchvision.models.mobilenet_v2(weights=None, width_mult=1.4), (1, 3, 224, 224))
    yield "resnet50_v1", resnet_v1(50)
    for n, args in RESNET_SLIM.items():
        yield n, resnet_slim(*args)
    yield "inception_v4", inception_v4()
    yield "inception_resnet_v2", inception_resnet_v2()
    yield "bn_inception", bn_inception("caffe")
    yield "inception_v2_slim", bn_inception("slim")
    for table, build in ((MNEDGE, mobilenet_edgetpu), (REPVGG, repvgg), (MOBILEONE, mobileone),
                         (FASTERNET, fasternet)):
        for n in table:
            yield n, build(n)
    for n in ("efficientnet_b2", "efficientnet_b4"):
        yield n, (getattr(torchvision.models, n)(weights=None), (1, 3, 224, 224))
    for table, build in ((REPVIT, repvit), (EFFICIENTFORMER, efficientformer), (FASTVIT, fastvit),
                         (EDGENEXT, edgenext), (EFFICIENTFORMERV2, efficientformerv2), (EFFICIENTVIT, efficientvit),
                         (CONVNEXT, convnext_timm)):
        for n in table:
            yield n, build(n)
    for family in YOLO_SCALES:
        for scale in "nsmlx":
            yield family + scale, yolo(family + scale)
            if family != "yolov8":
                yield family + scale + "_softmax", yolo(family + scale + "_softmax")
    for scale in "nsmlx":  # the S100 zoo's seg models: YOLOv8 (no attention) and YOLO11 with ultralytics' Softmax
        yield "yolov8" + scale + "_seg", yolo("yolov8" + scale + "_seg")
        yield "yolo11" + scale + "_seg_softmax", yolo("yolo11" + scale + "_seg_softmax")
    for scale in "nsmlx":  # the S100 zoo's pose models, alike
        yield "yolov8" + scale + "_pose", yolo("yolov8" + scale + "_pose")
        yield "yolo11" + scale + "_pose_softmax", yolo("yolo11" + scale + "_pose_softmax")
    for scale in "nsmlx":  # the X5 zoo's YOLO11 seg and pose models: its export patch's attention (YOLOv8's as above)
        yield "yolo11" + scale + "_seg", yolo("yolo11" + scale + "_seg")
        yield "yolo11" + scale + "_pose", yolo("yolo11" + scale + "_pose")
    for family in ("yolov8", "yolo11"):  # the X5 zoo's classifiers
        for scale in "nsmlx":
            yield family + scale + "_cls", (YOLOCls(family, scale), (1, 3, 224, 224))
    yield "retinanet_mlperf", (RetinaNetMLPerf(), (1, 3, 800, 800))
    yield "yolov8n_ultralytics", yolo("yolov8n_ultralytics")
    for scale in "nsmlx":  # ultralytics' own YOLO11 exports (ultralytics_jetson.csv)
        yield "yolo11" + scale + "_ultralytics", yolo("yolo11" + scale + "_ultralytics")
    for scale in "nsmlx":  # the RDK X5 zoo's YOLO26 export: six NHWC head outputs, ultralytics' attention
        yield "yolo26" + scale + "_softmax", yolo("yolo26" + scale + "_softmax")
    for scale in "nsmlx":  # ultralytics' own YOLO26 exports, end2end and not (ultralytics_jetson_yolo26.csv)
        yield "yolo26" + scale + "_ultralytics", yolo("yolo26" + scale + "_ultralytics")
        yield "yolo26" + scale + "_ultralytics_dense", yolo("yolo26" + scale + "_ultralytics_dense")
    yield "yolox_s_leaky", (YOLOXS(), (1, 3, 640, 640))


# the networks of the third H100 run (bench/gpu/README.md, "Third run")
TV_THIRD_RUN = ["resnet152", "densenet169", "efficientnet_b3", "efficientnet_v2_s", "regnet_y_1_6gf", "regnet_x_3_2gf",
                "convnext_small", "vit_b_32", "swin_s", "mnasnet0_5", "shufflenet_v2_x2_0", "resnext101_32x8d"]
# the networks of the seventh GPU run (bench/gpu/README.md, "Seventh run"), measured on the H200
TV_SEVENTH_RUN = ["regnet_y_800mf", "regnet_y_3_2gf", "regnet_x_800mf", "regnet_x_1_6gf", "regnet_y_8gf",
                  "shufflenet_v2_x1_5", "mnasnet0_75", "mnasnet1_3", "densenet201", "vgg13", "vgg19_bn",
                  "efficientnet_b2", "efficientnet_v2_m", "convnext_base", "swin_v2_t", "wide_resnet101_2"]
# the networks of the eighth GPU run (bench/gpu/README.md, "Eighth run"), measured on the H200: grouped convolutions of
# 112-232 channels a group (RegNets) and of 4-32 (resnext101_64x4d)
TV_EIGHTH_RUN = ["regnet_x_8gf", "regnet_y_16gf", "regnet_x_16gf", "regnet_x_32gf", "regnet_y_32gf", "resnext101_64x4d"]
# the networks of the tenth GPU run (bench/gpu/README.md, "Tenth run"), measured on the H200: every torchvision
# classification network no run had measured, but vit_h_14 and regnet_y_128gf (their FP32 export passes protobuf's
# 2 GB limit)
TV_TENTH_RUN = ["convnext_large", "densenet161", "efficientnet_b4", "efficientnet_b5", "efficientnet_b6",
                "efficientnet_b7", "efficientnet_v2_l", "maxvit_t", "swin_b", "swin_v2_s", "swin_v2_b", "vgg11_bn",
                "vgg16_bn", "vgg19", "vit_l_16", "vit_l_32"]
TV_ELSEWHERE = ("vgg19", "efficientnet_b4")  # built by models() for earlier rows: the same torchvision network at 224


# The RDK S100 zoo's compiled detectors deliver every head output but the class scores quantized: its compile
# configs remove those outputs' Dequantize nodes (`remove_node_name`), and hrt_model_exec's model_info lists them as
# S32 tensors beside the F32 class scores ([RDK-ZOO-S-YOLO]'s and [RDK-ZOO-S-YOLO-SEG]'s reference logs; its Pose
# models remove none). NAME_q is NAME with a QuantizeLinear (int8) on each such output: Detect's box branches, Seg's
# box and mask-coefficient branches and its prototype masks (every output whose channels are not the 80 classes).
S100_Q = [f"{f}{s}{t}_q" for s in "nsmlx" for f, t in (("yolov5u", ""), ("yolov8", ""), ("yolo11", "_softmax"),
                                                        ("yolo12", "_softmax"), ("yolov8", "_seg"),
                                                        ("yolo11", "_seg_softmax"))]


def quantized_outputs(proto, classes=80):
    """proto with a QuantizeLinear to int8 on each output whose last axis is not the classes (in place)"""
    g = proto.graph
    outs = []
    for o in list(g.output):
        dims = [d.dim_value for d in o.type.tensor_type.shape.dim]
        if dims and dims[-1] == classes:
            outs.append(o)
            continue
        g.initializer.extend([onnx.helper.make_tensor(o.name + "_qscale", onnx.TensorProto.FLOAT, [], [1 / 64]),
                              onnx.helper.make_tensor(o.name + "_qzero", onnx.TensorProto.INT8, [], [0])])
        g.node.append(onnx.helper.make_node("QuantizeLinear", [o.name, o.name + "_qscale", o.name + "_qzero"],
                                            [o.name + "_q"], name=o.name + "/quantize"))
        outs.append(onnx.helper.make_tensor_value_info(o.name + "_q", onnx.TensorProto.INT8, dims))
    del g.output[:]
    g.output.extend(outs)
    return proto


@contextlib.contextmanager
def zero_as_mul(on):
    """torch 1.13's exporter has no ONNX form of the in-place Tensor.zero_ that torchvision's Swin V2 applies to a
    copy of each block's qkv bias (its key third); while on, zero_ multiplies by 0 instead (the same values, folded
    into a constant by the export)"""
    zero = torch.Tensor.zero_
    if on:
        torch.Tensor.zero_ = lambda t: t.mul_(0)
    try:
        yield
    finally:
        torch.Tensor.zero_ = zero


def main():
    out = os.path.join(HERE, "models")
    os.makedirs(out, exist_ok=True)
    only = set(sys.argv[1:])
    for name in S100_Q:  # from the float file (exported first when it is not there)
        if only and name not in only:
            continue
        src = os.path.join(out, name[:-2] + ".onnx")
        if not os.path.exists(src):
            subprocess.run([sys.executable, os.path.abspath(__file__), name[:-2]], check=True)
        proto = quantized_outputs(onnx.load(src, load_external_data=False))  # its weights stay stripped
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(proto.SerializeToString())
        print(f"{name:16s} from {name[:-2]}: {sum(n.op_type == 'QuantizeLinear' for n in proto.graph.node)} outputs "
              f"quantized")
    for name, (model, shape) in models():
        if only and name not in only:
            continue
        model.eval()
        macs, _ = mm.count_macs(model, shape)
        params = mm.count_params(model)
        with zero_as_mul(name.startswith("swin_v2_")):
            data = mm.export_bytes(model, shape)
        proto = onnx.load_from_string(data)
        onnx.checker.check_model(proto)
        mm.strip_weights(proto, name)  # its INT64 initializers (Swin V2's relative_position_index) stay inline
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(proto.SerializeToString())
        print(f"{name:16s} params {params:>11,d}  MACs {macs:>14,d}  ops {2 * macs:>14,d}  "
              f"BN-folded params {folded_params(model):>11,d}")


if __name__ == "__main__":
    sys.exit(main())
