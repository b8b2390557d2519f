"""Meaning without words: CPU milliseconds per sentence of the numpy all-MiniLM-L6-v2 encoder, one BLAS thread.

A turn that is offered meaning without words encodes its message once (the options' texts are encoded once per
flow, then kept); this measures that encoding, and one whole choice among a slot's values. It needs the model
(``fsmdial models fetch minilm``) and the ``meaning`` extra; without them it skips.

One thread: ``OPENBLAS_NUM_THREADS=1`` (and the OpenMP/MKL equivalents) is set here before numpy is imported,
when this file is the first to import it (``python benches/bench_meaning.py`` always; under pytest when run
alone). The CPU time of the process is the cost reported (on a shared machine the wall clock mostly measures
the queue for a core).

    python benches/bench_meaning.py                         # CPU ms per sentence: p50, p90, mean
    pytest benches/bench_meaning.py --benchmark-only
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import statistics  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402

from fsmdial.model_catalogue import fetch_command, locate  # noqa: E402

SENTENCES = (
    "its an electric one",
    "need my brakes looked at",
    "I'm looking for a one way flight",
    "the clutch on my van is slipping, need it booked in asap",
    "theres water coming thru the kitchen ceilng",
    "Hello, I need someone to look at a leaking radiator valve, I'm at 5 Elmete Close, Leeds LS8 2LD",
    "could you show me some attractions? I'd like to find one without an entry fee",
    "I'd rather have a 4 star hotel with Wi-Fi",
    "please play it on the speaker in the kitchen",
    "hi my boiler keeps loosing presure",
)

pytestmark = pytest.mark.skipif(locate("minilm") is None, reason=f"run `{fetch_command('minilm')}`")


def _encoder():
    pytest.importorskip("tokenizers", reason="needs the meaning extra")
    from fsmdial.understand.meaning.encoder import Encoder

    found = locate("minilm")
    assert found is not None
    return Encoder(found)


def cpu_ms_per_sentence(encoder, rounds: int = 5) -> list[float]:
    """CPU ms of each encoding of each sentence, ``rounds`` times over (after one warm-up pass)."""
    for text in SENTENCES:
        encoder.encode(text)
    times = []
    for _ in range(rounds):
        for text in SENTENCES:
            started = time.process_time()
            encoder.encode(text)
            times.append(1000 * (time.process_time() - started))
    return times


def test_encode_one_message(benchmark):
    encoder = _encoder()
    benchmark.pedantic(lambda: [encoder.encode(text) for text in SENTENCES], rounds=3, warmup_rounds=1)
    times = cpu_ms_per_sentence(encoder, rounds=2)
    benchmark.extra_info.update(
        cpu_ms_p50=round(statistics.median(times), 2),
        sentences=len(SENTENCES),
        blas_threads=os.environ.get("OPENBLAS_NUM_THREADS"),
    )


def test_choose_a_value(benchmark):
    from fsmdial.flow import Slot
    from fsmdial.understand.base import UnderstandingState
    from fsmdial.understand.meaning.chooser import MeaningChooser
    from fsmdial.understand.meaning.options import value_options

    chooser = MeaningChooser(_encoder())
    job = Slot(
        name="job",
        type="categorical",
        values=["boiler repair", "boiler service", "leak", "blocked drain"],
        description="What the engineer is booked for (boiler repair: boiler broken, no heating; boiler service: "
        "annual service; leak: leaking pipe, burst pipe, water coming through the ceiling; blocked drain: blocked "
        "sink, blocked toilet)",
    )
    options = value_options(UnderstandingState("heating", "ask_job", (), (job,), asked="job"))
    chooser.choose("warm-up", options)  # the options' vectors: once per flow
    picked = benchmark(chooser.choose, "theres water coming thru the kitchen ceilng", options)
    assert picked is not None and picked.option.name == "leak"


if __name__ == "__main__":
    encoder = _encoder()
    measured = cpu_ms_per_sentence(encoder)
    ordered = sorted(measured)
    print(
        f"numpy all-MiniLM-L6-v2, {len(SENTENCES)} sentences x 5, OPENBLAS_NUM_THREADS="
        f"{os.environ['OPENBLAS_NUM_THREADS']}: CPU ms per sentence p50 {statistics.median(measured):.1f}, "
        f"p90 {ordered[int(0.9 * (len(ordered) - 1))]:.1f}, mean {statistics.mean(measured):.1f}"
    )
