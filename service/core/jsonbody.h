#pragma once

#include "service/core/result.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace MemoryGraph {

/// Embedding arrays decoded straight to float32 while a body was parsed, keyed by the path a
/// JsonReader names them with ("nodes[3].embedding", "query_embedding").
using DecodedVectors = QHash<QString, QVector<float>>;

/// A request body parsed once.
///
/// A write of 100 nodes carries 153,600 numbers; held as QJsonValues they cost more than the
/// rest of the write. So an `embedding` or `query_embedding` array whose every element is a
/// number in float32 range is decoded into `vectors` and stands in `object` as its digest
/// (embeddingDigest()), which is also what request keys and content ids hash. Any other
/// array, and any embedding that fails those checks, stays an ordinary JSON array for the
/// request parsers to check and word the error.
struct JsonBody
{
    QJsonObject object;
    DecodedVectors vectors;
};

/// Parses a request body that must be a JSON object; a malformed body is a 400
/// `invalid_request` saying where it breaks.
Result<JsonBody> parseJsonBody(const QByteArray &bytes);

/// "float32-sha256:<hex>" of a vector's float32 bytes: how an embedding stands in a body
/// that is hashed (request keys, content-derived ids).
QString embeddingDigest(const QVector<float> &vector);

} // namespace MemoryGraph
