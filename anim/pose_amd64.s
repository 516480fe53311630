//go:build !purego

#include "textflag.h"

// The signs of the quaternion product's x, y and z terms (see pose_amd64.go).
DATA signs<>+0x00(SB)/4, $0x3f800000 // x: 1, -1, 1, -1
DATA signs<>+0x04(SB)/4, $0xbf800000
DATA signs<>+0x08(SB)/4, $0x3f800000
DATA signs<>+0x0c(SB)/4, $0xbf800000
DATA signs<>+0x10(SB)/4, $0x3f800000 // y: 1, 1, -1, -1
DATA signs<>+0x14(SB)/4, $0x3f800000
DATA signs<>+0x18(SB)/4, $0xbf800000
DATA signs<>+0x1c(SB)/4, $0xbf800000
DATA signs<>+0x20(SB)/4, $0xbf800000 // z: -1, 1, 1, -1
DATA signs<>+0x24(SB)/4, $0x3f800000
DATA signs<>+0x28(SB)/4, $0x3f800000
DATA signs<>+0x2c(SB)/4, $0xbf800000
GLOBL signs<>(SB), RODATA|NOPTR, $48

// A geom.Transform is 10 float32s: T xyz at 0, R xyzw at 12, S xyz at 28.
// Its vectors are read at T (T and R.x), at R, and at R.w (R.w and S).
//
// Registers: SI parents, CX their count, DI local, DX out, BX the joint i,
// R8 its parent, R9 whether X0-X2 hold joint i-1's model transform, R11
// and R12 local[i] and out[i]. X0 pt, X1 q, X2 ps (S in lanes 0-2): the
// parent's model transform; X3 r, X4 ct then v, X5 cs then os; X6, X7
// scratch; X8 uyzx, X9 uzxy; X10 the rotation; X11-X13 the signs. X15
// and R14 (zero and g in Go's internal ABI) are left alone.

// func localToModelSSE(parents []int, local, out *geom.Transform) int
TEXT ·localToModelSSE(SB), NOSPLIT, $0-48
	MOVQ parents_base+0(FP), SI
	MOVQ parents_len+8(FP), CX
	MOVQ local+24(FP), DI
	MOVQ out+32(FP), DX
	MOVUPS signs<>+0x00(SB), X11
	MOVUPS signs<>+0x10(SB), X12
	MOVUPS signs<>+0x20(SB), X13
	XORQ BX, BX
	XORQ R9, R9

loop:
	CMPQ BX, CX
	JGE  done
	MOVQ (SI)(BX*8), R8
	LEAQ (BX)(BX*4), R10
	SHLQ $3, R10
	LEAQ (DI)(R10*1), R11
	LEAQ (DX)(R10*1), R12
	TESTQ R8, R8
	JL   root
	CMPQ R8, BX
	JGE  done // a parent not before its child: the caller goes on from here
	LEAQ -1(BX), R10
	CMPQ R8, R10
	JNE  load
	TESTQ R9, R9
	JNZ  compose

load:
	LEAQ (R8)(R8*4), R10
	SHLQ $3, R10
	ADDQ DX, R10
	MOVUPS 12(R10), X1
	MOVUPS 0(R10), X0
	MOVUPS 24(R10), X2
	PSHUFD $0xF9, X2, X2 // S xyz

compose:
	MOVUPS 12(R11), X3   // r
	MOVUPS 0(R11), X4    // ct
	MOVUPS 24(R11), X5
	PSHUFD $0xF9, X5, X5 // cs

	// R: qw·r + qx·(rw, -rz, ry, -rx) + qy·(rz, rw, -rx, -ry) + qz·(-ry, rx, rw, -rz)
	PSHUFD $0xFF, X1, X10
	MULPS  X3, X10
	PSHUFD $0x1B, X3, X6
	MULPS  X11, X6
	PSHUFD $0x00, X1, X7
	MULPS  X7, X6
	ADDPS  X6, X10
	PSHUFD $0x4E, X3, X6
	MULPS  X12, X6
	PSHUFD $0x55, X1, X7
	MULPS  X7, X6
	ADDPS  X6, X10
	PSHUFD $0xB1, X3, X6
	MULPS  X13, X6
	PSHUFD $0xAA, X1, X7
	MULPS  X7, X6
	ADDPS  X6, X10

	// T: pt + (v + qw·t + u×t), t = 2·u×v, v = ps·ct
	MULPS  X2, X4        // v
	MULPS  X2, X5        // os
	PSHUFD $0xC9, X1, X8 // uyzx
	PSHUFD $0xD2, X1, X9 // uzxy
	PSHUFD $0xD2, X4, X6
	MULPS  X8, X6
	PSHUFD $0xC9, X4, X7
	MULPS  X9, X7
	SUBPS  X7, X6
	ADDPS  X6, X6        // t
	PSHUFD $0xD2, X6, X7
	MULPS  X8, X7
	PSHUFD $0xC9, X6, X3
	MULPS  X9, X3
	SUBPS  X3, X7        // u×t
	PSHUFD $0xFF, X1, X3
	MULPS  X6, X3
	ADDPS  X4, X3
	ADDPS  X7, X3
	ADDPS  X0, X3        // the model T (lane 3 lands on R.x, written next)

	MOVUPS X3, 0(R12)
	MOVUPS X10, 12(R12)
	MOVAPS X10, X6
	SHUFPS $0x0F, X5, X6 // R.w, R.w, S.x, S.x
	SHUFPS $0x98, X5, X6 // R.w, S.x, S.y, S.z
	MOVUPS X6, 24(R12)

	MOVAPS X3, X0
	MOVAPS X10, X1
	MOVAPS X5, X2
	MOVQ   $1, R9
	INCQ   BX
	JMP    loop

root:
	MOVUPS 0(R11), X6
	MOVUPS 16(R11), X7
	MOVQ   32(R11), R10
	MOVUPS X6, 0(R12)
	MOVUPS X7, 16(R12)
	MOVQ   R10, 32(R12)
	XORQ   R9, R9
	INCQ   BX
	JMP    loop

done:
	MOVQ BX, ret+40(FP)
	RET
