#pragma once

#include "app/commandline.h"

namespace MemoryGraph {

/// `memorygraph export FILE` and `memorygraph import FILE` (docs/export-format.md): opens the
/// data folder itself, holding its lock as the window does, runs the export or import with
/// progress on stderr (Ctrl+C cancels: an import then writes nothing, an export leaves no
/// file) and prints what it did on stdout. When another process owns the folder it says so,
/// names that process's HTTP route, and returns ExitInUse. Returns an ExitCode.
int runPortabilityCommand(const CommandLineOptions &options);

} // namespace MemoryGraph
