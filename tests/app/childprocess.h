#pragma once

// The memorygraph executable as a child process of an app test: the environment it runs in
// (no display, the offline embedder, no rate limit) and a run to its end.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace MemoryGraph::AppTest {

inline QProcessEnvironment childEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("local"));
    env.insert(QStringLiteral("RATE_LIMIT_ENABLED"), QStringLiteral("false"));
    return env;
}

/// What a run that ended left: its exit code (-1 after a crash or a timeout) and its output.
struct Finished
{
    int exitCode = -1;
    QString out;
    QString err;
};

inline Finished runToEnd(const QString &program, const QStringList &arguments, int timeoutMs)
{
    QProcess p;
    p.setProcessEnvironment(childEnvironment());
    p.start(program, arguments);
    Finished f;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        f.err = QStringLiteral("did not finish in time");
        return f;
    }
    f.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    f.out = QString::fromUtf8(p.readAllStandardOutput());
    f.err = QString::fromUtf8(p.readAllStandardError());
    return f;
}

} // namespace MemoryGraph::AppTest
