package judge

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// judgeCarried takes each carried value again from the record (the earlier
// call's result, by its path) and holds it to what the runner recorded it
// took and to what the call sent: a record whose values do not follow from
// its own results disagrees with itself, and nothing judged on it stands.
func (j *judge) judgeCarried() {
	for k, c := range j.ev.Calls {
		for _, cv := range c.Carried {
			id := fmt.Sprintf("call.%s[%d].%s.carried%s", c.Phase, c.Index, c.Call.Tool, cv.At)
			refs := []scenarios.Ref{callRef(c)}
			if ph, n, err := scenarios.ParseCallName(cv.From); err == nil {
				refs = append(refs, scenarios.CallRef(ph, n))
			}
			var took any
			_ = json.Unmarshal(cv.Value, &took)
			again, err := scenarios.TakeCarried(cv.From, cv.Path, j.ev.Calls[:k])
			sent, inInput := pointerIn(c.Call.Input, cv.At)
			switch {
			case err != nil:
				j.fail(id, vocab.SrcTrace, vocab.EvidenceDisagrees, took, nil,
					fmt.Sprintf("the record says %s took %s from %s, but its result gives no such value: %v", cv.At, cv.Path, cv.From, err)).at(refs...)
			case !record.JSONEqual(again, took):
				j.fail(id, vocab.SrcTrace, vocab.EvidenceDisagrees, again, took,
					fmt.Sprintf("%s of %s's result is %s, but the record says %s took %s", cv.Path, cv.From, record.CompactJSON(again), cv.At, record.CompactJSON(took))).at(refs...)
			case !inInput || !record.JSONEqual(sent, took):
				j.fail(id, vocab.SrcTrace, vocab.EvidenceDisagrees, took, sent,
					fmt.Sprintf("the call sent %s as %s, not the value it took from %s (%s)", record.CompactJSON(sent), cv.At, cv.From, record.CompactJSON(took))).at(refs...)
			default:
				j.pass(id, vocab.SrcTrace, took, sent, fmt.Sprintf("%s is %s of %s's result", cv.At, cv.Path, cv.From)).at(refs...)
			}
		}
	}
}

// pointerIn reads a JSON pointer in an input.
func pointerIn(input map[string]any, at string) (any, bool) {
	var v any = input
	for _, tok := range strings.Split(strings.TrimPrefix(at, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch cur := v.(type) {
		case map[string]any:
			next, ok := cur[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur) {
				return nil, false
			}
			v = cur[i]
		default:
			return nil, false
		}
	}
	return v, true
}
