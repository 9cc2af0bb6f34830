// The grains the tests drive: state kept by Orleans' Azure Table grain storage, and a reminder
// kept by its Azure Table reminder service.
using Orleans;
using Orleans.Runtime;

namespace Malachite.Frameworks.Orleans;

[GenerateSerializer]
public sealed class Note
{
    [Id(0)] public string Text { get; set; } = "";
    [Id(1)] public byte[] Payload { get; set; } = [];
    [Id(2)] public int Writes { get; set; }
}

public interface INoteGrain : IGrainWithStringKey
{
    Task Write(string text, byte[] payload);
    Task<Note> Read();

    // The activation's id: a different one after a deactivation.
    Task<string> Activation();

    Task Deactivate();
}

public sealed class NoteGrain([PersistentState("note", Support.Cluster.Storage)] IPersistentState<Note> note)
    : Grain, INoteGrain
{
    public async Task Write(string text, byte[] payload)
    {
        note.State.Text = text;
        note.State.Payload = payload;
        note.State.Writes++;
        await note.WriteStateAsync();
    }

    public Task<Note> Read() => Task.FromResult(note.State);

    public Task<string> Activation() => Task.FromResult(GrainContext.ActivationId.ToString());

    public Task Deactivate()
    {
        DeactivateOnIdle();
        return Task.CompletedTask;
    }
}

public interface ITickGrain : IGrainWithStringKey
{
    Task Start(TimeSpan dueTime, TimeSpan period);
    Task Stop();
    Task<int> Ticks();
}

// Counts the ticks of its reminder in memory: a tick is Orleans' reminder service reading the
// reminder from the table and calling the grain.
public sealed class TickGrain : Grain, ITickGrain, IRemindable
{
    private const string Reminder = "tick";
    private int _ticks;

    public Task Start(TimeSpan dueTime, TimeSpan period) =>
        this.RegisterOrUpdateReminder(Reminder, dueTime, period);

    public async Task Stop()
    {
        var reminder = await this.GetReminder(Reminder);
        if (reminder != null) await this.UnregisterReminder(reminder);
    }

    public Task<int> Ticks() => Task.FromResult(_ticks);

    public Task ReceiveReminder(string reminderName, TickStatus status)
    {
        if (reminderName == Reminder) _ticks++;
        return Task.CompletedTask;
    }
}
