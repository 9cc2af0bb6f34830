"""The client of the compose check: Blob, Queue and Table through Debian's python3-azure, from the
connection string in STORAGE_CONNECTION_STRING (endpoints at the compose service's name). Prints one
line per service and "compose client: ok"; exits 1 with the failure otherwise."""
import os
import sys

from azure.core.exceptions import ResourceExistsError
from azure.data.tables import TableServiceClient
from azure.storage.blob import BlobServiceClient
from azure.storage.queue import QueueServiceClient

conn = os.environ["STORAGE_CONNECTION_STRING"]


def blob():
    container = BlobServiceClient.from_connection_string(conn).get_container_client("compose")
    try:
        container.create_container()
    except ResourceExistsError:
        pass
    container.upload_blob("greeting.txt", b"hello compose", overwrite=True)
    data = container.download_blob("greeting.txt").readall()
    assert data == b"hello compose", data
    print("blob: uploaded and downloaded greeting.txt")


def queue():
    client = QueueServiceClient.from_connection_string(conn).get_queue_client("compose")
    try:
        client.create_queue()
    except ResourceExistsError:
        pass
    client.send_message("hello compose")
    messages = list(client.receive_messages(max_messages=1))
    assert [m.content for m in messages] == ["hello compose"], messages
    client.delete_message(messages[0])
    print("queue: sent, received and deleted a message")


def table():
    service = TableServiceClient.from_connection_string(conn)
    client = service.create_table_if_not_exists("compose")
    client.upsert_entity({"PartitionKey": "p", "RowKey": "r", "Greeting": "hello compose", "N": 7})
    entity = client.get_entity("p", "r")
    assert entity["Greeting"] == "hello compose" and entity["N"] == 7, entity
    rows = list(client.query_entities("N eq 7"))
    assert len(rows) == 1, rows
    print("table: upserted, read and queried an entity")


try:
    blob()
    queue()
    table()
except Exception as err:  # pylint: disable=broad-except
    print(f"compose client: FAILED: {type(err).__name__}: {err}", file=sys.stderr)
    sys.exit(1)
print("compose client: ok")
