package judge

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
)

// One record, one verdict, byte for byte: judged 20 times, and with the
// record shuffled where its order carries no meaning (the keys of every
// JSON document it holds, the catalog's tools, getTools()' answer, the
// state reads the harness made, what a click left out of sight), every
// record of judgetest gives the same bytes. The judge visits maps in Go's
// random order and a schema validator lists its causes in its own: a list
// without an order of its own would show here (one that comes out in
// one of two orders passes 20 tries with odds of one in a million; 50
// tries cost CI 50 s under the race detector for nothing more).
func TestEveryVerdictIsTheSameBytes(t *testing.T) {
	records := map[string]func(testing.TB) (scenarios.Scenario, *scenarios.Evidence){
		"CONF-01": judgetest.Conf01, "CONF-01 content": judgetest.Conf01Content, "confirm": judgetest.Confirm}
	for _, c := range judgetest.KnownBad() {
		records[c.Name] = c.Make
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, make := range records {
		t.Run(name, func(t *testing.T) {
			sc, ev := make(t)
			want := verdictJSON(t, Judge(sc, ev))
			for i := range 20 {
				got := verdictJSON(t, Judge(sc, ev))
				if !bytes.Equal(got, want) {
					t.Fatalf("judging %d gave other bytes:\n%s\n---\n%s", i+1, got, want)
				}
				shuffled := shuffle(t, ev, rng)
				if got := verdictJSON(t, Judge(sc, shuffled)); !bytes.Equal(got, want) {
					t.Fatalf("shuffled record %d gave other bytes:\n%s\n---\n%s", i+1, got, want)
				}
			}
		})
	}
}

// shuffle copies a record with its orders that mean nothing shuffled.
func shuffle(t *testing.T, ev *scenarios.Evidence, rng *rand.Rand) *scenarios.Evidence {
	t.Helper()
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var out scenarios.Evidence
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	doc := func(m json.RawMessage) json.RawMessage {
		if len(m) == 0 {
			return m
		}
		var v any
		if json.Unmarshal(m, &v) != nil {
			return m
		}
		return shuffledJSON(v, rng)
	}
	for i := range out.Catalog {
		out.Catalog[i].InputSchema = doc(out.Catalog[i].InputSchema)
	}
	rng.Shuffle(len(out.Catalog), func(i, j int) { out.Catalog[i], out.Catalog[j] = out.Catalog[j], out.Catalog[i] })
	for i := range out.PageTools {
		out.PageTools[i].InputSchema = doc(out.PageTools[i].InputSchema)
	}
	rng.Shuffle(len(out.PageTools), func(i, j int) { out.PageTools[i], out.PageTools[j] = out.PageTools[j], out.PageTools[i] })
	for i := range out.Trace {
		e := &out.Trace[i]
		e.Input, e.Output = doc(e.Input), doc(e.Output)
		for k := range e.Tools {
			e.Tools[k].InputSchema = doc(e.Tools[k].InputSchema)
		}
	}
	for i := range out.Calls {
		out.Calls[i].Result.Output = doc(out.Calls[i].Result.Output)
	}
	for _, s := range out.States {
		if s == nil {
			continue
		}
		for k := range s.Docs {
			s.Docs[k] = doc(s.Docs[k])
		}
	}
	for i := range out.Direct {
		out.Direct[i].Body = doc(out.Direct[i].Body)
	}
	rng.Shuffle(len(out.ProbeReads), func(i, j int) { out.ProbeReads[i], out.ProbeReads[j] = out.ProbeReads[j], out.ProbeReads[i] })
	for i := range out.Reviews {
		h := out.Reviews[i].SeenHidden
		rng.Shuffle(len(h), func(a, b int) { h[a], h[b] = h[b], h[a] })
	}
	return &out
}

// shuffledJSON writes v with every object's keys in a random order.
func shuffledJSON(v any, rng *rand.Rand) json.RawMessage {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		var b bytes.Buffer
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(shuffledJSON(x[k], rng))
		}
		b.WriteByte('}')
		return b.Bytes()
	case []any:
		var b bytes.Buffer
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(shuffledJSON(e, rng))
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	return record.CompactJSON(v)
}
