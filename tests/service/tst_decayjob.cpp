#include "service/lifecycle/decayjob.h"
#include "service/lifecycle/maintenancescheduler.h"
#include "tests/support/tempservice.h"

#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;

namespace {

const QString kTenant = QStringLiteral("default");
const QString kScope = QStringLiteral("default");

QProcessEnvironment quietEnv(const QList<QPair<QString, QString>> &extra = {})
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    for (const auto &[name, value] : extra)
        env.insert(name, value);
    return env;
}

QJsonObject node(const QString &clientId, const QString &tier, double salience,
                 const QJsonObject &slotData = {})
{
    QJsonObject n{{QStringLiteral("client_id"), clientId},
                  {QStringLiteral("type"), QStringLiteral("event")},
                  {QStringLiteral("text_summary"), QStringLiteral("memory ") + clientId},
                  {QStringLiteral("tier"), tier},
                  {QStringLiteral("salience"), salience}};
    if (!slotData.isEmpty())
        n.insert(QStringLiteral("slots"), slotData);
    return n;
}

bool write(MemoryService *svc, const QJsonArray &nodes)
{
    auto req = WriteRequest::fromJson(Test::writeBody(nodes));
    if (!req)
        return false;
    auto r = svc->write(req.value(), RequestMeta());
    if (!r)
        qWarning() << r.error().message;
    return r.ok();
}

/// `count` hot nodes with a comfortable salience: they decay but are never demoted.
QJsonArray fillers(int count)
{
    QJsonArray nodes;
    for (int i = 0; i < count; ++i)
        nodes.append(node(QStringLiteral("filler-%1").arg(i), QStringLiteral("hot"), 0.9));
    return nodes;
}

NodeRecord byClientId(MemoryService *svc, const QString &clientId)
{
    NodeQuery q;
    q.tenantId = kTenant;
    q.scope = kScope;
    q.text = clientId;
    q.limit = 1000;
    auto page = svc->listNodes(q);
    if (page) {
        for (const NodeRecord &n : page.value().nodes) {
            if (n.clientId == clientId)
                return n;
        }
    }
    return {};
}

QDateTime daysLater(int days)
{
    return QDateTime::currentDateTimeUtc().addDays(days);
}

CommitRecord latestCommit(MemoryService *svc)
{
    auto commits = svc->listCommits(kTenant, kScope, 0, 1);
    return commits && !commits.value().isEmpty() ? commits.value().first() : CommitRecord();
}

} // namespace

class tst_DecayJob : public QObject
{
    Q_OBJECT

private slots:
    void formulasFollowTheReference();
    void protectionIsReadFromPinAndLegalHold();
    void settingsComeFromTheEnvironment();
    void salienceDecaysInOneCommit();
    void demotionUsesThePreRunState();
    void demotedNodeCarriesTransitionSlots();
    void protectedAndArchivedNodesAreUntouched();
    void runWithoutChangeWritesNoCommit();
    void dailyBudgetLimitsTransitions();
    void hotBudgetShedsLeastSalient();
    void sweepCoversEveryScopeAndSignals();
    void schedulerSweepsOnItsOwnThread();
    void zeroIntervalDisablesTheSchedule();
};

void tst_DecayJob::formulasFollowTheReference()
{
    QCOMPARE(Decay::feedbackSignal({{QStringLiteral("feedback_quality"), 0.4}}), 0.4);
    QCOMPARE(Decay::feedbackSignal({{QStringLiteral("feedback_quality"), 3}}), 1.0);
    QCOMPARE(Decay::feedbackSignal({{QStringLiteral("feedback_positive"), 3},
                                    {QStringLiteral("feedback_negative"), 1}}),
             0.5);
    QCOMPARE(Decay::feedbackSignal({{QStringLiteral("feedback_positive"), 3}}), 0.0);
    QCOMPARE(Decay::feedbackSignal({}), 0.0);

    QCOMPARE(Decay::decayScale(false, 0), 1.0);
    QCOMPARE(Decay::decayScale(true, 0), 0.6);
    QCOMPARE(Decay::decayScale(false, 1.0), 0.5);  // useful memories fade slower
    QCOMPARE(Decay::decayScale(false, -1.0), 2.0); // bad ones faster
    QCOMPARE(Decay::decayScale(true, 1.0), 0.3);
    QCOMPARE(Decay::decayScale(true, -0.5), 0.9);

    QCOMPARE(Decay::decayedSalience(0.5, 0.995, 1.0), 0.5 * 0.995);
    QCOMPARE(Decay::decayedSalience(0.5, 0.995, 2.0), 0.5 * 0.99);
    QCOMPARE(Decay::decayedSalience(0.0, 0.995, 1.0), 0.0);
}

void tst_DecayJob::protectionIsReadFromPinAndLegalHold()
{
    QVERIFY(Decay::isProtected({{QStringLiteral("pin"), true}}));
    QVERIFY(Decay::isProtected({{QStringLiteral("pin"), 1}}));
    QVERIFY(Decay::isProtected({{QStringLiteral("legal_hold"), QStringLiteral("Yes")}}));
    QVERIFY(Decay::isProtected({{QStringLiteral("legal_hold"), QStringLiteral("on")}}));
    QVERIFY(!Decay::isProtected({{QStringLiteral("pin"), false}}));
    QVERIFY(!Decay::isProtected({{QStringLiteral("pin"), QStringLiteral("no")}}));
    QVERIFY(!Decay::isProtected({{QStringLiteral("pinned"), true}}));
}

void tst_DecayJob::settingsComeFromTheEnvironment()
{
    auto defaults = ServiceConfig::fromEnvironment(QProcessEnvironment());
    QVERIFY(defaults);
    QCOMPARE(defaults.value().adaptiveDecayEnabled, true);
    QCOMPARE(defaults.value().adaptiveRecentDays, 7);
    QCOMPARE(defaults.value().salienceDecayFactor, 0.995);
    QCOMPARE(defaults.value().scopeHotNodeBudget, 0);
    QCOMPARE(defaults.value().scopeActiveNodeBudget, 0);
    QCOMPARE(defaults.value().decayIntervalHours, 24);

    auto set = ServiceConfig::fromEnvironment(
        quietEnv({{QStringLiteral("MEMORY_ADAPTIVE_DECAY_ENABLED"), QStringLiteral("false")},
                  {QStringLiteral("MEMORY_ADAPTIVE_RECENT_DAYS"), QStringLiteral("3")},
                  {QStringLiteral("MEMORY_SALIENCE_DECAY_FACTOR"), QStringLiteral("0.9")},
                  {QStringLiteral("MEMORY_SCOPE_HOT_NODE_BUDGET"), QStringLiteral("50")},
                  {QStringLiteral("MEMORY_SCOPE_ACTIVE_NODE_BUDGET"), QStringLiteral("80")},
                  {QStringLiteral("MEMORY_DECAY_INTERVAL_HOURS"), QStringLiteral("0")}}));
    QVERIFY(set);
    QCOMPARE(set.value().adaptiveDecayEnabled, false);
    QCOMPARE(set.value().adaptiveRecentDays, 3);
    QCOMPARE(set.value().salienceDecayFactor, 0.9);
    QCOMPARE(set.value().scopeHotNodeBudget, 50);
    QCOMPARE(set.value().scopeActiveNodeBudget, 80);
    QCOMPARE(set.value().decayIntervalHours, 0);

    // Bad values fall back to the defaults instead of refusing to start.
    auto bad = ServiceConfig::fromEnvironment(
        quietEnv({{QStringLiteral("MEMORY_ADAPTIVE_DECAY_ENABLED"), QStringLiteral("maybe")},
                  {QStringLiteral("MEMORY_SALIENCE_DECAY_FACTOR"), QStringLiteral("1.5")},
                  {QStringLiteral("MEMORY_ADAPTIVE_RECENT_DAYS"), QStringLiteral("soon")},
                  {QStringLiteral("MEMORY_DECAY_INTERVAL_HOURS"), QStringLiteral("-2")}}));
    QVERIFY(bad);
    QCOMPARE(bad.value().adaptiveDecayEnabled, true);
    QCOMPARE(bad.value().salienceDecayFactor, 0.995);
    QCOMPARE(bad.value().adaptiveRecentDays, 7);
    QCOMPARE(bad.value().decayIntervalHours, 24);
}

void tst_DecayJob::salienceDecaysInOneCommit()
{
    TempService svc(quietEnv());
    QVERIFY(write(svc.service(), {node(QStringLiteral("old"), QStringLiteral("hot"), 0.5),
                                  node(QStringLiteral("liked"), QStringLiteral("hot"), 0.5,
                                       {{QStringLiteral("feedback_quality"), 1}})}));
    const CommitRecord before = latestCommit(svc.service());

    // Thirty days on, neither node is recent.
    auto report = svc->runAdaptiveDecay(kTenant, kScope, daysLater(30));
    QVERIFY(report);
    QVERIFY(report.value().committed());
    QCOMPARE(report.value().salienceChanged, 2);
    QVERIFY(report.value().moves.isEmpty());
    QCOMPARE(byClientId(svc.service(), QStringLiteral("old")).salience, 0.5 * (1 - 0.005));
    QCOMPARE(byClientId(svc.service(), QStringLiteral("liked")).salience, 0.5 * (1 - 0.005 * 0.5));
    // Salience-only changes keep the node's commit.
    QCOMPARE(byClientId(svc.service(), QStringLiteral("old")).commitId, before.id);

    const CommitRecord commit = latestCommit(svc.service());
    QCOMPARE(commit.id, report.value().commitId);
    QCOMPARE(commit.kind, QStringLiteral("adaptive_decay"));
    QCOMPARE(commit.sequence, before.sequence + 1);
    QCOMPARE(commit.diff.value(QStringLiteral("salience"))
                 .toObject()
                 .value(QStringLiteral("changed"))
                 .toInt(),
             2);

    // A node used today decays at 0.6 of the rate.
    TempService fresh(quietEnv());
    QVERIFY(write(fresh.service(), {node(QStringLiteral("new"), QStringLiteral("hot"), 0.5)}));
    QVERIFY(fresh->runAdaptiveDecay(kTenant, kScope, daysLater(1)));
    QCOMPARE(byClientId(fresh.service(), QStringLiteral("new")).salience, 0.5 * (1 - 0.005 * 0.6));
}

void tst_DecayJob::demotionUsesThePreRunState()
{
    TempService svc(quietEnv());
    QJsonArray nodes = fillers(60); // budget max(1, floor(0.05 x 63)) = 3
    nodes.append(node(QStringLiteral("fading"), QStringLiteral("hot"), 0.30));
    nodes.append(node(QStringLiteral("borderline"), QStringLiteral("hot"), 0.3505));
    nodes.append(node(QStringLiteral("quiet-warm"), QStringLiteral("warm"), 0.10));
    QVERIFY(write(svc.service(), nodes));

    // Not yet inactive for 14 days: only salience moves.
    auto early = svc->runAdaptiveDecay(kTenant, kScope, daysLater(10));
    QVERIFY(early);
    QVERIFY(early.value().moves.isEmpty());
    QCOMPARE(byClientId(svc.service(), QStringLiteral("fading")).tier, QStringLiteral("hot"));

    // Inactive long enough. The same run decays every node (which bumps their rows) and still
    // demotes the one whose pre-run salience was under 0.35; "borderline" was 0.3505 before the
    // first run, 0.34875 after it, so it goes now too, while "quiet-warm" is not 45 days old.
    auto report = svc->runAdaptiveDecay(kTenant, kScope, daysLater(20));
    QVERIFY(report);
    QStringList moved;
    for (const TierMove &m : report.value().moves)
        moved << m.nodeId;
    QCOMPARE(moved.size(), 2);
    QVERIFY(moved.contains(byClientId(svc.service(), QStringLiteral("fading")).id));
    QVERIFY(moved.contains(byClientId(svc.service(), QStringLiteral("borderline")).id));
    QCOMPARE(byClientId(svc.service(), QStringLiteral("fading")).tier, QStringLiteral("warm"));
    QCOMPARE(byClientId(svc.service(), QStringLiteral("quiet-warm")).tier, QStringLiteral("warm"));
    QVERIFY(byClientId(svc.service(), QStringLiteral("fading")).salience < 0.30);
}

void tst_DecayJob::demotedNodeCarriesTransitionSlots()
{
    TempService svc(quietEnv());
    QJsonArray nodes = fillers(20);
    nodes.append(node(QStringLiteral("stale"), QStringLiteral("warm"), 0.05));
    QVERIFY(write(svc.service(), nodes));
    const QDateTime now = daysLater(50);
    auto report = svc->runAdaptiveDecay(kTenant, kScope, now);
    QVERIFY(report);
    QCOMPARE(report.value().moves.size(), 1);
    const TierMove move = report.value().moves.first();
    QCOMPARE(move.from, QStringLiteral("warm"));
    QCOMPARE(move.to, QStringLiteral("cold"));
    QCOMPARE(move.reason, QStringLiteral("threshold"));

    const NodeRecord stale = byClientId(svc.service(), QStringLiteral("stale"));
    QCOMPARE(stale.id, move.nodeId);
    QCOMPARE(stale.tier, QStringLiteral("cold"));
    QCOMPARE(stale.commitId, report.value().commitId);
    QCOMPARE(stale.slotData.value(QStringLiteral("last_tier_transition_ms")).toInteger(),
             now.toMSecsSinceEpoch());
    QCOMPARE(stale.slotData.value(QStringLiteral("last_tier_transition_from")).toString(),
             QStringLiteral("warm"));
    QCOMPARE(stale.slotData.value(QStringLiteral("last_tier_transition_to")).toString(),
             QStringLiteral("cold"));
    QCOMPARE(stale.slotData.value(QStringLiteral("last_tier_transition_job")).toString(),
             QStringLiteral("adaptive_decay"));

    const QJsonArray transitions
        = latestCommit(svc.service()).diff.value(QStringLiteral("transitions")).toArray();
    QCOMPARE(transitions.size(), 1);
    QCOMPARE(transitions.first().toObject().value(QStringLiteral("node_id")).toString(), stale.id);
    QCOMPARE(transitions.first().toObject().value(QStringLiteral("to")).toString(),
             QStringLiteral("cold"));

    // Cold to archive needs 120 days and salience under 0.03.
    TempService svc2(quietEnv());
    QVERIFY(write(svc2.service(), {node(QStringLiteral("ancient"), QStringLiteral("cold"), 0.02)}));
    QVERIFY(svc2->runAdaptiveDecay(kTenant, kScope, daysLater(100)).value().moves.isEmpty());
    auto archived = svc2->runAdaptiveDecay(kTenant, kScope, daysLater(130));
    QVERIFY(archived);
    QCOMPARE(archived.value().moves.size(), 1);
    QCOMPARE(byClientId(svc2.service(), QStringLiteral("ancient")).tier, QStringLiteral("archive"));
}

void tst_DecayJob::protectedAndArchivedNodesAreUntouched()
{
    TempService svc(quietEnv());
    QVERIFY(write(svc.service(), {node(QStringLiteral("pinned"), QStringLiteral("hot"), 0.1,
                                       {{QStringLiteral("pin"), true}}),
                                  node(QStringLiteral("held"), QStringLiteral("warm"), 0.01,
                                       {{QStringLiteral("legal_hold"), QStringLiteral("yes")}}),
                                  node(QStringLiteral("archived"), QStringLiteral("archive"), 0.4),
                                  node(QStringLiteral("plain"), QStringLiteral("hot"), 0.1)}));
    auto report = svc->runAdaptiveDecay(kTenant, kScope, daysLater(200));
    QVERIFY(report);
    QCOMPARE(report.value().protectedNodes, 2);
    QCOMPARE(report.value().mutableNodes, 1);
    QCOMPARE(report.value().salienceChanged, 1);
    QCOMPARE(report.value().moves.size(), 1);
    QCOMPARE(report.value().moves.first().nodeId,
             byClientId(svc.service(), QStringLiteral("plain")).id);

    const NodeRecord pinned = byClientId(svc.service(), QStringLiteral("pinned"));
    QCOMPARE(pinned.tier, QStringLiteral("hot"));
    QCOMPARE(pinned.salience, 0.1);
    const NodeRecord held = byClientId(svc.service(), QStringLiteral("held"));
    QCOMPARE(held.tier, QStringLiteral("warm"));
    QCOMPARE(held.salience, 0.01);
    const NodeRecord archived = byClientId(svc.service(), QStringLiteral("archived"));
    QCOMPARE(archived.tier, QStringLiteral("archive"));
    QCOMPARE(archived.salience, 0.4);
}

void tst_DecayJob::runWithoutChangeWritesNoCommit()
{
    TempService svc(quietEnv());
    QVERIFY(write(svc.service(), {node(QStringLiteral("pinned"), QStringLiteral("hot"), 0.5,
                                       {{QStringLiteral("pin"), true}}),
                                  node(QStringLiteral("archived"), QStringLiteral("archive"), 0.5),
                                  node(QStringLiteral("zero"), QStringLiteral("hot"), 0.0)}));
    const CommitRecord before = latestCommit(svc.service());
    QSignalSpy committed(svc.service(), &MemoryService::committed);
    auto report = svc->runAdaptiveDecay(kTenant, kScope, daysLater(3));
    QVERIFY(report);
    QVERIFY(!report.value().committed());
    QCOMPARE(latestCommit(svc.service()).id, before.id);
    QCOMPARE(committed.count(), 0);

    // An empty scope is no change either.
    auto empty = svc->runAdaptiveDecay(kTenant, QStringLiteral("empty"), daysLater(3));
    QVERIFY(empty && !empty.value().committed());
}

void tst_DecayJob::dailyBudgetLimitsTransitions()
{
    TempService svc(quietEnv());
    QJsonArray nodes = fillers(36);
    for (int i = 0; i < 4; ++i) // 40 mutable nodes: budget 2 transitions a day
        nodes.append(node(QStringLiteral("weak-%1").arg(i), QStringLiteral("hot"), 0.1 + 0.01 * i));
    QVERIFY(write(svc.service(), nodes));

    const QDateTime day = daysLater(20);
    auto first = svc->runAdaptiveDecay(kTenant, kScope, day);
    QVERIFY(first);
    QCOMPARE(first.value().dailyBudget, 2);
    QCOMPARE(first.value().moves.size(), 2);
    QCOMPARE(first.value().deferredMoves, 2);
    // Same age, so the lowest salience goes first.
    QCOMPARE(byClientId(svc.service(), QStringLiteral("weak-0")).tier, QStringLiteral("warm"));
    QCOMPARE(byClientId(svc.service(), QStringLiteral("weak-1")).tier, QStringLiteral("warm"));
    QCOMPARE(byClientId(svc.service(), QStringLiteral("weak-2")).tier, QStringLiteral("hot"));

    // Within the same 24 h the budget is spent.
    auto again = svc->runAdaptiveDecay(kTenant, kScope, day.addSecs(3600));
    QVERIFY(again);
    QCOMPARE(again.value().usedLast24h, 2);
    QVERIFY(again.value().moves.isEmpty());
    QCOMPARE(byClientId(svc.service(), QStringLiteral("weak-2")).tier, QStringLiteral("hot"));

    // A day later it is available again.
    auto nextDay = svc->runAdaptiveDecay(kTenant, kScope, day.addSecs(25 * 3600));
    QVERIFY(nextDay);
    QCOMPARE(nextDay.value().usedLast24h, 0);
    QCOMPARE(nextDay.value().moves.size(), 2);
    QCOMPARE(byClientId(svc.service(), QStringLiteral("weak-3")).tier, QStringLiteral("warm"));
}

void tst_DecayJob::hotBudgetShedsLeastSalient()
{
    TempService svc(
        quietEnv({{QStringLiteral("MEMORY_SCOPE_HOT_NODE_BUDGET"), QStringLiteral("18")}}));
    QJsonArray nodes;
    for (int i = 0; i < 20; ++i) // budget max(1, floor(1)) = 1 per day
        nodes.append(node(QStringLiteral("n-%1").arg(i), QStringLiteral("hot"), 0.5 + 0.02 * i));
    QVERIFY(write(svc.service(), nodes));
    auto report = svc->runAdaptiveDecay(kTenant, kScope, daysLater(1));
    QVERIFY(report);
    QCOMPARE(report.value().moves.size(), 1);
    QCOMPARE(report.value().deferredMoves, 1);
    QCOMPARE(report.value().moves.first().reason, QStringLiteral("hot_budget"));
    QCOMPARE(report.value().moves.first().nodeId,
             byClientId(svc.service(), QStringLiteral("n-0")).id);
    QCOMPARE(byClientId(svc.service(), QStringLiteral("n-0")).tier, QStringLiteral("warm"));
}

void tst_DecayJob::sweepCoversEveryScopeAndSignals()
{
    TempService svc(quietEnv());
    QVERIFY(write(svc.service(), {node(QStringLiteral("a"), QStringLiteral("hot"), 0.5)}));
    QJsonObject other = Test::writeBody({node(QStringLiteral("b"), QStringLiteral("hot"), 0.5)});
    other.insert(QStringLiteral("tenant_id"), QStringLiteral("acme"));
    other.insert(QStringLiteral("scope"), QStringLiteral("ops"));
    QVERIFY(svc->write(WriteRequest::fromJson(other).value(), RequestMeta()));

    QSignalSpy committed(svc.service(), &MemoryService::committed);
    const DecaySweep sweep = svc->runAdaptiveDecayAllScopes(daysLater(30));
    QVERIFY(sweep.failures.isEmpty());
    QCOMPARE(sweep.reports.size(), 2);
    QCOMPARE(committed.count(), 2);
    QStringList scopes;
    for (const QList<QVariant> &args : std::as_const(committed))
        scopes << args.at(0).toString() + QLatin1Char('/') + args.at(1).toString();
    scopes.sort();
    QCOMPARE(scopes, (QStringList{QStringLiteral("acme/ops"), QStringLiteral("default/default")}));
    auto chain = svc->verifyChain(QStringLiteral("acme"), QStringLiteral("ops"));
    QVERIFY(chain && chain.value().ok);
}

void tst_DecayJob::schedulerSweepsOnItsOwnThread()
{
    // The re-armed timer must be stopped on its own thread when the scheduler stops.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("Timers cannot")));
    TempService svc(quietEnv());
    QVERIFY(write(svc.service(), {node(QStringLiteral("a"), QStringLiteral("hot"), 0.5)}));
    MaintenanceScheduler scheduler(svc.service());
    QCOMPARE(scheduler.interval(), std::chrono::milliseconds(std::chrono::hours(24)));
    QVERIFY(!scheduler.lastSweep().isValid());
    scheduler.setInterval(std::chrono::hours(1));

    QThread *sweepThread = nullptr;
    connect(
        svc.service(), &MemoryService::committed, this,
        [&sweepThread]() { sweepThread = QThread::currentThread(); }, Qt::DirectConnection);
    QSignalSpy finished(&scheduler, &MaintenanceScheduler::sweepFinished);
    scheduler.start(std::chrono::milliseconds(0));
    QVERIFY(scheduler.isScheduled());
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().at(0).toInt(), 1); // scopes
    QCOMPARE(finished.first().at(1).toInt(), 1); // commits
    QVERIFY(sweepThread && sweepThread != QThread::currentThread());
    QVERIFY(scheduler.lastSweep().isValid());
    QVERIFY(QFile::exists(scheduler.stateFile()));
    scheduler.stop();
    QVERIFY(!scheduler.isScheduled());

    auto commits = svc->listCommits(kTenant, kScope, 0, 1);
    QVERIFY(commits && !commits.value().isEmpty());
    QCOMPARE(commits.value().first().kind, QStringLiteral("adaptive_decay"));
}

void tst_DecayJob::zeroIntervalDisablesTheSchedule()
{
    TempService svc(
        quietEnv({{QStringLiteral("MEMORY_DECAY_INTERVAL_HOURS"), QStringLiteral("0")}}));
    MaintenanceScheduler scheduler(svc.service());
    QCOMPARE(scheduler.interval().count(), 0);
    scheduler.start(std::chrono::milliseconds(0));
    QVERIFY(!scheduler.isScheduled());
}

QTEST_GUILESS_MAIN(tst_DecayJob)
#include "tst_decayjob.moc"
