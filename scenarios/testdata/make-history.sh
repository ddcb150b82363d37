#!/usr/bin/env bash
# Writes history.txtar: for every key path and kind of value a scenario file
# of this repository has ever written (since its first commit), one file that
# wrote it (a greedy cover over every version in git history), with the files
# it needs: what it extends, its folder's agentready.yaml, a storage state or
# contract it names. Run from anywhere inside a full clone (not a shallow one);
# needs git, go and python3. TestTheHistoryOfTheFormatLoads reads the result.
set -euo pipefail
repo=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$repo"
git log --all --format= --name-only --diff-filter=AM | grep -E '\.ya?ml$' |
	grep -v -E '^ci/|\.github|/broken/|/deprecated/|/testdata/history' | sort -u >"$work/paths"
while read -r p; do
	git log --all --format=%H -- "$p" | while read -r c; do
		b=$(git rev-parse -q --verify "$c:$p" 2>/dev/null) && echo "$b $c $p"
	done
done <"$work/paths" | sort -u -k1,1 >"$work/blobs"
awk '{print $2}' "$work/blobs" | sort -u | while read -r c; do
	mkdir -p "$work/c/${c:0:10}"
	git archive "$c" | tar -x -C "$work/c/${c:0:10}" --wildcards '*.yaml' '*.yml' '*.json' 2>/dev/null || true
done
# The shape of a file: each key path (free-form maps' keys as *) with the YAML
# kind of its value (for a key that takes a word, the word), read by the yaml
# library the suite reads files with.
mkdir -p "$work/shape"
cat >"$work/shape/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"go.yaml.in/yaml/v4"
)

var free = map[string]bool{"prompt_data": true, "probes": true, "equals": true, "changes": true, "input": true,
	"body": true, "output": true, "seats": true, "counts": true, "headers": true, "env": true, "attributes": true,
	"schemas": true, "form": true, "fields": true}

var words = map[string]bool{"schema_match": true, "match": true, "phase": true, "transport": true, "merge": true,
	"leave": true, "calls": true, "network": true, "dialogs": true}

func walk(n *yaml.Node, at string, out map[string]bool) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			walk(c, at, out)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if free[at[strings.LastIndex(at, ".")+1:]] {
				k = "*"
			}
			walk(n.Content[i+1], at+"."+k, out)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			walk(c, at+"[]", out)
		}
	case yaml.ScalarNode:
		if words[at[strings.LastIndex(at, ".")+1:]] {
			out[at+"="+n.Value] = true
		} else {
			out[at+"="+n.ShortTag()] = true
		}
	}
}

func main() {
	for _, f := range os.Args[1:] {
		b, _ := os.ReadFile(f)
		var n yaml.Node
		if yaml.Unmarshal(b, &n) != nil {
			continue
		}
		m := map[string]bool{}
		walk(&n, "", m)
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		fmt.Printf("%s\t%s\n", f, strings.Join(ks, " "))
	}
}
GO
(cd "$repo" && go build -o "$work/shape/shape" "$work/shape/main.go")
cd "$work"
while read -r b c p; do
	case $p in */agentready.yaml | agentready.yaml) ;; *) echo "c/${c:0:10}/$p" ;; esac
done <blobs | xargs shape/shape >shapes
python3 - "$repo/scenarios/testdata/history.txtar" <<'PY'
import os, re, sys
rows = [l.rstrip('\n').split('\t') for l in open('shapes')]
sets = {f: set(s.split(' ')) for f, s in rows}
every = set().union(*sets.values())
chosen, covered = [], set()
while covered != every:
    f = max(sorted(sets), key=lambda f: len(sets[f] - covered))
    chosen.append(f)
    covered |= sets[f]
def needs(f):
    d, s = os.path.dirname(f), open(f).read()
    out = [os.path.normpath(os.path.join(d, m.group(1))) for m in
           re.finditer(r'(?m)(?:extends|storage_state|contract)\s*:\s*["\']?([^"\'\s,}#]+)', s)]
    out += [os.path.normpath(os.path.join(d, m.group(1))) for m in re.finditer(r'\{\s*file:\s*["\']?([^"\'\s,}]+)', s)]
    if os.path.exists(os.path.join(d, 'agentready.yaml')):
        out.append(os.path.join(d, 'agentready.yaml'))
    return out
files, todo = set(), list(chosen)
while todo:
    f = todo.pop()
    if f in files or not os.path.exists(f):
        continue
    files.add(f)
    todo += needs(f)
head = """This is every shape a scenario file of this repository has had since its first
commit (issue 45): for each key path and kind of value ever written, a file that
wrote it, picked from git history by greedy cover, with the files each one needs
(what it extends, its folder's agentready.yaml, a storage state). Each file is
under <commit>/<its path then>. TestTheHistoryOfTheFormatLoads reads them all;
scenarios/testdata/make-history.sh wrote it.
"""
with open(sys.argv[1], 'w') as out:
    out.write(head)
    for f in sorted(files):
        data = open(f).read()
        out.write(f"-- {f[2:]} --\n{data if data.endswith(chr(10)) else data + chr(10)}")
PY
echo "wrote $repo/scenarios/testdata/history.txtar"
