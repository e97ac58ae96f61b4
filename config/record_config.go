package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/mcpmock/mcpmock/internal/uritemplate"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// This file turns what the Recorder gathered into a Config: cases,
// definitions, notes and redaction.

// Config returns the recording as a Config, with its notes. It may be
// called at any time; it does not change the Recorder.
func (r *Recorder) Config() *Config {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := &Config{Server: r.server}
	var derived []string // notes about this Config, not about what was seen
	if c.Server.Name == "" {
		c.Server.Name = "recorded"
		derived = append(derived, notePlaceholderServer)
	}
	if c.Server.Version == "" {
		c.Server.Version = "0"
	}
	for _, v := range spec.Versions() {
		if r.versions[v] {
			c.ProtocolVersions = append(c.ProtocolVersions, v)
		}
	}
	c.PageSize = r.pageSize
	c.Logging = r.logging
	c.Capabilities = r.caps

	// tools
	for _, name := range r.order(r.tools) {
		t := Tool{Name: name, Unlisted: true}
		if def, ok := r.tools.defs[name]; ok {
			t = toolFrom(def)
		} else if r.listed["tools"] && onlyErrors(r.tools.calls[name]) {
			derived = append(derived, fmt.Sprintf("tool %q, which the list does not have, was called and got JSON-RPC errors: not recorded (the mock answers an unknown tool with its own -32602)", name))
			continue
		}
		t.Cases = toCases(r.tools.calls[name])
		c.Tools = append(c.Tools, t)
	}
	c.toolsSet = r.listed["tools"] || len(c.Tools) > 0
	if c.toolsSet && c.Tools == nil {
		c.Tools = []Tool{}
	}
	// resources and templates: a read is the resource's if it is listed,
	// else a template's whose pattern matches, else an unlisted resource.
	tplReads := map[string][]VarsCase{}
	for _, uri := range r.order(r.resources) {
		cs := r.resources.calls[uri]
		if _, listed := r.resources.defs[uri]; !listed && cs != nil {
			if tpl, vars, ok := r.matchTemplate(uri); ok {
				tplReads[tpl] = append(tplReads[tpl], VarsCase{Vars: vars, Replies: trimReplies(cs.replies[""])})
				continue
			}
		}
		res := Resource{URI: uri, Name: uri, Unlisted: true}
		if def, ok := r.resources.defs[uri]; ok {
			res = resourceFrom(def)
		} else if r.listed["resources"] && onlyErrors(cs) {
			derived = append(derived, fmt.Sprintf("resource %q, which the lists do not have, was read and got JSON-RPC errors: not recorded (the mock answers an unknown resource with its own -32002)", uri))
			continue
		}
		if cs != nil {
			res.Replies = trimReplies(cs.replies[""])
		}
		c.Resources = append(c.Resources, res)
	}
	for _, uri := range r.templates.order {
		t := templateFrom(r.templates.defs[uri])
		t.Cases = tplReads[uri]
		c.ResourceTemplates = append(c.ResourceTemplates, t)
	}
	for _, name := range r.order(r.prompts) {
		p := Prompt{Name: name, Unlisted: true}
		if def, ok := r.prompts.defs[name]; ok {
			p = promptFrom(def)
		} else if r.listed["prompts"] && onlyErrors(r.prompts.calls[name]) {
			derived = append(derived, fmt.Sprintf("prompt %q, which the list does not have, was got and got JSON-RPC errors: not recorded (the mock answers an unknown prompt with its own -32602)", name))
			continue
		}
		p.Cases = toCases(r.prompts.calls[name])
		c.Prompts = append(c.Prompts, p)
	}
	c.CacheHints = r.cacheHints
	for m := range r.sse {
		c.SSEReplies = append(c.SSEReplies, m)
	}
	sort.Strings(c.SSEReplies)
	if len(r.resultFields) > 0 {
		c.ResultFields = map[string]json.RawMessage{}
		for k, v := range r.resultFields {
			c.ResultFields[k] = v
		}
	}
	c.Completions = slices.Clone(r.completions)
	c.Faults = slices.Clone(r.faults)
	c.Redacted = slices.Clone(r.redactedList)
	c.Notes = append(r.renderNotes(), derived...)
	for _, t := range c.Tools {
		if t.Unlisted {
			c.Notes = append(c.Notes, fmt.Sprintf("tool %q was called but never listed (unlisted): its definition is a placeholder", t.Name))
		}
	}
	for _, res := range c.Resources {
		if res.Unlisted {
			c.Notes = append(c.Notes, fmt.Sprintf("resource %q was read but never listed, and no listed template matches it (unlisted): the mock lists it", res.URI))
		}
	}
	for _, p := range c.Prompts {
		if p.Unlisted {
			c.Notes = append(c.Notes, fmt.Sprintf("prompt %q was got but never listed (unlisted): its definition is a placeholder", p.Name))
		}
	}
	return c
}

// onlyErrors reports whether every reply recorded is a JSON-RPC error.
func onlyErrors(cs *calls) bool {
	if cs == nil {
		return false
	}
	for _, rs := range cs.replies {
		for _, rep := range rs {
			if rep.JSONRPCError == nil {
				return false
			}
		}
	}
	return true
}

// order is the entries listed, then the ones only called, by name.
func (r *Recorder) order(e *entries) []string {
	out := slices.Clone(e.order)
	var extra []string
	for name := range e.calls {
		if _, ok := e.defs[name]; !ok {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

func (r *Recorder) renderNotes() []string {
	var out []string
	for _, n := range r.noteOrder {
		if k := r.noteCount[n]; k > 1 {
			n += fmt.Sprintf(" (%d times)", k)
		}
		out = append(out, n)
	}
	return out
}

// Dropped lists what the recording could not keep at all (lines of the
// server that were not JSON in mid-session, unfinished lines), for the
// recorder's report.
func (r *Recorder) Dropped() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.dropped)
}

// toCases turns the calls of one entry into cases, the most specific
// arguments first (a case matches the calls whose arguments contain its
// own, so {"a":1,"b":2} must come before {"a":1}); each case's replies
// are the replies in the order they came, the last repeating.
func toCases(cs *calls) []Case {
	if cs == nil {
		return nil
	}
	keys := slices.Clone(cs.keys)
	sort.SliceStable(keys, func(i, j int) bool { return leaves(keys[i]) > leaves(keys[j]) })
	out := make([]Case, 0, len(keys))
	for _, k := range keys {
		out = append(out, Case{Arguments: cs.args[k], Replies: trimReplies(cs.replies[k])})
	}
	return out
}

// leaves counts the scalar values of a JSON text, a measure of how
// specific a subset is.
func leaves(s string) int {
	v := gjson.Parse(s)
	if !v.IsObject() && !v.IsArray() {
		return 1
	}
	n := 0
	v.ForEach(func(_, c gjson.Result) bool {
		n += leaves(c.Raw)
		return true
	})
	return n
}

// trimReplies drops the repeats at the end of a sequence: the last reply
// repeats anyway.
func trimReplies(rs []Reply) []Reply {
	for len(rs) > 1 && sameReply(rs[len(rs)-1], rs[len(rs)-2]) {
		rs = rs[:len(rs)-1]
	}
	return slices.Clone(rs)
}

func sameReply(a, b Reply) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// matchTemplate finds the first listed template uri is an expansion of,
// as the mock replaying the recording will (internal/uritemplate), and
// returns it with uri's variables. A template the server listed that is
// not RFC 6570 matches nothing.
func (r *Recorder) matchTemplate(uri string) (string, map[string]string, bool) {
	for _, t := range r.templates.order {
		tpl, err := uritemplate.Parse(t)
		if err != nil {
			continue
		}
		if vars, ok := tpl.Match(uri); ok {
			return t, vars, true
		}
	}
	return "", nil, false
}

// The definitions a list returns, turned into entries: the fields the
// format names go into them; the others are kept in "fields".

func toolFrom(def json.RawMessage) Tool {
	var t Tool
	_ = json.Unmarshal(def, &t)
	t.Cases, t.Replies = nil, nil
	t.InputSchema, t.OutputSchema = compact(t.InputSchema), compact(t.OutputSchema)
	t.Annotations, t.Icons = compact(t.Annotations), compact(t.Icons)
	t.Fields = extraFields(def, "name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons")
	return t
}

func resourceFrom(def json.RawMessage) Resource {
	var res Resource
	_ = json.Unmarshal(def, &res)
	res.Text, res.Replies = nil, nil
	res.Fields = extraFields(def, "uri", "name", "title", "description", "mimeType", "size")
	return res
}

func templateFrom(def json.RawMessage) ResourceTemplate {
	var t ResourceTemplate
	_ = json.Unmarshal(def, &t)
	t.Text, t.Cases, t.Replies = nil, nil, nil
	t.Fields = extraFields(def, "uriTemplate", "name", "title", "description", "mimeType")
	return t
}

func promptFrom(def json.RawMessage) Prompt {
	var p Prompt
	var raw struct {
		Arguments []json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(def, &p)
	_ = json.Unmarshal(def, &raw)
	p.Text, p.Cases, p.Replies = nil, nil, nil
	p.Fields = extraFields(def, "name", "title", "description", "arguments")
	// Arguments the format cannot write as they came (a field it does not
	// name, "required": false, another order) are kept whole, in the
	// prompt's fields.
	again, _ := json.Marshal(p.Arguments)
	var whole0 map[string]json.RawMessage
	_ = json.Unmarshal(def, &whole0)
	exact := len(raw.Arguments) == 0 || string(again) == string(compact(whole0["arguments"]))
	for _, a := range raw.Arguments {
		if !exact || extraFields(a, "name", "description", "required") != nil {
			p.Arguments = nil
			p.Fields = extraFields(def, "name", "title", "description")
			break
		}
	}
	return p
}

func orEmpty(b json.RawMessage) []byte {
	if len(b) == 0 {
		return []byte("{}")
	}
	return b
}

// extraFields returns the members of an object other than known, in
// their order, or nil.
func extraFields(obj json.RawMessage, known ...string) json.RawMessage {
	var b bytes.Buffer
	gjson.ParseBytes(obj).ForEach(func(k, v gjson.Result) bool {
		if slices.Contains(known, k.Str) {
			return true
		}
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(k.Raw)
		b.WriteByte(':')
		b.Write(compact([]byte(v.Raw)))
		return true
	})
	if b.Len() == 0 {
		return nil
	}
	b.WriteByte('}')
	return b.Bytes()
}

func compact(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return json.RawMessage(b)
	}
	return out.Bytes()
}

func jsonString(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

func shortText(b []byte) string {
	s := string(b)
	if len(s) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

// redactPath is one --redact path, split into its components.
type redactPath struct {
	text  string
	parts []string
}

func parseRedact(p string) redactPath {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p):
			i++
			cur.WriteByte(p[i])
		case p[i] == '.':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(p[i])
		}
	}
	parts = append(parts, cur.String())
	if len(parts) > 0 && parts[0] == "result" {
		parts = parts[1:]
	}
	return redactPath{text: p, parts: parts}
}

// applyRedact replaces the values at the redact paths in a result and
// notes where.
func (r *Recorder) applyRedact(what string, res []byte) []byte {
	var secrets []string
	for _, p := range r.redact {
		var concrete []string
		var walk func(v gjson.Result, parts []string, prefix string)
		walk = func(v gjson.Result, parts []string, prefix string) {
			if len(parts) == 0 {
				concrete = append(concrete, prefix)
				return
			}
			join := func(k string) string {
				if prefix == "" {
					return k
				}
				return prefix + "." + k
			}
			if parts[0] == "#" || parts[0] == "*" {
				v.ForEach(func(k, c gjson.Result) bool {
					key := k.String()
					if v.IsArray() {
						key = strconv.Itoa(int(k.Int()))
					}
					walk(c, parts[1:], join(gjson.Escape(key)))
					return true
				})
				return
			}
			c := v.Get(gjson.Escape(parts[0]))
			if c.Exists() {
				walk(c, parts[1:], join(gjson.Escape(parts[0])))
			}
		}
		// walk needs positions of array elements.
		walk(gjson.ParseBytes(res), p.parts, "")
		for _, path := range concrete {
			if v := gjson.GetBytes(res, path); v.Type == gjson.String && len(v.Str) >= 4 {
				secrets = append(secrets, v.Str)
			}
			if out, err := sjson.SetBytes(res, path, Redacted); err == nil {
				res = out
				entry := what + ": result." + path
				if !r.redacted[entry] {
					r.redacted[entry] = true
					r.redactedList = append(r.redactedList, entry)
				}
			}
		}
	}
	// A redacted string elsewhere in the result's strings (a structured
	// result is often repeated as text) is replaced too, as it appears
	// there (itself, or JSON-escaped inside a JSON text). Keys are left
	// alone.
	if len(secrets) > 0 {
		var paths []string
		var walk func(v gjson.Result, prefix string)
		walk = func(v gjson.Result, prefix string) {
			switch {
			case v.IsObject() || v.IsArray():
				v.ForEach(func(k, c gjson.Result) bool {
					key := gjson.Escape(k.String())
					if v.IsArray() {
						key = strconv.Itoa(int(k.Int()))
					}
					if prefix != "" {
						key = prefix + "." + key
					}
					walk(c, key)
					return true
				})
			case v.Type == gjson.String && prefix != "":
				paths = append(paths, prefix)
			}
		}
		walk(gjson.ParseBytes(res), "")
		for _, path := range paths {
			v := gjson.GetBytes(res, path).Str
			out := v
			for _, sec := range secrets {
				q, _ := json.Marshal(sec)
				out = strings.ReplaceAll(strings.ReplaceAll(out, sec, Redacted), string(q[1:len(q)-1]), Redacted)
			}
			if out == v {
				continue
			}
			if b, err := sjson.SetBytes(res, path, out); err == nil {
				res = b
				entry := fmt.Sprintf("%s: every other occurrence of a redacted value in the result", what)
				if !r.redacted[entry] {
					r.redacted[entry] = true
					r.redactedList = append(r.redactedList, entry)
				}
			}
		}
	}
	return res
}
