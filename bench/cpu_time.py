#!/usr/bin/python3
"""CPU time (user + system) of whole nnperf processes, two binaries interleaved: a before/after check that a loaded
machine does not spoil as it does wall-clock medians. Prints median and minimum per binary and model.

usage: python3 bench/cpu_time.py OLD_NNPERF NEW_NNPERF RUNS MODEL [MODEL ...] -- NNPERF_ARGS...
  e.g. python3 bench/cpu_time.py /tmp/old/nnperf build-release/nnperf 120 models/resnet50.onnx -- --hw horizon-j5 \
       --format json
"""
import os
import statistics
import sys


def cpu_s(argv):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.execv(argv[0], argv)
    _, _, ru = os.wait4(pid, 0)
    return ru.ru_utime + ru.ru_stime


def main():
    sep = sys.argv.index("--")
    old, new, runs, models, extra = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:sep], sys.argv[sep + 1:]
    for model in models:
        t = {old: [], new: []}
        for _ in range(runs):
            for b in (old, new):
                t[b].append(cpu_s([b, "analyze", model] + extra))
        for b in (old, new):
            print("%-44s %-32s median %.2f ms  min %.2f ms" % (model, b, statistics.median(t[b]) * 1e3,
                                                               min(t[b]) * 1e3))


if __name__ == "__main__":
    main()
