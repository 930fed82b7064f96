#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

/// What loading the sample memories did.
struct SampleLoadReport
{
    int entries = 0;    ///< write bodies found in the file
    int written = 0;    ///< bodies the service accepted (new or replayed)
    int replayed = 0;   ///< identical re-sends: the earlier commit came back, nothing changed
    int nodes = 0;      ///< nodes in the accepted writes
    int edges = 0;      ///< edges in the accepted writes
    QStringList errors; ///< one readable line per failure

    bool ok() const { return errors.isEmpty() && written == entries; }
};

/// Writes the bundled sample memories through the service facade, exactly as an agent would
/// through POST /v1/memory/write (same validation, same commits).
class SampleLoader
{
    Q_DECLARE_TR_FUNCTIONS(SampleLoader)
public:
    static QString defaultPath() { return QStringLiteral(":/samples/sample-memories.json"); }

    /// Reads `path` (a JSON array of write bodies) and writes each entry in order. Blocking;
    /// meant for a worker thread. Failures are collected, never thrown; later entries still run.
    static SampleLoadReport run(MemoryService *service, const QString &path = defaultPath());
};

} // namespace MemoryGraph::Ui
