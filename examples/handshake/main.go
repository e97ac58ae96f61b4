// Command handshake is a tour of the classic MCP handshake and capability
// mistakes: for each one, the official Go SDK client (v1.8.0) meets a server
// that makes it, and the tour prints the wire transcript, the Mermaid
// sequence diagram, and what the client did, in plain words, against what a
// correct client does.
//
//	go run ./examples/handshake                         # the tour, in seconds
//	go run ./examples/handshake negotiate-older-version # one scenario of the catalog
//	go run ./examples/handshake -h                      # the catalog
//
// The servers are the scenarios of github.com/mcpmock/mcpmock/scenarios, run
// in process with mcptest: nothing to set up.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tourNames are the scenarios of the tour: the healthy handshake-era server
// first, then the classic handshake, capability and version mistakes, all
// quick. They are shown in catalog order. Scenarios in which the client
// gives up on a call (wrong-id-type, slow-tool-timeout) are left to be
// named: the SDK sends its notifications/cancelled from a goroutine that
// races with Close, so their transcripts differ from run to run.
var tourNames = []string{
	"giftgen-handshake",
	"initialize-result-malformed",
	"protocol-version-unknown",
	"tools-capability-missing",
	"notify-before-initialized",
	"capabilities-lie",
	"negotiate-older-version",
	"modern-only",
	"stdout-banner",
}

// sdk names the client of the tour in the verdicts.
const sdk = "the official Go SDK v1.8.0"

func main() {
	flag.Usage = func() {
		out := flag.CommandLine.Output()
		fmt.Fprintf(out, "usage: go run ./examples/handshake [scenario ...]\n\n")
		fmt.Fprintf(out, "With no argument, the tour: %s.\n\nThe catalog:\n", strings.Join(tourNames, ", "))
		for _, s := range scenarios.All() {
			fmt.Fprintf(out, "  %s\n", s)
		}
	}
	flag.Parse()
	// A reader that stops early (go run ./examples/handshake | head) ends
	// the tour quietly: writes then fail with EPIPE instead of killing us.
	signal.Ignore(syscall.SIGPIPE)
	err := tour(os.Stdout, flag.Args()...)
	if errors.Is(err, syscall.EPIPE) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "handshake:", err)
		os.Exit(1)
	}
}

// tour plays the named scenarios (the tour's when none is named) with the
// official Go SDK client and writes, for each, its mistake, the transcript,
// the sequence diagram, what the client did and the verdict. The output
// depends only on what went over the wire: no times, no random ids.
func tour(w io.Writer, names ...string) error {
	list, err := pick(names)
	if err != nil {
		return err
	}
	ew := &errWriter{w: w}
	for i, s := range list {
		if i > 0 {
			fmt.Fprintln(ew)
		}
		if err := show(ew, s); err != nil {
			return err
		}
		if ew.err != nil {
			return ew.err
		}
	}
	return nil
}

// errWriter keeps the first error of a run of writes, and then writes no more.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// pick returns the named scenarios in the order named, or the tour's in
// catalog order.
func pick(names []string) ([]scenarios.Scenario, error) {
	if len(names) == 0 {
		var list []scenarios.Scenario
		for _, s := range scenarios.All() {
			if slices.Contains(tourNames, s.Name) {
				list = append(list, s)
			}
		}
		return list, nil
	}
	var list []scenarios.Scenario
	var unknown []string
	for _, n := range names {
		s, ok := scenarios.Lookup(n)
		if !ok {
			unknown = append(unknown, fmt.Sprintf("%q", n))
			continue
		}
		list = append(list, s)
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("no scenario named %s; the catalog has %s", strings.Join(unknown, ", "), strings.Join(scenarios.Names(), ", "))
	}
	return list, nil
}

// show plays one scenario and writes what happened.
func show(w io.Writer, s scenarios.Scenario) error {
	t := &programTB{}
	a := &app{elicit: s.Name == "elicitation-round-trip"}
	o := s.Play(t, a.run)
	t.finish()
	r := s.Evaluate(o)

	fmt.Fprintf(w, "## %s\n\n", s.Name)
	fmt.Fprintf(w, "%s\n", wrap("Mistake: "+s.Mistake, ""))
	fmt.Fprintf(w, "Spec: %s\n\n", s.Spec)

	fmt.Fprintf(w, "Transcript (→ client to server, ← server to client):\n\n")
	fmt.Fprintf(w, "%s\n", indent(o.Server.Transcript()))
	fmt.Fprintf(w, "Sequence diagram:\n\n```mermaid\n%s```\n\n", mcptest.RenderSequenceDiagram(o.Journal))

	fmt.Fprintf(w, "What the client did:\n")
	for _, step := range a.said() {
		fmt.Fprintf(w, "%s\n", wrap("- "+step, "  "))
	}
	if o.Hung {
		fmt.Fprintf(w, "- it was still running after its deadline, so its connection was closed under it\n")
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%s\n", wrap("A correct client: "+s.Expect.Description+".", ""))
	if r.Status == scenarios.Pass {
		fmt.Fprintf(w, "%s\n", wrap(capitalize(sdk)+": pass, it does that.", ""))
	} else {
		fmt.Fprintf(w, "%s\n", wrap(capitalize(sdk)+": fail, "+r.Observed+".", ""))
	}
	if t.failed {
		return fmt.Errorf("scenario %s: the mock reported a problem (above, on stderr)", s.Name)
	}
	return nil
}

// app is the application under test: it drives the official client the
// way a small app does — connect with default options, list the tools,
// call suggest_gifts with {"age":25}, close — and says what happened.
type app struct {
	// elicit gives the client an elicitation handler that accepts, for the
	// multi-round-trip scenario.
	elicit bool

	mu    sync.Mutex
	steps []string
}

func (a *app) say(format string, args ...any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.steps = append(a.steps, fmt.Sprintf(format, args...))
}

func (a *app) said() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.steps)
}

// run is the scenarios.ConnectFunc.
func (a *app) run(ctx context.Context, conn net.Conn) error {
	var opts *mcp.ClientOptions
	if a.elicit {
		opts = &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			a.say("its elicitation handler was asked %q and accepted", req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		}}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "gift-app", Version: "1.0.0"}, opts)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		a.say("Connect failed: %v", err)
		return err
	}
	defer func() {
		_ = cs.Close()
		a.say("it closed the session")
	}()
	a.say("Connect succeeded: %s", describe(cs.InitializeResult()))

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		a.say("ListTools failed: %v", err)
		return err
	}
	var tools []string
	for _, tool := range list.Tools {
		tools = append(tools, tool.Name)
	}
	more := ""
	if list.NextCursor != "" {
		more = ", and a nextCursor (the app reads only the first page)"
	}
	a.say("ListTools returned %s%s", count(len(tools), "tool")+names(tools), more)

	args := map[string]any{"age": 25}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: args})
	if err != nil {
		a.say("CallTool suggest_gifts %s failed: %v", jsonText(args), err)
		return err
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, fmt.Sprintf("%q", tc.Text))
		}
	}
	what := "a result"
	if res.IsError {
		what = "a tool error"
	}
	if len(texts) > 0 {
		what += " " + strings.Join(texts, ", ")
	}
	a.say("CallTool suggest_gifts %s returned %s", jsonText(args), what)
	return nil
}

// describe says which session Connect set up.
func describe(res *mcp.InitializeResult) string {
	if res == nil {
		return "no initialize result"
	}
	era := "handshake era"
	if res.ProtocolVersion >= "2026-07-28" {
		era = "stateless era"
	}
	server := "a server without serverInfo"
	if res.ServerInfo != nil {
		server = res.ServerInfo.Name + " " + res.ServerInfo.Version
	}
	var caps []string
	if c := res.Capabilities; c != nil {
		if c.Tools != nil {
			caps = append(caps, "tools")
		}
		if c.Resources != nil {
			caps = append(caps, "resources")
		}
		if c.Prompts != nil {
			caps = append(caps, "prompts")
		}
		if c.Logging != nil {
			caps = append(caps, "logging")
		}
		if c.Completions != nil {
			caps = append(caps, "completions")
		}
	}
	declared := "declared no capabilities"
	if len(caps) > 0 {
		declared = "declared " + strings.Join(caps, ", ")
	}
	if !slices.Contains(caps, "tools") {
		declared += " (no tools)"
	}
	return fmt.Sprintf("protocol %s (%s) with %s, which %s", res.ProtocolVersion, era, server, declared)
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func names(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return ": " + strings.Join(list, ", ")
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// indent indents every line of a transcript by two spaces.
func indent(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			b.WriteString("  " + line)
		}
	}
	return b.String()
}

// width is where wrap breaks lines.
const width = 80

// wrap breaks a paragraph into lines of at most width runes where it can,
// the lines after the first indented by prefix.
func wrap(p, prefix string) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(p) {
		l := len([]rune(word))
		switch {
		case i == 0:
		case n+1+l > width:
			b.WriteString("\n" + prefix)
			n = len(prefix)
		default:
			b.WriteString(" ")
			n++
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}

// programTB lets the scenarios' mcptest servers run outside a test, as
// the *testing.T of a test would: problems go to stderr, the log is
// dropped, and finish runs the cleanups (closing the server), last first.
type programTB struct {
	cleanups []func()
	failed   bool
}

func (t *programTB) Helper()          {}
func (t *programTB) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (t *programTB) Errorf(format string, args ...any) {
	t.failed = true
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}
func (t *programTB) Fatalf(format string, args ...any) { t.Errorf(format, args...) }
func (t *programTB) Logf(string, ...any)               {}
func (t *programTB) Failed() bool                      { return t.failed }

func (t *programTB) finish() {
	cleanups := t.cleanups
	t.cleanups = nil
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
}
