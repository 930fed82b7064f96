#include "ui/displayformat.h"

namespace MemoryGraph::Ui {

QString formatDateTime(const QDateTime &at)
{
    if (!at.isValid())
        return QStringLiteral("\u2014");
    return at.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString formatScore(double value)
{
    return QString::number(value, 'f', 2);
}

QString shortHash(const QString &hash, int length)
{
    return hash.left(length);
}

QString orDash(const QString &text)
{
    return text.isEmpty() ? QStringLiteral("\u2014") : text;
}

} // namespace MemoryGraph::Ui
