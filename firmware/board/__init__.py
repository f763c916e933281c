# The board application: journal, input, display and USB link around the pure core in cribbage/.
import sys


def _drop(*names):
    """Forget modules once done with (docs/memory.md, "Loaded when first used"): their code and tables
    go back to the heap at the next gc."""
    for name in names:
        sys.modules.pop(name, None)
        package, attr = name.rsplit(".", 1)
        parent = sys.modules.get(package)
        if parent is not None and hasattr(parent, attr):
            delattr(parent, attr)  # the package keeps its submodules as attributes
