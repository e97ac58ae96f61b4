package fault_test

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// signatures returns the functions (recv "") or the methods of recv that
// the non-test Go files matching pattern declare, each as its parameter
// list, printed.
func signatures(t *testing.T, pattern, recv string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			if recv == "" && fn.Recv != nil {
				continue
			}
			if recv != "" {
				if fn.Recv == nil {
					continue
				}
				if id, ok := fn.Recv.List[0].Type.(*ast.Ident); !ok || id.Name != recv {
					continue
				}
			}
			var params []string
			for _, p := range fn.Type.Params.List {
				var b strings.Builder
				if err := printer.Fprint(&b, fset, p.Type); err != nil {
					t.Fatal(err)
				}
				for range max(len(p.Names), 1) {
					params = append(params, b.String())
				}
			}
			out[fn.Name.Name] = "(" + strings.Join(params, ", ") + ")"
		}
	}
	return out
}

// TestEveryConstructorIsPlayed: each constructor of this package names a
// constructor of mcptest's engine (its faultCatalog) with the same
// parameters, and the engine has none this package lacks, so the data a
// constructor records is always one the engine can play.
func TestEveryConstructorIsPlayed(t *testing.T) {
	ours := signatures(t, "*.go", "")
	engine := signatures(t, "../*.go", "faultCatalog")
	if len(ours) < 50 {
		t.Fatalf("found %d constructors in package fault; want the whole catalog", len(ours))
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range ours {
			if !yield(n) {
				return
			}
		}
	}) {
		want, ok := engine[name]
		if !ok {
			t.Errorf("fault.%s: mcptest's faultCatalog has no %s, so the fault cannot be played", name, name)
			continue
		}
		if ours[name] != want {
			t.Errorf("fault.%s%s: mcptest's faultCatalog.%s takes %s", name, ours[name], name, want)
		}
	}
	for name := range engine {
		if _, ok := ours[name]; !ok {
			t.Errorf("mcptest's faultCatalog.%s has no constructor in package fault", name)
		}
	}
}

// TestFaultsPrintAsWritten: a fault prints its constructor call and its
// trigger, and a misbuilt one says why through Err before it is installed.
func TestFaultsPrintAsWritten(t *testing.T) {
	cases := []struct {
		f    mcptest.Fault
		want string
	}{
		{fault.Hang("tools/call"), `Hang("tools/call")`},
		{fault.Delay("tools/call", 2e9).Nth(2).InSession(1), `Delay("tools/call", 2s).Nth(2).InSession(1)`},
		{fault.RespondSupportedVersions("2025-06-18", "2026-07-28"), `RespondSupportedVersions("2025-06-18", "2026-07-28")`},
		{fault.ListChangedAfter("tools/list", "notifications/tools/list_changed"), `ListChangedAfter("tools/list", "notifications/tools/list_changed").Nth(1)`},
		{fault.SetField("tools/call", "result.isError", nil), `SetField("tools/call", "result.isError", null)`},
	}
	for _, tc := range cases {
		if got := tc.f.String(); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
		if err := tc.f.Err(); err != nil {
			t.Errorf("%s: Err() = %v, want nil", tc.f, err)
		}
	}
	if err := fault.RespondCapabilities("{not json").Err(); err == nil {
		t.Errorf("RespondCapabilities with no JSON: Err() = nil, want why")
	}
	if err := fault.Hang("tools/call").Nth(0).Err(); err == nil || !strings.Contains(err.Error(), "Nth(0)") {
		t.Errorf("Nth(0): Err() = %v, want it to name Nth(0)", err)
	}
	if err := fault.Hang("tools/cal").Err(); err == nil || !strings.Contains(err.Error(), `did you mean "tools/call"`) {
		t.Errorf("a mistyped method: Err() = %v, want a did-you-mean", err)
	}
}
