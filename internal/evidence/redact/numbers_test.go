package redact

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The phone numbers, card numbers and IBANs the patterns must find, each
// planted whole in text around it.
var (
	plantedPhones = []string{
		"555-123-4567", "(555) 123-4567", "555.123.4567", "555 123 4567", "(555)123-4567", "1-800-555-0199",
		"+1 555 123 4567", "+1 (555) 123-4567", "+44 20 7946 0958", "+44 (0)20 7946 0958", "+49-30-1234567",
		"+33 1 23 45 67 89", "+4930123456", "020 7946 0958", "(020) 7946 0958", "06 12 34 56 78",
	}
	plantedCards = []string{"4111 1111 1111 1111", "5500-0000-0000-0004", "378282246310005", "4242424242424242", "3782 822463 10005"}
	plantedIBANs = []string{"DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432", "FR14 2004 1010 0505 0001 3M02 606", "gb82 west 1234 5698 7654 32"}
)

// Strings that look like numbers of those kinds and are not personal data:
// the judge compares several of them, and the record must read them back.
var notPersonal = []string{
	"2026-03-14T09:26:53Z", "2026-03-14T09:26:53.123456789+01:00", "2026-03-14 09:26:53", "2026-03-14", "14.03.2026",
	"v1.2.3", "145.0.7632.116", "Chrome/145.0.7632.116", "10.0.19045.1234",
	"1000.7", "12345.67", "interception-job-12.0",
	"http://127.0.0.1:38291/events?id=1", "localhost:8080", "http://[::1]:5555/api/tasks/3",
	"HTTP 201 Created", "200", "status 409",
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256:5551234567890123456789012345678901234567890123456789012345678901",
	"9F4C0C7E5B1A2D3E4F5061728394A5B6", "DE1234567890ABCDEF1234567890ABCD", "123e4567-e89b-12d3-a456-426614174000",
	"-4271846527391726312.1234567890123456789", "1773480413000", "1773480413123456789", "1773480413.123456",
	"192.168.100.200", "10.0.0.1", "evt-webmcp-intro", "s_" + strings.Repeat("0", 3), "+1", "8 of 8", "7 of 8",
	"x5551234567", "5551234567", "123-4567", "1,234,567.89", "1 234 567", "+1 2026-03-14", "0.5 123 456 789",
	// What a flight search, a hotel booking and a branch picker send.
	"TPE", "NRT", "SFO", "AR101", "hotel-1-budget", "main", "release/2026.12", "Europe/Berlin",
}

func TestPatternsFindPhonesCardsAndIBANs(t *testing.T) {
	for _, tc := range []struct {
		kind Kind
		want []string
	}{{Phone, plantedPhones}, {Card, plantedCards}, {IBAN, plantedIBANs}} {
		for _, v := range tc.want {
			for _, around := range []string{"%s", "call %s now", "(tel: %s).", "「%s」", `{"v":"%s"}`, "a,%s,b", "/people/%s/x"} {
				s := fmt.Sprintf(around, v)
				if got := numbersFound(s); !slices.Contains(got[tc.kind], v) {
					t.Errorf("%s: %q not found in %q (found %v)", tc.kind, v, s, got)
				}
			}
		}
	}
}

func TestPatternsSpareWhatIsNotPersonal(t *testing.T) {
	for _, s := range notPersonal {
		for _, around := range []string{"%s", "at %s, ok", `{"v":"%s"}`} {
			if got := numbersFound(fmt.Sprintf(around, s)); len(got) > 0 {
				t.Errorf("%q is taken for %v", s, got)
			}
		}
	}
	// Near misses of the real thing: a failed Luhn or mod-97 check, a
	// number glued to more digits.
	for _, s := range []string{"4111 1111 1111 1112", "1111 1111 1111 1117", "DE88 3704 0044 0532 0130 00", "555-123-45678", "1555-123-4567x", "v555.123.4567"} {
		if got := numbersFound(s); len(got) > 0 {
			t.Errorf("%q is taken for %v", s, got)
		}
	}
}

// numbersFound runs the number patterns as the finder does.
func numbersFound(s string) map[Kind][]string {
	out := map[Kind][]string{}
	for _, d := range decodings(s) {
		findNumbers(d, func(secret string, kind Kind) { out[kind] = append(out[kind], secret) })
	}
	return out
}
