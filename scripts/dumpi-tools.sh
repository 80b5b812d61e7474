#!/usr/bin/env bash
# Builds sst-dumpi's trace tools (dumpi2ascii, dumpistats, ...; the reader library only, no MPI
# needed) and installs them under PREFIX (default ~/.local), so that the tests check the DUMPI
# traces `phit run --dumpi` writes with DUMPI's own reader:
#   scripts/dumpi-tools.sh [PREFIX]
#   PHIT_DUMPI2ASCII=PREFIX/bin/dumpi2ascii npx vitest run test/trace-out.test.ts
# sst-dumpi's source is taken from $DUMPI_SRC (a checkout), else cloned from GitHub. Missing
# build tools are installed with apt-get.
set -euo pipefail

prefix=${1:-$HOME/.local}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
if ! command -v autoreconf >/dev/null 2>&1 || ! command -v libtoolize >/dev/null 2>&1 || ! command -v g++ >/dev/null 2>&1; then
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends build-essential autoconf automake libtool
fi

dsrc=${DUMPI_SRC:-}
if [ -z "$dsrc" ]; then
  git clone -q --depth 1 https://github.com/sstsimulator/sst-dumpi "$work/sst-dumpi"
  dsrc=$work/sst-dumpi
fi
cp -r "$dsrc" "$work/src"
(cd "$work/src" && ./bootstrap.sh && ./configure -q --disable-libdumpi --prefix="$prefix" && make -j"$(nproc)" && make install) >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; exit 1; }
echo "installed $prefix/bin/dumpi2ascii"
