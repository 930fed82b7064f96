#pragma once

#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace MemoryGraph::Executor {

struct Options
{
    QUrl baseUrl;
    QByteArray apiKey;
    QString playbookId;
    QString executorId;
    QString tenantId;
    QString scope;
    QStringList allowed{QStringLiteral("echo")};
    bool once = false;
    int pollMs = 2000;
    int stepTimeoutMs = 15000;
};

/// How one step went.
struct StepOutcome
{
    QString status; ///< success | failed | skipped
    int exitCode = -1;
    QString stdoutText;
    QString stderrText;
    QString error;
    qint64 durationMs = 0;
};

/// Claims playbook runs and executes them: each step's argv is started directly with QProcess
/// (never through a shell) when argv[0] is an allowlisted program name.
class Runner
{
public:
    explicit Runner(Options options);

    /// Claims and executes runs until there is no work (--once) or forever. Returns the exit
    /// code: 0 all claimed runs succeeded (or there was none), 1 a run did not succeed, 2 an
    /// HTTP or protocol error.
    int exec();

    /// One step as the executor would run it (exposed for the console output).
    StepOutcome runStep(const QJsonObject &step) const;

private:
    std::optional<QJsonObject> post(const QString &path, QJsonObject body, QString *error);
    /// Executes one claimed run; returns its final status.
    std::optional<QString> execute(const QJsonObject &claim);

    Options m_options;
    QNetworkAccessManager m_nam;
};

} // namespace MemoryGraph::Executor
