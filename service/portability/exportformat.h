#pragma once

// The export file's records as JSON and back (docs/export-format.md). One header object, then
// one record per line, grouped by kind in kindOrder().

#include "service/core/records.h"
#include "service/core/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QVector>

#include <optional>

namespace MemoryGraph::ExportFormat {

inline constexpr int kVersion = 1;

/// The header's "format" value.
QString formatName();

enum class Kind { Node, Edge, Rule, Decision, RuleFeedback, Commit };

QString kindName(Kind kind);
std::optional<Kind> kindFromName(const QString &name);
/// The order record groups must follow: nodes before the edges and rules that name them, rules
/// and decisions before the feedback that names them, the commit chain last.
const QVector<Kind> &kindOrder();

struct Header
{
    int version = kVersion;
    QString tenantId;
    QString scope;
    QDateTime exportedAt;
    QString appVersion;
    bool embeddings = true;
    QMap<QString, qint64> counts; ///< by kindName()
    qint64 replayRuns = 0;
};

struct NodeEntry
{
    NodeRecord record;
    QByteArray embedding; ///< float32 bytes; empty when the file carries none
};

struct EdgeEntry
{
    EdgeRecord record;
    QDateTime updatedAt;
};

/// A rule node's state row (the definition itself is the node's slots).
struct RuleEntry
{
    QString ruleNodeId;
    RuleStatus status;
    QDateTime createdAt;
};

/// One parsed record line; only the member of its kind is filled.
struct Record
{
    Kind kind = Kind::Node;
    NodeEntry node;
    EdgeEntry edge;
    RuleEntry rule;
    DecisionRecord decision;
    FeedbackRecord feedback;
    CommitRecord commit;
};

QJsonObject headerJson(const Header &header);
QJsonObject nodeJson(const NodeRecord &node, const QByteArray &embedding);
QJsonObject edgeJson(const EdgeRecord &edge, const QDateTime &updatedAt);
QJsonObject ruleJson(const RuleEntry &rule);
QJsonObject decisionJson(const DecisionRecord &decision);
QJsonObject feedbackJson(const FeedbackRecord &feedback);
QJsonObject commitJson(const CommitRecord &commit);

/// The header of the file, checked; an error names the field (format, version, counts.node...).
Result<Header> parseHeader(const QJsonObject &object);
/// One record, checked; an error names the field ("src_id", "embedding", ...).
Result<Record> parseRecord(const QJsonObject &object);

/// The time format of every time field: ISO 8601 UTC with milliseconds.
QJsonValue timeJson(const QDateTime &time);

} // namespace MemoryGraph::ExportFormat
