"""Scores exported OSWorld evaluators with OSWorld's own metric functions (desktop-env from PyPI).

Run with the venv scripts/osworld-venv.sh makes: `python osworld_metrics.py jobs.json`. Each job is
{"evaluator": <the task's evaluator as exported>, "home": <dir standing for /home/user>,
 "cache": <the task's cache dir>, "cloud": {<url>: <local path>}}. Every metric call of the evaluator
is run the way desktop_env's DesktopEnv.evaluate() runs it — metric(result_state, expected_state,
**options), getters resolved to local files — and scored alone, so a test can tell which part of
an evaluator fails. `vm_command_line` calls are not scored (they need the VM; the export gate plays
them). Prints one JSON list: per job, per call {func, score} | {func, skipped} | {func, error}.
"""

import importlib.abc
import importlib.machinery
import json
import logging
import os
import sys
import types

VM_HOME = "/home/user"

# Imported by metric modules we never call (images, audio, PDFs, browsers, GUI automation, URL
# parsing, conditional-format formulas); none of them reads the documents or profiles we score.
STUBBED = {
    "cv2", "torch", "librosa", "easyocr", "playwright", "pyautogui", "imagehash", "skimage",
    "scipy", "fitz", "pdfplumber", "PyPDF2", "pypdf", "borb", "acoustid", "mutagen", "fastdtw",
    "pydrive", "tldextract", "formulas", "requests", "bs4", "chardet", "pygame", "pyperclip",
    "Xlib", "pynput", "pywinauto", "transformers", "gymnasium", "matplotlib", "psutil",
}


class _Anything(types.ModuleType):
    """A module whose every attribute is another stub, so `from x.y import Z` succeeds."""

    __path__: list = []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything(f"{self.__name__}.{name}")

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self.__name__} is stubbed in the metric harness")


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] in STUBBED:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return _Anything(spec.name)

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _StubFinder())
logging.disable(logging.CRITICAL)

from desktop_env.evaluators import metrics  # noqa: E402


class Skip(Exception):
    pass


def resolve(getter, job):
    """A getter's value as OSWorld's getters/*.py would return it, from local files."""
    kind = getter.get("type")
    if kind == "rule":
        return getter["rules"]
    if kind == "vm_file":
        p = getter["path"]
        if p != VM_HOME and not p.startswith(VM_HOME + "/"):
            raise ValueError(f"vm_file outside {VM_HOME}: {p}")
        local = job["home"] + p[len(VM_HOME):]
        # get_vm_file gives None for a file the VM does not have.
        return local if os.path.isfile(local) else None
    if kind == "cache_file":
        local = os.path.join(job["cache"], getter["path"])
        assert os.path.exists(local), local
        return local
    if kind == "cloud_file":
        return job["cloud"][getter["path"]]
    if kind == "vm_command_line":
        raise Skip("vm_command_line")
    raise ValueError(f"getter {kind} is not resolved by this harness")


def calls_of(evaluator):
    """(func, result, expected, options) per call, as DesktopEnv._set_evaluator_info lays them out."""
    funcs = evaluator["func"]
    if not isinstance(funcs, list):
        return [(funcs, evaluator.get("result"), evaluator.get("expected"), evaluator.get("options") or {})]
    n = len(funcs)
    expected = evaluator.get("expected") or [None] * n
    options = evaluator.get("options") or [{}] * n
    return [(funcs[i], evaluator["result"][i], expected[i], options[i] or {}) for i in range(n)]


def score_call(func, result, expected, options, job):
    try:
        metric = getattr(metrics, func)
        state = resolve(result, job)
        if expected:
            return {"func": func, "score": float(metric(state, resolve(expected, job), **options))}
        return {"func": func, "score": float(metric(state, **options))}
    except Skip as s:
        return {"func": func, "skipped": str(s)}
    except Exception as e:  # OSWorld's evaluate() would crash here: the task cannot score
        return {"func": func, "error": f"{type(e).__name__}: {e}"[:500]}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = json.load(f)
    # Some metrics print; stdout carries only the scores.
    stdout, sys.stdout = sys.stdout, sys.stderr
    out = []
    for job in jobs:
        if job["evaluator"].get("func") == "infeasible":
            out.append([])
            continue
        out.append([score_call(*c, job) for c in calls_of(job["evaluator"])])
    stdout.write(json.dumps(out))


if __name__ == "__main__":
    main()
