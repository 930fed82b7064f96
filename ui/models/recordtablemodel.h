#pragma once

#include <QAbstractTableModel>
#include <QSet>
#include <QStringList>
#include <QVector>

#include <initializer_list>

namespace MemoryGraph::Ui {

/// What the console's table models share: a list of records (service values; a model never
/// queries), one title per column, and finding a row by the record's id. A model only says how
/// a record shows in a cell (cellData) and what identifies it (recordId).
template<typename Record> class RecordTableModel : public QAbstractTableModel
{
public:
    int rowCount(const QModelIndex &parent = QModelIndex()) const override
    {
        return parent.isValid() ? 0 : int(m_records.size());
    }

    int columnCount(const QModelIndex &parent = QModelIndex()) const override
    {
        return parent.isValid() ? 0 : int(m_titles.size());
    }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override
    {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
            return {};
        return cellData(m_records.at(index.row()), index.row(), index.column(), role);
    }

    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override
    {
        if (orientation == Qt::Horizontal && section >= 0 && section < m_titles.size()) {
            if (role == Qt::DisplayRole)
                return m_titles.at(section);
            if (role == Qt::TextAlignmentRole && m_rightAlignedTitles.contains(section))
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return QAbstractTableModel::headerData(section, orientation, role);
    }

    const QVector<Record> &records() const { return m_records; }

    /// The record in `row`; row must be valid.
    const Record &record(int row) const
    {
        Q_ASSERT(row >= 0 && row < m_records.size());
        return m_records.at(row);
    }

    /// Row of the record with this id, or -1.
    int rowOf(const QString &id) const
    {
        for (int row = 0; row < m_records.size(); ++row) {
            if (recordId(m_records.at(row)) == id)
                return row;
        }
        return -1;
    }

protected:
    RecordTableModel(const QStringList &titles, QObject *parent)
        : QAbstractTableModel(parent), m_titles(titles)
    {
    }

    /// What `role` shows for `column` of `record` (in `row`).
    virtual QVariant cellData(const Record &record, int row, int column, int role) const = 0;
    virtual QString recordId(const Record &record) const = 0;

    /// Replaces every record (model reset).
    void setRecords(const QVector<Record> &records)
    {
        beginResetModel();
        m_records = records;
        endResetModel();
    }

    /// Adds records after the last row (rows inserted).
    void appendRecords(const QVector<Record> &records)
    {
        if (records.isEmpty())
            return;
        const int first = int(m_records.size());
        beginInsertRows(QModelIndex(), first, first + int(records.size()) - 1);
        m_records += records;
        endInsertRows();
    }

    /// Headers of number columns, aligned like their cells.
    void alignTitlesRight(std::initializer_list<int> columns)
    {
        for (int column : columns)
            m_rightAlignedTitles.insert(column);
    }

    QVector<Record> m_records;

private:
    QStringList m_titles;
    QSet<int> m_rightAlignedTitles;
};

} // namespace MemoryGraph::Ui
