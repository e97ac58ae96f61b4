package htmlreport

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// journal makes n messages: requests and their results, one error at
// errAt (a Seq), and a violation on it.
func journal(n, errAt int) Case {
	c := Case{Name: "long-run", Status: "fail", Spec: "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle",
		Expected: "a correct client does X", Observed: "this one did Y"}
	for i := 1; i <= n; i++ {
		m := Msg{Seq: i, Session: 1, At: time.Duration(i) * time.Millisecond}
		if i%2 == 1 {
			m.Kind, m.Method, m.ID = "request", "tools/call", fmt.Sprint(i)
			m.Raw = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"suggest_gifts"}}`, i)
		} else {
			m.FromServer, m.Kind, m.Method, m.ID = true, "result", "tools/call", fmt.Sprint(i-1)
			m.Raw = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[]}}`, i-1)
		}
		if i == errAt {
			m.Kind, m.ErrorCode, m.Fault = "error", -32602, "ToolError"
		}
		c.Msgs = append(c.Msgs, m)
	}
	if errAt > 0 {
		c.Violations = []Violation{{Rule: "jsonrpc/id-type", Severity: "error", Detail: "the id changed type", URL: "https://www.jsonrpc.org/specification#request_object", Seq: errAt}}
	}
	return c
}

// has is assert.Contains without printing the whole page.
func has(t *testing.T, out, want string, msg ...any) {
	t.Helper()
	if !strings.Contains(out, want) {
		t.Errorf("the page has no %q %v", want, msg)
	}
}

func render(p Page) string {
	var b strings.Builder
	Render(&b, p)
	return b.String()
}

var (
	arrowRe = regexp.MustCompile(`<g class="arrow k-[a-z]+" id="([^"]+)" data-seq="(\d+)">`)
	lineRe  = regexp.MustCompile(`<li id="([^"]+)" class="k-[a-z]+[^"]*"><a class="seq" href="#([^"]+)">`)
)

// TestEveryMessageDrawnAndLinked: a short journal draws an arrow per
// message, and each transcript line links to its arrow and back.
func TestEveryMessageDrawnAndLinked(t *testing.T) {
	c := journal(40, 7)
	c.Msgs = append(c.Msgs, Msg{Seq: 41, Session: 1, Kind: "notification", Method: "notifications/initialized", Raw: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		Msg{Seq: 42, Session: 1, Kind: "invalid", Problem: "not JSON", Raw: "hello"},
		Msg{Seq: 43, Session: 0, Kind: "auth", Method: "auth/token", AuthServer: true, Raw: "POST /token grant_type=authorization_code", HTTP: "POST", Status: 0},
		Msg{Seq: 44, Session: 0, Kind: "auth", FromServer: true, Method: "auth/token", AuthServer: true, Raw: "200 {}", HTTP: "POST 200", Status: 200})
	out := render(Page{Title: "t", Cases: []Case{c}})
	arrows := arrowRe.FindAllStringSubmatch(out, -1)
	require.Len(t, arrows, len(c.Msgs), "one arrow per message")
	lines := lineRe.FindAllStringSubmatch(out, -1)
	require.Len(t, lines, len(c.Msgs), "one linked transcript line per message")
	for i, l := range lines {
		assert.Equal(t, arrows[i][1], l[2], "line %d links to its arrow", i+1)
		has(t, out, `<a href="#`+l[1]+`"><g class="arrow`, "arrow %d links to its line", i+1)
	}
	has(t, out, "authorization server", "an auth exchange brings the authorization server's lifeline")
	has(t, out, "⚡ fault: ToolError", "the fault is marked on its arrow")
	has(t, out, "✗ broke: jsonrpc/id-type", "the broken rule is marked on its arrow")
	has(t, out, `href="https://www.jsonrpc.org/specification#request_object"`, "the violation links to its spec section")
	has(t, out, "error -32602 #7 (tools/call)")
	has(t, out, `<span aria-hidden="true">✗</span> FAIL`, "a status reads without colour")
}

// TestHostileJournal: text from the wire, names and rules are escaped:
// nothing in a journal can add markup to the page.
func TestHostileJournal(t *testing.T) {
	evil := `</code></li><script>alert(1)</script><img src=x onerror=alert(2)>"'&<svg onload=alert(3)>`
	c := Case{Name: evil, Status: "fail", Spec: "javascript:alert(4)", Expected: evil, Observed: evil, Why: evil, Basis: evil, Faults: []string{evil},
		Msgs: []Msg{
			{Seq: 1, Session: 1, Kind: "request", Method: evil, ID: evil, Raw: evil, HTTP: evil, Fault: evil},
			{Seq: 2, Session: 1, FromServer: true, Kind: "error", Method: evil, ID: evil, Raw: evil, Problem: evil},
			{Seq: 3, Session: 1, Kind: "invalid", Raw: evil, Problem: evil},
		},
		Violations: []Violation{{Rule: evil, Severity: evil, Detail: evil, URL: `"><script>alert(5)</script>`, Seq: 1}}}
	out := render(Page{Title: evil, Subtitle: evil, Cases: []Case{c}, Links: []Link{{Href: evil, Text: evil, TextES: evil, Status: evil}},
		Lesson: &Lesson{TitleEN: evil, TitleES: evil, SummaryEN: evil, SummaryES: evil, FixEN: evil, FixES: evil}})
	for _, bad := range []string{"<script", "<img", "<svg onload"} {
		assert.False(t, strings.Contains(out, bad), "the page holds %s", bad)
	}
	tags := regexp.MustCompile(`"[^"]*"`).ReplaceAllString(out, `""`) // attribute values are text
	assert.NotRegexp(t, `<[^>]*\son[a-z]+=`, tags, "an event handler attribute")
	assert.NotRegexp(t, `href="javascript`, out)
	// every tag of the page is one the renderer writes
	allowed := map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true, "main": true, "header": true,
		"h1": true, "h2": true, "h3": true, "p": true, "span": true, "input": true, "section": true, "div": true, "label": true, "nav": true, "ol": true,
		"li": true, "a": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "details": true, "summary": true,
		"dl": true, "dt": true, "dd": true, "ul": true, "figure": true, "svg": true, "g": true, "rect": true, "text": true, "line": true,
		"polygon": true, "polyline": true, "code": true, "footer": true}
	for _, m := range regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9]*)`).FindAllStringSubmatch(out, -1) {
		assert.True(t, allowed[strings.ToLower(m[1])], "unexpected tag <%s>", m[1])
	}
}

// TestSelfContained: no src, no stylesheet or import, no http(s) address
// but the spec links.
func TestSelfContained(t *testing.T) {
	c := journal(30, 5)
	out := render(Page{Title: "t", Cases: []Case{c}, Links: []Link{{Href: "mistake-1.html", Text: "one"}}})
	assert.NotRegexp(t, `(?i)\ssrc=`, out)
	assert.NotRegexp(t, `(?i)<link|@import|url\(|<script|<iframe|<object|<embed`, out)
	for _, m := range regexp.MustCompile(`<a ([^>]*)href="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if strings.HasPrefix(m[2], "http") {
			assert.Contains(t, m[1], `class="spec"`, "an outside address is only a spec link: %s", m[2])
		}
	}
	// the SVG namespace is an identifier, not a fetch
	assert.Equal(t, strings.Count(out, "http://"), strings.Count(out, `xmlns="http://www.w3.org/2000/svg"`))
}

// TestLongJournalFolds: 10,000 messages draw the part that went wrong and
// a few at each end, fold the rest, and stay light.
func TestLongJournalFolds(t *testing.T) {
	c := journal(10000, 5001)
	out := render(Page{Title: "t", Cases: []Case{c}})
	arrows := arrowRe.FindAllStringSubmatch(out, -1)
	assert.LessOrEqual(t, len(arrows), maxArrows)
	seqs := map[string]bool{}
	for _, a := range arrows {
		seqs[a[2]] = true
	}
	for _, s := range []string{"1", "4995", "5001", "5009", "10000"} {
		assert.True(t, seqs[s], "message %s is drawn", s)
	}
	assert.False(t, seqs["2500"], "a message far from the failure is folded")
	has(t, out, "messages folded")
	assert.Less(t, len(out), 1<<20, "a page of 10,000 messages is under 1 MB")
}

// TestCatalogPageSize: a run of the whole catalog, 70 scenarios of 40 (the catalog's longest plays have about 30)
// messages, is one page under 2 MB.
func TestCatalogPageSize(t *testing.T) {
	var p Page
	for i := range 70 {
		c := journal(40, 0)
		c.Name, c.Status = fmt.Sprintf("scenario-%d", i), "pass"
		p.Cases = append(p.Cases, c)
	}
	out := render(p)
	assert.Less(t, len(out), 2<<20)
	assert.Equal(t, 70, strings.Count(out, `<details class="case"`))
}

// TestLessonSwitch: a tour page carries both languages and a switch that
// works without JavaScript.
func TestLessonSwitch(t *testing.T) {
	out := render(Page{Title: "t", Lesson: &Lesson{Number: 3, Of: 7, TitleEN: "a forgotten capability", TitleES: "capabilities olvidadas", SummaryEN: "en", SummaryES: "es", FixEN: "fix", FixES: "arreglo"}})
	has(t, out, `<input type="radio" name="lang" id="lang-es" class="lang" checked>`)
	has(t, out, `<div class="es" lang="es"><h2>Error n.º 3 de 7: capabilities olvidadas</h2>`)
	has(t, out, `<div class="en" lang="en"><h2>Mistake 3 of 7: a forgotten capability</h2>`)
	has(t, out, "#lang-en:checked~main .es{display:none}")
}

func TestSaveFailure(t *testing.T) {
	dir := t.TempDir()
	path, err := SaveFailure(dir, "TestX/sub case", Page{Title: "t", Cases: []Case{journal(4, 3)}})
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(path, "TestX_sub_case.html"), path)
}
