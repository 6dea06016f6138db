"""Starting the Dask and Ray backends: interrupts and unusable addresses, without clusters
(a stand-in ``distributed`` module records what the backend asks of it)."""

from __future__ import annotations

import logging
import signal
import socket
import sys
import time
import types
from typing import Any

import pytest

from patience.study import runner
from patience.study.runner import BackendError, make_backend


class FakeDistributed(types.ModuleType):
    """Records how the local cluster was started; ``client_error`` makes the client fail."""

    def __init__(self, client_error: BaseException | None = None) -> None:
        super().__init__("distributed")
        self.sigint_during_start: Any = None
        self.cluster_kwargs: dict[str, Any] = {}
        self.closed: list[str] = []
        fake = self

        class LocalCluster:
            def __init__(self, **kwargs: Any) -> None:
                fake.sigint_during_start = signal.getsignal(signal.SIGINT)
                fake.cluster_kwargs = kwargs

            def close(self) -> None:
                fake.closed.append("cluster")

        class Client:
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                if client_error is not None:
                    raise client_error

            def close(self) -> None:
                fake.closed.append("client")

        self.LocalCluster = LocalCluster
        self.Client = Client


def test_a_local_dask_cluster_starts_its_processes_ignoring_ctrl_c_and_quiet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakeDistributed()
    monkeypatch.setitem(sys.modules, "distributed", fake)
    before = signal.getsignal(signal.SIGINT)
    backend = make_backend("dask", jobs=2)
    # The processes started meanwhile inherit the ignored Ctrl-C: the driver alone handles it.
    assert fake.sigint_during_start == signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) == before
    assert fake.cluster_kwargs["silence_logs"] >= logging.ERROR
    assert fake.cluster_kwargs["n_workers"] == 2
    backend.close()
    assert fake.closed == ["client", "cluster"]


def test_ctrl_c_while_a_backend_starts_is_a_clean_error_and_stops_the_cluster(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakeDistributed(client_error=KeyboardInterrupt())
    monkeypatch.setitem(sys.modules, "distributed", fake)
    with pytest.raises(BackendError, match="interrupted while starting the dask backend"):
        make_backend("dask", jobs=1)
    assert fake.closed == ["cluster"]
    # Connecting to a scheduler, too (whose address is taken as checked).
    monkeypatch.setattr(runner, "_check_dask_address", lambda address: None)
    with pytest.raises(BackendError, match="interrupted while starting the dask backend"):
        make_backend("dask", address="tcp://127.0.0.1:8786")


@pytest.mark.parametrize(
    "address", ["nonsense", "tcp://nonsense", "http://127.0.0.1:8786", "tcp://127.0.0.1:port"]
)
def test_an_unusable_dask_address_says_the_form_it_takes(address: str) -> None:
    pytest.importorskip("distributed")
    with pytest.raises(BackendError, match=r"is not a Dask scheduler address.*tcp://HOST:PORT"):
        make_backend("dask", address=address)


def test_a_dask_scheduler_that_is_not_there_is_said_at_once() -> None:
    pytest.importorskip("distributed")
    started = time.monotonic()
    address = f"tcp://127.0.0.1:{closed_port()}"
    with pytest.raises(BackendError, match=r"cannot reach the Dask scheduler .* nothing answers"):
        make_backend("dask", address=address)
    assert time.monotonic() - started < 5  # not the Client's 30 s of retries


def closed_port() -> int:
    """A port of this machine where nothing listens (just freed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("nonsense", "'nonsense' is not a Ray address: write auto"),
        ("127.0.0.1:http", "is not a Ray address"),
        ("ray://:10001", "is not a Ray address"),
        ("127.0.0.1:{port}", "cannot reach Ray at 127.0.0.1:[0-9]+: nothing answers on port"),
        ("ray://127.0.0.1:{port}", "cannot reach Ray at ray://127.0.0.1:[0-9]+: nothing answers"),
    ],
)
def test_an_unusable_ray_address_is_refused_at_once(address: str, message: str) -> None:
    ray = pytest.importorskip("ray")
    started = time.monotonic()
    with pytest.raises(BackendError, match=message):
        make_backend("ray", address=address.format(port=closed_port()))
    # ray.init would have retried such an address for minutes.
    assert time.monotonic() - started < 5
    assert not ray.is_initialized()


def test_a_ray_client_address_without_the_client_packages_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ray = pytest.importorskip("ray")

    def init(**kwargs: Any) -> None:
        # What ray.init says for a ray:// address when its gRPC packages are missing.
        raise ValueError("Ray Client requires pip package `ray[client]`.")

    monkeypatch.setattr(ray, "init", init)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"ray://127.0.0.1:{server.getsockname()[1]}"
        message = r"requires pip package `ray\[client\]`.*: pip install 'patience\[ray\]'"
        with pytest.raises(BackendError, match=message):
            make_backend("ray", address=address)
