"""Behaviour of the installed pytest-malachite wheel (test_wheel.py runs this file from
a temp dir, in a clean virtual environment where the wheel is the only thing installed beside
Debian's pytest and azure-data-tables).

The surface (start_malachite, the Malachite and Account objects, the fixtures and options, the
fixture factories: servers of a scope and accounts on them), accounts isolated from each other (100
tests under pytest-xdist when it is installed), bad input (no binary, a binary for another machine,
a port in use, a bad seed, a data directory it cannot use, a bad flag, a server that never says it
listens: one error each, never a hang), stop() on Windows (sys.platform faked: the closed stdin and
no SIGTERM, the kill after 5 s), and the lifeline: the server is gone within 2 s of the test
process being SIGKILLed. Figures are printed, not asserted.
"""
import base64
import json
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pytest
from azure.data.tables import TableServiceClient

import pytest_malachite as pm
from pytest_malachite import _binary

pytest_plugins = ["pytester"]

MACHINE = platform.machine()
OTHER_ARCH = {"x86_64": "aarch64", "aarch64": "x86_64"}.get(MACHINE, "x86_64")
ELF_MACHINE = {"x86_64": 0x3E, "aarch64": 0xB7}


def figure(capsys, text):
    with capsys.disabled():
        print("\n  figure: " + text)


def pid_gone(pid):
    """True once `pid` no longer runs (absent, or a zombie nobody has reaped yet)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_gone(pid, timeout):
    deadline = time.monotonic() + timeout
    while not pid_gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def processes_in(directory):
    """The pids of the processes (other than this one) whose working directory is `directory`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                if os.readlink("/proc/%s/cwd" % entry) == str(directory):
                    found.append(int(entry))
            except OSError:
                pass
    return found


def service(connection_string):
    return TableServiceClient.from_connection_string(connection_string, retry_total=0)


def names(svc):
    return sorted(t.name for t in svc.list_tables())


# -- the wheel --------------------------------------------------------------------------------------

def test_the_wheel_holds_one_executable_binary_for_this_machine():
    binary = _binary.PACKAGED_BINARY
    assert binary.is_file() and os.access(binary, os.X_OK), "exec bits lost on install: %s" % binary
    assert _binary.elf_machine(str(binary)) == MACHINE
    assert sorted(p.name for p in binary.parent.iterdir()) == ["malachite"]
    expected = os.environ.get("MALACHITE_EXPECTED_VERSION")
    if expected:
        assert pm.__version__ == expected
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=10)
    assert out.stdout.strip() == "malachite %s" % pm.__version__
    assert (binary.parent.parent / "py.typed").is_file()


def test_the_wheel_is_tagged_for_glibc_and_musl_of_this_machine():
    """The binary is static: the wheel says so to pip with the tags of both libcs."""
    from importlib.metadata import distribution
    wheel = distribution("pytest-malachite").read_text("WHEEL") or ""
    tags = [line[len("Tag: "):] for line in wheel.splitlines() if line.startswith("Tag: ")]
    assert tags == ["py3-none-%s_%s" % (p, MACHINE)
                    for p in ("manylinux_2_17", "manylinux2014", "musllinux_1_2")], tags


def test_the_wheels_binary_is_static_it_maps_no_shared_library():
    """No loader, no C library of this machine's: the same file runs on glibc and musl systems."""
    with pm.start_malachite() as server:
        with open("/proc/%d/maps" % server.pid) as maps:
            mapped = {line.split()[-1] for line in maps if line.split()[-1].startswith("/")}
    assert str(_binary.PACKAGED_BINARY) in mapped, sorted(mapped)
    assert not [path for path in mapped if re.search(r"\.so(\.|$)", path)], sorted(mapped)


# -- the surface ------------------------------------------------------------------------------------

def test_start_malachite_serves_the_dev_account_and_stops_cleanly():
    with pm.start_malachite() as server:
        svc = service(server.connection_string)
        svc.create_table("first")
        assert server.port > 0 and server.running
        assert server.account == "devstoreaccount1" and server.key == pm.DEV_KEY
        assert server.table_url == "http://127.0.0.1:%d/devstoreaccount1" % server.port
        assert server.connection_string == (
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=%s;"
            "TableEndpoint=%s;" % (pm.DEV_KEY, server.table_url))
        assert names(svc) == ["first"]
        pid = server.pid
    assert server.exit_status == 0 and not server.running and pid_gone(pid)
    assert server.stop() == 0  # again: the same status


def test_start_to_the_first_sdk_call(capsys):
    """Figures only: start_malachite() to the first successful SDK call (create_table) on a new
    account, and the same with the dev account. The first SDK client of a process also imports
    azure-core's transport (tens of ms), so a client is made once before the clocks start."""
    service("DefaultEndpointsProtocol=http;AccountName=warm;AccountKey=%s;"
            "TableEndpoint=http://127.0.0.1:9/warm;" % pm.DEV_KEY)
    dev, own = [], []
    for i in range(5):
        started = time.perf_counter()
        with pm.start_malachite() as server:
            service(server.connection_string).create_table("first")
            dev.append(time.perf_counter() - started)
        started = time.perf_counter()
        with pm.start_malachite() as server:
            service(server.create_account().connection_string).create_table("first")
            own.append(time.perf_counter() - started)
    figure(capsys, "start_malachite() to the first successful SDK call, median of 5: %.1f ms "
                   "(devstoreaccount1), %.1f ms (create_account() first)"
           % (sorted(dev)[2] * 1000, sorted(own)[2] * 1000))


def test_accounts_are_made_listed_used_and_deleted(malachite):
    name = "py" + uuid.uuid4().hex[:12]
    key = base64.b64encode(os.urandom(32)).decode()
    account = malachite.create_account(name, key=key)
    assert (account.name, account.key) == (name, key)
    assert account.table_url == "http://127.0.0.1:%d/%s" % (malachite.port, name)
    assert account.connection_string == (
        "DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;TableEndpoint=%s;"
        % (name, key, account.table_url))
    svc = service(account.connection_string)
    svc.create_table("items").create_entity({"PartitionKey": "p", "RowKey": "1", "N": 1})
    listed = {a["name"]: a for a in malachite.accounts()}
    assert listed[name]["runtime"] is True and listed["devstoreaccount1"]["runtime"] is False

    generated = malachite.create_account()
    assert re.fullmatch(r"[a-z0-9]{3,24}", generated.name)
    assert len(base64.b64decode(generated.key)) == 64
    with generated:
        assert names(service(generated.connection_string)) == []
    account.delete()
    assert {a["name"] for a in malachite.accounts()}.isdisjoint({name, generated.name})


@pytest.mark.parametrize("name, key, status, code", [
    ("taken", None, 409, "StorageAccountAlreadyTaken"),
    ("Not_Valid", None, 400, "AccountNameInvalid"),
    ("ab", None, 400, "AccountNameInvalid"),
    (None, "not base64!", 400, "InvalidInput"),
])
def test_account_requests_the_service_refuses_raise_its_status_and_code(malachite, name, key,
                                                                        status, code):
    if name == "taken":
        name = malachite.create_account().name
    with pytest.raises(pm.MalachiteAdminError) as refused:
        malachite.create_account(name, key=key)
    assert (refused.value.status, refused.value.code) == (status, code)
    assert refused.value.detail and code in str(refused.value)


def test_deleting_an_unknown_or_a_configured_account_is_refused(malachite):
    with pytest.raises(pm.MalachiteAdminError) as unknown:
        malachite.delete_account("nosuch" + uuid.uuid4().hex[:8])
    assert (unknown.value.status, unknown.value.code) == (404, "ResourceNotFound")
    with pytest.raises(pm.MalachiteAdminError) as configured:
        malachite.delete_account("devstoreaccount1")
    assert (configured.value.status, configured.value.code) == (409, "OperationNotAllowed")


def test_accounts_do_not_see_each_others_tables(malachite):
    first, second = malachite.create_account(), malachite.create_account()
    try:
        service(first.connection_string).create_table("orders").create_entity(
            {"PartitionKey": "p", "RowKey": "1", "Owner": "first"})
        assert names(service(second.connection_string)) == []
        service(second.connection_string).create_table("orders")
        assert list(service(second.connection_string).get_table_client("orders")
                    .list_entities()) == []
        assert "orders" not in names(service(malachite.connection_string))
    finally:
        first.delete()
        second.delete()


def test_reset_restores_the_seed_and_empties_one_account(tmp_path):
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "people.jsonl").write_text('{"PartitionKey":"a","RowKey":"1","Name":"Ada"}\n'
                                       '{"PartitionKey":"a","RowKey":"2","Name":"Grace"}\n')
    with pm.start_malachite(seed=seed) as server:
        dev = service(server.connection_string)
        assert sorted(e["Name"] for e in dev.get_table_client("people").list_entities()) == [
            "Ada", "Grace"]
        dev.create_table("scratch")
        dev.get_table_client("people").delete_entity("a", "1")
        account = server.create_account()
        own = service(account.connection_string)
        own.create_table("mine")

        summary = server.reset(account=account.name)
        assert summary["accounts"] == [account.name]
        assert names(own) == [] and names(dev) == ["people", "scratch"]

        summary = server.reset()
        assert summary["entities_seeded"] == 2
        assert names(dev) == ["people"]
        assert len(list(dev.get_table_client("people").list_entities())) == 2
        server.reset(seed=False)
        assert names(dev) == []


def test_a_data_dir_keeps_the_data_and_a_temporary_one_is_removed(tmp_path):
    data = tmp_path / "data"
    with pm.start_malachite(data_dir=data) as server:
        service(server.connection_string).create_table("kept")
    with pm.start_malachite(data_dir=data) as server:
        assert names(service(server.connection_string)) == ["kept"]
    with pm.start_malachite(in_memory=False) as server:
        made = server.data_dir
        assert os.path.isdir(made)
    assert not os.path.exists(made)


def test_100_parallel_users_each_with_their_own_account(malachite, capsys):
    def one_test(i):
        account = malachite.create_account()
        try:
            table = service(account.connection_string).create_table("items")
            table.create_entity({"PartitionKey": "p", "RowKey": str(i)})
            return [e["RowKey"] for e in table.list_entities()] == [str(i)]
        finally:
            account.delete()

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=100) as pool:
        results = list(pool.map(one_test, range(100)))
    elapsed = time.perf_counter() - started
    assert all(results)
    figure(capsys, "100 threads each creating an account, a table, an entity, a query, deleting "
                   "the account: %.0f ms in all" % (elapsed * 1000))


# -- bad input --------------------------------------------------------------------------------------

def assert_names_platform_and_variable(error):
    text = str(error.value)
    assert MACHINE in text and "MALACHITE_BINARY" in text, text
    assert "\n" not in text, text  # one line


def test_a_missing_binary_names_the_platform_and_MALACHITE_BINARY(tmp_path, monkeypatch):
    with pytest.raises(pm.MalachiteBinaryError) as given:
        pm.start_malachite(binary=tmp_path / "nothing")
    assert_names_platform_and_variable(given)
    monkeypatch.setenv("MALACHITE_BINARY", str(tmp_path / "nothing"))
    with pytest.raises(pm.MalachiteBinaryError) as from_env:
        pm.start_malachite()
    assert_names_platform_and_variable(from_env)
    assert "MALACHITE_BINARY=%s" % (tmp_path / "nothing") in str(from_env.value)
    monkeypatch.delenv("MALACHITE_BINARY")
    monkeypatch.setattr(_binary, "PACKAGED_BINARY", tmp_path / "bin" / "malachite")
    with pytest.raises(pm.MalachiteBinaryError) as none_in_wheel:
        pm.start_malachite()
    assert_names_platform_and_variable(none_in_wheel)
    assert "has no malachite binary for linux-%s" % MACHINE in str(none_in_wheel.value)


def test_on_a_system_other_than_linux_the_one_line_says_image_or_MALACHITE_BINARY(monkeypatch):
    monkeypatch.delenv("MALACHITE_BINARY", raising=False)
    monkeypatch.setattr(sys, "platform", "darwin")
    with pytest.raises(pm.MalachiteBinaryError) as refused:
        pm.start_malachite()
    assert_names_platform_and_variable(refused)
    assert "runs on Linux and Windows, and this is darwin-%s" % MACHINE in str(refused.value)
    assert "Linux on x86_64 and aarch64 (any libc)" in str(refused.value)
    assert "container image" in str(refused.value)


def test_a_binary_for_another_machine_is_refused_before_it_runs(tmp_path):
    other_wheel = os.environ.get("MALACHITE_OTHER_ARCH_WHEEL")
    foreign = tmp_path / "malachite"
    if other_wheel:  # the real binary of the other architecture's wheel
        with zipfile.ZipFile(other_wheel) as wheel:
            foreign.write_bytes(wheel.read("pytest_malachite/bin/malachite"))
    else:  # this machine's binary with another e_machine
        header = bytearray(_binary.PACKAGED_BINARY.read_bytes()[:64])
        header[18:20] = ELF_MACHINE.get(OTHER_ARCH, 0xB7).to_bytes(2, "little")
        foreign.write_bytes(bytes(header))
    foreign.chmod(0o755)
    with pytest.raises(pm.MalachiteBinaryError) as refused:
        pm.start_malachite(binary=foreign)
    assert_names_platform_and_variable(refused)
    assert "is a linux-%s binary and this machine is linux-%s" % (OTHER_ARCH, MACHINE) in str(
        refused.value)


def test_on_windows_a_linux_binary_is_refused_before_it_runs(monkeypatch):
    """Told it runs on Windows x64 (sys.platform win32, platform.machine() AMD64, as Python says
    there), the launcher refuses this Linux binary in one line that names the Windows wheel.
    (test_wheel.py installs the Windows wheel and sees it resolve its bin/malachite.exe.)"""
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(platform, "machine", lambda: "AMD64")
    with pytest.raises(pm.MalachiteBinaryError) as refused:
        pm.start_malachite(binary=_binary.PACKAGED_BINARY)
    assert_names_platform_and_variable(refused)
    assert "is a linux-%s binary and this machine is win32-AMD64" % MACHINE in str(refused.value)
    assert "wheel for Windows on x86_64 (win_amd64)" in str(refused.value)


def expect_start_error(**kwargs):
    started = time.monotonic()
    with pytest.raises(pm.MalachiteStartError) as failed:
        pm.start_malachite(**kwargs)
    assert time.monotonic() - started < 5, "took %.1f s" % (time.monotonic() - started)
    return failed.value


def test_a_port_in_use_raises_the_servers_own_message():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        error = expect_start_error(port=port)
    assert str(error).startswith(
        "malachite: cannot listen on 127.0.0.1:%d: Address already in use" % port)
    assert error.exit_status == 1


def test_a_bad_seed_file_raises_the_servers_own_message(tmp_path):
    (tmp_path / "people.jsonl").write_text('{"PartitionKey":"a","RowKey":"1"}\n{not json\n')
    error = expect_start_error(seed=tmp_path)
    assert str(error).startswith("malachite: %s:2:" % (tmp_path / "people.jsonl")), str(error)
    assert error.exit_status == 1
    error = expect_start_error(seed=tmp_path / "missing")
    assert "malachite: --seed %s" % (tmp_path / "missing") in str(error)


def test_a_data_dir_it_cannot_use_raises_the_servers_own_message(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    data_dir = locked / "data"
    if os.access(locked, os.W_OK):  # root writes anywhere: a path under a regular file instead
        (tmp_path / "a-file").write_text("")
        data_dir = tmp_path / "a-file" / "data"
    error = expect_start_error(data_dir=data_dir)
    assert str(error).startswith("malachite: data directory %s: " % data_dir), str(error)
    assert error.exit_status == 1


def test_a_bad_flag_raises_the_servers_own_message():
    error = expect_start_error(args=["--colour", "green"])
    assert str(error).startswith("malachite: unknown option '--colour'"), str(error)
    assert error.exit_status == 2


def test_a_server_that_never_says_it_listens_is_killed_after_start_timeout(tmp_path):
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\necho \"$$\" > '%s'\nexec sleep 60\n" % (tmp_path / "pid"))
    silent.chmod(0o755)
    started = time.monotonic()
    with pytest.raises(pm.MalachiteStartError) as failed:
        pm.start_malachite(binary=silent, start_timeout=1.0)
    assert 1.0 <= time.monotonic() - started < 3
    assert "did not report 'listening on' within 1.0 s" in str(failed.value)
    assert failed.value.exit_status is None
    assert wait_gone(int((tmp_path / "pid").read_text()), 2)


def test_an_admin_request_to_a_dead_server_says_it_exited():
    server = pm.start_malachite()
    os.kill(server.pid, signal.SIGKILL)
    server.process.wait()
    with pytest.raises(pm.MalachiteAdminError) as failed:
        server.create_account()
    assert failed.value.status == 0 and "exited with status -9" in str(failed.value)
    assert server.stop() == -signal.SIGKILL


# -- stop() on Windows, where there is no SIGTERM (sys.platform faked: win32) -----------------------

def stand_in(path, stubborn=False):
    """A stand-in server (the launcher runs it like the binary): it says it listens, records its
    stdin closing in <path>.log, then a SIGTERM if one comes within 2 s, and exits 0; or, stubborn,
    it ignores both."""
    body = ("trap '' TERM\necho 'malachite: listening on 127.0.0.1:1'\nexec sleep 30\n" if stubborn else
            "trap 'echo SIGTERM >> \"$0.log\"; exit 0' TERM\necho 'malachite: listening on 127.0.0.1:1'\n"
            "cat >/dev/null\necho stdin-closed >> \"$0.log\"\nsleep 2 </dev/null >/dev/null 2>&1 &\nwait\n")
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_stop_on_windows_closes_stdin_and_sends_no_sigterm_on_linux_it_does(monkeypatch, tmp_path):
    linux = stand_in(tmp_path / "linux")
    assert pm.start_malachite(binary=linux).stop() == 0
    # (SIGTERM may come while it still reads its stdin: then it records no stdin-closed line)
    assert re.fullmatch(r"(stdin-closed\n)?SIGTERM\n", (tmp_path / "linux.log").read_text())
    monkeypatch.setattr(sys, "platform", "win32")
    windows = stand_in(tmp_path / "windows")
    assert pm.start_malachite(binary=windows).stop() == 0
    assert (tmp_path / "windows.log").read_text() == "stdin-closed\n"


def test_on_windows_a_server_that_ignores_its_closed_stdin_is_killed_after_5_s(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "win32")
    server = pm.start_malachite(binary=stand_in(tmp_path / "stubborn", stubborn=True))
    started = time.monotonic()
    status = server.stop()
    took = time.monotonic() - started
    assert status == -signal.SIGKILL  # (1 on Windows: TerminateProcess)
    assert 4.9 <= took < 8, "stop() took %.1f s" % took


# -- the plugin -------------------------------------------------------------------------------------

PLUGIN_TEST = """
import json, os
from azure.data.tables import TableServiceClient

def test_fixtures(malachite, malachite_account, malachite_connection_string):
    assert malachite_connection_string == malachite_account.connection_string
    assert malachite_account.name in {a["name"] for a in malachite.accounts()}
    dev = TableServiceClient.from_connection_string(malachite.connection_string)
    with open(os.environ["REPORT"], "w") as f:
        json.dump({"tables": sorted(t.name for t in dev.list_tables()),
                   "account": malachite_account.name, "binary": malachite.binary}, f)
"""


def run_plugin_test(pytester, *args):
    report = pytester.path / "report.json"
    pytester.makepyfile(test_fixtures=PLUGIN_TEST)
    os.environ["REPORT"] = str(report)
    try:
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=60)
    finally:
        del os.environ["REPORT"]
    return result, (json.loads(report.read_text()) if report.exists() else None)


def test_the_plugin_fixtures_options_and_ini_keys(pytester):
    seed = pytester.mkdir("fixtures")
    (seed / "orders.jsonl").write_text('{"PartitionKey":"p","RowKey":"1"}\n')
    other = pytester.mkdir("other")
    (other / "people.csv").write_text("PartitionKey,RowKey\np,1\n")

    result, report = run_plugin_test(pytester)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["malachite: *pytest_malachite/bin/malachite (the wheel's binary)"])
    assert report["tables"] == []
    account = report["account"]
    assert re.fullmatch(r"[a-z0-9]{3,24}", account)

    pytester.makeini("[pytest]\nmalachite_seed = fixtures\nmalachite_args = --throttling off\n")
    result, report = run_plugin_test(pytester)
    result.assert_outcomes(passed=1)
    assert report["tables"] == ["orders"]

    result, report = run_plugin_test(pytester, "--malachite-seed", str(other))
    result.assert_outcomes(passed=1)
    assert report["tables"] == ["people"]  # the command line wins over the ini key


def test_the_plugin_reports_a_missing_binary_and_a_bad_flag_as_errors(pytester):
    result, _ = run_plugin_test(pytester, "--malachite-binary", "/no/such/malachite")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*MalachiteBinaryError*binary='/no/such/malachite': no such file "
                                 "(platform linux-%s)*MALACHITE_BINARY*" % MACHINE])
    result, _ = run_plugin_test(pytester, "--malachite-arg=--colour=green")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*MalachiteStartError: malachite: unknown option '--colour'*"])


# -- the fixture factories --------------------------------------------------------------------------

FACTORY_CONFTEST = """
from pytest_malachite import factories

per_module = factories.malachite_server(scope="module", seed="seed", args=["--throttling", "off"])
per_test = factories.malachite_server(scope="function")
module_account = factories.malachite_account("per_module")
"""

FACTORY_TEST = """
import glob, json, os
from azure.data.tables import TableServiceClient

REPORTS = os.environ["REPORT_DIR"]

def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False

def record(name, **values):
    with open(os.path.join(REPORTS, "%s-%s.json" % (__name__, name)), "w") as f:
        json.dump(values, f)

def test_one(per_module, per_test, module_account, malachite):
    service = TableServiceClient.from_connection_string(per_module.connection_string)
    earlier = [json.load(open(p)) for p in glob.glob(os.path.join(REPORTS, "*-two.json"))]
    record("one", module=per_module.pid, test=per_test.pid, session=malachite.pid,
           tables=sorted(t.name for t in service.list_tables()),
           account_on_module={a["name"] for a in per_module.accounts()} >= {module_account.name},
           account_on_session=module_account.name in {a["name"] for a in malachite.accounts()},
           earlier_modules_alive=[alive(r["module"]) for r in earlier])

def test_two(per_module, per_test, malachite):
    one = json.load(open(os.path.join(REPORTS, "%s-one.json" % __name__)))
    record("two", module=per_module.pid, test=per_test.pid, session=malachite.pid,
           previous_test_alive=alive(one["test"]))
"""


def test_factories_make_servers_of_a_scope_and_accounts_on_them(pytester, tmp_path):
    """factories.malachite_server(scope=...) in a conftest.py: a server per module (seeded, with
    flags), one per test, each stopped at the end of its scope; factories.malachite_account(name):
    an account on that server, not on the session's."""
    (pytester.mkdir("seed") / "orders.jsonl").write_text('{"PartitionKey":"p","RowKey":"1"}\n')
    pytester.makeconftest(FACTORY_CONFTEST)
    pytester.makepyfile(test_a=FACTORY_TEST, test_b=FACTORY_TEST)
    reports = tmp_path / "reports"
    reports.mkdir()
    os.environ["REPORT_DIR"] = str(reports)
    try:
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=60)
    finally:
        del os.environ["REPORT_DIR"]
    result.assert_outcomes(passed=4)
    a1, a2, b1, b2 = (json.loads((reports / ("test_%s-%s.json" % n)).read_text())
                      for n in (("a", "one"), ("a", "two"), ("b", "one"), ("b", "two")))
    assert a1["module"] == a2["module"] and b1["module"] == b2["module"] != a1["module"]
    assert len({r["test"] for r in (a1, a2, b1, b2)}) == 4
    assert len({r["session"] for r in (a1, a2, b1, b2)}) == 1
    assert {r["session"] for r in (a1, b1)}.isdisjoint({r["module"] for r in (a1, b1)})
    assert a1["tables"] == b1["tables"] == ["orders"]  # seed="seed": relative to the rootdir
    assert a1["account_on_module"] and not a1["account_on_session"]
    # Stopped at the end of their scope: test_a's server before test_b ran, a test's after it.
    assert b1["earlier_modules_alive"] == [False]
    assert not a2["previous_test_alive"] and not b2["previous_test_alive"]
    pids = [r[k] for r in (a1, a2, b1, b2) for k in ("module", "test", "session")]
    assert all(pid_gone(pid) for pid in pids)


def test_factory_servers_take_the_command_lines_binary_and_flags(pytester):
    pytester.makeconftest(FACTORY_CONFTEST)
    pytester.makepyfile(test_one="def test_it(per_test):\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--malachite-arg=--colour=green",
                                           timeout=60)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*MalachiteStartError: malachite: unknown option '--colour'*"])
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider",
                                           "--malachite-binary", "/no/such/malachite", timeout=60)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*MalachiteBinaryError*/no/such/malachite*MALACHITE_BINARY*"])


def test_a_factory_refuses_an_unknown_scope_and_args_that_are_not_a_list():
    from pytest_malachite import factories
    with pytest.raises(ValueError, match=r"scope='worker'\): one of session, package, module"):
        factories.malachite_server(scope="worker")
    with pytest.raises(TypeError, match=r"a list of flags"):
        factories.malachite_server(args="--throttling off")
    with pytest.raises(TypeError, match=r"a list of flags"):
        factories.malachite_server(args=["--port", 10002])


ISOLATION_TEST = """
import pytest
from azure.data.tables import TableServiceClient

@pytest.mark.parametrize("i", range(100))
def test_own_account(malachite_account, i):
    svc = TableServiceClient.from_connection_string(malachite_account.connection_string)
    items = svc.create_table("items")  # the same name in every test
    items.create_entity({"PartitionKey": "p", "RowKey": str(i)})
    assert [e["RowKey"] for e in items.list_entities()] == [str(i)]
    assert [t.name for t in svc.list_tables()] == ["items"]
"""


def xdist_installed():
    try:
        import xdist  # noqa: F401
        return True
    except ImportError:
        return False


def test_100_tests_each_with_their_own_account_in_parallel(pytester, capsys):
    if not xdist_installed() and os.environ.get("CI") == "true":
        pytest.fail("pytest-xdist is missing (apt-get install python3-pytest-xdist)")
    pytester.makepyfile(test_isolation=ISOLATION_TEST)
    workers = ["-n", "2"] if xdist_installed() else []
    started = time.perf_counter()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *workers, timeout=120)
    elapsed = time.perf_counter() - started
    result.assert_outcomes(passed=100)
    session = re.search(r"100 passed in ([0-9.]+)s", result.stdout.str())
    figure(capsys, "100 tests with their own account (create table, insert, query, delete "
                   "account), %s: %s s as pytest reports it, %.2f s for the whole run"
           % ("pytest-xdist -n 2" if workers else "sequential: pytest-xdist is not installed",
              session.group(1) if session else "?", elapsed))


# -- the lifeline -----------------------------------------------------------------------------------

KILLED_TEST = """
import os, time
import pytest

@pytest.mark.parametrize("i", range(2))
def test_waits(malachite, i):
    with open("server-%d.pid.tmp" % os.getpid(), "w") as f:
        f.write(str(malachite.pid))
    os.rename("server-%d.pid.tmp" % os.getpid(), "server-%d.pid" % os.getpid())
    time.sleep(120)
"""


@pytest.mark.parametrize("workers", [0, 2], ids=["one process", "xdist -n 2"])
def test_the_servers_are_gone_within_2_s_of_pytest_being_SIGKILLed(pytester, capsys, workers):
    """pytest (with -n 2: its main process, the workers' parent) is SIGKILLed while a test runs;
    the server of every process (the main one, or each worker) stops within 2 s."""
    if workers and not xdist_installed():
        if os.environ.get("CI") == "true":
            pytest.fail("pytest-xdist is missing (apt-get install python3-pytest-xdist)")
        pytest.skip("pytest-xdist is not installed")
    pytester.makepyfile(test_killed=KILLED_TEST)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"]
    runner = subprocess.Popen(command + (["-n", str(workers)] if workers else []),
                              cwd=str(pytester.path), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while len(list(pytester.path.glob("server-*.pid"))) < max(workers, 1):
            assert runner.poll() is None, "pytest exited with %s" % runner.returncode
            assert time.monotonic() < deadline, "no server pid after 30 s"
            time.sleep(0.02)
        servers = [int(p.read_text()) for p in pytester.path.glob("server-*.pid")]
        assert not any(pid_gone(pid) for pid in servers)
    finally:
        killed = time.perf_counter()
        runner.send_signal(signal.SIGKILL)
        runner.wait()
    left = [pid for pid in servers if not wait_gone(pid, 2.0 - (time.perf_counter() - killed))]
    took = time.perf_counter() - killed
    for pid in left + processes_in(pytester.path):  # the orphaned xdist workers, the servers left
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, "server(s) %s still run 2 s after pytest was SIGKILLed" % left
    figure(capsys, "%d server(s) gone %.0f ms after pytest%s was SIGKILLed"
           % (len(servers), took * 1000, " -n %d (its main process)" % workers if workers else ""))
