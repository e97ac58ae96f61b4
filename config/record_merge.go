package config

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpmock/mcpmock/internal/uritemplate"
)

// timesRE reads the count renderNotes gives a repeated note.
var timesRE = regexp.MustCompile(`^(.*) \((\d+) times\)$`)

// Include adds an earlier recording to the Recorder, before what it
// records next: its server, lists, cases, replies, completions, faults and
// notes. A session recorded after it merges into it as a session of the
// same recording would (`mcpmock record --append`: a stdio client that
// spawns its server several times gets one recording of them all). Replies
// a file gives without arguments (a tool's "replies", a "text") are not
// recordings' and are kept only as a note.
func (r *Recorder) Include(c *Config) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.serverSet && c.Server.Name != "" && !slices.Contains(c.Notes, notePlaceholderServer) {
		r.server = c.Server
		r.serverSet = true
	}
	for _, v := range c.ProtocolVersions {
		r.versions[v] = true
	}
	r.pageSize = max(r.pageSize, c.PageSize)
	r.logging = r.logging || c.Logging
	if r.caps == nil && len(c.Capabilities) > 0 {
		r.caps = compact(c.Capabilities)
	}
	if r.cacheHints == nil && c.CacheHints != nil {
		h := *c.CacheHints
		r.cacheHints = &h
	}
	for m, f := range c.ResultFields {
		if r.resultFields == nil {
			r.resultFields = map[string]json.RawMessage{}
		}
		if _, ok := r.resultFields[m]; !ok {
			r.resultFields[m] = compact(f)
		}
	}
	for _, m := range c.SSEReplies {
		r.sseReply(m)
	}
	if c.toolsSet && !slices.ContainsFunc(c.Tools, func(t Tool) bool { return t.Unlisted }) {
		r.listed["tools"] = true
	}
	for _, t := range c.Tools {
		def := t
		def.Cases, def.Replies, def.Fields = nil, nil, nil
		if !t.Unlisted {
			r.listed["tools"] = true
			r.tools.define(t.Name, definition(def, t.Fields))
		}
		for _, cs := range t.Cases {
			r.includeCase(r.tools, t.Name, cs)
		}
		if len(t.Replies) > 0 {
			r.note("tool %q: its replies without arguments (from the file merged into) are dropped", t.Name)
		}
	}
	for _, res := range c.Resources {
		def := res
		def.Text, def.Replies, def.Fields = nil, nil, nil
		if !res.Unlisted {
			r.listed["resources"] = true
			r.resources.define(res.URI, definition(def, res.Fields))
		}
		for _, rep := range res.Replies {
			r.resources.record(res.URI, "", nil, rep)
		}
		if res.Text != nil {
			r.note("resource %q: its text (from the file merged into) is dropped", res.URI)
		}
	}
	if len(c.ResourceTemplates) > 0 {
		r.listed["resourceTemplates"] = true
	}
	for _, tpl := range c.ResourceTemplates {
		def := tpl
		def.Text, def.Cases, def.Replies, def.Fields = nil, nil, nil, nil
		r.templates.define(tpl.URITemplate, definition(def, tpl.Fields))
		parsed, perr := uritemplate.Parse(tpl.URITemplate)
		for _, cs := range tpl.Cases {
			err := perr
			uri := ""
			if err == nil {
				uri, err = parsed.Expand(cs.Vars)
			}
			if err != nil {
				r.note("resource template %q: its case for %v (from the file merged into) is dropped: %v", tpl.URITemplate, cs.Vars, err)
				continue
			}
			for _, rep := range cs.Replies {
				r.resources.record(uri, "", nil, rep)
			}
		}
	}
	for _, p := range c.Prompts {
		def := p
		def.Text, def.Cases, def.Replies, def.Fields = nil, nil, nil, nil
		if !p.Unlisted {
			r.listed["prompts"] = true
			r.prompts.define(p.Name, definition(def, p.Fields))
		}
		for _, cs := range p.Cases {
			r.includeCase(r.prompts, p.Name, cs)
		}
	}
	for _, cp := range c.Completions {
		k := cp.Prompt + "\x00" + cp.ResourceTemplate + "\x00" + cp.Argument
		i, ok := r.compIdx[k]
		if !ok {
			i = len(r.completions)
			r.compIdx[k] = i
			r.completions = append(r.completions, Completion{Prompt: cp.Prompt, ResourceTemplate: cp.ResourceTemplate, Argument: cp.Argument, Values: []string{}})
		}
		for _, v := range cp.Values {
			if !slices.Contains(r.completions[i].Values, v) {
				r.completions[i].Values = append(r.completions[i].Values, v)
			}
		}
	}
	for _, f := range c.Faults {
		b, _ := f.MarshalJSON()
		if !r.faultKeys[string(b)] {
			r.faultKeys[string(b)] = true
			r.faults = append(r.faults, f)
		}
	}
	for _, n := range c.Notes {
		if strings.Contains(n, "(unlisted)") || n == notePlaceholderServer {
			continue // Config says it again if it is still so
		}
		k := 1
		if m := timesRE.FindStringSubmatch(n); m != nil {
			n = m[1]
			k, _ = strconv.Atoi(m[2])
		}
		if r.noteCount[n] == 0 {
			r.noteOrder = append(r.noteOrder, n)
		}
		r.noteCount[n] += k
	}
	for _, e := range c.Redacted {
		if !r.redacted[e] {
			r.redacted[e] = true
			r.redactedList = append(r.redactedList, e)
		}
	}
}

func (r *Recorder) includeCase(e *entries, name string, cs Case) {
	var v any
	key := string(compact(cs.Arguments))
	if err := json.Unmarshal(cs.Arguments, &v); err == nil {
		b, _ := json.Marshal(v)
		key = string(b)
	}
	for _, rep := range cs.Replies {
		e.record(name, key, compact(cs.Arguments), rep)
	}
}

// definition is an entry's JSON as a list shows it: the named fields, then
// the other members.
func definition(v any, fields json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(v)
	if len(fields) == 0 {
		return compact(b)
	}
	f := compact(fields)
	if len(f) <= 2 {
		return compact(b)
	}
	if len(b) <= 2 {
		return f
	}
	return compact(append(append(b[:len(b)-1:len(b)-1], ','), f[1:]...))
}
