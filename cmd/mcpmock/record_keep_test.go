package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpmock/mcpmock/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// A recording is written beside --out and renamed over it only when the
// server answered something: a session with no answer leaves an existing
// file as it was, exits non-zero and says why.

// goodRecording is an existing recording the tests must not lose.
const goodRecording = `{"server":{"name":"keep-me","version":"1"},"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`

// existing writes goodRecording at dir/name and returns its path.
func existing(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(goodRecording), 0o600))
	return path
}

// assertOnly asserts that dir holds exactly the files names (no temporary
// file left behind).
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	assert.ElementsMatch(t, names, got, "the files in %s", dir)
}

func assertKept(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, goodRecording, string(b), "the existing recording is untouched")
}

func TestRecordServerExitsWithoutAnsweringKeepsFile(t *testing.T) {
	t.Parallel()
	for _, extra := range [][]string{nil, {"--append"}} {
		t.Run(strings.Join(append([]string{"record"}, extra...), " "), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := existing(t, dir, "keep.json")
			// The server reads the client's initialize, then exits 3.
			args := append(append([]string{"record", "--out", out}, extra...), "--", "sh", "-c", "read line; exit 3")
			p := start(t, args...)
			p.send(initialize)
			code := p.exit()
			stderr := p.stderr.String()
			assert.Equal(t, 3, code, "the server's status; stderr:\n%s", stderr)
			assert.Contains(t, stderr, "mcpmock record: nothing recorded: the server exited with status 3 before answering anything; "+out+" is left as it was")
			assert.NotContains(t, stderr, "wrote")
			assertKept(t, out)
			assertOnly(t, dir, "keep.json")
		})
	}
	t.Run("the server exits before the client writes", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		out := existing(t, dir, "keep.json")
		p := start(t, "record", "--out", out, "--", "sh", "-c", "exit 3")
		assert.Equal(t, 3, p.exit(), "stderr:\n%s", p.stderr)
		assert.Contains(t, p.stderr.String(), "nothing recorded: the server exited with status 3 before answering anything (the client had sent nothing); "+out+" is left as it was")
		assertKept(t, out)
		assertOnly(t, dir, "keep.json")
	})
	t.Run("no file yet", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		out := filepath.Join(dir, "new.json")
		p := start(t, "record", "--out", out, "--", "sh", "-c", "exit 0")
		assert.Equal(t, exitVerdict, p.exit(), "nothing recorded is a failure even when the server exited 0; stderr:\n%s", p.stderr)
		assert.Contains(t, p.stderr.String(), "nothing recorded: the client sent nothing and the server exited with status 0 without answering anything; "+out+" is not written")
		assertOnly(t, dir)
	})
}

// A server that answers: the new recording replaces the file by a rename
// (a hard link to the old file still holds the old recording), with the
// old file's permissions, and no temporary file is left.
func TestRecordReplacesFileAtomically(t *testing.T) {
	t.Parallel()
	for _, extra := range [][]string{nil, {"--append"}} {
		t.Run(strings.Join(append([]string{"record"}, extra...), " "), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := existing(t, dir, "rec.json")
			require.NoError(t, os.Link(out, filepath.Join(dir, "old.json")))
			before, err := os.Stat(out)
			require.NoError(t, err)
			args := append(append([]string{"record", "--out", out}, extra...), "--", bin, "serve", "--config", "testdata/record-server.json")
			p := start(t, args...)
			p.handshake()
			p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			p.recv()
			require.Equal(t, 0, p.exit(), "stderr:\n%s", p.stderr)
			assert.Contains(t, p.stderr.String(), "mcpmock record: wrote "+out)

			after, err := os.Stat(out)
			require.NoError(t, err)
			assert.False(t, os.SameFile(before, after), "the file is replaced by a rename, not rewritten in place")
			assert.Equal(t, os.FileMode(0o600), after.Mode().Perm(), "the old file's permissions are kept")
			assertKept(t, filepath.Join(dir, "old.json"))
			cfg, err := config.Load(out)
			require.NoError(t, err)
			var tools []string
			for _, tool := range cfg.Tools {
				tools = append(tools, tool.Name)
			}
			if len(extra) == 0 {
				assert.Equal(t, "weather", cfg.Server.Name)
				assert.NotContains(t, tools, "t", "replaced")
			} else {
				assert.Equal(t, "keep-me", cfg.Server.Name, "merged into the old one")
				assert.Contains(t, tools, "t", "merged: the old tool and the new ones")
			}
			assert.Contains(t, tools, "get_forecast")
			assertOnly(t, dir, "rec.json", "old.json")
		})
	}
}

// --url with nothing listening there: the client gets a JSON-RPC error
// naming the upstream and the dial error (HTTP 200, so that an SDK reads
// it), the command exits 1 on SIGTERM, and the file is kept.
func TestRecordUnreachableURLKeepsFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := existing(t, dir, "keep.json")
	const upstream = "http://127.0.0.1:1/mcp"
	p := start(t, "record", "--out", out, "--url", upstream)
	url := readURL(t, p)

	res, body := postMCP(t, url, initialize, nil)
	assert.Equal(t, 200, res.StatusCode, body)
	assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
	require.True(t, gjson.Valid(body), "a JSON-RPC error, got %q", body)
	reply := gjson.Parse(body)
	assert.Equal(t, "1", reply.Get("id").Raw, body)
	assert.Equal(t, int64(-32000), reply.Get("error.code").Int(), body)
	assert.Contains(t, reply.Get("error.message").String(), "cannot reach the server at "+upstream+": dial tcp 127.0.0.1:1: connect: connection refused")

	// A batch: one error per request; a notification: 502 with the reason.
	_, body = postMCP(t, url, `[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`, nil)
	assert.Equal(t, []any{"a", 7.0}, gjson.Get(body, "#.id").Value(), body)
	res, body = postMCP(t, url, initialized, nil)
	assert.Equal(t, 502, res.StatusCode)
	assert.Contains(t, body, "cannot reach the server at "+upstream)

	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	for range p.lines {
	}
	code := p.wait()
	stderr := p.stderr.String()
	assert.Equal(t, exitVerdict, code, "stderr:\n%s", stderr)
	assert.Regexp(t, regexp.MustCompile(`mcpmock record: nothing recorded: the server at `+regexp.QuoteMeta(upstream)+` was never reached \(3 HTTP requests failed: dial tcp 127\.0\.0\.1:1: connect: connection refused\); `+regexp.QuoteMeta(out)+` is left as it was`), stderr)
	assertKept(t, out)
	assertOnly(t, dir, "keep.json")
}

// The synopses of record (its -h and the top-level usage) put every flag
// before "--": a flag after it would be the server's argument. The -h
// says what happens to an existing file, and lists every flag it has.
func TestRecordHelpFlagsBeforeDashDash(t *testing.T) {
	t.Parallel()
	_, help, code := runMcpmock(t, nil, "record", "-h")
	require.Equal(t, 0, code, help)
	top, _, code := runMcpmock(t, nil, "help")
	require.Equal(t, 0, code, top)

	var synopses []string
	for _, l := range strings.Split(help+"\n"+top, "\n") {
		if strings.Contains(l, "mcpmock record ") {
			synopses = append(synopses, l)
		}
	}
	require.Len(t, synopses, 4, "two forms in each:\n%s\n%s", help, top)
	flagRE := regexp.MustCompile(`(^|[\s\[(|])--[a-z]`)
	for _, s := range synopses {
		_, after, found := strings.Cut(s, " -- ")
		if found {
			assert.False(t, flagRE.MatchString(after), "a flag after --, where it is the server's argument: %q", s)
		}
	}
	all := strings.Join(synopses, "\n")
	for _, f := range regexp.MustCompile(`(?m)^  -(\S+)(?: (\S+))?$`).FindAllStringSubmatch(help, -1) {
		want := "--" + f[1]
		if f[2] != "" {
			want += " " + f[2]
		}
		assert.Contains(t, all, want, "every flag of -h is in the synopses")
	}
	text := strings.Join(strings.Fields(help), " ")
	assert.Contains(t, text, "An existing --out FILE is replaced only when the new recording holds at least one answer of the server")
	assert.Contains(t, text, "leaves FILE as it was and exits non-zero")
	assert.Contains(t, text, "--append merges the session into FILE")
}

// The server goes away in the middle of a recording: the requests after
// get the proxy's JSON-RPC error, the recording of what came before is
// written, and the command fails, saying how many requests were lost.
func TestRecordHTTPServerGoneMidway(t *testing.T) {
	t.Parallel()
	real := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if gjson.GetBytes(body, "method").String() != "initialize" {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"gone","version":"1"}}}`, gjson.GetBytes(body, "id").Raw)
	}))
	upstream := real.URL + "/mcp"
	dir := t.TempDir()
	out := existing(t, dir, "rec.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- recordHTTPUntil(ctx, upstream, "127.0.0.1:0", recordOut{path: out}, config.NewRecorder(), pw, &lockedWriter{w: &stderr})
		_ = pw.Close()
	}()
	url, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	url = strings.TrimSpace(url)

	res, body := postMCP(t, url, initialize, nil)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	assert.Equal(t, "gone", gjson.Get(body, "result.serverInfo.name").String(), body)
	real.Close()
	_, body = postMCP(t, url, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil)
	assert.Equal(t, "2", gjson.Get(body, "id").Raw, body)
	assert.Contains(t, gjson.Get(body, "error.message").String(), "cannot reach the server at "+upstream)
	cancel()
	err = <-done
	var rf *recordFailure
	require.ErrorAs(t, err, &rf, "stderr:\n%s", stderr.String())
	assert.Equal(t, exitVerdict, rf.code)
	assert.Contains(t, rf.msg, "1 HTTP request did not reach the server at "+upstream)
	cfg, err := config.Load(out)
	require.NoError(t, err)
	assert.Equal(t, "gone", cfg.Server.Name, "what was recorded before is written")
	assertOnly(t, dir, "rec.json")
}
