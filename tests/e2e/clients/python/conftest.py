"""pytest tests/e2e/clients/python: the pytest-malachite wheel as a user installs it (test_wheel.py).

The files the wheel's clean virtual environment runs are not collected here, where the wheel is not
installed: the README's examples (test_example.py, factory/), the behaviour tests (test_plugin.py)
and typed_usage.py. test_wheel.py copies them to a temp dir and runs them there; test_windows.py is
the Windows wheel's, run by the release workflow's windows job.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "support"))

collect_ignore = ["test_example.py", "test_plugin.py", "test_windows.py", "typed_usage.py", "factory"]
