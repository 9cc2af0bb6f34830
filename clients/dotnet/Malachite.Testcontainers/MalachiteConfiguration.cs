namespace Malachite.Testcontainers;

/// <inheritdoc cref="ContainerConfiguration" />
public sealed class MalachiteConfiguration : ContainerConfiguration
{
    /// <summary>Initializes a new instance of the <see cref="MalachiteConfiguration" /> class.</summary>
    public MalachiteConfiguration()
    {
    }

    /// <summary>Initializes a new instance of the <see cref="MalachiteConfiguration" /> class.</summary>
    /// <param name="resourceConfiguration">The Docker resource configuration.</param>
    public MalachiteConfiguration(IResourceConfiguration<CreateContainerParameters> resourceConfiguration)
        : base(resourceConfiguration)
    {
    }

    /// <summary>Initializes a new instance of the <see cref="MalachiteConfiguration" /> class.</summary>
    /// <param name="resourceConfiguration">The Docker resource configuration.</param>
    public MalachiteConfiguration(IContainerConfiguration resourceConfiguration)
        : base(resourceConfiguration)
    {
    }

    /// <summary>Initializes a new instance of the <see cref="MalachiteConfiguration" /> class.</summary>
    /// <param name="resourceConfiguration">The Docker resource configuration.</param>
    public MalachiteConfiguration(MalachiteConfiguration resourceConfiguration)
        : this(new MalachiteConfiguration(), resourceConfiguration)
    {
    }

    /// <summary>Initializes a new instance of the <see cref="MalachiteConfiguration" /> class.</summary>
    /// <param name="oldValue">The old Docker resource configuration.</param>
    /// <param name="newValue">The new Docker resource configuration.</param>
    public MalachiteConfiguration(MalachiteConfiguration oldValue, MalachiteConfiguration newValue)
        : base(oldValue, newValue)
    {
    }
}
