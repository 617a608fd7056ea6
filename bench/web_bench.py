#!/usr/bin/env python3
"""web_bench.py - size and speed of the web page (build/web, issue 23) in headless Debian chromium.

Measures: the bundle (raw and gzip -9) as served over HTTP (index.html, app.js, nnperf.js, nnperf.wasm) and as opened
from a file (nnperf-wasm.js instead of nnperf.wasm); the time to interactive (navigation start to the module ready and
the page wired, the page's own performance.now()) from file:// and from a local `python3 -m http.server`; for each
model, what the page measures around the library's calls once the model's bytes are in the page: load + analysis +
prediction of every built-in preset (the compare table), and the selected platform's report (JSON, timeline and
roofline SVG, advice). Median of --runs runs; the CLI's `nnperf sweep MODEL --hw EVERY-PRESET` on the same machine as
the native reference. Timings are wall-clock on whatever else the machine runs: run it on a quiet machine.

usage: python3 bench/web_bench.py [--build build] [--runs 5] [--write]   (--write: replaces the section in
       bench/RESULTS.md)
"""
import argparse
import functools
import gzip
import http.server
import os
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
from cdp import Page, chromium  # noqa: E402

MODELS = ["resnet50", "swin_t", "vit_b_16"]
SECTION = "## Web page: bundle size and speed in the browser (issue 23, `python3 bench/web_bench.py`)"


def sizes(web):
    rows = []
    for f in ["index.html", "app.js", "nnperf.js", "nnperf.wasm", "nnperf-wasm.js"]:
        data = open(os.path.join(web, f), "rb").read()
        rows.append((f, len(data), len(gzip.compress(data, 9))))
    return rows


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(web):
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=web))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def tti(exe, url, runs):
    out = []
    for _ in range(runs):
        with Page(exe) as p:
            if not p.open(url):
                raise RuntimeError("the page did not get ready: " + url)
            out.append(p.eval("nnperfPage.state.timings.ready_ms"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    web = os.path.join(a.build, "web")
    nn = os.path.join(a.build, "nnperf")
    exe = chromium()
    if not exe or not os.path.exists(os.path.join(web, "nnperf.wasm")):
        print("needs chromium and the page (cmake --build build --target web)")
        return 2
    lines = [SECTION, ""]
    sz = sizes(web)
    http_files = ("index.html", "app.js", "nnperf.js", "nnperf.wasm")
    file_files = ("index.html", "app.js", "nnperf.js", "nnperf-wasm.js")
    lines += ["| file | bytes | gzip -9 |", "|---|---:|---:|"]
    lines += ["| %s | %d | %d |" % r for r in sz]
    for what, fs in (("served over HTTP", http_files), ("opened from the file", file_files)):
        lines.append("| **page %s** | %d | **%d** (%.2f MB) |" % (
            what, sum(r[1] for r in sz if r[0] in fs), sum(r[2] for r in sz if r[0] in fs),
            sum(r[2] for r in sz if r[0] in fs) / 1e6))
    lines.append("")
    srv = serve(web)
    t_file = tti(exe, "file://" + os.path.join(os.path.abspath(web), "index.html"), a.runs)
    t_http = tti(exe, "http://127.0.0.1:%d/index.html" % srv.server_address[1], a.runs)
    srv.shutdown()
    lines += ["Time to interactive (navigation start to the module compiled and the page wired; median of %d "
              "fresh browsers): from the file %.0f ms (%s), over HTTP from localhost %.0f ms (%s)." % (
                  a.runs, statistics.median(t_file), ", ".join("%.0f" % x for x in t_file),
                  statistics.median(t_http), ", ".join("%.0f" % x for x in t_http)), ""]
    presets = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "presets")) if f.endswith(".yaml"))
    lines += ["| model | load + analysis + every preset (%d), ms | of which the presets | selected platform's "
              "report (JSON, 2 SVG, advice), ms | CLI `nnperf sweep` over every preset, ms |" % len(presets),
              "|---|---:|---:|---:|---:|"]
    with Page(exe) as p:
        p.open("file://" + os.path.join(os.path.abspath(web), "index.html"))
        p.wait("nnperfPage.state.presetsLoaded", 30000)
        preload = p.eval("nnperfPage.state.timings.presets_ms")
        res = {m: [] for m in MODELS}
        for _ in range(a.runs):
            for m in MODELS:
                p.choose_file("#file", os.path.join(ROOT, "models", m + ".onnx"))
                if not p.wait("nnperfPage.state.name === '%s.onnx' && nnperfPage.state.json" % m, 60000):
                    raise RuntimeError(m + ": not analysed")
                res[m].append(p.eval("nnperfPage.state.timings"))
    for m in MODELS:
        total = [t["load_ms"] + t["analyse_ms"] + t["compare_ms"] for t in res[m]]
        native = []
        for _ in range(3):
            t0 = time.perf_counter()
            subprocess.run([nn, "sweep", os.path.join(ROOT, "models", m + ".onnx"), "--hw", ",".join(presets), "-q",
                            "--format", "json"], check=True, stdout=subprocess.DEVNULL)
            native.append((time.perf_counter() - t0) * 1e3)
        lines.append("| %s | %.0f (%s) | %.0f | %.0f | %.0f |" % (
            m, statistics.median(total), ", ".join("%.0f" % x for x in total),
            statistics.median([t["compare_ms"] for t in res[m]]),
            statistics.median([t["predict_ms"] for t in res[m]]), statistics.median(native)))
    lines += ["", "Parsing the %d presets once (done while the page waits for a model, then kept): %.0f ms." % (
        len(presets), preload), ""]
    try:
        cpu = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")][0]
    except (OSError, IndexError):
        cpu = "unknown CPU"
    ver = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
    lines += ["Machine: %s (load average %.1f: other jobs ran beside it); %s; command: `python3 bench/web_bench.py "
              "--runs %d`. The first run of a model is slower: the browser compiles the wasm with its baseline "
              "compiler first and optimizes the functions that run often." % (cpu, os.getloadavg()[0], ver, a.runs),
              ""]
    text = "\n".join(lines)
    print(text)
    if a.write:
        path = os.path.join(ROOT, "bench", "RESULTS.md")
        doc = open(path).read()
        if SECTION in doc:
            start = doc.index(SECTION)
            end = doc.find("\n## ", start + len(SECTION))
            doc = doc[:start] + text + (doc[end + 1:] if end >= 0 else "")
        else:
            doc = doc.rstrip("\n") + "\n\n" + text
        open(path, "w").write(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
