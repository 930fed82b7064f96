#pragma once

#include "service/api/recalloutcome.h"
#include "service/core/result.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QProcessEnvironment>
#include <QString>

namespace MemoryGraph {
class MemoryService;
}

/// What the recall-channel tests share: a service with the offline embedder, a text recall,
/// finding a seed, and one-number questions to the store file.
namespace MemoryGraph::Test {

/// Numbers of a stored vector.
constexpr int kVectorDim = 1536;

/// The unit vector along one axis: a client vector near no text and no other axis.
QJsonArray axis(int i);

/// EMBEDDING_PROVIDER=local, and MEMORY_RECALL_SEED_CHANNELS when given.
QProcessEnvironment localEmbedder(const QString &channels = {});

/// Writes the nodes (into `scope` and `tenant` when given) with no caller identity; false, with
/// a warning naming the refusal, when the write is refused.
bool writeNodes(MemoryService *service, const QJsonArray &nodes, const QString &scope = {},
                const QString &tenant = {});

/// recall_text for the question with this seed limit.
Result<RecallOutcome> recallText(MemoryService *service, const QString &text, int limit = 5);

/// The seed with this client id, or nullptr.
const RecallSeed *seedOf(const RecallOutcome &outcome, const QString &clientId);

/// The SQLite file of the service's store.
QString storeFile(const TempService &svc);

/// One integer a query over the store file answers, on a plain connection of its own (-1 when
/// it fails).
qint64 storeScalar(const QString &file, const QString &sql);

} // namespace MemoryGraph::Test
