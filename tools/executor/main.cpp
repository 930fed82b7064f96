// memorygraph_executor: claims replay playbook runs from a Memory Graph server and executes
// their steps. See the README section "Replay playbooks".

#include "executor.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QHostInfo>
#include <QTextStream>

using namespace MemoryGraph::Executor;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("memorygraph_executor"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Claims strict/guided playbook runs (replay/playbooks/dispatch), runs each step's argv "
        "directly (no shell; allowlisted programs only) and reports replay/step/after and "
        "replay/run/end."));
    parser.addHelpOption();
    const QCommandLineOption url(QStringLiteral("url"), QStringLiteral("Server base URL."),
                                 QStringLiteral("url"));
    const QCommandLineOption apiKey(QStringLiteral("api-key"), QStringLiteral("X-Api-Key to send."),
                                    QStringLiteral("key"));
    const QCommandLineOption playbook(QStringLiteral("playbook-id"),
                                      QStringLiteral("Only claim runs of this playbook."),
                                      QStringLiteral("id"));
    const QCommandLineOption once(QStringLiteral("once"),
                                  QStringLiteral("Exit when there is no pending work."));
    const QCommandLineOption allow(
        QStringLiteral("allow"),
        QStringLiteral("A program the executor may run (repeatable; default: echo)."),
        QStringLiteral("cmd"));
    const QCommandLineOption executorId(QStringLiteral("executor-id"),
                                        QStringLiteral("Name reported when claiming work."),
                                        QStringLiteral("id"));
    const QCommandLineOption tenant(QStringLiteral("tenant-id"), QStringLiteral("Tenant."),
                                    QStringLiteral("tenant"));
    const QCommandLineOption scope(QStringLiteral("scope"), QStringLiteral("Scope."),
                                   QStringLiteral("scope"));
    const QCommandLineOption poll(QStringLiteral("poll-ms"),
                                  QStringLiteral("Wait between polls without --once."),
                                  QStringLiteral("ms"), QStringLiteral("2000"));
    const QCommandLineOption timeout(QStringLiteral("step-timeout-ms"),
                                     QStringLiteral("Longest a step may run."),
                                     QStringLiteral("ms"), QStringLiteral("15000"));
    parser.addOptions(
        {url, apiKey, playbook, once, allow, executorId, tenant, scope, poll, timeout});
    parser.process(app);

    QTextStream err(stderr);
    if (!parser.isSet(url)) {
        err << "memorygraph_executor: --url is required\n";
        return 2;
    }
    Options options;
    options.baseUrl = QUrl(parser.value(url));
    if (!options.baseUrl.isValid() || options.baseUrl.scheme().isEmpty()) {
        err << "memorygraph_executor: --url must be an absolute URL\n";
        return 2;
    }
    options.apiKey = parser.value(apiKey).toUtf8();
    options.playbookId = parser.value(playbook);
    options.once = parser.isSet(once);
    if (parser.isSet(allow))
        options.allowed = parser.values(allow);
    options.executorId = parser.isSet(executorId)
                             ? parser.value(executorId)
                             : QStringLiteral("memorygraph_executor@") + QHostInfo::localHostName();
    options.tenantId = parser.value(tenant);
    options.scope = parser.value(scope);
    options.pollMs = qMax(100, parser.value(poll).toInt());
    options.stepTimeoutMs = qMax(100, parser.value(timeout).toInt());
    Runner runner(options);
    return runner.exec();
}
