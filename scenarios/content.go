package scenarios

import "github.com/agentready/agentready/scenarios/vocab"

// What write requests carried, and what the person had before them: the
// expectations of seed 003's content and review checks.

// ContentExpect is what the requests "METHOD /path" of a phase carried,
// compared in full: every field and value, list order kept, key order and
// formatting ignored. Exactly one of Body and Resource is set.
type ContentExpect struct {
	// The requests "METHOD /path" whose bodies are judged; the path may be
	// a pattern (path.Match: /api/drafts/*).
	Request RequestLine `yaml:"request" json:"request" jsonschema:"required" examples:"[PUT /api/drafts/*]"`
	// agent, human or all (the default).
	Phase vocab.Phase `yaml:"phase,omitempty" json:"phase,omitempty" examples:"[human]"`
	// What each matching request's body must be, in full (JSON, or form
	// data read as an object of strings); constraints allowed.
	Body any `yaml:"body,omitempty" json:"body,omitempty" examples:"[{email: reader@example.com, at: {$pattern: ^2026-}}]"`
	// What the matching requests make of a resource of the app's state, by
	// the API's merge rule.
	Resource *ResourceExpect `yaml:"resource,omitempty" json:"resource,omitempty" examples:"[{before: $.config, merge: merge-patch, equals: {version: 3}}]"`
}

// ResourceExpect reconstructs a resource after requests: the resource as
// the state before the phase holds it (Before, a JSONPath selecting one
// value of the state document), each matching request's body applied to it
// in order by Merge, must equal Equals in full.
type ResourceExpect struct {
	// An RFC 9535 JSONPath selecting one value of the state before the
	// phase (before the agent for agent and all, after it for human).
	Before string `yaml:"before" json:"before" jsonschema:"required" examples:"[$.config]"`
	// How the API applies a body: merge-patch (RFC 7396, a list replaced
	// whole), json-patch (RFC 6902) or replace (the body is the new resource).
	Merge MergeRule `yaml:"merge" json:"merge" jsonschema:"required" examples:"[merge-patch]"`
	// The whole resource as it must be.
	Equals any `yaml:"equals" json:"equals" jsonschema:"required" examples:"[{version: 3, sessions: [{id: a, title: Opening}]}]"`
}

// MergeRule is how an API applies a request's body to a resource.
type MergeRule string

// The merge rules.
const (
	// MergePatch is RFC 7386 JSON Merge Patch: objects merged key by key
	// (null removes a key), any other value — a list too — replaced whole.
	MergePatch MergeRule = "merge-patch"
	// JSONPatch is RFC 6902 JSON Patch: the body is a list of operations.
	JSONPatch MergeRule = "json-patch"
	// Replace: the body is the whole new resource.
	Replace MergeRule = "replace"
)

// Valid tells whether r is one of the three rules.
func (r MergeRule) Valid() bool { return r == MergePatch || r == JSONPatch || r == Replace }

// ReviewedIsSent turns off the default check that what a write after the
// person's click carries is what the clicked element's form showed.
type ReviewedIsSent struct {
	// Why this scenario's writes may differ from what the form showed: a
	// reason is required.
	Off string `yaml:"off" json:"off" jsonschema:"required" examples:"[the page sends the stored draft on purpose]"`
}

// SubmittedExpect says that the first request "METHOD /path" after the
// person's click carries only what the person had before them at that
// click: every value the body holds equals the value shown for it.
type SubmittedExpect struct {
	// The request "METHOD /path" after the click; the path may be a pattern.
	Request RequestLine `yaml:"request" json:"request" jsonschema:"required" examples:"[POST /api/config/save]"`
	// The selector of the person's click step whose review counts; empty:
	// any click.
	Click string `yaml:"click,omitempty" json:"click,omitempty" examples:"['#save']"`
	// A place in the body (a JSON pointer) → the selector of the element
	// that showed it (a control's value, else its text). Without it: the
	// clicked element's form, each visible control by its name.
	Fields map[string]string `yaml:"fields,omitempty" json:"fields,omitempty" examples:"[{/email: '#email', /sessions/0/title: '#title'}]"`
	// Places in the body the person is not shown (JSON pointers; a token
	// may be a path.Match pattern such as *), each covering what is under it.
	Ignore []string `yaml:"ignore,omitempty" json:"ignore,omitempty" examples:"[[/csrf, /sessions/*/id]]"`
}
