#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>

namespace MemoryGraph {

/// Compact JSON with object keys sorted recursively: the canonical form every hash is taken over.
QByteArray stableJson(const QJsonValue &value);

/// Lowercase hex SHA-256 of bytes.
QString sha256Hex(const QByteArray &bytes);

/// True for 64 hex digits.
bool isSha256Hex(const QString &text);

} // namespace MemoryGraph
