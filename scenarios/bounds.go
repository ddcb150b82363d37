package scenarios

import (
	"fmt"

	"go.yaml.in/yaml/v4"
)

// The bounds of a file the suite reads as YAML (issue 45): a 1 KB file of
// ten levels of nine aliases stands for 9^10 nodes, and every walk of the
// tree (the schema, extends, the decode) walked them all — check ran past
// a minute. Bad input gets a clear error at once: the file is refused
// before anything walks it, naming where its aliases expand too far.
const (
	maxYAMLBytes = 1 << 20 // far above any scenario (the largest is 5 KB)
	maxYAMLNodes = 100_000 // the nodes it stands for, aliases expanded
	maxYAMLDepth = 100     // nesting, aliases followed
)

// parseBounded parses data as YAML into a node tree, refusing a file
// larger than maxYAMLBytes before parsing, and one whose aliases expand
// past maxYAMLNodes or maxYAMLDepth after: a Problem naming the file (and
// the alias that goes too far), never a hang.
func parseBounded(file string, data []byte) (*yaml.Node, *Problem) {
	if len(data) > maxYAMLBytes {
		return nil, &Problem{File: file, Unread: true, Message: fmt.Sprintf("the file is %d bytes: a file the suite reads is at most %d (1 MiB)", len(data), maxYAMLBytes)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		p := syntaxProblem(file, err)
		return nil, &p
	}
	type size struct{ nodes, depth int }
	memo := map[*yaml.Node]size{}
	var measure func(n *yaml.Node, onPath map[*yaml.Node]bool) size
	measure = func(n *yaml.Node, onPath map[*yaml.Node]bool) size {
		if s, ok := memo[n]; ok {
			return s
		}
		if onPath[n] {
			return size{maxYAMLNodes + 1, maxYAMLDepth + 1} // an alias to its own ancestor
		}
		onPath[n] = true
		defer delete(onPath, n)
		s := size{nodes: 1, depth: 1}
		kids := n.Content
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			kids = []*yaml.Node{n.Alias}
		}
		for _, k := range kids {
			ks := measure(k, onPath)
			s.nodes = min(s.nodes+ks.nodes, maxYAMLNodes+1)
			s.depth = max(s.depth, ks.depth+1)
		}
		memo[n] = s
		return s
	}
	whole := measure(&doc, map[*yaml.Node]bool{})
	if whole.nodes <= maxYAMLNodes && whole.depth <= maxYAMLDepth {
		return &doc, nil
	}
	// The first alias that stands for too much, to point at.
	var at *yaml.Node
	var find func(n *yaml.Node)
	find = func(n *yaml.Node) {
		if at != nil {
			return
		}
		if n.Kind == yaml.AliasNode {
			if s := memo[n]; s.nodes > maxYAMLNodes/10 || s.depth > maxYAMLDepth {
				at = n
			}
			return
		}
		for _, k := range n.Content {
			find(k)
		}
	}
	find(&doc)
	p := &Problem{File: file, Unread: true, Message: fmt.Sprintf("the file's aliases expand to more than %d nodes or %d levels (an alias bomb?): write the values out, or use fewer aliases", maxYAMLNodes, maxYAMLDepth)}
	if at != nil {
		p.Line, p.Column = at.Line, at.Column
	}
	return nil, p
}
