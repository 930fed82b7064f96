#include "ui/widgets/nodeactions.h"

#include "service/memoryservice.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/activatedialog.h"
#include "ui/widgets/forgetdialog.h"
#include "ui/widgets/nodeeditdialog.h"

#include <QAction>
#include <QMenu>
#include <QMessageBox>
#include <QToolBar>
#include <QWidget>

namespace MemoryGraph::Ui {

namespace {

/// Rank of a tier, lowest first (spec §3.1); unknown tiers rank lowest.
int tierRank(const QString &tier)
{
    static const QStringList order{QStringLiteral("archive"), QStringLiteral("cold"),
                                   QStringLiteral("warm"), QStringLiteral("hot")};
    return std::max(0, int(order.indexOf(tier)));
}

QString shortId(const QString &id)
{
    return id.left(8);
}

/// Rehydrate and activate take a target list: this one node, in its scope, by the operator.
template<typename Request> Request requestTargeting(const NodeRecord &node)
{
    Request request;
    request.tenantId = node.tenantId;
    request.scope = node.scope;
    request.actor = NodeActions::operatorActor();
    request.targets.nodeIds = {node.id};
    return request;
}

/// Edit and forget name one node: this one, in its scope, by the operator.
template<typename Request> Request requestNaming(Request request, const NodeRecord &node)
{
    request.tenantId = node.tenantId;
    request.scope = node.scope;
    request.nodeId = node.id;
    request.actor = NodeActions::operatorActor();
    return request;
}

} // namespace

QString NodeActions::operatorActor()
{
    return QStringLiteral("operator");
}

NodeActions::NodeActions(MemoryService *service, UiExecutor *executor, QWidget *dialogParent)
    : QObject(dialogParent), m_service(service), m_executor(executor), m_dialogParent(dialogParent)
{
    Q_ASSERT(m_service);
    Q_ASSERT(m_executor);
    m_rehydrateWarm = createAction(tr("Rehydrate to &warm"), QStringLiteral("rehydrateWarmAction"),
                                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    m_rehydrateHot = createAction(tr("Rehydrate to &hot"), QStringLiteral("rehydrateHotAction"),
                                  QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
    m_activate
        = createAction(tr("Record &activation\u2026"), QStringLiteral("recordActivationAction"),
                       QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_edit = createAction(tr("&Edit\u2026"), QStringLiteral("editNodeAction"),
                          QKeySequence(Qt::Key_F2));
    m_forget = createAction(tr("&Forget\u2026"), QStringLiteral("forgetNodeAction"),
                            QKeySequence(QKeySequence::Delete));
    // Short toolbar labels: the inspector is narrow and every action should stay visible.
    m_rehydrateWarm->setIconText(tr("To warm"));
    m_rehydrateHot->setIconText(tr("To hot"));
    m_activate->setIconText(tr("Activate\u2026"));
    m_edit->setIconText(tr("Edit\u2026"));
    m_forget->setIconText(tr("Forget\u2026"));
    m_rehydrateWarm->setToolTip(tr("Move an archived or cold node back to the warm tier"));
    m_rehydrateHot->setToolTip(tr("Move the node up to the hot tier"));
    m_activate->setToolTip(tr("Record that the node was used, with its outcome"));
    m_edit->setToolTip(tr("Change the node's title, summary, tier, lane, salience or slots"));
    m_forget->setToolTip(tr("Remove the node, its edges and its vector"));
    connect(m_rehydrateWarm, &QAction::triggered, this,
            [this]() { rehydrate(QStringLiteral("warm")); });
    connect(m_rehydrateHot, &QAction::triggered, this,
            [this]() { rehydrate(QStringLiteral("hot")); });
    connect(m_activate, &QAction::triggered, this, &NodeActions::recordActivation);
    connect(m_edit, &QAction::triggered, this, &NodeActions::edit);
    connect(m_forget, &QAction::triggered, this, &NodeActions::forget);
    updateActions();
}

QAction *NodeActions::createAction(const QString &text, const QString &objectName,
                                   const QKeySequence &key)
{
    auto *action = new QAction(text, this);
    action->setObjectName(objectName);
    action->setShortcut(key);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    return action;
}

QList<QAction *> NodeActions::actions() const
{
    return {m_rehydrateWarm, m_rehydrateHot, m_activate, m_edit, m_forget};
}

void NodeActions::attachTo(QWidget *widget) const
{
    auto *separator = new QAction(widget);
    separator->setSeparator(true);
    widget->addAction(separator);
    widget->addActions(actions());
}

QToolBar *NodeActions::createToolBar(QWidget *parent) const
{
    auto *bar = new QToolBar(parent);
    bar->setObjectName(QStringLiteral("nodeActionsToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addActions(actions());
    return bar;
}

QMenu *NodeActions::createMenu(QWidget *parent) const
{
    auto *menu = new QMenu(tr("Node"), parent);
    menu->addActions(actions());
    return menu;
}

QDialog *NodeActions::openDialog() const
{
    return m_dialog;
}

void NodeActions::setNode(const NodeRecord &node)
{
    m_node = node;
    updateActions();
}

void NodeActions::clearNode()
{
    m_node = NodeRecord();
    updateActions();
}

void NodeActions::updateActions()
{
    const bool usable = hasNode() && !m_busy;
    const int rank = tierRank(m_node.tier);
    m_rehydrateWarm->setEnabled(usable && rank < tierRank(QStringLiteral("warm")));
    m_rehydrateHot->setEnabled(usable && rank < tierRank(QStringLiteral("hot")));
    m_activate->setEnabled(usable);
    m_edit->setEnabled(usable);
    m_forget->setEnabled(usable);
}

void NodeActions::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    updateActions();
    Q_EMIT busyChanged(busy);
}

QString NodeActions::describeNode() const
{
    const QString name = !m_node.title.isEmpty()      ? m_node.title
                         : !m_node.clientId.isEmpty() ? m_node.clientId
                                                      : m_node.textSummary.left(60);
    return tr("\u201c%1\u201d (%2)").arg(name, shortId(m_node.id));
}

void NodeActions::showDialog(QDialog *dialog)
{
    if (m_dialog)
        m_dialog->reject();
    m_dialog = dialog;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

template<typename Work, typename Message> void NodeActions::run(Work work, Message message)
{
    setBusy(true);
    const QString nodeId = m_node.id;
    // One change at a time, in the order the operator asked.
    m_executor->run(
        this, std::move(work),
        [this, nodeId, message = std::move(message)](const auto &result) {
            setBusy(false);
            if (!result) {
                reportFailure(tr("The change was not made"),
                              tr("%1 (%2)").arg(result.error().message, result.error().code));
                return;
            }
            Q_EMIT succeeded(nodeId, message(result.value()));
        },
        UiExecutor::Lane::Changes);
}

void NodeActions::reportFailure(const QString &what, const QString &message)
{
    const QString text = tr("%1: %2").arg(what, message);
    Q_EMIT failed(text);
    // Not exec(): the page stays live and nothing blocks while the box is shown.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Node action failed"), text,
                                QMessageBox::Ok, m_dialogParent);
    box->setObjectName(QStringLiteral("nodeActionErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void NodeActions::rehydrate(const QString &targetTier)
{
    if (!hasNode() || m_busy)
        return;
    auto request = requestTargeting<RehydrateRequest>(m_node);
    request.targetTier = targetTier;
    request.reason = QStringLiteral("operator rehydrate from the admin console");
    request.inputText = QStringLiteral("operator rehydrate of node %1 to %2 from the admin console")
                            .arg(m_node.id, targetTier);
    MemoryService *service = m_service;
    const QString name = describeNode();
    run([service, request]() { return service->rehydrate(request, RequestMeta()); },
        [this, name, targetTier](const RehydrateOutcome &o) {
            return o.movedIds.isEmpty() ? tr("%1 is already at or above %2.").arg(name, targetTier)
                                        : tr("Moved %1 to %2.").arg(name, targetTier);
        });
}

void NodeActions::recordActivation()
{
    if (!hasNode() || m_busy)
        return;
    auto *dialog = new ActivateDialog(describeNode(), m_dialogParent);
    connect(dialog, &QDialog::accepted, this, [this, dialog]() {
        submitActivation(dialog->outcome(), dialog->activate(), dialog->reason());
    });
    showDialog(dialog);
}

void NodeActions::submitActivation(const QString &outcome, bool activate, const QString &reason)
{
    if (!hasNode() || m_busy)
        return;
    auto request = requestTargeting<NodesActivateRequest>(m_node);
    request.outcome = outcome;
    request.activate = activate;
    request.reason = reason.simplified();
    request.inputText
        = QStringLiteral("operator recorded a %1 activation of node %2 from the admin console")
              .arg(outcome, m_node.id);
    MemoryService *service = m_service;
    const QString name = describeNode();
    run([service, request]() { return service->activateNodes(request, RequestMeta()); },
        [this, name, outcome](const NodesActivateOutcome &) {
            return tr("Recorded a %1 activation of %2.").arg(outcome, name);
        });
}

void NodeActions::edit()
{
    if (!hasNode() || m_busy)
        return;
    auto *dialog = new NodeEditDialog(m_node, m_dialogParent);
    connect(dialog, &QDialog::accepted, this, [this, dialog]() { submitEdit(dialog->request()); });
    showDialog(dialog);
}

void NodeActions::submitEdit(const NodeEditRequest &edit)
{
    if (!hasNode() || m_busy)
        return;
    NodeEditRequest request = requestNaming(edit, m_node);
    request.inputText
        = QStringLiteral("operator edit of node %1 from the admin console").arg(m_node.id);
    MemoryService *service = m_service;
    const QString name = describeNode();
    run([service, request]() { return service->editNode(request, RequestMeta()); },
        [this, name](const NodeEditOutcome &o) {
            if (o.changedFields.isEmpty())
                return tr("Nothing to change in %1.").arg(name);
            QString text
                = tr("Edited %1: %2.").arg(name, o.changedFields.join(QStringLiteral(", ")));
            if (o.reembedding)
                text += QLatin1Char(' ') + tr("The new text is being embedded.");
            return text;
        });
}

void NodeActions::forget()
{
    if (!hasNode() || m_busy)
        return;
    auto *dialog = new ForgetDialog(describeNode(), m_dialogParent);
    connect(dialog, &QDialog::accepted, this, [this, dialog]() { submitForget(dialog->reason()); });
    showDialog(dialog);
}

void NodeActions::submitForget(const QString &reason)
{
    if (!hasNode() || m_busy)
        return;
    NodeForgetRequest request = requestNaming(NodeForgetRequest(), m_node);
    request.reason = reason.simplified();
    request.inputText
        = QStringLiteral("operator forget of node %1 from the admin console").arg(m_node.id);
    MemoryService *service = m_service;
    const QString name = describeNode();
    const QString nodeId = m_node.id;
    run([service, request]() { return service->forgetNode(request, RequestMeta()); },
        [this, name, nodeId](const NodeForgetOutcome &o) {
            if (m_node.id == nodeId)
                clearNode();
            Q_EMIT nodeForgotten(nodeId);
            return tr("Forgot %1 and %n edge(s).", nullptr, int(o.removedEdgeIds.size())).arg(name);
        });
}

} // namespace MemoryGraph::Ui
