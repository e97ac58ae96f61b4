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
	"github.com/mcpmock/mcpmock/internal/safefile"
)

// The two forms of record, every flag before "--" (after it, a flag is the
// server's argument).
const (
	recordSynopsisStdio = "--out FILE [--append] [--redact PATH]... [--grace DURATION] -- CMD ARGS..."
	recordSynopsisHTTP  = "--out FILE [--append] [--redact PATH]... --url URL [--listen ADDR]"
)

// recordHelp is what record -h says between the synopses and the flags.
const recordHelp = `The first form is the command a client spawns as its server: it starts CMD
and relays stdio, then exits with CMD's status. The second is a loopback
Streamable HTTP proxy to URL (its own URL on stdout) until SIGTERM or SIGINT.

An existing --out FILE is replaced only when the new recording holds at least
one answer of the server: it is written beside FILE, then renamed over it. A
session in which the server answered nothing (it exited first, or URL was
unreachable) leaves FILE as it was and exits non-zero, saying why on stderr.
--append merges the session into FILE instead of replacing it.
`

// recordCmd: mcpmock record. Over stdio it is the command a client spawns
// as its server: it starts the real server (CMD ARGS), relays both
// directions byte for byte, and writes the recording when the session
// ends; it exits with the real server's status. With --url it is a
// Streamable HTTP proxy to the real server (see recordHTTP).
func recordCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := recordRun(args, stdin, stdout, stderr)
	var ex *exitStatus
	var ue *usageError
	var rf *recordFailure
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ex):
		return ex.code
	case errors.As(err, &rf):
		fmt.Fprintf(stderr, "mcpmock record: %s\n", rf.msg)
		return rf.code
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

// recordFailure is a session that ends in failure (nothing recorded, or
// requests that never reached the server): the message, then exit code.
type recordFailure struct {
	msg  string
	code int
}

func (e *recordFailure) Error() string { return e.msg }

func recordRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("record", recordSynopsisStdio, stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpmock record %s\n       mcpmock record %s\n\n%s\n", recordSynopsisStdio, recordSynopsisHTTP, recordHelp)
		fs.PrintDefaults()
	}
	out := fs.String("out", "", "write the recording (a config file for serve --config) to `FILE` when the session ends, if the server answered anything (an existing FILE is replaced, or with --append merged into)")
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
	sent := 0         // the client's messages (lines), under mu
	clientLines := &lines{emit: func(b []byte) { sent++; rec.Message(1, true, b) }}
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
	clientSent := sent
	mu.Unlock()
	rec.Ended(1, partial)
	code := 0
	exited := "the server exited with status 0"
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		code = ee.ExitCode()
		exited = fmt.Sprintf("the server exited with status %d", code)
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
			exited = fmt.Sprintf("the server was killed by signal %d (%v)", ws.Signal(), ws.Signal())
		}
		fmt.Fprintf(stderr, "mcpmock record: the server exited: %v\n", waitErr)
	}
	if rec.Answered() == 0 {
		why := exited + " before answering anything"
		switch {
		case code != 0 && clientSent == 0:
			why += " (the client had sent nothing)"
		case clientSent == 0:
			why = "the client sent nothing and " + exited + " without answering anything"
		case code == 0:
			why = fmt.Sprintf("%s without answering any of the client's %d messages", exited, clientSent)
		}
		return nothingRecorded(out, why, max(code, exitVerdict))
	}
	if err := writeRecording(rec, out, stderr); err != nil {
		return err
	}
	if code != 0 {
		return &exitStatus{code}
	}
	return nil
}

// nothingRecorded is the failure of a session in which the server answered
// nothing: the file at --out is not touched.
func nothingRecorded(out recordOut, why string, code int) error {
	fate := "is not written"
	if _, err := os.Stat(out.path); err == nil {
		fate = "is left as it was"
	}
	return &recordFailure{code: code, msg: fmt.Sprintf("nothing recorded: %s; %s %s (a recording is written only when the server answered at least one request)", why, out.path, fate)}
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
// replay and what it dropped. The file is written beside out.path and
// renamed over it: an existing recording is replaced whole or not at all.
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
				return fmt.Errorf("--append: %s is not a recording to merge into (left as it was; move it away or record to another --out):\n%v", out.path, err)
			}
			m := config.NewRecorder()
			m.Include(old)
			m.Include(c)
			c = m.Config()
		}
	}
	b, err := c.JSON()
	if err != nil {
		return fmt.Errorf("--out: %v", err)
	}
	if err := safefile.Replace(out.path, b); err != nil {
		return fmt.Errorf("--out: %v (the recording is lost; %s is left as it was)", err, out.path)
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
