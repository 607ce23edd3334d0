select count(event_id) - count(distinct event_id) as c0, count_if((event_id) is null) as c1 from cdc_staging.int_rekeyed_changes as checked_rows
