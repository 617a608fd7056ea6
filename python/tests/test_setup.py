"""setup.py on a Python that cannot build the package says what is missing and what to install (issue: pip's
"invalid command 'bdist_wheel'" with a pyenv python3 first on PATH)."""
import os
import subprocess
import sys

SETUP = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "setup.py")


def test_setup_without_wheel_names_it():
    if not os.path.exists(SETUP):
        import pytest
        pytest.skip("setup.py is not beside the tests (installed copy)")
    # the 'wheel' module made unimportable, as on an interpreter without it
    code = ("import sys; sys.modules['wheel'] = None; sys.argv = ['setup.py', '--name']; "
            "exec(compile(open(%r).read(), 'setup.py', 'exec'))" % SETUP)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=os.path.dirname(SETUP))
    assert p.returncode != 0
    assert "lacks the 'wheel' package" in p.stderr
    assert "/usr/bin/python3 -m venv --system-site-packages" in p.stderr
