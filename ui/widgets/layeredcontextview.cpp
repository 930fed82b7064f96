#include "ui/widgets/layeredcontextview.h"

#include "service/api/layeredcontexttypes.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

LayeredContextView::LayeredContextView(QWidget *parent) : QWidget(parent)
{
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("layeredContextEdit"));
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setToolTip(
        tr("The layered context an agent gets from context/assemble: facts, episodes, "
           "rules, static context, decisions, tools and citations, each within its budget."));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("layeredContextSummary"));
    m_summary->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_summary);
    clear();
}

void LayeredContextView::setResult(const LayeredContext::Output &output,
                                   const QString &selectedTool)
{
    m_text->setPlainText(output.mergedText);
    const QJsonObject budget = output.body.value(QStringLiteral("budget")).toObject();
    QString summary
        = tr("%1 of %2 chars in %n layer(s)", nullptr, int(output.layersWithContent.size()))
              .arg(budget.value(QStringLiteral("used_chars")).toInt())
              .arg(budget.value(QStringLiteral("total_chars")).toInt());
    summary += QStringLiteral(" \u00b7 ") + tr("%n item(s) dropped", nullptr, output.droppedItems);
    summary += QStringLiteral(" \u00b7 ") + tr("%n forgotten", nullptr, output.forgottenItems);
    if (!selectedTool.isEmpty())
        summary += QStringLiteral(" \u00b7 ") + tr("selected tool: %1").arg(selectedTool);
    m_summary->setText(summary);
}

void LayeredContextView::clear()
{
    m_text->clear();
    m_summary->setText(tr("Use “Assemble” to build the layered context for this query."));
}

QString LayeredContextView::text() const
{
    return m_text->toPlainText();
}

QString LayeredContextView::summaryText() const
{
    return m_summary->text();
}

} // namespace MemoryGraph::Ui
