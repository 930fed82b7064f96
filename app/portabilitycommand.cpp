#include "app/portabilitycommand.h"

#include "app/appcontroller.h"
#include "app/instancelock.h"
#include "service/core/config.h"
#include "service/core/privatefiles.h"
#include "service/memoryservice.h"
#include "service/net/embeddingfactory.h"

#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace MemoryGraph {

namespace {

constexpr int kListedConflicts = 20;

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int)
{
    g_interrupted = true;
}

/// Ctrl+C asks the running export or import to stop (it then leaves nothing behind).
class InterruptGuard
{
public:
    InterruptGuard() : m_previous(std::signal(SIGINT, onInterrupt)) { }
    ~InterruptGuard() { std::signal(SIGINT, m_previous); }
    InterruptGuard(const InterruptGuard &) = delete;
    InterruptGuard &operator=(const InterruptGuard &) = delete;

private:
    void (*m_previous)(int);
};

/// Messages and progress go to stderr, prefixed with the command.
class Console
{
public:
    explicit Console(const QString &command) : m_command(command) { }

    void say(const QString &text) const
    {
        std::fprintf(stderr, "memorygraph %s: %s\n", qUtf8Printable(m_command),
                     qUtf8Printable(text));
        std::fflush(stderr);
    }

    /// A line per stage and per tenth of the way; false (stop) after Ctrl+C.
    ProgressCallback progress() const
    {
        auto last = std::make_shared<std::pair<QString, qint64>>(QString(), -1);
        return [this, last](const Progress &p) {
            const qint64 tenth = p.total > 0 ? p.done * 10 / p.total : 0;
            if (p.stage != last->first || tenth != last->second) {
                *last = {p.stage, tenth};
                say(p.total > 0 ? QStringLiteral("%1 %2/%3 (%4%)")
                                      .arg(p.stage)
                                      .arg(p.done)
                                      .arg(p.total)
                                      .arg(p.done * 100 / p.total)
                                : p.stage);
            }
            return !g_interrupted.load();
        };
    }

private:
    QString m_command;
};

void out(const QString &text)
{
    std::fprintf(stdout, "%s\n", qUtf8Printable(text));
}

/// The data folder as the window resolves it: --data-dir, else the user's application data
/// folder; created owner-only when missing.
QString dataFolder(const QString &given, const Console &console)
{
    QString dir = given.isEmpty()
                      ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                      : given;
    if (dir.isEmpty()) {
        console.say(QStringLiteral("no application data folder is known; pass --data-dir"));
        return QString();
    }
    dir = QDir::cleanPath(QDir(dir).absolutePath());
    if (!PrivateFiles::ensureFolder(dir)) {
        console.say(
            QStringLiteral("cannot create the data folder %1").arg(QDir::toNativeSeparators(dir)));
        return QString();
    }
    return QFileInfo(dir).canonicalFilePath();
}

/// What to run instead while another process owns the folder: its HTTP route, when it serves.
QString useTheOwnerInstead(const PortabilityOptions &p, const InstanceLock::Owner &owner,
                           const ServiceConfig &config)
{
    if (owner.url.isEmpty())
        return QStringLiteral("stop it first, or let it serve HTTP and use POST /v1/admin/%1")
            .arg(p.command);
    // The admin routes need the token when one is configured (the shell fills it in).
    const QString token = config.adminToken.isEmpty()
                              ? QString()
                              : QStringLiteral(" -H \"X-Admin-Token: $ADMIN_TOKEN\"");
    if (p.command == QLatin1String("export"))
        return QStringLiteral("export through it instead:\n  curl -s -X POST %1/v1/admin/export%2"
                              " -H 'Content-Type: application/json' -d '{\"tenant_id\": \"%3\","
                              " \"scope\": \"%4\"}' -o %5")
            .arg(owner.url, token, p.tenant.isEmpty() ? QStringLiteral("default") : p.tenant,
                 p.scope.isEmpty() ? QStringLiteral("default") : p.scope, p.file);
    QString query = p.dryRun ? QStringLiteral("dry_run=true") : QStringLiteral("dry_run=false");
    if (!p.scope.isEmpty())
        query += QStringLiteral("&scope=") + p.scope;
    if (!p.tenant.isEmpty())
        query += QStringLiteral("&tenant_id=") + p.tenant;
    if (p.remapIds)
        query += QStringLiteral("&id_policy=remap&client_id_policy=remap");
    else if (p.remapClientIds)
        query += QStringLiteral("&client_id_policy=remap");
    return QStringLiteral("import through it instead:\n  curl -s -X POST '%1/v1/admin/import?%2'%3"
                          " -H 'Content-Type: application/x-ndjson' -H 'Expect:'"
                          " --data-binary @%4")
        .arg(owner.url, query, token, p.file);
}

int failed(const Console &console, const Error &error)
{
    console.say(error.code == QLatin1String("cancelled")
                    ? error.message
                    : QStringLiteral("%1 (%2)").arg(error.message, error.code));
    return ExitFailed;
}

int runExport(MemoryService &service, const PortabilityOptions &p, const Console &console)
{
    ExportRequest request;
    request.tenantId = p.tenant;
    request.scope = p.scope;
    request.includeEmbeddings = p.embeddings;
    auto outcome = service.exportScopeToFile(request, p.file, console.progress());
    if (!outcome)
        return failed(console, outcome.error());
    const ExportOutcome &o = outcome.value();
    QStringList counts;
    for (const QString &kind : portableKinds())
        counts << QStringLiteral("%1 %2").arg(kind).arg(o.counts.value(kind));
    out(QStringLiteral("exported %1/%2 to %3 (%4 bytes): %5")
            .arg(o.tenantId, o.scope, QDir::toNativeSeparators(p.file))
            .arg(o.bytes)
            .arg(counts.join(QStringLiteral(", "))));
    return ExitOk;
}

void printReport(const ImportReport &r)
{
    out(QStringLiteral("%1 %2/%3 (exported %4 by Memory Graph %5) into %6/%7, ids %8, client ids "
                       "%9")
            .arg(r.dryRun ? QStringLiteral("dry run of the import of") : QStringLiteral("imported"),
                 r.sourceTenantId, r.sourceScope, r.exportedAt.toString(Qt::ISODate), r.appVersion,
                 r.tenantId, r.scope, idPolicyName(r.idPolicy), idPolicyName(r.clientIdPolicy)));
    out(QStringLiteral("%1 %2 %3 %4 %5 %6")
            .arg(QStringLiteral("kind"), -14)
            .arg(QStringLiteral("records"), 8)
            .arg(r.dryRun ? QStringLiteral("would add") : QStringLiteral("added"), 10)
            .arg(QStringLiteral("conflicts"), 10)
            .arg(QStringLiteral("new ids"), 8)
            .arg(QStringLiteral("renamed client ids"), 19));
    for (const QString &kind : portableKinds()) {
        const ImportKindReport k = r.kinds.value(kind);
        out(QStringLiteral("%1 %2 %3 %4 %5 %6")
                .arg(kind, -14)
                .arg(k.records, 8)
                .arg(k.added, 10)
                .arg(k.conflicts, 10)
                .arg(k.remappedIds, 8)
                .arg(k.remappedClientIds, 19));
    }
    out(QStringLiteral("vectors kept: %1; nodes to embed: %2")
            .arg(r.vectorsKept)
            .arg(r.vectorsPending));
    if (r.conflictCount == 0) {
        out(r.dryRun ? QStringLiteral("no conflicts: the import can go ahead")
                     : QStringLiteral("%1 commit(s): %2")
                           .arg(r.commitIds.size())
                           .arg(r.commitIds.join(QStringLiteral(", "))));
        return;
    }
    out(QStringLiteral("%1 conflict(s); the import would be refused (try --remap-ids):")
            .arg(r.conflictCount));
    for (int i = 0; i < r.conflicts.size() && i < kListedConflicts; ++i) {
        const ImportConflict &c = r.conflicts.at(i);
        out(QStringLiteral("  line %1: %2 %3%4 (%5)")
                .arg(c.line)
                .arg(c.kind, c.id,
                     c.clientId.isEmpty() ? QString()
                                          : QStringLiteral(" client_id '%1'").arg(c.clientId),
                     c.reason));
    }
}

int runImport(MemoryService &service, const PortabilityOptions &p, const Console &console)
{
    ImportRequest request;
    request.tenantId = p.tenant;
    request.scope = p.scope;
    request.dryRun = p.dryRun;
    request.idPolicy = p.remapIds ? IdPolicy::Remap : IdPolicy::Preserve;
    request.clientIdPolicy = p.remapIds || p.remapClientIds ? IdPolicy::Remap : IdPolicy::Preserve;
    auto report = service.importScopeFromFile(request, p.file, RequestMeta{}, console.progress());
    if (!report)
        return failed(console, report.error());
    printReport(report.value());
    if (!p.dryRun && report.value().vectorsPending > 0)
        console.say(QStringLiteral("%1 node(s) will be embedded in the background the next time "
                                   "Memory Graph runs on this folder")
                        .arg(report.value().vectorsPending));
    return ExitOk;
}

} // namespace

int runPortabilityCommand(const CommandLineOptions &options)
{
    const PortabilityOptions &p = options.portability;
    const Console console(p.command);
    auto config = ServiceConfig::fromEnvironment(QProcessEnvironment::systemEnvironment());
    if (!config) {
        console.say(QStringLiteral("configuration error: %1").arg(config.error().message));
        return ExitConfiguration;
    }
    const QString dir = dataFolder(options.dataDir, console);
    if (dir.isEmpty())
        return ExitConfiguration;
    InstanceLock lock(dir);
    if (!lock.tryLock(p.command)) {
        const InstanceLock::Owner owner = lock.owner();
        console.say(QStringLiteral("the data folder %1 is in use by memorygraph %2; %3")
                        .arg(QDir::toNativeSeparators(dir), InstanceLock::describe(owner),
                             useTheOwnerInstead(p, owner, config.value())));
        return ExitInUse;
    }
    ServiceConfig c = config.value();
    c.dataDir = dir;
    auto provider = makeEmbeddingProvider(c);
    if (!provider) {
        console.say(QStringLiteral("configuration error: %1").arg(provider.error().message));
        return ExitConfiguration;
    }
    auto service = MemoryService::open(c, std::move(provider).value());
    if (!service) {
        console.say(QStringLiteral("cannot open the memory store in %1: %2")
                        .arg(QDir::toNativeSeparators(dir), service.error().message));
        return ExitConfiguration;
    }
    InterruptGuard interrupt;
    const int code = p.command == QLatin1String("export") ? runExport(*service.value(), p, console)
                                                          : runImport(*service.value(), p, console);
    service.value()->saveIndexes();
    return code;
}

} // namespace MemoryGraph
