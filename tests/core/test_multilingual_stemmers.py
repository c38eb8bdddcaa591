"""Which of XL-Sum's stemmers can run on this machine (the app offers only those)."""

import sys

from rouge_core.text.multilingual import stemmer_installed


def test_a_stemmer_whose_package_is_missing_is_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "TurkishStemmer", None)  # as if the [multilingual] extra were not installed
    assert not stemmer_installed("xlsum-turkish")
    assert stemmer_installed("xlsum-hindi") and stemmer_installed("xlsum-porter")  # ours and NLTK's need nothing more


def test_the_app_offers_only_stemmers_that_run_here():
    from lens_app.settings import STEMMERS
    from rouge_core.text.stemming import get_stemmer

    for name in STEMMERS:
        if name != "none":
            assert get_stemmer(name) is not None
    assert all(stemmer_installed(s) for s in STEMMERS if s.startswith("xlsum-"))
