#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QTimer;
class QWidget;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class ScopePicker;

/// What every scoped page shares: its scope picker, a debounced reload when the service
/// changes, and a status line. A commit in any scope reloads the scope list (it may have
/// created the first scope, or a new one); with FollowDecisions, a decision recorded in the
/// shown scope does too. The page loads its content from the picker's signals: scopeChanged()
/// for another scope, scopesReloaded() for fresh content in the same one.
///
/// Lives as a child of the page; the service must outlive it.
class PageSkeleton : public QObject
{
    Q_OBJECT
public:
    enum Follow { FollowCommits, FollowDecisions };

    /// The reload waits this long after the last change, so a burst of writes costs one reload.
    static constexpr int ReloadDebounceMs = 300;

    PageSkeleton(MemoryService *service, QWidget *page, Follow follow = FollowCommits);

    ScopePicker *scopePicker() const { return m_picker; }
    QString currentTenant() const;
    QString currentScope() const;
    bool hasScope() const;
    bool isShown(const QString &tenantId, const QString &scope) const;

    /// The page's status line, created on first use; the page places it.
    QLabel *statusLine();
    QString statusText() const;
    void setStatus(const QString &text, bool isError = false);

    /// Reloads the scope list now (a pending debounced reload is dropped).
    void refresh();
    void selectScope(const QString &tenantId, const QString &scope);

private:
    void followService(MemoryService *service, Follow follow);

    QWidget *m_page;
    ScopePicker *m_picker = nullptr;
    QTimer *m_reloadTimer = nullptr;
    QLabel *m_statusLine = nullptr;
};

} // namespace MemoryGraph::Ui
