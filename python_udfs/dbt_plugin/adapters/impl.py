from __future__ import annotations

import hashlib
import json
import threading

from dbt.adapters.base.meta import available
from dbt.adapters.events.logging import AdapterLogger
from dbt.adapters.spark.connections import SparkConnectionMethod
from dbt.adapters.spark.impl import SparkAdapter
from dbt.adapters.spark_cdc.connections import SparkCdcConnectionManager, fit_codegen

from python_udfs.pipeline.sql_text import quoted_identifier

logger = AdapterLogger("SparkCdc")

# Input tables are created, shared and dropped under one lock: with dbt threads > 1 the two
# state models run side by side, and both would create (or drop) the one they share.
_INPUT_TABLES_LOCK = threading.Lock()
# Answers memoized per invocation that dbt's threads ask for at the same moment (dbt lists the
# schemas of its cache on its thread pool; two tests of one model start together): the first
# thread computes, the others wait for its answer instead of sending the same query again.
_LISTED_SCHEMAS_LOCK = threading.Lock()
_CHECKS_TOGETHER_LOCKS: dict[str, threading.Lock] = {}  # one per relation, made under:
_CHECKS_TOGETHER_LOCK = threading.Lock()
# The input tables held as local checkpoints behind temporary views (an embedded session):
# {relation: the checkpointed DataFrame}, so their release can free the checkpoint's blocks.
_CHECKPOINTED_INPUTS: dict = {}

# A local checkpoint in more partitions is copied into one per this many bytes (_fewer_partitions).
INPUT_PARTITION_BYTES = 16 * 1024 * 1024


def _fewer_partitions(spark, rows):
    """``rows`` (an eager local checkpoint) in as few partitions as its size needs, one per
    INPUT_PARTITION_BYTES: a batch's new changes come in a partition per group of staging
    files read (13-19 for 1,000 messages), and each of the state models' stages that reads
    them runs that many tasks of a few rows each, whose fixed costs outweigh the rows (each
    state model 0.2 s faster in paired warm watches: bench/results/2026-12-07-twenty-fifth/).
    The copy is one narrow pass over blocks already in memory; the first checkpoint is freed.
    Its size is the block manager's record (no job); unknown, the checkpoint stays as it is."""
    try:
        context = spark.sparkContext._jsc.sc()
        checkpoint = rows._jdf.queryExecution().analyzed().rdd()
        partitions = checkpoint.getNumPartitions()
        sizes = [info.memSize() + info.diskSize() for info in context.getRDDStorageInfo() if info.id() == checkpoint.id()]
        if partitions <= 1 or not sizes:
            return rows
        wanted = max(1, -(-sizes[0] // INPUT_PARTITION_BYTES))
        if wanted >= partitions:
            return rows
        fewer = rows.coalesce(wanted).localCheckpoint(eager=True)
        context.unpersistRDD(checkpoint.id(), False)
    except Exception as error:  # noqa: BLE001 - the checkpoint as it is reads the same rows
        logger.debug(f"checkpoint kept in its partitions ({error})")
        return rows
    logger.debug(f"checkpoint of {sizes[0]} bytes: {partitions} partitions made {wanted}")
    return fewer


# What Spark prints for a redacted value (spark.redaction.regex, spark.sql.redaction.options.regex).
REDACTED_VALUE = "*********(redacted)"


def parse_listed_table_properties(information: str) -> dict[str, str] | None:
    """The `Table Properties: [k=v, k=v]` line of a `show table extended` description
    (CatalogTable.toLinkedHashMap: sorted `key=value` items joined by ', '; no line when a
    table has none) as a dict, or None when it is ambiguous: an item without '=', a value
    that was redacted, or a line that does not end the list. Values holding ', ' would split
    wrongly; the project's own properties (digests, ids, marks) never do."""
    lines = [line for line in information.splitlines() if line.startswith("Table Properties: ")]
    if not lines:
        return {} if "\nType: " in "\n" + information else None
    if len(lines) > 1:
        return None
    text = lines[0][len("Table Properties: "):]
    if not (text.startswith("[") and text.endswith("]")):
        return None
    properties: dict[str, str] = {}
    for item in text[1:-1].split(", ") if text != "[]" else []:
        key, sep, value = item.partition("=")
        if not sep or not key or value == REDACTED_VALUE or key in properties:
            return None
        properties[key] = value
    return properties


class SparkCdcAdapter(SparkAdapter):
    """dbt-spark with UDF registration on connect, and recovery from half-created tables."""

    ConnectionManager = SparkCdcConnectionManager

    @classmethod
    def type(cls) -> str:
        return "spark_cdc"

    @classmethod
    def get_adapter_run_info(cls, config):  # type: ignore[no-untyped-def]
        # dbt derives a module name from the class name ("sparkcdc"); report as dbt-spark.
        return SparkAdapter.get_adapter_run_info.__func__(SparkAdapter, config)  # type: ignore[attr-defined]

    @available
    def cdc_code_version(self) -> str:
        """A digest of the code every model runs with: all macros dbt knows (the project's, this
        plugin's, dbt's own) and the project and command-line vars. A model skipped as
        unchanged (include/macros/skip_unchanged.sql) compares it with the one of its last run,
        so a project upgrade or other vars run the model again. Cached while the macros and vars stay the same.
        """
        resolver = self._macro_resolver
        macros = getattr(resolver, "macros", {}) if resolver is not None else {}
        project_vars = getattr(getattr(self.config, "vars", None), "vars", {})
        cli_vars = getattr(self.config, "cli_vars", {})
        settings = json.dumps([project_vars, cli_vars], sort_keys=True, default=str)
        # The adapter may outlive an invocation (dbt run in-process): key the cache on both.
        key = (id(macros), len(macros), settings)
        cached = getattr(self, "_cdc_code_version", None)
        if cached is None or cached[0] != key:
            digest = hashlib.sha256(settings.encode())
            for unique_id in sorted(macros):
                digest.update(unique_id.encode() + b"\0" + macros[unique_id].macro_sql.encode() + b"\0")
            cached = self._cdc_code_version = (key, digest.hexdigest()[:32])
        return cached[1]

    def list_schemas(self, database: str) -> list[str]:
        """dbt-spark's `show databases`, once per invocation: before a run dbt lists the schemas
        once per schema the run writes (four in a build, 0.1 s of a warm one), and Spark's
        answer ignores ``database``. A schema created or dropped through the adapter forgets
        the list (dbt itself never lists again after creating the schemas it needs)."""
        from dbt_common.invocation import get_invocation_id

        invocation = get_invocation_id()
        with _LISTED_SCHEMAS_LOCK:  # (dbt asks from several threads at once)
            listed = getattr(self, "_cdc_listed_schemas", None)
            if listed is None or listed[0] != invocation:
                listed = self._cdc_listed_schemas = (invocation, list(super().list_schemas(database)))
        return list(listed[1])

    def create_schema(self, relation) -> None:  # type: ignore[no-untyped-def]
        self._cdc_listed_schemas = None
        super().create_schema(relation)

    @available
    def cdc_list_relations(self, schema: str) -> list | None:
        """The tables and views of ``schema`` (each with its `show table extended`
        description, ``information``), or None when the schema does not exist (asked of the
        schemas listed once per invocation, list_schemas). Listed through dbt's list_relations,
        which keeps the listing in the relation cache for the rest of the invocation once dbt
        has populated it: the landing hook's listing then also answers every staging model's
        lookup of its landing table, which listed the landing schema again (dbt caches only
        the schemas a run writes). Temporary views (no schema) are left out."""
        if schema.lower() not in {name.lower() for name in self.list_schemas("")}:
            return None
        return [relation for relation in self.list_relations(None, schema) if relation.schema]

    @available
    def cdc_cache_created(self, relation) -> str:  # type: ignore[no-untyped-def]
        """Tell dbt's relation cache of a table created by a plain statement, when the cache
        holds its schema (cdc_list_relations put it there): else a lookup later in the
        invocation would not find the table. Without a description, its properties are read
        from the catalog. Returns ''."""
        if (None, relation.schema) in self.cache:
            self.cache.add(relation)
        return ""

    def drop_schema(self, relation) -> None:  # type: ignore[no-untyped-def]
        self._cdc_listed_schemas = None
        super().drop_schema(relation)

    @available
    def cdc_properties_cache(self, invocation_id: str) -> dict:
        """Table properties read during one dbt invocation, by relation name (shared by every
        node, so a build with nothing new reads each relation's versions once instead of once
        per node that depends on it). A model that runs drops its entry when it records a new
        version (cdc_record_inputs); a new invocation starts empty.
        """
        if getattr(self, "_cdc_properties_invocation", None) != invocation_id:
            self._cdc_properties_invocation = invocation_id
            self._cdc_properties = {}
            self._cdc_properties_changed = set()
        return self._cdc_properties

    @available
    def cdc_properties_changed(self, relation) -> str:  # type: ignore[no-untyped-def]
        """Note that this invocation changed ``relation``'s properties or data: from now on its
        properties are read with `show tblproperties`, never from the schema listing dbt made
        when the invocation started (cdc_listed_table_properties). Returns ''."""
        if not hasattr(self, "_cdc_properties_changed"):
            self._cdc_properties_changed = set()
        self._cdc_properties_changed.add(str(relation).lower())
        return ""

    @available
    def cdc_listed_table_properties(self, relation) -> dict[str, str] | None:  # type: ignore[no-untyped-def]
        """The table properties ``relation`` had when dbt listed its schema in this invocation
        (`show table extended`: dbt keeps each relation's description in its relation cache),
        so that a build reads the versions of every relation of a schema from one listing
        instead of one `show tblproperties` each. None (the caller then asks Spark) when the
        relation was not listed, when this invocation changed it since
        (cdc_properties_changed), or when the description cannot be read unambiguously."""
        if str(relation).lower() in getattr(self, "_cdc_properties_changed", set()):
            return None
        identifier = (relation.identifier or "").lower()
        try:
            listed = [r for r in self.cache.get_relations(relation.database, relation.schema)
                      if (r.identifier or "").lower() == identifier]
        except Exception:  # noqa: BLE001 - a cache it cannot read: ask Spark
            return None
        information = getattr(listed[0], "information", None) if len(listed) == 1 else None
        return parse_listed_table_properties(information) if information else None

    def _cdc_session(self):  # type: ignore[no-untyped-def]
        """The driver's Spark session, or None when the profile is not ``method: session``."""
        if self.config.credentials.method != SparkConnectionMethod.SESSION:
            return None
        from pyspark.sql import SparkSession

        # this thread's connection first: it starts the configured session (warehouse,
        # metastore), which getOrCreate then returns
        _ = self.connections.get_thread_connection().handle
        return SparkSession.builder.getOrCreate()

    def _cdc_session_for(self, relation):  # type: ignore[no-untyped-def]
        """The driver's Spark session for work on ``relation`` (a relation, or a name as SQL
        writes it) through the JVM, or None when the profile is not ``method: session`` or the
        relation has no schema and name."""
        if isinstance(relation, str) and "." not in relation:
            return None
        if not isinstance(relation, str) and (not relation.schema or not relation.identifier):
            return None
        return self._cdc_session()

    @available
    def cdc_read_table_properties(self, relation) -> dict[str, str] | None:  # type: ignore[no-untyped-def]
        """``relation``'s table properties now, as `show tblproperties` lists them, read from the
        session's catalog without a SQL statement (python_udfs/pipeline/table_properties.py:
        a third of the time, and no logged query). None (the caller then runs `show
        tblproperties`) when not ``method: session`` or the catalog cannot answer."""
        try:
            from python_udfs.pipeline.table_properties import read_table_properties

            spark = self._cdc_session_for(relation)
            if spark is None:
                return None
            return read_table_properties(spark, relation.schema, relation.identifier)
        except Exception as error:  # noqa: BLE001 - `show tblproperties` answers, or says what is wrong
            logger.debug(f"{relation}: properties not read from the catalog ({error})")
            return None

    @available
    def cdc_write_table_properties(self, relation, properties: dict, is_view: bool = False) -> bool:  # type: ignore[no-untyped-def]
        """Set ``properties`` (text keys and values) on ``relation`` (a relation, or its name as
        SQL writes it) as `alter table|view ... set
        tblproperties` does, by running that statement's command directly
        (python_udfs/pipeline/table_properties.py): nothing to parse, plan or post to the
        listeners. False (the caller then runs the statement) when not ``method: session`` or
        the command cannot run; it is written to dbt's debug log either way."""
        try:
            from python_udfs.pipeline.table_properties import write_table_properties

            spark = self._cdc_session_for(relation)
            if spark is None:
                return False
            write_table_properties(spark, str(relation), dict(properties), bool(is_view))
        except Exception as error:  # noqa: BLE001 - the statement writes them, or says what is wrong
            logger.debug(f"{relation}: properties not written through the catalog ({error})")
            return False
        logger.debug(f"{relation}: properties {sorted(properties)} written through the catalog")
        return True

    @available
    def cdc_already_passed_result(self, code: str = "cdc_already_passed", failures: int = 0):  # type: ignore[no-untyped-def]
        """The (response, table) a data test answered without its own query stores as its
        `main` result: one row, built here instead of by a Spark query (a `select 0` costs a
        job, about 0.07 s). ``code`` shows in run_results.json: ``cdc_already_passed`` (passed
        before on these versions, skip_unchanged.sql) or ``cdc_checked_together`` (counted 0
        with its model's other column checks, checks_together.sql). ``failures`` > 0 replays a
        warning remembered on these versions (code ``cdc_already_warned``): dbt reports it as
        the same WARN, or as a failure under ``--warn-error``.
        """
        import agate
        from dbt.adapters.contracts.connection import AdapterResponse

        failures = max(int(failures), 0)
        messages = {
            "cdc_already_passed": "PASS (already passed on these versions)",
            "cdc_already_warned": f"WARN {failures} (already warned on these versions)",
            "cdc_checked_together": "PASS (checked with the model's other column checks)",
        }
        if failures and code == "cdc_already_passed":
            code = "cdc_already_warned"
        table = agate.Table(
            [[failures, failures > 0, False]],
            ["failures", "should_warn", "should_error"],
            [agate.Number(), agate.Boolean(), agate.Boolean()],
        )
        return AdapterResponse(_message=messages[code], code=code), table

    @available
    def cdc_checks_cache(self, invocation_id: str) -> dict:
        """Violation counts of the column checks counted together (checks_together.sql), by
        relation name, then test unique_id; a new invocation starts empty."""
        if getattr(self, "_cdc_checks_invocation", None) != invocation_id:
            self._cdc_checks_invocation = invocation_id
            self._cdc_checks = {}
        return self._cdc_checks

    @available
    def cdc_invocation_notes(self, invocation_id: str) -> dict:
        """What nodes of one invocation note for its end (a data test's marks checked through,
        include/macros/checked_since.sql); a new invocation starts empty."""
        if getattr(self, "_cdc_notes_invocation", None) != invocation_id:
            self._cdc_notes_invocation = invocation_id
            self._cdc_notes = {}
        return self._cdc_notes

    @available
    def cdc_fit_codegen(self, invocation_id: str, format_id: str, messages, small_batch) -> bool:  # type: ignore[no-untyped-def]
        """Note that ``format_id``'s staging model reads ``messages`` new messages in this
        invocation (None: unknown, e.g. a full read or a user's own raw table), and fit Spark's
        generated code to the invocation's input so far: off while every staging model that ran
        knows its count and together they read fewer than ``small_batch`` messages; as the
        profile says otherwise. On a batch of a few thousand rows, compiling each statement's
        generated code costs more than it saves (docs/operations.md). Only for an in-process
        session (the `session` method). Returns whether generated code is now off."""
        if self.config.credentials.method != SparkConnectionMethod.SESSION:
            return False
        if getattr(self, "_cdc_codegen_invocation", None) != invocation_id:
            self._cdc_codegen_invocation = invocation_id
            self._cdc_new_messages: dict = {}
        self._cdc_new_messages[format_id] = None if messages is None else int(messages)
        counts = list(self._cdc_new_messages.values())
        total = sum(count for count in counts if count is not None)
        interpreted = None not in counts and total < int(small_batch)
        settings = fit_codegen(invocation_id, interpreted, self.config.credentials.server_side_parameters)
        if not settings:
            decision = "as CDC_WHOLE_STAGE_CODEGEN and CDC_CODEGEN_FACTORY_MODE say"
        else:
            decision = "off" if interpreted else "as the profile says"
        logger.debug(
            f"{format_id}: {messages if messages is not None else 'an unknown number of'} new messages; "
            f"generated code {decision} ({total} new messages known, small batch below {small_batch}): "
            f"{settings}"
        )
        return interpreted and bool(settings)

    @available
    def cdc_session_setting_is(self, key: str, value: str) -> bool:
        """Whether the in-process Spark session (the ``session`` method) has setting ``key`` at
        ``value`` (case ignored) already, so that a `set` statement would change nothing (one
        logged statement less per partitioned insert). False for other methods, or when the
        session cannot say: the caller then runs the statement."""
        try:
            spark = self._cdc_session()
            current = spark.conf.get(key, None) if spark is not None else None
        except Exception as error:  # noqa: BLE001 - the statement sets it
            logger.debug(f"setting {key} not read from the session ({error})")
            return False
        return current is not None and str(current).lower() == str(value).lower()

    @available
    def cdc_count_checks(self, relation: str, test_ids: list, query: str) -> None:
        """Run ``query`` (one count per test of ``test_ids``, in order) and file the counts
        under ``relation`` in the invocation's checks cache. A query that fails files nothing
        for those tests (each then runs its own SQL and reports its own error). Two tests of
        one model that start together (dbt threads) both ask: the second waits for the first's
        counts instead of running the query again."""
        with _CHECKS_TOGETHER_LOCK:
            lock = _CHECKS_TOGETHER_LOCKS.setdefault(relation, threading.Lock())
        with lock:  # (other models' checks go on meanwhile)
            if relation in self._cdc_checks:  # filed by another thread meanwhile
                return
            counts: dict = {}
            if test_ids:
                try:
                    _, table = self.execute(query, auto_begin=False, fetch=True)
                    row = table.rows[0]
                    counts = {test_id: int(row[index]) for index, test_id in enumerate(test_ids)}
                except Exception as error:  # noqa: BLE001 - the tests' own queries report it
                    logger.debug(f"{relation}: column checks together failed, each runs alone: {error}")
            self._cdc_checks[relation] = counts

    @available
    def cdc_create_input_table(
        self,
        schema: str,
        name: str,
        query: str,
        registry: dict,
        readers: list | None = None,
        sweep_prefix: str | None = None,
        shared: bool = False,
    ) -> str:
        """Compute ``query``'s rows once and return the quoted relation that holds them: the
        input a model's statement reads in several places (the project's
        macros/changelog/incremental_helpers.sql, statement_input_table). In a local session,
        a local checkpoint behind the temporary view ``name`` (_cdc_checkpoint_input);
        elsewhere the Parquet table ``schema.name``. Not ``CACHE TABLE``: Spark (4.3) does
        not use cached data in a query with a WITH clause, which every model has, so a cached
        view was computed again at every reference; a checkpoint's plan is its rows.

        ``readers``: the unique ids of the models that read the table (the caller's first):
        ``registry`` (the invocation's ``{relation: readers}``) records it until the last
        reader releases it (cdc_release_input_tables). None: the caller drops it.
        ``shared``: a table this invocation already created under ``name`` is returned as it
        is (else it is created again). ``sweep_prefix``: before creating a shared table, drop
        the tables of ``schema`` named with this prefix that this invocation does not hold
        (left by a killed run).
        """
        relation = f"{quoted_identifier(schema)}.{quoted_identifier(name)}"
        with _INPUT_TABLES_LOCK:
            for held in (quoted_identifier(name), relation):  # a checkpoint's view, or a table
                if shared and held in registry:
                    return held
            if shared and sweep_prefix:
                _, tables = self.execute(
                    f"show tables in {quoted_identifier(schema)} like '{sweep_prefix}*'", auto_begin=False, fetch=True
                )
                for row in tables.rows:
                    left = f"{quoted_identifier(schema)}.{quoted_identifier(row[1])}"
                    if not row[2] and left not in registry and left != relation:
                        logger.debug(f"dropping {left}, left by an interrupted run")
                        self.execute(f"drop table if exists {left}", auto_begin=False)
            checkpointed = self._cdc_checkpoint_input(name, query)
            if checkpointed is not None:
                relation = checkpointed
            else:
                self.execute(f"drop table if exists {relation}", auto_begin=False)
                self.execute(f"create table {relation} using parquet as {query}", auto_begin=False)
            if readers is not None:
                registry[relation] = list(readers)
        return relation

    def _cdc_checkpoint_input(self, name: str, query: str) -> str | None:
        """In a local session (the `embedded` target), ``query``'s rows as a local checkpoint
        (kept in the driver's block manager, spilled to its scratch folder when large) behind
        the temporary view ``name``; returns the quoted view name. Against a Parquet table it
        saves the write, the metastore's create and drop, and the read back (a batch's new
        changes, one loaded session, interleaved: 1.9-3.2 s against 3.8-8.0 s to create,
        0.01 s against 0.2-0.4 s to drop; bench/results/2026-12-03-partitions-from-folders/).
        None elsewhere (a cluster keeps the table: an executor lost would lose the
        checkpoint) or when Spark refuses it: the caller then writes the table."""
        if self.config.credentials.method != SparkConnectionMethod.SESSION:
            return None
        try:
            from pyspark.sql import SparkSession

            _ = self.connections.get_thread_connection().handle  # starts the configured session
            spark = SparkSession.builder.getOrCreate()
            if not spark.sparkContext.master.startswith("local"):
                return None
            view = quoted_identifier(name)
            logger.debug(f"input {view} computed as a local checkpoint of: {query}")
            rows = _fewer_partitions(spark, spark.sql(query).localCheckpoint(eager=True))
            rows.createOrReplaceTempView(name)
            _CHECKPOINTED_INPUTS[view] = rows
            return view
        except Exception as error:  # noqa: BLE001 - the table is written instead, with Spark's own error if it fails
            logger.debug(f"input {name} not checkpointed ({error}): written as a table")
            return None

    @available
    def cdc_release_input_tables(self, registry: dict, reader: str | None = None) -> None:
        """``reader`` has run: drop every shared input table of ``registry`` that no other
        model is still to read. ``reader`` None (on-run-end): drop every one still held (a
        reader skipped, failed or not selected)."""
        with _INPUT_TABLES_LOCK:
            for relation, readers in list(registry.items()):
                if reader in readers:
                    readers.remove(reader)
                if reader is None or not readers:
                    registry.pop(relation, None)
                    rows = _CHECKPOINTED_INPUTS.pop(relation, None)
                    if rows is None:
                        self.execute(f"drop table if exists {relation}", auto_begin=False)
                        continue
                    rows.sparkSession.catalog.dropTempView(relation.strip("`").replace("``", "`"))
                    # free the checkpoint's blocks now, not at the JVM's next collection; through
                    # the SparkContext, as RDD.unpersist warns on every checkpointed RDD (its
                    # lineage is gone, which is why it is released only when no reader is left)
                    try:
                        checkpoint = rows._jdf.queryExecution().analyzed().rdd()
                        rows.sparkSession.sparkContext._jsc.sc().unpersistRDD(checkpoint.id(), False)
                        logger.debug(f"input {relation} released: checkpoint rdd {checkpoint.id()} unpersisted")
                    except Exception as error:  # noqa: BLE001 - Spark's cleaner frees them later
                        logger.debug(f"{relation}: checkpoint blocks left to Spark's cleaner ({error})")

    @available
    def cdc_read_seed_rows(self, path: str) -> list:
        """The rows of a seed's CSV file, header first, every value as text (the seeds of
        this project are vocabularies: codes such as ``-7`` stay text). The on-run-start hook
        loads a seed table from them when it is missing or older than its file
        (include/macros/seeds.sql), so a plain ``dbt run`` needs no ``dbt seed`` first. A
        relative ``path`` is taken from the project's root.
        """
        import csv
        import os

        path = os.path.join(self.config.project_root, path)  # (an absolute path stays as it is)
        with open(path, newline="", encoding="utf-8") as handle:
            return [row for row in csv.reader(handle) if row]

    @available
    def cdc_stored_bytes(self, relation) -> int | None:  # type: ignore[no-untyped-def]
        """Bytes of the files under ``relation``'s location (a table's data), from the Hadoop
        file system's summary of the folder; None when unknown (not ``method: session``, no
        such table, a view, or the file system cannot say). The column checks of a large
        appended model join its new keys with its keys instead of counting every distinct
        key (checks_together.sql): on a small one, the extra query costs more than it saves."""
        try:
            spark = self._cdc_session_for(relation)
            if spark is None:
                return None
            jvm = spark._jvm  # type: ignore[attr-defined]
            session_state = spark._jsparkSession.sessionState()  # type: ignore[attr-defined]
            identifier = jvm.org.apache.spark.sql.catalyst.TableIdentifier(
                relation.identifier, jvm.scala.Option.apply(relation.schema)
            )
            table = session_state.catalog().getTableMetadata(identifier)
            if table.tableType().name() == "VIEW" or table.storage().locationUri().isEmpty():
                return None
            location = jvm.org.apache.hadoop.fs.Path(table.storage().locationUri().get())
            filesystem = location.getFileSystem(session_state.newHadoopConf())
            return int(filesystem.getContentSummary(location).getLength())
        except Exception as error:  # noqa: BLE001 - unknown size: the checks count every key
            logger.debug(f"{relation}: size unknown ({error})")
            return None

    @available
    def cdc_compact_small_files(self, relation, min_files: int, file_bytes: int) -> str:  # type: ignore[no-untyped-def]
        """Compact ``relation`` (an appended Parquet table) once it holds ``min_files`` small
        files: its rows written again as few files in a new folder, and the table switched
        there (python_udfs/pipeline/compaction.py). Returns what it did, '' when nothing.
        Only for ``method: session``. A failure is logged and changes nothing: the model's
        rows are already inserted, and its next run tries again."""
        spark = self._cdc_session_for(relation)
        if spark is None:
            return ""
        from python_udfs.pipeline.compaction import compact_small_files

        try:
            done = compact_small_files(
                spark, relation.schema, relation.identifier,
                min_files=int(min_files), file_bytes=int(file_bytes),
            )
        except Exception as error:  # noqa: BLE001 - the insert itself succeeded
            logger.warning(f"{relation}: compaction failed, tried again on its next run: {error}")
            return ""
        if done is None:
            return ""
        message = f"compacted {done.files_before} files into {done.files_after}"
        logger.debug(f"{relation}: {message} ({done.bytes} bytes, now at {done.location})")
        return message

    @available
    def clear_orphaned_table_location(self, relation) -> bool:  # type: ignore[no-untyped-def]
        """Delete the managed location of ``relation`` if files are there but no table is.

        Spark's CREATE TABLE AS writes the data files first and registers the table last, so a
        run killed in between leaves a directory that makes every later CREATE fail with
        LOCATION_ALREADY_EXISTS. The directory then belongs to no table and holds only the
        killed run's partial output, so removing it is what a rerun needs. Only for
        ``method: session`` (the driver's own Spark session); returns whether it deleted.
        """
        if self.config.credentials.method != SparkConnectionMethod.SESSION:
            return False
        from pyspark.sql import SparkSession

        if not relation.schema or not relation.identifier:
            return False
        # Open this thread's connection first: that starts the configured session (warehouse,
        # metastore), which getOrCreate then returns.
        _ = self.connections.get_thread_connection().handle
        spark = SparkSession.builder.getOrCreate()
        if spark.catalog.tableExists(f"`{relation.schema}`.`{relation.identifier}`"):
            return False
        jvm = spark._jvm  # type: ignore[attr-defined]
        session_state = spark._jsparkSession.sessionState()  # type: ignore[attr-defined]
        catalog = session_state.catalog()
        if not catalog.databaseExists(relation.schema):
            return False
        identifier = jvm.org.apache.spark.sql.catalyst.TableIdentifier(
            relation.identifier, jvm.scala.Option.apply(relation.schema)
        )
        location = jvm.org.apache.hadoop.fs.Path(catalog.defaultTablePath(identifier))
        filesystem = location.getFileSystem(session_state.newHadoopConf())
        if not filesystem.exists(location):
            return False
        logger.warning(
            f"{relation}: removing {location.toString()}, left by an interrupted run "
            "(files without a table)"
        )
        return bool(filesystem.delete(location, True))
