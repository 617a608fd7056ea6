# expect.sh - the checks of the CLI's shell tests (sourced by the shell tests of tests/cli): they count into $pass and $fail
# and keep the command's output in $work/out and $work/err.
# expect RC 'LINE' command...: exit code RC and stderr exactly "nnperf: LINE" (LINE empty: anything on stderr)
# expect_has RC 'TEXT' command...: exit code RC and stderr holding TEXT somewhere
# (each run may take EXPECT_TIMEOUT seconds, default 60)
expect_run() { # MODE RC TEXT command...
    mode=$1
    rc=$2
    text=$3
    shift 3
    timeout "${EXPECT_TIMEOUT:-60}" "$@" >"$work/out" 2>"$work/err"
    got=$?
    if [ "$got" -ne "$rc" ]; then
        echo "FAIL ($*): exit $got, expected $rc"; head -c 2000 "$work/err"; fail=$((fail + 1)); return 1
    fi
    if [ -n "$text" ] && [ "$mode" = exact ] && [ "$(cat "$work/err")" != "nnperf: $text" ]; then
        echo "FAIL ($*): stderr is:"; head -c 2000 "$work/err"; echo "expected: nnperf: $text"
        fail=$((fail + 1)); return 1
    fi
    if [ -n "$text" ] && [ "$mode" = has ] && ! grep -qF -- "$text" "$work/err"; then
        echo "FAIL ($*): stderr lacks '$text':"; head -c 2000 "$work/err"; fail=$((fail + 1)); return 1
    fi
    pass=$((pass + 1))
}
expect() { expect_run exact "$@"; }
expect_has() { expect_run has "$@"; }
check() { # check DESCRIPTION command...: the command succeeds
    d=$1
    shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL: $d"; fail=$((fail + 1)); fi
}
