#include "ui/sampleloader.h"

#include "service/memoryservice.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

namespace MemoryGraph::Ui {

SampleLoadReport SampleLoader::run(MemoryService *service, const QString &path)
{
    SampleLoadReport report;

    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        report.errors << tr("Cannot open %1: %2").arg(path, file.errorString());
        return report;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isArray()) {
        report.errors
            << tr("%1 is not a JSON array of write bodies: %2").arg(path, parseError.errorString());
        return report;
    }

    const QJsonArray bodies = doc.array();
    report.entries = int(bodies.size());
    for (int i = 0; i < bodies.size(); ++i) {
        const auto request
            = WriteRequest::fromJson(bodies.at(i).toObject(), service->config().maxTextLength);
        if (!request) {
            report.errors << tr("Entry %1: %2 (%3)")
                                 .arg(i + 1)
                                 .arg(request.error().message, request.error().code);
            continue;
        }
        RequestMeta meta;
        // A request id makes these writes traceable in the commit log like any agent call.
        meta.requestId = QUuid::createUuid().toString(QUuid::WithoutBraces);
        const auto written = service->write(request.value(), meta);
        if (!written) {
            report.errors << tr("Entry %1: %2 (%3)")
                                 .arg(i + 1)
                                 .arg(written.error().message, written.error().code);
            continue;
        }
        ++report.written;
        if (written.value().replayed)
            ++report.replayed;
        report.nodes += int(written.value().nodes.size());
        report.edges += int(written.value().edges.size());
    }
    return report;
}

} // namespace MemoryGraph::Ui
