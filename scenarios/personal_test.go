package scenarios

import (
	"slices"
	"strings"
	"testing"
)

const personalHead = "id: P-01\ntitle: t\nstart: /\nprompt: Book for Ada Baker at SFO, born 17 May 1990.\nagent: {final: done}\nexpect: {answer: {asks: false}}\n"

func TestPersonalValuesAreDeclaredAndTheOldSpellingsLoad(t *testing.T) {
	sc, err := Parse("p.yaml", []byte(personalHead+`prompt_data:
  airport: SFO
  born: {value: 1990-05-17, from: 17 May 1990, personal: true}
  guest: {value: Ada Baker, personal: true}
  seat: {value: window, from: at SFO}
personal: [Ada, Baker Street 221b]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]PromptValue{
		"airport": {Value: "SFO"},
		"born":    {Value: "1990-05-17", From: "17 May 1990", Personal: true},
		"guest":   {Value: "Ada Baker", Personal: true},
		"seat":    {Value: "window", From: "at SFO"},
	}
	for k, v := range want {
		if sc.PromptData[k] != v {
			t.Errorf("prompt_data.%s: %+v, want %+v", k, sc.PromptData[k], v)
		}
	}
	if !slices.Equal(sc.Personal, []string{"Ada", "Baker Street 221b"}) {
		t.Errorf("personal: %q", sc.Personal)
	}
}

func TestAPersonalDeclarationThatCannotBeKeptOutFailsLoading(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"a misspelt key", "prompt_data: {guest: {value: Ada Baker, personl: true}}\n", `p.yaml:7:41: prompt_data.guest.personl: unknown key; did you mean personal?`},
		{"personal that is no boolean", "prompt_data: {guest: {value: Ada Baker, personal: sometimes}}\n", `p.yaml:7:51: prompt_data.guest.personal: expected true or false, found text "sometimes"`},
		{"a list for a value", "prompt_data: {guest: {value: [Ada]}}\n", "p.yaml:7:30: prompt_data.guest.value: expected a mapping or text, found a list"},
		{"a declared value too short", "prompt_data: {airport: {value: At, personal: true}}\nprompt: At SFO\n", `prompt_data.airport.value: "At" is too plain`},
		{"declared from words too plain", "prompt_data: {n: {value: seventeen, from: \"17\", personal: true}}\nprompt: I am 17, seventeen\n", `prompt_data.n.from: "17" is too plain`},
		{"a personal number of a few digits", "personal: [\"1042\"]\n", `personal[0]: "1042" is too plain`},
		{"a personal boolean", "personal: [\"true\"]\n", `personal[0]: "true" is too plain`},
		{"an empty personal value", "personal: [\"  \"]\n", "personal[0]: empty"},
		{"a personal value twice", "personal: [Ada Baker, Ada Baker]\n", `personal[1]: "Ada Baker" is personal[0] again`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := personalHead + tc.yaml
			if strings.Contains(tc.yaml, "\nprompt: ") {
				head, _, _ := strings.Cut(personalHead, "prompt: ")
				_, rest, _ := strings.Cut(personalHead, "\nagent:")
				text = head + "agent:" + rest + tc.yaml
			}
			_, err := Parse("p.yaml", []byte(text))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "p.yaml") {
				t.Errorf("got %v, want an error naming the file and %q", err, tc.want)
			}
		})
	}
}

func TestTooPlainToRedact(t *testing.T) {
	for s, want := range map[string]bool{
		"ab": true, "王芳": false, "王": true, "500": true, "5551234": false, "true": true, "NULL": true, "---": true,
		"SFO": false, "Ada": false, "1990-05-17": false, " x ": true,
	} {
		if got := TooPlainToRedact(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}
