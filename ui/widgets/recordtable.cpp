#include "ui/widgets/recordtable.h"

#include "ui/models/commitlistmodel.h"

#include <QHeaderView>
#include <QTableView>

#include <algorithm>

namespace MemoryGraph::Ui {

QTableView *createRecordTable(QAbstractItemModel *model, const QString &objectName, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setObjectName(objectName);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideRight);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    return view;
}

void sizeColumnTo(QTableView *view, int column, const QString &sample)
{
    view->horizontalHeader()->resizeSection(column,
                                            view->fontMetrics().horizontalAdvance(sample) + 24);
}

void sizeCommitColumns(QTableView *view)
{
    using Column = CommitListModel::Column;
    sizeColumnTo(view, int(Column::Sequence), QStringLiteral("000000"));
    sizeColumnTo(view, int(Column::Time), QStringLiteral("0000-00-00 00:00:00"));
    sizeColumnTo(view, int(Column::Kind), QStringLiteral("archive_rehydrate"));
    sizeColumnTo(view, int(Column::Actor), QStringLiteral("support-agent"));
    sizeColumnTo(view, int(Column::Hash), QStringLiteral("0123456789ab"));
    view->horizontalHeader()->setStretchLastSection(true);
}

void fitColumn(QTableView *view, int column, const QString &sample)
{
    const QFontMetrics fm = view->fontMetrics();
    const QString title = view->model()->headerData(column, Qt::Horizontal).toString();
    view->horizontalHeader()->resizeSection(
        column, std::max(fm.horizontalAdvance(title) + 22, fm.horizontalAdvance(sample) + 14));
}

} // namespace MemoryGraph::Ui
