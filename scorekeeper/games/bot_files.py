"""A bot class loaded from a file: the strength tools measure a change against the version it replaces, taken
from git into a file (``git show REV:scorekeeper/games/rage/hard.py > old.py``, then ``old.py:HardBot``)."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any


def bot_class(spec: str, prefix: str) -> Any:
    """The class ``Class`` of ``path/to/file.py:Class``, its file loaded as a module named `prefix` + class."""
    path, cls = spec.rsplit(":", 1)
    module_spec = importlib.util.spec_from_file_location(f"{prefix}{cls}", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module  # dataclasses look their module up
    module_spec.loader.exec_module(module)
    return getattr(module, cls)
