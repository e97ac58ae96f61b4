package scenarios_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/scenarios"
)

// rude calls tools/list before initialize, reads the answer and hangs up:
// it fails giftgen-handshake, breaking lifecycle/initialize-first.
func rude(ctx context.Context, ep *scenarios.Endpoint) error {
	conn, err := ep.Open()
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n")); err != nil {
		return err
	}
	_, err = bufio.NewReader(conn).ReadString('\n')
	return err
}

// TestHTMLDirPagePerFailure: with MCPMOCK_HTML_DIR set, a failing
// scenario leaves one self-contained page, with the scenario's verdict and
// its journal drawn, and its path is logged beside the transcript.
func TestHTMLDirPagePerFailure(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MCPMOCK_HTML_DIR", dir)
	ft := faketb.New(t)
	ft.Run(func() { scenarios.Judge(ft, rude, scenarios.Only("giftgen-handshake")) })
	ft.Finish()
	if !ft.Failed() {
		t.Fatalf("the rude client passed giftgen-handshake: %s", ft.Report())
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(pages) != 1 {
		t.Fatalf("want one page in %s, got %v", dir, pages)
	}
	logs := strings.Join(ft.Logs(), "\n")
	if !strings.Contains(logs, "mcptest HTML page: "+pages[0]) || strings.Index(logs, "mcptest transcript:") > strings.Index(logs, "mcptest HTML page:") {
		t.Errorf("the page's path is not logged after the transcript:\n%s", logs)
	}
	b, err := os.ReadFile(pages[0])
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		`<span aria-hidden="true">✗</span> FAIL</span> giftgen-handshake</h2>`, // the scenario's verdict, not the test's name
		"✗ broke: lifecycle/initialize-first",                                  // the rule on its arrow
		`data-seq="1"`, `data-seq="2"`,                                         // both messages drawn
		"the client completes the handshake", // expected
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %q", want)
		}
	}
}

// TestHTMLDirUnsetWritesNothing: without the variable, a failure writes
// no page.
func TestHTMLDirUnsetWritesNothing(t *testing.T) {
	t.Setenv("MCPMOCK_HTML_DIR", "")
	ft := faketb.New(t)
	ft.Run(func() { scenarios.Judge(ft, rude, scenarios.Only("giftgen-handshake")) })
	ft.Finish()
	if strings.Contains(strings.Join(ft.Logs(), "\n"), "HTML page") {
		t.Errorf("a page was written without MCPMOCK_HTML_DIR: %v", ft.Logs())
	}
}
