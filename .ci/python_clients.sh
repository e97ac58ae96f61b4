# Sourced by .ci/run from the repository root.
# check_python_clients: the Python clients (issue 31), judged by `mcpmock
# run` over the catalog. The official SDK (mcp 2.3.0) and FastMCP's client
# (fastmcp 4.1.6), each an app written the way its docs say
# (cmd/mcpmock/testdata/python), installed into a temporary virtual
# environment from the hash-pinned lock requirements.txt, play every
# scenario but the auth/ ones on stdio and on Streamable HTTP, in both
# eras (Client(mode="legacy"), the handshake; mode="auto", server/discover
# first), and the auth/ ones with their OAuth apps in mode "auto" (the
# SDKs' default, the era whose rules the iss scenarios hold). The runs, their known
# deviations (each with its reason) and the scenarios a run leaves out are
# those of cmd/mcpmock/testdata/python/verdicts.json; TestPythonClientVerdicts
# then holds every run's report to the verdicts committed there (a verdict
# that changes, a fail undeclared, fails CI). The runs go in two lanes
# side by side. Pip's cache: $PIP_CACHE_DIR, by default
# $HOME/.cache/mcpmock-pip.
check_python_clients() {
	local dir start=$SECONDS
	dir="$(mktemp -d)"
	trap 'rm -rf "$dir"; trap - RETURN' RETURN
	local py=cmd/mcpmock/testdata/python
	export PIP_CACHE_DIR="${PIP_CACHE_DIR:-$HOME/.cache/mcpmock-pip}"
	go build -o "$dir/mcpmock" ./cmd/mcpmock
	pyvenv "$dir/venv" "$py/requirements.txt"
	echo "python clients: the virtual environment took $((SECONDS - start)) s"

	local names
	names="$("$dir/mcpmock" list | sed -n 's/^\([a-z0-9/_-]*\): .*/\1/p')"
	mkdir "$dir/reports"
	# lane N: the runs of lane 1 (the official SDK's, and the OAuth ones)
	# or 2 (FastMCP's catalog runs), one after the other; a file
	# lane-N.fail names the runs whose mcpmock run exited non-zero.
	lane() {
		local run args
		for run in $(python3 -c 'import json,sys; print(" ".join(r["name"] for r in json.load(open(sys.argv[1]))["runs"] if (r["client"] == "mcp" or r["play"] == "auth") == (sys.argv[2] == "1")))' "$py/verdicts.json" "$1"); do
			mapfile -d '' args < <(python3 - "$py/verdicts.json" "$run" "$names" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
run = next(r for r in v["runs"] if r["name"] == sys.argv[2])
skip = {n["scenario"] for n in v["not_played"] if run["name"] in n["runs"]}
out = ["--http"] if run["transport"] == "http" else []
for name in sys.argv[3].split():
    if name.startswith("auth/") == (run["play"] == "auth") and name not in skip:
        out += ["--scenario", name]
for d in v["deviations"]:
    if run["name"] in d["runs"]:
        out += ["--known-deviation", d["scenario"] + "=" + d["why"]]
out += ["--", "PYTHON", run["program"], run["mode"]]
sys.stdout.write("\0".join(out) + "\0")
PY
			)
			args=("${args[@]/#PYTHON/$dir/venv/bin/python}")
			local t0=$SECONDS
			(cd "$py" && "$dir/mcpmock" run --json "$dir/reports/$run.json" --log "$dir/$run.log" "${args[@]}") >"$dir/$run.txt" 2>&1 ||
				echo "$run" >>"$dir/lane-$1.fail"
			echo "python clients: $run: $(tail -1 "$dir/$run.txt") ($((SECONDS - t0)) s)"
		done
	}
	local t0=$SECONDS
	lane 1 &
	local lane1=$!
	lane 2
	wait "$lane1"
	echo "python clients: the runs took $((SECONDS - t0)) s"
	# MCPMOCK_PYTHON_REPORTS_KEEP=DIR keeps the reports, for -update.
	if [ -n "${MCPMOCK_PYTHON_REPORTS_KEEP:-}" ]; then
		cp "$dir"/reports/*.json "$MCPMOCK_PYTHON_REPORTS_KEEP"/
	fi
	if ! MCPMOCK_PYTHON_REPORTS="$dir/reports" go test -count=1 -run '^TestPythonClientVerdicts$' ./integration/conformance; then
		local run
		for run in $(cat "$dir"/lane-*.fail 2>/dev/null); do
			echo "--- $run (mcpmock run's table, then its log):"
			cat "$dir/$run.txt"
			tail -40 "$dir/$run.log"
		done
		echo "FAIL: the Python clients' verdicts are not those of $py/verdicts.json (go test ./integration/conformance -run TestPythonClientVerdicts -update, with MCPMOCK_PYTHON_REPORTS, rewrites them; declare each new deviation with its reason)"
		exit 1
	fi
	echo "ok: the Python clients over the catalog ($((SECONDS - start)) s)"
}

# pyvenv DIR LOCK: a virtual environment at DIR with exactly the packages
# of the hash-pinned LOCK.
pyvenv() {
	python3 -m venv "$1"
	"$1/bin/pip" install --quiet --disable-pip-version-check --require-hashes --no-deps -r "$2"
	"$1/bin/pip" check --disable-pip-version-check >/dev/null
}

check_python_clients

# check_python_bug_versions: the bug catalog's proofs by releases of the
# official Python SDK (scenarios/bugs, Proof.Test names this function). The
# app integration/bugs/py/app.py, in a virtual environment of each release
# (its hash-pinned lock in integration/bugs/py, or the clients' for 2.3.0),
# must be caught on the buggy release (the bug's verdict is fail) and pass
# on the fixed one; where no release is fixed yet, the raw client of
# scenarios/bugs TestProofs is the fixed one.
check_python_bug_versions() {
	local dir start=$SECONDS
	dir="$(mktemp -d)"
	trap 'rm -rf "$dir"; trap - RETURN' RETURN
	export PIP_CACHE_DIR="${PIP_CACHE_DIR:-$HOME/.cache/mcpmock-pip}"
	go build -o "$dir/mcpmock" ./cmd/mcpmock
	local v pids=()
	for v in 1.9.1 1.9.2 1.30.0 2.0.0; do
		pyvenv "$dir/mcp-$v" "integration/bugs/py/requirements-mcp-$v.txt" &
		pids+=($!)
	done
	pyvenv "$dir/mcp-2.3.0" cmd/mcpmock/testdata/python/requirements.txt
	for v in "${pids[@]}"; do wait "$v"; done
	echo "python bugs: the virtual environments took $((SECONDS - start)) s"
	# expect STATUS VERSION BUG [mcpmock run flags]: one play of the bug.
	expect() {
		local want="$1" v="$2" bug="$3"
		shift 3
		"$dir/mcpmock" run --bug "$bug" --json "$dir/$bug-$v.json" --log "$dir/$bug-$v.log" "$@" -- "$dir/mcp-$v/bin/python" integration/bugs/py/app.py >/dev/null || true
		local got
		got="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["status"])' "$dir/$bug-$v.json" 2>/dev/null || echo "no report")"
		if [ "$got" != "$want" ]; then
			echo "FAIL: mcpmock run --bug $bug $* with mcp $v: $got, want $want (log follows)"
			cat "$dir/$bug-$v.log"
			exit 1
		fi
		echo "python bugs: $bug with mcp $v: $got"
	}
	expect fail 1.9.1 python-sdk-332
	expect pass 1.9.2 python-sdk-332
	expect fail 1.9.1 python-sdk-434
	expect pass 1.9.2 python-sdk-434
	expect fail 1.30.0 python-sdk-2507
	expect pass 2.0.0 python-sdk-2507
	expect fail 1.30.0 python-sdk-1577 --http
	expect pass 2.0.0 python-sdk-1577 --http
	expect fail 1.9.1 python-sdk-1672 --http
	expect pass 1.30.0 python-sdk-1672 --http
	expect fail 2.3.0 python-sdk-2456
	expect fail 2.3.0 python-sdk-3556 --http
	expect fail 2.3.0 python-sdk-1676 --http
	echo "ok: the PyPI releases of the bug catalog: buggy ones caught, fixed ones pass ($((SECONDS - start)) s)"
}
check_python_bug_versions
