"""Benchmarks that print figures: `python -m scorekeeper.bench store|engine|ui [--json]`; `chromium` measures the
app in a real browser.

May import everything (the top room, with `scorekeeper.static`); nothing in the app imports this package."""
