#include "ui/pages/pageskeleton.h"

#include "service/memoryservice.h"
#include "ui/debounce.h"
#include "ui/widgets/messagestack.h"
#include "ui/widgets/nodeactions.h"
#include "ui/widgets/nodeinspector.h"
#include "ui/widgets/scopepicker.h"
#include "ui/widgets/statustext.h"

#include <QAction>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

PageSkeleton::PageSkeleton(MemoryService *service, UiExecutor *executor, Follow follow,
                           QWidget *parent)
    : QWidget(parent), m_service(service), m_executor(executor)
{
    Q_ASSERT(m_service);
    Q_ASSERT(m_executor);
    m_picker = new ScopePicker(m_service, m_executor, this);
    m_picker->setObjectName(QStringLiteral("scopePicker"));
    // Virtual hooks: the picker answers from the event loop, after the page is fully built.
    connect(m_picker, &ScopePicker::scopeChanged, this, [this]() { onScopeChanged(); });
    connect(m_picker, &ScopePicker::scopesReloaded, this, [this]() { onScopeReloaded(); });

    m_reloadTimer = createDebounceTimer(this, ReloadDebounceMs, [this]() { m_picker->reload(); });

    createRefreshAction();
    followService(follow);
}

void PageSkeleton::followService(Follow follow)
{
    // Both signals come from worker threads; with this page as context they are queued.
    // Every commit counts, whatever its scope: it may have created the scope the page waits for.
    connect(m_service, &MemoryService::committed, m_reloadTimer, qOverload<>(&QTimer::start));
    if (follow != FollowDecisions)
        return;
    // A decision changes what the shown scope displays without a commit.
    connect(m_service, &MemoryService::decisionRecorded, this,
            [this](const QString &tenantId, const QString &scope) {
                if (isShown(tenantId, scope))
                    m_reloadTimer->start();
            });
}

void PageSkeleton::createRefreshAction()
{
    m_refreshAction
        = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Refresh"), this);
    m_refreshAction->setObjectName(QStringLiteral("refreshAction"));
    m_refreshAction->setShortcut(QKeySequence::Refresh);
    m_refreshAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_refreshAction, &QAction::triggered, this, [this]() { refresh(); });
    addAction(m_refreshAction);
}

QHBoxLayout *PageSkeleton::createScopeBar(QWidget *bar, const QString &refreshTip)
{
    m_refreshAction->setToolTip(
        refreshTip.arg(m_refreshAction->shortcut().toString(QKeySequence::NativeText)));
    m_refreshButton = new QToolButton(bar);
    m_refreshButton->setObjectName(QStringLiteral("refreshButton"));
    m_refreshButton->setDefaultAction(m_refreshAction);
    m_refreshButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    auto *layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_picker);
    layout->addWidget(m_refreshButton);
    layout->addSpacing(16);
    return layout;
}

QComboBox *PageSkeleton::createFilterCombo(const QString &allText, const QStringList &values,
                                           const QString &objectName)
{
    auto *combo = new QComboBox(this);
    combo->setObjectName(objectName);
    combo->addItem(allText, QString());
    for (const QString &value : values)
        combo->addItem(value, value);
    return combo;
}

QHBoxLayout *PageSkeleton::createListFooter(QLabel *countLabel)
{
    QLabel *status = statusLine();
    status->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // Long messages are elided by the layout, never widen the list; the tooltip has them whole.
    status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *footer = new QHBoxLayout;
    footer->addWidget(countLabel);
    footer->addWidget(status, 1);
    return footer;
}

QGroupBox *PageSkeleton::createListBox(const QString &title, QWidget *list, QLabel *countLabel,
                                       std::initializer_list<QWidget *> footerExtras)
{
    auto *box = new QGroupBox(title, this);
    QHBoxLayout *footer = createListFooter(countLabel);
    for (QWidget *extra : footerExtras)
        footer->addWidget(extra);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(list, 1);
    layout->addLayout(footer);
    return box;
}

MessageStack *PageSkeleton::createDetailStack(QWidget *content, const QString &message)
{
    m_detailStack = new MessageStack(content, QStringLiteral("detailMessage"), this);
    m_detailStack->showMessage(message);
    return m_detailStack;
}

void PageSkeleton::showDetailMessage(const QString &message)
{
    Q_ASSERT(m_detailStack);
    m_detailStack->showMessage(message);
}

void PageSkeleton::showDetail()
{
    Q_ASSERT(m_detailStack);
    m_detailStack->showContent();
}

void PageSkeleton::reportLoadFailure(const QString &text)
{
    setStatus(text, true);
    Q_EMIT loadFailed(text);
}

void PageSkeleton::loadNodeDetail(quint64 &generation, const QString &tenantId,
                                  const QString &scope, const QString &nodeId,
                                  NodeInspector *inspector, NodeActions *actions,
                                  const std::function<void()> &onFailure)
{
    loadLatest(
        generation,
        [tenantId, scope, nodeId](MemoryService *facade) {
            return facade->nodeDetail(tenantId, scope, nodeId);
        },
        [inspector, actions](const NodeDetail &detail) {
            inspector->showDetail(detail);
            actions->setNode(detail.node);
        },
        [inspector, actions, onFailure](const Error &error) {
            if (onFailure)
                onFailure();
            actions->clearNode();
            inspector->showLoadFailure(error);
        });
}

QString PageSkeleton::currentTenant() const
{
    return m_picker->currentTenant();
}

QString PageSkeleton::currentScope() const
{
    return m_picker->currentScope();
}

bool PageSkeleton::hasScope() const
{
    return m_picker->hasScope();
}

bool PageSkeleton::isShown(const QString &tenantId, const QString &scope) const
{
    return hasScope() && tenantId == currentTenant() && scope == currentScope();
}

QLabel *PageSkeleton::statusLine()
{
    if (!m_statusLine) {
        m_statusLine = new QLabel(this);
        m_statusLine->setObjectName(QStringLiteral("statusLine"));
        m_statusLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    return m_statusLine;
}

QString PageSkeleton::statusText() const
{
    return m_statusLine ? m_statusLine->text() : QString();
}

void PageSkeleton::setStatus(const QString &text, bool isError)
{
    showStatus(statusLine(), text, isError);
}

void PageSkeleton::refresh()
{
    m_reloadTimer->stop();
    m_picker->reload();
}

void PageSkeleton::selectScope(const QString &tenantId, const QString &scope)
{
    m_picker->selectScope(tenantId, scope);
}

} // namespace MemoryGraph::Ui
