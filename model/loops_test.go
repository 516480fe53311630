package model

import "testing"

// TestClipLoopsByKind: a legacy clip loops by its wrap mode (loop and
// ping-pong), a Mecanim clip by its Loop Time setting alone.
func TestClipLoopsByKind(t *testing.T) {
	for _, tc := range []struct {
		name string
		clip Clip
		want bool
	}{
		{"legacy default", Clip{Legacy: true}, false},
		{"legacy once", Clip{Legacy: true, WrapMode: WrapOnce}, false},
		{"legacy loop", Clip{Legacy: true, WrapMode: WrapLoop}, true},
		{"legacy ping-pong", Clip{Legacy: true, WrapMode: WrapPingPong}, true},
		{"legacy clamp forever", Clip{Legacy: true, WrapMode: WrapClampForever}, false},
		{"legacy ignores loop time", Clip{Legacy: true, Settings: LoopSettings{LoopTime: true}}, false},
		{"mecanim loop time", Clip{Settings: LoopSettings{LoopTime: true}}, true},
		{"mecanim no loop time", Clip{}, false},
		{"mecanim ignores wrap mode", Clip{WrapMode: WrapLoop}, false},
	} {
		if got := tc.clip.Loops(); got != tc.want {
			t.Errorf("%s: Loops() = %v, want %v", tc.name, got, tc.want)
		}
	}
}
