"""Microsoft Entra ID bearer tokens (--oauth, spec §10.9) with azure-data-tables: a
TableServiceClient(endpoint, credential=...) whose credential returns test JWTs, as
DefaultAzureCredential returns real ones, over HTTPS with a certificate made here; path-style and
host-style endpoints. The SDK speaks x-ms-version 2019-02-02, at which bad tokens get 403; a raw
request hook sets 2020-12-06 to get the 401 bearer challenge and the SDK's tenant discovery."""
import shutil
import time

import pytest
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError
from azure.data.tables import TableServiceClient

from access_support import (OTHER_TENANT, STORAGE_SCOPE, TENANT, StaticTokenCredential,
                            localhost_resolves_to_loopback, make_certificate, mint_token)
from conftest import DEV_ACCOUNT, log, start, stop_checked, unique_name, wire_error_code

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None,
                                reason="the openssl CLI is needed to make a test certificate")

READER = "11111111-0000-0000-0000-00000000000a"
ADMIN = "22222222-0000-0000-0000-00000000000b"
CHALLENGE = ("Bearer authorization_uri=https://login.microsoftonline.com/%s/oauth2/authorize "
             "resource_id=https://storage.azure.com" % TENANT)


@pytest.fixture(scope="module")
def oauth_server(tmp_path_factory):
    cert, key = make_certificate(tmp_path_factory.mktemp("oauth"))
    server = start(args=[
        "--cert", cert, "--key", key, "--in-memory", "--oauth", "--oauth-tenant", TENANT,
        "--oauth-roles", "%s=reader;%s=account-contributor;*=contributor" % (READER, ADMIN),
        "--log-level", "info"])
    server.cert = cert
    yield server
    stop_checked(server)


@pytest.fixture(autouse=True)
def loopback():
    with localhost_resolves_to_loopback():
        yield


def urls(server):
    return ["https://127.0.0.1:%d/%s" % (server.port, DEV_ACCOUNT),
            "https://%s.localhost:%d" % (DEV_ACCOUNT, server.port)]


def client(server, credential, url=None, **kwargs):
    return TableServiceClient(url or urls(server)[0], credential=credential,
                              connection_verify=server.cert, retry_total=0, **kwargs)


def version_2020(request):
    """raw_request_hook: the version that gets the bearer challenge (the SDK pins 2019-02-02)."""
    request.http_request.headers["x-ms-version"] = "2020-12-06"


def test_the_banner_says_signatures_are_not_verified(oauth_server):
    logged = log(oauth_server)
    assert "bearer token signatures are NOT verified" in logged
    assert "role: * -> contributor" in logged


@pytest.mark.parametrize("style", [0, 1], ids=["path-style", "host-style"])
def test_a_contributor_token_works_like_the_account_key_for_data(oauth_server, style):
    credential = StaticTokenCredential(mint_token())
    with client(oauth_server, credential, urls(oauth_server)[style]) as service:
        name = unique_name("oauth")
        table = service.create_table(name)
        table.create_entity({"PartitionKey": "p", "RowKey": "r1", "n": 1})
        table.submit_transaction([("upsert", {"PartitionKey": "p", "RowKey": "r2", "n": 2})])
        assert [e["n"] for e in table.query_entities("PartitionKey eq 'p'")] == [1, 2]
        assert name in [t.name for t in service.list_tables()]
        service.delete_table(name)
    assert credential.calls[0] == ((STORAGE_SCOPE,), None)


@pytest.mark.parametrize("aud,iss", [
    ("https://storage.azure.cn", "https://sts.chinacloudapi.cn/%s/" % TENANT),
    ("https://storage.azure.us/", "https://login.microsoftonline.us/%s/v2.0" % TENANT),
    ("https://storage.usgovcloudapi.net", "https://sts.windows.net/%s/" % TENANT),
    ("https://%s.table.core.chinacloudapi.cn" % DEV_ACCOUNT,
     "https://sts.chinacloudapi.cn/%s/" % TENANT),
], ids=["china", "us-government", "us-government-docs-scope", "china-account-endpoint"])
def test_tokens_for_the_sovereign_clouds_storage_work(oauth_server, aud, iss):
    # spec §10.9: what a credential of Azure China or Azure US Government returns for the storage
    # scope its cloud's SDK asks (TableAudience.AzureChina, .AzureGovernment).
    credential = StaticTokenCredential(mint_token(aud=aud, iss=iss))
    with client(oauth_server, credential) as service:
        name = unique_name("cloud")
        service.create_table(name).create_entity({"PartitionKey": "p", "RowKey": "r"})
        assert name in [t.name for t in service.list_tables()]
        service.delete_table(name)
    foreign = StaticTokenCredential(mint_token(aud="https://storage.chinacloudapi.cn", iss=iss))
    with client(oauth_server, foreign) as service:
        with pytest.raises(ClientAuthenticationError) as error:
            service.get_table_client("anytable").get_table_access_policy()
        assert (error.value.status_code, wire_error_code(error.value)) == (
            403, "AuthenticationFailed")
        assert ("<AuthenticationErrorDetail>Audience validation failed. Audience did not match."
                "</AuthenticationErrorDetail>") in error.value.response.text()


def test_a_reader_reads_and_every_write_is_authorization_permission_mismatch(oauth_server):
    name = unique_name("reader")
    with client(oauth_server, StaticTokenCredential(mint_token())) as writer:
        writer.create_table(name).create_entity({"PartitionKey": "p", "RowKey": "r", "n": 1})
    with client(oauth_server, StaticTokenCredential(mint_token(oid=READER))) as reader:
        table = reader.get_table_client(name)
        assert table.get_entity("p", "r")["n"] == 1
        writes = [lambda: table.create_entity({"PartitionKey": "p", "RowKey": "x"}),
                  lambda: table.upsert_entity({"PartitionKey": "p", "RowKey": "r", "n": 2}),
                  lambda: table.delete_entity("p", "r"),
                  lambda: table.submit_transaction([("create", {"PartitionKey": "p", "RowKey": "y"})]),
                  lambda: reader.create_table(unique_name("no")),
                  lambda: reader.delete_table(name)]
        for write in writes:
            with pytest.raises(HttpResponseError) as error:
                write()
            assert error.value.status_code == 403
            assert "AuthorizationPermissionMismatch" in str(error.value)
        assert table.get_entity("p", "r")["n"] == 1


def test_acl_and_service_properties_need_storage_account_contributor(oauth_server):
    name = unique_name("acl")
    with client(oauth_server, StaticTokenCredential(mint_token())) as contributor:
        table = contributor.create_table(name)
        for call in (table.get_table_access_policy, contributor.get_service_properties):
            with pytest.raises(HttpResponseError) as error:
                call()
            assert (error.value.status_code, wire_error_code(error.value)) == (
                403, "AuthorizationPermissionMismatch")
    with client(oauth_server, StaticTokenCredential(mint_token(oid=ADMIN))) as admin:
        admin.get_table_client(name).set_table_access_policy({})
        assert admin.get_table_client(name).get_table_access_policy() == {}
        assert admin.get_service_properties()["analytics_logging"].version == "1.0"
        # Storage Account Contributor holds no data actions.
        with pytest.raises(HttpResponseError) as error:
            admin.get_table_client(name).get_entity("p", "r")
        assert error.value.status_code == 403


@pytest.mark.parametrize("claims,detail", [
    ({"exp": int(time.time()) - 3600}, "Lifetime validation failed. The token is expired."),
    ({"nbf": int(time.time()) + 3600}, "Lifetime validation failed. The token is not yet valid."),
    ({"exp": None}, "Lifetime validation failed. The token is missing an Expiration Time."),
    ({"aud": "https://vault.azure.net"}, "Audience validation failed. Audience did not match."),
    ({"iss": "https://sts.windows.net/%s/" % OTHER_TENANT},
     "Issuer validation failed. Issuer did not match."),
])
def test_bad_tokens_are_403_authentication_failed_with_the_reason(oauth_server, claims, detail):
    with client(oauth_server, StaticTokenCredential(mint_token(**claims))) as service:
        table = service.get_table_client("anytable")
        with pytest.raises(ClientAuthenticationError) as error:
            table.get_table_access_policy()  # an XML operation: the detail is in the body
        assert error.value.status_code == 403
        assert wire_error_code(error.value) == "AuthenticationFailed"
        assert "<AuthenticationErrorDetail>%s</AuthenticationErrorDetail>" % detail in (
            error.value.response.text())


def test_a_token_that_is_no_jwt_is_refused(oauth_server):
    with client(oauth_server, StaticTokenCredential("opaque-token")) as service:
        with pytest.raises(ClientAuthenticationError) as error:
            list(service.list_tables())
        assert wire_error_code(error.value) == "AuthenticationFailed"


def test_from_2020_12_06_the_challenge_leads_the_sdk_to_the_right_tenant(oauth_server):
    wrong = StaticTokenCredential(mint_token(aud="https://vault.azure.net"))
    with client(oauth_server, wrong) as service:
        with pytest.raises(ClientAuthenticationError) as error:
            list(service.list_tables(raw_request_hook=version_2020))
        assert (error.value.status_code, wire_error_code(error.value)) == (
            401, "InvalidAuthenticationInfo")
        assert error.value.response.headers["WWW-Authenticate"] == CHALLENGE
    # The SDK asked again for the challenge's tenant, then gave up.
    assert [tenant for _, tenant in wrong.calls] == [None, TENANT]

    def token_for(tenant):
        if tenant == TENANT:
            return mint_token()
        return mint_token(iss="https://sts.windows.net/%s/" % OTHER_TENANT, tid=OTHER_TENANT)
    discovering = StaticTokenCredential(token_for)
    with client(oauth_server, discovering) as service:
        assert isinstance(list(service.list_tables(raw_request_hook=version_2020)), list)
    assert [tenant for _, tenant in discovering.calls] == [None, TENANT]


def test_a_token_credential_is_refused_by_the_sdk_over_plain_http():
    with pytest.raises(ValueError, match="HTTPS"):
        TableServiceClient("http://127.0.0.1:1/%s" % DEV_ACCOUNT,
                           credential=StaticTokenCredential(mint_token()))


def test_a_v2_token_naming_the_storage_application_and_an_unknown_account(oauth_server):
    # spec §10.9: a v2.0 access token for Azure Storage has aud = the Azure Storage application ID.
    v2 = StaticTokenCredential(mint_token(
        aud="e406a681-f3d4-42a8-90b6-c2b029497af1",
        iss="https://login.microsoftonline.com/%s/v2.0" % TENANT))
    with client(oauth_server, v2) as service:
        name = unique_name("appid")
        service.create_table(name)
        assert name in [t.name for t in service.list_tables()]
        service.delete_table(name)
    # spec §10.1: an account the server does not have is 403 AuthenticationFailed, whatever the
    # token and the version (no challenge: a new token would not help).
    unknown = "https://127.0.0.1:%d/nosuchaccount" % oauth_server.port
    for hook in (None, version_2020):
        with client(oauth_server, v2, unknown) as service:
            with pytest.raises(HttpResponseError) as error:
                list(service.list_tables(raw_request_hook=hook))
            assert (error.value.status_code, wire_error_code(error.value)) == (
                403, "AuthenticationFailed")
