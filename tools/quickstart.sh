#!/usr/bin/env bash
# One command for a new user on Debian 12: installs the build dependencies (apt, needs root or sudo), builds nnperf
# in build/, and predicts the bundled ResNet-50 (weights stripped: shapes and costs need no weights) on the
# Horizon Journey 5 preset.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo
echo "$ build/nnperf analyze models/resnet50.onnx --hw horizon-j5"
build/nnperf analyze models/resnet50.onnx --hw horizon-j5
