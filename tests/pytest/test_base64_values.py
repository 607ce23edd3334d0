from __future__ import annotations

import base64

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from python_udfs.decoders.base64_values import decode_base64
from python_udfs.spark_udfs import base64_batch


def test_java_base64_of_utf8_text():
    # the example of seed 000: Base64.getEncoder().encodeToString("测试text123".getBytes("UTF-8"))
    encoded = base64.b64encode("测试text123".encode()).decode()
    assert decode_base64(encoded) == ("测试text123".encode(), "测试text123", None)


def test_binary_bytes_have_no_text():
    raw, text, error = decode_base64("/w==")
    assert raw == b"\xff" and text is None and error is None


@pytest.mark.parametrize("value", ["5rWL6K-VdGV4dDEyMw", "5rWL6K+VdGV4dDEyMw"])
def test_url_safe_and_unpadded_are_accepted(value):
    assert decode_base64(value)[1] == "测试text123"


@pytest.mark.parametrize("value", ["ab!c", "a", "=====", "abc$"])
def test_invalid_base64_is_an_error_value(value):
    raw, text, error = decode_base64(value)
    assert raw is None and text is None and error.startswith("invalid_base64")


def test_null_stays_null():
    assert decode_base64(None) == (None, None, None)


@given(st.binary(max_size=200))
def test_round_trip(data):
    assert decode_base64(base64.b64encode(data).decode())[0] == data


_BASE64_LIKE = st.one_of(
    st.binary(max_size=40).map(lambda b: base64.b64encode(b).decode()),
    st.binary(max_size=40).map(lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")),
    st.text(alphabet="ABCxyz019+/-_= \n!", max_size=12),
    st.none(),
)


@settings(deadline=None)  # timing is not the point; a loaded CI machine varies
@given(st.lists(_BASE64_LIKE, max_size=30))
def test_the_arrow_batch_agrees_with_the_pure_function(values):
    """The UDF's batch fast path (one a2b per value, one UTF-8 check per batch) gives exactly
    what decode_base64 gives for each value, binary and invalid values included."""
    rows = base64_batch(pa.array(values, pa.string())).to_pylist()
    expected = [decode_base64(value) for value in values]
    assert [(r["value_bytes"], r["value_text"], r["error"]) for r in rows] == expected
