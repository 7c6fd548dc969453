"""The pure parts of tools/compile_peak.py: which project modules a device
module imports when it runs, and the order the measurement loads them in
(the runs themselves need Node and are run by hand)."""
import ast

from tools import build
from tools import compile_peak as cp


def test_top_imports_finds_module_level_imports_only():
    tree = ast.parse(
        "from engine.state import State\n"
        "from engine import catalog, registry\n"
        "import gc\n"
        "try:\n"
        "    from lib.font import Scroller\n"
        "except ImportError:\n"
        "    pass\n"
        "def later():\n"
        "    from engine import ice_towers_bot\n")
    assert cp.top_imports(tree, "engine") == [
        "engine.state", "engine.catalog", "engine.registry", "lib.font"]


def test_import_order_puts_dependencies_first_once():
    mods = {"lib.a": ["lib.b", "engine.c"], "lib.b": ["engine.c"], "engine.c": []}
    assert cp.import_order(mods, "lib.a") == ["engine.c", "lib.b", "lib.a"]


def test_the_ice_towers_bot_is_not_compiled_with_the_rules(tmp_path):
    build.build("pico_8x8", str(tmp_path), None, log=lambda *a: None)
    mods = cp.device_modules(str(tmp_path))
    assert "engine.ice_towers_bot" not in cp.import_order(mods, "engine.ice_towers")
    assert "engine.ice_towers" in cp.import_order(mods, "engine.ice_towers_bot")
