#include "app/backupcommand.h"

#include "app/appcontroller.h"
#include "app/instancelock.h"
#include "service/core/privatefiles.h"
#include "service/memoryservice.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QStandardPaths>

#include <csignal>
#include <cstdio>

#ifdef Q_OS_WIN
#include <io.h>
#define MG_ISATTY _isatty
#define MG_FILENO _fileno
#else
#include <unistd.h>
#define MG_ISATTY isatty
#define MG_FILENO fileno
#endif

namespace MemoryGraph {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;

/// First Ctrl+C (or SIGTERM): ask the copy to stop; a second one ends the process at once.
void onInterrupt(int signalNumber)
{
    g_interrupted = 1;
    std::signal(signalNumber, SIG_DFL);
}

/// Installs the interrupt handlers for the lifetime of a command.
class InterruptGuard
{
public:
    InterruptGuard()
    {
        g_interrupted = 0;
        m_int = std::signal(SIGINT, onInterrupt);
        m_term = std::signal(SIGTERM, onInterrupt);
    }
    ~InterruptGuard()
    {
        std::signal(SIGINT, m_int);
        std::signal(SIGTERM, m_term);
    }
    InterruptGuard(const InterruptGuard &) = delete;
    InterruptGuard &operator=(const InterruptGuard &) = delete;

private:
    void (*m_int)(int) = SIG_DFL;
    void (*m_term)(int) = SIG_DFL;
};

void printError(const char *command, const QString &text)
{
    std::fprintf(stderr, "memorygraph %s: %s\n", command, qUtf8Printable(text));
    std::fflush(stderr);
}

/// The folder as given, else the platform default; absolute and clean.
QString dataFolder(const CommandLineOptions &options)
{
    QString dir = options.dataDir;
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return dir.isEmpty() ? QString() : QDir::cleanPath(QDir(dir).absolutePath());
}

/// Prints "backup: 42% (1234/2900 pages)" lines: on a terminal one line redrawn in place,
/// otherwise (a log, a pipe) a line every 5 %.
class ProgressPrinter
{
public:
    explicit ProgressPrinter(const char *command)
        : m_command(command), m_terminal(MG_ISATTY(MG_FILENO(stderr)) != 0)
    {
    }
    ~ProgressPrinter() { endLine(); }
    ProgressPrinter(const ProgressPrinter &) = delete;
    ProgressPrinter &operator=(const ProgressPrinter &) = delete;

    ProgressCallback callback()
    {
        return [this](const Progress &p) {
            show(p);
            return g_interrupted == 0;
        };
    }

    void endLine()
    {
        if (m_open)
            std::fputc('\n', stderr);
        m_open = false;
        std::fflush(stderr);
    }

private:
    void show(const Progress &p)
    {
        if (p.stage != m_stage) {
            m_stage = p.stage;
            m_percent = -1;
            if (p.total <= 0) {
                endLine();
                std::fprintf(stderr, "%s: %s\n", m_command, qUtf8Printable(p.stage));
                std::fflush(stderr);
            }
        }
        if (p.total <= 0)
            return;
        const int percent = int(p.done * 100 / p.total);
        const int step = m_terminal ? 1 : 5;
        const bool moved = m_percent < 0 || percent / step != m_percent / step
                           || (percent == 100 && m_percent != 100);
        if (!moved)
            return;
        m_percent = percent;
        const QString unit
            = p.stage == QLatin1String("copying pages") ? QStringLiteral(" pages") : QString();
        if (m_terminal) {
            std::fprintf(stderr, "\r%s: %d%% (%lld/%lld%s)", m_command, percent,
                         static_cast<long long>(p.done), static_cast<long long>(p.total),
                         qUtf8Printable(unit));
            m_open = true;
        } else {
            std::fprintf(stderr, "%s: %d%% (%lld/%lld%s)\n", m_command, percent,
                         static_cast<long long>(p.done), static_cast<long long>(p.total),
                         qUtf8Printable(unit));
        }
        std::fflush(stderr);
    }

    const char *m_command;
    bool m_terminal;
    bool m_open = false;
    QString m_stage;
    int m_percent = -1;
};

/// "1234 nodes, 56 edges, 1300 commits (schema 14, 4.7 MB)"
QString describe(const StoreSummary &s)
{
    return QStringLiteral("%1 nodes, %2 edges, %3 commits (schema %4, %5)")
        .arg(s.nodes)
        .arg(s.edges)
        .arg(s.commits)
        .arg(s.schemaVersion)
        .arg(QLocale::c().formattedDataSize(s.bytes));
}

/// The exit code an error of the copy stands for.
int exitCodeFor(const Error &e)
{
    if (e.code == QLatin1String("cancelled"))
        return ExitCancelled;
    if (e.code == QLatin1String("invalid_target") || e.code == QLatin1String("invalid_source")
        || (e.code == QLatin1String("not_found")))
        return ExitUsage;
    return ExitFailed;
}

void printOutcome(const QString &text)
{
    std::fprintf(stdout, "%s\n", qUtf8Printable(text));
    std::fflush(stdout);
}

} // namespace

int runBackupCommand(const CommandLineOptions &options)
{
    const QString dir = dataFolder(options);
    if (dir.isEmpty()) {
        printError("backup",
                   QStringLiteral("no application data folder is known; pass --data-dir"));
        return ExitConfiguration;
    }
    InterruptGuard interrupts;
    ProgressPrinter printer("backup");
    auto outcome = MemoryService::backupDataDir(dir, options.storeFile, printer.callback());
    printer.endLine();
    if (!outcome) {
        const Error &e = outcome.error();
        if (e.code == QLatin1String("not_found")) { // the store, not FILE
            printError(
                "backup",
                QStringLiteral("there is no store in %1").arg(QDir::toNativeSeparators(dir)));
            return ExitConfiguration;
        }
        printError("backup", e.code == QLatin1String("cancelled")
                                 ? QStringLiteral("interrupted; %1 was not written")
                                       .arg(QDir::toNativeSeparators(options.storeFile))
                                 : e.message);
        return exitCodeFor(e);
    }
    printOutcome(QStringLiteral("backed up %1 to %2: %3")
                     .arg(QDir::toNativeSeparators(dir),
                          QDir::toNativeSeparators(outcome.value().file),
                          describe(outcome.value().store)));
    return ExitOk;
}

int runRestoreCommand(const CommandLineOptions &options)
{
    const QString dir = dataFolder(options);
    if (dir.isEmpty()) {
        printError("restore",
                   QStringLiteral("no application data folder is known; pass --data-dir"));
        return ExitConfiguration;
    }
    if (!QFileInfo(options.storeFile).isFile()) { // before a new data folder is made for it
        printError("restore", QStringLiteral("%1 does not exist or is not a file")
                                  .arg(QDir::toNativeSeparators(options.storeFile)));
        return ExitUsage;
    }
    if (!PrivateFiles::ensureFolder(dir)) {
        printError(
            "restore",
            QStringLiteral("cannot create the data folder %1").arg(QDir::toNativeSeparators(dir)));
        return ExitConfiguration;
    }
    InstanceLock lock(dir);
    if (!lock.tryLock(QStringLiteral("restore"))) {
        printError("restore",
                   QStringLiteral("the data folder %1 is in use by memorygraph %2; stop that "
                                  "process first (or use File \u2192 Restore\u2026 in its window, "
                                  "which restores on its next start)")
                       .arg(QDir::toNativeSeparators(dir), InstanceLock::describe(lock.owner())));
        return ExitInUse;
    }
    InterruptGuard interrupts;
    ProgressPrinter printer("restore");
    auto outcome = MemoryService::restoreDataDir(dir, options.storeFile, printer.callback());
    printer.endLine();
    if (!outcome) {
        printError("restore", outcome.error().code == QLatin1String("cancelled")
                                  ? QStringLiteral("interrupted; the store was not changed")
                                  : outcome.error().message);
        return exitCodeFor(outcome.error());
    }
    const RestoreOutcome &r = outcome.value();
    QString text = QStringLiteral("restored %1 from %2: %3")
                       .arg(QDir::toNativeSeparators(r.dataDir), QDir::toNativeSeparators(r.source),
                            describe(r.store));
    if (!r.previousStore.isEmpty())
        text += QStringLiteral("\nthe previous store is kept as %1")
                    .arg(QDir::toNativeSeparators(r.previousStore));
    text
        += QStringLiteral("\nthe vector indexes are rebuilt from the store when it is next opened");
    printOutcome(text);
    return ExitOk;
}

PendingRestoreNotice applyPendingRestore(const QString &dataDir)
{
    PendingRestoreNotice notice;
    auto applied = MemoryService::applyPendingRestore(dataDir);
    if (!applied) {
        notice.kind = PendingRestoreNotice::Kind::Failed;
        notice.text = QStringLiteral("the restore prepared for this start was not applied and "
                                     "has been dropped; the store is unchanged: %1")
                          .arg(applied.error().message);
    } else if (applied.value()) {
        const RestoreOutcome &r = *applied.value();
        notice.kind = PendingRestoreNotice::Kind::Applied;
        notice.text = QStringLiteral("restored the store from %1: %2")
                          .arg(QDir::toNativeSeparators(r.source), describe(r.store));
        if (!r.previousStore.isEmpty())
            notice.text += QStringLiteral("; the previous store is kept as %1")
                               .arg(QDir::toNativeSeparators(r.previousStore));
    } else {
        return notice;
    }
    std::fprintf(stderr, "memorygraph: %s\n", qUtf8Printable(notice.text));
    std::fflush(stderr);
    return notice;
}

} // namespace MemoryGraph
