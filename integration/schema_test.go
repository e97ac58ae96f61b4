package integration_test

// The mock held to the official JSON Schemas of the protocol: every message
// it sends in a compliant session must validate against the schema of that
// session's version, and the specification's own example client requests
// must be accepted by it. The schemas are test data outside this repository
// (shared/mcp-schemas/<version>/schema.json beside the clone, which is
// ../../shared from this directory); without them these tests skip.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// schemaRoot returns ../../shared/mcp-schemas, or skips the test when it is absent.
func schemaRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join("..", "..", "shared", "mcp-schemas")
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		t.Skip("../../shared/mcp-schemas not found: the official schemas are test data outside this repo; skipping")
	}
	abs, err := filepath.Abs(root)
	require.NoError(t, err)
	return abs
}

// schemaSpec is the official JSON Schema of one protocol version, compiled
// once, with the method → definition tables read out of it.
type schemaSpec struct {
	version  string
	url      string         // file URL of schema.json
	defsKey  string         // "definitions" (draft-07) or "$defs" (2020-12)
	defs     map[string]any // the raw definitions
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema

	// method → definition name, from the anyOf members of ServerRequest,
	// ServerNotification, ClientRequest and ClientNotification.
	serverRequests, serverNotifications map[string]string
	clientRequests, clientNotifications map[string]string
	// error code → the definition of that error (2025-11-25 and later).
	errorDefs map[int64]schemaErrorDef
}

type schemaErrorDef struct {
	name     string
	envelope bool // the definition is the whole JSON-RPC message, not the error object
}

func loadSchemaSpec(t *testing.T, root, version string) *schemaSpec {
	t.Helper()
	path := filepath.Join(root, version, "schema.json")
	raw, err := os.ReadFile(path)
	require.NoError(t, err, "the official schema of %s", version)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err, "%s is not JSON", path)
	top, _ := doc.(map[string]any)
	s := &schemaSpec{
		version:  version,
		url:      (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String(),
		compiled: map[string]*jsonschema.Schema{},
	}
	for _, key := range []string{"$defs", "definitions"} {
		if d, ok := top[key].(map[string]any); ok {
			s.defsKey, s.defs = key, d
		}
	}
	require.NotNil(t, s.defs, "%s has neither $defs nor definitions", path)

	s.compiler = jsonschema.NewCompiler()
	// draft-07 asserts formats by default, 2020-12 does not: assert them in
	// every version, "byte" (base64) included.
	s.compiler.AssertFormat()
	s.compiler.RegisterFormat(&jsonschema.Format{Name: "byte", Validate: func(v any) error {
		str, ok := v.(string)
		if !ok {
			return nil
		}
		_, err := base64.StdEncoding.DecodeString(str)
		return err
	}})
	require.NoError(t, s.compiler.AddResource(s.url, doc))

	s.serverRequests = s.methodTable("ServerRequest")
	s.serverNotifications = s.methodTable("ServerNotification")
	s.clientRequests = s.methodTable("ClientRequest")
	s.clientNotifications = s.methodTable("ClientNotification")
	require.NotEmpty(t, s.clientRequests, "%s: no ClientRequest methods found", version)
	require.NotEmpty(t, s.serverNotifications, "%s: no ServerNotification methods found", version)

	s.errorDefs = map[int64]schemaErrorDef{}
	for name := range s.defs {
		if !strings.HasSuffix(name, "Error") || name == "Error" || name == "JSONRPCError" {
			continue
		}
		if code, ok := schemaConst(s.def(name), "properties", "code", "const"); ok {
			s.errorDefs[code] = schemaErrorDef{name: name}
			continue
		}
		allOf, _ := schemaPath(s.def(name), "properties", "error", "allOf").([]any)
		for _, part := range allOf {
			if code, ok := schemaConst(part, "properties", "code", "const"); ok {
				s.errorDefs[code] = schemaErrorDef{name: name, envelope: true}
			}
		}
	}
	return s
}

// schemaPath walks a decoded JSON value along object keys.
func schemaPath(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// schemaConst reads an integer at a path of a decoded JSON value.
func schemaConst(v any, keys ...string) (int64, bool) {
	n, ok := schemaPath(v, keys...).(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

func (s *schemaSpec) def(name string) any { return s.defs[name] }

func (s *schemaSpec) has(name string) bool { _, ok := s.defs[name]; return ok }

// hasProp reports whether definition name declares property prop.
func (s *schemaSpec) hasProp(name, prop string) bool {
	return schemaPath(s.def(name), "properties", prop) != nil
}

// firstDef returns the first of names the schema defines.
func (s *schemaSpec) firstDef(names ...string) string {
	for _, n := range names {
		if s.has(n) {
			return n
		}
	}
	return ""
}

// methodOf returns the method const of a request or notification definition.
func (s *schemaSpec) methodOf(name string) string {
	m, _ := schemaPath(s.def(name), "properties", "method", "const").(string)
	return m
}

// methodTable maps the method of every member of a union definition
// (ServerRequest, ClientNotification, …) to the member's name. A union that
// is a single definition (2026-07-28's ClientNotification) maps its method
// to the plain definition of that method (CancelledNotification).
func (s *schemaSpec) methodTable(union string) map[string]string {
	out := map[string]string{}
	u := s.def(union)
	if u == nil {
		return out
	}
	if anyOf, ok := schemaPath(u, "anyOf").([]any); ok {
		for _, member := range anyOf {
			ref, _ := schemaPath(member, "$ref").(string)
			name := ref[strings.LastIndex(ref, "/")+1:]
			if m := s.methodOf(name); m != "" {
				out[m] = name
			}
		}
		return out
	}
	if m := s.methodOf(union); m != "" {
		out[m] = union
		for name := range s.defs {
			if name != union && !strings.HasPrefix(name, "Client") && !strings.HasPrefix(name, "Server") && s.methodOf(name) == m {
				out[m] = name
			}
		}
	}
	return out
}

// resultDefFor returns the result definition of a client request
// definition: CallToolRequest → CallToolResult, and EmptyResult for the
// requests whose result is empty (ping, logging/setLevel, resources/subscribe).
func (s *schemaSpec) resultDefFor(requestDef string) string {
	if r := strings.TrimSuffix(requestDef, "Request") + "Result"; s.has(r) {
		return r
	}
	return "EmptyResult"
}

// validate validates instance (decoded with jsonschema.UnmarshalJSON)
// against the named definition.
func (s *schemaSpec) validate(name string, instance any) error {
	sch, ok := s.compiled[name]
	if !ok {
		if !s.has(name) {
			return fmt.Errorf("the %s schema has no definition %q", s.version, name)
		}
		var err error
		sch, err = s.compiler.Compile(s.url + "#/" + s.defsKey + "/" + name)
		if err != nil {
			return fmt.Errorf("compiling %s: %w", name, err)
		}
		s.compiled[name] = sch
	}
	return sch.Validate(instance)
}

// schemaCheck is one validation of a message: the definition and its outcome.
type schemaCheck struct {
	def string
	err error
}

// checkServerMessage validates a message the mock sent: its envelope, and
// its body against the definition of its method. It returns every
// validation done.
func (s *schemaSpec) checkServerMessage(m mcptest.Message) []schemaCheck {
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(m.Raw()))
	if err != nil {
		return []schemaCheck{{def: "JSON", err: err}}
	}
	var checks []schemaCheck
	check := func(def string, v any) { checks = append(checks, schemaCheck{def, s.validate(def, v)}) }
	missing := func(what string) {
		checks = append(checks, schemaCheck{def: "(none)", err: errors.New(what)})
	}
	switch m.Kind {
	case mcptest.KindRequest:
		check("JSONRPCRequest", inst)
		if def := s.serverRequests[m.Method]; def != "" {
			check(def, inst)
		} else {
			missing(fmt.Sprintf("%q is not a server-to-client request of protocol %s (ServerRequest)", m.Method, s.version))
		}
	case mcptest.KindNotification:
		check("JSONRPCNotification", inst)
		if def := s.serverNotifications[m.Method]; def != "" {
			check(def, inst)
		} else {
			missing(fmt.Sprintf("%q is not a server notification of protocol %s (ServerNotification)", m.Method, s.version))
		}
	case mcptest.KindResult:
		check(s.firstDef("JSONRPCResultResponse", "JSONRPCResponse"), inst)
		reqDef := s.clientRequests[m.Method]
		if reqDef == "" {
			missing(fmt.Sprintf("a result answering %q, which is not a client request of protocol %s (ClientRequest)", m.Method, s.version))
			break
		}
		resDef := s.resultDefFor(reqDef)
		body := schemaPath(inst, "result")
		if rt, _ := schemaPath(body, "resultType").(string); rt == "input_required" {
			check("InputRequiredResult", body)
		} else {
			check(resDef, body)
		}
		if env := resDef + "Response"; s.has(env) { // 2026-07-28: CallToolResultResponse, …
			check(env, inst)
		}
	case mcptest.KindError:
		check(s.firstDef("JSONRPCErrorResponse", "JSONRPCError"), inst)
		if s.has("Error") {
			check("Error", schemaPath(inst, "error"))
		}
		if e, ok := s.errorDefs[int64(m.ErrorCode)]; ok {
			if e.envelope {
				check(e.name, inst)
			} else {
				check(e.name, schemaPath(inst, "error"))
			}
		}
	default:
		missing("not a JSON-RPC message: " + m.Problem)
	}
	return checks
}

// checkJournal validates every message the mock sent, failing t for each
// that does not match, and returns how many times each definition was used.
func (s *schemaSpec) checkJournal(t *testing.T, srv *mcptest.Server) (sent int, defs map[string]int) {
	t.Helper()
	defs = map[string]int{}
	for _, m := range srv.Journal().All() {
		if m.Direction != mcptest.FromServer {
			continue
		}
		sent++
		for _, c := range s.checkServerMessage(m) {
			if c.err != nil {
				t.Errorf("protocol %s: journal #%d (session %d, %s %s, id %s) does not match %s:\n%v\nraw: %s",
					s.version, m.Seq, m.SessionNumber, m.Kind, m.Method, m.ID, c.def, c.err, m.Raw())
				continue
			}
			defs[c.def]++
		}
	}
	return sent, defs
}

func schemaSummary(defs map[string]int) string {
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s×%d", n, defs[n])
	}
	return strings.Join(parts, " ")
}

func schemaContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// schemaAwait waits for a value on ch, failing the test after the context ends.
func schemaAwait[T any](t *testing.T, ctx context.Context, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		t.Fatalf("%s never happened", what)
	}
	var zero T
	return zero
}

// TestServerMessagesMatchSchema runs a rich compliant session of the
// official Go SDK client against the mock in every protocol version, and
// validates every message the mock sent against that version's schema.
func TestServerMessagesMatchSchema(t *testing.T) {
	root := schemaRoot(t)
	for _, version := range mcptest.AllVersions() {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			spec := loadSchemaSpec(t, root, version)

			stateless := slices.Contains(mcptest.StatelessVersions(), version)
			t.Run("tables", func(t *testing.T) {
				// The tables read out of the schema say what the test expects.
				assert.Equal(t, "ListToolsResult", spec.resultDefFor(spec.clientRequests["tools/list"]))
				assert.Equal(t, "CallToolResult", spec.resultDefFor(spec.clientRequests["tools/call"]))
				assert.Equal(t, "ReadResourceResult", spec.resultDefFor(spec.clientRequests["resources/read"]))
				assert.Equal(t, "ToolListChangedNotification", spec.serverNotifications["notifications/tools/list_changed"])
				assert.Equal(t, "LoggingMessageNotification", spec.serverNotifications["notifications/message"])
				assert.Equal(t, "CancelledNotification", spec.clientNotifications["notifications/cancelled"])
				if stateless {
					assert.Equal(t, "DiscoverResult", spec.resultDefFor(spec.clientRequests["server/discover"]))
					assert.Equal(t, "SubscriptionsListenResult", spec.resultDefFor(spec.clientRequests["subscriptions/listen"]))
					assert.Equal(t, "SubscriptionsAcknowledgedNotification", spec.serverNotifications["notifications/subscriptions/acknowledged"])
					assert.Empty(t, spec.serverRequests, "2026-07-28 has no server-to-client requests")
					assert.NotContains(t, spec.clientRequests, "initialize")
					assert.NotContains(t, spec.clientRequests, "ping")
					assert.Equal(t, "InvalidParamsError", spec.errorDefs[-32602].name)
					assert.Equal(t, "MethodNotFoundError", spec.errorDefs[-32601].name)
				} else {
					assert.Equal(t, "InitializeResult", spec.resultDefFor(spec.clientRequests["initialize"]))
					for _, m := range []string{"ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"} {
						assert.Equal(t, "EmptyResult", spec.resultDefFor(spec.clientRequests[m]), m)
					}
					assert.Equal(t, "PingRequest", spec.serverRequests["ping"])
					assert.Equal(t, "ListRootsRequest", spec.serverRequests["roots/list"])
					assert.Equal(t, spec.has("ElicitRequest"), spec.serverRequests["elicitation/create"] != "")
				}
			})

			t.Run("validator-rejects-broken", func(t *testing.T) {
				// The validator is wired: a broken message is rejected.
				bad, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"tools":"x","resultType":"complete"}`))
				require.NoError(t, err)
				err = spec.validate("ListToolsResult", bad)
				require.Error(t, err, "ListToolsResult must reject tools:\"x\"")
				assert.Contains(t, err.Error(), "/tools")
				env, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"jsonrpc":"1.0","id":1,"result":{"resultType":"complete"}}`))
				require.NoError(t, err)
				require.Error(t, spec.validate(spec.firstDef("JSONRPCResultResponse", "JSONRPCResponse"), env), "jsonrpc 1.0 must be rejected")
				unknown := spec.checkServerMessage(schemaFakeNotification(t, "notifications/no_such_thing"))
				require.Error(t, unknown[len(unknown)-1].err, "a notification the version does not define must be rejected")
			})

			for _, overHTTP := range []bool{false, true} {
				transport := "pipe"
				if overHTTP {
					transport = "http"
				}
				t.Run(transport, func(t *testing.T) {
					var srv *mcptest.Server
					if stateless {
						srv = schemaStatelessSession(t, spec, overHTTP)
						srv.AssertEra(t, mcptest.EraStateless)
						srv.AssertNegotiatedVersion(t, version)
					} else {
						srv = schemaHandshakeSession(t, spec, overHTTP)
						srv.AssertEra(t, mcptest.EraHandshake)
						srv.AssertNegotiatedVersion(t, version)
					}
					for _, v := range srv.Violations() {
						if v.Severity == mcptest.SeverityError {
							t.Errorf("protocol %s: violation by the client: %s", version, v)
						} else {
							t.Logf("protocol %s: warning: %s", version, v)
						}
					}

					sent, defs := spec.checkJournal(t, srv)
					if overHTTP {
						viaHTTP := srv.Journal().All().InSession(1).From(mcptest.FromServer).Filter(func(m mcptest.Message) bool { return m.HTTP != nil })
						assert.Len(t, viaHTTP, len(srv.Journal().All().InSession(1).From(mcptest.FromServer)), "every message of the client's session went over HTTP")
					}
					t.Logf("protocol %s: %d messages from the mock validated: %s", version, sent, schemaSummary(defs))

					// The session exercised what it was meant to: each of these was
					// validated at least once.
					want := []string{
						"ListToolsResult", "CallToolResult", "ListResourcesResult", "ListResourceTemplatesResult",
						"ReadResourceResult", "ListPromptsResult", "GetPromptResult", "CompleteResult",
						"LoggingMessageNotification", "ProgressNotification", "ToolListChangedNotification",
						"ResourceListChangedNotification", "PromptListChangedNotification", "ResourceUpdatedNotification",
						spec.firstDef("JSONRPCErrorResponse", "JSONRPCError"), "JSONRPCNotification",
					}
					if stateless {
						want = append(want, "DiscoverResult", "InputRequiredResult", "SubscriptionsAcknowledgedNotification",
							"SubscriptionsListenResult", "CallToolResultResponse", "InvalidParamsError")
					} else {
						want = append(want, "InitializeResult", "EmptyResult", "PingRequest", "ListRootsRequest", "CreateMessageRequest", "JSONRPCRequest")
					}
					if spec.has("ElicitRequest") && !stateless {
						want = append(want, "ElicitRequest")
					}
					for _, def := range want {
						assert.Positive(t, defs[def], "protocol %s: no message was validated against %s", version, def)
					}
					assert.True(t, slices.ContainsFunc(srv.Journal().All().Responses("tools/list"), func(m mcptest.Message) bool {
						return m.Get("result.nextCursor").Exists()
					}), "a tools/list page carried nextCursor")
				})
			}
		})
	}
}

// schemaFakeNotification returns a notification of method as the mock
// journals it, sent on a throwaway session.
func schemaFakeNotification(t *testing.T, method string) mcptest.Message {
	t.Helper()
	srv := mcptest.NewServer(t)
	conn := srv.Dial()
	defer conn.Close()
	require.NoError(t, srv.Session(1).Notify(method, nil))
	msgs := srv.Journal().All()
	require.Len(t, msgs, 1)
	return msgs[0]
}

// schemaCatalog scripts tools, resources, templates and prompts with every
// feature the package offers, whatever the version: the mock renders each
// for the session's version (mcptest/render.go), so that what it sends
// validates in every one.
func schemaCatalog(t *testing.T, spec *schemaSpec) *mcptest.Server {
	icons := []map[string]any{{"src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": []string{"48x48"}}}

	echo := mcptest.NewTool("echo").WithDescription("Echoes the text").
		WithInputSchema(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`).
		HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
			return mcptest.TextResult(req.Arguments().Get("text").String())
		})
	echo.WithTitle("Echo").WithAnnotations(map[string]any{"readOnlyHint": true, "idempotentHint": true}).WithIcons(icons)

	media := []mcptest.Content{
		mcptest.TextContent("all kinds"),
		mcptest.ImageContent([]byte{0x89, 'P', 'N', 'G'}, "image/png"),
		mcptest.AudioContent([]byte("RIFF"), "audio/wav"),
		mcptest.ResourceLinkContent("schema://docs/text", "text doc", "text/plain"),
	}
	media = append(media,
		mcptest.EmbeddedResourceContent(mcptest.TextResourceContents("schema://docs/text", "text/plain", "hello")),
		mcptest.EmbeddedResourceContent(mcptest.BlobResourceContents("schema://docs/blob", "application/octet-stream", []byte{0, 1, 2, 3})))

	tools := []*mcptest.Tool{
		echo,
		mcptest.NewTool("fail").WithDescription("Always fails").Returns(mcptest.ToolErrorResult("the tool failed")),
		mcptest.NewTool("broken").Returns(mcptest.JSONRPCError(-32000, "backend down", nil)),
		mcptest.NewTool("media").Returns(mcptest.ContentResult(media...)),
		mcptest.NewTool("work").HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
			for i := 1; i <= 3; i++ {
				if err := req.Progress(float64(i), 3, fmt.Sprintf("step %d", i)); err != nil {
					return mcptest.ToolErrorResult(err.Error())
				}
			}
			if sent, err := req.Log("info", map[string]any{"step": "done"}); err != nil || !sent {
				return mcptest.ToolErrorResult(fmt.Sprintf("log not sent (%v)", err))
			}
			return mcptest.TextResult("done")
		}),
	}
	tools = append(tools, mcptest.NewTool("weather").
		WithInputSchema(`{"type":"object","properties":{"location":{"type":"string"}}}`).
		WithOutputSchema(`{"type":"object","properties":{"temperature":{"type":"number"},"conditions":{"type":"string"}},"required":["temperature","conditions"]}`).
		Returns(mcptest.StructuredResult(`{"temperature":21.5,"conditions":"sunny"}`)))
	// ask gathers input from the client: server-to-client requests in the
	// handshake era, an input_required round in the stateless era.
	inputs := []mcptest.InputRequest{
		mcptest.SamplingInput("summary", map[string]any{
			"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "Summarize"}}},
			"maxTokens": 20,
		}),
	}
	if spec.has("InputRequiredResult") {
		// go-sdk v1.8.0 cannot decode a roots/list input request without
		// params (json.Unmarshal of nothing, in InputRequestMap.UnmarshalJSON),
		// which the schema allows and RootsInput sends: a raw client fulfils
		// this one (schemaRawRootsRound).
		tools = append(tools, mcptest.NewTool("roots_only").RequiresInput(mcptest.RootsInput("roots")).
			HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
				return mcptest.TextResult("roots=" + req.InputResponse("roots").Get("roots.0.uri").String())
			}))
	} else {
		inputs = append(inputs, mcptest.RootsInput("roots"))
	}
	// a version without elicitation is not asked: the handler sees it declined
	inputs = append(inputs, mcptest.ElicitInput("confirm", "Go on?",
		`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`))
	tools = append(tools, mcptest.NewTool("ask").RequiresInput(inputs...).
		HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
			return mcptest.TextResult(fmt.Sprintf("roots=%s summary=%s confirm=%s",
				req.InputResponse("roots").Get("roots.0.uri"), req.InputResponse("summary").Get("content.text"),
				req.InputResponse("confirm").Get("content.ok")))
		}))

	text := mcptest.NewResource("schema://docs/text", "text doc").WithMIMEType("text/plain").WithDescription("A text").ReturnsText("hello")
	blob := mcptest.NewResource("schema://docs/blob", "blob doc").WithMIMEType("application/octet-stream").ReturnsBlob([]byte{0, 1, 2, 3})
	third := mcptest.NewResource("schema://docs/third", "third doc").WithMIMEType("text/plain").ReturnsText("three")
	tmpl := mcptest.NewResourceTemplate("schema://person/{name}", "person").WithMIMEType("text/plain").WithDescription("A person").
		HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
			return mcptest.ReadResult(mcptest.TextResourceContents(req.Message.Get("params.uri").String(), "text/plain", "about "+req.Vars["name"]))
		})
	greet := mcptest.NewPrompt("greet").WithDescription("Greets someone").WithArgument("name", "who", true).
		ReturnsText("Say hello")
	rich := mcptest.NewPrompt("rich").WithDescription("All kinds of messages").Returns(mcptest.PromptResult("rich",
		mcptest.UserText("look at this"),
		mcptest.PromptMessage{Role: "user", Content: mcptest.ImageContent([]byte{0x89, 'P', 'N', 'G'}, "image/png")},
		mcptest.PromptMessage{Role: "assistant", Content: mcptest.EmbeddedResourceContent(mcptest.TextResourceContents("schema://docs/text", "text/plain", "hello"))},
		mcptest.AssistantText("nice")))
	plain := mcptest.NewPrompt("plain").ReturnsText("plain")
	text.WithTitle("Text").WithField("icons", icons).WithField("_meta", map[string]any{"example.com/k": 1})
	tmpl.WithTitle("Person")
	greet.WithTitle("Greeting").WithField("icons", icons)

	srv := mcptest.NewServer(t).
		WithOptions(mcptest.Options{Name: "schema-check", Version: "1.0.0"}).
		WithOptions(mcptest.Options{Instructions: "Every message validates."}).
		WithOptions(mcptest.Options{Logging: true}).
		WithOptions(mcptest.Options{PageSize: 2}).
		WithTools(tools...).
		WithResources(text, blob, third).
		WithResourceTemplates(tmpl).
		WithPrompts(greet, rich, plain).
		WithPromptCompletion("greet", "name", "alice", "albert", "bob").
		WithResourceCompletion("schema://person/{name}", "name", "ada", "alan")
	return srv.WithOptions(mcptest.Options{Title: "Schema Check"})
}

// schemaClient is the official client with every handler a session can
// exercise, reporting what arrived on channels.
type schemaClient struct {
	logs, progress, toolsChanged, promptsChanged, resourcesChanged, updated chan string
	overHTTP                                                                bool // Streamable HTTP (srv.URL) instead of Dial
}

func newSchemaClient(overHTTP bool) *schemaClient {
	mk := func() chan string { return make(chan string, 16) }
	return &schemaClient{mk(), mk(), mk(), mk(), mk(), mk(), overHTTP}
}

func (c *schemaClient) connect(t *testing.T, srv *mcptest.Server, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: "a summary"}}, nil
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) { c.logs <- string(r.Params.Level) },
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			c.progress <- r.Params.Message
		},
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { c.toolsChanged <- "tools" },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { c.promptsChanged <- "prompts" },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { c.resourcesChanged <- "resources" },
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			c.updated <- r.Params.URI
		},
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "schema-client", Version: "1.0.0"}, opts)
	client.AddRoots(&mcp.Root{URI: "file:///home/ada", Name: "home"})
	var tr mcp.Transport
	if c.overHTTP {
		tr = &mcp.StreamableClientTransport{Endpoint: srv.URL(), HTTPClient: httpClient(t)}
	} else {
		conn := srv.Dial()
		tr = &mcp.IOTransport{Reader: conn, Writer: conn}
	}
	cs, err := client.Connect(schemaContext(t), tr, sopts)
	require.NoError(t, err, "go-sdk Connect")
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// schemaCommon is what both eras do: list everything page by page, call
// every tool, read, get prompts, complete, and get a JSON-RPC error.
func schemaCommon(t *testing.T, ctx context.Context, spec *schemaSpec, c *schemaClient, cs *mcp.ClientSession) {
	var tools []string
	for tool, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		tools = append(tools, tool.Name)
	}
	require.Contains(t, tools, "echo")

	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err, "CallTool %s", name)
		return res
	}
	assert.Equal(t, "hi", call("echo", map[string]any{"text": "hi"}).Content[0].(*mcp.TextContent).Text)
	assert.True(t, call("fail", map[string]any{}).IsError)
	assert.NotEmpty(t, call("media", map[string]any{}).Content)
	weather := call("weather", map[string]any{"location": "Paris"})
	if spec.hasProp("CallToolResult", "structuredContent") {
		assert.Equal(t, map[string]any{"temperature": 21.5, "conditions": "sunny"}, weather.StructuredContent)
	} else { // left out; its JSON is the text item
		assert.Nil(t, weather.StructuredContent)
		assert.JSONEq(t, `{"temperature":21.5,"conditions":"sunny"}`, weather.Content[0].(*mcp.TextContent).Text)
	}
	asked := call("ask", map[string]any{}).Content[0].(*mcp.TextContent).Text
	assert.Contains(t, asked, "summary=a summary")
	if !spec.has("InputRequiredResult") {
		assert.Contains(t, asked, "roots=file:///home/ada")
	}

	work := &mcp.CallToolParams{Name: "work", Arguments: map[string]any{}}
	if spec.has("DiscoverResult") { // stateless: the client asks for log messages per request
		work.Meta = mcp.Meta{"io.modelcontextprotocol/logLevel": "debug"}
	}
	work.SetProgressToken("progress-1")
	res, err := cs.CallTool(ctx, work)
	require.NoError(t, err)
	assert.Equal(t, "done", res.Content[0].(*mcp.TextContent).Text)
	for range 3 {
		schemaAwait(t, ctx, c.progress, "a progress notification")
	}
	assert.Equal(t, "info", schemaAwait(t, ctx, c.logs, "the log message of the work tool"))

	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
	require.Error(t, err, "an unknown tool is a JSON-RPC error")
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "broken", Arguments: map[string]any{}})
	require.Error(t, err)

	var resources, templates, prompts int
	for _, err := range cs.Resources(ctx, nil) {
		require.NoError(t, err)
		resources++
	}
	for _, err := range cs.ResourceTemplates(ctx, nil) {
		require.NoError(t, err)
		templates++
	}
	for _, err := range cs.Prompts(ctx, nil) {
		require.NoError(t, err)
		prompts++
	}
	assert.Equal(t, []int{3, 1, 3}, []int{resources, templates, prompts})

	for _, uri := range []string{"schema://docs/text", "schema://docs/blob", "schema://person/ada"} {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		require.NoError(t, err, "ReadResource %s", uri)
	}
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "schema://nowhere"})
	require.Error(t, err)

	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet", Arguments: map[string]string{"name": "ada"}})
	require.NoError(t, err)
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "rich", Arguments: map[string]string{}})
	require.NoError(t, err)

	comp, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "greet"}, Argument: mcp.CompleteParamsArgument{Name: "name", Value: "al"},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"alice", "albert"}, comp.Completion.Values)
	_, err = cs.Complete(ctx, &mcp.CompleteParams{
		Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "schema://person/{name}"}, Argument: mcp.CompleteParamsArgument{Name: "name", Value: "a"},
	})
	require.NoError(t, err)
}

// schemaChangeLists replaces the catalogs, which sends the three
// list_changed notifications, and waits until the client saw them; then it
// lists the new tools.
func schemaChangeLists(t *testing.T, ctx context.Context, srv *mcptest.Server, c *schemaClient, cs *mcp.ClientSession) {
	srv.SetTools(mcptest.ListChanged, mcptest.NewTool("echo2").WithDescription("The second echo").ReturnsText("again"))
	schemaAwait(t, ctx, c.toolsChanged, "tools/list_changed reaching the client")
	srv.SetPrompts(mcptest.ListChanged, mcptest.NewPrompt("greet2").ReturnsText("hello again"))
	schemaAwait(t, ctx, c.promptsChanged, "prompts/list_changed reaching the client")
	srv.SetResources(mcptest.ListChanged, mcptest.NewResource("schema://docs/new", "new doc").ReturnsText("new"))
	schemaAwait(t, ctx, c.resourcesChanged, "resources/list_changed reaching the client")
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, 1)
	assert.Equal(t, "echo2", list.Tools[0].Name)
}

// schemaHandshakeSession pins the client to a handshake-era version.
func schemaHandshakeSession(t *testing.T, spec *schemaSpec, overHTTP bool) *mcptest.Server {
	srv := schemaCatalog(t, spec).WithProtocolVersions(mcptest.HandshakeVersions()...)
	c := newSchemaClient(overHTTP)
	cs := c.connect(t, srv, &mcp.ClientSessionOptions{ProtocolVersion: spec.version})
	ctx := schemaContext(t)
	srv.AssertHandshakeCompleted(t)
	srv.AssertNegotiatedVersion(t, spec.version)
	require.NoError(t, cs.Ping(ctx, nil))
	require.NoError(t, cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}))

	schemaCommon(t, ctx, spec, c, cs)

	// Resource subscriptions and updates.
	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "schema://docs/text"}))
	assert.Equal(t, 1, srv.BroadcastResourceUpdated("schema://docs/text"))
	assert.Equal(t, "schema://docs/text", schemaAwait(t, ctx, c.updated, "resources/updated reaching the client"))
	require.NoError(t, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "schema://docs/text"}))

	// A log message sent by the test.
	assert.Equal(t, 1, srv.Broadcast("notifications/message", map[string]any{"level": "warning", "logger": "schema", "data": map[string]any{"note": "low stock"}}))
	assert.Equal(t, "warning", schemaAwait(t, ctx, c.logs, "notifications/message reaching the client"))

	// Requests to the client.
	roots, err := srv.SendRequest(ctx, "roots/list", nil)
	require.NoError(t, err)
	assert.Equal(t, "file:///home/ada", roots.Get("result.roots.0.uri").String())
	ping, err := srv.SendRequest(ctx, "ping", nil)
	require.NoError(t, err)
	assert.Equal(t, mcptest.KindResult, ping.Kind)
	sample, err := srv.SendRequest(ctx, "sampling/createMessage", map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "hi"}}},
		"maxTokens": 10,
	})
	require.NoError(t, err)
	assert.Equal(t, "a summary", sample.Get("result.content.text").String())
	if spec.has("ElicitRequest") {
		params := map[string]any{
			"message":         "How old?",
			"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}},
		}
		if spec.has("ElicitRequestFormParams") {
			params["mode"] = "form"
		}
		elicit, err := srv.SendRequest(ctx, "elicitation/create", params)
		require.NoError(t, err)
		assert.Equal(t, "accept", elicit.Get("result.action").String())
	}

	schemaChangeLists(t, ctx, srv, c, cs)
	require.NoError(t, cs.Close())
	<-srv.Session(1).Done()
	return srv
}

// schemaStatelessSession lets the unpinned client discover the default
// server and go stateless.
func schemaStatelessSession(t *testing.T, spec *schemaSpec, overHTTP bool) *mcptest.Server {
	srv := schemaCatalog(t, spec)
	c := newSchemaClient(overHTTP)
	cs := c.connect(t, srv, nil)
	ctx := schemaContext(t)
	// With list_changed handlers the client opens subscriptions/listen by itself.
	ack := srv.WaitFor(t, mcptest.ServerSent("notifications/subscriptions/acknowledged"))
	assert.True(t, ack.Get("params.notifications.toolsListChanged").Bool())

	schemaCommon(t, ctx, spec, c, cs)
	assert.NotEmpty(t, srv.Journal().All().Filter(func(m mcptest.Message) bool {
		return m.Direction == mcptest.FromServer && m.Get("result.resultType").String() == "input_required"
	}), "the ask tool answered input_required")
	schemaRawRootsRound(t, srv)

	// Resource updates come on a listen stream of their own.
	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "schema://docs/text"}))
	srv.WaitFor(t, mcptest.Matcher{Description: "a second acknowledgement, for the resource subscription", Match: func(m mcptest.Message) bool {
		return m.Direction == mcptest.FromServer && m.Method == "notifications/subscriptions/acknowledged" &&
			m.Get("params.notifications.resourceSubscriptions.0").String() == "schema://docs/text"
	}})
	assert.Equal(t, 1, srv.BroadcastResourceUpdated("schema://docs/text"))
	assert.Equal(t, "schema://docs/text", schemaAwait(t, ctx, c.updated, "resources/updated reaching the client"))
	require.NoError(t, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "schema://docs/text"}))

	schemaChangeLists(t, ctx, srv, c, cs)

	// The server ends the list_changed stream: a SubscriptionsListenResult.
	listens := srv.Journal().All().Requests("subscriptions/listen")
	require.NotEmpty(t, listens)
	require.NoError(t, srv.Session(1).EndListen(listens[0].ID))
	srv.WaitFor(t, mcptest.Matcher{Description: "the result ending the listen stream", Match: func(m mcptest.Message) bool {
		return m.Direction == mcptest.FromServer && m.Kind == mcptest.KindResult && m.Method == "subscriptions/listen"
	}})
	require.NoError(t, cs.Close())
	if !overHTTP { // over HTTP a stateless client has no session to end
		<-srv.Session(1).Done()
	}
	return srv
}

// schemaRawMeta is the per-request _meta of a raw stateless client that
// declares the roots capability.
const schemaRawMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"raw-client","version":"1.0.0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`

// schemaRawRootsRound runs, on a second session, an input_required round
// asking for the client's roots, answered by a raw client.
func schemaRawRootsRound(t *testing.T, srv *mcptest.Server) {
	c := newSchemaLineConn(t, srv)
	c.send(t, []byte(`{"jsonrpc":"2.0","id":"d1","method":"server/discover","params":{`+schemaRawMeta+`}}`))
	discovered := c.recv(t)
	require.Contains(t, discovered.Get("result.supportedVersions").Raw, `"2026-07-28"`, "%s", discovered.Raw)
	c.send(t, []byte(`{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{`+schemaRawMeta+`,"name":"roots_only","arguments":{}}}`))
	first := c.recv(t)
	require.Equal(t, "input_required", first.Get("result.resultType").String(), "%s", first.Raw)
	require.Equal(t, "roots/list", first.Get("result.inputRequests.roots.method").String(), "%s", first.Raw)
	retry := `{"jsonrpc":"2.0","id":"r2","method":"tools/call","params":{` + schemaRawMeta + `,"name":"roots_only","arguments":{},` +
		`"inputResponses":{"roots":{"roots":[{"uri":"file:///home/ada","name":"home"}]}},"requestState":` + first.Get("result.requestState").Raw + `}}`
	c.send(t, []byte(retry))
	done := c.recv(t)
	assert.Equal(t, "roots=file:///home/ada", done.Get("result.content.0.text").String(), "%s", done.Raw)
}

// schemaLineConn is a raw client: it writes lines and reads reply lines.
type schemaLineConn struct {
	conn net.Conn
	r    *bufio.Reader
}

func newSchemaLineConn(t *testing.T, srv *mcptest.Server) *schemaLineConn {
	conn := srv.Dial()
	t.Cleanup(func() { _ = conn.Close() })
	return &schemaLineConn{conn: conn, r: bufio.NewReader(conn)}
}

func (c *schemaLineConn) send(t *testing.T, line []byte) {
	t.Helper()
	_, err := c.conn.Write(append(slices.Clip(line), '\n'))
	require.NoError(t, err)
}

func (c *schemaLineConn) recv(t *testing.T) gjson.Result {
	t.Helper()
	require.NoError(t, c.conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	line, err := c.r.ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatalf("want a line from the mock, got %v (partial %q)", err, line)
	}
	require.True(t, gjson.Valid(line), "the mock sent %q", line)
	return gjson.Parse(line)
}

// schemaExampleServer scripts what the specification's examples name.
func schemaExampleServer(t *testing.T) *mcptest.Server {
	icons := []map[string]any{{"src": "https://example.com/weather-icon.png", "mimeType": "image/png", "sizes": []string{"48x48"}}}
	return mcptest.NewServer(t).
		WithOptions(mcptest.Options{Name: "ExampleServer", Version: "1.0.0"}).
		WithOptions(mcptest.Options{Instructions: "This server provides weather and resource utilities."}).
		WithTools(mcptest.NewTool("get_weather").
			WithTitle("Weather Information Provider").
			WithDescription("Get current weather information for a location").
			WithInputSchema(`{"type":"object","properties":{"location":{"type":"string","description":"City name or zip code"}},"required":["location"]}`).
			WithIcons(icons).
			HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
				return mcptest.TextResult("Current weather in " + req.Arguments().Get("location").String() + ":\nTemperature: 72°F\nConditions: Partly cloudy")
			})).
		WithResources(
			mcptest.NewResource("file:///project/src/main.rs", "main.rs").
				WithTitle("Rust Software Application Main File").
				WithDescription("Primary application entry point").
				WithMIMEType("text/x-rust").
				ReturnsText("fn main() {\n    println!(\"Hello world!\");\n}"),
			mcptest.NewResource("file:///project/config.json", "config.json").WithMIMEType("application/json").ReturnsText(`{"debug":false}`)).
		WithResourceTemplates(mcptest.NewResourceTemplate("file:///{path}", "Project Files").
			WithTitle("📁 Project Files").
			WithDescription("Access files in the project directory").
			WithMIMEType("application/octet-stream").
			ReturnsText("a project file")).
		WithPrompts(mcptest.NewPrompt("code_review").
			WithTitle("Request Code Review").
			WithDescription("Asks the LLM to analyze code quality and suggest improvements").
			WithArgument("code", "The code to review", true).
			HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
				return mcptest.PromptResult("Code review prompt", mcptest.UserText("Please review this Python code:\n"+req.Arguments().Get("code").String()))
			})).
		WithPromptCompletion("code_review", "language", "python", "pytorch", "pyside")
}

// schemaExample is one example message of the specification.
type schemaExample struct {
	name   string // <TypeName>/<file>
	line   []byte // compacted
	method string
	id     string // JSON text; "" for a notification
}

// TestSpecExampleRequestsAccepted sends the specification's own example
// client requests (and client notifications) of 2026-07-28 to the default
// mock: each gets a reply with its id, and no client violation of severity
// error is recorded.
func TestSpecExampleRequestsAccepted(t *testing.T) {
	root := schemaRoot(t)
	version := mcptest.StatelessVersions()[0]
	spec := loadSchemaSpec(t, root, version)
	files, err := filepath.Glob(filepath.Join(root, version, "examples", "*", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no examples under %s", filepath.Join(root, version, "examples"))

	var requests, notifications []schemaExample
	var skipped []string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		msg := gjson.ParseBytes(raw)
		if !msg.IsObject() || !msg.Get("jsonrpc").Exists() || !msg.Get("method").Exists() {
			continue // a fragment (params, a result, a content block), not a message
		}
		var buf bytes.Buffer
		require.NoError(t, json.Compact(&buf, raw), name)
		ex := schemaExample{name: name, line: buf.Bytes(), method: msg.Get("method").String(), id: msg.Get("id").Raw}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		require.NoError(t, err, name)
		switch {
		case ex.id != "" && spec.clientRequests[ex.method] != "":
			require.NoError(t, spec.validate(spec.clientRequests[ex.method], inst), "the example %s is a valid %s", name, spec.clientRequests[ex.method])
			requests = append(requests, ex)
		case ex.id == "" && spec.clientNotifications[ex.method] != "":
			require.NoError(t, spec.validate(spec.clientNotifications[ex.method], inst), "the example %s is a valid %s", name, spec.clientNotifications[ex.method])
			notifications = append(notifications, ex)
		default:
			skipped = append(skipped, name+" ("+ex.method+")")
		}
	}
	t.Logf("%d client requests, %d client notifications; not client messages, skipped: %s",
		len(requests), len(notifications), strings.Join(skipped, ", "))
	// Every client request method of the version has an example.
	seen := map[string]bool{}
	for _, ex := range requests {
		seen[ex.method] = true
	}
	for method := range spec.clientRequests {
		assert.True(t, seen[method], "no example of the client request %s", method)
	}
	require.NotEmpty(t, notifications, "no client notification example")

	// afterCancel is sent after a notification: the first line read must be
	// its reply, proving the notification got none.
	afterCancel := []byte(`{"jsonrpc":"2.0","id":"after-notification","method":"server/discover","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},` +
		`"io.modelcontextprotocol/clientCapabilities":{}}}}`)

	for _, ex := range append(requests, notifications...) {
		t.Run(ex.name, func(t *testing.T) {
			srv := schemaExampleServer(t)
			c := newSchemaLineConn(t, srv)
			c.send(t, ex.line)
			switch {
			case ex.id == "":
				c.send(t, afterCancel)
				reply := c.recv(t)
				assert.Equal(t, `"after-notification"`, reply.Get("id").Raw, "a notification gets no reply; the next line answers the request after it: %s", reply.Raw)
			case ex.method == "subscriptions/listen":
				ack := c.recv(t)
				require.Equal(t, "notifications/subscriptions/acknowledged", ack.Get("method").String(), "%s", ack.Raw)
				assert.Equal(t, ex.id, ack.Get(`params._meta.io\.modelcontextprotocol/subscriptionId`).Raw, "%s", ack.Raw)
				assert.True(t, ack.Get("params.notifications.toolsListChanged").Bool(), "%s", ack.Raw)
				assert.Equal(t, "file:///project/config.json", ack.Get("params.notifications.resourceSubscriptions.0").String(), "%s", ack.Raw)
				// What the stream carries, then its end.
				srv.SetTools(mcptest.ListChanged, mcptest.NewTool("get_forecast").ReturnsText("sunny"))
				changed := c.recv(t)
				assert.Equal(t, "notifications/tools/list_changed", changed.Get("method").String(), "%s", changed.Raw)
				assert.Equal(t, 1, srv.BroadcastResourceUpdated("file:///project/config.json"))
				updated := c.recv(t)
				assert.Equal(t, "notifications/resources/updated", updated.Get("method").String(), "%s", updated.Raw)
				require.NoError(t, srv.Session(1).EndListen(ex.id))
				end := c.recv(t)
				assert.Equal(t, ex.id, end.Get("id").Raw, "%s", end.Raw)
				assert.True(t, end.Get("result").IsObject(), "the listen stream ends with a result: %s", end.Raw)
			default:
				reply := c.recv(t)
				assert.Equal(t, ex.id, reply.Get("id").Raw, "the reply carries the example's id: %s", reply.Raw)
				assert.True(t, reply.Get("result").IsObject(), "the example is answered with a result: %s", reply.Raw)
				assert.Equal(t, "complete", reply.Get("result.resultType").String(), "%s", reply.Raw)
			}
			for _, v := range srv.Violations() {
				if v.Severity == mcptest.SeverityError {
					t.Errorf("%s: violation: %s", ex.name, v)
				} else {
					t.Logf("%s: warning (acceptable): %s", ex.name, v.Rule)
				}
			}
			// What the mock answered validates too.
			sent, defs := spec.checkJournal(t, srv)
			t.Logf("%s: %d messages from the mock validated: %s", ex.name, sent, schemaSummary(defs))
		})
	}
}
