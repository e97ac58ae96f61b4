package mcptest

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Tool is a tool the mock serves: its definition, as tools/list shows it,
// and its scripted answers to tools/call. Build one with NewTool and the
// chained methods, then register it with Server.WithTool or Server.SetTools.
// Changes to a Tool after it is registered have no effect on the server.
type Tool struct {
	name   string
	fields map[string]json.RawMessage
	order  []string
	script script
}

// NewTool starts the definition of a tool named name. Its inputSchema is
// {"type":"object"} until WithInputSchema says otherwise.
func NewTool(name string) *Tool {
	t := &Tool{name: name, fields: map[string]json.RawMessage{}}
	t.set("name", strconv.Quote(name), "NewTool")
	t.set("inputSchema", `{"type":"object"}`, "NewTool")
	return t
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

func (t *Tool) set(key string, v any, call string) *Tool {
	b, err := toJSON(v)
	if err != nil {
		t.script.problems = append(t.script.problems, call+": "+err.Error())
		return t
	}
	if _, ok := t.fields[key]; !ok {
		t.order = append(t.order, key)
	}
	t.fields[key] = b
	return t
}

func (t *Tool) setObject(key string, v any, call string) *Tool {
	b, err := toJSONObject(v)
	if err != nil {
		t.script.problems = append(t.script.problems, call+": "+err.Error())
		return t
	}
	return t.set(key, json.RawMessage(b), call)
}

// WithTitle sets the human-readable title (protocol 2025-06-18 and later).
func (t *Tool) WithTitle(title string) *Tool { return t.set("title", title, "WithTitle") }

// WithDescription sets the description.
func (t *Tool) WithDescription(d string) *Tool { return t.set("description", d, "WithDescription") }

// WithInputSchema sets the JSON Schema of the arguments: a JSON text or a
// Go value that encodes to an object.
func (t *Tool) WithInputSchema(schema any) *Tool {
	return t.setObject("inputSchema", schema, "WithInputSchema")
}

// WithOutputSchema sets the JSON Schema of structuredContent (2025-06-18 and later).
func (t *Tool) WithOutputSchema(schema any) *Tool {
	return t.setObject("outputSchema", schema, "WithOutputSchema")
}

// WithAnnotations sets the tool annotations (readOnlyHint, destructiveHint, …),
// a JSON text or a Go value that encodes to an object.
func (t *Tool) WithAnnotations(annotations any) *Tool {
	return t.setObject("annotations", annotations, "WithAnnotations")
}

// WithIcons sets the icons (2025-11-25 and later): a JSON array text or a Go slice.
func (t *Tool) WithIcons(icons any) *Tool { return t.set("icons", icons, "WithIcons") }

// WithField sets any other field of the definition to a JSON text or Go
// value, e.g. "_meta" or one the spec does not know.
func (t *Tool) WithField(key string, value any) *Tool {
	return t.set(key, value, "WithField("+strconv.Quote(key)+")")
}

// Returns scripts the replies to tools/call: the first call gets the first
// reply, the next the next, and the last repeats. Calling Returns again
// appends to the sequence.
func (t *Tool) Returns(replies ...Reply) *Tool {
	t.script.add(fmt.Sprintf("NewTool(%q).Returns", t.name), replies)
	return t
}

// ReturnsText is Returns(TextResult(text)).
func (t *Tool) ReturnsText(text string) *Tool { return t.Returns(TextResult(text)) }

// ReturnsError is Returns(ErrorResult(text)): a result with isError set.
func (t *Tool) ReturnsError(text string) *Tool { return t.Returns(ErrorResult(text)) }

// ReturnsStructured is Returns(StructuredResult(v)).
func (t *Tool) ReturnsStructured(v any) *Tool { return t.Returns(StructuredResult(v)) }

// WhenArgs scripts replies for calls whose arguments contain subset (a JSON
// object, as text or Go value: every key given must be present with an
// equal value; other keys may be there too). Cases are tried in the order
// they were added, before the replies of Returns; each case keeps its own
// sequence, the last reply repeating.
func (t *Tool) WhenArgs(subset any, replies ...Reply) *Tool {
	t.script.when(fmt.Sprintf("NewTool(%q).WhenArgs", t.name), subset, replies)
	return t
}

// HandledBy sets a Handler for the calls no WhenArgs case or Returns reply answers.
func (t *Tool) HandledBy(h Handler) *Tool {
	t.script.handle(fmt.Sprintf("NewTool(%q).HandledBy", t.name), h)
	return t
}

// String names the tool, for failure messages.
func (t *Tool) String() string { return fmt.Sprintf("NewTool(%q)", t.name) }

// definition renders the tool as tools/list shows it.
func (t *Tool) definition() json.RawMessage {
	return renderObject(t.order, t.fields)
}

func renderObject(order []string, fields map[string]json.RawMessage) json.RawMessage {
	b := []byte{'{'}
	for i, k := range order {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = append(b, fields[k]...)
	}
	return append(b, '}')
}

// entry is a registered item of a catalog: its definition and its script.
type entry struct {
	key      string // tool or prompt name, resource URI or template
	def      json.RawMessage
	script   *script
	tmpl     *uriTemplate // resource templates only
	required []string     // prompts only: required argument names
}

func (t *Tool) entry() entry {
	return entry{key: t.name, def: t.definition(), script: t.script.clone()}
}
