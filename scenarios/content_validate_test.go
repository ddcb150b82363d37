package scenarios

import (
	"strings"
	"testing"
)

// contentYAML adds content and submitted expectations to the base.
func contentYAML(t *testing.T, lines string) string {
	t.Helper()
	return edit(t, "\nexpect:\n", "\nexpect:\n"+lines)
}

const goodContent = `  content:
    - request: PATCH /api/config
      phase: agent
      resource:
        before: $.config
        merge: merge-patch
        equals: {sessions: [{id: a}, {id: b, title: New}]}
    - request: POST /api/x
      body: {email: reader@example.com, at: {$pattern: "^2026-"}}
    - {request: PUT /api/y, phase: all, resource: {before: "$.y", merge: json-patch, equals: [1]}}
    - {request: PUT /api/z, resource: {before: "$.z", merge: replace, equals: {}}}
  submitted:
    - request: POST /api/x
      click: "#submit"
      fields: {/email: "#email", /sessions/0/title: "#title"}
      ignore: [/csrf, "/sessions/*/id"]
    - request: POST /api/*
  reviewed_is_sent: {off: the page sends the stored draft}
`

func TestContentAndSubmittedExpectationsLoad(t *testing.T) {
	sc, err := Parse(badName, []byte(contentYAML(t, goodContent)))
	if err != nil {
		t.Fatal(err)
	}
	c := sc.Expect.Content
	if len(c) != 4 || c[0].Resource == nil || c[0].Resource.Merge != MergePatch || c[0].Phase != "agent" || c[1].Body == nil || c[1].Phase != "" {
		t.Errorf("content read as %+v", c)
	}
	if r := sc.Expect.ReviewedIsSent; r == nil || r.Off != "the page sends the stored draft" {
		t.Errorf("reviewed_is_sent read as %+v", r)
	}
	s := sc.Expect.Submitted
	if len(s) != 2 || s[0].Click != "#submit" || s[0].Fields["/sessions/0/title"] != "#title" || len(s[0].Ignore) != 2 || s[1].Click != "" {
		t.Errorf("submitted read as %+v", s)
	}
}

func TestBadContentAndSubmittedExpectationsAreNamed(t *testing.T) {
	type row struct {
		name, lines string
		want        []string
	}
	rows := []row{
		{"a content request that is not METHOD /path", "  content: [{request: /api/x, body: {}}]\n", []string{"expect.content[0].request", `"/api/x"`}},
		{"a content request without a path", "  content: [{request: POST, body: {}}]\n", []string{"expect.content[0].request"}},
		{"a content phase that is not one", "  content: [{request: POST /api/x, phase: setup, body: {}}]\n", []string{"expect.content[0].phase", `"setup"`}},
		{"neither body nor resource", "  content: [{request: POST /api/x}]\n", []string{"expect.content[0]", "exactly one of body"}},
		{"both body and resource", "  content: [{request: POST /api/x, body: {}, resource: {before: $.x, merge: replace, equals: {}}}]\n", []string{"expect.content[0]", "exactly one of body"}},
		{"a body with an unknown operator", "  content: [{request: POST /api/x, body: {a: {$regex: x}}}]\n", []string{"expect.content[0].body", "$regex"}},
		{"a body JSON cannot hold", "  content: [{request: POST /api/x, body: {a: .inf}}]\n", []string{"expect.content[0].body", "not a JSON value"}},
		{"a resource without before", "  content: [{request: POST /api/x, resource: {merge: replace, equals: {}}}]\n", []string{"expect.content[0].resource.before: missing"}},
		{"a before that is not JSONPath", "  content: [{request: POST /api/x, resource: {before: config.x, merge: replace, equals: {}}}]\n", []string{"expect.content[0].resource.before", `"config.x"`, "RFC 9535"}},
		{"an unknown merge rule", "  content: [{request: POST /api/x, resource: {before: $.x, merge: deep-merge, equals: {}}}]\n", []string{"expect.content[0].resource.merge", `"deep-merge"`}},
		{"no merge rule", "  content: [{request: POST /api/x, resource: {before: $.x, equals: {}}}]\n", []string{"expect.content[0].resource.merge", `""`}},
		{"a resource without equals", "  content: [{request: POST /api/x, resource: {before: $.x, merge: replace}}]\n", []string{"expect.content[0].resource.equals: missing"}},
		{"equals with an unknown operator", "  content: [{request: POST /api/x, resource: {before: $.x, merge: replace, equals: {a: {$near: 1}}}}]\n", []string{"expect.content[0].resource.equals", "$near"}},

		{"a submitted request that is not METHOD /path", "  submitted: [{request: POST api/x}]\n", []string{"expect.submitted[0].request", `"POST api/x"`}},
		{"a click that is no human click step", "  submitted: [{request: POST /api/x, click: \"#save\"}]\n", []string{"expect.submitted[0].click", `"#save"`, "#submit"}},
		{"a field that is not a JSON pointer", "  submitted: [{request: POST /api/x, fields: {email: \"#email\"}}]\n", []string{"expect.submitted[0].fields", `"email" is not a JSON pointer`}},
		{"a field that is the whole body", "  submitted: [{request: POST /api/x, fields: {\"\": \"#email\"}}]\n", []string{"expect.submitted[0].fields", "the whole body"}},
		{"a field with a bad escape", "  submitted: [{request: POST /api/x, fields: {/a~2: \"#a\"}}]\n", []string{"expect.submitted[0].fields", "~ must be followed by 0 or 1"}},
		{"a field without a selector", "  submitted: [{request: POST /api/x, fields: {/email: \"\"}}]\n", []string{`expect.submitted[0].fields["/email"]`, "selector is empty"}},
		{"an ignore entry that is not a JSON pointer", "  submitted: [{request: POST /api/x, ignore: [csrf]}]\n", []string{"expect.submitted[0].ignore[0]", `"csrf" is not a JSON pointer`}},
		{"an ignore entry that is the whole body", "  submitted: [{request: POST /api/x, ignore: [\"\"]}]\n", []string{"expect.submitted[0].ignore[0]", "the whole body"}},
		{"an ignore pattern that is not one", "  submitted: [{request: POST /api/x, ignore: [\"/a/[b\"]}]\n", []string{"expect.submitted[0].ignore[0]", `"[b" is not a pattern`}},

		{"reviewed_is_sent off without a reason", "  reviewed_is_sent: {off: \"  \"}\n", []string{"expect.reviewed_is_sent.off", "a reason is required"}},
		{"reviewed_is_sent without off", "  reviewed_is_sent: {}\n", []string{"expect.reviewed_is_sent.off", "a reason is required"}},
		{"reviewed_is_sent as a boolean", "  reviewed_is_sent: false\n", []string{"reviewed_is_sent"}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			y := contentYAML(t, r.lines)
			_, err := Parse(badName, []byte(y))
			if err == nil {
				t.Fatalf("it loaded:\n%s", r.lines)
			}
			for _, w := range r.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q: %v", w, err)
				}
			}
		})
	}
	// Without human steps: no human phase to judge, no click to review.
	noHuman := edit(t, "human:\n  - click: \"#submit\"\n  - wait_request: POST /api/x\n", "",
		"\nexpect:\n", "\nexpect:\n  content: [{request: POST /api/x, phase: human, body: {}}]\n  submitted: [{request: POST /api/x}]\n",
		"    human: {changes: {$.x.count: 1}}", "    agent: {changes: {$.x.count: 1}}",
		"  ui:\n    human:", "  ui:\n    agent:")
	_, err := Parse(badName, []byte(noHuman))
	for _, w := range []string{"expect.content[0].phase: human, and the scenario has no human steps", "expect.submitted[0]: the scenario has no human click step"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("the error lacks %q: %v", w, err)
		}
	}
}
