#include "service/index/vectorscorer.h"

#include <QTest>

#include <cmath>
#include <random>
#include <vector>

using namespace MemoryGraph;
using VectorScorer::Kernel;

namespace {

std::vector<float> randomFloats(std::mt19937 &rng, qsizetype count)
{
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    std::vector<float> v(size_t(count), 0.0f);
    for (float &x : v)
        x = gauss(rng);
    return v;
}

/// The reference: a plain loop summed in double.
double referenceDot(const float *a, const float *b, qsizetype n)
{
    double sum = 0.0;
    for (qsizetype i = 0; i < n; ++i)
        sum += double(a[i]) * double(b[i]);
    return sum;
}

/// Float sums in another order differ from the double reference by rounding only: allow a
/// few ulps of the summed magnitudes.
double tolerance(const float *a, const float *b, qsizetype n)
{
    double magnitude = 0.0;
    for (qsizetype i = 0; i < n; ++i)
        magnitude += std::abs(double(a[i]) * double(b[i]));
    return 1e-5 * magnitude + 1e-6;
}

QList<Kernel> kernelsOfThisCpu()
{
    QList<Kernel> kernels{Kernel::Portable};
    if (VectorScorer::supported(Kernel::Avx2Fma))
        kernels << Kernel::Avx2Fma;
    return kernels;
}

const QList<qsizetype> kOddSizes{0,  1,  3,  7,   8,   9,    15,   16,  17,
                                 31, 33, 63, 100, 257, 1535, 1536, 1537};

} // namespace

class tst_VectorScorer : public QObject
{
    Q_OBJECT

private slots:
    void dotMatchesTheReferenceOnOddSizes();
    void dotManyMatchesTheReferenceForEveryRowCount();
    void kernelsAgreeWithEachOther();
    void unalignedInputsAreFine();
    void activeKernelIsSupported();
};

void tst_VectorScorer::dotMatchesTheReferenceOnOddSizes()
{
    std::mt19937 rng(11);
    for (Kernel kernel : kernelsOfThisCpu()) {
        for (qsizetype n : kOddSizes) {
            const auto a = randomFloats(rng, n);
            const auto b = randomFloats(rng, n);
            const double want = referenceDot(a.data(), b.data(), n);
            const float got = VectorScorer::dot(kernel, a.data(), b.data(), n);
            QVERIFY2(std::abs(double(got) - want) <= tolerance(a.data(), b.data(), n),
                     qPrintable(QStringLiteral("%1, n=%2: %3 vs %4")
                                    .arg(QLatin1String(VectorScorer::kernelName(kernel)))
                                    .arg(n)
                                    .arg(double(got))
                                    .arg(want)));
        }
    }
}

void tst_VectorScorer::dotManyMatchesTheReferenceForEveryRowCount()
{
    std::mt19937 rng(12);
    for (Kernel kernel : kernelsOfThisCpu()) {
        for (qsizetype dim : {qsizetype(1), qsizetype(7), qsizetype(13), qsizetype(1536)}) {
            for (qsizetype rowCount = 0; rowCount <= 9; ++rowCount) {
                const auto query = randomFloats(rng, dim);
                const auto rows = randomFloats(rng, rowCount * dim);
                std::vector<float> scores(size_t(rowCount) + 1, -12345.0f);
                VectorScorer::dotMany(kernel, query.data(), rows.data(), rowCount, dim,
                                      scores.data());
                for (qsizetype r = 0; r < rowCount; ++r) {
                    const float *row = rows.data() + r * dim;
                    const double want = referenceDot(query.data(), row, dim);
                    QVERIFY2(std::abs(double(scores[size_t(r)]) - want)
                                 <= tolerance(query.data(), row, dim),
                             qPrintable(QStringLiteral("%1, dim=%2, row %3 of %4")
                                            .arg(QLatin1String(VectorScorer::kernelName(kernel)))
                                            .arg(dim)
                                            .arg(r)
                                            .arg(rowCount)));
                }
                QCOMPARE(scores[size_t(rowCount)], -12345.0f); // nothing written past the end
            }
        }
    }
}

void tst_VectorScorer::kernelsAgreeWithEachOther()
{
    if (!VectorScorer::supported(Kernel::Avx2Fma))
        QSKIP("this CPU has no AVX2/FMA");
    std::mt19937 rng(13);
    const qsizetype dim = 1536;
    const auto query = randomFloats(rng, dim);
    const auto rows = randomFloats(rng, 101 * dim);
    std::vector<float> portable(101), fast(101);
    VectorScorer::dotMany(Kernel::Portable, query.data(), rows.data(), 101, dim, portable.data());
    VectorScorer::dotMany(Kernel::Avx2Fma, query.data(), rows.data(), 101, dim, fast.data());
    for (int r = 0; r < 101; ++r)
        QVERIFY(std::abs(portable[size_t(r)] - fast[size_t(r)]) <= 1e-3f);
}

void tst_VectorScorer::unalignedInputsAreFine()
{
    std::mt19937 rng(14);
    const qsizetype dim = 1536;
    const auto buffer = randomFloats(rng, 3 * dim + 3);
    const float *query = buffer.data() + 1; // 4-byte aligned only
    const float *rows = buffer.data() + dim + 2;
    std::vector<float> scores(2);
    VectorScorer::dotMany(query, rows, 2, dim, scores.data());
    for (int r = 0; r < 2; ++r) {
        const float *row = rows + r * dim;
        QVERIFY(std::abs(double(scores[size_t(r)]) - referenceDot(query, row, dim))
                <= tolerance(query, row, dim));
    }
    QVERIFY(std::abs(double(VectorScorer::dot(query, rows, dim)) - referenceDot(query, rows, dim))
            <= tolerance(query, rows, dim));
}

void tst_VectorScorer::activeKernelIsSupported()
{
    const Kernel kernel = VectorScorer::activeKernel();
    QVERIFY(VectorScorer::supported(kernel));
    QVERIFY(VectorScorer::supported(Kernel::Portable));
    qInfo("active kernel: %s", VectorScorer::kernelName(kernel));
}

QTEST_GUILESS_MAIN(tst_VectorScorer)
#include "tst_vectorscorer.moc"
