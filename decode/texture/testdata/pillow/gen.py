# Writes random BC1, BC3 and BC7 blocks (every BC7 mode 8 times) and what
# Pillow decodes them to, for decode/texture's cross-check test. Run with
# Debian's python3-pil (Pillow 9.4): /usr/bin/python3 gen.py
import os, struct, random, io
from PIL import Image
random.seed(18)
def dds(fourcc_or_dxgi, w, h, data):
    # DDS header: magic, 124-byte header, optional DX10 header
    flags = 0x1|0x2|0x4|0x1000|0x80000
    pf_flags = 0x4  # DDPF_FOURCC
    if isinstance(fourcc_or_dxgi, bytes):
        fourcc = fourcc_or_dxgi; dx10=b''
    else:
        fourcc = b'DX10'
        dx10 = struct.pack('<IIIII', fourcc_or_dxgi, 3, 0, 1, 0)
    hdr = struct.pack('<IIIIIII', 124, flags, h, w, len(data), 0, 1) + b'\0'*44
    pf = struct.pack('<II4sIIIII', 32, pf_flags, fourcc, 0,0,0,0,0)
    caps = struct.pack('<IIIII', 0x1000, 0,0,0,0)
    return b'DDS ' + hdr + pf + caps + dx10 + data
def blocks(n, size, mode=None):
    out=b''
    for i in range(n):
        b = bytearray(random.getrandbits(8) for _ in range(size))
        if mode is not None:
            m = mode(i)
            b[0] = (b[0] & ~((1<<(m+1))-1) & 0xff) | (1<<m)
        out += bytes(b)
    return out
for name, key, size, mode, W in [('bc1', b'DXT1', 8, None, 16), ('bc3', b'DXT5', 16, None, 16), ('bc7', 98, 16, lambda i: i%8, 32)]:
    H = W
    data = blocks((W//4)*(H//4), size, mode)
    im = Image.open(io.BytesIO(dds(key, W, H, data))).convert('RGBA')
    open(name+'.blocks','wb').write(data)
    open(name+'.rgba','wb').write(im.tobytes())
    print(name, im.size, im.mode, len(im.tobytes()))
