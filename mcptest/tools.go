package mcptest

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcpmock/mcpmock/internal/uritemplate"
	"github.com/tidwall/gjson"
)

// Tool is a tool the mock serves: its definition, as tools/list shows it,
// and its scripted answers to tools/call. Build one with NewTool and the
// chained methods, then register it with Server.WithTools or Server.SetTools.
// Changes to a Tool after it is registered have no effect on the server.
type Tool struct {
	name   string
	def    definition
	script script
}

// NewTool starts the definition of a tool named name. Its inputSchema is
// {"type":"object"} until WithInputSchema says otherwise.
func NewTool(name string) *Tool {
	t := &Tool{name: name}
	t.def.setValue("name", name, "NewTool")
	t.def.setJSON("inputSchema", `{"type":"object"}`, true, "NewTool")
	return t
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

// WithTitle sets the human-readable title (protocol 2025-06-18 and later).
func (t *Tool) WithTitle(title string) *Tool {
	t.def.setValue("title", title, t.label()+".WithTitle")
	return t
}

// WithDescription sets the description.
func (t *Tool) WithDescription(d string) *Tool {
	t.def.setValue("description", d, t.label()+".WithDescription")
	return t
}

// WithInputSchema sets the JSON Schema of the arguments: a JSON text or a
// Go value that encodes to an object.
func (t *Tool) WithInputSchema(schema any) *Tool {
	t.def.setJSON("inputSchema", schema, true, t.label()+".WithInputSchema")
	return t
}

// WithOutputSchema sets the JSON Schema of structuredContent (2025-06-18 and later).
func (t *Tool) WithOutputSchema(schema any) *Tool {
	t.def.setJSON("outputSchema", schema, true, t.label()+".WithOutputSchema")
	return t
}

// WithAnnotations sets the tool annotations (readOnlyHint, destructiveHint, …),
// a JSON text or a Go value that encodes to an object.
func (t *Tool) WithAnnotations(annotations any) *Tool {
	t.def.setJSON("annotations", annotations, true, t.label()+".WithAnnotations")
	return t
}

// WithIcons sets the icons (2025-11-25 and later): a JSON array text or a Go slice.
func (t *Tool) WithIcons(icons any) *Tool {
	t.def.setJSON("icons", icons, false, t.label()+".WithIcons")
	return t
}

// WithField sets any other field of the definition, e.g. "_meta" or one
// the spec does not know, to a Go value (a json.RawMessage for JSON text).
func (t *Tool) WithField(key string, value any) *Tool {
	t.def.setValue(key, value, t.label()+".WithField("+strconv.Quote(key)+")")
	return t
}

// Returns scripts the replies to tools/call: the first call gets the first
// reply, the next the next, and the last repeats. Calling Returns again
// appends to the sequence.
func (t *Tool) Returns(replies ...Reply) *Tool {
	t.script.add(fmt.Sprintf("NewTool(%q).Returns", t.name), replies)
	return t
}

// ReturnsText is Returns(TextResult(text)), the reply most tests script;
// every other one is Returns with its Reply (StructuredResult,
// ToolErrorResult, ContentResult, JSONRPCError, …).
func (t *Tool) ReturnsText(text string) *Tool { return t.Returns(TextResult(text)) }

// WhenArgs scripts replies for calls whose arguments contain subset (a JSON
// object, as text or Go value: every key given must be present with an
// equal value; other keys may be there too). Cases are tried in the order
// they were added, before the replies of Returns; each case keeps its own
// sequence, the last reply repeating.
func (t *Tool) WhenArgs(subset any, replies ...Reply) *Tool {
	t.script.when(fmt.Sprintf("NewTool(%q).WhenArgs", t.name), subset, replies)
	return t
}

// RequiresInput makes every call ask the client for inputs before it is
// answered: in the stateless era with an input_required result (the client
// retries with inputResponses, and with the requestState, which carries
// the answers of earlier rounds), in the handshake era with
// server-to-client requests. Each call of RequiresInput is one round: a
// second call's inputs are asked for once the first's are answered. A client that did not declare the capability an input needs
// (elicitation, sampling, roots) gets -32021 (-32603 in the handshake era,
// which has no such code), and a session whose version has no elicitation
// is not asked: the handler sees that input declined. The retry is then answered by
// WhenArgs, Returns or HandledBy; a Handler reads the answers with
// Request.InputResponse.
func (t *Tool) RequiresInput(inputs ...InputRequest) *Tool {
	t.script.requireInput(t.label()+".RequiresInput", inputs)
	return t
}

// Notifies makes every call send a notification before its reply (after
// the inputs RequiresInput asks for), as a tool that reports as it works:
// notifications/progress carries the call's progressToken and is sent
// only when the call asked for progress; notifications/message (params
// with level, data and maybe logger) only when the client asked for that
// level, as Request.Log; a list_changed notification goes to every
// session that may hear it, as Broadcast (in the stateless era, to the
// subscriptions/listen streams that asked for it), and
// notifications/resources/updated (params with uri) as
// BroadcastResourceUpdated; any other notification goes on the call's own
// stream. params is a JSON object text or a Go value that encodes to one
// (nil: none). Call it again for more notifications, sent in order.
func (t *Tool) Notifies(method string, params any) *Tool {
	t.script.notify(t.label()+".Notifies", method, params)
	return t
}

// HandledBy sets a Handler for the calls no WhenArgs case or Returns reply answers.
func (t *Tool) HandledBy(h Handler) *Tool {
	t.script.handle(fmt.Sprintf("NewTool(%q).HandledBy", t.name), h)
	return t
}

// String names the tool, for failure messages.
func (t *Tool) label() string { return fmt.Sprintf("NewTool(%q)", t.name) }

// definition is the JSON object a list method shows for an item, built
// field by field in the order the fields were first set.
type definition struct {
	order    []string
	fields   map[string]json.RawMessage
	problems []string
}

func (d *definition) put(key string, b []byte, err error, call string) {
	if err != nil {
		d.problems = append(d.problems, call+": "+err.Error())
		return
	}
	if d.fields == nil {
		d.fields = map[string]json.RawMessage{}
	}
	if _, ok := d.fields[key]; !ok {
		d.order = append(d.order, key)
	}
	d.fields[key] = b
}

// setValue sets key to the JSON encoding of a Go value.
func (d *definition) setValue(key string, v any, call string) {
	b, err := json.Marshal(v)
	d.put(key, b, err, call)
}

// setJSON sets key to a JSON text (string, []byte, json.RawMessage) or
// the encoding of a Go value; with object, it must be a JSON object.
func (d *definition) setJSON(key string, v any, object bool, call string) {
	var b []byte
	var err error
	if object {
		b, err = toJSONObject(v)
	} else {
		b, err = toJSON(v)
	}
	if err == nil && b == nil {
		err = fmt.Errorf("%s is nil", key)
	}
	d.put(key, b, err, call)
}

func (d *definition) render() json.RawMessage {
	b := []byte{'{'}
	for i, k := range d.order {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = append(b, d.fields[k]...)
	}
	return append(b, '}')
}

// entry is a registered item of a catalog: its definition and its script.
type entry struct {
	key      string // tool or prompt name, resource URI or template
	def      json.RawMessage
	script   *script
	problems []string              // what was wrong with the builder
	tmpl     *uritemplate.Template // resource templates only
	required []string              // prompts only: required argument names
	params   []paramHeader         // tools only: the valid x-mcp-header annotations of the inputSchema
}

func (t *Tool) entry() entry {
	e := newEntry(t.name, &t.def, &t.script)
	e.params, _ = paramHeaders(gjson.GetBytes(t.def.fields["inputSchema"], "@this"))
	return e
}

func newEntry(key string, d *definition, s *script) entry {
	return entry{key: key, def: d.render(), script: s.clone(),
		problems: append(append([]string(nil), d.problems...), s.problems...)}
}
