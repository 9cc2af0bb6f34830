"""A SIGTERM that comes as soon as the server said it listens stops it gracefully (exit 0), as a
SIGTERM later does: the listener catches SIGINT/SIGTERM from its opening, before the "listening
on" line (server/net/listener.cc). Launchers and CI scripts that stop a server right after it
started (a test that fails at once, a readiness check that is all a job wanted) saw it die by the
signal instead, now and then."""
import signal

from conftest import log, start

ROUNDS = 40


def test_a_sigterm_right_after_the_listening_line_stops_the_server_with_exit_0(tmp_path):
    for round_ in range(ROUNDS):
        server = start(data_dir=str(tmp_path / ("data%d" % round_)))
        server.process.send_signal(signal.SIGTERM)
        status = server.process.wait(timeout=10)
        assert status == 0, "round %d: the server exited with %s after an immediate SIGTERM; log:\n%s" % (
            round_, status, log(server))
        server.stop()
