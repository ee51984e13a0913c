"""Start the tests' `python -m flotilla.cli ...` processes (gateways, workers, matchmakers) by
forking a process that has already imported Flotilla, not by starting a fresh interpreter each.

A fresh gateway or worker spends 1.2-2.3 s of CPU importing (the four games' rules, protobuf,
grpc, redis-py) before it serves; the suite starts hundreds of them on two cores. A fork of the
preloaded server costs about 20 ms. The children are ordinary processes: their own pid, their
own log file, killed by any signal (the chaos tests' SIGKILL), and they run `flotilla.cli.main`
as `python -m flotilla.cli` would. The test process is made a child subreaper, and each child
is forked twice (its first parent exits at once), so every child is the test process's own:
`wait`, `poll` and `returncode` work as with `subprocess.Popen`.

The tests' own helper processes, `python path/to/script.py args...` (tests/worker's faulty and
holding workers: Flotilla with a part replaced), are forked the same way and run the script as
`python` would (`runpy.run_path` as `__main__`, its folder first on `sys.path`).

What a fork does not give a child: a different `PYTHON*` environment (that changes how the
interpreter starts) and interpreter start-up itself. `spawn` starts those with a fresh
interpreter, and so does everything when FLOTILLA_TEST_EXEC=1. The processes the command line
itself starts (a supervisor's children, tests/worker/test_processes.py; `flotilla up`'s,
tests/test_up.py) are always exec'd by it, as in production.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any, ClassVar, Protocol

PRELOAD = (
    "flotilla.cli",
    "flotilla.gateway.server",
    "flotilla.worker.main",
    "flotilla.matchmaker.main",
    "flotilla.bots.command",
    "flotilla.bots.ismcts",
    "uvloop",
    "pydantic_settings",  # Settings.from_env (flotilla/settings.py imports it only when called)
)
"""What the fork server imports before it forks: everything the cli's long-lived commands import."""

PR_SET_CHILD_SUBREAPER = 36


class Proc(Protocol):
    """What the tests use of a started process (`subprocess.Popen` has it all)."""

    pid: int

    returncode: int | Any

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def send_signal(self, sig: int) -> None: ...

    def terminate(self) -> None: ...

    def kill(self) -> None: ...


class Forked:
    """A process the fork server started, reparented to this one (see the module docstring)."""

    def __init__(self, pid: int, args: list[str]) -> None:
        self.pid = pid
        self.args = args
        self.returncode: int | None = None
        self._pidfd = os.pidfd_open(pid)  # readable once the process has exited (Linux >= 5.3)

    def _reaped(self, flags: int) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, flags)
            if pid == 0:
                return None
            self.returncode = os.waitstatus_to_exitcode(status)
            os.close(self._pidfd)
        return self.returncode

    def poll(self) -> int | None:
        return self._reaped(os.WNOHANG)

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and not select.select([self._pidfd], [], [], timeout)[0]:
            raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
        code = self._reaped(0)
        assert code is not None
        return code

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:  # a zombie still holds its pid: never a stranger's
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class _Server:
    """This test process's fork server (one per pytest/xdist worker process, started on first use)."""

    _lock = threading.Lock()
    _proc: subprocess.Popen[bytes] | None = None
    _env: ClassVar[dict[str, str]] = {}

    @classmethod
    def fork(cls, args: list[str], env: dict[str, str], log: Path) -> Forked:
        with cls._lock:
            if cls._proc is None or cls._proc.poll() is not None:
                ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
                cls._env = dict(os.environ)
                here = str(Path(__file__).parent)
                cls._proc = subprocess.Popen(
                    [sys.executable, "-c", "import forkserver; forkserver.serve()"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    # the tests' folder first; a PYTHONPATH of the caller's (a worktree's server/) kept
                    env=dict(
                        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
                    ),
                    cwd=os.getcwd(),
                )
            assert cls._proc.stdin is not None
            assert cls._proc.stdout is not None
            _send(cls._proc.stdin, (args, env, os.getcwd(), str(log)))
            reply = _receive(cls._proc.stdout)
        if not isinstance(reply, int):
            msg = f"the fork server could not start {args[1:]}: {reply}"
            raise RuntimeError(msg)
        return Forked(reply, args)

    @classmethod
    def forks(cls, env: dict[str, str]) -> bool:
        """Whether a child with `env` can be forked (its interpreter settings are the server's)."""
        if os.environ.get("FLOTILLA_TEST_EXEC") == "1":
            return False
        base = cls._env or os.environ
        return all(env.get(k) == base.get(k) for k in {*env, *base} if k.startswith("PYTHON"))


def _forkable(args: list[str]) -> bool:
    """`python -m flotilla.cli ...` or `python some_script.py ...`."""
    if args[:3] == [sys.executable, "-m", "flotilla.cli"]:
        return True
    return len(args) > 1 and args[0] == sys.executable and args[1].endswith(".py") and Path(args[1]).is_file()


def spawn(args: list[str], env: dict[str, str], log: Path) -> Proc:
    """`args` (`[sys.executable, "-m", "flotilla.cli", ...]` or `[sys.executable, "script.py", ...]`)
    with `env`, its output appended to `log`: forked from the fork server when it can be, else a
    fresh `subprocess.Popen`."""
    if _forkable(args) and _Server.forks(env):
        return _Server.fork(args, env, log)
    with log.open("ab") as out:
        return subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT)


# --- the server's side ---------------------------------------------------------------------------
def _send(pipe: IO[bytes], obj: object) -> None:
    data = pickle.dumps(obj)
    pipe.write(struct.pack("!I", len(data)) + data)
    pipe.flush()


def _receive(pipe: IO[bytes]) -> Any:
    head = pipe.read(4)
    if len(head) < 4:
        return "the fork server exited"
    (size,) = struct.unpack("!I", head)
    return pickle.loads(pipe.read(size))  # our own pipe, from our own process


def serve() -> None:
    """Preload, then fork one child per request read from stdin until stdin closes."""
    import gc
    import importlib

    sys.path.remove(str(Path(__file__).parent))
    for name in PRELOAD:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()  # what the children inherit stays out of their collections (and unshared pages)
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    while True:
        request = _receive(requests)
        if isinstance(request, str):
            return
        try:
            _send(replies, _fork(*request))
        except OSError as exc:
            _send(replies, str(exc))


def _fork(args: list[str], env: dict[str, str], cwd: str, log: str) -> int:
    """Fork twice; the grandchild runs the command and the pid it got comes back through a pipe
    once its first parent has exited (so it is already the subreaper's child)."""
    read_end, write_end = os.pipe()
    first = os.fork()
    if first == 0:
        os.close(read_end)
        pid = os.fork()
        if pid == 0:
            os.close(write_end)
            _run(args, env, cwd, log)
        os.write(write_end, struct.pack("!i", pid))
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read(4)
    os.waitpid(first, 0)
    if len(data) < 4:
        msg = "the intermediate child died"
        raise OSError(msg)
    return int(struct.unpack("!i", data)[0])


def _run(args: list[str], env: dict[str, str], cwd: str, log: str) -> None:
    """In the grandchild: the command's stdio, directory and environment, then the cli (or the
    script); never returns."""
    code = 1
    try:
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.closerange(3, 1 << 16)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        code = _main(args)
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1  # as the interpreter exits
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _main(args: list[str]) -> int:
    """Run `python -m flotilla.cli ...` or `python script.py ...` in this process; its exit status."""
    if args[1] == "-m":
        sys.argv = [args[2], *args[3:]]
        from flotilla.cli import main

        return main(args[3:])
    import runpy

    sys.argv = args[1:]
    sys.path.insert(0, str(Path(args[1]).resolve().parent))
    runpy.run_path(args[1], run_name="__main__")
    return 0
