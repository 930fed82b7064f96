#include "service/rules/policypatch.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Rules;

namespace {

QJsonValue json(const QByteArray &text)
{
    if (text == "undefined")
        return QJsonValue(QJsonValue::Undefined);
    return QJsonDocument::fromJson('[' + text + ']').array().first();
}

} // namespace

class tst_PolicyPatch : public QObject
{
    Q_OBJECT

private slots:
    void acceptsValidPatches_data();
    void acceptsValidPatches();
    void rejectsInvalidPatches_data();
    void rejectsInvalidPatches();
    void listSizeLimit();
};

void tst_PolicyPatch::acceptsValidPatches_data()
{
    QTest::addColumn<QByteArray>("patch");
    QTest::newRow("empty") << QByteArray("{}");
    QTest::newRow("full") << QByteArray(
        R"({"output":{"format":"markdown","strict":true},)"
        R"("tool":{"allow":["psql"],"deny":["rm"],"prefer":["psql","curl"]},)"
        R"("extensions":{"acme.tracing":{"level":2}}})");
    QTest::newRow("format json") << QByteArray(R"({"output":{"format":"json"}})");
    QTest::newRow("format text") << QByteArray(R"({"output":{"format":"text"}})");
    QTest::newRow("empty output") << QByteArray(R"({"output":{}})");
    QTest::newRow("empty tool lists")
        << QByteArray(R"({"tool":{"allow":[],"deny":[],"prefer":[]}})");
    QTest::newRow("whitespace name is non-empty") << QByteArray(R"({"tool":{"deny":[" "]}})");
    QTest::newRow("extensions anything inside")
        << QByteArray(R"({"extensions":{"x":[1,null,"y"]}})");
}

void tst_PolicyPatch::acceptsValidPatches()
{
    QFETCH(QByteArray, patch);
    const Result<QJsonObject> r = validatePolicyPatch(json(patch));
    QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
    QCOMPARE(QJsonValue(r.value()), json(patch));
}

void tst_PolicyPatch::rejectsInvalidPatches_data()
{
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QString>("path");
    const auto row = [](const char *name, const char *patch, const char *path) {
        QTest::newRow(name) << QByteArray(patch) << QString::fromUtf8(path);
    };
    row("not an object", "[]", "");
    row("null", "null", "");
    row("string", R"("x")", "");
    row("unknown top-level key", R"({"tools":{}})", "tools");
    row("output not object", R"({"output":"json"})", "output");
    row("output unknown key", R"({"output":{"style":"x"}})", "output.style");
    row("output format enum", R"({"output":{"format":"yaml"}})", "output.format");
    row("output format type", R"({"output":{"format":1}})", "output.format");
    row("output strict type", R"({"output":{"strict":"yes"}})", "output.strict");
    row("tool not object", R"({"tool":["psql"]})", "tool");
    row("tool unknown key", R"({"tool":{"allow":[],"block":["rm"]}})", "tool.block");
    row("tool list not array", R"({"tool":{"deny":"rm"}})", "tool.deny");
    row("tool list null", R"({"tool":{"prefer":null}})", "tool.prefer");
    row("empty name", R"({"tool":{"allow":["a","b",""]}})", "tool.allow[2]");
    row("non-string name", R"({"tool":{"prefer":["a",1]}})", "tool.prefer[1]");
    row("extensions not object", R"({"extensions":[]})", "extensions");
    row("extensions null", R"({"extensions":null})", "extensions");
}

void tst_PolicyPatch::rejectsInvalidPatches()
{
    QFETCH(QByteArray, patch);
    QFETCH(QString, path);
    const Result<QJsonObject> r = validatePolicyPatch(json(patch));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().code, QStringLiteral("invalid_request"));
    const QJsonObject issue = r.error().details.value(u"issues").toArray().first().toObject();
    QCOMPARE(issue.value(u"path").toString(), path);
    if (!path.isEmpty())
        QVERIFY(r.error().message.startsWith(path + QStringLiteral(": ")));
}

void tst_PolicyPatch::listSizeLimit()
{
    QJsonArray hundred;
    for (int i = 0; i < kMaxToolListSize; ++i)
        hundred.append(QStringLiteral("t%1").arg(i));
    QJsonObject patch{{QStringLiteral("tool"), QJsonObject{{QStringLiteral("allow"), hundred}}}};
    QVERIFY(validatePolicyPatch(patch).ok());

    hundred.append(QStringLiteral("one-too-many"));
    patch = {{QStringLiteral("tool"), QJsonObject{{QStringLiteral("allow"), hundred}}}};
    const Result<QJsonObject> r = validatePolicyPatch(patch);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().details.value(u"issues").toArray().first().toObject().value(u"path"),
             QJsonValue(QStringLiteral("tool.allow")));

    // A missing then_json is the default {}.
    const Result<QJsonObject> missing = validatePolicyPatch(QJsonValue(QJsonValue::Undefined));
    QVERIFY(missing.ok());
    QVERIFY(missing.value().isEmpty());
}

QTEST_GUILESS_MAIN(tst_PolicyPatch)
#include "tst_policypatch.moc"
