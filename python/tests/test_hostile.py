"""The binding under hostile use (issue 19): close() while another thread is inside a call on the same object,
integers that do not fit the C types, paths with a NUL byte, files that are not regular, a model file rewritten under
a loaded model, and Analysis.annotate(path) onto what it must not replace. Each case crashed the interpreter or
did the wrong thing silently before (main d3502c4)."""
import os
import stat
import subprocess
import sys
import threading
import time

import pytest

import nnperf


def _close_during(obj, call, tries=100):
    """tries times: a thread runs call(o) on a fresh object while this one closes it. The call must finish or raise
    nnperf.Error ("... closed"); anything else (a crash) fails the run. Bounded: each try is one short call."""
    errors, done = [], 0
    for _ in range(tries):
        o = obj()
        started = threading.Event()

        def run():
            started.set()
            try:
                call(o)
            except nnperf.Error as e:
                if "closed" not in str(e):
                    errors.append(e)
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        t = threading.Thread(target=run)
        t.start()
        started.wait()
        o.close()
        t.join()
        done += 1
        with pytest.raises(nnperf.Error, match="closed"):
            call(o)  # after close: an error, never a crash
    assert not errors and done == tries


# the close-during-call cases run in a child interpreter: on the code before the fix they are a SIGSEGV, which must
# fail this test rather than kill pytest
_CHILD = r"""
import os, sys, threading
sys.path[:0] = [os.environ["TEST_DIR"]]
import nnperf
from test_hostile import _close_during
m_path = sys.argv[1]
which = sys.argv[2]
if which == "model":
    _close_during(lambda: nnperf.load(m_path), lambda m: m.analyze())
elif which == "analysis":
    m = nnperf.load(m_path)
    _close_during(lambda: m.analyze(), lambda a: a.predict("horizon-j5"))
    _close_during(lambda: m.analyze(), lambda a: a.html(), tries=30)
else:
    a = nnperf.load(m_path).analyze()
    _close_during(lambda: a.predict("horizon-j5"), lambda p: p.html(), tries=100)
print("ok")
"""


@pytest.mark.parametrize("which", ["model", "analysis", "prediction"])
def test_close_while_another_thread_calls(models, which):
    """100 tries per case (Model.analyze, Analysis.predict and html, Prediction.html): no crash."""
    env = dict(os.environ, TEST_DIR=os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-c", _CHILD, os.path.join(models, "squeezenet1_1.onnx"), which],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stdout, r.stderr[-2000:])


def test_integers_are_range_checked(models):
    a = nnperf.load(os.path.join(models, "squeezenet1_1.onnx")).analyze()
    for bad in (2**32 + 1, 2**31, 2**64):
        with pytest.raises((ValueError, OverflowError)):
            a.predict("horizon-j5", batch=bad)
    assert a.predict("horizon-j5", batch=2).summary["frames_per_run"] == 2


def test_nul_in_strings_is_refused(models):
    path = os.path.join(models, "resnet18.onnx")
    for bad in (path + "\0junk", os.fsencode(path) + b"\0junk"):
        with pytest.raises(ValueError, match="NUL"):
            nnperf.load(bad)
    a = nnperf.load(path).analyze()
    with pytest.raises(ValueError, match="NUL"):
        a.predict("horizon-j5\0x")
    with pytest.raises(ValueError, match="NUL"):
        a.predict("horizon-j5", dtype="int8\0x")
    with pytest.raises(ValueError, match="NUL"):
        nnperf.load(path).analyze(inputs={"input\0x": [1, 3, 224, 224]})
    with pytest.raises(ValueError, match="NUL"):
        nnperf.load(path).analyze(dims={"N\0x": 1})
    with pytest.raises(ValueError, match="NUL|null byte"):
        a.annotate(os.path.join(os.path.dirname(path), "x\0.onnx"))


def test_fifo_and_directory_are_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo.onnx"
    os.mkfifo(fifo)
    # in a child with a deadline: before the fix the load blocks for ever waiting for a writer
    code = ("import sys, time, nnperf\nt = time.monotonic()\ntry:\n    nnperf.load(sys.argv[1])\n"
            "except nnperf.Error as e:\n    print(round(time.monotonic() - t, 3), e)\n")
    r = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=20)
    assert "not a regular file (a FIFO)" in r.stdout, (r.stdout, r.stderr)
    assert float(r.stdout.split()[0]) < 1.0
    for path, kind in ((tmp_path, "a directory"), ("/dev/null", "a character device")):
        if kind == "a character device" and not os.path.exists("/dev/null"):
            continue
        with pytest.raises(nnperf.Error, match=f"not a regular file \\({kind}\\)"):
            nnperf.load(path)


def test_annotate_path_follows_the_cli_rules(tmp_path, root, models):
    """Analysis.annotate(path): never onto the model, its external data (present or missing), a FIFO, a device or a
    directory; a new file gets the umask's mode (not 0600); nothing left behind."""
    src = os.path.join(root, "tests", "data", "hostile", "ext")
    ext = tmp_path / "ext"
    ext.mkdir()
    for name in ("model.onnx", "weights.bin"):
        (ext / name).write_bytes(open(os.path.join(src, name), "rb").read())
    weights = (ext / "weights.bin").read_bytes()
    model = (ext / "model.onnx").read_bytes()
    a = nnperf.load(ext / "model.onnx").analyze()
    for target in (ext / "weights.bin", ext / "model.onnx"):
        with pytest.raises(nnperf.Error, match="it is an input"):
            a.annotate(target)
    assert (ext / "weights.bin").read_bytes() == weights and (ext / "model.onnx").read_bytes() == model
    os.symlink("ext/weights.bin", tmp_path / "link.bin")
    with pytest.raises(nnperf.Error, match="it is an input"):
        a.annotate(tmp_path / "link.bin")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(nnperf.Error, match="not a regular file \\(a FIFO\\)"):
        a.annotate(fifo)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    with pytest.raises(nnperf.Error, match="not a regular file \\(a directory\\)"):
        a.annotate(tmp_path)
    if os.path.exists("/dev/null") and stat.S_ISCHR(os.stat("/dev/null").st_mode):
        with pytest.raises(nnperf.Error, match="not a regular file \\(a character device\\)"):
            a.annotate("/dev/null")
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    old = os.umask(0o022)
    try:
        out = a.annotate(ext / "shapes.onnx")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o644
    assert nnperf.load(out).analyze().summary["macs"] == a.summary["macs"]
    assert sorted(os.listdir(ext)) == ["model.onnx", "shapes.onnx", "weights.bin"]  # no temporary left
    # a weight-stripped copy: the missing weights.bin is not created either
    (tmp_path / "stripped").mkdir()
    (tmp_path / "stripped" / "model.onnx").write_bytes(model)
    b = nnperf.load(tmp_path / "stripped" / "model.onnx").analyze()
    with pytest.raises(nnperf.Error, match="it is an input"):
        b.annotate(tmp_path / "stripped" / "weights.bin")
    assert os.listdir(tmp_path / "stripped") == ["model.onnx"]


_REWRITE = r"""
import json, os, sys
import nnperf
path = sys.argv[1]
m = nnperf.load(path)
first = m.analyze().to_json()
size = os.path.getsize(path)
# what re-exporting to the same path does: other bytes, here shorter than one page (the shape lay at 16 KiB)
with open(path, "wb") as f:
    f.write(b"\x08\x08" + b"\x00" * 100)
out = []
for _ in range(3):
    try:
        out.append("same" if m.analyze().to_json() == first else "other")
    except nnperf.Error as e:
        out.append("error")
# the same size, other bytes: the loaded model still answers as loaded
with open(path, "wb") as f:
    f.write(b"\xff" * size)
out.append("same" if m.analyze().to_json() == first else "other")
try:
    m.analyze().annotate()
    out.append("annotated")
except nnperf.Error as e:
    out.append("changed" if "changed since the model was loaded" in str(e) else str(e))
print(" ".join(out))
"""


def test_file_rewritten_under_a_loaded_model(tmp_path, root):
    """A loaded model does not read its file again for an analysis (SIGBUS on d3502c4 when the file shrank):
    analyze() gives the original result; annotate(), which needs the file's bytes, refuses a changed file."""
    path = tmp_path / "late_shape.onnx"
    path.write_bytes(open(os.path.join(root, "tests", "data", "hostile", "late_shape.onnx"), "rb").read())
    r = subprocess.run([sys.executable, "-c", _REWRITE, str(path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.split() == ["same", "same", "same", "same", "changed"]
