// Package suiteapp is what the Go client programs of the agreement runs
// (integration/clients/gosdk and integration/clients/mark3, played by
// .ci/agreement.sh) share: how an app acts per scenario, the way the SDKs'
// own conformance clients do. The program is given the server URL as its
// last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO, by the
// official conformance suite's client mode and by mcpmock run alike; each
// SDK program connects and calls through its SDK, and asks this package only
// which calls to make and with what arguments.
package suiteapp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
)

// Env is what the runner gave the program.
type Env struct {
	URL      string // the server's URL, the last argument
	Scenario string // MCP_CONFORMANCE_SCENARIO
	// Context is MCP_CONFORMANCE_CONTEXT: pre-registered credentials
	// (client_id, client_secret) and, where the scenario names them, the
	// tool calls to make (toolCalls).
	Context struct {
		ClientID     string     `json:"client_id"`
		ClientSecret string     `json:"client_secret"`
		ToolCalls    []ToolCall `json:"toolCalls"`
	}
}

// ToolCall is one call the scenario asks for by name.
type ToolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// Tool is a listed tool as the SDK gave it to the app.
type Tool struct {
	Name        string
	InputSchema map[string]any
}

// RedirectURL is the app's (never served) OAuth redirect URI; the
// authorization response is read from the Location header instead.
const RedirectURL = "http://127.0.0.1:1/callback"

// CIMDClientID is the official suite's Client ID Metadata Document URL.
const CIMDClientID = "https://conformance-test.local/client-metadata.json"

// Read reads the program's environment; it exits when there is no URL.
func Read() *Env {
	e := &Env{Scenario: os.Getenv("MCP_CONFORMANCE_SCENARIO")}
	if n := len(os.Args); n > 1 {
		e.URL = os.Args[n-1]
	}
	if !strings.HasPrefix(e.URL, "http://") && !strings.HasPrefix(e.URL, "https://") {
		fmt.Fprintln(os.Stderr, "usage: <program> <server URL> (run me with mcpmock run --http or conformance client)")
		os.Exit(2)
	}
	if c := os.Getenv("MCP_CONFORMANCE_CONTEXT"); c != "" {
		if err := json.Unmarshal([]byte(c), &e.Context); err != nil {
			fmt.Fprintf(os.Stderr, "MCP_CONFORMANCE_CONTEXT: %v\n", err)
		}
	}
	return e
}

// Auth reports whether the scenario is an authorization one.
func (e *Env) Auth() bool { return strings.HasPrefix(e.Scenario, "auth/") }

// ListOnly reports whether the scenario asks for the tool listing alone:
// initialize, request-metadata and json-schema-ref-no-deref, whose servers
// answer no tools/call.
func (e *Env) ListOnly() bool {
	return slices.Contains([]string{"initialize", "request-metadata", "json-schema-ref-no-deref"}, e.Scenario)
}

// ResourcesAndPrompts reports whether the app also lists and reads the first
// resource and gets the first prompt (http-standard-headers asks for each
// method's headers).
func (e *Env) ResourcesAndPrompts() bool { return e.Scenario == "http-standard-headers" }

// Calls returns the tool calls to make after the listing: those the
// context names; else suggest_gifts {"age":25} when the server lists it
// (GiftGen), with json_schema_echo beside it when listed too; else every
// listed tool, with arguments made from its inputSchema (json_schema_echo
// gets json_schema_2020_12_tool's inputSchema, else the other tool's, as
// the app received it, verbatim).
func (e *Env) Calls(tools []Tool) []ToolCall {
	if e.ListOnly() {
		return nil
	}
	if len(e.Context.ToolCalls) > 0 {
		return e.Context.ToolCalls
	}
	var echo *Tool
	for i, t := range tools {
		if t.Name == "json_schema_echo" {
			echo = &tools[i]
		}
	}
	for _, t := range tools {
		if t.Name == "suggest_gifts" {
			calls := []ToolCall{{Name: t.Name, Arguments: map[string]any{"age": 25}}}
			if echo != nil {
				calls = append(calls, ToolCall{Name: echo.Name, Arguments: argsFor(*echo, tools)})
			}
			return calls
		}
	}
	var calls []ToolCall
	for _, t := range tools {
		calls = append(calls, ToolCall{Name: t.Name, Arguments: argsFor(t, tools)})
	}
	return calls
}

func argsFor(t Tool, tools []Tool) map[string]any {
	if t.Name == "json_schema_echo" {
		for _, o := range tools {
			if o.Name == "json_schema_2020_12_tool" {
				return map[string]any{"schema": o.InputSchema}
			}
		}
		for _, o := range tools {
			if o.Name != t.Name {
				return map[string]any{"schema": o.InputSchema}
			}
		}
		return map[string]any{"schema": map[string]any{}}
	}
	args := map[string]any{}
	props, _ := t.InputSchema["properties"].(map[string]any)
	req, _ := t.InputSchema["required"].([]any)
	for _, r := range req {
		name, _ := r.(string)
		p, _ := props[name].(map[string]any)
		typ, _ := p["type"].(string)
		if l, ok := p["type"].([]any); ok && len(l) > 0 {
			typ, _ = l[0].(string)
		}
		switch typ {
		case "integer", "number":
			args[name] = 1
		case "boolean":
			args[name] = true
		case "object":
			args[name] = map[string]any{}
		case "array":
			args[name] = []any{}
		case "null":
			args[name] = nil
		default:
			args[name] = "x"
		}
	}
	return args
}

// SchemaMap turns a schema as an SDK holds it into a map, through JSON.
func SchemaMap(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// ElicitContent is the app's answer to elicitation/create: accept, with
// {"confirmed": true} when the form asks for that field, else empty content
// (the SDK applies the schema's defaults if it does).
func ElicitContent(requestedSchema any) map[string]any {
	s := SchemaMap(requestedSchema)
	if props, _ := s["properties"].(map[string]any); props != nil {
		if _, ok := props["confirmed"]; ok {
			return map[string]any{"confirmed": true}
		}
	}
	return map[string]any{}
}

// FollowAuthorize plays the user's browser headlessly: GET the authorization
// URL without following its redirect, and read the code, state and iss of
// the Location it redirects to.
func FollowAuthorize(ctx context.Context, c *http.Client, authURL string) (code, state, iss string, err error) {
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return "", "", "", err
	}
	resp, err := nc.Do(req)
	if err != nil {
		return "", "", "", err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode/100 != 3 || err != nil || resp.Header.Get("Location") == "" {
		return "", "", "", fmt.Errorf("authorize: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	q := loc.Query()
	if e := q.Get("error"); e != "" {
		return "", "", "", fmt.Errorf("authorize: %s: %s", e, q.Get("error_description"))
	}
	return q.Get("code"), q.Get("state"), q.Get("iss"), nil
}

// Steps runs the app's steps, each logged to stderr; the exit status is 1
// when one failed.
type Steps struct{ failed []string }

// Do runs one step.
func (s *Steps) Do(what string, f func() error) {
	if err := f(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
		s.failed = append(s.failed, what)
		return
	}
	fmt.Fprintf(os.Stderr, "%s: ok\n", what)
}

// Exit ends the program: 0 when every step succeeded.
func (s *Steps) Exit() {
	if len(s.failed) > 0 {
		os.Exit(1)
	}
	os.Exit(0)
}
