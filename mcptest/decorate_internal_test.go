package mcptest

import (
	"github.com/mcpmock/mcpmock/internal/spec"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// decorateBySjson is what decorate did before it read a result in one
// pass: one gjson lookup and one sjson rewrite per member. It is the
// oracle of TestDecorateAgrees.
func decorateBySjson(srv *Server, method string, result []byte) []byte {
	r := gjson.ParseBytes(result)
	if !r.IsObject() {
		return result
	}
	set := func(path string, v any) {
		if !r.Get(path).Exists() {
			if out, err := sjson.SetBytes(result, path, v); err == nil {
				result = out
			}
		}
	}
	set("resultType", "complete")
	set(metaPath(spec.MetaServerInfo), srv.info)
	if r.Get("resultType").String() != "input_required" && cacheable(method) {
		set("ttlMs", srv.ttlMs)
		set("cacheScope", srv.cacheScope)
	}
	return result
}

// TestDecorateAgrees: the one-pass decorate gives the same JSON values as
// the lookups and rewrites it replaced, for results with and without each
// member it adds, repeated keys, a _meta of their own, and non-objects.
func TestDecorateAgrees(t *testing.T) {
	srv := &Server{info: map[string]string{"name": "mock", "version": "1", "title": `a "quoted" <title>`}, ttlMs: 1500, cacheScope: "private"}
	srv.decor = newResultDecor(srv.info, srv.ttlMs, srv.cacheScope)
	s := &Session{srv: srv}
	results := []string{
		`{}`, `{"content":[]}`, ` { "content" : [ ] } `, `{"resultType":"complete"}`, `{"resultType":"input_required","inputRequests":{}}`,
		`{"resultType":"input_required","resultType":"complete"}`, `{"_meta":{}}`, `{"_meta":{"x":1},"tools":[]}`,
		`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"own"}}}`, `{"_meta":null}`, `{"ttlMs":5}`, `{"cacheScope":"public","tools":[]}`,
		`{"tools":[{"name":"a"}],"nextCursor":"c"}`, `[1,2]`, `"text"`, `null`, `{"a":{"_meta":{}}}`,
	}
	for _, method := range []string{"tools/call", "tools/list", "resources/read", "server/discover"} {
		for _, res := range results {
			r, add, at, inputRequired := s.decorate(method, []byte(res))
			got := append(append(append([]byte(nil), r[:at]...), add...), r[at:]...)
			want := decorateBySjson(srv, method, []byte(res))
			if !sameJSON(string(got), string(want)) || !gjson.ValidBytes(got) {
				t.Errorf("%s %s:\n got %s\nwant %s", method, res, got, want)
			}
			if wantIR := gjson.Get(res, "resultType").String() == "input_required"; inputRequired != wantIR {
				t.Errorf("%s %s: input_required %v, want %v", method, res, inputRequired, wantIR)
			}
		}
	}
}
