#pragma once

namespace MemoryGraph {

/// Windows builds the executable as a GUI program, so starting it from the Start menu or the
/// Run key opens no console window. Started from a terminal, it attaches to that terminal's
/// console here: --help, --version and the headless log lines show there, and Ctrl+C reaches
/// SignalWatcher. Streams already redirected (pipes of an MCP client, files) are kept.
/// Elsewhere this does nothing. Call first in main().
void attachToParentConsole();

} // namespace MemoryGraph
