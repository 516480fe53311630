package compiled

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// controllerOutline is a reduced AnimatorController layout: the fields a
// blend tree needs, in the order and shape of Unity 2022.3's.
const controllerOutline = `
AnimatorController Base
  string m_Name
    Array Array array align
      int size 4
      char data 1
  ControllerConstant m_Controller
    vector m_LayerArray
      Array Array array
        int size 4
        OffsetPtr data
          LayerConstant data
            UInt32 m_StateMachineIndex 4
            UInt32 m_StateMachineSynchronizedLayerIndex 4
            UInt32 m_Binding 4
            float m_DefaultWeight 4
    vector m_StateMachineArray
      Array Array array
        int size 4
        OffsetPtr data
          StateMachineConstant data
            vector m_StateConstantArray
              Array Array array
                int size 4
                OffsetPtr data
                  StateConstant data
                    vector m_BlendTreeConstantIndexArray
                      Array Array array
                        int size 4
                        int data 4
                    vector m_BlendTreeConstantArray
                      Array Array array
                        int size 4
                        OffsetPtr data
                          BlendTreeConstant data
                            vector m_NodeArray
                              Array Array array
                                int size 4
                                OffsetPtr data
                                  BlendTreeNodeConstant data
                                    UInt32 m_BlendType 4
                                    UInt32 m_BlendEventID 4
                                    UInt32 m_BlendEventYID 4
                                    vector m_ChildIndices
                                      Array Array array
                                        int size 4
                                        UInt32 data 4
                                    OffsetPtr m_Blend1dData
                                      Blend1dDataConstant data
                                        vector m_ChildThresholdArray
                                          Array Array array
                                            int size 4
                                            float data 4
                                    OffsetPtr m_Blend2dData
                                      Blend2dDataConstant data
                                        vector m_ChildPositionArray
                                          Array Array array
                                            int size 4
                                            Vector2f data 8
                                              float x 4
                                              float y 4
                                    OffsetPtr m_BlendDirectData
                                      BlendDirectDataConstant data
                                        vector m_ChildBlendEventIDArray
                                          Array Array array
                                            int size 4
                                            UInt32 data 4
                                        bool m_NormalizedBlendValues 1 align
                                    UInt32 m_ClipID 4
                                    float m_Duration 4
                    UInt32 m_NameID 4
                    UInt32 m_SpeedParamID 4
            UInt32 m_DefaultState 4
            UInt32 m_SynchronizedLayerCount 4
    OffsetPtr m_Values
      ValueArrayConstant data
        vector m_ValueArray
          Array Array array
            int size 4
            ValueConstant data
              UInt32 m_ID 4
              UInt32 m_Type 4
              UInt32 m_Index 4
    OffsetPtr m_DefaultValues
      ValueArray data
        vector m_FloatValues
          Array Array array
            int size 4
            float data 4
  vector m_TOS
    Array Array array
      int size 4
      pair data
        UInt32 first 4
        string second
          Array Array array align
            int size 4
            char data 1
  vector m_AnimationClips
    Array Array array
      int size 4
      PPtr<AnimationClip> data
        int m_FileID 4
        SInt64 m_PathID 8
`

// synthNode is a blend tree node to encode.
type synthNode struct {
	typ, event, eventY uint32
	children           []uint32
	thresholds         []float32
	positions          [][2]float32
	direct             []uint32
	normalized         bool
	clip               uint32
}

// synthController encodes a one-layer, one-state controller whose state
// plays the given blend tree, with float parameters Speed and Blend.
func synthController(nodes []synthNode, speedParam uint32) []byte {
	e := &enc{}
	e.str("synthetic")
	// one layer
	e.u32(1)
	e.u32(0)
	e.u32(0)
	e.u32(model.PathHash("Base Layer"))
	e.f32(1)
	// one state machine, one state, one motion set
	e.u32(1)
	e.u32(1)
	e.u32(1)
	e.u32(0)
	e.u32(1)
	e.u32(uint32(len(nodes)))
	for _, n := range nodes {
		e.u32(n.typ)
		e.u32(n.event)
		e.u32(n.eventY)
		e.u32(uint32(len(n.children)))
		for _, c := range n.children {
			e.u32(c)
		}
		e.u32(uint32(len(n.thresholds)))
		for _, x := range n.thresholds {
			e.f32(x)
		}
		e.u32(uint32(len(n.positions)))
		for _, p := range n.positions {
			e.f32(p[0])
			e.f32(p[1])
		}
		e.u32(uint32(len(n.direct)))
		for _, d := range n.direct {
			e.u32(d)
		}
		b := uint8(0)
		if n.normalized {
			b = 1
		}
		e.u8(b)
		e.align()
		e.u32(n.clip)
		e.f32(1)
	}
	e.u32(model.PathHash("Move"))
	e.u32(speedParam)
	e.u32(0) // default state
	e.u32(1) // motion sets
	// parameters
	e.u32(2)
	for i, name := range []string{"Speed", "Blend"} {
		e.u32(model.PathHash(name))
		e.u32(uint32(model.ParamFloat))
		e.u32(uint32(i))
	}
	e.u32(2)
	e.f32(0.5)
	e.f32(0.25)
	// name table
	names := []string{"Speed", "Blend", "Base Layer", "Move"}
	e.u32(uint32(len(names)))
	for _, n := range names {
		e.u32(model.PathHash(n))
		e.str(n)
	}
	// two clips
	e.u32(2)
	for _, id := range []int64{501, 502} {
		e.u32(0)
		e.i64(id)
	}
	return e.b
}

// TestControllerBlendTrees decodes synthetic controllers with 1D, 2D and
// direct blend trees (the corpus has none) and ones whose trees are broken.
func TestControllerBlendTrees(t *testing.T) {
	tree := buildTree(t, controllerOutline)
	leaf := func(clip uint32) synthNode { return synthNode{event: noneID, eventY: noneID, clip: clip} }
	valid := []synthNode{
		{typ: 0, event: 1, eventY: noneID, children: []uint32{1, 2}, thresholds: []float32{0, 1}, clip: noneID},
		leaf(0),
		{typ: 4, event: noneID, eventY: noneID, children: []uint32{3, 4}, direct: []uint32{0, 1}, normalized: true, clip: noneID},
		leaf(1),
		{typ: 3, event: 0, eventY: 1, children: []uint32{5}, positions: [][2]float32{{0.5, -1}}, clip: noneID},
		leaf(noneID),
	}
	t.Run("valid", func(t *testing.T) {
		v, err := typetree.Decode(tree, synthController(valid, model.PathHash("Speed")), binary.LittleEndian)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Controller(v, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Parameters) != 2 || c.Parameters[1].Name != "Blend" || c.Parameters[1].Default != 0.25 {
			t.Fatalf("parameters %+v", c.Parameters)
		}
		st := c.StateMachines[0].States[0]
		if st.Name != "Move" || st.SpeedParam != 0 || len(st.Motions) != 1 || c.Layers[0].Name != "Base Layer" {
			t.Fatalf("state %+v layer %+v", st, c.Layers[0])
		}
		n := st.Motions[0].Nodes
		switch {
		case n[0].Type != model.Blend1D || n[0].Param != 1 || n[0].ParamY != -1 || len(n[0].Thresholds) != 2 || n[0].Clip != model.NoClip:
			t.Errorf("1D node %+v", n[0])
		case n[1].Clip != 0 || n[3].Clip != 1 || n[5].Clip != model.NoClip:
			t.Errorf("leaves %+v %+v %+v", n[1], n[3], n[5])
		case n[2].Type != model.BlendDirect || !n[2].Normalize || len(n[2].ChildParams) != 2 || n[2].ChildParams[1] != 1:
			t.Errorf("direct node %+v", n[2])
		case n[4].Type != model.Blend2DFreeformCartesian || n[4].Param != 0 || n[4].ParamY != 1 || n[4].Positions[0] != [2]float32{0.5, -1}:
			t.Errorf("2D node %+v", n[4])
		}
	})
	broken := func(mod func(ns []synthNode)) []synthNode {
		ns := append([]synthNode(nil), valid...)
		mod(ns)
		return ns
	}
	tests := []struct {
		name  string
		nodes []synthNode
		speed uint32
	}{
		{"child reached twice", broken(func(ns []synthNode) { ns[2].children = []uint32{1, 3} }), 0},
		{"child past the nodes", broken(func(ns []synthNode) { ns[0].children = []uint32{1, 9} }), 0},
		{"cycle to the root", broken(func(ns []synthNode) { ns[4].children = []uint32{0} }), 0},
		{"parameter index past m_Values", broken(func(ns []synthNode) { ns[0].event = 2 }), 0},
		{"clip index past m_AnimationClips", broken(func(ns []synthNode) { ns[1].clip = 2 }), 0},
		{"thresholds not one per child", broken(func(ns []synthNode) { ns[0].thresholds = []float32{0} }), 0},
		{"nested deeper than MaxBlendTreeDepth", deepTree(MaxBlendTreeDepth + 1), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := typetree.Decode(tree, synthController(tc.nodes, tc.speed), binary.LittleEndian)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Controller(v, "")
			var ce *Error
			if !errors.Is(err, ErrMalformed) || !errors.As(err, &ce) || ce.Field == "" {
				t.Fatalf("err = %v, want a malformed-data error naming its field", err)
			}
			t.Log(err)
		})
	}
}

// deepTree is a chain of 1D blend nodes, each the only child of the one
// before, ending in a clip leaf n levels below the root.
func deepTree(n int) []synthNode {
	var ns []synthNode
	for i := 0; i < n; i++ {
		ns = append(ns, synthNode{event: 0, eventY: noneID, children: []uint32{uint32(i + 1)}, thresholds: []float32{0}, clip: noneID})
	}
	return append(ns, synthNode{event: noneID, eventY: noneID, clip: 0})
}

// TestBlendTreeAtDepthLimit proves a tree exactly MaxBlendTreeDepth deep
// is still accepted.
func TestBlendTreeAtDepthLimit(t *testing.T) {
	v, err := typetree.Decode(buildTree(t, controllerOutline), synthController(deepTree(MaxBlendTreeDepth), 0), binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Controller(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.StateMachines[0].States[0].Motions[0].Nodes); n != MaxBlendTreeDepth+1 {
		t.Fatalf("%d nodes", n)
	}
}
