"""The text `from_json` (map<string, string>) and VARIANT (`cast(variant as string)`, as the
Debezium staging reads values) give for JSON numbers and nested values; prints SAME or DIFF.

    .venv/bin/python bench/results/2026-12-04-night-variant-paths/from_json_numbers.py
"""
from pyspark.sql import SparkSession

spark = (SparkSession.builder.master("local[1]").config("spark.sql.session.timeZone", "UTC")
         .config("spark.sql.mapKeyDedupPolicy", "LAST_WIN").config("spark.ui.enabled", "false").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
VALUES = ["1.0e3", "1.50", "12345678901234567890123", "-0.0", "-0", "0.0", "1E2", "100", "1e400", "1e-7", "0.1",
          "3.141592653589793238462643383279", "123456789012345678901234567890123456789012", "0.000001",
          "1234567.0", "12345678.9", "1.0E7", "true", '"a\\u00e9\\n"', '["a","b"]', "[1.50, -0.0, 2]",
          '{"z":1,"a":2}', '[{"b":1,"a":"x"}]']
rows = [(i, '{"op":"c","after":{"k":%s}}' % v) for i, v in enumerate(VALUES)]
spark.createDataFrame(rows, "i int, j string").createOrReplaceTempView("t")
for r in spark.sql("""
    select j,
        from_json(j, 'struct<after: map<string, string>>').after['k'] as by_from_json,
        transform_values(try_variant_get(try_parse_json(j), '$.after', 'map<string, variant>'),
                         (k, x) -> cast(x as string))['k'] as by_variant
    from t order by i""").collect():
    print("SAME" if r.by_from_json == r.by_variant else "DIFF", r.j, "|", r.by_from_json, "|", r.by_variant)
