package mcptest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
)

// Configuration mistakes fail the test at once, with a message naming the
// call, and never panic.

func TestConfigurationMistakes(t *testing.T) {
	okHandler := func(context.Context, *mcptest.Request) mcptest.Reply { return mcptest.Result(`{}`) }
	tests := []struct {
		name      string
		afterDial bool                  // Dial before the mistake
		mistake   func(*mcptest.Server) // the call that must fail
		want      []string              // what the failure must say
	}{
		{name: "WithTools after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithTools(mcptest.NewTool("late")) },
			want:    []string{"WithTools called after the first Dial"}},
		{name: "WithTools() after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithTools() },
			want:    []string{"WithTools called after the first Dial"}},
		{name: "WithOptions after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithOptions(mcptest.Options{Name: "x", Version: "1"}) },
			want:    []string{"WithOptions called after the first Dial"}},
		{name: "WithProtocolVersions after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithProtocolVersions("2025-06-18") },
			want:    []string{"WithProtocolVersions called after the first Dial"}},
		{name: "WithCapabilities after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithCapabilities(`{}`) },
			want:    []string{"WithCapabilities called after the first Dial"}},
		{name: "WithResource after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithResources(mcptest.NewResource("file:///a", "a")) },
			want:    []string{"WithResources called after the first Dial"}},
		{name: "WithResourceTemplate after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithResourceTemplates(mcptest.NewResourceTemplate("file:///{a}", "a")) },
			want:    []string{"WithResourceTemplates called after the first Dial"}},
		{name: "WithPrompt after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithPrompts(mcptest.NewPrompt("p")) },
			want:    []string{"WithPrompts called after the first Dial"}},
		{name: "WithPromptCompletion after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithPromptCompletion("p", "a", "x") },
			want:    []string{"WithPromptCompletion called after the first Dial"}},
		{name: "WithResourceCompletion after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.WithResourceCompletion("file:///{a}", "a", "x") },
			want:    []string{"WithResourceCompletion called after the first Dial"}},
		{name: "Handle after Dial", afterDial: true,
			mistake: func(s *mcptest.Server) { s.Handle("x/y", okHandler) },
			want:    []string{`Handle("x/y") called after the first Dial`}},
		{name: "invalid input schema",
			mistake: func(s *mcptest.Server) { s.WithTools(mcptest.NewTool("x").WithInputSchema(`{not json`)) },
			want:    []string{"WithTool", "WithInputSchema", "{not json"}},
		{name: "input schema not an object",
			mistake: func(s *mcptest.Server) { s.WithTools(mcptest.NewTool("x").WithInputSchema(`["a"]`)) },
			want:    []string{"WithTool", "WithInputSchema", "object"}},
		{name: "duplicate tool in one call",
			mistake: func(s *mcptest.Server) { s.WithTools(mcptest.NewTool("x"), mcptest.NewTool("x")) },
			want:    []string{"WithTool", `NewTool("x")`, "registered twice"}},
		{name: "duplicate tool in two calls",
			mistake: func(s *mcptest.Server) { s.WithTools(mcptest.NewTool("x")).WithTools(mcptest.NewTool("x")) },
			want:    []string{"WithTool", `NewTool("x")`, "registered twice"}},
		{name: "duplicate resource",
			mistake: func(s *mcptest.Server) {
				s.WithResources(mcptest.NewResource("file:///a", "a"), mcptest.NewResource("file:///a", "b"))
			},
			want: []string{"WithResource", `NewResource("file:///a")`, "registered twice"}},
		{name: "duplicate prompt",
			mistake: func(s *mcptest.Server) { s.WithPrompts(mcptest.NewPrompt("p"), mcptest.NewPrompt("p")) },
			want:    []string{"WithPrompt", `NewPrompt("p")`, "registered twice"}},
		{name: "unknown rule",
			mistake: func(s *mcptest.Server) { s.ExpectViolation("no/such-rule") },
			want:    []string{`ExpectViolation("no/such-rule")`, "no such rule", "rule IDs start with", "jsonrpc/…", "http/…", "mcpmock list --rules"}},
		{name: "misspelled rule",
			mistake: func(s *mcptest.Server) { s.ExpectViolation("lifecycle/initialise-first") },
			want:    []string{`ExpectViolation("lifecycle/initialise-first")`, `no such rule; did you mean "lifecycle/initialize-first"?`}},
		{name: "unknown protocol version",
			mistake: func(s *mcptest.Server) { s.WithProtocolVersions("2025-11-25", "1999-01-01") },
			want:    []string{"WithProtocolVersions", `"1999-01-01"`, "2024-11-05"}},
		{name: "no protocol version",
			mistake: func(s *mcptest.Server) { s.WithProtocolVersions() },
			want:    []string{"WithProtocolVersions", "no versions"}},
		{name: "negative page size",
			mistake: func(s *mcptest.Server) { s.WithOptions(mcptest.Options{PageSize: -1}) },
			want:    []string{"WithOptions", "PageSize -1 is negative"}},
		{name: "negative wait timeout",
			mistake: func(s *mcptest.Server) { s.WithOptions(mcptest.Options{WaitTimeout: -time.Second}) },
			want:    []string{"WithOptions", "WaitTimeout -1s is negative"}},
		{name: "a cache scope of neither kind",
			mistake: func(s *mcptest.Server) { s.WithOptions(mcptest.Options{CacheScope: "shared"}) },
			want:    []string{"WithOptions", `CacheScope "shared"`, `"public" or "private"`}},
		{name: "nil handler",
			mistake: func(s *mcptest.Server) { s.Handle("x/y", nil) },
			want:    []string{`Handle("x/y")`, "nil Handler"}},
		{name: "capabilities not an object",
			mistake: func(s *mcptest.Server) { s.WithCapabilities(`["tools"]`) },
			want:    []string{"WithCapabilities", "object"}},
		{name: "invalid JSON in a Result",
			mistake: func(s *mcptest.Server) { s.WithTools(mcptest.NewTool("x").Returns(mcptest.Result(`{bad`))) },
			want:    []string{"WithTool", `NewTool("x").Returns`, "Result"}},
		{name: "Returns without replies",
			mistake: func(s *mcptest.Server) { s.WithTools(mcptest.NewTool("x").Returns()) },
			want:    []string{"WithTool", `NewTool("x").Returns`, "no replies"}},
		{name: "unbalanced URI template",
			mistake: func(s *mcptest.Server) { s.WithResourceTemplates(mcptest.NewResourceTemplate("file:///{id", "t")) },
			want:    []string{"WithResourceTemplate", `NewResourceTemplate("file:///{id")`, "unbalanced"}},
		{name: "Dial after Close",
			mistake: func(s *mcptest.Server) { s.Close(); s.Dial() },
			want:    []string{"Dial called after Close"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := faketb.New(t)
			srv := mcptest.NewServer(fake)
			if tc.afterDial {
				_ = dialRaw(t, srv)
			}
			if fake.Run(func() { tc.mistake(srv) }) {
				t.Fatalf("want the mistake to stop the test with Fatalf, it returned; got %s", fake.Report())
			}
			msg := fake.FatalOutput()
			if !strings.HasPrefix(msg, "mcptest: ") {
				t.Errorf("want the failure to start with %q, got %q", "mcptest: ", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("want the failure to say %q, got %q", w, msg)
				}
			}
			fake.Finish()
			if errs := fake.Errors(); len(errs) != 0 {
				t.Errorf("want nothing more reported at cleanup, got %q", errs)
			}
		})
	}
}

// TestRuntimeChangesAfterDial: the runtime controls are not builder
// methods and are fine while connected.
func TestRuntimeChangesAfterDial(t *testing.T) {
	fake := faketb.New(t)
	srv := mcptest.NewServer(fake).WithTools(mcptest.NewTool("a").ReturnsText("a"))
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	if !fake.Run(func() {
		srv.ExpectViolation("jsonrpc/id-unique")
		srv.IgnoreViolations()
		srv.SetTools(mcptest.Quietly, mcptest.NewTool("b").ReturnsText("b"))
	}) {
		t.Fatalf("want runtime controls to work after Dial, got %s", fake.Report())
	}
	if got := c.result(t, "1", "tools/list", "").Get("tools.0.name").String(); got != "b" {
		t.Errorf("want tools/list to show the replaced tool b, got %q", got)
	}
	if fake.Run(func() { srv.SetTools(mcptest.ListChanged, mcptest.NewTool("b"), mcptest.NewTool("b")) }) {
		t.Errorf("SetTools: want a duplicate tool to fail the test")
	}
	if msg := fake.FatalOutput(); !strings.Contains(msg, "SetTools") || !strings.Contains(msg, "registered twice") {
		t.Errorf("SetTools: want the failure to name the call and the duplicate, got %q", msg)
	}
	fake.Finish()
}
