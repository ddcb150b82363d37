package laps

import (
	"context"
	"testing"
)

func TestAStageTimedTwiceIsSummedWhereItFirstEnded(t *testing.T) {
	ctx, w := Start(context.Background())
	Mark(ctx, "a")
	Mark(ctx, "b")
	Mark(ctx, "a")
	got := w.Laps()
	if len(got) != 2 || got[0].Stage != "a" || got[1].Stage != "b" {
		t.Fatalf("laps %v, want a then b", got)
	}
	var sum int64
	for _, l := range w.laps {
		sum += int64(l.Took)
	}
	if int64(got[0].Took+got[1].Took) != sum {
		t.Fatalf("the summed laps %v lose time: %d of %d", got, got[0].Took+got[1].Took, sum)
	}
}

func TestAContextWithoutAWatchIsLeftAlone(t *testing.T) {
	Mark(context.Background(), "a") // no panic, nothing to record
	ctx, w := Start(context.Background())
	Mark(context.WithoutCancel(ctx), "kept") // carried through derived contexts
	if len(w.Laps()) != 1 {
		t.Fatalf("a derived context's mark was lost: %v", w.Laps())
	}
}
