#include "ui/widgets/activatedialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

ActivateDialog::ActivateDialog(const QString &nodeName, QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("activateDialog"));
    setWindowTitle(tr("Record activation"));

    auto *intro = new QLabel(tr("Record a use of %1. The outcome feeds the node's feedback "
                                "counters and quality, which steer adaptive decay.")
                                 .arg(nodeName),
                             this);
    intro->setWordWrap(true);

    m_outcome = new QComboBox(this);
    m_outcome->setObjectName(QStringLiteral("outcomeCombo"));
    m_outcome->addItem(tr("Neutral"), QStringLiteral("neutral"));
    m_outcome->addItem(tr("Positive"), QStringLiteral("positive"));
    m_outcome->addItem(tr("Negative"), QStringLiteral("negative"));

    m_activate = new QCheckBox(tr("Count as a use (updates last activated)"), this);
    m_activate->setObjectName(QStringLiteral("activateCheck"));
    m_activate->setChecked(true);

    m_reason = new QLineEdit(this);
    m_reason->setObjectName(QStringLiteral("reasonEdit"));
    m_reason->setPlaceholderText(tr("Optional"));

    auto *form = new QFormLayout;
    form->addRow(tr("&Outcome:"), m_outcome);
    form->addRow(QString(), m_activate);
    form->addRow(tr("&Reason:"), m_reason);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Record"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QString ActivateDialog::outcome() const
{
    return m_outcome->currentData().toString();
}

bool ActivateDialog::activate() const
{
    return m_activate->isChecked();
}

QString ActivateDialog::reason() const
{
    return m_reason->text().trimmed();
}

} // namespace MemoryGraph::Ui
