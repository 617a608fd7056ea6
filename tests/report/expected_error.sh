#!/bin/sh
# Every report of a prediction carries its platform's expected error (issue 24): sweep (table, JSON, CSV), roofline
# (table, JSON) and advise (table, JSON, HTML) show the median and p90 |error| and the number of test rows of the
# preset's `validation:` keys, and "not validated" (JSON null, CSV empty with 0 rows) for a preset without test rows
# and for a platform changed with --set.
# usage: expected_error.sh NNPERF WORKDIR   (run from the source root)
set -u
nn=$1
work=$2/expected_error
mkdir -p "$work"
fail=0
# the preset's validation keys, as the reports must show them
rows=$(sed -n '/^validation:/,$p' presets/zcu102-dpu.yaml | awk '$1 == "test_rows:" { print $2 }')
med=$(sed -n '/^validation:/,$p' presets/zcu102-dpu.yaml | awk '$1 == "median_error:" { printf "%.0f", $2 * 100 }')
test -n "$rows" && test "$rows" -gt 0 || { echo "FAIL: zcu102-dpu has no validation.test_rows"; exit 1; }
has() { # FILE TEXT WHAT
    grep -qF -- "$2" "$1" || { echo "FAIL: $3 lacks '$2':"; head -5 "$1"; fail=1; }
}
m=models/squeezenet1_1.onnx
"$nn" sweep $m --hw zcu102-dpu,horizon-j5 >"$work/sweep.txt" 2>&1 || { echo "FAIL: sweep exit $?"; fail=1; }
has "$work/sweep.txt" "+-$med% n=$rows" "sweep table (zcu102-dpu)"
has "$work/sweep.txt" "not validated" "sweep table (horizon-j5)"
"$nn" sweep $m --hw zcu102-dpu,horizon-j5 --format json >"$work/sweep.json" 2>&1
has "$work/sweep.json" "\"test_rows\":$rows,\"shown\":{\"median\":" "sweep JSON (zcu102-dpu)"
has "$work/sweep.json" "\"test_rows\":$rows,\"rows_of\":\"all\",\"validated_for_model\":true},\"family\":\"cnn\"" "sweep JSON (zcu102-dpu)"
has "$work/sweep.json" '"expected_error":null' "sweep JSON (horizon-j5)"
"$nn" sweep $m --hw zcu102-dpu,horizon-j5 --format csv >"$work/sweep.csv" 2>&1
has "$work/sweep.csv" "expected_error_median,expected_error_p90,expected_error_test_rows" "sweep CSV header"
has "$work/sweep.csv" ",$rows," "sweep CSV (zcu102-dpu)"
has "$work/sweep.csv" ",,,0," "sweep CSV (horizon-j5)"
"$nn" sweep $m --hw zcu102-dpu --set overhead.per_run_s=1e-3 >"$work/set.txt" 2>&1
has "$work/set.txt" "not validated" "sweep table with --set"
"$nn" roofline $m --hw zcu102-dpu >"$work/roof.txt" 2>&1 || { echo "FAIL: roofline exit $?"; fail=1; }
has "$work/roof.txt" "+-$med% median" "roofline table"
has "$work/roof.txt" "$rows test rows" "roofline table"
"$nn" roofline $m --hw zcu102-dpu --format json >"$work/roof.json" 2>&1
has "$work/roof.json" "\"test_rows\":$rows,\"shown\":{\"median\":" "roofline JSON"
has "$work/roof.json" "\"test_rows\":$rows,\"rows_of\":\"all\",\"validated_for_model\":true},\"family\":\"cnn\"" "roofline JSON"
"$nn" roofline $m --hw horizon-j5 --format json >"$work/roof_j5.json" 2>&1
has "$work/roof_j5.json" '"expected_error":null' "roofline JSON (horizon-j5)"
"$nn" advise $m --hw zcu102-dpu >"$work/adv.txt" 2>&1 || { echo "FAIL: advise exit $?"; fail=1; }
has "$work/adv.txt" "expected error of the prediction: +-$med% median" "advise table"
"$nn" advise $m --hw zcu102-dpu --format json >"$work/adv.json" 2>&1
has "$work/adv.json" "\"test_rows\":$rows,\"shown\":{\"median\":" "advise JSON"
has "$work/adv.json" "\"test_rows\":$rows,\"rows_of\":\"all\",\"validated_for_model\":true},\"family\":\"cnn\"" "advise JSON"
"$nn" advise $m --hw zcu102-dpu --format html >"$work/adv.html" 2>&1
has "$work/adv.html" "$rows test rows" "advise HTML"
[ $fail = 0 ] && echo "expected_error: ok"
exit $fail
