// Shared access signatures made by the SDK (TableSasBuilder, GenerateSasUri) and used through
// AzureSasCredential: table and account SAS, permissions, key ranges, stored access policies.
using Azure;
using Azure.Data.Tables;
using Azure.Data.Tables.Models;
using Azure.Data.Tables.Sas;
using Malachite.E2E.Support;
using Xunit;

namespace Malachite.E2E;

public class SasTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private static readonly DateTimeOffset InAnHour = DateTimeOffset.UtcNow.AddHours(1);

    // A TableClient that holds only the SAS: endpoint without query + AzureSasCredential.
    private static TableClient SasTable(Uri sasUri) =>
        new(new Uri(sasUri.GetLeftPart(UriPartial.Path)), new AzureSasCredential(sasUri.Query),
            Clients.NoRetries());

    [Fact]
    public async Task TableSasGrantsOnlyItsPermissions()
    {
        var owner = await fixture.NewTableAsync("sas");
        await owner.AddEntityAsync(new TableEntity("p", "r") { ["V"] = 1 });

        var reader = SasTable(owner.GenerateSasUri(TableSasPermissions.Read, InAnHour));
        Assert.Equal(1, (await reader.GetEntityAsync<TableEntity>("p", "r")).Value.GetInt32("V"));
        Assert.Single(await reader.QueryAsync<TableEntity>().ToListAsync());
        await Expect.Error(403, "AuthorizationPermissionMismatch",
                           () => reader.AddEntityAsync(new TableEntity("p", "new")));

        var writer = SasTable(owner.GenerateSasUri(TableSasPermissions.Add | TableSasPermissions.Update |
                                                   TableSasPermissions.Delete | TableSasPermissions.Read, InAnHour));
        await writer.AddEntityAsync(new TableEntity("p", "new"));
        await writer.UpsertEntityAsync(new TableEntity("p", "new") { ["V"] = 2 });
        await writer.SubmitTransactionAsync([new(TableTransactionActionType.Add, new TableEntity("p", "b1"))]);
        await writer.DeleteEntityAsync("p", "new");
        Assert.Equal(["b1", "r"], (await owner.QueryAsync<TableEntity>().ToListAsync()).Select(e => e.RowKey));

        // Another table is out of the SAS's scope.
        var other = await fixture.NewTableAsync("sas");
        var wrongTable = new TableClient(new Uri($"{fixture.Server.TableUrl}/{other.Name}"),
                                         new AzureSasCredential(owner.GenerateSasUri(TableSasPermissions.All, InAnHour).Query),
                                         Clients.NoRetries());
        await Expect.Error(403, "AuthorizationFailure", () => wrongTable.GetEntityAsync<TableEntity>("p", "r"));

        var expired = SasTable(owner.GenerateSasUri(TableSasPermissions.Read, DateTimeOffset.UtcNow.AddMinutes(-5)));
        await Expect.Error(403, "AuthenticationFailed", () => expired.GetEntityAsync<TableEntity>("p", "r"));
    }

    [Fact]
    public async Task KeyRangesLimitWhatTheSasReachesAndQueries()
    {
        var owner = await fixture.NewTableAsync("sas");
        foreach (var pk in new[] { "a", "b", "c", "d" })
        foreach (var rk in new[] { "1", "2", "3" })
            await owner.AddEntityAsync(new TableEntity(pk, rk));

        var builder = owner.GetSasBuilder(TableSasPermissions.Read | TableSasPermissions.Add | TableSasPermissions.Update, InAnHour);
        builder.PartitionKeyStart = "b";
        builder.RowKeyStart = "2";
        builder.PartitionKeyEnd = "c";
        builder.RowKeyEnd = "2";
        var ranged = SasTable(owner.GenerateSasUri(builder));

        Assert.Equal("3", (await ranged.GetEntityAsync<TableEntity>("b", "3")).Value.RowKey);
        // spec §10.8: a point read outside the range finds nothing, as the service answers the
        // SDK's ValidateSasCredentialsWithRowKeyAndPartitionKeyRanges; a write outside it is refused.
        await Expect.Error(404, "ResourceNotFound", () => ranged.GetEntityAsync<TableEntity>("b", "1"));
        await Expect.Error(404, "ResourceNotFound", () => ranged.GetEntityAsync<TableEntity>("d", "1"));
        await Expect.Error(403, "AuthorizationFailure",
                           () => ranged.UpsertEntityAsync(new TableEntity("a", "9")));
        await ranged.UpsertEntityAsync(new TableEntity("c", "1") { ["In"] = true });
        // A query is narrowed to the range: (b,2) .. (c,2).
        var keys = (await ranged.QueryAsync<TableEntity>().ToListAsync()).Select(e => $"{e.PartitionKey}{e.RowKey}");
        Assert.Equal(["b2", "b3", "c1", "c2"], keys);
    }

    [Fact]
    public async Task StoredAccessPoliciesSignSasAndCanBeRevoked()
    {
        var owner = await fixture.NewTableAsync("sas");
        await owner.AddEntityAsync(new TableEntity("p", "r"));
        await owner.SetAccessPolicyAsync(
        [
            new TableSignedIdentifier("readers", new TableAccessPolicy(DateTimeOffset.UtcNow.AddMinutes(-5), InAnHour, null)),
        ]);
        // The policy holds the validity window, the SAS its permission (a field may be in one only).
        var viaPolicy = SasTable(owner.GenerateSasUri(new TableSasBuilder(owner.Name, TableSasPermissions.Read, default) { Identifier = "readers" }));
        Assert.NotNull((await viaPolicy.GetEntityAsync<TableEntity>("p", "r")).Value);
        await Expect.Error(403, "AuthorizationPermissionMismatch",
                           () => viaPolicy.AddEntityAsync(new TableEntity("p", "w")));

        // Removing the policy revokes every SAS that names it.
        await owner.SetAccessPolicyAsync([]);
        await Expect.Error(403, "AuthenticationFailed", () => viaPolicy.GetEntityAsync<TableEntity>("p", "r"));
    }

    [Fact]
    public async Task AccountSasServesTablesAndEntities()
    {
        var service = fixture.ServiceClient();
        Uri sas = service.GenerateSasUri(TableAccountSasPermissions.All, TableAccountSasResourceTypes.All, InAnHour);
        var endpoint = new Uri(sas.GetLeftPart(UriPartial.Path));
        var viaSas = new TableServiceClient(endpoint, new AzureSasCredential(sas.Query), Clients.NoRetries());
        string name = Names.Table("acct");
        await viaSas.CreateTableAsync(name);
        Assert.Contains(name, (await viaSas.QueryAsync(t => t.Name == name).ToListAsync()).Select(t => t.Name));
        var table = viaSas.GetTableClient(name);
        await table.AddEntityAsync(new TableEntity("p", "r"));
        Assert.Single(await table.QueryAsync<TableEntity>().ToListAsync());

        // Object-only SAS: entities yes, creating tables no.
        Uri objects = service.GenerateSasUri(TableAccountSasPermissions.All, TableAccountSasResourceTypes.Object,
                                             InAnHour);
        var objectsOnly = new TableServiceClient(endpoint, new AzureSasCredential(objects.Query), Clients.NoRetries());
        await objectsOnly.GetTableClient(name).UpsertEntityAsync(new TableEntity("p", "r2"));
        await Expect.Error(403, "AuthorizationResourceTypeMismatch",
                           () => objectsOnly.CreateTableAsync(Names.Table("acct")));

        // Read-only SAS: no writes.
        Uri readOnly = service.GenerateSasUri(TableAccountSasPermissions.Read | TableAccountSasPermissions.List,
                                              TableAccountSasResourceTypes.All, InAnHour);
        var reader = new TableServiceClient(endpoint, new AzureSasCredential(readOnly.Query), Clients.NoRetries());
        Assert.Equal(2, (await reader.GetTableClient(name).QueryAsync<TableEntity>().ToListAsync()).Count);
        await Expect.Error(403, "AuthorizationPermissionMismatch",
                           () => reader.GetTableClient(name).AddEntityAsync(new TableEntity("p", "no")));
    }
}
