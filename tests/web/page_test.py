#!/usr/bin/env python3
"""page_test.py - the web page (build/web/index.html) in headless Debian chromium, driven over the DevTools protocol
on a pipe (--remote-debugging-pipe: no port, no network, only the standard library).

The page is opened from its file:// URL, a model is given to its file input as a user would choose it, and the test
checks against the CLI (the same library built for the host):
  json      for three presets, the page's prediction (the library's JSON report) equals the JSON of the command line
            the page shows (`nnperf analyze MODEL --hw P [--dim ...]`, run with --format json) byte for byte, and
            the summary the page shows carries the same numbers; a model with symbolic dims is bound in the form;
  compare   the table of every preset has the FPS, latency and FPS/W of `nnperf compare MODEL --hw ALL --format json`;
  edit      setting a platform key in the editor changes the summary, equals the CLI with --set, and the command
            line the page shows is that command; the reports it offers for download (HTML, Chrome trace, CSV)
            equal the CLI's --format html, trace and csv;
  layers    sorting the layer table by time orders it, the filter keeps only matching rows;
  requests  every request the page made is file: (its own files), data: or blob:; none reached the network;
  console   no console error and no uncaught exception;
  layout    screenshots at 1024 and 1400 px wide (OUTDIR), the page not wider than the window.
usage: page_test.py NNPERF WEBDIR OUTDIR MODEL [MODEL[@SYM=N;SYM=N]...]   exit 77 when chromium is missing
The first model gets every check; the others one preset each, their dims (after @) filled into the page's form.
"""
import base64
import json
import os
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Page, chromium  # noqa: E402

PRESETS = ["zcu102-dpu", "jetson-orin-nano", "raspberry-pi-5"]


def run_line(nn, line, model, fmt="json"):
    """The output of the command line the page shows (--format fmt), run in the model's folder."""
    args = shlex.split(line)
    assert args[:2] == ["nnperf", "analyze"], line
    return subprocess.run([nn] + args[1:] + ["--format", fmt, "-q"], cwd=os.path.dirname(model), check=True,
                          capture_output=True, text=True).stdout


def main():
    nn, web, out, models = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    exe = chromium()
    if not exe:
        print("chromium not found: skipped (Debian: apt-get install chromium)")
        return 77
    index = os.path.join(os.path.abspath(web), "index.html")
    if not os.path.exists(index) or not os.path.exists(os.path.join(web, "nnperf.wasm")):
        print("%s not built (cmake --build build --target web; needs emscripten): skipped" % index)
        return 77
    os.makedirs(out, exist_ok=True)
    fails = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            fails.append(what)

    c = Page(exe)
    try:
        t0 = time.time()
        check(c.open("file://" + index), "page: the module is ready (%.2f s)" % (time.time() - t0))
        for mi, spec in enumerate(models):
            model, _, dimspec = spec.partition("@")
            dims = [d.split("=", 1) for d in dimspec.split(";") if d]
            name = os.path.basename(model)
            t0 = time.time()
            c.choose_file("#file", model)
            if dims:
                # the form asks for each unbound dim; filled in and submitted as a user would
                ok = c.wait("nnperfPage.state.name === %s && document.querySelectorAll('[data-dim]').length"
                            % json.dumps(name))
                asked = c.eval("[].map.call(document.querySelectorAll('[data-dim]'), function (e) "
                               "{ return e.getAttribute('data-dim'); })") if ok else []
                check(sorted(asked) == sorted(d[0] for d in dims),
                      "%s: the form asks for the unbound dims %s" % (name, asked))
                for sym, v in dims:
                    c.eval("[].filter.call(document.querySelectorAll('[data-dim]'), function (e) { return "
                           "e.getAttribute('data-dim') === %s; })[0].value = %s" % (json.dumps(sym), json.dumps(v)))
                c.eval("document.getElementById('reanalyze').click()")
            ok = c.wait("nnperfPage.state.name === %s && nnperfPage.state.json" % json.dumps(name))
            check(ok, "%s: analysed in the page (%.2f s with every preset)" % (name, time.time() - t0))
            if not ok:
                print("   page says: %s" % c.eval("document.getElementById('err').textContent"))
                continue
            presets = PRESETS if mi == 0 else PRESETS[1:2]
            for hw in presets:
                c.eval("document.querySelector('#compare tr[data-platform=\"%s\"]').click()" % hw)
                page = c.eval("nnperfPage.state.jsonText")
                line = c.eval("document.getElementById('cli').textContent")
                cli = run_line(nn, line, model)
                check(page == cli, "%s on %s: the page's prediction equals the JSON of its command `%s`"
                      % (name, hw, line))
                s = json.loads(cli)["summary"]
                shown = c.eval("[].map.call(document.querySelectorAll('#summary [data-v]'), function (e) "
                               "{ return [e.getAttribute('data-key'), e.getAttribute('data-v')]; })")
                shown = dict(shown)
                check(float(shown["latency"]) == s["latency_ms"] and float(shown["FPS"]) == s["fps"],
                      "%s on %s: the summary shows latency %s ms, FPS %s" % (name, hw, shown["latency"], shown["FPS"]))
            if mi == 0:
                # the compare table against `nnperf compare` over every preset
                rows = c.eval("[].map.call(document.querySelectorAll('#compare tbody tr'), function (tr) { return "
                              "[tr.getAttribute('data-platform')].concat([].map.call(tr.querySelectorAll('td[data-v]'),"
                              " function (td) { return td.getAttribute('data-v'); })); })")
                hws = [r[0] for r in rows]
                cmp = json.loads(subprocess.run([nn, "compare", name, "--hw", ",".join(hws), "--format", "json",
                                                 "-q"], cwd=os.path.dirname(model), check=True,
                                                capture_output=True, text=True).stdout)
                bad = []
                for r, cell in zip(rows, cmp["cells"]):
                    want = [cell["fps"], cell["latency_ms"], cell["fps_per_w"]]
                    got = [None if v == "null" else float(v) for v in r[1:4]]
                    if got != want:
                        bad.append("%s: page %s, CLI %s" % (r[0], got, want))
                check(len(rows) >= 20 and not bad, "compare table: %d presets equal `nnperf compare`%s" %
                      (len(rows), ("; " + "; ".join(bad[:3])) if bad else ""))
                # the platform editor
                hw = PRESETS[0]
                c.eval("document.querySelector('#compare tr[data-platform=\"%s\"]').click()" % hw)
                before = c.eval("document.querySelector('#summary [data-key=latency]').getAttribute('data-v')")
                c.eval("document.getElementById('key').value = 'memory.ddr_bandwidth'; "
                       "document.getElementById('value').value = '1GB/s'; document.getElementById('set').click()")
                after = c.eval("document.querySelector('#summary [data-key=latency]').getAttribute('data-v')")
                check(after != before and float(after) > float(before),
                      "editor: memory.ddr_bandwidth=1GB/s changes the latency %s -> %s ms" % (before, after))
                line = c.eval("document.getElementById('cli').textContent")
                check(line == "nnperf analyze %s --hw %s --set memory.ddr_bandwidth=1GB/s" % (name, hw),
                      "editor: the command line reads: " + line)
                check(c.eval("nnperfPage.state.jsonText") == run_line(nn, line, model),
                      "editor: the edited prediction equals the CLI's with --set memory.ddr_bandwidth=1GB/s")
                for fmt, code in (("html", 3), ("trace", 4), ("csv", 2)):
                    check(c.eval("nnperfPage.report(%d)" % code) == run_line(nn, line, model, fmt),
                          "downloads: the page's %s report equals the CLI's --format %s" % (fmt, fmt))
                edited = c.eval("document.querySelector('#compare tr[data-platform=edited] td[data-v]')"
                                ".getAttribute('data-v')")
                check(float(edited) == json.loads(c.eval("nnperfPage.state.jsonText"))["summary"]["fps"],
                      "editor: the compare table has the edited platform's row (%s FPS)" % edited)
                c.eval("document.getElementById('reset').click()")
                # the graph: every node of every layer drawn, the heaviest layer's nodes the reddest
                g = c.eval("(function () { var gs = document.querySelectorAll('#graph g[data-node]'); return "
                           "{nodes: [].map.call(gs, function (g) { return g.getAttribute('data-node'); }), "
                           "hue: [].map.call(gs, function (g) { return [g.getAttribute('data-layer'), "
                           "g.querySelector('rect').getAttribute('fill')]; })}; })()")
                data = json.loads(c.eval("nnperfPage.state.jsonText"))
                top = max(data["layers"], key=lambda L: L["time_us"])["name"]
                hues = {}
                for layer, fill in g["hue"]:
                    if fill.startswith("hsl("):
                        hues.setdefault(layer, int(fill[4:].split(",")[0]))
                in_layers = set(n for L in data["layers"] for n in L["nodes"])
                check(in_layers <= set(g["nodes"]) and hues.get(top) == min(hues.values()),
                      "graph: %d nodes drawn (every node of the %d layers), the heaviest layer's (%s) in the reddest "
                      "colour" % (len(g["nodes"]), len(data["layers"]), top))
                # the layer table: sort by time (descending), filter
                c.eval("document.querySelector('#layers th[data-k=time_us]').click()")
                times = c.eval("[].map.call(document.querySelectorAll('#layers tbody tr td:nth-child(5)'), "
                               "function (td) { return +td.getAttribute('data-v'); })")
                check(len(times) > 10 and times == sorted(times, reverse=True),
                      "layers: %d rows sorted by time" % len(times))
                c.eval("var f = document.getElementById('filter'); f.value = 'Gemm'; "
                       "f.dispatchEvent(new Event('input'))")
                ops = c.eval("[].map.call(document.querySelectorAll('#layers tbody tr'), "
                             "function (tr) { return tr.textContent; })")
                check(0 < len(ops) < len(times) and all("Gemm" in o for o in ops),
                      "layers: the filter 'Gemm' keeps %d rows" % len(ops))
                c.eval("var f = document.getElementById('filter'); f.value = ''; f.dispatchEvent(new Event('input'))")
                for w in (1024, 1400):
                    c.send("Emulation.setDeviceMetricsOverride", {"width": w, "height": 900, "deviceScaleFactor": 1,
                                                                  "mobile": False})
                    sw = c.eval("document.documentElement.scrollWidth")
                    check(sw <= w, "layout: %d px wide at a %d px window" % (sw, w))
                    over = c.eval("[].filter.call(document.querySelectorAll('#summary-sec, #compare-sec, #advice-sec, "
                                  "#layers-wrap'), function (e) { return e.scrollWidth > e.clientWidth + 1; })"
                                  ".map(function (e) { return e.id; })")
                    check(not over, "layout: at %d px the summary, compare table, advice and layers fit their "
                          "boxes%s" % (w, (" (overflowing: %s)" % ", ".join(over)) if over else ""))
                    shot = c.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
                    with open(os.path.join(out, "web-%s-%d.png" % (os.path.splitext(name)[0], w)), "wb") as f:
                        f.write(base64.b64decode(shot["data"]))
                c.send("Emulation.clearDeviceMetricsOverride")
        c.send("Runtime.evaluate", {"expression": "1"})  # flush pending events
    finally:
        c.close()
    urls = c.requests()
    outside = [u for u in urls if not u.startswith(("file:", "data:", "blob:"))]
    check(urls and not outside, "requests: %d, all to the page's own files%s" %
          (len(urls), ("; outside: " + ", ".join(outside[:3])) if outside else ""))
    errors = [e for e in c.events if e.get("method") == "Runtime.exceptionThrown" or
              (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "warning"))]
    check(not errors, "console: no error or warning" + (": %s" % json.dumps(errors[0])[:300] if errors else ""))
    print("web page test %s; screenshots in %s" % ("FAILED" if fails else "passed", out))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
