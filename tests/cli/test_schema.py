"""`syncpatch schema`: a JSON Schema of the sync section generated from the pydantic models."""

import json

from click.testing import CliRunner

from syncpatch.cli import cli


def schema(*args):
    result = CliRunner().invoke(cli, ["schema", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def resolve(document, ref):
    node = document
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def test_whole_file_schema_covers_every_section():
    document = schema()
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["additionalProperties"] is False
    assert {"controlPlane", "networking", "policies", "experimental"} <= set(document["properties"])
    sync = resolve(document, document["properties"]["sync"]["$ref"])
    to_host = resolve(document, sync["properties"]["toHost"]["$ref"])
    assert {"endpoints", "services", "secrets", "configMaps", "customResources"} <= set(to_host["properties"])
    assert to_host["additionalProperties"] is False


def test_patch_entry_uses_camel_case_and_forbids_extras():
    document = schema("--sync-only")
    patch = document["$defs"]["PatchModel"]
    assert set(patch["properties"]) == {"path", "expression", "reverseExpression", "reference", "labels"}
    assert patch["required"] == ["path"]
    assert patch["additionalProperties"] is False


def test_output_file(tmp_path):
    out = tmp_path / "s.json"
    result = CliRunner().invoke(cli, ["schema", "-o", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    assert json.loads(out.read_text())["properties"]["sync"]


def test_help_mentions_language_server():
    result = CliRunner().invoke(cli, ["schema", "--help"])
    assert "yaml-language-server: $schema=" in result.output
