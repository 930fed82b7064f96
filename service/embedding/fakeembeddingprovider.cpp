#include "service/embedding/fakeembeddingprovider.h"

#include "service/core/vocabulary.h"

#include <QCryptographicHash>
#include <QtEndian>

#include <cmath>

namespace MemoryGraph {

QString FakeEmbeddingProvider::name() const
{
    return QStringLiteral("fake:deterministic");
}

QString FakeEmbeddingProvider::model() const
{
    return QStringLiteral("fake");
}

Result<QVector<Embedding>> FakeEmbeddingProvider::embed(const QStringList &texts)
{
    QVector<Embedding> out;
    out.reserve(texts.size());
    for (const QString &text : texts)
        out.append(vectorFor(text));
    return out;
}

Embedding FakeEmbeddingProvider::vectorFor(const QString &text)
{
    constexpr int dim = Vocabulary::kEmbeddingDimension;
    const QByteArray seed = QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256);

    // One digest gives 16 uint16 components; chaining SHA-256(seed || counter) stretches the
    // seed to the full dimension without any platform-dependent random generator.
    Embedding v(dim);
    int filled = 0;
    for (quint32 counter = 0; filled < dim; ++counter) {
        QByteArray block = seed;
        block.append(4, '\0');
        qToBigEndian(counter, block.data() + seed.size());
        const QByteArray digest = QCryptographicHash::hash(block, QCryptographicHash::Sha256);
        for (int i = 0; i + 1 < digest.size() && filled < dim; i += 2) {
            const quint16 raw = qFromBigEndian<quint16>(digest.constData() + i);
            // Centre on zero so independent vectors have an expected dot product of zero.
            v[filled++] = float(raw) / 32767.5f - 1.0f;
        }
    }

    double norm = 0.0;
    for (float x : v)
        norm += double(x) * double(x);
    const float inv = norm > 0.0 ? float(1.0 / std::sqrt(norm)) : 0.0f;
    for (float &x : v)
        x *= inv;
    return v;
}

} // namespace MemoryGraph
