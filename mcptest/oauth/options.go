package oauth

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/mcptest"
)

// PRMLocation says where the mock serves its Protected Resource Metadata
// (RFC 9728).
type PRMLocation int

const (
	// PRMAtPath serves it at the path-inserted well-known URL,
	// /.well-known/oauth-protected-resource/mcp for the endpoint /mcp (the default).
	PRMAtPath PRMLocation = iota
	// PRMAtRoot serves it at /.well-known/oauth-protected-resource, for the
	// origin as the resource.
	PRMAtRoot
	// PRMNowhere serves none, and the challenge names none: the 2025-03-26
	// fallback, where a client takes the MCP server's origin as its
	// authorization server.
	PRMNowhere
)

// MetadataForm is one of the well-known URLs where an authorization
// server's metadata may be served, for an issuer with a path such as
// http://127.0.0.1:1234/as (for an issuer without a path the two
// OpenID forms are one URL).
type MetadataForm int

const (
	// OAuthInserted is RFC 8414's form: /.well-known/oauth-authorization-server/as.
	OAuthInserted MetadataForm = iota + 1
	// OpenIDInserted is OpenID Connect Discovery with path insertion:
	// /.well-known/openid-configuration/as.
	OpenIDInserted
	// OpenIDAppended is OpenID Connect Discovery with path appending:
	// /as/.well-known/openid-configuration.
	OpenIDAppended
)

// String returns the form's name, e.g. "OAuthInserted".
func (f MetadataForm) String() string {
	switch f {
	case OAuthInserted:
		return "OAuthInserted"
	case OpenIDInserted:
		return "OpenIDInserted"
	case OpenIDAppended:
		return "OpenIDAppended"
	}
	return "MetadataForm(" + strconv.Itoa(int(f)) + ")"
}

// Options configure an Authorization. The zero value of a field is the
// default, and the zero Options follow the current spec (2025-11-25, and
// 2026-07-28 for stateless requests): a 401 with WWW-Authenticate: Bearer
// resource_metadata="…", Protected Resource Metadata at the path-inserted
// well-known URL, one authorization server under the issuer <origin>/as
// with RFC 8414 metadata at /.well-known/oauth-authorization-server/as,
// PKCE S256, Dynamic Client Registration, Client ID Metadata Documents,
// the iss parameter, client authentication none, client_secret_basic and
// client_secret_post, opaque tokens that live an hour, refresh tokens that
// rotate, and no scopes.
type Options struct {
	// Scopes are scopes_supported of the Protected Resource Metadata and
	// of the authorization server's metadata (none by default); the 401
	// challenge names them in its scope parameter (see NoChallengeScope).
	// Tokens carry the scopes the client asked for, listed or not (a
	// step-up's scope often is not), except UngrantedScopes.
	Scopes []string
	// UngrantedScopes are left out of every token, though the client asks
	// for them: a request that needs one (MethodScopes, ToolScopes) is
	// refused 403 insufficient_scope after every step-up. Reproduces: a
	// scope the user may never grant — the client must stop stepping up
	// after a few tries.
	UngrantedScopes []string
	// MethodScopes are the scopes requests of a method need (none by
	// default): a token without them gets 403 with WWW-Authenticate:
	// Bearer error="insufficient_scope", scope="…", the step-up the spec
	// describes.
	MethodScopes map[string][]string
	// ToolScopes are the scopes a tools/call of a tool needs, by the
	// tool's name, as MethodScopes for a method.
	ToolScopes map[string][]string
	// NoChallengeScope leaves the scope parameter out of the 401
	// challenge: a client then asks for scopes_supported, or no scope.
	NoChallengeScope bool
	// NoResourceMetadata leaves resource_metadata out of the 401
	// challenge, as a server that relies on the well-known URLs does: a
	// client must then try the path-inserted URL, then the root one.
	NoResourceMetadata bool

	// PRM says where the Protected Resource Metadata is served: PRMAtPath
	// (the default), PRMAtRoot or PRMNowhere.
	PRM PRMLocation
	// PRMURL serves the Protected Resource Metadata at this path of the
	// server's origin (e.g. "/meta/prm") and nowhere else: a client finds
	// it only through the challenge's resource_metadata. "" (the default)
	// leaves it to PRM.
	PRMURL string
	// Resource is the resource the Protected Resource Metadata names
	// ("": the MCP endpoint's URL, or its origin at the root). Tokens
	// asked for with it are accepted: it is the server's name for itself.
	Resource string
	// PRMFields set fields of the Protected Resource Metadata document to
	// Go values (a json.RawMessage for JSON text); a nil value removes the
	// field.
	PRMFields map[string]any

	// AuthorizationServers is how many authorization servers there are
	// (0: one), all on the server's origin, the first under the issuer
	// path, the others under it followed by their number (/as2, /as3, …);
	// the Protected Resource Metadata lists them all, in that order.
	AuthorizationServers int
	// IssuerPath is the path of the authorization server's issuer on the
	// server's origin: "" for the default "/as", "/" for the origin itself.
	IssuerPath string
	// MetadataAt are the well-known URLs where the authorization server
	// serves its metadata (nil: OAuthInserted only); a request to another
	// is journaled and answered 404.
	MetadataAt []MetadataForm
	// NoMetadata serves no authorization server metadata at all: a client
	// falls back to the 2025-03-26 defaults, /authorize, /token and
	// /register under the issuer, which keep working.
	NoMetadata bool
	// LegacyDiscovery is the 2025-03-26 arrangement: no Protected Resource
	// Metadata, the MCP server's origin as the authorization server, its
	// metadata at /.well-known/oauth-authorization-server (none with
	// NoMetadata), with /authorize, /token and /register at the root. It
	// sets where things are served itself: PRM, PRMURL, IssuerPath and
	// MetadataAt stay unset.
	LegacyDiscovery bool
	// MetadataFields set fields of the authorization server's metadata to
	// Go values (a json.RawMessage for JSON text); a nil value removes the
	// field: e.g. "code_challenge_methods_supported": nil,
	// "registration_endpoint": nil, "client_id_metadata_document_supported":
	// false, "authorization_response_iss_parameter_supported": false,
	// "token_endpoint_auth_methods_supported": []string{"client_secret_basic"},
	// "grant_types_supported": []string{"authorization_code"}. The server
	// acts on what it advertises: no registration_endpoint, no /register;
	// no refresh_token grant, no refresh tokens; client_credentials listed,
	// the client credentials grant (RFC 6749 §4.4) for a confidential
	// client (one of Clients with a secret); the client authentication
	// methods listed are the ones accepted.
	MetadataFields map[string]any

	// Clients are registered before the test, as a real authorization
	// server's pre-registered clients (none by default).
	Clients []Client
	// TokenLifetime is how long an access token lives (0: an hour);
	// expires_in says so. A request with an expired token gets 401
	// invalid_token.
	TokenLifetime time.Duration
	// RequireApplicationType makes /register refuse (400
	// invalid_client_metadata) a registration without application_type,
	// as an OpenID Connect server may. Without it the registration
	// succeeds, and, for a 2026-07-28 client, is a violation either way.
	RequireApplicationType bool
	// NoRefreshTokens issues no refresh tokens: the spec says a client
	// must not assume them.
	NoRefreshTokens bool
}

// Client is a client registered before the test.
type Client struct {
	// ID is its client_id.
	ID string
	// Secret is its client secret; "" for a public client, which
	// authenticates with none (a confidential one with client_secret_basic).
	Secret string
	// RedirectURIs are the redirect URIs it may use (none: any loopback one).
	RedirectURIs []string
}

// Authorization is the mock as an OAuth-protected MCP server with its own
// authorization server on the same origin: build it with New, and turn it
// on with mcptest's Server.WithAuthorization. It serves one server, whose
// authorization flow its methods read and assert on.
type Authorization struct {
	socket // makes it what Server.WithAuthorization takes; go doc shows nothing of it

	cfg config
	mu  sync.Mutex
	st  *authState // the server it serves; nil until installed
}

// socket names authplug.Socket for an embedded field of an unexported
// name: the Socket's unexported method is promoted to Authorization (so
// it is an authplug.Authorizer), and no field or method a user can reach
// is.
type socket = authplug.Socket

// config is Options, checked and with the defaults filled in.
type config struct {
	scopes          []string
	ungranted       []string
	challengeScope  bool
	noResourceMeta  bool
	prm             PRMLocation
	prmURL          string
	resource        string
	prmFields       map[string]any
	servers         int
	issuerPath      string // "" for the origin
	forms           []MetadataForm
	noMetadata      bool
	fields          map[string]any
	clients         []Client
	tokenTTL        time.Duration
	codeTTL         time.Duration
	methodScopes    map[string][]string
	toolScopes      map[string][]string
	requireAppType  bool
	noRefreshTokens bool
	err             error // why the Options cannot be served
}

// New returns an Authorization configured by o. Options it cannot serve
// (a scope with a space, a relative resource…) fail the test when
// Server.WithAuthorization installs it, naming the field.
func New(o Options) *Authorization {
	a := &Authorization{cfg: o.config()}
	authplug.Bind(&a.socket, a.connect)
	return a
}

// config checks o and fills in the defaults; it copies what o shares, so
// that changing o later changes nothing. What it cannot serve is in err,
// each field named.
func (o Options) config() config {
	c := config{
		scopes: slices.Clone(o.Scopes), ungranted: slices.Clone(o.UngrantedScopes),
		challengeScope: !o.NoChallengeScope, noResourceMeta: o.NoResourceMetadata,
		prm: o.PRM, prmURL: o.PRMURL, resource: o.Resource, prmFields: maps.Clone(o.PRMFields),
		servers: max(o.AuthorizationServers, 1), issuerPath: o.IssuerPath, forms: slices.Clone(o.MetadataAt),
		noMetadata: o.NoMetadata, fields: maps.Clone(o.MetadataFields),
		tokenTTL: o.TokenLifetime, codeTTL: time.Minute,
		requireAppType: o.RequireApplicationType, noRefreshTokens: o.NoRefreshTokens,
		methodScopes: map[string][]string{}, toolScopes: map[string][]string{},
	}
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	for _, sc := range o.Scopes {
		if sc == "" || strings.ContainsAny(sc, " \"\\") {
			fail("Scopes: scope %q: a scope is a non-empty token without spaces, quotes or backslashes", sc)
		}
	}
	for _, m := range slices.Sorted(maps.Keys(o.MethodScopes)) {
		if len(o.MethodScopes[m]) == 0 {
			fail("MethodScopes[%q]: no scopes", m)
		}
		c.methodScopes[m] = slices.Clone(o.MethodScopes[m])
	}
	for _, tool := range slices.Sorted(maps.Keys(o.ToolScopes)) {
		if len(o.ToolScopes[tool]) == 0 {
			fail("ToolScopes[%q]: no scopes", tool)
		}
		c.toolScopes[tool] = slices.Clone(o.ToolScopes[tool])
	}
	switch {
	case o.PRM < PRMAtPath || o.PRM > PRMNowhere:
		fail("PRM: %d is not a PRMLocation", o.PRM)
	case o.PRMURL != "" && (!strings.HasPrefix(o.PRMURL, "/") || strings.ContainsAny(o.PRMURL, "?#")):
		fail("PRMURL %q: want an absolute path without query or fragment, e.g. \"/meta/prm\"", o.PRMURL)
	case o.PRMURL != "" && o.PRM != PRMAtPath:
		fail("PRMURL %q and PRM %d: the metadata is served at one place; set one of them", o.PRMURL, o.PRM)
	}
	if o.Resource != "" {
		if u, err := url.Parse(o.Resource); err != nil || !u.IsAbs() || u.Fragment != "" {
			fail("Resource %q: want an absolute URI without a fragment", o.Resource)
		}
	}
	if o.AuthorizationServers < 0 {
		fail("AuthorizationServers %d: want 1 or more (0 for one)", o.AuthorizationServers)
	}
	switch p := o.IssuerPath; {
	case p == "":
		c.issuerPath = "/as"
	case p == "/":
		c.issuerPath = ""
	case !strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.ContainsAny(p, "?#"):
		fail("IssuerPath %q: want a path such as \"/as\" without a trailing slash, or \"/\" for the origin", p)
	}
	for _, f := range o.MetadataAt {
		if f < OAuthInserted || f > OpenIDAppended {
			fail("MetadataAt: %d is not a MetadataForm", f)
		}
	}
	if len(c.forms) == 0 {
		c.forms = []MetadataForm{OAuthInserted}
	}
	if o.LegacyDiscovery {
		if o.PRM != PRMAtPath || o.PRMURL != "" || o.IssuerPath != "" || len(o.MetadataAt) > 0 {
			fail("LegacyDiscovery sets where everything is served itself: leave PRM, PRMURL, IssuerPath and MetadataAt unset")
		}
		c.prm, c.issuerPath, c.forms = PRMNowhere, "", []MetadataForm{OAuthInserted}
	}
	if c.servers > 1 && c.issuerPath == "" {
		fail("AuthorizationServers %d needs an IssuerPath other than \"/\": the origin is one issuer", c.servers)
	}
	for _, cl := range o.Clients {
		if cl.ID == "" {
			fail("Clients: a client with an empty ID")
		}
		c.clients = append(c.clients, Client{ID: cl.ID, Secret: cl.Secret, RedirectURIs: slices.Clone(cl.RedirectURIs)})
	}
	switch {
	case o.TokenLifetime == 0:
		c.tokenTTL = time.Hour
	case o.TokenLifetime < time.Second:
		fail("TokenLifetime %v: want a second or more", o.TokenLifetime)
	}
	if len(errs) > 0 {
		c.err = errors.New(strings.Join(errs, "; "))
	}
	return c
}

// connect plugs the authorization into a server (Server.WithAuthorization).
func (a *Authorization) connect(h authplug.Host) (authplug.Guard, error) {
	if a.cfg.err != nil {
		return nil, a.cfg.err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st != nil {
		return nil, fmt.Errorf("this *oauth.Authorization serves another server already: build one per server with oauth.New")
	}
	a.st = newAuthState(h, a.cfg)
	return a.st, nil
}

// Of returns the Authorization installed on srv (Server.WithAuthorization),
// nil if none: for code that has the server and not the authorization, as
// a fixture's caller or a scenario's decision point.
func Of(srv *mcptest.Server) *Authorization {
	a, _ := srv.Authorization().(*Authorization)
	return a
}

// state is the server's authorization state, nil until installed (or for
// a nil Authorization).
func (a *Authorization) state() *authState {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.st
}
