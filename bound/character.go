// Package bound holds what the binding stage (package bind) makes of a set
// of inputs, as runtime values: characters (their GameObjects at their
// scene transforms, their avatar, their meshes), motions (a clip bound to a
// character) and controllers (a controller with its clip set, bound to a
// character). Everything that shows, writes or runs a pose (pictures, the
// viewer, glTF export, headless playback) takes these, so every command
// poses a clip the same way, and none of them links a file reader.
//
// Model space, for every consumer: the space of the character's root
// GameObject's parent. The root joint (the Animator's own GameObject, path
// "") carries its own local transform, as the prefab or scene places it,
// animated where a clip animates it; what no curve and no muscle writes
// keeps its scene value.
package bound

import (
	"errors"
	"fmt"
	"sync"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// Character is a character ready to play clips: its GameObjects as a
// skeleton resting at their scene transforms, its avatar, and its meshes
// (decoded on first use). It is immutable and safe for concurrent use.
type Character struct {
	name      string
	src       model.Source
	rig       *model.Rig
	skel      *anim.Skeleton
	avatar    *model.Avatar
	avatarSrc model.Source
	human     *humanoid.Rig
	rootJoint int
	noRig     bool
	ownPaths  bool
	noAvatar  string // why the character has no avatar, when it should

	in CharacterInput

	meshOnce   sync.Once
	loadMeshes func() ([]model.MeshInstance, []error)
	meshes     []model.MeshInstance
	meshErrs   []error
}

// CharacterInput is what NewCharacter builds a character from.
type CharacterInput struct {
	// Name is the character's name (its Animator's GameObject, a prefab's
	// root, an avatar's name).
	Name   string
	Source model.Source
	// Rig is the character's GameObjects with their scene transforms; nil
	// when the inputs hold only its avatar, whose own skeleton at its
	// default pose then stands in (see anim.SkeletonFromAvatar).
	Rig *model.Rig
	// Avatar is the character's avatar (nil: none); AvatarSource where it
	// was read.
	Avatar       *model.Avatar
	AvatarSource model.Source
	// AvatarMissing says why a character whose Animator names an avatar
	// has none (the avatar is in a file not given, or does not decode).
	AvatarMissing string
	// Meshes decodes the meshes drawn on the rig's nodes (nil: none).
	Meshes func() ([]model.MeshInstance, []error)
	// OwnPaths says the rig is made of a clip's own paths
	// (model.RigOfPaths): the inputs hold no character for the clip.
	OwnPaths bool
}

// ErrNoSkeleton is wrapped when a character has neither GameObjects nor an
// avatar to make a skeleton of.
var ErrNoSkeleton = errors.New("bound: no skeleton")

// NewCharacter puts a character together: the skeleton of its rig (or of
// its avatar, without a rig), a humanoid rig over that skeleton when the
// avatar is humanoid, and the joint root motion comes from.
func NewCharacter(in CharacterInput) (*Character, error) {
	c := &Character{name: in.Name, src: in.Source, rig: in.Rig, avatar: in.Avatar, avatarSrc: in.AvatarSource,
		loadMeshes: in.Meshes, noAvatar: in.AvatarMissing, in: in, ownPaths: in.OwnPaths && in.Rig != nil}
	var err error
	switch {
	case in.Rig != nil:
		if c.skel, err = anim.SkeletonFromRig(in.Rig); err != nil {
			return nil, fmt.Errorf("character %q (%s): %w", in.Name, in.Source, err)
		}
	case in.Avatar != nil:
		if c.skel, err = anim.SkeletonFromAvatar(in.Avatar); err != nil {
			return nil, fmt.Errorf("character %q (%s): %w", in.Name, in.Source, err)
		}
		c.rig = rigOfSkeleton(in.Avatar.Name, c.skel)
		c.noRig = true
	default:
		return nil, fmt.Errorf("character %q (%s): %w: no GameObjects and no avatar", in.Name, in.Source, ErrNoSkeleton)
	}
	if in.Avatar != nil && in.Avatar.IsHuman() {
		if c.human, err = humanoid.NewRigOn(in.Avatar, c.skel); err != nil {
			return nil, fmt.Errorf("character %q: avatar %q (%s): %w", in.Name, in.Avatar.Name, in.AvatarSource, err)
		}
	}
	c.rootJoint = rootMotionJoint(in.Avatar, c.skel)
	return c, nil
}

// Input returns what the character was built from (NewCharacter of it
// builds the same character again): how a character is saved and loaded
// without its files. Shared: do not modify.
func (c *Character) Input() CharacterInput { return c.in }

// AvatarMissing says why the character has no avatar though its Animator
// names one (the avatar is not in the inputs, or does not decode); empty
// when it has its avatar or names none.
func (c *Character) AvatarMissing() string { return c.noAvatar }

// rigOfSkeleton makes rig nodes of a skeleton (an avatar's, for a
// character whose GameObjects the inputs lack): each node named by the
// last part of its path, the root by the avatar.
func rigOfSkeleton(name string, s *anim.Skeleton) *model.Rig {
	r := &model.Rig{Name: name, Nodes: make([]model.RigNode, s.Len())}
	for i, p := range s.Paths {
		n := p
		for k := len(p) - 1; k >= 0; k-- {
			if p[k] == '/' {
				n = p[k+1:]
				break
			}
		}
		if i == 0 && p == "" {
			n = name
		}
		r.Nodes[i] = model.RigNode{Name: n, Path: p, Parent: s.Parents[i], Local: s.Rest[i]}
	}
	return r
}

// rootMotionJoint is the joint an Animator takes root motion from, for all
// its clips: its avatar's root motion bone when the avatar names one the
// skeleton has, else its own GameObject (the root, path "").
func rootMotionJoint(av *model.Avatar, s *anim.Skeleton) int {
	if av != nil && av.RootMotionBone >= 0 && av.RootMotionBone < len(av.Skeleton.Nodes) {
		if j, ok := s.IndexHash(av.Skeleton.Nodes[av.RootMotionBone].PathHash); ok {
			return j
		}
	}
	if j, ok := s.Index(""); ok {
		return j
	}
	return 0
}

// Name returns the character's name.
func (c *Character) Name() string { return c.name }

// Source returns where the character was read (its Animator, prefab,
// avatar or file).
func (c *Character) Source() model.Source { return c.src }

// Rig returns the character's GameObjects; node i is joint i of Skeleton.
// Shared: do not modify.
func (c *Character) Rig() *model.Rig { return c.rig }

// Skeleton returns the skeleton clips play on: one joint per rig node,
// resting at its scene transform.
func (c *Character) Skeleton() *anim.Skeleton { return c.skel }

// Avatar returns the character's avatar (nil: none) and where it was read.
func (c *Character) Avatar() (*model.Avatar, model.Source) { return c.avatar, c.avatarSrc }

// Human returns the humanoid rig over the skeleton (nil when the avatar is
// not humanoid).
func (c *Character) Human() *humanoid.Rig { return c.human }

// HumanJoint returns the joint of Skeleton that human bone b moves (where
// a hitbox on the bone goes: the joint's model-space transform is the
// bone's), or -1 when the character is not humanoid or its avatar lacks the
// bone. (humanoid.Rig.HumanNode is the bone's index in the avatar's human
// skeleton, not a joint.)
func (c *Character) HumanJoint(b model.HumanBone) int {
	if c.human == nil {
		return -1
	}
	if j := c.human.AvatarNode(int(b)); j >= 0 && j < c.skel.Len() {
		return j
	}
	return -1
}

// RootMotionJoint returns the joint root motion is taken from.
func (c *Character) RootMotionJoint() int { return c.rootJoint }

// FromAvatar reports that the inputs held no GameObjects for the
// character: its skeleton is its avatar's at its default pose.
func (c *Character) FromAvatar() bool { return c.noRig }

// OwnPaths reports that the character is a clip's own paths made into a
// rig (the inputs hold no character for the clip): its nodes rest at the
// identity, and export writes the curves glTF cannot hold beside it.
func (c *Character) OwnPaths() bool { return c.ownPaths }

// Describe names the character for messages and listings: `rig "X"`,
// `avatar "Y"` or `the paths of clip "Z"`.
func (c *Character) Describe() string {
	if c.ownPaths {
		return fmt.Sprintf("the paths of clip %q", c.name)
	}
	if c.noRig {
		return fmt.Sprintf("avatar %q", c.name)
	}
	return fmt.Sprintf("rig %q", c.name)
}

// Meshes returns the meshes drawn on the character's nodes, decoding them
// on first use, with what could not be decoded.
func (c *Character) Meshes() ([]model.MeshInstance, []error) {
	c.meshOnce.Do(func() {
		if c.loadMeshes != nil {
			c.meshes, c.meshErrs = c.loadMeshes()
		}
	})
	return c.meshes, c.meshErrs
}
