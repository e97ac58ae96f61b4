package mcpclient

import (
	"testing"

	"github.com/tidwall/gjson"
)

// TestFill: the values the golden client sends for a schema (tool
// arguments, elicitation content) satisfy it as a careful user would:
// defaults kept, enums and bounds respected, every property present.
func TestFill(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object"}`, `{}`},
		{`{"type":"object","properties":{"ok":{"type":"boolean"},"n":{"type":"integer","minimum":3,"maximum":5},"seats":{"type":"integer","default":2}}}`, `{"n":3,"ok":true,"seats":2}`},
		{`{"type":"object","properties":{"unit":{"type":"string","enum":["cm","in"]},"mail":{"type":"string","format":"email"},"code":{"type":"string","minLength":8}}}`,
			`{"code":"goldenxx","mail":"golden@example.com","unit":"cm"}`},
		{`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"},"minItems":1},"x":{"const":7}}}`, `{"tags":["golden"],"x":7}`},
		{`{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0}}}`, `{"n":1}`},
		{``, `{}`},
	} {
		if got := Fill(gjson.Parse(tc.schema)); got != tc.want {
			t.Errorf("Fill(%s) = %s, want %s", tc.schema, got, tc.want)
		}
	}
}

// TestExpand: every variable of a URI template is filled.
func TestExpand(t *testing.T) {
	for tmpl, want := range map[string]string{
		"file:///users/{id}":                 "file:///users/1",
		"db://{schema}/{table}{?limit,page}": "db://1/1?limit=1&page=1",
		"x://{+path}{/seg}{#frag}":           "x://1/1#1",
		"plain://no-vars":                    "plain://no-vars",
	} {
		if got := Expand(tmpl); got != want {
			t.Errorf("Expand(%q) = %q, want %q", tmpl, got, want)
		}
	}
}

// TestWithMeta: the stateless era's _meta goes in front of the params' members.
func TestWithMeta(t *testing.T) {
	if got := withMeta("", `"a":1`); got != `{"_meta":{"a":1}}` {
		t.Errorf("withMeta empty: %s", got)
	}
	if got := withMeta(`{"name":"x"}`, `"a":1`); got != `{"_meta":{"a":1},"name":"x"}` || !gjson.Valid(got) {
		t.Errorf("withMeta: %s", got)
	}
}
