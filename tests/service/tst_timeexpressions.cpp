// The period a question names, for the time channel of recall.
#include "service/recall/timeexpressions.h"

#include <QTest>

using namespace MemoryGraph;

namespace {

QString periodText(const QString &question)
{
    const auto p = TimeExpressions::periodIn(question);
    return p ? p->from.date().toString(Qt::ISODate) + QLatin1Char('/')
                   + p->until.date().toString(Qt::ISODate)
             : QStringLiteral("none");
}

} // namespace

class tst_TimeExpressions : public QObject
{
    Q_OBJECT

private slots:
    void periods_data();
    void periods();
};

void tst_TimeExpressions::periods_data()
{
    QTest::addColumn<QString>("question");
    QTest::addColumn<QString>("period");
    QTest::newRow("iso day") << "What happened on 2025-03-03?"
                             << "2025-03-03/2025-03-04";
    QTest::newRow("day month year") << "What happened on 3 March 2025?"
                                    << "2025-03-03/2025-03-04";
    QTest::newRow("ordinal of") << "the 21st of June 2024"
                                << "2024-06-21/2024-06-22";
    QTest::newRow("month day, year") << "on March 3, 2025"
                                     << "2025-03-03/2025-03-04";
    QTest::newRow("month year") << "Which incidents happened in February 2025?"
                                << "2025-02-01/2025-03-01";
    QTest::newRow("short month") << "What broke in Sept 2025"
                                 << "2025-09-01/2025-10-01";
    QTest::newRow("december rolls over") << "in December 2024"
                                         << "2024-12-01/2025-01-01";
    QTest::newRow("year") << "What did we ship in 2024?"
                          << "2024-01-01/2025-01-01";
    QTest::newRow("no date") << "Who owns the billing service?"
                             << "none";
    QTest::newRow("version is not a year") << "Harbor 3.0 and iOS 18"
                                           << "none";
    QTest::newRow("not a month") << "Room 12 2025 plan"
                                 << "2025-01-01/2026-01-01";
    QTest::newRow("impossible day") << "31 February 2025"
                                    << "2025-02-01/2025-03-01";
}

void tst_TimeExpressions::periods()
{
    QFETCH(QString, question);
    QFETCH(QString, period);
    QCOMPARE(periodText(question), period);
}

QTEST_GUILESS_MAIN(tst_TimeExpressions)
#include "tst_timeexpressions.moc"
