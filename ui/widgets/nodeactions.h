#pragma once

#include "service/core/records.h"

#include <QObject>
#include <QPointer>

class QAction;
class QDialog;
class QMenu;
class QToolBar;
class QWidget;

namespace MemoryGraph {
class MemoryService;
struct NodeEditRequest;
} // namespace MemoryGraph

namespace MemoryGraph::Ui {

class UiExecutor;

/// The operator's actions on one node, shared by the Memory and Graph pages: rehydrate to warm
/// or hot, record an activation, edit, forget. Owns the QActions (enabled per the node's tier
/// and while no call runs), opens the dialogs, and runs the facade calls on the executor's lane
/// for changes, so they land in the order the operator asked.
/// Pages attach the actions to their node table or canvas for shortcuts and context menus.
class NodeActions : public QObject
{
    Q_OBJECT
public:
    /// Operator changes are audited under this actor.
    static QString operatorActor();

    /// dialogParent: parent of the dialogs and message boxes. The service and the executor
    /// must outlive the actions.
    NodeActions(MemoryService *service, UiExecutor *executor, QWidget *dialogParent);

    /// The node the actions apply to (a table row or a canvas node).
    void setNode(const NodeRecord &node);
    void clearNode();
    bool hasNode() const { return !m_node.id.isEmpty(); }
    const NodeRecord &node() const { return m_node; }
    bool isBusy() const { return m_busy; }

    QAction *rehydrateWarmAction() const { return m_rehydrateWarm; }
    QAction *rehydrateHotAction() const { return m_rehydrateHot; }
    QAction *activateAction() const { return m_activate; }
    QAction *editAction() const { return m_edit; }
    QAction *forgetAction() const { return m_forget; }
    /// All actions in menu order.
    QList<QAction *> actions() const;

    /// Adds the actions (after a separator) to a widget, so their shortcuts work while it has
    /// focus and an ActionsContextMenu lists them.
    void attachTo(QWidget *widget) const;
    QToolBar *createToolBar(QWidget *parent) const;
    QMenu *createMenu(QWidget *parent) const;
    /// The dialog an action opened and that is still showing, if any (tests, automation).
    QDialog *openDialog() const;

public Q_SLOTS:
    void rehydrate(const QString &targetTier);
    /// Open a dialog; the call runs when the operator confirms.
    void recordActivation();
    void edit();
    void forget();

    // What the dialogs submit.
    void submitActivation(const QString &outcome, bool activate, const QString &reason);
    void submitEdit(const NodeEditRequest &request);
    void submitForget(const QString &reason);

Q_SIGNALS:
    /// A call committed (or found nothing to change); message is ready for a status line.
    void succeeded(const QString &nodeId, const QString &message);
    void failed(const QString &message);
    /// The node is gone; pages drop it from their views.
    void nodeForgotten(const QString &nodeId);
    void busyChanged(bool busy);

private:
    QAction *createAction(const QString &text, const QString &objectName, const QKeySequence &key);
    void updateActions();
    void setBusy(bool busy);
    void showDialog(QDialog *dialog);
    QString describeNode() const;
    /// Runs a facade call returning Result<T>; message(T) becomes the success text.
    template<typename Work, typename Message> void run(Work work, Message message);
    void reportFailure(const QString &what, const QString &message);

    MemoryService *m_service;
    UiExecutor *m_executor;
    QPointer<QWidget> m_dialogParent;
    NodeRecord m_node;
    bool m_busy = false;
    QPointer<QDialog> m_dialog;

    QAction *m_rehydrateWarm = nullptr;
    QAction *m_rehydrateHot = nullptr;
    QAction *m_activate = nullptr;
    QAction *m_edit = nullptr;
    QAction *m_forget = nullptr;
};

} // namespace MemoryGraph::Ui
