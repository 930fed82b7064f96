#pragma once

#include <QString>

namespace MemoryGraph::Ui {

/// A ready-to-paste shell example of the HTTP API for agents that speak HTTP rather than MCP:
/// a health check, one write and one recall against `baseUrl` (http://host:port).
namespace HttpExample {

/// With needsKey (auth is on), every request carries an X-Api-Key header to fill in.
QString curlText(const QString &baseUrl, bool needsKey);

} // namespace HttpExample
} // namespace MemoryGraph::Ui
