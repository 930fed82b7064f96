#include "ui/widgets/nodeeditdialog.h"

#include "ui/widgets/jsonhighlighter.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

QComboBox *valueCombo(const QStringList &values, const QString &current, const QString &objectName,
                      QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(objectName);
    combo->addItems(values);
    if (!values.contains(current) && !current.isEmpty())
        combo->addItem(current); // keep an unexpected stored value selectable as is
    combo->setCurrentText(current);
    return combo;
}

} // namespace

NodeEditDialog::NodeEditDialog(const NodeRecord &node, QWidget *parent)
    : QDialog(parent), m_node(node)
{
    setObjectName(QStringLiteral("nodeEditDialog"));
    setWindowTitle(tr("Edit node"));

    auto *intro = new QLabel(
        tr("Editing %1 node %2. Changing the text re-embeds the node.").arg(node.type, node.id),
        this);
    intro->setWordWrap(true);
    intro->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_title = new QLineEdit(node.title, this);
    m_title->setObjectName(QStringLiteral("titleEdit"));
    m_summary = new QPlainTextEdit(node.textSummary, this);
    m_summary->setObjectName(QStringLiteral("summaryEdit"));
    m_summary->setTabChangesFocus(true);
    m_summary->setFixedHeight(m_summary->fontMetrics().lineSpacing() * 4 + 12);
    m_tier = valueCombo({QStringLiteral("hot"), QStringLiteral("warm"), QStringLiteral("cold"),
                         QStringLiteral("archive")},
                        node.tier, QStringLiteral("tierCombo"), this);
    m_lane = valueCombo({QStringLiteral("private"), QStringLiteral("shared")}, node.memoryLane,
                        QStringLiteral("laneCombo"), this);
    m_ownerAgent = new QLineEdit(node.ownerAgentId, this);
    m_ownerAgent->setObjectName(QStringLiteral("ownerAgentEdit"));
    m_ownerTeam = new QLineEdit(node.ownerTeamId, this);
    m_ownerTeam->setObjectName(QStringLiteral("ownerTeamEdit"));
    m_salience = new QDoubleSpinBox(this);
    m_salience->setObjectName(QStringLiteral("salienceSpin"));
    m_salience->setRange(0.0, 1.0);
    m_salience->setDecimals(3);
    m_salience->setSingleStep(0.05);
    m_salience->setValue(node.salience);
    m_initialSalience = m_salience->value(); // as shown, so rounding alone is no change

    m_slots = new QPlainTextEdit(this);
    m_slots->setObjectName(QStringLiteral("slotsEdit"));
    m_slots->setTabChangesFocus(true);
    m_slots->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_slots->setPlainText(
        QString::fromUtf8(QJsonDocument(node.slotData).toJson(QJsonDocument::Indented)));
    JsonHighlighter::attach(m_slots);
    m_slotsStatus = new QLabel(this);
    m_slotsStatus->setObjectName(QStringLiteral("slotsStatus"));
    m_slotsStatus->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("&Title:"), m_title);
    form->addRow(tr("&Summary:"), m_summary);
    form->addRow(tr("T&ier:"), m_tier);
    form->addRow(tr("&Lane:"), m_lane);
    form->addRow(tr("Owner &agent:"), m_ownerAgent);
    form->addRow(tr("Owner t&eam:"), m_ownerTeam);
    form->addRow(tr("Sa&lience:"), m_salience);
    form->addRow(tr("Sl&ots (JSON):"), m_slots);
    form->addRow(QString(), m_slotsStatus);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this]() {
        if (m_slotsValid)
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_slots, &QPlainTextEdit::textChanged, this, &NodeEditDialog::validateSlots);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form, 1);
    layout->addWidget(m_buttons);
    resize(560, 560);
    validateSlots();
}

void NodeEditDialog::validateSlots()
{
    QJsonParseError error{};
    const QByteArray text = m_slots->toPlainText().trimmed().toUtf8();
    const QJsonDocument doc
        = text.isEmpty() ? QJsonDocument(QJsonObject()) : QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError) {
        m_slotsValid = false;
        m_slotsStatus->setText(
            tr("Not valid JSON at character %1: %2").arg(error.offset).arg(error.errorString()));
    } else if (!doc.isObject()) {
        m_slotsValid = false;
        m_slotsStatus->setText(tr("Slots must be a JSON object."));
    } else {
        m_slotsValid = true;
        m_parsedSlots = doc.object();
        m_slotsStatus->setText(
            tr("Valid JSON object with %n key(s).", nullptr, int(m_parsedSlots.size())));
    }
    // Mid-tone red reads on both palettes.
    m_slotsStatus->setStyleSheet(m_slotsValid ? QString() : QStringLiteral("color: #d94f4f;"));
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(m_slotsValid);
}

QString NodeEditDialog::slotsError() const
{
    return m_slotsValid ? QString() : m_slotsStatus->text();
}

NodeEditRequest NodeEditDialog::request() const
{
    NodeEditRequest r;
    if (m_title->text() != m_node.title)
        r.title = m_title->text();
    if (m_summary->toPlainText() != m_node.textSummary)
        r.textSummary = m_summary->toPlainText();
    if (m_tier->currentText() != m_node.tier)
        r.tier = m_tier->currentText();
    if (m_lane->currentText() != m_node.memoryLane)
        r.memoryLane = m_lane->currentText();
    if (m_ownerAgent->text().trimmed() != m_node.ownerAgentId)
        r.ownerAgentId = m_ownerAgent->text().trimmed();
    if (m_ownerTeam->text().trimmed() != m_node.ownerTeamId)
        r.ownerTeamId = m_ownerTeam->text().trimmed();
    if (m_salience->value() != m_initialSalience)
        r.salience = m_salience->value();
    if (m_slotsValid && m_parsedSlots != m_node.slotData)
        r.slotData = m_parsedSlots;
    return r;
}

} // namespace MemoryGraph::Ui
