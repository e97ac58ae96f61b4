package integration_test

// The HTML page of a failing test, with a real client (issue 33): the
// official Go SDK v1.8.0 plays tools-capability-missing, which it fails
// (it lists and calls the tools of a server that declared none); with
// MCPMOCK_HTML_DIR set, the failure leaves one page that draws every
// message of the play.

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// goSDKListAndCall is an app on the official Go SDK: it connects, lists
// the tools, calls suggest_gifts and closes.
func goSDKListAndCall(ctx context.Context, ep *scenarios.Endpoint) error {
	conn, err := ep.Open()
	if err != nil {
		return err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "gosdk-html", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		return err
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
	return err
}

func TestHTMLPageOfAGoSDKFailure(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MCPMOCK_HTML_DIR", dir)
	ft := faketb.New(t)
	var rep *scenarios.Report
	ft.Run(func() { rep = scenarios.Judge(ft, goSDKListAndCall, scenarios.Only("tools-capability-missing")) })
	ft.Finish()
	if rep == nil || rep.Status("tools-capability-missing") != scenarios.Fail {
		t.Fatalf("go-sdk v1.8.0 was expected to fail tools-capability-missing: %s", ft.Report())
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(pages) != 1 {
		t.Fatalf("want one page in %s, got %v (logs: %v)", dir, pages, ft.Logs())
	}
	if !strings.Contains(strings.Join(ft.Logs(), "\n"), "mcptest HTML page: "+pages[0]) {
		t.Errorf("the page's path is not in the test's log: %v", ft.Logs())
	}
	b, err := os.ReadFile(pages[0])
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	// every message of the transcript is an arrow
	msgs := regexp.MustCompile(`(?m)^\s+(\d+) [→←] `).FindAllStringSubmatch(rep.Results[0].Transcript, -1)
	if len(msgs) < 4 {
		t.Fatalf("the transcript has %d messages:\n%s", len(msgs), rep.Results[0].Transcript)
	}
	for _, m := range msgs {
		if !strings.Contains(page, `data-seq="`+m[1]+`"`) {
			t.Errorf("message %s has no arrow", m[1])
		}
	}
	for _, want := range []string{"tools/list #", "tools/call #", "tools-capability-missing</h2>", "⚡ fault: OmitCapability(&#34;tools&#34;)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %q", want)
		}
	}
}
