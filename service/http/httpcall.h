#pragma once

#include "service/core/identity.h"
#include "service/core/jsonbody.h"
#include "service/core/result.h"

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <memory>

class QIODevice;

namespace MemoryGraph {

/// A request copied off the server thread: everything a handler may read.
struct HttpCall
{
    QString method;
    QString path;
    QString query;                         ///< the URL's query, undecoded ("a=1&b=2")
    QHash<QByteArray, QByteArray> headers; ///< lower-case names
    QByteArray body;
    QHostAddress peer;
    QJsonObject json;       ///< parsed body (routes with a JSON body)
    DecodedVectors vectors; ///< its embeddings, decoded while parsing (see JsonBody)
    RequestMeta meta;

    QByteArray header(const char *lowerName) const { return headers.value(QByteArray(lowerName)); }
};

/// A reply body read from a file (an export) and streamed as the client takes it.
struct ReplyFile
{
    std::unique_ptr<QIODevice> device; ///< open for reading, at its start
    QByteArray contentType;
};

/// What a handler answers: a JSON object with a status, or an Error for the envelope.
struct HttpReply
{
    int status = 200;
    QJsonObject body;
    QList<QPair<QByteArray, QByteArray>> headers;
    bool raw = false; ///< send rawBody as is instead of body (MCP: arrays, empty 202/204)
    QByteArray rawBody = QByteArray();         ///< JSON text, or empty for no body
    QString logDetail = QString();             ///< shown in the request log (MCP method and tool)
    std::shared_ptr<ReplyFile> file = nullptr; ///< set: the body is this file, not `body`
};

using RouteHandler = std::function<Result<HttpReply>(const HttpCall &call)>;

} // namespace MemoryGraph
