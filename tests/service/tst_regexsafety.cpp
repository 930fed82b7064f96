// $regex in rule conditions cannot stall evaluation: patterns that backtrack badly are refused
// at validation and never run at evaluation, a rule holds a bounded number of them, and only
// the first kMaxRegexSubjectLength characters of a value are tested.

#include "service/api/toolrequests.h"
#include "service/api/writerequest.h"
#include "service/memoryservice.h"
#include "service/rules/conditionmatcher.h"
#include "tests/support/tempservice.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <limits>

using namespace MemoryGraph;
using namespace MemoryGraph::Rules;
using namespace MemoryGraph::Test;

namespace {

/// Makes a naive backtracking engine try every split of the a's before failing at '!'.
const QString kExplodingSubject = QStringLiteral("aaaaaaaaaaaaaaaaaaaaaaaaaaaaa!");

QJsonObject regexOn(const QString &key, const QString &pattern)
{
    return {{key, QJsonObject{{QStringLiteral("$regex"), pattern}}}};
}

QJsonObject anyOf(const QJsonArray &conditions)
{
    return {{QStringLiteral("$or"), conditions}};
}

QJsonObject context(const QString &message)
{
    return {{QStringLiteral("msg"), message}};
}

QString firstIssuePath(const Error &error)
{
    return error.details.value(QStringLiteral("issues"))
        .toArray()
        .first()
        .toObject()
        .value(QStringLiteral("path"))
        .toString();
}

/// Writes a shared rule node with these conditions and tries to make it enforce.
Result<RuleStateOutcome> writeAndActivate(MemoryService *service, const QJsonObject &ifJson,
                                          const QJsonArray &exceptions = {})
{
    QJsonObject ruleSlots{{QStringLiteral("if"), ifJson}, {QStringLiteral("then"), QJsonObject()}};
    if (!exceptions.isEmpty())
        ruleSlots.insert(QStringLiteral("exceptions"), exceptions);
    const QJsonObject rule{{QStringLiteral("client_id"), QStringLiteral("rule")},
                           {QStringLiteral("type"), QStringLiteral("rule")},
                           {QStringLiteral("text_summary"), QStringLiteral("regex rule")},
                           {QStringLiteral("memory_lane"), QStringLiteral("shared")},
                           {QStringLiteral("slots"), ruleSlots}};
    auto write = WriteRequest::fromJson(writeBody({rule}));
    if (!write)
        return write.error();
    auto written = service->write(write.value(), RequestMeta{});
    if (!written)
        return written.error();
    auto state = RuleStateRequest::fromJson(
        {{QStringLiteral("rule_node_id"), written.value().nodes.first().id},
         {QStringLiteral("state"), QStringLiteral("ACTIVE")},
         {QStringLiteral("input_text"), QStringLiteral("activate")}});
    if (!state)
        return state.error();
    return service->setRuleState(state.value(), RequestMeta{});
}

/// Patterns the safety check accepts, chosen to make the engine work on a subject that never
/// matches: counted repeats at their widest span, separated runs, a wildcard, classes.
QStringList acceptedHeavyPatterns()
{
    return {
        QStringLiteral("\\w{0,16}-\\w{0,16}-\\w{0,16}-\\w{0,16}-\\w{0,16}-\\w{0,16}-\\w{0,16}-"
                       "\\w{0,16}-\\w{0,16}-\\w{0,16}-\\w{0,16}-\\w{0,16}\\d"),
        QStringLiteral(".{0,16}\\d"),
        QStringLiteral("(?:\\w\\w\\w\\w){0,16}\\d"),
        QStringLiteral("\\w{1,17}\\d"),
        QStringLiteral("a.*\\d"),
        QStringLiteral("\\w+\\s+\\w+\\d"),
        QStringLiteral("[a-z]+[0-9]{2,3}x"),
        QStringLiteral("^(?:deploy|release|rollback)-\\w+$"),
        QStringLiteral("(?i)\\bA{2,18}\\d"),
        QStringLiteral("[^-]*-\\d"),
        QStringLiteral("\\w{64}\\d"),
        QStringLiteral("\\S+\\d"),
    };
}

/// A subject far longer than the tested prefix, shaped so the patterns above fail late.
QString heavySubject()
{
    QString s;
    s.reserve(20000);
    for (int i = 0; i < 20000; ++i)
        s.append(i % 17 == 16 ? QChar(u'-') : QChar(u'a'));
    return s;
}

} // namespace

class tst_RegexSafety : public QObject
{
    Q_OBJECT

private slots:
    void pathologicalPatternsAreRefused_data();
    void pathologicalPatternsAreRefused();
    void commonPatternsAreAccepted_data();
    void commonPatternsAreAccepted();
    void compiledOncePerPattern();
    void regexCountPerRuleIsBounded();
    void regexCountSpansIfAndExceptions();
    void activationEnforcesTheLimits();
    void storedRuleOverTheLimitNeverMatches();
    void onlyTheSubjectPrefixIsTested();
    void maximumRuleEvaluatesWithinBudget();
};

void tst_RegexSafety::pathologicalPatternsAreRefused_data()
{
    QTest::addColumn<QString>("pattern");
    const auto row
        = [](const char *pattern) { QTest::newRow(pattern) << QString::fromUtf8(pattern); };
    // Nested and overlapping quantifiers.
    row("(a+)+");
    row("(a*)*");
    row("(a|a)*");
    row("(.*)*");
    row("(\\w+\\s?)+");
    row("(a+)+$");
    row("((a|b)c)*");
    // Adjacent repeats competing for the same characters.
    row("\\d+\\d+");
    row(".*.*");
    row("a*a*");
    row("\\w+\\w+$");
    row("\\d+\\.?\\d+$");
    row("a+a?a+");
    row("\\w+a\\w+$");
    row("(\\d+)(\\d+)");
    row("[a-z]+[a-f]+$");
    row("a*b*a*");
    row("\\w*\\d+");
    row("(?:a+)?a+");
    // Wide counted repeats, recursion, verbs and exotic groups.
    row(".{0,2000}\\d");
    row("a{1,1000}");
    row("(?:ab){300}");
    row("(a)(?1)*");
    row("(?R)?a");
    row("(*LIMIT_MATCH=99999999)a+");
    row("(?>a+)+");
    row("(?|a|b)+");
    row("\\Qa+\\E+");
}

void tst_RegexSafety::pathologicalPatternsAreRefused()
{
    QFETCH(QString, pattern);
    QVERIFY(!isSafeRegex(pattern));
    QVERIFY(!compiledRegex(pattern));

    // Refused at validation, naming the condition.
    const Result<void> valid
        = validateCondition(regexOn(QStringLiteral("msg"), pattern), QStringLiteral("slots.if"));
    QVERIFY(!valid.ok());
    QCOMPARE(valid.error().status, 400);
    QCOMPARE(valid.error().code, QStringLiteral("invalid_request"));
    QCOMPARE(firstIssuePath(valid.error()), QStringLiteral("slots.if.msg.$regex"));

    // A rule stored before the check tightened evaluates without running it: no match.
    const QJsonObject ifJson = regexOn(QStringLiteral("msg"), pattern);
    QVERIFY(!ruleMatchesContext(ifJson, QJsonValue(), context(kExplodingSubject)));
    QVERIFY(!ruleMatchesContext(ifJson, QJsonValue(), context(QString(4000, u'a'))));
}

void tst_RegexSafety::commonPatternsAreAccepted_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("subject");
    const auto row = [](const char *pattern, const char *subject) {
        QTest::newRow(pattern) << QString::fromUtf8(pattern) << QString::fromUtf8(subject);
    };
    row("^deploy$", "deploy");
    row("\\w+\\s+\\w+", "rm -rf now");
    row("^[a-z0-9_-]+$", "tool_name-2");
    row("^\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$", "10.0.0.1");
    row("^\\w+@\\w+\\.\\w+$", "ops@example.org");
    row("(prod|stage)", "staging-stage");
    row("^[a-f0-9]{64}$", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    row("^a.*b$", "a---b");
    row("\\s*,\\s*", "a , b");
    row("(?i)^deploy", "DEPLOY now");
    row("^v\\d+\\.\\d+$", "v1.2");
    row("^(?<verb>get|put) /v1/", "put /v1/memory");
    row("[(|)]+x*", "(|)xx");
    row("^\\S+\\s\\S+$", "two words");
}

void tst_RegexSafety::commonPatternsAreAccepted()
{
    QFETCH(QString, pattern);
    QFETCH(QString, subject);
    QVERIFY(isSafeRegex(pattern));
    const Result<void> valid
        = validateCondition(regexOn(QStringLiteral("msg"), pattern), QStringLiteral("slots.if"));
    QVERIFY2(valid.ok(), valid.ok() ? "" : qPrintable(valid.error().message));
    QVERIFY(matchCondition(regexOn(QStringLiteral("msg"), pattern), context(subject)));
}

void tst_RegexSafety::compiledOncePerPattern()
{
    const QString pattern = QStringLiteral("^cached-\\d+$");
    const auto first = compiledRegex(pattern);
    const auto second = compiledRegex(pattern);
    QVERIFY(first && second);
    QVERIFY(first->isValid());
    QCOMPARE(*first, *second);
    QVERIFY(first->match(QStringLiteral("cached-42")).hasMatch());
    QVERIFY(!compiledRegex(QStringLiteral("a{2,1}"))); // safe shape, does not compile
}

void tst_RegexSafety::regexCountPerRuleIsBounded()
{
    QJsonArray conditions;
    for (int i = 0; i < kMaxRegexConditionsPerRule; ++i)
        conditions.append(regexOn(QStringLiteral("msg"), QStringLiteral("^m%1$").arg(i)));
    QVERIFY(validateCondition(anyOf(conditions), QStringLiteral("slots.if")).ok());

    conditions.append(regexOn(QStringLiteral("msg"), QStringLiteral("^one-too-many$")));
    const Result<void> valid = validateCondition(anyOf(conditions), QStringLiteral("slots.if"));
    QVERIFY(!valid.ok());
    QCOMPARE(valid.error().status, 400);
    QCOMPARE(firstIssuePath(valid.error()),
             QStringLiteral("slots.if.$or[%1].msg.$regex").arg(kMaxRegexConditionsPerRule));
    QVERIFY2(valid.error().message.contains(QString::number(kMaxRegexConditionsPerRule)),
             qPrintable(valid.error().message));
}

void tst_RegexSafety::regexCountSpansIfAndExceptions()
{
    const int inIf = kMaxRegexConditionsPerRule - 2;
    QJsonArray ifConditions;
    for (int i = 0; i < inIf; ++i)
        ifConditions.append(regexOn(QStringLiteral("msg"), QStringLiteral("^m%1$").arg(i)));
    const QJsonArray exceptions{
        regexOn(QStringLiteral("a"), QStringLiteral("^x$")),
        QJsonObject{{QStringLiteral("$and"),
                     QJsonArray{regexOn(QStringLiteral("b"), QStringLiteral("^y$")),
                                regexOn(QStringLiteral("c"), QStringLiteral("^z$"))}}}};
    const Result<void> valid
        = validateRuleConditions(anyOf(ifConditions), exceptions, QStringLiteral("slots.if"),
                                 QStringLiteral("slots.exceptions"));
    QVERIFY(!valid.ok());
    QCOMPARE(firstIssuePath(valid.error()), QStringLiteral("slots.exceptions[1].$and[1].c.$regex"));

    // Exceptions are checked for unsafe patterns too, not only counted.
    const Result<void> unsafe = validateRuleConditions(
        QJsonObject(), QJsonArray{regexOn(QStringLiteral("msg"), QStringLiteral("(a+)+"))},
        QStringLiteral("slots.if"), QStringLiteral("slots.exceptions"));
    QVERIFY(!unsafe.ok());
    QCOMPARE(firstIssuePath(unsafe.error()), QStringLiteral("slots.exceptions[0].msg.$regex"));

    QVERIFY(validateRuleConditions(anyOf(ifConditions), QJsonArray{exceptions.first()},
                                   QStringLiteral("slots.if"), QStringLiteral("slots.exceptions"))
                .ok());
}

void tst_RegexSafety::activationEnforcesTheLimits()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    TempService svc(env);
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));

    QJsonArray conditions;
    for (int i = 0; i < kMaxRegexConditionsPerRule; ++i)
        conditions.append(regexOn(QStringLiteral("msg"), QStringLiteral("^m%1$").arg(i)));
    QJsonArray tooMany = conditions;
    tooMany.append(regexOn(QStringLiteral("msg"), QStringLiteral("^over$")));

    const auto overInIf = writeAndActivate(svc.service(), anyOf(tooMany));
    QVERIFY(!overInIf.ok());
    QCOMPARE(overInIf.error().status, 400);
    QCOMPARE(firstIssuePath(overInIf.error()),
             QStringLiteral("slots.if.$or[%1].msg.$regex").arg(kMaxRegexConditionsPerRule));

    const auto overWithExceptions = writeAndActivate(
        svc.service(), anyOf(conditions), {regexOn(QStringLiteral("msg"), QStringLiteral("^x$"))});
    QVERIFY(!overWithExceptions.ok());
    QCOMPARE(firstIssuePath(overWithExceptions.error()),
             QStringLiteral("slots.exceptions[0].msg.$regex"));

    const auto unsafe = writeAndActivate(
        svc.service(), regexOn(QStringLiteral("msg"), QStringLiteral("\\d+\\d+")));
    QVERIFY(!unsafe.ok());
    QCOMPARE(firstIssuePath(unsafe.error()), QStringLiteral("slots.if.msg.$regex"));

    const auto atLimit = writeAndActivate(svc.service(), anyOf(conditions));
    QVERIFY2(atLimit.ok(), atLimit.ok() ? "" : qPrintable(atLimit.error().message));
}

void tst_RegexSafety::storedRuleOverTheLimitNeverMatches()
{
    // Thousands of regex conditions, each of which would match: the rule is not evaluated.
    QJsonArray many;
    for (int i = 0; i < 5000; ++i)
        many.append(regexOn(QStringLiteral("msg"), QStringLiteral("^hello%1|hello").arg(i)));
    const QJsonObject ifJson{{QStringLiteral("$and"), many}};
    QVERIFY(!ruleMatchesContext(ifJson, QJsonValue(), context(QStringLiteral("hello"))));
    QVERIFY(!matchCondition(ifJson, context(QStringLiteral("hello"))));

    // At the limit the same conditions are evaluated and match.
    QJsonArray atLimit;
    for (int i = 0; i < kMaxRegexConditionsPerRule; ++i)
        atLimit.append(many.at(i));
    const QJsonObject allowed{{QStringLiteral("$and"), atLimit}};
    QVERIFY(ruleMatchesContext(allowed, QJsonValue(), context(QStringLiteral("hello"))));

    // Exceptions count toward the same limit.
    const QJsonArray exceptions{regexOn(QStringLiteral("other"), QStringLiteral("^x$"))};
    QVERIFY(!ruleMatchesContext(allowed, exceptions, context(QStringLiteral("hello"))));
}

void tst_RegexSafety::onlyTheSubjectPrefixIsTested()
{
    const QJsonObject needle = regexOn(QStringLiteral("msg"), QStringLiteral("needle"));
    const QString padding(int(kMaxRegexSubjectLength) - 6, u'a');
    QVERIFY(matchCondition(needle, context(padding + QStringLiteral("needle"))));
    QVERIFY(!matchCondition(needle, context(padding + QStringLiteral("aneedle"))));

    // The cut never splits a surrogate pair (which PCRE would refuse as invalid UTF-16).
    const QString emoji = QString::fromUtf8("\xF0\x9F\x98\x80");
    QString split(int(kMaxRegexSubjectLength) - 1, u'a');
    split += emoji;
    QCOMPARE(regexSubject(split).size(), kMaxRegexSubjectLength - 1);
    QVERIFY(matchCondition(regexOn(QStringLiteral("msg"), QStringLiteral("^a+$")), context(split)));
}

void tst_RegexSafety::maximumRuleEvaluatesWithinBudget()
{
    // The one timing assertion: a rule at the regex limit, every pattern accepted but chosen to
    // work hard and fail, against a long subject. Best of three runs (the first one compiles),
    // so a busy machine does not fail it; a stalling pattern would fail all three.
    const QStringList heavy = acceptedHeavyPatterns();
    QJsonArray conditions;
    for (int i = 0; i < kMaxRegexConditionsPerRule; ++i) {
        const QString &pattern = heavy.at(i % heavy.size());
        QVERIFY2(isSafeRegex(pattern), qPrintable(pattern));
        conditions.append(regexOn(QStringLiteral("msg"), pattern));
    }
    const QJsonObject ifJson = anyOf(conditions); // $or: every condition runs, none matches
    QVERIFY(validateCondition(ifJson, QStringLiteral("slots.if")).ok());
    const QJsonObject subject = context(heavySubject());

    qint64 bestNs = std::numeric_limits<qint64>::max();
    for (int run = 0; run < 3; ++run) {
        QElapsedTimer timer;
        timer.start();
        const bool matched = ruleMatchesContext(ifJson, QJsonValue(), subject);
        bestNs = std::min(bestNs, timer.nsecsElapsed());
        QVERIFY(!matched);
    }
    qInfo("best evaluation of %d regex conditions: %.2f ms", kMaxRegexConditionsPerRule,
          double(bestNs) / 1e6);
    QVERIFY2(bestNs < 50 * 1000 * 1000,
             qPrintable(QStringLiteral("%1 ms").arg(double(bestNs) / 1e6)));
}

QTEST_GUILESS_MAIN(tst_RegexSafety)
#include "tst_regexsafety.moc"
