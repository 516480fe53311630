"""Makes generate.sh's inputs: test images (uncompressed TGA) for the
encoders, and blocks of random bits (every ETC2 and EAC block is valid;
random ASTC blocks exercise the error and rare paths). Deterministic."""
import math, random, struct, sys

def tga(path, w, h, px):
    # 32-bit uncompressed true-colour, rows top first (descriptor bit 5).
    with open(path, "wb") as f:
        f.write(struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, w, h, 32, 0x28))
        for y in range(h):
            for x in range(w):
                r, g, b, a = px(x, y)
                f.write(bytes([b, g, r, a]))

def clamp(v):
    return max(0, min(255, int(v)))

rnd = random.Random(25)
noise = [[rnd.randrange(256) for _ in range(60)] for _ in range(60)]

def colour(x, y):
    # Gradients, hard edges, noise and varying alpha.
    r = 255 * x / 59
    g = 128 + 127 * math.sin(x / 5.0 + y / 7.0)
    b = 255 if (x // 8 + y // 8) % 2 else 40
    a = clamp(255 * y / 59) if x < 30 else noise[y][x]
    if 20 <= x < 40 and 20 <= y < 40:
        r, g, b = noise[y][x], noise[x][y], noise[(x + y) % 60][x]
    return clamp(r), clamp(g), clamp(b), a

def grey(x, y):
    l = clamp(128 + 100 * math.cos(x / 6.0) * math.sin(y / 4.0))
    return l, l, l, 255 if y < 30 else clamp(4 * x)

def rgb(x, y):
    r, g, b, _ = colour(x, y)
    return r, g, b, 255

tga("colour.tga", 60, 60, colour)
tga("grey.tga", 60, 60, grey)
tga("rgb.tga", 60, 60, rgb)
with open("random8.blocks", "wb") as f:
    f.write(bytes(rnd.randrange(256) for _ in range(8 * 16 * 16)))
with open("random16.blocks", "wb") as f:
    f.write(bytes(rnd.randrange(256) for _ in range(16 * 16 * 16)))
