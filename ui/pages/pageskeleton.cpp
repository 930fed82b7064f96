#include "ui/pages/pageskeleton.h"

#include "service/memoryservice.h"
#include "ui/widgets/scopepicker.h"
#include "ui/widgets/statustext.h"

#include <QLabel>
#include <QTimer>

namespace MemoryGraph::Ui {

PageSkeleton::PageSkeleton(MemoryService *service, QWidget *page, Follow follow)
    : QObject(page), m_page(page)
{
    Q_ASSERT(service);
    m_picker = new ScopePicker(service, page);
    m_picker->setObjectName(QStringLiteral("scopePicker"));

    m_reloadTimer = new QTimer(this);
    m_reloadTimer->setSingleShot(true);
    m_reloadTimer->setInterval(ReloadDebounceMs);
    connect(m_reloadTimer, &QTimer::timeout, m_picker, &ScopePicker::reload);

    followService(service, follow);
}

void PageSkeleton::followService(MemoryService *service, Follow follow)
{
    // Both signals come from worker threads; with this object as context they are queued.
    // Every commit counts, whatever its scope: it may have created the scope the page waits for.
    connect(service, &MemoryService::committed, this, [this]() { m_reloadTimer->start(); });
    if (follow != FollowDecisions)
        return;
    // A decision changes what the shown scope displays without a commit.
    connect(service, &MemoryService::decisionRecorded, this,
            [this](const QString &tenantId, const QString &scope) {
                if (isShown(tenantId, scope))
                    m_reloadTimer->start();
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
        m_statusLine = new QLabel(m_page);
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
