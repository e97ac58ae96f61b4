package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpmock/mcpmock/config"
)

const recordSynopsis = "--out FILE [--append] [--redact PATH]... (-- CMD ARGS... [--grace D] | --url URL [--listen ADDR])"

// recordCmd: mcpmock record. Over stdio it is the command a client spawns
// as its server: it starts the real server (CMD ARGS), relays both
// directions byte for byte, and writes the recording when the session
// ends; it exits with the real server's status. With --url it is a
// Streamable HTTP proxy to the real server (see recordHTTP).
func recordCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := recordRun(args, stdin, stdout, stderr)
	var ex *exitStatus
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ex):
		return ex.code
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "mcpmock record: %s\n", strings.TrimRight(ue.msg, "\n"))
		return exitUsage
	default:
		fmt.Fprintf(stderr, "mcpmock record: %v\n", err)
		return exitUsage
	}
}

// exitStatus is the real server's exit status, passed on.
type exitStatus struct{ code int }

func (e *exitStatus) Error() string { return fmt.Sprintf("the server exited with status %d", e.code) }

func recordRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("record", recordSynopsis, stderr)
	out := fs.String("out", "", "write the recording (a config file for serve --config) to `FILE` when the session ends")
	var redact multi
	fs.Var(&redact, "redact", "a JSON `PATH` into results (e.g. structuredContent.token, content.#.text) whose values are replaced with \"[REDACTED]\", or into arguments (arguments.apiKey: left out of the recorded case) (repeatable)")
	url := fs.String("url", "", "record the Streamable HTTP server at `URL`: clients connect to the loopback URL printed on stdout")
	listen := fs.String("listen", "127.0.0.1:0", "with --url: the loopback `ADDR` to listen on")
	appendTo := fs.Bool("append", false, "merge the session into --out if it exists (a client that spawns its server several times: one recording of every session)")
	grace := fs.Duration("grace", 5*time.Second, "stdio: how long the server may take (a `DURATION`) to exit once the client closed its stdin, before SIGTERM")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out FILE is required: where to write the recording")
	}
	rec := config.NewRecorder(redact...)
	if *url != "" {
		if fs.NArg() > 0 {
			return usagef("--url and a command are exclusive: record a server at a URL or one started by a command")
		}
		return recordHTTP(*url, *listen, recordOut{*out, *appendTo}, rec, stdout, stderr)
	}
	if fs.NArg() == 0 {
		return usagef("no server command: write it after --, e.g. mcpmock record --out rec.json -- node server.js")
	}
	return recordStdio(fs.Args(), recordOut{*out, *appendTo}, *grace, rec, stdin, stdout, stderr)
}

// lines splits a byte stream into lines for the recorder, keeping the
// last unfinished line.
type lines struct {
	buf  []byte
	emit func(line []byte)
}

func (l *lines) write(p []byte) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return
		}
		line := l.buf[:i]
		if len(bytes.TrimSpace(line)) > 0 {
			l.emit(bytes.Clone(line))
		}
		l.buf = l.buf[i+1:]
	}
}

// recordStdio runs the server command and relays between it and stdio.
func recordStdio(command []string, out recordOut, grace time.Duration, rec *config.Recorder, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = stderr
	toServer, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("cannot start the server %q: %v", command[0], err)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)

	var mu sync.Mutex // orders what the recorder sees with what is relayed
	clientLines := &lines{emit: func(b []byte) { rec.Message(1, true, b) }}
	serverLines := &lines{emit: func(b []byte) {
		if b = bytes.TrimRight(b, "\r"); isJSONish(b) {
			rec.Message(1, false, b)
		} else {
			rec.NonJSON(1, b)
		}
	}}

	clientDone := make(chan struct{})
	go func() {
		defer close(clientDone)
		buf := make([]byte, 64<<10)
		for {
			n, err := stdin.Read(buf)
			if n > 0 {
				// Record first: the server cannot answer what it has not read.
				mu.Lock()
				clientLines.write(buf[:n])
				mu.Unlock()
				if _, werr := toServer.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				_ = toServer.Close() // the client is done: so is the server's stdin
				return
			}
		}
	}()

	serverDone := make(chan struct{})
	go func() {
		defer close(serverDone)
		buf := make([]byte, 64<<10)
		for {
			n, err := fromServer.Read(buf)
			if n > 0 {
				mu.Lock()
				serverLines.write(buf[:n])
				mu.Unlock()
				_, _ = stdout.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()

	// The session ends when the server closes its stdout (or exits). If
	// the client closes first, the server gets its stdin closed and grace
	// to exit, then SIGTERM, then SIGKILL.
	var timer <-chan time.Time
	kills := 0
wait:
	for {
		select {
		case <-serverDone:
			break wait
		case s := <-sigs:
			_ = cmd.Process.Signal(s)
		case <-clientDone:
			clientDone = nil
			timer = time.After(grace)
		case <-timer:
			if kills == 0 {
				fmt.Fprintf(stderr, "mcpmock record: the server did not exit within %s of its stdin closing: sending SIGTERM\n", grace)
				_ = cmd.Process.Signal(syscall.SIGTERM)
			} else {
				_ = cmd.Process.Kill()
			}
			kills++
			timer = time.After(grace)
		}
	}
	waitErr := cmd.Wait()
	mu.Lock()
	partial := bytes.Clone(serverLines.buf)
	mu.Unlock()
	rec.Ended(1, partial)
	code := 0
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
		fmt.Fprintf(stderr, "mcpmock record: the server exited: %v\n", waitErr)
	}
	if err := writeRecording(rec, out, stderr); err != nil {
		return err
	}
	if code != 0 {
		return &exitStatus{code}
	}
	return nil
}

// isJSONish reports whether a line looks like a JSON message (the
// recorder says whether it is valid).
func isJSONish(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// recordOut is where the recording goes: --out, and --append.
type recordOut struct {
	path   string
	append bool
}

// writeRecording writes the file (with --append, merged into the one
// there) and says on stderr what it holds, what this session could not
// replay and what it dropped.
func writeRecording(rec *config.Recorder, out recordOut, stderr io.Writer) error {
	c := rec.Config()
	session := c
	if out.append {
		unlock, err := lockFile(out.path)
		if err != nil {
			return fmt.Errorf("--append: cannot lock %s: %v", out.path, err)
		}
		defer unlock()
		if _, err := os.Stat(out.path); err == nil {
			old, err := config.Load(out.path)
			if err != nil {
				return fmt.Errorf("--append: %s is not a recording to merge into:\n%v", out.path, err)
			}
			m := config.NewRecorder()
			m.Include(old)
			m.Include(c)
			c = m.Config()
		}
	}
	if err := c.Save(out.path); err != nil {
		return fmt.Errorf("--out: %v", err)
	}
	fmt.Fprintf(stderr, "mcpmock record: wrote %s: %d tools, %d resources, %d resource templates, %d prompts, %d completions, %d faults\n",
		out.path, len(c.Tools), len(c.Resources), len(c.ResourceTemplates), len(c.Prompts), len(c.Completions), len(c.Faults))
	for _, d := range rec.Dropped() {
		fmt.Fprintf(stderr, "mcpmock record: dropped: %s\n", d)
	}
	for _, n := range session.Notes {
		fmt.Fprintf(stderr, "mcpmock record: note: %s\n", n)
	}
	for _, r := range session.Redacted {
		fmt.Fprintf(stderr, "mcpmock record: redacted: %s\n", r)
	}
	return nil
}
