"""Ratio benchmarks: syncpatch against hand-written Python and embedded JS engines, in one run.

Run with ``python -m benchmarks`` (or ``make bench``). Absolute times on shared machines drift,
so every figure that matters is a ratio measured against a baseline in the same run.
"""
