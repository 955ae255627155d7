"""The runtime stage: the value model, operations and standard library that compiled JS runs
on (see README). Importing any part of it loads it whole, here: the core's member dispatch
(``members``) first, then the built-ins that register into its tables (``stdlib.load()``),
so that neither of the two imports the other."""

from . import members as members
from .stdlib import load as _load_stdlib

_load_stdlib()
