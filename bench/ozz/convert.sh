#!/bin/sh
# Export the corpus clips with mecanim and convert them with gltf2ozz (default settings,
# only file names set), plus variants used for the accuracy breakdown.
set -e
cd ${WORK:?set WORK to a scratch folder}
mkdir -p data
[ -x ./mecanim ] || (cd ${PROJECT:?set PROJECT to the project checkout} && go build -o ${WORK}/mecanim ./cmd/mecanim)
C=${CORPUS:?set CORPUS to shared/corpus}
./mecanim export $C/lc-example-enemy/modassets --clip walkCycle --no-meshes -o data/enemy_walk.glb
./mecanim export $C/lethal-emotes/customemotespackage $C/lethal-emotes/scavbody --clip Dab --animator "CAB-6cac020821b9c8c2a103f5e0c44b78fc#-2529895578980821914" --no-meshes -o data/dab.glb
cd data
G=../build-simd/src/animation/offline/gltf/gltf2ozz
# default: optimize on, tolerance 0.001, distance 0.1, sampling_rate 0 (-> 30 Hz for glTF), iframe_interval 10
$G --file=enemy_walk.glb --config='{"skeleton":{"filename":"enemy_skeleton.ozz"},"animations":[{"filename":"enemy_*.ozz"}]}' --log_level=verbose > enemy_conv.log 2>&1
$G --file=dab.glb --config='{"skeleton":{"filename":"dab_skeleton.ozz"},"animations":[{"filename":"dab_*.ozz"}]}' --log_level=verbose > dab_conv.log 2>&1
# accuracy-breakdown variants (not timed)
$G --file=enemy_walk.glb --config='{"skeleton":{"filename":"enemy_skeleton_b.ozz"},"animations":[{"filename":"enemy240_*.ozz","sampling_rate":240}]}' > enemy240_conv.log 2>&1
$G --file=enemy_walk.glb --config='{"skeleton":{"filename":"enemy_skeleton_b.ozz"},"animations":[{"filename":"enemy240raw_*.ozz","sampling_rate":240,"optimize":false}]}' > enemy240raw_conv.log 2>&1
$G --file=dab.glb --config='{"skeleton":{"filename":"dab_skeleton_b.ozz"},"animations":[{"filename":"dabnoopt_*.ozz","optimize":false}]}' > dabnoopt_conv.log 2>&1
