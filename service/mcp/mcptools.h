#pragma once

#include "service/core/result.h"
#include "service/mcp/mcpserver.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace MemoryGraph {

class MemoryService;

/// What a tool answers: a text for the model and the same result as structured JSON.
struct McpToolOutput
{
    QString text;
    QJsonObject structured;
};

/// One MCP tool over the service: its definition and what a call runs.
struct McpTool
{
    QString name;
    QString title;
    QString description; ///< one paragraph written for a model
    QJsonObject inputSchema;
    bool readOnly = false;
    bool destructive = false;
    bool idempotent = false;
    std::function<Result<McpToolOutput>(const QJsonObject &arguments, McpCall &call,
                                        MemoryService *service)>
        run;

    /// The Tool object of tools/list.
    QJsonObject definition() const;
};

namespace McpTools {

/// Every tool, in a fixed order (clients cache tools/list).
const QVector<McpTool> &all();
const McpTool *find(const QString &name);

/// A memorygraph:// URI or a bare id of the caller's scope (kind unknown), read through
/// /v1/memory/resolve (replay runs through /v1/memory/replay/runs/get). includeSlots: the
/// node's slots too.
Result<QJsonObject> read(const QString &uriOrId, const QJsonObject &arguments, McpCall &call,
                         MemoryService *service);

} // namespace McpTools
} // namespace MemoryGraph
