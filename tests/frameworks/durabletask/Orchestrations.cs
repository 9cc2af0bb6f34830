// The orchestrations and activities the tests start, as TaskOrchestration and TaskActivity classes.
// Orchestrations replay: they read time from the context and keep no state outside it.
using System.Collections.Concurrent;
using DurableTask.Core;

namespace Malachite.DurableTask;

public static class Orchestrations
{
    public static readonly Type[] All =
    [
        typeof(SumOfSquares), typeof(GreetThroughChild), typeof(Greeting), typeof(Sleep),
        typeof(AwaitApproval), typeof(RetryFlaky), typeof(Double), typeof(Text),
    ];
}

public static class Activities
{
    public static readonly Type[] All = [typeof(Square), typeof(Greet), typeof(Flaky), typeof(Twice), typeof(Letters)];
}

// Fan-out/fan-in: one Square activity per number 1..n at once, their results summed.
public sealed class SumOfSquares : TaskOrchestration<long, int>
{
    public override async Task<long> RunTask(OrchestrationContext context, int n)
    {
        var squares = Enumerable.Range(1, n).Select(i => context.ScheduleTask<long>(typeof(Square), i));
        return (await Task.WhenAll(squares)).Sum();
    }
}

// A parent that runs Greeting as a sub-orchestration under the id "<parent id>-child".
public sealed class GreetThroughChild : TaskOrchestration<string, string>
{
    public override async Task<string> RunTask(OrchestrationContext context, string name)
    {
        string childId = context.OrchestrationInstance.InstanceId + "-child";
        string greeting = await context.CreateSubOrchestrationInstance<string>(typeof(Greeting), childId, name);
        return $"parent got: {greeting}";
    }
}

public sealed class Greeting : TaskOrchestration<string, string>
{
    public override Task<string> RunTask(OrchestrationContext context, string name) =>
        context.ScheduleTask<string>(typeof(Greet), name);
}

// A durable timer of `seconds`; returns the orchestration time that passed across it.
public sealed class Sleep : TaskOrchestration<double, int>
{
    public override async Task<double> RunTask(OrchestrationContext context, int seconds)
    {
        DateTime start = context.CurrentUtcDateTime;
        await context.CreateTimer(start.AddSeconds(seconds), "woke");
        return (context.CurrentUtcDateTime - start).TotalSeconds;
    }
}

// Waits for the external event "Approval" and returns "<input>: <event data>".
public sealed class AwaitApproval : TaskOrchestration<string, string>
{
    private readonly TaskCompletionSource<string> _approval = new();

    public override async Task<string> RunTask(OrchestrationContext context, string request) =>
        $"{request}: {await _approval.Task}";

    public override void OnEvent(OrchestrationContext context, string name, string input)
    {
        if (name == "Approval") _approval.TrySetResult(input);
    }
}

// Flaky under ScheduleWithRetry (1 s apart, at most 5 attempts); returns the attempt that succeeded.
public sealed class RetryFlaky : TaskOrchestration<int, string>
{
    public override Task<int> RunTask(OrchestrationContext context, string key) =>
        context.ScheduleWithRetry<int>(typeof(Flaky), new RetryOptions(TimeSpan.FromSeconds(1), 5), key);
}

// One activity: 2 * n.
public sealed class Double : TaskOrchestration<int, int>
{
    public override Task<int> RunTask(OrchestrationContext context, int n) =>
        context.ScheduleTask<int>(typeof(Twice), n);
}

// The Letters activity's string of n characters as the orchestration's output.
public sealed class Text : TaskOrchestration<string, int>
{
    public override Task<string> RunTask(OrchestrationContext context, int n) =>
        context.ScheduleTask<string>(typeof(Letters), n);
}

public sealed class Letters : TaskActivity<int, string>
{
    protected override string Execute(TaskContext context, int n) => new('x', n);
}

public sealed class Square : TaskActivity<int, long>
{
    protected override long Execute(TaskContext context, int i) => (long)i * i;
}

public sealed class Greet : TaskActivity<string, string>
{
    protected override string Execute(TaskContext context, string name) => $"Hello, {name}!";
}

public sealed class Twice : TaskActivity<int, int>
{
    protected override int Execute(TaskContext context, int n) => 2 * n;
}

// Fails its first two attempts for a key and succeeds on the third, returning the attempt number.
// Attempts are counted in this process (the worker runs here), per key.
public sealed class Flaky : TaskActivity<string, int>
{
    public static readonly ConcurrentDictionary<string, int> Attempts = new();

    protected override int Execute(TaskContext context, string key)
    {
        int attempt = Attempts.AddOrUpdate(key, 1, (_, n) => n + 1);
        if (attempt < 3) throw new InvalidOperationException($"attempt {attempt} of {key} fails on purpose");
        return attempt;
    }
}
