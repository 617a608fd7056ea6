#!/usr/bin/python3
"""Issue 22's speed table: every row run by two nnperf binaries interleaved (old, new, old, ...) in one run, CPU time
(user + system of the whole process, which a loaded machine spoils less than wall-clock time) and peak RSS.
Prints a Markdown table: median CPU ms of each binary, the ratio new/old, the peak RSS of each (one run, GNU time).

usage: python3 bench/speed_table.py OLD_NNPERF NEW_NNPERF [--data DIR] [--scale S] [--only SUBSTR]
  DIR holds resnet50.onnx with its weights inline (models/make_models.py --full DIR resnet50) and chain_100000.onnx,
  chain_1000000.onnx (bench/make_chain.py N DIR/chain_N.onnx); default /tmp/speed-data.
  S multiplies the number of runs per row (default 1).
"""
import argparse
import os
import statistics
import subprocess
import sys

BATCHES = ",".join(str(b) for b in range(1, 251))


def rows(d):
    r50 = os.path.join(d, "resnet50.onnx")
    c100k = os.path.join(d, "chain_100000.onnx")
    c1m = os.path.join(d, "chain_1000000.onnx")
    sw = "models/swin_t.onnx"
    return [
        # (label, argv after the binary, runs, goal)
        ("analyze resnet50 (weights inline) --format json", ["analyze", r50, "--format", "json"], 100, "2 ms"),
        ("analyze resnet50 --hw horizon-j5 --format json", ["analyze", r50, "--hw", "horizon-j5", "--format", "json"],
         100, "3 ms"),
        ("analyze swin_t --top 5", ["analyze", sw, "--top", "5"], 40, "10 ms"),
        ("analyze swin_t --hw rdk-s100 --top 5", ["analyze", sw, "--hw", "rdk-s100", "--top", "5"], 40, ""),
        ("analyze swin_t --format json", ["analyze", sw, "--format", "json"], 40, "15 ms"),
        ("chain 100k: analyze --summary", ["analyze", c100k, "--summary"], 7, "0.3 s, < 60 MB"),
        ("chain 100k: analyze --format json", ["analyze", c100k, "--format", "json"], 5, ""),
        ("chain 100k: analyze --hw horizon-j5 --summary", ["analyze", c100k, "--hw", "horizon-j5", "--summary"], 7,
         "0.4 s, < 60 MB"),
        ("chain 100k: analyze --hw horizon-j5 --format json",
         ["analyze", c100k, "--hw", "horizon-j5", "--format", "json"], 5, ""),
        ("chain 1M: analyze --hw horizon-j5 --summary", ["analyze", c1m, "--hw", "horizon-j5", "--summary"], 2,
         "4 s, < 600 MB"),
        ("sweep resnet50, 1,000 configurations (2 hw x 2 dtype x 250 batch)",
         ["sweep", "models/resnet50.onnx", "--hw", "jetson-orin-nano,jetson-agx-orin", "--dtype", "int8,fp16",
          "--batch", BATCHES, "--format", "csv"], 20, "0.01 s"),
    ]


def run(argv):
    """CPU seconds of one run. posix_spawn (vfork): a fork of this Python process would add its page-table copy
    (about 1 ms) to the child's time."""
    null = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=null)
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        sys.exit("failed (%d): %s" % (status, " ".join(argv)[:200]))
    return ru.ru_utime + ru.ru_stime


def peak_rss_mb(argv):
    """Peak RSS from GNU time (the spawned child's ru_maxrss would count this Python process's pages)."""
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       check=True, text=True)
    return int(r.stderr.strip().splitlines()[-1]) / 1024.0


def fmt_t(s):
    return "%.1f ms" % (s * 1e3) if s < 1 else "%.2f s" % s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--data", default="/tmp/speed-data")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    print("| work | runs | %s CPU | %s CPU | new/old | %s RSS | %s RSS | goal |" % (a.old, a.new, a.old, a.new))
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for label, argv, n, goal in rows(a.data):
        if a.only and a.only not in label:
            continue
        n = max(1, int(n * a.scale))
        t = {a.old: [], a.new: []}
        for _ in range(n):
            for b in (a.old, a.new):
                t[b].append(run([b] + argv))
        m = {b: peak_rss_mb([b] + argv) for b in (a.old, a.new)}
        to, tn = statistics.median(t[a.old]), statistics.median(t[a.new])
        print("| %s | %d | %s | %s | %.2f | %.1f MB | %.1f MB | %s |" %
              (label, n, fmt_t(to), fmt_t(tn), tn / to if to else 0, m[a.old], m[a.new], goal), flush=True)


if __name__ == "__main__":
    main()
