package mcpclient

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// PKCE is one authorization's proof key (RFC 7636): a code_verifier and its
// S256 code_challenge.
type PKCE struct{ Verifier, Challenge string }

// NewPKCE makes a fresh random code_verifier (52 characters of the
// unreserved set, 260 bits) and its S256 challenge.
func NewPKCE() PKCE { return PKCEFor(rand.Text() + rand.Text()) }

// PKCEFor returns verifier with its S256 challenge:
// BASE64URL(SHA256(verifier)), without padding.
func PKCEFor(verifier string) PKCE {
	sum := sha256.Sum256([]byte(verifier))
	return PKCE{Verifier: verifier, Challenge: base64.RawURLEncoding.EncodeToString(sum[:])}
}

// Challenge is one challenge of a WWW-Authenticate header (RFC 9110
// §11.6.1): its auth-scheme and its auth-params, names lower-cased.
type Challenge struct {
	Scheme string
	Params map[string]string
}

// Param returns the auth-param name ("" when absent).
func (c Challenge) Param(name string) string { return c.Params[strings.ToLower(name)] }

// ParseChallenges reads every challenge of a WWW-Authenticate header
// value (RFC 9110 §11.6.1): challenges and auth-params separated by
// commas, each auth-param token=token or token=quoted-string (with \
// escapes, commas inside quotes kept). A token68 is kept as a param with
// an empty value.
func ParseChallenges(header string) []Challenge {
	s := header
	blank := func(commas bool) {
		for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || commas && s[0] == ',') {
			s = s[1:]
		}
	}
	token := func() string {
		i := strings.IndexAny(s, " \t,=\"")
		if i < 0 {
			i = len(s)
		}
		t := s[:i]
		s = s[i:]
		return t
	}
	var out []Challenge
	for {
		blank(true)
		if s == "" {
			return out
		}
		c := Challenge{Scheme: token(), Params: map[string]string{}}
		if c.Scheme == "" { // stray punctuation: step over it
			s = s[1:]
			continue
		}
		for {
			rest := s
			blank(true)
			name := token()
			blank(false)
			if name == "" || s == "" || s[0] != '=' {
				s = rest // not an auth-param: the next challenge begins here
				break
			}
			s = strings.TrimLeft(s, "=")
			blank(false)
			val := ""
			if strings.HasPrefix(s, `"`) {
				var b strings.Builder
				i := 1
				for ; i < len(s) && s[i] != '"'; i++ {
					if s[i] == '\\' && i+1 < len(s) {
						i++
					}
					b.WriteByte(s[i])
				}
				val, s = b.String(), s[min(i+1, len(s)):]
			} else {
				val = token()
			}
			c.Params[strings.ToLower(name)] = val
		}
		out = append(out, c)
	}
}

// ParseChallenge returns the Bearer challenge of a WWW-Authenticate header
// value (the first challenge when none is Bearer; an empty one for "").
func ParseChallenge(header string) Challenge {
	cs := ParseChallenges(header)
	for _, c := range cs {
		if strings.EqualFold(c.Scheme, "Bearer") {
			return c
		}
	}
	if len(cs) > 0 {
		return cs[0]
	}
	return Challenge{Params: map[string]string{}}
}
