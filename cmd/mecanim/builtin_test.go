package main

import (
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// TestCommandsGiveTheSameAnswersWithBuiltinLayouts reads corpus files the
// way stripped game files are read (built-in layouts instead of the
// embedded type trees) and expects every command's output unchanged.
func TestCommandsGiveTheSameAnswersWithBuiltinLayouts(t *testing.T) {
	enemy := corpustest.Path(t, "lc-example-enemy/modassets")
	emotes := corpustest.Path(t, "lethal-emotes/customemotespackage")
	morb := corpustest.Path(t, "plateup-emotes/morbman")
	sekai := corpustest.Path(t, "sekai/ladies_s_31_0001")
	cases := [][]string{
		{"ls", "--json", enemy},
		{"ls", "--json", sekai},
		{"clips", "--json", enemy, emotes},
		{"sample", enemy, "--clip", "walkCycle", "--rate", "12", "--json"},
		{"sample", emotes, "--clip", "Join", "--rate", "5", "--json"},
		{"avatar", "--json", morb, sekai},
		{"controller", "--json", enemy, morb},
		{"pose", emotes, "--clip", "Floss", "--avatar", "bandit1Avatar", "--at", "0.3", "--json"},
		{"dump", enemy, "--name", "HeadBop", "--type", "AnimationClip"},
	}
	for _, c := range cases {
		a, errA, codeA := runCLI(c...)
		b, errB, codeB := runCLI(append(append([]string{}, c...), "--layouts", "builtin")...)
		if codeA != exitOK || codeB != exitOK {
			t.Errorf("%v: exit %d (%s) / builtin %d (%s)", c, codeA, errA, codeB, errB)
			continue
		}
		if a != b {
			t.Errorf("%v: output differs with --layouts builtin", c)
		}
	}
}
