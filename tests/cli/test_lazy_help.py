"""`syncpatch --help` lists commands without importing them; the listing stays true."""

from __future__ import annotations

import subprocess
import sys

import click

from syncpatch.cli import SHORT_HELP, cli


def test_listed_help_is_each_commands_own() -> None:
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None, name
        assert SHORT_HELP[name] == command.get_short_help_str(10_000), name


def test_help_imports_no_model_or_command_module() -> None:
    code = ("import sys\nfrom syncpatch.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = sorted(m for m in sys.modules if m.startswith(('pydantic', 'syncpatch.cli.', "
            "'syncpatch.platformconfig', 'rich', 'yaml')))\nprint('HEAVY:' + ','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "HEAVY:", out.strip().splitlines()[-1]


def test_compile_patches_help_imports_no_model() -> None:
    code = ("import sys\nfrom syncpatch.cli import compile_patches_main\ntry:\n    compile_patches_main(['--help'])\n"
            "except SystemExit:\n    pass\n"
            "heavy = sorted(m for m in sys.modules if m.startswith(('pydantic', 'syncpatch.platformconfig', "
            "'syncpatch.patches', 'rich', 'yaml', 'lark')))\nprint('HEAVY:' + ','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "HEAVY:", out.strip().splitlines()[-1]
