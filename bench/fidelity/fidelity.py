#!/usr/bin/env python3
"""fidelity.py - nnperf's predictions against the fidelity dataset (bench/fidelity/data/*.csv, its README): every
row predicted on its preset, out of the box, and the |error| per preset over its fit rows and its test rows.

usage: bench/fidelity/fidelity.py [--rows] [--pairs] [--json OUT] [--check THRESHOLDS] [--write-presets DIR]
                                  [--check-presets DIR] [--preset NAME] [--out-of-the-box]

Needs the Python package (python/) and the library: PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so.
  --rows                 print every row (measured, predicted, error)
  --pairs                print the models whose source publishes both a one-thread latency and a multi-thread
                         throughput (same preset, model, input, board and source): both errors, and how many pairs
                         have both within 25%
  --json OUT             write the per-preset and per-row results as JSON
  --check THRESHOLDS     exit 1 when a preset's test median |error| is above the value recorded in THRESHOLDS
                         (bench/fidelity/thresholds.csv) or a preset with test rows has no recorded value
  --write-presets DIR    write each preset's `validation:` section (and each runtime file's in DIR/runtimes: the rows
                         predicted on it, not on its base) (median and p90 |error| of its test rows, their
                         number, and the same over its transformer-style and its cnn test rows: the model family
                         the library gives each row's model, summary["family"]) into DIR/NAME.yaml, keeping every
                         other line
  --check-presets DIR    exit 1 unless every preset's `validation:` section equals what the dataset gives
  --preset NAME          only rows of that preset
  --out-of-the-box       predict every row on its preset as it is, whatever runtime its `software` column names

Each row is predicted with the runtime its `software` column names (RUNTIMES: the whole column, or else its first
word -> a platform file with `base:` the row's preset, docs/prediction.md "Runtimes"); a row whose software is not there
(TensorRT, Vitis AI, ...), or is in OPTIONAL_RUNTIMES and has no file for its preset, is predicted on its preset as it
is, which describes that runtime.

Errors are predicted / measured - 1 of the row's quantity: `latency` (ms per run of `batch` frames) against the
prediction's latency_ms, `fps` against its fps (frames per second of one stream at that batch), `throughput`
against its throughput_fps (every core busy), or with a thread count N its throughput_fps with N application threads
(Analysis.predict streams=N, `nnperf analyze --streams N`: at most N times the one-stream fps, less where a host
stage the threads cannot overlap, overhead.host_serial_s, makes each wait for the others). A `latency` or `fps`
row's thread count is the threads of its inference where the platform runs one inference on a CPU runtime's threads
(`compute.threaded`: raspberry-pi-5), predicted with that many (Analysis.predict threads=, `nnperf analyze
--threads`). Predictions are deterministic: no timing is involved."""
import csv
import glob
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DATA = os.path.join(HERE, "data")
COLUMNS = ["preset", "model", "input", "dtype", "batch", "threads", "quantity", "value", "unit", "includes", "board",
           "software", "source", "split"]
UNITS = {"latency": "ms", "fps": "fps", "throughput": "fps"}
# The runtimes the presets do not describe themselves: the `software` column's first word -> the platform file that
# describes the preset as that runtime runs it ({preset}: the row's preset). The presets describe compiled engines
# (TensorRT, Vitis AI, ...); PyTorch's eager kernels, replayed as a CUDA graph, are presets/runtimes/. A whole
# `software` value is looked up before its first word: QuTiBench's DNNDK loop on the DPU boards is not the DNNDK zoo
# runtime the DPU presets describe (bench/RESULTS.md, "QuTiBench's DNNDK loop on the DPU boards"). D-Robotics'
# hrt_model_exec perf loop on the RDK S100 (the model zoo's rows) adds a per-frame stage to the BPU run the preset
# describes (bench/RESULTS.md, "RDK S100 model zoo rows"). Ultralytics' `yolo benchmark` calls the TensorRT engine from
# Python with its copies, a cost per run the Jetson presets (the engine alone) do not carry (bench/RESULTS.md, "The
# Jetson Orin Nano's residuals from Ultralytics' YOLO11 rows").
RUNTIMES = {"PyTorch": "presets/runtimes/{preset}-pytorch.yaml",
            "DNNDK (QuTiBench)": "presets/runtimes/{preset}-qutibench.yaml",
            "DNNDK v3.1 + Xilinx AI SDK v2.0": "presets/runtimes/{preset}-dnndk.yaml",
            "hrt_model_exec": "presets/runtimes/{preset}-hrt.yaml",
            "ultralytics": "presets/runtimes/{preset}-ultralytics.yaml",
            "MLPerf": "presets/runtimes/{preset}-mlperf.yaml"}
# Runtimes whose file a preset may lack: its rows are then predicted on the preset as it is. Xilinx's DNNDK v3.1 zoo
# rows (dnndk_zoo_1.0.csv) have files for the ZCU102 and ZCU104 (the DPU core's own DDR ports at the zoo's clock,
# fitted on each board's fit rows); the Ultra96's preset describes that runtime itself (bench/RESULTS.md, "Xilinx's
# DNNDK runtime and the DPU core's own DDR ports").
# The RDK X5's preset describes the hrt_model_exec loop itself (presets/rdk-x5.yaml: the X5's only public
# measurements are that loop's), so hrt_model_exec rows of a preset without a -hrt file are predicted on the preset.
# NVIDIA's MLPerf harness launches the engine as a CUDA graph (bench/RESULTS.md, "NVIDIA's MLPerf harness on the Orin
# NX: CUDA graphs"): the Orin NX has a file fitted on that harness's MaxQ runs; the other presets' MLPerf rows are
# predicted on the preset, which describes TensorRT's engine.
OPTIONAL_RUNTIMES = {"DNNDK v3.1 + Xilinx AI SDK v2.0", "hrt_model_exec", "MLPerf"}


def platform_of(r, out_of_the_box=False):
    """the platform a row is predicted on: its preset, or the description of its runtime on that preset (a platform
    file put in place of the preset, as calibrate_rows.py does, is taken as it is)"""
    word = r["software"] if r["software"] in RUNTIMES else (r["software"].split() or [""])[0]
    if r["preset"].endswith(".yaml"):  # a platform file: calibrate_rows.py's copies, bench/fidelity/data/platforms/
        return os.path.join(ROOT, r["preset"])
    if out_of_the_box or word not in RUNTIMES:
        return r["preset"]
    path = os.path.join(ROOT, RUNTIMES[word].format(preset=r["preset"]))
    if not os.path.isfile(path) and word in OPTIONAL_RUNTIMES:
        return r["preset"]
    if not os.path.isfile(path):
        sys.exit(f"{r['where']}: software '{word}' on preset {r['preset']} needs {os.path.relpath(path, ROOT)}")
    return path


def read_rows(data=DATA):
    """Every row of data/*.csv, checked: the columns, a split of fit or test, a known quantity with its unit."""
    rows = []
    for path in sorted(glob.glob(os.path.join(data, "*.csv"))):
        with open(path) as f:
            lines = [(i + 1, l) for i, l in enumerate(f) if not l.startswith("#")]
        rd = csv.DictReader(l for _, l in lines)
        if rd.fieldnames != COLUMNS:
            sys.exit(f"{path}: the header must be {','.join(COLUMNS)}")
        for (lineno, _), r in zip(lines[1:], rd):
            where = f"{os.path.relpath(path, ROOT)}:{lineno}"
            if r["split"] not in ("fit", "test"):
                sys.exit(f"{where}: split '{r['split']}' is not fit or test")
            if UNITS.get(r["quantity"]) != r["unit"]:
                sys.exit(f"{where}: quantity '{r['quantity']}' with unit '{r['unit']}' (latency ms, fps fps, "
                         "throughput fps)")
            if not r["source"] or not r["model"] or not (float(r["value"]) > 0):
                sys.exit(f"{where}: a row needs a model, a positive value and a source")
            r["where"] = where
            rows.append(r)
    return rows


def fit_rows(path=None, keep=lambda r: True, data=DATA):
    """The rows a fit reads: those of the data file `path` (every file when None) that `keep` selects. A fit never
    reads a test row: it exits naming the first selected row whose split is not `fit`, or when none is selected."""
    where = None if path is None else os.path.relpath(path, ROOT) + ":"
    rows = refuse_test(r for r in read_rows(data) if (where is None or r["where"].startswith(where)) and keep(r))
    if not rows:
        sys.exit(f"{path or data}: no fit rows to fit")
    return rows


def refuse_test(rows):
    """rows, as a list, when every one is a fit row; else exits naming the first that is not"""
    rows = list(rows)
    for r in rows:
        if r["split"] != "fit":
            sys.exit(f"{r['where']}: a {r['split']} row; a fit reads fit rows only")
    return rows


def percentile_abs(errs, q):
    """the q-quantile of |errors| by the nearest rank (the smallest value with at least q of them at or below)"""
    a = sorted(abs(e) for e in errs)
    return a[max(0, math.ceil(q * len(a)) - 1)] if a else None


def median_abs(errs):
    a = sorted(abs(e) for e in errs)
    n = len(a)
    return (a[n // 2] if n % 2 else (a[n // 2 - 1] + a[n // 2]) / 2) if n else None


def platform_value(platform, pattern):
    """the first match of a regular expression in a platform file (a preset name or a platform file), following
    `base:` until one matches; None where none does"""
    path = platform if platform.endswith(".yaml") else os.path.join(ROOT, "presets", platform + ".yaml")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        text = f.read()
    found = re.search(pattern, text, re.M)
    if found:
        return found
    base = re.search(r"^base:\s*(\S+)", text, re.M)
    return base and platform_value(os.path.join(os.path.dirname(path), base.group(1))
                                   if base.group(1).endswith(".yaml") else base.group(1), pattern)


def threaded(platform):
    """whether a platform (a preset name or a platform file, following `base:`) runs one inference on a CPU runtime's
    threads (`compute.threaded: true`): then a row's thread count is the threads of its inference (--threads)"""
    return bool(platform_value(platform, r"^  threaded:\s*true\b"))


def predict_rows(rows, out_of_the_box=False, analyses=None):
    """adds 'predicted' and 'error' to each row (and 'platform': what it was predicted on). `analyses`: a dict that
    keeps each (model, input)'s analysis across calls (a fit predicts the same rows on many platforms)"""
    if os.path.join(ROOT, "python") not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, "python"))
    import nnperf
    analyses = {} if analyses is None else analyses
    keys = {}  # each platform's threaded, read once a call (a fit rewrites its file between calls)
    for r in rows:
        key = (r["model"], r["input"])
        if key not in analyses:
            m = nnperf.load(os.path.join(ROOT, r["model"]))
            dims = [int(d) for d in r["input"].split("x")] if r["input"] else None
            analyses[key] = m.analyze(inputs={"input": dims} if dims else None)
        r["platform"] = platform_of(r, out_of_the_box)
        if r["platform"] not in keys:
            keys[r["platform"]] = threaded(r["platform"])
        q, count = r["quantity"], int(r["threads"]) if r["threads"].isdigit() else None
        # a latency or fps row's thread count is the threads of its inference on a CPU runtime's platform; a
        # throughput row's is its application threads (streams; 'multi' or none: every unit busy)
        threads = count if q != "throughput" and keys[r["platform"]] else None
        p = analyses[key].predict(r["platform"], dtype=r["dtype"] or None, batch=int(r["batch"] or 1),
                                  threads=threads, streams=count if q == "throughput" else None)
        s = p.summary
        r["predicted"] = s["latency_ms"] if q == "latency" else s["fps"] if q == "fps" else s["throughput_fps"]
        r["family"] = s["family"]  # the library's model family (docs/prediction.md, "Expected error")
        r["error"] = r["predicted"] / float(r["value"]) - 1
    return rows


def errors_on(rows, platforms, analyses):
    """each row's error predicted on platforms[its preset] (a fit's platform file), the rows themselves untouched"""
    return [r["error"] for r in predict_rows([dict(r, preset=platforms[r["preset"]]) for r in rows],
                                             analyses=analyses)]


def sum_abs_log(errors):
    """a fit's objective: the sum of |ln(predicted / measured)| over its rows"""
    return sum(abs(math.log(1 + e)) for e in errors)


def form_parts(name, allowed, script):
    """a fit script's form name as its parts: 'a+b' -> ['a', 'b'], '0' -> []; each part one of `allowed` (in that
    order in the message), at most once, else the script exits naming the form"""
    if name == "0":
        return []
    parts = name.split("+")
    if any(p not in allowed for p in parts) or len(set(parts)) != len(parts):
        sys.exit(f"{script}: form '{name}': parts are {', '.join(allowed)} (each once), or 0")
    return parts


def held_out_networks(rows, make_fit, form):
    """for each network (model file) of the rows, in name order: (network, its rows, their errors, the numbers), its
    rows predicted by the form fitted on the other networks' rows; make_fit(rows): an object with fit(form) -> (x,
    cost) and errors(form, x) (a fit script's Fit). The adoption rules' leave-one-network-out score"""
    for net in sorted({r["model"] for r in rows}):
        x = make_fit([r for r in rows if r["model"] != net]).fit(form)[0]
        mine = [r for r in rows if r["model"] == net]
        yield net, mine, make_fit(mine).errors(form, x), x


class FileFit:
    """a fit script's fit (make_fit of held_out_networks): a form's numbers x, written by text(form, x) into a platform
    file `file` in tmp (`base:` the preset), on which the rows, fit rows only (a test row is refused), are predicted
    as this script predicts them; fit(form) minimises their sum of |ln| from start(form) by fit_qutibench_dpu.step_fit
    and returns (bound(form, x), cost); errors(form, x) the rows' errors"""

    def __init__(self, rows, tmp, preset, file, text, start, bound=lambda form, x: x):
        self.rows, self.analyses, self.preset, self.path = refuse_test(rows), {}, preset, os.path.join(tmp, file)
        self.text, self.start, self.bound = text, start, bound

    def errors(self, form, x):
        with open(self.path, "w") as f:
            f.write(self.text(form, x))
        return errors_on(self.rows, {self.preset: self.path}, self.analyses)

    def fit(self, form):
        from fit_qutibench_dpu import step_fit  # imported here: that script imports this module
        x0 = self.start(form)
        if not x0:  # nothing to fit (form "0", or a structure alone)
            return x0, sum_abs_log(self.errors(form, x0))
        x, c = step_fit(lambda y: sum_abs_log(self.errors(form, y)), x0, 0.5)
        return self.bound(form, x), c


def report_form(name, rows, errs, tail, key, values):
    """one line: the form's sum |ln| and median |error| over the rows, by the rows' `key` (its values in order),
    and what it was fitted with (tail)"""
    parts = [f"{v} {pct(median_abs([e for r, e in zip(rows, errs) if r[key] == v]))}" for v in values]
    print(f"{name}: {len(rows)} fit rows, sum |ln| {sum_abs_log(errs):.3f}, median |error| "
          f"{pct(median_abs(errs))} ({'; '.join(parts)}){tail}", flush=True)


def print_forms(rows, names, leave_out, make_fit, form_of, describe, key, values, width):
    """a fit script's output for each form name: fitted on every row, report_form's line then each row's error
    (labelled by its `key`, `width` wide); with leave_out, each network's rows predicted by the form fitted on the
    other networks' rows (held_out_networks: the adoption rules' score), then report_form's line over them"""
    for name in names:
        form = form_of(name)
        if leave_out:
            order, errs = [], []
            for net, mine, e, x in held_out_networks(rows, make_fit, form):
                order += mine
                errs += e
                print(f"  {os.path.basename(net)}: {', '.join(f'{v * 100:+.1f}%' for v in e)} with "
                      f"{describe(form, x)}", flush=True)
            report_form(name + " left out one network at a time", order, errs, "", key, values)
            continue
        fit = make_fit(rows)
        x = fit.fit(form)[0]
        errs = fit.errors(form, x)
        report_form(name, rows, errs, "; " + describe(form, x), key, values)
        for r, e in zip(rows, errs):
            print(f"  {os.path.basename(r['model'])[:-5]:24s} {r[key]:{width}s} {e * 100:+6.1f}%")


def pairs(rows):
    """(latency row, throughput row) of each model whose source gives both on one board: the one-thread latency and
    the throughput with the most threads (a thread sweep's intermediate counts, e.g. qutibench_fit_dpu.csv, are not
    the multi-thread throughput; 'multi' counts as the most). The software is in the key: one zoo table measures
    several compiled models of one topology (vitis_ai_1.4_more.csv: Caffe, TensorFlow and Keras Inception v3)"""
    key = lambda r: (r["preset"], r["model"], r["input"], r["board"], r["source"], r["software"], r["dtype"])
    most = lambda r: int(r["threads"]) if r["threads"].isdigit() else math.inf
    lat = {key(r): r for r in rows if r["quantity"] == "latency" and r["threads"] == "1"}
    tput = {}
    for r in rows:
        if r["quantity"] == "throughput" and key(r) in lat and (key(r) not in tput or most(r) > most(tput[key(r)])):
            tput[key(r)] = r
    return [(lat[k], r) for k, r in tput.items()]


def print_pairs(rows):
    ps = pairs(rows)
    print(f"{'preset':14s} {'model':16s} {'board':24s} {'latency':>8s} {'split':5s} {'throughput':>10s} split")
    for a, b in ps:
        print(f"{a['preset']:14s} {os.path.basename(a['model'])[:-5]:16s} {a['board'][:24]:24s} "
              f"{100 * a['error']:+7.1f}% {a['split']:5s} {100 * b['error']:+9.1f}% {b['split']}")
    both = sum(abs(a["error"]) <= 0.25 and abs(b["error"]) <= 0.25 for a, b in ps)
    print(f"pairs: {len(ps)}; both within 25%: {both}; latency median |error| "
          f"{pct(median_abs([a['error'] for a, _ in ps]))}, throughput median |error| "
          f"{pct(median_abs([b['error'] for _, b in ps]))}\n")


def log_time_ratio(r):
    """ln(predicted time / measured time) of a row: its error as a factor on time (a rate's inverted)"""
    return math.log(1 + r["error"]) * (1 if r["quantity"] == "latency" else -1)


def spread(xs):
    """standard deviation (population) of xs around their mean"""
    if not xs:
        return None
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


def group_of(r):
    """the platform a row's error belongs to: its preset, or the runtime file it was predicted on (its file name
    less .yaml, e.g. h100-sxm-pytorch): a preset's validation band speaks for the runtime it describes only"""
    p = r.get("platform", r["preset"])
    return os.path.basename(p)[:-5] if p.endswith(".yaml") else p


def per_preset(rows):
    out, logs = {}, {}
    for r in rows:
        out.setdefault(group_of(r), {"fit": [], "test": []})[r["split"]].append(r["error"])
        if r["split"] == "test":
            logs.setdefault(group_of(r), []).append(log_time_ratio(r))
    res = {}
    for name, d in sorted(out.items()):
        res[name] = {"rows": len(d["fit"]) + len(d["test"]), "fit_rows": len(d["fit"]),
                     "fit_median_error": median_abs(d["fit"]), "test_rows": len(d["test"]),
                     "test_median_error": median_abs(d["test"]), "test_p90_error": percentile_abs(d["test"], 0.9),
                     "test_within_25": sum(abs(e) <= 0.25 for e in d["test"]),
                     "test_log_spread": spread(logs.get(name, []))}
    return res


# the model families of the validation keys (validation.transformer_*, validation.cnn_*): the summary's family
FAMILIES = {"transformer": "transformer-style", "cnn": "cnn"}


def per_family(rows):
    """each platform's test rows by model family (the library's, predict_rows' r['family']): {platform: {key prefix:
    (rows, median |error|, p90 |error|)}}"""
    errs = {}
    for r in rows:
        if r["split"] == "test":
            errs.setdefault(group_of(r), {k: [] for k in FAMILIES})
            errs[group_of(r)][next(k for k, f in FAMILIES.items() if f == r["family"])].append(r["error"])
    return {name: {k: (len(e), median_abs(e), percentile_abs(e, 0.9)) for k, e in d.items()}
            for name, d in errs.items()}


def family_keys(fam):
    """the validation keys of one platform's families ({} with none), as preset_validation reads them"""
    out = {}
    for k, (n, med, p90) in (fam or {}).items():
        out[f"{k}_test_rows"] = n
        if n:
            out[f"{k}_median_error"], out[f"{k}_p90_error"] = round(med, 4), round(p90, 4)
    return out


def pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def read_thresholds(path):
    with open(path) as f:
        return {r["preset"]: float(r["max_test_median_error"])
                for r in csv.DictReader(l for l in f if not l.startswith("#"))}


VALIDATION_RE = re.compile(r"^validation:.*\n(?:[ #].*\n|\n)*", re.M)


def validation_block(s, fam=None):
    return ("validation:                        # bench/fidelity/data test rows, out of the box (written by "
            "bench/fidelity/fidelity.py)\n"
            f"  test_rows: {s['test_rows']}\n"
            f"  median_error: {s['test_median_error']:.4f}\n"
            f"  p90_error: {s['test_p90_error']:.4f}\n"
            f"  log_spread: {s['test_log_spread']:.4f}\n" +
            "".join(f"  {k}: {v if k.endswith('_rows') else format(v, '.4f')}\n"
                    for k, v in family_keys(fam).items()))


def preset_files(directory):
    """the platform files of a presets folder: its presets and its runtimes/ files, sorted"""
    return sorted(glob.glob(os.path.join(directory, "*.yaml")) +
                  glob.glob(os.path.join(directory, "runtimes", "*.yaml")))


def put_section(text, section_re, block):
    """text with the section section_re matches replaced by block in place, or block appended where there is none
    (bench/llm/published.py writes the presets' llm_validation with it, this file their validation: each leaves
    the other's where it is)"""
    if section_re.search(text):
        return section_re.sub(lambda _: block, text, count=1)
    return text.rstrip("\n") + "\n" + block


def preset_validation(text):
    """the validation keys a preset's YAML text declares ({} when none)"""
    m = VALIDATION_RE.search(text)
    if not m:
        return {}
    out = {}
    for line in m.group(0).splitlines()[1:]:
        k, _, v = line.split("#")[0].strip().partition(":")
        if k:
            out[k] = float(v)
    return out


def main():
    args = sys.argv[1:]
    opts = {}
    for k in ("--json", "--check", "--write-presets", "--check-presets", "--preset"):
        if k in args:
            i = args.index(k)
            opts[k] = args[i + 1]
            del args[i:i + 2]
    show_rows, show_pairs, oob = "--rows" in args, "--pairs" in args, "--out-of-the-box" in args
    args = [a for a in args if a not in ("--rows", "--pairs", "--out-of-the-box")]
    if args:
        sys.exit(__doc__)
    rows = read_rows()
    if "--preset" in opts:
        rows = [r for r in rows if r["preset"] == opts["--preset"]]
    predict_rows(rows, oob)
    if show_rows:
        print(f"{'preset':14s} {'model':28s} {'input':12s} {'dtype':5s} {'batch':>5s} {'quantity':10s} "
              f"{'measured':>10s} {'nnperf':>10s} {'error':>8s} split")
        for r in rows:
            print(f"{r['preset']:14s} {os.path.basename(r['model'])[:-5]:28s} {r['input']:12s} {r['dtype']:5s} "
                  f"{r['batch']:>5s} {r['quantity']:10s} {float(r['value']):10.4g} {r['predicted']:10.4g} "
                  f"{100 * r['error']:+7.1f}% {r['split']}")
        print()
    if show_pairs:
        print_pairs(rows)
    res = per_preset(rows)
    print(f"{'preset':14s} {'rows':>5s} {'fit':>4s} {'fit error':>10s} {'test':>5s} {'test error':>11s} "
          f"{'test p90':>9s} {'test within 25%':>16s}")
    for name, s in res.items():
        print(f"{name:14s} {s['rows']:5d} {s['fit_rows']:4d} {pct(s['fit_median_error']):>10s} {s['test_rows']:5d} "
              f"{pct(s['test_median_error']):>11s} {pct(s['test_p90_error']):>9s} "
              f"{s['test_within_25']:>9d} of {s['test_rows']}")
    test = [r["error"] for r in rows if r["split"] == "test"]
    fit = [r["error"] for r in rows if r["split"] == "fit"]
    print(f"all: {len(rows)} rows over {len(res)} presets; fit {len(fit)} rows, median |error| {pct(median_abs(fit))};"
          f" test {len(test)} rows, median |error| {pct(median_abs(test))}, p90 {pct(percentile_abs(test, 0.9))}, "
          f"{sum(abs(e) <= 0.25 for e in test)} within 25%")
    if "--json" in opts:
        with open(opts["--json"], "w") as f:
            json.dump({"presets": res, "rows": [{k: r[k] for k in COLUMNS + ["predicted", "error"]} for r in rows]},
                      f, indent=1)
    status = 0
    if "--check" in opts:
        th = read_thresholds(opts["--check"])
        for name, s in res.items():
            if not s["test_rows"]:
                continue
            if name not in th:
                print(f"FAIL {name}: {s['test_rows']} test rows but no recorded threshold in {opts['--check']}")
                status = 1
            elif s["test_median_error"] > th[name] + 1e-9:
                print(f"FAIL {name}: test median |error| {pct(s['test_median_error'])} is above the recorded "
                      f"{pct(th[name])} ({opts['--check']})")
                status = 1
        if not status:
            print(f"check: every preset's test median |error| is at or below {opts['--check']}")
    fams = per_family(rows)
    for key in ("--write-presets", "--check-presets"):
        if key not in opts:
            continue
        for path in preset_files(opts[key]):
            name = os.path.basename(path)[:-5]
            s = res.get(name)
            with open(path) as f:
                text = f.read()
            want = {}
            if s and s["test_rows"]:
                want = {"test_rows": s["test_rows"], "median_error": round(s["test_median_error"], 4),
                        "p90_error": round(s["test_p90_error"], 4),
                        "log_spread": round(s["test_log_spread"], 4), **family_keys(fams.get(name))}
            if key == "--check-presets":
                have = preset_validation(text)
                if have != want:
                    print(f"FAIL {path}: validation {have} but the dataset gives {want} "
                          "(bench/fidelity/fidelity.py --write-presets presets)")
                    status = 1
                continue
            new = put_section(text, VALIDATION_RE, validation_block(s, fams.get(name)) if want else "")
            if new != text:
                with open(path, "w") as f:
                    f.write(new)
                print(f"wrote {path}")
        if key == "--check-presets" and not status:
            print(f"check: every preset's validation section equals the dataset ({opts[key]})")
    return status


if __name__ == "__main__":
    sys.exit(main())
