package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/tour"
)

const tourSynopsis = "[LESSON|SCENARIO]... -- CMD ARGS..."

// tourCmd runs the teaching tour (package scenarios/tour, the same tour as
// go run ./examples/handshake) with the client program CMD in the role the
// official Go SDK plays there: the client-side lessons use the tour's naive
// hand-written clients, the server-side lessons and the rest of the
// catalog use CMD, started for each scenario as mcpmock run starts it.
func tourCmd(args []string, stdout, stderr io.Writer) error {
	var names, command []string
	if i := slices.Index(args, "--"); i >= 0 {
		names, command = args[:i], args[i+1:]
	} else {
		names = args
	}
	fs := newFlags("tour", tourSynopsis, stderr)
	logFile := fs.String("log", "", "write the client's output and the mock's problems to this file (default: stderr)")
	name := fs.String("name", "", "the client's name in the verdicts (default: the command)")
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
		fmt.Fprintf(stdout, "usage: mcpmock tour %s\n\n", tourSynopsis)
		fmt.Fprintf(stdout, "The tour shows a client meeting each classic server mistake, with the wire\n"+
			"transcript, a sequence diagram and the verdict. Name your MCP client program after\n"+
			"--: it is started for each scenario, as mcpmock run starts it (its server command\n"+
			"is in MCPMOCK_SERVER_COMMAND). To see the official Go SDK take the tour, in a clone\n"+
			"of github.com/mcpmock/mcpmock: go run ./examples/handshake\n\n")
		tour.Tour{}.Usage(stdout)
		return usagef("no client command after --")
	}
	clientName := *name
	if clientName == "" {
		clientName = "the client " + strings.Join(command, " ")
	}
	opts := runOptions{command: command, deviations: map[string]string{}, startup: 60 * time.Second, log: logw, stderrLines: 5}
	t := tour.Tour{Log: logw, Client: tour.Client{
		Name: clientName,
		Run: func(ctx context.Context, ep *scenarios.Endpoint, s scenarios.Scenario, say func(string, ...any)) error {
			return tourRun(ctx, ep, s, say, opts)
		},
		Skip: map[string]string{
			"wrong-id-type":     "a client that gives up on a call sends notifications/cancelled while the session closes: the transcript differs from run to run",
			"slow-tool-timeout": "a client that gives up on a call sends notifications/cancelled while the session closes: the transcript differs from run to run",
		},
	}}
	return t.Run(stdout, names...)
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
	err = c.serve(ctx, ep.Dial, ep.URL)
	if err != nil {
		say("it exited with an error: %v", err)
	} else {
		say("it exited with status 0")
	}
	return err
}
