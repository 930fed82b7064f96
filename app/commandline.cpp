#include "app/commandline.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QHostAddress>

#include <optional>

namespace MemoryGraph {

namespace {

struct Options
{
    QCommandLineOption headless{
        QStringLiteral("headless"),
        QCoreApplication::translate("CommandLine", "Serve HTTP only, without the admin window.")};
    QCommandLineOption bind{QStringLiteral("bind"),
                            QCoreApplication::translate(
                                "CommandLine",
                                "Address to listen on (default 127.0.0.1). A non-loopback address "
                                "needs MEMORY_AUTH_MODE other than off."),
                            QStringLiteral("address"), QStringLiteral("127.0.0.1")};
    QCommandLineOption port{
        QStringLiteral("port"),
        QCoreApplication::translate("CommandLine",
                                    "TCP port to listen on (default 8787, 0 = any free port)."),
        QStringLiteral("port"), QStringLiteral("8787")};
    QCommandLineOption dataDir{
        QStringLiteral("data-dir"),
        QCoreApplication::translate("CommandLine",
                                    "Folder for the database and indexes (created if missing; "
                                    "default: the user's application data folder)."),
        QStringLiteral("dir")};
    QCommandLineOption mcpStdio{
        QStringLiteral("mcp-stdio"),
        QCoreApplication::translate(
            "CommandLine",
            "Speak the Model Context Protocol on stdin/stdout (same as the `mcp` command): "
            "forward to the instance serving the data folder, or serve it headless.")};
    QCommandLineOption minimized{
        QStringLiteral("minimized"),
        QCoreApplication::translate(
            "CommandLine",
            "Start with the window hidden in the system tray, serving (minimised when the desktop "
            "has no tray). Used by start at login; no effect with --headless.")};
    QCommandLineOption dark{QStringLiteral("dark"),
                            QCoreApplication::translate(
                                "CommandLine", "Use the dark colour theme in the admin window.")};
    // export / import
    QCommandLineOption tenant{
        QStringLiteral("tenant"),
        QCoreApplication::translate("CommandLine",
                                    "export/import: the tenant (default: the configured one for "
                                    "export, the file's for import)."),
        QStringLiteral("tenant")};
    QCommandLineOption scope{
        QStringLiteral("scope"),
        QCoreApplication::translate("CommandLine",
                                    "export/import: the scope (default: the configured one for "
                                    "export, the file's for import)."),
        QStringLiteral("scope")};
    QCommandLineOption dryRun{
        QStringLiteral("dry-run"),
        QCoreApplication::translate("CommandLine",
                                    "import: report what would be added and what conflicts; "
                                    "write nothing.")};
    QCommandLineOption remapIds{
        QStringLiteral("remap-ids"),
        QCoreApplication::translate("CommandLine",
                                    "import: give every record a new id and rename client ids "
                                    "the target scope already uses.")};
    QCommandLineOption remapClientIds{
        QStringLiteral("remap-client-ids"),
        QCoreApplication::translate("CommandLine",
                                    "import: keep the ids, rename only client ids the target "
                                    "scope already uses.")};
    QCommandLineOption noEmbeddings{
        QStringLiteral("no-embeddings"),
        QCoreApplication::translate("CommandLine",
                                    "export: leave the vectors out (the importing store embeds "
                                    "again).")};
};

/// Configures parser with every option; the returned Options name them for look-ups.
Options setUp(QCommandLineParser &parser)
{
    Options o;
    parser.setApplicationDescription(QCoreApplication::translate(
        "CommandLine",
        "Memory Graph: an agent-memory graph service with a desktop admin console.\n"
        "With a display it opens the admin window and serves the HTTP /v1 API; with --headless, "
        "or when no display is available, it only serves HTTP."));
    // Single-dash words are long options, so Qt's own "-platform xcb" style never reads as a
    // cluster of short flags.
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(o.headless);
    parser.addOption(o.bind);
    parser.addOption(o.port);
    parser.addOption(o.dataDir);
    parser.addOption(o.dark);
    parser.addOption(o.minimized);
    parser.addOption(o.mcpStdio);
    for (const QCommandLineOption *option :
         {&o.tenant, &o.scope, &o.dryRun, &o.remapIds, &o.remapClientIds, &o.noEmbeddings})
        parser.addOption(*option);
    // One entry per command; their usage pieces read "[mcp | backup FILE | restore FILE | export
    // FILE | import FILE]".
    parser.addPositionalArgument(
        QStringLiteral("mcp"),
        QCoreApplication::translate("CommandLine",
                                    "Command: run the MCP stdio server (same as --mcp-stdio)."),
        QStringLiteral("[mcp"));
    parser.addPositionalArgument(
        QStringLiteral("backup FILE"),
        QCoreApplication::translate(
            "CommandLine",
            "Command: copy the store of the data folder to FILE (one SQLite file), also while "
            "another memorygraph serves it; progress on stderr."),
        QStringLiteral("| backup FILE"));
    parser.addPositionalArgument(
        QStringLiteral("restore FILE"),
        QCoreApplication::translate(
            "CommandLine",
            "Command: replace the store of the data folder with the backup FILE; refused while "
            "another memorygraph has the folder open. The previous store is kept beside it."),
        QStringLiteral("| restore FILE"));
    parser.addPositionalArgument(
        QStringLiteral("export FILE"),
        QCoreApplication::translate("CommandLine",
                                    "Command: write a tenant/scope (--tenant, --scope) to an "
                                    "export file; --no-embeddings leaves the vectors out."),
        QStringLiteral("| export FILE"));
    parser.addPositionalArgument(
        QStringLiteral("import FILE"),
        QCoreApplication::translate(
            "CommandLine",
            "Command: read an export file into this store (--tenant, --scope, --dry-run, "
            "--remap-ids, --remap-client-ids)."),
        QStringLiteral("| import FILE]"));
    return o;
}

/// The command's FILE argument, when the positionals start with `backup` or `restore`.
QString storeCommandFile(const QStringList &positional, QString *error)
{
    if (positional.size() < 2 || positional.at(1).trimmed().isEmpty()) {
        *error = QStringLiteral("%1: name the backup FILE").arg(positional.constFirst());
        return QString();
    }
    if (positional.size() > 2) {
        *error = QStringLiteral("unexpected argument '%1'").arg(positional.at(2));
        return QString();
    }
    return positional.at(1);
}

bool isCommand(const QString &word)
{
    return word == QLatin1String("mcp") || word == QLatin1String("backup")
           || word == QLatin1String("restore") || word == QLatin1String("export")
           || word == QLatin1String("import");
}

CommandLineResult failure(const QString &text)
{
    CommandLineResult r;
    r.action = CommandLineResult::Action::Error;
    r.errorText = text;
    return r;
}

/// `export FILE` / `import FILE` and the options that belong to them; what is wrong otherwise.
std::optional<QString> readPortability(const QCommandLineParser &parser, const Options &o,
                                       QStringList *positional, PortabilityOptions *out)
{
    const QString command = positional->value(0);
    const bool isExport = command == QLatin1String("export");
    const bool isImport = command == QLatin1String("import");
    if (isExport || isImport) {
        positional->removeFirst();
        if (positional->isEmpty() || positional->constFirst().trimmed().isEmpty())
            return QStringLiteral("%1 needs a FILE").arg(command);
        out->command = command;
        out->file = positional->takeFirst();
    }
    struct Scoped
    {
        const QCommandLineOption *option;
        bool allowed;
        const char *owner;
    };
    const Scoped scoped[] = {{&o.tenant, isExport || isImport, "export and import"},
                             {&o.scope, isExport || isImport, "export and import"},
                             {&o.dryRun, isImport, "import"},
                             {&o.remapIds, isImport, "import"},
                             {&o.remapClientIds, isImport, "import"},
                             {&o.noEmbeddings, isExport, "export"}};
    for (const Scoped &s : scoped) {
        if (parser.isSet(*s.option) && !s.allowed)
            return QStringLiteral("--%1 belongs to %2")
                .arg(s.option->names().constFirst(), QLatin1String(s.owner));
    }
    out->tenant = parser.value(o.tenant).trimmed();
    out->scope = parser.value(o.scope).trimmed();
    out->dryRun = parser.isSet(o.dryRun);
    out->remapIds = parser.isSet(o.remapIds);
    out->remapClientIds = parser.isSet(o.remapClientIds);
    out->embeddings = !parser.isSet(o.noEmbeddings);
    return std::nullopt;
}

} // namespace

CommandLineResult parseCommandLine(const QStringList &arguments)
{
    QCommandLineParser parser;
    const Options o = setUp(parser);
    if (!parser.parse(arguments))
        return failure(parser.errorText());

    CommandLineResult result;
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        result.action = CommandLineResult::Action::ShowHelp;
        return result;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        result.action = CommandLineResult::Action::ShowVersion;
        return result;
    }
    QStringList positional = parser.positionalArguments();
    CommandLineOptions &opts = result.options;
    opts.mcpStdio = parser.isSet(o.mcpStdio);
    if (!positional.isEmpty() && positional.constFirst() == QLatin1String("mcp")) {
        opts.mcpStdio = true;
        positional.removeFirst();
    } else if (!positional.isEmpty()
               && (positional.constFirst() == QLatin1String("backup")
                   || positional.constFirst() == QLatin1String("restore"))) {
        QString error;
        opts.storeFile = storeCommandFile(positional, &error);
        if (!error.isEmpty())
            return failure(error);
        opts.storeCommand = positional.constFirst() == QLatin1String("backup")
                                ? CommandLineOptions::StoreCommand::Backup
                                : CommandLineOptions::StoreCommand::Restore;
        if (opts.mcpStdio)
            return failure(QStringLiteral("--mcp-stdio cannot be combined with %1")
                               .arg(positional.constFirst()));
        positional.clear();
    }
    if (auto problem = readPortability(parser, o, &positional, &opts.portability))
        return failure(*problem);
    if (!positional.isEmpty())
        return failure(QStringLiteral("unexpected argument '%1'").arg(positional.constFirst()));

    opts.headless = parser.isSet(o.headless);
    opts.dark = parser.isSet(o.dark);
    opts.minimized = parser.isSet(o.minimized);

    QString address = parser.value(o.bind).trimmed();
    if (address.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        address = QStringLiteral("127.0.0.1");
    if (address.startsWith(QLatin1Char('[')) && address.endsWith(QLatin1Char(']')))
        address = address.mid(1, address.size() - 2);
    QHostAddress host;
    if (!host.setAddress(address))
        return failure(QStringLiteral("--bind: '%1' is not an IPv4 or IPv6 address")
                           .arg(parser.value(o.bind)));
    opts.bindAddress = address;

    bool ok = false;
    const uint port = parser.value(o.port).trimmed().toUInt(&ok);
    if (!ok || port > 65535)
        return failure(QStringLiteral("--port: '%1' is not a port number (0-65535)")
                           .arg(parser.value(o.port)));
    opts.port = quint16(port);

    if (parser.isSet(o.dataDir)) {
        opts.dataDir = parser.value(o.dataDir).trimmed();
        if (opts.dataDir.isEmpty())
            return failure(QStringLiteral("--data-dir: the folder name is empty"));
    }
    return result;
}

QString commandLineHelpText()
{
    QCommandLineParser parser;
    setUp(parser);
    return parser.helpText();
}

bool needsCoreApplicationOnly(const QStringList &arguments, const QProcessEnvironment &env)
{
    QCommandLineParser parser;
    const Options o = setUp(parser);
    // Unknown options (e.g. Qt's own -platform, -style) are fine here: parse() records them as
    // errors but still registers every option it recognises.
    (void)parser.parse(arguments);
    if (parser.isSet(o.headless) || parser.isSet(o.mcpStdio)
        || isCommand(parser.positionalArguments().value(0)) || parser.isSet(QStringLiteral("help"))
        || parser.isSet(QStringLiteral("help-all")) || parser.isSet(QStringLiteral("version")))
        return true;

#if defined(Q_OS_WIN) || defined(Q_OS_MACOS)
    Q_UNUSED(env);
    return false; // the desktop is always there; only --headless leaves it out
#else
    const bool platformArgument = arguments.contains(QLatin1String("-platform"))
                                  || arguments.contains(QLatin1String("--platform"));
    const bool displayKnown = !env.value(QStringLiteral("QT_QPA_PLATFORM")).isEmpty()
                              || !env.value(QStringLiteral("DISPLAY")).isEmpty()
                              || !env.value(QStringLiteral("WAYLAND_DISPLAY")).isEmpty();
    return !platformArgument && !displayKnown;
#endif
}

} // namespace MemoryGraph
