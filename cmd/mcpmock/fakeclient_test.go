package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"
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
// number, as the TypeScript SDK 1.32 does (so "3" answers 3);
// "slow-start" is careful after a start-up of 2.5 s; "no-server" exits 3
// without starting its server.
func fakeClient(mode string) int {
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
	c := newRefClient(out, in, func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "fake client: "+format+"\n", args...)
	})
	c.byNumber = mode == "by-number"
	ctx, cancel := context.WithTimeout(context.Background(), callDeadline(time.Duration(deadline)*time.Millisecond))
	err := c.work(ctx)
	cancel()
	_ = in.Close()
	go func() {
		for range c.lines { // let the server's last messages go
		}
	}()
	_ = cmd.Wait()
	if err != nil {
		fmt.Fprintf(os.Stderr, "fake client: %v\n", err)
		return 1
	}
	return 0
}
