package main

import (
	"fmt"
	"runtime"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// extraHumanCases: Dab baked to bones on the same rig (humanoid.Bones).
func extraHumanCases(mc *model.Clip, rig *humanoid.Rig, sk *anim.Skeleton) []*bcase {
	b, err := humanoid.BakeBones(mc, rig)
	check(err)
	bh := retained(func() any { b, _ := humanoid.BakeBones(mc, rig); return b })
	st := b.Stats()
	info := fmt.Sprintf("joints=%d keys=%d key_count=%d channels=%d unresolved=%d unresolved_time=%.4f stats_bytes=%d bake_heap_bytes=%d fit_max_deg=%.4f fit_max_t=%.2e model_bound=%.4f",
		sk.Len(), st.Keys, st.KeyCount, st.Channels, st.Unresolved, st.UnresolvedTime, st.Bytes, bh, st.MaxErrorDeg, st.MaxErrorT, st.ModelBound)
	runtime.KeepAlive(mc)
	return []*bcase{{"dab_bones", sk, b, b.Duration(), names(sk), info}}
}
