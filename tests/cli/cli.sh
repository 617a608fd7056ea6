#!/bin/sh
# cli.sh - the command line end to end: every message of bad usage, hostile input and unwritable output, with its
# exact exit code and text (one line on stderr, nothing half-written), and the "did you mean" help.
# usage: cli.sh NNPERF WORKDIR      (run from the repository root)
set -u
nn=$1
work=$2/nnperf-cli.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
pass=0
M=models/squeezenet1_1.onnx
P=tests/data/ort_profile_small.json
HOST=bench/validate/host-cal.yaml

# expect and check (with $work, $pass and $fail)
. "$(dirname "$0")/expect.sh"

# ---- the one option table: --opt=value, lists, bounds (issue: 256 + 2 --batch values wrote past a stack array)
L=$(awk 'BEGIN { for (i = 0; i < 256; i++) printf "%s1", (i ? "," : "") }')
expect 2 "analyze: --batch takes one value (sweep takes a list)" "$nn" analyze models/resnet18.onnx --batch "$L" --batch 1000000,7
expect 2 "sweep: too many values for --batch (at most 256)" "$nn" sweep models/resnet18.onnx --hw zcu102-dpu --batch "$L" --batch 1000000,7
expect 0 "" "$nn" analyze "$M" --hw=horizon-j5 --batch=2 --format=json -o "$work/eq.json"
check "--opt=value writes the report" grep -q '"schema"' "$work/eq.json"
# --threads: one inference on N of a CPU runtime's threads (compute.threaded), refused elsewhere
expect 0 "" "$nn" analyze "$M" --hw raspberry-pi-5 --threads 1 --format json -o "$work/t1.json"
check "--threads 1 runs one inference on one core" grep -q '"cores_per_inference":1,' "$work/t1.json"
expect 2 "raspberry-pi-5: threads 5: platform 'raspberry-pi-5' runs one inference on 1 to 4 threads" "$nn" analyze "$M" --hw raspberry-pi-5 --threads 5
expect 2 "zcu102-dpu: threads 2: platform 'zcu102-dpu' does not run an inference on a CPU runtime's threads (compute.threaded)" "$nn" analyze "$M" --hw zcu102-dpu --threads 2
expect 2 "analyze: --dtype, --batch, --threads, --streams, --memory-model and --interval need --hw" "$nn" analyze "$M" --threads 2
# --streams: the throughput of N application threads, each running one inference after another
expect 0 "" "$nn" analyze "$M" --hw zcu102-dpu --streams 1 --format json -o "$work/s1.json"
check "--streams 1 is one thread's throughput, limited by it" grep -q '"throughput_limit":"application threads","streams":1,' "$work/s1.json"
expect 0 "" "$nn" analyze "$M" --hw zcu102-dpu --streams 2 --summary -o "$work/s2.txt"
check "--streams 2 names the streams in the table" grep -q '^  throughput with 2 streams [0-9.]* FPS (2 application threads' "$work/s2.txt"
expect 0 "" "$nn" analyze "$M" --hw zcu102-dpu --streams 4096 --format json -o "$work/s4096.json"
check "--streams 4096 reaches the saturated throughput" grep -q '"throughput_limit":"shared DDR","streams":4096,' "$work/s4096.json"
expect 2 "analyze: --streams '0': expected a whole number from 1 to 4096" "$nn" analyze "$M" --hw zcu102-dpu --streams 0
expect 2 "analyze: --streams 'two': expected a whole number from 1 to 4096" "$nn" analyze "$M" --hw zcu102-dpu --streams two
expect 2 "analyze: --streams '-2': expected a whole number from 1 to 4096" "$nn" analyze "$M" --hw zcu102-dpu --streams -2
expect 2 "analyze: --streams takes one value" "$nn" analyze "$M" --hw zcu102-dpu --streams 1,2
expect 2 "sweep: --streams '-2': expected a whole number from 1 to 4096" "$nn" sweep "$M" --hw zcu102-dpu --streams -2
expect 0 "" "$nn" sweep "$M" --hw zcu102-dpu --batch 1,2 --streams 1 --format csv -o "$work/sw1.csv"
check "sweep --streams 1: each row's throughput is its one-stream FPS" awk -F, 'NR > 1 { n++; if ($5 != $6 || $7 != "application threads" || $8 != 1) bad = 1 } END { exit bad || n != 2 }' "$work/sw1.csv"
expect 0 "" "$nn" compare "$M" --hw zcu102-dpu --streams 2 -o "$work/cmp2.txt"
check "compare --streams 2 adds the throughput table" grep -q '^throughput with 2 streams (FPS)$' "$work/cmp2.txt"
expect 0 "" "$nn" compare "$M" --hw zcu102-dpu --streams 1 --format csv -o "$work/cmp1.csv"
check "compare --streams 1: the cell's throughput is its FPS" awk -F, 'NR == 2 { ok = $4 == $5 } END { exit !ok }' "$work/cmp1.csv"
# validate once dropped the arguments past the 256th and then blamed missing options
set --
i=0
while [ $i -lt 300 ]; do set -- "$@" --dim "d$i=1"; i=$((i + 1)); done
expect 2 "validate: too many values for --dim (at most 256)" "$nn" validate "$M" "$@" --hw "$HOST" --measured "$P"
set --
i=0
while [ $i -lt 200 ]; do set -- "$@" --input "input=1x3x224x224"; i=$((i + 1)); done
expect 0 "" "$nn" validate "$M" "$@" --hw "$HOST" --measured "$P"
expect 2 "analyze: option '--strict' takes no value" "$nn" analyze "$M" --strict=1
expect 2 "analyze: option '--hw' needs a value (NAME|FILE)" "$nn" analyze "$M" --hw
expect 2 "analyze: --interval '0': expected a number greater than 0 and at most 1e+06" "$nn" analyze "$M" --hw horizon-j5 --interval 0
expect 2 "sweep: option '--plot' does not apply to sweep (it is an option of analyze)" "$nn" sweep "$M" --hw zcu102-dpu --plot roofline
expect 2 "ops: unexpected argument 'x' (see 'nnperf help ops')" "$nn" ops x

# a tiny --interval: at most 10000 intervals (16.4 MB of JSON for resnet18 at 1e-6 ms before), and a warning
expect 0 "warning: timeline: an interval of 1e-06 ms gives 7.043e+05 intervals over the run; widened to 7.043e-05 ms (at most 10000)" "$nn" analyze models/resnet18.onnx --hw horizon-j5 --interval 0.000001 --format json -o "$work/tl.json"
check "timeline JSON under 1 MB" test "$(wc -c <"$work/tl.json")" -lt 1000000

# ---- did you mean
expect 2 "unknown command 'analyse' (did you mean 'analyze'?)" "$nn" analyse "$M"
expect 2 "help: no command 'analyse' (did you mean 'analyze'?)" "$nn" help analyse
expect 2 "analyze: unknown option '--fromat' (did you mean '--format'?)" "$nn" analyze "$M" --fromat json
expect 2 "analyze: unknown format 'jsn' (table, json, csv, html or trace; did you mean 'json'?)" "$nn" analyze "$M" --format jsn
expect 2 "unknown platform 'hoizon-j5': not a built-in preset and no such file (did you mean 'horizon-j5'?)" "$nn" analyze "$M" --hw hoizon-j5
expect 2 "hw: expected 'list' or 'show NAME|FILE', did you mean 'list'? (see 'nnperf help hw')" "$nn" hw lsit
# help advise printed "%%"; every command's help comes from the table
expect 0 "" "$nn" help advise
check "help advise has no %%" sh -c "! grep -q '%%' '$work/out'"
check "help advise lists --min-gain" grep -q -- "--min-gain PCT" "$work/out"
for c in analyze compare sweep roofline hw probe calibrate validate llm map advise ops; do
    expect 0 "" "$nn" "$c" --help
    check "$c --help starts with its usage" grep -q "^usage: nnperf $c" "$work/out"
done

# the bash completion (generated from the same table) completes commands, options and their values
if command -v bash >/dev/null; then
    comp() { # comp WORD... : what completing the last word offers
        bash -c 'source tools/completion/nnperf.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _nnperf;
                 echo "${COMPREPLY[*]}"' comp "$@"
    }
    check "completes a command" test "$(comp nnperf anal)" = analyze
    check "completes an option" test "$(comp nnperf analyze m.onnx --fo)" = --format
    check "completes a command's formats" test "$(comp nnperf ops --format '')" = "table csv"
    check "completes a choice" test "$(comp nnperf map m.onnx --target '')" = "max78000 max78002"
fi

# ---- not an ONNX model
expect 2 "README.md: not an ONNX model (a text file)" "$nn" analyze README.md
expect 2 "$P: not an ONNX model (a JSON text file)" "$nn" analyze "$P"
printf 'PK\003\004rest-of-a-zip' >"$work/model.pt"
expect 2 "$work/model.pt: not an ONNX model (a ZIP archive; a PyTorch .pt/.pth checkpoint is one: export it with torch.onnx.export)" "$nn" analyze "$work/model.pt"

# ---- inputs that are not regular files: refused before anything reads them (a FIFO would hang)
mkfifo "$work/fifo"
expect 2 "$work/fifo: cannot read: not a regular file (a FIFO)" "$nn" analyze "$work/fifo"
expect 2 "$work/fifo: cannot read: not a regular file (a FIFO)" "$nn" analyze "$M" --hw "$work/fifo"
expect 2 "$work/fifo: cannot read: not a regular file (a FIFO)" "$nn" validate "$M" --hw "$HOST" --measured "$work/fifo"
expect 2 "$work/fifo: cannot read: not a regular file (a FIFO)" "$nn" compare "$M" --hw zcu102-dpu --format html --accuracy "$work/fifo"
expect 2 "$work/fifo: cannot read: not a regular file (a FIFO)" "$nn" map models/mcu/mnist_ai85net5.onnx --weight-bits-file "$work/fifo"
expect 2 "map: '$work/none.txt': cannot open: No such file or directory" "$nn" map models/mcu/mnist_ai85net5.onnx --weight-bits-file "$work/none.txt"
expect 2 "/: cannot read: not a regular file (a directory)" "$nn" compare "$M" --hw zcu102-dpu --format html --accuracy /
expect 2 "$work: cannot read: not a regular file (a directory)" "$nn" hw show "$work"
# control characters of names are escaped in messages
esc=$(printf 'x\033[31my.onnx')
expect 2 'x\x1b[31my.onnx: cannot open: No such file or directory' "$nn" analyze "$esc"

# ---- -o: written completely or not at all, never onto what it must not replace
expect 2 "cannot write '/nonexistent-dir/x.json': cannot create a file in '/nonexistent-dir': No such file or directory" "$nn" analyze "$M" --format json -o /nonexistent-dir/x.json
if [ -c /dev/null ]; then # (another program may have replaced it: then there is nothing to protect)
    expect 2 "cannot write '/dev/null': not a regular file (a character device); nnperf writes only regular files" "$nn" analyze "$M" -o /dev/null
    check "/dev/null is still a character device" test -c /dev/null
fi
expect 2 "cannot write '$work/fifo': not a regular file (a FIFO); nnperf writes only regular files" "$nn" analyze "$M" -o "$work/fifo"
check "the FIFO is still a FIFO" test -p "$work/fifo"
expect 2 "cannot write '$work': not a regular file (a directory); nnperf writes only regular files" "$nn" analyze "$M" -o "$work"
cp "$M" "$work/m.onnx"
expect 2 "cannot write '$work/m.onnx': it is an input of this command ('$work/m.onnx'); choose another output file" "$nn" analyze "$work/m.onnx" --format json -o "$work/m.onnx"
check "the model is untouched" cmp -s "$M" "$work/m.onnx"
ln -s m.onnx "$work/link.onnx"
expect 2 "cannot write '$work/link.onnx': it is an input of this command ('$work/m.onnx'); choose another output file" "$nn" analyze "$work/m.onnx" -o "$work/link.onnx"
cp "$HOST" "$work/p.yaml"
expect 2 "cannot write '$work/p.yaml': it is an input of this command ('$work/p.yaml'); choose another output file" "$nn" analyze "$M" --hw "$work/p.yaml" -o "$work/p.yaml"
cp "$P" "$work/prof.json"
expect 2 "cannot write '$work/prof.json': it is an input of this command ('$work/prof.json'); choose another output file" "$nn" validate "$M" --hw "$HOST" --measured "$work/prof.json" -o "$work/prof.json"
check "the profile is untouched" cmp -s "$P" "$work/prof.json"
# the mode of a replaced file is kept; a symlink is followed to the file it names, which is replaced
printf 'old\n' >"$work/private.json"
chmod 600 "$work/private.json"
expect 0 "" "$nn" analyze "$M" --format json -o "$work/private.json"
check "mode 600 kept" test "$(stat -c %a "$work/private.json")" = 600
check "replaced" grep -q '"schema"' "$work/private.json"
ln -s private.json "$work/to-private.json"
expect 0 "" "$nn" analyze "$M" --format csv -o "$work/to-private.json"
check "the link is still a link" test -L "$work/to-private.json"
check "its target was written (CSV over the JSON)" sh -c "! grep -q '\"schema\"' '$work/private.json' && grep -q , '$work/private.json'"
check "no temporary left" sh -c "! ls -A '$work' | grep -q '\.tmp$'"
# a failed run leaves the old file as it was
printf 'keep\n' >"$work/keep.json"
expect 2 "" "$nn" analyze tests/bad-inputs/empty.onnx --format json -o "$work/keep.json"
check "old output kept" test "$(cat "$work/keep.json")" = keep

# ---- standard output that cannot be written: an error, not exit 0
if [ -w /dev/full ]; then
    for cmd in "ops" "hw list" "help" "--version" "advise --explain" "help analyze" "hw show horizon-j5"; do
        # shellcheck disable=SC2086
        expect 2 "cannot write to standard output: No space left on device" sh -c "\"$nn\" $cmd >/dev/full"
    done
    expect 2 "cannot write to standard output: No space left on device" sh -c "\"$nn\" analyze $M >/dev/full"
fi

# ---- profiles: the right format, the right model
expect 2 "validate: 'tests/data/profiles/trtexec_profile.json': not an ONNX Runtime profile: event 0 looks like a TensorRT profile (trtexec --exportProfile); expected the JSON trace of ONNX Runtime's profiler (SessionOptions.enable_profiling)" "$nn" validate "$M" --hw "$HOST" --measured tests/data/profiles/trtexec_profile.json
expect 2 "validate: '$P' is not a profile of 'models/resnet50.onnx': 1 of its 40 kernels (2.5%) match nodes of the model, less than half (--force to use it anyway)" "$nn" validate models/resnet50.onnx --hw "$HOST" --measured "$P"
expect 0 "warning: validate: '$P': only 1 of its 40 kernels (2.5%) match nodes of 'models/resnet50.onnx'; used anyway (--force)" "$nn" validate models/resnet50.onnx --hw "$HOST" --measured "$P" --force
expect 2 "calibrate: '$P' is not a profile of 'models/alexnet.onnx': 5 of its 40 kernels (12.5%) match nodes of the model, less than half (--force to use it anyway)" "$nn" calibrate --hw "$HOST" -o "$work/cal.yaml" "models/alexnet.onnx=$P"
check "no calibrated file written" test ! -e "$work/cal.yaml"
# an INT8 accelerator validated at its own dtype
expect 0 "" "$nn" validate "$M" --hw horizon-j5 --dtype int8 --measured "$P"
check "validate --dtype int8 ran on int8" grep -q "whole run: predicted" "$work/out"

# ---- tables for a terminal: the width (80 into a pipe, --width, COLUMNS), --top, --summary, --all
expect 2 "analyze: --top, --summary and --all shape the table (JSON and CSV always hold everything)" "$nn" analyze "$M" --top 3 --format json
expect 2 "" "$nn" analyze "$M" --top 0
longest() { awk '{ if (length > n) n = length } END { print n + 0 }' "$work/out"; }
expect 0 "" "$nn" analyze models/resnet50.onnx --hw horizon-j5
check "no line over 80 columns into a pipe" test "$(longest)" -le 80
check "time, bound and share kept at 80 columns" grep -q '^ *# layer .* time bound *share$' "$work/out"
expect 0 "" "$nn" analyze models/resnet50.onnx --hw horizon-j5 --width 60
check "no line over 60 columns with --width 60" test "$(longest)" -le 60
expect 0 "" env COLUMNS=200 "$nn" analyze models/resnet50.onnx --hw horizon-j5
check "COLUMNS=200 keeps the active period column" grep -q 'active (us)' "$work/out"
expect 0 "" "$nn" analyze models/resnet50.onnx --hw horizon-j5 --top 4
check "--top 4: four layer rows" test "$(sed -n '/^ *# layer/,/^[A-Z]/p' "$work/out" | grep -c '^ *[0-9]')" -eq 4
check "--top 4: the note says so" grep -q 'The 4 heaviest of 56 shown layers' "$work/out"
expect 0 "" "$nn" analyze models/resnet50.onnx --hw horizon-j5 --summary
check "--summary: no layer table" sh -c "! grep -q '# layer' '$work/out'"
check "--summary: the latency" grep -q '^  latency ' "$work/out"
expect 0 "" "$nn" analyze models/resnet50.onnx --hw horizon-j5 --all --width 0
check "--all: the layer that does no work is listed" grep -q '/Flatten .*Flatten' "$work/out"

# ---- --set: platform keys changed after loading; sweep axes and grids
expect 0 "" "$nn" analyze "$M" --hw rdk-s100 --set memory.sram_bytes=16MiB --set compute.peak_ops.int8=64T --format json -o "$work/set.json"
check "--set: the summary lists the overrides" python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['summary']; sys.exit(s['overrides'] != ['memory.sram_bytes=16MiB', 'compute.peak_ops.int8=64T'])" "$work/set.json"
expect 0 "" "$nn" analyze "$M" --hw rdk-s100 --set memory.sram_bytes=16MiB --summary
check "--set: the table says so" grep -q '^  overrides  *memory.sram_bytes=16MiB' "$work/out"
expect 2 "analyze: --set memory.sram_byte: not a platform key (docs/platform-format.md lists them) (did you mean 'memory.sram_bytes'?)" "$nn" analyze "$M" --hw rdk-s100 --set memory.sram_byte=4MiB
expect 2 "analyze: --set memory.sram_bytes: must be 0 or between 1 and 1e15 bytes, got '-4'" "$nn" analyze "$M" --hw rdk-s100 --set memory.sram_bytes=-4
expect 2 "analyze: --set 'memory.sram_bytes': expected KEY=VALUE (a platform key, docs/platform-format.md)" "$nn" analyze "$M" --hw rdk-s100 --set memory.sram_bytes
expect 2 "analyze: --set memory.sram_bytes=4MiB,8MiB: several values make a sweep axis (nnperf sweep); analyze takes one" "$nn" analyze "$M" --hw rdk-s100 --set memory.sram_bytes=4MiB,8MiB
expect 2 "analyze: --set changes the platform: give one with --hw" "$nn" analyze "$M" --set memory.sram_bytes=4MiB
expect 0 "" "$nn" sweep "$M" --hw rdk-s100 --batch 1,2 --set memory.sram_bytes=1MiB,2MiB,16MiB --set compute.peak_ops.int8=32T,128T --format csv -o "$work/grid.csv"
check "sweep grid: 2 batches x 3 x 2 values = 12 rows" test "$(tail -n +2 "$work/grid.csv" | wc -l)" -eq 12
check "sweep grid: each row names its values" test "$(grep -c 'memory.sram_bytes=2MiB, compute.peak_ops.int8=128T' "$work/grid.csv")" -eq 2
# a grid point predicts what analyze --set predicts at that point
expect 0 "" "$nn" analyze "$M" --hw rdk-s100 --batch 2 --set memory.sram_bytes=2MiB --set compute.peak_ops.int8=128T --format json -o "$work/pt.json"
check "sweep grid point equals analyze --set" python3 -c "
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['batch'] == '2' and r['settings'] == 'memory.sram_bytes=2MiB, compute.peak_ops.int8=128T']
s = json.load(open(sys.argv[2]))['summary']
sys.exit(not (len(rows) == 1 and float(rows[0]['latency_ms']) == s['latency_ms'] and float(rows[0]['fps']) == s['fps']))" "$work/grid.csv" "$work/pt.json"
V=$(awk 'BEGIN { for (i = 1; i <= 70; i++) printf "%s%dMiB", (i > 1 ? "," : ""), i }')
expect 2 "sweep: 4900 configurations (platforms x dtypes x batches x --set values) is more than 4096; sweep fewer values" "$nn" sweep "$M" --hw rdk-s100 --set memory.sram_bytes="$V" --set memory.ddr_bandwidth="$V"
expect 2 "sweep: --set memory.sram_bytes: must be 0 or between 1 and 1e15 bytes, got '-1'" "$nn" sweep "$M" --hw rdk-s100 --set memory.sram_bytes=1MiB,-1
expect 0 "" "$nn" hw show rdk-s100 --set memory.sram_bytes=16MiB
check "hw show --set prints the changed description" grep -q '^  sram_bytes: 16777216' "$work/out"
# hw list: each preset's two bands as its validation and llm_validation give them (jetson-agx-orin has both,
# a100-40gb neither); at 80 columns they open the continuation line
xe=$("$nn" hw show jetson-agx-orin | awk '/^validation:/ { v = 1 } /^llm_validation:/ { v = 2 }
    v && /^  test_rows:/ { r[v] = $2 } v && /^  median_error:/ { m[v] = $2 }
    END { printf "+-%.0f%% n=%d +-%.0f%% n=%d", 100 * m[1], r[1], 100 * m[2], r[2] }')
set -- $xe
COLUMNS=200 "$nn" hw list >"$work/hw200"
check "hw list shows jetson-agx-orin's bands ($xe)" grep -q "^jetson-agx-orin .* $1 $2 *$3 $4  NVIDIA" "$work/hw200"
check "hw list shows a100-40gb not validated" grep -q '^a100-40gb .*  - *-  NVIDIA' "$work/hw200"
COLUMNS=80 "$nn" hw list >"$work/hw80"
check "hw list at 80 columns gives the bands under the preset" grep -q "^    expected error $1 $2 (analyze), $3 $4 (llm); NVIDIA" "$work/hw80"
set --

# ---- power: from the platform's power keys, or "not described"
expect 0 "" "$nn" analyze "$M" --hw coral-usb --format json -o "$work/pw.json"
check "power: energy, power and FPS/W of a platform with power keys" python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['summary']; sys.exit(not (s['power_w'] > 0 and abs(s['fps_per_w'] - s['fps'] / s['power_w']) < 1e-9 * s['fps_per_w'] and abs(s['energy_j_per_frame'] - s['power_w'] * s['latency_ms'] / 1e3) < 1e-9 * s['energy_j_per_frame']))" "$work/pw.json"
expect 0 "" "$nn" analyze "$M" --hw horizon-j5 --format json -o "$work/nopw.json"
check "power: null without power keys" python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['summary']; sys.exit(not (s['power_w'] is None and s['fps_per_w'] is None))" "$work/nopw.json"
expect 0 "" "$nn" analyze "$M" --hw horizon-j5 --summary
check "power: the table says it is not described" grep -q '^  power  *not described' "$work/out"
expect 0 "" "$nn" analyze "$M" --hw horizon-j5 --set power.static_w=5 --summary
check "power: --set power.static_w=5 on a platform without power gives 5 W" grep -q '^  power  *5 W average' "$work/out"

# ---- frames per run from the input's batch; dims checked by the library (issue 18)
B1=tests/data/analysis/batch.onnx
expect 0 "" "$nn" analyze "$M" --hw rdk-s100 --input input=8x3x224x224 --format json -o "$work/in8.json"
expect 0 "" "$nn" analyze "$M" --hw rdk-s100 --batch 8 --format json -o "$work/b8.json"
expect 0 "" "$nn" analyze "$M" --hw rdk-s100 --input input=8,3,224,224 --batch 8 --format json -o "$work/c8.json"
check "--input input=8x3x224x224, --input 8,3,224,224 --batch 8 and --batch 8: 8 frames per run, the same FPS" python3 -c "
import json, sys
s = [json.load(open(f))['summary'] for f in sys.argv[1:]]
sys.exit(not (all(x['frames_per_run'] == 8 and x['fps'] == s[0]['fps'] for x in s)))" "$work/in8.json" "$work/b8.json" "$work/c8.json"
expect 2 "rdk-s100: batch 12 is not a multiple of the 8 frames the graph computes (input 'input' has batch 8): leave the batch out for 8 frames per run, or give a multiple of 8" "$nn" analyze "$M" --hw rdk-s100 --input input=8x3x224x224 --batch 12
expect 2 "analyze: $B1: unbound symbolic input dim 'batch' (input 'x' dim 0): 7 of 10 nodes cannot be counted, and a prediction would count them as 0 s; bind each symbol to a number (batch=1) or give the inputs' shapes (--dim batch=1 or --input NAME=SHAPE; --allow-unbound predicts them as 0 s)" "$nn" analyze "$B1" --hw rdk-s100
expect 0 "" "$nn" analyze "$B1" --hw rdk-s100 --allow-unbound --summary
check "--allow-unbound predicts and warns" grep -q "unbound symbolic input dims 'batch'" "$work/out"
expect 0 "" "$nn" analyze "$B1"
expect 2 "$M: input 'input' [1, 3, 224, 224]: dim 0 is '1.5': not a dim; a dim is a positive integer or a symbol name (letters, digits and '_', not starting with a digit)" "$nn" analyze "$M" --input input=1.5x3x224x224
expect 2 "$M: input 'input' [1, 3, 224, 224]: dim 0 is '-224': not a dim; a dim is a positive integer or a symbol name (letters, digits and '_', not starting with a digit)" "$nn" analyze "$M" --input input=-224x3x224x224
expect 2 "$M: input 'input' [1, 3, 224, 224]: dim 0 is '0': 0 frames: dim 0 is the batch, and a run of 0 frames computes nothing; a dim is a positive integer or a symbol name (letters, digits and '_', not starting with a digit)" "$nn" analyze "$M" --input input=0x3x224x224
expect 2 "$M: input 'input' [1, 3, 224, 224] has 4 dims; shape '1x3x224' gives 3 (dims are separated by 'x' or ',': 1x3x224x224)" "$nn" analyze "$M" --input input=1x3x224
expect 2 "$M: the model has no input named 'inptu' (did you mean 'input'?); its inputs: input [1, 3, 224, 224]" "$nn" analyze "$M" --input inptu=1x3x224x224
expect 2 "$M: no input has a dim named 'N'; the model's inputs have no symbolic dims: input [1, 3, 224, 224]" "$nn" analyze "$M" --dim N=8
expect 2 "$B1: no input has a dim named 'bacth' (did you mean 'batch'?); the inputs' symbolic dims: batch (input 'x' dim 0)" "$nn" analyze "$B1" --dim bacth=8
expect 2 "$B1: dim 'batch' = '0': 0 frames: a batch, and a run of 0 frames computes nothing (dim 0 of input 'x' [batch, 3, 32, 32])" "$nn" analyze "$B1" --dim batch=0
# the library's warnings (an unknown operator) in every JSON document (issue 21)
U=tests/data/analysis/unknown_op.onnx
for c in "analyze" "analyze --hw rdk-s100" "compare --hw rdk-s100" "sweep --hw rdk-s100" "roofline --hw rdk-s100" "advise --hw rdk-s100"; do
  # shellcheck disable=SC2086
  expect 0 "" "$nn" $c "$U" --format json -o "$work/u.json"
  check "$c --format json: the unknown-operator warning in 'warnings'" python3 -c "
import json, sys
sys.exit(not any('com.example.Frobnicate' in w for w in json.load(open(sys.argv[1]))['warnings']))" "$work/u.json"
done

# compare shows each platform's expected error (issue 24 item 5): JSON platform_details, the table under the FPS
# (horizon-j5: its HBDK report is per layer, so the dataset gives it no whole-model row, bench/fidelity/data/README.md)
expect 0 "" "$nn" compare "$M" --hw zcu102-dpu,horizon-j5 --format json -o "$work/c.json"
check "compare --format json: expected_error of zcu102-dpu from its validation keys, null for horizon-j5" python3 -c "
import json, re, sys
d = {p['name']: p['expected_error'] for p in json.load(open(sys.argv[1]))['platform_details']}
v = dict(re.findall(r'^  (test_rows|median_error|p90_error): ([0-9.]+)', open('presets/zcu102-dpu.yaml').read(), re.M))
x = d['zcu102-dpu']
sys.exit(not (d['horizon-j5'] is None and x['test_rows'] == int(v['test_rows']) and x['median'] == float(v['median_error'])
              and x['p90'] == float(v['p90_error'])))" "$work/c.json"
expect 0 "" "$nn" compare "$M" --hw zcu102-dpu,horizon-j5 -o "$work/c.txt"
check "compare table: an 'exp. error' row with the band and 'not valid.'" grep -Eq '^exp. error +[+]-[0-9]+% n=[0-9]+ +not valid.$' "$work/c.txt"

# compare names a platform file by its own name (not the path cut to the column's width); two of one name by the paths
expect 0 "" "$nn" compare "$M" --hw presets/runtimes/h200-sxm-pytorch.yaml,h100-sxm --format json -o "$work/cn.json"
check "compare --format json: platforms by their names" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d['platforms'] == ['h200-sxm-pytorch', 'h100-sxm']
              and [p['name'] for p in d['platform_details']] == d['platforms']))" "$work/cn.json"
expect 0 "" "$nn" compare "$M" --hw presets/runtimes/h200-sxm-pytorch.yaml,h100-sxm -o "$work/cn.txt"
check "compare table: the header row names the platform file h200-sxm-pytorch" grep -Eq '^model +h200-sxm-pytorch +h100-sxm$' "$work/cn.txt"
expect 0 "" "$nn" compare "$M" --hw presets/h100-sxm.yaml,presets/../presets/h100-sxm.yaml,./presets/h100-sxm.yaml,l4 \
    --format json -o "$work/cd.json"
check "compare --format json: platforms of the same name keep the paths given, the others their names" python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))['platforms']
sys.exit(p != ['presets/h100-sxm.yaml', 'presets/../presets/h100-sxm.yaml', './presets/h100-sxm.yaml', 'l4'])" "$work/cd.json"

# the band by model family (issue 24 item 5, docs/prediction.md "Expected error"): a transformer-style model (one
# attention block: MatMul of two activations) on a preset validated on CNNs only reads the all-rows band and "not
# validated for this one" (JSON validated_for_family false); on rdk-x5, whose test rows hold transformer-style models,
# the band of those rows and their number, as its validation.transformer_* keys give them; a CNN there the cnn band
A=tests/data/predict/attention.onnx
expect 0 "" "$nn" analyze "$A" --hw zcu102-dpu --summary -o "$work/fa.txt"
check "a transformer-style model on zcu102-dpu: not validated for this one" grep -q "none of them is a transformer-style model: not validated for this one" "$work/fa.txt"
for hw in zcu102-dpu rdk-x5; do
  expect 0 "" "$nn" analyze "$A" --hw $hw --format json -o "$work/fa-$hw.json"
  expect 0 "" "$nn" analyze "$M" --hw $hw --format json -o "$work/fc-$hw.json"
done
check "JSON family and the band of the family's test rows against the presets' validation keys" python3 -c "
import json, re, sys
def keys(p):
    t = open('presets/%s.yaml' % p).read()
    return {k: float(v) for k, v in re.findall(r'^  (\w+): ([0-9.]+)', t[t.index('\nvalidation:'):], re.M)}
def xe(f):
    s = json.load(open(f))['summary']
    assert s['expected_error']['family'] == s['family'], f
    return s['family'], s['expected_error']
z, x5 = keys('zcu102-dpu'), keys('rdk-x5')
fam, a = xe(sys.argv[1] + '/fa-zcu102-dpu.json')
assert fam == 'transformer-style' and a['validated_for_family'] is False and a['family_test_rows'] == 0, a
assert a['test_rows'] == z['test_rows'] and a['family_median'] is None and z['transformer_test_rows'] == 0, a
fam, b = xe(sys.argv[1] + '/fa-rdk-x5.json')
assert b['validated_for_family'] is True and b['family_test_rows'] == x5['transformer_test_rows'] > 0, b
assert (b['family_median'], b['family_p90']) == (x5['transformer_median_error'], x5['transformer_p90_error']), b
fam, c = xe(sys.argv[1] + '/fc-rdk-x5.json')
assert fam == 'cnn' and c['validated_for_family'] is True and c['family_test_rows'] == x5['cnn_test_rows'], c
assert c['family_median'] == x5['cnn_median_error'] and c['test_rows'] == x5['test_rows'], c
" "$work"
expect 0 "" "$nn" analyze "$A" --hw rdk-x5 --summary -o "$work/fa5.txt"
check "a transformer-style model on rdk-x5: the transformer-style band and its rows" python3 -c "
import re, sys
t = open('presets/rdk-x5.yaml').read()
k = dict(re.findall(r'^  (transformer_\w+): ([0-9.]+)', t, re.M))
want = '+-%.0f%% median, +-%.0f%% at the 90th percentile (|error| over %d transformer-style test rows' % (
    100 * float(k['transformer_median_error']), 100 * float(k['transformer_p90_error']), int(k['transformer_test_rows']))
sys.exit(want not in ' '.join(open(sys.argv[1]).read().split()))" "$work/fa5.txt"
expect 0 "" "$nn" sweep "$A" --hw zcu102-dpu,rdk-x5 -o "$work/fs.txt"
check "sweep's short band: not validated for transformer-style on zcu102-dpu, n= the transformer rows on rdk-x5" python3 -c "
import re, sys
t, s = open('presets/rdk-x5.yaml').read(), open(sys.argv[1]).read()
n = re.search(r'^  transformer_test_rows: (\d+)', t, re.M).group(1)
sys.exit(not ('not validated for transformer-style' in s and ' n=%s' % n in s))" "$work/fs.txt"
expect 0 "" "$nn" compare "$A" --hw zcu102-dpu,rdk-x5 -o "$work/fc.txt"
check "compare of a transformer-style model: 'not valid.' on zcu102-dpu, the transformer-style band on rdk-x5" python3 -c "
import re, sys
k = dict(re.findall(r'^  (transformer_\w+): ([0-9.]+)', open('presets/rdk-x5.yaml').read(), re.M))
want = 'not valid.   +-%.0f%% n=%s' % (100 * float(k['transformer_median_error']), k['transformer_test_rows'])
sys.exit(not any(l.startswith('exp. error') and l.rstrip().endswith(want) for l in open(sys.argv[1])))" "$work/fc.txt"
expect 0 "" "$nn" compare "$A" "$M" --hw rdk-x5 --format json -o "$work/fm.json"
check "compare of models of two families: the band of all the rows, no family" python3 -c "
import json, sys
x = json.load(open(sys.argv[1]))['platform_details'][0]['expected_error']
sys.exit(not (x['test_rows'] > 0 and 'family' not in x))" "$work/fm.json"

# power (issue 21): FPS per watt holds static and dynamic power where a preset gives its idle power (the Edge TPU's,
# [QUTIBENCH-POWER]), and every output says "dynamic only" where it does not (the A100's: TDP spread over the peak)
R=models/resnet50.onnx
expect 0 "" "$nn" compare "$R" --hw horizon-j5,coral-usb,a100-80gb --format json -o "$work/p.json"
check "compare --format json: power_basis per platform, and the J5 line's bend at batch 16 explained" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
b = {p['name']: p['power_basis'] for p in d['platform_details']}
assert b == {'horizon-j5': None, 'coral-usb': 'static and dynamic', 'a100-80gb': 'dynamic only'}, b
sw = {(x['platform'], x['batch']): x for x in d['sweep']}
assert len(sw) == 15 and [x['batch'] for x in d['sweep'][:5]] == [1, 2, 4, 8, 16]
j = sw[('horizon-j5', 16)]
assert j['fps'] < sw[('horizon-j5', 8)]['fps'] and j['bend'].startswith('throughput falls from') and 'memory limit' in j['bend'], j
assert all(x['bend'] is None for x in d['sweep'] if x['platform'] == 'a100-80gb'), 'the A100 line rises'
for x in d['sweep']:  # a bend exactly where the throughput falls by over 1%
    if x['batch'] > 1:
        prev = next(y for y in d['sweep'] if y['platform'] == x['platform'] and y['batch'] == x['batch'] // 2)
        assert (x['bend'] is not None) == (x['fps'] < 0.99 * prev['fps']), x
" "$work/p.json"
expect 0 "" "$nn" compare "$R" --hw coral-usb,a100-80gb --width 80 -o "$work/p.txt"
check "compare table: a 'power' row under the FPS per watt and the caveat naming a100-80gb" sh -c "
grep -Eq '^power +static[+]dyn[.] +dynamic only\$' '$work/p.txt' && grep -q 'dynamic power only (no idle power given): a100-80gb' '$work/p.txt' &&
! awk 'length > 80' '$work/p.txt' | grep -q ."
expect 0 "" "$nn" analyze "$R" --hw a100-80gb -o "$work/p1.txt"
check "analyze: the A100's power line says dynamic only" grep -q 'FPS/W (dynamic only' "$work/p1.txt"
expect 0 "" "$nn" analyze "$R" --hw coral-usb --format json -o "$work/p2.json"
check "analyze --format json: the Coral's power_basis and its idle power in the power" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['summary']
assert s['power_basis'] == 'static and dynamic' and s['power_w'] > 0.80, s['power_w']" "$work/p2.json"
expect 0 "" "$nn" compare "$R" --hw horizon-j5,a100-80gb --format html -o "$work/p.html"
check "compare html: batch labels on the sweep points, the bend marked and explained under the plot" sh -c "
grep -q '>b16 \*</text>' '$work/p.html' && grep -q '>b1</text>' '$work/p.html' &&
grep -q 'class=\"plot-note\"[^>]*>\* horizon-j5: throughput falls from' '$work/p.html' &&
grep -q 'dynamic power only (no idle power given): a100-80gb' '$work/p.html'"

# zcu104-finn: the folding derived from the ZU7EV's fabric. CNV 12.5%'s first conv (3 input
# channels, 30 x 30 outputs, 3 x 3 taps) cannot go under 30 x 30 x 9 = 8,100 cycles a frame (SIMD divides the 3
# channels of a tap, PE the 16 outputs): at 200 MHz each more frame adds 40.5 us
F=bench/fidelity/data/models/cnv_s0.125.onnx
expect 0 "" "$nn" analyze "$F" --hw zcu104-finn --dtype int4 --batch 2 --format json -o "$work/finn2.json"
expect 0 "" "$nn" analyze "$F" --hw zcu104-finn --dtype int4 --batch 3 --format json -o "$work/finn3.json"
check "zcu104-finn: the dataflow model, one more frame is the first conv's 8,100 cycles at 200 MHz" python3 -c "
import json, sys
a, b = (json.load(open(f))['summary'] for f in sys.argv[1:])
assert a['compute_model'] == 'dataflow' and abs(b['latency_ms'] - a['latency_ms'] - 0.0405) < 1e-9, (a, b)" "$work/finn2.json" "$work/finn3.json"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
