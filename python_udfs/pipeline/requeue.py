"""Re-process quarantined messages after a fix (``cdc-pipeline requeue``).

Quarantine keeps every message it sets aside. Once the cause is fixed (a parser fix, a
missing ``cdc_primary_keys`` entry, ``cdc_canal_legacy_layout`` for an old DTS instance), the
messages still open in ``quarantine_open`` are landed again, unchanged, as a new landing
batch: origin ``requeue/<batch>/<first origin>``, the same partition and offset (lineage to
the first landing stays readable). The next ``dbt build`` treats them as new messages; the
first copy stays in ``quarantine`` as the record of what arrived, and leaves
``quarantine_open``. Changes the first copy already produced are not doubled: a change has
the same ``change_id`` however often it is delivered.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .landing import latest_landed_at, next_landing_time, record_committed_batch
from .sql_text import sql_text

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


@dataclass
class RequeueResult:
    batch_id: str
    messages: dict[str, int] = field(default_factory=dict)  # format id -> messages re-landed
    reasons: dict[tuple[str, str], int] = field(default_factory=dict)  # (format, reason) -> rows
    skipped_formats: list[str] = field(default_factory=list)  # read from a user's own table


def requeue_quarantined(
    spark: SparkSession,
    *,
    schema: str,
    landing_schema: str,
    user_table_formats: set[str] = frozenset(),
    formats: list[str] | None = None,
    reasons: list[str] | None = None,
) -> RequeueResult:
    """Land the raw messages of open quarantine rows again; returns what was re-landed."""
    result = RequeueResult(uuid.uuid4().hex)
    filters = ["true"]
    if formats:
        filters.append(f"source_format in ({', '.join(sql_text(f) for f in formats)})")
    if reasons:
        filters.append(f"reason_code in ({', '.join(sql_text(r) for r in reasons)})")
    open_rows = spark.sql(
        f"""select source_format, reason_code, raw_relation, message_id, count(*) as n
            from {schema}.quarantine_open where {' and '.join(filters)}
            group by all"""
    ).collect()
    for row in open_rows:
        key = (row["source_format"], row["reason_code"])
        result.reasons[key] = result.reasons.get(key, 0) + row["n"]
    by_relation: dict[tuple[str, str], set[str]] = {}
    for row in open_rows:
        by_relation.setdefault((row["source_format"], row["raw_relation"]), set()).add(row["message_id"])

    for (format_id, raw_relation), message_ids in sorted(by_relation.items()):
        table = f"{landing_schema}.raw_{format_id}"
        if format_id in user_table_formats or raw_relation != table:
            # The format reads the user's own raw table: re-produce the messages upstream.
            result.skipped_formats.append(format_id)
            continue
        landed_at = next_landing_time(latest_landed_at(spark, table))  # landing time only grows
        spark.createDataFrame([(m,) for m in sorted(message_ids)], "message_id string") \
            .createOrReplaceTempView("cdc_requeue_messages")
        copies = spark.sql(
            f"""
            select
                raw_value,
                stream_name,
                concat('requeue/', {sql_text(result.batch_id)}, '/',
                       regexp_replace(origin, '^requeue/[^/]+/', '')) as origin,
                origin_partition,
                origin_offset,
                origin_timestamp,
                timestamp {sql_text(landed_at.isoformat(sep=' '))} as landed_at,
                {sql_text(result.batch_id)} as landing_batch_id,
                message_key
            from {table} as landed
            left semi join cdc_requeue_messages as wanted
                on sha2(concat_ws('|', {sql_text(table)}, landed.origin,
                                  cast(landed.origin_partition as string),
                                  cast(landed.origin_offset as string)), 256) = wanted.message_id
            """
        ).cache()
        result.messages[format_id] = copies.count()
        if result.messages[format_id]:
            copies.write.insertInto(table)
            record_committed_batch(spark, table, landed_at)
        copies.unpersist()
        spark.catalog.dropTempView("cdc_requeue_messages")
    return result
