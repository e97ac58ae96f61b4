"""Fixtures: one mcpmock process for the session, a test of its own per test."""

import pytest

from mockadmin import Mock


@pytest.fixture(scope="session")
def mock():
    m = Mock.start()  # the binary: $MCPMOCK, else mcpmock on the PATH
    yield m
    m.stop()


@pytest.fixture
def weather(mock):
    """A test's own server, scripted with one tool; deleted after the test."""
    t = mock.new_test(
        {
            "server": {"name": "weather", "version": "1.0.0"},
            "tools": [
                {
                    "name": "get_forecast",
                    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
                    "cases": [{"arguments": {"city": "Paris"}, "replies": [{"text": "rain"}]}],
                    "replies": [{"text": "sunny"}],
                }
            ],
        }
    )
    yield t
    t.delete()
