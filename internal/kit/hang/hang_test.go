package hang

import (
	"testing"
	"time"
)

// The bound stays far above the slowest wait measured on a busy machine
// (10.6 s) and under go test's default timeout, which would otherwise
// fail the whole binary before the test could say what it waited for.
func TestTheBoundIsAHangsNotASpeeds(t *testing.T) {
	if Bound < 5*11*time.Second || Bound >= 10*time.Minute {
		t.Errorf("Bound %v: want it at least five times the slowest busy wait measured and under go test's timeout", Bound)
	}
}
