#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace MemoryGraph {

/// `memorygraph export FILE` / `memorygraph import FILE` and their options.
struct PortabilityOptions
{
    QString command; ///< "export" or "import"; empty: neither
    QString file;
    QString tenant;              ///< --tenant; empty: the default (export) or the file's (import)
    QString scope;               ///< --scope; likewise
    bool dryRun = false;         ///< --dry-run (import)
    bool remapIds = false;       ///< --remap-ids (import): new ids, renamed taken client ids
    bool remapClientIds = false; ///< --remap-client-ids (import): only rename taken client ids
    bool embeddings = true;      ///< --no-embeddings (export) clears it
};

/// Options of the memorygraph executable, with their documented defaults.
struct CommandLineOptions
{
    bool headless = false;                             ///< --headless
    bool dark = false;                                 ///< --dark
    bool minimized = false;                            ///< --minimized (window starts in the tray)
    QString bindAddress = QStringLiteral("127.0.0.1"); ///< --bind
    quint16 port = 8787;                               ///< --port (0 = ephemeral)
    QString dataDir;                                   ///< --data-dir; empty = platform default
    bool mcpStdio = false;                             ///< `mcp` or --mcp-stdio
    /// `backup FILE` / `restore FILE`: copy the store to FILE, or replace it with FILE.
    enum class StoreCommand { None, Backup, Restore };
    StoreCommand storeCommand = StoreCommand::None;
    QString storeFile;              ///< FILE of backup / restore
    PortabilityOptions portability; ///< `export` / `import`
};

/// Outcome of parsing: run with options, print help or version, or report an error.
struct CommandLineResult
{
    enum class Action { Run, ShowHelp, ShowVersion, Error };

    Action action = Action::Run;
    CommandLineOptions options;
    QString errorText; ///< set when action == Error
};

/// Parses arguments (arguments[0] is the program). Needs no QCoreApplication, so it can run
/// before the application class is chosen.
CommandLineResult parseCommandLine(const QStringList &arguments);

/// The --help text. Call once a QCoreApplication exists (the usage line names the program).
QString commandLineHelpText();

/// Decides, before any application object exists, whether the process must run without a GUI:
/// --headless, --help or --version was given, a command (mcp, backup, restore), or (X11/Wayland
/// systems only) no display can be reached (QT_QPA_PLATFORM unset, no -platform argument, and
/// neither DISPLAY nor WAYLAND_DISPLAY set). Windows and macOS always have a desktop.
bool needsCoreApplicationOnly(const QStringList &arguments, const QProcessEnvironment &env);

} // namespace MemoryGraph
