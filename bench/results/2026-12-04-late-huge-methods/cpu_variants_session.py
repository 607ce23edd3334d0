"""The embedded settings of ../2026-12-03-night-one-shuffle/ab_compiled_sql.py, plus JVM_EXTRA
(environment): extra driver JVM options."""
import os

from pyspark.sql import SparkSession


def session(local_dir: str) -> SparkSession:
    """The settings of ../2026-12-03-night-one-shuffle/ab_compiled_sql.py, plus JVM_EXTRA."""
    java_options = f"-Dderby.system.home={local_dir} -XX:+UseParallelGC {os.environ.get('JVM_EXTRA', '')}"
    spark = (
        SparkSession.builder.enableHiveSupport()
        .master("local[2]")
        .config("spark.driver.memory", "8g")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.sql.adaptive.enabled", "true")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.mapKeyDedupPolicy", "LAST_WIN")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.warehouse.dir", f"{local_dir}/warehouse")
        .config("spark.hadoop.javax.jdo.option.ConnectionURL",
                f"jdbc:derby:;databaseName={local_dir}/metastore_db;create=true")
        .config("spark.driver.extraJavaOptions", java_options.strip())
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark
