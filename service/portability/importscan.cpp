#include "service/portability/importscan.h"

#include "service/portability/progressreporter.h"

#include <QIODevice>
#include <QJsonDocument>
#include <QSet>

namespace MemoryGraph {

using ExportFormat::Kind;
using ExportFormat::kindName;

ExportLineReader::ExportLineReader(QIODevice *in) : m_in(in) { }

bool ExportLineReader::rewind()
{
    m_line = 0;
    m_error.reset();
    if (m_in->isSequential() || !m_in->seek(0)) {
        m_error = Error::make(400, QStringLiteral("invalid_import"),
                              QStringLiteral("the import file must be a seekable file"));
        return false;
    }
    return true;
}

bool ExportLineReader::next(QByteArray *line)
{
    // readLine(n) reserves n bytes, so a line is read a piece at a time.
    constexpr qint64 kPiece = 64 * 1024;
    while (!m_error && !m_in->atEnd()) {
        QByteArray raw;
        ++m_line;
        while (!raw.endsWith('\n') && !m_in->atEnd()) {
            raw.append(m_in->readLine(kPiece));
            if (raw.size() > kMaxLineBytes) {
                m_error = importLineError(
                    m_line, QString(),
                    Error::invalidField(
                        QString(),
                        QStringLiteral("the line is longer than %1 bytes").arg(kMaxLineBytes)));
                return false;
            }
        }
        while (raw.endsWith('\n') || raw.endsWith('\r'))
            raw.chop(1);
        if (m_line == 1 && raw.startsWith("\xEF\xBB\xBF"))
            raw.remove(0, 3); // a byte order mark some editors add
        if (raw.trimmed().isEmpty())
            continue;
        *line = std::move(raw);
        return true;
    }
    return false;
}

Error importLineError(qint64 line, const QString &kind, const Error &fieldError)
{
    const QJsonObject issue
        = fieldError.details.value(QStringLiteral("issues")).toArray().at(0).toObject();
    const QString field = issue.value(QStringLiteral("path")).toString();
    const QString reason = issue.contains(QStringLiteral("message"))
                               ? issue.value(QStringLiteral("message")).toString()
                               : fieldError.message;
    const QString where = field.isEmpty()
                              ? QStringLiteral("line %1").arg(line)
                              : QStringLiteral("line %1, field %2").arg(line).arg(field);
    return Error::make(400, QStringLiteral("invalid_import"), where + QStringLiteral(": ") + reason,
                       {{QStringLiteral("line"), line},
                        {QStringLiteral("field"), field.isEmpty() ? QJsonValue() : field},
                        {QStringLiteral("kind"), kind.isEmpty() ? QJsonValue() : kind},
                        {QStringLiteral("reason"), reason}});
}

Result<QJsonObject> parseImportLine(const QByteArray &line, qint64 lineNumber)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return importLineError(
            lineNumber, QString(),
            Error::invalidField(QString(), QStringLiteral("not valid JSON (%1 at byte %2)")
                                               .arg(parseError.errorString())
                                               .arg(parseError.offset)));
    if (!doc.isObject())
        return importLineError(
            lineNumber, QString(),
            Error::invalidField(QString(), QStringLiteral("must be one JSON object")));
    return doc.object();
}

namespace {

/// The checks across lines: record order, unique ids, references to nodes of the file.
class ScanState
{
public:
    explicit ScanState(ImportScan &scan) : m_scan(scan) { }

    /// Error text for a record that breaks a rule across lines, naming its field.
    std::optional<Error> accept(const ExportFormat::Record &r, qint64 line)
    {
        const int order = int(ExportFormat::kindOrder().indexOf(r.kind));
        if (order < m_order)
            return Error::invalidField(
                QStringLiteral("kind"),
                QStringLiteral("%1 records must come before %2 records")
                    .arg(kindName(r.kind), kindName(ExportFormat::kindOrder().at(m_order))));
        m_order = order;
        ++m_scan.records[kindName(r.kind)];
        switch (r.kind) {
        case Kind::Node: return acceptNode(r.node, line);
        case Kind::Edge: return acceptEdge(r.edge.record, line);
        case Kind::Rule: return acceptRule(r.rule.ruleNodeId);
        case Kind::Decision: return acceptId(m_decisionIds, r.decision.id, line, m_scan.decisions);
        case Kind::RuleFeedback:
            return acceptId(m_feedbackIds, r.feedback.id, line, m_scan.feedback);
        case Kind::Commit: return acceptCommit(r.commit);
        }
        return std::nullopt;
    }

private:
    static Error twice(const char *field)
    {
        return Error::invalidField(QLatin1String(field),
                                   QStringLiteral("appears on an earlier line of the file"));
    }

    std::optional<Error> acceptNode(const ExportFormat::NodeEntry &entry, qint64 line)
    {
        const NodeRecord &n = entry.record;
        if (m_nodeTypes.contains(n.id))
            return twice("id");
        if (!n.clientId.isEmpty()) {
            if (m_clientIds.contains(n.clientId))
                return twice("client_id");
            m_clientIds.insert(n.clientId);
        }
        m_nodeTypes.insert(n.id, n.type);
        m_scan.nodes.append({n.id, n.clientId, line,
                             entry.embedding.isEmpty() ? QString() : n.embeddingModel,
                             n.embeddingStatus, !n.embedText().isEmpty()});
        return std::nullopt;
    }

    std::optional<Error> acceptEdge(const EdgeRecord &e, qint64 line)
    {
        if (m_edgeIds.contains(e.id))
            return twice("id");
        const std::pair<const char *, const QString *> ends[]
            = {{"src_id", &e.fromId}, {"dst_id", &e.toId}};
        for (const auto &[field, id] : ends) {
            if (!m_nodeTypes.contains(*id))
                return Error::invalidField(QLatin1String(field),
                                           QStringLiteral("names no node of the file"));
        }
        m_edgeIds.insert(e.id);
        m_scan.edges.append({e.id, e.type, e.fromId, e.toId, line});
        return std::nullopt;
    }

    std::optional<Error> acceptRule(const QString &ruleNodeId)
    {
        if (m_nodeTypes.value(ruleNodeId) != QLatin1String("rule"))
            return Error::invalidField(QStringLiteral("rule_node_id"),
                                       QStringLiteral("names no rule node of the file"));
        if (m_ruleIds.contains(ruleNodeId))
            return twice("rule_node_id");
        m_ruleIds.insert(ruleNodeId);
        return std::nullopt;
    }

    static std::optional<Error> acceptId(QSet<QString> &seen, const QString &id, qint64 line,
                                         QVector<ImportScan::IdRef> &refs)
    {
        if (seen.contains(id))
            return twice("id");
        seen.insert(id);
        refs.append({id, line});
        return std::nullopt;
    }

    std::optional<Error> acceptCommit(const CommitRecord &c)
    {
        if (c.sequence <= m_lastSequence)
            return Error::invalidField(QStringLiteral("seq"),
                                       QStringLiteral("commits must come in chain order "
                                                      "(seq above %1)")
                                           .arg(m_lastSequence));
        m_lastSequence = c.sequence;
        return std::nullopt;
    }

    ImportScan &m_scan;
    int m_order = 0;
    QHash<QString, QString> m_nodeTypes; ///< node id -> type
    QSet<QString> m_clientIds;
    QSet<QString> m_edgeIds;
    QSet<QString> m_ruleIds;
    QSet<QString> m_decisionIds;
    QSet<QString> m_feedbackIds;
    qint64 m_lastSequence = 0;
};

/// A file cut short (or padded) no longer holds what its header counts.
std::optional<Error> countMismatch(const ImportScan &scan)
{
    for (Kind k : ExportFormat::kindOrder()) {
        const QString name = kindName(k);
        const qint64 expected = scan.header.counts.value(name);
        const qint64 found = scan.records.value(name);
        if (expected != found)
            return importLineError(
                1, QString(),
                Error::invalidField(QStringLiteral("counts.") + name,
                                    QStringLiteral("the header counts %1 %2 records but the "
                                                   "file holds %3; is it cut short?")
                                        .arg(expected)
                                        .arg(name)
                                        .arg(found)));
    }
    return std::nullopt;
}

} // namespace

Result<ImportScan> scanImport(QIODevice *in, ProgressReporter &progress)
{
    ExportLineReader reader(in);
    if (!reader.rewind())
        return *reader.error();
    QByteArray line;
    if (!reader.next(&line))
        return reader.error()
                   ? *reader.error()
                   : importLineError(1, QString(),
                                     Error::invalidField(QString(), QStringLiteral("the file is "
                                                                                   "empty")));
    ImportScan scan;
    auto headerObject = parseImportLine(line, reader.lineNumber());
    if (!headerObject)
        return headerObject.error();
    auto header = ExportFormat::parseHeader(headerObject.value());
    if (!header)
        return importLineError(reader.lineNumber(), QStringLiteral("header"), header.error());
    scan.header = header.value();
    qint64 total = 0;
    for (qint64 n : std::as_const(scan.header.counts))
        total += n;
    progress.setTotal(total);
    if (!progress.stage(QStringLiteral("checking")))
        return ProgressReporter::cancelled(QStringLiteral("the import"));

    ScanState state(scan);
    while (reader.next(&line)) {
        const qint64 at = reader.lineNumber();
        auto object = parseImportLine(line, at);
        if (!object)
            return object.error();
        auto record = ExportFormat::parseRecord(object.value());
        const QString kind = object.value().value(QStringLiteral("kind")).toString();
        if (!record)
            return importLineError(at, kind, record.error());
        if (auto refused = state.accept(record.value(), at))
            return importLineError(at, kind, *refused);
        if (!progress.step())
            return ProgressReporter::cancelled(QStringLiteral("the import"));
    }
    if (reader.error())
        return *reader.error();
    if (auto mismatch = countMismatch(scan))
        return *mismatch;
    return scan;
}

} // namespace MemoryGraph
