# Sourced by .ci/run from the repository root.
# check_record_everything: `mcpmock record` on the reference server. The
# MCP Inspector CLI lists and calls the tools, resources and prompts of
# @modelcontextprotocol/server-everything over stdio, each call a process
# that spawns `mcpmock record --append -- mcp-server-everything stdio`, so
# that the calls' sessions make one recording; then the same calls go to
# `mcpmock serve --config` on that recording, and every output must be
# byte-identical to the real server's (the Inspector prints results, never
# ids). Then the same over Streamable HTTP, through `mcpmock record --url`.
# Both packages are pinned and installed into a temporary folder.
# Run from the repository's root (.ci/run does `cd "$(dirname "$0")/.."`).
check_record_everything() {
	local dir start=$SECONDS
	dir="$(mktemp -d)"
	trap 'rm -rf "$dir"; trap - RETURN' RETURN
	go build -o "$dir/mcpmock" ./cmd/mcpmock
	(cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error \
		@modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/inspector-cli@1.0.3)
	echo "record: npm install took $((SECONDS - start)) s"

	# One Inspector CLI command line a line (no argument has a space; the
	# lists of --tool-arg and --prompt-args end at the next option, so
	# --method comes last).
	local calls=(
		"--method tools/list"
		"--tool-name echo --tool-arg message=hello --method tools/call"
		"--tool-name echo --tool-arg message=again --method tools/call"
		"--tool-name get-sum --tool-arg a=2 b=3 --method tools/call"
		"--tool-name get-tiny-image --method tools/call"
		"--tool-name get-annotated-message --tool-arg messageType=success --method tools/call"
		"--tool-name get-annotated-message --tool-arg messageType=error includeImage=true --method tools/call"
		"--tool-name get-structured-content --tool-arg location=Chicago --method tools/call"
		"--tool-name get-resource-reference --tool-arg resourceType=Text resourceId=2 --method tools/call"
		"--tool-name get-resource-links --tool-arg count=2 --method tools/call"
		"--tool-name trigger-long-running-operation --tool-arg duration=1 steps=2 --method tools/call"
		"--method resources/list"
		"--method resources/templates/list"
		"--uri demo://resource/static/document/features.md --method resources/read"
		"--uri demo://resource/dynamic/text/1 --method resources/read"
		"--uri demo://resource/dynamic/blob/2 --method resources/read"
		"--method prompts/list"
		"--prompt-name simple-prompt --method prompts/get"
		"--prompt-name args-prompt --prompt-args city=Paris state=Texas --method prompts/get"
		"--prompt-name resource-prompt --prompt-args resourceType=Text resourceId=3 --method prompts/get"
	)
	# The Inspector CLI 1.0.3 finds its own package.json as ../package.json
	# of the working directory: run it one level below the install folder.
	inspect() {
		local out="$1"
		shift
		(cd "$dir/node_modules" && ./.bin/mcp-inspector-cli --cli "$@") >"$out" 2>>"$dir/inspector.log"
	}
	local i t0=$SECONDS
	for i in "${!calls[@]}"; do
		# shellcheck disable=SC2086 # the call's words
		inspect "$dir/real-$i.json" ${calls[$i]} -- "$dir/mcpmock" record --append --out "$dir/rec.json" -- "$dir/node_modules/.bin/mcp-server-everything" stdio ||
			{ echo "FAIL: the Inspector CLI against the recording proxy: ${calls[$i]}"; tail -20 "$dir/inspector.log"; exit 1; }
	done
	echo "record: ${#calls[@]} calls recorded in $((SECONDS - t0)) s"
	t0=$SECONDS
	for i in "${!calls[@]}"; do
		# shellcheck disable=SC2086
		inspect "$dir/replay-$i.json" ${calls[$i]} -- "$dir/mcpmock" serve --config "$dir/rec.json" --report "$dir/report-$i.json" ||
			{ echo "FAIL: the Inspector CLI against the replay: ${calls[$i]}"; tail -20 "$dir/inspector.log"; cat "$dir/report-$i.json" 2>/dev/null; exit 1; }
	done
	echo "record: ${#calls[@]} calls replayed in $((SECONDS - t0)) s"
	local same=0 failed=0
	for i in "${!calls[@]}"; do
		if cmp -s "$dir/real-$i.json" "$dir/replay-$i.json"; then
			same=$((same + 1))
		else
			failed=1
			echo "DIFF: ${calls[$i]}"
			diff "$dir/real-$i.json" "$dir/replay-$i.json" | head -20 || true
		fi
		grep -q '"verdict": "pass"' "$dir/report-$i.json" || { failed=1; echo "FAIL: mcpmock's verdict on the replay of ${calls[$i]}:"; cat "$dir/report-$i.json"; }
	done
	echo "record: server-everything over stdio: $same/${#calls[@]} Inspector CLI calls replayed byte-identically ($((SECONDS - start)) s in all)"
	echo "record: the recording's notes (what it saw but cannot replay):"
	sed -n '/^  "notes"/,/^  \]/p' "$dir/rec.json" | grep . || echo "  (none)"
	[ "$failed" = 0 ] || { echo "FAIL: the replay of server-everything differs from the real server"; exit 1; }

	# The same calls over Streamable HTTP: server-everything on a loopback
	# port, `mcpmock record --url` in front of it (one proxy, one recording
	# of every session); the replay is `mcpmock serve --http --config`.
	t0=$SECONDS
	local port pids=()
	port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
	PORT="$port" "$dir/node_modules/.bin/mcp-server-everything" streamableHttp >"$dir/everything.log" 2>&1 &
	pids+=($!)
	waitfor() { # waitfor FILE PATTERN: the line of FILE that matches, within 30 s
		local n
		for n in $(seq 300); do
			grep -m1 "$2" "$1" 2>/dev/null && return 0
			sleep 0.1
		done
		echo "FAIL: no line matching $2 in $1:" >&2
		cat "$1" >&2
		return 1
	}
	waitfor "$dir/everything.log" "listening on port" >/dev/null
	"$dir/mcpmock" record --out "$dir/rec-http.json" --url "http://127.0.0.1:$port/mcp" >"$dir/proxy.url" 2>"$dir/proxy.log" &
	local proxy=$!
	local url
	url="$(waitfor "$dir/proxy.url" '^http://')"
	for i in "${!calls[@]}"; do
		# shellcheck disable=SC2086
		inspect "$dir/real-http-$i.json" "$url" --transport http ${calls[$i]} ||
			{ echo "FAIL: the Inspector CLI against the HTTP recording proxy: ${calls[$i]}"; tail -20 "$dir/inspector.log"; kill "${pids[@]}" "$proxy"; exit 1; }
	done
	kill -TERM "$proxy"
	wait "$proxy" || { echo "FAIL: mcpmock record --url:"; cat "$dir/proxy.log"; kill "${pids[@]}"; exit 1; }
	kill "${pids[@]}"
	wait "${pids[@]}" 2>/dev/null || true
	echo "record: ${#calls[@]} calls recorded over HTTP in $((SECONDS - t0)) s"
	t0=$SECONDS
	same=0
	for i in "${!calls[@]}"; do
		# A file of its own per replay: the shell truncates a reused one in
		# the background job, which may come after waitfor has read the
		# last replay's (dead) URL from it.
		"$dir/mcpmock" serve --http --config "$dir/rec-http.json" --report "$dir/report-http-$i.json" >"$dir/serve-$i.url" 2>>"$dir/serve-http.log" &
		local serve=$!
		url="$(waitfor "$dir/serve-$i.url" '^http://')"
		# shellcheck disable=SC2086
		inspect "$dir/replay-http-$i.json" "$url" --transport http ${calls[$i]} || true
		kill -TERM "$serve" 2>/dev/null || true # ends serve if the CLI left its session open
		wait "$serve" || true
		if cmp -s "$dir/real-http-$i.json" "$dir/replay-http-$i.json"; then
			same=$((same + 1))
		else
			failed=1
			echo "DIFF (HTTP): ${calls[$i]}"
			diff "$dir/real-http-$i.json" "$dir/replay-http-$i.json" | head -20 || true
			echo "the Inspector CLI's log and mcpmock serve's end:"
			tail -5 "$dir/inspector.log"
			tail -5 "$dir/serve-http.log"
		fi
		grep -q '"verdict": "pass"' "$dir/report-http-$i.json" || { failed=1; echo "FAIL: mcpmock's verdict on the HTTP replay of ${calls[$i]}:"; head -c 3000 "$dir/report-http-$i.json"; }
	done
	echo "record: ${#calls[@]} calls replayed over HTTP in $((SECONDS - t0)) s"
	echo "record: server-everything over Streamable HTTP: $same/${#calls[@]} Inspector CLI calls replayed byte-identically ($((SECONDS - start)) s in all)"
	echo "record: the HTTP recording's notes:"
	sed -n '/^  "notes"/,/^  \]/p' "$dir/rec-http.json" | grep . || echo "  (none)"
	[ "$failed" = 0 ] || { echo "FAIL: the HTTP replay of server-everything differs from the real server"; exit 1; }
}
check_record_everything
