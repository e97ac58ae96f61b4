package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strings"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/tour"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkClient is the client of the tour's server-side lessons and of the
// catalog: the official Go SDK, driven by app.
func sdkClient() tour.Client {
	c := tour.Client{
		Name: "the official Go SDK v1.8.0",
		Run:  reconnecting,
		Skip: map[string]string{
			// The SDK sends its notifications/cancelled from a goroutine
			// that races with Close, so these transcripts differ from run
			// to run.
			"wrong-id-type":     "the SDK gives up on the call, and its notifications/cancelled races with Close: the transcript differs from run to run",
			"slow-tool-timeout": "the SDK gives up on the call, and its notifications/cancelled races with Close: the transcript differs from run to run",
			// The SDK waits for server/discover until its context ends.
			"discover-never-answered": "the SDK waits for server/discover until its deadline, 10 s",
		},
	}
	// The app connects over stdio (Endpoint.Open): the scenarios of the
	// Streamable HTTP transport do not apply to it.
	for _, s := range scenarios.HTTP() {
		c.Skip[s.Name] = "the app connects over stdio, and this scenario is about the Streamable HTTP transport"
	}
	// The official suite's client scenarios the app does not meet.
	for _, n := range []string{"sse-retry", "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers"} {
		c.Skip[n] = "the app connects over stdio, and this scenario is about the Streamable HTTP transport"
	}
	c.Skip["elicitation-sep1034-client-defaults"] = "the app declares no elicitation capability, so the server never shows it a form"
	c.Skip["sep-2322-client-request-state"] = "the app declares no elicitation capability, so the server never asks it for input"
	c.Skip["json-schema-2020-12-preservation"] = "the app echoes no schema back to json_schema_echo"
	c.Skip["json-schema-ref-no-deref"] = "its canary listens on a new port each play, so the transcript differs from run to run"
	return c
}

// reconnects are the scenarios about a second session: there the app runs
// its flow twice, reconnecting in between, as after a restart of its server.
var reconnects = map[string]bool{"capabilities-per-session": true}

// reconnecting runs app in one session, and for the scenarios of
// reconnects, once it went well, in a second one.
func reconnecting(ctx context.Context, ep *scenarios.Endpoint, s scenarios.Scenario, say func(string, ...any)) error {
	sessions := 1
	if reconnects[s.Name] {
		sessions = 2
	}
	for n := 1; n <= sessions; n++ {
		if n > 1 {
			say("it reconnected (session %d)", n)
		}
		conn, err := ep.Open()
		if err != nil {
			say("Dial failed: %v", err)
			return err
		}
		if err := app(ctx, conn, s, say); err != nil {
			return err
		}
	}
	return nil
}

// app is the application under test: it drives the official client the
// way a small app does — connect with default options, list the tools,
// call suggest_gifts with {"age":25}, close — and says what happened.
func app(ctx context.Context, conn net.Conn, s scenarios.Scenario, say func(string, ...any)) error {
	var opts *mcp.ClientOptions
	if s.Name == "elicitation-round-trip" {
		// an elicitation handler that accepts, for the multi-round-trip scenario
		opts = &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			say("its elicitation handler was asked %q and accepted", req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		}}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "gift-app", Version: "1.0.0"}, opts)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		say("Connect failed: %v", err)
		return err
	}
	defer func() {
		_ = cs.Close()
		say("it closed the session")
	}()
	say("Connect succeeded: %s", describe(cs.InitializeResult()))

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		say("ListTools failed: %v", err)
		return err
	}
	var tools []string
	for _, tool := range list.Tools {
		tools = append(tools, tool.Name)
	}
	more := ""
	if list.NextCursor != "" {
		more = ", and a nextCursor (the app reads only the first page)"
	}
	say("ListTools returned %s%s", count(len(tools), "tool")+names(tools), more)

	args := map[string]any{"age": 25}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: args})
	if err != nil {
		say("CallTool suggest_gifts %s failed: %v", jsonText(args), err)
		return err
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, fmt.Sprintf("%q", tc.Text))
		}
	}
	what := "a result"
	if res.IsError {
		what = "a tool error"
	}
	if len(texts) > 0 {
		what += " " + strings.Join(texts, ", ")
	}
	say("CallTool suggest_gifts %s returned %s", jsonText(args), what)
	return nil
}

// describe says which session Connect set up.
func describe(res *mcp.InitializeResult) string {
	if res == nil {
		return "no initialize result"
	}
	era := "handshake era"
	if res.ProtocolVersion >= "2026-07-28" {
		era = "stateless era"
	}
	server := "a server without serverInfo"
	if res.ServerInfo != nil {
		server = res.ServerInfo.Name + " " + res.ServerInfo.Version
	}
	var caps []string
	if c := res.Capabilities; c != nil {
		if c.Tools != nil {
			caps = append(caps, "tools")
		}
		if c.Resources != nil {
			caps = append(caps, "resources")
		}
		if c.Prompts != nil {
			caps = append(caps, "prompts")
		}
		if c.Logging != nil {
			caps = append(caps, "logging")
		}
		if c.Completions != nil {
			caps = append(caps, "completions")
		}
	}
	declared := "declared no capabilities"
	if len(caps) > 0 {
		declared = "declared " + strings.Join(caps, ", ")
	}
	if !slices.Contains(caps, "tools") {
		declared += " (no tools)"
	}
	return fmt.Sprintf("protocol %s (%s) with %s, which %s", res.ProtocolVersion, era, server, declared)
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func names(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return ": " + strings.Join(list, ", ")
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
