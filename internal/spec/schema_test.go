package spec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// schemaRoot returns ../shared/mcp-schemas beside the repository, or skips
// the test: the official schemas are test data from outside, absent from
// a user's fresh clone.
func schemaRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join("..", "..", "..", "shared", "mcp-schemas")
	if _, err := os.Stat(root); err != nil {
		t.Skip("../shared/mcp-schemas not found beside the repository: the official schemas are test data outside it; skipping the check of the protocol table against them")
	}
	return root
}

// schema is one version's schema.json, its definitions by name.
type schema map[string]map[string]any

func loadSchema(t *testing.T, root, version string) schema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, version, "schema.json"))
	if err != nil {
		t.Fatalf("the official schema of %s: %v", version, err)
	}
	var doc struct {
		Definitions map[string]map[string]any `json:"definitions"`
		Defs        map[string]map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s/schema.json: %v", version, err)
	}
	if doc.Defs != nil {
		return doc.Defs
	}
	return doc.Definitions
}

// props returns a definition's properties, through allOf and $ref.
func (s schema) props(name string) map[string]any {
	d, ok := s[name]
	if !ok {
		return nil
	}
	out := map[string]any{}
	if p, ok := d["properties"].(map[string]any); ok {
		for k, v := range p {
			out[k] = v
		}
	}
	if all, ok := d["allOf"].([]any); ok {
		for _, a := range all {
			if ref, ok := a.(map[string]any)["$ref"].(string); ok {
				for k, v := range s.props(refName(ref)) {
					if _, seen := out[k]; !seen {
						out[k] = v
					}
				}
			}
		}
	}
	return out
}

func refName(ref string) string { return ref[strings.LastIndex(ref, "/")+1:] }

// methodOf returns the method a definition's "method" property fixes.
func (s schema) methodOf(name string) string {
	m, _ := s.props(name)["method"].(map[string]any)
	c, _ := m["const"].(string)
	return c
}

// union returns the definitions a union (anyOf/oneOf of $refs) joins; a
// definition that fixes a method itself is its own union.
func (s schema) union(name string) []string {
	d, ok := s[name]
	if !ok {
		return nil
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := d[k].([]any); ok {
			var out []string
			for _, a := range alts {
				if ref, ok := a.(map[string]any)["$ref"].(string); ok {
					out = append(out, s.union(refName(ref))...)
				}
			}
			return out
		}
	}
	return []string{name}
}

// unionMethods returns the methods of a union, with the definition of each.
func (s schema) unionMethods(name string) map[string]string {
	out := map[string]string{}
	for _, d := range s.union(name) {
		if m := s.methodOf(d); m != "" {
			out[m] = d
		}
	}
	return out
}

// hasPath reports whether a capabilities definition has the gjson-style path.
func (s schema) hasPath(defName, path string) bool {
	props := s.props(defName)
	for part := range strings.SplitSeq(path, ".") {
		p, ok := props[part].(map[string]any)
		if !ok {
			return false
		}
		props, _ = p["properties"].(map[string]any)
	}
	return true
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestVersionsMatchSchemas: the versions are the folders of the official
// schemas.
func TestVersionsMatchSchemas(t *testing.T) {
	root := schemaRoot(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(root, e.Name(), "schema.json")); err == nil {
			dirs = append(dirs, e.Name())
		}
	}
	if !slices.Equal(dirs, Versions()) {
		t.Errorf("versions mismatch:\n the official schemas: %v\n the table:           %v", dirs, Versions())
	}
}

// TestMethodsMatchSchemas holds the method table against each version's
// official schema: the requests and notifications each side sends (the
// schema's ClientRequest, ClientNotification, ServerRequest and
// ServerNotification), the input requests of the stateless era
// (InputRequest), every method any definition fixes, the capabilities the
// table names, the list methods (a result with nextCursor) and the cached
// results (a result with ttlMs).
func TestMethodsMatchSchemas(t *testing.T) {
	root := schemaRoot(t)
	for _, v := range Versions() {
		t.Run(v, func(t *testing.T) {
			s := loadSchema(t, root, v)
			checkSide(t, v, "client", s, []string{"ClientRequest", "ClientNotification"}, func(m Method) Set { return m.FromClient })
			checkSide(t, v, "server", s, []string{"ServerRequest", "ServerNotification"}, func(m Method) Set { return m.FromServer })
			checkSide(t, v, "input request", s, []string{"InputRequest"}, func(m Method) Set { return m.AsInput })

			// every method any definition fixes, in the table with v; none
			// in the table with v that the schema lacks.
			inSchema := map[string]string{}
			for name := range s {
				if m := s.methodOf(name); m != "" {
					inSchema[m] = name
				}
			}
			want := keys(inSchema)
			got := Names(func(m Method) bool { return m.Versions().Has(v) })
			if !slices.Equal(want, got) {
				t.Errorf("methods of %s mismatch:\n the schema: %v\n the table:  %v", v, want, got)
			}

			for _, m := range Methods(func(m Method) bool { return m.Versions().Has(v) }) {
				checkMethod(t, v, s, m, inSchema[m.Name])
			}
		})
	}
}

// checkSide compares the methods a side sends in version v (requests and
// notifications apart) with the schema's unions.
func checkSide(t *testing.T, v, side string, s schema, unions []string, sends func(Method) Set) {
	t.Helper()
	var want, wantNotes []string
	for _, u := range unions {
		for m := range s.unionMethods(u) {
			want = append(want, m)
			if strings.HasSuffix(u, "Notification") {
				wantNotes = append(wantNotes, m)
			}
		}
	}
	sort.Strings(want)
	sort.Strings(wantNotes)
	want = slices.Compact(want)
	got := Names(func(m Method) bool { return sends(m).Has(v) })
	gotNotes := Names(func(m Method) bool { return sends(m).Has(v) && m.Notification })
	if !slices.Equal(want, got) {
		t.Errorf("what the %s sends in %s mismatch:\n the schema (%s): %v\n the table: %v", side, v, strings.Join(unions, ", "), want, got)
	}
	if !slices.Equal(wantNotes, gotNotes) {
		t.Errorf("the notifications the %s sends in %s mismatch:\n the schema: %v\n the table:  %v", side, v, wantNotes, gotNotes)
	}
}

// checkMethod holds one row against the schema of version v: its
// capability, list field and caching.
func checkMethod(t *testing.T, v string, s schema, m Method, def string) {
	t.Helper()
	if m.Needs.Path != "" {
		var capDefs []string
		switch m.Needs.Of {
		case Server:
			capDefs = []string{"ServerCapabilities"}
		case Client:
			capDefs = []string{"ClientCapabilities"}
		case Receiver:
			if m.FromClient.Has(v) {
				capDefs = append(capDefs, "ServerCapabilities")
			}
			if m.FromServer.Has(v) {
				capDefs = append(capDefs, "ClientCapabilities")
			}
		}
		for _, c := range capDefs {
			if has := s.hasPath(c, m.Needs.Path); has != m.Needs.In(v) {
				t.Errorf("%s in %s: the table says it needs %s.%s: %v; the schema's %s has it: %v", m.Name, v, c, m.Needs.Path, m.Needs.In(v), c, has)
			}
		}
	}
	if m.Notification || !strings.HasSuffix(def, "Request") {
		return
	}
	result := strings.TrimSuffix(def, "Request") + "Result"
	props := s.props(result)
	if props == nil {
		return // answered with an empty result (ping) or a result of another name
	}
	_, paginated := props["nextCursor"]
	if paginated != (m.ListField != "") {
		t.Errorf("%s in %s: %s has nextCursor: %v, but the table's ListField is %q", m.Name, v, result, paginated, m.ListField)
	}
	if m.ListField != "" {
		if f, _ := props[m.ListField].(map[string]any); f == nil || f["type"] != "array" {
			t.Errorf("%s in %s: %s has no array %q (the table's ListField)", m.Name, v, result, m.ListField)
		}
	}
	if v == V20260728 {
		if _, cached := props["ttlMs"]; cached != m.Cached {
			t.Errorf("%s in %s: %s has ttlMs: %v, but the table's Cached is %v", m.Name, v, result, cached, m.Cached)
		}
	}
}
