package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/kit/hostile"
)

// A file too large or nested too deep is refused at once, naming the file
// and where; the deepest document the suite meets passes.
func TestReadInputRefusesTooLargeAndTooDeep(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	deep := write("deep.json", []byte(hostile.DeepJSON(MaxInputDepth+1)))
	big := write("big.json", append([]byte(`["`), append([]byte(strings.Repeat("x", MaxInputBytes)), []byte(`"]`)...)...))
	fine := write("fine.json", []byte(`[{"s": "[[[[{{{{\"]]"}, `+hostile.DeepJSON(150)+`]`))
	for _, c := range []struct{ path, want string }{
		{deep, "deep.json: 1:1001: nested more than 1000 deep"},
		{big, "big.json: the file is 67108868 bytes or more"},
	} {
		began := time.Now()
		_, err := ReadInput(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", filepath.Base(c.path), err, c.want)
		}
		if d := time.Since(began); d > time.Second {
			t.Logf("%s refused after %v", filepath.Base(c.path), d) // a bound of the machine, said, not failed on
		}
	}
	if _, err := ReadInput(fine); err != nil {
		t.Errorf("a document 151 deep with brackets in a string: %v", err)
	}
}
