#!/usr/bin/env bash
# Regenerates this folder: textures compressed by independent encoders and
# decoded by independent decoders, which decode/texture's tests compare
# with. Needs Debian's astcenc, etc1tool, gcc, libegl-dev, libgl-dev and
# Mesa (llvmpipe): apt-get install astcenc etc1tool gcc libegl-dev
# libgl-dev libgl1-mesa-dri libegl-mesa0. Not run by the tests.
#
#   ASTC: astcenc (Arm's reference codec) compresses colour/grey/rgb.tga at
#     every 2D footprint; astcenc decodes them in the LDR sRGB profile
#     (NAME.srgb.png: the top 8 bits of the interpolated colour, as
#     decode_unorm8 does) and Mesa decodes them (NAME.mesa.rgba). Random
#     blocks (random16) too.
#   ETC1: etc1tool (Android's codec) compresses rgb.tga's PNG and decodes it.
#   ETC2 RGB/RGBA1/RGBA8, EAC R11/RG11 (unsigned, signed): random blocks
#     decoded by Mesa.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O1 -o "$tmp/gldec" gldec.c -lEGL -lGL
python3 mkinput.py
rm -f *.astc *.png *.rgba *.r11 *.pkm
# ASTC: every 2D footprint, from the images and random blocks.
i=0
for fp in 4x4 5x4 5x5 6x5 6x6 8x5 8x6 8x8 10x5 10x6 10x8 10x10 12x10 12x12; do
  bw=${fp%x*} bh=${fp#*x}
  for img in colour grey; do
    astcenc -cl "$img.tga" "$tmp/x.astc" "$fp" -thorough -silent
    cp "$tmp/x.astc" "$img-$fp.astc"
    astcenc -ds "$img-$fp.astc" "$img-$fp.srgb.png" -silent
    tail -c +17 "$img-$fp.astc" >"$tmp/blocks"
    "$tmp/gldec" $(printf '%x' $((0x93B0 + i))) 60 60 "$tmp/blocks" "$img-$fp.mesa.rgba" u8
  done
  # Random blocks: a 4×4-block image of footprint fp.
  {
    printf '\x13\xab\xa1\x5c'
    printf "\\x$(printf %02x "$bw")\\x$(printf %02x "$bh")\\x01"
    printf "\\x$(printf %02x $((4 * bw)))\\x00\\x00\\x$(printf %02x $((4 * bh)))\\x00\\x00\\x01\\x00\\x00"
    head -c 256 random16.blocks
  } >"random-$fp.astc"
  astcenc -ds "random-$fp.astc" "random-$fp.srgb.png" -silent
  head -c 256 random16.blocks >"$tmp/blocks"
  "$tmp/gldec" $(printf '%x' $((0x93B0 + i))) $((4 * bw)) $((4 * bh)) "$tmp/blocks" "random-$fp.mesa.rgba" u8
  i=$((i + 1))
done
# ETC1 through Android's codec.
# (etc1tool reads PNG: astcenc's round trip writes one.)
astcenc -tl rgb.tga "$tmp/rgb.png" 4x4 -exhaustive -silent >/dev/null
etc1tool "$tmp/rgb.png" --encode -o etc1.pkm
etc1tool etc1.pkm --decode -o etc1.png
# ETC2 and EAC: 64×64 texels of random blocks through Mesa.
"$tmp/gldec" 9274 64 64 random8.blocks etc2-rgb.rgba u8      # GL_COMPRESSED_RGB8_ETC2
"$tmp/gldec" 9276 64 64 random8.blocks etc2-rgba1.rgba u8    # GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2
"$tmp/gldec" 9278 64 64 random16.blocks etc2-rgba8.rgba u8   # GL_COMPRESSED_RGBA8_ETC2_EAC
"$tmp/gldec" 9270 64 64 random8.blocks eac-r.r11 r11         # GL_COMPRESSED_R11_EAC
"$tmp/gldec" 9271 64 64 random8.blocks eac-r-signed.r11 r11s # GL_COMPRESSED_SIGNED_R11_EAC
"$tmp/gldec" 9272 64 64 random16.blocks eac-rg.r11 r11       # GL_COMPRESSED_RG11_EAC
"$tmp/gldec" 9273 64 64 random16.blocks eac-rg-signed.r11 r11s
rm -f colour.tga grey.tga rgb.tga
