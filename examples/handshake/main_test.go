package main

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/tour"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// verdicts is what the official Go SDK v1.8.0 does today in every scenario
// the tour shows it; the naive client of lessons 1 and 4 fails its own.
var verdicts = map[string]string{
	"tools-capability-missing":     "fail",
	"capabilities-differ-by-era":   "fail",
	"capabilities-per-session":     "fail",
	"tools-schema-changed-quietly": "fail",
	"tools-list-changed":           "fail",
	"stdout-banner":                "fail",
	// The app reads the first page of tools/list only, so it never meets
	// the loop: no verdict either way.
	"looping-cursor": "not-reached",
}

// TestTour runs the whole tour: the seven lessons in the lesson's order,
// each with its title, its scenarios (transcript, diagram, what the client
// did, verdict) and how to fix it in both languages, then the rest of the
// catalog; and the output is the same from one run to the next.
func TestTour(t *testing.T) {
	tr := newTour(testLog{t})
	var first strings.Builder
	if err := tr.Run(&first); err != nil {
		t.Fatal(err)
	}
	out := first.String()

	// First, up front, whose client plays, then what the whole tour
	// leaves out for this app.
	preface, lessonsAndRest, ok := strings.Cut(out, "# Mistake 1 ")
	if !ok || !strings.HasPrefix(preface, "Playing: the official Go SDK v1.8.0. ") ||
		!strings.Contains(preface, "\n\nThe whole tour leaves out ") || !strings.Contains(preface, "- http-error-page: ") {
		t.Errorf("the tour does not say first whose client plays and what it leaves out:\n%s", preface)
	}
	lessonsOut, rest, ok := strings.Cut("# Mistake 1 "+lessonsAndRest, "\n# The rest of the catalog\n")
	if !ok {
		t.Fatalf("no heading for the rest of the catalog:\n%s", out)
	}
	parts := strings.Split(strings.TrimPrefix(lessonsOut, "# "), "\n# ")
	lessons := tour.Lessons()
	if len(parts) != len(lessons) {
		t.Fatalf("want %d lessons, got %d parts before the rest of the catalog", len(lessons), len(parts))
	}
	for i, l := range lessons {
		part := parts[i]
		if want := fmt.Sprintf("Mistake %d of 7: %s\n(Error n.º %d: %s)\n", l.Number, l.Title, l.Number, l.TitleES); !strings.HasPrefix(part, want) {
			t.Errorf("lesson %d does not start with %q:\n%s", l.Number, want, part)
		}
		client := "The official Go SDK v1.8.0"
		if l.Side == tour.ClientSide {
			client = "A naive hand-written client that "
		}
		for _, n := range l.Scenarios {
			sec := section(part, n)
			if sec == "" {
				t.Errorf("lesson %d does not show scenario %s", l.Number, n)
				continue
			}
			verdict := verdicts[n]
			if verdict == "" {
				verdict = "pass"
			}
			if l.Side == tour.ClientSide {
				verdict = "caught"
				if !strings.Contains(sec, "What the mock caught (the rules the client broke):\n- ") {
					t.Errorf("lesson %d, scenario %s: the mock's catch is not shown:\n%s", l.Number, n, sec)
				}
			}
			checkSection(t, n, sec, client, verdict)
		}
		for _, want := range []string{"How to fix it: ", "Cómo corregirlo: "} {
			if !strings.Contains(part, "\n"+want) {
				t.Errorf("lesson %d has no %q", l.Number, want)
			}
		}
	}

	restNames := tr.Rest()
	secs := strings.Split(rest, "\n## ")[1:]
	if len(secs) != len(restNames) {
		t.Fatalf("the rest of the catalog: want %d scenarios (%v), got %d", len(restNames), restNames, len(secs))
	}
	for i, n := range restNames {
		sec := "## " + secs[i]
		if !strings.HasPrefix(sec, "## "+n+"\n") {
			t.Errorf("scenario %d of the rest should be %s:\n%s", i, n, sec)
			continue
		}
		verdict := verdicts[n]
		if verdict == "" {
			verdict = "pass"
		}
		checkSection(t, n, sec, "The official Go SDK v1.8.0", verdict)
	}
	for _, n := range []string{"giftgen-handshake", "undeclared-methods"} {
		if !strings.Contains(rest, "\n## "+n+"\n") {
			t.Errorf("the rest of the catalog does not show %s with the SDK (the lessons showed it with the naive client)", n)
		}
	}

	var second strings.Builder
	if err := newTour(testLog{t}).Run(&second); err != nil {
		t.Fatal(err)
	}
	if second.String() != out {
		t.Errorf("the tour's output differs from one run to the next:\nfirst:\n%s\nsecond:\n%s", out, second.String())
	}
}

// section returns the section of scenario name in out, from its heading to
// the next heading.
func section(out, name string) string {
	_, sec, ok := strings.Cut(out, "## "+name+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	if i := strings.Index(sec, "\nHow to fix it: "); i >= 0 {
		sec = sec[:i]
	}
	return "## " + name + "\n" + sec
}

func checkSection(t *testing.T, name, sec, client, verdict string) {
	t.Helper()
	s, ok := scenarios.Lookup(name)
	if !ok {
		t.Errorf("section %q names no scenario", name)
		return
	}
	for _, want := range []string{
		"The server: ", "Spec: " + s.Spec + "\n",
		"Transcript (→ client to server, ← server to client):\n\n  ",
		"  session 1 ", "    1 → ",
		"```mermaid\nsequenceDiagram\n", "```\n",
		"What the client did:\n- ",
		"A correct client: ",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("section %s has no %q:\n%s", name, want, sec)
		}
	}
	want := client + ": pass, it coped: it does what a correct client does."
	switch verdict {
	case "pass":
	case "fail":
		want = client + ": fail, it did not cope: "
	case "not-reached":
		want = client + ": not-reached (a failure), "
	case "caught": // a naive client, named by what it does wrong: never pass
		if !strings.Contains(flat(sec), client) || !strings.Contains(flat(sec), ": caught, the client ") || strings.Contains(sec, ": pass") {
			t.Errorf("section %s: want the verdict caught of %q…:\n%s", name, client, sec)
		}
		return
	default:
		want = client + ": " + verdict + ", "
	}
	if !strings.Contains(flat(sec), want) {
		t.Errorf("section %s: want the verdict %q:\n%s", name, want, sec)
	}
}

// TestTourByNumberAndName: a lesson can be named by its number or its
// name, a scenario by its name, and they are shown in the order named.
func TestTourByNumberAndName(t *testing.T) {
	tr := newTour(testLog{t})
	var byNumber, byName strings.Builder
	if err := tr.Run(&byNumber, "3", "modern-only"); err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(&byName, "forgotten-capability", "modern-only"); err != nil {
		t.Fatal(err)
	}
	if byNumber.String() != byName.String() {
		t.Errorf("lesson 3 by number and by name differ:\n%s\n---\n%s", byNumber.String(), byName.String())
	}
	out := byNumber.String()
	if !strings.HasPrefix(out, "Playing: the official Go SDK v1.8.0. ") || !strings.Contains(out, ".\n\n# Mistake 3 of 7: a forgotten capability\n") {
		t.Errorf("the output does not start with whose client plays, then lesson 3:\n%s", out)
	}
	i, j := strings.Index(out, "## tools-capability-missing\n"), strings.Index(out, "## modern-only\n")
	if i < 0 || j < i {
		t.Errorf("want tools-capability-missing, then modern-only:\n%s", out)
	}
	if strings.Contains(out, "# Mistake 1 ") || strings.Contains(out, "# The rest of the catalog") {
		t.Errorf("only what was named is shown:\n%s", out)
	}
}

// TestTourUnknownName: a name that is neither a lesson nor a scenario is
// an error that names it, with the nearest name when there is one (not
// the whole catalog), and nothing is played.
func TestTourUnknownName(t *testing.T) {
	var out strings.Builder
	err := newTour(testLog{t}).Run(&out, "negotiate-older-version", "handshake-mistake", "8", "forgoten-capability")
	if err == nil {
		t.Fatal("want an error for an unknown name")
	}
	for _, want := range []string{`no lesson or scenario named "handshake-mistake"`, `no lesson or scenario named "8"`,
		`no lesson or scenario named "forgoten-capability"; did you mean "forgotten-capability"?`, "the lessons are 1 to 7"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not mention %s: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), scenarios.Names()[0]) {
		t.Errorf("the error lists the catalog: %v", err)
	}
	if out.Len() > 0 {
		t.Errorf("nothing is played when a name is unknown, got:\n%s", out.String())
	}
}

// flat joins a wrapped text's lines.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// testLog sends what the mock logs to the test's log (a problem the mock
// reports also makes the tour return an error, which fails the test).
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("the mock: %s", p)
	return len(p), nil
}

var _ io.Writer = testLog{}
