// Package htmlreport renders verdicts and journals as one self-contained
// HTML page (issue 33): inline CSS, no script or font fetched from
// anywhere, readable without JavaScript, with a sequence diagram drawn as
// inline SVG for each case and the transcript beside it. It knows nothing
// of mcptest: mcptest registers FromServer, and the callers (mcptest's
// failure hook, scenarios.Run, the command) fill a Page.
package htmlreport

import (
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/internal/safefile"
)

// Page is one HTML page: a table of verdicts and a section per case, or an
// index of links (Links), or both.
type Page struct {
	// Title heads the page.
	Title string
	// Subtitle is a line under it: the command line, the test.
	Subtitle string
	// Lesson, when set, is a tour page's lesson in both languages.
	Lesson *Lesson
	// Cases are the verdicts, each with its journal.
	Cases []Case
	// Links, on an index page, are the pages it lists.
	Links []Link
}

// Link is one line of an index page.
type Link struct {
	Href, Text, TextES, Status string
}

// Lesson is a lesson's own wording, in Spanish and English.
type Lesson struct {
	Number               int
	Of                   int
	TitleEN, TitleES     string
	SummaryEN, SummaryES string
	FixEN, FixES         string
}

// Case is one verdict: a scenario, a test.
type Case struct {
	Name          string
	Status        string // pass, fail, known-deviation, warning, not-reached, not-applicable
	Spec          string // the spec section's address
	Basis         string
	Expected      string
	DecisionPoint string
	Observed      string
	Why           string
	Elapsed       time.Duration
	// Faults names the faults installed, with how often each acted.
	Faults []string
	// Msgs is the journal, in wire order.
	Msgs []Msg
	// Violations are the rules the client broke.
	Violations []Violation
}

// Msg is one message of the journal as the page draws it.
type Msg struct {
	Seq, Session int
	FromServer   bool
	// Kind is request, notification, result, error, invalid, batch or auth.
	Kind      string
	Method    string
	ID        string
	ErrorCode int
	// HTTP sums up the HTTP exchange ("POST 200 application/json"), and
	// Status is its status code (0 for none).
	HTTP   string
	Status int
	// AuthServer: an exchange with the authorization server (its lane).
	AuthServer bool
	Raw        string
	Problem    string
	// At is the time since the journal's first message.
	At time.Duration
	// Fault names the fault that acted on this message, if one did.
	Fault string
}

// Violation is a rule the client broke, on the message Seq.
type Violation struct {
	Rule, Severity, Detail, URL string
	Seq                         int
}

// FromServer turns an *mcptest.Server into a Case with its journal,
// violations and faults (no verdict). mcptest sets it when it loads.
var FromServer func(srv any) Case

// EnvDir names the environment variable whose directory gets one page per
// failing test.
const EnvDir = "MCPMOCK_HTML_DIR"

// WriteFile writes the page to path, replacing it only once the page is
// whole (safefile.Replace).
func WriteFile(path string, p Page) error {
	var b strings.Builder
	Render(&b, p)
	return safefile.Replace(path, []byte(b.String()))
}

// SaveFailure writes the page of a failing test into dir (made if
// missing), named after the test, and returns its path.
func SaveFailure(dir, test string, p Page) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("%s=%s: %v", EnvDir, dir, err)
	}
	path := filepath.Join(dir, FileName(test)+".html")
	if err := WriteFile(path, p); err != nil {
		return "", fmt.Errorf("%s=%s: %v", EnvDir, dir, err)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path, nil
}

// FileName makes a file name of a test or scenario name: letters, digits,
// '-', '_' and '.', the rest '_'.
func FileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, name)
}

// esc escapes text for HTML and SVG content and attributes.
func esc(s string) string { return html.EscapeString(s) }

// statusMark is the shape and word beside a status's colour, so that it
// reads without colour (colour-blind readers, black-and-white print).
func statusMark(status string) (symbol, word, class string) {
	switch status {
	case "pass":
		return "✓", "pass", "st-pass"
	case "known-deviation":
		return "◆", "known deviation", "st-dev"
	case "warning":
		return "▲", "warning", "st-warn"
	case "fail":
		return "✗", "FAIL", "st-fail"
	case "not-reached":
		return "○", "NOT REACHED", "st-nr"
	case "not-applicable":
		return "–", "not applicable", "st-na"
	}
	return "?", status, "st-na"
}

func badge(status string) string {
	sym, word, class := statusMark(status)
	return fmt.Sprintf(`<span class="badge %s"><span aria-hidden="true">%s</span> %s</span>`, class, sym, esc(word))
}

// anchor makes an id from a case's name.
func anchor(name string) string { return "c-" + FileName(name) }

// Render writes the page.
func Render(w io.Writer, p Page) {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1">` + "\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", esc(p.Title), css)
	if p.Lesson != nil {
		// The switch works without JavaScript: two radio buttons and CSS.
		b.WriteString(`<input type="radio" name="lang" id="lang-es" class="lang" checked><input type="radio" name="lang" id="lang-en" class="lang">` + "\n")
	}
	b.WriteString("<main>\n")
	fmt.Fprintf(&b, "<header><h1>%s</h1>", esc(p.Title))
	if p.Subtitle != "" {
		fmt.Fprintf(&b, "<p class=\"sub\">%s</p>", esc(p.Subtitle))
	}
	b.WriteString("</header>\n")
	if l := p.Lesson; l != nil {
		renderLesson(&b, l)
	}
	if len(p.Links) > 0 {
		renderLinks(&b, p.Links)
	}
	if len(p.Cases) > 0 {
		renderTable(&b, p.Cases)
		for i := range p.Cases {
			renderCase(&b, &p.Cases[i], len(p.Cases) > 1)
		}
	}
	b.WriteString("<footer>Written by mcpmock. Arrows: solid → request, dashed ⇢ result, ✗ error, open ▷ notification; ⚡ a fault the mock put there; ✗ rule: a rule the client broke.</footer>\n")
	b.WriteString("</main>\n</body>\n</html>\n")
	_, _ = io.WriteString(w, b.String())
}

func renderLesson(b *strings.Builder, l *Lesson) {
	b.WriteString(`<section class="lesson"><p class="switch" role="group" aria-label="language"><label for="lang-es">Español</label> <label for="lang-en">English</label></p>` + "\n")
	fmt.Fprintf(b, `<div class="es" lang="es"><h2>Error n.º %d de %d: %s</h2><p>%s</p><h3>Cómo arreglarlo</h3><p>%s</p></div>`+"\n",
		l.Number, l.Of, esc(l.TitleES), esc(l.SummaryES), esc(l.FixES))
	fmt.Fprintf(b, `<div class="en" lang="en"><h2>Mistake %d of %d: %s</h2><p>%s</p><h3>How to fix it</h3><p>%s</p></div>`+"\n",
		l.Number, l.Of, esc(l.TitleEN), esc(l.SummaryEN), esc(l.FixEN))
	b.WriteString("</section>\n")
}

func renderLinks(b *strings.Builder, links []Link) {
	b.WriteString("<nav class=\"index\"><ol>\n")
	for _, l := range links {
		b.WriteString("<li>")
		if l.Status != "" {
			b.WriteString(badge(l.Status) + " ")
		}
		fmt.Fprintf(b, `<a href="%s">%s</a>`, esc(l.Href), esc(l.Text))
		if l.TextES != "" {
			fmt.Fprintf(b, ` <span lang="es" class="alt">(%s)</span>`, esc(l.TextES))
		}
		b.WriteString("</li>\n")
	}
	b.WriteString("</ol></nav>\n")
}

func renderTable(b *strings.Builder, cases []Case) {
	counts := map[string]int{}
	for _, c := range cases {
		counts[c.Status]++
	}
	b.WriteString(`<p class="counts">`)
	for _, st := range []string{"pass", "known-deviation", "warning", "fail", "not-reached", "not-applicable"} {
		if counts[st] > 0 {
			fmt.Fprintf(b, "%s %d &nbsp; ", badge(st), counts[st])
		}
	}
	b.WriteString("</p>\n<table class=\"verdicts\"><thead><tr><th>scenario</th><th>verdict</th><th>what happened</th><th>time</th></tr></thead><tbody>\n")
	for _, c := range cases {
		fmt.Fprintf(b, `<tr class="%s"><td><a href="#%s">%s</a></td><td>%s</td><td>%s</td><td class="num">%s</td></tr>`+"\n",
			rowClass(c.Status), anchor(c.Name), esc(c.Name), badge(c.Status), esc(clipText(c.Observed, 300)), esc(ms(c.Elapsed)))
	}
	b.WriteString("</tbody></table>\n")
}

func rowClass(status string) string {
	_, _, class := statusMark(status)
	return "row-" + strings.TrimPrefix(class, "st-")
}

func ms(d time.Duration) string {
	if d < time.Millisecond {
		return fmt.Sprintf("%d µs", d.Microseconds())
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

// clipText cuts s to n bytes (at a rune boundary), saying how much was cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// bad reports whether a status is bad news (its case opens unfolded).
func bad(status string) bool {
	return status == "fail" || status == "not-reached" || status == "warning" || status == "known-deviation"
}

func renderCase(b *strings.Builder, c *Case, many bool) {
	id := anchor(c.Name)
	open := " open"
	if many && !bad(c.Status) {
		open = ""
	}
	fmt.Fprintf(b, "<details class=\"case\" id=\"%s\"%s><summary><h2>%s %s</h2></summary>\n", id, open, badge(c.Status), esc(c.Name))
	b.WriteString("<dl class=\"facts\">")
	fact := func(k, v string) {
		if v != "" {
			fmt.Fprintf(b, "<dt>%s</dt><dd>%s</dd>", k, esc(v))
		}
	}
	if c.Spec != "" {
		fmt.Fprintf(b, `<dt>spec</dt><dd><a class="spec" href="%s">%s</a></dd>`, esc(specHref(c.Spec)), esc(c.Spec))
	}
	fact("basis", c.Basis)
	fact("needs", c.DecisionPoint)
	fact("expected", c.Expected)
	fact("observed", c.Observed)
	fact("note", c.Why)
	if c.Elapsed > 0 {
		fact("time", ms(c.Elapsed))
	}
	fact("faults", strings.Join(c.Faults, "; "))
	b.WriteString("</dl>\n")
	if len(c.Violations) > 0 {
		b.WriteString("<ul class=\"violations\">")
		for _, v := range c.Violations {
			fmt.Fprintf(b, `<li><span class="badge st-fail"><span aria-hidden="true">✗</span> %s</span> `, esc(v.Severity))
			if v.URL != "" {
				fmt.Fprintf(b, `<a class="spec" href="%s">%s</a>`, esc(specHref(v.URL)), esc(v.Rule))
			} else {
				b.WriteString(esc(v.Rule))
			}
			fmt.Fprintf(b, ": %s", esc(v.Detail))
			if v.Seq > 0 {
				fmt.Fprintf(b, ` (<a href="#%s">message %d</a>)`, arrowID(id, v.Seq), v.Seq)
			}
			b.WriteString("</li>")
		}
		b.WriteString("</ul>\n")
	}
	if len(c.Msgs) > 0 {
		shown := fold(c)
		b.WriteString("<div class=\"wire\">\n<figure class=\"diagram\">")
		drawDiagram(b, id, c, shown)
		b.WriteString("</figure>\n")
		writeTranscript(b, id, c, shown)
		b.WriteString("</div>\n")
	}
	b.WriteString("</details>\n")
}

// specHref returns the address of a spec link: addresses that are not
// http(s) are not links the page follows.
func specHref(s string) string {
	if strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://") {
		return s
	}
	return "#"
}

func arrowID(caseID string, seq int) string { return fmt.Sprintf("%s-a%d", caseID, seq) }
func lineID(caseID string, seq int) string  { return fmt.Sprintf("%s-t%d", caseID, seq) }

// verdicts: what a caller said of a server's test (Annotate), for the
// page the server writes when its test fails.
var verdicts sync.Map

// Annotate records the verdict of the test whose server is srv: the page
// mcptest writes for its failure (EnvDir) then carries it.
func Annotate(srv any, v Case) { verdicts.Store(srv, v) }

// TakeVerdict returns and forgets what Annotate recorded for srv.
func TakeVerdict(srv any) (Case, bool) {
	v, ok := verdicts.LoadAndDelete(srv)
	if !ok {
		return Case{}, false
	}
	return v.(Case), true
}

// WithVerdict returns c (a journal) with the verdict fields of v.
func WithVerdict(c, v Case) Case {
	c.Name, c.Status, c.Spec, c.Basis = v.Name, v.Status, v.Spec, v.Basis
	c.Expected, c.DecisionPoint, c.Observed, c.Why, c.Elapsed = v.Expected, v.DecisionPoint, v.Observed, v.Why, v.Elapsed
	return c
}
