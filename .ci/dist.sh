# Sourced by .ci/run from the repository root.
# check_dist: the mcpmock binaries for clients' CI without Go
# (docs/distribution.md#the-binaries): `go build` of cmd/mcpmock for
# linux, darwin and windows on amd64 and arm64, static (no cgo), with
# -trimpath, into a temporary folder, two builds at a time. Each binary's
# build information must name its target; the SHA-256 of each is printed.
# Any build that fails fails CI with its output. DIST_OUT=DIR keeps the
# binaries in DIR (a release: `DIST_OUT=out bash -c 'source .ci/dist.sh'`).
check_dist() {
	local dir start=$SECONDS
	dir="${DIST_OUT:-$(mktemp -d)}"
	mkdir -p "$dir"
	if [ -z "${DIST_OUT:-}" ]; then
		trap 'rm -rf "$dir"; trap - RETURN' RETURN
	fi
	local targets=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)
	# dist_build OS/ARCH: one binary, mcpmock-OS-ARCH[.exe], its output in a .log.
	dist_build() {
		local os="${1%/*}" arch="${1#*/}" ext=""
		[ "$os" = windows ] && ext=.exe
		local name="mcpmock-$os-$arch$ext"
		GOWORK=off CGO_ENABLED=0 GOOS="$os" GOARCH="$arch" \
			go build -trimpath -buildvcs=false -ldflags="-s -w" -o "$dir/$name" ./cmd/mcpmock >"$dir/$name.log" 2>&1
	}
	local failed=() i t pids
	for ((i = 0; i < ${#targets[@]}; i += 2)); do
		pids=()
		for t in "${targets[@]:i:2}"; do
			dist_build "$t" &
			pids+=("$!")
		done
		for t in 0 1; do
			wait "${pids[t]}" || failed+=("${targets[i + t]}")
		done
	done
	if [ "${#failed[@]}" -gt 0 ]; then
		for t in "${failed[@]}"; do
			echo "FAIL: go build of cmd/mcpmock for $t:"
			cat "$dir"/mcpmock-"${t%/*}"-"${t#*/}"*.log
		done
		exit 1
	fi
	for t in "${targets[@]}"; do
		local os="${t%/*}" arch="${t#*/}" ext="" info
		[ "$os" = windows ] && ext=.exe
		info="$(go version -m "$dir/mcpmock-$os-$arch$ext")"
		grep -q "GOOS=$os\$" <<<"$info" && grep -q "GOARCH=$arch\$" <<<"$info" && grep -q "CGO_ENABLED=0\$" <<<"$info" ||
			{ echo "FAIL: mcpmock-$os-$arch$ext is not a static $t build:"; echo "$info"; exit 1; }
	done
	rm -f "$dir"/*.log
	echo "dist: mcpmock for ${#targets[@]} targets in $((SECONDS - start)) s; SHA-256:"
	(cd "$dir" && if command -v sha256sum >/dev/null; then sha256sum mcpmock-*; else shasum -a 256 mcpmock-*; fi)
	ls -l "$dir" | awk 'NR > 1 { print "  " $5, $9 }'
}
check_dist
