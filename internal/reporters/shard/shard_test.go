package shard

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseTakesKOfNAndRefusesTheRest(t *testing.T) {
	for in, want := range map[string]Shard{"": {}, "1/1": {1, 1}, "2/3": {2, 3}, " 3/3 ": {3, 3}} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1", "0/2", "3/2", "-1/2", "1/0", "a/b", "1/2/3", "1/-2", "/2"} {
		if s, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, s)
		} else if !strings.Contains(err.Error(), in) {
			t.Errorf("Parse(%q): the error %q does not name the input", in, err)
		}
	}
}

// The hash is pinned: a spec must not move to another shard between
// releases, or two machines of one CI run on different commits would skip
// or repeat specs. The values are also what a script gets from the first 8
// bytes of SHA-256 (e.g. Python: int.from_bytes(sha256(id).digest()[:8],
// "big") % n + 1). Changing them is changing every user's shards.
func TestOfIsPinned(t *testing.T) {
	got := fmt.Sprint(Of("CONF-01.attempt-1", 2), Of("CONF-01.attempt-2", 2), Of("CONF-01.attempt-3", 2), Of("AMB-01", 3), Of("list-full", 5), Of("", 7))
	if want := "1 2 2 1 5 2"; got != want {
		t.Errorf("shards of the pinned IDs: %s, want %s", got, want)
	}
}

// Every ID is in exactly one shard of N, the shards together hold every ID,
// and no shard is left far behind by the hash.
func TestShardsPartitionTheIDs(t *testing.T) {
	ids := make([]string, 2000)
	for i := range ids {
		ids[i] = fmt.Sprintf("SPEC-%04d", i)
	}
	for n := 1; n <= 7; n++ {
		count := make([]int, n+1)
		for _, id := range ids {
			in := 0
			for k := 1; k <= n; k++ {
				if (Shard{k, n}).Has(id) {
					in++
					count[k]++
				}
			}
			if in != 1 {
				t.Fatalf("%s is in %d of %d shards", id, in, n)
			}
		}
		for k := 1; k <= n; k++ {
			if fair := len(ids) / n; count[k] < fair*8/10 {
				t.Errorf("shard %d/%d holds %d of %d IDs", k, n, count[k], len(ids))
			}
		}
	}
	if !(Shard{}).Has("anything") {
		t.Error("the whole run does not hold an ID")
	}
}

func TestRunIDNamesTheShardOnce(t *testing.T) {
	s := Shard{2, 3}
	for in, want := range map[string]string{"r1": "r1.2-of-3", "r1.2-of-3": "r1.2-of-3"} {
		if got := RunID(in, s); got != want {
			t.Errorf("RunID(%q) = %q, want %q", in, got, want)
		}
	}
	if got := RunID("r1", Shard{}); got != "r1" {
		t.Errorf("the whole run's id became %q", got)
	}
	if got := Base("r1.2-of-3", s); got != "r1" {
		t.Errorf("Base = %q", got)
	}
}
