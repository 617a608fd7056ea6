# expect.sh - the checks of the CLI's shell tests (sourced by cli.sh and files.sh): they count into $pass and $fail
# and keep the command's output in $work/out and $work/err.
# expect RC 'LINE' command...: exit code RC and stderr exactly "nnperf: LINE" (LINE empty: anything on stderr)
expect() {
    rc=$1
    line=$2
    shift 2
    timeout 60 "$@" >"$work/out" 2>"$work/err"
    got=$?
    if [ "$got" -ne "$rc" ]; then
        echo "FAIL ($*): exit $got, expected $rc"; head -c 2000 "$work/err"; fail=$((fail + 1)); return 1
    fi
    if [ -n "$line" ] && [ "$(cat "$work/err")" != "nnperf: $line" ]; then
        echo "FAIL ($*): stderr is:"; head -c 2000 "$work/err"; echo "expected: nnperf: $line"
        fail=$((fail + 1)); return 1
    fi
    pass=$((pass + 1))
}
check() { # check DESCRIPTION command...: the command succeeds
    d=$1
    shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL: $d"; fail=$((fail + 1)); fi
}
