#!/usr/bin/env bash
# Byte-identity check for speed work: OLD and NEW nnperf binaries must write the same bytes for the same commands
# (JSON, table, CSV of analyze with and without a platform, sweep, compare, roofline) on a set of models.
# usage: bash bench/same_output.sh OLD_NNPERF NEW_NNPERF [EXTRA_MODEL.onnx ...]   (exit 1 on the first difference)
set -uo pipefail
cd "$(dirname "$0")/.."
OLD=$1 NEW=$2
shift 2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 n=0
check() {
  "$OLD" "$@" >"$T/old" 2>"$T/old.err"; ro=$?
  "$NEW" "$@" >"$T/new" 2>"$T/new.err"; rn=$?
  n=$((n + 1))
  if [ $ro != $rn ] || ! cmp -s "$T/old" "$T/new" || ! cmp -s "$T/old.err" "$T/new.err"; then
    echo "DIFFERS (exit $ro vs $rn): nnperf $*"; diff "$T/old" "$T/new" | head -5; fail=1
  fi
}
models="models/resnet50.onnx models/swin_t.onnx models/mobilenet_v2.onnx models/vit_b_16.onnx models/efficientnet_b0.onnx
  models/inception_v3.onnx models/convnext_tiny.onnx tests/data/llm/tiny-llama-hf.onnx $*"
for m in $models; do
  [ -f "$m" ] || continue
  check analyze "$m" --format json
  check analyze "$m" --all
  check analyze "$m" --format csv
  for hw in horizon-j5 rdk-s100 a100-80gb zcu102-dpu jetson-orin-nano coral-usb; do
    check analyze "$m" --hw "$hw" --format json
    check analyze "$m" --hw "$hw" --all --width 0
  done
  check analyze "$m" --hw rdk-s100 --format html
  check analyze "$m" --hw jetson-orin-nano --format trace
  check analyze "$m" --hw rdk-s100 --set memory.sram_bytes=16MiB --format json
  check roofline "$m" --hw edgetpu-fast --format json
done
check sweep models/resnet50.onnx --hw jetson-orin-nano,jetson-agx-orin --dtype int8,fp16 --batch 1,2,4,8,16,32 --format csv
check sweep models/mobilenet_v2.onnx --hw rdk-s100 --set memory.ddr_bandwidth=8G,16G,32G --set compute.peak_ops.int8=64T,128T --format json
check sweep models/resnet50.onnx --hw zcu102-dpu --batch 1,2,4,8,16
for mm in tiled weights-only; do
  check sweep models/mobilenet_v2.onnx --hw horizon-j5,coral-usb --batch 1,3,8 --memory-model $mm --format json
done
check sweep tests/data/quant/resnet18_qdq.onnx --hw rdk-s100,raspberry-pi-5 --batch 1,2,4 --dtype int8,fp32 --format csv
check compare models/resnet50.onnx models/mobilenet_v2.onnx --hw horizon-j5,zcu102-dpu,jetson-orin-nano --format json
check compare models/mobilenet_v2.onnx --hw coral-usb,a100-80gb
# the other commands and formats: roofline/sweep table and csv, memory models, advise, --top/--width, compare
# csv/html, map, llm, validate, help
for m in models/resnet18.onnx models/squeezenet1_0.onnx; do
  for f in table json csv; do
    check roofline "$m" --hw zcu102-dpu --format $f
    check sweep "$m" --hw zcu102-dpu,jetson-orin-nano --batch 1,4 --dtype int8,fp16 --format $f
    check sweep "$m" --hw horizon-j5 --batch 1,2 --set memory.sram_bytes=1M,4M --format $f
  done
  for f in table csv html; do check analyze "$m" --hw raspberry-pi-5 --format $f; done
  check analyze "$m" --hw horizon-j5 --memory-model tiled --format json
  check analyze "$m" --hw zcu102-dpu --memory-model weights-only
  for f in table json html; do check advise "$m" --hw horizon-j5 --format $f; done
  check analyze "$m" --hw horizon-j5 --top 5
  check analyze "$m" --hw horizon-j5 --width 60
done
for f in table csv html; do check compare models/resnet18.onnx models/mobilenet_v2.onnx --hw zcu102-dpu,tx2-maxn --format $f; done
for m in models/mcu/cifar10_simplenet.onnx models/mcu/kws20_conv1d.onnx models/mcu/cifar10_residual.onnx; do
  for f in table json yaml; do check map "$m" --format $f; check map "$m" --target max78002 --format $f; done
done
for f in table json csv html; do
  check llm tests/data/llm/tiny-llama-genai.onnx --hw a100-80gb --prompt 128,512 --generate 64 --batch 1,4 --format $f
done
check llm --config tests/data/llm/configs/gemma-2-9b.json --hw h100-sxm --format json
for f in table json csv trace; do
  check validate models/squeezenet1_1.onnx --hw bench/validate/host-cal.yaml --measured tests/data/ort_profile_small.json --format $f
done
check hw list
check ops
check help analyze
check analyze models/resnet18.onnx --memory-model foo
check map models/resnet18.onnx --target foo
echo "$n commands compared"
[ $fail = 0 ] && echo "all identical"
exit $fail
