"""rouge-lens --workers N (N >= 2) on a streamed input (-c/-r files, --jsonl) works on each
chunk in N worker processes (rouge_core.corpora.ordered_pool) and gives what one process gives:
the same output bytes, summaries, intervals, warnings and errors."""

import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from rouge_core import cli
from rouge_core.cli import main
from rouge_core.corpora import corpus_stream
from rouge_core.corpora.ordered_pool import OrderedPool, WorkerLost

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORDS = ["the", "cat", "sat", "on", "mat", "é", "dog", "ran", "a", "big"]
COMMON = ["-m", "rouge1", "rouge2", "rougeL", "rougeLsum", "--bootstrap", "30", "--seed", "3", "-q"]


def texts(n, seed):
    import random

    rng = random.Random(seed)

    def text():
        return "\n".join(" ".join(rng.choices(WORDS, k=rng.randint(1, 7))) for _ in range(rng.randint(1, 3)))

    return [text() for _ in range(n)]


def jsonl(n, seed=0, ids=False):
    """Two systems, one to three references a pair (several per document)."""
    a, b, r1, r2, r3 = (texts(n, seed + k) for k in range(5))
    lines = []
    for i in range(n):
        row = {"id": f"doc-{i}"} if ids else {}
        row.update(candidate_A=a[i], candidate_B=b[i], references=[r1[i], r2[i], r3[i]][:1 + i % 3])
        lines.append(json.dumps(row, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode("utf-8")


def outcome(argv, capsys, stdin=None, rows=None, block=None):
    """(exit status, stdout, stderr) of one run, with chunks of `rows` pairs read `block` bytes at a time."""
    old = (cli.STREAM_ROWS, corpus_stream.READ_BLOCK)
    cli.STREAM_ROWS = rows or old[0]
    corpus_stream.READ_BLOCK = block or old[1]
    try:
        code = main([str(a) for a in argv], stdin=stdin)
    finally:
        cli.STREAM_ROWS, corpus_stream.READ_BLOCK = old
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("rows, block, n", [(1, 13, 40), (7, 1 << 20, 200), (500, 97, 1200)])
def test_processes_give_the_one_process_output_byte_for_byte(rows, block, n, tmp_path, capsys):
    """CSV, JSON and table with intervals and comparisons, chunks of 1, 7 and 500 pairs (read in
    blocks of 13 and 97 bytes: a block ends inside a document's references): one process and
    two (three) worker processes give the same bytes."""
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(jsonl(n, seed=rows))
    for fmt in ("csv", "json", "table"):
        one = outcome(["--jsonl", path, "-f", fmt, *COMMON, "--workers", "1"], capsys, rows=rows, block=block)
        assert one[0] == 0 and one[2] == "", one[2]
        for workers in (2, 3) if fmt == "csv" else (2,):
            assert outcome(["--jsonl", path, "-f", fmt, *COMMON, "--workers", workers], capsys, rows=rows,
                           block=block) == one, (fmt, workers)
    assert one[1].count("\n") > 10  # the table: something was compared


def test_processes_give_the_same_summaries_and_intervals_to_the_bit(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(jsonl(2000, seed=5, ids=True))
    docs = [json.loads(outcome(["--jsonl", path, "-f", "json", *COMMON, "--workers", w], capsys, rows=300)[1])
            for w in (1, 2)]
    assert docs[0] == docs[1]
    system = docs[1]["systems"][0]
    assert len(system["pairs"]) == 2000 and system["pairs"][-1]["pair"] == "doc-1999"
    assert 0 < system["intervals"]["mean"]["rougeL"]["low"] < system["mean"]["rougeL"]["fmeasure"] \
        < system["intervals"]["mean"]["rougeL"]["high"] < 1
    assert len(docs[1]["comparisons"]) == 4


def test_parallel_files_and_standard_input(tmp_path, capsys):
    """-c/-r files, one of them read from standard input, with several reference files; and
    --jsonl from standard input."""
    n = 900
    files = {}
    for k, name in enumerate(("a.txt", "b.txt", "r1.txt", "r2.txt")):
        files[name] = tmp_path / name
        files[name].write_text("\n".join(t.replace("\n", "<q>") for t in texts(n, 40 + k)) + "\n", encoding="utf-8")
    argv = ["-c", files["a.txt"], "-c", "-", "-r", files["r1.txt"], "-r", files["r2.txt"], "-f", "csv", *COMMON]
    stdin = files["b.txt"].read_bytes()
    one = outcome([*argv, "--workers", "1"], capsys, stdin=io.BytesIO(stdin), rows=100)
    assert one[0] == 0 and one[1].count("\r\n") > 4 * 2 * n
    assert outcome([*argv, "--workers", "2"], capsys, stdin=io.BytesIO(stdin), rows=100) == one
    data = jsonl(500, seed=9)
    one = outcome(["--jsonl", "-", "-f", "csv", *COMMON, "--workers", "1"], capsys, stdin=io.BytesIO(data), rows=64)
    assert one[0] == 0
    assert outcome(["--jsonl", "-", "-f", "csv", *COMMON, "--workers", "2"], capsys, stdin=io.BytesIO(data),
                   rows=64) == one


def _broken(data: bytes, line: int, replacement: bytes) -> bytes:
    lines = data.split(b"\n")
    lines[line - 1] = replacement
    return b"\n".join(lines)


@pytest.mark.parametrize("replacement, message", [
    (b'{"candidate_A": "a", "candidate_B": "b", "references": ["x"]', "stdin.jsonl line 1234 is not valid JSON"),
    (b'{"candidate_A": "a", "candidate_B": "b", "references": []}', "line 1234: no reference"),
    (b'{"candidate_A": "a", "candidate_B": "b", "references": ["x"], "reference_9": "y"}', "column 'reference_9'"),
    (b'{"candidate_A": "a\xff", "candidate_B": "b", "references": ["x"]}', "line 1234 has byte 0xff"),
])
def test_a_bad_line_in_a_later_chunk_gives_the_one_process_error(replacement, message, capsys):
    """A malformed line, a pair without references, a column the first lines lack, bytes that
    are not UTF-8 (found by this process's reader, after the chunks before it): the same
    message, exit status and output before it as one process."""
    data = _broken(jsonl(1500, seed=2), 1234, replacement)
    argv = ["--jsonl", "-", "-f", "csv", *COMMON]
    one = outcome([*argv, "--workers", "1"], capsys, stdin=io.BytesIO(data), rows=200, block=4096)
    assert one[0] == 2 and message in one[2] and one[2].count("\n") == 1, one[2]
    assert outcome([*argv, "--workers", "2"], capsys, stdin=io.BytesIO(data), rows=200, block=4096) == one


def test_a_repeated_id_in_a_later_chunk_and_a_costly_pair(tmp_path, capsys):
    data = _broken(jsonl(700, seed=3, ids=True), 650, b'{"id": "doc-3", "candidate_A": "a", "candidate_B": "b", '
                                                      b'"references": ["x"]}')
    argv = ["--jsonl", "-", "-f", "csv", *COMMON]
    one = outcome([*argv, "--workers", "1"], capsys, stdin=io.BytesIO(data), rows=100)
    assert one[0] == 2 and "line 650: duplicate id 'doc-3'" in one[2], one[2]
    assert outcome([*argv, "--workers", "2"], capsys, stdin=io.BytesIO(data), rows=100) == one
    long = " ".join(f"w{i}" for i in range(4500))  # distinct words: above the bound (test_cli)
    costly = json.dumps({"candidate_A": long, "candidate_B": "a", "references": [long]}).encode()
    data = _broken(jsonl(300, seed=4), 280, costly)
    argv = ["--jsonl", "-", "-f", "csv", "-m", "rouge1", "rougeS*", "-q"]
    one = outcome([*argv, "--workers", "1"], capsys, stdin=io.BytesIO(data), rows=50)
    assert one[0] == 2 and "pair 280: rougeS* would take" in one[2], one[2]
    assert outcome([*argv, "--workers", "2"], capsys, stdin=io.BytesIO(data), rows=50) == one


def test_the_chunks_are_scored_in_other_processes(tmp_path, capsys, monkeypatch):
    """--workers 2 on a streamed input: the pairs are tokenized in two worker processes (the
    user's tokenizer writes down where it ran), not in threads of this one."""
    (tmp_path / "where_tok.py").write_text(
        "import os\n\ndef split(text):\n"
        "    with open(os.path.join(os.path.dirname(__file__), 'pids.txt'), 'a') as fh:\n"
        "        fh.write(f'{os.getpid()}\\n')\n"
        "    return text.split()\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(jsonl(400, seed=1))
    code, _, err = outcome(["--jsonl", path, "-f", "csv", "-q", "-m", "rouge1", "--tokenizer", "where_tok:split",
                            "--workers", "2"], capsys, rows=20)
    assert code == 0, err
    pids = set((tmp_path / "pids.txt").read_text().split())
    assert str(os.getpid()) not in pids and len(pids) == 2


def _square(x):
    return x * x


def _die(x):
    if x == 3:
        os._exit(1)
    return x


def _tasks(n, fail_at=None):
    for k in range(n):
        if k == fail_at:
            raise ValueError(f"bad task {k}")
        yield (k,)


def test_ordered_pool_order_errors_and_a_lost_worker():
    with OrderedPool(2, in_flight=3) as pool:
        assert list(pool.imap(_square, _tasks(40))) == [k * k for k in range(40)]
        got = []
        with pytest.raises(ValueError, match="bad task 7"):
            for value in pool.imap(_square, _tasks(40, fail_at=7)):
                got.append(value)
        assert got == [k * k for k in range(7)]  # the tasks read before the error first
    with pytest.raises(WorkerLost, match="a worker process ended unexpectedly"):
        with OrderedPool(2) as pool:
            list(pool.imap(_die, _tasks(10)))
    with OrderedPool(2) as pool:  # a task given after the pool broke: the same error, not the executor's
        with pytest.raises(WorkerLost, match="a worker process ended unexpectedly"):
            pool.run(_die, 3)
        with pytest.raises(WorkerLost, match="a worker process ended unexpectedly"):
            pool.run(_square, 2)


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child before it runs Python: SIGINT's default action, as a command started at a
    terminal has it. A job a non-interactive shell started in the background (a CI runner's
    `cmd &`) ignores SIGINT, its children inherit that, and Python then never raises
    KeyboardInterrupt: the Ctrl-C these tests send would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_ends_the_run_and_its_workers(tmp_path):
    """Ctrl-C (SIGINT to the process group) while the workers wait for input: exit status 130,
    one line on stderr, no worker left behind."""
    env = {**os.environ, "PYTHONPATH": ROOT}
    child = subprocess.Popen([sys.executable, "-m", "rouge_core", "--jsonl", "-", "-m", "rouge1", "--workers", "2"],
                             cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    child.stdin.write(jsonl(20))
    child.stdin.flush()
    time.sleep(1.5)
    os.killpg(child.pid, signal.SIGINT)
    try:
        _, err = child.communicate(timeout=20)
    finally:
        child.stdin.close()
        child.kill()
    assert child.returncode == 130 and err.decode().strip().endswith("rouge-lens: interrupted"), err
    time.sleep(0.3)
    with pytest.raises(ProcessLookupError):  # every process of its group has ended
        os.killpg(child.pid, 0)


def test_an_unexpected_error_in_a_worker_is_reported_as_one_process_reports_it(tmp_path, capsys, monkeypatch):
    """The user's tokenizer fails on one pair of a later chunk: the same one line, exit status 2."""
    (tmp_path / "failing_tok.py").write_text(
        "def split(text):\n    if 'boom' in text:\n        raise RuntimeError('the tokenizer gave up')\n"
        "    return text.split()\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delenv("ROUGE_LENS_DEBUG", raising=False)
    data = _broken(jsonl(120, seed=6), 100, b'{"candidate_A": "boom", "candidate_B": "b", "references": ["x"]}')
    argv = ["--jsonl", "-", "-f", "csv", "-q", "-m", "rouge1", "--tokenizer", "failing_tok:split"]
    one = outcome([*argv, "--workers", "1"], capsys, stdin=io.BytesIO(data), rows=30)
    assert one[0] == 2 and "the tokenizer gave up" in one[2] and one[2].count("\n") == 1, one[2]
    assert outcome([*argv, "--workers", "2"], capsys, stdin=io.BytesIO(data), rows=30) == one


def test_workers_started_by_spawn_give_the_same_output(tmp_path, capsys, monkeypatch):
    """Where fork is not used (macOS, Windows), spawned workers import the kernels themselves."""
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(jsonl(300, seed=8))
    argv = ["--jsonl", path, "-f", "csv", *COMMON]
    one = outcome([*argv, "--workers", "1"], capsys, rows=100)
    monkeypatch.setattr(cli, "PROCESS_START", "spawn")
    assert outcome([*argv, "--workers", "2"], capsys, rows=100) == one


# A stop (an error, an interrupt) while a worker writes a large result. Made exact in time:
# chunk 0 fails; chunk 1's worker waits until this process has taken that error, then writes
# its 8 MB result half, pauses, writes the rest (set in the worker, on its copy of the
# executor's result pipe); this process stops the pool once the half is written. It runs in a
# process of its own: a hang at its exit (the executor's manager thread reading a message that
# never ends) shows as a timeout, not as a hung test suite.
STOP_WHILE_WRITING = r'''
import multiprocessing, os, sys, time
from rouge_core.corpora.ordered_pool import OrderedPool, WorkerLost

folder, pause, stop = sys.argv[1], float(sys.argv[2]), sys.argv[3]
error_taken, half_written = os.path.join(folder, "error-taken"), os.path.join(folder, "half-written")


def wait_for(path):
    while not os.path.exists(path):
        time.sleep(0.01)


def write_slowly(send):
    def send_in_two_halves(buf):
        if len(buf) > 1 << 20:
            half = len(buf) // 2
            send(memoryview(buf)[:half])
            open(half_written, "w").close()
            if stop.endswith("lost"):  # the worker is killed there
                os._exit(1)
            time.sleep(pause)
            buf = memoryview(buf)[half:]
        send(buf)
    return send_in_two_halves


def chunk(k):
    if k == 0 and stop != "lost":
        raise ValueError("chunk 0 is bad")
    if k == 1:
        if stop != "lost":
            wait_for(error_taken)
        result_pipe = multiprocessing.current_process()._args[1]._writer  # this worker's result queue
        result_pipe._send = write_slowly(result_pipe._send)
    return bytes(8 << 20)


if stop == "error-slow-shutdown":  # the executor takes its time to be asked to end: a Ctrl-C lands there
    from concurrent.futures import ProcessPoolExecutor
    shutdown = ProcessPoolExecutor.shutdown
    def slow_shutdown(self, *args, **kwargs):
        time.sleep(5)
        return shutdown(self, *args, **kwargs)
    ProcessPoolExecutor.shutdown = slow_shutdown

start = time.monotonic()
try:
    with OrderedPool(2) as pool:
        try:
            for _ in pool.imap(chunk, [(k,) for k in range(4)]):
                pass
        except ValueError:
            open(error_taken, "w").close()
            wait_for(half_written)
            if stop == "interrupt":
                raise KeyboardInterrupt
            raise
except ValueError as exc:
    print(f"error: {exc}", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
except WorkerLost as exc:
    print(f"lost: {exc}", flush=True)
print(f"stopped after {time.monotonic() - start:.1f} s", flush=True)
'''


def _stop_while_writing(tmp_path, stop: str, pause: float, timeout: float, ctrl_c_after: float | None = None):
    """(exit status, stdout, stderr) of the script; a run that does not end in `timeout` seconds
    fails. `ctrl_c_after`: Ctrl-C (SIGINT to its process group) that many seconds after the
    result is half written."""
    env = {**os.environ, "PYTHONPATH": ROOT}
    child = subprocess.Popen([sys.executable, "-c", STOP_WHILE_WRITING, str(tmp_path), str(pause),
                              stop], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        if ctrl_c_after is not None:
            deadline = time.monotonic() + timeout
            while not (tmp_path / "half-written").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(ctrl_c_after)
            os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        out, err = child.communicate()
        pytest.fail(f"the process did not end within {timeout} s of a stop ({stop}); "
                    f"it printed {out!r} {err[-2000:]!r}")
    return child.returncode, out.decode(), err.decode()


def test_an_error_while_a_worker_writes_a_large_result_ends_the_process(tmp_path):
    """Chunk 0 fails while chunk 1's 8 MB result is half written: the stop lets chunk 1 finish
    its write (a worker is never ended in the middle of one) and the process ends."""
    code, out, err = _stop_while_writing(tmp_path, "error", pause=0.5, timeout=60)
    assert code == 0 and out.startswith("error: chunk 0 is bad\nstopped after") and err == "", (out, err)


def test_an_interrupt_while_a_worker_writes_ends_the_process_at_once(tmp_path):
    """Ctrl-C while a worker is stuck in the middle of writing its result: the workers are
    ended at once, and the cut result does not keep the process from ending."""
    code, out, err = _stop_while_writing(tmp_path, "interrupt", pause=120, timeout=30)  # not the pause's end
    assert code == 0 and out.startswith("interrupted\nstopped after") and err == "", (out, err)


def test_ctrl_c_while_an_error_waits_for_a_running_chunk_ends_the_process_at_once(tmp_path):
    """The error's stop waits for a chunk whose result write is stuck: Ctrl-C then kills the
    workers, and the process ends."""
    code, out, err = _stop_while_writing(tmp_path, "error", pause=120, timeout=30, ctrl_c_after=0.5)
    assert code == 0 and out.startswith("interrupted\nstopped after") and err == "", (out, err)


def test_ctrl_c_while_an_error_asks_the_executor_to_end_ends_the_process_at_once(tmp_path):
    """Ctrl-C before the error's stop waits for the running chunk (while it asks the executor to
    end, a moment a loaded machine can stretch): the workers are killed all the same. Before,
    the interrupt skipped the end, and the process hung at its exit (a CI failure: it printed
    "interrupted", then waited for the stuck worker's result)."""
    code, out, err = _stop_while_writing(tmp_path, "error-slow-shutdown", pause=120, timeout=30, ctrl_c_after=0.5)
    assert code == 0 and out.startswith("interrupted\nstopped after") and err == "", (out, err)


def test_a_worker_killed_while_an_error_waits_for_its_result_does_not_keep_the_process(tmp_path):
    """The error's stop waits for chunk 1, whose worker dies with its result half written: the
    stop ends all the same, with the error."""
    code, out, err = _stop_while_writing(tmp_path, "error-lost", pause=0, timeout=60)
    assert code == 0 and out.startswith("error: chunk 0 is bad\nstopped after") and err == "", (out, err)


def test_a_worker_killed_while_it_writes_its_result_is_reported_lost(tmp_path):
    """A worker dies (killed, out of memory) with its result half written: the executor alone
    would wait for the rest forever; the pool reports the worker lost and the process ends."""
    code, out, err = _stop_while_writing(tmp_path, "lost", pause=0, timeout=60)
    assert code == 0 and out.startswith("lost: a worker process ended unexpectedly") and err == "", (out, err)


def _cli_run(argv, stdin: bytes, rows: int, read: int | None = None, timeout: float = 60):
    """(exit status, stdout, stderr) of `rouge-lens argv` in a process of its own, `rows` pairs a
    chunk; `read`: bytes of its output read before the pipe is closed (a consumer like `head`)."""
    script = f"from rouge_core import cli; cli.STREAM_ROWS = {rows}; raise SystemExit(cli.main())"
    child = subprocess.Popen([sys.executable, "-c", script, *map(str, argv)], cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": ROOT}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        if read is None:
            out, err = child.communicate(stdin, timeout=timeout)
        else:
            child.stdin.write(stdin)
            child.stdin.close()
            out = child.stdout.read(read)
            child.stdout.close()
            child.wait(timeout=timeout)
            err = child.stderr.read()
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        pytest.fail(f"rouge-lens {argv} did not end within {timeout} s")
    return child.returncode, out, err.decode()


def test_the_command_ends_after_an_error_or_a_closed_output_as_one_process_does():
    """A bad line in a later chunk while the chunks after it are scored, and an output pipe
    closed after its first bytes: the process ends, with one process's exit status and message
    (and output before the error)."""
    data = _broken(jsonl(3000, seed=11), 1234, b'{"candidate_A": "a", "candidate_B": "b", "references": []}')
    argv = ["--jsonl", "-", "-f", "csv", *COMMON]
    one = _cli_run([*argv, "--workers", "1"], data, rows=100)
    assert one[0] == 2 and "line 1234: no reference" in one[2], one[2]
    assert _cli_run([*argv, "--workers", "2"], data, rows=100) == one
    data = jsonl(3000, seed=12)
    one = _cli_run([*argv, "--workers", "1"], data, rows=100, read=100)
    assert one[0] == 2 and "BrokenPipeError" in one[2], one[2]
    assert _cli_run([*argv, "--workers", "2"], data, rows=100, read=100) == one


INTERRUPT_WHILE_A_TASK_IS_WRITTEN = r'''
import os, sys, time
from rouge_core.corpora.ordered_pool import OrderedPool

busy = sys.argv[1]


def work(k, payload):
    if k == 0:  # the one worker is busy: nobody reads the next task's 64 MB from the call pipe
        open(busy, "w").close()
        time.sleep(120)
    return len(payload)


try:
    with OrderedPool(1, in_flight=3) as pool:
        for _ in pool.imap(work, [(k, bytes(64 << 20)) for k in range(3)]):
            pass
except KeyboardInterrupt:
    print("interrupted", flush=True)
'''


def test_ctrl_c_while_a_large_task_is_half_written_to_a_busy_worker_ends_the_process(tmp_path):
    """Ctrl-C while the executor's feeder thread is writing a task no worker will read: the
    killed workers' call pipe is closed (CPython 3.10 left the feeder, and the exit, waiting)."""
    busy = tmp_path / "busy"
    child = subprocess.Popen([sys.executable, "-c", INTERRUPT_WHILE_A_TASK_IS_WRITTEN, str(busy)], cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": ROOT}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        deadline = time.monotonic() + 30
        while not busy.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        pytest.fail("the process did not end within 30 s of Ctrl-C")
    assert child.returncode == 0 and out == b"interrupted\n" and err == b"", (out, err)
