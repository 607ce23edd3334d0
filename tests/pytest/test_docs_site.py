"""The dbt docs site: complete (no undocumented node) and rendering in a real browser.

Builds every model empty (``dbt run --empty``: real tables with their real columns, no rows)
so ``dbt docs generate`` has a catalog, then checks from ``manifest.json`` and
``catalog.json`` that every source, model, column, macro, macro argument, exposure and
singular data test of this project carries a description. The generated site is then served
on a free localhost port and opened in headless Chromium (Debian's ``chromium``, driven by
Playwright): the change_log page and the lineage graph must render, with the main models as
graph nodes. Screenshots go to tests/artifacts/docs-site/.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import threading
from pathlib import Path

import pytest

from .conftest import PROJECT_DIR

pytestmark = [pytest.mark.dbt, pytest.mark.slow]

PROJECT = "cdc_changelog"
ARTIFACTS = PROJECT_DIR / "tests" / "artifacts" / "docs-site"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MAIN_MODELS = [
    "stg_dataworks__events",
    "stg_datahub_tuple__events",
    "int_events_unioned",
    "change_log",
    "current_state",
    "row_history",
    "schema_changes",
    "quarantine",
]
# The flow the overview and the graph must show, as (parent, child) edges.
FLOW = [
    ("landing_dataworks.raw_dataworks", "stg_dataworks__events"),
    ("stg_dataworks__events", "int_events_unioned"),
    ("landing_datahub_tuple.raw_datahub_tuple", "stg_datahub_tuple__events"),
    ("stg_datahub_tuple__events", "int_events_unioned"),
    # change_log reads each format's staging model directly (pruned by its marks)
    ("stg_dataworks__events", "change_log"),
    ("stg_datahub_tuple__events", "change_log"),
    # the state models: views over their stored layers
    ("change_log", "int_current_state_layers"),
    ("int_current_state_layers", "current_state"),
    ("change_log", "int_row_history_layers"),
    ("int_row_history_layers", "row_history"),
]
MACRO_SIGNATURE = re.compile(r"{%-?\s*(?:macro|test)\s+(\w+)\s*\((.*?)\)\s*-?%}", re.S)


@pytest.fixture(scope="module")
def site(make_pipeline):
    """dbt docs generate on an empty build; returns (target dir, manifest, catalog)."""
    pipeline = make_pipeline("docs")
    pipeline.write_json = True  # the docs site reads target/manifest.json
    pipeline.dbt("run", "--empty")
    pipeline.dbt("docs", "generate")
    target = pipeline.work_dir / "target"
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    catalog = json.loads((target / "catalog.json").read_text(encoding="utf-8"))
    assert (target / "index.html").is_file()
    return target, manifest, catalog


def own(nodes: dict) -> dict:
    return {uid: node for uid, node in nodes.items() if node.get("package_name") == PROJECT}


def described(text: str | None) -> bool:
    return bool(text and text.strip()) and "{{" not in text


def macro_arguments(macro_sql: str) -> list[str]:
    """Parameter names of a macro (or generic test) from its signature."""
    match = MACRO_SIGNATURE.search(macro_sql)
    assert match, f"no macro signature in: {macro_sql[:120]}"
    return [part.split("=")[0].strip() for part in match.group(2).split(",") if part.strip()]


def test_every_node_is_documented(site):
    _, manifest, _ = site
    missing = []
    sources = own(manifest["sources"])
    models = {u: n for u, n in own(manifest["nodes"]).items() if n["resource_type"] == "model"}
    assert len(models) >= 10 and len(sources) >= 2
    for uid, node in {**sources, **models}.items():
        if not described(node["description"]):
            missing.append(uid)
        if uid in sources and not described(node.get("source_description")):
            missing.append(f"{uid} (source {node['source_name']})")
        assert node["columns"], f"{uid} has no documented columns"
        missing += [
            f"{uid}.{name}"
            for name, col in node["columns"].items()
            if not described(col["description"])
        ]
    singular_tests = {
        u: n
        for u, n in own(manifest["nodes"]).items()
        if n["resource_type"] == "test" and not n.get("test_metadata")
    }
    assert singular_tests
    missing += [uid for uid, node in singular_tests.items() if not described(node["description"])]
    macros = own(manifest["macros"])
    assert len(macros) >= 40
    for uid, macro in macros.items():
        if not described(macro["description"]):
            missing.append(uid)
        documented = {a["name"]: a for a in macro["arguments"]}
        for name in macro_arguments(macro["macro_sql"]):
            if name not in documented or not described(documented[name].get("description")):
                missing.append(f"{uid}({name})")
        missing += [
            f"{uid}({name}): not a parameter"
            for name in documented
            if name not in macro_arguments(macro["macro_sql"])
        ]
    exposures = own(manifest["exposures"])
    assert exposures
    missing += [uid for uid, node in exposures.items() if not described(node["description"])]
    assert not missing, "undocumented in the YAML:\n" + "\n".join(missing)


def test_catalog_columns_are_documented(site):
    _, manifest, catalog = site
    assert not catalog.get("errors")
    expected = {
        uid
        for uid, node in own(manifest["nodes"]).items()
        if node["resource_type"] == "model" and node["config"]["materialized"] != "ephemeral"
    }
    assert expected <= set(catalog["nodes"]), (
        f"not in the catalog: {sorted(expected - set(catalog['nodes']))}"
    )
    enabled_sources = {
        f"source.{PROJECT}.landing_dataworks.raw_dataworks",
        f"source.{PROJECT}.landing_datahub_tuple.raw_datahub_tuple",
    }
    assert enabled_sources <= set(catalog["sources"])
    missing = []
    for kind in ("nodes", "sources"):
        for uid, entry in catalog[kind].items():
            node = manifest[kind][uid]
            documented = {name.lower(): col for name, col in node["columns"].items()}
            assert entry["columns"], f"{uid}: no columns in the catalog"
            for name in entry["columns"]:
                col = documented.get(name.lower())
                if col is None or not described(col["description"]):
                    missing.append(f"{uid}.{name}")
    assert not missing, "columns in the warehouse without a description:\n" + "\n".join(missing)


def test_overview_and_exposures_explain_the_flow(site):
    _, manifest, _ = site
    overview = manifest["docs"][f"doc.{PROJECT}.__overview__"]["block_contents"]
    for name in [
        "landing_<format>.raw_<format>",
        "stg_<format>__events",
        "int_events_unioned",
        "change_log",
        "current_state",
        "row_history",
        "schema_changes",
        "quarantine",
        "stream_progress",
    ]:
        assert name in overview, f"the overview does not mention {name}"
    consumed = {
        parent.rsplit(".", 1)[-1]
        for exposure in own(manifest["exposures"]).values()
        for parent in exposure["depends_on"]["nodes"]
    }
    assert {"current_state", "row_history", "change_log"} <= consumed


# --- the site in a real browser ---------------------------------------------------------


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass


@pytest.fixture(scope="module")
def served_site(site):
    target = site[0]
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(target))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(served_site, tmp_path_factory):
    """Headless Chromium with a fresh profile; only the local site may be fetched."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            "Chromium is missing: install Debian's package (apt-get install -y chromium, or make chromium)"
        )
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1400, "height": 900},
        )
        # dbt docs loads an analytics script from the internet: keep the test offline
        context.route(
            "**/*",
            lambda route: (
                route.continue_() if route.request.url.startswith(served_site) else route.abort()
            ),
        )
        context.set_default_timeout(90_000)
        yield context
        context.close()


def open_page(browser, url: str):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, wait_until="networkidle")
    return page, errors


def open_graph(page) -> dict:
    """Click "View Lineage Graph"; return the visible nodes and edges as cytoscape draws them."""
    page.click("[ng-click='onLauncherClick()']")
    page.wait_for_function(
        "() => { const el = document.querySelector('#cy');"
        " return el && el._cyreg && el._cyreg.cy && el._cyreg.cy.nodes(':visible').length > 0; }"
    )
    page.wait_for_timeout(1500)  # the layout animation
    return page.evaluate(
        """() => {
            const container = document.querySelector('#cy');
            const cy = container._cyreg.cy;
            const box = {w: container.clientWidth, h: container.clientHeight};
            const nodes = cy.nodes(':visible').map(n => {
                const b = n.renderedBoundingBox();
                return {label: n.data('label'), on_screen: b.x1 >= 0 && b.y1 >= 0 && b.x2 <= box.w && b.y2 <= box.h};
            });
            const edges = cy.edges(':visible').map(e => [e.source().data('label'), e.target().data('label')]);
            const canvases = Array.from(container.querySelectorAll('canvas')).map(c => [c.width, c.height]);
            return {nodes, edges, canvases, box};
        }"""
    )


def assert_graph_drawn(graph: dict) -> None:
    # the model page opens the graph as a sidebar (about 320 px wide), the overview full width
    assert graph["box"]["w"] >= 250 and graph["box"]["h"] >= 300, graph["box"]
    assert graph["canvases"] and all(w > 0 and h > 0 for w, h in graph["canvases"]), graph[
        "canvases"
    ]
    off_screen = [n["label"] for n in graph["nodes"] if not n["on_screen"]]
    assert not off_screen, f"nodes drawn outside the graph: {off_screen}"


def test_change_log_page_renders(browser, served_site, site):
    page, errors = open_page(browser, served_site + f"#!/model/model.{PROJECT}.change_log")
    page.wait_for_selector("text=The canonical change log")
    body = page.inner_text("body")
    for text in ["change_log", "change_id", "sort_key", "Deterministic, unique id of a row change"]:
        assert text in body, f"{text!r} not on the change_log page"
    for model in ["change_log", "current_state", "row_history", "schema_changes", "quarantine"]:
        assert page.locator(f"a:has-text('{model}')").count() > 0, (
            f"{model} missing from the sidebar"
        )
    page.screenshot(path=str(ARTIFACTS / "change_log.png"), full_page=True)

    graph = open_graph(page)
    page.screenshot(path=str(ARTIFACTS / "change_log_lineage.png"))
    labels = {n["label"] for n in graph["nodes"]}
    # the model's graph: its direct parents and children (the state models' stored layers), exposures included
    assert {
        "stg_dataworks__events",
        "int_update_halves_paired",
        "change_log",
        "int_current_state_layers",
        "int_row_history_layers",
        "Table history and point-in-time queries",
    } <= labels
    assert_graph_drawn(graph)
    assert not errors, errors
    page.close()


def test_lineage_graph_renders_every_node(browser, served_site, site):
    _, manifest, _ = site
    page, errors = open_page(browser, served_site + "#!/overview")
    page.wait_for_selector("text=many CDC formats, one change log")
    page.screenshot(path=str(ARTIFACTS / "overview.png"), full_page=True)
    graph = open_graph(page)
    page.screenshot(path=str(ARTIFACTS / "lineage_graph.png"))
    labels = {n["label"] for n in graph["nodes"]}
    models = {n["name"] for n in own(manifest["nodes"]).values() if n["resource_type"] == "model"}
    sources = {f"{n['source_name']}.{n['name']}" for n in own(manifest["sources"]).values()}
    exposures = {n["label"] for n in own(manifest["exposures"]).values()}
    assert set(MAIN_MODELS) <= models
    for kind, expected in [("models", models), ("sources", sources), ("exposures", exposures)]:
        assert expected <= labels, f"{kind} missing from the graph: {sorted(expected - labels)}"
    edges = {tuple(edge) for edge in graph["edges"]}
    assert set(FLOW) <= edges, f"flow edges missing: {sorted(set(FLOW) - edges)}"
    assert_graph_drawn(graph)
    assert not errors, errors
    page.close()
