#!/usr/bin/env python3
"""rpi5_threads.py - the raspberry-pi-5 test rows (data/rpi5_ncnn.csv, benchncnn with 4 threads) beside the same
networks' 1-thread runs from the same public table, which are not dataset rows ([NCNN-BENCH]: 'benchncnn 10 1 0 -1
-1', avg ms), each predicted on the preset as it is (4 threads) and on one core of it (compute.cores_per_inference=1,
compute.parallel_speedup=0). A diagnostic of where the preset is off: the per-core model (1T column) or the four
threads (the 4T/1T ratios). Nothing is fitted here; no number of it goes into a preset.

usage: bench/fidelity/rpi5_threads.py [NNPERF] [PLATFORM]   (defaults: build/nnperf, raspberry-pi-5)"""
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# benchncnn name -> avg ms with 1 thread, Raspberry Pi 5 (Tencent/ncnn benchmark/README.md at 070dac9)
ONE_THREAD = {"squeezenet": 11.87, "squeezenet_int8": 11.82, "mobilenet_int8": 14.44, "mobilenet_v2": 16.38,
              "mobilenet_v3": 11.80, "shufflenet_v2": 7.14, "mnasnet": 12.99, "efficientnet_b0": 24.20,
              "regnety_400m": 16.49, "googlenet": 48.71, "googlenet_int8": 49.15, "resnet18": 29.68,
              "resnet18_int8": 36.42, "vgg16": 189.63, "vgg16_int8": 273.10, "resnet50": 89.43,
              "resnet50_int8": 80.16, "vision_transformer": 1250.30}


def predict(nnperf, model, inp, dtype, hw, extra):
    cmd = [nnperf, "analyze", os.path.join(ROOT, model), "--input", "input=" + inp, "--hw", hw, "--dtype", dtype,
           "-q", "--format", "json"] + extra
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["summary"]["latency_ms"]


def main():
    nnperf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "nnperf")
    hw = sys.argv[2] if len(sys.argv) > 2 else "raspberry-pi-5"
    one = ["--set", "compute.cores_per_inference=1", "--set", "compute.parallel_speedup=0"]
    print(f"{'model':22s} {'dtype':5s} {'4T ms':>8s} {'pred':>8s} {'err':>7s} {'1T ms':>8s} {'pred':>8s} {'err':>7s}"
          f" {'4T/1T':>6s}")
    with open(os.path.join(HERE, "data", "rpi5_ncnn.csv")) as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    for r in rows:
        name = r["includes"].rsplit("('", 1)[1].rstrip("')")
        m4, m1 = float(r["value"]), ONE_THREAD[name]
        p4 = predict(nnperf, r["model"], r["input"], r["dtype"], hw, [])
        p1 = predict(nnperf, r["model"], r["input"], r["dtype"], hw, one)
        model = os.path.splitext(os.path.basename(r["model"]))[0]
        print(f"{model:22s} {r['dtype']:5s} {m4:8.2f} {p4:8.2f} {100 * (p4 / m4 - 1):+6.1f}% {m1:8.2f} {p1:8.2f}"
              f" {100 * (p1 / m1 - 1):+6.1f}% {m1 / m4:6.2f}")


if __name__ == "__main__":
    main()
