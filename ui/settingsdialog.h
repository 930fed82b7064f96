#pragma once

#include <QDialog>

class QCheckBox;
class QLabel;

namespace MemoryGraph::Ui {

class AutoStart;
class ClosePolicy;

/// Edit → Preferences: whether closing the window keeps serving from the tray, and whether
/// Memory Graph starts (in the tray) at login. OK applies both; a start-at-login entry that
/// cannot be written is reported in the dialog, which then stays open.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    /// policy and autoStart must outlive the dialog.
    SettingsDialog(ClosePolicy *policy, AutoStart *autoStart, QWidget *parent = nullptr);

    QCheckBox *keepServingBox() const { return m_keepServing; }
    QCheckBox *startAtLoginBox() const { return m_startAtLogin; }
    /// The last error shown (empty when none).
    QString errorText() const;

public Q_SLOTS:
    void accept() override;

private:
    ClosePolicy *m_policy;
    AutoStart *m_autoStart;
    QCheckBox *m_keepServing = nullptr;
    QCheckBox *m_startAtLogin = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace MemoryGraph::Ui
