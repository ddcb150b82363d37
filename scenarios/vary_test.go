package scenarios

import (
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios/vocab"
)

func TestEachWayVariesAValueAsServersNormaliseIt(t *testing.T) {
	for _, c := range []struct {
		way      vocab.Variation
		in, want string
	}{
		{vocab.VaryCase, "Ada Café", "aDA cAFÉ"},
		{vocab.VarySpace, "Ada", " Ada "},
		{vocab.VaryUnicode, "café", "cafe\u0301"},
		{vocab.VaryUnicode, "plain", "plain"},
	} {
		if got := Vary(c.way, c.in); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.way, c.in, got, c.want)
		}
	}
}

// A varied scenario is the person's steps with each fill varied, judged on
// submitted and the calls alone; a vary that cannot vary anything is an
// error naming the key and what to write.
func TestVaryMakesAScenarioPerWay(t *testing.T) {
	src := edit(t,
		"human:\n  - click: \"#submit\"\n", "vary: [space, unicode]\nhuman:\n  - fill: {'#name': Zoë}\n  - click: \"#submit\"\n",
		"  guarded: [POST /api/x]\n", "  guarded: [POST /api/x]\n  submitted: [{request: POST /api/x, click: \"#submit\"}]\n")
	sc, err := Parse("case.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	v := sc.Varied()
	if len(v) != 2 || v[0].ID != "T-01.vary-space" || v[1].ID != "T-01.vary-unicode" {
		t.Fatalf("varied %v", v)
	}
	if got := v[1].Human[0].Fill["#name"]; got != "Zoe\u0308" || sc.Human[0].Fill["#name"] != "Zoë" {
		t.Errorf("unicode fill %q (base %q)", got, sc.Human[0].Fill["#name"])
	}
	if e := v[0].Expect; len(e.Submitted) != 1 || len(e.Requests) != 0 || len(e.Guarded) != 0 || e.State != nil || v[0].Known == nil || v[0].Known.Outcome != vocab.Pass || v[0].Vary != nil {
		t.Errorf("a varied scenario keeps more than submitted and calls: %+v known %v", e, v[0].Known)
	}
	for _, bad := range []struct{ from, to, want string }{
		{"vary: [space, unicode]", "vary: [case, case]", "named twice"},
		{"vary: [space, unicode]", "vary: [unicode]\n", ""},
		{"vary: [space, unicode]", "vary: [spaces]", "not one of"},
	} {
		s := strings.Replace(src, bad.from, bad.to, 1)
		if bad.want == "" {
			s = strings.Replace(s, "Zoë", "Zoe", 1)
			bad.want = "accented letter"
		}
		if _, err := Parse("case.yaml", []byte(s)); err == nil || !strings.Contains(err.Error(), "vary") || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want an error on vary saying %q", bad.to, err, bad.want)
		}
	}
}
