#!/bin/sh
# check_external.sh - external data that is a symbolic link or a FIFO, made at test time (git keeps no FIFO, and a
# committed link out of the repository would be a hazard of its own): copies MODEL into a fresh folder and makes
# NAME there as KIND, then
#   link TARGET     a symbolic link to TARGET: check.sh must see exit 2 and EXPECTED (the one-line error);
#   fifo -          a named pipe: the same (the load must neither hang nor read it);
#   link-inside -   a symbolic link to real.bin in the same folder, which holds the int64 values 3 and 2:
#                   `nnperf analyze` must succeed and read them (Reshape to 3x2); EXPECTED is a string of its output.
# usage: check_external.sh NNPERF MODEL NAME KIND TARGET EXPECTED WORKDIR
set -u
nnperf=$1
model=$2
name=$3
kind=$4
target=$5
expect=$6
work=${7:-${TMPDIR:-/tmp}}/nnperf-ext.$$
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work/model" || exit 1
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/model/" || exit 1
copy=$work/model/$(basename "$model")
case $kind in
link) ln -s "$target" "$work/model/$name" || exit 1 ;;
fifo) mkfifo "$work/model/$name" || exit 1 ;;
link-inside)
    printf '\003\000\000\000\000\000\000\000\002\000\000\000\000\000\000\000' >"$work/model/real.bin"
    ln -s real.bin "$work/model/$name" || exit 1
    "$nnperf" analyze "$copy" >"$work/stdout" 2>"$work/stderr"
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qF -- "$expect" "$work/stdout"; then
        echo "FAIL: exit code $rc (expected 0) or no '$expect' in the report; stderr:"
        cat "$work/stderr"
        exit 1
    fi
    echo "ok: read through a link inside the model's folder"
    exit 0
    ;;
*) echo "check_external.sh: unknown kind $kind"; exit 1 ;;
esac
# timeout: a FIFO that is read would block for ever
timeout 60 sh "$here/check.sh" "$nnperf" "$copy" "$expect" "$work"
