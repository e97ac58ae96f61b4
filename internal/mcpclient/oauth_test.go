package mcpclient

import (
	"reflect"
	"strings"
	"testing"
)

// TestPKCE: the S256 challenge is RFC 7636 Appendix B's for its verifier,
// and a fresh verifier is of the length and alphabet the RFC allows.
func TestPKCE(t *testing.T) {
	if got := PKCEFor("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").Challenge; got != "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" {
		t.Errorf("S256 challenge %q, want RFC 7636's", got)
	}
	p, q := NewPKCE(), NewPKCE()
	if n := len(p.Verifier); n < 43 || n > 128 || strings.Trim(p.Verifier, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~") != "" {
		t.Errorf("verifier %q is not 43 to 128 unreserved characters", p.Verifier)
	}
	if p.Verifier == q.Verifier || p.Challenge != PKCEFor(p.Verifier).Challenge {
		t.Errorf("two fresh proofs: %v, %v", p, q)
	}
}

// TestParseChallenges: the WWW-Authenticate parser reads every challenge
// of a header, quoted strings with commas and escapes, tokens, and the
// Bearer one is found behind another scheme.
func TestParseChallenges(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   []Challenge
	}{
		{`Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp", scope="a b"`,
			[]Challenge{{"Bearer", map[string]string{"resource_metadata": "http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp", "scope": "a b"}}}},
		{`Basic realm="mcp", Bearer error="invalid_token", error_description="no token, or an old one", resource_metadata="http://x/prm"`,
			[]Challenge{{"Basic", map[string]string{"realm": "mcp"}},
				{"Bearer", map[string]string{"error": "invalid_token", "error_description": "no token, or an old one", "resource_metadata": "http://x/prm"}}}},
		{`Bearer Error=insufficient_scope,scope="x \"y\""`, []Challenge{{"Bearer", map[string]string{"error": "insufficient_scope", "scope": `x "y"`}}}},
		{`Bearer`, []Challenge{{"Bearer", map[string]string{}}}},
		{``, nil},
	} {
		if got := ParseChallenges(tc.header); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseChallenges(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
	if got := ParseChallenge(`Basic realm="mcp", Bearer resource_metadata="http://x/prm"`).Param("Resource_Metadata"); got != "http://x/prm" {
		t.Errorf("the Bearer challenge's resource_metadata: %q", got)
	}
}
