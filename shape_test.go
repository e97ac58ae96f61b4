package mcpmock_test

// The shape of the public packages, measured: how many exported names each
// has (top-level functions, types, constants and variables, plus the
// exported methods of its exported types; a struct's fields are read with
// its type and not counted, as issue 29 counted). A package a user reads in one sitting has few; the budgets are
// where each package stands or its target, whichever is lower, so a change
// can only keep a package as small or make it smaller (issue 29: mcptest
// at most 250, every other package at most 120).

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// exportBudget is the most exported names each public package may have.
// Lower a budget when a package shrinks; never raise one without saying
// why in the commit.
var exportBudget = map[string]int{
	"mcptest":        426, // target 250 (issue 29)
	"scenarios":      120,
	"scenarios/tour": 120,
	"scenarios/bugs": 120,
	"config":         120,
}

// exportedNames lists the exported names of the Go package in dir (its
// non-test files): "Name" for a top-level declaration, "Type.Method" for
// a method of an exported type.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parsing %s: %v", dir, err)
	}
	var names []string
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					if d.Recv == nil {
						names = append(names, d.Name.Name)
						continue
					}
					if recv := receiverType(d.Recv.List[0].Type); ast.IsExported(recv) {
						names = append(names, recv+"."+d.Name.Name)
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() {
									names = append(names, n.Name)
								}
							}
						case *ast.TypeSpec:
							if !s.Name.IsExported() {
								continue
							}
							names = append(names, s.Name.Name)
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// receiverType is the name of a method's receiver type (T for T, *T, T[P]).
func receiverType(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiverType(x.X)
	case *ast.IndexExpr:
		return receiverType(x.X)
	case *ast.IndexListExpr:
		return receiverType(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}

func TestExportBudget(t *testing.T) {
	pkgs := make([]string, 0, len(exportBudget))
	for p := range exportBudget {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		n := len(exportedNames(t, filepath.FromSlash(p)))
		t.Logf("%-15s %4d exported names (budget %d)", p, n, exportBudget[p])
		if n > exportBudget[p] {
			t.Errorf("%s exports %d names, over its budget of %d: make the package smaller (or, with a reason, raise the budget in shape_test.go)", p, n, exportBudget[p])
		}
	}
}

// TestExportBudgetCounts: the counter sees a top-level name and a method
// of an exported type, not a field, nor an unexported type's method.
func TestExportBudgetCounts(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\ntype T struct{ A, b int }\n\nfunc (T) M() {}\nfunc (*T) n() {}\n\ntype u struct{ C int }\n\nfunc (u) D() {}\n\nconst E, f = 1, 2\n\nfunc G() {}\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(exportedNames(t, dir), " ")
	if want := "E G T T.M"; got != want {
		t.Errorf("exportedNames = %q, want %q", got, want)
	}
}
