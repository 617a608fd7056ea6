#!/usr/bin/env bash
# One command for a new user on Debian 12: installs the build dependencies (apt, needs root or sudo), builds nnperf
# in build/, and analyzes the bundled ResNet-50 (weights stripped; shapes and costs need no weights).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo
echo "$ build/nnperf analyze models/resnet50.onnx"
build/nnperf analyze models/resnet50.onnx
