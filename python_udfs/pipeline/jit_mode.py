"""The JIT of a short-lived driver JVM: the quick compiler only for a small one-shot process.

HotSpot compiles hot code twice: at once with its quick compiler (C1), then again, optimized,
with C2, which on a 2-core machine competes with the work for the cores. A process that lands
and builds one small batch and exits ends before most of C2's work pays off. Measured on the
benchmark's 2-core machine, a fresh ``cdc-pipeline watch <folders> --max-batches 1`` on a
warehouse of 180 earlier batches, C1 only against the default (paired runs, medians):
1,000 messages 39.1 s against 47.0 s, 10,000 messages 45.1 against 51.5 s, 100,000 messages
81.7 against 91.4 s (bench/results/2026-12-07-twenty-fourth/). Long work keeps C2: on the
1M Canal staging query C1 alone took twice as long
(bench/results/2026-11-27-where-1m-canal-goes.md), and a watch that keeps running gains from
the code C2 compiles for its later batches.

So the CLI's one-shot commands that land files (``land``, ``watch --max-batches N``, ``demo``)
choose the quick JIT when the local files they are given hold fewer than ``QUICK_INPUT_BYTES``
(:func:`choose_for_input`; a choice of this process, not written to its environment, so no
process it starts inherits it), and the dbt adapter adds ``QUICK_OPTIONS`` to the driver JVM's
options as it starts the JVM (:func:`with_jit`). A process whose input it cannot measure
(a URI, a ``dbt`` command) keeps the default. ``CDC_JIT=quick`` asks for the quick JIT
anywhere (plain ``dbt run`` too), ``CDC_JIT=full`` never; a JIT option of the user's own in
``CDC_JVM_OPTIONS`` wins over both.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from .landing import is_uri, message_files

ENV = "CDC_JIT"
# C1 only; its code cache keeps the tiered size: C1 alone shrinks it to 48 MB, which a
# process that repaired a killed run and then rebuilt filled ("Out of space in CodeCache").
QUICK_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m"
# Options that say how the user wants the JIT: theirs is kept, nothing is added.
OWN_JIT_OPTIONS = ("TieredStopAtLevel", "TieredCompilation", "ReservedCodeCacheSize", "CompilationMode")
# Input below which a one-shot landing process runs the quick JIT: about 100,000 messages of
# the benchmark's mix (about 580 bytes each), where builds run without generated code too
# (codegen.SMALL_BATCH_MESSAGES).
QUICK_INPUT_BYTES = 64 * 1024 * 1024
# This process's own choice (choose_for_input); the user's CDC_JIT comes first.
_chosen: str | None = None


def jit_setting() -> str:
    """The JIT this process asks for: the user's ``CDC_JIT``, else this process's choice,
    else "" (the default, both tiers)."""
    return (os.environ.get(ENV) or _chosen or "").strip().lower()


def with_jit(java_options_value: str | None) -> str:
    """`spark.driver.extraJavaOptions` with ``QUICK_OPTIONS`` added when :func:`jit_setting`
    is ``quick`` (the user's ``CDC_JIT``, else this process's choice) and the options say
    nothing of the JIT yet."""
    current = java_options_value or ""
    if jit_setting() != "quick":
        return current
    if any(name in current for name in OWN_JIT_OPTIONS):
        return current
    return f"{current} {QUICK_OPTIONS}".strip()


def local_input_bytes(plan: Mapping[str, Iterable[Path | str]], limit: int) -> int | None:
    """The bytes of the message files a landing plan names (format id: its files, folders,
    globs), counted up to just past ``limit``; None when they cannot be counted here (a URI,
    a path that does not exist or cannot be read)."""
    total = 0
    for format_id, paths in plan.items():
        for given in paths:
            if is_uri(given):
                return None
            try:
                for path in message_files([given], format_id):
                    total += path.stat().st_size
                    if total >= limit:
                        return total
            except OSError:
                return None
    return total


def choose_for_input(plan: Mapping[str, Iterable[Path | str]], limit: int = QUICK_INPUT_BYTES) -> str | None:
    """For a one-shot process that lands ``plan`` (format id: its paths): choose the quick JIT
    when its files hold fewer than ``limit`` bytes. The user's ``CDC_JIT`` comes first.
    Returns the setting the process runs with (None: the default JIT)."""
    global _chosen
    if os.environ.get(ENV):
        return jit_setting()
    size = local_input_bytes(plan, limit)
    if size is not None and size < limit:
        _chosen = "quick"
        return _chosen
    return None
