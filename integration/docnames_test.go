package integration_test

// The docs name only API that exists. TestDocCommentNamesExist reads the
// doc comment of every exported declaration of the library's packages
// (mcptest, scenarios, scenarios/tour, scenarios/bugs, config), each
// package doc and the command's, and TestReadmeNamesExist the code spans
// of the prose of README.md and of every page of docs/; each resolves the
// API names they mention against the library as it is, read with
// go/parser:
//
//   - pkg.Name and pkg.Name.Member for the library's packages; a name of
//     another package (mcp.ClientSession, http.Handler: a package a file
//     of the package imports, or one of importTable) is left alone;
//   - Type.Member (Server.Broadcast), as a member of that type: a method,
//     a field, or one promoted from an embedded type;
//   - var.Member (srv.Broadcast, sess.Notify), where var is a name the
//     library's code, tests and examples give one of its types more often
//     than another package's (srv is a *mcptest.Server): a member of it;
//   - a chain of calls (srv.Journal().All().InSession(2).Transcript()), each
//     name a member of what the one before returns;
//   - a bare name (Notify, WithFaults(…), FromServer): a member of the type
//     the comment documents (a method's receiver and parameters, a field's
//     struct, a constructor's result, a constant's type), a package-level
//     name of the package or of a library package it imports, or a member
//     of one of their types (a package doc names Server's methods bare);
//     in the README and docs/, of any of the library's packages;
//   - but a bare name that testdata/gone-names.txt lists as a member a type
//     of the package lost, and that still names something else (Handler,
//     once Server.Handler, now a type; Notify, once Server.Notify, now
//     Session.Notify only; Dial, once Endpoint.Dial), is the removed one
//     unless it is the documented type's member or written as a noun ("a
//     Handler", "*Session", "Session methods");
//   - a test, benchmark or example the README or docs/ name (TestX,
//     BenchmarkX*) exists in the repository.
//
// Which words are API mentions: a dotted name or a call (X.Y, X(…)); a
// CamelCase word (two humps: FromClient, WithFaults); a code span of the
// README or docs/ that is one name; a removed name (above); and a
// capitalised word in the middle of a sentence that is the name of
// something in the library (Notify, Dial, Open). At the start of a
// sentence (or after a colon), in a title ("Client ID Metadata Document",
// "JSON Schema"), in all capitals (JSON, URL), a single capital (j.X(…)),
// before "…" (With…), next to a hyphen or slash (Content-Type), in double
// quotes, and bare in a code block, a word is not a mention. notAPI lists
// the few words that look like names but are nobody's API here (GitHub)
// or another package's written without its qualifier.
//
// TestDocOldNamesGone holds the repository's test names and Go comments
// to the old names of testdata/gone-names.txt, and TestDocNamesCheckCatches
// shows each check finding the stale names of issue 28.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// libPackages are the library's packages whose docs are checked, by the
// name code uses for them.
var libPackages = []struct{ name, dir, path string }{
	{"mcptest", "../mcptest", "github.com/mcpmock/mcpmock/mcptest"},
	{"fault", "../mcptest/fault", "github.com/mcpmock/mcpmock/mcptest/fault"},
	{"oauth", "../mcptest/oauth", "github.com/mcpmock/mcpmock/mcptest/oauth"},
	{"scenarios", "../scenarios", "github.com/mcpmock/mcpmock/scenarios"},
	{"tour", "../scenarios/tour", "github.com/mcpmock/mcpmock/scenarios/tour"},
	{"bugs", "../scenarios/bugs", "github.com/mcpmock/mcpmock/scenarios/bugs"},
	{"config", "../config", "github.com/mcpmock/mcpmock/config"},
}

// varSources are the directories whose code (tests and examples too) says
// which library type a variable name has (srv, sess, j…).
var varSources = []string{"..", "../mcptest", "../mcptest/fault", "../mcptest/oauth", "../scenarios", "../scenarios/tour", "../scenarios/bugs", "../config", "../cmd/mcpmock", "../examples/giftgenius", "../examples/handshake", "."}

// notAPI: words of the docs that look like Go names but are not the
// library's API, and why.
var notAPI = map[string]bool{
	// internal/mcpclient, the module's client kit (not the library's API):
	// its knob sets and the knobs the docs name.
	"Bugs": true, "OAuthBugs": true, "MaxLine": true, "NonJSONFatal": true, "OnePage": true,
	"IgnoreListChanged": true, "HangOnEOF": true, "GiveUpOn404": true,
	"JavaScript":                     true, // the language
	"GitHub":                         true, // the site
	"Dockerfile":                     true, // the repository's image recipe (docs/distribution.md)
	"ClientSession.Tools":            true, // go-sdk
	"NewStreamableHTTP":              true, // mark3labs' transport
	"StreamableClientTransport":      true, // go-sdk
	"SSEClientTransport":             true, // go-sdk's and the TypeScript SDK's
	"OAuthHandler":                   true, // go-sdk's StreamableClientTransport field
	"Endpoint":                       true, // go-sdk's StreamableClientTransport field (scenarios.Endpoint is written qualified)
	"AuthorizationCodeFetcher":       true, // go-sdk's AuthorizationCodeHandlerConfig field
	"IssuersEqual":                   true, // go-sdk's internal authutil
	"PKCEEnabled":                    true, // mark3labs' OAuthConfig field
	"OAuthConfig.Scopes":             true, // mark3labs' OAuthConfig field
	"OpenID":                         true, // OpenID Connect, the standard
	"MiB":                            true, // a unit
	"KiB":                            true, // a unit
	"Host":                           true, // an HTTP header
	"Origin":                         true, // an HTTP header
	"Bearer":                         true, // an HTTP authorization scheme
	"Basic":                          true, // an HTTP authorization scheme
	"ClientSessionOptions":           true, // go-sdk
	"ToolListChangedHandler":         true, // go-sdk's ClientOptions field
	"ClientIDMetadataDocumentConfig": true, // go-sdk's auth package
	"McpError":                       true, // the TypeScript SDK's
	"StreamableHTTPError":            true, // the TypeScript SDK's
	"OAuthClientProvider":            true, // the TypeScript SDK's
	"Find":                           true, // goleak's
}

// typeRef is a type of the library: its package's name and its name. The
// zero value is a type that is not the library's (or not known).
type typeRef struct{ pkg, name string }

func (r typeRef) known() bool { return r.name != "" }

// libType is what a type of the library has: its members (methods,
// fields, interface methods), each with its type, the types it embeds
// (whose members it gets), and whether it embeds a type of another package
// (whose members cannot be listed here: any member is taken as one).
type libType struct {
	members map[string]typeRef
	embeds  []typeRef
	open    bool
}

// libPkg is one package of the library as its docs may name it.
type libPkg struct {
	name string
	// names are the package-level names (types, funcs, vars, consts),
	// each with the library type it is or returns (zero if none).
	names map[string]typeRef
	types map[string]*libType
	// consts are the package-level constants (a call of one is no call).
	consts map[string]bool
	// libImports are the names of the library's packages it imports.
	libImports map[string]bool
	// otherImports are the names of the other packages its files import.
	otherImports map[string]bool
	files        map[string]*ast.File
	fset         *token.FileSet
}

// libAPI is the library's API, and the types its code gives to variable
// names.
type libAPI struct {
	pkgs  map[string]*libPkg
	paths map[string]string // import path → package name
	vars  map[string][]typeRef
	// removed are the members gone-names.txt says a type lost,
	// by member name, for the names that still mean something else.
	removed map[string][]typeRef
	// tests are the names of the repository's test functions.
	tests map[string]bool
	// words are every exported name of the API, package-level or member:
	// a capitalised word of the prose that is one of these is a mention.
	words map[string]bool
}

// loadAPI reads the library's packages (their non-test files) and the
// variable names of the library's code, tests and examples.
func loadAPI(t *testing.T) *libAPI {
	t.Helper()
	a := &libAPI{pkgs: map[string]*libPkg{}, paths: map[string]string{}, vars: map[string][]typeRef{}, words: map[string]bool{}, removed: map[string][]typeRef{}, tests: map[string]bool{}}
	for _, lp := range libPackages {
		a.paths[lp.path] = lp.name
	}
	for _, lp := range libPackages {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, lp.dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		p := &libPkg{name: lp.name, names: map[string]typeRef{}, types: map[string]*libType{}, consts: map[string]bool{}, libImports: map[string]bool{}, otherImports: map[string]bool{}, files: map[string]*ast.File{}, fset: fset}
		for _, ap := range pkgs {
			for fn, f := range ap.Files {
				p.files[fn] = f
			}
		}
		a.pkgs[lp.name] = p
	}
	// Types first, so that a declaration's type can be told a library type.
	for _, p := range a.pkgs {
		for _, f := range p.files {
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
					for _, s := range g.Specs {
						ts := s.(*ast.TypeSpec)
						p.types[ts.Name.Name] = &libType{members: map[string]typeRef{}}
						p.names[ts.Name.Name] = typeRef{p.name, ts.Name.Name}
					}
				}
			}
		}
	}
	for _, p := range a.pkgs {
		for _, f := range p.files {
			imps := a.fileImports(f)
			for n, path := range imps {
				if lib, ok := a.paths[path]; ok {
					p.libImports[lib] = true
				} else {
					p.otherImports[n] = true
				}
			}
			for _, d := range f.Decls {
				a.declare(p, imps, d)
			}
		}
	}
	for _, p := range a.pkgs {
		for n := range p.names {
			if ast.IsExported(n) {
				a.words[n] = true
			}
		}
		for _, lt := range p.types {
			for m := range lt.members {
				if ast.IsExported(m) {
					a.words[m] = true
				}
			}
		}
	}
	a.loadVars(t)
	a.loadRemoved(readFile(t, goneNamesFile))
	a.loadTests(t)
	return a
}

// loadTests records the names of the repository's tests, benchmarks,
// fuzz tests and examples (every _test.go file under the repository).
func (a *libAPI) loadTests(t *testing.T) {
	t.Helper()
	re := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz|Example)\w*)\(`)
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".." || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			a.tests[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// goneNamesFile lists the names the library had and no longer has (see
// its header).
const goneNamesFile = "testdata/gone-names.txt"

// oldNames returns the old names of a gone-names list (goneNamesFile):
// each line's text before " => ", comments and blank lines left out.
func oldNames(list string) []string {
	var out []string
	for _, l := range strings.Split(list, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		old, _, _ := strings.Cut(l, " => ")
		out = append(out, strings.TrimSpace(old))
	}
	return out
}

// loadRemoved reads the gone-names list (goneNamesFile): each Type.Member
// of an old name that the type no longer has, while the member's name
// still names something else of the library (a type, a constant, another
// type's method), is a removed member, by member name.
func (a *libAPI) loadRemoved(list string) {
	for _, sp := range oldNames(list) {
		for _, c := range scanChains(stripQuoted(sp)) {
			n := len(c.parts)
			if n < 2 || !ast.IsExported(c.parts[n-1]) || !ast.IsExported(c.parts[n-2]) {
				continue
			}
			member, typ := c.parts[n-1], c.parts[n-2]
			for _, r := range a.lookupType(docContext{}, typ) {
				if _, ok, _ := a.member(r, member); ok || !a.words[member] {
					continue
				}
				if !slices.Contains(a.removed[member], r) {
					a.removed[member] = append(a.removed[member], r)
				}
			}
		}
	}
}

// fileImports returns a file's imports by the name the file uses.
func (a *libAPI) fileImports(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, is := range f.Imports {
		path := strings.Trim(is.Path.Value, `"`)
		name := filepath.Base(path)
		if lib, ok := a.paths[path]; ok {
			name = lib
		} else if versionDir.MatchString(name) {
			name = filepath.Base(filepath.Dir(path)) // jsonschema/v6
		}
		if is.Name != nil {
			name = is.Name.Name
		}
		out[name] = path
	}
	return out
}

// typeOf returns the library type a type expression of package p names.
func (a *libAPI) typeOf(p *libPkg, imps map[string]string, e ast.Expr) typeRef {
	switch e := e.(type) {
	case *ast.StarExpr:
		return a.typeOf(p, imps, e.X)
	case *ast.ParenExpr:
		return a.typeOf(p, imps, e.X)
	case *ast.IndexExpr:
		return a.typeOf(p, imps, e.X)
	case *ast.IndexListExpr:
		return a.typeOf(p, imps, e.X)
	case *ast.Ident:
		if p != nil && p.types[e.Name] != nil {
			return typeRef{p.name, e.Name}
		}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			if lib, ok := a.paths[imps[x.Name]]; ok {
				return typeRef{lib, e.Sel.Name}
			}
		}
	}
	return typeRef{}
}

// isOtherPackage reports whether a type expression is a type of a
// package outside the library.
func (a *libAPI) isOtherPackage(imps map[string]string, e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.SelectorExpr:
			id, ok := x.X.(*ast.Ident)
			if !ok {
				return false
			}
			_, lib := a.paths[imps[id.Name]]
			return !lib
		}
		return false
	}
}

// result is the library type a function returns first (zero if none).
func (a *libAPI) result(p *libPkg, imps map[string]string, ft *ast.FuncType) typeRef {
	if ft.Results == nil || len(ft.Results.List) == 0 {
		return typeRef{}
	}
	return a.typeOf(p, imps, ft.Results.List[0].Type)
}

// params are the library types of a function's parameters.
func (a *libAPI) params(p *libPkg, imps map[string]string, ft *ast.FuncType) []typeRef {
	var out []typeRef
	for _, fl := range ft.Params.List {
		if r := a.typeOf(p, imps, fl.Type); r.known() {
			out = append(out, r)
		}
	}
	return out
}

// declare records a top-level declaration of package p.
func (a *libAPI) declare(p *libPkg, imps map[string]string, d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		res := a.result(p, imps, d.Type)
		if d.Recv == nil {
			p.names[d.Name.Name] = res
			return
		}
		if recv := a.typeOf(p, imps, d.Recv.List[0].Type); recv.known() && recv.pkg == p.name {
			p.types[recv.name].members[d.Name.Name] = res
		}
	case *ast.GenDecl:
		var prevType typeRef // a constant without type or value repeats the one before (iota)
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				var typ typeRef
				if s.Type != nil {
					typ = a.typeOf(p, imps, s.Type)
				} else if d.Tok == token.CONST && len(s.Values) == 0 {
					typ = prevType
				}
				prevType = typ
				for i, n := range s.Names {
					if !typ.known() && i < len(s.Values) {
						typ = a.exprType(p, imps, s.Values[i])
					}
					p.names[n.Name] = typ
					if d.Tok == token.CONST {
						p.consts[n.Name] = true
					}
				}
			case *ast.TypeSpec:
				lt := p.types[s.Name.Name]
				switch u := s.Type.(type) {
				case *ast.StructType:
					for _, fl := range u.Fields.List {
						ft := a.typeOf(p, imps, fl.Type)
						if len(fl.Names) == 0 { // embedded
							if ft.known() {
								lt.embeds = append(lt.embeds, ft)
								lt.members[ft.name] = ft
							} else {
								lt.open = lt.open || a.isOtherPackage(imps, fl.Type)
							}
						}
						for _, n := range fl.Names {
							lt.members[n.Name] = ft
						}
					}
				case *ast.InterfaceType:
					for _, fl := range u.Methods.List {
						if len(fl.Names) == 0 {
							if ft := a.typeOf(p, imps, fl.Type); ft.known() {
								lt.embeds = append(lt.embeds, ft)
							} else {
								lt.open = true
							}
						}
						for _, n := range fl.Names {
							var res typeRef
							if ft, ok := fl.Type.(*ast.FuncType); ok {
								res = a.result(p, imps, ft)
							}
							lt.members[n.Name] = res
						}
					}
				default:
					if ft := a.typeOf(p, imps, s.Type); ft.known() && s.Assign.IsValid() {
						lt.embeds = append(lt.embeds, ft) // an alias
					} else if a.isOtherPackage(imps, s.Type) {
						lt.open = true // its fields are another package's
					}
				}
			}
		}
	}
}

// exprType is the library type of an expression, as far as a call of a
// library function or method, a composite literal or & says.
func (a *libAPI) exprType(p *libPkg, imps map[string]string, e ast.Expr) typeRef {
	switch e := e.(type) {
	case *ast.UnaryExpr:
		return a.exprType(p, imps, e.X)
	case *ast.ParenExpr:
		return a.exprType(p, imps, e.X)
	case *ast.CompositeLit:
		if e.Type != nil {
			return a.typeOf(p, imps, e.Type)
		}
	case *ast.CallExpr:
		switch fn := e.Fun.(type) {
		case *ast.Ident:
			if p != nil {
				return p.names[fn.Name]
			}
		case *ast.SelectorExpr:
			if x, ok := fn.X.(*ast.Ident); ok {
				if lib, ok := a.paths[imps[x.Name]]; ok {
					return a.pkgs[lib].names[fn.Sel.Name]
				}
			}
			if recv := a.exprType(p, imps, fn.X); recv.known() {
				res, _, _ := a.member(recv, fn.Sel.Name)
				return res
			}
		}
	}
	return typeRef{}
}

// member looks name up on a library type, through its embedded types:
// the member's type, whether it exists, and whether the type is open (it
// embeds another package's type, so any name may be a member).
func (a *libAPI) member(t typeRef, name string) (typeRef, bool, bool) {
	seen := map[typeRef]bool{}
	queue := []typeRef{t}
	open := false
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if seen[cur] {
			continue
		}
		seen[cur] = true
		p := a.pkgs[cur.pkg]
		if p == nil || p.types[cur.name] == nil {
			continue
		}
		lt := p.types[cur.name]
		if res, ok := lt.members[name]; ok {
			return res, true, false
		}
		open = open || lt.open
		queue = append(queue, lt.embeds...)
	}
	return typeRef{}, false, open
}

// loadVars records, for each variable name of the library's code, tests
// and examples (parameters, receivers, declared and := variables), the
// library types it is given: a name counts as a library variable when it
// is given a library type more often than another package's (srv is a
// *mcptest.Server, though the command has one *http.Server; t is a
// *testing.T).
func (a *libAPI) loadVars(t *testing.T) {
	t.Helper()
	seen := map[string]map[typeRef]bool{}
	lib, other := map[string]int{}, map[string]int{}
	add := func(name string, r typeRef, isOther bool) {
		switch {
		case name == "_":
		case r.known():
			lib[name]++
			if seen[name] == nil {
				seen[name] = map[typeRef]bool{}
			}
			if !seen[name][r] {
				seen[name][r] = true
				a.vars[name] = append(a.vars[name], r)
			}
		case isOther:
			other[name]++
		}
	}
	for _, dir := range varSources {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, ap := range pkgs {
			var p *libPkg // the library package these files are in, if any
			for _, lp := range libPackages {
				if filepath.Clean(lp.dir) == filepath.Clean(dir) && strings.TrimSuffix(ap.Name, "_test") == filepath.Base(lp.path) {
					p = a.pkgs[lp.name]
				}
			}
			for _, f := range ap.Files {
				imps := a.fileImports(f)
				typed := func(name string, e ast.Expr) {
					r := a.typeOf(p, imps, e)
					add(name, r, !r.known())
				}
				fields := func(fl *ast.FieldList) {
					if fl == nil {
						return
					}
					for _, fd := range fl.List {
						for _, n := range fd.Names {
							typed(n.Name, fd.Type)
						}
					}
				}
				valued := func(name string, e ast.Expr) {
					r := a.exprType(p, imps, e)
					add(name, r, !r.known() && a.isOtherValue(imps, e))
				}
				ast.Inspect(f, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncDecl:
						fields(n.Recv)
						fields(n.Type.Params)
					case *ast.FuncLit:
						fields(n.Type.Params)
					case *ast.ValueSpec:
						for i, id := range n.Names {
							if n.Type != nil {
								typed(id.Name, n.Type)
							} else if i < len(n.Values) {
								valued(id.Name, n.Values[i])
							}
						}
					case *ast.AssignStmt:
						if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
							for i, l := range n.Lhs {
								if id, ok := l.(*ast.Ident); ok {
									valued(id.Name, n.Rhs[i])
								}
							}
						}
					}
					return true
				})
			}
		}
	}
	for name := range a.vars {
		if other[name] >= lib[name] {
			delete(a.vars, name)
		}
	}
}

// isOtherValue reports whether an expression is a value of another
// package: &pkg.T{…}, pkg.F(…) for a package outside the library.
func (a *libAPI) isOtherValue(imps map[string]string, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.UnaryExpr:
		return a.isOtherValue(imps, e.X)
	case *ast.CompositeLit:
		return e.Type != nil && a.isOtherPackage(imps, e.Type)
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				path, imported := imps[x.Name]
				_, lib := a.paths[path]
				return imported && !lib
			}
		}
	}
	return false
}

// chain is a name as the prose writes it: its parts, whether each is
// called ("X(…)"), where it is, and what surrounds it.
type chain struct {
	parts      []string
	calls      []bool
	at         int
	leadingDot bool // ".ReturnsText(…)": a member of some type
	midSenten  bool // a word in the middle of a sentence
	prefix     bool // "With…": a family of names, not one
	noun       bool // "a Handler", "*Session": a type, as a noun
	titled     bool // "Client ID Metadata Document": a title, not a name
	text       string
}

func (c chain) String() string { return c.text }

func isIdentStart(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

func isIdentByte(b byte) bool { return isIdentStart(b) || '0' <= b && b <= '9' }

// closeParen returns the index of the ) that closes the ( at i, or -1
// (none within a line's worth of text).
func closeParen(s string, i int) int {
	depth := 0
	for j := i; j < len(s) && j < i+200; j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// stripQuoted blanks the double-quoted strings of a text (keeping its
// length, so that offsets still name lines): their words are strings.
func stripQuoted(s string) string {
	return quoted.ReplaceAllStringFunc(s, func(q string) string {
		return notNewline.ReplaceAllString(q, " ")
	})
}

var (
	quoted     = regexp.MustCompile(`"[^"\n]*(?:\n[^"\n]*){0,3}"`)
	notNewline = regexp.MustCompile(`[^\n]`)
	camel      = regexp.MustCompile(`^[A-Z]+[a-z0-9]+[A-Z]`)
	inlineCode = regexp.MustCompile("`[^`]*`")
	versionDir = regexp.MustCompile(`^v\d+$`)
)

// scanChains returns the dotted names of a text: a.B.C, F(x).G(), .H().
func scanChains(s string) []chain {
	var out []chain
	for i := 0; i < len(s); {
		if !isIdentStart(s[i]) || i > 0 && (isIdentByte(s[i-1]) || s[i-1] >= utf8.RuneSelf) {
			i++
			continue
		}
		c := chain{at: i}
		if i > 0 && s[i-1] == '.' {
			if i >= 2 && (isIdentByte(s[i-2]) || s[i-2] == ')' || s[i-2] == ']' || s[i-2] == '.') {
				// x[0].Y, f(a b).Y, "…".Y: the part before did not read as a name
				for i < len(s) && isIdentByte(s[i]) {
					i++
				}
				continue
			}
			c.leadingDot = true
		}
		prev := byte(' ')
		if i > 0 {
			prev = s[i-1]
		}
		start := i
		for {
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			c.parts = append(c.parts, s[i:j])
			i = j
			call := false
			if i < len(s) && s[i] == '(' {
				if k := closeParen(s, i); k > 0 {
					call, i = true, k+1
				}
			}
			c.calls = append(c.calls, call)
			if i+1 < len(s) && s[i] == '.' && isIdentStart(s[i+1]) {
				i++
				continue
			}
			break
		}
		c.text = s[start:i]
		rest := s[i:]
		next := byte(' ')
		if i < len(s) {
			next = s[i]
		}
		c.prefix = strings.HasPrefix(rest, "…") || strings.HasPrefix(rest, "...")
		if strings.ContainsRune("-/#@$%\\=<>", rune(prev)) || strings.ContainsRune("-/#@$%\\=<>", rune(next)) {
			continue // hyphenated words, paths, addresses, flags, headers
		}
		c.midSenten = midSentence(s[:start])
		c.noun = isNoun(s[:start])
		c.noun = c.noun || strings.HasPrefix(rest, "'s ") || strings.HasPrefix(rest, "’s ") || nounsAfter[firstWord(rest)]
		c.titled = len(c.parts) == 1 && (startsUpper(lastWord(s[:start])) && c.midSenten || startsUpper(firstWord(rest)))
		out = append(out, c)
	}
	return out
}

// midSentence reports whether a word that follows the text before is in
// the middle of a sentence: the last non-space character before it is not
// the end of a sentence, a colon, a list's dash or the start of the text.
func midSentence(before string) bool {
	before = strings.TrimRightFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == '[' || r == '`' })
	if before == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return !strings.ContainsRune(".!?:;-–•#", r) && r != '*'
}

// articles are the words before a noun: after one, a capitalised name is
// a type ("a Handler", "each Session"), not a function or a member.
var articles = map[string]bool{"a": true, "an": true, "the": true, "each": true, "every": true, "any": true, "one": true, "its": true, "this": true, "that": true, "their": true, "your": true, "no": true, "another": true, "same": true, "whose": true, "which": true, "new": true}

// isNoun reports whether the text before a word ends with an article, or
// with * or [] (a pointer or slice type).
func isNoun(before string) bool {
	t := strings.TrimRight(before, " \t\n")
	if strings.HasSuffix(t, "*") || strings.HasSuffix(t, "[]") {
		return true
	}
	return articles[strings.ToLower(lastWord(before))]
}

// lastWord and firstWord are the word (letters and digits) that ends or
// starts a text, after or before spaces only.
func lastWord(s string) string {
	t := strings.TrimRight(s, " \t\n")
	i := len(t)
	for i > 0 && isIdentByte(t[i-1]) {
		i--
	}
	return t[i:]
}

func firstWord(s string) string {
	t := strings.TrimLeft(s, " \t\n")
	i := 0
	for i < len(t) && isIdentByte(t[i]) {
		i++
	}
	return t[:i]
}

// startsUpper: a word that starts with a capital (Client, ID, JSON): two
// of them in a row are a title ("Client ID Metadata Document", "JSON
// Schema"), not a name.
func startsUpper(w string) bool {
	return w != "" && 'A' <= w[0] && w[0] <= 'Z'
}

// nounsAfter are the words after which a capitalised name is a type, as a
// noun ("Session methods", "a Fault value").
var nounsAfter = map[string]bool{"method": true, "methods": true, "value": true, "values": true, "type": true, "types": true}

// isAcronym: JSON, HTTP, URL, SSE, ID, A.
func isAcronym(w string) bool {
	return strings.ToUpper(w) == w
}

// isCamel: a capital, then a lower-case letter, then a capital later
// (FromClient, WithFaults, JSONRPCError), which English prose does not
// write.
func isCamel(w string) bool {
	return camel.MatchString(w)
}

// docContext is where a comment is: its package, the type it documents
// (a method's receiver, a field's struct, a constructor's result, a
// constant's type), and the imports of its file.
type docContext struct {
	pkg   *libPkg
	types []typeRef
	imps  map[string]string
	where string // the comment's file:line (name), or the Markdown page's line
	// file, line and name are a comment's, to say the line of a mention
	file, name string
	line       int
	code       bool     // a code block of the comment
	self       []string // the names the comment documents
}

// at says where a mention at offset off of the comment's text is.
func (ctx docContext) at(text string, off int) string {
	if ctx.file == "" {
		return ctx.where
	}
	return fmt.Sprintf("%s:%d (%s)", ctx.file, ctx.line+strings.Count(text[:off], "\n"), ctx.name)
}

// isOtherPackage reports whether a lower-case first part is the name of a
// package outside the library, as a package's file imports it or as the
// docs' blocks may use it (importTable).
func (a *libAPI) isOtherPackageName(ctx docContext, name string) bool {
	if _, lib := a.pkgs[name]; lib {
		return false
	}
	if _, ok := ctx.imps[name]; ok {
		return true
	}
	if ctx.pkg != nil && ctx.pkg.otherImports[name] {
		return true
	}
	_, ok := importTable[name]
	return ok
}

// lookupType finds a type name for ctx: in its package, then in the
// library packages it imports, then anywhere in the library.
func (a *libAPI) lookupType(ctx docContext, name string) []typeRef {
	var scopes [][]string
	if ctx.pkg != nil {
		scopes = append(scopes, []string{ctx.pkg.name})
		var imported []string
		for n := range ctx.pkg.libImports {
			imported = append(imported, n)
		}
		sort.Strings(imported)
		scopes = append(scopes, imported)
	}
	var all []string
	for _, lp := range libPackages {
		all = append(all, lp.name)
	}
	scopes = append(scopes, all)
	for _, sc := range scopes {
		var out []typeRef
		for _, pn := range sc {
			if a.pkgs[pn].types[name] != nil {
				out = append(out, typeRef{pn, name})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// scope is the library packages a comment of ctx sees: its package and
// the library packages it imports; the whole library for the README and
// docs/.
func (a *libAPI) scope(ctx docContext) []string {
	var pkgs []string
	if ctx.pkg == nil {
		for _, lp := range libPackages {
			pkgs = append(pkgs, lp.name)
		}
		return pkgs
	}
	for n := range ctx.pkg.libImports {
		pkgs = append(pkgs, n)
	}
	sort.Strings(pkgs)
	return append([]string{ctx.pkg.name}, pkgs...)
}

// bareKind is what a bare name resolved to.
type bareKind int

const (
	bareNone    bareKind = iota
	barePackage          // a package-level name
	bareContext          // a member of the type the comment documents
	bareMember           // a member of another type of the packages in scope
)

// lookupBare resolves a bare name for ctx: a package-level name of a
// package in scope, a member of the type the comment documents, or a
// member of another type of the packages in scope. It returns the name's
// package and what it is.
func (a *libAPI) lookupBare(ctx docContext, name string) (string, bareKind) {
	for _, t := range ctx.types {
		if _, ok, open := a.member(t, name); ok || open {
			return t.pkg, bareContext
		}
	}
	for _, pn := range a.scope(ctx) {
		p := a.pkgs[pn]
		if r, ok := p.names[name]; ok && p.consts[name] && slices.Contains(ctx.types, r) {
			return pn, bareContext // a constant of a type the comment is about
		}
	}
	for _, pn := range a.scope(ctx) {
		if _, ok := a.pkgs[pn].names[name]; ok {
			return pn, barePackage
		}
	}
	for _, pn := range a.scope(ctx) {
		if a.anyMember(pn, name) {
			return pn, bareMember
		}
	}
	return "", bareNone
}

// packageName looks a package-level name up in the packages in scope and
// returns its type.
func (a *libAPI) packageName(ctx docContext, name string) (typeRef, bool) {
	for _, pn := range a.scope(ctx) {
		if r, ok := a.pkgs[pn].names[name]; ok {
			return r, true
		}
	}
	return typeRef{}, false
}

// anyMember reports whether name is a member of some type of package pn.
func (a *libAPI) anyMember(pn, name string) bool {
	for tn := range a.pkgs[pn].types {
		if _, ok, _ := a.member(typeRef{pn, tn}, name); ok {
			return true
		}
	}
	return false
}

// checkBare checks a name written alone (Notify, WithFaults(…), FromClient).
func (a *libAPI) checkBare(ctx docContext, c chain, backticked bool) string {
	p0 := c.parts[0]
	if c.prefix || isAcronym(p0) && !c.calls[0] || ctx.code {
		return "" // With…, JSON; a code block's own functions
	}
	if !(c.calls[0] || isCamel(p0) || backticked || c.midSenten && !c.titled && a.words[p0] || len(a.removed[p0]) > 0 && !c.titled) {
		return "" // a capitalised word of the prose
	}
	pn, kind := a.lookupBare(ctx, p0)
	switch {
	case kind == bareNone && ctx.pkg == nil:
		return fmt.Sprintf("%s: no package of the library has a name %s", c, p0)
	case kind == bareNone:
		return fmt.Sprintf("%s: no name of package %s (nor of a library package it imports), nor a member of any of their types", c, ctx.pkg.name)
	case c.calls[0] && kind == barePackage && a.pkgs[pn].consts[p0]:
		return fmt.Sprintf("%s: %s is a constant, not a function or method", c, p0)
	}
	if kind == bareContext || c.noun || slices.Contains(ctx.self, p0) {
		return ""
	}
	// A member gone-names.txt says a type of these packages lost, under a
	// name that still means something else here (Server.Handler, now the
	// type Handler; Server.Notify, now Session.Notify only): written
	// alone it reads as the removed one.
	for _, r := range a.removed[p0] {
		if r.pkg == pn || ctx.pkg != nil && r.pkg == ctx.pkg.name {
			return fmt.Sprintf("%s: %s.%s is gone (%s) and %s alone now names something else; write the one meant (Type.%s, pkg.%s, or the type with an article)", c, r.name, p0, goneNamesFile, p0, p0, p0)
		}
	}
	return ""
}

// check resolves one chain the prose wrote in ctx; it returns "" when the
// chain is no API mention or names what exists, else the problem.
func (a *libAPI) check(ctx docContext, c chain, backticked bool) string {
	p0 := c.parts[0]
	if notAPI[p0] || notAPI[strings.Join(c.parts, ".")] || len(c.parts) >= 2 && notAPI[c.parts[0]+"."+c.parts[1]] {
		return ""
	}
	var cur []typeRef // what the part before resolved to, when it is a library type
	i := 1
	switch {
	case c.leadingDot:
		if !ast.IsExported(p0) {
			return ""
		}
		for _, lp := range libPackages {
			if a.anyMember(lp.name, p0) {
				return ""
			}
		}
		return fmt.Sprintf("%s: no type of the library has a member %s", c, p0)
	case !ast.IsExported(p0):
		if len(c.parts) < 2 || !ast.IsExported(c.parts[1]) {
			return ""
		}
		if lib, ok := a.pkgs[p0]; ok {
			r, ok := lib.names[c.parts[1]]
			if !ok {
				return fmt.Sprintf("%s: package %s has no %s", c, p0, c.parts[1])
			}
			if lib.types[c.parts[1]] != nil {
				r = typeRef{p0, c.parts[1]}
			}
			cur, i = []typeRef{r}, 2
			break
		}
		if a.isOtherPackageName(ctx, p0) {
			return ""
		}
		cur = a.vars[p0]
		if len(cur) == 0 {
			return "" // a variable of no known library type
		}
	default: // a capitalised first part
		if len(c.parts) == 1 {
			return a.checkBare(ctx, c, backticked)
		}
		if ts := a.lookupType(ctx, p0); len(ts) > 0 && !c.calls[0] {
			cur = ts
		} else if r, ok := a.packageName(ctx, p0); ok {
			cur = []typeRef{r} // a function's result, a variable's type
		} else if _, kind := a.lookupBare(ctx, p0); kind == bareContext || kind == bareMember {
			// Get(…).Int(), Session(n).Era(): a member's result
			cur = []typeRef{{}}
			for _, t := range ctx.types {
				if r, ok, _ := a.member(t, p0); ok && kind == bareContext {
					cur = []typeRef{r}
				}
			}
		} else if !ast.IsExported(c.parts[1]) || isAcronym(p0) {
			return "" // DESIGN.md, README.md
		} else {
			return fmt.Sprintf("%s: the library has no type %s", c, p0)
		}
	}
	for ; i < len(c.parts); i++ {
		name := c.parts[i]
		if !ast.IsExported(name) || len(name) == 1 {
			return "" // not exported, or a placeholder: j.X(…)
		}
		var next []typeRef
		found, open := false, false
		for _, t := range cur {
			if !t.known() {
				open = true // not a library type: nothing to check
				continue
			}
			r, ok, o := a.member(t, name)
			if ok {
				found = true
				next = append(next, r)
			}
			open = open || o
		}
		if !found {
			if open {
				return ""
			}
			return fmt.Sprintf("%s: %s has no member %s", c, typeNames(cur), name)
		}
		cur = next
	}
	return ""
}

func typeNames(ts []typeRef) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.pkg+"."+t.name)
	}
	sort.Strings(out)
	return strings.Join(slices.Compact(out), " or ")
}

// checkComment checks the names of one doc comment; each problem is
// prefixed with where.
func (a *libAPI) checkComment(ctx docContext, text string) []string {
	var problems []string
	var prose, code strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "  ") {
			code.WriteString(l + "\n")
			prose.WriteString("\n")
		} else {
			prose.WriteString(l + "\n")
			code.WriteString("\n")
		}
	}
	for _, part := range []struct {
		text string
		code bool
	}{{prose.String(), false}, {code.String(), true}} {
		c := ctx
		c.code = part.code
		s := stripQuoted(part.text)
		if part.code {
			s = inlineCode.ReplaceAllStringFunc(s, func(q string) string { return strings.Repeat(" ", len(q)) })
		}
		for _, ch := range scanChains(s) {
			if p := a.check(c, ch, false); p != "" {
				problems = append(problems, ctx.at(s, ch.at)+": "+p)
			}
		}
	}
	return problems
}

// docComment is one doc comment of an exported declaration.
type docComment struct {
	ctx  docContext
	text string
}

// exportedDocs returns the doc comments of a library package: its package
// doc, and those of every exported declaration (types, funcs, methods of
// exported types, consts, vars, exported fields and interface methods).
func (a *libAPI) exportedDocs(p *libPkg) []docComment {
	var out []docComment
	var fileNames []string
	for fn := range p.files {
		fileNames = append(fileNames, fn)
	}
	sort.Strings(fileNames)
	for _, fn := range fileNames {
		f := p.files[fn]
		imps := a.fileImports(f)

		add := func(cg *ast.CommentGroup, name string, types ...typeRef) {
			if cg == nil {
				return
			}
			var known []typeRef
			for _, t := range types {
				if t.known() {
					known = append(known, t)
				}
			}
			var self []string
			for _, n := range strings.Split(name, ", ") {
				self = append(self, n[strings.LastIndex(n, ".")+1:])
			}
			pos := p.fset.Position(cg.Pos())
			file := strings.TrimPrefix(filepath.ToSlash(pos.Filename), "../")
			out = append(out, docComment{docContext{pkg: p, types: known, imps: imps, where: fmt.Sprintf("%s:%d (%s)", file, pos.Line, name), file: file, line: pos.Line, name: name, self: self}, cg.Text()})
		}
		add(f.Doc, "package "+p.name)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv != nil {
					recv := a.typeOf(p, imps, d.Recv.List[0].Type)
					if !recv.known() || !ast.IsExported(recv.name) {
						continue // a method go doc does not show
					}
					add(d.Doc, recv.name+"."+d.Name.Name, append(a.params(p, imps, d.Type), recv)...)
					continue
				}
				add(d.Doc, d.Name.Name, append(a.params(p, imps, d.Type), a.result(p, imps, d.Type))...)
			case *ast.GenDecl:
				var exported []string
				var declTypes []typeRef
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						self := typeRef{p.name, s.Name.Name}
						exported = append(exported, s.Name.Name)
						declTypes = append(declTypes, self)
						add(s.Doc, s.Name.Name, self)
						var fields *ast.FieldList
						switch u := s.Type.(type) {
						case *ast.StructType:
							fields = u.Fields
						case *ast.InterfaceType:
							fields = u.Methods
						}
						if fields != nil {
							for _, fl := range fields.List {
								for _, n := range fl.Names {
									if n.IsExported() {
										add(fl.Doc, s.Name.Name+"."+n.Name, self, a.typeOf(p, imps, fl.Type))
										add(fl.Comment, s.Name.Name+"."+n.Name, self, a.typeOf(p, imps, fl.Type))
									}
								}
							}
						}
					case *ast.ValueSpec:
						var typ typeRef
						if s.Type != nil {
							typ = a.typeOf(p, imps, s.Type)
						} else if len(s.Values) > 0 {
							typ = a.exprType(p, imps, s.Values[0])
						}
						any := false
						for _, n := range s.Names {
							any = any || n.IsExported()
						}
						if !any {
							continue
						}
						exported = append(exported, s.Names[0].Name)
						declTypes = append(declTypes, typ)
						add(s.Doc, s.Names[0].Name, typ)
						add(s.Comment, s.Names[0].Name, typ)
					}
				}
				if len(exported) > 0 {
					add(d.Doc, strings.Join(exported, ", "), declTypes...)
				}
			}
		}
	}
	return out
}

// readmeProse returns a Markdown page's text outside its fenced blocks,
// blank where it left text out so that offsets still count lines.
func readmeProse(text string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			b.WriteString("\n")
			continue
		}
		if in {
			b.WriteString("\n")
			continue
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// codeSpans returns the Markdown code spans of a text (a run of n
// backticks up to the next run of exactly n) with their offsets.
func codeSpans(text string) (spans []string, at []int) {
	for i := 0; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		open := i + n
		j := open
		closed := -1
		for j < len(text) {
			if text[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(text) && text[j+m] == '`' {
				m++
			}
			if m == n {
				closed = j
				break
			}
			j += m
		}
		if closed < 0 {
			i = open // a lone run of backticks is text
			continue
		}
		spans = append(spans, text[open:closed])
		at = append(at, i)
		i = closed + n
	}
	return spans, at
}

// testPrefix reports whether a test's name starts with prefix.
func (a *libAPI) testPrefix(prefix string) bool {
	for n := range a.tests {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

// commands are the first words of a code span that is a command line.
var commands = map[string]bool{"go": true, "mcpmock": true, "git": true, "cd": true, "npm": true, "npx": true, "node": true, "python": true, "python3": true, "curl": true, "sh": true, "benchstat": true}

// testFunc is the name of a test, benchmark, fuzz test or example.
var testFunc = regexp.MustCompile(`^(?:Test|Benchmark|Fuzz|Example)(?:[A-Z_]\w*)?$`)

// readmeProblems checks the names of the code spans of a Markdown page
// (the README, a page of docs/), named name; it returns the problems and
// how many spans named API (a floor for the test: a scan that finds
// nothing checks nothing).
func (a *libAPI) readmeProblems(name, text string) ([]string, int) {
	prose := readmeProse(text)
	var problems []string
	named := 0
	spans, at := codeSpans(prose)
	for k, sp := range spans {
		line := strings.Count(prose[:at[k]], "\n") + 1
		ctx := docContext{where: fmt.Sprintf("%s:%d", name, line)}
		s := stripQuoted(strings.TrimSpace(sp))
		if commands[firstWord(s)] && strings.Contains(s, " ") {
			continue // a command line: go test -run Record ./integration
		}
		if i := strings.Index(s, "//"); i >= 0 && !strings.Contains(s[:i], ":") {
			s = s[:i] // a comment: prose
		}
		chains := scanChains(s)
		if slices.ContainsFunc(chains, func(c chain) bool { return slices.ContainsFunc(c.parts, ast.IsExported) }) {
			named++
		}
		for _, ch := range chains {
			if len(ch.parts) == 1 && testFunc.MatchString(ch.parts[0]) {
				if ch.prefix || strings.HasPrefix(s[ch.at+len(ch.text):], "*") {
					if !a.testPrefix(ch.parts[0]) {
						problems = append(problems, fmt.Sprintf("%s: %s…: no test, benchmark, fuzz test or example of the repository has a name that starts so", ctx.where, ch))
					}
					continue
				}
				if !a.tests[ch.parts[0]] {
					problems = append(problems, fmt.Sprintf("%s: %s: no test, benchmark, fuzz test or example of the repository has that name", ctx.where, ch))
				}
				continue
			}
			if ch.at == 0 {
				// "a `Session`", "`Session`'s": the words around the span
				after := prose[at[k]+len(sp)+2:]
				ch.noun = ch.noun || isNoun(prose[:at[k]]) || strings.HasPrefix(after, "'s ") || nounsAfter[firstWord(after)]
			}
			// A span that is one name (`Notify`, `WithFaults(…)`) names it;
			// in a span of words a capitalised word is prose.
			whole := strings.TrimPrefix(s, ".") == ch.text
			if p := a.check(ctx, ch, whole); p != "" {
				problems = append(problems, ctx.where+": "+p)
			}
		}
	}
	return problems, named
}

// TestDocCommentNamesExist: every API name the doc comments of the
// library's exported declarations and packages mention exists.
func TestDocCommentNamesExist(t *testing.T) {
	a := loadAPI(t)
	n := 0
	for _, lp := range libPackages {
		for _, d := range a.exportedDocs(a.pkgs[lp.name]) {
			n++
			for _, p := range a.checkComment(d.ctx, d.text) {
				t.Errorf("%s (fix the comment, or add the word to notAPI with the reason if it is not the library's)", p)
			}
		}
	}
	// The command's package doc names the library's API too.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "../cmd/mcpmock/main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		t.Fatalf("want the package doc of cmd/mcpmock/main.go: %v", err)
	}
	for _, p := range a.checkComment(docContext{where: "cmd/mcpmock/main.go (package doc)"}, f.Doc.Text()) {
		t.Errorf("%s (fix the comment, or add the word to notAPI with the reason if it is not the library's)", p)
	}
	if n < 500 || len(a.removed) == 0 {
		t.Fatalf("want the doc comments of the library's exported declarations (found %d) and the removed members of %s (found %v)", n, goneNamesFile, a.removed)
	}
}

// TestReadmeNamesExist: every API name the prose of the README and of
// every page of docs/ names in backticks exists in the library's packages.
func TestReadmeNamesExist(t *testing.T) {
	a := loadAPI(t)
	named := 0
	for _, page := range markdownPages(t) {
		problems, n := a.readmeProblems(page, readFile(t, "../"+page))
		for _, p := range problems {
			t.Errorf("%s (fix the page, or add the word to notAPI with the reason if it is not the library's)", p)
		}
		named += n
	}
	if named < 200 {
		t.Fatalf("want the API names of the README and docs/, found %d spans that name any", named)
	}
}

// goneNames are the old names of the gone-names list (goneNamesFile)
// that are no exported name of the library any more (the old fault names
// among them).
func (a *libAPI) goneNames(list string) []string {
	var out []string
	for _, sp := range oldNames(list) {
		for _, c := range scanChains(stripQuoted(sp)) {
			if _, lib := a.pkgs[c.parts[0]]; !ast.IsExported(c.parts[0]) && !lib {
				continue // net.Conn: another package's
			}
			n := c.parts[len(c.parts)-1]
			if ast.IsExported(n) && !a.words[n] && !notAPI[n] && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// oldNameIn returns the first gone name that text holds as a word of its
// own or a CamelCase part of one (a test named TestFault + an old fault
// name + Discover), and not as part of a current name (ToolErrorResult
// holds an old name).
func (a *libAPI) oldNameIn(text string, gone []string) string {
	for _, g := range gone {
		for from := 0; ; {
			i := strings.Index(text[from:], g)
			if i < 0 {
				break
			}
			i += from
			j := i + len(g)
			from = i + 1
			if i > 0 && isIdentByte(text[i-1]) && !(text[i-1] >= 'a' && text[i-1] <= 'z' || text[i-1] >= '0' && text[i-1] <= '9') && !strings.HasPrefix(text[i-1:], strings.ToUpper(text[i-1:i])) {
				continue
			}
			if j < len(text) && text[j] >= 'a' && text[j] <= 'z' {
				continue // ErrorReplyx: another word
			}
			covered := false
			for k := max(0, i-40); k <= i && !covered; k++ {
				for w := range a.words {
					if k+len(w) >= j && strings.HasPrefix(text[k:], w) && (k == 0 || !isIdentByte(text[k-1]) || 'A' <= text[k] && text[k] <= 'Z') {
						covered = true
						break
					}
				}
			}
			if !covered {
				return g
			}
		}
	}
	return ""
}

// TestDocOldNamesGone: no test, benchmark, fuzz test or example of the
// repository is named for, and no Go comment mentions, an old name
// testdata/gone-names.txt lists as gone (a test of ReplaceWithJSONRPCError
// kept the fault's old name).
func TestDocOldNamesGone(t *testing.T) {
	a := loadAPI(t)
	gone := a.goneNames(readFile(t, goneNamesFile))
	if len(gone) < 5 {
		t.Fatalf("want the old names of %s, found %v", goneNamesFile, gone)
	}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".." || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(filepath.ToSlash(path), "../")
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && testFunc.MatchString(fd.Name.Name) {
				if g := a.oldNameIn(fd.Name.Name, gone); g != "" {
					t.Errorf("%s:%d: %s is named for %s, which %s lists as gone: rename it for the current name", name, fset.Position(fd.Pos()).Line, fd.Name.Name, g, goneNamesFile)
				}
			}
		}
		for _, cg := range f.Comments {
			if g := a.oldNameIn(cg.Text(), gone); g != "" {
				t.Errorf("%s:%d: a comment mentions %s, which %s lists as gone: name the current API", name, fset.Position(cg.Pos()).Line, g, goneNamesFile)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// syntheticProblems checks the doc comments of one Go file, src, as if it
// were a file of the library package pkg.
func (a *libAPI) syntheticProblems(t *testing.T, pkg, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "synthetic.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	p := *a.pkgs[pkg]
	p.files, p.fset = map[string]*ast.File{"synthetic.go": f}, fset
	var out []string
	for _, d := range a.exportedDocs(&p) {
		out = append(out, a.checkComment(d.ctx, d.text)...)
	}
	return out
}

// TestDocNamesCheckCatches: the checks find the stale names issue 28
// found (the package doc's Handler for Server.HTTPHandler, FromClient and
// FromServer for the methods now From(dir); Notify for Server.Broadcast in
// server.go's comments; the scenarios' Dial for Endpoint.Open), in the
// forms a doc writes them, and leave the current names alone.
func TestDocNamesCheckCatches(t *testing.T) {
	a := loadAPI(t)
	cases := []struct {
		pkg, src string
		want     []string // a problem naming each; none when empty
	}{
		{"mcptest", "// Package mcptest …\n//\n// # Streamable HTTP\n//\n// URL starts a real HTTP server, e.g.\n// &mcp.StreamableClientTransport{Endpoint: srv.URL()}; Handler is the same\n// endpoint to mount yourself.\npackage mcptest\n",
			[]string{"Handler: Server.Handler is gone"}},
		{"mcptest", "// Package mcptest …: its queries select by what a message is, never by\n// who sent it: narrow with FromClient or FromServer.\npackage mcptest\n",
			[]string{"FromClient: Journal.FromClient is gone", "FromServer: Journal.FromServer is gone"}},
		{"mcptest", "package mcptest\n\nconst (\n\t// ListChanged sends the catalog's notifications/…/list_changed to every\n\t// session that may receive it (as Notify does).\n\tListChanged Announce = true\n)\n",
			[]string{"Notify: Server.Notify is gone"}},
		{"mcptest", "package mcptest\n\n// SetTools replaces the tool set; with ListChanged it sends\n// notifications/tools/list_changed (see Notify for who receives it).\nfunc (s *Server) SetTools(a Announce, tools ...*Tool) {}\n",
			[]string{"Notify: Server.Notify is gone"}},
		{"mcptest", "package mcptest\n\n// Close ends it; Server.Notify, srv.Notify(m, nil), Server.Handler() and\n// srv.Journal().FromClient() are gone, FromClient() is no call, and\n// mcptest.NoSuchThing never was.\nfunc (s *Server) Close() {}\n",
			[]string{"Server.Notify: mcptest.Server has no member Notify", "srv.Notify(m, nil): mcptest.Server has no member Notify", "Server.Handler(): mcptest.Server has no member Handler", "srv.Journal().FromClient(): mcptest.Journal has no member FromClient", "FromClient(): FromClient is a constant", "mcptest.NoSuchThing: package mcptest has no NoSuchThing"}},
		{"scenarios", "package scenarios\n\n// ConnectFunc reaches the server through ep (Dial for the stdio framing,\n// URL for Streamable HTTP); ep.Dial() is gone.\ntype ConnectFunc func()\n",
			[]string{"Dial: Endpoint.Dial is gone", "ep.Dial(): scenarios.Endpoint has no member Dial"}},
		// the current names, in the same forms
		{"mcptest", "// Package mcptest …: srv.URL(); Server.HTTPHandler is the same endpoint to\n// mount yourself, and a Handler is the escape hatch. Narrow with\n// From(FromClient) or From(FromServer); http.Handler and mcp.ClientSession\n// are other packages'.\npackage mcptest\n", nil},
		{"mcptest", "package mcptest\n\n// Broadcast sends to every session (as Broadcast does); Session.Notify,\n// sess.Notify(m, nil) and srv.Journal().All().InSession(2).Transcript() send to\n// one or read one. See BroadcastResourceUpdated.\nfunc (s *Server) Broadcast() {}\n\n// Notify sends a notification to this session; Notify fails once it ended.\nfunc (s *Session) Notify() {}\n", nil},
		{"scenarios", "package scenarios\n\n// ConnectFunc reaches the server through ep (Open for the stdio framing,\n// URL for Streamable HTTP): ep.Open(), Endpoint.Open; do not call the\n// base server's Server.Dial.\ntype ConnectFunc func()\n", nil},
	}
	for i, c := range cases {
		got := a.syntheticProblems(t, c.pkg, c.src)
		t.Logf("case %d: %q", i, got)
		for _, w := range c.want {
			if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, w) }) {
				t.Errorf("case %d: want a problem %q, got %q", i, w, got)
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("case %d: want %d problems, got %d: %q", i, len(c.want), len(got), got)
		}
	}

	readme := "Use `Session.Notify`, `srv.Broadcast(m, nil)`, `Broadcast`, a `Handler`, `http.Handler`, `mcp.ClientSession`,\n" +
		"`srv.Journal().All().InSession(2).Transcript()`, `.ReturnsText(\"a\")`, `Hang(m)`, `TestDocNamesCheckCatches`, `TestDoc*`.\n" +
		"Not `Notify`, `Server.Notify`, `srv.Notify(m, nil)`, `mcptest.NoSuchThing`, `WithNoSuchOption`, `TestNoSuchTest`.\n" +
		"```go\nsrv.Nope()\n```\n"
	got, _ := a.readmeProblems("README.md", readme)
	want := []string{"Notify: Server.Notify is gone", "Server.Notify: mcptest.Server has no member Notify", "srv.Notify(m, nil): mcptest.Server has no member Notify", "package mcptest has no NoSuchThing", "WithNoSuchOption: no package", "TestNoSuchTest: no test"}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, w) }) {
			t.Errorf("README: want a problem %q, got %q", w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("README: want %d problems, got %d: %q", len(want), len(got), got)
	}

	gone := a.goneNames(readFile(t, goneNamesFile))
	for name, want := range map[string]string{
		"TestFaultErrorReplyDiscover":              "ErrorReply",
		"TestFaultCapabilitiesAs":                  "CapabilitiesAs",
		"TestFaultRejectProtocolVersion":           "RejectProtocolVersion",
		"TestFaultReplaceWithJSONRPCErrorDiscover": "",
		"TestFaultRejectProtocolVersionHandshake":  "",
		"TestToolErrorResult":                      "",
	} {
		if got := a.oldNameIn(name, gone); got != want {
			t.Errorf("oldNameIn(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestDocHandshakeTimeline: package fault's doc draws the handshake as
// a timeline with the point where each handshake fault acts, and each of
// those faults' docs says where it acts ("On the timeline: …"), both ways;
// every fault of faults.go's handshake group is on it, but for SetField
// and DeleteField, which edit any reply at a path.
func TestDocHandshakeTimeline(t *testing.T) {
	a := loadAPI(t)
	p := a.pkgs["fault"]
	var pkgDoc string
	docs := map[string]string{} // fault constructor → its doc
	var group []string          // the constructors of faults.go's handshake group
	for fn, f := range p.files {
		if f.Doc != nil {
			pkgDoc += f.Doc.Text()
		}
		inGroup := false
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !fd.Name.IsExported() || p.names[fd.Name.Name] != (typeRef{"mcptest", "Fault"}) {
				continue
			}
			docs[fd.Name.Name] = fd.Doc.Text()
			if filepath.Base(fn) != "faults.go" {
				continue
			}
			for _, cg := range f.Comments {
				if cg.End() < fd.Pos() && strings.HasPrefix(cg.List[0].Text, "// ---- ") {
					inGroup = strings.HasPrefix(cg.List[0].Text, "// ---- Handshake")
				}
			}
			takesPath := false
			for _, fl := range fd.Type.Params.List {
				for _, n := range fl.Names {
					takesPath = takesPath || n.Name == "path"
				}
			}
			if inGroup && !takesPath {
				group = append(group, fd.Name.Name)
			}
		}
	}
	i := strings.Index(pkgDoc, "faults acting there")
	if i < 0 {
		t.Fatalf("package fault's doc draws no handshake timeline (a code block whose header ends \"faults acting there\")")
	}
	var block strings.Builder // the code block: indented lines, and blank ones between
	for _, l := range strings.Split(pkgDoc[i:], "\n")[1:] {
		if l != "" && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "    ") {
			break
		}
		block.WriteString(l + "\n")
	}
	onTimeline := map[string]bool{}
	for _, c := range scanChains(block.String()) {
		if _, ok := docs[c.parts[0]]; ok && len(c.parts) == 1 {
			onTimeline[c.parts[0]] = true
		}
	}
	if len(onTimeline) < 10 {
		t.Fatalf("want the handshake faults on the timeline, found %v in:\n%s", onTimeline, block.String())
	}
	for name, doc := range docs {
		says := strings.Contains(strings.Join(strings.Fields(doc), " "), "On the timeline")
		switch {
		case onTimeline[name] && !says:
			t.Errorf("%s is on the package doc's timeline, but its doc does not say where it acts (\"On the timeline: …\")", name)
		case !onTimeline[name] && says:
			t.Errorf("%s's doc says where it acts on the timeline, but the package doc's timeline does not show it", name)
		}
	}
	for _, name := range group {
		if !onTimeline[name] {
			t.Errorf("%s is a handshake fault (faults.go's handshake group) the package doc's timeline does not show", name)
		}
	}
}
