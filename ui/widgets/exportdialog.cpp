#include "ui/widgets/exportdialog.h"

#include "ui/widgets/scopepicker.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

ExportDialog::ExportDialog(MemoryService *service, UiExecutor *executor, const QString &tenantId,
                           const QString &scope, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Export memories"));
    auto *intro = new QLabel(tr("Writes every node, edge, rule, decision, replay run and commit "
                                "of one scope, in every lane, to a file another Memory Graph "
                                "can import."),
                             this);
    intro->setWordWrap(true);
    m_picker = new ScopePicker(service, executor, this);
    m_picker->setObjectName(QStringLiteral("exportScope"));
    m_picker->selectScope(tenantId, scope);
    m_embeddings = new QCheckBox(tr("Include the &vectors (a store that embeds with the same "
                                    "model need not embed again)"),
                                 this);
    m_embeddings->setObjectName(QStringLiteral("exportEmbeddings"));
    m_embeddings->setChecked(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Export\u2026"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    const auto updateOk
        = [this] { m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_picker->hasScope()); };
    connect(m_picker, &ScopePicker::scopeChanged, this, updateOk);
    updateOk();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_picker);
    layout->addWidget(m_embeddings);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
}

QString ExportDialog::tenantId() const
{
    return m_picker->currentTenant();
}

QString ExportDialog::scope() const
{
    return m_picker->currentScope();
}

bool ExportDialog::includeEmbeddings() const
{
    return m_embeddings->isChecked();
}

} // namespace MemoryGraph::Ui
