"""叫墩, a small trick game that lives only in the tests: the fifth game of the conformance suite.

It is registered by `tests/conformance/conftest.py` exactly as a real game's folder would be
(`scoring.games.register_game`), and must pass every conformance test with nothing changed
outside its own folder."""

from .game import JIAODUN

__all__ = ["JIAODUN"]
