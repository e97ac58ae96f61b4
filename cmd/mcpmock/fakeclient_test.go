package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// fakeClient is a client program for mcpmock run's tests: the test binary
// itself, started with MCPMOCK_TEST_CLIENT set to a mode. It is a small
// hand-written stdio client: it spawns the server of MCPMOCK_SERVER_ARGV,
// initializes, lists the tools, calls suggest_gifts {"age":25} (giving up
// and cancelling at 70% of MCPMOCK_DEADLINE_MS) and exits 0, or 1 with the
// reason on stderr. (The real clients that run it are the TypeScript SDK,
// in .ci/run, and the official Go SDK, in ./integration.)
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
	timeout := time.Duration(deadline) * time.Millisecond * 7 / 10
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "fake client: cannot start the server: %v\n", err)
		return 1
	}
	c := &rawClient{w: in, lines: make(chan string, 64), byNumber: mode == "by-number"}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	err := c.work(timeout)
	_ = in.Close()
	_ = cmd.Wait()
	if err != nil {
		fmt.Fprintf(os.Stderr, "fake client: %v\n", err)
		return 1
	}
	return 0
}

type rawClient struct {
	w        io.Writer
	lines    chan string
	id       int
	byNumber bool
}

func (c *rawClient) send(format string, args ...any) {
	fmt.Fprintf(c.w, format+"\n", args...)
}

// call sends a request and waits for its reply, skipping what is not.
func (c *rawClient) call(method, params string, timeout time.Duration) (gjson.Result, error) {
	c.id++
	id := c.id
	c.send(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return gjson.Result{}, fmt.Errorf("%s: the server closed the connection (end of file)", method)
			}
			if !gjson.Valid(line) {
				continue // a banner or a log line: not ours
			}
			m := gjson.Parse(line)
			if m.Get("method").Exists() {
				if m.Get("id").Exists() { // a request from the server: we have no capability for it
					c.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"not supported"}}`, m.Get("id").Raw)
				}
				continue
			}
			got := m.Get("id")
			match := got.Type == gjson.Number && got.Int() == int64(id)
			if c.byNumber {
				match = got.Int() == int64(id) || got.String() == strconv.Itoa(id)
			}
			if !match {
				continue
			}
			if e := m.Get("error"); e.Exists() {
				return m, fmt.Errorf("%s: error %d: %s", method, e.Get("code").Int(), e.Get("message").String())
			}
			return m, nil
		case <-timer.C:
			c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"timeout"}}`, id)
			return gjson.Result{}, fmt.Errorf("%s: no reply within %v", method, timeout)
		}
	}
}

func (c *rawClient) work(timeout time.Duration) error {
	init, err := c.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fake-client","version":"1.0.0"}}`, timeout)
	if err != nil {
		return err
	}
	v := init.Get("result.protocolVersion").String()
	if !strings.HasPrefix(v, "2025-") && v != "2024-11-05" {
		return fmt.Errorf("unsupported protocol version %q", v)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if !init.Get("result.capabilities.tools").Exists() {
		return nil // no tools: nothing to do
	}
	if _, err := c.call("tools/list", `{}`, timeout); err != nil {
		return err
	}
	res, err := c.call("tools/call", `{"name":"suggest_gifts","arguments":{"age":25}}`, timeout)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "fake client: suggest_gifts: %s\n", res.Get("result.content.0.text").String())
	return nil
}
