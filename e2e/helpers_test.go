package e2e

import (
	"encoding/json"
	"strconv"
)

// gjsonString digs a string out of JSON by keys and array indexes.
func gjsonString(raw []byte, path ...string) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	for _, p := range path {
		switch node := v.(type) {
		case map[string]any:
			v = node[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(node) {
				return ""
			}
			v = node[i]
		default:
			return ""
		}
	}
	s, _ := v.(string)
	return s
}
