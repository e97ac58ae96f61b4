package integration_test

// The first hour: the README quickstart (quickstart_test.go) and the
// package doc's example (TestGiftApp, below) pass as written, and these
// tests keep each the same as its copy here, line for line.

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGiftApp is the example of mcptest's package doc, line for line.
func TestGiftApp(t *testing.T) {
	srv := mcptest.NewServer(t).
		WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
	conn := srv.Dial() // the client's end of an in-memory stdio-style connection

	client := mcp.NewClient(&mcp.Implementation{Name: "app", Version: "1.0"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	// the code under test lists and calls tools through cs, such as:
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}}); err != nil {
		t.Fatal(err)
	}

	srv.AssertConnected(t) // in whichever era the client chose
	srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`)
}

// readFile returns a file of the repository, relative to this module.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("want to read %s: %v", path, err)
	}
	return string(b)
}

// between returns the text of s after the first start (which must be
// there) up to the next end.
func between(t *testing.T, s, start, end, what string) string {
	t.Helper()
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		t.Fatalf("want %q in %s, found none", start, what)
	}
	body, _, ok := strings.Cut(rest, end)
	if !ok {
		t.Fatalf("want %q after %q in %s, found none", end, start, what)
	}
	return body
}

// sameLines fails t at the first line where got and want differ.
func sameLines(t *testing.T, got, want, gotName, wantName string) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Fatalf("%s and %s differ at line %d:\n  %s: %q\n  %s: %q\nkeep them the same, line for line", gotName, wantName, i+1, gotName, gl, wantName, wl)
		}
	}
}

// TestQuickstartIsTheReadme: quickstart_test.go from its import block on
// is the README's quickstart block.
func TestQuickstartIsTheReadme(t *testing.T) {
	readme := between(t, readFile(t, "../README.md"), "## Quickstart\n\n```go\n", "```\n", "README.md")
	file := readFile(t, "quickstart_test.go")
	i := strings.Index(file, "import (")
	if i < 0 {
		t.Fatalf("want an import block in quickstart_test.go")
	}
	sameLines(t, file[i:], readme, "quickstart_test.go", "the README quickstart")
}

// TestGiftAppIsThePackageDoc: TestGiftApp is the example of mcptest's
// package doc.
func TestGiftAppIsThePackageDoc(t *testing.T) {
	var doc []string
	for _, l := range strings.Split(between(t, readFile(t, "../mcptest/doc.go"), "// did.\n//\n", "//\n// #", "mcptest/doc.go"), "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimPrefix(l, "//")
		doc = append(doc, strings.TrimPrefix(l, "\t"))
	}
	file := "func TestGiftApp" + between(t, readFile(t, "readme_test.go"), "\nfunc TestGiftApp", "\n}\n", "readme_test.go") + "\n}"
	sameLines(t, file, strings.Join(doc, "\n"), "TestGiftApp in readme_test.go", "the package doc of mcptest")
}
