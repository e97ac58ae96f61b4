package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/precheck"
	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/mcpmock/mcpmock/internal/suggest"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/tidwall/gjson"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders the schema library's messages.
var printer = message.NewPrinter(language.English)

// maxErrors bounds how many problems Parse reports.
const maxErrors = 20

// fileParser collects the problems of one file, each placed at its line.
type fileParser struct {
	file string
	data []byte
	// at maps a JSON pointer ("/tools/0/name") to the offset of its key
	// (or of the array element), so that a problem names its line.
	at   map[string]int
	errs []*Error
	seen map[string]bool // pointers that already have an error
}

func (p *fileParser) result() error {
	sort.SliceStable(p.errs, func(i, j int) bool {
		a, b := p.errs[i], p.errs[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	errs := p.errs
	if len(errs) > maxErrors {
		errs = errs[:maxErrors]
	}
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return errors.Join(out...)
}

// position turns a byte offset into a 1-based line and column.
func (p *fileParser) position(off int) (line, col int) {
	if off > len(p.data) {
		off = len(p.data)
	}
	if off < 0 {
		off = 0
	}
	before := p.data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

func (p *fileParser) errAt(off int, ptr, msg string) error {
	line, col := p.position(off)
	e := &Error{File: p.file, Line: line, Column: col, Field: field(ptr), Msg: msg}
	p.errs = append(p.errs, e)
	return e
}

// add records a problem at the JSON pointer ptr (or its nearest parent the
// index knows), once per pointer and message.
func (p *fileParser) add(ptr, msg string) {
	key := ptr + "\x00" + msg
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	if p.seen[key] {
		return
	}
	p.seen[key] = true
	off, q := 0, ptr
	for {
		if o, ok := p.at[q]; ok {
			off = o
			break
		}
		i := strings.LastIndexByte(q, '/')
		if i < 0 {
			break
		}
		q = q[:i]
	}
	_ = p.errAt(off, ptr, msg)
}

func (p *fileParser) syntaxError(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return p.errAt(int(se.Offset), "", "invalid JSON: "+se.Error())
	case errors.As(err, &te):
		return p.errAt(int(te.Offset), "", "invalid JSON: "+te.Error())
	case errors.Is(err, io.EOF):
		return p.errAt(0, "", "the file is empty: it must hold one JSON object (see the schema, config/schema.json)")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return p.errAt(len(p.data), "", "invalid JSON: the file ends in the middle of a value")
	}
	return p.errAt(0, "", "invalid JSON: "+err.Error())
}

// field renders a JSON pointer as a field path: /tools/0/inputSchema is
// tools[0].inputSchema.
func field(ptr string) string {
	if ptr == "" {
		return ""
	}
	var b strings.Builder
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(tok); err == nil {
			fmt.Fprintf(&b, "[%s]", tok)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

func pointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// index records the offset of every member and element of the document.
// The document is known to be valid JSON.
func (p *fileParser) index() {
	p.at = map[string]int{"": 0}
	dec := json.NewDecoder(bytes.NewReader(p.data))
	dec.UseNumber()
	// start returns the offset of the next token, skipping what separates
	// tokens.
	start := func() int {
		off := int(dec.InputOffset())
		for off < len(p.data) {
			switch p.data[off] {
			case ' ', '\t', '\r', '\n', ',', ':':
				off++
				continue
			}
			break
		}
		return off
	}
	var walk func(ptr string) bool
	walk = func(ptr string) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				off := start()
				k, err := dec.Token()
				if err != nil {
					return false
				}
				child := ptr + "/" + pointerToken(k.(string))
				p.at[child] = off
				if !walk(child) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				child := ptr + "/" + strconv.Itoa(i)
				p.at[child] = start()
				if !walk(child) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		}
		return true
	}
	p.at[""] = start()
	walk("")
}

// validate checks the document against the schema.
func (p *fileParser) validate(doc any) {
	err := compiled().Validate(doc)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return
	}
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				leaves(c)
			}
			return
		}
		ptr := ""
		for _, tok := range e.InstanceLocation {
			ptr += "/" + pointerToken(tok)
		}
		if p.skipSchemaError(ptr, e) {
			return
		}
		p.add(ptr, schemaMessage(ptr, e))
	}
	leaves(ve)
}

// skipSchemaError drops what checkFaultNames says better: the schema's
// errors inside a fault whose name is unknown.
func (p *fileParser) skipSchemaError(ptr string, e *jsonschema.ValidationError) bool {
	for k := range p.seen {
		bad, _, _ := strings.Cut(k, "\x00")
		if strings.HasSuffix(bad, "/fault") && strings.HasPrefix(ptr, strings.TrimSuffix(bad, "/fault")) {
			return true
		}
	}
	return false
}

// schemaMessage says what the schema found, in plain words where the
// library's wording is terse.
func schemaMessage(ptr string, e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		names := make([]string, len(k.Properties))
		for i, n := range k.Properties {
			names[i] = strconv.Quote(n)
		}
		allowed := allowedKeys(ptr)
		msg := fmt.Sprintf("unknown field %s", strings.Join(names, ", "))
		if len(k.Properties) == 1 {
			if near, ok := closest(k.Properties[0], allowed); ok {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
		}
		if len(allowed) > 0 {
			msg += "; allowed here: " + strings.Join(allowed, ", ")
		}
		return msg
	case *kind.Required:
		return fmt.Sprintf("missing required field %s", quoteList(k.Missing))
	case *kind.ExclusiveMinimum:
		return fmt.Sprintf("got %s, want more than %s", k.Got.RatString(), k.Want.RatString())
	case *kind.Pattern:
		if k.Want == durationPattern {
			return fmt.Sprintf(`%q is not a duration: write it as Go does, e.g. "250ms", "2s", "1m30s"`, k.Got)
		}
	case *kind.MaxProperties, *kind.MinProperties:
		if def := defFor(ptr); strings.HasSuffix(def, "Reply") {
			return "a reply sets exactly one of " + strings.Join(allowedKeys(ptr), ", ")
		}
	}
	return e.ErrorKind.LocalizedString(printer)
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// allowedKeys lists the fields the schema allows at ptr, for "unknown
// field" messages.
func allowedKeys(ptr string) []string {
	def := defFor(ptr)
	if def == "" {
		return nil
	}
	props, _ := schemaDoc()["$defs"].(map[string]any)[def].(map[string]any)["properties"].(map[string]any)
	var out []string
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// defFor names the schema definition that describes the value at ptr.
func defFor(ptr string) string {
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	if ptr == "" {
		return "config"
	}
	// Walk the pointer through the document's shape.
	cur := "config"
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if _, err := strconv.Atoi(t); err == nil {
			continue
		}
		next := map[string]map[string]string{
			"config":           {"server": "serverInfo", "tools": "tool", "resources": "resource", "resourceTemplates": "resourceTemplate", "prompts": "prompt", "completions": "completion", "faults": ""},
			"tool":             {"cases": "case", "replies": "toolReply"},
			"case":             {"replies": "toolReply"},
			"resource":         {"replies": "resourceReply"},
			"resourceTemplate": {"cases": "varsCase", "replies": "templateReply"},
			"varsCase":         {"replies": "templateReply"},
			"prompt":           {"cases": "promptCase", "replies": "promptReply", "arguments": "promptArgument"},
			"promptCase":       {"replies": "promptReply"},
			"toolReply":        {"rpcError": "rpcError"},
			"resourceReply":    {"rpcError": "rpcError"},
			"templateReply":    {"rpcError": "rpcError"},
			"promptReply":      {"rpcError": "rpcError"},
		}[cur]
		d, ok := next[t]
		if !ok {
			return ""
		}
		cur = d
		if cur == "" {
			return ""
		}
	}
	return cur
}

// checkFaultNames reports unknown fault names with a did-you-mean (the
// schema's enum error would list all of them).
func (p *fileParser) checkFaultNames(doc any) {
	m, _ := doc.(map[string]any)
	list, _ := m["faults"].([]any)
	for i, f := range list {
		fm, ok := f.(map[string]any)
		if !ok {
			continue
		}
		name, ok := fm["fault"].(string)
		if !ok {
			continue
		}
		if _, known := faultSpecs()[name]; known {
			continue
		}
		msg := fmt.Sprintf("unknown fault %q", name)
		if near, ok := closest(name, faultNames()); ok {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		msg += "; `mcpmock list --faults` lists them, with their parameters"
		p.add(fmt.Sprintf("/faults/%d/fault", i), msg)
	}
}

// semantics checks what the schema cannot: durations, duplicate names,
// base64, the fault parameters' values.
func (p *fileParser) semantics(c *Config) {
	dup := func(kind, list string, names []string) {
		seen := map[string]int{}
		for i, n := range names {
			if j, ok := seen[n]; ok {
				p.add(fmt.Sprintf("/%s/%d", list, i), fmt.Sprintf("%s %q is defined twice (first at %s[%d]): names must be unique", kind, n, list, j))
				continue
			}
			seen[n] = i
		}
	}
	var names []string
	for _, t := range c.Tools {
		names = append(names, t.Name)
	}
	dup("tool", "tools", names)
	names = nil
	for _, r := range c.Resources {
		names = append(names, r.URI)
	}
	dup("resource URI", "resources", names)
	names = nil
	for _, r := range c.ResourceTemplates {
		names = append(names, r.URITemplate)
	}
	dup("resource template", "resourceTemplates", names)
	names = nil
	for _, r := range c.Prompts {
		names = append(names, r.Name)
	}
	dup("prompt", "prompts", names)

	for i, r := range c.Resources {
		for j, rep := range r.Replies {
			if rep.Blob != nil {
				if _, err := decodeBase64(*rep.Blob); err != nil {
					p.add(fmt.Sprintf("/resources/%d/replies/%d/blob", i, j), "not base64: "+err.Error())
				}
			}
		}
	}
	both := func(ptr string, a, b bool, what string) {
		if a && b {
			p.add(ptr, what)
		}
	}
	for i, r := range c.Resources {
		both(fmt.Sprintf("/resources/%d/text", i), r.Text != nil, len(r.Replies) > 0, `set "text" or "replies", not both`)
	}
	for i, r := range c.ResourceTemplates {
		both(fmt.Sprintf("/resourceTemplates/%d/text", i), r.Text != nil, len(r.Replies) > 0, `set "text" or "replies", not both ("text" answers every URI "cases" does not)`)
	}
	for i, r := range c.Prompts {
		both(fmt.Sprintf("/prompts/%d/text", i), r.Text != nil, len(r.Replies) > 0, `set "text" or "replies", not both`)
	}
	for i, r := range c.ResourceTemplates {
		if err := precheck.URITemplate(r.URITemplate); err != nil {
			p.add(fmt.Sprintf("/resourceTemplates/%d/uriTemplate", i), err.Error())
		}
	}
	for i, cp := range c.Completions {
		if (cp.Prompt == "") == (cp.ResourceTemplate == "") {
			p.add(fmt.Sprintf("/completions/%d", i), `set exactly one of "prompt" and "resourceTemplate"`)
		}
	}
	for i, t := range c.Tools {
		p.checkInputs(fmt.Sprintf("/tools/%d", i), t.RequiresInput)
		for j, n := range t.Notifications {
			if m, ok := spec.Lookup(n.Method); !ok || !m.Notification || m.FromServer == 0 {
				p.add(fmt.Sprintf("/tools/%d/notifications/%d/method", i, j), fmt.Sprintf("%q is no notification a server sends; these are: %s", n.Method, strings.Join(serverNotifications(), ", ")))
			}
		}
		schema := gjson.ParseBytes(t.InputSchema)
		for _, prop := range sortedKeys(t.ParamHeaders) {
			at := "properties." + strings.ReplaceAll(prop, ".", ".properties.")
			if !schema.Get(at).IsObject() {
				p.add(fmt.Sprintf("/tools/%d/paramHeaders/%s", i, strings.ReplaceAll(strings.ReplaceAll(prop, "~", "~0"), "/", "~1")),
					fmt.Sprintf("the inputSchema has no property %q to mark with x-mcp-header (a nested one is written a.b)", prop))
			}
		}
	}
	for i, r := range c.Prompts {
		p.checkInputs(fmt.Sprintf("/prompts/%d", i), r.RequiresInput)
	}
	for i, r := range c.Resources {
		p.checkInputs(fmt.Sprintf("/resources/%d", i), r.RequiresInput)
	}
	for _, f := range c.Faults {
		if ptr, msg := faultProblem(f); msg != "" {
			p.add(ptr, msg)
		}
	}
	for _, l := range append(c.sseFaults(), c.resultFieldFaults()...) {
		if err := l.fault.Err(); err != nil {
			p.add(l.ptr, err.Error())
		}
	}
}

// checkInputs checks the rounds of input requests of the entry at ptr:
// what the schema cannot say (an elicitation's message and
// requestedSchema, a key asked in two rounds).
func (p *fileParser) checkInputs(ptr string, rounds []InputRound) {
	seen := map[string]int{}
	for i, round := range rounds {
		for _, key := range sortedKeys(round) {
			at := fmt.Sprintf("%s/requiresInput/%d/%s", ptr, i, strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1"))
			if j, dup := seen[key]; dup {
				p.add(at, fmt.Sprintf("input %q is asked in round %d already: keys must be unique across the rounds", key, j))
			}
			seen[key] = i
			in := round[key]
			par := gjson.ParseBytes(in.Params)
			if in.Method == "elicitation/create" && (par.Get("message").Type != gjson.String || !par.Get("requestedSchema").IsObject()) {
				p.add(at, `an elicitation/create needs params with "message" (a string) and "requestedSchema" (an object)`)
			}
		}
	}
}

// serverNotifications names the notifications a server sends.
func serverNotifications() []string {
	var names []string
	for _, m := range spec.Methods(func(m spec.Method) bool { return m.Notification && m.FromServer != 0 }) {
		names = append(names, m.Name)
	}
	return names
}

// paramError is a fault parameter with a value the schema allowed but the
// fault cannot take.
type paramError struct{ param, msg string }

func (e *paramError) Error() string { return e.param + ": " + e.msg }

func parseDuration(param string, raw json.RawMessage) (time.Duration, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, &paramError{param, `want a duration such as "250ms" or "2s"`}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, &paramError{param, fmt.Sprintf(`%q is not a duration: write it as Go does, e.g. "250ms", "2s", "1m30s"`, s)}
	}
	return d, nil
}

// closest returns the candidate nearest to s, if it is near enough to be a
// typo (a third of its length, and one).
func closest(s string, candidates []string) (string, bool) {
	limit := len(s)/3 + 1
	best, d := suggest.Nearest(s, candidates, limit)
	if d < 0 || d > limit {
		return "", false
	}
	return best, true
}
