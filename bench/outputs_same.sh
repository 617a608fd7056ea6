#!/bin/sh
# Writes 237 outputs of nnperf (every command and format on several models and presets: analyze, roofline, sweep,
# compare, advise, map, llm, validate, help) into OUTDIR, one file per command (N.out, N.err, and its exit code and
# arguments in OUTDIR/index), so that a refactoring can be checked byte for byte against an older binary:
#   bench/outputs_same.sh OLD/nnperf /tmp/a && bench/outputs_same.sh build/nnperf /tmp/b && diff -r /tmp/a /tmp/b
# usage: bench/outputs_same.sh NNPERF OUTDIR   (NNPERF an absolute path; runs from the repository root)
B=$1; O=$2; mkdir -p "$O"; cd "$(dirname "$0")/.." || exit 2
i=0
run() { i=$((i+1)); "$B" "$@" >$O/$i.out 2>$O/$i.err; echo "$? $*" >>$O/index; }
for m in models/resnet18.onnx models/mobilenet_v2.onnx models/vit_b_16.onnx models/squeezenet1_0.onnx; do
  for f in table json csv html; do run analyze $m --format $f; done
  for hw in zcu102-dpu horizon-j5 raspberry-pi-5 a100-80gb; do
    for f in table json csv html trace; do run analyze $m --hw $hw --format $f; done
    for f in table json csv; do run roofline $m --hw $hw --format $f; done
  done
  for f in table json csv; do run sweep $m --hw zcu102-dpu,jetson-orin-nano --batch 1,4 --dtype int8,fp16 --format $f; done
  run analyze $m --hw horizon-j5 --memory-model tiled --format json
  run analyze $m --hw zcu102-dpu --memory-model weights-only --format table
  for f in table json html; do run advise $m --hw horizon-j5 --format $f; done
done
for f in table json csv html; do run compare models/resnet18.onnx models/mobilenet_v2.onnx --hw zcu102-dpu,horizon-j5,tx2-maxn --format $f; done
for m in models/mcu/cifar10_simplenet.onnx models/mcu/kws20_conv1d.onnx models/mcu/cifar10_residual.onnx models/mcu/cifar10_huge.onnx; do
  for f in table json yaml; do run map $m --format $f; run map $m --target max78002 --format $f; done
done
for f in table json csv html; do run llm tests/data/llm/tiny-llama-genai.onnx --hw a100-80gb --prompt 128,512 --generate 64 --batch 1,4 --format $f; done
run llm --config tests/data/llm/configs/$(ls tests/data/llm/configs | head -1) --hw h100-sxm --format json
run hw list; run ops; run --help; run help analyze; run help --man; run analyze models/resnet18.onnx --memory-model foo; run map models/resnet18.onnx --target foo
for f in table json csv trace; do run validate models/squeezenet1_1.onnx --hw bench/validate/host-cal.yaml --measured tests/data/ort_profile_small.json --format $f; done
for f in table json csv; do run sweep models/resnet18.onnx --hw horizon-j5 --batch 1,2 --set memory.sram_bytes=1M,4M --set memory.ddr_bandwidth=10G,30G --format $f; done
for o in "--top 5" "--all" "--width 80" "--width 60 --all"; do run analyze models/mobilenet_v2.onnx --hw horizon-j5 $o; run analyze models/swin_t.onnx --hw rdk-s100 $o; run roofline models/resnet18.onnx --hw horizon-j5 $o; done
run analyze models/swin_t.onnx --hw rdk-s100 --format csv
run analyze models/swin_t.onnx --hw rdk-s100 --format json
