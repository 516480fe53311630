package lzma

import "fmt"

// The range decoder's state lives in local variables of run (rng, code and
// the input position ip) and is threaded through these small functions by
// value, so the compiler keeps it in registers; each is small enough to be
// inlined.

// norm shifts in the next input byte when the range has grown too small.
// Reading past the end of the input yields zeros and still advances ip; run
// checks ip against the input length once per symbol.
func norm(in []byte, ip int, rng, code uint32) (int, uint32, uint32) {
	if rng < topValue {
		var b byte
		if uint(ip) < uint(len(in)) {
			b = in[ip]
		}
		ip++
		rng <<= 8
		code = code<<8 | uint32(b)
	}
	return ip, rng, code
}

// bit decodes one bit coded with probability *p and adapts *p. The caller
// normalizes first.
func bit(p *prob, rng, code uint32) (uint32, uint32, uint32) {
	v := uint32(*p)
	bound := (rng >> probBits) * v
	if code < bound {
		*p = prob(v + (1<<probBits-v)>>moveBits)
		return bound, code, 0
	}
	*p = prob(v - v>>moveBits)
	return rng - bound, code - bound, 1
}

// bitc is bit without branches on the decoded value, for the bits no
// branch predictor can guess (a literal's): the compiler turns the selection
// into conditional moves.
func bitc(p *prob, rng, code uint32) (uint32, uint32, uint32) {
	v := uint32(*p)
	bound := (rng >> probBits) * v
	// m is all ones when the bit is 0 (code < bound).
	m := uint32(int64(uint64(code)-uint64(bound)) >> 63)
	*p = prob(v - uint32(int32(v-(1<<probBits-31)&m)>>moveBits))
	return (rng-bound)&^m | bound&m, code - bound&^m, ^m & 1
}

// literal decodes a byte coded with the probabilities lit, most
// significant bit first. It is bitc unrolled by hand for one reason: both
// probabilities the next bit may use are loaded before this bit is known,
// which takes the load off the chain of dependent steps each bit waits for.
func literal(lit *[literalProbs]prob, in []byte, ip int, rng, code uint32) (uint32, int, uint32, uint32) {
	sym := uint32(1)
	v := uint32(lit[1])
	for sym < 0x100 {
		ip, rng, code = norm(in, ip, rng, code)
		c0, c1 := uint32(lit[(2*sym)&0x1FF]), uint32(lit[(2*sym+1)&0x1FF])
		bound := (rng >> probBits) * v
		m := uint32(int64(uint64(code)-uint64(bound)) >> 63) // all ones for a 0 bit
		lit[sym] = prob(v - uint32(int32(v-(1<<probBits-31)&m)>>moveBits))
		rng, code = (rng-bound)&^m|bound&m, code-bound&^m
		sym = sym<<1 | ^m&1
		v = c1 ^ (c0^c1)&m
	}
	return sym, ip, rng, code
}

// matchedLiteral decodes a literal that follows a match: the byte mb at the
// match distance predicts it, bit by bit, with the probabilities
// lit[0x100:0x300], until the first bit that differs; the rest uses the
// plain probabilities lit[:0x100]. offs is 0x100 while the bits agree and 0
// after, which selects the table without a branch.
func matchedLiteral(lit *[literalProbs]prob, mb uint32, in []byte, ip int, rng, code uint32) (uint32, int, uint32, uint32) {
	sym := uint32(1)
	offs := uint32(0x100)
	for sym < 0x100 {
		var b uint32
		mb <<= 1
		ip, rng, code = norm(in, ip, rng, code)
		rng, code, b = bitc(&lit[offs+mb&offs+sym], rng, code)
		sym = sym<<1 | b
		offs &^= mb ^ b<<8
	}
	return sym, ip, rng, code
}

// tree decodes an n-bit symbol, most significant bit first, with the
// probabilities p[1:1<<n].
func tree(p []prob, n uint, in []byte, ip int, rng, code uint32) (uint32, int, uint32, uint32) {
	m := uint32(1)
	end := uint32(1) << n
	for m < end {
		var b uint32
		ip, rng, code = norm(in, ip, rng, code)
		rng, code, b = bitc(&p[m], rng, code)
		m = m<<1 | b
	}
	return m - end, ip, rng, code
}

// reverseTree decodes an n-bit symbol, least significant bit first, with
// the probabilities p[1:1<<n].
func reverseTree(p []prob, n uint, in []byte, ip int, rng, code uint32) (uint32, int, uint32, uint32) {
	m := uint32(1)
	var sym uint32
	for i := range n {
		var b uint32
		ip, rng, code = norm(in, ip, rng, code)
		rng, code, b = bitc(&p[m], rng, code)
		m = m<<1 | b
		sym |= b << i
	}
	return sym, ip, rng, code
}

// decodeLen decodes a match length minus matchMinLen (0 to 271).
func decodeLen(l *lenProbs, posState int, in []byte, ip int, rng, code uint32) (uint32, int, uint32, uint32) {
	var b, sym uint32
	ip, rng, code = norm(in, ip, rng, code)
	rng, code, b = bit(&l.choice, rng, code)
	if b == 0 {
		sym, ip, rng, code = tree(l.low[posState&(1<<posBitsMax-1)][:], lenLowBits, in, ip, rng, code)
		return sym, ip, rng, code
	}
	ip, rng, code = norm(in, ip, rng, code)
	rng, code, b = bit(&l.choice2, rng, code)
	if b == 0 {
		sym, ip, rng, code = tree(l.mid[posState&(1<<posBitsMax-1)][:], lenMidBits, in, ip, rng, code)
		return lenLowSyms + sym, ip, rng, code
	}
	sym, ip, rng, code = tree(l.high[:], lenHighBits, in, ip, rng, code)
	return lenLowSyms + lenMidSyms + sym, ip, rng, code
}

// decodeDist decodes the distance (minus one) of a new match whose length
// minus matchMinLen is l. The end marker decodes as 0xFFFFFFFF.
func (d *Decoder) decodeDist(l uint32, in []byte, ip int, rng, code uint32) (uint32, int, uint32, uint32) {
	lenState := min(l, lenToPosState-1)
	slot, ip, rng, code := tree(d.posSlot[lenState][:], posSlotBits, in, ip, rng, code)
	if slot < startPosModel {
		return slot, ip, rng, code
	}
	direct := slot>>1 - 1
	dist := (2 | slot&1) << direct
	if slot < endPosModel {
		var extra uint32
		extra, ip, rng, code = reverseTree(d.posSpecial[dist-slot:], uint(direct), in, ip, rng, code)
		return dist + extra, ip, rng, code
	}
	// Direct bits, coded with a fixed probability of one half, then the
	// low alignBits bits with their own probabilities.
	var res uint32
	for range direct - alignBits {
		ip, rng, code = norm(in, ip, rng, code)
		rng >>= 1
		if code >= rng {
			code -= rng
			res = res<<1 | 1
		} else {
			res <<= 1
		}
	}
	dist += res << alignBits
	var a uint32
	a, ip, rng, code = reverseTree(d.align[:], alignBits, in, ip, rng, code)
	return dist + a, ip, rng, code
}

// Next states after a literal, a match, a repeated match and a one-byte
// repeat (the specification's UpdateState_*), padded to 16 entries so an
// index masked with 15 needs no bounds check.
var (
	stateAfterLit      = [16]uint8{0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 4, 5}
	stateAfterMatch    = [16]uint8{7, 7, 7, 7, 7, 7, 7, 10, 10, 10, 10, 10}
	stateAfterRep      = [16]uint8{8, 8, 8, 8, 8, 8, 8, 11, 11, 11, 11, 11}
	stateAfterShortRep = [16]uint8{9, 9, 9, 9, 9, 9, 9, 11, 11, 11, 11, 11}
)

// run decodes symbols into out until at least want bytes exist, leaving the
// rest of a match that crosses len(out) pending.
func (d *Decoder) run(out []byte, want int) error {
	in := d.in
	ip, rng, code := d.ip, d.rng, d.code
	pos := d.pos
	state := d.state
	rep0, rep1, rep2, rep3 := d.rep[0], d.rep[1], d.rep[2], d.rep[3]
	dict := d.props.DictSize
	lc := d.lc
	lpMask, pbMask := d.lpMask, d.pbMask
	full := len(out) == d.size

	if d.pending > 0 {
		n := min(d.pending, len(out)-pos)
		copyMatch(out, pos, int(rep0)+1, n)
		pos += n
		d.pending -= n
	}

	for pos < want {
		if ip > len(in) {
			d.store(ip, rng, code, pos, state, rep0, rep1, rep2, rep3)
			return d.fail(ErrTruncated, len(in), "input ends inside a symbol")
		}
		posState := pos & pbMask
		var b uint32
		p := &d.isMatch[(state<<posBitsMax|uint32(posState))&(stateRows<<posBitsMax-1)]
		ip, rng, code = norm(in, ip, rng, code)
		rng, code, b = bit(p, rng, code)
		if b == 0 {
			// Literal: a byte coded with probabilities chosen by the
			// previous byte and the position.
			var prev byte
			if pos > 0 {
				prev = out[pos-1]
			}
			ls := (pos&lpMask)<<lc + int(prev)>>(8-lc)
			lit := &d.literal[ls&(litStatesMax-1)]
			// After a match the byte at the match distance predicts this one.
			var sym uint32
			if state >= 7 {
				sym, ip, rng, code = matchedLiteral(lit, uint32(out[pos-int(rep0)-1]), in, ip, rng, code)
			} else {
				sym, ip, rng, code = literal(lit, in, ip, rng, code)
			}
			out[pos] = byte(sym)
			pos++
			state = uint32(stateAfterLit[state&15])
			continue
		}

		var l uint32
		ip, rng, code = norm(in, ip, rng, code)
		rng, code, b = bit(&d.isRep[state&15], rng, code)
		if b == 0 {
			// A new match: length, then distance.
			l, ip, rng, code = decodeLen(&d.lenDec, posState, in, ip, rng, code)
			state = uint32(stateAfterMatch[state&15])
			var dist uint32
			dist, ip, rng, code = d.decodeDist(l, in, ip, rng, code)
			if dist == 0xFFFFFFFF {
				d.store(ip, rng, code, pos, state, rep0, rep1, rep2, rep3)
				return d.fail(ErrCorrupt, ip, fmt.Sprintf("end marker before the declared size (%d of %d bytes)", pos, d.size))
			}
			if dist >= dict || int(dist) >= pos {
				d.store(ip, rng, code, pos, state, rep0, rep1, rep2, rep3)
				return d.fail(ErrCorrupt, ip, fmt.Sprintf("match distance %d reaches before the start of the output or the %d-byte dictionary", uint64(dist)+1, dict))
			}
			rep0, rep1, rep2, rep3 = dist, rep0, rep1, rep2
		} else {
			if pos == 0 {
				d.store(ip, rng, code, pos, state, rep0, rep1, rep2, rep3)
				return d.fail(ErrCorrupt, ip, "repeated match at the start of the output")
			}
			ip, rng, code = norm(in, ip, rng, code)
			rng, code, b = bit(&d.isRepG0[state&15], rng, code)
			if b == 0 {
				ip, rng, code = norm(in, ip, rng, code)
				rng, code, b = bit(&d.isRep0Long[(state<<posBitsMax|uint32(posState))&(stateRows<<posBitsMax-1)], rng, code)
				if b == 0 {
					// One byte from the last distance.
					state = uint32(stateAfterShortRep[state&15])
					out[pos] = out[pos-int(rep0)-1]
					pos++
					continue
				}
			} else {
				var dist uint32
				ip, rng, code = norm(in, ip, rng, code)
				rng, code, b = bit(&d.isRepG1[state&15], rng, code)
				if b == 0 {
					dist = rep1
				} else {
					ip, rng, code = norm(in, ip, rng, code)
					rng, code, b = bit(&d.isRepG2[state&15], rng, code)
					if b == 0 {
						dist = rep2
					} else {
						dist = rep3
						rep3 = rep2
					}
					rep2 = rep1
				}
				rep1 = rep0
				rep0 = dist
			}
			l, ip, rng, code = decodeLen(&d.repLenDec, posState, in, ip, rng, code)
			state = uint32(stateAfterRep[state&15])
		}

		n := int(l) + matchMinLen
		if rest := len(out) - pos; n > rest {
			if full {
				d.store(ip, rng, code, pos, state, rep0, rep1, rep2, rep3)
				return d.fail(ErrCorrupt, ip, fmt.Sprintf("a %d-byte match at output byte %d runs past the declared size %d", n, pos, d.size))
			}
			d.pending = n - rest
			n = rest
		}
		copyMatch(out, pos, int(rep0)+1, n)
		pos += n
	}
	d.store(ip, rng, code, pos, state, rep0, rep1, rep2, rep3)
	if ip > len(in) {
		return d.fail(ErrTruncated, len(in), "input ends inside a symbol")
	}
	return nil
}

// store saves run's local copy of the decoder state.
func (d *Decoder) store(ip int, rng, code uint32, pos int, state, rep0, rep1, rep2, rep3 uint32) {
	d.ip, d.rng, d.code = ip, rng, code
	d.pos = pos
	d.state = state
	d.rep = [4]uint32{rep0, rep1, rep2, rep3}
}

// copyMatch appends n bytes copied from dist bytes back; the ranges overlap
// when dist < n, which repeats the last dist bytes.
func copyMatch(out []byte, pos, dist, n int) {
	src := pos - dist
	if dist >= n {
		copy(out[pos:pos+n], out[src:src+n])
		return
	}
	if dist == 1 {
		// A run of one byte (the commonest overlap).
		b := out[src]
		s := out[pos : pos+n]
		for i := range s {
			s[i] = b
		}
		return
	}
	if n <= 16 {
		for i := range n {
			out[pos+i] = out[src+i]
		}
		return
	}
	for n > 0 {
		// Each copy doubles the repeated run.
		c := copy(out[pos:pos+n], out[src:pos])
		pos += c
		n -= c
	}
}

// endMarker reports whether the input continues with an end marker (a match
// whose distance is all ones), as an encoder that did not know the size
// writes. It is called only after the declared size is reached.
func (d *Decoder) endMarker() bool {
	in := d.in
	ip, rng, code := d.ip, d.rng, d.code
	var b uint32
	posState := d.pos & d.pbMask
	ip, rng, code = norm(in, ip, rng, code)
	rng, code, b = bit(&d.isMatch[(d.state<<posBitsMax|uint32(posState))&(stateRows<<posBitsMax-1)], rng, code)
	if b == 0 {
		return false
	}
	ip, rng, code = norm(in, ip, rng, code)
	rng, code, b = bit(&d.isRep[d.state&15], rng, code)
	if b != 0 {
		return false
	}
	var l, dist uint32
	l, ip, rng, code = decodeLen(&d.lenDec, posState, in, ip, rng, code)
	dist, ip, rng, code = d.decodeDist(l, in, ip, rng, code)
	ip, rng, code = norm(in, ip, rng, code)
	if dist != 0xFFFFFFFF || ip > len(in) || code != 0 {
		return false
	}
	d.ip, d.rng, d.code = ip, rng, code
	return true
}
