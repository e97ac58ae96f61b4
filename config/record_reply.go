package config

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// This file is how the Recorder reads a server's replies: results,
// errors, pages, identity, versions and completions.

// isModern reports whether a request is of the stateless era.
func isModern(req gjson.Result) bool {
	return req.Get("params._meta").Get(gjson.Escape(spec.MetaProtocolVersion)).Exists()
}

// reply turns a response into a Reply: a whole result (without what the
// mock adds itself in the stateless era) or a JSON-RPC error.
func (r *Recorder) reply(what string, req, resp gjson.Result) Reply {
	if e := resp.Get("error"); e.Exists() {
		re := &JSONRPCError{Code: int(e.Get("code").Int()), Message: e.Get("message").String()}
		if d := e.Get("data"); d.Exists() {
			re.Data = json.RawMessage(d.Raw)
		}
		return Reply{JSONRPCError: re}
	}
	res := []byte(resp.Get("result").Raw)
	if isModern(req) {
		res = stripModern(res)
	}
	res = r.applyRedact(what, res)
	return Reply{Result: compact(res)}
}

// stripModern removes what the mock adds to every stateless-era result
// (resultType "complete", the serverInfo _meta key, caching hints), so
// that a recording of either era replays in both.
func stripModern(res []byte) []byte {
	if gjson.GetBytes(res, "resultType").String() == "complete" {
		res, _ = sjson.DeleteBytes(res, "resultType")
	}
	for _, k := range []string{"ttlMs", "cacheScope", "_meta." + gjson.Escape(spec.MetaServerInfo)} {
		res, _ = sjson.DeleteBytes(res, k)
	}
	if m := gjson.GetBytes(res, "_meta"); m.IsObject() && len(m.Map()) == 0 {
		res, _ = sjson.DeleteBytes(res, "_meta")
	}
	return res
}

func (r *Recorder) response(s *recSession, req, resp gjson.Result) {
	method := req.Get("method").String()
	params := req.Get("params")
	result := resp.Get("result")
	if e := resp.Get("error"); e.Exists() && !slices.Contains([]string{"tools/call", "resources/read", "prompts/get"}, method) {
		r.addFault(Fault{Name: "ReplaceWithJSONRPCError", Params: map[string]json.RawMessage{
			"method": jsonString(method), "code": json.RawMessage(strconv.FormatInt(e.Get("code").Int(), 10)),
			"message": jsonString(e.Get("message").String()), "optional": json.RawMessage("true"),
		}}, fmt.Sprintf("the server answered %s with JSON-RPC error %d %q: recorded as a ReplaceWithJSONRPCError fault", method, e.Get("code").Int(), e.Get("message").String()))
		return
	}
	if isModern(req) {
		r.hints(result)
	}
	switch method {
	case "initialize":
		r.identity(result.Get("serverInfo"), result.Get("instructions"), result.Get("capabilities"))
		r.version(result.Get("protocolVersion").String())
	case "server/discover":
		info := result.Get("serverInfo")
		if !info.Exists() {
			info = result.Get("_meta").Get(gjson.Escape(spec.MetaServerInfo))
		}
		r.identity(info, result.Get("instructions"), result.Get("capabilities"))
		result.Get("supportedVersions").ForEach(func(_, v gjson.Result) bool {
			r.version(v.String())
			return true
		})
	case "tools/list":
		r.list(r.tools, "tools", result, "name", req)
	case "resources/list":
		r.list(r.resources, "resources", result, "uri", req)
	case "resources/templates/list":
		r.list(r.templates, "resourceTemplates", result, "uriTemplate", req)
	case "prompts/list":
		r.list(r.prompts, "prompts", result, "name", req)
	case "tools/call":
		name := params.Get("name").String()
		key, args := argsKey(r.argsOf("tools/call "+name, params.Get("arguments")))
		r.tools.record(name, key, args, r.reply("tools/call "+name, req, resp))
	case "prompts/get":
		name := params.Get("name").String()
		key, args := argsKey(r.argsOf("prompts/get "+name, params.Get("arguments")))
		r.prompts.record(name, key, args, r.reply("prompts/get "+name, req, resp))
	case "resources/read":
		uri := params.Get("uri").String()
		r.resources.record(uri, "", nil, r.reply("resources/read "+uri, req, resp))
	case "completion/complete":
		r.completion(params, result)
	case "logging/setLevel":
		r.logging = true
	case "ping", "resources/subscribe", "resources/unsubscribe", "subscriptions/listen":
	default:
		r.note("the server answered %s: not replayed (the format has no entry for it; Server.Handle can script it in Go)", method)
	}
}

// hints records the caching hints of a stateless-era result, the first
// seen.
func (r *Recorder) hints(result gjson.Result) {
	ttl, scope := result.Get("ttlMs"), result.Get("cacheScope")
	if r.cacheHints != nil || !ttl.Exists() || !scope.Exists() {
		return
	}
	if s := scope.String(); s == "public" || s == "private" {
		r.cacheHints = &CacheHints{TTLMs: ttl.Int(), CacheScope: s}
	}
}

func (r *Recorder) identity(info, instructions, caps gjson.Result) {
	if info.IsObject() {
		si := ServerInfo{Name: info.Get("name").String(), Version: info.Get("version").String(), Title: info.Get("title").String()}
		if r.serverSet && (si.Name != r.server.Name || si.Version != r.server.Version) {
			r.note("the sessions met different servers (%s %s, then %s %s): the first is recorded", r.server.Name, r.server.Version, si.Name, si.Version)
		}
		if !r.serverSet {
			r.server.Name, r.server.Version, r.server.Title = si.Name, si.Version, si.Title
			r.serverSet = true
			info.ForEach(func(k, _ gjson.Result) bool {
				if k.Str != "name" && k.Str != "version" && k.Str != "title" {
					r.serverExtra = append(r.serverExtra, k.Str)
				}
				return true
			})
			if len(r.serverExtra) > 0 {
				r.note("serverInfo's %s not recorded: the format has no field for them (a CorruptServerInfo fault can send a whole serverInfo)", strings.Join(r.serverExtra, ", "))
			}
		}
	}
	if instructions.Exists() && r.server.Instructions == "" {
		r.server.Instructions = instructions.String()
	}
	if caps.IsObject() && r.caps == nil {
		r.caps = compact([]byte(caps.Raw))
		if caps.Get("logging").Exists() {
			r.logging = true
		}
	}
}

func (r *Recorder) version(v string) {
	if v == "" {
		return
	}
	if !spec.Known(v) {
		if !slices.Contains(r.unknownVer, v) {
			r.unknownVer = append(r.unknownVer, v)
			r.note("the server spoke protocol version %q, which the mock does not know: not recorded", v)
		}
		return
	}
	r.versions[v] = true
}

func (r *Recorder) list(e *entries, key string, result gjson.Result, idKey string, req gjson.Result) {
	r.listed[key] = true
	method := req.Get("method").String()
	rest := []byte(result.Raw)
	if isModern(req) {
		rest = stripModern(rest)
	}
	if extra := extraFields(rest, key, "nextCursor"); extra != nil {
		if r.resultFields == nil {
			r.resultFields = map[string]json.RawMessage{}
		}
		merged := orEmpty(r.resultFields[method])
		gjson.ParseBytes(extra).ForEach(func(k, v gjson.Result) bool {
			if !gjson.GetBytes(merged, gjson.Escape(k.String())).Exists() {
				merged, _ = sjson.SetRawBytes(merged, gjson.Escape(k.String()), []byte(v.Raw))
			}
			return true
		})
		r.resultFields[method] = merged
	}
	items := result.Get(key)
	n := 0
	items.ForEach(func(_, item gjson.Result) bool {
		n++
		e.define(item.Get(idKey).String(), compact([]byte(item.Raw)))
		return true
	})
	if result.Get("nextCursor").String() != "" && n > r.pageSize {
		r.pageSize = n
	}
}

func (r *Recorder) completion(params, result gjson.Result) {
	ref := params.Get("ref")
	c := Completion{Argument: params.Get("argument.name").String()}
	switch ref.Get("type").String() {
	case "ref/prompt":
		c.Prompt = ref.Get("name").String()
	case "ref/resource":
		c.ResourceTemplate = ref.Get("uri").String()
	default:
		r.note("completion/complete for a reference of type %q: not replayed", ref.Get("type").String())
		return
	}
	k := c.Prompt + "\x00" + c.ResourceTemplate + "\x00" + c.Argument
	i, ok := r.compIdx[k]
	if !ok {
		i = len(r.completions)
		r.compIdx[k] = i
		c.Values = []string{}
		r.completions = append(r.completions, c)
	}
	typed := params.Get("argument.value").String()
	result.Get("completion.values").ForEach(func(_, v gjson.Result) bool {
		if !strings.HasPrefix(v.String(), typed) {
			r.note("completion values that do not start with what the client typed (%q for %q): the mock completes by prefix", v.String(), typed)
		}
		if !slices.Contains(r.completions[i].Values, v.String()) {
			r.completions[i].Values = append(r.completions[i].Values, v.String())
		}
		return true
	})
	n := len(result.Get("completion.values").Array())
	if result.Get("completion.hasMore").Bool() || result.Get("completion.total").Exists() && result.Get("completion.total").Int() != int64(n) {
		r.note("completion results with more values than they list (total, hasMore): the mock lists the values it saw and computes total and hasMore from them")
	}
}

// argsKey returns the matching key of a request's arguments (their JSON
// with keys sorted) and the arguments as the file writes them.
func argsKey(args gjson.Result) (string, json.RawMessage) {
	if !args.Exists() || args.Type == gjson.Null {
		return "{}", json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal([]byte(args.Raw), &v); err != nil {
		return args.Raw, compact([]byte(args.Raw))
	}
	b, _ := json.Marshal(v)
	return string(b), compact([]byte(args.Raw))
}

// notePlaceholderServer is the note of a recording without the server's
// identity.
const notePlaceholderServer = "the recording has no initialize or server/discover result: the server's name and version are placeholders"
