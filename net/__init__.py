"""kalooki's network table: ``kalooki host`` and ``kalooki join`` over WebSocket.

Installed as ``kalooki_net`` with the ``net`` extra (``pip install 'kalooki[net]'``), which
adds ``websockets``. The protocol is :mod:`kalooki_net.protocol` (documented in
``docs/protocol.md``); the host's table is :mod:`kalooki_net.table`, served by
:mod:`kalooki_net.server`; a client connection is :mod:`kalooki_net.client`.
"""
