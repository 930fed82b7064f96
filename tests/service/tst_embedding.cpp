#include "service/core/vocabulary.h"
#include "service/embedding/embeddingprovider.h"
#include "service/embedding/fakeembeddingprovider.h"
#include "service/embedding/lexicalterms.h"
#include "service/embedding/localembeddingprovider.h"

#include <QTest>

#include <cmath>

using namespace MemoryGraph;

namespace {

double dot(const Embedding &a, const Embedding &b)
{
    double sum = 0.0;
    for (int i = 0; i < a.size(); ++i)
        sum += double(a.at(i)) * double(b.at(i));
    return sum;
}

double norm(const Embedding &v)
{
    return std::sqrt(dot(v, v));
}

Embedding local(const QString &text)
{
    auto v = LocalEmbeddingProvider::vectorFor(text);
    if (!v) {
        qWarning("embedding failed: %s", qPrintable(v.error().message));
        return {};
    }
    return v.value();
}

double localCosine(const QString &a, const QString &b)
{
    return dot(local(a), local(b)); // both unit length
}

ServiceConfig configFor(const QString &provider)
{
    ServiceConfig config;
    config.embeddingProvider = provider;
    return config;
}

} // namespace

class tst_Embedding : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fakeIsDeterministicUnitLength();
    void fakeSeparatesDifferentTexts();
    void fakeBatchKeepsOrder();

    void localNameAndModel();
    void localDimensionAndNorm();
    void localIsDeterministicAcrossInstances();
    void localRanksSimilarWordingHigher_data();
    void localRanksSimilarWordingHigher();
    void localMatchesInflections_data();
    void localMatchesInflections();
    void localStemsSafely_data();
    void localStemsSafely();
    void localTermsDropStopWordsAndFoldCase();
    void localHandlesNonLatinText();
    void localRejectsTextWithoutWords_data();
    void localRejectsTextWithoutWords();
    void localBatchFailsOnAnyEmptyText();

    void factoryNoneGivesNoProvider();
    void factoryBuildsOfflineProviders();
    void factoryRefusesOpenAi();
};

void tst_Embedding::fakeIsDeterministicUnitLength()
{
    FakeEmbeddingProvider a;
    FakeEmbeddingProvider b;
    QCOMPARE(a.name(), QStringLiteral("fake:deterministic"));
    QCOMPARE(a.model(), QStringLiteral("fake"));
    const auto va = a.embed({QStringLiteral("remember the milk")});
    const auto vb = b.embed({QStringLiteral("remember the milk")});
    QVERIFY(va.ok() && vb.ok());
    QCOMPARE(va.value().size(), 1);
    QCOMPARE(va.value().first().size(), Vocabulary::kEmbeddingDimension);
    QCOMPARE(va.value().first(), vb.value().first());
    QVERIFY(std::abs(norm(va.value().first()) - 1.0) < 1e-5);
}

void tst_Embedding::fakeSeparatesDifferentTexts()
{
    const Embedding a = FakeEmbeddingProvider::vectorFor(QStringLiteral("remember the milk"));
    const Embedding b = FakeEmbeddingProvider::vectorFor(QStringLiteral("remember the milk!"));
    // Random unit vectors in 1536 dimensions have |cos| around 0.026; 0.15 is > 5 sigma.
    QVERIFY2(std::abs(dot(a, b)) < 0.15, qPrintable(QString::number(dot(a, b))));
    for (float x : a)
        QVERIFY(std::isfinite(x));
}

void tst_Embedding::fakeBatchKeepsOrder()
{
    FakeEmbeddingProvider p;
    const QStringList texts{QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("three")};
    const auto batch = p.embed(texts);
    QVERIFY(batch.ok());
    QCOMPARE(batch.value().size(), 3);
    for (int i = 0; i < texts.size(); ++i)
        QCOMPARE(batch.value().at(i), FakeEmbeddingProvider::vectorFor(texts.at(i)));
}

void tst_Embedding::localNameAndModel()
{
    LocalEmbeddingProvider p;
    QCOMPARE(p.name(), QStringLiteral("local:hashing-v2"));
    QCOMPARE(p.model(), QStringLiteral("local-hashing-v2"));
}

void tst_Embedding::localDimensionAndNorm()
{
    const Embedding v = local(QStringLiteral("The user prefers dark mode in the editor."));
    QCOMPARE(v.size(), Vocabulary::kEmbeddingDimension);
    QVERIFY(std::abs(norm(v) - 1.0) < 1e-5);
    int nonZero = 0;
    for (float x : v) {
        QVERIFY(std::isfinite(x));
        nonZero += x != 0.0f;
    }
    QVERIFY(nonZero > 10);
}

void tst_Embedding::localIsDeterministicAcrossInstances()
{
    const QStringList texts{QStringLiteral("Deploy the staging cluster on Fridays"),
                            QStringLiteral("用户喜欢深色模式")};
    LocalEmbeddingProvider a;
    LocalEmbeddingProvider b;
    const auto va = a.embed(texts);
    const auto vb = b.embed(texts);
    QVERIFY(va.ok() && vb.ok());
    QCOMPARE(va.value(), vb.value()); // bit-identical, not just close
    // Pin the vector of one word so a change of hash, seed, weights or normalisation cannot
    // slip in unnoticed: vectors already stored would silently stop matching new queries.
    // "dark" = unigram (1.0) + trigrams "#da" "dar" "ark" "rk#" (0.3 each) + the WordNet
    // concepts of its two noun senses (darkness, night: 0.6) and those above them.
    const Embedding v = local(QStringLiteral("dark"));
    QList<int> nonZero;
    for (int i = 0; i < v.size(); ++i) {
        if (v.at(i) != 0.0f)
            nonZero.append(i);
    }
    QCOMPARE(nonZero, (QList<int>{214, 246, 256, 317, 521, 554, 670, 936, 978, 1016, 1127, 1215}));
    QVERIFY(qFuzzyCompare(v.at(1016), 0.638550878f));  // the word
    QVERIFY(qFuzzyCompare(v.at(214), -0.19156526f));   // a trigram
    QVERIFY(qFuzzyCompare(v.at(256), 0.383130521f));   // one of its senses
    QVERIFY(qFuzzyCompare(v.at(521), -0.0319275446f)); // a concept four levels up
    QCOMPARE(local(QStringLiteral("dark")), local(QStringLiteral("  DARK!! ")));
}

void tst_Embedding::localRanksSimilarWordingHigher_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("related");
    QTest::addColumn<QString>("unrelated");
    QTest::addColumn<double>("margin");

    QTest::newRow("dark mode") << QStringLiteral("the user prefers dark mode in the editor")
                               << QStringLiteral("user likes dark editor themes")
                               << QStringLiteral("quarterly revenue grew in Europe") << 0.2;
    QTest::newRow("deploys") << QStringLiteral("deploy the service to the staging cluster")
                             << QStringLiteral("staging deployments of services run on the cluster")
                             << QStringLiteral("the cat sleeps on the sofa all afternoon") << 0.2;
    QTest::newRow("meetings") << QStringLiteral("weekly meeting with the design team on Monday")
                              << QStringLiteral("the design team meets every Monday")
                              << QStringLiteral("python virtual environments break after upgrades")
                              << 0.2;
    QTest::newRow("allergy") << QStringLiteral("Alice is allergic to peanuts")
                             << QStringLiteral("peanut allergy: Alice")
                             << QStringLiteral("Bob enjoys hiking in the mountains") << 0.2;
    QTest::newRow("typo-ish") << QStringLiteral("configure the embedding provider")
                              << QStringLiteral("embeddings provider configuration")
                              << QStringLiteral("the invoice was paid late") << 0.2;
    // No word or trigram in common: only the WordNet concepts connect them, weakly.
    QTest::newRow("meaning: synonym") << QStringLiteral("automobile") << QStringLiteral("my car")
                                      << QStringLiteral("my invoice") << 0.03;
    QTest::newRow("meaning: broader")
        << QStringLiteral("who avoids felines") << QStringLiteral("Ines sneezes around cats")
        << QStringLiteral("Marcus sings in a choir") << 0.03;
    QTest::newRow("meaning: narrower")
        << QStringLiteral("who has bunnies") << QStringLiteral("Dana's two lop-eared rabbits")
        << QStringLiteral("Marcus sings in a choir") << 0.03;
}

void tst_Embedding::localRanksSimilarWordingHigher()
{
    QFETCH(QString, query);
    QFETCH(QString, related);
    QFETCH(QString, unrelated);
    QFETCH(double, margin);
    const double near = localCosine(query, related);
    const double far = localCosine(query, unrelated);
    qInfo("cos(related)=%.3f cos(unrelated)=%.3f", near, far);
    QVERIFY2(near > far + margin, qPrintable(QStringLiteral("%1 vs %2").arg(near).arg(far)));
    QVERIFY(std::abs(far) < 0.15);
}

void tst_Embedding::localMatchesInflections_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");

    QTest::newRow("plural") << QStringLiteral("editor theme") << QStringLiteral("editor themes");
    QTest::newRow("es plural") << QStringLiteral("box") << QStringLiteral("boxes");
    QTest::newRow("ies plural") << QStringLiteral("query") << QStringLiteral("queries");
    QTest::newRow("sses plural") << QStringLiteral("class") << QStringLiteral("classes");
    QTest::newRow("possessive") << QStringLiteral("user settings")
                                << QStringLiteral("user's setting");
    QTest::newRow("ing") << QStringLiteral("deploy") << QStringLiteral("deploying");
    QTest::newRow("ed") << QStringLiteral("deploy") << QStringLiteral("deployed");
    QTest::newRow("e + ing") << QStringLiteral("like") << QStringLiteral("liking");
    QTest::newRow("e + ed") << QStringLiteral("like") << QStringLiteral("liked");
    QTest::newRow("doubled") << QStringLiteral("stop") << QStringLiteral("stopped");
    QTest::newRow("ied") << QStringLiteral("study") << QStringLiteral("studied");
    QTest::newRow("root -ed") << QStringLiteral("embeds") << QStringLiteral("embedding");
    QTest::newRow("use") << QStringLiteral("use") << QStringLiteral("used");
    QTest::newRow("case") << QStringLiteral("Dark Mode") << QStringLiteral("dark mode");
}

void tst_Embedding::localMatchesInflections()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QCOMPARE(Lexical::terms(a), Lexical::terms(b));
    // The words agree; their meanings may differ a little where an inflected form is a word
    // of its own ("setting", "liking") with senses besides its base form's.
    QVERIFY2(localCosine(a, b) > 0.8, qPrintable(QString::number(localCosine(a, b))));
}

void tst_Embedding::localStemsSafely_data()
{
    QTest::addColumn<QString>("word");
    QTest::addColumn<QString>("expected");

    // Words that merely end in a suffix-like string keep their shape.
    QTest::newRow("red") << QStringLiteral("red") << QStringLiteral("red");
    QTest::newRow("thing") << QStringLiteral("thing") << QStringLiteral("thing");
    QTest::newRow("string") << QStringLiteral("string") << QStringLiteral("string");
    QTest::newRow("status") << QStringLiteral("status") << QStringLiteral("status");
    QTest::newRow("analysis") << QStringLiteral("analysis") << QStringLiteral("analysis");
    QTest::newRow("class") << QStringLiteral("class") << QStringLiteral("class");
    QTest::newRow("need") << QStringLiteral("need") << QStringLiteral("need");
    QTest::newRow("gas") << QStringLiteral("gas") << QStringLiteral("gas");
    QTest::newRow("non-ascii") << QStringLiteral("häuser") << QStringLiteral("häuser");
    QTest::newRow("digits") << QStringLiteral("2024s") << QStringLiteral("2024s");
}

void tst_Embedding::localStemsSafely()
{
    QFETCH(QString, word);
    QFETCH(QString, expected);
    QCOMPARE(Lexical::stem(word), expected);
}

void tst_Embedding::localTermsDropStopWordsAndFoldCase()
{
    QCOMPARE(
        Lexical::terms(QStringLiteral("The USER is in the Editor, and it's DARK.")),
        (QStringList{QStringLiteral("user"), QStringLiteral("editor"), QStringLiteral("dark")}));
    // Full-width letters fold to ASCII under NFKC.
    QCOMPARE(Lexical::terms(QStringLiteral("ｄａｒｋ")), QStringList{QStringLiteral("dark")});
}

void tst_Embedding::localHandlesNonLatinText()
{
    // Han is written without spaces; one term per character gives overlap to shared words.
    QCOMPARE(Lexical::terms(QStringLiteral("深色模式")).size(), 4);
    const double near = localCosine(QStringLiteral("用户喜欢深色模式"), QStringLiteral("深色模式"));
    const double far
        = localCosine(QStringLiteral("用户喜欢深色模式"), QStringLiteral("季度收入增长"));
    QVERIFY2(near > far + 0.2, qPrintable(QStringLiteral("%1 vs %2").arg(near).arg(far)));

    const double cyr = localCosine(QStringLiteral("тёмная тема редактора"),
                                   QStringLiteral("редактора тёмная тема"));
    QVERIFY(cyr > 0.6);
}

void tst_Embedding::localRejectsTextWithoutWords_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << QString();
    QTest::newRow("spaces") << QStringLiteral("   \n\t ");
    QTest::newRow("punctuation") << QStringLiteral("?!... --- ***");
    QTest::newRow("stop words only") << QStringLiteral("the and of it");
}

void tst_Embedding::localRejectsTextWithoutWords()
{
    QFETCH(QString, text);
    const auto v = LocalEmbeddingProvider::vectorFor(text);
    QVERIFY(!v.ok());
    QCOMPARE(v.error().status, 400);
    QCOMPARE(v.error().code, QStringLiteral("invalid_request"));
    QCOMPARE(v.error().message, QStringLiteral("text has nothing to embed"));
}

void tst_Embedding::localBatchFailsOnAnyEmptyText()
{
    LocalEmbeddingProvider p;
    const auto batch = p.embed({QStringLiteral("dark mode"), QString()});
    QVERIFY(!batch.ok());
    QCOMPARE(batch.error().code, QStringLiteral("invalid_request"));
    QVERIFY(p.embed({}).ok());
    QCOMPARE(p.embed({}).value().size(), 0);
}

void tst_Embedding::factoryNoneGivesNoProvider()
{
    auto provider = makeOfflineEmbeddingProvider(configFor(QStringLiteral("none")));
    QVERIFY(provider.ok());
    QVERIFY(provider.value() == nullptr);
}

void tst_Embedding::factoryBuildsOfflineProviders()
{
    auto fake = makeOfflineEmbeddingProvider(configFor(QStringLiteral("fake")));
    QVERIFY(fake.ok() && fake.value());
    QCOMPARE(fake.value()->name(), QStringLiteral("fake:deterministic"));

    auto localProvider = makeOfflineEmbeddingProvider(configFor(QStringLiteral("local")));
    QVERIFY(localProvider.ok() && localProvider.value());
    QCOMPARE(localProvider.value()->name(), QStringLiteral("local:hashing-v2"));

    // The default configuration is the offline local embedder (the desktop default).
    auto byDefault = makeOfflineEmbeddingProvider(ServiceConfig());
    QVERIFY(byDefault.ok() && byDefault.value());
    QCOMPARE(byDefault.value()->model(), QStringLiteral("local-hashing-v2"));
}

void tst_Embedding::factoryRefusesOpenAi()
{
    ServiceConfig config = configFor(QStringLiteral("openai"));
    config.embeddingApiKey = QStringLiteral("sk-offline-factory-secret");
    auto provider = makeOfflineEmbeddingProvider(config);
    QVERIFY(!provider.ok());
    QCOMPARE(provider.error().status, 500);
    QVERIFY(!provider.error().message.contains(config.embeddingApiKey));
}

QTEST_GUILESS_MAIN(tst_Embedding)
#include "tst_embedding.moc"
