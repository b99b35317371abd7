"""The citeverify command: verify and info."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from citeverify.cli import main
from tests.contract_schema import RESPONSE_SCHEMA

NONSENSE = {"items": [{"id": "x", "type": "case", "rawText": "not a citation at all"}]}


def write(tmp_path: Path, body: object) -> str:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(body))
    return str(path)


class TestVerifyCommand:
    def test_prints_response_json_and_exits_0(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A valid request prints a contract Response on stdout and exits 0."""
        assert main(["verify", write(tmp_path, NONSENSE)]) == 0
        out = json.loads(capsys.readouterr().out)
        jsonschema.validate(out, RESPONSE_SCHEMA)
        assert out["results"][0]["verdict"]["outcome"] == "unsupported"

    def test_invalid_request_prints_details_and_exits_2(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A request that fails validation exits 2 with the envelope's details on stderr."""
        assert main(["verify", write(tmp_path, {"items": [{"id": 1}]})]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        envelope = json.loads(captured.err)
        assert envelope["error"]["code"] == "validation_error"
        assert {d["field"] for d in envelope["error"]["details"]} >= {
            "items[0].id",
            "items[0].type",
        }

    def test_missing_file_exits_2(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A file that cannot be read is reported, not a traceback."""
        assert main(["verify", "/nonexistent/request.json"]) == 2
        assert "cannot read" in capsys.readouterr().err

    def test_fail_on_warning(self, tmp_path: Path) -> None:
        """--fail-on warning exits 1 when a result is a warning."""
        assert main(["verify", "--fail-on", "warning", write(tmp_path, NONSENSE)]) == 1
        assert main(["verify", "--fail-on", "critical", write(tmp_path, NONSENSE)]) == 0

    def test_table_format(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """--format table prints a row per result and a summary line."""
        assert main(["verify", "--format", "table", write(tmp_path, NONSENSE)]) == 0
        out = capsys.readouterr().out
        assert "unsupported" in out
        assert "of 1" in out

    def test_stdin(self) -> None:
        """'-' reads the request from stdin (as a console script)."""
        proc = subprocess.run(
            [sys.executable, "-m", "citeverify", "verify", "-"],
            input=json.dumps(NONSENSE),
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["summary"]["total"] == 1


class TestInfoAndVersion:
    def test_info(self, capsys: pytest.CaptureFixture[str]) -> None:
        """info names the version and the default provider."""
        assert main(["info"]) == 0
        out = capsys.readouterr().out
        assert "contract 1.1.0" in out
        assert "default provider" in out
        assert "U.S. 1-546 [complete]" in out
        assert "U.S. 547-600 [partial]" in out
        assert "outside coverage" in out

    def test_version(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--version prints the package and contract versions."""
        with pytest.raises(SystemExit) as exc:
            main(["--version"])
        assert exc.value.code == 0
        assert "contract 1.1.0" in capsys.readouterr().out

    def test_no_command_prints_help_and_exits_2(self, capsys: pytest.CaptureFixture[str]) -> None:
        """No sub-command is a usage error."""
        assert main([]) == 2
        assert "usage" in capsys.readouterr().err


class TestVersionName:
    def test_version_names_this_distribution(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--version names citeverify-legal, so it is told apart from the index's citeverify."""
        with pytest.raises(SystemExit):
            main(["--version"])
        assert capsys.readouterr().out.startswith("citeverify-legal 0.")


def _verify_help() -> str:
    from citeverify.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if getattr(a, "choices", None) and "verify" in a.choices)
    return str(sub.choices["verify"].format_help())


class TestVerifyHelp:
    def test_help_shows_a_request_that_verifies(self, tmp_path: Path) -> None:
        """The request shown in `verify --help` is valid and verifies as it is."""
        text = _verify_help()
        shown = text[text.index('{"items"') : text.index("]}") + 2]
        body = json.loads(shown)
        assert {i["type"] for i in body["items"]} >= {"case", "quote"}
        assert main(["verify", write(tmp_path, body)]) == 0

    def test_help_names_the_limits_option(self) -> None:
        """The help says that local files have no item or size limit unless --limits."""
        text = _verify_help()
        assert "--limits" in text
        assert "1,000" in text


class TestLocalLimits:
    def _many(self, tmp_path: Path, n: int) -> str:
        items = [{"id": str(i), "type": "case", "rawText": "not a citation"} for i in range(n)]
        return write(tmp_path, {"items": items})

    def test_local_file_over_http_limit_is_verified(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A local file of 1,001 items is verified: the HTTP limits do not apply locally."""
        assert main(["verify", self._many(tmp_path, 1001)]) == 0
        assert json.loads(capsys.readouterr().out)["summary"]["total"] == 1001

    def test_limits_option_applies_http_limits_and_says_so(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """With --limits, the same file is refused with a message naming the option."""
        assert main(["verify", "--limits", self._many(tmp_path, 1001)]) == 2
        err = capsys.readouterr().err
        assert "the limit is 1000" in err
        assert "without --limits" in err


class TestQuotationRows:
    def test_table_shows_the_quoted_words(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A quotation's row shows its own words, not only its parent's citation."""
        body = {
            "items": [
                {"id": "c", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113 (1973)"},
                {"id": "q", "type": "quote", "parentCaseId": "c", "quoteText": "zebra quokka"},
            ]
        }
        assert main(["verify", "--format", "table", write(tmp_path, body)]) == 0
        out = capsys.readouterr().out
        assert "zebra" in out
        assert "quokka" in out
