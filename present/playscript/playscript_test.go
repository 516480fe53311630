package playscript

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/model"
)

// fighter is a controller of three states: Idle goes to Move when Speed
// rises above 0.1 and back below it; Attack (a clip with an event at 0.4 s)
// is entered from either on the trigger Attack and returns to Idle at its
// end. Its clips last 2, 0.8 and 1.2 s.
func fighter(t *testing.T) *animator.Animator {
	t.Helper()
	params := []model.Parameter{
		{Name: "Speed", Hash: model.PathHash("Speed"), Type: model.ParamFloat},
		{Name: "Attack", Hash: model.PathHash("Attack"), Type: model.ParamTrigger},
	}
	state := func(name string, clip int, ts ...model.Transition) model.State {
		return model.State{Name: name, NameHash: model.PathHash(name), Speed: 1, SpeedParam: -1, MirrorParam: -1,
			CycleOffsetParam: -1, TimeParam: -1, Transitions: ts,
			Motions: []model.BlendTree{{Nodes: []model.BlendNode{{Clip: clip, Param: -1, ParamY: -1}}}}}
	}
	to := func(dst int, cs ...model.Condition) model.Transition {
		return model.Transition{Destination: uint32(dst), Conditions: cs, Duration: 0.1, HasFixedDuration: true}
	}
	attack := to(2, model.Condition{Mode: model.CondIf, Param: 1})
	back := to(0)
	back.HasExitTime, back.ExitTime = true, 0.9
	c := &model.Controller{Name: "fighter", Parameters: params,
		Layers: []model.Layer{{Name: "Base", Weight: 1, SyncedLayer: -1}},
		StateMachines: []model.StateMachine{{States: []model.State{
			state("Idle", 0, to(1, model.Condition{Mode: model.CondGreater, Param: 0, Threshold: 0.1}), attack),
			state("Move", 1, to(0, model.Condition{Mode: model.CondLess, Param: 0, Threshold: 0.1}), attack),
			state("Attack", 2, back),
		}}},
		Clips:     []model.Ref{{PathID: 1}, {PathID: 2}, {PathID: 3}},
		ClipNames: []string{"idle", "move", "attack"},
	}
	clips := animator.TimingClips([]*model.Clip{
		{Name: "idle", Stop: 2, Settings: model.LoopSettings{LoopTime: true}},
		{Name: "move", Stop: 0.8, Settings: model.LoopSettings{LoopTime: true}},
		{Name: "attack", Stop: 1.2, Events: []model.Event{{Time: 0.4, Function: "Hit"}}},
	})
	a, err := animator.New(c, clips)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

const script = `{"duration": 3, "events": [
 {"at": 0.5, "set": {"Speed": 1}},
 {"at": 1.0, "trigger": "Attack"},
 {"at": 2.5, "play": "Move", "fade": 0}]}`

func run(t *testing.T, src string) []Record {
	t.Helper()
	s, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Run(fighter(t), s, 60)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestRunIsDeterministic(t *testing.T) {
	a, _ := json.Marshal(run(t, script))
	b, _ := json.Marshal(run(t, script))
	if !bytes.Equal(a, b) {
		t.Fatal("two runs of the same script differ")
	}
}

func TestRunFollowsTheScript(t *testing.T) {
	recs := run(t, script)
	if len(recs) != 180 {
		t.Fatalf("%d records for 3 s at 60 Hz", len(recs))
	}
	at := func(sec float64) LayerRecord { return recs[int(sec*60+0.5)-1].Layers[0] }
	if l := at(0.5); l.State != "Idle" || l.Next != "" {
		t.Errorf("0.5 s, before the set applies: %+v", l)
	}
	if l := at(0.5 + 1.0/60); l.Next != "Move" {
		t.Errorf("just after Speed was set: %+v", l)
	}
	if l := at(1.0 + 1.0/60); l.Next != "Attack" {
		t.Errorf("just after the trigger: %+v", l)
	}
	hits := 0
	for _, r := range recs {
		for _, e := range r.Events {
			if e.Function == "Hit" && e.State == "Attack" && e.ClipName == "attack" {
				hits++
			}
		}
	}
	if hits != 1 {
		t.Errorf("%d Hit events, want 1", hits)
	}
	if l := at(2.5 + 1.0/60); l.State != "Move" || l.Next != "" {
		t.Errorf("after play Move: %+v", l)
	}
}

func TestParseRejectsBadScripts(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"negative duration", `{"duration": -1}`, "duration"},
		{"event before the start", `{"duration": 1, "events": [{"at": -2}]}`, `"at"`},
		{"negative fade", `{"duration": 1, "events": [{"at": 0, "play": "A", "fade": -1}]}`, `"fade"`},
		{"broken JSON", `{"duration": 1`, "unexpected EOF"},
		{"wrong type", `{"duration": "x"}`, `line 1, column 2: "duration" is string`},
		{"unknown top key", "{\"duration\": 1,\n \"evnts\": []}", `line 2, column 2: unknown key "evnts"`},
		{"unknown event key", `{"duration": 1, "events": [{"at": 0, "sett": {}}]}`, `line 1, column 38: unknown key "sett"`},
		{"data after the object", `{"duration": 1} {}`, "after"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if !errors.Is(err, ErrScript) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrScript saying %q", err, tc.want)
			}
		})
	}
}

func TestRunRejectsWhatTheControllerLacks(t *testing.T) {
	for _, sc := range []string{
		`{"duration": 1, "events": [{"at": 0, "set": {"Nope": 1}}]}`,
		`{"duration": 1, "events": [{"at": 0, "trigger": "Speed"}]}`,
		`{"duration": 1, "events": [{"at": 0, "set": {"Speed": "fast"}}]}`,
		`{"duration": 1, "events": [{"at": 0, "play": "Nowhere"}]}`,
		`{"duration": 1e9}`,
	} {
		s, err := Parse([]byte(sc))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(fighter(t), s, 60); err == nil {
			t.Errorf("ran %s", sc)
		}
	}
}
