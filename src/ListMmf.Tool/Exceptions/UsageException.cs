using System;

namespace ListMmf.Tool;

/// <summary>The command line asks for something that cannot be done as asked: exit code 2.</summary>
internal sealed class UsageException(string message) : Exception(message);
