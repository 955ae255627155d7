"""`python -m syncpatch` runs the command line."""

from syncpatch.cli import main

main()
