#pragma once

#include "service/core/result.h"
#include "ui/uiexecutor.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <initializer_list>

class QAction;
class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QTimer;
class QToolButton;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class MessageStack;
class NodeActions;
class NodeInspector;
class ScopePicker;

/// What every scoped page is built on: its scope picker with a Refresh button (F5), a
/// debounced reload when the service changes, a status line, a detail side that shows a hint
/// or the real content, and the shared executor for its facade calls.
///
/// A commit in any scope reloads the scope list (it may have created the first scope, or a new
/// one); with FollowDecisions, a decision recorded in the shown scope does too. The page loads
/// its content in onScopeChanged() (another scope) and onScopeReloaded() (same scope, fresh
/// content). Calls started with runAsync() report back only while the page exists.
///
/// The service and the executor must outlive the page.
class PageSkeleton : public QWidget
{
    Q_OBJECT
public:
    enum Follow { FollowCommits, FollowDecisions };

    /// The reload waits this long after the last change, so a burst of writes costs one reload.
    static constexpr int ReloadDebounceMs = 300;

    PageSkeleton(MemoryService *service, UiExecutor *executor, Follow follow = FollowCommits,
                 QWidget *parent = nullptr);

    ScopePicker *scopePicker() const { return m_picker; }
    QString currentTenant() const;
    QString currentScope() const;
    bool hasScope() const;
    bool isShown(const QString &tenantId, const QString &scope) const;

    /// The status line, created on first use; the page places it.
    QLabel *statusLine();
    QString statusText() const;
    /// Shows text on the status line, in the error colour when isError.
    void setStatus(const QString &text, bool isError = false);
    QAction *refreshAction() const { return m_refreshAction; }
    /// The Refresh button of the scope bar; null before createScopeBar().
    QToolButton *refreshButton() const { return m_refreshButton; }

public Q_SLOTS:
    /// Reloads the scope list now (a pending debounced reload is dropped); the content follows.
    virtual void refresh();
    /// Makes (tenant, scope) current now if listed, else as soon as a reload lists it.
    void selectScope(const QString &tenantId, const QString &scope);

Q_SIGNALS:
    /// Loading the page's content failed; `message` is ready to show (the window's status bar).
    void loadFailed(const QString &message);

protected:
    MemoryService *service() const { return m_service; }
    UiExecutor *executor() const { return m_executor; }

    /// Runs `call(service)` on the shared executor, then `done(result)` on this page unless the
    /// page is gone by then. `call` captures what else it needs by value, never the page.
    template<typename Call, typename Done>
    void callService(Call call, Done done, UiExecutor::Lane lane = UiExecutor::Lane::Reads)
    {
        MemoryService *facade = m_service;
        m_executor->run(
            this, [facade, call = std::move(call)]() { return call(facade); }, std::move(done),
            lane);
    }

    /// Loads through the facade, keeping only the latest answer: `call(service)` returns a
    /// Result; `apply(value)` or `fail(error)` runs unless a newer load of the same kind
    /// (`generation`, a member counter) started since.
    template<typename Call, typename Apply, typename Fail>
    void loadLatest(quint64 &generation, Call call, Apply apply, Fail fail)
    {
        const quint64 mine = ++generation;
        callService(std::move(call), [&generation, mine, apply = std::move(apply),
                                      fail = std::move(fail)](const auto &result) {
            if (mine != generation)
                return; // a newer load is on its way
            if (!result)
                fail(result.error());
            else
                apply(result.value());
        });
    }

    /// loadLatest() for the page's content: a failure shows `failureText`, with the error's
    /// message for %1, on the status line in the error colour and is announced with loadFailed().
    template<typename Call, typename Apply>
    void loadContent(quint64 &generation, const QString &failureText, Call call, Apply apply)
    {
        loadLatest(generation, std::move(call), std::move(apply),
                   [this, failureText](const Error &error) {
                       reportLoadFailure(failureText.arg(error.message));
                   });
    }
    void reportLoadFailure(const QString &text);

    /// Shows a node of (tenantId, scope) in `inspector` and points `actions` at it, keeping
    /// only the latest load; on failure `onFailure` (if any) runs before both show the error.
    void loadNodeDetail(quint64 &generation, const QString &tenantId, const QString &scope,
                        const QString &nodeId, NodeInspector *inspector, NodeActions *actions,
                        const std::function<void()> &onFailure = {});

    /// Another (tenant, scope) became current; both are empty when the store has none.
    virtual void onScopeChanged() { }
    /// A reload kept the current scope; its content may have changed.
    virtual void onScopeReloaded() { }

    /// The page's top row on `bar`: the scope picker and the Refresh button, then a gap; the
    /// page adds its own controls after them. `refreshTip` names what Refresh reloads and has
    /// %1 for the shortcut.
    QHBoxLayout *createScopeBar(QWidget *bar, const QString &refreshTip);
    /// A filter combo box: `allText` (no filter, empty data) first, then `values` as themselves.
    QComboBox *createFilterCombo(const QString &allText, const QStringList &values,
                                 const QString &objectName);
    /// A titled box with the page's list filling it and the list footer under it; `footerExtras`
    /// (pager buttons, ...) follow the status line.
    QGroupBox *createListBox(const QString &title, QWidget *list, QLabel *countLabel,
                             std::initializer_list<QWidget *> footerExtras = {});
    /// The page's detail side: a hint (nothing selected, no scope) or `content`. Shows the hint
    /// `message` first; showDetail() and showDetailMessage() switch it.
    MessageStack *createDetailStack(QWidget *content, const QString &message);
    void showDetailMessage(const QString &message);
    void showDetail();

private:
    void followService(Follow follow);
    /// A list's footer: `countLabel` on the left, the status line right-aligned beside it.
    QHBoxLayout *createListFooter(QLabel *countLabel);
    void createRefreshAction();

    MemoryService *m_service;
    UiExecutor *m_executor;
    ScopePicker *m_picker = nullptr;
    QTimer *m_reloadTimer = nullptr;
    QAction *m_refreshAction = nullptr;
    QToolButton *m_refreshButton = nullptr;
    QLabel *m_statusLine = nullptr;
    MessageStack *m_detailStack = nullptr;
};

} // namespace MemoryGraph::Ui
