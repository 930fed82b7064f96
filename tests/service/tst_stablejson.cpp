#include "service/core/hashing.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <cstring>
#include <random>

using namespace MemoryGraph;

namespace {

/// What Qt writes for the value: stableJson must keep producing exactly these bytes, since
/// request keys and content-derived ids are hashes of it.
QByteArray qtCompact(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Object: return QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    case QJsonValue::Array: return QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    default: {
        const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
        return wrapped.mid(1, wrapped.size() - 2);
    }
    }
}

} // namespace

class tst_StableJson : public QObject
{
    Q_OBJECT

private slots:
    void numbersAreWrittenAsQtWritesThem();
    void parsedNumbersAndEdgeCasesMatchQt();
    void objectsStringsAndNestingMatchQt();
};

void tst_StableJson::numbersAreWrittenAsQtWritesThem()
{
    std::mt19937_64 rng(20240611);
    std::normal_distribution<float> gauss;
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-320, 300);
    int checked = 0;
    auto check = [&checked](double d) {
        const QJsonValue v(d);
        QCOMPARE(stableJson(v), qtCompact(v));
        ++checked;
    };
    for (int i = 0; i < 20000; ++i) {
        check(double(gauss(rng)));
        check(double(gauss(rng) * 0.03f));
        check(unit(rng) * std::pow(10.0, exponent(rng)));
        double bits = 0.0;
        const quint64 raw = rng();
        std::memcpy(&bits, &raw, sizeof bits);
        if (std::isfinite(bits))
            check(bits);
    }
    QVERIFY(checked > 60000);
}

void tst_StableJson::parsedNumbersAndEdgeCasesMatchQt()
{
    // Numbers as a request body holds them: parsed from text, integers kept as integers.
    const QByteArray text
        = "[0,-0,1,-1,1000000,1e6,100,123456789012,9007199254740993,1e21,1e22,1e-7,0.0001,"
          "0.001,1.5e300,-2.5e-300,0.1,0.30000000000000004,5e-324,1.7976931348623157e308,"
          "0.012345678,-0.98765432,123.456,1234567.5,12345678.25,3.0,2.50,-7.125e-5,"
          "0.000123456789,9.999999e-5,1e-5,1.0000001]";
    const QJsonArray numbers = QJsonDocument::fromJson(text).array();
    QCOMPARE(numbers.size(), 32);
    for (const QJsonValue &v : numbers)
        QCOMPARE(stableJson(v), qtCompact(v));
    QCOMPARE(stableJson(numbers), qtCompact(numbers));
}

void tst_StableJson::objectsStringsAndNestingMatchQt()
{
    QJsonArray embedding;
    std::mt19937 rng(3);
    std::normal_distribution<float> gauss;
    for (int i = 0; i < 1536; ++i)
        embedding.append(double(gauss(rng) * 0.03f));
    const QJsonObject node{
        {QStringLiteral("client_id"), QStringLiteral("bench-1")},
        {QStringLiteral("text_summary"),
         QStringLiteral("quote \" back\\slash \u00e9 \u0001 tab\t")},
        {QStringLiteral("z\u00fcrich"), true},
        {QStringLiteral("nothing"), QJsonValue()},
        {QStringLiteral("slots"),
         QJsonObject{{QStringLiteral("b"), 1},
                     {QStringLiteral("a"), QJsonArray{1.25, QStringLiteral("x")}}}},
        {QStringLiteral("embedding"), embedding}};
    const QJsonObject body{{QStringLiteral("scope"), QStringLiteral("bench")},
                           {QStringLiteral("nodes"), QJsonArray{node, node}},
                           {QStringLiteral("empty"), QJsonObject()},
                           {QStringLiteral("list"), QJsonArray()}};
    // Through text, as the server receives it.
    const QJsonObject parsed = QJsonDocument::fromJson(QJsonDocument(body).toJson()).object();
    QCOMPARE(stableJson(parsed), qtCompact(parsed));
    QCOMPARE(stableJson(body), qtCompact(body));
    QCOMPARE(stableJson(QJsonValue(QStringLiteral("plain"))), QByteArray("\"plain\""));
    QCOMPARE(stableJson(QJsonValue(false)), QByteArray("false"));
}

QTEST_GUILESS_MAIN(tst_StableJson)
#include "tst_stablejson.moc"
