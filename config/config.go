// Package config describes an MCP mock server in a JSON file, for people
// who drive the mock from outside Go (the mcpmock command's
// `serve --config FILE`): server info, protocol versions, tools with canned
// replies and argument cases, resources, resource templates, prompts,
// completions and faults by name with their parameters.
//
//	// mcpmock:fragment (t: yours, in a func that returns an error)
//	cfg, err := config.Load("weather.json") // every mistake, each naming its line and field
//	if err != nil {
//		return err
//	}
//	srv := cfg.NewServer(t) // an *mcptest.Server for t, as the file describes it
//
// The file's JSON Schema is Schema() (schema.json beside this file, in the
// repository); Parse checks a file against it, then checks what the schema
// cannot say (durations, duplicate names, a fault's name), and reports each
// problem as an *Error with the file, line, column and field.
//
// A recording of a real server is such a file too (`mcpmock record`, or
// FromServer and FromJournal in Go, through a Recorder): its lists, its
// replies keyed by arguments, its misbehaviour as faults, and Notes on
// what it could not keep. LoadServer starts a mock from a file in one line.
//
// A minimal file:
//
//	{
//	  "server": {"name": "weather", "version": "1.0.0"},
//	  "tools": [{
//	    "name": "get_forecast",
//	    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
//	    "cases": [{"arguments": {"city": "Paris"}, "replies": [{"text": "rain"}]}],
//	    "replies": [{"text": "sunny"}]
//	  }],
//	  "faults": [{"fault": "Delay", "method": "tools/call", "duration": "2s", "nth": 2}]
//	}
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Config is a mock server described by a file. Its fields mirror the
// file's JSON; JSON values the mock passes on untouched (schemas, results,
// fault parameters) are kept as raw JSON.
type Config struct {
	// Schema is the file's "$schema", if any (ignored).
	Schema string `json:"$schema,omitempty"`
	// Notes are remarks for the reader, ignored by the mock: a recording
	// (Recorder, mcpmock record) lists there what it saw but cannot
	// replay (requests the server sent the client, notifications it sent
	// on its own) and which misbehaviour became which fault.
	Notes []string `json:"notes,omitempty"`
	// Redacted lists the fields a recording replaced with "[REDACTED]"
	// ("tools/call login: result.structuredContent.token"); ignored by
	// the mock.
	Redacted []string `json:"redacted,omitempty"`
	// Server is the server's name, version, title and instructions.
	Server ServerInfo `json:"server"`
	// ProtocolVersions narrows the versions the server speaks (default:
	// every version mcptest speaks, both eras).
	ProtocolVersions []string `json:"protocolVersions,omitempty"`
	// PageSize pages every list with that many items a page (0: no paging).
	PageSize int `json:"pageSize,omitempty"`
	// Logging declares the logging capability.
	Logging bool `json:"logging,omitempty"`
	// Capabilities, if set, replaces the capabilities derived from what is
	// registered (mcptest's WithCapabilities).
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	// Tools are the tools; an empty list (not an absent one) declares the
	// tools capability with no tool.
	Tools []Tool `json:"tools,omitempty"`
	// Resources are the resources.
	Resources []Resource `json:"resources,omitempty"`
	// ResourceTemplates are the resource templates.
	ResourceTemplates []ResourceTemplate `json:"resourceTemplates,omitempty"`
	// Prompts are the prompts.
	Prompts []Prompt `json:"prompts,omitempty"`
	// Completions answer completion/complete.
	Completions []Completion `json:"completions,omitempty"`
	// CacheHints are the ttlMs and cacheScope of stateless-era list, read
	// and discover results (default 0 and "public").
	CacheHints *CacheHints `json:"cacheHints,omitempty"`
	// ResultFields are members every result of a method carries beside
	// what the mock writes, by method, e.g. {"tools/list": {"cacheScope":
	// "public"}}; a recording keeps there what a real server adds to its
	// list results. (They are sent with SetField faults, optional.)
	ResultFields map[string]json.RawMessage `json:"resultFields,omitempty"`
	// SSEReplies are the methods whose replies the Streamable HTTP
	// endpoint sends as an SSE stream even when only the result comes (as
	// a real server did: a recording keeps it); others get a JSON body.
	SSEReplies []string `json:"sseReplies,omitempty"`
	// Faults are the server's mistakes, in the order they apply.
	Faults []Fault `json:"faults,omitempty"`
	// FaultSeed seeds the faults' random draws (probability, jitter).
	FaultSeed *int64 `json:"faultSeed,omitempty"`

	file string
	// toolsSet records that "tools" was present, even as [].
	toolsSet bool
}

// CacheHints are the caching hints of stateless-era results.
type CacheHints struct {
	TTLMs      int64  `json:"ttlMs"`
	CacheScope string `json:"cacheScope"`
}

// ServerInfo is the server's identity, as initialize and server/discover
// report it.
type ServerInfo struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	Title        string `json:"title,omitempty"`
	Instructions string `json:"instructions,omitempty"`
}

// Tool is one tool: its definition and its canned replies.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Icons        json.RawMessage `json:"icons,omitempty"`
	// Fields are the definition's other members, as the list shows them
	// (e.g. "_meta", or one the spec does not know), in their order.
	Fields json.RawMessage `json:"fields,omitempty"`
	// Unlisted marks an entry a recording saw used but never listed: its
	// definition is a placeholder (the mock lists it all the same).
	Unlisted bool `json:"unlisted,omitempty"`
	// Cases answer calls whose arguments contain a JSON subset; they are
	// tried in order, before Replies.
	Cases []Case `json:"cases,omitempty"`
	// Replies answer the other calls: the first call gets the first, the
	// next the second, and the last repeats.
	Replies []Reply `json:"replies,omitempty"`
	// RequiresInput are the rounds of input requests asked before the
	// reply (mcptest's RequiresInput, one call a round).
	RequiresInput []InputRound `json:"requiresInput,omitempty"`
	// Notifications are sent before every reply (mcptest.Tool's Notifies).
	Notifications []Notification `json:"notifications,omitempty"`
	// ParamHeaders marks inputSchema properties (a path of properties
	// keys joined by dots) with x-mcp-header: the header name by property
	// (the same as writing "x-mcp-header" into the inputSchema).
	ParamHeaders map[string]string `json:"paramHeaders,omitempty"`
}

// InputRound is one round of input requests by key, as the inputRequests
// of an input_required result holds them.
type InputRound map[string]InputRequest

// InputRequest is one thing a server asks of the client: an
// elicitation/create (params: message and requestedSchema), a
// sampling/createMessage (params as the spec gives them) or a roots/list.
type InputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Notification is a notification a tool sends before its reply.
type Notification struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Case is a reply to the calls whose arguments contain Arguments.
type Case struct {
	Arguments json.RawMessage `json:"arguments"`
	Replies   []Reply         `json:"replies"`
}

// Reply is one canned answer; exactly one field is set.
type Reply struct {
	// Text is a text result (tools, prompts) or text contents (resources).
	Text *string `json:"text,omitempty"`
	// Error is a tool result with isError set and this text.
	Error *string `json:"error,omitempty"`
	// Structured is a tool result with this structuredContent.
	Structured json.RawMessage `json:"structured,omitempty"`
	// Content is a tool result with these content items, as MCP writes them.
	Content []json.RawMessage `json:"content,omitempty"`
	// Blob is base64 binary contents (resources).
	Blob *string `json:"blob,omitempty"`
	// Result is the whole result object, as it goes on the wire.
	Result json.RawMessage `json:"result,omitempty"`
	// JSONRPCError is a JSON-RPC error instead of a result.
	JSONRPCError *JSONRPCError `json:"rpcError,omitempty"`
}

// JSONRPCError is a JSON-RPC error reply.
type JSONRPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Resource is one resource and what reading it returns.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Size        *int64 `json:"size,omitempty"`
	// Fields are the definition's other members, as the list shows them
	// (e.g. "_meta", or one the spec does not know), in their order.
	Fields json.RawMessage `json:"fields,omitempty"`
	// Unlisted marks an entry a recording saw used but never listed: its
	// definition is a placeholder (the mock lists it all the same).
	Unlisted bool `json:"unlisted,omitempty"`
	// Text is the resource's text contents (a shorthand for one text reply).
	Text *string `json:"text,omitempty"`
	// Replies answer reads, the last repeating (text, blob, result, rpcError).
	Replies []Reply `json:"replies,omitempty"`
	// RequiresInput are the rounds of input requests asked before the reply.
	RequiresInput []InputRound `json:"requiresInput,omitempty"`
}

// ResourceTemplate is one resource template and what reading a URI it
// matches returns.
type ResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Fields are the definition's other members, as the list shows them
	// (e.g. "_meta", or one the spec does not know), in their order.
	Fields json.RawMessage `json:"fields,omitempty"`
	// Text answers every matched URI with this text at that URI.
	Text *string `json:"text,omitempty"`
	// Cases answer URIs whose template variables contain Vars.
	Cases []VarsCase `json:"cases,omitempty"`
	// Replies answer the other reads (result, rpcError).
	Replies []Reply `json:"replies,omitempty"`
}

// VarsCase is a reply to reads whose template variables contain Vars.
type VarsCase struct {
	Vars    map[string]string `json:"vars"`
	Replies []Reply           `json:"replies"`
}

// Prompt is one prompt and what getting it returns.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	// Fields are the definition's other members, as the list shows them
	// (e.g. "_meta", or one the spec does not know), in their order.
	Fields json.RawMessage `json:"fields,omitempty"`
	// Unlisted marks an entry a recording saw used but never listed: its
	// definition is a placeholder (the mock lists it all the same).
	Unlisted bool `json:"unlisted,omitempty"`
	// Text answers with one user message of this text.
	Text *string `json:"text,omitempty"`
	// Cases answer gets whose arguments contain a subset.
	Cases []Case `json:"cases,omitempty"`
	// Replies answer the other gets (text, result, rpcError).
	Replies []Reply `json:"replies,omitempty"`
	// RequiresInput are the rounds of input requests asked before the reply.
	RequiresInput []InputRound `json:"requiresInput,omitempty"`
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Completion answers completion/complete for one argument of a prompt or
// of a resource template with the values that start with what the client
// typed.
type Completion struct {
	Prompt           string   `json:"prompt,omitempty"`
	ResourceTemplate string   `json:"resourceTemplate,omitempty"`
	Argument         string   `json:"argument"`
	Values           []string `json:"values"`
}

// Fault is one fault: its name (a constructor of mcptest's fault catalog,
// e.g. "Delay"), its parameters, and its trigger refinements. Faults()
// lists the names and parameters.
type Fault struct {
	// Name is the fault's name ("fault" in the file).
	Name string
	// Params are the fault's parameters and refinements, as raw JSON by
	// key ("method", "duration", "nth", …).
	Params map[string]json.RawMessage

	ptr string // its JSON pointer in the file, for errors
}

// MarshalJSON writes the fault as the file does: {"fault": name, params…}.
func (f Fault) MarshalJSON() ([]byte, error) {
	m := map[string]any{"fault": f.Name}
	for k, v := range f.Params {
		m[k] = v
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // a file keeps "<html>" readable
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// UnmarshalJSON reads {"fault": name, params…}.
func (f *Fault) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	if err := json.Unmarshal(m["fault"], &f.Name); err != nil {
		return fmt.Errorf("fault: want a string naming the fault")
	}
	delete(m, "fault")
	f.Params = m
	return nil
}

// Load reads and parses the file at path; see Parse.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(filepath.Base(path), data)
}

// Parse parses a config file's contents; name is the file's name for the
// messages. It returns every problem it finds (syntax, the schema, what
// the schema cannot check: durations, duplicate names, unknown faults), as
// errors joined with errors.Join, each an *Error naming the line and the
// field; at most 20 are reported.
func Parse(name string, data []byte) (*Config, error) {
	p := &fileParser{file: name, data: data}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, p.syntaxError(err)
	}
	if dec.More() {
		return nil, p.errAt(int(dec.InputOffset()), "", "unexpected data after the top-level JSON object")
	}
	p.index()
	p.checkFaultNames(doc)
	p.validate(doc)
	if len(p.errs) > 0 {
		return nil, p.result()
	}
	c := &Config{file: name}
	if err := json.Unmarshal(data, c); err != nil {
		// The schema accepted it, so this is a bug of the schema.
		return nil, p.errAt(0, "", fmt.Sprintf("the schema accepted the file but it does not decode (%v): please report this", err))
	}
	if m, ok := doc.(map[string]any); ok {
		_, c.toolsSet = m["tools"]
	}
	for i := range c.Faults {
		c.Faults[i].ptr = fmt.Sprintf("/faults/%d", i)
	}
	p.semantics(c)
	if len(p.errs) > 0 {
		return nil, p.result()
	}
	return c, nil
}

// Error is one problem of a config file, at a line and a field.
type Error struct {
	// File is the file's name.
	File string
	// Line and Column are 1-based; Column counts bytes.
	Line, Column int
	// Field is where in the document, e.g. "tools[0].inputSchema" ("" for
	// the whole document).
	Field string
	// Msg says what is wrong and, where it can, what to write instead.
	Msg string
}

// Error is "file:line:column: field: message".
func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Column, e.Field, e.Msg)
}

// Errors returns the *Error values an error from Parse or Load holds.
func Errors(err error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		if e, ok := err.(*Error); ok {
			out = append(out, e)
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}

var _ = errors.Join
