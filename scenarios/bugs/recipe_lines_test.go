package bugs_test

import (
	"slices"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"github.com/mcpmock/mcpmock/scenarios/bugs"
)

// TestRecipeLinesNameThePackage: a recipe prints each fault as the Go a
// reader copies, with the package of its constructor: fault.… for the
// catalog's, oauth.… for an authorization fault.
func TestRecipeLinesNameThePackage(t *testing.T) {
	r := bugs.Recipe{Faults: []mcptest.Fault{fault.Hang("tools/call"), oauth.ExpireToken().Nth(2), oauth.TokenError("invalid_grant")}}
	want := []string{`fault.Hang("tools/call")`, `oauth.ExpireToken().Nth(2)`, `oauth.TokenError("invalid_grant")`}
	if got := r.Lines(); !slices.Equal(got, want) {
		t.Errorf("Lines() = %q, want %q", got, want)
	}
}
