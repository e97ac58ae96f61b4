package config

import (
	"encoding/base64"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// NewServer returns a new mcptest.Server for t, configured as the file
// says. Parse has checked everything a build can trip on, so a Config from
// Parse or Load builds without failing t; a Config made by hand with a
// fault that cannot be built fails t, naming the fault.
func (c *Config) NewServer(t mcptest.TB) *mcptest.Server {
	t.Helper()
	faults := make([]mcptest.Fault, len(c.Faults))
	for i, f := range c.Faults {
		fl, err := buildFault(f)
		if err != nil {
			t.Fatalf("config: faults[%d] (%s): %v", i, f.Name, err)
			return nil
		}
		faults[i] = fl
	}
	srv := mcptest.NewServer(t)
	if c.Server.Name != "" || c.Server.Version != "" {
		srv.WithOptions(mcptest.Options{Name: c.Server.Name, Version: c.Server.Version})
	}
	if c.Server.Title != "" {
		srv.WithOptions(mcptest.Options{Title: c.Server.Title})
	}
	if c.Server.Instructions != "" {
		srv.WithOptions(mcptest.Options{Instructions: c.Server.Instructions})
	}
	if len(c.ProtocolVersions) > 0 {
		srv.WithProtocolVersions(c.ProtocolVersions...)
	}
	if c.PageSize > 0 {
		srv.WithOptions(mcptest.Options{PageSize: c.PageSize})
	}
	if c.Logging {
		srv.WithOptions(mcptest.Options{Logging: true})
	}
	if len(c.Capabilities) > 0 {
		srv.WithCapabilities(json.RawMessage(c.Capabilities))
	}
	if c.toolsSet && len(c.Tools) == 0 {
		srv.WithTools()
	}
	for _, t := range c.Tools {
		srv.WithTools(t.tool())
	}
	for _, r := range c.Resources {
		srv.WithResources(r.resource())
	}
	for _, r := range c.ResourceTemplates {
		srv.WithResourceTemplates(r.template())
	}
	for _, p := range c.Prompts {
		srv.WithPrompts(p.prompt())
	}
	for _, cp := range c.Completions {
		if cp.Prompt != "" {
			srv.WithPromptCompletion(cp.Prompt, cp.Argument, cp.Values...)
		} else {
			srv.WithResourceCompletion(cp.ResourceTemplate, cp.Argument, cp.Values...)
		}
	}
	for _, l := range c.sseFaults() {
		srv.WithFaults(l.fault)
	}
	if c.CacheHints != nil {
		srv.WithOptions(mcptest.Options{CacheTTL: time.Duration(c.CacheHints.TTLMs) * time.Millisecond, CacheScope: c.CacheHints.CacheScope})
	}
	for _, l := range c.resultFieldFaults() {
		faults = append(faults, l.fault)
	}
	if c.FaultSeed != nil {
		srv.WithOptions(mcptest.Options{FaultSeed: *c.FaultSeed})
	}
	if len(faults) > 0 {
		srv.WithFaults(faults...)
	}
	return srv
}

func rawOrNil(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return json.RawMessage(b)
}

func (t Tool) tool() *mcptest.Tool {
	tool := mcptest.NewTool(t.Name)
	if t.Title != "" {
		tool.WithTitle(t.Title)
	}
	if t.Description != "" {
		tool.WithDescription(t.Description)
	}
	if len(t.InputSchema) > 0 {
		tool.WithInputSchema(json.RawMessage(withParamHeaders(t.InputSchema, t.ParamHeaders)))
	}
	if len(t.OutputSchema) > 0 {
		tool.WithOutputSchema(json.RawMessage(t.OutputSchema))
	}
	if len(t.Annotations) > 0 {
		tool.WithAnnotations(json.RawMessage(t.Annotations))
	}
	if len(t.Icons) > 0 {
		tool.WithIcons(json.RawMessage(t.Icons))
	}
	eachField(t.Fields, func(k string, v json.RawMessage) { tool.WithField(k, v) })
	for _, round := range t.RequiresInput {
		tool.RequiresInput(round.inputs()...)
	}
	for _, n := range t.Notifications {
		tool.Notifies(n.Method, rawOrNil(n.Params))
	}
	for _, cs := range t.Cases {
		tool.WhenArgs(json.RawMessage(cs.Arguments), toolReplies(cs.Replies)...)
	}
	if len(t.Replies) > 0 {
		tool.Returns(toolReplies(t.Replies)...)
	}
	return tool
}

// withParamHeaders returns schema with each property of headers (a path
// of properties keys joined by dots) marked "x-mcp-header": its name.
// Parse has checked that the properties are there.
func withParamHeaders(schema json.RawMessage, headers map[string]string) json.RawMessage {
	for _, prop := range sortedKeys(headers) {
		var path []string
		for _, k := range strings.Split(prop, ".") {
			path = append(path, "properties", gjson.Escape(k))
		}
		if b, err := sjson.SetBytes(schema, strings.Join(path, ".")+`.x-mcp-header`, headers[prop]); err == nil {
			schema = b
		}
	}
	return schema
}

// inputs are the round's input requests, in the order of their keys.
func (r InputRound) inputs() []mcptest.InputRequest {
	var out []mcptest.InputRequest
	for _, key := range sortedKeys(r) {
		in := r[key]
		switch in.Method {
		case "elicitation/create":
			p := gjson.ParseBytes(in.Params)
			out = append(out, mcptest.ElicitInput(key, p.Get("message").String(), json.RawMessage(p.Get("requestedSchema").Raw)))
		case "sampling/createMessage":
			out = append(out, mcptest.SamplingInput(key, rawOrNil(in.Params)))
		default:
			out = append(out, mcptest.RootsInput(key))
		}
	}
	return out
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func toolReplies(rs []Reply) []mcptest.Reply {
	out := make([]mcptest.Reply, len(rs))
	for i, r := range rs {
		switch {
		case r.Text != nil:
			out[i] = mcptest.TextResult(*r.Text)
		case r.Error != nil:
			out[i] = mcptest.ToolErrorResult(*r.Error)
		case len(r.Structured) > 0:
			out[i] = mcptest.StructuredResult(json.RawMessage(r.Structured))
		case r.Content != nil:
			items := make([]mcptest.Content, len(r.Content))
			for j, c := range r.Content {
				items[j] = mcptest.RawContent(string(c))
			}
			out[i] = mcptest.ContentResult(items...)
		default:
			out[i] = common(r)
		}
	}
	return out
}

// common is a reply any kind of entry can have: a whole result or a
// JSON-RPC error.
func common(r Reply) mcptest.Reply {
	if r.JSONRPCError != nil {
		if len(r.JSONRPCError.Data) > 0 {
			return mcptest.JSONRPCError(r.JSONRPCError.Code, r.JSONRPCError.Message, json.RawMessage(r.JSONRPCError.Data))
		}
		return mcptest.JSONRPCError(r.JSONRPCError.Code, r.JSONRPCError.Message, nil)
	}
	return mcptest.Result(json.RawMessage(r.Result))
}

func decodeBase64(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }

func (r Resource) resource() *mcptest.Resource {
	res := mcptest.NewResource(r.URI, r.Name)
	if r.Title != "" {
		res.WithTitle(r.Title)
	}
	if r.Description != "" {
		res.WithDescription(r.Description)
	}
	if r.MIMEType != "" {
		res.WithMIMEType(r.MIMEType)
	}
	if r.Size != nil {
		res.WithSize(*r.Size)
	}
	eachField(r.Fields, func(k string, v json.RawMessage) { res.WithField(k, v) })
	for _, round := range r.RequiresInput {
		res.RequiresInput(round.inputs()...)
	}
	if r.Text != nil {
		res.ReturnsText(*r.Text)
	}
	if len(r.Replies) > 0 {
		out := make([]mcptest.Reply, len(r.Replies))
		for i, rep := range r.Replies {
			switch {
			case rep.Text != nil:
				out[i] = mcptest.ReadResult(mcptest.TextResourceContents(r.URI, r.MIMEType, *rep.Text))
			case rep.Blob != nil:
				b, _ := decodeBase64(*rep.Blob)
				out[i] = mcptest.ReadResult(mcptest.BlobResourceContents(r.URI, r.MIMEType, b))
			default:
				out[i] = common(rep)
			}
		}
		res.Returns(out...)
	}
	return res
}

func (r ResourceTemplate) template() *mcptest.ResourceTemplate {
	tpl := mcptest.NewResourceTemplate(r.URITemplate, r.Name)
	if r.Title != "" {
		tpl.WithTitle(r.Title)
	}
	if r.Description != "" {
		tpl.WithDescription(r.Description)
	}
	if r.MIMEType != "" {
		tpl.WithMIMEType(r.MIMEType)
	}
	eachField(r.Fields, func(k string, v json.RawMessage) { tpl.WithField(k, v) })
	commons := func(rs []Reply) []mcptest.Reply {
		out := make([]mcptest.Reply, len(rs))
		for i, rep := range rs {
			out[i] = common(rep)
		}
		return out
	}
	for _, cs := range r.Cases {
		tpl.WhenVars(cs.Vars, commons(cs.Replies)...)
	}
	if len(r.Replies) > 0 {
		tpl.Returns(commons(r.Replies)...)
	}
	if r.Text != nil {
		tpl.ReturnsText(*r.Text)
	}
	return tpl
}

func (p Prompt) prompt() *mcptest.Prompt {
	pr := mcptest.NewPrompt(p.Name)
	if p.Title != "" {
		pr.WithTitle(p.Title)
	}
	if p.Description != "" {
		pr.WithDescription(p.Description)
	}
	for _, a := range p.Arguments {
		pr.WithArgument(a.Name, a.Description, a.Required)
	}
	eachField(p.Fields, func(k string, v json.RawMessage) { pr.WithField(k, v) })
	for _, round := range p.RequiresInput {
		pr.RequiresInput(round.inputs()...)
	}
	replies := func(rs []Reply) []mcptest.Reply {
		out := make([]mcptest.Reply, len(rs))
		for i, rep := range rs {
			if rep.Text != nil {
				out[i] = mcptest.PromptResult(p.Description, mcptest.UserText(*rep.Text))
				continue
			}
			out[i] = common(rep)
		}
		return out
	}
	for _, cs := range p.Cases {
		pr.WhenArgs(json.RawMessage(cs.Arguments), replies(cs.Replies)...)
	}
	if p.Text != nil {
		pr.ReturnsText(*p.Text)
	}
	if len(p.Replies) > 0 {
		pr.Returns(replies(p.Replies)...)
	}
	return pr
}

// eachField calls f with each member of a "fields" object, in order.
func eachField(fields json.RawMessage, f func(key string, value json.RawMessage)) {
	if len(fields) == 0 {
		return
	}
	gjson.ParseBytes(fields).ForEach(func(k, v gjson.Result) bool {
		f(k.String(), json.RawMessage(v.Raw))
		return true
	})
}

// Relist replaces the tools, resources and prompts of srv, a server that
// may be serving, with c's, while its clients stay connected (mcptest's
// SetTools, SetResources, SetPrompts): a says whether each list's
// list_changed notification tells them. lists names the lists to replace,
// among "tools", "resources" and "prompts"; none: all three. The mcpmock
// command's admin API changes a running test's script with it.
func (c *Config) Relist(srv *mcptest.Server, a mcptest.Announce, lists ...string) {
	all := len(lists) == 0
	want := func(name string) bool {
		for _, l := range lists {
			if l == name {
				return true
			}
		}
		return all
	}
	if want("tools") {
		tools := make([]*mcptest.Tool, 0, len(c.Tools))
		for _, t := range c.Tools {
			tools = append(tools, t.tool())
		}
		srv.SetTools(a, tools...)
	}
	if want("resources") {
		resources := make([]*mcptest.Resource, 0, len(c.Resources))
		for _, r := range c.Resources {
			resources = append(resources, r.resource())
		}
		srv.SetResources(a, resources...)
	}
	if want("prompts") {
		prompts := make([]*mcptest.Prompt, 0, len(c.Prompts))
		for _, p := range c.Prompts {
			prompts = append(prompts, p.prompt())
		}
		srv.SetPrompts(a, prompts...)
	}
}
