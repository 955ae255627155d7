"""A realm that shadows shared built-ins counts in ``PATCHED_REALMS`` only while it can still
be the realm of an evaluation: its patches affect its own evaluation, never the fast paths
of the rest of the process, nor the next evaluation on the thread's spare realm."""

import gc

import syncpatch
from syncpatch.runtime import members
from syncpatch.runtime.properties import ensure_meta
from syncpatch.runtime.realm import PATCHED_REALMS, Realm, activate, current_realm
from syncpatch.runtime.stdlib.registry import GLOBALS
from syncpatch.runtime.values import UNDEFINED


def test_direct_calls_in_an_activated_realm_patch_it_only_while_they_run() -> None:
    before = PATCHED_REALMS[0]
    realm = Realm()
    with activate(realm):  # as direct runtime calls (and the tests that make them) run
        GLOBALS["Object"].props["freeze"].call(UNDEFINED, {"a": 1})  # property attributes: patched
        assert PATCHED_REALMS[0] == before + 1
    assert PATCHED_REALMS[0] == before and realm.overlay is None


def test_a_dropped_realm_that_was_patched_is_no_longer_counted() -> None:
    before = PATCHED_REALMS[0]
    realm = Realm()
    realm.patched()  # (a thread that ended with its spare patched, say)
    assert PATCHED_REALMS[0] == before + 1
    del realm
    gc.collect()
    assert PATCHED_REALMS[0] == before


def test_a_reset_realm_drops_its_attribute_records() -> None:
    before = PATCHED_REALMS[0]
    realm = Realm()
    with activate(realm):
        ensure_meta({})
    realm.reset(realm.budgets)
    assert PATCHED_REALMS[0] == before and not realm.extra


def test_patches_made_between_evaluations_do_not_reach_the_next_one() -> None:
    before = PATCHED_REALMS[0]
    expr = syncpatch.compile_expression("[].planted", budgets=syncpatch.Budgets())  # general tier
    spare = current_realm()  # between evaluations: the thread's spare realm
    assert spare.is_spare and not spare.busy
    members.set_member(members.get_prototype([]), "planted", "between evaluations")  # a direct call
    assert spare.overlay is not None and PATCHED_REALMS[0] == before + 1
    assert expr(None) is syncpatch.UNDEFINED  # runs on the spare, without that patch
    assert spare.overlay is None and PATCHED_REALMS[0] == before


def test_patches_made_between_plan_applications_do_not_reach_the_next_one() -> None:
    before = PATCHED_REALMS[0]
    plan = syncpatch.compile_patches([{"path": "metadata.labels.seen", "expression": "String([].planted)"}])
    spare = current_realm()
    members.set_member(members.get_prototype([]), "planted", "between applications")  # a direct call
    assert spare.overlay is not None and PATCHED_REALMS[0] == before + 1
    out = plan.to_host({"metadata": {"labels": {"seen": "x"}}}, {"vcluster": {"name": "vc", "namespace": "ns"}})
    assert out["metadata"]["labels"]["seen"] == "undefined"  # applied on the spare, without that patch
    assert spare.overlay is None and PATCHED_REALMS[0] == before
