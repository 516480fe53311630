#!/bin/sh
set -e
cd "$(dirname "$0")"
cmake -S ozz -B build-simd -DCMAKE_BUILD_TYPE=Release -Dozz_build_samples=OFF -Dozz_build_howtos=OFF -Dozz_build_tests=OFF -Dozz_build_tools=ON -Dozz_build_gltf=ON -Dozz_build_fbx=OFF
nice make -C build-simd -j1 gltf2ozz ozz_animation ozz_base ozz_animation_offline
cmake -S ozz -B build-ref -DCMAKE_BUILD_TYPE=Release -Dozz_build_samples=OFF -Dozz_build_howtos=OFF -Dozz_build_tests=OFF -Dozz_build_tools=ON -Dozz_build_gltf=ON -Dozz_build_fbx=OFF -Dozz_build_simd_ref=ON
nice make -C build-ref -j1 ozz_animation ozz_base
