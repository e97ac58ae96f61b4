package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
)

// fakeClient is a client program for mcpmock run's tests: the test binary
// itself, started with MCPMOCK_TEST_CLIENT set to a mode. It is the
// reference client (refclient.go) as a stdio client program: it spawns the
// server of MCPMOCK_SERVER_ARGV, does its work within 70% of
// MCPMOCK_DEADLINE_MS and exits 0, or 1 with the reason on stderr. (The
// real clients mcpmock run judges are the TypeScript SDK's, in .ci/run,
// and the official Go SDK's, in ./integration.)
//
// Modes: "careful" matches reply ids exactly; "by-number" matches them by
// number, as the TypeScript SDK 1.32 does (so "3" answers 3, which
// wrong-id-type lets pass); "non-json-fatal" is careful but a line that is
// not JSON ends its read loop (it fails stdout-banner, a robustness
// scenario);
// "slow-start" is careful after a start-up of 2.5 s; "no-server" exits 3
// without starting its server; "oauth-probe" (run --http) prints the
// official suite's environment, then asks its URL (the last argument),
// reads the 401's resource_metadata, fetches that Protected Resource
// Metadata and says whether its resource is the URL it was given; it
// exits 1 (it does not authorize). "no-capability-check" is careful but
// lists and calls the tools although the server declared none (it fails
// mistake 3 of the tour, as the official Go SDK v1.8.0 does).
func fakeClient(mode string) int {
	if mode == "oauth-probe" {
		return oauthProbe()
	}
	if mode == "no-server" {
		fmt.Fprintln(os.Stderr, "fake client: I start no server")
		return 3
	}
	if mode == "slow-start" {
		time.Sleep(2500 * time.Millisecond) // a client's own start-up, not a synchronisation
	}
	var argv []string
	if err := json.Unmarshal([]byte(os.Getenv(envServerArgv)), &argv); err != nil || len(argv) == 0 {
		fmt.Fprintf(os.Stderr, "fake client: %s is not a JSON array of strings: %v\n", envServerArgv, err)
		return 1
	}
	deadline, _ := strconv.Atoi(os.Getenv(envDeadline))
	if deadline <= 0 {
		deadline = 2000
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "fake client: cannot start the server: %v\n", err)
		return 1
	}
	opt := refOptions(func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "fake client: "+format+"\n", args...)
	})
	opt.Bugs.LooseIDs = mode == "by-number"
	opt.Bugs.NonJSONFatal = mode == "non-json-fatal"
	opt.Bugs.IgnoreCapabilities = mode == "no-capability-check"
	c := mcpclient.Stdio(out, in, opt)
	ctx, cancel := context.WithTimeout(context.Background(), callDeadline(time.Duration(deadline)*time.Millisecond))
	err := refWork(ctx, c)
	cancel()
	_ = c.Close() // closes the server's stdin: it exits
	_ = cmd.Wait()
	if err != nil {
		fmt.Fprintf(os.Stderr, "fake client: %v\n", err)
		return 1
	}
	return 0
}

func oauthProbe() int {
	say := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "probe: "+format+"\n", args...) }
	target := os.Args[len(os.Args)-1]
	say("scenario=%s context=%s", os.Getenv(envConformanceScenario), os.Getenv(envConformanceContext))
	req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		say("initialize: %v", err)
		return 1
	}
	resp.Body.Close()
	rm := mcpclient.ParseChallenge(resp.Header.Get("WWW-Authenticate")).Param("resource_metadata")
	if resp.StatusCode != http.StatusUnauthorized || rm == "" {
		say("initialize: %s, WWW-Authenticate %q", resp.Status, resp.Header.Get("WWW-Authenticate"))
		return 1
	}
	resp, err = http.Get(rm)
	if err != nil {
		say("PRM: %v", err)
		return 1
	}
	defer resp.Body.Close()
	var prm struct{ Resource string }
	if err := json.NewDecoder(resp.Body).Decode(&prm); err != nil || resp.StatusCode != http.StatusOK {
		say("PRM %s: %s %v", rm, resp.Status, err)
		return 1
	}
	if prm.Resource != target {
		say("the PRM's resource %s is not the URL %s", prm.Resource, target)
		return 1
	}
	say("the PRM's resource is the URL it was given")
	return 1
}
