"""``examples/quickstart.ipynb`` runs top to bottom in a real Jupyter kernel and shows tables."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "quickstart.ipynb"

pytestmark = pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("nbclient", "nbformat", "ipykernel")),
    reason="nbclient, nbformat and ipykernel (the `notebook` extra) are not installed",
)


def _corpus_landed() -> bool:
    from citeverify.citations import CaseCitation, parse
    from citeverify.providers import default_provider

    return isinstance(parse("410 U.S. 113"), CaseCitation) and default_provider().name == "local"


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The notebook after running every cell in a fresh kernel (skipped if none can start)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    workdir = tmp_path_factory.mktemp("notebook")
    with pytest.MonkeyPatch.context() as patch:
        # The kernel is a new process: make the checkout importable there too.
        paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        patch.setenv("PYTHONPATH", os.pathsep.join(paths))
        client = NotebookClient(
            notebook,
            timeout=120,
            kernel_name="python3",
            resources={"metadata": {"path": str(workdir)}},
        )
        try:
            client.execute()
        except CellExecutionError:
            raise
        except Exception as exc:  # the kernel itself could not start here
            pytest.skip(f"no Jupyter kernel could start: {type(exc).__name__}: {exc}")
    return notebook


def _html_outputs(notebook: Any) -> list[str]:
    return [
        output["data"]["text/html"]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if "text/html" in output.get("data", {})
    ]


class TestQuickstart:
    """The quickstart notebook, executed."""

    def test_runs_without_errors(self, executed: Any) -> None:
        """Every code cell ran, and none produced an error output."""
        for cell in executed.cells:
            if cell.cell_type != "code":
                continue
            assert cell.execution_count is not None
            assert all(o["output_type"] != "error" for o in cell.outputs), cell.source

    def test_response_and_result_render_as_tables(self, executed: Any) -> None:
        """The response, a single result and a parse result each display as an HTML table."""
        html = _html_outputs(executed)
        assert len(html) >= 3
        assert all("<table" in h for h in html)
        response_table = html[0]
        assert response_table.count("<tr>") == 1 + 6  # a header row, then one per item

    def test_statuses_shown(self, executed: Any) -> None:
        """The printed statuses list every item; with the corpus in place, the known verdicts."""
        printed = "".join(
            output.get("text", "")
            for cell in executed.cells
            if cell.cell_type == "code"
            for output in cell.get("outputs", [])
            if output["output_type"] == "stream"
        )
        ids = ["gerstein", "holding", "miranda", "smith", "section-1983", "rule"]
        lines = [line.split() for line in printed.splitlines() if line.strip()]
        assert [line[0] for line in lines] == ids
        if _corpus_landed() and importlib.util.find_spec("citeverify.quotes"):
            statuses = {line[0]: line[1] for line in lines}
            assert statuses == {
                "gerstein": "verified",
                "holding": "verified",
                "miranda": "warning",
                "smith": "critical",
                "section-1983": "verified",
                "rule": "verified",
            }

    def test_committed_without_outputs(self) -> None:
        """The committed notebook carries no outputs, so what it shows is what CI ran."""
        import nbformat

        notebook = nbformat.read(NOTEBOOK, as_version=4)
        nbformat.validate(notebook)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert cell.outputs == []
                assert cell.execution_count is None
