"""Writes a hash-pinned requirements file from a pip installation report.

The lock files beside it (requirements.txt) and in integration/bugs/py are
made with it, from the top-level pins (here mcp==2.3.0 and fastmcp==4.1.6):

    python3 -m venv /tmp/lock && /tmp/lock/bin/pip install --report /tmp/r.json mcp==2.3.0 fastmcp==4.1.6
    python3 lock.py /tmp/r.json > requirements.txt

and installed with `pip install --require-hashes --no-deps -r FILE`: every
package of the environment pinned to its version and its file's sha256 (the
files pip chose for this machine, Linux x86_64 and CPython 3.11).
"""

import json
import sys

report = json.load(open(sys.argv[1]))
rows = []
for item in report["install"]:
    meta, info = item["metadata"], item["download_info"]
    digest = info["archive_info"]["hashes"]["sha256"]
    rows.append((meta["name"].lower(), f"{meta['name']}=={meta['version']} \\\n    --hash=sha256:{digest}"))
print("\n".join(row for _, row in sorted(rows)))
