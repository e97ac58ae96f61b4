package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecorderTemplatesOfEveryLevel: the recorder matches reads against
// the listed templates with the mock's own URI template implementation,
// so a read of a level 3 or 4 template becomes a case of it with decoded
// variables; and a recording merged into (Include, record --append)
// expands its cases back to URIs that match them again, UTF-8 values
// included. Before, the recorder's matcher knew {name} and {+name} only
// (the reads below were "unlisted" resources), and Include filled
// {?q} with nothing: the case came back with no variables.
func TestRecorderTemplatesOfEveryLevel(t *testing.T) {
	reads := []struct{ uri, text string }{
		{"search://gifts?q=board%20games&lang=es", "juegos"},
		{"repo://files/src/main.go", "package main"},
		{"weather://city/S%C3%A3o%20Paulo", "sunny"},
	}
	r := NewRecorder()
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/templates/list"}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"resourceTemplates":[`+
		`{"uriTemplate":"search://gifts{?q,lang}","name":"search"},`+
		`{"uriTemplate":"repo://files{/path*}","name":"files"},`+
		`{"uriTemplate":"weather://city/{name}","name":"weather"}]}}`))
	for i, rd := range reads {
		id := []byte{'1' + byte(i+1)}
		r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":`+string(id)+`,"method":"resources/read","params":{"uri":"`+rd.uri+`"}}`))
		r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"contents":[{"uri":"`+rd.uri+`","text":"`+rd.text+`"}]}}`))
	}
	want := map[string]map[string]string{
		"search://gifts{?q,lang}": {"q": "board games", "lang": "es"},
		"repo://files{/path*}":    {"path": "src/main.go"},
		"weather://city/{name}":   {"name": "São Paulo"},
	}
	check := func(what string, c *Config) {
		t.Helper()
		assert.Empty(t, c.Resources, "%s: every read is a template's, none an unlisted resource", what)
		require.Len(t, c.ResourceTemplates, 3, what)
		for _, rt := range c.ResourceTemplates {
			if assert.Len(t, rt.Cases, 1, "%s: %s", what, rt.URITemplate) {
				assert.Equal(t, want[rt.URITemplate], rt.Cases[0].Vars, "%s: %s", what, rt.URITemplate)
			}
		}
	}
	recorded := r.Config()
	check("recorded", recorded)

	b, err := recorded.JSON()
	require.NoError(t, err)
	fromFile, err := Parse("rec.json", b)
	require.NoError(t, err)
	merged := NewRecorder()
	merged.Include(fromFile)
	check("merged into", merged.Config())
}
