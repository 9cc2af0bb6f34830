"""The Python SDK's smoke test of a Malachite server, for suites that start it somewhere a client
package's fixtures cannot reach (tests/release: clean roots, qemu; `from sdk_check import smoke`).

smoke(endpoint): the life of a table: create it, insert, query with a filter, a batch of three,
delete an entity, delete the table (it is gone from the list). Returns True when that holds,
else why not; an SDK error raises.
"""
from azure.data.tables import TableServiceClient

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="


def service(endpoint):
    connection_string = ("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;"
                         "TableEndpoint=%s/%s;" % (ACCOUNT, KEY, endpoint, ACCOUNT))
    return TableServiceClient.from_connection_string(connection_string, retry_total=0)


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
