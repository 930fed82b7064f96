#include "ui/widgets/forgetdialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

ForgetDialog::ForgetDialog(const QString &nodeName, QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("forgetDialog"));
    setWindowTitle(tr("Forget node"));

    auto *question = new QLabel(tr("Forget %1?").arg(nodeName), this);
    question->setObjectName(QStringLiteral("forgetQuestion"));
    QFont bold = question->font();
    bold.setBold(true);
    question->setFont(bold);
    question->setWordWrap(true);
    auto *detail = new QLabel(tr("The node, its edges and its vector are removed from the store "
                                 "and from recall. The commit log keeps the node's id, type, "
                                 "title and your reason, not its text. This cannot be undone."),
                              this);
    detail->setWordWrap(true);

    m_reason = new QLineEdit(this);
    m_reason->setObjectName(QStringLiteral("reasonEdit"));
    m_reason->setPlaceholderText(tr("Why is this node forgotten?"));
    auto *form = new QFormLayout;
    form->addRow(tr("&Reason:"), m_reason);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    auto *forgetButton = buttons->addButton(tr("&Forget"), QDialogButtonBox::DestructiveRole);
    forgetButton->setObjectName(QStringLiteral("forgetButton"));
    // Cancel stays the default button: Enter must not destroy data by accident.
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    connect(forgetButton, &QPushButton::clicked, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(question);
    layout->addWidget(detail);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QString ForgetDialog::reason() const
{
    return m_reason->text().trimmed();
}

} // namespace MemoryGraph::Ui
