"""The ``kalooki`` command line: the only part of the project that talks to a terminal."""
