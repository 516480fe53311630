package animator

import "fmt"

// PlayerSnapshot is a Player's whole state: the clips it plays, their
// times and weights, how each fades and the last tick's events. Taken with
// Player.Snapshot and put back with Restore, it serves rollback and lag
// compensation for direct playback as Snapshot does for an Animator. It
// refers to the PlayerClips (shared and immutable), so it holds in the
// process that took it; reuse one to take snapshots without allocating.
type PlayerSnapshot struct {
	states [maxPlayerStates]PlayerState
	n      int
	events []PlayerEvent
}

// Snapshot copies p's whole state into s.
func (p *Player) Snapshot(s *PlayerSnapshot) {
	s.states, s.n = p.states, p.n
	s.events = append(s.events[:0], p.events...)
}

// Restore puts p back in the state s was taken in: ticking it then gives,
// to the bit, what the Player s was taken from gave. It fails, leaving p
// as it was, when a clip of s is not baked on p's skeleton.
func (p *Player) Restore(s *PlayerSnapshot) error {
	if s.n < 0 || s.n > maxPlayerStates {
		return fmt.Errorf("animator: player snapshot holds %d states (at most %d)", s.n, maxPlayerStates)
	}
	for i := 0; i < s.n; i++ {
		c := s.states[i].Clip
		if c == nil || c.Clip == nil || c.Clip.Skeleton() != p.skel {
			return fmt.Errorf("animator: player snapshot: state %d plays a clip not baked on this player's skeleton", i)
		}
	}
	p.states, p.n = s.states, s.n
	p.events = append(p.events[:0], s.events...)
	return nil
}
