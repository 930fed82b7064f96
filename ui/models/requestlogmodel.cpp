#include "ui/models/requestlogmodel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace MemoryGraph::Ui {

namespace {

// Mid-tone colours that stay readable on both the light and the dark palette.
QColor statusColor(int status)
{
    if (status >= 500)
        return QColor(0xd9, 0x4f, 0x4f);
    if (status >= 400)
        return QColor(0xd0, 0x8a, 0x1a);
    return {};
}

} // namespace

RequestLogModel::RequestLogModel(int maxRows, QObject *parent)
    : RecordTableModel({tr("Time"), tr("Method"), tr("Path"), tr("Status"), tr("Latency (ms)"),
                        tr("Tenant"), tr("Request id")},
                       parent),
      m_maxRows(std::max(1, maxRows))
{
}

QVariant RequestLogModel::cellData(const RequestLogEntry &e, int, int columnIndex, int role) const
{
    const auto column = Column(columnIndex);

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Column::Time: return e.at.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz"));
        case Column::Method: return e.method;
        case Column::Path:
            // MCP calls say what they did: "/mcp  tools/call remember".
            return e.detail.isEmpty() ? e.path : e.path + QStringLiteral("  ") + e.detail;
        case Column::Status: return e.status;
        case Column::Latency: return QString::number(e.latencyMs, 'f', 1);
        case Column::Tenant: return e.tenantId;
        case Column::RequestId: return e.requestId;
        case Column::Count: break;
        }
        return {};
    case Qt::ToolTipRole:
        if (column == Column::Time)
            return e.at.toLocalTime().toString(Qt::ISODateWithMs);
        if (column == Column::Status && !e.errorCode.isEmpty())
            return tr("Error: %1").arg(e.errorCode);
        return {};
    case Qt::ForegroundRole:
        if (column == Column::Status) {
            const QColor color = statusColor(e.status);
            if (color.isValid())
                return QBrush(color);
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == Column::Status || column == Column::Latency)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default: return {};
    }
}

void RequestLogModel::append(const QVector<RequestLogEntry> &entries)
{
    if (entries.isEmpty())
        return;
    m_totalAppended += entries.size();

    // Only the newest maxRows of the batch can survive the bound.
    const qsizetype keep = std::min<qsizetype>(entries.size(), m_maxRows);
    const qsizetype firstKept = entries.size() - keep;

    // Make room first so the view never sees more than maxRows rows.
    const qsizetype overflow = m_records.size() + keep - m_maxRows;
    if (overflow > 0) {
        const int first = int(m_records.size() - overflow);
        beginRemoveRows({}, first, int(m_records.size()) - 1);
        m_records.resize(first);
        endRemoveRows();
    }

    beginInsertRows({}, 0, int(keep) - 1);
    QVector<RequestLogEntry> fresh;
    fresh.reserve(keep + m_records.size());
    for (qsizetype i = entries.size() - 1; i >= firstKept; --i)
        fresh.append(entries.at(i));
    fresh.append(m_records);
    m_records = std::move(fresh);
    endInsertRows();
}

void RequestLogModel::clear()
{
    m_totalAppended = 0;
    if (m_records.isEmpty())
        return;
    beginResetModel();
    m_records.clear();
    endResetModel();
}

} // namespace MemoryGraph::Ui
