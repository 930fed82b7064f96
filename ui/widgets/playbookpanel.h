#pragma once

#include "service/api/playbookrequests.h"

#include <QJsonObject>
#include <QVector>
#include <QWidget>

class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class UiExecutor;

/// Replay playbooks of one (tenant, scope) (reference §7.4): the playbooks, a playbook's versions
/// (status, review state, what each came from), the chosen version's steps and its repair, with
/// approve / reject of a pending repair review and promote to a chosen status. The console reads
/// and acts as a playbook's owner (a local caller acts on every node, DESIGN trust model).
///
/// The service and the executor must outlive the panel.
class PlaybookPanel : public QWidget
{
    Q_OBJECT
public:
    PlaybookPanel(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    void setScope(const QString &tenantId, const QString &scope);
    /// Compiles a playbook from a finished run (its lane and owners kept), then shows it.
    void compileFromRun(const QString &runId, const QString &runNodeId);

    QString currentPlaybookId() const { return m_playbookId; }
    /// The version shown in the steps and repair views; 0 when none.
    int currentVersion() const;
    const QJsonObject &shownVersion() const { return m_version; }

    QListWidget *playbookList() const { return m_list; }
    QTableWidget *versionsTable() const { return m_versions; }
    QTableWidget *stepsTable() const { return m_steps; }
    QPlainTextEdit *repairView() const { return m_repair; }
    QPushButton *approveButton() const { return m_approve; }
    QPushButton *rejectButton() const { return m_reject; }
    QPushButton *promoteButton() const { return m_promote; }
    QComboBox *promoteStatus() const { return m_promoteStatus; }
    QLabel *statusLabel() const { return m_status; }

public Q_SLOTS:
    void reload();
    void approveRepair();
    void rejectRepair();
    void promoteVersion();

Q_SIGNALS:
    void playbooksLoaded(int count);
    /// A playbook version is shown (after a selection, an action or a compile).
    void versionShown(const QString &playbookId, int version);
    void compiled(const QString &playbookId);
    /// An action (compile, promote, review) finished; ok false with the error text.
    void actionFinished(bool ok, const QString &message);

private:
    void applyList(const QVector<PlaybookSummary> &list);
    void loadPlaybook(const QString &playbookId, int version);
    void applyPlaybook(const QJsonObject &body);
    void fillSteps();
    void updateActions();
    void review(const QString &action);
    /// Consumer identity the console reads and acts with: the playbook's owners.
    QJsonObject identity() const;
    void finishAction(const Result<PlaybookOutcome> &result, const QString &okText);

    MemoryService *m_service;
    UiExecutor *m_executor;
    QString m_tenant;
    QString m_scope;
    quint64 m_listGeneration = 0;
    quint64 m_loadGeneration = 0;
    QVector<PlaybookSummary> m_playbooks;
    QString m_playbookId;
    QString m_pendingSelect;
    QJsonObject m_version; ///< the shown version (get's playbook)
    QJsonArray m_history;  ///< get's versions
    bool m_filling = false;

    QListWidget *m_list = nullptr;
    QLabel *m_header = nullptr;
    QTableWidget *m_versions = nullptr;
    QTableWidget *m_steps = nullptr;
    QPlainTextEdit *m_repair = nullptr;
    QPushButton *m_approve = nullptr;
    QPushButton *m_reject = nullptr;
    QComboBox *m_promoteStatus = nullptr;
    QPushButton *m_promote = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace MemoryGraph::Ui
