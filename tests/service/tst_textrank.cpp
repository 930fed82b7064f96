// The text channels' rank function: the same scores as FTS5's bm25() with the same column
// weights, on every connection the store opens.
#include "service/storage/database.h"
#include "service/storage/textrank.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;

namespace {

/// rowid -> score of a MATCH ranked by `rank`, best first.
QVector<QPair<qint64, double>> ranked(QSqlDatabase &db, const QString &rank, const QString &match)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT rowid, %1 AS score FROM notes WHERE notes MATCH ?"
                             " ORDER BY score, rowid")
                  .arg(rank));
    q.addBindValue(match);
    QVector<QPair<qint64, double>> rows;
    if (!q.exec())
        return rows;
    while (q.next())
        rows.append({q.value(0).toLongLong(), q.value(1).toDouble()});
    return rows;
}

} // namespace

class tst_TextRank : public QObject
{
    Q_OBJECT

private slots:
    void scoresAsBm25Does();
};

void tst_TextRank::scoresAsBm25Does()
{
    QTemporaryDir dir;
    auto store = Database::open(dir.filePath(QStringLiteral("store.sqlite")));
    QVERIFY(store);
    auto conn = store.value()->connection();
    QVERIFY(conn);
    QSqlDatabase db = conn.value();
    QSqlQuery q(db);
    QVERIFY(
        q.exec(QStringLiteral("CREATE VIRTUAL TABLE notes USING fts5(scope_key, title, body)")));
    const QStringList bodies{
        QStringLiteral("the gardener planted tulips by the river"),
        QStringLiteral("tulips tulips and more tulips in a long text about spring gardens"),
        QStringLiteral("a river cruise"),
        QStringLiteral("nothing to see here"),
        QStringLiteral("the river and the tulips and the gardener and the boat"),
    };
    for (int i = 0; i < bodies.size(); ++i) {
        q.prepare(QStringLiteral("INSERT INTO notes (scope_key, title, body) VALUES (?, ?, ?)"));
        q.addBindValue(i < 4 ? QStringLiteral("kone") : QStringLiteral("ktwo"));
        q.addBindValue(QStringLiteral("note %1").arg(i));
        q.addBindValue(bodies.at(i));
        QVERIFY(q.exec());
    }
    // A scope filter in a column of weight 0 first, as the text channels write it.
    for (const QString &match :
         {QStringLiteral("scope_key : kone AND (tulips OR river)"), QStringLiteral("gardener"),
          QStringLiteral("scope_key : ktwo AND (boat OR note)"), QStringLiteral("river")}) {
        const auto expected = ranked(db, QStringLiteral("bm25(notes, 0.0, 2.0, 1.0)"), match);
        const auto actual = ranked(
            db, QLatin1String(TextRank::kFunction) + QStringLiteral("(notes, 0.0, 2.0, 1.0)"),
            match);
        QVERIFY2(!expected.isEmpty(), qPrintable(match));
        QCOMPARE(actual.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QCOMPARE(actual.at(i).first, expected.at(i).first);
            QVERIFY2(qAbs(actual.at(i).second - expected.at(i).second) < 1e-9,
                     qPrintable(QStringLiteral("%1: %2 against %3")
                                    .arg(match)
                                    .arg(actual.at(i).second)
                                    .arg(expected.at(i).second)));
        }
    }
}

QTEST_GUILESS_MAIN(tst_TextRank)
#include "tst_textrank.moc"
