package main

import (
	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

func extraHumanCases(mc *model.Clip, rig *humanoid.Rig, sk *anim.Skeleton) []*bcase { return nil }
