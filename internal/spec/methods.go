package spec

import (
	"slices"
	"strings"
)

// Side is a party of a session.
type Side uint8

// The parties whose capabilities a method can need.
const (
	// Server: the server's capabilities (what a client may ask of it, and
	// what the server itself announces, e.g. tools.listChanged).
	Server Side = 1 + iota
	// Client: the client's capabilities (sampling, roots, elicitation).
	Client
	// Receiver: the capabilities of whichever party receives the message
	// (tasks/list and tasks/cancel go both ways in 2025-11-25).
	Receiver
)

// Capability is a capability that must be declared before a method may be
// used: by the party Of, at Path in its capabilities object.
type Capability struct {
	// Of is whose capabilities declare it.
	Of Side
	// Path is a gjson path into that capabilities object, e.g. "tools" or
	// "resources.subscribe". "" means the method needs none.
	Path string
	// Since is the first version in which the method needs it, "" for
	// every version that has the method (completion/complete exists in
	// 2024-11-05, the completions capability only from 2025-03-26).
	Since string
}

// In reports whether the method needs the capability in version v ("" for
// any version).
func (c Capability) In(v string) bool {
	return c.Path != "" && (v == "" || c.Since == "" || v >= c.Since)
}

// Method is one method of the protocol and the facts about it.
type Method struct {
	// Name is the JSON-RPC method, e.g. "tools/call".
	Name string
	// Notification: the method is sent without an id and gets no reply.
	Notification bool
	// FromClient are the versions in which a client sends it to a server.
	FromClient Set
	// FromServer are the versions in which a server sends it to a client
	// on the wire.
	FromServer Set
	// AsInput are the versions in which a server asks it of the client
	// inside an input_required result (the stateless era's multi
	// round-trip requests), not on the wire.
	AsInput Set
	// Needs is the capability it needs, if any.
	Needs Capability
	// ListField names the array a paginated list method's result holds,
	// e.g. "tools" for tools/list; "" for other methods.
	ListField string
	// NameParam is the member of the params that the Mcp-Name HTTP header
	// repeats in the stateless era ("name" for tools/call, "uri" for
	// resources/read); "" for methods without the header.
	NameParam string
	// Cached: in the stateless era the result carries ttlMs and
	// cacheScope.
	Cached bool
	// ListenKey is, for a notification a subscriptions/listen filter asks
	// for, the filter's key (e.g. "toolsListChanged").
	ListenKey string
}

// Versions returns the versions that have the method, on the wire or as
// an input request.
func (m Method) Versions() Set { return m.FromClient | m.FromServer | m.AsInput }

// methods is the table: every method of every version, sorted by name.
var methods = []Method{
	{Name: "completion/complete", FromClient: All, Needs: Capability{Of: Server, Path: "completions", Since: V20250326}},
	{Name: "elicitation/create", FromServer: Of(V20250618, V20251125), AsInput: Stateless, Needs: Capability{Of: Client, Path: "elicitation"}},
	{Name: "initialize", FromClient: Handshake},
	{Name: "logging/setLevel", FromClient: Handshake, Needs: Capability{Of: Server, Path: "logging"}},
	{Name: "notifications/cancelled", Notification: true, FromClient: All, FromServer: All},
	{Name: "notifications/elicitation/complete", Notification: true, FromServer: Of(V20251125), Needs: Capability{Of: Client, Path: "elicitation.url"}},
	{Name: "notifications/initialized", Notification: true, FromClient: Handshake},
	{Name: "notifications/message", Notification: true, FromServer: All, Needs: Capability{Of: Server, Path: "logging"}},
	{Name: "notifications/progress", Notification: true, FromClient: Handshake, FromServer: All},
	{Name: "notifications/prompts/list_changed", Notification: true, FromServer: All, Needs: Capability{Of: Server, Path: "prompts.listChanged"}, ListenKey: "promptsListChanged"},
	{Name: "notifications/resources/list_changed", Notification: true, FromServer: All, Needs: Capability{Of: Server, Path: "resources.listChanged"}, ListenKey: "resourcesListChanged"},
	{Name: "notifications/resources/updated", Notification: true, FromServer: All, Needs: Capability{Of: Server, Path: "resources.subscribe"}},
	{Name: "notifications/roots/list_changed", Notification: true, FromClient: Handshake, Needs: Capability{Of: Client, Path: "roots.listChanged"}},
	{Name: "notifications/subscriptions/acknowledged", Notification: true, FromServer: Stateless},
	{Name: "notifications/tasks/status", Notification: true, FromClient: Of(V20251125), FromServer: Of(V20251125)},
	{Name: "notifications/tools/list_changed", Notification: true, FromServer: All, Needs: Capability{Of: Server, Path: "tools.listChanged"}, ListenKey: "toolsListChanged"},
	{Name: "ping", FromClient: Handshake, FromServer: Handshake},
	{Name: "prompts/get", FromClient: All, Needs: Capability{Of: Server, Path: "prompts"}, NameParam: "name"},
	{Name: "prompts/list", FromClient: All, Needs: Capability{Of: Server, Path: "prompts"}, ListField: "prompts", Cached: true},
	{Name: "resources/list", FromClient: All, Needs: Capability{Of: Server, Path: "resources"}, ListField: "resources", Cached: true},
	{Name: "resources/read", FromClient: All, Needs: Capability{Of: Server, Path: "resources"}, NameParam: "uri", Cached: true},
	{Name: "resources/subscribe", FromClient: Handshake, Needs: Capability{Of: Server, Path: "resources.subscribe"}},
	{Name: "resources/templates/list", FromClient: All, Needs: Capability{Of: Server, Path: "resources"}, ListField: "resourceTemplates", Cached: true},
	{Name: "resources/unsubscribe", FromClient: Handshake, Needs: Capability{Of: Server, Path: "resources.subscribe"}},
	{Name: "roots/list", FromServer: Handshake, AsInput: Stateless, Needs: Capability{Of: Client, Path: "roots"}},
	{Name: "sampling/createMessage", FromServer: Handshake, AsInput: Stateless, Needs: Capability{Of: Client, Path: "sampling"}},
	{Name: "server/discover", FromClient: Stateless, Cached: true},
	{Name: "subscriptions/listen", FromClient: Stateless},
	{Name: "tasks/cancel", FromClient: Of(V20251125), FromServer: Of(V20251125), Needs: Capability{Of: Receiver, Path: "tasks.cancel"}},
	{Name: "tasks/get", FromClient: Of(V20251125), FromServer: Of(V20251125)},
	{Name: "tasks/list", FromClient: Of(V20251125), FromServer: Of(V20251125), Needs: Capability{Of: Receiver, Path: "tasks.list"}, ListField: "tasks"},
	{Name: "tasks/result", FromClient: Of(V20251125), FromServer: Of(V20251125)},
	{Name: "tools/call", FromClient: All, Needs: Capability{Of: Server, Path: "tools"}, NameParam: "name"},
	{Name: "tools/list", FromClient: All, Needs: Capability{Of: Server, Path: "tools"}, ListField: "tools", Cached: true},
}

// Lookup returns the method named name, and whether the protocol has one.
func Lookup(name string) (Method, bool) {
	i, ok := slices.BinarySearchFunc(methods, name, func(m Method, n string) int { return strings.Compare(m.Name, n) })
	if !ok {
		return Method{}, false
	}
	return methods[i], true
}

// IsMethod reports whether name is a method of some protocol version.
func IsMethod(name string) bool {
	_, ok := Lookup(name)
	return ok
}

// Methods returns the methods for which keep reports true (every method
// when keep is nil), sorted by name, in a new slice.
func Methods(keep func(Method) bool) []Method {
	var out []Method
	for _, m := range methods {
		if keep == nil || keep(m) {
			out = append(out, m)
		}
	}
	return out
}

// Names returns the names of the methods for which keep reports true
// (every method when keep is nil), sorted, in a new slice.
func Names(keep func(Method) bool) []string {
	var out []string
	for _, m := range Methods(keep) {
		out = append(out, m.Name)
	}
	return out
}

// ClientSends reports whether a client sends m in some version: the
// requests and notifications a server receives.
func ClientSends(m Method) bool { return m.FromClient != 0 }

// RemovedInStateless reports whether a client sends m in the handshake
// era but not in the stateless one (ping, logging/setLevel,
// resources/subscribe, notifications/initialized, …, and initialize).
func RemovedInStateless(m Method) bool {
	return m.FromClient&Handshake != 0 && m.FromClient&Stateless == 0
}

// ServerCapability returns the server capability a client's method needs
// in version v ("" for any version), as a gjson path into the server's
// capabilities, and whether it needs one: "tools" for tools/call,
// "resources.subscribe" for resources/subscribe, nothing for ping or for
// completion/complete in 2024-11-05.
func ServerCapability(method, v string) (string, bool) {
	m, ok := Lookup(method)
	if !ok || m.FromClient == 0 || m.Needs.Of != Server || !m.Needs.In(v) {
		return "", false
	}
	return m.Needs.Path, true
}
