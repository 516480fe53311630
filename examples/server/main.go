// Command server is an example game server's animation loop: N characters,
// each with its own Animator over one shared controller, ticked at 60 Hz on
// every core; each tick places hitboxes on bones in the world, records the
// characters' states for lag compensation, answers shots by rewinding the
// target to the tick the shooter saw, and every second snapshots the whole
// world (as a server does to move characters or roll back).
//
// It loads what it plays from a file saved with boundfile, or binds it
// from Unity files and saves that file first:
//
//	server -bundle modassets -character ExampleEnemyModel -save enemy.bound
//	server -assets enemy.bound -n 10000 -seconds 5
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"slices"
	"time"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/boundfile"
	"github.com/mecanim/mecanim/geom"
)

func main() {
	assets := flag.String("assets", "", "a file saved with boundfile (or with -save)")
	bundle := flag.String("bundle", "", "Unity files to bind the character's controller from")
	character := flag.String("character", "", "the character in -bundle (name or CAB-…#PATHID)")
	save := flag.String("save", "", "with -bundle: save what was bound here, to load with -assets")
	n := flag.Int("n", 1000, "characters")
	workers := flag.Int("workers", 0, "worker goroutines (0: one per core)")
	seconds := flag.Float64("seconds", 5, "seconds of game time to run")
	flag.Parse()
	// Loading stops at an interrupt (between files, between clips).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, *assets, *bundle, *character, *save, *n, *workers, *seconds)
	stop()
	if err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, assets, bundle, character, save string, n, workers int, seconds float64) error {
	ctl, err := load(ctx, assets, bundle, character, save)
	if err != nil {
		return err
	}
	w, err := NewWorld(ctl, n, workers)
	if err != nil {
		return err
	}
	defer w.Close()
	ticks := int(seconds * Rate)
	hit := make([]geom.Vec3, len(w.Hitboxes(0)))
	var snap []byte
	var busy time.Duration
	took := make([]time.Duration, 0, ticks)
	start := time.Now()
	for t := 0; t < ticks; t++ {
		begin := time.Now()
		w.Tick()
		// A shot from a client 100 ms behind, at a character.
		if now := w.Now(); now > Rate/10 {
			if err := w.Rewind(t%n, now-Rate/10, hit); err != nil {
				return err
			}
		}
		if t%Rate == Rate-1 {
			if snap, err = w.Snapshot(snap[:0]); err != nil {
				return err
			}
		}
		d := time.Since(begin)
		busy += d
		took = append(took, d)
		if sleep := time.Duration(t+1)*time.Second/Rate - time.Since(start); sleep > 0 {
			time.Sleep(sleep)
		}
	}
	if ticks == 0 {
		return nil
	}
	per := busy / time.Duration(ticks)
	slices.Sort(took)
	at := func(q float64) time.Duration { return took[min(len(took)-1, int(q*float64(len(took))))] }
	fmt.Printf("%d characters of %q, %d ticks at %d Hz on %d workers: %v a tick on average, %.0f%% of the %v budget "+
		"(median %v, 99th percentile %v, worst %v); snapshot %d KiB\n",
		n, ctl.Model().Name, ticks, Rate, w.workers.Len(), per, 100*float64(per)/float64(time.Second/Rate), time.Second/Rate,
		at(0.5), at(0.99), took[len(took)-1], len(snap)/1024)
	return nil
}

// load reads the saved file, or binds the character's controller from the
// Unity files (and saves it when asked).
func load(ctx context.Context, assets, bundle, character, save string) (*bound.Controller, error) {
	var a boundfile.Assets
	switch {
	case assets != "":
		var err error
		if a, err = boundfile.ReadFile(ctx, assets); err != nil {
			return nil, err
		}
	case bundle != "":
		set, err := bind.Open(ctx, []string{bundle}, bind.Options{})
		if err != nil {
			if set != nil {
				set.Close()
			}
			return nil, err
		}
		defer set.Close()
		ci, err := set.FindCharacter(character)
		if err != nil {
			return nil, err
		}
		ch, err := set.Character(ctx, ci)
		if err != nil {
			return nil, err
		}
		k, ok := set.CharacterController(ci)
		if !ok {
			return nil, fmt.Errorf("%s: the Animator of %q plays no controller of the bundle", bundle, character)
		}
		ctl, err := set.BindController(ctx, k, ch)
		if err != nil {
			return nil, err
		}
		a.Controllers = append(a.Controllers, ctl)
		if save != "" {
			if err := boundfile.WriteFile(save, a); err != nil {
				return nil, err
			}
		}
	default:
		return nil, errors.New("give -assets FILE, or -bundle FILES -character NAME")
	}
	for _, c := range a.Controllers {
		if c.On() != nil {
			return c, nil
		}
	}
	return nil, errors.New("no controller in the file plays on a character")
}
