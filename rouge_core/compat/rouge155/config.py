"""Evaluation configurations: the ROUGE_EVAL XML file and the `-z` file lists.

Paths are resolved as the script resolves them: relative to the current directory, the XML
ones as `<PEER-ROOT>/<file>` and `<MODEL-ROOT>/<file>`, the list ones as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.dom import Node, minidom
from xml.parsers.expat import ExpatError

from ...errors import excerpt
from .errors import Rouge155Error

INPUT_FORMATS = ("SEE", "SPL", "ISI", "SIMPLE")
_ASCII_SPACE = re.compile(r"[ \t\n\r\f\v]+")  # Perl's \s on byte strings
_EDGE_SPACE = re.compile(r"^[\n\t\r\f\v ]+|[\n\t\r\f\v ]+$")  # Perl's [\n\s], ASCII only


@dataclass
class Evaluation:
    """One `<EVAL>`: a document with its peers (systems) and models (references)."""

    eval_id: str
    input_format: str | None = None
    peer_root: str | None = None
    model_root: str | None = None
    peers: dict[str, str] = field(default_factory=dict)  # peer id -> file as written
    models: dict[str, str] = field(default_factory=dict)  # model id -> file, in config order

    def peer_path(self, peer_id: str, listed: bool = False) -> str:
        # The script joins with "/" even when the root is missing (then the path is absolute).
        return self.peers[peer_id] if listed else f"{self.peer_root or ''}/{self.peers[peer_id]}"

    def model_paths(self, listed: bool = False) -> list[str]:
        if listed:
            return list(self.models.values())
        return [f"{self.model_root or ''}/{name}" for name in self.models.values()]


@dataclass
class Config:
    evaluations: list[Evaluation]
    peer_ids: list[str]  # every peer id met, in order of first appearance
    listed: bool = False  # a -z file list: paths are used as written


def _strip(text: str) -> str:
    return _EDGE_SPACE.sub("", text)


def _text_of(node: Node) -> str | None:
    # Like the script: the last text child wins; CDATA is not a text node there.
    text = None
    for child in node.childNodes:
        if child.nodeType == Node.TEXT_NODE:
            text = _strip(child.data)
    return text


def _attribute(path: str, node: Node, name: str) -> str:
    if not node.hasAttribute(name):
        raise Rouge155Error(f"{path}: <{node.nodeName}> has no {name} attribute")
    return node.getAttribute(name)


def read_xml_config(path: str) -> Config:
    try:
        document = minidom.parse(path)
    except FileNotFoundError:
        raise Rouge155Error(f"{path}: configuration file not found") from None
    except IsADirectoryError:
        raise Rouge155Error(f"{path}: is a directory, not a configuration file") from None
    except OSError as exc:
        raise Rouge155Error(f"{path}: cannot read configuration file ({exc.strerror})") from None
    except ExpatError as exc:
        raise Rouge155Error(f"{path}: malformed XML ({exc}); use -z for a plain file list") from None
    evaluations: dict[str, Evaluation] = {}
    peer_ids: dict[str, None] = {}

    def current(eval_id: str | None, what: str) -> Evaluation:
        if eval_id is None:
            raise Rouge155Error(f"{path}: <{what}> appears outside an <EVAL> element")
        return evaluations[eval_id]

    def visit(node: Node, eval_id: str | None) -> tuple[list[Node], str | None]:
        """Read one element; return the children to visit next and the EVAL they belong to."""
        if node.nodeType != Node.ELEMENT_NODE:
            return list(node.childNodes), eval_id
        name = node.nodeName.upper()
        if name == "EVAL":
            eval_id = _attribute(path, node, "ID")
            evaluations.setdefault(eval_id, Evaluation(eval_id))
            return list(node.childNodes), eval_id
        if name == "INPUT-FORMAT":
            fmt = _attribute(path, node, "TYPE")
            if fmt.upper() not in INPUT_FORMATS:
                raise Rouge155Error(
                    f"{path}: unknown input format {excerpt(fmt)} in EVAL {eval_id} (use SEE, SPL, ISI or SIMPLE)")
            current(eval_id, "INPUT-FORMAT").input_format = fmt.upper()
        elif name in ("PEER-ROOT", "MODEL-ROOT"):
            ev = current(eval_id, name)
            text = _text_of(node)
            if text is not None:
                if name == "PEER-ROOT":
                    ev.peer_root = text
                else:
                    ev.model_root = text
        elif name in ("PEERS", "MODELS"):
            ev = current(eval_id, name)
            tag = name[0]
            for child in node.childNodes:
                if child.nodeType == Node.ELEMENT_NODE and child.nodeName.upper() == tag:
                    item_id = _attribute(path, child, "ID")
                    text = _text_of(child)
                    table = ev.peers if tag == "P" else ev.models
                    if tag == "P":
                        peer_ids.setdefault(item_id, None)
                    if text is not None:
                        table[item_id] = text
                    elif item_id not in table:
                        raise Rouge155Error(f"{path}: <{child.nodeName} ID=\"{item_id}\"> in EVAL {eval_id} names no file")
        else:
            return list(node.childNodes), eval_id
        return [], eval_id

    # Depth first in document order, with a stack: nesting depth is the file's to choose.
    stack: list[tuple[Node, str | None]] = [(document, None)]
    while stack:
        node, eval_id = stack.pop()
        children, eval_id = visit(node, eval_id)
        stack.extend((child, eval_id) for child in reversed(children))
    if not evaluations:
        raise Rouge155Error(f"{path}: no <EVAL> element found; is this a ROUGE configuration file?")
    for ev in evaluations.values():
        if ev.input_format is None:
            raise Rouge155Error(f"{path}: EVAL {ev.eval_id} has no <INPUT-FORMAT TYPE=...>")
        if not ev.models:
            raise Rouge155Error(f"{path}: EVAL {ev.eval_id} lists no models (<MODELS><M ID=...>)")
    return Config(list(evaluations.values()), list(peer_ids))


def read_list_config(path: str, list_format: str, system_id: str) -> Config:
    """A `-z` list: one evaluation per line, the peer path first, then the model paths."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise Rouge155Error(f"{path}: file list not found") from None
    except OSError as exc:
        raise Rouge155Error(f"{path}: cannot read file list ({exc.strerror})") from None
    evaluations = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        line = raw.decode("utf-8", "surrogateescape")
        if line.startswith("#") or not line.strip(" \t\r\f\v"):
            continue  # comments and blank lines, as in the script
        files = _ASCII_SPACE.split(line.strip(" \t\n\r\f\v"))
        if len(files) < 2:
            raise Rouge155Error(
                f"{path}:{number}: a file list line needs a peer and at least one model (peer model1 ... modelN)")
        ev = Evaluation(str(len(evaluations) + 1), input_format=list_format)
        ev.peers[system_id] = files[0]
        for k, model in enumerate(files[1:], start=1):
            ev.models[f"M.{k}"] = model
        evaluations.append(ev)
    return Config(evaluations, [system_id], listed=True)
