#!/usr/bin/env python3
"""page_test.py - the web page (build/web/index.html) in headless Debian chromium, driven over the DevTools protocol
on a pipe (--remote-debugging-pipe: no port, no network, only the standard library).

The page is opened from its file:// URL, a model is given to its file input as a user would choose it, and the test
checks against the CLI (the same library built for the host):
  json      for three presets, the page's prediction (the library's JSON report) equals `nnperf analyze MODEL --hw P
            --format json` byte for byte, and the summary the page shows carries the same numbers;
  compare   the table of every preset has the FPS, latency and FPS/W of `nnperf compare MODEL --hw ALL --format json`;
  edit      setting a platform key in the editor changes the summary, equals the CLI with --set, and the command
            line the page shows is that command;
  layers    sorting the layer table by time orders it, the filter keeps only matching rows;
  requests  every request the page made is file: (its own files), data: or blob:; none reached the network;
  console   no console error and no uncaught exception;
  layout    screenshots at 1024 and 1400 px wide (OUTDIR), the page not wider than the window.
usage: page_test.py NNPERF WEBDIR OUTDIR MODEL [MODEL2]   exit 77 when chromium is missing
"""
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

PRESETS = ["zcu102-dpu", "jetson-orin-nano", "raspberry-pi-5"]


class Chrome:
    """A headless chromium and one page target; send() waits for the answer, events are kept."""

    def __init__(self, exe, profile):
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        # the child's ends above 9, so that dup2 onto 3 and 4 cannot overwrite one of them
        a2, b2 = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)

        def child():
            os.dup2(a2, 3)
            os.dup2(b2, 4)

        args = [exe, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--disable-default-apps", "--metrics-recording-only",
                "--no-default-browser-check", "--hide-scrollbars", "--window-size=1400,900",
                "--user-data-dir=" + profile, "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=child, close_fds=False,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for fd in (to_r, from_w, a2, b2):
            os.close(fd)
        self.w = os.fdopen(to_w, "wb", buffering=0)
        self.r = os.fdopen(from_r, "rb", buffering=0)
        self.buf = b""
        self.id = 0
        self.events = []
        self.session = None

    def _read(self):
        while b"\0" not in self.buf:
            chunk = self.r.read(1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True):
        self.id += 1
        m = {"id": self.id, "method": method, "params": params or {}}
        if session and self.session:
            m["sessionId"] = self.session
        self.w.write(json.dumps(m).encode() + b"\0")
        while True:
            r = self._read()
            if r.get("id") == self.id:
                if "error" in r:
                    raise RuntimeError("%s: %s" % (method, r["error"]))
                return r.get("result", {})
            self.events.append(r)

    def eval(self, expr, wait=True):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": wait})
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expr[:60], r["exceptionDetails"].get("exception", {}).get("description")))
        return r["result"].get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def cli_json(nn, model, hw, sets=()):
    args = [nn, "analyze", os.path.basename(model), "--hw", hw, "--format", "json", "-q"]
    for s in sets:
        args += ["--set", s]
    return subprocess.run(args, cwd=os.path.dirname(model), check=True, capture_output=True, text=True).stdout


def main():
    nn, web, out, models = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
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

    profile = tempfile.mkdtemp()
    c = Chrome(exe, profile)
    try:
        t = [x for x in c.send("Target.getTargets", session=False)["targetInfos"] if x["type"] == "page"][0]
        c.session = c.send("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True},
                           session=False)["sessionId"]
        for d in ("Page", "Runtime", "Network", "DOM"):
            c.send(d + ".enable")
        t0 = time.time()
        c.send("Page.navigate", {"url": "file://" + index})
        c.eval("new Promise(function (r) { (function w() { if (window.nnperfPage) nnperfPage.ready.then(r); "
               "else setTimeout(w, 20); })(); })")
        print("page ready in %.2f s" % (time.time() - t0))
        for mi, model in enumerate(models):
            name = os.path.basename(model)
            doc = c.send("DOM.getDocument")["root"]["nodeId"]
            node = c.send("DOM.querySelector", {"nodeId": doc, "selector": "#file"})["nodeId"]
            t0 = time.time()
            c.send("DOM.setFileInputFiles", {"files": [os.path.abspath(model)], "nodeId": node})
            ok = c.eval("new Promise(function (r) { var n = 0; (function w() { var s = nnperfPage.state; "
                        "if (s.name === %s && s.json) r(true); else if (++n > 1500) r(false); "
                        "else setTimeout(w, 10); })(); })" % json.dumps(name))
            check(ok, "%s: analysed in the page (%.2f s with every preset)" % (name, time.time() - t0))
            if not ok:
                print("   page says: %s" % c.eval("document.getElementById('err').textContent"))
                continue
            presets = PRESETS if mi == 0 else PRESETS[:1]
            for hw in presets:
                c.eval("document.querySelector('#compare tr[data-platform=\"%s\"]').click()" % hw)
                page = c.eval("nnperfPage.state.jsonText")
                cli = cli_json(nn, model, hw)
                check(page == cli, "%s on %s: the page's prediction equals the CLI's JSON" % (name, hw))
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
                page = c.eval("nnperfPage.state.jsonText")
                check(page == cli_json(nn, model, hw, ["memory.ddr_bandwidth=1GB/s"]),
                      "editor: the edited prediction equals the CLI's with --set memory.ddr_bandwidth=1GB/s")
                line = c.eval("document.getElementById('cli').textContent")
                check(line == "nnperf analyze %s --hw %s --set memory.ddr_bandwidth=1GB/s" % (name, hw),
                      "editor: the command line reads: " + line)
                c.eval("document.getElementById('reset').click()")
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
                    shot = c.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
                    with open(os.path.join(out, "web-%s-%d.png" % (os.path.splitext(name)[0], w)), "wb") as f:
                        f.write(base64.b64decode(shot["data"]))
                c.send("Emulation.clearDeviceMetricsOverride")
        c.send("Runtime.evaluate", {"expression": "1"})  # flush pending events
    finally:
        c.close()
        shutil.rmtree(profile, ignore_errors=True)
    urls = [e["params"]["request"]["url"] for e in c.events if e.get("method") == "Network.requestWillBeSent"]
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
