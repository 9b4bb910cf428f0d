"""Where games are played: in this process, in local worker processes, or on a Dask cluster.

Every path is a :class:`concurrent.futures.Executor`, so one loop (:func:`run_tasks`) feeds
them all: :class:`InlineExecutor` for one worker, :class:`~concurrent.futures.ProcessPoolExecutor`
for ``--workers N``, and Dask's ``Client.get_executor()`` for ``--scheduler tcp://HOST:PORT``.
Tasks are pure functions of their arguments, so which executor ran a task, and in what order
tasks finished, never changes a result; a task lost with a Dask worker is run again elsewhere
by Dask itself.

Dask (``pip install 'kalooki[cluster]'``) is imported only when a scheduler address is given.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from functools import partial
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Final, TypeVar

from kalooki.errors import KalookiError
from kalooki.text import clipped_repr

CONNECT_TIMEOUT: Final = 3.0
"""Seconds to wait for a Dask scheduler before giving up on it."""

CLUSTER_HINT: Final = "pip install 'kalooki[cluster]'"

T = TypeVar("T")
K = TypeVar("K")


class ExecutorError(KalookiError):
    """Games cannot be sent where they were asked to go (no such scheduler, Dask not installed...)."""


WORKER_STOPPED: Final = "a worker process stopped (killed, or out of memory)"


class WorkerLost(ExecutorError):
    """A local worker process ended while games were played: the pool cannot go on, and the games it
    held are lost (callers that keep what was finished say what they kept)."""


class InlineExecutor(Executor):
    """Runs each task in this process when it is submitted: the one-worker path, and the simplest."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to whoever asks for the result, as any executor does
            future.set_exception(error)
        return future


@dataclass(frozen=True)
class Pool:
    """An executor and what it has: how many tasks it runs at once, and a name for reports."""

    executor: Executor
    workers: int
    where: str
    """``local`` or the Dask scheduler's address."""

    @property
    def in_flight(self) -> int:
        """Tasks to keep submitted: enough to keep every worker busy, few enough to resume finely."""
        return 1 if isinstance(self.executor, InlineExecutor) else self.workers * 3


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def given_or_opened(pool: Pool | None, workers: int | None, most: int) -> AbstractContextManager[Pool]:
    """``pool`` as it is, or a pool of ``workers`` opened for ``most`` games (:func:`open_pool`): a
    simulation's executor. What is no Pool is refused (an int or a string failed once games were sent)."""
    if pool is None:
        return open_pool(workers, most=most)
    if not isinstance(pool, Pool):
        shown = clipped_repr(pool)
        raise ExecutorError(f"pool must be a Pool (kalooki.executors.open_pool opens one), not {shown}")
    return nullcontext(pool)


@contextmanager
def open_pool(
    workers: int | None = None, scheduler: str | None = None, *, most: int | None = None
) -> Iterator[Pool]:
    """The executor for ``--workers`` (local processes; 1: this process) or ``--scheduler`` (Dask).

    ``most``: the games to be played, so that no more processes start than have a game to play
    (``--workers 1000`` for two games would fork a thousand).

    Raises :class:`ExecutorError` in one line when the scheduler cannot be reached within
    :data:`CONNECT_TIMEOUT` seconds or Dask is not installed.
    """
    if scheduler is not None:
        with _dask_pool(scheduler) as pool:
            yield pool
        return
    count = default_workers() if workers is None else workers
    if not isinstance(count, int) or isinstance(count, bool):  # workers="2" was a bare TypeError
        raise ExecutorError(f"workers must be a whole number, at least 1, not {clipped_repr(count)}")
    if count < 1:  # (the command line refuses --workers 0 itself, naming its option)
        raise ExecutorError(f"workers must be at least 1, not {count}")
    if most is not None:
        count = max(1, min(count, most))
    if count == 1:
        yield Pool(InlineExecutor(), 1, "local")
        return
    context = multiprocessing.get_context()
    # A worker's parent is this process, but for a fork server's (it forks them): 0, not to be checked.
    parent = os.getpid() if context.get_start_method() != "forkserver" else 0
    workers_made: list[BaseProcess] = []
    executor = ProcessPoolExecutor(
        max_workers=count,
        mp_context=_noting_workers(context, workers_made),
        initializer=_worker_started,
        initargs=(parent,),
    )
    try:
        yield Pool(executor, count, "local")
    except BaseException:
        # Ctrl-C or an error: the games still being played are not wanted. Stop their processes rather
        # than wait for them; a Ctrl-C that lands inside the executor's own bookkeeping could also leave
        # them waiting for work that never comes, and this process waiting for them for ever.
        _stop_processes(workers_made)
        raise
    finally:
        _shut_down(executor)


def _worker_started(parent: int) -> None:
    """A worker process ends on SIGTERM, whatever its parent made of it: forked, a worker inherits the
    parent's handlers, and one that raises (the command line stops its games on SIGTERM) would be caught
    by the worker's loop as a task's error, and the worker that was to be stopped would play on.

    Ctrl-C and SIGHUP are the parent's to act on (it stops the workers itself, with SIGTERM): a terminal
    sends them to the whole process group, and a worker idle between tasks printed its KeyboardInterrupt's
    traceback. A parent that dies without stopping them (``kill -9``) has them sent SIGTERM too, on Linux:
    they were left waiting, reparented, for work that would never come."""
    _set_worker_signals()
    _end_with_parent(parent)


def _set_worker_signals() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)


HELD_WHILE_FORKING: Final = frozenset(
    {signal.SIGINT, signal.SIGTERM} | ({signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())
)
"""The signals a worker is forked with held, in its parent and in itself (the fork start method)."""

_forking = threading.local()
"""``held``, while this thread forks one of the pool's workers: the signal mask to go back to (else None)."""


def _fork_worker(start: Callable[[], None]) -> None:
    """Fork a worker (``start``, its process's own) with the stopping signals held until each side of
    the fork is ready for them.

    In the worker: until its initializer ran, it had its parent's handlers, and a SIGTERM sent to stop
    it, or a Ctrl-C sent to the terminal's whole group, ran the parent's handler there; that handler
    took the signal (the worker lived on, waiting for work that never comes, and its parent waited for
    it at exit for ever) or raised inside multiprocessing's start of it (a traceback under the
    command's line). The worker now takes its own handlers before it lets them in.

    In the parent: landed during the fork, a signal's handler ran inside Python's fork hooks, which
    print what is raised as "Exception ignored" and go on: the stop was lost. Held, it is handled just
    after the fork, in the pool's own code. (Another thread of this process can still take a signal
    meanwhile: the command line notes a stop and raises it again, for that.)"""
    # The mask as it is, read without a change: a signal's handler, run just after a call that blocked
    # them and before the try, would have left them blocked for good.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        _forking.held = held
        signal.pthread_sigmask(signal.SIG_BLOCK, HELD_WHILE_FORKING)
        start()
    finally:
        _forking.held = None
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _forked_child() -> None:
    """Right after a fork, in the child: a worker of the pool takes its own signal handlers, then lets in
    the signals held for its fork."""
    held = getattr(_forking, "held", None)
    if held is not None:
        _forking.held = None
        _set_worker_signals()
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


if hasattr(os, "register_at_fork"):  # not on Windows, which has no fork
    os.register_at_fork(after_in_child=_forked_child)


PR_SET_PDEATHSIG: Final = 1
"""prctl(2)'s option: the signal this process is sent when the thread that started it ends."""


def _end_with_parent(parent: int) -> None:
    """Have the kernel send this worker SIGTERM when its parent ends (Linux; elsewhere nothing is done).

    The signal follows the thread that started the worker: the one that hands the pool its tasks,
    inside :func:`open_pool`'s block, which closes the pool (and its workers) before it is left. A parent
    that ended before the signal was asked for has already left this process to another: it ends now
    (``parent`` 0: the parent is a fork server, which ends when this process's parent does).
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # no C library to ask (a static build): the workers live on as before
        return
    if parent and os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def _noting_workers(context: BaseContext, made: list[BaseProcess]) -> BaseContext:
    """``context``, noting in ``made`` each process it makes, before the process is started.

    The pool's own list of its workers is written just after each is forked: a signal that lands
    between the two left a worker no one would stop, waiting for work that never comes, and this
    process, at its exit, waiting for that worker (multiprocessing joins its children) for ever. And the
    standard library's public way to stop a pool's processes (terminate_workers) arrives only with
    Python 3.14."""
    # typeshed's BaseContext leaves out the Process class every context has (ignored twice below).
    process_class: type[BaseProcess] = context.Process  # type: ignore[attr-defined]

    forks_here = context.get_start_method() == "fork"

    def process(*args: Any, **kwargs: Any) -> BaseProcess:
        # An instance of the context's own class: one of a class made here could not be pickled, as
        # the spawn and forkserver methods pickle the process they start.
        made.append(process_class(*args, **kwargs))
        if forks_here:  # forked, a worker is not pickled: its start can be its own
            made[-1].start = partial(_fork_worker, made[-1].start)  # type: ignore[method-assign]
        return made[-1]

    noting = type(context)()  # a context of the same start method, of its own: the shared one is untouched
    noting.Process = process  # type: ignore[attr-defined]
    return noting


def _stop_processes(processes: list[BaseProcess]) -> None:
    """Terminate the pool's worker processes (the executor then finds its pool broken and fails what was
    pending: shutting it down afterwards does not wait on them)."""
    for process in processes:
        if process.is_alive():
            process.terminate()


MANAGER_START_LIMIT: Final = 2.0
"""Seconds to wait for the pool's manager thread to start when a signal cut its start short."""


def _shut_down(executor: ProcessPoolExecutor) -> None:
    """Shut the pool down, waiting for its manager thread to end.

    A signal can land while the pool's first task is submitted, just as the pool starts its manager
    thread: after the thread is asked for and before it is known to run. Joined then, Python's pool
    raises "cannot join thread before it is started", and that traceback took the place of the
    command's own line and exit status. The thread runs a moment later, and is waited for then. One
    never started (the signal came before it was asked for) cannot be told apart from it: it is waited
    for :data:`MANAGER_START_LIMIT` seconds, and the pool is then let go without it.
    """
    deadline = time.monotonic() + MANAGER_START_LIMIT
    while True:
        try:
            executor.shutdown(wait=True, cancel_futures=True)
            return
        except RuntimeError:  # the only one shutdown raises: the manager thread has not started yet
            if time.monotonic() >= deadline:
                executor.shutdown(wait=False, cancel_futures=True)
                return
            time.sleep(0.01)


DASK_SCHEMES: Final = ("tcp", "tls", "ws", "wss", "ucx")
"""The schemes of the addresses Dask's client reaches (``inproc://`` is within one process only)."""

ADDRESS_SHAPE: Final = "expected a scheduler address like tcp://HOST:PORT"


def scheduler_endpoint(address: str) -> tuple[str, int] | None:
    """The host and port of a scheduler address (None for ``ucx://``, which is not reached over TCP).

    No scheme is ``tcp://``, as Dask reads it. Raises :class:`ExecutorError` in one line for an
    address that cannot be one: no such shape, a port out of range, an IPv6 host out of its
    brackets or a bracket left open, a scheme Dask does not speak (``http://``).
    """
    scheme, separator, rest = address.partition("://")
    if not separator:
        scheme, rest = "", address
    if scheme == "inproc":  # Dask's, but a scheduler inside this very process: none is
        raise ExecutorError(f"{address}: an in-process address names no scheduler here: give tcp://HOST:PORT")
    if scheme and scheme not in DASK_SCHEMES:
        others = ", ".join(f"{other}://" for other in DASK_SCHEMES[1:])
        raise ExecutorError(f"{address}: Dask does not speak {scheme}://: give tcp://HOST:PORT (or {others})")
    host, _, port = rest.rpartition(":")
    if "[" in rest and not (host.startswith("[") and host.endswith("]") and host.count("[") == 1):
        raise ExecutorError(f"{address}: the host's brackets do not close: an IPv6 address is [::1]:PORT")
    if not host or not (port.isascii() and port.isdigit()):
        raise ExecutorError(f"{address}: {ADDRESS_SHAPE}")
    if ":" in host and not host.startswith("["):
        raise ExecutorError(f"{address}: an IPv6 address goes in brackets: [{host}]:{port}")
    if not 1 <= int(port) <= 65535:
        raise ExecutorError(f"{address}: port {port} is out of range: a port is 1 to 65535")
    return (host.strip("[]"), int(port)) if scheme != "ucx" else None


def _check_reachable(address: str) -> None:
    """Fail fast, before Dask is even imported, when nothing listens at the address's host and port (tcp,
    tls, ws and wss are all reached over TCP: nothing listening is said so whatever the scheme)."""
    endpoint = scheduler_endpoint(address)
    if endpoint is None:
        return
    try:
        socket.create_connection(endpoint, timeout=CONNECT_TIMEOUT).close()
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise ExecutorError(f"{address}: no Dask scheduler answered ({reason})") from None


def _check_scheduler(address: str) -> None:
    """Ask what listens at ``address`` who it is, within :data:`CONNECT_TIMEOUT` seconds.

    Dask's client waits without limit for a peer that accepts the connection and then says
    nothing, and one that answers in another protocol leaves a half-made client behind that
    prints a traceback seconds after the error: so only a peer that says it is a Dask
    scheduler is handed to the client.
    """
    try:
        # In a thread of its own: the caller may be running an event loop already (a notebook).
        with ThreadPoolExecutor(1) as thread:
            reply = thread.submit(asyncio.run, asyncio.wait_for(_identity(address), CONNECT_TIMEOUT)).result()
    except TimeoutError:
        raise ExecutorError(
            f"{address}: no Dask scheduler answered within {CONNECT_TIMEOUT:g} s "
            "(something accepts connections there, but does not speak Dask's protocol)"
        ) from None
    except OSError:  # Dask's "comm closed" errors are OSErrors too
        raise ExecutorError(
            f"{address}: no Dask scheduler answered (the connection was closed without an answer)"
        ) from None
    except Exception:  # frames that make no sense: whatever answers there, it is not Dask
        raise ExecutorError(f"{address}: not a Dask scheduler (it does not speak Dask's protocol)") from None
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind}" if isinstance(kind, str) else "something that speaks Dask's protocol"
        raise ExecutorError(f"{address}: {what}, not a Dask scheduler: give the scheduler's address")


async def _identity(address: str) -> Any:
    """What a Dask server at ``address`` says it is (its ``identity``: a scheduler says ``Scheduler``)."""
    from distributed.comm.core import connect

    comm = await connect(address, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    try:
        await comm.write({"op": "identity"})
        return await comm.read()
    finally:
        comm.abort()


@contextmanager
def _dask_pool(address: str) -> Iterator[Pool]:
    _check_reachable(address)
    try:
        from distributed import Client
    except ImportError:
        raise ExecutorError(f"--scheduler needs Dask: {CLUSTER_HINT}") from None
    with _quiet_dask_logs():
        _check_scheduler(address)
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except Exception as error:  # whatever answered there is not a Dask scheduler we can use
        message = f"{address}: no Dask scheduler answered within {CONNECT_TIMEOUT:g} s ({_first_line(error)})"
        del error
        _collect_quietly()
        raise ExecutorError(message) from None
    try:
        threads = sum(worker["nthreads"] for worker in client.scheduler_info()["workers"].values())
        # pure=False: every task is run, not looked up by a hash of its arguments.
        yield Pool(client.get_executor(pure=False), max(1, threads), address)  # type: ignore[no-untyped-call]
    finally:
        client.close()  # type: ignore[no-untyped-call]


@contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """Keep Dask's own log lines (a connection it dropped, a stream it closed) off the terminal while
    the address is probed: what went wrong is said in the one line of the error."""
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        _collect_quietly()  # streams dropped by the probe are closed (and would log) now, not later
        logger.setLevel(level)


def _collect_quietly() -> None:
    """Let a half-made Dask client go without its 'Exception ignored' noise: the error is one line."""
    hook = sys.unraisablehook
    sys.unraisablehook = lambda _: None
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def run_tasks(
    pool: Pool,
    tasks: Iterable[tuple[K, Callable[..., T], tuple[Any, ...]]],
    on_result: Callable[[K, T], None],
) -> None:
    """Run ``(key, function, args)`` tasks on the pool, calling ``on_result(key, result)`` as each ends.

    Only :attr:`Pool.in_flight` tasks are submitted at a time, so results come back (and can be
    saved) while later tasks wait, and an interrupted run has little in flight to lose. Results
    arrive in whatever order tasks finish: callers put them in order themselves.
    """
    pending: dict[Future[T], K] = {}
    queue = iter(tasks)
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < pool.in_flight:
                try:
                    key, function, args = next(queue)
                except StopIteration:
                    exhausted = True
                    break
                pending[pool.executor.submit(function, *args)] = key
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                on_result(pending.pop(future), future.result())
    except BrokenProcessPool:
        # The OOM killer, or a kill -9: the pool fails every game it held, and would fail every new one.
        raise WorkerLost(f"{WORKER_STOPPED}: the games it was playing are lost; run again") from None
    finally:
        # A local pool drops what has not started itself, from its own thread, when open_pool closes it
        # (shutdown with cancel_futures), after stopping its processes if this was cut short. Cancelled
        # from here as well, a future the pool then finds broken is failed a second time, and Python
        # 3.11's pool prints that InvalidStateError from its thread, after the "interrupted" line.
        if not isinstance(pool.executor, ProcessPoolExecutor):
            for future in pending:
                future.cancel()
