#!/bin/bash
# check_completion.sh NNPERF_DIR - the generated bash completion (tools/completion/nnperf.bash) completes preset
# names where a platform is expected: `nnperf hw show rdk-s1<TAB>` and `nnperf analyze m.onnx --hw rdk-s1<TAB>` give
# rdk-s100, `nnperf hw <TAB>` gives list and show (and no preset names).
set -u
PATH="$1:$PATH"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$here/../../tools/completion/nnperf.bash"
st=0
check() { # expected-word words...
    want=$1
    shift
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _nnperf
    case " ${COMPREPLY[*]} " in
    *" $want "*) echo "ok: '${COMP_WORDS[*]}' -> ${COMPREPLY[*]}" ;;
    *) echo "FAIL: '${COMP_WORDS[*]}' gives '${COMPREPLY[*]}', expected $want"; st=1 ;;
    esac
}
check rdk-s100 nnperf hw show rdk-s1
check rdk-s100 nnperf analyze models/resnet50.onnx --hw rdk-s1
check show nnperf hw ""
COMP_WORDS=(nnperf hw "")
COMP_CWORD=2
_nnperf
case " ${COMPREPLY[*]} " in *" rdk-s100 "*) echo "FAIL: 'hw <TAB>' offers preset names"; st=1 ;; esac
exit $st
