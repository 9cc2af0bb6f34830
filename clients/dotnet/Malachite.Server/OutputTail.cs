namespace Malachite;

/// <summary>The last lines of one of the server's output streams (thread-safe): what a failed
/// start reports, and <see cref="MalachiteServer.RecentOutput"/>.</summary>
internal sealed class OutputTail
{
    private readonly Queue<string> _lines = new();
    private readonly int _capacity;

    internal OutputTail(int capacity) => _capacity = capacity;

    internal void Add(string line)
    {
        lock (_lines)
        {
            if (_lines.Count == _capacity) _lines.Dequeue();
            _lines.Enqueue(line);
        }
    }

    internal IReadOnlyList<string> Lines()
    {
        lock (_lines) return _lines.ToArray();
    }
}
