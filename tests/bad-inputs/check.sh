#!/bin/sh
# check.sh - runs `nnperf analyze` on one bad input and checks that it fails cleanly:
# exit code 2, exactly one line on stderr containing the expected substring, nothing on stdout, and no -o file
# left behind (nothing half-written).
# usage: check.sh NNPERF MODEL EXPECTED_SUBSTRING [WORKDIR [MORE ANALYZE OPTIONS...]]
set -u
nnperf=$1
model=$2
expect=$3
work=${4:-${TMPDIR:-/tmp}}/nnperf-bad.$$
shift 3
[ $# -gt 0 ] && shift
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
out=$work/report.json

"$nnperf" analyze "$model" "$@" --format json -o "$out" >"$work/stdout" 2>"$work/stderr"
rc=$?
fail=0
if [ "$rc" -ne 2 ]; then
    echo "FAIL: exit code $rc, expected 2"
    fail=1
fi
if [ -s "$work/stdout" ]; then
    echo "FAIL: wrote to stdout:"
    head -c 2000 "$work/stdout"
    fail=1
fi
lines=$(wc -l <"$work/stderr")
if [ "$lines" -ne 1 ]; then
    echo "FAIL: $lines lines on stderr, expected exactly 1"
    fail=1
fi
if ! grep -qF -- "$expect" "$work/stderr"; then
    echo "FAIL: stderr does not contain: $expect"
    fail=1
fi
if [ -e "$out" ] || ls "$work" | grep -q '^report\.json\.'; then
    echo "FAIL: -o left a file behind"
    fail=1
fi
echo "stderr: $(head -c 2000 "$work/stderr")"
exit $fail
