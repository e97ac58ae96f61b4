package mcptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Direction says which way a message crossed the wire.
type Direction uint8

const (
	// FromClient marks a message the client under test sent to the mock.
	FromClient Direction = iota + 1
	// FromServer marks a message the mock sent to the client.
	FromServer
)

// String returns "client→server" or "server→client".
func (d Direction) String() string {
	switch d {
	case FromClient:
		return "client→server"
	case FromServer:
		return "server→client"
	}
	return "Direction(" + strconv.Itoa(int(d)) + ")"
}

// Kind classifies a JSON-RPC message.
type Kind uint8

const (
	// KindInvalid is a frame that is not a JSON-RPC 2.0 message: bad JSON, a
	// batch, or an object that is neither request, notification nor response.
	KindInvalid Kind = iota
	// KindRequest has a method and an id.
	KindRequest
	// KindNotification has a method and no id.
	KindNotification
	// KindResult is a response with a result.
	KindResult
	// KindError is a response with an error.
	KindError
	// KindBatch is a JSON-RPC batch frame (an array of messages) of a
	// session whose protocol version has batches (2024-11-05, 2025-03-26).
	// Each message of the batch is journaled after it, on its own, with
	// Batch set to the batch frame's Seq.
	KindBatch
	// KindAuth is an HTTP exchange of the authorization flow, which carries
	// no JSON-RPC message: a discovery request, a registration, an
	// authorization or token request, an MCP request refused for want of a
	// token, and the mock's answers to them. Its Method names the endpoint
	// ("auth/resource", "auth/token", …: constants of package oauth), its
	// Raw is the request line and parameters or the status and body of the
	// answer, and its HTTP the exchange. oauth.Authorization.Exchanges
	// lists them with every detail.
	KindAuth
)

// String returns the lower-case name of the kind.
func (k Kind) String() string {
	switch k {
	case KindRequest:
		return "request"
	case KindNotification:
		return "notification"
	case KindResult:
		return "result"
	case KindError:
		return "error"
	case KindBatch:
		return "batch"
	case KindAuth:
		return "auth"
	}
	return "invalid"
}

// Message is one frame as it crossed the wire, with the fields a test asks
// about already read out. Messages are values: the journal hands out copies
// and nothing a test does to one changes what the mock recorded.
type Message struct {
	// Seq is the message's position in the server's journal, from 1.
	Seq int
	// SessionNumber is the number of the session (connection) the message belongs
	// to, from 1, in the order the sessions opened.
	SessionNumber int
	// Direction says who sent it.
	Direction Direction
	// Kind classifies the message.
	Kind Kind

	modern bool  // a request served by the stateless era
	cut    int32 // bytes of the message the journal left out (Options.JournalLimit)
	// (these two share a word with Direction and Kind: the journal keeps
	// every Message, so its size is the journal's cost per message)

	// Time is when the mock read or wrote the frame.
	Time time.Time
	// Method is the method of a request or notification. For a response it is
	// the method of the request it answers, when the mock knows it.
	Method string
	// ID is the JSON text of the id ("1", `"abc"`, "null"), empty when the
	// message has none.
	ID string
	// ErrorCode is the JSON-RPC error code of an error response, else 0.
	ErrorCode int
	// Problem says why the frame is Invalid, empty otherwise.
	Problem string
	// Batch is the Seq of the batch frame (KindBatch) the message came or
	// went in, 0 for a message framed on its own. Raw is then the message's
	// own JSON text within the batch.
	Batch int

	// HTTP is the HTTP side of a message that crossed the Streamable HTTP
	// transport (URL, HTTPHandler): the request that carried it or the response
	// it went out in. It is nil for messages of Dial.
	HTTP *HTTPExchange

	raw  string
	tool string // params.name of a tools/call request, read once by the decoder
	via  string // the id of the request a message of the mock is sent for, for the HTTP transport's routing
}

// Truncated returns how many bytes of the message the journal left out of
// Raw, under Options.JournalLimit; 0 when Raw is the whole message.
func (m Message) Truncated() int { return int(m.cut) }

// toolName returns the name a tools/call request calls.
func (m Message) toolName() string {
	if m.tool != "" || m.Method != "tools/call" {
		return m.tool
	}
	return m.Get("params.name").String()
}

// Raw returns the frame exactly as it crossed the wire, without the
// newline that delimits it.
func (m Message) Raw() string { return m.raw }

// Get reads a value at a gjson path (https://github.com/tidwall/gjson#path-syntax)
// from the raw message, e.g. Get("params.arguments.age").Int().
func (m Message) Get(path string) gjson.Result { return gjson.Get(m.raw, path) }

// IsRequest reports whether the message is a request (method and id).
func (m Message) IsRequest() bool { return m.Kind == KindRequest }

// IsNotification reports whether the message is a notification.
func (m Message) IsNotification() bool { return m.Kind == KindNotification }

// IsResponse reports whether the message is a response, result or error.
func (m Message) IsResponse() bool { return m.Kind == KindResult || m.Kind == KindError }

// String is a one-line summary: session, direction, kind, method, id and error.
func (m Message) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d s%d %s %s", m.Seq, m.SessionNumber, m.Direction, m.Kind)
	if m.Method != "" {
		b.WriteString(" " + m.Method)
	}
	if m.ID != "" {
		b.WriteString(" id=" + m.ID)
	}
	if m.Kind == KindError {
		fmt.Fprintf(&b, " code=%d", m.ErrorCode)
	}
	if m.Batch != 0 {
		fmt.Fprintf(&b, " in batch #%d", m.Batch)
	}
	if m.Problem != "" {
		b.WriteString(" (" + m.Problem + ")")
	}
	return b.String()
}

// decoded holds what the session needs of an inbound frame beyond Message.
type decoded struct {
	msg        Message
	jsonrpc    gjson.Result
	id         gjson.Result
	method     gjson.Result
	params     gjson.Result
	result     gjson.Result
	err        gjson.Result
	parseError bool
	batch      gjson.Result // the elements of a JSON-RPC batch
	// param holds where members of params are, found by the decoder's
	// scan when indexed: read them with getParam.
	param    [nParam]span
	paramDup [nParam]bool
	indexed  bool
}

// Indexes in paramKeys of the members getParam reads.
const (
	paramName = iota
	paramArguments
	paramMeta
	paramInputResponses
	paramRequestState
)

// paramPath returns params.Get(paramKeys[k] + "." + rest), reading only
// that member when the scan found it once.
func (d *decoded) paramPath(k int, rest string) gjson.Result {
	if d.indexed && !d.paramDup[k] {
		return d.getParam(k).Get(rest)
	}
	return d.params.Get(paramKeys[k] + "." + rest)
}

// getParam returns params' member paramKeys[k], as d.params.Get would,
// from the decoder's scan when it has it, without reading params again.
func (d *decoded) getParam(k int) gjson.Result {
	if d.indexed && !d.paramDup[k] {
		// the spans are of the frame, and params is the frame's text from
		// params.Index
		at := d.param[k]
		if at.end == 0 {
			return gjson.Result{}
		}
		at.start, at.end = at.start-d.params.Index, at.end-d.params.Index
		return at.result(d.params.Raw)
	}
	return d.params.Get(paramKeys[k])
}

// decode reads a frame leniently: anything is a message, and what is wrong
// with it is said in Problem rather than refused.
func decode(line []byte) decoded { return decodeText(string(line)) }

// decodeText is decode of a frame's text, which the message keeps.
func decodeText(raw string) decoded {
	d := decoded{msg: Message{raw: raw}}
	// One pass validates, bounds the nesting (without recursion: gjson.Valid
	// recurses once per level, and a stack overflow cannot be recovered)
	// and finds the members read below.
	sc := scanFrame(raw)
	if sc.deep || !sc.valid && tooDeep(raw, maxDepth) {
		// Invalid JSON is nested too deep when its brackets say so, as
		// before the scan stopped at its first error.
		d.msg.Problem = fmt.Sprintf("nested deeper than %d levels, the most mcptest reads", maxDepth)
		return d
	}
	if !sc.valid {
		d.parseError = true
		d.msg.Problem = "not valid JSON"
		return d
	}
	root := gjson.Parse(raw)
	if root.IsArray() {
		d.msg.Problem = "JSON-RPC batch"
		d.batch = root
		return d
	}
	if !root.IsObject() {
		d.msg.Problem = "not a JSON object"
		return d
	}
	d.jsonrpc = sc.top[topJSONRPC].result(raw)
	d.id = sc.top[topID].result(raw)
	d.method = sc.top[topMethod].result(raw)
	d.params = sc.top[topParams].result(raw)
	d.result = sc.top[topResult].result(raw)
	d.err = sc.top[topError].result(raw)
	if sc.paramIndexed {
		d.indexed = true
		d.param, d.paramDup = sc.param, sc.paramDup
	}
	if d.id.Exists() {
		d.msg.ID = d.id.Raw
	}
	switch {
	case d.method.Exists():
		if d.method.Type != gjson.String {
			d.msg.Problem = "method is not a string"
			return d
		}
		d.msg.Method = d.method.Str
		if name := d.getParam(paramName); d.msg.Method == "tools/call" && name.Type == gjson.String {
			d.msg.tool = name.Str
		}
		if d.id.Exists() {
			d.msg.Kind = KindRequest
		} else {
			d.msg.Kind = KindNotification
		}
	case (d.err.Exists() || d.result.Exists()) && !d.id.Exists():
		d.msg.Problem = "response without an id"
	case d.err.Exists():
		d.msg.Kind = KindError
		d.msg.ErrorCode = int(d.err.Get("code").Int())
		if d.result.Exists() {
			d.msg.Problem = "response has both result and error"
		}
	case d.result.Exists():
		d.msg.Kind = KindResult
	default:
		d.msg.Problem = "neither a request, a notification nor a response"
	}
	if d.msg.Problem != "" {
		d.msg.Kind = KindInvalid
		d.msg.ErrorCode = 0
	}
	return d
}

// maxDepth is how deeply a frame may nest arrays and objects. A deeper
// frame is not parsed: it is journaled as invalid and answered -32600.
// MCP messages nest a few dozen levels at most; the bound keeps every
// parser behind decode (gjson, encoding/json, the schema validator) far
// from exhausting the stack.
const maxDepth = 1000

// tooDeep reports whether raw nests arrays and objects deeper than limit,
// counting brackets outside strings in one pass without recursion. On
// text that is not valid JSON the count is still an upper bound of the
// depth any parser reaches before it finds the error.
func tooDeep(raw string, limit int) bool {
	depth := 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			for i++; i < len(raw); i++ { // skip the string
				if c := raw[i]; c == '\\' {
					i++
				} else if c == '"' {
					break
				}
			}
		case '[', '{':
			if depth++; depth > limit {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

// validID reports whether an id is a string or an integer, as JSON-RPC and
// MCP require.
func validID(id gjson.Result) bool {
	switch id.Type {
	case gjson.String:
		return true
	case gjson.Number:
		return !strings.ContainsAny(id.Raw, ".eE")
	}
	return false
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// appendResult writes a result response frame, the result given in parts
// (a stateless-era result and the members decorate adds to it).
func appendResult(dst []byte, id string, result ...[]byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"result":`...)
	for _, part := range result {
		dst = append(dst, part...)
	}
	return append(dst, '}')
}

// appendError writes an error response frame; id "" is written as null.
func appendError(dst []byte, id string, e *rpcError) []byte {
	if id == "" {
		id = "null"
	}
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"error":{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.Code), 10)
	dst = append(dst, `,"message":`...)
	dst = appendJSONString(dst, e.Message)
	if len(e.Data) > 0 {
		dst = append(dst, `,"data":`...)
		dst = append(dst, e.Data...)
	}
	return append(dst, `}}`...)
}

// appendRequest writes a request (id != "") or notification frame.
func appendRequest(dst []byte, id, method string, params []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0",`...)
	if id != "" {
		dst = append(dst, `"id":`...)
		dst = append(dst, id...)
		dst = append(dst, ',')
	}
	dst = append(dst, `"method":`...)
	dst = appendJSONString(dst, method)
	if len(params) > 0 {
		dst = append(dst, `,"params":`...)
		dst = append(dst, params...)
	}
	return append(dst, '}')
}

func appendJSONString(dst []byte, s string) []byte {
	return gjson.AppendJSONString(dst, s)
}

// toJSON turns a Go value or a JSON text (string, []byte, json.RawMessage)
// into compact JSON. A text must be valid JSON.
func toJSON(v any) ([]byte, error) {
	var text []byte
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		text = []byte(v)
	case []byte:
		text = v
	case json.RawMessage:
		text = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, text); err != nil {
		return nil, fmt.Errorf("invalid JSON %q: %v", shorten(string(text), 80), err)
	}
	return buf.Bytes(), nil
}

// anyJSON encodes a parameter that takes any JSON value, by the package's
// one JSON rule: a json.RawMessage (or a []byte) is JSON text (checked and
// compacted), a Go string is a JSON string, nil is null, anything else is
// what encoding/json makes of it.
func anyJSON(v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return []byte("null"), nil
	case json.RawMessage:
		if v == nil {
			return []byte("null"), nil
		}
		return toJSON(v)
	case []byte:
		if v == nil {
			return []byte("null"), nil
		}
		return toJSON(v)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("cannot encode %T as JSON: %v", v, err)
		}
		return b, nil
	}
}

// toJSONObject is toJSON for parameters that take a JSON object (params,
// results, schemas, capabilities, argument subsets): a string, []byte or
// json.RawMessage is JSON text, anything else is encoded; nil is none.
func toJSONObject(v any) ([]byte, error) {
	b, err := toJSON(v)
	if err != nil {
		return nil, err
	}
	if b != nil && !gjson.ParseBytes(b).IsObject() {
		return nil, fmt.Errorf("want a JSON object, got %s", shorten(string(b), 80))
	}
	return b, nil
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
