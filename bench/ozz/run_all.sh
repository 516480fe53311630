#!/bin/bash
# One invocation: (re)build what is missing, time ozz-animation 0.16 (SIMD and
# scalar builds) and mecanim (PROJECT, its default build (SSE on amd64) and its
# scalar one, -tags purego) interleaved over ROUNDS rounds, count instructions
# with callgrind, and write results/table.md.
#
#   WORK=/work/ozzbench PROJECT=/work/wt/perf CORPUS=/work/shared/corpus \
#   OZZ_GIT=/work/.mirror/guillaumeblanc+ozz-animation/repo ROUNDS=5 ./run_all.sh
#
# Nothing is pinned; every measure is thread CPU time (medians of 5
# repetitions of ~100 ms each, per round), and the table gives the median over
# rounds with the load average seen.
set -eu
cd "${WORK:?set WORK to this folder}"
: "${PROJECT:?set PROJECT to the project checkout}" "${CORPUS:?set CORPUS to shared/corpus}"
: "${OZZ_GIT:?set OZZ_GIT to a git directory of ozz-animation 0.16}" "${ROUNDS:=5}"
export CORPUS

# ozz-animation: source, both builds, the converted clips, ozzbench.
if [ ! -d ozz ]; then
  mkdir ozz
  git --git-dir="$OZZ_GIT" archive HEAD $(git --git-dir="$OZZ_GIT" ls-tree --name-only HEAD | grep -v '^media$') | tar -x -C ozz
  mkdir -p ozz/media
fi
[ -x build-ref/src/animation/offline/gltf/gltf2ozz ] || [ -f build-ref/src/animation/runtime/libozz_animation_r.a ] || ./build_ozz.sh
[ -f data/dab_Dab.ozz ] || WORK=$PWD PROJECT="$PROJECT" CORPUS="$CORPUS" sh convert.sh
[ -x cpp/ozzbench_simd ] || WORK=$PWD sh cpp/build.sh

# mecanim, two ways.
(cd gobench && sed -i "s#=> .*#=> $PROJECT#" go.mod && go build -o gobench . && go build -tags purego -o gobench-purego .)

mkdir -p results
OUT=results/raw.txt
: > $OUT
{
  echo "# start $(date -u +%FT%TZ)"
  echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) nproc=$(nproc) flags:$(grep -m1 flags /proc/cpuinfo | grep -o 'avx2\|avx512f' | tr '\n' ' ')"
  echo "# go: $(go version)  g++: $(g++ --version | head -1)"
  echo "# ozz: $(git --git-dir="$OZZ_GIT" log -1 --format='%h %s')"
  echo "# mecanim: $(git -C "$PROJECT" log -1 --format='%h %s')"
} >> $OUT
load() { cut -d' ' -f1-3 /proc/loadavg; }
run_ozz() { # impl binary
  for c in "enemy_walk data/enemy_skeleton.ozz data/enemy_walkCycle.ozz" "dab data/dab_skeleton.ozz data/dab_Dab.ozz"; do
    read -r clip skel anim <<< "$c"
    echo "# round=$ROUND impl=$1 clip=$clip load=$(load) $(date -u +%T)" >> $OUT
    ./cpp/$2 $skel $anim $clip $1 | sed "s/^/round=$ROUND /" >> $OUT
  done
}
run_go() { # impl binary
  echo "# round=$ROUND impl=$1 load=$(load) $(date -u +%T)" >> $OUT
  $2 bench --impl $1 | sed "s/^/round=$ROUND /" >> $OUT
}
I=(ozz-simd ozz-scalar mecanim mecanim-purego)
for ROUND in $(seq 1 $ROUNDS); do
  for k in 0 1 2 3; do # the order rotated each round
    case ${I[$(( (k + ROUND - 1) % 4 ))]} in
      ozz-simd) run_ozz ozz-simd ozzbench_simd ;;
      ozz-scalar) run_ozz ozz-scalar ozzbench_ref ;;
      mecanim) run_go mecanim ./gobench/gobench ;;
      mecanim-purego) run_go mecanim-purego ./gobench/gobench-purego ;;
    esac
  done
done
echo "# end $(date -u +%FT%TZ) load=$(load)" >> $OUT

# Instructions (callgrind), per joint and tick: forward sampling and
# local-to-model alone, counted inside the loop only.
CG=results/callgrind.txt
: > $CG
N=2000
cgozz() { # impl label what binary skel anim
  local ir
  ir=$(valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*count_loop*' --callgrind-out-file=/dev/null \
       ./cpp/$4 data/$5 data/$6 $2 x --count $N --what $3 2>&1 | sed -n 's/.*I *refs: *//p' | tr -d ,)
  echo "CG impl=$1 clip=$2 what=$3 n=$N ir=$ir" >> $CG
}
cggo() { # impl binary: every clip, local then model, one dump per loop
  local d
  d=$(mktemp -d)
  GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --collect-atstart=no --toggle-collect=main.countLoop --dump-after=main.countLoop \
    --callgrind-out-file=$d/cg ./$2 count-all $N 2>/dev/null | grep '^COUNT' > $d/order
  local k=0
  while read -r _ clip what n; do
    k=$((k + 1))
    echo "CG impl=$1 $clip $what $n ir=$(sed -n 's/^summary: //p' $d/cg.$k)" >> $CG
  done < $d/order
  rm -rf $d
}
for w in local model; do
  cgozz ozz-simd dab $w ozzbench_simd dab_skeleton.ozz dab_Dab.ozz
  cgozz ozz-scalar dab $w ozzbench_ref dab_skeleton.ozz dab_Dab.ozz
  cgozz ozz-simd enemy_walk $w ozzbench_simd enemy_skeleton.ozz enemy_walkCycle.ozz
  cgozz ozz-scalar enemy_walk $w ozzbench_ref enemy_skeleton.ozz enemy_walkCycle.ozz
done
cggo mecanim gobench/gobench
cggo mecanim-purego gobench/gobench-purego
python3 summarize.py results/raw.txt results/callgrind.txt > results/table.md
cat results/table.md

# Accuracy: ozz's sampled poses against mecanim's at the same times.
WORK=$PWD sh accuracy.sh && cp acc/accuracy.txt results/
