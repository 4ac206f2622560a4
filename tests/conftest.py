"""Suite-wide test ordering."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the real-browser tests last.

    Playwright's sync API keeps an asyncio event loop running in the main thread
    for as long as the session-scoped browser lives; tests that call
    ``asyncio.run`` or execute notebooks with nbclient cannot run after it starts.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
