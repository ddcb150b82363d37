package scenarios

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Upgrades never break a user's files: every spelling the scenario format
// once accepted keeps loading, read as its current spelling, with a
// warning that names the file, the line and what to write now, until the
// version its Deprecation names; `agentready check --fix` rewrites it
// (docs/decisions/2026-12-07-spellings-that-keep-loading.md).

// A Deprecation is a spelling the format once accepted and still reads.
type Deprecation struct {
	ID      string // how a warning and the README name it
	Since   string // the version that deprecated it
	Removed string // the first version that will refuse it
}

// Deprecations are every spelling the format reads that it no longer
// writes, oldest first. scenarios/README.md lists them with what each was
// and what to write now; TestTheDeprecationsAreDocumented holds the two
// together.
var Deprecations = []Deprecation{
	{ID: "state-seats-counts", Since: "0.1", Removed: "0.3"},
	{ID: "request-keys", Since: "0.1", Removed: "0.3"},
	{ID: "request-count", Since: "0.1", Removed: "0.3"},
	{ID: "human-request", Since: "0.1", Removed: "0.3"},
	{ID: "schema-match-contains", Since: "0.1", Removed: "0.3"},
	{ID: "request-path-space", Since: "0.1", Removed: "0.3"},
}

// deprecation answers the Deprecation of an ID (a defect of the suite
// when there is none).
func deprecation(id string) Deprecation {
	for _, d := range Deprecations {
		if d.ID == id {
			return d
		}
	}
	panic("scenarios: no deprecation " + id)
}

// A migration is what reading one file's deprecated spellings did: a
// warning for each, and the nodes of the file it rewrote (the outermost
// of each rewrite), which check --fix writes back.
type migration struct {
	file     string
	warnings Problems
	rewrote  []rewrite
	shared   map[*yaml.Node]bool // nodes an alias names: never rewritten
}

// rewrite is one node of a file read in its current spelling: before is a
// copy of the node as the file wrote it, node the node now.
type rewrite struct {
	before yaml.Node
	node   *yaml.Node
}

// migrate rewrites a file's tree, in place, from every deprecated spelling
// to the current one. A node the file shares through an alias is left as
// written (rewriting it would change every place that names it): such a
// spelling does not load, and the schema says where.
func migrate(file string, root *yaml.Node) *migration {
	m := &migration{file: file, shared: aliased(root)}
	expect := m.own(root, "expect")
	if state := m.own(expect, "state"); state != nil && state.Kind == yaml.MappingNode {
		for i := 1; i < len(state.Content); i += 2 {
			m.stateSeatsCounts(m.plain(state.Content[i]), state.Content[i-1].Value)
		}
	}
	if reqs := m.own(expect, "requests"); reqs != nil && reqs.Kind == yaml.SequenceNode {
		for i, e := range reqs.Content {
			m.requestEntry(m.plain(e), fmt.Sprintf("expect.requests[%d]", i))
		}
	}
	// The step request: was a step of both lists.
	for _, list := range []string{"setup", "human"} {
		if steps := m.own(root, list); steps != nil && steps.Kind == yaml.SequenceNode {
			for i, s := range steps.Content {
				m.humanRequest(m.plain(s), fmt.Sprintf("%s[%d]", list, i))
			}
		}
	}
	if sm := m.own(m.own(expect, "catalog"), "schema_match"); sm != nil {
		m.schemaContains(sm)
	}
	m.requestLines(root, "")
	return m
}

// requestLines finds every request line of the tree ("METHOD /path": a
// request or wait_request value, a guarded item, a probe) and rewrites a
// space in its path as %20. Such a line once loaded with the space as part
// of the path (which matched the log's decoded path); a space now ends the
// path, so that words after it are refused rather than matching nothing.
func (m *migration) requestLines(n *yaml.Node, at string) {
	n = m.plain(n)
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.SequenceNode:
		for i, c := range n.Content {
			m.requestLines(c, fmt.Sprintf("%s[%d]", at, i))
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], m.plain(n.Content[i+1])
			key := strings.TrimPrefix(at+"."+k.Value, ".")
			switch {
			case v == nil:
			case (k.Value == "request" || k.Value == "wait_request") && v.Kind == yaml.ScalarNode:
				m.pathSpace(v, key)
			case k.Value == "guarded" && v.Kind == yaml.SequenceNode:
				for j, g := range v.Content {
					if g = m.plain(g); g != nil && g.Kind == yaml.ScalarNode {
						m.pathSpace(g, fmt.Sprintf("%s[%d]", key, j))
					}
				}
			case k.Value == "probes" && v.Kind == yaml.MappingNode:
				for j := 1; j < len(v.Content); j += 2 {
					if p := m.plain(v.Content[j]); p != nil && p.Kind == yaml.ScalarNode {
						m.pathSpace(p, key+"."+v.Content[j-1].Value)
					}
				}
			default:
				m.requestLines(v, key)
			}
		}
	}
}

// spaceInPath writes a space or a tab of a path as its escape.
var spaceInPath = strings.NewReplacer(" ", "%20", "\t", "%09")

func (m *migration) pathSpace(v *yaml.Node, at string) {
	method, rest, ok := strings.Cut(strings.TrimSpace(v.Value), " ")
	rest = strings.TrimSpace(rest)
	if !ok || method == "" || !strings.HasPrefix(rest, "/") || !strings.ContainsAny(rest, " \t") {
		return
	}
	m.changing(v)
	v.Value = method + " " + spaceInPath.Replace(rest)
	m.warn(v, at, "request-path-space", fmt.Sprintf("%q", v.Value)+" (a space in a path is %20; a WebSocket message's pattern goes in message:)")
}

// aliased are the nodes an alias of the tree names.
func aliased(n *yaml.Node) map[*yaml.Node]bool {
	out := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if n.Kind == yaml.AliasNode {
			out[n.Alias] = true
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return out
}

// plain is n when the file writes it in one place only (no alias, and no
// alias names it); nil otherwise.
func (m *migration) plain(n *yaml.Node) *yaml.Node {
	if n == nil || n.Kind == yaml.AliasNode || m.shared[n] {
		return nil
	}
	return n
}

// own is a mapping's value for key, when the file writes it in one place.
func (m *migration) own(n *yaml.Node, key string) *yaml.Node {
	n = m.plain(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i].Kind == yaml.ScalarNode {
			return m.plain(n.Content[i+1])
		}
	}
	return nil
}

// warn records a deprecated spelling at n: what it is read as, what to
// write, and until when it loads.
func (m *migration) warn(n *yaml.Node, key, id, now string) {
	d := deprecation(id)
	m.warnings = append(m.warnings, Problem{File: m.file, Line: n.Line, Column: n.Column, Key: key,
		Message: fmt.Sprintf("deprecated (%s, since %s; refused from %s): write %s — agentready check --fix writes it", d.ID, d.Since, d.Removed, now)})
}

// changing records that n is about to be rewritten, unless a node around
// it already is (check --fix writes the outermost).
func (m *migration) changing(n *yaml.Node) {
	for _, r := range m.rewrote {
		if r.node == n || contains(r.node, n) {
			return
		}
	}
	kept := m.rewrote[:0]
	for _, r := range m.rewrote {
		if !contains(n, r.node) {
			kept = append(kept, r)
		}
	}
	m.rewrote = append(kept, rewrite{before: deepCopy(n), node: n})
}

func contains(outer, n *yaml.Node) bool {
	for _, c := range outer.Content {
		if c == n || contains(c, n) {
			return true
		}
	}
	return false
}

func deepCopy(n *yaml.Node) yaml.Node {
	out := *n
	out.Content = make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		cc := deepCopy(c)
		out.Content[i] = &cc
	}
	return out
}

// requestEntry reads {method, path, …} as {request: "METHOD /path", …},
// and an entry without count as count 0, as the format once did.
func (m *migration) requestEntry(e *yaml.Node, at string) {
	if e == nil || e.Kind != yaml.MappingNode {
		return
	}
	if line, k, ok := m.requestKeys(e); ok {
		m.warn(k, at, "request-keys", "request: "+flowText(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: line}))
	}
	if _, k := child(e, "count"); k == nil {
		if _, r := child(e, "request"); r != nil {
			m.changing(e)
			e.Content = append(e.Content, scalar("count", e), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "0", Line: e.Line, Column: e.Column})
			m.warn(e, at, "request-count", "count: 0 (or the count you mean)")
		}
	}
}

// requestKeys turns a mapping's method and path keys into one request
// line, at the method's place; it answers the line and the key it was
// read from.
func (m *migration) requestKeys(e *yaml.Node) (string, *yaml.Node, bool) {
	methodV, methodK := child(e, "method")
	pathV, pathK := child(e, "path")
	if methodK == nil && pathK == nil {
		return "", nil, false
	}
	for i := 1; i < len(e.Content); i += 2 {
		if e.Content[i].Kind == yaml.AliasNode || m.shared[e.Content[i]] {
			return "", nil, false // a value shared by alias: left as written
		}
	}
	if _, r := child(e, "request"); r != nil {
		return "", nil, false // both spellings: the schema names the extra keys
	}
	if methodV != nil && methodV.Kind != yaml.ScalarNode || pathV != nil && pathV.Kind != yaml.ScalarNode {
		return "", nil, false
	}
	var method, path string
	if methodV != nil {
		method = methodV.Value
	}
	if pathV != nil {
		path = pathV.Value
	}
	line := strings.TrimSpace(strings.ToUpper(method) + " " + path)
	first := methodK
	if first == nil {
		first = pathK
	}
	m.changing(e)
	// The comments of the two keys and their values go with the line.
	var comments, heads []string
	for _, n := range []*yaml.Node{methodK, methodV, pathK, pathV} {
		if n != nil && n.LineComment != "" {
			comments = append(comments, n.LineComment)
		}
		if n != nil && n != first && n.HeadComment != "" {
			heads = append(heads, n.HeadComment)
		}
	}
	var out []*yaml.Node
	for i := 0; i+1 < len(e.Content); i += 2 {
		k := e.Content[i]
		switch k {
		case first:
			v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: line, Line: k.Line, Column: k.Column,
				LineComment: strings.Join(comments, " ")}
			key := scalar("request", k)
			key.HeadComment, key.FootComment = strings.Join(slices.DeleteFunc(append([]string{k.HeadComment}, heads...), func(c string) bool { return c == "" }), "\n"), k.FootComment
			out = append(out, key, v)
		case methodK, pathK:
		default:
			out = append(out, k, e.Content[i+1])
		}
	}
	e.Content = out
	return line, first, true
}

// humanRequest reads the step request: {method, path, …} as send:
// {request: "METHOD /path", …}.
func (m *migration) humanRequest(step *yaml.Node, at string) {
	if step == nil || step.Kind != yaml.MappingNode {
		return
	}
	v, k := child(step, "request")
	if k == nil || v == nil || v.Kind != yaml.MappingNode {
		return
	}
	if _, send := child(step, "send"); send != nil {
		return
	}
	m.changing(step)
	line, _, _ := m.requestKeys(v)
	k.Value = "send"
	if line == "" {
		if r, _ := child(v, "request"); r != nil {
			line = r.Value
		}
	}
	m.warn(k, at, "human-request", fmt.Sprintf("send: {request: %s, …}", flowText(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: line})))
}

// stateSeatsCounts reads seats and counts, the reference app's observer
// fields before state was JSON read by JSONPath, as equals on the
// observer's document.
func (m *migration) stateSeatsCounts(phase *yaml.Node, name string) {
	if phase == nil || phase.Kind != yaml.MappingNode {
		return
	}
	fields := map[string]string{"seats": "seatsLeft", "counts": "counts"}
	var found []*yaml.Node
	for i := 0; i+1 < len(phase.Content); i += 2 {
		k, v := phase.Content[i], phase.Content[i+1]
		if fields[k.Value] == "" {
			continue
		}
		if m.plain(v) == nil || v.Kind != yaml.MappingNode || !plainKeys(v) {
			return // shared, or names written by alias or merge: left as written
		}
		found = append(found, k)
	}
	if equals := m.own(phase, "equals"); len(found) == 0 || equals == nil && keyOf(phase, "equals") != nil {
		return
	}
	m.changing(phase)
	equals, equalsKey := m.own(phase, "equals"), keyOf(phase, "equals")
	var out []*yaml.Node
	var added []*yaml.Node
	for i := 0; i+1 < len(phase.Content); i += 2 {
		k, v := phase.Content[i], unalias(phase.Content[i+1])
		field := fields[k.Value]
		if field == "" || v.Kind != yaml.MappingNode {
			out = append(out, k, phase.Content[i+1])
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			name, value := v.Content[j], v.Content[j+1]
			path := scalar("$.observer."+field+member(name.Value), name)
			path.HeadComment, path.LineComment, path.FootComment = name.HeadComment, name.LineComment, name.FootComment
			added = append(added, path, value)
		}
		if equalsKey == nil {
			equals = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: v.Style, Line: v.Line, Column: v.Column}
			equalsKey = scalar("equals", k)
			out = append(out, equalsKey, equals)
		}
		// The key's comments, and the old mapping's, go with its entries:
		// above the first, after the last.
		if n := len(added); n >= 2 {
			first, last := added[n-len(v.Content)], added[n-2]
			if k != phase.Content[0] { // the first key's is above the phase, where the file keeps it
				first.HeadComment = joinComments(k.HeadComment, first.HeadComment)
			}
			last.LineComment = joinComments(last.LineComment, k.LineComment, v.LineComment)
			last.FootComment = joinComments(last.FootComment, k.FootComment, v.FootComment)
		}
	}
	equals.Content = append(equals.Content, added...)
	phase.Content = out
	for _, k := range found {
		m.warn(k, "expect.state."+name+"."+k.Value, "state-seats-counts", "equals: "+flowText(equals))
	}
}

// plainKeys tells whether a mapping's keys are written as text, not by
// alias or merge (<<).
func plainKeys(n *yaml.Node) bool {
	for i := 0; i < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind != yaml.ScalarNode || k.Tag == "!!merge" || k.Value == "<<" {
			return false
		}
	}
	return true
}

func keyOf(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}

func joinComments(cs ...string) string {
	return strings.Join(slices.DeleteFunc(cs, func(c string) bool { return c == "" }), "\n")
}

// schemaContains reads contains, the earlier word for subset.
func (m *migration) schemaContains(sm *yaml.Node) {
	fix := func(n *yaml.Node, key string) {
		if n.Kind == yaml.ScalarNode && n.Value == string(MatchContains) {
			m.changing(n)
			n.Value = string(MatchSubset)
			m.warn(n, key, "schema-match-contains", string(MatchSubset))
		}
	}
	fix(sm, "expect.catalog.schema_match")
	if sm.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(sm.Content); i += 2 {
			if v := m.plain(sm.Content[i+1]); v != nil {
				fix(v, "expect.catalog.schema_match."+sm.Content[i].Value)
			}
		}
	}
}

// scalar is a new text node at at's place.
func scalar(value string, at *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value, Line: at.Line, Column: at.Column}
}

var shorthandName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// member is the JSONPath segment of a member's name: .name where RFC 9535
// allows the shorthand, ["name"] otherwise (an event id has hyphens).
func member(name string) string {
	if shorthandName.MatchString(name) {
		return "." + name
	}
	q, _ := json.Marshal(name) // a JSON string is an RFC 9535 string literal
	return "[" + string(q) + "]"
}

// flowText is a node as one line of YAML, as a warning quotes it.
func flowText(n *yaml.Node) string {
	c := deepCopy(n)
	setFlow(&c)
	b, err := yaml.Marshal(&c)
	if err != nil {
		return n.Value
	}
	return strings.TrimSpace(string(b))
}

func setFlow(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style |= yaml.FlowStyle
	}
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for _, c := range n.Content {
		setFlow(c)
	}
}

// DeprecatedIn are the deprecated spellings the scenarios were read from,
// each once (a base file is read by every file that extends it), in file
// and line order.
func DeprecatedIn(scs []Scenario) Problems {
	seen := map[string]bool{}
	var out Problems
	for _, sc := range scs {
		for _, p := range sc.Deprecated {
			if !seen[p.Error()] {
				seen[p.Error()] = true
				out = append(out, p)
			}
		}
	}
	return out.sorted()
}
