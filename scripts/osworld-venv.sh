#!/usr/bin/env bash
# Makes .forge/osworld-venv: OSWorld's own evaluator package (desktop-env, pinned) with only the
# libraries its document, Thunderbird and general metrics read files with, so a test can score an
# exported pack with OSWorld's real metric functions. desktop-env itself goes in with --no-deps: its
# full dependency list (torch, playwright, cloud SDKs …) is for running VMs, which no test here does;
# the harness (tests/support/osworld_metrics.py) stubs those imports instead.
# Idempotent: a stamp holding this file's hash marks a finished venv, so a warm run does nothing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

venv=.forge/osworld-venv
stamp="$venv/.made-by"
want="$(sha256sum "${BASH_SOURCE[0]}" | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x "$venv/bin/python" ]]; then
  echo "$venv/bin/python"
  exit 0
fi

# Every package pinned, dependencies of dependencies too (installed with --no-deps: nothing unlisted).
packages=(
  desktop-env==1.0.2
  numpy==1.26.4
  pandas==2.2.3
  python-dateutil==2.9.0.post0
  six==1.17.0
  pytz==2024.2
  tzdata==2025.2
  openpyxl==3.1.5
  et-xmlfile==2.0.0
  python-docx==1.1.2
  typing_extensions==4.12.2
  python-pptx==1.0.2
  XlsxWriter==3.2.0
  pillow==11.0.0
  lxml==5.3.0
  cssselect==1.2.0
  rapidfuzz==3.10.1
  odfpy==1.4.1
  defusedxml==0.7.1
  xmltodict==0.14.2
  PyYAML==6.0.2
)
{
  rm -rf "$venv"
  mkdir -p .forge
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "${packages[@]}"
} >&2
echo "$want" >"$stamp"
echo "$venv/bin/python"
