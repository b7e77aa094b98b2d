"""Isolation of one graded run: a sandbox (bubblewrap) when there is one, and an end to every process.

`--sandbox auto|bwrap|none` (default auto):
- bwrap: the kernel runs under `bwrap` (Debian/Ubuntu package `bubblewrap`, the sandbox Flatpak uses):
  the whole file system read-only, except the run's private copy; /tmp, /run, /dev/shm empty; the
  submissions, the solutions and the grader's output folders hidden; no network (a new, empty
  network namespace: the kernel talks to the grader over Unix sockets inside its copy); its own PID
  namespace, so every process it starts dies with it; a new session; `--die-with-parent`; an
  environment holding only what the kernel needs (no secret of the grader's).
- none: the kernel runs as your user, with your file access. Only its processes are ended.
- auto: bwrap if `bwrap` is installed and works here, else none, with a note in every report row.

In every mode every process a run starts is ended when the run ends: the kernel is started in a
process group of its own, and while grading the grader is a Linux "child subreaper", so a process
that detaches itself (double fork, setsid) is re-parented to the grader, found and killed.
"""
from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

MODES = ("auto", "bwrap", "none")
_PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 36, 37


@dataclass(frozen=True)
class Sandbox:
    kind: str            # "bwrap" or "none"
    note: str            # '' when sandboxed; else why not, said plainly
    user_ns: bool = False


@lru_cache(maxsize=None)
def _probe() -> tuple[bool, bool, str]:
    """(works, needs --unshare-user, why not) for bwrap on this machine."""
    exe = shutil.which("bwrap")
    if exe is None or not sys.platform.startswith("linux"):
        return False, False, "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    base = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all",
            "--die-with-parent", "--new-session"]
    why = ""
    for extra in ([], ["--unshare-user"]):
        try:
            r = subprocess.run(base + extra + ["true"], capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, False, f"bwrap could not start ({type(exc).__name__})"
        if r.returncode == 0:
            return True, bool(extra), ""
        why = (r.stderr.strip().splitlines() or ["no message"])[-1][:160]
    return False, False, f"bwrap does not work here ({why})"


def choose(mode: str = "auto") -> Sandbox:
    """The sandbox for `mode`; ValueError for bwrap where it cannot work."""
    if mode not in MODES:
        raise ValueError(f"--sandbox must be one of {', '.join(MODES)}, got {mode!r}")
    works, user_ns, why = _probe() if mode != "none" else (False, False, "")
    if mode == "none":
        return Sandbox("none", "not sandboxed (--sandbox none): the notebook ran with your user's file "
                               "access and network; only its processes were ended")
    if works:
        return Sandbox("bwrap", "", user_ns)
    if mode == "bwrap":
        raise ValueError(f"--sandbox bwrap: {why}")
    return Sandbox("none", f"not sandboxed: {why}; the notebook ran with your user's file access and "
                           "network; only its processes were ended")


def _contains(parent: Path, child: Path) -> bool:
    try:
        child.relative_to(parent)
        return True
    except ValueError:
        return False


def bwrap_argv(sandbox: Sandbox, work: Path, env: dict, hide=(), keep=()) -> list[str]:
    """The bwrap command line that runs a command in `work` (append the command to it).

    hide: folders made invisible (an empty tmpfs over each) unless one holds something in `keep`
    (the Python installation, lecture_lib) or the work folder.
    """
    work = Path(work).resolve()
    keep = [Path(k).resolve() for k in keep] + [work]
    argv = [shutil.which("bwrap") or "bwrap", "--die-with-parent", "--new-session", "--unshare-all"]
    if sandbox.user_ns:
        argv.append("--unshare-user")
    argv += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for tmp in ("/tmp", "/var/tmp", "/run", "/dev/shm"):
        if Path(tmp).is_dir() and not any(_contains(Path(tmp), k) for k in keep if k != work):
            argv += ["--tmpfs", tmp]
    for h in hide:
        h = Path(h).resolve()
        if h.is_file():
            h = h.parent
        if h.is_dir() and not any(_contains(h, k) or _contains(k, h) for k in keep):
            argv += ["--tmpfs", str(h)]
    argv += ["--bind", str(work), str(work), "--chdir", str(work), "--clearenv"]
    for k, v in env.items():
        argv += ["--setenv", k, v]
    return argv + ["--"]


# --- ending every process a run started ----------------------------------------------------------
def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover
        return None


def set_subreaper(on: bool) -> bool:
    """Make this process a child subreaper (Linux); returns the previous setting."""
    libc = _libc()
    if libc is None or not sys.platform.startswith("linux"):
        return False
    prev = ctypes.c_int(0)
    libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(prev), 0, 0, 0)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1 if on else 0, 0, 0, 0)
    return bool(prev.value)


def _parents() -> dict[int, int]:
    out = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as f:
                    stat = f.read()
                out[int(d)] = int(stat[stat.rindex(b")") + 2:].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    return out


def descendants(pid: int | None = None) -> set[int]:
    """Every living process below `pid` (default: this process), from /proc (Linux)."""
    pid = os.getpid() if pid is None else pid
    if not os.path.isdir("/proc/self"):
        return set()
    parents = _parents()
    children: dict[int, list[int]] = {}
    for p, pp in parents.items():
        children.setdefault(pp, []).append(p)
    found, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in found:
                found.add(c)
                todo.append(c)
    return found


def end_processes(before: set[int], pgid: int | None = None) -> int:
    """Kill the process group `pgid` and every descendant of this process not in `before`; reap them.
    Returns how many processes were killed (a few rounds: a dying parent's children are re-parented
    here, since the grader is a subreaper)."""
    killed = 0
    if pgid:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for _ in range(50):
        extra = descendants() - before
        if not extra:
            break
        for p in extra:
            try:
                os.kill(p, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
        mine = set(_parents_of_me())
        for p in extra & mine:
            try:
                os.waitpid(p, 0)
            except (ChildProcessError, OSError):
                pass
    return killed


def _parents_of_me() -> list[int]:
    me = os.getpid()
    return [p for p, pp in _parents().items() if pp == me]
