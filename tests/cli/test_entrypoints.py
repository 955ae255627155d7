import subprocess
import sys


def test_cli_help_lists_usage():
    out = subprocess.run([sys.executable, "-m", "syncpatch", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "Usage" in out.stdout


def test_stage_packages_install_under_namespace():
    import syncpatch.compiler
    import syncpatch.grammar
    import syncpatch.runtime

    for mod in (syncpatch.grammar, syncpatch.compiler, syncpatch.runtime):
        assert mod.__name__.startswith("syncpatch.")


def test_no_generic_top_level_runtime_package():
    import os

    # run from a neutral directory so the checkout itself is not on sys.path
    code = "import importlib.util,sys; sys.exit(0 if importlib.util.find_spec('runtime') is None and importlib.util.find_spec('compiler') is None else 1)"
    out = subprocess.run([sys.executable, "-c", code], cwd=os.path.expanduser("~") if os.path.isdir(os.path.expanduser("~")) else "/", capture_output=True)
    assert out.returncode == 0
