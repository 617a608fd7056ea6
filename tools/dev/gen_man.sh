#!/bin/sh
# Regenerates docs/nnperf.1 (man page) and tools/completion/nnperf.bash (bash completion) from the option tables
# of tools/nnperf/help.c, through the built CLI (`nnperf help --man`, `nnperf help --completion`).
# usage: tools/dev/gen_man.sh [NNPERF]          write both files
#        tools/dev/gen_man.sh NNPERF --check    exit 1 when a committed file is out of date (a ctest test)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
NN=${1:-$root/build/nnperf}
MODE=${2:-}
export LC_ALL=C
st=0
for pair in "--man:docs/nnperf.1" "--completion:tools/completion/nnperf.bash"; do
  flag=${pair%%:*}
  file=$root/${pair#*:}
  tmp=$(mktemp)
  if ! "$NN" help "$flag" >"$tmp"; then
    echo "gen_man: '$NN help $flag' failed"
    rm -f "$tmp"
    exit 2
  fi
  if [ "$MODE" = "--check" ]; then
    if ! cmp -s "$tmp" "$file"; then
      echo "out of date: ${pair#*:} (run tools/dev/gen_man.sh $NN)"
      diff "$file" "$tmp" | head -20
      st=1
    fi
    rm -f "$tmp"
  else
    mv "$tmp" "$file" && chmod 644 "$file"
    echo "wrote ${pair#*:}"
  fi
done
exit $st
