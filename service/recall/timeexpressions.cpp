#include "service/recall/timeexpressions.h"

#include <QRegularExpression>

namespace MemoryGraph::TimeExpressions {

namespace {

/// 1-12 for an English month name or its three-letter form ("sept" too); 0 otherwise.
int monthNumber(const QString &word)
{
    static const char *const names[]
        = {"january", "february", "march",     "april",   "may",      "june",
           "july",    "august",   "september", "october", "november", "december"};
    const QString w = word.toLower();
    for (int m = 0; m < 12; ++m) {
        const QString name = QString::fromLatin1(names[m]);
        if (w == name
            || (w.size() >= 3 && name.startsWith(w)
                && (w.size() == 3 || w == QLatin1String("sept"))))
            return m + 1;
    }
    return 0;
}

Period dayPeriod(const QDate &day)
{
    return {day.startOfDay(Qt::UTC), day.addDays(1).startOfDay(Qt::UTC)};
}

std::optional<Period> isoDay(const QString &text)
{
    static const QRegularExpression iso(QStringLiteral("\\b(\\d{4})-(\\d{2})-(\\d{2})\\b"));
    const auto m = iso.match(text);
    const QDate day
        = m.hasMatch() ? QDate(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt())
                       : QDate();
    return day.isValid() ? std::optional(dayPeriod(day)) : std::nullopt;
}

/// "3 March 2025", "3rd of March 2025", "March 3, 2025", "March 3rd 2025".
std::optional<Period> writtenDay(const QString &text)
{
    static const QRegularExpression dayFirst(QStringLiteral(
        "\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?([A-Za-z]{3,9})\\.?,?\\s+(\\d{4})\\b"));
    static const QRegularExpression monthFirst(
        QStringLiteral("\\b([A-Za-z]{3,9})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b"));
    auto m = dayFirst.match(text);
    if (m.hasMatch() && monthNumber(m.captured(2))) {
        const QDate day(m.captured(3).toInt(), monthNumber(m.captured(2)), m.captured(1).toInt());
        if (day.isValid())
            return dayPeriod(day);
    }
    m = monthFirst.match(text);
    if (m.hasMatch() && monthNumber(m.captured(1))) {
        const QDate day(m.captured(3).toInt(), monthNumber(m.captured(1)), m.captured(2).toInt());
        if (day.isValid())
            return dayPeriod(day);
    }
    return std::nullopt;
}

/// "March 2025", "Sept 2024".
std::optional<Period> writtenMonth(const QString &text)
{
    static const QRegularExpression monthYear(
        QStringLiteral("\\b([A-Za-z]{3,9})\\.?,?\\s+(\\d{4})\\b"));
    for (auto it = monthYear.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        const int month = monthNumber(m.captured(1));
        const QDate first(m.captured(2).toInt(), qMax(1, month), 1);
        if (month && first.isValid())
            return Period{first.startOfDay(Qt::UTC), first.addMonths(1).startOfDay(Qt::UTC)};
    }
    return std::nullopt;
}

/// A year on its own, 1900-2099.
std::optional<Period> year(const QString &text)
{
    static const QRegularExpression yearOnly(
        QStringLiteral("(?<![\\d.-])(19|20)(\\d{2})(?![\\d.-])"));
    const auto m = yearOnly.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QDate first((m.captured(1) + m.captured(2)).toInt(), 1, 1);
    return Period{first.startOfDay(Qt::UTC), first.addYears(1).startOfDay(Qt::UTC)};
}

} // namespace

std::optional<Period> periodIn(const QString &text)
{
    for (const auto &find : {isoDay, writtenDay, writtenMonth, year}) {
        if (auto period = find(text))
            return period;
    }
    return std::nullopt;
}

} // namespace MemoryGraph::TimeExpressions
