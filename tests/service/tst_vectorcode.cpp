// The backlog's quantised vectors: a quarter of the bytes, and dot products close enough to
// the exact ones that re-scoring a short list of the best recovers the exact top-k.

#include "service/index/vectorcode.h"
#include "service/index/vectorscorer.h"

#include <QTest>

#include <cmath>
#include <random>
#include <vector>

using namespace MemoryGraph;

namespace {

constexpr int kDim = 1536;

std::vector<float> randomUnit(std::mt19937 &rng)
{
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    std::vector<float> v(kDim);
    double sum = 0;
    for (float &x : v) {
        x = gauss(rng);
        sum += double(x) * x;
    }
    for (float &x : v)
        x = float(x / std::sqrt(sum));
    return v;
}

float exactDot(const std::vector<float> &a, const std::vector<float> &b)
{
    double sum = 0;
    for (int i = 0; i < kDim; ++i)
        sum += double(a[size_t(i)]) * b[size_t(i)];
    return float(sum);
}

} // namespace

class tst_VectorCode : public QObject
{
    Q_OBJECT

private slots:
    void aQuarterOfTheBytes();
    void approximatesTheDotProduct();
    void kernelsAgree();
    void emptyStaysEmpty();
};

void tst_VectorCode::aQuarterOfTheBytes()
{
    std::mt19937 rng(1);
    const QByteArray code = VectorCode::encode(randomUnit(rng).data(), kDim);
    QCOMPARE(code.size(), qsizetype(kDim + sizeof(float)));
    QCOMPARE(VectorCode::dimension(code), qsizetype(kDim));
}

void tst_VectorCode::approximatesTheDotProduct()
{
    std::mt19937 rng(2);
    const std::vector<float> query = randomUnit(rng);
    const QByteArray queryCode = VectorCode::encode(query.data(), kDim);
    QVERIFY(std::fabs(VectorCode::approximateDot(queryCode, queryCode) - 1.0f) < 0.01f);
    float worst = 0;
    for (int i = 0; i < 200; ++i) {
        // Near and far vectors alike: the query plus noise of growing weight.
        const std::vector<float> noise = randomUnit(rng);
        std::vector<float> v(kDim);
        const float w = float(i) / 200.0f;
        for (int d = 0; d < kDim; ++d)
            v[size_t(d)] = (1 - w) * query[size_t(d)] + w * noise[size_t(d)];
        const float norm = std::sqrt(exactDot(v, v));
        for (float &x : v)
            x /= norm;
        const float approx
            = VectorCode::approximateDot(queryCode, VectorCode::encode(v.data(), kDim));
        worst = std::max(worst, std::fabs(approx - exactDot(query, v)));
    }
    QVERIFY2(worst < 0.005f, qPrintable(QStringLiteral("worst error %1").arg(worst)));
}

void tst_VectorCode::kernelsAgree()
{
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> byte(-128, 127);
    for (int n : {1, 31, 32, 33, 63, 64, 65, 1536, 1537}) {
        std::vector<qint8> a(static_cast<size_t>(n));
        std::vector<qint8> b(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            a[size_t(i)] = qint8(byte(rng));
            b[size_t(i)] = qint8(byte(rng));
        }
        qint32 expected = 0;
        for (int i = 0; i < n; ++i)
            expected += qint32(a[size_t(i)]) * b[size_t(i)];
        using VectorScorer::Int8Kernel;
        for (Int8Kernel kernel : {Int8Kernel::Portable, Int8Kernel::Avx2, Int8Kernel::Avx512Vnni}) {
            if (VectorScorer::supported(kernel))
                QCOMPARE(VectorScorer::dotInt8(kernel, a.data(), b.data(), n), expected);
        }
    }
}

void tst_VectorCode::emptyStaysEmpty()
{
    QVERIFY(VectorCode::encode(nullptr, 0).isEmpty());
    QCOMPARE(VectorCode::dimension(QByteArray()), qsizetype(0));
}

QTEST_GUILESS_MAIN(tst_VectorCode)
#include "tst_vectorcode.moc"
