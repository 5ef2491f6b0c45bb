using System;

namespace ListMmf.Tool;

/// <summary>The data is bad (a CSV row, a file of the wrong kind): exit code 1. The message names the file and where.</summary>
internal sealed class DataException(string message, Exception? inner = null) : Exception(message, inner);
