#!/usr/bin/env bash
# Builds the MPI traces under test/fixtures/traces/ with the real tools, from the C programs in
# test/fixtures/traces/src/ (ring, halo, colls), each on 16 ranks:
#   simgrid/<prog>/  SimGrid's time-independent trace (smpicc, smpirun -trace-ti; Debian's
#                    libsimgrid-dev): <prog>.trace lists <prog>_files/rank-<n>.txt
#   dumpi/<prog>/    a DUMPI trace (sst-dumpi's libdumpi built against Debian's MPICH, the
#                    programs run with mpirun): <prog>.meta and <prog>-00NN.bin
#   otf2/<prog>/     an OTF2 trace written through the OTF2 library (Debian's
#                    libopen-trace-format2-dev) by src/otf2-tracer.c, an MPI profiling library
#                    recording Score-P's MPI events (Score-P itself is not packaged by Debian):
#                    <prog>.otf2 (anchor), <prog>.def (global definitions), <prog>/<rank>.evt;
#                    <prog>.enters counts the regions entered as otf2-print reads them
# Missing Debian packages are installed with apt-get. sst-dumpi's source is taken from
# $DUMPI_SRC (a checkout), else cloned from GitHub. Run from anywhere:
#   scripts/make-traces.sh            # every format
#   scripts/make-traces.sh simgrid    # some of them (simgrid, dumpi, otf2), in the order given
#   PHIT_TRACES_OUT=DIR scripts/make-traces.sh ...   # into DIR instead of test/fixtures/traces
# A new run differs from the committed traces where the run's own timing shows: SimGrid's
# compute actions are the host's measured times, and a program that tests or waits in a loop
# records as many calls as the timing gave (colls' MPI_Wait under OTF2).
# SimGrid names a rank's file after the time of the run; it is renamed rank-<n>.txt (n = rank + 1,
# SimGrid's numbering) and the list rewritten to match. DUMPI's files are renamed after the
# program and the .meta's fileprefix rewritten to match; the records are left as the tool wrote them.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/test/fixtures/traces/src
out=${PHIT_TRACES_OUT:-$root/test/fixtures/traces}
ranks=16
progs=(ring halo colls)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi

# installs the Debian packages whose commands are missing
need() {
  local cmd=$1
  shift
  if ! command -v "$cmd" >/dev/null 2>&1; then
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$@"
  fi
}

simgrid() {
  need smpicc libsimgrid-dev build-essential
  cat >"$work/platform.xml" <<'EOF'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-15" speed="1Gf" bw="10GBps" lat="1us" bb_bw="100GBps" bb_lat="0"/>
</platform>
EOF
  for i in $(seq 0 $((ranks - 1))); do echo "node-$i"; done >"$work/hosts"
  for p in "${progs[@]}"; do
    smpicc -O1 "$src/$p.c" -o "$work/sg-$p"
    (cd "$work" && smpirun -np $ranks -platform platform.xml -hostfile hosts -trace-ti \
      --cfg=tracing/filename:"$p.trace" "./sg-$p" >"$p.log" 2>&1) || { cat "$work/$p.log"; exit 1; }
    dest=$out/simgrid/$p
    rm -rf "$dest"
    mkdir -p "$dest/${p}_files"
    : >"$dest/$p.trace"
    while read -r f; do
      [ -n "$f" ] || continue
      name=$(basename "$f" | sed 's/^.*_\(rank-[0-9]*\.txt\)$/\1/')
      cp "$work/$f" "$dest/${p}_files/$name"
      echo "${p}_files/$name" >>"$dest/$p.trace"
    done <"$work/$p.trace"
    echo "simgrid/$p: $(wc -l <"$dest/$p.trace") ranks, $(cat "$dest/${p}_files"/*.txt | wc -l) actions"
  done
}

dumpi() {
  need mpicc mpich libmpich-dev build-essential autoconf automake libtool
  local dsrc=${DUMPI_SRC:-}
  if [ -z "$dsrc" ]; then
    git clone -q --depth 1 https://github.com/sstsimulator/sst-dumpi "$work/sst-dumpi"
    dsrc=$work/sst-dumpi
  fi
  cp -r "$dsrc" "$work/dumpi-src"
  (cd "$work/dumpi-src" && ./bootstrap.sh && ./configure -q --enable-libdumpi CC=mpicc CXX=mpicxx --prefix="$work/dumpi" &&
    make -j"$(nproc)" && make install) >"$work/dumpi-build.log" 2>&1 || { tail -30 "$work/dumpi-build.log"; exit 1; }
  for p in "${progs[@]}"; do
    mpicc -O1 "$src/$p.c" -o "$work/d-$p" -L"$work/dumpi/lib" -Wl,-rpath,"$work/dumpi/lib" -ldumpi
    mkdir -p "$work/run-$p"
    (cd "$work/run-$p" && mpirun -np $ranks "../d-$p" >"../$p.log" 2>&1) || { cat "$work/$p.log"; exit 1; }
    dest=$out/dumpi/$p
    rm -rf "$dest"
    mkdir -p "$dest"
    meta=$(ls "$work/run-$p"/*.meta)
    prefix=$(sed -n 's/^fileprefix=//p' "$meta")
    for f in "$work/run-$p/$prefix"-*.bin; do
      cp "$f" "$dest/$p-${f##*-}"
    done
    sed "s/^fileprefix=.*/fileprefix=$p/" "$meta" >"$dest/$p.meta"
    echo "dumpi/$p: $(ls "$dest"/*.bin | wc -l) ranks, $(cat "$dest"/*.bin | wc -c) bytes"
  done
}

otf2() {
  need mpicc mpich libmpich-dev build-essential
  if [ ! -e /usr/include/otf2/otf2.h ]; then
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends libopen-trace-format2-dev otf2-tools
  fi
  mpicc -O1 -shared -fPIC "$src/otf2-tracer.c" -o "$work/libotf2tracer.so" -lopen-trace-format2
  for p in "${progs[@]}"; do
    mpicc -O1 "$src/$p.c" -o "$work/o-$p" -L"$work" -Wl,-rpath,"$work" -lotf2tracer
    rm -rf "$work/otf2-$p"
    mkdir -p "$work/otf2-$p"
    OTF2_TRACE="$work/otf2-$p/$p" mpirun -np $ranks "$work/o-$p" >"$work/$p.log" 2>&1 || { cat "$work/$p.log"; exit 1; }
    otf2-print "$work/otf2-$p/$p.otf2" >/dev/null || { echo "otf2-print cannot read $p's trace" >&2; exit 1; }
    dest=$out/otf2/$p
    rm -rf "$dest"
    mkdir -p "$dest"
    cp -r "$work/otf2-$p/." "$dest/"
    # the regions entered, counted by the OTF2 library's own reader: what the tests expect
    otf2-print "$dest/$p.otf2" | sed -n 's/^ENTER .*Region: "\([^"]*\)".*/\1/p' | sort | uniq -c | awk '{print $2, $1}' >"$dest/$p.enters"
    echo "otf2/$p: $(ls "$dest/$p"/*.evt | wc -l) ranks, $(otf2-print "$dest/$p.otf2" | grep -c '^[A-Z_]* ') events"
  done
}

[ $# -gt 0 ] || set -- all
for what in "$@"; do
  case $what in
    all) simgrid; dumpi; otf2 ;;
    simgrid) simgrid ;;
    dumpi) dumpi ;;
    otf2) otf2 ;;
    *) echo "usage: $0 [all|simgrid|dumpi|otf2 ...]" >&2; exit 2 ;;
  esac
done
