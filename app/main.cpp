#include "app/appcontroller.h"
#include "app/backupcommand.h"
#include "app/commandline.h"
#include "app/mcpstdio.h"
#include "app/parentconsole.h"
#include "app/portabilitycommand.h"

#include <QApplication>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QProcessEnvironment>
#include <QStringList>

#include <cstdio>
#include <memory>

using namespace MemoryGraph;

int main(int argc, char *argv[])
{
    attachToParentConsole();
    QCoreApplication::setApplicationName(QStringLiteral("memorygraph"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MEMORYGRAPH_VERSION));

    // The application class must be chosen before it exists: a headless run (or --help,
    // --version) must never need a display.
    QStringList rawArguments;
    for (int i = 0; i < argc; ++i)
        rawArguments.append(QString::fromLocal8Bit(argv[i]));
    const bool headless
        = needsCoreApplicationOnly(rawArguments, QProcessEnvironment::systemEnvironment());

    std::unique_ptr<QCoreApplication> app;
    if (headless) {
        app = std::make_unique<QCoreApplication>(argc, argv);
    } else {
        QGuiApplication::setDesktopFileName(QStringLiteral("memorygraph"));
        app = std::make_unique<QApplication>(argc, argv);
        QGuiApplication::setApplicationDisplayName(QStringLiteral("Memory Graph"));
    }

    // Parsed again now that QApplication has taken its own arguments (-platform, -style, ...).
    const CommandLineResult parsed = parseCommandLine(QCoreApplication::arguments());
    switch (parsed.action) {
    case CommandLineResult::Action::ShowHelp:
        std::fputs(qUtf8Printable(commandLineHelpText()), stdout);
        return ExitOk;
    case CommandLineResult::Action::ShowVersion:
        std::printf("memorygraph %s\n", MEMORYGRAPH_VERSION);
        return ExitOk;
    case CommandLineResult::Action::Error:
        std::fprintf(stderr, "memorygraph: %s\nTry 'memorygraph --help' for the options.\n",
                     qUtf8Printable(parsed.errorText));
        return ExitUsage;
    case CommandLineResult::Action::Run: break;
    }

    switch (parsed.options.storeCommand) {
    case CommandLineOptions::StoreCommand::Backup: return runBackupCommand(parsed.options);
    case CommandLineOptions::StoreCommand::Restore: return runRestoreCommand(parsed.options);
    case CommandLineOptions::StoreCommand::None: break;
    }
    if (!parsed.options.portability.command.isEmpty())
        return runPortabilityCommand(parsed.options);

    if (parsed.options.mcpStdio) {
        McpStdio stdio(parsed.options);
        if (const int code = stdio.start(); code != ExitOk)
            return code;
        return QCoreApplication::exec();
    }

    AppController controller(parsed.options, headless);
    if (const int code = controller.start(); code != ExitOk || controller.handedOver())
        return code;
    return QCoreApplication::exec();
}
