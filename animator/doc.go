// Package animator runs animator controllers and direct clip playback
// without Unity: blend-tree weights, per-instance state machines over a
// shared compiled controller (parameters, transitions, interruption, layers,
// events, root motion), a Poser and a HumanPoser that turn layers into a
// pose, a Player for code-driven crossfades, a fixed-step Driver for crowds,
// and a script runner for the command line.
//
// The controller (*model.Controller) and the Definition compiled from it
// are shared and never written; an Animator holds only its own small state
// (parameter values and per layer two state slots, a frozen interrupted
// blend and the transition's progress), so thousands of instances can play
// one controller. Tick allocates nothing. That state is a value: Snapshot
// and Restore copy it whole, MarshalBinary and UnmarshalBinary encode it
// (versioned, checksummed), and a History keeps the last ticks' snapshots
// for rewinding (lag compensation) without touching the live Animator.
//
// # Semantics
//
// Where the spec or Unity's manual states a rule it is followed: blend
// weights (1D, direct normalised only above a sum of 1, cartesian gradient
// bands, polar gradient bands for both directional kinds), state time
// (speed × speed parameter, cycle offset as a fraction of the clip, a
// blend tree's length the weighted length of its clips), destinations
// (below 30,000 a state, 30,000+n selector n, 0xFFFFFFFF nothing), exit
// times (below 1 checked on every loop, from 1 once), fixed or normalised
// durations, offsets, interruption sources with ordered interruption,
// Can Transition To Self, synced layers and their Timing option. Choices
// made where the engine's behaviour has not been measured:
//
//   - A tick advances every state first, then evaluates transitions on the
//     times reached (an exit time is crossed when it lies in (before, now];
//     not at the time a state was entered at, which Unity documents: an
//     exit time of 0 never fires on the first frame); at most one transition per
//     layer fires per tick, any-state transitions first (also during a
//     transition), then the current state's, or during a transition those
//     its interruption source allows. A destination starts at its offset at
//     the end of the tick that fired it.
//   - A trigger stays set until a transition uses it; triggers used in a
//     tick are cleared when the tick ends, so every layer sees a trigger set
//     before the tick (ExampleEnemyAnimator's KillEnemy drives three
//     layers' any-state transitions at once).
//   - A transition with neither conditions nor exit time never fires; a
//     selector with no passing transition leads to the machine's default
//     state; a state with no clip is one second long; a zero-length clip
//     lasts one frame; a clip loops by its Loop Time setting alone (a
//     legacy wrap mode loops only in the Player).
//   - Root motion: a layer takes it only from its clips that move the root
//     (animate the root motion joint; a humanoid clip's body), weighed by
//     its skeleton mask's weight of that joint (body motion is not masked);
//     an override layer replaces the motion below by its weight times the
//     share those clips cover, so one whose clips leave the root alone
//     keeps the motion below.
//   - An interrupted transition's blend is frozen (up to four states; more
//     drop the lightest) and is the new transition's source; the state whose
//     transition interrupted becomes the current state.
//   - Events fire for clips of weight > 0 in (before, now] of their clip
//     time (a state just entered includes its start); a clip's weight for
//     this is the larger of its weights at the tick's start and end, so a
//     destination fading in fires its first tick's events; a looping clip's
//     event at its length counts as at 0; at most four loops are scanned
//     per tick.
//   - Negative or NaN direct blend values play nothing. The base layer plays
//     at weight 1 whatever its stored weight.
//   - Poses: Poser blends any clips in local-transform space with
//     skeleton masks; HumanPoser blends humanoid clips in muscle space with
//     the layers' body masks (model.HumanMask: a layer changes only the
//     body parts its mask sets; the base layer leaves the others at the
//     zero pose), mirrors mirrored states left for right (a mapping
//     inferred from the muscles' definitions) and blends the clips'
//     non-human Transform curves as Poser does. A layer changes only what
//     its clips animate, and blends in by its clips' weight sum where that
//     is below 1 (a fade into a state without a clip fades the layer out).
//   - Mirror applies to humanoid clips only, as in Unity: their pose and
//     body motion are mirrored (x and the turn about y change sign); a
//     generic clip in a mirrored state plays as it is.
//   - Write Defaults (model.State.WriteDefaults): a clip of a state with it
//     on also writes the default value (rest pose) of every property some
//     clip of the controller animates and it does not (VRChat's
//     documentation of Unity's rule: "on a controller-wide basis"); a state
//     without a clip writes nothing either way. Not measured against the
//     engine; root motion does not take part (a clip that leaves the root
//     alone leaves the motion below, Write Defaults or not).
//   - Foot IK is not solved inside Pose (it costs far more than a pose):
//     HumanPoser.FootIK gives the weight the states ask for, and
//     humanoid.Rig.SolveFeet solves it on the pose. Not done: IK passes
//     (OnAnimatorIK scripts) and state machine behaviours.
//
// Results are bit-identical for the same inputs on the same build and
// platform (no maps are iterated, no goroutines, float32 arithmetic);
// compilers that fuse multiply-adds may differ across architectures.
package animator
