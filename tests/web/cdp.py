"""cdp.py - headless Debian chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: no port,
no network, only Python's standard library), for the web page's test (page_test.py) and benchmark
(bench/web_bench.py).

    exe = chromium()                      # None when it is not installed
    with Page(exe) as p:
        p.open("file:///.../index.html")  # waits for window.nnperfPage.ready
        p.choose_file("#file", path)      # as a user choosing a file in the input
        p.eval("nnperfPage.state.name")
    p.events                              # every event received: Network.requestWillBeSent, Runtime.* ...
"""
import fcntl
import json
import os
import shutil
import subprocess
import tempfile


def chromium():
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


class Page:
    """A headless chromium with one page target; send() waits for its answer and keeps the events before it."""

    def __init__(self, exe, width=1400, height=900):
        self.profile = tempfile.mkdtemp()
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        # the child's ends above 9, so that dup2 onto 3 and 4 (where chromium reads and writes) overwrites neither
        a, b = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)

        def child():
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [exe, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--disable-default-apps", "--metrics-recording-only",
                "--no-default-browser-check", "--hide-scrollbars", "--window-size=%d,%d" % (width, height),
                "--user-data-dir=" + self.profile, "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=child, close_fds=False, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        for fd in (to_r, from_w, a, b):
            os.close(fd)
        self.w = os.fdopen(to_w, "wb", buffering=0)
        self.r = os.fdopen(from_r, "rb", buffering=0)
        self.buf = b""
        self.id = 0
        self.events = []
        self.session = None
        t = [x for x in self.send("Target.getTargets")["targetInfos"] if x["type"] == "page"][0]
        self.session = self.send("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True})["sessionId"]
        for d in ("Page", "Runtime", "Network", "DOM"):
            self.send(d + ".enable")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _read(self):
        while b"\0" not in self.buf:
            chunk = self.r.read(1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None):
        self.id += 1
        m = {"id": self.id, "method": method, "params": params or {}}
        if self.session and not method.startswith(("Target.", "Browser.")):
            m["sessionId"] = self.session
        self.w.write(json.dumps(m).encode() + b"\0")
        while True:
            r = self._read()
            if r.get("id") == self.id:
                if "error" in r:
                    raise RuntimeError("%s: %s" % (method, r["error"]))
                return r.get("result", {})
            self.events.append(r)

    def eval(self, expr):
        """The value of a JavaScript expression (a promise is awaited)."""
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expr[:60], r["exceptionDetails"].get("exception", {}).get("description")))
        return r["result"].get("value")

    def wait(self, cond, timeout_ms=15000):
        """Polls a JavaScript condition every 10 ms; True once it holds, False after timeout_ms."""
        return self.eval("new Promise(function (r) { var t0 = Date.now(); (function w() { var ok = false; "
                         "try { ok = !!(%s); } catch (e) {} if (ok) r(true); else if (Date.now() - t0 > %d) r(false); "
                         "else setTimeout(w, 10); })(); })" % (cond, timeout_ms))

    def open(self, url):
        """Navigates and waits for the page's module (window.nnperfPage.ready)."""
        self.send("Page.navigate", {"url": url})
        return self.wait("window.nnperfPage && nnperfPage.state.ready")

    def choose_file(self, selector, path):
        doc = self.send("DOM.getDocument")["root"]["nodeId"]
        node = self.send("DOM.querySelector", {"nodeId": doc, "selector": selector})["nodeId"]
        self.send("DOM.setFileInputFiles", {"files": [os.path.abspath(path)], "nodeId": node})

    def requests(self):
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def close(self):
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
