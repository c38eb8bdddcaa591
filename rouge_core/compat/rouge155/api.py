"""`evaluate(...)`: the same evaluation as the command line, returning data."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence, Union

from ...errors import excerpt
from .config import Config, read_list_config, read_xml_config
from .data_dir import resolve_data_dir
from .errors import USAGE_ERROR, Rouge155Error
from .flags import Flags, flags_to_argv, parse_command_line
from .readers import read_sentences, sentences_from_bytes
from .results import Report
from .runner import Document, Source, Warn, run, stderr_warn

Summary = Union[str, bytes, os.PathLike]  # str: the text itself; a path: a file to read


def _source(summary: Summary, input_format: str, name: str) -> Source:
    if isinstance(summary, os.PathLike):
        path = os.fspath(summary)
        return Source(path, tuple(read_sentences(path, input_format)))
    data = summary.encode("utf-8") if isinstance(summary, str) else bytes(summary)
    return Source(name, tuple(sentences_from_bytes(data, input_format, name)))


def check_input_format(input_format: str, flags: Flags, where: str) -> None:
    """-3 reads Basic Element files (SIMPLE) and nothing else; only -3 reads them."""
    fmt = input_format.upper()
    if flags.be_mode is not None and fmt != "SIMPLE":
        why = ("its ISI reader for BEs is a placeholder that reads nothing, so every score would be 0" if fmt == "ISI"
               else f"it dies reading {fmt} files for BEs")
        raise Rouge155Error(f"{where}: -3 scores Basic Element files (INPUT-FORMAT SIMPLE), not {fmt} "
                            f"(ROUGE-1.5.5: {why})")
    if flags.be_mode is None and fmt == "SIMPLE":
        raise Rouge155Error(f"{where}: SIMPLE files hold Basic Elements: score them with -3 "
                            "H|HM|HMR|HM1|HMR1|HMR2 (ROUGE-1.5.5 dies reading them for the other metrics)")


def config_documents(config: Config, peer_ids: Sequence[str], warn: Warn) -> dict[str, list[Document]]:
    """Read every file the run needs, before any scoring: a bad path fails before output."""
    cache: dict[tuple[str, str], Source] = {}

    def load(path: str, fmt: str, role: str, eval_id: str) -> Source:
        key = (path, fmt)
        if key not in cache:
            if not Path(path).is_file():
                where = "" if config.listed else f" (EVAL {eval_id})"
                raise Rouge155Error(f"{path}: {role} summary not found{where}")
            cache[key] = Source(path, tuple(read_sentences(path, fmt)))
        return cache[key]

    out: dict[str, list[Document]] = {}
    for peer_id in peer_ids:
        docs = []
        for ev in config.evaluations:
            if peer_id not in ev.peers:
                warn(f"*ROUGE Warning: test instance for peer {peer_id} does not exist "
                     f"for evaluation {ev.eval_id}")
                continue
            peer = load(ev.peer_path(peer_id, config.listed), ev.input_format, "peer", ev.eval_id)
            models = tuple(load(p, ev.input_format, "model", ev.eval_id)
                           for p in ev.model_paths(config.listed))
            docs.append(Document(ev.eval_id, peer, models))
        out[peer_id] = docs
    return out


def evaluate_config(config_path: str, flags: Flags, system_id: str | None = None,
                    *, warn: Warn = stderr_warn, scorer=None) -> Report:
    """What `rouge155 [flags] CONFIG [SYSTEM_ID]` computes."""
    data_dir = resolve_data_dir(flags.options.data_dir)
    if flags.list_format:  # -z: a file list; -a is ignored and the id defaults to X
        system_id = system_id or "X"
        config = read_list_config(config_path, flags.list_format, system_id)
        check_input_format(flags.list_format, flags, f"{config_path} (-z {flags.list_format})")
        peer_ids = [system_id]
    else:
        if not flags.all_systems and system_id is None:
            raise Rouge155Error("give a system id to evaluate after CONFIG, or -a to evaluate all systems",
                                USAGE_ERROR)
        config = read_xml_config(config_path)
        for ev in config.evaluations:
            check_input_format(ev.input_format, flags, f"{config_path}, EVAL {ev.eval_id}")
        peer_ids = sorted(config.peer_ids) if flags.all_systems else [system_id]
    return run(config_documents(config, peer_ids, warn), flags, data_dir, scorer)


def evaluate(
    peers: Summary | Sequence[Summary] | None = None,
    models: Sequence[Summary] | Sequence[Sequence[Summary]] | None = None,
    flags: str | Sequence[str] = "",
    *,
    config: str | os.PathLike | None = None,
    system_id: str | None = None,
    input_format: str = "SPL",
    warn: Warn = stderr_warn,
    **keywords: Any,
) -> Report:
    """Score like ROUGE-1.5.5.pl and return the results as data (`Report`).

    Either give a configuration file (`config=`, XML or, with `-z`, a file list) and a
    `system_id` (or `-a`), or give the summaries directly: `peers` is one summary or a list of
    them (one per document) and `models` the references of that summary, or one list of
    references per document. A `str` is the text itself, one sentence per line; a path
    (`pathlib.Path`) is a file read in `input_format` (SPL, SEE or ISI; SIMPLE, one
    head|modifier|relation Basic Element per line, with `-3 MODE` / `basic_elements=MODE`).

    Flags are a string in the script's syntax (`"-n 2 -m -2 4 -u"`) and/or keywords
    (`max_n=2, stem=True, skip_distance=4, skip_unigrams=True`, or the letters: `n=2`).
    """
    parsed, rest = parse_command_line(flags_to_argv(flags, **keywords))
    if rest:
        raise Rouge155Error(f"unexpected argument {excerpt(rest[0])} in flags", USAGE_ERROR)
    if config is not None:
        return evaluate_config(os.fspath(config), parsed, system_id, warn=warn)
    if peers is None or models is None:
        raise Rouge155Error("give peers and models, or config=", USAGE_ERROR)
    fmt = input_format.upper()
    check_input_format(fmt, parsed, f"input_format={excerpt(input_format)}")
    single = isinstance(peers, (str, bytes, os.PathLike))
    peer_list = [peers] if single else list(peers)
    if single:
        model_lists = [[models] if isinstance(models, (str, bytes, os.PathLike)) else list(models)]
    else:
        model_lists = [[m] if isinstance(m, (str, bytes, os.PathLike)) else list(m) for m in models]
    if len(model_lists) != len(peer_list):
        raise Rouge155Error(f"{len(peer_list)} peers but {len(model_lists)} model lists", USAGE_ERROR)
    docs = []
    for i, (peer, refs) in enumerate(zip(peer_list, model_lists), start=1):
        if not refs:
            raise Rouge155Error(f"document {i} has no model (reference) summary", USAGE_ERROR)
        docs.append(Document(
            str(i), _source(peer, fmt, f"<peer {i}>"),
            tuple(_source(m, fmt, f"<model {i}.{k}>") for k, m in enumerate(refs, start=1))))
    return run({system_id or "X": docs}, parsed, resolve_data_dir(parsed.options.data_dir))
