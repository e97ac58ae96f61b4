package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// The admin API against its OpenAPI file (docs/admin-openapi.json): every
// operation of the file is served and no other, and every answer the
// handler gives is one the file lists, its body valid by the file's
// schema. The validator is a small one over gjson: type, required,
// properties, additionalProperties false, items, enum, minimum, $ref.

func openAPI(t testing.TB) gjson.Result {
	t.Helper()
	b, err := os.ReadFile("../../docs/admin-openapi.json")
	require.NoError(t, err)
	require.True(t, gjson.ValidBytes(b))
	return gjson.ParseBytes(b)
}

// newAdminServer serves the admin API and the tests' endpoints, on
// GiftGen, over loopback.
func newAdminServer(t testing.TB) (*admin, *httptest.Server) {
	hs := httptest.NewUnstartedServer(nil)
	a := newAdmin(serverSpec{label: "giftgen"}, "http://"+hs.Listener.Addr().String(), io.Discard)
	hs.Config.Handler = a.wrap(http.NotFoundHandler())
	hs.Start()
	t.Cleanup(func() { a.close(); hs.Close() })
	return a, hs
}

func TestAdminOpenAPIOperations(t *testing.T) {
	doc := openAPI(t)
	var inFile, served []string
	doc.Get("paths").ForEach(func(path, ops gjson.Result) bool {
		ops.ForEach(func(m, _ gjson.Result) bool {
			if m.String() != "parameters" {
				inFile = append(inFile, strings.ToUpper(m.String())+" "+path.String())
			}
			return true
		})
		return true
	})
	for _, rt := range adminRoutes {
		served = append(served, rt.method+" "+rt.pattern)
	}
	sort.Strings(inFile)
	sort.Strings(served)
	assert.Equal(t, inFile, served, "docs/admin-openapi.json and adminRoutes name the same operations")
}

// validate checks v against schema, resolving $ref in doc; it returns the
// problems, each at its JSON path.
func validate(doc, schema, v gjson.Result, at string) []string {
	if ref := schema.Get(`\$ref`); ref.Exists() {
		path := strings.ReplaceAll(strings.TrimPrefix(ref.String(), "#/"), "/", ".")
		return validate(doc, doc.Get(path), v, at)
	}
	var out []string
	if typ := schema.Get("type"); typ.Exists() {
		ok := false
		switch typ.String() {
		case "object":
			ok = v.IsObject()
		case "array":
			ok = v.IsArray()
		case "string":
			ok = v.Type == gjson.String
		case "boolean":
			ok = v.IsBool()
		case "integer":
			ok = v.Type == gjson.Number && v.Float() == float64(int64(v.Float()))
		case "number":
			ok = v.Type == gjson.Number
		}
		if !ok {
			return []string{fmt.Sprintf("%s: want %s, got %s", at, typ, v.Raw)}
		}
	}
	if enum := schema.Get("enum"); enum.Exists() {
		found := false
		for _, e := range enum.Array() {
			found = found || e.Raw == v.Raw
		}
		if !found {
			out = append(out, fmt.Sprintf("%s: %s is not in the enum %s", at, v.Raw, enum.Raw))
		}
	}
	if min := schema.Get("minimum"); min.Exists() && v.Float() < min.Float() {
		out = append(out, fmt.Sprintf("%s: %s is below the minimum %s", at, v.Raw, min.Raw))
	}
	for _, r := range schema.Get("required").Array() {
		if !v.Get(gjson.Escape(r.String())).Exists() {
			out = append(out, fmt.Sprintf("%s: required %q is missing", at, r.String()))
		}
	}
	props := schema.Get("properties")
	v.ForEach(func(k, val gjson.Result) bool {
		if !v.IsObject() {
			return false
		}
		p := props.Get(gjson.Escape(k.String()))
		if !p.Exists() {
			if schema.Get("additionalProperties").Raw == "false" {
				out = append(out, fmt.Sprintf("%s: %q is not in the schema", at, k.String()))
			}
			return true
		}
		out = append(out, validate(doc, p, val, at+"."+k.String())...)
		return true
	})
	if items := schema.Get("items"); items.Exists() && v.IsArray() {
		for i, it := range v.Array() {
			out = append(out, validate(doc, items, it, fmt.Sprintf("%s[%d]", at, i))...)
		}
	}
	return out
}

// operationOf finds the file's operation of method and a concrete path.
func operationOf(doc gjson.Result, method, path string) (gjson.Result, bool) {
	var op gjson.Result
	found := false
	doc.Get("paths").ForEach(func(pat, ops gjson.Result) bool {
		if matchPattern(pat.String(), path) {
			op = ops.Get(strings.ToLower(method))
			found = op.Exists()
			return !found
		}
		return true
	})
	return op, found
}

func matchPattern(pat, path string) bool {
	pp, parts := strings.Split(pat, "/"), strings.Split(path, "/")
	if len(pp) != len(parts) {
		return false
	}
	for i := range pp {
		if !strings.HasPrefix(pp[i], "{") && pp[i] != parts[i] {
			return false
		}
	}
	return true
}

// checkedCall sends a request and checks its answer against the file.
func checkedCall(t *testing.T, doc gjson.Result, base, method, path, body string) (int, gjson.Result) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	v := gjson.ParseBytes(b)
	route := strings.SplitN(path, "?", 2)[0]
	op, ok := operationOf(doc, method, route)
	require.True(t, ok, "%s %s is no operation of docs/admin-openapi.json", method, route)
	r := op.Get(fmt.Sprintf("responses.%d", resp.StatusCode))
	require.True(t, r.Exists(), "%s %s answered %d, which docs/admin-openapi.json does not list: %s", method, path, resp.StatusCode, b)
	problems := validate(doc, r.Get(`content.application/json.schema`), v, "body")
	assert.Empty(t, problems, "%s %s (%d): the body does not match the file's schema: %s", method, path, resp.StatusCode, b)
	return resp.StatusCode, v
}

func TestAdminOpenAPIResponses(t *testing.T) {
	doc := openAPI(t)
	_, hs := newAdminServer(t)
	base := hs.URL
	seen := map[string]bool{}
	call := func(method, path, body string, want int) gjson.Result {
		t.Helper()
		st, v := checkedCall(t, doc, base, method, path, body)
		require.Equal(t, want, st, "%s %s: %s", method, path, v.Raw)
		rt, _, _ := matchRoute(method, strings.SplitN(path, "?", 2)[0])
		if rt != nil {
			seen[rt.method+" "+rt.pattern] = true
		}
		return v
	}
	call("GET", "/__mcpmock/tests", "", 200)
	call("POST", "/__mcpmock/tests", `{"scrpt": {}}`, 400)
	call("POST", "/__mcpmock/tests", `{"script": {"server": {"name": "w", "version": "1"}, "tols": []}}`, 400)
	tag := call("POST", "/__mcpmock/tests", "", 201).Get("tag").String()
	tp := "/__mcpmock/tests/" + tag
	call("GET", "/__mcpmock/tests/"+tag+"x", "", 404)
	call("GET", tp, "", 200)
	call("PATCH", tp+"/script", `{"tools": []}`, 409)
	call("PUT", tp+"/script", `{"server": {"name": "w", "version": "1"}, "tools": [{"name": "a", "replies": [{"text": "x"}]}]}`, 200)
	call("PUT", tp+"/script", `{"server": {"name": "w"}}`, 400)
	call("PATCH", tp+"/script", `{"tools": [{"name": "b", "replies": [{"text": "y"}]}]}`, 200)
	call("PUT", tp+"/scenario", `{"scenario": "wrong-id-type"}`, 200)
	call("PUT", tp+"/scenario", `{"scenario": "wrong-id-typ"}`, 400)
	call("POST", tp+"/verify", `{"assert": "scenario"}`, 200)
	call("DELETE", tp+"/scenario", "", 200)
	call("POST", tp+"/verify", `{"assert": "scenario"}`, 400)
	call("GET", tp+"/faults", "", 200)
	id := call("POST", tp+"/faults", `{"fault": "Delay", "method": "tools/call", "duration": "1ms"}`, 201).Get("id").String()
	call("POST", tp+"/faults", `{"fault": "Dely", "method": "tools/call"}`, 400)
	call("GET", tp+"/faults/"+id, "", 200)
	call("GET", tp+"/faults/nope", "", 404)
	call("GET", tp+"/journal?direction=client&method=tools/call&since=0&session=1&kind=request", "", 200)
	call("GET", tp+"/journal?directon=client", "", 400)
	call("GET", tp+"/violations", "", 200)
	call("POST", tp+"/verify", `{"assert": "calledTimes", "method": "tools/call", "times": 0}`, 200)
	call("POST", tp+"/verify", `{"assert": "noViolations"}`, 200)
	call("POST", tp+"/verify", `{"assert": "toolCaled"}`, 400)
	call("DELETE", tp+"/faults/"+id, "", 200)
	call("POST", tp+"/reset", `{"keepScript": false}`, 200)
	call("POST", tp+"/reset", `{"keep": false}`, 400)
	call("GET", "/__mcpmock/log", "", 200)
	call("DELETE", tp, "", 200)
	call("DELETE", tp, "", 404)
	for _, rt := range adminRoutes {
		assert.True(t, seen[rt.method+" "+rt.pattern], "the test never called %s %s", rt.method, rt.pattern)
	}
}

// TestAdminBadInput: each mistake answered 4xx, naming the field, with the
// nearest name.
func TestAdminBadInput(t *testing.T) {
	_, hs := newAdminServer(t)
	cases := []struct{ method, path, body, field, says string }{
		{"POST", "/__mcpmock/tests", `{"scenaro": "x"}`, "scenaro", `did you mean "scenario"?`},
		{"POST", "/__mcpmock/tests", `{"scenario": "wrong-id-typ"}`, "scenario", `did you mean "wrong-id-type"?`},
		{"POST", "/__mcpmock/tests", `{"expectViolations": ["lifecycle/initialize-frst"]}`, "expectViolations[0]", `did you mean "lifecycle/initialize-first"?`},
		{"POST", "/__mcpmock/tests", `[1]`, "", "not a JSON object"},
		{"GET", "/__mcpmock/test", ``, "", `did you mean "/__mcpmock/tests"?`},
		{"PUT", "/__mcpmock/tests", ``, "", "method not allowed"},
	}
	for _, c := range cases {
		req, err := http.NewRequest(c.method, hs.URL+c.path, strings.NewReader(c.body))
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		v := gjson.ParseBytes(b)
		assert.True(t, resp.StatusCode >= 400 && resp.StatusCode < 500, "%s %s %s: %d", c.method, c.path, c.body, resp.StatusCode)
		assert.Equal(t, c.field, v.Get("field").String(), "%s", b)
		assert.Contains(t, v.Get("error").String(), c.says)
	}
}

// FuzzAdmin: any one request to the admin API, after a test is open,
// answers JSON below 500, and the admin API and a test's MCP endpoint go
// on serving.
func FuzzAdmin(f *testing.F) {
	f.Add("POST", "/__mcpmock/tests", `{"script": {"server": {"name": "w", "version": "1"}}}`)
	f.Add("POST", "/__mcpmock/tests/t1/faults", `{"fault": "Delay", "method": "tools/call", "duration": "1ms"}`)
	f.Add("POST", "/__mcpmock/tests/t1/verify", `{"assert": "toolCalled", "tool": "suggest_gifts", "arguments": {"age": 1}}`)
	f.Add("PATCH", "/__mcpmock/tests/t1/script", `{"tools": [{"name": "x"}]}`)
	f.Add("GET", "/__mcpmock/tests/t1/journal?since=-1&session=x", ``)
	f.Add("POST", "/__mcpmock/tests/t1/reset", `{"keepScript": "no"}`)
	f.Add("POST", "/__mcpmock/tests/t1/verify", `{"assert": "calledTimes", "method": "x", "times": -1}`)
	f.Fuzz(func(t *testing.T, method, target, body string) {
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n#") {
			return
		}
		a := newAdmin(serverSpec{label: "giftgen"}, "http://127.0.0.1:1", io.Discard)
		defer a.close()
		mux := a.wrap(http.NotFoundHandler())
		do := func(method, target, body string) *httptest.ResponseRecorder {
			req := httptest.NewRequest("GET", "/", strings.NewReader(body))
			req.Method = method
			req.URL.Path, req.URL.RawQuery, _ = strings.Cut(target, "?")
			req.RemoteAddr = "127.0.0.1:9"
			w := httptest.NewRecorder()
			mux.ServeHTTP(w, req)
			return w
		}
		require.Equal(t, 201, do("POST", "/__mcpmock/tests", "").Code)
		if strings.HasPrefix(target, adminPrefix) {
			w := do(method, target, body)
			require.Less(t, w.Code, 500, "%s %s %q: %s", method, target, body, w.Body)
			require.True(t, gjson.Valid(w.Body.String()), "%s %s: no JSON: %s", method, target, w.Body)
		}
		require.Equal(t, 200, do("GET", "/__mcpmock/tests", "").Code)
		require.Equal(t, 201, do("POST", "/__mcpmock/tests", "").Code, "a test still opens")
		var last string
		a.mu.Lock()
		for k := range a.tests {
			last = max(last, k)
		}
		a.mu.Unlock()
		req := httptest.NewRequest("POST", testPrefix+last+mcpPath, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`))
		req.Host = "127.0.0.1"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, req)
		require.Equal(t, 200, w.Code, "the MCP side still serves: %s", w.Body)
	})
}

// TestAdminVerifyReadsAsGo: verify's failure text is the text the same
// assertion gives a Go test on the test's server.
func TestAdminVerifyReadsAsGo(t *testing.T) {
	a, hs := newAdminServer(t)
	st, test := checkedCall(t, openAPI(t), hs.URL, "POST", "/__mcpmock/tests", "")
	require.Equal(t, 201, st)
	wire := mcpclient.NewHTTPWire(test.Get("url").String(), "2025-11-25", nil)
	defer wire.Close()
	_, err := wire.Send(t.Context(), "1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	require.NoError(t, err)

	st, v := checkedCall(t, openAPI(t), hs.URL, "POST", "/__mcpmock/tests/"+test.Get("tag").String()+"/verify", `{"assert": "notCalled", "method": "initialize"}`)
	require.Equal(t, 200, st)
	require.False(t, v.Get("pass").Bool())

	a.mu.Lock()
	srv := a.tests[test.Get("tag").String()].srv
	a.mu.Unlock()
	rec := &recordTB{}
	rec.run(func() { srv.AssertNotCalled(rec, "initialize") })
	require.Len(t, rec.failures, 1)
	assert.Equal(t, rec.failures[0], v.Get("failure").String())
	assert.Contains(t, rec.failures[0], `mcptest: AssertNotCalled("initialize") failed`)
	assert.Contains(t, rec.failures[0], `"clientInfo":{"name":"raw","version":"1"}`, "the transcript")
}
