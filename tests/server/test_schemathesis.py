"""Schemathesis over the served OpenAPI document: generated requests to every Config
operation get no 5xx and no answer the document does not list.

The example count is bounded (`SCHEMATHESIS_EXAMPLES`, 25 by default) so that the run fits
in `make test`; raise it for a longer search.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import schemathesis
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import checks as st_checks

from syncpatch.server.store import sqlite_url

from .conftest import Api, build_api

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))
DOC = "/openapi/v3/apis/management.platform.sh/v1"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    api = build_api(sqlite_url(tmp_path_factory.mktemp("schemathesis")))
    with api.client:
        assert api.create("c1").status_code == 201
        yield api
    api.state.store.close()


def test_generated_requests_get_documented_non_5xx_answers(served: Api) -> None:
    headers = {"Authorization": f"Bearer {served.tokens['admin']}"}
    schema = schemathesis.openapi.from_asgi(DOC, served.client.app, headers=headers)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 6
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  phases=[Phase.explicit, Phase.generate],  # shrinking HTTP cases is slow
                  suppress_health_check=list(HealthCheck))
        def run(case: Any) -> None:
            if case.method == "GET":  # a generated watch must end
                case.query = {**(case.query or {}), "timeoutSeconds": "1"}
            response = case.call(headers=headers)
            assert response.status_code < 500, (case.method, case.formatted_path, response.text[:300])
            case.validate_response(response, checks=[st_checks.not_a_server_error,
                                                     st_checks.status_code_conformance])
        run()
