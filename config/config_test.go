package config

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var update = flag.Bool("update", false, "rewrite schema.json's fault definitions from the fault table")

// TestSchemaFaults keeps schema.json's fault definitions in step with the
// fault table.
func TestSchemaFaults(t *testing.T) {
	want, err := renderSchema()
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile("schema.json", want, 0o644))
		return
	}
	if !bytes.Equal(schemaJSON, want) {
		t.Fatalf("schema.json is not in step with the fault table (or not in canonical form): run go test ./config -run TestSchemaFaults -update")
	}
}

// faultConstructors returns the fault constructors of the catalogs a
// file names faults from (packages fault and oauth, and mcptest's own),
// each with its arguments' names, in order.
func faultConstructors(t *testing.T) map[string][]string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../mcptest/*.go", "../mcptest/fault/*.go", "../mcptest/oauth/*.go"} {
		fs, err := filepath.Glob(pattern)
		require.NoError(t, err)
		files = append(files, fs...)
	}
	fset := token.NewFileSet()
	ctors := map[string][]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil || len(fn.Type.Results.List) != 1 {
				continue
			}
			switch r := fn.Type.Results.List[0].Type.(type) {
			case *ast.Ident:
				if r.Name != "Fault" {
					continue
				}
			case *ast.SelectorExpr:
				if x, ok := r.X.(*ast.Ident); !ok || x.Name != "mcptest" || r.Sel.Name != "Fault" {
					continue
				}
			default:
				continue
			}
			var names []string
			for _, p := range fn.Type.Params.List {
				for _, n := range p.Names {
					names = append(names, n.Name)
				}
			}
			ctors[fn.Name.Name] = names
		}
	}
	require.NotEmpty(t, ctors, "found no fault constructors in ../mcptest/fault")
	return ctors
}

// TestEveryFaultIsNamed: every fault constructor can be named in a file,
// so a fault added to the catalog is not forgotten here.
func TestEveryFaultIsNamed(t *testing.T) {
	ctors := faultConstructors(t)
	var missing []string
	for _, c := range slices.Sorted(maps.Keys(ctors)) {
		if _, ok := faultSpecs()[c]; !ok {
			missing = append(missing, c)
		}
	}
	assert.Empty(t, missing, "fault constructors a config file cannot name: add them to specs() in config/faults.go, then run go test ./config -run TestSchemaFaults -update")
	for _, n := range faultNames() {
		assert.Contains(t, ctors, n, "config names fault %q, which no catalog has", n)
	}
}

func TestParseFull(t *testing.T) {
	c, err := Load("testdata/full.json")
	require.NoError(t, err)
	assert.Equal(t, "weather", c.Server.Name)
	assert.Len(t, c.Tools, 5)
	assert.Len(t, c.Faults, 3)
	assert.Equal(t, "Delay", c.Faults[0].Name)
	assert.JSONEq(t, `"10ms"`, string(c.Faults[0].Params["duration"]))
}

// rawSession is a hand-written client of one session: it checks what the
// built server answers, message by message (the SDK suites in
// ./integration prove the same file with real clients).
type rawSession struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	id   int
}

func dialRaw(t *testing.T, srv *mcptest.Server) *rawSession {
	conn := srv.Dial()
	t.Cleanup(func() { _ = conn.Close() })
	s := &rawSession{t: t, conn: conn, r: bufio.NewReader(conn)}
	init := s.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	require.Equal(t, "2025-11-25", init.Get("result.protocolVersion").String(), init.Raw)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *rawSession) send(line string) {
	s.t.Helper()
	require.NoError(s.t, s.conn.SetWriteDeadline(time.Now().Add(10*time.Second)))
	_, err := s.conn.Write([]byte(line + "\n"))
	require.NoError(s.t, err)
}

// call sends a request and returns its response, skipping notifications.
func (s *rawSession) call(method, params string) gjson.Result {
	s.t.Helper()
	s.id++
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, s.id, method, params))
	require.NoError(s.t, s.conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	for {
		line, err := s.r.ReadBytes('\n')
		require.NoError(s.t, err, "reading the reply to %s", method)
		m := gjson.ParseBytes(line)
		if m.Get("id").Int() == int64(s.id) && !m.Get("method").Exists() {
			return m
		}
	}
}

func TestNewServerFull(t *testing.T) {
	c, err := Load("testdata/full.json")
	require.NoError(t, err)
	srv := c.NewServer(t)
	s := dialRaw(t, srv)

	init := srv.Journal().All().Responses("initialize")[0]
	assert.Equal(t, "weather", init.Get("result.serverInfo.name").String())
	assert.Equal(t, "Weather service", init.Get("result.serverInfo.title").String())
	assert.Equal(t, "Ask for forecasts.", init.Get("result.instructions").String())
	assert.True(t, init.Get("result.capabilities.logging").Exists(), init.Raw)
	assert.True(t, init.Get("result.capabilities.completions").Exists(), init.Raw)

	list := s.call("tools/list", `{}`)
	assert.Equal(t, 2, len(list.Get("result.tools").Array()), "pageSize 2: %s", list.Raw)
	assert.Equal(t, "added by a fault", list.Get("result._meta.note").String(), "the SetField fault")
	assert.Equal(t, "get_forecast", list.Get("result.tools.0.name").String())
	assert.True(t, list.Get("result.tools.0.annotations.readOnlyHint").Bool())
	assert.Equal(t, "string", list.Get("result.tools.0.inputSchema.properties.city.type").String())
	assert.Equal(t, "number", list.Get("result.tools.1.outputSchema.properties.celsius.type").String())
	next := s.call("tools/list", fmt.Sprintf(`{"cursor":%q}`, list.Get("result.nextCursor").String()))
	assert.Equal(t, "radar", next.Get("result.tools.0.name").String(), next.Raw)

	call := func(name, args string) gjson.Result {
		return s.call("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args))
	}
	assert.Equal(t, "rain", call("get_forecast", `{"city":"Paris"}`).Get("result.content.0.text").String())
	atl := call("get_forecast", `{"city":"Atlantis"}`)
	assert.True(t, atl.Get("result.isError").Bool(), atl.Raw)
	assert.Equal(t, "no such city", atl.Get("result.content.0.text").String())
	assert.Equal(t, "sunny", call("get_forecast", `{"city":"Lyon"}`).Get("result.content.0.text").String())
	assert.Equal(t, "cloudy", call("get_forecast", `{"city":"Lyon"}`).Get("result.content.0.text").String())
	assert.Equal(t, "cloudy", call("get_forecast", `{"city":"Nice"}`).Get("result.content.0.text").String(), "the last reply repeats")
	assert.Equal(t, 21.5, call("get_temperature", `{}`).Get("result.structuredContent.celsius").Float())
	radar := call("radar", `{}`)
	assert.Equal(t, "image", radar.Get("result.content.1.type").String(), radar.Raw)
	broken := call("broken", `{}`)
	assert.Equal(t, int64(-32000), broken.Get("error.code").Int(), broken.Raw)
	assert.Equal(t, int64(5), broken.Get("error.data.retryAfter").Int())
	assert.Equal(t, "as sent", call("raw", `{}`).Get("result.content.0.text").String())

	read := func(uri string) gjson.Result { return s.call("resources/read", fmt.Sprintf(`{"uri":%q}`, uri)) }
	assert.Equal(t, "Paris\nLyon", read("weather://stations").Get("result.contents.0.text").String())
	logo := read("weather://logo")
	assert.Equal(t, "iVBORw0KGgo=", logo.Get("result.contents.0.blob").String(), logo.Raw)
	assert.Equal(t, "image/png", logo.Get("result.contents.0.mimeType").String())
	assert.Equal(t, int64(-32002), read("weather://alerts").Get("error.code").Int())
	city := read("weather://city/lyon")
	assert.Equal(t, "a city", city.Get("result.contents.0.text").String(), city.Raw)
	assert.Equal(t, "weather://city/lyon", city.Get("result.contents.0.uri").String())
	assert.Equal(t, int64(-32002), read("weather://city/atlantis").Get("error.code").Int())
	tpl := s.call("resources/templates/list", `{}`)
	assert.Equal(t, "weather://city/{name}", tpl.Get("result.resourceTemplates.0.uriTemplate").String(), tpl.Raw)

	prompt := s.call("prompts/get", `{"name":"plan_trip","arguments":{"city":"Paris"}}`)
	assert.Equal(t, "Pack an umbrella for Paris", prompt.Get("result.messages.0.content.text").String(), prompt.Raw)
	other := s.call("prompts/get", `{"name":"plan_trip","arguments":{"city":"Rome"}}`)
	assert.Equal(t, "Plan a trip", other.Get("result.messages.0.content.text").String(), other.Raw)
	plist := s.call("prompts/list", `{}`)
	assert.True(t, plist.Get("result.prompts.0.arguments.0.required").Bool(), plist.Raw)

	comp := s.call("completion/complete", `{"ref":{"type":"ref/prompt","name":"plan_trip"},"argument":{"name":"city","value":"P"}}`)
	assert.Equal(t, []any{"Paris", "Prague"}, comp.Get("result.completion.values").Value(), comp.Raw)
	comp = s.call("completion/complete", `{"ref":{"type":"ref/resource","uri":"weather://city/{name}"},"argument":{"name":"name","value":"l"}}`)
	assert.Equal(t, []any{"lyon"}, comp.Get("result.completion.values").Value(), comp.Raw)

	// The Delay fault acted on the second call, ListChangedAfter after prompts/get.
	assert.NotEmpty(t, srv.Journal().All().Notifications("notifications/prompts/list_changed"))
	srv.Close()
	assert.Empty(t, srv.Violations())
}

func TestEmptyToolsDeclaresTheCapability(t *testing.T) {
	c, err := Parse("empty.json", []byte(`{"server":{"name":"x","version":"1"},"tools":[]}`))
	require.NoError(t, err)
	srv := c.NewServer(t)
	s := dialRaw(t, srv)
	init := srv.Journal().All().Responses("initialize")[0]
	assert.True(t, init.Get("result.capabilities.tools").Exists(), init.Raw)
	assert.Empty(t, s.call("tools/list", `{}`).Get("result.tools").Array())
}

// TestBadFiles: each mistake is reported at its line, naming the field and
// what to write instead.
func TestBadFiles(t *testing.T) {
	cases := []struct {
		name, file string
		want       []string // substrings of the message; its errors are its lines
	}{
		{"empty", ``, []string{"bad.json:1:1: the file is empty"}},
		{"syntax", "{\n  \"server\": {\"name\": \"x\",}\n}", []string{"bad.json:2:27: invalid JSON: invalid character '}' looking for beginning of object key string"}},
		{"truncated", "{\n  \"server\": {", []string{"bad.json:2:14: invalid JSON: the file ends in the middle of a value"}},
		{"not an object", `[1]`, []string{"bad.json:1:1: got array, want object"}},
		{"trailing data", `{} {}`, []string{"bad.json:1:4: unexpected data after the top-level JSON object"}},
		{"unknown top-level field", "{\n  \"server\": {\"name\": \"x\", \"version\": \"1\"},\n  \"tols\": []\n}",
			[]string{`bad.json:1:1: unknown field "tols" (did you mean "tools"?); allowed here:`}},
		{"missing version", "{\n  \"server\": {\"name\": \"x\"}\n}", []string{`bad.json:2:3: server: missing required field "version"`}},
		{"tool without name", "{\"tools\": [\n  {\"title\": \"t\"}\n]}", []string{`bad.json:2:3: tools[0]: missing required field "name"`}},
		{"wrong type", "{\"tools\": [\n  {\"name\": 3}\n]}", []string{`bad.json:2:4: tools[0].name: got number, want string`}},
		{"reply with two kinds", "{\"tools\": [{\"name\": \"a\",\n  \"replies\": [{\"text\": \"a\", \"error\": \"b\"}]}]}",
			[]string{`bad.json:2:15: tools[0].replies[0]: a reply sets exactly one of content, error, result, rpcError, structured, text`}},
		{"misspelled reply field", "{\"tools\": [{\"name\": \"a\",\n  \"replies\": [{\"txt\": \"a\"}]}]}",
			[]string{`tools[0].replies[0]: unknown field "txt" (did you mean "text"?)`}},
		{"duplicate tool", "{\"tools\": [\n  {\"name\": \"a\"},\n  {\"name\": \"a\"}\n]}", []string{`bad.json:3:3: tools[1]: tool "a" is defined twice (first at tools[0])`}},
		{"unknown fault", "{\"faults\": [\n  {\"fault\": \"Dealy\", \"method\": \"tools/call\"}\n]}",
			[]string{`bad.json:2:4: faults[0].fault: unknown fault "Dealy" (did you mean "Delay"?)`}},
		{"fault without its parameter", "{\"faults\": [\n  {\"fault\": \"Delay\", \"method\": \"tools/call\"}\n]}",
			[]string{`bad.json:2:3: faults[0]: missing required field "duration"`}},
		{"fault with a bad duration", "{\"faults\": [\n  {\"fault\": \"Delay\", \"method\": \"tools/call\",\n   \"duration\": \"2 seconds\"}\n]}",
			[]string{`bad.json:3:4: faults[0].duration:`}},
		{"fault with a parameter of another fault", "{\"faults\": [\n  {\"fault\": \"Hang\", \"method\": \"tools/call\", \"duration\": \"1s\"}\n]}",
			[]string{`bad.json:2:3: faults[0]: unknown field "duration"`}},
		{"jitter backwards", "{\"faults\": [\n  {\"fault\": \"Jitter\", \"method\": \"tools/call\", \"min\": \"2s\",\n \"max\": \"1s\"}\n]}",
			[]string{`bad.json:3:2: faults[0].max: max (1s) is shorter than min (2s)`}},
		{"nth zero", "{\"faults\": [{\"fault\": \"Drop\", \"method\": \"ping\",\n \"nth\": 0}]}", []string{`bad.json:2:2: faults[0].nth: minimum: got 0, want 1`}},
		{"bad version", "{\"protocolVersions\": [\n\"2025-01-01\"]}", []string{`bad.json:2:1: protocolVersions[0]: value must be one of`}},
		{"bad base64", "{\"resources\": [{\"uri\": \"a://b\", \"name\": \"b\",\n \"replies\": [{\"blob\": \"!!\"}]}]}", []string{`bad.json:2:15: resources[0].replies[0].blob: not base64`}},
		{"text and replies", "{\"prompts\": [{\"name\": \"p\",\n \"text\": \"a\", \"replies\": [{\"text\": \"b\"}]}]}", []string{`bad.json:2:2: prompts[0].text: set "text" or "replies", not both`}},
		{"completion for both", "{\"completions\": [\n {\"prompt\": \"p\", \"resourceTemplate\": \"t\", \"argument\": \"a\", \"values\": []}]}",
			[]string{`bad.json:2:2: completions[0]: set exactly one of "prompt" and "resourceTemplate"`}},
		{"several mistakes", "{\n  \"server\": {\"name\": \"x\"},\n  \"tools\": [{\"name\": \"a\", \"replies\": []}]\n}",
			[]string{"bad.json:2:3: server: missing required field \"version\"\nbad.json:3:27: tools[0].replies: minItems"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.json", []byte(tc.file))
			require.Error(t, err)
			errs := Errors(err)
			require.NotEmpty(t, errs, "%v", err)
			msg := err.Error()
			n := 1 + strings.Count(strings.Join(tc.want, ""), "\n")
			assert.Len(t, errs, n, msg)
			assert.Len(t, strings.Split(msg, "\n"), n, msg)
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
		})
	}
}

func TestErrorsFormat(t *testing.T) {
	_, err := Parse("f.json", []byte("{\n \"server\": 1}"))
	errs := Errors(err)
	require.Len(t, errs, 1)
	assert.Equal(t, Error{File: "f.json", Line: 2, Column: 2, Field: "server", Msg: "got number, want object"}, *errs[0])
	assert.Equal(t, "f.json:2:2: server: got number, want object", errs[0].Error())
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.json"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no such file")
}

func TestFaultsListing(t *testing.T) {
	fs := Faults()
	require.NotEmpty(t, fs)
	var delay FaultSpec
	for _, f := range fs {
		if f.Name == "Delay" {
			delay = f
		}
	}
	assert.Equal(t, `{fault: "Delay", method: string, duration: duration}: answers method after a delay`, delay.String())
	assert.Len(t, Refinements(), 4)
}

func TestFaultRoundTrip(t *testing.T) {
	var f Fault
	require.NoError(t, json.Unmarshal([]byte(`{"fault":"Delay","method":"tools/call","duration":"1s"}`), &f))
	b, err := json.Marshal(f)
	require.NoError(t, err)
	assert.JSONEq(t, `{"fault":"Delay","method":"tools/call","duration":"1s"}`, string(b))
}

func TestHandBuiltConfigWithABadFault(t *testing.T) {
	c := &Config{Faults: []Fault{{Name: "Delay", Params: map[string]json.RawMessage{"method": json.RawMessage(`"x"`), "duration": json.RawMessage(`"soon"`)}}}}
	ft := faketb.New(t)
	require.False(t, ft.Run(func() { c.NewServer(ft) }), "want NewServer to stop the test with Fatalf")
	require.Len(t, ft.Fatals(), 1)
	assert.Contains(t, ft.Fatals()[0], `config: faults[0] (Delay): duration: "soon" is not a duration`)
}
