#pragma once

#include "service/core/requestlog.h"
#include "ui/models/recordtablemodel.h"

namespace MemoryGraph::Ui {

/// The live HTTP request log, newest first. Keeps at most maxRows() entries and drops the
/// oldest beyond that, so a busy server cannot grow the GUI's memory without bound.
class RequestLogModel : public RecordTableModel<RequestLogEntry>
{
    Q_OBJECT
public:
    enum class Column { Time, Method, Path, Status, Latency, Tenant, RequestId, Count };

    static constexpr int DefaultMaxRows = 5000;

    explicit RequestLogModel(int maxRows = DefaultMaxRows, QObject *parent = nullptr);

    int maxRows() const { return m_maxRows; }
    /// Entries appended since the last clear(), including those dropped by the bound.
    qint64 totalAppended() const { return m_totalAppended; }
    /// The entry shown in `row` (row 0 is the newest); row must be valid.
    const RequestLogEntry &entry(int row) const { return record(row); }

    /// Adds entries in arrival order (the last one becomes row 0).
    void append(const QVector<RequestLogEntry> &entries);
    /// Removes every entry and resets totalAppended().
    void clear();

protected:
    QVariant cellData(const RequestLogEntry &entry, int row, int column, int role) const override;
    QString recordId(const RequestLogEntry &entry) const override { return entry.requestId; }

private:
    // The records are newest first.
    int m_maxRows;
    qint64 m_totalAppended = 0;
};

} // namespace MemoryGraph::Ui
