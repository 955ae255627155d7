"""`make demo`: run the main job on the bundled examples."""

from __future__ import annotations


def main() -> int:
    print("syncpatch demo: nothing to run yet")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
