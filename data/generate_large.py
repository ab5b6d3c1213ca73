"""Write the benchmark CSV: the course file's columns, scaled up to a million rows.

The file is shaped like the course data so the benchmark measures what a real course would pay:
documents are contiguous, each target re-reads every candidate of its document, the target is also
one of its own candidates (role ``current_token``), and a candidate keeps one vector within its
document (so the document baseline is meaningful). Tokens are two or three Hangul syllables, so
the text columns cost what Korean text costs in UTF-8 (three bytes a character).

Everything is drawn from one seeded numpy generator and written by pyarrow's CSV writer, so the
same arguments always give the same bytes and a million rows take about a second.

    python data/generate_large.py                      # 1,000 × 10 × 100 = 1,000,000 rows
    python data/generate_large.py --documents 10       # 10,000 rows
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

HEADER = (
    "document_id,target_token,candidate_token,candidate_role,"
    "evidence_pack,evidence_cap,evidence_action,score"
)
VECTOR_COLUMNS = ("evidence_pack", "evidence_cap", "evidence_action")
ROLES = (
    "equipment",
    "prior_action",
    "missing_object",
    "missing_action",
    "risk_question",
    "pump_equipment",
    "pressure_signal",
    "risk_state",
    "restart_decision",
    "coolant_system",
    "flow_signal",
    "alarm_state",
    "requested_action",
    "other_reference",
)
CURRENT_ROLE = "current_token"
GENERATED = Path(__file__).resolve().parent / "generated"


def default_path(documents: int, targets: int, candidates: int) -> Path:
    """One file per shape, so shrunken benchmark runs never overwrite the full-size file."""
    return GENERATED / f"self-attention-large-{documents}x{targets}x{candidates}.csv"


def _vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    """Distinct two- and three-syllable Hangul words (no commas or quotes, so no CSV quoting)."""
    syllables = np.arange(0xAC00, 0xD7A4)
    words: dict[str, None] = {}
    while len(words) < size:
        lengths = rng.integers(2, 4, size=size)
        picks = rng.choice(syllables, size=(size, 3))
        for length, row in zip(lengths, picks, strict=True):
            words["".join(map(chr, row[:length]))] = None
            if len(words) == size:
                break
    return list(words)


def generate(
    path: Path,
    *,
    documents: int = 1000,
    targets: int = 10,
    candidates: int = 100,
    vocabulary: int = 5000,
    seed: int = 13,
) -> int:
    """Write the CSV to ``path`` and return its number of data rows."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    if not 1 <= targets <= candidates:
        raise ValueError("need 1 <= targets <= candidates (every target is also a candidate)")
    if candidates > vocabulary:
        raise ValueError("the vocabulary must hold at least one document's candidates")
    rng = np.random.default_rng(seed)
    words = pa.array(_vocabulary(vocabulary, rng), type=pa.string())

    # Each document draws its own distinct candidates; its first ``targets`` are the targets.
    doc_words = np.argpartition(rng.random((documents, vocabulary)), candidates - 1, axis=1)
    doc_words = doc_words[:, :candidates]
    doc_roles = rng.integers(0, len(ROLES), size=(documents, candidates))
    doc_vectors = _rounded(rng.random((documents, candidates, len(VECTOR_COLUMNS))))

    shape = (documents, targets, candidates)
    doc = np.broadcast_to(np.arange(documents)[:, None, None], shape).ravel()
    tgt = np.broadcast_to(np.arange(targets)[None, :, None], shape).ravel()
    cand = np.broadcast_to(np.arange(candidates)[None, None, :], shape).ravel()
    role = doc_roles[doc, cand]
    role[tgt == cand] = len(ROLES)
    scores = _rounded(rng.normal(1.0, 0.8, size=doc.shape[0]))

    names = pa.array([f"memo_{i:05d}" for i in range(documents)], type=pa.string())
    role_names = pa.array([*ROLES, CURRENT_ROLE], type=pa.string())
    columns: dict[str, pa.Array] = {
        "document_id": pc.take(names, pa.array(doc)),
        "target_token": pc.take(words, pa.array(doc_words[doc, tgt])),
        "candidate_token": pc.take(words, pa.array(doc_words[doc, cand])),
        "candidate_role": pc.take(role_names, pa.array(role)),
    }
    for j, name in enumerate(VECTOR_COLUMNS):
        columns[name] = pa.array(doc_vectors[doc, cand, j])
    columns["score"] = pa.array(scores)

    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as handle:
        handle.write((HEADER + "\n").encode())
        options = pacsv.WriteOptions(include_header=False, quoting_style="none")
        pacsv.write_csv(pa.table(columns), handle, options)
    partial.replace(path)  # a killed run never leaves a truncated file the benchmark would trust
    return int(doc.shape[0])


def _rounded(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    # Two decimals like the course data; "+ 0.0" turns -0.0 into 0.0 so no "-0" is written.
    return np.round(values, 2) + 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--targets", type=int, default=10)
    parser.add_argument("--candidates", type=int, default=100)
    parser.add_argument("--vocabulary", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, help="default: data/generated/<shape>.csv")
    args = parser.parse_args(argv)
    path = args.out or default_path(args.documents, args.targets, args.candidates)
    rows = generate(
        path,
        documents=args.documents,
        targets=args.targets,
        candidates=args.candidates,
        vocabulary=args.vocabulary,
        seed=args.seed,
    )
    print(f"{path}: {rows:,} rows, {path.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
