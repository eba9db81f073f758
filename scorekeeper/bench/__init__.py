"""Benchmarks that print figures: `python -m scorekeeper.bench store|engine|ui [--json]`."""
