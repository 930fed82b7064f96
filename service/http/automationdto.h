#pragma once

#include <QJsonObject>
#include <QString>

namespace MemoryGraph::Dto {

/// The body of an automation route (reference §8): the engine's answer, whose run and node
/// objects are the stored rows (JSON columns under their `_json` names), led by tenant_id
/// and scope like every /v1 body.
QJsonObject automation(const QString &path, const QJsonObject &outcome);

} // namespace MemoryGraph::Dto
