"""Tasks run in worker processes, their results taken in the order the tasks were given, a
bounded number in flight (memory stays bounded however long the input is). The command
line's `--workers N` runs a streamed corpus's chunks here (rouge_core.cli).

Worker processes start by "fork" on Linux (they have the kernels this process loaded) and by
"spawn" elsewhere (the initializer imports what the tasks need). They ignore Ctrl-C: the
interrupt reaches this process, which stops them (`OrderedPool.__exit__` terminates them on
any error), so an interrupted run ends at once instead of hanging on a worker. A worker that
dies (killed, out of memory) is reported as WorkerLost, never waited for.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterable, Iterator


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

    def __enter__(self) -> "OrderedPool":
        return self

    def __exit__(self, kind, value, traceback) -> bool:
        if kind is None:
            self._pool.shutdown(wait=True)
        else:
            self.stop()
        return False

    def stop(self) -> None:
        """Drop the waiting tasks and end the workers now (an error or an interrupt)."""
        for future in self._pending:
            future.cancel()
        self._pending.clear()
        terminate = getattr(self._pool, "terminate_workers", None)  # Python 3.14
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        if terminate is not None:
            terminate()
        else:
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()
        for process in processes:
            process.join(timeout=5)

    def run(self, fn: Callable, *args):
        """fn(*args) in a worker, waited for."""
        return self._result(self._pool.submit(fn, *args))

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
                    self._pending.append(self._pool.submit(fn, *task))
            if not self._pending:
                break
            result = self._result(self._pending[0])
            self._pending.popleft()
            yield result
        if failure is not None:
            raise failure

    @staticmethod
    def _result(future):
        try:
            return future.result()
        except BrokenProcessPool:
            raise WorkerLost("a worker process ended unexpectedly (killed, or out of memory?); run again with "
                             "fewer --workers") from None
