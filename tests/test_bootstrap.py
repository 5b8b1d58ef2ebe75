"""The Python environment the README's two commands make or use (flightsim/bootstrap.py).

The whole path on a stock Debian Python (externally managed: a .venv made, the packages
installed there, the system's site-packages untouched) is CI's first stage,
scripts/check_system_python.sh; here the decisions and the messages.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flightsim import bootstrap


def test_an_active_environment_is_used_and_completed_in_place(monkeypatch):
    monkeypatch.setattr(bootstrap, "active_environment", lambda: "/some/venv")
    monkeypatch.setattr(bootstrap, "missing_modules", lambda extras: [])
    assert bootstrap.plan(()) == ("here", None)
    monkeypatch.setattr(bootstrap, "missing_modules", lambda extras: ["numba"])
    assert bootstrap.plan(()) == ("install", None)


def test_a_plain_python_without_the_packages_gets_the_project_venv(monkeypatch, tmp_path):
    monkeypatch.setattr(bootstrap, "active_environment", lambda: None)
    monkeypatch.setattr(bootstrap, "missing_modules", lambda extras: ["numba"])
    monkeypatch.setenv("FLIGHTSIM_VENV", str(tmp_path / "env"))
    assert bootstrap.plan(()) == ("venv", str(tmp_path / "env"))
    monkeypatch.delenv("FLIGHTSIM_VENV")
    assert bootstrap.plan(()) == ("venv", os.path.join(bootstrap.ROOT, ".venv"))


def test_a_plain_python_that_has_everything_runs_as_it_is(monkeypatch):
    monkeypatch.setattr(bootstrap, "active_environment", lambda: None)
    monkeypatch.setattr(bootstrap, "missing_modules", lambda extras: [])
    assert bootstrap.plan(("test",)) == ("here", None)


def test_the_extras_name_their_modules():
    assert {"numpy", "numba", "pyglet", "moderngl", "pyrr"} <= set(bootstrap.modules_for(()))
    mods = bootstrap.modules_for(("test", "bench", "gym"))
    assert {"pytest", "jsbsim", "gymnasium"} <= set(mods) and len(mods) == len(set(mods))
    with pytest.raises(ValueError, match="unknown extra 'nope'"):
        bootstrap.modules_for(("nope",))


def test_a_ready_venv_is_reused_with_no_install(monkeypatch, tmp_path):
    folder = tmp_path / "env"
    (folder / "bin").mkdir(parents=True)
    python = folder / "bin" / "python"
    python.symlink_to(sys.executable)
    bootstrap.write_stamp(str(folder), ("test", "gym"))
    monkeypatch.setattr(bootstrap, "plan", lambda extras: ("venv", str(folder)))
    monkeypatch.setattr(bootstrap, "install_into", lambda *a: pytest.fail("installed again"))
    monkeypatch.setattr(bootstrap, "make_venv", lambda *a: pytest.fail("made again"))
    assert bootstrap.environment_python(("test",)) == str(python)
    # an extra it never installed is installed (into the same environment, not a new one)
    calls = []
    monkeypatch.setattr(bootstrap, "install_into", lambda py, extras: calls.append((py, extras)))
    monkeypatch.setattr(bootstrap, "make_venv", lambda f: None)
    assert bootstrap.environment_python(("bench",)) == str(python)
    assert calls == [(str(python), ("bench",))]
    assert bootstrap.ready_stamp(str(folder), ("test", "gym", "bench"))


def test_no_venv_support_and_not_root_says_what_to_run(monkeypatch):
    monkeypatch.setattr(bootstrap, "is_root", lambda: False)
    monkeypatch.setattr(bootstrap.shutil, "which", lambda name: "/usr/bin/apt-get")
    with pytest.raises(bootstrap.EnvironmentProblem) as e:
        bootstrap.install_venv_support()
    msg = str(e.value)
    assert "\n" not in msg and "sudo apt-get install python%d.%d-venv" % sys.version_info[:2] in msg


def test_no_venv_support_as_root_installs_it_with_apt(monkeypatch):
    calls = []
    monkeypatch.setattr(bootstrap, "is_root", lambda: True)
    monkeypatch.setattr(bootstrap.shutil, "which", lambda name: "/usr/bin/apt-get")
    monkeypatch.setattr(bootstrap.subprocess, "check_call", lambda cmd, **kw: calls.append(cmd))
    bootstrap.install_venv_support()
    assert calls[0][:2] == ["apt-get", "update"]
    assert calls[1][:3] == ["apt-get", "install", "-y"] and calls[1][-1] == bootstrap.apt_package()


def test_a_failed_install_is_one_line_and_status_2(monkeypatch, capsys):
    monkeypatch.setattr(bootstrap, "plan", lambda extras: ("install", None))
    monkeypatch.setattr(bootstrap, "missing_modules", lambda extras: ["numba"])

    def refuse(cmd, **kw):
        raise subprocess.CalledProcessError(1, cmd)
    monkeypatch.setattr(bootstrap.subprocess, "check_call", refuse)
    with pytest.raises(SystemExit) as e:
        bootstrap.environment_python(())
    assert e.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("flightsim: could not install the packages it needs into ")


def test_the_module_prints_the_interpreter_to_use_and_installs_nothing_when_ready():
    """scripts/test.sh's call, from the environment the suite runs in (which has it all):
    this very interpreter back on stdout, nothing else there, no pip run."""
    out = subprocess.run([sys.executable, "-m", "flightsim.bootstrap", "--extras", "test,bench,gym"],
                         cwd=bootstrap.ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == sys.executable
    assert "installing" not in out.stderr


def test_the_scripts_use_it():
    with open(os.path.join(bootstrap.ROOT, "scripts", "test.sh")) as f:
        test_sh = f.read()
    with open(os.path.join(bootstrap.ROOT, "run.py")) as f:
        run_py = f.read()
    assert "-m flightsim.bootstrap" in test_sh and "|| true" not in test_sh
    assert "from flightsim.bootstrap import ensure" in run_py
    assert "break-system-packages" not in test_sh + run_py


def test_a_conda_environment_counts_as_active(monkeypatch):
    monkeypatch.setattr(bootstrap.sys, "base_prefix", bootstrap.sys.prefix)
    monkeypatch.setenv("CONDA_PREFIX", bootstrap.sys.prefix)
    assert bootstrap.active_environment() == bootstrap.sys.prefix
    monkeypatch.setenv("CONDA_PREFIX", "/opt/conda/envs/other")      # conda's env active, another Python run
    assert bootstrap.active_environment() is None


def test_the_environment_is_byte_compiled_where_python_would_not_write_bytecode(tmp_path):
    """install_into's last step: every module of the environment's packages gets its .pyc, on
    every core, also where PYTHONDONTWRITEBYTECODE keeps Python from writing them itself."""
    import venv
    venv.EnvBuilder(with_pip=False).create(tmp_path / "env")
    python = bootstrap.venv_python(str(tmp_path / "env"))
    site = subprocess.check_output([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   text=True).strip()
    (Path(site) / "somepackage").mkdir()
    (Path(site) / "somepackage" / "__init__.py").write_text("X = 1\n")
    bootstrap.byte_compile(python)
    assert list((Path(site) / "somepackage" / "__pycache__").glob("__init__.*.pyc"))
