#pragma once

// Shared fixtures for the HTTP tests that drive replay playbooks (reference-behaviour §7.1-7.4):
// recording a replay run of echo steps, compiling a playbook from it, and running the example
// executor (tools/executor) once as a child process against the test server.

#include "tests/http/httptestserver.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QPair>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

namespace MemoryGraph::Test::Playbooks {

/// Records a run of `echo <arg>` steps over HTTP and ends it with endStatus (none when empty);
/// returns its run_id, or an empty string when any call was refused.
inline QString recordRun(HttpTestServer &server, const QStringList &args,
                         const HttpHeaders &headers = {},
                         const QString &endStatus = QStringLiteral("success"))
{
    const Reply started
        = server.post(QStringLiteral("/v1/memory/replay/run/start"),
                      QJsonObject{{QStringLiteral("goal"), QStringLiteral("say hello")}}, headers);
    if (started.status != 200)
        return QString();
    const QString runId = started.json.value(QStringLiteral("run_id")).toString();
    int index = 0;
    for (const QString &arg : args) {
        const Reply before = server.post(
            QStringLiteral("/v1/memory/replay/step/before"),
            QJsonObject{
                {QStringLiteral("run_id"), runId},
                {QStringLiteral("step_index"), ++index},
                {QStringLiteral("tool_name"), QStringLiteral("command")},
                {QStringLiteral("tool_input"),
                 QJsonObject{{QStringLiteral("argv"), QJsonArray{QStringLiteral("echo"), arg}}}},
                {QStringLiteral("safety_level"), QStringLiteral("auto_ok")},
                {QStringLiteral("expected_output_signature"),
                 QJsonObject{{QStringLiteral("exit_code"), 0},
                             {QStringLiteral("stdout_contains"), arg}}}},
            headers);
        if (before.status != 200)
            return QString();
        const Reply after = server.post(
            QStringLiteral("/v1/memory/replay/step/after"),
            QJsonObject{{QStringLiteral("run_id"), runId},
                        {QStringLiteral("step_id"), before.json.value(QStringLiteral("step_id"))},
                        {QStringLiteral("status"), QStringLiteral("success")}},
            headers);
        if (after.status != 200)
            return QString();
    }
    if (!endStatus.isEmpty()
        && server.post(QStringLiteral("/v1/memory/replay/run/end"),
                       QJsonObject{{QStringLiteral("run_id"), runId},
                                   {QStringLiteral("status"), endStatus}},
                       headers)
                   .status
               != 200)
        return QString();
    return runId;
}

/// Records a successful run of `echo <arg>` steps and compiles a playbook "hello" from it;
/// returns the playbook_id, or an empty string when refused.
inline QString compiled(HttpTestServer &server, const QStringList &args,
                        const HttpHeaders &headers = {})
{
    const QString runId = recordRun(server, args, headers);
    const Reply r = server.post(QStringLiteral("/v1/memory/replay/playbooks/compile_from_run"),
                                QJsonObject{{QStringLiteral("run_id"), runId},
                                            {QStringLiteral("name"), QStringLiteral("hello")}},
                                headers);
    return r.status == 200 ? r.json.value(QStringLiteral("playbook_id")).toString() : QString();
}

/// Runs `executorPath --url <server> --once <extra>` while this thread keeps serving; returns its
/// exit code (-1 not started, -2 timed out) and its merged output.
inline QPair<int, QString> runExecutor(const QString &executorPath, HttpTestServer &server,
                                       const QStringList &extra, int timeoutMs = 60000)
{
    QProcess executor;
    executor.setProcessChannelMode(QProcess::MergedChannels);
    executor.start(executorPath,
                   QStringList{QStringLiteral("--url"),
                               QStringLiteral("http://127.0.0.1:%1").arg(server.port()),
                               QStringLiteral("--once")}
                       + extra);
    if (!executor.waitForStarted(10000))
        return {-1, executor.errorString()};
    // The server answers on this thread: spin the event loop while the executor works.
    if (!QTest::qWaitFor([&] { return executor.state() == QProcess::NotRunning; }, timeoutMs)) {
        executor.kill();
        executor.waitForFinished(5000);
        return {-2, QStringLiteral("timed out: ") + QString::fromUtf8(executor.readAll())};
    }
    const int code = executor.exitStatus() == QProcess::NormalExit ? executor.exitCode() : -3;
    return {code, QString::fromUtf8(executor.readAll())};
}

} // namespace MemoryGraph::Test::Playbooks
