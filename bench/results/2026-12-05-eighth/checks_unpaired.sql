select count_if(reason_code not in ('unpaired_update_before', 'unpaired_update_after')) as c0, count(event_id) - count(distinct event_id) as c1 from cdc.unpaired_update_halves as checked_rows
