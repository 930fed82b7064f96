#include "ui/closepolicy.h"

#include <QSettings>

namespace MemoryGraph::Ui {

namespace {

const QString KeepServingKey = QStringLiteral("tray/keepServingWhenClosed");
const QString NoticeShownKey = QStringLiteral("tray/closeNoticeShown");

} // namespace

ClosePolicy::ClosePolicy(QSettings *settings, TrayProbe trayAvailable)
    : m_settings(settings), m_trayAvailable(std::move(trayAvailable))
{
    Q_ASSERT(m_settings);
}

bool ClosePolicy::trayAvailable() const
{
    return m_trayAvailable && m_trayAvailable();
}

bool ClosePolicy::keepServingInTray() const
{
    // Not stored until the operator chooses, so the default follows the desktop.
    return m_settings->value(KeepServingKey, trayAvailable()).toBool();
}

void ClosePolicy::setKeepServingInTray(bool keep)
{
    m_settings->setValue(KeepServingKey, keep);
}

bool ClosePolicy::closeKeepsServing() const
{
    return trayAvailable() && keepServingInTray();
}

ClosePolicy::Decision ClosePolicy::decideOnClose()
{
    Decision decision;
    decision.keepServing = closeKeepsServing();
    if (decision.keepServing && !m_settings->value(NoticeShownKey, false).toBool()) {
        decision.showNotice = true;
        m_settings->setValue(NoticeShownKey, true);
    }
    return decision;
}

} // namespace MemoryGraph::Ui
