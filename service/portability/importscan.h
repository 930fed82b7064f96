#pragma once

#include "service/portability/exportformat.h"

#include <QByteArray>
#include <QMap>
#include <QVector>

class QIODevice;

namespace MemoryGraph {

class ProgressReporter;

/// Reads an export file line by line, the header first then each record, and keeps the next
/// non-blank line with its number. Lines longer than kMaxLineBytes are refused.
class ExportLineReader
{
public:
    static constexpr qint64 kMaxLineBytes = qint64(64) << 20;

    explicit ExportLineReader(QIODevice *in);

    /// Rewinds to the first line; false when the device cannot seek.
    bool rewind();
    /// The next non-blank line (without its newline); false at the end or on error().
    bool next(QByteArray *line);
    qint64 lineNumber() const { return m_line; }
    const std::optional<Error> &error() const { return m_error; }

private:
    QIODevice *m_in;
    qint64 m_line = 0;
    std::optional<Error> m_error;
};

/// The 400 every problem with an import file is answered with: code `invalid_import`, naming
/// the line and the field (details.line, details.field, details.kind).
Error importLineError(qint64 line, const QString &kind, const Error &fieldError);

/// A JSON object line parsed, or an error naming the line.
Result<QJsonObject> parseImportLine(const QByteArray &line, qint64 lineNumber);

/// What the validation pass learnt about the file: its header and, per record, what ids and
/// references the import must map. Ids only, never the records themselves.
struct ImportScan
{
    struct NodeRef
    {
        QString id;
        QString clientId;
        qint64 line = 0;
        QString vectorModel; ///< the model of the vector the file carries; empty: none
        QString embeddingStatus;
        bool hasEmbedText = false;
    };
    struct EdgeRef
    {
        QString id;
        QString type;
        QString srcId;
        QString dstId;
        qint64 line = 0;
    };
    struct IdRef
    {
        QString id;
        qint64 line = 0;
    };

    ExportFormat::Header header;
    QMap<QString, qint64> records; ///< per kind, as found
    QVector<NodeRef> nodes;
    QVector<EdgeRef> edges;
    QVector<IdRef> decisions;
    QVector<IdRef> feedback;
};

/// The validation pass: every line is parsed and checked (format, version, fields, record
/// order, unique ids, edges and rules naming nodes of the file, the header's counts) before
/// anything is written. The first problem is an importLineError.
Result<ImportScan> scanImport(QIODevice *in, ProgressReporter &progress);

} // namespace MemoryGraph
