"""Bad command lines and configurations: one clear line on stderr, exit 2 / 1, no traceback."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_core.compat.rouge155 import main
from rouge_core.compat.rouge155.api import evaluate_config
from rouge_core.compat.rouge155.errors import Rouge155Error
from rouge_core.compat.rouge155.flags import parse_command_line

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "rouge_core" / "data"


def _xml(folder: Path, peer="p.spl", models=("m.spl",), fmt="SPL") -> Path:
    ms = "".join(f'<M ID="{i}">{m}</M>' for i, m in enumerate(models))
    cfg = folder / "c.xml"
    cfg.write_text(f'<ROUGE_EVAL><EVAL ID="1"><PEER-ROOT>{folder}</PEER-ROOT><MODEL-ROOT>{folder}'
                   f'</MODEL-ROOT><INPUT-FORMAT TYPE="{fmt}"/><PEERS><P ID="S">{peer}</P></PEERS>'
                   f'<MODELS>{ms}</MODELS></EVAL></ROUGE_EVAL>')
    return cfg


def _run(capsys, argv):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err.splitlines()


def test_unknown_flag_is_a_usage_error(capsys):
    code, out, err = _run(capsys, ["-Q", "c.xml", "S"])
    assert code == 2 and out == "" and err[0] == "rouge155: error: unknown option -Q"


def test_missing_config_argument(capsys):
    code, _, err = _run(capsys, ["-n", "2"])
    assert code == 2 and "missing CONFIG" in err[0]


def test_system_id_or_a_required(tmp_path, capsys):
    code, _, err = _run(capsys, ["-e", str(DATA), str(_xml(tmp_path))])
    assert code == 2 and "-a" in err[0]


def test_missing_config_file(tmp_path, capsys):
    code, _, err = _run(capsys, ["-e", str(DATA), str(tmp_path / "nope.xml"), "S"])
    assert code == 1 and err == [f"rouge155: error: {tmp_path / 'nope.xml'}: configuration file not found"]


def test_malformed_xml(tmp_path, capsys):
    bad = tmp_path / "bad.xml"
    bad.write_text("<ROUGE_EVAL><EVAL ID='1'>")
    code, _, err = _run(capsys, ["-e", str(DATA), str(bad), "S"])
    assert code == 1 and len(err) == 1 and str(bad) in err[0] and "malformed XML" in err[0]


def test_missing_summary_files(tmp_path, capsys):
    (tmp_path / "p.spl").write_text("a b\n")
    code, out, err = _run(capsys, ["-e", str(DATA), str(_xml(tmp_path)), "S"])
    assert code == 1 and out == ""
    assert err == [f"rouge155: error: {tmp_path}/m.spl: model summary not found (EVAL 1)"]
    (tmp_path / "m.spl").write_text("a b\n")
    code, _, err = _run(capsys, ["-e", str(DATA), str(_xml(tmp_path, peer="q.spl")), "S"])
    assert code == 1 and err == [f"rouge155: error: {tmp_path}/q.spl: peer summary not found (EVAL 1)"]


def test_missing_list_file_entry(tmp_path, capsys):
    lst = tmp_path / "l.lst"
    lst.write_text(f"{tmp_path}/p.spl {tmp_path}/m.spl\n")
    code, _, err = _run(capsys, ["-e", str(DATA), "-z", "SPL", str(lst)])
    assert code == 1 and err == [f"rouge155: error: {tmp_path}/p.spl: peer summary not found"]


def test_data_dir_problems(tmp_path, capsys):
    cfg = _xml(tmp_path)
    code, _, err = _run(capsys, ["-e", str(tmp_path / "nodata"), str(cfg), "S"])
    assert code == 1 and err == [f"rouge155: error: {tmp_path / 'nodata'}: data directory (-e) does not exist"]
    (tmp_path / "smart_common_words.txt").write_text("the\n")
    code, _, err = _run(capsys, ["-e", str(tmp_path), str(cfg), "S"])
    assert code == 1 and len(err) == 1 and "lacks WordNet-2.0-Exceptions/adj.exc" in err[0]


def _oracle():
    spec = importlib.util.spec_from_file_location(
        "rouge155_reference_oracle", Path(__file__).with_name("test_rouge155_reference.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.reference_counts


def test_rouge_w_with_tokenless_reference_names_the_file(tmp_path):
    (tmp_path / "p.spl").write_text("a cat\n")
    (tmp_path / "m.spl").write_text("a cat\n")
    (tmp_path / "empty.spl").write_text("... !!\n")
    cfg = _xml(tmp_path, models=("m.spl", "empty.spl"))
    options, _ = parse_command_line(["-e", str(DATA), "-w", "1.2"])
    with pytest.raises(Rouge155Error) as err:
        evaluate_config(str(cfg), options, "S", scorer=_oracle())
    assert err.value.message.startswith(f"{tmp_path}/empty.spl: this reference has no tokens")
    options, _ = parse_command_line(["-e", str(DATA), "-n", "1"])  # without -w it scores
    assert evaluate_config(str(cfg), options, "S", scorer=_oracle()).get("ROUGE-1").recall.value == 1.0


def test_python_dash_m_prints_no_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "rouge_core.compat.rouge155", "-e", str(DATA),
                           str(tmp_path / "missing.xml"), "S"],
                          cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"rouge155: error: {tmp_path / 'missing.xml'}: configuration file not found"]
