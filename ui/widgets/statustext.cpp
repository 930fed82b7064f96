#include "ui/widgets/statustext.h"

#include <QLabel>

namespace MemoryGraph::Ui {

QString errorColour()
{
    return QStringLiteral("#d94f4f");
}

void showStatus(QLabel *label, const QString &text, bool isError)
{
    label->setText(text);
    label->setToolTip(text);
    label->setStyleSheet(isError ? QStringLiteral("color: %1;").arg(errorColour()) : QString());
}

} // namespace MemoryGraph::Ui
