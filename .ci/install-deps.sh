#!/usr/bin/env bash
# Installs the Debian packages nnperf needs to build and test (Debian 12). Run as root (or with sudo).
set -euo pipefail
# python3: the schema and CSV checks of the outputs (tests/schema/; skipped where it is missing)
# chromium: the real-browser test of the HTML reports (tests/browser/; skipped where it is missing)
# protobuf-c-compiler, libprotobuf-c-dev, libonnx-dev (onnx.proto): the protobuf-c oracle test of the ONNX reader
# (tests/oracle/; not built where they are missing)
# python3-onnx: onnx.checker on annotated models (tests/annotate/; skipped where it is missing)
# python3-venv, python3-pip, python3-setuptools, python3-wheel, python3-pytest, python3-pandas: the Python package
# installed offline into a venv and its tests (tests/python/; skipped where they are missing)
# locales: the comma-decimal de_DE.UTF-8 locale of the locale-independence test (tests/unit/test_locale.c)
# strace: a signal injected while -o is written, to see the temporary removed (tests/cli/files.sh; skipped without it)
# emscripten: the WebAssembly build of the web page (web/, `cmake --build build --target web`; skipped without it)
pkgs=(build-essential cmake clang clang-format libonnx-testdata libyaml-dev pkg-config libjansson-dev chromium python3
      protobuf-c-compiler libprotobuf-c-dev libonnx-dev python3-onnx python3-venv python3-pip python3-setuptools
      python3-wheel python3-pytest python3-pandas locales strace emscripten)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\?8'; then
  $SUDO localedef -i de_DE -f UTF-8 de_DE.UTF-8
fi
# The web page's WebAssembly build compiles libyaml and jansson from Debian's source packages (with Debian's patches,
# unpacked by dpkg-source) kept in /usr/local/src/nnperf-wasm; the build itself then needs no network.
wasm_src=${NNPERF_WASM_DEPS:-/usr/local/src/nnperf-wasm}
if command -v emcc >/dev/null && { ! [ -f "$wasm_src/libyaml/src/api.c" ] || ! [ -f "$wasm_src/jansson/src/dump.c" ]; }; then
  tmp=$(mktemp -d)
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  echo "deb-src http://deb.debian.org/debian $codename main" >"$tmp/sources.list"
  mkdir -p "$tmp/lists/partial" "$tmp/parts" "$tmp/src"
  apt_src=(-o "Dir::Etc::SourceList=$tmp/sources.list" -o "Dir::Etc::SourceParts=$tmp/parts"
           -o "Dir::State::Lists=$tmp/lists")
  $SUDO apt-get "${apt_src[@]}" update -q
  (cd "$tmp/src" && $SUDO apt-get "${apt_src[@]}" source -q libyaml jansson)
  $SUDO mkdir -p "$wasm_src"
  $SUDO rm -rf "$wasm_src/libyaml" "$wasm_src/jansson"
  $SUDO mv "$tmp"/src/libyaml-*/ "$wasm_src/libyaml"
  $SUDO mv "$tmp"/src/jansson-*/ "$wasm_src/jansson"
  $SUDO rm -rf "$tmp"
fi
