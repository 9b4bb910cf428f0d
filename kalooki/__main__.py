"""``python -m kalooki``: the command line, the same as the ``kalooki`` command."""

from __future__ import annotations

import importlib


def main() -> None:
    # Imported here, not at the top: the library must not depend on the CLI package at import time.
    # Through the console script's own entry, which guards the loading of the rest against Ctrl-C.
    launch = importlib.import_module("kalooki_cli.launch")
    launch.main()


if __name__ == "__main__":
    main()
