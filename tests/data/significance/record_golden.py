"""Recorded the paired tests' outputs of the resample-by-resample loops (main at e3d8baa, before
the bulk path), one file per way Python's sum() adds floats:

    python tests/data/significance/record_golden.py paired_tests_plain_sum.json        # CPython 3.11
    python3.13 tests/data/significance/record_golden.py paired_tests_compensated_sum.json

tests/core/test_significance_bulk.py reads the files and `series` (the inputs, regenerated)."""
import json, random, sys
from rouge_core.corpora.significance import paired_bootstrap, approximate_randomization

def series(n, seed, kind):
    rng = random.Random(seed)
    if kind == "uniform":
        a = [rng.random() for _ in range(n)]; b = [x - 0.02 + rng.random() * 0.05 for x in a]
    elif kind == "ties":
        a = [rng.choice([0.0, 0.25, 0.5, 1.0]) for _ in range(n)]; b = [rng.choice([0.0, 0.25, 0.5]) for _ in range(n)]
    elif kind == "rouge":  # F-measures of small counts
        a = [2 * h / (h + rng.randint(1, 9) + 5) for h in (rng.randint(0, 5) for _ in range(n))]
        b = [2 * h / (h + rng.randint(1, 9) + 5) for h in (rng.randint(0, 5) for _ in range(n))]
    else:  # identical but for one pair
        a = [rng.random() for _ in range(n)]; b = list(a); b[0] = a[0] - 0.1
    return a, b

def enc(o):
    if isinstance(o, float): return {"float": o.hex()}
    if isinstance(o, dict): return {k: enc(v) for k, v in o.items()}
    if isinstance(o, list): return [enc(v) for v in o]
    return o


# Only as a script: tests/core/test_significance_bulk.py imports this file for `series` (under
# `pytest -q` its sys.argv[1] would name the output file).
if __name__ == "__main__":
    cases = []
    for n in (1, 2, 3, 7, 20, 21, 64, 257, 1000):
        for kind in ("uniform", "ties", "rouge", "onediff"):
            for seed in (0, 3):
                for resamples in (1, 17, 200):
                    a, b = series(n, seed * 31 + n, kind)
                    calls = []
                    for conf, eff in ((None, False), (95, False), (90, True)):
                        prog = []
                        r = paired_bootstrap(a, b, resamples, seed, confidence=conf, effect=eff,
                                             progress=lambda d, t: prog.append([d, t]))
                        calls.append({"test": "bootstrap", "confidence": conf, "effect": eff, "result": r.as_dict()})
                    for exact in (None, False):
                        prog = []
                        r = approximate_randomization(a, b, resamples, seed, exact,
                                                      progress=lambda d, t: prog.append([d, t]))
                        calls.append({"test": "permutation", "exact": exact, "result": r.as_dict()})
                    cases.append({"series": [n, seed * 31 + n, kind], "resamples": resamples, "seed": seed,
                                  "calls": calls})
    # exact enumeration of larger n
    for n in (10, 14):
        a, b = series(n, n, "rouge")
        r = approximate_randomization(a, b, 2**n, 5)
        cases.append({"series": [n, n, "rouge"], "resamples": 2**n, "seed": 5,
                      "calls": [{"test": "permutation", "exact": None, "result": r.as_dict()}]})

    json.dump({"python": sys.version.split()[0], "cases": enc(cases)}, open(sys.argv[1], "w"), separators=(",", ":"))
    print(len(cases), "cases", file=sys.stderr)
