// Values shared by the legacy-client suites.
using Xunit;

namespace Malachite.E2E.Legacy;

public static class LegacyData
{
    public static readonly DateTime Base = new(2023, 3, 4, 5, 6, 7, 890, DateTimeKind.Utc);

    // Compares two entities through a projection of their user properties.
    public static void AssertSame<T, TKey>(T expected, T actual, Func<T, TKey> project) =>
        Assert.Equal(project(expected), project(actual));
}
