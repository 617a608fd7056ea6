"""Fixtures of the nnperf package's tests: the repository (for models/) and the CLI to compare with.

NNPERF_SOURCE_DIR: the repository root (default: two folders up from here); NNPERF_CLI: the nnperf command
(default: build/nnperf in the repository; the tests that compare with it are skipped when it is missing)."""
import os

import pytest


@pytest.fixture(scope="session")
def root():
    return os.environ.get("NNPERF_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def models(root):
    return os.path.join(root, "models")


@pytest.fixture(scope="session")
def cli(root):
    path = os.environ.get("NNPERF_CLI") or os.path.join(root, "build", "nnperf")
    if not os.access(path, os.X_OK):
        pytest.skip(f"no nnperf command at {path} (set NNPERF_CLI)")
    return path
