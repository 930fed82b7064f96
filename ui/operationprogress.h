#pragma once

#include "service/api/progress.h"

#include <QObject>
#include <QPointer>
#include <QProgressDialog>
#include <QString>

#include <memory>

class QTimer;
class QWidget;

namespace MemoryGraph::Ui {

/// The window's side of a long facade call (backup, restore, chain verification,
/// consolidation): Qt's QProgressDialog, with its Cancel button, fed by the ProgressCallback the
/// call runs with on its worker thread. The callback only records the latest report; a timer
/// on the GUI thread shows it, so a chatty operation never floods the event queue. The dialog
/// appears only when the operation lasts (QProgressDialog's minimum duration).
///
/// Cancel (or destroying this object, e.g. with its page) makes the callback return false: the
/// operation stops at its next report and returns the error `cancelled`.
class OperationProgress : public QObject
{
    Q_OBJECT
public:
    OperationProgress(const QString &title, const QString &label, QWidget *parent);
    ~OperationProgress() override;

    /// For the worker thread. Safe to call after this object is gone (it then says stop).
    ProgressCallback callback() const;
    /// The dialog (null after finish()).
    QProgressDialog *dialog() const { return m_dialog; }
    bool cancelRequested() const;
    /// The last report the operation made.
    Progress lastProgress() const;
    /// The operation has answered: the dialog closes and goes.
    void finish();

    /// A stage name of the service ("copying pages", "checking", ...) in the window's words.
    static QString stageText(const QString &stage);

private:
    struct Shared;

    void refresh();

    std::shared_ptr<Shared> m_shared;
    QPointer<QProgressDialog> m_dialog;
    QTimer *m_timer = nullptr;
    QString m_label;
};

} // namespace MemoryGraph::Ui
