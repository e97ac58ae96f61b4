# shellcheck shell=bash
# check_agreement (sourced by .ci/run; the suite and Node versions are
# those .ci/conformance_server.sh pins): the official conformance suite's client mode
# and mcpmock run judge the same client programs on the same scenarios, and
# both verdicts are held against the committed ones.
#
# The clients are programs that act per scenario, reading
# MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT): the TypeScript
# SDK 1.32.2 (cmd/mcpmock/testdata/ts-suite-client.mjs), go-sdk v1.8.0
# (integration/clients/gosdk), mark3labs v1.2.1 (integration/clients/mark3),
# the official Python SDK mcp 2.3.0 and FastMCP's client 4.1.6
# (cmd/mcpmock/testdata/python/mcp_suite_client.py and
# fastmcp_suite_client.py, in a virtual environment of the hash-pinned lock
# requirements.txt there) and rmcp 3.11.0 (integration/clients/rust,
# its binary rmcp-suite-client, built into the cargo target folder of
# .ci/jvm_rust_clients.sh, which has built it already when .ci/run gets
# here), each built or installed once. The scenarios are those both have, computed here: the
# client scenarios of scenarios/testdata/official-suite.txt that are not
# extensions and that `mcpmock list` names, so a new catalog name joins by
# itself. For each client and scenario, `conformance client --command CMD
# --scenario X` gives the suite's verdict (its exit status: 0 pass, else
# fail; two scenarios at a time) and one `mcpmock run --http --scenario ...
# -- CMD` gives the mock's (its JSON report's status). Both go to
# integration/conformance/agreement/CLIENT.tsv (scenario, suite, mock); a
# verdict that differs from the committed file fails CI
# (MCPMOCK_UPDATE_RESULTS=1 copies the fresh ones there instead). Each
# disagreement is explained in integration/conformance/agreement/explanations.json.
check_agreement() {
	local dir start=$SECONDS
	# The pins are those of .ci/conformance_server.sh (read from it when
	# this file runs alone).
	[ -n "${conformance_suite_version:-}" ] || eval "$(grep -E '^conformance_(suite|node)_version=' .ci/conformance_server.sh)"
	dir="$(mktemp -d)"
	trap 'rm -rf "$dir"; trap - RETURN' RETURN
	go build -o "$dir/mcpmock" ./cmd/mcpmock
	go build -o "$dir/gosdk-client" ./integration/clients/gosdk
	go build -o "$dir/mark3-client" ./integration/clients/mark3
	cp cmd/mcpmock/testdata/ts-suite-client.mjs cmd/mcpmock/testdata/ts-oauth-provider.mjs "$dir/"
	local cache="${MCPMOCK_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpmock-ci}"
	CARGO_TARGET_DIR="$cache/cargo-target" cargo build --quiet --release --locked \
		--manifest-path integration/clients/rust/Cargo.toml --bin rmcp-suite-client
	local rmcp="$cache/cargo-target/release/rmcp-suite-client"
	# The Java SDK's app (its Maven repository: that of
	# .ci/jvm_rust_clients.sh).
	cp -r integration/clients/java "$dir/java"
	(cd "$dir/java" && mvn -B -q -Dstyle.color=never -Dmaven.repo.local="$cache/m2" package)
	local jar="$dir/java/target/java-sdk-client.jar"
	# The Python clients' virtual environment (pip's cache: that of
	# .ci/python_clients.sh); they run with -B, writing no __pycache__
	# beside the programs.
	local py="$PWD/cmd/mcpmock/testdata/python"
	python3 -m venv "$dir/venv"
	PIP_CACHE_DIR="${PIP_CACHE_DIR:-$HOME/.cache/mcpmock-pip}" "$dir/venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes --no-deps -r "$py/requirements.txt"
	(cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error \
		"node@$conformance_node_version" \
		"@modelcontextprotocol/conformance@$conformance_suite_version" @modelcontextprotocol/sdk@1.32.2)
	echo "agreement: clients built and the suite installed in $((SECONDS - start)) s"
	export PATH="$dir/node_modules/.bin:$PATH"

	# The scenarios both have.
	local names
	names="$(comm -12 \
		<(grep '^client ' scenarios/testdata/official-suite.txt | grep -v '\[extension\]' | awk '{print $2}' | sort) \
		<("$dir/mcpmock" list | sed -n 's/^\([a-z0-9_/-]*\): .*/\1/p' | sort))"
	echo "agreement: $(wc -w <<<"$names") scenarios both have"

	local want=integration/conformance/agreement bad=0 client cmd
	# MCPMOCK_AGREEMENT_CLIENTS=NAMES plays those clients only (to try one).
	for client in ${MCPMOCK_AGREEMENT_CLIENTS:-typescript gosdk mark3labs python-mcp fastmcp rmcp java}; do
		local played="$names"
		case "$client" in
		typescript) cmd="node $dir/ts-suite-client.mjs" ;;
		gosdk) cmd="$dir/gosdk-client" ;;
		mark3labs) cmd="$dir/mark3-client" ;;
		python-mcp) cmd="$dir/venv/bin/python -B $py/mcp_suite_client.py" ;;
		fastmcp) cmd="$dir/venv/bin/python -B $py/fastmcp_suite_client.py" ;;
		rmcp) cmd="$rmcp" ;;
		java)
			cmd="java -XX:TieredStopAtLevel=1 -Xshare:auto -cp $jar mcpmock.JavaSuiteClient"
			# The Java SDK has no OAuth client: no auth/ scenario.
			played="$(grep -v '^auth/' <<<"$names")"
			;;
		esac
		local t0=$SECONDS out="$dir/$client"
		mkdir -p "$out/suite"
		# The suite's verdicts, two scenarios at a time: each run starts
		# its own servers on free ports.
		# shellcheck disable=SC2016
		xargs -P 2 -n 1 sh -c 'f="$2/$(printf %s "$3" | tr / _)"; if conformance client --command "$1" --scenario "$3" >"$f.log" 2>&1; then echo pass >"$f"; else echo fail >"$f"; fi' _ "$cmd" "$out/suite" <<<"$played"
		# The mock's verdicts, one run over every scenario.
		local args=()
		for n in $played; do args+=(--scenario "$n"); done
		# shellcheck disable=SC2086
		"$dir/mcpmock" run --http "${args[@]}" --json "$out/mock.json" --log "$out/mock.log" -- $cmd >"$out/mock.txt" 2>&1 || true
		{
			printf 'scenario\tsuite\tmock\n'
			for n in $played; do
				printf '%s\t%s\t%s\n' "$n" "$(cat "$out/suite/$(printf %s "$n" | tr / _)")" \
					"$(jq -r --arg n "$n" '[.results[] | select(.scenario == $n) | .status][0] // "no report"' "$out/mock.json")"
			done
		} >"$out/agreement.tsv"
		echo "agreement: $client played in $((SECONDS - t0)) s: $(awk -F'\t' 'NR > 1 && $2 != $3' "$out/agreement.tsv" | wc -l) disagreements"
		if [ "${MCPMOCK_UPDATE_RESULTS:-}" = 1 ]; then
			cp "$out/agreement.tsv" "$want/$client.tsv"
		elif ! diff -u "$want/$client.tsv" "$out/agreement.tsv"; then
			echo "FAIL: the verdicts on $client differ from $want/$client.tsv (above; each scenario's suite log follows)"
			local n
			for n in $(diff "$want/$client.tsv" "$out/agreement.tsv" | sed -n 's/^> \([^\t]*\)\t.*/\1/p'); do
				echo "--- conformance client --scenario $n:"
				sed -n '/Stderr:/,$p' "$out/suite/$(printf %s "$n" | tr / _).log" | grep -v INFO | head -40
			done
			echo "(MCPMOCK_UPDATE_RESULTS=1 bash .ci/agreement.sh takes them; explain each new disagreement in $want/explanations.json)"
			bad=1
		fi
	done
	[ "$bad" = 0 ] || return 1
	# Every disagreement explained, and the "Agreement" table of
	# docs/conformance.md the one the files give (-update rewrites it).
	local update=()
	[ "${MCPMOCK_UPDATE_RESULTS:-}" = 1 ] && update=(-update)
	go test -count=1 ./integration/conformance -run '^TestAgreementTable$' "${update[@]}" ||
		{ echo "FAIL: a disagreement is not explained in $want/explanations.json, or docs/conformance.md's table is stale"; return 1; }
	echo "ok: the suite's client mode and mcpmock run agree on every shared scenario, or the disagreement is explained ($((SECONDS - start)) s)"
}
check_agreement
