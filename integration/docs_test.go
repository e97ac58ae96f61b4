package integration_test

// The docs compile. TestDocBlocksCompile extracts every ```go block of
// README.md and every code block of the package docs named in docSources,
// wraps each with only the glue declared below, writes them all into ONE
// temporary module (a package per block) that reaches the library through
// a replace to this repository and the SDKs through the module cache, and
// runs `go vet ./...` on it once. TestReadmeNamesExist checks that every
// exported name the README's prose names in backticks exists.
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
//     is not Go and is not compiled; in the README only ```go blocks are
//     compiled.
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
	// the mark3labs authorization block's request and redirect follower
	"initRequest":    "var initRequest mcp.InitializeRequest",
	"followRedirect": "var followRedirect func(authURL string) (code, state string)",
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

// allDocBlocks returns every block the check compiles.
func allDocBlocks(t *testing.T) []docBlock {
	t.Helper()
	blocks := readmeGoBlocks("README.md", readFile(t, "../README.md"))
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

// TestDocBlocksCompile: every Go block of the README and of the package
// docs compiles and passes go vet.
func TestDocBlocksCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the docs' code blocks with the go command")
	}
	blocks := allDocBlocks(t)
	if len(blocks) < 10 {
		t.Fatalf("want the README's and the package docs' Go blocks, found %d", len(blocks))
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

// notAPI: backticked words of the README that look like Go names but are
// not the library's API (their own packages', the spec's, examples').
var notAPI = map[string]bool{
	"ClientSession.Tools":       true, // go-sdk
	"NewStreamableHTTP":         true, // mark3labs' transport
	"WithProtocolVersion":       true, // mark3labs' client option
	"StreamableClientTransport": true, // go-sdk
	"SSEClientTransport":        true, // go-sdk's and the TypeScript SDK's
	"*.Int":                     true, // gjson's Result.Int, after Message.Get
	"Host":                      true, // an HTTP header
	"Origin":                    true, // an HTTP header
	"MiB":                       true, // a unit
	"RawMessage":                true, // encoding/json's
	"ReadWriteCloser":           true, // io's
	"TestMyClient":              true, // the reader's test, in a package doc
	"AuthorizationCodeHandler":  true, // go-sdk's auth package
	"OAuthHandler":              true, // go-sdk's StreamableClientTransport field
	"IssuersEqual":              true, // go-sdk's internal authutil
	"WithHTTPOAuth":             true, // mark3labs' transport option
	"PKCEEnabled":               true, // mark3labs' OAuthConfig field
	"OAuthConfig.Scopes":        true, // mark3labs' OAuthConfig field
	"BenchmarkAuthToolCall":     true, // a benchmark of ./integration, named for its command line
}

// readmeNames returns the backticked Go names of the README's prose (code
// blocks left out) that look like the library's API, each as it is to be
// checked:
//
//   - `pkg.Name` and `pkg.Type.Member` for the library's packages;
//   - `Type.Member`, checked as a member of that type, so that
//     `Messages.All` fails where `Journal.All` holds;
//   - a chain of calls, `Session(n).Era()` or `srv.Journal().ToolCalls(x)`
//     (a leading lower-case variable dropped), as each of its names, each
//     of which must exist somewhere in the API ("*.Era");
//   - a bare exported name, `Hang`, `WithPageSize(n)`, `Only`.
//
// Words that look like names but are not the library's are in notAPI.
func readmeNames(text string) []string {
	// prose only: drop fenced blocks
	var prose strings.Builder
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			continue
		}
		if !in {
			prose.WriteString(l + "\n")
		}
	}
	code := regexp.MustCompile("`([^`]+)`")
	args := regexp.MustCompile(`\([^()]*\)`)
	shape := regexp.MustCompile(`^(?:(mcptest|scenarios|config|tour)\.)?[A-Z]\w*(?:\.[A-Z]\w*)*$`)
	receiver := regexp.MustCompile(`^\.?[a-z]\w*\.`)
	var out []string
	seen := map[string]bool{}
	add := func(id string) {
		if !seen[id] && !notAPI[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, m := range code.FindAllStringSubmatch(prose.String(), -1) {
		s := strings.TrimPrefix(m[1], ".")
		if r := receiver.FindString(s); r != "" && !shape.MatchString(s) {
			s = s[len(r):] // srv.X, req.Log(...): a variable of the reader's
		}
		chained := false
		for {
			t := args.ReplaceAllString(s, "")
			if t == s {
				break
			}
			if strings.Contains(strings.TrimSuffix(strings.TrimSpace(s), ")"), ").") {
				chained = true
			}
			s = t
		}
		if !shape.MatchString(s) {
			continue
		}
		parts := strings.Split(s, ".")
		pkg := ""
		if _, ok := map[string]bool{"mcptest": true, "scenarios": true, "config": true, "tour": true}[parts[0]]; ok {
			pkg, parts = parts[0]+".", parts[1:]
		}
		if chained {
			for _, p := range parts {
				add("*." + p)
			}
			continue
		}
		add(pkg + strings.Join(parts, "."))
	}
	return out
}

// api is the exported API of the library's packages: "pkg.Name" for
// types, funcs, vars and consts, "pkg.Type.Member" for methods and struct
// fields, read with go/parser.
func api(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for pkg, dir := range map[string]string{"mcptest": "../mcptest", "scenarios": "../scenarios", "config": "../config", "tour": "../scenarios/tour"} {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			for _, f := range p.Files {
				for _, d := range f.Decls {
					switch d := d.(type) {
					case *ast.FuncDecl:
						if !d.Name.IsExported() {
							continue
						}
						if d.Recv == nil {
							names[pkg+"."+d.Name.Name] = true
							continue
						}
						typ := d.Recv.List[0].Type
						if s, ok := typ.(*ast.StarExpr); ok {
							typ = s.X
						}
						if ix, ok := typ.(*ast.IndexExpr); ok {
							typ = ix.X
						}
						if id, ok := typ.(*ast.Ident); ok {
							names[pkg+"."+id.Name+"."+d.Name.Name] = true
						}
					case *ast.GenDecl:
						for _, s := range d.Specs {
							switch s := s.(type) {
							case *ast.TypeSpec:
								names[pkg+"."+s.Name.Name] = true
								if st, ok := s.Type.(*ast.StructType); ok {
									for _, fl := range st.Fields.List {
										for _, n := range fl.Names {
											names[pkg+"."+s.Name.Name+"."+n.Name] = true
										}
									}
								}
							case *ast.ValueSpec:
								for _, n := range s.Names {
									names[pkg+"."+n.Name] = true
								}
							}
						}
					}
				}
			}
		}
	}
	return names
}

// TestReadmeNamesExist: every API name the README's prose names in
// backticks exists in mcptest, scenarios, config or scenarios/tour.
func TestReadmeNamesExist(t *testing.T) {
	names := api(t)
	found := readmeNames(readFile(t, "../README.md"))
	if len(found) < 30 {
		t.Fatalf("want the README's API names, found %d: %v", len(found), found)
	}
	for _, id := range found {
		if !apiHas(names, id) {
			t.Errorf("README.md names `%s`, which the library does not export (fix the README, or add it to notAPI with the reason if it is not the library's)", id)
		}
	}
}

// apiHas: id is pkg.Name, pkg.Type.Member, Type.Member, or a bare Name
// of any of the packages or a member of any of their types.
func apiHas(names map[string]bool, id string) bool {
	if names[id] {
		return true
	}
	id = strings.TrimPrefix(id, "*.")
	if !strings.Contains(id, ".") {
		for n := range names {
			if strings.Count(n, ".") == 2 && strings.HasSuffix(n, "."+id) {
				return true
			}
		}
	}
	for _, pkg := range []string{"mcptest", "scenarios", "config", "tour"} {
		if names[pkg+"."+id] {
			return true
		}
	}
	return false
}

// TestReadmeNamesCheckFails: the name checks find a name that is gone.
func TestReadmeNamesCheckFails(t *testing.T) {
	names := api(t)
	for _, id := range packageDocNames("// Use Messages.All and NewToool, not Journal.All.\n//\n//\tGone.X()\npackage x\n") {
		if apiHas(names, id) != (id == "Journal.All") {
			t.Errorf("package doc name %s: found is %v", id, apiHas(names, id))
		}
	}
	var missing []string
	for _, id := range readmeNames("see `Messages.All`, `mcptest.NoSuchThing`, `WithNoSuchOption`, `srv.Journal().NoSuch(x)` and `Gone`\n") {
		if !apiHas(names, id) {
			missing = append(missing, id)
		}
	}
	if want := []string{"Messages.All", "mcptest.NoSuchThing", "WithNoSuchOption", "*.NoSuch", "Gone"}; !slices.Equal(missing, want) {
		t.Errorf("want %v reported missing, got %v", want, missing)
	}
	for _, id := range readmeNames("`Journal.All`, `srv.Journal().ToolCalls(x)`, `Session(n).Era()`, `mcptest.Hang`, `scenarios.Only(a, b)`, `Hang(m)`, `.ReturnsText(\"a\")`\n") {
		if !apiHas(names, id) {
			t.Errorf("want %s found", id)
		}
	}
	if got := readmeNames("`Journal.All` ```go\n`Nope.X`\n```\n"); len(got) != 1 {
		t.Errorf("want only the prose's name, got %v", got)
	}
}

// packageDocNames returns the names the prose of a package doc (its code
// blocks left out) writes as Type.Member, pkg.Name or a CamelCase word.
func packageDocNames(text string) []string {
	var prose strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "package ") {
			break
		}
		if strings.HasPrefix(l, "//") && !strings.HasPrefix(l, "//\t") {
			prose.WriteString(l + "\n")
		}
	}
	// pkg.Name, Type.Member, or a CamelCase word (NewTool, WhenArgs,
	// JSONRPCError): a capital, a lower-case letter, a capital later.
	re := regexp.MustCompile(`\b(?:(?:mcptest|scenarios|config|tour)\.[A-Z]\w*|[A-Z]\w*\.[A-Z]\w*|[A-Z]+[a-z]+[A-Z]\w*)\b`)
	var out []string
	seen := map[string]bool{}
	for _, m := range re.FindAllString(prose.String(), -1) {
		if !seen[m] && !notAPI[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// TestPackageDocNamesExist: every Type.Member and pkg.Name the package
// docs' prose names exists.
func TestPackageDocNamesExist(t *testing.T) {
	names := api(t)
	total := 0
	for _, f := range docSources {
		for _, id := range packageDocNames(readFile(t, f)) {
			total++
			if !apiHas(names, id) {
				t.Errorf("%s names %s, which the library does not export (fix the doc, or add it to notAPI with the reason)", strings.TrimPrefix(f, "../"), id)
			}
		}
	}
	if total < 5 {
		t.Fatalf("want the package docs' names, found %d", total)
	}
}
