#!/usr/bin/env bash
# rename.sh applies the API renames of RENAMES.md to the whole go.work
# workspace (mcptest, scenarios, config, cmd, internal, ./integration,
# ./examples): the pure renames with gopls (every reference, in every module
# and test), three merges done mechanically (gofmt -r rewrites the calls,
# then the old declarations go), and sed over the doc comments, string
# literals, README.md and the other Markdown files and config/schema.json.
# It ends with gofmt -l, go build and go vet.
#
# Run it from anywhere inside the repository, on a clean tree, after every
# branch is merged:   ./rename.sh
# It needs gopls (GOPLS=/path/to/gopls; default /work/bin/gopls, or the one
# on PATH). gopls v0.23.0 is the last that builds with go 1.26:
#   GOBIN=/work/bin go install golang.org/x/tools/gopls@v0.23.0
# It stops at the first step that fails, naming it. Each gopls step checks
# that it finds exactly one declaration; a step whose old name is gone (the
# script ran before) is skipped, so a second run is harmless.
#
# The signature and behaviour changes it does NOT make (WithFaults only
# before Dial, WithSSEReplies dropped) are in RENAMES.md, "By hand".
set -euo pipefail

ROOT=$(git rev-parse --show-toplevel)
cd "$ROOT"
GOPLS=${GOPLS:-}
if [[ -z $GOPLS ]]; then
	if [[ -x /work/bin/gopls ]]; then GOPLS=/work/bin/gopls; else GOPLS=$(command -v gopls || true); fi
fi
[[ -x $GOPLS ]] || { echo "rename.sh: no gopls; install it: GOBIN=/work/bin go install golang.org/x/tools/gopls@v0.23.0" >&2; exit 1; }

start=$(date +%s)
step() { echo "== $*  (+$(($(date +%s) - start))s)"; }

# Every Go file of the workspace, tracked or not, without testdata.
gofiles() { find . -name '*.go' -not -path './.git/*' -not -path '*/testdata/*' | sort; }
# The files of package mcptest itself (not the external mcptest_test ones).
pkgfiles() { grep -l '^package mcptest$' mcptest/*.go; }
# Every other Go file that mentions mcptest.
outfiles() { gofiles | grep -v '^\./mcptest/[^/]*\.go$' | xargs grep -l 'mcptest\.' || true; grep -L '^package mcptest$' mcptest/*.go | sed 's|^|./|'; }

# rename DIR DECL_REGEX IDENT NEW: gopls-renames IDENT, declared on the one
# line of DIR's non-test .go files that DECL_REGEX (grep -E) matches.
rename() {
	local dir=$1 re=$2 id=$3 new=$4 hits n file line text col
	hits=$(grep -nE -- "$re" "$dir"/*.go | grep -v '_test\.go:' || true)
	n=$(printf '%s' "$hits" | grep -c . || true)
	if [[ $n -eq 0 ]]; then
		echo "   skip $dir.$id -> $new: no declaration matches /$re/ (already renamed?)"
		return
	fi
	if [[ $n -ne 1 ]]; then
		echo "rename.sh: $dir.$id: /$re/ matches $n lines, want 1:" >&2
		echo "$hits" >&2
		exit 1
	fi
	file=${hits%%:*}
	line=$(cut -d: -f2 <<<"$hits")
	text=$(cut -d: -f3- <<<"$hits")
	col=$(awk -v t="$text" -v id="$id" 'BEGIN { print index(t, id) }')
	[[ $col -gt 0 ]] || { echo "rename.sh: $id not on $file:$line" >&2; exit 1; }
	step "gopls rename $dir.$id -> $new ($file:$line:$col)"
	"$GOPLS" rename -w "$file:$line:$col" "$new" >/dev/null
}

# rewrite RULE FILES...: gofmt -r RULE -w over FILES.
rewrite() {
	local rule=$1
	shift
	[[ $# -gt 0 ]] || return 0
	gofmt -r "$rule" -w "$@"
}

# text PERL_SUBST: the substitution on every .go and .md file and on
# config/schema.json (comments, strings, docs; the code is renamed already).
textfiles() {
	{
		gofiles
		find . -name '*.md' -not -path './.git/*' -not -name 'RENAMES.md'
		echo ./config/schema.json
	} | sort -u
}
text() {
	textfiles | xargs perl -pi -e "$1"
}

######## 1. Merges (signature changes) ########

step "JSONRPCError: RPCError(c, m) -> RPCErrorWithData(c, m, nil); RPCError goes; RPCErrorWithData -> JSONRPCError"
if grep -q '^func RPCError(' mcptest/*.go; then
	rewrite 'RPCError(a, b) -> RPCErrorWithData(a, b, nil)' $(pkgfiles)
	rewrite 'mcptest.RPCError(a, b) -> mcptest.RPCErrorWithData(a, b, nil)' $(outfiles)
	perl -0pi -e 's{(?:^//[^\n]*\n)*^func RPCError\(code int, message string\) Reply \{\n.*?^\}\n\n?}{}ms' mcptest/*.go
	perl -0pi -e 's{(?:^//[^\n]*\n)*(^func RPCErrorWithData\()}{// JSONRPCError answers with a JSON-RPC error object {code, message, data}:\n// the request itself was wrong (unknown method, bad params). data is any\n// JSON value by the package\x27s JSON rule (a Go value; a json.RawMessage\n// for JSON text; a Go string is a JSON string), nil for none. A tool that\n// ran and failed answers ToolErrorResult instead.\n$1}ms' mcptest/*.go
fi
rename mcptest '^func RPCErrorWithData\(' RPCErrorWithData JSONRPCError

step "From(dir): Journal/Messages FromClient() and FromServer() -> From(FromClient) / From(FromServer)"
if grep -q '^func (j \*Journal) FromClient()' mcptest/journal.go; then
	cat >>mcptest/journal.go <<'EOF'

// From returns the messages sent in direction dir (FromClient: by the
// client under test; FromServer: by the mock), as Messages.From.
func (j *Journal) From(dir Direction) Messages { return j.query(selector{dir: dir}) }

// From returns the messages sent in direction dir: FromClient, by the
// client under test; FromServer, by the mock.
func (ms Messages) From(dir Direction) Messages {
	return ms.Filter(func(m Message) bool { return m.Direction == dir })
}
EOF
	rewrite 'x.FromClient() -> x.From(FromClient)' $(pkgfiles)
	rewrite 'x.FromServer() -> x.From(FromServer)' $(pkgfiles)
	rewrite 'x.FromClient() -> x.From(mcptest.FromClient)' $(outfiles)
	rewrite 'x.FromServer() -> x.From(mcptest.FromServer)' $(outfiles)
	perl -0pi -e 's{(?:^//[^\n]*\n)*^func \((?:j \*Journal|ms Messages)\) From(?:Client|Server)\(\) Messages \{.*?^?\}\n\n?}{}msg' mcptest/journal.go
fi

step "Messages.Transcript/SequenceDiagram: RenderTranscript(ms) -> ms.Transcript(); RenderSequenceDiagram(ms) -> ms.SequenceDiagram()"
if grep -q '^func RenderTranscript(' mcptest/*.go; then
	cat >>mcptest/transcript.go <<'EOF'

// Transcript renders the messages as Server.Transcript does, e.g.
// srv.Journal().InSession(2).Transcript(). It takes time linear in the
// number of messages, whatever the number of sessions.
func (ms Messages) Transcript() string { return RenderTranscript(ms) }

// SequenceDiagram renders the messages as Server.SequenceDiagram does.
func (ms Messages) SequenceDiagram() string { return RenderSequenceDiagram(ms) }
EOF
	rewrite 'mcptest.RenderTranscript(x) -> x.Transcript()' $(outfiles)
	rewrite 'mcptest.RenderSequenceDiagram(x) -> x.SequenceDiagram()' $(outfiles)
fi
rename mcptest '^func RenderTranscript\(' RenderTranscript renderTranscript
rename mcptest '^func RenderSequenceDiagram\(' RenderSequenceDiagram renderSequenceDiagram

######## 2. Pure renames (gopls) ########

rename mcptest '^func \(s \*Server\) Handler\(\) ' Handler HTTPHandler
rename mcptest '^func \(s \*Server\) Request\(' Request SendRequest
rename mcptest '^func \(s \*Session\) Request\(' Request SendRequest
rename mcptest '^func \(s \*Server\) Notify\(' Notify Broadcast
rename mcptest '^func \(s \*Server\) NotifyResourceUpdated\(' NotifyResourceUpdated BroadcastResourceUpdated
rename mcptest '^func \(j \*Journal\) Session\(' Session InSession
rename mcptest '^func \(ms Messages\) Session\(' Session InSession
rename mcptest '^	Session +int$' Session SessionNumber
rename mcptest '^func ErrorResult\(' ErrorResult ToolErrorResult
rename mcptest '^func \(t \*Tool\) ReturnsError\(' ReturnsError ReturnsToolError
rename mcptest '^func ErrorReply\(' ErrorReply ReplaceWithJSONRPCError
rename mcptest '^func RejectProtocolVersion\(\)' RejectProtocolVersion RejectProtocolVersionHandshake
rename mcptest '^func RejectProtocolVersionModern\(' RejectProtocolVersionModern RejectProtocolVersionStateless
rename mcptest '^func NotifyBeforeInitialized\(' NotifyBeforeInitialized NotifyAfterInitializeResult
rename mcptest '^func RequestBeforeInitialized\(' RequestBeforeInitialized RequestAfterInitializeResult
rename mcptest '^func CapabilitiesAs\(' CapabilitiesAs RespondCapabilities
rename mcptest '^func \(s \*Server\) WithFault\(' WithFault WithFaults
rename mcptest '^func Method\(' Method ClientSent
rename scenarios '^func \(e \*Endpoint\) Dial\(' Dial Open
rename scenarios/tour '^func OneSession\(' OneSession OneSessionRun
rename config '^type RPCError struct' RPCError JSONRPCError
rename config '^	RPCError +\*JSONRPCError' RPCError JSONRPCError

######## 3. Text: doc comments, strings, Markdown, the config schema ########

step "sed: comments, string literals, *.md, config/schema.json"
# Names no other identifier shares: every whole-word occurrence.
text 's/\bRPCErrorWithData\b/JSONRPCError/g; s/\bmcptest\.RPCError\(([^,()]+), ([^,()]+)\)/mcptest.JSONRPCError($1, $2, nil)/g; s/\bRPCError\(code, message\)/JSONRPCError(code, message, nil)/g; s/\bRPCError\b/JSONRPCError/g'
text 's/\bErrorResult\b/ToolErrorResult/g; s/\bReturnsError\b/ReturnsToolError/g; s/\bErrorReply\b/ReplaceWithJSONRPCError/g'
text 's/\bRejectProtocolVersionModern\b/RejectProtocolVersionStateless/g; s/\bRejectProtocolVersion\b/RejectProtocolVersionHandshake/g'
text 's/\bNotifyBeforeInitialized\b/NotifyAfterInitializeResult/g; s/\bRequestBeforeInitialized\b/RequestAfterInitializeResult/g; s/\bCapabilitiesAs\b/RespondCapabilities/g'
text 's/\bWithFault\b/WithFaults/g; s/\bNotifyResourceUpdated\b/BroadcastResourceUpdated/g'
text 's/\bmcptest\.RenderTranscript\(([\w.()]+)\)/$1.Transcript()/g; s/\bmcptest\.RenderSequenceDiagram\(([\w.()]+)\)/$1.SequenceDiagram()/g; s/\bRenderTranscript\b/Messages.Transcript/g; s/\bRenderSequenceDiagram\b/Messages.SequenceDiagram/g'
# Names shared with other identifiers: only where they are these.
text 's/\.Handler\(\)/.HTTPHandler()/g; s/\bServer\.Handler\b/Server.HTTPHandler/g; s/\(URL, Handler\)/(URL, HTTPHandler)/g; s/\bURL or Handler\b/URL or HTTPHandler/g; s/\bURL and Handler\b/URL and HTTPHandler/g; s/\bHandler \(Streamable HTTP/HTTPHandler (Streamable HTTP/g'
text 's/\b(srv|s|sess|session|Server|Session|Session\(\w+\)|Sessions\(\)\[\d+\])\.Request\b/$1.SendRequest/g; s/\bNotify, Request\b/Broadcast, SendRequest/g'
text 's/\b(srv|Server|s\.srv)\.Notify\b/$1.Broadcast/g; s/(?<![\w.])Notify\(([^()]*)\) reached/Broadcast($1) reached/g'
text 's/\b(Journal\(\)|Journal|Messages|All\(\)|j|ms|o\.Journal|Outcome\.Journal)\.Session\(/$1.InSession(/g; s/\b(Journal|Messages)\.Session\b/$1.InSession/g; s/\bMessage\.Session\b/Message.SessionNumber/g'
text 's/\.FromClient\(\)/.From(FromClient)/g; s/\.FromServer\(\)/.From(FromServer)/g; s/\b(Journal|Messages)\.FromClient\b/$1.From/g; s/\b(Journal|Messages)\.FromServer\b/$1.From/g'
text 's/\bmcptest\.Method\(/mcptest.ClientSent(/g; s/(?<![\w.])Method\((method|"[^"]*")\)/ClientSent($1)/g; s/\bToolCall and Method\b/ToolCall and ClientSent/g; s/\bAssertCalled, Method:/AssertCalled, ClientSent:/g; s/^(\s*\/\/ )Method matches/$1ClientSent matches/'
text 's/\bep\.Dial\(\)/ep.Open()/g; s/\bEndpoint\.Dial\b/Endpoint.Open/g; s/\btour\.OneSession\b/tour.OneSessionRun/g'
# Example functions are named after what they show.
text 's/\bExample(Server|Session)_Request\b/Example$1_SendRequest/g; s/\bExampleServer_Notify\b/ExampleServer_Broadcast/g; s/\bExampleServer_NotifyResourceUpdated\b/ExampleServer_BroadcastResourceUpdated/g; s/\bExampleServer_Handler\b/ExampleServer_HTTPHandler/g; s/\bExampleServer_WithFault\b/ExampleServer_WithFaults/g; s/\bExample(Journal|Messages)_Session\b/Example$1_InSession/g; s/\bExample(Journal|Messages)_From(Client|Server)\b/Example$1_From/g; s/\bExampleErrorResult\b/ExampleToolErrorResult/g; s/\bExampleRPCError(WithData)?\b/ExampleJSONRPCError/g; s/\bExampleTool_ReturnsError\b/ExampleTool_ReturnsToolError/g; s/\bExampleRenderTranscript\b/ExampleMessages_Transcript/g; s/\bExampleRenderSequenceDiagram\b/ExampleMessages_SequenceDiagram/g; s/\bExampleMethod\b/ExampleClientSent/g; s/\bExampleEndpoint_Dial\b/ExampleEndpoint_Open/g'
# What gopls renamed too eagerly in the renamed declarations' doc comments,
# and articles before the new names.
text 's/\bhttp\.HTTPHandler\b/http.Handler/g; s/\bSession\.Broadcast\b/Session.Notify/g; s/\bMessage\.InSession\b/Message.SessionNumber/g; s/\b([Aa])n (ToolErrorResult|ReplaceWithJSONRPCError|JSONRPCError)\b/$1 $2/g'
# The errors of Session.SendRequest name it.
text 's/mcptest: Request\(/mcptest: SendRequest(/g; s/`From(Client|Server)\(\)\./`From(From$1)./g; s/`From(Client|Server)\(\)`/`From(From$1)`/g; s/`Session\(n\)`, `Invalid\(\)`/`InSession(n)`, `Invalid()`/g'
# In Markdown, Go code outside package mcptest spells the direction mcptest.FromClient.
find . -name '*.md' -not -path './.git/*' -not -name 'RENAMES.md' | xargs perl -pi -e 's/\.From\(From(Client|Server)\)/.From(mcptest.From$1)/g'
for f in $(outfiles); do perl -pi -e 's/\.From\(From(Client|Server)\)/.From(mcptest.From$1)/g unless m{^\s*//}' "$f"; done

######## 4. Checks ########

step "config/schema.json: the fault names changed, and the schema lists them sorted"
go test ./config -run TestSchemaFaults -update >/dev/null

step "gofmt -l"
bad=$(gofmt -l . || true)
if [[ -n $bad ]]; then echo "$bad"; gofmt -w $bad; echo "   (reformatted the files above)"; fi
step "go build ./... ./examples/... ./integration/..."
go build ./... ./examples/... ./integration/...
step "go vet ./... ./examples/... ./integration/..."
go vet ./... ./examples/... ./integration/...
step "left over (old names in any file; review by hand):"
grep -rnE '\b(RPCError\(|RPCErrorWithData|ErrorResult\(|ReturnsError\(|ErrorReply|RejectProtocolVersion(Modern)?\b|NotifyBeforeInitialized|RequestBeforeInitialized|CapabilitiesAs|WithFault\b|RenderTranscript|RenderSequenceDiagram|NotifyResourceUpdated|FromClient\(\)|FromServer\(\)|WithSSEReplies)' \
	--include='*.go' --include='*.md' --include='*.json' . | grep -v RENAMES.md || echo "   none"
echo "rename.sh: done in $(($(date +%s) - start))s"
