// Package sariftest checks a SARIF log against SARIF 2.1.0's published
// schema (lint's testdata/README.md says where the copy comes from), for
// the tests of every command that writes one: lint, crawl.
package sariftest

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Validate fails t unless log is SARIF 2.1.0, formats asserted.
func Validate(t testing.TB, log []byte) {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	f, err := os.Open(filepath.Join(filepath.Dir(here), "..", "testdata", "sarif-2.1.0-rtm.5.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://json.schemastore.org/sarif-2.1.0-rtm.5.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, log)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("not SARIF 2.1.0: %v\n%s", err, log)
	}
}
