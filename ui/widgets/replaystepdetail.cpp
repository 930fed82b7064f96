#include "ui/widgets/replaystepdetail.h"

#include "ui/displayformat.h"

#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace MemoryGraph::Ui {

namespace {

/// Indented JSON for objects and arrays, plain text for scalars, a dash for null.
QString jsonText(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble());
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return orDash(QString());
}

QString conditionsText(const QJsonArray &conditions)
{
    return conditions.isEmpty() ? orDash(QString()) : jsonText(conditions);
}

} // namespace

ReplayStepDetail::ReplayStepDetail(QWidget *parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
}

void ReplayStepDetail::showStep(const ReplayStepView &step, int position, int count)
{
    QStringList lines;
    lines << tr("Step %1 of %2 \u2014 index %3, tool %4")
                 .arg(position + 1)
                 .arg(count)
                 .arg(step.stepIndex ? QString::number(*step.stepIndex) : orDash(QString()),
                      step.toolName)
          << tr("Step id: %1").arg(step.stepId)
          << tr("Safety level: %1").arg(orDash(step.safetyLevel))
          << tr("Decision: %1").arg(orDash(step.decisionId)) << QString() << tr("Tool input:")
          << jsonText(step.toolInput) << QString() << tr("Preconditions:")
          << conditionsText(step.preconditions) << QString() << tr("Result: %1").arg(step.status);
    if (!step.resultNodeId.isEmpty()) {
        lines << tr("Recorded: %1").arg(formatDateTime(step.resultAt))
              << tr("Repair applied: %1").arg(step.repairApplied ? tr("yes") : tr("no"));
        if (!step.repairNote.isEmpty())
            lines << tr("Repair note: %1").arg(step.repairNote);
        lines << tr("Error: %1").arg(orDash(step.error)) << QString() << tr("Postconditions:")
              << conditionsText(step.postconditions) << QString() << tr("Artifacts:")
              << (step.artifactRefs.isEmpty() ? orDash(QString())
                                              : step.artifactRefs.join(QLatin1Char('\n')));
    } else {
        lines << tr("No outcome recorded yet.");
    }
    setPlainText(lines.join(QLatin1Char('\n')));
}

void ReplayStepDetail::showMessage(const QString &message)
{
    setPlainText(message);
}

} // namespace MemoryGraph::Ui
