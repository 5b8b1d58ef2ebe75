"""The Python environment flightsim runs in: found, or made once, before anything else loads.

``python3 run.py`` and ``bash scripts/test.sh`` start here, on whatever ``python3`` the
user has: a pyenv or conda Python, an activated virtual environment, or a Linux
distribution's own Python, which (Debian 12+, Ubuntu 23.04+, Fedora 38+) marks itself
externally managed (PEP 668) and refuses ``pip install``. The rule:

1. An active environment (a virtual environment or a conda environment is the running
   interpreter's prefix) is the user's choice: use it, installing what is missing into it.
   The project's own ``.venv`` is such an environment once re-executed into.
2. Otherwise, an interpreter that already imports everything needed is used as it is (a
   Python where ``pip install -e .`` was run by hand): no environment, no install.
3. Otherwise the project's own virtual environment, ``.venv/`` in the checkout (git-ignored;
   ``FLIGHTSIM_VENV`` names another folder), is made once with ``python -m venv``, the
   project installed into it with pip (``-e .[extras]``), and the command re-executed
   inside it. Nothing is ever written into the interpreter's own site-packages, and
   ``--break-system-packages`` is never used. Where ``venv`` or ``ensurepip`` is missing
   (Debian without python3-venv) it is installed with apt-get when running as root, or
   one line says what to run.

A later start finds the environment and imports, with no install step (a few
milliseconds of ``find_spec``). Standard library only, and plain enough syntax for an old
Python to reach the line that says it is too old.
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIN_PYTHON = (3, 10)

# the modules each extra of pyproject.toml brings (import names, not distribution names)
MODULES = {
    "": ("numpy", "numba", "pyglet", "moderngl", "pyrr"),
    "test": ("pytest", "xdist", "hypothesis", "matplotlib", "aerofiles"),
    "bench": ("jsbsim", "matplotlib"),
    "gym": ("gymnasium",),
    "tools": ("neuralfoil",),
    "lint": ("ruff", "mypy"),
}
READY = "flightsim-ready"          # written into the environment once its install succeeded


class EnvironmentProblem(Exception):
    """What stopped the environment being made, as the one line the user reads."""


def say(message):
    print("flightsim: " + message, file=sys.stderr, flush=True)


def venv_dir():
    return os.path.abspath(os.environ.get("FLIGHTSIM_VENV") or os.path.join(ROOT, ".venv"))


def venv_python(folder):
    if os.name == "nt":
        return os.path.join(folder, "Scripts", "python.exe")
    return os.path.join(folder, "bin", "python")


def active_environment():
    """The folder of the virtual or conda environment this interpreter runs in, or None."""
    if sys.prefix != getattr(sys, "base_prefix", sys.prefix):
        return sys.prefix
    conda = os.environ.get("CONDA_PREFIX")
    if conda and os.path.realpath(conda) == os.path.realpath(sys.prefix):
        return sys.prefix
    return None


def modules_for(extras):
    names = []
    for extra in ("",) + tuple(extras):
        if extra not in MODULES:
            raise ValueError("unknown extra %r (known: %s)" % (extra, ", ".join(sorted(k for k in MODULES if k))))
        names.extend(m for m in MODULES[extra] if m not in names)
    if sys.version_info < (3, 11):
        names.append("tomli")
    return names


def missing_modules(extras):
    return [m for m in modules_for(extras) if importlib.util.find_spec(m) is None]


def requirement(extras):
    extras = [e for e in extras if e]
    return ROOT + ("[" + ",".join(extras) + "]" if extras else "")


def install_into(python, extras):
    """pip install -e the project with these extras into the environment of ``python``, then
    byte-compile its packages on every core (byte_compile).
    ``--no-compile``: pip would byte-compile every module of every package (numpy, numba,
    matplotlib, ...) one after the other, 17 of the 46 s a fresh environment took (Nov 2026,
    2 cores)."""
    command = [python, "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check", "-e",
               requirement(extras)]
    env = dict(os.environ, PIP_ROOT_USER_ACTION="ignore")
    env.pop("PIP_BREAK_SYSTEM_PACKAGES", None)
    try:
        subprocess.check_call(command, env=env, stdout=sys.stderr.fileno())
    except (OSError, subprocess.CalledProcessError) as e:
        raise EnvironmentProblem("could not install the packages it needs into %s (%s); the command was: %s"
                                 % (sys.prefix if python == sys.executable else os.path.dirname(os.path.dirname(python)),
                                    e, " ".join(command))) from None
    byte_compile(python)


def byte_compile(python):
    """The environment's packages byte-compiled in parallel (compileall -j 0: 7 s on 2 cores).
    Python would compile a module when a process first imports it and keep the .pyc, but not
    where PYTHONDONTWRITEBYTECODE is set (CI machines, containers): there every process compiled
    numpy, numba and matplotlib again, 5 s to import them instead of 1.4 s (measured, Nov 2026),
    in each of the test suite's workers and the processes its tests start. A failure here costs
    only that time: it is not an error."""
    code = ("import compileall, sysconfig\n"
            "paths = sysconfig.get_paths()\n"
            "for d in sorted({paths['purelib'], paths['platlib']}):\n"
            "    compileall.compile_dir(d, quiet=2, workers=0)\n")
    try:
        subprocess.call([python, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        pass


# ------------------------------------------------------------------ venv and ensurepip
def venv_support_missing(python=None):
    """What this interpreter lacks to make a virtual environment with pip in it, or None."""
    probe = "import venv, ensurepip; ensurepip.version()"
    try:
        subprocess.check_call([python or sys.executable, "-c", probe],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return None
    except (OSError, subprocess.CalledProcessError):
        return "venv/ensurepip"


def apt_package():
    """Debian's package holding venv and ensurepip for this Python (python3.11-venv, ...)."""
    return "python%d.%d-venv" % sys.version_info[:2]


def is_root():
    return hasattr(os, "geteuid") and os.geteuid() == 0


def install_venv_support():
    """apt-get install the venv package when root, else the one line saying what to run."""
    package = apt_package()
    if is_root() and shutil.which("apt-get"):
        say("this Python has no venv/ensurepip; installing %s with apt-get ..." % package)
        try:
            subprocess.check_call(["apt-get", "update", "-qq"], stdout=subprocess.DEVNULL)
            subprocess.check_call(["apt-get", "install", "-y", "-qq", package], stdout=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError) as e:
            raise EnvironmentProblem("could not apt-get install %s (%s); install it, or run flightsim with a "
                                     "Python that has venv" % (package, e)) from None
        return
    if shutil.which("apt-get"):
        raise EnvironmentProblem("this Python cannot make a virtual environment (no venv/ensurepip); run: "
                                 "sudo apt-get install %s   (or use a Python that has venv)" % package)
    raise EnvironmentProblem("this Python (%s) cannot make a virtual environment (no venv/ensurepip); install "
                             "your system's venv package (Debian/Ubuntu: %s, Fedora: python3-libs) or use a "
                             "Python that has venv" % (sys.executable, package))


def python_works(python):
    try:
        subprocess.check_call([python, "-c", "import sys"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return True
    except (OSError, subprocess.CalledProcessError):
        return False


def make_venv(folder):
    """python -m venv FOLDER (a broken one, its interpreter gone, is made anew)."""
    if os.path.exists(folder) and not python_works(venv_python(folder)):
        say("the environment in %s does not run (its Python moved?); making it again" % folder)
        shutil.rmtree(folder)
    if os.path.exists(venv_python(folder)):
        return
    if venv_support_missing() is not None:
        install_venv_support()
        if venv_support_missing() is not None:
            raise EnvironmentProblem("venv/ensurepip still missing after installing %s" % apt_package())
    try:
        subprocess.check_call([sys.executable, "-m", "venv", folder], stdout=sys.stderr.fileno())
    except (OSError, subprocess.CalledProcessError) as e:
        shutil.rmtree(folder, ignore_errors=True)
        raise EnvironmentProblem("could not make a virtual environment in %s (%s)" % (folder, e)) from None


def ready_stamp(folder, extras):
    """True when the environment's stamp says these extras were installed into it."""
    try:
        with open(os.path.join(folder, READY)) as f:
            done = set(f.read().split())
    except OSError:
        return False
    return set(e for e in extras if e) <= done


def write_stamp(folder, extras):
    try:
        with open(os.path.join(folder, READY)) as f:
            done = set(f.read().split())
    except OSError:
        done = set()
    done |= set(e for e in extras if e) | {"base"}
    with open(os.path.join(folder, READY), "w") as f:
        f.write("\n".join(sorted(done)) + "\n")


# ------------------------------------------------------------------ the decision
def plan(extras):
    """What to do: ("here", None) to run in this interpreter as it is; ("install", None) to
    install the missing modules into the active environment first; ("venv", folder) to
    re-execute in the project's environment (made or completed first)."""
    if active_environment() is not None:
        return ("here", None) if not missing_modules(extras) else ("install", None)
    if not missing_modules(extras):
        return ("here", None)
    return ("venv", venv_dir())


def ensure(extras=(), argv=None):
    """Make sure this process runs where the project's packages (and these extras') import:
    return when it does; otherwise re-execute ``argv`` (default ``sys.argv``) with the
    project's environment's interpreter, made ready first."""
    python = environment_python(extras)
    if python != sys.executable:
        argv = list(sys.argv if argv is None else argv)
        os.execv(python, [python] + argv)


def environment_python(extras=()):
    """The interpreter that has the project's packages, made ready first; this process
    exits with status 2 and one line when that cannot be done."""
    if sys.version_info < MIN_PYTHON:
        say("Python %d.%d or newer is needed (this is %s, %s)"
            % (MIN_PYTHON + (sys.version.split()[0], sys.executable)))
        sys.exit(2)
    action, folder = plan(extras)
    try:
        if action == "here":
            return sys.executable
        if action == "install":
            say("installing what this environment (%s) lacks: %s ..." % (sys.prefix, ", ".join(missing_modules(extras))))
            install_into(sys.executable, extras)
            return sys.executable
        python = venv_python(folder)
        if os.path.exists(python) and ready_stamp(folder, extras) and python_works(python):
            return python
        t0 = time.monotonic()
        make_venv(folder)
        say("installing the packages it needs into its own Python environment, %s (once; numpy, numba, "
            "pyglet, moderngl, pyrr%s: about a minute) ..." % (folder, " and the tests'" if any(extras) else ""))
        install_into(python, extras)
        write_stamp(folder, extras)
        say("environment ready in %.0f s: %s" % (time.monotonic() - t0, folder))
        return python
    except EnvironmentProblem as e:
        say(str(e))
        sys.exit(2)


def main(args=None):
    """python -m flightsim.bootstrap [--extras test,bench,gym]: make the environment ready
    and print its interpreter's path (scripts/test.sh runs pytest with it)."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m flightsim.bootstrap", description=main.__doc__)
    parser.add_argument("--extras", default="", help="comma-separated extras of pyproject.toml")
    ns = parser.parse_args(args)
    extras = tuple(e.strip() for e in ns.extras.split(",") if e.strip())
    try:
        modules_for(extras)
    except ValueError as e:
        parser.error(str(e))
    print(environment_python(extras))
    return 0


if __name__ == "__main__":
    sys.exit(main())
