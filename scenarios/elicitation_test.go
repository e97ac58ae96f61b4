package scenarios_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/tidwall/gjson"
)

// lineClient writes each line in turn on one session, reads until the
// response to id "call", and returns an error naming its error code: a
// client without the elicitation capability that reports what it got.
func lineClient(lines ...string) scenarios.ConnectFunc {
	return scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
		for _, l := range lines {
			if _, err := conn.Write([]byte(l + "\n")); err != nil {
				return err
			}
		}
		r := bufio.NewReader(conn)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return err
			}
			m := gjson.Parse(line)
			if m.Get("id").String() == "call" {
				if e := m.Get("error"); e.Exists() {
					return fmt.Errorf("tools/call: error %d: %s", e.Get("code").Int(), e.Get("message").String())
				}
				return errors.New("tools/call: no error")
			}
		}
	})
}

// TestElicitationMissingCapability: a client that did not declare
// elicitation gets -32021 in the stateless era and -32603 in the
// handshake era (which has no -32021), each with data.requiredCapabilities
// as a JSON object, not a string holding JSON; a client that reports the
// error passes.
func TestElicitationMissingCapability(t *testing.T) {
	s, _ := scenarios.Lookup("elicitation-round-trip")
	call := `{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}%s}}`
	meta := `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	for _, tc := range []struct {
		era   string
		lines []string
		code  int
	}{
		{"stateless", []string{fmt.Sprintf(call, meta)}, -32021},
		{"handshake", []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			fmt.Sprintf(call, ""),
		}, -32603},
	} {
		t.Run(tc.era, func(t *testing.T) {
			o := s.Play(t, lineClient(tc.lines...))
			var res mcptest.Message
			for _, m := range o.Journal.From(mcptest.FromServer) {
				if m.Method == "tools/call" && m.IsResponse() {
					res = m
				}
			}
			if res.ErrorCode != tc.code {
				t.Fatalf("want error %d to tools/call, got %d: %s", tc.code, res.ErrorCode, res.Raw())
			}
			if data := res.Get("error.data"); !data.IsObject() || !data.Get("requiredCapabilities.elicitation").IsObject() {
				t.Errorf("want error.data {\"requiredCapabilities\":{\"elicitation\":{}}}, an object, got %s", data.Raw)
			}
			if r := s.Evaluate(o); r.Status != scenarios.Pass || !strings.Contains(fmt.Sprint(o.Err), fmt.Sprint(tc.code)) {
				t.Errorf("a client that reports the error: want pass, got %s: %s (connect returned %v)", r.Status, r.Observed, o.Err)
			}
		})
	}
}
