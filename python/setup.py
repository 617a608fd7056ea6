"""Builds the nnperf Python package: the pure-Python binding (nnperf/) plus libnnperf.so inside it.

The library comes from, in this order:
  - NNPERF_PREBUILT=/path/to/libnnperf.so: that file, copied (the tests install the build tree's own library);
  - else the CMake build of the checkout this folder is in (python/..), target nnperf_shared, built into
    python/build/libnnperf (kept between installs: a second install only relinks what changed).
The wheel is tagged for this platform (it carries a native library), though no Python extension module is compiled:
ctypes loads the library at import.
"""
import os
import shutil
import subprocess
import sys

try:
    from setuptools import setup
    import wheel  # noqa: F401  (pip builds the package as a wheel: bdist_wheel comes from it on setuptools < 70.1)
except ImportError as e:
    raise SystemExit(
        f"nnperf: {sys.executable} (Python {sys.version.split()[0]}) lacks the '{e.name}' package that building "
        "the nnperf package needs. Use Debian's interpreter, which has both: "
        "'/usr/bin/python3 -m venv --system-site-packages V && V/bin/pip install --no-index "
        "--no-build-isolation ./python' (apt-get install python3-venv python3-setuptools python3-wheel), "
        "or install setuptools and wheel into this Python first") from None

from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _version():
    """NNPERF_VERSION of include/nnperf.h (the package's version is the library's)."""
    try:
        with open(os.path.join(ROOT, "include", "nnperf.h"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("#define NNPERF_VERSION "):
                    return line.split('"')[1]
    except OSError:
        pass
    return os.environ.get("NNPERF_VERSION", "0.1.0")


class BinaryDistribution(Distribution):
    """A platform wheel: the package carries libnnperf.so."""

    def has_ext_modules(self):
        return True


def _build_library():
    if not os.path.exists(os.path.join(ROOT, "CMakeLists.txt")) or not os.path.isdir(os.path.join(ROOT, "src")):
        raise SystemExit(
            f"nnperf: {ROOT} is not an nnperf checkout, so libnnperf.so cannot be built here; "
            "build it with CMake and set NNPERF_PREBUILT=/path/to/libnnperf.so")
    if not shutil.which("cmake"):
        raise SystemExit("nnperf: cmake not found (Debian: apt-get install cmake build-essential libyaml-dev "
                         "libjansson-dev pkg-config), or set NNPERF_PREBUILT=/path/to/libnnperf.so")
    build = os.path.join(HERE, "build", "libnnperf")
    subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                           "-DNNPERF_CONFORMANCE=OFF"])
    subprocess.check_call(["cmake", "--build", build, "--target", "nnperf_shared", "--parallel", "2"])
    return os.path.join(build, "libnnperf.so")


class BuildPyWithLibrary(build_py):
    """build_py, then libnnperf.so copied into the built package."""

    def run(self):
        super().run()
        lib = os.environ.get("NNPERF_PREBUILT") or _build_library()
        if not os.path.isfile(lib):
            raise SystemExit(f"nnperf: {lib}: no such library (NNPERF_PREBUILT)")
        dest = os.path.join(self.build_lib, "nnperf", "libnnperf.so")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(lib, dest)
        os.chmod(dest, 0o755)


setup(
    name="nnperf",
    version=_version(),
    description="ONNX model analysis (shapes, MACs, FLOPs, bytes) and latency prediction on accelerators",
    packages=["nnperf"],
    python_requires=">=3.9",
    cmdclass={"build_py": BuildPyWithLibrary},
    distclass=BinaryDistribution,
    zip_safe=False,
)
