package redact

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var testKey = standIns{key: []byte("a fixed key for tests")}

// sameShape tells how stand-in differs in shape from secret: a character of
// another class or script, or another count of them.
func sameShape(secret, standIn string) string {
	a, b := []rune(secret), []rune(standIn)
	if len(a) != len(b) {
		return "another length"
	}
	for i := range a {
		switch x, y := a[i], b[i]; {
		case unicode.IsLetter(x) != unicode.IsLetter(y), unicode.IsDigit(x) != unicode.IsDigit(y),
			unicode.IsUpper(x) != unicode.IsUpper(y), unicode.IsLower(x) != unicode.IsLower(y):
			return "character " + string(x) + " became " + string(y)
		case !unicode.IsLetter(x) && !unicode.IsDigit(x) && x != y:
			return "separator " + string(x) + " became " + string(y)
		case x <= unicode.MaxASCII != (y <= unicode.MaxASCII):
			return "character " + string(x) + " left its script for " + string(y)
		}
	}
	return ""
}

func TestStandInsKeepTheShapeOfEveryKind(t *testing.T) {
	for _, tc := range []struct {
		kind   Kind
		secret string
	}{
		{Email, "Ann.Example+club@example.org"}, {Phone, "+44 20 7946 0958"}, {Phone, "(555) 123-4567"},
		{Personal, "Ada Baker"}, {Personal, "測試讀者"}, {Personal, "Zoë Ångström"}, {Personal, "Дмитрий"},
		{Token, "s_0123456789abcdef0123456789abcdef"}, {Credential, "123e4567-e89b-12d3-a456-426614174000"},
		{Credential, "hunter2!Secret"}, {Account, "078-05-1120"},
	} {
		got := testKey.make(tc.kind, tc.secret, 0)
		if got == tc.secret || strings.EqualFold(got, tc.secret) {
			t.Errorf("%s %q: the stand-in is the secret", tc.kind, tc.secret)
		}
		if why := sameShape(tc.secret, got); why != "" {
			t.Errorf("%s %q → %q: %s", tc.kind, tc.secret, got, why)
		}
	}
	han := testKey.make(Personal, "測試讀者", 0)
	for _, r := range han {
		if !unicode.Is(unicode.Han, r) {
			t.Errorf("測試讀者 → %q: %c is no Han character", han, r)
		}
	}
	uuid := testKey.make(Credential, "123e4567-e89b-12d3-a456-426614174000", 0)
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).MatchString(uuid) {
		t.Errorf("a UUID's stand-in %q is no UUID", uuid)
	}
	for _, tok := range []string{"s_0123456789abcdef0123456789abcdef", "c_0123456789abcdef0123456789abcdef", "int_0123456789abcdef0123456789abcdef"} {
		for attempt := range 30 {
			got := testKey.make([]Kind{Token, Credential}[attempt%2], tok, attempt)
			if !regexp.MustCompile(`^x+_[0-9a-f]{32}$`).MatchString(got) || len(got) != len(tok) {
				t.Errorf("token %q → %q: not x_ and 32 hex digits", tok, got)
			}
		}
	}
	if got := testKey.make(Email, "ann@example.org", 0); emailRE.FindString(got) != got {
		t.Errorf("an email's stand-in %q is no email", got)
	}
}

func TestStandInsOfCardsIBANsAndDatesPassTheirChecks(t *testing.T) {
	for _, c := range plantedCards {
		got := testKey.make(Card, c, 0)
		if !isCard(got) || got[0] != c[0] || sameShape(c, got) != "" || got == c {
			t.Errorf("card %q → %q: not a card of the same network and shape", c, got)
		}
	}
	for _, c := range plantedIBANs {
		got := testKey.make(IBAN, c, 0)
		if !isIBAN(got) || !strings.EqualFold(got[:2], c[:2]) || sameShape(c, got) != "" || got == c {
			t.Errorf("IBAN %q → %q: not an IBAN of the same country and shape", c, got)
		}
	}
	for _, d := range []string{"1990-05-17", "17 May 1990", "17/05/1990", "May 17, 1990", "2026-03-14T09:26:53Z"} {
		got := testKey.make(Date, d, 0)
		if _, _, ok := parseDate(fold(got)); !ok || got == d {
			t.Errorf("date %q → %q: not another date written the same way", d, got)
		}
	}
	// Known bad: a stand-in that drew its digits freely fails the checks.
	if isCard("4111 1111 1111 1112") || isIBAN("DE88 3704 0044 0532 0130 00") {
		t.Fatal("the checks accept a bad number: the test above proves nothing")
	}
}

// A schema's pattern, format and length accept the stand-in of a value they
// accept: what the judge holds an agent's input to.
func TestStandInsPassTheSchemasTheirSecretsPass(t *testing.T) {
	schema := `{"type":"object","properties":{
		"email":{"type":"string","format":"email","maxLength":20},
		"phone":{"type":"string","pattern":"^\\+[0-9]{2} [0-9]{2} [0-9]{4} [0-9]{4}$"},
		"born":{"type":"string","format":"date"},
		"name":{"type":"string","pattern":"^[A-Z][a-z]+ [A-Z][a-z]+$","minLength":9,"maxLength":9},
		"ref":{"type":"string","format":"uuid"}}}`
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(schema)))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("urn:test", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("urn:test")
	if err != nil {
		t.Fatal(err)
	}
	input := map[string]any{"email": "ann@example.org", "phone": "+44 20 7946 0958", "born": "1990-05-17", "name": "Ada Baker", "ref": "123e4567-e89b-12d3-a456-426614174000"}
	kinds := map[string]Kind{"email": Email, "phone": Phone, "born": Date, "name": Personal, "ref": Credential}
	if err := s.Validate(input); err != nil {
		t.Fatalf("the secrets themselves fail: %v", err)
	}
	for attempt := range 50 {
		out := map[string]any{}
		for k, v := range input {
			out[k] = testKey.make(kinds[k], v.(string), attempt)
		}
		if err := s.Validate(out); err != nil {
			t.Errorf("stand-ins %v fail the schema: %v", out, err)
		}
	}
	// Known bad: what redaction wrote before (a label) fails the same schema.
	if s.Validate(map[string]any{"email": "REDACTED-EMAIL-1", "born": "REDACTED-PERSONAL-2"}) == nil {
		t.Fatal("the schema accepts labels: the test above proves nothing")
	}
}

func TestStandInsOfOneValueInTwoCasesDifferOnlyInCase(t *testing.T) {
	for _, s := range []string{"Lyon", "Ann Example", "ann@example.org", "Zoë", "17 May 1990"} {
		kind := declaredKind(s)
		lower, upper := testKey.make(kind, fold(s), 0), testKey.make(kind, strings.ToUpper(s), 0)
		if lower != strings.ToLower(upper) || lower == upper && strings.ToUpper(s) != s {
			t.Errorf("%q: %q and %q", s, lower, upper)
		}
	}
	// And two values get two stand-ins, another key another one.
	if testKey.make(Personal, "lyon", 0) == testKey.make(Personal, "lyons", 0)[:4] &&
		testKey.make(Personal, "paris", 0) == testKey.make(Personal, "lyon", 0) {
		t.Error("stand-ins do not depend on the value")
	}
	other := standIns{key: []byte("another key")}
	if other.make(Personal, "ada baker", 0) == testKey.make(Personal, "ada baker", 0) {
		t.Error("the stand-in does not depend on the key: a guess could be tested against it")
	}
}
