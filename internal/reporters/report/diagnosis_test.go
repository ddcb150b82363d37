package report

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A FAIL's report opens with where the evidence first departs: the link,
// the summary, the chain with each link marked, links to the failing
// checks there, and the open question.
func TestTheReportSaysWhereAFailDeparts(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	ev.States[vocab.PhaseAgent] = &record.Snapshot{Docs: map[string]json.RawMessage{"event": json.RawMessage(`{"seats":6}`)}}
	b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
	d := b.Verdict.Diagnosis
	if b.Verdict.Outcome != vocab.Fail || d == nil || d.Link != vocab.LinkServer {
		t.Fatalf("want a FAIL at the server:\n%s", judge.Explain(b.Verdict))
	}
	k := slices.IndexFunc(b.Verdict.Checks, func(c judge.Check) bool { return c.ID == "state.agent.unchanged" })
	page := string(HTML(b))
	for _, want := range []string{
		`<p><strong class="FAIL">departs at: <code>server</code></strong> — the server departs first: state.agent.unchanged — the state changed: event</p>`,
		// the hand-made trace gives the tool no schema: nothing checked the agent's input
		`<li class="unseen" title="what the agent sent: which tools it called and with what input, as recorded">input · not seen</li>`,
		`<li class="held" title="the browser&#39;s record of the invocations: their lifecycle, and the transcript agreeing with the trace">trace · held</li>`,
		`<li class="unseen" title="the fixed inputs: the prompt and its data">case · not seen</li>`,
		`<li class="departs" title="the app&#39;s own record: its journal, its state, the rules the server holds">server · departs first</li>`,
		`<li class="" title="the agent&#39;s final words">answer</li>`,
		fmt.Sprintf(`<a class="chk fail" href="#check-%d" title="state.agent.unchanged">✗%d state.agent.unchanged</a>`, k+1, k+1),
		`<p class="open">Open: not diagnosed: why the server departs.`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Index(page, `id="diagnosis"`) > strings.Index(page, `id="failed"`) {
		t.Error("the diagnosis comes before the checks that did not pass")
	}
	// A passing record's page has none.
	sc, ev = judgetest.Confirm(t)
	pass := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
	if pass.Verdict.Outcome != vocab.Pass {
		t.Fatalf("the confirm record should pass:\n%s", judge.Explain(pass.Verdict))
	}
	if p := string(HTML(pass)); strings.Contains(p, `id="diagnosis"`) || strings.Contains(p, "departs at") {
		t.Error("a PASS shows a diagnosis")
	}
}

// The summary quotes what a check saw, which the record holds: it is
// escaped like every recorded value.
func TestTheDiagnosisIsEscaped(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	evil := `<script>document.title="pwned"</script>`
	ev.Calls[0].Result.Output = json.RawMessage(`{"code":` + string(mustJSON(evil)) + `}`)
	b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
	if d := b.Verdict.Diagnosis; d == nil || d.Link != vocab.LinkPage || !strings.Contains(d.Summary, "<script>") {
		t.Fatalf("want the page to depart with the hostile value in the summary: %+v", d)
	}
	page := string(HTML(b))
	if m := regexp.MustCompile(`(?i)<script`).FindString(page); m != "" {
		t.Errorf("the page has a script: %s", m)
	}
	want := `<code>page</code></strong> — the page departs first: call.agent[0].prepare.output — /code: expected &#34;CONFIRMATION_REQUIRED&#34;, actual &#34;&lt;script&gt;document.title=\&#34;pwned\&#34;&lt;/script&gt;&#34;</p>`
	if !strings.Contains(page, want) {
		t.Errorf("the page lacks the escaped summary %s", want)
	}
}
