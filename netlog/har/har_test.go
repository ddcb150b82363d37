package har

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	cdphar "github.com/chromedp/cdproto/har"
)

// TestCdprotoTypesEmbed pins what embedding cdproto's types relies on: a
// MarshalJSON of theirs would be promoted to ours and drop the added fields.
func TestCdprotoTypesEmbed(t *testing.T) {
	for name, v := range map[string]any{
		"Log": cdphar.Log{}, "*Log": &cdphar.Log{}, "Entry": cdphar.Entry{}, "*Entry": &cdphar.Entry{},
	} {
		if _, ok := v.(json.Marshaler); ok {
			t.Errorf("cdphar.%s has a MarshalJSON: harLog and harEntry can no longer embed it", name)
		}
	}
	raw, err := HAR(record.Log{{Seq: 1, Method: "GET", URL: "http://a/", Failure: "net::ERR_FAILED", ResourceType: "Fetch", Initiator: "script"}}, HARInfo{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"pages": []`, `"_error": "net::ERR_FAILED"`, `"_resourceType": "fetch"`, `"_initiator": {`, `"cache": {}`, `"ssl": -1`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("HAR lacks %s:\n%s", want, raw)
		}
	}
	if strings.Contains(string(raw), "null") {
		t.Errorf("HAR has a null:\n%s", raw)
	}
	if err := CheckHAR(raw); err != nil {
		t.Error(err)
	}
}
