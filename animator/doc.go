// Package animator runs animator controllers and direct clip playback
// without Unity: blend-tree weights, per-instance state machines over a
// shared compiled controller (parameters, transitions, interruption, layers,
// events, root motion), a Player for code-driven crossfades, a fixed-step
// driver for crowds, and a script runner for the command line.
//
// The controller (*model.Controller) and everything compiled from it are
// shared and never written; an Animator holds only its own small state, so
// thousands of instances can play one controller. Tick allocates nothing.
package animator
