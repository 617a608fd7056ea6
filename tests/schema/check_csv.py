#!/usr/bin/env python3
"""CSV outputs keep their columns whatever the names hold (RFC 4180): layer and node names with commas, quotes and a
line break (tests/data/report/comma.onnx; a line break, like every control character, is written as the text \\x0a:
CSV is read by people too, issue 19), a model file and a platform whose names have a comma. Every CSV writer
(analyze with and without --hw, roofline, compare, sweep, validate) is parsed with Python's csv module: each row must
have the header's number of fields, and the odd names must come back whole.

usage: check_csv.py NNPERF
"""
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
NAMES = {"conv,a", "relu,b", 'conv "q",c', "add,\\x0ad"}


def run(nn, args):
    p = subprocess.run([nn] + args, capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
    if p.returncode != 0:
        raise SystemExit("FAIL nnperf %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr[-400:]))
    return p.stdout


def rows_of(text, what):
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if len(rows) < 2:
        raise SystemExit("FAIL %s: no data rows" % what)
    n = len(rows[0])
    for i, r in enumerate(rows[1:], 2):
        if len(r) != n:
            raise SystemExit("FAIL %s: row %d has %d fields, the header %d: %r" % (what, i, len(r), n, r))
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    nn = os.path.abspath(sys.argv[1])
    os.chdir(ROOT)
    tmp = tempfile.mkdtemp(prefix="nnperf-csv-")
    try:
        model = os.path.join(tmp, "odd,model.onnx")
        shutil.copy("tests/data/report/comma.onnx", model)
        plat = os.path.join(tmp, "npu.yaml")
        with open("tests/data/advise/adv-npu.yaml") as f, open(plat, "w") as g:
            g.write(f.read().replace("name: adv-npu", 'name: "npu,x"'))
        # the same NPU without conv + add fusion, so that the Add named "add,\nd" stays a layer of its own
        plain = os.path.join(tmp, "plain.yaml")
        with open("tests/data/advise/adv-npu.yaml") as f, open(plain, "w") as g:
            g.write("".join(l for l in f if not (l.lstrip().startswith("- [Conv") and "Add" in l)))
        cases = [
            (["analyze", "tests/data/report/comma.onnx", "--format", "csv"], 1, NAMES),
            (["analyze", "tests/data/report/comma.onnx", "--hw", plain, "--format", "csv"], 1,
             {"conv,a+1", 'conv "q",c', "add,\\x0ad"}),
            (["roofline", "tests/data/report/comma.onnx", "--hw", plain, "--format", "csv"], 0,
             {"conv,a+1", 'conv "q",c', "add,\\x0ad"}),
            (["compare", model, "models/squeezenet1_1.onnx", "--hw", "zcu102-dpu," + plat, "--format", "csv",
              "--quiet"], 0, {"odd,model.onnx"}),
            (["sweep", "tests/data/report/comma.onnx", "--hw", plat, "--batch", "1,2", "--format", "csv"], 0,
             {"npu,x"}),
            (["validate", "models/squeezenet1_1.onnx", "--hw", "bench/validate/host-cal.yaml", "--measured",
              "tests/data/ort_profile_small.json", "--format", "csv"], 0, {"(total)"}),
        ]
        for args, col, want in cases:
            what = "nnperf " + " ".join(args)
            rows = rows_of(run(nn, args), what)
            got = {r[col] for r in rows[1:]}
            if not want <= got:
                raise SystemExit("FAIL %s: column %d lacks %r (has %r)" % (what, col, sorted(want - got), sorted(got)))
            print("ok   %s: %d rows of %d fields" % (what, len(rows) - 1, len(rows[0])))
    finally:
        shutil.rmtree(tmp)
    print("CSV quoting ok")


if __name__ == "__main__":
    main()
