package vocab

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestEveryCodeIsInTheTable reads codes.go for every constant of type Code.
func TestEveryCodeIsInTheTable(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []Code
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for _, v := range vs.Values {
				lit := v.(*ast.BasicLit)
				consts = append(consts, Code(strings.Trim(lit.Value, `"`)))
			}
		}
	}
	if len(consts) != len(Codes) {
		t.Errorf("%d Code constants, %d entries in Codes", len(consts), len(Codes))
	}
	for _, c := range consts {
		info, ok := Codes[c]
		if !ok {
			t.Errorf("%s is not in Codes", c)
			continue
		}
		if info.Meaning == "" || len(info.Sources) == 0 {
			t.Errorf("%s: no meaning or no source", c)
		}
	}
}
