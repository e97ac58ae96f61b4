package mcptest_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// TestHTMLPageOfAFailingTest: with MCPMOCK_HTML_DIR set, a failing test's
// Server writes its page (the journal drawn, the fault that acted marked
// on the arrow) and logs the path after the transcript.
func TestHTMLPageOfAFailingTest(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MCPMOCK_HTML_DIR", dir)
	ft := faketb.New(t)
	ft.Run(func() {
		srv := mcptest.NewServer(ft).WithTools(mcptest.NewTool("echo")).WithFaults(fault.ReplaceWithJSONRPCError("tools/list", -32000, "down", nil))
		conn := srv.Dial()
		defer conn.Close()
		r := bufio.NewReader(conn)
		for _, line := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		} {
			_, _ = conn.Write([]byte(line + "\n"))
			if strings.Contains(line, `"id"`) {
				_, _ = r.ReadString('\n')
			}
		}
		ft.Errorf("the app did not list its tools")
	})
	ft.Finish()
	path := filepath.Join(dir, "FakeTest.html")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no page: %v; logs: %v", err, ft.Logs())
	}
	logs := strings.Join(ft.Logs(), "\n")
	if !strings.Contains(logs, "mcptest HTML page: "+path) {
		t.Errorf("the page's path is not logged: %s", logs)
	}
	page := string(b)
	for _, want := range []string{"⚡ fault: ReplaceWithJSONRPCError", "error -32000 #2 (tools/list)", `data-seq="5"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %q", want)
		}
	}
}
