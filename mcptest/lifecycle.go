package mcptest

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// logLevels are the syslog levels logging/setLevel accepts.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// initialize answers initialize: validate the params, negotiate the version
// and declare the capabilities.
func (s *Session) initialize(m Message, d decoded) {
	p := d.params
	pv := p.Get("protocolVersion")
	var problems []string
	if pv.Type != gjson.String {
		problems = append(problems, "params.protocolVersion is "+describe(pv)+", want a string")
	}
	if c := p.Get("capabilities"); !c.IsObject() {
		problems = append(problems, "params.capabilities is "+describe(c)+", want an object")
	}
	ci := p.Get("clientInfo")
	switch {
	case !ci.IsObject():
		problems = append(problems, "params.clientInfo is "+describe(ci)+", want an object with name and version")
	default:
		for _, f := range []string{"name", "version"} {
			if v := ci.Get(f); v.Type != gjson.String {
				problems = append(problems, "params.clientInfo."+f+" is "+describe(v)+", want a string")
			}
		}
	}
	for _, pr := range problems {
		s.violate(ruleInitializeParams, m, pr)
	}
	if pv.Type != gjson.String {
		s.replyError(m.ID, m.Method, spec.CodeInvalidParams, "Invalid params: protocolVersion must be a string", nil)
		return
	}
	if !versionFormat(pv.Str) {
		s.violate(ruleProtocolVersionFormat, m, "params.protocolVersion is "+strconv.Quote(shorten(pv.Str, 40))+", want a version such as \"2025-11-25\"")
	}
	version := s.srv.negotiate(pv.Str)
	caps := s.srv.capabilities()
	if _, needed := spec.ServerCapability("completion/complete", version); !needed && gjson.GetBytes(caps, "completions").Exists() {
		caps, _ = sjson.DeleteBytes(caps, "completions") // the capability came with 2025-03-26
	}
	res := map[string]any{
		"protocolVersion": version,
		"capabilities":    caps,
		"serverInfo":      s.srv.serverInfo(),
	}
	if s.srv.instructions != "" {
		res["instructions"] = s.srv.instructions
	}
	b, _ := json.Marshal(res)
	s.replyResult(m, b)
}

// initialized records what an initialize result (built in, or from a
// Handler) settles for the session: the handshake era, the version and the
// capabilities the client was told, and the client's own.
func (s *Session) initialized(m Message, result []byte) {
	r := gjson.ParseBytes(result)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.phase == phaseNew {
		s.phase = phaseInitializing
	}
	s.version = r.Get("protocolVersion").String()
	s.era = EraHandshake
	s.caps = r.Get("capabilities")
	s.initCaps = m.Get("params.capabilities")
	s.askedVersion = m.Get("params.protocolVersion").String()
	s.initID = m.ID
}

// negotiate applies the spec's rule to initialize: the client's version if
// the server supports it, else the newest handshake version it supports.
func (s *Server) negotiate(requested string) string {
	legacy := s.legacyVersions()
	if slices.Contains(legacy, requested) {
		return requested
	}
	return legacy[len(legacy)-1]
}

// setLevel answers logging/setLevel.
func (s *Session) setLevel(m Message, d decoded) {
	lvl := d.params.Get("level")
	if lvl.Type != gjson.String || !slices.Contains(logLevels, lvl.Str) {
		s.violate(ruleInvalidParams, m, "logging/setLevel level is "+describe(lvl)+", want one of debug … emergency")
		s.replyError(m.ID, m.Method, spec.CodeInvalidParams, "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency", nil)
		return
	}
	s.mu.Lock()
	s.logLevel = lvl.Str
	s.mu.Unlock()
	s.replyResult(m, emptyObject)
}

var emptyObject = []byte("{}")

func describe(r gjson.Result) string {
	switch {
	case !r.Exists():
		return "missing"
	case r.IsObject():
		return "an object"
	case r.IsArray():
		return "an array"
	}
	return shorten(r.Raw, 40)
}
