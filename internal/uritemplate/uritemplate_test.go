package uritemplate

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func mustParse(t *testing.T, s string) *Template {
	t.Helper()
	tpl, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return tpl
}

// TestExpandRFC: the examples of RFC 6570 section 3.2 whose values are
// strings, and lists given as an exploded variable's joined value.
func TestExpandRFC(t *testing.T) {
	vars := map[string]string{
		"var": "value", "hello": "Hello World!", "half": "50%", "empty": "", "x": "1024", "y": "768",
		"path": "/foo/bar", "base": "http://example.com/home/", "who": "fred", "v": "6",
		"list": "red,green,blue", "segs": "red/green/blue",
	}
	for tmpl, want := range map[string]string{
		"{var}":               "value",
		"{hello}":             "Hello%20World%21",
		"{half}":              "50%25",
		"O{empty}X":           "OX",
		"O{undef}X":           "OX",
		"{x,y}":               "1024,768",
		"{+var}":              "value",
		"{+hello}":            "Hello%20World!",
		"{+path}/here":        "/foo/bar/here",
		"here?ref={+path}":    "here?ref=/foo/bar",
		"{#var}":              "#value",
		"{#hello}":            "#Hello%20World!",
		"X{.var}":             "X.value",
		"X{.x,y}":             "X.1024.768",
		"{/var}":              "/value",
		"{/var,x}/here":       "/value/1024/here",
		"{;x,y}":              ";x=1024;y=768",
		"{;x,y,empty}":        ";x=1024;y=768;empty",
		"{?x,y}":              "?x=1024&y=768",
		"{?x,y,empty}":        "?x=1024&y=768&empty=",
		"?fixed=yes{&x}":      "?fixed=yes&x=1024",
		"{var:3}":             "val",
		"{var:30}":            "value",
		"{+path:6}/here":      "/foo/b/here",
		"{/segs*}":            "/red/green/blue",
		"{?list*}":            "?list=red&list=green&list=blue",
		"{;list*}":            ";list=red;list=green;list=blue",
		"{#list*}":            "#red,green,blue",
		"{base}index":         "http%3A%2F%2Fexample.com%2Fhome%2Findex",
		"{+base}index":        "http://example.com/home/index",
		"{?who,v}{&undef}":    "?who=fred&v=6",
		"file:///users/{var}": "file:///users/value",
	} {
		got, err := mustParse(t, tmpl).Expand(vars)
		if err != nil || got != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", tmpl, got, err, want)
		}
	}
}

// TestExpandUTF8: non-ASCII values are percent-encoded as UTF-8, as RFC
// 6570 says (the wrapped library alone writes "ü" as %FC and "€" as
// %20%AC), and a NUL or a prefix of a non-ASCII value is refused, not
// written wrong.
func TestExpandUTF8(t *testing.T) {
	for _, tc := range []struct{ tmpl, val, want string }{
		{"x://u/{v}", "ü", "x://u/%C3%BC"},
		{"x://u/{v}", "€ 5", "x://u/%E2%82%AC%205"},
		{"x://u/{+v}", "São Paulo/ü", "x://u/S%C3%A3o%20Paulo/%C3%BC"},
		{"x://u{/v*}", "ü/€", "x://u/%C3%BC/%E2%82%AC"},
		{"x://u{?v}", "日本", "x://u?v=%E6%97%A5%E6%9C%AC"},
	} {
		got, err := mustParse(t, tc.tmpl).Expand(map[string]string{"v": tc.val})
		if err != nil || got != tc.want {
			t.Errorf("Expand(%q, v=%q) = %q, %v; want %q", tc.tmpl, tc.val, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ tmpl, val, want string }{
		{"x://{v:2}", "ü", "prefix modifier"},
		{"x://{v}", "a\x00b", "NUL"},
	} {
		if got, err := mustParse(t, tc.tmpl).Expand(map[string]string{"v": tc.val}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Expand(%q, v=%q) = %q, %v; want an error naming the %s", tc.tmpl, tc.val, got, err, tc.want)
		}
	}
}

// TestMatch: what a URI gives each kind of expression; the first cases are
// the {name} and {+name} templates the mock matched before.
func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		tmpl, uri string
		want      map[string]string // nil: no match
	}{
		{"file:///users/{id}", "file:///users/42", map[string]string{"id": "42"}},
		{"file:///users/{id}", "file:///users/a/b", nil},
		{"file:///users/{id}", "file:///other/42", nil},
		{"weather://city/{name}", "weather://city/Madrid", map[string]string{"name": "Madrid"}},
		{"file:///{+path}", "file:///a/b/c.txt", map[string]string{"path": "a/b/c.txt"}},
		{"file:///{path}", "file:///a/b", nil},
		{"x://{a}-{b}", "x://x-y-z", map[string]string{"a": "x-y", "b": "z"}},
		{"plain://no-vars", "plain://no-vars", map[string]string{}},
		{"plain://no-vars", "plain://no-vars/", nil},

		// decoded values; what a URI does not carry raw is encoded first
		{"x://u/{id}", "x://u/a%20b", map[string]string{"id": "a b"}},
		{"x://u/{id}", "x://u/%c3%bc", map[string]string{"id": "ü"}},
		{"weather://city/{name}", "weather://city/São Paulo", map[string]string{"name": "São Paulo"}},
		{"x://ü/{id}", "x://%C3%BC/1", map[string]string{"id": "1"}},
		{"x://ü/{id}", "x://ü/1", map[string]string{"id": "1"}},
		{"file:///{+path}", "file:///a%2Fb", map[string]string{"path": "a/b"}},
		{"x://u/{id}", "x://u/50%", map[string]string{"id": "50%"}},

		// {name} holds what simple expansion writes: no reserved characters
		{"x://u/{id}", "x://u/a:b", nil},
		{"x://u/{+id}", "x://u/a:b", map[string]string{"id": "a:b"}},
		{"x://u/{id}", "x://u/a,b", map[string]string{"id": "a,b"}},

		// level 3 and 4
		{"db://{schema}/{table}{?limit,page}", "db://s/t?limit=10&page=2", map[string]string{"schema": "s", "table": "t", "limit": "10", "page": "2"}},
		{"db://{schema}/{table}{?limit,page}", "db://s/t?page=2", map[string]string{"schema": "s", "table": "t", "page": "2"}},
		{"db://{schema}/{table}{?limit,page}", "db://s/t", map[string]string{"schema": "s", "table": "t"}},
		{"search://q{?q}{&lang}", "search://q?q=gift%20ideas&lang=es", map[string]string{"q": "gift ideas", "lang": "es"}},
		{"repo://files{/path*}", "repo://files/src/main.go", map[string]string{"path": "src/main.go"}},
		{"repo://files{/path*}", "repo://files", map[string]string{}},
		{"x://doc{.ext*}", "x://doc.tar.gz", map[string]string{"ext": "tar.gz"}},
		{"x://m{;w,h}", "x://m;w=3;h=4", map[string]string{"w": "3", "h": "4"}},
		{"x://page{#section}", "x://page#a/b", map[string]string{"section": "a/b"}},
		{"x://tags{?tag*}", "x://tags?tag=a&tag=b", map[string]string{"tag": "a,b"}},
		{"x://{id:3}/more", "x://abc/more", map[string]string{"id": "abc"}},
		{"x://{id:3}/more", "x://abcd/more", nil},

		// ambiguous: the earlier variable takes as much as it can
		{"map://t{/z,y}{.format}", "map://t/1/2.png", map[string]string{"z": "1", "y": "2.png"}},
	} {
		got, ok := mustParse(t, tc.tmpl).Match(tc.uri)
		if tc.want == nil {
			if ok {
				t.Errorf("Match(%q, %q) = %v; want no match", tc.tmpl, tc.uri, got)
			}
			continue
		}
		if !ok || !maps.Equal(got, tc.want) {
			t.Errorf("Match(%q, %q) = %v, %v; want %v", tc.tmpl, tc.uri, got, ok, tc.want)
		}
	}
}

// TestRoundTrip: what Expand writes, Match reads back as the same values,
// whatever the values hold (non-ASCII, spaces, "%", "/", reserved
// characters), so a recording's cases expand to URIs that match them again.
func TestRoundTrip(t *testing.T) {
	values := []string{"42", "a b", "50%", "ü", "São Paulo", "日本語", "a/b", "a:b@c", "%C3", "x,y", "~._-", "a+b=c&d"}
	for _, tmpl := range []string{"x://u/{v}", "x://u/{+v}", "x://u{/v}", "x://u{?v}", "x://u{?a,v}", "x://u{#v}", "x://u{;v}", "x://u/{v}/tail"} {
		tpl := mustParse(t, tmpl)
		for _, val := range values {
			uri, err := tpl.Expand(map[string]string{"v": val})
			if err != nil {
				t.Errorf("Expand(%q, v=%q): %v", tmpl, val, err)
				continue
			}
			got, ok := tpl.Match(uri)
			if !ok || got["v"] != val {
				t.Errorf("%q with v=%q expands to %q, which matches as %v, %v; want v=%q back", tmpl, val, uri, got, ok, val)
			}
		}
	}
}

// TestParse: what parses, what does not, and what the error says.
func TestParse(t *testing.T) {
	for _, ok := range []string{"file:///users/{id}", "db://{schema}/{table}{?limit,page}", "x://{+path}{/seg}{#frag}",
		"x://{a.b}", "x://{var:3}{/list*}", "x://my docs/{name}", "plain://no-vars", ""} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
	for tmpl, want := range map[string]string{
		"file:///{path":  `unbalanced braces in URI template "file:///{path"`,
		"file:///{a}}":   `unbalanced braces in URI template "file:///{a}}"`,
		"file:///}{a":    `URI template "file:///}{a" is not RFC 6570`,
		"x://{}":         `URI template "x://{}" is not RFC 6570`,
		"x://{=x}":       `URI template "x://{=x}" is not RFC 6570`,
		"x://{a b}":      `URI template "x://{a b}" is not RFC 6570`,
		"x://{a:0}":      `URI template "x://{a:0}" is not RFC 6570`,
		"x://{a*:3}":     `URI template "x://{a*:3}" is not RFC 6570`,
		"x://{a}{{b}}":   `URI template "x://{a}{{b}}" is not RFC 6570`,
		"x://{a,}/{b,c}": `URI template "x://{a,}/{b,c}" is not RFC 6570`,
	} {
		_, err := Parse(tmpl)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v; want an error starting %q", tmpl, err, want)
			continue
		}
		if !strings.HasPrefix(want, "unbalanced") && !strings.Contains(err.Error(), "write variables as {name}, {+name}") {
			t.Errorf("Parse(%q) = %v; want it to say how variables are written", tmpl, err)
		}
	}
}

// TestNamesAndFill: the names in order, each once; Fill gives every
// variable the same value, as the golden client fills templates.
func TestNamesAndFill(t *testing.T) {
	tpl := mustParse(t, "x://{+path}{/seg}{#frag}{?q,path}")
	if got := tpl.Names(); !slices.Equal(got, []string{"path", "seg", "frag", "q"}) {
		t.Errorf("Names() = %v", got)
	}
	for tmpl, want := range map[string]string{
		"file:///users/{id}":                 "file:///users/1",
		"db://{schema}/{table}{?limit,page}": "db://1/1?limit=1&page=1",
		"x://{+path}{/seg}{#frag}":           "x://1/1#1",
		"plain://no-vars":                    "plain://no-vars",
		"x://{.ext}{;p}{&q}{id:3}{/list*}":   "x://.1;p=1&q=11/1",
	} {
		if got, err := mustParse(t, tmpl).Fill("1"); err != nil || got != want {
			t.Errorf("Fill(%q, 1) = %q, %v; want %q", tmpl, got, err, want)
		}
	}
}
