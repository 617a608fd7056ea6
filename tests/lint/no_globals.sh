#!/usr/bin/env bash
# no_globals.sh LIBRARY.a - the library has no mutable global state (src/core/core.h): fails when an object file of
# the library defines a writable variable (file-scope or function-static, thread-local included: a symbol in .data,
# .bss, .tdata or .tbss; constant tables live in .rodata / .data.rel.ro). Symbols the sanitizers add (UBSan's
# __unnamed_N source locations, asan/ubsan/sancov data) are not ours.
set -euo pipefail
lib=$1
bad=$(objdump -t "$lib" | awk '
  /file format/ { obj = $1; sub(/:$/, "", obj); next }
  {
    for (i = 2; i < NF; i++) if ($i ~ /^\./) break
    sec = $i; name = $NF
    if (sec !~ /^\.(data|bss|tdata|tbss)(\.|$)/ || sec ~ /^\.data\.rel\.ro/) next
    if (name ~ /^\./ || name ~ /^_*(asan|ubsan|sancov|odr_asan|_unnamed_[0-9]+$)/) next
    print "  " obj ": " name " (" sec ")"
  }')
if [ -n "$bad" ]; then
  echo "mutable global or static variables in $lib (pass state through a context instead):"
  echo "$bad"
  exit 1
fi
echo "no mutable global state in $lib"
