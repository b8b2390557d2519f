#!/bin/sh
# Build llama.cpp's llama-server from the sources vendored in llama-cpp-python's sdist (the same llama.cpp
# version the in-process understander runs), CPU only, and print the binary's path. Nothing is installed:
# the build lives in $FSMDIAL_CACHE (default ~/.cache/fsmdial). Use it with
#   export FSMDIAL_LLAMA_SERVER=$(sh benches/build_llama_server.sh)
# Takes about 25 minutes on 2 busy cores (measured on the shared dev machine), a few minutes on a free 8-core one.
set -eu
PYTHON=${PYTHON:-python}
VERSION=$($PYTHON -c 'import llama_cpp; print(llama_cpp.__version__)')
CACHE=${FSMDIAL_CACHE:-$HOME/.cache/fsmdial}
DIR=$CACHE/llama-server-$VERSION
BIN=$DIR/src/vendor/llama.cpp/build/bin/llama-server
if [ ! -x "$BIN" ]; then
    mkdir -p "$DIR"
    if [ ! -d "$DIR/src" ]; then
        $PYTHON -m pip download "llama-cpp-python==$VERSION" --no-binary :all: --no-deps -d "$DIR" >&2
        tar -xzf "$DIR/llama_cpp_python-$VERSION.tar.gz" -C "$DIR"
        mv "$DIR/llama_cpp_python-$VERSION" "$DIR/src"
    fi
    cd "$DIR/src/vendor/llama.cpp"
    cmake -B build -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
        -DLLAMA_BUILD_APP=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_UI=OFF \
        -DBUILD_SHARED_LIBS=OFF >&2
    cmake --build build --target llama-server -j "${JOBS:-2}" >&2
fi
echo "$BIN"
