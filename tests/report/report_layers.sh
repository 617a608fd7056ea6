#!/bin/sh
# src/report is a one-way stack (src/report/fmt.h): a file may include report headers of its own level or below.
#   1 fmt.h   2 table.h json.h csv.h svg.h html.h fields.h   3 view.h   4 plots.h   5 render.h
# Every .c file sits at the level of its header (fmt.c 1, table.c 2, view.c 3, plot_*.c 4, render_*.c 5). Also: only
# render_analysis.c reads an analysis' internals and no report file reads a prediction's (src/perf, src/predict,
# src/passes): predictions are read through include/nnperf.h.
# usage: report_layers.sh   (from anywhere)
cd "$(dirname "$0")/../../src/report" || exit 2
level() {
  case "$1" in
  fmt.*) echo 1 ;;
  table.* | json.* | csv.* | svg.* | html.* | fields.*) echo 2 ;;
  view.*) echo 3 ;;
  plots.h | plot_*.c) echo 4 ;;
  render.h | render_*.c) echo 5 ;;
  *) echo 0 ;;
  esac
}
fail=0
for f in *.c *.h; do
  lf=$(level "$f")
  if [ "$lf" = 0 ]; then
    echo "FAIL $f: not placed in the report stack (add it to tests/report/report_layers.sh and src/report/fmt.h)"
    fail=1
    continue
  fi
  for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
    case "$inc" in
    ../analysis/*)
      [ "$f" = render_analysis.c ] || { echo "FAIL $f includes $inc: only render_analysis.c reads analysis internals"; fail=1; }
      continue ;;
    ../perf/* | ../predict/* | ../passes/*)
      echo "FAIL $f includes $inc: reports read predictions through include/nnperf.h only"
      fail=1
      continue ;;
    ../*) continue ;;
    esac
    li=$(level "$inc")
    if [ "$li" = 0 ] || [ "$li" -gt "$lf" ]; then
      echo "FAIL $f (level $lf) includes $inc (level $li): includes go down the stack only"
      fail=1
    fi
  done
done
[ "$fail" -eq 0 ] && echo "report stack ok: $(ls *.c *.h | wc -l) files, includes go one way"
exit "$fail"
