# Sourced by .ci/run from the repository root.
# check_html_reports: the HTML pages as a person sees them (issue 33).
# Debian's chromium, pinned, is installed when it is not on PATH (apt-get,
# as root or through sudo); then the browser tests of cmd/mcpmock run with
# MCPMOCK_BROWSER=required, so a missing browser fails instead of skipping:
# TestHTMLInChromium renders a run page, a serve page and a tour page of
# real runs headless, checks from the rendered DOM that every arrow of the
# journal is drawn and no label overlaps a lifeline's, that the network log
# holds no external request, and prints each to an A4 PDF with no diagram
# clipped; TestBrowserCheckCatchesAFetch proves the network check can fail.
chromium_version=156.0.8078.114-1~deb12u1

check_html_reports() {
	local start=$SECONDS sudo=
	if ! command -v chromium >/dev/null; then
		[ "$(id -u)" = 0 ] || sudo=sudo
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
			"chromium=$chromium_version" >/dev/null
		echo "html reports: chromium $chromium_version installed in $((SECONDS - start)) s"
	fi
	echo "html reports: $(chromium --version 2>/dev/null)"
	MCPMOCK_BROWSER=required go test -count=1 -run 'TestHTMLInChromium|TestBrowserCheckCatchesAFetch' ./cmd/mcpmock ||
		{ echo "FAIL: the HTML pages in Chromium (cmd/mcpmock/html_browser_test.go)"; exit 1; }
	echo "ok: the HTML pages rendered in Chromium ($((SECONDS - start)) s)"
}
check_html_reports
