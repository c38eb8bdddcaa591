"""Flags (Getopt::Std), the XML and -z configurations, the summary readers, the length limits."""

from __future__ import annotations

import pytest

from rouge_core.compat.rouge155 import main
from rouge_core.compat.rouge155.config import read_list_config, read_xml_config
from rouge_core.compat.rouge155.errors import Rouge155Error
from rouge_core.compat.rouge155.flags import flags_to_argv, parse_command_line
from rouge_core.compat.rouge155.readers import sentences_from_bytes
from rouge_core.compat.rouge155.scoring import metrics_for
from rouge_core.compat.rouge155.runner import _cut
from rouge_core.text.options import profile


def test_getopt_bundles_and_negative_values():
    o, rest = parse_command_line(["-am", "-2", "-1", "-U", "-n4", "-w", "1.20", "c.xml", "-x"])
    assert o.all_systems and o.options.stemmer == "rouge155" and o.skip_unigrams_and_plain and o.max_n == 4
    assert o.skip_distance == -1 and o.weight == 1.2 and o.weight_text == "1.20"
    assert rest == ["c.xml", "-x"]  # options stop at the first non-option, as in Perl


def test_metric_names_and_order():
    o, _ = parse_command_line(["-n", "2", "-w", "1.2", "-2", "4", "-U"])
    assert [m.name for m in metrics_for(o)] == [
        "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4"]
    assert [m.method.name for m in metrics_for(o)] == [
        "rouge1", "rouge2", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]
    o, _ = parse_command_line(["-w", "1.20", "-2", "04", "-u"])  # printed as typed, scored as numbers
    assert [(m.name, m.method.name) for m in metrics_for(o)] == [
        ("ROUGE-L", "rougeLsum"), ("ROUGE-W-1.20", "rougeW-1.2"), ("ROUGE-SU04", "rougeSU4")]
    o, _ = parse_command_line(["-x", "-2", "-1", "-u", "-U"])
    assert [m.name for m in metrics_for(o)] == ["ROUGE-SU*"]
    o, _ = parse_command_line(["-3", "HMR1"])  # -3: no ROUGE-L, Basic Elements only
    assert [m.name for m in metrics_for(o)] == ["ROUGE-BE-HMR1"]


@pytest.mark.parametrize("argv, fragment", [
    (["-q"], "unknown option -q"),
    (["-n"], "requires a value"),
    (["-n", "x"], "expects an integer"),
    (["-l", "10", "-b", "75"], "not both"),
    (["-c", "101"], "within 0 and 100"),
    (["-p", "2"], "within 0 and 1"),
    (["-w", "0"], "from 1 to 5, got 0"),
    (["-w", "0.5"], "from 1 to 5, got 0.5"),  # scored above 1 (issue 14)
    (["-w", "1000"], "from 1 to 5, got 1000"),  # overflowed (issue 14)
    (["-w", "nan"], "from 1 to 5"),
    (["-n", "4000"], "from 1 to 1,000 (0: no ROUGE-N), got 4000"),
    (["-z", "XML"], "SEE, SPL, ISI, SIMPLE"),
    (["-3", "HX"], "expects one of H, HM, HMR, HM1, HMR1, HMR2"),
    (["-M"], "not supported"),
    (["-r", "0"], "at least 1"),
])
def test_bad_flags(argv, fragment):
    with pytest.raises(Rouge155Error) as err:
        parse_command_line(argv)
    assert fragment in err.value.message and err.value.exit_code == 2


def test_keywords_become_flags():
    argv = flags_to_argv("-n 2", stem=True, skip_distance=4, skip_unigrams=True, f="B", no_lcs=False)
    o, _ = parse_command_line(argv)
    assert (o.max_n, o.skip_distance, o.skip_unigrams, o.no_lcs) == (2, 4, True, False)
    assert (o.options.stemmer, o.options.multi_ref) == ("rouge155", "best-recall")


def test_scoring_flags_are_the_rouge155_profile():
    o, _ = parse_command_line(["-m", "-s", "-f", "B", "-p", "0.3", "-l", "10", "-e", "somewhere"])
    assert o.options == profile("rouge-1.5.5", stemmer="rouge155", stopwords="smart", multi_ref="best-recall",
                                alpha=0.3, limit_words=10, data_dir="somewhere")
    assert o.options.profile == "rouge-1.5.5"
    o, _ = parse_command_line(["-f", "C", "-b", "75"])  # the script reads anything but B as A
    assert (o.options.multi_ref, o.options.limit_bytes, o.options.limit_words) == ("pooled", 75, None)
    assert parse_command_line([])[0].options == profile("rouge-1.5.5")


def test_xml_config(tmp_path):
    cfg = tmp_path / "c.xml"
    cfg.write_text("""<ROUGE_EVAL version="1.0">
<EVAL ID="7"><PEER-ROOT>
  sys
</PEER-ROOT><MODEL-ROOT>ref</MODEL-ROOT><INPUT-FORMAT TYPE="spl"></INPUT-FORMAT>
<PEERS><P ID="b">p7.txt</P><P ID="a"> p7a.txt </P></PEERS>
<MODELS><M ID="Z">z.txt</M><M ID="A">a.txt</M></MODELS></EVAL>
</ROUGE_EVAL>""")
    c = read_xml_config(str(cfg))
    (ev,) = c.evaluations
    assert ev.eval_id == "7" and ev.input_format == "SPL" and c.peer_ids == ["b", "a"]
    assert ev.peer_path("a") == "sys/p7a.txt"
    assert ev.model_paths() == ["ref/z.txt", "ref/a.txt"]  # config order, not id order


@pytest.mark.parametrize("text, fragment", [
    ("<ROUGE_EVAL><EVAL ID='1'>", "malformed XML"),
    ("<ROUGE_EVAL><EVAL><INPUT-FORMAT TYPE='SPL'/></EVAL></ROUGE_EVAL>", "has no ID attribute"),
    ("<ROUGE_EVAL><EVAL ID='1'><INPUT-FORMAT TYPE='DOC'/></EVAL></ROUGE_EVAL>", "unknown input format"),
    ("<ROUGE_EVAL><EVAL ID='1'><MODELS><M ID='A'>a</M></MODELS></EVAL></ROUGE_EVAL>", "no <INPUT-FORMAT"),
    ("<ROUGE_EVAL></ROUGE_EVAL>", "no <EVAL> element"),
])
def test_bad_xml(tmp_path, text, fragment):
    cfg = tmp_path / "bad.xml"
    cfg.write_text(text)
    with pytest.raises(Rouge155Error) as err:
        read_xml_config(str(cfg))
    assert str(cfg) in err.value.message and fragment in err.value.message


def test_deeply_nested_xml_config(tmp_path, capsys):
    # issue 14: a recursive walk raised RecursionError; nesting is the file's to choose
    depth = 100_000
    eval_xml = ("<EVAL ID='1'><PEER-ROOT>p</PEER-ROOT><MODEL-ROOT>m</MODEL-ROOT><INPUT-FORMAT TYPE='SPL'/>"
                "<PEERS><P ID='S'>s.spl</P></PEERS><MODELS><M ID='A'>a.spl</M></MODELS></EVAL>")
    cfg = tmp_path / "deep.xml"
    cfg.write_text("<ROUGE_EVAL>" + "<x>" * depth + eval_xml + "</x>" * depth + "</ROUGE_EVAL>")
    (ev,) = read_xml_config(str(cfg)).evaluations
    assert ev.peer_path("S") == "p/s.spl" and ev.model_paths() == ["m/a.spl"]
    cfg.write_text("<ROUGE_EVAL>" + "<x>" * depth + "</x>" * depth + "</ROUGE_EVAL>")
    assert main(["-a", str(cfg)]) == 1
    assert capsys.readouterr().err == f"rouge155: error: {cfg}: no <EVAL> element found; is this a ROUGE configuration file?\n"


def test_list_config(tmp_path):
    lst = tmp_path / "l.lst"
    lst.write_text("# comment\n\n  p1.spl\tm1.spl m2.spl \np2.spl m3.spl\n")
    c = read_list_config(str(lst), "SPL", "X")
    assert [e.eval_id for e in c.evaluations] == ["1", "2"]
    assert c.evaluations[0].model_paths(listed=True) == ["m1.spl", "m2.spl"]
    assert list(c.evaluations[0].models) == ["M.1", "M.2"]
    lst.write_text("only-a-peer.spl\n")
    with pytest.raises(Rouge155Error, match="l.lst:1"):
        read_list_config(str(lst), "SPL", "X")


def test_readers():
    see = (b'<html>\n<a name="1">[1]</a> <a href="#1" id=1>First &amp; one.</a>\n'
           b'<a size="9" name="2">[2]</a> <a href="#2" id=2>Second</a>\nnoise\n')
    assert sentences_from_bytes(see, "SEE") == [b"First &amp; one.", b"Second"]
    assert sentences_from_bytes(b'<S SNTNO="1a">Hi there</S>\n', "ISI") == [b"Hi there"]
    assert sentences_from_bytes(b"a b\n\n  \nc\r\n", "SPL") == [b"a b", b"  ", b"c\r"]
    # SIMPLE: Basic Element lines without their newline (a last line without one counts)
    assert sentences_from_bytes(b"x|y|z\nA|NIL|nn", "SIMPLE") == [b"x|y|z", b"A|NIL|nn"]
    assert sentences_from_bytes(b"x|y|z\n\n", "SIMPLE") == [b"x|y|z", b""]


def cut(sentences, lcs_reader=False, word_limit=None, byte_limit=None):
    return _cut(sentences, profile("rouge-1.5.5", limit_words=word_limit, limit_bytes=byte_limit),
                lcs_reader=lcs_reader)


def test_word_limit_cuts_and_counts_raw_words():
    s = [b"one two, three", b" four five", b"six"]
    assert cut(s, word_limit=4) == ["one two, three", ""]  # leading space = a word
    assert cut(s, word_limit=5) == ["one two, three", " four"]
    assert cut(s, lcs_reader=True, word_limit=5) == cut(s, word_limit=5)
    assert cut(s, word_limit=3) == ["one two, three"]
    # Perl's \s is ASCII on bytes: the two bytes of U+00A0 join "a" and "b" into one word.
    assert cut([b"a\xc2\xa0b c d"], word_limit=2) == ["a\xc2\xa0b c"]
    # a leading space makes an empty first word, a trailing one none: three words, limit reached
    assert cut([b"  a b\t", b"c"], word_limit=3) == ["  a b"]
    assert cut([b"  a b\t", b"c"], word_limit=4) == ["  a b\t", "c"]


def test_byte_limit_and_its_lcs_defect():
    s = [b"abcdefghij", b"klmnopqrst", b"uvw"]
    assert cut(s, byte_limit=15) == ["abcdefghij", "klmno"]
    # readText_LCS never advances its byte counter: each sentence is compared with the limit.
    assert cut(s, lcs_reader=True, byte_limit=15) == ["abcdefghij", "klmnopqrst", "uvw"]
    assert cut(s, lcs_reader=True, byte_limit=10) == ["abcdefghij"]
    # bytes, not characters: a two-byte UTF-8 letter counts two
    assert cut([b"\xc3\xa9abc"], byte_limit=3) == ["\xc3\xa9a"]
