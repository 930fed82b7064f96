#include "service/embedding/localembeddingprovider.h"

#include "service/core/vocabulary.h"
#include "service/embedding/lexicalterms.h"
#include "service/embedding/wordconcepts.h"

#include <array>
#include <cmath>
#include <map>

namespace MemoryGraph {

namespace {

constexpr double kUnigramWeight = 1.0;
constexpr double kBigramWeight = 0.5;
constexpr double kTrigramWeight = 0.3;
// A word's WordNet concepts, lighter the broader they are: a shared sense counts a little
// over half a shared word, a shared grandparent concept far less. Tuned on the recall-quality
// corpus (tests/benchmark/recallquality).
constexpr std::array<double, WordConcepts::kMaxDepth + 1> kConceptWeights{0.6, 0.4, 0.2, 0.1, 0.05};

// FNV-1a (64 bit) followed by the MurmurHash3 finaliser: FNV alone leaves the low bits, which
// pick the bucket, poorly mixed for short keys.
quint64 featureHash(const QByteArray &key)
{
    quint64 h = 14695981039346656037ULL;
    for (char c : key) {
        h ^= quint8(c);
        h *= 1099511628211ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

struct Feature
{
    double weight = 0.0;
    int count = 0;
};

// Keys carry a kind prefix so the unigram "ab" and a trigram "ab" never share a count.
// std::map keeps the summation order fixed, which keeps the float result bit-identical.
using FeatureCounts = std::map<QByteArray, Feature>;

void count(FeatureCounts &features, const QByteArray &key, double weight)
{
    Feature &f = features[key];
    f.weight = weight;
    ++f.count;
}

void addTrigrams(FeatureCounts &features, const QString &term)
{
    // '#' cannot occur inside a term, so it marks word boundaries unambiguously.
    QList<uint> points = term.toUcs4();
    points.prepend(uint('#'));
    points.append(uint('#'));
    for (int i = 0; i + 3 <= points.size(); ++i) {
        const char32_t gram3[3]
            = {char32_t(points.at(i)), char32_t(points.at(i + 1)), char32_t(points.at(i + 2))};
        const QString gram = QString::fromUcs4(gram3, 3);
        count(features, "c:" + gram.toUtf8(), kTrigramWeight);
    }
}

/// Each concept once per word it comes from, weighted by its nearest depth among them.
void addConcepts(FeatureCounts &features, const QString &text)
{
    for (const QString &word : Lexical::words(text)) {
        for (const WordConcepts::Concept &c : WordConcepts::of(word)) {
            Feature &f = features["s:" + QByteArray::number(c.id)];
            f.weight = qMax(f.weight, kConceptWeights.at(size_t(c.depth)));
            ++f.count;
        }
    }
}

} // namespace

QString LocalEmbeddingProvider::name() const
{
    return QStringLiteral("local:hashing-v2");
}

QString LocalEmbeddingProvider::model() const
{
    return QStringLiteral("local-hashing-v2");
}

bool LocalEmbeddingProvider::supersedes(const QString &storedModel) const
{
    return storedModel.startsWith(QLatin1String("local-hashing-")) && storedModel != model();
}

Result<QVector<Embedding>> LocalEmbeddingProvider::embed(const QStringList &texts)
{
    QVector<Embedding> out;
    out.reserve(texts.size());
    for (const QString &text : texts) {
        auto v = vectorFor(text);
        if (!v)
            return v.error();
        out.append(std::move(v).value());
    }
    return out;
}

Result<Embedding> LocalEmbeddingProvider::vectorFor(const QString &text)
{
    const QStringList terms = Lexical::terms(text);
    if (terms.isEmpty())
        return Error::make(400, QStringLiteral("invalid_request"),
                           QStringLiteral("text has nothing to embed"));

    FeatureCounts features;
    for (int i = 0; i < terms.size(); ++i) {
        const QByteArray word = terms.at(i).toUtf8();
        count(features, "w:" + word, kUnigramWeight);
        if (i > 0)
            count(features, "b:" + terms.at(i - 1).toUtf8() + ' ' + word, kBigramWeight);
        addTrigrams(features, terms.at(i));
    }
    addConcepts(features, text);

    constexpr int dim = Vocabulary::kEmbeddingDimension;
    QVector<double> acc(dim, 0.0);
    for (const auto &[key, feature] : features) {
        const quint64 h = featureHash(key);
        const int bucket = int(h % quint64(dim));
        const double sign = (h >> 63) ? -1.0 : 1.0;
        acc[bucket] += sign * feature.weight * (1.0 + std::log(double(feature.count)));
    }

    double norm = 0.0;
    for (double x : acc)
        norm += x * x;
    norm = std::sqrt(norm);
    // Every feature could cancel out in a collision only in theory; refuse rather than
    // return a zero vector that cosine similarity cannot handle.
    if (!(norm > 0.0))
        return Error::make(400, QStringLiteral("invalid_request"),
                           QStringLiteral("text has nothing to embed"));

    Embedding v(dim);
    for (int i = 0; i < dim; ++i)
        v[i] = float(acc.at(i) / norm);
    return v;
}

} // namespace MemoryGraph
