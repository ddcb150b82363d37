package hostile

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// The bomb is small and is YAML that stands for far more than it writes;
// the deep array is JSON of the depth asked.
func TestTheInputIsWhatItSays(t *testing.T) {
	bomb := AliasBomb("x")
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(bomb), &n); err != nil || len(bomb) > 500 || strings.Count(bomb, "*") != 81 {
		t.Errorf("bomb of %d bytes, %d aliases: %v", len(bomb), strings.Count(bomb, "*"), err)
	}
	var v any
	if err := json.Unmarshal([]byte(DeepJSON(50)), &v); err != nil {
		t.Fatal(err)
	}
	depth := 0
	for a, ok := v.([]any); ok; a, ok = a[0].([]any) {
		depth++
		if len(a) == 0 {
			break
		}
	}
	if depth != 50 {
		t.Errorf("depth %d", depth)
	}
}
