namespace Malachite.Testcontainers;

/// <summary>
/// Builds a container of the malachite image (Azure Table storage emulator), ready when
/// <c>/-/ready</c> answers 200:
/// <code>
/// await using var container = new MalachiteBuilder("ghcr.io/&lt;owner&gt;/malachite:0.1.0").WithInMemory().Build();
/// await container.StartAsync();
/// var tables = new TableServiceClient(container.GetConnectionString());
/// </code>
/// </summary>
public sealed class MalachiteBuilder : ContainerBuilder<MalachiteBuilder, MalachiteContainer, MalachiteConfiguration>
{
    /// <summary>The Table port inside the container.</summary>
    public const ushort TablePort = 10002;

    /// <summary>The development account every Malachite serves.</summary>
    public const string AccountName = "devstoreaccount1";

    /// <summary>The development account's well-known key.</summary>
    public const string AccountKey =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    /// <summary>Where <see cref="WithSeed"/> puts the fixtures inside the container.</summary>
    public const string SeedPath = "/seed";

    /// <summary>A builder for the given image (required, as Testcontainers' own modules take it).</summary>
    /// <param name="image">The full image name with its tag: a release's
    /// <c>ghcr.io/&lt;owner&gt;/&lt;repo&gt;:&lt;version&gt;</c>, or <c>malachite:&lt;version&gt;</c> as
    /// <c>scripts/package --image</c> builds it.</param>
    /// <exception cref="ArgumentException"><paramref name="image"/> is null, empty or blank.</exception>
    public MalachiteBuilder(string image)
        : this(new DockerImage(RequireImage(image)))
    {
    }

    /// <summary>A builder for the given image.</summary>
    /// <param name="image">The image.</param>
    /// <exception cref="ArgumentNullException"><paramref name="image"/> is null.</exception>
    public MalachiteBuilder(IImage image)
        : this(new MalachiteConfiguration())
    {
        ArgumentNullException.ThrowIfNull(image);
        DockerResourceConfiguration = Init().WithImage(image).DockerResourceConfiguration;
    }

    private MalachiteBuilder(MalachiteConfiguration resourceConfiguration)
        : base(resourceConfiguration)
    {
        DockerResourceConfiguration = resourceConfiguration;
    }

    /// <inheritdoc />
    protected override MalachiteConfiguration DockerResourceConfiguration { get; }

    /// <summary>Keeps the data in memory (<c>--in-memory</c>: in the container's /dev/shm, which
    /// Docker limits to 64 MB unless given more with <c>--shm-size</c>; past it writes answer 409).</summary>
    public MalachiteBuilder WithInMemory() => WithCommand("--in-memory");

    /// <summary>Copies the fixtures in <paramref name="hostDirectory"/> (<c>&lt;table&gt;.jsonl</c>
    /// and <c>&lt;table&gt;.csv</c> files, <c>&lt;account&gt;/</c> folders) into the container and
    /// loads them at start (<c>--seed /seed</c>) and by <see cref="MalachiteContainer.ResetAsync"/>.</summary>
    /// <param name="hostDirectory">A directory on this machine.</param>
    /// <exception cref="DirectoryNotFoundException">There is no such directory.</exception>
    public MalachiteBuilder WithSeed(string hostDirectory)
    {
        var directory = new DirectoryInfo(hostDirectory);
        if (!directory.Exists)
            throw new DirectoryNotFoundException($"MalachiteBuilder.WithSeed: no directory {directory.FullName}");
        return WithResourceMapping(directory, SeedPath + "/").WithCommand("--seed", SeedPath);
    }

    /// <inheritdoc />
    public override MalachiteContainer Build()
    {
        Validate();
        return new MalachiteContainer(DockerResourceConfiguration);
    }

    /// <inheritdoc />
    protected override MalachiteBuilder Init()
    {
        return base.Init()
            .WithPortBinding(TablePort, true)
            .WithConnectionStringProvider(new MalachiteConnectionStringProvider())
            .WithWaitStrategy(Wait.ForUnixContainer().UntilHttpRequestIsSucceeded(request =>
                request.ForPort(TablePort).ForPath("/-/ready")));
    }

    /// <inheritdoc />
    protected override MalachiteBuilder Clone(IResourceConfiguration<CreateContainerParameters> resourceConfiguration)
    {
        return Merge(DockerResourceConfiguration, new MalachiteConfiguration(resourceConfiguration));
    }

    /// <inheritdoc />
    protected override MalachiteBuilder Clone(IContainerConfiguration resourceConfiguration)
    {
        return Merge(DockerResourceConfiguration, new MalachiteConfiguration(resourceConfiguration));
    }

    /// <inheritdoc />
    protected override MalachiteBuilder Merge(MalachiteConfiguration oldValue, MalachiteConfiguration newValue)
    {
        return new MalachiteBuilder(new MalachiteConfiguration(oldValue, newValue));
    }

    // No default image: a tag of this package's version is in no registry, so a default would only
    // fail at pull time; the name says whose image runs (Testcontainers 4.x's modules take it too).
    private static string RequireImage(string image)
    {
        if (string.IsNullOrWhiteSpace(image))
            throw new ArgumentException(
                "MalachiteBuilder: the image is required, with its tag, e.g. " +
                "new MalachiteBuilder(\"ghcr.io/<owner>/malachite:<version>\") (a release's image)",
                nameof(image));
        return image;
    }
}

/// <summary>Provides <see cref="MalachiteContainer.GetConnectionString()"/> to Testcontainers.</summary>
internal sealed class MalachiteConnectionStringProvider : ContainerConnectionStringProvider<MalachiteContainer, MalachiteConfiguration>
{
    /// <inheritdoc />
    protected override string GetHostConnectionString() => Container.GetConnectionString();
}
