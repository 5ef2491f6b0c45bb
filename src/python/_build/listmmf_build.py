"""The build backend of the listmmf package (PEP 517, in the source tree): writes its wheel with the standard library
only, so that ``pip install --no-build-isolation --no-index ./src/python`` works with any python3 that has pip and
no network: a python3 without the ``wheel`` package (pyenv's, a fresh venv's) could not build it with setuptools.

The metadata is the ``[project]`` table of pyproject.toml, read with ``tomllib`` (Python 3.11 and later). Earlier
Pythons build with setuptools, as before, which they find installed or which pip installs.
"""

import base64
import hashlib
import os
import zipfile

try:
    import tomllib
except ImportError:  # Python < 3.11: setuptools builds the same wheel from the same table.
    tomllib = None

_SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_MODULE = "listmmf.py"
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip records: the same sources make the same wheel


def _project():
    with open(os.path.join(_SOURCE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"License: {project['license']['text']}",
        f"Requires-Python: {project['requires-python']}",
    ]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines.extend(f'Requires-Dist: {requirement}; extra == "{extra}"' for requirement in requirements)
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(_SOURCE, project["readme"]), encoding="utf-8") as f:
        return "\n".join(lines) + "\n\n" + f.read()


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return [] if tomllib is not None else ["setuptools>=61", "wheel"]


def get_requires_for_build_sdist(config_settings=None):
    return [] if tomllib is not None else ["setuptools>=61"]


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Writes ``listmmf-VERSION-py3-none-any.whl`` (the module, its metadata, WHEEL and RECORD) into
    ``wheel_directory`` and returns its file name."""
    if tomllib is None:
        from setuptools import build_meta
        return build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)
    project = _project()
    name, version = project["name"], project["version"]
    info = f"{name}-{version}.dist-info"
    with open(os.path.join(_SOURCE, _MODULE), "rb") as f:
        module = f.read()
    files = [
        (_MODULE, module),
        (f"{info}/METADATA", _metadata(project).encode("utf-8")),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: listmmf_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
    ]
    record = "\n".join([_record_line(path, data) for path, data in files] + [f"{info}/RECORD,,", ""])
    files.append((f"{info}/RECORD", record.encode("utf-8")))
    wheel_name = f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files:
            entry = zipfile.ZipInfo(path, _FIXED_TIME)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """A source archive, by setuptools (only a release needs one; installing from a clone builds the wheel)."""
    from setuptools import build_meta
    return build_meta.build_sdist(sdist_directory, config_settings)
