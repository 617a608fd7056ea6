#!/bin/sh
# check_install.sh BUILD_DIR SOURCE_DIR - installs the build into a temporary prefix (cmake --install) and checks
# what a user of the installed package gets: the binary, man page and bash completion are in place, and a small C
# program (hello.c) builds and runs against the library with pkg-config and with a CMake find_package project
# (shared and static). Its output must equal the installed CLI's MAC count of the same model.
# usage: check_install.sh BUILD_DIR SOURCE_DIR [CC [CFLAGS]]   (CFLAGS: the sanitizers of a sanitized build)
set -eu
build=$1
src=$2
CC=${3:-cc}
CFLAGS=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/p" >/dev/null
for f in bin/nnperf include/nnperf.h share/man/man1/nnperf.1 share/bash-completion/completions/nnperf \
    lib/pkgconfig/nnperf.pc lib/cmake/nnperf/nnperfConfig.cmake; do
    [ -f "$tmp/p/$f" ] || { echo "not installed: $f"; exit 1; }
done
model=$src/models/resnet18.onnx
want=$("$tmp/p/bin/nnperf" analyze "$model" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["macs"])' 2>/dev/null || true)

# pkg-config
export PKG_CONFIG_PATH="$tmp/p/lib/pkgconfig"
# shellcheck disable=SC2046
$CC $CFLAGS -o "$tmp/hello_pc" "$src/tests/install/hello.c" $(pkg-config --cflags --libs nnperf)
got=$(LD_LIBRARY_PATH="$tmp/p/lib" "$tmp/hello_pc" "$model")
echo "pkg-config: $got"
# static through pkg-config --static
# shellcheck disable=SC2046
$CC $CFLAGS -o "$tmp/hello_pcs" "$src/tests/install/hello.c" -I"$tmp/p/include" "$tmp/p/lib/libnnperf.a" \
    $(pkg-config --static --libs-only-l --libs-only-other nnperf | sed 's/-lnnperf//')
got_s=$("$tmp/hello_pcs" "$model")

# CMake package
mkdir "$tmp/proj"
cp "$src/tests/install/hello.c" "$tmp/proj/"
cp "$src/tests/install/CMakeLists.txt.in" "$tmp/proj/CMakeLists.txt"
cmake -S "$tmp/proj" -B "$tmp/proj/b" -DCMAKE_PREFIX_PATH="$tmp/p" -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" \
    >/dev/null
cmake --build "$tmp/proj/b" >/dev/null
got_cs=$(LD_LIBRARY_PATH="$tmp/p/lib" "$tmp/proj/b/hello_shared" "$model")
got_cst=$("$tmp/proj/b/hello_static" "$model")
echo "cmake shared: $got_cs"
echo "cmake static: $got_cst"
for g in "$got_s" "$got_cs" "$got_cst"; do
    [ "$g" = "$got" ] || { echo "outputs differ: '$g' vs '$got'"; exit 1; }
done
case "$got" in *" MACs") ;; *) echo "unexpected output: $got"; exit 1 ;; esac
if [ -n "$want" ]; then
    [ "$got" = "nnperf $("$tmp/p/bin/nnperf" --version | awk '{print $NF}'): $want MACs" ] ||
        { echo "MACs differ from the CLI's JSON ($want): $got"; exit 1; }
fi
echo "install ok"
