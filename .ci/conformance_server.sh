# shellcheck shell=bash
# check_conformance_server (sourced by .ci/run): the official MCP
# conformance suite, pinned, against mcpmock as a server. It needs Node 22,
# which npm serves as the package node@22: both are installed into a
# temporary folder, nothing to set up but npm. docs/conformance.md says
# what each scenario checks of the mock, and why the ones that fail do.
#
# 1. The pinned suite's scenario names (`conformance list`, server and
#    client) must be scenarios/testdata/official-suite.txt, which the Go
#    test TestOfficialSuiteScenarios holds against the catalog and
#    docs/conformance.md: a new official name fails here, not silently.
# 2. `mcpmock serve --http --until-signal --config
#    examples/conformance/server.json` (the suite's fixture server as a
#    config file) must pass `conformance server --requirements 2026-07-28`
#    and `--suite active` with no failure.
# 3. `--suite all` (drafts, pending scenarios, extensions) runs too: it
#    does not fail CI by its own failures, but every scenario must do what
#    docs/conformance.md says of it (passes, or not yet with the reason).
conformance_suite_version=0.2.0-alpha.12
conformance_node_version=22.23.3

check_conformance_server() {
	local started=$SECONDS dir pid="" url
	dir="$(mktemp -d)"
	# shellcheck disable=SC2064
	trap "[ -n \"\$pid\" ] && kill \"\$pid\" 2>/dev/null; rm -rf '$dir'; trap - RETURN" RETURN
	go build -o "$dir/mcpmock" ./cmd/mcpmock
	(cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error \
		"node@$conformance_node_version" "@modelcontextprotocol/conformance@$conformance_suite_version")
	conformance() { PATH="$dir/node_modules/.bin:$PATH" "$dir/node_modules/.bin/conformance" "$@"; }
	echo "conformance $(conformance --version) on node $(PATH="$dir/node_modules/.bin:$PATH" node --version)"

	# 1. The scenario list of the pinned suite.
	{
		echo "# @modelcontextprotocol/conformance@$conformance_suite_version: conformance list --server, then --client (.ci/conformance_server.sh writes it)"
		conformance list --server | sed -n 's/^  - /server /p'
		conformance list --client | sed -n 's/^  - /client /p'
	} >"$dir/official-suite.txt"
	if ! diff -u scenarios/testdata/official-suite.txt "$dir/official-suite.txt"; then
		echo "FAIL: the scenarios of conformance@$conformance_suite_version differ from scenarios/testdata/official-suite.txt (the diff above):"
		echo "copy the new list there, then go test ./scenarios -run TestOfficialSuiteScenarios says what the catalog and docs/conformance.md lack"
		return 1
	fi

	# 2. The mock as the suite's server.
	"$dir/mcpmock" serve --http --until-signal --config examples/conformance/server.json --log "$dir/serve.log" >"$dir/url" &
	pid=$!
	url=""
	for _ in $(seq 100); do
		url="$(head -n 1 "$dir/url")"
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { echo "FAIL: mcpmock serve printed no URL"; cat "$dir/serve.log"; return 1; }
	local run
	for run in "--requirements 2026-07-28" "--suite active"; do
		echo "conformance server $run"
		# shellcheck disable=SC2086
		if ! conformance server --url "$url" $run -o "$dir/results" >"$dir/out.txt" 2>&1; then
			echo "FAIL: conformance server $run against mcpmock (its summary follows; the checks are in docs/conformance.md)"
			sed -n '/=== SUMMARY ===/,$p' "$dir/out.txt"
			return 1
		fi
		sed -n '/=== SUMMARY ===/,$p' "$dir/out.txt" | grep -E '^(Total|Not scored)' || true
	done

	# 3. Everything the suite has, held against what the docs say.
	conformance server --url "$url" --suite all -o "$dir/all" >"$dir/all.txt" 2>&1 || true
	sed -n '/=== SUMMARY ===/,$p' "$dir/all.txt" | grep -E '^Total' || true
	# Each scenario's checks: passed (not counting wire-schema-valid, which
	# a scenario that skips everything else still passes) and failed.
	local tally='
		const fs = require("fs"), path = require("path"), dir = process.argv[1];
		for (const d of fs.readdirSync(dir).sort()) {
			const name = d.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
			const checks = JSON.parse(fs.readFileSync(path.join(dir, d, "checks.json"), "utf8"));
			const n = (s) => checks.filter((c) => c.status === s && c.id !== "wire-schema-valid").length;
			console.log(name, n("SUCCESS"), n("FAILURE"));
		}'
	local name passed failed want bad=0
	while read -r name passed failed; do
		want="$(grep -E "^\| \`$name\` \| " docs/conformance.md | awk -F'|' '{gsub(/ /, "", $3); print $3}' || true)"
		case "$want" in
		passes) [ "$failed" = 0 ] && [ "$passed" != 0 ] || { echo "FAIL: $name: docs/conformance.md says it passes, the suite says $passed passed, $failed failed"; bad=1; } ;;
		notyet) { [ "$failed" != 0 ] || [ "$passed" = 0 ]; } || { echo "FAIL: $name passes now ($passed checks): docs/conformance.md says not yet; update it"; bad=1; } ;;
		*) echo "FAIL: docs/conformance.md has no row for the server scenario $name"; bad=1 ;;
		esac
	done < <(PATH="$dir/node_modules/.bin:$PATH" node -e "$tally" "$dir/all")
	if [ "$bad" = 1 ]; then
		sed -n '/=== SUMMARY ===/,$p' "$dir/all.txt"
		return 1
	fi
	echo "ok: conformance@$conformance_suite_version against mcpmock serve: --requirements 2026-07-28 and --suite active pass; --suite all as docs/conformance.md says ($((SECONDS - started)) s)"
}
check_conformance_server
