"""fit_qutibench_dpu.py - fits the runtime description of QuTiBench's DNNDK application loop on the three DPU boards
(presets/runtimes/{ultra96,zcu102,zcu104}-dpu-qutibench.yaml) on the `fit` rows of
bench/fidelity/data/qutibench_fit_dpu.csv only (QuTiBench's own runs with 2 to 7 threads); a test row is refused.

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_qutibench_dpu.py [FORM ...]
  ... fit_qutibench_dpu.py --dnndk BOARD [FORM ...]
  ... fit_qutibench_dpu.py --serial BOARD [FORM ...]
  ... fit_qutibench_dpu.py --serial BOARD --extrapolate [FORM ...]

With --serial BOARD the rows are that board's 12 fit rows of qutibench_fit_dpu.csv and the numbers go on top of
presets/runtimes/BOARD-qutibench.yaml (its efficiency, fitted by the default mode on all 36 rows, held, and its host
stage unless the form has h: the Ultra96 and ZCU102 files carry the default mode's, the ZCU104 its own from h+r+x;
a form without x sets host_serial_s 0, so `r` refits the per-call cost alone as before): the serial part's form
(bench/RESULTS.md, "QuTiBench's serial stage across threads").

With --serial BOARD --extrapolate each form is also fitted on the rows of threads 3-7 and scored on the thread-2 rows,
and fitted on threads 2-6 and scored on the thread-7 rows: the sum of |ln(predicted / measured)| over those four
held-out fit rows is the form's extrapolation score (what the test rows, threads 1 and 8, ask of a form: to hold
beyond the thread counts it was fitted on), printed beside the plain fit on threads 2-7 (bench/RESULTS.md,
"QuTiBench's ZCU104 pair: which thread model extrapolates").

With --dnndk BOARD the rows are that board's fit rows of bench/fidelity/data/dnndk_zoo_1.0.csv (Xilinx's DNNDK v3.1
one-thread latencies), the numbers go on top of presets/runtimes/BOARD-dnndk.yaml (the zoo's clock and the DPU
core's own DDR ports; bench/RESULTS.md, "Xilinx's DNNDK runtime and the DPU core's own DDR ports"), s and d are
factors on the preset's efficiency and DDR efficiency, and a simplex on the logarithms polishes where the steps stop
(the efficiency held at its bound 1, where one number at a time no longer moves).

Each row is predicted as fidelity.py predicts it (throughput with the row's thread count), on a platform file with
`base:` the row's preset and the form's keys set. A form is a set of free numbers, each shared by a set of boards:
  h      overhead.host_per_frame_s (the A53 host stage per frame)
  s      a factor on the preset's compute.efficiency (the DPU layers as QuTiBench's build runs them)
  r      overhead.per_run_s (per DPU call: one per frame on the Zynq DPU)
  d      a factor on the preset's memory.ddr_efficiency (the DDR rate the DPU's loads and stores reach)
  x      overhead.host_serial_s (a host stage per frame the threads cannot overlap; --serial only)
  c      the share of the file's host stage H (overhead.host_per_frame_s) that each further thread adds to every
         thread's frame (the host stage slowed by the threads sharing the A53s and the DDR): host_per_frame_s
         (1 - c) H and host_serial_s c H, so the one-thread latency keeps H and N threads' frames take
         latency + (N - 1) c H each (--serial only; c at most 1)
  _b     one number per board instead of one shared by the three.
The fit minimises the sum of |ln(predicted / measured)| over the fit rows (multiplicative steps on each number in
turn, halved until under 0.5%); the form is chosen by that sum (bench/RESULTS.md, "QuTiBench's DNNDK loop on the
DPU boards"). `nnperf calibrate --table` is not used: it predicts a throughput row at the saturated thread count,
and most of these rows are below it. Prints each form's numbers and per-row errors; writes nothing.
"""
import math
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402

BOARDS = ["ultra96-dpu", "zcu102-dpu", "zcu104-dpu"]
KEYS = {"h": "host_per_frame_s", "r": "per_run_s", "s": "efficiency", "d": "ddr_efficiency", "x": "host_serial_s",
        "c": "host_share"}


def preset_efficiency(board, key="efficiency"):
    """the preset's compute.efficiency default (or memory.ddr_efficiency), read from its YAML"""
    with open(os.path.join(fidelity.ROOT, "presets", board + ".yaml")) as f:
        for line in f:
            t = line.split("#")[0].strip()
            if key == "efficiency" and t.startswith("efficiency: {default:"):
                return float(t.split("default:")[1].strip(" }"))
            if key != "efficiency" and t.startswith(key + ":"):
                return float(t.split(":")[1])
    sys.exit(f"presets/{board}.yaml: no {key}")


def form_of(name):
    """'h+s+r_b' -> [(number name, key, boards)]"""
    out = []
    for part in name.split("+"):
        key = KEYS[part[0]]
        out += [(f"{part[0]}_{b}", key, [b]) for b in BOARDS] if part.endswith("_b") else [(part, key, BOARDS)]
    return out


SERIAL = False  # --serial: the board's QuTiBench runtime file is the base
BASE = {}  # board -> the platform file the fitted numbers go on top of (--dnndk: its DNNDK runtime file)
# With --serial or --dnndk, a number outside the form keeps the value the runtime file held before the fits that set
# it (bench/RESULTS.md), not the fitted value the file holds since, so the recorded scores are reproduced after the
# adoption. zcu104-dpu-qutibench.yaml as the default mode wrote it (h+s+r_b), before fid-qtamdahl's r+x and
# fid-qtpair's h+r+x set its host stage to 0.2751 ms ("QuTiBench's serial stage across threads", "QuTiBench's
# ZCU104 pair"); the other two QuTiBench files have not changed since. The DNNDK files before their h+s fit
# (main 842c7e5, "Xilinx's DNNDK runtime and the DPU core's own DDR ports") had no efficiency of their own: the
# preset's (main() adds it); their host stage is in every --dnndk form.
PRE_FIT = {"zcu104-dpu-qutibench.yaml": {"host_per_frame_s": 4.231e-3, "per_run_s": 6.633e-3}}


def platform_text(board, values):
    values = dict(PRE_FIT.get(os.path.basename(BASE.get(board, "")), {}), **values)
    comp = f"compute:\n  efficiency: {{default: {values['efficiency']:.4g}}}\n" if "efficiency" in values else ""
    mem = f"memory:\n  ddr_efficiency: {values['ddr_efficiency']:.4g}\n" if "ddr_efficiency" in values else ""
    if "host_share" in values:  # c: the share c of the file's host stage H becomes serial, (1 - c) H stays
        big = fidelity.platform_value(BASE[board], r"^  host_per_frame_s:\s*([0-9.eE+-]+)")
        h, c = values.get("host_per_frame_s", float(big.group(1))), values["host_share"]
        values = dict(values, host_per_frame_s=(1 - c) * h, host_serial_s=c * h)
    if SERIAL and "host_serial_s" not in values:
        values = dict(values, host_serial_s=0)  # --serial: a form without x has none (not the file's)
    over = "".join(f"  {k}: {values[k]:.4g}\n" for k in ("host_per_frame_s", "per_run_s", "host_serial_s")
                   if k in values)
    return (f"format: 1\nbase: {BASE.get(board, board)}\nname: {board}-fit\n{comp}{mem}" +
            (f"overhead:\n{over}" if over else ""))


def values_of(form, x, eff):
    v = {b: {} for b in BOARDS}
    for (_, key, bs), xi in zip(form, x):
        for b in bs:
            v[b][key] = (min(1.0, eff[b][key] * xi) if key in ("efficiency", "ddr_efficiency") else
                         min(1.0, xi) if key == "host_share" else xi)
    return v


class Fit:
    def __init__(self, rows, tmp, polish=False):
        self.rows, self.tmp, self.analyses, self.polish = rows, tmp, {}, polish
        self.eff = {b: {k: preset_efficiency(b, k) for k in ("efficiency", "ddr_efficiency")} for b in BOARDS}

    def errors(self, form, x):
        paths = {}
        for b, v in values_of(form, x, self.eff).items():
            paths[b] = os.path.join(self.tmp, b + ".yaml")
            with open(paths[b], "w") as f:
                f.write(platform_text(b, v))
        return fidelity.errors_on(self.rows, paths, self.analyses)

    def cost(self, form, x):
        return fidelity.sum_abs_log(self.errors(form, x))

    def fit(self, form):
        x = [{"host_per_frame_s": 3e-3, "per_run_s": 1e-3, "efficiency": 0.7, "ddr_efficiency": 1,
              "host_serial_s": 2e-3, "host_share": 0.5}[k]
             for _, k, _ in form]
        x, c = step_fit(lambda y: self.cost(form, y), x, 0.5)
        x, c = self.simplex(form, x, c) if self.polish else (x, c)
        return [min(1.0, v) if k == "host_share" else v for (_, k, _), v in zip(form, x)], c  # c past 1 is 1

    def simplex(self, form, x, c):
        """Nelder-Mead on the logarithms of the numbers from where the steps stopped: a valley no single step
        follows (the efficiency held at its bound 1 while the host stage and DDR efficiency move together)"""
        f = lambda u: self.cost(form, [math.exp(v) for v in u])
        n = len(x)
        pts = [[math.log(v) for v in x]]
        pts += [[p + 0.1 * (k == i) for k, p in enumerate(pts[0])] for i in range(n)]
        vals = [c] + [f(p) for p in pts[1:]]
        for _ in range(60 * n):
            order = sorted(range(n + 1), key=lambda i: vals[i])
            pts, vals = [pts[i] for i in order], [vals[i] for i in order]
            if vals[-1] - vals[0] < 1e-6:
                break
            mid = [sum(p[k] for p in pts[:-1]) / n for k in range(n)]
            at = lambda t: [m + t * (m - w) for m, w in zip(mid, pts[-1])]
            r = at(1)
            fr = f(r)
            if fr < vals[0]:
                e = at(2)
                fe = f(e)
                pts[-1], vals[-1] = (e, fe) if fe < fr else (r, fr)
            elif fr < vals[-2]:
                pts[-1], vals[-1] = r, fr
            else:
                k = at(-0.5)
                fk = f(k)
                if fk < vals[-1]:
                    pts[-1], vals[-1] = k, fk
                else:
                    pts = [pts[0]] + [[a + 0.5 * (b - a) for a, b in zip(pts[0], p)] for p in pts[1:]]
                    vals = [vals[0]] + [f(p) for p in pts[1:]]
        i = min(range(n + 1), key=lambda i: vals[i])
        return [math.exp(v) for v in pts[i]], vals[i]


def step_fit(cost, x, step):
    """minimises cost(x) by multiplicative steps (x 1 + step, / 1 + step) on each number in turn, the step halved
    when none lowers the cost, until under 0.5%; returns (x, cost)"""
    c = cost(x)
    while x and step > 0.005:
        better = False
        for i in range(len(x)):
            for d in (1 + step, 1 / (1 + step)):
                y = list(x)
                y[i] *= d
                cy = cost(y)
                if cy < c - 1e-12:
                    x, c, better = y, cy, True
        if not better:
            step /= 2
    return x, c


def main():
    global BOARDS, SERIAL
    warnings.simplefilter("ignore")
    extrapolate = False
    sys.path.insert(0, os.path.join(fidelity.ROOT, "python"))
    args = sys.argv[1:]
    if args[:1] == ["--dnndk"] and len(args) > 1:
        # one board's Xilinx DNNDK v3.1 rows (dnndk_zoo_1.0.csv): its one-thread latencies, the file's fit rows
        BOARDS, args = [args[1]], args[2:]
        BASE[BOARDS[0]] = os.path.join(fidelity.ROOT, "presets", "runtimes", BOARDS[0] + "-dnndk.yaml")
        PRE_FIT[BOARDS[0] + "-dnndk.yaml"] = {"efficiency": preset_efficiency(BOARDS[0])}
        path = os.path.join(fidelity.DATA, "dnndk_zoo_1.0.csv")
        keep = lambda r: r["preset"] == BOARDS[0] and r["split"] == "fit"
    elif args[:1] == ["--serial"] and len(args) > 1:
        # one board's QuTiBench fit rows, on top of its runtime file (host stage and efficiency as fitted there)
        BOARDS, args, SERIAL = [args[1]], args[2:], True
        extrapolate = args[:1] == ["--extrapolate"]
        args = args[1:] if extrapolate else args
        BASE[BOARDS[0]] = os.path.join(fidelity.ROOT, "presets", "runtimes", BOARDS[0] + "-qutibench.yaml")
        path = os.path.join(fidelity.DATA, "qutibench_fit_dpu.csv")
        keep = lambda r: r["preset"] == BOARDS[0]
    else:
        path = os.path.join(fidelity.DATA, "qutibench_fit_dpu.csv")
        keep = lambda r: True
    rows = fidelity.fit_rows(path, keep)
    forms = args or ["h+s", "h+r_b", "h+s_b", "h+s+r_b"]
    with tempfile.TemporaryDirectory() as tmp:
        fit = Fit(rows, tmp, polish=bool(BASE))
        for name in forms:
            form = form_of(name)
            x, c = fit.fit(form)
            errs = fit.errors(form, x)
            print(f"{name}: sum |ln| {c:.3f} (mean {100 * (math.exp(c / len(rows)) - 1):.1f}%), median |error| "
                  f"{fidelity.pct(fidelity.median_abs(errs))}, {len(rows)} fit rows: "
                  + ", ".join(f"{n} {v:.4g}" for (n, _, _), v in zip(form, x)))
            for b in BOARDS:
                print(f"  {b}: " + " ".join(f"{os.path.basename(r['model'])[:-5]}/{r['threads']} {100 * e:+.0f}%"
                                            for r, e in zip(rows, errs) if r["preset"] == b))
            if extrapolate:
                held_out(rows, tmp, form)


def held_out(rows, tmp, form):
    """fits a form on the rows of threads 3-7 and scores the thread-2 rows, then on threads 2-6 and scores the
    thread-7 rows; prints each fit's numbers, the held-out errors and their sum of |ln| (the extrapolation score)"""
    total = 0
    for fit_on, score in (("34567", "2"), ("23456", "7")):
        fit = Fit([r for r in rows if r["threads"] in fit_on], tmp, polish=True)
        x, _ = fit.fit(form)
        held = [r for r in rows if r["threads"] == score]
        errs = Fit(held, tmp).errors(form, x)
        total += fidelity.sum_abs_log(errs)
        print(f"  fitted on threads {','.join(fit_on)}: " + ", ".join(f"{n} {v:.4g}" for (n, _, _), v in zip(form, x))
              + "; held out: " + " ".join(f"{os.path.basename(r['model'])[:-5]}/{r['threads']} {100 * e:+.1f}%"
                                         for r, e in zip(held, errs)))
    print(f"  extrapolation score (sum |ln| over the 4 held-out rows): {total:.3f}")


if __name__ == "__main__":
    main()
