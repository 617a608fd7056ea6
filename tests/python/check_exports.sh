#!/bin/sh
# libnnperf.so exports exactly the functions include/nnperf.h declares: nothing internal leaks out (the version
# script cmake/libnnperf.map), and nothing declared is missing (the Python package binds them by name).
# usage: check_exports.sh LIBNNPERF.so include/nnperf.h
set -eu
lib=$1 header=$2
command -v nm >/dev/null || { echo "nm not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u >"$tmp/exported"
grep -o 'nnperf_[a-z0-9_]*(' "$header" | tr -d '(' | sort -u >"$tmp/declared"
fail=0
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
missing=$(comm -13 "$tmp/exported" "$tmp/declared")
[ -z "$extra" ] || { echo "exported but not declared in $header:"; echo "$extra"; fail=1; }
[ -z "$missing" ] || { echo "declared in $header but not exported by $lib:"; echo "$missing"; fail=1; }
[ "$fail" = 0 ] || exit 1
echo "$(wc -l <"$tmp/exported") functions exported, all declared in the header"
