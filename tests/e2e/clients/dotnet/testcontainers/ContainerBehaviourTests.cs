// The Testcontainers module's behaviour beyond the README example: the image a required argument,
// seed fixtures copied into the container, reset, accounts made and refused through the mapped port.
using Azure;
using Azure.Data.Tables;
using DotNet.Testcontainers.Configurations;
using DotNet.Testcontainers.Images;
using Malachite;
using Malachite.Testcontainers;
using Xunit;

public sealed class SeededContainerFixture : IAsyncLifetime
{
    public MalachiteContainer Container { get; } = new MalachiteBuilder(MalachiteContainerFixture.Image)
        .WithInMemory()
        .WithSeed(Path.Combine(AppContext.BaseDirectory, "fixtures"))
        .Build();

    public Task InitializeAsync() => Container.StartAsync();

    public async Task DisposeAsync() => await Container.DisposeAsync();
}

public sealed class ContainerBehaviourTests(SeededContainerFixture fixture) : IClassFixture<SeededContainerFixture>
{
    private MalachiteContainer Container => fixture.Container;

    private static List<string> Values(TableClient table) =>
        table.Query<TableEntity>().Select(e => e.GetString("Name") ?? e.GetString("Note") ?? "").ToList();

    [Fact]
    public void TheImageIsRequired()
    {
        // As Testcontainers 4.x's own modules: no parameterless constructor, no default tag.
        Assert.DoesNotContain(typeof(MalachiteBuilder).GetConstructors(), c => c.GetParameters().Length == 0);
        Assert.Null(typeof(MalachiteBuilder).GetProperty("DefaultImage"));
        foreach (string? missing in new[] { null, "", "  " })
        {
            var e = Assert.Throws<ArgumentException>(() => new MalachiteBuilder(missing!));
            Assert.Equal("image", e.ParamName);
            Assert.Contains("the image is required, with its tag, e.g. new MalachiteBuilder(\"ghcr.io/", e.Message);
        }
        Assert.Throws<ArgumentNullException>(() => new MalachiteBuilder((IImage)null!));
    }

    [Fact]
    public void TheContainerRunsTheImageItWasGiven()
    {
        Assert.Equal(new DockerImage(MalachiteContainerFixture.Image).FullName, Container.Image.FullName);
    }

    [Fact]
    public void EndpointIsTheMappedPort()
    {
        string endpoint = $"http://{Container.Hostname}:{Container.GetMappedPublicPort(MalachiteBuilder.TablePort)}/devstoreaccount1";
        Assert.Equal(endpoint, Container.GetTableEndpoint());
        Assert.Contains($"TableEndpoint={endpoint};", Container.GetConnectionString());
        Assert.Equal(Container.GetConnectionString(), Container.GetConnectionString(ConnectionMode.Host));
    }

    [Fact]
    public async Task SeedResetAndAccounts()
    {
        var customers = new TableClient(Container.GetConnectionString(), "customers");
        var notes = new TableClient(Container.GetConnectionString(), "notes");
        Assert.Equal(["Ada", "Grace"], Values(customers));
        Assert.Equal(["from devstoreaccount1/"], Values(notes));  // the <account>/ folder came along

        await customers.DeleteEntityAsync("eu", "c1");
        await Container.ResetAsync();
        Assert.Equal(["Ada", "Grace"], Values(customers));
        await Container.ResetAsync(seed: false);
        var e = await Assert.ThrowsAsync<RequestFailedException>(() => customers.GetEntityAsync<TableEntity>("eu", "c2"));
        Assert.Equal(404, e.Status);
        await Container.ResetAsync();

        string name = "tc" + Guid.NewGuid().ToString("N")[..10];
        await using (var account = await Container.CreateAccountAsync(name))
        {
            Assert.Equal(name, account.Name);
            Assert.StartsWith($"http://{Container.Hostname}:{Container.GetMappedPublicPort(MalachiteBuilder.TablePort)}/{name}", account.TableUrl);
            var service = new TableServiceClient(account.ConnectionString);
            Assert.Empty(service.Query().ToList());  // the fixtures are devstoreaccount1's
            await service.CreateTableAsync("mine");
            Assert.Single(service.Query().ToList());

            var taken = await Assert.ThrowsAsync<MalachiteException>(() => Container.CreateAccountAsync(name));
            Assert.Equal(409, taken.Status);
            Assert.Equal("StorageAccountAlreadyTaken", taken.ErrorCode);
        }
        var gone = await Assert.ThrowsAsync<MalachiteException>(() => Container.DeleteAccountAsync(name));
        Assert.Equal(404, gone.Status);

        var invalid = await Assert.ThrowsAsync<MalachiteException>(() => Container.CreateAccountAsync("Not_Valid"));
        Assert.Equal(400, invalid.Status);
        Assert.Equal("AccountNameInvalid", invalid.ErrorCode);
    }

    [Fact]
    public void SeedMustExist()
    {
        var e = Assert.Throws<DirectoryNotFoundException>(() => new MalachiteBuilder(MalachiteContainerFixture.Image).WithSeed("/no/such/fixtures"));
        Assert.Contains("/no/such/fixtures", e.Message);
    }
}
