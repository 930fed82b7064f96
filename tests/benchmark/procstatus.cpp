#include "tests/benchmark/procstatus.h"

#include <QByteArray>
#include <QFile>
#include <QList>

namespace MemoryGraph::Bench {

namespace {

/// "VmHWM:\t  123456 kB" -> 123456 * 1024.
qint64 kilobytesField(const QByteArray &line)
{
    const qsizetype colon = line.indexOf(':');
    const QList<QByteArray> parts = line.mid(colon + 1).simplified().split(' ');
    bool ok = false;
    const qint64 value = parts.value(0).toLongLong(&ok);
    if (!ok)
        return -1;
    return parts.value(1).toLower() == "kb" ? value * 1024 : value;
}

} // namespace

ProcMemory readProcMemory(qint64 pid)
{
    ProcMemory memory;
    QFile file(pid > 0 ? QStringLiteral("/proc/%1/status").arg(pid)
                       : QStringLiteral("/proc/self/status"));
    if (!file.open(QIODevice::ReadOnly))
        return memory;
    // procfs files report size 0, so atEnd() is true at once: readAll() reads to EOF anyway.
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("VmHWM:"))
            memory.peakRss = kilobytesField(line);
        else if (line.startsWith("VmRSS:"))
            memory.rss = kilobytesField(line);
    }
    return memory;
}

QString readLoadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> parts = file.readAll().simplified().split(' ');
    return QString::fromLatin1(parts.mid(0, 3).join(' '));
}

} // namespace MemoryGraph::Bench
