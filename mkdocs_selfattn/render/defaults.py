"""Chart defaults, apart from the chart code so that reading the plugin's configuration does not
import the renderer."""

from __future__ import annotations

DEFAULT_COLORS = ("#2563eb", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#06b6d4")
