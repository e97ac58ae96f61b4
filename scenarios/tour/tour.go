// Package tour is mcpmock's teaching tour: the seven classic handshake and
// capability mistakes the handshake lesson ends with, in its order, each
// played against the mock and shown with the wire transcript, the Mermaid
// sequence diagram, the verdict and how to fix it; then the rest of the
// scenario catalog.
//
// Mistakes on the client's side (1 and 4) are shown with a deliberately
// naive hand-written client that the mock catches: the violation report is
// the lesson, and the verdict says caught, never pass. Mistakes on the
// server's side (2, 3, 5, 6 and 7) are shown with the Client the Tour is
// given meeting a mock that makes them, against what a correct client
// does: pass when it copes. The output says first whose client plays;
// Tour.Play also returns the verdicts, for a program that judges its
// client. The package needs no client SDK: examples/handshake
// gives it the official Go SDK client,
//
//	// mcpmock:fragment (app: yours)
//	t := tour.Tour{Client: tour.Client{Name: "the official Go SDK v1.8.0", Run: app}, Log: os.Stderr}
//	err := t.Run(os.Stdout)      // the whole tour
//	err = t.Run(os.Stdout, "3")  // mistake 3 (or its name, or a scenario's)
//
// and a command may give it any client it can drive. The output depends
// only on what went over the wire: no times, no random ids.
package tour

import (
	"context"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpmock/mcpmock/internal/suggest"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// Client is a client the tour shows meeting a scenario.
type Client struct {
	// Name names the client in the verdicts, e.g. "the official Go SDK
	// v1.8.0".
	Name string
	// Run drives the client as an application does (connect through
	// ep.Open, list the tools, call suggest_gifts with {"age":25}, close;
	// reconnect if the scenario is about that), for the scenario s, and
	// tells each step it took with say, in plain words. It must return when
	// ctx is done. OneSession adapts a function that uses one connection.
	Run func(ctx context.Context, ep *scenarios.Endpoint, s scenarios.Scenario, say func(format string, args ...any)) error
	// Skip names the scenarios the tour leaves out of its walk of the
	// catalog for this client, each with the reason (e.g. a transcript that
	// differs from run to run); they can still be named.
	Skip map[string]string

	// own: one of the tour's own clients (a naive one, or the correct
	// OAuth client of the authorization walk), not Tour.Client.
	own bool
	// mistake: for a naive client, the mistake it makes on purpose and
	// how the mock must catch it.
	mistake *mistake
}

// mistake is what a naive client of the tour gets wrong on purpose, and
// what the mock must report for the tour to call it caught.
type mistake struct {
	// did says what the client did wrong, after "the client": "sent no
	// PKCE code_challenge".
	did string
	// rules are the rules the mock must report.
	rules []mcptest.RuleID
	// fails: the scenario's verdict must be a failure (fail or
	// not-reached); that failure is the catch.
	fails bool
}

// Verdict is what one scenario of a tour came to for the client that
// played it.
type Verdict struct {
	// Scenario is the scenario's name.
	Scenario string
	// Client is the name of the client that played it.
	Client string
	// Own is set when the client was one of the tour's own (a naive client
	// of lessons 1 and 4 or of the authorization walk, or the walk's
	// correct OAuth client), not Tour.Client.
	Own bool
	// Naive is set when the client made a mistake on purpose: Caught, not
	// Status, is then its verdict.
	Naive bool
	// Caught is, for a naive client, whether the mock caught its mistake
	// (reported the rules it broke, or failed it in the scenario).
	Caught bool
	// Status is the scenario's verdict for the client, and Observed what
	// it did, as in scenarios.Result.
	Status   scenarios.Status
	Observed string
}

// Failed reports a verdict that is bad news: a client that is not naive
// failed the scenario or did not reach its decision point, or a naive
// client's mistake went uncaught (the tour itself is then wrong).
func (v Verdict) Failed() bool {
	if v.Naive {
		return !v.Caught
	}
	return v.Status.Failed()
}

// OneSessionRun adapts the Run of a client that uses one connection: it
// opens one session with Endpoint.Open and hands the connection to run.
func OneSessionRun(run func(ctx context.Context, conn net.Conn, s scenarios.Scenario, say func(format string, args ...any)) error) func(context.Context, *scenarios.Endpoint, scenarios.Scenario, func(string, ...any)) error {
	return func(ctx context.Context, ep *scenarios.Endpoint, s scenarios.Scenario, say func(string, ...any)) error {
		conn, err := ep.Open()
		if err != nil {
			return err
		}
		return run(ctx, conn, s, say)
	}
}

// Tour plays lessons and scenarios and writes what happened.
type Tour struct {
	// Client is the client of the server-side lessons and of the
	// catalog's scenarios.
	Client Client
	// Log receives what the mock logs while a scenario plays, and the
	// problems it reports (a misconfigured scenario, a fault that never
	// acted), as mcptest.ProgramTB writes them; nil drops them. A problem
	// also ends Run with an error.
	Log io.Writer
	// HTMLDir, when set, is a directory where Play also writes the tour
	// as HTML pages: one per lesson (its wording in Spanish and English,
	// a switch on the page), one for the authorization walk and one for
	// the rest of the catalog, each scenario's journal drawn, and
	// index.html.
	HTMLDir string

	pages *htmlPages // while Play runs with HTMLDir
}

// item is one thing the tour shows: a lesson, or a scenario of the catalog.
type item struct {
	lesson   *Lesson
	scenario scenarios.Scenario
	// rest: the first scenario of the rest of the catalog, after the lessons.
	rest bool
	// auth: the authorization walk.
	auth bool
}

// Run writes the tour to w. With no argument: first which scenarios it
// leaves out (Client.Skip) and why, then the seven lessons in the
// lesson's order, then the rest of the catalog (less Client.Skip). Each
// argument names a lesson by number ("3") or name ("forgotten-capability"),
// a scenario of the catalog, or "auth": the authorization walk (one healthy
// authorization, then three client mistakes: no PKCE, no resource
// parameter, no re-authorization on a step-up); they are shown in the order named. An
// unknown name is an error that lists what there is, and nothing is
// played.
//
// The output starts by saying whose client plays: Client.Name, and the
// tour's own naive clients where a client's mistake is shown. Client's
// verdicts are pass (it coped with the server as a correct client does),
// fail, not-reached or not-applicable; a naive client's is caught (the
// mock caught its mistake), never pass. Run reports no verdict: Play
// returns them.
func (t Tour) Run(w io.Writer, args ...string) error {
	_, err := t.Play(w, args...)
	return err
}

// Play is Run that also returns the verdicts, in the order played, those
// played before an error included. A program that judges Client fails
// when one of them Failed (mcpmock tour exits 1 then); one that teaches,
// as examples/handshake does, shows them.
func (t Tour) Play(w io.Writer, args ...string) ([]Verdict, error) {
	items, err := t.pick(args)
	if err != nil {
		return nil, err
	}
	ew := &errWriter{w: w}
	t.header(ew, items)
	if len(args) == 0 {
		t.leftOut(ew)
	}
	if ew.err != nil {
		return nil, ew.err
	}
	if t.HTMLDir != "" {
		t.pages = &htmlPages{}
	}
	var verdicts []Verdict
	for i, it := range items {
		if i > 0 {
			fmt.Fprintln(ew)
		}
		t.pages.begin(it)
		vs, err := t.show(ew, it)
		verdicts = append(verdicts, vs...)
		if err != nil {
			return verdicts, err
		}
		if ew.err != nil {
			return verdicts, ew.err
		}
	}
	if err := t.pages.write(t.HTMLDir, t.Client.Name); err != nil {
		return verdicts, err
	}
	return verdicts, nil
}

// header says first whose clients the items are played with, and what
// their verdicts mean.
func (t Tour) header(w io.Writer, items []item) {
	client, naive := false, false
	for _, it := range items {
		switch {
		case it.auth:
			naive = true
		case it.lesson != nil && it.lesson.Side == ClientSide:
			naive = true
		default:
			client = true
		}
	}
	if client {
		fmt.Fprintf(w, "%s\n", wrap("Playing: "+t.Client.Name+". Its verdict on each server: pass (it coped as a correct client does), "+
			"fail or not-reached (it did not: a failure), or not-applicable.", ""))
	}
	if naive {
		fmt.Fprintf(w, "%s\n", wrap("The client's own mistakes are made on purpose by the tour's naive clients: "+
			"their verdict is caught (the mock caught the mistake), never pass.", ""))
	}
	fmt.Fprintln(w)
}

// leftOut says up front which scenarios the whole tour leaves out
// (Client.Skip), each with why, in catalog order; nothing when it leaves
// none out.
func (t Tour) leftOut(w io.Writer) {
	var skipped []string
	for _, n := range scenarios.Names() {
		if why, ok := t.Client.Skip[n]; ok {
			skipped = append(skipped, wrap("- "+n+": "+why, "  "))
		}
	}
	if len(skipped) == 0 {
		return
	}
	scenario := "scenarios"
	if len(skipped) == 1 {
		scenario = "scenario"
	}
	fmt.Fprintf(w, "%s\n%s\n%s\n\n", wrap(fmt.Sprintf("The whole tour leaves out %d %s of the catalog with %s:", len(skipped), scenario, t.Client.Name), ""),
		strings.Join(skipped, "\n"), wrap("Name one to see it anyway.", ""))
}

// Rest returns the names of the scenarios the whole tour shows after the
// lessons, in catalog order: the catalog less Client.Skip, the
// authorization scenarios (the authorization walk teaches them) and the
// scenarios Client already met in a server-side lesson. (The scenarios of
// the client-side lessons come back: there the naive client met them, here
// Client does.)
func (t Tour) Rest() []string {
	inLessons := map[string]bool{}
	for _, l := range lessons {
		for _, n := range l.Scenarios {
			// the naive client's scenarios come back with Client
			inLessons[n] = l.Side == ServerSide
		}
	}
	var out []string
	for _, n := range scenarios.Names() {
		if _, skip := t.Client.Skip[n]; !inLessons[n] && !skip && !scenarios.IsAuth(n) {
			out = append(out, n)
		}
	}
	return out
}

// Usage writes what can be named: the lessons, then the catalog, the
// scenarios left out of the whole tour marked with why.
func (t Tour) Usage(w io.Writer) {
	fmt.Fprintf(w, "The lessons (by number or name):\n")
	for _, l := range lessons {
		fmt.Fprintf(w, "  %d  %-27s %s (the %s's mistake)\n", l.Number, l.Name, l.Title, l.Side)
	}
	fmt.Fprintf(w, "\nThe authorization walk (by name):\n  %-30s one healthy authorization, then %d client mistakes (no PKCE, no resource, no step-up)\n", authWalkName, len(authMistakes))
	fmt.Fprintf(w, "\nThe catalog (by name):\n")
	for _, s := range scenarios.All() {
		fmt.Fprintf(w, "  %s\n", s)
		if why, ok := t.Client.Skip[s.Name]; ok {
			fmt.Fprintf(w, "    %s\n", wrap("(not in the whole tour: "+why+")", "    "))
		}
	}
}

func (t Tour) pick(args []string) ([]item, error) {
	if len(args) == 0 {
		var items []item
		for _, l := range Lessons() {
			items = append(items, item{lesson: &l})
		}
		for i, n := range t.Rest() {
			s, _ := scenarios.Lookup(n)
			items = append(items, item{scenario: s, rest: i == 0})
		}
		return items, nil
	}
	var items []item
	var unknown []string
	for _, a := range args {
		if a == authWalkName {
			items = append(items, item{auth: true})
			continue
		}
		if l, ok := lookupLesson(a); ok {
			items = append(items, item{lesson: &l})
			continue
		}
		if s, ok := scenarios.Lookup(a); ok {
			items = append(items, item{scenario: s})
			continue
		}
		unknown = append(unknown, a)
	}
	if len(unknown) > 0 {
		names := append(scenarios.Names(), authWalkName)
		for _, l := range lessons {
			names = append(names, l.Name)
		}
		var msgs []string
		for _, a := range unknown {
			msgs = append(msgs, "no lesson or scenario named "+strconv.Quote(a)+suggest.DidYouMean(a, names))
		}
		return nil, fmt.Errorf("%s (the lessons are 1 to %d, by number or name; Usage lists them and the catalog)", strings.Join(msgs, "; "), len(lessons))
	}
	return items, nil
}

// show writes one item and returns its verdicts.
func (t Tour) show(w io.Writer, it item) ([]Verdict, error) {
	if it.auth {
		return t.showAuth(w)
	}
	if it.lesson == nil {
		if it.rest {
			fmt.Fprintf(w, "# The rest of the catalog\n\n")
			fmt.Fprintf(w, "%s\n\n", wrap(capitalize(t.Client.Name)+" meets the other scenarios of the catalog.", ""))
		}
		v, err := t.play(w, it.scenario, t.Client)
		return []Verdict{v}, err
	}
	l := it.lesson
	fmt.Fprintf(w, "# Mistake %d of %d: %s\n", l.Number, len(lessons), l.Title)
	fmt.Fprintf(w, "(Error n.º %d: %s)\n\n", l.Number, l.TitleES)
	fmt.Fprintf(w, "%s\n\n", wrap(l.Summary, ""))
	client := t.Client
	if l.Side == ClientSide {
		client = l.naive
		fmt.Fprintf(w, "%s\n\n", wrap("The client's mistake: "+client.Name+" makes it on purpose, and the mock must catch it.", ""))
	} else {
		fmt.Fprintf(w, "%s\n\n", wrap("The server's mistake: "+t.Client.Name+" meets a mock that makes it.", ""))
	}
	var verdicts []Verdict
	for _, n := range l.Scenarios {
		s, ok := scenarios.Lookup(n)
		if !ok {
			return verdicts, fmt.Errorf("tour: lesson %d names the scenario %q, which is not in the catalog", l.Number, n)
		}
		v, err := t.play(w, s, client)
		verdicts = append(verdicts, v)
		if err != nil {
			return verdicts, err
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%s\n", wrap("How to fix it: "+l.Fix, ""))
	fmt.Fprintf(w, "%s\n", wrap("Cómo corregirlo: "+l.FixES, ""))
	return verdicts, nil
}

// play runs one scenario with the client and writes the scenario, the
// transcript, the diagram, what the client did, what the mock caught and
// the verdict, which it returns.
func (t Tour) play(w io.Writer, s scenarios.Scenario, c Client) (Verdict, error) {
	if c.Run == nil {
		return Verdict{}, fmt.Errorf("tour: no client to play the scenario %s with: set Tour.Client", s.Name)
	}
	var st steps
	var o scenarios.Outcome
	verdict := mcptest.NewProgramTB("tour: "+s.Name, t.Log).Run(func(tb mcptest.TB) {
		o = s.Play(tb, func(ctx context.Context, ep *scenarios.Endpoint) error { return c.Run(ctx, ep, s, st.say) })
	})
	if o.Server == nil {
		return Verdict{}, fmt.Errorf("tour: scenario %s could not be played: %v", s.Name, verdict)
	}
	r := s.Evaluate(o)
	t.pages.keep(o, r, c.Name)

	fmt.Fprintf(w, "## %s\n\n", s.Name)
	fmt.Fprintf(w, "%s\n", wrap("The server: "+s.Mistake, ""))
	fmt.Fprintf(w, "Spec: %s\n\n", s.Spec)

	fmt.Fprintf(w, "Transcript (→ client to server, ← server to client):\n\n")
	fmt.Fprintf(w, "%s\n", indent(o.Server.Transcript()))
	fmt.Fprintf(w, "Sequence diagram:\n\n```mermaid\n%s```\n\n", o.Journal.SequenceDiagram())

	fmt.Fprintf(w, "What the client did:\n")
	for _, step := range st.all() {
		fmt.Fprintf(w, "%s\n", wrap("- "+step, "  "))
	}
	if o.Hung {
		fmt.Fprintf(w, "- it was still running after its deadline, so its connection was closed under it\n")
	}
	if len(o.Violations) > 0 {
		fmt.Fprintf(w, "\nWhat the mock caught (the rules the client broke):\n")
		for _, v := range o.Violations {
			sev := ""
			if v.Severity == mcptest.SeverityWarning {
				sev = " (a warning)"
			}
			fmt.Fprintf(w, "%s\n", wrap(fmt.Sprintf("- %s%s: %s, in message %d; %s", v.Rule, sev, v.Detail, v.Message.Seq, v.URL()), "  "))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%s\n", wrap("A correct client: "+s.Expect.Description+".", ""))
	v := Verdict{Scenario: s.Name, Client: c.Name, Own: c.own, Naive: c.mistake != nil, Status: r.Status, Observed: r.Observed}
	var line string
	if c.mistake != nil {
		v.Caught, line = c.mistake.verdict(o.Violations, r)
	} else {
		line = clientVerdict(r)
	}
	fmt.Fprintf(w, "%s\n", wrap(capitalize(c.Name)+": "+line, ""))
	if verdict != nil {
		return v, fmt.Errorf("tour: the mock reported a problem with scenario %s: %w", s.Name, verdict)
	}
	return v, nil
}

// clientVerdict is the verdict line of a client that means to be correct,
// after its name.
func clientVerdict(r scenarios.Result) string {
	switch r.Status {
	case scenarios.Pass:
		return "pass, it coped: it does what a correct client does."
	case scenarios.Fail:
		return "fail, it did not cope: " + r.Observed + "."
	case scenarios.NotReached:
		return "not-reached (a failure), " + r.Observed + "."
	}
	return string(r.Status) + ", " + r.Observed + "."
}

// verdict says whether the mock caught the mistake, and the verdict line
// of the naive client that made it, after its name: never pass.
func (m *mistake) verdict(vs []mcptest.Violation, r scenarios.Result) (bool, string) {
	seen := map[mcptest.RuleID]bool{}
	for _, v := range vs {
		seen[v.Rule] = true
	}
	var broke, missed []string // of m.rules
	for _, want := range m.rules {
		if seen[want] {
			broke = append(broke, string(want))
		} else {
			missed = append(missed, string(want))
		}
	}
	failed := r.Status.Failed()
	if len(missed) > 0 || m.fails && !failed {
		why := "the mock did not report " + plural("rule", missed)
		if len(missed) == 0 {
			why = "the scenario's verdict was " + string(r.Status)
		}
		return false, "NOT caught, the client " + m.did + ", but " + why + ": the tour is wrong, please report it."
	}
	var how []string
	if len(broke) > 0 {
		how = append(how, plural("rule", broke))
	}
	if m.fails {
		how = append(how, "the scenario's verdict: "+string(r.Status)+", "+r.Observed)
	}
	return true, "caught, the client " + m.did + " (" + strings.Join(how, "; ") + ")."
}

// plural is "rule a" or "rules a, b".
func plural(noun string, items []string) string {
	if len(items) == 1 {
		return noun + " " + items[0]
	}
	return noun + "s " + strings.Join(items, ", ")
}

// steps is what a client said it did, safe for its goroutines.
type steps struct {
	mu    sync.Mutex
	lines []string
}

func (s *steps) say(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}

func (s *steps) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lines)
}
