package mcptest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// callGraph parses the package's non-test files: what each function
// (by name; a method by its name alone) calls, the file that declares it,
// and its parameters' types as written.
type callGraph struct {
	calls  map[string]map[string]bool
	file   map[string][]string
	params map[string][]string
}

func parsePackage(t *testing.T) callGraph {
	t.Helper()
	g := callGraph{calls: map[string]map[string]bool{}, file: map[string][]string{}, params: map[string][]string{}}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := fn.Name.Name
			g.file[n] = append(g.file[n], name)
			for _, p := range fn.Type.Params.List {
				g.params[n] = append(g.params[n], string(src[fset.Position(p.Type.Pos()).Offset:fset.Position(p.Type.End()).Offset]))
			}
			if g.calls[n] == nil {
				g.calls[n] = map[string]bool{}
			}
			ast.Inspect(fn.Body, func(x ast.Node) bool {
				if c, ok := x.(*ast.CallExpr); ok {
					switch f := c.Fun.(type) {
					case *ast.Ident:
						g.calls[n][f.Name] = true
					case *ast.SelectorExpr:
						g.calls[n][f.Sel.Name] = true
					}
				}
				return true
			})
		}
	}
	return g
}

// hops is the length of the shortest chain of calls from one function to
// another, -1 when there is none.
func (g callGraph) hops(from, to string) int {
	dist := map[string]int{from: 0}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for c := range g.calls[n] {
			if _, seen := dist[c]; seen {
				continue
			}
			dist[c] = dist[n] + 1
			if c == to {
				return dist[c]
			}
			queue = append(queue, c)
		}
	}
	return -1
}

// TestFrameFlowStages holds the engine's layout to what docs/internals.md
// ("How a frame flows") says: a stage per file, in the order a frame
// takes them, one entry for a frame, the HTTP exchange not a parameter of
// the receive path, and a POST body decoded in one place.
func TestFrameFlowStages(t *testing.T) {
	g := parsePackage(t)
	for fn, file := range map[string]string{
		"readLoop": "stage1_receive.go", "receive": "stage1_receive.go",
		"process": "stage2_check.go", "request": "stage2_check.go", "checkLifecycle": "stage2_check.go",
		"dispatch": "stage3_dispatch.go", "handle": "stage3_dispatch.go",
		"reply": "stage4_write.go", "writeFaulty": "stage4_write.go", "writeFrames": "stage4_write.go", "writeChunks": "stage4_write.go",
	} {
		if got := g.file[fn]; !strings.Contains(strings.Join(got, " "), file) {
			t.Errorf("%s is declared in %v, want %s", fn, got, file)
		}
	}
	// a stdio frame: readLoop → receive (decode, the one recover) → process (check)
	if n := g.hops("readLoop", "process"); n != 2 {
		t.Errorf("a frame read from a connection takes %d calls from readLoop to process, want 2 (readLoop → receive → process)", n)
	}
	// the HTTP front hands its frames to the same entry (httpConn.receive,
	// which takes the session's receive lock, and Session.receive share a
	// name here)
	if !g.calls["post"]["receive"] || !g.calls["receive"]["process"] {
		t.Errorf("a POSTed frame must go post → httpConn.receive → Session.receive → process")
	}
	for fn, ps := range g.params {
		if strings.HasPrefix(fn, "receive") || fn == "process" {
			for _, p := range ps {
				if p == "*HTTPExchange" {
					t.Errorf("%s takes a *HTTPExchange; the exchange travels in the decoded message (decoded.msg.HTTP)", fn)
				}
			}
		}
	}
	// a POST body is decoded in one place, which the authorization gate
	// and the MCP endpoint share
	var peekers []string
	for fn, calls := range g.calls {
		if calls["peek"] {
			peekers = append(peekers, fn)
		}
	}
	if len(peekers) != 1 || peekers[0] != "decode" {
		t.Errorf("a POST body is decoded (peek) by %v, want only postBody.decode", peekers)
	}
	if !g.calls["readMCPRequest"]["decode"] || !g.calls["post"]["decode"] {
		t.Errorf("the authorization gate (readMCPRequest) and post must both take the body's decoding from postBody.decode")
	}
}
