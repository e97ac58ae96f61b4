package integration_test

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/config"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Resource templates of every RFC 6570 level, read by the official Go SDK
// client: the mock matches each URI against the one URI template
// implementation (internal/uritemplate) and hands the handler the decoded
// variables; a recording of those reads keeps them as cases and replays
// them. Before that implementation the mock took {name} and {+name} only,
// and refused the other templates at WithResourceTemplates.

// templateReads are the reads of the test: a URI and the text its
// template's handler answers it with.
var templateReads = []struct{ uri, want string }{
	{"search://gifts?q=board%20games&lang=es", "lang=es q=board games"},             // {?q,lang}: level 3 query
	{"search://gifts?lang=en", "lang=en"},                                           // an absent query variable
	{"search://gifts?q=a%2Bb&lang=de", "lang=de q=a+b"},                             // an encoded reserved character
	{"repo://files/src/cmd/main.go", "path=src/cmd/main.go"},                        // {/path*}: level 4 explode
	{"repo://files/%C3%BC.txt", "path=ü.txt"},                                       // UTF-8 in a path segment
	{"map://tiles/12/2048/1361?format=png", "format=png x=2048 y=1361 z=12"},        // {/z,x,y}{?format}: level 3
	{"doc://guide#install/linux", "section=install/linux"},                          // {#section}: level 2 fragment
	{"report://q3.pdf", "format=pdf"},                                               // {.format}: level 3 label
	{"weather://city/S%C3%A3o%20Paulo?units=metric", "name=São Paulo units=metric"}, // percent-encoded UTF-8, decoded
	{"weather://city/Madrid", "name=Madrid"},                                        // {name} as before, no query
	{"people://id/abc/profile", "id=abc"},                                           // {id:3}: level 4 prefix
	{"catalog://items;color=red;size=10", "color=red size=10"},                      // {;color,size}: level 3 path-style
	{"files:///home/ann/notes.txt", "path=home/ann/notes.txt"},                      // {+path} as before
}

// varsText writes a request's variables as "k=v …", sorted.
func varsText(vars map[string]string) string {
	var parts []string
	for k, v := range vars {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// templateServer serves one template of each kind; each answers with its
// variables.
func templateServer(t *testing.T) *mcptest.Server {
	echo := func(_ context.Context, req *mcptest.Request) mcptest.Reply {
		return mcptest.ReadResult(mcptest.TextResourceContents(req.Message.Get("params.uri").String(), "text/plain", varsText(req.Vars)))
	}
	var tpls []*mcptest.ResourceTemplate
	for _, tmpl := range []string{
		"search://gifts{?q,lang}",
		"repo://files{/path*}",
		"map://tiles{/z,x,y}{?format}",
		"doc://guide{#section}",
		"report://q3{.format}",
		"weather://city/{name}{?units}",
		"people://id/{id:3}/profile",
		"catalog://items{;color,size}",
		"files:///{+path}",
	} {
		tpls = append(tpls, mcptest.NewResourceTemplate(tmpl, tmpl).HandledBy(echo))
	}
	return mcptest.NewServer(t).WithResourceTemplates(tpls...)
}

// readAll lists the templates, as a client finds them, then reads every
// URI of templateReads with the go-sdk client and returns the texts it got.
func readAll(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	list, err := cs.ListResourceTemplates(testContext(t), nil)
	require.NoError(t, err)
	require.Len(t, list.ResourceTemplates, 9)
	var got []string
	for _, r := range templateReads {
		res, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: r.uri})
		if !assert.NoError(t, err, "go-sdk ReadResource(%q)", r.uri) || !assert.Len(t, res.Contents, 1, r.uri) {
			got = append(got, "")
			continue
		}
		assert.Equal(t, r.uri, res.Contents[0].URI, "the contents carry the URI read")
		got = append(got, res.Contents[0].Text)
	}
	return got
}

// TestGoSDKReadsResourceTemplatesOfEveryLevel: the go-sdk client lists the
// templates and reads a URI of each; the handler gets the decoded
// variables of the one the URI matches.
func TestGoSDKReadsResourceTemplatesOfEveryLevel(t *testing.T) {
	forEachEra(t, func(t *testing.T, e eraCase) {
		srv := e.narrow(templateServer(t))
		cs := connectGoSDK(t, srv, nil, nil)
		got := readAll(t, cs)
		for i, r := range templateReads {
			assert.Equal(t, r.want, got[i], "the variables of %s", r.uri)
		}
		assert.Empty(t, srv.Unmatched())
		srv.AssertCalledTimes(t, "resources/read", len(templateReads))
	})
}

// TestRecordedTemplateReadsReplay: a recording (config.FromServer) of those
// reads keeps each as a case of its template, with the decoded variables,
// and the replayed file answers the go-sdk client as the original did.
func TestRecordedTemplateReadsReplay(t *testing.T) {
	orig := templateServer(t)
	want := readAll(t, connectGoSDK(t, orig, nil, nil))

	cfg := config.FromServer(orig)
	cases := map[string][]map[string]string{}
	for _, rt := range cfg.ResourceTemplates {
		for _, c := range rt.Cases {
			cases[rt.URITemplate] = append(cases[rt.URITemplate], c.Vars)
		}
	}
	assert.Contains(t, cases["search://gifts{?q,lang}"], map[string]string{"q": "board games", "lang": "es"})
	assert.Contains(t, cases["repo://files{/path*}"], map[string]string{"path": "src/cmd/main.go"})
	assert.Contains(t, cases["weather://city/{name}{?units}"], map[string]string{"name": "São Paulo", "units": "metric"})
	assert.Contains(t, cases["people://id/{id:3}/profile"], map[string]string{"id": "abc"})
	for _, n := range cfg.Notes {
		assert.NotContains(t, n, "unlisted", "every read is its template's: %s", n)
	}

	path := filepath.Join(t.TempDir(), "templates.json")
	require.NoError(t, cfg.Save(path))
	replay := config.LoadServer(t, path)
	got := readAll(t, connectGoSDK(t, replay, nil, nil))
	assert.Equal(t, want, got, "the replay answers each read as the original did")
	assert.Empty(t, replay.Unmatched())
}
