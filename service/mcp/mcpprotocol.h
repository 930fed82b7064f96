#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace MemoryGraph::Mcp {

// Protocol revisions this server speaks (modelcontextprotocol.io/specification/<revision>).
// The legacy ones open a session with initialize; 2026-07-28 is stateless (server/discover,
// the version and client capabilities in every request's _meta).
inline const QString kRevision20250326 = QStringLiteral("2025-03-26");
inline const QString kRevision20250618 = QStringLiteral("2025-06-18");
inline const QString kRevision20251125 = QStringLiteral("2025-11-25");
inline const QString kRevision20260728 = QStringLiteral("2026-07-28");

/// Initialize-based revisions, newest first.
const QStringList &legacyRevisions();
/// Every supported revision, newest first (the `supported` list of a version error).
const QStringList &supportedRevisions();
bool isLegacyRevision(const QString &revision);
bool isStatelessRevision(const QString &revision);
/// JSON-RPC batches exist only in 2025-03-26 (removed in 2025-06-18).
bool allowsBatches(const QString &revision);

// _meta keys of the stateless revision.
inline const QString kMetaProtocolVersion
    = QStringLiteral("io.modelcontextprotocol/protocolVersion");
inline const QString kMetaClientCapabilities
    = QStringLiteral("io.modelcontextprotocol/clientCapabilities");
inline const QString kMetaClientInfo = QStringLiteral("io.modelcontextprotocol/clientInfo");
inline const QString kMetaServerInfo = QStringLiteral("io.modelcontextprotocol/serverInfo");

/// JSON-RPC and MCP error codes.
enum ErrorCode : int {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
    ResourceNotFoundLegacy = -32002, ///< resources/read before 2026-07-28 (then -32602)
    HeaderMismatch = -32020,
    MissingRequiredClientCapability = -32021,
    UnsupportedProtocolVersion = -32022,
};

/// {"jsonrpc":"2.0","id":id,"error":{code,message[,data]}}; id null when it could not be read.
QJsonObject errorResponse(const QJsonValue &id, int code, const QString &message,
                          const QJsonValue &data = QJsonValue::Undefined);
QJsonObject resultResponse(const QJsonValue &id, const QJsonObject &result);

/// The -32022 error naming the supported revisions and the requested one.
QJsonObject unsupportedVersion(const QJsonValue &id, const QString &requested);

} // namespace MemoryGraph::Mcp
