#!/usr/bin/env bash
# Installs what decoupler needs (Debian packages) when it is missing, then
# configures and builds it in build/ (or $DECOUPLER_BUILD_DIR).
#   scripts/setup.sh            install if needed, configure, build
#   scripts/setup.sh --no-build install only
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DECOUPLER_BUILD_DIR:-$root/build}"

packages=(clang-22 libclang-22-dev llvm-22-dev llvm-22-tools clang-format-22 cmake ninja-build
          libgtest-dev libclang-rt-22-dev python3 zlib1g-dev libzstd-dev libedit-dev libcurl4-openssl-dev
          python3-yaml python3-pygments)  # the last two: LLVM's opt-viewer (test/report)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [ ! -x "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc" ]; then
  echo "setup: note: no CUDA toolkit at ${CUDA_PATH:-/usr/local/cuda}; decoupler needs one to parse CUDA (--cuda-path), and nvcc tests will be skipped" >&2
fi

[ "${1:-}" = "--no-build" ] && exit 0

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 >&2
fi
cmake --build "$build" >&2
