from azure.data.tables import TableServiceClient


def test_the_seeded_server_has_the_fixtures(malachite_seeded):
    service = TableServiceClient.from_connection_string(malachite_seeded.connection_string)
    customers = service.get_table_client("customers")
    assert [c["Name"] for c in customers.list_entities()] == ["Ada", "Grace"]


def test_an_account_of_its_own_starts_empty(seeded_account):
    # The fixtures are devstoreaccount1's: a new account has no tables.
    service = TableServiceClient.from_connection_string(seeded_account.connection_string)
    assert list(service.list_tables()) == []
