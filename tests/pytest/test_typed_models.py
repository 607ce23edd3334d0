"""Typed per-table models: the bundled store.products model (Canal sample) has real Spark
types, follows schema changes (added column appears, dropped column hidden), flags values
that do not convert; type mapping for every canonical type; the model writer."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from pyspark.sql import SparkSession

from python_udfs.pipeline.typed_models import (
    check_model_sql,
    model_name,
    model_sql,
    write_typed_models,
)

from .conftest import PROJECT_DIR

pytestmark = pytest.mark.dbt

SAMPLE = (PROJECT_DIR / "samples" / "canal" / "store_products.jsonl").read_text(encoding="utf-8").splitlines()
TYPES = {"id": "int(11)", "name": "varchar(64)", "price": "decimal(10,2)", "stock": "int(11)",
         "updated_at": "datetime(3)", "color": "varchar(16)", "weight": "double"}


def products(type_, rows, *, es, id_, sql=""):
    columns = {c for r in rows or [] for c in r}
    return json.dumps({
        "data": rows, "old": None, "database": "store", "table": "products", "es": es, "id": id_,
        "isDdl": type_ in ("ALTER",), "pkNames": None if sql else ["id"], "sql": sql,
        "mysqlType": {c: TYPES[c] for c in columns} or None, "sqlType": None, "ts": es, "type": type_,
    })


@pytest.fixture(scope="module")
def pipeline(make_pipeline):
    pipeline = make_pipeline("typed", {"cdc_formats": ["canal"]})
    pipeline.land("canal", SAMPLE, "sample.jsonl")
    pipeline.build()
    return pipeline


def typed_rows(pipeline):
    spark = SparkSession.builder.getOrCreate()
    frame = spark.table(f"{pipeline.schema}_typed.typed__store__products")
    return {f.name: f.dataType.simpleString() for f in frame.schema.fields}, [
        r.asDict() for r in frame.orderBy("id").collect()
    ]


def test_live_rows_have_real_types(pipeline):
    types, rows = typed_rows(pipeline)
    assert types == {
        "id": "int", "color": "string", "name": "string", "price": "decimal(10,2)", "stock": "int",
        "updated_at": "timestamp", "_row_key": "string", "_last_operation": "string",
        "_committed_at": "timestamp", "_sort_key": "string", "_uncastable_columns": "array<string>",
    }
    assert list(types)[:2] == ["id", "color"]  # key first, then by name
    # the sample ends with 101 updated, 102 deleted, 103 updated, 104 inserted with `color`
    live = {r["id"]: r for r in rows}
    state = pipeline.sql("select row_key from {s}.current_state where table_id = 'store.products' and not is_deleted")
    assert sorted(live) == sorted(int(r["row_key"]) for r in state)
    assert 102 not in live and str(live[101]["price"]) == "3.20"
    assert live[104]["color"] == "purple" and live[101]["color"] is None
    assert str(live[101]["updated_at"]) == "2023-11-14 22:16:30.250000"
    assert all(r["_uncastable_columns"] == [] for r in rows)


def test_columns_follow_schema_changes_and_bad_values_are_flagged(pipeline):
    base = 1_700_001_000_000
    pipeline.land("canal", [
        products("ALTER", None, es=base, id_=200, sql="ALTER TABLE products ADD COLUMN weight double"),
        products("INSERT", [{"id": "105", "name": "fig", "price": "1.10", "stock": "9",
                             "updated_at": "2023-11-15 08:00:00.000", "weight": "0.25"}], es=base + 10, id_=201),
        # color dropped at the source: the only row that had it is rewritten without it
        products("ALTER", None, es=base + 20, id_=202, sql="ALTER TABLE products DROP COLUMN color"),
        products("UPDATE", [{"id": "104", "name": "plum", "price": "4.10", "stock": "39",
                             "updated_at": "2023-11-15 08:01:00.000"}], es=base + 30, id_=203),
    ])
    pipeline.build()
    types, rows = typed_rows(pipeline)
    assert types["weight"] == "double" and "color" not in types
    assert {r["id"]: r["weight"] for r in rows}[105] == 0.25

    pipeline.land("canal", [
        products("INSERT", [{"id": "106", "name": "kiwi", "price": "cheap", "stock": "1",
                             "updated_at": "2023-11-15 08:02:00.000"}], es=base + 40, id_=204),
    ])
    result = pipeline.dbt("build")  # a warning, the build goes on
    warned = {r.node.name for r in result.result if str(r.status) == "warn"}
    assert any(name.startswith("typed_values_all_converted_typed__store__products") for name in warned), warned
    _, rows = typed_rows(pipeline)
    kiwi = next(r for r in rows if r["id"] == 106)
    assert kiwi["price"] is None and kiwi["_uncastable_columns"] == ["price"]


def test_type_mapping_of_every_canonical_type(pipeline):
    cases = {
        # canonical type: (text, expected Spark value as text)
        "bigint": ("9007199254740993", "9007199254740993"),
        "bigint unsigned": ("18446744073709551615", "18446744073709551615"),
        "int(11)": ("-7", "-7"),
        "tinyint(1)": ("1", "1"),
        "double": ("1.5E300", "1.5E300"),
        "float": ("0.5", "0.5"),
        "boolean": ("true", "true"),
        "decimal(38,10)": ("12345678901234567890123456.0123456789", "12345678901234567890123456.0123456789"),
        "number(12,2)": ("10.25", "10.25"),
        "date": ("2024-02-29", "2024-02-29"),
        "timestamp": ("2024-01-01 00:00:00.123", "2024-01-01 00:00:00.123"),
        "datetime(3)": ("2024-01-01 23:59:59.999", "2024-01-01 23:59:59.999"),
        "binary": ("aGVsbG8=", "hello"),
        "varchar(10)": ("x y", "x y"),
        "time": ("10:11:12", "10:11:12"),
        "decimal": ("1.000000000000000000000000000000000000001", "1.000000000000000000000000000000000000001"),
    }
    selects = []
    for index, (type_, (text, _)) in enumerate(cases.items()):
        literal = "'" + text.replace("'", "\\'") + "'"
        selects.append(
            f"cast({{{{ typed_value(\"{literal}\", '{type_}') }}}} as string) as c{index}, "
            f"'{{{{ typed_spark_type('{type_}') }}}}' as t{index}"
        )
    result = pipeline.dbt("compile", "--inline", "select " + ", ".join(selects))
    sql = result.result.results[0].node.compiled_code
    row = SparkSession.builder.getOrCreate().sql(sql).first()
    for index, (type_, (_, expected)) in enumerate(cases.items()):
        value = row[f"c{index}"]  # binary cast to string reads its bytes as UTF-8
        assert value == expected, (type_, row[f"t{index}"], value)
    spark_types = [row[f"t{i}"] for i in range(len(cases))]
    assert spark_types == ["bigint", "decimal(20,0)", "int", "int", "double", "float", "boolean",
                           "decimal(38,10)", "decimal(12,2)", "date", "timestamp", "timestamp",
                           "binary", "string", "string", "string"]


def test_model_names_live_in_their_own_namespace_and_never_collide():
    assert model_name("store.products") == "typed__store__products"
    assert model_name("change_log") == "typed__change_log"
    lossy = {t: model_name(t) for t in ["shop.Order-Items", "shop.order-items", "shop.order_items ", "1db.t\x07",
                                         "shop.order__items", "shop.Order_Items", "店.表", "a.b.c", "a.b_c", "x" * 500]}
    assert model_name("shop.order_items") == "typed__shop__order_items"
    assert all(n.startswith("typed__") and re.fullmatch("[a-z0-9_]+", n) and len(n) <= 100 for n in lossy.values())
    assert len(set(lossy.values())) == len(lossy) and "typed__shop__order_items" not in lossy.values()
    assert lossy["shop.Order-Items"].startswith("typed__shop__order_items___")
    assert lossy["a.b.c"] == "typed__a__b__c" and lossy["a.b_c"] == "typed__a__b_c"
    assert model_name("shop.Order-Items") == lossy["shop.Order-Items"]  # stable: a hash of the exact id


def test_table_ids_reach_the_model_file_as_escaped_literals():
    for table_id in ["store.products", "{{ env_var('HOME') }}.t", "a'b\\c\n{% endraw %}", "bell\x07.表🙂", "${env:HOME}"]:
        sql = model_sql(table_id)
        assert re.fullmatch(r"\{\{ typed_current_state\('[A-Za-z0-9_.\\-]*'\) \}\}\n", sql), sql
        check_model_sql(sql, table_id)  # Jinja reads the literal back as the exact table_id
    assert model_sql("store.products") == "{{ typed_current_state('store.products') }}\n"


def test_model_writer_writes_one_line_models_with_documented_columns(pipeline, tmp_path):
    spark = SparkSession.builder.getOrCreate()
    models = write_typed_models(spark, pipeline.schema, tmp_path, None)
    written = {m.table_id: m for m in models}
    assert "store.products" in written and "store.categories" in written
    model = written["store.products"]
    assert (tmp_path / "typed__store__products.sql").read_text() == "{{ typed_current_state('store.products') }}\n"
    spec = yaml.safe_load((tmp_path / "typed__store__products.yml").read_text())["models"][0]
    names = [c["name"] for c in spec["columns"]]
    assert names[0] == "id" and "weight" in names and "_uncastable_columns" in names
    assert model.columns[0] == ("id", "int(11)", True)
    # a second call leaves existing files alone
    (tmp_path / "typed__store__products.sql").write_text("-- edited\n")
    again = {m.table_id: m for m in write_typed_models(spark, pipeline.schema, tmp_path, ["store.products"])}
    assert not again["store.products"].written
    assert (tmp_path / "typed__store__products.sql").read_text() == "-- edited\n"


def test_table_as_of_a_time_from_row_history(pipeline):
    def as_of(ts):
        result = pipeline.dbt("compile", "--inline",
                              f"select * from ({{{{ table_as_of('store.products', \"timestamp'{ts}'\") }}}})")
        sql = result.result.results[0].node.compiled_code
        rows = SparkSession.builder.getOrCreate().sql(sql).collect()
        return {r["row_key"]: r["row_image"].get("price") for r in rows}

    # sample: 101-103 inserted 22:14:20, 101 repriced 22:16:50.250, 102 deleted 22:23:20
    assert as_of("2023-11-14 22:14:00") == {}
    assert as_of("2023-11-14 22:15:00") == {"101": "3.50", "102": "2.80", "103": "12.90"}
    assert as_of("2023-11-14 22:16:50.250")["101"] == "3.20"  # valid_from is inclusive
    assert as_of("2023-11-14 22:16:50.249")["101"] == "3.50"
    assert "102" not in as_of("2030-01-01 00:00:00")


def test_column_names_from_data_stay_names(pipeline):
    """A source column named with a backtick, a quote or SQL text is one typed column."""
    odd = {"id": "1", "back`tick": "b", 'we"ird': "w", "x`) as y, (select 1": "s"}
    pipeline.land("canal", [json.dumps({
        "data": [odd], "old": None, "database": "store", "table": "odd", "es": 1_700_002_000_000,
        "id": 300, "isDdl": False, "pkNames": ["id"], "sql": "", "ts": 1_700_002_000_000, "type": "INSERT",
        "mysqlType": {"id": "int(11)", "back`tick": "varchar(8)", 'we"ird': "varchar(8)", "x`) as y, (select 1": "varchar(8)"},
        "sqlType": None,
    })])
    pipeline.build()
    result = pipeline.dbt("compile", "--inline", "{{ typed_current_state('store.odd') }}")
    frame = SparkSession.builder.getOrCreate().sql(result.result.results[0].node.compiled_code)
    row = frame.first().asDict()
    assert {name: row[name] for name in odd} == {**odd, "id": 1}
