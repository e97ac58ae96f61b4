package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"
	"github.com/mcpmock/mcpmock/config"
	"github.com/mcpmock/mcpmock/internal/safefile"
	"github.com/mcpmock/mcpmock/internal/suggest"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// The environment of a client program under mcpmock run.
const (
	// envServerCommand is the command line (words separated by spaces,
	// quoted as a POSIX shell does where needed) that starts the client's
	// stdio server.
	envServerCommand = "MCPMOCK_SERVER_COMMAND"
	// envServerArgv is the same command as a JSON array of strings.
	envServerArgv = "MCPMOCK_SERVER_ARGV"
	// envURL is the mock's Streamable HTTP endpoint (with --http); it is
	// also the client's last argument.
	envURL = "MCPMOCK_URL"
	// envScenario names the scenario being played.
	envScenario = "MCPMOCK_SCENARIO"
	// envConformanceScenario and envConformanceContext are the official
	// conformance suite's names for the scenario and for what the client
	// is given besides the URL (JSON: the scenario's name and its
	// ClientContext), so a client written for the suite runs unchanged.
	envConformanceScenario = "MCP_CONFORMANCE_SCENARIO"
	envConformanceContext  = "MCP_CONFORMANCE_CONTEXT"
	// envDeadline is how long the client has, in milliseconds from its
	// first byte, before the runner considers its time up; a client
	// should give up on calls (and cancel them) within it.
	envDeadline = "MCPMOCK_DEADLINE_MS"
)

// runOptions are mcpmock run's flags.
type runOptions struct {
	command     []string
	http        bool
	deviations  map[string]string
	startup     time.Duration
	log         io.Writer
	stderrLines int
	config      *config.Config
	auth        authFlag
	html        *htmlRun              // --html: the journals, for the page
	warn        []scenarios.BasisKind // --warn: the bases whose fails are warnings
}

// needsHTTP reports whether s can apply only to a client of the
// Streamable HTTP transport: an http-* or auth/ scenario.
func needsHTTP(s scenarios.Scenario) bool {
	return isAuth(s.Name) || slices.ContainsFunc(scenarios.HTTP(), func(h scenarios.Scenario) bool { return h.Name == s.Name })
}

// authFor reports whether --auth or --auth-client put the server of s
// behind OAuth: every scenario's but an auth/ one's, which arranges its own.
func (opts runOptions) authFor(s scenarios.Scenario) bool {
	return opts.auth.enabled() && !isAuth(s.Name)
}

// clientContext is what the program playing s gets in
// MCP_CONFORMANCE_CONTEXT (with its name): the scenario's ClientContext,
// else --auth-client's credentials where authFor puts them in force.
func (opts runOptions) clientContext(s scenarios.Scenario) map[string]string {
	if s.ClientContext != nil || !opts.authFor(s) {
		return s.ClientContext
	}
	return opts.auth.clientContext()
}

func runCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", runSynopsis, stderr)
	var only, deviations, bugIDs multi
	fs.Var(&only, "scenario", "play only the scenario `NAME` (repeatable; default: the whole catalog; mcpmock list shows it)")
	fs.Var(&bugIDs, "bug", "play the documented client bug `ID` instead of the scenarios (repeatable; mcpmock list --bugs shows them)")
	httpMode := fs.Bool("http", false, "serve Streamable HTTP: the URL is the client's last argument and MCPMOCK_URL")
	jsonFile := fs.String("json", "", "write the report to `FILE` as JSON")
	junitFile := fs.String("junit", "", "write the report to `FILE` as JUnit XML")
	htmlFile := fs.String("html", "", "write the report to `FILE` as one self-contained HTML page: the verdict table, each scenario's journal drawn as a sequence diagram")
	fs.Var(&deviations, "known-deviation", "`NAME=why`: the client fails scenario NAME today, for the reason why (repeatable); it then passes as a known deviation, and fails once the client stops deviating")
	logFile := fs.String("log", "", "write the mock's and the client's logs to `FILE` (default: stderr)")
	configFile := fs.String("config", "", "start every scenario from the server the JSON file `FILE` describes instead of GiftGen (the scenarios then judge whatever the client calls)")
	authOn := fs.Bool("auth", false, "with --http: every scenario's server requires OAuth (the mock's authorization server, oauth.Options' defaults), for scenarios without authorization of their own")
	authClient := fs.String("auth-client", "", "with --http: like --auth, with the client `ID:SECRET` pre-registered and handed to the client in MCP_CONFORMANCE_CONTEXT, as the conformance suite does")
	warn := fs.String("warn", "", "treat a failed scenario whose basis is `KINDS` as a warning, not a failure (the exit status follows): should, robustness, or should,robustness; a broken MUST always fails")
	startup := fs.Duration("startup-timeout", 60*time.Second, "how long the client may take to start and send its first byte (a `DURATION` such as 90s)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no client command: write it after --, e.g. mcpmock run -- node client.mjs")
	}
	if err := canStart(fs.Arg(0)); err != nil {
		return err
	}
	opts := runOptions{command: fs.Args(), http: *httpMode, deviations: map[string]string{}, startup: *startup, stderrLines: 20,
		auth: authFlag{on: *authOn, client: *authClient}, html: newHTMLRun(*htmlFile)}
	if err := opts.auth.check(opts.http); err != nil {
		return err
	}
	if opts.auth.enabled() {
		for _, n := range only {
			if scenarios.IsAuth(n) {
				return usagef("--scenario %s brings its own authorization: leave out --auth and --auth-client", n)
			}
		}
	}
	for _, k := range strings.FieldsFunc(*warn, func(r rune) bool { return r == ',' || r == ' ' }) {
		switch strings.ToLower(k) {
		case "should":
			opts.warn = append(opts.warn, scenarios.Should)
		case "robustness":
			opts.warn = append(opts.warn, scenarios.Robustness)
		case "must":
			return usagef("--warn %s: a broken MUST is a spec violation and always fails; --warn takes should and robustness", k)
		default:
			return usagef("--warn %q: want should, robustness, or should,robustness", k)
		}
	}
	for _, d := range deviations {
		name, why, ok := strings.Cut(d, "=")
		if !ok || name == "" || why == "" {
			return usagef("--known-deviation %q: write NAME=why, e.g. --known-deviation 'tools-list-changed=the app registers no list_changed handler'", d)
		}
		opts.deviations[name] = why
	}
	var unknown []string
	for _, n := range only {
		unknown = append(unknown, unknownScenario("--scenario", n)...)
	}
	for _, n := range keys(opts.deviations) {
		if !isBug(n, bugIDs) {
			unknown = append(unknown, unknownScenario("--known-deviation", n)...)
		}
	}
	if len(unknown) > 0 {
		return usagef("%s (mcpmock list shows the catalog)", strings.Join(unknown, "; "))
	}
	if *configFile != "" {
		c, err := config.Load(*configFile)
		if err != nil {
			return &usageError{"--config " + *configFile + ":\n" + err.Error()}
		}
		opts.config = c
	}
	logw, closeLog, err := openLog(*logFile, stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	opts.log = logw

	plays, err := playList(only, bugIDs, *httpMode)
	if err != nil {
		return err
	}
	rep := &scenarios.Report{}
	var needHTTP []string // scenarios not played: they need --http
	for _, s := range plays {
		rep.Results = append(rep.Results, runScenario(s, opts))
		if !opts.http && needsHTTP(s) {
			needHTTP = append(needHTTP, s.Name)
		}
	}
	fmt.Fprint(stdout, table(rep, needHTTP))
	if *jsonFile != "" {
		b, err := rep.JSON()
		if err == nil {
			err = safefile.Replace(*jsonFile, append(b, '\n'))
		}
		if err != nil {
			return fmt.Errorf("--json: %v", err)
		}
	}
	if *junitFile != "" {
		if err := safefile.Replace(*junitFile, junit(rep, opts.command)); err != nil {
			return fmt.Errorf("--junit: %v", err)
		}
	}
	if err := opts.html.write(rep, opts.command); err != nil {
		return err
	}
	for _, r := range rep.Results {
		if r.Status.Failed() {
			return errVerdict
		}
	}
	return nil
}

// table is the run's report as the command prints it: the table of the
// scenarios played (the not-played ones summed up in one line: without
// --http the http-* and auth/ scenarios are not applicable, and 35 rows
// saying so would bury the rest), then the counts of all.
func table(rep *scenarios.Report, needHTTP []string) string {
	if len(needHTTP) == 0 {
		return rep.Table()
	}
	played := &scenarios.Report{}
	for _, r := range rep.Results {
		if !slices.Contains(needHTTP, r.Scenario) {
			played.Results = append(played.Results, r)
		}
	}
	auth := 0
	for _, n := range needHTTP {
		if isAuth(n) {
			auth++
		}
	}
	var b strings.Builder
	if len(played.Results) > 0 {
		tab := played.Table()
		b.WriteString(tab[:strings.LastIndex(strings.TrimSuffix(tab, "\n"), "\n")+1]) // without its counts
	}
	fmt.Fprintf(&b, "not played: %s about Streamable HTTP (%d auth/, %d http-),\n  not applicable over stdio; mcpmock run --http plays them\n",
		plural(len(needHTTP), "scenario", "scenarios"), auth, len(needHTTP)-auth)
	b.WriteString(rep.Summary())
	b.WriteByte('\n')
	return b.String()
}

// canStart checks, before any scenario, that the client program can be
// started at all: a program that cannot is a mistake on the command line,
// not a client that fails every scenario.
func canStart(program string) error {
	if _, err := exec.LookPath(program); err != nil {
		why := err
		var ee *exec.Error
		if errors.As(err, &ee) {
			why = ee.Err
		}
		var pe *fs.PathError
		if errors.As(why, &pe) {
			why = pe.Err
		}
		return usagef("the client program %q cannot be started: %v (after -- comes the client's command line: a program on PATH, or the path to an executable file, then its arguments)", program, why)
	}
	return nil
}

// unknownScenario says, when name is not in the catalog, that the flag
// names no scenario, and the nearest one: `--scenario "wrong-id": no
// scenario named "wrong-id"; did you mean "wrong-id-type"?`.
func unknownScenario(flag, name string) []string {
	if _, ok := scenarios.Lookup(name); ok {
		return nil
	}
	return []string{fmt.Sprintf("%s %q: no scenario named %q%s", flag, name, name, suggest.DidYouMean(name, scenarios.Names()))}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// runScenario plays one scenario with the client program and returns its
// result.
func runScenario(s scenarios.Scenario, opts runOptions) scenarios.Result {
	if !opts.http && needsHTTP(s) {
		// Over stdio the program is given no URL: such a play could only
		// end "never asked for the URL", so the program is not started.
		fmt.Fprintf(opts.log, "mcpmock run: scenario %s: not played: it needs --http\n", s.Name)
		about := "Streamable HTTP"
		if isAuth(s.Name) {
			about = "authorization over Streamable HTTP"
		}
		r := scenarios.Result{Scenario: s.Name, Spec: s.Spec, Expected: s.Expect.Description, DecisionPoint: s.Expect.DecisionPoint, Status: scenarios.NotApplicable,
			Observed: "not played: without --http the client is served over stdio and given no URL, and this scenario is about " + about + " (run with --http to play it)"}
		if why, ok := opts.deviations[s.Name]; ok {
			r.Why = "--known-deviation " + shellJoin([]string{s.Name + "=" + why}) + " was given, but the scenario does not apply to this client"
		}
		return r
	}
	fmt.Fprintf(opts.log, "mcpmock run: scenario %s: starting %s\n", s.Name, strings.Join(opts.command, " "))
	c, err := startClient(s, opts)
	if err != nil {
		return scenarios.Result{Scenario: s.Name, Spec: s.Spec, Expected: s.Expect.Description, Status: scenarios.Fail,
			Observed: "the client command did not start: " + err.Error()}
	}
	defer c.stop()

	var res scenarios.Result
	p := mcptest.NewProgramTB(s.Name, opts.log)
	runErr := p.Run(func(t mcptest.TB) {
		evalOpts := []scenarios.Option{scenarios.Warn(opts.warn...)}
		if why, ok := opts.deviations[s.Name]; ok {
			evalOpts = append(evalOpts, scenarios.KnownDeviation(s.Name, why))
		}
		withAuth := opts.authFor(s)
		if opts.config != nil || withAuth {
			evalOpts = append(evalOpts, scenarios.WithServer(func(t mcptest.TB) *mcptest.Server {
				base := scenarios.GiftGen(t)
				if opts.config != nil {
					base = opts.config.NewServer(t)
				}
				if withAuth {
					base = opts.auth.apply(base)
				}
				return base
			}))
		}
		o := s.Play(t, c.connect, evalOpts...)
		res = inCommandWords(s.Evaluate(o, evalOpts...), opts)
		opts.html.keep(s.Name, o.Server)
	})
	if res.Scenario == "" {
		res = scenarios.Result{Scenario: s.Name, Spec: s.Spec, Expected: s.Expect.Description, Status: scenarios.Fail,
			Observed: fmt.Sprintf("the scenario could not be played: %v", runErr)}
	}
	fmt.Fprintf(opts.log, "mcpmock run: scenario %s: %s\n", s.Name, res)
	return res
}

// processWords says of a client program what the scenarios package says
// of a Go ConnectFunc: a program's result is its exit status.
var processWords = strings.NewReplacer(
	connectReturnedNil, "the client exited with status 0",
	"connect returns nil", "the client exits with status 0",
	"connect returns an error", "the client exits with a non-zero status",
	"connect returned error", "the client ended with error",
	"connect returns", "the client exits",
	"connect returned", "the client ended with",
)

// inCommandWords rewrites what the scenarios package words for Go code in
// the command's words: a ConnectFunc that returned nil is a client that
// exited with status 0, and a note about a declared deviation
// (KnownDeviation(…)) names --known-deviation NAME=why.
func inCommandWords(r scenarios.Result, opts runOptions) scenarios.Result {
	r.Expected, r.Observed = processWords.Replace(r.Expected), processWords.Replace(r.Observed)
	why, declared := opts.deviations[r.Scenario]
	if !declared || !strings.HasPrefix(r.Why, "KnownDeviation(") {
		return r
	}
	flag := "--known-deviation " + shellJoin([]string{r.Scenario + "=" + why})
	switch r.Status {
	case scenarios.Fail:
		r.Why = flag + " was given, but the client now does what a correct client does: remove it"
	case scenarios.NotReached:
		r.Why = flag + " does not cover a scenario the client never reaches: make the client reach it, or leave the scenario out (name the others with --scenario)"
	case scenarios.NotApplicable:
		r.Why = flag + " was given, but the scenario does not apply to this client"
	}
	return r
}

// client is one run of the client program for a scenario.
type client struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has exited
	err    error         // its exit, once exited is closed
	stderr *tailBuffer
	ln     net.Listener
	conns  <-chan *relayConn
	first  *relayConn // the first connection, once the client sent its first byte
	front  *httpFront // with --http: the client's URL
	setup  error      // why the client never connected, if it did not
	opts   runOptions
}

// startClient starts the client program, with its server command in the
// environment, and waits until its first byte reaches the mock (or it
// exits, or the start-up timeout ends): the scenario's deadline counts
// from that byte, so the client's start-up does not eat it.
func startClient(s scenarios.Scenario, opts runOptions) (*client, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	token := uuid.NewString()
	self, err := os.Executable()
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	argv := []string{self, relayCommand, ln.Addr().String(), token}
	argvJSON, _ := json.Marshal(argv)
	env := append(os.Environ(),
		envServerCommand+"="+shellJoin(argv),
		envServerArgv+"="+string(argvJSON),
		envScenario+"="+s.Name,
		envConformanceScenario+"="+s.Name,
		fmt.Sprintf("%s=%d", envDeadline, scenarioDeadline(s).Milliseconds()),
	)
	if cc := opts.clientContext(s); cc != nil {
		c := map[string]string{"name": s.Name}
		maps.Copy(c, cc)
		b, _ := json.Marshal(c)
		env = append(env, envConformanceContext+"="+string(b))
	}
	args := opts.command[1:]
	var front *httpFront
	if opts.http {
		front, err = newHTTPFront(opts.log)
		if err != nil {
			_ = ln.Close()
			return nil, err
		}
		args = append(slices.Clone(args), front.url)
		env = append(env, envURL+"="+front.url)
	}
	cmd := exec.Command(opts.command[0], args...)
	cmd.Env = env
	c := &client{cmd: cmd, exited: make(chan struct{}), stderr: &tailBuffer{max: 64 << 10}, ln: ln, front: front, opts: opts}
	prefix := &prefixWriter{w: opts.log, prefix: "client[" + s.Name + "]: "}
	cmd.Stdout = prefix
	cmd.Stderr = io.MultiWriter(prefix, c.stderr)
	cmd.Stdin = nil // /dev/null
	if err := cmd.Start(); err != nil {
		_ = ln.Close()
		if front != nil {
			front.close()
		}
		return nil, err
	}
	go func() {
		c.err = cmd.Wait()
		close(c.exited)
	}()
	c.conns = acceptRelays(ln, token)
	var arrived <-chan struct{}
	if front != nil {
		arrived = front.arrived
	}
	timer := time.NewTimer(opts.startup)
	defer timer.Stop()
	select {
	case c.first = <-c.conns:
	case <-arrived:
	case <-c.exited:
		c.setup = fmt.Errorf("the client exited (%s) without starting its server from %s", exitText(c.err), envServerCommand)
		if tail := c.stderr.lastLines(opts.stderrLines); tail != "" {
			c.setup = fmt.Errorf("%w; its stderr ends with:\n%s", c.setup, tail)
		}
	case <-timer.C:
		c.setup = fmt.Errorf("the client sent nothing to its server within %v of its start (--startup-timeout)", opts.startup)
	}
	return c, nil
}

// connect is the scenario's ConnectFunc: it carries each session the
// client opens (each time it starts its server) between the relay and a
// new session of the mock, and returns when the client exits. When ctx
// ends the client gets a moment to finish on its own (it knows its
// deadline from MCPMOCK_DEADLINE_MS), then SIGTERM, then SIGKILL.
func (c *client) connect(ctx context.Context, ep *scenarios.Endpoint) error {
	return c.serve(ctx, ep.Open, ep.URL)
}

// serve carries the client's sessions to connections from dial until the
// client exits; see connect.
func (c *client) serve(ctx context.Context, dial func() (net.Conn, error), urlOf func() string) error {
	if c.setup != nil {
		c.kill()
		return c.setup
	}
	if c.first == nil { // an HTTP client: its requests go to the play's server
		u := urlOf()
		if u == "" {
			c.kill()
			return fmt.Errorf("mcpmock run --http: this build's scenarios do not serve Streamable HTTP (Endpoint.URL is empty)")
		}
		c.front.begin(u)
		return c.await(ctx)
	}
	var wg sync.WaitGroup
	carry := func(rc *relayConn) {
		conn, err := dial()
		if err != nil {
			fmt.Fprintf(c.opts.log, "mcpmock run: the client started its server again, but %v\n", err)
			_ = rc.Close()
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			bridge(rc, conn)
		}()
	}
	carry(c.first)
	stopAccepting := make(chan struct{})
	accepting := make(chan struct{})
	go func() {
		defer close(accepting)
		for {
			select {
			case rc, ok := <-c.conns:
				if !ok {
					return
				}
				carry(rc)
			case <-stopAccepting:
				return
			}
		}
	}()
	err := c.await(ctx)
	close(stopAccepting)
	<-accepting
	// The client is gone: its relays end with it, and their bridges close
	// the mock's ends.
	wg.Wait()
	return err
}

// await waits until the client exits; when ctx ends first it gets a
// moment to finish on its own, then SIGTERM, then SIGKILL. It returns the
// client's result.
func (c *client) await(ctx context.Context) error {
	select {
	case <-c.exited:
	case <-ctx.Done():
		c.wait(1500*time.Millisecond, syscall.SIGTERM)
		c.wait(time.Second, syscall.SIGKILL)
		<-c.exited
	}
	return c.exitError()
}

// wait waits up to d for the client to exit, then sends it sig.
func (c *client) wait(d time.Duration, sig syscall.Signal) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.exited:
	case <-t.C:
		_ = c.cmd.Process.Signal(sig)
	}
}

func (c *client) kill() {
	select {
	case <-c.exited:
	default:
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
}

// exitText words a program's result: "exit status 0", or the error
// ("exit status 3", "signal: killed").
func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// exitError is the client's result as a ConnectFunc's error: nil for exit
// status 0, otherwise the status and the end of its stderr (where a
// client says why it gave up).
func (c *client) exitError() error {
	if c.err == nil {
		return nil
	}
	tail := c.stderr.lastLines(c.opts.stderrLines)
	if tail == "" {
		return fmt.Errorf("the client exited: %v", c.err)
	}
	return fmt.Errorf("the client exited: %v; its stderr ends with:\n%s", c.err, tail)
}

func (c *client) stop() {
	_ = c.ln.Close()
	c.kill()
	if c.front != nil {
		c.front.close()
	}
	for rc := range c.conns {
		_ = rc.Close()
	}
}

// shellJoin quotes words as a POSIX shell would need them, so that the
// line can be split on spaces when no word needs quotes.
func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r == '=' || r == '+' || r == ',' ||
				r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) < 0 {
			q[i] = a
			continue
		}
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) lastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(t.b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// prefixWriter writes each line with a prefix.
type prefixWriter struct {
	mu      sync.Mutex
	w       io.Writer
	prefix  string
	partial []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			break
		}
		_, _ = fmt.Fprintf(p.w, "%s%s\n", p.prefix, p.partial[:i])
		p.partial = p.partial[i+1:]
	}
	return len(b), nil
}

// junit renders the report as JUnit XML: one testcase per scenario; a
// failure for fail and not-reached, skipped for not-applicable, a pass
// with a note for a known deviation.
func junit(rep *scenarios.Report, command []string) []byte {
	type failure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type skipped struct {
		Message string `xml:"message,attr"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Time      string   `xml:"time,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Skipped   *skipped `xml:"skipped,omitempty"`
		SystemOut string   `xml:"system-out,omitempty"`
	}
	type testsuite struct {
		XMLName  xml.Name   `xml:"testsuite"`
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Time     string     `xml:"time,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	suite := testsuite{Name: "mcpmock scenarios: " + strings.Join(command, " ")}
	var total int64
	for _, r := range rep.Results {
		total += r.ElapsedMS
		tc := testcase{Name: r.Scenario, Classname: "mcpmock.scenarios", Time: seconds(r.ElapsedMS)}
		text := fmt.Sprintf("spec: %s\nwant: %s\ngot:  %s\n", r.Spec, r.Expected, r.Observed)
		if r.Basis != (scenarios.Basis{}) {
			text += "basis: " + r.Basis.String() + "\n"
		}
		switch {
		case r.Status == scenarios.Deviation:
			tc.SystemOut = "known deviation: " + r.Why + "\n" + text
		case r.Status == scenarios.Warning:
			tc.SystemOut = "warning (--warn " + strings.ToLower(string(r.Basis.Kind())) + "): " + r.Observed + "\n" + text + "\n" + r.Transcript
		case r.Status.Failed(): // fail, not reached
			suite.Failures++
			if r.Why != "" {
				text += "note: " + r.Why + "\n"
			}
			typ := string(r.Status) // not-reached, or fail with its basis: fail (MUST), fail (robustness)
			if r.Status == scenarios.Fail && r.Basis != (scenarios.Basis{}) {
				typ += " (" + string(r.Basis.Kind()) + ")"
			}
			tc.Failure = &failure{Message: r.Observed, Type: typ, Text: text + "\n" + r.Transcript}
		case r.Status == scenarios.NotApplicable:
			suite.Skipped++
			tc.Skipped = &skipped{Message: r.Observed}
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Tests = len(suite.Cases)
	suite.Time = seconds(total)
	b, _ := xml.MarshalIndent(suite, "", "  ")
	return append([]byte(xml.Header), append(b, '\n')...)
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }
