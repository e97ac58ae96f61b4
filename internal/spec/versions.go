// Package spec holds the facts of the Model Context Protocol once: its
// versions and their eras, its methods (who sends each, request or
// notification, the capability it needs, the versions that have it), the
// HTTP header names and the _meta keys of the stateless era. Every check,
// fault, assertion and the HTTP front read them here; a narrower list
// (the methods a client sends, the list methods, the methods 2026-07-28
// removed) is a query on the one table, not a second list.
//
// The table is held against the official schemas by TestMethodsMatchSchemas
// (../shared/mcp-schemas, skipped when absent): every method of each
// version's schema is in the table with that version and direction, and no
// version has a method its schema lacks.
package spec

import "strings"

// The protocol versions, oldest first.
const (
	V20241105 = "2024-11-05"
	V20250326 = "2025-03-26"
	V20250618 = "2025-06-18"
	V20251125 = "2025-11-25"
	V20260728 = "2026-07-28"
)

// versions is every protocol version, oldest first; bit i of a Set is
// versions[i].
var versions = [...]string{V20241105, V20250326, V20250618, V20251125, V20260728}

// Set is a set of protocol versions.
type Set uint8

// The version sets the protocol's eras and features name.
const (
	// All is every version.
	All Set = 1<<len(versions) - 1
	// Stateless is the stateless era: no handshake, server/discover,
	// per-request _meta (2026-07-28).
	Stateless Set = 1 << 4
	// Handshake is the handshake era: initialize, then
	// notifications/initialized; sessions have state.
	Handshake = All &^ Stateless
	// Batches are the versions that have JSON-RPC batches: 2024-11-05 and
	// 2025-03-26 say an implementation MUST accept them; 2025-06-18
	// removed them.
	Batches Set = 1<<0 | 1<<1
)

// Versions returns every protocol version, oldest first, in a new slice.
func Versions() []string { return All.List() }

// Known reports whether v is a protocol version.
func Known(v string) bool { return index(v) >= 0 }

// IsStateless reports whether version v belongs to the stateless era: the
// first stateless version or a later date (a version the table does not
// know yet is newer, hence stateless).
func IsStateless(v string) bool { return v >= Stateless.List()[0] }

// Of returns the set of the given versions; an unknown one adds nothing.
func Of(vs ...string) Set {
	var s Set
	for _, v := range vs {
		if i := index(v); i >= 0 {
			s |= 1 << i
		}
	}
	return s
}

// Since returns v and every later version (empty for an unknown v).
func Since(v string) Set {
	i := index(v)
	if i < 0 {
		return 0
	}
	return All &^ (1<<i - 1)
}

// Has reports whether v is in the set.
func (s Set) Has(v string) bool {
	i := index(v)
	return i >= 0 && s&(1<<i) != 0
}

// List returns the set's versions, oldest first, in a new slice.
func (s Set) List() []string {
	var out []string
	for i, v := range versions {
		if s&(1<<i) != 0 {
			out = append(out, v)
		}
	}
	return out
}

// Latest returns the newest version of the set, "" for an empty set.
func (s Set) Latest() string {
	l := s.List()
	if len(l) == 0 {
		return ""
	}
	return l[len(l)-1]
}

// String lists the versions, e.g. "2024-11-05, 2025-03-26".
func (s Set) String() string { return strings.Join(s.List(), ", ") }

func index(v string) int {
	for i, w := range versions {
		if w == v {
			return i
		}
	}
	return -1
}
