#!/usr/bin/env python3
"""The fit code refuses test rows (issue 24): bench/fidelity/fidelity.py's fit_rows, through which every fit script
of bench/fidelity reads its rows, exits naming a selected test row, keeps a fit row, and exits when nothing is
selected; and every bench/fidelity/fit_*.py reads its rows through it (none reads the dataset by itself).
usage: fit_refusal.py REPO_ROOT"""
import csv
import glob
import os
import re
import sys
import tempfile

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "bench", "fidelity"))
import fidelity  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def exits(fn):
    """the message fn exits with, or None when it returns"""
    try:
        fn()
    except SystemExit as e:
        return str(e.code)
    return None


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "rows.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(fidelity.COLUMNS)
        for split in ("fit", "test"):
            row = {c: "" for c in fidelity.COLUMNS}
            row.update(preset="ncs2", model="models/resnet18.onnx", input="1x3x224x224", dtype="fp16", batch="1",
                       threads="1", quantity="latency", value="10", unit="ms", source="https://example.org/a",
                       split=split)
            w.writerow([row[c] for c in fidelity.COLUMNS])
    msg = exits(lambda: fidelity.fit_rows(path, data=tmp))
    check(msg is not None and re.search(r"rows\.csv:3: a test row", msg), f"a test row is refused, naming it: {msg}")
    rows = fidelity.fit_rows(path, lambda r: r["split"] == "fit", data=tmp)
    check(len(rows) == 1 and rows[0]["split"] == "fit", "a fit row is kept where the test row is not selected")
    msg = exits(lambda: fidelity.fit_rows(keep=lambda r: False, data=tmp))
    check(msg is not None and "no fit rows" in msg, f"nothing selected is refused: {msg}")
    msg = exits(lambda: fidelity.refuse_test([{"split": "test", "where": "x.csv:9"}]))
    check(msg is not None and "x.csv:9: a test row" in msg, f"refuse_test names the row: {msg}")
    msg = exits(lambda: fidelity.FileFit([rows[0], {"split": "test", "where": "y.csv:4"}], tmp, "ncs2", "f.yaml",
                                         None, None))
    check(msg is not None and "y.csv:4: a test row" in msg, f"FileFit (the fit scripts' fit) refuses it: {msg}")

scripts = sorted(glob.glob(os.path.join(root, "bench", "fidelity", "fit_*.py")))
check(len(scripts) >= 4, f"fit scripts found: {scripts}")
for s in scripts:
    text = open(s).read()
    name = os.path.basename(s)
    check("fidelity.fit_rows(" in text, f"{name} reads its rows through fidelity.fit_rows")
    check("read_rows(" not in text, f"{name} does not read the dataset by itself")

for f in failures:
    print("FAIL:", f)
print(f"fit_refusal: {len(failures)} failures")
sys.exit(1 if failures else 0)
