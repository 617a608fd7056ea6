#!/bin/sh
# The Python package as a user installs it: a fresh venv in the build tree (Debian's python3, its system packages
# visible), the package installed offline with the build's own libnnperf.so (NNPERF_PREBUILT), then pytest on
# python/tests. Skipped (exit 77) where python3, python3-venv, python3-pytest or python3-wheel is missing.
# usage: run_pytest.sh PYTHON LIBNNPERF.so NNPERF_CLI REPO_ROOT WORKDIR [PRELOAD]
# PRELOAD (sanitized builds): the sanitizer runtime(s) to preload into python, which is not built with them; leaks
# are then checked in what libnnperf allocates only (see below).
set -u
PY=$1 LIB=$2 CLI=$3 ROOT=$4 W=$5 PRELOAD=${6:-}
skip() { echo "$1: skipped"; exit 77; }
[ -x "$PY" ] || skip "python3 not found"
"$PY" -c 'import venv, ensurepip' 2>/dev/null || skip "python3-venv not installed (Debian: apt-get install python3-venv)"
"$PY" -c 'import pytest' 2>/dev/null || skip "python3-pytest not installed"
"$PY" -c 'import setuptools, wheel' 2>/dev/null || skip "python3-setuptools or python3-wheel not installed"
rm -rf "$W" && mkdir -p "$W/src" || exit 1
# a copy of python/ so that installing writes nothing into the source tree
cp -R "$ROOT/python/nnperf" "$ROOT/python/tests" "$ROOT/python/setup.py" "$ROOT/python/pyproject.toml" "$W/src/"
rm -rf "$W/src/nnperf/__pycache__" "$W/src/tests/__pycache__" "$W/src/nnperf/libnnperf.so"
"$PY" -m venv --system-site-packages "$W/venv" || exit 1
if ! NNPERF_PREBUILT=$LIB NNPERF_VERSION=$("$CLI" --version | cut -d' ' -f2) \
     "$W/venv/bin/pip" install --no-index --no-build-isolation -q "$W/src" >"$W/pip.log" 2>&1; then
  cat "$W/pip.log"
  echo "pip install failed"
  exit 1
fi
cd "$W" || exit 1
if [ -n "$PRELOAD" ]; then
  # CPython's own allocations that live until exit (and numpy's, under pandas) are reported as leaks by
  # LeakSanitizer: leaks whose allocating frame is in the interpreter, its modules or the Python packages are
  # suppressed, and only that one frame is recorded (malloc_context_size=2: the allocation function and its
  # caller), so that a leak of libnnperf's, whose caller is in libnnperf (or libyaml, libjansson), is still
  # reported (checked: a model loaded through ctypes and never freed is reported).
  printf 'leak:/usr/bin/python3\nleak:/usr/lib/python3\nleak:libffi\n' >"$W/lsan.supp"
  export LD_PRELOAD="$PRELOAD"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_context_size=2"
  export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$W/lsan.supp:print_suppressions=0"
fi
# the installed package, not a source folder, is what the tests import
"$W/venv/bin/python" -c 'import nnperf, sys; sys.exit(0 if "site-packages" in nnperf.__file__ else "imported " + nnperf.__file__)' || exit 1
NNPERF_SOURCE_DIR=$ROOT NNPERF_CLI=$CLI "$W/venv/bin/python" -m pytest -p no:cacheprovider -q -rxs "$W/src/tests"
