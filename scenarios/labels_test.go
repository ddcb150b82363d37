package scenarios

import (
	"slices"
	"strings"
	"testing"
)

func TestLabelsLeaveOutAnEmptyArea(t *testing.T) {
	sc := Scenario{ID: "X.one", Family: "X"}
	if got := sc.Labels(); !slices.Equal(got, []string{"X.one", "X"}) {
		t.Errorf("labels %v", got)
	}
}

func TestValidateRefusesAnAreaGinkgoCannotLabelAndAUIEntryThatSaysNothing(t *testing.T) {
	base := "id: X\ntitle: t\nstart: /\nprompt: p\nagent: {final: hi}\nhuman: [{click: '#b'}]\n"
	for _, c := range []struct{ yaml, want string }{
		{base + "area: a/b\nexpect: {answer: {asks: true}}\n", "area"},
		{base + "expect:\n  ui:\n    human: [{selector: '#a'}]\n", "says nothing about #a"},
	} {
		if _, err := Parse("x.yaml", []byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error about %q, got %v", c.want, err)
		}
	}
}
