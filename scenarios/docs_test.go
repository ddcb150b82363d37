package scenarios

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// Every whole scenario the READMEs tell a person to write loads: the
// quick start's five lines, the growing example, the full one, a
// companion patch (read beside the base it names).
func TestTheScenariosTheREADMEsShowLoad(t *testing.T) {
	n := 0
	for _, doc := range []string{"../README.md", "README.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range yamlBlock.FindAllStringSubmatch(string(text), -1) {
			block := m[1]
			if !regexp.MustCompile(`(?m)^id: `).MatchString(block) || !regexp.MustCompile(`(?m)^title: `).MatchString(block) {
				continue // a part of a scenario, shown in its place
			}
			n++
			name := "cases/doc-example.yaml"
			if strings.Contains(block, "\nextends: EDIT-02.yaml") {
				name = "cases/drafts/doc-example.yaml"
			}
			if _, err := Parse(name, []byte(block)); err != nil {
				t.Errorf("%s shows a scenario that does not load:\n%s\n%v", doc, block, err)
			}
		}
	}
	if n < 4 {
		t.Errorf("only %d whole scenarios in the READMEs", n)
	}
}
