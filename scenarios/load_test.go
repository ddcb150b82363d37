package scenarios

import (
	"strings"
	"testing"
)

func TestTheSuiteScenariosLoad(t *testing.T) {
	scs, err := LoadDir("cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) < 8 {
		t.Fatalf("only %d scenarios", len(scs))
	}
	for _, sc := range scs {
		if sc.Known == nil {
			t.Errorf("%s: every scenario of the suite states its known answer", sc.ID)
		}
	}
}

func TestAMistypedKeyNamesTheFileAndTheKey(t *testing.T) {
	_, err := Parse("cases/typo.yaml", []byte("id: X\ntitle: t\nstart: /\nprompt: p\nagent: {final: hi}\nexpect:\n  anwser: {asks: true}\n"))
	if err == nil {
		t.Fatal("a mistyped key loaded")
	}
	for _, want := range []string{"cases/typo.yaml:7:3: expect.anwser: unknown key; did you mean answer?"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}
