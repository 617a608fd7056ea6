#!/bin/sh
# run_fuzz.sh - builds every libFuzzer harness tests/fuzz/fuzz_*.c (clang, ASan+UBSan) and runs each for a bounded
# time on a copy of its seeds: tests/fuzz/corpus/<harness>/, the folders listed in tests/fuzz/<harness>.seeds and its
# saved crashes tests/fuzz/crashes/<harness>/, with tests/fuzz/<harness>.dict when there is one. Used by CI.
# Exits non-zero when a harness finds a crash, leak, sanitizer report or timeout; every harness runs anyway. The
# inputs found are left in the work directory, printed at the end: save one to tests/fuzz/crashes/<harness>/ and it
# becomes a regression test (ctest fuzz_replay_<name> replays that folder).
#
# usage: tests/fuzz/run_fuzz.sh [-t SECONDS] [-b BUILD_DIR] [HARNESS...]
#   HARNESS    fuzz_onnx or onnx; default: every tests/fuzz/fuzz_*.c
#   -t SECONDS run each harness this long (a bare number as the first argument means the same). Default: 60 s for
#              fuzz_onnx, 45 s for fuzz_predict and fuzz_platform and 25 s for each other harness, scaled down so that
#              the sum stays within FUZZ_BUDGET
#   -b DIR     build directory, default <repository>/build-fuzz: inside this checkout, so two checkouts (or two CI
#              runs) on one machine never share a CMake cache (a cache made from another source directory makes
#              cmake stop)
# environment: FUZZ_BUDGET (seconds of fuzzing in all when -t is not given, default 240: CI stays under 5 minutes
#              with the build), JOBS (parallel fuzzing processes per harness, default 1), FUZZ_RUNS (stop a
#              harness after this many executions, when that comes before its time), CC (default clang)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build-fuzz
secs=""
case "${1:-}" in [0-9]*) secs=$1; shift ;; esac
while getopts t:b: opt; do
    case $opt in
    t) secs=$OPTARG ;;
    b) build=$OPTARG ;;
    *) echo "usage: $0 [-t SECONDS] [-b BUILD_DIR] [HARNESS...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
cc=${CC:-clang}
jobs=${JOBS:-1}
runs_cap=${FUZZ_RUNS:-}
budget=${FUZZ_BUDGET:-240}
case "$secs$budget$jobs$runs_cap" in *[!0-9]*) echo "run_fuzz.sh: -t, FUZZ_BUDGET, JOBS and FUZZ_RUNS take whole numbers" >&2; exit 2 ;; esac

# the harnesses to run: named on the command line, else all of them
harnesses=""
if [ $# -gt 0 ]; then
    for h in "$@"; do
        h=fuzz_${h#fuzz_}
        [ -f "$here/$h.c" ] || { echo "run_fuzz.sh: no harness $here/$h.c" >&2; exit 2; }
        harnesses="$harnesses $h"
    done
else
    for f in "$here"/fuzz_*.c; do
        [ -f "$f" ] && harnesses="$harnesses $(basename "$f" .c)"
    done
fi
[ -n "$harnesses" ] || { echo "run_fuzz.sh: no harness in $here" >&2; exit 2; }

# seconds per harness: -t for each, else the default share, scaled to the budget
default_secs() {
    case $1 in fuzz_onnx) echo 60 ;; fuzz_predict | fuzz_platform) echo 45 ;; *) echo 25 ;; esac
}
total=0
for h in $harnesses; do total=$((total + $(default_secs "$h"))); done
secs_for() {
    if [ -n "$secs" ]; then
        echo "$secs"
    elif [ "$total" -le "$budget" ]; then
        default_secs "$1"
    else
        s=$(($(default_secs "$1") * budget / total))
        [ "$s" -ge 5 ] || s=5
        echo "$s"
    fi
}

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "run_fuzz.sh: $cc not found; skipping the fuzzers (they need clang with libFuzzer)"
    exit 0
fi
CC=$cc cmake -S "$root" -B "$build" -DNNPERF_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j2 --target $harnesses >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/nnperf-fuzz.XXXXXX")
failed=""
keep=0
for h in $harnesses; do
    bin=$build/tests/fuzz/$h
    [ -x "$bin" ] || { echo "run_fuzz.sh: $bin was not built"; exit 2; }
    w=$work/$h
    mkdir -p "$w/corpus" "$w/artifacts"
    # seeds: the corpus, the extra seed folders, the saved crashes (regular files only, links not followed)
    dirs="$here/corpus/$h $here/crashes/$h"
    if [ -f "$here/$h.seeds" ]; then
        dirs="$dirs $(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$here/$h.seeds" | sed "s#^#$root/#")"
    fi
    for d in $dirs; do
        [ -d "$d" ] || continue
        find "$d" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$w/corpus/" \;
    done
    dict=""
    [ -f "$here/$h.dict" ] && dict="-dict=$here/$h.dict"
    s=$(secs_for "$h")
    opts="-max_total_time=$s -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1"
    [ -n "$runs_cap" ] && opts="$opts -runs=$runs_cap"
    if [ "$jobs" -gt 1 ]; then
        opts="$opts -jobs=$jobs -workers=$jobs"
    fi
    echo "run_fuzz.sh: $h for ${s}s (work directory $w)"
    set +e
    # shellcheck disable=SC2086
    (cd "$w" && "$bin" "$w/corpus" $opts $dict -artifact_prefix="$w/artifacts/" >"$w/log.txt" 2>&1)
    rc=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log.txt" | tail -n 1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$w/log.txt" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$w/log.txt" | tail -n 1)
    # slow-unit-* files are reported, not failures; crash-, leak-, timeout- and oom- ones are
    slow=$(ls "$w/artifacts" | grep -c '^slow-unit-' || true)
    found=$(ls "$w/artifacts" | grep -vc '^slow-unit-' || true)
    if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
        tail -n 30 "$w/log.txt"
        echo "run_fuzz.sh: $h FAILED (exit $rc); inputs in $w/artifacts:"
        ls -l "$w/artifacts"
        failed="$failed $h"
        keep=1
    else
        echo "run_fuzz.sh: $h: no crash in ${s}s, ${runs:-?} runs, ${cov:-cov: ?}, peak RSS ${rss:-?} MB"
    fi
    if [ "$slow" -ne 0 ]; then
        echo "run_fuzz.sh: warning: $h: $slow slow inputs in $w/artifacts"
        keep=1
    fi
done
if [ -n "$failed" ]; then
    echo "run_fuzz.sh: FAILED:$failed (work directory $work)"
    exit 1
fi
[ "$keep" -ne 0 ] || rm -rf "$work"
echo "run_fuzz.sh: all harnesses ran clean:$harnesses"
