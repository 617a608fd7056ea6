#!/usr/bin/env bash
# run.sh - the fidelity benchmark: nnperf's predictions against every published or measured number the project has
# (docs/prediction.md; results recorded in bench/RESULTS.md, "Fidelity").
#   1. HBDK per-layer costs: 28 backbone layers of a Horizon HBDK report rebuilt as single-layer models, predicted
#      on horizon-j5 (one Bayes core); 3 of them are the ones the preset's numbers were fitted to.
#   2. The RDK S100 FPS table on rdk-s100; 2 rows gave the preset's free parameters.
#   3. Vitis AI 1.4 DPU latencies and throughputs on zcu102-dpu (fitted there) and zcu104-dpu (validation).
#   4. Coral Edge TPU times on coral-usb and edgetpu-fast.
#   5. The host CPU with ONNX Runtime, when bench/out/profiles exists (bench/validate/run_all.sh measures it):
#      calibrated on resnet18, mobilenet_v2, efficientnet_b0, validated on every other model.
#   6. The fidelity dataset (bench/fidelity/data): every row on its preset, per preset the rows, the fit error and
#      the test error, checked against bench/fidelity/thresholds.csv (python3 and the shared library of BUILD_DIR).
# Needs /usr/bin/python3 with python3-onnx (step 1). usage: bash bench/fidelity/run.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
NN=${1:-build}/nnperf
F=bench/fidelity
OUT=bench/out/fidelity
mkdir -p "$OUT"
echo "== 1. HBDK report, per layer, horizon-j5 (one Bayes core)"
/usr/bin/python3 $F/make_hbdk_layers.py "$OUT/hbdk" >/dev/null
/usr/bin/python3 $F/hbdk.py "$NN" "$OUT/hbdk" horizon-j5 --fit \
  _backbone_mod2_0_head_layer_conv_0_0,_backbone_mod2_0_head_layer_short_add,_backbone_mod3_0_head_layer_downsample_0
echo
echo "== 2. RDK S100 FPS table, rdk-s100"
/usr/bin/python3 $F/table.py "$NN" $F/s100.csv rdk-s100 --fit resnet50@1x3x224x224,mobilenet_v2@1x3x704x1280
echo
echo "== 3. Vitis AI 1.4 DPU (one thread latency; throughput with every core busy)"
for b in zcu102 zcu104; do
  /usr/bin/python3 $F/table.py "$NN" $F/$b.csv $b-dpu --column latency_ms
  /usr/bin/python3 $F/table.py "$NN" $F/$b.csv $b-dpu --column throughput_fps
done
echo
echo "== 4. Coral Edge TPU"
/usr/bin/python3 $F/table.py "$NN" $F/coral.csv coral-usb --column usb_ms
/usr/bin/python3 $F/table.py "$NN" $F/coral.csv edgetpu-fast --column devboard_ms
echo
if [ -d bench/out/profiles ]; then
  echo "== 5. Host CPU, ONNX Runtime 1 thread (calibrated on resnet18, mobilenet_v2, efficientnet_b0)"
  bash bench/validate/calibrate_validate.sh "$(dirname "$NN")"
else
  echo "== 5. Host CPU: skipped (run bash bench/validate/run_all.sh first to measure)"
fi
echo
echo "== 6. The fidelity dataset (bench/fidelity/data): per preset, fit and test rows"
PYTHONPATH=python NNPERF_LIBRARY="$(dirname "$NN")/libnnperf.so" python3 $F/fidelity.py --rows \
  --check $F/thresholds.csv --json "$OUT/dataset.json"
