"""Tasks run in worker processes, their results taken in the order the tasks were given, a
bounded number in flight (memory stays bounded however long the input is). The command
line's `--workers N` runs a streamed corpus's chunks here (rouge_core.cli).

Worker processes start by "fork" on Linux (they have the kernels this process loaded) and by
"spawn" elsewhere (the initializer imports what the tasks need). A worker that dies (killed,
out of memory) is reported as WorkerLost, never waited for, even one that dies in the middle
of writing its result (which the executor alone would wait for forever: the workers are
looked at each second while a result, or the end of a stop, is awaited).

Stopping never ends a worker in the middle of writing its result. The executor's manager
thread would then wait forever for the rest of the message: this process holds the result
pipe's write end too, so the read never sees its end, and the interpreter's exit joins that
thread (a run that printed its error and then never exited). So an error or an early stop
drops the tasks not started and lets the running ones finish (a chunk's work: bounded), and
only an interrupt (Ctrl-C, which the workers ignore: it reaches this process) kills the
workers, then closes this process's ends of the executor's pipes so that a result or a task
cut in the middle ends the reads and writes waiting on it.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import signal
import sys
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterable, Iterator, NamedTuple


LOST_WORKER_CHECK = 1.0  # seconds between looks at the workers while a result is awaited


class _Internals(NamedTuple):
    """The parts of a ProcessPoolExecutor (CPython 3.10-3.14) that ending it safely needs."""

    manager: object  # its manager thread
    processes: list
    results: object  # its result queue
    calls: object  # its call queue


class WorkerLost(RuntimeError):
    """A worker process ended while it ran a task."""


def start_method() -> str:
    return "fork" if sys.platform.startswith("linux") else "spawn"


def _start_worker(initializer, initargs) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the main process, which stops the workers
    if initializer is not None:
        initializer(*initargs)


class OrderedPool:
    """`workers` processes; `imap(fn, tasks)` gives fn(*task) of every task in order, with at
    most `in_flight` tasks (default 2 per worker) submitted ahead; `method`: how they start
    (default start_method()). Use it as a context manager."""

    def __init__(self, workers: int, initializer: Callable | None = None, initargs: tuple = (),
                 in_flight: int | None = None, method: str | None = None):
        self.limit = max(1, in_flight or 2 * workers)
        # a forked worker flushes the standard streams it inherited when it ends: start them empty
        sys.stdout.flush()
        sys.stderr.flush()
        self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method or start_method()),
                                         initializer=_start_worker, initargs=(initializer, initargs))
        self._pending: deque = deque()
        self._internals: _Internals | None = None

    def __enter__(self) -> "OrderedPool":
        return self

    def __exit__(self, kind, value, traceback) -> bool:
        try:
            if kind is None or issubclass(kind, Exception):
                self.close()
            else:  # KeyboardInterrupt, SystemExit
                self.kill()
        except BaseException:
            # Ctrl-C anywhere in a stop (asking the executor to end, waiting for a running
            # task, or ending it): a worker may be stuck mid-write, which the interpreter's
            # exit would wait for forever; kill() ends it, whatever part of the stop had run.
            self.kill()
            raise
        return False

    def close(self) -> None:
        """End the pool (the end of a run, an error, an early stop): the tasks not started are
        dropped, the running ones finish and their results are dropped. A worker that dies
        meanwhile in the middle of a write, or Ctrl-C while it waits (a worker stuck), ends it
        as kill() does."""
        internals = self._shut_down()
        try:
            manager = internals.manager
            while manager is not None and manager.is_alive():
                manager.join(LOST_WORKER_CHECK)
                if manager.is_alive() and any(process.exitcode is not None for process in internals.processes):
                    manager.join(LOST_WORKER_CHECK)  # the executor's own notice of a dead worker comes at once
                    if manager.is_alive():
                        break  # it died writing its result: the manager thread waits for the rest
        except BaseException:
            self._end(internals)
            raise
        self._end(internals)

    def kill(self) -> None:
        """End the workers now (an interrupt), whatever they are doing, and the executor's
        manager thread with them."""
        self._end(self._shut_down())

    def _shut_down(self) -> "_Internals":
        """Ask the executor to end (the tasks not started are cancelled by its manager thread),
        not waiting; what ending it needs."""
        self._drop_waiting()
        pool = self._pool
        if self._internals is None:  # taken once, before shutdown() forgets them: a second stop needs them too
            self._internals = _Internals(pool._executor_manager_thread, list((pool._processes or {}).values()),
                                         pool._result_queue, pool._call_queue)
        pool.shutdown(wait=False, cancel_futures=True)  # forgets the internals, closes nothing
        return self._internals

    @staticmethod
    def _end(internals: "_Internals") -> None:
        """Kill the workers still there, end the manager thread, close the result pipe (again
        after an interrupted end: every step is one that can be repeated)."""
        manager, processes, results, calls = internals
        for process in processes:
            if process.exitcode is None:
                process.kill()
        for process in processes:
            multiprocessing.connection.wait([process.sentinel])  # dead: the manager thread reaps it
        # Now this process holds the pipes' last ends. Closing the result pipe's write end ends
        # a read of a result cut in the middle (EOF: the manager thread finds the pool broken
        # and ends). A task half written to a dead worker keeps the call queue's feeder thread
        # (which the manager thread joins) writing: CPython 3.11+ closes the call pipe's read end
        # itself then (EPIPE ends the write), 3.10 does not: closed here if the thread is still
        # there (not at once: the two closing one connection together could close another file).
        if results is not None:
            results._writer.close()
        if manager is not None:
            manager.join(timeout=1.0)
            if manager.is_alive() and calls is not None:
                calls._reader.close()
            manager.join()
        if results is not None:
            results.close()

    def _drop_waiting(self) -> None:
        # Not future.cancel() here: shutdown(cancel_futures=True) cancels them in the manager
        # thread, which then forgets them; a future cancelled behind its back makes that thread
        # fail if the pool breaks (InvalidStateError in CPython 3.11's terminate_broken).
        self._pending.clear()

    def run(self, fn: Callable, *args):
        """fn(*args) in a worker, waited for."""
        return self._result(self._submit(fn, args))

    def imap(self, fn: Callable, tasks: Iterable[tuple]) -> Iterator:
        """fn(*task) for every task, in order. An error raised while the tasks are read (a bad
        input line) comes after the results of the tasks read before it, as a loop would give."""
        tasks = iter(tasks)
        failure: Exception | None = None
        exhausted = False
        while True:
            while not exhausted and len(self._pending) < self.limit:
                try:
                    task = next(tasks)
                except StopIteration:
                    exhausted = True
                except Exception as exc:
                    exhausted, failure = True, exc
                else:
                    self._pending.append(self._submit(fn, task))
            if not self._pending:
                break
            result = self._result(self._pending[0])
            self._pending.popleft()
            yield result
        if failure is not None:
            raise failure

    def _submit(self, fn: Callable, args: tuple):
        try:
            return self._pool.submit(fn, *args)
        except BrokenProcessPool:  # a worker died before this task was given
            raise _lost() from None

    def _result(self, future):
        try:
            while True:
                try:
                    return future.result(timeout=LOST_WORKER_CHECK)
                except FutureTimeout:
                    if self._lost_in_a_write(future):
                        self.kill()  # the manager thread's read ends, and the thread with it
                        raise BrokenProcessPool from None
        except BrokenProcessPool:
            raise _lost() from None

    def _lost_in_a_write(self, future) -> bool:
        """Whether a worker died while the pool runs (they end only when it ends) and the
        executor has not noticed: it died while writing its result (killed, out of memory), and
        the manager thread waits for the rest of that message."""
        processes = list((self._pool._processes or {}).values())
        if not any(process.exitcode is not None for process in processes):
            return False
        try:
            future.exception(timeout=LOST_WORKER_CHECK)  # the executor's own notice comes at once
        except FutureTimeout:
            return True
        return False


def _lost() -> WorkerLost:
    return WorkerLost("a worker process ended unexpectedly (killed, or out of memory?); run again with fewer --workers")
