#include "executor.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <algorithm>

namespace MemoryGraph::Executor {

namespace {

constexpr int kOutputCap = 64 * 1024;
constexpr int kReportedChars = 4000;

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QString field(const QJsonObject &c, std::initializer_list<const char *> names)
{
    for (const char *n : names) {
        const QJsonValue v = c.value(QLatin1String(n));
        if (v.isString() && !v.toString().isEmpty())
            return v.toString();
    }
    return QString();
}

/// A precondition checked on the executor's host; empty when it holds.
QString failedPrecondition(const QJsonObject &c)
{
    const QString kind = field(c, {"kind", "type"});
    const QString name = field(c, {"name", "env", "var"});
    const QString path = field(c, {"path", "file", "entry"});
    const QByteArray env = name.toLocal8Bit();
    if (kind == QLatin1String("always"))
        return {};
    if (kind == QLatin1String("env_exists"))
        return qEnvironmentVariableIsSet(env.constData()) ? QString() : kind;
    if (kind == QLatin1String("env_equals"))
        return qEnvironmentVariable(env.constData()) == c.value(QStringLiteral("value")).toString()
                   ? QString()
                   : kind;
    if (kind == QLatin1String("file_exists"))
        return QFileInfo::exists(path) ? QString() : kind;
    if (kind == QLatin1String("path_not_exists"))
        return QFileInfo::exists(path) ? kind : QString();
    if (kind == QLatin1String("cwd_contains"))
        return QDir::current().exists(path.isEmpty() ? name : path) ? QString() : kind;
    if (kind == QLatin1String("command_available"))
        return QStandardPaths::findExecutable(field(c, {"command", "name"})).isEmpty() ? kind
                                                                                       : QString();
    return kind + QStringLiteral(" (unsupported by this executor)");
}

/// exit_code (default 0), stdout_contains, stderr_contains, output_regex.
QString signatureMismatch(const QJsonObject &sig, const StepOutcome &o)
{
    const int expected = sig.value(QStringLiteral("exit_code")).toInt(0);
    if (o.exitCode != expected)
        return QStringLiteral("exit code %1, expected %2").arg(o.exitCode).arg(expected);
    const QString so = field(sig, {"stdout_contains"});
    if (!so.isEmpty() && !o.stdoutText.contains(so))
        return QStringLiteral("stdout does not contain '%1'").arg(so);
    const QString se = field(sig, {"stderr_contains"});
    if (!se.isEmpty() && !o.stderrText.contains(se))
        return QStringLiteral("stderr does not contain '%1'").arg(se);
    const QString re = field(sig, {"output_regex"});
    if (!re.isEmpty() && !QRegularExpression(re).match(o.stdoutText).hasMatch())
        return QStringLiteral("stdout does not match /%1/").arg(re);
    return {};
}

} // namespace

Runner::Runner(Options options) : m_options(std::move(options))
{
    m_nam.setProxy(QNetworkProxy::NoProxy);
}

std::optional<QJsonObject> Runner::post(const QString &path, QJsonObject body, QString *error)
{
    if (!m_options.tenantId.isEmpty())
        body.insert(QStringLiteral("tenant_id"), m_options.tenantId);
    if (!m_options.scope.isEmpty())
        body.insert(QStringLiteral("scope"), m_options.scope);
    QUrl url = m_options.baseUrl;
    url.setPath(url.path().chopped(url.path().endsWith(QLatin1Char('/')) ? 1 : 0) + path);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Expect", QByteArray());
    if (!m_options.apiKey.isEmpty())
        request.setRawHeader("X-Api-Key", m_options.apiKey);
    QNetworkReply *reply = m_nam.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    loop.exec();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = reply->readAll();
    const bool finished = reply->isFinished();
    reply->deleteLater();
    if (!finished) {
        reply->abort();
        *error = QStringLiteral("%1: timed out").arg(path);
        return std::nullopt;
    }
    const QJsonObject json = QJsonDocument::fromJson(bytes).object();
    if (status != 200) {
        *error = QStringLiteral("%1: HTTP %2 %3")
                     .arg(path)
                     .arg(status)
                     .arg(QString::fromUtf8(bytes.left(400)));
        return std::nullopt;
    }
    return json;
}

StepOutcome Runner::runStep(const QJsonObject &step) const
{
    StepOutcome o;
    o.status = QStringLiteral("failed");
    if (step.value(QStringLiteral("safety_level")).toString() == QLatin1String("manual_only")) {
        o.error = QStringLiteral("manual_only step: not run by an executor");
        return o;
    }
    for (const QJsonValue &c : step.value(QStringLiteral("preconditions")).toArray()) {
        const QString failed = failedPrecondition(c.toObject());
        if (!failed.isEmpty()) {
            o.error = QStringLiteral("precondition failed: ") + failed;
            return o;
        }
    }
    QStringList argv;
    for (const QJsonValue &v : step.value(QStringLiteral("argv")).toArray())
        argv << v.toString();
    if (argv.isEmpty()) {
        o.error = QStringLiteral("the step has no argv to run");
        return o;
    }
    const QString program = argv.takeFirst();
    // Only plain program names from the allowlist, resolved on PATH: no paths, no shell.
    if (program.contains(QLatin1Char('/')) || !m_options.allowed.contains(program)) {
        o.error = QStringLiteral("'%1' is not an allowed program").arg(program);
        return o;
    }
    const QString resolved = QStandardPaths::findExecutable(program);
    if (resolved.isEmpty()) {
        o.error = QStringLiteral("'%1' was not found on PATH").arg(program);
        return o;
    }
    QProcess process;
    QProcessEnvironment env;
    env.insert(QStringLiteral("PATH"), qEnvironmentVariable("PATH"));
    process.setProcessEnvironment(env);
    QElapsedTimer timer;
    timer.start();
    process.start(resolved, argv, QIODevice::ReadOnly);
    if (!process.waitForStarted(5000)) {
        o.error = QStringLiteral("could not start '%1': %2").arg(program, process.errorString());
        return o;
    }
    if (!process.waitForFinished(m_options.stepTimeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
        o.error = QStringLiteral("timed out after %1 ms").arg(m_options.stepTimeoutMs);
        o.durationMs = timer.elapsed();
        return o;
    }
    o.durationMs = timer.elapsed();
    o.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    o.stdoutText = QString::fromUtf8(process.readAllStandardOutput().left(kOutputCap));
    o.stderrText = QString::fromUtf8(process.readAllStandardError().left(kOutputCap));
    const QString mismatch
        = signatureMismatch(step.value(QStringLiteral("expected_output_signature")).toObject(), o);
    if (mismatch.isEmpty())
        o.status = QStringLiteral("success");
    else
        o.error = mismatch;
    return o;
}

std::optional<QString> Runner::execute(const QJsonObject &claim)
{
    const QJsonObject run = claim.value(QStringLiteral("run")).toObject();
    const QString runId = run.value(QStringLiteral("run_id")).toString();
    const bool guided = run.value(QStringLiteral("mode")).toString() == QLatin1String("guided");
    QJsonArray steps = claim.value(QStringLiteral("steps")).toArray();
    QList<QJsonObject> ordered;
    for (const QJsonValue &v : steps)
        ordered << v.toObject();
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const QJsonObject &a, const QJsonObject &b) {
                         return a.value(QStringLiteral("step_index")).toInt()
                                < b.value(QStringLiteral("step_index")).toInt();
                     });
    out() << "claimed run " << runId << " (" << ordered.size() << " steps, "
          << run.value(QStringLiteral("mode")).toString() << ")\n";
    out().flush();
    int succeeded = 0;
    int failed = 0;
    int skipped = 0;
    bool stop = false;
    QElapsedTimer timer;
    timer.start();
    for (const QJsonObject &step : std::as_const(ordered)) {
        StepOutcome o;
        if (stop) {
            o.status = QStringLiteral("skipped");
            o.error = QStringLiteral("an earlier step failed (strict)");
        } else {
            o = runStep(step);
        }
        const QString status
            = o.status == QLatin1String("failed") && guided ? QStringLiteral("partial") : o.status;
        if (o.status == QLatin1String("success"))
            ++succeeded;
        else if (o.status == QLatin1String("skipped"))
            ++skipped;
        else
            ++failed;
        stop = stop || (o.status == QLatin1String("failed") && !guided);
        QJsonObject signature{
            {QStringLiteral("exit_code"), o.exitCode},
            {QStringLiteral("stdout"), o.stdoutText.left(kReportedChars)},
            {QStringLiteral("stderr"), o.stderrText.left(kReportedChars)},
            {QStringLiteral("stdout_sha256"),
             QString::fromLatin1(
                 QCryptographicHash::hash(o.stdoutText.toUtf8(), QCryptographicHash::Sha256)
                     .toHex())},
            {QStringLiteral("duration_ms"), o.durationMs}};
        QJsonObject after{{QStringLiteral("run_id"), runId},
                          {QStringLiteral("step_id"), step.value(QStringLiteral("step_id"))},
                          {QStringLiteral("status"), status},
                          {QStringLiteral("output_signature"), signature},
                          {QStringLiteral("metadata"),
                           QJsonObject{{QStringLiteral("executor_id"), m_options.executorId}}}};
        if (!o.error.isEmpty())
            after.insert(QStringLiteral("error"), o.error);
        QString error;
        if (!post(QStringLiteral("/v1/memory/replay/step/after"), after, &error)) {
            out() << "error: " << error << "\n";
            return std::nullopt;
        }
        out() << "  step " << step.value(QStringLiteral("step_index")).toInt() << " " << status
              << (o.error.isEmpty() ? QString() : QStringLiteral(" (") + o.error + QLatin1Char(')'))
              << "\n";
    }
    const QString finalStatus = failed == 0 && skipped == 0 ? QStringLiteral("success")
                          : guided                    ? QStringLiteral("partial")
                                                      : QStringLiteral("failed");
    const QJsonObject end{
        {QStringLiteral("run_id"), runId},
        {QStringLiteral("status"), finalStatus},
        {QStringLiteral("summary"), QStringLiteral("%1 of %2 steps succeeded (executor %3)")
                                        .arg(succeeded)
                                        .arg(ordered.size())
                                        .arg(m_options.executorId)},
        {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("steps_succeeded"), succeeded},
                                                {QStringLiteral("steps_failed"), failed},
                                                {QStringLiteral("steps_skipped"), skipped},
                                                {QStringLiteral("duration_ms"), timer.elapsed()}}},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("executor_id"), m_options.executorId}}}};
    QString error;
    if (!post(QStringLiteral("/v1/memory/replay/run/end"), end, &error)) {
        out() << "error: " << error << "\n";
        return std::nullopt;
    }
    out() << "run " << runId << " ended: " << finalStatus << "\n";
    out().flush();
    return finalStatus;
}

int Runner::exec()
{
    int code = 0;
    for (;;) {
        QJsonObject body{{QStringLiteral("executor_id"), m_options.executorId}};
        if (!m_options.playbookId.isEmpty())
            body.insert(QStringLiteral("playbook_id"), m_options.playbookId);
        QString error;
        auto claim = post(QStringLiteral("/v1/memory/replay/playbooks/dispatch"), body, &error);
        if (!claim) {
            out() << "error: " << error << "\n";
            return 2;
        }
        const QString decision = claim->value(QStringLiteral("dispatch"))
                                     .toObject()
                                     .value(QStringLiteral("decision"))
                                     .toString();
        if (decision != QLatin1String("claimed")) {
            if (m_options.once) {
                out() << "no pending work\n";
                return code;
            }
            QThread::msleep(ulong(m_options.pollMs));
            continue;
        }
        const auto status = execute(*claim);
        if (!status)
            return 2;
        if (*status != QLatin1String("success"))
            code = 1;
    }
}

} // namespace MemoryGraph::Executor
