# Sourced by .ci/run from the repository root.
# check_admin_examples: the admin API's examples (examples/admin, issue 32),
# the way a Python or TypeScript team would use mcpmock: a pytest suite on
# the official Python SDK (mcp 2.3.0) and a vitest suite on the official
# TypeScript SDK (1.32.2), each starting one `mcpmock serve --http --admin`
# and scripting, faulting, verifying and resetting a test of its own per
# test over plain HTTP. Python: a temporary virtual environment from the
# hash-pinned lock examples/admin/python/requirements.txt (mcp 2.3.0,
# pytest 9.2.0; written with cmd/mcpmock/testdata/python/lock.py). Node:
# the pinned versions of examples/admin/vitest/package.json, installed into
# a temporary folder. Pip's cache: $PIP_CACHE_DIR, by default
# $HOME/.cache/mcpmock-pip.
check_admin_examples() {
	local dir start=$SECONDS
	dir="$(mktemp -d)"
	trap 'rm -rf "$dir"; trap - RETURN' RETURN
	export PIP_CACHE_DIR="${PIP_CACHE_DIR:-$HOME/.cache/mcpmock-pip}"
	go build -o "$dir/mcpmock" ./cmd/mcpmock

	python3 -m venv "$dir/venv"
	"$dir/venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes --no-deps -r examples/admin/python/requirements.txt
	"$dir/venv/bin/pip" check --disable-pip-version-check >/dev/null
	cp -r examples/admin/python "$dir/py"
	(cd "$dir/py" && MCPMOCK="$dir/mcpmock" "$dir/venv/bin/python" -m pytest -q -p no:cacheprovider) ||
		{ echo "FAIL: the pytest example of the admin API (examples/admin/python)"; exit 1; }
	echo "admin examples: pytest took $((SECONDS - start)) s"

	local t0=$SECONDS
	cp -r examples/admin/vitest "$dir/vt"
	(cd "$dir/vt" && npm install --no-audit --no-fund --loglevel=error &&
		MCPMOCK="$dir/mcpmock" npx vitest run) ||
		{ echo "FAIL: the vitest example of the admin API (examples/admin/vitest)"; exit 1; }
	echo "admin examples: vitest took $((SECONDS - t0)) s"
	echo "ok: the admin API's pytest and vitest examples ($((SECONDS - start)) s)"
}
check_admin_examples
