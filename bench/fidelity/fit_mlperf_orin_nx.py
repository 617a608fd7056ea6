"""fit_mlperf_orin_nx.py - fits presets/runtimes/jetson-orin-nx-16gb-mlperf.yaml (NVIDIA's MLPerf harness on the Jetson
Orin NX 16GB: the engine replayed as a CUDA graph) on the `fit` rows of bench/fidelity/data/mlperf_orin_nx_maxq.csv
only, the same harness's MaxQ runs; a test row is refused (fidelity.fit_rows).

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_mlperf_orin_nx.py
  ... fit_mlperf_orin_nx.py --write-platforms   writes bench/fidelity/data/platforms/ from the committed runtime file

One number: overhead.per_layer_s at the preset's 918 MHz GPU clock (bench/RESULTS.md, "NVIDIA's MLPerf harness on the
Orin NX: CUDA graphs"). Each fit row is predicted on a platform file of its clocks: `base:` the runtime file, the
preset's compute peaks, vector and TF32 rates x f / 918 MHz, its DDR bandwidth x 2133 / 3199 MHz (the EMC clock), the
per-layer cost x 918 / f (the Orin presets' convention: a per-layer cost moves with the GPU clock). The fit minimises
the sum of |ln(predicted / measured)| over the fit rows from the preset's number (fit_qutibench_dpu.step_fit; a
number the steps take under 1 ns is the bound, 0). Prints
the preset's number and the fitted one with their sums and each row's error; writes nothing but, with
--write-platforms, the platform files of the clocks (the fitted number goes into the runtime file by hand).
"""
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402

DATA = os.path.join(fidelity.DATA, "mlperf_orin_nx_maxq.csv")
PRESET = "jetson-orin-nx-16gb"
RUNTIME = os.path.join("presets", "runtimes", PRESET + "-mlperf.yaml")
PLATFORMS = os.path.join("bench", "fidelity", "data", "platforms")
GPU_HZ, EMC_HZ = 918e6, 3199e6  # the preset's clocks (presets/jetson-orin-nx-16gb.yaml, MAXN)
# each fit row's platform file and its clocks: GPU, EMC (NVIDIA's v3.1 configs, class Orin_NX_MaxQ of
# closed/NVIDIA/configs/resnet50/MultiStream and closed/NVIDIA/configs/retinanet/SingleStream; [MLPERF-INF])
CLOCKS = {PRESET + "-mlperf-maxq-624.yaml": (624.75e6, 2133e6), PRESET + "-mlperf-maxq-816.yaml": (816e6, 2133e6)}
# the preset's keys that move with the GPU clock, read from its file
RATES = {"int8": r"^    int8:\s*(\S+)", "fp16": r"^    fp16:\s*(\S+)", "fp32": r"^    fp32:\s*(\S+)",
         "vector_ops": r"^  vector_ops:\s*(\S+)", "tf32_ops": r"^  tf32_ops:\s*(\S+)",
         "ddr_bandwidth": r"^  ddr_bandwidth:\s*(\S+)", "per_layer_s": r"^  per_layer_s:\s*(\S+)"}


def number(platform, key):
    """one of RATES' numbers in a platform file (a preset name or a path), following `base:`"""
    m = fidelity.platform_value(platform, RATES[key])
    if not m:
        sys.exit(f"{platform}: no {key}")
    return float(m.group(1))


def preset_numbers():
    return {k: number(PRESET, k) for k in RATES}


def runtime_text(per_layer):
    return (f"format: 1\nbase: {PRESET}\nname: {PRESET}-mlperf\noverhead:\n  per_layer_s: {per_layer:.4g}\n")


def platform_text(name, base, per_layer, preset):
    """the platform file of one fit row's clocks; base: the runtime file (a path relative to this file's folder)"""
    gpu, emc = CLOCKS[name]
    g = gpu / GPU_HZ
    return (f"# {name[:-5]} - written by bench/fidelity/fit_mlperf_orin_nx.py --write-platforms:\n"
            f"# {PRESET} under NVIDIA's MLPerf harness (the runtime file) at MaxQ clocks, GPU {gpu / 1e6:g} MHz and\n"
            f"# EMC {emc / 1e6:g} MHz (bench/fidelity/data/mlperf_orin_nx_maxq.csv): its GPU rates x "
            f"{gpu / 1e6:g} / 918,\n# its DDR x {emc / 1e6:g} / 3199, its per-layer cost x 918 / {gpu / 1e6:g}. "
            "A fit row's platform, not a preset.\n"
            f"format: 1\nbase: {base}\nname: {name[:-5]}\n"
            "compute:\n  peak_ops:\n"
            + "".join(f"    {k}: {preset[k] * g:.6g}\n" for k in ("int8", "fp16", "fp32"))
            + f"  vector_ops: {preset['vector_ops'] * g:.6g}\n  tf32_ops: {preset['tf32_ops'] * g:.6g}\n"
            f"memory:\n  ddr_bandwidth: {preset['ddr_bandwidth'] * emc / EMC_HZ:.6g}\n"
            f"overhead:\n  per_layer_s: {per_layer / g:.6g}\n")


def main():
    warnings.simplefilter("ignore")
    preset = preset_numbers()
    if sys.argv[1:] == ["--write-platforms"]:
        p = number(os.path.join(fidelity.ROOT, RUNTIME), "per_layer_s")
        for name in CLOCKS:
            with open(os.path.join(fidelity.ROOT, PLATFORMS, name), "w") as f:
                f.write(platform_text(name, os.path.join("..", "..", "..", "..", RUNTIME), p, preset))
        print(f"wrote {len(CLOCKS)} platform files of {RUNTIME}'s per_layer_s {p:.4g}")
        return
    if sys.argv[1:]:
        sys.exit(__doc__)
    rows = fidelity.fit_rows(DATA)
    analyses = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = {r["preset"]: os.path.join(tmp, os.path.basename(r["preset"])) for r in rows}

        def errors(x):
            with open(os.path.join(tmp, "runtime.yaml"), "w") as f:
                f.write(runtime_text(x[0]))
            for committed, path in files.items():
                with open(path, "w") as f:
                    f.write(platform_text(os.path.basename(committed), "runtime.yaml", x[0], preset))
            return fidelity.errors_on(rows, files, analyses)

        from fit_qutibench_dpu import step_fit
        start = [preset["per_layer_s"]]
        fitted = step_fit(lambda y: fidelity.sum_abs_log(errors(y)), start, 0.5)[0]
        if fitted[0] < 1e-9:  # the steps ran down towards 0: the minimum is at the bound (a cost is not negative)
            fitted = [0.0]
        for label, x in (("the preset's", start), ("fitted", fitted)):
            errs = errors(x)
            print(f"{label} per_layer_s {x[0]:.4g}: sum |ln| {fidelity.sum_abs_log(errs):.3f}, median |error| "
                  f"{fidelity.pct(fidelity.median_abs(errs))} ("
                  + "; ".join(f"{os.path.basename(r['model'])[:-5]} batch {r['batch']} {100 * e:+.1f}%"
                              for r, e in zip(rows, errs)) + ")")


if __name__ == "__main__":
    main()
