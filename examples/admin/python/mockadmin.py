"""A small client of mcpmock's admin API (docs/admin.md), for pytest.

Plain HTTP and JSON through urllib: no package to install but the MCP
client under test. `Mock.start()` runs `mcpmock serve --http --admin` and
reads the URL it prints; `mock.new_test(script)` opens a test of its own
(a server at /t/TAG/mcp, the script in the config file's language) and
returns a `Test` to add faults to, read the journal of, verify and reset.
"""

import json
import os
import subprocess
import urllib.error
import urllib.request


class AdminError(Exception):
    """A 4xx or 5xx of the admin API: its status, message and field."""

    def __init__(self, status: int, body: dict):
        self.status, self.body = status, body
        super().__init__(f"{status}: {body.get('error')} (field {body.get('field')!r})")


def call(method: str, url: str, body=None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as err:
        raise AdminError(err.code, json.load(err)) from None


class Test:
    """One test's server: its MCP URL and the admin operations on it."""

    def __init__(self, admin: str, info: dict):
        self.base = f"{admin}/tests/{info['tag']}"
        self.tag, self.url = info["tag"], info["url"]

    def add_fault(self, fault: dict) -> dict:
        """Adds a fault (a config file's faults entry); returns its handle."""
        return call("POST", f"{self.base}/faults", fault)

    def fault(self, fault_id: str) -> dict:
        """The fault's handle now: its hit count."""
        return call("GET", f"{self.base}/faults/{fault_id}")

    def journal(self, **query) -> list:
        """The journal's messages; query: session, method, direction, kind, since."""
        qs = "&".join(f"{k}={v}" for k, v in query.items())
        return call("GET", f"{self.base}/journal?{qs}")["messages"]

    def verify(self, **assertion) -> None:
        """Runs an assertion of mcptest's; fails the test with the Go failure text."""
        verdict = call("POST", f"{self.base}/verify", assertion)
        if not verdict["pass"]:
            raise AssertionError(verdict["failure"])

    def reset(self, keep_script: bool = True) -> dict:
        return call("POST", f"{self.base}/reset", {"keepScript": keep_script})

    def delete(self) -> None:
        call("DELETE", self.base)


class Mock:
    """A running `mcpmock serve --http --admin`."""

    def __init__(self, proc: subprocess.Popen, url: str):
        self.proc = proc
        self.admin = url.removesuffix("/mcp") + "/__mcpmock"

    @classmethod
    def start(cls, binary: str | None = None) -> "Mock":
        binary = binary or os.environ.get("MCPMOCK", "mcpmock")
        proc = subprocess.Popen([binary, "serve", "--http", "--admin"], stdout=subprocess.PIPE, text=True)
        url = proc.stdout.readline().strip()
        if not url.startswith("http://"):
            proc.kill()
            raise RuntimeError(f"mcpmock serve printed no URL (got {url!r})")
        return cls(proc, url)

    def new_test(self, script: dict | None = None) -> Test:
        body = {} if script is None else {"script": script}
        return Test(self.admin, call("POST", f"{self.admin}/tests", body))

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
