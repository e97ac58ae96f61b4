package main

import (
	"context"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/tour"
)

const tourSynopsis = "[--log FILE] [--name NAME] [--html DIR] [LESSON|SCENARIO]... [-- CMD ARGS...]"

// refClientName names the reference client (refclient.go) in the tour.
const refClientName = "the built-in reference client (cmd/mcpmock)"

// tourCmd runs the teaching tour (package scenarios/tour, the same tour as
// go run ./examples/handshake) with the client program CMD in the role the
// official Go SDK plays there: the client-side lessons use the tour's naive
// hand-written clients, the server-side lessons and the rest of the
// catalog use CMD, started for each scenario as mcpmock run starts it.
// Without CMD, the reference client (refclient.go) plays that role.
//
// The exit status is run's: 1 when a verdict failed (the client played,
// CMD's or the reference client's, failed a scenario or did not reach its
// decision point; or the mock did not catch a naive client's mistake),
// with the failures named on stderr; 0 otherwise. The reference client is
// meant to pass every scenario that applies to it, so a plain
// `mcpmock tour` exits 0.
func tourCmd(args []string, stdout, stderr io.Writer) error {
	var names, command []string
	if i := slices.Index(args, "--"); i >= 0 {
		names, command = args[:i], args[i+1:]
	} else {
		names = args
	}
	fs := newFlags("tour", tourSynopsis, stderr)
	logFile := fs.String("log", "", "write the client's output and the mock's problems to `FILE` (default: stderr)")
	htmlDir := fs.String("html", "", "also write the tour to the directory `DIR` as HTML pages: one per mistake (in Spanish and English), index.html")
	name := fs.String("name", "", "call the client `NAME` in the verdicts (default: \"your client (CMD)\", or \""+refClientName+"\")")
	flagsUsage := fs.Usage
	fs.Usage = func() { // the flags, then what can be named
		flagsUsage()
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, wrapText("Exit status: 1 when a verdict failed (the client, CMD or without it the built-in reference client, "+
			"failed a scenario or did not reach its decision point, or the mock missed a naive client's mistake), as with run; "+
			"2 for a mistake on the command line; 0 otherwise."))
		fmt.Fprintln(stderr)
		skip := map[string]string(nil)
		if len(command) > 0 {
			skip = commandTourSkip
		}
		tour.Tour{Client: tour.Client{Skip: skip}}.Usage(stderr)
	}
	if err := parseFlags(fs, names); err != nil {
		return err
	}
	names = fs.Args()
	logw, closeLog, err := openLog(*logFile, stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	if len(command) == 0 {
		clientName := *name
		if clientName == "" {
			clientName = refClientName
		}
		t := tour.Tour{Log: logw, HTMLDir: *htmlDir, Client: tour.Client{Name: clientName, Run: refTourRun}}
		if len(names) == 0 {
			fmt.Fprintf(stdout, "%s\n\n", wrapText("The tour with mcpmock's built-in reference client, a small hand-written client that does what the scenarios call correct. "+
				"Give it your own client program after -- (mcpmock tour -- node my-client.mjs) to see what yours does; "+
				"in a clone of github.com/mcpmock/mcpmock, go run ./examples/handshake shows the official Go SDK's."))
		}
		verdicts, err := t.Play(stdout, names...)
		return tourVerdicts(verdicts, err, stderr)
	}
	clientName := *name
	if clientName == "" {
		clientName = "your client (" + strings.Join(command, " ") + ")"
	}
	opts := runOptions{command: command, deviations: map[string]string{}, startup: 60 * time.Second, log: logw, stderrLines: 5}
	t := tour.Tour{Log: logw, HTMLDir: *htmlDir, Client: tour.Client{
		Name: clientName,
		Run: func(ctx context.Context, ep *scenarios.Endpoint, s scenarios.Scenario, say func(string, ...any)) error {
			return tourRun(ctx, ep, s, say, opts)
		},
		Skip: commandTourSkip,
	}}
	verdicts, err := t.Play(stdout, names...)
	return tourVerdicts(verdicts, err, stderr)
}

// tourVerdicts turns what the tour played into the command's result: its
// error (tourResult), else errVerdict (exit 1) after naming on stderr each
// failed verdict, else nil.
func tourVerdicts(verdicts []tour.Verdict, err error, stderr io.Writer) error {
	if err != nil {
		return tourResult(err)
	}
	var failed []string
	for _, v := range verdicts {
		if v.Failed() {
			what := string(v.Status)
			if v.Naive {
				what = "its mistake not caught"
			}
			failed = append(failed, fmt.Sprintf("%s: %s (%s)", v.Scenario, v.Client, what))
		}
	}
	if len(failed) == 0 {
		return nil
	}
	fmt.Fprintf(stderr, "mcpmock tour: %d of %d verdicts failed:\n", len(failed), len(verdicts))
	for _, f := range failed {
		fmt.Fprintf(stderr, "  %s\n", f)
	}
	return errVerdict
}

// commandTourSkip are the scenarios the whole tour leaves out with a
// client program, and why.
var commandTourSkip = map[string]string{
	"wrong-id-type":     "a client that gives up on a call sends notifications/cancelled while the session closes: the transcript differs from run to run",
	"slow-tool-timeout": "a client that gives up on a call sends notifications/cancelled while the session closes: the transcript differs from run to run",
}

// tourResult makes a name the tour does not know a usage error that
// points to the list of names.
func tourResult(err error) error {
	if err != nil && strings.HasPrefix(err.Error(), "no lesson or scenario named") {
		msg, _, _ := strings.Cut(err.Error(), " (the lessons are")
		return usagef("%s (mcpmock tour -h lists the lessons and the catalog)", msg)
	}
	return err
}

// refTourRun plays one scenario of the tour with the reference client, in
// process.
func refTourRun(ctx context.Context, ep *scenarios.Endpoint, s scenarios.Scenario, say func(string, ...any)) error {
	conn, err := ep.Open()
	if err != nil {
		return err
	}
	c := mcpclient.Pipe(conn, refOptions(say))
	defer c.Close()
	wctx, cancel := context.WithTimeout(ctx, callDeadline(scenarioDeadline(s)))
	defer cancel()
	return refWork(wctx, c)
}

// wrapText breaks a paragraph into lines of at most 80 columns.
func wrapText(p string) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(p) {
		if n > 0 && n+1+len(w) > 80 {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// tourRun plays one scenario of the tour with the client program, each
// server it starts a session of ep, and says what it did.
func tourRun(ctx context.Context, ep *scenarios.Endpoint, s scenarios.Scenario, say func(string, ...any), opts runOptions) error {
	say("mcpmock starts %s", strings.Join(opts.command, " "))
	c, err := startClient(s, opts)
	if err != nil {
		say("the command did not start: %v", err)
		return err
	}
	defer c.stop()
	err = c.serve(ctx, ep.Open, ep.URL)
	if err != nil {
		say("it exited with an error: %v", err)
	} else {
		say("it exited with status 0")
	}
	return err
}
