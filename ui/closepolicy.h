#pragma once

#include <functional>

class QSettings;

namespace MemoryGraph::Ui {

/// What closing the main window does: hide it and keep serving from the system tray, or quit.
/// Holds the operator's preference ("Keep serving in the tray when the window is closed", on by
/// default when a tray exists) and whether the one-time notice was already given. Whether a tray
/// exists is asked through a probe each time, so tests (and desktops whose tray appears late)
/// get an honest answer.
class ClosePolicy
{
public:
    using TrayProbe = std::function<bool()>;

    struct Decision
    {
        bool keepServing = false; ///< hide the window into the tray instead of quitting
        bool showNotice = false;  ///< first time: tell the operator the service keeps running
    };

    /// settings must outlive the policy; trayAvailable defaults to nothing being available.
    ClosePolicy(QSettings *settings, TrayProbe trayAvailable);

    bool trayAvailable() const;
    /// The preference; when never set, on exactly when a tray is available.
    bool keepServingInTray() const;
    void setKeepServingInTray(bool keep);
    /// True when a close would hide into the tray now: the preference is on and a tray exists.
    bool closeKeepsServing() const;

    /// The window is being closed by the operator. Records that the notice was given when the
    /// decision asks for it, so it is asked for once.
    Decision decideOnClose();

private:
    QSettings *m_settings;
    TrayProbe m_trayAvailable;
};

} // namespace MemoryGraph::Ui
