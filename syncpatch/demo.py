"""`make demo`: the main job on the bundled examples.

1. `compile-patches` validates and compiles every tenant config in `examples/` into one
   artifact, reporting diagnostics as a build would;
2. `syncpatch test` runs the declarative patch test cases in `examples/tests/`;
3. the sample Endpoints, Services and Secrets are patched to the host and back, and printed.
"""

from __future__ import annotations

import sys


def main() -> int:
    from syncpatch.cli.patches_cmd import run_demo as run_build_demo
    from syncpatch.patches.demo import run_demo

    print("== compile-patches and syncpatch test on examples/ ==", flush=True)
    build_status = run_build_demo()
    print("\n== patched sample objects (to host and back) ==", flush=True)
    demo_status = run_demo()
    return build_status or demo_status


if __name__ == "__main__":
    sys.exit(main())
