"""Table operations through azure-data-tables (spec §4.1-4.4, §9.1)."""
import pytest
from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError

from conftest import DEV_ACCOUNT, DEV_KEY, unique_name, wire_error_code


def names(items):
    return [t.name for t in items]


def test_created_table_is_listed_and_gone_after_delete(service):
    name = unique_name("tab")
    client = service.create_table(name)
    assert client.table_name == name
    assert name in names(service.list_tables())
    service.delete_table(name)
    assert name not in names(service.list_tables())


def test_creating_an_existing_table_raises_resource_exists(service):
    name = unique_name("dup")
    service.create_table(name)
    with pytest.raises(ResourceExistsError) as info:
        service.create_table(name)
    assert info.value.error_code == "TableAlreadyExists"
    with pytest.raises(ResourceExistsError):
        service.create_table(name.upper())
    # create_table_if_not_exists returns the existing table instead.
    assert service.create_table_if_not_exists(name).table_name == name
    service.delete_table(name)


def test_list_tables_pages_with_continuation(service):
    prefix = unique_name("pg")
    created = ["%s%02d" % (prefix, i) for i in range(9)]
    for name in created:
        service.create_table(name)
    seen = []
    pages = service.list_tables(results_per_page=4).by_page()
    page_count = 0
    for page in pages:
        page = list(page)
        assert len(page) <= 4
        page_count += 1
        seen.extend(names(page))
    assert page_count >= 3
    assert len(seen) == len(set(seen))
    assert sorted(n for n in seen if n.startswith(prefix)) == created

    # A continuation token taken from one pager resumes in another.
    first_pager = service.list_tables(results_per_page=4).by_page()
    first = names(next(first_pager))
    token = first_pager.continuation_token
    assert token
    resumed = names(next(service.list_tables(results_per_page=4).by_page(continuation_token=token)))
    assert resumed == seen[len(first):len(first) + len(resumed)]
    for name in created:
        service.delete_table(name)


def test_query_tables_by_name_and_prefix(service):
    prefix = unique_name("q")
    created = [prefix + s for s in ("a", "b", "c")]
    for name in created:
        service.create_table(name)
    found = names(service.query_tables("TableName eq @n", parameters={"n": created[1]}))
    assert found == [created[1]]
    upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
    found = names(service.query_tables("TableName ge @lo and TableName lt @hi",
                                       parameters={"lo": prefix, "hi": upper}))
    assert sorted(found) == created
    for name in created:
        service.delete_table(name)


@pytest.mark.parametrize("bad", ["my_table", "1abc", "ab", "a" * 64])
def test_invalid_table_names_are_reported_by_the_sdk(service, bad):
    # The SDK turns InvalidResourceName / OutOfRangeInput with the service's exact message into ValueError.
    with pytest.raises(ValueError):
        service.create_table(bad)


@pytest.mark.parametrize("bad", ["a//", "a/", "ab?c", "ab#c"])
def test_names_with_reserved_characters_are_reported_by_the_sdk_on_entity_operations(service, bad):
    # The name reaches the service percent-encoded in the path (a%2F%2F); the service answers
    # InvalidResourceName / OutOfRangeInput, which the SDK turns into its table-name ValueError.
    client = service.get_table_client(bad)
    with pytest.raises(ValueError, match="table names must be alphanumeric"):
        client.create_entity({"PartitionKey": "p", "RowKey": "r"})
    with pytest.raises(ValueError, match="table names must be alphanumeric"):
        client.get_table_access_policy()
    with pytest.raises(ValueError, match="table names must be alphanumeric"):
        client.submit_transaction([("create", {"PartitionKey": "p", "RowKey": "r"})])


def test_reserved_table_name_answers_invalid_resource_name(service):
    # "tables" matches the SDK's own name pattern, so the service error comes through as is.
    with pytest.raises(HttpResponseError) as info:
        service.create_table("Tables")
    assert info.value.status_code == 400
    assert wire_error_code(info.value) == "InvalidResourceName"


def test_deleting_a_missing_table_is_quiet_but_entity_ops_raise_table_not_found(service):
    name = unique_name("gone")
    service.delete_table(name)  # the SDK swallows the 404
    client = service.get_table_client(name)
    with pytest.raises(ResourceNotFoundError) as info:
        client.get_entity("p", "r")
    assert info.value.error_code == "TableNotFound"
    with pytest.raises(ResourceNotFoundError) as info:
        client.create_entity({"PartitionKey": "p", "RowKey": "r"})
    with pytest.raises(ResourceNotFoundError) as info:
        list(client.list_entities())


def test_service_properties_body_is_the_services_byte_for_byte(service):
    # spec §11.2: the .NET SDK's recording GetPropertiesReturnsProperties (Storage), replayed: a Set
    # that turns Logging's Write on, then a Get whose body the service wrote with a BOM and
    # Logging's children in the order Read, Write, Delete.
    from azure.data.tables import TableAnalyticsLogging, TableMetrics, TableRetentionPolicy
    service.set_service_properties(
        analytics_logging=TableAnalyticsLogging(write=True),
        hour_metrics=TableMetrics(enabled=True, include_apis=True,
                                  retention_policy=TableRetentionPolicy(enabled=True, days=7)),
        minute_metrics=TableMetrics(), cors=[])
    bodies = []
    properties = service.get_service_properties(
        raw_response_hook=lambda response: bodies.append(response.http_response.body()))
    assert properties["analytics_logging"].write is True
    assert bodies == [
        b'\xef\xbb\xbf<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Logging>'
        b"<Version>1.0</Version><Read>false</Read><Write>true</Write><Delete>false</Delete>"
        b"<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging><HourMetrics>"
        b"<Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs>"
        b"<RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></HourMetrics>"
        b"<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy>"
        b"<Enabled>false</Enabled></RetentionPolicy></MinuteMetrics><Cors /></StorageServiceProperties>"]


def test_the_path_style_secondary_refuses_writes(server, service):
    # spec §1.1: /<account>-secondary/... is the read-only secondary in path style too; a client
    # whose endpoint is that URL gets 403 InsufficientAccountPermissions for every write ($batch
    # included) and nothing is applied.
    from azure.core.credentials import AzureNamedKeyCredential
    from azure.data.tables import TableClient, TableServiceClient, TableTransactionError
    name = unique_name("second")
    service.create_table(name)
    endpoint = "http://127.0.0.1:%d/%s-secondary" % (server.port, DEV_ACCOUNT)
    credential = AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY)
    entity = {"PartitionKey": "p", "RowKey": "r"}
    with TableClient(endpoint, name, credential=credential, retry_total=0) as secondary:
        for write in (lambda: secondary.create_entity(entity),
                      lambda: secondary.upsert_entity(entity),
                      lambda: secondary.delete_entity(entity),
                      lambda: secondary.submit_transaction([("create", entity)]),
                      secondary.delete_table):
            with pytest.raises((HttpResponseError, TableTransactionError)) as error:
                write()
            assert (error.value.status_code, wire_error_code(error.value)) == (
                403, "InsufficientAccountPermissions")
        assert list(secondary.list_entities()) == []
    with TableServiceClient(endpoint, credential=credential, retry_total=0) as secondary:
        with pytest.raises(HttpResponseError) as error:
            secondary.create_table(unique_name("second"))
        assert wire_error_code(error.value) == "InsufficientAccountPermissions"
        assert name in [t.name for t in secondary.list_tables()]
    assert list(service.get_table_client(name).list_entities()) == []
    service.delete_table(name)


def test_an_endpoint_ending_in_the_table_name_gets_the_services_answers(server, service):
    # spec §1.2: the Python SDK's test_client_with_url_ends_with_table_name, replayed. The path is
    # /<t>/Tables..., and the service resolves <t> first: TableNotFound while it does not exist,
    # then Insert Entity into <t> (PropertiesNeedValue for {"TableName": ...}), 501 for a query,
    # InvalidInput for Tables('<t>') (one key where an entity has two).
    from azure.core.credentials import AzureNamedKeyCredential
    from azure.data.tables import TableClient, TableServiceClient
    name = unique_name("mytable")
    credential = AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY)
    bad_endpoint = server.table_url + "/" + name

    def answer(call):
        with pytest.raises(HttpResponseError) as error:
            call()
        return error.value.status_code, wire_error_code(error.value)

    with TableClient(bad_endpoint, name, credential=credential, retry_total=0) as bad:
        assert answer(bad.create_table) == (404, "TableNotFound")
    service.create_table(name)
    with TableClient(bad_endpoint, name, credential=credential, retry_total=0) as bad:
        assert answer(bad.create_table) == (400, "PropertiesNeedValue")
        assert answer(bad.delete_table) == (400, "InvalidInput")
    with TableServiceClient(bad_endpoint, credential=credential, retry_total=0) as bad:
        assert answer(lambda: list(bad.list_tables())) == (501, "NotImplemented")
        assert answer(bad.get_service_properties) == (400, "InvalidQueryParameterValue")
    assert list(service.get_table_client(name).list_entities()) == []
    service.delete_table(name)
