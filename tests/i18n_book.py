"""A small three-language book (ko at /, en under /en/, zh under /zh/) with mkdocs-static-i18n.

Either layout of mkdocs-static-i18n: ``suffix`` (``memo.md``, ``memo.en.md``, ``memo.zh.md``) or
``folder`` (``ko/memo.md``, ``en/memo.md``, ``zh/memo.md``). Every language's chapter names the same
shared example definition (``from:``), and two scripts print each language's labels: one localised
as a file per language (``memo.en.py`` beside ``memo.py``), one reading ``SELFATTN_LANG``. The
site also runs search with ``lang``, minify, git-revision-date-localized, arithmatex and Material's
``navigation.instant``, as such a book does; it is a git repository, as that plugin needs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from sites import COURSE_CSV, COURSE_CSV_REL, COURSE_SCRIPT

LANGUAGES = ("ko", "en", "zh")
DEFAULT = "ko"

LABELS = {
    "ko": {},
    "en": {
        "배터리팩": "battery pack",
        "분리": "removed",
        "절연캡": "insulating cap",
        "씌우지": "not fitted",
        "그것": "it",
        "위험": "risk",
        "cap_plus_not_applied": "cap + not fitted",
    },
    "zh": {
        "배터리팩": "电池包",
        "분리": "分离",
        "절연캡": "绝缘帽",
        "씌우지": "未套上",
        "그것": "它",
        "위험": "风险",
        "cap_plus_not_applied": "绝缘帽 + 未套上",
    },
}
PRESSURE_LABELS = {
    "ko": {},
    "en": {
        "펌프": "pump",
        "정지": "stopped",
        "압력": "pressure",
        "불안정": "unstable",
        "그것": "it",
        "재기동": "restart",
    },
    "zh": {
        "펌프": "泵",
        "정지": "停止",
        "압력": "压力",
        "불안정": "不稳定",
        "그것": "它",
        "재기동": "重新启动",
    },
}
TITLES = {"ko": "안전 메모의 그것", "en": "The it of the safety memo", "zh": "安全备忘录里的它"}
CHART_TITLES = {
    "ko": "압력 메모의 가중치",
    "en": "Weights in the pressure memo",
    "zh": "压力备忘录的权重",
}
PROSE = {
    "ko": "그것이 절연캡에 주는 가중치는 `{selfattn} memo weight 그것 절연캡`이고, 묶음은 "
    "`{selfattn} memo group 그것 cap_plus_not_applied :.1%`이다.",
    "en": "It gives the insulating cap a weight of `{selfattn} memo weight 그것 절연캡`; "
    "the bundle is `{selfattn} memo group 그것 cap_plus_not_applied :.1%` in all.",
    "zh": "它给绝缘帽的权重是 `{selfattn} memo weight 그것 절연캡`，合计 "
    "`{selfattn} memo group 그것 cap_plus_not_applied :.1%`。",
}

SHARED = """\
# One definition for the three languages of the chapter.
memo:
  csv: self-attention-safety-memo-candidates.csv
  document: memo_cap_missing
  targets: [그것, 씌우지]
  vectors: [evidence_pack, evidence_cap, evidence_action]
  display:
    en: {EN}
    zh: {ZH}
  groups: {cap_plus_not_applied: [절연캡, 씌우지]}
  script: /examples/memo.py
"""


def _flow(mapping: dict[str, str]) -> str:
    return "{" + ", ".join(f'{k}: "{v}"' for k, v in mapping.items()) + "}"


def chapter(language: str, shared: str) -> str:
    """One language's chapter: the shared example in every view, a block of its own, prose."""
    pressure = {code: PRESSURE_LABELS[code] for code in ("en", "zh")}
    return f"""\
# {TITLES[language]}

```selfattn
use: memo
from: {shared}
show: [code, output, table, compare, mermaid, chart]
text: {{en: {{top: strongest}}}}
```

{PROSE[language]}

Inline maths for arithmatex: $w_i = \\mathrm{{softmax}}(s)_i$.

```selfattn
id: pressure
csv: memo.csv
document: memo_pressure_hold
targets: [그것, 재기동]
vectors: [evidence_pack, evidence_cap, evidence_action]
display: {{en: {_flow(pressure["en"])}, zh: {_flow(pressure["zh"])}}}
groups: {{pressure_unstable: [압력, 불안정]}}
script: /examples/pressure.py
title: {{ko: "{CHART_TITLES["ko"]}", en: "{CHART_TITLES["en"]}", zh: "{CHART_TITLES["zh"]}"}}
show: [output, chart, csv]
```

Pressure memo — top: `{{selfattn}} pressure top 그것`;
weight: `{{selfattn}} pressure weight 그것 압력` (pressure)
"""


def home(language: str) -> str:
    return f"# {TITLES[language]}\n\nHome ({language}).\n"


def labelled_script(labels: str, memo: str, targets: str, bundle: str) -> str:
    """The course's own script, for another memo and other labels (``labels``: Python source)."""
    text = COURSE_SCRIPT.read_text(encoding="utf-8")
    text = re.sub(r"(?ms)^LABEL = \{.*?^\}\n", lambda _: f"LABEL = {labels}\n", text, count=1)
    text = text.replace('MEMO = "memo_cap_missing"', f'MEMO = "{memo}"')
    text = text.replace('CURRENT_TOKENS = ("그것", "씌우지")', f"CURRENT_TOKENS = {targets}")
    text = re.sub(r"(?m)^CLUE_BUNDLE = .*$", lambda _: f"CLUE_BUNDLE = {bundle}", text, count=1)
    return "import os\n" + text


def _labels_without_groups(language: str) -> dict[str, str]:
    return {k: v for k, v in LABELS[language].items() if k != "cap_plus_not_applied"}


CONFIG = """\
site_name: selfattn i18n book
theme:
  name: material
  language: ko
  features:
    - navigation.instant
extra:
  alternate:
    - {{name: 한국어, link: /, lang: ko}}
    - {{name: English, link: /en/, lang: en}}
    - {{name: 中文, link: /zh/, lang: zh}}
markdown_extensions:
  - admonition
  - pymdownx.arithmatex:
      generic: true
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
  - tables
plugins:
  - search:
      lang: [en, ko, zh]
  - selfattn:
      cache_dir: ""
  - i18n:
      docs_structure: {structure}
      # Material's contextual language links and navigation.instant do not mix (the i18n plugin
      # warns, which fails --strict): the switcher links are in extra.alternate above.
      reconfigure_material: false
      languages:
        - {{locale: ko, name: 한국어, default: true, build: true}}
        - {{locale: en, name: English, build: true, theme: {{language: en}}}}
        - {{locale: zh, name: 中文, build: true, theme: {{language: zh}}}}
  - minify:
      minify_html: true
  - git-revision-date-localized:
      fallback_to_build_date: true
nav:
  - index.md
  - chapter/memo.md
"""


def page_path(structure: str, language: str, name: str) -> str:
    """Where the ``name`` page (``chapter/memo.md``) of ``language`` lives under docs/."""
    if structure == "folder":
        return f"{language}/{name}"
    if language == DEFAULT:
        return name
    stem, _, ext = name.rpartition(".")
    return f"{stem}.{language}.{ext}"


def site_url(language: str, page: str) -> str:
    """``chapter/memo/`` of ``en`` → ``en/chapter/memo/``."""
    return page if language == DEFAULT else f"{language}/{page}"


def write_book(root: Path, structure: str, *, plugin: bool = True) -> Path:
    """The book at ``root`` (a git repository with one commit); returns its mkdocs.yml."""
    docs = root / "docs"
    csv_path = root / COURSE_CSV_REL
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(COURSE_CSV, csv_path)
    shared_file = csv_path.parent / "memo.examples.yml"
    shared_file.write_text(
        SHARED.replace("{EN}", _flow(LABELS["en"])).replace("{ZH}", _flow(LABELS["zh"])),
        encoding="utf-8",
    )
    shared = "/" + shared_file.relative_to(docs).as_posix()
    examples = docs / "examples"
    examples.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        name = "memo.py" if language == DEFAULT else f"memo.{language}.py"
        labels = repr(_labels_without_groups(language))
        script = labelled_script(
            labels,
            "memo_cap_missing",
            '("그것", "씌우지")',
            '("cap_plus_not_applied", {"절연캡", "씌우지"})',
        )
        (examples / name).write_text(script, encoding="utf-8")
    by_language = repr(PRESSURE_LABELS)
    (examples / "pressure.py").write_text(
        labelled_script(
            f'{by_language}[os.environ["SELFATTN_LANG"][:2]]',
            "memo_pressure_hold",
            '("그것", "재기동")',
            '("pressure_unstable", {"압력", "불안정"})',
        ),
        encoding="utf-8",
    )
    for language in LANGUAGES:
        for name, text in (
            ("index.md", home(language)),
            ("chapter/memo.md", chapter(language, shared)),
        ):
            path = docs / page_path(structure, language, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            # A CSV beside the chapter: in the folder layout, one in each language's folder.
            shutil.copyfile(COURSE_CSV, path.parent / "memo.csv")
    config = CONFIG.format(structure=structure)
    if not plugin:
        config = config.replace('  - selfattn:\n      cache_dir: ""\n', "")
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    git_commit(root)
    return root / "mkdocs.yml"


def git_commit(root: Path) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    }
    for command in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "book"]):
        subprocess.run(command, cwd=root, env=env, check=True, capture_output=True)
