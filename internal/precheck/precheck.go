// Package precheck holds checks mcptest makes of what a Server is given,
// so that the config package refuses a file at load for the same reasons,
// with the same words, instead of the server failing when it starts: the
// methods of the protocol (read from internal/spec), the check of a fault's
// method (mcptest.Fault.Err makes the rest of AddFault's check), and the
// check of a URI template.
package precheck

import (
	"slices"
	"strconv"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/mcpmock/mcpmock/internal/suggest"
	"github.com/mcpmock/mcpmock/internal/uritemplate"
)

// Methods returns the methods of every protocol version, both directions,
// requests and notifications, sorted (the protocol table's: internal/spec):
// a fault naming another one would never act.
func Methods() []string { return spec.Names(nil) }

// IsMethod reports whether m is a method of some protocol version.
func IsMethod(m string) bool { return spec.IsMethod(m) }

// UnknownMethod says why a fault acting on the messages of method would
// never act, or returns "" when it may act: method is "" (any), a method
// of the protocol, or one of served. handles says whether the caller has
// Handle (mcptest: served are the methods its Handles serve); a config
// file has none, and the message does not offer it. The text is one
// clause, e.g. `"tools/cal" is no method of any protocol version; did you
// mean "tools/call"?`.
func UnknownMethod(method string, served []string, handles bool) string {
	if method == "" || IsMethod(method) || slices.Contains(served, method) {
		return ""
	}
	msg := strconv.Quote(method) + " is no method of any protocol version"
	if handles {
		msg += ", nor one a Handle serves"
	}
	if hint := suggest.DidYouMean(method, append(Methods(), served...)); hint != "" {
		return msg + hint
	}
	msg += `; name one of the protocol's methods, e.g. "tools/call"`
	if handles {
		msg += ", or serve it with Handle before installing the fault"
	}
	return msg
}

// ArgError is an argument a fault's constructor, or one of its
// refinements, could not take: the reason installing the fault fails.
type ArgError struct {
	// Param names the argument as the constructor's signature does
	// ("method", "code", "status", …); for a refinement it is the
	// refinement's name ("Nth", "InSession", "WithProbability").
	Param string
	// Err says what is wrong with it and what to give instead.
	Err error
}

// Error is Err's text.
func (e *ArgError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ArgError) Unwrap() error { return e.Err }

// URITemplate is the check a resource template's URI template gets when
// it is registered (mcptest's WithResourceTemplates): nil when it is an
// RFC 6570 template the mock can match URIs against, else why not. It is
// the one URI template implementation's own (internal/uritemplate).
func URITemplate(template string) error { return uritemplate.Validate(template) }
