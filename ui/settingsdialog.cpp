#include "ui/settingsdialog.h"

#include "ui/autostart.h"
#include "ui/closepolicy.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

QLabel *noteLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    // Lined up under the check box text.
    label->setContentsMargins(24, 0, 0, 6);
    return label;
}

} // namespace

SettingsDialog::SettingsDialog(ClosePolicy *policy, AutoStart *autoStart, QWidget *parent)
    : QDialog(parent), m_policy(policy), m_autoStart(autoStart)
{
    Q_ASSERT(m_policy && m_autoStart);
    setWindowTitle(tr("Preferences"));
    setObjectName(QStringLiteral("settingsDialog"));

    auto *group = new QGroupBox(tr("Running in the background"), this);
    m_keepServing = new QCheckBox(tr("&Keep serving in the tray when the window is closed"), group);
    m_keepServing->setObjectName(QStringLiteral("keepServingCheck"));
    m_keepServing->setChecked(m_policy->keepServingInTray());
    const bool tray = m_policy->trayAvailable();
    m_keepServing->setEnabled(tray);
    const QString trayNote
        = tray ? tr("Agents stay connected while the window is closed. Open the window again or "
                    "quit from the tray icon; File \u2192 Quit (Ctrl+Q) always quits.")
               : tr("This desktop has no system tray, so closing the window quits Memory Graph.");

    m_startAtLogin = new QCheckBox(tr("&Start at login"), group);
    m_startAtLogin->setObjectName(QStringLiteral("startAtLoginCheck"));
    m_startAtLogin->setChecked(m_autoStart->isEnabled());
    const QString loginNote
        = tr("Starts Memory Graph in the tray when you log in (%1).").arg(m_autoStart->location());

    auto *groupLayout = new QVBoxLayout(group);
    groupLayout->addWidget(m_keepServing);
    groupLayout->addWidget(noteLabel(trayNote, group));
    groupLayout->addWidget(m_startAtLogin);
    groupLayout->addWidget(noteLabel(loginNote, group));

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("settingsError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #d94f4f;"));
    m_error->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(group);
    layout->addWidget(m_error);
    layout->addStretch(1);
    layout->addWidget(buttons);
    resize(sizeHint().expandedTo(QSize(520, 0)));
}

QString SettingsDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void SettingsDialog::accept()
{
    // Stored only when it differs, so the default keeps following the desktop until chosen.
    if (m_keepServing->isEnabled() && m_keepServing->isChecked() != m_policy->keepServingInTray())
        m_policy->setKeepServingInTray(m_keepServing->isChecked());

    if (m_startAtLogin->isChecked() != m_autoStart->isEnabled()) {
        QString why;
        if (!m_autoStart->setEnabled(m_startAtLogin->isChecked(), &why)) {
            m_error->setText(tr("Start at login could not be changed: %1").arg(why));
            m_error->show();
            return;
        }
    }
    QDialog::accept();
}

} // namespace MemoryGraph::Ui
