with  __dbt__cte__int_events_unioned as (




select * from bench_staging.stg_dataworks__events
union all

select * from bench_staging.stg_datahub_tuple__events
union all

select * from bench_staging.stg_canal__events
union all

select * from bench_staging.stg_debezium__events
union all

select * from bench_staging.stg_shareplex__events


), halves as (
    select * from __dbt__cte__int_events_unioned
    where event_class = 'update_half'
),

touched_groups as (
    select distinct
        source_format,
        table_id,
        pairing_key
    from halves
    where (
            (halves.source_format = 'shareplex' and halves.landed_at <= timestamp'2026-11-28 06:16:22.666971') or
            (halves.source_format = 'debezium' and halves.landed_at <= timestamp'2026-11-28 06:16:19.170200') or
            (halves.source_format = 'canal' and halves.landed_at <= timestamp'2026-11-28 06:16:14.791194') or
            (halves.source_format = 'datahub_tuple' and halves.landed_at <= timestamp'2026-11-28 06:16:11.107942') or
            (halves.source_format = 'dataworks' and halves.landed_at <= timestamp'2026-11-28 06:16:00.241467') or
            halves.source_format not in ('shareplex', 'debezium', 'canal', 'datahub_tuple', 'dataworks')
            or halves.source_format is null
        )
),

candidate_halves as (
    select /*+ broadcast(touched_groups) */ halves.*
    from halves
    left semi join touched_groups
        on halves.source_format = touched_groups.source_format
        and halves.table_id = touched_groups.table_id
        and halves.pairing_key = touched_groups.pairing_key
),



ranked_halves as (
    select
        positioned.*,
        dense_rank() over (
            partition by source_format, table_id, pairing_key, operation
            order by position_order, coalesce(source_position, '')
        ) as pair_ordinal
    from (
        select
            candidate_halves.*,
            min(sort_key) over (
                partition by source_format, table_id, pairing_key, operation, coalesce(source_position, '')
            ) as position_order
        from candidate_halves
    ) as positioned
),


grouped as (
    select
        source_format,
        table_id,
        pairing_key,
        pair_ordinal,
        min_by(struct(ranked_halves.*), sort_key) filter (where operation = 'update_after') as after_half,
        min_by(struct(ranked_halves.*), sort_key) filter (where operation = 'update_before') as before_half
    from ranked_halves
    group by source_format, table_id, pairing_key, pair_ordinal
),

paired as (
    select
        after_half.*,
        before_half.before as paired_before,
        before_half.event_id as before_event_id,
        greatest(after_half.landed_at, before_half.landed_at) as pair_landed_at
    from grouped
    where after_half is not null
        and before_half is not null
),

updates as (
    select
        sha2(concat_ws(':', event_id, coalesce(before_event_id, '')), 256) as pair_id,
        event_id,
        cast(null as string) as change_id,
        message_id,
        row_index,
        source_format,
        'change' as event_class,
        quarantine_reason,
        vendor_operation,
        'update' as operation,
        source_system,
        source_database,
        source_schema,
        source_table,
        table_id,
        primary_key_columns,
        row_key,
        case
            when case
        when primary_key_columns is null or size(primary_key_columns) = 0 or paired_before is null then null
        when size(primary_key_columns) = 1 then case
        when array_contains(map_keys(paired_before), element_at(primary_key_columns, 1)) then paired_before[element_at(primary_key_columns, 1)]
        else try_element_at(
            transform(
                sort_array(map_entries(map_filter(paired_before, (image_column__, image_value__) -> lower(image_column__) = lower(element_at(primary_key_columns, 1))))),
                image_entry__ -> image_entry__.value
            ),
            1
        )
    end
        when exists(primary_key_columns, key_column__ -> case
        when array_contains(map_keys(paired_before), key_column__) then paired_before[key_column__]
        else try_element_at(
            transform(
                sort_array(map_entries(map_filter(paired_before, (image_column__, image_value__) -> lower(image_column__) = lower(key_column__)))),
                image_entry__ -> image_entry__.value
            ),
            1
        )
    end is null) then null
        else to_json(transform(primary_key_columns, key_column__ -> case
        when array_contains(map_keys(paired_before), key_column__) then paired_before[key_column__]
        else try_element_at(
            transform(
                sort_array(map_entries(map_filter(paired_before, (image_column__, image_value__) -> lower(image_column__) = lower(key_column__)))),
                image_entry__ -> image_entry__.value
            ),
            1
        )
    end))
    end <> row_key
                then case
        when primary_key_columns is null or size(primary_key_columns) = 0 or paired_before is null then null
        when size(primary_key_columns) = 1 then case
        when array_contains(map_keys(paired_before), element_at(primary_key_columns, 1)) then paired_before[element_at(primary_key_columns, 1)]
        else try_element_at(
            transform(
                sort_array(map_entries(map_filter(paired_before, (image_column__, image_value__) -> lower(image_column__) = lower(element_at(primary_key_columns, 1))))),
                image_entry__ -> image_entry__.value
            ),
            1
        )
    end
        when exists(primary_key_columns, key_column__ -> case
        when array_contains(map_keys(paired_before), key_column__) then paired_before[key_column__]
        else try_element_at(
            transform(
                sort_array(map_entries(map_filter(paired_before, (image_column__, image_value__) -> lower(image_column__) = lower(key_column__)))),
                image_entry__ -> image_entry__.value
            ),
            1
        )
    end is null) then null
        else to_json(transform(primary_key_columns, key_column__ -> case
        when array_contains(map_keys(paired_before), key_column__) then paired_before[key_column__]
        else try_element_at(
            transform(
                sort_array(map_entries(map_filter(paired_before, (image_column__, image_value__) -> lower(image_column__) = lower(key_column__)))),
                image_entry__ -> image_entry__.value
            ),
            1
        )
    end))
    end
            when row_key_kind = 'row_hash' and paired_before is not null
                and sha2(to_json(sort_array(map_entries(paired_before))), 256) <> row_key
                then sha2(to_json(sort_array(map_entries(paired_before))), 256)
        end as previous_row_key,
        row_key_kind,
        paired_before as before,
        after,
        after_is_partial,
        column_types,
        committed_at,
        captured_at,
        source_position,
        sort_key,
        transaction_id,
        pairing_key,
        ddl_text,
        ddl_meta,
        source_metadata,
        raw_value,
        raw_relation,
        stream_name,
        origin,
        origin_partition,
        origin_offset,
        pair_landed_at as landed_at,
        landing_batch_id
    from paired
),

new_updates as (
    select deduplicated.*
    from (
        select
            updates.*,
            row_number() over (partition by pair_id order by landed_at) as row_rank
        from updates
    ) as deduplicated
    where deduplicated.row_rank = 1
)

select
    pair_id,
    
    cast(new_updates.event_id as string) as event_id,
    case when new_updates.event_class = 'change' then sha2(concat_ws('\u0001',
        source_format,
        coalesce(table_id, ''),
        coalesce(source_position, ''),
        cast(row_index as string),
        operation,
        coalesce(row_key, ''),
        coalesce(to_json(sort_array(map_entries(case when operation = 'delete' then before else after end))), '')
    ), 256) end as change_id,
    cast(new_updates.message_id as string) as message_id,
    cast(new_updates.row_index as int) as row_index,
    cast(new_updates.source_format as string) as source_format,
    cast(new_updates.event_class as string) as event_class,
    cast(new_updates.quarantine_reason as string) as quarantine_reason,
    cast(new_updates.vendor_operation as string) as vendor_operation,
    cast(new_updates.operation as string) as operation,
    cast(new_updates.source_system as string) as source_system,
    cast(new_updates.source_database as string) as source_database,
    cast(new_updates.source_schema as string) as source_schema,
    cast(new_updates.source_table as string) as source_table,
    cast(new_updates.table_id as string) as table_id,
    cast(new_updates.primary_key_columns as array<string>) as primary_key_columns,
    cast(new_updates.row_key as string) as row_key,
    cast(new_updates.previous_row_key as string) as previous_row_key,
    cast(new_updates.row_key_kind as string) as row_key_kind,
    cast(new_updates.before as map<string,string>) as before,
    cast(new_updates.after as map<string,string>) as after,
    cast(new_updates.after_is_partial as boolean) as after_is_partial,
    cast(new_updates.column_types as map<string,string>) as column_types,
    cast(new_updates.committed_at as timestamp) as committed_at,
    cast(new_updates.captured_at as timestamp) as captured_at,
    cast(new_updates.source_position as string) as source_position,
    cast(new_updates.sort_key as string) as sort_key,
    cast(new_updates.transaction_id as string) as transaction_id,
    cast(new_updates.pairing_key as string) as pairing_key,
    cast(new_updates.ddl_text as string) as ddl_text,
    cast(new_updates.ddl_meta as string) as ddl_meta,
    cast(new_updates.source_metadata as map<string,string>) as source_metadata,
    cast(new_updates.raw_value as string) as raw_value,
    cast(new_updates.raw_relation as string) as raw_relation,
    cast(new_updates.stream_name as string) as stream_name,
    cast(new_updates.origin as string) as origin,
    cast(new_updates.origin_partition as int) as origin_partition,
    cast(new_updates.origin_offset as bigint) as origin_offset,
    cast(new_updates.landed_at as timestamp) as landed_at,
    cast(new_updates.landing_batch_id as string) as landing_batch_id

from new_updates
  