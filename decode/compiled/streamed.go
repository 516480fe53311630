package compiled

import (
	"math"

	"github.com/mecanim/mecanim/model"
)

// StreamedBlock is a Mecanim streamed block split into per-curve segments.
type StreamedBlock struct {
	// Curves holds the segments of curves 0..curveCount-1, in time order.
	// All slices share one backing array.
	Curves [][]model.Segment
	// Past holds the segments of keys whose curve index is at or past the
	// block's curve count, by index (see the spec: such keys occur in real
	// files; they are kept, never dropped).
	Past map[int][]model.Segment
	// KeysPast counts those keys.
	KeysPast int
	// Frames is the number of frames, the initial and the +Inf ones included.
	Frames int
}

// streamedKeyWords is the size of one key: index, then 4 coefficients.
const streamedKeyWords = 5

// DecodeStreamed splits the words of m_StreamedClip.data into the segments
// of curveCount curves. Each frame is a time (f32), a key count (i32) and
// that many keys of an index (i32) and four coefficients (f32). The frames'
// times must not go backwards and the last frame must be at +Inf with no
// keys; a key with a negative index is an error, one at or past curveCount
// is kept in Past and counted.
func DecodeStreamed(words []uint32, curveCount int) (*StreamedBlock, error) {
	if curveCount < 0 || curveCount > len(words) {
		return nil, errf(ErrMalformed, "curve count %d for %d words of streamed data", curveCount, len(words))
	}
	b := &StreamedBlock{}
	if len(words) == 0 {
		b.Curves = make([][]model.Segment, curveCount)
		return b, nil
	}
	counts := make([]int32, curveCount)
	var pastCounts map[int]int
	total := 0
	// Pass 1: validate and count keys per curve.
	prev := float32(math.Inf(-1))
	pos := 0
	ended := false
	for pos < len(words) {
		if ended {
			return nil, errf(ErrMalformed, "streamed data continues after the +Inf frame at word %d", pos)
		}
		if len(words)-pos < 2 {
			return nil, errf(ErrMalformed, "streamed frame header at word %d cut short", pos)
		}
		t := math.Float32frombits(words[pos])
		n := int32(words[pos+1])
		if t != t {
			return nil, errf(ErrMalformed, "streamed frame at word %d has time NaN", pos)
		}
		if t < prev {
			return nil, errf(ErrMalformed, "streamed frame at word %d goes back in time (%g after %g)", pos, t, prev)
		}
		prev = t
		if n < 0 || int64(n)*streamedKeyWords > int64(len(words)-pos-2) {
			return nil, errf(ErrMalformed, "streamed frame at word %d claims %d keys, %d words remain", pos, n, len(words)-pos-2)
		}
		pos += 2
		for k := int32(0); k < n; k++ {
			idx := int32(words[pos])
			switch {
			case idx < 0:
				return nil, errf(ErrMalformed, "streamed key at word %d has curve index %d", pos, idx)
			case int(idx) >= curveCount:
				if pastCounts == nil {
					pastCounts = make(map[int]int)
				}
				pastCounts[int(idx)]++
				b.KeysPast++
			default:
				counts[idx]++
				total++
			}
			pos += streamedKeyWords
		}
		b.Frames++
		if math.IsInf(float64(t), 1) {
			if n != 0 {
				return nil, errf(ErrMalformed, "streamed +Inf frame has %d keys", n)
			}
			ended = true
		}
	}
	if !ended {
		return nil, errf(ErrMalformed, "streamed data does not end with a +Inf frame")
	}
	// Pass 2: fill one backing array.
	backing := make([]model.Segment, total)
	b.Curves = make([][]model.Segment, curveCount)
	off := 0
	for i, c := range counts {
		b.Curves[i] = backing[off : off : off+int(c)]
		off += int(c)
	}
	if pastCounts != nil {
		b.Past = make(map[int][]model.Segment, len(pastCounts))
		for idx, c := range pastCounts {
			b.Past[idx] = make([]model.Segment, 0, c)
		}
	}
	pos = 0
	for pos < len(words) {
		t := math.Float32frombits(words[pos])
		n := int(int32(words[pos+1]))
		pos += 2
		for k := 0; k < n; k++ {
			idx := int(int32(words[pos]))
			s := model.Segment{Time: t, C: [4]float32{
				math.Float32frombits(words[pos+1]), math.Float32frombits(words[pos+2]),
				math.Float32frombits(words[pos+3]), math.Float32frombits(words[pos+4]),
			}}
			if idx < curveCount {
				b.Curves[idx] = append(b.Curves[idx], s)
			} else {
				b.Past[idx] = append(b.Past[idx], s)
			}
			pos += streamedKeyWords
		}
	}
	return b, nil
}
