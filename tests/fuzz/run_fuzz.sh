#!/bin/sh
# run_fuzz.sh - builds the ONNX reader fuzzer (clang, libFuzzer, ASan+UBSan) and runs it for a bounded time on a
# copy of the seed corpus and the bad inputs. Used by CI; exits non-zero when the fuzzer finds a crash, leak,
# sanitizer report or timeout (the input is left in the work directory, printed at the end: save it to
# tests/fuzz/crashes/<short-name> and it becomes a regression test for fuzz_replay).
# usage: tests/fuzz/run_fuzz.sh [SECONDS=60] [BUILD_DIR=<repository>/build-fuzz]
# The default build directory lies inside this checkout, so two checkouts (or two CI runs) on one machine never
# share a CMake cache (a cache made from another source directory makes cmake stop).
# environment: JOBS (parallel fuzzing processes, default 1), CC (default clang)
set -eu
secs=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${2:-$root/build-fuzz}
cc=${CC:-clang}
jobs=${JOBS:-1}

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "run_fuzz.sh: $cc not found; skipping the fuzzer (it needs clang with libFuzzer)"
    exit 0
fi
CC=$cc cmake -S "$root" -B "$build" -DNNPERF_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target fuzz_onnx -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
bin=$build/tests/fuzz/fuzz_onnx
[ -x "$bin" ] || { echo "run_fuzz.sh: $bin was not built"; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nnperf-fuzz.XXXXXX")
mkdir -p "$work/corpus" "$work/artifacts"
cp "$here"/corpus/* "$root"/tests/bad-inputs/*.onnx "$work/corpus/"
[ -d "$here/crashes" ] && cp "$here"/crashes/* "$work/corpus/" 2>/dev/null || true

cd "$work"
echo "run_fuzz.sh: fuzzing for ${secs}s (work directory $work)"
set +e
# shellcheck disable=SC2086
opts="-max_total_time=$secs -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1"
if [ "$jobs" -gt 1 ]; then
    opts="$opts -jobs=$jobs -workers=$jobs"
fi
"$bin" "$work/corpus" $opts -dict="$here/onnx.dict" -artifact_prefix="$work/artifacts/" >"$work/log.txt" 2>&1
rc=$?
set -e
tail -n 15 "$work/log.txt"
# slow-unit-* files are reported, not failures; crash-, leak-, timeout- and oom- ones are
slow=$(ls "$work/artifacts" | grep -c '^slow-unit-' || true)
[ "$slow" -eq 0 ] || echo "run_fuzz.sh: warning: $slow slow inputs in $work/artifacts"
found=$(ls "$work/artifacts" | grep -vc '^slow-unit-' || true)
if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    echo "run_fuzz.sh: FAILED (exit $rc); inputs in $work/artifacts:"
    ls -l "$work/artifacts"
    exit 1
fi
echo "run_fuzz.sh: no crash in ${secs}s"
[ "$slow" -ne 0 ] || rm -rf "$work"
