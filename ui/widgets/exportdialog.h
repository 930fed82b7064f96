#pragma once

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class ScopePicker;
class UiExecutor;

/// File → Export…: which (tenant, scope) to export and whether the vectors go with it. The
/// scope picker is the one the pages use; it starts on `tenantId`/`scope` when the store lists
/// them. The service and the executor must outlive the dialog.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    ExportDialog(MemoryService *service, UiExecutor *executor, const QString &tenantId,
                 const QString &scope, QWidget *parent = nullptr);

    QString tenantId() const;
    QString scope() const;
    bool includeEmbeddings() const;
    ScopePicker *scopePicker() const { return m_picker; }

private:
    ScopePicker *m_picker = nullptr;
    QCheckBox *m_embeddings = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace MemoryGraph::Ui
