// Tables through TableServiceClient/TableClient: connection strings, create/delete, queries with
// paging, and the error codes a .NET caller sees as RequestFailedException.ErrorCode.
using System.Net;
using System.Net.Sockets;
using Azure;
using Azure.Data.Tables;
using Azure.Data.Tables.Models;
using Malachite.E2E.Support;
using Xunit;

namespace Malachite.E2E;

public class TablesTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    [Fact]
    public async Task ExplicitConnectionStringCreatesQueriesAndDeletesTables()
    {
        var service = fixture.ServiceClient();
        string name = Names.Table();
        Response<TableItem> created = await service.CreateTableAsync(name);
        Assert.Equal(name, created.Value.Name);
        Assert.Equal(201, created.GetRawResponse().Status);

        var found = await service.QueryAsync(t => t.Name == name).ToListAsync();
        Assert.Equal([name], found.Select(t => t.Name));

        await Expect.Error(409, "TableAlreadyExists", () => service.CreateTableAsync(name));
        // CreateTableIfNotExists swallows the 409 and answers without a value.
        var again = await service.CreateTableIfNotExistsAsync(name);
        Assert.Equal(409, again.GetRawResponse().Status);

        Response deleted = await service.DeleteTableAsync(name);
        Assert.Equal(204, deleted.Status);
        Assert.Empty(await service.QueryAsync(t => t.Name == name).ToListAsync());
        // DeleteTable of a missing table is not an error for the SDK (it maps 404 to a response).
        Assert.Equal(404, (await service.DeleteTableAsync(name)).Status);
        await Expect.Error(404, "TableNotFound", () => fixture.TableClient(name).AddEntityAsync(new TableEntity("p", "r")));
    }

    [Fact]
    public async Task TableClientCreatesAndDeletesItsTable()
    {
        var table = fixture.TableClient(Names.Table());
        Response<TableItem> item = await table.CreateAsync();
        Assert.Equal(table.Name, item.Value.Name);
        Assert.Equal(409, (await table.CreateIfNotExistsAsync()).GetRawResponse().Status);
        await table.DeleteAsync();
        await Expect.Error(404, "TableNotFound", () => table.GetEntityAsync<TableEntity>("p", "r"));
    }

    [Fact]
    public async Task QueryTablesPagesWithMaxPerPageAndContinuation()
    {
        var service = fixture.ServiceClient();
        string prefix = "pg" + Names.Table("x");
        var names = Enumerable.Range(0, 7).Select(i => $"{prefix}n{i}").ToList();
        foreach (var name in names) await service.CreateTableAsync(name);

        string filter = TableServiceClient.CreateQueryFilter($"TableName ge {prefix} and TableName lt {prefix + "z"}");
        var pages = await service.QueryAsync(filter, maxPerPage: 3).AsPages().ToListAsync();
        Assert.Equal([3, 3, 1], pages.Select(p => p.Values.Count));
        Assert.NotNull(pages[0].ContinuationToken);
        Assert.Null(pages[2].ContinuationToken);
        Assert.Equal(names, pages.SelectMany(p => p.Values).Select(t => t.Name));

        // Resume from the first page's token, as a web app resumes from a token it handed out.
        var resumed = await service.QueryAsync(filter, maxPerPage: 3).AsPages(pages[0].ContinuationToken)
                          .ToListAsync();
        Assert.Equal(names.Skip(3), resumed.SelectMany(p => p.Values).Select(t => t.Name));
        foreach (var name in names) await service.DeleteTableAsync(name);
    }

    [Fact]
    public async Task InvalidTableNamesGetTheServiceErrorCodes()
    {
        var service = fixture.ServiceClient();
        await Expect.Error(400, "InvalidResourceName", () => service.CreateTableAsync("1abc"));
        await Expect.Error(400, "OutOfRangeInput", () => service.CreateTableAsync("ab"));
        await Expect.Error(400, "OutOfRangeInput", () => service.CreateTableAsync(new string('a', 64)));
    }

    [Fact]
    public async Task WrongKeyIsAuthenticationFailed()
    {
        string badKey = Convert.ToBase64String(new byte[64]);
        var client = new TableServiceClient(new Uri(fixture.Server.TableUrl),
                                            new TableSharedKeyCredential(MalachiteServer.DevelopmentAccount, badKey),
                                            Clients.NoRetries());
        await Expect.Error(403, "AuthenticationFailed", () => client.CreateTableAsync(Names.Table()));
    }
}

// UseDevelopmentStorage=true always means http://127.0.0.1:10002/devstoreaccount1, so this test
// starts its own server on that port. It skips (saying why) only when something else holds the port.
// Its body is docs/CONNECTING.md's .NET snippet, line for line.
public class DevelopmentStorageTests
{
    [DevStoragePortFact]
    public async Task TheReadmeSnippetRunsWithUseDevelopmentStorage()
    {
        var server = await Servers.StartAsync(port: 10002);
        try
        {
            var output = new List<string>();
            var service = new TableServiceClient("UseDevelopmentStorage=true");
            TableClient orders = service.GetTableClient("orders");
            await orders.CreateIfNotExistsAsync();

            await orders.AddEntityAsync(new Readme.Order { PartitionKey = "c42", RowKey = "0001", Amount = 1250, PlacedAt = DateTimeOffset.UtcNow });
            Readme.Order order = (await orders.GetEntityAsync<Readme.Order>("c42", "0001")).Value;
            order.Amount += 100;
            await orders.UpdateEntityAsync(order, order.ETag, TableUpdateMode.Replace);  // 412 if changed since read
            await foreach (Readme.Order big in orders.QueryAsync<Readme.Order>(o => o.PartitionKey == "c42" && o.Amount > 1000))
                output.Add($"{big.RowKey}: {big.Amount}");

            Assert.Equal(new Uri("http://127.0.0.1:10002/devstoreaccount1"), service.Uri);
            Assert.Equal(["0001: 1350"], output);
            await Expect.Error(412, "UpdateConditionNotSatisfied",
                               () => orders.UpdateEntityAsync(order, order.ETag, TableUpdateMode.Replace));
        }
        finally
        {
            await Servers.StopAsync(server);
        }
    }
}

public sealed class DevStoragePortFactAttribute : FactAttribute
{
    public DevStoragePortFactAttribute()
    {
        try
        {
            using var probe = new TcpListener(IPAddress.Loopback, 10002);
            probe.Start();
            probe.Stop();
        }
        catch (SocketException e)
        {
            Skip = $"port 10002 is in use on this machine ({e.SocketErrorCode}); " +
                   "UseDevelopmentStorage=true needs it";
        }
    }
}
