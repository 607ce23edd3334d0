import sys, shutil, tempfile
from pathlib import Path
from python_udfs.pipeline.jvm_archive import WORKLOAD, LOG_OPTIONS
def _dump(target: Path) -> int:
    """Start Spark with -XX:ArchiveClassesAtExit=target, run WORKLOAD, wait for the JVM's exit."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession
    from pyspark.sql.functions import pandas_udf

    work = Path(tempfile.mkdtemp(prefix="cdc-jvm-archive-"))
    try:
        spark = (
            SparkSession.builder.master("local[2]")
            .enableHiveSupport()
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.warehouse.dir", str(work / "warehouse"))
            .config("spark.local.dir", str(work / "tmp"))
            .config(
                "spark.hadoop.javax.jdo.option.ConnectionURL",
                f"jdbc:derby:;databaseName={work}/metastore_db;create=true",
            )
            .config("spark.sql.sources.partitionOverwriteMode", "dynamic")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .config(
                "spark.driver.extraJavaOptions",
                f"-Dderby.system.home={work} -XX:AOTCacheOutput={target} -XX:+UseParallelGC {LOG_OPTIONS}",
            )
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")

        @pandas_udf("string")  # type: ignore[call-overload]
        def upper(values):  # an Arrow (pandas) UDF, like the project's decoders
            return values.str.upper()

        spark.udf.register("cdc_archive_upper", upper)
        for codegen in ("true", "false"):
            spark.conf.set("spark.sql.codegen.wholeStage", codegen)
            spark.conf.set(
                "spark.sql.codegen.factoryMode", "FALLBACK" if codegen == "true" else "NO_CODEGEN"
            )
            spark.sql("drop database if exists cdc_archive cascade")
            for statement in WORKLOAD:
                spark.sql(statement).collect()
            spark.sql("select cdc_archive_upper(name) from cdc_archive.events").collect()
        gateway = SparkContext._gateway
        process = getattr(gateway, "proc", None)
        spark.stop()
        if gateway is not None:
            gateway.shutdown()
        if process is not None:
            # the JVM writes the archive as it exits: wait for it (stdin closed = exit)
            process.stdin.close()
            process.wait(timeout=600)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if target.is_file() and target.stat().st_size > 0 else 1



print(_dump(Path(sys.argv[1])))
