#include "service/rules/conditionmatcher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Rules;

namespace {

// Any JSON text, or "undefined" for a missing value.
QJsonValue json(const QString &text)
{
    if (text == u"undefined")
        return QJsonValue(QJsonValue::Undefined);
    const QJsonDocument doc = QJsonDocument::fromJson('[' + text.toUtf8() + ']');
    if (!doc.isArray() || doc.array().size() != 1)
        qFatal("bad JSON in test data: %s", qPrintable(text));
    return doc.array().first();
}

} // namespace

class tst_RuleCondition : public QObject
{
    Q_OBJECT

private slots:
    void matches_data();
    void matches();
    void nestedEqualsDotted_data();
    void nestedEqualsDotted();
    void valueAtPath_data();
    void valueAtPath();
    void ruleMatchesContext_data();
    void ruleMatchesContext();
    void conditionPaths_data();
    void conditionPaths();
    void safeRegex_data();
    void safeRegex();
    void validateConditionAccepts_data();
    void validateConditionAccepts();
    void validateConditionRejects_data();
    void validateConditionRejects();
};

void tst_RuleCondition::matches_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("expected");
    const auto row = [](const char *name, const char *pattern, const char *value, bool expected) {
        QTest::newRow(name) << QString::fromUtf8(pattern) << QString::fromUtf8(value) << expected;
    };
    // $eq / $ne
    row("$eq number", R"({"$eq":1})", "1", true);
    row("$eq strict type", R"({"$eq":1})", R"("1")", false);
    row("$eq deep object", R"({"$eq":{"a":[1,2]}})", R"({"a":[1,2]})", true);
    row("$eq array order matters", R"({"$eq":{"a":[1,2]}})", R"({"a":[2,1]})", false);
    row("$eq object key set", R"({"$eq":{"a":1}})", R"({"a":1,"b":2})", false);
    row("$eq null", R"({"$eq":null})", "null", true);
    row("$eq null vs missing", R"({"$eq":null})", "undefined", false);
    row("$ne different", R"({"$ne":1})", "2", true);
    row("$ne equal", R"({"$ne":1})", "1", false);
    row("$ne missing", R"({"$ne":1})", "undefined", true);
    row("$ne null", R"({"$ne":null})", "null", false);
    // $exists: null exists, only undefined is missing
    row("$exists true null", R"({"$exists":true})", "null", true);
    row("$exists true missing", R"({"$exists":true})", "undefined", false);
    row("$exists false missing", R"({"$exists":false})", "undefined", true);
    row("$exists false null", R"({"$exists":false})", "null", false);
    row("$exists truthy 1", R"({"$exists":1})", "0", true);
    row("$exists falsy empty string", R"({"$exists":""})", "undefined", true);
    // $in / $nin
    row("$in hit", R"({"$in":["a","b"]})", R"("a")", true);
    row("$in miss", R"({"$in":["a","b"]})", R"("c")", false);
    row("$in strict type", R"({"$in":[1]})", R"("1")", false);
    row("$in deep element", R"({"$in":[{"k":1}]})", R"({"k":1})", true);
    row("$in non-array", R"({"$in":"a"})", R"("a")", false);
    row("$in missing", R"({"$in":["a"]})", "undefined", false);
    row("$nin miss", R"({"$nin":["a"]})", R"("b")", true);
    row("$nin hit", R"({"$nin":["a"]})", R"("a")", false);
    row("$nin non-array", R"({"$nin":"a"})", R"("b")", false);
    row("$nin missing", R"({"$nin":["a"]})", "undefined", true);
    // comparisons: value must be a number, the operand goes through Number()
    row("$gt true", R"({"$gt":5})", "6", true);
    row("$gt equal", R"({"$gt":5})", "5", false);
    row("$gte equal", R"({"$gte":5})", "5", true);
    row("$gte below", R"({"$gte":5})", "4.5", false);
    row("$lt true", R"({"$lt":5})", "4", true);
    row("$lt equal", R"({"$lt":5})", "5", false);
    row("$lte equal", R"({"$lte":5})", "5", true);
    row("$lte above", R"({"$lte":5})", "6", false);
    row("$gt string value", R"({"$gt":5})", R"("6")", false);
    row("$gt null value", R"({"$gt":-1})", "null", false);
    row("$gt bool value", R"({"$gt":0})", "true", false);
    row("$gt missing value", R"({"$gt":0})", "undefined", false);
    row("$gt numeric string operand", R"({"$gt":"5"})", "6", true);
    row("$gt NaN operand", R"({"$gt":"abc"})", "6", false);
    row("$lt null operand is 0", R"({"$lt":null})", "-1", true);
    // $contains
    row("$contains substring", R"({"$contains":"ell"})", R"("hello")", true);
    row("$contains case-sensitive", R"({"$contains":"ELL"})", R"("hello")", false);
    row("$contains array element", R"({"$contains":"a"})", R"(["b","a"])", true);
    row("$contains array number", R"({"$contains":1})", "[2,1]", true);
    row("$contains array deep", R"({"$contains":[1]})", "[[1],2]", true);
    row("$contains array miss", R"({"$contains":"c"})", R"(["a"])", false);
    row("$contains number operand on string", R"({"$contains":1})", R"("1")", false);
    row("$contains on number", R"({"$contains":"1"})", "1", false);
    row("$contains on object", R"({"$contains":"a"})", R"({"a":1})", false);
    // $regex
    row("$regex match", R"({"$regex":"^de"})", R"("deploy")", true);
    row("$regex anywhere", R"({"$regex":"ploy"})", R"("deploy")", true);
    row("$regex anchored miss", R"({"$regex":"^de"})", R"("redeploy")", false);
    row("$regex flag-less", R"({"$regex":"^De"})", R"("deploy")", false);
    row("$regex non-string value", R"({"$regex":"5"})", "5", false);
    row("$regex non-string operand", R"({"$regex":5})", R"("5")", false);
    row("$regex unsafe", R"({"$regex":"(a+)+$"})", R"("aaaa")", false);
    row("$regex does not compile", R"j({"$regex":"a)"})j", R"j("a)")j", false);
    row("unknown operator", R"({"$foo":1})", "1", false);
    // primitives
    row("number equal", "1", "1", true);
    row("integer equals double", "1", "1.0", true);
    row("number vs string", "1", R"("1")", false);
    row("string equal", R"("a")", R"("a")", true);
    row("bool vs number", "true", "1", false);
    row("null equals null", "null", "null", true);
    row("null vs missing", "null", "undefined", false);
    row("false vs missing", "false", "undefined", false);
    // combinators
    row("empty $and", R"({"$and":[]})", "5", true);
    row("empty $or", R"({"$or":[]})", "5", false);
    row("$and all", R"({"$and":[{"a":1},{"b":2}]})", R"({"a":1,"b":2})", true);
    row("$and one fails", R"({"$and":[{"a":1},{"b":2}]})", R"({"a":1,"b":3})", false);
    row("$and non-array", R"({"$and":{"a":1}})", R"({"a":1})", false);
    row("$or any", R"({"$or":[{"a":1},{"a":2}]})", R"({"a":2})", true);
    row("$or none", R"({"$or":[{"a":1},{"a":2}]})", R"({"a":3})", false);
    row("$or non-array", R"({"$or":{"a":1}})", R"({"a":1})", false);
    row("$not", R"({"$not":{"a":1}})", R"({"a":2})", true);
    row("$not negates", R"({"$not":{"a":1}})", R"({"a":1})", false);
    row("$and wins over $or", R"({"$and":[],"$or":[]})", "1", true);
    row("$or wins over $not", R"({"$or":[{"a":1}],"$not":{"a":1}})", R"({"a":1})", true);
    row("$and ignores sibling keys", R"({"$and":[{"a":1}],"b":2})", R"({"a":1,"b":3})", true);
    row("range via $and", R"({"$and":[{"$gte":1},{"$lte":5}]})", "3", true);
    row("range via $and outside", R"({"$and":[{"$gte":1},{"$lte":5}]})", "6", false);
    // several operators in one object are literal keys, not a range
    row("multi-operator never matches", R"({"$gte":1,"$lte":5})", "3", false);
    row("multi-operator literal keys", R"({"$gte":1,"$lte":5})", R"({"$gte":1,"$lte":5})", true);
    // arrays: subset, order and multiplicity ignored
    row("array subset", R"(["a"])", R"(["b","a"])", true);
    row("array multiplicity ignored", R"(["a","a"])", R"(["a"])", true);
    row("array missing element", R"(["c"])", R"(["a","b"])", false);
    row("array deep elements", R"([{"x":1}])", R"([{"x":1},2])", true);
    row("empty array pattern", "[]", "[]", true);
    row("array vs non-array", R"(["a"])", R"("a")", false);
    row("array elements are literals", R"([{"$gt":1}])", "[2]", false);
    // objects
    row("empty object vs missing", "{}", "undefined", true);
    row("empty object vs number", "{}", "5", true);
    row("object vs missing", R"({"a":1})", "undefined", false);
    row("object extra value keys", R"({"a":1})", R"({"a":1,"b":2})", true);
    row("object nested", R"({"a":{"b":{"$in":[1,2]}}})", R"({"a":{"b":2}})", true);
    row("object key missing", R"({"a":1})", R"({"b":1})", false);
    row("object through primitive", R"({"a":{"b":1}})", R"({"a":5})", false);
    row("numeric key indexes array", R"({"0":"x"})", R"(["x"])", true);
    // dotted paths
    row("dotted key", R"({"agent.id":"a1"})", R"({"agent":{"id":"a1"}})", true);
    row("dotted key miss", R"({"agent.id":"a1"})", R"({"agent":{"id":"a2"}})", false);
    row("dotted array index", R"({"task.labels.0":"x"})", R"({"task":{"labels":["x","y"]}})", true);
    row("dotted array index 1", R"({"task.labels.1":"y"})", R"({"task":{"labels":["x","y"]}})",
        true);
    row("dotted index out of range", R"({"task.labels.2":{"$exists":false}})",
        R"({"task":{"labels":["x"]}})", true);
    row("dotted through primitive", R"({"a.b":{"$exists":false}})", R"({"a":5})", true);
    row("dotted non-canonical index", R"({"l.01":{"$exists":false}})", R"({"l":["a","b"]})", true);
    row("dotted relative to nesting", R"({"ctx":{"agent.id":"a1"}})",
        R"({"ctx":{"agent":{"id":"a1"}}})", true);
    row("$ne on missing path", R"({"agent.id":{"$ne":"a1"}})", "{}", true);
}

void tst_RuleCondition::matches()
{
    QFETCH(QString, pattern);
    QFETCH(QString, value);
    QFETCH(bool, expected);
    QCOMPARE(matchCondition(json(pattern), json(value)), expected);
}

void tst_RuleCondition::nestedEqualsDotted_data()
{
    QTest::addColumn<QString>("context");
    QTest::newRow("match") << R"({"agent":{"id":"a1","team_id":"t"}})";
    QTest::newRow("other id") << R"({"agent":{"id":"a2"}})";
    QTest::newRow("no agent") << R"({"intent":"x"})";
    QTest::newRow("agent primitive") << R"({"agent":"a1"})";
}

void tst_RuleCondition::nestedEqualsDotted()
{
    QFETCH(QString, context);
    const QJsonValue ctx = json(context);
    QCOMPARE(matchCondition(json(R"({"agent":{"id":"a1"}})"), ctx),
             matchCondition(json(R"({"agent.id":"a1"})"), ctx));
}

void tst_RuleCondition::valueAtPath_data()
{
    QTest::addColumn<QString>("root");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected");
    const QString root = QStringLiteral(R"({"a":{"b":[10,{"c":null}]},"s":"str"})");
    QTest::newRow("object") << root << "a"
                            << R"({"b":[10,{"c":null}]})";
    QTest::newRow("index") << root << "a.b.0"
                           << "10";
    QTest::newRow("null leaf") << root << "a.b.1.c"
                               << "null";
    QTest::newRow("missing") << root << "a.x"
                             << "undefined";
    QTest::newRow("out of range") << root << "a.b.5"
                                  << "undefined";
    QTest::newRow("negative index") << root << "a.b.-1"
                                    << "undefined";
    QTest::newRow("through string") << root << "s.length"
                                    << "undefined";
    QTest::newRow("through null") << root << "a.b.1.c.d"
                                  << "undefined";
}

void tst_RuleCondition::valueAtPath()
{
    QFETCH(QString, root);
    QFETCH(QString, path);
    QFETCH(QString, expected);
    const QJsonValue got = Rules::valueAtPath(json(root), path);
    QCOMPARE(got.type(), json(expected).type());
    QCOMPARE(got, json(expected));
}

void tst_RuleCondition::ruleMatchesContext_data()
{
    QTest::addColumn<QString>("ifJson");
    QTest::addColumn<QString>("exceptions");
    QTest::addColumn<bool>("expected");
    const auto row
        = [](const char *name, const char *ifJson, const char *exceptions, bool expected) {
              QTest::newRow(name) << QString::fromUtf8(ifJson) << QString::fromUtf8(exceptions)
                                  << expected;
          };
    // context is {"intent":"deploy","env":"prod"}
    row("missing if", "undefined", "undefined", true);
    row("null if", "null", "[]", true);
    row("false if", "false", "[]", true);
    row("empty if", "{}", "[]", true);
    row("if matches", R"({"intent":"deploy"})", "[]", true);
    row("if fails", R"({"intent":"review"})", "[]", false);
    row("exception vetoes", R"({"intent":"deploy"})", R"([{"env":"prod"}])", false);
    row("exception does not apply", R"({"intent":"deploy"})", R"([{"env":"stage"}])", true);
    row("any exception vetoes", "{}", R"([{"env":"stage"},{"intent":"deploy"}])", false);
    row("empty exception disables", R"({"intent":"deploy"})", "[{}]", false);
    row("non-array exceptions ignored", R"({"intent":"deploy"})", R"({"env":"prod"})", true);
    row("failing if ignores exceptions", R"({"intent":"x"})", "[]", false);
}

void tst_RuleCondition::ruleMatchesContext()
{
    QFETCH(QString, ifJson);
    QFETCH(QString, exceptions);
    QFETCH(bool, expected);
    const QJsonValue context = json(R"({"intent":"deploy","env":"prod"})");
    QCOMPARE(Rules::ruleMatchesContext(json(ifJson), json(exceptions), context), expected);
}

void tst_RuleCondition::conditionPaths_data()
{
    QTest::addColumn<QString>("ifJson");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("reference example")
        << R"({"intent":"deploy","agent":{"id":{"$in":["a"]}},"$or":[{"env":"prod"},{"env":"stage"}]})"
        << QStringList{"agent.id", "env", "intent"};
    QTest::newRow("empty") << "{}" << QStringList();
    QTest::newRow("missing") << "undefined" << QStringList();
    QTest::newRow("dotted key literal")
        << R"({"agent.id":"a","task.labels.0":"x"})" << QStringList{"agent.id", "task.labels.0"};
    QTest::newRow("$not keeps prefix")
        << R"({"env":{"$not":{"$in":["prod"]}}})" << QStringList{"env"};
    QTest::newRow("$and keeps prefix")
        << R"({"n":{"$and":[{"$gte":1},{"$lte":5}]}})" << QStringList{"n"};
    QTest::newRow("top-level operator has no path") << R"({"$regex":"x"})" << QStringList();
    QTest::newRow("empty object and array leaves")
        << R"({"a":{},"b":[1],"c":null})" << QStringList{"a", "b", "c"};
    QTest::newRow("de-duplicated")
        << R"({"$or":[{"x":1},{"x":2}],"y":{"z":1}})" << QStringList{"x", "y.z"};
    QTest::newRow("plain ascending order")
        << R"({"b":1,"B":1,"a.z":1,"a":{"b":1}})" << QStringList{"B", "a.b", "a.z", "b"};
}

void tst_RuleCondition::conditionPaths()
{
    QFETCH(QString, ifJson);
    QFETCH(QStringList, expected);
    QCOMPARE(Rules::conditionPaths(json(ifJson)), expected);
}

void tst_RuleCondition::safeRegex_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<bool>("safe");
    QTest::newRow("anchored literal") << "^deploy$" << true;
    QTest::newRow("one wildcard") << "^a.*b$" << true;
    QTest::newRow("class and braces") << "[a-z]+\\d{2,3}" << true;
    QTest::newRow("non-capturing group quantified") << "(?:ab)+" << true;
    QTest::newRow("named group") << "(?<n>ab)c" << true;
    QTest::newRow("escaped parens") << "\\(a+\\)+" << true;
    QTest::newRow("class hides group chars") << "[(|)]+x*" << true;
    QTest::newRow("lazy quantifier") << "a+?b" << true;
    QTest::newRow("literal brace") << "a{x}" << true;
    QTest::newRow("alternation not quantified") << "(prod|stage)" << true;
    QTest::newRow("24 quantifiers") << QString(QStringLiteral("a?")).repeated(24) << true;
    QTest::newRow("32 groups") << QString(QStringLiteral("(a)")).repeated(32) << true;
    QTest::newRow("256 chars") << QString(256, u'a') << true;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("too long") << QString(257, u'a') << false;
    QTest::newRow("back-reference") << "(a)\\1" << false;
    QTest::newRow("named back-reference") << "(?<n>a)\\k<n>" << false;
    QTest::newRow("look-ahead") << "a(?=b)" << false;
    QTest::newRow("negative look-ahead") << "a(?!b)" << false;
    QTest::newRow("look-behind") << "(?<=a)b" << false;
    QTest::newRow("negative look-behind") << "(?<!a)b" << false;
    QTest::newRow("nested quantifier") << "(a+)+" << false;
    QTest::newRow("nested star") << "(a*)*" << false;
    QTest::newRow("nested brace") << "(a{2})+" << false;
    QTest::newRow("nested deeper") << "((a+)b)*" << false;
    QTest::newRow("quantified alternation") << "(a|aa)+" << false;
    QTest::newRow("quantified alternation brace") << "(x|y){2,}" << false;
    QTest::newRow("two .*") << ".*a.*" << false;
    QTest::newRow(".+ and .*") << "a.+b.*" << false;
    QTest::newRow("25 quantifiers") << QString(QStringLiteral("a?")).repeated(25) << false;
    QTest::newRow("33 groups") << QString(QStringLiteral("(a)")).repeated(33) << false;
    QTest::newRow("dangling escape") << "abc\\" << false;
    QTest::newRow("unterminated class") << "[abc" << false;
    QTest::newRow("unbalanced parens") << "a)" << false;
}

void tst_RuleCondition::safeRegex()
{
    QFETCH(QString, pattern);
    QFETCH(bool, safe);
    QCOMPARE(isSafeRegex(pattern), safe);
}

void tst_RuleCondition::validateConditionAccepts_data()
{
    QTest::addColumn<QString>("ifJson");
    QTest::newRow("empty") << "{}";
    QTest::newRow("missing") << "undefined";
    QTest::newRow("literals") << R"({"intent":"deploy","tags":["a"],"n":null})";
    QTest::newRow("operators")
        << R"({"agent.id":{"$in":["a"]},"n":{"$gte":1},"e":{"$exists":true}})";
    QTest::newRow("range with $and") << R"({"n":{"$and":[{"$gte":1},{"$lte":5}]}})";
    QTest::newRow("$or and $not")
        << R"({"$or":[{"env":{"$not":{"$eq":"prod"}}},{"msg":{"$regex":"^de"}}]})";
    QTest::newRow("$contains any operand") << R"({"a":{"$contains":{"k":1}}})";
    QTest::newRow("literal operand not inspected") << R"({"a":{"$eq":{"$foo":1,"$bar":2}}})";
}

void tst_RuleCondition::validateConditionAccepts()
{
    QFETCH(QString, ifJson);
    const Result<void> r = validateCondition(json(ifJson), QStringLiteral("if_json"));
    QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
}

void tst_RuleCondition::validateConditionRejects_data()
{
    QTest::addColumn<QString>("ifJson");
    QTest::addColumn<QString>("path");
    const auto row = [](const char *name, const char *ifJson, const char *path) {
        QTest::newRow(name) << QString::fromUtf8(ifJson) << QString::fromUtf8(path);
    };
    row("unknown operator", R"({"x":{"$foo":1}})", "if_json.x.$foo");
    row("$in needs array", R"({"x":{"$in":"a"}})", "if_json.x.$in");
    row("$nin needs array", R"({"x":{"$nin":1}})", "if_json.x.$nin");
    row("$and needs array", R"({"$and":{"a":1}})", "if_json.$and");
    row("$or needs array", R"({"$or":"a"})", "if_json.$or");
    row("$gt needs number", R"({"$or":[{"a":1},{"b":{"$gt":"5"}}]})", "if_json.$or[1].b.$gt");
    row("$lte needs number", R"({"x":{"$lte":null}})", "if_json.x.$lte");
    row("$regex needs string", R"({"x":{"$regex":5}})", "if_json.x.$regex");
    row("$regex unsafe", R"({"x":{"$regex":"(a+)+"}})", "if_json.x.$regex");
    row("$regex invalid", R"({"x":{"$regex":"a{2,1}"}})", "if_json.x.$regex");
    row("multi-operator object", R"({"x":{"$gte":1,"$lte":5}})", "if_json.x");
    row("operator beside key", R"({"x":{"$in":[1],"y":2}})", "if_json.x");
    row("combinator beside key", R"({"$or":[{"a":1}],"intent":"x"})", "if_json");
    row("two combinators", R"({"$and":[],"$or":[]})", "if_json");
    row("inside $not", R"({"$not":{"x":{"$bad":1}}})", "if_json.$not.x.$bad");
    row("inside $and element", R"({"$and":[{"a":{"$in":2}}]})", "if_json.$and[0].a.$in");
}

void tst_RuleCondition::validateConditionRejects()
{
    QFETCH(QString, ifJson);
    QFETCH(QString, path);
    const Result<void> r = validateCondition(json(ifJson), QStringLiteral("if_json"));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().code, QStringLiteral("invalid_request"));
    const QJsonObject issue = r.error().details.value(u"issues").toArray().first().toObject();
    QCOMPARE(issue.value(u"path").toString(), path);
    QVERIFY(r.error().message.contains(path));
}

QTEST_GUILESS_MAIN(tst_RuleCondition)
#include "tst_rulecondition.moc"
