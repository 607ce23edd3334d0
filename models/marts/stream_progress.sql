{{ config(materialized='view') }}

-- One row per source stream (format + stream name): how far it has got and how fresh it is.
-- Heartbeats count as proof of life, so a quiet but healthy stream is not reported stale.
-- A view: the freshness is measured when it is queried, so it grows between builds (and the
-- counts table it reads is skipped by a build with nothing new).
select
    progress.*,
    cast(unix_micros(current_timestamp()) - unix_micros(progress.source_alive_at) as double) / 1e6
        as seconds_since_source_alive
from {{ ref('int_stream_progress') }} as progress
