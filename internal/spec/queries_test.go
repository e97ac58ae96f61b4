package spec

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestVersionSets: the eras and the set operations.
func TestVersionSets(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  Set
		want string
	}{
		{"All", All, "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28"},
		{"Handshake", Handshake, "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"},
		{"Stateless", Stateless, "2026-07-28"},
		{"Batches", Batches, "2024-11-05, 2025-03-26"},
		{"ProtocolVersionHeader", ProtocolVersionHeader, "2025-06-18, 2025-11-25"},
		{"Since(2025-06-18)", Since(V20250618), "2025-06-18, 2025-11-25, 2026-07-28"},
		{"Since(unknown)", Since("2030-01-01"), ""},
		{"Of(…, unknown)", Of(V20260728, "1999-01-01", V20241105), "2024-11-05, 2026-07-28"},
	} {
		if tc.got.String() != tc.want {
			t.Errorf("%s = %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if Handshake.Latest() != V20251125 || Stateless.Latest() != V20260728 || Set(0).Latest() != "" {
		t.Errorf("Latest: handshake %q, stateless %q, empty %q", Handshake.Latest(), Stateless.Latest(), Set(0).Latest())
	}
	for v, want := range map[string]bool{V20251125: false, V20260728: true, "2030-01-01": true, "": false} {
		if IsStateless(v) != want {
			t.Errorf("IsStateless(%q) = %v, want %v", v, !want, want)
		}
	}
	if !Known(V20250326) || Known("2025-03-27") {
		t.Error("Known: want 2025-03-26 known and 2025-03-27 not")
	}
}

// TestTableSorted: Lookup searches the table by name, so it must be sorted
// and without repeats; each row is well formed.
func TestTableSorted(t *testing.T) {
	if !slices.IsSortedFunc(methods, func(a, b Method) int { return strings.Compare(a.Name, b.Name) }) {
		t.Fatal("the method table is not sorted by name")
	}
	for i, m := range methods {
		if i > 0 && methods[i-1].Name == m.Name {
			t.Errorf("%s: two rows", m.Name)
		}
		if m.Versions() == 0 {
			t.Errorf("%s: in no version", m.Name)
		}
		if got, ok := Lookup(m.Name); !ok || got.Name != m.Name {
			t.Errorf("Lookup(%q) = %v, %v", m.Name, got.Name, ok)
		}
		if m.Notification != strings.HasPrefix(m.Name, "notifications/") {
			t.Errorf("%s: Notification is %v", m.Name, m.Notification)
		}
		if (m.Needs.Path == "") != (m.Needs.Of == 0) {
			t.Errorf("%s: capability %+v names a path without a side or a side without a path", m.Name, m.Needs)
		}
	}
	if _, ok := Lookup("tools/cal"); ok {
		t.Error(`Lookup("tools/cal"): want no method`)
	}
}

// TestQueries: the narrower lists mcptest once kept by hand are queries on
// the table; these are the lists they gave, so a change of the table that
// changes what mcptest does shows here.
func TestQueries(t *testing.T) {
	clientSends := strings.Fields(`completion/complete initialize logging/setLevel notifications/cancelled
		notifications/initialized notifications/progress notifications/roots/list_changed notifications/tasks/status
		ping prompts/get prompts/list resources/list resources/read resources/subscribe resources/templates/list
		resources/unsubscribe server/discover subscriptions/listen tasks/cancel tasks/get tasks/list tasks/result
		tools/call tools/list`)
	if got := Names(ClientSends); !slices.Equal(got, clientSends) {
		t.Errorf("Names(ClientSends) =\n %v\nwant (mcptest's clientMethods of old)\n %v", got, clientSends)
	}

	// mcptest's removedInStateless of old, plus initialize (answered
	// apart) and the tasks methods of 2025-11-25, which it lacked.
	removed := strings.Fields(`initialize logging/setLevel notifications/initialized notifications/progress
		notifications/roots/list_changed notifications/tasks/status ping resources/subscribe resources/unsubscribe
		tasks/cancel tasks/get tasks/list tasks/result`)
	if got := Names(RemovedInStateless); !slices.Equal(got, removed) {
		t.Errorf("Names(RemovedInStateless) =\n %v\nwant\n %v", got, removed)
	}

	// mcptest's methodCapability of old.
	caps := map[string]string{
		"tools/list": "tools", "tools/call": "tools",
		"resources/list": "resources", "resources/templates/list": "resources", "resources/read": "resources",
		"resources/subscribe": "resources.subscribe", "resources/unsubscribe": "resources.subscribe",
		"prompts/list": "prompts", "prompts/get": "prompts",
		"logging/setLevel": "logging", "completion/complete": "completions",
	}
	got := map[string]string{}
	for _, name := range Names(nil) {
		if p, ok := ServerCapability(name, ""); ok {
			got[name] = p
		}
	}
	if !maps.Equal(got, caps) {
		t.Errorf("ServerCapability of every method =\n %v\nwant\n %v", got, caps)
	}
	if _, ok := ServerCapability("completion/complete", V20241105); ok {
		t.Error("completion/complete needs no completions capability in 2024-11-05")
	}
	if p, ok := ServerCapability("completion/complete", V20250326); !ok || p != "completions" {
		t.Errorf(`ServerCapability("completion/complete", 2025-03-26) = %q, %v; want "completions"`, p, ok)
	}

	field := func(keep func(Method) string) map[string]string {
		out := map[string]string{}
		for _, m := range Methods(nil) {
			if v := keep(m); v != "" {
				out[m.Name] = v
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		got  map[string]string
		want map[string]string
	}{
		{"ListField (mcptest's listField of old, and tasks/list)", field(func(m Method) string { return m.ListField }),
			map[string]string{"tools/list": "tools", "prompts/list": "prompts", "resources/list": "resources", "resources/templates/list": "resourceTemplates", "tasks/list": "tasks"}},
		{"NameParam (mcptest's namedMethods of old)", field(func(m Method) string { return m.NameParam }),
			map[string]string{"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}},
		{"ListenKey (mcptest's listChangedKind of old)", field(func(m Method) string { return m.ListenKey }),
			map[string]string{"notifications/tools/list_changed": "toolsListChanged", "notifications/prompts/list_changed": "promptsListChanged", "notifications/resources/list_changed": "resourcesListChanged"}},
		{"client capabilities (mcptest's InputRequest.capability of old)", field(func(m Method) string {
			if m.AsInput == 0 || m.Needs.Of != Client {
				return ""
			}
			return m.Needs.Path
		}), map[string]string{"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots"}},
	} {
		if !maps.Equal(tc.got, tc.want) {
			t.Errorf("%s =\n %v\nwant\n %v", tc.name, tc.got, tc.want)
		}
	}
	cached := Names(func(m Method) bool { return m.Cached })
	if want := strings.Fields("prompts/list resources/list resources/read resources/templates/list server/discover tools/list"); !slices.Equal(cached, want) {
		t.Errorf("Cached = %v, want (mcptest's cacheable of old) %v", cached, want)
	}
}
