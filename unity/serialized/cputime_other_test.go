//go:build !unix

package serialized

import (
	"testing"
	"time"
)

func processCPU() time.Duration { return 0 }

func reportCPU(*testing.B, time.Duration) {}
