// Table ACLs (SetAccessPolicyAsync/GetAccessPoliciesAsync), service properties, and service
// statistics, which the SDK reads from the secondary endpoint.
using Azure.Data.Tables;
using Azure.Data.Tables.Models;
using Malachite.E2E.Support;
using Xunit;

namespace Malachite.E2E;

public class ServiceTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    [Fact]
    public async Task AccessPoliciesRoundTrip()
    {
        var table = await fixture.NewTableAsync("acl");
        Assert.Empty((await table.GetAccessPoliciesAsync()).Value);
        var start = new DateTimeOffset(2030, 1, 2, 3, 4, 5, TimeSpan.Zero);
        await table.SetAccessPolicyAsync(
        [
            new TableSignedIdentifier("full", new TableAccessPolicy(start, start.AddDays(30), "raud")),
            new TableSignedIdentifier("readonly", new TableAccessPolicy(null, start.AddDays(1), "r")),
        ]);
        var policies = (await table.GetAccessPoliciesAsync()).Value;
        Assert.Equal(["full", "readonly"], policies.Select(p => p.Id));
        Assert.Equal(start, policies[0].AccessPolicy.StartsOn);
        Assert.Equal(start.AddDays(30), policies[0].AccessPolicy.ExpiresOn);
        Assert.Equal("raud", policies[0].AccessPolicy.Permission);
        Assert.Null(policies[1].AccessPolicy.StartsOn);
        Assert.Equal("r", policies[1].AccessPolicy.Permission);

        var six = Enumerable.Range(0, 6)
                      .Select(i => new TableSignedIdentifier($"id{i}", new TableAccessPolicy(null, start, "r")));
        await Expect.XmlError(400, "InvalidXmlDocument", () => table.SetAccessPolicyAsync(six));
        await table.SetAccessPolicyAsync([]);
        Assert.Empty((await table.GetAccessPoliciesAsync()).Value);
    }

    [Fact]
    public async Task ServicePropertiesRoundTrip()
    {
        var service = fixture.ServiceClient();
        var properties = new TableServiceProperties
        {
            Logging = new TableAnalyticsLoggingSettings("1.0", delete: true, read: false, write: true,
                                                        new TableRetentionPolicy(true) { Days = 7 }),
            HourMetrics = new TableMetrics(true)
            {
                Version = "1.0", IncludeApis = true, RetentionPolicy = new TableRetentionPolicy(true) { Days = 3 },
            },
            MinuteMetrics = new TableMetrics(false) { Version = "1.0", RetentionPolicy = new TableRetentionPolicy(false) },
        };
        properties.Cors.Add(new TableCorsRule("https://app.example.com", "GET,PUT", "x-ms-meta-*", "x-ms-request-id", 300));
        Assert.Equal(202, (await service.SetPropertiesAsync(properties)).Status);

        TableServiceProperties got = (await service.GetPropertiesAsync()).Value;
        Assert.True(got.Logging.Delete);
        Assert.False(got.Logging.Read);
        Assert.True(got.Logging.Write);
        Assert.Equal(7, got.Logging.RetentionPolicy.Days);
        Assert.True(got.HourMetrics.Enabled);
        Assert.True(got.HourMetrics.IncludeApis);
        Assert.Equal(3, got.HourMetrics.RetentionPolicy.Days);
        Assert.False(got.MinuteMetrics.Enabled);
        var rule = Assert.Single(got.Cors);
        Assert.Equal("https://app.example.com", rule.AllowedOrigins);
        Assert.Equal("GET,PUT", rule.AllowedMethods);
        Assert.Equal(300, rule.MaxAgeInSeconds);

        // Retention over 365 days is refused with the service's code.
        properties.HourMetrics.RetentionPolicy.Days = 366;
        await Expect.XmlError(400, "InvalidXmlNodeValue", () => service.SetPropertiesAsync(properties));
    }

    [Fact]
    public async Task StatisticsComeFromTheSecondaryEndpoint()
    {
        var recorder = new Recorder();
        var service = new TableServiceClient(fixture.Server.ConnectionString, Clients.Recording(recorder));
        TableServiceStatistics stats = (await service.GetStatisticsAsync()).Value;
        Assert.Equal(TableGeoReplicationStatus.Live, stats.GeoReplication.Status);
        Assert.InRange(stats.GeoReplication.LastSyncedOn, DateTimeOffset.UtcNow.AddHours(-1), DateTimeOffset.UtcNow.AddMinutes(5));
        // The SDK sent it to /devstoreaccount1-secondary/ and signed that path as sent.
        var exchange = Assert.Single(recorder.Exchanges);
        Assert.StartsWith($"/{MalachiteServer.DevelopmentAccount}-secondary", exchange.Uri.AbsolutePath);
        Assert.Equal(200, exchange.Status);
    }
}
