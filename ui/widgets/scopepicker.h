#pragma once

#include <QVector>
#include <QWidget>

class QComboBox;
class QLabel;

namespace MemoryGraph {
class MemoryService;
struct ScopeSummary;
} // namespace MemoryGraph

namespace MemoryGraph::Ui {

class UiExecutor;

/// "Scope: [tenant / scope (n nodes)]": the (tenant, scope) pairs the store holds, loaded off
/// the GUI thread. Starts on the configured default scope and keeps the current one across
/// reloads. It reloads when asked: PageSkeleton does so as the service changes. The service
/// and the executor must outlive the picker.
class ScopePicker : public QWidget
{
    Q_OBJECT
public:
    ScopePicker(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    QString currentTenant() const;
    QString currentScope() const;
    bool hasScope() const { return !currentTenant().isEmpty(); }
    QComboBox *comboBox() const { return m_combo; }
    int scopeCount() const;

public Q_SLOTS:
    /// Reloads the scope list; the current scope stays selected if it still exists.
    void reload();
    /// Makes (tenant, scope) current now if listed, else as soon as a reload lists it.
    void selectScope(const QString &tenantId, const QString &scope);

Q_SIGNALS:
    /// The current (tenant, scope) changed: picked by the operator, by selectScope() or because
    /// a reload no longer listed the old one. Both are empty when there is no scope.
    void scopeChanged(const QString &tenantId, const QString &scope);
    /// A reload finished and the current scope stayed the same (its counts may have changed).
    void scopesReloaded();

private:
    void applyScopes(const QVector<ScopeSummary> &scopes);

    MemoryService *m_service;
    UiExecutor *m_executor;
    quint64 m_generation = 0;
    QString m_wantedTenant; ///< scope to select when the list next arrives
    QString m_wantedScope;
    QComboBox *m_combo = nullptr;
    QLabel *m_label = nullptr;
};

} // namespace MemoryGraph::Ui
