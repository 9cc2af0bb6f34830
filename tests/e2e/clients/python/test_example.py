from azure.data.tables import TableServiceClient


def test_orders_are_kept_per_account(malachite_account):
    # malachite_account: a fresh account on the session's Malachite server, deleted after the test
    service = TableServiceClient.from_connection_string(malachite_account.connection_string)
    orders = service.create_table("orders")  # the same table name in every test: no clash
    orders.create_entity({"PartitionKey": "alice", "RowKey": "1", "Total": 42})
    assert [o["Total"] for o in orders.query_entities("PartitionKey eq 'alice'")] == [42]
