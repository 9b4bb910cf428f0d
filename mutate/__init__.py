"""Mutation testing of the rule modules: ``python -m mutate`` (``make mutate``).

Each mutant is one small change to a rule module (a comparison flipped, a constant moved by one,
``and`` swapped for ``or``, a statement or ``raise`` deleted, ...). It runs against only the tests
that execute its lines (found once with coverage contexts, cached per test file), in a forked
process that has already imported the test tools, so a mutant costs its tests and little else.
A mutant no test fails survives: either a test is missing, or the mutant is equivalent (it cannot
change behaviour) and is listed with its reason in ``mutate/equivalent.toml``.
"""
