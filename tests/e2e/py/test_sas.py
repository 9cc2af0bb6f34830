"""Shared access signatures, stored access policies, service properties and stats through
azure-data-tables (spec §10.7-10.8, §11): tokens from the SDK's own generate_table_sas /
generate_account_sas, used with AzureSasCredential."""
from datetime import datetime, timedelta, timezone

import pytest
from azure.core.credentials import AzureNamedKeyCredential, AzureSasCredential
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError
from azure.data.tables import (
    AccountSasPermissions,
    ResourceTypes,
    TableAccessPolicy,
    TableAnalyticsLogging,
    TableClient,
    TableCorsRule,
    TableMetrics,
    TableRetentionPolicy,
    TableSasPermissions,
    TableServiceClient,
    UpdateMode,
    generate_account_sas,
    generate_table_sas,
)

from conftest import DEV_ACCOUNT, DEV_KEY, unique_name, wire_error_code

CREDENTIAL = AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY)


def in_one_hour():
    return datetime.now(timezone.utc) + timedelta(hours=1)


def sas_table(server, name, sas):
    return TableClient(server.table_url, name, credential=AzureSasCredential(sas), retry_total=0)


def keys(client, **kwargs):
    return ["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in client.list_entities(**kwargs)]


@pytest.fixture
def populated(service):
    """A table with PartitionKeys a..e and RowKeys 1..3."""
    name = unique_name("sas")
    client = service.create_table(name)
    for pk in "abcde":
        for rk in "123":
            client.create_entity({"PartitionKey": pk, "RowKey": rk})
    yield client
    service.delete_table(name)


def expect_error(call, status, code):
    with pytest.raises(HttpResponseError) as info:
        call()
    assert info.value.status_code == status, info.value
    assert wire_error_code(info.value) == code, info.value
    return info.value


def test_table_sas_key_range_limits_queries_and_refuses_writes_outside(server, populated):
    sas = generate_table_sas(
        CREDENTIAL, populated.table_name,
        permission=TableSasPermissions(read=True, add=True, update=True, delete=True),
        expiry=in_one_hour(), start_pk="b", start_rk="2", end_pk="d", end_rk="1")
    client = sas_table(server, populated.table_name, sas)
    assert keys(client) == ["b/2", "b/3", "c/1", "c/2", "c/3", "d/1"]
    assert ["%s/%s" % (e["PartitionKey"], e["RowKey"])
            for e in client.query_entities("RowKey eq '3'")] == ["b/3", "c/3"]
    pages = [["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in page]
             for page in client.list_entities(results_per_page=4).by_page()]
    assert pages == [["b/2", "b/3", "c/1", "c/2"], ["c/3", "d/1"]]
    assert client.get_entity("c", "2")["RowKey"] == "2"
    # spec §10.8: a point read outside the range does not find the entity (404, as the service
    # answers the .NET SDK's ValidateSasCredentialsWithRowKeyAndPartitionKeyRanges); writes outside
    # it are refused (403).
    expect_error(lambda: client.get_entity("a", "1"), 404, "ResourceNotFound")
    expect_error(lambda: client.get_entity("d", "2"), 404, "ResourceNotFound")
    expect_error(lambda: client.create_entity({"PartitionKey": "z", "RowKey": "1"}),
                 403, "AuthorizationFailure")
    client.create_entity({"PartitionKey": "c", "RowKey": "9"})
    expect_error(lambda: client.delete_entity("e", "1"), 403, "AuthorizationFailure")
    client.upsert_entity({"PartitionKey": "b", "RowKey": "5", "v": 1}, mode=UpdateMode.MERGE)


def test_table_sas_permissions_protocol_and_expiry(server, populated):
    name = populated.table_name
    read_only = sas_table(server, name, generate_table_sas(
        CREDENTIAL, name, permission=TableSasPermissions(read=True), expiry=in_one_hour()))
    assert len(keys(read_only)) == 15
    expect_error(lambda: read_only.delete_entity("a", "1"), 403, "AuthorizationPermissionMismatch")
    https_only = sas_table(server, name, generate_table_sas(
        CREDENTIAL, name, permission=TableSasPermissions(read=True), expiry=in_one_hour(),
        protocol="https"))
    expect_error(lambda: keys(https_only), 403, "AuthorizationProtocolMismatch")
    expired = sas_table(server, name, generate_table_sas(
        CREDENTIAL, name, permission=TableSasPermissions(read=True),
        start=datetime.now(timezone.utc) - timedelta(hours=2),
        expiry=datetime.now(timezone.utc) - timedelta(hours=1)))
    with pytest.raises(ClientAuthenticationError) as info:
        keys(expired)
    assert wire_error_code(info.value) == "AuthenticationFailed"


def test_stored_access_policy_applies_at_request_time(server, service, populated):
    name = populated.table_name
    expiry = (datetime.now(timezone.utc) + timedelta(hours=1)).replace(microsecond=0)
    populated.set_table_access_policy(
        {"readers": TableAccessPolicy(permission="r", expiry=expiry)})
    acl = populated.get_table_access_policy()
    assert list(acl) == ["readers"]
    assert acl["readers"].permission == "r"
    client = sas_table(server, name, generate_table_sas(CREDENTIAL, name, policy_id="readers"))
    assert len(keys(client)) == 15
    expect_error(lambda: client.delete_entity("a", "1"), 403, "AuthorizationPermissionMismatch")
    populated.set_table_access_policy(
        {"readers": TableAccessPolicy(permission="rd", expiry=expiry)})
    client.delete_entity("a", "1")
    populated.set_table_access_policy({})
    with pytest.raises(ClientAuthenticationError):
        keys(client)
    assert populated.get_table_access_policy() == {}
    too_many = {"p%d" % i: TableAccessPolicy(permission="r", expiry=expiry) for i in range(6)}
    with pytest.raises(ValueError):  # the SDK's own message for the service's InvalidXmlDocument
        populated.set_table_access_policy(too_many)


def test_identifiers_without_a_policy_come_back_as_none(service):
    """spec §11.1: the service leaves <AccessPolicy> out for an identifier without start, expiry
    or permission, which the SDK reads as None; times keep their value (7-digit form)."""
    client = service.create_table(unique_name("aclnone"))
    when = datetime(2021, 7, 8, 9, 10, 9, tzinfo=timezone.utc)
    client.set_table_access_policy({
        "null": None,
        "empty": TableAccessPolicy(),
        "partial": TableAccessPolicy(permission="r"),
        "full": TableAccessPolicy(start=when, expiry=when, permission="r"),
    })
    acl = client.get_table_access_policy()
    assert list(acl) == ["null", "empty", "partial", "full"]
    assert acl["null"] is None
    assert acl["empty"] is None
    assert acl["partial"].permission == "r"
    assert acl["partial"].start is None and acl["partial"].expiry is None
    assert (acl["full"].start, acl["full"].expiry, acl["full"].permission) == (when, when, "r")
    service.delete_table(client.table_name)


def test_account_sas_resource_types_and_permissions(server, populated):
    sas = generate_account_sas(
        CREDENTIAL, resource_types=ResourceTypes.from_string("sco"),  # the model has no container flag
        permission=AccountSasPermissions(read=True, write=True, list=True, add=True, update=True,
                                         delete=True, create=True),
        expiry=in_one_hour())
    sas_service = TableServiceClient(server.table_url, credential=AzureSasCredential(sas),
                                     retry_total=0)
    assert populated.table_name in [t.name for t in sas_service.list_tables()]
    made = unique_name("sasmade")
    sas_service.create_table(made)
    sas_table(server, made, sas).create_entity({"PartitionKey": "p", "RowKey": "r"})
    assert sas_service.get_service_properties()["hour_metrics"].enabled
    objects_only = generate_account_sas(
        CREDENTIAL, resource_types=ResourceTypes(object=True),
        permission=AccountSasPermissions(read=True, list=True), expiry=in_one_hour())
    limited = TableServiceClient(server.table_url, credential=AzureSasCredential(objects_only),
                                 retry_total=0)
    expect_error(lambda: list(limited.list_tables()), 403, "AuthorizationResourceTypeMismatch")
    assert len(keys(sas_table(server, populated.table_name, objects_only))) == 15
    sas_service.delete_table(made)


def test_service_properties_are_validated_merged_and_kept(service):
    rule = TableCorsRule(["http://app.example"], ["GET", "PUT"])
    rule.allowed_headers = ["x-ms-meta-*"]
    rule.exposed_headers = ["x-ms-request-id"]
    rule.max_age_in_seconds = 60
    service.set_service_properties(
        analytics_logging=TableAnalyticsLogging(read=True, retention_policy=TableRetentionPolicy(
            enabled=True, days=5)),
        cors=[rule])
    properties = service.get_service_properties()
    assert properties["analytics_logging"].read is True
    assert properties["analytics_logging"].retention_policy.days == 5
    assert properties["hour_metrics"].enabled is True  # not in the PUT: kept
    [cors] = properties["cors"]
    assert cors.allowed_origins == ["http://app.example"]
    assert cors.allowed_methods == ["GET", "PUT"]
    assert cors.max_age_in_seconds == 60
    with pytest.raises(HttpResponseError) as info:
        service.set_service_properties(minute_metrics=TableMetrics(
            enabled=True, include_apis=True,
            retention_policy=TableRetentionPolicy(enabled=True, days=400)))
    assert info.value.status_code == 400
    service.set_service_properties(cors=[])
    assert service.get_service_properties()["cors"] == []


def test_service_stats_on_the_secondary(server, service):
    stats = service.get_service_stats()
    assert stats["geo_replication"]["status"] == "live"
    assert stats["geo_replication"]["last_sync_time"] is not None
