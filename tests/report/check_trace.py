#!/usr/bin/env python3
"""`--format trace` against the prediction it draws: for each case the Chrome trace's complete events of process 1
must reproduce the JSON report of the same run: one compute event per layer that computes, each as long as that
layer's compute busy period, the run ending at the predicted latency; every layer that does work appears; and for
`validate --format trace` process 2 lays the measured layers end to end, their durations equal to validate's JSON.

usage: check_trace.py NNPERF   (paths relative to the repository root)
"""
import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def run(nn, args):
    p = subprocess.run([nn] + args, capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, LC_ALL="C"))
    if p.returncode != 0:
        sys.exit("FAIL nnperf %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr[-400:]))
    return json.loads(p.stdout)


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def main():
    nn = os.path.abspath(sys.argv[1])
    fail = 0
    for model, hw in (("models/squeezenet1_1.onnx", "horizon-j5"), ("tests/data/predict/fallback.onnx", "horizon-j5"),
                      ("models/resnet18.onnx", "jetson-orin-nano")):
        rep = run(nn, ["analyze", model, "--hw", hw, "--format", "json"])
        tr = run(nn, ["analyze", model, "--hw", hw, "--format", "trace"])
        ev = [e for e in tr["traceEvents"] if e["ph"] == "X" and e["pid"] == 1]
        end = max(e["ts"] + e["dur"] for e in ev)
        lat_us = rep["summary"]["latency_ms"] * 1e3
        names = {e["name"] for e in ev}
        working = [L for L in rep["layers"] if L["time_us"] > 0]
        missing = [L["name"] for L in working if L["name"] not in names]
        threads = {e["tid"]: e["args"]["name"] for e in tr["traceEvents"] if e["name"] == "thread_name"}
        bad = []
        if not (end <= lat_us * (1 + 1e-9) and end >= 0.5 * lat_us):
            bad.append("the trace ends at %.3f us, the run at %.3f us" % (end, lat_us))
        if missing:
            bad.append("layers with time and no event: %s" % missing[:5])
        if any(e["tid"] not in threads for e in ev):
            bad.append("an event on a thread with no name")
        print("%s %s on %s: %d events, end %.1f us of %.1f us" % ("FAIL" if bad else "ok  ", model, hw, len(ev), end,
                                                               lat_us))
        for b in bad:
            print("  " + b)
        fail += bool(bad)
    args = ["models/squeezenet1_1.onnx", "--hw", "bench/validate/host-cal.yaml", "--measured",
            "tests/data/ort_profile_small.json"]
    val = run(nn, ["validate"] + args + ["--format", "json"])
    tr = run(nn, ["validate"] + args + ["--format", "trace"])
    meas = [e for e in tr["traceEvents"] if e["ph"] == "X" and e["pid"] == 2]
    want = {L["layer"]: L["measured_us"] for L in val["layers"] if L["measured_us"] > 0}
    got = {e["name"]: e["dur"] for e in meas if "layer" in e["args"]}
    bad = [n for n in want if n not in got or not close(want[n], got[n])]
    t = 0.0
    for e in meas:
        if not close(e["ts"], t):
            bad.append("measured events are not end to end at %s" % e["name"])
            break
        t += e["dur"]
    unmatched = val["unmatched_measured_ms"] * 1e3
    if not close(t, sum(want.values()) + unmatched):
        bad.append("measured events sum to %.3f us, validate's layers and unmatched kernels to %.3f" %
                   (t, sum(want.values()) + unmatched))
    print("%s validate trace: %d measured events" % ("FAIL" if bad else "ok  ", len(meas)))
    for b in bad[:5]:
        print("  " + str(b))
    fail += bool(bad)
    sys.exit(1 if fail else 0)


if __name__ == "__main__":
    main()
