"""The Python SDK against a Malachite server in a container (tests/docker) or in a clean root file
system (tests/release imports smoke()).

Usage: /usr/bin/python3 tests/support/sdk_check.py smoke|write|verify|admin|fill <endpoint>
  smoke   the life of a table: create it, insert, query with a filter, a batch of three, delete
          an entity, delete the table (it is gone from the list)
  write   creates the table "dockercheck" and upserts three entities, then reads them back
  verify  the three entities are there (after a restart)
  admin   the health probe answers anyone; /-/metrics refuses the host (not loopback inside the
          container) without credentials and answers with the account key as a bearer secret
  fill    with --in-memory on a small /dev/shm: inserts 60 KB entities until the answer is
          409 InsufficientAccountResources, then reads every acknowledged one
Exits 0 when the check holds, else prints why and exits 1. Each function returns True when its
check holds, else why not; an SDK error raises.
"""
import sys
import urllib.error
import urllib.request

from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableServiceClient

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
ROWS = {"a": 1, "b": 2, "c": 3}


def service(endpoint):
    connection_string = ("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;"
                         "TableEndpoint=%s/%s;" % (ACCOUNT, KEY, endpoint, ACCOUNT))
    return TableServiceClient.from_connection_string(connection_string, retry_total=0)


def rows(table):
    return {e["RowKey"]: e["n"] for e in table.query_entities("PartitionKey eq 'p'")}


def smoke(endpoint):
    svc = service(endpoint)
    table = svc.create_table("packagesmoke")
    table.create_entity({"PartitionKey": "p", "RowKey": "1", "n": 1})
    table.submit_transaction([("create", {"PartitionKey": "p", "RowKey": str(i), "n": i})
                              for i in (2, 3, 4)])
    found = sorted(e["n"] for e in table.query_entities("PartitionKey eq 'p' and n ge 2"))
    if found != [2, 3, 4]:
        return "query n ge 2 after the batch found %s" % found
    table.delete_entity("p", "1")
    left = sorted(e["RowKey"] for e in table.list_entities())
    if left != ["2", "3", "4"]:
        return "after deleting row 1 the table holds %s" % left
    svc.delete_table("packagesmoke")
    names = [t.name for t in svc.list_tables()]
    return "packagesmoke" not in names or "the deleted table is still listed"


def write(endpoint):
    table = service(endpoint).create_table_if_not_exists("dockercheck")
    for row, n in ROWS.items():
        table.upsert_entity({"PartitionKey": "p", "RowKey": row, "n": n})
    return rows(table) == ROWS or "read back %s" % rows(table)


def verify(endpoint):
    found = rows(service(endpoint).get_table_client("dockercheck"))
    return found == ROWS or "after the restart the table holds %s" % found


def status(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}),
                                    timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def admin(endpoint):
    got = (status(endpoint + "/-/ready"), status(endpoint + "/-/metrics"),
           status(endpoint + "/-/metrics", {"Authorization": "Bearer " + KEY}))
    return got == (200, 401, 200) or "ready, metrics, metrics with the key: %s" % (got,)


def fill(endpoint):
    table = service(endpoint).create_table("shmfill")
    acked = []
    for i in range(400):
        try:
            table.create_entity({"PartitionKey": "p", "RowKey": "r%04d" % i, "b": b"z" * 60000})
        except HttpResponseError as error:
            code = error.response.headers.get("x-ms-error-code")
            if error.status_code != 409 or code != "InsufficientAccountResources":
                return "a full /dev/shm answered %s %s" % (error.status_code, code)
            listed = [e["RowKey"] for e in table.list_entities(select=["RowKey"])]
            return listed == acked or "listed %d of %d" % (len(listed), len(acked))
        acked.append("r%04d" % i)
    return "400 entities of 60 KB fit in the small /dev/shm"


def main():
    check, endpoint = sys.argv[1], sys.argv[2].rstrip("/")
    outcome = {"smoke": smoke, "write": write, "verify": verify, "admin": admin, "fill": fill}[check](endpoint)
    if outcome is not True:
        print("sdk_check %s: %s" % (check, outcome), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
