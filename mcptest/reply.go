package mcptest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
)

// Reply is what the mock answers to one request: a result, a JSON-RPC
// error, or (from a Handler) nothing at all. Replies are values built by the
// constructors below (TextResult, ToolErrorResult, JSONRPCError, Result, …); a Reply
// that could not be built (invalid JSON, a value json cannot encode) carries
// its error, and registering it fails the test, naming the call.
type Reply struct {
	result  []byte
	rpcErr  *rpcError
	noReply bool
	problem error
	desc    string
}

// label describes the reply, for failure messages.
func (r Reply) label() string { return r.desc }

func (r Reply) isZero() bool {
	return r.result == nil && r.rpcErr == nil && !r.noReply && r.problem == nil
}

func brokenReply(what string, err error) Reply {
	return Reply{problem: fmt.Errorf("%s: %w", what, err), desc: what + " (invalid)"}
}

// Result answers with any JSON object as the result: v is a JSON text
// (string, []byte, json.RawMessage) or a Go value that encoding/json encodes
// to an object. Use it for methods the spec does not know, or to send a
// result exactly as written.
func Result(v any) Reply {
	b, err := toJSONObject(v)
	if err != nil {
		return brokenReply("Result", err)
	}
	if b == nil {
		b = []byte("{}")
	}
	return Reply{result: b, desc: "Result(" + shorten(string(b), 60) + ")"}
}

// JSONRPCError answers with a JSON-RPC error object {code, message, data}:
// the request itself was wrong (unknown method, bad params). data is any
// JSON value by the package's JSON rule (a Go value; a json.RawMessage
// for JSON text; a Go string is a JSON string); nil sends no data member
// (json.RawMessage("null") sends "data": null). A tool that ran and failed
// answers ToolErrorResult instead.
func JSONRPCError(code int, message string, data any) Reply {
	if data == nil {
		return Reply{rpcErr: &rpcError{Code: code, Message: message},
			desc: fmt.Sprintf("JSONRPCError(%d, %q, nil)", code, message)}
	}
	b, err := anyJSON(data)
	if err != nil {
		return brokenReply("JSONRPCError", err)
	}
	return Reply{rpcErr: &rpcError{Code: code, Message: message, Data: b},
		desc: fmt.Sprintf("JSONRPCError(%d, %q, %s)", code, message, shorten(string(b), 40))}
}

// NoReply makes a Handler send nothing: the request stays unanswered (the
// client sees a server that hangs), and the handler is expected to have sent
// whatever it wanted itself.
func NoReply() Reply { return Reply{noReply: true, desc: "NoReply()"} }

// Content is one item of a tool result's or prompt message's content:
// text, image, audio, a resource link or an embedded resource.
type Content struct {
	raw json.RawMessage
	err error
}

// MarshalJSON returns the content item's JSON.
func (c Content) MarshalJSON() ([]byte, error) {
	if c.err != nil {
		return nil, c.err
	}
	return c.raw, nil
}

func contentOf(v map[string]any) Content {
	b, err := json.Marshal(v)
	return Content{raw: b, err: err}
}

// TextContent is a {"type":"text"} content item.
func TextContent(text string) Content {
	return contentOf(map[string]any{"type": "text", "text": text})
}

// ImageContent is a {"type":"image"} content item; data is base64-encoded for you.
func ImageContent(data []byte, mimeType string) Content {
	return contentOf(map[string]any{"type": "image", "data": base64.StdEncoding.EncodeToString(data), "mimeType": mimeType})
}

// AudioContent is a {"type":"audio"} content item; data is base64-encoded for you.
func AudioContent(data []byte, mimeType string) Content {
	return contentOf(map[string]any{"type": "audio", "data": base64.StdEncoding.EncodeToString(data), "mimeType": mimeType})
}

// ResourceLinkContent is a {"type":"resource_link"} content item (protocol
// 2025-06-18 and later).
func ResourceLinkContent(uri, name, mimeType string) Content {
	m := map[string]any{"type": "resource_link", "uri": uri, "name": name}
	if mimeType != "" {
		m["mimeType"] = mimeType
	}
	return contentOf(m)
}

// EmbeddedResourceContent is a {"type":"resource"} content item carrying
// the contents of a resource.
func EmbeddedResourceContent(rc ResourceContents) Content {
	return contentOf(map[string]any{"type": "resource", "resource": rc})
}

// RawContent is a content item written as JSON text, for content types the
// constructors do not cover.
func RawContent(jsonText string) Content {
	b, err := toJSONObject(jsonText)
	return Content{raw: b, err: err}
}

// ResourceContents is the contents of one resource, as resources/read
// returns them and embedded resources carry them.
type ResourceContents struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// TextResourceContents is text contents of the resource at uri.
func TextResourceContents(uri, mimeType, text string) ResourceContents {
	return ResourceContents{URI: uri, MIMEType: mimeType, Text: text}
}

// BlobResourceContents is binary contents of the resource at uri, base64-encoded for you.
func BlobResourceContents(uri, mimeType string, data []byte) ResourceContents {
	return ResourceContents{URI: uri, MIMEType: mimeType, Blob: base64.StdEncoding.EncodeToString(data)}
}

func resultOf(desc string, v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		return brokenReply(desc, err)
	}
	return Reply{result: b, desc: desc}
}

// TextResult is a tools/call result with one text content item per argument.
func TextResult(texts ...string) Reply {
	items := make([]Content, len(texts))
	for i, t := range texts {
		items[i] = TextContent(t)
	}
	return resultOf("TextResult("+quoteAll(texts)+")", map[string]any{"content": items})
}

// ToolErrorResult is a tools/call result with isError set: the tool ran and
// failed, as opposed to a JSON-RPC error (JSONRPCError), which says the call
// itself was wrong.
func ToolErrorResult(text string) Reply {
	return resultOf("ToolErrorResult("+strconv.Quote(text)+")",
		map[string]any{"content": []Content{TextContent(text)}, "isError": true})
}

// StructuredResult is a tools/call result with structuredContent v (a JSON
// object, as a text or a Go value) and, for older clients, the same JSON as
// a text content item.
func StructuredResult(v any) Reply {
	b, err := toJSONObject(v)
	if err != nil {
		return brokenReply("StructuredResult", err)
	}
	if b == nil {
		b = []byte("{}")
	}
	return resultOf("StructuredResult("+shorten(string(b), 40)+")",
		map[string]any{"content": []Content{TextContent(string(b))}, "structuredContent": json.RawMessage(b)})
}

// ContentResult is a tools/call result with the given content items.
func ContentResult(items ...Content) Reply {
	if items == nil {
		items = []Content{}
	}
	return resultOf("ContentResult("+plural(len(items), "item", "items")+")", map[string]any{"content": items})
}

// ReadResult is a resources/read result.
func ReadResult(contents ...ResourceContents) Reply {
	if contents == nil {
		contents = []ResourceContents{}
	}
	return resultOf("ReadResult("+plural(len(contents), "content", "contents")+")", map[string]any{"contents": contents})
}

// PromptMessage is one message of a prompts/get result.
type PromptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// UserText is a prompt message from the user with text content.
func UserText(text string) PromptMessage {
	return PromptMessage{Role: "user", Content: TextContent(text)}
}

// AssistantText is a prompt message from the assistant with text content.
func AssistantText(text string) PromptMessage {
	return PromptMessage{Role: "assistant", Content: TextContent(text)}
}

// PromptResult is a prompts/get result.
func PromptResult(description string, messages ...PromptMessage) Reply {
	m := map[string]any{"messages": messages}
	if messages == nil {
		m["messages"] = []PromptMessage{}
	}
	if description != "" {
		m["description"] = description
	}
	return resultOf(fmt.Sprintf("PromptResult(%q, %s)", description, plural(len(messages), "message", "messages")), m)
}

// CompletionResult is a completion/complete result offering values.
func CompletionResult(values ...string) Reply {
	if values == nil {
		values = []string{}
	}
	return resultOf("CompletionResult("+quoteAll(values)+")", map[string]any{
		"completion": map[string]any{"values": values, "total": len(values), "hasMore": false},
	})
}

func quoteAll(ss []string) string {
	b := []byte{}
	for i, s := range ss {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendQuote(b, shorten(s, 40))
	}
	return string(b)
}
