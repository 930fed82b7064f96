#include "ui/widgets/scopepicker.h"

#include "service/memoryservice.h"
#include "ui/uiexecutor.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace MemoryGraph::Ui {

namespace {

constexpr int TenantRole = Qt::UserRole + 1;
constexpr int ScopeRole = Qt::UserRole + 2;

} // namespace

ScopePicker::ScopePicker(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : QWidget(parent), m_service(service), m_executor(executor)
{
    Q_ASSERT(m_service);
    Q_ASSERT(m_executor);

    m_combo = new QComboBox(this);
    m_combo->setObjectName(QStringLiteral("scopeCombo"));
    m_combo->setMinimumContentsLength(24);
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_combo->setPlaceholderText(tr("Loading scopes\u2026"));
    m_combo->setToolTip(tr("The tenant and scope to work in"));
    connect(m_combo, &QComboBox::currentIndexChanged, this,
            [this]() { Q_EMIT scopeChanged(currentTenant(), currentScope()); });

    m_label = new QLabel(tr("&Scope:"), this);
    m_label->setBuddy(m_combo);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_combo, 1);
    setFocusProxy(m_combo);

    reload();
}

QString ScopePicker::currentTenant() const
{
    return m_combo->currentData(TenantRole).toString();
}

QString ScopePicker::currentScope() const
{
    return m_combo->currentData(ScopeRole).toString();
}

int ScopePicker::scopeCount() const
{
    return m_combo->count();
}

void ScopePicker::reload()
{
    const quint64 generation = ++m_generation;
    MemoryService *service = m_service;
    m_executor->run(
        this, [service]() { return service->listScopes(); },
        [this, generation](const QVector<ScopeSummary> &scopes) {
            if (generation == m_generation)
                applyScopes(scopes);
        });
}

void ScopePicker::selectScope(const QString &tenantId, const QString &scope)
{
    for (int i = 0; i < m_combo->count(); ++i) {
        if (m_combo->itemData(i, TenantRole).toString() == tenantId
            && m_combo->itemData(i, ScopeRole).toString() == scope) {
            m_wantedTenant.clear();
            m_wantedScope.clear();
            m_combo->setCurrentIndex(i); // emits scopeChanged if it is a change
            return;
        }
    }
    // Not listed yet (e.g. just written): pick it when the list next arrives.
    m_wantedTenant = tenantId;
    m_wantedScope = scope;
    reload();
}

void ScopePicker::applyScopes(const QVector<ScopeSummary> &scopes)
{
    const QString previousTenant = currentTenant();
    const QString previousScope = currentScope();
    QString tenant = m_wantedTenant.isEmpty() ? previousTenant : m_wantedTenant;
    QString scope = m_wantedTenant.isEmpty() ? previousScope : m_wantedScope;
    if (tenant.isEmpty() && !scopes.isEmpty()) {
        // Nothing chosen yet: start on the configured default scope if it exists.
        tenant = m_service->config().defaultTenant;
        scope = m_service->config().defaultScope;
    }

    int index = scopes.isEmpty() ? -1 : 0;
    {
        // Refilling must not look like the operator switching scopes.
        const QSignalBlocker blocker(m_combo);
        m_combo->clear();
        for (const ScopeSummary &s : scopes) {
            m_combo->addItem(tr("%1 / %2  (%3 nodes)").arg(s.tenantId, s.scope).arg(s.nodeCount));
            const int i = m_combo->count() - 1;
            m_combo->setItemData(i, s.tenantId, TenantRole);
            m_combo->setItemData(i, s.scope, ScopeRole);
            m_combo->setItemData(i,
                                 tr("%1 nodes, %2 edges, %3 commits")
                                     .arg(s.nodeCount)
                                     .arg(s.edgeCount)
                                     .arg(s.commitCount),
                                 Qt::ToolTipRole);
            if (s.tenantId == tenant && s.scope == scope)
                index = i;
        }
        if (scopes.isEmpty())
            m_combo->setPlaceholderText(tr("No scopes yet"));
        m_combo->setCurrentIndex(index);
    }
    if (index >= 0 && m_wantedTenant == currentTenant() && m_wantedScope == currentScope()) {
        m_wantedTenant.clear();
        m_wantedScope.clear();
    }
    m_combo->setEnabled(!scopes.isEmpty());

    if (currentTenant() == previousTenant && currentScope() == previousScope)
        Q_EMIT scopesReloaded();
    else
        Q_EMIT scopeChanged(currentTenant(), currentScope());
}

} // namespace MemoryGraph::Ui
