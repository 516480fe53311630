//go:build race

package main

// raceEnabled: the race detector slows the corpus sweeps down tenfold;
// they take a smaller share of the corpus under it.
const raceEnabled = true
