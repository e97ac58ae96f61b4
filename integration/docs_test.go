package integration_test

// The docs compile. TestDocBlocksCompile extracts every ```go block of
// README.md and of every page of docs/ (markdownPages), and every code
// block of the package docs named in docSources,
// wraps each with only the glue declared below, writes them all into ONE
// temporary module (a package per block) that reaches the library through
// a replace to this repository and the SDKs through the module cache, and
// runs `go vet ./...` on it once. The names the docs' prose mentions are
// checked in docnames_test.go.
//
// How a block is read:
//
//   - A block with an import block is a Go file (its package clause is
//     added).
//   - A block of top-level declarations (func, type, var, const) is a Go
//     file whose imports are added for the packages it uses (importTable).
//   - A block that is deliberately partial — statements that use variables
//     of the reader's test — says so on one of its lines with the marker
//     comment
//
//     // mcpmock:fragment
//
//     (anything may follow it: say what the reader brings). It is compiled
//     as the body of a function that returns an error, whose parameters
//     are the glue variables (glueVars) it uses; each variable it declares at its top level is
//     then used once (`_ = x`), since a fragment's variables are for the
//     reader. The words "mark3labs" after the marker make `mcp` the
//     mark3labs package instead of the official SDK's.
//   - In a package doc, a block that starts with `{` (JSON), with a
//     command (`go `, `mcpmock `) or with a table's header (isTableHeader)
//     is not Go and is not compiled; in the README and docs/ only ```go
//     blocks are compiled.
//
// TestReadmeLength keeps the README a front page: at most readmeMaxLines
// lines, the rest in docs/.
//
// Nothing here names the library's exported API: after a rename only the
// docs change.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// fragmentMarker marks a block that is deliberately partial.
const fragmentMarker = "// mcpmock:fragment"

// docSources are the files whose package doc's code blocks are compiled.
var docSources = []string{
	"../mcptest/doc.go",
	"../mcptest/oauth/doc.go",
	"../scenarios/doc.go",
	"../scenarios/tour/tour.go",
	"../config/config.go",
	"../cmd/mcpmock/main.go",
}

// importTable: a package name a block may use without importing it, and
// its import path.
var importTable = map[string]string{
	"context":   "context",
	"errors":    "errors",
	"fmt":       "fmt",
	"io":        "io",
	"json":      "encoding/json",
	"net":       "net",
	"http":      "net/http",
	"os":        "os",
	"strings":   "strings",
	"testing":   "testing",
	"time":      "time",
	"mcptest":   "github.com/mcpmock/mcpmock/mcptest",
	"fault":     "github.com/mcpmock/mcpmock/mcptest/fault",
	"oauth":     "github.com/mcpmock/mcpmock/mcptest/oauth",
	"scenarios": "github.com/mcpmock/mcpmock/scenarios",
	"config":    "github.com/mcpmock/mcpmock/config",
	"tour":      "github.com/mcpmock/mcpmock/scenarios/tour",
	"bugs":      "github.com/mcpmock/mcpmock/scenarios/bugs",
	"url":       "net/url",
	"auth":      "github.com/modelcontextprotocol/go-sdk/auth",
	"oauthex":   "github.com/modelcontextprotocol/go-sdk/oauthex",
	"mcp":       "github.com/modelcontextprotocol/go-sdk/mcp",
	"client":    "github.com/mark3labs/mcp-go/client",
	"transport": "github.com/mark3labs/mcp-go/client/transport",
	"assert":    "github.com/stretchr/testify/assert",
	"require":   "github.com/stretchr/testify/require",
}

// mark3labsMCP is what `mcp` means in a block marked "mark3labs".
const mark3labsMCP = "github.com/mark3labs/mcp-go/mcp"

// glueVars: the variables a fragment may use without declaring them (a
// fragment's function parameters), and their types.
var glueVars = map[string]string{
	"t":    "*testing.T",
	"ctx":  "context.Context",
	"srv":  "*mcptest.Server",
	"impl": "*mcp.Implementation",
	"opts": "*mcp.ClientOptions",
	"call": "mcptest.Message",

	"authz": "*oauth.Authorization", // the authorization of the docs' OAuth-protected server
}

// gluePackageDecls: what a block may use from the reader's own code,
// declared at package level where a block uses it. (A block of
// declarations gets the glueVars it uses as package-level variables.)
var gluePackageDecls = map[string]string{
	"myServer": "var myServer func(mcptest.TB) *mcptest.Server",
	"myapp":    "var myapp struct{ RunOnce func(context.Context, net.Conn) error }",
	"app":      "var app func(context.Context, *scenarios.Endpoint, scenarios.Scenario, func(string, ...any)) error",
	// the bug recipe's client under test
	"runMyClient": "var runMyClient func(context.Context, net.Conn) error",
	"myConnect":   "var myConnect scenarios.ConnectFunc",
	"myClient":    "var myClient scenarios.ConnectFunc",
	// the mark3labs authorization block's request
	"initRequest": "var initRequest mcp.InitializeRequest",
}

// docBlock is one code block of a doc and where it is.
type docBlock struct {
	where string // file:line
	src   string
}

// readmeGoBlocks returns the ```go blocks of a Markdown text.
func readmeGoBlocks(name, text string) []docBlock {
	var out []docBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		start := i + 1
		j := start
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		out = append(out, docBlock{where: fmt.Sprintf("%s:%d", name, start+1), src: strings.Join(lines[start:j], "\n")})
		i = j
	}
	return out
}

// isTableHeader reports whether a block's first line is the header of a
// table (words in columns, two spaces or more apart, and none of Go's
// punctuation), such as mcptest's table of assertions.
func isTableHeader(line string) bool {
	return strings.Contains(line, "  ") && !strings.ContainsAny(line, "{}=.:\"`;")
}

// packageDocBlocks returns the code blocks (tab-indented) of the package
// doc comment of a Go file that are Go (not JSON, not commands).
func packageDocBlocks(name, text string) []docBlock {
	var out []docBlock
	lines := strings.Split(text, "\n")
	var cur []string
	curStart := 0
	flush := func() {
		if len(cur) == 0 {
			return
		}
		first := strings.TrimSpace(cur[0])
		if !strings.HasPrefix(first, "{") && !strings.HasPrefix(first, "go ") && !strings.HasPrefix(first, "mcpmock ") && !isTableHeader(first) {
			out = append(out, docBlock{where: fmt.Sprintf("%s:%d", name, curStart+1), src: strings.Join(cur, "\n")})
		}
		cur = nil
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "package ") {
			break
		}
		switch {
		case strings.HasPrefix(l, "//\t"):
			if cur == nil {
				curStart = i
			}
			cur = append(cur, strings.TrimPrefix(l, "//\t"))
		case l == "//" && cur != nil:
			cur = append(cur, "") // a blank line inside a block, or its end
		default:
			flush()
		}
	}
	flush()
	for i := range out {
		out[i].src = strings.TrimRight(out[i].src, "\n")
	}
	return out
}

// minDocsPages is how many pages docs/ holds at least: one per subject.
const minDocsPages = 12

// markdownPages returns the README and every page of docs/ (docs/*.md),
// as paths from the repository's root, the README first.
func markdownPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < minDocsPages {
		t.Fatalf("want the pages of docs/ (at least %d), found %d: %v", minDocsPages, len(pages), pages)
	}
	sort.Strings(pages)
	out := []string{"README.md"}
	for _, p := range pages {
		out = append(out, strings.TrimPrefix(filepath.ToSlash(p), "../"))
	}
	return out
}

// allDocBlocks returns every block the check compiles.
func allDocBlocks(t *testing.T) []docBlock {
	t.Helper()
	var blocks []docBlock
	for _, page := range markdownPages(t) {
		blocks = append(blocks, readmeGoBlocks(page, readFile(t, "../"+page))...)
	}
	for _, f := range docSources {
		bs := packageDocBlocks(strings.TrimPrefix(f, "../"), readFile(t, f))
		blocks = append(blocks, bs...)
	}
	return blocks
}

// wrapBlock turns a block into the Go file of package pkg, with only the
// declared glue.
func wrapBlock(b docBlock, pkg string) (string, error) {
	fragment := false
	mcpPath := importTable["mcp"]
	for _, l := range strings.Split(b.src, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), fragmentMarker); ok {
			fragment = true
			if strings.Contains(rest, "mark3labs") {
				mcpPath = mark3labsMCP
			}
		}
	}
	header := "package " + pkg + "\n\n"
	if !fragment && strings.HasPrefix(strings.TrimSpace(b.src), "import") {
		return header + b.src + "\n", nil
	}
	body := b.src
	if fragment {
		body = "func _() {\n{\n" + b.src + "\n}\n}\n"
	}
	// Parse once to find what the block uses but does not declare.
	f, err := parser.ParseFile(token.NewFileSet(), b.where, header+body, 0)
	if err != nil {
		return "", fmt.Errorf("%s does not parse as %s: %v (a partial block needs the marker %q)", b.where, map[bool]string{true: "a fragment", false: "Go declarations"}[fragment], err, fragmentMarker)
	}
	var imports, params, decls []string
	seen := map[string]bool{}
	for _, id := range f.Unresolved {
		if seen[id.Name] {
			continue
		}
		seen[id.Name] = true
		if d, ok := gluePackageDecls[id.Name]; ok {
			decls = append(decls, d)
		}
		if typ, ok := glueVars[id.Name]; ok {
			if fragment {
				params = append(params, id.Name+" "+typ)
			} else {
				decls = append(decls, "var "+id.Name+" "+typ)
			}
		}
	}
	// The glue's own types use packages too.
	used := map[string]bool{}
	for _, id := range f.Unresolved {
		used[id.Name] = true
	}
	for _, g := range append(slices.Clone(params), decls...) {
		for name := range importTable {
			if regexp.MustCompile(`\b` + name + `\.`).MatchString(g) { // "scenarios." does not use os
				used[name] = true
			}
		}
	}
	for name := range used {
		if path, ok := importTable[name]; ok {
			if name == "mcp" {
				path = mcpPath
			}
			imports = append(imports, fmt.Sprintf("%s %q", name, path))
		}
	}
	sort.Strings(imports)
	sort.Strings(decls)
	var sb strings.Builder
	sb.WriteString(header)
	if len(imports) > 0 {
		sb.WriteString("import (\n\t" + strings.Join(imports, "\n\t") + "\n)\n\n")
	}
	for _, d := range decls {
		sb.WriteString(d + "\n")
	}
	if !fragment {
		sb.WriteString(b.src + "\n")
		return sb.String(), nil
	}
	// Use each variable the fragment declares at its top level once.
	var uses []string
	inner := f.Decls[0].(*ast.FuncDecl).Body.List[0].(*ast.BlockStmt)
	for _, st := range inner.List {
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					uses = append(uses, "_ = "+id.Name)
				}
			}
		}
	}
	fmt.Fprintf(&sb, "func Fragment(%s) error {\n%s\n%s\nreturn nil\n}\n", strings.Join(params, ", "), b.src, strings.Join(uses, "\n"))
	return sb.String(), nil
}

// writeDocModule writes every block into one module in dir: package
// b<i> per block, the library replaced by this repository.
func writeDocModule(t *testing.T, dir string, blocks []docBlock) map[string]docBlock {
	t.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	gomod := readFile(t, "go.mod")
	gomod = strings.Replace(gomod, "module github.com/mcpmock/mcpmock/integration", "module mcpmockdocs", 1)
	gomod = strings.Replace(gomod, "=> ../", "=> "+repo, 1)
	must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "go.sum"), []byte(readFile(t, "go.sum")), 0o644))
	byPkg := map[string]docBlock{}
	for i, b := range blocks {
		pkg := fmt.Sprintf("b%02d", i)
		src, err := wrapBlock(b, pkg)
		if err != nil {
			t.Error(err)
			continue
		}
		must(t, os.MkdirAll(filepath.Join(dir, pkg), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, pkg, "block_test.go"), []byte(src), 0o644))
		byPkg[pkg] = b
	}
	return byPkg
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// vetDocModule runs go vet once over the module in dir, with no network.
func vetDocModule(t *testing.T, dir string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// blameBlocks rewrites go vet's output so each error names the doc block.
func blameBlocks(out string, byPkg map[string]docBlock) string {
	var sb strings.Builder
	re := regexp.MustCompile(`(?m)^(?:vet: )?\.?/?(b\d+)/block_test\.go:(\d+)(?::\d+)?`)
	for _, l := range strings.Split(out, "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			if b, ok := byPkg[m[1]]; ok {
				l = fmt.Sprintf("%s (block at %s; generated line %s)", l, b.where, m[2])
			}
		}
		sb.WriteString(l + "\n")
	}
	return sb.String()
}

// TestDocBlocksCompile: every Go block of the README, of the pages of
// docs/ and of the package docs compiles and passes go vet.
func TestDocBlocksCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the docs' code blocks with the go command")
	}
	blocks := allDocBlocks(t)
	if len(blocks) < 10 {
		t.Fatalf("want the Go blocks of the README, docs/ and the package docs, found %d", len(blocks))
	}
	dir := t.TempDir()
	byPkg := writeDocModule(t, dir, blocks)
	start := time.Now()
	out, err := vetDocModule(t, dir)
	t.Logf("go vet of %d doc blocks took %v", len(byPkg), time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("the docs' Go blocks do not compile (fix the doc; a deliberately partial block says %q):\n%s", fragmentMarker, blameBlocks(out, byPkg))
	}
}

// TestDocBlocksCompileFailsOnABrokenBlock: the check fails, naming the
// block, when a block stops compiling.
func TestDocBlocksCompileFailsOnABrokenBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the go command")
	}
	blocks := []docBlock{
		{where: "broken.md:1", src: fragmentMarker + "\nsrv.NoSuchMethod(t)"},
		{where: "broken.md:5", src: "func TestX(t *testing.T) {\n\tb, _ := fmt.Println()\n}"},
		{where: "fine.md:9", src: fragmentMarker + "\nsrv.AssertConnected(t)"},
	}
	dir := t.TempDir()
	byPkg := writeDocModule(t, dir, blocks)
	out, err := vetDocModule(t, dir)
	if err == nil {
		t.Fatalf("want go vet to fail on the broken blocks, it passed:\n%s", out)
	}
	msg := blameBlocks(out, byPkg)
	for _, want := range []string{"broken.md:1", "broken.md:5", "NoSuchMethod", "declared and not used"} {
		if !strings.Contains(msg, want) {
			t.Errorf("want %q in the failure, got:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "fine.md") {
		t.Errorf("the block that compiles is blamed:\n%s", msg)
	}
}

// readmeMaxLines is how long the README may be: what the project is, the
// setup, the quickstart, one example per subject and the links into
// docs/; everything else has its page there.
const readmeMaxLines = 300

// TestReadmeLength: README.md is at most readmeMaxLines lines.
func TestReadmeLength(t *testing.T) {
	if n := lineCount(readFile(t, "../README.md")); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to its page in docs/ and link to it", n, readmeMaxLines)
	}
}

// lineCount is the number of lines of a text (wc -l, and one more for a
// last line without its newline).
func lineCount(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}
