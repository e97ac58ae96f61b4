"""The official Python SDK client (mcp 2.3.0) against mcpmock, scripted,
faulted and verified per test through the admin API (docs/admin.md)."""

import anyio
import pytest
from mcp import Client

from mockadmin import AdminError


async def forecast(url: str, city: str):
    async with Client(url) as client:
        return await client.call_tool("get_forecast", {"city": city})


def leaves(err: BaseException) -> list[BaseException]:
    """The errors inside anyio's exception groups."""
    if isinstance(err, BaseExceptionGroup):
        return [leaf for e in err.exceptions for leaf in leaves(e)]
    return [err]


def test_forecast(weather):
    res = anyio.run(forecast, weather.url, "Paris")
    assert res.content[0].text == "rain"
    weather.verify(**{"assert": "toolCalled", "tool": "get_forecast", "arguments": {"city": "Paris"}})
    weather.verify(**{"assert": "calledTimes", "method": "tools/call", "times": 1})
    weather.verify(**{"assert": "noViolations"})


def test_backend_down(weather):
    fault = weather.add_fault(
        {"fault": "ReplaceWithJSONRPCError", "method": "tools/call", "code": -32000, "message": "backend down"}
    )
    with pytest.raises(Exception) as err:
        anyio.run(forecast, weather.url, "Lyon")
    assert any("backend down" in str(e) for e in leaves(err.value)), err.value
    assert weather.fault(fault["id"])["hits"] == 1
    calls = weather.journal(direction="client", method="tools/call")
    assert [c["raw"] for c in calls] and '"city":"Lyon"' in calls[0]["raw"]


def test_verify_failure_reads_as_go(weather):
    anyio.run(forecast, weather.url, "Lyon")
    with pytest.raises(AssertionError) as err:
        weather.verify(**{"assert": "toolCalled", "tool": "get_forecast", "arguments": {"city": "Oslo"}})
    text = str(err.value)
    assert 'AssertToolCalled("get_forecast"' in text
    assert '"city":"Lyon"' in text  # the transcript


def test_reset_forgets_the_fault(weather):
    weather.add_fault({"fault": "ReplaceWithJSONRPCError", "method": "tools/call", "code": -32000, "message": "down"})
    weather.reset()
    assert anyio.run(forecast, weather.url, "Paris").content[0].text == "rain"
    assert len(weather.journal(method="tools/call", direction="client")) == 1


def test_bad_input_names_the_field(weather):
    with pytest.raises(AdminError) as err:
        weather.add_fault({"fault": "Delay", "methd": "tools/call", "duration": "1s"})
    assert err.value.status == 400
    assert err.value.body["field"] == "methd"
    assert 'did you mean "method"?' in err.value.body["error"]
