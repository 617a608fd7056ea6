#!/bin/sh
# Golden reports: runs each case of cases.txt and compares its output byte for byte with expected/<name>.
# usage: run.sh NNPERF [--regen]      (--regen rewrites expected/; read the diff before committing it)
set -u
NN=$1
REGEN=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
export LC_ALL=C
fail=0
pass=0
while IFS='|' read -r name args; do
  name=$(echo "$name" | tr -d ' ')
  case "$name" in ''|'#'*) continue ;; esac
  out=$(mktemp)
  # shellcheck disable=SC2086
  "$NN" $args >"$out" 2>/dev/null
  if [ "$REGEN" = "--regen" ]; then
    cp "$out" "tests/golden/expected/$name" && chmod 644 "tests/golden/expected/$name"
  elif cmp -s "$out" "tests/golden/expected/$name"; then
    pass=$((pass + 1))
  else
    echo "golden mismatch: $name (nnperf $args)"
    diff "tests/golden/expected/$name" "$out" | head -20
    fail=$((fail + 1))
  fi
  rm -f "$out"
done < tests/golden/cases.txt
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
