package mcptest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// What the mock sends is the protocol of the session's version: a script
// may use everything the package offers, and a result the negotiated
// version cannot carry is sent in a documented downgrade, with a line in
// the test log the first time each thing is downgraded in a session:
//
//   - a field the version lacks is left out: of tools (annotations before
//     2025-03-26; title, outputSchema and _meta before 2025-06-18; icons and
//     execution before 2025-11-25), of resources, resource templates and
//     prompts (title and _meta before 2025-06-18, icons before 2025-11-25),
//     of serverInfo (title before 2025-06-18; icons, websiteUrl and
//     description before 2025-11-25) and of content items (_meta before
//     2025-06-18);
//   - structuredContent (2025-06-18) is left out, and its JSON becomes a
//     text item when the result has no text item of its own, as the spec
//     advises servers to do for older clients;
//   - an audio item (2025-03-26) and a resource_link item (2025-06-18)
//     become a text item saying what was there ("[audio: audio/wav, 4
//     bytes]", "[resource_link: file:///a.txt (a)]");
//   - an elicitation (2025-06-18) is not sent: the script's handler sees the
//     input declined ({"action":"decline"});
//   - -32021 (a stateless-era code) is answered -32603 with the same data.
//
// Stateless-era sessions and 2025-11-25, the newest handshake version,
// get what the script holds.
const (
	v20250326 = spec.V20250326
	v20250618 = spec.V20250618
	v20251125 = spec.V20251125
)

// fieldsSince says, for each kind of object, when its optional fields came.
var fieldsSince = map[string][]struct{ field, since string }{
	"tool": {{"annotations", v20250326}, {"title", v20250618}, {"outputSchema", v20250618}, {"_meta", v20250618},
		{"icons", v20251125}, {"execution", v20251125}},
	"entry":          {{"title", v20250618}, {"_meta", v20250618}, {"icons", v20251125}},
	"content":        {{"_meta", v20250618}},
	"implementation": {{"title", v20250618}, {"icons", v20251125}, {"websiteUrl", v20251125}, {"description", v20251125}},
}

// contentSince says when each content type came.
var contentSince = map[string]string{"audio": v20250326, "resource_link": v20250618}

// rendering is one result being rendered for a version.
type rendering struct {
	version string
	result  []byte
	notes   []string // what was downgraded, for the log
}

// drop leaves out the fields of the object at path that the version lacks.
func (r *rendering) drop(path, kind, what string) {
	obj := gjson.GetBytes(r.result, path)
	if !obj.IsObject() {
		return
	}
	for _, f := range fieldsSince[kind] {
		if r.version < f.since && obj.Get(f.field).Exists() {
			r.del(path+"."+f.field, fmt.Sprintf("%s has %s (protocol %s), left out", what, f.field, f.since))
		}
	}
}

func (r *rendering) del(path, note string) {
	if out, err := sjson.DeleteBytes(r.result, path); err == nil {
		r.result = out
		r.notes = append(r.notes, note)
	}
}

func (r *rendering) set(path string, raw []byte, note string) {
	if out, err := sjson.SetRawBytes(r.result, path, raw); err == nil {
		r.result = out
		r.notes = append(r.notes, note)
	}
}

// content renders the content item at path.
func (r *rendering) content(path, what string) {
	item := gjson.GetBytes(r.result, path)
	typ := item.Get("type").String()
	if since, ok := contentSince[typ]; ok && r.version < since {
		var text string
		switch typ {
		case "audio":
			n := len(item.Get("data").String()) * 3 / 4
			text = fmt.Sprintf("[audio: %s, %d bytes]", item.Get("mimeType").String(), n)
		default:
			text = fmt.Sprintf("[resource_link: %s (%s)]", item.Get("uri").String(), item.Get("name").String())
		}
		b := appendJSONString([]byte(`{"type":"text","text":`), text)
		r.set(path, append(b, '}'), fmt.Sprintf("%s has content of type %s (protocol %s), sent as a text item", what, typ, since))
		return
	}
	r.drop(path, "content", what)
}

// items renders each element of the array at path with f.
func (r *rendering) items(path string, f func(path string, item gjson.Result)) {
	n := len(gjson.GetBytes(r.result, path).Array())
	for i := range n {
		p := path + "." + strconv.Itoa(i)
		f(p, gjson.GetBytes(r.result, p))
	}
}

// render returns result as the session's version can carry it, and
// whether that changed it; what it changed is logged once per session and
// kind of change.
func (s *Session) render(method string, result []byte) ([]byte, bool) {
	version := s.ProtocolVersion()
	if version == "" || version >= v20251125 {
		return result, false
	}
	r := &rendering{version: version, result: result}
	named := func(item gjson.Result, kind string) string {
		if n := item.Get("name"); n.Exists() {
			return kind + " " + strconv.Quote(n.String())
		}
		return kind + " " + strconv.Quote(item.Get("uri").String())
	}
	switch method {
	case "initialize":
		r.drop("serverInfo", "implementation", "serverInfo")
	case "tools/list":
		r.items("tools", func(p string, t gjson.Result) { r.drop(p, "tool", named(t, "tool")) })
	case "resources/list":
		r.items("resources", func(p string, e gjson.Result) { r.drop(p, "entry", named(e, "resource")) })
	case "resources/templates/list":
		r.items("resourceTemplates", func(p string, e gjson.Result) { r.drop(p, "entry", named(e, "resource template")) })
	case "prompts/list":
		r.items("prompts", func(p string, e gjson.Result) { r.drop(p, "entry", named(e, "prompt")) })
	case "prompts/get":
		r.items("messages", func(p string, _ gjson.Result) { r.content(p+".content", "the prompts/get reply") })
	case "tools/call":
		what := "the tools/call reply"
		r.items("content", func(p string, _ gjson.Result) { r.content(p, what) })
		if sc := gjson.GetBytes(r.result, "structuredContent"); sc.Exists() && version < v20250618 {
			r.del("structuredContent", what+" has structuredContent (protocol 2025-06-18), left out")
			hasText := false
			r.items("content", func(_ string, it gjson.Result) { hasText = hasText || it.Get("type").String() == "text" })
			if !hasText {
				b := appendJSONString([]byte(`{"type":"text","text":`), sc.Raw)
				r.set("content.-1", append(b, '}'), what+": its structuredContent sent as a text item")
			}
		}
	}
	s.noteDowngrades(r.notes)
	return r.result, len(r.notes) > 0
}

// noteDowngrades logs each kind of downgrade once per session.
func (s *Session) noteDowngrades(notes []string) {
	if len(notes) == 0 {
		return
	}
	s.mu.Lock()
	if s.downgraded == nil {
		s.downgraded = map[string]bool{}
	}
	var fresh []string
	for _, n := range notes {
		if !s.downgraded[n] {
			s.downgraded[n] = true
			fresh = append(fresh, n)
		}
	}
	version := s.version
	s.mu.Unlock()
	if len(fresh) > 0 {
		s.srv.logf("mcptest: session %d speaks %s, which lacks what the script holds: %s", s.n, version, strings.Join(fresh, "; "))
	}
}
