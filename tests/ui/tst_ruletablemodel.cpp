#include "ui/models/ruletablemodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QTest>

using MemoryGraph::NodeRecord;
using MemoryGraph::RuleSummary;
using MemoryGraph::Ui::RuleFilterModel;
using MemoryGraph::Ui::RuleTableModel;
using Column = RuleTableModel::Column;

namespace {

RuleSummary makeRule(const QString &id, const QString &title, const QJsonObject &slotData,
                     const QString &state = QStringLiteral("shadow"))
{
    RuleSummary r;
    r.node.id = id;
    r.node.tenantId = QStringLiteral("default");
    r.node.scope = QStringLiteral("default");
    r.node.clientId = QStringLiteral("client-") + id;
    r.node.type = QStringLiteral("rule");
    r.node.title = title;
    r.node.textSummary = title + QStringLiteral(" summary");
    r.node.slotData = slotData;
    r.status.state = state;
    return r;
}

QJsonObject meta(const QJsonValue &priority, const QJsonValue &weight)
{
    return {{QStringLiteral("rule_meta"), QJsonObject{{QStringLiteral("priority"), priority},
                                                      {QStringLiteral("weight"), weight}}}};
}

QVariant cell(const QAbstractItemModel &model, int row, Column column, int role = Qt::DisplayRole)
{
    return model.data(model.index(row, int(column)), role);
}

/// Three rules: an active global one, a shadow team one, a shadow agent one.
QVector<RuleSummary> sampleRules()
{
    RuleSummary global = makeRule(QStringLiteral("r1"), QStringLiteral("Prefer search"),
                                  meta(10, 1.5), QStringLiteral("active"));
    global.status.positive = 4;
    global.status.negative = 1;
    global.status.lastMatchedAt = QDateTime(QDate(2024, 5, 6), QTime(7, 8, 9));

    QJsonObject teamSlots = meta(-5, 0.5);
    teamSlots.insert(QStringLiteral("rule_scope"), QStringLiteral("team"));
    teamSlots.insert(QStringLiteral("target_team_id"), QStringLiteral("support"));
    RuleSummary team
        = makeRule(QStringLiteral("r2"), QStringLiteral("Markdown for support"), teamSlots);

    QJsonObject agentSlots{{QStringLiteral("rule_scope"), QStringLiteral("AGENT")},
                           {QStringLiteral("target_agent_id"), QStringLiteral("bot-7")},
                           {QStringLiteral("priority"), 250}}; // legacy slot, clamped
    RuleSummary agent = makeRule(QStringLiteral("r3"), QString(), agentSlots);
    agent.node.textSummary = QStringLiteral("Only a summary");
    return {global, team, agent};
}

} // namespace

class tst_RuleTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsEmptyWithNamedColumns();
    void showsRuleFields();
    void lastMatchedIsCompactForRecentTimes();
    void rolesForFilteringAndSorting();
    void tooltipsExplain();
    void findsRowsById();
    void resetReplacesRules();
    void filtersByStateScopeAndText();
    void sortsNumericColumnsByValue();
};

void tst_RuleTableModel::startsEmptyWithNamedColumns()
{
    RuleTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 9);
    const QStringList expected{
        QStringLiteral("Rule"),     QStringLiteral("State"),    QStringLiteral("Scope"),
        QStringLiteral("Target"),   QStringLiteral("Priority"), QStringLiteral("Weight"),
        QStringLiteral("Positive"), QStringLiteral("Negative"), QStringLiteral("Last matched")};
    for (int section = 0; section < expected.size(); ++section)
        QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), expected.at(section));
}

void tst_RuleTableModel::showsRuleFields()
{
    RuleTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRules(sampleRules());
    QCOMPARE(model.rowCount(), 3);

    // Active global rule with rule_meta and statistics.
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("Prefer search"));
    QCOMPARE(cell(model, 0, Column::State).toString(), QStringLiteral("ACTIVE"));
    QCOMPARE(cell(model, 0, Column::Scope).toString(), QStringLiteral("global"));
    QCOMPARE(cell(model, 0, Column::Target).toString(), QStringLiteral("\u2014"));
    QCOMPARE(cell(model, 0, Column::Priority).toInt(), 10);
    QCOMPARE(cell(model, 0, Column::Weight).toString(), QStringLiteral("1.50"));
    QCOMPARE(cell(model, 0, Column::Positive).toLongLong(), 4);
    QCOMPARE(cell(model, 0, Column::Negative).toLongLong(), 1);
    // Last matched is compact (an earlier year shows the date); the tooltip has the full time.
    QCOMPARE(cell(model, 0, Column::LastMatched).toString(), QStringLiteral("2024-05-06"));
    QVERIFY(cell(model, 0, Column::LastMatched, Qt::ToolTipRole)
                .toString()
                .endsWith(QDateTime(QDate(2024, 5, 6), QTime(7, 8, 9))
                              .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))));

    // Team rule: target is the team.
    QCOMPARE(cell(model, 1, Column::State).toString(), QStringLiteral("SHADOW"));
    QCOMPARE(cell(model, 1, Column::Scope).toString(), QStringLiteral("team"));
    QCOMPARE(cell(model, 1, Column::Target).toString(), QStringLiteral("support"));
    QCOMPARE(cell(model, 1, Column::Priority).toInt(), -5);
    QCOMPARE(cell(model, 1, Column::Weight).toString(), QStringLiteral("0.50"));
    QCOMPARE(cell(model, 1, Column::LastMatched).toString(), QStringLiteral("never"));

    // Agent rule: scope is case-insensitive, a legacy priority is clamped, weight defaults to 1,
    // and the title falls back to the summary.
    QCOMPARE(cell(model, 2, Column::Title).toString(), QStringLiteral("Only a summary"));
    QCOMPARE(cell(model, 2, Column::Scope).toString(), QStringLiteral("agent"));
    QCOMPARE(cell(model, 2, Column::Target).toString(), QStringLiteral("bot-7"));
    QCOMPARE(cell(model, 2, Column::Priority).toInt(), 100);
    QCOMPARE(cell(model, 2, Column::Weight).toString(), QStringLiteral("1.00"));

    // Numbers are right-aligned; the state is coloured.
    QCOMPARE(cell(model, 0, Column::Priority, Qt::TextAlignmentRole).value<Qt::Alignment>(),
             Qt::AlignRight | Qt::AlignVCenter);
    QVERIFY(!cell(model, 0, Column::Title, Qt::TextAlignmentRole).isValid());
    QVERIFY(cell(model, 0, Column::State, Qt::ForegroundRole).isValid());
    QVERIFY(cell(model, 0, Column::State, Qt::ForegroundRole)
            != cell(model, 1, Column::State, Qt::ForegroundRole));
    QVERIFY(!cell(model, 0, Column::Title, Qt::ForegroundRole).isValid());
}

void tst_RuleTableModel::lastMatchedIsCompactForRecentTimes()
{
    RuleTableModel model;
    QVector<RuleSummary> rules = sampleRules();
    const QDateTime now = QDateTime::currentDateTime();
    rules[0].status.lastMatchedAt = now;
    model.setRules(rules);
    QCOMPARE(cell(model, 0, Column::LastMatched).toString(),
             now.toString(QStringLiteral("HH:mm:ss")));
    if (now.date().dayOfYear() > 1) {
        rules[0].status.lastMatchedAt = now.addDays(-1);
        model.setRules(rules);
        QCOMPARE(cell(model, 0, Column::LastMatched).toString(),
                 now.addDays(-1).toString(QStringLiteral("MM-dd HH:mm")));
    }
}

void tst_RuleTableModel::rolesForFilteringAndSorting()
{
    RuleTableModel model;
    model.setRules(sampleRules());
    QCOMPARE(cell(model, 1, Column::Weight, RuleTableModel::RuleIdRole).toString(),
             QStringLiteral("r2"));
    QCOMPARE(cell(model, 0, Column::Title, RuleTableModel::StateRole).toString(),
             QStringLiteral("active"));
    QCOMPARE(cell(model, 2, Column::Title, RuleTableModel::RuleScopeRole).toString(),
             QStringLiteral("agent"));
    QCOMPARE(cell(model, 1, Column::Priority, RuleTableModel::SortRole).toInt(), -5);
    QCOMPARE(cell(model, 0, Column::Weight, RuleTableModel::SortRole).toDouble(), 1.5);
    QCOMPARE(cell(model, 0, Column::Title, RuleTableModel::SortRole).toString(),
             QStringLiteral("prefer search"));
    QCOMPARE(cell(model, 1, Column::LastMatched, RuleTableModel::SortRole).toLongLong(), 0);
    const QString search = cell(model, 1, Column::Title, RuleTableModel::SearchTextRole).toString();
    for (const char *part : {"Markdown for support", "summary", "r2", "client-r2", "support"})
        QVERIFY2(search.contains(QLatin1String(part)), part);
}

void tst_RuleTableModel::tooltipsExplain()
{
    RuleTableModel model;
    model.setRules(sampleRules());
    QVERIFY(cell(model, 0, Column::Title, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("client-r1")));
    QVERIFY(cell(model, 1, Column::Target, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("team support")));
    QVERIFY(cell(model, 0, Column::Priority, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("evidence 3")));
    QVERIFY(cell(model, 0, Column::State, Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("Active")));
}

void tst_RuleTableModel::findsRowsById()
{
    RuleTableModel model;
    model.setRules(sampleRules());
    QCOMPARE(model.rowOf(QStringLiteral("r3")), 2);
    QCOMPARE(model.rowOf(QStringLiteral("missing")), -1);
    QCOMPARE(model.rule(1).node.id, QStringLiteral("r2"));
    QCOMPARE(RuleTableModel::displayName(model.rule(2).node), QStringLiteral("Only a summary"));
    NodeRecord bare;
    bare.id = QStringLiteral("only-id");
    QCOMPARE(RuleTableModel::displayName(bare), QStringLiteral("only-id"));
}

void tst_RuleTableModel::resetReplacesRules()
{
    RuleTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRules(sampleRules());
    model.setRules({makeRule(QStringLiteral("x"), QStringLiteral("X"), {})});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("X"));
    QCOMPARE(cell(model, 0, Column::Priority).toInt(), 0);
    model.setRules({});
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.index(0, 0).isValid());
}

void tst_RuleTableModel::filtersByStateScopeAndText()
{
    RuleTableModel model;
    RuleFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRules(sampleRules());
    QCOMPARE(filter.rowCount(), 3);

    filter.setStateFilter(QStringLiteral("shadow"));
    QCOMPARE(filter.rowCount(), 2);
    filter.setRuleScopeFilter(QStringLiteral("team"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(cell(filter, 0, Column::Title, RuleTableModel::RuleIdRole).toString(),
             QStringLiteral("r2"));
    filter.setStateFilter(QStringLiteral("active"));
    QCOMPARE(filter.rowCount(), 0);
    filter.setStateFilter(QString());
    filter.setRuleScopeFilter(QString());

    // Text matches title, summary, ids and targets, case-insensitively.
    filter.setTextFilter(QStringLiteral("  BOT-7 "));
    QCOMPARE(filter.textFilter(), QStringLiteral("BOT-7"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(cell(filter, 0, Column::Title).toString(), QStringLiteral("Only a summary"));
    filter.setTextFilter(QStringLiteral("summary"));
    QCOMPARE(filter.rowCount(), 3);
    filter.setTextFilter(QStringLiteral("client-r1"));
    QCOMPARE(filter.rowCount(), 1);
    filter.setTextFilter(QStringLiteral("nothing like this"));
    QCOMPARE(filter.rowCount(), 0);
    filter.setTextFilter(QString());
    QCOMPARE(filter.rowCount(), 3);

    // Filters survive a reload.
    filter.setStateFilter(QStringLiteral("active"));
    model.setRules(sampleRules());
    QCOMPARE(filter.rowCount(), 1);
}

void tst_RuleTableModel::sortsNumericColumnsByValue()
{
    RuleTableModel model;
    RuleFilterModel filter;
    filter.setSourceModel(&model);
    model.setRules(sampleRules());

    filter.sort(int(Column::Priority), Qt::AscendingOrder);
    QCOMPARE(cell(filter, 0, Column::Priority).toInt(), -5);
    QCOMPARE(cell(filter, 1, Column::Priority).toInt(), 10);
    QCOMPARE(cell(filter, 2, Column::Priority).toInt(), 100);

    filter.sort(int(Column::Title), Qt::AscendingOrder);
    QCOMPARE(cell(filter, 0, Column::Title).toString(), QStringLiteral("Markdown for support"));
    QCOMPARE(cell(filter, 1, Column::Title).toString(), QStringLiteral("Only a summary"));

    filter.sort(int(Column::LastMatched), Qt::DescendingOrder);
    QCOMPARE(cell(filter, 0, Column::Title).toString(), QStringLiteral("Prefer search"));
}

QTEST_GUILESS_MAIN(tst_RuleTableModel)
#include "tst_ruletablemodel.moc"
