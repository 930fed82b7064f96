#pragma once

#include <QString>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace MemoryGraph::Ui {

/// The console's list of records: read-only, one row selected at a time, alternating rows,
/// no row numbers, compact row height, headers aligned left.
QTableView *createRecordTable(QAbstractItemModel *model, const QString &objectName,
                              QWidget *parent);

/// Sizes a column to fit `sample` (a typical value) with room for the cell padding.
void sizeColumnTo(QTableView *view, int column, const QString &sample);

/// Sizes the columns of a CommitListModel table for its typical values; the last one stretches.
void sizeCommitColumns(QTableView *view);

/// Sizes a column to its header title or `sample`, whichever is wider, so that neither is cut.
void fitColumn(QTableView *view, int column, const QString &sample);

} // namespace MemoryGraph::Ui
