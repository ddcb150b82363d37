package judge

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Diagnosis locates a FAIL on the recorded chain (vocab.Chain): the first
// link where the evidence departs from what the scenario expects. It says
// where, never why (docs/decisions/2026-11-30-diagnosis.md).
type Diagnosis struct {
	// Link is the first link of the chain with a failing check.
	Link vocab.Link `json:"link"`
	// Checks are the IDs of the failing checks at that link, in the
	// verdict's order.
	Checks []string `json:"checks"`
	// Summary says in one line where the evidence first departs.
	Summary string `json:"summary"`
	// Held are the links before it with passing checks.
	Held []vocab.Link `json:"held"`
	// Unseen are the links before it with no check, or only inconclusive
	// ones: the cause may lie there, and the record cannot say.
	Unseen []vocab.Link `json:"unseen"`
	// Later are the links after it that also depart: consequences of the
	// first departure or faults of their own, not told apart.
	Later []vocab.Link `json:"later"`
	// Open says what the record cannot tell: always the cause.
	Open string `json:"open"`
}

// summaryLimit is how many characters of a check's detail a summary keeps.
const summaryLimit = 200

// diagnose places every check on the chain and finds the first link with a
// failing one; nil when no check failed. It reads the checks alone, in
// their order, so the same checks always give the same diagnosis.
func diagnose(checks []Check) *Diagnosis {
	n := len(vocab.Chain)
	passed, failed := make([]bool, n), make([][]Check, n)
	for _, c := range checks {
		i := CheckLink(c).Index()
		if i < 0 {
			continue // a source that is not one: the vocab test keeps every real one placed
		}
		switch c.Status {
		case vocab.CheckPass:
			passed[i] = true
		case vocab.CheckFail:
			failed[i] = append(failed[i], c)
		}
	}
	first := -1
	for i := range n {
		if len(failed[i]) > 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return nil
	}
	d := &Diagnosis{Link: vocab.Chain[first].Link, Checks: []string{}, Held: []vocab.Link{}, Unseen: []vocab.Link{}, Later: []vocab.Link{}}
	for _, c := range failed[first] {
		d.Checks = append(d.Checks, c.ID)
	}
	for i := range first {
		if passed[i] {
			d.Held = append(d.Held, vocab.Chain[i].Link)
		} else {
			d.Unseen = append(d.Unseen, vocab.Chain[i].Link)
		}
	}
	for i := first + 1; i < n; i++ {
		if len(failed[i]) > 0 {
			d.Later = append(d.Later, vocab.Chain[i].Link)
		}
	}
	d.Summary = summary(d.Link, failed[first])
	d.Open = openQuestion(d)
	return d
}

// CheckLink places a check on the chain. A check that did not pass is
// placed by its code and source (vocab.LinkOf). A passing check has no
// code, so its source places it, except for the trace's checks, which are
// about three links: the agent's calls and their inputs (calls.…, and
// call.….input) are the agent's input; the answer of a call (its status,
// output or error) is the page's; the rest (the trace agreeing with the
// calls) is the trace's.
func CheckLink(c Check) vocab.Link {
	if c.Code != "" || c.Source != vocab.SrcTrace {
		return vocab.LinkOf(c.Code, c.Source)
	}
	switch {
	case strings.HasPrefix(c.ID, "calls."):
		return vocab.LinkInput
	case strings.HasPrefix(c.ID, "call.") && strings.HasSuffix(c.ID, ".input"):
		return vocab.LinkInput
	case strings.HasPrefix(c.ID, "call."):
		return vocab.LinkPage
	}
	return vocab.LinkOf("", c.Source)
}

// summary words the first departure: the link, its first failing check
// and what that check saw (its first difference, else its message).
func summary(l vocab.Link, failed []Check) string {
	c := failed[0]
	detail := oneLine(c.Message)
	if len(c.Differences) > 0 {
		detail = record.DiffText(c.Differences, 1)
	}
	if r := []rune(detail); len(r) > summaryLimit {
		detail = string(r[:summaryLimit]) + "…"
	}
	s := fmt.Sprintf("the %s departs first: %s", l, c.ID)
	if detail != "" {
		s += " — " + detail
	}
	if more := len(failed) - 1; more > 0 {
		s += fmt.Sprintf(" (and %d more failing check(s) there)", more)
	}
	return s
}

// openQuestion says what the record cannot tell about the departure.
func openQuestion(d *Diagnosis) string {
	var b strings.Builder
	if d.Link == vocab.LinkInput {
		b.WriteString("not diagnosed: why the agent sent this input. The record holds the call as the browser received it; " +
			"the model's generation and whatever carried its call to the browser were not observed, so the record cannot say where before the browser it went wrong.")
	} else {
		fmt.Fprintf(&b, "not diagnosed: why the %s departs. The record shows where the evidence first departs, not what caused it.", d.Link)
	}
	if len(d.Unseen) > 0 {
		fmt.Fprintf(&b, " Nothing conclusive was checked at %s: the cause may lie there too.", joinLinks(d.Unseen))
	}
	if len(d.Later) > 0 {
		fmt.Fprintf(&b, " The later departures (%s) may follow from this one or be faults of their own: the record does not tell them apart.", joinLinks(d.Later))
	}
	return b.String()
}

func joinLinks(ls []vocab.Link) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = string(l)
	}
	return strings.Join(s, ", ")
}

func orNone(ls []vocab.Link) string {
	if len(ls) == 0 {
		return "none"
	}
	return joinLinks(ls)
}
