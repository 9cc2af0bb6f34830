"""The admin access rule seen from a non-loopback client, run by test_admin_access.py inside a
network namespace of its own (`unshare --net`): loopback is brought up, 198.18.0.1 (a
benchmarking address, RFC 2544) is added to it, and the server listens on 0.0.0.0. Requests
bound to 127.0.0.1 arrive from loopback, requests bound to 198.18.0.1 do not. Prints one JSON
object: {"<server flags>": {"<check>": <status>, ...}, ...}. Nothing leaves the namespace.
"""
import base64
import datetime
import hashlib
import hmac
import http.client
import json
import subprocess
import sys

from conftest import DEV_ACCOUNT, DEV_KEY, start, stop_checked

OUTSIDE = "198.18.0.1"


def request(port, source, method, path, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1" if source == "127.0.0.1" else OUTSIDE,
                                            port, timeout=10, source_address=(source, 0))
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def shared_key_headers(method, path):
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%a, %d %b %Y %H:%M:%S GMT")
    to_sign = "%s\n\n\n%s\n/%s%s" % (method, date, DEV_ACCOUNT, path)
    signature = base64.b64encode(hmac.new(base64.b64decode(DEV_KEY), to_sign.encode(),
                                          hashlib.sha256).digest()).decode()
    return {"x-ms-date": date, "Authorization": "SharedKey %s:%s" % (DEV_ACCOUNT, signature)}


def checks(port):
    basic = base64.b64encode(("%s:%s" % (DEV_ACCOUNT, DEV_KEY)).encode()).decode()
    return {
        "loopback metrics": request(port, "127.0.0.1", "GET", "/-/metrics"),
        "outside metrics": request(port, OUTSIDE, "GET", "/-/metrics"),
        "outside partitions": request(port, OUTSIDE, "GET", "/-/partitions"),
        "outside faults": request(port, OUTSIDE, "GET", "/-/faults"),
        "outside clear faults": request(port, OUTSIDE, "DELETE", "/-/faults"),
        "outside unknown": request(port, OUTSIDE, "GET", "/-/nothing"),
        "outside healthy": request(port, OUTSIDE, "GET", "/-/healthy"),
        "outside ready": request(port, OUTSIDE, "GET", "/-/ready"),
        "outside bearer": request(port, OUTSIDE, "GET", "/-/metrics",
                                  {"Authorization": "Bearer " + DEV_KEY}),
        "outside wrong bearer": request(port, OUTSIDE, "GET", "/-/metrics",
                                        {"Authorization": "Bearer bm90IHRoZSBrZXk="}),
        "outside basic": request(port, OUTSIDE, "GET", "/-/metrics",
                                 {"Authorization": "Basic " + basic}),
        "outside shared key": request(port, OUTSIDE, "GET", "/-/partitions",
                                      shared_key_headers("GET", "/-/partitions")),
        # The Table API is not behind the admin rule: an unsigned request gets Azure's 403.
        "outside table api unsigned": request(port, OUTSIDE, "GET", "/devstoreaccount1/Tables"),
    }


def main():
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    subprocess.run(["ip", "addr", "add", OUTSIDE + "/32", "dev", "lo"], check=True)
    results = {}
    for flags in ([], ["--admin-open"], ["--loose"]):
        server = start(args=["--host", "0.0.0.0"] + flags)
        try:
            results[" ".join(flags) or "default"] = checks(server.port)
        finally:
            stop_checked(server)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
