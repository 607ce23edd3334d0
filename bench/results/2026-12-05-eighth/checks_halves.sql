select count_if(pair_id is null) as c0, count(pair_id) - count(distinct pair_id) as c1 from cdc_staging.int_update_halves_paired as checked_rows
