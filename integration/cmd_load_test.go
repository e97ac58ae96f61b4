package integration_test

// `mcpmock serve --http` as a process under the load of TestLoad (issue 23
// point 4): go-sdk v1.8.0 clients in both eras, the handshake-era ones with
// their GET stream open, then SIGTERM while every session is still open.
// The process must exit by itself, in time, with its report written and
// every call the clients completed in it; what its memory grew by is
// logged (Linux: /proc). Full size: MCPMOCK_LOAD=full, as for TestLoad.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommandServeHTTPLoad(t *testing.T) {
	size := loadSizeFromEnv(t)
	bin := mcpmockBinary(t)
	rep := filepath.Join(t.TempDir(), "report.json")
	cmd, url := serveHTTP(t, bin, "--report", rep)
	ctx, cancel := context.WithTimeout(context.Background(), loadBudget(size))
	defer cancel()
	rss0 := processMemory(cmd.Process.Pid, "VmRSS")

	tr := &http.Transport{MaxIdleConnsPerHost: size.sessions * 2}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	sessions := make([]*mcp.ClientSession, size.sessions)
	defer func() {
		for _, cs := range sessions {
			if cs != nil {
				_ = cs.Close()
			}
		}
	}()
	var completed atomic.Int64
	call := func(i, n int) error {
		res, err := sessions[i].CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 8}})
		if err != nil {
			return fmt.Errorf("client %d: call %d: %w", i, n, err)
		}
		if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "a kite" {
			return fmt.Errorf("client %d: call %d answered %s, want the text \"a kite\"", i, n, jsonText(res))
		}
		completed.Add(1)
		return nil
	}
	// Even clients speak the handshake era (a session, a GET stream), odd
	// ones the stateless era (server/discover first, no session).
	require.NoError(t, parallel(size.sessions, func(i int) error {
		var sopts *mcp.ClientSessionOptions
		if i%2 == 0 {
			sopts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "load-" + strconv.Itoa(i), Version: "1.0.0"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, sopts)
		if err != nil {
			return fmt.Errorf("client %d: Connect: %w", i, err)
		}
		sessions[i] = cs
		return call(i, 0)
	}))
	rssOpen := processMemory(cmd.Process.Pid, "VmRSS")
	require.NoError(t, parallel(size.sessions, func(i int) error {
		for k := 1; k < size.calls; k++ {
			if err := call(i, k); err != nil {
				return err
			}
		}
		return nil
	}))
	hwm := processMemory(cmd.Process.Pid, "VmHWM")

	// SIGTERM with every session open: the process ends its streams,
	// writes the report and exits.
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		assert.NoError(t, err, "serve --http exits 0 on SIGTERM after a clean load")
	case <-ctx.Done():
		t.Fatalf("serve --http did not exit on SIGTERM within the load's budget (%v)", loadBudget(size))
	}
	r := report(t, rep)
	assert.Equal(t, "SIGTERM", r.Get("ended").String())
	assert.Equal(t, "pass", r.Get("verdict").String(), "violations %s, problems %s", r.Get("violations").Raw, r.Get("problems").Raw)
	calls := strings.Count(r.Get("transcript").String(), `"method":"tools/call"`)
	where := "the report's transcript"
	if file := r.Get("journal_file").String(); file != "" { // more than --journal-keep: the file holds every message
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		calls, where = strings.Count(string(b), `\"method\":\"tools/call\"`), "the journal file "+file
	}
	assert.Equal(t, int(completed.Load()), calls, "every call the clients completed is in %s, once", where)
	assert.Equal(t, size.sessions*size.calls, int(completed.Load()))
	if rss0 > 0 {
		t.Logf("serve --http, %d sessions × %d calls (%d messages): RSS %d KiB at start, %d KiB with every session open (%.1f KiB a session), peak %d KiB (%.2f KiB a message over the open sessions'); exited on SIGTERM",
			size.sessions, size.calls, r.Get("messages").Int(), rss0, rssOpen, float64(rssOpen-rss0)/float64(size.sessions),
			hwm, float64(hwm-rssOpen)/float64(r.Get("messages").Int()))
	}
}

// processMemory is a memory figure (VmRSS, VmHWM) of process pid in KiB,
// from /proc; 0 where there is no /proc.
func processMemory(pid int, field string) int64 {
	if runtime.GOOS != "linux" {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
