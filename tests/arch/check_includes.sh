#!/bin/sh
# check_includes.sh - the folders of src/ form layers (docs/design.md, "Layer order"): a file may include headers of
# its own folder and of folders listed before its own, never after; the CLI (tools/nnperf) includes only the public
# header include/nnperf.h and its own. Prints every include that breaks the rule and exits 1 when there is one.
# usage: check_includes.sh REPO_ROOT
set -u
root=${1:-.}
order=$(sed -n 's/^<!-- layer-order: \(.*\) -->$/\1/p' "$root/docs/design.md")
if [ -z "$order" ]; then
  echo "check_includes: no '<!-- layer-order: ... -->' line in docs/design.md"
  exit 2
fi
rank() {
  i=0
  for l in $order; do
    [ "$l" = "$1" ] && { echo $i; return; }
    i=$((i + 1))
  done
  echo -1
}
bad=0
for dir in "$root"/src/*/; do
  d=$(basename "$dir")
  rd=$(rank "$d")
  if [ "$rd" -lt 0 ]; then
    echo "src/$d: folder missing from the layer order in docs/design.md"
    bad=1
    continue
  fi
  for f in $(find "$dir" -name '*.[ch]' | sort); do
    fdir=$(dirname "$f")
    for inc in $(sed -n 's/^#include "\(\.\.\/[^"]*\)"/\1/p' "$f"); do
      # the folder of src/ the include resolves to
      target=$(realpath -m "$fdir/$inc")
      top=${target#"$(realpath -m "$root/src")"/}
      top=${top%%/*}
      ri=$(rank "$top")
      if [ "$ri" -lt 0 ] || [ "$ri" -gt "$rd" ]; then
        echo "${f#"$root"/}: includes $inc, in $top/, a layer above $d/"
        bad=1
      fi
    done
  done
done
for f in "$root"/tools/nnperf/*.[ch]; do
  # nnperf.h, or a file of the CLI's own folder (cli.h, the option table options.def)
  for inc in $(sed -n 's/^#include "\([^"]*\)"/\1/p' "$f"); do
    [ "$inc" = nnperf.h ] && continue
    case "$inc" in */*) ;; *) [ -f "$root/tools/nnperf/$inc" ] && continue ;; esac
    echo "${f#"$root"/}: includes $inc (the CLI includes only nnperf.h and its own files)"
    bad=1
  done
done
if [ $bad -eq 0 ]; then
  n=$(echo $order | wc -w)
  echo "includes follow the layer order ($n layers: $order); the CLI includes only nnperf.h and its own files"
fi
exit $bad
