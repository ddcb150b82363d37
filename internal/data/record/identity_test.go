package record

import "testing"

// A tool is its frame and its name: a name alone means the top document's
// tool, then a same-origin frame's, then by the frame's URL, whatever the
// frames' ids (random per run) and the catalog's order (issue 43 item 5).
func TestANameAloneMeansTheTopDocumentsTool(t *testing.T) {
	top := Tool{Name: "pay", FrameID: "ZZZ"}
	same := Tool{Name: "pay", FrameID: "AAA", Frame: "https://shop.test/tip"}
	cross := Tool{Name: "pay", FrameID: "0", Frame: "https://psp.test/widget", CrossOrigin: true}
	for _, c := range []Catalog{{top, same, cross}, {cross, same, top}, {same, cross, top}} {
		if got, _ := c.Get("pay"); got.FrameID != top.FrameID {
			t.Errorf("Get(pay) in %v = %+v, want the top document's", c, got)
		}
		if got, _ := c.GetIn("pay", "AAA"); got.FrameID != same.FrameID {
			t.Errorf("GetIn(pay, AAA) = %+v", got)
		}
		if _, ok := c.GetIn("pay", "nope"); ok {
			t.Error("GetIn found a frame that offers nothing")
		}
	}
	if got, _ := (Catalog{cross, same}).Get("pay"); got.FrameID != same.FrameID {
		t.Errorf("without the top document's, a same-origin frame's before a cross-site one's: %+v", got)
	}
	if !SameOrigin("https://a.test", "https://A.test:443/x") || SameOrigin("https://a.test", "https://a.test:8443/x") || !SameOrigin("", "anything") {
		t.Error("SameOrigin")
	}
}
