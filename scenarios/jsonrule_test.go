package scenarios_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// jsonRuleParams are the parameters of mcptest that take any JSON value by
// the package's JSON rule, where a Go string is a JSON string and only a
// json.RawMessage (or []byte) is JSON text: the function or method name
// and the index of the parameter. The list is the doc comments' (grep
// mcptest for "JSON rule" and "json.RawMessage for JSON text"):
//   - JSONRPCError(code, message, data): data (reply.go)
//   - ReplaceWithJSONRPCError(method, code, message, data): data (faults.go)
//   - RespondProtocolVersion(v): v (faults.go)
//   - SetField(method, path, value): value (faults.go)
//   - JSONRPCVersion(method, v): v (faults.go)
//   - RequestWithID(method, reqMethod, id, params): id (faults.go)
//   - Journal.Where and Messages.Where(path, want): want (journal.go)
//   - Tool, Prompt, Resource and ResourceTemplate .WithField(key, value):
//     value ("a Go value (a json.RawMessage for JSON text)")
//
// Not in the list: parameters that take a JSON object or a schema (Result,
// params, capabilities, argument subsets, input schemas), which read a Go
// string as JSON text.
var jsonRuleParams = map[string]int{
	"JSONRPCError":            2,
	"ReplaceWithJSONRPCError": 3,
	"RespondProtocolVersion":  0,
	"SetField":                2,
	"JSONRPCVersion":          1,
	"RequestWithID":           2,
	"Where":                   1,
	"WithField":               1,
}

// jsonRuleMisuses returns, for the Go source src, each call that passes a
// string literal (or a constant of the same file holding one) that looks
// like JSON text, starting with { or [, where jsonRuleParams says a Go
// string is a JSON string: the value would go over the wire as a string
// holding JSON, not as the object or array it looks like.
func jsonRuleMisuses(fset *token.FileSet, file *ast.File) []string {
	var out []string
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		var name string
		switch f := call.Fun.(type) {
		case *ast.Ident:
			name = f.Name
		case *ast.SelectorExpr:
			name = f.Sel.Name
		}
		i, ok := jsonRuleParams[name]
		if !ok || i >= len(call.Args) {
			return true
		}
		if text, ok := stringValue(call.Args[i]); ok {
			if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
				out = append(out, fmt.Sprintf("%s: %s's argument %d is the Go string %s, which the JSON rule sends as a JSON string; write json.RawMessage(%s) for JSON text",
					fset.Position(call.Args[i].Pos()), name, i+1, shortLit(text), shortLit(text)))
			}
		}
		return true
	})
	return out
}

// stringValue returns the value of a string literal, or of a constant
// declared with one in the same file.
func stringValue(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.ParenExpr:
		return stringValue(e.X)
	case *ast.Ident:
		if e.Obj != nil && e.Obj.Kind == ast.Con {
			if vs, ok := e.Obj.Decl.(*ast.ValueSpec); ok {
				for i, n := range vs.Names {
					if n.Name == e.Name && i < len(vs.Values) {
						return stringValue(vs.Values[i])
					}
				}
			}
		}
	}
	return "", false
}

func shortLit(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "`" + s + "`"
}

// TestJSONRule runs jsonRuleMisuses over every .go file of the three
// modules (the library, ./integration and ./examples): a string that
// looks like JSON passed where a Go string is a JSON string is a bug (the
// catalog's elicitation-round-trip once answered -32021 with data as a
// string holding JSON).
func TestJSONRule(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		for _, m := range jsonRuleMisuses(fset, f) {
			t.Error(m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d .go files; the walk from .. missed the modules", files)
	}
}

// TestJSONRuleCatches: the check finds the catalog's old bug, a string
// holding JSON as JSONRPCError's data, and a constant holding one as
// SetField's value; json.RawMessage and a plain string pass.
func TestJSONRuleCatches(t *testing.T) {
	src := `package p
const caps = ` + "`" + `{"tools":{}}` + "`" + `
func f() {
	_ = mcptest.JSONRPCError(-32021, "Missing", ` + "`" + `{"requiredCapabilities":{"elicitation":{}}}` + "`" + `)
	_ = fault.SetField("initialize", "result.capabilities", caps)
	_ = mcptest.JSONRPCError(1, "ok", json.RawMessage(` + "`" + `{"a":1}` + "`" + `))
	_ = fault.SetField("initialize", "result.protocolVersion", "2025-11-25")
	_ = srv.Journal().All().Where("params.name", " [1]")
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := jsonRuleMisuses(fset, f)
	if len(got) != 3 || !strings.Contains(got[0], "p.go:4:") || !strings.Contains(got[0], "JSONRPCError's argument 3") ||
		!strings.Contains(got[1], "SetField's argument 3") || !strings.Contains(got[2], "Where's argument 2") {
		t.Errorf("want the JSONRPCError, SetField and Where calls, got %d:\n%s", len(got), strings.Join(got, "\n"))
	}
}
