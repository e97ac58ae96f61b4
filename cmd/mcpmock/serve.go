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
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpmock/mcpmock/config"
	"github.com/mcpmock/mcpmock/internal/htmlreport"
	"github.com/mcpmock/mcpmock/internal/safefile"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// Report is what serve writes to --report: the verdict on the sessions
// and the evidence.
type Report struct {
	// Verdict is "pass", "fail", or "not-reached" (nothing to judge:
	// no client sent anything, or the scenario's decision point never
	// came); only "pass" exits 0.
	Verdict string `json:"verdict"`
	// Server says what was served: "scenario NAME", "config FILE" or
	// "giftgen" (the default, healthy GiftGen server).
	Server string `json:"server"`
	// Transport is "stdio" or "http".
	Transport string `json:"transport"`
	// Ended says why the server stopped: "the client closed stdin",
	// "SIGTERM", …
	Ended string `json:"ended"`
	// Scenario is the scenario's check, in scenario mode.
	Scenario *scenarios.Result `json:"scenario,omitempty"`
	// Violations are the protocol rules the client broke.
	Violations []ReportViolation `json:"violations"`
	// Problems are the server's other findings: unexpected violations,
	// faults that never acted, a misconfiguration.
	Problems []string `json:"problems"`
	// ElapsedMS is how long the session ran from the client's first byte.
	ElapsedMS int64 `json:"elapsed_ms"`
	// Messages is how many messages went over the wire, both directions.
	Messages int `json:"messages"`
	// JournalFile is the JSON Lines file that holds every message, one a
	// line, when more than --journal-keep went over the wire (the oldest
	// left memory for it); "" when memory held them all.
	JournalFile string `json:"journal_file,omitempty"`
	// JournalDropped is how many of the oldest messages were dropped
	// (--journal-drop): neither the transcript nor a file holds them.
	JournalDropped int `json:"journal_dropped,omitempty"`
	// Transcript is the wire log, one message a line: of the messages
	// still in memory (the last --journal-keep or so; JournalFile holds
	// every one).
	Transcript string `json:"transcript"`
	// Mermaid is the session as a Mermaid sequenceDiagram, of the same
	// messages as Transcript.
	Mermaid string `json:"mermaid"`

	html string           // --html FILE (html.go)
	page *htmlreport.Case // the journal, for it
}

// ReportViolation is one broken rule, as the report shows it.
type ReportViolation struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Detail   string `json:"detail"`
	Spec     string `json:"spec"`
	URL      string `json:"url"`
	Message  string `json:"message"`
	// Repeats is how many more times the client broke the rule in the
	// same session, not listed apart (under --journal-keep, 100 a rule a
	// session are listed).
	Repeats int `json:"repeats,omitempty"`
}

func reportViolations(vs []mcptest.Violation) []ReportViolation {
	out := []ReportViolation{}
	for _, v := range vs {
		out = append(out, ReportViolation{
			Rule: string(v.Rule), Severity: v.Severity.String(), Detail: v.Detail,
			Spec: v.Spec, URL: v.URL(), Message: v.Message.Raw(), Repeats: v.Repeats,
		})
	}
	return out
}

// serverSpec is what serve (and run) serve: a scenario, a config file, or
// the default GiftGen server.
type serverSpec struct {
	scenario *scenarios.Scenario
	config   *config.Config
	label    string
	auth     authFlag    // serve --http --auth: authorization on
	html     string      // serve --html FILE
	journal  journalFlag // serve: the journal's window
}

// journalFlag is serve's --journal-keep, --journal-spill and
// --journal-drop: the most messages the journal keeps in memory, and where
// the older ones go.
type journalFlag struct {
	limit int
	spill string // "": dropped
}

// defaultJournalKeep is how many messages serve keeps in memory unless
// --journal-keep says otherwise: a few MiB, and more than any test
// session sends, so that only a long-running serve spills.
const defaultJournalKeep = 10000

// journalSpillPath is where the messages that leave memory go unless
// --journal-spill names a file: next to the --report file, else in the
// temporary folder, named with the process id.
func journalSpillPath(reportFile string) string {
	if reportFile != "" {
		return strings.TrimSuffix(reportFile, filepath.Ext(reportFile)) + ".journal.jsonl"
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("mcpmock-journal-%d.jsonl", os.Getpid()))
}

// build returns the server for t: the config file's (or GiftGen), with
// the scenario's mistake applied if there is one.
func (sp serverSpec) build(t mcptest.TB) *mcptest.Server {
	var base *mcptest.Server
	if sp.config != nil {
		base = sp.config.NewServer(t)
	} else {
		base = scenarios.GiftGen(t)
	}
	base = sp.auth.apply(base)
	if sp.journal.limit > 0 {
		base.WithOptions(mcptest.Options{JournalKeep: sp.journal.limit, JournalSpill: sp.journal.spill})
	}
	if sp.scenario != nil {
		return sp.scenario.Server(base)
	}
	return base
}

func pickServer(scenario, configFile string) (serverSpec, error) {
	sp := serverSpec{label: "giftgen"}
	if configFile != "" {
		c, err := config.Load(configFile)
		if err != nil {
			return serverSpec{}, &usageError{"--config " + configFile + ":\n" + err.Error()}
		}
		sp.config, sp.label = c, "config "+configFile
	}
	if scenario != "" {
		s, ok := scenarios.Lookup(scenario)
		if !ok {
			return serverSpec{}, usagef("%s (mcpmock list shows the catalog)", unknownScenario("--scenario", scenario)[0])
		}
		sp.scenario = &s
		if sp.config != nil {
			sp.label = "scenario " + s.Name + " on config " + configFile
		} else {
			sp.label = "scenario " + s.Name
		}
	}
	return sp, nil
}

func serveCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("serve", serveSynopsis, stderr)
	scenario := fs.String("scenario", "", "serve the catalog's scenario `NAME` (mcpmock list shows the catalog), applied to GiftGen or to the --config server")
	configFile := fs.String("config", "", "serve the server the JSON file `FILE` describes (schema: config/schema.json)")
	reportFile := fs.String("report", "", "write the verdict to `FILE`, as JSON, at exit")
	htmlFile := fs.String("html", "", "write the verdict and the journal drawn to `FILE`, one self-contained HTML page, at exit")
	logFile := fs.String("log", "", "write logs to `FILE` instead of stderr")
	httpMode := fs.Bool("http", false, "serve Streamable HTTP instead of stdio, on --listen's address; the URL is printed on stdout")
	listenAddr := fs.String("listen", defaultListen, "with --http: listen on `ADDR` (host:port; port 0: any free port; loopback only, unless --allow-remote)")
	allowRemote := fs.Bool("allow-remote", false, "with --http: allow a listen address that is not loopback (a container, a VM); the mock answers anyone who reaches it and keeps all they send")
	authOn := fs.Bool("auth", false, "with --http: require OAuth (the mock's authorization server, oauth.Options' defaults, at the same address)")
	authClient := fs.String("auth-client", "", "with --http: like --auth, with the client `ID:SECRET` pre-registered")
	untilSignal := fs.Bool("until-signal", false, "with --http: serve until SIGTERM or SIGINT, however many sessions end (for many clients one after the other, e.g. a test suite); without it, serve ends when every session it opened has ended")
	adminOn := fs.Bool("admin", false, "with --http: serve the admin API at "+adminPrefix+" (docs/admin.md): tests in any language open a test of their own, script it, add faults, read the journal and verify over HTTP; serves until a signal, as --until-signal")
	journalKeep := fs.Int("journal-keep", defaultJournalKeep, "keep at most about `N` messages in memory; the older ones go to --journal-spill's file (0: keep every one, memory grows with the session)")
	journalSpill := fs.String("journal-spill", "", "write the messages that leave memory to `FILE`, JSON Lines (default: next to --report, NAME.journal.jsonl, else mcpmock-journal-PID.jsonl in the temporary folder); at exit it holds every message")
	journalDrop := fs.Bool("journal-drop", false, "drop the messages that leave memory instead of writing them to a file")
	var allowHosts multi
	fs.Var(&allowHosts, "allow-host", "with --http: also serve requests whose Host is `NAME` (a name or IP, no port), as a client that reaches the mock by that name sends; repeatable")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		if _, _, err := net.SplitHostPort(fs.Arg(0)); err == nil {
			return usagef("unexpected argument %q: --http is a switch; give the address with --listen %s", fs.Arg(0), fs.Arg(0))
		}
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	listenSet := false
	fs.Visit(func(f *flag.Flag) { listenSet = listenSet || f.Name == "listen" })
	if listenSet && !*httpMode {
		return usagef("--listen goes with --http (stdio has no address)")
	}
	spec, err := pickServer(*scenario, *configFile)
	if err != nil {
		return err
	}
	spec.auth, spec.html = authFlag{on: *authOn, client: *authClient}, *htmlFile
	switch {
	case *journalKeep < 0:
		return usagef("--journal-keep %d is negative; 0 keeps every message in memory", *journalKeep)
	case *journalDrop && *journalSpill != "":
		return usagef("--journal-drop and --journal-spill exclude each other: drop the oldest messages, or write them to a file")
	case *journalKeep == 0 && (*journalDrop || *journalSpill != ""):
		return usagef("--journal-spill and --journal-drop need a --journal-keep above 0: with 0 every message stays in memory")
	case *journalKeep > 0 && !*journalDrop:
		spec.journal = journalFlag{limit: *journalKeep, spill: *journalSpill}
		if spec.journal.spill == "" {
			spec.journal.spill = journalSpillPath(*reportFile)
		}
	case *journalKeep > 0:
		spec.journal = journalFlag{limit: *journalKeep}
	}
	if err := spec.auth.check(*httpMode); err != nil {
		return err
	}
	if spec.auth.enabled() && scenarios.IsAuth(*scenario) {
		return usagef("--scenario %s brings its own authorization: leave out --auth and --auth-client", *scenario)
	}
	logw, closeLog, err := openLog(*logFile, stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	if *httpMode {
		return serveHTTP(spec, httpListen{addr: *listenAddr, allowRemote: *allowRemote, hosts: allowHosts, untilSignal: *untilSignal || *adminOn, admin: *adminOn}, *reportFile, stdout, logw)
	}
	if *adminOn {
		return usagef("--admin goes with --http (the admin API is HTTP)")
	}
	if *allowRemote || len(allowHosts) > 0 || *untilSignal {
		return usagef("--allow-remote, --allow-host and --until-signal go with --http")
	}

	ctx, stop := signalContext()
	defer stop()
	in := &firstByte{r: pump(stdin)}
	fmt.Fprintf(logw, "mcpmock: serving %s on stdio: waiting for an MCP client on stdin (stdout carries only MCP); closing stdin (Ctrl-D), SIGTERM or SIGINT (Ctrl-C) ends it\n", spec.label)
	rep := serveOnce(ctx, spec, "stdio", logw, func(ctx context.Context, srv *mcptest.Server) string {
		rwc := &stdio{r: in, w: stdout}
		if err := srv.Serve(ctx, rwc); err != nil {
			return signalName(ctx)
		}
		return "the client closed stdin"
	}, in.since)
	return finish(rep, *reportFile, logw)
}

// serveOnce builds the server, runs serve on it, and returns the report.
// session runs the sessions and says why they ended; since says how long
// ago the client's first byte came.
func serveOnce(ctx context.Context, spec serverSpec, transport string, logw io.Writer,
	session func(ctx context.Context, srv *mcptest.Server) string, since func() time.Duration,
) *Report {
	rep := &Report{Server: spec.label, Transport: transport, Violations: []ReportViolation{}, Problems: []string{}}
	heard := false // the client sent the mock something
	// Ended until the sessions run: a server that fails to start (the
	// problems say why) never serves one.
	rep.Ended = "the server never started"
	p := mcptest.NewProgramTB("mcpmock", logw)
	err := p.Run(func(t mcptest.TB) {
		t.Helper()
		srv := spec.build(t)
		// The command reports the rules the client broke itself, in its
		// own words (mcptest's would say to declare them with
		// ExpectViolation, which a command line cannot), with or without
		// a scenario: they fail the verdict, and the failure logs the
		// transcript.
		srv.IgnoreViolations()
		rep.Ended = session(ctx, srv)
		srv.Close()
		if broken := brokenRules(srv.Violations()); broken != "" {
			t.Errorf("%s", broken)
		}
		for _, miss := range srv.Unmatched() {
			t.Errorf("the client asked for what the server has no answer for (it got a JSON-RPC error): %s", miss)
		}
		// The messages in memory: every one, unless the journal's window
		// (--journal-keep) moved the oldest to its file or dropped them.
		recent := inMemory(srv)
		rep.Messages = srv.Journal().Len()
		left := rep.Messages - len(recent)
		heard = left > 0 || len(recent.From(mcptest.FromClient)) > 0 // a session begins with a client's message
		rep.ElapsedMS = since().Milliseconds()
		rep.Violations = reportViolations(srv.Violations())
		rep.Transcript = srv.Transcript()
		rep.Mermaid = recent.SequenceDiagram()
		rep.keepPage(spec, srv)
		if left > 0 {
			if spec.journal.spill != "" {
				rep.JournalFile = spec.journal.spill
			} else {
				rep.JournalDropped = left
			}
		}
		if spec.scenario != nil {
			msgs := recent
			if left > 0 {
				msgs = srv.Journal().All() // the scenario's check reads the whole journal: read it back
			}
			s := *spec.scenario
			o := scenarios.Outcome{
				Err:        nil, // what the client made of it is not known to a server process: see mcpmock run
				Elapsed:    since(),
				Deadline:   scenarioDeadline(s),
				Sessions:   len(srv.Sessions()),
				Server:     srv,
				Journal:    msgs,
				Violations: srv.Violations(),
			}
			r := s.Evaluate(o)
			r.Observed = strings.ReplaceAll(r.Observed, connectReturnedNil, clientResultUnknown)
			rep.Scenario = &r
		}
	})
	if err != nil {
		for _, f := range p.Failures() {
			rep.Problems = append(rep.Problems, f)
		}
	}
	switch {
	case len(rep.Problems) > 0 || (rep.Scenario != nil && rep.Scenario.Status == scenarios.Fail):
		rep.Verdict = verdictFail
	case !heard || (rep.Scenario != nil && rep.Scenario.Status == scenarios.NotReached):
		// Nothing observed is no pass: there is nothing to judge.
		rep.Verdict = verdictNotReached
		if !heard {
			rep.Problems = append(rep.Problems, "no client sent anything before "+rep.Ended+": nothing was observed, so there is no verdict; connect a client (over stdio: write to this process's stdin)")
		}
	default:
		rep.Verdict = verdictPass
	}
	return rep
}

// inMemory returns the messages the server's journal still holds in
// memory, in wire order: every one, unless the journal's window
// (--journal-keep) moved the oldest out. Await steps through exactly
// those (Journal.All would read the others back from the file, all of
// them in memory at once); the server is closed, so it returns at once.
func inMemory(srv *mcptest.Server) mcptest.Messages {
	var out mcptest.Messages
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = srv.Await(ctx, mcptest.Matcher{Description: "every message in memory", Match: func(m mcptest.Message) bool {
		out = append(out, m)
		return false
	}})
	return out
}

// The verdicts of a serve report.
const (
	verdictPass       = "pass"
	verdictFail       = "fail"
	verdictNotReached = "not-reached" // nothing to judge: no client, or the scenario's point never came
)

// connectReturnedNil is how the scenarios package words a client whose
// ConnectFunc saw no error, in Go's terms; the command says it in its own
// (TestCommandWordsClientResult keeps the two in step).
const connectReturnedNil = "connect returned nil"

// clientResultUnknown replaces, in a scenario's observed text under
// serve, the words a Go ConnectFunc's result would be given: a server
// process never learns what the client made of it.
const clientResultUnknown = "what the client made of it is not seen by serve (mcpmock run, which starts the client, judges that)"

// brokenRules says which protocol rules the client broke (the
// error-level violations), "" for none.
func brokenRules(vs []mcptest.Violation) string {
	var b strings.Builder
	n := 0
	for _, v := range vs {
		if v.Severity != mcptest.SeverityError {
			continue
		}
		n += 1 + v.Repeats
		msg := v.Message.Raw()
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		more := ""
		if v.Repeats > 0 {
			more = fmt.Sprintf(" (and %s in session %d, not listed)", plural(v.Repeats, "more time", "more times"), v.Message.SessionNumber)
		}
		fmt.Fprintf(&b, "\n  - %s: %s%s\n      message: %s\n      spec: %s", v.Rule, v.Detail, more, msg, v.URL())
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("the client broke %s; fix the client (each rule enforces the spec section named):%s", plural(n, "protocol rule", "protocol rules"), b.String())
}

// plural renders n with the singular or plural noun: "1 violation", "2 violations".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func scenarioDeadline(s scenarios.Scenario) time.Duration {
	if s.Deadline > 0 {
		return s.Deadline
	}
	return scenarios.DefaultDeadline
}

// finish writes the report and returns the command's result.
func finish(rep *Report, reportFile string, logw io.Writer) error {
	if err := rep.writePage(); err != nil {
		return err
	}
	if reportFile != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err == nil {
			err = safefile.Replace(reportFile, append(b, '\n'))
		}
		if err != nil {
			return fmt.Errorf("--report: %v", err)
		}
	}
	fmt.Fprintf(logw, "mcpmock: %s: %s (%s, %s; %s)\n", rep.Server, rep.Verdict, plural(rep.Messages, "message", "messages"), violationCount(rep.Violations), rep.Ended)
	switch {
	case rep.JournalFile != "":
		fmt.Fprintf(logw, "mcpmock: journal: %s holds every message, one JSON object a line (more than --journal-keep went over the wire; the transcript shows the last ones)\n", rep.JournalFile)
	case rep.JournalDropped > 0:
		fmt.Fprintf(logw, "mcpmock: journal: the oldest %s were dropped (--journal-drop); the transcript shows the last ones\n", plural(rep.JournalDropped, "message", "messages"))
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(logw, "mcpmock: problem: %s\n", p)
	}
	if rep.Scenario != nil {
		r := rep.Scenario
		fmt.Fprintf(logw, "mcpmock: scenario %s: %s: %s\n", r.Scenario, r.Status, r.Observed)
		if r.Why != "" {
			fmt.Fprintf(logw, "mcpmock: scenario %s: note: %s\n", r.Scenario, r.Why)
		}
	}
	if rep.Verdict != verdictPass {
		return errVerdict
	}
	return nil
}

// violationCount says how many rules the client broke and, apart, how
// many SHOULDs it missed: "4 rules broken, 1 warning", "no rule broken".
func violationCount(vs []ReportViolation) string {
	broken, warnings := 0, 0
	for _, v := range vs {
		if v.Severity == mcptest.SeverityError.String() {
			broken += 1 + v.Repeats
		} else {
			warnings += 1 + v.Repeats
		}
	}
	out := "no rule broken"
	if broken > 0 {
		out = plural(broken, "rule broken", "rules broken")
	}
	if warnings > 0 {
		out += ", " + plural(warnings, "warning", "warnings")
	}
	return out
}

// signalContext returns a context that SIGTERM or SIGINT cancels, with
// the signal's name as its cause.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		select {
		case s := <-sigs:
			name := map[os.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT"}[s]
			cancel(errors.New(name))
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel(nil)
	}
}

// signalName says why ctx ended: the signal's name.
func signalName(ctx context.Context) string {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause.Error()
	}
	return "a signal (SIGTERM or SIGINT)"
}

// stdio is the server's end of a stdio connection: it reads stdin and
// writes stdout; Close closes stdin (ending a read in progress) and stdout.
type stdio struct {
	r    io.Reader
	w    io.Writer
	once sync.Once
}

func (s *stdio) Read(p []byte) (int, error)  { return s.r.Read(p) }
func (s *stdio) Write(p []byte) (int, error) { return s.w.Write(p) }
func (s *stdio) Close() error {
	s.once.Do(func() {
		for _, c := range []any{s.r, s.w} {
			if c, ok := c.(io.Closer); ok {
				_ = c.Close()
			}
		}
	})
	return nil
}

// pump returns a reader of r whose Close ends a Read in progress: a read
// of os.Stdin in blocking mode cannot be interrupted by closing it, so a
// goroutine reads r (and is left behind, blocked, when the process exits).
func pump(r io.Reader) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, r)
		_ = pw.CloseWithError(err)
	}()
	return pr
}

// firstByte is a reader that notes when its first byte came.
type firstByte struct {
	r     io.Reader
	mu    sync.Mutex
	first time.Time
}

func (f *firstByte) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if n > 0 {
		f.mu.Lock()
		if f.first.IsZero() {
			f.first = time.Now()
		}
		f.mu.Unlock()
	}
	return n, err
}

func (f *firstByte) Close() error {
	if c, ok := f.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// since is how long ago the first byte came (0 if none came).
func (f *firstByte) since() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.first.IsZero() {
		return 0
	}
	return time.Since(f.first)
}
